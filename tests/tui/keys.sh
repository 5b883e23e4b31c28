#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The key table (src/ui/keys.def) and everything made from it agree: the
# man page's key list is keytable_gen's output, the Help screen shows every
# key with its sentence, every screen's key bar shows the table's hints in
# its order, and every key a screen's key function (or the replay
# transport) tests for is in the table for that screen (the dispatch only
# passes a screen the keys listed for it, so a missing one would be dead).
. "$TT_SRCDIR/tests/lib.sh"

GEN="$TT_BUILDDIR/tests/unit/keytable_gen"
MAN="$TT_SRCDIR/man/tunetop.8"
[ -x "$GEN" ] || skip_all "tests/unit/keytable_gen is not built (make check builds it)"

# ---- the man page's list: between the marker comments, as generated ------------
"$GEN" --man >"$TMPD/man.want"; ok $? "keytable_gen --man"
awk '/^\.\\" keys end/ { inside = 0 } inside { print } /^\.\\" keys begin/ { inside = 1 }' \
	"$MAN" >"$TMPD/man.got"
[ -s "$TMPD/man.got" ]; ok $? "man/tunetop.8 has the keys begin / keys end comments"
if diff -u "$TMPD/man.got" "$TMPD/man.want" >"$TMPD/man.diff"; then
	ok 0 "man page key list = keytable_gen --man"
else
	ok 1 "man page key list = keytable_gen --man (run: keytable_gen --man-update man/tunetop.8)"
	sed 's/^/#   /' "$TMPD/man.diff"
fi

# ---- the screens' key functions test no key the table lacks ---------------------
# Each screen's id (its row in src/ui/screens.def), its key function
# screen_ID_key and the file that defines it; the key function's body; the
# key codes it compares ch with (case X: / ch == X / ch != X), as C writes them.
"$GEN" --codes >"$TMPD/codes.act"
sed 's/ [0-9]*$//' "$TMPD/codes.act" | sort -u >"$TMPD/codes"
sed -n 's/^SCREEN(\([a-z_]*\),.*/\1/p' "$TT_SRCDIR/src/ui/screens.def" | while read -r id; do
	fn=screen_${id}_key
	f=$(grep -lE "^(static )?int $fn\(" "$TT_SRCDIR"/src/ui/screen_*.c | head -n 1)
	printf '%s %s %s\n' "$id" "$fn" "${f:-none}"
done >"$TMPD/keyfns"
printf 'replay tui_replay_key %s\n' "$TT_SRCDIR/src/ui/playback.c" >>"$TMPD/keyfns"
[ "$(wc -l <"$TMPD/keyfns")" -ge 12 ]; ok $? "key functions found ($(wc -l <"$TMPD/keyfns"))"
missing=0
nfound=0
while read -r id fn f; do
	# the body; in it, the case labels of switch (ch) and ch == / != X
	awk -v fn="$fn" '$0 ~ "^(static )?int " fn "\\(" { on = 1 } on { print } on && /^}/ { exit }' "$f" |
		awk '/switch \(ch\)/ { ind = $0; sub(/[^\t ].*/, "", ind); sw = 1; next }
		     sw && $0 ~ "^" ind "}" { sw = 0 }
		     sw && $0 ~ "^" ind "case " { print }
		     /ch [!=]= / { print }' |
		grep -oE "(case +|ch [!=]= )('[^']+'|[A-Z_]+\([0-9]+\)|[A-Z_]+|[0-9]+)" |
		sed -E "s/^(case +|ch [!=]= )//; s/^'\\\\n'\$/10/; s/^'\\\\r'\$/13/; s/^'\\\\t'\$/9/" |
		sort -u >"$TMPD/fn.codes"
	[ -s "$TMPD/fn.codes" ] || {
		diag "$fn ($id): no key codes found"
		missing=$((missing + 1))
	}
	while read -r c; do
		nfound=$((nfound + 1))
		if ! grep -qxF "$id $c" "$TMPD/codes"; then
			diag "$fn handles $c on $id, which src/ui/keys.def does not list"
			missing=$((missing + 1))
		fi
	done <"$TMPD/fn.codes"
done <"$TMPD/keyfns"
[ "$nfound" -gt 60 ]; ok $? "key codes read from the key functions ($nfound)"
is "$missing" 0 "every key a screen's key function handles is in the table"

# ---- the screens' own keys (screens.def FKEY / HOTKEY) are the table's -------
# global keys that go to a screen (KA_HELP 2, KA_SETUP 3, KA_GOTO 4), and
# every KA_GOTO key is one of them
sed -n 's/^SCREEN(\(.*\))$/\1/p' "$TT_SRCDIR/src/ui/screens.def" |
	awk -F ', *' '{ print $3; print $4 }' | grep -v '^0$' | sort -u >"$TMPD/jump"
