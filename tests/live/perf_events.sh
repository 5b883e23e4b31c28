#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `tunetop events` on this machine: every generic event listed with its
# open status; without a hardware PMU the hardware events say n/a with
# ENOENT (or EACCES when not permitted) and the software events open.
# Against a fixture root it lists the fixture's PMUs and opens nothing.
. "$TT_SRCDIR/tests/lib.sh"

out=$("$TUNETOP" events 2>"$TMPD/err")
ok $? "tunetop events exits 0"
for ev in cycles instructions cache-misses cache-references branch-misses \
	context-switches cpu-migrations page-faults; do
	like "$out" "^  $ev " "lists $ev"
done
if [ -z "$(ls /sys/bus/event_source/devices 2>/dev/null | grep -E '^(cpu|cpu_core|cpu_atom|armv.*)$')" ]; then
	like "$(printf '%s\n' "$out" | grep '^  cycles ')" 'n/a \((ENOENT: no hardware PMU|EACCES: .*)\)' \
		"no hardware PMU: cycles n/a with the reason"
	like "$out" 'none: no hardware PMU' "says there is no core PMU"
else
	skip "no-PMU reasons" "this machine has a core PMU"
fi
like "$(printf '%s\n' "$out" | grep '^  context-switches ')" ' ok ' "context switches open"
like "$(printf '%s\n' "$out" | grep '^  page-faults ')" ' ok' "page faults open"

# A fixture with a big.LITTLE PMU tree (made here): listed, nothing opened.
root="$TMPD/bl"
mkdir -p "$root/sys/bus/event_source/devices/armv8_cortex_a55" \
	"$root/sys/bus/event_source/devices/armv8_cortex_a76" "$root/proc"
echo 10 >"$root/sys/bus/event_source/devices/armv8_cortex_a55/type"
echo 0-3 >"$root/sys/bus/event_source/devices/armv8_cortex_a55/cpus"
echo 11 >"$root/sys/bus/event_source/devices/armv8_cortex_a76/type"
echo 4-7 >"$root/sys/bus/event_source/devices/armv8_cortex_a76/cpus"
out=$("$TUNETOP" --root "$root" events 2>&1)
ok $? "events --root FIXTURE exits 0"
like "$out" 'armv8_cortex_a76 +type 11 +CPUs 4-7' "lists the A76 cluster PMU"
like "$out" 'heterogeneous: each CPU is counted on its own PMU' "big.LITTLE noted"
like "$out" 'cache-misses +L1D refills' "ARM label for cache-misses"

if "$TUNETOP" events --list cycles >"$TMPD/list" 2>"$TMPD/list.err"; then
	like "$(cat "$TMPD/list")" 'perf::PERF_COUNT_HW_CPU_CYCLES' "libpfm4 listing"
else
	like "$(cat "$TMPD/list.err")" 'without libpfm4' "no libpfm4: --list says why"
fi
"$TUNETOP" events --bogus >/dev/null 2>&1
is $? 2 "usage error exits 2"

# --events is checked before sampling: unknown names, empty items and
# duplicates are one line and exit 2; a hardware name this VM cannot count is
# accepted (n/a with its reason at sampling time).
for cmd in snapshot watch; do
	extra=""
	[ "$cmd" = watch ] && extra="-i 100 -n 1"
	"$TUNETOP" $cmd $extra --events bogus_ev >"$TMPD/out" 2>"$TMPD/err"
	is $? 2 "$cmd --events bogus_ev exits 2"
	is "$(cat "$TMPD/err")" "$(grep -m1 "unknown event 'bogus_ev'" "$TMPD/err")" \
		"$cmd: one line"
	like "$(cat "$TMPD/err")" "^tunetop $cmd: unknown event 'bogus_ev'" "$cmd: names the event"
	is "$(wc -c <"$TMPD/out")" 0 "$cmd: nothing sampled"
done
"$TUNETOP" snapshot --events a,,b >/dev/null 2>"$TMPD/err"
is $? 2 "--events a,,b exits 2"
like "$(cat "$TMPD/err")" "empty event name in 'a,,b'" "empty item said"
"$TUNETOP" snapshot --events cycles, >/dev/null 2>"$TMPD/err"
is $? 2 "--events cycles, exits 2"
"$TUNETOP" snapshot --events cycles,cycles >/dev/null 2>"$TMPD/err"
is $? 2 "--events cycles,cycles exits 2"
like "$(cat "$TMPD/err")" "duplicate event 'cycles'" "duplicate said"
"$TUNETOP" snapshot --events cs,context-switches >/dev/null 2>"$TMPD/err"
is $? 2 "--events cs,context-switches exits 2"
like "$(cat "$TMPD/err")" "duplicate event 'context-switches' \\(the same as 'cs'\\)" \
	"another name for the same event said"
out=$("$TUNETOP" snapshot --interval 100 --json --events cycles,cs 2>"$TMPD/err")
is $? 0 "--events cycles,cs exits 0"
like "$out" '"events":\["cycles","cs"\]' "both sampled"
if [ -z "$(ls /sys/bus/event_source/devices 2>/dev/null | grep -E '^(cpu|cpu_core|cpu_atom|armv.*)$')" ]; then
	like "$out" '"errors":\{"cycles":"(ENOENT|EACCES): ' "no PMU: cycles n/a with its reason"
fi

# A thread of ours that sleeps through the interval did not switch or
# migrate: 0, not null (it is a fact, not an unknown).
sleep 30 &
spid=$!
sleep 0.2
out=$("$TUNETOP" snapshot --interval 200 --json --thread $spid 2>"$TMPD/err")
is $? 0 "snapshot --thread (sleeping child) exits 0"
like "$out" '"thread":\{"tid":[0-9]+,"values":\{[^}]*"context-switches":0(\.0)?,"cpu-migrations":0(\.0)?' \
	"sleeping thread: context switches and migrations 0, not null"
kill $spid 2>/dev/null
wait $spid 2>/dev/null
done_testing
