/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the world models share (model/worldmodel.h): the seeded random
 * numbers and the sample breakdown helpers. The models are in
 * worldmodel_<name>.c, the table of worlds and the statistics of a stage in
 * worldmodel_table.c. Pure: no I/O, no allocation. */
#include "model/worldmodel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void wm_rng_seed(struct wm_rng *r, uint64_t seed)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL; /* splitmix64: never 0 afterwards */

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	r->s = z ? z : 0x2545f4914f6cdd1dULL;
}

uint64_t wm_rng_next(struct wm_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

double wm_rng_uniform(struct wm_rng *r)
{
	return (double)(wm_rng_next(r) >> 11) / (double)(1ULL << 53);
}

double wm_rng_range(struct wm_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * wm_rng_uniform(r);
}

double wm_rng_normal(struct wm_rng *r)
{
	double u1 = 1.0 - wm_rng_uniform(r); /* (0, 1]: log() is finite */
	double u2 = wm_rng_uniform(r);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

bool wm_rng_chance(struct wm_rng *r, double p)
{
	return wm_rng_uniform(r) < p;
}

int wm_rng_binomial(struct wm_rng *r, int n, double p)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += wm_rng_chance(r, p);
	return k;
}

static const char *const cause_names[WMC__COUNT] = {
	[WMC_WORK] = "work",
	[WMC_BASE] = "base",
	[WMC_CLOCK_RAMP] = "clock-ramp",
	[WMC_RATE_LIMIT] = "rate-limit",
	[WMC_IRQ] = "irq",
	[WMC_TASK] = "task",
	[WMC_THROTTLED] = "throttled",
	[WMC_MIGRATION] = "migration",
	[WMC_CACHE] = "cache",
	[WMC_IDLE_EXIT] = "idle-exit",
	[WMC_POLL] = "poll",
};

const char *wm_cause_name(enum wm_cause c)
{
	return (unsigned)c < WMC__COUNT ? cause_names[c] : "?";
}

void wm_sample_clear(struct wm_sample *s)
{
	memset(s, 0, sizeof(*s));
}

void wm_sample_add(struct wm_sample *s, enum wm_cause c, int id, const char *name, int prio,
		   double us)
{
	struct wm_term *t;

	if (!(us > 0) || s->n_terms >= WM_TERMS_MAX)
		return;
	t = &s->terms[s->n_terms++];
	t->cause = c;
	t->id = id;
	snprintf(t->name, sizeof(t->name), "%s", name ? name : "");
	t->prio = prio;
	t->us = us;
	s->total_us += us;
}

const struct wm_term *wm_sample_main_cause(const struct wm_sample *s)
{
	const struct wm_term *best = NULL;

	for (size_t i = 0; i < s->n_terms; i++) {
		const struct wm_term *t = &s->terms[i];

		if (t->cause == WMC_WORK || t->cause == WMC_BASE)
			continue;
		if (!best || t->us > best->us)
			best = t;
	}
	return best;
}

double wm_sample_term_us(const struct wm_sample *s, enum wm_cause c)
{
	double us = 0;

	for (size_t i = 0; i < s->n_terms; i++)
		if (s->terms[i].cause == c)
			us += s->terms[i].us;
	return us;
}

static const char *const stat_names[] = {
	[WM_STAT_MEAN] = "mean",
	[WM_STAT_SD] = "sd",
	[WM_STAT_MAX] = "max",
	[WM_STAT_FRAC_UNDER] = "share under",
};

const char *wm_stat_name(enum wm_stat s)
{
	return (unsigned)s <= WM_STAT_FRAC_UNDER ? stat_names[s] : "?";
}
