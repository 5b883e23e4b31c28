/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Latency screen (key 0): draws the TUI's latency probe and its A/B
 * runs (src/ui/latency_run.c owns them): live per-CPU log-scaled
 * histograms with p50/p90/p99/p99.9 and the max with its time, the two arms
 * of an A/B side by side with the verdict, or, replaying, the recorded
 * probe windows. Keys: s start/stop, r reset, x cancel; A on any knob row
 * starts an A/B. Drawing reads the cache only. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "core/cpumask.h"
#include "core/err.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "model/record.h"
#include "model/replay.h"
#include "probe/ab.h"
#include "probe/histogram.h"
#include "probe/probe.h"
#include "probe/stats.h"
#include "ui/latency_run.h"
#include "ui/tui.h"

/* ---- drawing ---------------------------------------------------------------------------- */

/* Bin edges in whole us for [lo, hi]: one per us when they fit, else
 * log-spaced (each edge the last one times the ratio that reaches hi + 1
 * in the bins left, at least 1 us wider), so the body keeps narrow bins and
 * the tail wide ones. Returns the number of bins; edge[] has one more. */
static int make_bins(uint64_t lo, uint64_t hi, int maxb, uint64_t *edge)
{
	uint64_t span = hi - lo + 1;
	int nb = 0;

	if (maxb < 1)
		return 0;
	if (span <= (uint64_t)maxb) {
		for (uint64_t i = 0; i <= span; i++)
			edge[i] = lo + i;
		return (int)span;
	}
	edge[0] = lo;
	while (nb < maxb && edge[nb] <= hi) {
		int left = maxb - nb;
		double base = edge[nb] ? (double)edge[nb] : 1.0;
		uint64_t e = (uint64_t)llround(base * pow(((double)hi + 1.0) / base, 1.0 / left));

		if (e <= edge[nb])
			e = edge[nb] + 1;
		if (e > hi + 1 || left == 1)
			e = hi + 1;
		edge[++nb] = e;
	}
	return nb;
}

/* Counts of h per bin (a bucket goes to the bin of its lower edge). */
static void bin_counts(const struct hist *h, const uint64_t *edge, int nb, uint64_t *cnt)
{
	int k = 0;

	memset(cnt, 0, (size_t)nb * sizeof(*cnt));
	if (!h->count || !nb)
		return;
	for (int b = hist_bucket_of_us(edge[0]); b < HIST_NBUCKETS; b++) {
		uint64_t blo, bhi;

		if (!h->bucket[b])
			continue;
		hist_bucket_range(b, &blo, &bhi);
		if (blo >= edge[nb])
			break;
		while (k < nb - 1 && blo >= edge[k + 1])
			k++;
		cnt[k] += h->bucket[b];
	}
}

/* Histograms side by side over the same bins, bars log-scaled to the
 * largest bin of all of them: rows y .. y+h-1, the first one for titles. */
