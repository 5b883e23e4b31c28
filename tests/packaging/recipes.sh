#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Buildroot package and the Yocto recipe build as their tools would
# build them (tests/packaging/recipe_build.sh): each against a cross sysroot
# of Debian's armhf/arm64 packages that holds exactly the libraries the
# recipe declares for that configuration, with the recipe's configure
# options, then `make tunetop`.
#   Buildroot, armhf, minimal: headless, bundled INI parser, no demo board,
#     no optional library (a small image);
#   Yocto, armhf, the recipe's default PACKAGECONFIG for arm: the TUI,
#     libinih, the demo board, every optional library but libpfm4 (meta-oe
#     does not build it for arm);
#   Yocto, arm64, the default PACKAGECONFIG for aarch64: all that, and
#     libpfm4;
#   Buildroot, arm64, every optional package selected.
# The last two declare the same libraries, so their sysroots, config.h and
# flags are the same: the second copies the first one's objects and only
# links against its own sysroot (recipe_build.sh, RB_REUSE).
# The test of the test: the same script on a copy of the Yocto recipe
# without libinih in PACKAGECONFIG[inih] must fail, and so must the
# Buildroot package naming inih "libinih" and a Yocto recipe asking for
# libpfm4 on armhf (meta-oe builds it for aarch64 and powerpc64 only).
# The .debs are fetched once per run into the test's temporary directory.
# Runs once per run-all.sh (TT_SKIP_CROSS in the ASan build and distcheck).
# The second build of an architecture also starts from the first one's
# configure cache (compiler and C library results only).
# Budget: 207 CPU-seconds (117 user, 90 system; 632 s on two cores at a
# load average of 15), CFLAGS=-O0, only the program: three compiles, four
# links. The two builds of before (Buildroot armhf, Yocto arm64) took 138.
. "$TT_SRCDIR/tests/lib.sh"
unset MAKEFLAGS MFLAGS MAKELEVEL

[ -z "${TT_SKIP_CROSS:-}" ] || skip_all "recipe builds already tested in the first build of run-all.sh"
for t in python3 make apt-get dpkg-deb readelf arm-linux-gnueabihf-gcc aarch64-linux-gnu-gcc; do
	command -v $t >/dev/null 2>&1 ||
		skip_all "$t not installed (scripts/deps.sh --test: gcc-arm-linux-gnueabihf gcc-aarch64-linux-gnu)"
done
for a in armhf arm64; do
	dpkg --print-foreign-architectures | grep -qx $a ||
		skip_all "the $a architecture is not added (dpkg --add-architecture $a && apt-get update)"
done

S="$TT_SRCDIR"
P="$S/tests/packaging"
BR="$S/contrib/buildroot/tunetop"
BB=$(ls "$S"/contrib/yocto/tunetop_*.bb | head -n 1)
export RB_DEBS="$TMPD/debs" RB_REUSE="$TMPD/reuse" TT_SRCDIR
start=$(date +%s)

# the Debian compilers' own directories hold libc and libgcc only, so that
# the sysroot is the only place a library can come from
leak=""
for tr in arm-linux-gnueabihf aarch64-linux-gnu; do
	for h in ncurses.h ncursesw ini.h zlib.h zstd.h perfmon sensors tracefs traceevent; do
		[ -e "/usr/$tr/include/$h" ] && leak="$leak /usr/$tr/include/$h"
	done
	for l in libncursesw.so libinih.so libz.so libzstd.so libpfm.so libsensors.so libtracefs.so; do
		[ -e "/usr/$tr/lib/$l" ] && leak="$leak /usr/$tr/lib/$l"
	done
done
is "${leak# }" "" "the cross compilers see no library outside the sysroot"

br_min="BR2_PACKAGE_TUNETOP=y BR2_PACKAGE_TUNETOP_TUI=n BR2_PACKAGE_TUNETOP_BUNDLED_INIH=y BR2_PACKAGE_TUNETOP_DEMO=n"
br_full="BR2_PACKAGE_TUNETOP=y BR2_PACKAGE_TUNETOP_LIBPFM4=y BR2_PACKAGE_LM_SENSORS=y BR2_PACKAGE_ZSTD=y BR2_PACKAGE_ZLIB=y BR2_PACKAGE_LIBTRACEFS=y"

# every package of every build, fetched with one apt-get call
# shellcheck disable=SC2086
want=$({
	sh "$P/recipe_build.sh" --packages buildroot "$BR" armhf $br_min
	sh "$P/recipe_build.sh" --packages yocto "$BB" armhf
	sh "$P/recipe_build.sh" --packages yocto "$BB" arm64
	sh "$P/recipe_build.sh" --packages buildroot "$BR" arm64 $br_full
} | sort -u | tr '\n' ' ')
mkdir -p "$RB_DEBS"
# shellcheck disable=SC2086
(cd "$RB_DEBS" && apt-get download -q -o APT::Sandbox::User=root $want) >"$TMPD/apt.log" 2>&1 ||
	skip_all "the Debian archive is not reachable: apt-get download failed: $(tail -n 1 "$TMPD/apt.log")"
