#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a killed or hostile neighbour leaves must not fool the journal
# (issue 32): an owner killed with SIGKILL but not reaped yet (a zombie) is
# dead, so restore --orphans restores its changes; temporary files
# ".NAME.tunetop-PID-N" of a dead writer are removed by the next writing
# command, those of a live pid stay; a journal (or archive) that is a hard
# link, or not a regular file, is refused with one line and never appended
# to; a thread change an unprivileged user could not undo (RLIMIT_NICE) is
# refused. Writes go to copied fixtures; the only processes are the test's own.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"
export TUNETOP_VERIFY_MS=0
G=sys/devices/system/cpu/cpufreq
# (until_ok runs a command again and again: the values are read in these)
comm_is() { [ "$(cat /proc/"$1"/comm 2>/dev/null)" = "$2" ]; }
state_is() { [ "$(awk '{ print $3 }' /proc/"$1"/stat 2>/dev/null)" = "$2" ]; }

# ---- a zombie owner is dead: restore --orphans restores its changes
fresh rk3588
rm -rf "$STATE"
rm -f "$TMPD/go" "$TMPD/exec.pid"
# the parent of tunetop exec becomes a sleep that never reaps it
sh -c '"$1" --root "$2" --state-dir "$3" exec -q cpufreq/policy4/governor=performance -- \
	sh -c "while [ ! -e \"\$0\" ]; do sleep 0.05; done" "$4" 2>"$6" &
echo $! >"$5"; exec sleep 60' sh "$TUNETOP" "$root" "$STATE" "$TMPD/go" "$TMPD/exec.pid" "$TMPD/zerr" &
holder=$!
until_ok "$LIMIT" test -s "$TMPD/exec.pid"
zpid=$(cat "$TMPD/exec.pid")
gov4_is() { [ "$(file $G/policy4/scaling_governor)" = "$1" ]; }
until_ok "$LIMIT" gov4_is performance
ok $? "exec applied its change" || diag "$(cat "$TMPD/zerr")"
# the shell has become the sleep (a shell could still reap its child)
until_ok "$LIMIT" comm_is "$holder" sleep
kill -KILL "$zpid"
until_ok "$LIMIT" state_is "$zpid" Z
ok $? "the killed exec is a zombie nobody reaps"
touch "$TMPD/go" # its CMD ends by itself
out=$(tt restore --orphans 2>&1)
is "$?" 0 "restore --orphans exits 0"
like "$out" "cpufreq/policy4/governor: performance -> interactive \\(restored\\)" \
	"the zombie's change is restored"
if pristine; then ok 0 "zombie owner: diff -r equal"; else ok 1 "zombie owner: diff -r equal"; show_diff; fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null

# ---- temporary files of a killed writer: the next write removes them
fresh rk3588
rm -rf "$STATE"
tt set --no-verify cpufreq/policy4/governor=performance >/dev/null 2>&1
sh -c 'exit 0' &
deadpid=$!
wait "$deadpid"
stale="$root/$G/policy4/.scaling_governor.tunetop-$deadpid-0"
live="$root/$G/policy4/.scaling_governor.tunetop-$$-7"
echo powersave >"$stale"
echo powersave >"$live"
tt set --no-verify mm/thp=never >/dev/null 2>&1
ok $? "another set on the root"
[ ! -e "$stale" ]
ok $? "the temporary file of a dead pid is removed by the next write"
[ -e "$live" ]
ok $? "the one of a live pid stays"
rm -f "$live"
tt restore >/dev/null 2>&1
if pristine; then ok 0 "temporary files: diff -r equal after restore"; else
	ok 1 "temporary files: diff -r equal after restore"; show_diff; fi

# ---- a journal that is a hard link, or not a regular file: refused
fresh rk3588
rm -rf "$STATE"
mkdir -m 700 "$STATE"
printf 'precious\n' >"$TMPD/outside"
ln "$TMPD/outside" "$STATE/journal"
tt set --no-verify mm/thp=never >/dev/null 2>"$TMPD/err"
is "$?" 1 "journal with 2 hard links: set exits 1"
is "$(wc -l <"$TMPD/err" | tr -d ' ')" 1 "one line"
like "$(cat "$TMPD/err")" "$STATE/journal: has 2 hard links; refusing" "names the file and the reason"
is "$(cat "$TMPD/outside")" precious "the other name's file is not appended to"
pristine
ok $? "nothing written to the root"
rm -f "$STATE/journal"
ln "$TMPD/outside" "$STATE/journal.archive"
tt set --no-verify mm/thp=never >/dev/null 2>"$TMPD/err"
is "$?" 1 "journal.archive with 2 hard links: set exits 1"
like "$(cat "$TMPD/err")" "journal.archive: has 2 hard links" "names the archive"
is "$(cat "$TMPD/outside")" precious "(still untouched)"
rm -f "$STATE/journal.archive"
mkdir "$STATE/journal"
tt set --no-verify mm/thp=never >/dev/null 2>"$TMPD/err"
is "$?" 1 "a journal that is a directory: set exits 1"
like "$(cat "$TMPD/err")" "$STATE/journal: not a regular file" "says so"
rmdir "$STATE/journal"
pristine
ok $? "nothing written to the root"

