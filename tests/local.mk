# SPDX-License-Identifier: GPL-2.0-or-later
# Test programs and scripts. Each area lists its tests in its own fragment.
EXTRA_DIST += tests/lib.sh tests/unit/tap.h tests/gen-bigmachine.sh \
	tests/bench/run.sh tests/bench/bench_sample.c tests/bench/threads.sh \
	tests/bench/probe-vs-cyclictest.sh
include tests/core.mk
include tests/source.mk
include tests/cli.mk
include tests/knob.mk
include tests/probe.mk
include tests/tui.mk
include tests/teach.mk
include tests/threads.mk
include tests/fuzz.mk
include tests/packaging.mk

# Tests that read the live machine. tests/run-all.sh runs them once more
# under every emulated host shape (tests/hostshape.sh: a private mount
# namespace with a generated /sys/devices/system/cpu), so that one build
# machine checks them against hosts with no idle states, a KVM haltpoll
# guest, intel_idle + intel_pstate and an arm big.LITTLE layout.
EXTRA_DIST += tests/hostshape.sh
HOST_SHAPES = none haltpoll intel arm
LIVE_TESTS = tests/tui/unpriv.sh tests/tui/counters.sh tests/tui/record_probe.sh \
	tests/live/perf_events.sh tests/cli/live.sh tests/cli/capture.sh \
	tests/findings/learn_live.sh tests/threads/isolation.sh tests/tui/thread_findings.sh
# (tests/probe/why_live.sh and tests/tui/why.sh read the kernel's trace events, which no host
# shape changes: they run in the gcc and ASan passes only)
# make check-shapes [HOST_SHAPES='haltpoll arm']: each shape's results in
# shape-NAME.log (test-suite.log of that run).
check-shapes: all $(check_PROGRAMS)
	@fail=0; for s in $(HOST_SHAPES); do \
	  echo "== host shape $$s =="; \
	  TT_HOST_SHAPE=$$s $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(LIVE_TESTS)' \
	    TEST_SUITE_LOG=shape-$$s.log || fail=1; \
	done; test $$fail = 0
.PHONY: check-shapes

# Real kernels under QEMU (tests/qemu/boot.sh): Debian's arm64, arm64-rt and
# armmp kernels with a static tunetop inside; tests/qemu/x86.sh: the amd64
# kernel with an ACPI C1 state and an A/B of it. Not part of `make check` (it
# downloads packages and builds twice more); tests/run-all.sh runs it once.
QEMU_TESTS = tests/qemu/boot.sh tests/qemu/x86.sh
EXTRA_DIST += $(QEMU_TESTS) tests/qemu/guest.sh tests/qemu/clusters.dtsi \
	tests/qemu/lib.sh tests/qemu/guest-x86.sh tests/qemu/c1.asl
check-qemu: all $(check_PROGRAMS)
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(QEMU_TESTS)' TEST_SUITE_LOG=qemu.log
.PHONY: check-qemu

# make distcheck checks that the tarball builds and that its tests find
# everything they read (fixtures, goldens, profiles, themes, the man page):
# tests/run-all.sh runs it with TESTS set to this list, the tests that read
# files from the source tree, without the live, TUI, thread, probe and fuzz
# tests that the two full runs before it cover (they read nothing the
# tarball could miss that these do not).
print-dist-tests:
	@for t in $(TESTS); do case $$t in \
	  tests/tui/*|tests/threads/*|tests/live/*|tests/fuzz/*|tests/probe/*.sh|tests/knob/owners*|tests/knob/exec_*|tests/knob/effect*|tests/findings/learn.sh|tests/findings/learn_live.sh) ;; \
	  *) echo $$t ;; esac; done
.PHONY: print-dist-tests
