/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Cores screen (default): CPUs grouped under their cpufreq policy
 * (cluster) line, one line per CPU with core type, a utilisation meter
 * (user / system / irq), a frequency meter against the policy's hardware
 * range, a stacked C-state residency meter with a legend (state names and
 * exit latencies), idle entries/s and mispredictions/s (above + below),
 * per-state disable markers and the temperature of the zone covering the
 * CPU, and perf counters per CPU while this screen is shown (IPC, cache
 * misses/s, context switches/s, migrations/s; n/a with the reason once on a
 * legend line; see counters.c). Actions: g governor, f frequency lock /
 * limits, i idle-state toggle (this CPU or all CPUs). Columns shrink and
 * vanish in a fixed order so that 80x24 still reads well; the list scrolls
 * to any number of CPUs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"
#include "ui/counters_fmt.h"
#include "ui/tui.h"

enum row_kind { ROW_POLICY, ROW_CPU, ROW_GROUP };

struct row {
	enum row_kind kind;
	int pol;  /* index into freq.pol, -1 */
	int cpu;  /* for ROW_CPU */
	int npol; /* ROW_POLICY: policies pol .. pol+npol-1 shown as one line (runs of
		     one-CPU policies alike, as with intel_pstate) */
};

struct cores {
	struct row *rows;
	size_t cap;
};

static const char idle_glyph[] = "-=#%@*&+";

static char glyph_of(int k)
{
	return idle_glyph[k % (int)(sizeof(idle_glyph) - 1)];
}

static void push(struct screen *s, struct cores *c, enum row_kind k, int pol, int cpu, int npol)
{
	c->rows = xgrow(c->rows, &c->cap, (size_t)s->nrows + 1, sizeof(*c->rows));
	c->rows[s->nrows++] = (struct row){k, pol, cpu, npol};
}

/* Two one-CPU policies that read alike share a line. */
static bool mergeable(const struct snapshot *sn, const struct cpufreq_policy *a,
		      const struct cpufreq_policy *b)
{
	int ca = cpumask_next(&a->cpus, 0), cb = cpumask_next(&b->cpus, 0);

	if (cpumask_count(&a->cpus) != 1 || cpumask_count(&b->cpus) != 1 || ca < 0 || cb < 0 ||
	    ca >= sn->topo.ncpus || cb >= sn->topo.ncpus)
		return false;
	return !strcmp(sn->topo.cpu[ca].core_type, sn->topo.cpu[cb].core_type) &&
	       !strcmp(a->governor, b->governor) && !strcmp(a->driver, b->driver) &&
	       a->min_khz == b->min_khz && a->max_khz == b->max_khz &&
	       a->hw_min_khz == b->hw_min_khz && a->hw_max_khz == b->hw_max_khz;
}

void screen_cores_build(struct screen_ctx *t, struct screen *s)
{
	struct cores *c = s->priv;
	const struct snapshot *sn = t->snap;
	bool *done;
	int ncpu;

	if (!c)
		c = s->priv = xcalloc(1, sizeof(*c));
	s->nrows = 0;
	s->heading_lines = 2 + (t->cfg.col_counters && !tui_cpu_counters_off(t)[0]);
	if (!sn)
		return;
	ncpu = sn->topo.ncpus;
	done = xcalloc((size_t)(ncpu > 0 ? ncpu : 1), sizeof(bool));
	for (size_t p = 0; p < sn->freq.npolicies;) {
		size_t q = p + 1;

		while (q < sn->freq.npolicies && mergeable(sn, &sn->freq.pol[p], &sn->freq.pol[q]))
			q++;
		push(s, c, ROW_POLICY, (int)p, -1, (int)(q - p));
		for (size_t k = p; k < q; k++) {
			const struct cpufreq_policy *pol = &sn->freq.pol[k];

			for (int cpu = cpumask_next(&pol->cpus, 0); cpu >= 0 && cpu < ncpu;
			     cpu = cpumask_next(&pol->cpus, cpu + 1)) {
				if (done[cpu] || !sn->topo.cpu[cpu].present)
					continue;
				done[cpu] = true;
				push(s, c, ROW_CPU, (int)k, cpu, 1);
			}
		}
		p = q;
	}
	for (int cpu = 0; cpu < ncpu; cpu++) {
		if (done[cpu] || !sn->topo.cpu[cpu].present)
			continue;
		if (!done[cpu]) {
			bool first = true;

			for (int k = 0; k < s->nrows; k++)
				if (c->rows[k].kind == ROW_GROUP)
					first = false;
			if (first)
				push(s, c, ROW_GROUP, -1, -1, 0);
		}
		done[cpu] = true;
		push(s, c, ROW_CPU, -1, cpu, 0);
	}
	free(done);
	ui_scroll(s, t->body_h - s->heading_lines);
}

void screen_cores_free(struct screen *s)
{
	struct cores *c = s->priv;

	ui_priv_free(s, c ? c->rows : NULL);
}

/* ---- layout ---------------------------------------------------------------- */

struct layout {
	int id, type, util, freq, idle, ent, miss, st, temp; /* x positions, -1 hidden */
	int wutil, wfreq, widle, nst;
	int ctr[CTR_NCOL]; /* counter columns, -1 hidden */
	struct ctr_cols cc;
	const struct perf_set *ps;
	bool pending; /* counters opened, first interval running */
};

/* Whether a group of columns `width` wide that is on stays on: it is
 * dropped (false, its width given to the meters) when the meters would have
 * fewer than `min` columns. */
