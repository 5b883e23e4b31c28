#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The undo journal: undo / undo ID / undo -n N / restore (idempotent), values
# changed by someone else, another boot id, torn lines, two writers at once,
# unusable state dirs.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

P=sys/devices/system/cpu/cpufreq
K=proc/sys/kernel

# ---- undo the newest change, a given change, the last N
fresh rk3588
tt set cpufreq/policy0/governor=performance >/dev/null         # change 1
tt set cpufreq/policy4/governor=powersave mm/thp=never >/dev/null # change 2 (ids 2, 3)
tt set sched/rt_runtime_us=-1 >/dev/null                       # change 4
tt set cpufreq/policy6/governor=schedutil >/dev/null           # change 5
j=$(tt journal)
like "$j" "^ID +CHANGE +TIME +STATE +PID +ADDRESS: OLD -> NEW" "journal header"
like "$j" "
2 +2 +[0-9-]+ [0-9:]+ +active +[0-9]+- +cpufreq/policy4/governor: interactive -> powersave" "journal row: id, change, time, state, pid, address, old -> new"
like "$j" "
3 +2 .*mm/thp: madvise -> never" "second record of change 2"
out=$(tt undo)
is "$out" "cpufreq/policy6/governor: schedutil -> interactive (restored)" "undo reverts the newest change"
out=$(tt undo 2)
like "$out" "mm/thp: never -> madvise \\(restored\\)" "undo ID reverts a whole change (thp)"
like "$out" "cpufreq/policy4/governor: powersave -> interactive \\(restored\\)" "undo ID (governor)"
out=$(tt undo 3)
is "$out" "nothing to undo" "undo of a change already undone: nothing to do"
out=$(tt undo 99 2>&1)
is "$?" 2 "undo of an unknown id: exit 2"
like "$out" "no change 99 in the journal" "says so"
out=$(tt undo -n 2)
like "$out" "sched/rt_runtime_us: -1 -> 950000" "undo -n 2: rt"
like "$out" "cpufreq/policy0/governor: performance -> interactive" "undo -n 2: policy0"
if pristine; then ok 0 "everything undone"; else ok 1 "everything undone"; show_diff; fi
is "$(tt restore)" "nothing to restore" "restore after undo: nothing to restore"
tt restore >/dev/null; ok $? "restore is idempotent (exit 0)"
like "$(tt journal)" "5 +5 .* undone .*cpufreq/policy6/governor: interactive -> schedutil \\(restored\\)" "journal keeps the history"

# ---- changed by someone else since: reported, left alone, --force restores
fresh rk3588
tt set cpufreq/policy4/governor=performance >/dev/null
echo powersave >"$root/$P/policy4/scaling_governor"
out=$(tt restore 2>&1)
is "$?" 1 "value changed by someone else: restore exits 1"
like "$out" "cpufreq/policy4/governor: changed by someone else since \\(now powersave, tunetop wrote performance\\); left alone \\(use --force to restore interactive\\)" \
	"says it was changed by someone else"
is "$(file $P/policy4/scaling_governor)" "powersave" "their value is left alone"
out=$(tt restore --force 2>&1)
is "$?" 0 "restore --force exits 0"
like "$out" "restoring anyway" "--force says it overrides"
if pristine; then ok 0 "forced restore: tree as before"; else ok 1 "forced restore"; show_diff; fi

# ---- a newer change of ours on the same knob
fresh rk3588
tt set cpufreq/policy4/governor=performance >/dev/null
id1=$(tt journal --json | grep '"change"' | tail -1 | tr -dc 0-9)
tt set cpufreq/policy4/governor=powersave >/dev/null
out=$(tt undo "$id1" 2>&1)
is "$?" 1 "undo of an older change under a newer one: exit 1"
like "$out" "changed since by change [0-9]+ \\(now powersave\\); undo that first" "names the newer change"
tt restore >/dev/null
pristine; ok $? "restore unwinds both, newest first"

# ---- another boot: archived with a notice, never replayed
fresh rk3588
tt set cpufreq/policy4/governor=performance sched/rt_runtime_us=-1 >/dev/null
like "$(tt journal)" "active" "entries are active before the reboot"
echo 11111111-2222-4333-8444-555555555555 >"$root/$K/random/boot_id"
j=$(tt journal)
like "$j" "other-boot .*cpufreq/policy4/governor" "journal marks entries from an earlier boot"
like "$j" "from an earlier boot; they will be archived, never replayed" "and explains"
out=$(tt restore 2>&1)
is "$?" 0 "restore after a reboot exits 0"
like "$out" "archived 2 journal entries from an earlier boot \\(boot id 5f3c9e2a-8d41-4b7e-a6c3-1e9f0d2b7a54\\) to $STATE/journal.archive" "notice names the count, boot id and archive"
like "$out" "nothing to restore" "nothing replayed"
is "$(file $P/policy4/scaling_governor)" "performance" "the value was not replayed (the reboot reset the real one)"
grep -qF "root=$root	addr=cpufreq/policy4/governor" "$STATE/journal.archive"; ok $? "entries moved to the archive"
if grep -qF "root=$root	" "$STATE/journal"; then ok 1 "and out of the journal"; else ok 0 "and out of the journal"; fi
tt set cpufreq/policy0/governor=performance >/dev/null
id=$(tt journal --json | grep '"id"' | tail -1 | tr -dc 0-9)
ok $([ "$id" -gt 2 ]; echo $?) "ids keep counting after archiving ($id)"
tt restore >/dev/null

