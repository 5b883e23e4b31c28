#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# min <= max pairs (cpufreq min/max_khz, devfreq min/max_hz, intel_pstate
# min/max_perf_pct): the requested values are combined with the current value
# of the other half, a bad pair is refused before any write (exit 2, one line
# naming both addresses and values), and a good pair is written in the order
# that keeps min <= max at every step.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

P=sys/devices/system/cpu/cpufreq
D=sys/class/devfreq
I=sys/devices/system/cpu/intel_pstate

# refused WANT_REGEX DESCRIPTION ARGS...: exit 2, one line, root unchanged
# (byte for byte against REF, the tree before the call), no journal entry
refused() {
	_w=$1
	_d=$2
	shift 2
	rm -rf "$TMPD/ref" && cp -a "$root" "$TMPD/ref"
	_n=$(tt journal --json | grep -c '"address"')
	_o=$(tt set "$@" 2>&1)
	is "$?" 2 "$_d: exit 2"
	like "$_o" "$_w" "$_d: message"
	is "$(printf '%s\n' "$_o" | grep -c .)" 1 "$_d: one line"
	if pristine "$TMPD/ref"; then ok 0 "$_d: nothing written"; else
		ok 1 "$_d: nothing written"; show_diff "$TMPD/ref"; fi
	is "$(tt journal --json | grep -c '"address"')" "$_n" "$_d: nothing journaled"
}
# order ARGS...: the addresses of a dry run, in write order
order() { echo $(tt set --dry-run "$@" | awk '{print $6}'); }

# ---- cpufreq on rk3588 (policy4: 408000..2256000)
fresh rk3588
refused "cpufreq/policy4/min_khz: EINVAL: min 2256000 would exceed cpufreq/policy4/max_khz 1800000 \\(min must be <= max\\)" \
	"min above max in one call" cpufreq/policy4/min_khz=2256000 cpufreq/policy4/max_khz=1800000
refused "cpufreq/policy4/min_khz: EINVAL: min 2256000 would exceed cpufreq/policy4/max_khz 1800000" \
	"min above max, dry run" --dry-run cpufreq/policy4/max_khz=1800000 cpufreq/policy4/min_khz=2256000
tt set cpufreq/policy4/max_khz=1800000 >/dev/null
is "$(file $P/policy4/scaling_max_freq)" 1800000 "max lowered"
refused "cpufreq/policy4/min_khz: EINVAL: min 2016000 would exceed cpufreq/policy4/max_khz 1800000 \\(its current value; min must be <= max\\)" \
	"min above the current max (two calls)" cpufreq/policy4/min_khz=2016000
refused "cpufreq/policy4/min_khz: EINVAL: min 2016000 would exceed cpufreq/policy4/max_khz 1800000 \\(its current value" \
	"min above the current max, dry run" --dry-run cpufreq/policy4/min_khz=2016000
refused "cpufreq/policy4/min_khz: EINVAL: min 2256000 would exceed cpufreq/policy4/max_khz 1800000" \
	"min=max is the hardware max, above the current cap" cpufreq/policy4/min_khz=max
tt set cpufreq/policy4/min_khz=1416000 >/dev/null
is "$(file $P/policy4/scaling_min_freq)" 1416000 "min raised below the max"
refused "cpufreq/policy4/max_khz: EINVAL: max 1008000 would be below cpufreq/policy4/min_khz 1416000 \\(its current value; min must be <= max\\)" \
	"max below the current min" cpufreq/policy4/max_khz=1008000
refused "cpufreq/policy4/min_khz: EINVAL: min 1800000 would exceed cpufreq/policy4/max_khz 1008000" \
	"lowering max below a raised min in one call" cpufreq/policy4/max_khz=1008000 cpufreq/policy4/min_khz=1800000
# a refused pair refuses the whole call, good knobs included
refused "cpufreq/policy4/max_khz: EINVAL: max 600000 would be below cpufreq/policy4/min_khz 1416000" \
	"one bad pair, one good knob" cpufreq/policy0/governor=performance cpufreq/policy4/max_khz=600000
# equal is fine, both ways
out=$(tt set --dry-run cpufreq/policy4/max_khz=1416000 2>&1)
is "$?" 0 "max = the current min is accepted"
# the same pair on another policy is independent
out=$(tt set --dry-run cpufreq/policy0/min_khz=1800000 2>&1)
is "$?" 0 "policy0 is checked against its own max"
tt restore >/dev/null
pristine; ok $? "cpufreq: restored to the fixture"

# ---- write order of a valid pair (policy4 is 408000..2256000; cap it first)
fresh rk3588
tt set cpufreq/policy4/max_khz=1800000 >/dev/null
is "$(order cpufreq/policy4/min_khz=600000 cpufreq/policy4/max_khz=2016000)" \
	"cpufreq/policy4/max_khz: cpufreq/policy4/min_khz:" "raising both (new min below the old max): max first"
is "$(order cpufreq/policy4/min_khz=2016000 cpufreq/policy4/max_khz=2256000)" \
	"cpufreq/policy4/max_khz: cpufreq/policy4/min_khz:" "raising both past the old max: max first"
tt set cpufreq/policy4/min_khz=1416000 >/dev/null
is "$(order cpufreq/policy4/max_khz=1608000 cpufreq/policy4/min_khz=1008000)" \
	"cpufreq/policy4/min_khz: cpufreq/policy4/max_khz:" "lowering both (new max above the old min): min first"
