#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The world stm32mp1-rpmsg through the CLI only (issue 35, field note 3):
# the note's fixes in its order, each a SIMULATED firmware switch of the M4
# that the user edits (etc/SIMULATED-m4-firmware/, doc/teach.md "Worlds";
# no board has a sysfs file for them, no tunetop knob family fits): default
# ~112 +-38 us, interrupt-driven, separate buffers, IPI at top priority,
# batching ~43 +-8 us; the figures within 15 %, the mean falling stage by
# stage, each fix's decrease significant (Welch t on the stages' samples:
# `ab` flips knobs, and these switches are none).
. "$TT_SRCDIR/tests/lib.sh"
WORLD=stm32mp1-rpmsg
LOGREL=var/log/rpmsg.log
. "$TT_SRCDIR/tests/world/wm_common.sh"
FW="$W/etc/SIMULATED-m4-firmware"

like "$(T world)" "world stm32mp1-rpmsg \\(SIMULATED STM32MP157\\)" "the tree is the world (its marker)"
like "$(tail -n 1 "$LOG")" '^\[rpmsg\] latency:[0-9.]+ us cause:[a-z-]+ \(SIMULATED\)$' \
	"the app logs each message's latency"
like "$(T snapshot --interval 50 --threads=all 2>&1)" "912 +915 rpmsg_ctrl +S FIFO +40" \
	"the tree's processes: the gateway's RPMsg thread with its priority"
like "$(cat "$FW/README")" "SIMULATED firmware switches" "the firmware switches say what they are"

stage a 5
ok "$(near "$(mean a)" 112 15; echo $?)" "A default (polled vring): mean $(mean a) us over $(count a) messages, the note's 112 within 15 %"
ok "$(near "$(sdev a)" 38 15; echo $?)" "A: jitter +-$(sdev a) us, the note's +-38 within 15 %"
prev=a
for s in b:vring_polling=0 c:shared_cached_buffers=0 d:ipi_top_priority=1 e:batching=1; do
	n=${s%%:*}
	sw=${s#*:}
	echo "${sw#*=}" >"$FW/${sw%%=*}"
	stage "$n" 5
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
