#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Isolation screen's t (try and restore) in tmux, on a copied stm32mp157
# (isolcpus=1): IRQ 60 is pinned to CPU 1 by configuration (it never fires,
# and has only smp_affinity_list). t applies its fix through the journal and
# keeps it only if the kernel moves the IRQ (its effective affinity leaves
# CPU 1) within 3 s; a fixture's effective affinity does not follow a write,
# so the try is restored and the status says so; where a watcher moves the
# effective affinity as the kernel would, the move is kept. Quitting
# restores it: the copy ends as it was.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"
trap 'tui_cleanup' EXIT

root=$(copy_fixture stm32mp157)
rm -f "$root/proc/irq/60/smp_affinity" "$root/proc/irq/60/effective_affinity"
echo 1 >"$root/proc/irq/60/smp_affinity_list"
echo 1 >"$root/proc/irq/60/effective_affinity_list"
cp -a "$root" "$TMPD/before"
tui_start try 150 40 -- --root "$root" --state-dir "$TMPD/st" --screen isolation -d 5
tui_wait try '^ +1 +irq +60 5a001000.display-controller .*irq/60/affinity=0 +affinity includes isolated CPU 1'
ok $? "IRQ 60 pinned to CPU 1 flagged by configuration, with its fix"
tui_keys try t
wait_file "$root/proc/irq/60/smp_affinity_list" '^0$'; ok $? "t writes the fix (smp_affinity_list 0)"
tui_wait try 'the kernel did not move it; restored'; ok $? "t: the effective affinity did not follow: restored, said so"
wait_file "$root/proc/irq/60/smp_affinity_list" '^1$'; ok $? "t: smp_affinity_list back to 1"
# the same try where the "kernel" follows the write (a watcher moves the
# effective affinity once smp_affinity_list is 0): kept, said so. A second
# tunetop with irq_try_s=120 (tunetoprc): the watcher is a polling shell
# that a loaded machine may starve for more than the default 3 s
tui_keys try q
tui_wait_exit try 5 || {
	tui_keys try Enter
	tui_wait_exit try
}
ok $? "tunetop exits (the restored try left nothing to ask about)"
mkdir -p "$XDG_CONFIG_HOME/tunetop"
printf 'config_version=1\nirq_try_s=120\n' >"$XDG_CONFIG_HOME/tunetop/tunetoprc"
(
	wait_file "$root/proc/irq/60/smp_affinity_list" '^0$' 60 && echo 0 >"$root/proc/irq/60/effective_affinity_list"
) &
follower=$!
tui_start kept 150 40 -- --root "$root" --state-dir "$TMPD/st" --screen isolation -d 5
tui_wait kept '^ +1 +irq +60 5a001000.display-controller .*irq/60/affinity=0' >/dev/null
tui_keys kept t
tui_wait kept 'Try: IRQ 60 moved \(effective affinity 0\): movable; kept' 60; ok $? "t: the effective affinity followed: kept, said so"
wait "$follower"
is "$(cat "$root/proc/irq/60/smp_affinity_list")" 0 "t: the move is kept once the kernel moved the IRQ"
echo 1 >"$root/proc/irq/60/effective_affinity_list"
tui_keys kept q
tui_wait_exit kept 5 || {
	tui_keys kept Enter
	tui_wait_exit kept
}
ok $? "tunetop exits"
if same_tree "$TMPD/before" "$root"; then ok 0 "the copy is as it was"; else
	ok 1 "the copy is as it was"
	diff -r "$TMPD/before" "$root" | head -5 | sed 's/^/# /'
fi
done_testing
