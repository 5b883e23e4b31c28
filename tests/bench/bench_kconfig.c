/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Benchmark: CPU time of one kconfig_read() on a root (find the file,
 * inflate /proc/config.gz, parse), median of N. The snapshot pays it once
 * per sampler; later ticks copy the result. Prints, never fails on time. */
#include <stdio.h>
#include <stdlib.h>

#include "core/timeutil.h"
#include "source/kconfig.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct sysroot r;
	struct kconfig_info k;
	int n = argc > 2 ? atoi(argv[2]) : 50;
	uint64_t *cpu;

	if (argc < 2 || n < 1) {
		fprintf(stderr, "usage: bench_kconfig ROOT [N]\n");
		return 2;
	}
	if (sysroot_open(&r, argv[1]) != 0) {
		fprintf(stderr, "bench_kconfig: cannot open %s\n", argv[1]);
		return 1;
	}
	cpu = calloc((size_t)n, sizeof(*cpu));
	if (!cpu)
		return 1;
	for (int i = 0; i < n; i++) {
		uint64_t c0 = time_process_cpu_ns();

		kconfig_read(&r, NULL, &k);
		cpu[i] = time_process_cpu_ns() - c0;
	}
	qsort(cpu, (size_t)n, sizeof(*cpu), cmp_u64);
	printf("kconfig_read %s: %s (%zu CONFIG_ lines), median %.3f ms CPU over %d reads\n",
	       argv[1], k.have ? k.source : "no config", k.nlines, (double)cpu[n / 2] / 1e6, n);
	free(cpu);
	sysroot_close(&r);
	return 0;
}
