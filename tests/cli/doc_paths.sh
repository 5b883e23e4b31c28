#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# doc/design.md and doc/HACKING.md are for changing tunetop: every file of
# the tree they name must exist, and every function they name as `name()`
# must be in the sources. A path is a word starting with one of the tree's
# top directories (src/, tests/, doc/, scripts/, contrib/, man/, ...);
# `sysroot.[ch]` and `{json,txt}` stand for each file, a glob must match
# one, and a program built from `X.c` counts as X. Placeholders of the
# recipes (NAME, FILE, VERSION..., the example names frob and hello) and
# build outputs (.log) are not files. The checker is run on a copy with a
# planted wrong path and function, so it can be seen to fail.
. "$TT_SRCDIR/tests/lib.sh"
[ -z "${TT_SKIP_SOURCE_ONLY:-}" ] || skip_all "checks the sources, the same in every build: ran in the first build of run-all.sh"

top_dirs='src|tests|doc|scripts|contrib|man|profiles|themes|debian|build-aux|m4|\.ci'

# words DOC: "LINE PATH" for each file of the tree DOC names, placeholders
# left out ([ch] and {a,b} expanded)
words() {
	grep -noE "(^|[^[:alnum:]_/.\$-])($top_dirs)/[][[:alnum:]_./*{},<>-]*[][[:alnum:]_*}>]" "$1" |
		awk '
		function expand(ln, w,   i, j, pre, alts, post, n, a, k) {
			if ((i = index(w, "{")) && (j = index(w, "}")) > i) {
				pre = substr(w, 1, i - 1); alts = substr(w, i + 1, j - i - 1); post = substr(w, j + 1)
				n = split(alts, a, ",")
				for (k = 1; k <= n; k++) expand(ln, pre a[k] post)
			} else if (match(w, /\[[a-z][a-z]+\]/)) {
				pre = substr(w, 1, RSTART - 1); alts = substr(w, RSTART + 1, RLENGTH - 2)
				post = substr(w, RSTART + RLENGTH)
				for (k = 1; k <= length(alts); k++) expand(ln, pre substr(alts, k, 1) post)
			} else
				print ln, w
		}
		{
			ln = $0; sub(/:.*/, "", ln)
			w = $0; sub(/^[0-9]+:/, "", w); sub(/^[^[:alnum:].]/, "", w)
			# a recipe stand-in (NAME, FILE, <name>, frob, hello) or a build output
			if (w ~ /[A-Z][A-Z]|[<>]|frob|hello|\.log$/ || w ~ /^tests\/[ab]\.sh$/) next
			expand(ln, w)
		}'
}

