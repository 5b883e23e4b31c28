#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs inside the QEMU guest as /init (busybox sh): mounts the kernel's
# filesystems, runs a batch of tunetop commands and powers off. Each
# command's output goes to the console between "@@TT-BEGIN NAME" and
# "@@TT-END NAME rc=N" lines; tests/qemu/boot.sh parses them.
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mkdir -p /proc /sys /dev /tmp /run
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
export TUNETOP_STATE_DIR=/run/tunetop HOME=/tmp TERM=dumb
variant=$(sed -n 's/.*tt_variant=\([a-z0-9-]*\).*/\1/p' /proc/cmdline)

run() { # run NAME COMMAND...: the output between markers
	name=$1
	shift
	echo "@@TT-BEGIN $name"
	"$@" 2>&1
	echo "@@TT-END $name rc=$?"
}
# runj NAME COMMAND...: the same for a command whose standard output is
# JSON: its standard error goes between markers of its own (NAME.err)
runj() {
	name=$1
	shift
	echo "@@TT-BEGIN $name"
	"$@" 2>/tmp/stderr
	echo "@@TT-END $name rc=$?"
	run "$name.err" cat /tmp/stderr
}
# every idle state of every CPU, as sysfs has it: CPU/STATE name latency
# residency usage time disable
idle() {
	for d in /sys/devices/system/cpu/cpu*/cpuidle/state*; do
		[ -d "$d" ] || continue
		echo "${d#/sys/devices/system/cpu/} $(cat "$d/name") $(cat "$d/latency") \
$(cat "$d/residency") $(cat "$d/usage") $(cat "$d/time") $(cat "$d/disable")"
	done
}
# a line of its own first: the firmware's screen codes end without a newline
echo
run version tunetop --version
run uname uname -m
run topology grep -r . /sys/devices/system/cpu/cpu0/topology /sys/devices/system/cpu/cpu3/topology
run cpuidle_sys ls /sys/devices/system/cpu/cpuidle /sys/devices/system/cpu/cpu0
# an idle guest: every CPU should show >= 90 % idle residency over 1 s
sleep 2
run idle_before idle
run snapshot tunetop snapshot --json --interval 1000
run idle_after idle
run report tunetop snapshot --interval 0
case "$variant" in
clusters)
	# the live cpu-sleep knob: set with verification, read back, restore
	run set tunetop set cpuidle/cpu1/cpu-sleep/disable=1 --verify 1000
	run after_set cat /sys/devices/system/cpu/cpu1/cpuidle/state1/disable
	run journal tunetop journal --json
	run restore tunetop restore
	run after_restore cat /sys/devices/system/cpu/cpu1/cpuidle/state1/disable
	run counters tunetop snapshot --json --counters --interval 1000
	run csv tunetop snapshot --csv --counters --interval 500
	run events tunetop events
	;;
isolated)
	# an RT thread left with the default affinity: on the housekeeping
	# CPUs only (isolcpus), it is still not pinned
	tunetop exec -q --fifo 50 -- sleep 20 &
	sleep 2
	run isolation tunetop snapshot --json --threads --interval 0
	kill $! 2>/dev/null
	;;
x86)
	# tests/qemu/guest-x86.sh: the idle state C1 of tests/qemu/c1.asl
	. /x86.sh
	;;
esac
echo "@@TT-DONE"
sync
poweroff -f
