/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Percentiles for the probe, and the window-level comparison of an ABBA
 * experiment for the A/B (method in stats.h): the permutation interval, the
 * residual noise of a window and the smallest difference it lets through.
 * Owns the seeded PRNG (splitmix64) and its variates. */
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
	/* within [min, max] by construction: n equal values must not sum to a
	 * mean a rounding error above them (issue 30) */
	d->mean = d->n ? fmin(fmax(sum / (double)d->n, d->min), d->max) : NAN;
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

void stats_summarize_hist(const struct hist *h, struct stats_summary *s)
{
	struct stats_dist d;

	stats_dist_from_hist(&d, h);
	stats_summarize(&d, s);
	stats_dist_free(&d);
}

/* ---- the window-level ABBA comparison --------------------------------------- */

/* The six ways to label two of a round's four windows B (bit i = window i). */
static const unsigned abba_sets[6] = {0x6, 0x9, 0x3, 0x5, 0xa, 0xc};

/* The round's real B windows as a set, or 0 when the round is not usable
 * (a NAN value, or not two windows of each arm). */
static unsigned round_set(const double *w, const int *arm)
{
	unsigned set = 0;
	int nb = 0;

	for (int i = 0; i < 4; i++) {
		if (isnan(w[i]))
			return 0;
		if (arm[i]) {
			set |= 1u << i;
			nb++;
		}
	}
	return nb == 2 ? set : 0;
}

struct abba_round {
	double u[6]; /* the arrangement's B − A contribution, already / (2R) */
	double v[6]; /* its overlap with the real labels: +1/R, −1/R or 0 */
};

struct abba_perm {
	const struct abba_round *rd;
	unsigned n;
	double t; /* observed statistic */
	double *theta;
	size_t ntheta;
};

static void abba_enum(struct abba_perm *p, unsigned r, double u, double v, bool ident)
{
	if (r == p->n) {
		if (!ident)
			p->theta[p->ntheta++] = (p->t - u) / (1.0 - v);
		return;
	}
	for (int c = 0; c < 6; c++)
		abba_enum(p, r + 1, u + p->rd[r].u[c], v + p->rd[r].v[c], ident && c == 0);
}

bool stats_abba_significant(const struct stats_abba *c)
{
	if (isnan(c->lo) || isnan(c->hi))
		return false;
	return c->lo > 0.0 || c->hi < 0.0;
}

/* Acklam's rational approximation of the standard normal quantile. */
static double normal_quantile(double p)
{
	static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
				   -2.759285104469687e+02, 1.383577518672690e+02,
				   -3.066479806614716e+01, 2.506628277459239e+00};
	static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
				   -1.556989798598866e+02, 6.680131188771972e+01,
				   -1.328068155288572e+01};
	static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
				   -2.400758277161838e+00, -2.549732539343734e+00,
				   4.374664141464968e+00,  2.938163982698783e+00};
	static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
				   2.445134137142996e+00, 3.754408661907416e+00};
	double q, r;

	if (!(p > 0.0 && p < 1.0))
		return NAN;
	if (p < 0.02425) {
		q = sqrt(-2.0 * log(p));
		return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		       ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
	}
	if (p > 1.0 - 0.02425)
		return -normal_quantile(1.0 - p);
	q = p - 0.5;
	r = q * q;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
	       (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
}

