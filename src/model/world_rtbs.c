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

#include "model/world_proc.h"
#include "model/world_wm.h"
#include "model/worldmodel.h"
#include "source/threads.h"

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
	}
	threads_free(&t);
}

/* The application's threads in the world's tree (the bundle leaves the
 * fixture's proc/PID out; the same threads as tests/fixtures/b4860/proc):
 * the board as delivered, the note's PREEMPT_RT default. */
static const struct world_wm_thread threads[] = {
	{.pid = 142,
	 .tid = 142,
	 .comm = WR_IRQ_COMM,
	 .policy = 1,
	 .rt_prio = 50,
	 .cpus = "0-3",
	 .state = 'S'},
	{.pid = 1420,
	 .tid = 1420,
	 .comm = WR_MGMT_COMM,
	 .policy = 1,
	 .rt_prio = 50,
	 .cpus = "0-3",
	 .state = 'S'},
	{.pid = 1420,
	 .tid = 1421,
	 .comm = "oam_snmp",
	 .policy = 1,
	 .rt_prio = 50,
	 .cpus = "0-3",
	 .state = 'S'},
	{.pid = 1420,
	 .tid = 1422,
	 .comm = "oam_log",
	 .policy = 1,
	 .rt_prio = 50,
	 .cpus = "0-3",
	 .state = 'S'},
	{.pid = 1501, .tid = 1501, .comm = "lte_l2", .cpus = "0-3", .state = 'S'},
	{.pid = 1501,
	 .tid = 1502,
	 .comm = WR_L2_COMM,
	 .policy = 1,
	 .rt_prio = 50,
	 .cpus = "0-3",
	 .state = 'R'},
	{.pid = 1610, .tid = 1610, .comm = "pm_collector", .cpus = "0-3", .state = 'S'},
};

/* What the note did that is no knob of the running board: booting the
 * distribution's kernel or PREEMPT_RT, the boot parameters (SIMULATED
 * switches, knob/sim_kind.h). */
static const struct world_wm_switch switches[] = {
	{"board/kernel", "@kernel", "rt nonrt",
	 "the kernel booted: rt (PREEMPT_RT, as delivered) or nonrt (a PREEMPT kernel)"},
	{"board/cmdline", "@cmdline", "a kernel command line",
	 "a reboot with this command line (proc/cmdline, the isolated and nohz_full CPUs)"},
};

const struct world_wm world_wm_rtbs = {
	.model = "rt-base-station",
	.read_in = world_rtbs_read,
	.period_s = 0.001, /* the 1 ms TTI */
	.line_prefix = "[l2] tti latency:",
	.unit = "us",
	.unit_us = 1,
	.quiet = false,
	.threads = threads,
	.n_threads = sizeof(threads) / sizeof(threads[0]),
	.switches = switches,
	.n_switches = sizeof(switches) / sizeof(switches[0]),
};
