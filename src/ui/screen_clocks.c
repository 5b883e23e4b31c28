/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Clocks screen: every devfreq device (NPU, GPU, DDR controller, buses)
 * with its kind, governor, current / min / max frequency, a time-in-frequency
 * meter from trans_stat (low OPPs green, middle yellow, top red), transitions
 * per second and the Rockchip load; then the debugfs clock rates (for blocks
 * without devfreq, e.g. scmi_clk_npu). Actions on a device: g governor,
 * f lock / limits. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"
#include "ui/tui.h"

enum crow_kind {
	CROW_DEV,
	CROW_CLKHEAD,
	CROW_CLK,
	CROW_NONE,
	CROW_ACCEL,
	CROW_POWERHEAD,
	CROW_POWER
};

struct crow {
	enum crow_kind kind;
	int i;
};

struct clocks {
	struct crow *rows;
	size_t cap;
};

static void push(struct screen *s, struct clocks *c, enum crow_kind k, int i)
{
	c->rows = xgrow(c->rows, &c->cap, (size_t)s->nrows + 1, sizeof(*c->rows));
	c->rows[s->nrows++] = (struct crow){k, i};
}

void screen_clocks_build(struct screen_ctx *t, struct screen *s)
{
	struct clocks *c = s->priv;
	const struct devfreq_info *d;

	if (!c)
		c = s->priv = xcalloc(1, sizeof(*c));
	s->nrows = 0;
	s->heading_lines = 1;
	if (!t->snap)
		return;
	d = &t->snap->devf;
	for (size_t i = 0; i < d->ndev; i++)
		push(s, c, CROW_DEV, (int)i);
	if (!d->ndev)
		push(s, c, CROW_NONE, 0);
	if (accel_present(&t->snap->accel))
		push(s, c, CROW_ACCEL, 0);
	push(s, c, CROW_CLKHEAD, 0);
	for (size_t i = 0; i < d->nclk; i++)
		push(s, c, CROW_CLK, (int)i);
	if (t->snap->what & SNAP_POWER) {
		push(s, c, CROW_POWERHEAD, 0);
		for (size_t i = 0; i < t->snap->power.n; i++)
			push(s, c, CROW_POWER, (int)i);
	}
	ui_scroll(s, t->body_h - s->heading_lines);
}

void screen_clocks_free(struct screen *s)
{
	struct clocks *c = s->priv;

	ui_priv_free(s, c ? c->rows : NULL);
}

struct clayout {
	int name, kind, gov, cur, min, max, bar, wbar, tr, load;
};

static void clayout(struct clayout *L)
{
	/* the fixed columns, left to right, and their widths */
	int *const col[] = {&L->name, &L->kind, &L->gov, &L->cur, &L->min, &L->max};
	static const int width[] = {15, 5, 16, 6, 6, 6};
	int x = 0;

	for (size_t i = 0; i < sizeof(width) / sizeof(width[0]); i++) {
		*col[i] = x;
		x += width[i];
	}
	L->bar = x;
	L->wbar = COLS - x - 16;
	if (L->wbar < 8) {
		L->wbar = 0;
		L->bar = -1;
		L->tr = x;
	} else {
		L->tr = x + L->wbar + 1;
	}
	L->load = L->tr + 8;
}

