#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop learn: the lesson list, and lessons run with --auto on the
# simulated RK3588: explain -> toggle -> measure -> compare -> restore,
# with a recording that `report` turns into HTML. The lessons on this
# kernel are in learn_live.sh (run again under every host shape).
. "$TT_SRCDIR/tests/lib.sh"

# the verdict's sentences wrap: match them on the output as one line
flat() { printf '%s' "$1" | tr '\n' ' ' | tr -s ' '; }

out=$("$TUNETOP" learn)
ok $? "learn lists the lessons"
for t in "Governor collapse" "Idle-state A/B with the probe" "DDR and NPU clocks" "RT throttling" \
	"Affinity, migrations and cache misses"; do
	like "$out" "$t" "lesson: $t"
done
"$TUNETOP" learn 9 >/dev/null 2>&1
is $? 2 "no lesson 9: usage error"

# 1: governor collapse on the simulated board, recorded.
out=$("$TUNETOP" learn 1 --auto --demo --record "$TMPD/l1.jsonl" </dev/null 2>&1)
ok $? "lesson 1 runs"
like "$out" 'SIMULATED RK3588' "labelled simulated"
like "$out" 'tunetop explain cpufreq/\*/governor' "explains with a pointer to the entry"
like "$out" 'echo performance > [^ ]*/root/sys/devices/system/cpu/cpufreq/policy4/scaling_governor +# cpufreq/policy4/governor: interactive -> performance' \
	"shows the write it makes as a shell line (the knob engine's dry run)"
like "$out" 'policy4 clock +408\.0 MHz +2256\.0 MHz' \
	"policy4 parked at its lowest OPP on the quiet board, at its top OPP after the change"
like "$out" 'policy4 time at lowest OPP +([5-9][0-9]|100)\.[0-9] % +0\.0 %' \
	"most of the time at the lowest OPP before, none after"
like "$out" 'cpufreq/policy4/governor: performance -> interactive' "restored at the end"
like "$(flat "$out")" 'The rule: a clock counts as changed when it moves by more than 5%' "states its rule"
like "$(flat "$out")" '- policy4 clock: 408\.0 MHz -> 2256\.0 MHz: improved\.' "the verdict quotes the numbers"
like "$(flat "$out")" 'Overall: improved' "effect present: improved"
like "$(flat "$out")" 'The board is simulated' "says the numbers are the simulator's"
unlike "$(flat "$out")" 'longer depends on how busy' "no canned claim of the effect"
grep -q '"simulated":true' "$TMPD/l1.jsonl"
ok $? "the recording says simulated"
is "$(grep -c '"kind":"knob"' "$TMPD/l1.jsonl")" 6 "three changes and three restores recorded"
"$TUNETOP" report "$TMPD/l1.jsonl" --html "$TMPD/l1.html" >"$TMPD/l1.txt"
ok $? "report of the lesson's recording"
grep -q 'class="sim"' "$TMPD/l1.html" && grep -q 'id="plot-freq"' "$TMPD/l1.html" &&
	grep -q 'id="plot-idle"' "$TMPD/l1.html" && grep -q 'id="plot-temp"' "$TMPD/l1.html"
ok $? "its HTML has the simulated banner and the plots"
if command -v python3 >/dev/null 2>&1; then
	python3 - "$TMPD/l1.html" <<'PY'
import sys
from html.parser import HTMLParser
VOID = {"meta", "br", "hr", "img", "input", "link"}
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.stack = []; self.bad = False
    def handle_starttag(self, t, a):
        if t not in VOID: self.stack.append(t)
    def handle_endtag(self, t):
        if t in VOID: return
        if not self.stack or self.stack.pop() != t: self.bad = True
p = P(); p.feed(open(sys.argv[1]).read()); p.close()
sys.exit(1 if p.bad or p.stack else 0)
PY
	ok $? "the simulated board's report is well-formed HTML"
else
	skip "the simulated board's report is well-formed HTML" "no python3"
fi

# the simulated effect forced absent, then reversed: the words follow the numbers
out=$(TUNETOP_SIM_EFFECT=absent "$TUNETOP" learn 1 --auto --demo </dev/null 2>&1)
like "$(flat "$out")" '- policy4 clock: 408\.0 MHz -> 408\.0 MHz: no difference seen, although its governor reads performance: something holds the clock' \
	"absent: no difference seen, and the governor that reads performance is not the cause"
like "$(flat "$out")" 'Overall: no difference seen' "absent: overall no difference"
unlike "$(flat "$out")" 'Overall: improved' "absent: not called improved"
out=$(TUNETOP_SIM_EFFECT=reversed "$TUNETOP" learn 1 --auto --demo </dev/null 2>&1)
like "$(flat "$out")" '- policy4 clock: 2256\.0 MHz -> 408\.0 MHz: worse\.' "reversed: worse, with the numbers"
like "$(flat "$out")" 'Overall: worse' "reversed: overall worse"

