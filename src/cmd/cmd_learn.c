/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `tunetop learn [N]`: the guided lessons of model/lessons.h in text mode.
 * The runner does explain -> toggle -> measure -> compare -> restore, on the
 * live board when it has the interfaces (and we may write them), otherwise
 * on the simulated RK3588 of --demo (model/sim.h), or on --root DIR. Every
 * change goes through the knob engine (journaled, scoped to this run) and
 * is restored at the end, on Ctrl-C too. The TUI's Lessons screen
 * (src/ui/screen_lessons.c) runs the same lessons. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/common.h"
#include "cmd/cmd.h"
#include "core/cpumask.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "knob/knob.h"
#include "model/explain.h"
#include "model/lessons.h"
#include "model/record.h"
#include "out/report.h"
#include "model/sim.h"
#include "model/world.h"
#include "model/snapshot.h"

#define NLESSONS lesson_count()

/* Where the lesson runs. */
struct board {
	struct sysroot *root;	 /* the runner's --root, or sim_root */
	struct sysroot sim_root; /* the simulated board's, open when root is it */
	struct sim *sim;	 /* the simulated board, or NULL */
	struct world *world;	 /* --root on a world (model/world.h), or NULL */
	const char *state_dir;
	const char *root_arg; /* what to pass as --root in printed commands ("" = live) */
	struct knob_ctx *ctx;
	struct recorder *rec;
	bool demo_label;
	struct lesson_board lb; /* what the measurements use */
};

static volatile sig_atomic_t learn_stop;
/* learn --demo=WORLD: the world to run the lessons in (model/world.h);
 * LEARN_OWN_WORLD: each lesson's own (struct lesson's .world) */
static const char *learn_world;
#define LEARN_OWN_WORLD "world"

static void on_signal(int sig)
{
	(void)sig;
	learn_stop = 1;
}

static void board_close(struct board *b)
{
	if (b->rec) {
		record_close(b->rec);
		b->rec = NULL;
	}
	if (b->ctx)
		knob_ctx_close(b->ctx);
	b->ctx = NULL;
	lesson_board_release(&b->lb);
	if (b->root == &b->sim_root)
		sysroot_close(&b->sim_root);
	b->root = NULL;
	sim_close(b->sim);
	b->sim = NULL;
	world_close(b->world);
	b->world = NULL;
}

