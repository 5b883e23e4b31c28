#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The world rk3588-npu through the CLI only (issue 35, field note 1): stage
# A (every governor dynamic) against stage B (every CPU `performance`) with
# `ab --metric-file` on the simulated app's log: A ~48.8 ms and jittery, B
# ~34.8 ms, each within 15 %, and the verdict a significant decrease.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/world/common.sh"

like "$(T world)" "world rk3588-npu \\(SIMULATED RK3588\\)" "the tree is the world (its marker)"
like "$(tail -n 1 "$LOG")" '^\[Infer\] cpu:[0-9.]+ cpy:[0-9.]+ npu:[0-9.]+ cnv:[0-9.]+ total:[0-9.]+ ms' \
	"the app logs its frames as on the board"
is "$(cat "$W/sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq")" 408000 \
	"interactive collapses the A55 cluster to 408 MHz (the app waits in the NPU ioctl)"
is "$(cat "$W/sys/devices/system/cpu/cpufreq/policy4/scaling_cur_freq")" 408000 "and the A76 cluster"
is "$(cat "$W/sys/class/devfreq/dmc/cur_freq")" 534000000 "dmc_ondemand drops the DDR to its lowest OPP"

ab_world ab 'cpufreq/*/governor=interactive,performance' --window 0.2 --settle 200 --rounds 3
ab_stage ab A 48.8 "stage A (default)"
a=$got
ab_stage ab B 34.8 "stage B (all performance)"
ok_less "$got" "$a" "B is below A"
sig_down ab
sa=$(sd ab A)
sb=$(sd ab B)
ok_less 1.0 "$sa" "A is jittery (SD $sa ms: the governor's timer, the idle exits)"
ok_less "$sb" "$sa" "B jitters less (SD $sb ms)"
is "$(cat "$W/sys/devices/system/cpu/cpufreq/policy0/scaling_governor")" interactive "ab put the governors back"
done_testing
