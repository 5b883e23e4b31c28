#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop learn on this kernel (the simulated board's lessons are in
# learn.sh): a lesson whose interface is missing says what is missing and
# how to get it; lesson 5 pins its worker and its migrations stop. Run
# again under every emulated host shape (make check-shapes).
. "$TT_SRCDIR/tests/lib.sh"

# the verdict's sentences wrap: match them on the output as one line
flat() { printf '%s' "$1" | tr '\n' ' ' | tr -s ' '; }

# on this machine: a missing interface names what is missing and how to get it
if [ ! -e /sys/kernel/debug/sched/debug ] && [ ! -e /proc/sched_debug ]; then
	out=$("$TUNETOP" learn 4 --auto </dev/null 2>&1)
	like "$(flat "$out")" 'cannot run this lesson: per-CPU RT runqueues (\(rt_throttled, rt_time\) need debugfs: mount -t debugfs none /sys/kernel/debug|need sys/kernel/debug/sched/debug: the kernel lacks CONFIG_SCHED_DEBUG)' \
		"no RT runqueue file: says what is missing and how to get it"
else
	skip "no RT runqueue file: says what is missing" "this machine has one"
fi

# 5: this kernel; the worker is pinned, its migrations stop.
out=$("$TUNETOP" learn 5 --auto </dev/null 2>&1)
ok $? "lesson 5 runs"
like "$out" 'worker migrations \(/proc/PID/task/TID/sched\) +[0-9.]+ /s +0\.0 /s' \
	"no migrations once pinned"
like "$out" 'restored the worker.s affinity' "restored"

done_testing
