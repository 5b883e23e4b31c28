#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build tunetop as a recipe's build tool would, against a cross sysroot that
# holds only what the recipe declares (used by tests/packaging/recipes.sh):
#
#   recipe_build.sh [--packages] buildroot DIR ARCH [BR2_SYMBOL=y|n...]
#   recipe_build.sh [--packages] yocto FILE.bb ARCH [PACKAGECONFIG]
#
# ARCH is a Debian architecture (armhf, arm64). The recipe is read by
# recipe_deps.py (Kconfig + tunetop.mk through make; the .bb's assignments
# with the overrides of ARCH); each declared dependency is mapped to the
# Debian -dev and library packages that hold the same library (a name the
# tool does not have is an error); those packages plus libc6-dev, fetched
# with `apt-get download` into $RB_DEBS (kept there), are unpacked with
# dpkg-deb -x into an empty sysroot; configure runs with --host, the cross
# compiler's --sysroot and pkg-config confined to it, and the tool's usual
# options plus the recipe's; then `make tunetop`. It fails when configure or
# make does, when the binary needs a library that no declared dependency
# provides, when a declared dependency is not used, and (Yocto) when a
# dlopen()ed library or the terminfo base is not in RDEPENDS.
# --packages prints the Debian packages (PKG:ARCH) and does nothing else.
# Environment: RB_DEBS (the .deb cache), RB_WORK (an empty work directory),
# TT_SRCDIR; RB_CFLAGS (default -O0 -pipe); RB_REUSE (optional: a directory
# where builds record their key, so that a later build with the same
# packages, config.h and flags links the earlier one's objects instead of
# compiling them again).
# Prints diagnostics as "# ..." lines; exits 0 when the build is right, 1
# when not (the last line says why), 2 when the packages cannot be fetched.
set -u
list_only=0
[ "${1:-}" = --packages ] && list_only=1 && shift
kind=$1 recipe=$2 arch=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
t0=$(date +%s)

say() { printf '# %s\n' "$*"; }
fail() {
	say "$*"
	echo "recipe_build: FAIL: $*"
	exit 1
}

case $arch in
armhf) triplet=arm-linux-gnueabihf machine=ARM yarch=arm ;;
arm64) triplet=aarch64-linux-gnu machine=AArch64 yarch=aarch64 ;;
*) fail "unknown architecture $arch" ;;
esac

# ---- what the recipe declares ------------------------------------------------
case $kind in
buildroot) parsed=$(python3 "$here/recipe_deps.py" buildroot "$recipe" "$@" 2>&1) ;;
yocto) parsed=$(python3 "$here/recipe_deps.py" yocto "$recipe" "$yarch" "$@" 2>&1) ;;
*) fail "unknown recipe kind $kind" ;;
esac
[ $? = 0 ] || fail "$(printf '%s\n' "$parsed" | tail -n 1)"
field() { printf '%s\n' "$parsed" | sed -n "s/^$1: //p"; }
deps=$(field deps)
opts=$(field opts)
rdeps=$(field rdeps)

# pkgs NAME: the Debian packages that hold what the tool's package NAME
# installs into the staging directory / recipe sysroot
pkgs() {
	case $kind:$1 in
	*:ncurses) echo libncurses-dev libncurses6 libncursesw6 libtinfo6 ;;
	buildroot:inih | yocto:libinih) echo libinih-dev libinih1 ;;
	*:libpfm4) echo libpfm4-dev libpfm4 ;;
	buildroot:lm-sensors | yocto:lmsensors) echo libsensors-dev libsensors5 ;;
	*:zstd) echo libzstd-dev libzstd1 ;;
	*:zlib) echo zlib1g-dev zlib1g ;;
	*:libtraceevent) echo libtraceevent-dev libtraceevent1 ;;
	*:libtracefs) echo libtracefs-dev libtracefs1 ;;
	buildroot:host-*) ;;
	*) return 1 ;;
	esac
}
# needs NAME: what the tool's package NAME itself depends on (in the
# sysroot too, but not declared by this recipe)
needs() {
	case $1 in
	libtracefs) echo libtraceevent ;;
	esac
}
base="libc6-dev libc6 linux-libc-dev"
all=$base
for d in $deps; do
	p=$(pkgs "$d") || fail "'$d' is not a $kind package name this test knows (a typo, or add it to pkgs() in $0)"
	all="$all $p"
	for n in $(needs "$d"); do all="$all $(pkgs "$n")"; done
done
all=$(printf '%s\n' $all | sort -u | tr '\n' ' ')
if [ $list_only = 1 ]; then
	printf '%s\n' $all | sed "s/\$/:$arch/"
	exit 0
