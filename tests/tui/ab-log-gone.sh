#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Latency screen's A/B with an app's log (tests/tui/ab-log.sh) when the
# log is deleted mid-run: as `ab --metric-file` does, the run fails with one
# line ("metric file LOG: deleted (no new file after 2 s)") on the status
# line, the knob is put back (the copied fixture byte for byte) and tunetop
# keeps running. (issue 17 item 4)
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

# 1 round ABBA of 2 s windows, 200 ms settle
mkdir -p "$XDG_CONFIG_HOME/tunetop"
printf 'config_version=1\nab_window_s=2\nab_settle_ms=200\nab_rounds=1\n' \
	>"$XDG_CONFIG_HOME/tunetop/tunetoprc"

root=$(copy_fixture rk3588)
dis=$root/sys/devices/system/cpu/cpu0/cpuidle/state1/disable
st=$TMPD/st
LOG=$TMPD/app.log
KNOB=cpuidle/cpu0/state1/disable

: >"$LOG"
(while :; do echo "latency: 10 ms" >>"$LOG"; sleep 0.05; done) &
WP=$!
stop_writer() { [ -n "$WP" ] && kill "$WP" 2>/dev/null; wait "$WP" 2>/dev/null; WP=; }
trap 'stop_writer; tui_cleanup' EXIT

tui_start g 140 40 -- --root "$root" --state-dir "$st"
tui_wait g 'policy0'; ok $? "tunetop up"
tui_keys g 0 A
tui_wait g 'Measure with: \[probe\]'
tui_keys g "$KNOB=0,1" Tab Enter
tui_wait g 'LOG: the file the app appends to'
tui_keys g "$LOG" Enter
tui_wait g 'REGEX: a group around the number'
tui_keys g 'latency: ([0-9]+) ms' Enter
tui_wait g "A/B $KNOB .*source: $LOG"; ok $? "the A/B runs on the log"
wait_file "$dis" '^1$' 20; ok $? "B in place"
stop_writer
rm -f "$LOG"
tui_wait g "A/B Failed: metric file $LOG: deleted \\(no new file after 2 s\\); $KNOB is back to 0" 20
ok $? "one status line: the log was deleted, the knob is back"
n=$(tui_screen g | grep -c 'deleted (no new file after 2 s)')
is "$n" 2 "the status line and the result's end line, nothing else"
tui_wait g 'Verdict: '; ok $? "the partial result stays on screen"
is "$(cat "$dis")" 0 "the knob is back to 0"
ok "$(same_tree "$FIXTURES/rk3588" "$root"; echo $?)" "the fixture is back byte for byte"
tui_dead g; is $? 1 "tunetop is still running"
tui_keys g x
tui_wait g 'Probe stopped'; ok $? "x closes the result"
tui_keys g q
tui_wait_exit g; ok $? "q quits"
is "$(tui_status g)" 0 "exit status 0"
unlike "$(cat "$TMPD/g.err")" "AddressSanitizer|Segmentation|core dumped" "no crash"
done_testing