static void draw_hists(struct screen_ctx *t, int y, int h, const struct hist *const *hs,
		       const char *const *titles, int n)
{
	uint64_t edge[LAT_MAX_BINS + 1], lo = UINT64_MAX, hi = 0, cmax = 0;
	uint64_t(*cnt)[LAT_MAX_BINS];
	char lab[LAT_MAX_BINS][32];
	double p90[16], p99[16];
	int nb, lw = 6, cw, ncol;

	if (h < 2)
		return;
	for (int i = 0; i < n; i++) {
		if (!hs[i]->count)
			continue;
		if ((uint64_t)floor(hist_min_us(hs[i])) < lo)
			lo = (uint64_t)floor(hist_min_us(hs[i]));
		if ((uint64_t)floor(hist_max_us(hs[i])) > hi)
			hi = (uint64_t)floor(hist_max_us(hs[i]));
	}
	ui_fill(t, y, 0, COLS, ROLE_COLHEAD);
	if (lo == UINT64_MAX) {
		ui_put(t, y, 1, COLS - 1, ROLE_COLHEAD, "Histogram (log scale): no samples yet");
		return;
	}
	nb = make_bins(lo, hi, h - 1 < LAT_MAX_BINS ? h - 1 : LAT_MAX_BINS, edge);
	for (int k = 0; k < nb; k++) {
		int len;

		if (edge[k + 1] - edge[k] == 1)
			len = snprintf(lab[k], sizeof(lab[k]), "%llu", (unsigned long long)edge[k]);
		else
			len = snprintf(lab[k], sizeof(lab[k]), "%llu-%llu",
				       (unsigned long long)edge[k],
				       (unsigned long long)(edge[k + 1] - 1));
		if (len + 2 > lw)
			lw = len + 2;
	}
	ncol = (COLS - lw) / LAT_HIST_MIN_W;
	if (ncol > n)
		ncol = n;
	if (ncol > 16)
		ncol = 16;
	if (ncol < 1)
		ncol = 1;
	cw = (COLS - lw) / ncol;
	cnt = xcalloc((size_t)ncol, sizeof(*cnt));
	for (int i = 0; i < ncol; i++) {
		p90[i] = hist_percentile_us(hs[i], 0.90);
		p99[i] = hist_percentile_us(hs[i], 0.99);
		bin_counts(hs[i], edge, nb, cnt[i]);
		for (int k = 0; k < nb; k++)
			if (cnt[i][k] > cmax)
				cmax = cnt[i][k];
	}
	ui_put(t, y, 0, lw, ROLE_COLHEAD, "    us");
	for (int i = 0; i < ncol; i++)
		ui_printf(t, y, lw + i * cw, cw - 1, ROLE_COLHEAD, " %s", titles[i]);
	for (int k = 0; k < nb; k++) {
		int yy = y + 1 + k;

		ui_printf(t, yy, 0, lw, ROLE_LABEL, "%*s ", lw - 1, lab[k]);
		for (int i = 0; i < ncol; i++) {
			int x = lw + i * cw, bw = cw - 10, len = 0;
			enum role role = (double)edge[k] > p99[i]   ? ROLE_METER_HIGH
					 : (double)edge[k] > p90[i] ? ROLE_METER_MID
								    : ROLE_METER_LOW;
			char bar[256];

			if (bw < 1)
				bw = 1;
			if (bw > (int)sizeof(bar) - 1)
				bw = (int)sizeof(bar) - 1;
			if (cnt[i][k])
				len = (int)lround(bw * log1p((double)cnt[i][k]) /
						  log1p((double)cmax));
			if (cnt[i][k] && len < 1)
				len = 1;
			memset(bar, '#', (size_t)len);
			bar[len] = '\0';
			ui_put(t, yy, x + 1, bw, role, bar);
			if (cnt[i][k])
				ui_printf(t, yy, x + 1 + bw, 9, ROLE_VALUE, "%8llu",
					  (unsigned long long)cnt[i][k]);
		}
	}
	free(cnt);
}

/* A log's number as it came ("n/a" for NAN): whole numbers as they are,
 * others with the decimals their size leaves room for. */
static const char *fmt_num(char *buf, size_t cap, double v)
{
	if (isnan(v))
		snprintf(buf, cap, "n/a");
	else if (v == floor(v) || fabs(v) >= 1000)
		snprintf(buf, cap, "%.0f", v);
	else if (fabs(v) >= 100)
		snprintf(buf, cap, "%.1f", v);
	else
		snprintf(buf, cap, "%.2f", v);
	return buf;
}

/* "  12.3" columns of a summary, shared by the probe and the A/B tables;
 * us: latencies in us (whole, as the buckets), else a log's numbers. */
static int draw_stats(struct screen_ctx *t, int y, int x, enum role r,
		      const struct stats_summary *s, bool us)
{
	const double v[6] = {s->mean, s->p50, s->p90, s->p99, s->p999, s->max};
	char c[6][16];

	for (int i = 0; i < 6; i++) {
		if (us)
			lat_fmt_us(c[i], sizeof(c[i]), v[i], i == 0);
		else
			fmt_num(c[i], sizeof(c[i]), v[i]);
	}
	return ui_printf(t, y, x, COLS - x, r, "%8llu %6s %5s %5s %5s %6s %6s",
			 (unsigned long long)s->n, c[0], c[1], c[2], c[3], c[4], c[5]);
}

