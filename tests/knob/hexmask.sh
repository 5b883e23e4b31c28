#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The hex-mask knobs of issue 17: workqueue/cpumask
# (sys/devices/virtual/workqueue/cpumask, added to a copy of rk3588) and
# irq/default_smp_affinity (proc/irq/default_smp_affinity): set -> the file
# holds the kernel's form -> undo -> byte for byte the copy again; refused
# values with one line each; the wq-unbound-isolated finding's fix applies
# and restores; the isolation audit text names the workqueue mask.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"
. "$TT_SRCDIR/tests/findings/common.sh"

WQ=sys/devices/virtual/workqueue/cpumask
DA=proc/irq/default_smp_affinity
fresh rk3588
mkdir -p "$root/sys/devices/virtual/workqueue"
printf 'ff\n' >"$root/$WQ"
ref="$TMPD/ref"
cp -a "$root" "$ref"

out=$(tt set workqueue/cpumask=0f irq/default_smp_affinity=0x3 2>&1)
is "$?" 0 "set both masks"
like "$out" 'workqueue/cpumask: ff -> 0f' "  report names old and new"
is "$(file $WQ)" "0f" "workqueue cpumask written as the kernel prints it"
is "$(file $DA)" "03" "default_smp_affinity written (0x prefix accepted)"
is "$(tt get workqueue/cpumask)" "workqueue/cpumask=0f" "get reads it back"
out=$(tt undo 2>&1)
is "$?" 0 "undo exits 0"
if pristine "$ref"; then ok 0 "undo: the tree is byte for byte the copy again"; else
	ok 1 "undo: the tree is byte for byte the copy again"; show_diff "$ref"; fi

for bad in zz 0 1ff 12,zz ""; do
	out=$(tt set "workqueue/cpumask=$bad" 2>&1)
	rc=$?
	ok "$([ $rc -ne 0 ] && echo 0 || echo 1)" "refused: workqueue/cpumask='$bad' (exit $rc)"
	is "$(printf '%s\n' "$out" | grep -c .)" 1 "  one line: $out"
done
like "$(tt set workqueue/cpumask=1ff 2>&1)" 'CPUs 8 do not exist \(possible: 0-7\)' \
	"a CPU beyond the possible ones is named"
if pristine "$ref"; then ok 0 "refusals wrote nothing"; else ok 1 "refusals wrote nothing"; show_diff "$ref"; fi

# a root without the file: the knob is not there, said so
fresh rk3588
like "$(tt set workqueue/cpumask=1 2>&1)" 'workqueue/cpumask: ENOENT from .*workqueue/cpumask: not available on this root' \
	"no workqueue cpumask file: ENOENT named"
like "$(tt set irq/default_smp_affinity=zz 2>&1)" "not a hex CPU mask" "default_smp_affinity validated too"

# the finding over isolated CPUs 4-7, its fix applied and undone
fresh rk3588
mkdir -p "$root/sys/devices/virtual/workqueue"
printf 'ff\n' >"$root/$WQ"
echo 4-7 >"$root/sys/devices/system/cpu/isolated"
cp -a "$root" "$ref.2"
f=$(findings "$root")
has "$f" "wq-unbound-isolated warn" "wq-unbound-isolated fires with the mask over isolated CPUs"
has "$f" "irq-default-isolated info" "irq-default-isolated fires (default ff)"
is "$(fixes "$root" wq-unbound-isolated)" "workqueue/cpumask=0f" "its fix keeps CPUs 0-3"
is "$(fixes "$root" irq-default-isolated)" "irq/default_smp_affinity=0f" "default_smp_affinity fix"
# shellcheck disable=SC2046
tt set $(fixes "$root" wq-unbound-isolated) $(fixes "$root" irq-default-isolated) >/dev/null 2>&1
is "$?" 0 "the fixes apply"
f=$(findings "$root")
hasnt "$f" wq-unbound-isolated "after the fix: wq-unbound-isolated silent"
hasnt "$f" irq-default-isolated "after the fix: irq-default-isolated silent"
tt undo >/dev/null 2>&1
if pristine "$ref.2"; then ok 0 "undo of the fixes: byte for byte"; else
	ok 1 "undo of the fixes: byte for byte"; show_diff "$ref.2"; fi
done_testing
