#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The OpenMetrics fleet path (issue 16): `tunetop serve` on a fixture root
# (GET /metrics, 404 elsewhere, the fixture's values, loopback only unless
# --listen-any), promtool on the text format, a real Prometheus scraping it
# when installed, `watch --openmetrics FILE` replaced atomically, and the
# Grafana dashboard's JSON.
. "$TT_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

# get URL [ACCEPT] -> "CODE\nContent-Type\n\nBODY" (python3 urllib: no curl needed)
get() {
	python3 - "$1" "${2:-}" <<'PY'
import sys, urllib.request, urllib.error
req = urllib.request.Request(sys.argv[1])
if sys.argv[2]:
    req.add_header("Accept", sys.argv[2])
try:
    r = urllib.request.urlopen(req, timeout=30)
    code, ct, body = r.status, r.headers.get("Content-Type"), r.read().decode()
except urllib.error.HTTPError as e:
    code, ct, body = e.code, e.headers.get("Content-Type"), e.read().decode()
print(code); print(ct); print(); sys.stdout.write(body)
PY
}

# start_serve ARGS... : sets SPID and PORT (port 0: the kernel picks a free one)
start_serve() {
	"$TUNETOP" "$@" 2>"$TMPD/serve.err" &
	SPID=$!
	PORT=
	for _ in $(seq 1 300); do
		PORT=$(sed -n 's|.*listening on http://[^ ]*:\([0-9][0-9]*\)/metrics$|\1|p' "$TMPD/serve.err")
		[ -n "$PORT" ] && return 0
		kill -0 "$SPID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
stop_serve() { kill "$SPID" 2>/dev/null && wait "$SPID"; }

# ---- refusals -----------------------------------------------------------------------
"$TUNETOP" --root "$FIXTURES/rk3588" serve --listen 0.0.0.0:0 >/dev/null 2>"$TMPD/any.err"
is "$?" 2 "serve on 0.0.0.0 without --listen-any: exit 2"
is "$(wc -l <"$TMPD/any.err" | tr -d ' ')" 1 "... one line"
like "$(cat "$TMPD/any.err")" "not a loopback address.*--listen-any" "... that names --listen-any"
"$TUNETOP" serve --listen nonsense >/dev/null 2>&1
is "$?" 2 "serve --listen nonsense: exit 2"

# ---- serve on rk3588 ------------------------------------------------------------------
root=$(copy_fixture rk3588)
start_serve --root "$root" serve --listen 127.0.0.1:0 --min-interval 0
ok $? "serve listens on a free loopback port ($PORT)"
U=http://127.0.0.1:$PORT
OMA="application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
get "$U/metrics" "$OMA" >"$TMPD/m.txt"
is "$(sed -n 1p "$TMPD/m.txt")" 200 "GET /metrics: 200"
is "$(sed -n 2p "$TMPD/m.txt")" "application/openmetrics-text; version=1.0.0; charset=utf-8" \
	"... as OpenMetrics when Accept asks for it (Prometheus's header)"
sed '1,3d' "$TMPD/m.txt" >"$TMPD/om.txt"
is "$(tail -n 1 "$TMPD/om.txt")" "# EOF" "... ending with # EOF"
for want in 'tunetop_cpu_frequency_hz{cpu="4"} 408000000' \
	'tunetop_cpu_frequency_hz{cpu="0"} 408000000' \
	'tunetop_cpu_idle_entries_total{cpu="4",state="cpu-sleep"} 2427020' \
	'tunetop_cpufreq_governor_info{policy="policy4",cpus="4,5",governor="interactive"} 1' \
	'tunetop_devfreq_frequency_hz{device="dmc",kind="ddr"} 534000000' \
	'tunetop_thermal_zone_temperature_celsius{zone="soc-thermal"} 44.384' \
	'tunetop_rt_runtime_seconds 0.95' \
	'tunetop_rt_throttled{cpu="4"} 0' \
	'tunetop_findings{rule="governor-collapse",severity="info"} 1' \
	'tunetop_journal_active_changes 0' \
	'# TYPE tunetop_cpufreq_governor info' \
	'# TYPE tunetop_cpu_idle_entries counter'; do
	grep -qxF "$want" "$TMPD/om.txt"
	ok $? "series: $want"
done
# Every sample belongs to the family declared before it (OpenMetrics), units in names.
is "$(python3 - "$TMPD/om.txt" <<'PY'
import re, sys
fam, bad = {}, []
for l in open(sys.argv[1]).read().splitlines():
    m = re.match(r"# TYPE (\S+) (\S+)$", l)
    if m:
        fam[m.group(1)] = m.group(2); continue
    if l.startswith("#"):
        continue
    name = re.match(r"[a-zA-Z_:][a-zA-Z0-9_:]*", l).group(0)
    base = [f for f in fam if name == f or name in (f + "_total", f + "_info")]
    if not base or not name.startswith("tunetop_"):
        bad.append(l)
    elif fam[base[0]] == "counter" and not name.endswith("_total"):
        bad.append(l)
print("ok" if not bad else bad[:3])
PY
)" ok "every sample is in a declared family, counters end in _total"

