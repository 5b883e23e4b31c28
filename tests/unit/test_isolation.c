/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Isolation audit on the stm32mp157 fixture (isolcpus=1 nohz_full=1): two
 * samples of its /proc/interrupts where eth0 (IRQ 56) and the arch timer
 * fired on CPU 1, and a hand-made thread table (an intruder that may run
 * anywhere, the pinned workload, a per-CPU kernel thread, an RT thread that
 * is not pinned, an RT thread that migrates). */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "model/isolation.h"
#include "sysfs/sysroot.h"
#include "tap.h"

static char *replace(const char *text, const char *from, const char *to)
{
	const char *p = strstr(text, from);
	struct sbuf b;

	if (!p)
		return xstrdup(text);
	sbuf_init(&b);
	sbuf_putn(&b, text, (size_t)(p - text));
	sbuf_puts(&b, to);
	sbuf_puts(&b, p + strlen(from));
	return sbuf_steal(&b);
}

static struct thread_info *thr(struct thread_table *t, pid_t pid, pid_t tid, const char *comm,
			       int last_cpu, const char *aff, double cpu_pct)
{
	struct thread_info *x;

	t->t = xgrow(t->t, &t->cap, t->n + 1, sizeof(*t->t));
	x = &t->t[t->n++];
	memset(x, 0, sizeof(*x));
	x->pid = pid;
	x->tid = tid;
	str_copy(x->comm, sizeof(x->comm), comm);
	x->last_cpu = last_cpu;
	cpulist_parse(aff, &x->affinity);
	x->have_affinity = true;
	x->cpu_pct = cpu_pct;
	x->migrations_per_s = 0;
	x->vol_per_s = x->invol_per_s = 0;
	x->uclamp_min = x->uclamp_max = -1;
	return x;
}

static const struct iso_item *find(const struct iso_report *r, enum iso_kind k, const char *label,
				   pid_t tid)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct iso_item *it = &r->v[i];

		if (it->kind != k)
			continue;
		if (label && !strcmp(it->label, label))
			return it;
		if (!label && it->tid == tid)
			return it;
	}
	return NULL;
}

/* The kernel threads resident on isolated CPUs 2-3 of a 4-CPU machine: the
 * bound ones listed with the reason, rcuo* and unbound kworkers allowed
 * there flagged with their fix, the ones elsewhere left out. */
