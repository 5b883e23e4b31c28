/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's recordings and findings: --record FILE writes every sample the
 * TUI takes and every journal event as JSON lines (model/record.h, exactly
 * what `watch --record` writes); --replay FILE drives every screen from a
 * recording instead of the sampler (model/replay.h): the shown sample, its
 * recorded findings, the knob changes in force at that time (from the
 * recorded journal events), play / pause, step, seek and speed. A replay is
 * read-only: the knob engine is not opened, so every action is refused with
 * the reason. The findings of a live session are evaluated here after each
 * sample (model/findings.h), with the same inputs as `snapshot --json`
 * (plus the live thread table when one is fresh). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/err.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "model/record.h"
#include "model/replay.h"
#include "model/sim.h"
#include "out/report.h"
#include "ui/tui.h"
#include "ui/tui_int.h"

static const double speeds[] = {0.25, 0.5, 1, 2, 4, 8, 16, 32};
#define NSPEEDS	 ((int)(sizeof(speeds) / sizeof(speeds[0])))
#define SPEED_1X 2

static void rebuild(struct tui *t)
{
	for (int i = 0; i < t->sc.nscreens; i++)
		if (t->sc.screens[i].ops->build)
			t->sc.screens[i].ops->build(&t->sc, &t->sc.screens[i]);
}

/* ---- findings ------------------------------------------------------------------ */

void tui_findings_eval(struct tui *t, const struct thread_table *threads,
		       bool (*probe)(struct tui *t, double budget_us, struct findings_probe *out))
{
	struct findings_input in = {.snap = t->sc.snap};
	struct findings_opts fo;
	struct findings_probe pr;

	findings_free(&t->sc.findings);
	if (!t->sc.snap)
		return;
	findings_opts_default(&fo);
	if (t->sc.cfg.latency_budget_us > 0)
		fo.latency_budget_us = t->sc.cfg.latency_budget_us;
	/* The root's threads (a --root tree's proc/; none in a recording), only a
	 * table read recently (the sampler reads one every
	 * THREAD_SAMPLER_SLOW_NS for this, sampler.threads_every_ns; the
	 * Threads, Isolation and Findings screens read it more often). */
	in.threads = threads;
	/* What the Latency screen's probe measured (misses on a non-RT kernel). */
	if (probe && probe(t, fo.latency_budget_us, &pr))
		in.probe = &pr;
	findings_eval(&in, &fo, &t->sc.findings);
}

/* ---- recording ----------------------------------------------------------------- */

int tui_record_open(struct tui *t, const char *path, const char *state_dir, char **cause)
{
	struct record_meta meta = {
		.source = t->sc.sim ? "demo" : "tui",
		.root_path = t->sc.root.path,
		.interval_ms = t->sc.delay_tenths * 100.0,
		.simulated = t->sc.sim != NULL,
		.board = t->sc.sim ? sim_board(t->sc.sim) : NULL,
		.journal_root = &t->sc.root,
		.state_dir = state_dir,
		.format = (enum record_format)t->rec_format,
		.snapshot_json = report_record_json,
	};
	int e;

	e = record_open(&t->rec, path, &meta, cause);
	if (e)
		return e;
	str_copy(t->rec_path, sizeof(t->rec_path), path);
	return 0;
}

void tui_record_sample(struct tui *t)
{
	if (!t->rec || t->rec_failed || !t->sc.snap)
		return;
	/* the findings as the header and the Findings screen show them */
	if (record_sample_with(t->rec, t->sc.snap, NULL, &t->sc.findings, NULL) != 0) {
		t->rec_failed = true;
		tui_status(&t->sc, true, "--record %s: write error, recording stopped",
			   t->rec_path);
		return;
	}
}

void tui_record_poll(struct tui *t)
{
	if (t->rec && !t->rec_failed && record_poll_journal(t->rec) != 0) {
		t->rec_failed = true;
		tui_status(&t->sc, true, "--record %s: write error, recording stopped",
			   t->rec_path);
	}
}

void tui_record_close(struct tui *t, struct sbuf *msg)
{
	uint64_t n;

	if (!t->rec)
		return;
	n = record_samples(t->rec);
	if (record_close(t->rec) != 0 || t->rec_failed)
		sbuf_printf(msg, "tunetop: %s: write error, the recording is incomplete\n",
			    t->rec_path);
	else
		sbuf_printf(msg, "tunetop: recorded %llu sample%s to %s\n", (unsigned long long)n,
			    n == 1 ? "" : "s", t->rec_path);
	t->rec = NULL;
}

/* ---- replay ------------------------------------------------------------------------ */

