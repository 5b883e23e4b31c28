#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The world schedutil through the CLI only (issue 35, field note 2): the
# camera's key frames under the vendor default rate limits (stage A, SD
# ~23 ms), then up_rate_limit_us=500 / down_rate_limit_us=2000 by `tunetop
# set` (stage B, SD ~9 ms), each within 15 % and in that order; `ab
# --metric-file` on the app's log flips the up rate limit: a significant
# decrease, the B arm less jittery. A reader of the tree that ignored the
# rate limits would give B the SD of A.
. "$TT_SRCDIR/tests/lib.sh"
WORLD=schedutil
. "$TT_SRCDIR/tests/world/common.sh"
POL=cpufreq/policy0

like "$(T world)" "world schedutil \\(SIMULATED BCM2711\\)" "the tree is the world (its marker)"
like "$(tail -n 1 "$LOG")" '^\[camera\] keyframe:[0-9.]+ ms cause:[a-z-]+ \(SIMULATED\)$' \
	"the app logs its key frames"
is "$(T get $POL/governor $POL/schedutil/up_rate_limit_us 2>&1 | tr '\n' ' ')" \
	"$POL/governor=schedutil $POL/schedutil/up_rate_limit_us=30000 " \
	"the board runs schedutil; the vendor kernel's up rate limit is a knob of the tree"
like "$(T snapshot --interval 50 --threads=all 2>&1)" "1310 +1312 isp_capture +S FIFO +50" \
	"the tree's processes: the camera app's threads with their priorities"

stage a 15
a=$(sdev a)
ok "$(near "$a" 23 15; echo $?)" "stage A (vendor default): key-frame SD $a ms over $(count a) frames, the note's 23 within 15 %"

T set "$POL/schedutil/up_rate_limit_us=500" "$POL/schedutil/down_rate_limit_us=2000" >/dev/null
is "$(cat "$W/sys/devices/system/cpu/cpufreq/policy0/schedutil/up_rate_limit_us")" 500 "set changed the tree"
stage b 15
b=$(sdev b)
ok "$(near "$b" 9 15; echo $?)" "stage B (fast up, slow down): SD $b ms, the note's 9 within 15 %"
ok "$(less "$b" "$a"; echo $?)" "B jitters less than A (the note's order)"

T ab "$POL/schedutil/up_rate_limit_us=30000,500" --window 0.3 --settle 30 --rounds 3 \
	--metric-file "$LOG" --metric 'keyframe:([0-9.]+) ms' --primary mean --json \
	>"$TMPD/ab.json" 2>"$TMPD/ab.err"
rc=$?
is "$rc" 0 "ab --metric-file exits 0"
[ "$rc" = 0 ] || diag "$(cat "$TMPD/ab.err")"
like "$(cat "$TMPD/ab.err")" "SIMULATED: world schedutil" "ab says the world is SIMULATED"
is "$(jq -r '.comparison.mean.significant' "$TMPD/ab.json")" true "ab: the difference of the means is significant"
ok "$(less "$(jq -r '.comparison.mean.diff' "$TMPD/ab.json")" 0; echo $?)" \
	"ab: the 500 us up rate limit is faster ($(jq -r '.comparison.mean.diff' "$TMPD/ab.json") ms)"
sda=$(sd ab A)
sdb=$(sd ab B)
ok "$(less "$sdb" "$sda"; echo $?)" "ab: the B arm jitters less (SD $sda -> $sdb ms)"
is "$(cat "$W/sys/devices/system/cpu/cpufreq/policy0/schedutil/up_rate_limit_us")" 500 "ab put the rate limit back"
done_testing
