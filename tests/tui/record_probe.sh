#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --record keeps the latency probe's windows: one "probe" line per refresh
# while it runs (every probe CPU merged, the samples since the last one) and
# one more when it stops, so that they add up to the samples the screen
# shows at the end; --replay shows them on the Latency screen (all windows
# up to the shown sample, and the last one), and `tunetop report` counts
# them. The probe's misses feed the findings (a non-RT kernel), and the
# recording holds the findings the screen showed.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

root=$(copy_fixture rk3588)
rec=$TMPD/run.jsonl
# a 1 us budget: every wake-up the probe measures is a miss, so the finding
# "deadline misses on a non-RT kernel" (the fixture's kernel is not RT) is
# certain once the probe runs
mkdir -p "$XDG_CONFIG_HOME/tunetop"
printf 'config_version=1\nlatency_budget_us=1\n' >"$XDG_CONFIG_HOME/tunetop/tunetoprc"
tui_start r 120 40 -- --root "$root" --state-dir "$TMPD/st" --record "$rec" -d 5
tui_wait r 'policy0'; ok $? "tunetop up, recording"
tui_keys r 0
tui_wait r 'Probe stopped'; ok $? "Latency screen"
tui_keys r s
tui_wait r 'CPUs to measure'; ok $? "s asks for the CPUs"
tui_keys r Enter
tui_wait r '^all +[1-9][0-9]{3,} '; ok $? "the probe runs (over 1000 samples)"
tui_keys r '!'
tui_wait r '[0-9]+ deadline misses on a [a-zA-Z_ ?-]*kernel'
ok $? "the probe's misses are a finding (Findings screen)"
# Several refreshes with the probe running before it stops (a loaded
# machine may take seconds to get there): wait for two windows on disk,
# stopping writes one more.
i=0
while [ "$(grep -c '"type":"probe"' "$rec" 2>/dev/null)" -lt 2 ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
tui_keys r 0
tui_keys r s
tui_wait r 'Probe stopped after'; ok $? "s stops it"
shown=$(tui_screen r | awk '$1 == "all" { print $2; exit }')
tui_keys r q
tui_wait_exit r 10; ok $? "quit"
is "$(tui_status r)" 0 "exit status 0"

nwin=$(grep -c '"type":"probe"' "$rec")
[ "$nwin" -ge 3 ]
ok $? "several probe windows recorded ($nwin)"
sum=$(grep '"type":"probe"' "$rec" | sed 's/.*"samples":\([0-9]*\).*/\1/' | awk '{ s += $1 } END { print s + 0 }')
is "$sum" "$shown" "the windows add up to the samples shown when the probe stopped"
grep '"type":"probe"' "$rec" | grep -Eq '"cpus":"[0-9]' ; ok $? "each window names its CPUs"
bad=$(grep '"type":"probe"' "$rec" | grep -c '"samples":0,')
is "$bad" 0 "no empty window"
grep '"type":"sample"' "$rec" | grep -q '"id":"non-rt-kernel-misses"'
ok $? "the recording holds the findings as shown (the probe's misses)"
"$TUNETOP" report "$rec" >"$TMPD/report.txt" 2>&1
grep -q "$nwin probe windows" "$TMPD/report.txt"; ok $? "report counts the windows"
grep -q 'wake-up latency per probe window' "$TMPD/report.txt"; ok $? "report: latency over the windows"

tui_start p 120 40 -- --replay "$rec"
tui_wait p 'REPLAY'; ok $? "replay up"
tui_keys p 0
tui_wait p "Recorded probe on CPUs [0-9,-]+, every [0-9]+ us: 0 of $nwin windows"
ok $? "at the first sample no window yet"
tui_keys p '}'
tui_wait p "Recorded probe on CPUs [0-9,-]+, every [0-9]+ us: $nwin of $nwin windows"
ok $? "at the end: every window"
tui_wait p "^all +$sum "; ok $? "all windows: $sum samples"
last=$(grep '"type":"probe"' "$rec" | tail -1 | sed 's/.*"samples":\([0-9]*\).*/\1/')
tui_wait p "^last +$last "; ok $? "the last window: $last samples"
tui_wait p 'all windows to here, p99 [0-9]+ +last window, p99'; ok $? "both histograms"
tui_keys p '{'
tui_wait p ": 0 of $nwin windows"; ok $? "back at the start"
tui_keys p q
tui_wait_exit p 10; ok $? "replay quits"

# a recording without probe windows says so
tui_start n 100 30 -- --root "$root" --state-dir "$TMPD/st" --record "$TMPD/plain.jsonl" -d 3
tui_wait n 'policy0'; ok $? "second recording"
sleep 1
tui_keys n q
tui_wait_exit n 10
tui_start m 100 30 -- --replay "$TMPD/plain.jsonl"
tui_wait m 'REPLAY'
tui_keys m 0
tui_wait m 'This recording has no probe windows'; ok $? "replay without windows says so"
tui_keys m q
tui_wait_exit m 10
done_testing
