#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Leaving changes in place: --keep, and "Keep and quit" in the quit dialog;
# the changes stay in the journal marked as kept (a K record), so the next
# start does not offer them as left behind by a crash, and 'tunetop restore'
# puts them back byte for byte.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

root=$(copy_fixture rk3588)
gov=$root/sys/devices/system/cpu/cpufreq/policy0/scaling_governor
st=$TMPD/st

# --keep: q leaves at once and keeps the change
tui_start k 120 40 -- --root "$root" --state-dir "$st" --keep
tui_wait k 'policy0 +4x A55 +gov interactive'; ok $? "started with --keep"
tui_keys k g
tui_wait k 'Governor for policy0'; ok $? "governor menu"
tui_keys k Down Down Down Down Down Enter # performance
wait_file "$gov" '^performance$'; ok $? "governor changed"
tui_keys k q
tui_wait_exit k; ok $? "q quits without a dialog under --keep"
is "$(tui_status k)" 0 "exit status 0"
is "$(cat "$gov")" performance "--keep: the change stays"
like "$(cat "$TMPD/k.err")" 'kept 1 change' "says it kept the change"
j=$("$TUNETOP" --root "$root" --state-dir "$st" journal 2>&1)
like "$j" ' kept +[0-9]+- +cpufreq/policy0/governor: interactive -> performance' \
	"--keep: journal shows the change as kept"
like "$j" 'note: 1 entry was kept on purpose' "and says what kept means"
"$TUNETOP" --root "$root" --state-dir "$st" restore >/dev/null 2>&1
ok $? "tunetop restore"
same_tree "$root" "$FIXTURES/rk3588"; ok $? "restore put it back"

# "Keep and quit" in the dialog
tui_start d 120 40 -- --root "$root" --state-dir "$st"
tui_wait d 'policy0 +4x A55 +gov interactive'; ok $? "started without --keep"
tui_keys d g
tui_wait d 'Governor for policy0'; ok $? "governor menu"
tui_keys d Down Down Down Down Enter # powersave
wait_file "$gov" '^powersave$'; ok $? "governor changed to powersave"
tui_keys d F10
tui_wait d 'Keep and quit'; ok $? "F10 opens the quit dialog"
tui_keys d Right Enter
tui_wait_exit d; ok $? "exited"
is "$(cat "$gov")" powersave "keep: the change stays"
j=$("$TUNETOP" --root "$root" --state-dir "$st" journal 2>&1)
like "$j" ' kept +[0-9]+- +cpufreq/policy0/governor: interactive -> powersave' \
	"the kept change is in the journal, marked kept"
printf '%s' "$j" | grep -q orphaned
ok $((! $?)) "not orphaned"
j=$("$TUNETOP" --root "$root" --state-dir "$st" journal --json 2>&1)
like "$(printf '%s' "$j" | tr -d ' \n')" '"address":"cpufreq/policy0/governor","target":[^}]*"new":"powersave"[^}]*"state":"active"[^}]*"kept":true,"orphaned":false' \
	"journal --json: state active, kept true, orphaned false"

# the next start does not take the kept change for a crash's leftovers
tui_start n 120 40 -- --root "$root" --state-dir "$st"
tui_wait n 'policy0 +4x A55 +gov powersave'; ok $? "next start shows the kept governor"
tui_keys n F6 # the orphan dialog, if it came, would swallow this key
tui_wait n 'kept +cpufreq/policy0/governor +interactive -> pow.* pid [0-9]+ tui \(kept on quit\)'
ok $? "Journal screen: status kept, by a run that kept it on quit"
tui_screen n | grep -q 'Changes left behind'
ok $((! $?)) "no offer to restore orphaned changes"
tui_keys n q
tui_wait_exit n; ok $? "quits at once (nothing of its own to restore)"
is "$(cat "$gov")" powersave "the kept change is still in place"
r=$("$TUNETOP" --root "$root" --state-dir "$st" restore 2>&1)
ok $? "tunetop restore"
like "$r" 'cpufreq/policy0/governor: powersave -> interactive \(restored\)' "restore reverts the kept change"
same_tree "$root" "$FIXTURES/rk3588"; ok $? "tunetop restore put it back byte for byte"

# Cancel keeps running
tui_start c 120 40 -- --root "$root" --state-dir "$st"
tui_wait c 'gov interactive'; ok $? "started again"
tui_keys c g
tui_wait c 'Governor for policy0'
tui_keys c Down Down Down Down Down Enter
wait_file "$gov" '^performance$'; ok $? "changed"
tui_keys c q
tui_wait c 'Cancel'; ok $? "quit dialog"
tui_keys c Left Enter # from the default (Restore) Left wraps to Cancel
tui_wait_not c 'Restore and quit'; ok $? "dialog closed"
tui_dead c
ok $((! $?)) "Cancel keeps tunetop running"
tui_keys c q
tui_wait c 'Restore and quit'
tui_keys c Enter
tui_wait_exit c; ok $? "quit with restore"
same_tree "$root" "$FIXTURES/rk3588"; ok $? "restored on quit"

done_testing