static bool keep_cols(bool on, int min, int width, int *fixed, int *rest)
{
	if (!on || *rest >= min)
		return on;
	*fixed -= width;
	*rest += width;
	return false;
}

static int max_states(const struct snapshot *sn)
{
	size_t m = 0;

	for (int c = 0; c < sn->idle.ncpus; c++)
		if (sn->idle.cpu[c].nstates > m)
			m = sn->idle.cpu[c].nstates;
	return (int)m;
}

static void layout(struct screen_ctx *t, const struct snapshot *sn, struct layout *L)
{
	int w = COLS, x = 0, fixed, rest;
	bool have_idle = max_states(sn) > 0;
	bool type = t->cfg.col_type, util = t->cfg.col_util,
	     freq = t->cfg.col_freq && sn->freq.npolicies;
	bool idle = t->cfg.col_idle && have_idle, rates = t->cfg.col_rates && have_idle;
	bool temp = t->cfg.col_temp;

	bool ctr[CTR_NCOL];
	int nsw = 0, nhw = 0;

	memset(L, -1, sizeof(*L));
	L->ps = t->cfg.col_counters ? tui_cpu_counters(t, &L->pending) : NULL;
	ctr_cols(L->ps, &L->cc);
	for (int k = 0; k < CTR_NCOL; k++) {
		ctr[k] = L->cc.have[k];
		if (ctr[k] && (k == CTR_CSW || k == CTR_MIG))
			nsw++;
		else if (ctr[k])
			nhw++;
	}
	L->nst = have_idle ? max_states(sn) : 0;
	/* fixed columns */
	fixed = 5 + (type ? 7 : 0) + (rates ? 14 : 0) + (have_idle ? L->nst + 1 : 0) +
		(temp ? 7 : 0) + (nsw + nhw) * CTR_COL_W;
	rest = w - fixed - 1;
	/* drop columns that would leave the meters too narrow */
	type = keep_cols(type, 40, 7, &fixed, &rest);
	if (!keep_cols(nsw > 0, 36, nsw * CTR_COL_W, &fixed, &rest))
		ctr[CTR_CSW] = ctr[CTR_MIG] = false;
	temp = keep_cols(temp, 34, 7, &fixed, &rest);
	rates = keep_cols(rates, 30, 14, &fixed, &rest);
	if (!keep_cols(nhw > 0, 26, nhw * CTR_COL_W, &fixed, &rest))
		ctr[CTR_IPC] = ctr[CTR_MISSES] = false;
	{
		int n = util + freq + idle, share;

		if (n == 0)
			n = 1;
		share = rest / n;
		if (idle && n > 1) {
			/* the residency bar gets the larger share */
			int small = rest * 3 / 10;

			if (small > 40)
				small = 40;
			L->wutil = util ? small : 0;
			L->wfreq = freq ? small : 0;
			L->widle = rest - L->wutil - L->wfreq - (n - 1);
		} else {
			L->wutil = util ? share - 1 : 0;
			L->wfreq = freq ? share - 1 : 0;
			L->widle = idle ? share - 1 : 0;
		}
		if (L->widle > 80)
			L->widle = 80;
	}
	L->id = x;
	x += 5;
	if (type) {
		L->type = x;
		x += 7;
	}
	if (util && L->wutil >= 6) {
		L->util = x;
		x += L->wutil + 1;
	}
	if (freq && L->wfreq >= 6) {
		L->freq = x;
		x += L->wfreq + 1;
	}
	if (idle && L->widle >= 4) {
		L->idle = x;
		x += L->widle + 1;
	}
	if (rates) {
		L->ent = x;
		x += 7;
		L->miss = x;
		x += 7;
	}
	for (int k = 0; k < CTR_NCOL; k++)
		if (ctr[k]) {
			L->ctr[k] = x;
			x += CTR_COL_W;
		}
	if (have_idle) {
		L->st = x;
		x += L->nst + 1;
	}
	if (temp)
		L->temp = x;
}

static void short_type(const char *type, char *out, size_t cap)
{
	if (!type[0])
		snprintf(out, cap, "?");
	else if (!strncmp(type, "Cortex-", 7))
		snprintf(out, cap, "%s", type + 7);
	else
		snprintf(out, cap, "%s", type);
}

/* ---- drawing ------------------------------------------------------------------ */

/* The counters' legend line: each reason for n/a once, then what the
 * columns count. */
