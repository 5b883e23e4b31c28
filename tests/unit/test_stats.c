/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/probe/stats.c: the seeded PRNG and variates, quantiles
 * from histograms and from raw values, and the window-level ABBA comparison:
 * exact cases, the noise and MDE, and a seeded simulation of 1000 A/A and
 * A/B experiments with correlated windows and samples (false positives at
 * most 5 %, power at least 80 % for a shift of twice the window spread). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "probe/histogram.h"
#include "probe/stats.h"
#include "tap.h"

static void test_rng(void)
{
	struct stats_rng a, b;
	int same = 1, inside = 1;
	double sum = 0, bsum = 0, gsum = 0;
	const int n = 200000;

	stats_rng_seed(&a, 1);
	stats_rng_seed(&b, 1);
	for (int i = 0; i < 1000; i++)
		if (stats_rng_next(&a) != stats_rng_next(&b))
			same = 0;
	ok(same, "same seed, same sequence");
	stats_rng_seed(&a, 0);
	is_int(stats_rng_next(&a), (long long)UINT64_C(0xe220a8397b1dcdaf),
	       "splitmix64(0) first output is the reference value");
	stats_rng_seed(&a, 7);
	for (int i = 0; i < n; i++) {
		double u = stats_rng_uniform(&a);

		if (!(u > 0.0 && u < 1.0))
			inside = 0;
		sum += u;
		bsum += stats_rng_beta(&a, 3.0, 7.0);
		gsum += stats_rng_gamma(&a, 0.5);
	}
	ok(inside, "uniform draws in (0, 1)");
	is_dbl(sum / n, 0.5, 0.005, "uniform mean 0.5");
	is_dbl(bsum / n, 0.3, 0.005, "Beta(3, 7) mean 0.3");
	is_dbl(gsum / n, 0.5, 0.01, "Gamma(0.5) mean 0.5");
}

static void test_quantiles(void)
{
	struct hist *h = calloc(1, sizeof(*h));
	struct stats_dist d;
	struct stats_summary s;
	double v[] = {5, 1, 4, 2, 3, NAN};
	int agree = 1;

	stats_dist_from_values(&d, v, 6);
	is_int(d.n, 5, "NAN values are left out");
	is_dbl(stats_dist_quantile(&d, 0.5), 3, 0, "median of 1..5");
	is_dbl(stats_dist_quantile(&d, 0.99), 5, 0, "p99 of 5 values = max");
	is_dbl(d.mean, 3, 1e-12, "mean");
	ok(isnan(stats_dist_at_rank(&d, 0)) && isnan(stats_dist_at_rank(&d, 6)),
	   "rank out of range -> NAN");
	stats_dist_free(&d);

	stats_dist_from_values(&d, v, 0);
	stats_summarize(&d, &s);
	ok(s.n == 0 && isnan(s.p50) && isnan(s.min) && isnan(s.max) && isnan(s.mean),
	   "empty distribution summarizes to NAN, not 0");
	stats_dist_free(&d);

	hist_init(h);
	for (uint64_t i = 0; i < 5000; i++)
		hist_add(h, ((i * 37) % 1500) * 1000 + 250, 0);
	stats_dist_from_hist(&d, h);
	for (double q = 0.0; q <= 1.0; q += 0.001)
		if (stats_dist_quantile(&d, q) != hist_percentile_us(h, q))
			agree = 0;
	ok(agree, "distribution from a histogram agrees with hist_percentile_us");
	stats_summarize(&d, &s);
	ok(s.min <= s.p50 && s.p50 <= s.p90 && s.p90 <= s.p99 && s.p99 <= s.p999 && s.p999 <= s.max,
	   "summary is monotone");
	stats_dist_free(&d);
	free(h);
}

/* ---- the window-level ABBA comparison ------------------------------------- */

/* The A/B's schedule (ab_window_arm): A B B A, B A A B, A B B A, ... */
static int arm_of(int w)
{
	return (w % 4 == 1 || w % 4 == 2) ^ ((w / 4) & 1);
}

