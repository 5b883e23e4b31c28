/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Latency screen's "Why late" panel (issue 29): with the TUI's probe
 * running, w turns the kernel event capture (probe/whycap.c) on or off for
 * the probed CPUs. The probe's late records (over the running p90) are fed
 * to it from the TUI's tick, every WHYCAP_POLL_MS the buffers are read, and
 * every LAT_WHY_ATTR_MS the late wake-ups of that interval over the run's
 * p99 are attributed (probe/whyattr.c). The panel lists the ranked causes and
 * the fix of the selected one; f applies it through tui_set (journaled,
 * undoable) after a confirmation. Without tracefs, root or the libraries the
 * panel says which in one line and nothing else changes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "probe/probe.h"
#include "probe/whyattr.h"
#include "probe/whycap.h"
#include "ui/latency_run.h"
#include "ui/tui.h"
#include "ui/tui_int.h"

static void why_free_res(struct lat_why *w)
{
	if (w->have_res)
		why_result_free(&w->res);
	w->have_res = false;
}

void lat_why_off(struct latency *L)
{
	struct lat_why *w = &L->why;

	if (L->probe_inited)
		probe_set_late_bar(&L->probe, UINT64_MAX);
	whycap_close(w->cap);
	w->cap = NULL;
	free(w->buf);
	w->buf = NULL;
	why_free_res(w);
	w->on = false;
	w->why[0] = '\0';
}

/* The probe's late records since the last call, into the capture. */
static void why_drain(struct latency *L)
{
	struct lat_why *w = &L->why;
	struct probe *p = &L->probe;

	for (int i = 0; i < p->n; i++) {
		uint64_t prog, drops;
		size_t n = probe_late_drain(p, i, w->buf, PROBE_LATE_RING, &prog, &drops);

		for (size_t k = 0; k < n; k++)
			whycap_add_late(w->cap, p->thr[i].cpu, p->thr[i].tid, w->buf[k].deadline_ns,
					w->buf[k].wake_ns);
		whycap_progress(w->cap, p->thr[i].cpu, prog);
	}
}

/* The late wake-ups of the interval just ended, attributed; the result of
 * an interval without any stays as it was (n_late_last says so). */
static void why_attribute_now(struct latency *L, uint64_t now)
{
	struct lat_why *w = &L->why;
	struct why_events ev = {0};
	struct whycap_stats st;
	struct why_result res;
	struct why_opts o;
	struct cpumask online;
	struct hist *all = xmalloc(sizeof(*all));
	uint64_t thr;

	probe_snapshot_all(&L->probe, all);
	thr = all->count ? (uint64_t)(hist_percentile_us(all, 0.99) * 1000.0) : 0;
	free(all);
	whycap_finish(w->cap, thr, &ev, &st);
	w->lost = st.lost;
	memset(&o, 0, sizeof(o));
	whycap_idle_opts(&o); /* idle state names, declared exit latencies */
	o.over_ns = thr;
	if (!probe_online_cpus(&online)) {
		cpumask_andnot(&online, &L->probe.cfg.cpus);
		cpulist_format(&online, o.housekeeping, sizeof(o.housekeeping));
	}
	memset(&res, 0, sizeof(res));
	if (why_attribute(&ev, &o, &res) == 0) {
		w->n_late_last = (unsigned)res.n_late;
		if (res.n_late) {
			why_free_res(w);
			w->res = res;
			w->res.threshold_ns = thr;
			w->have_res = true;
			w->at_ns = now;
		} else {
			why_result_free(&res);
		}
	}
	why_events_free(&ev);
}

void lat_why_tick(struct latency *L, int *ms)
{
	struct lat_why *w = &L->why;
	uint64_t now;
	int left;

	if (!w->cap || !L->probe_on)
		return;
	now = time_mono_ns();
	if (now >= w->next_poll_ns) {
		struct whycap_stats st;

		why_drain(L);
		whycap_poll(w->cap);
		whycap_stats_now(w->cap, &st);
		w->lost = st.lost;
		if (!w->rate_at_ns || st.events_read < w->rate_read) {
			w->rate_at_ns = now;
			w->rate_read = st.events_read;
		} else if (now - w->rate_at_ns >= 1000000000ull) {
			w->ev_per_s = (double)(st.events_read - w->rate_read) * 1e9 /
				      (double)(now - w->rate_at_ns);
			w->rate_at_ns = now;
			w->rate_read = st.events_read;
		}
		if (++w->ticks % 10 == 1) { /* the bar for late records: the running p90 */
			struct hist *all = xmalloc(sizeof(*all));

			probe_snapshot_all(&L->probe, all);
			if (all->count >= 100)
				probe_set_late_bar(
					&L->probe,
					(uint64_t)(hist_percentile_us(all, 0.90) * 1000.0));
			free(all);
		}
		w->next_poll_ns = now + WHYCAP_POLL_MS * 1000000ull;
	}
	if (now >= w->next_attr_ns) {
		why_attribute_now(L, now);
		w->next_attr_ns = now + LAT_WHY_ATTR_MS * 1000000ull;
		L->pending |= HR_REDRAW | HR_RESCAN;
	}
	left = (int)((w->next_poll_ns - now + 999999) / 1000000);
	if (*ms < 0 || left < *ms)
		*ms = left;
}

