/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guided lessons of `tunetop learn` and of the TUI's Lessons screen, in
 * one place: each lesson is data (what to explain: explain-table keys; what
 * the learner toggles: knob assignments with placeholders; what it means
 * afterwards) plus a measurement function that reads the few numbers that
 * matter from a lesson board (a root with its own sampler: the live board,
 * a fixture, or the simulated RK3588 of model/sim.h, which the measurement
 * advances as it waits). Both runners do explain -> toggle -> measure ->
 * compare -> restore; the toggles always go through the knob engine of the
 * runner. No curses and no printing here. */
#ifndef TT_MODEL_LESSONS_H
#define TT_MODEL_LESSONS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/str.h"
#include "knob/knob.h"
#include "model/snapshot.h"
#include "sysfs/sysroot.h"

#define LESSON_MAX_METRICS 12
#define LESSON_MAX_TOGGLES 4
#define LESSON_TICK_S	   0.5 /* a measurement takes LESSON_TICKS samples this far apart */
#define LESSON_TICKS	   3

struct sim;
struct recorder;
struct world;
struct knob_addr;

struct lesson_metric {
	char name[64];
	double v; /* NAN = n/a */
	char unit[12];
	char note[96]; /* why n/a, or a remark */
	/* which way is better for latency: +1 higher, -1 lower, 0 context only
	 * (not judged: the mechanism, or a number the change cannot affect) */
	signed char better;
	/* a mean over samples (the probe in a world): their SD and count, for
	 * the interval of the difference; n 0 = a single reading */
	double sd;
	uint64_t n;
	/* an SD over samples (the world's jitter, struct lesson's
	 * world_judge_sd): v is their SD, n their count and kurt their
	 * kurtosis, for the interval of its change; false: v is a value or a
	 * mean */
	bool spread;
	double kurt;
};

struct lesson_metrics {
	size_t n;
	struct lesson_metric m[LESSON_MAX_METRICS];
};

/* Where a lesson measures. The runner opens the root (and the simulator)
 * and fills these; the lesson code owns the sampler. */
struct lesson_board {
	const struct sysroot *root;
	struct sim *sim; /* the simulated board (advanced while measuring), or NULL */
	/* a world (--root on `tunetop world`'s tree, model/world.h): stepped
	 * while measuring, and its probe is the one measured (SIMULATED) */
	struct world *world;
	struct recorder *rec;	      /* optional: each measurement sample is recorded */
	volatile sig_atomic_t *stop;  /* optional: a signal handler sets it to cut waits short */
	const char *const *clk_names; /* debugfs clocks (--clocks); NULL = the default list */
	struct sampler sm;
	bool sampling;
};

struct lesson_workers;

/* One run of one lesson. */
struct lesson_run {
	struct lesson_board *b;
	const struct lesson *l;
	char assign[LESSON_MAX_TOGGLES][KNOB_ADDR_MAX + KNOB_VALUE_MAX]; /* resolved toggles */
	size_t nassign;
	pid_t worker_tid; /* lesson 5: the worker thread (0 none) */
	int worker_cpu;	  /* the CPU it last ran on (-1 unknown) */
	struct lesson_workers *workers;
};

/* The latency a lesson judges in its world: the world's probe (its
 * model's wake-up samples) or the application's log lines. */
enum lesson_latency { LESSON_LAT_PROBE, LESSON_LAT_APP_LOG };

