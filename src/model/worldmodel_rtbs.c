/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `rt-base-station` world (field note 5): the LTE L2 thread of a
 * Freescale B4860 small cell, woken every 1 ms TTI on CPU 1, and what holds
 * the CPU when it wakes.
 *
 * The L2 CPU's load at the note's ~93 %: L2 itself RB_L2_DUTY, the Ethernet
 * interrupt's handling RB_IRQ_DUTY (when its affinity includes the CPU),
 * management threads RB_MGMT_DUTY and other threads RB_OTHER_DUTY (both
 * gone once the CPU is isolated). Terms of one wake-up (us):
 *  - WMC_BASE: timer IRQ, wake-up and switch: U(RB_BASE_LO, RB_BASE_HI);
 *  - WMC_IRQ: the Ethernet interrupt's handler (a hard IRQ, or on
 *    PREEMPT_RT its IRQ thread when its FIFO priority is >= L2's) is running
 *    with probability RB_IRQ_DUTY: U(0, RB_IRQ_MAX_US) more;
 *  - WMC_TASK: management threads at a FIFO priority >= L2's (FIFO does not
 *    preempt an equal priority) are running with probability RB_MGMT_DUTY
 *    x mgmt_ahead_share (the share of them ahead of L2; the load is split
 *    evenly among the threads): U(0, RB_MGMT_MAX_US) more; an L2 thread under SCHED_OTHER on a
 * shared CPU finds another thread keeping the CPU past the wake-up-preemption check with
 * probability RB_CFS_WAIT_P and waits U(0, RB_CFS_SLICE_US);
 *  - WMC_THROTTLED: when the RT demand on the CPU exceeds runtime/period,
 *    the RT class runs runtime of each period and then waits: an RT L2
 *    wake-up falls in that stretch with probability 1 - runtime/period and
 *    waits U(0, period - runtime) (the rest of the period). The default
 *    demand is 75 % (under either budget of the note); a runaway RT thread
 *    on the CPU (runaway_fifo, off by default) makes it 100 %, and then a
 *    950000/1000000 window stalls 5 % of the wake-ups up to 50 ms, a
 *    90000/100000 one 10 % up to 10 ms;
 *  - WMC_IDLE_EXIT: with nothing ahead of it and the CPU idle (always when
 *    isolated, else unless another thread runs: 1 - RB_OTHER_DUTY), the CPU
 *    sat in the deep state (pw20) with probability RB_DEEP_P (gaps long
 *    enough for it) and pays RB_DEEP_US.
 * mlockall, THP and the governor are in the fix list but not in the model
 * (page faults and the clock are not modelled). */
#include "model/worldmodel.h"

#include <errno.h>

#define RB_BASE_LO	4.0
#define RB_BASE_HI	9.0
#define RB_L2_DUTY	0.30
#define RB_IRQ_DUTY	0.15
#define RB_IRQ_MAX_US	100.0
#define RB_IRQ_NUM	36 /* the Ethernet (FMan) interrupt, as named in the events */
#define RB_MGMT_DUTY	0.30
#define RB_MGMT_MAX_US	190.0
#define RB_OTHER_DUTY	0.18
#define RB_CFS_WAIT_P	0.62
#define RB_CFS_SLICE_US 1091.0
#define RB_DEEP_P	0.22
#define RB_DEEP_US	25.0
#define RB_DEEP_STATE	1

void wm_rtbs_defaults(struct wm_rtbs_in *in)
{
	in->kernel = WM_KERNEL_PREEMPT_RT;
	in->l2_fifo = 50;
	in->eth_irq_fifo = 50; /* threaded IRQs default to FIFO 50 */
	in->eth_irq_on_l2_cpu = true;
	in->mgmt_fifo = 50;
	in->l2_cpu_isolated = false;
	in->rt_runtime_us = 950000;
	in->rt_period_us = 1000000;
	in->deep_idle = true;
	in->mgmt_ahead_share = 1.0;
	in->runaway_fifo = 0;
}

static bool irq_ahead(const struct wm_rtbs_in *in)
{
	if (!in->eth_irq_on_l2_cpu)
		return false;
	if (in->kernel == WM_KERNEL_NONRT)
		return true; /* a hard IRQ preempts anything */
	return in->l2_fifo == 0 || in->eth_irq_fifo >= in->l2_fifo;
}

static bool mgmt_ahead(const struct wm_rtbs_in *in)
{
	return !in->l2_cpu_isolated && in->mgmt_fifo > 0 &&
	       (in->l2_fifo == 0 || in->mgmt_fifo >= in->l2_fifo);
}

double wm_rtbs_rt_demand(const struct wm_rtbs_in *in)
{
	double d = in->l2_fifo > 0 ? RB_L2_DUTY : 0;

	if (in->runaway_fifo > 0)
		return 1.0; /* it spins on whatever RT time the others leave */

	if (in->eth_irq_on_l2_cpu && in->kernel == WM_KERNEL_PREEMPT_RT)
		d += RB_IRQ_DUTY;
	if (in->mgmt_fifo > 0 && !in->l2_cpu_isolated)
		d += RB_MGMT_DUTY;
	return d;
}