/* wname: the world of --demo=NAME (LEARN_OWN_WORLD: the lesson's), or NULL */
static int board_open_in(struct board *b, struct cmd_ctx *cx, const struct lesson *l, bool demo,
			 const char *wname, const char *record_path, enum record_format rfmt,
			 bool auto_mode)
{
	const struct tt_opts *o = cx->o;
	char *cause = NULL, bundle[512], err[256];
	bool live = !strcmp(o->root, "/");

	memset(b, 0, sizeof(*b));
	b->state_dir = o->state_dir;
	b->root_arg = live ? "" : o->root;
	/* a lesson of its world only: the live machine and the plain demo
	 * are that world */
	if (lesson_world_only(l) && (live || demo) &&
	    !(wname && (!strcmp(wname, LEARN_OWN_WORLD) || !strcmp(wname, l->world)))) {
		printf("This lesson runs only in its world %s (SIMULATED): running it there.\n\n",
		       l->world);
		demo = true;
		wname = l->world;
	}
	if (lesson_on_threads(l) && !(demo && wname))
		demo = false; /* threads are live, except in the lesson's world */
	else if (!demo && live) {
		if (cx->root_open) {
			char why[256];
			const char *missing =
				lesson_root_missing(&cx->root, l->needs, why, sizeof(why));
			bool ok = !missing && (geteuid() == 0 || !auto_mode);

			if (missing)
				printf("This machine cannot run this lesson: %s. Using the "
				       "simulated "
				       "RK3588.\n\n",
				       missing);
			else if (!ok)
				printf("This machine has the %s interface, but changing it needs "
				       "root "
				       "(run as root for this machine). Using the simulated "
				       "RK3588.\n\n",
				       l->needs);
			demo = !ok;
		}
	}
	if (demo && wname) {
		/* a world in a temporary directory: it steps while the lesson
		 * measures and its probe is the one measured; --demo=world: the
		 * lesson's own */
		const char *name = strcmp(wname, LEARN_OWN_WORLD) ? wname : l->world;

		if (world_open_temp(name, 0, &b->world, err, sizeof(err)) != 0) {
			cmd_error("learn", 0, "%s", err);
			return -EIO;
		}
		b->state_dir = sim_state_dir(world_sim(b->world));
		b->root_arg = world_root(b->world);
		b->demo_label = true;
	} else if (demo) {
		int r = sim_find_bundle(bundle, sizeof(bundle));

		if (r == -ENOTSUP) {
			cmd_error("learn", 0, SIM_NOT_BUILT);
			return r;
		}
		if (r != 0) {
			cmd_error("learn", 0, "the demo board is not installed (rk3588-demo.tar)");
			return -ENOENT;
		}
		if (sim_open(&b->sim, bundle, err, sizeof(err)) != 0) {
			cmd_error("learn", 0, "%s", err);
			return -EIO;
		}
		b->state_dir = sim_state_dir(b->sim);
		b->root_arg = sim_root(b->sim);
		b->demo_label = true;
	}
	/* the simulated board is a root of its own; else the runner's --root */
	if (b->sim || b->world) {
		if (cmd_open_root("learn", b->sim ? sim_root(b->sim) : world_root(b->world),
				  &b->sim_root)) {
			board_close(b);
			return -ENOENT;
		}
		b->root = &b->sim_root;
	} else {
		b->root = &cx->root;
		/* a world's tree: it moves while the lesson measures, and its
		 * probe is the one measured */
		if (!live)
			b->world = cmd_world_attach(o->root, "learn");
	}
	if (cmd_engine_open("learn", b->root, b->state_dir, KNOB_READONLY_OK, o->quiet, &b->ctx)) {
		board_close(b);
		return -EIO;
	}
	if (record_path) {
		struct record_meta meta = {.source = b->sim ? "demo" : "learn",
					   .root_path = b->root->path,
					   .interval_ms = LESSON_TICK_S * 1000,
					   .simulated = b->sim != NULL,
					   .board = b->sim ? sim_board(b->sim) : NULL,
					   .journal_root = b->root,
					   .state_dir = b->state_dir,
					   .format = rfmt,
					   .snapshot_json = report_record_json};

		cause = NULL;
		if (record_open(&b->rec, record_path, &meta, &cause) != 0) {
			cmd_error("learn", 0, "%s", cause);
			free(cause);
			board_close(b);
			return -EIO;
		}
	}
	b->lb.root = b->root;
	b->lb.clk_names = o->clocks;
	b->lb.sim = b->sim;
	b->lb.world = b->world;
	b->lb.rec = b->rec;
	b->lb.stop = &learn_stop;
	return 0;
}

static int board_open(struct board *b, struct cmd_ctx *cx, const struct lesson *l, bool demo,
		      const char *record_path, enum record_format rfmt, bool auto_mode)
{
	int r = board_open_in(b, cx, l, demo, demo ? learn_world : NULL, record_path, rfmt,
			      auto_mode);

	if (r || !lesson_world_only(l) || lesson_in_world(l, &b->lb))
		return r;
	/* a lesson of its world only, on a board that is not that world */
	board_close(b);
	printf("This lesson runs only in its world %s (SIMULATED): running it there.\n\n",
	       l->world);
	return board_open_in(b, cx, l, true, l->world, record_path, rfmt, auto_mode);
}

/* ---- runner ---------------------------------------------------------------------- */

/* Word-wrap each line of text (lines split on '\n') after lead. */
/* Progress on a terminal while a measurement runs (it blocks for seconds):
 * a ticker thread rewrites one line on stderr every 0.5 s and clears it when
 * the measurement ends. Nothing is printed when stderr is not a terminal. */
struct ticker {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool done;
	double total_s;
	const char *what;
};

