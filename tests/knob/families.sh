#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every knob family on every fixture that has it: set -> files changed as
# expected -> restore -> the copied tree equals the fixture again.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

C=sys/devices/system/cpu
P=$C/cpufreq
K=proc/sys/kernel
T=sys/kernel/mm/transparent_hugepage
D=sys/class/devfreq

# ---- rk3588 (6.1 BSP): cpufreq-dt, psci cpuidle, devfreq dmc/gpu/npu
cycle rk3588 "cpufreq/policy4/governor=performance" \
	"$P/policy4/scaling_governor=performance" "$P/policy0/scaling_governor=interactive"
cycle rk3588 "cpufreq/cpu7/governor=schedutil" "$P/policy6/scaling_governor=schedutil"
cycle rk3588 "cpufreq/policy0/min_khz=600000 cpufreq/policy0/max_khz=1008000" \
	"$P/policy0/scaling_min_freq=600000" "$P/policy0/scaling_max_freq=1008000"
cycle rk3588 "cpufreq/policy4/max_khz=min" "$P/policy4/scaling_max_freq=408000"
cycle rk3588 "cpufreq/policy4/lock_khz=1800000" \
	"$P/policy4/scaling_min_freq=1800000" "$P/policy4/scaling_max_freq=1800000"
cycle rk3588 "cpufreq/policy0/interactive/hispeed_freq=1200000" \
	"$P/policy0/interactive/hispeed_freq=1200000"
cycle rk3588 "cpuidle/4-7/cpu-sleep/disable=1" \
	"$C/cpu4/cpuidle/state1/disable=1" "$C/cpu7/cpuidle/state1/disable=1" \
	"$C/cpu3/cpuidle/state1/disable=0" "$C/cpu4/cpuidle/state0/disable=0"
cycle rk3588 "cpuidle/*/latency>10/disable=1" \
	"$C/cpu0/cpuidle/state1/disable=1" "$C/cpu0/cpuidle/state0/disable=0"
cycle rk3588 "pmqos/cpu2/resume_latency_us=100 pmqos/cpu3/resume_latency_us=n/a" \
	"$C/cpu2/power/pm_qos_resume_latency_us=100" "$C/cpu3/power/pm_qos_resume_latency_us=n/a"
cycle rk3588 "devfreq/npu/governor=performance devfreq/dmc/governor=performance" \
	"$D/fdab0000.npu/governor=performance" "$D/dmc/governor=performance"
cycle rk3588 "devfreq/gpu/lock_hz=500000000" \
	"$D/fb000000.gpu/min_freq=500000000" "$D/fb000000.gpu/max_freq=500000000"
cycle rk3588 "devfreq/ddr/min_hz=max" "$D/dmc/min_freq=2400000000"
cycle rk3588 "devfreq/npu/lock_hz=max" \
	"$D/fdab0000.npu/min_freq=1000000000" "$D/fdab0000.npu/max_freq=1000000000"
cycle rk3588 "sched/rt_runtime_us=90000 sched/rt_period_us=100000" \
	"$K/sched_rt_runtime_us=90000" "$K/sched_rt_period_us=100000"
cycle rk3588 "sched/rt_runtime_us=-1" "$K/sched_rt_runtime_us=-1"
cycle rk3588 "mm/thp=never mm/thp_defrag=defer" "$T/enabled=never" "$T/defrag=defer"

# ---- intel: intel_pstate (active), intel_idle
cycle intel "cpufreq/*/governor=performance" \
	"$P/policy0/scaling_governor=performance" "$P/policy15/scaling_governor=performance"
cycle intel "cpufreq/policy0/max_khz=3000000" "$P/policy0/scaling_max_freq=3000000"
cycle intel "cpufreq/policy1/energy_performance_preference=balance_power" \
	"$P/policy1/energy_performance_preference=balance_power"
cycle intel "intel_pstate/no_turbo=1" "$C/intel_pstate/no_turbo=1"
cycle intel "intel_pstate/min_perf_pct=50 intel_pstate/max_perf_pct=80" \
	"$C/intel_pstate/min_perf_pct=50" "$C/intel_pstate/max_perf_pct=80"
cycle intel "cpuidle/*/C6/disable=1" "$C/cpu0/cpuidle/state3/disable=1" \
	"$C/cpu15/cpuidle/state3/disable=1" "$C/cpu0/cpuidle/state2/disable=0"
cycle intel "cpuidle/0-1/>C1/disable=1" "$C/cpu1/cpuidle/state2/disable=1" \
	"$C/cpu1/cpuidle/state3/disable=1" "$C/cpu1/cpuidle/state1/disable=0"
cycle intel "pmqos/*/resume_latency_us=20" "$C/cpu9/power/pm_qos_resume_latency_us=20"
cycle intel "sched/rt_period_us=2000000 sched/rt_runtime_us=1500000" \
	"$K/sched_rt_period_us=2000000" "$K/sched_rt_runtime_us=1500000"
cycle intel "mm/thp=always" "$T/enabled=always"

# ---- stm32mp157: one policy, stm32 cpuidle with CStop disabled at probe
cycle stm32mp157 "cpufreq/policy0/governor=performance" "$P/policy0/scaling_governor=performance"
cycle stm32mp157 "cpufreq/policy0/lock_khz=400000" \
	"$P/policy0/scaling_min_freq=400000" "$P/policy0/scaling_max_freq=400000"
cycle stm32mp157 "cpuidle/*/CStop/disable=0" "$C/cpu0/cpuidle/state1/disable=0"
cycle stm32mp157 "sched/rt_runtime_us=-1" "$K/sched_rt_runtime_us=-1"

# ---- rpi4: cpufreq only
cycle rpi4 "cpufreq/policy0/governor=schedutil" "$P/policy0/scaling_governor=schedutil"
cycle rpi4 "cpufreq/policy0/lock_khz=1500000" \
	"$P/policy0/scaling_min_freq=1500000" "$P/policy0/scaling_max_freq=1500000"
cycle rpi4 "pmqos/cpu0/resume_latency_us=0" "$C/cpu0/power/pm_qos_resume_latency_us=0"

# ---- broken: garbage values are restored byte for byte
cycle broken "cpufreq/policy0/max_khz=1416000" "$P/policy0/scaling_max_freq=1416000"
cycle broken "devfreq/gpu/governor=performance" "$D/ff9a0000.gpu/governor=performance"
cycle broken "sched/rt_runtime_us=500000" "$K/sched_rt_runtime_us=500000"

done_testing
