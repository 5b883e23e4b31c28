/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `am5729-affinity` world (field note 4): cyclictest (-p99 -i 1000 -n)
 * on a TI AM5729 (2x Cortex-A15, shared L2, PREEMPT_RT), idle and with
 * stress-ng's FFT pinned to CPU 0, the probe free or pinned to the isolated
 * CPU 1.
 *
 * Where a wake-up runs: the CPUs the probe may use are its affinity minus
 * the isolated CPUs (the scheduler never balances onto them), or the
 * affinity itself when it names isolated CPUs only (explicit pinning is
 * honoured). With two CPUs and the load running, a wake-up lands on the
 * other CPU than last time with probability AF_MIG_P (RT push/pull around
 * the busy CPU); idle, it stays.
 *
 * Terms of one wake-up (us):
 *  - WMC_BASE: timer IRQ, hrtimer, wake-up and switch: U(AF_BASE_LO, AF_BASE_HI);
 *  - WMC_MIGRATION: a remote wake-up on the other CPU: AF_MIG_US;
 *  - WMC_TASK: switching out the FFT when the probe shares its CPU: AF_SWITCH_US;
 *  - WMC_CACHE: of the AF_LINES lines the wake-up path touches, a
 *    Binomial(AF_LINES, p) number missed, AF_MISS_US each, with p by where
 *    it runs: after a migration all (AF_P_MIGRATED), on the FFT's CPU
 *    AF_P_SAME (L1 and L2 evicted), on the other CPU under load AF_P_L2 (the
 *    shared L2 streamed through by the FFT), idle AF_P_IDLE. */
#include "model/worldmodel.h"

#include <errno.h>

#define AF_BASE_LO    10.0
#define AF_BASE_HI    16.0
#define AF_MIG_P      0.5
#define AF_MIG_US     6.0
#define AF_SWITCH_US  3.0
#define AF_LINES      100  /* 6.4 KB: the probe's stack, task and timer structures */
#define AF_MISS_US    0.35 /* a line from DDR3 */
#define AF_P_MIGRATED 1.0
#define AF_P_SAME     0.8
#define AF_P_L2	      0.5
#define AF_P_IDLE     0.05
#define AF_NCPUS      2

void wm_affinity_defaults(struct wm_affinity_in *in)
{
	in->load = false;
	in->load_cpu = 0;
	in->isolcpus = 0;
	in->probe_affinity = 0x3;
}

static uint32_t usable_cpus(const struct wm_affinity_in *in)
{
	uint32_t all = (1u << AF_NCPUS) - 1, aff = in->probe_affinity & all;
	uint32_t housekeeping = aff & ~in->isolcpus;

	return housekeeping ? housekeeping : aff;
}

int wm_affinity_sample(const struct wm_affinity_in *in, struct wm_rng *r, int *cpu,
		       struct wm_sample *out)
{
	uint32_t usable = usable_cpus(in);
	bool migrated = false, with_load;
	double p;

	wm_sample_clear(out);
	if (!usable || in->load_cpu < 0 || in->load_cpu >= AF_NCPUS)
		return -EINVAL;
	if (*cpu < 0 || !(usable & (1u << *cpu))) {
		*cpu = __builtin_ctz(usable);
	} else if (in->load && (usable & ~(1u << *cpu)) && wm_rng_chance(r, AF_MIG_P)) {
		*cpu = __builtin_ctz(usable & ~(1u << *cpu));
		migrated = true;
	}
	with_load = in->load && *cpu == in->load_cpu;
	if (migrated)
		p = AF_P_MIGRATED;
	else if (with_load)
		p = AF_P_SAME;
	else
		p = in->load ? AF_P_L2 : AF_P_IDLE;
	wm_sample_add(out, WMC_BASE, -1, "timer wake-up", -1,
		      wm_rng_range(r, AF_BASE_LO, AF_BASE_HI));
	if (migrated)
		wm_sample_add(out, WMC_MIGRATION, *cpu, "cyclictest", 99, AF_MIG_US);
	if (with_load)
		wm_sample_add(out, WMC_TASK, -1, "stress-ng", -1, AF_SWITCH_US);
	wm_sample_add(out, WMC_CACHE, -1, "wake-up path", -1,
		      wm_rng_binomial(r, AF_LINES, p) * AF_MISS_US);
	return 0;
}

static int sample(const union wm_in *in, struct wm_rng *r, int *state, struct wm_sample *out)
{
	return wm_affinity_sample(&in->aff, r, state, out);
}

static void defaults(union wm_in *in)
{
	wm_affinity_defaults(&in->aff);
}

WM_STAGE(stage_idle_pinned, defaults, in->aff.isolcpus = 0x2, in->aff.probe_affinity = 0x2)
WM_STAGE(stage_load_free, defaults, in->aff.load = true)
WM_STAGE(stage_load_pinned, stage_idle_pinned, in->aff.load = true)

static const struct wm_stage stages[] = {
	WM_ROW("A idle, free", "no isolcpus; cyclictest affinity 0-1", defaults),
	WM_ROW_FIGS("B idle, pinned to the isolated CPU", "isolcpus=1; thread/TID/affinity=1",
		    stage_idle_pinned, 1,
		    {.stat = WM_STAT_MAX, .value = 1.0, .arg_us = 0, .ref = 0}),
	WM_ROW("C load on CPU 0, free",
	       "no isolcpus; cyclictest affinity 0-1; stress-ng FFT on CPU 0", stage_load_free),
	WM_ROW_FIGS("D load on CPU 0, pinned to the isolated CPU",
		    "isolcpus=1; thread/TID/affinity=1; stress-ng FFT on CPU 0", stage_load_pinned,
		    1, {.stat = WM_STAT_MAX, .value = 0.67, .arg_us = 0, .ref = 2}),
};

WM_WORLD(wm_world_affinity, "am5729-affinity", "AM5729",
	 "4. CPU affinity for industrial control (max latency -33 % pinned under load)",
	 "cyclictest wake-up latency", 10000);
