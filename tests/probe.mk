# SPDX-License-Identifier: GPL-2.0-or-later
# tests for probe (see tests/local.mk): histogram and statistics unit tests,
# live probe runs on the build machine.
check_PROGRAMS += tests/unit/test_histogram tests/unit/test_stats
tests_unit_test_histogram_SOURCES = tests/unit/test_histogram.c
tests_unit_test_histogram_LDADD = $(TT_TEST_LIBS)
tests_unit_test_stats_SOURCES = tests/unit/test_stats.c
tests_unit_test_stats_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_histogram tests/unit/test_stats
TESTS += tests/probe/live.sh tests/probe/usage.sh
EXTRA_DIST += tests/probe/live.sh tests/probe/usage.sh
# soak runs (--summary, --histfile, --break on a fixture tracefs) and the
# RPMsg round trip against a pseudo-terminal echo (tests/probe/pty_echo.c)
check_PROGRAMS += tests/unit/test_histfile tests/probe/pty_echo
tests_unit_test_histfile_SOURCES = tests/unit/test_histfile.c
tests_unit_test_histfile_LDADD = $(TT_TEST_LIBS)
tests_probe_pty_echo_SOURCES = tests/probe/pty_echo.c
TESTS += tests/unit/test_histfile tests/probe/soak.sh tests/probe/rpmsg.sh
EXTRA_DIST += tests/probe/soak.sh tests/probe/rpmsg.sh tests/bench/rpmsg_pty.sh
# A/B and --load: unit tests (schedule, load threads, the TUI API on a copied
# fixture) and CLI tests on copied fixture roots.
check_PROGRAMS += tests/unit/test_ab
tests_unit_test_ab_SOURCES = tests/unit/test_ab.c
tests_unit_test_ab_LDADD = $(TT_TEST_LIBS)
AB_SH_TESTS = tests/probe/ab-usage.sh tests/probe/ab-cmd.sh tests/probe/ab-power.sh tests/probe/ab-kill.sh \
	tests/probe/ab-live.sh tests/probe/ab-stats.sh tests/probe/ab-effect.sh tests/probe/ab-sweep.sh
TESTS += tests/unit/test_ab $(AB_SH_TESTS)
# make bench: 10 real A/A experiments, the false-positive rate per metric
EXTRA_DIST += $(AB_SH_TESTS) tests/bench/ab_aa.sh tests/bench/ab_sweep_aa.sh
# make bench: 20 short null runs (at most 2 significant) and a known truth
# (--cmd 50 ms against 110 ms, 10 of 10), the gate of issue 30
EXTRA_DIST += tests/bench/ab_verdict.sh
# make bench: the observer effect (issue 20), compared with the A/B's window test
check_PROGRAMS += tests/bench/abba_cmp
tests_bench_abba_cmp_SOURCES = tests/bench/abba_cmp.c
tests_bench_abba_cmp_LDADD = $(TT_TEST_LIBS)
EXTRA_DIST += tests/bench/observer.sh tests/bench/why_cost.sh
# ab --metric-file: a log the app writes as the A/B's source (issue 17)
TESTS += tests/probe/ab-metricfile.sh
EXTRA_DIST += tests/probe/ab-metricfile.sh

# why late (issue 29): the event stream's text form
check_PROGRAMS += tests/unit/test_whyev
tests_unit_test_whyev_SOURCES = tests/unit/test_whyev.c
tests_unit_test_whyev_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_whyev
check_PROGRAMS += tests/unit/test_whyattr
tests_unit_test_whyattr_SOURCES = tests/unit/test_whyattr.c
tests_unit_test_whyattr_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_whyattr
# the A/B spread and quantiles against values worked out by hand (issue 32)
check_PROGRAMS += tests/unit/test_stats_spread
tests_unit_test_stats_spread_SOURCES = tests/unit/test_stats_spread.c
tests_unit_test_stats_spread_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_stats_spread
# A/B numbers carry their sign in the verdict (issue 32, from make mutate)
TESTS += tests/probe/ab_plus.sh
EXTRA_DIST += tests/probe/ab_plus.sh
# ab: missed deadlines per window/arm and lost windows, with the live
# probe thread frozen in a cgroup v1 freezer of the test's own (issue 30)
TESTS += tests/probe/ab-stall.sh
EXTRA_DIST += tests/probe/ab-stall.sh
# why late (issue 29): the probe's late records
check_PROGRAMS += tests/unit/test_probe_late
tests_unit_test_probe_late_SOURCES = tests/unit/test_probe_late.c
tests_unit_test_probe_late_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_probe_late
# probe --why live: a SCHED_FIFO thread with known bursts (rthog), block I/O,
# the instance after SIGTERM/SIGKILL + restore
check_PROGRAMS += tests/probe/rthog
tests_probe_rthog_SOURCES = tests/probe/rthog.c
TESTS += tests/probe/why_live.sh
EXTRA_DIST += tests/probe/why_live.sh
# what a monitor costs the studied CPU (issue 29): make bench, needs root
EXTRA_DIST += tests/bench/footprint.sh
