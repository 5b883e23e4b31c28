#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop ab with the live probe (on CPU 0) while the knob is a copied
# fixture's file, and a cause this test creates: the probe thread of the
# tunetop it started is moved into a cgroup v1 freezer cgroup of its own
# (tunetop-test-PID, removed at the end) and frozen.
#  1. Missed deadlines: while the file holds B's value, the probe thread is
#     frozen for 10 ms every 40 ms, so the B arm misses deadlines and A
#     hardly does (4 rounds: on a loaded machine a 10 ms freeze can last
#     long enough to lose a window, and 3 complete rounds must remain): the per-window and per-arm counts (JSON and text), the
#     comparison on the per-window counts, and the verdict say that B
#     misses more.
#  2. Collected data is never lost: the probe frozen for 500 ms in the
#     middle of a window; the run finishes (exit 0) and the report names the
#     lost window (text, JSON).
. "$TT_SRCDIR/tests/lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
FRZ=/sys/fs/cgroup/freezer
[ -w "$FRZ/tasks" ] || skip_all "no writable cgroup v1 freezer at $FRZ"
CG="$FRZ/tunetop-test-$$"
mkdir "$CG" 2>/dev/null || skip_all "cannot create a freezer cgroup"
frz_cleanup() {
	echo THAWED >"$CG/freezer.state" 2>/dev/null
	for t in $(cat "$CG/tasks" 2>/dev/null); do echo "$t" >"$FRZ/tasks" 2>/dev/null; done
	rmdir "$CG" 2>/dev/null
}
trap 'frz_cleanup; tap_cleanup' EXIT

STATE="$TMPD/state"
KNOB=cpuidle/cpu0/state1/disable
REL=sys/devices/system/cpu/cpu0/cpuidle/state1/disable

# probe_tid PID: the tid of PID's probe thread on CPU 0 (polls up to 30 s)
probe_tid() {
	local i=0 t
	while [ $i -lt 300 ]; do
		for t in /proc/"$1"/task/*; do
			[ "$(cat "$t/comm" 2>/dev/null)" = "tt-probe/0" ] && { echo "${t##*/}"; return 0; }
		done
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# ---- 1. B misses more deadlines -----------------------------------------------------------
# The freezer loop runs as SCHED_FIFO 50 (chrt; we are root): under a load
# of 10 on 2 CPUs a SCHED_OTHER loop's 10 ms freeze lasted 200+ ms and lost
# the window instead of making it miss deadlines.
cat >"$TMPD/watch.sh" <<'EOF'
#!/bin/sh
# watch.sh PID FILE CG: while PID runs, freeze CG 10 ms every 40 ms while FILE holds 1
while kill -0 "$1" 2>/dev/null; do
	read -r v <"$2" 2>/dev/null
	if [ "$v" = 1 ]; then
		echo FROZEN >"$3/freezer.state"
		sleep 0.01
		echo THAWED >"$3/freezer.state"
	fi
	sleep 0.03
done
echo THAWED >"$3/freezer.state"
EOF
deadline_run() { # deadline_run OUT [ab options]: B windows get the probe frozen briefly
	local out="$1" pid tid
	shift
	ROOT=$(copy_fixture rk3588)
	"$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab "$KNOB=0,1" --cpus 0 --window 0.3 \
		--settle 50 --rounds 4 "$@" >"$out" 2>"$TMPD/err" &
	pid=$!
	tid=$(probe_tid $pid) || { wait $pid; return 1; }
	echo "$tid" >"$CG/tasks" || { wait $pid; return 1; }
	if command -v chrt >/dev/null 2>&1; then
		chrt -f 50 sh "$TMPD/watch.sh" $pid "$ROOT/$REL" "$CG" &
	else
		sh "$TMPD/watch.sh" $pid "$ROOT/$REL" "$CG" &
	fi
	wait $pid
	local rc=$?
	wait
	return $rc
}

deadline_run "$TMPD/d.json" --json
is "$?" 0 "deadlines: exit 0"
j() { jq -c "$1" "$TMPD/d.json"; }
# a window lost to a long freeze (windows[].lost, counted by the verdict) has
# no count; at least 3 of B's must be measured
ok "$(j '[.windows[] | select(.arm == "B" and (.lost | not)) | .missed_deadlines] | length >= 3 and min > 0' | grep -qx true; echo $?)" \
	"JSON: every measured B window counts its missed deadlines ($(j '[.windows[] | .missed_deadlines]'), lost: $(j '[.windows[] | .lost]'))"
