#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Mutation testing of tunetop's own (issue 32; Debian packages no mutation
# tool for C): apply each mutant of tests/mutants.txt to a scratch copy of
# the source tree, one at a time, rebuild incrementally, run the tests
# listed for that file, and restore the file byte for byte. A mutant is
# killed when a test fails (or times out), survives when they all pass.
#   scripts/mutate.sh [-k] [NAME...]    (make mutate runs it; NAMEs: only those mutants)
# env: TT_SRCDIR   the source tree (default: this script's ..)
#      MUTATE_DIR  the scratch copy and its build (default ./mutate-work)
#      MUTATE_TIMEOUT  seconds per test run (default 300)
#      MUTATE_JOBS make -j (default 2)
# Prints one line per mutant (KILLED by which test, SURVIVED, STILLBORN when
# it does not compile, STALE when its text is no longer in the file), then
# the score "killed/total (P %)" and the survivors; exits 1 when a mutant
# survived or is stale. The developer's tree is never written (only read).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${TT_SRCDIR:-$(cd "$here/.." && pwd)}
list=$src/tests/mutants.txt
work=${MUTATE_DIR:-$PWD/mutate-work}
tmo=${MUTATE_TIMEOUT:-300}
jobs=${MUTATE_JOBS:-2}
only="$*"
mkdir -p "$work"
work=$(cd "$work" && pwd)
copy=$work/src
bld=$work/build
log=$work/log
mkdir -p "$copy" "$bld" "$log"

# The scratch copy: the source tree as it is (committed or not), without
# build directories (any top-level one with a config.status), git data and
# generated test output.
echo "mutate: copying $src to $copy"
set -- --exclude=./.git --exclude=./mutate-work --exclude=./tests/fuzz/out
for d in "$src"/*/; do
	[ -f "$d/config.status" ] && set -- "$@" --exclude="./$(basename "$d")"
done
(cd "$src" && tar "$@" -cf - .) | (cd "$copy" && tar -xf -) || exit 1
if [ ! -f "$bld/config.status" ]; then
	echo "mutate: configuring $bld (no -Werror: a mutant may warn)"
	(cd "$bld" && "$copy/configure" >"$log/configure.log" 2>&1) ||
		{ echo "mutate: configure failed, see $log/configure.log"; exit 1; }
fi

# build TESTS... : tunetop and the unit test programs among TESTS
build() {
	progs=tunetop
	for t in "$@"; do
		case $t in *.sh) ;; *) progs="$progs $t" ;; esac
	done
	# shellcheck disable=SC2086
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$bld" -j"$jobs" $progs >"$log/build.log" 2>&1
}

# run TESTS... : 0 when all pass; else prints the first failing test
run_tests() {
	for t in "$@"; do
		case $t in
		*.sh) set -- sh "$copy/$t" ;;
		*) set -- "$bld/$t" ;;
		esac
		(cd "$bld" && TUNETOP=$bld/tunetop TT_SRCDIR=$copy TT_BUILDDIR=$bld \
			FIXTURES=$copy/tests/fixtures TT_SKIP_FUZZ=1 timeout "$tmo" "$@") \
			>"$log/test.out" 2>&1
		rc=$?
		if [ $rc -ne 0 ] || grep -q '^not ok' "$log/test.out"; then
			[ $rc -eq 124 ] && echo "$t (timeout)" || echo "$t"
			return 1
		fi
	done
	return 0
}

# mutant FILE FIND REPLACE: replace the first FIND in FILE (literal text,
# {NL} and {TAB} for a newline and a tab); 1 when FIND is not there
mutant() {
	python3 - "$@" <<'PY'
import sys
path, find, repl = (a.replace("{NL}", "\n").replace("{TAB}", "\t") for a in sys.argv[1:4])
b = open(path, "rb").read()
f = find.encode()
i = b.find(f)
if i < 0:
    sys.exit(1)
open(path, "wb").write(b[:i] + repl.encode() + b[i + len(f):])
PY
}

# Parse tests/mutants.txt into tab-separated FILE TESTS NAME FIND REPLACE
# lines (sections "[FILE] TEST...", mutants "NAME: FIND => REPLACE").
parsed=$work/mutants.tsv
awk '
/^[ \t]*(#|$)/ { next }
/^\[/ { file = $0; sub(/^\[/, "", file); tests = file; sub(/\].*/, "", file)
	sub(/^[^]]*\][ \t]*/, "", tests); next }
{ i = index($0, ": "); name = substr($0, 1, i - 1); rest = substr($0, i + 2)
  j = index(rest, " => ")
  if (!i || !j || file == "") { print "mutants.txt:" NR ": bad line" > "/dev/stderr"; exit 2 }
  printf "%s\t%s\t%s\t%s\t%s\n", file, tests, name, substr(rest, 1, j - 1), substr(rest, j + 4) }
' "$list" >"$parsed" || exit 1

echo "mutate: building $bld"
if ! build $(cut -f2 "$parsed" | tr ' ' '\n' | sort -u); then
	echo "mutate: the unmutated tree does not build, see $log/build.log"
	exit 1
fi
# Every file's tests must pass unmutated, or nothing below means anything.
for tests in $(cut -f2 "$parsed" | sort -u | tr ' ' ','); do
	# shellcheck disable=SC2046
	if ! failed=$(run_tests $(echo "$tests" | tr ',' ' ')); then
		echo "mutate: $failed fails without any mutant (see $log/test.out)"
		exit 1
	fi
done

total=0 killed=0 survived=0 stillborn=0 stale=0
survivors=""
tab=$(printf '\t')
while IFS="$tab" read -r file tests name find repl; do
	if [ -n "$only" ] && ! printf ' %s ' "$only" | grep -q " $name "; then
		continue
	fi
	f=$copy/$file
	cp -p "$f" "$work/orig"
	if ! mutant "$f" "$find" "$repl"; then
		printf '%-32s STALE      %s: "%s" not found\n' "$name" "$file" "$find"
		stale=$((stale + 1))
		survivors="$survivors $name(stale)"
		continue
	fi
	# shellcheck disable=SC2086
	if ! build $tests; then
		printf '%-32s STILLBORN  %s (does not compile)\n' "$name" "$file"
		stillborn=$((stillborn + 1))
	else
		total=$((total + 1))
		# shellcheck disable=SC2086
		if by=$(run_tests $tests); then
			printf '%-32s SURVIVED   %s: %s => %s\n' "$name" "$file" "$find" "$repl"
			survived=$((survived + 1))
			survivors="$survivors $name"
		else
			printf '%-32s KILLED     by %s\n' "$name" "$by"
			killed=$((killed + 1))
		fi
	fi
	cp "$work/orig" "$f" # byte for byte; a newer mtime, so it is rebuilt
	touch "$f"
	cmp -s "$work/orig" "$f" || { echo "mutate: $file not restored"; exit 1; }
done <"$parsed"
# leave the build unmutated
build $(cut -f2 "$parsed" | tr ' ' '\n' | sort -u) || true

pct=0
[ $total -gt 0 ] && pct=$((killed * 100 / total))
echo "mutate: $killed/$total killed ($pct %), $survived survived, $stillborn stillborn, $stale stale"
echo "mutate: survivors:${survivors:- none}"
[ $survived -eq 0 ] && [ $stale -eq 0 ]
