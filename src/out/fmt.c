/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers of the section writers: errno words and n/a in the text report,
 * rate columns, the share-per-frequency JSON object (see fmt.h). */
#include "out/fmt.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "core/err.h"
#include "core/jfield.h"

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
	jf_pct_by_freq(w, key, have, freq, pct, n);
}

void out_freq_domain_json(struct jw *w, const char *avail_key, const uint64_t *avail, size_t navail,
			  const char *gov, size_t gov_size, size_t ngov, bool have_total,
			  uint64_t total_trans, double per_s, bool have_tis, const uint64_t *freq,
			  const double *pct, size_t n)
{
	jw_u64_list(w, avail_key, avail, navail);
	jw_str_list(w, "available_governors", gov, gov_size, ngov);
	jw_uint_have(w, "total_trans", have_total, total_trans);
	jw_double(w, "transitions_per_s", per_s, 1);
	out_pct_by_freq_json(w, "time_in_state_pct", have_tis, freq, pct, n);
}

const char *out_fmt_mhz(char *buf, size_t cap, int64_t v, int64_t per_mhz, int decimals)
{
	if (v < 0)
		snprintf(buf, cap, "n/a");
	else if (v % per_mhz == 0)
		snprintf(buf, cap, "%" PRId64, v / per_mhz);
	else
		snprintf(buf, cap, "%.*f", decimals, (double)v / (double)per_mhz);
	return buf;
}
