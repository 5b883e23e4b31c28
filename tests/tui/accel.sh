#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The accelerator's side and power on screen (issue 17): the Clocks screen
# of a copied rk3588 shows the rknpu load per core with the driver version
# and an ina226 power sensor in watts (an energy counter n/a until two
# samples); a copy of the intel fixture has neither (one line says so). The
# Threads screen (live) has the WAIT column: a sleep of ours shows its wait
# channel (the kernel's nanosleep function).
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"
trap 'tui_cleanup; [ -n "$spid" ] && kill "$spid" 2>/dev/null' EXIT

root=$(copy_fixture rk3588)
hw="$root/sys/class/hwmon/hwmon9"
mkdir -p "$hw"
echo ina226 >"$hw/name"
echo 2500000 >"$hw/power1_input"
echo vdd_npu >"$hw/power1_label"

tui_start clk 150 40 -- --root "$root" --state-dir "$TMPD/st" --screen clocks
tui_wait clk 'NPU load \(rknpu v0\.9\.8\): +Core0 +0% +Core1 +0% +Core2 +0%'; ok $? "Clocks: NPU load per core with the driver version"
tui_wait clk 'Power \(hwmon, RAPL\): total 2\.50 W'; ok $? "Clocks: power heading with the total"
tui_wait clk 'ina226 vdd_npu +hwmon +2\.500 W'; ok $? "Clocks: ina226 sensor in watts"
printf 'NPU load:  Core0: 41%%, Core1:  3%%, Core2:  0%%,\n' >"$root/sys/kernel/debug/rknpu/load"
echo 3750000 >"$hw/power1_input"
tui_wait clk 'Core0 +41% +Core1 +3% +Core2 +0%'; ok $? "Clocks: the load follows the file"
tui_wait clk 'ina226 vdd_npu +hwmon +3\.750 W'; ok $? "Clocks: the power follows the file"
echo garbage >"$hw/power1_input"
tui_wait clk 'ina226 vdd_npu +hwmon +n/a \(EINVAL\)'; ok $? "Clocks: a garbage reading is n/a (EINVAL), no crash"
tui_keys clk q
tui_wait_exit clk; ok $? "quits"

root2=$(copy_fixture intel)
tui_start intel 150 40 -- --root "$root2" --state-dir "$TMPD/st2" --screen clocks
tui_wait intel 'Power: no sensors \(hwmon power/energy, powercap RAPL\)'; ok $? "intel copy: no power sensors, said once"
tui_wait_not intel 'NPU load' 2; ok $? "intel copy: no NPU load line"
tui_keys intel q
tui_wait_exit intel

sleep 600 &
spid=$!
tui_start th 150 40 -- --state-dir "$TMPD/st3" --screen threads
tui_wait th 'PID +TID S POLICY .* WAIT +NAME'; ok $? "Threads: WAIT column before NAME"
tui_keys th '\'
tui_wait th 'Filter'
tui_keys th "$spid" Enter
tui_wait_cell th 'PID +TID S POLICY' "^ +$spid +$spid " WAIT '.*nanosleep.*' 30
ok $? "Threads: our sleep waits in the kernel's nanosleep (wchan)"
tui_keys th q
tui_wait_exit th

done_testing
