#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The CPU dialog does not stall a running A/B (issue 33): on a copied RK3588
# fixture an A/B of cpuidle/cpu0/state1/disable (four 1 s windows) runs
# while the IRQs screen's move dialog (the CPU checklist, src/ui/widgets.c)
# stays open; the A/B goes on to its end under the dialog (the loop's idle
# hook drives it), puts the knob back and closes its journal entries, and
# the dialog is still there, cancelled with Esc (nothing written).
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

mkdir -p "$XDG_CONFIG_HOME/tunetop"
printf 'config_version=1\nab_window_s=1\nab_settle_ms=100\nab_rounds=1\n' \
	>"$XDG_CONFIG_HOME/tunetop/tunetoprc"
root=$(copy_fixture rk3588)
dis=$root/sys/devices/system/cpu/cpu0/cpuidle/state1/disable
st=$TMPD/st

tui_start d 120 40 -- --root "$root" --state-dir "$st"
tui_wait d 'policy0'; ok $? "tunetop up"
tui_keys d 1 Home Down A
tui_wait d 'A/B of which knob'; ok $? "A on the CPU 0 row offers its knobs"
tui_keys d Enter
tui_wait d 'A = 0 \(now\)'
tui_keys d Enter
tui_wait d 'round 1/1 +window [1-4]/4'; ok $? "the A/B runs"
# the IRQs screen (tab 8), IRQ 30 (list row 13), a: the CPU dialog
tui_keys d 8
tui_wait d 'interrupts, 8 CPUs'; ok $? "the IRQs screen"
tui_keys d Down Down Down Down Down Down Down Down Down Down Down Down Down a
tui_wait d 'Move IRQ 30 \(mmc0\)'; ok $? "the CPU dialog is open"
tui_wait d 'A/B [1-3]/4'; ok $? "the header shows the A/B's window"
tui_wait d 'A/B done' 30; ok $? "the A/B ends while the dialog is open"
tui_wait d 'Move IRQ 30 \(mmc0\)' 1; ok $? "the dialog is still open"
is "$(cat "$dis")" 0 "the knob is back to 0"
"$TUNETOP" --root "$root" --state-dir "$st" journal >"$TMPD/journal.out" 2>&1
grep -Eq ' (open|active) ' "$TMPD/journal.out"; is $? 1 "the journal holds nothing open or active"
tui_keys d Escape
tui_wait_not d 'Move IRQ'; ok $? "Esc closes the dialog"
tui_keys d q
tui_wait d 'Restore and quit|Quit' 5 && tui_keys d Enter
tui_wait_exit d; ok $? "q quits"
same_tree "$root" "$FIXTURES/rk3588"; ok $? "the fixture is byte-identical"
done_testing
