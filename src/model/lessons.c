/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The lessons of `tunetop learn` and of the TUI's Lessons screen (see
 * lessons.h): the table at the bottom, the measurement functions it points
 * to, the worker threads of lesson 5 and the resolution of the toggles'
 * placeholders. The runners (src/cmd/cmd_learn.c for the text mode,
 * src/ui/screen_lessons.c for the TUI) own the board, the knob engine and
 * the talking. */
#include "model/lessons.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/cpumask.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"
#include "model/record.h"
#include "model/sim.h"
#include "model/world.h"
#include "model/world_app.h"
#include "model/world_affinity.h"
#include "model/world_probe.h"
#include "model/world_proc.h"
#include "model/world_rtbs.h"
#include "probe/stats.h"
#include "probe/histogram.h"
#include "probe/probe.h"
#include "source/perf.h"
#include "source/threads.h"

static void metric(struct lesson_metrics *m, const char *name, double v, const char *unit,
		   const char *note)
{
	struct lesson_metric *x;

	if (m->n >= LESSON_MAX_METRICS)
		return;
	x = &m->m[m->n++];
	str_copy(x->name, sizeof(x->name), name);
	x->v = v;
	str_copy(x->unit, sizeof(x->unit), unit);
	str_copy(x->note, sizeof(x->note), note ? note : "");
	x->better = 0;
	x->sd = NAN;
	x->n = 0;
	x->spread = false;
	x->kurt = NAN;
}

/* The metric just added is judged: +1 higher is better, -1 lower. */
static void judged(struct lesson_metrics *m, signed char better)
{
	if (m->n)
		m->m[m->n - 1].better = better;
}

/* ---- sampling ------------------------------------------------------------------- */

static bool stopped(const struct lesson_board *b)
{
	return b->stop && *b->stop;
}

const struct snapshot *lesson_board_snapshot(struct lesson_board *b)
{
	if (!b->sampling) {
		sampler_init(&b->sm, b->root, SNAP_ALL);
		b->sm.clk_names = b->clk_names;
		b->sampling = true;
		if (sampler_tick(&b->sm) != 0)
			return NULL;
	}
	return sampler_cur(&b->sm);
}

void lesson_board_release(struct lesson_board *b)
{
	if (b->sampling)
		sampler_free(&b->sm);
	b->sampling = false;
}

/* LESSON_TICKS samples LESSON_TICK_S apart; the simulator advances with real time. */
static const struct snapshot *sample_window(struct lesson_board *b)
{
	if (!lesson_board_snapshot(b))
		return NULL;
	for (int i = 0; i < LESSON_TICKS && !stopped(b); i++) {
		time_sleep_ns((uint64_t)(LESSON_TICK_S * 1e9));
		if (b->world)
			world_step(b->world, LESSON_TICK_S);
		else if (b->sim)
			sim_step(b->sim, LESSON_TICK_S);
		if (sampler_tick(&b->sm) != 0)
			return NULL;
		if (b->rec)
			record_sample(b->rec, sampler_cur(&b->sm), NULL);
	}
	return sampler_cur(&b->sm);
}

/* ---- measurements ------------------------------------------------------------- */

static void m_governor(struct lesson_run *e, struct lesson_metrics *m)
{
	const struct snapshot *s;

	/* The simulated board as in the field note: the NPU thread blocks in
	 * its ioctl, so the CPUs look idle and a dynamic governor parks them. */
	if (e->b->sim) {
		sim_set_quiet(e->b->sim, true);
		sim_step(e->b->sim, 1.0); /* the governor settles */
	}
	s = sample_window(e->b);
	if (e->b->sim)
		sim_set_quiet(e->b->sim, false);

	for (size_t i = 0; s && i < s->freq.npolicies; i++) {
		const struct cpufreq_policy *p = &s->freq.pol[i];
		char name[64];
		double at = NAN;

		double busy = NAN;

		snprintf(name, sizeof(name), "%s clock", p->name);
		metric(m, name, p->cur_khz >= 0 ? (double)p->cur_khz / 1000 : NAN, "MHz",
		       p->governor);
		judged(m, +1);
		for (int c = cpumask_next(&p->cpus, 0); c >= 0 && c < s->stat.ncpus;
		     c = cpumask_next(&p->cpus, c + 1))
			if (!isnan(s->stat.util[c].busy_pct) &&
			    (isnan(busy) || s->stat.util[c].busy_pct > busy))
				busy = s->stat.util[c].busy_pct;
		snprintf(name, sizeof(name), "%s busiest CPU", p->name);
		metric(m, name, busy, "%", NULL);
		if (p->tis_pct && p->nstates) {
			size_t lo = 0;

			for (size_t k = 1; k < p->nstates; k++)
				if (p->tis_khz[k] < p->tis_khz[lo])
					lo = k;
			at = p->tis_pct[lo];
		}
		snprintf(name, sizeof(name), "%s time at lowest OPP", p->name);
		metric(m, name, at, "%", isnan(at) ? "no stats/time_in_state" : NULL);
		judged(m, -1);
	}
}

static const char *deepest_state(const struct snapshot *s, char *buf, size_t cap)
{
	int64_t lat = -1;

	buf[0] = '\0';
	for (int c = 0; s && c < s->idle.ncpus; c++)
		for (size_t k = 0; s->idle.cpu[c].online && k < s->idle.cpu[c].nstates; k++)
			if (s->idle.cpu[c].st[k].latency_us > lat && s->idle.cpu[c].st[k].name[0]) {
				lat = s->idle.cpu[c].st[k].latency_us;
				str_copy(buf, cap, s->idle.cpu[c].st[k].name);
			}
	return buf;
}

/* The probe in a world (model/world_probe.h): LESSON_WORLD_PROBE_S simulated
 * seconds of its samples; the mean (with its SD and count: the verdict gives
 * the interval of the difference) is judged, p99 and max are context. The
 * metrics are named "<label> mean (<where>)". */
#define LESSON_WORLD_PROBE_S 1.0
static void world_probe_metrics(struct lesson_run *e, struct lesson_metrics *m, const char *label,
				const char *where)
{
	struct world_probe wp;
	const char *note = "SIMULATED: the world's probe";
	double secs = e->l->world_probe_s > 0 ? e->l->world_probe_s : LESSON_WORLD_PROBE_S;
	int rc = world_probe_run(e->b->world, 1000, secs, false, &wp);
	const struct hist *h = &wp.hist;
	char name[64];

	snprintf(name, sizeof(name), "%s mean (%s)", label, where);
	if (rc || !h->count) {
		metric(m, name, NAN, "us", "the world has no probe");
		world_probe_free(&wp);
		return;
	}
	if (e->b->rec)
		record_probe(e->b->rec, h, "0", 1000);
	metric(m, name, wp.mean_us, "us", note);
	judged(m, -1);
	m->m[m->n - 1].sd = wp.sd_us;
	m->m[m->n - 1].n = h->count;
	snprintf(name, sizeof(name), "%s p99 (%s)", label, where);
	metric(m, name, hist_percentile_us(h, 0.99), "us", note);
	snprintf(name, sizeof(name), "%s max (%s)", label, where);
	metric(m, name, hist_max_us(h), "us", note);
	world_probe_free(&wp);
}

