/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The IRQs screen: /proc/interrupts as per-CPU rates over the refresh
 * interval (columns mapped by the CPUn header, wrap-safe deltas from
 * src/source/irqs.c; rows come and go), one column per CPU scrolled
 * horizontally with Left/Right on machines with many CPUs, a total row per
 * CPU first, then every interrupt: label, rates, total/s, markers (P
 * per-CPU, M managed, - fixed, * changed by tunetop), requested and
 * effective affinity, chip and name; arch rows (LOC, CAL, RES, IPIn...)
 * included. Softirq rates follow. Where remoteproc exists (OpenAMP /
 * RPMsg), a Remote cores section at the bottom shows each remote processor
 * (name, state, firmware, last trace line), its rpmsg channels and the
 * mailbox / IPI interrupt rows that serve them (marked R in the list too).
 * A warning line says when irqbalance runs
 * (it rewrites the masks). a moves the selected interrupt
 * (irq/N/affinity through the knob engine, journaled, u undoes); a managed
 * IRQ refusing with EIO is marked M from then on. Columns of isolated /
 * nohz_full CPUs are highlighted, and so are non-zero rates in them. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"
#include "model/explain.h"
#include "source/irqs.h"
#include "ui/tui.h"

#define IRQBALANCE_CHECK_NS (5ULL * 1000000000ULL)
#define CPUW		    8 /* width of a per-CPU rate column */

/* screen_threads.c */

struct irq_view {
	int xoff;  /* index of the first CPU column shown */
	int ncols; /* CPU columns that fit */
	int cpus[TT_MAX_CPUS];
	int ncpus; /* CPUs with a column in /proc/interrupts */
	bool irqbalance;
	uint64_t ib_checked_ns;
	int *managed; /* IRQs that refused a move with EIO */
	size_t nmanaged, capmanaged;
	/* The selected row as of the last build: its key ("irq LABEL",
	 * "softirq NAME", "total") and its index then. A build that finds
	 * s->sel still at sel_at (no key moved it) puts it back on the row with
	 * that key, wherever rows came and went; a moved selection is taken as
	 * it is (the rows did not change between the key and the build). */
	char sel_key[48];
	int sel_at;
};

/* Rows: 0 = per-CPU totals, 1..nirq = interrupts, then softirqs. */
static int nirq_rows(const struct screen_ctx *t)
{
	return t->snap && (t->snap->what & SNAP_IRQS) ? (int)t->snap->irqs.n : 0;
}

static int nsoft_rows(const struct screen_ctx *t)
{
	return t->snap && (t->snap->what & SNAP_IRQS) ? (int)t->snap->softirqs.n : 0;
}

/* Remote processors on this root (the Remote cores section). */
static bool has_rproc(const struct screen_ctx *t)
{
	return t->snap && (t->snap->what & SNAP_REMOTEPROC) &&
	       (t->snap->rproc.nproc || t->snap->rproc.nchan);
}

static bool is_managed(const struct irq_view *v, int irq)
{
	for (size_t i = 0; i < v->nmanaged; i++)
		if (v->managed[i] == irq)
			return true;
	return false;
}

/* The key of row r (see struct irq_view), "" past the end. */
static void row_key(const struct screen_ctx *t, int r, char *out, size_t cap)
{
	if (r == 0)
		snprintf(out, cap, "total");
	else if (r >= 1 && r <= nirq_rows(t))
		snprintf(out, cap, "irq %s", t->snap->irqs.rows[r - 1].label);
	else if (r > nirq_rows(t) && r <= nirq_rows(t) + nsoft_rows(t))
		snprintf(out, cap, "softirq %s", t->snap->softirqs.rows[r - 1 - nirq_rows(t)].name);
	else if (cap)
		out[0] = '\0';
}

/* The row whose key is key, or -1. */
static int find_row(const struct screen_ctx *t, const char *key)
{
	char k[48];

	for (int r = 0; r < 1 + nirq_rows(t) + nsoft_rows(t); r++) {
		row_key(t, r, k, sizeof(k));
		if (!strcmp(k, key))
			return r;
	}
	return -1;
}

