#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Record and replay: `tunetop --demo --record F` writes the samples it shows,
# `tunetop --replay F` draws them again, marked REPLAY: the Cores, Clocks
# and Findings screens show the recorded numbers of the sample in the header
# (checked against the file at several positions), . , [ ] { } move the
# position and the displayed time, space plays and pauses, + - change the
# speed, every action is refused, every screen draws. A recording of a
# fixture with a change made and undone in the TUI replays its journal
# events (changes in force, Journal screen), and a `watch --record` file
# replays too. The demo recording is compressed (the default, built with
# libzstd: its lines are read back with zstd -dc), the fixture's plain
# (.jsonl).
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

# the JSON lines of a recording, compressed or not (a stream still being
# written decodes up to its last flushed line)
rec_text() {
	if [ "$(od -An -tx1 -N4 "$1" 2>/dev/null | tr -d ' ')" = 28b52ffd ]; then
		zstd -dcq "$1" 2>/dev/null
	else
		cat "$1" 2>/dev/null
	fi
}
# wait_samples FILE N: until FILE holds N sample lines
nsamples() {
	local n
	n=$(rec_text "$1" | grep -c '"type":"sample"')
	echo "${n:-0}"
}
wait_samples() {
	local i=0
	while [ "$(nsamples "$1")" -lt "$2" ] && [ "$i" -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(nsamples "$1")" -ge "$2" ]
}
sample() { rec_text "$rec" | grep '"type":"sample"' | sed -n "${1}p"; }
# recorded values of sample K, as the screens print them
pol4_mhz() { sample "$1" | grep -o '"name":"policy4","cpus":[^}]*' | grep -o '"cur_khz":[0-9]*' | head -1 | awk -F: '{ printf "%d", ($2 + 500) / 1000 }'; }
ddr_mhz() { sample "$1" | grep -o '"name":"dmc","kind":"ddr"[^}]*' | grep -o '"cur_hz":[0-9]*' | head -1 | awk -F: '{ printf "%d", ($2 + 500000) / 1000000 }'; }
nfind() { sample "$1" | grep -o '"severity":"' | grep -c .; }
t_ns() { sample "$1" | grep -o '"t_ns":[0-9]*' | head -1 | cut -d: -f2; }
offset() { awk -v a="$(t_ns 1)" -v b="$(t_ns "$1")" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }

# the header and the screens show sample K as recorded
check_sample() {
	local k=$1 p d f
	p=$(pol4_mhz "$k")
	d=$(ddr_mhz "$k")
	f=$(nfind "$k")
	tui_wait r "sample $k/$N \\+$(offset "$k")s"; ok $? "sample $k: header position and time (+$(offset "$k")s)"
	tui_wait r "DDR $d MHz .* $f finding"; ok $? "sample $k: DDR $d MHz and $f findings as recorded"
	tui_wait r "policy4 +2x A76 +gov [a-z]+ +408-2256 MHz +cur $p "; ok $? "sample $k: Cores shows policy4 at $p MHz as recorded"
}

# --- record the simulated board
rec=$TMPD/demo.rec
command -v zstd >/dev/null || rec=$TMPD/demo.jsonl # zstd(1) reads it back here
tui_start d 120 40 -- --demo -d 3 --record "$rec"
tui_wait d 'REC on'; ok $? "--record: REC in the header"
wait_samples "$rec" 12; ok $? "samples are written while it runs"
tui_keys d q
tui_wait_exit d; ok $? "quits"
is "$(tui_status d)" 0 "exit status 0"
like "$(cat "$TMPD/d.err")" 'recorded [0-9]+ samples to' "says what it recorded"
rec_text "$rec" | head -1 | grep -q '"format":"tunetop-record".*"source":"demo".*"simulated":true'
ok $? "header line: a tunetop recording of the simulated board"
rec_text "$rec" | tail -1 | grep -q '"type":"end"'; ok $? "an end line (complete)"
N=$(nsamples "$rec")
"$TUNETOP" report "$rec" >"$TMPD/report.txt" 2>&1; ok $? "tunetop report reads it"

# --- replay it
tui_start r 120 40 -- --replay "$rec"
tui_wait r '^ REPLAY +SIMULATED RK3588'; ok $? "REPLAY and SIMULATED in the header"
tui_wait r "sample 1/$N \\+0\\.0s .* PAUSED"; ok $? "opens paused on the first sample"
tui_wait r 'REPLAY of .*demo\.(rec|jsonl)'; ok $? "the status line names the file"
check_sample 1
tui_keys r . . .
check_sample 4
tui_keys r ,
check_sample 3
tui_keys r ]
k=13
[ "$k" -gt "$N" ] && k=$N
check_sample "$k"
tui_keys r '}'
check_sample "$N"
tui_keys r '{'
check_sample 1

