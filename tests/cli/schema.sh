#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Machine output as a contract (issue 16): every JSON document carries
# "schema": "tunetop.KIND/1" and validates against doc/schema/KIND.schema.json
# (draft 2020-12): the golden snapshots, and fresh snapshot, watch --json,
# knobs, journal, ab (--cmd) and probe output and a recording's header and
# samples on fixture roots. Readers still take documents without the member.
. "$TT_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
python3 -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null ||
	skip_all "python3-jsonschema (with draft 2020-12) is not installed (scripts/deps.sh --test)"
SCHEMAS=$TT_SRCDIR/doc/schema

# validate KIND FILE... : one line "ok" or the first errors; a JSON-lines file
# (.jsonl) is checked line by line (header: record, sample: its snapshot).
validate() {
	python3 - "$SCHEMAS" "$@" <<'PY'
import json, sys, jsonschema
d, kind, files = sys.argv[1], sys.argv[2], sys.argv[3:]
def v(k):
    s = json.load(open("%s/%s.schema.json" % (d, k)))
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)
bad = []
for f in files:
    docs = []
    if f.endswith(".jsonl"):
        for n, l in enumerate(open(f)):
            o = json.loads(l)
            if o.get("type") == "header":
                docs.append(("record", o, "%s:%d" % (f, n + 1)))
            elif o.get("type") == "sample":
                docs.append(("snapshot", o["snapshot"], "%s:%d" % (f, n + 1)))
    else:
        docs.append((kind, json.load(open(f)), f))
    for k, o, where in docs:
        if o.get("schema") != "tunetop.%s/1" % k:
            bad.append("%s: schema is %r" % (where, o.get("schema")))
        for e in v(k).iter_errors(o):
            bad.append("%s: %s at /%s" % (where, e.message[:160], "/".join(map(str, e.path))))
print("ok" if not bad else "\n".join(bad[:5]))
PY
}

# The schemas themselves are valid draft 2020-12 and name their kind.
for k in snapshot probe ab journal knobs record why; do
	is "$(python3 -c 'import json,sys,jsonschema
s = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(s)
print(s["$schema"], s["properties"]["schema"]["const"])' "$SCHEMAS/$k.schema.json")" \
		"https://json-schema.org/draft/2020-12/schema tunetop.$k/1" "doc/schema/$k.schema.json is a 2020-12 schema for tunetop.$k/1"
done

# The schemas can fail: a document without a required key, or with a wrong type.
printf '{"schema":"tunetop.snapshot/1","tunetop":"x","time_ns":null,"interval_ms":0,"root":"/","system":{"kernel":null,"arch":null},"topology":{"possible":[],"present":[],"online":[],"hybrid":false},"cpus":[{"id":0,"online":true,"freq_khz":"fast","util_pct":null,"idle":[]}],"policies":[]}' >"$TMPD/bad.json"
like "$(validate snapshot "$TMPD/bad.json")" "findings.* required" "a snapshot without findings is refused"
like "$(validate snapshot "$TMPD/bad.json")" "'fast' is not of type" "freq_khz as a string is refused"

