#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Packaging (README "Packaging"): the Buildroot package and the Yocto recipe
# in contrib/ agree with the tree (version, license checksums, configure
# options); `make install` puts the shell completions where bash-completion
# and zsh look; the Debian package builds from a copy of the tree with
# dpkg-buildpackage, lintian reports no error, and the .deb holds the
# program, the man page, profiles, themes and the license.
# TT_SKIP_DEB=1 skips the (slow, ~2 min) .deb build.
. "$TT_SRCDIR/tests/lib.sh"
# the make running this test must not leak its flags (-w, the jobserver) into
# the makes below
unset MAKEFLAGS MFLAGS MAKELEVEL

S="$TT_SRCDIR"
BR="$S/contrib/buildroot/tunetop"
BB="$S/contrib/yocto/tunetop_git.bb"
version=$("$TUNETOP" --version | sed -n 's/^tunetop \([^ ]*\).*/\1/p')
like "$version" '^[0-9]+\.[0-9]+' "tunetop --version: $version"
sha=$(sha256sum "$S/COPYING" | cut -d' ' -f1)
md5=$(md5sum "$S/COPYING" | cut -d' ' -f1)
confhelp=$("$S/configure" --help 2>/dev/null)
like "$confhelp" "--with-libpfm" "configure --help lists the --with options"

# ---- Buildroot ---------------------------------------------------------------
cfg=$(cat "$BR/Config.in")
like "$cfg" "^config BR2_PACKAGE_TUNETOP$" "Config.in: BR2_PACKAGE_TUNETOP"
like "$(sed -n '/^config BR2_PACKAGE_TUNETOP$/,/^$/p' "$BR/Config.in" | sed -n '/^	help$/,$p' | sed -n 2p)" \
	'^	  [A-Za-z]' "Config.in: a help text under the symbol"
like "$cfg" 'select BR2_PACKAGE_NCURSES_WCHAR' "Config.in: ncurses with wchar"
like "$cfg" 'select BR2_PACKAGE_LIBINIH' "Config.in: libinih"
like "$cfg" 'depends on BR2_USE_WCHAR' "Config.in: depends on a wchar toolchain"
# tunetop.mk read by make as Buildroot would (github and autotools-package
# stubbed): VAR prints $(TUNETOP_VAR) with the BR2_ settings given after it
brvar() {
	v=$1
	shift
	printf '%s\n' 'github = https://github.com/$(1)/$(2)/archive/$(3)' \
		"include $BR/tunetop.mk" \
		"print: ; @echo \$(TUNETOP_$v)" | make -s -f - print "$@" 2>&1
}
is "$(brvar VERSION)" "$version" "tunetop.mk: VERSION is tunetop's"
like "$(brvar SITE)" "^https://" "tunetop.mk: SITE"
is "$(brvar LICENSE)" "GPL-2.0+" "tunetop.mk: LICENSE = GPL-2.0+"
is "$(brvar LICENSE_FILES)" "COPYING" "tunetop.mk: LICENSE_FILES = COPYING"
is "$(brvar AUTORECONF)" "YES" "tunetop.mk: AUTORECONF = YES"
is "$(brvar DEPENDENCIES)" "host-pkgconf ncurses libinih" "tunetop.mk: DEPENDENCIES without the optional packages"
is "$(brvar CONF_OPTS)" "--with-libpfm=no --with-sensors=no --with-zstd=no --with-zlib=no --with-tracefs=no" "tunetop.mk: and the options that turn them off"
is "$(brvar DEPENDENCIES BR2_PACKAGE_LIBPFM4=y BR2_PACKAGE_LM_SENSORS=y BR2_PACKAGE_ZSTD=y BR2_PACKAGE_ZLIB=y)" \
	"host-pkgconf ncurses libinih libpfm4 lm-sensors zstd zlib" "tunetop.mk: libpfm4, lm-sensors, zstd, zlib when selected"
is "$(brvar CONF_OPTS BR2_PACKAGE_ZSTD=y)" "--with-libpfm=no --with-sensors=no --with-zstd=yes --with-zlib=no --with-tracefs=no" \
	"tunetop.mk: --with-zstd=yes with zstd"
is "$(brvar CONF_OPTS BR2_PACKAGE_LIBTRACEFS=y)" "--with-libpfm=no --with-sensors=no --with-zstd=no --with-zlib=no --with-tracefs=yes" \
	"tunetop.mk: --with-tracefs=yes with libtracefs (probe --why)"
missing=""
for o in $(grep -oE -- '--with-[a-z]+' "$BR/tunetop.mk" "$BB" | sed 's/.*://' | sort -u); do
	printf '%s' "$confhelp" | grep -q -- "$o\[" || missing="$missing $o"
done
is "${missing# }" "" "every --with-X of tunetop.mk and the recipe is a configure option"
is "$(awk '$1 == "sha256" && $3 == "COPYING" { print $2 }' "$BR/tunetop.hash")" "$sha" \
	"tunetop.hash: the sha256 of COPYING"

# ---- Yocto -------------------------------------------------------------------
bbval() { sed -n "s/^$1 *?*= *\"\\(.*\\)\"\$/\\1/p" "$BB"; }
is "$(bbval LIC_FILES_CHKSUM)" "file://COPYING;md5=$md5" "tunetop_git.bb: LIC_FILES_CHKSUM is COPYING's md5"
is "$(bbval LICENSE)" "GPL-2.0-or-later" "tunetop_git.bb: LICENSE"
like "$(grep '^inherit' "$BB")" "^inherit( .*)? autotools( .*)? pkgconfig" "tunetop_git.bb: inherit autotools pkgconfig"
is "$(bbval DEPENDS)" "ncurses libinih" "tunetop_git.bb: DEPENDS"
like "$(bbval PV)" "^$version\\+git" "tunetop_git.bb: PV starts with the version"
is "$(bbval 'PACKAGECONFIG\[pfm\]')" "--with-libpfm=yes,--with-libpfm=no,libpfm4" "tunetop_git.bb: PACKAGECONFIG[pfm]"
is "$(bbval 'PACKAGECONFIG\[sensors\]')" "--with-sensors=yes,--with-sensors=no,lmsensors" "tunetop_git.bb: PACKAGECONFIG[sensors]"
is "$(bbval 'PACKAGECONFIG\[zstd\]')" "--with-zstd=yes,--with-zstd=no,zstd" "tunetop_git.bb: PACKAGECONFIG[zstd]"
is "$(bbval 'PACKAGECONFIG\[zlib\]')" "--with-zlib=yes,--with-zlib=no,zlib" "tunetop_git.bb: PACKAGECONFIG[zlib]"

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
cmp -s "$S/contrib/completion/tunetop.bash" "$dest/b/c/tunetop"
ok $? "bash completion in \$(bashcompletiondir)/tunetop"
cmp -s "$S/contrib/completion/_tunetop" "$dest/z/c/_tunetop"
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
make -s -C "$TMPD/cf" install-data DESTDIR="$dest/cf" >"$TMPD/cf/install.log" 2>&1
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
