/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The explain entries themselves: every knob family and every metric that
 * tunetop shows, as data. The numbers in `why` and `traps` come from the
 * field investigations on the reference boards (EXPLAIN_FIELD_NOTES) and the kernel
 * sources and documentation; keep them exact when editing. explain.c does the
 * lookup, path resolution and rendering. */
#include "model/explain.h"

#include "model/explain_int.h"
#include "source/system.h"

#define CPUFREQ "sys/devices/system/cpu/cpufreq"
#define CPU	"sys/devices/system/cpu"

/* clang-format off */
const struct explain_entry explain_table[] = {
/* ---- cpufreq knobs --------------------------------------------------------------------- */
{
	.key = "cpufreq/*/governor", .knob = true,
	.aliases = "scaling_governor governor cpufreq/*/scaling_governor",
	.title = "CPU frequency governor of a policy (a cluster of CPUs sharing one clock)",
	.what = "The algorithm that picks the clock of every CPU in the policy: performance "
		"(always the highest allowed OPP), powersave (the lowest), schedutil (driven by "
		"the scheduler's utilisation), ondemand/conservative (sampling timers), "
		"interactive (Android/Rockchip BSP), userspace (a fixed scaling_setspeed).",
	.files = { CPUFREQ "/{1}/scaling_governor", CPUFREQ "/{1}/scaling_available_governors",
		   CPUFREQ "/{1}/scaling_cur_freq", CPUFREQ "/{1}/related_cpus" },
	.units = "a name from scaling_available_governors",
	.why = "A dynamic governor sees how busy a CPU is, not how urgent its work is. A thread "
	       "that blocks in a device ioctl (NPU, GPU, DMA) makes the CPU look idle, the "
	       "governor drops to the lowest OPP, and the interrupt handling, DMA set-up and "
	       "operator scheduling that *are* on the latency path run several times slower: "
	       "governor collapse. On an RK3588 (6.1 BSP, interactive) a YOLOv8s rknn_run took "
	       "97 ms on average with a 79-128 ms spread at 408 MHz in a quiet test, but a steady "
	       "48 ms inside the busy product pipeline - the quieter system was slower. Big cores "
	       "on performance brought it to ~33.8 ms.",
	.try_value = "performance",
	.try_hint = "Set the governor of the cluster that runs the latency-critical thread to "
		    "performance (F3 Cores: g), measure, then decide whether the little cores need "
		    "it too (on the RK3588 they did not: step C, 33.8 ms, warm instead of hot).",
	.traps = "Governor collapse: a thread blocked in an ioctl looks idle, so a quiet system "
		 "clocks down and gets slower (RK3588: 97 ms mean, 79-128 ms at 408 MHz quiet vs "
		 "48 ms under load).\n"
		 "BSP schedutil has no iowait boost (only rate_limit_us and Rockchip's target_load "
		 "under policyN/schedutil/), and an NPU driver does not wait in iowait anyway: "
		 "switching to schedutil does not fix collapse.\n"
		 "uclamp (sched_setattr util_min) only acts through schedutil: under interactive "
		 "or ondemand util_min=512 is accepted and the CPU still sits at 408 MHz. Verify by "
		 "sampling scaling_cur_freq, never by the return code.\n"
		 "intel_pstate in active mode offers only performance and powersave (its own "
		 "algorithms, not the generic governors).\n"
		 "Governor tunables live in policyN/<governor>/ and exist only while that governor "
		 "is active; switching governor discards their values.\n"
		 "Thermal throttling overrides the governor: a cooling device caps the maximum "
		 "frequency even under performance.",
	.see = "cpu.freq_khz cpufreq/*/schedutil/rate_limit_us thread/*/uclamp_min thermal.cooling_state",
},
{
	.key = "cpufreq/*/lock_khz", .knob = true,
	.aliases = "cpufreq/*/min_khz cpufreq/*/max_khz scaling_min_freq scaling_max_freq "
		   "cpuinfo_min_freq cpuinfo_max_freq",
	.title = "CPU frequency limits and locks (kHz)",
	.what = "scaling_min_freq and scaling_max_freq bound what the governor may choose; "
		"lock_khz sets both to one OPP. cpuinfo_min/max_freq are the hardware range.",
	.files = { CPUFREQ "/{1}/scaling_min_freq", CPUFREQ "/{1}/scaling_max_freq",
		   CPUFREQ "/{1}/scaling_available_frequencies", CPUFREQ "/{1}/cpuinfo_max_freq" },
	.units = "kHz (cpufreq is kHz, devfreq is Hz)",
	.why = "A floor keeps wake-ups from starting at the slowest OPP while leaving the governor "
	       "free above it; a lock removes DVFS transitions (and their microsecond-scale "
	       "stalls) from the latency path entirely.",
	.try_value = "max",
	.try_hint = "Raise min_khz on the latency cluster to a mid OPP, or lock it (F3 Cores: f).",
	.shell = "echo {v:2256000} > /sys/devices/system/cpu/cpufreq/{1:policy4}/scaling_max_freq\n"
		 "echo {v:2256000} > /sys/devices/system/cpu/cpufreq/{1:policy4}/scaling_min_freq",
	.traps = "Since ~5.4 the writes are frequency-QoS requests: a min above max is accepted and "
		 "silently clamped (min reads back as max), and the stored request resurfaces when "
		 "max is raised later. Older kernels return EINVAL. Raise max first when going up, "
		 "lower min first when going down, then re-read.\n"
		 "Thermal throttling overrides locks: a cooling device lowers the effective maximum "
		 "below your lock without telling you; watch thermal.cooling_state.\n"
		 "scaling_cur_freq is the last request (on x86 an APERF/MPERF average), not a "
		 "measurement; cpuinfo_cur_freq is the hardware value but root-only (0400).",
	.see = "cpufreq/*/governor thermal.cooling_state cpu.freq_khz",
},
{
	.key = "cpufreq/*/schedutil/rate_limit_us", .knob = true,
	.aliases = "rate_limit_us up_rate_limit_us down_rate_limit_us "
		   "cpufreq/*/schedutil/up_rate_limit_us cpufreq/*/schedutil/down_rate_limit_us",
	.title = "schedutil rate limit: minimum time between frequency changes",
	.what = "schedutil computes next_freq = 1.25 x max_freq x util / max (about 20% headroom) "
		"from the scheduler's utilisation on every scheduler event, but changes the clock "
		"at most once per rate_limit_us.",
	.files = { CPUFREQ "/{1}/schedutil/rate_limit_us", CPUFREQ "/{1}/stats/total_trans",
		   CPUFREQ "/{1}/cpuinfo_transition_latency" },
	.units = "microseconds",
	.why = "Shorter means faster response to a burst, more power and more frequency switches "
	       "per second. Cortex-A72, Linux 5.10, 200 ms pulsed load: 200 us gave 12.3 ms "
	       "latency at 2100 mW and 48 switches/s; 1000 us 15.7 ms, 1950 mW, 22/s; 5000 us "
	       "23.5 ms, 1850 mW, 8/s. Switches per second is what this knob trades, so watch "
	       "policy.transitions_per_s while tuning it.",
	.try_value = "1000",
	.try_hint = "With schedutil active, lower rate_limit_us on the latency cluster (F3 Cores, "
		    "the tunables line) and compare transitions/s and the probe.",
	.traps = "up_rate_limit_us / down_rate_limit_us (asymmetric: fast up 500 us, slow down "
		 "2000 us gave the best energy per task; in one camera product peak temperature "
		 "-14% and key-frame latency standard deviation 23 -> 9 ms) exist only in some "
		 "vendor/Android kernels; mainline has the single rate_limit_us.\n"
		 "The directory exists only while schedutil is the active governor.\n"
		 "The default is the driver's transition latency (RK3588: 40 us x 1000, capped at "
		 "10000 us).",
	.see = "policy.transitions_per_s cpufreq/*/governor cpufreq/*/schedutil/target_load",
},
{
	.key = "cpufreq/*/schedutil/target_load", .knob = true,
	.aliases = "target_load iowait_boost",
	.title = "Rockchip BSP schedutil target_load (and the missing iowait boost)",
	.what = "A Rockchip-only schedutil tunable (kernel/sched/cpufreq_schedutil.c under "
		"CONFIG_ARCH_ROCKCHIP): the utilisation percentage schedutil aims for, default 80, "
		"1-100. Lower values pick higher frequencies for the same load.",
	.files = { CPUFREQ "/{1}/schedutil/target_load", CPUFREQ "/{1}/schedutil/rate_limit_us" },
	.units = "percent (1-100)",
	.why = "On the BSP this and rate_limit_us are the only schedutil tunables: there is no "
	       "iowait boost, so a thread that waits on a device never boosts the clock.",
	.try_value = "50",
	.try_hint = "Only with schedutil active (F3 Cores: g, then the tunables line); verify the "
		    "frequency actually rises while the device works.",
	.traps = "Dead end from the RK3588 NPU case: switching to schedutil to get iowait boost "
		 "does nothing, because the BSP has no iowait-boost tunables and the NPU driver does "
		 "not wait in iowait.\n"
		 "Vendor tunables silently vanish on a mainline kernel; profiles that set them fail "
		 "there with ENOENT.",
	.see = "cpufreq/*/governor cpufreq/*/schedutil/rate_limit_us",
},
{
	.key = "cpufreq/*/interactive/*", .knob = true,
	.aliases = "interactive hispeed_freq go_hispeed_load min_sample_time timer_rate "
		   "above_hispeed_delay target_loads io_is_busy boostpulse",
	.title = "interactive governor tunables (Android / Rockchip BSP)",
	.what = "The sampling governor of Android-common and BSP kernels: jumps to hispeed_freq "
		"when load exceeds go_hispeed_load, holds a frequency for min_sample_time, "
		"samples every timer_rate.",
	.files = { CPUFREQ "/{1}/interactive/hispeed_freq", CPUFREQ "/{1}/interactive/go_hispeed_load",
		   CPUFREQ "/{1}/interactive/min_sample_time", CPUFREQ "/{1}/interactive/io_is_busy" },
	.units = "kHz (hispeed_freq), percent (loads), microseconds (times)",
	.why = "Rockchip defaults: min_sample_time 40000, hispeed_freq 1008000 on policy0 and "
	       "816000 on the big clusters. A thread that sleeps in a device wait keeps the load "
	       "under go_hispeed_load (99), so the cluster stays at 408 MHz.",
	.try_hint = "Prefer governor performance on the latency cluster (F3 Cores: g); tuning "
		    "interactive only narrows the window.",
	.traps = "boostpulse is write-only (mode 0200).\n"
		 "io_is_busy=1 counts iowait as busy, but a driver blocked in an ioctl is not "
		 "iowait.",
	.see = "cpufreq/*/governor",
},
{
	.key = "cpufreq/*/energy_performance_preference", .knob = true,
	.aliases = "epp energy_performance_preference",
	.title = "HWP energy/performance preference (intel_pstate, amd-pstate)",
	.what = "A hint to the hardware P-state controller: default, performance, "
		"balance_performance, balance_power, power or 0-255.",
	.files = { CPUFREQ "/{1}/energy_performance_preference",
		   CPUFREQ "/{1}/energy_performance_available_preferences",
		   CPU "/intel_pstate/status" },
	.units = "a name or 0-255",
	.why = "With HWP the hardware picks the clock; EPP is how much it favours speed. "
	       "'performance' ramps fastest after an idle period.",
	.try_value = "performance",
	.try_hint = "Set EPP performance on the CPUs of the latency thread (F3 Cores).",
	.traps = "With the performance governor anything but 'performance' is refused with EBUSY.\n"
		 "Switching intel_pstate/status (active/passive) resets every setting.",
	.see = "intel_pstate/* cpufreq/*/governor",
},
{
	.key = "intel_pstate/*", .knob = true,
	.aliases = "no_turbo min_perf_pct max_perf_pct intel_pstate",
	.title = "intel_pstate global limits (no_turbo, min/max_perf_pct)",
	.what = "Driver-wide limits in percent of the maximum turbo frequency, and turbo on/off.",
	.files = { CPU "/intel_pstate/no_turbo", CPU "/intel_pstate/min_perf_pct",
		   CPU "/intel_pstate/max_perf_pct", CPU "/intel_pstate/status" },
	.units = "0/1, percent",
	.why = "Turbo frequencies depend on how many cores are busy and on temperature, so "
	       "they make timing depend on the rest of the machine; no_turbo=1 trades peak speed "
	       "for repeatability.",
	.try_value = "1",
	.try_hint = "tunetop set intel_pstate/no_turbo=1, then compare the probe.",
	.traps = "no_turbo gives EPERM when the BIOS disabled turbo.\n"
		 "min_perf_pct and max_perf_pct are silently clamped to each other, and are absent "
		 "with per_cpu_perf_limits.",
	.see = "cpufreq/*/energy_performance_preference",
},
/* ---- idle and PM QoS ------------------------------------------------------------------- */
{
	.key = "cpuidle/*/*/disable", .knob = true,
	.aliases = "disable cpuidle/*/disable cpu-sleep C6 idle-state cpuidle/*/*",
	.title = "Disable an idle state on one CPU",
	.what = "Each CPU has its own list of idle states (WFI, cpu-sleep, C1/C1E/C6...). "
		"Writing 1 to stateK/disable keeps *that CPU* out of that state; the governor "
		"then picks a shallower one.",
	.files = { CPU "/{1}/cpuidle/{2}/name", CPU "/{1}/cpuidle/{2}/latency",
		   CPU "/{1}/cpuidle/{2}/disable", CPU "/cpuidle/current_governor" },
	.units = "0/1",
	.why = "A deep state costs its exit latency on every wake-up: RK3588 cpu-sleep 220 us "
	       "(entry 100 + exit 120 us in the device tree), Intel C6 ~170 us (Ice Lake-SP "
	       "table; Skylake-SP 133 us). On a path with frequent CPU <-> device interrupt "
	       "hand-offs that is paid many times per frame: on the RK3588 NPU pipeline "
	       "disabling cpu-sleep on every CPU plus DDR on performance (step D) took rknn_run "
	       "from ~33.8 to ~29.4 ms with variance ~0 (13% faster, 30 FPS possible).",
	.try_value = "1",
	.try_hint = "Disable the deep state on the CPUs that run the latency thread and take its "
		    "interrupts (F3 Cores: i), A/B it with the probe (tunetop ab), and check "
		    "cooling: less idle means more heat.",
	.traps = "Per CPU: disabling on cpu4 leaves cpu0-3 and 5-7 unchanged. Write every CPU "
		 "(cpuidle/*/cpu-sleep/disable=1) for a global effect.\n"
		 "Needs CAP_SYS_ADMIN (EPERM otherwise); 'disable' reads back only the user bit, "
		 "default_status shows the driver's own choice (STM32MP1 CStop is driver-disabled "
		 "until its power domain allows it).\n"
		 "The ladder governor also skips every deeper state once one is disabled; menu and "
		 "teo only skip that one.\n"
		 "A PM QoS request (pmqos/cpu_dma_latency_us) achieves the same for all CPUs "
		 "without root-owned state left behind, but only while its file descriptor is open.",
	.see = "cpuidle.latency_us cpuidle.residency_pct pmqos/cpu_dma_latency_us probe.latency_us",
},
{
	.key = "cpuidle/governor", .knob = true,
	.aliases = "current_governor cpuidle governor haltpoll menu teo ladder",
	.title = "The cpuidle governor (which idle state a CPU picks)",
	.what = "One governor for the whole system decides, at every idle entry, which of the "
		"driver's states to enter from the predicted sleep length and the latency "
		"limits. menu and teo are the usual ones; ladder steps one state at a time; "
		"haltpoll (KVM guests) polls briefly and then halts.",
	.files = { CPU "/cpuidle/current_governor", CPU "/cpuidle/available_governors",
		   CPU "/cpuidle/current_driver" },
	.units = "a word of available_governors",
	.why = "A per-state disable only works if the governor consults it. haltpoll does not: "
	       "with cpuidle/*/state1/disable=1 a KVM guest on haltpoll keeps entering "
	       "'haltpoll idle' (its usage keeps growing), so an idle-state A/B there compares "
	       "a knob with itself. menu and teo honour disable; every governor honours a PM "
	       "QoS latency request.",
	.try_value = "menu",
	.try_hint = "On a haltpoll guest, switch to menu (or teo) before disabling idle states, "
		    "or hold pmqos/cpu_dma_latency_us instead; watch the state's usage (Ent/s on "
		    "the Cores screen) to see that the disable took.",
	.traps = "Writable only where the kernel has current_governor (older kernels: "
		 "current_governor_ro, and the cpuidle_sysfs_switch boot option).\n"
		 "The choice is global and lasts until reboot or the next write; tunetop journals "
		 "it like any knob (restore puts it back).",
	.see = "cpuidle/*/*/disable pmqos/cpu_dma_latency_us cpuidle.residency_pct",
},
{
	.key = "pmqos/cpu_dma_latency_us", .knob = true,
	.aliases = "cpu_dma_latency pm_qos pmqos dma_latency pmqos.cpu_dma_latency_us",
	.title = "PM QoS CPU latency limit (/dev/cpu_dma_latency)",
	.what = "A system-wide request: idle governors must not pick a state whose exit latency "
		"exceeds the smallest value requested. Reading the device gives the effective "
		"value (2000000000 = no constraint).",
	.files = { "dev/cpu_dma_latency", CPU "/cpuidle/current_driver" },
	.units = "microseconds, written as a 4-byte binary int32",
	.why = "The portable way to keep every CPU out of deep idle states while a latency-"
	       "critical application runs, without touching per-CPU sysfs state. 0 forbids "
	       "everything deeper than polling.",
	.try_value = "100",
	.try_hint = "F5 RT: l holds a limit for as long as the TUI runs; tunetop exec and ab "
		    "hold it for the command's lifetime.",
	.shell = "python3 -c 'import os,struct,time; fd=os.open(\"/dev/cpu_dma_latency\", "
		 "os.O_WRONLY); os.write(fd, struct.pack(\"i\", {v:100})); time.sleep(1e9)'  "
		 "# holds while it runs",
	.traps = "Write format: exactly 4 bytes are a raw binary int32; any other length is "
		 "parsed as HEX text. echo 500 writes \"500\\n\" (4 bytes) = the ASCII codes as an "
		 "integer = 170930229 us; \"100\" (3 bytes) means 0x100 = 256 us; \"0x1f4\" = 500.\n"
		 "Lifetime: the request lives only while the file descriptor stays open; close() or "
		 "process exit removes it, so `echo 0 > /dev/cpu_dma_latency` does nothing lasting.\n"
		 "cyclictest holds its own request (--latency, default 0) during a run, so its "
		 "numbers are taken with deep idle off.\n"
		 "Very recent kernels add /dev/cpu_wakeup_latency with the same protocol.",
	.see = "cpuidle/*/*/disable pmqos/*/resume_latency_us cpuidle.latency_us",
},
{
	.key = "pmqos/*/resume_latency_us", .knob = true,
	.aliases = "pm_qos_resume_latency_us resume_latency",
	.title = "Per-CPU PM QoS resume latency",
	.what = "A per-CPU limit on the exit latency of the idle states that CPU may use.",
	.files = { CPU "/{1}/power/pm_qos_resume_latency_us" },
	.units = "microseconds (decimal text)",
	.why = "Limits deep idle on just the CPUs that host the latency path, leaving the others "
	       "free to save power.",
	.try_value = "100",
	.try_hint = "tunetop set pmqos/4-7/resume_latency_us=100 (journaled, restorable).",
	.traps = "Reads \"0\" for no constraint, and writing 0 removes the constraint; \"n/a\" "
		 "means zero latency allowed (the strictest: polling only). Negative values are "
		 "EINVAL.\n"
		 "One shared request per CPU for all of user space: the last writer wins, and it "
		 "persists after your process exits - restore it (tunetop does).",
	.see = "pmqos/cpu_dma_latency_us cpuidle/*/*/disable",
},
/* ---- devfreq --------------------------------------------------------------------------- */
{
	.key = "devfreq/dmc/governor", .knob = true,
	.aliases = "devfreq/ddr/governor devfreq/dmc/* devfreq/ddr/* dmc ddr dmc_ondemand "
		   "scmi_clk_ddr",
	.title = "DDR memory controller frequency (Rockchip dmc devfreq)",
	.what = "The DDR controller scales the memory clock with bandwidth demand under "
		"dmc_ondemand (RK3588 LPDDR4x 528/1068/1560/2112 MHz, LPDDR5 534/1320/1968/2400).",
	.files = { "sys/class/devfreq/dmc/governor", "sys/class/devfreq/dmc/cur_freq",
		   "sys/class/devfreq/dmc/available_frequencies", "sys/class/devfreq/dmc/trans_stat",
		   "sys/kernel/debug/clk/scmi_clk_ddr/clk_rate" },
	.units = "Hz",
	.why = "An accelerator that streams weights and feature maps from DRAM is starved when "
	       "the DDR clock sits low: on the RK3588 NPU pipeline the dmc fell to 528 MHz "
	       "between bursts; locking it at 2112 MHz (plus cpu-sleep off) took rknn_run from "
	       "~33.8 to ~29.4 ms (step D), the step that made 30 FPS (33.3 ms) possible.",
	.try_value = "performance",
	.try_hint = "F4 Clocks: select dmc, g -> performance (or f -> lock at the top OPP).",
	.traps = "DDR frequency starves the NPU even when the NPU clock itself is at 1 GHz: check "
		 "both devfreq devices, not only the accelerator's.\n"
		 "devfreq units are Hz (cpufreq's are kHz).\n"
		 "Radxa images have no userspace governor, so userspace/set_freq does not exist; "
		 "use performance or min_freq.\n"
		 "A locked DDR clock costs power and heat: the full lock (step D) needs active "
		 "cooling.",
	.see = "devfreq.cur_hz devfreq.load devfreq/*/governor thermal.cooling_state",
},
{
	.key = "devfreq/*/governor", .knob = true,
	.aliases = "devfreq/npu/governor devfreq/gpu/governor rknpu_ondemand simple_ondemand "
		   "devfreq",
	.title = "devfreq governor of a device (NPU, GPU, DDR, buses)",
	.what = "devfreq is cpufreq for everything that is not a CPU: each device under "
		"/sys/class/devfreq has its own governor and OPP list (RK3588: fdab0000.npu "
		"rknpu_ondemand, fb000000.gpu simple_ondemand, dmc dmc_ondemand; 300 MHz-1 GHz "
		"for NPU and GPU).",
	.files = { "sys/class/devfreq/{1}/governor", "sys/class/devfreq/{1}/available_governors",
		   "sys/class/devfreq/{1}/cur_freq", "sys/class/devfreq/{1}/load" },
	.units = "a name from available_governors",
	.why = "The accelerator's own clock bounds its compute time; an ondemand governor that "
	       "samples load every polling_interval lags behind short inference bursts.",
	.try_value = "performance",
	.try_hint = "F4 Clocks: g on the device.",
	.traps = "The NPU clock may already idle at 1 GHz (rknpu_ondemand on ROCK 5C) while the "
		 "DDR controller sits at its lowest OPP: the NPU is then starved by memory, not by "
		 "its own clock.\n"
		 "Without an NPU devfreq device, the debugfs clock "
		 "/sys/kernel/debug/clk/scmi_clk_npu/clk_rate still shows the rate (root, debugfs).",
	.see = "devfreq/dmc/governor devfreq.cur_hz devfreq.load",
},
{
	.key = "devfreq/*/lock_hz", .knob = true,
	.aliases = "devfreq/*/min_hz devfreq/*/max_hz min_freq max_freq",
	.title = "devfreq frequency limits and locks (Hz)",
	.what = "min_freq / max_freq bound the device's governor; lock_hz sets both.",
	.files = { "sys/class/devfreq/{1}/min_freq", "sys/class/devfreq/{1}/max_freq",
		   "sys/class/devfreq/{1}/available_frequencies" },
	.units = "Hz",
	.why = "A floor on the DDR or NPU clock removes the ramp-up delay from each inference "
	       "burst at a fraction of the power of a full lock.",
	.try_value = "max",
	.try_hint = "F4 Clocks: f on the device -> minimum / lock.",
	.shell = "echo {v:2112000000} > /sys/class/devfreq/{1:dmc}/min_freq",
	.traps = "Since ~5.5 min/max go through dev PM QoS in kHz granularity: clamped, not "
		 "EINVAL; max_freq 0 means no limit. Older kernels return EINVAL for min > max.\n"
		 "Units are Hz: 2112000000, not 2112000.",
	.see = "devfreq/*/governor devfreq.cur_hz",
},
/* ---- scheduler ------------------------------------------------------------------------- */
{
	.key = "sched/rt_runtime_us", .knob = true,
	.aliases = "sched/rt_period_us sched_rt_runtime_us sched_rt_period_us rt_runtime "
		   "rt-throttling throttling",
	.title = "RT throttling: the share of each period real-time tasks may use",
	.what = "SCHED_FIFO/RR tasks together may run at most sched_rt_runtime_us out of every "
		"sched_rt_period_us on each CPU (default 950000 of 1000000: 95%); the rest is "
		"kept for normal tasks. -1 removes the limit.",
	.files = { "proc/sys/kernel/sched_rt_runtime_us", "proc/sys/kernel/sched_rt_period_us",
		   "sys/kernel/debug/sched/debug", "proc/sched_debug",
		   "sys/kernel/debug/sched/fair_server/cpu0/runtime" },
	.units = "microseconds (-1 = unlimited)",
	.why = "When RT demand exceeds the budget the RT tasks are stopped until the next period: "
	       "a latency spike of up to (period - runtime) = 50 ms by default. On a PREEMPT_RT "
	       "LTE base station (B4860, L2 every 1 ms, budget 50 us) throttling above ~92-95% "
	       "load caused ~300 us L2 latency, 500 ms+ management stalls and -15% throughput; "
	       "the fix was fewer RT threads (only the Ethernet IRQ thread FIFO 99 and L2 FIFO "
	       "98) and a 100000/90000 us window.",
	.try_value = "-1",
	.try_hint = "F5 RT: r. First find out which RT thread eats the budget; a shorter window "
		    "(rt_runtime_us=90000 then rt_period_us=100000) bounds each stall to 10 ms.",
	.shell = "echo {v:90000} > /proc/sys/kernel/sched_rt_runtime_us\n"
		 "echo 100000 > /proc/sys/kernel/sched_rt_period_us",
	.traps = "-1 removes the safety net: a runaway FIFO thread can then starve everything "
		 "else on its CPU (before 6.12).\n"
		 "Writes are EINVAL when runtime > period, period is 0 or runtime < -1; EBUSY when "
		 "the new limit is below admitted SCHED_DEADLINE bandwidth. Lower runtime before "
		 "lowering period.\n"
		 "6.12+: CFS starvation protection is a per-CPU deadline 'fair server' "
		 "(debugfs sched/fair_server/cpuN/{runtime,period}, ns, default 50 ms per 1 s); "
		 "rt_runtime_us=-1 no longer removes it, RT tasks run unthrottled while no CFS task "
		 "waits, and its bandwidth counts in DL admission (lowering rt_runtime_us can hit "
		 "EBUSY).\n"
		 "dmesg 'sched: RT throttling activated' is printed once per boot: a latch, not a "
		 "counter. Poll rt_throttled / rt_time in the scheduler debug file instead (root, "
		 "debugfs; lockdown may refuse it).",
	.see = "rt.throttled rt.fair_server thread/*/policy",
},
{
	.key = "mm/thp", .knob = true,
	.aliases = "mm/thp_defrag thp transparent_hugepage hugepage",
	.title = "Transparent huge pages",
	.what = "Whether anonymous memory is backed by 2 MB pages automatically (always), only "
		"where an application asks with madvise (madvise), or never.",
	.files = { SYS_THP_DIR "/" SYS_THP_ENABLED, SYS_THP_DIR "/" SYS_THP_DEFRAG },
	.units = "always | madvise | never",
	.why = "With 'always', page faults may compact memory to build a huge page and "
	       "khugepaged collapses pages in the background: unpredictable stalls on the RT path. "
	       "The B4860 base station ran THP never with mlockall.",
	.try_value = "never",
	.try_hint = "tunetop set mm/thp=madvise (or never) and lock the RT process's memory.",
	.traps = "Changing it does not split huge pages that already exist.\n"
		 "mlock prevents paging out but not the first-touch fault: touch (or MAP_POPULATE) "
		 "the memory before the RT loop starts.",
	.see = "thread.vmlck_kb",
},
/* ---- interrupts, isolation, threads ---------------------------------------------------- */
{
	.key = "irq/*/affinity", .knob = true,
	.aliases = "smp_affinity smp_affinity_list effective_affinity irqaffinity irqbalance "
		   "managed_irq",
	.title = "Interrupt affinity",
	.what = "Which CPUs may handle an interrupt (smp_affinity_list) and which one actually "
		"does (effective_affinity_list, usually a single CPU).",
	.files = { "proc/irq/{1}/smp_affinity_list", "proc/irq/{1}/effective_affinity_list",
		   "proc/irq/default_smp_affinity", "proc/interrupts" },
	.units = "a CPU list",
	.why = "An interrupt handler (and the softirq work it raises) preempts whatever runs on "
	       "its CPU. Moving device interrupts off the CPUs of the latency thread removes "
	       "that interference; B4860: network IRQs moved to CPU 0, the L2 thread isolated on "
	       "1-3. Interrupt affinity was also the next thing to study after the AM5729 "
	       "isolation result.",
	.try_value = "0",
	.try_hint = "tunetop set irq/N/affinity=0 for device IRQs on isolated CPUs.",
	.shell = "echo {v:0} > /proc/irq/{1:24}/smp_affinity_list",
	.traps = "Managed interrupts (multi-queue NVMe, virtio, NIC vectors set up with "
		 "PCI_IRQ_AFFINITY) refuse with EIO: the kernel owns them. Use the isolcpus="
		 "managed_irq,... boot parameter instead.\n"
		 "EINVAL when the mask holds no online CPU; x86 can refuse when the target CPU has "
		 "no free vectors.\n"
		 "Per-CPU interrupts (local timer, IPIs, arm PMU) have no movable /proc/irq entry.\n"
		 "Newer kernels create smp_affinity_list read-only for interrupts they will not "
		 "move; older ones only answer the write (EIO). An interrupt that does not fire "
		 "now still lands on an isolated CPU in its mask when it does.\n"
		 "irqbalance rewrites masks every few seconds: stop it or ban CPUs with "
		 "IRQBALANCE_BANNED_CPULIST.\n"
		 "Show effective_affinity, not the requested mask: x86 delivers to one CPU of it.",
	.see = "irq.rate system.isolcpus softirq.rate",
},
{
	.key = "thread/*/affinity", .knob = true,
	.aliases = "process/*/affinity taskset sched_setaffinity affinity pinning",
	.title = "Thread CPU affinity (pinning)",
	.what = "The set of CPUs the scheduler may run a thread on (sched_setaffinity, per "
		"thread id).",
	.files = { "proc/{1:TID}/status", "proc/{1:TID}/sched" },
	.units = "a CPU list",
	.why = "A pinned thread keeps its caches warm and never waits for a migration. TI "
	       "AM5729 (2x Cortex-A15, PREEMPT_RT, isolcpus=1): no difference when idle, but "
	       "under stress-ng load the cyclictest maximum latency fell by ~33% with the "
	       "process pinned to the isolated core. Isolation alone cut latency ~40% in a 5G "
	       "edge deployment.",
	.try_value = "4",
	.try_hint = "Threads screen: a (affinity) on the latency thread; pin it to an isolated "
		    "CPU of the cluster that is clocked up.",
	.shell = "taskset -pc {v:4} {1:TID}",
	.traps = "taskset -p acts on one thread id; use -a (or tunetop process/PID/affinity) for "
		 "every thread of a process.\n"
		 "Pinning onto a CPU that also takes device interrupts or runs other work just moves "
		 "the interference: isolate the CPU too (isolcpus, irq affinity).\n"
		 "Threads created later inherit the creator's mask, not the process's.",
	.see = "thread.migrations_per_s system.isolcpus irq/*/affinity counters.cache_misses",
},
{
	.key = "thread/*/policy", .knob = true,
	.aliases = "process/*/policy chrt sched_setscheduler fifo rr SCHED_FIFO priority "
		   "thread/*/nice nice",
	.title = "Thread scheduling policy and priority",
	.what = "SCHED_OTHER (CFS/EEVDF, nice -20..19), SCHED_FIFO / SCHED_RR (real-time, "
		"priority 1..99, always before normal tasks), SCHED_BATCH, SCHED_IDLE, "
		"SCHED_DEADLINE.",
	.files = { "proc/{1:TID}/stat", "proc/{1:TID}/sched" },
	.units = "policy:priority (other | fifo:N | rr:N | batch | idle)",
	.why = "An RT thread preempts every normal thread on its CPU at once. Make only the truly "
	       "time-critical threads RT: the B4860 base station ran the Ethernet IRQ thread at "
	       "FIFO 99, the L2 thread at FIFO 98 and the rest as CFS with nice -10/-5/0, and "
	       "went from 300/45 us (PREEMPT_RT default, max/mean) to 35/12 us.",
	.try_value = "fifo:80",
	.try_hint = "Threads screen: P (policy) on the latency thread.",
	.shell = "chrt -f -p {v:80} {1:TID}",
	.traps = "Too many RT threads (or one that spins) run into RT throttling: see "
		 "sched/rt_runtime_us.\n"
		 "Unprivileged users may only go up to RLIMIT_RTPRIO; with CONFIG_RT_GROUP_SCHED a "
		 "cgroup with cpu.rt_runtime_us=0 refuses RT with EPERM even for root.\n"
		 "chrt -p acts on one thread id, and nice changes only that thread on Linux; with "
		 "autogroup nice only competes inside the session.\n"
		 "An RT thread still pays the governor's ramp-up and the idle exit latency of its "
		 "CPU: RT priority is necessary, not sufficient.",
	.see = "sched/rt_runtime_us rt.throttled thread/*/affinity thread.vmlck_kb",
},
{
	.key = "thread/*/uclamp_min", .knob = true,
	.aliases = "thread/*/uclamp_max process/*/uclamp_min uclamp util_min sched_util_clamp_min",
	.title = "Per-thread utilisation clamp (uclamp)",
	.what = "sched_setattr(SCHED_FLAG_UTIL_CLAMP_MIN/MAX) tells the scheduler to treat the "
		"thread as at least (at most) this busy, 0-1024; schedutil then picks the "
		"frequency from the clamped utilisation.",
	.files = { "proc/sys/kernel/sched_util_clamp_min", "proc/sys/kernel/sched_util_clamp_max",
		   CPUFREQ "/*/scaling_governor" },
	.units = "0-1024 (1024 = the biggest CPU at its top OPP)",
	.why = "On mainline kernels with schedutil it is the fine-grained alternative to locking "
	       "the whole cluster: only the latency thread's presence raises the clock.",
	.try_value = "512",
	.try_hint = "Threads screen: c (uclamp), then watch the cluster's frequency - only "
		    "schedutil honours it.",
	.shell = "python3 -c 'import ctypes,struct; a=struct.pack(\"IIQiIQQQII\",56,0,0x18|0x20,0,0,"
		 "0,0,0,{v:512},1024); print(ctypes.CDLL(None).syscall(274, {1:TID}, a, 0))'  "
		 "# aarch64 syscall 274; x86_64 314",
	.traps = "Ignored by every governor but schedutil: on the RK3588 BSP (interactive) "
		 "sched_setattr with util_min=512 succeeded, yet the big cluster fell to 408 MHz "
		 "between inferences - the vendor frequency logic bypasses the clamp path. Verify by "
		 "sampling the real frequency.\n"
		 "EOPNOTSUPP without CONFIG_UCLAMP_TASK (getattr then reports 0/0, not 0/1024).\n"
		 "The effective clamp is further limited by sched_util_clamp_min/max and the "
		 "cgroup's cpu.uclamp.*.\n"
		 "glibc up to 2.40 has no sched_setattr wrapper: use syscall(2) (aarch64 274, "
		 "x86_64 314, arm 380).",
	.see = "cpufreq/*/governor cpu.freq_khz",
},
/* ---- metrics: CPU ---------------------------------------------------------------------- */
{
	.key = "cpu.freq_khz",
	.shell = "grep . /sys/devices/system/cpu/cpufreq/policy*/scaling_cur_freq",
	.aliases = "freq_khz cur_khz scaling_cur_freq cpuinfo_cur_freq frequency policy.cur_khz",
	.title = "Current CPU frequency",
	.what = "The clock of the policy each CPU belongs to, from scaling_cur_freq.",
	.files = { CPUFREQ "/*/scaling_cur_freq", CPUFREQ "/*/cpuinfo_cur_freq",
		   "sys/kernel/debug/clk/scmi_clk_cpub01/clk_rate" },
	.units = "kHz (shown as MHz)",
	.why = "The first thing to sample when latency moves: the RK3588 NPU case was diagnosed "
	       "by reading scaling_governor / scaling_cur_freq every 0.3 s and seeing every CPU "
	       "pinned at 408 MHz.",
	.try_hint = "If the latency cluster sits at its lowest OPP while the thread works, see "
		    "cpufreq/*/governor (F3 Cores: g).",
	.traps = "scaling_cur_freq is the last requested value (on x86 an APERF/MPERF average), "
		 "not a measurement; cpuinfo_cur_freq is the hardware value but root-only and often "
		 "absent.\n"
		 "A once-a-second sample misses short bursts; time_in_state gives the distribution.",
	.see = "cpufreq/*/governor policy.time_in_state_pct",
},
{
	.key = "cpu.util_pct",
	.shell = "mpstat -P ALL 1   # or read /proc/stat twice and subtract",
	.aliases = "util_pct busy_pct utilisation utilization /proc/stat iowait_pct",
	.title = "CPU utilisation (busy share of the interval)",
	.what = "From /proc/stat: user, system, irq, softirq, iowait, steal and idle time of each "
		"CPU over the interval; busy = 100 - idle - iowait.",
	.files = { "proc/stat" },
	.units = "percent of the interval",
	.why = "What dynamic governors react to. A thread blocked in a device ioctl does not count "
	       "as busy (nor as iowait), so a latency-critical CPU can look ~10% busy and be "
	       "clocked down (RK3588 NPU: 408 MHz).",
	.try_hint = "Low utilisation with a latency-critical thread on the CPU is the collapse "
		    "signature: see cpufreq/*/governor.",
	.traps = "Counters are in USER_HZ ticks (10 ms): short intervals are noisy.\n"
		 "irq and softirq time are only accounted with CONFIG_IRQ_TIME_ACCOUNTING.",
	.see = "cpufreq/*/governor cpu.freq_khz",
},
{
	.key = "policy.time_in_state_pct",
	.shell = "cat /sys/devices/system/cpu/cpufreq/{1:policy4}/stats/time_in_state /sys/devices/system/cpu/cpufreq/{1:policy4}/stats/total_trans",
	.aliases = "time_in_state transitions_per_s policy.transitions_per_s total_trans "
		   "trans_table switches",
	.title = "Residency per OPP and frequency switches per second",
	.what = "stats/time_in_state (time at each OPP, in 10 ms units) and stats/total_trans "
		"(number of switches), as percent of the interval and as a rate.",
	.files = { CPUFREQ "/*/stats/time_in_state", CPUFREQ "/*/stats/total_trans",
		   CPUFREQ "/*/stats/trans_table" },
	.units = "percent; switches per second",
	.why = "Shows collapse (most time at the lowest OPP) and how busy the governor is: "
	       "switches per second is what schedutil's rate_limit_us trades (200 us: 48/s, "
	       "1000 us: 22/s, 5000 us: 8/s on a Cortex-A72).",
	.try_hint = "Compare before and after a governor change (tunetop ab).",
	.traps = "stats/ exists only with a frequency table (intel_pstate has none).\n"
		 "time_in_state is clock_t (USER_HZ = 100), not milliseconds.",
	.see = "cpufreq/*/schedutil/rate_limit_us cpu.freq_khz",
},
{
	.key = "tunetop.self",
	.shell = "taskset -p $(pidof tunetop); ps -o ni,cls -p $(pidof tunetop)",
	.aliases = "self self_cpus self_nice --self-cpus --self-nice placement observer",
	.title = "Where tunetop itself runs",
	.what = "The monitor's own threads (sampler, UI, A/B controller) run on the housekeeping "
		"CPUs: online minus isolated (isolcpus=) minus nohz_full, and minus the CPUs a "
		"running probe or A/B measures when one is left; at SCHED_OTHER, nice 10, never "
		"RT. The probe's threads go where the user asks. The TUI header shows it as "
		"'self CPUS nNICE'.",
	.files = { CPU "/online", CPU "/isolated", CPU "/nohz_full" },
	.units = "a CPU list; a nice value",
	.why = "A monitor is a process like any other: its sampling and drawing run wherever the "
	       "scheduler puts them, the CPU under study included, and add their own wake-ups "
	       "to the jitter being measured (milliseconds on the worst case of a 1 kHz "
	       "cyclictest, for htop and tunetop alike, when they share its CPU).",
	.try_hint = "--self-cpus LIST (tunetoprc self_cpus=) to choose the CPUs, --self-nice N "
		    "(self_nice=, $TUNETOP_SELF_NICE) for the nice value.",
	.traps = "Lowering the nice value below the current one needs CAP_SYS_NICE or "
		 "RLIMIT_NICE: unprivileged, --self-nice 0 after nice 10 fails (said once).\n"
		 "On a machine with nothing isolated the housekeeping CPUs are all of them.",
	.see = "probe.latency_us system.isolcpus",
},
{
	.key = "cpuidle.residency_pct",
	.shell = "grep . /sys/devices/system/cpu/cpu{1:4}/cpuidle/state*/{name,time,usage}",
	.aliases = "residency_pct entries_per_s cpuidle.entries_per_s idle residency usage time",
	.title = "Idle-state residency and entries per second",
	.what = "stateK/time and stateK/usage of each CPU over the interval: the share of time "
		"in each idle state and how often it was entered. The kernel adds a stay to time "
		"(and to usage) only when the CPU leaves the state, so a CPU asleep through most "
		"of the interval would show far too little. tunetop takes the CPU's idle time "
		"from /proc/stat, which includes the idle period in progress, and credits the "
		"difference to the state the CPU is in (the deepest entered in the interval; "
		"before any entry, the one seen last or the deepest enabled); when the states "
		"counted more than that idle time (a stay that began before the interval), the "
		"excess is taken from the largest shares.",
	.files = { CPU "/cpu*/cpuidle/state*/time", CPU "/cpu*/cpuidle/state*/usage" },
	.units = "percent of the interval; entries per second",
	.why = "Every entry into a deep state is an exit latency paid at the next wake-up: a CPU "
	       "that enters cpu-sleep 500 times a second pays 220 us up to 500 times.",
	.try_hint = "Disable the deep state on the latency CPUs (F3 Cores: i) and watch residency "
		    "move to the shallow one.",
	.traps = "time is measured by the kernel and may overstate the hardware residency.\n"
		 "A disabled state stops accumulating; an offline CPU has no states (n/a, not 0).\n"
		 "A single sample, or a tree whose counters did not move (a capture, a fixture), "
		 "has no rates: n/a, not 0.\n"
		 "/proc/stat counts in 10 ms ticks: over a 1 s interval the credited stay is "
		 "good to about 1 %.",
	.see = "cpuidle/*/*/disable cpuidle.latency_us cpuidle.above_per_s",
},
{
	.key = "cpuidle.latency_us",
	.shell = "grep . /sys/devices/system/cpu/cpu{1:0}/cpuidle/state*/{name,latency,residency}",
	.aliases = "latency_us exit_latency cpuidle.residency_us target_residency",
	.title = "Idle-state exit latency and target residency",
	.what = "stateK/latency: worst-case time to leave the state (device-tree states: entry + "
		"exit latency); stateK/residency: the minimum stay that makes entering worth it.",
	.files = { CPU "/cpu*/cpuidle/state*/latency", CPU "/cpu*/cpuidle/state*/residency",
		   CPU "/cpu*/cpuidle/state*/name" },
	.units = "microseconds",
	.why = "The price of a wake-up from that state: RK3588 cpu-sleep 220 us (100 + 120), "
	       "Intel C6 ~170 us (Ice Lake-SP; Skylake-SP 133 us), STM32MP1 CStop 620 us, ARM "
	       "WFI 1 us. Anything above your latency budget should not be enabled on CPUs that "
	       "host the latency path.",
	.try_hint = "Findings flag enabled states above the latency budget (default 100 us).",
	.traps = "The number is what the driver declares, not a measurement: measure with the "
		 "probe.\n"
		 "Disabling is per CPU.",
	.see = "cpuidle/*/*/disable pmqos/cpu_dma_latency_us probe.latency_us",
},
{
	.key = "cpuidle.above_per_s",
	.shell = "grep . /sys/devices/system/cpu/cpu{1:0}/cpuidle/state*/{name,above,below}",
	.aliases = "above below below_per_s cpuidle.below_per_s misprediction",
	.title = "Idle governor mispredictions (above / below)",
	.what = "above: the state was too deep for the actual idle time; below: a deeper state "
		"would have fit. Per second over the interval.",
	.files = { CPU "/cpu*/cpuidle/state*/above", CPU "/cpu*/cpuidle/state*/below" },
	.units = "events per second",
	.why = "Many 'above' on a deep state means the CPU pays its exit latency for idle periods "
	       "that were too short to save anything: pure jitter.",
	.try_hint = "Disable the state on those CPUs or hold a PM QoS limit.",
	.traps = "Counted by the cpuidle core for every governor (cpuidle_enter_state, "
		 "drivers/cpuidle/cpuidle.c), not by the governor: menu, teo, ladder and "
		 "haltpoll all show them. Absent before Linux 5.1 (doc/kernel-sources.md).",
	.see = "cpuidle.residency_pct cpuidle/*/*/disable",
},
/* ---- metrics: devices ------------------------------------------------------------------ */
{
	.key = "devfreq.cur_hz",
	.shell = "grep . /sys/class/devfreq/*/cur_freq; cat /sys/class/devfreq/{1:dmc}/trans_stat",
	.aliases = "cur_hz cur_freq target_freq trans_stat devfreq.time_in_state_pct clk_rate "
		   "scmi_clk_npu",
	.title = "devfreq current frequency and residency",
	.what = "cur_freq (what the device runs at), target_freq (what the governor asked), and "
		"trans_stat (time per OPP, '*' on the current one).",
	.files = { "sys/class/devfreq/*/cur_freq", "sys/class/devfreq/*/trans_stat",
		   "sys/kernel/debug/clk/scmi_clk_npu/clk_rate" },
	.units = "Hz (shown as MHz)",
	.why = "The accelerator and the memory feeding it each have a clock; latency follows the "
	       "slower one (RK3588: NPU at 1 GHz, DDR at 528 MHz = starved).",
	.try_hint = "F4 Clocks shows both; lock the one that sits low while the device works.",
	.traps = "Hz, not kHz.\n"
		 "trans_stat 'Not Supported.' on some drivers; the header numbers run together "
		 "(10-digit columns with no separator).",
	.see = "devfreq/*/governor devfreq/dmc/governor devfreq.load",
},
{
	.key = "devfreq.load",
	.shell = "grep . /sys/class/devfreq/*/load",
	.aliases = "load npu_load busy npu.busy",
	.title = "Rockchip devfreq load (busy%@Hz)",
	.what = "The BSP's load file of the GPU and NPU devfreq devices: \"47@200000000Hz\" = 47% "
		"busy at 200 MHz over the last polling interval.",
	.files = { "sys/class/devfreq/*/load" },
	.units = "percent @ Hz",
	.why = "The only cheap sign that the NPU is working: findings use it to tell that a low "
	       "DDR or NPU clock is starving real work.",
	.try_hint = "While load is high, the NPU and dmc should be at their top OPPs.",
	.traps = "Rockchip BSP only; absent on mainline.",
	.see = "devfreq.cur_hz devfreq/dmc/governor",
},
{
	.key = "accel.load",
	.shell = "sudo cat /sys/kernel/debug/rknpu/load /sys/kernel/debug/rknpu/version; "
		 "grep . /sys/class/devfreq/*/load /sys/class/drm/card*/device/gpu_busy_percent",
	.aliases = "rknpu rknpu/load rknpu.load npu.load_pct accel accelerator "
		   "gpu_busy_percent driver_version",
	.title = "Accelerator load per core and driver version (rknpu, devfreq, DRM)",
	.what = "Rockchip's rknpu driver prints the NPU's busy share per core in debugfs "
		"(RK3588: \"NPU load:  Core0:  0%, Core1:  0%, Core2:  0%,\"; one core on "
		"RK3566/RK3568: \"NPU load:  37%\") and its version in rknpu/version (else "
		"/sys/module/rknpu/version). Generic fallbacks, in this order: the devfreq "
		"\"load\" file of NPU/GPU devices (busy%@Hz, Rockchip BSP) and the DRM "
		"gpu_busy_percent (amdgpu). Mainline accel drivers (/dev/accel) export no load.",
	.files = { "sys/kernel/debug/rknpu/load", "sys/kernel/debug/rknpu/version",
		   "sys/module/rknpu/version", "sys/class/devfreq/*/load",
		   "sys/class/drm/*/device/gpu_busy_percent" },
	.units = "percent per core",
	.why = "Whether the accelerator is busy or waiting on the CPU side: an NPU at 30-40% "
	       "per core while rknn_run takes 97 ms (RK3588, CPUs collapsed to 408 MHz) is fed "
	       "too slowly, not too slow itself.",
	.try_hint = "F4 Clocks shows it next to the NPU clock; F7 Threads' Wait column shows "
		    "who is blocked in the NPU ioctl.",
	.traps = "debugfs needs root (and no lockdown); the load is averaged by the driver "
		 "over its own window, not tunetop's interval.\n"
		 "A driver version mismatch with the user-space runtime (librknnrt) refuses "
		 "models or runs them on fewer cores: compare the version with the runtime's.",
	.see = "devfreq.load devfreq/*/governor thread.wait npu.wait_low_opp",
},
{
	.key = "power.watts",
	.shell = "grep . /sys/class/hwmon/*/power*_input /sys/class/hwmon/*/energy*_input "
		 "/sys/class/powercap/intel-rapl:*/energy_uj",
	.aliases = "power watts energy_uj power_input energy_input rapl intel-rapl powercap "
		   "ina226 ina2xx ina219 scmi hwmon.power",
	.title = "Power in watts: hwmon power/energy sensors and RAPL",
	.what = "hwmon power*_input (microwatts, instant: ina2xx shunt monitors, SCMI sensors) "
		"and energy*_input (microjoules, a counter), each with its *_label; on x86 the "
		"powercap RAPL zones' energy_uj (package, core, uncore, dram). Counters become "
		"watts over the interval between two samples; RAPL wraps at "
		"max_energy_range_uj.",
	.files = { "sys/class/hwmon/*/power*_input", "sys/class/hwmon/*/energy*_input",
		   "sys/class/hwmon/*/power*_label", "sys/class/powercap/*/energy_uj",
		   "sys/class/powercap/*/max_energy_range_uj" },
	.units = "W (files: uW, uJ)",
	.why = "Every lock (performance governor, idle states off, DDR at its top OPP) buys "
	       "latency with power and heat: the RK3588 full lock (step D) needed active "
	       "cooling. A/B shows mean watts per arm next to the latency so the cost is seen "
	       "with the benefit.",
	.try_hint = "F4 Clocks: the Power lines; tunetop ab shows watts per arm.",
	.traps = "RAPL energy_uj is root-only since Linux 5.10 (the Platypus side channel): n/a "
		 "without root.\n"
		 "RAPL subzones (core, uncore) are inside the package: do not add them to it.\n"
		 "A counter that goes back without a known range (a driver reset) gives n/a for "
		 "that interval, never a negative power.\n"
		 "Many ARM boards have no power sensor at all: measure at the supply.",
	.see = "thermal.cooling_state",
},
{
	.key = "thread.wait",
	.shell = "cat /proc/PID/task/TID/wchan /proc/PID/task/TID/syscall; "
		 "ls -l /proc/PID/fd/FD",
	.aliases = "wchan syscall wait ioctl /dev/rknpu /dev/accel galcore mali0 renderD128",
	.title = "What a thread waits on: wait channel, syscall, accelerator ioctl",
	.what = "wchan is the kernel function a sleeping thread waits in; syscall's first "
		"field is the system call it is in (-1 outside one, \"running\" on a CPU). For "
		"the ioctl (29 on arm64/riscv, 16 on x86_64, 54 on arm) the second field is the "
		"fd, and /proc/PID/fd/FD names the device: /dev/rknpu, /dev/accel/accelN, "
		"/dev/galcore are marked NPU, /dev/mali0 and /dev/dri/renderD* GPU.",
	.files = { "proc/*/task/*/wchan", "proc/*/task/*/syscall", "proc/*/fd/*" },
	.units = "a kernel function name; a syscall number",
	.why = "A thread blocked in the NPU ioctl looks idle to the CPU governor: its CPU "
	       "clocks down while the accelerator works, and the CPU-side work between "
	       "inferences runs at the lowest OPP (governor collapse).",
	.try_hint = "F7 Threads: the Wait column; read slowly (rows on screen every read, the "
		    "others in rotation).",
	.traps = "wchan and syscall of another user's thread need ptrace access "
		 "(root): they read 0 / n/a otherwise.\n"
		 "Some kernels (CONFIG_KALLSYMS off) print only addresses or 0.",
	.see = "npu.wait_low_opp accel.load cpufreq/*/governor",
},
{
	.key = "npu.wait_low_opp",
	.shell = "grep . /sys/devices/system/cpu/cpufreq/policy*/scaling_{cur,min}_freq; "
		 "ls -l /proc/*/fd 2>/dev/null | grep -E 'rknpu|accel|galcore|mali0|renderD'",
	.aliases = "npu_wait_low_opp inference_low_opp accel_wait",
	.title = "The inference thread sleeps in the NPU ioctl while its CPU policy sits at the "
		 "lowest OPP",
	.what = "A thread blocked in an ioctl on an accelerator node (/dev/rknpu, /dev/accel/*, "
		"/dev/galcore, /dev/mali0, /dev/dri/renderD*) whose last CPU's cpufreq policy "
		"runs at its minimum (scaling_cur_freq == scaling_min_freq, or the lowest OPP).",
	.files = { "proc/*/task/*/syscall", "proc/*/fd/*",
		   "sys/devices/system/cpu/cpufreq/*/scaling_cur_freq",
		   "sys/devices/system/cpu/cpufreq/*/scaling_min_freq" },
	.units = "kHz",
	.why = "While the NPU computes, the submitting thread sleeps and its CPU looks idle, "
	       "so the governor drops it to the lowest OPP; the pre/post-processing, IRQ "
	       "handling and DMA set-up around each inference then run slowly. RK3588 (6.1 "
	       "BSP, interactive, 408 MHz): YOLOv8s rknn_run 97 ms mean with a 79-128 ms "
	       "spread quiet vs 48 ms inside the busy pipeline; big cores on performance "
	       "brought it to ~33.8 ms.",
	.try_value = "performance",
	.try_hint = "Lock the policy of the inference thread's CPUs (F3 Cores: g -> "
		    "performance, or f -> a min frequency), or under schedutil give the thread "
		    "uclamp_min (F7 Threads: c).",
	.traps = "uclamp acts only through schedutil: under interactive util_min=512 is "
		 "accepted and the CPU stays at 408 MHz.\n"
		 "Moving the thread to a locked cluster works only if it stays there: pin it.",
	.see = "thread.wait accel.load cpufreq/*/governor thread/*/uclamp_min",
},
/* ---- metrics: RT, thermal, interrupts ------------------------------------------------ */
{
	.key = "rt.throttled",
	.shell = "sudo grep -A5 '^rt_rq\\[' /sys/kernel/debug/sched/debug",
	.aliases = "rt_throttled rt.rt_time_ms rt_time rt.throttle_events sched_debug",
	.title = "Per-CPU RT throttling state (rt_throttled, rt_time)",
	.what = "From the scheduler debug file: for each CPU's rt_rq, whether RT tasks are "
		"throttled right now and how much RT time was charged in the current period.",
	.files = { "sys/kernel/debug/sched/debug", "proc/sched_debug" },
	.units = "0/1; milliseconds of the period",
	.why = "rt_throttled=1 means every RT task on that CPU is stopped until the period ends. "
	       "rt_time near rt_runtime (950 ms of 1000 ms by default) means the next burst will "
	       "be throttled.",
	.try_hint = "F5 RT shows it live; see sched/rt_runtime_us for the window.",
	.traps = "/proc/sched_debug moved to /sys/kernel/debug/sched/debug in 5.13: root, debugfs "
		 "mounted, and kernel lockdown may refuse it.\n"
		 "rt_time is a level (it resets each period), not a counter: poll it.\n"
		 "Newer kernels print rt_throttled / rt_time only with CONFIG_RT_GROUP_SCHED (the "
		 "fair server replaces the default throttling from 6.12).",
	.see = "sched/rt_runtime_us rt.fair_server",
},
{
	.key = "rt.fair_server",
	.shell = "sudo grep . /sys/kernel/debug/sched/fair_server/cpu*/{runtime,period}",
	.aliases = "fair_server dl_server",
	.title = "The 6.12+ deadline fair server",
	.what = "A per-CPU SCHED_DEADLINE server that guarantees CFS tasks runtime/period even "
		"under RT load (default 50 ms per 1 s).",
	.files = { "sys/kernel/debug/sched/fair_server/cpu*/runtime",
		   "sys/kernel/debug/sched/fair_server/cpu*/period" },
	.units = "nanoseconds",
	.why = "Replaces RT throttling as starvation protection: RT tasks run unthrottled while no "
	       "CFS task waits, so sched_rt_runtime_us=-1 no longer means 'RT may starve "
	       "everything'.",
	.try_hint = "Leave it on; runtime 0 disables it (the kernel warns it may crash).",
	.traps = "EINVAL if runtime > period, period < 100 us or > ~4 s; EBUSY if DL admission "
		 "fails.\n"
		 "Lockdown: EPERM even as root.",
	.see = "sched/rt_runtime_us rt.throttled",
},
{
	.key = "thermal.temp_mc",
	.shell = "grep . /sys/class/thermal/thermal_zone*/{type,temp}",
	.aliases = "temp_mc temperature thermal zone trip",
	.title = "Thermal zone temperature",
	.what = "Each thermal zone's temperature and trip points (passive = start throttling, "
		"critical = shut down).",
	.files = { "sys/class/thermal/thermal_zone*/temp", "sys/class/thermal/thermal_zone*/type",
		   "sys/class/thermal/thermal_zone*/trip_point_0_temp" },
	.units = "millidegrees Celsius (shown as C)",
	.why = "Every lock costs heat: on the RK3588 all-performance (step B) ran hot and the "
	       "full lock (step D) needed active cooling. Past the passive trip the thermal "
	       "governor caps clocks and undoes the tuning.",
	.try_hint = "Watch the zone of the latency cluster during a long A/B run.",
	.traps = "Temperatures may be negative: n/a is a flag, never a magic value.",
	.see = "thermal.cooling_state",
},
{
	.key = "thermal.cooling_state",
	.shell = "grep . /sys/class/thermal/cooling_device*/{type,cur_state,max_state}",
	.aliases = "cooling cooling_device cur_state throttled thermal_throttled",
	.title = "Cooling devices (thermal throttling)",
	.what = "cooling_deviceN/cur_state > 0 means the thermal framework is actively limiting "
		"something: cpufreq-cpuN caps that policy's maximum frequency, devfreq-X caps a "
		"device, a fan spins up.",
	.files = { "sys/class/thermal/cooling_device*/type",
		   "sys/class/thermal/cooling_device*/cur_state",
		   "sys/class/thermal/cooling_device*/max_state" },
	.units = "state 0..max_state",
	.why = "Thermal throttling overrides governors and locks: a performance governor or a "
	       "min=max lock still runs slower while a cpufreq cooling device is active, and "
	       "nothing in scaling_governor says so.",
	.try_hint = "Improve cooling (heatsink, fan) or relax the lock on clusters that do not "
		    "need it (RK3588 step C: big cores only, warm instead of hot).",
	.traps = "The cap shows up only as a lower effective scaling_max_freq / cur_freq; "
		 "tunetop marks what an active cooling device caps with CAPPED (Cores policy "
		 "line, Clocks row, text report) and \"thermal_capped\": true in the JSON.",
	.see = "cpufreq/*/lock_khz thermal.temp_mc",
},
{
	.key = "irq.rate",
	.shell = "watch -d -n1 cat /proc/interrupts",
	.aliases = "interrupts irq.count /proc/interrupts irq ipi mailbox",
	.title = "Interrupts per second per CPU",
	.what = "Deltas of /proc/interrupts per CPU: device IRQs, local timer, IPIs.",
	.files = { "proc/interrupts", "proc/irq/*/effective_affinity_list" },
	.units = "interrupts per second",
	.why = "Each interrupt preempts the running thread; on an isolated CPU anything but the "
	       "latency thread's own device IRQ is interference. On the STM32MP157 OpenAMP "
	       "gateway the mailbox IPI rate was the thing to watch (hundreds of tiny messages "
	       "per second each cost a frame and an interrupt; batching cut frames by 85%).",
	.try_hint = "Move device IRQs away from the latency CPUs (irq/N/affinity).",
	.traps = "Columns are online CPUs only (map by the CPUn header); counts wrap at 2^32.\n"
		 "ERR and MIS carry a single total.",
	.see = "irq/*/affinity softirq.rate system.isolcpus",
},
{
	.key = "softirq.rate",
	.shell = "watch -d -n1 cat /proc/softirqs",
	.aliases = "softirqs NET_RX TIMER RCU softirq",
	.title = "Softirqs per second per CPU",
	.what = "Deltas of /proc/softirqs: deferred interrupt work (NET_RX, TIMER, RCU, SCHED...) "
		"run after hard IRQs or in ksoftirqd.",
	.files = { "proc/softirqs" },
	.units = "events per second",
	.why = "Softirq work runs on the CPU that took the interrupt, before the woken thread; "
	       "on PREEMPT_RT it runs in threads that have priorities of their own. OpenAMP: "
	       "going interrupt-driven instead of polling the vring cut softirqs by 90% and CPU "
	       "by 35%.",
	.try_hint = "Follow the IRQs that raise them (irq/N/affinity); rcu_nocbs moves RCU "
		    "callbacks off isolated CPUs.",
	.traps = "Counts are per CPU and also wrap at 2^32.",
	.see = "irq.rate system.isolcpus",
},
{
	.key = "system.isolcpus",
	.aliases = "isolcpus nohz_full rcu_nocbs irqaffinity cmdline isolated system.cmdline "
		   "isolation housekeeping",
	.title = "CPU isolation boot parameters (isolcpus, nohz_full, rcu_nocbs, irqaffinity)",
	.what = "isolcpus= removes CPUs from the scheduler's load balancing (only pinned threads "
		"run there); nohz_full= stops the tick when one task runs; rcu_nocbs= moves RCU "
		"callbacks to other CPUs; irqaffinity= sets the default IRQ mask.",
	.files = { "proc/cmdline", CPU "/isolated", CPU "/nohz_full",
		   "proc/irq/default_smp_affinity" },
	.units = "CPU lists on the kernel command line",
	.why = "Isolation gives the latency thread a CPU nobody else uses: AM5729 isolcpus=1 + "
	       "pinning cut the maximum latency under load by ~33%; B4860 used isolcpus=1-3 "
	       "rcu_nocbs=1-3 nohz_full=1-3 with network IRQs on CPU 0 (tuned 35/12 us "
	       "max/mean); isolation alone cut latency ~40% in a 5G edge deployment.",
	.try_hint = "Boot parameters: edit the bootloader (extlinux.conf, cmdline.txt, GRUB) and "
		    "reboot; then pin the latency thread (thread/TID/affinity) and move IRQs "
		    "(irq/N/affinity). tunetop shows what is in effect.",
	.shell = "cat /proc/cmdline /sys/devices/system/cpu/isolated /sys/devices/system/cpu/nohz_full",
	.traps = "isolcpus also disables load balancing: threads you pin there stay there even "
		 "when several share a CPU.\n"
		 "Device IRQs still land on isolated CPUs unless irqaffinity= / managed_irq or "
		 "per-IRQ affinity moves them; managed IRQs need isolcpus=managed_irq,...\n"
		 "nohz_full only stops the tick while exactly one task runs, and keeps one "
		 "housekeeping CPU busier.\n"
		 "Not changeable at run time (cpusets can partition, but that is another tool).",
	.see = "irq/*/affinity thread/*/affinity irq.rate",
},
/* ---- metrics: threads ------------------------------------------------------------------ */
{
	.key = "thread.migrations_per_s",
	.shell = "grep nr_migrations /proc/{1:PID}/task/*/sched",
	.aliases = "migrations nr_migrations se.nr_migrations migrations_per_s",
	.title = "Thread migrations per second",
	.what = "se.nr_migrations from /proc/PID/task/TID/sched over the interval: how often the "
		"scheduler moved the thread to another CPU.",
	.files = { "proc/PID/task/TID/sched" },
	.units = "migrations per second",
	.why = "A migration leaves the thread's cache lines behind (cold L1/L2, maybe another "
	       "cluster's L3 slice) and waits for the target CPU. AM5729: pinning to the isolated "
	       "core cut the maximum latency under load by ~33% (cache locality, no migrations).",
	.try_hint = "Pin the thread (Threads screen: a; thread/TID/affinity) to one CPU of the "
		    "clocked-up cluster.",
	.traps = "/proc/PID/task/TID/sched needs CONFIG_SCHED_DEBUG.\n"
		 "A migration between cores of one cluster is cheaper than across clusters.",
	.see = "thread/*/affinity counters.cache_misses",
},
{
	.key = "thread.vmlck_kb",
	.shell = "grep VmLck /proc/{1:PID}/status",
	.aliases = "vmlck mlock mlockall locked memory VmLck page_fault",
	.title = "Locked memory of an RT process (mlockall)",
	.what = "VmLck from /proc/PID/status: how much of the process's memory is locked in RAM.",
	.files = { "proc/PID/status" },
	.units = "kB",
	.why = "An RT thread that takes a page fault (swap-in, first touch, page-cache reclaim) "
	       "waits milliseconds. mlockall(MCL_CURRENT|MCL_FUTURE) at start-up plus "
	       "pre-touching the stack and buffers removes that; B4860: mlockall with THP never.",
	.try_hint = "Add mlockall() to the application (no sysfs knob can do it for a running "
		    "process); tunetop probe does it for its own threads.",
	.traps = "mlock needs RLIMIT_MEMLOCK (ulimit -l) or CAP_IPC_LOCK.\n"
		 "Locked but untouched pages still fault once: pre-fault them.",
	.see = "mm/thp thread/*/policy",
},
/* ---- metrics: system, probe, counters -------------------------------------------------- */
{
	.key = "system.preempt",
	.shell = "uname -v; cat /sys/kernel/realtime 2>/dev/null",
	.aliases = "preempt PREEMPT_RT preempt_rt preemption kernel rt-kernel",
	.title = "Kernel preemption model",
	.what = "How far the kernel can be interrupted by a higher-priority task: NONE, VOLUNTARY, "
		"PREEMPT (full), PREEMPT_DYNAMIC (chosen at boot with preempt=), PREEMPT_RT "
		"(threaded interrupts, sleeping spinlocks).",
	.files = { "proc/version", "sys/kernel/realtime", "sys/kernel/debug/sched/preempt" },
	.units = "a model name",
	.why = "It bounds the worst case: B4860 LTE L2 (every 1 ms, budget 50 us): default CFS "
	       "max 1200 / mean 350 us, PREEMPT_RT default 300 / 45 us, PREEMPT_RT tuned 35 / 12 us "
	       "(78% of samples under 10 us). Tuning clocks cannot fix a non-preemptible kernel "
	       "section.",
	.try_hint = "If the probe shows deadline misses that no knob removes, boot a PREEMPT_RT "
		    "kernel (or preempt=full on PREEMPT_DYNAMIC kernels).",
	.traps = "PREEMPT_DYNAMIC kernels print PREEMPT_DYNAMIC in /proc/version; the active mode "
		 "is in debugfs sched/preempt (lockdown may refuse it).\n"
		 "RT kernels still need the other knobs: throttling, idle states, IRQ affinity.",
	.see = "probe.latency_us",
},
{
	.key = "system.kconfig",
	.shell = "zcat /proc/config.gz | grep -E 'PREEMPT|NO_HZ|RCU_NOCB|CPU_ISOLATION|^CONFIG_HZ='",
	.aliases = "kconfig kernel_config config.gz /proc/config.gz kernel-config CONFIG_HZ "
		   "CONFIG_PREEMPT_RT CONFIG_NO_HZ_FULL CONFIG_RCU_NOCB_CPU CONFIG_CPU_ISOLATION "
		   "CONFIG_RT_GROUP_SCHED CONFIG_UCLAMP_TASK CONFIG_IRQ_FORCED_THREADING "
		   "CONFIG_SCHED_DEBUG",
	.title = "Kernel build configuration (the options that decide latency)",
	.what = "The options the running kernel was built with, from /proc/config.gz "
		"(CONFIG_IKCONFIG_PROC) or /boot/config-RELEASE: the preemption model (PREEMPT_RT, "
		"PREEMPT, VOLUNTARY, NONE, PREEMPT_DYNAMIC), NO_HZ_FULL, RCU_NOCB_CPU, "
		"CPU_ISOLATION, RT_GROUP_SCHED, UCLAMP_TASK, IRQ_FORCED_THREADING, HZ, CPU_IDLE "
		"and its governors, the cpufreq governors built in (y) or as modules (m), "
		"SCHED_DEBUG.",
	.files = { "proc/config.gz", "boot/config-RELEASE", "proc/sys/kernel/osrelease" },
	.units = "y (built in), m (module), n (not set), a value (HZ), - (absent)",
	.why = "Boot parameters only work if the kernel has the code behind them: nohz_full= "
	       "needs NO_HZ_FULL, rcu_nocbs= needs RCU_NOCB_CPU, threadirqs needs "
	       "IRQ_FORCED_THREADING, isolcpus= needs CPU_ISOLATION; otherwise they are ignored "
	       "without an error. RT_GROUP_SCHED gives each cgroup its own RT budget (RT "
	       "threads in a cgroup without one fail with EPERM); HZ sets the tick period (4 ms "
	       "at 250).",
	.try_hint = "Nothing to set at run time: a missing option means another kernel build. "
		    "tunetop reads the file once at start-up.",
	.traps = "/proc/config.gz exists only with CONFIG_IKCONFIG_PROC (often a module: "
		 "modprobe configs).\n"
		 "/boot/config-RELEASE may belong to a different build of the same release (a "
		 "rebuilt kernel without a new version string): the options then do not match "
		 "what runs.\n"
		 "PREEMPT_DYNAMIC picks the model at boot (preempt=); the config only says which "
		 "is the default.",
	.see = "system.preempt system.isolcpus kconfig.cmdline",
},
{
	.key = "kconfig.cmdline",
	.shell = "cat /proc/cmdline; zcat /proc/config.gz | grep -E 'NO_HZ_FULL|RCU_NOCB_CPU|"
		 "IRQ_FORCED_THREADING|CPU_ISOLATION'",
	.aliases = "kconfig-cmdline cmdline-unsupported",
	.title = "A boot parameter the kernel was built without",
	.what = "nohz_full=, rcu_nocbs=, threadirqs or isolcpus= on /proc/cmdline while the "
		"kernel configuration says NO_HZ_FULL, RCU_NOCB_CPU, IRQ_FORCED_THREADING or "
		"CPU_ISOLATION is not set (or absent).",
	.files = { "proc/cmdline", "proc/config.gz", "boot/config-RELEASE" },
	.units = "a parameter and an option",
	.why = "The kernel accepts unknown or unsupported parameters silently: the tick keeps "
	       "running, RCU callbacks stay on the isolated CPUs, interrupt handlers stay in "
	       "hard-IRQ context. The isolation looks configured and is not.",
	.try_hint = "Boot a kernel built with the option (CONFIG_NO_HZ_FULL=y, "
		    "CONFIG_RCU_NOCB_CPU=y, ...); check /sys/devices/system/cpu/nohz_full "
		    "afterwards.",
	.traps = "A /boot config of another build gives a false alarm: compare the release in "
		 "the finding with uname -r.",
	.see = "system.kconfig system.isolcpus",
},
{
	.key = "kconfig.uclamp",
	.shell = "zcat /proc/config.gz | grep UCLAMP_TASK; uname -r",
	.aliases = "kconfig-uclamp UCLAMP_TASK",
	.title = "uclamp values on threads, but no UCLAMP_TASK in the kernel config",
	.what = "Threads carry utilisation clamps (sched_getattr) while the kernel "
		"configuration tunetop read says CONFIG_UCLAMP_TASK is not set.",
	.files = { "proc/config.gz", "boot/config-RELEASE" },
	.units = "uclamp 0..1024",
	.why = "A kernel without UCLAMP_TASK refuses sched_setattr with util clamps "
	       "(EOPNOTSUPP) and reports none; seeing them means the configuration file is not "
	       "the running kernel's, so no option read from it can be trusted.",
	.try_hint = "Use /proc/config.gz (modprobe configs) instead of a /boot file, or the "
		    "config of the kernel that runs.",
	.see = "thread/*/uclamp_min system.kconfig",
},
{
	.key = "workqueue/cpumask", .knob = true,
	.aliases = "wq-unbound-isolated workqueue cpumask unbound kworker/u "
		   "sys/devices/virtual/workqueue/cpumask",
	.title = "CPUs the unbound workqueues may run on",
	.what = "A hex CPU mask: the kworker/uN:M threads that run unbound work (writeback, "
		"crypto, many drivers) only run on these CPUs.",
	.files = { "sys/devices/virtual/workqueue/cpumask" },
	.units = "hex CPU mask (3 = CPUs 0-1)",
	.why = "By default unbound work may run anywhere, including isolated and nohz_full "
	       "CPUs, where a kworker preempts the latency thread. Limiting the mask to the "
	       "housekeeping CPUs keeps it off; per-CPU (bound) kworkers are not affected.",
	.try_hint = "tunetop set workqueue/cpumask=MASK (the finding wq-unbound-isolated gives "
		    "the mask); undo restores the old one.",
	.shell = "cat /sys/devices/virtual/workqueue/cpumask",
	.traps = "Workqueues created with WQ_SYSFS have their own cpumask under "
		 "/sys/devices/virtual/workqueue/NAME/; the global mask is a limit for all.\n"
		 "isolcpus=domain CPUs are removed from the mask by the kernel; a mask of only "
		 "those is refused (EINVAL).",
	.see = "isolation.kthreads irq/default_smp_affinity",
},
{
	.key = "sim/*/*", .knob = true,
	.aliases = "sim world switch SIMULATED-m4-firmware tunetop-world-switches",
	.title = "A SIMULATED switch of a world (only in a simulated world)",
	.what = "What changes the latency in a world made by `tunetop world NAME DIR` but has "
		"no sysfs file on the board, like the M4 firmware's build in stm32mp1-rpmsg: "
		"a file of the world's tree, declared in DIR/tunetop-world-switches.",
	.files = { "tunetop-world-switches" },
	.units = "the values the world declares (0 1, or lo..hi)",
	.why = "The field note changed it on the board (a firmware rebuild); the world's model "
	       "reads the file at each step, so the simulated latency follows it. Everything it "
	       "shows is SIMULATED.",
	.try_hint = "tunetop --root DIR set sim/m4/vring_polling=0, or ab "
		    "sim/m4/vring_polling=1,0 --metric-file with the world's log; undo restores it.",
	.shell = "cat DIR/tunetop-world-switches",
	.traps = "There is no such knob on a real machine or a plain fixture tree: set sim/... "
		 "is refused there (only in a simulated world).",
	.see = "world",
},
{
	.key = "irq/default_smp_affinity", .knob = true,
	.aliases = "irq-default-isolated default_smp_affinity proc/irq/default_smp_affinity",
	.title = "Affinity given to newly requested interrupts",
	.what = "A hex CPU mask copied to every interrupt requested from now on (a driver "
		"loaded later, a device that appears). Existing interrupts keep theirs.",
	.files = { "proc/irq/default_smp_affinity" },
	.units = "hex CPU mask",
	.why = "irqaffinity= sets it at boot; without it a new device's interrupt may land on "
	       "an isolated CPU until someone moves it.",
	.try_hint = "tunetop set irq/default_smp_affinity=MASK, then move the existing ones "
		    "(irq/N/affinity).",
	.shell = "cat /proc/irq/default_smp_affinity",
	.traps = "Managed interrupts (multi-queue NVMe, network) ignore it: they are spread by "
		 "the kernel (isolcpus=managed_irq keeps them off isolated CPUs).",
	.see = "irq/*/affinity system.isolcpus",
},
{
	.key = "isolation.kthreads",
	.shell = "ps -eLo tid,psr,comm | grep -E 'rcu|ksoftirqd|ktimers|kworker|migration|cpuhp'; "
		 "taskset -p PID",
	.aliases = "kthreads per-cpu-kthreads rcuo rcuop rcuc ksoftirqd ktimers kworker "
		   "migration cpuhp resident",
	.title = "Kernel threads that run on an isolated CPU anyway",
	.what = "For each isolated or nohz_full CPU: the per-CPU kernel threads bound to it "
		"(ksoftirqd/N, ktimers/N, rcuc/N, migration/N, cpuhp/N, kworker/N:M), the RCU "
		"callback offload threads (rcuo*) and unbound kworkers (kworker/uN:M) allowed on "
		"it, with their affinity.",
	.files = { "proc/PID/task/TID/stat", "proc/PID/task/TID/status",
		   "sys/devices/virtual/workqueue/cpumask" },
	.units = "thread, CPU list",
	.why = "Per-CPU kthreads are bound by design (the kernel refuses to move them): they "
	       "run when the CPU itself raises their work (softirqs, timers, RCU callbacks "
	       "without rcu_nocbs). The movable ones are the rcuo* threads (taskset them to "
	       "housekeeping CPUs) and unbound kworkers (workqueue/cpumask).",
	.try_hint = "Apply the listed fixes; for bound threads remove the cause (move the IRQ, "
		    "boot with rcu_nocbs= / nohz_full=).",
	.see = "workqueue/cpumask system.isolcpus thread/*/affinity",
},
{
	.key = "probe.latency_us",
	.aliases = "probe latency cyclictest wakeup histogram p99 max_us misses deadline",
	.title = "Wake-up latency probe (cyclictest-like)",
	.what = "One SCHED_FIFO thread per CPU, memory locked, sleeping on absolute "
		"CLOCK_MONOTONIC deadlines; latency = wake time - deadline, in a histogram "
		"(min/mean/p99/max, overflows = deadlines skipped).",
	.files = { "dev/cpu_dma_latency" },
	.units = "microseconds",
	.why = "The ground truth every knob is judged by: A/B a knob against it (tunetop ab), "
	       "never trust a setting's return code. AM5729 used cyclictest -p99 -m -i 1000 -t1 "
	       "-n -h 100, idle and under stress-ng load.",
	.try_hint = "tunetop probe --cpus 4 -D 30, or tunetop ab ADDRESS=A,B.",
	.shell = "cyclictest -p99 -m -i 1000 -t1 -n -h 100 -a {1:4}",
	.traps = "Measure under realistic load: idle systems hide the problems (AM5729: no "
		 "difference when idle, -33% max under load).\n"
		 "cyclictest sets PM QoS latency 0 by default (deep idle off) unless told "
		 "otherwise; tunetop's probe leaves PM QoS alone unless --dma-latency.\n"
		 "The maximum needs long runs; compare percentiles for short A/B windows.",
	.see = "cpuidle/*/*/disable system.preempt",
},
{
	.key = "probe.soak",
	.aliases = "soak long-run --summary 24h",
	.title = "Soak runs: the probe for hours, a summary line every interval",
	.what = "tunetop probe -D 24h --summary 60s prints one line per interval with the "
		"samples, min, p50, p99, p99.9, max and overflows of that interval and "
		"cumulative since the start (JSON lines with --json), then the usual result.",
	.files = { "sys/devices/system/cpu/online" },
	.units = "microseconds",
	.why = "The worst wake-ups are rare: a 30 s run does not meet the once-an-hour stall "
	       "(a cron job, a thermal event, a firmware SMI). Production latency is judged "
	       "the way cyclictest is run there, for hours under the real load; the interval "
	       "columns show when it happened, the cumulative ones the verdict.",
	.try_hint = "tunetop probe --cpus 4-7 -D 24h --summary 60s --histfile lat.hist",
	.shell = "cyclictest -m -p95 -i1000 -a {1:4} -D 24h -h 1000 -q",
	.traps = "The interval maximum after the first summary is bounded by its bucket, not "
		 "exact; the cumulative one is exact.\n"
		 "Overflows here are deadlines skipped (a wake-up later than a whole period), "
		 "not cyclictest's histogram overflows.",
	.see = "probe.latency_us probe.histfile probe.break",
},
{
	.key = "probe.histfile",
	.aliases = "histfile --histfile gnuplot cyclictest-histogram",
	.title = "Histogram file in cyclictest's -h format",
	.what = "--histfile FILE writes '# Histogram', one line per microsecond 000000..000999 "
		"with one tab-separated count per CPU, then # Total, # Min/Avg/Max Latencies "
		"and # Histogram Overflows, as cyclictest -h 1000 prints them.",
	.files = { "sys/devices/system/cpu/online" },
	.units = "samples per 1 us bucket; latencies in whole microseconds",
	.why = "Plotting scripts and CI checks written for cyclictest (gnuplot 'using 1:2', "
	       "grep '# Max Latencies') read tunetop's runs unchanged, so results compare "
	       "with old ones.",
	.try_hint = "tunetop probe -D 10m --histfile lat.hist; '-' writes it to stdout.",
	.shell = "cyclictest -m -p95 -i1000 -D 10m -h 1000 -q > lat.hist",
	.traps = "# Histogram Overflows counts samples of 1000 us and more (beyond the file), "
		 "as cyclictest does; the probe's own 'overflows' (skipped deadlines) are not "
		 "in the file.\n"
		 "The file is replaced atomically at each summary: a reader never sees half.",
	.see = "probe.soak probe.latency_us",
},
{
	.key = "probe.break",
	.aliases = "--break breaktrace tracing_on tracefs ftrace",
	.title = "Break on the first late wake-up and keep the trace (cyclictest -b)",
	.what = "--break US stops the probe at the first wake-up later than US and reports the "
		"CPU, thread, value and time. When tracefs under the root has tracing_on = 1, "
		"the measuring thread writes 0 there at once and the trace buffer is saved "
		"(--break-trace FILE, default tunetop-break-TIMESTAMP.trace).",
	.files = { "sys/kernel/tracing/tracing_on", "sys/kernel/debug/tracing/tracing_on" },
	.units = "microseconds",
	.why = "A histogram says that a 300 us wake-up happened, not why. Stopping the trace "
	       "at that moment keeps what ran on that CPU just before it (the IRQ, the "
	       "kworker, the lock holder) in the ring buffer instead of overwriting it.",
	.try_hint = "Set up the tracer first (e.g. trace-cmd start -e sched -e irq), then "
		    "tunetop probe --cpus 4 -D 1h --break 200.",
	.shell = "cyclictest -m -p95 -i1000 -a {1:4} -b 200 --tracemark",
	.traps = "tunetop never turns tracing on or chooses a tracer: with tracing off it "
		 "saves nothing and says so.\n"
		 "The probe measures the live machine; --root only moves where tracefs is looked "
		 "for (tests use a fixture tree).",
	.see = "probe.latency_us probe.soak",
},
{
	.key = "probe.rpmsg",
	.aliases = "ttyRPMSG rpmsg-round-trip --rpmsg rpmsg_tty",
	.title = "RPMsg round trip to a remote core (OpenAMP echo)",
	.what = "--rpmsg DEV sends timestamped messages through an rpmsg tty (raw mode, one in "
		"flight, --rpmsg-size bytes every --rpmsg-interval-us) and records each echo's "
		"round trip in the probe's histogram; no echo within --rpmsg-timeout-ms counts "
		"as lost.",
	.files = { "sys/bus/rpmsg/devices", "sys/class/remoteproc/remoteproc*/state" },
	.units = "microseconds (round trip)",
	.why = "On an AMP system the control loop's latency includes the way to the remote "
	       "core and back: the Linux side's wake-up, the virtio kick (an IPI or mailbox "
	       "interrupt) and the remote firmware. A p99 far above p50 usually points at the "
	       "Linux side (the rpmsg tty's reader thread, the mailbox IRQ's CPU).",
	.try_hint = "Load the echo firmware (e.g. rpmsg_tty echo sample), then "
		    "tunetop probe --rpmsg /dev/ttyRPMSG0 -D 60 --summary 10s.",
	.shell = "grep . /sys/class/remoteproc/remoteproc*/state; ls /dev/ttyRPMSG*",
	.traps = "Any firmware that is not a byte-for-byte echo ends the run with 'garbage "
		 "echo'.\n"
		 "The tty is used raw for the run and its settings restored after; another "
		 "reader of the same tty steals echoes (counted lost).",
	.see = "remoteproc.state probe.latency_us irq/*/affinity",
},
{
	.key = "counters.cache_misses",
	.aliases = "cache-misses cache_misses perf counters pmu ipc L1D_CACHE_REFILL LLC",
	.title = "Cache misses and other hardware counters",
	.what = "perf_event counters per CPU or per thread (cycles, instructions, cache-misses), "
		"scaled when the PMU had to multiplex them.",
	.files = { "proc/sys/kernel/perf_event_paranoid", "sys/bus/event_source/devices/*/type" },
	.units = "events per second (scaled estimates are marked)",
	.why = "Migrations and shared buffers show up as cache misses: on the STM32MP157 gateway "
	       "the A7 and M4 shared cache lines of the message buffers (thrashing); separate "
	       "32-byte-aligned TX/RX buffers in a non-cached region were part of 112 -> 43 us. "
	       "B4860 used perf stat -e cache-misses.",
	.try_hint = "Compare cache misses of the latency thread before and after pinning it.",
	.shell = "perf stat -e cache-misses,cycles,instructions -t {1:TID} -- sleep 5",
	.traps = "On ARMv8 'cache-misses' is L1D_CACHE_REFILL; on Intel it is last-level misses. "
		 "Label columns accordingly.\n"
		 "perf_event_paranoid >= 2 allows only your own threads in user space; VMs often "
		 "have no hardware PMU at all (n/a, not 0).\n"
		 "On big.LITTLE each cluster has its own PMU type; a per-thread event counts only "
		 "while the thread runs on that cluster.",
	.see = "thread.migrations_per_s thread/*/affinity",
},
{
	.key = "counters.software",
	.aliases = "context-switches cpu-migrations page-faults Csw/s Mig/s csw mig cs faults "
		   "minor-faults major-faults PERF_COUNT_SW_CONTEXT_SWITCHES "
		   "PERF_COUNT_SW_CPU_MIGRATIONS PERF_COUNT_SW_PAGE_FAULTS software-counters",
	.title = "Software counters: context switches, CPU migrations, page faults",
	.what = "perf_event software events (PERF_TYPE_SOFTWARE) counted by the kernel itself, per "
		"CPU or per thread: context-switches (the CPU changed task), cpu-migrations (the "
		"thread moved to another CPU), page-faults (minor + major). They need no PMU, so "
		"they work in VMs and on boards without one. Shown as Csw/s and Mig/s.",
	.files = { "proc/sys/kernel/perf_event_paranoid", "sys/bus/event_source/devices/software/type",
		   "proc/PID/task/TID/sched" },
	.units = "events per second (a thread that did not run in the interval: 0)",
	.why = "Every context switch on the latency CPU is a task that ran instead of (or before) "
	       "the latency thread and evicted some of its cache; a migration leaves its cache lines "
	       "behind (AM5729: pinning to the isolated core cut the maximum latency under load by "
	       "~33%); a page fault in the RT path waits for the kernel, milliseconds when it has to "
	       "read from storage. An RT thread in its steady state should show 1 switch per wake-up, "
	       "0 migrations and 0 page faults.",
	.try_hint = "Pin the thread (Threads screen: a; thread/TID/affinity), isolate its CPU, "
		    "move other threads and IRQs off it; mlockall() and pre-touch memory for page "
		    "faults.",
	.shell = "perf stat -e context-switches,cpu-migrations,page-faults -p {1:PID} -- sleep 5",
	.traps = "context-switches and cpu-migrations are counted in the kernel: with "
		 "perf_event_paranoid >= 2 an unprivileged user gets user-space counting only, "
		 "where they are always 0, so tunetop shows them n/a instead.\n"
		 "A per-CPU count includes every task on that CPU, a per-thread count only that "
		 "thread; voluntary switches (the thread slept) and involuntary ones (preempted) "
		 "are not told apart here: see nonvoluntary_ctxt_switches in /proc/PID/status.\n"
		 "page-faults are mostly minor (first touch, copy-on-write); major ones "
		 "(major-faults) read from storage and are the expensive ones.",
	.see = "thread.migrations_per_s thread/*/affinity thread.vmlck_kb counters.cache_misses",
},
{
	.key = "remoteproc.state",
	.shell = "grep . /sys/class/remoteproc/remoteproc*/{state,firmware}",
	.aliases = "remoteproc rpmsg openamp virtio vring m4 firmware",
	.title = "Remote processors (remoteproc / RPMsg)",
	.what = "Co-processors (Cortex-M4 on STM32MP1) started by Linux: state, firmware, and the "
		"RPMsg channels over virtio rings.",
	.files = { "sys/class/remoteproc/remoteproc*/state",
		   "sys/class/remoteproc/remoteproc*/firmware", "sys/bus/rpmsg/devices" },
	.units = "state names",
	.why = "Inter-core messaging cost: STM32MP157 audio gateway default one-way latency "
	       "112 +- 38 us; polling the vring cost 28% CPU; interrupt-driven + separate aligned "
	       "buffers + top-priority IPI + batching every 2 ms + 16 x 512 B vrings gave "
	       "43 +- 8 us and A-core CPU 41.2% -> 26.7%.",
	.try_hint = "Watch the mailbox IRQ rate and the CPU of the threads that serve it.",
	.traps = "Most of the fixes are in firmware and driver configuration, not sysfs knobs.",
	.see = "irq.rate softirq.rate counters.cache_misses",
},
{
	.key = "knob.effect",
	.aliases = "effect not_seen verified not in effect ignored obey effect_evidence",
	.title = "Is a change in effect? (verified / not seen / unknown)",
	.what = "After each write tunetop watches the kernel's own counters for 500 ms (set "
		"--verify MS): a disabled idle state's usage on its CPU, the current frequency "
		"against a floor or cap, an IRQ's effective affinity and the CPUs its count grows "
		"on, a thread's last CPU and sched_getattr, no idle state deeper than a PM QoS "
		"request. Verified: the counters show it; not seen: they contradict it; unknown: "
		"nothing shows it (no counter, the CPU did not idle, the IRQ did not fire, or a "
		"fixture tree where nothing moves).",
	.files = { CPU "/cpu*/cpuidle/state*/usage", CPU "/cpufreq/policy*/scaling_cur_freq",
		   "proc/irq/*/effective_affinity_list", "proc/interrupts" },
	.units = "verified, not_seen or unknown, with the counters and the interval",
	.why = "A write the kernel accepts is not a kernel that obeys: sysfs takes the value and "
	       "something else decides. Known cases: the haltpoll cpuidle governor (KVM guests) "
	       "never reads a state's disable (CPU 1 entered 'haltpoll idle' 45 times in 2 s "
	       "with state1/disable=1; with menu: 0, and POLL 7,888); intel_idle.max_cstate= or "
	       "processor.max_cstate= on the command line hide deeper states; a thermal cooling "
	       "device, a PM QoS frequency request or firmware holds the clock below a floor; "
	       "a managed IRQ refuses a new affinity (EIO) or keeps its effective one. An A/B "
	       "or a lesson on a knob that is not in effect compares the board with itself, so "
	       "tunetop gives no verdict there.",
	.try_hint = "Read the warning: it names the counter and, for a known cause, the fix "
		    "(cpuidle/governor=menu on haltpoll). The Journal screen's Effect column "
		    "and 'tunetop journal' keep the verdict with the change.",
	.shell = "tunetop set --verify 2000 ADDRESS=VALUE; tunetop journal --json",
	.traps = "An idle state the governor rarely picks shows 'unknown' when enabled, not "
		 "'not seen': only a disabled state that is still entered contradicts the "
		 "write.\n"
		 "x86 moves an IRQ at its next interrupt: an IRQ that did not fire in the watch "
		 "is 'unknown', not 'not seen'.\n"
		 "A lock on a fixture tree stays 'unknown' unless the tree's counters move.",
	.see = "cpuidle/governor cpuidle.max_cstate irq.managed thermal.cooling_state",
},
{
	.key = "cpuidle.max_cstate",
	.aliases = "intel_idle.max_cstate processor.max_cstate max_cstate idle=poll "
		   "idle=halt cpuidle.off",
	.title = "Idle states limited on the kernel command line",
	.what = "intel_idle.max_cstate=N and processor.max_cstate=N stop the driver from "
		"registering states deeper than N; idle=poll and cpuidle.off=1 leave no cpuidle "
		"states at all (the CPU spins or halts).",
	.files = { "proc/cmdline", CPU "/cpuidle/current_driver", CPU "/cpu*/cpuidle/state*/name" },
	.units = "boot parameters",
	.why = "A state that was never registered cannot be disabled, A/B-tested or blamed: the "
	       "latency floor is set at boot. idle=poll removes idle exit latency on every CPU "
	       "and burns power and thermal headroom, so the clocks may throttle instead.",
	.try_hint = "Compare the states under cpuidle with what the CPU offers; change the boot "
		    "parameter (and reboot) rather than a knob.",
	.shell = "tr ' ' '\\n' </proc/cmdline | grep -E 'max_cstate|idle=|cpuidle.off'",
	.traps = "processor.max_cstate applies to acpi_idle only; intel_idle ignores it and "
		 "needs intel_idle.max_cstate.",
	.see = "cpuidle/*/*/disable knob.effect",
},
{
	.key = "irq.managed",
	.aliases = "managed_irq managed irq.managed EIO isolcpus=managed_irq",
	.title = "Kernel-managed IRQs (their affinity cannot be moved)",
	.what = "Multi-queue drivers (NVMe, many NICs) ask the kernel to spread their queue "
		"IRQs over the CPUs and manage them: writing smp_affinity fails with EIO and the "
		"effective affinity stays where the kernel put it.",
	.files = { "proc/irq/*/smp_affinity_list", "proc/irq/*/effective_affinity_list" },
	.units = "a CPU list",
	.why = "A managed queue IRQ on an isolated CPU interrupts the latency thread whenever "
	       "that queue is used, and no irq/N/affinity write moves it.",
	.try_hint = "Boot with isolcpus=managed_irq,CPUS (the kernel then keeps managed IRQs off "
		    "those CPUs when it can), or reduce the driver's queue count.",
	.shell = "cat /proc/irq/N/effective_affinity_list",
	.traps = "Since Linux 5.x the write fails with EIO; older kernels accepted it and "
		 "ignored it (tunetop's effect check sees that as 'not seen').",
	.see = "irq/*/affinity system.isolcpus knob.effect",
},
{
	.key = "why.idle_exit",
	.aliases = "why-late idle-exit exit-latency cpu_idle",
	.title = "Why late: leaving an idle state",
	.what = "The time from the probe's deadline to the power:cpu_idle exit event of its "
		"CPU, while the CPU sat in an idle state (the state's name and its declared "
		"exit latency from cpuidle's latency file are shown next to it). tunetop why "
		"and probe --why split each late wake-up into parts from the kernel's events.",
	.files = { "sys/kernel/tracing/events/power/cpu_idle", "sys/devices/system/cpu/cpu*/cpuidle/state*/latency" },
	.units = "microseconds per late wake-up; shares of late wake-ups and of the late time",
	.why = "A deep state's exit (caches and clocks back, voltage up) comes before the timer "
	       "interrupt can run: every wake-up from it pays the exit latency, and a state "
	       "whose real exit is slower than declared also fools the governor.",
	.try_hint = "Disable the state on the probed CPU (the fix offered: "
		    "cpuidle/cpuN/stateS/disable=1) and A/B it: tunetop ab "
		    "cpuidle/cpuN/stateS/disable=0,1.",
	.shell = "trace-cmd record -e power:cpu_idle -e sched:sched_switch -e sched:sched_waking -M MASK",
	.traps = "The exit event is logged when the idle driver returns: on x86 the hardware "
		 "exit and the timer interrupt entry are both inside this part.\n"
		 "An idle state with polling (POLL, haltpoll) exits at once: no part here.",
	.see = "cpuidle/*/*/disable probe.latency_us why.unknown",
},
{
	.key = "why.irq",
	.aliases = "why-late irq_handler_entry hardirq",
	.title = "Why late: a hard interrupt handler ran",
	.what = "The time between irq:irq_handler_entry and irq:irq_handler_exit of an IRQ on "
		"the probe's CPU inside the late window (a nested handler's time goes to the "
		"nested one only), with the IRQ number and name.",
	.files = { "sys/kernel/tracing/events/irq/irq_handler_entry", "proc/interrupts" },
	.units = "microseconds per late wake-up; shares of late wake-ups and of the late time",
	.why = "A handler runs with interrupts off and before any thread: the timer interrupt "
	       "that wakes the probe waits for it, and so does the switch to the probe.",
	.try_hint = "Move the IRQ to housekeeping CPUs (the fix offered: "
		    "irq/N/affinity=CPUS), then A/B the probe.",
	.shell = "trace-cmd record -e irq:irq_handler_entry -e irq:irq_handler_exit -M MASK",
	.traps = "The local timer (x86 APIC) and IPIs are not irq_handler events: their time "
		 "shows as the wake-up path or unknown.\n"
		 "Kernel-managed queue IRQs cannot be moved (EIO): see irq.managed.",
	.see = "irq/*/affinity irq.managed why.softirq",
},
{
	.key = "why.softirq",
	.aliases = "why-late softirq_entry ksoftirqd-time NET_RX",
	.title = "Why late: softirq work (inline or in ksoftirqd)",
	.what = "The time between irq:softirq_entry and irq:softirq_exit on the probe's CPU "
		"(hard IRQs inside it cut out), per vector (NET_RX, TIMER, BLOCK...): inline "
		"after a hard IRQ, or in ksoftirqd/N when that thread was running. The IRQ whose "
		"handler raised it (irq:softirq_raise inside the handler) is named when seen.",
	.files = { "sys/kernel/tracing/events/irq/softirq_entry", "proc/softirqs" },
	.units = "microseconds per late wake-up; shares of late wake-ups and of the late time",
	.why = "Softirqs run with bottom halves off: on a kernel without PREEMPT_RT nothing "
	       "preempts them, so a burst of packets or block completions delays the probe by "
	       "its whole length.",
	.try_hint = "Move the IRQ that raised it off the probed CPU (the fix offered: "
		    "irq/N/affinity=CPUS); with ksoftirqd, its priority against the probe's.",
	.shell = "trace-cmd record -e irq:softirq_entry -e irq:softirq_exit -e irq:softirq_raise -M MASK",
	.traps = "A TIMER or RCU softirq is raised by the tick, not by a device: no IRQ to move; "
		 "nohz_full on the CPU removes the tick.",
	.see = "why.irq irq/*/affinity",
},
{
	.key = "why.task",
	.aliases = "why-late higher-priority sched_switch-task",
	.title = "Why late: another task held the CPU",
	.what = "The time another thread ran on the probe's CPU (sched:sched_switch intervals) "
		"in the late window, with its comm, tid and kernel prio and why it could run: "
		"higher priority (a lower prio number than the probe's), or it was not "
		"preempted at once after the probe's sched_waking (no preemption point).",
	.files = { "sys/kernel/tracing/events/sched/sched_switch", "proc/*/task/*/sched" },
	.units = "microseconds per late wake-up; shares of late wake-ups and of the late time",
	.why = "A real-time thread of higher priority runs until it blocks, however late the "
	       "probe gets; a lower one still delays it until the kernel reaches a preemption "
	       "point.",
	.try_hint = "Move the thread off the probed CPU (the fix offered: "
		    "thread/TID/affinity=CPUS) or run it below the probe "
		    "(thread/TID/policy=fifo:N).",
	.shell = "trace-cmd record -e sched:sched_switch -e sched:sched_waking -M MASK",
	.traps = "Prio in the events is the kernel's: 0..98 real-time (99 - rtprio), 100..139 "
		 "normal (120 + nice).\n"
		 "A per-CPU kernel thread (kworker/N, ksoftirqd/N) cannot be moved.",
	.see = "thread/*/affinity thread/*/policy why.same_prio why.rt_throttled",
},
{
	.key = "why.rt_throttled",
	.aliases = "why-late rt-throttling",
	.title = "Why late: RT throttling let a normal task run",
	.what = "A normal task (prio 100 or more) ran while the real-time probe was woken: "
		"either for longer than 200 us after the probe's sched_waking, or picked by a "
		"switch over the woken probe; or, with no normal task to run, the CPU went "
		"back into an idle state after the waking and idled 200 us or more (shown as "
		"the idle task, swapper/N). The RT class was out of its runtime for the "
		"period (sched_rt_runtime_us of sched_rt_period_us).",
	.files = { "proc/sys/kernel/sched_rt_runtime_us", "proc/sys/kernel/sched_rt_period_us" },
	.units = "microseconds per late wake-up; shares of late wake-ups and of the late time",
	.why = "Once real-time threads used their runtime (950 ms of every 1 s by default), "
	       "the kernel runs normal tasks for the rest of the period: the probe waits up to "
	       "the end of it, tens of milliseconds.",
	.try_hint = "sched/rt_runtime_us=-1 (the fix offered: no throttling) or a larger "
		    "runtime, and find the RT thread that used it up.",
	.shell = "cat /proc/sys/kernel/sched_rt_runtime_us /proc/sys/kernel/sched_rt_period_us",
	.traps = "Without throttling a runaway RT thread owns its CPU for good.\n"
		 "Since 6.12 the fair server (dl_server) gives normal tasks their share even "
		 "without RT throttling.",
	.see = "sched/rt_runtime_us rt.throttled why.task",
},
{
	.key = "why.same_prio",
	.aliases = "why-late same-priority fifo-equal",
	.title = "Why late: a FIFO thread of the probe's own priority",
	.what = "A thread of the same kernel prio as the probe was running when the probe was "
		"woken (sched_switch and sched_waking): SCHED_FIFO does not preempt an equal "
		"priority, so the probe waits until that thread blocks or yields.",
	.files = { "sys/kernel/tracing/events/sched/sched_switch", "proc/*/task/*/stat" },
	.units = "microseconds per late wake-up; shares of late wake-ups and of the late time",
	.why = "Two FIFO threads of one priority on one CPU serialize completely: the probe's "
	       "latency becomes the other thread's run time.",
	.try_hint = "Run the other thread one priority below the probe (the fix offered: "
		    "thread/TID/policy=fifo:N) or on another CPU.",
	.shell = "chrt -p TID",
	.traps = "SCHED_RR of equal priority shares by time slices (100 ms by default): still "
		 "far too coarse for latency.",
	.see = "thread/*/policy why.task",
},
{
	.key = "why.migration",
	.aliases = "why-late sched_migrate_task",
	.title = "Why late: the probe thread was migrated",
	.what = "A sched:sched_migrate_task event of the probe's thread inside the late window: "
		"it was woken on one CPU and moved to another; the tasks that ran on the new "
		"CPU until it got there are marked with this reason.",
	.files = { "sys/kernel/tracing/events/sched/sched_migrate_task", "proc/*/task/*/status" },
	.units = "microseconds per late wake-up; shares of late wake-ups and of the late time",
	.why = "A migration costs the move itself, cold caches, and a wait on a CPU that was "
	       "busy with something else.",
	.try_hint = "Pin the measured thread to one CPU (the fix offered: "
		    "thread/TID/affinity=CPU).",
	.shell = "taskset -pc TID",
	.traps = "tunetop's own probe pins its threads; a migration then means the pin was "
		 "refused or changed by someone else.",
	.see = "thread/*/affinity why.task",
},
{
	.key = "why.unknown",
	.aliases = "why-late unattributed wakeup-path return-path",
	.title = "Why late: time the kernel's events do not explain",
	.what = "The part of a late wake-up no traced event accounts for: before the first "
		"event when the CPU's state is not known, before a lost-events mark (the window "
		"is flagged lost), or when nothing known ran. The wake-up path (idle task from "
		"the idle exit to the probe's switch-in) and the return path (switch-in to the "
		"probe's clock read) are shown as their own parts.",
	.files = { "sys/kernel/tracing/per_cpu/cpu0/stats" },
	.units = "microseconds per late wake-up; shares of late wake-ups and of the late time",
	.why = "What the trace cannot see still delays the probe: NMIs, SMIs (firmware), a "
	       "hypervisor's steal time, long non-preemptible kernel sections without events.",
	.try_hint = "Check lost events (a bigger buffer), steal time under a hypervisor, SMI "
		    "counts (turbostat); keep the CPU out of deep idle.",
	.shell = "grep -E 'overrun|dropped' /sys/kernel/tracing/per_cpu/cpu*/stats",
	.traps = "A large unknown share with lost events means the buffer was too small, not "
		 "that the kernel is at fault.",
	.see = "why.idle_exit why.irq probe.latency_us why.steal",
},
{
	.key = "why.steal",
	.aliases = "why-late hypervisor-steal timer-late idle-overrun",
	.title = "Why late: past the idle state's declared exit (timer late, hypervisor, steal)",
	.what = "The part of a stay in an idle state beyond its declared exit latency "
		"(cpuidle's latency file) plus a margin of 25 % and 20 us: the idle exit part is "
		"capped there and the rest of the stay, up to its power:cpu_idle exit event, is "
		"this part, named after the state. A state with no declared latency is not "
		"capped.",
	.files = { "sys/devices/system/cpu/cpu*/cpuidle/state*/latency", "proc/stat" },
	.units = "microseconds per late wake-up; shares of late wake-ups and of the late time",
	.why = "No guest event shows it: under a hypervisor a vCPU that halted exits to the "
	       "host, and the host runs it again when it pleases (steal time); on bare metal "
	       "the timer fired late (a broadcast timer out of a deep state, firmware).",
	.try_hint = "Keep the CPU out of the state (the fix offered: "
		    "cpuidle/cpuN/stateS/disable=1: the guest then polls instead of exiting "
		    "to the host), guest haltpoll; on the host, pin and isolate the vCPUs.",
	.shell = "grep '^cpu' /proc/stat   # the 8th number is steal",
	.traps = "The margin is a guess at what the declaration leaves out; an exit a little "
		 "slower than declared stays idle exit.\n"
		 "Steal while the guest runs (not idle) is not this part: it shows in the task "
		 "or path that was running.",
	.see = "why.idle_exit why.unknown cpuidle/*/*/disable",
},
};
/* clang-format on */

const size_t explain_table_len = sizeof(explain_table) / sizeof(explain_table[0]);