# Clocks: the recorded DDR clock in its row
tui_keys r 2
tui_wait r "dmc +ddr +[a-z_]+ +$(ddr_mhz 1) "; ok $? "Clocks: dmc at the recorded rate"
tui_keys r .
tui_wait r "dmc +ddr +[a-z_]+ +$(ddr_mhz 2) "; ok $? "Clocks follows the step"
# Findings: the recorded ones
tui_keys r '!'
tui_wait r "^$(nfind 2) findings?: .* as recorded"; ok $? "Findings: the recorded findings of the sample"
tui_keys r a
tui_wait r 'Refused: REPLAY of .*read-only'; ok $? "a (apply a fix) is refused"
# an action key on Cores
tui_keys r 1 Home g
tui_wait r 'Refused: REPLAY of .*knob actions are refused'; ok $? "g (governor) is refused"
tui_keys r u
tui_wait r 'Refused: REPLAY'; ok $? "u is refused"
# every screen draws
tui_keys r 3
tui_wait r 'RT bandwidth'; ok $? "RT screen"
tui_keys r 4
tui_wait r 'REPLAY: [0-9]+ journal events? recorded up to this sample'; ok $? "Journal screen: recorded events"
tui_keys r 6
tui_wait r '!  +Findings  +L  +Lessons'; ok $? "Help screen"
tui_keys r 7
tui_wait r 'threads are not in a recording'; ok $? "Threads screen says why it is empty"
tui_keys r 8
tui_wait r 'IRQ +CPU0 +CPU1'; ok $? "IRQs screen"
tui_keys r 9
tui_wait r 'Isolated '; ok $? "Isolation screen"
tui_keys r 0 s
tui_wait r 'Refused: REPLAY: the probe measures this machine'; ok $? "Latency: the live probe does not start"
tui_keys r L Enter
tui_wait r 'Refused: lessons measure a live or simulated board'; ok $? "Lessons do not run in a replay"
# play, pause, speed
tui_keys r 1 '{' ' '
tui_wait r 'x1 playing'; ok $? "space plays"
tui_wait r "sample ([3-9]|[1-9][0-9])/$N"; ok $? "the position moves on by itself"
tui_keys r +
tui_wait r 'x2 (playing|PAUSED)'; ok $? "+ doubles the speed"
tui_keys r - - -
tui_wait r 'x0\.25 (playing|PAUSED)'; ok $? "- slows down"
tui_keys r ' '
tui_wait r 'PAUSED'; ok $? "space pauses"
tui_keys r q
tui_wait_exit r; ok $? "quits at once (nothing to restore)"
is "$(tui_status r)" 0 "exit status 0"

