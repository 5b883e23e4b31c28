#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A profile says each thing once (issue 13): a second `description`, a
# second [knobs] or [profile] section is refused with one line naming
# FILE:LINE (and the first one), exit 2, nothing applied, nothing journaled.
# Before, the second description silently won and the sections merged.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

fresh rk3588
p="$TMPD/p.profile"

try() { # try WANT_LINE DESCRIPTION: apply $p, expect exit 2 and that one line
	out=$(tt apply "$p" 2>&1)
	is "$?" 2 "$2: exit 2"
	is "$out" "tunetop apply: $1" "$2: one line naming file:line"
	pristine; ok $? "$2: nothing applied"
	[ ! -s "$STATE/journal" ] || ! grep -q '^W' "$STATE/journal"; ok $? "$2: nothing journaled"
}

printf '[profile]\ndescription = one\ndescription = two\n[knobs]\nmm/thp = never\n' >"$p"
try "$p:3: 'description' is set twice (first at line 2)" "two descriptions"

printf '[profile]\ndescription = d\n[knobs]\nmm/thp = never\n[knobs]\nsched/rt_runtime_us = -1\n' >"$p"
try "$p:5: a second [knobs] section (the first is at line 3)" "two [knobs] sections"

printf '[profile]\ndescription = d\n[knobs]\nmm/thp = never\n[profile]\nmatch = rockchip\n' >"$p"
try "$p:5: a second [profile] section (the first is at line 1)" "two [profile] sections"

printf '[knobs]\nmm/thp = never\n\n  [knobs]\nmm/thp = always\n[profile]\ndescription = d\n' >"$p"
try "$p:4: a second [knobs] section (the first is at line 1)" "indented second header"

# still fine: one of each, match given twice (alternatives add up)
printf '[profile]\ndescription = d\nmatch = rockchip,rk3588\nmatch = nothing\n[knobs]\nmm/thp = never\n' >"$p"
out=$(tt apply "$p" 2>&1)
is "$?" 0 "one description, one [knobs], two match lines: applied"
is "$(file sys/kernel/mm/transparent_hugepage/enabled)" "never" "written"
tt restore >/dev/null 2>&1
pristine; ok $? "restored"
done_testing
