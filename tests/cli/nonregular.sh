#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A FIFO, socket or device where a file belongs in a --root tree is an error
# naming the path ("PATH: not a regular file (fifo)"), never a wait: every
# command finishes (issue 32, item 2). A symlinked cpufreq or sys directory
# that leaves the root is refused by name, not "missing" (item 11). capture
# exits 1 and names the count and the first file it could not write
# (item 13).
. "$TT_SRCDIR/tests/lib.sh"
command -v timeout >/dev/null 2>&1 || skip_all "no timeout(1)"
command -v mkfifo >/dev/null 2>&1 || skip_all "no mkfifo(1)"
LIM=60 # a guard only: each command takes well under a second

R=$(copy_fixture rk3588)
P=sys/devices/system/cpu/cpufreq/policy0
Z=$(cd "$R/sys/class/thermal/thermal_zone0" && pwd -P)
plant_fifo() { rm -f "$1" && mkfifo "$1"; }
plant_fifo "$R/$P/scaling_cur_freq"    # a cpufreq file
plant_fifo "$R/$P/scaling_max_freq"    # a knob file set below
plant_fifo "$Z/temp"                   # a thermal file
plant_fifo "$R/proc/interrupts"        # a /proc file read line by line
# a unix socket at /proc/stat (python3 binds one; else a second FIFO)
rm -f "$R/proc/stat"
if ! python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
	"$R/proc/stat" 2>/dev/null; then
	mkfifo "$R/proc/stat"
fi
# the tree's state: types and the bytes of the regular files
tree_sum() { (cd "$1" && find . -printf '%y %p\n' | sort && find . -type f -exec md5sum {} + | sort); }
tree_sum "$R" >"$TMPD/before"

# run NAME EXPECTED_RC CMD...: finishes, exits as documented, stderr kept
run() {
	_name=$1 _want=$2
	shift 2
	timeout -k 5 "$LIM" "$TUNETOP" --root "$R" "$@" >"$TMPD/out" 2>"$TMPD/err" </dev/null
	_rc=$?
	if [ "$_rc" -eq 124 ] || [ "$_rc" -eq 137 ]; then
		ok 1 "$_name: finishes (timed out after ${LIM}s)"
		return
	fi
	ok 0 "$_name: finishes"
	is "$_rc" "$_want" "$_name: exits $_want"
}
fifo_line='not a regular file \(fifo\)'

run snapshot 0 snapshot --interval 0
like "$(cat "$TMPD/err")" "$R/$P/scaling_max_freq: $fifo_line" "snapshot: names the cpufreq FIFO"
like "$(cat "$TMPD/err")" "$R/sys/.*thermal_zone0/temp: $fifo_line" "snapshot: names the thermal FIFO"
like "$(cat "$TMPD/err")" "$R/proc/interrupts: $fifo_line" "snapshot: names the /proc FIFO"
like "$(cat "$TMPD/err")" "$R/proc/stat: not a regular file \((socket|fifo)\)" \
	"snapshot: names the socket"
like "$(cat "$TMPD/out")" "n/a" "snapshot: the values behind them are n/a"
run "snapshot --json" 0 snapshot --json --interval 0
run knobs 0 knobs
like "$(grep '^cpufreq/policy0/max_khz ' "$TMPD/out")" "n/a" "knobs: the FIFO knob is n/a"
run get 1 get cpufreq/policy0/max_khz
is "$(cat "$TMPD/err")" "tunetop get: cpufreq/policy0/max_khz: $R/$P/scaling_max_freq: not a regular file (fifo)" \
	"get: one error line naming the path"