static void *ticker_run(void *arg)
{
	struct ticker *t = arg;
	struct timespec start, until;
	double done_s = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	pthread_mutex_lock(&t->mu);
	while (!t->done) {
		until = start;
		done_s += 0.5;
		until.tv_sec += (time_t)done_s;
		until.tv_nsec += (long)((done_s - (double)(time_t)done_s) * 1e9);
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		if (pthread_cond_timedwait(&t->cv, &t->mu, &until) == 0 || t->done)
			break;
		fprintf(stderr, "\r  %s: %.1f of %.1f s\033[K", t->what,
			done_s < t->total_s ? done_s : t->total_s, t->total_s);
		fflush(stderr);
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

/* lesson_measure, with the ticker when stderr is a terminal. */
static void measure(struct lesson_run *e, struct lesson_metrics *m, double total_s,
		    const char *what)
{
	struct ticker t = {.total_s = total_s, .what = what};
	pthread_condattr_t ca;
	pthread_t th;
	bool started = false;

	if (isatty(STDERR_FILENO)) {
		fflush(stdout);
		pthread_mutex_init(&t.mu, NULL);
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&t.cv, &ca);
		pthread_condattr_destroy(&ca);
		started = pthread_create(&th, NULL, ticker_run, &t) == 0;
	}
	lesson_measure(e, m);
	if (!started)
		return;
	pthread_mutex_lock(&t.mu);
	t.done = true;
	pthread_cond_signal(&t.cv);
	pthread_mutex_unlock(&t.mu);
	pthread_join(th, NULL);
	fputs("\r\033[K", stderr); /* the numbers follow on a clean line */
	pthread_cond_destroy(&t.cv);
	pthread_mutex_destroy(&t.mu);
}

static void wrap_print(const char *text, const char *lead)
{
	const char *p = text;
	int width = 76;

	while (*p) {
		int len = str_wrap_len(p, width);

		printf("%s%.*s\n", lead, len, p);
		p += len;
		while (*p == ' ' || *p == '\n')
			p++;
	}
}

static void print_metrics(const struct lesson_metrics *before, const struct lesson_metrics *after)
{
	printf("  %-44s %14s %14s\n", "", "before", after ? "after" : "");
	for (size_t i = 0; i < before->n; i++) {
		const struct lesson_metric *a = &before->m[i];
		const struct lesson_metric *b = NULL;
		char va[32], vb[32] = "";

		/* match by position; names may carry the governor, which changes */
		if (after && i < after->n)
			b = &after->m[i];
		if (isnan(a->v))
			snprintf(va, sizeof(va), "n/a");
		else
			snprintf(va, sizeof(va), "%.1f %s", a->v, a->unit);
		if (b && isnan(b->v))
			snprintf(vb, sizeof(vb), "n/a");
		else if (b)
			snprintf(vb, sizeof(vb), "%.1f %s", b->v, b->unit);
		printf("  %-44.44s %14s %14s\n", a->name, va, vb);
		if (a->note[0] && b && b->note[0] && strcmp(a->note, b->note) && !isnan(a->v))
			printf("  %-44s %14.14s %14.14s\n", "", a->note, b->note);
		else if (a->note[0])
			printf("  %-44s (%s)\n", "", a->note);
		else if (b && b->note[0])
			printf("  %-44s (%s)\n", "", b->note);
	}
}

static int apply_toggles(struct board *b, struct lesson_run *e, bool thread_lesson,
			 cpu_set_t *saved)
{
	const char *as[4];
	struct sbuf rep;
	char *cause = NULL;
	int r;

	if (thread_lesson) {
		cpu_set_t set;

		/* Our own worker thread: a live syscall on a thread this process
		 * started; restored below. */
		sched_getaffinity(e->worker_tid, sizeof(*saved), saved);
		CPU_ZERO(&set);
		CPU_SET(e->worker_cpu >= 0 ? e->worker_cpu : 0, &set);
		if (sched_setaffinity(e->worker_tid, sizeof(set), &set) != 0) {
			printf("  could not pin the worker: %s\n", strerror(errno));
			return -errno;
		}
		printf("  done: taskset -pc %d %d\n", e->worker_cpu >= 0 ? e->worker_cpu : 0,
		       (int)e->worker_tid);
		if (b->rec)
			record_event(b->rec, "knob", e->assign[0], "all CPUs", NULL,
				     "pinned by tunetop learn");
		return 0;
	}
	for (size_t i = 0; i < e->nassign; i++)
		as[i] = e->assign[i];
	sbuf_init(&rep);
	r = knob_set_many(b->ctx, as, NULL, e->nassign, KNOB_SCOPED, &rep, &cause);
	if (rep.len) {
		printf("  done:\n");
		wrap_print(rep.s, "    ");
	}
	if (r) {
		printf("  the change failed: %s\n", cause ? cause : "?");
	}
	free(cause);
	sbuf_free(&rep);
	return r;
}

static void restore(struct board *b, struct lesson_run *e, bool thread_lesson,
		    const cpu_set_t *saved)
{
	struct sbuf rep;
	char *cause = NULL;

	if (thread_lesson) {
		sched_setaffinity(e->worker_tid, sizeof(*saved), saved);
		printf("  restored the worker's affinity\n");
		return;
	}
	sbuf_init(&rep);
	if (knob_restore_run(b->ctx, knob_ctx_run_id(b->ctx), 0, &rep, &cause) != 0)
		printf("  restore: %s (run 'tunetop restore')\n", cause ? cause : "failed");
	else if (rep.len)
		wrap_print(rep.s, "  ");
	else
		printf("  nothing to restore\n");
	free(cause);
	sbuf_free(&rep);
}

/* Interactive: wait for the learner; returns true when tunetop should do it. */
static bool ask_learner(const struct board *b, const struct lesson_run *e)
{
	char line[64];

	printf("\n  Your turn. In another terminal run:\n");
	for (size_t i = 0; i < e->nassign; i++) {
		int tid;
		bool proc;

		if (knob_addr_task(e->assign[i], &tid, &proc) == 0 && !proc) {
			printf("    taskset -pc %d %d\n", e->worker_cpu >= 0 ? e->worker_cpu : 0,
			       (int)e->worker_tid);
			continue;
		}
		printf("    tunetop%s%s%s%s set %s\n", b->root_arg[0] ? " --root " : "",
		       b->root_arg, b->sim ? " --state-dir " : "", b->sim ? b->state_dir : "",
		       e->assign[i]);
	}
	printf("  (%s)\n", e->l->toggle_hint);
	printf("  Press Enter when done, or type 'd' and Enter to let tunetop do it: ");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return true;
	return line[0] == 'd' || line[0] == 'D';
}

#define LEARN_MAX_WATCH 4

static int run_lesson(struct cmd_ctx *cx, size_t idx, bool auto_mode, bool demo,
		      const char *record_path, enum record_format rfmt)
{
	const struct lesson *l = &*lesson_at(idx);
	struct lesson_run e;
	struct board b;
	struct lesson_metrics before = {0}, after = {0};
	bool threads, do_it = auto_mode;
	const double measure_s = l->measure_s > 0 ? l->measure_s : LESSON_TICKS * LESSON_TICK_S;
	cpu_set_t saved;
	struct knob_effect_watch *watch[LEARN_MAX_WATCH] = {0};
	int rc = 0, r;

	memset(&e, 0, sizeof(e));
	e.l = l;
	e.b = &b.lb;
	e.worker_cpu = -1;
	r = board_open(&b, cx, l, demo, record_path, rfmt, auto_mode);
	if (r != 0)
		return r == -ENOTSUP ? 2 : 1;
	/* lesson 5 in its world pins the tree's thread, not a worker of ours */
	threads = lesson_uses_workers(l, &b.lb);
	if (b.world)
		printf("Lesson %zu: %s   [SIMULATED: world %s]\n", idx + 1, l->title,
		       world_def_of(b.world)->name);
	else
		printf("Lesson %zu: %s%s\n", idx + 1, l->title,
		       b.sim ? "   [SIMULATED RK3588]" : "");
	printf("  board: %s\n\n", b.sim ? "the simulated RK3588 (tunetop --demo)" : b.root->path);
	/* 1. explain */
	printf("What is going on\n");
	wrap_print(l->intro, "  ");
	for (size_t i = 0; i < 3 && l->explain[i]; i++) {
		const struct explain_entry *x = explain_find(l->explain[i]);

		if (!x)
			continue;
		printf("\n  %s - %s\n", x->key, x->title);
		wrap_print(x->why, "    ");
		if (explain_cites_field_notes(x))
			wrap_print("(" EXPLAIN_FIELD_NOTES ")", "    ");
		printf("    (tunetop explain %s)\n", x->key);
	}
	if (threads) {
		if (lesson_workers_start(&e) != 0) {
			printf("\n  could not start the worker threads\n");
			board_close(&b);
			return 1;
		}
		printf("\n  worker thread: tid %d (busy threads next to it)\n", (int)e.worker_tid);
	}
	/* the world's state the lesson is about (restored with its change) */
	if (lesson_resolve_setup(&e)) {
		printf("\nThe world's state this lesson is about (SIMULATED)\n");
		for (size_t i = 0; i < e.nassign; i++)
			printf("  %s\n", e.assign[i]);
		if (apply_toggles(&b, &e, false, &saved) != 0) {
			rc = 1;
			goto restore;
		}
	}
	/* 2. measure before */
	printf("\nMeasuring before (%.1f s)...\n", measure_s);
	measure(&e, &before, measure_s, "measuring before");
	print_metrics(&before, NULL);
	if (learn_stop)
		goto out;
	/* 3. toggle */
	if (!lesson_resolve_toggles(&e, lesson_board_snapshot(&b.lb))) {
		printf("\n  Nothing to toggle on this board.\n");
		goto out;
	}
	printf("\nThe change\n");
	for (size_t i = 0; i < e.nassign; i++)
		printf("  %s\n", e.assign[i]);
	if (!threads) {
		struct sbuf sh;
		char *cause = NULL;

		/* the knob engine's dry run: exactly the writes it will make */
		sbuf_init(&sh);
		if (lesson_shell_lines(b.ctx, &e, &sh, &cause) == 0 && sh.len) {
			printf("  the writes, as shell lines:\n");
			for (const char *ln = sh.s; *ln;) {
				size_t len = strcspn(ln, "\n");

				printf("    %.*s\n", (int)len, ln);
				ln += len + (ln[len] == '\n');
			}
		} else if (cause) {
			printf("  the change cannot be made: %s\n", cause);
		}
		free(cause);
		sbuf_free(&sh);
	}
	if (!auto_mode)
		do_it = ask_learner(&b, &e);
	if (learn_stop)
		goto out;
	if (do_it && apply_toggles(&b, &e, threads, &saved) != 0) {
		rc = 1;
		goto restore;
	}
	/* 4. measure after (watching whether the kernel obeys the change), compare */
	printf("\nMeasuring after...\n");
	for (size_t i = 0; !threads && i < e.nassign && i < LEARN_MAX_WATCH; i++) {
		char addr[KNOB_ADDR_MAX];
		const char *eq = strchr(e.assign[i], '=');

		watch[i] = NULL;
		if (!eq || (size_t)(eq - e.assign[i]) >= sizeof(addr))
			continue;
		memcpy(addr, e.assign[i], (size_t)(eq - e.assign[i]));
		addr[eq - e.assign[i]] = '\0';
		watch[i] = knob_effect_begin_addr(b.ctx, addr, eq + 1);
	}
	measure(&e, &after, measure_s, "measuring after");
	print_metrics(&before, &after);
	{
		struct sbuf v, ne;

		sbuf_init(&v);
		sbuf_init(&ne);
		for (size_t i = 0; !threads && i < e.nassign && i < LEARN_MAX_WATCH; i++) {
			if (!watch[i])
				continue;
			knob_effect_end(b.ctx, watch[i], KNOB_QUIET | KNOB_EFFECT_NO_RECORD, &ne);
			knob_effect_free(watch[i]);
			watch[i] = NULL;
		}
		printf("\nWhat changed\n");
		if (ne.len) {
			/* a knob the kernel ignored: the numbers compare it with itself */
			wrap_print(ne.s, "  ");
			wrap_print(
				"No conclusion: the change was not in effect while the lesson "
				"measured, so the numbers above compare the board with itself. "
				"Make the kernel obey first (the warning says how), then run the "
				"lesson again.",
				"  ");
		} else {
			lesson_verdict(&e, &before, &after, &v);
			wrap_print(v.s, "  ");
		}
		sbuf_free(&ne);
		sbuf_free(&v);
	}
	printf("\nWhy (background)\n");
	wrap_print(l->after, "  ");
restore:
	/* 5. restore */
	printf("\nRestoring\n");
	if (do_it || !threads)
		restore(&b, &e, threads && do_it, &saved);
	if (!do_it && !threads)
		printf("  (if you changed it yourself: tunetop%s%s undo)\n",
		       b.root_arg[0] ? " --root " : "", b.root_arg);
out:
	if (threads)
		lesson_workers_stop(&e);
	if (learn_stop) {
		printf("\nInterrupted: restoring.\n");
		if (!threads)
			restore(&b, &e, false, &saved);
		rc = 1;
	}
	board_close(&b);
	return rc;
}

static void list_lessons(struct cmd_ctx *cx)
{
	const struct sysroot *r = &cx->root;
	bool live = !strcmp(cx->o->root, "/"), have = cmd_setup(cx, 0) == 0;

	printf("tunetop learn N - guided exercises (explain, toggle, measure, compare, "
	       "restore)\n\n");
	for (size_t i = 0; i < NLESSONS; i++) {
		const char *where;

		if (lesson_world_only(lesson_at(i)))
			where = "its world only (SIMULATED)";
		else if (!strcmp(lesson_at(i)->needs, "threads"))
			where = "this machine's kernel";
		else if (have && lesson_root_has(r, lesson_at(i)->needs))
			where = live ? "this machine" : "this root";
		else
			where = "the simulated RK3588";
		printf("  %zu  %-40s runs on %s\n", i + 1, lesson_at(i)->title, where);
		if (lesson_at(i)->world)
			printf("     in its world %s (--demo=world): judges the %s\n",
			       lesson_at(i)->world, lesson_at(i)->world_label);
	}
	printf("\n  --auto    tunetop makes the change itself (no prompts)\n"
	       "  --demo    use the simulated RK3588 even where the board has the interface\n"
	       "  --demo=world  run each lesson in its world (SIMULATED, doc/teach.md): the\n"
	       "            latency it is about is judged from the world's samples\n"
	       "  --record FILE  record the measurements (tunetop report FILE --html OUT)\n"
	       "  --record-format auto|json|zstd  as watch's: zstd stream or plain JSON lines\n"
	       "            (auto: zstd unless FILE ends in .jsonl/.json)\n");
}

int cmd_learn(struct cmd_ctx *cx, int argc, char **argv)
{
	bool auto_mode = false, demo = false;
	const char *record_path = NULL;
	enum record_format rfmt = RECORD_FMT_AUTO;
	struct sigaction sa;
	int c, n, rc = 0;

	optind = 1;
	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		switch (c) {
		case 'a': auto_mode = true; break;
		case 'D':
			demo = true;
			learn_world = optarg;
			if (optarg && strcmp(optarg, LEARN_OWN_WORLD) && !world_find(optarg)) {
				cmd_error("learn", 0,
					  "--demo=%s: no such world (tunetop world --list)",
					  optarg);
				return 2;
			}
			break;
		case 'R': record_path = optarg; break;
		case 'F':
			if (cmd_record_format("learn", optarg, &rfmt) != 0)
				return 2;
			break;
		case 'h':
			cmd_print_help("learn", stdout);
			list_lessons(cx);
			return 0;
		default: return cmd_usage("learn");
		}
	}
	if (demo && !sim_built()) {
		cmd_error("learn", 0, SIM_NOT_BUILT);
		return 2;
	}
	if (optind >= argc) {
		list_lessons(cx);
		return 0;
	}
	if (optind + 1 != argc) {
		cmd_error("learn", 0, "one lesson number at a time (1-%zu or all)", NLESSONS);
		return 2;
	}
	if (cmd_setup(cx, 0)) /* --root; each lesson's engine: board_open */
		return 1;
	if (!isatty(STDIN_FILENO))
		auto_mode = true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (!strcmp(argv[optind], "all")) {
		if (record_path) {
			cmd_error("learn", 0, "--record works with one lesson at a time");
			return 2;
		}
		for (size_t i = 0; i < NLESSONS && !learn_stop; i++) {
			if (i)
				printf("\n========================================================="
				       "===\n\n");
			rc |= run_lesson(cx, i, auto_mode, demo, NULL, RECORD_FMT_AUTO);
		}
		return rc;
	}
	if (str_to_int(argv[optind], &n) || n < 1 || n > (int)NLESSONS) {
		cmd_error("learn", 0, "no lesson '%s' (1-%zu or all)", argv[optind], NLESSONS);
		return 2;
	}
	return run_lesson(cx, (size_t)n - 1, auto_mode, demo, record_path, rfmt);
}