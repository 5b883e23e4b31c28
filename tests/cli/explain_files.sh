#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `explain`'s "Files on this machine": a file that is not there is "absent
# on this machine" only where that can be known; under a debugfs that is
# empty (not mounted, as on most machines) or unreadable it is "not seen:
# debugfs is not mounted or not readable", not absent. On a copied rk3588.
. "$TT_SRCDIR/tests/lib.sh"

root=$(copy_fixture rk3588)
out=$("$TUNETOP" --root "$root" explain rt.fair_server 2>&1)
like "$out" '/sys/kernel/debug/sched/fair_server/cpu\*/runtime  \(absent on this machine\)' \
	"debugfs with content and no fair_server: absent"
rm -rf "$root/sys/kernel/debug"
mkdir "$root/sys/kernel/debug"
out=$("$TUNETOP" --root "$root" explain rt.fair_server 2>&1)
like "$out" '/sys/kernel/debug/sched/fair_server/cpu\*/runtime  \(not seen: debugfs is not mounted or not readable\)' \
	"an empty debugfs: not seen, not absent"
out=$("$TUNETOP" --root "$root" explain pmqos/cpu_dma_latency_us 2>&1)
like "$out" '/dev/cpu_dma_latency  \(absent on this machine\)' "a file outside debugfs: absent"
done_testing