int tui_replay_open(struct tui *t, const char *path, char **cause)
{
	struct tui_replay *rp = xcalloc(1, sizeof(*rp));
	const struct replay_header *h;
	int e;

	e = replay_open(&rp->r, path, cause);
	if (e) {
		free(rp);
		return e;
	}
	rp->n = replay_nsamples(rp->r);
	if (!rp->n) {
		if (cause) {
			free(*cause);
			*cause = xasprintf("%s: the recording has no samples", path);
		}
		replay_close(rp->r);
		free(rp);
		return -ENODATA;
	}
	h = replay_header(rp->r);
	str_copy(rp->path, sizeof(rp->path), path);
	rp->t0_ns = replay_sample_time(rp->r, 0);
	rp->speed = SPEED_1X;
	rp->paused = true; /* a recording opens on its first sample: look, then play */
	rp->interval_ms = h->interval_ms;
	rp->idx = 0;
	if (h->simulated)
		str_copy(rp->board, sizeof(rp->board), h->board[0] ? h->board : "board");
	t->sc.replay = rp;
	return 0;
}

const char *tui_replay_root(const struct tui *t)
{
	return t->sc.replay ? replay_header(t->sc.replay->r)->root : NULL;
}

void tui_replay_close(struct tui *t)
{
	struct tui_replay *rp = t->sc.replay;

	if (!rp)
		return;
	if (rp->have_cur)
		snapshot_free(&rp->cur);
	if (rp->have_prev)
		snapshot_free(&rp->prev);
	replay_close(rp->r);
	free(rp);
	t->sc.replay = NULL;
	t->sc.snap = t->sc.prev = NULL;
}

/* The knob changes in force at the shown sample, from the recorded journal
 * events (one row per address: the oldest old value, the newest new one). */
static void replay_changes(struct tui *t)
{
	struct tui_replay *rp = t->sc.replay;
	size_t ne = replay_nevents(rp->r);

	free(t->sc.changes);
	t->sc.changes = xcalloc(ne ? ne : 1, sizeof(*t->sc.changes));
	t->sc.nchanges = t->nours = t->norphans = 0;
	for (size_t i = 0; i < ne; i++) {
		const struct replay_event *e = replay_event(rp->r, i);
		struct tui_change *c = NULL;
		size_t k;

		if (!tui_replay_event_shown(&t->sc, e) || strcmp(e->kind, "knob") || !e->addr[0])
			continue;
		for (k = 0; k < t->sc.nchanges; k++)
			if (!strcmp(t->sc.changes[k].addr, e->addr)) {
				c = &t->sc.changes[k];
				break;
			}
		if (!strcmp(e->state, "undone") || !strcmp(e->state, "failed")) {
			if (c) {
				memmove(c, c + 1, (t->sc.nchanges - k - 1) * sizeof(*c));
				t->sc.nchanges--;
			}
			continue;
		}
		if (!strcmp(e->state, "open") || !strcmp(e->state, "other boot") ||
		    !e->new_value[0])
			continue;
		if (!c) {
			c = &t->sc.changes[t->sc.nchanges++];
			str_copy(c->addr, sizeof(c->addr), e->addr);
			str_copy(c->old, sizeof(c->old), e->old_value);
		}
		str_copy(c->new_value, sizeof(c->new_value), e->new_value);
	}
}

bool tui_replay_event_shown(const struct screen_ctx *sc, const struct replay_event *e)
{
	const struct tui *t = tui_of_const(sc);
	const struct tui_replay *rp = t->sc.replay;

	return rp && e->at_ns <= replay_sample_time(rp->r, rp->idx);
}

/* Show sample i (and keep i-1 for the screens that want the previous one). */
void tui_replay_goto(struct tui *t, size_t i)
{
	struct tui_replay *rp = t->sc.replay;
	struct snapshot cur, prev;
	bool have_prev = false;
	int e;

	if (i >= rp->n)
		i = rp->n - 1;
	rp->idx = i;
	e = replay_sample(rp->r, i, &cur);
	if (e) {
		/* keep drawing the last good sample; the position still moves */
		tui_status(&t->sc, true, "REPLAY: sample %zu of %s cannot be read (%s)", i + 1,
			   rp->path, err_name(e));
		replay_changes(t);
		rebuild(t);
		return;
	}
	if (i > 0)
		have_prev = replay_sample(rp->r, i - 1, &prev) == 0;
	if (rp->have_cur)
		snapshot_free(&rp->cur);
	if (rp->have_prev)
		snapshot_free(&rp->prev);
	rp->cur = cur;
	rp->have_cur = true;
	if (have_prev)
		rp->prev = prev;
	rp->have_prev = have_prev;
	t->sc.snap = &rp->cur;
	t->sc.prev = have_prev ? &rp->prev : NULL;
	findings_free(&t->sc.findings);
	replay_findings(rp->r, i, &t->sc.findings);
	replay_changes(t);
	rebuild(t);
}

static uint64_t gap_ns(const struct tui_replay *rp)
{
	uint64_t a, b, g;

	if (rp->idx + 1 >= rp->n)
		return 1000000000ULL;
	a = replay_sample_time(rp->r, rp->idx);
	b = replay_sample_time(rp->r, rp->idx + 1);
	g = b > a ? b - a : 0;
	if (g > 60000000000ULL)
		g = 60000000000ULL; /* a recording that was stopped for a while */
	g = (uint64_t)((double)g / speeds[rp->speed]);
	return g < 20000000ULL ? 20000000ULL : g;
}

