#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Numeric environment variables are parsed strictly (issue 13): a bad
# TUNETOP_LOCK_TIMEOUT_MS ("abc", "12abc", "-1", "1.5", out of range) is one
# line naming the variable and exit 2 for every command, before anything is
# touched; an empty one means the default; a good one is used (a writer
# gives up on a held lock after that long). TUNETOP_VERIFY_MS the same, and
# empty is an error there. Writes go to a copied fixture.
. "$TT_SRCDIR/tests/lib.sh"

root=$(copy_fixture rk3588)
st="$TMPD/st"
thp=sys/kernel/mm/transparent_hugepage/enabled
before=$(cat "$root/$thp")

for v in abc 12abc -1 1.5 " " 99999999999 18446744073709551616; do
	TUNETOP_LOCK_TIMEOUT_MS=$v "$TUNETOP" --root "$root" --state-dir "$st" set mm/thp=never \
		>"$TMPD/out" 2>"$TMPD/err"
	is "$?" 2 "TUNETOP_LOCK_TIMEOUT_MS='$v': set exits 2"
	is "$(wc -l <"$TMPD/err" | tr -d ' ')" 1 "'$v': one line"
	like "$(cat "$TMPD/err")" "^tunetop: TUNETOP_LOCK_TIMEOUT_MS: '$v' is (not a whole number|out of range) \(0 to 2147483647\)$" \
		"'$v': names the variable and why"
done
is "$(cat "$root/$thp")" "$before" "nothing was written"
[ ! -e "$st/journal" ]; ok $? "no journal entry either"

# TUNETOP_VERIFY_MS (issue 32): 0 to 60000; a bad value or an empty one is
# exit 2 with one line, never the 500 ms default
for v in abc -5 60001 "" 1.5; do
	TUNETOP_VERIFY_MS=$v "$TUNETOP" --root "$root" --state-dir "$st" set mm/thp=never \
		>"$TMPD/out" 2>"$TMPD/err"
	is "$?" 2 "TUNETOP_VERIFY_MS='$v': set exits 2"
	is "$(wc -l <"$TMPD/err" | tr -d ' ')" 1 "TUNETOP_VERIFY_MS='$v': one line"
	like "$(cat "$TMPD/err")" "^tunetop: TUNETOP_VERIFY_MS: '$v' is (not a whole number|out of range|empty) \(0 to 60000\)$" \
		"TUNETOP_VERIFY_MS='$v': names the variable and the range"
done
is "$(cat "$root/$thp")" "$before" "nothing was written for a bad TUNETOP_VERIFY_MS"
TUNETOP_VERIFY_MS=60000 "$TUNETOP" --root "$root" snapshot >/dev/null 2>&1
is "$?" 0 "TUNETOP_VERIFY_MS=60000 (the top of the range) is taken"

TUNETOP_LOCK_TIMEOUT_MS=abc "$TUNETOP" --root "$root" snapshot >/dev/null 2>&1
is "$?" 2 "a read-only command refuses the bad value too"
TUNETOP_LOCK_TIMEOUT_MS=abc "$TUNETOP" --version >/dev/null 2>&1
is "$?" 0 "--version still works"

TUNETOP_LOCK_TIMEOUT_MS= "$TUNETOP" --root "$root" --state-dir "$st" set mm/thp=never >/dev/null 2>&1
is "$?" 0 "empty: the default"
"$TUNETOP" --root "$root" --state-dir "$st" restore >/dev/null 2>&1
is "$(cat "$root/$thp")" "$before" "restored"

# a good value is used: the lock is held elsewhere, the writer gives up
if command -v flock >/dev/null 2>&1; then
	flock "$st/journal.lock" sleep 5 &
	fl=$!
	# until it holds the lock (a loaded machine may take a while to start it)
	i=0
	while flock -n "$st/journal.lock" true && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	t0=$(date +%s%N)
	out=$(TUNETOP_LOCK_TIMEOUT_MS=200 "$TUNETOP" --root "$root" --state-dir "$st" set mm/thp=never 2>&1)
	rc=$?
	t1=$(date +%s%N)
	is "$rc" 1 "TUNETOP_LOCK_TIMEOUT_MS=200 with the lock held: exit 1"
	like "$out" "journal .*locked" "says the journal is locked"
	# what it waited, as it says (a wall-clock bound would break on a
	# loaded machine); the time taken only as information
	like "$out" "waited 200 ms" \
		"gave up after 200 ms, not the 2 s default (took $(((t1 - t0) / 1000000)) ms in all)"
	kill "$fl" 2>/dev/null
	wait "$fl" 2>/dev/null
else
	skip "lock timeout used" "flock(1) not installed"
fi
done_testing
