/* SPDX-License-Identifier: GPL-2.0-or-later */
/* devfreq section writers: the "devfreq", "clocks" and "clocks_error" keys
 * of the JSON snapshot (design §8) and the devfreq part of the text report.
 * They only read a struct devfreq_info; n/a is null in JSON and "n/a" with
 * its reason in text. */
#include "out/devfreq_out.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "core/err.h"

static void jw_err(struct jw *w, const char *key, int e)
{
	jw_str(w, key, e ? err_name(e) : NULL);
}

static void dev_json(struct jw *w, const struct devfreq_dev *d, const struct thermal_info *th)
{
	jw_obj_begin(w, NULL);
	jw_str(w, "name", d->name);
	jw_str(w, "kind", devfreq_kind_name(d->kind));
	jw_str(w, "path", d->path[0] ? d->path : NULL);
	jw_str(w, "governor", d->governor[0] ? d->governor : NULL);
	jw_int_nn(w, "cur_hz", d->cur_hz);
	jw_int_nn(w, "target_hz", d->target_hz);
	jw_int_nn(w, "min_hz", d->min_hz);
	jw_int_nn(w, "max_hz", d->max_hz);
	jw_int_nn(w, "polling_ms", d->polling_ms);
	if (d->navail) {
		jw_arr_begin(w, "available_hz");
		for (size_t i = 0; i < d->navail; i++)
			jw_uint(w, NULL, d->avail_hz[i]);
		jw_arr_end(w);
	} else {
		jw_null(w, "available_hz");
	}
	if (d->ngov) {
		jw_arr_begin(w, "available_governors");
		for (size_t i = 0; i < d->ngov; i++)
			jw_str(w, NULL, d->avail_gov[i]);
		jw_arr_end(w);
	} else {
		jw_null(w, "available_governors");
	}
	if (d->have_total)
		jw_uint(w, "total_trans", d->total_trans);
	else
		jw_null(w, "total_trans");
	jw_double(w, "transitions_per_s", d->transitions_per_s, 1);
	if (d->have_trans) {
		jw_obj_begin(w, "time_in_state_pct");
		for (size_t i = 0; i < d->ntrans; i++) {
			char key[32];

			snprintf(key, sizeof(key), "%" PRIu64, d->trans_hz[i]);
			jw_double(w, key, d->time_pct ? d->time_pct[i] : NAN, 1);
		}
		jw_obj_end(w);
	} else {
		jw_null(w, "time_in_state_pct");
	}
	if (d->have_trans && d->trans_cur >= 0)
		jw_uint(w, "cur_state_hz", d->trans_hz[d->trans_cur]);
	else
		jw_null(w, "cur_state_hz");
	jw_err(w, "trans_stat_error", d->trans_err);
	jw_str(w, "load", d->load[0] ? d->load : NULL);
	if (th)
		jw_bool(w, "thermal_capped", thermal_devfreq_throttled(th, d->name));
	else
		jw_null(w, "thermal_capped");
	jw_obj_end(w);
}

