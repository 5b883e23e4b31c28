/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RT throttling data source: the global RT bandwidth limit
 * (proc/sys/kernel/sched_rt_{period,runtime}_us), per-CPU rt_rq and dl_rq
 * state from the scheduler debug file (sys/kernel/debug/sched/debug on 5.13+,
 * proc/sched_debug before), and the 6.12+ deadline "fair server"
 * (sys/kernel/debug/sched/fair_server/cpuN/{runtime,period}, ns). A value
 * that cannot be read is n/a (-1, NAN or a have_ flag), never 0; the reason
 * is kept (debug_err, fair_err). */
#ifndef TT_SOURCE_RT_H
#define TT_SOURCE_RT_H

#include <stdbool.h>
#include <stdint.h>

#include "sysfs/sysroot.h"

struct rt_cpu {
	int cpu;
	bool have_rt; /* a root rt_rq[cpu] block was found */
	/* rt_rq[cpu] (root group "/" or the plain spelling); -1 / NAN = n/a
	 * (newer kernels print throttled/time/runtime only with RT_GROUP_SCHED) */
	int nr_running, throttled;
	double rt_time_ms;    /* RT time charged in the current period (a level, not a counter) */
	double rt_runtime_ms; /* budget per period; negative = unlimited (RUNTIME_INF prints
				 -0.000001) */
	double rt_use_pct;    /* rt_time / rt_runtime * 100; NAN when n/a or unlimited */
	/* dl_rq[cpu]; -1 = n/a */
	int dl_nr_running;
	int64_t dl_bw, dl_total_bw; /* 1 << 20 = 100% */
	/* Derived by rt_derive(). */
	double rt_time_delta_ms; /* change of rt_time_ms since prev (signed: rt_time drops at each
				    period boundary); NAN when either sample lacks it */
	int throttle_events;	 /* throttled 0 -> 1 transitions seen so far (cumulative) */
};

struct rt_info {
	bool have_period, have_runtime;
	int64_t period_us, runtime_us; /* runtime -1 = unlimited (legitimately) */
	int period_err, runtime_err;   /* why n/a */

	int ncpu;	     /* entries in cpu[] */
	struct rt_cpu *cpu;  /* indexed by CPU id */
	int debug_err;	     /* 0 ok, -ENOENT no file (no debugfs), -EACCES / -EPERM (not root,
				lockdown), -ENODATA (no rt_rq block in it) */
	char debug_path[64]; /* "sys/kernel/debug/sched/debug" or "proc/sched_debug" (used or
				failed), "" when neither exists */

	bool fair_server;			 /* fair_server directory present (6.12+) */
	int64_t fair_runtime_ns, fair_period_ns; /* first CPU's values; -1 n/a */
	int fair_err; /* 0; -ENOENT absent (or no debugfs); -EACCES / -EPERM */

	/* Derived by rt_derive(). */
	int throttle_events; /* sum over CPUs, cumulative */
};

/* Read everything. ncpus sizes cpu[] (the debug file may add more). Returns
 * 0 (missing pieces are n/a with their reason) or -errno on a hard error.
 * Free with rt_free even on error. */
int rt_read(const struct sysroot *r, int ncpus, struct rt_info *out);
/* Parse the scheduler debug text into out->cpu (grown as needed; CPUs without
 * a block stay n/a). Both spellings "rt_rq[N]:" and "rt_rq[N]:/" count;
 * child groups ("rt_rq[0]:/bg_non_interactive") are ignored. Works with and
 * without .rt_nr_migratory. Returns 0, or -ENODATA when no rt_rq block was
 * found. */
int rt_parse_sched_debug(const char *text, struct rt_info *out);
/* throttle_events (0 -> 1 transitions of rt_throttled, cumulative over prev's
 * count) and rt_time_delta_ms. prev may be NULL. */
void rt_derive(struct rt_info *cur, const struct rt_info *prev, double dt_s);
void rt_free(struct rt_info *rt);
/* runtime / period * 100; NAN when n/a or unlimited. */
double rt_share_pct(const struct rt_info *rt);

#endif
