#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# No build path is compiled in (issue 34): ./tunetop in its build tree finds
# the source tree's profiles and themes through the file tunetop.srcdir the
# build writes beside it; the same binary elsewhere (installed, copied)
# does not look there, and a tunetop.srcdir that is not an absolute path to
# a directory is ignored.
. "$TT_SRCDIR/tests/lib.sh"

export HOME="$TMPD/home" XDG_CONFIG_HOME="$TMPD/home/.config"
mkdir -p "$HOME"
[ -f "$TT_BUILDDIR/tunetop.srcdir" ]
ok $? "the build wrote tunetop.srcdir beside the program"
is "$(cd "$(cat "$TT_BUILDDIR/tunetop.srcdir")" && pwd -P)" "$(cd "$TT_SRCDIR" && pwd -P)" "... naming the source tree"
like "$("$TUNETOP" apply --list 2>&1)" "$(cd "$TT_SRCDIR" && pwd -P)/profiles/rk3588-npu.profile" \
	"./tunetop in its build tree lists the source tree's profiles"
cp "$TUNETOP" "$TMPD/tunetop"
out=$("$TMPD/tunetop" apply --list 2>&1)
unlike "$out" "rk3588-npu.profile" "a copy elsewhere does not look in the source tree"
echo "relative/path" >"$TMPD/tunetop.srcdir"
unlike "$("$TMPD/tunetop" apply --list 2>&1)" "rk3588-npu.profile" "... nor with a relative tunetop.srcdir"
cd "$TT_SRCDIR" && pwd -P >"$TMPD/tunetop.srcdir"
like "$("$TMPD/tunetop" apply --list 2>&1)" "rk3588-npu.profile" "... and does with one naming the tree (the test can fail)"
done_testing
