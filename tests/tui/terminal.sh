#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Terminal handling: resizing (80x24, 200x60, with a dialog open), an
# 8-colour TERM, NO_COLOR / --no-color, every shipped theme, bad settings
# lines reported but not fatal, F2 setup saved to tunetoprc, and the mouse
# (click a tab, click a row, wheel).
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

root=$(copy_fixture rk3588)
st=$TMPD/st
lines() { tui_screen "$1" | wc -l; }
widest() { tui_screen "$1" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'; }

tui_start r 120 40 -- --root "$root" --state-dir "$st"
tui_wait r 'policy4'; ok $? "started at 120x40"
tmx resize-window -t r -x 80 -y 24
tui_wait r 'F10Quit'; ok $? "80x24: key bar complete"
tui_wait r 'every 1\.0s'; ok $? "80x24: header keeps the interval"
tui_wait r '^ +7 A76 .*C$'; ok $? "80x24: all CPU rows with temperatures"
is "$(lines r)" 24 "80x24: 24 lines"
test "$(widest r)" -le 80; ok $? "80x24: nothing wider than 80 columns"
tui_screen r | tail -1 | grep -q 'F1Help'; ok $? "80x24: key bar on the last line"
tmx resize-window -t r -x 200 -y 60
tui_wait r 'Util usr/sys/irq +Freq MHz +C-state residency'; ok $? "200x60: wide columns"
is "$(lines r)" 60 "200x60: 60 lines"
tui_screen r | tail -1 | grep -q 'F10Quit'; ok $? "200x60: key bar on the last line"
# a dialog survives a resize
tui_keys r Down g
tui_wait r 'Governor for policy0'; ok $? "dialog open"
tmx resize-window -t r -x 90 -y 30
tui_wait r 'Governor for policy0'; ok $? "dialog redrawn after a resize"
is "$(lines r)" 30 "90x30 after resize"
tui_keys r Escape
tui_wait_not r 'Governor for'; ok $? "Esc closes the dialog"

# mouse: X10 encoding "ESC [ M b x y", each + 32, 1-based coordinates
mouse() { # NAME BUTTON X Y (0-based)
	tmx send-keys -t "$1" -l "$(printf '\033[M%b%b%b' "\\$(printf '%03o' $((32 + $2)))" \
		"\\$(printf '%03o' $((33 + $3)))" "\\$(printf '%03o' $((33 + $4)))")"
}
x=$(tui_screen r | sed -n 3p | awk '{ print index($0, "2 Clo") }') # 90 columns: names cut
mouse r 0 "$x" 2
mouse r 3 "$x" 2
tui_wait r 'dmc +ddr'; ok $? "click on the Clocks tab switches screen"
mouse r 0 3 5
mouse r 3 3 5
tui_keys r g
tui_wait r 'Governor for fb000000\.gpu'; ok $? "click on a row selects it"
tui_keys r Escape
tui_keys r 1
tui_wait r 'policy0'
mouse r 65 10 10 # wheel down
mouse r 65 10 10
tui_keys r g
tui_wait r 'Governor for policy0'; ok $? "wheel moves the selection"
tui_keys r Escape q
tui_wait_exit r; ok $? "quit"

# 8 colours
tui_start x8 80 24 TERM=xterm -- --root "$root" --state-dir "$st"
tui_wait x8 'policy4'; ok $? "TERM=xterm (8 colours) draws"
tmx capture-pane -e -p -t x8 | grep -q '\[4[0-7]m'; ok $? "TERM=xterm: colours are used"
tui_keys x8 q
tui_wait_exit x8; ok $? "TERM=xterm quits"
is "$(tui_status x8)" 0 "TERM=xterm exit 0"

# NO_COLOR and --no-color: attributes only
tui_start nc 100 30 NO_COLOR=1 -- --root "$root" --state-dir "$st"
tui_wait nc 'policy4'; ok $? "NO_COLOR draws"
tmx capture-pane -e -p -t nc | grep -q '\[[34][0-7]m'
ok $((! $?)) "NO_COLOR: no colour codes"
tmx capture-pane -e -p -t nc | grep -Eq '\[([0-9];)*7m'; ok $? "NO_COLOR: reverse video marks the tabs"
tui_keys nc q
tui_start nc2 100 30 -- --root "$root" --state-dir "$st" --no-color
tui_wait nc2 'policy4'; ok $? "--no-color draws"
tmx capture-pane -e -p -t nc2 | grep -q '\[[34][0-7]m'
ok $((! $?)) "--no-color: no colour codes"
tui_keys nc2 q

# every shipped theme
for th in default monochrome light high-contrast; do
	tui_start "t$th" 100 30 -- --root "$root" --state-dir "$st" --theme "$th"
	tui_wait "t$th" 'policy4'; ok $? "theme $th draws"
	tui_wait_not "t$th" 'not found' 1; ok $? "theme $th found"
	tui_keys "t$th" q
	tui_wait_exit "t$th"
done
tui_start tbad 100 30 -- --root "$root" --state-dir "$st" --theme nosuchtheme
tui_wait tbad "theme 'nosuchtheme' not found"; ok $? "an unknown theme is reported"
tui_wait tbad 'policy4'; ok $? "and the default is used"
tui_keys tbad q

# bad tunetoprc lines are reported, never fatal
mkdir -p "$XDG_CONFIG_HOME/tunetop"
printf 'config_version=1\nbogus=1\ndelay=abc\ncolumn_temp=0\nno equals sign\n' \
	>"$XDG_CONFIG_HOME/tunetop/tunetoprc"
tui_start cfg 120 40 -- --root "$root" --state-dir "$st"
tui_wait cfg "Settings: line 2: unknown key 'bogus'"; ok $? "bad line reported with its number"
tui_wait cfg 'policy4'; ok $? "still runs"
tui_wait_not cfg ' Temp$' 2; ok $? "good lines still apply (column_temp=0)"
tui_keys cfg F2
tui_wait cfg "line 3: delay: bad value 'abc'"; ok $? "setup lists every problem"
# toggle "Cores: temperature" (rows: theme, delay, start_screen, type, util,
# freq, idle, rates, temp)
tui_keys cfg Home Down Down Down Down Down Down Down Down Enter
wait_file "$XDG_CONFIG_HOME/tunetop/tunetoprc" '^column_temp=1$'; ok $? "setup saved tunetoprc"
grep -q '^config_version=1$' "$XDG_CONFIG_HOME/tunetop/tunetoprc"; ok $? "saved file is versioned"
grep -q bogus "$XDG_CONFIG_HOME/tunetop/tunetoprc"
ok $((! $?)) "unknown keys are not written back"
tui_keys cfg F3
tui_wait cfg ' Temp'; ok $? "temperature column is back"
tui_keys cfg q
tui_wait_exit cfg; ok $? "quit"

done_testing
