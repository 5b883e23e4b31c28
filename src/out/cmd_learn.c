/* `tunetop learn [N]`: five guided exercises in text mode. Each lesson is
 * data (the table at the bottom): what to explain (explain-table keys), what
 * the learner toggles (knob assignments), what to measure (a function that
 * reads a few numbers from snapshots), and what the change means. The
 * runner does explain -> toggle -> measure -> compare -> restore, on the live
 * board when it has the interfaces (and we may write them), otherwise on the
 * simulated RK3588 of --demo (model/sim.h), or on --root DIR. Every change
 * goes through the knob engine (journaled, scoped to this run) and is
 * restored at the end, on Ctrl-C too. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cmd.h"
#include "core/cpumask.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "knob/knob.h"
#include "model/explain.h"
#include "model/record.h"
#include "model/sim.h"
#include "model/snapshot.h"
#include "probe/histogram.h"
#include "probe/probe.h"
#include "source/perf.h"
#include "source/threads.h"

#define MAX_METRICS 12
#define TICK_S	    0.5
#define TICKS	    3

struct metric {
	char name[64];
	double v; /* NAN = n/a */
	char unit[12];
	char note[96]; /* why n/a, or a remark */
};

struct metrics {
	size_t n;
	struct metric m[MAX_METRICS];
};

/* Where the lesson runs. */
struct board {
	struct sysroot root;
	bool root_open;
	struct sim *sim; /* the simulated board, or NULL */
	double sim_t;	 /* simulated seconds so far */
	const char *state_dir;
	const char *root_arg; /* what to pass as --root in printed commands ("" = live) */
	struct knob_ctx *ctx;
	struct sampler sm;
	bool sampling;
	struct recorder *rec;
	bool demo_label;
};

struct lesson;

struct lesson_env {
	struct board *b;
	const struct lesson *l;
	char assign[4][KNOB_ADDR_MAX + KNOB_VALUE_MAX]; /* the toggles, placeholders resolved */
	size_t nassign;
	pid_t worker_tid; /* lesson 5 */
	int worker_cpu;
	struct sbuf out;
};

struct lesson {
	const char *title;
	const char *needs; /* "cpufreq" "cpuidle" "devfreq" "rt" "threads" */
	const char *explain[3];
	const char *intro;	 /* what is going on, what to look for */
	const char *toggle[4];	 /* knob assignments; {deep} = deepest idle state */
	const char *toggle_hint; /* the TUI key / shell form, in words */
	void (*measure)(struct lesson_env *e, struct metrics *m);
	const char *after; /* what changed and why */
};

static volatile sig_atomic_t learn_stop;

static void on_signal(int sig)
{
	(void)sig;
	learn_stop = 1;
}

static void metric(struct metrics *m, const char *name, double v, const char *unit,
		   const char *note)
{
	struct metric *x;

	if (m->n >= MAX_METRICS)
		return;
	x = &m->m[m->n++];
	str_copy(x->name, sizeof(x->name), name);
	x->v = v;
	str_copy(x->unit, sizeof(x->unit), unit);
	str_copy(x->note, sizeof(x->note), note ? note : "");
}

/* ---- sampling ------------------------------------------------------------------- */

/* TICKS samples TICK_S apart; the simulator advances with real time. */
static const struct snapshot *sample_window(struct board *b)
{
	if (!b->sampling) {
		sampler_init(&b->sm, &b->root, SNAP_ALL);
		b->sampling = true;
		sampler_tick(&b->sm);
	}
	for (int i = 0; i < TICKS && !learn_stop; i++) {
		time_sleep_ns((uint64_t)(TICK_S * 1e9));
		if (b->sim) {
			sim_step(b->sim, TICK_S);
			b->sim_t += TICK_S;
		}
		if (sampler_tick(&b->sm) != 0)
			return NULL;
		if (b->rec)
			record_sample(b->rec, sampler_cur(&b->sm), NULL);
	}
	return sampler_cur(&b->sm);
}

/* ---- measurements ------------------------------------------------------------- */

