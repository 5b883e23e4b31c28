#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `tunetop why FILE` (issue 29) on the recorded streams of
# tests/fixtures/why/: the text names the largest cause with its fix, the
# JSON validates against doc/schema/why.schema.json and its parts sum to each
# delay, --why-over and --worst select, and a bad file or option is one line
# on stderr with exit status 2.
. "$TT_SRCDIR/tests/lib.sh"

W=$FIXTURES/why

out=$("$TUNETOP" why "$W/higher-prio.events" 2>&1)
ok $? "why on a fixture exits 0"
like "$out" "^Why late: 2 wake-ups" "the count of late wake-ups"
like "$out" "task +rt-hog \\(5000, rt 95, higher priority\\) +100\\.0% +99\\.4% .*thread/5000/affinity=0-1" \
	"the hog first: largest in 100 %, 99.4 % of the late time, its fix"
like "$out" "292\\.5 .*task rt-hog" "the worst wake-up's largest part"

out=$("$TUNETOP" why --worst 0 "$W/idle-exit.events")
like "$out" "cpuidle/cpu2/state3/disable=1" "idle exit: disable the state"
unlike "$out" "Worst" "--worst 0: no wake-up listed"
out=$("$TUNETOP" why --housekeeping 0 "$W/irq-softirq.events")
like "$out" "irq/35/affinity=0 *$" "--housekeeping goes into the fix"

for f in "$W"/*.events; do
	n=$(basename "$f" .events)
	"$TUNETOP" why --json "$f" >"$TMPD/$n.json" 2>"$TMPD/err"
	ok $? "$n: --json exits 0"
	is "$(jq -r '[.late[] | ((([.parts[].us] | add) - .delay_us) | fabs < 0.001)] | all' \
		"$TMPD/$n.json")" true "$n: every late wake-up's parts sum to its delay"
done
is "$(jq -r '.causes[0] | "\(.kind) \(.id) \(.reason) \(.fix)"' "$TMPD/same-prio.json")" \
	"task 5001 same-priority FIFO thread/5001/policy=fifo:89" "same-prio: the cause and its fix"
is "$(jq -r '.causes[0] | "\(.reason) \(.fix)"' "$TMPD/rt-throttled.json")" \
	"RT throttled sched/rt_runtime_us=-1" "rt-throttled: named as such"
is "$(jq -r '"\(.lost_events) \(.late[0].lost) \(.causes[0].kind)"' "$TMPD/lost.json")" \
	"120 true unknown" "lost: counted, the window marked, its start unknown"
is "$(jq -r '[.causes[].kind] | join(",")' "$TMPD/overlapping.json")" \
	"task,idle_exit,irq,softirq,irq,return,wakeup" "overlapping: the ranking"

"$TUNETOP" why --json --why-over 250 "$W/higher-prio.events" >"$TMPD/over.json"
is "$(jq -r '"\(.threshold_us) \(.late_wakeups)"' "$TMPD/over.json")" "250 1" \
	"--why-over 250 keeps the one wake-up over 250 us"

if command -v python3 >/dev/null 2>&1 && python3 -c 'import jsonschema' 2>/dev/null; then
	res=$(python3 - "$TT_SRCDIR/doc/schema/why.schema.json" "$TMPD"/*.json <<'PY'
import json, sys, jsonschema
s = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(s)
v = jsonschema.Draft202012Validator(s)
bad = ["%s: %s" % (f, e.message[:120]) for f in sys.argv[2:] for e in v.iter_errors(json.load(open(f)))]
bad += ["%s: schema %r" % (f, json.load(open(f)).get("schema")) for f in sys.argv[2:]
        if json.load(open(f)).get("schema") != "tunetop.why/1"]
print("ok" if not bad else "\n".join(bad[:5]))
PY
)
	is "$res" ok "every --json output validates against doc/schema/why.schema.json"
	printf '{"threshold_us":0,"late_wakeups":1,"late_total_us":1,"lost_events":0,"causes":[{"kind":"bogus"}],"late":[]}' >"$TMPD/bad.jsn"
	res=$(python3 -c 'import json,sys,jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
print(len(list(v.iter_errors(json.load(open(sys.argv[2]))))))' "$TT_SRCDIR/doc/schema/why.schema.json" "$TMPD/bad.jsn")
	ok "$([ "$res" -gt 0 ] && echo 0 || echo 1)" "the schema refuses an unknown kind and missing keys"
else
	skip "schema validation" "python3-jsonschema is not installed"
fi

# errors: one line, exit status 2
err1() { # err1 WANT_REGEX DESCRIPTION ARGS...
	want=$1 desc=$2
	shift 2
	"$TUNETOP" why "$@" >"$TMPD/out" 2>"$TMPD/err"
	is "$?" 2 "$desc: exit status 2"
	is "$(wc -l <"$TMPD/err" | tr -d ' ')" 1 "$desc: one line on stderr"
	like "$(cat "$TMPD/err")" "$want" "$desc: says why"
	is "$(wc -c <"$TMPD/out" | tr -d ' ')" 0 "$desc: nothing on stdout"
}
printf '# tunetop-events 1\n# clock mono\n100 2 lost n=1\n200 2 switch prev_comm=a prev_pid=1\n' >"$TMPD/trunc.events"
err1 "trunc.events:4: switch: key 'prev_prio' is missing" "a truncated line" "$TMPD/trunc.events"
printf 'garbage\n' >"$TMPD/garbage.events"
err1 "garbage.events:1: not a tunetop event stream" "garbage" "$TMPD/garbage.events"
err1 "nope.events: No such file" "a missing file" "$TMPD/nope.events"
mkfifo "$TMPD/fifo"
err1 "fifo: not a regular file" "a FIFO (never blocks)" "$TMPD/fifo"
err1 "--why-over: 'abc' is not a whole number" "a bad --why-over" --why-over abc "$W/lost.events"
err1 "--housekeeping: 'x' is not a CPU list" "a bad --housekeeping" --housekeeping x "$W/lost.events"
"$TUNETOP" why >/dev/null 2>&1
is "$?" 2 "no FILE: usage, exit status 2"
"$TUNETOP" why --help | grep -q -- "--why-over US"
ok $? "--help names the options"

done_testing
