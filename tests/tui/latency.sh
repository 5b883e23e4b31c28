#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Latency screen (key 0) and A/B from a knob row, on a copied RK3588
# fixture (the knob is the fixture's file; the probe measures this machine's
# timer latency): s starts the probe on the CPUs typed in (default all),
# histogram rows and percentiles appear, r clears, s stops (threads gone);
# A on the CPU 0 row of Cores A/Bs cpuidle/cpu0/state1/disable between 0
# and 1 (short windows from tunetoprc) to a verdict, switching the file, and
# afterwards the fixture is byte-identical and the journal holds nothing
# open or active; x mid-run, q mid-run and SIGTERM mid-run put it back too.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

# short A/B windows: 1 round ABBA of 1 s windows, 100 ms settle
mkdir -p "$XDG_CONFIG_HOME/tunetop"
printf 'config_version=1\nab_window_s=1\nab_settle_ms=100\nab_rounds=1\n' \
	>"$XDG_CONFIG_HOME/tunetop/tunetoprc"
# long windows, for the runs that are interrupted
mkdir -p "$TMPD/slow/tunetop"
printf 'config_version=1\nab_window_s=8\nab_settle_ms=100\nab_rounds=1\n' \
	>"$TMPD/slow/tunetop/tunetoprc"

root=$(copy_fixture rk3588)
dis=$root/sys/devices/system/cpu/cpu0/cpuidle/state1/disable
st=$TMPD/st

