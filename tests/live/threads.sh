#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Live thread tests: threads_read on a helper process this test starts
# (tests/live/threads_helper), after changing its threads with taskset, chrt
# and renice; the values must match what those tools print. Also: a thread
# that exits between two samples is dropped without a crash, rates come out
# of two samples, kernel threads are flagged. Only the helper's threads are
# touched.
. "$TT_SRCDIR/tests/lib.sh"

HELPER="$TT_BUILDDIR/tests/live/threads_helper"
DUMP="$TT_BUILDDIR/tests/live/threads_dump"
[ -x "$HELPER" ] && [ -x "$DUMP" ] || skip_all "threads_helper/threads_dump not built (make check builds them)"
for tool in taskset chrt renice ps awk; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "$tool not installed"
done

hpid=
bpid=
trap 'kill $hpid $bpid 2>/dev/null; tap_cleanup' EXIT

# start_helper OUTFILE ARGS... -> sets $started to the helper's pid
start_helper() {
	_out=$1
	shift
	"$HELPER" "$@" >"$_out" 2>"$_out.err" &
	started=$!
	_i=0
	while ! grep -q '^ready' "$_out" 2>/dev/null; do
		_i=$((_i + 1))
		if [ $_i -gt 1000 ]; then
			echo "# helper did not start: $(cat "$_out.err")"
			return 1
		fi
		sleep 0.01
	done
}

tid_of() { awk -v n="$2" '$1 == "tid" && $2 == n { print $3 }' "$1"; }
line_of() { grep "^tid=$2 " "$1"; }
# "0-2,5" -> "0 1 2 5" (taskset prints "0,1" where we print "0-1")
expand_list() {
	printf '%s\n' "$1" | tr ',' '\n' | awk -F- 'NF == 2 { for (i = $1; i <= $2; i++) printf "%d ", i; next } { printf "%d ", $1 }'
}
aff_of() { expand_list "$(line_of "$1" "$2" | sed 's/.* affinity=\([^ ]*\) .*/\1/')"; }

out="$TMPD/helper.out"
start_helper "$out" -n 3 -p ttlive || skip_all "helper did not start"
hpid=$started
t0=$(tid_of "$out" ttlive0)
t1=$(tid_of "$out" ttlive1)
t2=$(tid_of "$out" ttlive2)
is "$(awk '$1 == "pid" { print $2 }' "$out")" "$hpid" "helper prints its pid"
ok $([ -n "$t0" ] && [ -n "$t1" ] && [ -n "$t2" ]; echo $?) "helper prints three tids"

# --- names and tids, through the full-system read ---
"$DUMP" -a "$hpid" >"$TMPD/d1" 2>&1
ok $? "threads_read over all processes"
like "$(line_of "$TMPD/d1" "$t0")" "pid=$hpid comm=ttlive0 " "thread 0 found by tid with its name"
like "$(line_of "$TMPD/d1" "$t2")" "comm=ttlive2 .*kernel=0" "thread 2 found, not a kernel thread"
is "$(grep -c "^tid=" "$TMPD/d1")" 4 "four threads (main + 3)"

# --- affinity: taskset -pc CPU TID ---
cpu=$(($(getconf _NPROCESSORS_ONLN) - 1))
if taskset -pc "$cpu" "$t0" >/dev/null 2>&1; then
	"$DUMP" "$hpid" >"$TMPD/d2"
	want=$(taskset -cp "$t0" | sed 's/.*: *//')
	like "$(line_of "$TMPD/d2" "$t0")" " affinity=$cpu " "affinity of thread 0 is CPU $cpu"
	is "$(aff_of "$TMPD/d2" "$t0")" "$(expand_list "$want")" "affinity equals taskset -cp ($want)"
	all=$(taskset -cp "$t1" | sed 's/.*: *//')
	is "$(aff_of "$TMPD/d2" "$t1")" "$(expand_list "$all")" "other threads keep their mask ($all)"
else
	skip "affinity" "taskset -pc failed (not permitted?)"
	skip "affinity equals taskset" "taskset -pc failed"
	skip "other threads keep their mask" "taskset -pc failed"
fi

# --- policy and priority: chrt -f -p 10 TID ---
if chrt -f -p 10 "$t1" 2>"$TMPD/chrt.err"; then
	"$DUMP" "$hpid" >"$TMPD/d3"
	like "$(line_of "$TMPD/d3" "$t1")" " policy=fifo prio=10 " "thread 1 is FIFO 10"
	pol=$(chrt -p "$t1" | sed -n 's/.*scheduling policy: *//p')
	pri=$(chrt -p "$t1" | sed -n 's/.*scheduling priority: *//p')
	is "$pol/$pri" "SCHED_FIFO/10" "chrt -p agrees"
	like "$(line_of "$TMPD/d3" "$t0")" " policy=other prio=0 " "thread 0 still OTHER"
	"$DUMP" -j "$hpid" >"$TMPD/j3"
	like "$(cat "$TMPD/j3")" "\"tid\":$t1,\"comm\":\"ttlive1\",\"state\":\"[RS]\",\"kernel\":false,\"policy\":\"fifo\",\"rt_prio\":10" \
		"JSON shows fifo / 10"
	like "$(cat "$TMPD/j3")" "\"tid\":$t1,.*\"rt\":true" "JSON marks it RT"
