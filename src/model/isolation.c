/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The isolation audit (see isolation.h): intruders on isolated / nohz_full
 * CPUs from the thread table (last CPU, CPU time and context switches over
 * the interval) and the interrupt table (per-CPU interrupts by their rates,
 * device IRQs by their affinity and effective affinity, with the rate as
 * evidence), with the knob assignment that moves each one to the
 * housekeeping CPUs or the reason it cannot move; RT threads that are not
 * pinned or that migrate. Also the JSON and text writers of the audit. */
#include "model/isolation.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/xalloc.h"
#include "knob/knob_addr.h"

#define PF_NO_SETAFFINITY_FLAG 0x04000000u

const char *isolation_kind_name(enum iso_kind k)
{
	switch (k) {
	case ISO_THREAD: return "thread";
	case ISO_IRQ: return "irq";
	case ISO_RT_UNPINNED: return "rt_unpinned";
	case ISO_RT_MIGRATING: return "rt_migrating";
	case ISO_KTHREAD: return "kthread";
	}
	return "?";
}

static bool pos(double v)
{
	return isfinite(v) && v > 0.0;
}

static struct iso_item *add(struct iso_report *r, size_t *cap, enum iso_kind k)
{
	struct iso_item *it;

	r->v = xgrow(r->v, cap, r->n + 1, sizeof(*r->v));
	it = &r->v[r->n++];
	memset(it, 0, sizeof(*it));
	it->kind = k;
	it->cpu = -1;
	it->cpu_pct = NAN;
	it->migrations_per_s = NAN;
	it->rate_per_s = NAN;
	return it;
}

/* What helps against a per-CPU kernel thread that cannot move. */
static const char *kthread_hint(const char *comm)
{
	static const struct {
		const char *prefix, *hint;
	} h[] = {
		{"ksoftirqd/",
		 "softirq work deferred to this CPU: move the interrupts that raise it "
		 "(see the softirq rates)"},
		{"kworker/", "per-CPU workqueue work: keep unbound work off with "
			     "/sys/devices/virtual/workqueue/cpumask; bound work comes from "
			     "timers and drivers on this CPU"},
		{"rcuc/", "RCU callbacks: boot with rcu_nocbs=<isolated CPUs>"},
		{"rcuop/", "RCU offload thread: runs where its affinity allows (rcu_nocbs)"},
		{"rcuog/", "RCU offload thread: runs where its affinity allows (rcu_nocbs)"},
		{"ktimers/", "timer softirq (PREEMPT_RT): timers armed on this CPU"},
		{"ktimersoftd/", "timer softirq (PREEMPT_RT): timers armed on this CPU"},
		{"migration/", "CPU stopper: runs when the kernel must stop the CPU (rare)"},
		{"cpuhp/", "CPU hotplug thread (rare)"},
		{"watchdog/", "softlockup watchdog: boot with nowatchdog or nohz_full"},
		{"irq_work/", "irq_work on this CPU (perf, printk, RCU)"},
	};

	for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++)
		if (!strncmp(comm, h[i].prefix, strlen(h[i].prefix)))
			return h[i].hint;
	return "per-CPU kernel thread: the kernel does not let it move";
}

static bool has_word(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (; *s; s++)
		if (!strncasecmp(s, w, n))
			return true;
	return false;
}

/* What helps against a per-CPU interrupt. */
static const char *percpu_irq_hint(const struct irq_row *row)
{
	const char *n = row->name;

	if (!strcmp(row->label, "LOC") || has_word(n, "timer"))
		return "scheduler tick / local timer: nohz_full= stops the tick while one task "
		       "runs "
		       "on the CPU";
	if (!strcmp(row->label, "RES") || has_word(n, "Rescheduling"))
		return "wake-ups sent from other CPUs (a thread woken onto this CPU)";
	if (!strcmp(row->label, "CAL") || !strcmp(row->label, "TLB") ||
	    has_word(n, "Function call") || has_word(n, "TLB"))
		return "cross-CPU function calls and TLB shootdowns (mprotect/munmap by a process "
		       "that also runs elsewhere, membarrier)";
	if (!strcmp(row->label, "IWI") || has_word(n, "IRQ work"))
		return "irq_work (perf, printk, RCU)";
	if (has_word(n, "pmu"))
		return "PMU overflow interrupts: a perf session counts on this CPU";
	return "per-CPU interrupt: it has no affinity to change";
}

