#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Profiles: the shipped ones on the boards they are for, board matching,
# --force, dry run, malformed files (file:line: reason), unknown addresses.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

C=sys/devices/system/cpu
P=$C/cpufreq
D=sys/class/devfreq
K=proc/sys/kernel

# apply_cycle BOARD PROFILE REL=EXPECTED...
apply_cycle() {
	_b=$1
	_p=$2
	shift 2
	fresh "$_b"
	_out=$(tt apply "$_p" 2>&1)
	_rc=$?
	is "$_rc" 0 "$_b: apply $_p"
	[ "$_rc" -eq 0 ] || printf '# %s\n' "$_out"
	for _fc in "$@"; do
		is "$(file "${_fc%%=*}")" "${_fc#*=}" "$_b/$_p: ${_fc%%=*} = ${_fc#*=}"
	done
	tt restore >/dev/null 2>&1
	if pristine; then ok 0 "$_b/$_p: restore gives the fixture back"; else
		ok 1 "$_b/$_p: restore gives the fixture back"; show_diff; fi
}

apply_cycle rk3588 rk3588-npu "$P/policy4/scaling_governor=performance" \
	"$P/policy6/scaling_governor=performance" "$P/policy0/scaling_governor=interactive" \
	"$D/dmc/governor=performance" "$D/fdab0000.npu/governor=performance" \
	"$D/fb000000.gpu/governor=simple_ondemand" \
	"$C/cpu0/cpuidle/state1/disable=1" "$C/cpu7/cpuidle/state1/disable=1" \
	"$C/cpu0/cpuidle/state0/disable=0"
apply_cycle rk3588 rk3588-bigcores "$P/policy4/scaling_governor=performance" \
	"$P/policy6/scaling_governor=performance" "$P/policy0/scaling_governor=interactive" \
	"$D/dmc/governor=dmc_ondemand"
apply_cycle rk3588 rt-latency "$P/policy0/scaling_governor=performance" \
	"$C/cpu3/cpuidle/state1/disable=1" "$C/cpu3/cpuidle/state0/disable=0" \
	"$K/sched_rt_runtime_us=-1"
apply_cycle intel rt-latency "$P/policy9/scaling_governor=performance" \
	"$C/cpu9/cpuidle/state3/disable=1" "$C/cpu9/cpuidle/state2/disable=0" \
	"$K/sched_rt_runtime_us=-1"
apply_cycle stm32mp157 rt-latency "$P/policy0/scaling_governor=performance" \
	"$C/cpu0/cpuidle/state1/disable=1" "$K/sched_rt_runtime_us=-1"
apply_cycle rpi4 rt-latency "$P/policy0/scaling_governor=performance" "$K/sched_rt_runtime_us=-1"
apply_cycle intel x86-rt "$P/policy0/scaling_governor=performance" \
	"$P/policy15/scaling_governor=performance" "$C/intel_pstate/no_turbo=1" \
	"$C/cpu5/cpuidle/state1/disable=0" "$C/cpu5/cpuidle/state2/disable=1" \
	"$C/cpu5/cpuidle/state3/disable=1"

# rt-latency on a board without deep idle states: the filter matches nothing
fresh rpi4
out=$(tt apply --dry-run rt-latency 2>&1)
like "$out" "rt-latency.profile:[0-9]+: 'cpuidle/\\*/latency>10/disable' matches nothing on this root; skipped" \
	"a pattern that matches nothing is skipped with a note"

# ---- board matching
fresh rk3588
out=$(tt apply x86-rt 2>&1)
is "$?" 2 "x86-rt on RK3588: refused (exit 2)"
like "$out" "profile x86-rt is for GenuineIntel; this root is compatible xunlong,orangepi-5-max rockchip,rk3588 \\(use --force" \
	"says what the profile is for and what this root is"
pristine; ok $? "nothing changed"
fresh intel
out=$(tt apply rk3588-npu 2>&1)
is "$?" 2 "rk3588-npu on intel: refused"
fresh rpi4
out=$(tt apply --force rk3588-bigcores 2>&1)
is "$?" 2 "--force on a board without the knobs: exit 2"
like "$out" "rk3588-bigcores.profile:[0-9]+: cpufreq/policy4: no such policy \\(policies: policy0\\)" "names file:line, the address and why"
pristine; ok $? "nothing changed"
fresh rk3588
out=$(tt apply --force rt-latency 2>&1)
is "$?" 0 "a profile without match applies anywhere"
tt restore >/dev/null

