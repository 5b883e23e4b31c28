#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A sweep from the Latency screen (issue 17): A, then
# ADDRESS=V1,V2,V3 runs the three values interleaved (1 round of 6 windows
# from tunetoprc), the screen shows the sweep's arms with their watts (an
# ina226-style power sensor added to the copied fixture), and at the end the
# sweep's table (one row per value against A, Holm-Bonferroni) and its text
# plot; the fixture is put back byte for byte. An A/B of two values shows
# the per-arm watts too.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

mkdir -p "$XDG_CONFIG_HOME/tunetop"
printf 'config_version=1\nab_window_s=1\nab_settle_ms=100\nab_rounds=1\n' \
	>"$XDG_CONFIG_HOME/tunetop/tunetoprc"

root=$(copy_fixture rk3588)
hw="$root/sys/class/hwmon/hwmon9"
mkdir -p "$hw"
echo ina226 >"$hw/name"
echo vdd_soc >"$hw/power1_label"
echo 3250000 >"$hw/power1_input"
pristine="$TMPD/pristine"
cp -a "$root" "$pristine"
st=$TMPD/st
KNOB=cpufreq/policy0/interactive/timer_rate

tui_start s 120 48 -- --root "$root" --state-dir "$st"
tui_wait s 'policy0'; ok $? "tunetop up"
tui_keys s 0 A
tui_wait s 'ADDRESS=A,B or A,B,C'; ok $? "A on the Latency screen offers a sweep"
tui_keys s "$KNOB=20000,10000,40000" Enter
tui_wait s "Sweep $KNOB +A=20000 +B=10000 +C=40000"; ok $? "the Latency screen shows the sweep"
tui_wait s 'round 1/1 +window [1-6]/6'; ok $? "progress: 1 round of 6 windows"
tui_wait s 'Arm +Value +Windows .* Max +Watts'; ok $? "a Watts column (a power sensor exists)"
tui_wait s 'Verdict: .*sweep of 3 values' 30; ok $? "a verdict at the end"
tui_wait s 'Done: 6 windows'; ok $? "all six windows measured"
tui_wait s '^C +40000 +2/2 +[1-9].* 3\.250$'; ok $? "arm C: 2 windows, its watts"
tui_wait s '^Arm +Value +p99 +vs A +95% interval +p adj'; ok $? "the sweep's table"
tui_wait s '^A +20000 .*\(reference\)'; ok $? "table: A is the reference"
tui_wait s '^B +10000 .*inconclusive'; ok $? "table: 1 round is inconclusive"
tui_wait s '^20000 +\|.*o.*\|'; ok $? "the text plot: a line per value"
tui_wait s '^40000 +\|.*o.*\|'; ok $? "... C too"
tui_screen s | sed "s/^/#   /" # the sweep as shown, in the log
tui_keys s x
tui_wait s 'Probe stopped'; ok $? "x closes the result"
ok "$(same_tree "$pristine" "$root"; echo $?)" "the fixture is back byte for byte"

# two values: the A/B shows the watts per arm as well
tui_keys s A
tui_wait s "│ $KNOB=20000,10000,40000_"; ok $? "pre-filled with the last sweep"
tui_keys s BSpace BSpace BSpace BSpace BSpace BSpace Enter
tui_wait s "A/B $KNOB +A=20000 +B=10000"; ok $? "two values: an A/B"
tui_wait s 'Done: 4 windows' 30; ok $? "the A/B ends"
tui_wait s '^B +10000 +2/2 +[1-9].* 3\.250$'; ok $? "A/B: arm B's watts"
tui_wait s 'B=10000, p99 [0-9]+'; ok $? "A/B: both histograms, as before"
tui_keys s q
tui_wait_exit s
ok "$(same_tree "$pristine" "$root"; echo $?)" "the fixture is back byte for byte after the A/B"
done_testing
