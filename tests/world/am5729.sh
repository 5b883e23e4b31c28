#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The world am5729-affinity through the CLI only (issue 35, field note 4):
# cyclictest -p99 -i 1000 on the simulated AM5729, idle and with
# stress-ng's FFT worker on CPU 0, free (affinity 0-1) and pinned to the
# isolated CPU 1 (isolcpus=1, thread/1204/affinity=1). The note's figures
# are ratios of the max over 5 000 wake-ups (5 s of -i 1000); the test
# takes 2 000 a stage (its max does not move past ~2 000: the bounded
# jitter reaches its top well before, seen over repeated runs):
# idle no difference (1.0), under load -33 % (0.67); each within 15 %, in
# the note's order, and the A/B of the pinning under load a significant
# decrease. Every step is a `tunetop set` or `ab`: the reboot with
# isolcpus=1 and stopping stress-ng are the world's SIMULATED switches
# sim/board/cmdline and sim/load/stress-ng.
. "$TT_SRCDIR/tests/lib.sh"
WORLD=am5729-affinity
. "$TT_SRCDIR/tests/world/common.sh"
BOOT='console=ttyS0,115200n8 root=/dev/mmcblk0p1 ro rootfstype=ext4 rootwait'

like "$(head -n 1 "$W/tunetop-world")" "^world am5729-affinity$" "the tree is the world (its marker)"
like "$(tail -n 1 "$LOG")" '^\[cyclictest\] T: 0 latency:[0-9.]+ us cause:[a-z-]+ \(SIMULATED\)$' \
	"cyclictest logs one wake-up per ms"
is "$(cut -d' ' -f40,41 "$W/proc/1203/task/1204/stat")" "99 1" "the tree's cyclictest thread is FIFO 99"
like "$(T knobs sim)" "sim/load/stress-ng +running .*running stopped +\\(SIMULATED\\)" \
	"the load is a SIMULATED switch of the world, running as delivered"

# A: idle, free
T set sim/load/stress-ng=stopped >/dev/null
is "$(sed -n 's/^State:\t//p' "$W/proc/1181/status")" "T (stopped)" "A: stress-ng's worker stopped (as kill -STOP shows it)"
stage a 2
# B: idle, pinned to the isolated CPU (a reboot with isolcpus=1)
T set "sim/board/cmdline=$BOOT isolcpus=1" thread/1204/affinity=1 >/dev/null
is "$(cat "$W/sys/devices/system/cpu/isolated")" 1 "B: the reboot with isolcpus=1 isolates CPU 1"
stage b 2
rb=$(ratio "$(maxv b)" "$(maxv a)")
ok "$(near "$rb" 1.0 15; echo $?)" "B/A idle: max $(maxv b) / $(maxv a) us = $rb, the note's no difference (1.0) within 15 %"
# C: under load, free (the board as delivered)
T set "sim/board/cmdline=$BOOT" thread/1204/affinity=0-1 sim/load/stress-ng=running >/dev/null
stage c 2
ok "$(less "$(mean a)" "$(mean c)"; echo $?)" \
	"the load slows the free wake-ups (mean $(mean a) -> $(mean c) us)"
# C -> D under load: the pinning's A/B, then D with isolcpus=1
ab_world cd 'thread/1204/affinity=0-1,1' --window 0.05 --settle 20 --rounds 3
sig_down cd
like "$(grep Cpus_allowed_list "$W/proc/1203/task/1204/status")" '	0-1$' "ab put the affinity back"
T set "sim/board/cmdline=$BOOT isolcpus=1" thread/1204/affinity=1 >/dev/null
stage d 2
rd=$(ratio "$(maxv d)" "$(maxv c)")
ok "$(near "$rd" 0.67 15; echo $?)" "D/C under load: max $(maxv d) / $(maxv c) us = $rd, the note's -33 % (0.67) within 15 %"
ok "$(less "$rd" "$rb"; echo $?)" "in the note's order: pinning matters under load ($rd), not idle ($rb)"
done_testing