threads() { # NAME: comm of tunetop's threads, one per line
	for f in /proc/"$(tui_pid "$1")"/task/*/comm; do cat "$f"; done 2>/dev/null
}
ab_cpu0() { # NAME: A on the CPU 0 row of Cores, its idle state, B as offered
	tui_keys "$1" 1 Home Down A
	tui_wait "$1" 'A/B of which knob' || return 1
	tui_keys "$1" Enter
	tui_wait "$1" 'A = 0 \(now\)' || return 1
	tui_keys "$1" Enter
}
no_open() { # the journal of this root has no open or active entry
	"$TUNETOP" --root "$root" --state-dir "$st" journal >"$TMPD/journal.out" 2>&1
	! grep -Eq ' (open|active) ' "$TMPD/journal.out"
}

tui_start l 120 40 -- --root "$root" --state-dir "$st"
tui_wait l 'policy0'; ok $? "tunetop up"
tui_wait l ' 0 Latency( |$)'; ok $? "tab 0 is Latency"
tui_keys l 0
tui_wait l 'Probe stopped'; ok $? "0 selects the Latency screen"

# the probe
tui_keys l s
tui_wait l 'CPUs to measure \(online [0-9]'; ok $? "s asks for the CPUs (default: online)"
tui_keys l Enter
tui_wait l 'Probe running .* on CPUs'; ok $? "the probe runs"
if [ "$(id -u)" -eq 0 ]; then
	tui_wait l 'on CPUs [0-9,-]+, SCHED_FIFO 95'; ok $? "as root: SCHED_FIFO 95"
else
	tui_wait l 'SCHED_OTHER \(real-time refused'; ok $? "unprivileged: SCHED_OTHER, said so"
fi
tui_wait l 'CPU +Samples +Mean +p50 +p90 +p99 +p99\.9 +Max +Ovf +Min +Max at'
ok $? "percentile columns"
tui_wait l '^all +[1-9][0-9]* +[0-9.]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]{2}:[0-9]{2}:[0-9]{2}'
ok $? "all CPUs: samples, percentiles, max and when"
tui_wait l '^0 +[1-9][0-9]* '; ok $? "a row per CPU"
tui_wait l '^ +[0-9]+(-[0-9]+)? +#+ +[1-9][0-9]*'; ok $? "histogram rows with bars and counts"
tui_wait l 'all CPUs, p99 [0-9]+ +CPU 0, p99'; ok $? "histograms side by side"
threads l | grep -q '^tt-probe/0$'; ok $? "a probe thread pinned per CPU (tt-probe/0)"
tui_keys l r
tui_wait l 'Histograms cleared'; ok $? "r clears"
tui_keys l s
tui_wait l 'Probe stopped after'; ok $? "s stops the probe"
tui_wait l 'Probe stopped after [0-9:]+ on CPUs'; ok $? "the last numbers stay"
n=0
while threads l | grep -q '^tt-probe' && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
threads l | grep -q '^tt-probe'; is $? 1 "no probe thread left"

# A on the CPU 0 row: cpuidle/cpu0/state1/disable 0 vs 1
tui_keys l 1 Home Down A
tui_wait l 'A/B of which knob'; ok $? "A offers the row's knobs"
tui_wait l 'cpuidle/cpu0/state1/disable = 0'; ok $? "the idle state of CPU 0 with its value"
tui_wait l 'cpuidle/\*/state1/disable +\(all CPUs\)'; ok $? "and on all CPUs"
tui_keys l Enter
tui_wait l 'A = 0 \(now\)\. B = \?'; ok $? "asks for B"
tui_wait l '│ 1_'; ok $? "B pre-filled with the other value"
tui_keys l Enter
tui_wait l 'A/B cpuidle/cpu0/state1/disable +A=0 +B=1'; ok $? "the Latency screen shows the A/B"
tui_wait l 'round 1/1 +window [1-4]/4'; ok $? "progress: round and window"
tui_wait l '^A +0 +[0-2]/2 '; ok $? "arm A row"
wait_file "$dis" '^1$' 10; ok $? "B written to the fixture"
tui_wait l 'Verdict: cpuidle/cpu0/state1/disable=1: ' 20; ok $? "a verdict at the end"
tui_wait l 'Done: 4 windows'; ok $? "all four windows measured"
tui_wait l '^B +1 +2/2 +[1-9]'; ok $? "arm B measured twice"
tui_wait l 'B=1, p99 [0-9]+'; ok $? "both arms' histograms"
is "$(cat "$dis")" 0 "the knob is back to 0"
same_tree "$root" "$FIXTURES/rk3588"; ok $? "the fixture is byte-identical"
no_open; ok $? "the journal holds nothing open or active"
grep -q 'cpuidle/cpu0/state1/disable: 0 -> 1' "$TMPD/journal.out"; ok $? "the switches are journaled"
tui_keys l 4
tui_wait l 'cpuidle/cpu0/state1/disable +0 -> 1'; ok $? "the Journal screen lists them"
tui_keys l 0 x
tui_wait l 'Probe stopped'; ok $? "x closes the result"
# A on the Latency screen takes any ADDRESS=A,B; a bad one is refused
tui_keys l A
tui_wait l 'ADDRESS=A,B'; ok $? "A on the Latency screen asks for ADDRESS=A,B"
tui_wait l '│ cpuidle/cpu0/state1/disable=0,1_'; ok $? "pre-filled with the last one"
tui_keys l BSpace 0 Enter
tui_wait l 'A/B refused: .*same value'; ok $? "A = B is refused"
tui_keys l q
tui_wait_exit l; ok $? "q quits"
is "$(tui_status l)" 0 "exit status 0"

# cancel mid-run with x: the knob goes back at once
tui_start c 120 40 "XDG_CONFIG_HOME=$TMPD/slow" -- --root "$root" --state-dir "$st"
tui_wait c 'policy0'
ab_cpu0 c
tui_wait c 'round 1/1 +window 1/4'; ok $? "x: A/B running"
wait_file "$dis" '^1$' 20; ok $? "x: B in place"
tui_keys c 1 u
tui_wait c 'Refused: an A/B of cpuidle/cpu0/state1/disable is running'
ok $? "other changes are refused while the A/B runs"
tui_keys c 0 x
tui_wait c 'Cancelled after [12] of 4 windows'; ok $? "x cancels"
tui_wait c 'is back to 0'; ok $? "and says the knob is back"
is "$(cat "$dis")" 0 "x: knob restored"
same_tree "$root" "$FIXTURES/rk3588"; ok $? "x: fixture byte-identical"
no_open; ok $? "x: nothing open in the journal"

# q mid-run: asks, cancels, quits
tui_keys c Home Down A
tui_wait c 'ADDRESS=A,B'
tui_keys c Enter
tui_wait c 'window 1/4'
wait_file "$dis" '^1$' 20; ok $? "q: B in place"
tui_keys c q
tui_wait c 'Quitting cancels it and puts the knob back'; ok $? "q asks"
tui_keys c Enter
tui_wait_exit c; ok $? "q: exited"
like "$(cat "$TMPD/c.err")" 'A/B: Cancelled .*cpuidle/cpu0/state1/disable is back to 0' "q: says the knob is back"
same_tree "$root" "$FIXTURES/rk3588"; ok $? "q: fixture byte-identical"
no_open; ok $? "q: nothing open in the journal"

# SIGTERM mid-run (probe running too)
tui_start t 120 40 "XDG_CONFIG_HOME=$TMPD/slow" -- --root "$root" --state-dir "$st"
tui_wait t 'policy0'
tui_keys t 0 s
tui_wait t 'CPUs to measure'
tui_keys t Enter
tui_wait t 'Probe running'
ab_cpu0 t
tui_wait t 'probe \(running\) on CPUs'; ok $? "the A/B uses the running probe"
wait_file "$dis" '^1$' 20; ok $? "SIGTERM: B in place"
kill -TERM "$(tui_pid t)"
tui_wait_exit t; ok $? "SIGTERM: exited"
like "$(cat "$TMPD/t.err")" 'A/B: Cancelled .*cpuidle/cpu0/state1/disable is back to 0' "SIGTERM: says the knob is back"
same_tree "$root" "$FIXTURES/rk3588"; ok $? "SIGTERM: fixture byte-identical"
no_open; ok $? "SIGTERM: nothing open in the journal"

done_testing
