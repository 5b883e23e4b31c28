#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# watch --record -> tunetop report (text and HTML): the recording carries the
# samples and the journal events made while it ran; the HTML page is
# self-contained and well formed, has its plots, and renders in headless
# Chromium when that is installed. Also reports of A/B and probe results.
. "$TT_SRCDIR/tests/lib.sh"

r=$(copy_fixture rk3588)
st=$TMPD/state
rec=$TMPD/run.jsonl
pol=$r/sys/devices/system/cpu/cpufreq/policy4

# A recording with a knob change and its undo in the middle; the fixture
# does not simulate, so the clock moves by hand. Each step waits for the
# recording to show the previous one (no fixed sleeps: loaded CI machines).
wait_for() { # wait_for COUNT PATTERN: until the recording has COUNT matching lines
	local i=0
	local n
	while [ $i -lt 600 ]; do
		# grep -c prints 0 and exits 1 on no match: take its output alone
		n=$(grep -c -- "$2" "$rec" 2>/dev/null)
		[ "${n:-0}" -ge "$1" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	diag "timed out waiting for $1 lines matching $2"
}
# The emulated kernel: CPU 0 keeps entering cpu-sleep while recording (a
# tree whose counters do not move has no residency to plot: n/a).
idle=$r/sys/devices/system/cpu/cpu0/cpuidle/state1
(
	t=$(cat "$idle/time") u=$(cat "$idle/usage")
	while :; do
		t=$((t + 50000)) u=$((u + 5))
		echo $t >"$TMPD/time.new" && mv -f "$TMPD/time.new" "$idle/time"
		echo $u >"$TMPD/usage.new" && mv -f "$TMPD/usage.new" "$idle/usage"
		sleep 0.1
	done
) &
kern=$!
"$TUNETOP" --root "$r" --state-dir "$st" watch --json -i 200 -n 600 --record "$rec" >"$TMPD/watch.out" 2>&1 &
wpid=$!
wait_for 3 '"type":"sample"'
"$TUNETOP" --root "$r" --state-dir "$st" set cpufreq/policy4/governor=performance >/dev/null 2>&1
ok $? "set while recording"
echo 2256000 >"$pol/scaling_cur_freq"
wait_for 1 '"kind":"knob"'
n=$(grep -c '"type":"sample"' "$rec")
wait_for $((n + 3)) '"type":"sample"'
"$TUNETOP" --root "$r" --state-dir "$st" undo >/dev/null 2>&1
ok $? "undo while recording"
echo 408000 >"$pol/scaling_cur_freq"
wait_for 2 '"kind":"knob"'
n=$(grep -c '"type":"sample"' "$rec")
wait_for $((n + 3)) '"type":"sample"'
kill -INT $wpid
wait $wpid
ok $? "watch --record stops cleanly on SIGINT"
kill $kern
wait $kern 2>/dev/null
nsamples=$(grep -c '"type":"sample"' "$rec")

is "$(head -c 40 "$rec")" '{"type":"header","format":"tunetop-recor' "first line is the header"
[ "$nsamples" -ge 9 ]
ok $? "sample lines ($nsamples)"
is "$(grep -c '"type":"event","seq":[0-9]*,"t_ns":[0-9]*,"kind":"knob","addr":"cpufreq/policy4/governor"' "$rec")" 2 \
	"two journal events (the change and its undo)"
like "$(tail -n 1 "$rec")" "^\\{\"type\":\"end\".*\"samples\":$nsamples" "end line"
grep -q '"findings":\[' "$rec"
ok $? "samples carry their findings"

# Probe windows and a marker, as the TUI writes them while its probe runs:
# two windows around the change, the second with a long tail.
t1=$(sed -n 4p "$rec" | sed 's/.*"t_ns":\([0-9]*\).*/\1/')
t2=$(sed -n 9p "$rec" | sed 's/.*"t_ns":\([0-9]*\).*/\1/')
head -n -1 "$rec" >"$TMPD/rec2.jsonl"
cat >>"$TMPD/rec2.jsonl" <<EOT
{"type":"probe","seq":900,"t_ns":$t1,"cpus":"4","interval_us":1000,"samples":1000,"overflows":0,"min_us":3.0,"mean_us":9.5,"p50_us":8.0,"p99_us":31.0,"max_us":240.0,"buckets":[[3,40],[5,300],[8,450],[12,150],[31,50],[120,9],[240,1]]}
{"type":"probe","seq":901,"t_ns":$t2,"cpus":"4","interval_us":1000,"samples":1000,"overflows":2,"min_us":2.0,"mean_us":5.1,"p50_us":4.0,"p99_us":14.0,"max_us":61.0,"buckets":[[2,200],[4,600],[6,180],[14,18],[61,2]]}
{"type":"event","seq":902,"t_ns":$t2,"kind":"marker","addr":null,"old":null,"new":null,"state":null,"text":"cpu-sleep off"}
EOT
tail -n 1 "$rec" >>"$TMPD/rec2.jsonl"

out=$("$TUNETOP" report "$TMPD/rec2.jsonl" --html "$TMPD/report.html")
ok $? "report exits 0"
like "$out" "$nsamples samples over [0-9.]+ s, 3 events, 2 probe windows" "text: counts"
like "$out" 'policy4 +408 / [0-9]+ / 2256 MHz' "text: policy4 frequency range"
like "$out" 'governor-collapse' "text: findings seen"
like "$out" 'cpufreq/policy4/governor: interactive -> performance \(active\)' "text: the change"
like "$out" 'cpufreq/policy4/governor: interactive -> performance \(undone\)' "text: its undo"
like "$out" 'wake-up latency per probe window' "text: probe windows"

# Well-formed, self-contained, with its plots (python3's html.parser).
if command -v python3 >/dev/null 2>&1; then
	python3 - "$TMPD/report.html" >"$TMPD/check.out" 2>&1 <<'PY'
import sys
from html.parser import HTMLParser
VOID = {"meta", "br", "hr", "img", "input", "link", "area", "base", "col", "source", "wbr"}
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.ids, self.tags, self.attrs = [], [], set(), {}, []
    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.attrs += attrs
        d = dict(attrs)
        if "id" in d:
            self.ids.add(d["id"])
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))
    def handle_startendtag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.attrs += attrs
        d = dict(attrs)
        if "id" in d:
            self.ids.add(d["id"])
    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append("unexpected </%s> at %s (open: %s)" % (tag, self.getpos(), self.stack[-1] if self.stack else None))
            return
        self.stack.pop()