static void draw_counter_legend(struct screen_ctx *t, const struct layout *L, int y)
{
	struct ctr_item it[CTR_NCOL];
	char why[600];
	size_t n = 0;
	int x;
	bool scaled = false;

	ui_fill(t, y, 0, COLS, ROLE_DEFAULT);
	x = 1 + ui_put(t, y, 1, COLS - 1, ROLE_LABEL, "Counters:");
	if (!L->ps) {
		ui_put(t, y, x + 1, COLS - x - 1, ROLE_VALUE_NA, "opening...");
		return;
	}
	if (!L->cc.n) {
		ui_printf(t, y, x + 1, COLS - x - 1, ROLE_VALUE_NA,
			  "none of the events (%s) has a column here; the Threads screen and "
			  "'snapshot --counters' show them",
			  t->cfg.events[0] ? t->cfg.events : ctr_default_events());
		return;
	}
	for (int k = 0; k < CTR_NCOL; k++)
		if (L->ctr[k] >= 0) {
			it[n].label = L->cc.head[k];
			it[n].ev[0] = L->cc.ev[k][0];
			it[n].ev[1] = L->cc.ev[k][1];
			n++;
		}
	for (int cpu = 0; cpu < L->ps->ncpus && !scaled; cpu++)
		for (size_t e = 0; e < L->ps->nev; e++)
			scaled |= perf_at(L->ps, cpu, e)->scaled;
	ctr_reasons(L->ps, it, n, why, sizeof(why));
	if (why[0])
		x += 1 + ui_put(t, y, x + 1, COLS - x - 1, ROLE_VALUE_NA, why);
	if (scaled && x + 2 < COLS)
		x += 2 + ui_put(t, y, x + 2, COLS - x - 2, ROLE_WARN, "* scaled (multiplexed)");
	if (L->ps->note[0] && x + 2 < COLS)
		x += 2 + ui_put(t, y, x + 2, COLS - x - 2, ROLE_LABEL, L->ps->note);
	/* what the columns count, as far as it fits */
	for (int k = 0, gap = why[0] || scaled || L->ps->note[0] ? 3 : 1; k < CTR_NCOL; k++) {
		char buf[80];
		int len;

		if (L->ctr[k] < 0 || k == CTR_IPC)
			continue;
		/* "LLCm = LLC misses" (both per second) */
		len = snprintf(buf, sizeof(buf), "%.*s = %.*s", (int)strcspn(L->cc.head[k], "/"),
			       L->cc.head[k], (int)strcspn(L->cc.what[k], "/"), L->cc.what[k]);
		if (x + gap + len > COLS)
			break;
		x += gap + ui_put(t, y, x + gap, COLS - x - gap, ROLE_LABEL, buf);
		gap = 3;
	}
}

static void draw_heading(struct screen_ctx *t, const struct snapshot *sn, const struct layout *L,
			 int y)
{
	int x = 0;
	const struct cpuidle_cpu *ic = NULL;

	ui_fill(t, y, 0, COLS, ROLE_COLHEAD);
	ui_put(t, y, L->id, 5, ROLE_COLHEAD, " CPU");
	if (L->type >= 0)
		ui_put(t, y, L->type, 7, ROLE_COLHEAD, "Type");
	if (L->util >= 0)
		ui_put(t, y, L->util, L->wutil, ROLE_COLHEAD, "Util usr/sys/irq");
	if (L->freq >= 0)
		ui_put(t, y, L->freq, L->wfreq, ROLE_COLHEAD,
		       t->cfg.freq_ghz ? "Freq GHz" : "Freq MHz");
	if (L->idle >= 0)
		ui_put(t, y, L->idle, L->widle, ROLE_COLHEAD, "C-state residency");
	if (L->ent >= 0) {
		ui_put(t, y, L->ent, 7, ROLE_COLHEAD, " Ent/s");
		ui_put(t, y, L->miss, 7, ROLE_COLHEAD, "Miss/s");
	}
	for (int k = 0; k < CTR_NCOL; k++)
		if (L->ctr[k] >= 0)
			ui_printf(t, y, L->ctr[k], CTR_COL_W, ROLE_COLHEAD, "%6s", L->cc.head[k]);
	if (L->st >= 0)
		ui_put(t, y, L->st, L->nst + 1, ROLE_COLHEAD, "Off");
	if (L->temp >= 0)
		ui_put(t, y, L->temp, 7, ROLE_COLHEAD, " Temp");
	if (t->cfg.col_counters && !tui_cpu_counters_off(t)[0])
		draw_counter_legend(t, L, y + 2);

	/* legend: names and exit latencies of the states (first CPU that has them) */
	y++;
	ui_fill(t, y, 0, COLS, ROLE_DEFAULT);
	for (int c = 0; c < sn->idle.ncpus; c++)
		if (sn->idle.cpu[c].nstates) {
			ic = &sn->idle.cpu[c];
			break;
		}
	if (!ic) {
		const char *why = sn->idle.driver[0] ? sn->idle.driver : "n/a";

		x = ui_printf(t, y, 1, COLS - 1, ROLE_VALUE_NA,
			      "C-states: none (cpuidle driver %s)", why) +
		    3;
		if (t->cfg.col_counters && tui_cpu_counters_off(t)[0] && x < COLS)
			ui_printf(t, y, x, COLS - x, ROLE_VALUE_NA, "Counters %s",
				  tui_cpu_counters_off(t));
		return;
	}
	x = ui_printf(t, y, 1, COLS - 1, ROLE_LABEL,
		      "C-states (%s/%s):", sn->idle.driver[0] ? sn->idle.driver : "?",
		      sn->idle.governor[0] ? sn->idle.governor : "?") +
	    2;
	for (size_t k = 0; k < ic->nstates && x < COLS; k++) {
		const struct cpuidle_state *st = &ic->st[k];
		char buf[64], g[2] = {glyph_of((int)k), 0};

		x += ui_put(t, y, x, COLS - x,
			    (enum role)(ROLE_IDLE0 + (int)(k % THEME_IDLE_ROLES)), g);
		if (st->latency_us >= 0)
			snprintf(buf, sizeof(buf), "%s %lldus  ", st->name[0] ? st->name : "?",
				 (long long)st->latency_us);
		else
			snprintf(buf, sizeof(buf), "%s n/a  ", st->name[0] ? st->name : "?");
		x += ui_put(t, y, x, COLS - x, ROLE_VALUE, buf);
	}
	if (x < COLS)
		x += ui_put(t, y, x, COLS - x, ROLE_DISABLED, "x=disabled") + 3;
	if (t->cfg.col_counters && tui_cpu_counters_off(t)[0] &&
	    x + 9 + (int)strlen(tui_cpu_counters_off(t)) <= COLS - 8)
		ui_printf(t, y, x, COLS - x, ROLE_VALUE_NA, "Counters %s", tui_cpu_counters_off(t));
}

