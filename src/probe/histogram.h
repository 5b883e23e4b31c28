/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Latency histograms with fixed buckets, exact min/max/sum/count kept aside.
 *
 * Bucket layout (whole microseconds; a latency of x ns is truncated to
 * floor(x / 1000) us before bucketing, as cyclictest does):
 *   [0, 1000) us        1 us wide    (1000 buckets)
 *   [1000, 10000) us    10 us wide   (900 buckets)
 *   [10000, 100000) us  100 us wide  (900 buckets)
 *   [100000, 1000000)   1 ms wide    (900 buckets)
 *   [1 s, inf)          the last bucket, "beyond the histogram"
 *
 * Concurrency: one writer (the measuring thread, hist_add) and any number of
 * readers (hist_snapshot) without locks. The writer brackets each update with
 * a sequence counter (odd while writing); readers copy with relaxed atomic
 * loads and retry when the counter moved. Everything else (merge, percentile,
 * reset) works on a histogram nobody is writing, e.g. a snapshot. */
#ifndef TT_PROBE_HISTOGRAM_H
#define TT_PROBE_HISTOGRAM_H

#include <stdbool.h>
#include <stdint.h>

#define HIST_FINE_BUCKETS 1000 /* 1 us buckets below 1 ms */
#define HIST_TIER_BUCKETS 900  /* each coarser decade */
#define HIST_NBUCKETS	  (HIST_FINE_BUCKETS + 3 * HIST_TIER_BUCKETS + 1)
#define HIST_LAST	  (HIST_NBUCKETS - 1) /* [1 s, inf) */
#define HIST_RANGE_US	  UINT64_C(1000000)
#define HIST_INF_US	  UINT64_MAX /* hi_us of the last bucket */

struct hist {
	uint32_t seq;	    /* seqcount: odd while the writer updates */
	uint64_t count;	    /* samples */
	uint64_t sum_ns;    /* exact sum, for the mean */
	uint64_t min_ns;    /* exact; UINT64_MAX when empty */
	uint64_t max_ns;    /* exact; 0 when empty */
	uint64_t max_at_ns; /* caller's timestamp of the maximum (e.g. CLOCK_MONOTONIC) */
	uint64_t overflows; /* deadlines skipped (see probe.h); not a bucket */
	uint64_t bucket[HIST_NBUCKETS];
};

void hist_init(struct hist *h);
/* Writer side: empty the histogram (readers see either the old or the empty
 * one). The probe resets from the writer's thread, see probe_reset. */
void hist_reset(struct hist *h);

/* Writer side: record one latency of `ns` nanoseconds observed at time
 * `at_ns` (kept for the maximum). Single writer per histogram. */
void hist_add(struct hist *h, uint64_t ns, uint64_t at_ns);
/* Writer side: add `n` to the skipped-deadline counter. */
void hist_add_overflows(struct hist *h, uint64_t n);

/* Reader side: a consistent copy of a histogram that may be written
 * concurrently by its one writer. */
void hist_snapshot(const struct hist *h, struct hist *out);

/* dst += src (counts, sum, overflows; min/max combined). */
void hist_merge(struct hist *dst, const struct hist *src);

/* out = the samples added to a histogram between two snapshots of it,
 * before and now: counts, sum, overflows and buckets subtract. The minimum
 * and maximum are exact where they were set in between (now's differ from
 * before's), else bounded by the lowest and highest bucket of the window.
 * A histogram reset in between (fewer samples now than before) gives now. */
void hist_delta(struct hist *out, const struct hist *now, const struct hist *before);

/* Bucket index of a latency in whole microseconds. */
int hist_bucket_of_us(uint64_t us);
/* [lo_us, hi_us) of bucket i; hi_us = HIST_INF_US for the last bucket. */
void hist_bucket_range(int i, uint64_t *lo_us, uint64_t *hi_us);

/* Statistics in microseconds; NAN when the histogram is empty. */
double hist_min_us(const struct hist *h);
double hist_max_us(const struct hist *h);
double hist_mean_us(const struct hist *h);
/* The value of the sample of 1-based rank `rank` in sorted order, as the
 * histogram knows it: the largest whole-us value its bucket holds (hi_us - 1;
 * for the 1 us buckets that is the exact truncated value), clamped into
 * [min, max] (so the last bucket reports the exact maximum). NAN when empty
 * or rank is out of 1..count. */
double hist_value_at_rank(const struct hist *h, uint64_t rank);
/* Nearest-rank percentile: q in [0, 1] (0.99 = p99), rank = ceil(q * count)
 * (at least 1), value as hist_value_at_rank. Exact for whole-us samples below
 * 1 ms. */
double hist_percentile_us(const struct hist *h, double q);
/* Sum of the bucket counts (== count for a consistent histogram). */
uint64_t hist_bucket_total(const struct hist *h);

/* ---- JSON (issue 14) ---- */
struct jw;
/* "histogram": [{"lo_us":LO,"hi_us":HI (null: the open last bucket),
 * "count":N}, ...] of the non-empty buckets, lowest first. */
void hist_json(struct jw *w, const struct hist *h);

#endif
