#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Thermal zone -> CPU mapping from every source the kernel offers, in order
# of trust: the cpu-map (topology/cluster_cpus_list), cluster_id, cpufreq
# related_cpus, the zones' cooling maps, else the zone's name; n/a with a
# reason instead of a guess. Variants of the rk3588 fixture (clusters 0-3,
# 4-5, 6-7; bigcore0 set to 50 C, bigcore1 to 60 C so the CPUs show whose
# temperature they got), generated here rather than committed:
#   clusterlist  no cluster_id, cluster_cpus_list present (an RK3588 seen
#                so: both big-core zones went to CPUs 4-7, and CPUs 6-7
#                showed bigcore0's temperature)
#   policy       no cluster_id, no cluster_cpus_list: related_cpus splits
#   none         none of them, related_cpus 4-7: n/a with the reason
#   cdev         as policy, with cooling maps bigcore0 -> cpufreq-cpu6 and
#                bigcore1 -> cpufreq-cpu4 (trusted over the names)
#   intel        cluster_id 65535 (x86 BAD_APICID, as VMs print): n/a
. "$TT_SRCDIR/tests/lib.sh"

variant() { # variant NAME: a copied rk3588 without cluster_id, zones 50/60 C
	_r=$(copy_fixture rk3588)
	rm -f "$_r"/sys/devices/system/cpu/cpu*/topology/cluster_id
	echo 50000 >"$_r/sys/class/thermal/thermal_zone1/temp"
	echo 60000 >"$_r/sys/class/thermal/thermal_zone2/temp"
	echo "$_r"
}
cpu_temp() { # cpu_temp OUTPUT CPU: the temperature column of the CPU table
	printf '%s\n' "$1" | awk -v c="$2" '$1 == c && / (on|off)line / { print ($NF == "C" ? $(NF-1) : $NF); exit }'
}

# clusterlist: the reported board
root=$(variant clusterlist)
for c in 0 1 2 3 4 5 6 7; do [ -f "$root/sys/devices/system/cpu/cpu$c/topology/cluster_cpus_list" ] || echo missing; done | grep -q missing
ok $((!$?)) "clusterlist: every CPU has cluster_cpus_list"
out=$("$TUNETOP" --root "$root" snapshot 2>&1)
is "$?" 0 "clusterlist: snapshot"
like "$out" "bigcore0-thermal +50\.0 C .* cpus 4-5" "clusterlist: bigcore0 -> CPUs 4-5"
like "$out" "bigcore1-thermal +60\.0 C .* cpus 6-7" "clusterlist: bigcore1 -> CPUs 6-7"
is "$(cpu_temp "$out" 4) $(cpu_temp "$out" 5)" "50.0 50.0" "clusterlist: CPUs 4-5 show bigcore0's temperature"
is "$(cpu_temp "$out" 6) $(cpu_temp "$out" 7)" "60.0 60.0" "clusterlist: CPUs 6-7 show bigcore1's temperature"
if command -v python3 >/dev/null 2>&1; then
	"$TUNETOP" --root "$root" snapshot --json >"$TMPD/cl.json" 2>&1
	r=$(python3 - "$TMPD/cl.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for z in d["thermal"]:
    if z["zone"].startswith("bigcore"):
        print(z["zone"], z["cpus"], z["cpus_note"])
PY
)
	like "$r" "bigcore0-thermal \[4, 5\] None" "clusterlist JSON: bigcore0 cpus [4, 5]"
	like "$r" "bigcore1-thermal \[6, 7\] None" "clusterlist JSON: bigcore1 cpus [6, 7]"
else
	skip "clusterlist JSON bigcore0" "no python3"
	skip "clusterlist JSON bigcore1" "no python3"
fi

# policy: only the cpufreq policies tell the big clusters apart
root=$(variant policy)
rm -f "$root"/sys/devices/system/cpu/cpu*/topology/cluster_cpus_list
out=$("$TUNETOP" --root "$root" snapshot 2>&1)
like "$out" "bigcore0-thermal .* cpus 4-5" "policy: bigcore0 -> CPUs 4-5 (related_cpus)"
like "$out" "bigcore1-thermal .* cpus 6-7" "policy: bigcore1 -> CPUs 6-7 (related_cpus)"
is "$(cpu_temp "$out" 5) $(cpu_temp "$out" 6)" "50.0 60.0" "policy: CPU 5 bigcore0's, CPU 6 bigcore1's"

