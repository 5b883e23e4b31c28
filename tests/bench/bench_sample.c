/* Benchmark: CPU and wall time of one sampler tick (median of N) on a root. */
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
	uint64_t *cpu, *wall;

	if (argc < 2 || n < 1) {
		fprintf(stderr, "usage: bench_sample ROOT [N]\n");
		return 2;
	}
	if (sysroot_open(&r, argv[1]) != 0) {
		perror(argv[1]);
		return 1;
	}
	cpu = calloc((size_t)n, sizeof(*cpu));
	wall = calloc((size_t)n, sizeof(*wall));
	sampler_init(&s, &r, SNAP_ALL);
	if (sampler_tick(&s) != 0) {
		fprintf(stderr, "%s: no CPUs found\n", argv[1]);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		uint64_t c0 = time_process_cpu_ns(), w0 = time_mono_ns();

		sampler_tick(&s);
		cpu[i] = time_process_cpu_ns() - c0;
		wall[i] = time_mono_ns() - w0;
	}
	qsort(cpu, (size_t)n, sizeof(*cpu), cmp_u64);
	qsort(wall, (size_t)n, sizeof(*wall), cmp_u64);
	printf("%s: %d CPUs, median of %d samples: cpu %.3f ms, wall %.3f ms (p90 cpu %.3f ms)\n",
	       argv[1], sampler_cur(&s)->topo.ncpus, n, (double)cpu[n / 2] / 1e6,
	       (double)wall[n / 2] / 1e6, (double)cpu[n * 9 / 10] / 1e6);
	sampler_free(&s);
	sysroot_close(&r);
	free(cpu);
	free(wall);
	return 0;
}
