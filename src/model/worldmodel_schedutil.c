/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `schedutil` world (field note 2): a camera product's key frame on a
 * Cortex-A72 cluster under schedutil, and how the governor's up rate limit
 * decides how long the frame runs below the top clock.
 *
 * Mechanism of one key frame: the frame's work W (ms at 1800 MHz, content
 * varies: W = W0 (1 + cv N(0,1)), at least W0/5) arrives while the cluster
 * runs the pipeline's light frames at utilisation u ~ U(lo, hi), so at the
 * clock schedutil chose for it, f0 = the lowest OPP >= 1.25 u fmax. With
 * frequency-invariant utilisation a busy CPU's util converges to f/fmax, so
 * each new request is at most 1.25 x the current clock: the clock climbs one
 * headroom step (the lowest OPP >= 1.25 f) per decision. Decisions come once
 * per PELT period (1024 us) at best and no sooner than up_rate_limit_us
 * after the previous switch; the first one at a random phase of that
 * interval (the pipeline keeps the governor switching). The frame ends when
 * the work integrated over the clock reaches W. Terms: the work at the top
 * clock (WMC_WORK), and the time lost below it, as WMC_RATE_LIMIT when the
 * rate limit set the pace and WMC_CLOCK_RAMP when the PELT period did.
 * performance / powersave run the whole frame at max / min. The down rate
 * limit only acts after the frame (how soon the clock falls): not part of
 * the frame time. */
#include "model/worldmodel.h"

#include <errno.h>
#include <math.h>

const unsigned wm_schedutil_opp_khz[] = {408000,  600000,  816000,  1008000,
					 1200000, 1416000, 1608000, 1800000};
const size_t wm_schedutil_n_opp = sizeof(wm_schedutil_opp_khz) / sizeof(wm_schedutil_opp_khz[0]);

#define SU_REF_KHZ 1800000.0 /* the clock frame_work_ms is given at */

void wm_schedutil_defaults(struct wm_schedutil_in *in)
{
	in->governor = WM_GOV_SCHEDUTIL;
	in->up_rate_limit_us = 30000; /* calibrated: the product's vendor default (doc) */
	in->down_rate_limit_us = 30000;
	in->min_khz = 408000;
	in->max_khz = 1800000;
	in->frame_work_ms = 40.0;
	in->frame_work_cv = 0.22;
	in->bg_util_lo = 0.0;
	in->bg_util_hi = 1.0;
}

double wm_schedutil_opp_at_least(const struct wm_schedutil_in *in, double khz)
{
	double top = 0;

	for (size_t i = 0; i < wm_schedutil_n_opp; i++) {
		double f = wm_schedutil_opp_khz[i];

		if (f < in->min_khz || f > in->max_khz)
			continue;
		top = f;
		if (f >= khz)
			return f;
	}
	return top;
}

static double opp_lowest(const struct wm_schedutil_in *in)
{
	return wm_schedutil_opp_at_least(in, 0);
}

int wm_schedutil_sample(const struct wm_schedutil_in *in, struct wm_rng *r, struct wm_sample *out)
{
	double w0 = in->frame_work_ms * 1000.0, work, top, f, t = 0, step_us, next, lost = 0;
	bool by_rate_limit = in->up_rate_limit_us >= WM_SU_PELT_US;

	wm_sample_clear(out);
	if (!(in->frame_work_ms > 0) || in->min_khz > in->max_khz)
		return -EINVAL;
	work = fmax(w0 / 5.0, w0 * (1.0 + in->frame_work_cv * wm_rng_normal(r))) * SU_REF_KHZ;
	top = wm_schedutil_opp_at_least(in, INFINITY);
	if (!(top > 0))
		return -EINVAL;
	switch (in->governor) {
	case WM_GOV_PERFORMANCE: f = top; break;
	case WM_GOV_POWERSAVE: f = opp_lowest(in); break;
	default:
		f = wm_schedutil_opp_at_least(
			in, WM_SU_HEADROOM * wm_rng_range(r, in->bg_util_lo, in->bg_util_hi) * top);
		break;
	}
	step_us = fmax((double)in->up_rate_limit_us, (double)WM_SU_PELT_US);
	next = wm_rng_range(r, 0, step_us);
	/* Each pass runs at f until the next decision (or the end of the
	 * work), then takes one headroom step up. */
	while (in->governor == WM_GOV_SCHEDUTIL && f < top && work > f * (next - t)) {
		work -= f * (next - t);
		lost += (next - t) * (1.0 - f / top);
		t = next;
		f = wm_schedutil_opp_at_least(in, WM_SU_HEADROOM * f);
		next = t + step_us;
	}
	t += work / f;
	lost += work / f * (1.0 - f / top);
	wm_sample_add(out, WMC_WORK, -1, "key frame", -1, t - lost);
	if (in->governor != WM_GOV_SCHEDUTIL)
		wm_sample_add(out, WMC_CLOCK_RAMP, -1, "powersave", -1, lost);
	else
		wm_sample_add(out, by_rate_limit ? WMC_RATE_LIMIT : WMC_CLOCK_RAMP, -1,
			      by_rate_limit ? "up_rate_limit_us" : "util ramp", -1, lost);
	return 0;
}

WM_HOOKS(schedutil, su)
WM_STAGE(stage_tuned, defaults, in->su.up_rate_limit_us = 500, in->su.down_rate_limit_us = 2000)

static const struct wm_stage stages[] = {
	WM_ROW_FIGS("A vendor default",
		    "cpufreq/policy0/governor=schedutil "
		    "cpufreq/policy0/schedutil/up_rate_limit_us=30000 "
		    "cpufreq/policy0/schedutil/down_rate_limit_us=30000",
		    defaults, 1, WM_FIG(WM_STAT_SD, 23000)),
	WM_ROW_FIGS("B fast up, slow down",
		    "cpufreq/policy0/governor=schedutil "
		    "cpufreq/policy0/schedutil/up_rate_limit_us=500 "
		    "cpufreq/policy0/schedutil/down_rate_limit_us=2000",
		    stage_tuned, 1, WM_FIG(WM_STAT_SD, 9000)),
};

WM_WORLD(wm_world_schedutil, "schedutil", "Cortex-A72 quad",
	 "2. schedutil tuning (rate limits; a camera's key-frame latency SD 23 -> 9 ms)",
	 "key-frame processing time", 4000);
