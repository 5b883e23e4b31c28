#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Files tunetop opens by name never hang it and are regular files of a sane
# size (issue 13): a FIFO or a device named as a profile, a recording
# (report, --replay) or the journal is refused in one line "FILE: not a
# regular file" instead of blocking in open() or read(); a profile over
# 1 MiB is refused; a FIFO or symlink named journal (or journal.lock) in
# the state dir makes `journal` and `set` refuse (exit 1) and `snapshot`
# carry on without journal counts. A state dir given with a trailing slash
# (link/, link/.) is still seen to be a symlink. Every command runs under
# timeout(1), so a hang is a failure, not a stuck test. Writes go to copied
# fixtures only.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

command -v timeout >/dev/null 2>&1 || skip_all "timeout(1) not installed"
command -v mkfifo >/dev/null 2>&1 || skip_all "mkfifo not installed"
T=10 # seconds before a command counts as hung (timeout exits 124)
fresh rk3588
thp=sys/kernel/mm/transparent_hugepage/enabled
fifo="$TMPD/fifo"
mkfifo "$fifo"

# ---- profiles
for p in /dev/zero "$fifo"; do
	out=$(timeout $T "$TUNETOP" --root "$root" --state-dir "$STATE" apply "$p" 2>&1)
	is "$?" 2 "apply $p: exit 2 (not 124: it did not hang)"
	is "$out" "tunetop apply: $p: not a regular file" "apply $p: one line"
done
mkfifo "$TMPD/fifo.profile"
out=$(timeout $T "$TUNETOP" --root "$root" --state-dir "$STATE" apply --dry-run "$TMPD/fifo.profile" 2>&1)
is "$?" 2 "apply --dry-run FIFO.profile: exit 2"
like "$out" "fifo.profile: not a regular file" "named"
big="$TMPD/big.profile"
{
	printf '[profile]\ndescription = big\n[knobs]\nmm/thp = never\n'
	head -c 1100000 /dev/zero | tr '\0' '#'
	echo
} >"$big"
out=$(timeout $T "$TUNETOP" --root "$root" --state-dir "$STATE" apply "$big" 2>&1)
is "$?" 2 "a profile over 1 MiB: exit 2"
is "$out" "tunetop apply: $big: larger than 1 MiB" "says the limit"
pristine; ok $? "no profile changed anything"

# ---- recordings and results: report FILE, --replay FILE
for p in "$fifo" /dev/zero; do
	out=$(timeout $T "$TUNETOP" report "$p" 2>&1)
	is "$?" 1 "report $p: exit 1 (not 124)"
	is "$out" "tunetop report: $p: not a regular file" "report $p: one line"
done
out=$(timeout $T "$TUNETOP" --replay "$fifo" </dev/null 2>&1)
is "$?" 1 "--replay FIFO: exit 1 before the screen starts"
is "$out" "tunetop: --replay $fifo: not a regular file" "--replay FIFO: one line"

# ---- the journal
st="$TMPD/st-fifo"
mkdir -m 700 "$st"
mkfifo "$st/journal"
out=$(timeout $T "$TUNETOP" --root "$root" --state-dir "$st" journal 2>&1)
is "$?" 1 "journal with a FIFO named journal: exit 1 (not 124)"
is "$out" "tunetop journal: $st/journal: not a regular file" "one line naming it"
out=$(timeout $T "$TUNETOP" --root "$root" --state-dir "$st" set mm/thp=never 2>&1)
is "$?" 1 "set: exit 1"
is "$(file $thp)" "always [madvise] never" "set wrote nothing"
out=$(timeout $T "$TUNETOP" --root "$root" --state-dir "$st" snapshot --json 2>&1)
is "$?" 0 "snapshot carries on"
like "$out" '"journal":null' "snapshot: journal counts n/a"
out=$(timeout $T "$TUNETOP" --root "$root" --state-dir "$st" undo 2>&1)
is "$?" 1 "undo: exit 1"

st="$TMPD/st-lock"
mkdir -m 700 "$st"
mkfifo "$st/journal.lock"
out=$(timeout $T "$TUNETOP" --root "$root" --state-dir "$st" set mm/thp=never 2>&1)
is "$?" 1 "a FIFO named journal.lock: set exits 1 (not 124)"
is "$out" "tunetop set: $st/journal.lock: not a regular file" "named"

st="$TMPD/st-link"
mkdir -m 700 "$st"
: >"$TMPD/elsewhere"
ln -s "$TMPD/elsewhere" "$st/journal"
out=$(timeout $T "$TUNETOP" --root "$root" --state-dir "$st" set mm/thp=never 2>&1)
is "$?" 1 "a symlink named journal: set exits 1"
like "$out" "$st/journal: a symlink; refusing" "named"
is "$(cat "$TMPD/elsewhere")" "" "the link target was not written"
pristine; ok $? "nothing changed"

# ---- a state dir that is a symlink, with a trailing slash
mkdir -m 700 "$TMPD/real"
ln -s real "$TMPD/link"
for d in "$TMPD/link/" "$TMPD/link//" "$TMPD/link/." "$TMPD/link/./"; do
	out=$("$TUNETOP" --root "$root" --state-dir "$d" set mm/thp=never 2>&1)
	is "$?" 1 "--state-dir $d: exit 1"
	like "$out" "state dir $TMPD/link is a symlink; refusing" "--state-dir $d: seen as the symlink"
	out=$(TUNETOP_STATE_DIR=$d "$TUNETOP" --root "$root" set mm/thp=never 2>&1)
	is "$?" 1 "TUNETOP_STATE_DIR=$d: exit 1"
done
[ -z "$(ls -A "$TMPD/real")" ]; ok $? "nothing was written through the link"
pristine; ok $? "nothing changed"
out=$("$TUNETOP" --root "$root" --state-dir "$TMPD/real/" set mm/thp=never 2>&1)
is "$?" 0 "a real directory with a trailing slash still works"
"$TUNETOP" --root "$root" --state-dir "$TMPD/real" restore >/dev/null 2>&1
pristine; ok $? "and restores"
done_testing
