#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop probe: usage errors exit 2 with one clear line on stderr, nothing runs.
. "$TT_SRCDIR/tests/lib.sh"

err="$TMPD/err"
out="$TMPD/out"

# expect_usage DESCRIPTION REGEX ARGS... : exit 2, one stderr line matching REGEX, no stdout
expect_usage() {
	d=$1 re=$2
	shift 2
	"$TUNETOP" probe "$@" >"$out" 2>"$err"
	is "$?" 2 "$d: exit 2"
	like "$(cat "$err")" "$re" "$d: says why"
	is "$(wc -l <"$err" | tr -d ' ')" 1 "$d: one line"
	is "$(wc -c <"$out" | tr -d ' ')" 0 "$d: nothing on stdout"
}

ncpu=$(getconf _NPROCESSORS_CONF 2>/dev/null || echo 2)
bad=$((ncpu + 5))
expect_usage "--cpus $bad (offline)" "^tunetop probe: --cpus $bad: CPU $bad is not online \\(online: " --cpus "$bad" -D 0.1
expect_usage "--cpus garbage" "^tunetop probe: --cpus 'x1': not a CPU list" --cpus x1 -D 0.1
expect_usage "--cpus empty" "no CPUs" --cpus "" -D 0.1
expect_usage "--cpus 0,$bad" "CPU $bad is not online" --cpus "0,$bad" -D 0.1
expect_usage "--prio 0" "priority 0 is out of range 1\\.\\.99 for fifo" --prio 0 -D 0.1
expect_usage "--prio 100" "priority 100 is out of range" --prio 100 -D 0.1
expect_usage "--prio abc" "--prio 'abc': not a number" --prio abc -D 0.1
expect_usage "--policy rr --prio 0" "out of range 1\\.\\.99 for rr" --policy rr --prio 0 -D 0.1
expect_usage "--policy other --prio 5" "policy 'other' takes no priority" --policy other --prio 5 -D 0.1
expect_usage "--policy bogus" "--policy 'bogus': use fifo, rr or other" --policy bogus
expect_usage "-i 0" "-i '0': interval must be" -i 0
expect_usage "-i garbage" "-i '1ms': interval must be" -i 1ms
expect_usage "-D garbage" "-D 'soon': not a duration" -D soon
expect_usage "-D negative" "not a duration" -D -1
expect_usage "--dma-latency -3" "--dma-latency '-3'" --dma-latency -3
expect_usage "--summary 0" "--summary '0': a period of at least 0.1 s" --summary 0
expect_usage "--summary garbage" "--summary 'often'" --summary often
expect_usage "--histfile empty" "--histfile: empty file name" --histfile ""
expect_usage "--break 0" "--break '0': microseconds 1\\.\\.100000000" --break 0
expect_usage "--break-trace alone" "--break-trace needs --break US" --break-trace x.trace
expect_usage "--rpmsg empty" "--rpmsg: empty device name" --rpmsg ""
expect_usage "--rpmsg-interval-us 0" "--rpmsg-interval-us '0'" --rpmsg /dev/null --rpmsg-interval-us 0
expect_usage "--why-over alone" "--why-over and --events need --why" --why-over 100
expect_usage "--events alone" "--why-over and --events need --why" --events x.events
expect_usage "--why-over 0" "--why-over '0': microseconds 1\\.\\.100000000" --why --why-over 0
expect_usage "--events empty" "--events: empty file name" --why --events ""
expect_usage "--why with --rpmsg" "--why explains the latency probe's wake-ups: not with --rpmsg" --why --rpmsg /dev/null
expect_usage "stray argument" "unexpected argument 'extra'" -D 0.1 extra

"$TUNETOP" probe --help >"$out" 2>"$err"
is "$?" 0 "--help exits 0"
like "$(cat "$out")" "--dma-latency US" "--help shows the usage"
like "$(cat "$out")" "--why-over US" "--help shows --why and its options"
"$TUNETOP" --help >"$out" 2>&1
like "$(cat "$out")" "tunetop probe \\[--cpus LIST\\]" "tunetop --help lists probe"

done_testing
