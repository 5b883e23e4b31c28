/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/probe/whyattr.c on the recorded streams of
 * tests/fixtures/why/ (README there says what each holds): per fixture the
 * largest part, its exact ns and reason, every part in ns, the parts
 * summing to the delay exactly, the causes ranked with their shares, and
 * the fix address; every fix offered must be a knob address of the knob
 * table with a value the knob layer accepts. A wrong sign, a nested
 * interval counted twice or a slice given to the wrong context changes an
 * exact number here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"
#include "core/json.h"
#include "core/str.h"
#include "knob/knob.h"
#include "knob/knob_int.h"
#include "probe/whyattr.h"
#include "sysfs/userfile.h"
#include "tap.h"

static int64_t idle_exit_ns(void *ctx, int cpu, unsigned state)
{
	(void)ctx;
	(void)cpu;
	return state == 1 ? 10000 : state == 2 ? 85000 : state == 3 ? 200000 : -1;
}

static const char *idle_name(void *ctx, int cpu, unsigned state)
{
	(void)ctx;
	(void)cpu;
	return state == 1 ? "C1E" : state == 2 ? "C6" : state == 3 ? "C8" : NULL;
}

static const struct why_opts opts = {.idle_exit_ns = idle_exit_ns, .idle_name = idle_name};

/* Load, sort and attribute a fixture; 0 when it all worked. */
static int load(const char *name, const struct why_opts *o, struct why_result *r)
{
	char path[512], *text = NULL, why[160];
	struct why_events s;
	int line, e;

	snprintf(path, sizeof(path), "%s", fixture(name));
	memset(r, 0, sizeof(*r));
	if ((e = userfile_read(path, 0, 64u << 20, &text, NULL))) {
		ok(0, "%s: read: %s", path, strerror(-e));
		return e;
	}
	e = why_events_parse(text, &s, &line, why, sizeof(why));
	free(text);
	if (e) {
		ok(0, "%s:%d: %s", path, line, why);
		return e;
	}
	why_events_sort(&s);
	e = why_attribute(&s, o ? o : &opts, r);
	why_events_free(&s);
	ok(e == 0, "%s: attributed", name);
	return e;
}

static const struct why_part *part(const struct why_late *l, enum why_part_kind k, int id)
{
	for (size_t i = 0; i < l->n_parts; i++)
		if (l->parts[i].kind == k && l->parts[i].id == id)
			return &l->parts[i];
	return NULL;
}

static uint64_t part_ns(const struct why_late *l, enum why_part_kind k, int id)
{
	const struct why_part *p = part(l, k, id);

	return p ? p->ns : 0;
}

static const struct why_cause *cause(const struct why_result *r, enum why_part_kind k, int id)
{
	for (size_t i = 0; i < r->n_causes; i++)
		if (r->causes[i].kind == k && r->causes[i].id == id)
			return &r->causes[i];
	return NULL;
}

/* Parts sum to the delay exactly, largest first, err_ns small. */
static void check_sums(const char *name, const struct why_result *r)
{
	for (size_t i = 0; i < r->n_late; i++) {
		const struct why_late *l = &r->late[i];
		uint64_t sum = 0;
		int sorted = 1;

		for (size_t j = 0; j < l->n_parts; j++) {
			sum += l->parts[j].ns;
			if (j && l->parts[j].ns > l->parts[j - 1].ns)
				sorted = 0;
		}
		is_int(sum, l->delay_ns, "  parts sum to the delay");
		is_int(l->delay_ns, l->wake_ns - l->deadline_ns, "  delay = wake - deadline");
		ok(sorted, "  %s late %zu: parts largest first", name, i);
		ok(l->err_ns > 0 && l->err_ns < l->delay_ns / 10,
		   "  err_ns %llu is stated and small", (unsigned long long)l->err_ns);
	}
}

/* ADDRESS=VALUE matches a pattern of the knob table and its value is one the
 * knob layer takes. */
