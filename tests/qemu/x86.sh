#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A real idle state on a real kernel (issue 31): Debian's amd64 kernel under
# qemu-system-x86_64 in software emulation (TCG; the build machines' KVM does
# not run a stock kernel), with an SSDT (tests/qemu/c1.asl, compiled by iasl)
# that gives each CPU an ACPI C1 state, so that acpi_idle registers POLL and
# C1. The initramfs holds busybox, this build's tunetop and cyclictest with
# their shared libraries, and tests/qemu/guest.sh + guest-x86.sh as the
# batch. Asserted against what the guest itself measured:
#   - the snapshot's idle states equal sysfs read around it;
#   - set cpuidle/cpu1/state1/disable=1 --verify: verified under menu, the
#     "not in effect" warning under ladder (which never goes below the first
#     non-polling state: C1 keeps being entered); restore puts every
#     cpuidle file back byte for byte;
#   - the ground truth: the probe and cyclictest alone, C1 enabled and
#     disabled, alternated three times (a direction where 5 of the 6 pairs
#     agree); the A/B of the knob is significant
#     only in the truth's direction (or not at all), an A/A is not;
#     TT_QEMU_REVERSE=1 reverses the truth (the test of the test: the test
#     runs the check once reversed itself and expects it to fail where the
#     A/B was significant).
#   - why late: C1 exits among the causes with C1 enabled, none disabled;
#     with an RT budget of 50 ms per 100 ms (written in the guest only)
#     used up by an RT busy loop, the late wake-ups are RT throttled: as
#     the idle task (nothing else to run) and as a CFS busy loop.
# Emulated timing: the directions and sizes say nothing about hardware (a
# polling vCPU takes a host CPU away, so disabling C1 can make latency
# worse); the stage checks that tunetop agrees with the truth of its guest.
# About 3 minutes; skipped with the reason when a tool or package is missing.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/qemu/lib.sh"
# the x86 guest runs several probes and A/Bs (idle states, why, RT
# throttling): more than a boot, so a longer default limit
boot_timeout=${TT_QEMU_TIMEOUT:-600}

t_start=$(date +%s)
need qemu-system-x86_64 iasl cyclictest cpio gzip jq apt-get dpkg-deb timeout ldd file
file -b "$TUNETOP" 2>/dev/null | grep -q 'ELF 64-bit.*x86-64' || skip_all "$TUNETOP is not an x86-64 ELF program"

kernel amd64 linux-image-amd64 amd64
busybox amd64

# the SSDT with a C1 _CST for each CPU
iasl -p "$TMPD/c1" "$TT_SRCDIR/tests/qemu/c1.asl" >"$TMPD/iasl.log" 2>&1
ok $? "iasl compiles tests/qemu/c1.asl" || tail -5 "$TMPD/iasl.log" | sed 's/^/# /'

# libs PROGRAM...: FILE=PATH pairs of each program's shared libraries and
# loader (ldd), at the same paths in the guest, and libgcc_s, which glibc
# loads at run time for pthread_cancel (the probe's and the A/B's threads)
libs() {
	{
		ldd "$@" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
			NF == 2 && $1 ~ /^\// && $2 ~ /^\(/ { print $1 }'
		ldconfig -p 2>/dev/null | awk '$1 == "libgcc_s.so.1" && /x86-64/ { print $NF; exit }'
	} | sort -u | while read -r l; do printf '%s=%s\n' "$l" "$l"; done
}
ct=$(command -v cyclictest)
# shellcheck disable=SC2046
initrd x86 amd64 "$TUNETOP" "$ct=bin/cyclictest" "$TT_SRCDIR/tests/qemu/guest-x86.sh=x86.sh" \
	$(libs "$TUNETOP" "$ct")

