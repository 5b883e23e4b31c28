#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The whole test suite, as the README's second command: installs missing test
# dependencies (as root), builds twice (normal with -Werror, then ASan+UBSan)
# in build-test/ and build-asan/ and runs `make check` in both, builds once
# more with clang -Werror (build-clang/, no tests run), twice more for the
# reproducible-build check (tests/repro.sh), runs `make distcheck`
# once, the live tests under emulated host shapes and the real-kernel stage
# under QEMU, and ends with "N passed, N failed, N skipped".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
jobs=$(nproc 2>/dev/null || echo 2)
sh scripts/deps.sh --test || echo "run-all: some test dependencies are missing; their tests will skip" >&2
[ -x configure ] || ./bootstrap >/dev/null 2>&1 || { echo "run-all: bootstrap failed"; echo "0 passed, 1 failed"; exit 1; }

status=0
t0=$(date +%s)
at() { echo "(at $(($(date +%s) - t0)) s)"; }
# phase NAME: ends the phase before (prints its duration) and starts NAME;
# `phase ""` ends the last one. The durations are listed again at the end.
phase_name='' phase_t='' phases=''
phase() {
	now=$(date +%s)
	if [ -n "$phase_name" ]; then
		echo "-- $phase_name: $((now - phase_t)) s"
		phases="$phases$phase_name: $((now - phase_t)) s
"
	fi
	phase_name=$1 phase_t=$now
	[ -z "$1" ] || echo "== $1 == $(at)"
}
run_build() { # dir, configure flags...
	dir=$1; shift
	mkdir -p "$dir"
	( cd "$dir" && "$top/configure" -q "$@" >configure.out 2>&1 ) || { cat "$dir/configure.out"; return 1; }
	make -C "$dir" -j"$jobs" >"$dir/build.out" 2>&1 || { tail -40 "$dir/build.out"; return 1; }
	make -C "$dir" -j"$jobs" check >"$dir/check.out" 2>&1
	rc=$?
	grep -E '^(FAIL|ERROR|XPASS)' "$dir/check.out" | head -50
	failed_logs "$dir" "$dir/check.out"
	return $rc
}

# failed_logs DIR OUTPUT: the diagnostics (the "# " lines) of the first
# failed tests, so that a CI log says why, not only what
failed_logs() {
	sed -n 's/^\(FAIL\|ERROR\|XPASS\): \([^ ]*\).*/\2/p' "$2" | sort -u | head -5 | while read -r t; do
		[ -f "$1/${t%.*}.log" ] || continue
		echo "-- $t: its diagnostics"
		grep '^#' "$1/${t%.*}.log" | grep -v '^# *$' | head -25 | sed 's/^/   /'
	done
}

phase "build and test (gcc, -Werror)"
run_build build-test --enable-werror || status=1
# clang must build everything (program, library, tests) without a warning too
if [ -z "${TT_SKIP_CLANG:-}" ] && command -v clang >/dev/null 2>&1; then
	phase "build (clang, -Werror)"
	mkdir -p build-clang
	if (cd build-clang && "$top/configure" -q CC=clang --enable-werror >configure.out 2>&1) &&
		make -C build-clang -j"$jobs" >build-clang/build.out 2>&1 &&
		make -C build-clang -j"$jobs" check TESTS= >>build-clang/build.out 2>&1; then
		echo "clang build: ok"
		clang_ok=1
	else
		grep -E 'error|warning' build-clang/build.out build-clang/configure.out 2>/dev/null | head -20
		clang_ok=0
		status=1
	fi
fi
# the program built twice in trees of other names: the same stripped binary
# (tests/repro.sh, ~90 s)
if [ -z "${TT_SKIP_REPRO:-}" ]; then
	phase "reproducible build"
	if sh tests/repro.sh >build-test/repro.out 2>&1; then
		echo "reproducible build: ok"
		repro_ok=1
	else
		grep -v '^ok' build-test/repro.out | head -30
		repro_ok=0
		status=1
	fi
