/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf counters as the TUI shows them, without curses (so the unit tests
 * link it): the `events` setting of tunetoprc, the counter columns of the
 * Cores screen (which ones a set can fill, their headings and cells), and
 * the once-per-reason summary of what is n/a. Only reads a struct perf_set
 * (src/source/perf.h); opening and reading stay in the sampler and in
 * src/ui/counters.c. */
#ifndef TT_UI_COUNTERS_FMT_H
#define TT_UI_COUNTERS_FMT_H

#include <stdbool.h>
#include <stddef.h>

#include "source/perf.h"

/* The generic set, for messages ("cycles,instructions,...,page-faults"). */
const char *ctr_default_events(void);

/* Split an events list ("cycles, instructions,cache-misses": commas, spaces
 * around them ignored) and resolve every name the way the counters will
 * (generic perf names and aliases, rHEX, libpfm4 when built with it).
 * 0 with *vec a NULL-terminated vector (NULL for an empty list: the generic
 * set; free with ctr_events_free), or -EINVAL with a one-line why ("unknown
 * event 'foo' (libpfm4 cannot encode 'foo': event not found)"). vec may be
 * NULL to check only. */
int ctr_events_parse(const char *list, char ***vec, char *why, size_t cap);
void ctr_events_free(char **vec);

/* The Cores screen's counter columns, in order. */
enum ctr_col { CTR_IPC, CTR_MISSES, CTR_CSW, CTR_MIG, CTR_NCOL };
#define CTR_COL_W 7 /* width of every counter column (cells are right-aligned in 6) */

struct ctr_cols {
	bool have[CTR_NCOL];	 /* the set counts what the column needs */
	int ev[CTR_NCOL][2];	 /* events feeding it (IPC: cycles, instructions), -1 none */
	char head[CTR_NCOL][8];	 /* "IPC", "LLCm/s" (x86), "L1Dr/s" (ARM), "Csw/s", "Mig/s" */
	char what[CTR_NCOL][48]; /* for the legend: "LLC misses/s" */
	int n;			 /* columns the set can fill */
};
void ctr_cols(const struct perf_set *s, struct ctr_cols *c);

enum ctr_cell_kind {
	CTR_CELL_OK,
	CTR_CELL_SCALED, /* multiplexed: an estimate, marked '*' */
	CTR_CELL_NA,	 /* could not be opened or did not run: the reason is in the summary */
	CTR_CELL_WAIT,	 /* opened, the first interval is still running */
};
/* Text of column col for row (a CPU of a per-CPU set, 0 for a thread set):
 * "1.23", "45.6k*", "n/a", "...". pending: no interval measured yet. */
enum ctr_cell_kind ctr_cell(const struct perf_set *s, const struct ctr_cols *c, enum ctr_col col,
			    int row, bool pending, char *buf, size_t cap);
/* One event's rate the same way (the Threads screen's pane). */
enum ctr_cell_kind ctr_event_cell(const struct perf_set *s, int ev, int row, bool pending,
				  char *buf, size_t cap);

/* Why things are n/a, each reason once: items (a label and up to two
 * events it needs; -1 = none) sharing a reason are listed together:
 * "IPC, LLCm/s n/a: no hardware PMU (ENOENT); Mig/s n/a: ... (EACCES)".
 * Events counted in user space only get their own clause. Empty string
 * when nothing is n/a. */
struct ctr_item {
	const char *label;
	int ev[2];
};
void ctr_reasons(const struct perf_set *s, const struct ctr_item *it, size_t n, char *out,
		 size_t cap);

#endif