static void schedule(struct tui *t)
{
	struct tui_replay *rp = t->sc.replay;

	t->next_tick_ns = time_mono_ns() + (rp->paused ? 1000000000ULL : gap_ns(rp));
}

void tui_replay_timer(struct tui *t)
{
	struct tui_replay *rp = t->sc.replay;

	if (!rp->have_cur) {
		uint64_t span = replay_sample_time(rp->r, rp->n - 1) - rp->t0_ns;

		tui_replay_goto(t, rp->idx);
		if (!t->status[0])
			tui_status(&t->sc, false,
				   "REPLAY of %s: %zu sample%s over %.1f s, paused at the first: "
				   "space plays",
				   rp->path, rp->n, rp->n == 1 ? "" : "s", (double)span / 1e9);
		schedule(t);
		return;
	}
	if (!rp->paused && rp->idx + 1 < rp->n) {
		tui_replay_goto(t, rp->idx + 1);
		if (rp->idx + 1 >= rp->n) {
			rp->paused = true;
			tui_status(&t->sc, false,
				   "REPLAY: end of the recording (%zu samples): , or [ go back, { "
				   "to the start",
				   rp->n);
		}
	}
	schedule(t);
}

int tui_replay_key(struct tui *t, int ch)
{
	struct tui_replay *rp = t->sc.replay;
	size_t to;

	if (!rp)
		return HR_IGNORED;
	switch (ch) {
	case ' ':
		if (rp->paused && rp->idx + 1 >= rp->n) {
			tui_status(&t->sc, false, "REPLAY: at the end; , [ or { go back");
			return HR_HANDLED | HR_REDRAW;
		}
		rp->paused = !rp->paused;
		tui_status(&t->sc, false,
			   rp->paused ? "REPLAY: paused (space plays, . and , step)"
				      : "REPLAY: playing at x%g (space pauses)",
			   speeds[rp->speed]);
		schedule(t);
		return HR_HANDLED | HR_REDRAW;
	case '+':
	case '=':
	case '-':
	case '_':
		if ((ch == '+' || ch == '=') && rp->speed + 1 < NSPEEDS)
			rp->speed++;
		else if ((ch == '-' || ch == '_') && rp->speed > 0)
			rp->speed--;
		tui_status(&t->sc, false, "REPLAY: speed x%g", speeds[rp->speed]);
		if (!rp->paused)
			schedule(t);
		return HR_HANDLED | HR_REDRAW;
	case '.': to = replay_step(rp->r, rp->idx, 1); break;
	case ',': to = replay_step(rp->r, rp->idx, -1); break;
	case ']': to = replay_step(rp->r, rp->idx, 10); break;
	case '[': to = replay_step(rp->r, rp->idx, -10); break;
	case '}': to = rp->n - 1; break;
	case '{': to = 0; break;
	default: return HR_IGNORED;
	}
	if (ch == '.' || ch == ',')
		rp->paused = true; /* stepping is for looking closely */
	if (to + 1 >= rp->n)
		rp->paused = true;
	tui_replay_goto(t, to);
	schedule(t);
	return HR_HANDLED | HR_REDRAW;
}

/* Header line 2: "REPLAY sample 3/20 +2.0s 12:34:56 x1 PAUSED  file". */
int tui_replay_header(struct screen_ctx *sc, int y, int x)
{
	struct tui *t = tui_of(sc);
	struct tui_replay *rp = t->sc.replay;
	uint64_t ts = replay_sample_time(rp->r, rp->idx);
	time_t secs = (time_t)(ts / 1000000000ULL);
	struct tm lt;
	char clock[16] = "?";
	int x0 = x;

	if (localtime_r(&secs, &lt))
		strftime(clock, sizeof(clock), "%H:%M:%S", &lt);
	x += ui_put(&t->sc, y, x, COLS - x, ROLE_HEADER, "sample ");
	x += ui_printf(&t->sc, y, x, COLS - x, ROLE_HEADER_VALUE, "%zu/%zu", rp->idx + 1, rp->n) +
	     1;
	x += ui_printf(&t->sc, y, x, COLS - x, ROLE_HEADER_VALUE, "+%.1fs",
		       ts >= rp->t0_ns ? (double)(ts - rp->t0_ns) / 1e9 : 0.0) +
	     1;
	x += ui_printf(&t->sc, y, x, COLS - x, ROLE_HEADER, "%s x%g ", clock, speeds[rp->speed]);
	x += ui_printf(&t->sc, y, x, COLS - x, rp->paused ? ROLE_WARN : ROLE_OK, "%s",
		       rp->paused ? "PAUSED" : "playing") +
	     2;
	return x - x0;
}