double stats_t_quantile(double p, double df)
{
	double z = normal_quantile(p), z2 = z * z;
	double g1 = (z2 + 1.0) * z / 4.0;
	double g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0;
	double g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0;
	double g4 =
		((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92160.0;

	if (isnan(z) || !(df >= 1.0))
		return NAN;
	return z + g1 / df + g2 / (df * df) + g3 / (df * df * df) + g4 / (df * df * df * df);
}

double stats_abba_mde(double sd, unsigned rounds)
{
	double df = 3.0 * rounds - 1.0;

	if (isnan(sd) || !rounds)
		return NAN;
	return (stats_t_quantile(0.975, df) + stats_t_quantile(0.80, df)) * sd / sqrt(rounds);
}

unsigned stats_abba_rounds_for(double sd, double effect)
{
	unsigned lo = STATS_ABBA_MIN_ROUNDS, hi = STATS_ABBA_MAX_ROUNDS;

	if (isnan(sd) || !(effect > 0.0))
		return 0;
	if (stats_abba_mde(sd, lo) <= effect)
		return lo;
	if (stats_abba_mde(sd, hi) > effect)
		return 0;
	while (hi - lo > 1) { /* the MDE falls with the rounds */
		unsigned mid = lo + (hi - lo) / 2;

		if (stats_abba_mde(sd, mid) <= effect)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

int stats_abba(const double *x, const int *arm, unsigned rounds, unsigned reps, uint64_t seed,
	       struct stats_abba *out)
{
	struct abba_round *rd;
	struct abba_perm pm;
	unsigned n = 0;
	double t = 0.0, rss = 0.0;
	uint64_t total = 1;
	size_t k, below = 0, above = 0;

	memset(out, 0, sizeof(*out));
	out->est = out->lo = out->hi = out->p = out->sd = out->mde = NAN;
	rd = xcalloc(rounds ? rounds : 1, sizeof(*rd));
	for (unsigned r = 0; r < rounds; r++) {
		const double *w = x + 4 * (size_t)r;
		unsigned real = round_set(w, arm + 4 * (size_t)r), sets[6];
		int k6 = 1;

		if (!real)
			continue;
		sets[0] = real; /* the real labels first: arrangement 0 */
		for (int c = 0; c < 6; c++)
			if (abba_sets[c] != real)
				sets[k6++] = abba_sets[c];
		for (int c = 0; c < 6; c++) {
			double s = 0.0;
			int nb = 0;

			for (int i = 0; i < 4; i++) {
				bool b = sets[c] >> i & 1;

				s += b ? w[i] : -w[i];
				nb += b && (real >> i & 1);
			}
			rd[n].u[c] = s; /* scaled below, once n is known */
			rd[n].v[c] = 2.0 * nb - 2.0;
		}
		n++;
	}
	out->rounds = n;
	if (!n) {
		free(rd);
		return -EINVAL;
	}
	for (unsigned r = 0; r < n; r++)
		for (int c = 0; c < 6; c++) {
			rd[r].u[c] /= 2.0 * n;
			rd[r].v[c] /= 2.0 * n;
		}
	for (unsigned r = 0; r < n; r++)
		t += rd[r].u[0];
	out->est = t;
	/* residuals of the additive model: round level + (B ? +t/2 : −t/2) */
	for (unsigned r = 0; r < rounds; r++) {
		const double *w = x + 4 * (size_t)r;
		const int *a = arm + 4 * (size_t)r;
		double m;

		if (!round_set(w, a))
			continue;
		m = (w[0] + w[1] + w[2] + w[3]) / 4.0;
		for (int i = 0; i < 4; i++) {
			double e = w[i] - m - (a[i] ? t / 2.0 : -t / 2.0);

			rss += e * e;
		}
	}
	out->sd = sqrt(rss / (3.0 * n - 1.0));
	out->mde = stats_abba_mde(out->sd, n);
	if (n < STATS_ABBA_MIN_ROUNDS) {
		free(rd);
		return 0;
	}

	for (unsigned r = 0; r < n && total <= STATS_PERM_EXACT_MAX; r++)
		total *= 6;
	pm.rd = rd;
	pm.n = n;
	pm.t = t;
	pm.ntheta = 0;
	if (total <= STATS_PERM_EXACT_MAX) {
		pm.theta = xcalloc(total, sizeof(double));
		abba_enum(&pm, 0, 0.0, 0.0, true);
		out->exact = true;
	} else {
		struct stats_rng rng;

		if (!reps)
			reps = STATS_PERM_REPS;
		stats_rng_seed(&rng, seed);
		pm.theta = xcalloc(reps, sizeof(double));
		for (unsigned i = 0; i < reps; i++) {
			double u = 0.0, v = 0.0;
			bool ident = true;

			for (unsigned r = 0; r < n; r++) {
				int c = (int)(stats_rng_next(&rng) % 6);

				u += rd[r].u[c];
				v += rd[r].v[c];
				ident &= c == 0;
			}
			if (!ident) /* the real labels: no crossing */
				pm.theta[pm.ntheta++] = (t - u) / (1.0 - v);
		}
		total = pm.ntheta + 1;
	}
	out->perms = total;
	qsort(pm.theta, pm.ntheta, sizeof(double), cmp_double);
	k = (size_t)(0.025 * (double)total); /* floor: coverage >= 95 % */
	if (k >= 1 && total - k <= pm.ntheta) {
		out->lo = pm.theta[k - 1];
		out->hi = pm.theta[total - k - 1];
	}
	for (size_t i = 0; i < pm.ntheta; i++) {
		below += pm.theta[i] <= 0.0;
		above += pm.theta[i] >= 0.0;
	}
	{
		double pu = (1.0 + (double)below) / (double)total;
		double pl = (1.0 + (double)above) / (double)total;

		out->p = fmin(1.0, 2.0 * fmin(pu, pl));
	}
	free(pm.theta);
	free(rd);
	return 0;
}

void stats_holm(const double *p, double *adj, size_t n)
{
	size_t *idx = xcalloc(n ? n : 1, sizeof(*idx)), m = 0;
	double *q = xcalloc(n ? n : 1, sizeof(*q)), run = 0.0;

	for (size_t i = 0; i < n; i++) {
		q[i] = p[i];
		if (!isnan(p[i]))
			idx[m++] = i;
	}
	for (size_t i = 0; i < n; i++)
		adj[i] = NAN;
	for (size_t i = 1; i < m; i++) /* insertion sort by p: n is small */
		for (size_t j = i; j > 0 && q[idx[j]] < q[idx[j - 1]]; j--) {
			size_t t = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	for (size_t j = 0; j < m; j++) {
		run = fmax(run, fmin(1.0, (double)(m - j) * q[idx[j]]));
		adj[idx[j]] = run;
	}
	free(q);
	free(idx);
}