fi
say "$kind $arch: depends on: ${deps:-nothing}"
say "$kind $arch: configure options: $opts"

# ---- the sysroot -----------------------------------------------------------------
: "${RB_DEBS:?}" "${RB_WORK:?}" "${TT_SRCDIR:?}"
mkdir -p "$RB_DEBS" "$RB_WORK" || exit 2
debof() { ls "$RB_DEBS/$1"_*_"$arch".deb "$RB_DEBS/$1"_*_all.deb 2>/dev/null | head -n 1; }
missing=""
for p in $all; do [ -n "$(debof "$p")" ] || missing="$missing $p:$arch"; done
if [ -n "$missing" ]; then
	(cd "$RB_DEBS" && apt-get download -q -o APT::Sandbox::User=root $missing) >"$RB_WORK/apt.log" 2>&1 || {
		say "apt-get download$missing: $(tail -n 1 "$RB_WORK/apt.log")"
		exit 2
	}
fi
sr="$RB_WORK/sysroot"
rm -rf "$sr" && mkdir -p "$sr"
: >"$RB_WORK/files"
for p in $all; do
	deb=$(debof "$p")
	[ -n "$deb" ] || fail "no .deb for $p:$arch in $RB_DEBS"
	# -X: unpack and list in one pass; the list says which package holds a soname
	dpkg-deb -X "$deb" "$sr" >"$RB_WORK/list" || fail "dpkg-deb -X $deb"
	awk -v p="$p" '{ n = split($0, a, "/"); print p, a[n] }' "$RB_WORK/list" >>"$RB_WORK/files"
