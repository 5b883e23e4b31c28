#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Buildroot package (contrib/buildroot/tunetop) and the Yocto recipe
# (contrib/yocto) follow their trees' conventions (what Buildroot's
# utils/check-package and a meta-openembedded review look at, at grep
# level), agree with configure.ac (version, options) and with each other
# (the release tarball's sha256), and give every optional library an
# explicit configure option in every configuration, so that a library the
# recipe does not declare is never picked up from the sysroot by chance.
# TT_RELEASE_TARBALL=PATH (doc/HACKING.md, "Packaging recipes"): also check
# that both recipes carry that tarball's sha256.
. "$TT_SRCDIR/tests/lib.sh"
[ -z "${TT_SKIP_SOURCE_ONLY:-}" ] || skip_all "checks the sources, the same in every build: ran in the first build of run-all.sh"
unset MAKEFLAGS MFLAGS MAKELEVEL
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"

S="$TT_SRCDIR"
P="$S/tests/packaging"
BR="$S/contrib/buildroot/tunetop"
version=$(sed -n 's/^AC_INIT(\[tunetop\], \[\([^]]*\)\].*/\1/p' "$S/configure.ac")
like "$version" '^[0-9]+\.[0-9]+\.[0-9]+$' "configure.ac: AC_INIT version $version"
confhelp=$("$S/configure" --help 2>/dev/null)
# the options of the optional parts, as configure names them
features="tui demo inih libpfm sensors zstd zlib tracefs"

# ---- Buildroot: tunetop.mk -------------------------------------------------------
mk="$BR/tunetop.mk"
rule=$(printf '%080d' 0 | tr 0 '#')
is "$(sed -n 1,6p "$mk" | tr '\n' '|')" "$rule|#|# tunetop|#|$rule||" \
	"tunetop.mk: the 80-# header is lines 1-5, then a blank line (check-package)"
is "$(grep -c '[[:space:]]$' "$BR/Config.in" "$mk" "$BR/tunetop.hash" | grep -vc ':0$')" 0 \
	"Buildroot files: no trailing whitespace"
is "$(tail -n 1 "$mk")" '$(eval $(autotools-package))' "tunetop.mk: ends with \$(eval \$(autotools-package))"
is "$(grep -E '^[A-Z0-9_]+ *(\+|:|\?)?=' "$mk" | grep -vc '^TUNETOP_')" 0 "tunetop.mk: every variable is TUNETOP_*"
br() { python3 "$P/recipe_deps.py" buildroot "$BR" "$@"; }
brmin=$(br BR2_PACKAGE_TUNETOP=y BR2_PACKAGE_TUNETOP_TUI=n BR2_PACKAGE_TUNETOP_BUNDLED_INIH=y BR2_PACKAGE_TUNETOP_DEMO=n)
brdef=$(br BR2_PACKAGE_TUNETOP=y)
brfull=$(br BR2_PACKAGE_TUNETOP=y BR2_PACKAGE_TUNETOP_LIBPFM4=y BR2_PACKAGE_LM_SENSORS=y BR2_PACKAGE_ZSTD=y \
	BR2_PACKAGE_ZLIB=y BR2_PACKAGE_LIBTRACEFS=y)
f() { printf '%s\n' "$2" | sed -n "s/^$1: //p"; }
is "$(f version "$brdef")" "$version" "tunetop.mk: TUNETOP_VERSION is configure.ac's"
like "$(f site "$brdef")" "^https://github\\.com/tunetop/tunetop/releases/download/v$version\$" \
	"tunetop.mk: the release tarball's site (make dist: configure included)"
is "$(f autoreconf "$brdef")" "" "tunetop.mk: no AUTORECONF (the tarball has configure)"
is "$(f deps "$brmin")" "host-pkgconf" "Buildroot minimal (headless, bundled inih, no demo): host-pkgconf only"
is "$(f deps "$brdef")" "host-pkgconf ncurses inih" "Buildroot default: ncurses and inih (Buildroot's name, not libinih)"
is "$(f deps "$brfull")" "host-pkgconf ncurses inih libpfm4 lm-sensors zstd zlib libtracefs libtraceevent" \
	"Buildroot with every optional package"