static void m_governor(struct lesson_env *e, struct metrics *m)
{
	const struct snapshot *s = sample_window(e->b);

	for (size_t i = 0; s && i < s->freq.npolicies; i++) {
		const struct cpufreq_policy *p = &s->freq.pol[i];
		char name[64];
		double at = NAN;

		double busy = NAN;

		snprintf(name, sizeof(name), "%s clock", p->name);
		metric(m, name, p->cur_khz >= 0 ? (double)p->cur_khz / 1000 : NAN, "MHz",
		       p->governor);
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

static void probe_metrics(struct lesson_env *e, struct metrics *m)
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
	metric(m, "wake-up latency p99 (probe, cpu0)", hist_percentile_us(&h, 0.99), "us", note);
	metric(m, "wake-up latency max (probe, cpu0)", hist_max_us(&h), "us", note);
	probe_free(&p);
}

static void m_idle(struct lesson_env *e, struct metrics *m)
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
	snprintf(name, sizeof(name), "%s residency, mean of CPUs", deep);
	metric(m, name, n ? res / n : NAN, "%", n ? NULL : "no rates");
	snprintf(name, sizeof(name), "%s entries per second, mean", deep);
	metric(m, name, n ? ent / n : NAN, "/s", NULL);
	metric(m, "state0 (shallowest) residency, mean", n ? shallow / n : NAN, "%", NULL);
	probe_metrics(e, m);
}

static void m_devfreq(struct lesson_env *e, struct metrics *m)
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
		if (d->load[0]) {
			load = strtod(d->load, &end);
			snprintf(name, sizeof(name), "%s load", d->name);
			metric(m, name, end != d->load ? load : NAN, "%", NULL);
		}
	}
}

