#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A tid reused within one clock tick is not the thread tunetop changed
# (issue 13). In a private pid namespace (unshare -pf --mount-proc; its own
# /proc/sys/kernel/ns_last_pid, never the host's) a process gets tid T,
# tunetop sets its nice, it exits, and a new process (already at nice 5,
# the value tunetop wrote) gets the same tid T. The journal's start time is
# then forged to the new process's, as if both had started in the same
# tick: the start time alone would match, and undo would "restore" nice 0
# onto the new process. With the second key (boot id + pidfs inode, or the
# comm without pidfs) undo says the thread is gone, drops the entry and
# leaves the new process alone. A journal entry with only a start time (an
# older tunetop) is refused the same way.
. "$TT_SRCDIR/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root for a pid namespace"
command -v unshare >/dev/null 2>&1 || skip_all "unshare(1) not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed (forges the journal's CRC)"
unshare -pf --mount-proc sh -c 'test $$ = 1' 2>/dev/null || skip_all "no private pid namespace here"

# forge.py JOURNAL TID START MODE: the W record of thread/TID/nice gets the
# start time START; MODE same keeps its other identity keys, legacy leaves
# only "start=START" (what tunetop recorded before the boot and pidfs keys).
cat >"$TMPD/forge.py" <<'PY'
import sys, zlib
path, tid, start, mode = sys.argv[1:5]
out = []
for l in open(path, 'rb').read().split(b'\n'):
    if l.startswith(b'W\t') and (b'\taddr=thread/' + tid.encode() + b'/nice\t') in l:
        f = [x for x in l.split(b'\t') if not x.startswith(b'crc=')]
        for i, x in enumerate(f):
            if x.startswith(b'ident='):
                keys = x[len(b'ident='):].split(b' ')
                keys[0] = b'start=' + start.encode()
                f[i] = b'ident=' + (keys[0] if mode == 'legacy' else b' '.join(keys))
        body = b'\t'.join(f)
        l = body + b'\tcrc=%08x' % (zlib.crc32(body) & 0xffffffff)
    out.append(l)
open(path, 'wb').write(b'\n'.join(out))
PY

# Runs as pid 1 of the new namespace; prints key=value lines.
cat >"$TMPD/inner.sh" <<'SH'
set -u
[ "$$" = 1 ] || { echo "error=not pid 1 of a new pid namespace ($$)"; exit 1; }
T=300
stat_field() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f"$(($2 - 2))"; }
run() { # run MODE: one tid reuse, then undo with a forged journal
	st="$TMPD/state-$1"
	echo $((T - 1)) >/proc/sys/kernel/ns_last_pid || { echo "error=cannot write ns_last_pid"; return; }
	sleep 1000 &
	a=$!
	[ "$a" = "$T" ] || { echo "error=first process got pid $a, not $T"; kill "$a"; return; }
	"$TUNETOP" --state-dir "$st" set "thread/$T/nice=5" >"$TMPD/$1.set" 2>&1
	echo "$1.set_rc=$?"
	echo "$1.a_nice=$(stat_field "$T" 19)"
	kill "$a"
	wait "$a" 2>/dev/null
	echo $((T - 1)) >/proc/sys/kernel/ns_last_pid
	nice -n 5 sleep 1000 &
	b=$!
	echo "$1.b_pid=$b"
	python3 "$TMPD/forge.py" "$st/journal" "$T" "$(stat_field "$T" 22)" "$1"
	echo "$1.ident=$(tr '\t' '\n' <"$st/journal" | sed -n 's/^ident=//p' | head -n 1)"
	"$TUNETOP" --state-dir "$st" undo >"$TMPD/$1.undo" 2>&1
	echo "$1.undo_rc=$?"
	echo "$1.b_nice=$(stat_field "$T" 19)"
	"$TUNETOP" --state-dir "$st" journal >"$TMPD/$1.journal" 2>&1
	kill "$b"
	wait "$b" 2>/dev/null
}
run same
run legacy
SH

out=$(TMPD=$TMPD TUNETOP=$TUNETOP unshare -pf --mount-proc sh "$TMPD/inner.sh" 2>&1)
get() { printf '%s\n' "$out" | sed -n "s/^$1=//p" | head -n 1; }
if printf '%s\n' "$out" | grep -q '^error='; then
	skip_all "$(get error)"
fi

for c in same legacy; do
	is "$(get $c.set_rc)" 0 "$c: set thread/300/nice=5 on the first process"
	is "$(get $c.a_nice)" 5 "$c: its nice is 5"
	is "$(get $c.b_pid)" 300 "$c: the second process got the same tid 300"
	is "$(get $c.undo_rc)" 0 "$c: undo exits 0 (dropped, not an error)"
	is "$(get $c.b_nice)" 5 "$c: the new process was not touched (nice still 5)"
	like "$(cat "$TMPD/$c.journal")" "thread/300/nice: 0 -> 5 \(vanished\)" "$c: the entry is closed as vanished"
done
like "$(get same.ident)" '^start=[0-9]+ boot=[0-9a-f-]+ (pidfs=[0-9]+|comm=sleep)$' \
	"the ident holds the boot id and the pidfs inode (or the comm)"
is "$(wc -l <"$TMPD/same.undo" | tr -d ' ')" 1 "one line"
like "$(cat "$TMPD/same.undo")" "^thread/300/nice: target vanished \(thread 300 is gone: tid 300 now belongs to another thread started in the same clock tick \((pidfs|comm) .*\): not touched\); dropped$" \
	"undo says the thread is gone"
like "$(cat "$TMPD/legacy.undo")" "thread 300: the journal recorded only its start time .*: not touched" \
	"a start-time-only entry is not trusted"
done_testing
