#!/bin/sh
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
done_testing