like "$(f enabled "$brdef")" "BR2_PACKAGE_NCURSES_WCHAR" "Buildroot default: ncurses with wchar selected"
like "$(f enabled "$brdef")" "BR2_PACKAGE_INIH( |\$)" "Buildroot default: BR2_PACKAGE_INIH selected"
unlike "$(f enabled "$brmin")" "BR2_PACKAGE_(INIH|NCURSES)( |\$)" "Buildroot minimal: neither inih nor ncurses selected"
# every optional part has an explicit option in every configuration
for cfg in brmin brdef brfull; do
	eval "o=\$$cfg"
	miss=""
	for x in $features; do
		printf '%s\n' "$(f opts "$o")" | grep -qE -- "--(with|enable|disable|without)-$x(=| |\$)" || miss="$miss $x"
	done
	is "${miss# }" "" "tunetop.mk ($cfg): an explicit option for each of: $features"
done
out=$(br BR2_PACKAGE_TUNETOP=y BR2_PACKAGE_TUNETOP_LIBPFM4=y BR2_STATIC_LIBS=y 2>&1)
like "$out" "BR2_PACKAGE_TUNETOP_LIBPFM4=y has unmet dependencies" "Buildroot: no libpfm4 option in a static build (dlopen())"

# ---- Buildroot: Config.in --------------------------------------------------------
cfg=$(cat "$BR/Config.in")
main=$(sed -n '/^config BR2_PACKAGE_TUNETOP$/,/^[a-z]/p' "$BR/Config.in")
like "$main" '	depends on BR2_USE_MMU # fork\(\)' "Config.in: depends on BR2_USE_MMU # fork()"
like "$main" '	depends on BR2_TOOLCHAIN_HAS_THREADS' "Config.in: depends on threads"
like "$main" '	select BR2_PACKAGE_INIH if !BR2_PACKAGE_TUNETOP_BUNDLED_INIH' "Config.in: selects inih unless bundled"
unlike "$cfg" 'LIBINIH' "Config.in: no BR2_PACKAGE_LIBINIH (the package is inih)"
tui=$(sed -n '/^config BR2_PACKAGE_TUNETOP_TUI$/,/^$/p' "$BR/Config.in")
like "$tui" '	depends on BR2_USE_WCHAR' "Config.in: the TUI depends on a wchar toolchain"
like "$tui" '	select BR2_PACKAGE_NCURSES_WCHAR' "Config.in: the TUI selects ncurses with wchar"
pfm=$(sed -n '/^config BR2_PACKAGE_TUNETOP_LIBPFM4$/,/^$/p' "$BR/Config.in")
like "$pfm" '	depends on !BR2_STATIC_LIBS # dlopen\(\)' "Config.in: libpfm4 depends on !BR2_STATIC_LIBS # dlopen()"
like "$pfm" '	depends on BR2_TOOLCHAIN_HAS_THREADS_NPTL' "Config.in: and on NPTL, as libpfm4 does"
for o in TUI BUNDLED_INIH DEMO LIBPFM4; do
	like "$cfg" "config BR2_PACKAGE_TUNETOP_$o
	bool \"[^\"]+\"" "Config.in: sub-option BR2_PACKAGE_TUNETOP_$o"
done
like "$cfg" 'comment "tunetop needs a toolchain w/ threads"
	depends on BR2_USE_MMU
	depends on !BR2_TOOLCHAIN_HAS_THREADS' "Config.in: a comment for toolchains without threads"