static int fix_valid(const char *fix)
{
	char addr[128], *val, *seg[8], *pseg[8], pat[128];
	size_t ns = 0;

	str_copy(addr, sizeof(addr), fix);
	if (!(val = strchr(addr, '=')))
		return 0;
	*val++ = '\0';
	for (char *p = strtok(addr, "/"); p && ns < 8; p = strtok(NULL, "/"))
		seg[ns++] = p;
	for (size_t i = 0; i < knob_def_count(); i++) {
		size_t np = 0, j;

		str_copy(pat, sizeof(pat), knob_def_pattern(i));
		for (char *p = strtok(pat, "/"); p && np < 8; p = strtok(NULL, "/"))
			pseg[np++] = p;
		if (np != ns)
			continue;
		for (j = 0; j < ns; j++)
			if (pseg[j][0] != '<' && !str_eq(pseg[j], seg[j]))
				break;
		if (j < ns)
			continue;
		if (str_eq(seg[0], "thread")) {
			char norm[64], why[160];
			struct cpumask m;
			int tid;

			if (str_to_int(seg[1], &tid) || tid <= 0)
				return 0;
			/* the affinity check also wants the CPUs online here: the
			 * fixtures' CPU 2 need not be on the machine running this */
			if (str_eq(seg[2], "affinity"))
				return cpulist_parse(val, &m) == 0 && !cpumask_empty(&m);
			return thread_knob_check(seg[2], val, norm, sizeof(norm), why,
						 sizeof(why)) == 0;
		}
		if (str_eq(seg[0], "irq")) {
			struct cpumask m;
			int irq;

			return str_to_int(seg[1], &irq) == 0 && irq >= 0 &&
			       cpulist_parse(val, &m) == 0 && !cpumask_empty(&m);
		}
		if (str_eq(seg[0], "cpuidle")) {
			struct cpumask m;
			const char *c = str_starts(seg[1], "cpu") ? seg[1] + 3 : seg[1];

			return cpulist_parse(c, &m) == 0 && str_starts(seg[2], "state") &&
			       str_is_digits(seg[2] + 5) && str_eq(val, "1");
		}
		if (str_eq(seg[0], "sched")) {
			int v;

			return str_to_int(val, &v) == 0 && v >= -1;
		}
		return 0;
	}
	return 0;
}

static void check_fixes(const char *name, const struct why_result *r)
{
	int all = 1;

	for (size_t i = 0; i < r->n_causes; i++) {
		if (r->causes[i].fix[0] && !fix_valid(r->causes[i].fix)) {
			all = 0;
			printf("#   %s: '%s' is not a valid knob assignment\n", name,
			       r->causes[i].fix);
		}
		if (!r->causes[i].fix_why[0])
			all = 0;
	}
	ok(all, "  %s: every fix is a knob address with a valid value, every cause says why", name);
}

static void test_higher_prio(void)
{
	struct why_result r;
	const struct why_late *l;
	const struct why_cause *c;

	if (load("why/higher-prio.events", NULL, &r))
		return;
	is_int(r.n_late, 2, "higher-prio: two late wake-ups");
	l = &r.late[0];
	is_int(l->delay_ns, 294000, "  first delay 294 us");
	is_int(l->parts[0].kind, WP_TASK, "  largest part: a task");
	is_int(l->parts[0].id, 5000, "  the hog's tid");
	is_str(l->parts[0].name, "rt-hog", "  its comm");
	is_int(l->parts[0].prio, 4, "  its prio");
	is_int(l->parts[0].ns, 292500, "  292.5 us (from the deadline to its switch-out)");
	is_int(l->parts[0].reason, WR_HIGHER_PRIO, "  reason: higher priority");
	is_int(part_ns(l, WP_RETURN, -1), 1500, "  return path 1.5 us");
	is_int(l->probe_prio, 9, "  the probe's prio from its events");
	is_int(r.late[1].parts[0].ns, 242500, "  second: 242.5 us");
	check_sums("higher-prio", &r);
	c = &r.causes[0];
	is_int(c->kind, WP_TASK, "  first cause: the task");
	is_int(c->id, 5000, "  tid 5000");
	is_dbl(c->share_late_pct, 100.0, 1e-9, "  largest in 100 % of late wake-ups");
	is_dbl(c->share_delay_pct, 100.0 * 535000 / 538000, 1e-9, "  share of the total late time");
	is_int(c->total_ns, 535000, "  535 us in all");
	is_str(c->fix, "thread/5000/affinity=0-1",
	       "  fix: move it to the other CPUs of the stream");
	ok(strstr(c->fix_why, "thread/5000/policy=fifo:89") != NULL,
	   "  or lower it below the probe");
	check_fixes("higher-prio", &r);
	why_result_free(&r);

	{
		struct why_opts o = opts;

		str_copy(o.housekeeping, sizeof(o.housekeeping), "0,3");
		o.over_ns = 250000;
		if (load("why/higher-prio.events", &o, &r))
			return;
		is_int(r.n_late, 1, "  --why-over 250 us keeps one");
		is_int(r.threshold_ns, 250000, "  and says so");
		is_str(r.causes[0].fix, "thread/5000/affinity=0,3", "  housekeeping CPUs given");
		why_result_free(&r);
	}
}

