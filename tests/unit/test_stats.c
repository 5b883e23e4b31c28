/* Unit tests for src/probe/stats.c: the seeded PRNG and variates, quantiles
 * from histograms and from raw values, the bootstrap (deterministic, covers
 * the true difference on shifted synthetic data, spans 0 on equal data) and
 * the verdict's wording and sign. */
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

/* Integer-us latencies: base + exponential tail, like a real probe. */
static void fill(struct hist *h, struct stats_rng *r, uint64_t n, double base, double tail)
{
	hist_init(h);
	for (uint64_t i = 0; i < n; i++) {
		double us = floor(base - tail * log(stats_rng_uniform(r)));

		hist_add(h, (uint64_t)us * 1000, 0);
	}
}

static void test_bootstrap(void)
{
	struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct stats_dist da, db;
	struct stats_cmp c1, c2, c3;
	struct stats_rng r;
	struct sbuf sb;

	stats_rng_seed(&r, 12345);
	fill(a, &r, 20000, 20, 10);
	fill(b, &r, 20000, 35, 10); /* B is 15 us slower everywhere */
	stats_dist_from_hist(&da, a);
	stats_dist_from_hist(&db, b);

	is_int(stats_compare(&da, &db, 0, 99, &c1), 0, "compare ok");
	stats_compare(&da, &db, 0, 99, &c2);
	ok(c1.p50.lo == c2.p50.lo && c1.p50.hi == c2.p50.hi && c1.p99.lo == c2.p99.lo &&
		   c1.p99.hi == c2.p99.hi,
	   "same seed -> identical intervals");
	is_int(c1.reps, STATS_BOOT_REPS, "default repetitions");
	printf("# p50 %+.1f [%+.1f, %+.1f]  p99 %+.1f [%+.1f, %+.1f]\n", c1.p50.est, c1.p50.lo,
	       c1.p50.hi, c1.p99.est, c1.p99.lo, c1.p99.hi);
	ok(c1.p50.lo <= 15 && 15 <= c1.p50.hi, "p50 interval contains the true shift 15");
	ok(c1.p99.lo <= 15 && 15 <= c1.p99.hi, "p99 interval contains the true shift 15");
	ok(c1.p50.lo <= c1.p50.est && c1.p50.est <= c1.p50.hi, "estimate inside its interval");
	ok(c1.p50.hi - c1.p50.lo <= 2.0, "p50 interval is narrow (20000 whole-us samples)");
	ok(stats_ci_significant(&c1.p50) && stats_ci_significant(&c1.p99),
	   "a 15 us shift is significant");
	stats_compare(&da, &db, 0, 100, &c3);
	ok(c3.p99.lo <= 15 && 15 <= c3.p99.hi, "another seed also covers the truth");

	sbuf_init(&sb);
	stats_verdict(&c1, "cpu-sleep enabled", "\u00b5s", &sb);
	printf("# %s\n", sb.s);
	ok(str_starts(sb.s, "cpu-sleep enabled: p99 +"), "slower B -> '+' on p99");
	ok(strstr(sb.s, "p50 +15 \u00b5s [") != NULL, "p50 +15 µs with interval");
	ok(strstr(sb.s, "max ") != NULL && strstr(sb.s, "no significant") == NULL,
	   "max difference, no 'no significant'");

	/* Swap: B faster -> minus signs (U+2212). */
	stats_compare(&db, &da, 0, 99, &c2);
	sbuf_reset(&sb);
	stats_verdict(&c2, "cpu-sleep disabled", "\u00b5s", &sb);
	printf("# %s\n", sb.s);
	ok(str_starts(sb.s, "cpu-sleep disabled: p99 \u2212"), "faster B -> '\u2212' on p99");
	is_dbl(c2.p50.est, -c1.p50.est, 1e-9, "swapping arms negates the estimate");

	/* Same distribution on both sides: the interval spans 0. */
	stats_dist_free(&db);
	fill(b, &r, 20000, 20, 10);
	stats_dist_from_hist(&db, b);
	stats_compare(&da, &db, 0, 99, &c3);
	ok(c3.p50.lo <= 0 && 0 <= c3.p50.hi && c3.p99.lo <= 0 && 0 <= c3.p99.hi,
	   "equal distributions: both intervals contain 0");
	sbuf_reset(&sb);
	stats_verdict(&c3, NULL, "\u00b5s", &sb);
	printf("# %s\n", sb.s);
	ok(strstr(sb.s, "no significant difference") != NULL,
	   "verdict says no significant difference");
	ok(str_starts(sb.s, "B \u2212 A: "), "default label");

	/* Empty arm. */
	stats_dist_free(&db);
	hist_init(b);
	stats_dist_from_hist(&db, b);
	is_int(stats_compare(&da, &db, 0, 1, &c3), -22, "empty arm -> -EINVAL");
	ok(isnan(c3.p99.lo), "empty arm -> no interval");
	sbuf_reset(&sb);
	stats_verdict(&c3, "x", "\u00b5s", &sb);
	ok(strstr(sb.s, "no samples") != NULL, "verdict names the empty arm");

	stats_dist_free(&da);
	stats_dist_free(&db);
	sbuf_free(&sb);
	free(a);
	free(b);
}

static void test_values_ms(void)
{
	/* The --cmd case: wall times in ms, 5 ms vs 20 ms with small noise. */
	double va[40], vb[40];
	struct stats_dist da, db;
	struct stats_cmp c;
	struct sbuf sb;
	struct stats_rng r;

	stats_rng_seed(&r, 3);
	for (int i = 0; i < 40; i++) {
		va[i] = 5.0 + 0.3 * stats_rng_uniform(&r);
		vb[i] = 20.0 + 0.3 * stats_rng_uniform(&r);
	}
	stats_dist_from_values(&da, va, 40);
	stats_dist_from_values(&db, vb, 40);
	stats_compare(&da, &db, 500, 1, &c);
	sbuf_init(&sb);
	stats_verdict(&c, "state1 disabled", "ms", &sb);
	printf("# %s\n", sb.s);
	ok(c.p50.lo > 14 && c.p50.hi < 16, "p50 difference ~15 ms");
	ok(strstr(sb.s, "p99 +15 ms") != NULL, "verdict in ms with the right sign");
	sbuf_free(&sb);
	stats_dist_free(&da);
	stats_dist_free(&db);
}

int main(void)
{
	test_rng();
	test_quantiles();
	test_bootstrap();
	test_values_ms();
	return done_testing();
}
