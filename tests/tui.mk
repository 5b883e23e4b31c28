# SPDX-License-Identifier: GPL-2.0-or-later
# TUI tests: tmux send-keys / capture-pane against copied fixtures and --demo
# (tests/tui/tmux.sh has the helpers), plus a unit test of the parts that
# need no terminal (themes, tunetoprc, the demo simulator).
TUI_TESTS = tests/tui/screens.sh tests/tui/kconfig.sh tests/tui/self.sh tests/tui/actions.sh tests/tui/keep.sh \
	tests/tui/signals.sh tests/tui/terminal.sh tests/tui/unpriv.sh tests/tui/demo.sh \
	tests/tui/counters.sh tests/tui/latency.sh tests/tui/irqs.sh tests/tui/tabs.sh \
	tests/tui/findings.sh tests/tui/replay.sh tests/tui/lessons.sh tests/tui/focus.sh \
	tests/tui/lessons_world.sh tests/tui/lessons_world_rt.sh \
	tests/tui/record_probe.sh tests/tui/capped.sh tests/tui/clocks_cfg.sh tests/tui/keys.sh \
	tests/tui/thread_findings.sh tests/tui/hold.sh tests/tui/accel.sh tests/tui/ab-sweep.sh \
	tests/tui/ab-log.sh tests/tui/ab-log-gone.sh tests/tui/world_fix.sh tests/tui/screenshots.sh
TESTS += $(TUI_TESTS)
EXTRA_DIST += $(TUI_TESTS) tests/tui/tmux.sh tests/bench/tui.sh tests/bench/tui_counters.sh \
	tests/bench/htop-on-root.sh

check_PROGRAMS += tests/unit/test_ui_config
tests_unit_test_ui_config_SOURCES = tests/unit/test_ui_config.c \
	src/ui/theme.c src/ui/config.c src/ui/counters_fmt.c
tests_unit_test_ui_config_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_ui_config
# counters as the TUI shows them, and the events key
check_PROGRAMS += tests/unit/test_ui_counters
tests_unit_test_ui_counters_SOURCES = tests/unit/test_ui_counters.c \
	src/ui/config.c src/ui/counters_fmt.c
tests_unit_test_ui_counters_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_ui_counters
# FIFOs as the journal, tunetoprc and the theme do not hang the TUI (issue 13)
TESTS += tests/tui/userfiles.sh
EXTRA_DIST += tests/tui/userfiles.sh
# the key table (src/ui/keys.def): its rules, and what is generated from
# it (the key bar, Help's key lines, the man page's list: keytable_gen
# prints them; tests/tui/keys.sh compares them with man/tunetop.8, the Help
# screen and the screens' key functions)
check_PROGRAMS += tests/unit/test_keytable tests/unit/keytable_gen
tests_unit_test_keytable_SOURCES = tests/unit/test_keytable.c src/ui/keytable.c
tests_unit_test_keytable_CFLAGS = $(AM_CFLAGS) $(NCURSESW_CFLAGS)
tests_unit_test_keytable_LDADD = $(TT_TEST_LIBS)
tests_unit_keytable_gen_SOURCES = tests/unit/keytable_gen.c src/ui/keytable.c
tests_unit_keytable_gen_CFLAGS = $(AM_CFLAGS) $(NCURSESW_CFLAGS)
tests_unit_keytable_gen_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_keytable
# make bench: the peak RSS of a minimal ncursesw program (tests/bench/tui.sh
# shows it next to tunetop's and htop's)
if ENABLE_TUI
check_PROGRAMS += tests/bench/curses_floor
tests_bench_curses_floor_SOURCES = tests/bench/curses_floor.c
tests_bench_curses_floor_CFLAGS = $(AM_CFLAGS) $(NCURSESW_CFLAGS)
tests_bench_curses_floor_LDADD = $(NCURSESW_LIBS)
endif
# FIFOs and a socket in the tree do not hang the TUI's start-up (issue 32)
TESTS += tests/tui/nonregular.sh
EXTRA_DIST += tests/tui/nonregular.sh
# the Latency screen's Why late panel, live (issue 29): needs root, tracefs
# and tests/probe/rthog (tests/probe.mk)
TESTS += tests/tui/why.sh
EXTRA_DIST += tests/tui/why.sh
# the Threads screen on a --root tree: its own processes (issue 35)
TESTS += tests/tui/tree_threads.sh
EXTRA_DIST += tests/tui/tree_threads.sh
# the CPU dialog does not stall a running A/B (issue 33)
TESTS += tests/tui/dialog_ab.sh
EXTRA_DIST += tests/tui/dialog_ab.sh
