/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the model worlds' readers (world_affinity.c, world_rtbs.c) need from
 * a world's tree besides single knob files (issue 35, doc/teach.md
 * "Worlds"): the application's threads as the tree's proc/ says (policy,
 * priority, affinity, state: what tunetop's thread knobs write under
 * --root), the CPUs isolated at boot, and where a thread can run. */
#ifndef TT_MODEL_WORLD_PROC_H
#define TT_MODEL_WORLD_PROC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/cpumask.h"
#include "source/threads.h"
#include "sysfs/sysroot.h"

/* The CPUs isolated at boot: the CPU list of proc/cmdline's isolcpus= (its
 * flags, "domain,managed_irq,", skipped), else sys/devices/system/cpu/
 * isolated; empty when neither names one. */
void world_proc_isolated(const struct sysroot *r, struct cpumask *out);

/* The first thread (lowest tid) whose comm is `comm`; with rt_only, only a
 * SCHED_FIFO or SCHED_RR one. NULL when there is none. */
const struct thread_info *world_proc_find(const struct thread_table *t, const char *comm,
					  bool rt_only);

/* The priority a model reads: rt_prio for SCHED_FIFO/SCHED_RR, 0 else. */
int world_proc_fifo(const struct thread_info *ti);

/* Where a thread can run: its affinity minus the isolated CPUs (the
 * scheduler never balances onto them), or its affinity itself when that
 * names isolated CPUs only (explicit pinning is honoured). */
void world_proc_usable(const struct thread_info *ti, const struct cpumask *isolated,
		       struct cpumask *out);

/* The first 32 CPUs of a mask as bits (the models' masks). */
uint32_t world_proc_bits(const struct cpumask *m);

#endif