/* "irq/56-eth0" -> 56 (threaded handler of IRQ 56), else -1. */
static int irq_thread_of(const char *comm)
{
	int n;

	if (strncmp(comm, "irq/", 4) /* a thread name, not a knob address */ ||
	    !isdigit((unsigned char)comm[4]))
		return -1;
	n = atoi(comm + 4);
	return n;
}

static void fill_thread(struct iso_item *it, const struct thread_info *t)
{
	it->pid = t->pid;
	it->tid = t->tid;
	it->start_time = t->start_time;
	snprintf(it->comm, sizeof(it->comm), "%s", t->comm);
	it->kernel = t->kernel;
	it->policy = t->policy;
	it->rt_prio = t->rt_prio;
	if (t->have_affinity)
		cpulist_format(&t->affinity, it->affinity, sizeof(it->affinity));
	it->cpu_pct = t->cpu_pct;
	it->migrations_per_s = t->migrations_per_s;
}

static int cmp_item(const void *a, const void *b)
{
	const struct iso_item *x = a, *y = b;
	int gx = x->kind >= ISO_RT_UNPINNED, gy = y->kind >= ISO_RT_UNPINNED;
	double vx, vy;

	if (x->kind == ISO_KTHREAD && y->kind == ISO_KTHREAD) {
		int c = strcmp(x->comm, y->comm);

		if (x->cpu != y->cpu)
			return x->cpu < y->cpu ? -1 : 1;
		return c ? c : (x->tid < y->tid ? -1 : x->tid > y->tid);
	}
	if (gx != gy)
		return gx - gy;
	if (gx) {
		if (x->kind != y->kind)
			return (int)x->kind - (int)y->kind;
		return x->tid < y->tid ? -1 : x->tid > y->tid;
	}
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind == ISO_IRQ ? -1 : 1; /* interrupts first: they preempt */
	vx = x->kind == ISO_IRQ ? x->rate_per_s : x->cpu_pct;
	vy = y->kind == ISO_IRQ ? y->rate_per_s : y->cpu_pct;
	if (!isfinite(vx))
		vx = -1;
	if (!isfinite(vy))
		vy = -1;
	return vx > vy ? -1 : vx < vy;
}

static void audit_threads(struct iso_report *r, size_t *cap, const struct thread_table *tab)
{
	for (size_t i = 0; i < tab->n; i++) {
		const struct thread_info *t = &tab->t[i];
		struct cpumask outside;
		bool confined, ran, percpu;
		struct iso_item *it;

		if (t->last_cpu < 0 || !cpumask_test(&r->audited, t->last_cpu))
			continue;
		ran = pos(t->cpu_pct) || pos(t->vol_per_s) || pos(t->invol_per_s);
		if (!ran)
			continue;
		outside = t->affinity;
		cpumask_andnot(&outside, &r->audited);
		confined = t->have_affinity && cpumask_empty(&outside);
		percpu = t->kernel && ((t->flags & PF_NO_SETAFFINITY_FLAG) ||
				       (confined && cpumask_count(&t->affinity) == 1));
		if (!t->kernel && confined) {
			r->nworkload++; /* the latency work itself */
			continue;
		}
		it = add(r, cap, ISO_THREAD);
		it->cpu = t->last_cpu;
		fill_thread(it, t);
		r->nthread++;
		if (percpu) {
			snprintf(it->note, sizeof(it->note), "%s", kthread_hint(t->comm));
		} else if (cpumask_empty(&r->housekeeping)) {
			snprintf(it->note, sizeof(it->note), "no housekeeping CPU to move it to");
		} else {
			int irq = irq_thread_of(t->comm);

			it->movable = true;
			snprintf(it->fix, sizeof(it->fix), "%s=%s",
				 knob_addr_thread_affinity(t->tid).s, r->housekeeping_list);
			if (irq >= 0)
				snprintf(it->note, sizeof(it->note),
					 "threaded handler of IRQ %d: it follows %s", irq,
					 knob_addr_irq_affinity_n(irq).s);
		}
	}
}

/* "isolated CPU 1", "nohz_full CPUs 2-3", "isolated/nohz_full CPUs 1-3". */
static void cpus_words(const struct iso_report *r, const struct cpumask *m, char *buf, size_t cap)
{
	struct cpumask x = *m;
	const char *kind;
	char list[64];

	cpumask_andnot(&x, &r->isolated);
	if (r->have_isolated && cpumask_empty(&x)) {
		kind = "isolated";
	} else {
		x = *m;
		cpumask_andnot(&x, &r->nohz_full);
		kind = r->have_nohz_full && cpumask_empty(&x) ? "nohz_full" : "isolated/nohz_full";
	}
	cpulist_format(m, list, sizeof(list));
	snprintf(buf, cap, "%s CPU%s %s", kind, cpumask_count(m) == 1 ? "" : "s", list);
}

