/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fixed-bucket latency histograms: bucket arithmetic, the single-writer /
 * many-reader seqcount protocol, merging and rank/percentile lookup.
 *
 * The seqcount follows Boehm, "Can seqlocks get along with programming
 * language memory models?" (MSPC 2012): the writer makes the counter odd,
 * issues a release fence, stores the data with relaxed atomics and makes the
 * counter even with a release store; the reader loads the counter with
 * acquire, loads the data with relaxed atomics, issues an acquire fence and
 * re-reads the counter. Plain fields are accessed through the GCC/Clang
 * __atomic builtins so that one struct serves both the live and the copied
 * histogram. On x86 and arm64 the writer's cost is a few plain stores. */
#include "probe/histogram.h"

#include <math.h>
#include <string.h>

#include "core/json.h"

#define LD(p)	 __atomic_load_n((p), __ATOMIC_RELAXED)
#define ST(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

static void write_begin(struct hist *h)
{
	ST(&h->seq, h->seq + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void write_end(struct hist *h)
{
	__atomic_store_n(&h->seq, h->seq + 1, __ATOMIC_RELEASE);
}

void hist_reset(struct hist *h)
{
	write_begin(h);
	ST(&h->count, 0);
	ST(&h->sum_ns, 0);
	ST(&h->min_ns, UINT64_MAX);
	ST(&h->max_ns, 0);
	ST(&h->max_at_ns, 0);
	ST(&h->overflows, 0);
	for (int i = 0; i < HIST_NBUCKETS; i++)
		ST(&h->bucket[i], 0);
	write_end(h);
}

int hist_bucket_of_us(uint64_t us)
{
	if (us < 1000)
		return (int)us;
	if (us < 10000)
		return HIST_FINE_BUCKETS + (int)((us - 1000) / 10);
	if (us < 100000)
		return HIST_FINE_BUCKETS + HIST_TIER_BUCKETS + (int)((us - 10000) / 100);
	if (us < HIST_RANGE_US)
		return HIST_FINE_BUCKETS + 2 * HIST_TIER_BUCKETS + (int)((us - 100000) / 1000);
	return HIST_LAST;
}

void hist_bucket_range(int i, uint64_t *lo_us, uint64_t *hi_us)
{
	uint64_t lo, w;

	if (i < 0)
		i = 0;
	if (i < HIST_FINE_BUCKETS) {
		lo = (uint64_t)i;
		w = 1;
	} else if (i < HIST_FINE_BUCKETS + HIST_TIER_BUCKETS) {
		lo = 1000 + (uint64_t)(i - HIST_FINE_BUCKETS) * 10;
		w = 10;
	} else if (i < HIST_FINE_BUCKETS + 2 * HIST_TIER_BUCKETS) {
		lo = 10000 + (uint64_t)(i - HIST_FINE_BUCKETS - HIST_TIER_BUCKETS) * 100;
		w = 100;
	} else if (i < HIST_LAST) {
		lo = 100000 + (uint64_t)(i - HIST_FINE_BUCKETS - 2 * HIST_TIER_BUCKETS) * 1000;
		w = 1000;
	} else {
		*lo_us = HIST_RANGE_US;
		*hi_us = HIST_INF_US;
		return;
	}
	*lo_us = lo;
	*hi_us = lo + w;
}

void hist_add(struct hist *h, uint64_t ns, uint64_t at_ns)
{
	int b = hist_bucket_of_us(ns / 1000);

	write_begin(h);
	ST(&h->bucket[b], h->bucket[b] + 1);
	ST(&h->count, h->count + 1);
	ST(&h->sum_ns, h->sum_ns + ns);
	if (ns < h->min_ns)
		ST(&h->min_ns, ns);
	if (ns > h->max_ns || h->count == 1) {
		ST(&h->max_ns, ns);
		ST(&h->max_at_ns, at_ns);
	}
	write_end(h);
}

void hist_add_overflows(struct hist *h, uint64_t n)
{
	write_begin(h);
	ST(&h->overflows, h->overflows + n);
	write_end(h);
}

void hist_snapshot(const struct hist *h, struct hist *out)
{
	for (;;) {
		uint32_t s1 = __atomic_load_n(&h->seq, __ATOMIC_ACQUIRE);

		if (s1 & 1)
			continue; /* the writer is inside an update (a few ns) */
		out->count = LD(&h->count);
		out->sum_ns = LD(&h->sum_ns);
		out->min_ns = LD(&h->min_ns);
		out->max_ns = LD(&h->max_ns);
		out->max_at_ns = LD(&h->max_at_ns);
		out->overflows = LD(&h->overflows);
		for (int i = 0; i < HIST_NBUCKETS; i++)
			out->bucket[i] = LD(&h->bucket[i]);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (LD(&h->seq) == s1) {
			out->seq = 0;
			return;
		}
	}
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (src->count) {
		if (src->min_ns < dst->min_ns)
			dst->min_ns = src->min_ns;
		if (!dst->count || src->max_ns > dst->max_ns) {
			dst->max_ns = src->max_ns;
			dst->max_at_ns = src->max_at_ns;
		}
	}
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	dst->overflows += src->overflows;
	for (int i = 0; i < HIST_NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

void hist_delta(struct hist *out, const struct hist *now, const struct hist *before)
{
	int lo = -1, hi = -1;

	if (now->count < before->count || now->overflows < before->overflows) {
		*out = *now;
		return;
	}
	hist_init(out);
	out->count = now->count - before->count;
	out->sum_ns = now->sum_ns - before->sum_ns;
	out->overflows = now->overflows - before->overflows;
	for (int i = 0; i < HIST_NBUCKETS; i++) {
		uint64_t a = now->bucket[i], b = before->bucket[i];

		out->bucket[i] = a > b ? a - b : 0;
		if (out->bucket[i]) {
			if (lo < 0)
				lo = i;
			hi = i;
		}
	}
	if (!out->count || lo < 0)
		return;
	if (!before->count || now->min_ns < before->min_ns) {
		out->min_ns = now->min_ns;
	} else {
		uint64_t blo, bhi;

		hist_bucket_range(lo, &blo, &bhi);
		out->min_ns = blo * 1000 > now->min_ns ? blo * 1000 : now->min_ns;
	}
	if (!before->count || now->max_ns > before->max_ns) {
		out->max_ns = now->max_ns;
		out->max_at_ns = now->max_at_ns;
	} else {
		uint64_t blo, bhi;

		hist_bucket_range(hi, &blo, &bhi);
		out->max_ns = bhi != HIST_INF_US && bhi * 1000 - 1 < before->max_ns
				      ? bhi * 1000 - 1
				      : before->max_ns;
		if (out->max_ns < out->min_ns)
			out->max_ns = out->min_ns;
	}
}

double hist_min_us(const struct hist *h)
{
	return h->count ? (double)h->min_ns / 1000.0 : NAN;
}

double hist_max_us(const struct hist *h)
{
	return h->count ? (double)h->max_ns / 1000.0 : NAN;
}

double hist_mean_us(const struct hist *h)
{
	return h->count ? (double)h->sum_ns / (double)h->count / 1000.0 : NAN;
}

uint64_t hist_bucket_total(const struct hist *h)
{
	uint64_t t = 0;

	for (int i = 0; i < HIST_NBUCKETS; i++)
		t += h->bucket[i];
	return t;
}

double hist_value_at_rank(const struct hist *h, uint64_t rank)
{
	uint64_t cum = 0;

	if (!h->count || rank < 1 || rank > h->count)
		return NAN;
	for (int i = 0; i < HIST_NBUCKETS; i++) {
		cum += h->bucket[i];
		if (cum >= rank) {
			uint64_t lo, hi;
			double v, mn = hist_min_us(h), mx = hist_max_us(h);

			hist_bucket_range(i, &lo, &hi);
			v = i == HIST_LAST ? mx : (double)(hi - 1);
			if (v < mn)
				v = mn;
			if (v > mx)
				v = mx;
			return v;
		}
	}
	return hist_max_us(h); /* buckets lag count (inconsistent copy) */
}

double hist_percentile_us(const struct hist *h, double q)
{
	double r;
	uint64_t rank;

	if (!h->count || !(q >= 0.0 && q <= 1.0))
		return NAN;
	r = q * (double)h->count;
	r = ceil(r - r * 1e-12); /* 0.99 * 100 must be rank 99, not 100 */
	rank = r < 1.0 ? 1 : (uint64_t)r;
	if (rank > h->count)
		rank = h->count;
	return hist_value_at_rank(h, rank);
}

/* ---- JSON (issue 14) ---- */

void hist_json(struct jw *w, const struct hist *h)
{
	jw_arr_begin(w, "histogram");
	for (int k = 0; k < HIST_NBUCKETS; k++) {
		uint64_t lo, hi;

		if (!h->bucket[k])
			continue;
		hist_bucket_range(k, &lo, &hi);
		jw_obj_begin(w, NULL);
		jw_uint(w, "lo_us", lo);
		if (hi == HIST_INF_US)
			jw_null(w, "hi_us");
		else
			jw_uint(w, "hi_us", hi);
		jw_uint(w, "count", h->bucket[k]);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}
