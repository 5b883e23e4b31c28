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

/* The TUI's reads (issue 18): threads_read_incr, stat by kept fds, the
 * slow fields of 40 "on screen" tids and 1/16 of the rest in rotation. */
static void bench_incr(int reads, unsigned flags, const char *label)
{
	uint64_t *cpu = calloc((size_t)reads, sizeof(uint64_t));
	struct thread_table tab[2];
	struct threads_incr st;
	pid_t want[40];
	size_t nw = 0, nslow = 0;
	int cur = 0;
	uint64_t mc;

	memset(tab, 0, sizeof(tab));
	memset(&st, 0, sizeof(st));
	threads_read_incr(&st, sysroot_live(), flags, NULL, &tab[0]);
	for (size_t i = 0; i < tab[0].n && nw < 40; i++)
		want[nw++] = tab[0].t[i].tid;
	threads_incr_want(&st, want, nw);
	for (int i = 0; i < reads; i++) {
		uint64_t c0 = time_process_cpu_ns();

		threads_read_incr(&st, sysroot_live(), flags, &tab[cur], &tab[1 - cur]);
		threads_derive(&tab[1 - cur], &tab[cur], 1.0, 100);
		cpu[i] = time_process_cpu_ns() - c0;
		cur = 1 - cur;
		nslow += st.nslow;
	}
	mc = median(cpu, reads);
	printf("threads_read_incr (all + kernel, 40 wanted%s)   threads=%zu median_cpu_ms=%.2f "
	       "per_thread_us=%.2f slow_per_read=%.0f fds_kept=%zu procs_not_listed=%zu\n",
	       label, tab[cur].n, (double)mc / 1e6,
	       tab[cur].n ? (double)mc / 1e3 / (double)tab[cur].n : 0.0, (double)nslow / reads,
	       st.nfds, st.nlisted_skip);
	threads_free(&tab[0]);
	threads_free(&tab[1]);
	threads_incr_free(&st);
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
	if (argc > 2 && !strcmp(argv[2], "incr")) { /* for perf record */
		bench_incr(reads, THREADS_KERNEL | THREADS_SCHED_FILE | THREADS_WAIT, " + wait");
		return 0;
	}
	bench("(user threads)", THREADS_NO_UCLAMP, reads);
	bench("(user, default uclamp)", 0, reads);
	bench("(user + sched file)", THREADS_SCHED_FILE, reads);
	bench("(all + kernel + sched file)", THREADS_KERNEL | THREADS_SCHED_FILE, reads);
	bench("(all + kernel + sched file + wait)",
	      THREADS_KERNEL | THREADS_SCHED_FILE | THREADS_WAIT, reads);
	bench_incr(reads, THREADS_KERNEL | THREADS_SCHED_FILE, "");
	bench_incr(reads, THREADS_KERNEL | THREADS_SCHED_FILE | THREADS_WAIT, " + wait");
	bench_getattr(reads);
	return 0;
}