# TCG: /dev/kvm on the build machines belongs to a hypervisor that does not
# run a stock kernel (TT_QEMU_KVM=1 where one does). TT_QEMU_X86_LOG=FILE
# asserts on a recorded console (the x86.log a TT_KEEP_TMP=1 run left)
# instead of booting.
accel=tcg,thread=multi
[ "${TT_QEMU_KVM:-}" = 1 ] && accel=kvm
if [ -n "${TT_QEMU_X86_LOG:-}" ]; then
	cp "$TT_QEMU_X86_LOG" "$TMPD/x86.log" && parse x86
	ok $? "x86: the recorded guest ran its batch ($TT_QEMU_X86_LOG)"
else
	boot x86 qemu-system-x86_64 "$kernel_amd64" "$TMPD/initrd-x86.gz" \
		"console=ttyS0 tt_variant=x86 cpuidle.governor=menu" \
		-accel "$accel" -cpu max -smp 2 -m 1024 -acpitable file="$TMPD/c1.aml"
fi

T=$TMPD/x86
diag "guest uptime at: start $(out x86 t-start) s, truth $(out x86 t-truth) s, ab $(out x86 t-ab) s, ladder $(out x86 t-ladder) s, end $(out x86 t-end) s"

# ---- the kernel and the snapshot ---------------------------------------------
is "$(rc_of x86 version)" 0 "x86: tunetop --version runs in the guest"
is "$(out x86 uname)" x86_64 "x86: uname -m"
is "$(rc_of x86 snapshot)" 0 "x86: snapshot --json --interval 1000 exits 0"
jqt x86 snapshot '.cpuidle.driver == "acpi_idle" and .cpuidle.governor == "menu"' \
	"the SSDT's _CST makes acpi_idle register, under menu"
jqt x86 snapshot '.cpuidle.available_governors | sort == ["ladder","menu"]' "menu and ladder available"
jqt x86 snapshot '[.cpus[] | [.idle[] | .name]] == [["POLL","C1"],["POLL","C1"]]' \
	"each CPU has POLL and C1"
jqt x86 snapshot '[.cpus[].idle[1] | .latency_us == 1 and .desc == "ACPI HLT"] | all' \
	"C1 is the _CST entry: latency 1 us, ACPI HLT"