/* Per-CPU interrupts (timer, IPIs, GIC PPIs): no affinity to change, so
 * flagged where they fired, with what helps. */
static void audit_percpu_irq(struct iso_report *r, size_t *cap, const struct irq_table *tab,
			     const struct irq_row *row)
{
	if (!row->rate_per_s)
		return;
	for (int c = cpumask_next(&r->audited, 0); c >= 0; c = cpumask_next(&r->audited, c + 1)) {
		struct iso_item *it;

		if (c >= tab->ncpus || !cpumask_test(&row->have_cpu, c) || !pos(row->rate_per_s[c]))
			continue;
		it = add(r, cap, ISO_IRQ);
		it->cpu = c;
		snprintf(it->label, sizeof(it->label), "%s", row->label);
		snprintf(it->name, sizeof(it->name), "%s", row->name);
		it->rate_per_s = row->rate_per_s[c];
		if (row->have_affinity)
			cpulist_format(&row->affinity, it->affinity, sizeof(it->affinity));
		r->nirq++;
		snprintf(it->note, sizeof(it->note), "%s", percpu_irq_hint(row));
	}
}

/* A device IRQ: flagged when its affinity or effective affinity includes an
 * audited CPU (whether or not it fired), or when it fired on one anyway;
 * one item per IRQ, on the audited CPU it fired on most (else the first it
 * may target). Whether it can move is the kernel's answer (irq_row.move,
 * managed), not which files exist. */
static void audit_device_irq(struct iso_report *r, size_t *cap, const struct irq_table *tab,
			     const struct irq_row *row)
{
	struct cpumask aff, eff, fired;
	double rate = NAN, top = 0;
	int topcpu = -1;
	char cpus[96], where[96] = "";
	struct iso_item *it;
	size_t len;

	cpumask_zero(&aff);
	cpumask_zero(&eff);
	cpumask_zero(&fired);
	if (row->have_affinity) {
		aff = row->affinity;
		cpumask_and(&aff, &r->audited);
	}
	if (row->have_effective) {
		eff = row->effective;
		cpumask_and(&eff, &r->audited);
	}
	for (int c = cpumask_next(&r->audited, 0); row->rate_per_s && c >= 0;
	     c = cpumask_next(&r->audited, c + 1)) {
		if (c >= tab->ncpus || !cpumask_test(&row->have_cpu, c) ||
		    !isfinite(row->rate_per_s[c]))
			continue;
		rate = (isfinite(rate) ? rate : 0.0) + row->rate_per_s[c];
		if (pos(row->rate_per_s[c])) {
			cpumask_set(&fired, c);
			if (row->rate_per_s[c] > top) {
				top = row->rate_per_s[c];
				topcpu = c;
			}
		}
	}
	if (cpumask_empty(&aff) && cpumask_empty(&eff) && cpumask_empty(&fired))
		return;
	it = add(r, cap, ISO_IRQ);
	if (topcpu < 0)
		topcpu = cpumask_next(cpumask_empty(&aff) ? &eff : &aff, 0);
	it->cpu = topcpu;
	snprintf(it->label, sizeof(it->label), "%s", row->label);
	snprintf(it->name, sizeof(it->name), "%s", row->name);
	it->rate_per_s = rate;
	if (row->have_affinity)
		cpulist_format(&row->affinity, it->affinity, sizeof(it->affinity));
	if (row->have_effective)
		cpulist_format(&row->effective, it->effective, sizeof(it->effective));
	r->nirq++;
	/* which: the configuration, and the rate as evidence when it fired */
	if (!cpumask_empty(&aff)) {
		cpus_words(r, &aff, cpus, sizeof(cpus));
		snprintf(it->reason, sizeof(it->reason), "affinity includes %s", cpus);
	} else if (!cpumask_empty(&eff)) {
		cpus_words(r, &eff, cpus, sizeof(cpus));
		snprintf(it->reason, sizeof(it->reason), "effective affinity includes %s", cpus);
	}
	if (!cpumask_empty(&fired)) {
		if (!cpumask_equal(&fired, cpumask_empty(&aff) ? &eff : &aff) || !it->reason[0]) {
			char list[64];

			cpulist_format(&fired, list, sizeof(list));
			snprintf(where, sizeof(where), " on CPU%s %s",
				 cpumask_count(&fired) == 1 ? "" : "s", list);
		}
		len = strlen(it->reason);
		snprintf(it->reason + len, sizeof(it->reason) - len, "%sfired %.1f/s%s",
			 len ? "; " : "", rate, where);
	}
	if (row->managed) {
		snprintf(it->note, sizeof(it->note),
			 "managed IRQ (the kernel refused a move with EIO): not movable; boot "
			 "with isolcpus=managed_irq,%s",
			 r->audited_list);
	} else if (row->move == IRQ_MOVE_READONLY) {
		snprintf(it->note, sizeof(it->note),
			 "not movable: the kernel made /proc/irq/%d/smp_affinity_list read-only "
			 "(managed, or its chip cannot move it); boot with "
			 "isolcpus=managed_irq,%s",
			 row->irq, r->audited_list);
	} else if (row->move == IRQ_MOVE_NOFILE) {
		snprintf(it->note, sizeof(it->note),
			 "not movable: /proc/irq/%d has no smp_affinity_list", row->irq);
	} else if (row->move != IRQ_MOVE_YES) {
		it->move_unknown = true;
		snprintf(it->note, sizeof(it->note),
			 "movability unknown: no /proc/irq/%d/smp_affinity_list to ask", row->irq);
	} else if (cpumask_empty(&r->housekeeping)) {
		snprintf(it->note, sizeof(it->note), "no housekeeping CPU to move it to");
	} else if (row->have_affinity && !cpumask_empty(&row->affinity) && cpumask_empty(&aff)) {
		/* Moving it again would write what is there: the kernel has
		 * not followed the write, yet or at all. */
		it->move_unknown = true;
		snprintf(it->note, sizeof(it->note),
			 "movability unknown: affinity is already %s (housekeeping) but it still "
			 "%s (effective affinity %s): the chip has not moved it yet or cannot",
			 it->affinity, cpumask_empty(&fired) ? "targets the CPU" : "fires here",
			 it->effective[0] ? it->effective : "n/a");
	} else {
		it->movable = true;
		snprintf(it->fix, sizeof(it->fix), "%s=%s", knob_addr_irq_affinity_n(row->irq).s,
			 r->housekeeping_list);
	}
}

