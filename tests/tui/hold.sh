#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Hold mode in the monitor (issue 15): a change made in the TUI that
# something else writes over is reported on the status line ("changed
# outside tunetop") and counted in the header ("reverted N"); an undone
# change is no longer held. On a copied fixture; the test writes the file.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

root=$(copy_fixture rk3588)
gov=$root/sys/devices/system/cpu/cpufreq/policy0/scaling_governor
st=$TMPD/st

tui_start h 140 40 -- --root "$root" --state-dir "$st"
tui_wait h 'policy0 +4x A55 +gov interactive'; ok $? "started"
tui_keys h g
tui_wait h 'Governor for policy0'; ok $? "governor menu"
tui_keys h Down Down Down Down Down Enter # performance
wait_file "$gov" '^performance$'; ok $? "governor changed in the TUI"
echo powersave >"$gov"
tui_wait h 'cpufreq/policy0/governor: expected performance, found powersave'
ok $? "the change behind tunetop's back is on the status line"
tui_wait h 'reverted 1'; ok $? "and counted in the header"
tui_keys h F10
tui_wait h 'Restore and quit'; ok $? "quit dialog"
tui_keys h Enter
tui_wait_exit h; ok $? "exited"
is "$(cat "$gov")" powersave "the value written outside is left alone at the exit"
"$TUNETOP" --root "$root" --state-dir "$st" restore --force >/dev/null 2>&1
same_tree "$root" "$FIXTURES/rk3588"; ok $? "restore --force puts the fixture back"

# undo: the knob is no longer held, so going back is not a revert
tui_start u 140 40 -- --root "$root" --state-dir "$st"
tui_wait u 'policy0 +4x A55 +gov interactive'; ok $? "started again"
tui_keys u g
tui_wait u 'Governor for policy0'; ok $? "governor menu"
tui_keys u Down Down Down Down Down Enter # performance
wait_file "$gov" '^performance$'; ok $? "governor changed"
tui_keys u u
wait_file "$gov" '^interactive$'; ok $? "undone"
tui_wait u 'policy0 +4x A55 +gov interactive'; ok $? "shown undone"
sleep 2.5 # two rounds of hold: a report now would be a false one
tui_screen u | grep -q 'reverted\|outside tunetop'
ok $((! $?)) "an undo is not taken for a change outside tunetop"
tui_keys u F10
tui_wait u 'Restore and quit'
tui_keys u Enter
tui_wait_exit u; ok $? "exited"
same_tree "$root" "$FIXTURES/rk3588"; ok $? "tree equals the fixture"
done_testing
