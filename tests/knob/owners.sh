#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Concurrent owners on one journal (design §6, doc/knobs.md "Owners"): exec
# owners and set run at once on a copied fixture, each leaves in every
# order; overlapping changes of one knob stack (the last one out puts the
# original back) and the tree compares equal (diff -r) after the last
# leaves. An exec killed with SIGKILL leaves orphaned changes: the next
# command says so in one line, restore --orphans puts them back.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"
. "$TT_SRCDIR/tests/knob/owners_lib.sh"

# the value each owner writes: same knob (policy0's governor), or its own knob
val_A=performance val_B=powersave val_C=schedutil
knob_A=policy0 knob_B=policy4 knob_C=policy6

# scenario same|diff "ENTER ORDER" "LEAVE ORDER": exec owners
scenario() {
	_mode=$1 _enter=$2 _leave=$3
	fresh rk3588
	rm -rf "$STATE"
	_tag="$_mode: enter $_enter, leave $_leave"
	for n in $_enter; do
		eval "v=\$val_$n k=\$knob_$n"
		[ "$_mode" = same ] && k=policy0
		enter_exec "$n" "cpufreq/$k/governor=$v"
		wait_value "$G/$k/scaling_governor" "$v" || diag "$_tag: $n did not enter"
	done
	held=$_enter
	bad=0
	for n in $_leave; do
		leave_exec "$n"
		held=$(without "$n" $held)
		if [ "$_mode" = same ]; then
			top=$(last $held)
			want=interactive
			[ -n "$top" ] && eval "want=\$val_$top"
			got=$(file "$G/policy0/scaling_governor")
			[ "$got" = "$want" ] || { diag "$_tag: after $n left: $got, want $want"; bad=1; }
		else
			eval "k=\$knob_$n"
			got=$(file "$G/$k/scaling_governor")
			[ "$got" = interactive ] || { diag "$_tag: $n left, its $k is $got"; bad=1; }
			for h in $held; do
				eval "k=\$knob_$h v=\$val_$h"
				got=$(file "$G/$k/scaling_governor")
				[ "$got" = "$v" ] || { diag "$_tag: $h's $k is $got after $n left"; bad=1; }
			done
		fi
	done
	is "$bad" 0 "$_tag: each leave leaves the newest remaining value"
	if pristine; then ok 0 "$_tag: diff -r equal after the last"; else
		ok 1 "$_tag: diff -r equal after the last"; show_diff; fi
}

for mode in same diff; do
	scenario $mode "A B" "A B"
	scenario $mode "A B" "B A"
	for order in "A B C" "A C B" "B A C" "B C A" "C A B" "C B A"; do
		scenario $mode "A B C" "$order"
	done
done

# ---- the journal names every owner while they run
fresh rk3588
rm -rf "$STATE"
enter_exec A cpufreq/policy0/governor=performance
wait_value "$G/policy0/scaling_governor" performance
enter_exec B cpufreq/policy0/governor=powersave
wait_value "$G/policy0/scaling_governor" powersave
ok $? "a second exec runs while the first holds its changes (no lock for the session)"
j=$(tt journal 2>&1)
like "$j" "OWNERS" "journal: an owners section"
like "$j" "$pid_A +exec +live +1 " "journal: owner A, exec, live"
like "$j" "$pid_B +exec +live +1 " "journal: owner B, exec, live"
jj=$(tt journal --json | tr -d ' \n')
like "$jj" "\"owners\":\\[\\{\"pid\":$pid_A,\"start\":[0-9]+,\"kind\":\"exec\",\"run\":\"$pid_A-[0-9]+\",\"state\":\"live\",\"alive\":true,\"active\":1,\"orphaned\":0\\}" \
	"journal --json: owners with pid, start, kind, state"
like "$jj" "\"kind\":\"exec\",\"start\":[0-9]+" "journal --json: each entry has its owner's kind and start time"
w=$(grep '^W' "$STATE/journal" | head -1)
like "$w" "	pid=$pid_A	start=[0-9]+	kind=exec	run=$pid_A-" "W record: pid, start time, kind"
like "$w" "	boot=[^	]+	" "W record: boot id"
leave_exec A
is "$(file $G/policy0/scaling_governor)" powersave "A left first: B's value stays"
j=$(tt journal --json | tr -d ' \n')
like "$j" "\"inherited_from\":[0-9]+,\"recorded_old\":\"performance\"" "B's entry inherited A's original"
like "$j" "\"old\":\"interactive\",\"new\":\"powersave\"" "B's old is now the true original"
leave_exec B
if pristine; then ok 0 "B left last: diff -r equal"; else ok 1 "B left last: diff -r equal"; show_diff; fi

