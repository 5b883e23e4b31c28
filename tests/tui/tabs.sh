#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The tab strip fits any width: at 120x40, 80x24 and 40x16, Tab cycles
# through every screen listed in src/ui/screens.def and each time the
# current tab's whole label (" 8 IRQs ", number keys 1..9 then 0, after the
# tenth the screen's own key, " ! Findings ", or none) is on the tab line,
# drawn as the active tab (its own colour run); where the strip cannot show
# every tab, < and > mark hidden ones, and a click on > selects the tab
# behind it. Copied RK3588 fixture, nothing is changed.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

root=$(copy_fixture rk3588)
esc=$(printf '\033')

# the screens' tab names, in tab order (screens.def: LABEL)
names=$(sed -n 's/^SCREEN([a-z_]*, "\([^"]*\)",.*/\1/p' "$TT_SRCDIR/src/ui/screens.def")
n=$(printf '%s\n' "$names" | grep -c .)
is "$n" "$(grep -c '^SCREEN(' "$TT_SRCDIR/src/ui/screens.def")" "every screen of screens.def has a tab name"
ok $((n < 10)) "screens.def lists $n screens (full labels of 10 do not fit 80 columns)"
is "$(printf '%s\n' "$names" | sed -n 1p)" Cores "the first tab is Cores"

# the screens' own keys (screens.def: HOTKEY '!'), "-" for none, in tab order
hotkeys=$(sed -n 's/^SCREEN(\(.*\))$/\1/p' "$TT_SRCDIR/src/ui/screens.def" |
	awk -F ', *' '{ k = $4; if (k ~ /^\047.\047$/) print substr(k, 2, 1); else print "-" }')

# label I: the whole label of tab I (0-based): number keys 1..9 then 0,
# after the tenth the screen's own key when it has one
label() {
	local nm hk
	nm=$(printf '%s\n' "$names" | sed -n "$(($1 + 1))p")
	hk=$(printf '%s\n' "$hotkeys" | sed -n "$(($1 + 1))p")
	if [ "$1" -lt 10 ]; then
		printf ' %d %s ' $((($1 + 1) % 10)) "$nm"
	elif [ "$hk" != "-" ]; then
		printf ' %s %s ' "$hk" "$nm"
	else
		printf ' %s ' "$nm"
	fi
}
tabline() { tmx capture-pane -e -p -t "$1" | sed -n 3p; }
# wait_active NAME I: tab I is the active run on the tab line
wait_active() {
	local name=$1 re i=0 l
	l=$(label "$2")
	# (capture-pane drops the trailing space at the end of the line)
	re="$esc\\[[0-9;]*m${l% }( $esc\\[| ?\$)"
	while [ "$i" -lt 100 ]; do
		tabline "$name" | grep -Eq -- "$re" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	diag "timeout waiting for the active tab '$(label "$2")'; the tab line is:"
	tabline "$name" | sed "s/$esc\[[0-9;]*m//g; s/^/#   /"
	return 1
}

for size in 120x40 80x24 40x16; do
	cols=${size%x*} rows=${size#*x} s="t$cols"
	tui_start "$s" "$cols" "$rows" -- --root "$root" --state-dir "$TMPD/st" --screen cores
	wait_active "$s" 0; ok $? "$size: the first tab ($(label 0)) is active"
	missing=""
	i=1
	while [ "$i" -le "$n" ]; do
		k=$((i % n))
		tui_keys "$s" Tab
		wait_active "$s" "$k" || missing="$missing$(label "$k")|"
		i=$((i + 1))
	done
	is "$missing" "" "$size: Tab through $n screens, each one's label is shown active"
	if [ "$cols" -eq 40 ]; then
		plain=$(tabline "$s" | sed "s/$esc\[[0-9;]*m//g")
		like "$plain" '>$' "$size: on the first tab, > marks tabs hidden on the right"
		tui_keys "$s" BTab
		wait_active "$s" $((n - 1)); ok $? "$size: Shift-Tab goes to the last tab"
		like "$(tabline "$s" | sed "s/$esc\[[0-9;]*m//g")" '^<' \
			"$size: on the last tab, < marks tabs hidden on the left"
		# a click on > (X10 mouse, 1-based + 32) selects the tab behind it
		tui_keys "$s" Tab
		wait_active "$s" 0
		vis=$(tabline "$s" | sed "s/$esc\[[0-9;]*m//g" | grep -o ' [0-9] ' | wc -l)
		tmx send-keys -t "$s" -l "$(printf '\033[M%b%b%b' '\040' "\\$(printf '%03o' $((33 + cols - 1)))" '\043')"
		tmx send-keys -t "$s" -l "$(printf '\033[M%b%b%b' '\043' "\\$(printf '%03o' $((33 + cols - 1)))" '\043')"
		wait_active "$s" "$vis"; ok $? "$size: a click on > selects the first hidden tab ($(label "$vis"))"
	fi
	tui_keys "$s" q
	tui_wait_exit "$s" 15; ok $? "$size: q quits"
	is "$(tui_status "$s")" 0 "$size: exit status 0"
done
done_testing
