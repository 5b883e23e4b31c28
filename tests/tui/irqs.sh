#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# IRQs screen selection (copied RK3588 fixture): Up/Down/PgUp/PgDn/Home/End
# move it, the actions (a moves the IRQ, e explains it) name the IRQ it is
# on, and it stays on that IRQ (by label) when rows above it disappear or
# appear between refreshes. Moves are cancelled: nothing is written.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

root=$(copy_fixture rk3588)
intr="$root/proc/interrupts"
# data rows of /proc/interrupts (list row 1 is the first of them, row 0 the totals)
nirq() { tail -n +2 "$intr" | grep -c ':'; }
label_of_row() { tail -n +2 "$intr" | sed -n "${1}p" | sed 's/^ *\([^:]*\):.*/\1/'; }
# what a on the selected row says about IRQ LABEL: the move dialog, or why not
says_irq() { printf 'Move IRQ %s |%s is a per-CPU interrupt|IRQ %s has no' "$1" "$1" "$1"; }

n0=$(nirq)
tui_start q 120 40 -- --root "$root" --state-dir "$TMPD/st" --screen irqs
tui_wait q "^$n0 interrupts, 8 CPUs"; ok $? "IRQs screen: $n0 interrupts"
tui_wait q 'rates per second over the refresh interval$' 15
ok $? "a second sample came (rates)"

# Down 13 times: total, then 11 12 13 14 15 16 20 21 22 23 24 25 30
is "$(label_of_row 13)" 30 "fixture: list row 13 is IRQ 30"
tui_keys q Down Down Down Down Down Down Down Down Down Down Down Down Down
tui_keys q a
tui_wait q 'Move IRQ 30 \(mmc0\)'; ok $? "Down x13, a: the move dialog is for IRQ 30 (mmc0)"
tui_keys q Escape
tui_wait_not q 'Move IRQ'; ok $? "Esc cancels the move"

tui_keys q Down Down Down Down e
tui_wait q 'Interrupt affinity'; ok $? "e on an IRQ row offers its affinity"
tui_keys q Enter
tui_wait q 'Explain irq/40/affinity'; ok $? "Down x4 more (31 33 35 40), e: explains IRQ 40"
tui_keys q Escape
tui_wait_not q 'Explain irq'; ok $? "explain window closed"

# rows above the selection disappear: it stays on IRQ 40
sed -i '/^ *1[234]:/d' "$intr"
n1=$(nirq)
is "$n1" $((n0 - 3)) "fixture: IRQs 12, 13, 14 removed"
tui_wait q "^$n1 interrupts" 15; ok $? "the screen shows $n1 interrupts"
tui_keys q a
tui_wait q 'Move IRQ 40 \(xhci-hcd:usb1\)'
ok $? "rows above it gone: the selection is still on IRQ 40"
tui_keys q Escape
tui_wait_not q 'Move IRQ'

# a row appears above it: still IRQ 40
sed -i 's/^\( *15:.*\)$/\1\n 17:          0          0          0          0          0          0          0          0     GICv3 999 Level     newdev/' "$intr"
n2=$(nirq)
is "$n2" $((n1 + 1)) "fixture: IRQ 17 added"
tui_wait q "^$n2 interrupts" 15; ok $? "the screen shows $n2 interrupts"
tui_wait q '^17 .*newdev'; ok $? "IRQ 17 is listed"
tui_keys q a
tui_wait q 'Move IRQ 40 \(xhci-hcd:usb1\)'
ok $? "a row above it appeared: the selection is still on IRQ 40"
tui_keys q Escape
tui_wait_not q 'Move IRQ'

# Up
tui_keys q Up Up a
tui_wait q 'Move IRQ 33 \(ttyS2\)'; ok $? "Up x2: IRQ 33 (ttyS2)"
tui_keys q Escape
tui_wait_not q 'Move IRQ'

# Home: the totals row; Home Down: the first IRQ
tui_keys q Home a
tui_wait q 'Select an interrupt row'; ok $? "Home: the totals row (nothing to move)"
is "$(label_of_row 1)" 11 "fixture: list row 1 is IRQ 11"
tui_keys q Home Down e
tui_wait q 'Interrupt affinity' && tui_keys q Enter
tui_wait q 'Explain irq/11/affinity'; ok $? "Home Down, e: explains the first IRQ (11)"
tui_keys q Escape
tui_wait_not q 'Explain irq'

# PgDn: one page (body 35 lines - 3 heading lines, less one) further
pg=31
tui_keys q Home Down PageDown a
tui_wait q "$(says_irq "$(label_of_row $((1 + pg)))")"
ok $? "PgDn: list row $((1 + pg)) ($(label_of_row $((1 + pg))))"
tui_keys q Escape
tui_keys q PageUp e
tui_wait q 'Interrupt affinity' && tui_keys q Enter
tui_wait q 'Explain irq/11/affinity'; ok $? "PgUp, e: back on the first IRQ (11)"
tui_keys q Escape
tui_wait_not q 'Explain irq'

# End: the last softirq
tui_keys q End a
tui_wait q 'Select an interrupt row'; ok $? "End: a softirq row (nothing to move)"

tui_keys q q
tui_wait_exit q 15; ok $? "q quits"
is "$(tui_status q)" 0 "exit status 0"
test ! -s "$TMPD/q.err"; ok $? "nothing on stderr"
done_testing