text = open(sys.argv[1], encoding="utf-8").read()
p = P()
p.feed(text)
p.close()
if p.stack:
    p.errors.append("unclosed: %s" % p.stack[:5])
for need in ("plot-freq", "plot-idle", "plot-temp", "plot-devfreq", "plot-latency-heat", "plot-latency", "plot-hist", "summary", "findings", "events"):
    if need not in p.ids:
        p.errors.append("missing id " + need)
if not text.startswith("<!DOCTYPE html>"):
    p.errors.append("no doctype")
for bad in ("<script", "<link", "<iframe", "@import", "url("):
    if bad in text:
        p.errors.append("external or active content: " + bad)
for k, v in p.attrs:
    if k in ("src", "href") or (v and ("http:" in v or "https:" in v) and k != "xmlns"):
        p.errors.append("external reference %s=%s" % (k, v))
if p.tags.get("polyline", 0) < 5:
    p.errors.append("too few polylines: %d" % p.tags.get("polyline", 0))
if p.tags.get("svg", 0) < 7:
    p.errors.append("too few svg plots: %d" % p.tags.get("svg", 0))
print("\n".join(p.errors) if p.errors else "ok")
sys.exit(1 if p.errors else 0)
PY
	ok $? "HTML is well formed, self-contained and has every plot"
	sed 's/^/# /' "$TMPD/check.out"
