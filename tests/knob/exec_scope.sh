#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop exec in a transient systemd scope (issue 15): where systemd runs
# the machine, the app runs in tunetop-exec-PID.scope through
# `systemd-run --scope --collect`, and the lock lasts until that scope is
# empty. This machine may have no systemd, so TUNETOP_SYSTEMD_RUN names a
# fake systemd-run that does what the real one does to the process: it puts
# itself into a cgroup named after --unit (below the clearly named test
# cgroup tunetop-test-scope-PID.slice at the cgroup2 root, removed at the
# end) and execs the app in place. Skipped where cgroup v2 is not writable.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

GOV=sys/devices/system/cpu/cpufreq/policy4/scaling_governor

MNT=$(awk '/ - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
SLICE="$MNT/tunetop-test-scope-$$.slice"
if [ -z "$MNT" ] || ! mkdir "$SLICE" 2>/dev/null; then
	skip "exec in a systemd scope" "cgroup v2 not writable here (${MNT:-not mounted})"
	done_testing
	exit 0
fi
# the test cgroup goes, whatever happens (its scopes first; they are empty
# once the apps have ended)
cleanup_slice() {
	for d in "$SLICE"/*/; do [ -d "$d" ] && rmdir "$d" 2>/dev/null; done
	rmdir "$SLICE" 2>/dev/null
}
trap 'cleanup_slice; tap_cleanup' EXIT

# the fake systemd-run: records its arguments, joins the scope, execs
cat >"$TMPD/systemd-run" <<EOF2
#!/bin/sh
printf '%s\n' "\$@" >"$TMPD/args"
unit=
while [ \$# -gt 0 ]; do
	case \$1 in
	--unit=*) unit=\${1#--unit=} ;;
	--) shift; break ;;
	esac
	shift
done
[ -n "\$FAKE_FAIL" ] && { echo "Failed to start transient scope unit: fake" >&2; exit 1; }
mkdir -p "$SLICE/\$unit" && echo \$\$ >"$SLICE/\$unit/cgroup.procs" || exit 1
exec "\$@"
EOF2
chmod +x "$TMPD/systemd-run"
export TUNETOP_SYSTEMD_RUN="$TMPD/systemd-run"

# the app: a start script that backgrounds a waiter and exits at once
# (make_start_script, alive, dead: tests/knob/common.sh)
make_start_script

# ---- a daemonizing app keeps the lock while its scope has processes
fresh rk3588
exec_bg -p rk3588-npu -- "$TMPD/start.sh" "$TMPD"
until_ok "$LIMIT" test -s "$TMPD/app.pid"
ok $? "the start script ran and left its process"
app=$(cat "$TMPD/app.pid" 2>/dev/null || echo 0)
until_ok "$LIMIT" has_line "$TMPD/err" "holding while\|nothing left to follow"
like "$(cat "$TMPD/err")" "holding while processes remain in its scope tunetop-exec-$tpid.scope" \
	"exec holds on while the scope has processes, and names the scope"
is "$(tr '\n' ' ' <"$TMPD/args")" "--scope --quiet --collect --unit=tunetop-exec-$tpid.scope -- $TMPD/start.sh $TMPD " \
	"systemd-run is called as systemd-run --scope --quiet --collect --unit=tunetop-exec-PID.scope -- CMD"
like "$(cat /proc/"$app"/cgroup 2>/dev/null)" "0::.*/tunetop-test-scope-$$.slice/tunetop-exec-$tpid.scope\$" \
	"the backgrounded process runs in the scope"
is "$(file $GOV)" "performance" "the knob stays changed while the scope has processes"
alive "$tpid"
ok $? "tunetop exec still runs"
finish
is "$trc" 0 "exec exits with the start script's status"
dead "$app"
ok $? "the app's process is gone"
if pristine; then ok 0 "tree equals the pristine copy after the scope emptied"; else
	ok 1 "tree equals the pristine copy after the scope emptied"; show_diff; fi
[ -d "$SLICE/tunetop-exec-$tpid.scope" ]
ok $? "the scope is left to systemd (--collect removes it), not removed by tunetop"

# ---- SIGTERM to tunetop reaches the processes left in the scope
fresh rk3588
exec_bg mm/thp=never -- "$TMPD/start.sh" "$TMPD"
until_ok "$LIMIT" has_line "$TMPD/err" "holding while"
ok $? "second run: exec holds on"
app=$(cat "$TMPD/app.pid" 2>/dev/null || echo 0)
kill -TERM "$tpid"
wait "$tpid"
ok $? "SIGTERM: exec ends"
until_ok "$LIMIT" dead "$app"
ok $? "SIGTERM was forwarded to the process left in the scope"
pristine
ok $? "tree restored"

# ---- systemd-run fails before the app runs: one warning, the tree restored
fresh rk3588
FAKE_FAIL=1 exec_bg -p rk3588-npu -- "$TMPD/start.sh" "$TMPD"
wait "$tpid"
is "$?" 1 "systemd-run failing: exec exits with its status"
like "$(cat "$TMPD/err")" "warning: .*start.sh ended before it was seen in the systemd scope tunetop-exec-$tpid.scope .*status 1.*TUNETOP_SYSTEMD_RUN=no" \
	"one warning names the scope, the status and the way out"
has_line "$TMPD/err" "Failed to start transient scope unit"
ok $? "systemd-run's own message is passed on"
[ ! -e "$TMPD/app.pid" ]
ok $? "the app never ran"
if pristine; then ok 0 "tree restored after systemd-run failed"; else
	ok 1 "tree restored after systemd-run failed"; show_diff; fi

# ---- TUNETOP_SYSTEMD_RUN naming nothing: one warning, the app runs unfollowed
fresh rk3588
out=$(TUNETOP_SYSTEMD_RUN="$TMPD/no-such-systemd-run" tt exec mm/thp=never -- true 2>&1)
is "$?" 0 "a missing systemd-run: the app still runs"
like "$out" "warning: no cgroup of its own for true .TUNETOP_SYSTEMD_RUN=$TMPD/no-such-systemd-run: No such file or directory." \
	"one warning names the variable and why"
pristine
ok $? "tree restored"

# ---- TUNETOP_SYSTEMD_RUN=no: no scope, the child cgroup of exec_follow.sh
fresh rk3588
rm -f "$TMPD/args"
out=$(TUNETOP_SYSTEMD_RUN=no tt exec mm/thp=never -- sh -c 'cat /proc/self/cgroup' 2>&1)
like "$out" "0::.*/tunetop-exec-[0-9]*\$" "TUNETOP_SYSTEMD_RUN=no: the app runs in the child cgroup"
[ ! -e "$TMPD/args" ]
ok $? "TUNETOP_SYSTEMD_RUN=no: systemd-run is not called"

done_testing
