/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Benchmark: the size of a recording and the writer's CPU per sample, over
 * N samples of the demo board (the simulator stepped 1 s per sample, so the
 * values move as in `tunetop --demo`; no sleeping: N samples of 1 Hz take
 * the time of the sampling only). Each sample is written to a plain JSON
 * lines recording and to zstd recordings at the given levels; the CPU of
 * each record_sample call is summed per file.
 *   bench_record DIR N [LEVEL...]   (DIR receives the files; $TUNETOP_DEMO
 *                                    names the demo bundle) */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "core/timeutil.h"
#include "model/record.h"
#include "out/report.h"
#include "model/sim.h"
#include "model/snapshot.h"

#define MAX_FILES 8

int main(int argc, char **argv)
{
	char bundle[4096], err[256], path[MAX_FILES][4200];
	struct recorder *rec[MAX_FILES] = {0};
	uint64_t cpu_ns[MAX_FILES] = {0};
	int level[MAX_FILES] = {0}, nfiles = 1;
	struct sim *sim;
	struct sysroot root;
	struct sampler sm;
	long n;

	if (argc < 3 || (n = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: bench_record DIR N [LEVEL...]\n");
		return 2;
	}
	for (int i = 3; i < argc && nfiles < MAX_FILES; i++)
		level[nfiles++] = atoi(argv[i]);
	if (nfiles == 1 && record_have_zstd())
		level[nfiles++] = RECORD_ZSTD_LEVEL;
	if (sim_find_bundle(bundle, sizeof(bundle)) != 0 ||
	    sim_open(&sim, bundle, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_record: no demo bundle (set TUNETOP_DEMO)\n");
		return 1;
	}
	sim_step(sim, 1.0);
	if (sysroot_open(&root, sim_root(sim)) != 0) {
		sim_close(sim);
		return 1;
	}
	sampler_init(&sm, &root, SNAP_ALL);
	sampler_tick(&sm);
	for (int f = 0; f < nfiles; f++) {
		struct record_meta meta = {.source = "demo",
					   .root_path = sim_root(sim),
					   .interval_ms = 1000,
					   .simulated = true,
					   .board = sim_board(sim),
					   .format = f ? RECORD_FMT_ZSTD : RECORD_FMT_JSON,
					   .zstd_level = level[f],
					   .snapshot_json = report_record_json};
		char *cause = NULL;

		if (f && !record_have_zstd())
			break;
		snprintf(path[f], sizeof(path[f]), "%s/rec-%s%d.%s", argv[1], f ? "zstd" : "plain",
			 level[f], f ? "rec" : "jsonl");
		if (record_open(&rec[f], path[f], &meta, &cause) != 0) {
			fprintf(stderr, "bench_record: %s\n", cause);
			return 1;
		}
	}
	for (long i = 0; i < n; i++) {
		sim_step(sim, 1.0);
		sampler_tick(&sm);
		for (int f = 0; f < nfiles && rec[f]; f++) {
			uint64_t c0 = time_process_cpu_ns();

			record_sample(rec[f], sampler_cur(&sm), NULL);
			cpu_ns[f] += time_process_cpu_ns() - c0;
		}
	}
	for (int f = 0; f < nfiles && rec[f]; f++) {
		uint64_t json = record_json_bytes(rec[f]);
		struct stat st;

		record_close(rec[f]);
		if (stat(path[f], &st) != 0)
			continue;
		if (!f)
			printf("%ld demo samples (RK3588, 1 s apart), plain JSON lines: %.0f "
			       "bytes/sample, writer cpu %.3f ms/sample\n",
			       n, (double)st.st_size / (double)n,
			       (double)cpu_ns[f] / 1e6 / (double)n);
		else
			printf("  zstd level %d: %.0f bytes/sample (%.1fx smaller), writer cpu "
			       "%.3f "
			       "ms/sample (+%.3f ms over plain)\n",
			       level[f], (double)st.st_size / (double)n,
			       (double)json / (double)st.st_size,
			       (double)cpu_ns[f] / 1e6 / (double)n,
			       ((double)cpu_ns[f] - (double)cpu_ns[0]) / 1e6 / (double)n);
	}
	sampler_free(&sm);
	sysroot_close(&root);
	sim_close(sim);
	return 0;
}