static void test_abba_basics(void)
{
	/* 3 rounds (12 windows) */
	double same[12], shift[12], two[8], noisy[12];
	int arm[40];
	struct stats_abba c, c2;

	for (int i = 0; i < 40; i++)
		arm[i] = arm_of(i);

	is_dbl(stats_t_quantile(0.975, 10), 2.228, 0.01, "t(0.975, 10) = 2.228");
	is_dbl(stats_t_quantile(0.975, 2), 4.303, 0.1, "t(0.975, 2) = 4.30 (within 3 %)");
	is_dbl(stats_t_quantile(0.80, 1e9), 0.8416, 0.001, "t(0.80, inf) = z(0.80)");
	is_dbl(stats_t_quantile(0.025, 8), -stats_t_quantile(0.975, 8), 1e-9, "t is symmetric");

	for (int i = 0; i < 12; i++) {
		int b = arm[i];

		same[i] = 50;
		shift[i] = 50 + 7 * b + i; /* +7 in B, and a linear drift */
		noisy[i] = 50 + (i * 37 % 11) - 5 + 3 * b;
	}
	is_int(stats_abba(same, arm, 3, 0, 1, &c), 0, "3 rounds compare");
	ok(c.rounds == 3 && c.exact && c.perms == 216, "3 rounds: all 6^3 = 216 arrangements");
	ok(c.est == 0 && c.lo == 0 && c.hi == 0 && c.sd == 0, "equal windows: 0 [0, 0], no noise");
	ok(!stats_abba_significant(&c) && c.p == 1, "equal windows: not significant, p = 1");

	stats_abba(shift, arm, 3, 0, 1, &c);
	is_dbl(c.est, 7, 1e-9, "a pure shift under linear drift: estimate exact (ABBA cancels it)");
	ok(c.lo <= 7 && 7 <= c.hi, "... inside its interval [%g, %g]", c.lo, c.hi);
	ok(stats_abba_significant(&c), "... and significant (p = %.3f)", c.p);
	ok(c.p <= 2.0 * 5 / 216 + 1e-12, "... p at the smallest the 216 arrangements allow");

	stats_abba(noisy, arm, 3, 0, 1, &c);
	ok(c.lo < c.est && c.est < c.hi, "noisy: estimate %.2f inside [%.2f, %.2f]", c.est, c.lo,
	   c.hi);
	ok(stats_abba_significant(&c) == (c.p < 0.05), "the interval and the p-value agree");
	ok(c.sd > 0 && c.mde > c.sd, "noise: sd %.2f, detectable %.2f", c.sd, c.mde);

	for (int i = 0; i < 8; i++)
		two[i] = 50 + arm[i] * 100 + i % 3;
	is_int(stats_abba(two, arm, 2, 0, 1, &c), 0, "2 rounds compare");
	ok(c.rounds == 2 && isnan(c.lo) && isnan(c.hi) && isnan(c.p),
	   "2 rounds: no interval, even for a huge difference");
	ok(!stats_abba_significant(&c), "... so never significant");
	ok(c.est > 99 && !isnan(c.sd) && !isnan(c.mde), "... but an estimate and the noise");

	two[5] = NAN;
	stats_abba(two, arm, 2, 0, 1, &c);
	is_int(c.rounds, 1, "a round with a NAN window is left out");
	{
		int bad[8] = {0, 1, 1, 1, 1, 0, 0, 1};

		stats_abba(same, bad, 2, 0, 1, &c);
		is_int(c.rounds, 1, "a round without two windows of each arm is left out");
	}
	is_int(stats_abba(two, arm, 0, 0, 1, &c), -22, "no round: -EINVAL");
	ok(isnan(c.est) && isnan(c.sd), "no round: everything NAN");

	/* MDE and the rounds it takes */
	ok(stats_abba_mde(1, 12) < stats_abba_mde(1, 6) &&
		   stats_abba_mde(1, 6) < stats_abba_mde(1, 3),
	   "more rounds see smaller differences");
	{
		unsigned r = stats_abba_rounds_for(1, stats_abba_mde(1, 6) / 2);

		ok(r > 20 && r < 27, "half the MDE of 6 rounds takes about 4x the rounds (%u)", r);
		ok(stats_abba_mde(1, r) <= stats_abba_mde(1, 6) / 2 &&
			   stats_abba_mde(1, r - 1) > stats_abba_mde(1, 6) / 2,
		   "... the fewest that do");
	}
	is_int(stats_abba_rounds_for(1, 100), STATS_ABBA_MIN_ROUNDS, "at least the minimum");
	is_int(stats_abba_rounds_for(1, 1e-9), 0, "0 when out of reach");

	/* beyond exact enumeration: seeded random arrangements */
	{
		double v[40];
		struct stats_rng r;

		stats_rng_seed(&r, 5);
		for (int i = 0; i < 40; i++)
			v[i] = 10 * stats_rng_normal(&r) + arm[i] * 30;
		stats_abba(v, arm, 10, 0, 42, &c);
		stats_abba(v, arm, 10, 0, 42, &c2);
		ok(!c.exact && c.perms == STATS_PERM_REPS + 1,
		   "10 rounds: %llu random arrangements", (unsigned long long)c.perms);
		ok(c.lo == c2.lo && c.hi == c2.hi, "same seed, same interval");
		ok(c.lo <= 30 && 30 <= c.hi && stats_abba_significant(&c),
		   "covers the true +30 [%.1f, %.1f] and excludes 0", c.lo, c.hi);
	}
}

/* A simulated A/B (or A/A) run: WINDOWS windows in the A/B's order, each
 * with a window effect that follows an AR(1) process between windows (the
 * machine's state wanders: rho 0.5, sd 3 us) plus bursts of load that span
 * two neighbouring windows (an MA(1) term, sd 2 us), a slow linear drift,
 * and SAMPLES wake-up latencies inside that are correlated with each other
 * (log-normal tail driven by an AR(1) with phi 0.9) — the structure that
 * made the old per-sample bootstrap call A/A runs significant. Per window:
 * p50, p99, mean. */
#define SIM_ROUNDS  4
#define SIM_WINDOWS (4 * SIM_ROUNDS)
#define SIM_SAMPLES 400
#define SIM_RUNS    1000

