/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The world rt-base-station (field note 5; doc/teach.md "Worlds"): the
 * model of worldmodel_rtbs.c on the b4860 board tree, made a world by the
 * adapter of world_wm.h. The reader turns the tree's files into the
 * model's input. */
#ifndef TT_MODEL_WORLD_RTBS_H
#define TT_MODEL_WORLD_RTBS_H

struct sysroot;
struct world_wm;
union wm_in;

/* The application's threads and interrupt (doc/teach.md). */
#define WR_L2_COMM   "l2_tti"	    /* the LTE L2 thread, woken every 1 ms TTI */
#define WR_MGMT_COMM "oam_agent"    /* the management process: all its threads */
#define WR_ETH_IRQ   36		    /* the Ethernet interrupt */
#define WR_IRQ_COMM  "irq/36-eth0"  /* its thread on PREEMPT_RT */
#define WR_DEEP_IDLE "pw20"	    /* the deep idle state's name */
#define WR_CFS_COMM  "pm_collector" /* a SCHED_OTHER thread of the application */

/* Knob files -> in->rtbs (on top of the model's defaults): the kernel
 * (sys/kernel/realtime, proc/version), the FIFO priorities of l2_tti,
 * irq/36-eth0 and oam_agent's threads, whether proc/irq/36/smp_affinity_list
 * meets the CPUs l2_tti can run on, whether those CPUs are isolated at boot
 * with no management thread able to run there, sched_rt_runtime_us and
 * sched_rt_period_us, the pw20 idle state of l2_tti's CPU, and pm_collector
 * under SCHED_FIFO/RR on a CPU of l2_tti: a runaway RT thread there. */
void world_rtbs_read(const struct sysroot *r, union wm_in *in);

extern const struct world_wm world_wm_rtbs;

#include <stddef.h>

struct world;
struct wm_sample;
/* The world's probe (world_def.probe_sample): the model's sample (as
 * world_wm_probe) with its task terms named after the tree's threads: a
 * management thread ahead of l2_tti (chosen evenly among them), else
 * WR_CFS_COMM; so `probe --why` names a tid of the tree's proc/ and its
 * fix addresses it. 0 or -errno. */
int world_rtbs_probe(struct world *w, struct wm_sample *out);
/* The kernel prio of the thread the probe stands for (l2_tti: 99 - its
 * FIFO priority, 120 under SCHED_OTHER), -1 when the tree has none
 * (world_def.probe_prio). */
int world_rtbs_probe_prio(struct world *w);
/* The probe's CPU (the first l2_tti can run on) and the housekeeping CPUs:
 * the tree's online CPUs (sys/devices/system/cpu/online) less its isolated
 * ones (proc/cmdline's isolcpus, sys/devices/system/cpu/isolated) and
 * l2_tti's (world_def.probe_place). 0 or -errno. */
int world_rtbs_probe_place(struct world *w, int *cpu, char *hk, size_t cap);

#endif
