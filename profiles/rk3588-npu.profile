# Full-chain lock for NPU inference (RK3588 / RK3588S).
# The inference thread sleeps in an ioctl while the NPU works, so the CPU
# looks idle and the governors drop the big cores and the DDR controller to
# their lowest OPPs; every CPU<->NPU hand-off then runs slowly and wakes from
# cpu-sleep (~220 us exit). Locking the whole chain took YOLOv8s from
# ~48.8 ms with visible jitter to a flat ~29.4 ms per frame (needs cooling).
[profile]
description = Full-chain lock for NPU inference latency (RK3588): big cores, DDR and NPU at performance, cpu-sleep disabled
match = rockchip,rk3588 | rockchip,rk3588s

[knobs]
cpufreq/policy4/governor = performance
cpufreq/policy6/governor = performance
devfreq/dmc/governor = performance
devfreq/npu/governor = performance
cpuidle/*/cpu-sleep/disable = 1