static void test_kthreads(void)
{
	struct system_info sys;
	struct thread_table tt;
	struct iso_report r;
	struct cpumask online;
	const struct iso_item *it;
	char **fix = NULL;
	size_t nfix;
	struct sbuf out;
	struct jw w;
	bool have_wq = false, have_rcuo = false;

	memset(&sys, 0, sizeof(sys));
	memset(&tt, 0, sizeof(tt));
	sys.have_isolated = sys.have_nohz_full = true;
	cpulist_parse("2-3", &sys.isolated);
	cpulist_parse("2-3", &sys.nohz_full);
	sys.have_wq_cpumask = true;
	cpulist_parse("0-3", &sys.wq_cpumask);
	cpulist_parse("0-3", &online);
	thr(&tt, 20, 20, "ksoftirqd/2", 2, "2", NAN)->kernel = true;
	thr(&tt, 21, 21, "ksoftirqd/0", 0, "0", NAN)->kernel = true;
	thr(&tt, 22, 22, "kworker/3:1H", 3, "3", NAN)->kernel = true;
	thr(&tt, 23, 23, "kworker/u8:2", 0, "0-3", NAN)->kernel = true;
	thr(&tt, 24, 24, "kworker/u8:3", 0, "0-1", NAN)->kernel = true;
	thr(&tt, 25, 25, "rcuop/2", 0, "0-3", NAN)->kernel = true;
	thr(&tt, 26, 26, "rcuop/3", 0, "0-1", NAN)->kernel = true;
	thr(&tt, 27, 27, "rcuop/1", 0, "0-1", NAN)->kernel = true;
	thr(&tt, 28, 28, "rcuog/0", 1, "0-3", NAN)->kernel = true;
	thr(&tt, 29, 29, "migration/2", 2, "2", NAN)->kernel = true;
	thr(&tt, 30, 30, "cpuhp/3", 3, "3", NAN)->kernel = true;
	thr(&tt, 31, 31, "ktimers/2", 2, "2", NAN)->kernel = true;
	thr(&tt, 32, 32, "kworker/u9:9", 2, "0-3", NAN); /* a user thread named so */
	is_int(isolation_audit(&sys, &online, NULL, &tt, &r), 0, "kthreads: audit");
	is_int((int)r.nkthread, 9, "kthreads: nine resident on CPUs 2-3");
	is_int((int)r.nkthread_movable, 3, "kthreads: three of them movable");
	it = find(&r, ISO_KTHREAD, NULL, 20);
	ok(it && it->cpu == 2 && !it->movable && !it->fix[0] &&
		   strstr(it->note, "bound by design") && strstr(it->note, "softirq"),
	   "ksoftirqd/2: bound by design, with what helps");
	ok(!find(&r, ISO_KTHREAD, NULL, 21), "ksoftirqd/0 (housekeeping): not listed");
	it = find(&r, ISO_KTHREAD, NULL, 22);
	ok(it && it->cpu == 3 && !it->movable, "kworker/3:1H: per-CPU, bound");
	it = find(&r, ISO_KTHREAD, NULL, 23);
	ok(it && it->movable && !strcmp(it->fix, "workqueue/cpumask=3") &&
		   !strcmp(it->affinity, "0-3"),
	   "kworker/u8:2 allowed on 2-3: fix is the workqueue cpumask (%s)", it ? it->fix : "-");
	ok(!find(&r, ISO_KTHREAD, NULL, 24), "unbound kworker kept on 0-1: not listed");
	it = find(&r, ISO_KTHREAD, NULL, 25);
	ok(it && it->movable && !strcmp(it->fix, "thread/25/affinity=0-1") && it->cpu == 2,
	   "rcuop/2 allowed on isolated CPUs: taskset fix (%s)", it ? it->fix : "-");
	it = find(&r, ISO_KTHREAD, NULL, 26);
	ok(it && !it->movable && it->cpu == 3 && strstr(it->note, "offloaded"),
	   "rcuop/3 on housekeeping: listed as offloaded, no fix");
	ok(!find(&r, ISO_KTHREAD, NULL, 27),
	   "rcuop/1 (housekeeping CPU, housekeeping mask): not listed");
	it = find(&r, ISO_KTHREAD, NULL, 28);
	ok(it && it->movable && !strcmp(it->fix, "thread/28/affinity=0-1"),
	   "rcuog/0 allowed on isolated CPUs: movable");
	ok(find(&r, ISO_KTHREAD, NULL, 29) && find(&r, ISO_KTHREAD, NULL, 30) &&
		   find(&r, ISO_KTHREAD, NULL, 31),
	   "migration/2, cpuhp/3, ktimers/2 listed");
	ok(!find(&r, ISO_KTHREAD, NULL, 32), "a user thread named kworker: not a kthread");
	nfix = isolation_fixes(&r, &fix);
	for (size_t i = 0; i < nfix; i++) {
		have_wq |= !strcmp(fix[i], "workqueue/cpumask=3");
		have_rcuo |= !strcmp(fix[i], "thread/25/affinity=0-1");
	}
	ok(have_wq && have_rcuo, "the fixes include the workqueue mask and the rcuo move");
	isolation_fixes_free(fix, nfix);
	sbuf_init(&out);
	isolation_text(&out, &r);
	ok(strstr(out.s, "Kernel threads on CPUs 2-3 anyway (9, 3 movable):") != NULL,
	   "text: kernel thread section");
	ok(strstr(out.s, "unbound workqueues may run on CPUs 0-3: includes isolated CPUs") != NULL,
	   "text: the workqueue cpumask");
	ok(strstr(out.s, "25 rcuop/2 [k]") != NULL, "text: the rcuo thread");
	sbuf_free(&out);
	sbuf_init(&out);
	jw_init(&w, &out, false);
	jw_obj_begin(&w, NULL);
	isolation_json(&w, &r);
	jw_obj_end(&w);
	ok(strstr(out.s, "\"workqueue_cpus\":\"0-3\"") != NULL, "JSON: workqueue_cpus");
	ok(strstr(out.s, "\"kthreads\":[{\"cpu\":2,\"kind\":\"kthread\"") != NULL,
	   "JSON: kthreads array, by CPU");
	ok(strstr(out.s, "\"fix\":\"workqueue/cpumask=3\"") != NULL, "JSON: the fix");
	sbuf_free(&out);
	isolation_free(&r);
	/* without threads: no kthread list, said as null */
	isolation_audit(&sys, &online, NULL, NULL, &r);
	sbuf_init(&out);
	jw_init(&w, &out, false);
	jw_obj_begin(&w, NULL);
	isolation_json(&w, &r);
	jw_obj_end(&w);
	ok(strstr(out.s, "\"kthreads\":null") != NULL, "JSON: kthreads null without threads");
	sbuf_free(&out);
	isolation_free(&r);
	free(tt.t);
}

