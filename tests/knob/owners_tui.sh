#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI, exec and set own changes of one knob at once on a copied fixture
# (the TUI no longer holds the journal lock for its session). The Journal
# screen shows the other owners' changes on its next refresh; each owner
# leaves, in every order, and the knob always shows the newest remaining
# owner's value; after the last one the tree compares equal (diff -r).
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"
. "$TT_SRCDIR/tests/knob/owners_lib.sh"

GOV=$G/policy0/scaling_governor
val_T=performance val_E=powersave val_S=schedutil
first=1
for order in "T E S" "T S E" "E T S" "E S T" "S T E" "S E T"; do
	fresh rk3588
	rm -rf "$STATE"
	tag="tui + exec + set: leave $order"
	# T: the TUI sets policy0's governor from its menu (interactive -> performance)
	tui_start t 160 40 -- --root "$root" --state-dir "$STATE" -d 5
	tui_wait t 'policy0 +4x A55 +gov interactive' || diag "$tag: TUI did not start"
	tui_keys t g
	tui_wait t 'Governor for policy0' || diag "$tag: no governor menu"
	tui_keys t Down Down Down Down Down Enter
	wait_value "$GOV" performance || diag "$tag: the TUI did not set it"
	tui_keys t F6
	tui_wait t 'Owners: pid [0-9]+ tui this session \(1\)' || diag "$tag: no Journal screen"
	# E: exec while the TUI runs, then S: set
	enter_exec E cpufreq/policy0/governor=powersave
	wait_value "$GOV" powersave
	ok $? "$tag: exec applies while the TUI runs"
	enter_set S cpufreq/policy0/governor=schedutil
	is "$(file "$GOV")" schedutil "$tag: set applies while the TUI and exec run"
	if [ "$first" = 1 ]; then
		tui_wait t "pid [0-9]+ tui this session \\(1\\), pid $pid_E exec live \\(1\\), pid [0-9]+ set exited \\(1\\)"
		ok $? "Journal screen: the other owners show on its next refresh"
		tui_wait t "active +cpufreq/policy0/governor +powersave -> sche.* pid [0-9]+ set"
		ok $? "Journal screen: set's change, by set"
		tui_wait t "active +cpufreq/policy0/governor +performance -> pow.* pid $pid_E exec \\(running\\)"
		ok $? "Journal screen: exec's change, by the running exec"
		first=0
	fi
	held="T E S"
	bad=0
	for n in $order; do
		case $n in
		T) tui_keys t F10
		   tui_wait t 'Keep and quit' >/dev/null || diag "$tag: no quit dialog"
		   tui_keys t Enter
		   tui_wait_exit t || diag "$tag: the TUI did not exit" ;;
		E) leave_exec E ;;
		S) leave_set S ;;
		esac
		held=$(without "$n" $held)
		top=$(last $held)
		want=interactive
		[ -n "$top" ] && eval "want=\$val_$top"
		got=$(file "$GOV")
		[ "$got" = "$want" ] || { diag "$tag: after $n left: $got, want $want"; bad=1; }
	done
	is "$bad" 0 "$tag: each leave leaves the newest remaining value"
	if pristine; then ok 0 "$tag: diff -r equal after the last"; else
		ok 1 "$tag: diff -r equal after the last"; show_diff; fi
	tmx kill-session -t t >/dev/null 2>&1
done

done_testing
