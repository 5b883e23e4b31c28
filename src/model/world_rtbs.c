/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The world rt-base-station (see world_rtbs.h): the LTE L2 thread of the
 * B4860 tree, one wake-up latency per 1 ms TTI in var/log/lte_l2.log. The
 * knobs that move it: thread/TID/policy of l2_tti, irq/36-eth0 and the
 * management threads (process/1420/policy), their affinities, irq/36/
 * affinity, sched/rt_runtime_us and sched/rt_period_us, cpuidle/N/pw20/
 * disable, and isolcpus= on the command line. The kernel booted and the
 * command line are the SIMULATED switches sim/board/kernel and
 * sim/board/cmdline. */
#include "model/world_rtbs.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/str.h"
#include "model/sim.h"
#include "model/world.h"
#include "model/world_proc.h"
#include "model/world_wm.h"
#include "model/worldmodel.h"
#include "source/threads.h"

/* The tree's threads the model's task terms stand for (probe --why names
 * them, so that its fix addresses a thread of the tree): the management
 * threads ahead of L2, one SCHED_OTHER thread of the application that can
 * run on L2's CPU (a "cfs thread" before L2, and what runs while the RT
 * class is throttled), and L2 itself. */
#define RTBS_CAST_MAX 16
struct rtbs_cast {
	struct {
		pid_t tid;
		int fifo;
		char comm[16];
	} mgmt[RTBS_CAST_MAX];
	int n_mgmt;
	pid_t cfs_tid; /* 0: none */
	char cfs_comm[16];
	pid_t gap_tid; /* a SCHED_OTHER thread that runs while RT is throttled; 0: none */
	char gap_comm[16];
	pid_t runaway_tid; /* the runaway RT thread (runaway_fifo); 0: none */
	int runaway_fifo;
	char runaway_comm[16];
	int l2_fifo; /* -1: no L2 thread */
};

static bool rt_kernel(const struct sysroot *r)
{
	char version[512];
	int64_t rt;

	if (sysfs_read_i64f(r, &rt, "sys/kernel/realtime") == 0)
		return rt == 1;
	return sysfs_read_str(r, "proc/version", version, sizeof(version)) == 0 &&
	       strstr(version, "PREEMPT_RT");
}

/* The IRQ's CPUs meet `cpus`? (unreadable: as the model's default) */
static bool irq_meets(const struct sysroot *r, const struct cpumask *cpus, bool dflt)
{
	char buf[256];
	struct cpumask m;

	if (sysfs_read_strf(r, buf, sizeof(buf), "proc/irq/%d/smp_affinity_list", WR_ETH_IRQ) ||
	    cpulist_parse(buf, &m) != 0)
		return dflt;
	cpumask_and(&m, cpus);
	return !cpumask_empty(&m);
}

/* Is the deep idle state enabled on CPU `cpu`? false when it has none. */
static bool deep_idle_on(const struct sysroot *r, int cpu)
{
	for (int k = 0; k < 10; k++) {
		char name[32];
		int64_t dis;

		if (sysfs_read_strf(r, name, sizeof(name),
				    "sys/devices/system/cpu/cpu%d/cpuidle/state%d/name", cpu, k))
			break;
		if (!strcmp(name, WR_DEEP_IDLE))
			return sysfs_read_i64f(
				       r, &dis,
				       "sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable", cpu,
				       k) == 0 &&
			       dis == 0;
	}
	return false;
}

/* The management threads: the highest FIFO priority among them (0: none
 * is RT) and the CPUs they can run on. */
static void mgmt_read(const struct thread_table *t, const struct cpumask *iso, int *fifo,
		      struct cpumask *cpus)
{
	const struct thread_info *lead = world_proc_find(t, WR_MGMT_COMM, false);

	*fifo = 0;
	cpumask_zero(cpus);
	for (size_t i = 0; lead && i < t->n; i++) {
		struct cpumask m;

		if (t->t[i].pid != lead->pid)
			continue;
		if (world_proc_fifo(&t->t[i]) > *fifo)
			*fifo = world_proc_fifo(&t->t[i]);
		world_proc_usable(&t->t[i], iso, &m);
		cpumask_or(cpus, &m);
	}
}

/* Is thread ti ahead of an L2 thread at FIFO l2_fifo (0: SCHED_OTHER) that
 * runs on l2cpus: RT, at least L2's priority, able to run there? */
