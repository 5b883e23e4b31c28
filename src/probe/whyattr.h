/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Attribution of late wake-ups (see probe/why.h for the event stream): for
 * each WEV_LATE record, what the CPU did between the deadline and the probe
 * thread's wake time, split into parts that sum to the measured delay; then,
 * over a run, the causes ranked by their share of late wake-ups and of the
 * total late time, each with the knob that addresses it. Pure: no tracefs,
 * no clock, no allocation failure (xmalloc); unit tests replay fixtures. */
#ifndef TT_PROBE_WHYATTR_H
#define TT_PROBE_WHYATTR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "probe/why.h"

struct jw;

enum why_part_kind {
	WP_IDLE_EXIT, /* leaving an idle state (name, declared exit latency) */
	WP_IRQ,	      /* a hard IRQ handler (number, name) */
	WP_SOFTIRQ,   /* a softirq vector run inline (id = vector) */
	WP_KSOFTIRQD, /* a softirq vector run in ksoftirqd (id = vector) */
	WP_TASK,      /* another task ran (comm, tid, prio, reason) */
	WP_WAKEUP,    /* from the probe thread being woken to its switch-in */
	WP_RETURN,    /* from switch-in to the probe's own clock read */
	WP_UNKNOWN,   /* unattributed: non-preemptible kernel, steal, lost events */
	WP_STEAL,     /* an idle exit past its declared latency + margin (id = state):
		       * timer late / hypervisor or steal, not seen by the events */
	WP__COUNT
};

/* Why another task could run while the probe was runnable or woken. */
enum why_reason {
	WR_NONE,
	WR_HIGHER_PRIO,	 /* a real-time task of higher priority */
	WR_SAME_PRIO,	 /* same priority: FIFO does not preempt */
	WR_RT_THROTTLED, /* a normal task ran while the RT probe was runnable */
	WR_MIGRATION,	 /* the probe thread was migrated */
	WR_NONPREEMPT,	 /* it kept the CPU past the wake-up (no preemption point) */
	WR__COUNT
};

struct why_part {
	enum why_part_kind kind;
	int id;			 /* irq number, softirq vector, tid, idle state; -1 */
	char name[WHY_NAME_LEN]; /* comm, irq name, vector or state name */
	int prio;		 /* WP_TASK: kernel prio, else -1 */
	enum why_reason reason;	 /* WP_TASK */
	uint64_t ns;
	/* added by whyattr.c: */
	int64_t declared_ns; /* WP_IDLE_EXIT: the state's declared exit latency, -1 */
	int by_irq;	     /* WP_SOFTIRQ, WP_KSOFTIRQD: the IRQ that raised it, -1 */
};

struct why_late {
	int cpu;
	pid_t tid;
	uint64_t deadline_ns, wake_ns, delay_ns;
	struct why_part *parts; /* largest first */
	size_t n_parts;
	uint64_t err_ns; /* bound on the parts' boundaries (event timing); sum exact */
	bool lost;	 /* events were lost inside the window */
	/* added by whyattr.c: */
	int probe_prio; /* the probe thread's kernel prio as the events show it, -1 */
};

/* One cause over a run: a (kind, id) pair merged over late wake-ups. */
struct why_cause {
	enum why_part_kind kind;
	int id;
	char name[WHY_NAME_LEN];
	int prio;
	enum why_reason reason;
	uint64_t total_ns;	/* summed over all late wake-ups */
	unsigned n_present;	/* late wake-ups where it appears */
	unsigned n_largest;	/* late wake-ups where it is the largest part */
	double share_late_pct;	/* n_largest / n_late */
	double share_delay_pct; /* total_ns / sum of delays */
	char fix[96];		/* "irq/N/affinity=CPUS", "thread/T/policy=fifo:N" ... or "" */
	char fix_why[120];	/* one line: what the fix does */
	/* added by whyattr.c: */
	int64_t declared_ns; /* as in why_part */
	int by_irq;	     /* as in why_part */
	char cpus[32];	     /* CPU list of the late wake-ups it appears in */
};

struct why_result {
	struct why_late *late;
	size_t n_late;
	struct why_cause *causes; /* ranked: share_delay_pct, largest first */
	size_t n_causes;
	uint64_t lost_events;
	uint64_t threshold_ns;
};

/* Options the attribution needs from the machine (all optional). */
struct why_opts {
	/* exit latency in ns of idle state i of CPU c, -1 = unknown */
	int64_t (*idle_exit_ns)(void *ctx, int cpu, unsigned state);
	const char *(*idle_name)(void *ctx, int cpu, unsigned state);
	void *ctx;
	/* CPUs a moved IRQ or thread may go to (housekeeping); "" = any other */
	char housekeeping[64];
	/* added by whyattr.c: attribute only WEV_LATE with a delay of at least
	 * this (0 = all); why_result.threshold_ns reports it */
	uint64_t over_ns;
};

/* The bound on one event's timestamp: the time between the tracepoint's
 * clock read and the change of state it marks (err_ns counts one per event
 * that moves a boundary inside the window). */
#define WHY_EVENT_ERR_NS 250
/* A normal task that runs this long after the RT probe was woken (or a
 * switch that picks a normal task over the woken RT probe) means RT
 * throttling; shorter, it was a section without a preemption point. */
#define WHY_THROTTLE_MIN_NS 200000
/* The idle-exit part of one stay in an idle state is capped at the state's
 * declared exit latency (why_opts.idle_exit_ns) plus this margin: 20 us and
 * 25 % of the declared latency (timer programming, the wake-up interrupt's
 * entry, firmware tables that round down). The rest of that stay is
 * WP_STEAL: under a hypervisor the vCPU that left HLT waits for the host
 * (steal), which no guest event shows. A state with no declared latency is
 * not capped. */
#define WHY_IDLE_MARGIN_NS  20000
#define WHY_IDLE_MARGIN_PCT 25
/* Event visits over one why_attribute() run (each late wake-up's window
 * costs its events): a hostile or huge stream ends in bounded time, the
 * windows past the budget are unknown from where it ran out. */
#define WHY_WORK_EVENTS 50000000ull

/* Attribute every WEV_LATE of the stream (sorted by why_events_sort).
 * 0 or -errno. */
int why_attribute(const struct why_events *s, const struct why_opts *o, struct why_result *out);
void why_result_free(struct why_result *r);

const char *why_part_kind_name(enum why_part_kind k); /* "irq", "task", ... */
const char *why_reason_name(enum why_reason r);	      /* "higher priority", ... */

/* Text: the ranked causes, then the worst N late wake-ups with their parts
 * (worst_n < 0: all of them, 0: none). */
void why_write_text(const struct why_result *r, FILE *f, int worst_n);
/* JSON: an object as doc/schema/why.schema.json describes. Writes the
 * members (threshold_us, late_wakeups, late_total_us, lost_events, causes,
 * late) into the object the caller has open: `tunetop why --json` adds
 * "schema" (TT_SCHEMA_WHY) and "tunetop" before them; probe --json nests
 * them in jw_obj_begin(w, "why"). */
void why_write_json(const struct why_result *r, struct jw *w);

#endif
