#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop probe --rpmsg against a pseudo-terminal echo (tests/probe/pty_echo):
# round trips with a 2 ms echo delay (p50 >= 2000 us: a lower bound only),
# counts, --histfile and --summary for round trips, dropped echoes counted
# lost, a device that disappears mid-run and garbage echoes (one line, exit 1,
# the results so far), not a tty, a missing device, and the usage errors.
. "$TT_SRCDIR/tests/lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
ECHO="$TT_BUILDDIR/tests/probe/pty_echo"
[ -x "$ECHO" ] || skip_all "tests/probe/pty_echo not built"
[ -e /dev/ptmx ] || skip_all "no /dev/ptmx"

PIDS=""
# start_echo OPTIONS...: starts the helper, sets DEV
start_echo() {
	"$ECHO" "$@" >"$TMPD/echo.out" 2>"$TMPD/echo.err" &
	PIDS="$PIDS $!"
	DEV=""
	i=0
	while [ -z "$DEV" ] && [ $i -lt 300 ]; do
		DEV=$(head -1 "$TMPD/echo.out" 2>/dev/null)
		[ -n "$DEV" ] || sleep 0.1
		i=$((i + 1))
	done
}
stop_echo() {
	for p in $PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	PIDS=""
}
trap 'stop_echo' EXIT

# ---- 2 ms echo delay ---------------------------------------------------------------
start_echo -d 2000
like "$DEV" '^/dev/pts/[0-9]+$' "helper gives a pty ($DEV)"
"$TUNETOP" probe --rpmsg "$DEV" -D 1 --rpmsg-interval-us 5000 --json \
	--histfile "$TMPD/r.hist" >"$TMPD/r.json" 2>"$TMPD/err"
is "$?" 0 "--rpmsg: exit 0"
jq -e . "$TMPD/r.json" >/dev/null 2>&1
ok $? "valid JSON"
sent=$(jq '.rpmsg.sent' "$TMPD/r.json")
ok "$([ "$sent" -ge 5 ] && echo 0 || echo 1)" "$sent messages sent"
is "$(jq '.rpmsg.echoed' "$TMPD/r.json")" "$sent" "all echoed"
is "$(jq '.rpmsg.lost' "$TMPD/r.json")" 0 "none lost"
is "$(jq '.rpmsg.samples' "$TMPD/r.json")" "$sent" "one sample per echo"
ok "$(jq 'if .rpmsg.p50_us >= 2000 and .rpmsg.min_us >= 2000 then 0 else 1 end' "$TMPD/r.json")" \
	"p50 $(jq .rpmsg.p50_us "$TMPD/r.json") us >= the 2000 us echo delay"
ok "$(jq '.rpmsg | if .min_us <= .p50_us and .p50_us <= .p99_us and .p99_us <= .max_us then 0 else 1 end' "$TMPD/r.json")" \
	"min <= p50 <= p99 <= max"
is "$(jq '[.rpmsg.histogram[].count] | add' "$TMPD/r.json")" "$sent" "histogram sums to samples"
is "$(jq -r '.rpmsg.error' "$TMPD/r.json")" null "no error"
is "$(grep -c '"lost"' "$TMPD/r.json")" 1 "JSON: one \"lost\" key"
like "$(cat "$TMPD/r.hist")" "# Histogram Overflows: [0-9]{5}
# Histogram Overflow at cycle number:
# Thread 0:" "--histfile: one column"
is "$(grep '^# Max Latencies:' "$TMPD/r.hist" | awk '{print $4+0}')" \
	"$(jq '.rpmsg.max_us | floor' "$TMPD/r.json")" "--histfile: Max = max_us"

# --break on round trips, against a fixture tracefs: the first echo (>= 2 ms)
# is over 1000 us
R="$TMPD/root"
mkdir -p "$R/sys/kernel/tracing"
echo 1 >"$R/sys/kernel/tracing/tracing_on"
echo "# tracer: nop" >"$R/sys/kernel/tracing/trace"
"$TUNETOP" --root "$R" probe --rpmsg "$DEV" -D 30 --break 1000 --break-trace "$TMPD/r.trace" \
	--json >"$TMPD/b.json" 2>"$TMPD/err"
is "$?" 0 "--rpmsg --break: exit 0"
jq -e '.rpmsg.break.hit == true and .rpmsg.break.seq == 0 and .rpmsg.break.latency_us >= 2000
	and .rpmsg.break.tracing_stopped == true and .rpmsg.echoed == 1' "$TMPD/b.json" >/dev/null
ok $? "--rpmsg --break: message 0 over 1000 us, tracing stopped, run ended"
is "$(cat "$R/sys/kernel/tracing/tracing_on")" 0 "--rpmsg --break: fixture tracing_on 0"
cmp -s "$TMPD/r.trace" "$R/sys/kernel/tracing/trace"
ok $? "--rpmsg --break: trace saved"

