#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Live CLI tests of thread/<tid>/... and process/<pid>/... on a helper this
# test starts (tests/live/threads_helper): set affinity, policy, nice and
# uclamp, checked with taskset -p, chrt -p and ps -L -o tid,ni; restore puts
# every value back; bad values exit 2 and touch nothing; a journal entry whose
# start time no longer matches is refused (forged in a copied journal); a
# thread that exited is reported and dropped at undo (ESRCH); an unprivileged
# run is refused with the reason (exit 1); a bad value for a whole process
# gives one line, not one per thread. Only the helper's threads are touched.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/threads/common.sh"

[ -x "$HELPER" ] || skip_all "threads_helper not built (make check builds it)"
for tool in taskset chrt ps awk; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "$tool not installed"
done

out="$TMPD/h.out"
start_helper "$out" -n 3 -p ttk || skip_all "helper did not start"
hpid=$started
t0=$(tid_of "$out" ttk0)
t1=$(tid_of "$out" ttk1)
t2=$(tid_of "$out" ttk2)
tids=$(ls "/proc/$hpid/task")
ncpu=$(getconf _NPROCESSORS_ONLN)
cpu=$((ncpu - 1))

# values before, to compare after restore
for t in $tids; do eval "before_aff_$t=\"\$(aff $t)\""; done
before_pol1="$(pol "$t1")/$(prio "$t1")"
before_ni2=$(ni "$t2" "$hpid")

# ---- affinity of one thread
r=$(ttl set "thread/$t0/affinity=$cpu" 2>&1)
is "$?" 0 "set thread/$t0/affinity=$cpu"
like "$r" "thread/$t0/affinity: [0-9,-]+ -> $cpu" "report shows old -> new"
is "$(aff "$t0")" "$cpu " "taskset -p $t0 shows CPU $cpu"
eval "want=\$before_aff_$t1"
is "$(aff "$t1")" "$want" "thread $t1 keeps its mask"
is "$(ttl get "thread/$t0/affinity")" "thread/$t0/affinity=$cpu" "get reads it back"

# ---- policy and priority
r=$(ttl set "thread/$t1/policy=fifo:10" 2>&1)
rc=$?
if [ "$rc" -eq 0 ]; then
	is "$(pol "$t1")/$(prio "$t1")" "SCHED_FIFO/10" "chrt -p $t1: SCHED_FIFO 10"
	is "$(pol "$t0")" "SCHED_OTHER" "thread $t0 still SCHED_OTHER"
	fifo_ok=1
else
	like "$r" "EPERM .*(RT group scheduling|CAP_SYS_NICE)" "FIFO refused with the reason"
	skip "chrt -p shows FIFO 10" "RT refused here: $r"
	fifo_ok=0
fi

# ---- nice
ttl set "thread/$t2/nice=5" >/dev/null 2>&1
is "$?" 0 "set thread/$t2/nice=5"
is "$(ni "$t2" "$hpid")" 5 "ps -L -o tid,ni: thread $t2 has nice 5"
is "$(ni "$t0" "$hpid")" 0 "thread $t0 keeps nice 0"

# ---- uclamp
r=$(ttl set "thread/$t0/uclamp_min=256" 2>&1)
rc=$?
if [ "$rc" -eq 0 ]; then
	is "$(ttl get "thread/$t0/uclamp_min")" "thread/$t0/uclamp_min=256" "uclamp_min 256"
	skip "EOPNOTSUPP explained" "this kernel has uclamp"
else
	skip "uclamp_min 256" "kernel without uclamp (EOPNOTSUPP): $r"
	is "$rc" 1 "uclamp on a kernel without it: exit 1"
	like "$r" "EOPNOTSUPP .*no utilization clamping \(CONFIG_UCLAMP_TASK" "and says why"
	is "$(ttl get "thread/$t0/uclamp_min")" "thread/$t0/uclamp_min=n/a" "get shows n/a, not 0"
fi

# ---- every thread of the process
r=$(ttl set "process/$hpid/affinity=0" 2>&1)
is "$?" 0 "set process/$hpid/affinity=0"
n=0
for t in $tids; do [ "$(aff "$t")" = "0 " ] && n=$((n + 1)); done
is "$n" "$(echo $tids | wc -w)" "taskset -p: every thread of $hpid on CPU 0"