ok "$(j '([.arms[] | select(.arm == "B") | .missed_deadlines][0]) > 3 * ([.arms[] | select(.arm == "A") | .missed_deadlines][0]) + 10' | grep -qx true; echo $?)" \
	"JSON: per arm, B misses far more ($(j '[.arms[] | .missed_deadlines]'))"
is "$(j '.comparison.missed_deadlines | [.more, (.diff_per_window > 0), (.p < 0.05)]')" '["B",true,true]' \
	"JSON: the comparison of the per-window counts: B misses more, p < 0.05"
like "$(jq -r .comparison.verdict "$TMPD/d.json")" \
	"deadlines missed: A [0-9]+, B [0-9]+ \\(B − A \\+[0-9.]+ per window \\[.*\\], p [0-9.<]+\\); B misses more deadlines" \
	"verdict: both counts, and that B misses more"
same_tree "$FIXTURES/rk3588" "$ROOT"
ok $? "deadlines: the fixture restored"

deadline_run "$TMPD/d.txt"
is "$?" 0 "deadlines, text: exit 0"
txt=$(cat "$TMPD/d.txt")
like "$txt" "max +missed" "text: the arm table has a missed column"
like "$txt" "
  +window +round +arm +value +samples +mean +p50 +p99 +max +missed" "text: the per-window table too"
a=$(printf '%s\n' "$txt" | awk '$1 == "A" && $2 == "0" { print $10 }')
b=$(printf '%s\n' "$txt" | awk '$1 == "B" && $2 == "1" { print $10 }')
ok "$([ "${b:-0}" -gt $((3 * ${a:-0} + 10)) ]; echo $?)" "text: B's missed deadlines ($b) far above A's ($a)"
like "$txt" "
  missed .*B misses more" "text: the comparison row"
like "$txt" "verdict: .*B misses more deadlines" "text verdict: B misses more"

# ---- 2. a 500 ms freeze mid-window: a lost window, the run goes on ---------------------------
ROOT=$(copy_fixture rk3588)
"$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab "$KNOB=0,1" --cpus 0 --window 1.2 --settle 100 \
	--rounds 1 >"$TMPD/s.txt" 2>"$TMPD/s.err" &
pid=$!
tid=$(probe_tid $pid)
ok $? "the probe thread found ($tid)"
echo "$tid" >"$CG/tasks"
# window 2 is the first B window: the file turns 1 at its switch; 100 ms
# settle + 350 ms into its 1.2 s, freeze for 500 ms (as SCHED_FIFO 50, so a
# loaded machine does not stretch the timing)
cat >"$TMPD/freeze.sh" <<'EOF'
#!/bin/sh
# freeze.sh FILE CG: when FILE turns 1, wait 450 ms, freeze CG for 500 ms
i=0
v=0
while [ "$v" != 1 ] && [ $i -lt 3000 ]; do read -r v <"$1"; sleep 0.01; i=$((i + 1)); done
sleep 0.45
echo FROZEN >"$2/freezer.state"
sleep 0.5
echo THAWED >"$2/freezer.state"
EOF
if command -v chrt >/dev/null 2>&1; then
	chrt -f 50 sh "$TMPD/freeze.sh" "$ROOT/$REL" "$CG"
else
	sh "$TMPD/freeze.sh" "$ROOT/$REL" "$CG"
fi
wait $pid
is "$?" 0 "500 ms freeze: the run finishes, exit 0"
out=$(cat "$TMPD/s.txt")
like "$out" "
 +2 +1 B +1 +lost: the probe did not wake for [0-9]+ ms in the window" "the report names the lost window (2, B)"
like "$(cat "$TMPD/s.err")" "window 2/4 \\(B=1\\) lost: " "a note on stderr as it happens"
like "$out" "verdict: .*1 window lost" "the verdict counts it"
like "$out" "stalls: a window is lost when the probe does not wake or answer its reset within [0-9]+ ms" \
	"the report says the stall timeout"
is "$(printf '%s\n' "$out" | awk '$1 ~ /^[0-9]+$/ && $3 ~ /^[AB]$/ && $5 ~ /^[0-9]+$/ { n++ } END { print n + 0 }')" 3 \
	"the other 3 windows measured"
same_tree "$FIXTURES/rk3588" "$ROOT"
ok $? "500 ms freeze: the fixture restored"
done_testing