static void draw_dev(struct screen_ctx *t, const struct clayout *L, const struct devfreq_dev *dv,
		     int y, bool sel)
{
	const struct snapshot *sn = t->snap;
	/* Thermal capping as text, not colour alone: at the start of the bar
	 * (or in the load column when there is no bar). */
	bool capped =
		sn && (sn->what & SNAP_THERMAL) && thermal_devfreq_throttled(&sn->therm, dv->name);
	bool cap_in_bar = capped && L->bar >= 0 && L->wbar >= 15;
	int bar = L->bar, wbar = L->wbar;
	char buf[64], pre[KNOB_ADDR_MAX];
	const struct tui_change *gc, *fc = NULL;
	enum role base = sel ? ROLE_CURSOR : ROLE_VALUE;
	bool locked = dv->min_hz >= 0 && dv->min_hz == dv->max_hz;

	ui_fill(t, y, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
	gc = tui_changed(t, knob_addr_devfreq_governor(dv->name).s);
	snprintf(pre, sizeof(pre), "%s/", knob_addr_devfreq(dv->name).s);
	for (size_t i = 0; i < t->nchanges; i++)
		if (!strncmp(t->changes[i].addr, pre, strlen(pre)) &&
		    !strstr(t->changes[i].addr, "/governor"))
			fc = &t->changes[i];
	ui_printf(t, y, L->name, 15, sel ? ROLE_CURSOR : ROLE_TITLE, "%-14.14s", dv->name);
	ui_printf(t, y, L->kind, 5, sel ? ROLE_CURSOR : ROLE_LABEL, "%-4s",
		  devfreq_kind_name(dv->kind));
	if (gc && t->show_orig)
		ui_printf(t, y, L->gov, 16, ROLE_CHANGED, "%.7s<-%.7s", dv->governor, gc->old);
	else
		ui_printf(t, y, L->gov, 16,
			  gc		    ? ROLE_CHANGED
			  : dv->governor[0] ? base
					    : ROLE_VALUE_NA,
			  "%-15.15s", dv->governor[0] ? dv->governor : "n/a");
	ui_fmt_hz(t, dv->cur_hz, buf, sizeof(buf));
	ui_printf(t, y, L->cur, 6, dv->cur_hz < 0 ? ROLE_VALUE_NA : base, "%5s", buf);
	/* the limits, min then max: changed, locked (min = max) or plain */
	for (int k = 0; k < 2; k++) {
		int64_t hz = k ? dv->max_hz : dv->min_hz;

		ui_fmt_hz(t, hz, buf, sizeof(buf));
		ui_printf(t, y, k ? L->max : L->min, 6,
			  hz < 0   ? ROLE_VALUE_NA
			  : fc	   ? ROLE_CHANGED
			  : locked ? ROLE_LOCKED
				   : base,
			  "%5s", buf);
	}
	if (cap_in_bar) {
		ui_put(t, y, bar, 7, sel ? ROLE_CURSOR : ROLE_ALERT, "CAPPED");
		bar += 7;
		wbar -= 7;
	}
	if (bar >= 0) {
		if (dv->have_trans && dv->ntrans) {
			struct bar_seg seg[16];
			int n = 0;
			bool rates = dv->time_pct != NULL;
			double total = 0, rsum = 0;

			for (size_t k = 0; rates && k < dv->ntrans; k++)
				rsum += isfinite(dv->time_pct[k]) ? dv->time_pct[k] : 0;
			if (rsum < 1) /* no time accounted in the interval: show the totals */
				rates = false;
			if (!rates)
				for (size_t k = 0; k < dv->ntrans; k++)
					total += (double)dv->trans_time_ms[k];
			for (size_t k = 0; k < dv->ntrans && n < 16; k++) {
				double pct = rates ? dv->time_pct[k]
					     : total > 0
						     ? 100.0 * (double)dv->trans_time_ms[k] / total
						     : 0;
				double pos =
					dv->ntrans > 1 ? (double)k / (double)(dv->ntrans - 1) : 1;

				seg[n++] = (struct bar_seg){isfinite(pct) ? pct : 0,
							    pos > 0.85	? ROLE_METER_HIGH
							    : pos > 0.4 ? ROLE_METER_MID
									: ROLE_METER_LOW,
							    pos > 0.85	? '#'
							    : pos > 0.4 ? '='
									: '-'};
			}
			ui_bar(t, y, bar, wbar, seg, n, NULL, ROLE_VALUE);
		} else {
			snprintf(buf, sizeof(buf), "trans_stat %s",
				 dv->trans_err ? err_name(dv->trans_err) : "n/a");
			ui_put(t, y, bar, wbar, ROLE_VALUE_NA, buf);
		}
	}
	if (isfinite(dv->transitions_per_s))
		ui_printf(t, y, L->tr, 8, base, "%6.1f", dv->transitions_per_s);
	else
		ui_put(t, y, L->tr, 8, ROLE_VALUE_NA, "   n/a");
	if (capped && !cap_in_bar) {
		ui_put(t, y, L->load, COLS - L->load, sel ? ROLE_CURSOR : ROLE_ALERT, " CAPPED");
	} else if (dv->load[0]) {
		char l[16];
		const char *at = strchr(dv->load, '@');

		snprintf(l, sizeof(l), "%.*s%%", at ? (int)(at - dv->load) : 5, dv->load);
		ui_printf(t, y, L->load, COLS - L->load, base, "%5s", l);
	}
}

/* The accelerator's own view: rknpu per-core load and driver version. */
static void draw_accel(struct screen_ctx *t, const struct accel_info *a, int y, bool sel)
{
	char line[160];
	size_t n = 0;

	ui_fill(t, y, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
	n += (size_t)snprintf(line + n, sizeof(line) - n,
			      "NPU load (rknpu %s):", a->version[0] ? a->version : "version n/a");
	if (a->have_npu_load)
		for (int i = 0; i < a->ncores && n < sizeof(line) - 16; i++)
			n += (size_t)snprintf(line + n, sizeof(line) - n, "  Core%d %3d%%", i,
					      a->core_pct[i]);
	else
		snprintf(line + n, sizeof(line) - n, " n/a (debugfs rknpu/load: %s)",
			 err_name(a->npu_err ? a->npu_err : -ENOENT));
	ui_put(t, y, 2, COLS - 2,
	       sel		  ? ROLE_CURSOR
	       : a->have_npu_load ? ROLE_VALUE
				  : ROLE_VALUE_NA,
	       line);
}

static void draw_power(struct screen_ctx *t, const struct power_sensor *p, int y, bool sel)
{
	ui_fill(t, y, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
	ui_printf(t, y, 2, 30, sel ? ROLE_CURSOR : ROLE_LABEL, "%-29.29s", p->name);
	ui_printf(t, y, 32, 7, sel ? ROLE_CURSOR : ROLE_LABEL, "%-6s", p->source);
	if (isfinite(p->watts))
		ui_printf(t, y, 39, 12, sel ? ROLE_CURSOR : ROLE_VALUE, "%8.3f W", p->watts);
	else
		ui_printf(t, y, 39, COLS - 39, ROLE_VALUE_NA, "     n/a (%s)",
			  p->err		    ? err_name(p->err)
			  : p->reset		    ? "counter went back"
			  : p->kind == POWER_ENERGY ? "energy: needs two samples"
						    : "n/a");
}

/* Row `row` of the list, drawn on line yy (ui_draw_rows). */
static void clocks_row(struct screen_ctx *t, struct screen *s, int row, int yy, bool sel,
		       const void *arg)
{
	const struct clayout *L = arg;
	const struct clocks *c = s->priv;
	const struct crow *r = &c->rows[row];
	const struct devfreq_info *d = &t->snap->devf;
	const char *u = t->cfg.freq_ghz ? "GHz" : "MHz";

	switch (r->kind) {
	case CROW_DEV: draw_dev(t, L, &d->dev[r->i], yy, sel); break;
	case CROW_NONE:
		ui_fill(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
		ui_printf(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_VALUE_NA,
			  "No devfreq devices (sys/class/devfreq: %s)",
			  d->err ? err_name(d->err) : "empty");
		break;
	case CROW_ACCEL: draw_accel(t, &t->snap->accel, yy, sel); break;
	case CROW_POWERHEAD: {
		double tot = power_total_w(&t->snap->power);

		ui_fill(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
		if (!t->snap->power.n)
			ui_put(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_VALUE_NA,
			       "Power: no sensors (hwmon power/energy, powercap RAPL)");
		else if (isfinite(tot))
			ui_printf(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_TITLE,
				  "Power (hwmon, RAPL): total %.2f W", tot);
		else
			ui_put(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_TITLE,
			       "Power (hwmon, RAPL)");
		break;
	}
	case CROW_POWER: draw_power(t, &t->snap->power.s[r->i], yy, sel); break;
	case CROW_CLKHEAD:
		ui_fill(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
		if (d->nclk)
			ui_printf(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_TITLE,
				  "debugfs clocks (sys/kernel/debug/clk), rate in %s", u);
		else
			ui_printf(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_VALUE_NA,
				  "debugfs clocks: %s",
				  d->clk_err == -ENOENT ? "none (no debugfs, or no clk directory)"
				  : d->clk_err		? err_name(d->clk_err)
							: "none of the known clocks");
		break;
	case CROW_CLK: {
		const struct devfreq_clk *k = &d->clk[r->i];
		char buf[32];

		ui_fill(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
		ui_printf(t, yy, 2, 22, sel ? ROLE_CURSOR : ROLE_LABEL, "%-21.21s", k->name);
		ui_printf(t, yy, 24, 5, sel ? ROLE_CURSOR : ROLE_LABEL, "%-4s",
			  devfreq_kind_name(k->kind));
		ui_fmt_hz(t, k->rate_hz, buf, sizeof(buf));
		if (k->rate_hz >= 0)
			ui_printf(t, yy, 30, 8, sel ? ROLE_CURSOR : ROLE_VALUE, "%6s", buf);
		else
			ui_printf(t, yy, 30, 20, ROLE_VALUE_NA, "   n/a (%s)", err_name(k->err));
		if (k->covered)
			ui_put(t, yy, 40, COLS - 40, sel ? ROLE_CURSOR : ROLE_LABEL,
			       "also shown by devfreq");
		break;
	}
	}
}

void screen_clocks_draw(struct screen_ctx *t, struct screen *s, int y, int h)
{
	struct clocks *c = s->priv;
	struct clayout L;
	const char *u = t->cfg.freq_ghz ? "GHz" : "MHz";

	if (!t->snap || !c) {
		ui_put(t, y, 0, COLS, ROLE_VALUE_NA, "no data yet");
		return;
	}
	clayout(&L);
	ui_fill(t, y, 0, COLS, ROLE_COLHEAD);
	ui_put(t, y, L.name, 15, ROLE_COLHEAD, "Device");
	ui_put(t, y, L.kind, 5, ROLE_COLHEAD, "Kind");
	ui_put(t, y, L.gov, 16, ROLE_COLHEAD, "Governor");
	ui_printf(t, y, L.cur, 6, ROLE_COLHEAD, "  Cur");
	ui_printf(t, y, L.min, 6, ROLE_COLHEAD, "  Min");
	ui_printf(t, y, L.max, 6, ROLE_COLHEAD, "  Max");
	if (L.bar >= 0)
		ui_printf(t, y, L.bar, L.wbar, ROLE_COLHEAD,
			  "Time per frequency (%s: low - mid - top)", u);
	ui_put(t, y, L.tr, 8, ROLE_COLHEAD, "  tr/s");
	ui_put(t, y, L.load, COLS - L.load, ROLE_COLHEAD, " Load");
	ui_draw_rows(t, s, y, h, clocks_row, &L);
}

/* ---- actions ------------------------------------------------------------------ */

static const struct devfreq_dev *sel_dev(struct screen_ctx *t, struct screen *s)
{
	struct clocks *c = s->priv;

	if (!c || !t->snap || s->sel < 0 || s->sel >= s->nrows || c->rows[s->sel].kind != CROW_DEV)
		return NULL;
	return &t->snap->devf.dev[c->rows[s->sel].i];
}

int screen_clocks_explain(struct screen_ctx *t, struct screen *s, struct explain_item *it, int max)
{
	struct clocks *c = s->priv;
	int n = 0;

	if (!c || !t->snap || s->sel < 0 || s->sel >= s->nrows)
		return 0;
	if (c->rows[s->sel].kind == CROW_DEV) {
		const struct devfreq_dev *dv = &t->snap->devf.dev[c->rows[s->sel].i];

		n = ui_explain_add(it, n, max, "Governor", "%s",
				   knob_addr_devfreq_governor(dv->name).s);
		n = ui_explain_add(it, n, max, "Frequency limits and locks", "%s",
				   knob_addr_devfreq_lock_hz(dv->name).s);
		n = ui_explain_add(it, n, max, "Current frequency, time per frequency",
				   "devfreq.cur_hz");
		if (dv->load[0])
			n = ui_explain_add(it, n, max, "Load", "devfreq.load");
	} else if (c->rows[s->sel].kind == CROW_ACCEL) {
		n = ui_explain_add(it, n, max, "Accelerator load", "accel.load");
	} else if (c->rows[s->sel].kind == CROW_POWER || c->rows[s->sel].kind == CROW_POWERHEAD) {
		n = ui_explain_add(it, n, max, "Power", "power.watts");
	} else {
		n = ui_explain_add(it, n, max, "Clock rates", "devfreq.cur_hz");
	}
	return n;
}

int screen_clocks_key(struct screen_ctx *t, struct screen *s, int ch)
{
	const struct devfreq_dev *dv;
	char title[96];
	int k;

	if (ch != 'g' && ch != 'f')
		return HR_IGNORED;
	dv = sel_dev(t, s);
	if (!dv) {
		tui_status(t, true, "Refused: select a devfreq device row first");
		return HR_HANDLED | HR_REDRAW;
	}
	if (!tui_may_write(t))
		return HR_HANDLED | HR_REDRAW;
	if (ch == 'g') {
		const char **items;
		int sel = 0;

		if (!dv->ngov) {
			tui_status(t, true, "Refused: %s lists no available governors", dv->name);
			return HR_HANDLED | HR_REDRAW;
		}
		items = xcalloc(dv->ngov, sizeof(*items));
		for (size_t i = 0; i < dv->ngov; i++) {
			items[i] = dv->avail_gov[i];
			if (!strcmp(items[i], dv->governor))
				sel = (int)i;
		}
		snprintf(title, sizeof(title), "Governor for %s", dv->name);
		k = ui_menu(t, title, items, (int)dv->ngov, sel, "Enter: set   Esc: cancel");
		if (k >= 0 && strcmp(items[k], dv->governor))
			tui_set1(t, "%s=%s", knob_addr_devfreq_governor(dv->name).s, items[k]);
		free(items);
		return HR_HANDLED | HR_RESCAN | HR_REDRAW;
	}
	if (!dv->navail) {
		tui_status(t, true, "Refused: %s has no available_frequencies", dv->name);
		return HR_HANDLED | HR_REDRAW;
	}
	{
		static const char *const items[] = {
			"Lock at one frequency (min = max)",
			"Set the minimum",
			"Set the maximum",
			"Release: full range",
		};

		/* the first three choices pick one frequency for one knob */
		static const struct {
			const char *before, *after;
			struct knob_addr (*addr)(const char *dev);
		} pick[] = {
			{"Lock ", " at", knob_addr_devfreq_lock_hz},
			{"Minimum of ", "", knob_addr_devfreq_min_hz},
			{"Maximum of ", "", knob_addr_devfreq_max_hz},
		};
		const int64_t pick_cur[] = {dv->cur_hz, dv->min_hz, dv->max_hz};
		int c;

		snprintf(title, sizeof(title), "Frequency of %s", dv->name);
		switch ((c = ui_menu(t, title, items, 4, 0, "Enter: choose   Esc: cancel"))) {
		case 0:
		case 1:
		case 2:
			snprintf(title, sizeof(title), "%s%s%s", pick[c].before, dv->name,
				 pick[c].after);
			k = ui_pick_freq(t, title, dv->avail_hz, dv->navail, 1000000, pick_cur[c]);
			if (k >= 0)
				tui_set1(t, "%s=%llu", pick[c].addr(dv->name).s,
					 (unsigned long long)dv->avail_hz[k]);
			break;
		case 3: {
			char a[128], b[128];
			const char *as[2] = {a, b};

			snprintf(a, sizeof(a), "%s=%llu", knob_addr_devfreq_min_hz(dv->name).s,
				 (unsigned long long)dv->avail_hz[0]);
			snprintf(b, sizeof(b), "%s=%llu", knob_addr_devfreq_max_hz(dv->name).s,
				 (unsigned long long)dv->avail_hz[dv->navail - 1]);
			tui_set(t, as, 2, 0);
			break;
		}
		default: break;
		}
	}
	return HR_HANDLED | HR_RESCAN | HR_REDRAW;
}
