# PREEMPT_RT on Intel with intel_pstate (active mode) and intel_idle:
# performance governor, no turbo (steady clocks, less thermal throttling),
# every C-state deeper than C1 disabled on every CPU.
[profile]
description = PREEMPT_RT on Intel: intel_pstate performance, no turbo, C-states deeper than C1 disabled
match = GenuineIntel

[knobs]
cpufreq/*/governor = performance
intel_pstate/no_turbo = 1
cpuidle/*/>C1/disable = 1
