/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Lessons screen ('L'): the guided exercises of `tunetop learn`
 * (model/lessons.h, the same table and measurements), step by step:
 *
 *   1. explain   what is going on and the explain entries behind it;
 *   2. before    tunetop measures the board as it is (Enter), then tells the
 *                learner which knob to change and with which key: t makes
 *                the change here through the knob engine (journaled), or the
 *                learner makes it on another screen and presses m;
 *   3. after     tunetop measures again and shows before / after next to
 *                what changed and why;
 *   4. restore   Enter (or r) undoes the lesson's change (its transaction).
 *
 * Where a lesson runs: on the board the TUI shows (live, a fixture root or
 * --demo) when it has the interface and the TUI may write; otherwise on a
 * simulated RK3588 of its own (model/sim.h, a private temporary root and
 * journal). Lesson 5 acts on this machine's kernel: worker threads of this
 * tunetop, pinned through the knob engine (thread/TID/affinity). Leaving a
 * lesson (Esc) undoes what it changed. A measurement blocks the screen for
 * the second or two it takes (it says so first). Nothing runs in a replay. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "model/explain.h"
#include "model/lessons.h"
#include "model/sim.h"
#include "model/world.h"
#include "ui/tui.h"

enum lstep { L_LIST, L_EXPLAIN, L_BEFORE, L_AFTER, L_DONE };

struct lline {
	enum role role;
	char text[256];
};

struct lview {
	enum lstep step;
	size_t lesson;
	/* the board: the TUI's own, or a private one */
	bool tui_board;	     /* changes go through tui_set(), on t->knob */
	struct sim *sim;     /* private simulated board */
	struct world *world; /* private world (a lesson of its world only) */
	struct sysroot root; /* its root */
	bool root_open;
	struct knob_ctx *ctx; /* private knob engine (private board, or lesson 5 read-only) */
	char tmpstate[256];   /* private journal directory for lesson 5 ("" none) */
	char where[400];
	struct lesson_board lb;
	struct lesson_run run;
	struct lesson_metrics before, after;
	bool have_before, have_after;
	bool toggled, restored, self_changed;
	uint64_t txn;
	uint64_t setup_txn;	  /* the world's state the lesson is about (0: none) */
	char report[1024];	  /* what the change / the restore did */
	char shell[1024];	  /* the writes the change will make (knob engine dry run) */
	char not_in_effect[1024]; /* warnings of a change the board did not obey ("" none) */
	/* the page as lines (steps other than the list) */
	struct lline *lines;
	size_t nlines, cap;
};

/* ---- the board ----------------------------------------------------------------- */

static const char *tui_where(const struct screen_ctx *t)
{
	static char buf[200];

	if (t->sim)
		snprintf(buf, sizeof(buf), "the simulated %s of this demo", sim_board(t->sim));
	else if (t->root.live)
		snprintf(buf, sizeof(buf), "this machine (live)");
	else
		snprintf(buf, sizeof(buf), "root %s", t->root.path);
	return buf;
}

static void board_close(struct screen_ctx *t, struct lview *v)
{
	(void)t;
	lesson_workers_stop(&v->run);
	lesson_board_release(&v->lb);
	if (v->ctx)
		knob_ctx_close(v->ctx);
	v->ctx = NULL;
	if (v->root_open)
		sysroot_close(&v->root);
	v->root_open = false;
	sim_close(v->sim);
	v->sim = NULL;
	if (v->tmpstate[0])
		sim_rmtree(v->tmpstate);
	v->tmpstate[0] = '\0';
	world_close(v->world); /* a private world: its directory goes */
	v->world = NULL;
	memset(&v->lb, 0, sizeof(v->lb));
	v->tui_board = false;
}

/* A private board's root at dir and its knob engine with the journal in
 * state (what: the board, for the error); on error the board is closed. */
