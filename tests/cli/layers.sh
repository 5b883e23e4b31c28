#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layers of doc/design.md §2, taken from the #include lines: each layer
# of src/ includes only the layers below it (model may still include knob
# and probe, §13), no layer but src/ui includes curses or ui/, and model
# never includes out/ (out includes model). The checker is run on a copy
# with a planted model -> out include, so it can be seen to fail.
. "$TT_SRCDIR/tests/lib.sh"
[ -z "${TT_SKIP_SOURCE_ONLY:-}" ] || skip_all "checks the sources, the same in every build: ran in the first build of run-all.sh"

# allowed include prefixes of each layer ("core/" and so on)
allowed() {
	case $1 in
	core) echo "core" ;;
	sysfs) echo "core sysfs" ;;
	source) echo "core sysfs source" ;;
	knob) echo "core sysfs source knob" ;;
	probe) echo "core sysfs source knob probe" ;;
	model) echo "core sysfs source knob probe model" ;;
	out) echo "core sysfs source knob probe model out" ;;
	cmd) echo "core sysfs source knob probe model out cmd" ;;
	esac
}

# check SRC: prints "FILE: #include ..." for every include a layer may not
# have; exit status 1 if there is one.
check() {
	bad=0
	for layer in core sysfs source knob probe model out cmd; do
		[ -d "$1/$layer" ] || continue
		ok_re=$(allowed "$layer" | sed 's/ /|/g')
		out=$(grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]+/' \
			"$1/$layer"/*.[ch] 2>/dev/null |
			grep -vE "#[[:space:]]*include[[:space:]]*\"($ok_re)/")
		[ -n "$out" ] && { printf '%s\n' "$out"; bad=1; }
	done
	out=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<n?cursesw?(/[a-z]+)?\.h>' \
		"$1" --include='*.[ch]' | grep -v "^$1/ui/")
	[ -n "$out" ] && { printf '%s\n' "$out"; bad=1; }
	return $bad
}

out=$(check "$TT_SRCDIR/src")
is "$?" 0 "every layer of src/ includes only the layers below it"
[ -n "$out" ] && diag "$(printf '%s' "$out" | head -5)"
unlike "$(grep -rl '#include "out/' "$TT_SRCDIR/src/model")" "." "no src/model file includes an out/ header"
unlike "$(grep -rlE '#include <n?curses' "$TT_SRCDIR/src" | grep -v "/src/ui/")" "." \
	"only src/ui includes curses"
# the commands live in src/cmd (issue 14): no cmd_*.c in a layer below
is "$(cd "$TT_SRCDIR/src" && ls core sysfs source knob probe model out | grep -c '^cmd_')" 0 \
	"no command file in the layers below src/cmd"
is "$(grep -rlE '#include "(cmd|ui)/' "$TT_SRCDIR/src" | grep -vE "/src/(cmd|ui)/|/src/main\.c$")" "" \
	"only src/cmd, src/ui and main.c include cmd/ (or ui/)"

# the checker catches what it should
for layer in core sysfs source knob probe model out cmd ui; do
	mkdir -p "$TMPD/src/$layer"
done
printf '#include "core/str.h"\n' >"$TMPD/src/model/a.c"
check "$TMPD/src" >/dev/null
is "$?" 0 "a clean planted tree passes"
printf '#include "model/snapshot.h"\n#include "out/report.h"\n' >"$TMPD/src/model/b.c"
out=$(check "$TMPD/src")
is "$?" 1 "a model -> out include fails"
like "$out" "model/b.c:2:#include \"out/report.h\"" "and is named with its line"
rm "$TMPD/src/model/b.c"
printf '#include <curses.h>\n' >"$TMPD/src/out/c.c"
check "$TMPD/src" >/dev/null
is "$?" 1 "curses outside src/ui fails"
rm "$TMPD/src/out/c.c"
printf '#include "knob/knob.h"\n' >"$TMPD/src/sysfs/d.c"
check "$TMPD/src" >/dev/null
is "$?" 1 "sysfs including knob fails"
rm "$TMPD/src/sysfs/d.c"
printf '#include "cmd/common.h"\n' >"$TMPD/src/knob/f.c"
check "$TMPD/src" >/dev/null
is "$?" 1 "knob including cmd/ fails"
rm "$TMPD/src/knob/f.c"
printf '#include "knob/knob.h"\n#include "out/report.h"\n' >"$TMPD/src/cmd/g.c"
check "$TMPD/src" >/dev/null
is "$?" 0 "src/cmd may include the layers below it"
printf '#include <curses.h>\n#include "out/report.h"\n' >"$TMPD/src/ui/e.c"
check "$TMPD/src" >/dev/null
is "$?" 0 "src/ui may include curses and out/"
done_testing