static void audit_irqs(struct iso_report *r, size_t *cap, const struct irq_table *tab)
{
	for (size_t i = 0; i < tab->n; i++) {
		const struct irq_row *row = &tab->rows[i];

		if (row->single_total)
			continue;
		if (!row->numeric || row->percpu || row->irq < 0)
			audit_percpu_irq(r, cap, tab, row);
		else
			audit_device_irq(r, cap, tab, row);
	}
}

/* "ksoftirqd/3" with prefix "ksoftirqd/" -> 3; -1 when it does not match. */
static int cpu_suffix(const char *comm, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = comm + n;
	int v = 0;

	if (strncmp(comm, prefix, n) || !isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p) && v < 100000; p++)
		v = v * 10 + (*p - '0');
	return *p == '\0' || *p == ':' ? v : -1;
}

/* Hex mask of m, as wide as the highest online CPU. */
static void hex_mask(const struct cpumask *m, const struct cpumask *online, char *buf, size_t cap)
{
	int nbits = 1;

	for (int c = 0; c < TT_MAX_CPUS; c++)
		if (cpumask_test(online, c) || cpumask_test(m, c))
			nbits = c + 1;
	cpumask_format_hex(m, nbits, buf, cap);
}

/* The kernel threads resident on the audited CPUs (see ISO_KTHREAD). */
static void audit_kthreads(struct iso_report *r, size_t *cap, const struct thread_table *tab,
			   const struct cpumask *online)
{
	static const char *const bound[] = {"ksoftirqd/", "ktimers/",	  "ktimersoftd/",
					    "migration/", "cpuhp/",	  "rcuc/",
					    "irq_work/",  "idle_inject/", "watchdog/"};
	static const char *const rcuo[] = {"rcuop/", "rcuos/", "rcuob/", "rcuog/"};

	for (size_t i = 0; i < tab->n; i++) {
		const struct thread_info *t = &tab->t[i];
		struct cpumask on = t->affinity;
		struct iso_item *it = NULL;
		int cpu = -1;

		if (!t->kernel)
			continue;
		cpumask_and(&on, &r->audited);
		for (size_t k = 0; k < sizeof(bound) / sizeof(bound[0]) && cpu < 0; k++)
			cpu = cpu_suffix(t->comm, bound[k]);
		if (cpu < 0)
			cpu = cpu_suffix(t->comm, "kworker/");
		if (cpu >= 0) {
			if (!cpumask_test(&r->audited, cpu))
				continue;
			it = add(r, cap, ISO_KTHREAD);
			snprintf(it->note, sizeof(it->note), "bound by design: %s",
				 kthread_hint(t->comm));
		} else if (!strncmp(t->comm, "kworker/u", 9)) {
			if (!t->have_affinity || cpumask_empty(&on))
				continue;
			it = add(r, cap, ISO_KTHREAD);
			cpu = cpumask_next(&on, 0);
			if (cpumask_empty(&r->housekeeping)) {
				snprintf(it->note, sizeof(it->note),
					 "unbound kworker: no housekeeping CPU to move it to");
			} else {
				char hx[96];

				hex_mask(&r->housekeeping, online, hx, sizeof(hx));
				it->movable = true;
				snprintf(it->fix, sizeof(it->fix), "%s=%s",
					 knob_addr_workqueue_cpumask().s, hx);
				snprintf(it->note, sizeof(it->note),
					 "unbound kworker: follows the workqueue cpumask, not "
					 "taskset");
			}
		} else {
			int of = -1;

			for (size_t k = 0; k < sizeof(rcuo) / sizeof(rcuo[0]) && of < 0; k++)
				of = cpu_suffix(t->comm, rcuo[k]);
			if (of < 0 || !t->have_affinity)
				continue;
			if (cpumask_empty(&on) && !cpumask_test(&r->audited, of))
				continue;
			it = add(r, cap, ISO_KTHREAD);
			cpu = cpumask_empty(&on) ? of : cpumask_next(&on, 0);
			if (cpumask_empty(&on)) {
				snprintf(it->note, sizeof(it->note),
					 "RCU callbacks of CPU %d offloaded to housekeeping CPUs: "
					 "fine",
					 of);
			} else if (cpumask_empty(&r->housekeeping)) {
				snprintf(it->note, sizeof(it->note),
					 "RCU offload thread: no housekeeping CPU to move it to");
			} else {
				it->movable = true;
				snprintf(it->fix, sizeof(it->fix), "%s=%s",
					 knob_addr_thread_affinity(t->tid).s, r->housekeeping_list);
				snprintf(it->note, sizeof(it->note),
					 "RCU callback thread (callbacks of CPU %d) allowed on "
					 "isolated CPUs: move it (taskset)",
					 of);
			}
		}
		it->cpu = cpu;
		fill_thread(it, t);
		r->nkthread++;
		if (it->movable)
			r->nkthread_movable++;
	}
}