static void draw_intro(struct screen_ctx *t, int y, int h)
{
	static const char *const lines[] = {
		"Wake-up latency of real-time threads, measured live (like cyclictest).",
		"",
		"  s   start the probe on the CPUs you choose (default: every online CPU):",
		"      one thread per CPU, pinned, SCHED_FIFO 95 (SCHED_OTHER with a notice",
		"      when not root), sleeping on absolute deadlines; latency = wake-up",
		"      time - deadline. PM QoS is left alone. s again stops it, r clears.",
		"  A   on a knob row of any screen (an idle state, a governor, a frequency",
		"      lock, an IRQ or thread affinity...): A/B that knob between its value",
		"      and another, ABBA windows, both histograms side by side, a verdict;",
		"      the knob is put back at the end. Here, A takes any ADDRESS=A,B, and",
		"      Tab in its dialog measures an app's log instead (LOG and a REGEX).",
		"  x   cancel the A/B (the knob is put back); on a finished one: close it",
	};

	for (int i = 0; i < (int)(sizeof(lines) / sizeof(lines[0])) && i < h; i++)
		ui_put(t, y + i, 1, COLS - 1, i ? ROLE_VALUE : ROLE_TITLE, lines[i]);
}

/* n rows of the per-CPU table from row top at line y, row sel highlighted
 * (-1: none). */
static void draw_rows(struct screen_ctx *t, const struct latency *L, int y, int n, int sel_row,
		      int top)
{
	char c[16];

	for (int i = 0; i < n && top + i < L->nrow; i++) {
		const struct lat_row *r = &L->row[top + i];
		bool sel = top + i == sel_row;
		enum role role = sel ? ROLE_CURSOR : ROLE_VALUE;
		int x = 0, yy = y + i;
		char name[16], when[16];

		if (sel)
			ui_fill(t, yy, 0, COLS, ROLE_CURSOR);
		if (r->cpu < 0)
			snprintf(name, sizeof(name), "all");
		else
			snprintf(name, sizeof(name), "%d", r->cpu);
		lat_fmt_when(r->h->count ? r->h->max_at_ns : 0, when, sizeof(when));
		x += ui_printf(t, yy, x, COLS - x, role, "%-4s ", name);
		x += draw_stats(t, yy, x, role, &r->s, true);
		ui_printf(t, yy, x, COLS - x, role, " %7llu %5s  %-8s",
			  (unsigned long long)r->h->overflows,
			  lat_fmt_us(c, sizeof(c), r->s.min, false), r->h->count ? when : "");
	}
}

