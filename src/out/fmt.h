/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the section writers (<source>_out.c) share: the words for an errno
 * in the text report, "n/a" for an empty string, a rate column, and the
 * JSON object of a share per frequency. */
#ifndef TT_OUT_FMT_H
#define TT_OUT_FMT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/json.h"
#include "core/str.h"

/* One errno's words in a section's text ("permission denied, needs root"). */
struct out_why {
	int err; /* positive errno */
	const char *why;
};

/* The words for e (negative or positive): the section's own table first
 * (ended by a NULL why; own may be NULL), then the words every section
 * uses (ENOENT "not present", EACCES "permission denied"), else
 * "unreadable". */
const char *out_why(int e, const struct out_why *own);
/* "n/a (ENOENT: not present)" */
void out_put_err(struct sbuf *b, int e, const struct out_why *own);
/* The line of a section that has no rows: `none` when e is 0 or -ENOENT,
 * else "  n/a (EACCES: permission denied)\n". */
void out_put_none(struct sbuf *b, int e, const char *none, const struct out_why *own);
/* s, or "n/a" when s is NULL or empty. */
const char *out_na(const char *s);
/* v in decimal, or "n/a" when it is negative (not read). */
void out_put_int(struct sbuf *b, int64_t v);
/* " %*.1f" of v, or "n/a" right-aligned in width when v is NaN. */
void out_put_rate(struct sbuf *b, double v, int width);
/* key: { "408000": 12.5, ... }: pct[i] per freq[i] (null where pct is
 * NULL, not yet derived), or key: null when have is false. */
void out_pct_by_freq_json(struct jw *w, const char *key, bool have, const uint64_t *freq,
			  const double *pct, size_t n);
/* A frequency of v units (per_mhz to the MHz) in MHz into buf: whole
 * MHz without decimals, else with decimals; "n/a" when v < 0. */
const char *out_fmt_mhz(char *buf, size_t cap, int64_t v, int64_t per_mhz, int decimals);
/* The frequency domain that cpufreq policies and devfreq devices share:
 * avail_key (the navail available frequencies), "available_governors"
 * (ngov strings of gov_size bytes from gov), "total_trans" (n/a unless
 * have_total), "transitions_per_s" and "time_in_state_pct" (pct per freq
 * of n states, null unless have_tis). */
void out_freq_domain_json(struct jw *w, const char *avail_key, const uint64_t *avail, size_t navail,
			  const char *gov, size_t gov_size, size_t ngov, bool have_total,
			  uint64_t total_trans, double per_s, bool have_tis, const uint64_t *freq,
			  const double *pct, size_t n);

#endif