/* An IRQ entry whose exit the stream lost (heavy disk I/O under tracefs):
 * the next switch ends it, or every later wait is charged to the IRQ. */
static void test_irq_unpaired(void)
{
	struct why_result r;

	if (load("why/irq-unpaired.events", NULL, &r))
		return;
	is_int(r.n_late, 2, "irq-unpaired: two late wake-ups");
	is_int(r.late[0].parts[0].kind, WP_TASK, "  largest part of the first: a task");
	is_int(r.late[0].parts[0].id, 5000, "  the hog, not IRQ 36 (its exit lost)");
	is_int(r.late[0].parts[0].ns, 292500, "  292.5 us, as without the IRQ");
	is_int(part_ns(&r.late[0], WP_IRQ, 36), 0,
	       "  IRQ 36 ended at the switch before the deadline");
	is_int(r.late[1].parts[0].id, 5000, "  the second: the hog too");
	check_sums("irq-unpaired", &r);
	is_int(r.causes[0].id, 5000, "  first cause: the hog");
	why_result_free(&r);
}

static void test_same_prio(void)
{
	struct why_result r;
	const struct why_late *l;

	if (load("why/same-prio.events", NULL, &r))
		return;
	l = &r.late[0];
	is_int(l->parts[0].id, 5001, "same-prio: rt-same is the largest part");
	is_int(l->parts[0].ns, 180000, "  180 us");
	is_int(l->parts[0].reason, WR_SAME_PRIO, "  reason: same-priority FIFO");
	is_str(why_reason_name(l->parts[0].reason), "same-priority FIFO", "  its name");
	is_str(r.causes[0].fix, "thread/5001/policy=fifo:89", "  fix: below the probe");
	check_sums("same-prio", &r);
	check_fixes("same-prio", &r);
	why_result_free(&r);
}

static void test_rt_throttled(void)
{
	struct why_result r;
	const struct why_late *l;

	if (load("why/rt-throttled.events", NULL, &r))
		return;
	l = &r.late[0];
	is_int(l->parts[0].id, 6100, "rt-throttled: stress-ng-cpu is the largest part");
	is_int(l->parts[0].ns, 740000, "  740 us");
	is_int(l->parts[0].reason, WR_RT_THROTTLED, "  reason: RT throttled");
	is_str(r.causes[0].fix, "sched/rt_runtime_us=-1", "  fix: the RT runtime knob");
	check_sums("rt-throttled", &r);
	check_fixes("rt-throttled", &r);
	why_result_free(&r);
}

/* RT throttling that the events show begin: the runaway RT task switched
 * out runnable for a normal task is charged the throttled time, and its
 * fix is its own policy. */
