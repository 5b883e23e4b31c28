#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The license is where packagers look for it: COPYING (GPL-2), an SPDX line
# in every source file, the README and the man page; NEWS names this version.
. "$TT_SRCDIR/tests/lib.sh"
[ -z "${TT_SKIP_SOURCE_ONLY:-}" ] || skip_all "checks the sources, the same in every build: ran in the first build of run-all.sh"

[ -f "$TT_SRCDIR/COPYING" ]
ok $? "COPYING is there"
like "$(head -n 5 "$TT_SRCDIR/COPYING")" "GNU GENERAL PUBLIC LICENSE" "COPYING is the GPL"
like "$(head -n 5 "$TT_SRCDIR/COPYING")" "Version 2, June 1991" "version 2"
out=$(sh "$TT_SRCDIR/scripts/spdx.sh" --check 2>&1)
is "$?" 0 "every source file has an SPDX line"
[ -n "$out" ] && diag "without one: $(printf '%s' "$out" | head -5 | tr '\n' ' ')"
like "$(cat "$TT_SRCDIR/README.md")" "GPL-2.0-or-later" "README names the license"
like "$(man -l "$TT_SRCDIR/man/tunetop.8" 2>/dev/null || cat "$TT_SRCDIR/man/tunetop.8")" "GPL.?-2.?0.?-or.?-later" "the man page names it"
v=$("$TUNETOP" --version | sed -n 's/^tunetop //p')
like "$(head -n 5 "$TT_SRCDIR/NEWS")" "^$v " "NEWS has an entry for this version ($v)"
# the checker itself: a file without the line is reported
tmp="$TMPD/tree"
mkdir -p "$tmp/scripts" "$tmp/src"
cp "$TT_SRCDIR/scripts/spdx.sh" "$tmp/scripts/"
printf '/* no license line */\nint x;\n' >"$tmp/src/bare.c"
out=$(sh "$tmp/scripts/spdx.sh" --check)
is "$?" 1 "spdx.sh --check fails on a file without the line"
is "$out" "src/bare.c" "and names it"
sh "$tmp/scripts/spdx.sh"
is "$(head -n 1 "$tmp/src/bare.c")" "/* SPDX-License-Identifier: GPL-2.0-or-later */" "spdx.sh adds it"
done_testing
