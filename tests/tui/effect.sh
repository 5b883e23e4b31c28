#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A change made in the TUI is watched (TUNETOP_VERIFY_MS) and judged at the
# next tick (issue 21): on a copied stm32mp157 (isolcpus=1), the Isolation
# screen's a moves IRQ 60 off CPU 1. Where the "kernel" follows (a watcher
# rewrites effective_affinity_list), the Journal screen's Effect column says
# verified; where the IRQ keeps firing on CPU 1 (its count in
# proc/interrupts grows), the status line warns that the change is not in
# effect and the Journal row says NOT SEEN with the evidence.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"
trap 'tui_cleanup' EXIT

root=$(copy_fixture stm32mp157)
irq=$root/proc/irq/60
rm -f "$irq/smp_affinity" "$irq/effective_affinity"
echo 1 >"$irq/smp_affinity_list"
echo 1 >"$irq/effective_affinity_list"
cp -a "$root" "$TMPD/before"

# 1. the kernel follows: verified. It follows 1 s after the write, as a
# kernel that moves the IRQ at its next interrupt would: at once, a slow
# (ASan) TUI could take its "before" after the move and see nothing move.
(
	wait_file "$irq/smp_affinity_list" '^0$' 60 && sleep 1 &&
		echo 0 >"$irq/effective_affinity_list"
) &
follower=$!
tui_start ok 170 30 TUNETOP_VERIFY_MS=4000 -- --root "$root" --state-dir "$TMPD/st" --screen isolation -d 5
tui_wait ok '^ +1 +irq +60 5a001000.display-controller .*irq/60/affinity=0'
ok $? "IRQ 60 on isolated CPU 1, with its fix"
tui_keys ok a
wait_file "$irq/smp_affinity_list" '^0$'; ok $? "a writes smp_affinity_list 0"
wait "$follower"
tui_keys ok 4
tui_wait ok 'active +irq/60/affinity +1 -> 0 +verified '
ok $? "Journal: the change's effect is verified"
tui_keys ok q
tui_wait_exit ok 5 || {
	tui_keys ok Enter
	tui_wait_exit ok
}
ok $? "tunetop exits (and restores)"
is "$(cat "$irq/smp_affinity_list")" 1 "the affinity is restored on quit"
echo 1 >"$irq/effective_affinity_list"

# 2. the IRQ keeps firing on CPU 1: not in effect
(
	wait_file "$irq/smp_affinity_list" '^0$' 60 || exit 1
	i=0
	while [ $i -lt 40 ]; do
		i=$((i + 1))
		sed -i "s/^ *60: .*/ 60:          0       $((i * 10))     GIC-0 127 Level     5a001000.display-controller/" \
			"$root/proc/interrupts"
		sleep 0.1
	done
) &
firer=$!
cp "$root/proc/interrupts" "$TMPD/interrupts"
tui_start bad 170 30 TUNETOP_VERIFY_MS=1500 -- --root "$root" --state-dir "$TMPD/st" --screen isolation -d 5
tui_wait bad '^ +1 +irq +60 5a001000.display-controller .*irq/60/affinity=0' >/dev/null
tui_keys bad a
tui_wait bad 'warning: irq/60/affinity=0 is not in effect: IRQ fired [0-9]+ times on CPU 1, outside 0'
ok $? "the status line warns: not in effect, with the count"
wait "$firer"
tui_keys bad 4
tui_wait bad 'active +irq/60/affinity +1 -> 0 +NOT SEEN .*IRQ fired [0-9]+ times on CPU 1, outside 0'
ok $? "Journal: NOT SEEN, with the evidence"
tui_keys bad q
tui_wait_exit bad 5 || {
	tui_keys bad Enter
	tui_wait_exit bad
}
ok $? "tunetop exits (and restores)"
cp "$TMPD/interrupts" "$root/proc/interrupts"
if same_tree "$TMPD/before" "$root"; then ok 0 "the copy is as it was"; else
	ok 1 "the copy is as it was"
	diff -r "$TMPD/before" "$root" | head -5 | sed 's/^/# /'
fi
done_testing
