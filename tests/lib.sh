# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for shell tests: TAP output, temporary fixture copies.
# Source it: . "$TT_SRCDIR/tests/lib.sh"
set -u
: "${TUNETOP:?run through make check}"
: "${FIXTURES:=$TT_SRCDIR/tests/fixtures}"
# TT_HOST_SHAPE=NAME: run this test as if the machine had that cpufreq /
# cpuidle layout (tests/hostshape.sh), in a private mount namespace.
if [ -n "${TT_HOST_SHAPE:-}" ] && [ "$TT_HOST_SHAPE" != host ] &&
	[ "${TT_HOST_SHAPE_ACTIVE:-}" != "$TT_HOST_SHAPE" ]; then
	if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null 2>&1; then
		echo "1..0 # SKIP host shape $TT_HOST_SHAPE needs root and unshare"
		exit 0
	fi
	exec sh "$TT_SRCDIR/tests/hostshape.sh" run "$TT_HOST_SHAPE" \
		"$(readlink /proc/$$/exe 2>/dev/null || echo sh)" "$0" "$@"
fi
[ -n "${TT_HOST_SHAPE_ACTIVE:-}" ] &&
	printf '# host shape %s: /sys/devices/system/cpu is %s\n' "$TT_HOST_SHAPE_ACTIVE" \
		"$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null)"
_tap_n=0
_tap_fail=0
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/tunetop-test.XXXXXX")
export TUNETOP_STATE_DIR="$TMPD/state"
# set/apply watch each knob's effect for 500 ms after writing it (knob.h
# "effect"); on a fixture tree nothing moves, so tests skip the watch unless
# they test it (tests/knob/effect*.sh pass --verify MS)
export TUNETOP_VERIFY_MS="${TUNETOP_VERIFY_MS:-0}"
# the monitor's own threads at nice 0, not the default 10: on a loaded CI
# machine a niced tunetop can be starved past a test's deadline
# (tests/cli/self_place.sh tests the default)
export TUNETOP_SELF_NICE="${TUNETOP_SELF_NICE:-0}"
# exec runs the app in a child cgroup of its own, never in a systemd scope,
# even on a host that runs systemd: a test makes no unit of the machine's
# (tests/knob/exec_scope.sh runs the scope path with a fake systemd-run)
export TUNETOP_SYSTEMD_RUN=no
# Text for people follows the locale (UTF-8: "−", "µs"; else ASCII): the
# tests expect UTF-8 unless they set LC_ALL themselves.
export LANG=C.UTF-8
unset LC_ALL LC_CTYPE
trap 'tap_cleanup' EXIT

tap_cleanup() {
	[ -n "${TT_KEEP_TMP:-}" ] || rm -rf "$TMPD"
}

ok() { # ok COND_EXIT_STATUS DESCRIPTION
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_fail=$((_tap_fail + 1))
	fi
}

diag() { printf '# %s\n' "$@"; }

skip() { # skip DESCRIPTION REASON
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1 # SKIP $2"
}

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

is() { # is GOT WANT DESCRIPTION
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "got:  '$1'" "want: '$2'"
	fi
}

like() { # like GOT REGEX DESCRIPTION
	if printf '%s' "$1" | grep -Eq -- "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "got: '$1'" "does not match: '$2'"
	fi
}

unlike() { # unlike GOT REGEX DESCRIPTION
	if printf '%s' "$1" | grep -Eq -- "$2"; then
		ok 1 "$3"
		diag "matches: '$2':"
		# the whole lines, each a comment: the match alone hides what said it
		printf '%s\n' "$1" | grep -E -- "$2" | head -3 | sed 's/^/#   /'
	else
		ok 0 "$3"
	fi
}

done_testing() {
	echo "1..$_tap_n"
	[ "$_tap_fail" -eq 0 ]
}

# copy_fixture NAME -> prints the path of a private writable copy
copy_fixture() {
	local dst
	# a new directory each call, also under dash (no $RANDOM there)
	dst=$(mktemp -d "$TMPD/root-$1-XXXXXX") || return 1
	cp -a "$FIXTURES/$1/." "$dst"
	printf '%s\n' "$dst"
}

# knob_families SRC: the names of the knob families registered in
# SRC/knob/registry.c (SRC: a src/ tree or a test's copy of one), one a line
knob_families() {
	grep -o '&fam_[a-z_]*' "$1/knob/registry.c" | sed 's/&fam_//' | sort -u
}

# Same tree? (byte for byte, symlinks included; FIFOs and sockets by type,
# as diff -r calls two FIFOs different)
same_tree() {
	if [ -z "$(find "$1" "$2" \( -type p -o -type s -o -type b -o -type c \) -print 2>/dev/null |
		head -1)" ]; then
		diff -r --no-dereference "$1" "$2" >/dev/null 2>&1
		return
	fi
	[ "$(_tree_sum "$1")" = "$(_tree_sum "$2")" ]
}
_tree_sum() {
	(cd "$1" && find . -printf '%y %m %p %l\n' | LC_ALL=C sort &&
		find . -type f -exec md5sum {} + | LC_ALL=C sort)
}

# same_snapshots LABEL CMD...: for every fixture tree in $FIXTURES, the
# snapshot of CMD (another build of tunetop: a cross binary under qemu, a
# musl one), text and JSON, with --stable (time fields masked), must equal
# the snapshot of $TUNETOP byte for byte. One ok per fixture and format;
# the outputs stay in $TMPD/{native,LABEL}.FIXTURE.{text,json}.
same_snapshots() {
	local _label="$1" _f _fmt _args _d
	shift
	for _d in "$FIXTURES"/*/; do
		_f=$(basename "$_d")
		for _fmt in text json; do
			_args=
			[ $_fmt = json ] && _args=--json
			"$TUNETOP" --root "$FIXTURES/$_f" snapshot --interval 0 --stable $_args \
				>"$TMPD/native.$_f.$_fmt" 2>&1
			"$@" --root "$FIXTURES/$_f" snapshot --interval 0 --stable $_args \
				>"$TMPD/$_label.$_f.$_fmt" 2>&1
			if cmp -s "$TMPD/native.$_f.$_fmt" "$TMPD/$_label.$_f.$_fmt"; then
				ok 0 "$_f ($_fmt): the $_label snapshot equals the native one"
			else
				ok 1 "$_f ($_fmt): the $_label snapshot equals the native one"
				diff "$TMPD/native.$_f.$_fmt" "$TMPD/$_label.$_f.$_fmt" | head -20 | sed 's/^/# /'
			fi
		done
	done
}
