#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The structure of src/ that doc/design.md §2 states, checked on what the
# compiler made and on the #include lines (issue 33):
#  1. no call cycle between files, inside a layer or across layers: file A
#     uses file B when A's object file needs a symbol (a function or a table)
#     that B's object defines (nm -u against the defined ones), and that graph
#     must sort (tsort);
#  2. no include cycle between the files of src/;
#  3. every #include of another layer's header (core/ aside, which everything
#     uses) runs downward in the layer order and is listed, file by file, in
#     tests/cli/structure-includes.txt: a new one is a decision, made there;
#  4. no header declares a function that another layer defines.
# Each check also runs on a planted violation, so it can be seen to fail.
. "$TT_SRCDIR/tests/lib.sh"
[ -z "${TT_SKIP_SOURCE_ONLY:-}" ] || skip_all "checks the sources, the same in every build: ran in the first build of run-all.sh"

command -v nm >/dev/null 2>&1 || skip_all "no nm"
command -v tsort >/dev/null 2>&1 || skip_all "no tsort"
ALLOW="$TT_SRCDIR/tests/cli/structure-includes.txt"
# The registration tables: the knob families' (knob/registry.c) and the
# commands' (cmd/table.c), the worlds' (model/world_table.c). A table names
# its entries (their ops and
# functions), and the entries use the lookup next to it, as tmux's
# cmd_table[] and git's commands[] do: what a table refers to is data, not a
# call, so its outgoing edges are left out of the call graph. Nothing else
# may refer to a file that refers back to it.
TABLES='knob/registry cmd/table model/world_table'

# symbols BUILD: "U FILE SYMBOL" for each symbol an object under BUILD/src
# needs and "D FILE SYMBOL" for each global one it defines, FILE its
# source's path under src/ without suffix (ui/tui); one nm for all of them.
symbols() {
	find "$1/src" -name '*.o' | sort | xargs nm -A 2>/dev/null | awk -v b="$1/src/" '
	{
		f = $1; sub(/:.*/, "", f); if (index(f, b) == 1) f = substr(f, length(b) + 1)
		sub(/\.o$/, "", f); n = split(f, p, "/"); base = p[n]
		sub(/^tunetop-/, "", base); sub(/^libtunetop_a-/, "", base)
		f = (n > 1 ? p[1] "/" : "") base
		if (NF == 3 && $2 == "U") print "U", f, $3
		else if (NF == 3 && $2 ~ /^[TDBRGSV]$/) print "D", f, $3, $2
		else if (NF == 4 && $3 ~ /^[TDBRGSV]$/) print "D", f, $4, $3
	}'
}

# calls SYMBOLS: "A B" for each file A using a global symbol that file B
# defines.
calls() {
	awk '$1 == "D" { def[$3] = $2; next }
		$1 == "U" { use[++n] = $2 " " $3 }
		END { for (i = 1; i <= n; i++) { split(use[i], a, " ")
			if ((a[2] in def) && def[a[2]] != a[1]) print a[1], def[a[2]] } }' "$1" | sort -u
}

# defs SYMBOLS: "SYMBOL LAYER" for each function a file of src/LAYER defines
# (main.c: main).
defs() {
	awk '$1 == "D" && $4 == "T" { l = $2; if (index(l, "/")) sub(/\/.*/, "", l); else l = "main"; print $3, l }' "$1"
}

# cycles: the loops tsort finds in "A B" lines on stdin (one node a line,
# each loop after a "loop:" line); exit status 1 if there is one.
cycles() {
	out=$(tsort 2>&1 >/dev/null | sed -n 's/^tsort: .*input contains a loop:$/loop:/p; s/^tsort: \([^ :]*\)$/  \1/p')
	[ -z "$out" ] && return 0
	printf '%s\n' "$out"
	return 1
}

# includes SRC: "FILE HEADER" for each #include "x/y.h" of src/ (FILE and
# HEADER relative to src/), third_party left out.
includes() {
	(cd "$1" && find . -name '*.[ch]' -o -name '*.def' | sed 's|^\./||' | grep -v '^third_party/' |
		sort | xargs awk '/^[ \t]*#[ \t]*include[ \t]*"[a-z_0-9]+\/[a-z_0-9.]+"/ {
			h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h); print FILENAME, h }')
}

