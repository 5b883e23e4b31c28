#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Signals restore this session's changes (SIGTERM, SIGHUP, SIGINT / ^C, a
# closed terminal); a second instance on the same journal is read-only and
# refuses actions with the reason; after kill -9 the next start offers to
# restore what was left.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

root=$(copy_fixture rk3588)
gov=$root/sys/devices/system/cpu/cpufreq/policy6/scaling_governor
st=$TMPD/st

change_gov() { # NAME: policy6 -> performance (policy6 row is the 10th)
	tui_wait "$1" 'policy6 +2x A76 +gov interactive' || return 1
	tui_keys "$1" End Up Up g
	tui_wait "$1" 'Governor for policy6' || return 1
	tui_keys "$1" Down Down Down Down Down Enter
	wait_file "$gov" '^performance$'
}

for sig in TERM HUP INT; do
	tui_start "s$sig" 120 40 -- --root "$root" --state-dir "$st"
	change_gov "s$sig"; ok $? "SIG$sig: governor changed"
	pid=$(tui_pid "s$sig")
	kill -s "$sig" "$pid"
	tui_wait_exit "s$sig"; ok $? "SIG$sig: tunetop exited"
	same_tree "$root" "$FIXTURES/rk3588"; ok $? "SIG$sig: changes restored"
done

# a closed terminal (the tmux session killed: SIGHUP, then EOF on the tty)
tui_start cl 120 40 -- --root "$root" --state-dir "$st"
change_gov cl; ok $? "closed terminal: governor changed"
pid=$(tui_pid cl)
tmx kill-session -t cl
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 "$pid" 2>/dev/null
ok $((! $?)) "closed terminal: tunetop exited"
same_tree "$root" "$FIXTURES/rk3588"; ok $? "closed terminal: changes restored"

# ^C from the keyboard is SIGINT too
tui_start cc 120 40 -- --root "$root" --state-dir "$st"
change_gov cc; ok $? "^C: governor changed"
tui_keys cc C-c
tui_wait_exit cc; ok $? "^C: exited"
same_tree "$root" "$FIXTURES/rk3588"; ok $? "^C: restored"

# a second instance may write too: the journal lock is held only around each
# append or undo, never for a session (issue 15)
tui_start one 120 40 -- --root "$root" --state-dir "$st"
tui_wait one 'policy0'; ok $? "first instance up"
tui_wait_not one 'READ-ONLY' 2; ok $? "first instance may write"
tui_start two 120 40 -- --root "$root" --state-dir "$st"
tui_wait two 'policy0'; ok $? "second instance up"
tui_wait_not two 'READ-ONLY' 2; ok $? "second instance may write as well"
change_gov two; ok $? "the second instance changes the governor while the first runs"
tui_keys two q
tui_wait two 'Restore and quit|Keep and quit' 5 >/dev/null && tui_keys two Enter
tui_wait_exit two; ok $? "second instance quits"
is "$(cat "$gov")" interactive "it restored its own change"
tui_keys one q
tui_wait_exit one; ok $? "first instance quits"

# crash: kill -9 leaves the change; the next start offers to restore it
tui_start k9 120 40 -- --root "$root" --state-dir "$st"
change_gov k9; ok $? "kill -9: governor changed"
kill -9 "$(tui_pid k9)"
tui_wait_exit k9; ok $? "killed"
is "$(cat "$gov")" performance "the change survived the crash"
tui_start rec 120 40 -- --root "$root" --state-dir "$st"
tui_wait rec 'Changes left behind'; ok $? "next start finds the orphaned change"
tui_wait rec 'Restore them'; ok $? "and offers to restore it"
tui_keys rec Enter
wait_file "$gov" '^interactive$'; ok $? "restored from the journal"
tui_wait rec 'Restored 1 change'; ok $? "status line says so"
tui_keys rec q
tui_wait_exit rec; ok $? "quits"
same_tree "$root" "$FIXTURES/rk3588"; ok $? "tree is back"

done_testing
