/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The model's live thread table (see thread_sampler.h). */
#include "model/thread_sampler.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/timeutil.h"
#include "knob/knob.h"
#include "sysfs/sysroot.h"

static double thread_cpu_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void thread_sampler_refresh(struct thread_sampler *ts, bool force)
{
	uint64_t now = time_mono_ns();
	int nxt;
	double c0;

	if (!force && ts->nread && now - ts->read_ns < THREAD_SAMPLER_MIN_NS)
		return;
	if (!ts->clk_tck)
		ts->clk_tck = sysconf(_SC_CLK_TCK);
	nxt = ts->nread ? 1 - ts->cur : 0;
	c0 = thread_cpu_ms();
	if (threads_read_incr(&ts->incr, ts->root ? ts->root : sysroot_live(),
			      THREADS_KERNEL | THREADS_SCHED_FILE | THREADS_WAIT,
			      ts->nread ? &ts->tab[ts->cur] : NULL, &ts->tab[nxt]) != 0)
		return;
	if (ts->nread)
		threads_derive(&ts->tab[nxt], &ts->tab[ts->cur],
			       (double)(ts->tab[nxt].time_ns - ts->tab[ts->cur].time_ns) / 1e9,
			       ts->clk_tck);
	else
		threads_derive(&ts->tab[nxt], NULL, NAN, ts->clk_tck);
	ts->cost_ms = thread_cpu_ms() - c0;
	ts->cost_sum_ms += ts->cost_ms;
	ts->nread++;
	ts->cur = nxt;
	ts->read_ns = now;
}

const struct thread_table *thread_sampler_table(const struct thread_sampler *ts)
{
	return ts->nread ? &ts->tab[ts->cur] : NULL;
}

const struct thread_table *thread_sampler_recent(const struct thread_sampler *ts,
						 uint64_t max_age_ns)
{
	if (!ts->nread || (max_age_ns && time_mono_ns() - ts->read_ns > max_age_ns))
		return NULL;
	return &ts->tab[ts->cur];
}

void thread_sampler_patch_process(struct thread_sampler *ts, pid_t pid)
{
	struct thread_table one;
	struct thread_table *cur = ts->nread ? &ts->tab[ts->cur] : NULL;

	if (!cur || pid <= 0)
		return;
	memset(&one, 0, sizeof(one));
	if (threads_read_pid(ts->root ? ts->root : sysroot_live(), pid, THREADS_KERNEL, &one) !=
	    0) {
		threads_free(&one);
		return;
	}
	for (size_t i = 0; i < one.n; i++) {
		struct thread_info *x = threads_find(cur, one.t[i].tid);

		if (!x || x->start_time != one.t[i].start_time)
			continue;
		x->policy = one.t[i].policy;
		x->rt_prio = one.t[i].rt_prio;
		x->nice = one.t[i].nice;
		x->uclamp_min = one.t[i].uclamp_min;
		x->uclamp_max = one.t[i].uclamp_max;
		x->affinity = one.t[i].affinity;
		x->have_affinity = one.t[i].have_affinity;
	}
	threads_free(&one);
}

void thread_sampler_want(struct thread_sampler *ts, const pid_t *tids, size_t n)
{
	threads_incr_want(&ts->incr, tids, n);
}

void thread_sampler_invalidate(struct thread_sampler *ts, const char *addr)
{
	int id;
	bool proc;

	if (!addr) {
		threads_incr_dirty_all(&ts->incr);
		return;
	}
	if (knob_addr_task(addr, &id, &proc) != 0)
		return;
	if (proc)
		threads_incr_dirty_pid(&ts->incr, (pid_t)id);
	else
		threads_incr_dirty(&ts->incr, (pid_t)id);
}

void thread_sampler_free(struct thread_sampler *ts)
{
	const struct sysroot *root = ts->root;

	threads_incr_free(&ts->incr);
	threads_free(&ts->tab[0]);
	threads_free(&ts->tab[1]);
	memset(ts, 0, sizeof(*ts));
	ts->root = root;
}
