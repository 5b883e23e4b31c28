#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The RT screen's Kernel config line on a copy of rk3588 with a
# /proc/config.gz made here (issue 17).
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

root=$(copy_fixture rk3588)
gzip -9 -c "$FIXTURES/kconfig/config-rt" >"$root/proc/config.gz"
out=$("$TUNETOP" --root "$root" snapshot --interval 0 --stable)
if printf '%s\n' "$out" | grep -q 'built without zlib'; then
	mkdir -p "$root/boot"
	cp "$FIXTURES/kconfig/config-rt" "$root/boot/config-$(cat "$root/proc/sys/kernel/osrelease")"
	src=/boot/config-6.1.43-rockchip-rk3588
else
	src=/proc/config.gz
fi
tui_start k 160 40 -- --root "$root" --state-dir "$TMPD/st" --screen rt
tui_wait k "Kernel config +$src: PREEMPT_RT HZ=1000 NO_HZ_FULL=y RCU_NOCB_CPU=y CPU_ISOLATION=y"
ok $? "rt: the kernel config line (source, model, HZ, options)"
tui_wait k 'IRQ_FORCED_THREADING=y RT_GROUP_SCHED=n UCLAMP_TASK=y'
ok $? "rt: the rest of the options"
tui_keys k q
tui_wait_exit k; ok $? "q quits"
done_testing
