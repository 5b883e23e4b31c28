/* Percentiles, bootstrap confidence intervals and verdicts for the probe
 * and the A/B comparison (method in stats.h). Owns the seeded PRNG
 * (splitmix64) and the Beta/Gamma/normal variates the bootstrap draws. */
#include "probe/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

void stats_rng_seed(struct stats_rng *r, uint64_t seed)
{
	r->s = seed;
}

uint64_t stats_rng_next(struct stats_rng *r)
{
	uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

double stats_rng_uniform(struct stats_rng *r)
{
	/* 53 random bits, shifted by half a step: never 0, never 1. */
	return ((double)(stats_rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

double stats_rng_normal(struct stats_rng *r)
{
	/* Marsaglia polar method; the second variate is dropped to keep the
	 * generator state the only state. */
	for (;;) {
		double u = 2.0 * stats_rng_uniform(r) - 1.0;
		double v = 2.0 * stats_rng_uniform(r) - 1.0;
		double s = u * u + v * v;

		if (s > 0.0 && s < 1.0)
			return u * sqrt(-2.0 * log(s) / s);
	}
}

double stats_rng_gamma(struct stats_rng *r, double shape)
{
	double d, c;

	if (!(shape > 0.0))
		return NAN;
	if (shape < 1.0) /* boost: Gamma(a) = Gamma(a + 1) * U^(1/a) */
		return stats_rng_gamma(r, shape + 1.0) * pow(stats_rng_uniform(r), 1.0 / shape);
	/* Marsaglia and Tsang (2000). */
	d = shape - 1.0 / 3.0;
	c = 1.0 / sqrt(9.0 * d);
	for (;;) {
		double x, v, u;

		do {
			x = stats_rng_normal(r);
			v = 1.0 + c * x;
		} while (v <= 0.0);
		v = v * v * v;
		u = stats_rng_uniform(r);
		if (u < 1.0 - 0.0331 * x * x * x * x)
			return d * v;
		if (log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
			return d * v;
	}
}

double stats_rng_beta(struct stats_rng *r, double a, double b)
{
	double x = stats_rng_gamma(r, a);
	double y = stats_rng_gamma(r, b);

	return x / (x + y);
}

/* ---- distributions ------------------------------------------------------- */

void stats_dist_from_hist(struct stats_dist *d, const struct hist *h)
{
	size_t nb = 0;
	uint64_t cum = 0;

	memset(d, 0, sizeof(*d));
	for (int i = 0; i < HIST_NBUCKETS; i++)
		nb += h->bucket[i] != 0;
	d->val = xcalloc(nb ? nb : 1, sizeof(*d->val));
	d->cum = xcalloc(nb ? nb : 1, sizeof(*d->cum));
	for (int i = 0; i < HIST_NBUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		cum += h->bucket[i];
		d->cum[d->nval] = cum;
		d->val[d->nval] = hist_value_at_rank(h, cum);
		d->nval++;
	}
	/* n from the buckets, so that ranks and counts agree even if a live
	 * copy were inconsistent. */
	d->n = cum;
	d->min = d->n ? hist_min_us(h) : NAN;
	d->max = d->n ? hist_max_us(h) : NAN;
	d->mean = d->n ? hist_mean_us(h) : NAN;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_dist_from_values(struct stats_dist *d, const double *v, size_t n)
{
	double sum = 0.0;

	memset(d, 0, sizeof(*d));
	d->val = xcalloc(n ? n : 1, sizeof(*d->val));
	d->cum = xcalloc(n ? n : 1, sizeof(*d->cum));
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			d->val[d->nval++] = v[i];
	qsort(d->val, d->nval, sizeof(*d->val), cmp_double);
	for (size_t i = 0; i < d->nval; i++) {
		d->cum[i] = i + 1;
		sum += d->val[i];
	}
	d->n = d->nval;
	d->min = d->n ? d->val[0] : NAN;
	d->max = d->n ? d->val[d->nval - 1] : NAN;
	d->mean = d->n ? sum / (double)d->n : NAN;
}

void stats_dist_free(struct stats_dist *d)
{
	free(d->val);
	free(d->cum);
	memset(d, 0, sizeof(*d));
}

double stats_dist_at_rank(const struct stats_dist *d, uint64_t rank)
{
	size_t lo = 0, hi = d->nval;

	if (!d->n || rank < 1 || rank > d->n)
		return NAN;
	/* first k with cum[k] >= rank */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->cum[mid] >= rank)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo < d->nval ? d->val[lo] : d->max;
}

uint64_t stats_rank(double q, uint64_t n)
{
	double r = q * (double)n;

	r = ceil(r - r * 1e-12); /* 0.99 * 100 is rank 99 */
	if (r < 1.0)
		return 1;
	if (r > (double)n)
		return n;
	return (uint64_t)r;
}

double stats_dist_quantile(const struct stats_dist *d, double q)
{
	if (!d->n || !(q >= 0.0 && q <= 1.0))
		return NAN;
	return stats_dist_at_rank(d, stats_rank(q, d->n));
}

void stats_summarize(const struct stats_dist *d, struct stats_summary *s)
{
	s->n = d->n;
	s->min = d->min;
	s->mean = d->mean;
	s->max = d->max;
	s->p50 = stats_dist_quantile(d, 0.50);
	s->p90 = stats_dist_quantile(d, 0.90);
	s->p99 = stats_dist_quantile(d, 0.99);
	s->p999 = stats_dist_quantile(d, 0.999);
}

/* ---- bootstrap ------------------------------------------------------------ */

static double boot_quantile(struct stats_rng *r, const struct stats_dist *d, double q)
{
	uint64_t rank = stats_rank(q, d->n);
	double b = stats_rng_beta(r, (double)rank, (double)(d->n - rank + 1));
	double j = ceil((double)d->n * b);

	if (j < 1.0)
		j = 1.0;
	if (j > (double)d->n)
		j = (double)d->n;
	return stats_dist_at_rank(d, (uint64_t)j);
}

bool stats_ci_significant(const struct stats_ci *c)
{
	if (isnan(c->lo) || isnan(c->hi))
		return false;
	return c->lo > 0.0 || c->hi < 0.0;
}

static void boot_ci(struct stats_rng *r, const struct stats_dist *a, const struct stats_dist *b,
		    double q, unsigned reps, double *diffs, struct stats_ci *out)
{
	out->q = q;
	out->est = stats_dist_quantile(b, q) - stats_dist_quantile(a, q);
	for (unsigned i = 0; i < reps; i++)
		diffs[i] = boot_quantile(r, b, q) - boot_quantile(r, a, q);
	qsort(diffs, reps, sizeof(*diffs), cmp_double);
	/* 2.5th and 97.5th percentiles of the resampled differences (nearest
	 * rank, the same definition as everywhere else). */
	out->lo = diffs[stats_rank(0.025, reps) - 1];
	out->hi = diffs[stats_rank(0.975, reps) - 1];
}

int stats_compare(const struct stats_dist *a, const struct stats_dist *b, unsigned reps,
		  uint64_t seed, struct stats_cmp *out)
{
	struct stats_rng r;
	double *diffs;

	memset(out, 0, sizeof(*out));
	if (!reps)
		reps = STATS_BOOT_REPS;
	out->reps = reps;
	out->seed = seed;
	stats_summarize(a, &out->a);
	stats_summarize(b, &out->b);
	out->mean_diff = out->b.mean - out->a.mean;
	out->max_diff = out->b.max - out->a.max;
	if (!a->n || !b->n) {
		out->p50 = (struct stats_ci){0.5, NAN, NAN, NAN};
		out->p99 = (struct stats_ci){0.99, NAN, NAN, NAN};
		return -EINVAL;
	}
	stats_rng_seed(&r, seed);
	diffs = xcalloc(reps, sizeof(*diffs));
	boot_ci(&r, a, b, 0.50, reps, diffs, &out->p50);
	boot_ci(&r, a, b, 0.99, reps, diffs, &out->p99);
	free(diffs);
	return 0;
}

/* ---- verdict --------------------------------------------------------------- */

static int decimals_for(const double *v, int n)
{
	double m = 0.0;

	for (int i = 0; i < n; i++)
		if (!isnan(v[i]) && fabs(v[i]) > m)
			m = fabs(v[i]);
	return m >= 10.0 ? 0 : 1;
}

/* Signed number with a real minus sign (U+2212) and an explicit plus. */
static void put_signed(struct sbuf *out, double v, int dec)
{
	double scale = dec ? 10.0 : 1.0;
	double rounded = round(v * scale) / scale;

	if (isnan(v)) {
		sbuf_puts(out, "n/a");
		return;
	}
	if (rounded == 0.0)
		sbuf_printf(out, "%.*f", dec, 0.0);
	else if (rounded < 0.0)
		sbuf_printf(out, "\u2212%.*f", dec, -rounded);
	else
		sbuf_printf(out, "+%.*f", dec, rounded);
}

static void put_ci(struct sbuf *out, const char *name, const struct stats_ci *c, const char *unit,
		   bool mark_ns)
{
	double v[3] = {c->est, c->lo, c->hi};
	int dec = decimals_for(v, 3);

	sbuf_printf(out, "%s ", name);
	put_signed(out, c->est, dec);
	sbuf_printf(out, " %s [", unit);
	put_signed(out, c->lo, dec);
	sbuf_puts(out, ", ");
	put_signed(out, c->hi, dec);
	sbuf_puts(out, "]");
	if (mark_ns && !stats_ci_significant(c))
		sbuf_puts(out, " (n.s.)");
}

void stats_verdict(const struct stats_cmp *c, const char *label, const char *unit, struct sbuf *out)
{
	bool s99 = stats_ci_significant(&c->p99), s50 = stats_ci_significant(&c->p50);
	bool any = s99 || s50;
	double mx[1] = {c->max_diff};

	if (!unit)
		unit = "";
	sbuf_printf(out, "%s: ", label ? label : "B \u2212 A");
	if (!c->a.n || !c->b.n) {
		sbuf_printf(out, "no comparison (%s arm has no samples)", c->a.n ? "B" : "A");
		return;
	}
	if (!any)
		sbuf_puts(out, "no significant difference: ");
	put_ci(out, "p99", &c->p99, unit, any);
	sbuf_puts(out, ", ");
	put_ci(out, "p50", &c->p50, unit, any);
	sbuf_puts(out, ", max ");
	put_signed(out, c->max_diff, decimals_for(mx, 1));
	sbuf_printf(out, " %s", unit);
}
