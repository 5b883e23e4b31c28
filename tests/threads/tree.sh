#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A --root tree owns its processes (issue 35): `snapshot --threads` on a
# copied rk3588 lists the tree's proc/ (the inference app rknn_infer with
# rknn_run blocked in the NPU ioctl, the irq/NN threads at SCHED_FIFO 50,
# ksoftirqd, kworkers) and nothing of the host; a fixture without proc/PID
# lists no thread at all. A thread knob under --root changes the tree's
# files and no host thread: a host `sleep` whose tid is given to a thread
# planted in the tree keeps its affinity, policy and nice (taskset -p,
# chrt -p, ps), while the tree's status and stat change; undo and restore
# give the tree back byte for byte. A tid only the host has is refused.
. "$TT_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
export TUNETOP_VERIFY_MS=0

# ---- (a) the tree's threads, none of the host's
root=$(copy_fixture rk3588)
"$TUNETOP" --root "$root" snapshot --threads=all --interval 0 --json >"$TMPD/a.json" 2>"$TMPD/a.err"
is "$?" 0 "snapshot --threads=all --json on the copied rk3588"
r=$(python3 - "$TMPD/a.json" "$$" "$root" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
root = sys.argv[3]
# what the tree's proc/ holds: every proc/PID/task/TID
want = {}
for p in os.listdir(os.path.join(root, "proc")):
    if p.isdigit():
        for t in os.listdir(os.path.join(root, "proc", p, "task")):
            want[int(t)] = open(os.path.join(root, "proc", p, "task", t, "comm")).read().strip()
got = {t["tid"]: t["comm"] for t in d["threads"]}
print("same", got == want, len(got))
# the host's: this test's shell and the host's pid 1 are listed only
# where the tree has a thread of that number, and then with the tree's name
host = int(sys.argv[2])
hc = open("/proc/%d/comm" % host).read().strip()
print("host", host not in got or got[host] == want.get(host))
print("pid1", got.get(1))
for t in d["threads"]:
    if t["tid"] == 1846:
        print("npu", t["comm"], t["state"], t["wchan"], t["in_ioctl"], t["accel"], t["last_cpu"])
    if t["comm"].startswith("irq/30"):
        print("irq", t["policy"], t["rt_prio"], t["affinity"], t["kernel"])
    if t["comm"] == "ksoftirqd/4":
        print("ksoftirqd", t["affinity"], t["kernel"])
    if t["tid"] == 1842:
        print("app", t["uclamp_min"], t["uclamp_max"], t["affinity"], t["nr_migrations"])
PY
)
like "$r" "same True 20" "the 20 threads of the tree's proc/, by tid and name, and no other"
like "$r" "host True" "the test's own shell is not listed (unless the tree has that tid)"
like "$r" "pid1 systemd" "pid 1 is the tree's systemd"
like "$r" "npu rknn_run D rknpu_job_wait True NPU 4" "rknn_run waits in the NPU ioctl (D, rknpu_job_wait, /dev/rknpu)"
like "$r" "irq fifo 50 0 True" "irq/30-mmc0: SCHED_FIFO 50 on CPU 0, a kernel thread"
like "$r" "ksoftirqd 4 True" "ksoftirqd/4 bound to CPU 4"
like "$r" "app 0 1024 0-7 3312" "uclamp and affinity from the tree's sched and status files"
txt=$("$TUNETOP" --root "$root" snapshot --threads --interval 0 2>&1)
like "$txt" "npu-wait-low-opp +rknn_run \\(tid 1846\\) sleeps in the NPU ioctl" \
	"the NPU-wait finding names the tree's thread"
"$TUNETOP" --root "$FIXTURES/intel" snapshot --threads=all --interval 0 --json >"$TMPD/i.json" 2>&1
like "$(grep -o '"threads":[^,]*' "$TMPD/i.json")" '^"threads":\[\]$' "a tree without proc/PID lists no thread (not the host's)"

# ---- (b) a thread knob changes the tree, never the host thread of that number
sleep 300 &
sp=$!
trap 'kill "$sp" 2>/dev/null; tap_cleanup' EXIT
t=$root # one copy (copying a tree is the slow part on a loaded machine)
if [ -e "$t/proc/$sp" ]; then
	skip_all "the host sleep got pid $sp, which the fixture already has"
fi
# plant a thread with the sleep's number: sshd's files, renumbered
mkdir -p "$t/proc/$sp/task/$sp"
for f in stat status comm sched wchan syscall; do
	sed -e "s/^905 (sshd)/$sp (tree_twin)/" -e "s/^sshd (905,/tree_twin ($sp,/" \
		-e "s/^\\(Tgid\\|Pid\\|NStgid\\|NSpid\\|NSpgid\\|NSsid\\):\\t905\$/\\1:\\t$sp/" \
		-e 's/^Name:\tsshd$/Name:\ttree_twin/' -e 's/^sshd$/tree_twin/' \
		"$t/proc/905/task/905/$f" >"$t/proc/$sp/task/$sp/$f"
	cp "$t/proc/$sp/task/$sp/$f" "$t/proc/$sp/$f"
