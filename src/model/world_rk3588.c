/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The world rk3588-npu (see world_rk3588.h): the rknn_infer application
 * on the simulated RK3588. Its inference thread blocks in the NPU ioctl,
 * so the CPUs look nearly idle (the governors fall to their lowest OPP,
 * the DDR's too) while the NPU is busy (its devfreq stays at the top).
 * Each step the thermal limit of the big cores follows the sustained power
 * (power_allocator in one line: a big OPP down while the power is above
 * the sustainable one, up again when the next OPP fits), then the frames
 * that fit in the step are computed from the knob files as they are and
 * appended to the application's log. */
#include "model/world_rk3588.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"
#include "model/sim.h"
#include "model/world.h"
#include "model/worldmodel.h"
#include "sysfs/sysroot.h"

#define RK_MAX_POL 8
#define RK_MAX_OPP 32
#define RK_NPU_DEV "sys/class/devfreq/fdab0000.npu"
#define RK_DDR_DEV "sys/class/devfreq/dmc"
#define RK_CAP	   0 /* world_state(): the big cores' thermal limit, kHz (0 none) */

static double rnd_world(void *ctx)
{
	return world_rand(ctx);
}

void world_rk3588_frame(const struct rk3588_in *in, double (*rnd)(void *ctx), void *ctx,
			struct rk3588_frame *f)
{
	double cpu_ms = RK_CPU_WORK / in->cpu_mhz, z = 0, hs = 0;

	/* The governor's 20 ms timer: a frame that starts inside a boost runs a
	 * random part of its CPU work at hispeed_freq. */
	if (in->cpu_dynamic && in->hispeed_mhz > in->cpu_mhz && rnd(ctx) < RK_HISPEED_P) {
		double u = rnd(ctx);

		cpu_ms = RK_CPU_WORK * ((1.0 - u) / in->cpu_mhz + u / in->hispeed_mhz);
	}
	f->cpu_ms = cpu_ms * RK_CPU_PRE_SHARE;
	f->cnv_ms = cpu_ms - f->cpu_ms;
	f->cpy_ms = RK_DDR_WORK / in->ddr_mhz;
	/* each hand-off finds the waiting CPU in its deepest enabled state
	 * with probability RK_SLEEP_P (binomial) and pays its exit latency */
	f->slept = 0;
	for (int i = 0; i < RK_HANDSHAKES; i++)
		if (rnd(ctx) < RK_SLEEP_P)
			f->slept++;
	for (int i = 0; i < 4; i++)
		z += rnd(ctx);
	z = (z - 2.0) * sqrt(3.0); /* about N(0, 1) */
	hs = f->slept * in->exit_us / 1000.0;
	f->npu_ms = RK_NPU_WORK / in->npu_mhz * (1.0 + RK_NPU_SPREAD * z) + hs;
	f->total_ms = f->cpu_ms + f->cpy_ms + f->npu_ms + f->cnv_ms;
}

double world_rk3588_power(size_t n, const double *ncpu, const double *weight, const double *share)
{
	double p = 0;

	for (size_t i = 0; i < n; i++)
		p += ncpu[i] * weight[i] * share[i] * share[i] * share[i];
	return p;
}

/* ---- the hooks ----------------------------------------------------------- */

void world_rk3588_setup(struct world *w)
{
	struct sim *s = world_sim(w);

	sim_set_quiet(s, true);	      /* the app waits in the NPU ioctl: ~idle CPUs */
	sim_set_dev_load(s, 1, 0.95); /* the NPU computes most of each frame */
	if (world_state(w)[RK_CAP] > 0) {
		char name[16];

		for (int p = 0; p < RK_MAX_POL; p++) {
			snprintf(name, sizeof(name), "policy%d", p);
			if (p)
				sim_set_cap_khz(s, name, (uint64_t)world_state(w)[RK_CAP]);
		}
	}
}

struct rk_pol {
	char name[16];
	bool big;
	double ncpu, cur, top;
	size_t nopp;
	double opp[RK_MAX_OPP];
};

static size_t read_pols(const struct sysroot *r, struct rk_pol *pol)
{
	size_t n = 0;

	for (int p = 0; p < 16 && n < RK_MAX_POL; p++) {
		struct rk_pol *q = &pol[n];
		char buf[512], *e, *t;
		struct cpumask m;
		int64_t cur;

		if (sysfs_read_strf(r, buf, sizeof(buf),
				    "sys/devices/system/cpu/cpufreq/policy%d/related_cpus", p) ||
		    cpulist_parse_spaces(buf, &m) ||
		    sysfs_read_i64f(r, &cur,
				    "sys/devices/system/cpu/cpufreq/policy%d/scaling_cur_freq",
				    p) ||
		    sysfs_read_strf(
			    r, buf, sizeof(buf),
			    "sys/devices/system/cpu/cpufreq/policy%d/scaling_available_frequencies",
			    p))
			continue;
		snprintf(q->name, sizeof(q->name), "policy%d", p);
		q->big = !cpumask_test(&m, 0);
		q->ncpu = cpumask_count(&m);
		q->cur = (double)cur;
		q->nopp = 0;
		for (t = buf; q->nopp < RK_MAX_OPP; t = e) {
			double v = strtod(t, &e);

			if (e == t)
				break;
			q->opp[q->nopp++] = v;
		}
		if (!q->nopp)
			continue;
		q->top = q->opp[q->nopp - 1];
		n++;
	}
	return n;
}

static double pols_power(const struct rk_pol *pol, size_t n)
{
	double nc[RK_MAX_POL], wt[RK_MAX_POL], sh[RK_MAX_POL];

	for (size_t i = 0; i < n; i++) {
		nc[i] = pol[i].ncpu;
		wt[i] = pol[i].big ? RK_POWER_BIG : RK_POWER_LITTLE;
		sh[i] = pol[i].cur / pol[i].top;
	}
	return world_rk3588_power(n, nc, wt, sh);
}

void world_rk3588_before(struct world *w, double dt_s)
{
	struct rk_pol pol[RK_MAX_POL];
	const struct sysroot *r = sim_sysroot(world_sim(w));
	size_t n = read_pols(r, pol);
	double *cap = &world_state(w)[RK_CAP], big = 0, next = 0;
	const struct rk_pol *b = NULL;

	(void)dt_s;
	for (size_t i = 0; i < n; i++)
		if (pol[i].big) {
			big = fmax(big, pol[i].cur);
			b = &pol[i];
		}
	if (!b)
		return;
	if (pols_power(pol, n) > RK_POWER_SUST) {
		/* one OPP below the big cores' clock */
		for (size_t k = 0; k < b->nopp; k++)
			if (b->opp[k] < big)
				next = b->opp[k];
		if (next <= 0)
			return;
		*cap = next;
	} else if (*cap > 0) {
		/* one OPP up, when the big cores sit at the limit and it fits */
		bool at_cap = big >= *cap;
		double up = 0;
		struct rk_pol tmp[RK_MAX_POL];

		for (size_t k = 0; k < b->nopp && !up; k++)
			if (b->opp[k] > *cap)
				up = b->opp[k];
		memcpy(tmp, pol, sizeof(tmp[0]) * n);
		for (size_t i = 0; i < n; i++)
			if (tmp[i].big && at_cap && up > 0)
				tmp[i].cur = up;
		if (!at_cap || up <= 0 || pols_power(tmp, n) <= RK_POWER_SUST)
			*cap = up > 0 && up < b->top ? up : 0;
		else
			return;
	} else {
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (pol[i].big)
			sim_set_cap_khz(world_sim(w), pol[i].name, (uint64_t)*cap);
}

static bool dynamic_gov(const char *gov)
{
	return strcmp(gov, "performance") && strcmp(gov, "powersave") && strcmp(gov, "userspace");
}

static void read_inputs(const struct sysroot *r, struct rk3588_in *in)
{
	const char *pol = "sys/devices/system/cpu/cpu" /* RK_APP_CPU */;
	char gov[32];
	int64_t v;

	in->cpu_mhz = sysfs_read_i64f(r, &v, "%s%d/cpufreq/scaling_cur_freq", pol, RK_APP_CPU) == 0
			      ? (double)v / 1000.0
			      : 408.0;
	in->hispeed_mhz = sysfs_read_i64f(r, &v, "%s%d/cpufreq/interactive/hispeed_freq", pol,
					  RK_APP_CPU) == 0
				  ? (double)v / 1000.0
				  : NAN;
	in->cpu_dynamic = sysfs_read_strf(r, gov, sizeof(gov), "%s%d/cpufreq/scaling_governor", pol,
					  RK_APP_CPU) == 0 &&
			  dynamic_gov(gov);
	in->ddr_mhz = sysfs_read_i64f(r, &v, "%s/cur_freq", RK_DDR_DEV) == 0 && v > 0
			      ? (double)v / 1e6
			      : 534.0;
	in->npu_mhz = sysfs_read_i64f(r, &v, "%s/cur_freq", RK_NPU_DEV) == 0 && v > 0
			      ? (double)v / 1e6
			      : 1000.0;
	/* the deepest enabled idle state of the app's CPU (state0 WFI is never
	 * disabled) */
	in->exit_us = 0;
	for (int k = 0; k < 8; k++) {
		int64_t dis, lat;

		if (sysfs_read_i64f(r, &lat, "%s%d/cpuidle/state%d/latency", pol, RK_APP_CPU, k))
			break;
		if (sysfs_read_i64f(r, &dis, "%s%d/cpuidle/state%d/disable", pol, RK_APP_CPU, k) ||
		    !dis)
			in->exit_us = (double)lat;
	}
}

void world_rk3588_after(struct world *w, double dt_s)
{
	struct rk3588_in in;
	double *next = world_next_frame(w);
	int guard = 0;

	(void)dt_s;
	if (*next > world_time(w))
		return;
	read_inputs(sim_sysroot(world_sim(w)), &in);
	while (*next <= world_time(w) && guard++ < 1000) {
		struct rk3588_frame f;
		char line[160];

		world_rk3588_frame(&in, rnd_world, w, &f);
		snprintf(line, sizeof(line),
			 "[Infer] cpu:%.2f cpy:%.2f npu:%.2f cnv:%.2f total:%.2f ms (SIMULATED)",
			 f.cpu_ms, f.cpy_ms, f.npu_ms, f.cnv_ms, f.total_ms);
		world_log(w, line);
		*next += f.total_ms / 1000.0;
	}
}

/* ---- the probe ----------------------------------------------------------- */

void world_rk3588_probe_model(const struct rk3588_probe_in *in, double (*rnd)(void *ctx), void *ctx,
			      struct wm_sample *out)
{
	double top = in->top_mhz > 0 ? in->top_mhz : in->cur_mhz;
	double cur = in->cur_mhz > 0 ? in->cur_mhz : top;

	wm_sample_clear(out);
	/* the fixed path with its noise, and the kernel's part at the top clock */
	wm_sample_add(out, WMC_BASE, -1, "", -1,
		      RK_PROBE_PATH_US + RK_PROBE_NOISE_US * rnd(ctx) + RK_PROBE_WORK / top);
	/* the same cycles below the top clock: the cluster parked low */
	if (cur < top)
		wm_sample_add(out, WMC_CLOCK_RAMP, -1, "", -1,
			      RK_PROBE_WORK / cur - RK_PROBE_WORK / top);
	/* the timer finds the idle CPU in its deepest enabled state */
	if (in->state >= 0 && in->exit_us > 0 && rnd(ctx) < RK_PROBE_SLEEP_P)
		wm_sample_add(out, WMC_IDLE_EXIT, in->state, in->state_name, -1, in->exit_us);
	if (rnd(ctx) < RK_PROBE_IRQ_P)
		wm_sample_add(out, WMC_IRQ, RK_NPU_IRQ, "fdab0000.npu", -1,
			      RK_PROBE_IRQ_US * (0.5 + 0.5 * rnd(ctx)));
}

static void read_probe_inputs(const struct sysroot *r, struct rk3588_probe_in *in)
{
	const char *pol = "sys/devices/system/cpu/cpufreq/policy";
	int64_t v;

	in->cur_mhz = sysfs_read_i64f(r, &v, "%s%d/scaling_cur_freq", pol, RK_PROBE_CPU) == 0
			      ? (double)v / 1000.0
			      : NAN;
	in->top_mhz = sysfs_read_i64f(r, &v, "%s%d/cpuinfo_max_freq", pol, RK_PROBE_CPU) == 0
			      ? (double)v / 1000.0
			      : NAN;
	if (isnan(in->cur_mhz))
		in->cur_mhz = isnan(in->top_mhz) ? 1800.0 : in->top_mhz;
	if (isnan(in->top_mhz))
		in->top_mhz = in->cur_mhz;
	in->exit_us = 0;
	in->state = -1;
	in->state_name[0] = '\0';
	for (int k = 0; k < 8; k++) {
		int64_t dis, lat;

		if (sysfs_read_i64f(r, &lat, "sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency",
				    RK_PROBE_CPU, k))
			break;
		if (sysfs_read_i64f(r, &dis, "sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable",
				    RK_PROBE_CPU, k) == 0 &&
		    dis)
			continue;
		in->exit_us = (double)lat;
		in->state = k;
		if (sysfs_read_strf(r, in->state_name, sizeof(in->state_name),
				    "sys/devices/system/cpu/cpu%d/cpuidle/state%d/name",
				    RK_PROBE_CPU, k))
			snprintf(in->state_name, sizeof(in->state_name), "state%d", k);
	}
}

int world_rk3588_probe(struct world *w, struct wm_sample *out)
{
	struct rk3588_probe_in in;

	read_probe_inputs(sim_sysroot(world_sim(w)), &in);
	world_rk3588_probe_model(&in, rnd_world, w, out);
	return 0;
}
