#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Reproducible builds (issue 34): the program built twice from the same
# source, in source and build trees of different names, gives the same
# stripped binary byte for byte, and neither build names its trees anywhere
# in the binary (no __FILE__, no compiled-in source directory, debug
# information relative through -ffile-prefix-map).
#
# Builds only the program (`make tunetop`), about 90 s on two idle cores, so
# it is not in `make check`: tests/run-all.sh runs it as its own phase, and
# `make check-repro` from a build directory. Prints TAP and exits 1 on a
# difference. CC, CFLAGS and configure options: REPRO_CONFIGURE_FLAGS.
set -u
S=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/tunetop-repro.XXXXXX") || exit 2
[ -n "${TT_KEEP_TMP:-}" ] || trap 'rm -rf "$T"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
n=0 failed=0
ok() { # STATUS NAME
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}
[ -x "$S/configure" ] || { echo "1..0 # SKIP no configure in $S (run ./bootstrap)"; exit 0; }
command -v strip >/dev/null 2>&1 || { echo "1..0 # SKIP strip is not installed"; exit 0; }

# the source tree: the files git knows and bootstrap's output, or (a tarball)
# everything but configured build trees
mkdir -p "$T/first/tunetop-src"
if [ "$(git -C "$S" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$S" && pwd -P)" ]; then
	(cd "$S" && {
		git ls-files -co --exclude-standard
		for f in configure aclocal.m4 config.h.in Makefile.in build-aux/*; do
			[ -f "$f" ] && echo "$f"
		done
	} | sort -u | tar -T - -cf -) | tar -C "$T/first/tunetop-src" -xf -
else
	excl=""
	for d in "$S"/*/; do [ -f "$d/config.status" ] && excl="$excl --exclude=./$(basename "$d")"; done
	# shellcheck disable=SC2086
	(cd "$S" && tar $excl --exclude=./config.status -cf - .) | tar -C "$T/first/tunetop-src" -xf -
	chmod -R u+w "$T/first/tunetop-src"
fi

# build SRC BUILD OUT: configure (a shared cache: the answers are the same)
# and make the program alone
build() {
	mkdir -p "$2"
	# shellcheck disable=SC2086
	(cd "$2" && "$1/configure" -q --cache-file="$T/config.cache" --disable-dependency-tracking \
		${REPRO_CONFIGURE_FLAGS:-} >configure.out 2>&1 &&
		make -j"$jobs" tunetop >make.out 2>&1) || {
		tail -n 20 "$2/configure.out" "$2/make.out" 2>/dev/null | sed 's/^/# /'
		return 1
	}
	cp "$2/tunetop" "$3"
}
t0=$(date +%s)
build "$T/first/tunetop-src" "$T/first/tunetop-src/build" "$T/a"
ok $? "build 1 in $T/first/tunetop-src/build"
# the same files under other names: the source tree moved, a new build tree
mv "$T/first" "$T/the-second-place"
rm -rf "$T/the-second-place/tunetop-src/build"
build "$T/the-second-place/tunetop-src" "$T/the-second-place/tunetop-src/_b2" "$T/b"
ok $? "build 2 in $T/the-second-place/tunetop-src/_b2"
echo "# two builds: $(($(date +%s) - t0)) s"

for x in a b; do
	[ -f "$T/$x" ] || continue
	strings -a "$T/$x" | grep -F -e "$T" -e "first/tunetop-src" -e "the-second-place" >"$T/$x.paths"
	[ ! -s "$T/$x.paths" ]
	ok $? "binary $x (unstripped) names no build or source tree"
	sed 's/^/#   /' "$T/$x.paths" | head -n 5
done
if [ -f "$T/a" ] && [ -f "$T/b" ]; then
	strip -o "$T/a.s" "$T/a" && strip -o "$T/b.s" "$T/b" && cmp "$T/a.s" "$T/b.s"
	ok $? "the stripped binaries are the same byte for byte ($(wc -c <"$T/a.s") bytes)"
fi
echo "1..$n"
[ "$failed" = 0 ]
