#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Effect verification (issue 21) on copied fixtures: after set/apply each
# knob with an observable is watched (--verify MS) against the kernel's
# counters. A background "kernel" moves the counters of the copy during the
# watch; the verdicts (verified / not_seen / unknown) show in set's output,
# journal --json and knobs --json. Timing is never asserted: the emulated
# kernel starts moving at once and keeps moving for about 2 s, longer than
# the 1.5 s watch, so a loaded machine still sees it move.
. "$TT_SRCDIR/tests/lib.sh"

C=sys/devices/system/cpu
V=2500

root=
tt() { "$TUNETOP" --root "$root" --state-dir "$TMPD/st-$(basename "$root")" "$@"; }

# put FILE VALUE: replace a counter in one step (a reader never sees it empty)
put() { printf '%s\n' "$2" >"$1.kw" && mv -f "$1.kw" "$1"; }

# grow FILE...: the kernel counts: add 7 to each counter every 0.1 s until
# kwait (so the counting covers the whole watch however late tunetop starts
# it on a loaded machine)
KPID=
grow() {
	rm -f "$TMPD/kstop"
	(
		while [ ! -e "$TMPD/kstop" ]; do
			for f in "$@"; do put "$f" $(($(cat "$f") + 7)); done
			sleep 0.1
		done
	) &
	KPID=$!
}

# follow FILE LIMIT WANT VALUE: once LIMIT reads WANT (tunetop wrote it), the
# kernel moves FILE to VALUE at its next tick, 1 s later: tunetop takes its
# first sample right after the write, well before that even under load
follow() {
	rm -f "$TMPD/kstop"
	(
		i=0
		while [ "$i" -lt 600 ] && [ "$(cat "$2")" != "$3" ]; do
			sleep 0.05
			i=$((i + 1))
		done
		sleep 1
		put "$1" "$4"
	) &
	KPID=$!
}

kwait() {
	touch "$TMPD/kstop"
	[ -n "$KPID" ] && wait "$KPID"
	KPID=
	rm -f "$TMPD/kstop"
}

# irq_grow IRQ CPU: the IRQ fires on CPU (its proc/interrupts column grows)
irq_grow() {
	rm -f "$TMPD/kstop"
	(
		while [ ! -e "$TMPD/kstop" ]; do
			awk -v irq="$1:" -v col=$(($2 + 2)) \
				'$1 == irq { $col += 5 } { print }' "$root/proc/interrupts" \
				>"$root/proc/interrupts.kw" &&
				mv -f "$root/proc/interrupts.kw" "$root/proc/interrupts"
			sleep 0.1
		done
	) &
	KPID=$!
}

# jfield ADDR FIELD: FIELD of the journal --json entries for ADDR, one a line
jfield() {
	tt journal --json 2>/dev/null | awk -v a="\"address\": \"$1\"," -v f="\"$2\": " '
		index($0, a) { on = 1 }
		on && index($0, f) { sub(/^[^:]*: /, ""); sub(/,$/, ""); print; on = 0 }'
}
# kfield ADDR FIELD: FIELD of knobs --json ADDR
kfield() {
	tt knobs --json "$1" 2>/dev/null | awk -v f="\"$2\": " '
		index($0, f) { sub(/^[^:]*: /, ""); sub(/,$/, ""); print; exit }'
}

# ---- cpuidle disable: not_seen, then verified, then unknown on a static tree
root=$(copy_fixture rk3588)
pristine=$(copy_fixture rk3588)
d1=$root/$C/cpu1/cpuidle

grow "$d1/state1/usage"
out=$(tt set --verify $V cpuidle/cpu1/state1/disable=1 2>&1)
rc=$?
kwait
is "$rc" 0 "not in effect: set still exits 0"
like "$out" 'cpuidle/cpu1/state1/disable: 0 -> 1' "the change is made"
like "$out" '^warning: cpuidle/cpu1/state1/disable=1 is not in effect: cpu-sleep \(state1\) entered [0-9]+ times on CPU 1 in [0-9.]+ s while disabled' \
	"a warning: the disabled state was entered, with the count"
is "$(printf '%s\n' "$out" | grep -c '^effect:')" 0 "no effect: line for it"
like "$(printf '%s\n' "$out" | grep 'warning:')" '^[^;]*$' "menu governor: no haltpoll hint"
is "$(jfield cpuidle/cpu1/state1/disable effect)" '"not_seen"' "journal --json: effect not_seen"
like "$(jfield cpuidle/cpu1/state1/disable effect_evidence)" 'cpu-sleep \(state1\) entered [0-9]+ times on CPU 1' \
	"journal --json: the evidence"