/* The application's log in a world (model/world_app.h): the world's own
 * figure over world_probe_s (default LESSON_WORLD_APP_S) simulated seconds
 * (at most LESSON_WORLD_APP_MAX frames, the newest); their mean (with SD
 * and count) is judged and the SD is context, or with world_judge_sd the
 * SD (with count and kurtosis) is judged and the mean is context. */
#define LESSON_WORLD_APP_S   1.5
#define LESSON_WORLD_APP_MAX 150
static void world_app_metrics(struct lesson_run *e, struct lesson_metrics *m, const char *label,
			      const char *where)
{
	struct world_app app;
	uint64_t f0 = world_frames(e->b->world);
	bool sd = e->l->world_judge_sd;
	char name[64];
	size_t n;

	world_step(e->b->world, e->l->world_probe_s > 0 ? e->l->world_probe_s : LESSON_WORLD_APP_S);
	n = (size_t)(world_frames(e->b->world) - f0);
	snprintf(name, sizeof(name), "%s mean (%s)", label, where);
	if (n < 2 ||
	    world_app_recent_figure(e->b->root, n < LESSON_WORLD_APP_MAX ? n : LESSON_WORLD_APP_MAX,
				    &app) != 0 ||
	    app.n < 2) {
		metric(m, name, NAN, "ms", "no frames in the world's log");
		return;
	}
	metric(m, name, app.mean_ms, "ms", "SIMULATED: the world's application");
	judged(m, sd ? 0 : -1);
	m->m[m->n - 1].sd = app.sd_ms;
	m->m[m->n - 1].n = app.n;
	snprintf(name, sizeof(name), "%s SD (%s)", label, where);
	metric(m, name, app.sd_ms, "ms", sd ? "SIMULATED: the world's application" : NULL);
	if (!sd)
		return;
	judged(m, -1);
	m->m[m->n - 1].spread = true;
	m->m[m->n - 1].n = app.n;
	m->m[m->n - 1].kurt = app.kurt;
}

static void probe_metrics(struct lesson_run *e, struct lesson_metrics *m)
{
	struct probe p;
	struct probe_cfg cfg = {.interval_us = 1000,
				.policy = PROBE_POLICY_FIFO,
				.prio = PROBE_DEFAULT_PRIO,
				.dma_latency_us = -1};
	struct hist h;
	char why[160];
	const char *note =
		e->b->sim ? "measured on this machine, not on the simulated board" : NULL;

	if (world_has_probe(e->b->world)) {
		/* in the lesson's world, lesson_measure takes the world's latency */
		if (!lesson_in_world(e->l, e->b))
			world_probe_metrics(e, m, "wake-up latency", "probe, cpu0");
		return;
	}
	cpumask_zero(&cfg.cpus);
	cpumask_set(&cfg.cpus, 0);
	memset(&p, 0, sizeof(p));
	if (probe_start(&p, &cfg, why, sizeof(why)) != 0) {
		metric(m, "wake-up latency p99 (probe, cpu0)", NAN, "us", why);
		probe_free(&p);
		return;
	}
	time_sleep_ns(1000000000ULL);
	probe_stop(&p);
	probe_snapshot_all(&p, &h);
	/* learn --record: the window goes with the samples (tunetop report) */
	if (e->b->rec && h.count)
		record_probe(e->b->rec, &h, "0", cfg.interval_us);
	metric(m, "wake-up latency p50 (probe, cpu0)", hist_percentile_us(&h, 0.50), "us", note);
	judged(m, e->b->sim ? 0 : -1);
	metric(m, "wake-up latency p99 (probe, cpu0)", hist_percentile_us(&h, 0.99), "us", note);
	judged(m, e->b->sim ? 0 : -1);
	metric(m, "wake-up latency max (probe, cpu0)", hist_max_us(&h), "us", note);
	probe_free(&p);
}

static void m_idle(struct lesson_run *e, struct lesson_metrics *m)
{
	const struct snapshot *s = sample_window(e->b);
	char deep[32], name[80];
	double res = 0, ent = 0, shallow = 0;
	int n = 0;

	if (!s)
		return;
	deepest_state(s, deep, sizeof(deep));
	for (int c = 0; c < s->idle.ncpus; c++) {
		const struct cpuidle_state *st = cpuidle_state_find(&s->idle, c, deep);
		const struct cpuidle_state *s0 = cpuidle_state_find(&s->idle, c, "state0");

		if (!st || isnan(st->residency_pct))
			continue;
		res += st->residency_pct;
		ent += isnan(st->entries_per_s) ? 0 : st->entries_per_s;
		shallow += s0 && !isnan(s0->residency_pct) ? s0->residency_pct : 0;
		n++;
	}
	/* fewer wake-ups from the deep state: fewer that pay its exit latency */
	snprintf(name, sizeof(name), "%s residency, mean of CPUs", deep);
	metric(m, name, n ? res / n : NAN, "%", n ? NULL : "no rates");
	/* in a world the probe shows the latency itself: the counters are the
	 * knob's direct effect, shown but not judged */
	judged(m, world_has_probe(e->b->world) ? 0 : -1);
	snprintf(name, sizeof(name), "%s entries per second, mean", deep);
	metric(m, name, n ? ent / n : NAN, "/s", NULL);
	judged(m, world_has_probe(e->b->world) ? 0 : -1);
	metric(m, "state0 (shallowest) residency, mean", n ? shallow / n : NAN, "%", NULL);
	probe_metrics(e, m);
}

static void m_devfreq(struct lesson_run *e, struct lesson_metrics *m)
{
	const struct snapshot *s = sample_window(e->b);

	for (size_t i = 0; s && i < s->devf.ndev; i++) {
		const struct devfreq_dev *d = &s->devf.dev[i];
		char name[96];
		char *end;
		double load;

		if (d->kind != DEVFREQ_DDR && d->kind != DEVFREQ_NPU)
			continue;
		snprintf(name, sizeof(name), "%s clock", d->name);
		metric(m, name, d->cur_hz >= 0 ? (double)d->cur_hz / 1e6 : NAN, "MHz", d->governor);
		judged(m, +1);
		if (d->load[0]) {
			load = strtod(d->load, &end);
			snprintf(name, sizeof(name), "%s load", d->name);
			metric(m, name, end != d->load ? load : NAN, "%", NULL);
		}
	}
}

