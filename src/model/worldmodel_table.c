/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of worlds (model/worldmodel.h) and the statistics a stage's
 * figures are taken from: it refers to each world's entry, and the worlds
 * use only the helpers of worldmodel.c (so no file refers back to it). */
#include "model/worldmodel.h"

#include <errno.h>
#include <math.h>
#include <string.h>

extern const struct wm_world wm_world_schedutil, wm_world_rpmsg, wm_world_affinity, wm_world_rtbs;

static const struct wm_world *const worlds[] = {
	&wm_world_schedutil,
	&wm_world_rpmsg,
	&wm_world_affinity,
	&wm_world_rtbs,
};

size_t wm_world_count(void)
{
	return sizeof(worlds) / sizeof(worlds[0]);
}

const struct wm_world *wm_world_at(size_t i)
{
	return i < wm_world_count() ? worlds[i] : NULL;
}

const struct wm_world *wm_world_find(const char *name)
{
	for (size_t i = 0; name && i < wm_world_count(); i++)
		if (strcmp(worlds[i]->name, name) == 0)
			return worlds[i];
	return NULL;
}

int wm_world_stats(const struct wm_world *w, const union wm_in *in, uint64_t seed, size_t n,
		   double frac_under_us, struct wm_stats *out)
{
	struct wm_rng r;
	struct wm_sample s;
	double sum = 0, sum2 = 0, max = -INFINITY;
	size_t under = 0;
	int state = -1;

	if (n == 0)
		return -EINVAL;
	wm_rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++) {
		int rc = w->sample(in, &r, &state, &s);

		if (rc < 0)
			return rc;
		sum += s.total_us;
		sum2 += s.total_us * s.total_us;
		if (s.total_us > max)
			max = s.total_us;
		under += s.total_us < frac_under_us;
	}
	out->mean_us = sum / (double)n;
	out->sd_us = sqrt(fmax(0.0, sum2 / (double)n - out->mean_us * out->mean_us));
	out->max_us = max;
	out->frac_under = (double)under / (double)n;
	return 0;
}

static double stat_pick(const struct wm_stats *st, enum wm_stat s)
{
	switch (s) {
	case WM_STAT_MEAN: return st->mean_us;
	case WM_STAT_SD: return st->sd_us;
	case WM_STAT_MAX: return st->max_us;
	case WM_STAT_FRAC_UNDER: return st->frac_under;
	}
	return NAN;
}

static double stage_stat(const struct wm_world *w, size_t stage, const struct wm_figure *f,
			 uint64_t seed)
{
	union wm_in in;
	struct wm_stats st;

	memset(&in, 0, sizeof(in));
	w->stages[stage].input(&in);
	if (wm_world_stats(w, &in, seed, w->n_samples, f->arg_us, &st) < 0)
		return NAN;
	return stat_pick(&st, f->stat);
}

double wm_stage_figure(const struct wm_world *w, size_t stage, size_t fig, uint64_t seed)
{
	const struct wm_figure *f;
	double v;

	if (!w || stage >= w->n_stages || fig >= w->stages[stage].n_figures)
		return NAN;
	f = &w->stages[stage].figures[fig];
	v = stage_stat(w, stage, f, seed);
	if (f->ref >= 0) {
		if ((size_t)f->ref >= w->n_stages)
			return NAN;
		v /= stage_stat(w, (size_t)f->ref, f, seed);
	}
	return v;
}
