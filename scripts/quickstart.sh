#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Quick start: install missing build dependencies, build in build/, and start
# tunetop: on this machine when it exposes cpufreq or cpuidle states to tune,
# otherwise on the bundled simulated RK3588 board (--demo).
# Extra arguments are passed to tunetop.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh scripts/deps.sh
[ -x configure ] || ./bootstrap >/dev/null
mkdir -p build
cd build
[ -f Makefile ] || ../configure -q
make -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
if [ -d /sys/devices/system/cpu/cpufreq/policy0 ] || [ -d /sys/devices/system/cpu/cpu0/cpuidle/state1 ]; then
	exec ./tunetop "$@"
fi
echo "This machine exposes no cpufreq policy and no idle states: starting the simulated RK3588 board." >&2
sleep 1
exec ./tunetop --demo "$@"