done
# absolute links (libm.so -> /lib/...) point into the sysroot, not the host
find "$sr" -type l | while read -r l; do
	t=$(readlink "$l")
	case $t in /*) ln -sfn "$sr$t" "$l" ;; esac
done

t1=$(date +%s)
# ---- configure and make, as the tool does ------------------------------------
case $kind in
buildroot)
	# package/pkg-autotools.mk
	std="--target=$triplet --host=$triplet --build=x86_64-pc-linux-gnu --prefix=/usr --exec-prefix=/usr \
--sysconfdir=/etc --localstatedir=/var --program-prefix= --disable-gtk-doc --disable-gtk-doc-html \
--disable-doc --disable-docs --disable-documentation --with-xmlto=no --with-fop=no \
--disable-dependency-tracking --enable-ipv6 --disable-nls --disable-static --enable-shared"
	;;
yocto)
	# autotools.bbclass CONFIGUREOPTS, DISABLE_STATIC
	std="--build=x86_64-linux --host=$triplet --target=$triplet --prefix=/usr --exec_prefix=/usr \
--bindir=/usr/bin --sbindir=/usr/sbin --libexecdir=/usr/libexec --datadir=/usr/share --sysconfdir=/etc \
--sharedstatedir=/com --localstatedir=/var --libdir=/usr/lib --includedir=/usr/include \
--oldincludedir=/usr/include --infodir=/usr/share/info --mandir=/usr/share/man \
--disable-silent-rules --disable-dependency-tracking --with-libtool-sysroot=$sr --disable-static"
	;;
esac
b="$RB_WORK/build"
rm -rf "$b" && mkdir -p "$b"
# RB_REUSE: configure's results about the compiler and the C library (the
# same in every sysroot of one architecture) are kept from the first build
# of the architecture in a cache file; none about a library a recipe
# declares (pkg-config, library searches, their headers), nor the system
# types, the precious variables and the compiler (which the recipes set
# differently), nor anything naming this build's sysroot
cache=""
if [ -n "${RB_REUSE:-}" ]; then
	mkdir -p "$RB_REUSE"
	cache="--cache-file=$b/config.cache"
	[ ! -s "$RB_REUSE/config.cache.$arch" ] || cp "$RB_REUSE/config.cache.$arch" "$b/config.cache"
fi
# shellcheck disable=SC2086
(cd "$b" && env -u PKG_CONFIG_PATH CC="$triplet-gcc --sysroot=$sr" CFLAGS="${RB_CFLAGS:--O0 -pipe}" \
	CPPFLAGS= LDFLAGS= PKG_CONFIG=pkg-config PKG_CONFIG_LIBDIR="$sr/usr/lib/$triplet/pkgconfig:$sr/usr/share/pkgconfig" \
	PKG_CONFIG_SYSROOT_DIR="$sr" "$TT_SRCDIR/configure" $cache $std $opts) >"$b/configure.log" 2>&1 || {
	grep -E 'error:' "$b/configure.log" | tail -n 3 | sed 's/^/# /'
	fail "configure failed ($kind $arch)"
}
t2=$(date +%s)
if [ -n "$cache" ] && [ ! -s "$RB_REUSE/config.cache.$arch" ]; then
	grep -vE '^(ac_cv_env_|ac_cv_(build|host|target)|ac_cv_prog_(CC|ac_ct_CC)=|ac_cv_(search|lib)_|pkg_cv_|ac_cv_header_(perfmon|sensors|ncurses|curses|ini|zstd|zlib|tracefs|traceevent))' \
		"$b/config.cache" | grep -vF "$sr" >"$RB_REUSE/config.cache.$arch"
fi
# ---- the objects of an identical earlier build -----------------------------------
# RB_REUSE (a directory the builds of one run share): a build whose sysroot
# holds the same packages and whose config.h and compiler flags are those of
# an earlier build (paths aside) compiles the same objects; they are copied
# from that build and only the link, which reads this sysroot, runs again.
reused=""
if [ -n "${RB_REUSE:-}" ]; then
	mkdir -p "$RB_REUSE"
	key=$({
		echo "$arch|$all|${RB_CFLAGS:-}"
		cat "$b/config.h"
		grep -E '^([A-Za-z_]*CFLAGS|CPPFLAGS|DEFS|CC) =' "$b/Makefile"
	} | sed "s|$sr|SYSROOT|g; s|$b|BUILD|g" | sha256sum | cut -c 1-16)
	if [ -s "$RB_REUSE/$key" ]; then
		reused=$(cat "$RB_REUSE/$key")
		# tar keeps the times of the objects and of the directory stamps they
		# depend on: newer than the sources, so make links only
		(cd "$reused" && find . -name '*.o' -o -name '*.a' -o -name .dirstamp | tar -cf - -T -) | (cd "$b" && tar -xf -) ||
			fail "copying the objects of $reused"
	fi
fi
make -C "$b" -j2 tunetop >"$b/make.log" 2>&1 || {
	grep -E 'error|undefined' "$b/make.log" | head -n 5 | sed 's/^/# /'
	fail "make tunetop failed ($kind $arch)"
}
t3=$(date +%s)
[ -z "${RB_REUSE:-}" ] || [ -n "$reused" ] || echo "$b" >"$RB_REUSE/$key"
say "$kind $arch: sysroot $((t1 - t0)) s, configure $((t2 - t1)) s, make $((t3 - t2)) s${reused:+ (link only: the objects of ${reused%/build})}"
bin="$b/tunetop"
readelf -h "$bin" 2>/dev/null | grep -q "Machine: *$machine" || fail "tunetop is not a $machine binary"

# ---- the binary uses what is declared, and only that -------------------------
# NEEDED sonames -> the Debian package holding each -> the declared name
owner() { awk -v f="$1" '$2 == f { print $1; exit }' "$RB_WORK/files"; }
used=""
for so in $(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
	p=$(owner "$so")
	[ -n "$p" ] || fail "tunetop needs $so, which is in no package of the sysroot"
	case " $base " in *" $p "*) continue ;; esac
	by=""
	for d in $deps; do
		case " $(pkgs "$d") " in *" $p "*) by=$d ;; esac
	done
	[ -n "$by" ] || fail "tunetop links $so ($p) but the recipe does not declare it"
	used="$used $by"
done
grep -q '^#define HAVE_LIBPFM 1' "$b/config.h" && used="$used libpfm4"
for d in $deps; do
	case $d in host-*) continue ;; esac
	case " $used " in *" $d "*) ;; *) fail "the recipe declares $d, which this build does not use" ;; esac
done
say "$kind $arch: NEEDED:$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/ \1/p' | tr -d '\n')"
if [ "$kind" = yocto ]; then
	# run time: what shlibs cannot see from the binary
	if grep -q '^#define HAVE_LIBPFM 1' "$b/config.h"; then
		case " $rdeps " in *" libpfm4 "*) ;; *) fail "libpfm4 is dlopen()ed but not in RDEPENDS" ;; esac
	fi
	if grep -q '^#define HAVE_TUI 1' "$b/config.h"; then
		case " $rdeps " in *" ncurses-terminfo-base "*) ;; *) fail "the TUI needs ncurses-terminfo-base in RDEPENDS" ;; esac
	fi
fi
# the install directories the recipe asks for (configure substitutes them
# into the Makefile): a --with-systemdsystemunitdir=DIR of the recipe is
# where `make install` puts the unit
for o in $opts; do
	case $o in
	--with-systemdsystemunitdir=*)
		got=$(sed -n 's/^systemdsystemunitdir = //p' "$b/Makefile")
		[ "$got" = "${o#*=}" ] || fail "the unit would be installed in '$got', not in ${o#*=}"
		say "$kind $arch: systemd unit directory $got"
		;;
	esac
done
echo "recipe_build: ok ($kind $arch)"
