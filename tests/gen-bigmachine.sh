#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# gen-bigmachine.sh OUT_DIR [NCPU]
#
# Writes a synthetic fixture tree (sys/ and proc/ under OUT_DIR) for a 256-CPU
# arm64 machine, for scaling and speed tests of tunetop (--root OUT_DIR).
# NCPU (a multiple of 64, default 256) makes a smaller or bigger one: as many
# clusters of 64 CPUs, the IRQ rows' CPUs taken modulo NCPU.
#   - 4 clusters of 64 CPUs, cpufreq policy0/64/128/192 (cpufreq-dt, schedutil,
#     stats/ with time_in_state, total_trans, trans_table)
#   - cpuidle psci_idle/menu, 3 states per CPU: WFI (1/1), cpu-sleep (220/1000),
#     cluster-sleep (900/3000)
#   - devfreq dmc, fb000000.gpu, fdab0000.npu (with trans_stat)
#   - 8 thermal zones with hwmon, /proc/stat, /proc/softirqs, /proc/cpuinfo,
#     /proc/interrupts with a column per CPU and 200 numbered rows (+ IPI rows),
#     /proc/irq/N/ for every numbered row (managed NVMe queues included)
# The machine is invented: the formats follow the fixtures in
# tests/fixtures and the kernel's printing code, the numbers do not describe real
# hardware. Output is byte-for-byte deterministic (no clock, no $RANDOM, a
# fixed-seed generator) and takes well under a second.
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ -z "$1" ]; then
	echo "usage: $0 OUT_DIR [NCPU]" >&2
	exit 2
fi
out=$1
NCPU=${2:-256}
case $NCPU in
'' | *[!0-9]*) NCPU=0 ;;
esac
if [ "$NCPU" -lt 64 ] || [ $((NCPU % 64)) -ne 0 ]; then
	echo "$0: NCPU must be a multiple of 64" >&2
	exit 2
fi
if [ -e "$out/sys" ] || [ -e "$out/proc" ]; then
	echo "$0: $out already holds sys/ or proc/; give an empty or new directory" >&2
	exit 1
fi

# Numbered IRQs: 2 per-CPU PPIs, 20 SPIs, 2 NVMe controllers (admin + 64 managed
# queues each), 48 NIC queues: 200 rows. Virqs above 1000 make the first column
# 4 wide (prec 4), as on large machines.
IRQS="11 12 $(echo {13..32}) $(echo {100..164}) $(echo {300..364}) $(echo {1200..1247})"

d=$out/sys/devices/system/cpu
cpudirs=()
for ((c = 0; c < NCPU; c++)); do
	cpudirs+=("$d/cpu$c/topology" "$d/cpu$c/power" "$d/cpu$c/cpuidle/state0" \
		"$d/cpu$c/cpuidle/state1" "$d/cpu$c/cpuidle/state2")
done
for ((p = 0; p < NCPU; p += 64)); do
	cpudirs+=("$d/cpufreq/policy$p/stats" "$d/cpufreq/policy$p/schedutil")
done
mkdir -p "${cpudirs[@]}" "$d"/cpuidle \
	"$out"/sys/devices/platform/{dmc,fb000000.gpu,fdab0000.npu}/devfreq \
	"$out"/sys/class/{devfreq,thermal,hwmon} \
	"$out"/sys/devices/virtual/thermal/thermal_zone{0..7} \
	"$out"/sys/kernel/mm/transparent_hugepage "$out"/sys/firmware/devicetree/base \
	"$out"/proc/sys/kernel/random
for z in 0 1 2 3 4 5 6 7; do
	mkdir -p "$out/sys/devices/virtual/thermal/thermal_zone$z/hwmon$z"
	ln -s "../../devices/virtual/thermal/thermal_zone$z" "$out/sys/class/thermal/thermal_zone$z"
	ln -s "../../devices/virtual/thermal/thermal_zone$z/hwmon$z" "$out/sys/class/hwmon/hwmon$z"
done
for dev in dmc fb000000.gpu fdab0000.npu; do
	mkdir -p "$out/sys/devices/platform/$dev/devfreq/$dev"
	ln -s "../../devices/platform/$dev/devfreq/$dev" "$out/sys/class/devfreq/$dev"
