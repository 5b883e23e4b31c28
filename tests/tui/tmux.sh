# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the TUI tests: run tunetop in a detached tmux pane on a private
# tmux server, send keys, and poll the pane's text (never fixed sleeps).
# Source after tests/lib.sh:  . "$TT_SRCDIR/tests/tui/tmux.sh"
command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"

TUI_SOCK="tunetop-test-$$"
TUI_TERM=tmux-256color
infocmp "$TUI_TERM" >/dev/null 2>&1 || TUI_TERM=screen-256color
infocmp "$TUI_TERM" >/dev/null 2>&1 || TUI_TERM=xterm-256color
export XDG_CONFIG_HOME="$TMPD/config"
export TUNETOP_THEMES_DIR="$TT_SRCDIR/themes"
unset NO_COLOR

# A private server whose panes stay after their program exits (so that the
# exit status can be read).
printf 'set -g remain-on-exit on\nset -g history-limit 100\n' >"$TMPD/tmux.conf"
# The default deadline of the waits below, in seconds: generous, since a
# wait returns as soon as its condition holds and only a failure waits it
# out (a machine busy with another build can take seconds to redraw).
TUI_LIMIT=${TT_TUI_LIMIT:-30}
tmx() { tmux -L "$TUI_SOCK" -f "$TMPD/tmux.conf" "$@"; }

tui_cleanup() {
	tmx kill-server >/dev/null 2>&1
	tap_cleanup
}
trap 'tui_cleanup' EXIT

# tui_start NAME COLS ROWS [VAR=value...] -- tunetop arguments...
# Starts "$TUNETOP ARGS" in session NAME under sh, which records its exit
# status in $TMPD/NAME.rc (tmux's own pane_dead_status is racy); stderr goes
# to $TMPD/NAME.err. Extra environment goes before "--".
tui_start() {
	local name=$1 cols=$2 rows=$3 envs="" cmd
	shift 3
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		envs="$envs $1"
		shift
	done
	[ "${1:-}" = "--" ] && shift
	rm -f "$TMPD/$name.rc"
	cmd="env TERM=$TUI_TERM LANG=C.UTF-8 XDG_CONFIG_HOME=$XDG_CONFIG_HOME TUNETOP_THEMES_DIR=$TUNETOP_THEMES_DIR$envs $TUNETOP $* 2>$TMPD/$name.err; echo \$? >$TMPD/$name.rc.tmp; mv $TMPD/$name.rc.tmp $TMPD/$name.rc"
	tmx new-session -d -s "$name" -x "$cols" -y "$rows" "$cmd"
}

tui_screen() { tmx capture-pane -p -t "$1" 2>/dev/null; }
tui_keys() {
	local name=$1
	shift
	tmx send-keys -t "$name" "$@"
}
# PID of the tunetop in pane NAME (the child of the pane's shell).
tui_pid() {
	local pp i=0 kids
	pp=$(tmx display-message -p -t "$1" '#{pane_pid}')
	while [ "$i" -lt 300 ]; do
		kids=$(cat "/proc/$pp/task/$pp/children" 2>/dev/null)
		for k in $kids; do
			[ "$(readlink "/proc/$k/exe" 2>/dev/null)" = "$(readlink -f "$TUNETOP")" ] && {
				echo "$k"
				return 0
			}
		done
		# env may not have exec'ed yet
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
tui_dead() { [ -f "$TMPD/$1.rc" ]; }
# Exit status of tunetop in pane NAME (after tui_wait_exit).
tui_status() { cat "$TMPD/$1.rc" 2>/dev/null; }

# tui_wait NAME REGEX [SECONDS]: until the pane shows REGEX (extended).
tui_wait() {
	local name=$1 re=$2 limit=${3:-$TUI_LIMIT} i=0
	while [ "$i" -lt $((limit * 10)) ]; do
		if tui_screen "$name" | grep -Eq -- "$re"; then
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	diag "timeout waiting for /$re/ in $name; the pane shows:"
	tui_screen "$name" | sed 's/^/#   /'
	return 1
}

# tui_wait_not NAME REGEX [SECONDS]: until REGEX is gone.
# Columns of a table by their header, not by position: which columns a
# screen shows depends on the host (the Cores screen drops Type where every
# CPU is alike and adds C-state, Ent/s, Miss/s and Off where there are idle
# states). The header is the first line matching HEADER_RE; the cells are
# counted from the right, where every column is one word.
# tui_cell NAME HEADER_RE ROW_RE COLUMN: print that cell of the first row
# matching ROW_RE (empty: no such row or column).
tui_cell() {
	tui_screen "$1" | awk -v hre="$2" -v re="$3" -v col="$4" '
		!h && $0 ~ hre { nh = split($0, H, " "); h = 1; next }
		h && $0 ~ re {
			n = split($0, F, " ")
			for (i = nh; i > 0 && nh - i < n; i--)
				if (H[i] == col) { print F[n - (nh - i)]; exit }
			exit
		}'
}
# tui_wait_cell NAME HEADER_RE ROW_RE COLUMN VALUE_RE [SECONDS]: until that
# cell matches VALUE_RE (the whole cell).
tui_wait_cell() {
	local name=$1 hre=$2 re=$3 col=$4 vre=$5 limit=${6:-10} i=0 v=
	while [ "$i" -lt $((limit * 10)) ]; do
		v=$(tui_cell "$name" "$hre" "$re" "$col")
		if printf '%s\n' "$v" | grep -Eqx -- "$vre"; then
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	diag "timeout waiting for column $col of /$re/ to match /$vre/ in $name (got '$v'); the pane shows:"
	tui_screen "$name" | sed 's/^/#   /'
	return 1
}
# The Cores screen's header line, whatever columns this host gives it.
CORES_HDR='^ CPU +(Type +)?Util'

tui_wait_not() {
	local name=$1 re=$2 limit=${3:-$TUI_LIMIT} i=0
	while [ "$i" -lt $((limit * 10)) ]; do
		tui_screen "$name" | grep -Eq -- "$re" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	diag "timeout waiting for /$re/ to go away in $name"
	return 1
}

# tui_wait_exit NAME [SECONDS]: until tunetop has exited.
tui_wait_exit() {
	local name=$1 limit=${2:-$TUI_LIMIT} i=0
	while [ "$i" -lt $((limit * 10)) ]; do
		tui_dead "$name" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	diag "timeout waiting for $name to exit"
	return 1
}

# wait_file FILE REGEX [SECONDS]: until FILE's contents match.
wait_file() {
	local f=$1 re=$2 limit=${3:-$TUI_LIMIT} i=0
	while [ "$i" -lt $((limit * 10)) ]; do
		grep -Eq -- "$re" "$f" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	diag "timeout waiting for /$re/ in $f: $(cat "$f" 2>&1)"
	return 1
}
