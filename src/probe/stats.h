/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statistics for the probe and the A/B comparison: sorted distributions
 * built from histograms or from raw values, nearest-rank percentiles, and the
 * window-level comparison of an ABBA experiment.
 *
 * The unit of evidence is the window, not the sample: wake-ups within a
 * window are strongly correlated (one slow host tick delays hundreds of
 * them), and windows of the same arm differ by more than their samples
 * suggest. So each window is reduced to one number per metric (its p50, p99,
 * mean, ...) and the arms are compared on those numbers.
 *
 * Method (stats_abba): the windows come in complete rounds of four, two of
 * each arm (the A/B alternates A B B A and B A A B). The estimate is B − A =
 * the mean of the B windows' values − the mean of the A windows'. Its 95 %
 * interval inverts a permutation test in which the arm labels are permuted
 * within each round (each round keeps two A and two B windows: 6
 * arrangements per round, 6^R in all, enumerated exactly up to
 * STATS_PERM_EXACT_MAX, else STATS_PERM_REPS random ones drawn with a seed).
 * Under "B = A + d" every arrangement is equally likely, and each
 * arrangement π crosses the observed one at one d, θπ = (T − Uπ) / (1 − Vπ)
 * (T the observed statistic, Uπ the statistic of π, Vπ its overlap with the
 * real labels); the interval is [θ(k), θ(N−k)] over the N − 1 sorted θ with
 * k = floor(0.025 N) — the exact set of d that the two-sided test at 5 % does
 * not reject (Hartigan's construction). Fewer than STATS_ABBA_MIN_ROUNDS
 * rounds have k = 0: no interval ("inconclusive"). Permuting within rounds
 * keeps slow drift and between-round shifts out of the comparison. When
 * neighbouring windows are alike (the machine's state wanders, a burst of
 * load spans two windows), the ABBA contrast varies less than the other
 * arrangements, and mirroring every other round (B A A B) makes the
 * windows next to a round boundary belong to different arms: both make the
 * test err on the safe side. (With A B B A A B B A ..., the A windows on
 * either side of a boundary share such bursts and two rounds lean the same
 * way: a simulated A/A with lag-1-correlated windows came out significant
 * in 8-9 % of runs instead of <= 5 %.)
 *
 * Noise and the smallest detectable difference: the residual standard
 * deviation s of one window's value after removing each round's level and
 * the arm difference (3R − 1 degrees of freedom) gives the standard error
 * s / sqrt(R) of the estimate, and the minimum detectable effect (MDE,
 * 80 % power at the two-sided 5 % level) (t(0.975) + t(0.80)) s / sqrt(R). */
#ifndef TT_PROBE_STATS_H
#define TT_PROBE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/str.h"
#include "probe/histogram.h"

#define STATS_DEFAULT_SEED UINT64_C(0x7475e7ab5eed0001)

/* splitmix64: tiny, fast, good enough for random permutations and
 * simulations, fully reproducible. */
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
/* The summary of a histogram (stats_dist_from_hist + stats_summarize). */
void stats_summarize_hist(const struct hist *h, struct stats_summary *s);

/* ---- the window-level ABBA comparison ---------------------------------- */

#define STATS_ABBA_MIN_ROUNDS 3	    /* fewest complete rounds with a 95 % interval */
#define STATS_PERM_EXACT_MAX  50000 /* 6^R arrangements enumerated up to this (R <= 6) */
#define STATS_PERM_REPS	      20000 /* random arrangements beyond */
#define STATS_ABBA_MAX_ROUNDS 100000

struct stats_abba {
	unsigned rounds; /* complete ABBA rounds used (a round with a NAN value is left out) */
	double est;	 /* B − A: mean of the B windows' values − mean of the A windows' */
	double lo, hi;	 /* 95 % interval; NAN when rounds < STATS_ABBA_MIN_ROUNDS */
	double p;	 /* two-sided permutation p-value of "no difference"; NAN likewise */
	double sd;	 /* residual SD of one window's value (round + arm model); NAN
			  * when no round */
	double mde;	 /* smallest difference these rounds see (80 % power, 5 %); NAN
			  * when sd is */
	bool exact;	 /* all 6^R arrangements enumerated (else random ones) */
	uint64_t perms;	 /* arrangements the interval is based on */
};

/* Compare one metric: x[4 * rounds] are the windows' values in time order,
 * arm[i] the arm of window i (0 = A, 1 = B); round r = windows 4r..4r+3. A
 * round with a NAN value or without two windows of each arm is left out.
 * reps = 0 means STATS_PERM_REPS (used only beyond exact enumeration); seed
 * makes the random arrangements reproducible. Returns 0, or -EINVAL when no
 * round is usable (out->rounds = 0, est and everything else NAN). */
int stats_abba(const double *x, const int *arm, unsigned rounds, unsigned reps, uint64_t seed,
	       struct stats_abba *out);
/* The interval excludes 0. */
bool stats_abba_significant(const struct stats_abba *c);
/* The MDE of R rounds for a window SD of sd (NAN when sd is NAN or R = 0). */
double stats_abba_mde(double sd, unsigned rounds);
/* Fewest rounds (at least STATS_ABBA_MIN_ROUNDS) whose MDE is at most
 * effect; 0 when more than STATS_ABBA_MAX_ROUNDS would be needed or sd or
 * effect is unknown. */
unsigned stats_abba_rounds_for(double sd, double effect);
/* Holm's step-down adjustment of n p-values (Holm 1979): sorted ascending,
 * the j-th smallest (0-based) multiplied by n - j, made monotone, capped at
 * 1. Rejecting every p_adj < alpha keeps the family-wise error (the chance
 * of any false alarm among the n tests) at alpha or less, whatever their
 * dependence. NAN p-values are left out of the family (their adj is NAN,
 * and n counts only the others). adj may be p. */
void stats_holm(const double *p, double *adj, size_t n);
/* Student's t quantile (Cornish-Fisher expansion, good to ~1 % for df >= 2). */
double stats_t_quantile(double p, double df);

#endif
