#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the libFuzzer harnesses (tests/fuzz/fuzz_*.c) with clang:
#   build.sh --check          exit 0 if clang + libFuzzer work, else print why
#   build.sh OUTDIR [NAME...] build OUTDIR/fuzz_NAME (all harnesses by default)
# The sources under test are compiled once with -fsanitize=fuzzer-no-link
# (plus ASan and UBSan) into OUTDIR/obj and archived, so each harness links
# only the objects it needs. `make fuzz-build` runs this with:
#   TT_SRCDIR     the source tree            TT_BUILDDIR  the build tree (config.h)
#   FUZZ_SRCS     src/ files to compile (relative to TT_SRCDIR; headers skipped)
#   FUZZ_CFLAGS   extra compile flags (libinih)   FUZZ_LIBS  libraries to link
#   FUZZ_CC       the compiler (clang)
set -eu
cc=${FUZZ_CC:-clang}
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"

check() {
	command -v "$cc" >/dev/null 2>&1 || { echo "$cc not found"; return 1; }
	t=$(mktemp -d "${TMPDIR:-/tmp}/tt-fuzzcheck.XXXXXX")
	printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
		>"$t/f.c"
	if ! "$cc" $san -fsanitize=fuzzer -o "$t/f" "$t/f.c" >"$t/log" 2>&1; then
		echo "$cc cannot link -fsanitize=fuzzer (libFuzzer not installed): $(head -1 "$t/log")"
		rm -rf "$t"
		return 1
	fi
	rm -rf "$t"
}

if [ "${1:-}" = --check ]; then
	check
	exit $?
fi
[ $# -ge 1 ] || { echo "usage: build.sh --check | build.sh OUTDIR [NAME...]" >&2; exit 2; }
: "${TT_SRCDIR:?}" "${TT_BUILDDIR:?}" "${FUZZ_SRCS:?}"
out=$1
shift
harnesses="$*"
why=$(check) || { echo "build.sh: $why" >&2; exit 77; }
mkdir -p "$out/obj"
out=$(cd "$out" && pwd)
cflags="-g -O1 -std=gnu11 -include $TT_BUILDDIR/config.h -I$TT_SRCDIR/src -I$TT_SRCDIR/tests/fuzz ${FUZZ_CFLAGS:-}"
lib=$out/libtt-fuzz.a

# Objects: rebuilt when their source, any header or this script is newer.
stamp=$out/obj/.headers
newest_h=$(find "$TT_SRCDIR/src" "$TT_SRCDIR/tests/fuzz" -name '*.h' -newer "$stamp" 2>/dev/null | head -1 || true)
if [ ! -f "$stamp" ] || [ -n "$newest_h" ] || [ "$TT_SRCDIR/tests/fuzz/build.sh" -nt "$stamp" ] ||
	[ "$TT_BUILDDIR/config.h" -nt "$stamp" ]; then
	rm -rf "$out/obj" && mkdir -p "$out/obj"
fi
objs=""
todo=""
for s in $FUZZ_SRCS; do
	case $s in *.c) ;; *) continue ;; esac
	o=$out/obj/$(echo "$s" | tr / _ | sed 's/\.c$/.o/')
	objs="$objs $o"
	if [ ! -f "$o" ] || [ "$TT_SRCDIR/$s" -nt "$o" ]; then
		todo="$todo $s"
	fi
done
defs="-DTT_PKGDATADIR=\"/nonexistent/tunetop\" -DTT_SYSCONFDIR=\"/nonexistent/etc\""
compile() { # SRC OBJ: a source that does not build is left out (and said so)
	# shellcheck disable=SC2086
	$cc $cflags $san -fsanitize=fuzzer-no-link $defs -c -o "$2" "$TT_SRCDIR/$1" \
		>"$2.log" 2>&1 || { echo "build.sh: $1 does not compile with $cc (see $2.log)" >&2; rm -f "$2"; }
}
if [ -n "$todo" ]; then
	echo "  CC (fuzz) $(echo $todo | wc -w) sources"
	set -- $todo
	while [ $# -gt 0 ]; do # two compilers at a time: the machine is shared
		o1=$out/obj/$(echo "$1" | tr / _ | sed 's/\.c$/.o/')
		compile "$1" "$o1" &
		if [ $# -gt 1 ]; then
			compile "$2" "$out/obj/$(echo "$2" | tr / _ | sed 's/\.c$/.o/')"
			shift
		fi
		wait
		shift
	done
	rm -f "$lib"
fi
touch "$stamp"
if [ ! -f "$lib" ]; then
	have=""
	for o in $objs; do [ -f "$o" ] && have="$have $o"; done
	# shellcheck disable=SC2086
	ar rcs "$lib" $have
fi

names="$harnesses"
if [ -z "$names" ]; then
	for f in "$TT_SRCDIR"/tests/fuzz/fuzz_*.c; do
		n=${f##*/fuzz_}
		names="$names ${n%.c}"
	done
fi
for n in $names; do
	src=$TT_SRCDIR/tests/fuzz/fuzz_$n.c
	bin=$out/fuzz_$n
	[ -f "$src" ] || { echo "build.sh: no harness $src" >&2; exit 2; }
	if [ ! -f "$bin" ] || [ "$src" -nt "$bin" ] || [ "$lib" -nt "$bin" ] ||
		[ "$TT_SRCDIR/tests/fuzz/fuzz.h" -nt "$bin" ]; then
		echo "  CCLD (fuzz) fuzz_$n"
		# shellcheck disable=SC2086
		$cc $cflags $san $defs -DTT_FUZZ_FIXTURES="\"$TT_SRCDIR/tests/fixtures\"" \
			-fsanitize=fuzzer -o "$bin" "$src" "$lib" ${FUZZ_LIBS:-} -lm
	fi
done
