#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Kernel behaviours this machine may lack, simulated by an LD_PRELOAD shim
# (tests/live/schedshim.c) on the thread helper this test starts:
# - uclamp supported (CONFIG_UCLAMP_TASK): set thread/process uclamp, get
#   reads it back, the journal records it, a min above max is
#   refused in words, restore puts it back; the TUI's Threads screen sets it
#   with c and shows it.
# - RT group scheduling refusing SCHED_FIFO with EPERM even for root: set
#   and exec --fifo say the cause (CONFIG_RT_GROUP_SCHED, cpu.rt_runtime_us
#   = 0) and the fix (RT runtime for the group, or the root cgroup), the
#   TUI's status line leads with the cause, and nothing changes.
# Then, where this kernel really has RT group scheduling with a cgroup v1 cpu
# controller, the same refusal for real: the helper in a new cpu cgroup (its
# name in the message), and the fix from the message working — only with
# the opt-in TT_TEST_REAL_CGROUP=1, since it writes the live /sys.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/threads/common.sh"

SHIM="$TT_BUILDDIR/tests/live/schedshim.so"
[ -x "$HELPER" ] || skip_all "threads_helper not built (make check builds it)"
[ -f "$SHIM" ] || skip_all "tests/live/schedshim.so not built (make check builds it)"
for tool in chrt awk; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "$tool not installed"
done
[ "$(id -u)" -eq 0 ] || skip_all "needs root (RT policies; the shim's EPERM is the privileged case)"

# An ASan build wants its runtime first in the library list; an LD_PRELOAD
# library in front of it makes it abort at start. Let it run behind the shim
# if it can, else skip.
if ldd "$TUNETOP" 2>/dev/null | grep -q libasan; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
fi
UC="$TMPD/uclamp.table"
shim() { env LD_PRELOAD="$SHIM" TT_SHIM_UCLAMP="$UC" "$@"; }
shim_rt() { env LD_PRELOAD="$SHIM" TT_SHIM_RT_EPERM=1 "$@"; }
r=$(shim "$TUNETOP" get "thread/$$/uclamp_min" 2>&1)
case $r in
"thread/$$/uclamp_min=0") ;;
*) skip_all "tunetop does not run with LD_PRELOAD here (sanitizer build?): $r" ;;
esac

out="$TMPD/h.out"
start_helper "$out" -n 3 -p tts || skip_all "helper did not start"
hpid=$started
t0=$(tid_of "$out" tts0)
t1=$(tid_of "$out" tts1)
nthr=$(ls "/proc/$hpid/task" | wc -l)
# Thread knobs act on the live kernel's threads only without --root (a
# --root tree owns its threads: tests/threads/tree.sh), so the uclamp part
# runs live, with a state dir of its own.
tt() { shim "$TUNETOP" --state-dir "$TMPD/st-uc" "$@"; }

# ---- uclamp, supported
r=$(tt set "thread/$t0/uclamp_min=512" 2>&1)
is "$?" 0 "uclamp: set thread/$t0/uclamp_min=512"
like "$r" "^thread/$t0/uclamp_min: 0 -> 512$" "report: 0 -> 512"
is "$(tt get "thread/$t0/uclamp_min" "thread/$t0/uclamp_max")" \
	"thread/$t0/uclamp_min=512
thread/$t0/uclamp_max=1024" "get reads 512 / 1024 back"
like "$(tt journal 2>&1)" "active +[0-9]+-? +thread/$t0/uclamp_min: 0 -> 512" "journaled"
r=$(tt set "thread/$t0/uclamp_max=100" 2>&1)
is "$?" 1 "uclamp_max below uclamp_min: exit 1"
like "$r" "thread/$t0/uclamp_max: EINVAL .*uclamp_min must not exceed uclamp_max.*; nothing changed" \
	"refused in words (the kernel's EINVAL)"
r=$(tt set "process/$hpid/uclamp_max=800" 2>&1)
is "$?" 0 "set process/$hpid/uclamp_max=800 (every thread)"
n=0
for t in $(ls "/proc/$hpid/task"); do
	[ "$(tt get "thread/$t/uclamp_max")" = "thread/$t/uclamp_max=800" ] && n=$((n + 1))
