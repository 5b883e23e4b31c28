#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Which commands step a world and what they write (issue 35): a read-only
# command (snapshot, knobs) moves the board by the time that passed but
# leaves every knob file byte for byte as it was; `set` steps the world
# after its write, so the log's last lines already follow the new value.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/world/common.sh"

# the files behind the tree's knobs (knobs --long: "file: PATH")
T knobs --long | sed -n 's/^ *file: //p' | sort -u >"$TMPD/files"
n=$(wc -l <"$TMPD/files")
ok "$(test "$n" -gt 50; echo $?)" "the world's knobs name their files ($n)"
sums() { xargs sha1sum <"$TMPD/files" 2>/dev/null; }
sums >"$TMPD/before"
lines=$(wc -l <"$LOG")
sleep 0.3 # so that the next command has time to catch up on (frames of 35-50 ms)
T snapshot >/dev/null 2>"$TMPD/snap.err"
is "$?" 0 "snapshot on the world exits 0"
sums >"$TMPD/after"
is "$(diff "$TMPD/before" "$TMPD/after" | grep -c '^>')" 0 "snapshot leaves every knob file byte for byte unchanged"
ok "$(test "$(wc -l <"$LOG")" -gt "$lines"; echo $?)" "... while the world took its own step (the app logged on)"
T knobs >/dev/null
sums >"$TMPD/after2"
is "$(diff "$TMPD/before" "$TMPD/after2" | grep -c '^>')" 0 "knobs (the list) leaves them unchanged too"

# set: the frames after the write are computed with the new value (set
# runs the world 0.5 simulated s after it: ~14 frames). Judged on the mean
# of the last 10 frames: at 408 MHz one frame spans 40.3-50.6 ms and a mean
# of 5 went down to 44.6 in 20 s of seed 35, of 10 never below 46.3; under
# performance every frame is 33.3-35.1 ms
last_total() {
	tail -n 10 "$LOG" | sed -n 's/.*total:\([0-9.]*\) ms.*/\1/p' |
		awk '{ s += $1; n++ } END { if (n == 10) printf "%.2f\n", s / n }'
}
t0=$(last_total)
ok "$(less 45 "$t0"; echo $?)" "before: the app's last 10 frames average $t0 ms (interactive at 408 MHz)"
T set 'cpufreq/*/governor=performance' >/dev/null 2>"$TMPD/set.err"
is "$?" 0 "set every governor to performance"
t1=$(last_total)
ok "$(less "$t1" 38; echo $?)" "the log's last 10 frames follow it at once: $t1 ms"
like "$(tail -n 1 "$LOG")" 'cpu:2\.[0-9]+ ' "its CPU stage runs at the A76's top clock"
done_testing
