/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The thread table of the shown root (the live system, or a --root
 * tree's proc/) as the model keeps it: the newest two
 * reads of every thread (threads_read_incr) with the rates between them,
 * read at most once per THREAD_SAMPLER_MIN_NS unless forced. Every read
 * takes every thread's stat (CPU time, state, last CPU, policy, priority,
 * nice); the slow fields (affinity, uclamp, migrations, context switches,
 * VmLck) only for new threads, the rows on screen (thread_sampler_want),
 * the threads tunetop just changed (thread_sampler_invalidate) and the
 * rest in rotation, every thread at least every THREADS_ROTATE_DEFAULT
 * reads (doc/threads.md). It lives in the
 * sampler (struct sampler.threads), so the Threads and Isolation screens,
 * the Findings screen and the header's findings all see the same table,
 * whichever screen was shown. Zero-initialised is empty. */
#ifndef TT_MODEL_THREAD_SAMPLER_H
#define TT_MODEL_THREAD_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "source/threads.h"

#define THREAD_SAMPLER_MIN_NS 1000000000ULL
/* Findings use a table at most THREAD_SAMPLER_FRESH_NS old. The sampler
 * reads one on its own every THREAD_SAMPLER_SLOW_NS (sampler.threads_every_ns)
 * when findings need it, so that they never go without, whichever screen
 * is shown; a thread screen reads more often. */
#define THREAD_SAMPLER_FRESH_NS (5ULL * 1000000000ULL)
#define THREAD_SAMPLER_SLOW_NS	(4ULL * 1000000000ULL)

struct thread_sampler {
	struct thread_table tab[2];
	int cur;	     /* newest table, valid when nread > 0 */
	uint64_t read_ns;    /* CLOCK_MONOTONIC of the newest read */
	double cost_ms;	     /* CPU time of the last full read + derive */
	double cost_sum_ms;  /* for the average */
	unsigned long nread; /* reads */
	long clk_tck;
	struct threads_incr incr;
	/* whose threads: the sampler's root (sampler_init sets it; a --root
	 * tree's proc/), NULL = the live system */
	const struct sysroot *root;
};

/* Read every thread when the last read is THREAD_SAMPLER_MIN_NS old, or
 * force. A failed read keeps the previous table. */
void thread_sampler_refresh(struct thread_sampler *ts, bool force);
/* The newest table, NULL before the first read. */
const struct thread_table *thread_sampler_table(const struct thread_sampler *ts);
/* The newest table if it is at most max_age_ns old (0: any age), else NULL. */
const struct thread_table *thread_sampler_recent(const struct thread_sampler *ts,
						 uint64_t max_age_ns);
/* After an action: re-read one process and copy what can have changed
 * (scheduling, affinity) into the newest table; the rates stay. */
void thread_sampler_patch_process(struct thread_sampler *ts, pid_t pid);
/* The tids on screen: their slow fields are read by every read. */
void thread_sampler_want(struct thread_sampler *ts, const pid_t *tids, size_t n);
/* tunetop changed a knob at this address: "thread/TID/..." has the next
 * read take that thread's slow fields, "process/PID/..." every thread of
 * the process; anything else is ignored. NULL: every thread (an undo or a
 * restore, whose addresses are in the journal). */
void thread_sampler_invalidate(struct thread_sampler *ts, const char *addr);
void thread_sampler_free(struct thread_sampler *ts);

#endif
