#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# exec --pidfile follows only what CMD started (issue 32): a pid file naming
# a stranger (a `setsid sleep` of this test), pid 1 or a descendant of
# another user is refused with one line and never signalled; exec then
# follows CMD alone and ends 5 s after it. The legitimate case, a start
# script whose daemon forked away, is followed and gets exec's SIGTERM.
# The three refusals run at once (each waits out the 5 s). Writes go to
# copied fixtures; signals only to the test's own processes.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"
export TUNETOP_VERIFY_MS=0
GOV=sys/devices/system/cpu/cpufreq/policy4/scaling_governor
make_start_script
comm_is() { [ "$(cat /proc/"$1"/comm 2>/dev/null)" = "$2" ]; }

# start_case NAME SCRIPT: exec with SCRIPT as CMD on a root of its own; the
# pid file is $TMPD/NAME.pid, stderr $TMPD/NAME.err, exec's pid in x_NAME
start_case() {
	_r="$TMPD/root-$1"
	cp -a "$FIXTURES/rk3588" "$_r"
	"$TUNETOP" --root "$_r" --state-dir "$TMPD/state-$1" exec --pidfile "$TMPD/$1.pid" \
		cpufreq/policy4/governor=performance -- sh -c "$2" sh "$TMPD/$1.pid" \
		2>"$TMPD/$1.err" &
	eval "x_$1=\$!"
}
# refused NAME: its line (or, unfixed, "following pid") is there
said() { has_line "$TMPD/$1.err" "not followed\|following pid"; }

# a stranger: not below CMD
setsid sleep 100 &
stranger=$!
until_ok "$LIMIT" comm_is "$stranger" sleep
start_case stranger "echo $stranger >\"\$1\""
# pid 1
start_case init 'echo 1 >"$1"'
# a descendant of CMD that runs as another user (root only)
other=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	other=yes
	start_case other 'setpriv --reuid=nobody --regid=nogroup --clear-groups sleep 100 </dev/null >/dev/null 2>&1 &
echo $! >"$1"'
fi

until_ok "$LIMIT" said stranger
like "$(cat "$TMPD/stranger.err")" "tunetop exec: pidfile $TMPD/stranger.pid names pid $stranger, which is not sh or one of its descendants: not followed" \
	"a stranger's pid: one line, not followed"
kill -TERM "$x_stranger"
_n=0
while alive "$x_stranger" && [ $_n -lt 300 ]; do sleep 0.1; _n=$((_n + 1)); done
alive "$x_stranger" && kill -KILL "$x_stranger"
wait "$x_stranger"
ok 0 "exec ended"
alive "$stranger"
ok $? "the stranger survived exec's SIGTERM"
is "$(cat "$TMPD/root-stranger/$GOV")" interactive "its change is restored"

until_ok "$LIMIT" said init
like "$(cat "$TMPD/init.err")" "pidfile $TMPD/init.pid names pid 1, which is not sh or one of its descendants: not followed" \
	"pid 1: one line, not followed"
_n=0
while alive "$x_init" && [ $_n -lt 300 ]; do sleep 0.1; _n=$((_n + 1)); done
alive "$x_init"
ok $((! $?)) "pid 1: exec does not hold on for it (ends by itself after CMD)"
alive "$x_init" && kill -KILL "$x_init"
wait "$x_init"
is "$?" 0 "pid 1: exit status of CMD"
like "$(cat "$TMPD/init.err")" "names no running process of sh 5 s after it exited; ending" "says why it ends"
is "$(cat "$TMPD/root-init/$GOV")" interactive "pid 1: change restored"

if [ -n "$other" ]; then
	until_ok "$LIMIT" said other
	opid=$(cat "$TMPD/other.pid" 2>/dev/null || echo 0)
	like "$(cat "$TMPD/other.err")" "pidfile $TMPD/other.pid names pid $opid, which runs as uid [0-9]+, not as sh \\(uid 0\\): not followed" \
		"another user's descendant: one line, not followed"
	_n=0
	while alive "$x_other" && [ $_n -lt 300 ]; do sleep 0.1; _n=$((_n + 1)); done
	alive "$x_other" && kill -KILL "$x_other"
	wait "$x_other"
	is "$?" 0 "another user's descendant: exec ends by itself"
	alive "$opid"
	ok $? "that process runs on"
	[ "$opid" -gt 1 ] && kill "$opid" 2>/dev/null
else
	skip "another user's descendant is refused" "needs root and setpriv"
fi
kill "$stranger" 2>/dev/null

# the legitimate case: the daemon CMD left is followed and gets SIGTERM
fresh rk3588
exec_bg --pidfile "$TMPD/app.pid" cpufreq/policy4/governor=performance -- "$TMPD/start.sh" "$TMPD"
until_ok "$LIMIT" has_line "$TMPD/err" "following pid"
ok $? "a daemon of CMD's is followed"
app=$(cat "$TMPD/app.pid" 2>/dev/null || echo 0)
until_ok "$LIMIT" has_line "$TMPD/err" "holding while"
ok $? "CMD exited, exec holds on"
is "$(file $GOV)" performance "the change stays while the daemon runs"
kill -TERM "$tpid"
wait "$tpid"
ok $? "SIGTERM: exec ends"
until_ok "$LIMIT" dead "$app"
ok $? "SIGTERM was forwarded to the daemon"
unlike "$(cat "$TMPD/err")" "not followed" "no refusal for it"
if pristine; then ok 0 "tree restored"; else ok 1 "tree restored"; show_diff; fi

done_testing
