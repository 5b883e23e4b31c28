/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The explain table: one entry per knob family and per metric, saying what
 * it is, which files it comes from (resolved on the current root), its
 * units, why it matters for jitter, what to try (a knob address and the
 * TUI key), the shell line that does the same, and the known traps, with
 * the numbers from the field investigations. `tunetop explain`, F1 / '?' in
 * the TUI, findings and lessons all point into this one table. No curses. */
#ifndef TT_MODEL_EXPLAIN_H
#define TT_MODEL_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/str.h"
#include "sysfs/sysroot.h"

#define EXPLAIN_MAX_FILES 6

struct explain_entry {
	/* A knob address pattern ("cpufreq/<policy>/governor" written as
	 * "cpufreq/x/governor" with '*' for each variable segment) or a metric
	 * name ("cpu.freq_khz"). */
	const char *key;
	/* More patterns and words that find this entry, space separated: other
	 * addresses ("cpufreq/x/min_khz"), sysfs file names ("scaling_governor"),
	 * commands ("taskset"). */
	const char *aliases;
	bool knob;	   /* key is a knob address pattern the engine can expand */
	const char *title; /* one line */
	const char *what;  /* what it is */
	/* Root-relative file templates: '*' globs a path segment; "{1}", "{2}"
	 * is the first / second variable segment of the address as given
	 * (a glob when the address did not name one). */
	const char *files[EXPLAIN_MAX_FILES];
	const char *units;
	const char *why;       /* why it matters for jitter */
	const char *try_value; /* value to try with the knob (key=value), NULL none */
	const char *try_hint;  /* what to try in words, with the TUI key */
	/* Equivalent shell line(s). "{1:policy4}" = first variable segment, or
	 * the default after ':' when the address did not name one. NULL for
	 * knobs: generated from the resolved files and try_value. */
	const char *shell;
	const char *traps; /* known traps, one per line */
	const char *see;   /* related keys, space separated */
};

/* The table. */
size_t explain_count(void);
const struct explain_entry *explain_at(size_t i);

/* Find the entry for a knob address or a metric name: exact key, then the
 * most specific pattern among keys and aliases ("cpufreq/policy4/governor"
 * finds "cpufreq/x/governor"; "scaling_governor" finds it through an
 * alias), then a unique case-insensitive substring of a key, alias or
 * title. NULL when nothing (or several) match: explain_search lists them. */
const struct explain_entry *explain_find(const char *query);
/* Every entry whose key, aliases or title contain `word` (case-insensitive);
 * fills up to max pointers, returns how many matched. */
size_t explain_search(const char *word, const struct explain_entry **out, size_t max);

/* Does a '/'-separated pattern (segments "*" match any one segment, a
 * trailing "*" in a segment matches a prefix) match addr? Returns the
 * number of literal segments matched (specificity, >= 1), 0 when not. */
int explain_pattern_match(const char *pattern, const char *addr);

/* One resolved file of an entry. */
struct explain_file {
	char template_[TT_PATH_MAX]; /* after {N} substitution */
	bool per_thread;	     /* names a TID/PID: not resolved without one */
	size_t nmatch;		     /* files found under the root */
	bool under_debugfs;	     /* none found, and the path is under debugfs */
	bool no_debugfs;	     /* ... and that debugfs is empty or unreadable */
	char **match;		     /* root-relative with a leading '/', sorted */
};

struct explain_resolved {
	const struct explain_entry *e;
	char addr[160];	 /* the address or metric as asked, without "=VALUE" ("" = the key) */
	char value[128]; /* the VALUE of "ADDR=VALUE" as asked ("" = none) */
	char root[TT_PATH_MAX]; /* the root's path ("/" live) */
	char cap[4][64];	/* variable segments named by the address ("" = not named) */
	size_t nfiles;
	struct explain_file files[EXPLAIN_MAX_FILES];
	/* Knob entries: the concrete knobs the engine resolves the address to
	 * on this root (address + root-relative target file). */
	size_t nknobs;
	char (*knob_addr)[160];
	char (*knob_file)[TT_PATH_MAX];
	char knob_err[256]; /* why the engine could not expand it ("" ok) */
	char shell[1024];   /* the shell line(s), substituted */
};

/* Resolve an entry's files (and knobs) on a root for the address as asked
 * (NULL = the key itself). Free with explain_resolved_free. */
int explain_resolve(const struct explain_entry *e, const char *addr, const struct sysroot *r,
		    struct explain_resolved *out);
void explain_resolved_free(struct explain_resolved *x);

/* The whole entry as text (what `tunetop explain` prints and the TUI's F1
 * window shows), wrapped at `width` columns (0 = 78), paths resolved. */
void explain_render(struct sbuf *b, const struct explain_resolved *x, int width);
/* Does the entry cite the field investigations (a reference board such as
 * the RK3588, B4860 or AM5729)? Those numbers are background from other
 * machines; every place that shows the entry labels them so
 * (EXPLAIN_FIELD_NOTES). */
bool explain_cites_field_notes(const struct explain_entry *e);
#define EXPLAIN_FIELD_NOTES                                                                        \
	"Board names here (RK3588, B4860, AM5729) cite the field notes: background measured on "   \
	"those machines, not on this one."
/* One line per entry: key and title (`tunetop explain --list`). */
void explain_render_list(struct sbuf *b);

#endif
