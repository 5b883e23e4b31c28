/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `tunetop report` (src/cmd/cmd_report.c) renders: a summary of a
 * recording (model/record.h), of an A/B result (`tunetop ab --json`), of a probe result
 * (`tunetop probe --json`) or of one snapshot (`snapshot --json`). The text
 * summary goes to stdout; --html writes a self-contained page: inline CSS and
 * inline SVG plots (frequency per policy, idle residency, temperatures,
 * devfreq clocks, CPU utilisation, latency over time as a heat map and as
 * percentiles, latency histograms), the findings and the journal events. No
 * scripts, no external assets: it opens from a mail attachment. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/jsonparse.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "model/findings.h"
#include "model/record.h"
#include "model/replay.h"
#include "out/report.h"
#include "sysfs/userfile.h"

/* ---- series ---------------------------------------------------------------------- */

struct series {
	char name[64];
	double *v; /* [n] of the set, NAN = no value */
};

struct series_set {
	size_t n;     /* points per series */
	size_t count; /* series */
	struct series *s;
};

static void set_init(struct series_set *set, size_t n)
{
	memset(set, 0, sizeof(*set));
	set->n = n;
}

static struct series *set_get(struct series_set *set, const char *name)
{
	struct series *s;

	for (size_t i = 0; i < set->count; i++)
		if (!strcmp(set->s[i].name, name))
			return &set->s[i];
	set->s = xrealloc(set->s, (set->count + 1) * sizeof(*set->s));
	s = &set->s[set->count++];
	str_copy(s->name, sizeof(s->name), name);
	s->v = xmalloc((set->n ? set->n : 1) * sizeof(*s->v));
	for (size_t i = 0; i < set->n; i++)
		s->v[i] = NAN;
	return s;
}

static void set_put(struct series_set *set, const char *name, size_t i, double v)
{
	if (i < set->n)
		set_get(set, name)->v[i] = v;
}

static void set_free(struct series_set *set)
{
	for (size_t i = 0; i < set->count; i++)
		free(set->s[i].v);
	free(set->s);
	memset(set, 0, sizeof(*set));
}

struct stat3 {
	double min, max, sum;
	double mean; /* sum / n, within [min, max] by construction (a rounding
		      * error must not print a mean above the max: issue 30) */
	size_t n;
};

static struct stat3 series_stat(const struct series *s, size_t n)
{
	struct stat3 r = {NAN, NAN, 0, NAN, 0};

	for (size_t i = 0; i < n; i++) {
		if (isnan(s->v[i]))
			continue;
		if (!r.n || s->v[i] < r.min)
			r.min = s->v[i];
		if (!r.n || s->v[i] > r.max)
			r.max = s->v[i];
		r.sum += s->v[i];
		r.n++;
	}
	if (r.n)
		r.mean = fmin(fmax(r.sum / (double)r.n, r.min), r.max);
	return r;
}

/* ---- HTML helpers -------------------------------------------------------------------- */

/* The HTML entity for c, or NULL for a character that stands as it is. */
static const char *entity(char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	default: return NULL;
	}
}

static void esc(struct sbuf *b, const char *s)
{
	for (; s && *s; s++) {
		const char *e = entity(*s);

		if (e)
			sbuf_puts(b, e);
		else
			sbuf_putc(b, *s);
	}
}

/* A header row of the NULL-terminated column names (plain text, no markup). */
static void th_row(struct sbuf *b, const char *const *names)
{
	sbuf_puts(b, "<tr>");
	for (; *names; names++)
		sbuf_printf(b, "<th>%s</th>", *names);
	sbuf_puts(b, "</tr>\n");
}

/* One table cell: the string at key of o (dflt where it is absent), escaped. */
static void td_key(struct sbuf *b, const struct jp_value *o, const char *key, const char *dflt)
{
	sbuf_puts(b, "<td>");
	esc(b, jp_str(jp_get(o, key), dflt));
	sbuf_puts(b, "</td>");
}

/* s escaped for HTML into buf, cut before a character or entity that does
 * not fit: for a name from the file that goes through a printf format. */
static const char *esc_to(char *buf, size_t cap, const char *s)
{
	size_t n = 0;

	for (; s && *s; s++) {
		const char *e = entity(*s);
		size_t len = e ? strlen(e) : 1;

		if (n + len >= cap)
			break;
		memcpy(buf + n, e ? e : s, len);
		n += len;
	}
	buf[n] = '\0';
	return buf;
}

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#637939",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

static double nice_step(double range, int ticks)
{
	double raw = range / ticks, mag, f;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

static void fmt_num(char *buf, size_t cap, double v)
{
	if (fabs(v) >= 100 || v == floor(v))
		snprintf(buf, cap, "%.0f", v);
	else if (fabs(v) >= 10)
		snprintf(buf, cap, "%.1f", v);
	else
		snprintf(buf, cap, "%.2f", v);
}

#define PW 920
#define PH 280
#define ML 64
#define MR 16
#define MT 14
#define MB 40

struct marker {
	double t_s;
	char label[200];
};

/* The <svg> element of a PW x PH plot and the frame of its drawing area. */
static void svg_open(struct sbuf *b, const char *id)
{
	sbuf_printf(
		b,
		"<svg id=\"%s\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
		id, PW, PH, PW, PH);
	sbuf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n", ML,
		    MT, PW - ML - MR, PH - MT - MB);
}

/* A line chart of every series of set against t[] (seconds). */
static void svg_lines(struct sbuf *b, const char *id, const char *ylabel, const double *t,
		      const struct series_set *set, const struct marker *mk, size_t nmk, bool zero)
{
	double tmin = 0, tmax = 0, ymin = NAN, ymax = NAN, xs, ys, step;
	size_t n = set->n, stride = n > 1500 ? n / 1500 + 1 : 1;
	char a[32];

	for (size_t i = 0; i < n; i++)
		if (t[i] > tmax)
			tmax = t[i];
	if (!(tmax > tmin))
		tmax = tmin + 1;
	for (size_t k = 0; k < set->count; k++) {
		struct stat3 st = series_stat(&set->s[k], n);

		if (!st.n)
			continue;
		if (isnan(ymin) || st.min < ymin)
			ymin = st.min;
		if (isnan(ymax) || st.max > ymax)
			ymax = st.max;
	}
	if (isnan(ymin)) {
		ymin = 0;
		ymax = 1;
	}
	if (zero && ymin > 0)
		ymin = 0;
	if (ymax - ymin < 1e-9) {
		ymax += fabs(ymax) * 0.1 + 1;
		ymin -= zero && ymin == 0 ? 0 : fabs(ymin) * 0.1 + 1;
	}
	step = nice_step(ymax - ymin, 5);
	ymin = floor(ymin / step) * step;
	ymax = ceil(ymax / step) * step;
	xs = (double)(PW - ML - MR) / (tmax - tmin);
	ys = (double)(PH - MT - MB) / (ymax - ymin);
	svg_open(b, id);
	for (double y = ymin; y <= ymax + step / 2; y += step) {
		double py = PH - MB - (y - ymin) * ys;

		fmt_num(a, sizeof(a), y);
		sbuf_printf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>",
			    ML, py, PW - MR, py);
		sbuf_printf(b, "<text x=\"%d\" y=\"%.1f\" class=\"ytick\">%s</text>\n", ML - 6,
			    py + 4, a);
	}
	step = nice_step(tmax - tmin, 8);
	for (double x = 0; x <= tmax + step / 2; x += step) {
		double px = ML + (x - tmin) * xs;

		if (px > PW - MR + 0.5)
			break;
		fmt_num(a, sizeof(a), x);
		sbuf_printf(b, "<text x=\"%.1f\" y=\"%d\" class=\"xtick\">%s</text>", px,
			    PH - MB + 16, a);
	}
	sbuf_printf(b, "\n<text x=\"%d\" y=\"%d\" class=\"xlabel\">time (s)</text>\n", PW / 2,
		    PH - 6);
	sbuf_printf(b, "<text x=\"14\" y=\"%d\" class=\"ylabel\" transform=\"rotate(-90 14 %d)\">",
		    PH / 2, PH / 2);
	esc(b, ylabel);
	sbuf_puts(b, "</text>\n");
	for (size_t i = 0; i < nmk; i++) {
		double px = ML + (mk[i].t_s - tmin) * xs;

		if (px < ML || px > PW - MR)
			continue;
		sbuf_printf(b,
			    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			    "class=\"marker\"><title>",
			    px, MT, px, PH - MB);
		esc(b, mk[i].label);
		sbuf_puts(b, "</title></line>\n");
	}
	for (size_t k = 0; k < set->count; k++) {
		const struct series *s = &set->s[k];
		bool open = false;
		size_t pts = 0;

		for (size_t i = 0; i < n; i += stride) {
			if (isnan(s->v[i])) {
				if (open)
					sbuf_puts(b, "\"/>\n");
				open = false;
				continue;
			}
			if (!open) {
				sbuf_printf(b, "<polyline class=\"line\" stroke=\"%s\" points=\"",
					    palette[k % NPALETTE]);
				open = true;
				pts = 0;
			}
			sbuf_printf(b, "%s%.1f,%.1f", pts++ ? " " : "", ML + (t[i] - tmin) * xs,
				    PH - MB - (s->v[i] - ymin) * ys);
		}
		if (open)
			sbuf_puts(b, "\"/>\n");
		/* single points are invisible as lines: dots */
		for (size_t i = 0; i < n; i += stride)
			if (!isnan(s->v[i]) && (i == 0 || isnan(s->v[i - 1])) &&
			    (i + 1 >= n || isnan(s->v[i + 1])))
				sbuf_printf(
					b,
					"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
					ML + (t[i] - tmin) * xs, PH - MB - (s->v[i] - ymin) * ys,
					palette[k % NPALETTE]);
	}
	sbuf_puts(b, "</svg>\n<p class=\"legend\">");
	for (size_t k = 0; k < set->count; k++) {
		sbuf_printf(b,
			    "<span class=\"key\"><span class=\"swatch\" "
			    "style=\"background:%s\"></span>",
			    palette[k % NPALETTE]);
		esc(b, set->s[k].name);
		sbuf_puts(b, "</span> ");
	}
	sbuf_puts(b, "</p>\n");
}

