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