static void draw_probe(struct screen_ctx *t, struct screen *s, struct latency *L, int y, int h)
{
	struct probe *p = &L->probe;
	char cpus[128], pol[64], d[32], c[2][16];
	int tbl, hy;

	if (!L->probe_inited || !L->nrow) {
		ui_put(t, y, 1, COLS - 1, ROLE_TITLE, "Probe stopped");
		draw_intro(t, y + 2, h - 2);
		return;
	}
	cpulist_format(&p->cfg.cpus, cpus, sizeof(cpus));
	probe_policy_text(p, pol, sizeof(pol));
	lat_fmt_dur(L->probe_secs_ns, d, sizeof(d));
	ui_printf(t, y, 0, COLS, L->probe_on ? ROLE_TITLE : ROLE_LABEL,
		  "Probe %s %s on CPUs %s, %s, every %llu us, %s, PM QoS untouched",
		  L->probe_on ? "running" : "stopped after", d, cpus, pol,
		  (unsigned long long)p->cfg.interval_us,
		  p->mlocked ? "memory locked" : "memory NOT locked");
	ui_printf(t, y + 1, 0, COLS, ROLE_COLHEAD, "%-4s %8s %6s %5s %5s %5s %6s %6s %7s %5s  %-8s",
		  "CPU", "Samples", "Mean", "p50", "p90", "p99", "p99.9", "Max", "Ovf", "Min",
		  "Max at");
	if (L->why.on) { /* the table without a selection, the panel below it */
		draw_rows(t, L, y + 2, L->nrow < 3 ? L->nrow : 3, -1, 0);
		lat_why_draw(t, s, L, y + 2 + (L->nrow < 3 ? L->nrow : 3) + 1,
			     h - 3 - (L->nrow < 3 ? L->nrow : 3));
		return;
	}
	tbl = L->nrow;
	if (tbl > (h - 2) / 3)
		tbl = (h - 2) / 3 > 1 ? (h - 2) / 3 : 1;
	ui_scroll(s, tbl);
	draw_rows(t, L, y + 2, tbl, s->sel, s->top);
	if (L->nrow > tbl) {
		char pos[24];
		int len = snprintf(pos, sizeof(pos), " %d/%d ", s->sel + 1, L->nrow);

		ui_put(t, y + 1, COLS - len, len, ROLE_LABEL, pos);
	}
	hy = y + 2 + tbl + 1;
	{
		const struct hist *hs[16];
		char titles[16][48];
		const char *tp[16];
		int n = 0;

		/* the selected row first, then the CPUs after it */
		for (int i = s->sel; i < L->nrow && n < 16; i++) {
			const struct lat_row *r = &L->row[i];

			hs[n] = r->h;
			if (r->cpu < 0)
				snprintf(titles[n], sizeof(titles[n]), "all CPUs, p99 %s",
					 lat_fmt_us(c[1], sizeof(c[1]), r->s.p99, false));
			else
				snprintf(titles[n], sizeof(titles[n]), "CPU %d, p99 %s", r->cpu,
					 lat_fmt_us(c[1], sizeof(c[1]), r->s.p99, false));
			tp[n] = titles[n];
			n++;
		}
		draw_hists(t, hy, y + h - hy, hs, tp, n);
	}
}

/* A per-window value in at most 4 columns: 999, 1.2k, 12k, 123k, 1.2M;
 * frac: one decimal below 100 (a mean, or a log's fractional number). */
static void fmt_cell(char *buf, size_t cap, double v, bool frac)
{
	if (isnan(v))
		snprintf(buf, cap, "-");
	else if (frac && v < 99.95)
		snprintf(buf, cap, "%.1f", v);
	else if (v < 1000)
		snprintf(buf, cap, "%.0f", floor(v));
	else if (v < 9950)
		snprintf(buf, cap, "%.1fk", v / 1e3);
	else if (v < 999500)
		snprintf(buf, cap, "%.0fk", v / 1e3);
	else if (v < 9.95e6)
		snprintf(buf, cap, "%.1fM", v / 1e6);
	else
		snprintf(buf, cap, "%.0fM", v / 1e6);
}

/* The measured windows' p99, p50, mean and max, one column per window in
 * order ("3B" = window 3, arm B), so the spread between windows of the same
 * arm shows next to the verdict. As many blocks as fit in h lines (at least
 * one); while running, the latest windows. Returns the lines used. */
static int draw_ab_windows(struct screen_ctx *t, struct latency *L, int y, int h)
{
	static const char *const name[4] = {"p99", "p50", "mean", "max"};
	const int cw = 5, lw = 6;
	int ndone = 0, ncol = (COLS - lw) / cw, nblk, first = 0, used = 0;

	while (ndone < L->nabw && L->abw[ndone].done)
		ndone++;
	if (!ndone || ncol < 1)
		return 0;
	nblk = (ndone + ncol - 1) / ncol;
	if (nblk * 5 > h)
		nblk = h >= 5 ? h / 5 : 1;
	if (L->ab_on && ndone > ncol * nblk) /* running: the latest */
		first = ndone - ncol * nblk;
	for (int b = 0; b < nblk && first < ndone; b++) {
		int last = first + ncol < ndone ? first + ncol : ndone;

		ui_put(t, y + used, 0, lw, ROLE_COLHEAD, "Window");
		if (L->ab_file && b == 0 && lw + (last - first) * cw + 12 < COLS)
			ui_printf(t, y + used, lw + (last - first) * cw, COLS, ROLE_LABEL,
				  "  (%s; - = no value)", *L->ab_unit ? L->ab_unit : "as logged");
		for (int i = first; i < last; i++)
			ui_printf(t, y + used, lw + (i - first) * cw, cw, ROLE_COLHEAD, "%*d%c",
				  cw - 1, i + 1, ab_arm_name(L->abw[i].arm));
		if (b == nblk - 1 && last < ndone)
			ui_printf(t, y + used, lw + (last - first) * cw, COLS, ROLE_LABEL, " +%d",
				  ndone - last);
		used++;
		for (int m = 0; m < 4; m++) {
			ui_put(t, y + used, 0, lw, ROLE_LABEL, name[m]);
			for (int i = first; i < last; i++) {
				const struct ab_window *w = &L->abw[i];
				double v = m == 0   ? w->p99
					   : m == 1 ? w->p50
					   : m == 2 ? w->mean
						    : w->max;
				char c[16];

				fmt_cell(c, sizeof(c), v, m == 2 || (L->ab_file && v != floor(v)));
				ui_printf(t, y + used, lw + (i - first) * cw, cw,
					  w->arm ? ROLE_VALUE : ROLE_LABEL, "%*s", cw, c);
			}
			used++;
		}
		first = last;
	}
	return used;
}