void screen_irqs_build(struct screen_ctx *t, struct screen *s)
{
	struct irq_view *v = s->priv;
	const struct irq_table *it;
	uint64_t now = time_mono_ns();

	if (!v)
		v = s->priv = xcalloc(1, sizeof(*v));
	s->heading_lines = 3;
	if (&t->screens[t->cur] == s && !t->replay &&
	    (!v->ib_checked_ns || now - v->ib_checked_ns >= IRQBALANCE_CHECK_NS)) {
		v->irqbalance = irqbalance_running_in(&t->root);
		v->ib_checked_ns = now;
	}
	if (!t->snap || !(t->snap->what & SNAP_IRQS)) {
		s->nrows = 0;
		return;
	}
	it = &t->snap->irqs;
	v->ncpus = 0;
	for (int c = cpumask_next(&it->cpus, 0); c >= 0; c = cpumask_next(&it->cpus, c + 1))
		v->cpus[v->ncpus++] = c;
	s->nrows = 1 + nirq_rows(t) + nsoft_rows(t);
	/* keep the selected interrupt selected while rows come and go (a row
	 * that is gone leaves the selection at its place) */
	if (s->sel == v->sel_at && v->sel_key[0]) {
		int r = find_row(t, v->sel_key);

		if (r >= 0) {
			s->top += r - s->sel; /* the row stays where it was on screen */
			s->sel = r;
		}
	}
	ui_scroll(s, t->body_h - s->heading_lines);
	row_key(t, s->sel, v->sel_key, sizeof(v->sel_key));
	v->sel_at = s->sel;
}

void screen_irqs_free(struct screen *s)
{
	struct irq_view *v = s->priv;

	ui_priv_free(s, v ? v->managed : NULL);
}

static void fmt_rate(char *buf, size_t cap, double r)
{
	if (!isfinite(r))
		snprintf(buf, cap, "n/a");
	else if (r >= 99999.5)
		snprintf(buf, cap, "%.0fk", r / 1000);
	else if (r >= 100 || r == 0)
		snprintf(buf, cap, "%.0f", r);
	else
		snprintf(buf, cap, "%.1f", r);
}

static void iso_mask(const struct screen_ctx *t, struct cpumask *m)
{
	cpumask_zero(m);
	if (t->snap->sys.have_isolated)
		cpumask_or(m, &t->snap->sys.isolated);
	if (t->snap->sys.have_nohz_full)
		cpumask_or(m, &t->snap->sys.nohz_full);
}

/* Fixed columns: label 7, total 9, flags 3, affinity 11, effective 9; name the rest. */
#define W_LABEL 7
#define W_TOTAL 9
#define W_FLAGS 3
#define W_AFF	11
#define W_EFF	9

/* Row r of the list (0 totals, 1..nirq interrupts, then softirqs) at line
 * yy; also used by the Remote cores section for the rows that serve them. */