static void test_rt_throttled_hog(void)
{
	struct why_result r;
	const struct why_late *l;

	if (load("why/rt-throttled-hog.events", NULL, &r))
		return;
	l = &r.late[0];
	is_int(l->parts[0].id, 6200, "rt-throttled-hog: rt-spin, that used up the runtime");
	is_str(l->parts[0].name, "rt-spin", "  named by its comm");
	is_int(l->parts[0].ns, 740000, "  740 us");
	is_int(l->parts[0].prio, 89, "  its own prio (FIFO 10)");
	is_int(l->parts[0].reason, WR_RT_THROTTLED, "  reason: RT throttled");
	ok(!part(l, WP_TASK, 6100), "  stress-ng-cpu, that filled the gap, is no part");
	is_str(r.causes[0].fix, "thread/6200/policy=other", "  fix: run it SCHED_OTHER");
	check_sums("rt-throttled-hog", &r);
	check_fixes("rt-throttled-hog", &r);
	why_result_free(&r);
}

/* RT throttling with nothing else to run: the CPU idles while the RT probe
 * is runnable; the idle time after its waking is the idle task's, RT
 * throttled, not an idle exit. Same-priority FIFO, higher priority and
 * RT throttling by a normal task are told apart by the fixtures above. */
static void test_rt_throttled_idle(void)
{
	struct why_result r;
	const struct why_late *l;

	if (load("why/rt-throttled-idle.events", NULL, &r))
		return;
	l = &r.late[0];
	is_int(l->delay_ns, 654000, "rt-throttled-idle: 654 us late");
	is_int(l->parts[0].kind, WP_TASK, "  the largest part: a task");
	is_int(l->parts[0].id, 0, "  the idle task");
	is_str(l->parts[0].name, "swapper/2", "  named swapper/2");
	is_int(l->parts[0].ns, 648000, "  648 us: the idle time after the probe's waking");
	is_int(l->parts[0].reason, WR_RT_THROTTLED, "  reason: RT throttled");
	is_int(part_ns(l, WP_IDLE_EXIT, 1), 3000, "  the idle exit before the waking: 3 us");
	is_int(part_ns(l, WP_WAKEUP, -1), 1000, "  wake-up path before the waking: 1 us");
	ok(!part(l, WP_STEAL, 1), "  no steal: the time after the waking is throttling");
	is_int(part_ns(l, WP_RETURN, -1), 2000, "  return 2 us");
	is_int(l->n_parts, 4, "  four parts");
	l = &r.late[1];
	is_int(l->delay_ns, 34000, "  second: 34 us late");
	ok(!part(l, WP_TASK, 0), "  back in idle 26 us after the waking: not throttling");
	is_int(part_ns(l, WP_IDLE_EXIT, 1), 28000, "  idle exit 28 us");
	is_int(part_ns(l, WP_WAKEUP, -1), 4000, "  wake-up path 4 us");
	check_sums("rt-throttled-idle", &r);
	is_int(r.causes[0].kind, WP_TASK, "  first cause: the idle task");
	is_str(r.causes[0].fix, "sched/rt_runtime_us=-1", "  fix: the RT runtime knob");
	check_fixes("rt-throttled-idle", &r);
	why_result_free(&r);
}

static void test_irq_softirq(void)
{
	struct why_result r;
	const struct why_late *l;
	const struct why_part *p;

	if (load("why/irq-softirq.events", NULL, &r))
		return;
	l = &r.late[0];
	is_int(l->parts[0].kind, WP_SOFTIRQ, "irq-softirq: the softirq is the largest part");
	is_str(l->parts[0].name, "NET_RX", "  NET_RX");
	is_int(l->parts[0].ns, 90000, "  90 us");
	is_int(l->parts[0].by_irq, 35, "  raised by IRQ 35");
	p = part(l, WP_IRQ, 35);
	ok(p && p->ns == 61000, "  IRQ 35: 61 us (open at the deadline)");
	ok(p && str_eq(p->name, "eth0-rx-0"), "  its name");
	is_int(part_ns(l, WP_WAKEUP, -1), 2000, "  wake-up path 2 us");
	is_int(part_ns(l, WP_RETURN, -1), 1500, "  return 1.5 us");
	check_sums("irq-softirq", &r);
	is_int(r.causes[0].kind, WP_SOFTIRQ, "  first cause: the softirq");
	is_str(r.causes[0].fix, "irq/35/affinity=0-1", "  its fix moves the IRQ that raised it");
	is_str(r.causes[1].fix, "irq/35/affinity=0-1", "  the IRQ's own fix");
	check_fixes("irq-softirq", &r);
	why_result_free(&r);
}