/* The value index of window i (the run's schedule; ABBA BAAB before the
 * first copy of the windows). */
static int win_arm(const struct latency *L, int i)
{
	return i >= 0 && i < L->nabw ? L->abw[i].arm : ab_window_arm(i);
}

/* The finished run's text plot (ab_sweep_plot) of its primary metric, in
 * the run's unit. Returns the lines used. */
static int draw_plot(struct screen_ctx *t, struct latency *L, int y, int h)
{
	struct sbuf plot;
	const char *p;
	int used = 0;

	if (h < 1 || !L->ab_have_res)
		return 0;
	sbuf_init(&plot);
	ab_sweep_plot(&L->ab_res, (const char(*)[KNOB_VALUE_MAX])L->ab_val, L->ab_unit, L->ab_pm,
		      COLS < 100 ? COLS - 1 : 99, &plot);
	for (p = plot.s ? plot.s : ""; *p && used < h;) {
		size_t n = strcspn(p, "\n");

		ui_printf(t, y + used++, 0, COLS, ROLE_LABEL, "%.*s", (int)n, p);
		p += n;
		if (*p)
			p++;
	}
	sbuf_free(&plot);
	return used;
}

/* A finished sweep: one row per value (the primary metric's level, the
 * difference from A with its interval, the Holm-adjusted p, the word), then
 * the text plot. Returns the lines used. */
static int draw_sweep(struct screen_ctx *t, struct latency *L, int y, int h)
{
	const struct ab_result *res = &L->ab_res;
	int pm = L->ab_pm, used = 0;
	const char *mn = ab_metric_name(pm);

	if (h < 2 || !L->ab_have_res)
		return 0;
	ui_printf(t, y + used++, 0, COLS, ROLE_COLHEAD, "%-4s %-12s %9s %9s  %-24s %7s  %s", "Arm",
		  "Value", mn, "vs A", "95% interval", "p adj", "(Holm-Bonferroni)");
	for (unsigned a = 0; a < L->ab_k && used < h; a++) {
		const struct stats_abba *c = &res->cmp[a][pm];
		char ci[64], pa[16];
		const char *word = !res->conclusive   ? "inconclusive"
				   : !res->sig[a][pm] ? "n.s."
				   : c->est < 0	      ? "lower"
						      : "higher";

		if (!a) {
			ui_printf(t, y + used++, 0, COLS, ROLE_VALUE,
				  "%-4c %-12.12s %9.1f %9s  %-24s", ab_arm_name(0), L->ab_val[0],
				  res->level[0][pm], "", "(reference)");
			continue;
		}
		if (isnan(c->lo))
			snprintf(ci, sizeof(ci), "(no interval)");
		else
			snprintf(ci, sizeof(ci), "[%+.1f, %+.1f]", c->lo, c->hi);
		if (isnan(res->p_adj[a][pm]))
			snprintf(pa, sizeof(pa), "n/a");
		else
			snprintf(pa, sizeof(pa), "%.3f", res->p_adj[a][pm]);
		ui_printf(t, y + used++, 0, COLS, res->sig[a][pm] ? ROLE_OK : ROLE_VALUE,
			  "%-4c %-12.12s %9.1f %+9.1f  %-24s %7s  %s", ab_arm_name((int)a),
			  L->ab_val[a], res->level[a][pm], c->est, ci, pa, word);
	}
	return used + draw_plot(t, L, y + used, h - used);
}

