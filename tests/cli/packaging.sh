#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Packaging (README "Packaging"; the Buildroot and Yocto recipes are
# tests/packaging/recipes_lint.sh's and recipes.sh's): `make install` puts
# the shell completions where bash-completion and zsh look; the Debian
# package builds from a copy of the tree with dpkg-buildpackage, lintian
# reports no error, and the .deb holds the program, the man page,
# profiles, themes and the license.
# TT_SKIP_DEB=1 skips the (slow, ~2 min) .deb build.
. "$TT_SRCDIR/tests/lib.sh"
# the make running this test must not leak its flags (-w, the jobserver) into
# the makes below
unset MAKEFLAGS MFLAGS MAKELEVEL

S="$TT_SRCDIR"
version=$("$TUNETOP" --version | sed -n 's/^tunetop \([^ ]*\).*/\1/p')
like "$version" '^[0-9]+\.[0-9]+' "tunetop --version: $version"
confhelp=$("$S/configure" --help 2>/dev/null)
like "$confhelp" "--with-libpfm" "configure --help lists the --with options"

# ---- Buildroot and Yocto: tests/packaging/recipes_lint.sh and recipes.sh ----

# ---- Debian sources ------------------------------------------------------------
is "$(sed -n '1s/^tunetop (\([^)-]*\).*/\1/p' "$S/debian/changelog")" "$version" \
	"debian/changelog: the version is tunetop's"
is "$(cat "$S/debian/source/format")" "3.0 (native)" "debian/source/format"
like "$(head -n 1 "$S/debian/copyright")" "^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" \
	"debian/copyright: DEP-5"
like "$(grep '^License:' "$S/debian/copyright" | sort -u)" "^License: GPL-2\+$" "debian/copyright: GPL-2+"
like "$(cat "$S/debian/control")" "debhelper-compat \(= 13\)" "debian/control: debhelper compat 13"
bdeps=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' "$S/debian/control" | sed 's/^Build-Depends://; /^[A-Z]/d' |
	tr ',' '\n' | sed 's/^[ \t]*//; s/[ \t(].*//' | grep . | sort | tr '\n' ' ')
is "$bdeps" "debhelper-compat libinih-dev libncurses-dev libpfm4-dev libsensors-dev libtraceevent-dev libtracefs-dev libzstd-dev pkg-config zlib1g-dev " \
	"debian/control: Build-Depends"
missing=""
for p in $(sed -n 's/^pkgs="build-essential autoconf automake \(.*\)"$/\1/p' "$S/scripts/deps.sh"); do
	has=$(printf '%s' "$bdeps" | tr ' ' '\n' | grep -cx -- "$p")
	[ "$has" = 1 ] || missing="$missing $p"
done
is "${missing# }" "" "debian/control: every library and tool of scripts/deps.sh's build list"
is "$(sed -n '/^override_dh_auto_test:/,/^$/p' "$S/debian/rules" | grep -c '^	')" 0 \
	"debian/rules: the test suite is not run at package build time"

# ---- make install: the completions -------------------------------------------
dest="$TMPD/inst"
make -s -C "$TT_BUILDDIR" install-data DESTDIR="$dest" prefix=/usr >"$TMPD/install.log" 2>&1
ok $? "make install-data DESTDIR=..."
cmp -s "$S/contrib/completion/tunetop.bash" "$dest/usr/share/bash-completion/completions/tunetop"
ok $? "bash completion in \$(datadir)/bash-completion/completions/tunetop"
cmp -s "$S/contrib/completion/_tunetop" "$dest/usr/share/zsh/vendor-completions/_tunetop"
ok $? "zsh completion in \$(datadir)/zsh/vendor-completions/_tunetop"

# ---- the .deb ------------------------------------------------------------------
deb_tests=9
if [ -n "${TT_SKIP_DEB:-}" ]; then
	i=0
	while [ $i -lt $deb_tests ]; do skip "Debian package" "TT_SKIP_DEB is set"; i=$((i + 1)); done
	done_testing
	exit
fi
for t in dpkg-buildpackage dh lintian; do
	if ! command -v $t >/dev/null 2>&1; then
		i=0
		while [ $i -lt $deb_tests ]; do
			skip "Debian package" "$t is not installed (apt-get install dpkg-dev debhelper lintian)"
			i=$((i + 1))
		done
		done_testing
		exit
	fi
done
# a copy of the tree: the files git knows (committed or not, untracked but
# not ignored), or the whole directory where it is not a git checkout (a
# tarball)
src="$TMPD/deb/tunetop-$version"
mkdir -p "$src"
if [ "$(git -C "$S" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$S" && pwd -P)" ]; then
	(cd "$S" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -C "$src" -xf -
else
	cp -R "$S/." "$src/"
	chmod -R u+w "$src"
fi
[ -f "$src/debian/rules" ] && [ ! -e "$src/Makefile" ]
ok $? "a clean copy of the tree"
(cd "$src" && DEB_BUILD_OPTIONS="parallel=2 noddebs" \
	dpkg-buildpackage -b -uc -us) >"$TMPD/deb/build.log" 2>&1
rc=$?
is "$rc" 0 "dpkg-buildpackage -b -uc -us"
[ "$rc" = 0 ] || tail -n 20 "$TMPD/deb/build.log" | sed 's/^/# /'
deb=$(ls "$TMPD/deb/"tunetop_"$version"_*.deb 2>/dev/null | head -n 1)
lint=$(cd "$TMPD/deb" && lintian --fail-on error --display-info *.changes 2>&1)
rc=$?
is "$rc" 0 "lintian: no error"
is "$(printf '%s\n' "$lint" | grep -c '^E:')" 0 "lintian: no E: line"
printf '%s\n' "$lint" | grep -E '^[WI]:' | sed 's/^/# lintian: /'
files=$(dpkg-deb -c "$deb" 2>/dev/null | awk '{ print $6 }' | sed 's|^\./|/|')
missing=""
for f in /usr/bin/tunetop /usr/share/man/man8/tunetop.8.gz /usr/share/doc/tunetop/copyright \
	/usr/share/doc/tunetop/COPYING.gz /usr/share/bash-completion/completions/tunetop \
	/usr/share/zsh/vendor-completions/_tunetop; do
	printf '%s\n' "$files" | grep -qx -- "$f" || missing="$missing $f"
done
is "${missing# }" "" "the .deb holds the program, the man page, the license and the completions"
want=$(cd "$S/profiles" && ls *.profile | sed 's|^|/usr/share/tunetop/profiles/|' | tr '\n' ' ')
is "$(printf '%s\n' "$files" | grep '^/usr/share/tunetop/profiles/.' | sort | tr '\n' ' ')" "$want" "the .deb holds every profile"
want=$(cd "$S/themes" && ls *.theme | sed 's|^|/usr/share/tunetop/themes/|' | tr '\n' ' ')
is "$(printf '%s\n' "$files" | grep '^/usr/share/tunetop/themes/.' | sort | tr '\n' ' ')" "$want" "the .deb holds every theme"
is "$(dpkg-deb -f "$deb" Version 2>/dev/null)" "$version" "the .deb's version is tunetop's"
dpkg-deb -x "$deb" "$TMPD/deb/x"
is "$("$TMPD/deb/x/usr/bin/tunetop" --version | sed -n 's/^tunetop \([^ ]*\).*/\1/p')" "$version" \
	"the packaged tunetop runs"
done_testing