static bool ahead_of_l2(const struct thread_info *ti, const struct cpumask *iso, int l2_fifo,
			const struct cpumask *l2cpus)
{
	struct cpumask m;
	int f = world_proc_fifo(ti);

	if (f <= 0 || (l2_fifo > 0 && f < l2_fifo))
		return false;
	world_proc_usable(ti, iso, &m);
	cpumask_and(&m, l2cpus);
	return !cpumask_empty(&m);
}

/* The management threads ahead of L2: their share of all of them (1 when
 * there are none: the model's default decides), and with `out` the first
 * RTBS_CAST_MAX of them. */
static double mgmt_ahead(const struct thread_table *t, const struct cpumask *iso, int l2_fifo,
			 const struct cpumask *l2cpus, struct rtbs_cast *out)
{
	const struct thread_info *lead = world_proc_find(t, WR_MGMT_COMM, false);
	int n = 0, k = 0;

	for (size_t i = 0; lead && i < t->n; i++) {
		if (t->t[i].pid != lead->pid)
			continue;
		n++;
		if (!ahead_of_l2(&t->t[i], iso, l2_fifo, l2cpus))
			continue;
		if (out && out->n_mgmt < RTBS_CAST_MAX) {
			out->mgmt[out->n_mgmt].tid = t->t[i].tid;
			out->mgmt[out->n_mgmt].fifo = world_proc_fifo(&t->t[i]);
			str_copy(out->mgmt[out->n_mgmt].comm, sizeof(out->mgmt[0].comm),
				 t->t[i].comm);
			out->n_mgmt++;
		}
		k++;
	}
	return n ? (double)k / n : 1.0;
}

/* pm_collector under SCHED_FIFO/RR and able to run on l2cpus: a runaway RT
 * thread there (its priority; 0 when it is not). */
static int runaway_fifo(const struct thread_table *t, const struct cpumask *iso,
			const struct cpumask *l2cpus)
{
	const struct thread_info *p = world_proc_find(t, WR_CFS_COMM, false);
	struct cpumask m;

	if (!p || world_proc_fifo(p) <= 0)
		return 0;
	world_proc_usable(p, iso, &m);
	cpumask_and(&m, l2cpus);
	return cpumask_empty(&m) ? 0 : world_proc_fifo(p);
}

void world_rtbs_read(const struct sysroot *r, union wm_in *in)
{
	struct wm_rtbs_in *b = &in->rtbs;
	struct thread_table t = {0};
	const struct thread_info *l2, *irq;
	struct cpumask iso, l2cpus, mcpus, both;
	int64_t v;

	b->kernel = rt_kernel(r) ? WM_KERNEL_PREEMPT_RT : WM_KERNEL_NONRT;
	if (sysfs_read_i64f(r, &v, "proc/sys/kernel/sched_rt_runtime_us") == 0)
		b->rt_runtime_us = v;
	if (sysfs_read_i64f(r, &v, "proc/sys/kernel/sched_rt_period_us") == 0)
		b->rt_period_us = v;
	world_proc_isolated(r, &iso);
	if (threads_read(r, THREADS_KERNEL, &t) != 0)
		return;
	l2 = world_proc_find(&t, WR_L2_COMM, false);
	irq = world_proc_find(&t, WR_IRQ_COMM, false);
	if (irq)
		b->eth_irq_fifo = world_proc_fifo(irq);
	mgmt_read(&t, &iso, &b->mgmt_fifo, &mcpus);
	if (l2) {
		b->l2_fifo = world_proc_fifo(l2);
		world_proc_usable(l2, &iso, &l2cpus);
		b->eth_irq_on_l2_cpu = irq_meets(r, &l2cpus, b->eth_irq_on_l2_cpu);
		/* isolated: only L2 there (isolcpus keeps the other threads
		 * off; a management thread pinned there would still come) */
		both = l2cpus;
		cpumask_and(&both, &mcpus);
		b->l2_cpu_isolated = false;
		if (!cpumask_empty(&l2cpus) && cpumask_empty(&both)) {
			struct cpumask out = l2cpus;

			cpumask_andnot(&out, &iso);
			b->l2_cpu_isolated = cpumask_empty(&out);
		}
		b->deep_idle = deep_idle_on(r, cpumask_next(&l2cpus, 0));
		b->mgmt_ahead_share = mgmt_ahead(&t, &iso, b->l2_fifo, &l2cpus, NULL);
		b->runaway_fifo = runaway_fifo(&t, &iso, &l2cpus);
	}
	threads_free(&t);
}

