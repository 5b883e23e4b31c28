#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop ab killed with SIGKILL mid-run (a changed value in place): the
# journal shows the orphaned entries and `tunetop restore` brings the copied
# fixture back byte for byte. Once with --cmd, once with the probe.
. "$TT_SRCDIR/tests/lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

STATE="$TMPD/state"
REL=sys/devices/system/cpu/cpu4/cpuidle/state1/disable

# kill_run NAME ARGS...: start `ab ARGS` on a fresh copy, SIGKILL it once the
# first value (A=1) is in the file, restore, compare
kill_run() {
	name=$1
	shift
	ROOT=$(copy_fixture rk3588)
	is "$(cat "$ROOT/$REL")" 0 "$name: fixture starts with cpu-sleep enabled"
	"$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab 'cpuidle/4-7/cpu-sleep/disable=1,0' \
		--window 60 --settle 0 --rounds 1 "$@" >"$TMPD/out" 2>"$TMPD/err" &
	pid=$!
	for _ in $(seq 1 200); do
		[ "$(cat "$ROOT/$REL")" = 1 ] && break
		sleep 0.05
	done
	is "$(cat "$ROOT/$REL")" 1 "$name: A=1 written while running"
	# until the last of the four (cpu7) is written too: each write is
	# journaled first, which a loaded machine may make slow
	for _ in $(seq 1 200); do
		[ "$(cat "$ROOT/${REL%%cpu4/*}cpu7/${REL#*cpu4/}")" = 1 ] && break
		sleep 0.05
	done
	sleep 0.2
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	is "$(cat "$ROOT/$REL")" 1 "$name: after SIGKILL the value is still 1"
	same_tree "$FIXTURES/rk3588" "$ROOT"
	ok $((!$?)) "$name: the fixture differs before restore"
	j=$("$TUNETOP" --root "$ROOT" --state-dir "$STATE" journal --json)
	is "$(printf '%s' "$j" | jq '[.entries[] | select(.this_root and .orphaned)] | length')" 4 \
		"$name: journal: 4 orphaned entries (cpu4-7)"
	is "$(printf '%s' "$j" | jq -r '[.entries[] | select(.this_root) | .scoped] | unique | map(tostring) | join(",")')" true \
		"$name: journal: the entries are scoped (made by a run that restores them)"
	"$TUNETOP" --root "$ROOT" --state-dir "$STATE" restore >"$TMPD/restore.out" 2>&1
	is "$?" 0 "$name: tunetop restore exits 0"
	if same_tree "$FIXTURES/rk3588" "$ROOT"; then ok 0 "$name: restore brings the fixture back byte for byte"; else
		ok 1 "$name: restore brings the fixture back byte for byte"
		diff -r "$FIXTURES/rk3588" "$ROOT" | head -5 | sed 's/^/# /'
	fi
	is "$("$TUNETOP" --root "$ROOT" --state-dir "$STATE" journal --json |
		jq '[.entries[] | select(.this_root and (.state == "open" or .state == "active"))] | length')" 0 \
		"$name: nothing left open after restore"
}

kill_run "--cmd" --cmd 'sleep 0.05'
kill_run "probe" --cpus 0 --policy other

done_testing