else
	skip "HTML validation" "no python3"
fi
grep -q 'class="marker"' "$TMPD/report.html"
ok $? "events are marked in the plots"
grep -q 'n/a in every sample' "$TMPD/report.html"
ok $? "a series without values says n/a instead of drawing nothing (utilisation of a static fixture)"

# Render it in a real browser when one is installed.
browser=
for b in chromium chromium-browser google-chrome; do
	command -v $b >/dev/null 2>&1 && browser=$b && break
done
if [ -n "$browser" ]; then
	timeout 120 $browser --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
		--user-data-dir="$TMPD/chrome" --window-size=1000,4000 \
		--screenshot="$TMPD/report.png" "file://$TMPD/report.html" >"$TMPD/chrome.log" 2>&1
	ok $? "$browser renders the page headless"
	sig=$(head -c 8 "$TMPD/report.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')
	is "$sig" "89504e470d0a1a0a" "a PNG came out"
	size=$(wc -c <"$TMPD/report.png" 2>/dev/null || echo 0)
	[ "$size" -gt 20000 ]
	ok $? "the PNG is not blank ($size bytes)"
else
	skip "render in headless Chromium" "chromium is not installed"
	skip "a PNG came out" "chromium is not installed"
	skip "the PNG is not blank" "chromium is not installed"
fi

# A killed run: torn last line, no end line.
head -n 6 "$rec" >"$TMPD/killed.jsonl"
printf '{"type":"sample","seq":7,"t_ns":1,"snapsh' >>"$TMPD/killed.jsonl"
out=$("$TUNETOP" report "$TMPD/killed.jsonl")
ok $? "a killed recording still reports"
like "$out" 'no end line \(the run was killed\)' "and says it was cut short"
like "$out" '1 malformed lines skipped' "and skips the torn line"

# An A/B result (the JSON of tunetop ab --json).
cat >"$TMPD/ab.json" <<'EOT'
{"tunetop":"0.1.0","ab":{"address":"cpuidle/*/cpu-sleep/disable","a":"0","b":"1","knobs":8,"original":"0","root":"/","source":"probe","unit":"us","window_s":2.0,"settle_ms":200,"rounds":2,"windows":4,"order":"ABBA","seed":1,"cmd":null,"metric":null,"load":null,"interrupted":false,"complete":true,"restored":true,"probe":{"cpus":"4","interval_us":1000,"policy":"fifo","priority":95,"realtime_refused":false,"memory_locked":true}},
"arms":[{"arm":"A","value":"0","windows":2,"samples":4000,"min_us":3.0,"mean_us":9.0,"p50_us":7.0,"p90_us":15.0,"p99_us":230.0,"p999_us":260.0,"max_us":290.0,"overflows":0,"histogram":[{"lo_us":3,"hi_us":4,"count":100},{"lo_us":7,"hi_us":8,"count":3000},{"lo_us":230,"hi_us":231,"count":40}]},
{"arm":"B","value":"1","windows":2,"samples":4000,"min_us":2.0,"mean_us":5.0,"p50_us":4.0,"p90_us":8.0,"p99_us":12.0,"p999_us":30.0,"max_us":41.0,"overflows":0,"histogram":[{"lo_us":2,"hi_us":3,"count":500},{"lo_us":4,"hi_us":5,"count":3400},{"lo_us":12,"hi_us":13,"count":40}]}],
"windows":[{"index":1,"arm":"A","value":"0","start_s":0.0,"duration_s":2.0,"samples":2000,"mean_us":9.1,"p99_us":228.0,"max_us":290.0},{"index":2,"arm":"B","value":"1","start_s":2.2,"duration_s":2.0,"samples":2000,"mean_us":5.0,"p99_us":12.0,"max_us":41.0},{"index":3,"arm":"B","value":"1","start_s":4.4,"duration_s":2.0,"samples":2000,"mean_us":5.0,"p99_us":12.5,"max_us":39.0},{"index":4,"arm":"A","value":"0","start_s":6.6,"duration_s":2.0,"samples":2000,"mean_us":8.9,"p99_us":232.0,"max_us":280.0}],
"comparison":{"difference":"B - A","unit":"us","p50":{"diff":-3.0,"lo":-3.5,"hi":-2.5,"significant":true},"p99":{"diff":-218.0,"lo":-225.0,"hi":-210.0,"significant":true},"mean_diff":-4.0,"max_diff":-249.0,"confidence":0.95,"resamples":2000,"seed":1,"verdict":"B is better (p99 -218.0 us)"}}
EOT
out=$("$TUNETOP" report "$TMPD/ab.json" --html "$TMPD/ab.html")
ok $? "report of an A/B result"
like "$out" 'cpuidle/\*/cpu-sleep/disable: A = 0, B = 1' "A/B: the knob and values"
like "$out" 'verdict: B is better' "A/B: the verdict"
grep -q 'id="plot-hist"' "$TMPD/ab.html" && grep -q 'id="plot-windows"' "$TMPD/ab.html"
ok $? "A/B HTML: histograms per arm and windows"

# An inconclusive A/B (2 rounds of a command on a copied fixture: no
# interval) reads "(no interval)", never nan.
abroot=$(copy_fixture rk3588)
"$TUNETOP" --root "$abroot" --state-dir "$TMPD/ab-st" ab 'cpuidle/cpu0/cpu-sleep/disable=0,1' \
	--cmd 'true' --rounds 2 --json >"$TMPD/ab2.json" 2>/dev/null
out=$("$TUNETOP" report "$TMPD/ab2.json" --html "$TMPD/ab2.html" 2>&1)
ok $? "report of an inconclusive A/B"
like "$out" 'p99 difference B - A: .* \(no interval\); verdict: .*inconclusive' "says there is no interval"
printf '%s' "$out" | grep -qi nan; ok $((!$?)) "no nan in the text"
grep -qi '\bnan\b' "$TMPD/ab2.html"; ok $((!$?)) "no nan in the HTML"

# A probe result from this machine.
if "$TUNETOP" probe --cpus 0 -i 1000 -D 1 --json >"$TMPD/probe.json" 2>"$TMPD/probe.err"; then
	out=$("$TUNETOP" report "$TMPD/probe.json" --html "$TMPD/probe.html" 2>"$TMPD/rep.err")
	rc=$?
	[ "$rc" -eq 0 ] || diag "report exited $rc: $(cat "$TMPD/rep.err"); the probe JSON starts: $(head -c 300 "$TMPD/probe.json")"
	ok "$rc" "report of a probe result"
	like "$out" 'all CPUs: [0-9]+ samples' "probe: summary"
	grep -q 'id="plot-hist"' "$TMPD/probe.html"
	ok $? "probe HTML has its histogram"
else
	skip "report of a probe result" "the probe could not run here: $(head -n 1 "$TMPD/probe.err")"
fi

# A probe --why result (issue 29): the ranked causes as a table, every name
# from the file escaped (a comm with a tag stays text).
if [ -s "$TMPD/probe.json" ] && command -v python3 >/dev/null 2>&1; then
	python3 - "$TMPD/probe.json" "$TMPD/why.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["why"] = {"threshold_us": 200.0, "late_wakeups": 3, "late_total_us": 1500.0, "lost_events": 0,
    "causes": [
        {"kind": "task", "id": 4242, "name": "hog<script>x</script>", "prio": 1,
         "reason": "higher priority", "raised_by_irq": None, "declared_exit_us": None,
         "total_us": 1200.0, "present": 3, "largest": 3, "share_late_pct": 100.0,
         "share_delay_pct": 80.0, "cpus": "0", "fix": "thread/4242/affinity=1",
         "fix_why": "move it"},
        {"kind": "irq", "id": 24, "name": "virtio0<b>", "prio": None, "reason": None,
         "raised_by_irq": None, "declared_exit_us": None, "total_us": 300.0, "present": 1,
         "largest": 0, "share_late_pct": 0.0, "share_delay_pct": 20.0, "cpus": "0",
         "fix": "irq/24/affinity=1", "fix_why": "move it"}],
    "late": []}
