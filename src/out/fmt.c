/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers of the section writers: errno words and n/a in the text report,
 * rate columns, the share-per-frequency JSON object (see fmt.h). */
#include "out/fmt.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "core/err.h"

static const struct out_why common_why[] = {
	{ENOENT, "not present"},
	{EACCES, "permission denied"},
	{0, NULL},
};

static const char *lookup(int e, const struct out_why *t)
{
	for (; t && t->why; t++)
		if (t->err == e)
			return t->why;
	return NULL;
}

const char *out_why(int e, const struct out_why *own)
{
	const char *w;

	e = e < 0 ? -e : e;
	w = lookup(e, own);
	if (!w)
		w = lookup(e, common_why);
	return w ? w : "unreadable";
}

void out_put_err(struct sbuf *b, int e, const struct out_why *own)
{
	sbuf_printf(b, "n/a (%s: %s)", err_name(e), out_why(e, own));
}

void out_put_none(struct sbuf *b, int e, const char *none, const struct out_why *own)
{
	if (!e || e == -ENOENT) {
		sbuf_puts(b, none);
		return;
	}
	sbuf_puts(b, "  ");
	out_put_err(b, e, own);
	sbuf_putc(b, '\n');
}

const char *out_na(const char *s)
{
	return s && *s ? s : "n/a";
}

void out_put_int(struct sbuf *b, int64_t v)
{
	if (v < 0)
		sbuf_puts(b, "n/a");
	else
		sbuf_printf(b, "%" PRId64, v);
}

void out_put_rate(struct sbuf *b, double v, int width)
{
	if (isnan(v))
		sbuf_printf(b, " %*s", width, "n/a");
	else
		sbuf_printf(b, " %*.1f", width, v);
}

void out_pct_by_freq_json(struct jw *w, const char *key, bool have, const uint64_t *freq,
			  const double *pct, size_t n)
{
	if (!have) {
		jw_null(w, key);
		return;
	}
	jw_obj_begin(w, key);
	for (size_t i = 0; i < n; i++) {
		char k[32];

		snprintf(k, sizeof(k), "%" PRIu64, freq[i]);
		jw_double(w, k, pct ? pct[i] : NAN, 1);
	}
	jw_obj_end(w);
}

void out_freq_domain_json(struct jw *w, const struct out_freq_domain *f)
{
	jw_u64_list(w, f->avail_key, f->avail, f->navail);
	jw_str_list(w, "available_governors", f->gov, f->gov_size, f->ngov);
	jw_uint_have(w, "total_trans", f->have_total, f->total_trans);
	jw_double(w, "transitions_per_s", f->per_s, 1);
	out_pct_by_freq_json(w, "time_in_state_pct", f->have_tis, f->tis_freq, f->tis_pct, f->ntis);
}
