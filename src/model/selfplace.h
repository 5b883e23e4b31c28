/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where tunetop's own threads run (issue 20): the monitor must not cause
 * the jitter it hunts. By default the sampler, the UI and the A/B
 * controller run on the housekeeping CPUs (online minus isolated minus
 * nohz_full, and minus the CPUs a running probe measures when at least one
 * is left), at SCHED_OTHER with nice SELF_NICE_DEFAULT, never RT. The probe's
 * own threads set their CPUs and policy themselves and are not affected.
 * Applied to the calling thread, so to every thread it creates after. */
#ifndef TT_MODEL_SELFPLACE_H
#define TT_MODEL_SELFPLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpumask.h"
#include "sysfs/sysroot.h"

#define SELF_NICE_DEFAULT 10

struct self_place {
	bool explicit_cpus;  /* --self-cpus / self_cpus= */
	struct cpumask want; /* the explicit list */
	int nice;	     /* -20..19 */
	bool explicit_nice;  /* --self-nice / self_nice= / $TUNETOP_SELF_NICE gave it */
	struct cpumask cpus; /* where it runs now (after self_place_apply) */
	bool applied;	     /* the affinity was set */
	char how[200];	     /* "housekeeping: online 0-3 minus isolated 1" / "--self-cpus" */
	char err[160];	     /* why the last apply failed, "" none */
};

/* Parse --self-cpus / self_cpus= ("" or NULL = housekeeping) and
 * --self-nice / self_nice= / $TUNETOP_SELF_NICE (NULL = the default) into sp.
 * -EINVAL with why: a list that does not parse or names no online CPU, a
 * nice outside -20..19. */
int self_place_parse(const char *cpus, const char *nice, struct self_place *sp, char *why,
		     size_t cap);
/* The live machine's housekeeping CPUs, minus avoid (may be NULL) when at
 * least one CPU is left; how says how they were chosen. 0 or -errno. */
int self_housekeeping(const struct sysroot *live, const struct cpumask *avoid, struct cpumask *out,
		      char *how, size_t cap);
/* Place the calling thread: the explicit CPUs (those online) or the
 * housekeeping ones minus avoid, SCHED_OTHER (leaving RT if it was), and
 * the nice value. The default nice never lowers the one the thread has (a
 * tunetop started under nice 15 stays at 15, silently, and sp->nice says
 * so); an explicit one is set, and a lowering without the privilege fails.
 * 0, or -errno with sp->err set (the placement that failed is left as it
 * was). */
int self_place_apply(struct self_place *sp, const struct cpumask *avoid);

/* What tunetop itself costs, measured at each refresh: context switches
 * per second since the previous update (getrusage sums every thread's:
 * voluntary ones are wake-ups, involuntary ones preemptions; NAN until two
 * updates) and the resident set (-1 when /proc/self/statm cannot be
 * read). */
struct self_cost {
	double wakeups_per_s, preempt_per_s;
	long rss_kib;
	uint64_t nvcsw, nivcsw, at_ns; /* the previous update */
};

void self_cost_update(struct self_cost *c, uint64_t now_ns);

#endif