done
cp -a "$t/proc/$sp" "$TMPD/twin"
# same_tree of the copy: its twin as planted, the rest as the fixture
same_as_before() {
	same_tree "$TMPD/twin" "$t/proc/$sp" || return 1
	mv "$t/proc/$sp" "$TMPD/twin.now" && same_tree "$FIXTURES/rk3588" "$t"
	_r=$?
	mv "$TMPD/twin.now" "$t/proc/$sp"
	return $_r
}
aff0=$(taskset -p "$sp" 2>&1)
pol0=$(chrt -p "$sp" 2>&1)
ni0=$(ps -o ni= -p "$sp")
tt() { "$TUNETOP" --root "$t" --state-dir "$TMPD/st" "$@"; }
is "$(tt get "thread/$sp/affinity" "thread/$sp/policy" "thread/$sp/nice")" "thread/$sp/affinity=0-7
thread/$sp/policy=other
thread/$sp/nice=0" "get reads the tree's thread"
out=$(tt set "thread/$sp/affinity=6-7" "thread/$sp/policy=fifo:42" 2>&1)
is "$?" 0 "set thread/$sp/affinity=6-7 policy=fifo:42 under --root"
like "$out" "thread/$sp/affinity: 0-7 -> 6-7" "report: affinity 0-7 -> 6-7"
like "$out" "thread/$sp/policy: other -> fifo:42" "report: policy other -> fifo:42"
out=$(tt set "process/$sp/nice=7" 2>&1)
is "$?" 0 "set process/$sp/nice=7 under --root"
st=$(cat "$t/proc/$sp/task/$sp/stat")
is "$(echo "$st" | awk '{ print $18, $19, $40, $41 }')" "-43 7 42 1" \
	"the tree's stat: priority -43, nice 7, rt_priority 42, policy 1 (FIFO)"
like "$(cat "$t/proc/$sp/task/$sp/status")" "Cpus_allowed:	c0
Cpus_allowed_list:	6-7" "the tree's status: Cpus_allowed c0, Cpus_allowed_list 6-7"
like "$(cat "$t/proc/$sp/sched")" "policy +: +1
prio +: +57" "the leader's proc/PID/sched follows (policy 1, prio 57)"
is "$(taskset -p "$sp" 2>&1)" "$aff0" "host sleep $sp: taskset -p unchanged"
is "$(chrt -p "$sp" 2>&1)" "$pol0" "host sleep $sp: chrt -p unchanged"
is "$(ps -o ni= -p "$sp")" "$ni0" "host sleep $sp: nice unchanged"
like "$(tt set --dry-run "thread/$sp/affinity=5" 2>&1)" "^# proc/$sp/task/$sp/status: affinity 5 \\(the tree's thread, no syscall\\)" \
	"dry run: the tree's file, no taskset line"
r=$(tt undo 2>&1)
is "$?" 0 "undo the last change (nice)"
is "$(awk '{ print $19 }' "$t/proc/$sp/task/$sp/stat")" 0 "nice back in the tree"
tt restore >/dev/null 2>&1
is "$?" 0 "restore"
if same_tree "$TMPD/twin" "$t/proc/$sp"; then ok 0 "the twin's files are byte for byte what they were"; else
	ok 1 "the twin's files are byte for byte what they were"
	diff -r --no-dereference "$TMPD/twin" "$t/proc/$sp" | head -5 | sed 's/^/# /'
fi
is "$(taskset -p "$sp" 2>&1)$(chrt -p "$sp" 2>&1)" "$aff0$pol0" "host sleep still untouched"

# a tid the host has and the tree does not: refused, nothing changed
me=$$
[ -e "$t/proc/$me" ] && me=$sp$sp
r=$(tt set "thread/$me/affinity=0" 2>&1)
is "$?" 2 "thread/$me (a host tid only) under --root: exit 2, as for a thread that does not exist"
like "$r" "thread/$me: ESRCH: no thread $me in this tree" "says the tree has no such thread"
r=$(tt set "thread/13/affinity=1" 2>&1)
like "$r" "EINVAL: ksoftirqd/0 is a per-CPU kernel thread \\(PF_NO_SETAFFINITY\\)" \
	"the tree's per-CPU kthread refuses a move, as the kernel would"
if same_as_before; then ok 0 "after restore and the refusals the tree is the fixture again"; else
	ok 1 "after restore and the refusals the tree is the fixture again"
	diff -r --no-dereference "$FIXTURES/rk3588" "$t" | head -5 | sed 's/^/# /'
fi

done_testing
