/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/probe/histogram.c: bucket edges, exact percentiles on
 * whole-microsecond data, the last (>= 1 s) bucket, merge, the delta of two
 * snapshots (a recorded window), snapshots taken
 * while a writer runs. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "probe/histogram.h"
#include "tap.h"

static struct hist *new_hist(void)
{
	struct hist *h = malloc(sizeof(*h));

	if (!h)
		abort();
	hist_init(h);
	return h;
}

static void test_edges(void)
{
	uint64_t lo, hi;
	int ok_all = 1;

	is_int(HIST_NBUCKETS, 3701, "3701 buckets");
	is_int(hist_bucket_of_us(0), 0, "0 us -> bucket 0");
	is_int(hist_bucket_of_us(999), 999, "999 us -> bucket 999");
	is_int(hist_bucket_of_us(1000), 1000, "1000 us -> first 10 us bucket");
	is_int(hist_bucket_of_us(1009), 1000, "1009 us -> same bucket");
	is_int(hist_bucket_of_us(1010), 1001, "1010 us -> next bucket");
	is_int(hist_bucket_of_us(9999), 1899, "9999 us -> last 10 us bucket");
	is_int(hist_bucket_of_us(10000), 1900, "10 ms -> first 100 us bucket");
	is_int(hist_bucket_of_us(99999), 2799, "99.999 ms -> last 100 us bucket");
	is_int(hist_bucket_of_us(100000), 2800, "100 ms -> first 1 ms bucket");
	is_int(hist_bucket_of_us(999999), 3699, "999.999 ms -> last 1 ms bucket");
	is_int(hist_bucket_of_us(1000000), HIST_LAST, "1 s -> last bucket");
	is_int(hist_bucket_of_us(UINT64_MAX / 2), HIST_LAST, "huge -> last bucket");

	hist_bucket_range(5, &lo, &hi);
	ok(lo == 5 && hi == 6, "bucket 5 is [5, 6)");
	hist_bucket_range(1000, &lo, &hi);
	ok(lo == 1000 && hi == 1010, "bucket 1000 is [1000, 1010)");
	hist_bucket_range(1900, &lo, &hi);
	ok(lo == 10000 && hi == 10100, "bucket 1900 is [10000, 10100)");
	hist_bucket_range(3699, &lo, &hi);
	ok(lo == 999000 && hi == 1000000, "bucket 3699 is [999000, 1000000)");
	hist_bucket_range(HIST_LAST, &lo, &hi);
	ok(lo == 1000000 && hi == HIST_INF_US, "last bucket is [1 s, inf)");

	/* Contiguous and consistent with hist_bucket_of_us. */
	for (int i = 0; i < HIST_LAST; i++) {
		uint64_t lo2, hi2;

		hist_bucket_range(i, &lo, &hi);
		hist_bucket_range(i + 1, &lo2, &hi2);
		if (hi != lo2 || hist_bucket_of_us(lo) != i || hist_bucket_of_us(hi - 1) != i)
			ok_all = 0;
	}
	ok(ok_all, "buckets are contiguous and round-trip");
}