done
irqdirs=()
for i in $IRQS; do irqdirs+=("$out/proc/irq/$i"); done
mkdir -p "${irqdirs[@]}"
# One process for the 256 cpuN/cpufreq links (a fork per link costs seconds on
# slow sandboxes); perl-base is Essential on Debian, the loop is the fallback.
if command -v perl >/dev/null 2>&1; then
	perl -e 'my ($d, $n) = @ARGV; for my $c (0 .. $n - 1) {
		symlink("../cpufreq/policy" . int($c / 64) * 64, "$d/cpu$c/cpufreq") or die "$d/cpu$c/cpufreq: $!\n" }' "$d" "$NCPU"
else
	for ((c = 0; c < NCPU; c++)); do
		ln -s "../cpufreq/policy$((c / 64 * 64))" "$d/cpu$c/cpufreq"
	done
fi
printf "Synthetic %s-CPU arm64 test machine\0" "$NCPU" >"$out/sys/firmware/devicetree/base/model"
printf 'tunetop,bigmachine\0arm,neoverse-n1\0' >"$out/sys/firmware/devicetree/base/compatible"

LC_ALL=C awk -v OUT="$out" -v NCPU="$NCPU" -v IRQS="$IRQS" '
function rnd(lo, hi) {            # Park-Miller minimal standard; exact in doubles
	seed = (seed * 16807) % 2147483647
	return lo + seed % (hi - lo + 1)
}
function wf(path, s) { printf "%s", s > (OUT "/" path); close(OUT "/" path) }
function rng(lo, hi) { return lo == hi ? lo "" : lo "-" hi }
function mask(lo, hi,    s, ch, nb, v, b, c) {   # %*pb of CPUs lo..hi over NCPU bits
	s = ""
	for (ch = NCPU / 32 - 1; ch >= 0; ch--) {
		if (s != "") s = s ","
		for (nb = 7; nb >= 0; nb--) {
			v = 0
			for (b = 3; b >= 0; b--) {
				c = ch * 32 + nb * 4 + b
				v = v * 2 + (c >= lo && c <= hi ? 1 : 0)
			}
			s = s substr("0123456789abcdef", v + 1, 1)
		}
	}
	return s
}
function irqdir(n, alo, ahi, elo, ehi) {
	wf("proc/irq/" n "/smp_affinity", mask(alo, ahi) "\n")
	wf("proc/irq/" n "/smp_affinity_list", rng(alo, ahi) "\n")
	wf("proc/irq/" n "/effective_affinity", mask(elo, ehi) "\n")
	wf("proc/irq/" n "/effective_affinity_list", rng(elo, ehi) "\n")
	wf("proc/irq/" n "/node", "0\n")
}
BEGIN {
	seed = 20240617
	last = NCPU - 1
	cd = "sys/devices/system/cpu/"
	wf(cd "possible", "0-" last "\n"); wf(cd "present", "0-" last "\n"); wf(cd "online", "0-" last "\n")
	wf(cd "offline", "\n"); wf(cd "isolated", "\n"); wf(cd "nohz_full", "(null)\n")
	wf(cd "cpuidle/current_driver", "psci_idle\n"); wf(cd "cpuidle/current_governor", "menu\n")
	wf(cd "cpuidle/current_governor_ro", "menu\n"); wf(cd "cpuidle/available_governors", "menu teo \n")

	# ---------------------------------------------------------------- cpufreq
	nf = split("1000000 1500000 2000000 2500000 3000000", F, " ")
	U_CS = 7200000                      # uptime 72000.00 s in USER_HZ
	for (p = 0; p < NCPU; p += 64) {
		pd = cd "cpufreq/policy" p "/"
		l = ""
		for (c = p; c < p + 64; c++) l = l (c == p ? "" : " ") c
		wf(pd "affected_cpus", l "\n"); wf(pd "related_cpus", l "\n")
		wf(pd "cpuinfo_min_freq", F[1] "\n"); wf(pd "cpuinfo_max_freq", F[nf] "\n")
		wf(pd "cpuinfo_transition_latency", "100000\n")
		s = ""; for (i = 1; i <= nf; i++) s = s F[i] " "
		wf(pd "scaling_available_frequencies", s "\n")
		wf(pd "scaling_available_governors", "ondemand userspace powersave performance schedutil \n")
		cur[p] = F[1 + (p / 64) % nf]
		wf(pd "scaling_cur_freq", cur[p] "\n"); wf(pd "scaling_driver", "cpufreq-dt\n")
		wf(pd "scaling_governor", "schedutil\n")
		wf(pd "scaling_max_freq", F[nf] "\n"); wf(pd "scaling_min_freq", F[1] "\n")
		wf(pd "scaling_setspeed", "<unsupported>\n")
		wf(pd "schedutil/rate_limit_us", "1000\n")
		# transitions: symmetric matrix keeps in/out degrees equal (closed walk)
		tot = 0
		for (i = 1; i <= nf; i++) for (j = i + 1; j <= nf; j++) { T[i, j] = rnd(50, 4000); T[j, i] = T[i, j]; tot += 2 * T[i, j] }
		for (i = 1; i <= nf; i++) T[i, i] = 0
		s = "   From  :    To\n         : "
		for (j = 1; j <= nf; j++) s = s sprintf("%9d ", F[j])
		s = s "\n"
		for (i = 1; i <= nf; i++) {
			s = s sprintf("%9d: ", F[i])
			for (j = 1; j <= nf; j++) s = s sprintf("%9d ", T[i, j])
			s = s "\n"
		}
		wf(pd "stats/trans_table", s); wf(pd "stats/total_trans", tot "\n")
		s = ""; left = U_CS - 150
		for (i = nf; i >= 2; i--) { v = rnd(20000, 400000); TIS[i] = v; left -= v }
		TIS[1] = left
		for (i = 1; i <= nf; i++) s = s F[i] " " TIS[i] "\n"
		wf(pd "stats/time_in_state", s)
	}

	# ---------------------------------------------------------------- per CPU
	split("WFI cpu-sleep cluster-sleep", SN, " ")
	split("1 220 900", SL, " "); split("1 1000 3000", SR, " "); split("4294967295 0 0", SP, " ")
	for (c = 0; c < NCPU; c++) {
		pc = cd "cpu" c "/"
		if (c > 0) wf(pc "online", "1\n")
		wf(pc "cpu_capacity", "1024\n")
		wf(pc "topology/physical_package_id", "0\n")
		wf(pc "topology/cluster_id", int(c / 64) "\n")
		wf(pc "topology/core_id", (c % 64) "\n")
		wf(pc "topology/core_cpus_list", c "\n")
		wf(pc "power/pm_qos_resume_latency_us", "0\n")
		# /proc/stat fields (USER_HZ): user nice system idle iowait irq softirq steal guest guest_nice
		us = rnd(20000, 400000); sy = rnd(10000, 150000); io = rnd(0, 3000); ir = rnd(0, 2000); so = rnd(100, 9000)
		idle = U_CS - (c ? 40 : 0) - us - sy - io - ir - so
		ST[c] = us " 0 " sy " " idle " " io " " ir " " so " 0 0 0"
		sU += us; sS += sy; sI += idle; sIO += io; sIR += ir; sSO += so
		idle_us = idle * 10000
		split(sprintf("%.0f %.0f %.0f", idle_us * 0.05, idle_us * 0.25, idle_us * 0.65), TM, " ")
		for (k = 0; k < 3; k++) {
			sd = pc "cpuidle/state" k "/"
			usage = rnd(100000, 9000000) / (k + 1)
			wf(sd "name", SN[k + 1] "\n")
			wf(sd "desc", (k ? SN[k + 1] : "ARM WFI") "\n")
			wf(sd "latency", SL[k + 1] "\n"); wf(sd "residency", SR[k + 1] "\n"); wf(sd "power", SP[k + 1] "\n")
			wf(sd "usage", int(usage) "\n"); wf(sd "time", TM[k + 1] "\n")
			wf(sd "above", (k ? int(usage / rnd(8, 40)) : 0) "\n")
			wf(sd "below", (k < 2 ? int(usage / rnd(8, 40)) : 0) "\n")
			wf(sd "rejected", "0\n"); wf(sd "disable", "0\n"); wf(sd "default_status", "enabled\n")
		}
	}

	# ---------------------------------------------------------------- devfreq
	ndev = split("dmc fb000000.gpu fdab0000.npu", DV, " ")
	split("dmc_ondemand simple_ondemand simple_ondemand", DG, " ")
	DF["dmc"] = "800000000 1600000000 2400000000 3200000000"
	DF["fb000000.gpu"] = "300000000 500000000 700000000 900000000 1100000000"
	DF["fdab0000.npu"] = "300000000 600000000 1000000000"
	for (k = 1; k <= ndev; k++) {
		n = DV[k]; dd = "sys/devices/platform/" n "/devfreq/" n "/"
		m = split(DF[n], G, " ")
		wf(dd "name", n "\n"); wf(dd "governor", DG[k] "\n")
		wf(dd "available_governors", "dmc_ondemand userspace powersave performance simple_ondemand\n")
		wf(dd "cur_freq", G[1] "\n"); wf(dd "target_freq", G[1] "\n")
		wf(dd "min_freq", G[1] "\n"); wf(dd "max_freq", G[m] "\n")
		wf(dd "available_frequencies", DF[n] "\n"); wf(dd "polling_interval", "50\n")
		tot = 0
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) { T[i, j] = rnd(0, 300); T[j, i] = T[i, j]; tot += 2 * T[i, j] }
		for (i = 1; i <= m; i++) T[i, i] = 0
		s = "     From  :   To\n           :"
		for (j = 1; j <= m; j++) s = s sprintf("%10s", G[j])
		s = s "   time(ms)\n"
		left = 72000000 - 2500
		for (i = m; i >= 2; i--) { TIS[i] = rnd(1000, 900000); left -= TIS[i] }
		TIS[1] = left
		for (i = 1; i <= m; i++) {
			s = s (i == 1 ? "*" : " ") sprintf("%10s:", G[i])
			for (j = 1; j <= m; j++) s = s sprintf("%10d", T[i, j])
			s = s sprintf("%10d\n", TIS[i])
		}
		wf(dd "trans_stat", s "Total transition : " tot "\n")
	}

	# ---------------------------------------------------------------- thermal
	split("cluster0-thermal cluster1-thermal cluster2-thermal cluster3-thermal soc-thermal gpu-thermal npu-thermal ddr-thermal", TZ, " ")
	for (z = 0; z < 8; z++) {
		td = "sys/devices/virtual/thermal/thermal_zone" z "/"
		temp = 40000 + rnd(0, 60) * 250
		wf(td "type", TZ[z + 1] "\n"); wf(td "temp", temp "\n"); wf(td "mode", "enabled\n")
		wf(td "policy", "step_wise\n")
		wf(td "trip_point_0_temp", "85000\n"); wf(td "trip_point_0_type", "passive\n")
		wf(td "trip_point_1_temp", "105000\n"); wf(td "trip_point_1_type", "critical\n")
		hn = TZ[z + 1]; gsub(/-/, "_", hn)
		wf(td "hwmon" z "/name", hn "\n"); wf(td "hwmon" z "/temp1_input", temp "\n")
		wf(td "hwmon" z "/temp1_crit", "105000\n")
	}

	# ---------------------------------------------------------------- interrupts
	prec = 4
	s = sprintf("%" (prec + 8) "s", "")
	for (c = 0; c < NCPU; c++) s = s sprintf("CPU%-8d", c)
	s = s "\n"
	nirq = split(IRQS, IR, " ")
	for (k = 1; k <= nirq; k++) {
		n = IR[k]; row = sprintf("%" prec "d: ", n); sum = 0
		alo = 0; ahi = last; elo = 0; ehi = 0
		if (n == 11 || n == 12) {                 # per-CPU PPIs
			for (c = 0; c < NCPU; c++) { v = (n == 11 ? rnd(200000, 2000000) : 0); row = row sprintf("%10d ", v); sum += v }
			row = row sprintf(" %8s %" prec "d %-8s  %s", "GICv3", (n == 11 ? 26 : 23), "Level", (n == 11 ? "arch_timer" : "arm-pmu"))
			elo = 0; ehi = last
		} else {
			if (n < 100) { hw = n + 100; chip = "GICv3"; trig = "Level"; act = "dev" n; tgt = 0 }
			else if (n < 300 || n < 1200) {
				q = (n < 300 ? n - 100 : n - 300); ctl = (n < 300 ? 0 : 1)
				chip = "ITS-MSI"; trig = "Edge"; hw = (ctl ? 1572864 : 524288) + q
				act = "nvme" ctl "q" q
				if (q > 0) { alo = ((q - 1) * 4) % NCPU; ahi = alo + 3 }
				tgt = (q > 0 ? alo : 0)
			} else {
				q = n - 1200; chip = "ITS-MSI"; trig = "Edge"; hw = 34078720 + q
				act = "mlx5_comp" q "@pci:0000:41:00.0"; tgt = (q * 5 + 1) % NCPU
			}
			elo = tgt; ehi = tgt
			v = rnd(0, 3000000)
			for (c = 0; c < NCPU; c++) row = row sprintf("%10d ", (c == tgt ? v : 0))
			sum = v
			row = row sprintf(" %8s %" prec "d %-8s  %s", chip, hw, trig, act)
		}
		s = s row "\n"
		INTR[n] = sum
		irqdir(n, alo, ahi, elo, ehi)
	}
	split("Rescheduling interrupts|Function call interrupts|CPU stop interrupts|CPU stop (for crash dump) interrupts|Timer broadcast interrupts|IRQ work interrupts|CPU wake-up interrupts", IPIN, "|")
	for (i = 0; i < 7; i++) {
		row = sprintf("%" (prec - 1) "s%d: ", "IPI", i); sum = 0
		for (c = 0; c < NCPU; c++) {
			v = (i == 0 ? rnd(100000, 900000) : (i == 1 ? rnd(1000, 90000) : (i == 5 ? rnd(0, 5000) : 0)))
			row = row sprintf("%10d ", v); sum += v
		}
		s = s row "      " IPIN[i + 1] "\n"
		INTR[1 + i] = sum
	}
	s = s sprintf("%" prec "s: %10d\n", "Err", 0)
	wf("proc/interrupts", s)
	wf("proc/irq/default_smp_affinity", mask(0, last) "\n")

	# ---------------------------------------------------------------- /proc/stat, softirqs
	total = 0; s = ""
	for (n = 0; n < 1300; n++) { s = s " " (n in INTR ? INTR[n] : 0); if (n in INTR) total += INTR[n] }
	st = sprintf("cpu  %.0f 0 %.0f %.0f %.0f %.0f %.0f 0 0 0\n", sU, sS, sI, sIO, sIR, sSO)
	for (c = 0; c < NCPU; c++) st = st "cpu" c " " ST[c] "\n"
	st = st sprintf("intr %.0f", total) s "\n"
	split("HI TIMER NET_TX NET_RX BLOCK IRQ_POLL TASKLET SCHED HRTIMER RCU", SQ, " ")
	sq = sprintf("%20s", "")
	for (c = 0; c < NCPU; c++) sq = sq sprintf("CPU%-8d", c)
	sq = sq "\n"; sqline = ""; sqtot = 0
	for (k = 1; k <= 10; k++) {
		sq = sq sprintf("%12s:", SQ[k]); ssum = 0
		for (c = 0; c < NCPU; c++) {
			v = (SQ[k] == "IRQ_POLL" ? 0 : rnd(0, 400000)); sq = sq sprintf(" %10d", v); ssum += v
		}
		sq = sq "\n"; sqline = sqline sprintf(" %.0f", ssum); sqtot += ssum
	}
	st = st sprintf("ctxt %.0f\nbtime 1718600000\nprocesses 412345\nprocs_running 3\nprocs_blocked 0\n", 1234567890)
	st = st sprintf("softirq %.0f", sqtot) sqline "\n"
	wf("proc/stat", st); wf("proc/softirqs", sq)
	wf("proc/uptime", sprintf("72000.00 %.2f\n", sI / 100))
	wf("proc/loadavg", "3.12 2.98 2.77 4/2311 412345\n")

	# ---------------------------------------------------------------- cpuinfo and the rest
	s = ""
	for (c = 0; c < NCPU; c++)
		s = s "processor\t: " c "\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp ssbs\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\n"
	wf("proc/cpuinfo", s)
	wf("proc/version", "Linux version 6.1.0-bigmachine (builder@ci) (aarch64-linux-gnu-gcc (GCC) 12.2.0, GNU ld (GNU Binutils) 2.40) #1 SMP PREEMPT_DYNAMIC Mon Jun 17 00:00:00 UTC 2024\n")
	wf("proc/sys/kernel/osrelease", "6.1.0-bigmachine\n")
	wf("proc/cmdline", "console=ttyAMA0,115200 root=/dev/nvme0n1p2 rootwait\n")
	wf("proc/sys/kernel/sched_rt_period_us", "1000000\n"); wf("proc/sys/kernel/sched_rt_runtime_us", "950000\n")
	wf("proc/sys/kernel/random/boot_id", "6b1d0c2e-7f3a-4e91-b5c8-2d4f6a8e0b13\n")
	wf("proc/sys/kernel/perf_event_paranoid", "2\n")
	wf("sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n")
}'