static int private_open(struct lview *v, const char *dir, const char *state, const char *what,
			char *err, size_t cap)
{
	char *cause = NULL;

	if (sysroot_open(&v->root, dir) != 0) {
		snprintf(err, cap, "cannot open %s", what);
		board_close(NULL, v);
		return -EIO;
	}
	v->root_open = true;
	if (knob_ctx_open(&v->ctx, &v->root, state, 0, &cause) != 0) {
		snprintf(err, cap, "%s", cause ? cause : "knob engine unavailable");
		free(cause);
		board_close(NULL, v);
		return -EIO;
	}
	v->lb.root = &v->root;
	return 0;
}

/* A lesson of its world only, away from it: that world of its own, in a
 * temporary directory with its journal (closed by board_close). */
static int world_open(struct lview *v, const struct lesson *l, char *err, size_t cap)
{
	if (world_open_temp(l->world, 0, &v->world, err, cap) != 0)
		return -EIO;
	if (private_open(v, world_root(v->world), sim_state_dir(world_sim(v->world)), "the world",
			 err, cap) != 0)
		return -EIO;
	v->lb.world = v->world;
	snprintf(v->where, sizeof(v->where),
		 "its world %s of its own (SIMULATED; tunetop --demo=%s shows it on every "
		 "screen)",
		 l->world, l->world);
	return 0;
}

static int board_open(struct screen_ctx *t, struct lview *v, const struct lesson *l, char *err,
		      size_t cap)
{
	char *cause = NULL, bundle[512];
	const char *why_not = NULL;
	char missing[256];
	bool tui_can = tui_cannot_write(t) == NULL;

	memset(&v->lb, 0, sizeof(v->lb));
	v->lb.stop = &tui_signal_pending;
	v->lb.clk_names = t->sampler.clk_names; /* --clocks / tunetoprc clocks= */
	/* --demo=NAME: the world measures every lesson on the TUI's board; the
	 * lesson of that world judges its latency there */
	v->lb.world = t->world;
	if (tui_can && t->world &&
	    (lesson_in_world(l, &v->lb) || lesson_root_has(&t->root, l->needs))) {
		v->tui_board = true;
		v->lb.root = &t->root;
		v->lb.sim = t->sim;
		snprintf(v->where, sizeof(v->where), "%s", tui_where(t));
		return 0;
	}
	v->lb.world = NULL;
	if (lesson_on_threads(l)) {
		v->lb.root = sysroot_live();
		if (tui_can) {
			v->tui_board = true;
		} else {
			/* our own threads need no root: a private journal is enough */
			const char *tmp = getenv("TMPDIR");

			snprintf(v->tmpstate, sizeof(v->tmpstate), "%s/tunetop-lesson.XXXXXX",
				 tmp && *tmp ? tmp : "/tmp");
			if (!mkdtemp(v->tmpstate)) {
				snprintf(err, cap, "cannot create a journal directory: %s",
					 strerror(errno));
				v->tmpstate[0] = '\0';
				return -errno;
			}
			if (knob_ctx_open(&v->ctx, sysroot_live(), v->tmpstate, 0, &cause) != 0) {
				snprintf(err, cap, "%s", cause ? cause : "knob engine unavailable");
				free(cause);
				board_close(t, v);
				return -EIO;
			}
		}
		snprintf(v->where, sizeof(v->where),
			 "this machine's kernel: worker threads of this tunetop");
		return 0;
	}
	if (tui_can && lesson_root_has(&t->root, l->needs)) {
		v->tui_board = true;
		v->lb.root = &t->root;
		v->lb.sim = t->sim;
		snprintf(v->where, sizeof(v->where), "%s", tui_where(t));
		return 0;
	}
	if (lesson_world_only(l))
		return world_open(v, l, err, cap);
	why_not = !lesson_root_has(&t->root, l->needs) ? "has no" : "may not change its";
	lesson_root_missing(&t->root, l->needs, missing, sizeof(missing));
	if (sim_find_bundle(bundle, sizeof(bundle)) != 0) {
		snprintf(err, cap, "this board %s %s and the simulated board is not installed",
			 why_not, l->needs);
		return -ENOENT;
	}
	if (sim_open(&v->sim, bundle, err, cap) != 0)
		return -EIO;
	sim_step(v->sim, 1.0);
	if (private_open(v, sim_root(v->sim), sim_state_dir(v->sim), "the simulated board", err,
			 cap) != 0)
		return -EIO;
	v->lb.sim = v->sim;
	if (lesson_root_has(&t->root, l->needs))
		snprintf(v->where, sizeof(v->where),
			 "a simulated %s of its own (%s %s %s we can change: writing needs root)",
			 sim_board(v->sim), t->sim ? "the demo" : "this board", why_not, l->needs);
	else
		snprintf(v->where, sizeof(v->where), "a simulated %s of its own (%s: %s)",
			 sim_board(v->sim), t->sim ? "the demo" : "this board", missing);
	return 0;
}

