#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop ab: bad input exits 2 with one clear line on stderr, prints nothing
# on stdout, and touches nothing (the fixture copy is unchanged and the
# journal has no entries).
. "$TT_SRCDIR/tests/lib.sh"

STATE="$TMPD/state"
ROOT=$(copy_fixture rk3588)
err="$TMPD/err"
out="$TMPD/out"
K='cpuidle/*/cpu-sleep/disable'

# bad DESCRIPTION REGEX ARGS...
bad() {
	d=$1 re=$2
	shift 2
	"$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab "$@" >"$out" 2>"$err"
	is "$?" 2 "$d: exit 2"
	like "$(cat "$err")" "^tunetop ab: .*$re" "$d: says why"
	is "$(wc -l <"$err" | tr -d ' ')" 1 "$d: one line"
	is "$(wc -c <"$out" | tr -d ' ')" 0 "$d: nothing on stdout"
}

ncpu=$(getconf _NPROCESSORS_CONF 2>/dev/null || echo 2)
off=$((ncpu + 5))

bad "no argument" "expected ADDRESS=A,B"
bad "one value" "expected two values" "$K=1" --cmd true
bad "a value twice" "values 1 and 3 are the same" "$K=0,1,0" --cmd true
bad "nine values" "9 values; a sweep takes 2 to 8" "$K=0,1,2,3,4,5,6,7,8" --cmd true
bad "no address" "expected ADDRESS=A,B" "=0,1" --cmd true
bad "no '='" "expected ADDRESS=A,B" "$K" --cmd true
bad "unknown address" "nosuch" "nosuch/thing=0,1" --cmd true
bad "unknown idle state" "C6" "cpuidle/*/C6/disable=0,1" --cmd true
bad "value not allowed" "'2'" "$K=0,2" --cmd true
bad "A equals B" "A and B are the same" "$K=1,1" --cmd true
bad "empty value" "non-empty" "$K=0," --cmd true
bad "two addresses" "unexpected argument" "$K=0,1" "cpufreq/policy0/governor=performance,powersave" --cmd true
bad "--window garbage" "--window 'soon'" "$K=0,1" --window soon
bad "--window 0 with the probe" "--window 0: must be" "$K=0,1" --window 0
bad "--settle negative" "--settle '-5'" "$K=0,1" --settle -5 --cmd true
bad "--rounds 0" "--rounds '0'" "$K=0,1" --rounds 0 --cmd true
bad "--seed garbage" "--seed 'x'" "$K=0,1" --seed x --cmd true
bad "--why-over without --why" "--why-over needs --why" "$K=0,1" --why-over 100
bad "--why with --cmd" "--why explains the probe's late wake-ups: not with --cmd" "$K=0,1" --why --cmd true
bad "--why-over 0" "--why-over '0'" "$K=0,1" --why --why-over 0
bad "--cpus offline" "CPU $off is not online" "$K=0,1" --cpus "$off"
bad "--cpus garbage" "--cpus 'x'" "$K=0,1" --cpus x
bad "--cpus offline with --cmd" "CPU $off is not online" "$K=0,1" --cpus "$off" --cmd true
bad "--prio 0" "out of range" "$K=0,1" --prio 0
bad "--policy bogus" "--policy 'bogus'" "$K=0,1" --policy bogus
bad "--load bogus" "--load 'disk:1': unknown load" "$K=0,1" --load disk:1 --cmd true
bad "--load cpu:0" "thread count '0'" "$K=0,1" --load cpu:0 --cmd true
bad "--load cpu:x" "thread count 'x'" "$K=0,1" --load cpu:x --cmd true
bad "--load offline CPU" "CPU $off is not online" "$K=0,1" --load "cpu:1@$off" --cmd true
bad "--load stray word" "is not a load item" "$K=0,1" --load cpu:1,3 --cmd true
bad "--metric without --cmd" "--metric needs --cmd" "$K=0,1" --metric '([0-9]+)'
bad "--metric without a group" "needs a capture group" "$K=0,1" --cmd true --metric '[0-9]+'
bad "--metric bad regex" "--metric '\\(\\[0-9'" "$K=0,1" --cmd true --metric '([0-9'
bad "unknown option" "unknown option '--bogus'" "$K=0,1" --bogus
bad "missing value" "--window needs a value" "$K=0,1" --window

same_tree "$FIXTURES/rk3588" "$ROOT"
ok $? "nothing was written to the fixture"
n=0
[ -f "$STATE/journal" ] && n=$(grep -c . "$STATE/journal")
is "$n" 0 "nothing was journaled"

# a knob that cannot be written here: exit 1, nothing touched
if [ "$(id -u)" != 0 ]; then
	"$TUNETOP" --state-dir "$STATE" ab "$K=0,1" --cmd true >"$out" 2>"$err"
	r=$?
	if [ -d /sys/devices/system/cpu/cpu0/cpuidle/state1 ]; then
		is "$r" 1 "live knob without root: exit 1"
		like "$(cat "$err")" "not writable \\(needs root\\)" "live knob without root: says why"
	else
		is "$r" 2 "live machine without cpuidle states: exit 2"
	fi
else
	skip "live knob without root: exit 1" "running as root"
fi

"$TUNETOP" ab --help >"$out" 2>"$err"
is "$?" 0 "--help exits 0"
like "$(cat "$out")" "ADDRESS=A,B" "--help shows the usage"
"$TUNETOP" --help >"$out" 2>&1
like "$(cat "$out")" "tunetop ab ADDRESS=A,B" "tunetop --help lists ab"

done_testing