static void m_rt(struct lesson_run *e, struct lesson_metrics *m)
{
	const struct snapshot *s;
	double worst = NAN;
	int thr = 0;

	/* The simulated RT task asks for 97% of the last CPU between 4 and 10 s of
	 * every 20 s: make sure the window (1.5 s) falls inside that. */
	if (e->b->sim) {
		double ph = fmod(sim_time(e->b->sim), 20.0);

		if (ph < 4.0)
			sim_step(e->b->sim, 4.2 - ph);
		else if (ph > 8.0)
			sim_step(e->b->sim, 24.2 - ph);
	}
	s = sample_window(e->b);
	for (int c = 0; s && c < s->rt.ncpu; c++) {
		const struct rt_cpu *rc = &s->rt.cpu[c];

		thr += rc->throttled == 1;
		if (!isnan(rc->rt_use_pct) && (isnan(worst) || rc->rt_use_pct > worst))
			worst = rc->rt_use_pct;
	}
	metric(m, "CPUs with RT throttled", s && s->rt.ncpu ? thr : NAN, "",
	       s && s->rt.ncpu ? NULL : "no scheduler debug file (root, debugfs)");
	judged(m, -1);
	metric(m, "highest rt_time / rt_runtime", worst, "%", NULL);
	metric(m, "sched_rt_runtime_us", s && s->rt.have_runtime ? (double)s->rt.runtime_us : NAN,
	       "us", s && s->rt.have_runtime && s->rt.runtime_us < 0 ? "-1 = no limit" : NULL);
}

/* Lesson 5 runs on the live kernel: a worker thread of this process that
 * wakes every millisecond for a little work, next to busy threads that
 * keep the scheduler moving it around. */
struct worker {
	pthread_t th;
	volatile int stop;
	volatile pid_t tid;
	bool busy;
	bool started;
};

struct lesson_workers {
	struct worker w;     /* the one the lesson watches and pins */
	struct worker bg[3]; /* busy neighbours */
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	volatile double x = 0;

	w->tid = (pid_t)syscall(SYS_gettid);
	while (!w->stop) {
		int n = w->busy ? 2000000 : 20000;

		for (int i = 0; i < n; i++)
			x += i * 0.5;
		if (!w->busy)
			time_sleep_ns(1000000);
	}
	(void)x; /* the loop's only purpose is to burn CPU */
	return NULL;
}

int lesson_workers_start(struct lesson_run *e)
{
	struct lesson_workers *ws;
	int r;

	if (e->workers)
		return 0;
	ws = xcalloc(1, sizeof(*ws));
	r = pthread_create(&ws->w.th, NULL, worker_main, &ws->w);
	if (r) {
		free(ws);
		return -r;
	}
	ws->w.started = true;
	for (int i = 0; i < 3; i++) {
		ws->bg[i].busy = true;
		ws->bg[i].started =
			pthread_create(&ws->bg[i].th, NULL, worker_main, &ws->bg[i]) == 0;
	}
	while (!ws->w.tid)
		time_sleep_ns(1000000);
	e->workers = ws;
	e->worker_tid = ws->w.tid;
	e->worker_cpu = -1;
	return 0;
}

void lesson_workers_stop(struct lesson_run *e)
{
	struct lesson_workers *ws = e->workers;

	if (!ws)
		return;
	ws->w.stop = 1;
	for (int i = 0; i < 3; i++)
		ws->bg[i].stop = 1;
	pthread_join(ws->w.th, NULL);
	for (int i = 0; i < 3; i++)
		if (ws->bg[i].started)
			pthread_join(ws->bg[i].th, NULL);
	free(ws);
	e->workers = NULL;
	e->worker_tid = 0;
}

static void m_affinity(struct lesson_run *e, struct lesson_metrics *m)
{
	const struct sysroot *live = sysroot_live();
	struct thread_table a = {0}, b = {0};
	const struct thread_info *t;
	struct perf_set ps;
	const char *const evs[] = {"cpu-migrations", "cache-misses", NULL};
	char *cause = NULL;
	bool perf_ok;
	uint64_t t0;

	if (e->worker_tid <= 0) {
		metric(m, "worker migrations (/proc/PID/task/TID/sched)", NAN, "/s",
		       "no worker thread");
		return;
	}
	/* A worker pinned while it slept moves at its next wake-up, and that
	 * migration belongs to the change, not to the interval measured after
	 * it: wait (1 s at most) until it has run on a CPU it may use. */
	for (int i = 0; i < 50; i++) {
		struct thread_table w = {0};
		bool settled;

		threads_read_pid(live, getpid(), 0, &w);
		t = threads_find(&w, e->worker_tid);
		settled = !t || !t->have_affinity || t->last_cpu < 0 ||
			  cpumask_test(&t->affinity, t->last_cpu);
		threads_free(&w);
		if (settled)
			break;
		time_sleep_ns(20000000ULL);
	}
	memset(&ps, 0, sizeof(ps));
	perf_ok = perf_open_thread(&ps, e->worker_tid, evs, &cause) == 0;
	if (perf_ok)
		perf_sample(&ps);
	threads_read_pid(live, getpid(), THREADS_SCHED_FILE, &a);
	t0 = time_mono_ns();
	time_sleep_ns(1500000000ULL);
	threads_read_pid(live, getpid(), THREADS_SCHED_FILE, &b);
	threads_derive(&b, &a, (double)(time_mono_ns() - t0) / 1e9, sysconf(_SC_CLK_TCK));
	t = threads_find(&b, e->worker_tid);
	metric(m, "worker migrations (/proc/PID/task/TID/sched)",
	       t && t->have_migrations ? t->migrations_per_s : NAN, "/s",
	       t && t->have_migrations ? NULL : "no se.nr_migrations (CONFIG_SCHED_DEBUG)");
	judged(m, -1);
	if (t)
		e->worker_cpu = t->last_cpu;
	if (perf_ok && perf_sample(&ps) == 0) {
		for (size_t k = 0; k < ps.nev; k++) {
			const struct perf_counter *c = perf_at(&ps, 0, k);
			char name[96];

			snprintf(name, sizeof(name), "worker %s (perf)", ps.ev_label[k]);
			metric(m, name, c->err ? NAN : c->rate_per_s, "/s",
			       c->err ? ps.reason[k] : (c->scaled ? "scaled (multiplexed)" : NULL));
			judged(m, -1);
		}
	} else {
		metric(m, "worker cache misses (perf)", NAN, "/s",
		       cause ? cause : "perf counters unavailable");
	}
	free(cause);
	if (perf_ok)
		perf_close(&ps);
	threads_free(&a);
	threads_free(&b);
}

/* ---- what each lesson toggles ------------------------------------------------------ */

#define ASSIGN_CAP (KNOB_ADDR_MAX + KNOB_VALUE_MAX)