/* Histogram(s) on a log-log plot: x = latency (us), y = count. */
struct histo {
	const char *name;
	size_t n;
	const uint64_t (*b)[2]; /* {lo_us, count} sorted */
};

static double lx(double us, double lo, double hi)
{
	return ML + (log10(us < 1 ? 1 : us) - log10(lo)) / (log10(hi) - log10(lo)) * (PW - ML - MR);
}

static void svg_hist(struct sbuf *b, const char *id, const struct histo *h, size_t nh)
{
	double hi = 10, cmax = 1;
	char a[32];

	for (size_t k = 0; k < nh; k++)
		for (size_t i = 0; i < h[k].n; i++) {
			if ((double)h[k].b[i][0] * 1.5 + 2 > hi)
				hi = (double)h[k].b[i][0] * 1.5 + 2;
			if ((double)h[k].b[i][1] > cmax)
				cmax = (double)h[k].b[i][1];
		}
	hi = pow(10, ceil(log10(hi)));
	cmax = pow(10, ceil(log10(cmax + 1)));
	svg_open(b, id);
	for (double x = 1; x <= hi; x *= 10) {
		double px = lx(x, 1, hi);

		fmt_num(a, sizeof(a), x);
		sbuf_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/>",
			    px, MT, px, PH - MB);
		sbuf_printf(b, "<text x=\"%.1f\" y=\"%d\" class=\"xtick\">%s</text>\n", px,
			    PH - MB + 16, a);
	}
	for (double y = 1; y <= cmax; y *= 10) {
		double py = PH - MB - log10(y) / log10(cmax) * (PH - MT - MB);

		fmt_num(a, sizeof(a), y);
		sbuf_printf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>",
			    ML, py, PW - MR, py);
		sbuf_printf(b, "<text x=\"%d\" y=\"%.1f\" class=\"ytick\">%s</text>\n", ML - 6,
			    py + 4, a);
	}
	sbuf_printf(b,
		    "<text x=\"%d\" y=\"%d\" class=\"xlabel\">wake-up latency (us, log)</text>\n",
		    PW / 2, PH - 6);
	sbuf_printf(
		b,
		"<text x=\"14\" y=\"%d\" class=\"ylabel\" transform=\"rotate(-90 14 %d)\">samples "
		"(log)</text>\n",
		PH / 2, PH / 2);
	for (size_t k = 0; k < nh; k++) {
		for (size_t i = 0; i < h[k].n; i++) {
			double lo = (double)h[k].b[i][0], cnt = (double)h[k].b[i][1];
			double x0 = lx(lo < 1 ? 1 : lo, 1, hi), x1 = lx(lo + 1, 1, hi);
			double y = PH - MB - log10(cnt + 1) / log10(cmax) * (PH - MT - MB);

			if (x1 - x0 < 1.5)
				x1 = x0 + 1.5;
			sbuf_printf(b,
				    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				    "fill=\"%s\" "
				    "class=\"bar\"><title>%.0f us: %.0f</title></rect>\n",
				    x0, y, x1 - x0, PH - MB - y, palette[k % NPALETTE], lo, cnt);
		}
	}
	sbuf_puts(b, "</svg>\n<p class=\"legend\">");
	for (size_t k = 0; k < nh; k++) {
		sbuf_printf(b,
			    "<span class=\"key\"><span class=\"swatch\" "
			    "style=\"background:%s\"></span>",
			    palette[k % NPALETTE]);
		esc(b, h[k].name);
		sbuf_puts(b, "</span> ");
	}
	sbuf_puts(b, "</p>\n");
}

/* Latency over time: one column per probe window, rows = log-spaced
 * latency bins, darker = larger share of that window's wake-ups. */
#define HEAT_ROWS 28

static void svg_heat(struct sbuf *b, const char *id, const struct replay *rp, uint64_t t0,
		     double tmax)
{
	size_t np = replay_nprobes(rp);
	double top = 100, xs;
	char a[32];

	for (size_t i = 0; i < np; i++) {
		const struct replay_probe *p = replay_probe_at(rp, i);

		for (size_t k = 0; k < p->nbuckets; k++)
			if ((double)p->buckets[k][0] + 1 > top)
				top = (double)p->buckets[k][0] + 1;
	}
	top = pow(10, ceil(log10(top)));
	if (!(tmax > 0))
		tmax = 1;
	xs = (double)(PW - ML - MR) / tmax;
	svg_open(b, id);
	for (size_t i = 0; i < np; i++) {
		const struct replay_probe *p = replay_probe_at(rp, i);
		double t1 = p->t_ns > t0 ? (double)(p->t_ns - t0) / 1e9 : 0;
		double t_prev = i ? (double)(replay_probe_at(rp, i - 1)->t_ns - t0) / 1e9 : 0;
		double w, x;
		uint64_t rows[HEAT_ROWS] = {0};

		if (!p->samples)
			continue;
		if (!i && np > 1)
			t_prev = t1 - ((double)(replay_probe_at(rp, 1)->t_ns - p->t_ns) / 1e9);
		if (t_prev < 0)
			t_prev = 0;
		w = (t1 - t_prev) * xs;
		if (w < 2)
			w = 2;
		x = ML + t_prev * xs;
		for (size_t k = 0; k < p->nbuckets; k++) {
			double us = (double)p->buckets[k][0] + 0.5;
			int row = (int)(log10(us < 1 ? 1 : us) / log10(top) * HEAT_ROWS);

			if (row >= HEAT_ROWS)
				row = HEAT_ROWS - 1;
			rows[row] += p->buckets[k][1];
		}
		for (int r = 0; r < HEAT_ROWS; r++) {
			double share = (double)rows[r] / (double)p->samples, y, h;

			if (!rows[r])
				continue;
			h = (double)(PH - MT - MB) / HEAT_ROWS;
			y = PH - MB - (r + 1) * h;
			sbuf_printf(b,
				    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				    "fill=\"#b22222\" "
				    "fill-opacity=\"%.3f\"><title>%.1f s: %.2f%% of "
				    "wake-ups</title></rect>\n",
				    x, y, w, h, 0.08 + 0.92 * pow(share, 0.35), t1, share * 100);
		}
	}
	for (double y = 1; y <= top; y *= 10) {
		double py = PH - MB - log10(y) / log10(top) * (PH - MT - MB);

		fmt_num(a, sizeof(a), y);
		sbuf_printf(b, "<text x=\"%d\" y=\"%.1f\" class=\"ytick\">%s</text>\n", ML - 6,
			    py + 4, a);
	}
	sbuf_printf(b, "<text x=\"%d\" y=\"%d\" class=\"xlabel\">time (s)</text>\n", PW / 2,
		    PH - 6);
	sbuf_printf(
		b,
		"<text x=\"14\" y=\"%d\" class=\"ylabel\" transform=\"rotate(-90 14 %d)\">latency "
		"(us, log)</text>\n",
		PH / 2, PH / 2);
	sbuf_puts(b, "</svg>\n");
}

