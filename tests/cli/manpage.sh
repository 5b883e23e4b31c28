#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# man/tunetop.8 stays honest: a subsection for every command of --help, every
# long option of every command's --help (and of the TUI's), clean rendering.
. "$TT_SRCDIR/tests/lib.sh"

MAN="$TT_SRCDIR/man/tunetop.8"
[ -r "$MAN" ] || skip_all "no $MAN"
# groff writes '-' as '\-'; compare against the plain text.
sed 's/\\-/-/g; s/\\f[BIRP]//g' "$MAN" >"$TMPD/man.txt"

help=$("$TUNETOP" --help); ok $? "--help exits 0"
cmds=$(printf '%s\n' "$help" | sed -n 's/^  tunetop \([a-z][a-z-]*\).*/\1/p' | sort -u)
[ -n "$cmds" ]; ok $? "--help lists commands"

for c in $cmds; do
	grep -qx "\.SS $c" "$TMPD/man.txt"; ok $? "man page has a subsection for $c"
	"$TUNETOP" "$c" --help >"$TMPD/help.$c" 2>&1
	for o in $(grep -o -- '--[a-z][a-z-]*' "$TMPD/help.$c" | sort -u); do
		grep -q -- "$o" "$TMPD/man.txt"; ok $? "man page documents $c $o"
	done
done

# The interactive monitor's options (tunetop --demo --help prints them).
"$TUNETOP" --demo --help >"$TMPD/help.tui" 2>&1
for o in $( (grep -o -- '--[a-z][a-z-]*' "$TMPD/help.tui"; printf '%s\n' "$help" | grep -o -- '--[a-z][a-z-]*') | sort -u); do
	grep -q -- "$o" "$TMPD/man.txt"; ok $? "man page documents $o"
done
for s in NAME SYNOPSIS DESCRIPTION 'GLOBAL OPTIONS' COMMANDS 'INTERACTIVE MODE' \
	'KNOB ADDRESSES' PROFILES JOURNAL FILES ENVIRONMENT 'EXIT STATUS' EXAMPLES 'SEE ALSO'; do
	grep -qx "\.SH \"*$s\"*" "$TMPD/man.txt"; ok $? "man page has section $s"
done
# Shipped profiles are all described.
for p in "$TT_SRCDIR"/profiles/*.profile; do
	n=$(basename "$p" .profile)
	grep -q -- "^\.B $n\$" "$TMPD/man.txt"; ok $? "man page describes profile $n"
done

if command -v groff >/dev/null 2>&1; then
	LC_ALL=C.UTF-8 groff -t -man -Tutf8 -ww "$MAN" >"$TMPD/man.out" 2>"$TMPD/man.err"
	ok $? "groff renders the man page"
	is "$(cat "$TMPD/man.err")" "" "groff -ww gives no warnings"
	grep -q 'tunetop exec' "$TMPD/man.out"; ok $? "rendered page has the examples"
else
	skip "groff renders the man page" "groff not installed"
	skip "groff -ww gives no warnings" "groff not installed"
fi
done_testing