static size_t t_governor(const struct lesson_run *e, const char *deep, char (*a)[ASSIGN_CAP])
{
	(void)e;
	(void)deep;
	snprintf(a[0], ASSIGN_CAP, "%s=performance", knob_addr_cpufreq_governor("*").s);
	return 1;
}

static size_t t_idle(const struct lesson_run *e, const char *deep, char (*a)[ASSIGN_CAP])
{
	(void)e;
	if (!deep[0])
		return 0;
	snprintf(a[0], ASSIGN_CAP, "%s=1", knob_addr_cpuidle_disable("*", deep).s);
	return 1;
}

static size_t t_devfreq(const struct lesson_run *e, const char *deep, char (*a)[ASSIGN_CAP])
{
	(void)e;
	(void)deep;
	snprintf(a[0], ASSIGN_CAP, "%s=performance", knob_addr_devfreq_governor("ddr").s);
	snprintf(a[1], ASSIGN_CAP, "%s=performance", knob_addr_devfreq_governor("npu").s);
	return 2;
}

static size_t t_rt(const struct lesson_run *e, const char *deep, char (*a)[ASSIGN_CAP])
{
	(void)e;
	(void)deep;
	snprintf(a[0], ASSIGN_CAP, "%s=-1", knob_addr_sched_rt_runtime_us().s);
	return 1;
}

static size_t t_affinity(const struct lesson_run *e, const char *deep, char (*a)[ASSIGN_CAP])
{
	(void)deep;
	if (e->worker_tid <= 0)
		return 0;
	snprintf(a[0], ASSIGN_CAP, "%s=%d", knob_addr_thread_affinity(e->worker_tid).s,
		 e->worker_cpu >= 0 ? e->worker_cpu : 0);
	return 1;
}

/* In rt-base-station: the field note's window, 90 ms of each 100 ms (the
 * knob engine orders the two writes so the runtime never exceeds the period). */
static size_t t_rt_world(const struct lesson_run *e, const char *deep, char (*a)[ASSIGN_CAP])
{
	(void)e;
	(void)deep;
	snprintf(a[0], ASSIGN_CAP, "%s=90000", knob_addr_sched_rt_runtime_us().s);
	snprintf(a[1], ASSIGN_CAP, "%s=100000", knob_addr_sched_rt_period_us().s);
	return 2;
}

/* A world's fixed change (the field note's): the lesson's world_addrs
 * with its world_values, in order. */
static size_t t_world_fixed(const struct lesson_run *e, const char *deep, char (*a)[ASSIGN_CAP])
{
	struct knob_addr k[LESSON_MAX_TOGGLES];
	size_t n = e->l->world_addrs(k);

	(void)deep;
	for (size_t i = 0; i < n; i++)
		snprintf(a[i], ASSIGN_CAP, "%s=%s", k[i].s, e->l->world_values[i]);
	return n;
}

/* schedutil: the asymmetric rate limits of the camera's cluster */
static size_t a_su_world(struct knob_addr *k)
{
	k[0] = knob_addr_cpufreq_tunable("policy0", "schedutil", "up_rate_limit_us");
	k[1] = knob_addr_cpufreq_tunable("policy0", "schedutil", "down_rate_limit_us");
	return 2;
}

/* stm32mp1-rpmsg: the M4 firmware's SIMULATED switches the note changed */
static size_t a_rpmsg_world(struct knob_addr *k)
{
	static const char *const sw[] = {"m4/vring_polling", "m4/shared_cached_buffers",
					 "m4/ipi_top_priority", "m4/batching"};

	for (size_t i = 0; i < 4; i++)
		k[i] = knob_addr_sim(sw[i]);
	return 4;
}

/* In rt-base-station: pm_collector (the tree's, found by its name) as a
 * runaway RT thread below l2_tti (FIFO 10), so the RT demand on the L2 CPU
 * passes the throttling budget (worldmodel_rtbs.c, runaway_fifo). */
static size_t s_rt_world(const struct lesson_run *e, const char *deep, char (*a)[ASSIGN_CAP])
{
	struct thread_table t = {0};
	const struct thread_info *p;
	size_t n = 0;

	(void)deep;
	if (threads_read(e->b->root, THREADS_KERNEL, &t) != 0)
		return 0;
	p = world_proc_find(&t, WR_CFS_COMM, false);
	if (p) {
		snprintf(a[0], ASSIGN_CAP, "%s=fifo:10", knob_addr_thread_policy(p->tid).s);
		n = 1;
	}
	threads_free(&t);
	return n;
}

/* In am5729-affinity: cyclictest's measuring thread (the tree's, found by its
 * name) pinned to the last CPU it may use, away from the load on CPU 0. */
static size_t t_affinity_world(const struct lesson_run *e, const char *deep, char (*a)[ASSIGN_CAP])
{
	struct thread_table t = {0};
	const struct thread_info *p;
	int last = -1;

	(void)deep;
	if (threads_read(e->b->root, THREADS_KERNEL, &t) != 0)
		return 0;
	p = world_proc_find(&t, WA_PROBE_COMM, true);
	for (int c = p ? cpumask_next(&p->affinity, 0) : -1; c >= 0;
	     c = cpumask_next(&p->affinity, c + 1))
		last = c;
	if (p && last >= 0)
		snprintf(a[0], ASSIGN_CAP, "%s=%d", knob_addr_thread_affinity(p->tid).s, last);
	threads_free(&t);
	return p && last >= 0;
}

/* ---- the lessons --------------------------------------------------------------- */

/* A lesson in a world (lesson_in_world): the world, where its latency
 * comes from, the metric's label and where the metric is read. */
#define IN_WORLD(WORLD, LATENCY, LABEL, WHERE)                                                     \
	.world = WORLD, .world_latency = LATENCY, .world_label = LABEL, .world_where = WHERE
/* A fixed change in a world: the addresses' function and the values */
#define WORLD_FIXED(ADDRS, ...)                                                                    \
	.world_toggle = t_world_fixed, .world_addrs = ADDRS, .world_values = {__VA_ARGS__}
/* the NPU pipeline's frame time, from its app log */
#define IN_NPU_APP_LOG IN_WORLD("rk3588-npu", LESSON_LAT_APP_LOG, "frame time total", "app log")