[ "$(wc -l <"$TMPD/jump")" -ge 8 ]; ok $? "screens' fkeys and hotkeys found ($(wc -l <"$TMPD/jump"))"
bad=0
while read -r c; do
	grep -qE "^global $(printf '%s' "$c" | sed 's/[][()]/\\&/g') [234]\$" "$TMPD/codes.act" || {
		diag "screen key $c is no global KA_GOTO / KA_HELP / KA_SETUP key of the table"
		bad=$((bad + 1))
	}
done <"$TMPD/jump"
for c in $(awk '$1 == "global" && $3 == 4 { print $2 }' "$TMPD/codes.act"); do
	grep -qxF "$c" "$TMPD/jump" || {
		diag "KA_GOTO key $c: no screen has it as fkey or hotkey"
		bad=$((bad + 1))
	}
done
is "$bad" 0 "the screens' fkeys / hotkeys and the table's screen-jump keys agree"

# ---- the running TUI: Help and the key bars ------------------------------------
. "$TT_SRCDIR/tests/tui/tmux.sh"
"$GEN" --list >"$TMPD/list"

# Help, scrolled page by page to its end, collected.
tui_start h 100 40 -- --demo --screen help --state-dir "$TMPD/st"
tui_wait h 'Keys \(everywhere\)'; ok $? "Help screen"
: >"$TMPD/help.txt"
i=0
while [ $i -lt 20 ]; do
	tui_screen h | sed -n '4,$p' | sed '$d' | sed '$d' >>"$TMPD/help.txt"
	grep -q 'simulates an RK3588' "$TMPD/help.txt" && break
	# the next page is drawn when the line at the top changed
	top=$(tui_screen h | sed -n 4p)
	tui_keys h NPage
	j=0
	while [ $j -lt 50 ] && [ "$(tui_screen h | sed -n 4p)" = "$top" ]; do
		sleep 0.1
		j=$((j + 1))
	done
	i=$((i + 1))
done
grep -q 'simulates an RK3588' "$TMPD/help.txt"; ok $? "Help scrolled to its end"
# Every entry: its keys, then the start of its sentence, on one line (spaces squeezed).
tr -s ' ' <"$TMPD/help.txt" >"$TMPD/help.sq"
awk -F '\t' 'NR == FNR { line[++n] = $0; next }
	{
		want = $2 " " substr($7, 1, 20)
		gsub(/ +/, " ", want)
		sub(/ +$/, "", want)
		found = 0
		for (i = 1; i <= n && !found; i++)
			found = index(line[i], want) > 0
		if (!found) { print "#   not on the Help screen: [" $1 "] " want; bad++ }
	}
	END { exit bad > 0 }' "$TMPD/help.sq" "$TMPD/list"
ok $? "the Help screen shows every key of the table with its sentence"
tui_keys h Escape
tui_wait h 'policy'; ok $? "Esc on Help: the first screen"

# Each screen's key bar: the global head hints, the screen's, the tail ones,
# in the table's order (wide enough that none is cut).
# bar_re ID: that bar as a regex: "F1 *Help +F2 *Setup +g *Gov ..."
bar_re() {
	awk -F '\t' -v id="$1" '
		function q(s) { gsub(/[][\\.*+?(){}|^$\/]/, "\\\\&", s); return s }
		$1 == "global" && $4 == 1 { head = head q($5) " *" q($6) " +" }
		$1 == "global" && $4 == 3 { tl = tl " +" q($5) " *" q($6) }
		$1 == id && $4 == 2 { mid = mid q($5) " *" q($6) " +" }
		END { r = head mid tl; gsub(/\+ \+/, "+", r); print r }' "$TMPD/list"
}
tui_start b 240 30 -- --demo --state-dir "$TMPD/stb"
tui_wait b 'F1 *Help'; ok $? "key bar"
n=0
for id in $(sed -n 's/^SCREEN(\([a-z_]*\),.*/\1/p' "$TT_SRCDIR/src/ui/screens.def"); do
	n=$((n + 1))
	re=$(bar_re "$id")
	if [ $n -le 9 ]; then
		tui_keys b "$n"
	elif [ $n -eq 10 ]; then
		tui_keys b 0
	else
		tui_keys b Tab # the screens after the tenth
	fi
	tui_wait b "^$re" 10; ok $? "key bar of $id: $re"
done

# A replay's bar: the global hints around the table's replay keys.
root=$(copy_fixture rk3588)
"$TUNETOP" watch --root "$root" -i 100 -n 3 --record "$TMPD/rec.jsonl" >/dev/null 2>&1
ok $? "a short recording (watch --record)"
re=$(bar_re replay)
tui_start r 160 30 -- --replay "$TMPD/rec.jsonl"
tui_wait r "^$re"; ok $? "key bar of a replay: $re"
done_testing