static const struct tui_change *policy_change(const struct screen_ctx *t, const char *pol,
					      bool governor)
{
	char pre[KNOB_ADDR_MAX];

	snprintf(pre, sizeof(pre), "%s/", knob_addr_cpufreq(pol).s);
	for (size_t i = 0; i < t->nchanges; i++)
		if (!strncmp(t->changes[i].addr, pre, strlen(pre)) &&
		    (governor ? !strcmp(t->changes[i].addr + strlen(pre), "governor")
			      : strstr(t->changes[i].addr + strlen(pre), "_khz") != NULL))
			return &t->changes[i];
	return NULL;
}

/* One policy, or a run of np alike one-CPU policies starting at p. */
static void draw_policy(struct screen_ctx *t, const struct snapshot *sn, int p, int np, int y,
			bool sel)
{
	const struct cpufreq_policy *pol = &sn->freq.pol[p];
	char name[48], buf[160], a[32], b[32], type[32];
	const struct tui_change *gc = NULL, *fc = NULL;
	int x = 0, n = 0, first = cpumask_next(&pol->cpus, 0);
	bool locked = pol->min_khz >= 0 && pol->min_khz == pol->max_khz;
	enum role base = sel ? ROLE_CURSOR : ROLE_TITLE;
	int64_t cur_lo = -1, cur_hi = -1;
	double tr = 0;
	bool have_tr = false, capped = false;

	if (np < 1)
		np = 1;
	for (int k = p; k < p + np; k++) {
		const struct cpufreq_policy *q = &sn->freq.pol[k];

		n += cpumask_count(&q->cpus);
		if (!gc)
			gc = policy_change(t, q->name, true);
		if (!fc)
			fc = policy_change(t, q->name, false);
		if (q->cur_khz >= 0) {
			if (cur_lo < 0 || q->cur_khz < cur_lo)
				cur_lo = q->cur_khz;
			if (q->cur_khz > cur_hi)
				cur_hi = q->cur_khz;
		}
		if (isfinite(q->transitions_per_s)) {
			tr += q->transitions_per_s;
			have_tr = true;
		}
		if ((sn->what & SNAP_THERMAL) && thermal_cpus_capped(&sn->therm, &q->cpus))
			capped = true;
	}
	ui_fill(t, y, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
	if (np > 1)
		snprintf(name, sizeof(name), "policy%d-%d", pol->id, sn->freq.pol[p + np - 1].id);
	else
		snprintf(name, sizeof(name), "%s", pol->name);
	short_type(first >= 0 && first < sn->topo.ncpus ? sn->topo.cpu[first].core_type : "", type,
		   sizeof(type));
	x += ui_printf(t, y, x, COLS - x, base, "%-8s %dx %-6s ", name, n, type);
	x += ui_put(t, y, x, COLS - x, sel ? ROLE_CURSOR : ROLE_LABEL, "gov ");
	x += ui_printf(t, y, x, COLS - x,
		       gc		  ? ROLE_CHANGED
		       : pol->governor[0] ? base
					  : ROLE_VALUE_NA,
		       "%s", pol->governor[0] ? pol->governor : "n/a");
	if (gc && t->show_orig)
		x += ui_printf(t, y, x, COLS - x, ROLE_CHANGED, " (was %s)", gc->old);
	x++;
	ui_fmt_khz(t, pol->min_khz, a, sizeof(a));
	ui_fmt_khz(t, pol->max_khz, b, sizeof(b));
	if (locked)
		snprintf(buf, sizeof(buf), " locked %s", a);
	else
		snprintf(buf, sizeof(buf), " %s-%s", a, b);
	x += ui_printf(t, y, x, COLS - x,
		       fc	? ROLE_CHANGED
		       : locked ? ROLE_LOCKED
				: base,
		       "%s", buf);
	if (fc && t->show_orig)
		x += ui_printf(t, y, x, COLS - x, ROLE_CHANGED, " (was %s)", fc->old);
	x += ui_put(t, y, x, COLS - x, base, t->cfg.freq_ghz ? " GHz" : " MHz");
	ui_fmt_khz(t, cur_lo, a, sizeof(a));
	if (cur_hi > cur_lo) {
		size_t l = strlen(a);

		a[l++] = '-';
		ui_fmt_khz(t, cur_hi, a + l, sizeof(a) - l);
	}
	x += ui_put(t, y, x, COLS - x, sel ? ROLE_CURSOR : ROLE_LABEL, "  cur ");
	x += ui_put(t, y, x, COLS - x, cur_lo < 0 ? ROLE_VALUE_NA : base, a);
	if (have_tr)
		snprintf(buf, sizeof(buf), "  %.1f tr/s", tr);
	else
		snprintf(buf, sizeof(buf), "  n/a tr/s");
	x += ui_put(t, y, x, COLS - x, have_tr ? base : ROLE_VALUE_NA, buf);
	if (capped)
		x += ui_put(t, y, x, COLS - x, sel ? ROLE_CURSOR : ROLE_ALERT, "  CAPPED");
	if (pol->driver[0])
		ui_printf(t, y, x, COLS - x, sel ? ROLE_CURSOR : ROLE_LABEL, "  %s", pol->driver);
}

static double nz(double v)
{
	return isfinite(v) ? v : 0;
}

static void draw_cpu(struct screen_ctx *t, const struct snapshot *sn, const struct layout *L,
		     int cpu, int y, bool sel)
{
	const struct cpu_topo *ct = &sn->topo.cpu[cpu];
	const struct cpuidle_cpu *ic = cpu < sn->idle.ncpus ? &sn->idle.cpu[cpu] : NULL;
	int p = cpu < sn->freq.ncpus ? sn->freq.policy_of_cpu[cpu] : -1;
	const struct cpufreq_policy *pol = p >= 0 ? &sn->freq.pol[p] : NULL;
	char buf[64];

	ui_fill(t, y, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
	ui_printf(t, y, L->id, 5, sel ? ROLE_CURSOR : ROLE_VALUE, "%4d ", cpu);
	if (L->type >= 0) {
		short_type(ct->core_type, buf, sizeof(buf));
		ui_printf(t, y, L->type, 7,
			  sel		     ? ROLE_CURSOR
			  : ct->core_type[0] ? ROLE_LABEL
					     : ROLE_VALUE_NA,
			  "%-6.6s", buf);
	}
	if (!ct->online) {
		int x = L->util >= 0 ? L->util : L->type >= 0 ? L->type + 7 : 5;

		ui_put(t, y, x, COLS - x, ROLE_OFFLINE, "offline");
		return;
	}
	if (L->util >= 0) {
		const struct cpu_util *u =
			sn->stat.util && cpu < sn->stat.ncpus ? &sn->stat.util[cpu] : NULL;

		if (u && isfinite(u->busy_pct)) {
			struct bar_seg seg[3] = {
				{nz(u->user_pct), ROLE_UTIL_USER, '|'},
				{nz(u->system_pct), ROLE_UTIL_SYSTEM, t->color ? '|' : '#'},
				{nz(u->irq_pct) + nz(u->softirq_pct), ROLE_UTIL_IRQ,
				 t->color ? '|' : '*'},
			};

			snprintf(buf, sizeof(buf), "%.1f%%", u->busy_pct);
			ui_bar(t, y, L->util, L->wutil, seg, 3, buf, ROLE_VALUE);
		} else {
			ui_bar(t, y, L->util, L->wutil, NULL, 0, "n/a", ROLE_VALUE_NA);
		}
	}
	if (L->freq >= 0) {
		if (pol && pol->cur_khz >= 0) {
			int64_t lo = pol->hw_min_khz >= 0 ? pol->hw_min_khz : 0;
			int64_t hi = pol->hw_max_khz > lo ? pol->hw_max_khz : pol->cur_khz;
			double pct =
				hi > lo ? 100.0 * (double)(pol->cur_khz - lo) / (double)(hi - lo)
					: 100;
			bool locked = pol->min_khz >= 0 && pol->min_khz == pol->max_khz;
			struct bar_seg seg = {pct < 3 ? 3 : pct,
					      locked	 ? ROLE_LOCKED
					      : pct > 85 ? ROLE_METER_HIGH
					      : pct > 50 ? ROLE_METER_MID
							 : ROLE_FREQ,
					      '|'};

			ui_fmt_khz(t, pol->cur_khz, buf, sizeof(buf));
			ui_bar(t, y, L->freq, L->wfreq, &seg, 1, buf, ROLE_VALUE);
		} else {
			ui_bar(t, y, L->freq, L->wfreq, NULL, 0, "n/a", ROLE_VALUE_NA);
		}
	}
	if (ic && ic->nstates) {
		struct bar_seg seg[8];
		int n = 0;
		double ent = 0, miss = 0;
		bool have_rate = false, have_res = false;

		for (size_t k = 0; k < ic->nstates && k < 8; k++) {
			const struct cpuidle_state *st = &ic->st[k];

			have_res |= isfinite(st->residency_pct);
			seg[n++] = (struct bar_seg){
				nz(st->residency_pct),
				(enum role)(ROLE_IDLE0 + (int)(k % THEME_IDLE_ROLES)),
				glyph_of((int)k)};
			if (isfinite(st->entries_per_s)) {
				have_rate = true;
				ent += st->entries_per_s;
			}
			miss += nz(st->above_per_s) + nz(st->below_per_s);
		}
		/* n/a, not an empty bar: one sample, or counters that did
		 * not move (a static tree) */
		if (L->idle >= 0 && have_res)
			ui_bar(t, y, L->idle, L->widle, seg, n, NULL, ROLE_VALUE);
		else if (L->idle >= 0)
			ui_bar(t, y, L->idle, L->widle, NULL, 0, "n/a", ROLE_VALUE_NA);
		if (L->ent >= 0) {
			/* Dimmed: carried from an earlier sample (the row was
			 * off screen then); read at the next refresh. */
			enum role vr = ic->carried ? ROLE_VALUE_NA : ROLE_VALUE;

			if (have_rate) {
				ui_printf(t, y, L->ent, 7, vr, "%6.0f", ent);
				ui_printf(t, y, L->miss, 7,
					  miss > ent * 0.2 && miss > 10 ? ROLE_WARN : vr, "%6.0f",
					  miss);
			} else {
				ui_put(t, y, L->ent, 7, ROLE_VALUE_NA, "   n/a");
				ui_put(t, y, L->miss, 7, ROLE_VALUE_NA, "   n/a");
			}
		}
		if (L->st >= 0)
			for (size_t k = 0; k < ic->nstates && (int)k < L->nst; k++) {
				const struct cpuidle_state *st = &ic->st[k];
				char g[2] = {glyph_of((int)k), 0};
				bool ch;

				ch = tui_changed(t,
						 knob_addr_cpuidle_disable_n(cpu, st->index).s) !=
				     NULL;
				if (st->disable == 1)
					g[0] = 'x';
				ui_put(t, y, L->st + (int)k, 1,
				       ch		  ? ROLE_CHANGED
				       : st->disable == 1 ? ROLE_DISABLED
				       : st->disable < 0  ? ROLE_VALUE_NA
							  : ROLE_LABEL,
				       g);
			}
	} else if (L->idle >= 0) {
		ui_put(t, y, L->idle, L->widle, ROLE_VALUE_NA, "n/a");
	}
	for (int k = 0; k < CTR_NCOL; k++) {
		enum ctr_cell_kind kind;

		if (L->ctr[k] < 0)
			continue;
		kind = ctr_cell(L->ps, &L->cc, (enum ctr_col)k, cpu, L->pending, buf, sizeof(buf));
		ui_printf(t, y, L->ctr[k], CTR_COL_W,
			  sel			    ? ROLE_CURSOR
			  : kind == CTR_CELL_NA	    ? ROLE_VALUE_NA
			  : kind == CTR_CELL_SCALED ? ROLE_WARN
			  : kind == CTR_CELL_WAIT   ? ROLE_LABEL
						    : ROLE_VALUE,
			  "%6s", buf);
	}
	if (L->temp >= 0) {
		bool have = false;
		int64_t mc = thermal_cpu_temp_mc(&sn->therm, cpu, &have);

		char tc[24];

		if (have)
			ui_printf(t, y, L->temp, 7,
				  thermal_cpu_throttled(&sn->therm, cpu) ? ROLE_ALERT
				  : mc >= 70000				 ? ROLE_WARN
									 : ROLE_VALUE,
				  "%5sC", str_temp_c(tc, sizeof(tc), mc));
		else
			ui_put(t, y, L->temp, 7, ROLE_VALUE_NA, "  n/a");
	}
}

/* Row `row` of the list, drawn on line yy (ui_draw_rows). */
static void cores_row(struct screen_ctx *t, struct screen *s, int row, int yy, bool sel,
		      const void *arg)
{
	const struct cores *c = s->priv;
	const struct row *r = &c->rows[row];
	const struct snapshot *sn = t->snap;

	switch (r->kind) {
	case ROW_POLICY: draw_policy(t, sn, r->pol, r->npol, yy, sel); break;
	case ROW_CPU: draw_cpu(t, sn, arg, r->cpu, yy, sel); break;
	case ROW_GROUP:
		ui_fill(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
		ui_put(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_TITLE,
		       sn->freq.npolicies ? "CPUs without a cpufreq policy"
					  : "CPUs (no cpufreq on this system)");
		break;
	}
}

void screen_cores_draw(struct screen_ctx *t, struct screen *s, int y, int h)
{
	struct cores *c = s->priv;
	const struct snapshot *sn = t->snap;
	struct layout L;
	int rows;

	if (!sn || !c) {
		ui_put(t, y, 0, COLS, ROLE_VALUE_NA, "no data yet");
		return;
	}
	layout(t, sn, &L);
	draw_heading(t, sn, &L, y);
	rows = ui_draw_rows(t, s, y, h, cores_row, &L);
	if (s->nrows > rows && rows > 0) {
		char pos[24];
		int len = snprintf(pos, sizeof(pos), " %d/%d ", s->sel + 1, s->nrows);

		/* on the legend line, right-aligned */
		ui_put(t, y + 1, COLS - len, len, ROLE_LABEL, pos);
	}
}

/* ---- actions --------------------------------------------------------------------- */

/* The policy of the selected row (the first of a merged run: *np policies
 * from it), and the CPU the row stands for. */
static const struct cpufreq_policy *sel_policy(struct screen_ctx *t, struct screen *s, int *cpu,
					       int *np)
{
	struct cores *c = s->priv;
	const struct snapshot *sn = t->snap;
	const struct row *r;

	*cpu = -1;
	if (np)
		*np = 1;
	if (!c || !sn || s->sel < 0 || s->sel >= s->nrows)
		return NULL;
	r = &c->rows[s->sel];
	if (r->kind == ROW_CPU)
		*cpu = r->cpu;
	else if (r->kind == ROW_POLICY) {
		*cpu = cpumask_next(&sn->freq.pol[r->pol].cpus, 0);
		if (np && r->npol > 1)
			*np = r->npol;
	}
	if (r->pol < 0)
		return NULL;
	return &sn->freq.pol[r->pol];
}

/* "policy4" or "policy0-7" for titles. */
static void pol_name(const struct cpufreq_policy *pol, int np, char *buf, size_t cap)
{
	if (np > 1)
		snprintf(buf, cap, "policy%d-%d", pol[0].id, pol[np - 1].id);
	else
		snprintf(buf, cap, "%s", pol->name);
}

/* Set the knob addr names to value on np consecutive policies in one
 * transaction. */
static void set_policies(struct screen_ctx *t, const struct cpufreq_policy *pol, int np,
			 struct knob_addr (*addr)(const char *policy), const char *value)
{
	char **a = xcalloc((size_t)np, sizeof(char *));

	for (int i = 0; i < np; i++)
		a[i] = xasprintf("%s=%s", addr(pol[i].name).s, value);
	tui_set(t, (const char *const *)a, (size_t)np, 0);
	for (int i = 0; i < np; i++)
		free(a[i]);
	free(a);
}

static int act_governor(struct screen_ctx *t, struct screen *s)
{
	int cpu, np;
	const struct cpufreq_policy *pol = sel_policy(t, s, &cpu, &np);
	const char **items;
	char title[80], name[48];
	int sel = 0, ch;

	if (!pol) {
		tui_status(t, true, "Refused: CPU %d has no cpufreq policy", cpu);
		return HR_HANDLED | HR_REDRAW;
	}
	if (!tui_may_write(t))
		return HR_HANDLED | HR_REDRAW;
	if (!pol->ngov) {
		tui_status(t, true, "Refused: %s lists no available governors", pol->name);
		return HR_HANDLED | HR_REDRAW;
	}
	pol_name(pol, np, name, sizeof(name));
	items = xcalloc(pol->ngov, sizeof(*items));
	for (size_t i = 0; i < pol->ngov; i++) {
		items[i] = pol->avail_gov[i];
		if (!strcmp(pol->avail_gov[i], pol->governor))
			sel = (int)i;
	}
	snprintf(title, sizeof(title), "Governor for %s", name);
	ch = ui_menu(t, title, items, (int)pol->ngov, sel, "Enter: set   Esc: cancel");
	if (ch >= 0 && strcmp(items[ch], pol->governor))
		set_policies(t, pol, np, knob_addr_cpufreq_governor, items[ch]);
	else if (ch >= 0)
		tui_status(t, false, "%s already uses %s", name, items[ch]);
	free(items);
	return HR_HANDLED | HR_RESCAN | HR_REDRAW;
}

/* A frequency: one of the OPPs, or typed in (drivers without a frequency
 * table, e.g. intel_pstate). 0 with *khz set, -1 cancelled. */
static int pick_khz(struct screen_ctx *t, const struct cpufreq_policy *pol, const char *title,
		    int64_t cur, uint64_t *khz)
{
	int r;

	if (!pol->navail) {
		char buf[32], prompt[96], lo[16], hi[16];
		uint64_t v;

		ui_fmt_khz(t, pol->hw_min_khz, lo, sizeof(lo));
		ui_fmt_khz(t, pol->hw_max_khz, hi, sizeof(hi));
		snprintf(prompt, sizeof(prompt), "MHz (hardware range %s-%s):", lo, hi);
		snprintf(buf, sizeof(buf), "%lld", cur >= 0 ? (long long)(cur / 1000) : 0LL);
		if (ui_input(t, title, prompt, buf, sizeof(buf)) != 0)
			return -1;
		if (str_to_u64(buf, &v) != 0) {
			tui_status(t, true, "Refused: '%s' is not a number of MHz", buf);
			return -1;
		}
		*khz = v * 1000;
		return 0;
	}
	r = ui_pick_freq(t, title, pol->avail_khz, pol->navail, 1000, cur);
	if (r < 0)
		return -1;
	*khz = pol->avail_khz[r];
	return 0;
}

static int act_freq(struct screen_ctx *t, struct screen *s)
{
	int cpu, ch, np;
	const struct cpufreq_policy *pol = sel_policy(t, s, &cpu, &np);
	static const char *const items[] = {
		"Lock at one frequency (min = max)",
		"Set the minimum",
		"Set the maximum",
		"Release: full hardware range",
	};
	static struct knob_addr (*const leaf[])(const char *) = {
		knob_addr_cpufreq_lock_khz, knob_addr_cpufreq_min_khz, knob_addr_cpufreq_max_khz};
	static const char *const what[] = {"Lock %s at", "Minimum of %s", "Maximum of %s"};
	char title[96], name[48], v[32];
	uint64_t khz;

	if (!pol) {
		tui_status(t, true, "Refused: CPU %d has no cpufreq policy", cpu);
		return HR_HANDLED | HR_REDRAW;
	}
	if (!tui_may_write(t))
		return HR_HANDLED | HR_REDRAW;
	if (!pol->navail && (pol->hw_min_khz < 0 || pol->hw_max_khz < 0)) {
		tui_status(t, true,
			   "Refused: %s has neither a frequency table nor a hardware range",
			   pol->name);
		return HR_HANDLED | HR_REDRAW;
	}
	pol_name(pol, np, name, sizeof(name));
	snprintf(title, sizeof(title), "Frequency of %s", name);
	ch = ui_menu(t, title, items, 4, 0, "Enter: choose   Esc: cancel");
	if (ch >= 0 && ch < 3) {
		int64_t now = ch == 0 ? pol->cur_khz : ch == 1 ? pol->min_khz : pol->max_khz;

		snprintf(title, sizeof(title), what[ch], name);
		if (pick_khz(t, pol, title, now, &khz) == 0) {
			snprintf(v, sizeof(v), "%llu", (unsigned long long)khz);
			set_policies(t, pol, np, leaf[ch], v);
		}
	} else if (ch == 3) {
		char **a = xcalloc((size_t)np * 2, sizeof(char *));

		for (int i = 0; i < np; i++) {
			a[2 * i] = xasprintf("%s=min", knob_addr_cpufreq_min_khz(pol[i].name).s);
			a[2 * i + 1] =
				xasprintf("%s=max", knob_addr_cpufreq_max_khz(pol[i].name).s);
		}
		tui_set(t, (const char *const *)a, (size_t)np * 2, 0);
		for (int i = 0; i < 2 * np; i++)
			free(a[i]);
		free(a);
	}
	return HR_HANDLED | HR_RESCAN | HR_REDRAW;
}

static int act_idle(struct screen_ctx *t, struct screen *s)
{
	int cpu, n = 0, ch;
	const struct snapshot *sn = t->snap;
	const struct cpuidle_cpu *ic;
	char *items[32];
	char *assign[32] = {NULL};

	sel_policy(t, s, &cpu, NULL);
	if (cpu < 0 || !sn || cpu >= sn->idle.ncpus) {
		tui_status(t, true, "Refused: select a CPU row first");
		return HR_HANDLED | HR_REDRAW;
	}
	ic = &sn->idle.cpu[cpu];
	if (!ic->online) {
		tui_status(t, true, "Refused: CPU %d is offline", cpu);
		return HR_HANDLED | HR_REDRAW;
	}
	if (!ic->nstates) {
		tui_status(t, true, "Refused: CPU %d has no idle states (cpuidle driver %s)", cpu,
			   sn->idle.driver[0] ? sn->idle.driver : "n/a");
		return HR_HANDLED | HR_REDRAW;
	}
	if (!tui_may_write(t))
		return HR_HANDLED | HR_REDRAW;
	for (size_t k = 0; k < ic->nstates && n + 2 <= 32; k++) {
		const struct cpuidle_state *st = &ic->st[k];
		bool all_off = true;
		const char *name = st->name[0] ? st->name : "?";

		for (int c = 0; c < sn->idle.ncpus; c++) {
			const struct cpuidle_state *o = cpuidle_state_find(&sn->idle, c, name);

			if (sn->idle.cpu[c].online && o && o->disable != 1)
				all_off = false;
		}
		items[n] = xasprintf("%s %s (%lldus) on CPU %d",
				     st->disable == 1 ? "Enable " : "Disable", name,
				     (long long)st->latency_us, cpu);
		assign[n++] = xasprintf("%s=%d", knob_addr_cpuidle_disable_n(cpu, st->index).s,
					st->disable == 1 ? 0 : 1);
		items[n] = xasprintf("%s %s (%lldus) on all CPUs", all_off ? "Enable " : "Disable",
				     name, (long long)st->latency_us);
		assign[n++] = xasprintf("%s=%d", knob_addr_cpuidle_disable_sel("*", st->index).s,
					all_off ? 0 : 1);
	}
	ch = ui_menu(t, "Idle states", (const char *const *)items, n, 0,
		     "Enter: apply   Esc: cancel");
	if (ch >= 0)
		tui_set1(t, "%s", assign[ch]);
	for (int i = 0; i < n; i++) {
		free(items[i]);
		free(assign[i]);
	}
	return HR_HANDLED | HR_RESCAN | HR_REDRAW;
}

int screen_cores_explain(struct screen_ctx *t, struct screen *s, struct explain_item *it, int max)
{
	struct cores *c = s->priv;
	const struct snapshot *sn = t->snap;
	const struct row *r;
	int n = 0;

	if (!c || !sn || s->sel < 0 || s->sel >= s->nrows)
		return 0;
	r = &c->rows[s->sel];
	if (r->kind == ROW_POLICY) {
		const char *pol = sn->freq.pol[r->pol].name;
		const char *gov = sn->freq.pol[r->pol].tunables_gov;

		n = ui_explain_add(it, n, max, "Governor", "%s", knob_addr_cpufreq_governor(pol).s);
		n = ui_explain_add(it, n, max, "Frequency limits and locks", "%s",
				   knob_addr_cpufreq_lock_khz(pol).s);
		n = ui_explain_add(it, n, max, "Time per frequency, transitions/s",
				   "policy.time_in_state_pct");
		if (gov[0])
			n = ui_explain_add(it, n, max, "Governor tunables", "%s",
					   knob_addr_cpufreq_tunables(pol, gov).s);
	} else if (r->kind == ROW_CPU) {
		const struct cpuidle_cpu *ic =
			r->cpu < sn->idle.ncpus ? &sn->idle.cpu[r->cpu] : NULL;
		int deep = ic && ic->nstates > 1 ? ic->st[ic->nstates - 1].index : -1;

		n = ui_explain_add(it, n, max, "Util: utilisation", "cpu.util_pct");
		n = ui_explain_add(it, n, max, "Freq: current frequency", "cpu.freq_khz");
		n = ui_explain_add(it, n, max, "C-state residency and entries/s",
				   "cpuidle.residency_pct");
		n = ui_explain_add(it, n, max, "Exit latencies (legend)", "cpuidle.latency_us");
		n = ui_explain_add(it, n, max, "Miss/s: mispredictions", "cpuidle.above_per_s");
		if (deep >= 0)
			n = ui_explain_add(it, n, max, "Off: disabling an idle state", "%s",
					   knob_addr_cpuidle_disable_n(r->cpu, deep).s);
		n = ui_explain_add(it, n, max, "Temp: temperature", "thermal.temp_mc");
		if (t->cfg.col_counters) {
			n = ui_explain_add(it, n, max, "Counters: IPC, cache misses, switches",
					   "counters.cache_misses");
			n = ui_explain_add(it, n, max, "Csw/s, Mig/s: software counters",
					   "counters.software");
		}
	}
	return n;
}

int screen_cores_key(struct screen_ctx *t, struct screen *s, int ch)
{
	switch (ch) {
	case 'g': return act_governor(t, s);
	case 'f': return act_freq(t, s);
	case 'i': return act_idle(t, s);
	default: return HR_IGNORED;
	}
}

/* The CPUs of the rows on screen (as last drawn) and of the selection. */
void screen_cores_focus(struct screen_ctx *t, struct screen *s, struct cpumask *cpus)
{
	struct cores *c = s->priv;
	int rows = t->body_h - s->heading_lines;

	if (!c)
		return;
	for (int i = s->top; i < s->nrows && i < s->top + rows; i++)
		if (c->rows[i].kind == ROW_CPU && c->rows[i].cpu >= 0)
			cpumask_set(cpus, c->rows[i].cpu);
	if (s->sel >= 0 && s->sel < s->nrows && c->rows[s->sel].kind == ROW_CPU &&
	    c->rows[s->sel].cpu >= 0)
		cpumask_set(cpus, c->rows[s->sel].cpu);
}
