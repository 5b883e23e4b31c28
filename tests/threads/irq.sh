#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# irq/<n>/affinity on copied fixture roots: set -> proc/irq/N/smp_affinity_list
# changed -> restore -> the copy equals the fixture byte for byte (diff -r);
# a managed IRQ (EIO injected with TUNETOP_TEST_FAULT) is refused in words and
# nothing changes; per-CPU interrupts and offline CPUs are refused (exit 2);
# action names select IRQs; a running irqbalance is pointed out.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

# ---- rk3588: irq/30/affinity=1, restore, diff -r
fresh rk3588
is "$(tt get irq/30/affinity)" "irq/30/affinity=0-7" "get irq/30/affinity on rk3588"
r=$(tt set irq/30/affinity=1 2>&1)
is "$?" 0 "set irq/30/affinity=1"
like "$r" "irq/30/affinity: 0-7 -> 1" "report old -> new"
is "$(file proc/irq/30/smp_affinity_list)" 1 "proc/irq/30/smp_affinity_list = 1"
like "$(tt journal 2>&1)" "irq/30/affinity: 0-7 -> 1" "journaled"
tt set irq/31/affinity=4-7 irq/33/affinity=0,1,2 >/dev/null 2>&1
is "$(file proc/irq/33/smp_affinity_list)" 0-2 "CPU list normalized (0,1,2 -> 0-2)"
tt restore >/dev/null 2>&1
is "$?" 0 "restore exits 0"
if pristine; then ok 0 "diff -r: the copy equals the fixture after restore"; else
	ok 1 "diff -r: the copy equals the fixture after restore"
	show_diff
fi

# ---- managed IRQ: EIO from the kernel
fresh rk3588
r=$(TUNETOP_TEST_FAULT=proc/irq/30/smp_affinity_list=EIO tt set irq/25/affinity=2 irq/30/affinity=2 2>&1)
is "$?" 1 "EIO (managed IRQ): exit 1"
like "$r" "irq/30/affinity: EIO from .*/proc/irq/30/smp_affinity_list: could not write '2': managed IRQ \(kernel-managed affinity\): not movable" \
	"EIO explained as a managed IRQ"
like "$r" "nothing changed \(1 earlier write rolled back\)" "the first write was rolled back"
if pristine; then ok 0 "nothing changed on disk"; else ok 1 "nothing changed on disk"; show_diff; fi
like "$(tt journal 2>&1)" "irq/30/affinity: 0-7 -> 2 \(EIO\)" "the journal records the EIO"

# ---- refusals before any write
fresh rk3588
r=$(tt set irq/IPI0/affinity=1 2>&1)
is "$?" 2 "per-CPU IPI row: exit 2"
like "$r" "irq/IPI0: per-CPU interrupt \(Rescheduling interrupts\)" "says it is per-CPU"
r=$(tt set irq/11/affinity=1 2>&1)
is "$?" 2 "arch_timer (GIC PPI): exit 2"
like "$r" "irq/11: per-CPU interrupt \(arch_timer" "says it is per-CPU"
r=$(tt set irq/30/affinity=8 2>&1)
is "$?" 2 "offline CPU: exit 2"
like "$r" "EINVAL: CPU 8 not online \(online: 0-7\): no online CPU in the mask" "says no online CPU"
r=$(tt set irq/30/affinity= 2>&1)
is "$?" 2 "empty list: exit 2"
r=$(tt set irq/9999/affinity=1 2>&1)
is "$?" 2 "unknown IRQ: exit 2"
like "$r" "irq/9999: no such interrupt" "says so"
if pristine; then ok 0 "refusals touched nothing"; else ok 1 "refusals touched nothing"; fi
r=$(tt set --dry-run irq/30/affinity=3 2>&1)
like "$r" "echo 3 > .*/proc/irq/30/smp_affinity_list +# irq/30/affinity: 0-7 -> 3" "dry run prints the echo line"
like "$(tt knobs irq)" "irq/30/affinity +0-7 " "knobs irq lists the movable IRQs"
ok "$(tt knobs irq | grep -c 'irq/11/')" "knobs irq leaves per-CPU IRQs out"

# ---- action names; irqbalance
fresh stm32mp157
r=$(tt set irq/eth0/affinity=1 2>&1)
is "$?" 0 "set irq/eth0/affinity=1 (by action name)"
like "$r" "irq/56/affinity: 0 -> 1" "eth0 is IRQ 56"
unlike=$(printf '%s' "$r" | grep -c irqbalance)
is "$unlike" 0 "no irqbalance note without irqbalance"
tt restore >/dev/null 2>&1
mkdir -p "$root/proc/4242"
printf 'irqbalance\n' >"$root/proc/4242/comm"
r=$(tt set 'irq/4*/affinity=0-1' 2>&1)
is "$?" 0 "set irq/4*/affinity=0-1"
is "$(printf '%s\n' "$r" | grep -c 'irqbalance is running')" 1 "irqbalance note, once per transaction"
like "$r" "will undo this move" "says it will undo the move"
tt restore >/dev/null 2>&1
rm -r "$root/proc/4242"
if pristine; then ok 0 "stm32mp157 copy equals the fixture after restore"; else
	ok 1 "stm32mp157 copy equals the fixture after restore"
	show_diff
fi

done_testing