static void audit_rt(struct iso_report *r, size_t *cap, const struct thread_table *tab)
{
	int target = cpumask_next(&r->audited, 0);

	for (size_t i = 0; i < tab->n; i++) {
		const struct thread_info *t = &tab->t[i];
		bool pinned;
		int irq, cpu;

		if (!threads_is_rt(t))
			continue;
		pinned = threads_is_pinned(tab, t);
		irq = irq_thread_of(t->comm);
		cpu = target >= 0 ? target : t->last_cpu;
		if (!pinned && t->have_affinity && tab->have_online) {
			struct iso_item *it = add(r, cap, ISO_RT_UNPINNED);

			fill_thread(it, t);
			r->nrt_unpinned++;
			if (irq >= 0) {
				snprintf(it->note, sizeof(it->note),
					 "threaded handler of IRQ %d: pin the interrupt "
					 "(%s) and the thread follows",
					 irq, knob_addr_irq_affinity_n(irq).s);
			} else if (t->kernel) {
				/* watchdogd and the like: not the workload, so not
				 * onto the CPUs under study; off them if any */
				if (target >= 0 && !cpumask_empty(&r->housekeeping)) {
					it->movable = true;
					snprintf(it->fix, sizeof(it->fix), "%s=%s",
						 knob_addr_thread_affinity(t->tid).s,
						 r->housekeeping_list);
					snprintf(it->note, sizeof(it->note),
						 "kernel RT thread allowed on the isolated CPUs: "
						 "keep "
						 "it on the housekeeping CPUs");
				} else {
					snprintf(it->note, sizeof(it->note),
						 "kernel thread: the kernel places it; with no "
						 "isolated CPU there is nothing to keep it off");
				}
			} else if (cpu >= 0) {
				it->movable = true;
				snprintf(it->fix, sizeof(it->fix), "%s=%d",
					 knob_addr_thread_affinity(t->tid).s, cpu);
				snprintf(it->note, sizeof(it->note),
					 "may run on any CPU: every migration costs cache warmth "
					 "and a wake-up on a busy CPU");
			}
		}
		if (pos(t->migrations_per_s)) {
			struct iso_item *it = add(r, cap, ISO_RT_MIGRATING);

			fill_thread(it, t);
			r->nrt_migrating++;
			cpu = t->last_cpu >= 0 ? t->last_cpu : cpu;
			if (irq < 0 && cpu >= 0) {
				it->movable = true;
				snprintf(it->fix, sizeof(it->fix), "%s=%d",
					 knob_addr_thread_affinity(t->tid).s, cpu);
			}
			snprintf(it->note, sizeof(it->note), "%.1f migrations/s%s",
				 t->migrations_per_s,
				 pinned ? " within its mask: pin it to one CPU" : "");
		}
	}
}