for g in "$TT_SRCDIR"/tests/golden/*.json; do
	is "$(validate snapshot "$g")" ok "golden $(basename "$g") validates"
done

for b in rk3588 intel rpi4 stm32mp157 broken; do
	"$TUNETOP" --root "$FIXTURES/$b" snapshot --interval 0 --json >"$TMPD/$b.json" 2>/dev/null
	is "$(validate snapshot "$TMPD/$b.json")" ok "$b: snapshot --json validates"
done
root=$(copy_fixture rk3588)
st=$TMPD/state
"$TUNETOP" --root "$root" snapshot --interval 20 --threads --json >"$TMPD/rates.json" 2>/dev/null
is "$(validate snapshot "$TMPD/rates.json")" ok "snapshot --interval 20 --threads --json validates"
"$TUNETOP" --root "$root" watch --json -i 10 -n 2 2>/dev/null | sed -n 2p >"$TMPD/watch.json"
is "$(validate snapshot "$TMPD/watch.json")" ok "a watch --json line validates"

"$TUNETOP" --root "$root" --state-dir "$st" set cpufreq/policy0/governor=performance \
	'cpuidle/4/cpu-sleep/disable=1' >/dev/null 2>&1
ok $? "two changes journaled"
"$TUNETOP" --root "$root" --state-dir "$st" journal --json >"$TMPD/journal.json"
is "$(jq '.entries | length' "$TMPD/journal.json")" 2 "journal --json: two entries"
is "$(validate journal "$TMPD/journal.json")" ok "journal --json validates"
"$TUNETOP" --root "$root" --state-dir "$st" knobs --json >"$TMPD/knobs.json"
is "$(validate knobs "$TMPD/knobs.json")" ok "knobs --json validates"
"$TUNETOP" --root "$root" --state-dir "$st" snapshot --interval 0 --json >"$TMPD/snapj.json" 2>/dev/null
is "$(jq -c .journal "$TMPD/snapj.json")" '{"entries":2,"active":2,"orphaned":0}' "snapshot: journal counts"
is "$(validate snapshot "$TMPD/snapj.json")" ok "snapshot with journal entries validates"
"$TUNETOP" --root "$root" --state-dir "$st" restore >/dev/null 2>&1

"$TUNETOP" --root "$root" --state-dir "$st" ab 'cpuidle/4-7/cpu-sleep/disable=0,1' --json \
	--cmd true --window 0 --settle 0 --rounds 1 >"$TMPD/ab.json" 2>/dev/null
is "$(validate ab "$TMPD/ab.json")" ok "ab --cmd --json validates"
"$TUNETOP" --root "$root" --state-dir "$st" ab 'cpufreq/policy0/interactive/timer_rate=20000,10000,40000' \
	--json --cmd 'echo "v $TUNETOP_AB_VALUE"' --metric 'v ([0-9]+)' --window 0 --settle 0 \
	--rounds 3 >"$TMPD/sweep.json" 2>/dev/null
is "$(validate ab "$TMPD/sweep.json")" ok "ab sweep --json validates"
is "$(jq -c '[.ab.values, (.arms | length), (.comparisons | map(.value))]' "$TMPD/sweep.json")" \
	'[["20000","10000","40000"],3,["10000","40000"]]' "ab sweep --json: values, 3 arms, 2 comparisons"
jq '.comparisons[0].arm = "A"' "$TMPD/sweep.json" >"$TMPD/badsweep.json"
like "$(validate ab "$TMPD/badsweep.json")" "." "a sweep comparison of arm A is refused"
unlike "$(validate ab "$TMPD/badsweep.json")" "^ok$" "... not ok"

# --metric-file (issue 17): watch's "app_metric" member, ab's source "file"
: >"$TMPD/m.log"
(i=0; while [ $i -lt 60 ]; do echo "latency=$i us" >>"$TMPD/m.log"; sleep 0.02; i=$((i + 1)); done) &
mw=$!
"$TUNETOP" --root "$root" watch --json -i 200 -n 3 --metric-file "$TMPD/m.log" \
	--metric 'latency=([0-9]+)' 2>/dev/null | split -l 1 -a 1 --additional-suffix=.json - "$TMPD/wm."
"$TUNETOP" --root "$root" --state-dir "$st" ab 'cpuidle/4-7/cpu-sleep/disable=0,1' --json \
	--metric-file "$TMPD/m.log" --metric 'latency=([0-9]+) us' --window 0.1 --settle 0 --rounds 1 \
	>"$TMPD/abm.json" 2>/dev/null
wait $mw
is "$(validate snapshot "$TMPD"/wm.*.json)" ok "watch --metric-file --json lines validate"
is "$(validate ab "$TMPD/abm.json")" ok "ab --metric-file --json validates"
is "$(jq -c '[.ab.simulated, .ab.world]' "$TMPD/abm.json")" '[false,null]' \
	"ab on a fixture tree: not simulated, no world"
# ab in a world (issue 35): its document says SIMULATED and names the world
if TUNETOP_WORLD_SEED=35 "$TUNETOP" world rk3588-npu "$TMPD/world" >/dev/null 2>&1; then
	"$TUNETOP" --root "$TMPD/world" --state-dir "$st" ab 'cpufreq/policy0/governor=interactive,performance' \
		--json --metric-file "$TMPD/world/var/log/infer.log" --metric 'total:([0-9.]+) ms' \
		--window 0.3 --settle 0 --rounds 1 >"$TMPD/abw.json" 2>/dev/null
	is "$(validate ab "$TMPD/abw.json")" ok "ab --json in a world validates"
	is "$(jq -c '[.ab.simulated, .ab.world]' "$TMPD/abw.json")" '[true,"rk3588-npu"]' \
		"ab --json in a world: simulated, and which world"
else
	skip "ab --json in a world validates" "no world rk3588-npu in this build"
	skip "ab --json in a world: simulated, and which world" "no world rk3588-npu in this build"
fi

if "$TUNETOP" probe -D 0.2 --cpus 0 --json >"$TMPD/probe.json" 2>"$TMPD/probe.err"; then
	is "$(validate probe "$TMPD/probe.json")" ok "probe --json validates"
else
	skip "probe --json validates" "the probe cannot run here: $(head -1 "$TMPD/probe.err")"
fi
# the probe in a world (issue 35): SIMULATED samples, probe.simulated
if "$TUNETOP" world rk3588-npu "$TMPD/world" >/dev/null 2>&1; then
	"$TUNETOP" --root "$TMPD/world" probe -D 0.5 --why --json >"$TMPD/wprobe.json" 2>/dev/null
	is "$(validate probe "$TMPD/wprobe.json")" ok "probe --why --json in a world validates"
	is "$(jq -r .probe.simulated.world "$TMPD/wprobe.json")" rk3588-npu "and names its world"
else
	skip "probe --why --json in a world validates" "no simulated board in this build"
	skip "and names its world" "no simulated board in this build"
fi

"$TUNETOP" --root "$root" watch -i 10 -n 2 --record "$TMPD/rec.jsonl" >/dev/null 2>&1
is "$(validate record "$TMPD/rec.jsonl")" ok "a recording's header and samples validate"

# Readers accept documents without the member (files written before it).
jq 'del(.schema)' "$TMPD/rk3588.json" >"$TMPD/old.json"
"$TUNETOP" report "$TMPD/old.json" >"$TMPD/old.out" 2>&1
ok $? "report of a snapshot without \"schema\": exit 0"
like "$(cat "$TMPD/old.out")" "^snapshot .*8 CPUs" "report of an old snapshot: summary"
jq 'del(.schema)' "$TMPD/ab.json" >"$TMPD/oldab.json"
"$TUNETOP" report "$TMPD/oldab.json" >/dev/null 2>&1
ok $? "report of an A/B result without \"schema\": exit 0"
"$TUNETOP" report "$TT_SRCDIR/tests/golden/record-v1.jsonl" >/dev/null 2>&1
ok $? "report of an old recording (no \"schema\" in its header): exit 0"
done_testing
