#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop exec follows the whole app (issue 15): the app runs in a cgroup v2
# of its own and the lock lasts until that cgroup is empty, so a start
# script that backgrounds the real process keeps it; --pidfile follows the
# process a pid file names; --no-follow ends with CMD. Live writes: only the
# app's tunetop-exec-PID cgroup, which must be gone afterwards. Every wait
# polls for a condition with a generous deadline; the app ends when the test
# creates its stop file, never after a fixed time.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

GOV=sys/devices/system/cpu/cpufreq/policy4/scaling_governor
# LIMIT, until_ok, has_line, exec_bg, finish: tests/knob/common.sh
# alive, dead, make_start_script: tests/knob/common.sh
make_start_script

# run_exec ARGS...: tunetop exec ARGS in the background on $root
run_exec() {
	exec_bg "$@"
	ours="$ours $tpid"
}
ours=

# the cgroup v2 this shell (and so tunetop) is in, as a directory
own_cgroup() {
	_mnt=$(awk '/ - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
	_rel=$(sed -n 's/^0:://p' /proc/self/cgroup)
	[ -n "$_mnt" ] && [ -n "$_rel" ] && printf '%s%s\n' "$_mnt" "${_rel%/}"
}
OWN=$(own_cgroup)

# ---- default: the lock lasts while the backgrounded process lives
fresh rk3588
run_exec -p rk3588-npu -- "$TMPD/start.sh" "$TMPD"
until_ok "$LIMIT" test -s "$TMPD/app.pid"
ok $? "the start script ran and left its process"
app=$(cat "$TMPD/app.pid" 2>/dev/null || echo 0)
until_ok "$LIMIT" has_line "$TMPD/err" "holding while\|no cgroup of its own"
if has_line "$TMPD/err" "no cgroup of its own"; then
	why=$(grep -o 'no cgroup of its own.*' "$TMPD/err" | head -1)
	finish
	skip "exec follows the app in its own cgroup" "cgroup v2 not writable here: $why"
	if pristine; then ok 0 "fallback: tree restored"; else ok 1 "fallback: tree restored"; show_diff; fi
	done_testing
	exit 0
fi
ok 0 "the start script exited and exec holds on"
alive "$app"
ok $? "the backgrounded process still runs"
is "$(file $GOV)" "performance" "the knob stays changed while the app's process lives"
alive "$app"
ok $? "(still running after the check)"
like "$(cat /proc/"$app"/cgroup 2>/dev/null)" "0::.*/tunetop-exec-$tpid\$" "the app runs in tunetop-exec-PID"
alive "$tpid"
ok $? "tunetop exec still runs"
finish
is "$trc" 0 "exec exits with the start script's status"
dead "$app"
ok $? "the app's process is gone"
if pristine; then ok 0 "tree equals the pristine copy after the app ended"; else
	ok 1 "tree equals the pristine copy after the app ended"; show_diff; fi
[ ! -e "$OWN/tunetop-exec-$tpid" ]
ok $? "its cgroup tunetop-exec-$tpid is removed"

# ---- signals reach the processes left in the cgroup
fresh rk3588
run_exec mm/thp=never -- "$TMPD/start.sh" "$TMPD"
until_ok "$LIMIT" has_line "$TMPD/err" "holding while"
ok $? "daemonized app: exec holds on"
app=$(cat "$TMPD/app.pid" 2>/dev/null || echo 0)
kill -TERM "$tpid"
wait "$tpid"
ok $? "SIGTERM: exec ends"
until_ok "$LIMIT" dead "$app"
ok $? "SIGTERM was forwarded to the process left in the cgroup"
pristine
ok $? "tree restored"
[ ! -e "$OWN/tunetop-exec-$tpid" ]
ok $? "its cgroup is removed"

# ---- --no-follow: the old behaviour, the lock ends with the start script
fresh rk3588
run_exec --no-follow -p rk3588-npu -- "$TMPD/start.sh" "$TMPD"
wait "$tpid"
is "$?" 0 "--no-follow: exec returns when the start script exits"
app=$(cat "$TMPD/app.pid" 2>/dev/null || echo 0)
alive "$app"
ok $? "--no-follow: the backgrounded process still runs"
if pristine; then ok 0 "--no-follow: restored at once"; else ok 1 "--no-follow: restored at once"; show_diff; fi
touch "$TMPD/stop"
until_ok "$LIMIT" dead "$app"
[ ! -e "$OWN/tunetop-exec-$tpid" ]
ok $? "--no-follow: no cgroup made"

# ---- --pidfile: wait for the pid the file names
fresh rk3588
run_exec --pidfile "$TMPD/app.pid" -p rk3588-npu -- "$TMPD/start.sh" "$TMPD"
until_ok "$LIMIT" has_line "$TMPD/err" "following pid"
ok $? "--pidfile: exec reads the pid file"
app=$(cat "$TMPD/app.pid" 2>/dev/null || echo 0)
like "$(cat "$TMPD/err")" "app.pid: following pid $app" "--pidfile: says which pid"
is "$(file $GOV)" "performance" "--pidfile: the knob stays changed while that process lives"
alive "$app"
ok $? "(still running after the check)"
finish
is "$trc" 0 "--pidfile: exec exits 0 once that process is gone"
if pristine; then ok 0 "--pidfile: tree equals the pristine copy"; else
	ok 1 "--pidfile: tree equals the pristine copy"; show_diff; fi
out=$(tt exec --pidfile x --no-follow -- true 2>&1)
is "$?" 2 "--pidfile with --no-follow: exit 2"

# no cgroup of this test's exec runs remains (another suite running at the
# same time may have a killed run's cgroup that its own next exec removes)
left=
for p in $ours; do
	[ -e "$OWN/tunetop-exec-$p" ] && left="$left $OWN/tunetop-exec-$p"
done
is "$left" "" "no tunetop-exec-PID cgroup of this test's runs remains"

done_testing