/* ---- changes --------------------------------------------------------------------- */

static struct knob_ctx *lesson_ctx(struct screen_ctx *t, struct lview *v)
{
	return v->tui_board ? (t ? t->knob : NULL) : v->ctx;
}

/* The newest transaction of this run (the one just made). */
static uint64_t newest_txn(struct knob_ctx *ctx)
{
	struct knob_jentry *e = NULL;
	size_t n = 0;
	int torn = 0;
	char *cause = NULL;
	uint64_t txn = 0;
	const char *run = knob_ctx_run_id(ctx);

	if (knob_journal_list(ctx, &e, &n, &torn, &cause) == 0) {
		for (size_t i = 0; i < n; i++)
			if (e[i].run && run && !strcmp(e[i].run, run) &&
			    e[i].state == KNOB_J_ACTIVE && e[i].txn > txn)
				txn = e[i].txn;
		knob_journal_free(e, n);
	}
	free(cause);
	return txn;
}

static int do_toggle(struct screen_ctx *t, struct lview *v)
{
	const char *as[LESSON_MAX_TOGGLES];
	const char *why = v->tui_board ? tui_cannot_write(t) : NULL;
	struct knob_ctx *ctx = lesson_ctx(t, v);
	/* on the TUI's board the change belongs to the session like any other
	 * (restored on quit unless --keep) */
	unsigned flags = v->tui_board && t->keep ? 0 : KNOB_SCOPED;
	struct sbuf rep;
	char *cause = NULL;
	int e;

	if (why || !ctx) {
		tui_status(t, true, "Refused: %s", why ? why : "no knob engine");
		return -EPERM;
	}
	for (size_t i = 0; i < v->run.nassign; i++)
		as[i] = v->run.assign[i];
	v->report[0] = '\0';
	sbuf_init(&rep);
	e = knob_set_many(ctx, as, NULL, v->run.nassign, flags, &rep, &cause);
	if (e) {
		char first[200];

		snprintf(first, sizeof(first), "%s", cause ? cause : err_name(e));
		if (strchr(first, '\n'))
			*strchr(first, '\n') = '\0';
		tui_status(t, true, "Refused: %s", first);
	} else {
		snprintf(v->report, sizeof(v->report), "%s", rep.s ? rep.s : "");
		tui_status(t, false, "Lesson: changed through the knob engine (Enter restores)");
	}
	free(cause);
	sbuf_free(&rep);
	if (v->tui_board)
		tui_reload_journal(t);
	if (e)
		return e;
	v->toggled = true;
	v->restored = false;
	v->txn = newest_txn(ctx);
	return 0;
}

static void do_restore(struct screen_ctx *t, struct lview *v)
{
	struct knob_ctx *ctx = lesson_ctx(t, v);
	struct sbuf rep;
	char *cause = NULL;

	if (!v->toggled || v->restored || !ctx || !v->txn)
		return;
	sbuf_init(&rep);
	if (knob_undo_id(ctx, v->txn, 0, &rep, &cause) == 0) {
		snprintf(v->report, sizeof(v->report), "%s",
			 rep.len ? rep.s : "nothing left to restore (already undone)");
		if (t)
			tui_status(t, false, "Lesson: restored");
	} else {
		snprintf(v->report, sizeof(v->report), "restore failed: %s (U restores all)",
			 cause ? cause : "?");
		if (t)
			tui_status(t, true, "Lesson: restore failed: %s", cause ? cause : "?");
	}
	v->restored = true;
	free(cause);
	sbuf_free(&rep);
	if (v->tui_board && t)
		tui_reload_journal(t);
}