like "$(tt journal 2>&1)" 'cpuidle/cpu1/state1/disable: 0 -> 1 \[NOT IN EFFECT: cpu-sleep \(state1\) entered' \
	"journal text: [NOT IN EFFECT: ...]"
is "$(kfield cpuidle/cpu1/state1/disable effect)" '"not_seen"' "knobs --json: effect not_seen"
like "$(kfield cpuidle/cpu1/state1/disable effect_evidence)" 'entered [0-9]+ times on CPU 1' "knobs --json: the evidence"
is "$(kfield cpuidle/cpu2/state1/disable effect)" null "knobs --json: a knob without a change has effect null"

# the governor keeps out of state1 now: another state grows
grow "$root/$C/cpu3/cpuidle/state0/usage"
out=$(tt set --verify $V cpuidle/cpu3/state1/disable=1 2>&1)
kwait
like "$out" '^effect: cpuidle/cpu3/state1/disable: verified: cpu-sleep \(state1\) not entered on CPU 3 in [0-9.]+ s; WFI entered [0-9]+ times' \
	"verified: the state stays unused while WFI is entered"
is "$(printf '%s\n' "$out" | grep -c '^warning:')" 0 "no warning"
is "$(jfield cpuidle/cpu3/state1/disable effect)" '"verified"' "journal --json: verified"
like "$(tt journal 2>&1)" 'cpuidle/cpu3/state1/disable: 0 -> 1 \[in effect: ' "journal text: [in effect: ...]"

# a CPU asleep in the state at the write counts that stay when it wakes:
# one exit is no entry after the write (the x86-64 guest of
# tests/qemu/x86.sh showed it: "entered 1 times" under menu, which obeys)
u0=$(cat "$root/$C/cpu0/cpuidle/state1/usage")
follow "$root/$C/cpu0/cpuidle/state1/usage" "$root/$C/cpu0/cpuidle/state1/disable" 1 $((u0 + 1))
FPID=$KPID
grow "$root/$C/cpu0/cpuidle/state0/usage"
out=$(tt set --verify $V cpuidle/cpu0/state1/disable=1 2>&1)
kwait
wait "$FPID"
is "$(cat "$root/$C/cpu0/cpuidle/state1/usage")" $((u0 + 1)) "the state was left once during the watch"
like "$out" '^effect: cpuidle/cpu0/state1/disable: verified: cpu-sleep \(state1\) not entered on CPU 0 in [0-9.]+ s \(1 exit: the stay under way at the write\); WFI entered [0-9]+ times' \
	"one exit of state1 after the write: verified, the exit explained"
is "$(printf '%s\n' "$out" | grep -c '^warning:')" 0 "no 'not in effect' warning for one exit"

# enabling a state: verified once it is entered
grow "$root/$C/cpu3/cpuidle/state1/usage"
out=$(tt set --verify $V cpuidle/cpu3/state1/disable=0 2>&1)
kwait
like "$out" '^effect: cpuidle/cpu3/state1/disable: verified: cpu-sleep \(state1\) entered [0-9]+ times on CPU 3' \
	"disable=0: verified when the state is entered"

# nothing moves: unknown, nothing printed about it
out=$(tt set --verify $V cpuidle/cpu2/state1/disable=1 2>&1)
is "$out" "cpuidle/cpu2/state1/disable: 0 -> 1" "static tree: only the change line"
is "$(jfield cpuidle/cpu2/state1/disable effect)" '"unknown"' "journal --json: unknown"
like "$(jfield cpuidle/cpu2/state1/disable effect_evidence)" 'static|no idle state' "the evidence says the tree is static"
like "$(tt journal 2>&1)" 'cpuidle/cpu2/state1/disable: 0 -> 1 \[effect unknown: ' "journal text: [effect unknown: ...]"

# --no-verify: no watch, no E record
grow "$root/$C/cpu4/cpuidle/state1/usage"
out=$(tt set --no-verify cpuidle/cpu4/state1/disable=1 2>&1)
kwait
is "$out" "cpuidle/cpu4/state1/disable: 0 -> 1" "--no-verify: no effect or warning lines"
is "$(jfield cpuidle/cpu4/state1/disable effect)" null "--no-verify: journal effect null"
is "$(kfield cpuidle/cpu4/state1/disable effect)" null "--no-verify: knobs effect null"

# --verify takes milliseconds
out=$(tt set --verify abc cpuidle/cpu5/state1/disable=1 2>&1)
is "$?" 2 "--verify abc: exit 2"
like "$out" '--verify' "the error names --verify"
is "$(printf '%s\n' "$out" | wc -l)" 1 "one line"
is "$(cat "$root/$C/cpu5/cpuidle/state1/disable")" 0 "nothing written"

