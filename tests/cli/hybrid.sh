#!/bin/sh
# "hybrid" in snapshot --json means heterogeneous CPUs (issue 19): Intel
# hybrid PMUs, core types that differ (RK3588's A55 + A76), or one core type
# in clusters of different capacity (the QEMU virt board with 512 / 1024);
# equal CPUs are not hybrid.
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
done_testing
