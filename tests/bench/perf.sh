#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark: counter read cost (perf_sample) per CPU per sample, for the
# generic per-CPU set, a software-only per-CPU set and a thread set. Median
# of the samples; printed, never asserted. Each per-CPU sample is one group
# read(2) per CPU and PMU; the kernel answers it with an IPI to that CPU.
# Run from a build tree: TT_BUILDDIR=... sh tests/bench/perf.sh (make bench).
set -u
b=${TT_BUILDDIR:-.}
prog="$b/tests/unit/test_perf_live"
if [ ! -x "$prog" ]; then
	(cd "$b" && make -s tests/unit/test_perf_live) >/dev/null 2>&1
fi
[ -x "$prog" ] || { echo "bench perf: tests/unit/test_perf_live not built (make check first)"; exit 0; }
echo "== counter read cost, $(getconf _NPROCESSORS_ONLN) CPUs, perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo n/a) =="
"$prog" --bench "${TT_BENCH_SAMPLES:-200}"
exit 0