diag "fetched $(ls "$RB_DEBS" | wc -l) packages in $(($(date +%s) - start)) s"

# build NAME KIND RECIPE ARCH [CONFIG...]: one recipe build, its diagnostics
# kept in $TMPD/NAME.out
build() {
	n=$1
	shift
	RB_WORK="$TMPD/$n" sh "$P/recipe_build.sh" "$@" >"$TMPD/$n.out" 2>&1
}
# shellcheck disable=SC2086
build br-armhf buildroot "$BR" armhf $br_min
ok $? "Buildroot, armhf, headless + bundled inih + no demo: builds against its declared sysroot"
sed 's/^\([^#]\)/# \1/' "$TMPD/br-armhf.out"
unlike "$(cat "$TMPD/br-armhf.out")" "NEEDED:.* lib(ncurses|inih|tinfo)" "Buildroot minimal: no curses, no libinih"
build yocto-armhf yocto "$BB" armhf
ok $? "Yocto, armhf, default PACKAGECONFIG (no libpfm4): builds against its declared sysroot"
sed 's/^\([^#]\)/# \1/' "$TMPD/yocto-armhf.out"
is "$(grep -c '^#define HAVE_LIBPFM 1' "$TMPD/yocto-armhf/build/config.h" 2>/dev/null)" 0 \
	"Yocto armhf: without libpfm4"
like "$(cat "$TMPD/yocto-armhf.out")" "systemd unit directory /usr/lib/systemd/system" \
	"Yocto armhf: the unit goes to \${systemd_system_unitdir}"
build yocto-arm64 yocto "$BB" arm64
ok $? "Yocto, arm64, default PACKAGECONFIG (every optional library): builds against its declared sysroot"
sed 's/^\([^#]\)/# \1/' "$TMPD/yocto-arm64.out"
like "$(cat "$TMPD/yocto-arm64.out")" "NEEDED:.* libinih\\.so" "Yocto arm64: linked with libinih"
like "$(grep -c '^#define HAVE_LIBPFM 1' "$TMPD/yocto-arm64/build/config.h" 2>/dev/null)" '^1$' \
	"Yocto arm64: with libpfm4 (the aarch64 default)"
# shellcheck disable=SC2086
build br-arm64 buildroot "$BR" arm64 $br_full
ok $? "Buildroot, arm64, every optional package: builds against its declared sysroot"
sed 's/^\([^#]\)/# \1/' "$TMPD/br-arm64.out"
like "$(cat "$TMPD/br-arm64.out")" "NEEDED:.* libsensors\\.so" "Buildroot arm64: linked with libsensors"

# ---- the test of the test ------------------------------------------------------
# a declared dependency removed: configure cannot find libinih in the sysroot
bad="$TMPD/bad"
mkdir -p "$bad/yocto" "$bad/br"
sed 's/^\(PACKAGECONFIG\[inih\] = "[^,]*,[^,]*\),libinih"/\1,"/' "$BB" >"$bad/yocto/$(basename "$BB")"
! cmp -s "$bad/yocto/$(basename "$BB")" "$BB"
ok $? "a copy of the Yocto recipe without libinih in PACKAGECONFIG[inih]"
# (PACKAGECONFIG "inih" alone: a small sysroot, and configure stops early)
build bad-yocto yocto "$bad/yocto/$(basename "$BB")" arm64 inih
is "$?" 1 "recipe_build.sh fails on it"
like "$(tail -n 1 "$TMPD/bad-yocto.out")" "FAIL: configure failed" "configure stops (libinih is not in the sysroot)"
like "$(cat "$TMPD/bad-yocto.out")" "libinih not found" "and says libinih is missing"
# a Buildroot package name that does not exist (package/libinih)
cp "$BR"/* "$bad/br/"
sed -i 's/^TUNETOP_DEPENDENCIES += inih$/TUNETOP_DEPENDENCIES += libinih/' "$bad/br/tunetop.mk"
build bad-br buildroot "$bad/br" armhf BR2_PACKAGE_TUNETOP=y
is "$?" 1 "Buildroot: a dependency named libinih (the package is inih) fails"
like "$(tail -n 1 "$TMPD/bad-br.out")" "'libinih' is not a buildroot package" "and names it"
# libpfm4 by default on armhf: bitbake would stop with "Nothing PROVIDES"
sed 's/^PACKAGECONFIG ??= "/&pfm /' "$BB" >"$bad/yocto/pfm.bb"
build bad-pfm yocto "$bad/yocto/pfm.bb" armhf
is "$?" 1 "Yocto: pfm in the default PACKAGECONFIG fails on armhf"
like "$(tail -n 1 "$TMPD/bad-pfm.out")" "Nothing PROVIDES 'libpfm4' for arm" "as bitbake would (libpfm4's COMPATIBLE_HOST)"

diag "recipe builds: $(($(date +%s) - start)) s in all"
done_testing