/* Leave the lesson: undo its change and its world setup, close its board. */
static void leave(struct screen_ctx *t, struct lview *v)
{
	do_restore(t, v);
	if (v->setup_txn) {
		v->toggled = true;
		v->restored = false;
		v->txn = v->setup_txn;
		v->setup_txn = 0;
		do_restore(t, v);
	}
	board_close(t, v);
	v->toggled = v->restored = v->self_changed = false;
	v->have_before = v->have_after = false;
	v->txn = 0;
	v->report[0] = '\0';
	v->not_in_effect[0] = '\0';
	memset(&v->run, 0, sizeof(v->run));
	v->step = L_LIST;
}

/* ---- measuring ----------------------------------------------------------------------- */

static void measure(struct screen_ctx *t, struct lview *v, struct lesson_metrics *m)
{
	const struct lesson *l = lesson_at(v->lesson);

	tui_status(t, false, "Measuring %s for %.1f s...", v->where, l->measure_s);
	tui_draw(t);
	lesson_measure(&v->run, m);
	if (v->tui_board && !lesson_uses_workers(l, &v->lb)) {
		/* the simulator was advanced while measuring: the TUI's clock
		 * restarts from here, and its screens show the new state */
		t->last_tick_ns = time_mono_ns();
		t->tick_all = true;
		t->want_tick = true; /* the loop samples before it draws */
	}
	tui_status_clear(t);
}

static int start_lesson(struct screen_ctx *t, struct screen *s, struct lview *v, size_t i)
{
	char err[256] = "";
	const struct lesson *l = lesson_at(i);

	if (!l)
		return HR_HANDLED;
	if (t->replay) {
		tui_status(t, true,
			   "Refused: lessons measure a live or simulated board, not a replay");
		return HR_HANDLED | HR_REDRAW;
	}
	leave(t, v);
	if (board_open(t, v, l, err, sizeof(err)) != 0) {
		tui_status(t, true, "Lesson %zu: %s", i + 1, err[0] ? err : "cannot start");
		return HR_HANDLED | HR_REDRAW;
	}
	v->lesson = i;
	memset(&v->run, 0, sizeof(v->run));
	v->run.b = &v->lb;
	v->run.l = l;
	v->run.worker_cpu = -1;
	v->step = L_EXPLAIN;
	s->sel = 0;
	return HR_HANDLED | HR_REDRAW;
}

static int measure_before(struct screen_ctx *t, struct screen *s, struct lview *v)
{
	const struct lesson *l = lesson_at(v->lesson);

	if (lesson_uses_workers(l, &v->lb) && lesson_workers_start(&v->run) != 0) {
		tui_status(t, true, "Lesson: cannot start the worker threads");
		return HR_HANDLED | HR_REDRAW;
	}
	if (!v->setup_txn && lesson_resolve_setup(&v->run)) {
		/* the world's state the lesson is about, its own transaction */
		if (do_toggle(t, v) != 0)
			return HR_HANDLED | HR_REDRAW;
		v->setup_txn = v->txn;
		v->toggled = false;
		v->txn = 0;
	}
	measure(t, v, &v->before);
	v->have_before = true;
	if (!lesson_resolve_toggles(&v->run, lesson_board_snapshot(&v->lb))) {
		tui_status(t, true, "Lesson: nothing to toggle on this board");
		v->run.nassign = 0;
	}
	v->shell[0] = '\0';
	if (v->run.nassign && !lesson_uses_workers(l, &v->lb) && lesson_ctx(t, v)) {
		struct sbuf sh;
		char *cause = NULL;

		sbuf_init(&sh);
		if (lesson_shell_lines(lesson_ctx(t, v), &v->run, &sh, &cause) == 0)
			str_copy(v->shell, sizeof(v->shell), sh.len ? sh.s : "");
		else
			snprintf(v->shell, sizeof(v->shell), "cannot be made: %s",
				 cause ? cause : "?");
		free(cause);
		sbuf_free(&sh);
	}
	v->step = L_BEFORE;
	s->sel = 0;
	if (v->run.nassign)
		tui_status(t, false, "Your turn: t makes the change (%s%s), m measures again",
			   v->run.assign[0], v->run.nassign > 1 ? " ..." : "");
	return HR_HANDLED | HR_REDRAW;
}