/* The rate column of each kind of item, and n/a where the value is not known. */
static void test_item_rate(void)
{
	struct iso_item it;
	char buf[24];

	memset(&it, 0, sizeof(it));
	it.kind = ISO_IRQ;
	it.rate_per_s = 120.04;
	isolation_item_rate(&it, buf, sizeof(buf));
	is_str(buf, "120.0/s", "irq: its rate");
	it.rate_per_s = NAN;
	isolation_item_rate(&it, buf, sizeof(buf));
	is_str(buf, "n/a", "irq without a rate: n/a");
	it.kind = ISO_THREAD;
	it.cpu_pct = 12.25;
	isolation_item_rate(&it, buf, sizeof(buf));
	is_str(buf, "12.2%", "thread: its CPU%");
	it.cpu_pct = NAN;
	isolation_item_rate(&it, buf, sizeof(buf));
	is_str(buf, "n/a", "thread without a CPU%: n/a");
	it.kind = ISO_RT_MIGRATING;
	it.migrations_per_s = 3.5;
	isolation_item_rate(&it, buf, sizeof(buf));
	is_str(buf, "3.5 mig/s", "RT migrating: migrations per second");
	it.kind = ISO_KTHREAD;
	isolation_item_rate(&it, buf, sizeof(buf));
	is_str(buf, "on n/a", "kthread with no affinity read");
	str_copy(it.affinity, sizeof(it.affinity), "0-3");
	isolation_item_rate(&it, buf, sizeof(buf));
	is_str(buf, "on 0-3", "kthread: where it may run");
	it.kind = ISO_RT_UNPINNED;
	it.policy = SCHED_FIFO;
	it.rt_prio = 50;
	isolation_item_rate(&it, buf, sizeof(buf));
	is_str(buf, "fifo:50", "RT unpinned: policy and priority");
	isolation_item_rate(&it, buf, 5);
	is_str(buf, "fifo", "cut to the buffer");
}

