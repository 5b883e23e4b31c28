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
#include "model/snap_fields.h"
#include "out/fmt.h"

void out_devfreq_json(struct jw *w, const struct devfreq_info *d, const struct thermal_info *th)
{
	jf_write_array_ctx(w, "devfreq", &snap_devfreq_dev, d ? d->dev : NULL, d ? d->ndev : 0, th);
	jf_write_array(w, "clocks", &snap_devfreq_clk, d ? d->clk : NULL, d ? d->nclk : 0);
	jw_errno(w, "clocks_error", d ? d->clk_err : -ENOENT);
}

/* ---- text ---------------------------------------------------------------- */

static const struct out_why devfreq_why[] = {
	{EACCES, "permission denied, needs root"},
	{EPERM, "not permitted (kernel lockdown?)"},
	{ENODATA, "empty"},
	{EINVAL, "malformed"},
	{EOPNOTSUPP, "not supported by the driver"},
	{0, NULL},
};

static const char *mhz(char *buf, size_t cap, int64_t hz)
{
	return out_fmt_mhz(buf, cap, hz, 1000000, 3);
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
			    out_why(d->trans_err ? d->trans_err : -ENODATA, devfreq_why));
	}
	if (d->load[0])
		sbuf_printf(b, "                 load %s\n", d->load);
}

void out_devfreq_text(struct sbuf *b, const struct devfreq_info *d, const struct thermal_info *th)
{
	char a[32];

	sbuf_puts(b, "devfreq\n");
	if (!d || !d->ndev)
		out_put_none(b, d ? d->err : -ENOENT,
			     "  none (no devices under /sys/class/devfreq)\n", devfreq_why);
	for (size_t i = 0; d && i < d->ndev; i++)
		dev_text(b, &d->dev[i], th);

	sbuf_puts(b, "clocks (debugfs)\n");
	if (!d || (d->clk_err && !d->nclk)) {
		int e = d ? d->clk_err : -ENOENT;

		sbuf_printf(b, "  n/a (%s: %s)\n", err_name(e),
			    e == -ENOENT ? "no /sys/kernel/debug/clk, debugfs not mounted"
					 : out_why(e, devfreq_why));
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
			out_put_err(b, c->err, devfreq_why);
		if (c->covered)
			sbuf_printf(b, "  (covered by a %s devfreq device)",
				    devfreq_kind_name(c->kind));
		sbuf_putc(b, '\n');
	}
}