int wm_rtbs_sample(const struct wm_rtbs_in *in, struct wm_rng *r, struct wm_sample *out)
{
	bool ahead = false;
	double share;

	wm_sample_clear(out);
	if (in->rt_runtime_us >= 0 &&
	    (in->rt_period_us <= 0 || in->rt_runtime_us > in->rt_period_us))
		return -EINVAL;
	wm_sample_add(out, WMC_BASE, -1, "TTI timer wake-up", -1,
		      wm_rng_range(r, RB_BASE_LO, RB_BASE_HI));
	if (irq_ahead(in) && wm_rng_chance(r, RB_IRQ_DUTY)) {
		wm_sample_add(out, WMC_IRQ, RB_IRQ_NUM, "eth0",
			      in->kernel == WM_KERNEL_PREEMPT_RT ? in->eth_irq_fifo : -1,
			      wm_rng_range(r, 0, RB_IRQ_MAX_US));
		ahead = true;
	}
	if (mgmt_ahead(in) && wm_rng_chance(r, RB_MGMT_DUTY * in->mgmt_ahead_share)) {
		wm_sample_add(out, WMC_TASK, -1, "mgmt", in->mgmt_fifo,
			      wm_rng_range(r, 0, RB_MGMT_MAX_US));
		ahead = true;
	}
	if (in->l2_fifo == 0 && !in->l2_cpu_isolated && wm_rng_chance(r, RB_CFS_WAIT_P)) {
		wm_sample_add(out, WMC_TASK, -1, "cfs thread", -1,
			      wm_rng_range(r, 0, RB_CFS_SLICE_US));
		ahead = true;
	}
	share = in->rt_runtime_us < 0 ? 1.0 : (double)in->rt_runtime_us / (double)in->rt_period_us;
	if (in->l2_fifo > 0 && wm_rtbs_rt_demand(in) > share && wm_rng_chance(r, 1.0 - share)) {
		wm_sample_add(out, WMC_THROTTLED, -1, "rt throttled", -1,
			      wm_rng_range(r, 0, (double)(in->rt_period_us - in->rt_runtime_us)));
		ahead = true;
	}
	if (!ahead && in->deep_idle &&
	    wm_rng_chance(r, in->l2_cpu_isolated ? 1.0 : 1.0 - RB_OTHER_DUTY) &&
	    wm_rng_chance(r, RB_DEEP_P))
		wm_sample_add(out, WMC_IDLE_EXIT, RB_DEEP_STATE, "pw20", -1, RB_DEEP_US);
	return 0;
}

WM_HOOKS(rtbs, rtbs)
WM_STAGE(stage_cfs, defaults, in->rtbs.kernel = WM_KERNEL_NONRT, in->rtbs.l2_fifo = 0,
	 in->rtbs.eth_irq_fifo = 0, in->rtbs.mgmt_fifo = 0)
WM_STAGE(stage_prio, defaults, in->rtbs.l2_fifo = 98, in->rtbs.eth_irq_fifo = 99,
	 in->rtbs.mgmt_fifo = 0)
WM_STAGE(stage_window, stage_prio, in->rtbs.rt_runtime_us = 90000, in->rtbs.rt_period_us = 100000)
WM_STAGE(stage_isol, stage_window, in->rtbs.l2_cpu_isolated = true)
WM_STAGE(stage_tuned, stage_isol, in->rtbs.eth_irq_on_l2_cpu = false)

static const struct wm_stage stages[] = {
	WM_ROW_FIGS("A CFS default", "kernel without PREEMPT_RT; every thread SCHED_OTHER",
		    stage_cfs, 2, WM_FIG(WM_STAT_MAX, 1200), WM_FIG(WM_STAT_MEAN, 350)),
	WM_ROW_FIGS("B PREEMPT_RT default",
		    "PREEMPT_RT; L2, management and IRQ threads FIFO 50; "
		    "sched/rt_runtime_us=950000 sched/rt_period_us=1000000; eth IRQ on every CPU",
		    defaults, 2, WM_FIG(WM_STAT_MAX, 300), WM_FIG(WM_STAT_MEAN, 45)),
	WM_ROW("C only time-critical threads RT",
	       "+ thread/ETH_IRQ/policy=fifo:99 thread/L2/policy=fifo:98; management "
	       "SCHED_OTHER nice -10/-5/0",
	       stage_prio),
	WM_ROW("D throttling window 100000/90000",
	       "+ sched/rt_period_us=100000 sched/rt_runtime_us=90000", stage_window),
	WM_ROW("E isolation", "+ isolcpus=1-3 rcu_nocbs=1-3 nohz_full=1-3; per-thread affinity",
	       stage_isol),
	WM_ROW_FIGS("F tuned",
		    "+ irq/ETH/affinity=0; mlockall, mm/thp=never, cpufreq/*/governor=performance",
		    stage_tuned, 3, WM_FIG(WM_STAT_MAX, 35), WM_FIG(WM_STAT_MEAN, 12),
		    {.stat = WM_STAT_FRAC_UNDER, .value = 0.78, .arg_us = 10, .ref = -1}),
};

WM_WORLD(wm_world_rtbs, "rt-base-station", "B4860",
	 "5. PREEMPT_RT small-cell base station (L2 max 300 -> 35 us)",
	 "L2 thread wake-up latency (1 ms TTI)", 20000);