json.dump(d, open(sys.argv[2], "w"))
PY
	"$TUNETOP" report "$TMPD/why.json" --html "$TMPD/why.html" >/dev/null 2>"$TMPD/why.err"
	ok $? "report of a probe --why result"
	grep -q 'id="why"' "$TMPD/why.html"; ok $? "its page has the Why late section"
	like "$(tr -d '\n' <"$TMPD/why.html")" \
		'<tr><td>task</td><td>hog&lt;script&gt;x&lt;/script&gt;</td><td>4242</td><td>higher priority</td><td>100\.0</td><td>80\.0</td><td>1200\.0</td><td>thread/4242/affinity=1</td></tr><tr><td>irq</td><td>virtio0&lt;b&gt;</td>' \
		"the causes in their order, names escaped, shares, us and the fix"
	grep -c '<script\|<b>' "$TMPD/why.html" >"$TMPD/why.n"
	is "$(cat "$TMPD/why.n")" 0 "no name from the file is markup"
	"$TUNETOP" report "$TMPD/probe.json" --html "$TMPD/nowhy.html" >/dev/null 2>&1
	grep -q 'id="why"' "$TMPD/nowhy.html"; is $? 1 "a probe result without why has no such section"
fi

# Names from the file are text on the page, never markup: a recording whose
# header names its writer and source with tags (what the fuzzer found:
# they went into the page as they were), and an A/B result whose unit
# carries a tag.
cat >"$TMPD/tags.jsonl" <<'EOT'
{"type":"header","format":"tunetop-record","version":1,"tunetop":"0.1<script>x</script>","source":"tui<b>","root":"/","interval_ms":1000,"board":"RK3588","start_ns":1}
{"type":"sample","seq":2,"t_ns":2,"snapshot":{"cpus":[{"cpu":0,"online":true}],"policies":[]}}
{"type":"end","seq":3,"t_ns":3}
EOT
"$TUNETOP" report "$TMPD/tags.jsonl" --html "$TMPD/tags.html" >/dev/null 2>&1
ok $? "a recording with tags in its names reports"
grep -c '<script\|<b>' "$TMPD/tags.html" >"$TMPD/tags.n"
is "$(cat "$TMPD/tags.n")" 0 "its page holds none of them as markup"
like "$(cat "$TMPD/tags.html")" 'tunetop 0\.1&lt;script&gt;x&lt;/script&gt;' "the writer's name is escaped"
sed 's/"unit":"us","window_s"/"unit":"u<s>","window_s"/' "$TMPD/ab.json" >"$TMPD/ab-tag.json"
"$TUNETOP" report "$TMPD/ab-tag.json" --html "$TMPD/ab-tag.html" >/dev/null 2>&1
ok $? "an A/B result with a tag in its unit reports"
grep -q '<s>' "$TMPD/ab-tag.html"; ok $((!$?)) "its unit is not markup on the page"
grep -q 'u&lt;s&gt;' "$TMPD/ab-tag.html"; ok $? "its unit is shown escaped"

# Not a report input.
echo 'hello' >"$TMPD/junk.txt"
"$TUNETOP" report "$TMPD/junk.txt" >/dev/null 2>"$TMPD/err"
is $? 1 "junk: exit 1"
like "$(cat "$TMPD/err")" 'not a recording and not a JSON result' "junk: says why"
"$TUNETOP" report >/dev/null 2>&1
is $? 2 "no file: usage error"
done_testing
