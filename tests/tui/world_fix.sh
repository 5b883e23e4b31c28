#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# issue 35: the TUI on the world rk3588-npu. The header shows the app's
# frame times (SIMULATED, from the world's log); the A55 cluster sits at
# 408 MHz under interactive (governor collapse); the Findings screen's fix
# key on governor-collapse raises the cluster to its top OPP and the app's
# time on screen drops from ~49 toward ~35 ms. Both read from the pane.
# On --root of a world's directory the TUI runs that world.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

export TUNETOP_WORLD_SEED=35
# the world unpacks here (a build without the simulated board cannot)
out=$("$TUNETOP" world rk3588-npu "$TMPD/w" 2>&1) || skip_all "no world rk3588-npu in this build: $out"
APP_RE='SIMULATED app ([0-9.]+) ms  mean ([0-9.]+) sd'
# app_field 1|2: the last frame time (1) or the mean (2) on screen
app_field() { tui_screen w | sed -nE "s/.*$APP_RE.*/\\$1/p" | head -1; }
# wait_app 1|2 AWK_COND: until the field on screen satisfies COND (on x)
wait_app() {
	i=0
	while [ "$i" -lt $((TUI_LIMIT * 10)) ]; do
		v=$(app_field "$1")
		[ -n "$v" ] && awk -v x="$v" "BEGIN { exit !($2) }" && { echo "$v"; return 0; }
		sleep 0.1
		i=$((i + 1))
	done
	echo "${v:-none}"
	return 1
}

tui_start w 160 40 -- --demo=rk3588-npu -d 5
# beside it, the TUI on --root of a world's directory: it runs that world
tui_start r 160 40 -- --root "$TMPD/w" -d 5
tui_wait w "$APP_RE"; ok $? "the header shows the app's frame times, SIMULATED"
tui_wait r "$APP_RE"; ok $? "--root on a world's directory: the header shows its app"
n0=$(wc -l <"$TMPD/w/var/log/infer.log") # after its catch-up on opening
tui_wait w 'policy0 +4x A55 +gov interactive .*cur 408 '; ok $? "the A55 cluster sits at 408 MHz under interactive"
m=$(wait_app 2 'x > 42 && x < 56'); ok $? "the app's mean before the fix: $m ms (the note: ~48.8)"

tui_keys w '!'
tui_wait w 'warn.? +governor-collapse +cpufreq'; ok $? "Findings lists governor-collapse"
i=0
while [ "$i" -lt 8 ] && ! tui_screen w | grep -Eq '^ governor-collapse: cpufreq'; do
	tui_keys w Down
	tui_wait w '^ [a-z-]+: ' 5 >/dev/null
	i=$((i + 1))
done
tui_wait w '^ governor-collapse: cpufreq' 5; ok $? "governor-collapse selected"
tui_wait w 'Fix +cpufreq/policy0/governor=performance' 5; ok $? "its fix: performance on policy0 (the A55s)"
tui_keys w a
tui_wait w 'changes [1-9]' 10; ok $? "the fix key applied it"

tui_keys w 1
tui_wait w 'policy0 +4x A55 +gov performance .*cur 1800 '; ok $? "the A55 cluster now runs at its top OPP, 1800 MHz"
v=$(wait_app 1 'x < 40'); ok $? "the app's last frame on screen is faster: $v ms"
v=$(wait_app 2 'x > 28 && x < 40'); ok $? "its mean over the last frames drops: $v ms (the note: ~34.8 all cores locked)"

# the world on --root ran while the rest went on
wait_more() {
	i=0
	while [ "$i" -lt $((TUI_LIMIT * 10)) ]; do
		[ "$(wc -l <"$TMPD/w/var/log/infer.log")" -gt $((n0 + 20)) ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
wait_more; ok $? "... and the world runs while shown (its app logs on)"
done_testing
