#!/bin/sh
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
# effective affinity once smp_affinity_list is 0): kept, said so
(
	wait_file "$root/proc/irq/60/smp_affinity_list" '^0$' && echo 0 >"$root/proc/irq/60/effective_affinity_list"
) &
follower=$!
tui_wait try '^ +1 +irq +60 5a001000.display-controller .*irq/60/affinity=0' >/dev/null
tui_keys try t
tui_wait try 'Try: IRQ 60 moved \(effective affinity 0\): movable; kept'; ok $? "t: the effective affinity followed: kept, said so"
wait "$follower"
sleep 4
is "$(cat "$root/proc/irq/60/smp_affinity_list")" 0 "t: the move is kept after the try's 3 s"
echo 1 >"$root/proc/irq/60/effective_affinity_list"
tui_keys try q
tui_wait_exit try 5 || {
	tui_keys try Enter
	tui_wait_exit try
}
ok $? "tunetop exits"
if same_tree "$TMPD/before" "$root"; then ok 0 "the copy is as it was"; else
	ok 1 "the copy is as it was"
	diff -r "$TMPD/before" "$root" | head -5 | sed 's/^/# /'
fi
done_testing