static void draw_ab(struct screen_ctx *t, struct latency *L, int y, int h)
{
	const struct ab_status *st = &L->st;
	int x, yy = y, nwin = st->nwin, per = 2 * (int)(L->ab_k > 2 ? L->ab_k : 2);
	bool watts = false;

	if (L->ab_k > 2) {
		x = ui_printf(t, yy, 0, COLS, ROLE_TITLE, "Sweep %s%s ", L->ab_addr,
			      L->ab_nknobs > 1 ? " (several knobs)" : "");
		for (unsigned a = 0; a < L->ab_k && x < COLS; a++)
			x += ui_printf(t, yy, x, COLS - x, ROLE_TITLE, " %c=%s",
				       ab_arm_name((int)a), L->ab_val[a]);
		if (x < COLS)
			x += ui_printf(t, yy, x, COLS - x, ROLE_TITLE, "  (was %s)", L->ab_orig);
	} else {
		x = ui_printf(t, yy, 0, COLS, ROLE_TITLE, "A/B %s%s  A=%s  B=%s  (was %s)",
			      L->ab_addr, L->ab_nknobs > 1 ? " (several knobs)" : "", L->ab_val[0],
			      L->ab_val[1], L->ab_orig);
	}
	if (L->ab_file && x < COLS) /* the metric is the app's, not the probe's */
		ui_printf(t, yy, x, COLS - x, ROLE_TITLE, "  source: %s", L->ab_src);
	yy++;
	/* progress, then the windows in ABBA order: measured ones in capitals */
	if (L->ab_on) {
		int win = st->win < 0 ? 0 : st->win >= nwin ? nwin - 1 : st->win;

		x = ui_printf(t, yy, 0, COLS, ROLE_VALUE,
			      "round %d/%d  window %d/%d  %c=%s  %s, %.1f s left   ", win / per + 1,
			      nwin / per, win + 1, nwin, ab_arm_name(win_arm(L, win)),
			      L->ab_val[win_arm(L, win)],
			      st->phase == AB_SETTLE ? "settling" : ab_phase_name(st->phase),
			      st->left_s);
	} else {
		x = ui_put(t, yy, 0, COLS, L->ab_end_err ? ROLE_ALERT : ROLE_OK, L->ab_end) + 3;
	}
	for (int i = 0; i < nwin && x < COLS; i++) {
		char ch = ab_arm_name(win_arm(L, i));
		bool now = L->ab_on && i == st->win;
		char one[2] = {i < st->win || now ? ch : (char)(ch | 0x20), '\0'};

		x += ui_put(t, yy, x, 1,
			    now		  ? ROLE_CURSOR
			    : i < st->win ? ROLE_OK
					  : ROLE_LABEL,
			    one);
	}
	yy++;
	ui_put(t, yy++, 0, COLS, ROLE_LABEL, L->ab_probe_line);
	for (unsigned a = 0; a < L->ab_k; a++)
		watts |= isfinite(L->ab_watts[a]) != 0;
	x = ui_printf(t, yy, 0, COLS, ROLE_COLHEAD, "%-4s %-12s %7s %8s %6s %5s %5s %5s %6s %6s",
		      "Arm", "Value", "Windows", "Samples", "Mean", "p50", "p90", "p99", "p99.9",
		      "Max");
	if (watts) /* hwmon / RAPL: the cost next to the benefit */
		ui_put(t, yy, x, COLS - x, ROLE_COLHEAD, "    Watts");
	yy++;
	for (unsigned a = 0; a < L->ab_k; a++) {
		char w[16];

		snprintf(w, sizeof(w), "%u/%d", st->windows[a], nwin / (int)L->ab_k);
		x = ui_printf(t, yy, 0, COLS, ROLE_VALUE, "%-4c %-12.12s %7s ", ab_arm_name((int)a),
			      L->ab_val[a], w);
		x += draw_stats(t, yy, x, ROLE_VALUE, &L->abs[a], !L->ab_file);
		if (watts && isfinite(L->ab_watts[a]))
			ui_printf(t, yy, x, COLS - x, ROLE_VALUE, " %8.3f", L->ab_watts[a]);
		else if (watts)
			ui_printf(t, yy, x, COLS - x, ROLE_LABEL, " %8s", "n/a");
		yy++;
	}
	yy += draw_ab_windows(t, L, yy, y + h - yy - 3);
	/* the verdict, on up to six lines (fewer when the screen is short) */
	if (L->ab_on) {
		ui_put(t, yy++, 0, COLS, ROLE_LABEL,
		       "Verdict when the last window ends (x cancels and puts the knob back)");
	} else {
		const char *v = L->verdict;
		int w = COLS - 9, nl = y + h - yy - 3;

		if (nl > 6)
			nl = 6;
		if (nl < 2)
			nl = 2;
		ui_put(t, yy, 0, 9, ROLE_TITLE, "Verdict: ");
		for (int line = 0; *v && line < nl && w > 0; line++) {
			int cut = (int)strlen(v);

			/* ui_put clips at w bytes (µ and − take two and three): cut at
			 * the last ", " "; " or ": " within w bytes, else the last space */
			if (cut > w && line < nl - 1) {
				int sp = 0;

				for (cut = w; cut > 0; cut--) {
					if (v[cut] != ' ')
						continue;
					if (!sp)
						sp = cut;
					if (strchr(",;:", v[cut - 1]))
						break;
				}
				if (cut <= 0)
					cut = sp;
			}
			if (cut <= 0)
				cut = (int)strlen(v);
			ui_printf(t, yy++, 9, w, ROLE_VALUE, "%.*s", cut, v);
			v += cut;
			while (*v == ' ')
				v++;
		}
	}
	yy++;
	if (L->ab_k > 2) {
		if (!L->ab_on)
			draw_sweep(t, L, yy, y + h - yy);
		return;
	}
	if (L->ab_file) { /* a log's numbers: no latency histogram, the arms' plot */
		if (!L->ab_on)
			draw_plot(t, L, yy, y + h - yy);
		return;
	}
	if (y + h - yy >= 3 && L->abh[0] && L->abh[1]) {
		const struct hist *hs[2] = {L->abh[0], L->abh[1]};
		char titles[2][64], p99[16];
		const char *tp[2] = {titles[0], titles[1]};

		for (int a = 0; a < 2; a++)
			snprintf(titles[a], sizeof(titles[a]), "%c=%.20s, p99 %s", ab_arm_name(a),
				 L->ab_val[a], lat_fmt_us(p99, sizeof(p99), L->abs[a].p99, false));
		draw_hists(t, yy, y + h - yy, hs, tp, 2);
	}
}

