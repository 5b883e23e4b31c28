#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# snapshot --json carries "journal": {"entries", "active", "orphaned"} for
# the root it reads (design §8): read without the lock, a missing state dir
# is not created (and holds nothing), an unusable one gives null; changes of
# another root do not count.
. "$TT_SRCDIR/tests/lib.sh"

root=$(copy_fixture rk3588)
other=$(copy_fixture rk3588)
st=$TMPD/state
jget() { # ROOT STATE_DIR -> "entries active orphaned" or "null"
	"$TUNETOP" --root "$1" --state-dir "$2" snapshot --interval 0 --json 2>/dev/null |
		python3 -c 'import json, sys
j = json.load(sys.stdin)["journal"]
print("null" if j is None else "%d %d %d" % (j["entries"], j["active"], j["orphaned"]))'
}
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

is "$(jget "$root" "$st")" "0 0 0" "no state dir: no entries"
[ -e "$st" ]
is $? 1 "the state dir is not created by a snapshot"
"$TUNETOP" --root "$root" --state-dir "$st" set cpufreq/policy0/governor=performance >/dev/null &&
	"$TUNETOP" --root "$root" --state-dir "$st" set cpufreq/policy4/governor=performance >/dev/null
ok $? "two changes, two transactions"
is "$(jget "$root" "$st")" "2 2 0" "two entries, both active"
is "$(jget "$other" "$st")" "0 0 0" "another root's journal entries do not count"
"$TUNETOP" --root "$root" --state-dir "$st" undo >/dev/null
is "$(jget "$root" "$st")" "2 1 0" "undo (the last transaction): one still active"
"$TUNETOP" --root "$root" --state-dir "$st" restore >/dev/null
is "$(jget "$root" "$st")" "2 0 0" "restore: none active"
mkdir -p "$TMPD/open" && chmod 777 "$TMPD/open"
is "$(jget "$root" "$TMPD/open")" "null" "a world-writable state dir is not read: null"
"$TUNETOP" --root "$root" --state-dir "$st" snapshot --interval 0 | grep -q '"journal"'
is $? 1 "the text report has no JSON key"
done_testing
