# Generic real-time latency profile for any board: every cpufreq policy at
# performance, every idle state whose exit latency is above 10 us disabled on
# every CPU, RT throttling off. Knob patterns that match nothing on a board
# (no cpufreq, no deep idle states) are skipped with a note.
# On 6.12+ kernels the fair server still keeps CFS tasks from starving.
[profile]
description = Generic RT latency: all policies performance, idle states with exit latency above 10 us disabled, RT throttling off

[knobs]
cpufreq/*/governor = performance
cpuidle/*/latency>10/disable = 1
sched/rt_runtime_us = -1