int isolation_audit(const struct system_info *sys, const struct cpumask *online,
		    const struct irq_table *irqs, const struct thread_table *threads,
		    struct iso_report *out)
{
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	out->have_isolated = sys && sys->have_isolated;
	out->have_nohz_full = sys && sys->have_nohz_full;
	if (out->have_isolated)
		out->isolated = sys->isolated;
	if (out->have_nohz_full)
		out->nohz_full = sys->nohz_full;
	out->audited = out->isolated;
	cpumask_or(&out->audited, &out->nohz_full);
	if (online && !cpumask_empty(online)) {
		cpumask_and(&out->audited, online);
		out->housekeeping = *online;
		cpumask_andnot(&out->housekeeping, &out->audited);
	}
	cpulist_format(&out->audited, out->audited_list, sizeof(out->audited_list));
	cpulist_format(&out->housekeeping, out->housekeeping_list, sizeof(out->housekeeping_list));
	out->have_wq_cpumask = sys && sys->have_wq_cpumask;
	if (out->have_wq_cpumask)
		out->wq_cpumask = sys->wq_cpumask;
	out->have_threads = threads != NULL;
	out->have_irqs = irqs != NULL;
	for (size_t i = 0; threads && i < threads->n && !out->have_rates; i++)
		out->have_rates = isfinite(threads->t[i].cpu_pct);
	for (int c = 0; irqs && irqs->cpu_total_per_s && c < irqs->ncpus && !out->have_rates; c++)
		out->have_rates = isfinite(irqs->cpu_total_per_s[c]);
	if (!cpumask_empty(&out->audited)) {
		if (irqs)
			audit_irqs(out, &cap, irqs);
		if (threads) {
			audit_threads(out, &cap, threads);
			audit_kthreads(out, &cap, threads, online ? online : &out->audited);
		}
	}
	if (threads)
		audit_rt(out, &cap, threads);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_item);
	return 0;
}