jqt x86 snapshot "$residency_ok" "an idle CPU shows >= 90 % idle residency over 1 s"
# every state against sysfs read just before and just after the snapshot:
# name, latency, residency and disable equal; usage and time between
fixed=0 counters=0 states=0
while read -r path name lat res use tim dis; do
	states=$((states + 1))
	c=${path%%/*}
	c=${c#cpu}
	st=${path##*/}
	# shellcheck disable=SC2046
	set -- $(grep "^$path " "$T/idle_after")
	snap=$(jq -r --argjson c "$c" --arg s "$st" '.cpus[] | select(.id == $c) | .idle[] | select(.state == $s)
		| "\(.name) \(.latency_us) \(.residency_us) \(.usage) \(.time_us) \(if .disabled then 1 else 0 end)"' \
		"$T/snapshot" 2>/dev/null)
	# shellcheck disable=SC2086
	set -- "$@" $snap
	# $1..$7 sysfs after, $8..$13 the snapshot
	if [ "$#" -ne 13 ] || [ "$8" != "$name" ] || [ "$9" != "$lat" ] || [ "${10}" != "$res" ] ||
		[ "${13}" != "$dis" ] || [ "$2 $3 $4 $7" != "$name $lat $res $dis" ]; then
		fixed=$((fixed + 1))
		diag "$path: sysfs $name $lat $res $dis, snapshot ${8:-?} ${9:-?} ${10:-?} ${13:-?}"
	fi
	if [ "$#" -ne 13 ] || [ "${11}" -lt "$use" ] || [ "${11}" -gt "$5" ] || [ "${12}" -lt "$tim" ] ||
		[ "${12}" -gt "$6" ]; then
		counters=$((counters + 1))
		diag "$path: usage $use..${5:-?} time $tim..${6:-?}, snapshot ${11:-?} ${12:-?}"
	fi
done <"$T/idle_before"
is "$states" 4 "sysfs has 4 idle states (2 CPUs x POLL, C1)"
is "$fixed" 0 "the snapshot's names, latencies, residencies and disable flags equal sysfs"
is "$counters" 0 "the snapshot's usage and time lie between sysfs read before and after it"

# ---- set --verify and restore, under each governor ---------------------------
for g in menu ladder; do
	is "$(out x86 "gov-$g")" "$g" "current_governor takes $g"
	is "$(rc_of x86 "set-$g")" 0 "$g: set cpuidle/cpu1/state1/disable=1 --verify 1000 exits 0"
	is "$(out x86 "after-set-$g")" 1 "$g: the kernel's disable file reads 1"
	is "$(rc_of x86 "restore-$g")" 0 "$g: restore exits 0"
	is "$(out x86 "files-after-$g")" "$(out x86 "files-before-$g")" \
		"$g: restore puts every cpuidle disable file and the governor back, byte for byte"
done
like "$(out x86 set-menu)" '^effect: cpuidle/cpu1/state1/disable: verified: C1 \(state1\) not entered on CPU 1' \
	"menu: verified (C1 not entered, POLL was)"
unlike "$(out x86 set-menu)" 'not in effect' "menu: no 'not in effect' warning"
jqt x86 journal-menu '[.entries[] | select(.address == "cpuidle/cpu1/state1/disable") | .effect] | last == "verified"' \
	"menu: the journal records verified"
# the kernel's own count, after the watch and still disabled: menu obeys
is "$(out x86 usage2-menu)" "$(out x86 usage1-menu)" "menu: C1's usage stands still while disabled (sysfs)"
like "$(out x86 set-ladder)" '^warning: cpuidle/cpu1/state1/disable=1 is not in effect: C1 \(state1\) entered [0-9]+ times on CPU 1' \
	"ladder: the 'not in effect' warning"
like "$(out x86 set-ladder)" 'not in effect: .*; the ladder cpuidle governor never picks a state shallower than C1, the first that does not poll' \
	"ladder: the warning names the cause (ladder never goes below C1)"
jqt x86 journal-ladder '[.entries[] | select(.address == "cpuidle/cpu1/state1/disable") | .effect] | last == "not_seen"' \
	"ladder: the journal records not_seen"
u1=$(out x86 usage1-ladder) u2=$(out x86 usage2-ladder)
ok "$([ "${u2:-0}" -gt "${u1:-0}" ]; echo $?)" "ladder: C1's usage grows while disabled (sysfs: $u1 -> $u2 in 1 s)"
diag "menu: C1 usage $(out x86 usage0-menu) before set, $(out x86 usage1-menu) after the watch, $(out x86 usage2-menu) 1 s later"
diag "ladder: C1 usage $(out x86 usage0-ladder) before set, $u1 after the watch, $u2 1 s later"
is "$(rc_of x86 ab-ladder)" 0 "ladder: ab exits 0"
jqt x86 ab-ladder '.comparison.effect == "not_seen" and .comparison.not_in_effect_arm == "B" and .comparison.conclusive == false' \
	"ladder: the A/B gives no verdict: the knob was not in effect in the B windows"

# ---- the ground truth ----------------------------------------------------------
# metrics FILE: "p99 p50 mean" of a truth run: tunetop probe's JSON, or
# cyclictest's (percentiles from its histogram; a sample past the histogram
# counts as later than any in it)
metrics() {
	jq -r 'if .all then .all | "\(.p99_us) \(.p50_us) \(.mean_us)" else
		.thread["0"] as $t
		| ($t.histogram | to_entries | map({k: (.key | tonumber), c: .value}) | sort_by(.k)) as $h
		| def pct(q): ($t.cycles * q) as $need
			| (reduce $h[] as $e ({s: 0, v: null};
				if .v == null then .s += $e.c | (if .s >= $need then .v = $e.k else . end) else . end)).v
			// $t.max;
		"\(pct(0.99)) \(pct(0.5)) \($t.avg)" end' "$1" 2>/dev/null
}
# the direction of each metric, B (C1 disabled) - A (enabled): +1 when it
# rose in all the pairs of both tools but one at most, -1 when it fell so,
# 0 otherwise (a burst of host load can turn one pair around; a metric the
# knob does not move comes out +1 or -1 by chance in 2 x 7/64 of the runs,
# and then the A/B must still be significant against it to fail)
for tool in probe ct; do
	for r in 1 2 3; do
		a=$(metrics "$T/truth-$tool-$r-0") b=$(metrics "$T/truth-$tool-$r-1")
		[ -n "$a" ] && [ -n "$b" ] || continue
		diag "truth $tool $r: C1 enabled p99/p50/mean $a, disabled $b"
		echo "$a $b"
	done
done >"$TMPD/truth.txt"
grep '^#' "$TMPD/truth.txt"
grep -v '^#' "$TMPD/truth.txt" >"$TMPD/pairs.txt"
is "$(wc -l <"$TMPD/pairs.txt" | tr -d ' ')" 6 "the truth: 3 pairs of the probe and 3 of cyclictest, alone"
# shellcheck disable=SC2046
set -- $(awk '{ for (m = 1; m <= 3; m++) { d = $(m + 3) - $m; up[m] += d > 0; down[m] += d < 0 } }
	END { for (m = 1; m <= 3; m++) printf "%d ", (up[m] >= NR - 1 ? 1 : down[m] >= NR - 1 ? -1 : 0) }' "$TMPD/pairs.txt")
truth_p99=${1:-0} truth_p50=${2:-0} truth_mean=${3:-0}
diag "the truth (+1: C1 disabled later in 5 or 6 of the 6 pairs, -1 earlier, 0 mixed): p99 $truth_p99, p50 $truth_p50, mean $truth_mean"

# ---- the A/B against the truth -------------------------------------------------
is "$(rc_of x86 ab)" 0 "ab cpuidle/cpu1/state1/disable=0,1 exits 0"
jqt x86 ab '.ab.complete == true and .ab.restored == true and .comparison.windows == 24' \
	"the A/B measured its 24 windows and restored the knob"
jqt x86 ab '.comparison.effect == "in_effect_or_unknown"' "menu: the knob was in effect in every window"
is "$(out x86 files-after-ab)" "$(out x86 files-before-menu)" "after the A/B and the A/A every cpuidle file is as before"
diag "A/B verdict: $(jq -r .comparison.verdict "$T/ab" 2>/dev/null)"
diag "A/A verdict: $(jq -r .comparison.verdict "$T/aa" 2>/dev/null)"

# against_truth FILE: 0 unless a metric of the A/B in FILE is significant in
# the direction opposite to the truth's; TT_QEMU_REVERSE=1 reverses the truth
# (a test of the test). Sets $checked: the significant metrics whose truth
# is clear.
against_truth() {
	bad=0 checked=0
	for m in p99 p50 mean; do
		eval "d=\$truth_$m"
		[ "${TT_QEMU_REVERSE:-0}" = 1 ] && d=$((0 - d))
		j=$(jq -r ".comparison.$m | \"\(.significant) \(.diff)\"" "$1" 2>/dev/null)
		[ "${j%% *}" = true ] && [ "$d" != 0 ] || continue
		checked=$((checked + 1))
		s=$(awk -v x="${j#* }" 'BEGIN { print (x > 0) - (x < 0) }')
		if [ "$s" != "$d" ]; then
			bad=1
			diag "$m: B - A = ${j#* } is significant, against the truth ($d)"
		fi
	done
	return $bad
}
against_truth "$T/ab"
ok $? "the A/B is significant only in the truth's direction, or not at all"
n=$checked
if [ "$n" -gt 0 ]; then
	rev=1
	[ "${TT_QEMU_REVERSE:-0}" = 1 ] && rev=0
	TT_QEMU_REVERSE=$rev against_truth "$T/ab" >/dev/null
	ok "$([ $? -ne 0 ]; echo $?)" "test of the test: with the truth reversed the check fails ($n metrics significant where the truth is clear)"
else
	skip "test of the test: a reversed truth fails the check" \
		"the A/B was significant in no metric whose truth is clear: nothing for it to contradict"
fi
# Missed deadlines per arm (issue 30) are in the report: each arm's count,
# and the comparison's counts are those of the arms
jqt x86 ab '[.arms[].missed_deadlines | type == "number"] | all and length == 2' \
	"the A/B reports each arm's missed deadlines"
jqt x86 ab '.comparison.missed_deadlines.a == .arms[0].missed_deadlines and
	.comparison.missed_deadlines.b == .arms[1].missed_deadlines and
	((.comparison.missed_deadlines.p | type == "number") or
	 (.comparison.conclusive == false and .ab.lost_windows > 0))' \
	"and compares them (the verdict's counts are the arms'; tested unless stalls left under 3 rounds)"

# An A/A is significant in no metric after Holm over the three (methods.md
# section 8: the smallest p must be above 0.05 / 3)
is "$(rc_of x86 aa)" 0 "ab --aa exits 0"
jqt x86 aa '.ab.aa == true and .comparison.windows == 24' "the A/A measured its 24 windows"
jqt x86 aa '[.comparison.p99.p, .comparison.p50.p, .comparison.mean.p] | map(select(. != null)) | all(. > 0.05 / 3)' \
	"the A/A is not significant (Holm over p99, p50 and mean)"

# Why late (issue 29): `probe --why` on CPU 1 with C1 enabled lists C1
# exits (kind idle_exit, state 1) among the causes of its late wake-ups;
# with C1 disabled (menu obeys, verified above) it lists none, while its
# late wake-ups are attributed all the same
for v in 0 1; do
	is "$(rc_of x86 why-$v)" 0 "probe --why with state1/disable=$v exits 0"
	jqt x86 why-$v '.why != null and .why.late_wakeups > 0 and .why.lost_events == 0' \
		"probe --why with state1/disable=$v attributed its late wake-ups, no event lost"
done
jqt x86 why-0 '[.why.causes[] | select(.kind == "idle_exit" and .id == 1)] | length == 1' \
	"C1 enabled: C1 exits are a cause of late wake-ups"
jqt x86 why-1 '[.why.causes[] | select(.kind == "idle_exit" and .id == 1)] | length == 0' \
	"C1 disabled: no C1 exit among the causes"

# RT throttling (issue 29): an RT busy loop (FIFO 1) uses up CPU 1's RT
# budget of 50 ms per 100 ms, and the probe (FIFO 95, the same runqueue) is
# late by the throttled rest of each period; the attribution names it RT
# throttled and charges it to the RT loop that used the budget up (the
# trace shows it switched out still runnable for the idle task, or for the
# CFS busy loop when CPU 1 had one), with the fix of running it SCHED_OTHER
is "$(out x86 rt-budget)" "50000 100000" "the guest's RT budget: 50 ms every 100 ms"
is "$(rc_of x86 rt-hog)" 0 "tunetop set thread/LOOP/policy=fifo:1 makes the test's busy loop RT"
rthog=$(out x86 rt-hog-pid)
for v in idle cfs; do
	is "$(rc_of x86 throttle-$v)" 0 "probe --why throttled ($v) exits 0"
	jqt x86 throttle-$v '.all.samples >= 10' \
		"throttled ($v): the probe ran (10 or more wake-ups in 2 s; starved on its own 200 us budget, it had 1 in 5 s)"
	jqt x86 throttle-$v '.why.late_wakeups > 0 and .why.causes[0].reason == "RT throttled"' \
		"throttled ($v): the largest cause of the late wake-ups is RT throttled"
	jqt x86 throttle-$v ".why.causes[0].kind == \"task\" and .why.causes[0].id == $rthog and .why.causes[0].fix == \"thread/$rthog/policy=other\"" \
		"throttled ($v): charged to the RT loop that used the budget up ($rthog), fix thread/$rthog/policy=other"
done
is "$(out x86 rt-after)" "950000 1000000" "the guest's RT budget is put back"
diag "guest uptime at throttle: $(out x86 t-throttle) s"

diag "x86 stage: $(($(date +%s) - t_start)) s"
done_testing