# --record-format as watch's: json writes plain lines whatever the name
# (auto would compress FILE.rec), an unknown format is a usage error
out=$("$TUNETOP" learn 1 --auto --demo --record "$TMPD/l1.rec" --record-format json </dev/null 2>&1)
ok $? "learn --record-format json runs"
is "$(head -c 1 "$TMPD/l1.rec")" "{" "--record-format json: plain JSON lines in FILE.rec"
is "$(grep -c '"type":"header"' "$TMPD/l1.rec")" 1 "  a header line"
is "$(grep -c '"kind":"knob"' "$TMPD/l1.rec")" 6 "  the changes and restores"
"$TUNETOP" report "$TMPD/l1.rec" >/dev/null 2>&1; ok $? "  report reads it"
out=$("$TUNETOP" learn 1 --auto --demo --record "$TMPD/l1.gz" --record-format gzip </dev/null 2>&1)
is "$?" 2 "learn --record-format gzip: usage error"
like "$out" "learn: --record-format gzip: auto, json or zstd" "  naming the choices"
[ ! -e "$TMPD/l1.gz" ]; ok $? "  and nothing written"

# 2: idle-state A/B; --record keeps the probe's two windows (before, after)
# with the p99 the lesson prints.
out=$("$TUNETOP" learn 2 --auto --demo --record "$TMPD/l2.jsonl" </dev/null 2>&1)
ok $? "lesson 2 runs, recorded"
is "$(grep -c '"type":"probe"' "$TMPD/l2.jsonl")" 2 "two probe windows recorded (before, after)"
p99s=$(printf '%s\n' "$out" | sed -n 's/^ *wake-up latency p99 (probe, cpu0) *\([0-9.]*\) us *\([0-9.]*\) us *$/\1 \2/p')
rec99=$(grep '"type":"probe"' "$TMPD/l2.jsonl" | sed 's/.*"p99_us":\([0-9.]*\).*/\1/' |
	awk '{ printf "%s%.1f", (NR > 1 ? " " : ""), $1 }')
is "$rec99" "$p99s" "the windows' p99 are the ones the lesson printed"
"$TUNETOP" report "$TMPD/l2.jsonl" >"$TMPD/l2.txt" 2>&1
grep -q '2 probe windows' "$TMPD/l2.txt"; ok $? "report counts them"
like "$(flat "$out")" 'cpu-sleep residency, mean of CPUs: [0-9.]+ % -> 0\.0 %: improved' \
	"the deep state's residency falls: improved"
like "$(flat "$out")" 'a latency counts as changed only when the windows differ by more than 2x and by more than 20 us' \
	"states the noise rule for one pair of probe windows"
like "$(flat "$out")" 'The probe ran on this machine, which the change did not touch' \
	"says the probe cannot show the simulated change"
like "$(flat "$out")" 'wake-up latency p99 \(probe, cpu0\): [0-9.]+ us -> [0-9.]+ us: [a-z ]+ \(not judged\)' \
	"the probe's windows are not judged on the simulated board"
unlike "$(flat "$out")" 'disappears from every' "no canned claim that the exit latency disappears"
like "$(flat "$out")" 'Overall: improved' "lesson 2, effect present: overall improved"
# the effect forced absent, then reversed: in both the disabled state is
# still entered, which the lesson's effect watch sees (the simulator moves
# its usage counter): it says so with the counters and draws no conclusion,
# instead of reading run-to-run numbers as an effect of the change
for how in absent reversed; do
	out=$(TUNETOP_SIM_EFFECT=$how "$TUNETOP" learn 2 --auto --demo </dev/null 2>&1)
	like "$(flat "$out")" 'warning: cpuidle/cpu[0-9]+/state1/disable=1 is not in effect: cpu-sleep \(state1\) entered [0-9]+ times on CPU [0-9]+ in [0-9.]+ s while disabled' \
		"lesson 2, $how: the disabled state still entered is seen, with its counters"
	like "$(flat "$out")" 'No conclusion: the change was not in effect while the lesson measured' \
		"lesson 2, $how: no conclusion"
	unlike "$(flat "$out")" 'Overall:' "lesson 2, $how: no verdict on a change not in effect"
done