static int measure_after(struct screen_ctx *t, struct screen *s, struct lview *v)
{
	struct knob_ctx *ctx =
		lesson_uses_workers(lesson_at(v->lesson), &v->lb) ? NULL : lesson_ctx(t, v);
	struct knob_effect_watch *w[LESSON_MAX_TOGGLES] = {0};
	struct sbuf ne;

	/* does the board obey the change while the lesson measures? */
	for (size_t i = 0; ctx && i < v->run.nassign && i < LESSON_MAX_TOGGLES; i++) {
		char addr[KNOB_ADDR_MAX];
		const char *eq = strchr(v->run.assign[i], '=');

		if (!eq || (size_t)(eq - v->run.assign[i]) >= sizeof(addr))
			continue;
		memcpy(addr, v->run.assign[i], (size_t)(eq - v->run.assign[i]));
		addr[eq - v->run.assign[i]] = '\0';
		w[i] = knob_effect_begin_addr(ctx, addr, eq + 1);
	}
	measure(t, v, &v->after);
	sbuf_init(&ne);
	for (size_t i = 0; i < LESSON_MAX_TOGGLES; i++) {
		if (!w[i])
			continue;
		knob_effect_end(ctx, w[i], KNOB_QUIET | KNOB_EFFECT_NO_RECORD, &ne);
		knob_effect_free(w[i]);
	}
	snprintf(v->not_in_effect, sizeof(v->not_in_effect), "%s", ne.s ? ne.s : "");
	sbuf_free(&ne);
	v->have_after = true;
	v->step = L_AFTER;
	s->sel = 0;
	tui_status(t, false, "%s",
		   v->toggled ? "Measured after the change: Enter restores, Down scrolls to why"
			      : "Measured again: Enter ends the lesson, Down scrolls to why");
	return HR_HANDLED | HR_REDRAW;
}

/* ---- the page ------------------------------------------------------------------------ */