/* The application's threads in the world's tree (the bundle leaves the
 * fixture's proc/PID out; the same threads as tests/fixtures/b4860/proc):
 * the board as delivered, the note's PREEMPT_RT default. */
static const struct world_wm_thread threads[] = {
	WM_THREAD(142, 142, WR_IRQ_COMM, 1, 50, 0, "0-3", 'S'),
	WM_THREAD(1420, 1420, WR_MGMT_COMM, 1, 50, 0, "0-3", 'S'),
	WM_THREAD(1420, 1421, "oam_snmp", 1, 50, 0, "0-3", 'S'),
	WM_THREAD(1420, 1422, "oam_log", 1, 50, 0, "0-3", 'S'),
	WM_THREAD(1501, 1501, "lte_l2", 0, 0, 0, "0-3", 'S'),
	WM_THREAD(1501, 1502, WR_L2_COMM, 1, 50, 0, "0-3", 'R'),
	WM_THREAD(1610, 1610, "pm_collector", 0, 0, 0, "0-3", 'S'),
};

/* What the note did that is no knob of the running board: booting the
 * distribution's kernel or PREEMPT_RT, the boot parameters (SIMULATED
 * switches, knob/sim_kind.h). */
static const struct world_wm_switch switches[] = {
	{"board/kernel", "@kernel", "rt nonrt",
	 "the kernel booted: rt (PREEMPT_RT, as delivered) or nonrt (a PREEMPT kernel)"},
	WM_SWITCH_CMDLINE,
};

const struct world_wm world_wm_rtbs = {
	/* the 1 ms TTI */
	WORLD_WM_MODEL("rt-base-station", world_rtbs_read, 0.001, "[l2] tti latency:", "us", 1),
	WORLD_WM_LIST(threads, threads),
	WORLD_WM_LIST(switches, switches),
};

/* What runs on L2's CPUs while the RT class is throttled: WR_CFS_COMM
 * under SCHED_OTHER, else the first SCHED_OTHER thread of the application
 * (a user thread: not a kernel thread) that can run there. */
static void gap_read(const struct thread_table *t, const struct cpumask *iso,
		     const struct cpumask *l2cpus, struct rtbs_cast *c)
{
	const struct thread_info *g = NULL;

	if (c->cfs_tid > 0) {
		c->gap_tid = c->cfs_tid;
		str_copy(c->gap_comm, sizeof(c->gap_comm), c->cfs_comm);
		return;
	}
	for (size_t i = 0; !g && i < t->n; i++) {
		struct cpumask m;

		if (t->t[i].kernel || world_proc_fifo(&t->t[i]) > 0)
			continue;
		world_proc_usable(&t->t[i], iso, &m);
		cpumask_and(&m, l2cpus);
		if (!cpumask_empty(&m))
			g = &t->t[i];
	}
	if (g) {
		c->gap_tid = g->tid;
		str_copy(c->gap_comm, sizeof(c->gap_comm), g->comm);
	}
}

/* The cast from the tree at r. */
static void cast_read(const struct sysroot *r, struct rtbs_cast *c)
{
	struct thread_table t = {0};
	const struct thread_info *l2, *cfs;
	struct cpumask iso, l2cpus;

	memset(c, 0, sizeof(*c));
	c->l2_fifo = -1;
	world_proc_isolated(r, &iso);
	if (threads_read(r, THREADS_KERNEL, &t) != 0)
		return;
	l2 = world_proc_find(&t, WR_L2_COMM, false);
	if (l2) {
		c->l2_fifo = world_proc_fifo(l2);
		world_proc_usable(l2, &iso, &l2cpus);
		mgmt_ahead(&t, &iso, c->l2_fifo, &l2cpus, c);
		cfs = world_proc_find(&t, WR_CFS_COMM, false);
		if (cfs && world_proc_fifo(cfs) == 0) {
			c->cfs_tid = cfs->tid;
			str_copy(c->cfs_comm, sizeof(c->cfs_comm), cfs->comm);
		}
		c->runaway_fifo = runaway_fifo(&t, &iso, &l2cpus);
		if (c->runaway_fifo > 0) {
			c->runaway_tid = cfs->tid;
			str_copy(c->runaway_comm, sizeof(c->runaway_comm), cfs->comm);
		}
		gap_read(&t, &iso, &l2cpus, c);
	}
	threads_free(&t);
}