void isolation_free(struct iso_report *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

size_t isolation_fixes(const struct iso_report *r, char ***out)
{
	size_t n = 0;

	*out = xcalloc(r->n ? r->n : 1, sizeof(char *));
	for (size_t i = 0; i < r->n; i++) {
		const struct iso_item *it = &r->v[i];
		bool dup = false;

		if ((it->kind != ISO_THREAD && it->kind != ISO_IRQ && it->kind != ISO_KTHREAD) ||
		    !it->movable || !it->fix[0])
			continue;
		/* an IRQ that fired on two isolated CPUs is one assignment */
		for (size_t k = 0; k < n && !dup; k++)
			dup = !strcmp((*out)[k], it->fix);
		if (!dup)
			(*out)[n++] = xstrdup(it->fix);
	}
	return n;
}

void isolation_fixes_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* ---- writers ------------------------------------------------------------------ */

static void json_list(struct jw *w, const char *key, bool have, const struct cpumask *m)
{
	char buf[128];

	if (!have) {
		jw_null(w, key);
		return;
	}
	cpulist_format(m, buf, sizeof(buf));
	jw_str(w, key, buf);
}

static void json_thread(struct jw *w, const struct iso_item *it)
{
	jw_int(w, "pid", it->pid);
	jw_int(w, "tid", it->tid);
	jw_str(w, "comm", it->comm);
	jw_bool(w, "kernel", it->kernel);
	jw_str(w, "policy", threads_policy_name(it->policy));
	jw_int(w, "rt_prio", it->rt_prio);
	jw_str_nz(w, "affinity", it->affinity);
}

static void json_item(struct jw *w, const struct iso_item *it)
{
	jw_obj_begin(w, NULL);
	if (it->kind == ISO_THREAD || it->kind == ISO_IRQ || it->kind == ISO_KTHREAD) {
		jw_int(w, "cpu", it->cpu);
		jw_str(w, "kind", isolation_kind_name(it->kind));
	}
	if (it->kind == ISO_IRQ) {
		bool num = isdigit((unsigned char)it->label[0]);

		if (num)
			jw_int(w, "irq", atoi(it->label));
		else
			jw_null(w, "irq");
		jw_str(w, "label", it->label);
		jw_str(w, "name", it->name);
		jw_double(w, "rate_per_s", it->rate_per_s, 1);
		jw_str_nz(w, "affinity", it->affinity);
		jw_str_nz(w, "effective_affinity", it->effective);
		jw_str_nz(w, "reason", it->reason);
	} else {
		json_thread(w, it);
		if (it->kind == ISO_THREAD)
			jw_double(w, "cpu_pct", it->cpu_pct, 1);
		if (it->kind == ISO_RT_MIGRATING)
			jw_double(w, "migrations_per_s", it->migrations_per_s, 1);
	}
	if (it->move_unknown)
		jw_null(w, "movable"); /* only a try would tell */
	else
		jw_bool(w, "movable", it->movable);
	jw_str_nz(w, "fix", it->fix);
	jw_str_nz(w, "note", it->note);
	jw_obj_end(w);
}

void isolation_json(struct jw *w, const struct iso_report *r)
{
	char buf[128];

	jw_obj_begin(w, "isolation");
	json_list(w, "isolated_cpus", r->have_isolated, &r->isolated);
	json_list(w, "nohz_full_cpus", r->have_nohz_full, &r->nohz_full);
	json_list(w, "audited_cpus", true, &r->audited);
	json_list(w, "housekeeping_cpus", true, &r->housekeeping);
	jw_bool(w, "have_rates", r->have_rates);
	jw_arr_begin(w, "intruders");
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].kind == ISO_THREAD || r->v[i].kind == ISO_IRQ)
			json_item(w, &r->v[i]);
	jw_arr_end(w);
	if (r->have_threads)
		jw_uint(w, "workload_threads", r->nworkload);
	else
		jw_null(w, "workload_threads");
	if (r->have_wq_cpumask) {
		cpulist_format(&r->wq_cpumask, buf, sizeof(buf));
		jw_str(w, "workqueue_cpus", buf);
	} else {
		jw_null(w, "workqueue_cpus");
	}
	if (r->have_threads) {
		jw_arr_begin(w, "kthreads");
		for (size_t i = 0; i < r->n; i++)
			if (r->v[i].kind == ISO_KTHREAD)
				json_item(w, &r->v[i]);
		jw_arr_end(w);
	} else {
		jw_null(w, "kthreads");
	}
	jw_arr_begin(w, "rt_unpinned");
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].kind == ISO_RT_UNPINNED)
			json_item(w, &r->v[i]);
	jw_arr_end(w);
	jw_arr_begin(w, "rt_migrating");
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].kind == ISO_RT_MIGRATING)
			json_item(w, &r->v[i]);
	jw_arr_end(w);
	jw_obj_end(w);
}

static void text_item(struct sbuf *b, const struct iso_item *it)
{
	char who[80], rate[24];

	if (it->kind == ISO_IRQ) {
		snprintf(who, sizeof(who), "%s %s", it->label, it->name);
	} else {
		snprintf(who, sizeof(who), "%d %s%s", (int)it->tid, it->comm,
			 it->kernel ? " [k]" : "");
	}
	isolation_item_rate(it, rate, sizeof(rate));
	if (it->cpu >= 0)
		sbuf_printf(b, "  %-4d %-7s ", it->cpu, isolation_kind_name(it->kind));
	else
		sbuf_printf(b, "  ");
	sbuf_printf(b, "%-34.34s %-11s %s%s%s%s%s\n", who, rate, it->fix[0] ? it->fix : "-",
		    it->reason[0] || it->note[0] ? "  # " : "", it->reason,
		    it->reason[0] && it->note[0] ? "; " : "", it->note);
}