# ---- apply prints only the warning
printf '[profile]\ndescription = two idle states off\n[knobs]\ncpuidle/cpu6/state1/disable = 1\ncpuidle/cpu7/state1/disable = 1\n' \
	>"$TMPD/effect.profile"
grow "$root/$C/cpu6/cpuidle/state1/usage" "$root/$C/cpu7/cpuidle/state0/usage"
out=$(tt apply --verify $V "$TMPD/effect.profile" 2>&1)
rc=$?
kwait
is "$rc" 0 "apply: exit 0"
like "$out" 'warning: cpuidle/cpu6/state1/disable=1 is not in effect: ' "apply: the warning"
is "$(printf '%s\n' "$out" | grep -c '^effect:')" 0 "apply: no effect: lines"
is "$(jfield cpuidle/cpu7/state1/disable effect)" '"verified"' "apply: the verified one is journaled"

# ---- cpufreq lock: both halves watched
p4=$root/$C/cpufreq/policy4
follow "$p4/scaling_cur_freq" "$p4/scaling_max_freq" 1200000 1200000
out=$(tt set --verify $V cpufreq/policy4/lock_khz=1200000 2>&1)
kwait
like "$out" '^effect: cpufreq/policy4/min_khz: verified: scaling_cur_freq 1200000 kHz, at or above the floor 1200000 kHz' \
	"lock: the floor verified"
like "$out" '^effect: cpufreq/policy4/max_khz: verified: scaling_cur_freq 1200000 kHz, at or below the cap 1200000 kHz' \
	"lock: the cap verified"
is "$(jfield cpufreq/policy4/min_khz effect) $(jfield cpufreq/policy4/max_khz effect)" '"verified" "verified"' \
	"journal --json: both halves verified"

# the frequency moves, but stays below the floor
p6=$root/$C/cpufreq/policy6
grow "$p6/scaling_cur_freq"
out=$(tt set --verify $V cpufreq/policy6/lock_khz=1200000 2>&1)
kwait
like "$out" '^warning: cpufreq/policy6/min_khz=1200000 is not in effect: scaling_cur_freq [0-9]+ kHz, below the floor 1200000 kHz' \
	"lock: below the floor: not in effect"
like "$out" '^effect: cpufreq/policy6/max_khz: verified: ' "lock: the cap half verified"
is "$(jfield cpufreq/policy6/min_khz effect)" '"not_seen"' "journal --json: min half not_seen"

# static: unknown
out=$(tt set --verify $V cpufreq/policy0/lock_khz=1008000 2>&1)
is "$(printf '%s\n' "$out" | grep -Ec '^(effect|warning):')" 0 "static cpufreq: no effect or warning line"
like "$(jfield cpufreq/policy0/min_khz effect_evidence)" '^"a static tree: scaling_cur_freq stayed 408000 kHz' \
	"static cpufreq: unknown, a static tree"
is "$(jfield cpufreq/policy0/max_khz effect)" '"unknown"' "static cpufreq: max half unknown"

# ---- devfreq lock
dmc=$root/sys/class/devfreq/dmc
follow "$dmc/cur_freq" "$dmc/max_freq" 1320000000 1320000000
out=$(tt set --verify $V devfreq/dmc/lock_hz=1320000000 2>&1)
kwait
like "$out" '^effect: devfreq/dmc/min_hz: verified: cur_freq 1320000000 Hz, at or above the floor' "devfreq lock: floor verified"
like "$out" '^effect: devfreq/dmc/max_hz: verified: cur_freq 1320000000 Hz, at or below the cap' "devfreq lock: cap verified"
is "$(jfield devfreq/dmc/max_hz effect)" '"verified"' "journal --json: devfreq verified"

# ---- IRQ affinity
# the kernel moves the IRQ: effective affinity follows
follow "$root/proc/irq/85/effective_affinity_list" "$root/proc/irq/85/smp_affinity_list" 2 2
out=$(tt set --verify $V irq/85/affinity=2 2>&1)
kwait
like "$out" '^effect: irq/85/affinity: verified: effective affinity 2' "irq: effective affinity moved: verified"
is "$(jfield irq/85/affinity effect)" '"verified"' "journal --json: irq verified"
# it keeps firing on CPU 0, outside the new mask
irq_grow 90 0
out=$(tt set --verify $V irq/90/affinity=4 2>&1)
kwait
like "$out" '^warning: irq/90/affinity=4 is not in effect: IRQ fired [0-9]+ times on CPU 0, outside 4' \
	"irq: fires outside the mask: not in effect"
is "$(jfield irq/90/affinity effect)" '"not_seen"' "journal --json: irq not_seen"
# nothing moves
out=$(tt set --verify $V irq/86/affinity=1-2 2>&1)
is "$(printf '%s\n' "$out" | grep -Ec '^(effect|warning):')" 0 "static irq: nothing printed"
is "$(jfield irq/86/affinity effect)" '"unknown"' "static irq: unknown"