# check-package: attributes indented by one tab, help text by a tab and two
# spaces within 72 columns
bad=$(awk '/^$/ { next }
	/^(config|comment|if|endif)( |$)/ { h = 0; next }
	/^\thelp$/ { h = 1; next }
	h && !/^\t  [^ ]/ { print NR": "$0; next }
	h && length($0) + 7 > 72 { print NR": long: "$0; next }
	!h && !/^\t(bool|default|depends on|select|help)( |$)/ { print NR": "$0 }' "$BR/Config.in")
is "$bad" "" "Config.in: indentation and help text as check-package wants"
# and its attribute order: bool, default, depends on, select, help
bad=$(awk '/^(config|comment|if|endif)( |$)/ { last = 0; next }
	/^\t(bool|default|depends on|select|help)( |$)/ {
		k = $1 == "bool" ? 1 : $1 == "default" ? 2 : $1 == "depends" ? 3 : $1 == "select" ? 4 : 5
		if (k < last) print NR": "$0
		last = k }' "$BR/Config.in")
is "$bad" "" "Config.in: attributes in check-package's order"

# ---- Buildroot: tunetop.hash ----------------------------------------------------------
hash="$BR/tunetop.hash"
is "$(grep -v '^#' "$hash" | grep -v '^$' | grep -cvE '^sha256  [0-9a-f]{64}  [^ ]+$')" 0 \
	"tunetop.hash: 'sha256  HASH  FILE' lines"
br_sha=$(awk -v f="tunetop-$version.tar.gz" '$1 == "sha256" && $3 == f { print $2 }' "$hash")
like "$br_sha" '^[0-9a-f]{64}$' "tunetop.hash: the sha256 of tunetop-$version.tar.gz"
is "$(awk '$1 == "sha256" && $3 == "COPYING" { print $2 }' "$hash")" "$(sha256sum "$S/COPYING" | cut -d' ' -f1)" \
	"tunetop.hash: the sha256 of COPYING"

# ---- Yocto ----------------------------------------------------------------------
BB="$S/contrib/yocto/tunetop_$version.bb"
is "$(ls "$S"/contrib/yocto/*.bb | xargs -n 1 basename | tr '\n' ' ')" "tunetop_$version.bb " \
	"contrib/yocto: one recipe, tunetop_\${PV}.bb with configure.ac's version"
[ -f "$BB" ] || BB=$(ls "$S"/contrib/yocto/*.bb | head -n 1)
bb() { python3 "$P/recipe_deps.py" yocto "$BB" "$@"; }
ya=$(bb aarch64)
yarm=$(bb arm)
yx86=$(bb x86_64)
ynone=$(bb arm "")
is "$(f packageconfig "$ya")" "tui inih demo sensors zstd zlib tracefs pfm" "Yocto aarch64: the default PACKAGECONFIG has pfm"
is "$(f packageconfig "$yarm")" "tui inih demo sensors zstd zlib tracefs" "Yocto arm: no pfm (libpfm4 is COMPATIBLE_HOST powerpc64|aarch64)"
is "$(f packageconfig "$yx86")" "tui inih demo sensors zstd zlib tracefs" "Yocto x86-64: no pfm"
for a in riscv64 i686 powerpc64le; do
	bb $a >/dev/null 2>"$TMPD/err"
	ok $? "Yocto $a: the default PACKAGECONFIG resolves ($(cat "$TMPD/err"))"
done
is "$(f deps "$ya" | tr ' ' '\n' | sort | tr '\n' ' ')" "libinih libpfm4 libtraceevent libtracefs lmsensors ncurses zlib zstd " \
	"Yocto aarch64: DEPENDS"
is "$(f deps "$ynone")" "" "Yocto, PACKAGECONFIG empty: no DEPENDS (bundled inih, headless)"
like "$(f opts "$ynone")" "--with-inih=bundled" "Yocto, without inih: --with-inih=bundled"
is "$(f rdeps "$ya")" "libpfm4 ncurses-terminfo-base" "Yocto aarch64: RDEPENDS libpfm4 (dlopen()ed) and ncurses-terminfo-base"
is "$(f rdeps "$ynone")" "" "Yocto headless: no ncurses-terminfo-base"
for cfg in ya yarm ynone; do
	eval "o=\$$cfg"
	miss=""
	for x in $features; do
		printf '%s\n' "$(f opts "$o")" | grep -qE -- "--(with|enable|disable|without)-$x(=| |\$)" || miss="$miss $x"
	done
	is "${miss# }" "" "Yocto ($cfg): an explicit option for each of: $features"
done
like "$(f inherit "$ya")" "(^| )autotools( |\$)" "Yocto: inherit autotools"
like "$(f inherit "$ya")" "(^| )pkgconfig( |\$)" "Yocto: inherit pkgconfig"
like "$(f inherit "$ya")" "(^| )bash-completion( |\$)" "Yocto: inherit bash-completion"
unlike "$(grep '^FILES' "$BB")" "bash-completion" "Yocto: no completion directory in FILES by hand"
# the systemd unit: where the distro keeps units, packaged by systemd.bbclass
unit=$(sed -n 's/^systemdsystemunit_DATA = contrib\/systemd\///p' "$S/Makefile.am")
like "$unit" '^tunetop@\.service$' "Makefile.am installs the template unit tunetop@.service"
like "$(f inherit "$ya")" "(^| )systemd( |\$)" "Yocto: inherit systemd (the package ships $unit)"
like " $(f opts "$ya") " " --with-systemdsystemunitdir=/usr/lib/systemd/system " \
	"Yocto: --with-systemdsystemunitdir=\${systemd_system_unitdir} (expanded as bitbake.conf does)"
like "$(cat "$BB")" 'EXTRA_OECONF \+= "[^"]*--with-systemdsystemunitdir=\$\{systemd_system_unitdir\}' \
	"Yocto: the unit directory is bitbake's variable, not a path"
is "$(f systemd_service "$ya")" "$unit" "Yocto: SYSTEMD_SERVICE:\${PN} is the unit make install puts there"
is "$(f systemd_auto_enable "$ya")" "disable" "Yocto: a template unit (needs a profile): SYSTEMD_AUTO_ENABLE disable"
unlike "$(grep '^FILES' "$BB")" "systemd" "Yocto: no unit directory in FILES by hand"
unlike "$(cat "$BB")" "AUTOREV" "Yocto: no AUTOREV"
is "$(f s "$ya")" "" "Yocto: no S (the tarball unpacks to \${BP})"
like "$(f src_uri "$ya")" '^https://github\.com/tunetop/tunetop/releases/download/v\$\{PV\}/\$\{BP\}\.tar\.gz$' \
	"Yocto: SRC_URI is the release tarball"
is "$(f sha256 "$ya")" "$br_sha" "Yocto: SRC_URI[sha256sum] is the tarball's, as in tunetop.hash"
unlike "$(cat "$BB")" '_(append|prepend|remove)|RDEPENDS_|FILES_\$' "Yocto: ':' override syntax only"
bbval() { sed -n "s/^$1 *?*= *\"\\(.*\\)\"\$/\\1/p" "$BB"; }
is "$(bbval LIC_FILES_CHKSUM)" "file://COPYING;md5=$(md5sum "$S/COPYING" | cut -d' ' -f1)" "Yocto: LIC_FILES_CHKSUM is COPYING's md5"
is "$(bbval LICENSE)" "GPL-2.0-or-later" "Yocto: LICENSE"

# ---- both: options configure knows ---------------------------------------------
missing=""
for o in $(f opts "$brfull") $(f opts "$brmin") $(f opts "$ya") $(f opts "$ynone"); do
	x=$(printf '%s' "$o" | sed 's/^--\(enable\|disable\|with\|without\)-//; s/=.*//')
	printf '%s\n' "$confhelp" | grep -qE -- "--(enable|disable|with|without)-$x(\\[|=| |\$)" || missing="$missing $o"
done
is "${missing# }" "" "every configure option of both recipes is one of configure's"

# ---- a release tarball, when given ---------------------------------------------
if [ -n "${TT_RELEASE_TARBALL:-}" ]; then
	t=$(sha256sum "$TT_RELEASE_TARBALL" | cut -d' ' -f1)
	is "$(basename "$TT_RELEASE_TARBALL")" "tunetop-$version.tar.gz" "the release tarball is tunetop-$version.tar.gz"
	is "$br_sha" "$t" "tunetop.hash: the sha256 of $TT_RELEASE_TARBALL"
	is "$(f sha256 "$ya")" "$t" "the Yocto recipe: the sha256 of $TT_RELEASE_TARBALL"
else
	for i in 1 2 3; do skip "the release tarball's sha256" "TT_RELEASE_TARBALL is not set (doc/HACKING.md, Packaging recipes)"; done
fi
done_testing
