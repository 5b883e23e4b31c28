/* SPDX-License-Identifier: GPL-2.0-or-later */
/* "Why late" in a world (issue 35, doc/teach.md "Why late in a world"): a
 * world knows the causes of each of its probe's samples (the terms of a
 * struct wm_sample, model/worldmodel.h). For a late sample it writes the
 * events a trace of the board would have shown, in the form probe/whyattr.c
 * reads (probe/why.h), so that the same attribution code attributes it.
 * The one place where a cause becomes events:
 *
 *   WMC_IDLE_EXIT  the CPU idle in state id before the deadline, the idle
 *                  exit us later                      -> WP_IDLE_EXIT
 *   WMC_IRQ        irq id (name) entered, exits us later -> WP_IRQ
 *   WMC_TASK       a task (id, name, FIFO prio) switched in after the probe
 *                  was woken, for us                  -> WP_TASK
 *   WMC_THROTTLED  a normal task switched in over the woken RT probe
 *                                         -> WP_TASK, WR_RT_THROTTLED
 *                  with a FIFO prio (and 0 us): the RT thread (id, name)
 *                  that used up the runtime, running before the deadline
 *                  until it is switched out runnable for the task of the
 *                  other WMC_THROTTLED term -> WP_TASK named after it
 *   WMC_MIGRATION  the probe woken on another CPU and moved to its own,
 *                  where a kworker holds the CPU for us -> WP_TASK, WR_MIGRATION
 *   the rest       (the fixed path, the clock, cache, work, polling): from
 *                  the wake-up to the switch-in       -> WP_WAKEUP
 *
 * then the switch to the probe and its WEV_LATE record. Timestamps are the
 * simulated clock's (ns). Pure: no I/O. */
#ifndef TT_MODEL_WORLD_WHY_H
#define TT_MODEL_WORLD_WHY_H

#include <stdint.h>
#include <sys/types.h>

#include "probe/why.h"
#include "probe/whyattr.h"

struct wm_sample;

#define WORLD_WHY_STATES 8
#define WORLD_WHY_TID	 35000 /* the simulated probe thread's tid */

struct world_why {
	struct why_events ev;
	int cpu;	  /* the probe's CPU */
	int probe_prio;	  /* the probe's kernel prio (99 - FIFO prio; 120 normal) */
	uint64_t last_ns; /* the latest event so far */
	/* the idle states the samples named, for why_opts */
	char idle_name[WORLD_WHY_STATES][WHY_NAME_LEN];
	int64_t idle_ns[WORLD_WHY_STATES]; /* declared exit latency, -1 unknown */
};

void world_why_init(struct world_why *ww, int cpu, int probe_prio);
/* The events of one late sample whose deadline was deadline_ns. */
void world_why_add(struct world_why *ww, const struct wm_sample *s, uint64_t deadline_ns);
/* Sort the stream and fill o's idle callbacks (ctx = ww). */
void world_why_finish(struct world_why *ww, struct why_opts *o);
void world_why_free(struct world_why *ww);

#endif
