#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fuzz smoke test: build the libFuzzer harnesses (make fuzz-build) and run
# each about 10 s on its seed corpus; none may crash, leak or hit UB. Skips
# without clang + libFuzzer, and when TT_SKIP_FUZZ=1 (the ASan build of
# tests/run-all.sh: it runs once). Long runs: `make fuzz` (doc/fuzzing.md).
. "$TT_SRCDIR/tests/lib.sh"

[ "${TT_SKIP_FUZZ:-}" = 1 ] && skip_all "TT_SKIP_FUZZ=1"
why=$(sh "$TT_SRCDIR/tests/fuzz/build.sh" --check 2>&1) || skip_all "$why"
secs=${TT_FUZZ_SMOKE_SECONDS:-5}

# Built by the build tree's own rule (it knows the sources and libraries).
# Not under make's jobserver: the fuzz build runs two compilers itself.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TT_BUILDDIR" fuzz-build >"$TMPD/build.log" 2>&1
rc=$?
ok $rc "the fuzz harnesses build (make fuzz-build)"
[ $rc -eq 0 ] || { tail -20 "$TMPD/build.log" | sed 's/^/# /'; done_testing; exit 1; }

bindir=$TT_BUILDDIR/tests/fuzz/out
work=$bindir/smoke
rm -rf "$work/corpus" "$work/logs"
FUZZ_WORK=$work FUZZ_NICE=${FUZZ_NICE:-10} sh "$TT_SRCDIR/tests/fuzz/run.sh" "$bindir" "$secs" \
	>"$TMPD/run.out" 2>&1
n=0
for b in "$bindir"/fuzz_*; do
	[ -x "$b" ] || continue
	name=${b##*/}
	n=$((n + 1))
	line=$(grep "^$name: [0-9]* execs" "$TMPD/run.out")
	execs=$(printf '%s' "$line" | sed -n 's/^[^:]*: \([0-9]*\) execs.*/\1/p')
	crashes=$(printf '%s' "$line" | sed -n 's/.*, \([0-9]*\) crashes,.*/\1/p')
	[ -n "$line" ] && diag "$line"
	[ "${execs:-0}" -gt 0 ]; ok $? "$name ran (${execs:-0} executions)"
	is "${crashes:-none}" 0 "$name: no crash in ${secs} s"
	if [ "${crashes:-1}" != 0 ]; then
		grep -E 'ERROR|runtime error|property does not hold|SUMMARY' "$work/logs/${name#fuzz_}.log" |
			head -5 | sed 's/^/# /'
		diag "input kept in $work/crashes/${name#fuzz_}/"
	fi
done
[ "$n" -gt 0 ]; ok $? "harnesses found ($n)"
done_testing
