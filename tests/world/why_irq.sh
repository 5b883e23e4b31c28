#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The IRQ cause of probe --why in rt-base-station and its fix (issue 35,
# doc/teach.md "Why late in a world"): the housekeeping CPUs an IRQ is moved
# to come from the tree itself, its online CPUs less the isolated ones
# (proc/cmdline's isolcpus, sys/devices/system/cpu/isolated) and those
# l2_tti can run on. As delivered l2_tti may run on every CPU: no
# housekeeping CPU, no fix. After the field note's isolation (a reboot with
# isolcpus=1-3, l2_tti pinned to CPU 1, management on CPU 0) the Ethernet
# IRQ 36, still on every CPU, leads the causes with irq/36/affinity=0;
# applied through `set`, it is named no more and the mean wake-up falls.
. "$TT_SRCDIR/tests/lib.sh"
WORLD=rt-base-station
. "$TT_SRCDIR/tests/world/common.sh"
BOOT='root=/dev/ram rw console=ttyS0,115200 ramdisk_size=600000 hugepages=256'
# irq FILE FIELD: a field of the probe JSON's cause IRQ 36 ("" when none)
irq() { jq -r ".why.causes[] | select(.kind == \"irq\" and .id == 36) | .$2 // \"\"" "$1"; }
# down A B: B's mean is below A's by a Welch t over 4 (means of the samples)
down() {
	awk -v ma="$(jq -r .all.mean_us "$1")" -v mb="$(jq -r .all.mean_us "$2")" \
		-v sa="$(jq -r .all.sd_us "$1")" -v sb="$(jq -r .all.sd_us "$2")" \
		-v na="$(jq -r .all.samples "$1")" -v nb="$(jq -r .all.samples "$2")" \
		'BEGIN { if (na < 100 || nb < 100) exit 1; exit !((ma - mb) / sqrt(sa * sa / na + sb * sb / nb) > 4) }'
}

T probe -D 1 --why --json >"$TMPD/w0.json" 2>"$TMPD/w0.err"
is "$?" 0 "probe --why as delivered exits 0"
is "$(irq "$TMPD/w0.json" kind)/$(irq "$TMPD/w0.json" fix)" "irq/" "as delivered (nothing isolated, l2_tti on every CPU) the IRQ has no fix"
like "$(irq "$TMPD/w0.json" fix_why)" "no housekeeping CPU known" "and says why"

T set "sim/board/cmdline=$BOOT isolcpus=1-3" thread/1502/affinity=1 process/1420/affinity=0 >"$TMPD/set1.out" 2>&1
is "$?" 0 "the isolation through set exits 0"
is "$(cat "$W/sys/devices/system/cpu/online") $(cat "$W/sys/devices/system/cpu/isolated")" "0-3 1-3" \
	"the tree: CPUs 0-3 online, 1-3 isolated"
T probe -D 2 --why --json >"$TMPD/w1.json" 2>"$TMPD/w1.err"
is "$?" 0 "probe --why after the isolation exits 0"
is "$(jq -r '.why.causes[0].kind + " " + (.why.causes[0].id | tostring)' "$TMPD/w1.json")" "irq 36" \
	"IRQ 36 leads the causes"
fix=$(irq "$TMPD/w1.json" fix)
is "$fix" "irq/36/affinity=0" "its fix moves it to CPU 0, the one CPU neither isolated nor l2_tti's"
is "$(irq "$TMPD/w1.json" fix_why)" "move IRQ 36 off CPU 1" "off l2_tti's CPU"
T probe -D 1 --why >"$TMPD/w1.txt" 2>&1
like "$(cat "$TMPD/w1.txt")" "IRQ 36 eth0 .* irq/36/affinity=0" "the text prints the fix"

T set "$fix" >"$TMPD/set2.out" 2>&1
is "$?" 0 "set $fix exits 0"
T probe -D 2 --why --json >"$TMPD/w2.json" 2>"$TMPD/w2.err"
is "$?" 0 "probe --why after the fix exits 0"
is "$(irq "$TMPD/w2.json" id)" "" "IRQ 36 is named no more"
ok "$(down "$TMPD/w1.json" "$TMPD/w2.json"; echo $?)" \
	"the mean wake-up falls ($(jq -r .all.mean_us "$TMPD/w1.json") -> $(jq -r .all.mean_us "$TMPD/w2.json") us)"
done_testing