# 3: DDR and NPU.
out=$("$TUNETOP" learn 3 --auto --demo </dev/null 2>&1)
ok $? "lesson 3 runs"
like "$out" 'dmc clock +[0-9.]+ MHz +2400\.0 MHz' "dmc at 2400 MHz after"
like "$out" 'devfreq/dmc/governor: performance -> dmc_ondemand' "restored"
like "$(flat "$out")" '- dmc clock: [0-9.]+ MHz -> 2400\.0 MHz: improved\.' "lesson 3, present: dmc improved, with the numbers"
like "$(flat "$out")" '- fdab0000\.npu clock: [0-9.]+ MHz -> 1000\.0 MHz: improved\.' "lesson 3, present: NPU at its top OPP, improved"
like "$(flat "$out")" 'Overall: improved' "lesson 3, present: overall improved"
out=$(TUNETOP_SIM_EFFECT=absent "$TUNETOP" learn 3 --auto --demo </dev/null 2>&1)
like "$(flat "$out")" '- dmc clock: ([0-9.]+) MHz -> \1 MHz: no difference seen, although its governor reads performance: something holds the clock' \
	"lesson 3, absent: dmc clock unchanged, no difference seen, something holds it"
like "$(flat "$out")" '- fdab0000\.npu clock: ([0-9.]+) MHz -> \1 MHz: no difference seen, although its governor reads performance' \
	"lesson 3, absent: NPU clock unchanged, no difference seen"
like "$(flat "$out")" 'Overall: no difference seen' "lesson 3, absent: overall no difference"
unlike "$(flat "$out")" 'Overall: improved' "lesson 3, absent: not called improved"
out=$(TUNETOP_SIM_EFFECT=reversed "$TUNETOP" learn 3 --auto --demo </dev/null 2>&1)
like "$(flat "$out")" '- dmc clock: 2400\.0 MHz -> [0-9.]+ MHz: worse\.' "lesson 3, reversed: dmc from its top OPP down: worse"
like "$(flat "$out")" '- fdab0000\.npu clock: 1000\.0 MHz -> [0-9.]+ MHz: worse\.' "lesson 3, reversed: NPU from its top OPP down: worse"
like "$(flat "$out")" 'Overall: worse' "lesson 3, reversed: overall worse"
like "$out" 'devfreq/dmc/governor: performance -> dmc_ondemand' "lesson 3, reversed: restored"

# 4: RT throttling: the simulated RT task is throttled, then not.
out=$("$TUNETOP" learn 4 --auto --demo </dev/null 2>&1)
ok $? "lesson 4 runs"
like "$out" 'CPUs with RT throttled +1\.0 +0\.0' "throttled before, not after"
like "$out" 'sched/rt_runtime_us: -1 -> 950000' "runtime restored"
is "$(printf '%s\n' "$out" | grep -c '^ *echo ')" 1 "one shell line: the one write made"
like "$out" 'echo -1 > [^ ]*/proc/sys/kernel/sched_rt_runtime_us' "the write to sched_rt_runtime_us"
unlike "$out" 'echo [^ ]+ > [^ ]*sched_rt_period_us' "no shell line for a period it never writes"
like "$(flat "$out")" '- CPUs with RT throttled: 1\.0 -> 0\.0: improved\.' "present: improved"
out=$(TUNETOP_SIM_EFFECT=absent "$TUNETOP" learn 4 --auto --demo </dev/null 2>&1)
like "$(flat "$out")" '- CPUs with RT throttled: 1\.0 -> 1\.0: no difference seen\.' "absent: no difference seen"
out=$(TUNETOP_SIM_EFFECT=reversed "$TUNETOP" learn 4 --auto --demo </dev/null 2>&1)
like "$(flat "$out")" '- CPUs with RT throttled: 0\.0 -> 1\.0: worse\.' "reversed: worse"
like "$(flat "$out")" 'Overall: worse' "reversed: overall worse"

# progress: on a terminal a line counts the measurement's seconds, in place;
# off a terminal (every run above) there is none
unlike "$(TUNETOP_SIM_EFFECT=absent "$TUNETOP" learn 2 --auto --demo </dev/null 2>&1)" \
	"measuring (before|after): " "stderr not a terminal: no progress line"
if command -v script >/dev/null 2>&1; then
	script -qec "$TUNETOP learn 2 --auto --demo" /dev/null >"$TMPD/tty.out" 2>&1 </dev/null
	tr '\r' '\n' <"$TMPD/tty.out" >"$TMPD/tty.lines"
	like "$(cat "$TMPD/tty.lines")" "^  measuring before: [0-9.]+ of 2\.5 s" "terminal: progress while measuring before"
	like "$(cat "$TMPD/tty.lines")" "^  measuring after: [0-9.]+ of 2\.5 s" "terminal: progress while measuring after"
	like "$(cat "$TMPD/tty.lines")" "What changed" "terminal: then the comparison"
else
	for i in 1 2 3; do skip "learn progress" "script (util-linux) is not installed"; done
fi
done_testing
