#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The mutated-tree loop (issue 32): TT_MUT_RUNS copies of the fixture trees,
# each with 1 to 4 random mutations (a file emptied, garbage bytes, a file
# removed, a FIFO or a unix socket where a file was, a hard link to another
# file of the tree or to a file outside it, a directory made a symlink that
# leaves the root, a file made a directory, a 1 MB line), then every reading
# command and a set + restore on each, under timeout(1). Counts hangs
# (timed out), crashes (a signal, or a sanitizer report), files changed
# after restore (the tree must be what it was before the set) and writes
# that reached the file outside. Prints the counts; exits 1 if any is not 0.
# TT_MUT_SEED repeats a run's mutations; TT_MUT_VERBOSE=1 lists them.
set -u
: "${TUNETOP:?run through make bench}"
: "${TT_SRCDIR:?run through make bench}"
: "${FIXTURES:=$TT_SRCDIR/tests/fixtures}"
. "$TT_SRCDIR/tests/bench/special.sh"
RUNS=${TT_MUT_RUNS:-50}
SEED=${TT_MUT_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
LIM=${TT_MUT_LIMIT:-60}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tunetop-treemut.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export TUNETOP_VERIFY_MS=0 TUNETOP_STATE_DIR="$tmp/state"
hangs=0 crashes=0 changed=0 escaped=0 cmds=0 n=0
echo "treemut: seed $SEED (TT_MUT_SEED=$SEED repeats it), $RUNS trees"

# rnd N: R = a number in [0, N) from the seeded stream (no subshell: the
# stream's position must advance)
rnd_i=0
rnd() {
	rnd_i=$((rnd_i + 1))
	R=$(awk -v s="$SEED" -v i="$rnd_i" -v n="$1" 'BEGIN { srand(s + i * 7919); print int(rand() * n) }')
}
# pick_file ROOT: F = one regular file of the tree, by the seeded stream
pick_file() {
	find "$1" -type f >"$tmp/files"
	_c=$(wc -l <"$tmp/files")
	[ "$_c" -gt 0 ] || return 1
	rnd "$_c"
	F=$(sed -n "$((R + 1))p" "$tmp/files")
}
tree_sum() {
	(cd "$1" && find . -printf '%y %m %p %l\n' | LC_ALL=C sort &&
		find . -type f -exec md5sum {} + | LC_ALL=C sort)
}

mutate() { # mutate ROOT: one random mutation; echoes what it did
	pick_file "$1" || return 0
	_f=$F
	rnd 10
	case $R in
	0) : >"$_f" && echo "emptied $_f" ;;
	1)
		rnd 64
		head -c "$((R + 1))" /dev/urandom >"$_f" && echo "garbage in $_f"
		;;
	2) rm -f "$_f" && echo "removed $_f" ;;
	3) rm -f "$_f" && mkfifo "$_f" && echo "fifo at $_f" ;;
	4) mk_socket "$_f" && echo "socket at $_f" ;;
	5)
		pick_file "$1"
		[ "$F" != "$_f" ] && ln -f "$F" "$_f" && echo "hard link $_f -> $F"
		;;
	6)
		cp "$_f" "$tmp/outside/f$n" && cp "$_f" "$tmp/outside/f$n.orig" &&
			ln -f "$tmp/outside/f$n" "$_f" && echo "hard link $_f -> outside"
		;;
	7)
		_d=$(dirname "$_f")
		mkdir -p "$tmp/outside/d$n" && rm -rf "$_d" && ln -s "$tmp/outside/d$n" "$_d" &&
			echo "symlink leaving the root at $_d"
		;;
	8) rm -f "$_f" && mkdir "$_f" && echo "directory at $_f" ;;
	9) { head -c 1048576 /dev/zero | tr '\0' 7; echo; } >>"$_f" && echo "1 MB line in $_f" ;;
	esac
}

# run NAME CMD...: one command under timeout; counts a hang or a crash
run() {
	_name=$1
	shift
	cmds=$((cmds + 1))
	timeout -k 5 "$LIM" "$TUNETOP" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	_rc=$?
	if [ "$_rc" -eq 124 ] || [ "$_rc" -eq 137 ]; then
		hangs=$((hangs + 1))
		echo "HANG: tree $n ($fx): $_name"
		sed 's/^/  mutation: /' "$tmp/muts"
	elif [ "$_rc" -ge 128 ] || grep -q 'AddressSanitizer\|runtime error:\|LeakSanitizer' "$tmp/err"; then
		crashes=$((crashes + 1))
		echo "CRASH: tree $n ($fx): $_name exit $_rc"
		sed 's/^/  mutation: /' "$tmp/muts"
		head -3 "$tmp/err" | sed 's/^/  /'
	fi
	return "$_rc"
}

fixtures="rk3588 intel stm32mp157 rpi4"
while [ "$n" -lt "$RUNS" ]; do
	set -- $fixtures
	rnd $#
	shift "$R"
	fx=$1
	t="$tmp/t"
	rm -rf "$t" "$tmp/outside" "$TUNETOP_STATE_DIR"
	mkdir -p "$tmp/outside"
	cp -a "$FIXTURES/$fx" "$t"
	: >"$tmp/muts"
	rnd 4
	k=$((R + 1))
	while [ "$k" -gt 0 ]; do
		mutate "$t" >>"$tmp/muts" 2>/dev/null
		k=$((k - 1))
	done
	[ -n "${TT_MUT_VERBOSE:-}" ] && sed "s/^/tree $n ($fx): /" "$tmp/muts"
	run snapshot --root "$t" snapshot --interval 0
	run "snapshot --json" --root "$t" snapshot --json --interval 0
	run "snapshot --csv" --root "$t" snapshot --csv --interval 0
	run knobs --root "$t" knobs
	run get --root "$t" get 'cpufreq/*/governor'
	run explain --root "$t" explain cpufreq/policy0/max_khz
	run "set --dry-run" --root "$t" set --dry-run 'cpufreq/*/governor=performance'
	run capture --root "$t" capture "$tmp/cap"
	rm -rf "$tmp/cap"
	tree_sum "$t" >"$tmp/before"
	run set --root "$t" set 'cpufreq/*/governor=performance' 'cpufreq/*/max_khz=max' \
		'cpuidle/*/*/disable=1'
	run restore --root "$t" restore
	tree_sum "$t" >"$tmp/after"
	if ! cmp -s "$tmp/before" "$tmp/after"; then
		changed=$((changed + 1))
		echo "CHANGED after restore: tree $n ($fx)"
		sed 's/^/  mutation: /' "$tmp/muts"
		diff "$tmp/before" "$tmp/after" | head -4 | sed 's/^/  /'
	fi
	for o in "$tmp"/outside/f*.orig; do
		[ -e "$o" ] || continue
		if ! cmp -s "$o" "${o%.orig}"; then
			escaped=$((escaped + 1))
			echo "ESCAPED: tree $n ($fx): a write reached ${o%.orig}"
		fi
	done
	n=$((n + 1))
done
echo "treemut: $n trees, $cmds commands: $hangs hangs, $crashes crashes," \
	"$changed changed after restore, $escaped writes outside"
[ $((hangs + crashes + changed + escaped)) -eq 0 ]
