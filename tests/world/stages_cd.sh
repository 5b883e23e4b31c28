#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The world rk3588-npu through the CLI only (issue 35, field note 1), the
# later stages: from B (every CPU `performance`, `set`), the little cores
# back to dynamic is stage C (~33.8 ms: the big cores lose their thermal
# cap); then DDR locked (`apply` of a profile) and cpu-sleep disabled, the
# A/B of cpu-sleep gives stage D (~29.4 ms, almost no variance). Each within
# 15 %, in the note's order, the verdicts significant decreases.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/world/common.sh"

T set 'cpufreq/*/governor=performance' >/dev/null
ab_world bc 'cpufreq/policy0/governor=performance,interactive' --window 0.3 --settle 400 --rounds 3
b=$(arm bc A mean)
c=$(arm bc B mean)
ok "$(near "$b" 34.8 15; echo $?)" "stage B: $b ms, the note's 34.8 within 15 %"
ok "$(near "$c" 33.8 15; echo $?)" "stage C (big cores only): $c ms, the note's 33.8 within 15 %"
ok "$(less "$c" "$b"; echo $?)" "C is below B"
sig_down bc

T set 'cpufreq/policy0/governor=interactive' >/dev/null
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
ab_world cd 'cpuidle/*/cpu-sleep/disable=0,1' --window 0.25 --settle 300 --rounds 3
d=$(arm cd B mean)
ok "$(near "$d" 29.4 15; echo $?)" "stage D (+ DDR, cpu-sleep off): $d ms, the note's 29.4 within 15 %"
ok "$(less "$d" "$c"; echo $?)" "D is below C"
sig_down cd
sd_=$(sd cd B)
ok "$(less "$sd_" 0.3; echo $?)" "D has almost no variance (SD $sd_ ms)"
done_testing