int main(void)
{
	const char *fx = getenv("FIXTURES");
	char dir[512], *text = NULL, *t2, *t3;
	struct sysroot root;
	struct system_info sys;
	struct irq_table a, b;
	struct thread_table tt;
	struct iso_report r;
	struct cpumask online;
	const struct iso_item *it;
	char **fix = NULL;
	size_t nfix;
	struct sbuf out;

	if (!fx)
		skip_all("FIXTURES not set (run through make check)");
	snprintf(dir, sizeof(dir), "%s/stm32mp157", fx);
	if (sysroot_open(&root, dir) != 0)
		skip_all("no stm32mp157 fixture");
	is_int(system_read(&root, &sys), 0, "system_read on stm32mp157");
	ok(sys.have_isolated && cpumask_test(&sys.isolated, 1), "CPU 1 is isolated");
	ok(sysfs_read_alloc(&root, "proc/interrupts", &text, NULL) == 0, "read proc/interrupts");
	is_int(irqs_read(&root, 2, &a), 0, "first sample");
	/* second sample: eth0 +120 and the timer +100 on CPU 1, i2c +5 on CPU 0 */
	t2 = replace(text, " 56:      88412          0", " 56:      88412        120");
	t3 = replace(t2, " 24:     999679      41022", " 24:     999679      41122");
	free(t2);
	t2 = replace(t3, " 27:       1022          0", " 27:       1027          0");
	is_int(irqs_parse(t2, 2, &b), 0, "second sample parses");
	for (size_t i = 0; i < b.n; i++) { /* what irqs_read would have found */
		const struct irq_row *o = irqs_find(&a, b.rows[i].label);

		if (o) {
			b.rows[i].move = o->move;
			b.rows[i].movable = o->movable;
			b.rows[i].affinity = o->affinity;
			b.rows[i].have_affinity = o->have_affinity;
			b.rows[i].effective = o->effective;
			b.rows[i].have_effective = o->have_effective;
		}
		/* eth0 may run on both CPUs (the default mask): movable */
		if (!strcmp(b.rows[i].label, "56"))
			cpulist_parse("0-1", &b.rows[i].affinity);
		/* the display controller is pinned to the isolated CPU by
		 * configuration but did not fire in the interval */
		if (!strcmp(b.rows[i].label, "60")) {
			cpulist_parse("1", &b.rows[i].affinity);
			cpulist_parse("1", &b.rows[i].effective);
		}
	}
	irqs_derive(&b, &a, 1.0);
	cpulist_parse("0-1", &online);

	memset(&tt, 0, sizeof(tt));
	tt.online = online;
	tt.have_online = true;
	thr(&tt, 100, 100, "logger", 1, "0-1", 4.0);		 /* intruder */
	thr(&tt, 200, 201, "rt-loop", 1, "1", 90.0)->policy = 1; /* workload (FIFO) */
	tt.t[1].rt_prio = 80;
	thr(&tt, 15, 15, "ksoftirqd/1", 1, "1", 0.5)->kernel = true; /* per-CPU kthread */
	tt.t[2].flags = 0x04000000u;
	thr(&tt, 300, 300, "ctl", 0, "0-1", 1.0)->policy = 2; /* RR, unpinned */
	tt.t[3].rt_prio = 10;
	thr(&tt, 400, 401, "sampler", 0, "0-1", 2.0)->policy = 1; /* FIFO, migrating */
	tt.t[4].rt_prio = 20;
	tt.t[4].migrations_per_s = 3.0;
	thr(&tt, 500, 500, "idle-one", 1, "0-1", 0.0);		  /* did not run */
	thr(&tt, 42, 42, "watchdogd", 0, "0-1", 0.1)->policy = 1; /* kernel RT, unpinned */
	tt.t[6].rt_prio = 50;
	tt.t[6].kernel = true;

	is_int(isolation_audit(&sys, &online, &b, &tt, &r), 0, "audit");
	is_str(r.audited_list, "1", "audits CPU 1");
	is_str(r.housekeeping_list, "0", "housekeeping CPU 0");
	ok(r.have_rates, "has rates");

	it = find(&r, ISO_IRQ, "56", 0);
	ok(it != NULL, "eth0 (IRQ 56) flagged on CPU 1");
	if (it) {
		is_int(it->cpu, 1, "on CPU 1");
		is_dbl(it->rate_per_s, 120.0, 1e-9, "120 interrupts/s");
		ok(it->movable, "movable");
		is_str(it->fix, "irq/56/affinity=0", "fix moves it to CPU 0");
	}
	it = find(&r, ISO_IRQ, "24", 0);
	ok(it != NULL, "arch_timer flagged on CPU 1");
	if (it) {
		ok(!it->movable && !it->fix[0], "per-CPU timer: not movable, no fix");
		ok(strstr(it->note, "nohz_full") != NULL, "note points to nohz_full");
	}
	it = find(&r, ISO_IRQ, "56", 0);
	if (it)
		ok(strstr(it->reason, "affinity includes isolated CPU 1; fired 120.0/s") != NULL,
		   "eth0: by configuration, with the rate as evidence (%s)", it->reason);
	it = find(&r, ISO_IRQ, "60", 0);
	ok(it != NULL, "display controller pinned to CPU 1 flagged although it did not fire");
	if (it) {
		is_int(it->cpu, 1, "on CPU 1");
		is_dbl(it->rate_per_s, 0.0, 1e-9, "0 interrupts/s");
		is_str(it->reason, "affinity includes isolated CPU 1", "says which: the affinity");
		ok(it->movable && !it->move_unknown, "movable (smp_affinity_list writable)");
		is_str(it->fix, "irq/60/affinity=0", "fix moves it to CPU 0");
	}
	ok(find(&r, ISO_IRQ, "27", 0) == NULL, "i2c fired on CPU 0 only: not an intruder");
	ok(find(&r, ISO_IRQ, "36", 0) == NULL, "unchanged counts, affinity 0: not an intruder");
	is_int(r.nirq, 3, "three IRQ intruders");

	it = find(&r, ISO_THREAD, NULL, 100);
	ok(it != NULL && it->movable, "thread that may run anywhere flagged, movable");
	if (it)
		is_str(it->fix, "thread/100/affinity=0", "fix pins it to housekeeping");
	ok(find(&r, ISO_THREAD, NULL, 201) == NULL, "workload confined to CPU 1 is not flagged");
	is_int(r.nworkload, 1, "one workload thread counted");
	it = find(&r, ISO_THREAD, NULL, 15);
	ok(it != NULL && !it->movable, "ksoftirqd/1 flagged, not movable");
	if (it)
		ok(strstr(it->note, "softirq") != NULL, "with a softirq hint");
	ok(find(&r, ISO_THREAD, NULL, 500) == NULL, "thread that did not run: not flagged");

	it = find(&r, ISO_RT_UNPINNED, NULL, 300);
	ok(it != NULL, "unpinned RR thread flagged");
	if (it)
		is_str(it->fix, "thread/300/affinity=1", "suggests pinning to the isolated CPU");
	ok(find(&r, ISO_RT_UNPINNED, NULL, 201) == NULL, "pinned RT workload not flagged");
	it = find(&r, ISO_RT_UNPINNED, NULL, 42);
	ok(it != NULL, "unpinned kernel RT thread (watchdogd) flagged");
	if (it) {
		is_str(it->fix, "thread/42/affinity=0",
		       "a kernel thread goes to the housekeeping CPUs, not onto the isolated one");
		ok(strstr(it->note, "housekeeping") != NULL, "says why (%s)", it->note);
	}
	it = find(&r, ISO_RT_MIGRATING, NULL, 401);
	ok(it != NULL, "migrating FIFO thread flagged");
	if (it)
		is_dbl(it->migrations_per_s, 3.0, 1e-9, "3 migrations/s");

	nfix = isolation_fixes(&r, &fix);
	is_int(nfix, 3, "three fixes for the one-key move");
	if (nfix == 3) {
		is_str(fix[0], "irq/56/affinity=0", "IRQ fix first (CPU order, interrupts first)");
		is_str(fix[1], "irq/60/affinity=0", "then the one that did not fire");
		is_str(fix[2], "thread/100/affinity=0", "then the thread");
	}
	isolation_fixes_free(fix, nfix);

	sbuf_init(&out);
	{
		struct jw w;

		jw_init(&w, &out, false);
		jw_obj_begin(&w, NULL);
		isolation_json(&w, &r);
		jw_obj_end(&w);
	}
	ok(strstr(out.s, "\"isolation\":{\"isolated_cpus\":\"1\"") != NULL, "JSON key isolation");
	ok(strstr(out.s, "\"fix\":\"irq/56/affinity=0\"") != NULL, "JSON carries the fix");
	ok(strstr(out.s, "\"reason\":\"affinity includes isolated CPU 1\"") != NULL,
	   "JSON carries the reason");
	sbuf_reset(&out);
	isolation_text(&out, &r);
	ok(strstr(out.s, "Isolation audit: CPUs 1") != NULL, "text heading");
	ok(strstr(out.s, "RT threads not pinned (3)") != NULL, "text RT section");
	ok(strstr(out.s, "irq/60/affinity=0  # affinity includes isolated CPU 1\n") != NULL,
	   "text: the fix and which");
	sbuf_free(&out);
	isolation_free(&r);

	/* IRQ 56 whose affinity is already the housekeeping CPU while it still
	 * fires on CPU 1 (the effective affinity has not followed): flagged,
	 * but with no fix, since writing 0 again would change nothing. */
	for (size_t i = 0; i < b.n; i++)
		if (!strcmp(b.rows[i].label, "56")) {
			cpulist_parse("0", &b.rows[i].affinity);
			cpulist_parse("1", &b.rows[i].effective);
			b.rows[i].have_effective = true;
		}
	isolation_audit(&sys, &online, &b, &tt, &r);
	it = find(&r, ISO_IRQ, "56", 0);
	ok(it != NULL && !it->movable && !it->fix[0],
	   "IRQ 56 already on housekeeping CPU 0: flagged, no fix offered");
	if (it) {
		ok(strstr(it->note, "already 0") && strstr(it->note, "effective affinity 1"),
		   "the note says the affinity is already set and where it still fires (%s)",
		   it->note);
		ok(it->move_unknown && strstr(it->note, "movability unknown"),
		   "movability unknown, not 'not movable'");
		ok(strstr(it->reason, "effective affinity includes isolated CPU 1; fired") != NULL,
		   "which: the effective affinity, and the rate (%s)", it->reason);
	}
	isolation_free(&r);

	/* what the kernel says about moving it, not which files exist */
	for (size_t i = 0; i < b.n; i++)
		if (!strcmp(b.rows[i].label, "60")) {
			b.rows[i].move = IRQ_MOVE_READONLY;
			b.rows[i].movable = false;
		}
	isolation_audit(&sys, &online, &b, &tt, &r);
	it = find(&r, ISO_IRQ, "60", 0);
	ok(it && !it->movable && !it->move_unknown && !it->fix[0] &&
		   strstr(it->note, "read-only") && strstr(it->note, "managed_irq"),
	   "read-only smp_affinity_list: not movable, boot parameter named (%s)",
	   it ? it->note : "");
	isolation_free(&r);
	for (size_t i = 0; i < b.n; i++)
		if (!strcmp(b.rows[i].label, "60")) {
			b.rows[i].move = IRQ_MOVE_UNKNOWN;
			b.rows[i].managed = false;
		}
	isolation_audit(&sys, &online, &b, &tt, &r);
	it = find(&r, ISO_IRQ, "60", 0);
	ok(it && !it->movable && it->move_unknown && strstr(it->note, "movability unknown"),
	   "nothing to ask: movability unknown (%s)", it ? it->note : "");
	sbuf_init(&out);
	{
		struct jw w;

		jw_init(&w, &out, false);
		jw_obj_begin(&w, NULL);
		isolation_json(&w, &r);
		jw_obj_end(&w);
	}
	ok(strstr(out.s, "\"label\":\"60\"") && strstr(out.s, "\"movable\":null"),
	   "JSON: movable null when unknown");
	sbuf_free(&out);
	isolation_free(&r);
	for (size_t i = 0; i < b.n; i++)
		if (!strcmp(b.rows[i].label, "60")) {
			b.rows[i].move = IRQ_MOVE_YES;
			b.rows[i].movable = true;
		}

	/* one sample: no rates; device IRQs all on CPU 0, so nothing flagged */
	{
		struct irq_table c;

		is_int(irqs_parse(text, 2, &c), 0, "single sample parses");
		for (size_t i = 0; i < tt.n; i++)
			tt.t[i].cpu_pct = NAN;
		isolation_audit(&sys, &online, &c, &tt, &r);
		ok(!r.have_rates, "no rates from one sample");
		is_int(r.nirq + r.nthread, 0, "nothing flagged without rates");
		isolation_free(&r);
		irqs_free(&c);
	}
	/* no isolation at all */
	{
		struct system_info none = sys;

		cpumask_zero(&none.isolated);
		cpumask_zero(&none.nohz_full);
		isolation_audit(&none, &online, &b, &tt, &r);
		is_str(r.audited_list, "", "nothing audited without isolcpus/nohz_full");
		sbuf_init(&out);
		isolation_text(&out, &r);
		ok(strstr(out.s, "no isolated or nohz_full CPUs") != NULL, "text says so");
		sbuf_free(&out);
		isolation_free(&r);
	}
	free(tt.t);
	free(text);
	free(t2);
	free(t3);
	irqs_free(&a);
	irqs_free(&b);
	sysroot_close(&root);
	test_kthreads();
	test_item_rate();
	return done_testing();
}