static void test_ksoftirqd(void)
{
	struct why_result r;
	const struct why_late *l;
	const struct why_part *p;

	if (load("why/ksoftirqd.events", NULL, &r))
		return;
	l = &r.late[0];
	is_int(l->parts[0].kind, WP_KSOFTIRQD, "ksoftirqd: the softirq in ksoftirqd is largest");
	is_int(l->parts[0].ns, 120000, "  120 us");
	is_int(l->parts[0].by_irq, 35, "  raised by IRQ 35 before the deadline");
	p = part(l, WP_TASK, 27);
	ok(p && p->ns == 1500, "  ksoftirqd/2 itself 1.5 us after the softirq");
	ok(p && p->reason == WR_NONPREEMPT, "  short: not preempted, not throttling");
	check_sums("ksoftirqd", &r);
	is_str(r.causes[0].fix, "irq/35/affinity=0-1", "  fix: the IRQ that raised it");
	check_fixes("ksoftirqd", &r);
	why_result_free(&r);
}

static void test_idle_exit(void)
{
	struct why_result r;
	const struct why_late *l;

	if (load("why/idle-exit.events", NULL, &r))
		return;
	l = &r.late[0];
	is_int(l->parts[0].kind, WP_IDLE_EXIT, "idle-exit: the idle exit is the largest part");
	is_int(l->parts[0].id, 3, "  state 3");
	is_str(l->parts[0].name, "C8", "  named by the option");
	is_int(l->parts[0].declared_ns, 200000, "  declared exit latency 200 us");
	is_int(l->parts[0].ns, 212000, "  212 us measured");
	is_int(part_ns(l, WP_WAKEUP, -1), 5000, "  wake-up path 5 us");
	check_sums("idle-exit", &r);
	is_str(r.causes[0].fix, "cpuidle/cpu2/state3/disable=1", "  fix: disable state 3 on CPU 2");
	check_fixes("idle-exit", &r);
	why_result_free(&r);
}

/* Under a hypervisor the idle exit absorbs the host's delay: the idle-exit
 * part of a stay is capped at the declared latency + margin (10 us: 32.5
 * us), the rest is its own part (steal); each stay has its own cap. */