# ---- torn last line (crash while appending): ignored, repaired, restore works
fresh rk3588
tt set 'cpuidle/*/cpu-sleep/disable=1' >/dev/null
printf 'W\tseq=99\ttxn=99\ttime=1\tpid=1\trun=1-1\taddr=mm/thp\ttarg' >>"$STATE/journal"
like "$(tt journal)" "note: 1 torn or corrupt journal lines ignored" "journal reports the torn line"
tt restore >/dev/null
ok $? "restore with a torn last line"
if pristine; then ok 0 "restored"; else ok 1 "restored"; show_diff; fi
tail -c 1 "$STATE/journal" | od -c | grep -q '\\n'; ok $? "the torn tail was cut, the file ends with a newline"

# ---- two writers at once: one waits for the other; ids unique; all restorable
fresh rk3588
pids=
for c in 0 1 2 3 4 5 6 7; do
	tt set "cpuidle/cpu$c/state1/disable=1" >"$TMPD/par$c" 2>&1 &
	pids="$pids $!"
done
fails=0
for p in $pids; do wait "$p" || fails=$((fails + 1)); done
is "$fails" 0 "eight concurrent set processes all succeed"
ids=$(tt journal --json | grep '"id"' | tr -dc '0-9\n' | sort | uniq -d | wc -l)
is "$ids" 0 "no duplicate ids"
is "$(tt journal --json | grep -c '"state": "active"')" 8 "eight active entries"
is "$(grep -c '^W' "$STATE/journal")" "$(grep -c '^C' "$STATE/journal")" "every write has its commit record"
tt restore >/dev/null
if pristine; then ok 0 "concurrent changes restored"; else ok 1 "concurrent changes restored"; show_diff; fi

# a writer that keeps the lock: the second waits (bounded) then refuses clearly
flock "$STATE/journal.lock" sleep 3 &
fl=$!
# until it holds the lock (a loaded machine may take a while to start it)
i=0
while flock -n "$STATE/journal.lock" true && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
out=$(TUNETOP_LOCK_TIMEOUT_MS=300 tt set mm/thp=never 2>&1)
is "$?" 1 "lock held elsewhere: exit 1"
like "$out" "journal .*locked" "says the journal is locked"
is "$(file sys/kernel/mm/transparent_hugepage/enabled)" "always [madvise] never" "nothing written"
out=$("$TUNETOP" --root "$root" --state-dir "$STATE" get mm/thp)
is "$out" "mm/thp=madvise" "read-only commands do not need the lock"
like "$(tt journal)" "ID" "journal listing does not need the lock"
kill "$fl" 2>/dev/null
wait "$fl" 2>/dev/null

# ---- unusable state dirs
fresh rk3588
mkdir -p "$TMPD/real" && chmod 700 "$TMPD/real" && ln -s "$TMPD/real" "$TMPD/link"
out=$("$TUNETOP" --root "$root" --state-dir "$TMPD/link" set mm/thp=never 2>&1)
is "$?" 1 "symlink state dir: exit 1"
like "$out" "state dir $TMPD/link is a symlink; refusing" "says it is a symlink"
mkdir -p "$TMPD/open" && chmod 777 "$TMPD/open"
out=$("$TUNETOP" --root "$root" --state-dir "$TMPD/open" set mm/thp=never 2>&1)
is "$?" 1 "mode 0777 state dir: exit 1"
like "$out" "state dir $TMPD/open is writable by others \\(mode 0777\\); refusing" "says it is writable by others"
: >"$TMPD/afile"
out=$("$TUNETOP" --root "$root" --state-dir "$TMPD/afile" set mm/thp=never 2>&1)
is "$?" 1 "state dir that is a file: exit 1"
is "$(printf '%s\n' "$out" | grep -c .)" 1 "one line"
pristine; ok $? "nothing changed with an unusable state dir"
out=$(TUNETOP_STATE_DIR="$TMPD/envstate" "$TUNETOP" --root "$root" set mm/thp=never)
ok $? "TUNETOP_STATE_DIR is used"
[ -f "$TMPD/envstate/journal" ]; ok $? "journal created there"
is "$(stat -c %a "$TMPD/envstate")" 700 "state dir created with mode 0700"
TUNETOP_STATE_DIR="$TMPD/envstate" "$TUNETOP" --root "$root" restore >/dev/null
pristine; ok $? "restored"

# ---- entries of another root are not touched
fresh rk3588
r1=$root
tt set mm/thp=never >/dev/null
fresh rk3588
out=$(tt restore)
is "$out" "nothing to restore" "restore only acts on its own root"
like "$(tt journal)" "belong to another root" "journal mentions the other root"
root=$r1
tt restore >/dev/null
pristine; ok $? "the other root restores with its --root"

done_testing