static void test_percentiles_exact(void)
{
	struct hist *h = new_hist();

	ok(isnan(hist_percentile_us(h, 0.5)) && isnan(hist_min_us(h)) && isnan(hist_mean_us(h)),
	   "empty histogram: NAN, not 0");
	/* 1..1000 us? Use 1..999 whole-us values, each once, in shuffled order. */
	for (uint64_t k = 0; k < 999; k++) {
		uint64_t v = (k * 7919) % 999 + 1; /* a permutation of 1..999 */

		hist_add(h, v * 1000, k);
	}
	is_int(h->count, 999, "999 samples");
	is_dbl(hist_min_us(h), 1, 0, "min 1");
	is_dbl(hist_max_us(h), 999, 0, "max 999");
	is_dbl(hist_mean_us(h), 500, 1e-9, "mean 500");
	is_dbl(hist_percentile_us(h, 0.50), 500, 0, "p50 = 500 (rank 500)");
	is_dbl(hist_percentile_us(h, 0.90), 900, 0, "p90 = 900 (rank ceil(899.1))");
	is_dbl(hist_percentile_us(h, 0.99), 990, 0, "p99 = 990 (rank ceil(989.01))");
	is_dbl(hist_percentile_us(h, 0.999), 999, 0, "p99.9 = 999 (rank ceil(998.001))");
	is_dbl(hist_percentile_us(h, 0.0), 1, 0, "p0 = min");
	is_dbl(hist_percentile_us(h, 1.0), 999, 0, "p100 = max");

	/* 100 samples: 0.99 * 100 must be rank 99, not 100. */
	hist_init(h);
	for (uint64_t v = 1; v <= 100; v++)
		hist_add(h, v * 1000, 0);
	is_dbl(hist_percentile_us(h, 0.99), 99, 0, "p99 of 1..100 is 99");
	is_dbl(hist_percentile_us(h, 0.50), 50, 0, "p50 of 1..100 is 50");

	/* Sub-microsecond parts are truncated into the bucket; min/max exact,
	 * percentiles clamped into [min, max] so they stay monotone. */
	hist_init(h);
	hist_add(h, 3400, 0);
	hist_add(h, 3900, 0);
	is_dbl(hist_min_us(h), 3.4, 1e-9, "exact min 3.4");
	is_dbl(hist_max_us(h), 3.9, 1e-9, "exact max 3.9");
	is_dbl(hist_percentile_us(h, 0.5), 3.4, 1e-9, "p50 in bucket [3,4) clamped to min 3.4");
	free(h);
}

static void test_coarse_and_last(void)
{
	struct hist *h = new_hist();

	hist_add(h, 1003200, 0); /* 1003.2 us, bucket [1000, 1010) */
	is_dbl(hist_percentile_us(h, 0.5), 1003.2, 1e-9, "single coarse sample -> exact (clamped)");
	hist_add(h, 5000000, 0); /* 5 ms */
	hist_add(h, 5004000, 0); /* 5.004 ms, same 10 us bucket */
	is_dbl(hist_percentile_us(h, 0.5), 5004.0, 1e-9,
	       "coarse percentile = bucket's largest whole us (5009), clamped to max");
	hist_add(h, 7000000, 0);
	is_dbl(hist_value_at_rank(h, 2), 5009, 1e-9, "rank 2 -> 5009 (upper edge - 1 us)");

	hist_init(h);
	hist_add(h, 2500000000ULL, 42); /* 2.5 s */
	hist_add(h, 1000, 0);
	is_int(h->bucket[HIST_LAST], 1, "2.5 s lands in the last bucket");
	is_int(hist_bucket_total(h), 2, "bucket total = count");
	is_dbl(hist_percentile_us(h, 1.0), 2500000, 1e-6, "last-bucket percentile = exact max");
	is_int(h->max_at_ns, 42, "time of the maximum kept");
	free(h);
}

static void test_merge(void)
{
	struct hist *a = new_hist(), *b = new_hist(), *m = new_hist();

	for (uint64_t v = 1; v <= 10; v++)
		hist_add(a, v * 1000, v);
	for (uint64_t v = 20; v <= 29; v++)
		hist_add(b, v * 1000, v);
	hist_add_overflows(a, 3);
	hist_add_overflows(b, 4);
	hist_merge(m, a);
	hist_merge(m, b);
	is_int(m->count, 20, "merged count");
	is_int(hist_bucket_total(m), 20, "merged buckets sum to count");
	is_dbl(hist_min_us(m), 1, 0, "merged min");
	is_dbl(hist_max_us(m), 29, 0, "merged max");
	is_int(m->max_at_ns, 29, "merged max time from the side with the max");
	is_int(m->overflows, 7, "overflows add");
	is_dbl(hist_mean_us(m), (55.0 + 245.0) / 20.0, 1e-9, "merged mean");
	is_dbl(hist_percentile_us(m, 0.5), 10, 0, "merged p50");
	hist_init(a);
	hist_merge(m, a);
	is_int(m->count, 20, "merging an empty histogram changes nothing");
	is_dbl(hist_min_us(m), 1, 0, "min kept after empty merge");
	free(a);
	free(b);
	free(m);
}

