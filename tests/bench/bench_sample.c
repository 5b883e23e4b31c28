/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Benchmark: CPU and wall time of one sampler tick (median and mean of N)
 * on a root. With FOCUS, as the TUI's Cores screen samples: idle states of
 * the first FOCUS CPUs at each tick (the rows shown), the others in turn,
 * IRQ affinities on full ticks only. */
#include <stdio.h>
#include <stdlib.h>

#include "core/timeutil.h"
#include "model/snapshot.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct sysroot r;
	struct sampler s;
	int n = argc > 2 ? atoi(argv[2]) : 200;
	int focus = argc > 3 ? atoi(argv[3]) : -1;
	uint64_t *cpu, *wall, sum = 0;

	if (argc < 2 || n < 1) {
		fprintf(stderr, "usage: bench_sample ROOT [N [FOCUS]]\n");
		return 2;
	}
	if (sysroot_open(&r, argv[1]) != 0) {
		perror(argv[1]);
		return 1;
	}
	cpu = calloc((size_t)n, sizeof(*cpu));
	wall = calloc((size_t)n, sizeof(*wall));
	sampler_init(&s, &r, focus >= 0 ? SNAP_ALL & ~SNAP_IRQ_AFFINITY : SNAP_ALL);
	if (focus >= 0) {
		struct cpumask m;

		cpumask_zero(&m);
		for (int c = 0; c < focus && c < TT_MAX_CPUS; c++)
			cpumask_set(&m, c);
		sampler_focus(&s, &m);
	}
	if (sampler_tick(&s) != 0) {
		fprintf(stderr, "%s: no CPUs found\n", argv[1]);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		uint64_t c0 = time_process_cpu_ns(), w0 = time_mono_ns();

		sampler_tick(&s);
		cpu[i] = time_process_cpu_ns() - c0;
		wall[i] = time_mono_ns() - w0;
		sum += cpu[i];
	}
	qsort(cpu, (size_t)n, sizeof(*cpu), cmp_u64);
	qsort(wall, (size_t)n, sizeof(*wall), cmp_u64);
	printf("%s: %d CPUs%s, median of %d samples: cpu %.3f ms, wall %.3f ms (p90 cpu %.3f ms, "
	       "mean %.3f ms)\n",
	       argv[1], sampler_cur(&s)->topo.ncpus, focus >= 0 ? " (focus)" : "", n,
	       (double)cpu[n / 2] / 1e6, (double)wall[n / 2] / 1e6, (double)cpu[n * 9 / 10] / 1e6,
	       (double)sum / n / 1e6);
	if (focus >= 0)
		printf("  focus: idle states of CPUs 0-%d at each tick, the others 1/16 per tick\n",
		       focus - 1);
	sampler_free(&s);
	sysroot_close(&r);
	free(cpu);
	free(wall);
	return 0;
}