void out_devfreq_json(struct jw *w, const struct devfreq_info *d, const struct thermal_info *th)
{
	jw_arr_begin(w, "devfreq");
	for (size_t i = 0; d && i < d->ndev; i++)
		dev_json(w, &d->dev[i], th);
	jw_arr_end(w);
	jw_arr_begin(w, "clocks");
	for (size_t i = 0; d && i < d->nclk; i++) {
		const struct devfreq_clk *c = &d->clk[i];

		jw_obj_begin(w, NULL);
		jw_str(w, "name", c->name);
		jw_str(w, "kind", devfreq_kind_name(c->kind));
		jw_int_nn(w, "rate_hz", c->rate_hz);
		jw_bool(w, "covered", c->covered);
		jw_err(w, "error", c->err);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_err(w, "clocks_error", d ? d->clk_err : -ENOENT);
}

/* ---- text ---------------------------------------------------------------- */

static const char *why(int e)
{
	switch (e < 0 ? -e : e) {
	case ENOENT: return "not present";
	case EACCES: return "permission denied, needs root";
	case EPERM: return "not permitted (kernel lockdown?)";
	case ENODATA: return "empty";
	case EINVAL: return "malformed";
	case EOPNOTSUPP: return "not supported by the driver";
	default: return "unreadable";
	}
}

static const char *mhz(char *buf, size_t cap, int64_t hz)
{
	if (hz < 0)
		snprintf(buf, cap, "n/a");
	else if (hz % 1000000 == 0)
		snprintf(buf, cap, "%" PRId64, hz / 1000000);
	else
		snprintf(buf, cap, "%.3f", (double)hz / 1e6);
	return buf;
}

static void dev_text(struct sbuf *b, const struct devfreq_dev *d, const struct thermal_info *th)
{
	char a[32], c[32];

	sbuf_printf(b, "  %-14s %-5s governor %-16s cur %s MHz", d->name,
		    devfreq_kind_name(d->kind), d->governor[0] ? d->governor : "n/a",
		    mhz(a, sizeof(a), d->cur_hz));
	sbuf_printf(b, "  target %s MHz", mhz(a, sizeof(a), d->target_hz));
	sbuf_printf(b, "  min %s  max %s MHz", mhz(a, sizeof(a), d->min_hz),
		    mhz(c, sizeof(c), d->max_hz));
	if (isnan(d->transitions_per_s))
		sbuf_puts(b, "  n/a trans/s");
	else
		sbuf_printf(b, "  %.1f trans/s", d->transitions_per_s);
	if (th && thermal_devfreq_throttled(th, d->name))
		sbuf_puts(b, "  CAPPED (thermal)");
	sbuf_putc(b, '\n');
	if (d->have_trans) {
		sbuf_puts(b, "                 residency");
		for (size_t i = 0; i < d->ntrans; i++) {
			double p = d->time_pct ? d->time_pct[i] : NAN;

			sbuf_printf(b, " %s%s:", (int)i == d->trans_cur ? "*" : "",
				    mhz(a, sizeof(a), (int64_t)d->trans_hz[i]));
			if (isnan(p))
				sbuf_puts(b, "n/a");
			else
				sbuf_printf(b, "%.1f%%", p);
		}
		if (d->trans_partial)
			sbuf_puts(b, " (trans_stat truncated)");
		sbuf_putc(b, '\n');
	} else {
		sbuf_printf(b, "                 residency n/a (trans_stat %s: %s)\n",
			    err_name(d->trans_err ? d->trans_err : -ENODATA),
			    why(d->trans_err ? d->trans_err : -ENODATA));
	}
	if (d->load[0])
		sbuf_printf(b, "                 load %s\n", d->load);
}

void out_devfreq_text(struct sbuf *b, const struct devfreq_info *d, const struct thermal_info *th)
{
	char a[32];

	sbuf_puts(b, "devfreq\n");
	if (!d || !d->ndev) {
		int e = d ? d->err : -ENOENT;

		if (!e || e == -ENOENT)
			sbuf_puts(b, "  none (no devices under /sys/class/devfreq)\n");
		else
			sbuf_printf(b, "  n/a (%s: %s)\n", err_name(e), why(e));
	}
	for (size_t i = 0; d && i < d->ndev; i++)
		dev_text(b, &d->dev[i], th);

	sbuf_puts(b, "clocks (debugfs)\n");
	if (!d || (d->clk_err && !d->nclk)) {
		int e = d ? d->clk_err : -ENOENT;

		sbuf_printf(b, "  n/a (%s: %s)\n", err_name(e),
			    e == -ENOENT ? "no /sys/kernel/debug/clk, debugfs not mounted"
					 : why(e));
		return;
	}
	if (!d->nclk)
		sbuf_puts(b, "  none of the watched clocks exist\n");
	for (size_t i = 0; i < d->nclk; i++) {
		const struct devfreq_clk *c = &d->clk[i];

		sbuf_printf(b, "  %-14s %-5s ", c->name, devfreq_kind_name(c->kind));
		if (c->rate_hz >= 0)
			sbuf_printf(b, "%s MHz", mhz(a, sizeof(a), c->rate_hz));
		else
			sbuf_printf(b, "n/a (%s: %s)", err_name(c->err), why(c->err));
		if (c->covered)
			sbuf_printf(b, "  (covered by a %s devfreq device)",
				    devfreq_kind_name(c->kind));
		sbuf_putc(b, '\n');
	}
}
