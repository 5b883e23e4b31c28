#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Hold mode in the monitor (issue 15): a change made in the TUI that
# something else writes over is reported on the status line ("changed
# outside tunetop", until the next key) and counted in the header ("reverted N"); an undone
# change is no longer held. --hold=reassert writes it back (journaled, as
# the session's change; "reasserted" on the status line and in the header)
# and the exit (or u) still puts back the value from before the session;
# --hold=off reports nothing and leaves the value found. On copied
# fixtures; the test writes the files.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

st=$TMPD/st
# fresh: a new copy of the fixture in $root, $gov its policy0 governor
fresh() {
	root=$(copy_fixture rk3588)
	gov=$root/sys/devices/system/cpu/cpufreq/policy0/scaling_governor
}
# lock NAME WHAT [ARGS...]: the TUI in pane NAME on $root (ARGS: its
# options), and policy0's governor set to performance from it
lock() {
	_p=$1 _w=$2
	shift 2
	tui_start "$_p" 140 40 -- --root "$root" --state-dir "$st" "$@"
	tui_wait "$_p" 'policy0 +4x A55 +gov interactive'; ok $? "${_w}started"
	tui_keys "$_p" g
	tui_wait "$_p" 'Governor for policy0'; ok $? "${_w}governor menu"
	tui_keys "$_p" Down Down Down Down Down Enter # performance
	wait_file "$gov" '^performance$'; ok $? "${_w}governor changed in the TUI"
	# the screen is drawn after the set has read the value back: a write
	# from the test before that would be taken as the kernel's answer
	tui_wait "$_p" 'policy0 +4x A55 +gov performance'; ok $? "${_w}shown changed"
}
# quit NAME WHAT: F10, "Restore and quit"
quit() {
	tui_keys "$1" F10
	tui_wait "$1" 'Restore and quit'; ok $? "${2}quit dialog"
	tui_keys "$1" Enter
	tui_wait_exit "$1"; ok $? "${2}exited"
}
# leave NAME WHAT: F10 with nothing left to restore (no dialog), and the
# tree is the fixture's again
leave() {
	tui_keys "$1" F10
	tui_wait_exit "$1"; ok $? "${2}exited"
	same_tree "$root" "$FIXTURES/rk3588"; ok $? "${2}the tree equals the pristine fixture"
}

fresh
lock h ""
echo powersave >"$gov"
tui_wait h 'cpufreq/policy0/governor: expected performance, found powersave'
ok $? "the change behind tunetop's back is on the status line"
tui_wait h 'reverted 1'; ok $? "and counted in the header"
sleep 9 # longer than an ordinary message stays
tui_screen h | grep -q 'cpufreq/policy0/governor: expected performance, found powersave'
ok $? "the report stays on the status line until a key is pressed"
tui_keys h Down
tui_wait_not h 'expected performance, found powersave'; ok $? "a key takes it away"
quit h ""
is "$(cat "$gov")" powersave "the value written outside is left alone at the exit"
"$TUNETOP" --root "$root" --state-dir "$st" restore --force >/dev/null 2>&1
same_tree "$root" "$FIXTURES/rk3588"; ok $? "restore --force puts the fixture back"

# undo: the knob is no longer held, so going back is not a revert
lock u "undo: "
tui_keys u u
wait_file "$gov" '^interactive$'; ok $? "undone"
tui_wait u 'policy0 +4x A55 +gov interactive'; ok $? "shown undone"
sleep 2.5 # two rounds of hold: a report now would be a false one
tui_screen u | grep -q 'reverted\|outside tunetop'
ok $((! $?)) "an undo is not taken for a change outside tunetop"
leave u "undo: "

# --hold=reassert: the value written behind the TUI's back is written back
# within a few rounds (one a second), said on the status line and counted
fresh
lock r "reassert: " --hold=reassert
echo powersave >"$gov"
wait_file "$gov" '^performance$'; ok $? "reassert: the locked value is written back"
tui_wait r 'cpufreq/policy0/governor: powersave -> performance \(reasserted\)'
ok $? "reassert: the status line says so"
tui_wait r 'reverted 1 reasserted 1'; ok $? "reassert: counted in the header"
"$TUNETOP" --root "$root" --state-dir "$st" journal >"$TMPD/journal" 2>&1
pid=$(tui_pid r)
like "$(cat "$TMPD/journal")" "active +$pid +cpufreq/policy0/governor: powersave -> performance" \
	"reassert: the write-back is journaled as a change of the TUI's run"
like "$(cat "$TMPD/journal")" "$pid +tui +live +2 " "reassert: the TUI owns both changes"
quit r "reassert: "
same_tree "$root" "$FIXTURES/rk3588"; ok $? "reassert: after quitting the tree equals the pristine fixture"

# --hold=reassert, then u: the undo takes the write-back and the change it
# held together, back to the value from before (not the one found outside,
# which the next round would write over again)
fresh
lock b "reassert undo: " --hold=reassert
echo powersave >"$gov"
tui_wait b 'reverted 1 reasserted 1'; ok $? "reassert undo: written back"
tui_keys b u
wait_file "$gov" '^interactive$'; ok $? "reassert undo: u puts back the value from before"
sleep 2.5 # two rounds of hold: a write-back now would be wrong
is "$(cat "$gov")" interactive "reassert undo: and it stays"
leave b "reassert undo: "

# --hold=off: nothing is watched, the value written outside stays
fresh
lock o "off: " --hold=off
echo powersave >"$gov"
tui_wait o 'policy0 +4x A55 +gov powersave'; ok $? "off: the TUI shows the value found"
sleep 2.5 # two rounds of hold: a report or a write-back now would be wrong
tui_screen o | grep -q 'reverted\|outside tunetop\|reasserted'
ok $((! $?)) "off: no report"
is "$(cat "$gov")" powersave "off: the file stays reverted"
quit o "off: "
is "$(cat "$gov")" powersave "off: the value written outside is left alone at the exit"

# a bad mode is a usage error
"$TUNETOP" --root "$root" --state-dir "$st" --hold=sometimes >/dev/null 2>"$TMPD/bad.err" </dev/null
is $? 2 "--hold=sometimes exits 2"
is "$(cat "$TMPD/bad.err")" "tunetop: --hold 'sometimes': must be off, report or reassert" \
	"--hold=sometimes: one line naming the modes"
done_testing