static void test_idle_steal(void)
{
	const uint64_t cap = 10000 + 10000 * WHY_IDLE_MARGIN_PCT / 100 + WHY_IDLE_MARGIN_NS;
	struct why_result r;
	const struct why_late *l;
	const struct why_part *p;
	const struct why_cause *c;

	is_int(cap, 32500, "idle-steal: the cap of a 10 us state is 32.5 us");
	if (load("why/idle-steal.events", NULL, &r))
		return;
	is_int(r.n_late, 2, "  two late wake-ups");
	l = &r.late[0];
	is_int(l->delay_ns, 487000, "  first: 487 us late");
	is_int(l->parts[0].kind, WP_STEAL, "  the largest part: past the declared exit");
	is_int(l->parts[0].id, 1, "  after state 1");
	is_str(l->parts[0].name, "C1E", "  named as the state");
	is_int(l->parts[0].ns, 480000 - cap, "  447.5 us: the stay beyond the cap");
	is_int(l->parts[0].declared_ns, 10000, "  with the declared latency");
	p = part(l, WP_IDLE_EXIT, 1);
	ok(p && p->ns == cap, "  the idle exit itself: 32.5 us (declared + margin)");
	is_int(part_ns(l, WP_WAKEUP, -1), 5000, "  wake-up path 5 us");
	is_int(part_ns(l, WP_RETURN, -1), 2000, "  return 2 us");
	l = &r.late[1];
	is_int(l->delay_ns, 66000, "  second: 66 us late");
	is_int(part_ns(l, WP_IDLE_EXIT, 1), 50000,
	       "  two stays of 20 and 30 us, each under its cap: 50 us of idle exit");
	ok(!part(l, WP_STEAL, 1), "  and no steal (the cap is per stay, not per window)");
	is_int(part_ns(l, WP_IRQ, 35), 8000, "  IRQ 35 between the stays: 8 us");
	check_sums("idle-steal", &r);
	c = &r.causes[0];
	is_int(c->kind, WP_STEAL, "  first cause: the unseen time after C1E");
	is_str(why_part_kind_name(c->kind), "steal", "  its kind name");
	is_str(c->fix, "cpuidle/cpu2/state1/disable=1", "  fix: keep the CPU out of the state");
	ok(strstr(c->fix_why, "not seen by the guest's events") != NULL, "  says it is unseen");
	is_int(cause(&r, WP_IDLE_EXIT, 1)->total_ns, cap + 50000, "  idle exit: 82.5 us in all");
	check_fixes("idle-steal", &r);
	why_result_free(&r);
	/* without a declared latency there is nothing to cap */
	{
		struct why_opts o = {.idle_name = idle_name};

		if (load("why/idle-steal.events", &o, &r))
			return;
		is_int(r.late[0].parts[0].kind, WP_IDLE_EXIT, "  undeclared: all idle exit");
		is_int(r.late[0].parts[0].ns, 480000, "  480 us");
		ok(!part(&r.late[0], WP_STEAL, 1), "  no steal part");
		why_result_free(&r);
	}
}

static void test_migration(void)
{
	struct why_result r;
	const struct why_late *l;
	const struct why_part *p;

	if (load("why/migration.events", NULL, &r))
		return;
	l = &r.late[0];
	is_int(l->parts[0].id, 88, "migration: kworker/2:1 on the new CPU is the largest part");
	is_int(l->parts[0].ns, 75000, "  75 us");
	is_int(l->parts[0].reason, WR_MIGRATION, "  reason: migration");
	p = part(l, WP_TASK, 5000);
	ok(p && p->ns == 20000 && p->reason == WR_HIGHER_PRIO,
	   "  rt-hog on the CPU it left: 20 us, higher priority");
	check_sums("migration", &r);
	is_str(r.causes[0].fix, "thread/4321/affinity=2", "  fix: pin the probed thread");
	check_fixes("migration", &r);
	why_result_free(&r);
}

static void test_lost(void)
{
	struct why_result r;
	const struct why_late *l;

	if (load("why/lost.events", NULL, &r))
		return;
	l = &r.late[0];
	ok(l->lost, "lost: the window is marked lost");
	is_int(r.lost_events, 120, "  120 events lost in the run");
	is_int(l->parts[0].kind, WP_UNKNOWN, "  what came before the loss is unknown");
	is_int(l->parts[0].ns, 80000, "  80 us");
	is_int(part_ns(l, WP_IDLE_EXIT, 1), 200, "  the rest is attributed");
	check_sums("lost", &r);
	check_fixes("lost", &r);
	why_result_free(&r);
}

