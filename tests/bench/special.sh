# SPDX-License-Identifier: GPL-2.0-or-later
# Special files among a tree's mutations (issue 32), sourced by the bench
# loops (tests/bench/killloop.sh through tests/knob/killloop.sh,
# tests/bench/treemut.sh): FIFOs and unix sockets where files belong, and
# hard links, one of them to a file outside the tree that no write may
# reach.

# mk_socket PATH: a unix socket bound at PATH (python3), else a FIFO
mk_socket() {
	rm -f "$1"
	python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$1" \
		2>/dev/null || mkfifo "$1"
}

# plant_special ROOT OUTSIDE_DIR: FIFOs at files the knob writes do not
# need (a cpufreq reading, thermal, /proc), a socket at /proc/softirqs, a
# hard link inside the tree, and cpu0's first idle state's disable file a
# hard link to OUTSIDE_DIR/disable (same bytes; it must never change).
plant_special() {
	_r=$1
	_o=$2
	for _f in sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq \
		sys/devices/system/cpu/cpu1/cpuidle/state0/usage proc/loadavg; do
		[ -e "$_r/$_f" ] && rm -f "$_r/$_f" && mkfifo "$_r/$_f"
	done
	for _f in "$_r"/sys/class/thermal/thermal_zone0/temp; do
		[ -e "$_f" ] && _f=$(cd "$(dirname "$_f")" && pwd -P)/temp && rm -f "$_f" && mkfifo "$_f"
	done
	[ -e "$_r/proc/softirqs" ] && mk_socket "$_r/proc/softirqs"
	_f=$(ls -d "$_r"/sys/devices/system/cpu/cpu0/cpuidle/state*/disable 2>/dev/null | tail -1)
	if [ -n "$_f" ]; then
		mkdir -p "$_o"
		cp "$_f" "$_o/disable" && rm -f "$_f" && ln "$_o/disable" "$_f"
		cp "$_o/disable" "$_o/disable.orig"
	fi
	_f="$_r/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq"
	[ -e "$_f" ] && ln -f "$_f" "$_r/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq.link"
	return 0
}

# outside_same OUTSIDE_DIR: the file outside the tree kept its bytes
outside_same() { [ ! -e "$1/disable" ] || cmp -s "$1/disable" "$1/disable.orig"; }
