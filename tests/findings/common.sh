# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the findings tests: fixture variants and the findings of a
# root as "id severity" lines. Source after tests/lib.sh.

# findings ROOT -> one "id severity" line per finding of `snapshot --json`
findings() {
	"$TUNETOP" --root "$1" snapshot --interval 0 --stable --json 2>/dev/null |
		grep -o '"id":"[^"]*","severity":"[^"]*"' |
		sed 's/"id":"\([^"]*\)","severity":"\([^"]*\)"/\1 \2/'
}

# fixes ROOT ID -> the fix assignments of the findings with that id, one per line
fixes() {
	"$TUNETOP" --root "$1" snapshot --interval 0 --stable --json 2>/dev/null |
		grep -o "\"id\":\"$2\"[^{}]*\"fix\":\[[^]]*\]" |
		sed 's/.*"fix":\[//; s/\]$//' | tr ',' '\n' | sed 's/^"//; s/"$//' | grep .
}

# make_tuned ROOT: the RK3588 full-chain lock (field notes step D) written
# straight into a fixture copy: every policy on performance at its top OPP,
# cpu-sleep disabled on every CPU, the DDR controller on performance at its
# top OPP.
make_tuned() {
	local r=$1 p max
	for p in "$r"/sys/devices/system/cpu/cpufreq/policy*; do
		echo performance >"$p/scaling_governor"
		max=$(cat "$p/cpuinfo_max_freq")
		echo "$max" >"$p/scaling_cur_freq"
		echo "$max" >"$p/scaling_min_freq"
	done
	for p in "$r"/sys/devices/system/cpu/cpu[0-9]*/cpuidle/state1; do
		echo 1 >"$p/disable"
	done
	p=$r/sys/devices/platform/dmc/devfreq/dmc
	echo performance >"$p/governor"
	echo 2400000000 >"$p/cur_freq"
	echo 2400000000 >"$p/target_freq"
}

npu_busy() { # npu_busy ROOT PCT
	echo "$2@1000000000Hz" >"$1/sys/devices/platform/fdab0000.npu/devfreq/fdab0000.npu/load"
}

has() { # has "LINES" "id severity" DESCRIPTION
	if printf '%s\n' "$1" | grep -qx -- "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "findings were:" "$1"
	fi
}

hasnt() { # hasnt "LINES" ID DESCRIPTION
	if printf '%s\n' "$1" | grep -q -- "^$2 "; then
		ok 1 "$3"
		diag "findings were:" "$1"
	else
		ok 0 "$3"
	fi
}