static const char *css =
	"body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:980px}"
	"h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.8em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ddd;padding:3px 8px;"
	"text-align:left;vertical-align:top}th{background:#f4f4f4}"
	".meta{color:#555}.na{color:#777;font-style:italic}"
	".plot{background:#fff;border:1px solid #eee;max-width:100%;height:auto}"
	".frame{fill:none;stroke:#999}.grid{stroke:#e6e6e6}.line{fill:none;stroke-width:1.6}"
	".marker{stroke:#555;stroke-dasharray:4 3}.bar{fill-opacity:.55}"
	".xtick,.xlabel{font-size:11px;text-anchor:middle;fill:#444}"
	".ytick{font-size:11px;text-anchor:end;fill:#444}.ylabel{font-size:11px;text-anchor:middle;"
	"fill:#444}.legend{font-size:.85em}.key{margin-right:14px;white-space:nowrap}"
	".swatch{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-1px}"
	".crit{color:#b00;font-weight:bold}.warn{color:#b60}.info{color:#357}"
	".sim{background:#fff3cd;padding:4px 8px;border:1px solid #e0c060}";

static void html_head(struct sbuf *b, const char *title)
{
	sbuf_puts(
		b,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>");
	esc(b, title);
	sbuf_printf(b, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", css);
	esc(b, title);
	sbuf_puts(b, "</h1>\n");
}

static void html_tail(struct sbuf *b)
{
	sbuf_printf(b,
		    "<p class=\"meta\">Generated by tunetop %s. Self-contained: no scripts, no "
		    "external "
		    "assets.</p>\n</body>\n</html>\n",
		    PACKAGE_VERSION);
}

/* ---- recordings -------------------------------------------------------------------- */

struct fstat_ {
	char id[32], subject[64], title[128], sev[8];
	size_t samples;
};

/* The series sets of a recording: all but REC_LAT have a point per sample,
 * REC_LAT one per probe window. */
enum rec_set { REC_FREQ, REC_IDLE, REC_TEMP, REC_DEVF, REC_UTIL, REC_RTUSE, REC_LAT, REC_NSETS };

struct rec {
	const struct replay *rp;
	size_t n;
	double *t; /* seconds since the first sample */
	uint64_t t0;
	struct series_set set[REC_NSETS]; /* by enum rec_set */
	char board[128], kernel[96], preempt[32], root[512];
	struct fstat_ *fs;
	size_t nfs;
	size_t throttled_samples;
	struct marker *mk;
	size_t nmk;
};

static void fs_add(struct rec *r, const struct finding *f)
{
	for (size_t i = 0; i < r->nfs; i++)
		if (!strcmp(r->fs[i].id, f->id) && !strcmp(r->fs[i].subject, f->subject)) {
			r->fs[i].samples++;
			str_copy(r->fs[i].title, sizeof(r->fs[i].title), f->title);
			str_copy(r->fs[i].sev, sizeof(r->fs[i].sev), finding_sev_name(f->sev));
			return;
		}
	r->fs = xrealloc(r->fs, (r->nfs + 1) * sizeof(*r->fs));
	memset(&r->fs[r->nfs], 0, sizeof(r->fs[0]));
	str_copy(r->fs[r->nfs].id, sizeof(r->fs[0].id), f->id);
	str_copy(r->fs[r->nfs].subject, sizeof(r->fs[0].subject), f->subject);
	str_copy(r->fs[r->nfs].title, sizeof(r->fs[0].title), f->title);
	str_copy(r->fs[r->nfs].sev, sizeof(r->fs[0].sev), finding_sev_name(f->sev));
	r->fs[r->nfs++].samples = 1;
}

static void rec_sample(struct rec *r, size_t i, const struct snapshot *s)
{
	char name[96];
	double busy_sum = 0, busy_max = NAN, rt_max = NAN;
	int busy_n = 0;
	bool throttled = false;

	if (i == 0) {
		str_copy(r->board, sizeof(r->board),
			 s->sys.model[0] ? s->sys.model : s->topo.cpu_model);
		str_copy(r->kernel, sizeof(r->kernel), s->sys.kernel);
		str_copy(r->preempt, sizeof(r->preempt),
			 system_preempt_name(s->sys.preempt) ? system_preempt_name(s->sys.preempt)
							     : "n/a");
	}
	for (size_t k = 0; k < s->freq.npolicies; k++) {
		const struct cpufreq_policy *p = &s->freq.pol[k];

		set_put(&r->set[REC_FREQ], p->name, i,
			p->cur_khz >= 0 ? (double)p->cur_khz / 1000.0 : NAN);
	}
	/* idle: mean residency of each state name (from the first CPU that
	 * has states) over the online CPUs */
	for (int c = 0; c < s->idle.ncpus; c++) {
		const struct cpuidle_cpu *cc = &s->idle.cpu[c];

		if (!cc->online || !cc->nstates)
			continue;
		for (size_t k = 0; k < cc->nstates; k++) {
			double acc = 0;
			int cnt = 0;

			for (int d = 0; d < s->idle.ncpus; d++) {
				const struct cpuidle_state *st =
					cpuidle_state_find(&s->idle, d, cc->st[k].name);

				if (st && !isnan(st->residency_pct)) {
					acc += st->residency_pct;
					cnt++;
				}
			}
			set_put(&r->set[REC_IDLE], cc->st[k].name, i, cnt ? acc / cnt : NAN);
		}
		break;
	}
	for (size_t k = 0; k < s->therm.nzones; k++) {
		const struct thermal_zone *z = &s->therm.zones[k];

		snprintf(name, sizeof(name), "%s", z->type[0] ? z->type : "zone");
		set_put(&r->set[REC_TEMP], name, i,
			z->have_temp ? (double)z->temp_mc / 1000.0 : NAN);
	}
	for (size_t k = 0; k < s->devf.ndev; k++) {
		const struct devfreq_dev *d = &s->devf.dev[k];

		set_put(&r->set[REC_DEVF], d->name, i,
			d->cur_hz >= 0 ? (double)d->cur_hz / 1e6 : NAN);
	}
	for (int c = 0; c < s->stat.ncpus; c++) {
		double u = s->stat.util[c].busy_pct;

		if (isnan(u))
			continue;
		busy_sum += u;
		busy_n++;
		if (isnan(busy_max) || u > busy_max)
			busy_max = u;
	}
	set_put(&r->set[REC_UTIL], "mean", i, busy_n ? busy_sum / busy_n : NAN);
	set_put(&r->set[REC_UTIL], "busiest CPU", i, busy_max);
	for (int c = 0; c < s->rt.ncpu; c++) {
		const struct rt_cpu *rc = &s->rt.cpu[c];

		if (!rc->have_rt)
			continue;
		throttled |= rc->throttled == 1;
		if (!isnan(rc->rt_use_pct) && (isnan(rt_max) || rc->rt_use_pct > rt_max))
			rt_max = rc->rt_use_pct;
	}
	set_put(&r->set[REC_RTUSE], "highest rt_time / rt_runtime", i, rt_max);
	r->throttled_samples += throttled;
}

static int rec_load(struct rec *r, const struct replay *rp)
{
	size_t n = replay_nsamples(rp);

	memset(r, 0, sizeof(*r));
	r->rp = rp;
	r->n = n;
	r->t = xcalloc(n ? n : 1, sizeof(*r->t));
	r->t0 = n ? replay_sample_time(rp, 0) : replay_header(rp)->start_ns;
	for (int k = 0; k < REC_LAT; k++)
		set_init(&r->set[k], n);
	str_copy(r->root, sizeof(r->root), replay_header(rp)->root);
	for (size_t i = 0; i < n; i++) {
		struct snapshot s;
		struct finding_list fl = {0};

		r->t[i] = (double)(replay_sample_time(rp, i) - r->t0) / 1e9;
		if (replay_sample(rp, i, &s) != 0)
			continue;
		rec_sample(r, i, &s);
		snapshot_free(&s);
		replay_findings(rp, i, &fl);
		for (size_t k = 0; k < fl.n; k++)
			fs_add(r, &fl.v[k]);
		findings_free(&fl);
	}
	/* latency over time from probe windows, on the sample clock */
	{
		size_t np = replay_nprobes(rp);
		double *pt = xcalloc(np ? np : 1, sizeof(*pt));

		set_init(&r->set[REC_LAT], np);
		for (size_t i = 0; i < np; i++) {
			const struct replay_probe *p = replay_probe_at(rp, i);

			pt[i] = p->t_ns > r->t0 ? (double)(p->t_ns - r->t0) / 1e9 : 0;
			set_put(&r->set[REC_LAT], "max", i, p->max_us);
			set_put(&r->set[REC_LAT], "p99", i, p->p99_us);
			set_put(&r->set[REC_LAT], "mean", i, p->mean_us);
		}
		free(pt);
	}
	r->nmk = replay_nevents(rp);
	r->mk = xcalloc(r->nmk ? r->nmk : 1, sizeof(*r->mk));
	for (size_t i = 0; i < r->nmk; i++) {
		const struct replay_event *e = replay_event(rp, i);

		r->mk[i].t_s = e->t_ns > r->t0 ? (double)(e->t_ns - r->t0) / 1e9 : 0;
		if (e->addr[0])
			snprintf(r->mk[i].label, sizeof(r->mk[i].label), "%s: %s -> %s (%s)",
				 e->addr, e->old_value[0] ? e->old_value : "?",
				 e->new_value[0] ? e->new_value : "?",
				 e->state[0] ? e->state : e->kind);
		else
			snprintf(r->mk[i].label, sizeof(r->mk[i].label), "%s: %s", e->kind,
				 e->text);
	}
	return 0;
}

static void rec_free(struct rec *r)
{
	for (int k = 0; k < REC_NSETS; k++)
		set_free(&r->set[k]);
	free(r->t);
	free(r->fs);
	free(r->mk);
}

static void text_set(struct sbuf *b, const char *title, const struct series_set *set,
		     const char *unit, int dec)
{
	if (!set->count)
		return;
	sbuf_printf(b, "%s (min / mean / max)\n", title);
	for (size_t k = 0; k < set->count; k++) {
		struct stat3 st = series_stat(&set->s[k], set->n);

		if (!st.n) {
			sbuf_printf(b, "  %-28s n/a\n", set->s[k].name);
			continue;
		}
		sbuf_printf(b, "  %-28s %.*f / %.*f / %.*f %s\n", set->s[k].name, dec, st.min, dec,
			    st.mean, dec, st.max, unit);
	}
}

static void rec_text(struct sbuf *b, const struct rec *r, const char *path)
{
	const struct replay_header *h = replay_header(r->rp);
	double dur = r->n ? r->t[r->n - 1] : 0;

	sbuf_printf(b, "recording %s\n", path);
	sbuf_printf(b, "  written by tunetop %s (%s), root %s, interval %.0f ms\n", h->tunetop,
		    h->source, h->root, h->interval_ms);
	sbuf_printf(b, "  %zu samples over %.1f s, %zu events, %zu probe windows%s%s\n", r->n, dur,
		    replay_nevents(r->rp), replay_nprobes(r->rp),
		    h->complete ? "" : "; no end line (the run was killed)",
		    h->simulated ? "; SIMULATED board" : "");
	if (replay_skipped(r->rp))
		sbuf_printf(b, "  %zu malformed lines skipped\n", replay_skipped(r->rp));
	sbuf_printf(b, "  board %s, kernel %s, preempt %s\n\n", r->board[0] ? r->board : "n/a",
		    r->kernel[0] ? r->kernel : "n/a", r->preempt);
	text_set(b, "cpu frequency", &r->set[REC_FREQ], "MHz", 0);
	text_set(b, "cpu utilisation", &r->set[REC_UTIL], "%", 1);
	text_set(b, "idle residency, mean over CPUs", &r->set[REC_IDLE], "%", 1);
	text_set(b, "devfreq", &r->set[REC_DEVF], "MHz", 0);
	text_set(b, "temperature", &r->set[REC_TEMP], "C", 1);
	if (r->set[REC_RTUSE].count)
		text_set(b, "rt time of the runtime limit", &r->set[REC_RTUSE], "%", 1);
	sbuf_printf(b, "rt throttling engaged in %zu of %zu samples\n", r->throttled_samples, r->n);
	if (replay_nprobes(r->rp))
		text_set(b, "wake-up latency per probe window", &r->set[REC_LAT], "us", 1);
	sbuf_puts(b, "findings (samples in which they were seen)\n");
	if (!r->nfs)
		sbuf_puts(b, "  none\n");
	for (size_t i = 0; i < r->nfs; i++)
		sbuf_printf(b, "  %-4s %-20s %zu/%zu  %s\n", r->fs[i].sev, r->fs[i].id,
			    r->fs[i].samples, r->n, r->fs[i].title);
	sbuf_puts(b, "events\n");
	if (!replay_nevents(r->rp))
		sbuf_puts(b, "  none\n");
	for (size_t i = 0; i < replay_nevents(r->rp); i++)
		sbuf_printf(b, "  %+8.2f s  %s\n", r->mk[i].t_s, r->mk[i].label);
}

static void html_section_lines(struct sbuf *b, const char *sec, const char *h2, const char *plot,
			       const char *ylabel, const struct rec *r,
			       const struct series_set *set, bool zero, const char *na)
{
	sbuf_printf(b, "<section id=\"%s\">\n<h2>", sec);
	esc(b, h2);
	sbuf_puts(b, "</h2>\n");
	bool any = false;

	for (size_t k = 0; k < set->count && !any; k++)
		any = series_stat(&set->s[k], set->n).n > 0;
	if (!set->count || !r->n)
		sbuf_printf(b, "<p class=\"na\">%s</p>\n", na);
	else if (!any)
		sbuf_puts(b, "<p class=\"na\">n/a in every sample (rates need two samples whose "
			     "counters moved).</p>\n");
	else
		svg_lines(b, plot, ylabel, r->t, set, r->mk, r->nmk, zero);
	sbuf_puts(b, "</section>\n");
}

static void rec_html(struct sbuf *b, const struct rec *r, const char *path)
{
	const struct replay_header *h = replay_header(r->rp);
	char title[600];

	snprintf(title, sizeof(title), "tunetop recording: %s", r->board[0] ? r->board : path);
	html_head(b, title);
	if (h->simulated)
		sbuf_puts(b,
			  "<p class=\"sim\">SIMULATED board: these numbers come from the tunetop "
			  "simulator, not from hardware.</p>\n");
	sbuf_puts(b, "<section id=\"summary\">\n<h2>Summary</h2>\n<table>\n");
	sbuf_puts(b, "<tr><th>file</th><td>");
	esc(b, path);
	sbuf_puts(b, "</td></tr>\n<tr><th>root</th><td>");
	esc(b, h->root);
	sbuf_puts(b, "</td></tr>\n<tr><th>source</th><td>");
	esc(b, h->source[0] ? h->source : "n/a");
	sbuf_puts(b, ", tunetop ");
	esc(b, h->tunetop);
	sbuf_puts(b, "</td></tr>\n");
	sbuf_puts(b, "<tr><th>board</th><td>");
	esc(b, r->board[0] ? r->board : "n/a");
	sbuf_puts(b, "</td></tr>\n<tr><th>kernel</th><td>");
	esc(b, r->kernel[0] ? r->kernel : "n/a");
	sbuf_puts(b, " (");
	esc(b, r->preempt);
	sbuf_puts(b, ")</td></tr>\n");
	sbuf_printf(b,
		    "<tr><th>samples</th><td>%zu over %.1f s, every %.0f ms%s</td></tr>\n"
		    "<tr><th>events</th><td>%zu (dashed lines in the plots)</td></tr>\n"
		    "<tr><th>probe windows</th><td>%zu</td></tr>\n"
		    "<tr><th>rt throttling</th><td>engaged in %zu "
		    "samples</td></tr>\n</table>\n</section>\n",
		    r->n, r->n ? r->t[r->n - 1] : 0, h->interval_ms,
		    h->complete ? "" : " (no end line: the run was killed)", replay_nevents(r->rp),
		    replay_nprobes(r->rp), r->throttled_samples);
	html_section_lines(b, "freq", "CPU frequency per policy", "plot-freq", "MHz", r,
			   &r->set[REC_FREQ], true, "No cpufreq on this board.");
	html_section_lines(b, "util", "CPU utilisation", "plot-util", "% busy", r,
			   &r->set[REC_UTIL], true, "No utilisation (first sample only).");
	html_section_lines(b, "idle", "Idle residency (mean over CPUs)", "plot-idle", "% of time",
			   r, &r->set[REC_IDLE], true,
			   "No cpuidle states on this board, or no rates yet.");
	html_section_lines(b, "devfreq", "devfreq clocks (NPU, GPU, DDR)", "plot-devfreq", "MHz", r,
			   &r->set[REC_DEVF], true, "No devfreq devices on this board.");
	html_section_lines(b, "temp", "Temperatures", "plot-temp", "degrees C", r,
			   &r->set[REC_TEMP], false, "No thermal zones on this board.");
	html_section_lines(b, "rt", "RT time used of the runtime limit", "plot-rt", "%", r,
			   &r->set[REC_RTUSE], true,
			   "No scheduler debug data (root and debugfs needed).");
	sbuf_puts(b, "<section id=\"latency\">\n<h2>Wake-up latency</h2>\n");
	if (!replay_nprobes(r->rp)) {
		sbuf_puts(b, "<p class=\"na\">No probe windows in this recording (record from the "
			     "TUI with "
			     "the probe running).</p>\n");
	} else {
		size_t np = replay_nprobes(r->rp), nb = 0;
		double *pt = xcalloc(np, sizeof(*pt)), tmax = r->n ? r->t[r->n - 1] : 0;
		uint64_t(*all)[2] = NULL;
		struct histo hs;

		for (size_t i = 0; i < np; i++) {
			const struct replay_probe *p = replay_probe_at(r->rp, i);

			pt[i] = p->t_ns > r->t0 ? (double)(p->t_ns - r->t0) / 1e9 : 0;
			if (pt[i] > tmax)
				tmax = pt[i];
			for (size_t k = 0; k < p->nbuckets; k++) {
				size_t j;

				for (j = 0; j < nb && all[j][0] != p->buckets[k][0]; j++)
					;
				if (j == nb) {
					all = xrealloc(all, (nb + 1) * sizeof(*all));
					all[nb][0] = p->buckets[k][0];
					all[nb++][1] = 0;
				}
				all[j][1] += p->buckets[k][1];
			}
		}
		sbuf_puts(b, "<h3>Histogram over time (darker = more wake-ups)</h3>\n");
		svg_heat(b, "plot-latency-heat", r->rp, r->t0, tmax);
		sbuf_puts(b, "<h3>Percentiles per window</h3>\n");
		svg_lines(b, "plot-latency", "us", pt, &r->set[REC_LAT], r->mk, r->nmk, true);
		sbuf_puts(b, "<h3>All windows</h3>\n");
		hs = (struct histo){"all windows", nb, (const uint64_t(*)[2])all};
		svg_hist(b, "plot-hist", &hs, 1);
		free(all);
		free(pt);
	}
	sbuf_puts(b, "</section>\n<section id=\"findings\">\n<h2>Findings</h2>\n");
	if (!r->nfs)
		sbuf_puts(b, "<p class=\"na\">No findings in any sample.</p>\n");
	else {
		sbuf_puts(b, "<table>\n");
		th_row(b, (const char *const[]){"severity", "rule", "seen in", "last title", NULL});
		for (size_t i = 0; i < r->nfs; i++) {
			char sev[64];

			esc_to(sev, sizeof(sev), r->fs[i].sev);
			sbuf_printf(b, "<tr><td class=\"%s\">%s</td><td>", sev, sev);
			esc(b, r->fs[i].id);
			sbuf_printf(b, "</td><td>%zu of %zu samples</td><td>", r->fs[i].samples,
				    r->n);
			esc(b, r->fs[i].title);
			sbuf_puts(b, "</td></tr>\n");
		}
		sbuf_puts(b, "</table>\n");
	}
	sbuf_puts(b, "</section>\n<section id=\"events\">\n<h2>Events</h2>\n");
	if (!replay_nevents(r->rp))
		sbuf_puts(b, "<p class=\"na\">No journal events during the recording.</p>\n");
	else {
		sbuf_puts(b, "<table>\n");
		th_row(b, (const char *const[]){"time", "event", NULL});
		for (size_t i = 0; i < r->nmk; i++) {
			sbuf_printf(b, "<tr><td>%+.2f s</td><td>", r->mk[i].t_s);
			esc(b, r->mk[i].label);
			sbuf_puts(b, "</td></tr>\n");
		}
		sbuf_puts(b, "</table>\n");
	}
	sbuf_puts(b, "</section>\n");
	html_tail(b);
}

/* ---- A/B, probe and snapshot JSON ----------------------------------------------------- */

/* "p99_us", "p99_ms" or "p99": whichever the document has. */
static double stat_of(const struct jp_value *o, const char *k)
{
	static const char *const sfx[] = {"_us", "_ms", ""};
	char key[48];

	for (size_t i = 0; i < 3; i++) {
		const struct jp_value *v;

		snprintf(key, sizeof(key), "%s%s", k, sfx[i]);
		v = jp_get(o, key);
		if (v)
			return jp_num(v, NAN);
	}
	return NAN;
}

static uint64_t (*hist_of(const struct jp_value *arr, size_t *n))[2]
{
	uint64_t(*h)[2];

	*n = jp_len(arr);
	if (!*n)
		return NULL;
	h = xcalloc(*n, sizeof(*h));
	for (size_t i = 0; i < *n; i++) {
		h[i][0] = (uint64_t)jp_int(jp_get(jp_at(arr, i), "lo_us"), 0);
		h[i][1] = (uint64_t)jp_int(jp_get(jp_at(arr, i), "count"), 0);
	}
	return h;
}

/* A sweep's metric against the value (categorical, in the order given):
 * each value's level (the mean of its windows' metric), V1's as the
 * reference line, the others with the 95 % interval of their difference
 * from V1 as a bar; filled when significant after Holm. */
static void svg_sweep(struct sbuf *b, const char *id, const struct jp_value *doc,
		      const char *metric, const char *unit)
{
	const struct jp_value *vals = jp_path(doc, "ab.values"), *cmps = jp_get(doc, "comparisons");
	size_t k = jp_len(vals);
	double lvl[16], lo[16], hi[16], ymin = INFINITY, ymax = -INFINITY, base = NAN, step, xs, ys;
	bool sig[16];
	char key[32], lab[32];

	if (k < 2 || k > 16 || jp_len(cmps) + 1 != k)
		return;
	for (size_t i = 1; i < k; i++) {
		const struct jp_value *c = jp_at(cmps, i - 1);

		snprintf(key, sizeof(key), "%s.level", metric);
		lvl[i] = jp_num(jp_path(c, key), NAN);
		snprintf(key, sizeof(key), "%s.diff", metric);
		if (isnan(base))
			base = lvl[i] - jp_num(jp_path(c, key), NAN);
		snprintf(key, sizeof(key), "%s.lo", metric);
		lo[i] = jp_num(jp_path(c, key), NAN);
		snprintf(key, sizeof(key), "%s.hi", metric);
		hi[i] = jp_num(jp_path(c, key), NAN);
		snprintf(key, sizeof(key), "%s.significant", metric);
		sig[i] = jp_bool(jp_path(c, key), false);
	}
	lvl[0] = base;
	lo[0] = hi[0] = NAN;
	sig[0] = false;
	for (size_t i = 0; i < k; i++) {
		double a = isfinite(lo[i]) ? base + lo[i] : lvl[i];
		double z = isfinite(hi[i]) ? base + hi[i] : lvl[i];

		if (isfinite(a) && isfinite(z)) {
			ymin = fmin(ymin, fmin(a, lvl[i]));
			ymax = fmax(ymax, fmax(z, lvl[i]));
		}
	}
	if (!(ymax >= ymin)) {
		sbuf_puts(b, "<p class=\"na\">No levels to plot.</p>\n");
		return;
	}
	if (ymax == ymin)
		ymax = ymin + 1;
	step = nice_step(ymax - ymin, 5);
	ymin = floor(ymin / step) * step;
	ymax = ceil(ymax / step) * step;
	xs = (double)(PW - ML - MR) / (double)k;
	ys = (double)(PH - MT - MB) / (ymax - ymin);
#define SY(v) (MT + (ymax - (v)) * ys)
	sbuf_printf(
		b,
		"<svg id=\"%s\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\">\n",
		id, PW, PH, PW, PH);
	for (double y = ymin; y <= ymax + step / 2; y += step) {
		fmt_num(lab, sizeof(lab), y);
		sbuf_printf(b,
			    "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			    "stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" font-size=\"11\" "
			    "text-anchor=\"end\">%s</text>\n",
			    ML, SY(y), PW - MR, SY(y), ML - 4, SY(y) + 4, lab);
	}
	sbuf_printf(b,
		    "<line class=\"ref\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		    "stroke=\"%s\" stroke-dasharray=\"4 3\"/>\n",
		    ML, SY(base), PW - MR, SY(base), palette[0]);
	sbuf_printf(b,
		    "<text x=\"12\" y=\"%d\" font-size=\"11\" transform=\"rotate(-90 12 %d)\" "
		    "text-anchor=\"middle\">%s %s</text>\n",
		    MT + (PH - MT - MB) / 2, MT + (PH - MT - MB) / 2, metric, unit);
	for (size_t i = 0; i < k; i++) {
		double x = ML + xs * ((double)i + 0.5);

		if (i && isfinite(lo[i]) && isfinite(hi[i]))
			sbuf_printf(b,
				    "<line class=\"ci\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				    "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>"
				    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				    "stroke=\"%s\"/><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				    "y2=\"%.1f\" stroke=\"%s\"/>\n",
				    x, SY(base + lo[i]), x, SY(base + hi[i]), palette[1], x - 6,
				    SY(base + lo[i]), x + 6, SY(base + lo[i]), palette[1], x - 6,
				    SY(base + hi[i]), x + 6, SY(base + hi[i]), palette[1]);
		if (isfinite(lvl[i]))
			sbuf_printf(b,
				    "<circle class=\"level\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" "
				    "stroke=\"%s\" fill=\"%s\"><title>%.3f</title></circle>\n",
				    x, SY(lvl[i]), i ? palette[1] : palette[0],
				    sig[i] ? palette[1] : "white", lvl[i]);
		sbuf_printf(b, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">",
			    x, PH - MB + 16);
		esc(b, jp_str(jp_at(vals, i), "?"));
		sbuf_puts(b, "</text>\n");
	}
#undef SY
	sbuf_printf(
		b,
		"<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">value (the "
		"first is the reference, dashed; bars: 95%% interval of the difference; filled: "
		"significant after Holm-Bonferroni)</text>\n</svg>\n",
		ML + (PW - ML - MR) / 2, PH - 6);
}

/* A sweep's comparisons: text lines and an HTML table. */
static void sweep_report(struct sbuf *t, struct sbuf *html, const struct jp_value *doc,
			 const char *metric, const char *unit)
{
	const struct jp_value *cmps = jp_get(doc, "comparisons");
	char key[32];

	if (t) {
		const char *fam = jp_str(jp_path(doc, "comparison.correction.text"), NULL);

		if (fam) /* the run's own words for its family (issue 30) */
			sbuf_printf(t, "  sweep: each value - %s (%s; %s):\n",
				    jp_str(jp_path(doc, "ab.a"), "?"), metric, fam);
		else
			sbuf_printf(t, "  sweep: each value - %s (%s, Holm-Bonferroni over %zu):\n",
				    jp_str(jp_path(doc, "ab.a"), "?"), metric, jp_len(cmps));
		for (size_t i = 0; i < jp_len(cmps); i++) {
			const struct jp_value *c = jp_at(cmps, i);

			snprintf(key, sizeof(key), "%s.diff", metric);
			sbuf_printf(t, "    %s = %-12s %+.1f %s", jp_str(jp_get(c, "arm"), "?"),
				    jp_str(jp_get(c, "value"), "?"), jp_num(jp_path(c, key), NAN),
				    unit);
			snprintf(key, sizeof(key), "%s.p_adj", metric);
			sbuf_printf(t, "  p adj %.3f  %s\n", jp_num(jp_path(c, key), NAN),
				    jp_bool(jp_get(c, "significant"), false) ? "significant"
									     : "n.s.");
		}
	}
	if (!html)
		return;
	sbuf_printf(html, "<section id=\"sweep\">\n<h2>Sweep: %s against the value</h2>\n<table>\n",
		    metric);
	th_row(html, (const char *const[]){"arm", "value", "level", "difference from the first",
					   "95% interval", "p", "p adj (Holm)", NULL});
	for (size_t i = 0; i < jp_len(cmps); i++) {
		const struct jp_value *c = jp_at(cmps, i);
		static const char *const f[] = {"level", "diff", "lo", "hi", "p", "p_adj"};
		double v[6];

		for (int j = 0; j < 6; j++) {
			snprintf(key, sizeof(key), "%s.%s", metric, f[j]);
			v[j] = jp_num(jp_path(c, key), NAN);
		}
		sbuf_puts(html, "<tr>");
		td_key(html, c, "arm", "?");
		td_key(html, c, "value", "?");
		sbuf_printf(html,
			    "<td>%.2f %s</td><td>%+.2f</td><td>%.2f to %.2f</td><td>%.4f</td>"
			    "<td>%.4f</td></tr>\n",
			    v[0], unit, v[1], v[2], v[3], v[4], v[5]);
	}
	sbuf_puts(html, "</table>\n");
	svg_sweep(html, "plot-sweep", doc, metric, unit);
	sbuf_puts(html, "</section>\n");
}

static void ab_report(struct sbuf *t, struct sbuf *html, const struct jp_value *doc,
		      const char *path)
{
	bool sweep = jp_bool(jp_path(doc, "ab.sweep"), false);
	const char *pm =
		!strcmp(jp_str(jp_path(doc, "ab.source"), "probe"), "probe") ? "p99" : "mean";

	const struct jp_value *ab = jp_get(doc, "ab"), *arms = jp_get(doc, "arms"),
			      *cmp = jp_get(doc, "comparison"), *wins = jp_get(doc, "windows");
	const char *unit = jp_str(jp_get(ab, "unit"), "us");
	char unit_h[96]; /* the unit as the page shows it: it comes from the file */
	static const char *const cols[] = {"mean", "p50", "p99", "max"};

	esc_to(unit_h, sizeof(unit_h), unit);
	sbuf_printf(t,
		    "A/B result %s\n  %s: A = %s, B = %s (%s, %" PRId64 " rounds, %" PRId64
		    " windows, %s)\n",
		    path, jp_str(jp_get(ab, "address"), "?"), jp_str(jp_get(ab, "a"), "?"),
		    jp_str(jp_get(ab, "b"), "?"), jp_str(jp_get(ab, "source"), "?"),
		    jp_int(jp_get(ab, "rounds"), 0), jp_int(jp_get(ab, "windows"), 0),
		    jp_bool(jp_get(ab, "complete"), false) ? "complete" : "incomplete");
	for (size_t i = 0; i < jp_len(arms); i++) {
		const struct jp_value *a = jp_at(arms, i);

		sbuf_printf(t, "  arm %s = %-14s samples %" PRId64, jp_str(jp_get(a, "arm"), "?"),
			    jp_str(jp_get(a, "value"), "?"), jp_int(jp_get(a, "samples"), 0));
		for (size_t k = 0; k < 4; k++)
			sbuf_printf(t, "  %s %.1f", cols[k], stat_of(a, cols[k]));
		sbuf_printf(t, " %s\n", unit);
	}
	{
		/* No interval (too few rounds: the verdict says inconclusive):
		 * say so rather than print nan. */
		double lo = jp_num(jp_path(cmp, "p99.lo"), NAN),
		       hi = jp_num(jp_path(cmp, "p99.hi"), NAN);
		char iv[64];

		if (isfinite(lo) && isfinite(hi))
			snprintf(iv, sizeof(iv), "[%.1f, %.1f]", lo, hi);
		else
			snprintf(iv, sizeof(iv), "(no interval)");
		sbuf_printf(t, "  p99 difference B - A: %.1f %s %s; verdict: %s\n",
			    jp_num(jp_path(cmp, "p99.diff"), NAN), unit, iv,
			    jp_str(jp_get(cmp, "verdict"), "n/a"));
	}
	if (sweep)
		sweep_report(t, NULL, doc, pm, unit);
	if (!html)
		return;
	{
		char title[300];
		struct histo hs[2];
		uint64_t(*hb[2])[2] = {NULL, NULL};
		char names[2][200];
		size_t nh = 0;
		struct series_set set;
		double *tt;

		snprintf(title, sizeof(title), "tunetop A/B: %s = %s vs %s",
			 jp_str(jp_get(ab, "address"), "?"), jp_str(jp_get(ab, "a"), "?"),
			 jp_str(jp_get(ab, "b"), "?"));
		html_head(html, title);
		sbuf_puts(html, "<section id=\"summary\">\n<h2>Summary</h2>\n<table>\n");
		th_row(html, (const char *const[]){"arm", "value", "samples", "mean", "p50", "p99",
						   "max", NULL});
		for (size_t i = 0; i < jp_len(arms); i++) {
			const struct jp_value *a = jp_at(arms, i);

			sbuf_puts(html, "<tr>");
			td_key(html, a, "arm", "?");
			td_key(html, a, "value", "?");
			sbuf_printf(html, "<td>%" PRId64 "</td>", jp_int(jp_get(a, "samples"), 0));
			for (size_t k = 0; k < 4; k++)
				sbuf_printf(html, "<td>%.1f %s</td>", stat_of(a, cols[k]), unit_h);
			sbuf_puts(html, "</tr>\n");
		}
		sbuf_puts(html, "</table>\n<p>Verdict: <strong>");
		esc(html, jp_str(jp_get(cmp, "verdict"), "n/a"));
		if (isfinite(jp_num(jp_path(cmp, "p99.lo"), NAN)) &&
		    isfinite(jp_num(jp_path(cmp, "p99.hi"), NAN)))
			sbuf_printf(html,
				    "</strong> (p99 difference B - A %.1f %s, 95%% interval %.1f "
				    "to %.1f)</p>\n",
				    jp_num(jp_path(cmp, "p99.diff"), NAN), unit_h,
				    jp_num(jp_path(cmp, "p99.lo"), NAN),
				    jp_num(jp_path(cmp, "p99.hi"), NAN));
		else
			sbuf_printf(html,
				    "</strong> (p99 difference B - A %.1f %s, no interval)</p>\n",
				    jp_num(jp_path(cmp, "p99.diff"), NAN), unit_h);
		sbuf_puts(html, "</section>\n");
		if (sweep)
			sweep_report(NULL, html, doc, pm, unit_h);
		sbuf_puts(html, "<section id=\"latency\">\n<h2>Latency histograms per "
				"arm</h2>\n");
		for (size_t i = 0; i < jp_len(arms) && i < 2; i++) {
			const struct jp_value *a = jp_at(arms, i);
			size_t n;

			hb[nh] = hist_of(jp_get(a, "histogram"), &n);
			if (!hb[nh])
				continue;
			snprintf(names[nh], sizeof(names[nh]), "%s = %s",
				 jp_str(jp_get(a, "arm"), "?"), jp_str(jp_get(a, "value"), "?"));
			hs[nh] = (struct histo){names[nh], n, (const uint64_t(*)[2])hb[nh]};
			nh++;
		}
		if (nh)
			svg_hist(html, "plot-hist", hs, nh);
		else
			sbuf_puts(html, "<p class=\"na\">No histograms (a command A/B).</p>\n");
		sbuf_puts(html, "<h3>Per window, in run order (ABBA)</h3>\n");
		set_init(&set, jp_len(wins));
		tt = xcalloc(set.n ? set.n : 1, sizeof(*tt));
		for (size_t i = 0; i < set.n; i++) {
			const struct jp_value *w = jp_at(wins, i);
			char k[32];

			tt[i] = jp_num(jp_get(w, "start_s"), (double)i);
			snprintf(k, sizeof(k), "p99 of %s", jp_str(jp_get(w, "arm"), "?"));
			set_put(&set, k, i, stat_of(w, "p99"));
			snprintf(k, sizeof(k), "max of %s", jp_str(jp_get(w, "arm"), "?"));
			set_put(&set, k, i, stat_of(w, "max"));
		}
		if (set.n)
			svg_lines(html, "plot-windows", unit, tt, &set, NULL, 0, true);
		else
			sbuf_puts(html, "<p class=\"na\">No windows.</p>\n");
		set_free(&set);
		free(tt);
		free(hb[0]);
		free(hb[1]);
		sbuf_puts(html, "</section>\n");
		html_tail(html);
	}
}

/* A probe --why result's causes, ranked, as a table (every string from the
 * file escaped). */
static void html_why(struct sbuf *html, const struct jp_value *why)
{
	const struct jp_value *causes = jp_get(why, "causes");

	sbuf_puts(html, "<section id=\"why\">\n<h2>Why late</h2>\n");
	sbuf_printf(
		html,
		"<p>%" PRId64 " late wake-ups over %.1f us, %.1f us late in all, %" PRId64
		" events lost</p>\n",
		jp_int(jp_get(why, "late_wakeups"), 0), jp_num(jp_get(why, "threshold_us"), NAN),
		jp_num(jp_get(why, "late_total_us"), NAN), jp_int(jp_get(why, "lost_events"), 0));
	if (!jp_len(causes)) {
		sbuf_puts(html, "<p class=\"na\">No causes.</p>\n</section>\n");
		return;
	}
	sbuf_puts(html, "<table class=\"why\">\n");
	th_row(html, (const char *const[]){"kind", "cause", "id", "reason", "late wake-ups %",
					   "late time %", "us", "fix", NULL});
	for (size_t i = 0; i < jp_len(causes); i++) {
		const struct jp_value *c = jp_at(causes, i);

		sbuf_puts(html, "<tr>");
		td_key(html, c, "kind", "?");
		td_key(html, c, "name", "");
		sbuf_puts(html, "<td>");
		if (!jp_is_null(jp_get(c, "id")))
			sbuf_printf(html, "%" PRId64, jp_int(jp_get(c, "id"), -1));
		sbuf_puts(html, "</td>");
		td_key(html, c, "reason", "");
		sbuf_printf(html, "<td>%.1f</td><td>%.1f</td><td>%.1f</td>",
			    jp_num(jp_get(c, "share_late_pct"), NAN),
			    jp_num(jp_get(c, "share_delay_pct"), NAN),
			    jp_num(jp_get(c, "total_us"), NAN));
		td_key(html, c, "fix", "");
		sbuf_puts(html, "</tr>\n");
	}
	sbuf_puts(html, "</table>\n</section>\n");
}

static void probe_report(struct sbuf *t, struct sbuf *html, const struct jp_value *doc,
			 const char *path)
{
	const struct jp_value *pr = jp_get(doc, "probe"), *cpus = jp_get(doc, "cpus"),
			      *all = jp_get(doc, "all");
	struct histo *hs = xcalloc(jp_len(cpus) + 1, sizeof(*hs));
	uint64_t(**hb)[2] = xcalloc(jp_len(cpus) + 1, sizeof(*hb));
	char(*names)[32] = xcalloc(jp_len(cpus) + 1, sizeof(*names));
	size_t nh = 0;

	sbuf_printf(t, "probe result %s\n  interval %" PRId64 " us, %.1f s, policy %s\n", path,
		    jp_int(jp_get(pr, "interval_us"), 0), jp_num(jp_get(pr, "duration_s"), NAN),
		    jp_str(jp_get(pr, "policy"), "?"));
	sbuf_printf(t,
		    "  all CPUs: %" PRId64 " samples, mean %.1f, p99 %.1f, max %.1f us, %" PRId64
		    " overflows\n",
		    jp_int(jp_get(all, "samples"), 0), jp_num(jp_get(all, "mean_us"), NAN),
		    jp_num(jp_get(all, "p99_us"), NAN), jp_num(jp_get(all, "max_us"), NAN),
		    jp_int(jp_get(all, "overflows"), 0));
	for (size_t i = 0; i < jp_len(cpus); i++) {
		const struct jp_value *c = jp_at(cpus, i);
		size_t n;

		sbuf_printf(t, "  cpu%" PRId64 ": %" PRId64 " samples, p99 %.1f, max %.1f us\n",
			    jp_int(jp_get(c, "cpu"), -1), jp_int(jp_get(c, "samples"), 0),
			    jp_num(jp_get(c, "p99_us"), NAN), jp_num(jp_get(c, "max_us"), NAN));
		hb[nh] = hist_of(jp_get(c, "histogram"), &n);
		if (!hb[nh])
			continue;
		snprintf(names[nh], sizeof(names[nh]), "cpu%" PRId64, jp_int(jp_get(c, "cpu"), -1));
		hs[nh] = (struct histo){names[nh], n, (const uint64_t(*)[2])hb[nh]};
		nh++;
	}
	if (html) {
		html_head(html, "tunetop probe result");
		sbuf_printf(html,
			    "<section id=\"summary\">\n<h2>Summary</h2>\n<p>%" PRId64
			    " samples, mean %.1f us, p99 %.1f us, max %.1f us</p>\n</section>\n",
			    jp_int(jp_get(all, "samples"), 0), jp_num(jp_get(all, "mean_us"), NAN),
			    jp_num(jp_get(all, "p99_us"), NAN), jp_num(jp_get(all, "max_us"), NAN));
		sbuf_puts(html, "<section id=\"latency\">\n<h2>Latency histogram per CPU</h2>\n");
		if (nh)
			svg_hist(html, "plot-hist", hs, nh);
		else
			sbuf_puts(html, "<p class=\"na\">No samples.</p>\n");
		sbuf_puts(html, "</section>\n");
		if (jp_get(doc, "why") && !jp_is_null(jp_get(doc, "why")))
			html_why(html, jp_get(doc, "why"));
		html_tail(html);
	}
	for (size_t i = 0; i < nh; i++)
		free(hb[i]);
	free(hb);
	free(hs);
	free(names);
}

/* ---- documents ------------------------------------------------------------------ */

/* 1 = a recording, 0 = something else, -errno (-EINVAL: not a regular
 * file: a FIFO or a device must not hang report). */
static int looks_like_recording(const char *path)
{
	int fd = userfile_open(path, O_RDONLY, 0, USERFILE_MAX_RECORD);
	char buf[256];
	ssize_t k;

	if (fd < 0)
		return fd;
	k = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (k <= 0)
		return 0;
	if (record_is_zstd(buf, (size_t)k))
		return 1; /* a compressed recording: replay_open decodes or says why not */
	buf[k] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return strstr(buf, "\"type\":\"header\"") && strstr(buf, RECORD_FORMAT);
}

/* A recording's text summary to text and, with html, its page. */
static void render_recording(struct sbuf *text, struct sbuf *html, const struct replay *rp,
			     const char *path)
{
	struct rec r;

	rec_load(&r, rp);
	rec_text(text, &r, path);
	if (html)
		rec_html(html, &r, path);
	rec_free(&r);
}

/* An A/B result, a probe result or a snapshot document. 0, or -EINVAL with
 * a one-line *cause naming path. */
static int render_json(struct sbuf *text, struct sbuf *html, const char *raw, size_t n,
		       const char *path, char **cause)
{
	struct jp_value doc;
	char err[160];

	if (jp_parse(raw ? raw : "", n, &doc, err, sizeof(err)) != 0) {
		*cause = xasprintf("%s: not a recording and not a JSON result (%s)", path, err);
		return -EINVAL;
	}
	if (jp_get(&doc, "ab") && jp_get(&doc, "arms")) {
		ab_report(text, html, &doc, path);
	} else if (jp_get(&doc, "probe") && jp_get(&doc, "cpus")) {
		probe_report(text, html, &doc, path);
	} else if (jp_get(&doc, "policies") && jp_get(&doc, "cpus")) {
		struct snapshot s;

		replay_snapshot_from_json(&doc, &s);
		sbuf_printf(text, "snapshot %s: %s, %d CPUs, %zu policies\n", path,
			    s.sys.model[0] ? s.sys.model : "n/a", s.topo.ncpus, s.freq.npolicies);
		for (size_t i = 0; i < jp_len(jp_get(&doc, "findings")); i++) {
			const struct jp_value *x = jp_at(jp_get(&doc, "findings"), i);

			sbuf_printf(text, "  %-4s %-20s %s\n", jp_str(jp_get(x, "severity"), "?"),
				    jp_str(jp_get(x, "id"), "?"), jp_str(jp_get(x, "title"), ""));
		}
		if (html) {
			html_head(html, "tunetop snapshot");
			sbuf_puts(html, "<section id=\"summary\"><h2>Summary</h2><pre>");
			esc(html, text->s);
			sbuf_puts(html, "</pre></section>\n");
			html_tail(html);
		}
		snapshot_free(&s);
	} else {
		*cause = xasprintf("%s: JSON, but neither a recording, an A/B result, a probe "
				   "result nor a snapshot",
				   path);
		jp_free(&doc);
		return -EINVAL;
	}
	jp_free(&doc);
	return 0;
}

/* Does the first line (of at most 255 bytes) name a tunetop recording? */
static bool recording_head(const char *buf, size_t len)
{
	char head[256];
	size_t n = len < sizeof(head) - 1 ? len : sizeof(head) - 1;

	if (record_is_zstd(buf, len))
		return true;
	memcpy(head, buf, n);
	head[n] = '\0';
	head[strcspn(head, "\n")] = '\0';
	return strstr(head, "\"type\":\"header\"") && strstr(head, RECORD_FORMAT);
}

int report_render(const char *name, const char *buf, size_t len, struct sbuf *text,
		  struct sbuf *html, char **cause)
{
	struct replay *rp;
	int e;

	*cause = NULL;
	if (!recording_head(buf, len))
		return render_json(text, html, buf, len, name, cause);
	e = replay_open_buf(&rp, buf, len, name, cause);
	if (e)
		return e;
	render_recording(text, html, rp, name);
	replay_close(rp);
	return 0;
}

int report_render_file(const char *path, struct sbuf *text, struct sbuf *html, char **cause)
{
	int kind = looks_like_recording(path), e;
	char *raw = NULL;
	size_t n = 0;

	*cause = NULL;
	if (kind < 0) {
		*cause = xasprintf("%s: %s", path, userfile_strerror(kind, USERFILE_MAX_RECORD));
		return kind;
	}
	if (kind) {
		struct replay *rp;

		e = replay_open(&rp, path, cause);
		if (e)
			return e < 0 ? e : -EINVAL;
		render_recording(text, html, rp, path);
		replay_close(rp);
		return 0;
	}
	e = userfile_read(path, 0, USERFILE_MAX_RECORD, &raw, &n);
	if (e) {
		*cause = xasprintf("%s: %s", path, userfile_strerror(e, USERFILE_MAX_RECORD));
		return e;
	}
	e = render_json(text, html, raw, n, path, cause);
	free(raw);
	return e;
}
