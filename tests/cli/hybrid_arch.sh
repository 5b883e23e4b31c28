#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# "hybrid" in snapshot --json means heterogeneous CPUs (issue 19): Intel
# hybrid PMUs, core types that differ (RK3588's A55 + A76), or one core type
# in clusters of different capacity (the QEMU virt board with 512 / 1024);
# equal CPUs are not hybrid. And "arch" where /proc/version does not name
# it (Debian's armmp kernel: built by a plain "gcc-12"): from /proc/cpuinfo
# under --root, from uname on the live root. An unknown ARM part is named
# with its vendor and never cut short in the text report.
. "$TT_SRCDIR/tests/lib.sh"

hybrid() {
	"$TUNETOP" --root "$1" snapshot --json --interval 0 --stable 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["topology"]["hybrid"])'
}

is "$(hybrid "$FIXTURES/stm32mp157")" False "stm32mp157: two Cortex-A7 of capacity 1024: not hybrid"
is "$(hybrid "$FIXTURES/rk3588")" True "rk3588: Cortex-A55 and Cortex-A76: hybrid"
is "$(hybrid "$FIXTURES/intel")" True "intel: cpu_core and cpu_atom PMUs: hybrid"
r=$(copy_fixture stm32mp157)
echo 512 >"$r/sys/devices/system/cpu/cpu0/cpu_capacity"
is "$(hybrid "$r")" True "one core type, capacities 512 and 1024: hybrid"
rm "$r/sys/devices/system/cpu/cpu0/cpu_capacity"
is "$(hybrid "$r")" False "a capacity that cannot be read is not a difference"

arch() {
	"$TUNETOP" --root "$1" snapshot --json --interval 0 --stable 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["system"]["arch"])'
}
debian='Linux version 6.1.0-28-armmp (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP Debian 6.1.119-1 (2024-11-22)'
r=$(copy_fixture stm32mp157)
printf '%s\n' "$debian" >"$r/proc/version"
is "$(arch "$r")" arm "32-bit ARM kernel, /proc/version silent: arm from /proc/cpuinfo"
r=$(copy_fixture rk3588)
printf '%s\n' "$debian" | sed 's/armmp/arm64/' >"$r/proc/version"
is "$(arch "$r")" arm64 "64-bit ARM kernel, /proc/version silent: arm64 from /proc/cpuinfo"
r=$(copy_fixture intel)
printf '%s\n' "$debian" | sed 's/armmp/amd64/' >"$r/proc/version"
is "$(arch "$r")" x86_64 "x86 with long mode, /proc/version silent: x86_64"
want=$(uname -m | sed 's/^aarch64$/arm64/; s/^armv.*/arm/; s/^i.86$/x86/')
is "$(arch /)" "$want" "the live root: uname -m ($(uname -m))"

# an unknown part: the vendor (implementer) and the part number, whole
r=$(copy_fixture stm32mp157)
sed -i '0,/CPU implementer.*/s//CPU implementer\t: 0x51/; 0,/CPU part.*/s//CPU part\t: 0x051/' "$r/proc/cpuinfo"
json=$("$TUNETOP" --root "$r" snapshot --json --interval 0 --stable 2>/dev/null)
is "$(printf '%s' "$json" | python3 -c 'import json, sys; print([c["core_type"] for c in json.load(sys.stdin)["cpus"]])')" \
	"['Qualcomm 0x051', 'Cortex-A7']" "an unknown Qualcomm part: vendor and part"
like "$("$TUNETOP" --root "$r" snapshot --interval 0 --stable 2>/dev/null)" '
0    Qualcomm 0x051 online ' "the text report shows the whole name"
done_testing