# none: nothing splits CPUs 4-7, so which zone measures which is a guess
root=$(variant none)
rm -f "$root"/sys/devices/system/cpu/cpu*/topology/cluster_cpus_list
for p in 4 6; do echo "4 5 6 7" >"$root/sys/devices/system/cpu/cpufreq/policy$p/related_cpus"; done
out=$("$TUNETOP" --root "$root" snapshot 2>&1)
like "$out" "bigcore0-thermal .* cpus n/a \(2 big-core zones but cpufreq related_cpus shows 1 big cluster \(CPUs 4-7\)\)" \
	"none: bigcore0 n/a, with the reason"
like "$out" "bigcore1-thermal .* cpus n/a \(2 big-core zones" "none: bigcore1 n/a"
like "$out" "littlecore-thermal .* cpus 0-3" "none: the little cluster still maps"
is "$(cpu_temp "$out" 6)" "n/a" "none: CPU 6 shows no temperature rather than bigcore0's"

# cdev: the cooling maps say which policy each zone caps, and they are
# trusted over the name's index (a board whose zones are numbered the other
# way round)
root=$(variant cdev)
rm -f "$root"/sys/devices/system/cpu/cpu*/topology/cluster_cpus_list
ln -s ../cooling_device2 "$root/sys/class/thermal/thermal_zone1/cdev0"
ln -s ../cooling_device1 "$root/sys/class/thermal/thermal_zone2/cdev0"
out=$("$TUNETOP" --root "$root" snapshot 2>&1)
like "$out" "bigcore0-thermal .* cpus 6-7" "cdev: bigcore0 -> CPUs 6-7 (its cooling map caps cpufreq-cpu6)"
like "$out" "bigcore1-thermal .* cpus 4-5" "cdev: bigcore1 -> CPUs 4-5 (its cooling map caps cpufreq-cpu4)"
is "$(cpu_temp "$out" 4) $(cpu_temp "$out" 7)" "60.0 50.0" "cdev: the CPUs follow the cooling maps"

# x86's "no cluster known": a VM's cluster_id reads 65535 (BAD_APICID),
# which is n/a (null in JSON), not cluster 65535
root=$(copy_fixture intel)
for f in "$root"/sys/devices/system/cpu/cpu*/topology/cluster_id; do echo 65535 >"$f"; done
out=$("$TUNETOP" --root "$root" snapshot 2>&1)
is "$(printf '%s\n' "$out" | awk '$1 == "0" && / online / { print $4; exit }')" "n/a" \
	"cluster_id 65535: the CPU table's cluster is n/a"
like "$("$TUNETOP" --root "$root" snapshot --json 2>&1)" '"cluster_id":null' \
	"cluster_id 65535: null in JSON"

# One reading, one figure (issue 30): 43750 mC was 43.8 C in the CPU table
# (printf rounding) and 43.7 C in the zone list (truncation), the same
# sensor on consecutive screens; 44384 mC 44.4 and 44.3. Every view now
# goes through str_temp_c (tenths, half away from zero): the CPU table, the
# zone list and the hwmon list agree, and a half rounds up.
root=$(copy_fixture rk3588)
echo 43750 >"$root/sys/class/thermal/thermal_zone3/temp"
echo 45349 >"$root/sys/class/thermal/thermal_zone1/temp"
for h in "$root"/sys/class/hwmon/hwmon*; do
	[ "$(cat "$h/name" 2>/dev/null)" = littlecore_thermal ] && echo 43750 >"$h/temp1_input"
done
out=$("$TUNETOP" --root "$root" snapshot 2>&1)
like "$out" "littlecore-thermal +43\.8 C " "43750 mC: the zone list says 43.8 C"
is "$(cpu_temp "$out" 0) $(cpu_temp "$out" 3)" "43.8 43.8" "43750 mC: CPUs 0-3 in the CPU table say 43.8 too"
like "$out" "littlecore_thermal +temp1 +43\.8 C" "43750 mC: the hwmon list says 43.8 too"
like "$out" "bigcore0-thermal +45\.3 C " "45349 mC: zone list 45.3 C"
is "$(cpu_temp "$out" 4)" "45.3" "45349 mC: the CPU table 45.3 too"

done_testing