fi
phase "build and test (ASan + UBSan)"
# the tests that check the sources, the same in every build (layers,
# sizes, structure, license, doc paths, recipes lint: TT_SKIP_SOURCE_ONLY)
# ran in build-test
TT_SKIP_CROSS=1 TT_SKIP_FUZZ=1 TT_SKIP_DEB=1 TT_SKIP_SOURCE_ONLY=1 ASAN_OPTIONS=detect_leaks=1 \
	run_build build-asan --enable-werror --enable-sanitizers || status=1
if [ -z "${TT_SKIP_DISTCHECK:-}" ]; then
	phase "make distcheck"
	# the fuzz smoke ran in build-test already: the tarball check skips it
	# and it runs the tests that read the source tree (make print-dist-tests):
	# the live, TUI and thread tests ran twice already
	dist_tests=$(make -s -C build-test print-dist-tests | tr '\n' ' ')
	if TT_SKIP_FUZZ=1 TT_SKIP_DEB=1 TT_SKIP_CROSS=1 make -C build-test -j"$jobs" distcheck \
		TESTS="$dist_tests" >build-test/distcheck.out 2>&1; then
		echo "distcheck: ok"
		dist_ok=1
	else
		tail -30 build-test/distcheck.out
		dist_ok=0
		status=1
	fi
fi

# The tests that read the live machine, again under every emulated host
# shape (tests/hostshape.sh): no idle states, haltpoll, intel, arm.
if [ -z "${TT_SKIP_SHAPES:-}" ] && [ -f build-test/check.out ]; then
	phase "live tests under emulated host shapes"
	make -C build-test -j"$jobs" check-shapes >build-test/shapes.out 2>&1 || status=1
	grep -E '^(== host shape|FAIL|ERROR|XPASS)' build-test/shapes.out | grep -B1 -E '^(FAIL|ERROR|XPASS)' | head -50
	failed_logs build-test build-test/shapes.out
fi

# Real kernels: arm64, arm64-rt and armmp booted under QEMU with a static
# tunetop inside (tests/qemu/boot.sh), and amd64 with an ACPI C1 state and an
# A/B of it (tests/qemu/x86.sh); skipped with the reason when QEMU or the
# packages cannot be had.
if [ -z "${TT_SKIP_QEMU:-}" ] && [ -f build-test/check.out ]; then
	phase "real kernels under QEMU"
	make -C build-test check-qemu >build-test/qemu.out 2>&1 || status=1
	grep -E '^(FAIL|ERROR|XPASS|SKIP)' build-test/qemu.out | head -30
	failed_logs build-test build-test/qemu.out
	# each stage's own time (its last "# ... stage: N s" line)
	for l in build-test/tests/qemu/*.log; do
		[ -f "$l" ] && grep -h '^# .*stage: [0-9]* s$' "$l" | tail -1
	done
fi
phase ""

# sum NAME FILE: the counts of every automake summary in FILE (one per run)
sum() { sed -n "s/^# $1: *\\([0-9]*\\)/\\1/p" "$2" | awk '{ n += $1 } END { print n + 0 }'; }
pass=0 fail=0 skip=0
for f in build-test/check.out build-asan/check.out build-test/shapes.out build-test/qemu.out; do
	[ -f "$f" ] || continue
	pass=$((pass + $(sum PASS "$f")))
	fail=$((fail + $(sum FAIL "$f") + $(sum ERROR "$f") + $(sum XPASS "$f")))
	skip=$((skip + $(sum SKIP "$f")))
done
case ${clang_ok:-} in 1) pass=$((pass + 1)) ;; 0) fail=$((fail + 1)) ;; esac
case ${repro_ok:-} in 1) pass=$((pass + 1)) ;; 0) fail=$((fail + 1)) ;; esac
if [ "${dist_ok:-1}" = 1 ] && [ -z "${TT_SKIP_DISTCHECK:-}" ]; then pass=$((pass + 1)); elif [ -z "${TT_SKIP_DISTCHECK:-}" ]; then fail=$((fail + 1)); fi
[ "$status" -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
printf '%s' "$phases" | sed 's/^/phase /'
echo "run-all: $(at)"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
