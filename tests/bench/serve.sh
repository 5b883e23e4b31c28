#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The cost of a scrape of `tunetop serve` (issue 16) on the rk3588 fixture:
# N scrapes over one keep-nothing connection each, sampling every scrape
# (--min-interval 0) and served from the cache (--min-interval 60000);
# median and p99 milliseconds per scrape, the exposition's size and the
# server's CPU time per scrape. Printed, never asserted.
#   TT_BENCH_SERVE_N=N   scrapes (default 300)
set -u
: "${TUNETOP:?run through make bench}"
: "${FIXTURES:=$TT_SRCDIR/tests/fixtures}"
N=${TT_BENCH_SERVE_N:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for mi in 0 60000; do
	"$TUNETOP" --root "$FIXTURES/rk3588" serve --listen 127.0.0.1:0 --min-interval $mi 2>"$tmp/err" &
	pid=$!
	port=
	for _ in $(seq 1 100); do
		port=$(sed -n 's|.*:\([0-9][0-9]*\)/metrics$|\1|p' "$tmp/err")
		[ -n "$port" ] && break
		sleep 0.1
	done
	t0=$(awk '{print $14 + $15}' /proc/$pid/stat)
	python3 - "$port" "$N" "$mi" <<'PY'
import sys, time, urllib.request
port, n, mi = sys.argv[1], int(sys.argv[2]), sys.argv[3]
u = "http://127.0.0.1:%s/metrics" % port
urllib.request.urlopen(u).read()
t = []
for _ in range(n):
    a = time.perf_counter()
    body = urllib.request.urlopen(u).read()
    t.append((time.perf_counter() - a) * 1e3)
t.sort()
print("serve --min-interval %s: %d scrapes, median %.2f ms, p99 %.2f ms, %d bytes" %
      (mi, n, t[n // 2], t[int(n * 0.99) - 1], len(body)))
PY
	t1=$(awk '{print $14 + $15}' /proc/$pid/stat)
	echo "  server CPU: $(echo "$t0 $t1 $N" | awk '{printf "%.2f", ($2 - $1) * 10 / $3}') ms per scrape (USER_HZ=100)"
	kill $pid
	wait $pid
done