run explain 0 explain cpufreq/policy0/max_khz
run "set --dry-run" 1 set --dry-run cpufreq/policy0/max_khz=1008000
like "$(cat "$TMPD/err")" "$R/$P/scaling_max_freq: $fifo_line" "set --dry-run: names the path"
run set 1 set cpufreq/policy0/max_khz=1008000
like "$(cat "$TMPD/err")" "$R/$P/scaling_max_freq: $fifo_line" "set: names the path"
printf '[profile]\ndescription = t\n[knobs]\ncpufreq/policy0/max_khz = 1008000\n' >"$TMPD/p.profile"
run "apply --dry-run" 1 apply --dry-run "$TMPD/p.profile"
like "$(cat "$TMPD/err")" "$R/$P/scaling_max_freq: $fifo_line" "apply --dry-run: names the path"
run capture 0 capture "$TMPD/cap"
like "$(cat "$TMPD/out")" "$P/scaling_max_freq: $fifo_line" "capture: lists the FIFO as skipped"
# serve: the first sample and a scrape (python3 is the client)
if command -v python3 >/dev/null 2>&1; then
	timeout -k 5 "$LIM" "$TUNETOP" --root "$R" serve --listen 127.0.0.1:0 --min-interval 0 \
		2>"$TMPD/serve.err" &
	spid=$!
	port=
	for _ in $(seq 1 300); do
		port=$(sed -n 's|.*listening on http://[^ ]*:\([0-9][0-9]*\)/metrics$|\1|p' "$TMPD/serve.err")
		[ -n "$port" ] && break
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$port" ]; ok $? "serve: listening after its first sample"
	code=$(python3 -c 'import sys,urllib.request
print(urllib.request.urlopen(sys.argv[1], timeout=30).status)' "http://127.0.0.1:$port/metrics" 2>/dev/null)
	is "$code" 200 "serve: a scrape answers"
	kill "$spid" 2>/dev/null
	wait "$spid"
	is "$?" 0 "serve: stops on SIGTERM (not timed out)"
else
	skip "serve on the FIFO tree" "no python3"
fi
[ -p "$R/$P/scaling_max_freq" ] && [ -p "$Z/temp" ]; ok $? "the FIFOs are still FIFOs"
tree_sum "$R" >"$TMPD/after"
cmp -s "$TMPD/before" "$TMPD/after"; ok $? "nothing in the tree changed"

# A FIFO where the set writes (the old value read from a regular copy):
# the write is refused, not blocked on a reader.
R2=$(copy_fixture rk3588)
G="$R2/sys/devices/system/cpu/cpufreq/policy4/scaling_governor"
R=$R2
plant_fifo "$G"
run "set (governor FIFO)" 1 set cpufreq/policy4/governor=performance
like "$(cat "$TMPD/err")" "$G: $fifo_line" "set: the FIFO governor is named"
[ -p "$G" ]; ok $? "set: the FIFO is still there"

# A device node (made like /dev/null's; root only) is refused unopened.
R3=$(copy_fixture rk3588)
D="$R3/sys/devices/system/cpu/cpufreq/policy6/scaling_max_freq"
if rm -f "$D" && mknod "$D" c 1 3 2>/dev/null; then
	R=$R3
	run "get (device node)" 1 get cpufreq/policy6/max_khz
	is "$(cat "$TMPD/err")" \
		"tunetop get: cpufreq/policy6/max_khz: $D: not a regular file (character device)" \
		"get: the device node is named, with its kind"
else
	skip "a device node in the tree" "mknod needs root"
fi

# Item 11: cpufreq, or all of sys, a symlink that leaves the root.
for what in cpufreq sys; do
	R=$(copy_fixture rk3588)
	if [ $what = cpufreq ]; then d="$R/sys/devices/system/cpu/cpufreq"; else d="$R/sys"; fi
	mv "$d" "$TMPD/outside-$what"
	ln -s "$TMPD/outside-$what" "$d"
	run "$what outside: get" 1 get cpufreq/policy0/max_khz
	is "$(cat "$TMPD/err")" \
		"tunetop get: cpufreq: $R/sys/devices/system/cpu/cpufreq: leaves the root (symlink), refused" \
		"$what outside: get says the directory leaves the root"
	run "$what outside: snapshot" 0 snapshot --interval 0
	like "$(grep -A1 '^cpufreq' "$TMPD/out")" "leaves the root \(symlink\), refused" \
		"$what outside: snapshot says refused, not missing"
	like "$(cat "$TMPD/err")" "symlink leaves the root \(EXDEV\)" "$what outside: EXDEV on stderr"
done

# Item 13: files capture could not write are counted, the first named, exit 1.
R=$(copy_fixture rk3588)
mkdir "$TMPD/cap2"
: >"$TMPD/cap2/proc" # a file where the directory proc must go
run "capture, proc not writable" 1 capture "$TMPD/cap2"
nproc_files=$(grep -c . "$TMPD/err")
is "$nproc_files" 1 "capture: one error line"
like "$(cat "$TMPD/err")" "^tunetop capture: [0-9]+ files not written into $TMPD/cap2; the first: proc/[a-z]+: " \
	"capture: says how many and the first one"
done_testing
