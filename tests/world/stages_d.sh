#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The world rk3588-npu through the CLI only (issue 35, field note 1): stage
# C (the big cores `performance`, by `set`) plus the DDR locked (`apply` of
# a profile), then the A/B of cpu-sleep disabled gives stage D (~29.4 ms,
# almost no variance): within 15 %, below C (33.8), the verdict a
# significant decrease.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/world/common.sh"

T set 'cpufreq/policy4/governor=performance' 'cpufreq/policy6/governor=performance' >/dev/null
cat >"$TMPD/ddr.profile" <<'P'
# the DDR controller locked at its top OPP
[profile]
description = DDR at its top OPP
match = rockchip,rk3588 | rockchip,rk3588s

[knobs]
devfreq/dmc/governor = performance
P
T apply "$TMPD/ddr.profile" >/dev/null 2>"$TMPD/apply.err" || diag "$(cat "$TMPD/apply.err")"
is "$(cat "$W/sys/class/devfreq/dmc/governor")" performance "apply: the DDR governor is performance"
ab_world cd 'cpuidle/*/cpu-sleep/disable=0,1' --window 0.2 --settle 150 --rounds 3
ab_stage cd B 29.4 "stage D (+ DDR, cpu-sleep off)"
d=$got
ok_less "$d" "$(arm cd A mean)" "D is below C with the DDR locked ($(arm cd A mean) ms)"
ok_less "$d" 33.8 "D is below stage C (33.8)"
sig_down cd
sd_=$(sd cd B)
ok_less "$sd_" 0.3 "D has almost no variance (SD $sd_ ms)"
done_testing
