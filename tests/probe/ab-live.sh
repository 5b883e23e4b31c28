#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop ab with the latency probe on the live build machine while the knob
# is a copied fixture's (the probe always measures the live machine): both
# arms get samples, exit 0, the fixture is restored. --load cpu:1@1 really
# runs a pinned busy SCHED_OTHER thread during the run and is gone after;
# mem:1 streams over a buffer. Only processes started here are inspected.
. "$TT_SRCDIR/tests/lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

STATE="$TMPD/state"
KNOB='cpuidle/*/cpu-sleep/disable'
ROOT=$(copy_fixture rk3588)
tt() { "$TUNETOP" --root "$ROOT" --state-dir "$STATE" "$@"; } # foreground only

# ---- probe-based A/B, text -----------------------------------------------------------
out=$(tt ab "$KNOB=0,1" --window 0.5 --settle 100 --rounds 1 2>"$TMPD/err")
is "$?" 0 "probe A/B: exit 0"
like "$(cat "$TMPD/err")" "the probe measures the live machine" "notice: --root only applies to the knob"
like "$out" "probe: CPUs [0-9]" "header: the probe's CPUs"
a=$(printf '%s\n' "$out" | awk '$1 == "A" && $2 == "0" { print $4 }')
b=$(printf '%s\n' "$out" | awk '$1 == "B" && $2 == "1" { print $4 }')
ok "$([ "${a:-0}" -gt 0 ] && echo 0 || echo 1)" "arm A has samples ($a)"
ok "$([ "${b:-0}" -gt 0 ] && echo 0 || echo 1)" "arm B has samples ($b)"
like "$out" "verdict: cpuidle/\\*/cpu-sleep/disable=1: " "a verdict"
same_tree "$FIXTURES/rk3588" "$ROOT"
ok $? "probe A/B: fixture restored"

# ---- probe-based A/B, JSON --------------------------------------------------------------
tt ab "$KNOB=0,1" --window 0.3 --settle 50 --rounds 1 --cpus 0 -i 500 --json >"$TMPD/p.json" 2>/dev/null
is "$?" 0 "probe A/B --json: exit 0"
is "$(jq -r '.ab.source + " " + .ab.unit + " " + .ab.probe.cpus' "$TMPD/p.json")" "probe us 0" "source probe, unit us, CPUs 0"
is "$(jq '.ab.probe.interval_us' "$TMPD/p.json")" 500 "-i 500 used"
for k in 0 1; do
	ok "$(jq "if .arms[$k].samples > 100 then 0 else 1 end" "$TMPD/p.json")" "arm $k: samples > 100"
	is "$(jq "[.arms[$k].histogram[].count] | add" "$TMPD/p.json")" "$(jq ".arms[$k].samples" "$TMPD/p.json")" \
		"arm $k: histogram sums to the samples"
	is "$(jq ".arms[$k].samples" "$TMPD/p.json")" \
		"$(jq "[.windows[] | select(.arm == \"$(echo AB | cut -c$((k + 1)))\") | .samples] | add" "$TMPD/p.json")" \
		"arm $k: samples = sum of its windows"
	ok "$(jq ".arms[$k] | if .min_us <= .p50_us and .p50_us <= .p99_us and .p99_us <= .max_us then 0 else 1 end" "$TMPD/p.json")" \
		"arm $k: percentiles monotone"
done
ok "$(jq 'if [.windows[].samples] | all(. > 0 and . <= 900) then 0 else 1 end' "$TMPD/p.json")" \
	"each 0.3 s window at 500 us: at most 900 samples (settle discarded), some"
same_tree "$FIXTURES/rk3588" "$ROOT"
ok $? "probe A/B --json: fixture restored"

# ---- --load cpu:1@1 -----------------------------------------------------------------------
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [ "$ncpu" -lt 2 ]; then
	skip "--load cpu:1@1" "needs 2 CPUs"
else
	"$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab "$KNOB=0,1" --window 1 --settle 0 --rounds 1 \
		--cmd 'sleep 0.05' --load cpu:1@1 \
		--json >"$TMPD/l.json" 2>"$TMPD/l.err" &
	pid=$!
	tid=
	for _ in $(seq 1 100); do
		tid=$(grep -l '^tt-burn/1$' /proc/"$pid"/task/*/comm 2>/dev/null | head -n1 | cut -d/ -f5)
		[ -n "$tid" ] && break
		sleep 0.05
	done
	ok "$([ -n "$tid" ] && echo 0 || echo 1)" "--load cpu:1@1: a tt-burn/1 thread runs ($tid)"
	if [ -n "$tid" ]; then
		if command -v taskset >/dev/null 2>&1; then
			like "$(taskset -p "$tid" 2>&1)" "affinity mask: 2\$" "taskset -p: pinned to CPU 1"
		else
			skip "taskset -p: pinned to CPU 1" "no taskset"
		fi
		st=/proc/"$pid"/task/"$tid"/stat
		t1=$(sed 's/.*) //' "$st" | awk '{ print $12 + $13 }')
		sleep 0.5
		f=$(sed 's/.*) //' "$st")
		t2=$(echo "$f" | awk '{ print $12 + $13 }')
		is "$(echo "$f" | awk '{ print $37 }')" 1 "stat: last ran on CPU 1"
		is "$(echo "$f" | awk '{ print $39 }')" 0 "stat: SCHED_OTHER"
		ok "$([ $((t2 - t1)) -ge 1 ] && echo 0 || echo 1)" "it is busy ($((t2 - t1)) ticks of CPU time in 0.5 s)"
	fi
	wait "$pid"
	is "$?" 0 "--load run: exit 0"
	is "$(jq -r '.ab.load' "$TMPD/l.json")" "cpu:1@1" "JSON records the load"
	ok "$([ -d /proc/"$pid" ] && echo 1 || echo 0)" "the process and its load thread are gone after"
	same_tree "$FIXTURES/rk3588" "$ROOT"
	ok $? "--load run: fixture restored"
fi

# ---- --load mem:1 with the probe ----------------------------------------------------------
"$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab "$KNOB=0,1" --window 0.3 --settle 0 --rounds 1 \
	--cpus 0 --load mem:1@0,cpu:1 >"$TMPD/mem.out" 2>"$TMPD/mem.err" &
pid=$!
n=0
for _ in $(seq 1 100); do
	n=$(grep -l -e '^tt-stream/0$' -e '^tt-burn/' /proc/"$pid"/task/*/comm 2>/dev/null | wc -l)
	[ "$n" -ge 2 ] && break
	sleep 0.05
done
is "$n" 2 "--load mem:1@0,cpu:1: a stream and a burn thread"
wait "$pid"
is "$?" 0 "--load mem:1@0,cpu:1: exit 0"
like "$(cat "$TMPD/mem.out")" "load: mem:1@0,cpu:1" "report shows the load"

done_testing
