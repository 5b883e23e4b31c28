#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Threads screen on a --root tree (issue 35) shows the tree's processes,
# never the host's: on a copied rk3588 the 20 threads of its proc/ (rknn_run
# in the NPU ioctl, the irq/NN threads at FIFO 50, ksoftirqd/N), not this
# tunetop itself; the per-thread counter pane opens nothing (perf would count
# the host's tid). a sets rknn_run's affinity from a checklist of the
# tree's 8 CPUs and c its uclamp_min (with the note that interactive
# ignores it): both land in the tree's status and sched files; quitting
# with restore gives the tree back byte for byte.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

root=$(copy_fixture rk3588)
st="$root/proc/1842/task/1846"
tui_start tr 150 40 TUNETOP_VERIFY_MS=0 -- --root "$root" --state-dir "$TMPD/st" --screen threads
tui_wait tr '20 threads, 17 processes \(14 kernel\)'; ok $? "the tree's 20 threads of 17 processes"
tui_wait tr '^ +1842 +1846 D OTHER .*NPU ioctl .*rknn_run *$'; ok $? "rknn_run in D, waiting in the NPU ioctl"
tui_wait tr '^R? +178 +178 S FIFO +50 .*\[irq/30-mmc0\]'; ok $? "irq/30-mmc0 at SCHED_FIFO 50"
tui_wait tr '^ +36 +36 S OTHER .* 4 .*\[ksoftirqd/4\]'; ok $? "ksoftirqd/4 on CPU 4"
tp=$(tui_pid tr)
if [ -n "$tp" ] && [ ! -e "$root/proc/$tp" ]; then
	tui_screen tr | grep -Eq "^ +$tp +$tp " && r=1 || r=0
	ok $r "this tunetop ($tp, a host process) is not listed"
else
	skip "host process not listed" "no pid, or the tree has pid $tp"
fi
tui_wait tr 'n/a: the threads of this root are its proc/ files'; ok $? "counter pane: nothing opened for a tree's tid"

tui_keys tr '\'
tui_wait tr 'Filter'
tui_keys tr rknn_run Enter
tui_wait tr '^ +1842 +1846 D .* rknn_run *$'; ok $? "filtered to rknn_run"
tui_keys tr a
tui_wait tr 'Affinity of rknn_run \(1846\)'; ok $? "a opens the affinity dialog"
tui_wait tr '\[x\] CPU 7'; ok $? "the checklist has the tree's CPUs (0-7)"
tui_keys tr n Space Enter
wait_file "$st/status" "^Cpus_allowed_list:	0\$"; ok $? "the tree's status: Cpus_allowed_list 0"
like "$(cat "$st/status")" "Cpus_allowed:	01" "and Cpus_allowed 01"
tui_wait tr 'thread/1846/affinity: 0-7 -> 0'; ok $? "status line shows the change"

tui_keys tr c
tui_wait tr 'uclamp of rknn_run \(1846\)'; ok $? "c opens the uclamp menu"
tui_wait tr 'only schedutil honours uclamp; policy0 interactive, .* ignore it'; ok $? "with the note: the tree's governors ignore it"
tui_keys tr Enter
tui_wait tr '0\.\.1024'
tui_keys tr BSpace BSpace BSpace BSpace 300 Enter
wait_file "$st/sched" '^uclamp.min +: +300$'; ok $? "the tree's sched file: uclamp.min 300"
tui_wait tr '^ +1842 +1846 D OTHER +- +0 +300 +1024 0 '; ok $? "the row shows uclamp 300 and affinity 0"

tui_keys tr q
tui_wait tr 'Restore and quit'; ok $? "quit offers to restore"
tui_keys tr Enter
tui_wait_exit tr; ok $? "tunetop exits"
if same_tree "$FIXTURES/rk3588" "$root"; then ok 0 "the tree is the fixture again, byte for byte"; else
	ok 1 "the tree is the fixture again, byte for byte"
	diff -r --no-dereference "$FIXTURES/rk3588" "$root" | head -5 | sed 's/^/# /'
fi

done_testing