/* ---- screen ops ------------------------------------------------------------------------ */

/* ---- a replay: the recorded probe windows ------------------------------------------------ */

/* A recorded window as a histogram: its buckets, and its mean, minimum and
 * maximum as recorded. */
static void hist_of_window(const struct replay_probe *p, struct hist *h)
{
	hist_init(h);
	for (size_t k = 0; k < p->nbuckets; k++) {
		h->bucket[hist_bucket_of_us(p->buckets[k][0])] += p->buckets[k][1];
		h->count += p->buckets[k][1];
	}
	h->overflows = p->overflows;
	if (!h->count)
		return;
	h->sum_ns = isfinite(p->mean_us) ? (uint64_t)llround(p->mean_us * 1000.0 * (double)h->count)
					 : 0;
	h->min_ns = isfinite(p->min_us) ? (uint64_t)llround(p->min_us * 1000.0) : 0;
	h->max_ns = isfinite(p->max_us) ? (uint64_t)llround(p->max_us * 1000.0) : h->min_ns;
}

/* The probe windows recorded up to the shown sample: all of them merged,
 * and the last one, with their histograms side by side. */
static void draw_replay(struct screen_ctx *t, int y, int h)
{
	const struct replay *r = t->replay->r;
	size_t np = replay_nprobes(r), idx = t->replay->idx, nw = 0;
	const struct replay_probe *last = NULL;
	struct hist *hs[2], *tmp;
	struct stats_summary st[2];
	const char *names[2] = {"all", "last"};
	char titles[2][64], c[16];
	const char *tp[2];
	int n;

	if (!np) {
		ui_put(t, y, 1, COLS - 1, ROLE_TITLE, "This recording has no probe windows");
		ui_put(t, y + 2, 1, COLS - 1, ROLE_VALUE,
		       "The probe's windows are recorded when it runs (0, s) in a session started "
		       "with --record FILE.");
		return;
	}
	hs[0] = xmalloc(sizeof(struct hist));
	hs[1] = xmalloc(sizeof(struct hist));
	tmp = xmalloc(sizeof(*tmp));
	hist_init(hs[0]);
	hist_init(hs[1]);
	for (size_t i = 0; i < np; i++) {
		const struct replay_probe *p = replay_probe_at(r, i);

		if (p->after_sample != SIZE_MAX && p->after_sample > idx)
			continue;
		hist_of_window(p, tmp);
		hist_merge(hs[0], tmp);
		*hs[1] = *tmp;
		last = p;
		nw++;
	}
	n = last ? 2 : 1;
	ui_printf(t, y, 0, COLS, ROLE_TITLE,
		  "Recorded probe on CPUs %s, every %llu us: %zu of %zu windows up to this sample",
		  last ? last->cpus : replay_probe_at(r, 0)->cpus,
		  (unsigned long long)(last ? last : replay_probe_at(r, 0))->interval_us, nw, np);
	ui_printf(t, y + 1, 0, COLS, ROLE_COLHEAD, "%-4s %8s %6s %5s %5s %5s %6s %6s %7s %5s", "",
		  "Samples", "Mean", "p50", "p90", "p99", "p99.9", "Max", "Ovf", "Min");
	for (int i = 0; i < n; i++) {
		int x = 0;

		lat_hist_summary(hs[i], &st[i]);
		x += ui_printf(t, y + 2 + i, x, COLS - x, ROLE_VALUE, "%-4s ", names[i]);
		x += draw_stats(t, y + 2 + i, x, ROLE_VALUE, &st[i], true);
		ui_printf(t, y + 2 + i, x, COLS - x, ROLE_VALUE, " %7llu %5s",
			  (unsigned long long)hs[i]->overflows,
			  lat_fmt_us(c, sizeof(c), st[i].min, false));
		snprintf(titles[i], sizeof(titles[i]), "%s, p99 %s",
			 i ? "last window" : "all windows to here",
			 lat_fmt_us(c, sizeof(c), st[i].p99, false));
		tp[i] = titles[i];
	}
	draw_hists(t, y + 5, h - 5, (const struct hist *const *)hs, tp, n);
	free(hs[0]);
	free(hs[1]);
	free(tmp);
}