"$TUNETOP" probe --rpmsg "$DEV" -D 1.2 --summary 0.5 --rpmsg-size 64 >"$TMPD/r.txt" 2>"$TMPD/err"
is "$?" 0 "--rpmsg text with --summary: exit 0"
like "$(cat "$TMPD/r.txt")" "tunetop probe --rpmsg $DEV: 64-byte messages every 10000 us, timeout 1000 ms" "text header"
like "$(cat "$TMPD/r.txt")" "
 rtt +[0-9]+ +[0-9]+" "text: the rtt row"
like "$(grep -m1 '^summary' "$TMPD/r.txt")" "^summary [0-9.]+ s: interval [0-9.]+ s: samples [0-9]+ .* lost 0 \\| cumulative: " \
	"summary lines for round trips (lost)"
stop_echo

# ---- every 3rd echo dropped ---------------------------------------------------------
start_echo -n 3
"$TUNETOP" probe --rpmsg "$DEV" -D 2 --rpmsg-interval-us 2000 --rpmsg-timeout-ms 300 --json \
	>"$TMPD/d.json" 2>"$TMPD/err"
is "$?" 0 "drops: exit 0"
ok "$(jq '.rpmsg | if .lost >= 1 and .echoed >= 1 and .echoed + .lost == .sent then 0 else 1 end' "$TMPD/d.json")" \
	"drops: $(jq -c '.rpmsg | {sent, echoed, lost}' "$TMPD/d.json"): counted lost"
ok "$(jq '.rpmsg | if .lost * 3 >= .sent - 3 and .lost * 3 <= .sent + 3 then 0 else 1 end' "$TMPD/d.json")" \
	"drops: about one in three lost"
stop_echo

# ---- the device disappears after 5 echoes ---------------------------------------------
start_echo -x 5
"$TUNETOP" probe --rpmsg "$DEV" -D 30 --json >"$TMPD/x.json" 2>"$TMPD/err"
is "$?" 1 "device gone: exit 1"
is "$(wc -l <"$TMPD/err" | tr -d ' ')" 1 "device gone: one line"
like "$(cat "$TMPD/err")" "^tunetop probe: $DEV: device went away \\(E[A-Z]+\\) after [0-9]+ messages" \
	"device gone: says so"
jq -e '.rpmsg.echoed <= 5 and .rpmsg.error != null and .rpmsg.duration_s < 30' "$TMPD/x.json" >/dev/null
ok $? "device gone: the results so far, with the error"
stop_echo

# ---- a garbage echo ---------------------------------------------------------------------
start_echo -g 3
"$TUNETOP" probe --rpmsg "$DEV" -D 30 >"$TMPD/g.txt" 2>"$TMPD/err"
is "$?" 1 "garbage: exit 1"
is "$(cat "$TMPD/err")" "tunetop probe: $DEV: garbage echo (not the message sent) after 3 messages: is the remote side an echo?" \
	"garbage: one line"
like "$(cat "$TMPD/g.txt")" "sent 3, echoed 2," "garbage: the results so far"
stop_echo

# ---- not a tty, missing, usage --------------------------------------------------------------
"$TUNETOP" probe --rpmsg /dev/null -D 1 >"$TMPD/o" 2>"$TMPD/err"
is "$?" 1 "/dev/null: exit 1"
like "$(cat "$TMPD/err")" "^tunetop probe: --rpmsg /dev/null: not a tty \\(ENOTTY\\)" "/dev/null: not a tty"
"$TUNETOP" probe --rpmsg "$TMPD/ttyRPMSG9" -D 1 >"$TMPD/o" 2>"$TMPD/err"
is "$?" 1 "missing device: exit 1"
is "$(cat "$TMPD/err")" "tunetop probe: --rpmsg $TMPD/ttyRPMSG9: ENOENT" "missing device: one line"

usage() { # usage DESCRIPTION REGEX ARGS...
	d=$1 re=$2
	shift 2
	"$TUNETOP" probe "$@" >"$TMPD/o" 2>"$TMPD/err"
	is "$?" 2 "$d: exit 2"
	like "$(cat "$TMPD/err")" "$re" "$d: says why"
}
usage "--rpmsg-size 8" "--rpmsg-size '8': bytes 16\\.\\.496" --rpmsg /dev/null --rpmsg-size 8
usage "--rpmsg-size without --rpmsg" "need --rpmsg DEV" --rpmsg-size 64
usage "--rpmsg with --cpus" "do not apply" --rpmsg /dev/null --cpus 0
usage "--rpmsg-timeout-ms 0" "--rpmsg-timeout-ms '0'" --rpmsg /dev/null --rpmsg-timeout-ms 0

done_testing
