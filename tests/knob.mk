# SPDX-License-Identifier: GPL-2.0-or-later
# tests for knob (see tests/local.mk): address/expander/validation/profile and
# journal unit tests, shell tests that write to copied fixture roots.
check_PROGRAMS += tests/unit/test_knob tests/unit/test_journal tests/unit/test_knob_leaves
tests_unit_test_knob_SOURCES = tests/unit/test_knob.c
tests_unit_test_knob_LDADD = $(TT_TEST_LIBS)
tests_unit_test_journal_SOURCES = tests/unit/test_journal.c
tests_unit_test_journal_LDADD = $(TT_TEST_LIBS)
tests_unit_test_knob_leaves_SOURCES = tests/unit/test_knob_leaves.c
tests_unit_test_knob_leaves_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_knob tests/unit/test_journal tests/unit/test_knob_leaves
KNOB_SH_TESTS = tests/knob/cpuidle_governor.sh tests/knob/families.sh tests/knob/hexmask.sh tests/knob/rollback.sh tests/knob/cli.sh \
	tests/knob/journal.sh tests/knob/exec.sh tests/knob/profiles.sh \
	tests/knob/pairs.sh tests/knob/userfiles.sh tests/knob/profile_strict.sh tests/knob/effect.sh tests/knob/effect_live.sh \
	tests/knob/owners.sh tests/knob/owners_tui.sh tests/knob/exec_follow.sh tests/knob/exec_hold.sh \
	tests/knob/exec_scope.sh
TESTS += $(KNOB_SH_TESTS)
EXTRA_DIST += $(KNOB_SH_TESTS) tests/knob/common.sh tests/knob/owners_lib.sh tests/bench/journal.sh
check_PROGRAMS += tests/bench/bench_journal
tests_bench_bench_journal_SOURCES = tests/bench/bench_journal.c
tests_bench_bench_journal_LDADD = $(TT_TEST_LIBS)
# A root that holds, writes that cannot tear, SIGKILL at random (issue 13);
# tests/bench/killloop.sh is the long form (make bench)
KNOB_ROOT_TESTS = tests/knob/escape.sh tests/knob/torn.sh tests/knob/killloop.sh
TESTS += $(KNOB_ROOT_TESTS)
EXTRA_DIST += $(KNOB_ROOT_TESTS) tests/bench/killloop.sh
# exec --metric: CMD's stdout passed through, its numbers summarized (issue 17)
TESTS += tests/knob/exec_metric.sh
EXTRA_DIST += tests/knob/exec_metric.sh
# zombie owners, stale temporary files, hard-linked journals (issue 32)
TESTS += tests/knob/safety.sh
EXTRA_DIST += tests/knob/safety.sh
# exec --pidfile follows only CMD's own processes (issue 32)
TESTS += tests/knob/exec_pidfile.sh
EXTRA_DIST += tests/knob/exec_pidfile.sh
# a multi-line value is refused in one line (issue 32, found by fuzz_knobaddr)
TESTS += tests/knob/value_lines.sh
EXTRA_DIST += tests/knob/value_lines.sh
# the undo record synced before the knob write, by strace (issue 32)
TESTS += tests/knob/durability.sh
EXTRA_DIST += tests/knob/durability.sh
# edges mutants showed untested: judge_qos verdicts, rt-migrations at its
# threshold, unknown affinity in the isolation audit (issue 32)
check_PROGRAMS += tests/unit/test_edges
tests_unit_test_edges_SOURCES = tests/unit/test_edges.c
tests_unit_test_edges_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_edges
# the pair checks at their edges (issue 32, from make mutate)
TESTS += tests/knob/pair_edges.sh
EXTRA_DIST += tests/knob/pair_edges.sh
# the knob family registry: every family from the one table (issue 33)
check_PROGRAMS += tests/unit/test_knob_registry
tests_unit_test_knob_registry_SOURCES = tests/unit/test_knob_registry.c
tests_unit_test_knob_registry_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_knob_registry tests/knob/registry.sh
TESTS += tests/knob/sim.sh tests/knob/sim_multi.sh
EXTRA_DIST += tests/knob/sim.sh tests/knob/sim_multi.sh
EXTRA_DIST += tests/knob/registry.sh
# the typed knob addresses of src/knob/knob_addr.h, expanded on every fixture (issue 33)
check_PROGRAMS += tests/unit/test_knob_addr
tests_unit_test_knob_addr_SOURCES = tests/unit/test_knob_addr.c
tests_unit_test_knob_addr_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_knob_addr

# governor tunables shared by all policies (rpi4, stm32mp157; issue 33)
TESTS += tests/knob/cpufreq_shared.sh
EXTRA_DIST += tests/knob/cpufreq_shared.sh