done
is "$n" "$nthr" "every thread reads uclamp_max 800"
r=$(tt restore 2>&1)
is "$?" 0 "restore"
like "$r" "thread/$t0/uclamp_min: 512 -> 0 \(restored\)" "uclamp_min back to 0"
is "$(tt get "thread/$t0/uclamp_min" "thread/$t1/uclamp_max")" \
	"thread/$t0/uclamp_min=0
thread/$t1/uclamp_max=1024" "get: 0 / 1024 again"

# ---- the TUI sets it with c and shows it
have_tmux=
if command -v tmux >/dev/null 2>&1; then
	have_tmux=1
	. "$TT_SRCDIR/tests/tui/tmux.sh"
	trap 'tui_cleanup; for _p in $_helpers; do kill "$_p" 2>/dev/null; done' EXIT
	tui_start u 150 40 LD_PRELOAD="$SHIM" TT_SHIM_UCLAMP="$UC" -- --state-dir "$TMPD/st-uc" --screen threads
	tui_wait u 'PID +TID S POLICY +PRI +NI UCMIN UCMAX AFFINITY +CPU'; ok $? "TUI: Threads screen up"
	tui_keys u '\'
	tui_wait u 'Filter'
	tui_keys u "tts1" Enter
	tui_wait u "^ +$hpid +$t1 [RS] OTHER +- +0 +0 +1024 .* tts1 *\$"; ok $? "TUI: uclamp 0 / 1024 shown"
	tui_keys u c
	tui_wait u "uclamp of tts1 \\($t1\\)"; ok $? "TUI: c opens the uclamp menu"
	tui_wait u '(only schedutil honours uclamp|schedutil turns the clamp into a frequency)'; ok $? "TUI: with the schedutil note"
	tui_keys u Enter
	tui_wait u '0\.\.1024'; ok $? "TUI: asks for the value"
	tui_keys u BSpace BSpace BSpace BSpace 300 Enter
	is "$(tt get "thread/$t1/uclamp_min")" "thread/$t1/uclamp_min=300" "the clamp is set"
	tui_wait u "^ +$hpid +$t1 [RS] OTHER +- +0 +300 +1024 .* tts1 *\$"; ok $? "TUI: the row shows 300"
	tui_keys u q
	tui_wait u 'Restore and quit'
	tui_keys u Enter
	tui_wait_exit u; ok $? "TUI: quit, restoring"
	is "$(tt get "thread/$t1/uclamp_min")" "thread/$t1/uclamp_min=0" "restored on quit"
else
	skip "TUI uclamp" "tmux not installed"
fi

# ---- RT group scheduling refuses SCHED_FIFO (EPERM for root)
before="$(pol "$t1")"
r=$(shim_rt "$TUNETOP" set "thread/$t1/policy=fifo:10" 2>&1)
is "$?" 1 "fifo refused by RT group scheduling: exit 1"
like "$r" "thread/$t1/policy: EPERM from /proc/$hpid/task/$t1 \(sched_setscheduler\): could not write 'fifo:10': refused although privileged" \
	"names the address, the errno and the value"