# A change through the journal shows up at the next scrape (sampling per scrape).
"$TUNETOP" --root "$root" set cpufreq/policy4/governor=performance >/dev/null 2>&1
get "$U/metrics" | grep -c '^tunetop_cpufreq_governor_info{policy="policy4",cpus="4,5",governor="performance"} 1$' >"$TMPD/n"
is "$(cat "$TMPD/n")" 1 "the next scrape shows the new governor"
get "$U/metrics" | grep -qx 'tunetop_journal_active_changes 1'
ok $? "... and one active journal change"
"$TUNETOP" --root "$root" restore >/dev/null 2>&1

is "$(get "$U/other" | sed -n 1p)" 404 "GET /other: 404"
is "$(get "$U/metrics?x=1" | sed -n 1p)" 200 "GET /metrics?query: 200"
# An oversized request head gets 431 (issue 32; 400 before), and the server goes on.
python3 -c "
import socket; s = socket.create_connection(('127.0.0.1', $PORT))
s.sendall(b'GET /metrics HTTP/1.1\r\nX: ' + b'a' * 20000 + b'\r\n\r\n')
print(s.recv(100).split(b'\r\n')[0].decode())" >"$TMPD/big" 2>/dev/null
is "$(cat "$TMPD/big")" "HTTP/1.1 431 Request Header Fields Too Large" \
	"a request head over 8 KiB: 431"
is "$(get "$U/metrics" | sed -n 1p)" 200 "... and the next scrape works"

# Without an Accept header (curl, promtool) and with text/plain: the text
# format 0.0.4, as node_exporter answers (issue 34)
get "$U/metrics" >"$TMPD/t.txt"
is "$(sed -n 2p "$TMPD/t.txt")" "text/plain; version=0.0.4; charset=utf-8" \
	"no Accept header: the Prometheus text format 0.0.4"
sed '1,3d' "$TMPD/t.txt" >"$TMPD/t.body"
is "$(grep -c '^# TYPE [^ ]* info$' "$TMPD/t.body")" 0 "... without OpenMetrics' info type"
grep -qx '# TYPE tunetop_cpufreq_governor_info gauge' "$TMPD/t.body" &&
	grep -qx '# TYPE tunetop_cpu_idle_entries_total counter' "$TMPD/t.body"
ok $? "... info families as gauges, counters named by their _total series"
is "$(get "$U/metrics" "text/plain;version=0.0.4" | sed -n 2p)" "text/plain; version=0.0.4; charset=utf-8" \
	"Accept: text/plain gets the text format"
is "$(get "$U/metrics" "application/openmetrics-text" | sed -n 2p)" \
	"application/openmetrics-text; version=1.0.0; charset=utf-8" \
	"Accept: application/openmetrics-text gets OpenMetrics"
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$TMPD/t.body" >"$TMPD/promtool.out" 2>&1
	ok $? "curl /metrics | promtool check metrics: exit 0 ($(head -1 "$TMPD/promtool.out"))"
	! promtool check metrics <"$TMPD/om.txt" >"$TMPD/promtool.om" 2>&1
	ok $? "... (the OpenMetrics answer is what promtool rejects: the test can fail)"
else
	skip "curl /metrics | promtool check metrics: exit 0" "promtool is not installed (Debian package prometheus)"
	skip "promtool rejects the OpenMetrics answer" "promtool is not installed (Debian package prometheus)"
fi

if command -v prometheus >/dev/null 2>&1; then
	PP=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cat >"$TMPD/prom.yml" <<EOF2
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: tunetop
    static_configs:
      - targets: ['127.0.0.1:$PORT']
EOF2
	prometheus --config.file="$TMPD/prom.yml" --storage.tsdb.path="$TMPD/tsdb" \
		--web.listen-address="127.0.0.1:$PP" >"$TMPD/prom.log" 2>&1 &
	PROM=$!
	found=
	for _ in $(seq 1 300); do
		r=$(get "http://127.0.0.1:$PP/api/v1/query?query=tunetop_cpu_frequency_hz%7Bcpu%3D%224%22%7D" 2>/dev/null | sed '1,3d')
		case $r in *408000000*) found=1; break ;; esac
		sleep 0.2
	done
	ok "$([ -n "$found" ]; echo $?)" "Prometheus scraped serve: tunetop_cpu_frequency_hz{cpu=\"4\"} = 408000000"
	r=$(get "http://127.0.0.1:$PP/api/v1/query?query=tunetop_cpufreq_governor_info" | sed '1,3d')
	like "$r" '"governor":"interactive"' "... and the governor info series"
	kill "$PROM" && wait "$PROM"