# ---- set (a manual owner, cleared by undo) with exec, in both orders
# mixed "FIRST SECOND" "LEAVE ORDER": E is exec (performance), S is set (powersave)
mixed() {
	fresh rk3588
	rm -rf "$STATE"
	_tag="exec + set: enter $1, leave $2"
	for n in $1; do
		case $n in
		E) enter_exec E cpufreq/policy0/governor=performance
		   wait_value "$G/policy0/scaling_governor" performance ;;
		S) enter_set S cpufreq/policy0/governor=powersave ;;
		esac
	done
	held=$1
	bad=0
	for n in $2; do
		case $n in E) leave_exec E ;; S) leave_set S ;; esac
		held=$(without "$n" $held)
		top=$(last $held)
		want=interactive
		case $top in E) want=performance ;; S) want=powersave ;; esac
		got=$(file "$G/policy0/scaling_governor")
		[ "$got" = "$want" ] || { diag "$_tag: after $n left: $got, want $want"; bad=1; }
	done
	is "$bad" 0 "$_tag: each leave leaves the newest remaining value"
	if pristine; then ok 0 "$_tag: diff -r equal after the last"; else
		ok 1 "$_tag: diff -r equal after the last"; show_diff; fi
}
mixed "E S" "E S"
mixed "E S" "S E"
mixed "S E" "S E"
mixed "S E" "E S"

# an undo under a newer manual change is still refused (not a live owner)
fresh rk3588
rm -rf "$STATE"
enter_set S1 cpufreq/policy0/governor=performance
enter_set S2 cpufreq/policy0/governor=powersave
tt undo "$id_S1" >/dev/null 2>"$TMPD/err"
is "$?" 1 "undo under a newer manual change: refused"
like "$(cat "$TMPD/err")" "changed since by change $id_S2" "names the newer change"
tt restore >/dev/null 2>&1
pristine; ok $? "restore clears the manual changes"

# ---- SIGKILL: orphaned changes, one line, restore --orphans
fresh rk3588
rm -rf "$STATE"
enter_exec A cpufreq/policy0/governor=performance cpufreq/policy4/governor=performance
wait_value "$G/policy4/scaling_governor" performance
enter_exec B cpufreq/policy0/governor=powersave
wait_value "$G/policy0/scaling_governor" powersave
kill -KILL "$pid_A"
wait "$pid_A" 2>/dev/null
is "$?" 137 "exec A killed with SIGKILL"
touch "$TMPD/go-A" # its CMD goes on by itself; end it
is "$(file $G/policy4/scaling_governor)" performance "A's changes are still applied"
tt journal >/dev/null 2>"$TMPD/err"
is "$(cat "$TMPD/err")" "tunetop: 2 changes by a tunetop that exited (pid $pid_A, exec) are still applied: run \`tunetop restore --orphans\`" \
	"the next command says so in one line on stderr"
tt get cpufreq/policy0/governor >/dev/null 2>"$TMPD/err"
is "$(cat "$TMPD/err")" "" "get (which does not open the journal) says nothing"
"$TUNETOP" -q --root "$root" --state-dir "$STATE" journal >/dev/null 2>"$TMPD/err"
is "$(cat "$TMPD/err")" "" "-q: no line"
j=$(tt journal 2>/dev/null)
like "$j" "$pid_A +exec +orphaned +2 " "journal: owner A orphaned with its 2 changes"
like "$j" "$pid_B +exec +live +1 " "journal: owner B live"
out=$(tt restore --orphans 2>&1)
is "$?" 0 "restore --orphans exits 0"
like "$out" "cpufreq/policy4/governor: performance -> interactive \\(restored\\)" "A's own knob restored"
like "$out" "cpufreq/policy0/governor: left at powersave, held by change [0-9]+ \\(pid $pid_B exec\\)" \
	"the knob B holds stays, B inherits the original"
is "$(file $G/policy0/scaling_governor)" powersave "B's value stays"
tt journal >/dev/null 2>"$TMPD/err"
is "$(cat "$TMPD/err")" "" "no orphans left: no line"
leave_exec B
if pristine; then ok 0 "after B leaves: diff -r equal"; else ok 1 "after B leaves: diff -r equal"; show_diff; fi

# a single killed exec: restore --orphans alone puts the tree back
fresh rk3588
rm -rf "$STATE"
enter_exec A -p rk3588-npu
wait_value "$G/policy4/scaling_governor" performance
kill -KILL "$pid_A"
wait "$pid_A" 2>/dev/null
touch "$TMPD/go-A"
out=$(tt restore --orphans --dry-run 2>/dev/null)
pristine
ok $((! $?)) "restore --orphans --dry-run changes nothing"
tt restore --orphans >/dev/null 2>&1
ok $? "restore --orphans"
if pristine; then ok 0 "profile of a killed exec: diff -r equal"; else
	ok 1 "profile of a killed exec: diff -r equal"; show_diff; fi
is "$(tt restore --orphans 2>/dev/null)" "nothing to restore: no orphaned changes" "idempotent"

done_testing