static void m_rt(struct lesson_env *e, struct metrics *m)
{
	const struct snapshot *s;
	double worst = NAN;
	int thr = 0;

	/* The simulated RT task asks for 97% of the last CPU between 4 and 10 s of
	 * every 20 s: make sure the window covers that. */
	if (e->b->sim && fmod(e->b->sim_t, 20.0) < 4.0) {
		double skip = 4.2 - fmod(e->b->sim_t, 20.0);

		sim_step(e->b->sim, skip);
		e->b->sim_t += skip;
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
	return NULL;
}

static void m_affinity(struct lesson_env *e, struct metrics *m)
{
	const struct sysroot *live = sysroot_live();
	struct thread_table a = {0}, b = {0};
	const struct thread_info *t;
	struct perf_set ps;
	const char *const evs[] = {"cpu-migrations", "cache-misses", NULL};
	char *cause = NULL;
	bool perf_ok;
	uint64_t t0;

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
	if (t)
		e->worker_cpu = t->last_cpu;
	if (perf_ok && perf_sample(&ps) == 0) {
		for (size_t k = 0; k < ps.nev; k++) {
			const struct perf_counter *c = perf_at(&ps, 0, k);
			char name[96];

			snprintf(name, sizeof(name), "worker %s (perf)", ps.ev_label[k]);
			metric(m, name, c->err ? NAN : c->rate_per_s, "/s",
			       c->err ? ps.reason[k] : (c->scaled ? "scaled (multiplexed)" : NULL));
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

/* ---- the lessons --------------------------------------------------------------- */

static const struct lesson lessons[] = {
	{
		.title = "Governor collapse",
		.needs = "cpufreq",
		.explain = {"cpufreq/*/governor", "cpu.freq_khz", NULL},
		.intro = "A latency-critical thread that blocks in a device ioctl makes its CPU "
			 "look "
			 "idle, and a dynamic governor parks the cluster at the lowest OPP. On an "
			 "RK3588 "
			 "an NPU inference took 97 ms on average (79-128 ms) on a quiet board at "
			 "408 MHz "
			 "and 48 ms on a busy one. Look at the clock of each policy and how much "
			 "of the "
			 "time it spends at its lowest OPP.",
		.toggle = {"cpufreq/*/governor=performance", NULL},
		.toggle_hint = "Cores screen (F3): g on a policy; or echo performance into each "
			       "policy's scaling_governor",
		.measure = m_governor,
		.after =
			"performance pins every policy at its highest allowed OPP: the clock no "
			"longer "
			"depends on how busy the CPU looks, so DMA set-up and interrupt handling "
			"run at "
			"full speed (RK3588: ~34 ms instead of 48-97 ms). The cost is heat and "
			"power: on "
			"the RK3588 the big cores alone were enough (step C, warm instead of hot).",
	},
	{
		.title = "Idle-state A/B with the probe",
		.needs = "cpuidle",
		.explain = {"cpuidle/*/*/disable", "cpuidle.latency_us", "probe.latency_us"},
		.intro =
			"Deep idle states save power but every wake-up pays their exit latency "
			"(RK3588 cpu-sleep 220 us, Intel C6 ~170 us). Look at the residency of the "
			"deepest state and at the wake-up latency the probe measures.",
		.toggle = {"cpuidle/*/{deep}/disable=1", NULL},
		.toggle_hint =
			"Cores screen (F3): i; or echo 1 into stateK/disable of EVERY CPU (it "
			"is per CPU)",
		.measure = m_idle,
		.after = "With the deep state disabled the governor falls back to the shallow one: "
			 "its "
			 "residency moves there and the exit latency disappears from every "
			 "wake-up. On the "
			 "RK3588 NPU pipeline this plus DDR on performance took rknn_run from 33.8 "
			 "to "
			 "29.4 ms with variance ~0. A PM QoS request (/dev/cpu_dma_latency, 4-byte "
			 "binary, "
			 "held by an open fd) does the same without per-CPU writes. Use tunetop ab "
			 "to "
			 "A/B it properly.",
	},
	{
		.title = "DDR and NPU clocks",
		.needs = "devfreq",
		.explain = {"devfreq/dmc/governor", "devfreq/*/governor", "devfreq.load"},
		.intro = "An accelerator is only as fast as the memory that feeds it. Look at the "
			 "DDR "
			 "controller's clock next to the NPU's: on the RK3588 the dmc sat at 528 "
			 "MHz while "
			 "the NPU ran at 1 GHz.",
		.toggle = {"devfreq/ddr/governor=performance", "devfreq/npu/governor=performance",
			   NULL},
		.toggle_hint = "Clocks screen (F4): g on dmc and on the NPU; or echo performance > "
			       "/sys/class/devfreq/dmc/governor",
		.measure = m_devfreq,
		.after = "Both devices now run at their top OPP: the DDR no longer has to ramp up "
			 "at "
			 "every inference burst (RK3588: dmc 528 -> 2112 MHz, part of step D, 33.8 "
			 "-> "
			 "29.4 ms, which made 30 FPS possible). It needs active cooling.",
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
		.toggle = {"sched/rt_runtime_us=-1", NULL},
		.toggle_hint =
			"RT screen (F5): r; or echo -1 > /proc/sys/kernel/sched_rt_runtime_us",
		.measure = m_rt,
		.after = "-1 removes the limit: the RT task is no longer stopped, but nothing "
			 "protects "
			 "normal tasks from a runaway RT thread any more (before 6.12; since 6.12 "
			 "the "
			 "deadline fair server does). The B4860 base station instead made fewer "
			 "threads RT "
			 "and used a 100000/90000 us window, which bounds each stall to 10 ms.",
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
		.toggle = {"thread/{tid}/affinity={cpu}", NULL},
		.toggle_hint = "Threads screen: a on the thread; or taskset -pc CPU TID",
		.measure = m_affinity,
		.after = "Pinned, the worker stays on one CPU: no migrations, warm caches. On a TI "
			 "AM5729 with PREEMPT_RT, pinning the control loop to the isolated core "
			 "cut the "
			 "maximum latency under load by ~33%. Pin to a CPU that takes no device "
			 "interrupts "
			 "(irq affinity) and, ideally, is isolated (isolcpus).",
	},
};

#define NLESSONS (sizeof(lessons) / sizeof(lessons[0]))

/* ---- board selection ------------------------------------------------------------- */

static bool root_has(const struct sysroot *r, const char *needs)
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
	return true; /* threads: the live kernel always */
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
	if (b->sampling)
		sampler_free(&b->sm);
	b->sampling = false;
	if (b->root_open)
		sysroot_close(&b->root);
	b->root_open = false;
	sim_close(b->sim);
	b->sim = NULL;
}

static int board_open(struct board *b, const struct tt_opts *o, const struct lesson *l, bool demo,
		      const char *record_path, bool auto_mode)
{
	char *cause = NULL, bundle[512], err[256];
	bool live = !strcmp(o->root, "/");

	memset(b, 0, sizeof(*b));
	b->state_dir = o->state_dir;
	b->root_arg = live ? "" : o->root;
	if (!strcmp(l->needs, "threads"))
		demo = false; /* threads are live, always */
	else if (!demo && live) {
		struct sysroot r;

		if (sysroot_open(&r, "/") == 0) {
			bool ok = root_has(&r, l->needs) && (geteuid() == 0 || !auto_mode);

			if (!ok)
				printf("This machine has no %s interface we can change (%s): using "
				       "the "
				       "simulated RK3588.\n\n",
				       l->needs, root_has(&r, l->needs) ? "not root" : "absent");
			demo = !ok;
			sysroot_close(&r);
		}
	}
	if (demo) {
		if (sim_find_bundle(bundle, sizeof(bundle)) != 0) {
			fprintf(stderr, "tunetop learn: the demo board is not installed "
					"(rk3588-demo.tar)\n");
			return -ENOENT;
		}
		if (sim_open(&b->sim, bundle, err, sizeof(err)) != 0) {
			fprintf(stderr, "tunetop learn: %s\n", err);
			return -EIO;
		}
		b->state_dir = sim_state_dir(b->sim);
		b->root_arg = sim_root(b->sim);
		b->demo_label = true;
	}
	if (sysroot_open(&b->root, b->sim ? sim_root(b->sim) : o->root) != 0) {
		fprintf(stderr, "tunetop learn: cannot open root '%s'\n", o->root);
		board_close(b);
		return -ENOENT;
	}
	b->root_open = true;
	if (knob_ctx_open(&b->ctx, &b->root, b->state_dir, KNOB_READONLY_OK, &cause) != 0) {
		fprintf(stderr, "tunetop learn: %s\n",
			cause ? cause : "cannot open the knob engine");
		free(cause);
		board_close(b);
		return -EIO;
	}
	free(cause);
	if (record_path) {
		struct record_meta meta = {.source = b->sim ? "demo" : "learn",
					   .root_path = b->root.path,
					   .interval_ms = TICK_S * 1000,
					   .simulated = b->sim != NULL,
					   .board = b->sim ? sim_board(b->sim) : NULL,
					   .journal_root = &b->root,
					   .state_dir = b->state_dir};

		cause = NULL;
		if (record_open(&b->rec, record_path, &meta, &cause) != 0) {
			fprintf(stderr, "tunetop learn: %s\n", cause);
			free(cause);
			board_close(b);
			return -EIO;
		}
	}
	return 0;
}

/* ---- runner ---------------------------------------------------------------------- */

/* Word-wrap each line of text (lines split on '\n') after lead. */
static void wrap_print(const char *text, const char *lead)
{
	const char *p = text;
	int width = 76;

	while (*p) {
		int len = 0, sp = -1;

		while (p[len] && p[len] != '\n' && len < width) {
			if (p[len] == ' ')
				sp = len;
			len++;
		}
		if (p[len] && p[len] != '\n' && sp > 0)
			len = sp;
		printf("%s%.*s\n", lead, len, p);
		p += len;
		while (*p == ' ' || *p == '\n')
			p++;
	}
}

static void print_metrics(const struct metrics *before, const struct metrics *after)
{
	printf("  %-44s %14s %14s\n", "", "before", after ? "after" : "");
	for (size_t i = 0; i < before->n; i++) {
		const struct metric *a = &before->m[i];
		const struct metric *b = NULL;
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

static bool resolve_toggles(struct lesson_env *e, const struct snapshot *s)
{
	char deep[32];

	deepest_state(s, deep, sizeof(deep));
	e->nassign = 0;
	for (size_t i = 0; i < 4 && e->l->toggle[i]; i++) {
		const char *t = e->l->toggle[i];
		char out[KNOB_ADDR_MAX + KNOB_VALUE_MAX];
		size_t o = 0;

		while (*t && o + 40 < sizeof(out)) {
			if (!strncmp(t, "{deep}", 6)) {
				if (!deep[0])
					return false;
				o += (size_t)snprintf(out + o, sizeof(out) - o, "%s", deep);
				t += 6;
			} else if (!strncmp(t, "{tid}", 5)) {
				o += (size_t)snprintf(out + o, sizeof(out) - o, "%d",
						      (int)e->worker_tid);
				t += 5;
			} else if (!strncmp(t, "{cpu}", 5)) {
				o += (size_t)snprintf(out + o, sizeof(out) - o, "%d",
						      e->worker_cpu >= 0 ? e->worker_cpu : 0);
				t += 5;
			} else {
				out[o++] = *t++;
			}
		}
		out[o] = '\0';
		str_copy(e->assign[e->nassign++], sizeof(e->assign[0]), out);
	}
	return e->nassign > 0;
}

static int apply_toggles(struct lesson_env *e, bool thread_lesson, cpu_set_t *saved)
{
	struct board *b = e->b;
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

static void restore(struct lesson_env *e, bool thread_lesson, const cpu_set_t *saved)
{
	struct sbuf rep;
	char *cause = NULL;

	if (thread_lesson) {
		sched_setaffinity(e->worker_tid, sizeof(*saved), saved);
		printf("  restored the worker's affinity\n");
		return;
	}
	sbuf_init(&rep);
	if (knob_restore_run(e->b->ctx, knob_ctx_run_id(e->b->ctx), 0, &rep, &cause) != 0)
		printf("  restore: %s (run 'tunetop restore')\n", cause ? cause : "failed");
	else if (rep.len)
		wrap_print(rep.s, "  ");
	else
		printf("  nothing to restore\n");
	free(cause);
	sbuf_free(&rep);
}

/* Interactive: wait for the learner; returns true when tunetop should do it. */
static bool ask_learner(const struct lesson_env *e)
{
	char line[64];

	printf("\n  Your turn. In another terminal run:\n");
	for (size_t i = 0; i < e->nassign; i++) {
		if (!strncmp(e->assign[i], "thread/", 7)) {
			printf("    taskset -pc %d %d\n", e->worker_cpu >= 0 ? e->worker_cpu : 0,
			       (int)e->worker_tid);
			continue;
		}
		printf("    tunetop%s%s%s%s set %s\n", e->b->root_arg[0] ? " --root " : "",
		       e->b->root_arg, e->b->sim ? " --state-dir " : "",
		       e->b->sim ? e->b->state_dir : "", e->assign[i]);
	}
	printf("  (%s)\n", e->l->toggle_hint);
	printf("  Press Enter when done, or type 'd' and Enter to let tunetop do it: ");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return true;
	return line[0] == 'd' || line[0] == 'D';
}

static int run_lesson(const struct tt_opts *o, size_t idx, bool auto_mode, bool demo,
		      const char *record_path)
{
	const struct lesson *l = &lessons[idx];
	struct lesson_env e;
	struct board b;
	struct metrics before = {0}, after = {0};
	struct worker bg[3], w;
	bool threads = !strcmp(l->needs, "threads"), do_it = auto_mode;
	cpu_set_t saved;
	int rc = 0;

	memset(&e, 0, sizeof(e));
	e.l = l;
	e.b = &b;
	e.worker_cpu = -1;
	if (board_open(&b, o, l, demo, record_path, auto_mode) != 0)
		return 1;
	printf("Lesson %zu: %s%s\n", idx + 1, l->title, b.sim ? "   [SIMULATED RK3588]" : "");
	printf("  board: %s\n\n", b.sim ? "the simulated RK3588 (tunetop --demo)" : b.root.path);
	/* 1. explain */
	printf("What is going on\n");
	wrap_print(l->intro, "  ");
	for (size_t i = 0; i < 3 && l->explain[i]; i++) {
		const struct explain_entry *x = explain_find(l->explain[i]);

		if (!x)
			continue;
		printf("\n  %s - %s\n", x->key, x->title);
		wrap_print(x->why, "    ");
		printf("    (tunetop explain %s)\n", x->key);
	}
	if (threads) {
		memset(&w, 0, sizeof(w));
		memset(bg, 0, sizeof(bg));
		pthread_create(&w.th, NULL, worker_main, &w);
		for (int i = 0; i < 3; i++) {
			bg[i].busy = true;
			pthread_create(&bg[i].th, NULL, worker_main, &bg[i]);
		}
		while (!w.tid)
			time_sleep_ns(1000000);
		e.worker_tid = w.tid;
		printf("\n  worker thread: tid %d (busy threads next to it)\n", (int)w.tid);
	}
	/* 2. measure before */
	printf("\nMeasuring before (%.1f s)...\n", threads ? 1.5 : TICKS * TICK_S);
	l->measure(&e, &before);
	print_metrics(&before, NULL);
	if (learn_stop)
		goto out;
	/* 3. toggle */
	if (!resolve_toggles(&e, sampler_cur(&b.sm))) {
		printf("\n  Nothing to toggle on this board.\n");
		goto out;
	}
	printf("\nThe change\n");
	for (size_t i = 0; i < e.nassign; i++) {
		const struct explain_entry *x = explain_find(e.assign[i]);
		struct explain_resolved xr;

		printf("  %s\n", e.assign[i]);
		if (x && explain_resolve(x, e.assign[i], &b.root, &xr) == 0) {
			if (xr.shell[0])
				wrap_print(xr.shell, "    shell: ");
			explain_resolved_free(&xr);
		}
	}
	if (!auto_mode)
		do_it = ask_learner(&e);
	if (learn_stop)
		goto out;
	if (do_it && apply_toggles(&e, threads, &saved) != 0) {
		rc = 1;
		goto restore;
	}
	/* 4. measure after, compare */
	printf("\nMeasuring after...\n");
	l->measure(&e, &after);
	print_metrics(&before, &after);
	printf("\nWhat changed and why\n");
	wrap_print(l->after, "  ");
restore:
	/* 5. restore */
	printf("\nRestoring\n");
	if (do_it || !threads)
		restore(&e, threads && do_it, &saved);
	if (!do_it && !threads)
		printf("  (if you changed it yourself: tunetop%s%s undo)\n",
		       b.root_arg[0] ? " --root " : "", b.root_arg);
out:
	if (threads) {
		w.stop = 1;
		pthread_join(w.th, NULL);
		for (int i = 0; i < 3; i++) {
			bg[i].stop = 1;
			pthread_join(bg[i].th, NULL);
		}
	}
	if (learn_stop) {
		printf("\nInterrupted: restoring.\n");
		if (!threads)
			restore(&e, false, &saved);
		rc = 1;
	}
	board_close(&b);
	return rc;
}

static void list_lessons(const struct tt_opts *o)
{
	struct sysroot r;
	bool live = !strcmp(o->root, "/"), have = sysroot_open(&r, o->root) == 0;

	printf("tunetop learn N - guided exercises (explain, toggle, measure, compare, "
	       "restore)\n\n");
	for (size_t i = 0; i < NLESSONS; i++) {
		const char *where;

		if (!strcmp(lessons[i].needs, "threads"))
			where = "this machine's kernel";
		else if (have && root_has(&r, lessons[i].needs))
			where = live ? "this machine" : "this root";
		else
			where = "the simulated RK3588";
		printf("  %zu  %-40s runs on %s\n", i + 1, lessons[i].title, where);
	}
	printf("\n  --auto    tunetop makes the change itself (no prompts)\n"
	       "  --demo    use the simulated RK3588 even where the board has the interface\n"
	       "  --record FILE  record the measurements (tunetop report FILE --html OUT)\n");
	if (have)
		sysroot_close(&r);
}

int cmd_learn(const struct tt_opts *o, int argc, char **argv)
{
	static const struct option lo[] = {
		{"auto", no_argument, NULL, 'a'},
		{"demo", no_argument, NULL, 'D'},
		{"record", required_argument, NULL, 'R'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	bool auto_mode = false, demo = false;
	const char *record_path = NULL;
	struct sigaction sa;
	int c, n, rc = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "aDR:h", lo, NULL)) != -1) {
		switch (c) {
		case 'a': auto_mode = true; break;
		case 'D': demo = true; break;
		case 'R': record_path = optarg; break;
		case 'h': list_lessons(o); return 0;
		default:
			fprintf(stderr,
				"usage: tunetop learn [N|all] [--auto] [--demo] [--record FILE]\n");
			return 2;
		}
	}
	if (optind >= argc) {
		list_lessons(o);
		return 0;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "tunetop learn: one lesson number at a time (1-%zu or all)\n",
			NLESSONS);
		return 2;
	}
	if (!isatty(STDIN_FILENO))
		auto_mode = true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (!strcmp(argv[optind], "all")) {
		if (record_path) {
			fprintf(stderr,
				"tunetop learn: --record works with one lesson at a time\n");
			return 2;
		}
		for (size_t i = 0; i < NLESSONS && !learn_stop; i++) {
			if (i)
				printf("\n========================================================="
				       "===\n\n");
			rc |= run_lesson(o, i, auto_mode, demo, NULL);
		}
		return rc;
	}
	if (str_to_int(argv[optind], &n) || n < 1 || n > (int)NLESSONS) {
		fprintf(stderr, "tunetop learn: no lesson '%s' (1-%zu or all)\n", argv[optind],
			NLESSONS);
		return 2;
	}
	return run_lesson(o, (size_t)n - 1, auto_mode, demo, record_path);
}
