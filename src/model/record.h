/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Recordings: every sample and every journal event of a run as JSON lines
 * (one object per line, flushed per line, so a killed run still leaves a
 * readable file). `watch --record FILE` and the TUI's --record write them;
 * model/replay.h reads them back; `tunetop report` summarises them.
 *
 * On disk (issue 18): built with libzstd (HAVE_ZSTD), the lines are a zstd
 * stream unless the file name ends in .jsonl/.json or the format is
 * RECORD_FMT_JSON (--record-format json). Each line is followed by a
 * ZSTD_e_flush (so the file decodes up to the last line written), and a
 * new frame starts before a sample line every RECORD_FRAME_SAMPLES samples
 * or RECORD_FRAME_BYTES of JSON: each frame starts with a sample and
 * decodes on its own; `zstd -dc FILE` gives exactly the plain lines. The
 * reader tells the two apart by the zstd magic (record_is_zstd).
 *
 * Line types (the "type" key):
 *   header  {"type":"header","format":"tunetop-record","version":1,"schema":"tunetop.record/1",
 *            "tunetop":VERSION,
 *            "source":"watch|tui|demo","root":..,"interval_ms":..,"simulated":bool,
 *            "board":..,"start_ns":..}
 *   sample  {"type":"sample","seq":N,"t_ns":..,"snapshot":{ the snapshot JSON of design §8,
 *            with its "findings" }}
 *   event   {"type":"event","seq":N,"t_ns":..,"kind":"knob|note|marker",
 *            "addr":..,"old":..,"new":..,"state":..,"text":..}
 *   probe   {"type":"probe","seq":N,"t_ns":..,"cpus":"0-3","interval_us":..,"samples":..,
 *            "overflows":..,"min_us","mean_us","p50_us","p99_us","max_us",
 *            "buckets":[[lo_us,count],...]}   (non-empty buckets of the window)
 *   end     {"type":"end","t_ns":..,"samples":N,"events":N}
 * t_ns is CLOCK_REALTIME; seq counts every line after the header. */
#ifndef TT_MODEL_RECORD_H
#define TT_MODEL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/str.h"
#include "model/findings.h"
#include "model/snapshot.h"
#include "source/threads.h"
#include "sysfs/sysroot.h"

#define RECORD_FORMAT  "tunetop-record"
#define RECORD_VERSION 1

/* The zstd container: a new frame every RECORD_FRAME_SAMPLES samples or
 * RECORD_FRAME_BYTES of JSON, whichever comes first, so that each frame
 * starts with a sample line and decodes on its own. */
#define RECORD_FRAME_SAMPLES 256
#define RECORD_FRAME_BYTES   (1u << 20)
#define RECORD_ZSTD_LEVEL    1

enum record_format {
	RECORD_FMT_AUTO = 0, /* zstd when built with libzstd, unless FILE ends in .jsonl/.json */
	RECORD_FMT_JSON,     /* plain JSON lines */
	RECORD_FMT_ZSTD,     /* the JSON lines as a zstd stream */
	RECORD_FMT_NONE,     /* asked for zstd on a build without libzstd */
};

struct recorder;
struct hist;

/* A sample line's "snapshot" object is the batch JSON document of design
 * §8. Its writer lives in out/ (report_record_json, out/report.h), which
 * includes the model: the recorder calls it through record_meta.snapshot_json
 * so that model/ never includes out/. */
struct record_snapshot_args {
	const char *root_path; /* the recorder's root ("/" when none was given) */
	double interval_ms;
	const struct thread_table *threads;	   /* may be NULL */
	const struct finding_list *findings;	   /* as shown, or NULL: evaluate */
	const struct findings_opts *findings_opts; /* for evaluating (NULL: defaults) */
};
/* Append the snapshot's JSON object to b (a trailing newline is dropped). */
typedef void record_snapshot_fn(struct sbuf *b, const struct snapshot *s,
				const struct record_snapshot_args *a);

struct record_meta {
	const char *source;    /* "watch", "tui", "demo" */
	const char *root_path; /* shown in the header and each sample; NULL = "/" */
	double interval_ms;
	bool simulated;	   /* samples come from the --demo simulator */
	const char *board; /* label, e.g. "RK3588" (NULL = from the first sample) */
	/* Poll the journal of this root (and state dir, NULL = the default
	 * rules) at every sample, recording each change made by anyone as an
	 * event. NULL = no journal events. */
	const struct sysroot *journal_root;
	const char *state_dir;
	enum record_format format; /* RECORD_FMT_AUTO: by the file name */
	int zstd_level;		   /* 0: RECORD_ZSTD_LEVEL (benchmarks try others) */
	/* Required: writes each sample's snapshot (report_record_json). */
	record_snapshot_fn *snapshot_json;
};

/* "auto", "json" (or "jsonl"), "zstd" -> *out: 0, -EINVAL (unknown name),
 * -ENOTSUP (zstd on a build without libzstd). */
int record_format_parse(const char *s, enum record_format *out);
/* record_format_parse() for a command's --record-format: on an error, why
 * gets "--record-format S: auto, json or zstd" (or "...: this tunetop was
 * built without libzstd") for the caller's one line on stderr. */
int record_format_opt(const char *s, enum record_format *out, char *why, size_t cap);
/* Built with libzstd? */
bool record_have_zstd(void);
/* Does buf start with the zstd frame magic (28 b5 2f fd)? */
bool record_is_zstd(const void *buf, size_t len);

/* Create (truncate) path and write the header. 0 or -errno (-EINVAL
 * without meta->snapshot_json); *cause (may be NULL) gets a malloc'ed
 * one-line reason. */
int record_open(struct recorder **out, const char *path, const struct record_meta *meta,
		char **cause);
/* One sample line (the snapshot, its findings evaluated with `threads` when
 * given), then any new journal events. 0 or -errno (write error: the
 * recorder stops writing and says so once in *cause of record_close). */
int record_sample(struct recorder *r, const struct snapshot *s, const struct thread_table *threads);
/* The same with the findings as shown (findings, written as they are) or
 * evaluated with fo (NULL: defaults). */
int record_sample_with(struct recorder *r, const struct snapshot *s,
		       const struct thread_table *threads, const struct finding_list *findings,
		       const struct findings_opts *fo);
/* An event: kind "knob" (a change: addr, old, new), "note" or "marker"
 * (text). Any string may be NULL. */
int record_event(struct recorder *r, const char *kind, const char *addr, const char *old_value,
		 const char *new_value, const char *text);
/* A latency histogram window (probe/histogram.h) measured on cpus
 * ("0-3", may be NULL) with the probe's interval. */
int record_probe(struct recorder *r, const struct hist *h, const char *cpus, uint64_t interval_us);
/* Look at the journal now (record_sample does this too). */
int record_poll_journal(struct recorder *r);
/* Counters so far. */
uint64_t record_samples(const struct recorder *r);
uint64_t record_events(const struct recorder *r);
/* JSON bytes written so far (before compression), and whether the file is
 * a zstd stream. */
uint64_t record_json_bytes(const struct recorder *r);
bool record_compressed(const struct recorder *r);
/* Write the end line and close. Returns the first write error (0 ok); NULL
 * is fine. */
int record_close(struct recorder *r);

#endif
