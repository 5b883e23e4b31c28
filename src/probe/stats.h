/* Statistics for the probe and the A/B comparison: sorted distributions
 * built from histograms or from raw values, nearest-rank percentiles, the
 * difference B - A with percentile-bootstrap confidence intervals (seeded, so
 * the same data gives the same interval), and a verdict sentence.
 *
 * Bootstrap method: a resample of n values drawn with replacement from a
 * sorted sample x(1..n) has, as its nearest-rank q-quantile (rank r), the
 * original value x(J) with J = ceil(n * B), B ~ Beta(r, n - r + 1) (the r-th
 * order statistic of n uniforms). So one resampled quantile costs one Beta
 * draw and a binary search, not n draws, which keeps a 2000-round bootstrap
 * over a million samples instant. This is exactly the ordinary bootstrap,
 * not an approximation. The interval is the 2.5th..97.5th percentile of the
 * 2000 resampled differences q(B*) - q(A*) (A and B resampled
 * independently). */
#ifndef TT_PROBE_STATS_H
#define TT_PROBE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/str.h"
#include "probe/histogram.h"

#define STATS_BOOT_REPS	   2000
#define STATS_DEFAULT_SEED UINT64_C(0x7475e7ab5eed0001)

/* splitmix64: tiny, fast, good enough for resampling, fully reproducible. */
struct stats_rng {
	uint64_t s;
};

void stats_rng_seed(struct stats_rng *r, uint64_t seed);
uint64_t stats_rng_next(struct stats_rng *r);
double stats_rng_uniform(struct stats_rng *r);			/* in (0, 1) */
double stats_rng_normal(struct stats_rng *r);			/* N(0, 1) */
double stats_rng_gamma(struct stats_rng *r, double shape);	/* Gamma(shape, 1), shape > 0 */
double stats_rng_beta(struct stats_rng *r, double a, double b); /* Beta(a, b) */

/* A sample in sorted order: distinct values val[0..nval) with cumulative
 * counts cum[] (cum[k] = number of samples <= val[k]). From a histogram the
 * values are hist_value_at_rank's bucket values (so quantiles agree with
 * hist_percentile_us); from raw values they are the values themselves. */
struct stats_dist {
	uint64_t n; /* samples */
	double min, max, mean;
	double *val;
	uint64_t *cum;
	size_t nval;
};

void stats_dist_from_hist(struct stats_dist *d, const struct hist *h);
void stats_dist_from_values(struct stats_dist *d, const double *v, size_t n);
void stats_dist_free(struct stats_dist *d);
/* Value of the sample of 1-based rank `rank`; NAN when out of range. */
double stats_dist_at_rank(const struct stats_dist *d, uint64_t rank);
/* Nearest-rank rank of quantile q for n samples: ceil(q * n), at least 1. */
uint64_t stats_rank(double q, uint64_t n);
/* Nearest-rank quantile (same definition as hist_percentile_us); NAN if empty. */
double stats_dist_quantile(const struct stats_dist *d, double q);

/* Everything NAN (and n = 0) when the distribution is empty. */
struct stats_summary {
	uint64_t n;
	double min, mean, p50, p90, p99, p999, max;
};

void stats_summarize(const struct stats_dist *d, struct stats_summary *s);

/* A difference B - A with its 95% bootstrap confidence interval. */
struct stats_ci {
	double q;   /* 0.5, 0.99 */
	double est; /* quantile(B) - quantile(A) on the original data */
	double lo, hi;
};

/* True when the interval does not contain 0. */
bool stats_ci_significant(const struct stats_ci *c);

struct stats_cmp {
	struct stats_summary a, b;
	struct stats_ci p50, p99;
	double mean_diff, max_diff; /* B - A, no interval (the max is one sample) */
	unsigned reps;
	uint64_t seed;
};

/* Compare two distributions. reps = 0 means STATS_BOOT_REPS. Returns 0, or
 * -EINVAL when either side is empty (out is then filled with what is known,
 * intervals NAN). */
int stats_compare(const struct stats_dist *a, const struct stats_dist *b, unsigned reps,
		  uint64_t seed, struct stats_cmp *out);

/* One sentence, e.g. "cpu-sleep disabled: p99 −87 µs [−95, −80], p50 −3 µs
 * [−4, −2], max −210 µs", or "...: no significant difference: p99 +2 µs
 * [−3, +8], ..." when neither interval excludes 0. A single non-significant
 * interval is marked "(n.s.)". label NULL = "B − A"; unit e.g. "µs", "ms".
 * Appended to out (no newline). */
void stats_verdict(const struct stats_cmp *c, const char *label, const char *unit,
		   struct sbuf *out);

#endif
