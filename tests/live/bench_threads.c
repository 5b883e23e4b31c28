/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sampling cost of the thread list: median wall and CPU time of N
 * threads_read() calls for several flag sets, plus the per-thread cost of
 * the optional sched_getattr (uclamp) call. Printed, never asserted. Run by
 * tests/bench/threads.sh with a helper holding 2,000 threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/timeutil.h"
#include "source/schedattr.h"
#include "source/threads.h"
#include "sysfs/sysroot.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t median(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

static void bench(const char *label, unsigned flags, int reads)
{
	uint64_t *wall = calloc((size_t)reads, sizeof(uint64_t));
	uint64_t *cpu = calloc((size_t)reads, sizeof(uint64_t));
	size_t n = 0;
	struct thread_table t;
	uint64_t mw, mc;

	threads_read(sysroot_live(), flags, &t); /* warm up dentries */
	threads_free(&t);
	for (int i = 0; i < reads; i++) {
		uint64_t w0 = time_mono_ns(), c0 = time_process_cpu_ns();

		threads_read(sysroot_live(), flags, &t);
		wall[i] = time_mono_ns() - w0;
		cpu[i] = time_process_cpu_ns() - c0;
		n = t.n;
		threads_free(&t);
	}
	mw = median(wall, reads);
	mc = median(cpu, reads);
	printf("threads_read %-28s threads=%zu median_wall_ms=%.2f median_cpu_ms=%.2f "
	       "per_thread_us=%.2f\n",
	       label, n, (double)mw / 1e6, (double)mc / 1e6,
	       n ? (double)mw / 1e3 / (double)n : 0.0);
	free(wall);
	free(cpu);
}

static void bench_getattr(int reads)
{
	struct thread_table t;
	uint64_t *wall = calloc((size_t)reads, sizeof(uint64_t));
	struct tt_sched_attr a;
	size_t ok = 0;

	threads_read(sysroot_live(), THREADS_KERNEL | THREADS_NO_UCLAMP, &t);
	for (int i = 0; i < reads; i++) {
		uint64_t w0 = time_mono_ns();

		ok = 0;
		for (size_t j = 0; j < t.n; j++)
			ok += schedattr_get(t.t[j].tid, &a) == 0;
		wall[i] = time_mono_ns() - w0;
	}
	printf("sched_getattr per thread: %.3f us (%zu threads, uclamp %s)\n",
	       t.n ? (double)median(wall, reads) / 1e3 / (double)t.n : 0.0, ok,
	       schedattr_have_uclamp() ? "supported: read every sample"
				       : "not in this kernel: skipped");
	threads_free(&t);
	free(wall);
}

int main(int argc, char **argv)
{
	int reads = argc > 1 ? atoi(argv[1]) : 20;

	if (reads < 1)
		reads = 20;
	bench("(user threads)", THREADS_NO_UCLAMP, reads);
	bench("(user, default uclamp)", 0, reads);
	bench("(user + sched file)", THREADS_SCHED_FILE, reads);
	bench("(all + kernel + sched file)", THREADS_KERNEL | THREADS_SCHED_FILE, reads);
	bench_getattr(reads);
	return 0;
}
