# Shared helpers for shell tests: TAP output, temporary fixture copies.
# Source it: . "$TT_SRCDIR/tests/lib.sh"
set -u
: "${TUNETOP:?run through make check}"
: "${FIXTURES:=$TT_SRCDIR/tests/fixtures}"
_tap_n=0
_tap_fail=0
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/tunetop-test.XXXXXX")
export TUNETOP_STATE_DIR="$TMPD/state"
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

done_testing() {
	echo "1..$_tap_n"
	[ "$_tap_fail" -eq 0 ]
}

# copy_fixture NAME -> prints the path of a private writable copy
copy_fixture() {
	local dst="$TMPD/root-$1-$RANDOM"
	cp -a "$FIXTURES/$1" "$dst"
	printf '%s\n' "$dst"
}

# Same tree? (byte for byte, symlinks included)
same_tree() { diff -r --no-dereference "$1" "$2" >/dev/null 2>&1; }
