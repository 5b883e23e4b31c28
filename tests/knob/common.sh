# SPDX-License-Identifier: GPL-2.0-or-later
# Shared setup for the knob shell tests (sourced after tests/lib.sh).
export TUNETOP_PROFILES_DIR="$TT_SRCDIR/profiles"
export XDG_CONFIG_HOME="$TMPD/config"
unset TUNETOP_TEST_FAULT
STATE="$TMPD/state"
root=
_copies=0
# tt ARGS...: tunetop on the current $root with the test's state dir (never
# on the live system: the tests only write copied fixture trees)
tt() {
	case "$root" in
	"$TMPD"/?*) "$TUNETOP" --root "$root" --state-dir "$STATE" "$@" ;;
	*) echo "test bug: root '$root' is not a copy under $TMPD" >&2; return 99 ;;
	esac
}
# fresh BOARD: a private copy of a fixture in $root (like copy_fixture,
# without relying on bash's $RANDOM)
fresh() {
	_copies=$((_copies + 1))
	board=$1
	root="$TMPD/root-$1-$_copies"
	cp -a "$FIXTURES/$1" "$root" || root=
}
# file REL: contents of a file of the current root
file() { [ -n "$root" ] && cat "$root/$1"; }
# pristine [REF]: is $root identical to the fixture (or to REF)?
pristine() { same_tree "${1:-$FIXTURES/$board}" "$root"; }
show_diff() { diff -r --no-dereference "${1:-$FIXTURES/$board}" "$root" 2>&1 | head -8 | sed 's/^/# /'; }
# cycle BOARD "ADDR=VALUE ..." REL=EXPECTED...: set, check files, restore, compare
cycle() {
	_b=$1
	_a=$2
	shift 2
	fresh "$_b"
	set -f # the assignments hold '*' and '>'
	# shellcheck disable=SC2086
	_out=$(tt set $_a 2>&1)
	_rc=$?
	set +f
	is "$_rc" 0 "$_b: set $_a"
	[ "$_rc" -eq 0 ] || printf '# %s\n' "$_out"
	for _fc in "$@"; do
		is "$(file "${_fc%%=*}")" "${_fc#*=}" "$_b: ${_fc%%=*} = ${_fc#*=}"
	done
	tt restore >/dev/null 2>&1
	ok $? "$_b: restore exits 0"
	if pristine; then ok 0 "$_b: diff -r against the fixture is empty after restore"; else
		ok 1 "$_b: diff -r against the fixture is empty after restore"; show_diff; fi
}

# ---- tunetop exec in the background (exec_follow.sh, exec_hold.sh) --------
# Every wait polls for a condition with a generous deadline.
LIMIT=${TT_TUI_LIMIT:-30}
# until_ok SECONDS CMD...: poll CMD every 0.1 s until it succeeds (1: deadline)
until_ok() {
	_n=$(($1 * 10))
	shift
	while [ "$_n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}
# has_line FILE REGEX: a line of FILE matches (grep)
has_line() { grep -q -- "$2" "$1" 2>/dev/null; }
# exec_bg ARGS...: tunetop exec ARGS in the background on $root with the
# test's state dir; its pid in $tpid, its stderr in $TMPD/err. The app is
# to run until $TMPD/stop exists.
exec_bg() {
	rm -f "$TMPD/stop" "$TMPD/app.pid" "$TMPD/err"
	"$TUNETOP" --root "$root" --state-dir "$STATE" exec "$@" 2>"$TMPD/err" &
	tpid=$!
}
# finish: let the app end, wait for tunetop exec; its status in $trc
finish() {
	touch "$TMPD/stop"
	wait "$tpid"
	trc=$?
}

# ---- a daemonizing app (exec_follow.sh, exec_scope.sh) --------------------
alive() { kill -0 "$1" 2>/dev/null; }
# gone, or a zombie nobody reaps yet (a container's init may not)
dead() { ! kill -0 "$1" 2>/dev/null || [ "$(awk '{ print $3 }' /proc/"$1"/stat 2>/dev/null)" = Z ]; }
# make_start_script: $TMPD/start.sh DIR backgrounds a waiter (nohup, like a
# service's start.sh) that runs until DIR/stop exists, writes the waiter's
# pid to DIR/app.pid, and exits at once
make_start_script() {
	cat >"$TMPD/start.sh" <<'EOF'
#!/bin/sh
nohup sh -c 'while [ ! -e "$0/stop" ]; do sleep 0.1; done' "$1" >/dev/null 2>&1 &
echo $! >"$1/app.pid.tmp"
mv "$1/app.pid.tmp" "$1/app.pid"
exit 0
EOF
	chmod +x "$TMPD/start.sh"
}