static void test_overlapping(void)
{
	struct why_result r;
	const struct why_late *l;
	static const enum why_part_kind order[] = {WP_TASK, WP_IDLE_EXIT, WP_IRQ,   WP_SOFTIRQ,
						   WP_IRQ,  WP_RETURN,	  WP_WAKEUP};
	static const int ids[] = {5000, 2, 35, 3, 40, -1, -1};
	int ranked = 1;

	if (load("why/overlapping.events", NULL, &r))
		return;
	l = &r.late[0];
	is_int(part_ns(l, WP_TASK, 5000), 100200, "overlapping: rt-hog 100.2 us, IRQs cut out");
	is_int(part_ns(l, WP_IRQ, 35), 25000, "  IRQ 35 inside it: 25 us");
	is_int(part_ns(l, WP_SOFTIRQ, 3), 16800, "  NET_RX 16.8 us without the nested IRQ 40");
	is_int(part_ns(l, WP_IRQ, 40), 8000, "  IRQ 40 nested in the softirq: 8 us");
	is_int(part_ns(l, WP_RETURN, -1), 2000, "  return 2 us");
	is_int(l->n_parts, 5, "  five parts");
	check_sums("overlapping", &r);
	is_int(r.n_causes, 7, "  seven causes over the run");
	for (size_t i = 0; i < 7 && i < r.n_causes; i++)
		if (r.causes[i].kind != order[i] || r.causes[i].id != ids[i]) {
			ranked = 0;
			printf("#   rank %zu: %s %d\n", i, why_part_kind_name(r.causes[i].kind),
			       r.causes[i].id);
		}
	ok(ranked, "  ranked by total late time");
	is_dbl(cause(&r, WP_TASK, 5000)->share_late_pct, 50.0, 1e-9,
	       "  the task: largest in 1 of 2");
	is_dbl(cause(&r, WP_IDLE_EXIT, 2)->share_late_pct, 50.0, 1e-9, "  idle exit: the other");
	is_dbl(cause(&r, WP_IRQ, 35)->share_late_pct, 0.0, 1e-9, "  IRQ 35: never the largest");
	is_dbl(cause(&r, WP_IRQ, 35)->share_delay_pct, 100.0 * 25000 / 197000, 1e-9,
	       "  IRQ 35: 12.7 % of the late time");
	is_int(cause(&r, WP_RETURN, -1)->n_present, 2, "  the return path in both");
	is_str(cause(&r, WP_IRQ, 40)->fix, "irq/40/affinity=0-1", "  IRQ 40's fix");
	is_str(cause(&r, WP_SOFTIRQ, 3)->fix, "irq/35/affinity=0-1", "  NET_RX: IRQ 35 raised it");
	check_fixes("overlapping", &r);
	why_result_free(&r);
}