void screen_latency_build(struct screen_ctx *t, struct screen *s)
{
	struct latency *L = t->lat;

	s->heading_lines = 2;
	s->nrows = 0;
	if (!L)
		return;
	if (lat_shown(t) && (L->probe_on || L->ab_on))
		lat_refresh(L);
	s->nrows = L->ab_shown ? 0 : L->why.on ? lat_why_rows(L) : L->nrow;
}

void screen_latency_draw(struct screen_ctx *t, struct screen *s, int y, int h)
{
	struct latency *L = lat_get(t);

	if (t->replay) {
		draw_replay(t, y, h);
		return;
	}
	if (L->ab_shown && (L->ab_on || L->verdict[0] || L->ab_end[0]))
		draw_ab(t, L, y, h);
	else
		draw_probe(t, s, L, y, h);
}

int screen_latency_key(struct screen_ctx *t, struct screen *s, int ch)
{
	struct latency *L = lat_get(t);

	(void)s;
	switch (ch) {
	case 's': return lat_act_start_stop(t, L);
	case 'r': return lat_act_reset(t, L);
	case 'w': return lat_why_toggle(t, s, L);
	case 'f': return lat_why_fix(t, s, L);
	case 'x':
	case 27: return lat_act_cancel(t, L);
	default: return HR_IGNORED;
	}
}
