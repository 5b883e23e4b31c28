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

# ---- make install: the completions and the data where configure says -------
# the build's own configure: the defaults (bash from bash-completion.pc or
# DATADIR/bash-completion/completions, zsh DATADIR/zsh/site-functions, the
# unit from systemd.pc or PREFIX/lib/systemd/system)
mkv() { sed -n "s|^$1 = ||p" "$TT_BUILDDIR/Makefile"; }
like "$(mkv host)" '^[a-z0-9_]+-[a-z0-9_]+-linux' "configure: AC_CANONICAL_HOST fills host ($(mkv host))"
like "$(mkv zshcompletiondir)" '/zsh/(site-functions|vendor-completions)$' "configure: zshcompletiondir ($(mkv zshcompletiondir))"
like "$(mkv bashcompletiondir)" '/bash-completion/completions$' "configure: bashcompletiondir ($(mkv bashcompletiondir))"
like "$(mkv systemdsystemunitdir)" '/lib/systemd/system$' "configure: systemdsystemunitdir ($(mkv systemdsystemunitdir))"
dest="$TMPD/inst"
make -s -C "$TT_BUILDDIR" install-data DESTDIR="$dest" prefix=/usr bashcompletiondir=/b/c \
	zshcompletiondir=/z/c systemdsystemunitdir=/s/u >"$TMPD/install.log" 2>&1
ok $? "make install-data DESTDIR=..."
cmp -s "$TT_BUILDDIR/contrib/completion/tunetop.bash" "$dest/b/c/tunetop"
ok $? "bash completion in \$(bashcompletiondir)/tunetop"
cmp -s "$TT_BUILDDIR/contrib/completion/_tunetop" "$dest/z/c/_tunetop"
ok $? "zsh completion in \$(zshcompletiondir)/_tunetop"
[ -f "$dest/s/u/tunetop@.service" ]
ok $? "the systemd unit in \$(systemdsystemunitdir)"
n=$(ls "$S/doc/schema/"*.schema.json | wc -l)
is "$(ls "$dest/usr/share/tunetop/schema/"*.schema.json 2>/dev/null | wc -l)" "$n" \
	"the $n JSON schemas in \$(pkgdatadir)/schema"
cmp -s "$S/contrib/grafana/tunetop.json" "$dest/usr/share/tunetop/grafana/tunetop.json"
ok $? "the Grafana dashboard in \$(pkgdatadir)/grafana"
# ---- the .deb ------------------------------------------------------------------
deb_tests=17
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
# a configure of our own (here: ~15 s, skipped with the .deb): the three --with-...dir options (DIR and no)
mkdir -p "$TMPD/cf"
(cd "$TMPD/cf" && "$S/configure" -q --with-inih=bundled --disable-tui --with-libpfm=no \
	--with-sensors=no --with-zstd=no --with-zlib=no --with-tracefs=no \
	--with-bashcompletiondir=/opt/bc --with-zshcompletiondir=no \
	--with-systemdsystemunitdir=/opt/units) >"$TMPD/cf/out" 2>&1
ok $? "configure --with-bashcompletiondir=DIR --with-zshcompletiondir=no --with-systemdsystemunitdir=DIR"
# the completion scripts are generated by running tunetop: this build's,
# copied, and tunetop taken as up to date (-o), so that the check needs no
# second build
mkdir -p "$TMPD/cf/contrib/completion"
cp "$(dirname "$TUNETOP")/contrib/completion/tunetop.bash" "$TMPD/cf/contrib/completion/"
make -s -C "$TMPD/cf" -o tunetop install-data DESTDIR="$dest/cf" >"$TMPD/cf/install.log" 2>&1
ok $? "make install-data there" || sed 's/^/# /' "$TMPD/cf/install.log"
is "$(cd "$dest/cf" && find . -name tunetop -path '*/opt/bc/*' -o -name _tunetop -o -name 'tunetop@.service' | sort | tr '\n' ' ')" \
	"./opt/bc/tunetop ./opt/units/tunetop@.service " "... install there, and no zsh completion"

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
# lintian at its pedantic level, info tags shown: nothing but the overrides
# of debian/tunetop.lintian-overrides (each with its reason there)
lint=$(cd "$TMPD/deb" && lintian -I --pedantic --fail-on error,warning,info,pedantic *.changes 2>&1)
rc=$?
is "$rc" 0 "lintian -I --pedantic: exit 0"
is "$(printf '%s\n' "$lint" | grep -cE '^[EWIPX]:')" 0 "lintian -I --pedantic: no tag"
printf '%s\n' "$lint" | grep -E '^[EWIPXO]:' | sed 's/^/# lintian: /'
is "$(dpkg-deb -f "$deb" Recommends 2>/dev/null)" "libpfm4" \
	"Recommends: libpfm4 (dlopen()ed, so shlibs cannot see it)"