int lat_why_toggle(struct screen_ctx *sc, struct screen *s, struct latency *L)
{
	struct tui *t = tui_of(sc);
	struct lat_why *w = &L->why;
	struct whycap_cfg cc;
	char cpus[128];

	s->sel = s->top = 0;
	if (w->on) {
		lat_why_off(L);
		tui_status(&t->sc, false, "Why late: capture off");
		return HR_HANDLED | HR_REDRAW | HR_RESCAN;
	}
	if (!L->probe_on || L->ab_on) {
		tui_status(&t->sc, true, "Why late: needs the probe running (s starts it)");
		return HR_HANDLED | HR_REDRAW;
	}
	w->on = true;
	memset(&cc, 0, sizeof(cc));
	cc.cpus = L->probe.cfg.cpus;
	cc.interval_us = L->probe.cfg.interval_us;
	w->note[0] = '\0';
	if (whycap_open(&w->cap, &cc, w->why, sizeof(w->why), w->note, sizeof(w->note)) ||
	    whycap_start(w->cap)) {
		if (w->cap)
			snprintf(w->why, sizeof(w->why), "tracing could not be turned on");
		whycap_close(w->cap);
		w->cap = NULL;
		tui_status(&t->sc, true, "Why late: not captured: %s", w->why);
		return HR_HANDLED | HR_REDRAW | HR_RESCAN;
	}
	w->buf = xcalloc(PROBE_LATE_RING, sizeof(*w->buf));
	w->ticks = 0;
	w->lost = 0;
	w->ev_per_s = NAN;
	w->rate_at_ns = w->rate_read = 0;
	w->n_late_last = 0;
	w->next_poll_ns = 0;
	w->next_attr_ns = time_mono_ns() + LAT_WHY_ATTR_MS * 1000000ull;
	probe_set_late_bar(&L->probe, 0); /* until the running p90 is known */
	cpulist_format(&cc.cpus, cpus, sizeof(cpus));
	tui_status(&t->sc, false, "Why late: capturing the kernel's events of CPUs %s%s%s", cpus,
		   w->note[0] ? "; " : "", w->note);
	return HR_HANDLED | HR_REDRAW | HR_RESCAN;
}

bool latency_why_footprint(const struct screen_ctx *sc, char *buf, size_t cap)
{
	const struct tui *t = tui_of_const(sc);
	const struct lat_why *w = t->sc.lat ? &t->sc.lat->why : NULL;
	char rate[32];

	if (!w || !w->on || !w->cap)
		return false;
	if (isfinite(w->ev_per_s))
		snprintf(rate, sizeof(rate), "%.0f events/s", w->ev_per_s);
	else
		snprintf(rate, sizeof(rate), "events/s n/a (first second)");
	snprintf(buf, cap, "Why-late capture (tracing on): %s read, %llu lost", rate,
		 (unsigned long long)w->lost);
	return true;
}

int lat_why_rows(const struct latency *L)
{
	return L->why.on && L->why.have_res ? (int)L->why.res.n_causes : 0;
}

static const char *cause_name(const struct why_cause *c, char *buf, size_t cap)
{
	if (c->kind == WP_TASK)
		snprintf(buf, cap, "%s (tid %d)%s%s", c->name, c->id, c->reason ? ": " : "",
			 c->reason ? why_reason_name(c->reason) : "");
	else if (c->kind == WP_IRQ && c->id >= 0)
		snprintf(buf, cap, "%d %s", c->id, c->name);
	else
		snprintf(buf, cap, "%s", c->name[0] ? c->name : "-");
	return buf;
}

