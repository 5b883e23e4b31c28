# Threads, IRQs and isolation (issue 5): the isolation audit unit test, live
# CLI tests on the threads_helper (tests/source.mk builds it), IRQ moves on
# copied fixtures, the audit in snapshot output, and the TUI screens (tmux).
check_PROGRAMS += tests/unit/test_isolation
tests_unit_test_isolation_SOURCES = tests/unit/test_isolation.c
tests_unit_test_isolation_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_isolation
THREADS_SH_TESTS = tests/threads/cli.sh tests/threads/irq.sh tests/threads/isolation.sh \
	tests/threads/tui.sh
TESTS += $(THREADS_SH_TESTS)
EXTRA_DIST += $(THREADS_SH_TESTS) tests/threads/common.sh tests/bench/tui_threads.sh