else
	reason=$(head -1 "$TMPD/chrt.err")
	skip "thread 1 is FIFO 10" "chrt refused: $reason (no CAP_SYS_NICE or RT group scheduling)"
	skip "chrt -p agrees" "chrt refused"
	skip "thread 0 still OTHER" "chrt refused"
	skip "JSON shows fifo" "chrt refused"
	skip "JSON marks it RT" "chrt refused"
fi

# --- nice: renice -n 5 -p TID ---
if renice -n 5 -p "$t2" >/dev/null 2>&1; then
	"$DUMP" "$hpid" >"$TMPD/d4"
	like "$(line_of "$TMPD/d4" "$t2")" " nice=5 " "thread 2 has nice 5"
	psni=$(ps -L -o tid=,ni= -p "$hpid" | awk -v t="$t2" '$1 == t { print $2 }')
	is "$psni" 5 "ps -o ni agrees"
	like "$(line_of "$TMPD/d4" "$hpid")" " nice=0 " "main thread keeps nice 0"
else
	skip "thread 2 has nice 5" "renice failed"
	skip "ps -o ni agrees" "renice failed"
	skip "main thread keeps nice 0" "renice failed"
fi

# --- uclamp is n/a or a range, never a guess ---
like "$(line_of "$TMPD/d1" "$t0")" " uclamp=(n/a|[0-9]+-[0-9]+) " "uclamp shown as n/a or min-max"

# --- a thread exits between two samples ---
"$DUMP" -2 -u -i 300 "$hpid" >"$TMPD/d5" 2>&1
ok $? "two samples across a thread exit: no crash"
like "$(cat "$TMPD/d5")" "dropped $t0" "the exited thread is reported as dropped"
is "$(line_of "$TMPD/d5" "$t0")" "" "and is not in the second table"
like "$(cat "$out")" "exited $t0" "helper confirms thread 0 exited"
like "$(line_of "$TMPD/d5" "$t2")" " cpu_pct=[0-9.]+ vol_per_s=[0-9.]+ " "surviving thread has rates"
v=$(line_of "$TMPD/d5" "$t2" | sed 's/.* vol_per_s=\([0-9]*\).*/\1/')
ok $([ "${v:-0}" -ge 10 ]; echo $?) "sleeping thread (10 ms loop) has voluntary switches/s ($v)"
like "$(line_of "$TMPD/d5" "$t2")" " migrations_per_s=[0-9.]+" "migrations/s from the sched file"

# --- a busy thread shows CPU% ---
bout="$TMPD/busy.out"
if start_helper "$bout" -n 1 -p ttbusy --busy; then
	bpid=$started
	bt=$(tid_of "$bout" ttbusy0)
	"$DUMP" -2 -i 500 "$bpid" >"$TMPD/d6"
	p=$(line_of "$TMPD/d6" "$bt" | sed 's/.* cpu_pct=\([0-9]*\).*/\1/')
	ok $([ "${p:-0}" -ge 5 ] && [ "${p:-0}" -le 105 ]; echo $?) "busy thread CPU% ($p) in range"
	like "$(line_of "$TMPD/d6" "$bt")" " state=R " "busy thread is running"
	kill "$bpid" 2>/dev/null
	wait "$bpid" 2>/dev/null
	bpid=
else
	skip "busy thread CPU%" "busy helper did not start"
	skip "busy thread is running" "busy helper did not start"
fi

# --- kernel threads ---
if [ "$(cat /proc/2/comm 2>/dev/null)" = kthreadd ]; then
	"$DUMP" -a -k 2 >"$TMPD/d7"
	like "$(line_of "$TMPD/d7" 2)" "comm=kthreadd .*kernel=1" "kthreadd flagged as kernel thread"
	"$DUMP" -a 2 >"$TMPD/d8"
	is "$(line_of "$TMPD/d8" 2)" "" "kernel threads hidden without THREADS_KERNEL"
else
	skip "kthreadd flagged" "no kthreadd at pid 2 (pid namespace)"
	skip "kernel threads hidden" "no kthreadd at pid 2"
fi

kill "$hpid" 2>/dev/null
wait "$hpid" 2>/dev/null
hpid=

done_testing