void lat_why_draw(struct screen_ctx *sc, struct screen *s, struct latency *L, int y, int h)
{
	struct tui *t = tui_of(sc);
	const struct lat_why *w = &L->why;
	const struct why_result *r = &w->res;
	char thr[16], name[96];
	int rows;

	if (h < 1)
		return;
	if (!w->cap) {
		ui_printf(&t->sc, y, 1, COLS - 1, ROLE_WARN, "Why late: not captured: %s", w->why);
		return;
	}
	if (!w->have_res) {
		ui_printf(&t->sc, y, 1, COLS - 1, ROLE_TITLE,
			  "Why late: capturing; no late wake-ups over the run's p99 yet "
			  "(attributed every %d s), %llu events lost",
			  LAT_WHY_ATTR_MS / 1000, (unsigned long long)w->lost);
		return;
	}
	lat_fmt_us(thr, sizeof(thr), (double)r->threshold_ns / 1e3, false);
	ui_printf(&t->sc, y, 1, COLS - 1, ROLE_TITLE,
		  "Why late: %zu wake-ups over %s us (the run's p99)%s, %llu events lost",
		  r->n_late, thr, w->n_late_last ? "" : " (an earlier interval: none in the last)",
		  (unsigned long long)w->lost);
	if (h < 4)
		return;
	ui_printf(&t->sc, y + 1, 0, COLS, ROLE_COLHEAD, "%-9s %-40s %6s %6s %10s", "Kind", "Cause",
		  "Late%", "Time%", "us");
	rows = h - 3;
	ui_scroll(s, rows);
	for (int i = 0; i < rows && s->top + i < (int)r->n_causes; i++) {
		const struct why_cause *c = &r->causes[s->top + i];
		bool sel = s->top + i == s->sel;
		enum role role = sel ? ROLE_CURSOR : ROLE_VALUE;

		if (sel)
			ui_fill(&t->sc, y + 2 + i, 0, COLS, ROLE_CURSOR);
		ui_printf(&t->sc, y + 2 + i, 0, COLS, role, "%-9s %-40.40s %6.1f %6.1f %10.1f",
			  why_part_kind_name(c->kind), cause_name(c, name, sizeof(name)),
			  c->share_late_pct, c->share_delay_pct, (double)c->total_ns / 1e3);
	}
	if (s->sel >= 0 && s->sel < (int)r->n_causes) {
		const struct why_cause *c = &r->causes[s->sel];

		if (c->fix[0])
			ui_printf(&t->sc, y + h - 1, 1, COLS - 1, ROLE_OK,
				  "Fix: %s  (f applies)  %s", c->fix, c->fix_why);
		else
			ui_put(&t->sc, y + h - 1, 1, COLS - 1, ROLE_LABEL,
			       "Fix: none one key away for this cause");
	}
}

int lat_why_fix(struct screen_ctx *sc, struct screen *s, struct latency *L)
{
	struct tui *t = tui_of(sc);
	static const char *const buttons[] = {"Apply", "Cancel"};
	const struct lat_why *w = &L->why;
	const struct why_cause *c;
	char text[400];
	const char *as[1];

	if (!w->on || !w->have_res || s->sel < 0 || s->sel >= (int)w->res.n_causes) {
		tui_status(&t->sc, true,
			   "Why late: no cause selected (w captures, then pick a cause)");
		return HR_HANDLED | HR_REDRAW;
	}
	c = &w->res.causes[s->sel];
	if (!c->fix[0]) {
		tui_status(&t->sc, true, "Why late: %s has no fix one key away",
			   why_part_kind_name(c->kind));
		return HR_HANDLED | HR_REDRAW;
	}
	snprintf(text, sizeof(text), "%s\n%s\n(u undoes it)", c->fix, c->fix_why);
	if (ui_choice(&t->sc, "Apply the fix", text, buttons, 2, 0) != 0)
		return HR_HANDLED | HR_REDRAW;
	as[0] = c->fix;
	tui_set(&t->sc, as, 1, 0);
	return HR_HANDLED | HR_RESCAN | HR_REDRAW;
}

/* Whole microseconds (truncated like the buckets), or a mean with one
 * decimal; n/a when unknown. */
const char *lat_fmt_us(char *buf, size_t cap, double v, bool mean)
{
	if (isnan(v))
		snprintf(buf, cap, "n/a");
	else if (mean)
		snprintf(buf, cap, "%.1f", v);
	else
		snprintf(buf, cap, "%.0f", floor(v));
	return buf;
}
