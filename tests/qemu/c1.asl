/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An ACPI C1 idle state for the x86-64 QEMU guest (tests/qemu/x86.sh):
 * each CPU of QEMU's DSDT (\_SB.CPUS.C000, C001 with -smp 2) gets a _CST
 * with one entry, C1 through the functional fixed hardware (type 1,
 * latency 1 us, power 1000 mW), so that the kernel's acpi_idle registers
 * state0 POLL and state1 C1 ("ACPI HLT"). Compiled with iasl at test time,
 * passed with -acpitable file=c1.aml. More CPUs need more scopes here.
 */
DefinitionBlock ("", "SSDT", 2, "TUNETP", "C1CST", 1)
{
    External (\_SB.CPUS.C000, DeviceObj)
    External (\_SB.CPUS.C001, DeviceObj)

    /* count, then { register, type, latency (us), power (mW) } */
    Name (\TTC1, Package () {
        1,
        Package () {
            ResourceTemplate () { Register (FFixedHW, 0, 0, 0) },
            1,
            1,
            1000
        }
    })

    Scope (\_SB.CPUS.C000) {
        Method (_CST, 0) { Return (\TTC1) }
    }
    Scope (\_SB.CPUS.C001) {
        Method (_CST, 0) { Return (\TTC1) }
    }
}