static void test_edges(void)
{
	struct why_events s = {0};
	struct why_result r;
	struct why_event e;

	is_int(why_attribute(&s, NULL, &r), 0, "an empty stream");
	is_int(r.n_late, 0, "  no late wake-ups");
	is_int(r.n_causes, 0, "  no causes");
	why_result_free(&r);
	/* a late wake-up with nothing known: all of it unknown */
	memset(&e, 0, sizeof(e));
	e.ts_ns = 5000;
	e.cpu = 1;
	e.kind = WEV_LATE;
	e.u.late.tid = 9;
	e.u.late.deadline_ns = 1000;
	e.u.late.wake_ns = 5000;
	why_events_add(&s, &e);
	is_int(why_attribute(&s, NULL, &r), 0, "a late wake-up without events");
	ok(r.n_late == 1 && r.late[0].n_parts == 1 && r.late[0].parts[0].kind == WP_UNKNOWN &&
		   r.late[0].parts[0].ns == 4000,
	   "  is all unknown");
	ok(r.n_causes == 1 && r.causes[0].fix[0] == '\0', "  with no fix offered");
	why_result_free(&r);
	e.ts_ns = 10;
	why_events_add(&s, &e);
	is_int(why_attribute(&s, NULL, &r), -EINVAL, "an unsorted stream is refused");
	why_result_free(&r);
	why_events_free(&s);
	/* only sched_wakeup of the probe (no sched_waking traced): still woken */
	{
		struct why_event ev[4];

		memset(ev, 0, sizeof(ev));
		ev[0].kind = WEV_SWITCH;
		ev[0].cpu = 1;
		strcpy(ev[0].u.sw.next_comm, "cpuhog");
		ev[0].u.sw.next_pid = 50;
		ev[0].u.sw.next_prio = 120;
		ev[1].ts_ns = 1000;
		ev[1].cpu = 1;
		ev[1].kind = WEV_WAKEUP;
		ev[1].u.wk.pid = 9;
		ev[1].u.wk.prio = 9;
		ev[1].u.wk.target_cpu = 1;
		ev[2].ts_ns = 400000;
		ev[2].cpu = 1;
		ev[2].kind = WEV_SWITCH;
		ev[2].u.sw.prev_pid = 50;
		ev[2].u.sw.prev_prio = 120;
		ev[2].u.sw.next_pid = 9;
		ev[2].u.sw.next_prio = 9;
		ev[3].ts_ns = 401000;
		ev[3].cpu = 1;
		ev[3].kind = WEV_LATE;
		ev[3].u.late.tid = 9;
		ev[3].u.late.deadline_ns = 500;
		ev[3].u.late.wake_ns = 401000;
		for (int i = 0; i < 4; i++)
			why_events_add(&s, &ev[i]);
		is_int(why_attribute(&s, NULL, &r), 0, "a stream with sched_wakeup only");
		ok(r.n_late == 1 && r.late[0].parts[0].id == 50 &&
			   r.late[0].parts[0].ns == 399500 &&
			   r.late[0].parts[0].reason == WR_RT_THROTTLED,
		   "  the wakeup counts as woken: cpuhog 399.5 us, RT throttled");
		why_result_free(&r);
		/* the same with a SCHED_OTHER probe (prio 120): not FIFO order */
		s.ev[1].u.wk.prio = 120;
		s.ev[2].u.sw.next_prio = 120;
		is_int(why_attribute(&s, NULL, &r), 0, "a normal-priority probe");
		ok(r.n_late == 1 && r.late[0].parts[0].reason == WR_NONPREEMPT,
		   "  an equal normal prio is not 'same-priority FIFO'");
		why_result_free(&r);
		why_events_free(&s);
	}
	is_str(why_part_kind_name(WP_KSOFTIRQD), "ksoftirqd", "part kind name");
	is_str(why_reason_name(WR_RT_THROTTLED), "RT throttled", "reason name");
}

static void test_writers(void)
{
	struct why_result r;
	struct sbuf b;
	struct jw w;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (load("why/overlapping.events", NULL, &r))
		return;
	f = open_memstream(&text, &len);
	if (!f)
		abort();
	why_write_text(&r, f, 1);
	fclose(f);
	ok(strstr(text, "Why late: 2 wake-ups") != NULL, "text: the count");
	ok(strstr(text, "rt-hog (5000, rt 95, higher priority)") != NULL, "text: the task named");
	ok(strstr(text, "thread/5000/affinity=0-1") != NULL, "text: its fix");
	ok(strstr(text, "Worst 1 late wake-up:") != NULL, "text: --worst 1");
	ok(strstr(text, "152.0") != NULL && !strstr(text, "deadline 3600.021000"),
	   "text: the worst is the 152 us one, the other left out");
	ok(strstr(text, "IRQ 40 nvme0q2") != NULL, "text: the nested IRQ among the parts");
	free(text);
	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	why_write_json(&r, &w);
	jw_obj_end(&w);
	ok(strstr(b.s, "\"late_wakeups\":2") != NULL, "json: late_wakeups");
	ok(strstr(b.s, "\"fix\":\"irq/40/affinity=0-1\"") != NULL, "json: a fix");
	ok(strstr(b.s, "\"reason\":\"higher priority\"") != NULL, "json: a reason");
	ok(strstr(b.s, "\"us\":100.200") != NULL, "json: a part in us");
	sbuf_free(&b);
	why_result_free(&r);
}

int main(void)
{
	test_writers();
	test_higher_prio();
	test_irq_unpaired();
	test_same_prio();
	test_rt_throttled();
	test_rt_throttled_hog();
	test_rt_throttled_idle();
	test_irq_softirq();
	test_ksoftirqd();
	test_idle_exit();
	test_idle_steal();
	test_migration();
	test_lost();
	test_overlapping();
	test_edges();
	return done_testing();
}