static const struct lesson lessons[] = {
	{
		.title = "Governor collapse",
		.needs = "cpufreq",
		.explain = {"cpufreq/*/governor", "cpu.freq_khz", NULL},
		.intro = "A latency-critical thread that blocks in a device ioctl makes its CPU "
			 "look idle, and a dynamic governor parks the cluster at the lowest OPP. "
			 "Look at the clock of each policy and how much of the time it spends at "
			 "its lowest OPP. Field notes (background, another machine: an RK3588): an "
			 "NPU inference took 97 ms on average (79-128 ms) on a quiet board at 408 "
			 "MHz and 48 ms on a busy one.",
		.toggle = t_governor,
		.toggle_hint = "Cores screen (F3): g on a policy; or echo performance into each "
			       "policy's scaling_governor",
		.measure = m_governor,
		.measure_s = 1.5,
		.after =
			"performance asks for the highest allowed OPP whatever the load, so the "
			"clock does not depend on how busy the CPU looks; the cost is heat and "
			"power. This lesson measures clocks, not the latency they cause. Field "
			"notes (background, an RK3588, not this board): ~34 ms per inference "
			"instead of 48-97 ms, and the big cores alone were enough (warm instead of "
			"hot).",
		IN_NPU_APP_LOG,
	},
	{
		.title = "Idle-state A/B with the probe",
		.needs = "cpuidle",
		.explain = {"cpuidle/*/*/disable", "cpuidle.latency_us", "probe.latency_us"},
		.intro =
			"Deep idle states save power but a wake-up from one pays its exit latency "
			"(each state declares it: tunetop explain cpuidle.latency_us). Look at the "
			"residency of the deepest state and at the wake-up latency the probe "
			"measures.",
		.toggle = t_idle,
		.toggle_hint =
			"Cores screen (F3): i; or echo 1 into stateK/disable of EVERY CPU (it "
			"is per CPU)",
		.measure = m_idle,
		.measure_s = 2.5,
		.after =
			"With the deep state disabled the idle governor can only pick shallower "
			"states, which declare a lower exit latency; whether wake-ups get faster "
			"is "
			"what the probe has to show. A PM QoS request (/dev/cpu_dma_latency, "
			"4-byte binary, held by an open fd) does the same without per-CPU writes. "
			"One pair of probe windows is weak evidence: tunetop ab alternates the two "
			"settings over many windows. Field notes (background, an RK3588 NPU "
			"pipeline, not this board): this plus DDR on performance took rknn_run "
			"from 33.8 to 29.4 ms.",
		IN_WORLD("rk3588-npu", LESSON_LAT_PROBE, "wake-up latency", "probe, cpu0"),
	},
	{
		.title = "DDR and NPU clocks",
		.needs = "devfreq",
		.explain = {"devfreq/dmc/governor", "devfreq/*/governor", "devfreq.load"},
		.intro = "An accelerator is only as fast as the memory that feeds it. Look at the "
			 "DDR controller's clock next to the NPU's and at their loads. Field notes "
			 "(background, an RK3588): the dmc sat at 528 MHz while the NPU ran at 1 "
			 "GHz.",
		.toggle = t_devfreq,
		.toggle_hint = "Clocks screen (F4): g on dmc and on the NPU; or echo performance > "
			       "/sys/class/devfreq/dmc/governor",
		.measure = m_devfreq,
		.measure_s = 1.5,
		.after =
			"performance asks both devices for their top OPP, so the DDR need not "
			"ramp up at every inference burst; it needs active cooling. This lesson "
			"measures clocks and loads, not inference time. Field notes (background, "
			"an RK3588, not this board): dmc 528 -> 2112 MHz was part of the step from "
			"33.8 to 29.4 ms per inference.",
		IN_NPU_APP_LOG,
	},
	{
		.title = "RT throttling",
		.needs = "rt",
		.explain = {"sched/rt_runtime_us", "rt.throttled", NULL},
		.intro =
			"Real-time tasks may use sched_rt_runtime_us of every sched_rt_period_us "
			"(950000 of 1000000 by default); past that the kernel stops them until the "
			"period "
			"ends. Look for CPUs with rt_throttled and how much of the budget is used.",
		.toggle = t_rt,
		.toggle_hint =
			"RT screen (F5): r; or echo -1 > /proc/sys/kernel/sched_rt_runtime_us",
		.measure = m_rt,
		.measure_s = 1.5,
		.after = "-1 removes the limit: RT tasks are no longer stopped, but nothing "
			 "protects normal tasks from a runaway RT thread any more (before 6.12; "
			 "since 6.12 the deadline fair server does). Field notes (background, a "
			 "B4860 base station, not this board): fewer RT threads and a "
			 "100000/90000 us window instead, which bounds each stall to 10 ms.",
		IN_WORLD("rt-base-station", LESSON_LAT_PROBE, "L2 wake-up latency",
			 "probe, l2_tti"),
		.world_toggle = t_rt_world,
		.world_setup = s_rt_world,
		/* several of the default window's 1 s periods: a throttled
		 * stretch comes once a period */
		.world_probe_s = 5.0,
	},
	{
		.title = "Affinity, migrations and cache misses",
		.needs = "threads",
		.explain = {"thread/*/affinity", "thread.migrations_per_s",
			    "counters.cache_misses"},
		.intro = "This lesson runs on this machine's kernel: tunetop starts a worker "
			 "thread that "
			 "wakes every millisecond next to busy threads, and watches how often the "
			 "scheduler moves it (migrations) and, where the PMU allows, its cache "
			 "misses.",
		.toggle = t_affinity,
		.toggle_hint = "Threads screen: a on the thread; or taskset -pc CPU TID",
		.measure = m_affinity,
		.measure_s = 1.5,
		.after =
			"Pinned, a thread can only run on its CPU, so the scheduler cannot move it "
			"away from its cache. Pin to a CPU that takes no device interrupts (irq "
			"affinity) and, ideally, is isolated (isolcpus). Field notes (background, "
			"a TI AM5729 with PREEMPT_RT, not this machine): pinning the control loop "
			"to the isolated core cut the maximum latency under load by ~33%.",
		IN_WORLD("am5729-affinity", LESSON_LAT_PROBE, "cyclictest latency",
			 "probe, cyclictest"),
		.world_toggle = t_affinity_world,
	},
	{
		.title = "Governor rate limits (schedutil)",
		.needs = "world",
		IN_WORLD("schedutil", LESSON_LAT_APP_LOG, "key-frame time", "app log"),
		WORLD_FIXED(a_su_world, "500", "2000"), /* the note's fast up, slow down */
		.explain = {"cpufreq/*/schedutil/rate_limit_us", "cpufreq/*/governor",
			    "cpu.freq_khz"},
		.intro = "schedutil raises the clock from the scheduler's utilisation, one "
			 "step (about 1.25x) per decision and no sooner than up_rate_limit_us "
			 "after the last switch. A burst of work that finds the cluster at a low "
			 "clock runs slowly until the clock has climbed; with a long rate limit "
			 "that takes tens of ms, and how much of it a frame pays depends on the "
			 "clock it found, so frame times scatter. Look at the spread (SD) of the "
			 "camera's key-frame time.",
		.toggle_hint = "Cores screen (F3): the policy's tunables line; or echo 500 > "
			       "cpufreq/policy0/schedutil/up_rate_limit_us (vendor kernels; "
			       "mainline has rate_limit_us)",
		.measure_s = 0.5,
		.after = "A short up rate limit lets the clock climb a step per scheduler "
			 "period (~1 ms), so a key frame reaches the top OPP within a few ms "
			 "whatever clock it started at; a longer down rate limit keeps the clock "
			 "up between frames. Both cost frequency switches per second, which is "
			 "what these knobs trade. up/down_rate_limit_us exist only in some "
			 "vendor/Android kernels; mainline has the one rate_limit_us. Field notes "
			 "(background, a camera product on a Cortex-A72 quad): fast up 500 us, "
			 "slow down 2000 us cut the key-frame latency's SD from 23 to 9 ms and "
			 "peak temperature by 14%.",
		/* ~120 key frames a measurement: an SD needs more than a mean */
		.world_probe_s = 3.0,
		.world_judge_sd = true,
	},
	{
		.title = "RPMsg to the M4: polling, cache, IPI",
		.needs = "world",
		IN_WORLD("stm32mp1-rpmsg", LESSON_LAT_PROBE, "RPMsg latency", "A7 -> M4"),
		/* interrupt-driven, separate non-cached buffers, the IPI at top
		 * priority, batching */
		WORLD_FIXED(a_rpmsg_world, "0", "0", "1", "1"),
		.explain = {"sim/*/*", "probe.rpmsg", "remoteproc.state"},
		.intro =
			"A message from Linux to the Cortex-M4 (RPMsg: a buffer in shared "
			"memory, a kick through the mailbox interrupt) waits for whatever the M4 "
			"does first: the next poll of the vring when the firmware polls, cache "
			"lines of the shared buffers that the other core dirtied, a UART/SPI "
			"handler when the IPI has a lower NVIC priority, small messages queued "
			"ahead. Each adds a random delay: the latency is long and jittery. Look at "
			"the message latency's mean and its tail.",
		.toggle_hint = "tunetop --root DIR set sim/m4/vring_polling=0 ... (SIMULATED "
			       "switches: on a board each is a rebuild of the M4 firmware)",
		.measure_s = 0.5,
		.after = "Interrupt-driven reception removes the wait for the next poll; separate, "
			 "32-byte-aligned buffers in a non-cached region end the cache thrashing; "
			 "the IPI at top priority with a minimal ISR no longer waits for UART/SPI; "
			 "batching small commands cuts the frames queued ahead. Field notes "
			 "(background, an STM32MP157 audio gateway): 112 -> 43 us mean, jitter "
			 "+-38 -> +-8 us, A-core CPU 41.2% -> 26.7%.",
	},
};