static void sim_windows(struct stats_rng *r, double m[3][SIM_WINDOWS])
{
	double eff = 3.0 * stats_rng_normal(r), burst = stats_rng_normal(r), v[SIM_SAMPLES];
	const double rho = 0.5, phi = 0.9;

	for (int w = 0; w < SIM_WINDOWS; w++) {
		struct stats_dist d;
		double z = stats_rng_normal(r), sum = 0, b = stats_rng_normal(r);
		double load = 2.0 * (b + burst) / sqrt(2.0);

		burst = b;
		if (w)
			eff = rho * eff + sqrt(1 - rho * rho) * 3.0 * stats_rng_normal(r);
		for (int i = 0; i < SIM_SAMPLES; i++) {
			z = phi * z + sqrt(1 - phi * phi) * stats_rng_normal(r);
			v[i] = 20.0 + eff + load + 0.3 * w + 5.0 * exp(0.8 * z);
			sum += v[i];
		}
		stats_dist_from_values(&d, v, SIM_SAMPLES);
		m[0][w] = stats_dist_quantile(&d, 0.50);
		m[1][w] = stats_dist_quantile(&d, 0.99);
		m[2][w] = sum / SIM_SAMPLES;
		stats_dist_free(&d);
	}
}

static void test_abba_simulation(void)
{
	static double m[SIM_RUNS][3][SIM_WINDOWS];
	static const char *const name[3] = {"p50", "p99", "mean"};
	double var[3] = {0, 0, 0}, spread[3];
	int arm[SIM_WINDOWS];
	struct stats_rng r;

	for (int w = 0; w < SIM_WINDOWS; w++)
		arm[w] = arm_of(w);
	stats_rng_seed(&r, 20240611);
	for (int e = 0; e < SIM_RUNS; e++) {
		sim_windows(&r, m[e]);
		/* window-to-window spread: SD of one arm's windows in a run */
		for (int k = 0; k < 3; k++)
			for (int a = 0; a < 2; a++) {
				double s = 0, ss = 0;
				int n = 0;

				for (int w = 0; w < SIM_WINDOWS; w++)
					if (arm[w] == a) {
						s += m[e][k][w];
						ss += m[e][k][w] * m[e][k][w];
						n++;
					}
				var[k] += (ss - s * s / n) / (n - 1) / (2.0 * SIM_RUNS);
			}
	}
	for (int k = 0; k < 3; k++) {
		int fp = 0, hit = 0;

		spread[k] = sqrt(var[k]);
		for (int e = 0; e < SIM_RUNS; e++) {
			double x[SIM_WINDOWS];
			struct stats_abba c;

			stats_abba(m[e][k], arm, SIM_ROUNDS, 0, 1, &c);
			fp += stats_abba_significant(&c);
			/* B 2x the spread slower: every sample of a B window shifted, which
			 * shifts its p50, p99 and mean by exactly that much */
			for (int w = 0; w < SIM_WINDOWS; w++)
				x[w] = m[e][k][w] + (arm[w] ? 2 * spread[k] : 0);
			stats_abba(x, arm, SIM_ROUNDS, 0, 1, &c);
			hit += stats_abba_significant(&c) && c.est > 0;
		}
		printf("# %s: window spread %.2f us; A/A significant in %d of %d runs, a shift of "
		       "%.2f us seen in %d\n",
		       name[k], spread[k], fp, SIM_RUNS, 2 * spread[k], hit);
		ok(fp <= SIM_RUNS * 5 / 100,
		   "%s: A/A false positives %.1f %% <= 5 %% at the 95 %% level (%d rounds, %d "
		   "windows, "
		   "%d runs)",
		   name[k], 100.0 * fp / SIM_RUNS, SIM_ROUNDS, SIM_WINDOWS, SIM_RUNS);
		ok(hit >= SIM_RUNS * 80 / 100,
		   "%s: a shift of 2x the window spread is seen in %.1f %% >= 80 %% of runs (%d "
		   "windows)",
		   name[k], 100.0 * hit / SIM_RUNS, SIM_WINDOWS);
	}
}

/* One figure, one value: seven readings of 46.55 C sum to a mean a rounding
 * error above them (46.550000000000004, printed 46.6 next to a max of
 * 46.5); the mean stays within [min, max] by construction. */
static void test_mean_within(void)
{
	double v[7];
	struct stats_dist d;
	char m[16], x[16];

	for (int i = 0; i < 7; i++)
		v[i] = 46.55;
	stats_dist_from_values(&d, v, 7);
	snprintf(m, sizeof(m), "%.1f", d.mean);
	snprintf(x, sizeof(x), "%.1f", d.max);
	ok(d.mean <= d.max && d.mean >= d.min && !strcmp(m, x),
	   "mean <= max by construction (7 x 46.55: mean %s, max %s)", m, x);
	stats_dist_free(&d);
}

int main(void)
{
	test_mean_within();
	test_rng();
	test_quantiles();
	test_abba_basics();
	test_abba_simulation();
	return done_testing();
}
