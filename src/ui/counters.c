/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf counters in the TUI, opened only while a screen shows them.
 *
 * Per CPU (the Cores screen's IPC / cache misses / switches / migrations
 * columns): the sampler's set (sampler_counters), opened at the tick after
 * the Cores screen becomes current with column_counters on, closed at the
 * first tick on another screen or when the `events` setting changes. Each
 * sample then costs one group read(2) per CPU and PMU (perf.h). On a root
 * that is not the live system (fixtures, --demo) nothing is opened: those
 * counters would describe this machine, not the root.
 *
 * Per thread (the Threads screen's pane): one set for the selected thread
 * of the live system (a --root tree's threads are its files: a tid there
 * would count the host's thread of that number, so nothing is opened),
 * opened when the selection lands on it, closed when the selection moves,
 * when the thread is gone or its tid was reused (start time), when the
 * pane is hidden (C) and at the first tick on another screen. Read once per
 * sample, not per key. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "source/threads.h"
#include "ui/counters_fmt.h"
#include "ui/tui.h"
#include "ui/tui_int.h"

struct tui_ctr {
	/* per CPU */
	char cpu_events[256]; /* cfg.events the sampler's set was opened with */
	int cpu_open_count;   /* sampler.count when it was opened */
	/* the selected thread */
	bool pane, pane_set;
	struct perf_set th;
	bool th_open;
	int th_tid;
	uint64_t th_start;
	char th_events[256];
	int th_samples;	   /* reads since it was opened */
	int th_last_count; /* sampler.count at the last read */
	char th_err[200];  /* why it could not be opened / was closed */
	int th_err_tid;	   /* ... for this thread (do not retry it on every draw) */
	uint64_t th_err_start;
};

static struct tui_ctr *ctr(struct tui *t)
{
	if (!t->ctr) {
		t->ctr = xcalloc(1, sizeof(*t->ctr));
		t->ctr->pane = t->sc.cfg.thread_counters;
	}
	return t->ctr;
}

static void thread_close(struct tui_ctr *c)
{
	if (c->th_open)
		perf_close(&c->th);
	c->th_open = false;
	c->th_tid = 0;
	c->th_start = 0;
	c->th_samples = 0;
}

void tui_counters_tick(struct tui *t)
{
	struct tui_ctr *c = ctr(t);
	unsigned want = t->sc.screens[t->sc.cur].ops->counters;
	bool cpu =
		(want & TUI_CTR_CPU) && t->sc.cfg.col_counters && !tui_cpu_counters_off(&t->sc)[0];

	if (t->sc.sampler.perf_open && (!cpu || strcmp(c->cpu_events, t->sc.cfg.events)))
		sampler_counters_close(&t->sc.sampler);
	if (cpu && !t->sc.sampler.perf_open) {
		char **ev = NULL;
		uint64_t soon = time_mono_ns() + 300000000ULL;

		/* checked when the setting was read: a bad list is the default set */
		if (ctr_events_parse(t->sc.cfg.events, &ev, NULL, 0) != 0)
			ev = NULL;
		sampler_counters(&t->sc.sampler, (const char *const *)ev);
		ctr_events_free(ev);
		str_copy(c->cpu_events, sizeof(c->cpu_events), t->sc.cfg.events);
		c->cpu_open_count = t->sc.sampler.count;
		/* the first rates after 0.3 s rather than a whole interval */
		if (t->next_tick_ns > soon)
			t->next_tick_ns = soon;
	}
	if (!(want & TUI_CTR_THREAD) || !c->pane)
		thread_close(c);
}

const struct perf_set *tui_cpu_counters(const struct screen_ctx *sc, bool *pending)
{
	const struct tui *t = tui_of_const(sc);

	if (pending)
		*pending = false;
	if (!t->sc.sampler.perf_open)
		return NULL;
	if (pending && t->ctr)
		*pending = t->sc.sampler.count == t->ctr->cpu_open_count;
	return &t->sc.sampler.perf;
}

const char *tui_cpu_counters_off(const struct screen_ctx *sc)
{
	const struct tui *t = tui_of_const(sc);

	if (t->sc.sim)
		return "n/a on the simulated board";
	if (!t->sc.root.live)
		return "n/a: they count this machine's kernel, not this root";
	return "";
}

/* ---- the Threads screen's pane ------------------------------------------------ */

struct item {
	char label[PERF_NAME_LEN];
	char value[24];
	enum ctr_cell_kind kind;
};

/* Every event of the set, with IPC after the pair it comes from. */
static size_t pane_items(const struct perf_set *s, bool pending, struct item *it, size_t max)
{
	size_t n = 0;
	int cyc = perf_set_generic(s, PERF_EV_CYCLES),
	    ins = perf_set_generic(s, PERF_EV_INSTRUCTIONS);

	for (size_t e = 0; e < s->nev && n < max; e++) {
		str_copy(it[n].label, sizeof(it[n].label), s->ev_label[e]);
		it[n].kind =
			ctr_event_cell(s, (int)e, 0, pending, it[n].value, sizeof(it[n].value));
		n++;
		if (cyc >= 0 && ins >= 0 && (int)e == (cyc > ins ? cyc : ins) && n < max) {
			struct ctr_cols cols;

			ctr_cols(s, &cols);
			str_copy(it[n].label, sizeof(it[n].label), "IPC");
			it[n].kind = ctr_cell(s, &cols, CTR_IPC, 0, pending, it[n].value,
					      sizeof(it[n].value));
			n++;
		}
	}
	return n;
}

static void pane_reasons(const struct perf_set *s, char *out, size_t cap)
{
	struct ctr_item *ci = xcalloc(s->nev ? s->nev : 1, sizeof(*ci));
	size_t len;

	for (size_t e = 0; e < s->nev; e++) {
		ci[e].label = s->ev_label[e];
		ci[e].ev[0] = (int)e;
		ci[e].ev[1] = -1;
	}
	ctr_reasons(s, ci, s->nev, out, cap);
	free(ci);
	len = strlen(out);
	if (s->note[0] && len + 3 < cap)
		snprintf(out + len, cap - len, "%s%s", len ? "; " : "", s->note);
}

/* Lines the items take when flowed into w columns ("label value" cells
 * separated by three spaces). */
static int flow_lines(const struct item *it, size_t n, int w)
{
	int lines = n ? 1 : 0, x = 1;

	for (size_t i = 0; i < n; i++) {
		int cw = (int)(strlen(it[i].label) + 1 + strlen(it[i].value));

		if (x > 1 && x + cw > w) {
			lines++;
			x = 1;
		}
		x += cw + 3;
	}
	return lines;
}

int tui_thread_counters_lines(struct screen_ctx *sc, int body_h)
{
	struct tui *t = tui_of(sc);
	struct tui_ctr *c = ctr(t);
	struct item it[64];
	char why[512];
	int n;

	if (!c->pane || body_h < 12)
		return 0;
	if (!c->th_open)
		return 2;
	n = 1 + flow_lines(it, pane_items(&c->th, c->th_samples == 0, it, 64), COLS);
	pane_reasons(&c->th, why, sizeof(why));
	if (why[0])
		n += (int)strlen(why) + 2 > COLS ? 2 : 1;
	return n < body_h / 3 ? n : body_h / 3;
}

void tui_thread_counters_toggle(struct screen_ctx *sc)
{
	struct tui *t = tui_of(sc);
	struct tui_ctr *c = ctr(t);

	c->pane = !c->pane;
	if (!c->pane)
		thread_close(c);
	tui_status(&t->sc, false,
		   c->pane ? "Counters of the selected thread shown (C hides them)"
			   : "Thread counters hidden and closed (C shows them)");
}

/* Open, close, and read the selected thread's set. */
static void thread_follow(struct tui *t, struct tui_ctr *c, int tid, uint64_t start)
{
	if (c->th_open &&
	    (c->th_tid != tid || c->th_start != start || strcmp(c->th_events, t->sc.cfg.events)))
		thread_close(c);
	if (tid <= 0)
		return;
	if (!c->th_open && !(c->th_err_tid == tid && c->th_err_start == start)) {
		char **ev = NULL, *cause = NULL;

		if (ctr_events_parse(t->sc.cfg.events, &ev, NULL, 0) != 0)
			ev = NULL;
		c->th_err[0] = '\0';
		if (perf_open_thread(&c->th, tid, (const char *const *)ev, &cause) != 0 &&
		    !c->th.nfds) {
			/* keep the set: its per-event reasons say why */
			snprintf(c->th_err, sizeof(c->th_err), "%s",
				 cause ? cause : "no counter could be opened");
		}
		free(cause);
		ctr_events_free(ev);
		c->th_open = true;
		c->th_tid = tid;
		c->th_start = start;
		c->th_samples = 0;
		c->th_last_count = t->sc.sampler.count;
		str_copy(c->th_events, sizeof(c->th_events), t->sc.cfg.events);
		return;
	}
	if (c->th_open && c->th_last_count != t->sc.sampler.count) {
		uint64_t now_start = 0;

		c->th_last_count = t->sc.sampler.count;
		if (thread_start_time(tid, &now_start) != 0 || now_start != start) {
			snprintf(c->th_err, sizeof(c->th_err),
				 "thread %d has exited: its counters are closed", tid);
			thread_close(c);
			c->th_err_tid = tid;
			c->th_err_start = start;
			return;
		}
		if (c->th.nfds) {
			perf_sample(&c->th);
			c->th_samples++;
		}
	}
}

void tui_thread_counters_draw(struct screen_ctx *sc, int tid, uint64_t start_time, const char *comm,
			      int y, int h)
{
	struct tui *t = tui_of(sc);
	struct tui_ctr *c = ctr(t);
	struct item it[64];
	size_t n;
	char why[512];
	int x, line;

	if (!c->pane)
		return;
	if (h <= 0 || !t->sc.root.live) { /* no room, or a tree's thread: nothing to count */
		thread_close(c);
		if (h <= 0)
			return;
	} else {
		thread_follow(t, c, tid, start_time);
	}
	for (int i = 0; i < h; i++)
		ui_fill(&t->sc, y + i, 0, COLS, ROLE_DEFAULT);
	ui_fill(&t->sc, y, 0, COLS, ROLE_COLHEAD);
	if (tid <= 0) {
		ui_put(&t->sc, y, 0, COLS, ROLE_COLHEAD, " Counters: no thread selected");
		return;
	}
	x = ui_printf(&t->sc, y, 0, COLS, ROLE_COLHEAD, " Counters of %d %s (perf, per second)",
		      tid, comm ? comm : "");
	ui_printf(&t->sc, y, x, COLS - x, ROLE_COLHEAD, "%*s", COLS - x - 1, "C hides ");
	if (!t->sc.root.live) {
		if (h > 1)
			ui_put(&t->sc, y + 1, 1, COLS - 1, ROLE_VALUE_NA,
			       "n/a: the threads of this root are its proc/ files; perf counts "
			       "only this machine's threads");
		return;
	}
	if (!c->th_open) {
		if (h > 1)
			ui_put(&t->sc, y + 1, 1, COLS - 1, ROLE_VALUE_NA,
			       c->th_err[0] && c->th_err_tid == tid ? c->th_err : "n/a");
		return;
	}
	n = pane_items(&c->th, c->th_samples == 0, it, 64);
	line = 1;
	x = 1;
	for (size_t i = 0; i < n && line < h; i++) {
		int cw = (int)(strlen(it[i].label) + 1 + strlen(it[i].value));

		if (x > 1 && x + cw > COLS) {
			line++;
			x = 1;
			if (line >= h)
				break;
		}
		x += ui_printf(&t->sc, y + line, x, COLS - x, ROLE_LABEL, "%s ", it[i].label);
		x += ui_put(&t->sc, y + line, x, COLS - x,
			    it[i].kind == CTR_CELL_NA	    ? ROLE_VALUE_NA
			    : it[i].kind == CTR_CELL_SCALED ? ROLE_WARN
							    : ROLE_VALUE,
			    it[i].value);
		x += 3;
	}
	line++;
	pane_reasons(&c->th, why, sizeof(why));
	if (why[0] && line < h) {
		/* each reason once, wrapped onto the lines left */
		const char *p = why;

		for (; *p && line < h; line++) {
			int len = (int)strlen(p), w = COLS - 2;

			if (len > w) {
				int cut = w;

				while (cut > w / 2 && p[cut] != ' ')
					cut--;
				ui_printf(&t->sc, y + line, 1, COLS - 1, ROLE_VALUE_NA, "%.*s", cut,
					  p);
				p += cut;
				while (*p == ' ')
					p++;
			} else {
				ui_put(&t->sc, y + line, 1, COLS - 1, ROLE_VALUE_NA, p);
				p += len;
			}
		}
	}
}

void tui_counters_free(struct tui *t)
{
	if (!t->ctr)
		return;
	thread_close(t->ctr);
	free(t->ctr);
	t->ctr = NULL;
}
