#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Golden output: `snapshot --json` and the text report on every fixture,
# against tests/golden/<board>.{json,txt}. TT_UPDATE_GOLDEN=1 rewrites them.
. "$TT_SRCDIR/tests/lib.sh"

for b in rk3588 intel stm32mp157 rpi4 broken; do
	root=$(copy_fixture "$b")
	# The unreadable-file case of the broken tree (git cannot store mode 000).
	[ "$b" = broken ] && [ -f "$root/sys/devices/system/cpu/cpufreq/policy0/cpuinfo_cur_freq" ] &&
		chmod 000 "$root/sys/devices/system/cpu/cpufreq/policy0/cpuinfo_cur_freq"
	for fmt in json txt; do
		if [ $fmt = json ]; then args="--json --pretty"; else args=""; fi
		# shellcheck disable=SC2086
		"$TUNETOP" --root "$root" snapshot --interval 0 --stable $args >"$TMPD/out.$fmt" 2>"$TMPD/err"
		ok $? "$b: snapshot $fmt exits 0"
		# The root path differs per run: normalise it.
		sed -i "s|$root|FIXTURE|g" "$TMPD/out.$fmt"
		want="$TT_SRCDIR/tests/golden/$b.$fmt"
		if [ -n "${TT_UPDATE_GOLDEN:-}" ]; then
			cp "$TMPD/out.$fmt" "$want"
		fi
		if diff -u "$want" "$TMPD/out.$fmt" >"$TMPD/diff" 2>&1; then
			ok 0 "$b: $fmt matches tests/golden/$b.$fmt"
		else
			ok 1 "$b: $fmt matches tests/golden/$b.$fmt"
			head -40 "$TMPD/diff" | sed 's/^/# /'
		fi
	done
done
done_testing