# ---- bad input: exit 2, nothing written
bad() { # bad WANT_REGEX DESCRIPTION ADDR=VALUE
	_r=$(ttl set "$3" 2>&1)
	_rc=$?
	is "$_rc" 2 "$2: exit 2"
	like "$_r" "$1" "$2: says why"
}
bad "empty (value|CPU list)" "empty affinity" "thread/$t0/affinity="
bad "CPU $ncpu not online" "offline CPU" "thread/$t0/affinity=$ncpu"
bad "priority 0 is out of range 1..99" "fifo:0" "thread/$t1/policy=fifo:0"
bad "priority 100 is out of range" "fifo:100" "thread/$t1/policy=fifo:100"
bad "other takes no priority" "other:5" "thread/$t1/policy=other:5"
bad "not a policy" "unknown policy" "thread/$t1/policy=turbo"
bad "nice 20 is out of range -20..19" "nice 20" "thread/$t2/nice=20"
bad "2000 is out of range 0..1024" "uclamp 2000" "thread/$t0/uclamp_min=2000"
bad "ESRCH: no thread 999999999" "no such thread" "thread/999999999/nice=1"
bad "is a thread of process $hpid" "process/<tid>" "process/$t1/nice=1"
bad "name one thread id" "thread/*" "thread/*/nice=1"
ks=$(for p in /proc/[0-9]*; do c=$(cat "$p/comm" 2>/dev/null); case $c in ksoftirqd/*) echo "${p#/proc/}"; break ;; esac; done)
if [ -n "$ks" ]; then
	bad "per-CPU kernel thread \(PF_NO_SETAFFINITY\)" "ksoftirqd affinity" "thread/$ks/affinity=0"
else
	skip "ksoftirqd affinity: exit 2" "no ksoftirqd visible"
	skip "ksoftirqd affinity: says why" "no ksoftirqd visible"
fi
# a bad value for a whole process: one line naming the address, the value
# and the reason, not one line per thread
nthr=$(echo $tids | wc -w)
for a in "nice=BAD|'BAD' is not a nice value \(-20\.\.19\)" \
	"policy=fifo:0|priority 0 is out of range 1\.\.99 for fifo" \
	"affinity=|empty value: a CPU list, e\\.g\\. 0-3,6" "uclamp_max=2000|2000 is out of range 0\.\.1024"; do
	av=${a%%|*}
	_r=$(ttl set "process/$hpid/$av" 2>&1)
	is "$?" 2 "process/$hpid/$av: exit 2"
	is "$(printf '%s\n' "$_r" | wc -l)" 1 "process/$hpid/$av: one line, not one per thread"
	like "$_r" "^tunetop set: process/$hpid/$av: EINVAL: ${a#*|} \(all $nthr threads\)\$" \
		"process/$hpid/$av: names the address, the value and the reason"
done
is "$(ni "$t2" "$hpid")" 5 "nothing changed by the refused sets"

# ---- dry run prints the shell line and changes nothing
r=$(ttl set --dry-run "thread/$t2/nice=3" "thread/$t0/affinity=$cpu" 2>&1)
like "$r" "renice -n 3 -p $t2 +# thread/$t2/nice: 5 -> 3" "dry run: renice line"
like "$r" "taskset -pc $cpu $t0" "dry run: taskset line"
is "$(ni "$t2" "$hpid")" 5 "dry run changed nothing"

# ---- restore puts every value back
r=$(ttl restore 2>&1)
is "$?" 0 "restore exits 0"
bad_n=0
for t in $tids; do
	eval "want=\$before_aff_$t"
	[ "$(aff "$t")" = "$want" ] || { bad_n=$((bad_n + 1)); diag "thread $t: $(aff "$t") want $want"; }
done
is "$bad_n" 0 "every thread's affinity is back (taskset -p)"
is "$(pol "$t1")/$(prio "$t1")" "$before_pol1" "policy of $t1 back ($before_pol1)"
is "$(ni "$t2" "$hpid")" "$before_ni2" "nice of $t2 back ($before_ni2)"
is "$(ttl restore 2>&1)" "nothing to restore" "restore again: nothing to do"

# ---- exec uses the same code and words
r=$(ttl exec --cpus 0 --nice 3 -- sh -c 'taskset -cp $$; cut -d" " -f19 /proc/$$/stat' 2>&1)
like "$r" "current affinity list: 0$" "exec --cpus 0"
like "$r" "^3$" "exec --nice 3"

# ---- a reused tid is never touched: forge the start time in a copied journal
ttl set "thread/$t2/nice=4" >/dev/null 2>&1
if command -v python3 >/dev/null 2>&1; then
	cp -a "$STATE" "$TMPD/forged"
	python3 - "$TMPD/forged/journal" "$t2" <<'PY'
import sys, zlib
path, tid = sys.argv[1], sys.argv[2]
lines = open(path, 'rb').read().split(b'\n')
out = []
for l in lines:
    if l.startswith(b'W\t') and (b'\taddr=thread/' + tid.encode() + b'/nice\t') in l:
        f = l.split(b'\t')
        f = [b'ident=start=1' if x.startswith(b'ident=') else x for x in f if not x.startswith(b'crc=')]
        body = b'\t'.join(f)
        l = body + b'\tcrc=%08x' % (zlib.crc32(body) & 0xffffffff)
    out.append(l)
open(path, 'wb').write(b'\n'.join(out))
PY
	r=$("$TUNETOP" --state-dir "$TMPD/forged" restore 2>&1)
	is "$?" 0 "restore with a forged start time exits 0 (dropped, not an error)"
	like "$r" "thread $t2 was replaced since \(the journal recorded start time 1, .*\): not touched" \
		"a tid with another start time is refused: not touched"
	is "$(ni "$t2" "$hpid")" 4 "the thread with the reused tid was not touched"
else
	skip "forged start time" "python3 not installed"
	skip "forged start time refused" "python3 not installed"
	skip "not touched" "python3 not installed"
fi
ttl restore >/dev/null 2>&1
is "$(ni "$t2" "$hpid")" "$before_ni2" "the real journal restores it"

# ---- a thread that exited: ESRCH at undo, reported and dropped, no crash
ttl set "thread/$t0/nice=2" >/dev/null 2>&1
kill -USR1 "$hpid"
i=0
while ! grep -q "^exited $t0" "$out" && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
like "$(cat "$out")" "exited $t0" "helper thread $t0 exited"
r=$(ttl undo 2>&1)
is "$?" 0 "undo of a change to an exited thread exits 0"
like "$r" "thread/$t0/nice: target vanished \(thread/$t0: ESRCH: no thread $t0" "reported as vanished (ESRCH)"
like "$(ttl journal 2>&1)" "thread/$t0/nice: 0 -> 2 \(vanished\)" "journal: dropped as vanished"

# ---- unprivileged: refused with the reason, exit 1
grp=nogroup
getent group nogroup >/dev/null 2>&1 || grp=nobody
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1 &&
	setpriv --reuid=nobody --regid="$grp" --clear-groups "$TUNETOP" --version >/dev/null 2>&1; then
	ns=$(mktemp -d /tmp/tunetop-nobody.XXXXXX)
	chown nobody "$ns"
	chmod 700 "$ns"
	r=$(setpriv --reuid=nobody --regid="$grp" --clear-groups "$TUNETOP" --state-dir "$ns" set "thread/$t1/nice=1" 2>&1)
	is "$?" 1 "as nobody: set nice of root's thread exits 1"
	like "$r" "thread/$t1/nice: EPERM .*not root and no CAP_SYS_NICE" "and says why"
	r=$(setpriv --reuid=nobody --regid="$grp" --clear-groups "$TUNETOP" --state-dir "$ns" set "process/$hpid/policy=fifo:5" 2>&1)
	is "$?" 1 "as nobody: RT policy for root's process exits 1"
	like "$r" "^tunetop set: process/$hpid/policy=fifo:5: EPERM: not root and no CAP_SYS_NICE" "and says why"
	is "$(printf '%s\n' "$r" | wc -l)" 1 "in one line for the whole process"
	is "$(ni "$t1" "$hpid")" 0 "nothing changed"
	r=$(setpriv --reuid=nobody --regid="$grp" --clear-groups "$TUNETOP" --state-dir "$ns" exec --fifo 10 -- true 2>&1)
	is "$?" 1 "as nobody: exec --fifo exits 1"
	like "$r" "sched_setscheduler: not root and no CAP_SYS_NICE: RT priority above RLIMIT_RTPRIO" "exec says why, in the same words"
	rm -rf "$ns"
else
	for d in "nice exit 1" "nice why" "policy exit 1" "policy why" "policy one line" "nothing changed" "exec exit 1" "exec why"; do
		skip "as nobody: $d" "not root, or no setpriv/nobody"
	done
fi

done_testing