tt restore >/dev/null 2>&1
ok $? "restore"
# the counters are the kernel's, not knobs: put them back before comparing
for f in $C/cpu1/cpuidle/state1/usage $C/cpu3/cpuidle/state0/usage $C/cpu3/cpuidle/state1/usage \
	$C/cpu4/cpuidle/state1/usage $C/cpu0/cpuidle/state0/usage $C/cpu0/cpuidle/state1/usage $C/cpu6/cpuidle/state1/usage $C/cpu7/cpuidle/state0/usage \
	$C/cpufreq/policy4/scaling_cur_freq $C/cpufreq/policy6/scaling_cur_freq \
	sys/class/devfreq/dmc/cur_freq proc/irq/85/effective_affinity_list proc/interrupts; do
	cp "$pristine/$f" "$root/$f"
done
same_tree "$root" "$pristine"
ok $? "restore gives every knob back"

# ---- haltpoll ignores per-state disable; menu honours it
root=$(copy_fixture rk3588)
printf 'menu haltpoll\n' >"$root/$C/cpuidle/available_governors"
printf 'haltpoll\n' >"$root/$C/cpuidle/current_governor"
pristine=$TMPD/pristine-haltpoll
cp -a "$root" "$pristine"

grow "$root/$C/cpu1/cpuidle/state1/usage"
out=$(tt set --verify $V cpuidle/cpu1/state1/disable=1 2>&1)
kwait
like "$out" '^warning: cpuidle/cpu1/state1/disable=1 is not in effect: cpu-sleep \(state1\) entered [0-9]+ times on CPU 1 .*; the haltpoll cpuidle governor ignores per-state disable: set cpuidle/governor=menu' \
	"haltpoll: the warning names haltpoll and the way out"
is "$(jfield cpuidle/cpu1/state1/disable effect)" '"not_seen"' "haltpoll: journal not_seen"

grow "$root/$C/cpu1/cpuidle/state0/usage"
out=$(tt set --verify $V cpuidle/governor=menu 2>&1)
rc=$?
kwait
is "$rc" 0 "set cpuidle/governor=menu"
like "$out" 'cpuidle/governor: haltpoll -> menu' "the governor changed"
like "$out" '^effect: cpuidle/cpu1/state1/disable: verified: cpu-sleep \(state1\) not entered on CPU 1' \
	"the governor change re-watches the disable: verified"
is "$(jfield cpuidle/cpu1/state1/disable effect)" '"verified"' "journal --json: the earlier disable now verified"
is "$(kfield cpuidle/cpu1/state1/disable effect)" '"verified"' "knobs --json: verified"
is "$(jfield cpuidle/governor effect)" '"unknown"' "the governor itself: unknown"

tt restore >/dev/null 2>&1
ok $? "restore"
is "$(cat "$root/$C/cpuidle/current_governor")" haltpoll "the governor is haltpoll again"
for f in $C/cpu1/cpuidle/state0/usage $C/cpu1/cpuidle/state1/usage; do
	cp "$pristine/$f" "$root/$f"
done
same_tree "$root" "$pristine"
ok $? "every file of the copy as it was, byte for byte"

# ---- ladder never goes below its first non-polling state (the x86-64 guest
# of tests/qemu/x86.sh: POLL and C1, C1 entered while disabled); it honours
# disable for deeper states
root=$(copy_fixture rk3588)
printf 'ladder menu\n' >"$root/$C/cpuidle/available_governors"
printf 'ladder\n' >"$root/$C/cpuidle/current_governor"
printf 'POLL\n' >"$root/$C/cpu1/cpuidle/state0/name"
grow "$root/$C/cpu1/cpuidle/state1/usage" "$root/$C/cpu2/cpuidle/state1/usage"
out=$(tt set --verify $V cpuidle/cpu1/state1/disable=1 cpuidle/cpu2/state1/disable=1 2>&1)
kwait
like "$out" '^warning: cpuidle/cpu1/state1/disable=1 is not in effect: cpu-sleep \(state1\) entered [0-9]+ times on CPU 1 .*; the ladder cpuidle governor never picks a state shallower than cpu-sleep, the first that does not poll, disabled or not: set cpuidle/governor=menu' \
	"ladder, state0 POLL: the warning says ladder keeps the first non-polling state"
like "$(printf '%s\n' "$out" | grep 'cpu2/state1')" '^warning: [^;]*$' \
	"ladder, state0 WFI: state1 is deeper than ladder's floor, no ladder hint"
tt restore >/dev/null 2>&1
done_testing