# --- a fixture, a change made and undone in the TUI: the journal events
# without its processes (the TUI reads a tree's threads, issue 35, which
# would make these findings thread-based ones)
root=$(copy_fixture rk3588)
rm -rf "$root"/proc/[0-9]*
ref=$(copy_fixture rk3588)
rm -rf "$ref"/proc/[0-9]*
rec=$TMPD/fix.jsonl
tui_start a 120 40 -- --root "$root" --state-dir "$TMPD/st" -d 2 --record "$rec"
wait_samples "$rec" 3; ok $? "fixture: recording"
tui_keys a '!'
tui_wait a 'governor-collapse'
tui_keys a a
wait_file "$root/sys/devices/system/cpu/cpufreq/policy4/scaling_governor" '^performance$'
ok $? "fixture: the governor fix applied"
n=$(nsamples "$rec")
wait_samples "$rec" $((n + 3))
tui_keys a u
wait_file "$root/sys/devices/system/cpu/cpufreq/policy4/scaling_governor" '^interactive$'
ok $? "fixture: undone"
n=$(nsamples "$rec")
wait_samples "$rec" $((n + 3))
tui_keys a q
tui_wait_exit a; ok $? "fixture: quits"
same_tree "$root" "$ref"; ok $? "fixture: every file back"
is "$(grep -c '"kind":"knob","addr":"cpufreq/policy[046]/governor","old":"interactive","new":"performance","state":"active"' "$rec")" 3 \
	"three changes recorded as events"
is "$(grep -c '"kind":"knob".*"state":"undone"' "$rec")" 3 "and their undo"

N=$(grep -c '"type":"sample"' "$rec")
# the first sample taken with policy4 on performance
k=$(grep '"type":"sample"' "$rec" | grep -n '"name":"policy4","cpus":\[4,5\][^}]*"governor":"performance"' | head -1 | cut -d: -f1)
[ -n "$k" ]; ok $? "fixture: a sample with the change in force (sample $k)"
tui_start b 120 40 -- --replay "$rec"
tui_wait b "sample 1/$N"
tui_wait b 'changes 0  2 findings'; ok $? "fixture replay: no change at the start"
i=1
while [ "$i" -lt "${k:-1}" ]; do
	tui_keys b .
	i=$((i + 1))
done
tui_wait b "sample $k/$N"
tui_wait b 'changes 3  1 finding '; ok $? "fixture replay: the change is in force at sample $k"
tui_wait b 'policy4 +2x A76 +gov performance'; ok $? "fixture replay: Cores shows the recorded governor"
tui_keys b 4
tui_wait b 'knob +active +cpufreq/policy4/governor +interactive -> perf'; ok $? "fixture replay: Journal lists the recorded change"
tui_keys b '}'
tui_wait b "sample $N/$N"
tui_wait b 'changes 0  2 findings'; ok $? "fixture replay: undone by the end"
tui_wait b 'knob +undone +cpufreq/policy4/governor'; ok $? "fixture replay: Journal lists the undo"
tui_keys b q
tui_wait_exit b; ok $? "fixture replay: quits"
same_tree "$root" "$ref"; ok $? "a replay writes nothing"

# --- a watch --record file replays too
"$TUNETOP" --root "$root" watch -i 100 -n 3 --record "$TMPD/watch.jsonl" >/dev/null 2>&1
ok $? "watch --record"
tui_start w 100 30 -- --replay "$TMPD/watch.jsonl"
tui_wait w 'sample 1/3 '; ok $? "a watch recording replays (3 samples)"
tui_wait w 'policy4 +2x A76 +gov interactive +408-2256 MHz +cur 408'; ok $? "with its values"
tui_keys w q
tui_wait_exit w

# --- usage
"$TUNETOP" --replay "$TMPD/nonexistent.jsonl" </dev/null >/dev/null 2>"$TMPD/ne.err"
is "$?" 1 "--replay of a missing file: exit 1"
like "$(cat "$TMPD/ne.err")" 'nonexistent\.jsonl' "names the file"
echo 'not a recording' >"$TMPD/bad.jsonl"
"$TUNETOP" --replay "$TMPD/bad.jsonl" </dev/null >/dev/null 2>"$TMPD/bad.err"
is "$?" 1 "--replay of something else: exit 1"
"$TUNETOP" --replay "$rec" --record "$TMPD/x.jsonl" </dev/null >/dev/null 2>&1
is "$?" 2 "--replay with --record: usage error"
"$TUNETOP" --replay "$rec" --demo </dev/null >/dev/null 2>&1
is "$?" 2 "--replay with --demo: usage error"

done_testing
