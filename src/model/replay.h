/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a recording (model/record.h) back: the header, the samples as
 * struct snapshot (enough to draw every screen: topology, system, CPU
 * utilisation, cpufreq, cpuidle + PM QoS, devfreq, RT, thermal, IRQs and
 * softirqs; raw counters come back as 0 with their rates), the recorded
 * findings, the journal events and the probe windows, each with its time,
 * so a viewer can pause, step, seek and play at any speed. The file is read
 * once and indexed; samples are parsed on demand. Read-only: nothing here
 * writes. */
#ifndef TT_MODEL_REPLAY_H
#define TT_MODEL_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/jsonparse.h"
#include "model/findings.h"
#include "model/snapshot.h"

struct replay;

struct replay_header {
	int version;
	char tunetop[32]; /* version that wrote it */
	char source[16];  /* "watch", "tui", "demo" */
	char root[512];
	char board[128]; /* "" = n/a */
	double interval_ms;
	bool simulated;
	uint64_t start_ns;
	bool complete; /* an "end" line was found (the run was not killed) */
};

struct replay_event {
	uint64_t t_ns;
	uint64_t at_ns;	     /* when it happened: the journal's time of a change (an undo: t_ns) */
	size_t after_sample; /* index of the last sample before it (SIZE_MAX: before any) */
	char kind[16];	     /* "knob", "note", "marker" */
	char addr[160], old_value[128], new_value[128], state[16];
	char text[256];
};

struct replay_probe {
	uint64_t t_ns;
	size_t after_sample;
	char cpus[64];
	uint64_t interval_us, samples, overflows;
	double min_us, mean_us, p50_us, p99_us, max_us; /* NAN n/a */
	size_t nbuckets;
	uint64_t (*buckets)[2]; /* {lo_us, count} */
};

/* Read and index path. 0, -errno (cannot read), -EINVAL (not a recording:
 * *cause says which line and why). Torn or malformed lines after the header
 * are skipped and counted (replay_skipped). */
int replay_open(struct replay **out, const char *path, char **cause);
/* The same over text[0..len) already in memory (copied); name stands for
 * the path in messages. A zstd stream there decompresses to at most
 * REPLAY_BUF_MAX_TEXT bytes (-EFBIG beyond: the fuzzers feed this one). */
#define REPLAY_BUF_MAX_TEXT (256u << 20)
/* Memory stays bounded on any input (issue 32): a line of a recording
 * (decompressed bytes) is at most REPLAY_LINE_MAX (a sample at 256 CPUs is
 * about 1 MB), else -EFBIG with "FILE:LINE: a line longer than 32 MiB";
 * a zstd stream decompresses to at most REPLAY_RATIO_MAX times its size
 * (or REPLAY_RATIO_FLOOR, whichever is more), else -EFBIG. */
#define REPLAY_LINE_MAX	     (32u << 20)
#define REPLAY_LINE_MAX_TEXT "32 MiB"
#define REPLAY_RATIO_MAX     2000u
#define REPLAY_RATIO_FLOOR   (64u << 20)
int replay_open_buf(struct replay **out, const char *text, size_t len, const char *name,
		    char **cause);
void replay_close(struct replay *r);
/* A zstd-compressed recording is decompressed transparently when built with
 * libzstd (whole, into memory, like a plain file); without it, replay_open
 * fails with -ENOTSUP and this one-line cause (malloc'ed), which says how to
 * decompress the file with zstd(1). */
char *replay_no_zstd_cause(const char *path);

const struct replay_header *replay_header(const struct replay *r);
size_t replay_skipped(const struct replay *r);

size_t replay_nsamples(const struct replay *r);
uint64_t replay_sample_time(const struct replay *r, size_t i); /* t_ns */
/* Sample i as a snapshot (free with snapshot_free). dt_s is the time to the
 * previous sample (NAN for the first). 0, -ERANGE, -EINVAL (line no longer
 * parses). */
int replay_sample(const struct replay *r, size_t i, struct snapshot *out);
/* The sample's JSON document (parsed on each call; free with jp_free). */
int replay_sample_json(const struct replay *r, size_t i, struct jp_value *out);
/* The findings recorded with sample i (appended to out). */
int replay_findings(const struct replay *r, size_t i, struct finding_list *out);
/* The sample at or just before time t_ns (seek); 0 before the first. */
size_t replay_seek(const struct replay *r, uint64_t t_ns);
/* The sample `delta` samples away from i, clamped to the recording
 * (stepping and seeking by samples: -1, +1, -10, +10). */
size_t replay_step(const struct replay *r, size_t i, long delta);

size_t replay_nevents(const struct replay *r);
const struct replay_event *replay_event(const struct replay *r, size_t i);
size_t replay_nprobes(const struct replay *r);
const struct replay_probe *replay_probe_at(const struct replay *r, size_t i);

/* Fill a snapshot from one snapshot JSON document (design §8), as written by
 * report_json. Also used for single `snapshot --json` files. */
int replay_snapshot_from_json(const struct jp_value *doc, struct snapshot *out);

#endif
