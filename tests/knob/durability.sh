#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The undo record is durable before the knob is written (issue 32, item 15:
# SIGKILL tests cannot see a missing sync, the page cache survives them), by
# the order of the system calls under strace: for every knob of a `set`, the
# journal's write of its W record, then fdatasync of the journal, then the
# first write (or rename) of the knob's file. Dropping the fdatasync in
# journal_append fails this test.
. "$TT_SRCDIR/tests/lib.sh"

command -v strace >/dev/null 2>&1 || skip_all "strace is not installed (scripts/deps.sh --test)"
strace -f -o /dev/null true 2>/dev/null || skip_all "strace cannot trace here (ptrace not permitted)"

root=$(copy_fixture rk3588)
trace=$TMPD/trace
# LeakSanitizer cannot run under ptrace (an ASan build): leaks are checked elsewhere
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -y -e trace=fdatasync,fsync,openat,rename,renameat,renameat2,write,pwrite64 \
	-o "$trace" "$TUNETOP" --root "$root" set cpufreq/policy4/governor=performance \
	cpuidle/cpu4/state1/disable=1 >"$TMPD/out" 2>&1
rc=$?
is "$rc" 0 "set of two knobs under strace: exit 0"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/out"
[ -s "$trace" ]
ok $? "strace wrote a trace"

# order KNOBFILE -> "W SYNC KNOB": line numbers of the W record's journal
# write that precedes the knob's first write, the first journal fdatasync
# after that W record, and the first write of the knob's file (or of the
# temporary file renamed over it in a fixture tree) or rename onto it
order() {
	dir=${1%/*}
	awk -v d="${dir##*/}" -v b="${1##*/}" '
	/^[0-9]+ +write\([0-9]+<[^>]*\/journal>, "W\\t/ { w = NR; s = 0 }
	/^[0-9]+ +fdatasync\([0-9]+<[^>]*\/journal>\)/ { if (w && !s) s = NR }
	k { next }
	/^[0-9]+ +(write|pwrite64)\(/ && (index($0, d "/" b ">") || index($0, d "/." b ".tunetop")) {
		k = NR; kw = w; ks = s }
	/^[0-9]+ +renameat2?\(/ && index($0, d ">, \"" b "\"") { k = NR; kw = w; ks = s }
	END { print kw + 0, ks + 0, k + 0 }' "$trace"
}
for f in sys/devices/system/cpu/cpufreq/policy4/scaling_governor \
	sys/devices/system/cpu/cpu4/cpuidle/state1/disable; do
	set -- $(order "$f")
	diag "$f: W record at line $1, journal fdatasync at $2, knob write at $3"
	[ "$3" -gt 0 ]
	ok $? "${f##*/cpu/}: the knob file is written"
	[ "$1" -gt 0 ] && [ "$1" -lt "$3" ]
	ok $? "... after the journal's W record"
	[ "$2" -gt "$1" ] && [ "$2" -lt "$3" ]
	ok $? "... and after that record's fdatasync"
done
done_testing
