# RK3588 big clusters (Cortex-A76, policy4 and policy6) at performance; the
# Cortex-A55 cluster (policy0) keeps its dynamic governor. Most of the gain of
# the full lock at a fraction of the heat.
[profile]
description = RK3588 big clusters at performance, little cluster left dynamic
match = rockchip,rk3588 | rockchip,rk3588s

[knobs]
cpufreq/policy4/governor = performance
cpufreq/policy6/governor = performance
