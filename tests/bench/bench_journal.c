/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_journal ROOT STATE_DIR [N]: cost of journaled knob changes, in
 * process (no fork/exec noise). ROOT must be a writable copy of a fixture
 * (the script makes one on tmpfs). Prints medians in microseconds:
 *   change   one knob_set_many() of one knob: validate, lock, journal
 *            append + fdatasync, write, re-read, commit record, unlock
 *   +change  the marginal cost of one more knob in the same transaction
 *   append   one journal record appended + fdatasync'ed
 *   write    one plain sysfs write + re-read (no journal) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "knob/journal.h"
#include "knob/knob.h"
#include "sysfs/sysroot.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(double), cmp_d);
	return v[n / 2];
}

int main(int argc, char **argv)
{
	struct sysroot r;
	struct knob_ctx *ctx;
	char *cause = NULL;
	int n = argc > 3 ? atoi(argv[3]) : 200;
	double *one, *nine, *app, *wr;
	struct sbuf rep;

	if (argc < 3 || n < 3) {
		fprintf(stderr, "usage: bench_journal ROOT STATE_DIR [N]\n");
		return 2;
	}
	if (sysroot_open(&r, argv[1]) != 0 || r.live) {
		fprintf(stderr, "bench_journal: need a fixture copy, not %s\n", argv[1]);
		return 2;
	}
	if (knob_ctx_open(&ctx, &r, argv[2], 0, &cause) != 0) {
		fprintf(stderr, "bench_journal: %s\n", cause);
		return 1;
	}
	one = xcalloc((size_t)n, sizeof(double));
	nine = xcalloc((size_t)n, sizeof(double));
	app = xcalloc((size_t)n, sizeof(double));
	wr = xcalloc((size_t)n, sizeof(double));
	sbuf_init(&rep);
	for (int i = 0; i < n; i++) {
		const char *a1[] = {i % 2 ? "cpuidle/cpu0/state1/disable=0"
					  : "cpuidle/cpu0/state1/disable=1"};
		const char *a9[] = {i % 2 ? "cpuidle/*/state0/disable=0"
					  : "cpuidle/*/state0/disable=1",
				    i % 2 ? "mm/thp=madvise" : "mm/thp=never"};
		double t0 = now_us();

		if (knob_set_many(ctx, a1, NULL, 1, 0, &rep, &cause) != 0) {
			fprintf(stderr, "bench_journal: %s\n", cause);
			return 1;
		}
		one[i] = now_us() - t0;
		t0 = now_us();
		if (knob_set_many(ctx, a9, NULL, 2, 0, &rep, &cause) != 0) {
			fprintf(stderr, "bench_journal: %s\n", cause);
			return 1;
		}
		nine[i] = (now_us() - t0 - one[i]) / 8; /* 9 knobs vs 1 */
		sbuf_reset(&rep);
		if (i % 50 == 49)
			knob_restore_all(ctx, 0, &rep, &cause);
	}
	knob_restore_all(ctx, 0, &rep, &cause);
	{
		struct journal j;
		char *dir = xasprintf("%s/raw", argv[2]), *path;
		char buf[64];

		path = xasprintf("mkdir -p %s", dir);
		if (system(path) != 0)
			return 1;
		free(path);
		journal_init(&j, dir);
		journal_lock(&j, 1000, NULL);
		for (int i = 0; i < n; i++) {
			struct jrec w = {.type = 'W'};
			char addr[] = "cpuidle/cpu0/state1/disable";
			char target[] = "sys/devices/system/cpu/cpu0/cpuidle/state1/disable";
			char old[] = "0", nv[] = "1";
			double t0;

			w.addr = addr;
			w.target = target;
			w.old = old;
			w.new_value = nv;
			t0 = now_us();
			journal_append(&j, &w, true);
			app[i] = now_us() - t0;
			t0 = now_us();
			sysfs_write_str(&r, "sys/devices/system/cpu/cpu1/cpuidle/state1/disable",
					i % 2 ? "0\n" : "1\n");
			sysfs_read_str(&r, "sys/devices/system/cpu/cpu1/cpuidle/state1/disable",
				       buf, sizeof(buf));
			wr[i] = now_us() - t0;
		}
		sysfs_write_str(&r, "sys/devices/system/cpu/cpu1/cpuidle/state1/disable", "0\n");
		journal_fini(&j);
		free(dir);
	}
	printf("  change  (set_many, 1 knob, lock..unlock): %8.1f us median of %d\n",
	       median(one, n), n);
	printf("  +change (one more knob in a transaction):  %8.1f us\n", median(nine, n));
	printf("  append  (journal record + fdatasync):      %8.1f us\n", median(app, n));
	printf("  write   (plain write + re-read):           %8.1f us\n", median(wr, n));
	sbuf_free(&rep);
	free(cause);
	free(one);
	free(nine);
	free(app);
	free(wr);
	knob_ctx_close(ctx);
	sysroot_close(&r);
	return 0;
}