files=$(dpkg-deb -c "$deb" 2>/dev/null | awk '{ print $6 }' | sed 's|^\./|/|')
missing=""
for f in /usr/bin/tunetop /usr/share/man/man8/tunetop.8.gz /usr/share/doc/tunetop/copyright \
	/usr/share/bash-completion/completions/tunetop /usr/share/zsh/vendor-completions/_tunetop \
	/usr/lib/systemd/system/tunetop@.service; do
	printf '%s\n' "$files" | grep -qx -- "$f" || missing="$missing $f"
done
is "${missing# }" "" "the .deb holds the program, the man page, the license and the completions"
want=$(cd "$S/profiles" && ls *.profile | sed 's|^|/usr/share/tunetop/profiles/|' | tr '\n' ' ')
is "$(printf '%s\n' "$files" | grep '^/usr/share/tunetop/profiles/.' | sort | tr '\n' ' ')" "$want" "the .deb holds every profile"
want=$(cd "$S/themes" && ls *.theme | sed 's|^|/usr/share/tunetop/themes/|' | tr '\n' ' ')
is "$(printf '%s\n' "$files" | grep '^/usr/share/tunetop/themes/.' | sort | tr '\n' ' ')" "$want" "the .deb holds every theme"
want=$(cd "$S/doc/schema" && ls *.schema.json | sed 's|^|/usr/share/tunetop/schema/|' | tr '\n' ' ')
is "$(printf '%s\n' "$files" | grep '^/usr/share/tunetop/schema/.' | sort | tr '\n' ' ')" "$want" \
	"the .deb holds every JSON schema in /usr/share/tunetop/schema (not gzipped)"
printf '%s\n' "$files" | grep -qx /usr/share/tunetop/grafana/tunetop.json
ok $? "the Grafana dashboard in /usr/share/tunetop/grafana"
is "$(printf '%s\n' "$files" | grep -cE '^/usr/share/doc/tunetop/(schema|grafana|COPYING)')" 0 \
	"no data under /usr/share/doc, and the license only as copyright"
is "$(dpkg-deb -f "$deb" Version 2>/dev/null)" "$version" "the .deb's version is tunetop's"
dpkg-deb -x "$deb" "$TMPD/deb/x"
is "$("$TMPD/deb/x/usr/bin/tunetop" --version | sed -n 's/^tunetop \([^ ]*\).*/\1/p')" "$version" \
	"the packaged tunetop runs"

# install and remove it for real: as root, and only where no tunetop package
# is installed (the test removes only what it installed)
if [ "$(id -u)" != 0 ]; then
	skip "apt-get install ./tunetop.deb" "not root"
	skip "apt-get purge tunetop" "not root"
elif [ -e /usr/bin/tunetop ] || dpkg-query -W -f='${Status}' tunetop 2>/dev/null | grep -q installed; then
	skip "apt-get install ./tunetop.deb" "tunetop is installed already"
	skip "apt-get purge tunetop" "tunetop is installed already"
else
	apt-get install -y -q -o DPkg::Lock::Timeout=300 "$deb" >"$TMPD/deb/inst.log" 2>&1 &&
		[ "$(/usr/bin/tunetop --version | sed -n 's/^tunetop \([^ ]*\).*/\1/p')" = "$version" ] &&
		[ -f /usr/share/tunetop/schema/snapshot.schema.json ]
	ok $? "apt-get install ./tunetop_${version}.deb: /usr/bin/tunetop runs, the data is in place"
	[ $? = 0 ] || tail -n 5 "$TMPD/deb/inst.log" | sed 's/^/# /'
	apt-get purge -y -q -o DPkg::Lock::Timeout=300 tunetop >"$TMPD/deb/rm.log" 2>&1 &&
		[ ! -e /usr/bin/tunetop ] && [ ! -e /usr/share/tunetop/schema/snapshot.schema.json ] &&
		! dpkg-query -W -f='${Status}' tunetop 2>/dev/null | grep -q 'ok installed'
	ok $? "apt-get purge tunetop: nothing left"
fi
done_testing
