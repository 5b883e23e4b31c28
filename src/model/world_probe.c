/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The probe in a world (see world_probe.h). */
#include "model/world_probe.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "model/world.h"
#include "model/world_why.h"

bool world_has_probe(const struct world *w)
{
	return w && world_def_of(w)->probe_sample;
}

static void keep_cand(struct world_probe *p, uint64_t deadline_ns, const struct wm_sample *s)
{
	if (p->ncand >= WORLD_PROBE_CAND_MAX) {
		p->cand_drops++;
		return;
	}
	if (p->ncand == p->capcand) {
		p->capcand = p->capcand ? 2 * p->capcand : 256;
		p->cand = xrealloc(p->cand, p->capcand * sizeof(*p->cand));
	}
	p->cand[p->ncand].deadline_ns = deadline_ns;
	p->cand[p->ncand++].s = *s;
}

int world_probe_run(struct world *w, uint64_t interval_us, double secs, bool keep,
		    struct world_probe *out)
{
	const struct world_def *d = world_def_of(w);
	const uint64_t iv_ns = interval_us * 1000u;
	uint64_t dl, end, bar_ns = 0, n = 0;
	double stepped = 0, sum = 0, sumsq = 0;

	memset(out, 0, sizeof(*out));
	hist_init(&out->hist);
	out->mean_us = out->sd_us = NAN;
	out->keep = keep;
	if (!d->probe_sample)
		return -ENOTSUP;
	if (!iv_ns || !(secs > 0))
		return -EINVAL;
	world_invalidate(w); /* knobs written since the last run */
	out->start_ns = (uint64_t)(world_time(w) * 1e9);
	dl = out->start_ns + iv_ns;
	end = out->start_ns + (uint64_t)(secs * 1e9);
	while (dl <= end) {
		struct wm_sample s;
		uint64_t lat_ns, wake, skip;
		int e;

		/* the world moves with the probe's clock */
		while ((double)(dl - out->start_ns) / 1e9 - stepped >= WORLD_PROBE_STEP_S) {
			world_step(w, WORLD_PROBE_STEP_S);
			stepped += WORLD_PROBE_STEP_S;
		}
		e = d->probe_sample(w, &s);
		if (e)
			return e;
		lat_ns = s.total_us > 0 ? (uint64_t)(s.total_us * 1000.0 + 0.5) : 0;
		hist_add(&out->hist, lat_ns, dl + lat_ns);
		sum += s.total_us;
		sumsq += s.total_us * s.total_us;
		if (keep && lat_ns >= bar_ns)
			keep_cand(out, dl, &s);
		/* the running p90 decides what is kept (every 100 samples) */
		if (keep && ++n % 100 == 0 && out->hist.count >= 100)
			bar_ns = (uint64_t)(hist_percentile_us(&out->hist, 0.90) * 1000.0);
		/* deadlines that passed while it was late are skipped (probe.h) */
		wake = dl + lat_ns;
		dl += iv_ns;
		skip = wake >= dl ? (wake - dl) / iv_ns + 1 : 0;
		if (skip)
			hist_add_overflows(&out->hist, skip);
		dl += skip * iv_ns;
	}
	if (secs - stepped > 1e-9)
		world_step(w, secs - stepped);
	out->sim_s = secs;
	n = out->hist.count;
	out->mean_us = n ? sum / (double)n : NAN;
	out->sd_us = n > 1 ? sqrt(fmax(0, (sumsq - sum * sum / (double)n) / (double)(n - 1))) : NAN;
	return 0;
}

int world_probe_why(const struct world_probe *p, int cpu, int prio, const char *hk, uint64_t thr_ns,
		    struct world_why *ww, struct why_result *res)
{
	struct why_opts o;
	int e;

	memset(&o, 0, sizeof(o));
	world_why_init(ww, cpu, prio);
	for (size_t i = 0; i < p->ncand; i++)
		if ((uint64_t)(p->cand[i].s.total_us * 1000.0 + 0.5) >= thr_ns)
			world_why_add(ww, &p->cand[i].s, p->cand[i].deadline_ns);
	world_why_finish(ww, &o);
	o.over_ns = thr_ns;
	if (hk)
		str_copy(o.housekeeping, sizeof(o.housekeeping), hk);
	e = why_attribute(&ww->ev, &o, res);
	if (!e)
		res->threshold_ns = thr_ns;
	return e;
}

void world_probe_free(struct world_probe *p)
{
	free(p->cand);
	p->cand = NULL;
	p->ncand = p->capcand = 0;
}