#define NLESSONS (sizeof(lessons) / sizeof(lessons[0]))

size_t lesson_count(void)
{
	return NLESSONS;
}

const struct lesson *lesson_at(size_t i)
{
	return i < NLESSONS ? &lessons[i] : NULL;
}

bool lesson_on_threads(const struct lesson *l)
{
	return !strcmp(l->needs, "threads");
}

bool lesson_world_only(const struct lesson *l)
{
	return !strcmp(l->needs, "world") && l->world;
}

bool lesson_in_world(const struct lesson *l, const struct lesson_board *b)
{
	return b->world && l->world && !strcmp(world_def_of(b->world)->name, l->world);
}

bool lesson_uses_workers(const struct lesson *l, const struct lesson_board *b)
{
	return lesson_on_threads(l) && !lesson_in_world(l, b);
}

void lesson_measure(struct lesson_run *e, struct lesson_metrics *m)
{
	const struct lesson *l = e->l;

	memset(m, 0, sizeof(*m));
	if (l->measure && (lesson_uses_workers(l, e->b) || !lesson_on_threads(l)))
		l->measure(e, m);
	if (!lesson_in_world(l, e->b))
		return;
	/* in its world the lesson's own numbers are the mechanism, shown but
	 * not judged; the world's latency is */
	for (size_t i = 0; i < m->n; i++)
		m->m[i].better = 0;
	if (l->world_latency == LESSON_LAT_APP_LOG)
		world_app_metrics(e, m, l->world_label, l->world_where);
	else
		world_probe_metrics(e, m, l->world_label, l->world_where);
}

void lesson_metric_value(const struct lesson_metric *m, char *buf, size_t cap)
{
	if (isnan(m->v))
		snprintf(buf, cap, "n/a");
	else
		snprintf(buf, cap, "%.1f %s", m->v, m->unit);
}

/* ---- boards and toggles ---------------------------------------------------------- */

bool lesson_root_has(const struct sysroot *r, const char *needs)
{
	if (!strcmp(needs, "cpufreq"))
		return sysfs_is_dir(r, "sys/devices/system/cpu/cpufreq/policy0") ||
		       sysfs_exists(r, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	if (!strcmp(needs, "cpuidle"))
		return sysfs_exists(r, "sys/devices/system/cpu/cpu0/cpuidle/state1/disable");
	if (!strcmp(needs, "devfreq")) {
		struct sysfs_list l;
		bool any = false;

		if (sysfs_list(r, "sys/class/devfreq", &l) == 0) {
			any = l.n > 0;
			sysfs_list_free(&l);
		}
		return any;
	}
	if (!strcmp(needs, "rt"))
		return sysfs_exists(r, "sys/kernel/debug/sched/debug") ||
		       sysfs_exists(r, "proc/sched_debug");
	if (!strcmp(needs, "world"))
		return false; /* its world only: lesson_in_world */
	return true;	      /* threads: the live kernel always */
}

size_t lesson_resolve_setup(struct lesson_run *e)
{
	e->nassign = lesson_in_world(e->l, e->b) && e->l->world_setup
			     ? e->l->world_setup(e, "", e->assign)
			     : 0;
	return e->nassign;
}

bool lesson_resolve_toggles(struct lesson_run *e, const struct snapshot *s)
{
	char deep[32];

	deepest_state(s, deep, sizeof(deep));
	if (lesson_in_world(e->l, e->b) && e->l->world_toggle)
		e->nassign = e->l->world_toggle(e, deep, e->assign);
	else
		e->nassign = e->l->toggle ? e->l->toggle(e, deep, e->assign) : 0;
	return e->nassign > 0;
}
/* ---- what the measurements show --------------------------------------------------- */

enum change { CH_NONE, CH_UP, CH_DOWN };

static bool is_probe(const struct lesson_metric *m)
{
	return !strncmp(m->name, "wake-up latency", 15);
}

/* A mean over samples (the probe in a world): the difference's 95 %
 * interval, Welch's. false when either side has fewer than 2 samples. */
static bool mean_interval(const struct lesson_metric *a, const struct lesson_metric *b, double *lo,
			  double *hi)
{
	double va, vb, se, df, t;

	if (a->n < 2 || b->n < 2 || isnan(a->sd) || isnan(b->sd))
		return false;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	se = sqrt(va + vb);
	df = se > 0 ? (va + vb) * (va + vb) /
			      (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1))
		    : (double)(a->n + b->n - 2);
	t = stats_t_quantile(0.975, df);
	*lo = b->v - a->v - t * se;
	*hi = b->v - a->v + t * se;
	return true;
}