static void draw_row(struct screen_ctx *t, struct irq_view *v, const struct cpumask *iso, int r,
		     int yy, bool sel)
{
	const struct irq_table *it = &t->snap->irqs;
	const struct softirq_table *st = &t->snap->softirqs;
	int x;
	char buf[64];

	enum role base = sel ? ROLE_CURSOR : ROLE_VALUE;
	const struct irq_row *row = NULL;
	const struct softirq_row *srow = NULL;
	double total = NAN;
	char flags[4] = "", aff[32] = "", eff[32] = "", name[160] = "", label[24];

	ui_fill(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
	if (r == 0) {
		snprintf(label, sizeof(label), "total");
		total = 0;
		for (int k = 0; k < v->ncpus; k++) {
			double d = it->cpu_total_per_s ? it->cpu_total_per_s[v->cpus[k]] : NAN;

			total = isfinite(d) && isfinite(total) ? total + d : NAN;
		}
		snprintf(name, sizeof(name), "all interrupts, per CPU");
	} else if (r <= nirq_rows(t)) {
		row = &it->rows[r - 1];
		snprintf(label, sizeof(label), "%s", row->label);
		total = row->total_per_s;
		if (row->percpu || !row->numeric)
			flags[0] = 'P';
		else if (is_managed(v, row->irq) || row->managed)
			flags[0] = 'M';
		else if (row->move == IRQ_MOVE_UNKNOWN)
			flags[0] = '?';
		else if (!row->movable)
			flags[0] = '-';
		else
			flags[0] = ' ';
		if (row->numeric)
			flags[1] = tui_changed(t, knob_addr_irq_affinity_n(row->irq).s) ? '*' : ' ';
		if (has_rproc(t) && remoteproc_irq_related(row->name) && flags[1] != '*')
			flags[1] = 'R';
		if (row->have_affinity)
			cpulist_format(&row->affinity, aff, sizeof(aff));
		if (row->have_effective)
			cpulist_format(&row->effective, eff, sizeof(eff));
		snprintf(name, sizeof(name), "%s%s%s%s%s", row->chip, row->chip[0] ? " " : "",
			 row->hwirq, row->hwirq[0] ? " " : "", row->name);
		if (row->single_total)
			snprintf(name + strlen(name), sizeof(name) - strlen(name),
				 "  (one total: %llu)", (unsigned long long)row->total);
	} else {
		srow = &st->rows[r - 1 - nirq_rows(t)];
		snprintf(label, sizeof(label), "%s", srow->name);
		total = srow->total_per_s;
		snprintf(name, sizeof(name), "softirq");
	}
	x = ui_printf(t, yy, 0, COLS,
		      sel    ? base
		      : srow ? ROLE_LABEL
			     : ROLE_TITLE,
		      "%-*.*s", W_LABEL, W_LABEL - 1, label);
	for (int k = 0; k < v->ncols; k++) {
		int c = v->cpus[v->xoff + k];
		double rate = NAN;
		enum role role = base;

		if (r == 0)
			rate = it->cpu_total_per_s && c < it->ncpus ? it->cpu_total_per_s[c] : NAN;
		else if (row && !row->single_total && c < it->ncpus &&
			 cpumask_test(&row->have_cpu, c))
			rate = row->rate_per_s[c];
		else if (srow && c < st->ncpus && cpumask_test(&srow->have_cpu, c))
			rate = srow->rate_per_s[c];
		if (row && row->single_total) {
			x += ui_printf(t, yy, x, COLS - x, base, "%*s", CPUW, "");
			continue;
		}
		fmt_rate(buf, sizeof(buf), rate);
		if (!sel) {
			if (!isfinite(rate))
				role = ROLE_VALUE_NA;
			else if (rate > 0 && cpumask_test(iso, c))
				role = ROLE_ALERT;
			else if (rate == 0)
				role = ROLE_LABEL;
		}
		x += ui_printf(t, yy, x, COLS - x, role, "%*s", CPUW, buf);
	}
	fmt_rate(buf, sizeof(buf), total);
	x += ui_printf(t, yy, x, COLS - x, isfinite(total) || sel ? base : ROLE_VALUE_NA, "%*s ",
		       W_TOTAL - 1, buf);
	x += ui_printf(t, yy, x, COLS - x,
		       sel		 ? base
		       : flags[1] == '*' ? ROLE_CHANGED
					 : ROLE_WARN,
		       "%-*s", W_FLAGS, flags);
	x += ui_printf(t, yy, x, COLS - x,
		       sel		 ? base
		       : flags[1] == '*' ? ROLE_CHANGED
					 : base,
		       "%-*.*s", W_AFF, W_AFF - 1,
		       aff[0] ? aff : (row && row->numeric ? "n/a" : ""));
	x += ui_printf(t, yy, x, COLS - x, base, "%-*.*s", W_EFF, W_EFF - 1,
		       eff[0] ? eff : (row && row->numeric ? "n/a" : ""));
	ui_put(t, yy, x, COLS - x, sel ? base : ROLE_LABEL, name);
}

/* ---- Remote cores (remoteproc / RPMsg) ------------------------------------------ */

/* List rows (1..nirq) of the interrupts that serve remote processors. */
static int related_rows(const struct screen_ctx *t, int *out, int max)
{
	int n = 0;

	for (int i = 0; i < nirq_rows(t) && n < max; i++)
		if (remoteproc_irq_related(t->snap->irqs.rows[i].name))
			out[n++] = 1 + i;
	return n;
}

/* Lines of the section: title, processors, channels, interrupt rows (or a
 * line saying there is none); 0 where there is no remoteproc. */
static int remote_lines(const struct screen_ctx *t, int h)
{
	int rel[64], n, want, max = h / 2;

	if (!has_rproc(t))
		return 0;
	n = related_rows(t, rel, 64);
	want = 1 + (int)t->snap->rproc.nproc + (int)t->snap->rproc.nchan + (n ? n : 1);
	if (max < 3)
		max = 3;
	return want < max ? want : max;
}

static const char *na(const char *s)
{
	return s && *s ? s : "n/a";
}

/* Last non-empty line of a trace tail. */
static void last_line(const char *text, char *out, size_t cap)
{
	const char *end = text + strlen(text), *p;

	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	for (p = end; p > text && p[-1] != '\n'; p--)
		;
	snprintf(out, cap, "%.*s", (int)(end - p), p);
}

static void draw_chan(struct screen_ctx *t, const struct rpmsg_chan *c, int y)
{
	char src[16] = "n/a", dst[16] = "n/a";

	if (c->src >= 0)
		snprintf(src, sizeof(src), "%d", c->src);
	if (c->dst >= 0)
		snprintf(dst, sizeof(dst), "%d", c->dst);
	ui_printf(t, y, 3, COLS - 3, ROLE_VALUE, "rpmsg %-16s src %-5s dst %-5s %s", na(c->name),
		  src, dst, c->dev);
}

static void draw_remote(struct screen_ctx *t, struct irq_view *v, const struct cpumask *iso, int y,
			int h)
{
	const struct remoteproc_info *ri = &t->snap->rproc;
	int rel[64], nrel = related_rows(t, rel, 64), line = 1, total, shown = 0;
	bool *done = xcalloc(ri->nchan ? ri->nchan : 1, sizeof(bool));

	total = (int)ri->nproc + (int)ri->nchan + (nrel ? nrel : 1);
	for (int i = 0; i < h; i++)
		ui_fill(t, y + i, 0, COLS, ROLE_DEFAULT);
	ui_fill(t, y, 0, COLS, ROLE_COLHEAD);
	ui_printf(t, y, 0, COLS, ROLE_COLHEAD,
		  " Remote cores (remoteproc): %zu processor%s, %zu rpmsg channel%s, %d "
		  "interrupt%s serving them (R)",
		  ri->nproc, ri->nproc == 1 ? "" : "s", ri->nchan, ri->nchan == 1 ? "" : "s", nrel,
		  nrel == 1 ? "" : "s");
#define ROOM() (line < h - 1 || (line == h - 1 && shown == total - 1))
	for (size_t i = 0; i < ri->nproc && ROOM(); i++) {
		const struct rproc *p = &ri->p[i];
		const char *st = p->state;
		int x;

		x = ui_printf(t, y + line, 1, COLS - 1, ROLE_TITLE, "%-12s %-10s ", p->name,
			      na(p->fw_name));
		x += 1 + ui_printf(t, y + line, 1 + x, COLS - 1 - x,
				   !st[0]		    ? ROLE_VALUE_NA
				   : !strcmp(st, "running") ? ROLE_OK
				   : !strcmp(st, "crashed") ? ROLE_ALERT
							    : ROLE_WARN,
				   "%-8s ", na(st));
		x += 1 + ui_printf(t, y + line, 1 + x, COLS - 1 - x, ROLE_LABEL, "firmware ");
		x += ui_printf(t, y + line, x, COLS - x,
			       p->firmware[0] ? ROLE_VALUE : ROLE_VALUE_NA, "%s", na(p->firmware));
		if (p->have_trace && p->trace_tail[0]) {
			char last[256];

			last_line(p->trace_tail, last, sizeof(last));
			x += ui_put(t, y + line, x + 3, COLS - x - 3, ROLE_LABEL, "trace: ") + 3;
			ui_put(t, y + line, x, COLS - x, ROLE_VALUE, last);
		} else if (!p->have_trace) {
			ui_put(t, y + line, x + 3, COLS - x - 3, ROLE_VALUE_NA, "trace n/a");
		}
		line++;
		shown++;
		for (size_t k = 0; k < ri->nchan && ROOM(); k++)
			if (!done[k] && !strcmp(ri->ch[k].rproc, p->name)) {
				draw_chan(t, &ri->ch[k], y + line++);
				done[k] = true;
				shown++;
			}
	}
	for (size_t k = 0; k < ri->nchan && ROOM(); k++)
		if (!done[k]) {
			draw_chan(t, &ri->ch[k], y + line++);
			done[k] = true;
			shown++;
		}
	for (int k = 0; k < nrel && ROOM(); k++) {
		draw_row(t, v, iso, rel[k], y + line++, false);
		shown++;
	}
	if (!nrel && ROOM()) {
		ui_put(t, y + line++, 3, COLS - 3, ROLE_VALUE_NA,
		       "no mailbox / IPI interrupt in /proc/interrupts");
		shown++;
	}
#undef ROOM
	if (shown < total && line < h)
		ui_printf(t, y + line, 3, COLS - 3, ROLE_LABEL,
			  "+%d more (tunetop snapshot --irqs lists them all)", total - shown);
	free(done);
}

void screen_irqs_draw(struct screen_ctx *t, struct screen *s, int y, int h)
{
	struct irq_view *v = s->priv;
	const struct irq_table *it;
	struct cpumask iso;
	int rows, x, fixed = W_LABEL + W_TOTAL + W_FLAGS + W_AFF + W_EFF + 16,
		     pane = remote_lines(t, h);
	char buf[64];

	for (int i = 0; i < 3; i++)
		ui_fill(t, y + i, 0, COLS, ROLE_DEFAULT);
	if (!v || !t->snap || !(t->snap->what & SNAP_IRQS)) {
		ui_put(t, y, 0, COLS, ROLE_VALUE_NA, "no interrupt data yet");
		return;
	}
	it = &t->snap->irqs;
	iso_mask(t, &iso);
	v->ncols = (COLS - fixed) / CPUW;
	if (v->ncols < 1)
		v->ncols = 1;
	if (v->ncols > v->ncpus)
		v->ncols = v->ncpus;
	if (v->xoff > v->ncpus - v->ncols)
		v->xoff = v->ncpus - v->ncols;
	if (v->xoff < 0)
		v->xoff = 0;
	if (v->irqbalance)
		ui_put(t, y, 0, COLS, ROLE_ALERT,
		       "irqbalance is running: it rewrites interrupt affinities every few seconds "
		       "and will undo moves (stop it, or IRQBALANCE_BANNED_CPULIST)");
	else
		ui_printf(t, y, 0, COLS, ROLE_LABEL,
			  "%zu interrupts, %d CPUs; rates per second over the refresh interval%s",
			  it->n, v->ncpus, t->prev ? "" : " (waiting for a second sample)");
	ui_printf(t, y + 1, 0, COLS, ROLE_LABEL,
		  "P per-CPU  M managed (EIO)  - not movable  ? unknown  * changed%s;  a moves the "
		  "selected IRQ;  Left/Right: CPUs %d-%d of %d",
		  has_rproc(t) ? "  R serves a remote core" : "", v->ncpus ? v->cpus[v->xoff] : 0,
		  v->ncpus ? v->cpus[v->xoff + v->ncols - 1] : 0, v->ncpus);
	ui_fill(t, y + 2, 0, COLS, ROLE_COLHEAD);
	x = ui_printf(t, y + 2, 0, COLS, ROLE_COLHEAD, "%-*s", W_LABEL, "IRQ");
	for (int k = 0; k < v->ncols; k++) {
		int c = v->cpus[v->xoff + k];

		snprintf(buf, sizeof(buf), "CPU%d", c);
		x += ui_printf(t, y + 2, x, COLS - x,
			       cpumask_test(&iso, c) ? ROLE_WARN : ROLE_COLHEAD, "%*s", CPUW, buf);
	}
	ui_printf(t, y + 2, x, COLS - x, ROLE_COLHEAD, "%*s %-*s%-*s%-*s%s", W_TOTAL - 1, "TOTAL/s",
		  W_FLAGS, "", W_AFF, "AFFINITY", W_EFF, "EFFECT", "CHIP / NAME");
	rows = h - s->heading_lines - pane;
	ui_scroll(s, rows);
	for (int i = 0; i < rows && s->top + i < s->nrows; i++)
		draw_row(t, v, &iso, s->top + i, y + s->heading_lines + i, s->top + i == s->sel);
	if (pane)
		draw_remote(t, v, &iso, y + h - pane, pane);
}

static const struct irq_row *selected_row(struct screen_ctx *t, struct screen *s)
{
	if (!t->snap || !(t->snap->what & SNAP_IRQS) || s->sel < 1 || s->sel > nirq_rows(t))
		return NULL;
	return &t->snap->irqs.rows[s->sel - 1];
}

static int move_irq(struct screen_ctx *t, struct screen *s)
{
	struct irq_view *v = s->priv;
	const struct irq_row *row = selected_row(t, s);
	struct cpumask iso, cur;
	char list[256], title[128];
	int irq, e;

	if (!row) {
		tui_status(t, true, "Select an interrupt row (not the totals or a softirq)");
		return HR_HANDLED | HR_REDRAW;
	}
	if (!row->numeric || row->percpu) {
		tui_status(t, true, "%s is a per-CPU interrupt (%s): it has no affinity to change",
			   row->label, row->name);
		return HR_HANDLED | HR_REDRAW;
	}
	if (!row->movable) {
		/* the kernel's answer (irq_row.move), not which files exist */
		if (row->move == IRQ_MOVE_READONLY)
			tui_status(
				t, true,
				"IRQ %s: the kernel made /proc/irq/%d/smp_affinity_list read-only "
				"(managed, or its chip cannot move it): not movable",
				row->label, row->irq);
		else if (row->move == IRQ_MOVE_NOFILE)
			tui_status(t, true,
				   "IRQ %s has no /proc/irq/%d/smp_affinity_list: not movable",
				   row->label, row->irq);
		else
			tui_status(t, true, "IRQ %s: movability unknown (no /proc/irq/%d to ask)",
				   row->label, row->irq);
		return HR_HANDLED | HR_REDRAW;
	}
	irq = row->irq;
	iso_mask(t, &iso);
	cur = row->have_affinity ? row->affinity : t->snap->topo.online;
	snprintf(title, sizeof(title), "Move IRQ %d (%.60s)", irq, row->name);
	if (ui_cpu_dialog(t, title, &t->snap->topo.online, &cur, &iso, NULL, list, sizeof(list)) !=
	    0)
		return HR_HANDLED | HR_REDRAW;
	e = tui_set1(t, "%s=%s", knob_addr_irq_affinity_n(irq).s, list);
	if (e && strstr(tui_status_text(t), "EIO") && !is_managed(v, irq)) {
		v->managed = xgrow(v->managed, &v->capmanaged, v->nmanaged + 1, sizeof(int));
		v->managed[v->nmanaged++] = irq;
	}
	if (!e && v->irqbalance)
		tui_status(
			t, true,
			"IRQ %d moved to CPU %s, but irqbalance is running and will move it back",
			irq, list);
	return HR_HANDLED | HR_REDRAW | HR_RESCAN;
}

int screen_irqs_key(struct screen_ctx *t, struct screen *s, int ch)
{
	struct irq_view *v = s->priv;

	if (!v)
		return HR_IGNORED;
	switch (ch) {
	case 'a': return move_irq(t, s);
	case KEY_LEFT:
		if (v->xoff > 0)
			v->xoff--;
		return HR_HANDLED | HR_REDRAW;
	case KEY_RIGHT:
		if (v->xoff + v->ncols < v->ncpus)
			v->xoff++;
		return HR_HANDLED | HR_REDRAW;
	case KEY_SLEFT: v->xoff = 0; return HR_HANDLED | HR_REDRAW;
	case KEY_SRIGHT: v->xoff = v->ncpus; return HR_HANDLED | HR_REDRAW;
	default: return HR_IGNORED;
	}
}

int screen_irqs_explain(struct screen_ctx *t, struct screen *s, struct explain_item *items, int max)
{
	const struct irq_row *row = selected_row(t, s);
	int n = 0;

	if (row && row->numeric)
		n = ui_explain_add(items, n, max, "Interrupt affinity", "%s",
				   knob_addr_irq_affinity_n(row->irq).s);
	if (explain_find("irq.rate"))
		n = ui_explain_add(items, n, max, "Interrupt rates", "irq.rate");
	if (explain_find("softirq.rate"))
		n = ui_explain_add(items, n, max, "Softirq rates", "softirq.rate");
	if (has_rproc(t))
		n = ui_explain_add(items, n, max, "Remote cores (remoteproc / RPMsg)",
				   "remoteproc.state");
	return n;
}