static void add(struct lview *v, enum role r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add(struct lview *v, enum role r, const char *fmt, ...)
{
	va_list ap;

	v->lines = xgrow(v->lines, &v->cap, v->nlines + 1, sizeof(*v->lines));
	v->lines[v->nlines].role = r;
	va_start(ap, fmt);
	vsnprintf(v->lines[v->nlines].text, sizeof(v->lines[0].text), fmt, ap);
	va_end(ap);
	v->nlines++;
}

static void add_wrapped(struct lview *v, enum role r, const char *lead, const char *text)
{
	int w = COLS - (int)strlen(lead) - 1;
	const char *p = text;

	if (w < 20)
		w = 20;
	while (p && *p) {
		int len = str_wrap_len(p, w);

		add(v, r, "%s%.*s", lead, len, p);
		p = str_wrap_next(p, len);
	}
}

static void add_metrics(struct lview *v, const struct lesson_metrics *b,
			const struct lesson_metrics *a)
{
	add(v, ROLE_COLHEAD, "  %-44s %14s %14s", "", "before", a ? "after" : "");
	for (size_t i = 0; i < b->n; i++) {
		const struct lesson_metric *x = &b->m[i], *y = a && i < a->n ? &a->m[i] : NULL;
		char vb[32], va[32] = "";
		bool moved;

		lesson_metric_value(x, vb, sizeof(vb));
		if (y)
			lesson_metric_value(y, va, sizeof(va));
		moved = y && strcmp(va, vb);
		add(v, moved ? ROLE_CHANGED : ROLE_VALUE, "  %-44.44s %14s %14s", x->name, vb, va);
		if (x->note[0] && y && y->note[0] && strcmp(x->note, y->note))
			add(v, ROLE_LABEL, "  %-44s %14.14s %14.14s", "", x->note, y->note);
		else if (x->note[0])
			add(v, ROLE_LABEL, "  %-44s (%s)", "", x->note);
		else if (y && y->note[0])
			add(v, ROLE_LABEL, "  %-44s (%s)", "", y->note);
	}
}

static void add_report(struct lview *v, const char *text)
{
	char buf[1024], *save = NULL;

	str_copy(buf, sizeof(buf), text);
	for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		add(v, ROLE_VALUE, "    %s", l);
}

/* What the lesson's own write did (toggled: made, and its report), or
 * none when the user changed the knob, then a blank line. */
static void add_outcome(struct lview *v, const char *made, const char *none)
{
	add(v, ROLE_LABEL, "%s", v->toggled ? made : none);
	if (v->toggled)
		add_report(v, v->report);
	add(v, ROLE_DEFAULT, " ");
}

static void build_page(struct screen_ctx *t, struct lview *v)
{
	const struct lesson *l = lesson_at(v->lesson);
	static const char *const steps[] = {"", "1/4 what is going on", "2/4 before: your turn",
					    "3/4 after: what changed and why", "4/4 restored"};

	v->nlines = 0;
	add(v, ROLE_TITLE, "Lesson %zu of %zu: %s   (step %s)", v->lesson + 1, lesson_count(),
	    l->title, steps[v->step]);
	{
		char runs[420];

		snprintf(runs, sizeof(runs), "Runs on %s", v->where);
		add_wrapped(v, v->sim || v->world || t->sim ? ROLE_SIMULATED : ROLE_LABEL, "",
			    runs);
	}
	add(v, ROLE_DEFAULT, " ");
	switch (v->step) {
	case L_EXPLAIN:
		add_wrapped(v, ROLE_VALUE, "  ", l->intro);
		for (size_t i = 0; i < 3 && l->explain[i]; i++) {
			const struct explain_entry *x = explain_find(l->explain[i]);

			if (!x)
				continue;
			add(v, ROLE_DEFAULT, " ");
			add(v, ROLE_TITLE, "  %s - %s", x->key, x->title);
			add_wrapped(v, ROLE_VALUE, "    ", x->why);
			if (explain_cites_field_notes(x))
				add_wrapped(v, ROLE_LABEL, "    ", "(" EXPLAIN_FIELD_NOTES ")");
		}
		add(v, ROLE_DEFAULT, " ");
		add(v, ROLE_OK, "Enter: measure the board as it is now (%.1f s)    Esc: the list",
		    l->measure_s);
		break;
	case L_BEFORE:
		add(v, ROLE_LABEL, "Measured before the change:");
		add_metrics(v, &v->before, NULL);
		add(v, ROLE_DEFAULT, " ");
		if (!v->run.nassign) {
			add(v, ROLE_WARN, "Nothing to toggle on this board.  Esc: the list");
			break;
		}
		add(v, ROLE_OK, "Your turn: press t to make this change through the knob engine");
		add(v, ROLE_OK, "(journaled; it is undone when the lesson ends):");
		for (size_t i = 0; i < v->run.nassign; i++)
			add(v, ROLE_CHANGED, "    %s", v->run.assign[i]);
		if (v->shell[0]) {
			add(v, ROLE_LABEL, "  the writes, as shell lines:");
			add_report(v, v->shell);
		}
		add_wrapped(v, ROLE_LABEL, "  elsewhere: ", l->toggle_hint);
		if (v->tui_board && !lesson_uses_workers(l, &v->lb))
			add(v, ROLE_LABEL,
			    "  made it yourself on that screen? m measures now without changing "
			    "anything");
		break;
	case L_AFTER:
		add_outcome(v, "The change:", "You made the change yourself.");
		add_metrics(v, &v->before, &v->after);
		add(v, ROLE_DEFAULT, " ");
		add(v, ROLE_TITLE, "What changed");
		{
			struct sbuf vd;

			sbuf_init(&vd);
			if (v->not_in_effect[0]) {
				/* the numbers compare the board with itself */
				add_wrapped(v, ROLE_ALERT, "  ", v->not_in_effect);
				add_wrapped(
					v, ROLE_VALUE, "  ",
					"No conclusion: the change was not in effect while the "
					"lesson measured, so the numbers above compare the board "
					"with itself. Make the kernel obey first (the warning says "
					"how), then measure again.");
			} else {
				lesson_verdict(&v->run, &v->before, &v->after, &vd);
				add_wrapped(v, ROLE_VALUE, "  ", vd.s);
			}
			sbuf_free(&vd);
		}
		add(v, ROLE_DEFAULT, " ");
		add(v, ROLE_TITLE, "Why (background)");
		add_wrapped(v, ROLE_VALUE, "  ", l->after);
		add(v, ROLE_DEFAULT, " ");
		add(v, ROLE_OK, "%s",
		    v->toggled
			    ? "Enter or r: restore (undo the lesson's change)    m: measure again"
			    : "Enter: done (u undoes your change)    m: measure again");
		break;
	case L_DONE:
		add_outcome(v, "Restored:", "Nothing of the lesson's to restore.");
		add(v, ROLE_OK, "%s",
		    v->lesson + 1 < lesson_count() ? "Enter: the next lesson    Esc: the list"
						   : "Enter or Esc: the list");
		break;
	default: break;
	}
}

/* ---- the screen ---------------------------------------------------------------------- */

void screen_lessons_build(struct screen_ctx *t, struct screen *s)
{
	struct lview *v = s->priv;

	if (!v)
		v = s->priv = xcalloc(1, sizeof(*v));
	if (v->step == L_LIST) {
		s->heading_lines = 2;
		s->nrows = (int)lesson_count();
		return;
	}
	s->heading_lines = 0;
	build_page(t, v);
	s->nrows = (int)v->nlines;
}

static const char *runs_on(struct screen_ctx *t, const struct lesson *l)
{
	struct lesson_board wb = {.world = t->world};

	if (lesson_uses_workers(l, &wb))
		return "this machine's kernel";
	if (t->replay)
		return "(not in a replay)";
	if (tui_cannot_write(t) == NULL && lesson_in_world(l, &wb))
		return tui_where(t);
	if (lesson_world_only(l))
		return "its world of its own (SIMULATED)";
	if (tui_cannot_write(t) == NULL && lesson_root_has(&t->root, l->needs))
		return tui_where(t);
	return "a simulated RK3588 of its own";
}

void screen_lessons_draw(struct screen_ctx *t, struct screen *s, int y, int h)
{
	struct lview *v = s->priv;

	for (int i = 0; i < h; i++)
		ui_fill(t, y + i, 0, COLS, ROLE_DEFAULT);
	if (!v)
		return;
	if (v->step == L_LIST) {
		ui_put(t, y, 0, COLS, ROLE_TITLE,
		       "Lessons: explain -> you change one knob -> tunetop measures -> what "
		       "changed and why -> restore");
		ui_colhead(t, y + 1, "  #  Lesson                                  Runs on");
		for (int i = 0; i < s->nrows && i + 2 < h; i++) {
			const struct lesson *l = lesson_at((size_t)i);
			bool sel = i == s->sel;

			ui_fill(t, y + 2 + i, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
			ui_printf(t, y + 2 + i, 0, COLS, sel ? ROLE_CURSOR : ROLE_VALUE,
				  "  %d  %-38s  %s", i + 1, l->title, runs_on(t, l));
		}
		if (s->nrows + 3 < h)
			ui_put(t, y + s->nrows + 3, 2, COLS - 2, ROLE_LABEL,
			       "Enter starts the selected lesson (the same lessons as 'tunetop "
			       "learn N' in a terminal)");
		return;
	}
	/* a page: scroll by the view, keep sel at the top line; when it does
	 * not fit, the last line says where the view is */
	if ((int)v->nlines > h && h > 2) {
		char pos[64];

		h--;
		snprintf(pos, sizeof(pos), "-- lines %d-%d of %zu: Up / Down / PgDn --",
			 (s->sel < (int)v->nlines - h ? s->sel : (int)v->nlines - h) + 1,
			 (s->sel < (int)v->nlines - h ? s->sel : (int)v->nlines - h) + h,
			 v->nlines);
		ui_put(t, y + h, 0, COLS, ROLE_LABEL, pos);
	}
	if (s->sel > (int)v->nlines - h)
		s->sel = (int)v->nlines - h > 0 ? (int)v->nlines - h : 0;
	s->top = s->sel;
	for (int i = 0; i < h && (size_t)(s->top + i) < v->nlines; i++) {
		const struct lline *ln = &v->lines[s->top + i];

		ui_put(t, y + i, 0, COLS, ln->role, ln->text);
	}
}

int screen_lessons_key(struct screen_ctx *t, struct screen *s, int ch)
{
	struct lview *v = s->priv;
	bool enter = ch == '\n' || ch == '\r' || ch == KEY_ENTER;

	if (!v)
		return HR_IGNORED;
	if (v->step == L_LIST) {
		if (enter || ch == KEY_RIGHT)
			return start_lesson(t, s, v, (size_t)(s->sel >= 0 ? s->sel : 0));
		return HR_IGNORED;
	}
	if (ch == 27 || ch == KEY_LEFT || ch == KEY_BACKSPACE) {
		size_t i = v->lesson;

		leave(t, v);
		s->sel = (int)i;
		return HR_HANDLED | HR_RESCAN | HR_REDRAW;
	}
	switch (v->step) {
	case L_EXPLAIN:
		if (enter)
			return measure_before(t, s, v);
		break;
	case L_BEFORE:
		if (ch == 't' && v->run.nassign) {
			if (do_toggle(t, v) != 0)
				return HR_HANDLED | HR_RESCAN | HR_REDRAW;
			return measure_after(t, s, v) | HR_RESCAN;
		}
		if (ch == 'm' && v->run.nassign) {
			v->self_changed = true;
			return measure_after(t, s, v);
		}
		if (enter) {
			tui_status(t, false,
				   "Press t to make the change (or m to measure if you made it)");
			return HR_HANDLED | HR_REDRAW;
		}
		break;
	case L_AFTER:
		if (ch == 'm')
			return measure_after(t, s, v);
		if (enter || (ch == 'r' && v->toggled)) {
			do_restore(t, v);
			v->step = L_DONE;
			s->sel = 0;
			return HR_HANDLED | HR_RESCAN | HR_REDRAW;
		}
		break;
	case L_DONE:
		if (enter) {
			size_t next = v->lesson + 1;

			if (next < lesson_count())
				return start_lesson(t, s, v, next);
			leave(t, v);
			s->sel = (int)next - 1;
			return HR_HANDLED | HR_REDRAW;
		}
		break;
	default: break;
	}
	return HR_IGNORED;
}

int screen_lessons_explain(struct screen_ctx *t, struct screen *s, struct explain_item *it, int max)
{
	struct lview *v = s->priv;
	const struct lesson *l;
	int n = 0;

	(void)t;
	if (!v)
		return 0;
	l = lesson_at(v->step == L_LIST ? (size_t)(s->sel >= 0 ? s->sel : 0) : v->lesson);
	for (size_t i = 0; l && i < 3 && l->explain[i]; i++) {
		const struct explain_entry *x = explain_find(l->explain[i]);

		if (x)
			n = ui_explain_add(it, n, max, x->title, "%s", x->key);
	}
	return n;
}

void screen_lessons_free(struct screen *s)
{
	struct lview *v = s->priv;

	if (v) {
		/* the TUI is going: a change on its board follows the quit dialog
		 * (restore or keep); a private board is undone and removed */
		if (!v->tui_board)
			do_restore(NULL, v);
		board_close(NULL, v);
		free(v->lines);
	}
	free(v);
	s->priv = NULL;
}