/* An SD over samples (.spread): the difference's 95 % interval from each
 * SD's large-sample standard error s sqrt((k - 1) / (4 n)), k the kurtosis
 * of its samples (the delta method: no normal distribution assumed, so a
 * skewed or two-humped spread is not judged too surely). false when either
 * side has fewer than 4 samples. */
static bool sd_interval(const struct lesson_metric *a, const struct lesson_metric *b, double *lo,
			double *hi)
{
	double va, vb, t;

	if (a->n < 4 || b->n < 4 || isnan(a->kurt) || isnan(b->kurt))
		return false;
	va = a->v * a->v * fmax(a->kurt - 1.0, 0) / (4.0 * (double)a->n);
	vb = b->v * b->v * fmax(b->kurt - 1.0, 0) / (4.0 * (double)b->n);
	t = stats_t_quantile(0.975, (double)(a->n < b->n ? a->n : b->n) - 1.0);
	*lo = b->v - a->v - t * sqrt(va + vb);
	*hi = b->v - a->v + t * sqrt(va + vb);
	return true;
}

/* The 95 % interval of the difference of a metric over samples (a mean
 * or an SD); false when it has none. */
static bool diff_interval(const struct lesson_metric *a, const struct lesson_metric *b, double *lo,
			  double *hi)
{
	return a->spread ? sd_interval(a, b, lo, hi) : mean_interval(a, b, lo, hi);
}

/* Which rule judges a metric: "sd" and "mean" (samples), "MHz", "%",
 * "probe", "/s", else "count". */
static const char *rule_kind(const struct lesson_metric *m)
{
	if (m->spread && m->n >= 2)
		return "sd";
	if (m->n >= 2)
		return "mean";
	if (is_probe(m))
		return "probe";
	if (!strcmp(m->unit, "MHz") || !strcmp(m->unit, "%") || !strcmp(m->unit, "/s"))
		return m->unit;
	return "count";
}

/* The rules, stated in the text: one before/after pair is all there is. */
static enum change compare(const struct lesson_metric *a, const struct lesson_metric *b)
{
	double x = a->v, y = b->v, d = fabs(y - x), hi = fmax(fabs(x), fabs(y)),
	       lo = fmin(fabs(x), fabs(y));
	const char *k = rule_kind(a);
	bool changed;
	double ilo, ihi;

	if ((!strcmp(k, "mean") || !strcmp(k, "sd")) && diff_interval(a, b, &ilo, &ihi))
		changed = ilo > 0 || ihi < 0;
	else if (!strcmp(k, "MHz"))
		changed = d > 0.05 * hi;
	else if (!strcmp(k, "%"))
		changed = d > 10.0;
	else if (!strcmp(k, "probe"))
		changed = d > 20.0 && hi > 2.0 * lo;
	else if (!strcmp(k, "/s"))
		changed = d > 2.0 && hi > 2.0 * lo;
	else
		changed = d >= 1.0;
	if (!changed)
		return CH_NONE;
	return y > x ? CH_UP : CH_DOWN;
}

static const char *rule_text(const char *unit)
{
	if (!strcmp(unit, "sd"))
		return "a standard deviation over samples counts as changed when the 95% interval "
		       "of the difference (each SD's large-sample error, from its samples' "
		       "kurtosis) excludes 0";
	if (!strcmp(unit, "mean"))
		return "a mean over samples counts as changed when the 95% interval of the "
		       "difference (Welch, over the samples of both windows) excludes 0";
	if (!strcmp(unit, "MHz"))
		return "a clock counts as changed when it moves by more than 5%";
	if (!strcmp(unit, "%"))
		return "a share counts as changed when it moves by more than 10 points";
	if (!strcmp(unit, "probe"))
		return "one probe window against one cannot separate small differences from "
		       "run-to-run noise, so a latency counts as changed only when the windows "
		       "differ by more than 2x and by more than 20 us";
	if (!strcmp(unit, "/s"))
		return "a rate counts as changed when it differs by more than 2x and by more "
		       "than 2/s";
	return "a count or setting changes when it differs by one or more";
}

static bool live_vm(char *what, size_t cap)
{
	const struct sysroot *r = sysroot_live();
	char *ci = NULL;
	size_t len = 0;
	bool vm = false;

	what[0] = '\0';
	if (sysfs_read_str(r, "sys/hypervisor/type", what, cap) == 0 && what[0])
		return true;
	if (sysfs_read_alloc(r, "proc/cpuinfo", &ci, &len) == 0 && ci) {
		vm = strstr(ci, " hypervisor") != NULL;
		free(ci);
	}
	if (vm)
		snprintf(what, cap, "the CPU flags say hypervisor");
	return vm;
}

static void fmt_v(const struct lesson_metric *m, char *buf, size_t cap)
{
	if (isnan(m->v))
		snprintf(buf, cap, "n/a");
	else
		snprintf(buf, cap, "%.1f%s%s", m->v, m->unit[0] ? " " : "", m->unit);
}