/* The samples between two snapshots (a recorded probe window). */
static void test_delta(void)
{
	struct hist *h = new_hist(), *before = new_hist(), *d = new_hist();

	for (uint64_t v = 10; v <= 20; v++)
		hist_add(h, v * 1000, v);
	hist_add_overflows(h, 2);
	*before = *h;
	/* the window: 15..17 us (inside the old range) and 30 us (a new max) */
	for (uint64_t v = 15; v <= 17; v++)
		hist_add(h, v * 1000 + 400, 100 + v);
	hist_add(h, 30000, 130);
	hist_add_overflows(h, 5);
	hist_delta(d, h, before);
	is_int(d->count, 4, "delta: 4 samples in the window");
	is_int(hist_bucket_total(d), 4, "delta: its buckets sum to its count");
	is_int(d->overflows, 5, "delta: the window's overflows");
	is_dbl(hist_mean_us(d), (15.4 + 16.4 + 17.4 + 30.0) / 4, 1e-9, "delta: exact mean");
	is_dbl(hist_max_us(d), 30, 0, "delta: a new maximum is exact");
	is_int(d->max_at_ns, 130, "delta: with its time");
	is_dbl(hist_min_us(d), 15, 0, "delta: an old minimum: the lowest bucket of the window");
	is_dbl(hist_percentile_us(d, 0.5), 16, 0, "delta: p50 of the window");
	/* a window without a new maximum: bounded by its highest bucket */
	*before = *h;
	hist_add(h, 12500, 200);
	hist_delta(d, h, before);
	is_int(d->count, 1, "delta: one sample");
	ok(hist_max_us(d) >= 12 && hist_max_us(d) < 13, "delta: max inside the 12 us bucket (%.3f)",
	   hist_max_us(d));
	/* nothing new */
	*before = *h;
	hist_delta(d, h, before);
	ok(d->count == 0 && d->overflows == 0 && isnan(hist_max_us(d)), "delta: empty window");
	/* a reset in between: the window is what came after it */
	hist_init(h);
	hist_add(h, 7000, 300);
	hist_delta(d, h, before);
	ok(d->count == 1 && hist_min_us(d) == 7 && hist_max_us(d) == 7,
	   "delta: after a reset, the new samples");
	free(h);
	free(before);
	free(d);
}

struct writer_arg {
	struct hist *h;
	uint64_t n;
};

static void *writer(void *arg)
{
	struct writer_arg *w = arg;

	for (uint64_t i = 0; i < w->n; i++)
		hist_add(w->h, (i % 2000) * 1000, i);
	return NULL;
}

static void test_snapshot_concurrent(void)
{
	struct hist *h = new_hist(), *s = new_hist();
	struct writer_arg w = {h, 2000000};
	pthread_t t;
	int consistent = 1, reads = 0;

	if (pthread_create(&t, NULL, writer, &w)) {
		ok(0, "pthread_create");
		return;
	}
	while (reads < 2000) {
		hist_snapshot(h, s);
		if (hist_bucket_total(s) != s->count)
			consistent = 0;
		reads++;
		if (s->count == w.n)
			break;
	}
	pthread_join(t, NULL);
	ok(consistent, "%d snapshots during writes: buckets always sum to count", reads);
	hist_snapshot(h, s);
	is_int(s->count, w.n, "final snapshot has every sample");
	hist_reset(h);
	hist_snapshot(h, s);
	ok(s->count == 0 && hist_bucket_total(s) == 0 && isnan(hist_min_us(s)), "reset empties");
	free(h);
	free(s);
}

int main(void)
{
	test_edges();
	test_percentiles_exact();
	test_coarse_and_last();
	test_merge();
	test_delta();
	test_snapshot_concurrent();
	return done_testing();
}