/* Name a task term after thread tid/comm at FIFO fifo (0: SCHED_OTHER). */
static void cast_term(struct wm_term *m, pid_t tid, const char *comm, int fifo)
{
	m->id = (int)tid;
	str_copy(m->name, sizeof(m->name), comm);
	m->prio = fifo > 0 ? fifo : -1;
}

/* A throttled sample under a runaway RT thread: the thread that used up the
 * runtime as a WMC_THROTTLED term of its FIFO prio and no time of its own
 * (model/world_why.h), so that probe --why names it. */
static void throttled_by(struct wm_sample *out, const struct rtbs_cast *c)
{
	struct wm_term *m;

	if (c->runaway_tid <= 0 || out->n_terms >= WM_TERMS_MAX ||
	    !(wm_sample_term_us(out, WMC_THROTTLED) > 0))
		return;
	m = &out->terms[out->n_terms++];
	memset(m, 0, sizeof(*m));
	m->cause = WMC_THROTTLED;
	cast_term(m, c->runaway_tid, c->runaway_comm, c->runaway_fifo);
}

/* What the probe reads of the tree, kept for one generation of the world
 * (world_cache): the model's input and the cast. */
struct rtbs_view {
	bool have;
	uint64_t gen;
	union wm_in in;
	struct rtbs_cast c;
};

int world_rtbs_probe(struct world *w, struct wm_sample *out)
{
	struct rtbs_view *v = world_cache(w, sizeof(*v));
	const struct sysroot *r = sim_sysroot(world_sim(w));
	struct rtbs_cast c;
	int e;

	if (!v->have || v->gen != world_gen(w)) {
		world_wm_input(&world_wm_rtbs, r, &v->in);
		cast_read(r, &v->c);
		v->gen = world_gen(w);
		v->have = true;
	}
	e = world_wm_probe_in(w, &v->in, out);
	if (e || !out->n_terms)
		return e;
	c = v->c;
	for (size_t i = 0; i < out->n_terms; i++)
		if (out->terms[i].cause == WMC_TASK || out->terms[i].cause == WMC_THROTTLED)
			break;
		else if (i + 1 == out->n_terms)
			return 0; /* no task term: nothing to name */
	for (size_t i = 0; i < out->n_terms; i++) {
		struct wm_term *m = &out->terms[i];

		if (m->cause == WMC_TASK && m->prio > 0 && c.n_mgmt > 0) {
			/* the management load is split evenly among them */
			int k = (int)(world_rand(w) * c.n_mgmt);

			k = k < c.n_mgmt ? k : c.n_mgmt - 1;
			cast_term(m, c.mgmt[k].tid, c.mgmt[k].comm, c.mgmt[k].fifo);
		} else if (m->cause == WMC_TASK && c.cfs_tid > 0) {
			cast_term(m, c.cfs_tid, c.cfs_comm, 0);
		} else if (m->cause == WMC_THROTTLED && c.gap_tid > 0) {
			cast_term(m, c.gap_tid, c.gap_comm, 0);
		}
	}
	throttled_by(out, &c);
	return 0;
}

int world_rtbs_probe_place(struct world *w, int *cpu, char *hk, size_t cap)
{
	const struct sysroot *r = sim_sysroot(world_sim(w));
	struct thread_table t = {0};
	const struct thread_info *l2;
	struct cpumask iso, l2cpus, m;
	char buf[256];
	int e;

	*cpu = 0;
	hk[0] = '\0';
	e = sysfs_read_str(r, "sys/devices/system/cpu/online", buf, sizeof(buf));
	if (!e)
		e = cpulist_parse(buf, &m);
	if (!e)
		e = threads_read(r, THREADS_KERNEL, &t);
	if (e)
		return e;
	world_proc_isolated(r, &iso);
	l2 = world_proc_find(&t, WR_L2_COMM, false);
	if (l2) {
		world_proc_usable(l2, &iso, &l2cpus);
		if (cpumask_next(&l2cpus, 0) >= 0)
			*cpu = cpumask_next(&l2cpus, 0);
		cpumask_andnot(&m, &l2cpus);
	}
	threads_free(&t);
	cpumask_andnot(&m, &iso);
	if (!cpumask_empty(&m))
		cpulist_format(&m, hk, cap);
	return 0;
}

int world_rtbs_probe_prio(struct world *w)
{
	struct rtbs_cast c;

	cast_read(sim_sysroot(world_sim(w)), &c);
	return c.l2_fifo < 0 ? -1 : c.l2_fifo > 0 ? 99 - c.l2_fifo : 120;
}
