#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The RT screen's Kernel config line on a copy of rk3588 with a
# /proc/config.gz made here (issue 17), and its Preemption and Fair server
# lines, which use the config and the release: a model /proc/version does
# not name comes from the config; a PREEMPT_DYNAMIC kernel without debugfs
# boots as preempt= says, else as its config's default; a missing fair
# server is "before 6.12" only on an older kernel.
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
tui_wait k 'Preemption +PREEMPT_RT \(kernel config; /proc/version names no model\)'
ok $? "rt: the model from the config where /proc/version names none"
tui_wait k 'Fair server +none \(kernel before 6\.12\)'; ok $? "rt: 6.1 has no fair server"
tui_keys k q
tui_wait_exit k; ok $? "q quits"

# PREEMPT_DYNAMIC, 6.12, no debugfs: the boot mode, and the fair server n/a
dyn=$(copy_fixture rk3588)
rel=6.12.0-dyn
echo "$rel" >"$dyn/proc/sys/kernel/osrelease"
sed 's/#1 SMP/#1 SMP PREEMPT_DYNAMIC/; s/6\.1\.43-rockchip-rk3588/'"$rel"'/' "$FIXTURES/rk3588/proc/version" >"$dyn/proc/version"
rm -f "$dyn"/boot/config-*
sed 's/^CONFIG_PREEMPT_VOLUNTARY=y/# CONFIG_PREEMPT_VOLUNTARY is not set/;
     s/^# CONFIG_PREEMPT_NONE is not set/CONFIG_PREEMPT_NONE=y\nCONFIG_PREEMPT_DYNAMIC=y/' \
	"$FIXTURES/rk3588/boot/config-6.1.43-rockchip-rk3588" >"$dyn/boot/config-$rel"
rm -rf "$dyn/sys/kernel/debug"
like "$("$TUNETOP" --root "$dyn" snapshot 2>&1)" 'fair server n/a \(kernel 6\.12 or later: needs debugfs, sched/fair_server\)' \
	"snapshot: 6.12 without debugfs: the fair server n/a, not 'before 6.12'"
tui_start d 160 40 -- --root "$dyn" --state-dir "$TMPD/st" --screen rt
tui_wait d 'Preemption +PREEMPT_DYNAMIC, mode n/a \(needs debugfs\); boots as none \(the config.s default\)'
ok $? "rt: PREEMPT_DYNAMIC without debugfs boots as the config's default"
tui_wait d 'Fair server +n/a \(kernel 6\.12 or later: needs debugfs, sched/fair_server\)'
ok $? "rt: the fair server needs debugfs on 6.12"
tui_keys d q
tui_wait_exit d
printf '%s preempt=full\n' "$(cat "$dyn/proc/cmdline")" >"$dyn/proc/cmdline.new"
mv "$dyn/proc/cmdline.new" "$dyn/proc/cmdline"
mkdir -p "$dyn/sys/kernel/debug/sched"
cp "$FIXTURES/rk3588/sys/kernel/debug/sched/debug" "$dyn/sys/kernel/debug/sched/debug"
tui_start e 160 40 -- --root "$dyn" --state-dir "$TMPD/st" --screen rt
tui_wait e 'boots as full \(preempt= on the command line\)'
ok $? "rt: preempt= on the command line wins over the config"
tui_wait e "Fair server +none \\(not in this kernel's sched debugfs\\)"
ok $? "rt: 6.12 with sched debugfs and no fair_server: none"
tui_keys e q
tui_wait_exit e
echo 'none voluntary (full)' >"$dyn/sys/kernel/debug/sched/preempt"
tui_start f 160 40 -- --root "$dyn" --state-dir "$TMPD/st" --screen rt
tui_wait f 'Preemption +PREEMPT_DYNAMIC, mode full$'; ok $? "rt: the active mode from debugfs"
tui_keys f q
tui_wait_exit f; ok $? "q quits"
done_testing