# ---- dry run, by path, --list
fresh rk3588
out=$(tt apply --dry-run "$TT_SRCDIR/profiles/rk3588-npu.profile" 2>&1)
is "$?" 0 "apply --dry-run FILE"
like "$out" "^echo performance > $root/$P/policy4/scaling_governor   # cpufreq/policy4/governor: interactive -> performance" "prints the writes"
pristine; ok $? "dry run changed nothing"
out=$(tt apply --list)
like "$out" "rk3588-npu +matches" "--list shows which profiles match"
like "$out" "x86-rt +other" "and which do not"
# the binary in its build tree finds the source tree's profiles by itself
out=$(env -u TUNETOP_PROFILES_DIR XDG_CONFIG_HOME="$TMPD/empty" "$TUNETOP" --root "$root" apply --list 2>&1)
is "$?" 0 "--list from the build tree: exit 0"
# the binary names its source tree by its real path (distcheck's TT_SRCDIR has "..")
srcreal=$(cd "$TT_SRCDIR" && pwd -P)
like "$out" "rk3588-npu +matches +$srcreal/profiles/rk3588-npu.profile" "--list from the build tree: the source tree's profiles, with their path"
is "$(printf '%s\n' "$out" | grep -c '^rk3588-npu ')" 1 "--list: each profile once"
# a copy of the binary outside its build tree (as if installed elsewhere) with no profiles anywhere
cp "$TUNETOP" "$TMPD/tunetop-copy"
out=$(env -u TUNETOP_PROFILES_DIR XDG_CONFIG_HOME="$TMPD/empty" "$TMPD/tunetop-copy" --root "$root" apply --list 2>&1)
is "$?" 1 "--list with no profile anywhere: exit 1"
like "$out" "^tunetop apply: no profiles found in $TMPD/empty/tunetop/profiles, " "--list with none: one line naming the directories"
is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 1 "--list with none: one line"
sysconf=$(sed -n 's/^sysconfdir = //p' "$TT_BUILDDIR/Makefile")
[ "$sysconf" = '${prefix}/etc' ] && sysconf="$(sed -n 's/^prefix = //p' "$TT_BUILDDIR/Makefile")/etc"
like "$out" "profiles, $sysconf/tunetop/profiles, " "the site's profile directory (\$(sysconfdir)/tunetop/profiles) comes after the user's"
out=$(tt apply no-such-profile 2>&1)
is "$?" 2 "unknown profile name: exit 2"
like "$out" "no profile 'no-such-profile' \\(looked in $XDG_CONFIG_HOME/tunetop/profiles, .*, $TT_SRCDIR/profiles\\)" "lists where it looked"
# a user copy in XDG_CONFIG_HOME takes precedence
mkdir -p "$XDG_CONFIG_HOME/tunetop/profiles"
printf '[profile]\ndescription = mine\n[knobs]\nmm/thp = never\n' >"$XDG_CONFIG_HOME/tunetop/profiles/rk3588-npu.profile"
out=$(tt apply --dry-run rk3588-npu 2>&1)
is "$out" "echo never > $root/sys/kernel/mm/transparent_hugepage/enabled   # mm/thp: madvise -> never" "the user's profile wins"
rm -r "$XDG_CONFIG_HOME/tunetop"

# ---- malformed profiles: file:line: reason, exit 2, nothing changed
mk() { printf "$2" >"$TMPD/$1.profile"; }
mk syntax '[profile]\ndescription = x\n[knobs]\ncpufreq/policy4/governor performance\n'
mk section '[knobs]\nmm/thp = never\n[extra]\nfoo = 1\n'
mk twice '[knobs]\nmm/thp = never\nsched/rt_runtime_us = -1\nmm/thp = always\n'
mk badaddr '[profile]\ndescription = x\n[knobs]\nmm/thp = never\ncpufreq/policy9/governor = performance\n'
mk badval '[profile]\ndescription = x\n[knobs]\nmm/thp = never\ncpufreq/policy4/governor = turbo\n'
mk lease '[profile]\ndescription = x\n[knobs]\npmqos/cpu_dma_latency_us = 0\n'
mk nodesc '[knobs]\nmm/thp = never\n'
mk nodesc2 '# no description\n[profile]\nmatch = rockchip,rk3588\n[knobs]\nmm/thp = never\n'
STATE="$TMPD/state-bad"
fresh rk3588
check_bad() { # NAME REGEX
	_o=$(tt apply "$TMPD/$1.profile" 2>&1)
	is "$?" 2 "$1: exit 2"
	like "$_o" "$2" "$1: message"
}
check_bad syntax "$TMPD/syntax.profile:4: syntax error"
check_bad section "$TMPD/section.profile:3: unknown section \\[extra\\]"
check_bad twice "$TMPD/twice.profile:4: 'mm/thp' is set twice \\(first at line 2\\)"
check_bad badaddr "$TMPD/badaddr.profile:5: cpufreq/policy9: no such policy"
check_bad badval "$TMPD/badval.profile:5: cpufreq/policy4/governor: EINVAL from .*'turbo' is not in available governors"
check_bad nodesc "^tunetop apply: $TMPD/nodesc.profile: missing \\[profile\\] description$"
check_bad nodesc2 "^tunetop apply: $TMPD/nodesc2.profile: missing \\[profile\\] description$"
_o=$(tt apply --dry-run "$TMPD/nodesc.profile" 2>&1)
is "$?" 2 "no description, dry run: exit 2"
is "$(printf '%s\n' "$_o" | grep -c .)" 1 "no description: one line"
mkdir -p "$root/dev" && printf '\000\224\065\167' >"$root/dev/cpu_dma_latency"
check_bad lease "$TMPD/lease.profile:4: pmqos/cpu_dma_latency_us: the value holds only while"
rm -r "$root/dev"
pristine; ok $? "malformed profiles changed nothing"
is "$(tt journal)" "journal is empty ($STATE)" "and journaled nothing"

done_testing
