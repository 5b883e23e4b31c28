#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a killed or hostile neighbour leaves must not fool the journal
# (issue 32): an owner killed with SIGKILL but not reaped yet (a zombie) is
# dead, so restore --orphans restores its changes; temporary files
# ".NAME.tunetop-PID-N" of a dead writer are removed by the next writing
# command, those of a live pid stay; a journal (or archive) that is a hard
# link, or not a regular file, is refused with one line and never appended
# to. Writes go to copied fixtures; the only processes are the test's own.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"
export TUNETOP_VERIFY_MS=0
G=sys/devices/system/cpu/cpufreq

# ---- a zombie owner is dead: restore --orphans restores its changes
fresh rk3588
rm -rf "$STATE"
rm -f "$TMPD/go" "$TMPD/exec.pid"
# the parent of tunetop exec becomes a sleep that never reaps it
sh -c '"$1" --root "$2" --state-dir "$3" exec -q cpufreq/policy4/governor=performance -- \
	sh -c "while [ ! -e \"\$0\" ]; do sleep 0.05; done" "$4" 2>/dev/null &
echo $! >"$5"; exec sleep 60' sh "$TUNETOP" "$root" "$STATE" "$TMPD/go" "$TMPD/exec.pid" &
holder=$!
until_ok "$LIMIT" test -s "$TMPD/exec.pid"
zpid=$(cat "$TMPD/exec.pid")
until_ok "$LIMIT" test "$(file $G/policy4/scaling_governor)" = performance
ok $? "exec applied its change"
# the shell has become the sleep (a shell could still reap its child)
until_ok "$LIMIT" test "$(cat /proc/"$holder"/comm 2>/dev/null)" = sleep
kill -KILL "$zpid"
until_ok "$LIMIT" test "$(awk '{ print $3 }' /proc/"$zpid"/stat 2>/dev/null)" = Z
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

done_testing
