#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The world rk3588-npu through the CLI only (issue 35, field note 1): from
# stage B (every CPU `performance`, by `set`), the A/B of the little cores'
# governor back to dynamic gives stage C (~33.8 ms: the big cores lose their
# thermal cap): each within 15 %, C below B, the verdict a significant
# decrease.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/world/common.sh"

T set 'cpufreq/*/governor=performance' >/dev/null
ab_world bc 'cpufreq/policy0/governor=performance,interactive' --window 0.3 --settle 250 --rounds 3
ab_stage bc A 34.8 "stage B"
b=$got
ab_stage bc B 33.8 "stage C (big cores only)"
ok_less "$got" "$b" "C is below B"
sig_down bc

done_testing
