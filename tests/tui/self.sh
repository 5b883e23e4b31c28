#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI's own placement (issue 20): the header says where tunetop runs;
# the main thread is there (taskset), at the nice asked; a probe started on
# one CPU moves tunetop off it while it measures, and back after.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

ncpu=$(getconf _NPROCESSORS_ONLN)
root=$(copy_fixture rk3588)
tui_start s 160 40 -- --root "$root" --state-dir "$TMPD/st" --self-nice 4
tui_wait s 'policy0'; ok $? "tunetop up"
tui_wait s "self 0-$((ncpu - 1)) n4"; ok $? "the header: self on every housekeeping CPU, nice 4"
pid=$(tui_pid s)
is "$(ps -o ni= -p "$pid" | tr -d ' ')" 4 "the process runs at nice 4"
is "$(taskset -p "$pid" | sed 's/.*: //')" "$(printf '%x' $(((1 << ncpu) - 1)))" \
	"and on every CPU (nothing isolated here)"
# Setup shows what tunetop itself costs; an idle screen wakes it about
# once per refresh (1 s here), not more
tui_keys s 5
tui_wait s "tunetop itself: CPUs 0-$((ncpu - 1)) nice 4 \\(housekeeping: online 0-$((ncpu - 1))\\); wake-ups [0-9.]+/s \\([0-9.]+/s preempted\\), sampler [0-9.]+ ms CPU a refresh, RSS [0-9.]+ MiB"
ok $? "Setup: where tunetop runs, its wake-ups, sampler CPU and RSS"
sleep 3
w=$(tui_screen s | sed -n 's/.*wake-ups \([0-9.]*\)\/s.*/\1/p')
awk -v w="$w" 'BEGIN { exit !(w != "" && w <= 3) }'
ok $? "idle on Setup: $w wake-ups/s, about one per 1 s refresh (the timer wakes it for nothing else)"
if [ "$ncpu" -ge 2 ]; then
	last=$((ncpu - 1))
	tui_keys s 0
	tui_wait s 'Probe stopped'; ok $? "the Latency screen"
	tui_keys s s
	tui_wait s 'CPUs to measure'; ok $? "s asks for the CPUs"
	tui_keys s BSpace BSpace BSpace BSpace BSpace BSpace "$last" Enter
	tui_wait s "Probe running .* on CPUs $last"; ok $? "the probe runs on CPU $last"
	tui_wait s "self 0(-$((last - 1)))? n4"; ok $? "the header: tunetop left CPU $last"
	is "$(taskset -p "$pid" | sed 's/.*: //')" "$(printf '%x' $(((1 << last) - 1)))" \
		"the main thread runs off the probe's CPU"
	tui_keys s s
	tui_wait s 'Probe stopped after'; ok $? "s stops the probe"
	tui_wait s "self 0-$last n4"; ok $? "the header: back on every CPU"
fi
tui_keys s q
tui_wait_exit s; ok $? "quits"
done_testing
