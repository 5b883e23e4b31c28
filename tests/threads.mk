# SPDX-License-Identifier: GPL-2.0-or-later
# Threads, IRQs and isolation (issue 5): the isolation audit unit test, live
# CLI tests on the threads_helper (tests/source.mk builds it), IRQ moves on
# copied fixtures, the audit in snapshot output, and the TUI screens (tmux).
check_PROGRAMS += tests/unit/test_isolation
tests_unit_test_isolation_SOURCES = tests/unit/test_isolation.c
tests_unit_test_isolation_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_isolation
THREADS_SH_TESTS = tests/threads/cli.sh tests/threads/irq.sh tests/threads/isolation.sh \
	tests/threads/tui.sh tests/threads/isolation_try.sh tests/tui/effect.sh \
	tests/threads/rotation.sh
TESTS += $(THREADS_SH_TESTS)
EXTRA_DIST += $(THREADS_SH_TESTS) tests/threads/common.sh tests/bench/tui_threads.sh \
	tests/bench/threads_vs_htop.sh tests/bench/lib.sh
# tests/threads/shim.sh: an LD_PRELOAD shim (a plain shared object, built for
# make check only, without the sanitizers) that simulates a kernel with uclamp
# and RT group scheduling refusing SCHED_FIFO, which this machine may lack.
SCHEDSHIM = tests/live/schedshim.so
check_DATA = $(SCHEDSHIM)
$(SCHEDSHIM): $(srcdir)/tests/live/schedshim.c
	$(AM_V_CC)$(MKDIR_P) tests/live && \
	$(CC) $(STD_CFLAGS) $(WARN_CFLAGS) $(CPPFLAGS) $(CFLAGS) -shared -fPIC \
		-o $@ $(srcdir)/tests/live/schedshim.c -ldl
CLEANFILES += $(SCHEDSHIM)
TESTS += tests/threads/shim.sh
EXTRA_DIST += tests/threads/shim.sh tests/live/schedshim.c
# a tid reused within one clock tick, in a private pid namespace (issue 13)
TESTS += tests/threads/tid_reuse.sh
EXTRA_DIST += tests/threads/tid_reuse.sh
# a --root tree owns its processes: its threads listed, thread knobs on its
# files, never on a host thread of the same number (issue 35)
TESTS += tests/threads/tree.sh
EXTRA_DIST += tests/threads/tree.sh
