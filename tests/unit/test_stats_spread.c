/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The A/B statistics' spread and quantiles with values worked out by hand
 * (issue 32, item 15: a wrong divisor in the residual SD survived, as only
 * sd > 0 and mde > sd were checked). The residual SD of the ABBA model:
 * rounds [10 12 13 11] [20 23 21 19] [5 8 9 6], arms A B B A: B - A = 2.5,
 * residuals (w - round mean -+ 1.25) sum of squares 5, 3 * 3 - 1 = 8
 * degrees of freedom, sd = sqrt(5 / 8). */
#include <math.h>
#include <stdint.h>

#include "probe/stats.h"
#include "tap.h"

static void test_spread(void)
{
	static const double x[] = {10, 12, 13, 11, 20, 23, 21, 19, 5, 8, 9, 6};
	static const double xnan[] = {10, 12, 13, 11, 20, 23, 21, 19, 5, 8, 9, 6, 1, NAN, 3, 4};
	static const double big[] = {10, 12, 13, 11, 20, 23, 21, 19, 5, 8, 9, 6, 7, 3, 2, 8};
	static const int arm[] = {0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0};
	static const int arm2[] = {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1};
	double sd = sqrt(5.0 / 8.0), df = 8.0;
	struct stats_abba c;

	is_int(stats_abba(x, arm, 3, 0, 1, &c), 0, "3 rounds compare");
	is_dbl(c.est, 2.5, 1e-12, "B - A = 2.5");
	is_dbl(c.sd, sd, 1e-12, "residual sd = sqrt(5/8) = 0.790569");
	is_dbl(c.mde, (stats_t_quantile(0.975, df) + stats_t_quantile(0.80, df)) * sd / sqrt(3.0),
	       1e-12, "mde = (t(0.975, 8) + t(0.80, 8)) sd / sqrt(3)");
	is_dbl(c.mde, (2.306 + 0.889) * sd / sqrt(3.0), 0.02, "... about 1.458");
	is_dbl(stats_abba_mde(1.0, 3), 3.195 / sqrt(3.0), 0.02,
	       "mde of sd 1 over 3 rounds: 3.195 / sqrt(3)");
	is_dbl(stats_abba_mde(2.0, 12), (2.032 + 0.853) * 2.0 / sqrt(12.0), 0.02,
	       "mde of sd 2 over 12 rounds (35 df): 2.885 * 2 / sqrt(12)");
	ok(isnan(stats_abba_mde(NAN, 3)) && isnan(stats_abba_mde(1.0, 0)), "mde n/a: NAN");

	/* the arms the other way round: the same spread, the opposite sign */
	stats_abba(x, arm2, 3, 0, 1, &c);
	is_dbl(c.est, -2.5, 1e-12, "arms swapped: B - A = -2.5");
	is_dbl(c.sd, sd, 1e-12, "... the same sd");

	/* a fourth round with a NAN is left out: the same 3 rounds, 8 df */
	stats_abba(xnan, arm, 4, 0, 1, &c);
	is_int(c.rounds, 3, "a round with a NAN is left out");
	is_dbl(c.sd, sd, 1e-12,
	       "... and the sd is that of the other three (df from the rounds used)");

	/* four rounds: B - A = (4 + 5 + 6 - 10) / (2 * 4) = 0.625, 11 df */
	stats_abba(big, arm, 4, 0, 1, &c);
	{
		double t = 0.625, rss = 0.0;

		for (int r = 0; r < 4; r++) {
			const double *w = big + 4 * r;
			double m = (w[0] + w[1] + w[2] + w[3]) / 4.0;

			for (int i = 0; i < 4; i++) {
				double e = w[i] - m - (arm[i] ? t / 2 : -t / 2);

				rss += e * e;
			}
		}
		is_dbl(c.est, t, 1e-12, "4 rounds: B - A = 0.625");
		is_dbl(c.sd, sqrt(rss / 11.0), 1e-12, "... sd = sqrt(rss / 11)");
	}
}

