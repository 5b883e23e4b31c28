/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch writers over a snapshot: the JSON document of design §8, a readable
 * text report, and CSV (one row per CPU). Also used by the golden tests. */
#ifndef TT_OUT_REPORT_H
#define TT_OUT_REPORT_H

#include <stdbool.h>

#include "core/str.h"
#include "model/findings.h"
#include "model/record.h"
#include "model/snapshot.h"
#include "out/threads_out.h"

struct report_opts {
	const char *root_path; /* shown as "root" */
	double interval_ms;
	bool pretty;
	bool stable;	/* golden tests: omit wall-clock time and uptime */
	bool irqs_text; /* the text report lists IRQ and softirq rates (--irqs) */
	/* Optional thread table (snapshot --threads): JSON "threads" key and a
	 * text section; only RT or pinned threads unless threads_interesting is false. */
	const struct thread_table *threads;
	bool threads_interesting;
	/* Findings: the list already evaluated and shown (the TUI, so that a
	 * recording holds what the screen showed), else evaluated here with
	 * findings_opts (NULL = the defaults: a 100 us latency budget). */
	const struct finding_list *findings;
	const struct findings_opts *findings_opts;
	/* snapshot: the undo journal's entries for this root (design §8
	 * "journal"); have_journal false = no "journal" key, journal_na =
	 * the journal could not be read (null). */
	bool have_journal, journal_na;
	unsigned journal_entries, journal_active, journal_orphaned;
};

/* report_journal_counts() fills the journal fields: src/cmd/cmd.h. */

void report_json(struct sbuf *b, const struct snapshot *s, const struct report_opts *o);
/* A recording's sample snapshot (record_meta.snapshot_json): report_json
 * with a's root, interval, threads (only RT or pinned ones) and findings,
 * without the trailing newline. */
void report_record_json(struct sbuf *b, const struct snapshot *s,
			const struct record_snapshot_args *a);
void report_text(struct sbuf *b, const struct snapshot *s, const struct report_opts *o);
/* The CSV header; with s->perf (--counters) a column per event
 * ("<event>_per_s", "thread_<event>_per_s" for a thread's counters, whose
 * values repeat on every row) and ipc, miss_rate_pct. */
void report_csv_header(struct sbuf *b, const struct snapshot *s);
void report_csv(struct sbuf *b, const struct snapshot *s, const struct report_opts *o);

/* What `tunetop report` renders (src/out/report_render.c), over a file's text in memory: a
 * recording, an A/B or probe result or a snapshot document, named name in
 * the output. The summary is appended to text and, with html, the page to
 * html. 0, or -EINVAL / a replay_open_buf error with a one-line *cause
 * (free it). */
int report_render(const char *name, const char *buf, size_t len, struct sbuf *text,
		  struct sbuf *html, char **cause);
/* The same for the file at path (a recording is replayed from the file,
 * not read whole). 0, or -errno with a one-line *cause naming path. */
int report_render_file(const char *path, struct sbuf *text, struct sbuf *html, char **cause);

#endif