struct lesson {
	const char *title;
	/* "cpufreq" "cpuidle" "devfreq" "rt" "threads", or "world": the
	 * lesson runs only in its world (.world; the runners open it) */
	const char *needs;
	const char *explain[3];
	const char *intro; /* what is going on, what to look for */
	/* The knob assignments to make, into assign (at most
	 * LESSON_MAX_TOGGLES), their addresses from the typed builders of
	 * knob/knob_addr.h; deep = the deepest idle state's name ("" none).
	 * Returns how many: 0 when there is nothing to toggle (no deep idle
	 * state, no worker thread). */
	size_t (*toggle)(const struct lesson_run *e, const char *deep,
			 char (*assign)[KNOB_ADDR_MAX + KNOB_VALUE_MAX]);
	const char *toggle_hint; /* where else to do it: the TUI key / the shell form */
	/* NULL: nothing of its own to measure (a lesson that runs only in
	 * its world: the world's latency is all) */
	void (*measure)(struct lesson_run *e, struct lesson_metrics *m);
	double measure_s; /* about how long measure() takes */
	/* what the change does in principle, and field-note background
	 * (labelled); never a claim about this run: lesson_verdict() says what
	 * this run's measurements show */
	const char *after;
	/* The lesson's world (model/world.h, `learn N --demo=world` or --root
	 * on that world's tree) and the latency judged there, named
	 * "<world_label> mean (<world_where>)"; the lesson's own numbers are
	 * then shown, not judged. */
	const char *world;
	enum lesson_latency world_latency;
	const char *world_label; /* "frame time total" */
	const char *world_where; /* "app log var/log/infer.log" */
	/* the toggles in the world where they differ from .toggle (NULL: .toggle) */
	size_t (*world_toggle)(const struct lesson_run *e, const char *deep,
			       char (*assign)[KNOB_ADDR_MAX + KNOB_VALUE_MAX]);
	/* simulated seconds per measurement in the world: the probe's (0:
	 * 1 s) or the app log's (0: 1.5 s) */
	double world_probe_s;
	/* A fixed change in the world (.world_toggle = its runner): its
	 * addresses into k (at most LESSON_MAX_TOGGLES; how many) and their
	 * values, in order */
	size_t (*world_addrs)(struct knob_addr *k);
	const char *world_values[LESSON_MAX_TOGGLES];
	/* LESSON_LAT_APP_LOG: judge the SD of the figure (its jitter, the
	 * field note's number) instead of its mean */
	bool world_judge_sd;
	/* The world's state the lesson is about, made before the first
	 * measurement (NULL: none), e.g. a runaway RT thread for throttling to
	 * act on; restored with the lesson's change. Same form as .toggle. */
	size_t (*world_setup)(const struct lesson_run *e, const char *deep,
			      char (*assign)[KNOB_ADDR_MAX + KNOB_VALUE_MAX]);
};

size_t lesson_count(void);
const struct lesson *lesson_at(size_t i);

/* Does the root have the interface the lesson needs ("threads": always,
 * it is the live kernel's)? */
bool lesson_root_has(const struct sysroot *r, const char *needs);
/* The lesson acts on this machine's threads whatever the board. */
bool lesson_on_threads(const struct lesson *l);
/* The lesson runs only in its world (needs "world"): on any other board
 * the runners open that world (SIMULATED). */
bool lesson_world_only(const struct lesson *l);

/* Does the lesson run in the board's world (b->world is the lesson's
 * world)? Then its latency is the world's (l->world_latency) and judged
 * alone. */
bool lesson_in_world(const struct lesson *l, const struct lesson_board *b);
/* The lesson uses this process's worker threads (lesson 5 off its world). */
bool lesson_uses_workers(const struct lesson *l, const struct lesson_board *b);

/* Measure (blocks measure_s seconds; sleeps, never spins). */
void lesson_measure(struct lesson_run *e, struct lesson_metrics *m);
/* The board's newest sample (takes one when there is none); NULL on error. */
const struct snapshot *lesson_board_snapshot(struct lesson_board *b);
/* Release the board's sampler (not the root, simulator or recorder). */
void lesson_board_release(struct lesson_board *b);

/* The world setup of the lesson into e->assign (lesson_in_world only):
 * how many assignments (0: none). */
size_t lesson_resolve_setup(struct lesson_run *e);
/* Resolve the lesson's toggles against a snapshot of the board (its
 * deepest idle state) and the worker into e->assign; false when there is
 * nothing to toggle (no deep idle state, no worker). */
bool lesson_resolve_toggles(struct lesson_run *e, const struct snapshot *s);

/* Lesson 5: a worker thread of this process that wakes every millisecond
 * for a little work, next to three busy threads that keep the scheduler
 * moving it (e->worker_tid set). Stop joins them. 0 or -errno. */
int lesson_workers_start(struct lesson_run *e);
void lesson_workers_stop(struct lesson_run *e);

/* What this run's before/after measurements show, in sentences chosen from
 * the numbers: per judged metric improved, worse or no difference seen by
 * the rule the text states, then why the board could not show an effect
 * where it cannot (simulated board, the probe measuring another machine, a
 * virtual machine, n/a). */
void lesson_verdict(const struct lesson_run *e, const struct lesson_metrics *before,
		    const struct lesson_metrics *after, struct sbuf *out);

/* NULL when the root has what the lesson needs; else what is missing and
 * how to get it, in buf ("per-CPU RT runqueues need debugfs: mount -t
 * debugfs none /sys/kernel/debug"). */
const char *lesson_root_missing(const struct sysroot *r, const char *needs, char *buf, size_t cap);

/* The exact writes the toggles will make, as shell lines ("echo -1 >
 * /proc/sys/kernel/sched_rt_runtime_us   # sched/rt_runtime_us: 950000 ->
 * -1"), from the knob engine's dry run; 0 or -errno (cause set). */
int lesson_shell_lines(struct knob_ctx *ctx, const struct lesson_run *e, struct sbuf *out,
		       char **cause);

/* "12.3 MHz", "n/a". */
void lesson_metric_value(const struct lesson_metric *m, char *buf, size_t cap);

#endif
