#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every knob family of the registry (src/knob/registry.c, listed by
# tests/unit/test_knob_registry --list) works everywhere an address is
# taken (issue 33: exec's own list of families lacked workqueue/, so
# `exec workqueue/cpumask=f -- true` ran the program 'workqueue/cpumask=f'):
# exec --dry-run takes FAMILY/...=VALUE as an assignment, exec with
# --hold=report applies, holds and restores it, a profile with it applies
# (--dry-run), and bash completion offers it. A family without an example
# below fails: a new family adds its line here (doc/HACKING.md).
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

LIST="$TT_BUILDDIR/tests/unit/test_knob_registry"
[ -x "$LIST" ] || skip_all "tests/unit/test_knob_registry not built (run through make check)"
command -v bash >/dev/null 2>&1 || skip_all "bash is not installed"

# the thread and process families act on the tree's own processes under
# --root (issue 35): the fixture's inference app and one of its threads
APP=1842 APPTHR=1846
[ -d "$FIXTURES/rk3588/proc/$APP/task/$APPTHR" ] || skip_all "the rk3588 fixture has no proc/$APP/task/$APPTHR"

# example FAMILY: "BOARD ASSIGNMENT [SHOWN]" on a copy of BOARD (setup below);
# SHOWN: the address the reports name (default: the assignment's)
example() {
	case $1 in
	cpufreq) echo "rk3588 cpufreq/policy0/governor=performance" ;;
	cpuidle) echo "rk3588 cpuidle/cpu4/state1/disable=1" ;;
	pmqos) echo "rk3588 pmqos/cpu2/resume_latency_us=100" ;;
	devfreq) echo "rk3588 devfreq/dmc/governor=performance" ;;
	sched) echo "rk3588 sched/rt_runtime_us=90000" ;;
	intel_pstate) echo "intel intel_pstate/no_turbo=1" ;;
	mm) echo "rk3588 mm/thp=never" ;;
	thread) echo "rk3588 thread/$APPTHR/nice=5" ;;
	process) echo "rk3588 process/$APP/nice=6 thread/$APP/nice" ;;
	irq) echo "rk3588 irq/14/affinity=0-1" ;;
	workqueue) echo "rk3588 workqueue/cpumask=f" ;;
	sim) echo "rk3588 sim/m4/vring_polling=0" ;;
	esac
}
# setup FAMILY: what the fixture lacks for the example
setup() {
	case $1 in
	workqueue)
		mkdir -p "$root/sys/devices/virtual/workqueue"
		printf 'ff\n' >"$root/sys/devices/virtual/workqueue/cpumask"
		;;
	sim) # what a world's unpack writes (model/world_wm.h switches)
		mkdir -p "$root/etc/SIMULATED-m4-firmware"
		printf '1\n' >"$root/etc/SIMULATED-m4-firmware/vring_polling"
		printf 'm4/vring_polling\tetc/SIMULATED-m4-firmware/vring_polling\t0 1\tpolls\n' \
			>"$root/tunetop-world-switches"
		;;
	esac
}
# comp WORD...: bash completion of the last WORD (tests/cli/completion.sh)
comp() {
	bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tunetop
		printf "%s\n" "${COMPREPLY[@]}"' "$TT_BUILDDIR/contrib/completion/tunetop.bash" \
		"$TUNETOP" "$@" 2>&1 | sort -u | tr '\n' ' '
}

fams=$("$LIST" --list)
like "$(echo $fams)" "^cpufreq .*workqueue" "the registry lists the families: $(echo $fams)"
for f in $fams; do
	ex=$(example "$f")
	ok "$([ -n "$ex" ] && echo 0 || echo 1)" "$f: has an example here" || continue
	set -- $ex
	board=$1 a=$2 addr=${2%%=*} shown=${3:-${2%%=*}}
	fresh "$board"
	setup "$f"
	ref="$TMPD/ref-$f"
	cp -a "$root" "$ref"

	# exec --dry-run: an assignment, not the command
	out=$(tt exec --dry-run "$a" -- true 2>&1)
	is "$?" 0 "$f: exec --dry-run $a -- true exits 0"
	like "$out" "would run: true\$" "$f: the command is 'true'"
	like "$out" "$shown" "$f: the dry run names $shown"

	# exec with a hold: applied, held, restored
	out=$(tt exec --hold=report "$a" -- true 2>&1)
	is "$?" 0 "$f: exec --hold=report $a -- true exits 0"
	like "$out" "hold: [1-9][0-9]* knobs? held" "$f: the hold holds it"
	like "$out" "$shown: .*\\(restored\\)" "$f: and exec restores it"
	if pristine "$ref"; then ok 0 "$f: the tree is as before"; else
		ok 1 "$f: the tree is as before"; show_diff "$ref"; fi

	# a profile with it
	mkdir -p "$TMPD/prof-$f"
	printf '[profile]\ndescription = %s\n\n[knobs]\n%s = %s\n' "$f" "$addr" "${a#*=}" \
		>"$TMPD/prof-$f/reg-$f.profile"
	out=$(TUNETOP_PROFILES_DIR="$TMPD/prof-$f" tt apply --dry-run "reg-$f" 2>&1)
	is "$?" 0 "$f: apply --dry-run of a profile with $addr exits 0"
	like "$out" "$shown" "$f: and names it"

	# bash completion: the family (or, for thread/process, the object's leaves)
	case $addr in
	*/*/*) part=${addr%/*}/ ;;
	*) part=$f ;;
	esac
	got=$(comp --root "$root" exec "$part")
	like "$got" "(^| )$part" "$f: completion of 'exec $part': $got"
done
done_testing
