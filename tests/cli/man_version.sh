#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Versions from one place (issue 34): the installed man page (the build's
# tunetop.8, from man/tunetop.8 with configure's values on the .TH line) says
# the version `tunetop --version` says and configure's release date, which
# NEWS's top entry and debian/changelog's top entry agree with; the source
# page holds no version of its own.
. "$TT_SRCDIR/tests/lib.sh"

version=$("$TUNETOP" --version | sed -n 's/^tunetop \([^ ]*\).*/\1/p')
like "$version" '^[0-9]+\.[0-9]+\.[0-9]+' "tunetop --version: $version"
man="$TT_BUILDDIR/tunetop.8"
[ -f "$man" ] || make -s -C "$TT_BUILDDIR" tunetop.8 >/dev/null 2>&1
th=$(grep '^\.TH ' "$man" 2>/dev/null)
date=$(sed -n 's/^RELEASE_DATE = //p' "$TT_BUILDDIR/Makefile")
like "$date" '^20[0-9][0-9]-[01][0-9]-[0-3][0-9]$' "configure's release date: $date"
is "$th" ".TH TUNETOP 8 \"$date\" \"tunetop $version\" \"System Administration\"" \
	"the built man page's .TH line: tunetop's version and configure's date"
is "$(grep -c '^\.TH TUNETOP 8 "@RELEASE_DATE@" "tunetop @VERSION@"' "$TT_SRCDIR/man/tunetop.8")" 1 \
	"man/tunetop.8 takes both from configure"
is "$(grep -c '@[A-Z_]*@' "$man")" 0 "no placeholder left in the built page"
news=$(grep -m 1 -E '^[0-9]+\.[0-9]+\.[0-9]+ \(' "$TT_SRCDIR/NEWS")
is "${news%% *}" "$version" "NEWS's top entry is this version"
like "$news" "^$version \\(${date%-*}\\)" "... of the release month ($news)"
cl=$(sed -n '1s/^tunetop (\([^)]*\)).*/\1/p' "$TT_SRCDIR/debian/changelog")
is "$cl" "$version" "debian/changelog's top entry is this version"
cldate=$(sed -n '/^ -- /{s/^ -- .*>  //p;q}' "$TT_SRCDIR/debian/changelog")
is "$(date -u -d "$cldate" +%Y-%m-%d 2>/dev/null)" "$date" "... of the release date ($cldate)"
# man renders it with that header (when man-db is installed)
if command -v man >/dev/null 2>&1; then
	like "$(MANWIDTH=80 man -l "$man" 2>/dev/null | tail -n 1)" "tunetop $version +$date" \
		"man -l tunetop.8: the footer names version and date"
else
	skip "man -l tunetop.8" "man is not installed"
fi
done_testing