void isolation_text(struct sbuf *b, const struct iso_report *r)
{
	char iso[128] = "n/a", nohz[128] = "n/a";

	if (r->have_isolated)
		cpulist_format(&r->isolated, iso, sizeof(iso));
	if (r->have_nohz_full)
		cpulist_format(&r->nohz_full, nohz, sizeof(nohz));
	if (cpumask_empty(&r->audited)) {
		sbuf_printf(b,
			    "Isolation audit: no isolated or nohz_full CPUs (isolated %s, "
			    "nohz_full %s)\n",
			    iso[0] ? iso : "none", nohz[0] ? nohz : "none");
	} else {
		sbuf_printf(b,
			    "Isolation audit: CPUs %s (isolated %s, nohz_full %s), housekeeping "
			    "%s%s\n",
			    r->audited_list, iso[0] ? iso : "none", nohz[0] ? nohz : "none",
			    r->housekeeping_list[0] ? r->housekeeping_list : "none",
			    r->have_rates ? ""
					  : "  (one sample: no rates, the configuration only)");
		if (!r->nthread && !r->nirq)
			sbuf_puts(b, "  no intruders\n");
		else
			sbuf_printf(b, "  %-4s %-7s %-34s %-11s %s\n", "CPU", "kind", "who", "rate",
				    "fix");
		for (size_t i = 0; i < r->n; i++)
			if (r->v[i].kind == ISO_THREAD || r->v[i].kind == ISO_IRQ)
				text_item(b, &r->v[i]);
		if (r->have_threads)
			sbuf_printf(b,
				    "  %zu workload thread%s confined to the isolated CPUs ran\n",
				    r->nworkload, r->nworkload == 1 ? "" : "s");
		if (r->have_wq_cpumask) {
			char wq[128];
			struct cpumask in = r->wq_cpumask;

			cpulist_format(&r->wq_cpumask, wq, sizeof(wq));
			cpumask_and(&in, &r->audited);
			sbuf_printf(b, "  unbound workqueues may run on CPUs %s%s\n", wq,
				    cpumask_empty(&in)
					    ? " (none isolated)"
					    : ": includes isolated CPUs (workqueue/cpumask)");
		}
		if (r->have_threads) {
			sbuf_printf(b, "Kernel threads on CPUs %s anyway (%zu, %zu movable):\n",
				    r->audited_list, r->nkthread, r->nkthread_movable);
			for (size_t i = 0; i < r->n; i++)
				if (r->v[i].kind == ISO_KTHREAD)
					text_item(b, &r->v[i]);
		} else
			sbuf_puts(b, "  threads not audited: this root has no processes (no "
				     "proc/PID)\n");
	}
	if (r->nrt_unpinned) {
		sbuf_printf(b, "RT threads not pinned (%zu):\n", r->nrt_unpinned);
		for (size_t i = 0; i < r->n; i++)
			if (r->v[i].kind == ISO_RT_UNPINNED)
				text_item(b, &r->v[i]);
	}
	if (r->nrt_migrating) {
		sbuf_printf(b, "RT threads migrating (%zu):\n", r->nrt_migrating);
		for (size_t i = 0; i < r->n; i++)
			if (r->v[i].kind == ISO_RT_MIGRATING)
				text_item(b, &r->v[i]);
	}
}

/* ---- an item's rate column, for the text section and the TUI (issue 14) ---- */

void isolation_item_rate(const struct iso_item *it, char *buf, size_t cap)
{
	if (it->kind == ISO_IRQ && isfinite(it->rate_per_s))
		snprintf(buf, cap, "%.1f/s", it->rate_per_s);
	else if (it->kind == ISO_RT_MIGRATING)
		snprintf(buf, cap, "%.1f mig/s", it->migrations_per_s);
	else if (it->kind == ISO_KTHREAD)
		snprintf(buf, cap, "on %s", it->affinity[0] ? it->affinity : "n/a");
	else if (it->kind == ISO_RT_UNPINNED)
		snprintf(buf, cap, "%s:%d", threads_policy_name(it->policy), it->rt_prio);
	else if (it->kind == ISO_THREAD && isfinite(it->cpu_pct))
		snprintf(buf, cap, "%.1f%%", it->cpu_pct);
	else
		snprintf(buf, cap, "n/a");
}
