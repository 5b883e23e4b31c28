#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The shape rules of issue 14 that a size can check (doc/HACKING.md): no
# function in src/ has more than 200 lines (from its opening to its closing
# brace, both in column
# 0 as clang-format leaves them, plus its first signature line), and no knob
# family dispatches with strcmp(leaf, ...) ladders. Each check also runs on
# a planted copy, so it can be seen to fail. (src/ui/tui.c's 500-line cap
# is gone: tests/cli/structure.sh checks what it stood for, that the event
# loop is the top of an acyclic src/ui.)
. "$TT_SRCDIR/tests/lib.sh"
[ -z "${TT_SKIP_SOURCE_ONLY:-}" ] || skip_all "checks the sources, the same in every build: ran in the first build of run-all.sh"

# long_functions DIR: "LINES FILE:LINE" of each function over 200 lines
long_functions() {
	find "$1" -name '*.c' | sort | while read -r f; do
		awk -v f="$f" '/^\{/ { s = NR } /^\}/ { if (s && NR - s + 2 > 200) print NR - s + 2, f ":" s; s = 0 }' "$f"
	done
}

long=$(long_functions "$TT_SRCDIR/src")
is "$long" "" "no function in src/ over 200 lines"

is "$(grep -rn 'strcmp(leaf' "$TT_SRCDIR/src/knob" | head -3)" "" "no strcmp(leaf, ...) in src/knob"

# the checker sees a planted long function
mkdir -p "$TMPD/src"
{
	echo 'static int planted(void)'
	echo '{'
	i=0
	while [ $i -lt 205 ]; do
		echo '	;'
		i=$((i + 1))
	done
	echo '	return 0;'
	echo '}'
} >"$TMPD/src/planted.c"
like "$(long_functions "$TMPD/src")" '^209 .*/planted\.c:2$' "a planted 209-line function is found"
done_testing