# layer_includes SRC ALLOWFILE: each include of another layer's header but
# core/ that runs upward ("upward: ...") or is not in ALLOWFILE ("not
# listed: ..."); exit status 1 if there is one.
layer_includes() {
	includes "$1" | awk '{ lf = $1; if (index(lf, "/")) sub(/\/.*/, "", lf); else lf = "main"
		lh = $2; sub(/\/.*/, "", lh); if (lh != lf && lh != "core") print }' >"$TMPD/cross.txt"
	up=$(awk 'BEGIN { n = split("core sysfs source knob probe model out cmd ui", L, " ")
			for (i = 1; i <= n; i++) r[L[i]] = i }
		{ lf = $1; if (index(lf, "/")) sub(/\/.*/, "", lf); else lf = "main"
		  lh = $2; sub(/\/.*/, "", lh)
		  if ((lh in r ? r[lh] : 99) > (lf in r ? r[lf] : 99)) print "upward: src/" $1 " includes " $2 }' \
		"$TMPD/cross.txt")
	grep -v '^#' "$2" | sed '/^$/d' | sort >"$TMPD/allow.txt"
	sort "$TMPD/cross.txt" | comm -23 - "$TMPD/allow.txt" |
		sed 's|^\([^ ]*\) |not listed in tests/cli/structure-includes.txt: src/\1 includes |' >"$TMPD/new.txt"
	[ -z "$up" ] && [ ! -s "$TMPD/new.txt" ] && return 0
	[ -n "$up" ] && printf '%s\n' "$up"
	cat "$TMPD/new.txt"
	return 1
}

