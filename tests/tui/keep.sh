#!/bin/sh
# Leaving changes in place: --keep, and "Keep and quit" in the quit dialog;
# the changes stay in the journal and 'tunetop restore' puts them back.
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
"$TUNETOP" --root "$root" --state-dir "$st" journal 2>/dev/null | grep -q 'policy0/governor'
ok $? "the kept change is in the journal"
"$TUNETOP" --root "$root" --state-dir "$st" restore >/dev/null 2>&1
same_tree "$root" "$FIXTURES/rk3588"; ok $? "tunetop restore put it back"

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
