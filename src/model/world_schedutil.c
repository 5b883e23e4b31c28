/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The world `schedutil` (field note 2; doc/teach.md "Worlds"): a camera
 * product's key frames on a Cortex-A72 quad (the rpi4 fixture at its
 * 1.8 GHz OPP table) under schedutil with a vendor kernel's up/down rate
 * limits; the latency is worldmodel_schedutil.c's, its input read from the
 * tree's cpufreq files of policy0 (model/world_wm.h is the adapter). */
#include "model/world_schedutil.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "model/sim.h"
#include "model/world.h"
#include "model/world_wm.h"
#include "model/worldmodel.h"
#include "sysfs/sysroot.h"

#define SU_POL "sys/devices/system/cpu/cpufreq/policy0/"

static const struct world_wm_file files[] = {
	/* the 1.8 GHz board's OPPs (the model's table) and a vendor kernel's
	 * schedutil with its up/down rate limits at the product's default */
	{SU_POL "scaling_available_frequencies",
	 "408000 600000 816000 1008000 1200000 1416000 1608000 1800000 \n"},
	{SU_POL "cpuinfo_min_freq", "408000\n"},
	{SU_POL "cpuinfo_max_freq", "1800000\n"},
	{SU_POL "scaling_min_freq", "408000\n"},
	{SU_POL "scaling_max_freq", "1800000\n"},
	{SU_POL "scaling_cur_freq", "408000\n"},
	{SU_POL "scaling_governor", "schedutil\n"},
	{SU_POL "stats/time_in_state", "408000 0\n600000 0\n816000 0\n1008000 0\n1200000 0\n"
				       "1416000 0\n1608000 0\n1800000 0\n"},
	{SU_POL "stats/total_trans", "0\n"},
	{SU_POL "schedutil/up_rate_limit_us", "30000\n"},
	{SU_POL "schedutil/down_rate_limit_us", "30000\n"},
};

/* camera_app: capture (FIFO 50), the encoder that processes key frames,
 * the streamer */
static const struct world_wm_thread threads[] = {
	WM_THREAD(1310, 1310, "camera_app", 0, 0, 0, "0-3", 'S'),
	WM_THREAD(1310, 1312, "isp_capture", 1, 50, 0, "0-3", 'S'),
	WM_THREAD(1310, 1313, "keyframe_enc", 0, 0, 0, "0-3", 'R'),
	WM_THREAD(1310, 1314, "rtsp_tx", 0, 0, 5, "0-3", 'S'),
};

static void read_in(const struct sysroot *r, union wm_in *in)
{
	struct wm_schedutil_in *su = &in->su;
	char gov[32];
	uint64_t v;

	if (sysfs_read_str(r, SU_POL "scaling_governor", gov, sizeof(gov)) == 0)
		su->governor = !strcmp(gov, "performance") ? WM_GOV_PERFORMANCE
			       : !strcmp(gov, "powersave") ? WM_GOV_POWERSAVE
							   : WM_GOV_SCHEDUTIL;
	/* mainline's rate_limit_us sets both; a vendor kernel's up/down win */
	if (sysfs_read_u64(r, SU_POL "schedutil/rate_limit_us", &v) == 0)
		su->up_rate_limit_us = su->down_rate_limit_us = (unsigned)v;
	world_wm_read_unsigned(r, SU_POL "schedutil/up_rate_limit_us", &su->up_rate_limit_us);
	world_wm_read_unsigned(r, SU_POL "schedutil/down_rate_limit_us", &su->down_rate_limit_us);
	world_wm_read_unsigned(r, SU_POL "scaling_min_freq", &su->min_khz);
	world_wm_read_unsigned(r, SU_POL "scaling_max_freq", &su->max_khz);
}

const struct world_wm world_wm_schedutil = {
	WORLD_WM_MODEL("schedutil", read_in, 0.025, "[camera] keyframe:", "ms", 1000.0),
	WORLD_WM_LIST(files, files),
	WORLD_WM_LIST(threads, threads),
};

/* The clock (kHz) the governor runs the cluster at when the probe wakes:
 * performance the top, powersave the bottom of [min, max]; schedutil the
 * lowest OPP >= WM_SU_HEADROOM x u x fmax for the pipeline's load u ~
 * U(bg_util_lo, bg_util_hi) (the clock the key frame model starts from). */
static double probe_clock_khz(const struct wm_schedutil_in *in, struct wm_rng *r)
{
	double want = in->governor == WM_GOV_PERFORMANCE ? 1e12
		      : in->governor == WM_GOV_POWERSAVE
			      ? 0
			      : WM_SU_HEADROOM * wm_rng_range(r, in->bg_util_lo, in->bg_util_hi) *
					in->max_khz;
	double f = wm_schedutil_opp_at_least(in, want);

	return f > 0 ? f : in->max_khz;
}

void world_schedutil_probe_model(const struct wm_schedutil_in *in, struct wm_rng *r,
				 struct wm_sample *out)
{
	double f_mhz = probe_clock_khz(in, r) / 1000.0;
	double top_mhz = wm_schedutil_opp_at_least(in, INFINITY) / 1000.0;
	if (!(top_mhz > 0) || f_mhz > top_mhz)
		top_mhz = f_mhz;
	wm_sample_clear(out);
	wm_sample_add(out, WMC_BASE, -1, "timer wake-up", -1,
		      SU_PROBE_PATH_US + wm_rng_range(r, 0, SU_PROBE_NOISE_US) +
			      SU_PROBE_WORK / top_mhz);
	if (f_mhz < top_mhz)
		wm_sample_add(out, WMC_CLOCK_RAMP, -1, "cpufreq policy0", -1,
			      SU_PROBE_WORK / f_mhz - SU_PROBE_WORK / top_mhz);
}

int world_schedutil_probe(struct world *w, struct wm_sample *out)
{
	union wm_in in;
	int e = world_wm_input(world_def_of(w)->wm, sim_sysroot(world_sim(w)), &in);

	if (e)
		return e;
	world_schedutil_probe_model(&in.su, world_rng(w), out);
	return 0;
}