void lesson_verdict(const struct lesson_run *e, const struct lesson_metrics *before,
		    const struct lesson_metrics *after, struct sbuf *out)
{
	const char *units[8];
	size_t nunits = 0, n = before->n < after->n ? before->n : after->n;
	int better = 0, worse = 0, same = 0, judged_n = 0;
	bool sim = e->b->sim != NULL, probe_excluded = false, na = false;
	/* in a world the probe is the world's: its context numbers stay out */
	bool world = world_has_probe(e->b->world);
	char vm[96];

	for (size_t i = 0; i < n; i++) {
		const struct lesson_metric *a = &before->m[i], *b = &after->m[i];
		bool seen = false;

		if (isnan(a->v) || isnan(b->v) || (!a->better && (world || !is_probe(a))))
			continue;
		for (size_t k = 0; k < nunits; k++)
			seen |= !strcmp(units[k], rule_kind(a));
		if (!seen && nunits < 8)
			units[nunits++] = rule_kind(a);
	}
	sbuf_puts(out, "What this run measured. The rule: ");
	for (size_t k = 0; k < nunits; k++)
		sbuf_printf(out, "%s%s", k ? "; " : "", rule_text(units[k]));
	sbuf_puts(out, nunits ? ".\n" : "nothing measured on both sides.\n");
	for (size_t i = 0; i < n; i++) {
		const struct lesson_metric *a = &before->m[i], *b = &after->m[i];
		char va[40], vb[40];
		enum change ch;
		const char *word;

		if (!a->better && (world || !is_probe(a)))
			continue; /* context: in the table, not judged */
		fmt_v(a, va, sizeof(va));
		fmt_v(b, vb, sizeof(vb));
		if (isnan(a->v) || isnan(b->v)) {
			sbuf_printf(out, "- %s: %s -> %s: not measured on both sides%s%s%s.\n",
				    a->name, va, vb, b->note[0] || a->note[0] ? " (" : "",
				    b->note[0] ? b->note : a->note,
				    b->note[0] || a->note[0] ? ")" : "");
			na |= a->better != 0;
			continue;
		}
		ch = compare(a, b);
		if (is_probe(a) && sim)
			probe_excluded = true;
		if (a->better && !(sim && is_probe(a))) {
			judged_n++;
			if (ch == CH_NONE) {
				word = "no difference seen";
				same++;
			} else if ((ch == CH_UP) == (a->better > 0)) {
				word = "improved";
				better++;
			} else {
				word = "worse";
				worse++;
			}
		} else {
			word = ch == CH_NONE ? "no difference seen" : ch == CH_UP ? "rose" : "fell";
		}
		sbuf_printf(out, "- %s: %s -> %s: %s%s", a->name, va, vb, word,
			    a->better && !(sim && is_probe(a)) ? "" : " (not judged)");
		{
			double ilo, ihi;

			if (diff_interval(a, b, &ilo, &ihi))
				sbuf_printf(out,
					    " (difference %+.1f %s, 95%% interval %+.1f .. %+.1f "
					    "%s, over %llu and %llu samples)",
					    b->v - a->v, a->unit, ilo, ihi, a->unit,
					    (unsigned long long)a->n, (unsigned long long)b->n);
		}
		/* a clock that did not move although its governor now asks for
		 * the top: something else holds it */
		if (ch == CH_NONE && !strcmp(a->unit, "MHz") && !strcmp(b->note, "performance"))
			sbuf_puts(out, ", although its governor reads performance: something holds "
				       "the clock (a max clamp, a thermal cap or firmware; the "
				       "findings name a clamp or cooling device they see)");
		sbuf_puts(out, ".\n");
	}
	if (!judged_n)
		sbuf_puts(out, "Overall: nothing this run measured can judge the effect.\n");
	else if (better && !worse)
		sbuf_printf(out, "Overall: improved (%d of %d judged numbers).\n", better,
			    judged_n);
	else if (worse && !better)
		sbuf_printf(out, "Overall: worse (%d of %d judged numbers).\n", worse, judged_n);
	else if (worse && better)
		sbuf_printf(out, "Overall: mixed (%d improved, %d worse, %d no difference seen).\n",
			    better, worse, same);
	else
		sbuf_puts(out, "Overall: no difference seen: the change did not show in these "
			       "numbers on this board.\n");
	if (world)
		sbuf_printf(out,
			    "SIMULATED: the board is the world %s; the %s samples are its "
			    "model's (doc/teach.md), taken with the change in force, so the "
			    "difference is the mechanism's, with the interval of its noise. "
			    "%s\n",
			    world_def_of(e->b->world)->name,
			    lesson_in_world(e->l, e->b) ? e->l->world_label : "probe's wake-up",
			    lesson_in_world(e->l, e->b)
				    ? "Only that latency is judged; the other numbers are the "
				      "mechanism, shown but not judged."
				    : "The idle counters are the knob's own effect, shown but not "
				      "judged.");
	if (sim)
		sbuf_puts(out, "The board is simulated: the numbers are the simulator's, showing "
			       "what the mechanism does, not a measurement of hardware.\n");
	if (probe_excluded)
		sbuf_puts(out, "The probe ran on this machine, which the change did not touch (it "
			       "went to the simulated board): the difference between its windows "
			       "is run-to-run noise, not an effect, and is not judged.\n");
	if (!sim && !world && (lesson_on_threads(e->l) || !strcmp(e->l->needs, "cpuidle")) &&
	    live_vm(vm, sizeof(vm)))
		sbuf_printf(out, "This machine is a virtual machine (%s): %s\n", vm,
			    lesson_on_threads(e->l)
				    ? "migrations are real, but the host moves the virtual CPUs "
				      "too, and cache-miss counters often do not exist in a guest."
				    : "the guest's idle states are not the host's C-states, so the "
				      "probe may not show their exit latency.");
	if (na)
		sbuf_puts(out, "Where a number is n/a this machine cannot show that effect; the "
			       "note next to it says why.\n");
}

/* ---- what the board lacks ------------------------------------------------------------ */

const char *lesson_root_missing(const struct sysroot *r, const char *needs, char *buf, size_t cap)
{
	if (lesson_root_has(r, needs))
		return NULL;
	if (!strcmp(needs, "cpufreq"))
		snprintf(buf, cap,
			 "no cpufreq policy (sys/devices/system/cpu/cpufreq is empty): no scaling "
			 "driver is loaded; a virtual machine usually has none, on hardware load "
			 "its driver (acpi-cpufreq, intel_pstate, cpufreq-dt)");
	else if (!strcmp(needs, "cpuidle"))
		snprintf(buf, cap,
			 "no idle state to disable (cpu0/cpuidle/state1 is missing): the kernel "
			 "has no cpuidle driver with more than one state; a virtual machine "
			 "usually has none or haltpoll only");
	else if (!strcmp(needs, "devfreq"))
		snprintf(buf, cap,
			 "no devfreq device (sys/class/devfreq is empty): DDR, GPU or NPU "
			 "frequency scaling is an SoC feature that PCs and VMs do not have");
	else if (!strcmp(needs, "rt") && sysfs_is_dir(r, "sys/kernel/debug/sched"))
		snprintf(buf, cap,
			 "per-CPU RT runqueues need sys/kernel/debug/sched/debug: the kernel "
			 "lacks CONFIG_SCHED_DEBUG");
	else if (!strcmp(needs, "rt"))
		snprintf(buf, cap,
			 "per-CPU RT runqueues (rt_throttled, rt_time) need debugfs: mount -t "
			 "debugfs none /sys/kernel/debug (as root)");
	else if (!strcmp(needs, "world"))
		snprintf(buf, cap,
			 "this lesson runs only in its simulated world (tunetop learn N "
			 "--demo=world)");
	else
		snprintf(buf, cap, "no %s interface", needs);
	return buf;
}

int lesson_shell_lines(struct knob_ctx *ctx, const struct lesson_run *e, struct sbuf *out,
		       char **cause)
{
	const char *as[LESSON_MAX_TOGGLES];

	for (size_t i = 0; i < e->nassign; i++)
		as[i] = e->assign[i];
	return knob_set_many(ctx, as, NULL, e->nassign, KNOB_DRY_RUN, out, cause);
}
