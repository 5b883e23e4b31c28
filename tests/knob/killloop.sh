#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Kill at random (issue 13): on a 64-CPU tree (tests/gen-bigmachine.sh) a
# multi-file `set` (two idle states disabled on every CPU and a governor)
# and a profile `apply` are killed with SIGKILL after a random delay, then
# `restore` runs; the tree must equal the pristine copy (diff -r) every
# time. The delays are spread over the measured duration of an unkilled run
# (no wall-clock threshold). TT_KILLS kills (15 here; tests/bench/killloop.sh
# does 100); TT_KILL_SEED repeats a run's delays.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

KILLS=${TT_KILLS:-15}
SEED=${TT_KILL_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
command -v bash >/dev/null 2>&1 || skip_all "gen-bigmachine.sh needs bash"
big="$TMPD/big64"
bash "$TT_SRCDIR/tests/gen-bigmachine.sh" "$big" 64 >/dev/null 2>&1 || skip_all "gen-bigmachine.sh failed"
# TT_KILL_SPECIAL=1 (tests/bench/killloop.sh): FIFOs, a socket and hard
# links among the tree's files, one linked to a file outside (issue 32)
if [ -n "${TT_KILL_SPECIAL:-}" ]; then
	. "$TT_SRCDIR/tests/bench/special.sh"
	plant_special "$big" "$TMPD/outside"
fi
root="$TMPD/root-big64"
cp -a "$big" "$root" || exit 1
diag "seed $SEED (TT_KILL_SEED=$SEED repeats these delays), $KILLS kills"

now_ns() { date +%s%N; }
# op N: the command line of operation N (0: set, 1: apply), run in the
# foreground by run_op or in the background by start_op
op_args() {
	if [ "$1" -eq 0 ]; then
		echo "set"
	else
		echo "apply"
	fi
}
run_op() {
	if [ "$1" -eq 0 ]; then
		tt set 'cpuidle/*/cpu-sleep/disable=1' 'cpuidle/*/cluster-sleep/disable=1' \
			'cpufreq/*/governor=performance'
	else
		tt apply rt-latency
	fi
}
# start_op N: the operation as a direct child (so that $! is tunetop's pid)
start_op() {
	if [ "$1" -eq 0 ]; then
		"$TUNETOP" --root "$root" --state-dir "$STATE" set 'cpuidle/*/cpu-sleep/disable=1' \
			'cpuidle/*/cluster-sleep/disable=1' 'cpufreq/*/governor=performance' \
			>/dev/null 2>&1 &
	else
		"$TUNETOP" --root "$root" --state-dir "$STATE" apply rt-latency >/dev/null 2>&1 &
	fi
	pid=$!
}
check() { # check DESCRIPTION: is $root the pristine tree again?
	if same_tree "$big" "$root"; then
		ok 0 "$1"
	else
		ok 1 "$1"
		diff -r --no-dereference "$big" "$root" 2>&1 | head -6 | sed 's/^/# /'
		rm -rf "$root" && cp -a "$big" "$root" # go on from a clean copy
	fi
}

# Unkilled runs: they work, and how long they take.
for n in 0 1; do
	t0=$(now_ns)
	run_op "$n" >/dev/null 2>&1
	rc=$?
	t1=$(now_ns)
	is "$rc" 0 "$(op_args "$n") runs to the end"
	same_tree "$big" "$root"
	is "$?" 1 "$(op_args "$n") changed the tree"
	eval "dur$n=$((t1 - t0))"
	tt restore >/dev/null 2>&1
	ok $? "restore after $(op_args "$n") exits 0"
	check "restore after $(op_args "$n"): same tree as the pristine copy"
done
diag "unkilled: set $((dur0 / 1000000)) ms, apply $((dur1 / 1000000)) ms"

# Delays: uniform over [0, duration of the operation] (seconds, 3 decimals).
delays=$(awk -v seed="$SEED" -v n="$KILLS" -v d0="$dur0" -v d1="$dur1" 'BEGIN {
	srand(seed)
	for (i = 0; i < n; i++) printf "%.3f\n", rand() * (i % 2 ? d1 : d0) / 1e9
}')
i=0
mid=0
for delay in $delays; do
	n=$((i % 2))
	start_op "$n"
	sleep "$delay"
	if kill -9 "$pid" 2>/dev/null; then
		mid=$((mid + 1))
		how="killed"
	else
		how="had ended"
	fi
	wait "$pid" 2>/dev/null
	out=$(tt restore 2>&1)
	rc=$?
	[ "$rc" -eq 0 ] || printf '%s\n' "$out" | grep -v ' (restored)$' | head -4 | sed 's/^/# /'
	is "$rc" 0 "kill $i: $(op_args "$n") $how after ${delay}s, restore exits 0"
	check "kill $i: same tree as the pristine copy"
	i=$((i + 1))
done
diag "$mid of $KILLS kills landed while the command ran"
is "$(find "$root" -name '*.tunetop-*' | wc -l | tr -d ' ')" 0 "no temporary file is left"
if [ -n "${TT_KILL_SPECIAL:-}" ]; then
	outside_same "$TMPD/outside"; ok $? "the file outside the tree, hard-linked in, is unchanged"
	[ -p "$root/sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq" ]
	ok $? "the FIFOs are still FIFOs"
fi
done_testing
