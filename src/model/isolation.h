/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The isolation audit: for every isolated (isolcpus) or nohz_full CPU, what
 * ran there in the last interval although it should not have: threads
 * (user and kernel) whose last CPU was that CPU and that used CPU time or
 * switched, per-CPU interrupts (timer, IPIs) with a rate above zero there,
 * and device IRQs whose affinity or effective affinity includes the CPU,
 * whether or not they fired (by configuration, not by luck; the rate is
 * the evidence when they did), or that fired there anyway. Each intruder
 * comes with the knob assignment that moves it to the housekeeping CPUs
 * ("thread/123/affinity=0", "irq/56/affinity=0") when it can be moved, or
 * the reason it cannot (per-CPU kernel thread, per-CPU interrupt, managed
 * IRQ, read-only affinity) and what helps instead, or "movability unknown"
 * where only a try would tell (a applies the fix through the journal).
 * Threads confined to isolated CPUs are the workload, not intruders.
 * Independently of isolation: RT threads that are not pinned, and RT
 * threads that migrate.
 *
 * Pure model code: no curses, no writes. The JSON ("isolation" key) and
 * text writers are here too so that snapshot and the TUI share them. */
#ifndef TT_MODEL_ISOLATION_H
#define TT_MODEL_ISOLATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/cpumask.h"
#include "core/json.h"
#include "core/str.h"
#include "source/irqs.h"
#include "source/system.h"
#include "source/threads.h"

enum iso_kind {
	ISO_THREAD,	  /* a thread ran on an audited CPU */
	ISO_IRQ,	  /* an interrupt fired on (or device IRQ may target) an audited CPU */
	ISO_RT_UNPINNED,  /* RT thread allowed on every online CPU */
	ISO_RT_MIGRATING, /* RT thread with migrations/s > 0 */
	/* A kernel thread resident on an audited CPU, whether or not it ran:
	 * per-CPU ones bound to it (ksoftirqd/N, ktimers/N, rcuc/N, kworker/N:M,
	 * migration/N, cpuhp/N) and rcuo* / unbound kworkers allowed on it. */
	ISO_KTHREAD,
};

struct iso_item {
	enum iso_kind kind;
	int cpu; /* audited CPU it ran on (ISO_THREAD, ISO_IRQ), else -1 */
	/* threads */
	pid_t pid, tid;
	uint64_t start_time;
	char comm[32];
	bool kernel;
	int policy, rt_prio;
	char affinity[64]; /* current mask as a CPU list, "" n/a */
	double cpu_pct;	   /* ISO_THREAD: CPU% in the interval; NAN n/a */
	double migrations_per_s;
	/* interrupts */
	char label[16];	    /* "56", "LOC", "IPI2" */
	char name[96];	    /* action names or description */
	double rate_per_s;  /* ISO_IRQ: per-CPU row: on this CPU; device IRQ: summed over the
			       audited CPUs (0 when it did not fire); NAN n/a */
	char effective[64]; /* ISO_IRQ: effective affinity, "" n/a */
	char reason[96];    /* device IRQ: "affinity includes isolated CPU 1; fired 120.0/s" */
	/* what to do */
	bool movable;	   /* fix applies */
	bool move_unknown; /* device IRQ whose movability only a try would tell */
	char fix[160];	   /* "thread/123/affinity=0" ("" when not movable) */
	char note[200];	   /* why it cannot move / what helps instead */
};

struct iso_report {
	bool have_isolated, have_nohz_full;
	struct cpumask isolated, nohz_full;
	struct cpumask audited;	     /* isolated | nohz_full, online */
	struct cpumask housekeeping; /* online - audited */
	char audited_list[128], housekeeping_list[128];
	bool have_rates; /* thread and IRQ rates exist (two samples) */
	bool have_threads, have_irqs;
	size_t n;
	struct iso_item *v; /* intruders by CPU (threads by CPU%, IRQs by rate), then RT items */
	size_t nthread, nirq, nrt_unpinned, nrt_migrating;
	size_t nkthread, nkthread_movable; /* ISO_KTHREAD items, those with a fix */
	/* the unbound workqueue cpumask (hex mask knob), when readable */
	bool have_wq_cpumask;
	struct cpumask wq_cpumask;
	size_t nworkload; /* threads confined to audited CPUs that ran there (not flagged) */
};

/* Build the audit. sys gives isolated / nohz_full CPUs; online the online
 * CPUs (topology); irqs (with derived rates, may be NULL) and threads (with
 * derived rates, may be NULL). 0 always (an empty report when nothing is
 * audited); the report is self-contained (copies). */
int isolation_audit(const struct system_info *sys, const struct cpumask *online,
		    const struct irq_table *irqs, const struct thread_table *threads,
		    struct iso_report *out);
void isolation_free(struct iso_report *r);

/* Assignments of every movable intruder ("thread/1/affinity=0"), for one
 * transaction; returns the count (*out malloc'ed array of malloc'ed strings). */
size_t isolation_fixes(const struct iso_report *r, char ***out);
void isolation_fixes_free(char **v, size_t n);

/* "isolation": {...} (JSON key; null values where n/a). */
void isolation_json(struct jw *w, const struct iso_report *r);
/* Readable section ("Isolation audit ..."). */
void isolation_text(struct sbuf *b, const struct iso_report *r);

/* "thread" "irq" "rt_unpinned" "rt_migrating" "kthread" */
const char *isolation_kind_name(enum iso_kind k);

/* An item's rate column: "120.0/s" (IRQ), "3.5 mig/s" (RT migrating),
 * "on 0-3" (kthread: its affinity), "FIFO:50" (RT unpinned), "12.5%"
 * (thread CPU%), "n/a" where it is not known. */
void isolation_item_rate(const struct iso_item *it, char *buf, size_t cap);

#endif