# foreign_decls SRC DEFS: "HEADER: NAME is defined in LAYER/" for each
# function a header of src/ declares (a name followed by "(" on a line
# that starts in column 0, outside comments) that an object of another
# layer defines; exit status 1 if there is one.
foreign_decls() {
	out=$(cd "$1" && for h in */*.h; do
		awk -v h="$h" '
		{
			line = $0
			if (c) { i = index(line, "*/"); if (!i) next; c = 0; line = substr(line, i + 2) }
			gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, "", line)
			if ((i = index(line, "/*"))) { c = 1; line = substr(line, 1, i - 1) }
			if (line ~ /^[ \t#]/ || line == "") next
			if (match(line, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
				n = substr(line, RSTART, RLENGTH); sub(/[ \t]*\($/, "", n); print h, n
			}
		}' "$h"
	done | awk 'NR == FNR { def[$1] = $2; next }
		{ split($1, p, "/"); if (($2 in def) && def[$2] != p[1]) print $1 ": " $2 " is defined in " def[$2] "/" }' "$2" -)
	[ -z "$out" ] && return 0
	printf '%s\n' "$out"
	return 1
}

B=${TT_BUILDDIR:-.}
[ -n "$(find "$B/src" -name '*.o' 2>/dev/null | head -1)" ] || skip_all "no object files under $B/src"

# 1. calls
symbols "$B" >"$TMPD/symbols.txt"
calls "$TMPD/symbols.txt" >"$TMPD/calls.txt"
[ -s "$TMPD/calls.txt" ]
ok $? "the call graph between the files of src/ is read from the object files"
like "$(cat "$TMPD/calls.txt")" "ui/tui ui/widgets" "and has the loop's calls of the widgets"
out=$(awk -v t=" $TABLES " 'index(t, " " $1 " ") == 0' "$TMPD/calls.txt" | cycles)
is "$?" 0 "no call cycle between the files of src/ (src/ui and src/knob included)"
[ -n "$out" ] && diag "$out"
layers=$(sed 's|/[^ ]*||g' "$TMPD/calls.txt" | awk '$1 != $2' | sort -u)
out=$(printf '%s\n' "$layers" | cycles)
is "$?" 0 "no call cycle between the layers"
[ -n "$out" ] && diag "$out"

# 2. includes
out=$(includes "$TT_SRCDIR/src" | awk '{ print $1, $2 }' | cycles)
is "$?" 0 "no include cycle between the files of src/"
[ -n "$out" ] && diag "$out"

# 3. layers, file by file
out=$(layer_includes "$TT_SRCDIR/src" "$ALLOW")
is "$?" 0 "every include of another layer runs downward and is in tests/cli/structure-includes.txt"
[ -n "$out" ] && diag "$(printf '%s\n' "$out" | head -10)"
stale=$(includes "$TT_SRCDIR/src" | sort | comm -13 - "$TMPD/allow.txt")
[ -n "$stale" ] && diag "listed but no longer included (may go): $(printf '%s\n' "$stale" | head -5)"

# 4. headers
defs "$TMPD/symbols.txt" >"$TMPD/defs.txt"
out=$(foreign_decls "$TT_SRCDIR/src" "$TMPD/defs.txt")
is "$?" 0 "no header of src/ declares a function another layer defines"
[ -n "$out" ] && diag "$out"

# ---- the checkers catch what they should ------------------------------------
P="$TMPD/plant"
mkdir -p "$P/build/src/ui" "$P/build/src/cmd" "$P/src/ui" "$P/src/knob" "$P/src/out" "$P/src/cmd"
CC=${CC:-cc}
printf 'int b(void);\nint a(void) { return b(); }\n' >"$P/a.c"
printf 'int a(void);\nint b(void) { return 1; }\nint c(void) { return a(); }\n' >"$P/b.c"
printf 'int cmd_planted(void) { return 0; }\n' >"$P/f.c"
if $CC -c -o "$P/build/src/ui/tunetop-a.o" "$P/a.c" && $CC -c -o "$P/build/src/ui/b.o" "$P/b.c" &&
	$CC -c -o "$P/build/src/cmd/f.o" "$P/f.c"; then
	symbols "$P/build" >"$P/symbols.txt"
	out=$(calls "$P/symbols.txt" | cycles)
	is "$?" 1 "a planted call cycle (ui/a calls ui/b, ui/b calls ui/a) fails"
	like "$out" "ui/a" "and names its files"
	rm "$P/build/src/ui/b.o"
	symbols "$P/build" >"$P/symbols.txt"
	calls "$P/symbols.txt" | cycles >/dev/null
	is "$?" 0 "without it the planted objects pass"
	printf '#include "core/str.h"\nint cmd_planted(void);\n' >"$P/src/out/h.h"
	defs "$P/symbols.txt" >"$P/defs.txt"
	out=$(foreign_decls "$P/src" "$P/defs.txt")
	is "$?" 1 "a header of src/out declaring a function of src/cmd fails"
	like "$out" "out/h.h: cmd_planted is defined in cmd/" "and names it"
	printf '#include "core/str.h"\n/* int cmd_planted(void); */\nstatic int x(void);\n' >"$P/src/out/h.h"
	foreign_decls "$P/src" "$P/defs.txt" >/dev/null
	is "$?" 0 "a commented-out declaration does not count"
	rm "$P/src/out/h.h"
else
	for i in 1 2 3 4 5 6; do
		skip "planted objects $i" "no C compiler ($CC)"
	done
fi
printf '#include "ui/b.h"\n' >"$P/src/ui/a.h"
printf '#include "ui/a.h"\n' >"$P/src/ui/b.h"
out=$(includes "$P/src" | cycles)
is "$?" 1 "a planted include cycle (ui/a.h, ui/b.h) fails"
rm "$P/src/ui/b.h"
printf '#include "knob/knob.h"\n' >"$P/src/out/c.c"
: >"$P/allow.txt"
out=$(layer_includes "$P/src" "$P/allow.txt")
is "$?" 1 "an include of another layer not in the list fails"
like "$out" "not listed.*src/out/c.c includes knob/knob.h" "and names the file and the header"
echo "out/c.c knob/knob.h" >"$P/allow.txt"
layer_includes "$P/src" "$P/allow.txt" >/dev/null
is "$?" 0 "listed, it passes"
printf '#include "cmd/cmd.h"\n' >"$P/src/knob/d.c"
echo "knob/d.c cmd/cmd.h" >>"$P/allow.txt"
out=$(layer_includes "$P/src" "$P/allow.txt")
is "$?" 1 "an upward include (knob -> cmd) fails even when listed"
like "$out" "upward: src/knob/d.c includes cmd/cmd.h" "and is named"
done_testing