static void test_t_table(void)
{
	/* Student's t from a table (two decimals) */
	is_dbl(stats_t_quantile(0.975, 8), 2.306, 0.01, "t(0.975, 8) = 2.306");
	is_dbl(stats_t_quantile(0.80, 8), 0.889, 0.005, "t(0.80, 8) = 0.889");
	is_dbl(stats_t_quantile(0.975, 30), 2.042, 0.005, "t(0.975, 30) = 2.042");
	is_dbl(stats_t_quantile(0.5, 5), 0.0, 1e-9, "t(0.5) = 0");
	ok(stats_t_quantile(0.975, 5) > stats_t_quantile(0.975, 50), "t falls with the df");
	ok(isnan(stats_t_quantile(0.0, 5)) && isnan(stats_t_quantile(1.0, 5)) &&
		   isnan(stats_t_quantile(0.9, 0.5)),
	   "t n/a outside (0, 1) and below 1 df");
	/* the rounds needed: the fewest whose mde is at most the effect */
	{
		unsigned r = stats_abba_rounds_for(1.0, 1.0);

		ok(r >= STATS_ABBA_MIN_ROUNDS && stats_abba_mde(1.0, r) <= 1.0 &&
			   (r == STATS_ABBA_MIN_ROUNDS || stats_abba_mde(1.0, r - 1) > 1.0),
		   "rounds for an effect of 1 sd: %u, the fewest", r);
		is_int(stats_abba_rounds_for(1.0, 100.0), STATS_ABBA_MIN_ROUNDS,
		       "a big effect: the minimum rounds");
		is_int(stats_abba_rounds_for(1.0, 1e-6), 0, "a tiny effect: beyond the maximum, 0");
	}
}

static void test_ranks(void)
{
	static const double v[] = {5, 1, 4, 2, 3, NAN, 3};
	struct stats_dist d;
	struct stats_summary s;

	is_int((int)stats_rank(0.99, 100), 99, "rank of p99 in 100 = 99");
	is_int((int)stats_rank(0.5, 3), 2, "rank of p50 in 3 = 2");
	is_int((int)stats_rank(0.5, 4), 2, "rank of p50 in 4 = 2");
	is_int((int)stats_rank(0.0, 10), 1, "rank of p0 = 1");
	is_int((int)stats_rank(1.0, 10), 10, "rank of p100 = n");
	is_int((int)stats_rank(0.999, 1000), 999, "rank of p99.9 in 1000 = 999");
	is_int((int)stats_rank(0.91, 10), 10, "rank of p91 in 10 = 10 (ceil)");
	is_int((int)stats_rank(1.1, 10), 10, "a rank past the end (q 1.1) is clamped to n");
	is_int((int)stats_rank(-0.5, 10), 1, "a rank before the start is 1");
	stats_dist_from_values(&d, v, 7);
	is_int((int)d.n, 6, "NAN left out: 6 values");
	is_dbl(d.mean, 3.0, 1e-12, "mean 3");
	is_dbl(d.min, 1.0, 0, "min 1");
	is_dbl(d.max, 5.0, 0, "max 5");
	is_dbl(stats_dist_at_rank(&d, 1), 1.0, 0, "rank 1: 1");
	is_dbl(stats_dist_at_rank(&d, 3), 3.0, 0, "rank 3: 3");
	is_dbl(stats_dist_at_rank(&d, 4), 3.0, 0, "rank 4: 3 (twice)");
	is_dbl(stats_dist_at_rank(&d, 6), 5.0, 0, "rank 6: 5");
	ok(isnan(stats_dist_at_rank(&d, 7)) && isnan(stats_dist_at_rank(&d, 0)),
	   "ranks outside 1..n: NAN");
	is_dbl(stats_dist_quantile(&d, 0.5), 3.0, 0, "p50 = 3");
	is_dbl(stats_dist_quantile(&d, 0.9), 5.0, 0, "p90 of 6 = the 6th");
	ok(isnan(stats_dist_quantile(&d, 1.5)) && isnan(stats_dist_quantile(&d, -0.1)),
	   "quantile outside 0..1: NAN");
	stats_summarize(&d, &s);
	ok(s.n == 6 && s.min == 1 && s.max == 5 && s.p50 == 3 && s.p99 == 5,
	   "summary: n 6, min 1, p50 3, p99 5, max 5");
	stats_dist_free(&d);
}

int main(void)
{
	test_spread();
	test_t_table();
	test_ranks();
	return done_testing();
}