# exists TREE PATH: the file, directory, a glob's match, or the source of
# a built program (the fixtures are where tests/lib.sh finds them: a
# tarball's build unpacks them in the build tree)
exists() {
	case $2 in
	tests/fixtures | tests/fixtures/*) f=$FIXTURES${2#tests/fixtures} ;;
	*) f=$1/$2 ;;
	esac
	case $f in
	*\**)
		for m in $f; do [ -e "$m" ] && return 0; done
		return 1
		;;
	esac
	[ -e "$f" ] || [ -e "$f.c" ] || [ -e "$f.in" ] || [ -e "$f.sh" ]
}

# check TREE DOC...: prints "DOC:LINE: PATH" for each path that is not in
# TREE and "DOC:LINE: NAME()" for each function not in TREE's sources;
# status 1 if any
check() {
	tree=$1
	shift
	bad=0
	for doc in "$@"; do
		out=$(words "$tree/$doc" | while read -r ln p; do
			exists "$tree" "$p" || echo "$doc:$ln: $p"
		done)
		[ -n "$out" ] && { printf '%s\n' "$out"; bad=1; }
		# functions written `name()`: one grep over the sources for all
		grep -noE '`[a-z_][a-z0-9_]*\(\)' "$tree/$doc" | tr -d '`()' >"$TMPD/funcs"
		[ -s "$TMPD/funcs" ] || continue
		cut -d: -f2 "$TMPD/funcs" | sort -u >"$TMPD/names"
		grep -rhowF -f "$TMPD/names" "$tree/src" "$tree/tests/unit" "$tree/tests/lib.sh" \
			"$tree/tests/tui/tmux.sh" 2>/dev/null | sort -u >"$TMPD/found"
		out=$(awk -F: -v doc="$doc" 'NR == FNR { f[$0]; next } !($2 in f) { print doc ":" $1 ": " $2 "()" }' \
			"$TMPD/found" "$TMPD/funcs")
		[ -n "$out" ] && { printf '%s\n' "$out"; bad=1; }
	done
	return $bad
}

docs='doc/design.md doc/HACKING.md'
n=$(for d in $docs; do grep -oE "(^|[^[:alnum:]_/.\$-])($top_dirs)/" "$TT_SRCDIR/$d"; done | wc -l)
[ "$n" -ge 200 ]
ok "$?" "the docs' paths are found ($n)"
out=$(check "$TT_SRCDIR" $docs)
is "$?" 0 "every path and function design.md and HACKING.md name exists"
[ -n "$out" ] && diag "$(printf '%s' "$out" | head -20)"

# the checker fails on a planted wrong path, function, and an expanded name
plant() {
	rm -rf "$TMPD/t" && mkdir -p "$TMPD/t/doc"
	cp "$TT_SRCDIR/doc/design.md" "$TT_SRCDIR/doc/HACKING.md" "$TMPD/t/doc/"
	ln -s "$TT_SRCDIR/src" "$TT_SRCDIR/tests" "$TT_SRCDIR/scripts" "$TT_SRCDIR/contrib" \
		"$TT_SRCDIR/man" "$TT_SRCDIR/profiles" "$TT_SRCDIR/themes" "$TMPD/t/"
	for d in debian build-aux m4 .ci; do
		[ -e "$TT_SRCDIR/$d" ] && ln -s "$TT_SRCDIR/$d" "$TMPD/t/"
	done
	for f in "$TT_SRCDIR"/doc/*; do
		[ -e "$TMPD/t/doc/${f##*/}" ] || ln -s "$f" "$TMPD/t/doc/"
	done
}
plant
printf 'A new screen is `src/ui/screen_NAME.c`, like tests/tui/hello.sh.\n' >>"$TMPD/t/doc/HACKING.md"
check "$TMPD/t" $docs >/dev/null
is "$?" 0 "an unchanged copy passes, a recipe's placeholders added"

plant
cat >>"$TMPD/t/doc/design.md" <<'EOF'
The frame is drawn by `src/ui/tui_frames.c`.
Golden files: tests/golden/{rk3588,rk3589}.json; tests/cli/nosuch_*.sh.
Each tick calls `sampler_tock()`.
EOF
printf -- '- the sampler (`src/model/snapshot.[ch]`, `src/model/samplr.[ch]`)\n' >>"$TMPD/t/doc/HACKING.md"
out=$(check "$TMPD/t" $docs)
is "$?" 1 "planted wrong names fail"
like "$out" 'doc/design\.md:[0-9]+: src/ui/tui_frames\.c' "a path that does not exist is named with its line"
like "$out" 'HACKING\.md:[0-9]+: src/model/samplr\.c' "a [ch] name of which a file is missing is named"
unlike "$out" 'snapshot' "but not an existing pair"
like "$out" 'tests/golden/rk3589\.json' "a {a,b} name of which one file is missing is named"
unlike "$out" 'rk3588\.json' "but not the one that exists"
like "$out" 'tests/cli/nosuch_\*\.sh' "a glob that matches nothing is named"
like "$out" 'design\.md:[0-9]+: sampler_tock\(\)' "a function that does not exist is named"
is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 6 "and nothing else (samplr.c and .h)"

done_testing
