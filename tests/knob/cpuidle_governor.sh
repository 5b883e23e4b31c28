#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpuidle/governor (issue 21): the cpuidle governor as a knob on copied
# fixtures: listed with its allowed values, set through the journal,
# validated against available_governors, restored byte for byte, refused
# with one line where the kernel has only current_governor_ro or no
# cpuidle at all.
. "$TT_SRCDIR/tests/lib.sh"

root=$(copy_fixture intel)
gov=$root/sys/devices/system/cpu/cpuidle/current_governor
tt() { "$TUNETOP" --root "$root" --state-dir "$TMPD/st" "$@"; }

out=$(tt knobs 2>&1)
like "$out" 'cpuidle/governor +menu .*ladder menu teo' "knobs lists cpuidle/governor, its value and choices"
is "$(tt get cpuidle/governor)" "cpuidle/governor=menu" "get reads current_governor"
like "$(tt get 'cpuidle/*' | head -1)" '^cpuidle/governor=menu$' "cpuidle/* includes the governor"

out=$(tt set cpuidle/governor=teo 2>&1)
ok $? "set cpuidle/governor=teo"
like "$out" 'cpuidle/governor: menu -> teo' "says what changed"
is "$(cat "$gov")" teo "current_governor now teo"
like "$(tt journal 2>&1)" 'cpuidle/governor' "journaled"

out=$(tt set cpuidle/governor=haltpoll 2>&1)
is $? 2 "a governor the kernel does not offer: exit 2"
like "$out" "'haltpoll' is not in available cpuidle governors: ladder menu teo" "says which it offers"
is "$(printf '%s\n' "$out" | wc -l)" 1 "one line"
is "$(cat "$gov")" teo "nothing changed"

tt restore >/dev/null 2>&1
ok $? "restore"
same_tree "$root" "$FIXTURES/intel"; ok $? "the tree is as it was, byte for byte"

# a profile can hold it, and apply is one transaction
mkdir -p "$TMPD/prof"
printf '[profile]\ndescription = teo and no C6\n[knobs]\ncpuidle/governor = teo\ncpuidle/*/C6/disable = 1\n' >"$TMPD/prof/teo.ini"
tt apply "$TMPD/prof/teo.ini" >/dev/null 2>&1
ok $? "apply a profile with cpuidle/governor"
is "$(cat "$gov") $(cat "$root/sys/devices/system/cpu/cpu3/cpuidle/state3/disable")" "teo 1" "both knobs set"
tt restore >/dev/null 2>&1
same_tree "$root" "$FIXTURES/intel"; ok $? "restored"

# read-only: a kernel with current_governor_ro only
ro=$(copy_fixture intel)
rm "$ro/sys/devices/system/cpu/cpuidle/current_governor"
out=$("$TUNETOP" --root "$ro" --state-dir "$TMPD/st-ro" set cpuidle/governor=teo 2>&1)
rc=$?
ok "$([ "$rc" -ne 0 ] && echo 0 || echo 1)" "only current_governor_ro: refused (exit $rc)"
like "$out" 'current_governor_ro: this kernel cannot switch cpuidle governors \(read-only\)' \
	"says why, naming the file"
is "$(printf '%s\n' "$out" | wc -l)" 1 "one line"
is "$(cat "$ro/sys/devices/system/cpu/cpuidle/current_governor_ro")" menu "nothing written"

# no cpuidle at all
no=$(copy_fixture intel)
rm -r "$no/sys/devices/system/cpu/cpuidle"
out=$("$TUNETOP" --root "$no" --state-dir "$TMPD/st-no" set cpuidle/governor=teo 2>&1)
ok "$([ $? -ne 0 ] && echo 0 || echo 1)" "no cpuidle: refused"
like "$out" 'cpuidle/governor: ENOENT from .*current_governor: no cpuidle on this root' "says so"
like "$("$TUNETOP" explain cpuidle/governor 2>&1 | tr -s '\n ' '  ')" "haltpoll does not" "explain cpuidle/governor says why haltpoll matters"
done_testing