like "$r" "RT group scheduling \(CONFIG_RT_GROUP_SCHED\).*cpu\.rt_runtime_us = 0" "names the cause"
like "$r" "give .*group RT runtime or move the thread to the root cgroup" "and the fix"
like "$r" "; nothing changed$" "and that nothing changed"
is "$(printf '%s\n' "$r" | wc -l)" 1 "one line"
is "$(pol "$t1")" "$before" "chrt -p: policy unchanged"
r=$(shim_rt "$TUNETOP" set "process/$hpid/policy=rr:5" 2>&1)
is "$?" 1 "process/$hpid/policy=rr:5: exit 1"
is "$(printf '%s\n' "$r" | wc -l)" 1 "one line for the whole process"
like "$r" "EPERM .*RT group scheduling" "with the cause"
if [ -n "$have_tmux" ]; then
	# the TUI's status line leads with the cause (the whole line would not fit)
	tui_start r 150 40 LD_PRELOAD="$SHIM" TT_SHIM_RT_EPERM=1 -- --state-dir "$STATE" --screen threads
	tui_wait r 'PID +TID S POLICY'; ok $? "TUI: Threads screen up"
	tui_keys r '\'
	tui_wait r 'Filter'
	tui_keys r "$t1" Enter
	tui_wait r "^ +$hpid +$t1 [RS] OTHER .* tts1 *\$"; ok $? "TUI: the helper thread"
	tui_keys r p
	tui_wait r 'Policy of tts1'; ok $? "TUI: policy dialog"
	tui_keys r Down Down Down Enter
	tui_wait r 'RT priority 1..99'
	tui_keys r BSpace BSpace BSpace 30 Enter
	tui_wait r "Refused: thread/$t1/policy=fifo:30: EPERM: refused although privileged: most likely RT group scheduling"
	ok $? "TUI: refused, the status line names the cause"
	is "$(pol "$t1")" "$before" "TUI: policy unchanged"
	tui_keys r q
	tui_wait_exit r; ok $? "TUI: quits (nothing to restore)"
else
	skip "TUI RT refusal" "tmux not installed"
fi
r=$(shim_rt "$TUNETOP" exec --fifo 10 -- true 2>&1)
is "$?" 1 "exec --fifo 10: exit 1"
like "$r" "^tunetop exec: --fifo 10: EPERM from sched_setscheduler: refused although privileged: most likely RT group scheduling \(CONFIG_RT_GROUP_SCHED\)" \
	"exec says why, in the same words"
is "$(ttl restore 2>&1)" "nothing to restore" "nothing was journaled as changed"

# ---- the real thing, where the kernel has RT group scheduling (cgroup v1)
# It creates a cgroup in the machine's own /sys/fs/cgroup: tests never write
# the live /sys unless asked to (TT_TEST_REAL_CGROUP=1).
cg=
why="no writable cgroup v1 cpu controller with cpu.rt_runtime_us"
if [ "${TT_TEST_REAL_CGROUP:-0}" = 1 ]; then
	for d in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
		[ -w "$d/cpu.rt_runtime_us" ] && [ -w "$d/cgroup.procs" ] && { cg=$d; break; }
	done
else
	why="writes the machine's /sys/fs/cgroup: set TT_TEST_REAL_CGROUP=1 to run it"
fi
if [ -n "$cg" ] && grep -qw cpu /proc/self/cgroup && mkdir "$cg/tunetop-test-$$" 2>/dev/null; then
	grp="$cg/tunetop-test-$$"
	trap 'echo "$hpid" >"$cg/cgroup.procs" 2>/dev/null; rmdir "$grp" 2>/dev/null; for _p in $_helpers; do kill "$_p" 2>/dev/null; done; command -v tui_cleanup >/dev/null && tui_cleanup; tap_cleanup' EXIT
	echo "$hpid" >"$grp/cgroup.procs"
	is "$(cat "$grp/cpu.rt_runtime_us")" 0 "real: a new cpu cgroup has no RT runtime"
	r=$(ttl set "thread/$t1/policy=fifo:10" 2>&1)
	is "$?" 1 "real: fifo refused in that group (exit 1)"
	like "$r" "EPERM .*the thread's cpu cgroup /tunetop-test-$$ has no RT runtime \(cpu\.rt_runtime_us = 0" \
		"real: the message names the cgroup and the cause"
	echo 10000 >"$grp/cpu.rt_runtime_us"
	r=$(ttl set "thread/$t1/policy=fifo:10" 2>&1)
	is "$?" 0 "real: with RT runtime for the group (the fix) it works"
	is "$(pol "$t1")" SCHED_FIFO "real: chrt -p shows SCHED_FIFO"
	ttl restore >/dev/null 2>&1
	is "$(pol "$t1")" "$before" "real: restored"
	echo "$hpid" >"$cg/cgroup.procs"
	rmdir "$grp"
	ok $? "real: the test cgroup is removed"
else
	for d in "no RT runtime" "refused" "names the cgroup" "fix works" "SCHED_FIFO" "restored" "cgroup removed"; do
		skip "real RT group scheduling: $d" "$why"
	done
fi

done_testing
