#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Latency screen's A/B with an app's log as its metric (issue 17 item 4):
# A, the knob's ADDRESS=A,B, Tab to "app log", then LOG and REGEX (as
# `ab --metric-file LOG --metric REGEX`). A writer appends "latency: N ms"
# lines to LOG, 10 while the copied fixture's cpu0 state1 is enabled and 30
# while it is disabled, so the arms differ by +20 ms; the screen shows the
# log as the source, each arm's values, the windows, the verdict and the
# plot in ms, and nothing of the probe; the fixture is put back byte for
# byte. A writer that logs nothing in B gives a status line per empty window
# and "no comparison" (as the CLI). A bad REGEX is refused with the CLI's
# line. tests/tui/ab-log-gone.sh deletes the log mid-run.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

# 1 round ABBA of 1 s windows, 200 ms settle
mkdir -p "$XDG_CONFIG_HOME/tunetop"
printf 'config_version=1\nab_window_s=1\nab_settle_ms=200\nab_rounds=1\n' \
	>"$XDG_CONFIG_HOME/tunetop/tunetoprc"

root=$(copy_fixture rk3588)
dis=$root/sys/devices/system/cpu/cpu0/cpuidle/state1/disable
st=$TMPD/st
LOG=$TMPD/app.log
KNOB=cpuidle/cpu0/state1/disable
RE='latency: ([0-9]+) ms'

# writer.sh KNOBFILE LOG MODE: a line every 50 ms, 10 ms while the knob
# reads 0, 30 ms while it reads 1 (MODE both) or nothing then (MODE aonly)
cat >"$TMPD/writer.sh" <<'EOF'
#!/bin/sh
while :; do
	read -r v <"$1"
	if [ "$v" = 1 ]; then
		[ "$3" = both ] && echo "latency: 30 ms" >>"$2"
	else
		echo "latency: 10 ms" >>"$2"
	fi
	sleep 0.05
done
EOF
WP=
start_writer() { # MODE
	: >"$LOG"
	sh "$TMPD/writer.sh" "$dis" "$LOG" "$1" &
	WP=$!
}
stop_writer() { [ -n "$WP" ] && kill "$WP" 2>/dev/null; wait "$WP" 2>/dev/null; WP=; }
trap 'stop_writer; tui_cleanup' EXIT
HDR='^Arm +Value +Windows +Samples +Mean'

start_writer both
tui_start s 140 48 -- --root "$root" --state-dir "$st"
tui_wait s 'policy0'; ok $? "tunetop up"
tui_keys s 0 A
tui_wait s 'Measure with: \[probe\] +app log'; ok $? "the A dialog offers the source: the probe by default"
tui_keys s "$KNOB=0,1" Tab
tui_wait s 'Measure with: +probe +\[app log\]'; ok $? "Tab chooses the app's log"
tui_keys s Enter
tui_wait s 'LOG: the file the app appends to'; ok $? "asks for LOG"
tui_keys s "$LOG" Enter
tui_wait s 'REGEX: a group around the number'; ok $? "asks for REGEX"
tui_keys s "$RE" Enter
tui_wait s "A/B $KNOB +A=0 +B=1 +\\(was 0\\) +source: $LOG"; ok $? "the header says source: LOG"
tui_wait s "metric 'latency: \\(\\[0-9\\]\\+\\) ms' of the lines the log gains, in ms"
ok $? "what it measures: the regex and its unit"
tui_wait s 'round 1/1 +window [1-4]/4'; ok $? "progress: round and window"
tui_wait s 'Done: 4 windows' 30; ok $? "all four windows measured"
tui_screen s | sed "s/^/#   /" # the result as shown, in the log
tui_wait_cell s "$HDR" '^A +0 ' Windows '2/2'; ok $? "arm A: 2 windows"
tui_wait_cell s "$HDR" '^A +0 ' Mean '10'; ok $? "arm A: mean 10 (the writer's value while the knob is 0)"
tui_wait_cell s "$HDR" '^A +0 ' Max '10'; ok $? "arm A: max 10, no B line leaked in"
tui_wait_cell s "$HDR" '^B +1 ' Mean '30'; ok $? "arm B: mean 30 (the writer's value while it is 1)"
tui_wait_cell s "$HDR" '^B +1 ' p50 '30'; ok $? "arm B: p50 30"
tui_wait_cell s "$HDR" '^B +1 ' Samples '[1-9][0-9]*'; ok $? "arm B: its samples counted"
tui_wait s '^Window +1A +2B +3B +4A +\(ms; - = no value\)'; ok $? "the windows table, in ms"
tui_wait s '^mean +10\.0 +30\.0 +30\.0 +10\.0'; ok $? "each window's mean from the log"
tui_wait s "Verdict: $KNOB=1: inconclusive: 4 windows"; ok $? "the verdict, as the CLI's (1 round)"
tui_wait s 'mean \+20 ms'; ok $? "the verdict: B - A of the mean is +20 ms"
tui_wait s '^0 +\|.*o.*\|'; ok $? "the plot: a line for A"
tui_wait s '^1 +\|.*o.*\|'; ok $? "... and for B"
tui_wait s '10 \.\. 30 ms \(mean'; ok $? "the plot's scale in the log's unit"
scr=$(tui_screen s)
unlike "$scr" 'probe|SCHED_|on CPUs|p99 [0-9]+ *$' "nothing of the probe (CPUs, policy, latency histogram)"
ok "$(same_tree "$FIXTURES/rk3588" "$root"; echo $?)" "the fixture is back byte for byte"
stop_writer

# a window without values: one status line; the CLI's "no comparison"
start_writer aonly
tui_keys s x
tui_wait s 'Probe stopped'; ok $? "x closes the result"
tui_keys s A
tui_wait s 'Measure with: +probe +\[app log\]'; ok $? "A again: the log source is kept"
tui_keys s Enter
tui_wait s "│ $LOG"; ok $? "LOG pre-filled"
tui_keys s Enter
tui_keys s Enter
tui_wait s "A/B window [23] \\(B=1\\) is empty: $LOG gained no line matching" 20
ok $? "an empty window: one status line naming the log"
tui_wait s 'Done: 4 windows' 30; ok $? "the run goes on to its end"
tui_wait s "Verdict: $KNOB=1: no comparison \\(B arm has no samples\\)"; ok $? "the verdict: no comparison, as the CLI's"
tui_wait s '^mean +10\.0 +- +- +10\.0'; ok $? "the empty windows are marked -"
tui_wait_cell s "$HDR" '^B +1 ' Samples '0'; ok $? "arm B: 0 samples"
stop_writer

# a bad REGEX: the CLI's one line
tui_keys s x A Enter Enter
tui_wait s 'REGEX: a group around the number'
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21; do tui_keys s BSpace; done
tui_keys s 'x=([0-9]' Enter
tui_wait s "A/B refused: --metric 'x=\\(\\[0-9\\]': "; ok $? "a regex that does not compile: the CLI's line"
tui_keys s q
tui_wait_exit s; ok $? "q quits"
is "$(tui_status s)" 0 "exit status 0"
ok "$(same_tree "$FIXTURES/rk3588" "$root"; echo $?)" "the fixture is back byte for byte at the end"
done_testing