is "$(order cpufreq/policy4/max_khz=1008000 cpufreq/policy4/min_khz=600000)" \
	"cpufreq/policy4/min_khz: cpufreq/policy4/max_khz:" "lowering both below the old min: min first"
# the kernel never sees min > max: simulate a strict kernel by checking the
# files after each write of the journal
tt set cpufreq/policy4/min_khz=2016000 cpufreq/policy4/max_khz=2256000 >/dev/null
ok $? "raising both: set"
is "$(file $P/policy4/scaling_min_freq) $(file $P/policy4/scaling_max_freq)" "2016000 2256000" "raising both: written"
tt set cpufreq/policy4/max_khz=816000 cpufreq/policy4/min_khz=408000 >/dev/null
ok $? "lowering both: set"
is "$(file $P/policy4/scaling_min_freq) $(file $P/policy4/scaling_max_freq)" "408000 816000" "lowering both: written"
tt restore >/dev/null
pristine; ok $? "order: restored to the fixture"

# ---- devfreq on rk3588 (dmc: 534000000..2400000000)
fresh rk3588
refused "devfreq/dmc/min_hz: EINVAL: min 1968000000 would exceed devfreq/dmc/max_hz 1320000000 \\(min must be <= max\\)" \
	"devfreq min above max in one call (alias)" devfreq/ddr/min_hz=1968000000 devfreq/dmc/max_hz=1320000000
tt set devfreq/dmc/max_hz=1320000000 >/dev/null
refused "devfreq/dmc/min_hz: EINVAL: min 1968000000 would exceed devfreq/dmc/max_hz 1320000000 \\(its current value" \
	"devfreq min above the current max" devfreq/dmc/min_hz=1968000000
refused "devfreq/dmc/min_hz: EINVAL: min 2400000000 would exceed devfreq/dmc/max_hz 1320000000" \
	"devfreq min=max above the current cap" --dry-run devfreq/dmc/min_hz=max
tt set devfreq/dmc/min_hz=1320000000 >/dev/null
refused "devfreq/dmc/max_hz: EINVAL: max 534000000 would be below devfreq/dmc/min_hz 1320000000 \\(its current value" \
	"devfreq max below the current min" devfreq/dmc/max_hz=534000000
is "$(order devfreq/dmc/min_hz=1968000000 devfreq/dmc/max_hz=2400000000)" \
	"devfreq/dmc/max_hz: devfreq/dmc/min_hz:" "devfreq raising both: max first"
is "$(order devfreq/dmc/max_hz=534000000 devfreq/dmc/min_hz=534000000)" \
	"devfreq/dmc/min_hz: devfreq/dmc/max_hz:" "devfreq lowering both: min first"
tt restore >/dev/null
pristine; ok $? "devfreq: restored to the fixture"

# ---- intel_pstate on intel (min_perf_pct 8, max_perf_pct 100)
fresh intel
refused "intel_pstate/min_perf_pct: EINVAL: min 90 would exceed intel_pstate/max_perf_pct 50 \\(min must be <= max\\)" \
	"perf_pct min above max in one call" intel_pstate/max_perf_pct=50 intel_pstate/min_perf_pct=90
tt set intel_pstate/max_perf_pct=40 >/dev/null
is "$(file $I/max_perf_pct)" 40 "max_perf_pct lowered"
refused "intel_pstate/min_perf_pct: EINVAL: min 50 would exceed intel_pstate/max_perf_pct 40 \\(its current value" \
	"perf_pct min above the current max" intel_pstate/min_perf_pct=50
refused "intel_pstate/min_perf_pct: EINVAL: min 50 would exceed intel_pstate/max_perf_pct 40" \
	"perf_pct, dry run" --dry-run intel_pstate/min_perf_pct=50
tt set intel_pstate/min_perf_pct=30 >/dev/null
refused "intel_pstate/max_perf_pct: EINVAL: max 20 would be below intel_pstate/min_perf_pct 30 \\(its current value" \
	"perf_pct max below the current min" intel_pstate/max_perf_pct=20
is "$(order intel_pstate/min_perf_pct=60 intel_pstate/max_perf_pct=90)" \
	"intel_pstate/max_perf_pct: intel_pstate/min_perf_pct:" "perf_pct raising both: max first"
is "$(order intel_pstate/max_perf_pct=20 intel_pstate/min_perf_pct=10)" \
	"intel_pstate/min_perf_pct: intel_pstate/max_perf_pct:" "perf_pct lowering both: min first"
tt restore >/dev/null
pristine; ok $? "intel_pstate: restored to the fixture"

# ---- profiles share the check (file:line naming the address)
fresh rk3588
printf '[profile]\ndescription = bad pair\n[knobs]\ncpufreq/policy4/max_khz = 1008000\ncpufreq/policy4/min_khz = 1800000\n' \
	>"$TMPD/pair.profile"
_o=$(tt apply "$TMPD/pair.profile" 2>&1)
is "$?" 2 "profile with min > max: exit 2"
like "$_o" "pair.profile:5: cpufreq/policy4/min_khz: EINVAL: min 1800000 would exceed cpufreq/policy4/max_khz 1008000" \
	"profile: names the file:line and both values"
pristine; ok $? "profile with min > max: nothing written"

done_testing
