# SPDX-License-Identifier: GPL-2.0-or-later
CLI_TESTS = tests/cli/usage.sh tests/cli/golden.sh tests/cli/live.sh tests/cli/capture.sh \
	tests/cli/cross_arm64.sh tests/cli/cross_armhf.sh tests/cli/license.sh tests/cli/systemd_unit.sh tests/cli/manpage.sh tests/cli/journal_json.sh \
	tests/cli/capped.sh tests/cli/clocks.sh tests/cli/env.sh \
	tests/cli/unreadable.sh tests/cli/thermal_topology.sh tests/cli/hybrid_arch.sh \
	tests/cli/idle_truth.sh tests/cli/pfm_csv.sh tests/cli/self_place.sh \
	tests/cli/record_zstd.sh tests/cli/schema.sh tests/cli/openmetrics.sh tests/cli/stdout_dash.sh \
	tests/cli/layers.sh tests/cli/sizes.sh tests/cli/explain_files.sh tests/cli/musl.sh tests/cli/small_builds.sh tests/cli/accel_power.sh \
	tests/cli/kconfig.sh
TESTS += $(CLI_TESTS)
EXTRA_DIST += $(CLI_TESTS) tests/golden
# whole-file reads capped at 16 MiB (issue 13)
TESTS += tests/cli/bigfile.sh
EXTRA_DIST += tests/cli/bigfile.sh
# packages (debian/, contrib/buildroot, contrib/yocto) and shell completion (issue 16)
TESTS += tests/cli/packaging.sh tests/cli/completion.sh
EXTRA_DIST += tests/cli/packaging.sh tests/cli/completion.sh
# watch --metric-file: an app's log summarized per record (issue 17)
TESTS += tests/cli/watch_metric.sh
EXTRA_DIST += tests/cli/watch_metric.sh
# FIFOs, sockets and devices in a --root tree; cpufreq/sys leaving the root;
# capture's unwritten files (issue 32)
TESTS += tests/cli/nonregular.sh
EXTRA_DIST += tests/cli/nonregular.sh
# control characters from a tree escaped in text output (issue 32)
TESTS += tests/cli/ctlchars.sh
EXTRA_DIST += tests/cli/ctlchars.sh
# recordings: line-length and decompression-ratio limits, bounded RSS (issue 32)
TESTS += tests/cli/record_bomb.sh
EXTRA_DIST += tests/cli/record_bomb.sh
# the mutated-tree loop and the special files of the bench loops (make bench)
EXTRA_DIST += tests/bench/treemut.sh tests/bench/special.sh
# why FILE: the attribution of a saved event stream (issue 29)
TESTS += tests/cli/why.sh
EXTRA_DIST += tests/cli/why.sh
# serve: concurrent connections, deadlines and a connection limit (issue 32)
TESTS += tests/cli/serve_idle.sh
EXTRA_DIST += tests/cli/serve_idle.sh
# the man page's version and date from configure (issue 34)
TESTS += tests/cli/man_version.sh
EXTRA_DIST += tests/cli/man_version.sh
# README.md: its commands run, its quick start is CI's, its cost table (issue 34)
TESTS += tests/cli/readme.sh
EXTRA_DIST += tests/cli/readme.sh tests/bench/cost_table.sh
# ./tunetop finds the source tree without a compiled-in path (issue 34)
TESTS += tests/cli/srcdir.sh
EXTRA_DIST += tests/cli/srcdir.sh
# the command table: every CMD --help within 80 columns, one line per option,
# every parsed option listed; man synopsis, completion, exit codes (issue 33)
TESTS += tests/cli/cmd_table.sh
EXTRA_DIST += tests/cli/cmd_table.sh
# no family-name compare outside the knob family registry (issue 33)
TESTS += tests/cli/structure_families.sh
EXTRA_DIST += tests/cli/structure_families.sh
# the structure of src/: no call or include cycle, includes of other layers
# listed file by file, no header declaring another layer's function (issue 33)
TESTS += tests/cli/structure.sh
EXTRA_DIST += tests/cli/structure.sh tests/cli/structure-includes.txt
# no knob address built by a printf format outside src/knob: the typed
# builders of knob_addr.h instead (issue 33)
TESTS += tests/cli/addr_builders.sh
EXTRA_DIST += tests/cli/addr_builders.sh
# the completion scripts generated from the command table and the family
# registry (`tunetop --complete`), planted mismatches caught (issue 33)
TESTS += tests/cli/completion_gen.sh
EXTRA_DIST += tests/cli/completion_gen.sh
# make bench against tests/bench/baseline.txt: slower/faster per item by a
# tolerance (tests/bench/baseline.sh on made-up numbers; no timing; issue 33)
TESTS += tests/cli/bench_baseline.sh
EXTRA_DIST += tests/cli/bench_baseline.sh tests/bench/baseline.sh tests/bench/baseline.txt
# the runner's setup flags with fake command entries (issue 33)
check_PROGRAMS += tests/unit/test_cmd_runner
tests_unit_test_cmd_runner_SOURCES = tests/unit/test_cmd_runner.c
tests_unit_test_cmd_runner_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_cmd_runner
# commands without CMD_PRIV run as an unprivileged user (issue 33)
TESTS += tests/cli/cmd_flags.sh
EXTRA_DIST += tests/cli/cmd_flags.sh
# screens see struct screen_ctx, never struct tui (issue 33)
TESTS += tests/cli/screen_ctx.sh
EXTRA_DIST += tests/cli/screen_ctx.sh
# every path and function doc/design.md and doc/HACKING.md name exists
TESTS += tests/cli/doc_paths.sh
EXTRA_DIST += tests/cli/doc_paths.sh
