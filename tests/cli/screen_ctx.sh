#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Screens are given a narrow context (issue 33, doc/design.md §11): a
# screen file (src/ui/screen_*.c) sees struct screen_ctx from ui/tui.h and
# never the session, struct tui, whose definition is in the private
# ui/tui_int.h. So no screen file includes ui/tui_int.h or names struct
# tui, and no header of src/ui but tui_int.h itself includes it (a screen
# would get it through that header). The checker is run on copies with a
# planted violation of each kind, so it can be seen to fail.
. "$TT_SRCDIR/tests/lib.sh"
[ -z "${TT_SKIP_SOURCE_ONLY:-}" ] || skip_all "checks the sources, the same in every build: ran in the first build of run-all.sh"

# check UIDIR: prints "FILE:LINE: text" for every violation; status 1 if any.
check() {
	bad=0
	out=$(grep -HnE '#[[:space:]]*include[[:space:]]*"ui/tui_int\.h"|struct[[:space:]]+tui([^_a-zA-Z0-9]|$)' \
		"$1"/screen_*.c 2>/dev/null)
	[ -n "$out" ] && { printf '%s\n' "$out"; bad=1; }
	for h in "$1"/*.h; do
		[ "${h##*/}" = tui_int.h ] && continue
		out=$(grep -HnE '#[[:space:]]*include[[:space:]]*"ui/tui_int\.h"' "$h")
		[ -n "$out" ] && { printf '%s\n' "$out"; bad=1; }
	done
	# the screens' header defines the context, not the session
	out=$(grep -HnE 'struct[[:space:]]+tui[[:space:]]*\{' "$1/tui.h")
	[ -n "$out" ] && { printf '%s\n' "$out"; bad=1; }
	return $bad
}

ui=$TT_SRCDIR/src/ui
n=$(ls "$ui"/screen_*.c | wc -l)
[ "$n" -ge 10 ]
ok "$?" "the screen files are found ($n)"
out=$(check "$ui")
is "$?" 0 "no screen file includes ui/tui_int.h or names struct tui"
[ -n "$out" ] && diag "$(printf '%s' "$out" | head -5)"
like "$(grep -c 'struct screen_ctx \*t' "$ui/screen_cores.c")" '^[1-9]' \
	"the screens take a struct screen_ctx"
like "$(cat "$ui/tui_int.h")" 'struct tui \{' "struct tui is defined in the private ui/tui_int.h"

# the checker catches each kind of violation
plant() {
	rm -rf "$TMPD/ui" && mkdir -p "$TMPD/ui" && cp "$ui"/*.[ch] "$TMPD/ui/"
}
plant
check "$TMPD/ui" >/dev/null
is "$?" 0 "an unchanged copy passes"

plant
printf '#include "ui/tui_int.h"\n' >>"$TMPD/ui/screen_rt.c"
out=$(check "$TMPD/ui")
is "$?" 1 "a screen including ui/tui_int.h fails"
like "$out" 'screen_rt\.c:[0-9]+:#include "ui/tui_int\.h"' "and is named with its line"

plant
printf 'static int peek(struct tui *t);\n' >>"$TMPD/ui/screen_clocks.c"
out=$(check "$TMPD/ui")
is "$?" 1 "a screen naming struct tui fails"
like "$out" 'screen_clocks\.c:[0-9]+:static int peek\(struct tui \*t\)' "and is named"

plant
printf 'static const struct tui_change *ok_name;\n' >>"$TMPD/ui/screen_clocks.c"
check "$TMPD/ui" >/dev/null
is "$?" 0 "struct tui_change (a type screens may use) passes"

plant
printf '#include "ui/tui_int.h"\n' >>"$TMPD/ui/latency_run.h"
out=$(check "$TMPD/ui")
is "$?" 1 "a header screens include that includes ui/tui_int.h fails"
like "$out" 'latency_run\.h' "and is named"

plant
printf 'struct tui {\n\tint x;\n};\n' >>"$TMPD/ui/tui.h"
check "$TMPD/ui" >/dev/null
is "$?" 1 "struct tui defined in ui/tui.h fails"

done_testing
