#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Writes that cannot tear: on a --root tree a value is written to a
# temporary file and renamed into place. restore and undo repair a value
# tunetop may have torn itself (older versions truncated and then wrote, and
# a kill in between left the file empty or holding a part): the file is
# empty, or a strict prefix of the new value right after the entry's own
# uncommitted record, or a strict prefix of the old bytes (a restore cut
# short). Any other value is still somebody else's and left alone.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

D1=sys/devices/system/cpu/cpu0/cpuidle/state1/disable
GOV=sys/devices/system/cpu/cpufreq/policy0/scaling_governor

# uncommit: drop the commit records, as if the writer was killed between
# the journaled intent and the end of its write
uncommit() {
	grep -v "^C	" "$STATE/journal" >"$TMPD/j" && cat "$TMPD/j" >"$STATE/journal"
}

# The reproducer of issue 13: the file emptied behind a committed change.
fresh rk3588
tt set cpuidle/cpu0/cpu-sleep/disable=1 >/dev/null 2>&1
ok $? "set cpuidle/cpu0/cpu-sleep/disable=1"
is "$(file $D1)" 1 "the file holds 1"
: >"$root/$D1"
out=$(tt restore 2>&1)
ok $? "restore of an emptied file exits 0"
like "$out" "note: cpuidle/cpu0/state1/disable: .*/$D1 holds a write cut short \\(empty\\); repairing it" \
	"restore says it repairs a write cut short"
pristine
ok $? "the file has its original bytes again (same tree as the fixture)"
[ "$(tt journal 2>/dev/null | grep -c 'repaired')" -ge 1 ]
ok $? "the journal entry is closed as repaired"

# Killed after the intent record, before the commit: empty, or a strict
# prefix of the new value.
fresh rk3588
tt set cpufreq/policy0/governor=performance >/dev/null 2>&1
uncommit
: >"$root/$GOV"
tt restore >/dev/null 2>&1
ok $? "uncommitted change, empty file: restore exits 0"
pristine
ok $? "uncommitted change, empty file: repaired"

fresh rk3588
tt set cpufreq/policy0/governor=performance >/dev/null 2>&1
uncommit
printf 'perf' >"$root/$GOV"
out=$(tt restore 2>&1)
ok $? "uncommitted change, 'perf' of 'performance': restore exits 0"
like "$out" "holds a write cut short \\(a part of the value\\)" "says a part of the value"
pristine
ok $? "uncommitted change, 'perf': repaired"

# A restore cut short: a strict prefix of the old bytes.
fresh rk3588
tt set cpufreq/policy0/governor=performance >/dev/null 2>&1
printf 'inter' >"$root/$GOV"
tt restore >/dev/null 2>&1
ok $? "committed change, 'inter' of 'interactive': restore exits 0"
pristine
ok $? "committed change, 'inter': repaired"

# Somebody else's value is still left alone.
fresh rk3588
tt set cpufreq/policy0/governor=performance >/dev/null 2>&1
printf 'powersave\n' >"$root/$GOV"
out=$(tt restore 2>&1)
is "$?" 1 "another value: restore exits 1"
like "$out" "changed by someone else since \\(now powersave, tunetop wrote performance\\); left alone" \
	"another value: left alone"
is "$(file $GOV)" powersave "another value: the file keeps it"

fresh rk3588
tt set cpufreq/policy0/governor=performance >/dev/null 2>&1
printf 'perf' >"$root/$GOV"
tt restore >/dev/null 2>&1
is "$?" 1 "committed change, 'perf': not a tear of ours (the write was whole): left alone"
is "$(cat "$root/$GOV")" perf "committed change, 'perf': the file keeps it"

fresh rk3588
tt set cpufreq/policy0/governor=performance >/dev/null 2>&1
uncommit
printf 'powersave\n' >"$root/$GOV"
tt restore >/dev/null 2>&1
is "$?" 1 "uncommitted change, another value: left alone"

# A newer change of the same file owns the tear: the older entry leaves it.
fresh rk3588
tt set cpufreq/policy0/governor=performance >/dev/null 2>&1
tt set cpufreq/policy0/governor=powersave >/dev/null 2>&1
: >"$root/$GOV"
tt restore >/dev/null 2>&1
ok $? "two changes of one file, emptied: restore exits 0"
pristine
ok $? "two changes of one file, emptied: repaired to the first old value"

# undo repairs too.
fresh rk3588
tt set cpuidle/cpu0/cpu-sleep/disable=1 >/dev/null 2>&1
: >"$root/$D1"
tt undo >/dev/null 2>&1
ok $? "undo of an emptied file exits 0"
pristine
ok $? "undo: repaired"

# A writer killed between its temporary file and the rename left it; the
# next restore removes it.
fresh rk3588
tt set cpufreq/policy0/governor=performance >/dev/null 2>&1
uncommit
dead=$(sh -c 'echo $$')
printf 'performance\n' >"$root/${GOV%/*}/.scaling_governor.tunetop-$dead-0"
tt restore >/dev/null 2>&1
ok $? "a leftover temporary file: restore exits 0"
pristine
ok $? "a leftover temporary file: removed, the tree is as it was"

# Writes replace the file (a new inode) and keep its mode.
fresh rk3588
chmod 600 "$root/$GOV"
ino=$(stat -c %i "$root/$GOV")
tt set cpufreq/policy0/governor=performance >/dev/null 2>&1
[ "$(stat -c %i "$root/$GOV")" != "$ino" ]
ok $? "the value was renamed into place"
is "$(stat -c %a "$root/$GOV")" 600 "the file keeps its mode"
is "$(find "$root" -name '*.tunetop-*' | wc -l | tr -d ' ')" 0 "no temporary file is left"
done_testing