# ---- nothing applied that cannot be undone: as an unprivileged user, on
# its own process, a raise of nice (or SCHED_IDLE) that it could not take
# back is refused with the reason and not journaled
grp=nogroup
getent group nogroup >/dev/null 2>&1 || grp=nobody
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1 &&
	command -v prlimit >/dev/null 2>&1 &&
	setpriv --reuid=nobody --regid="$grp" --clear-groups "$TUNETOP" --version >/dev/null 2>&1; then
	ns=$(mktemp -d /tmp/tunetop-nobody.XXXXXX)
	chown nobody "$ns"
	chmod 700 "$ns"
	asnobody() { setpriv --reuid=nobody --regid="$grp" --clear-groups "$@"; }
	# the target starts at nice 0 whatever the test runs at (a niced make)
	nice -n "$((0 - $(nice)))" setpriv --reuid=nobody --regid="$grp" --clear-groups \
		sh -c 'sleep 100 </dev/null >/dev/null 2>&1 & echo $! >"$1/pid"' sh "$ns"
	p=$(cat "$ns/pid")
	prlimit --pid "$p" --nice=0:0 2>/dev/null
	nice0=$(ps -o ni= -p "$p" | tr -d ' ')
	out=$(asnobody "$TUNETOP" --state-dir "$ns" set --no-verify "thread/$p/nice=5" 2>&1)
	is "$?" 1 "as nobody, RLIMIT_NICE 0: set nice=5 on its own process exits 1"
	like "$out" "thread/$p/nice: EPERM: nice 5 could not be undone: putting nice $nice0 back needs CAP_SYS_NICE or RLIMIT_NICE of at least $((20 - nice0)) \\(the thread's is 0\\)" \
		"says why: it could not be put back"
	is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 1 "in one line"
	is "$(ps -o ni= -p "$p" | tr -d ' ')" "$nice0" "nice unchanged"
	is "$(grep -c '^W' "$ns/journal" 2>/dev/null || echo 0)" 0 "nothing journaled"
	out=$(asnobody "$TUNETOP" --state-dir "$ns" set --no-verify "thread/$p/policy=idle" 2>&1)
	is "$?" 1 "SCHED_IDLE that could not be left again: exit 1"
	like "$out" "thread/$p/policy: EPERM: idle could not be undone: leaving SCHED_IDLE needs CAP_SYS_NICE or RLIMIT_NICE" \
		"says why"
	# with RLIMIT_NICE high enough to go back, the change is made and undone
	# (raising a limit needs CAP_SYS_RESOURCE, which a container may lack)
	if prlimit --pid "$p" --nice=20:20 2>/dev/null; then
		asnobody "$TUNETOP" --state-dir "$ns" set --no-verify "thread/$p/nice=5" >/dev/null 2>&1
		is "$?" 0 "RLIMIT_NICE 20: set nice=5 is allowed"
		is "$(ps -o ni= -p "$p" | tr -d ' ')" 5 "nice is 5"
		asnobody "$TUNETOP" --state-dir "$ns" undo >/dev/null 2>&1
		is "$?" 0 "and undone"
		is "$(ps -o ni= -p "$p" | tr -d ' ')" "$nice0" "nice back"
	else
		for d in "allowed" "set" "undo" "back"; do
			skip "RLIMIT_NICE 20: $d" "prlimit cannot raise RLIMIT_NICE here (no CAP_SYS_RESOURCE)"
		done
	fi
	kill "$p" 2>/dev/null
	rm -rf "$ns"
else
	for d in "exit 1" "why" "one line" "unchanged" "not journaled" "idle exit 1" "idle why" \
		"allowed" "set" "undo" "back"; do
		skip "as nobody: undoable nice: $d" "not root, or no setpriv/prlimit/nobody"
	done
fi

done_testing
