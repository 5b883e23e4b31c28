#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The world stm32mp1-rpmsg through the CLI only (issue 35, field note 3):
# the note's fixes in its order, each a SIMULATED firmware switch of the M4
# changed with `set sim/m4/<switch>` (the sim/ knob family over
# etc/SIMULATED-m4-firmware/, doc/teach.md "Worlds"): default ~112 +-38 us,
# interrupt-driven, separate buffers, IPI at top priority, batching
# ~43 +-8 us; the figures within 15 %, the mean falling stage by stage,
# each fix's decrease significant in an `ab sim/m4/<switch>=OLD,NEW
# --metric-file` on the app's log (batching: no latency of its own).
. "$TT_SRCDIR/tests/lib.sh"
WORLD=stm32mp1-rpmsg
. "$TT_SRCDIR/tests/world/common.sh"
FW="$W/etc/SIMULATED-m4-firmware"

like "$(T world)" "world stm32mp1-rpmsg \\(SIMULATED STM32MP157\\)" "the tree is the world (its marker)"
like "$(tail -n 1 "$LOG")" '^\[rpmsg\] latency:[0-9.]+ us cause:[a-z-]+ \(SIMULATED\)$' \
	"the app logs each message's latency"
like "$(T snapshot --interval 50 --threads=all 2>&1)" "912 +915 rpmsg_ctrl +S FIFO +40" \
	"the tree's processes: the gateway's RPMsg thread with its priority"
like "$(cat "$FW/README")" "SIMULATED firmware switches" "the firmware switches say what they are"
like "$(T knobs sim)" "sim/m4/vring_polling +1 .*0 1" "the switches are knobs of this world: sim/m4/..."
# ab_sw NAME SWITCH=OLD,NEW WINDOW_S: the A/B of one switch on the app's log
# (a window of 0.05 s holds ~10 messages: enough for the polling step, the
# IPI priority gets 0.1 s, the buffers (~12 us under ~15 us of jitter) 0.25 s)
ab_sw() {
	T ab "sim/m4/$2" --metric-file "$LOG" --metric 'latency:([0-9.]+) us' --primary mean \
		--window "$3" --settle 10 --rounds 3 --json >"$TMPD/$1.json" 2>"$TMPD/$1.err"
	is "$?" 0 "$1: ab sim/m4/$2 --metric-file exits 0"
	like "$(cat "$TMPD/$1.err")" "SIMULATED: world $WORLD" "$1: ab says the world is SIMULATED"
	is "$(jq -r '.comparison.mean.significant' "$TMPD/$1.json")" true "$1: the difference of the means is significant"
	ok "$(less "$(jq -r '.comparison.mean.diff' "$TMPD/$1.json")" 0; echo $?)" \
		"$1: B is faster than A ($(jq -r '.comparison.mean.diff' "$TMPD/$1.json") us)"
}

stage a 4
ok "$(near "$(mean a)" 112 15; echo $?)" "A default (polled vring): mean $(mean a) us over $(count a) messages, the note's 112 within 15 %"
ok "$(near "$(sdev a)" 38 15; echo $?)" "A: jitter +-$(sdev a) us, the note's +-38 within 15 %"
prev=a
for s in b:vring_polling=1,0:0.05 c:shared_cached_buffers=1,0:0.25 d:ipi_top_priority=0,1:0.1 e:batching=0,1:0; do
	n=${s%%:*}
	win=${s##*:}
	sw=${s#*:}
	sw=${sw%:*}
	if [ "$n" != e ]; then
		ab_sw "ab-$n" "$sw" "$win"
		is "$(T get "sim/m4/${sw%%=*}")" "sim/m4/${sw%%,*}" "$n: ab put sim/m4/${sw%%=*} back"
	fi
	T set "sim/m4/${sw%%=*}=${sw#*,}" >/dev/null
	stage "$n" 4
	if [ "$n" = e ]; then
		ok "$(less "$(mean e)" "$(awk -v m="$(mean "$prev")" 'BEGIN { print m * 1.05 }')"; echo $?)" \
			"$n ($sw): mean $(mean e) us, not above the stage before ($(mean "$prev"); the note gives batching no latency of its own)"
	else
		ok "$(less "$(mean "$n")" "$(mean "$prev")"; echo $?)" "$n ($sw): mean $(mean "$n") us, below the stage before ($(mean "$prev"))"
		ok "$(welch_down "$prev" "$n"; echo $?)" "$n: the decrease is significant"
	fi
	prev=$n
done
ok "$(near "$(mean e)" 43 15; echo $?)" "E all fixes: mean $(mean e) us, the note's 43 within 15 %"
ok "$(near "$(sdev e)" 8 15; echo $?)" "E: jitter +-$(sdev e) us, the note's +-8 within 15 %"
ok "$(welch_down a e; echo $?)" "E against A: a significant decrease"
done_testing