else
	skip "Prometheus scraped serve" "prometheus is not installed (Debian package prometheus)"
fi
stop_serve
ok $? "serve stops on SIGTERM with exit 0"

# ---- serve --probe: the probe's percentiles (the live machine) -------------------------
if start_serve --root "$root" serve --listen 127.0.0.1:0 --min-interval 0 --probe 0; then
	U=http://127.0.0.1:$PORT
	get "$U/metrics" >/dev/null # the first window starts
	n=0
	for _ in $(seq 1 100); do
		get "$U/metrics" | sed '1,3d' >"$TMPD/p.txt"
		n=$(sed -n 's/^tunetop_probe_samples_total{cpus="0"} \([0-9]*\)$/\1/p' "$TMPD/p.txt")
		[ "${n:-0}" -gt 0 ] && grep -q '^tunetop_probe_latency_p99_seconds{cpus="0"} [0-9]' "$TMPD/p.txt" && break
		sleep 0.1
	done
	ok "$([ "${n:-0}" -gt 0 ]; echo $?)" "serve --probe 0: tunetop_probe_samples_total grows ($n)"
	for m in p50 p99 max; do
		grep -q "^tunetop_probe_latency_${m}_seconds{cpus=\"0\"} [0-9.e-]*\$" "$TMPD/p.txt"
		ok $? "serve --probe 0: tunetop_probe_latency_${m}_seconds"
	done
	stop_serve
	ok $? "serve --probe stops on SIGTERM with exit 0"
else
	for i in 1 2 3 4 5; do skip "serve --probe" "the probe cannot run here: $(tail -1 "$TMPD/serve.err")"; done
fi
"$TUNETOP" --root "$root" serve --listen 127.0.0.1:0 --probe 999 >/dev/null 2>"$TMPD/p.err"
is "$?" 2 "serve --probe 999 (no such CPU): exit 2"

# ---- watch --openmetrics FILE: rewritten atomically ---------------------------------
out=$TMPD/tt.prom
"$TUNETOP" --root "$root" watch -i 10 -n 3000 --openmetrics "$out" >/dev/null 2>"$TMPD/w.err" &
WPID=$!
# read it until 20 rewrites (new inodes) were seen or the watch ended
is "$(python3 - "$out" "$WPID" <<'PY'
import os, sys
path, pid = sys.argv[1], int(sys.argv[2])
reads = torn = 0
inodes = set()
def alive():
    try: os.kill(pid, 0); return True
    except OSError: return False
while len(inodes) < 20 and alive():
    try:
        with open(path) as f:
            inodes.add(os.fstat(f.fileno()).st_ino)
            t = f.read()
    except FileNotFoundError:
        continue
    reads += 1
    if not t.endswith("# EOF\n") or 'tunetop_cpu_frequency_hz{cpu="4"} 408000000\n' not in t:
        torn += 1
print("ok" if len(inodes) >= 20 and torn == 0 else "reads=%d rewrites=%d torn=%d" % (reads, len(inodes), torn))
PY
)" ok "watch --openmetrics: the file is never seen half-written (20 rewrites read)"
kill -INT "$WPID"
wait "$WPID"
is "$?" 0 "watch --openmetrics: exit 0 on SIGINT"
[ ! -e "$out.tmp" ]
ok $? "no FILE.tmp left behind"
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$out" >/dev/null 2>&1
	ok $? "the textfile passes promtool check metrics (node_exporter's format)"
else
	skip "the textfile passes promtool" "promtool is not installed"
fi
"$TUNETOP" --root "$root" watch -i 10 -n 1 --openmetrics "$TMPD/nodir/x.prom" >/dev/null 2>"$TMPD/nd.err"
like "$(cat "$TMPD/nd.err")" "nodir/x.prom" "an unwritable --openmetrics file: one line naming it"

# ---- the Grafana dashboard ------------------------------------------------------------
D=$TT_SRCDIR/contrib/grafana/tunetop.json
if command -v jq >/dev/null 2>&1; then
	jq -e '.panels | length >= 4' "$D" >/dev/null
	ok $? "contrib/grafana/tunetop.json is valid JSON with panels"
	for title in "CPU frequency" "Idle residency per state" "Temperatures" "Findings"; do
		is "$(jq -r --arg t "$title" '[.panels[] | select(.title == $t)] | length' "$D")" 1 "dashboard panel: $title"
	done
	# every series the dashboard queries is one serve writes
	for m in $(jq -r '.panels[].targets[].expr' "$D" | grep -o 'tunetop_[a-z_]*' | sort -u); do
		# a sample, or its family (a fixture has no rates: residency is n/a there)
		grep -q -e "^$m[{ ]" -e "^# TYPE $m " "$TMPD/om.txt"
		ok $? "dashboard series $m is served"
	done
else
	skip "Grafana dashboard checked by jq" "jq is not installed"
fi
done_testing
