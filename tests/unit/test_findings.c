/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings rules over fixture snapshots, with hand-built thread tables and
 * probe results: every rule fires on an input built to trigger it and stays
 * silent once the input is "tuned" (the struct edited the way the fix would
 * change the board). */
#include <sched.h>
#include <string.h>

#include "core/xalloc.h"
#include "model/findings.h"
#include "probe/histogram.h"
#include "tap.h"

static struct snapshot snap_of(const char *board)
{
	struct sysroot r;
	struct snapshot s;

	memset(&s, 0, sizeof(s));
	if (sysroot_open(&r, fixture(board)) != 0) {
		printf("Bail out! cannot open fixture %s\n", board);
		exit(1);
	}
	if (snapshot_take(&r, SNAP_ALL, &s) != 0) {
		printf("Bail out! cannot sample fixture %s\n", board);
		exit(1);
	}
	sysroot_close(&r);
	return s;
}

static const struct finding *find(const struct finding_list *l, const char *id, const char *subject)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].id, id) && (!subject || !strcmp(l->v[i].subject, subject)))
			return &l->v[i];
	return NULL;
}

static size_t count_id(const struct finding_list *l, const char *id)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		n += !strcmp(l->v[i].id, id);
	return n;
}

static bool has_fix(const struct finding *f, const char *fx)
{
	for (size_t i = 0; f && i < f->nfix; i++)
		if (!strcmp(f->fix[i], fx))
			return true;
	return false;
}

static void eval(const struct snapshot *s, const struct thread_table *tt,
		 const struct findings_probe *pr, struct finding_list *l)
{
	struct findings_input in = {.snap = s, .threads = tt, .probe = pr};

	findings_free(l);
	ok(findings_eval(&in, NULL, l) == 0, "findings_eval");
}

/* A thread table over 8 online CPUs. */
static struct thread_table table(size_t n, int ncpus)
{
	struct thread_table t;

	memset(&t, 0, sizeof(t));
	t.n = t.cap = n;
	t.t = xcalloc(n, sizeof(*t.t));
	for (int c = 0; c < ncpus; c++)
		cpumask_set(&t.online, c);
	t.have_online = true;
	for (size_t i = 0; i < n; i++) {
		struct thread_info *x = &t.t[i];

		x->pid = x->tid = (pid_t)(1000 + i);
		snprintf(x->comm, sizeof(x->comm), "worker%zu", i);
		x->state = 'S';
		x->policy = SCHED_OTHER;
		x->uclamp_min = x->uclamp_max = -1;
		x->affinity = t.online;
		x->have_affinity = true;
		x->last_cpu = 0;
		x->migrations_per_s = x->cpu_pct = x->vol_per_s = x->invol_per_s = NAN;
	}
	return t;
}

static void rt_on(struct thread_info *x, const char *comm, int cpu, bool pin)
{
	snprintf(x->comm, sizeof(x->comm), "%s", comm);
	x->policy = SCHED_FIFO;
	x->rt_prio = 80;
	x->last_cpu = cpu;
	if (pin) {
		cpumask_zero(&x->affinity);
		cpumask_set(&x->affinity, cpu);
	}
}

static void set_governor(struct snapshot *s, const char *gov, bool to_max)
{
	for (size_t i = 0; i < s->freq.npolicies; i++) {
		snprintf(s->freq.pol[i].governor, sizeof(s->freq.pol[i].governor), "%s", gov);
		if (to_max)
			s->freq.pol[i].cur_khz = s->freq.pol[i].hw_max_khz;
	}
}

static void disable_state(struct snapshot *s, const char *name)
{
	for (int c = 0; c < s->idle.ncpus; c++)
		for (size_t k = 0; k < s->idle.cpu[c].nstates; k++)
			if (!strcmp(s->idle.cpu[c].st[k].name, name))
				s->idle.cpu[c].st[k].disable = 1;
}

static struct devfreq_dev *dev_of(struct snapshot *s, const char *name)
{
	const struct devfreq_dev *d = devfreq_find(&s->devf, name);

	for (size_t i = 0; i < s->devf.ndev; i++)
		if (&s->devf.dev[i] == d)
			return &s->devf.dev[i];
	printf("Bail out! no devfreq device %s\n", name);
	exit(1);
}

static void test_degraded_rk3588(void)
{
	struct snapshot s = snap_of("rk3588");
	struct finding_list l = {0};
	const struct finding *f;

	eval(&s, NULL, NULL, &l);
	f = find(&l, "governor-collapse", NULL);
	ok(f && f->sev == FINDING_INFO && f->degraded, "collapse without threads: info, degraded");
	ok(f && strstr(f->evidence, "No thread data (degraded rule)"), "evidence says degraded");
	ok(f && strstr(f->evidence, "408 MHz") && strstr(f->evidence, "97.0%"),
	   "evidence has the numbers (%s)", f ? f->evidence : "");
	ok(has_fix(f, "cpufreq/policy4/governor=performance"), "fix: policy4 performance");
	f = find(&l, "idle-exit-latency", "cpu-sleep");
	ok(f && f->sev == FINDING_INFO, "cpu-sleep 220 us > 100 us: info without threads");
	ok(has_fix(f, "cpuidle/0-7/cpu-sleep/disable=1"), "fix disables it on every CPU");
	ok(!find(&l, "devfreq-starved", NULL), "NPU idle (load 0%%): no devfreq finding");
	ok(!find(&l, "rt-throttling", NULL), "no throttling on rk3588");
	ok(!find(&l, "thp-always", NULL), "THP madvise: silent");

	/* NPU busy: collapse becomes warn, DDR starvation shows. */
	snprintf(dev_of(&s, "npu")->load, sizeof(dev_of(&s, "npu")->load), "65@1000000000Hz");
	eval(&s, NULL, NULL, &l);
	f = find(&l, "governor-collapse", NULL);
	ok(f && f->sev == FINDING_WARN && strstr(f->evidence, "65% busy"),
	   "NPU busy: collapse warn (%s)", f ? f->evidence : "");
	f = find(&l, "devfreq-starved", "dmc");
	ok(f && f->sev == FINDING_WARN && strstr(f->evidence, "534 MHz") &&
		   strstr(f->evidence, "2400 MHz"),
	   "dmc at 534 of 2400 MHz while NPU busy");
	ok(has_fix(f, "devfreq/dmc/governor=performance"), "fix: dmc performance");
	ok(!find(&l, "devfreq-starved", "fdab0000.npu"), "NPU itself at its max: not starved");

	/* No load file: a clock above the minimum is not load evidence. */
	dev_of(&s, "npu")->load[0] = '\0';
	eval(&s, NULL, NULL, &l);
	ok(!find(&l, "devfreq-starved", NULL), "no NPU load file: no devfreq finding");

	/* PM QoS already keeps CPUs out of cpu-sleep: silent. */
	s.idle.dma_latency_us = 50;
	eval(&s, NULL, NULL, &l);
	ok(!find(&l, "idle-exit-latency", NULL),
	   "cpu_dma_latency 50 us: cpu-sleep not usable, silent");
	s.idle.dma_latency_us = -1;

	/* Tuned: performance at max, cpu-sleep off, dmc at max. */
	snprintf(dev_of(&s, "npu")->load, sizeof(dev_of(&s, "npu")->load), "65@1000000000Hz");
	set_governor(&s, "performance", true);
	disable_state(&s, "cpu-sleep");
	dev_of(&s, "dmc")->cur_hz = dev_of(&s, "dmc")->max_hz;
	eval(&s, NULL, NULL, &l);
	is_int(l.n, 0, "tuned rk3588: no findings");
	for (size_t i = 0; i < l.n; i++)
		printf("# left: %s %s\n", l.v[i].id, l.v[i].title);
	findings_free(&l);
	snapshot_free(&s);
}

static void test_threads_rk3588(void)
{
	struct snapshot s = snap_of("rk3588");
	struct finding_list l = {0};
	struct thread_table tt = table(5, 8);
	const struct finding *f;

	rt_on(&tt.t[0], "rknn_infer", 4, true); /* FIFO 80 pinned to cpu4, blocked in ioctl */
	tt.t[0].state = 'D';
	tt.t[1].uclamp_min = 512; /* util_min on cpus 4-5 */
	cpumask_zero(&tt.t[1].affinity);
	cpumask_set(&tt.t[1].affinity, 4);
	cpumask_set(&tt.t[1].affinity, 5);
	rt_on(&tt.t[2], "ctrl", 6, false); /* RT, unpinned, migrating */
	tt.t[2].migrations_per_s = 50;
	tt.t[2].vmlck_kb = 1024;
	eval(&s, &tt, NULL, &l);

	f = find(&l, "governor-collapse", "policy4");
	ok(f && f->sev == FINDING_CRIT && !f->degraded, "RT thread on policy4 at 408 MHz: crit");
	ok(f && strstr(f->evidence, "rknn_infer (tid 1000, FIFO 80, state D)"),
	   "evidence names the thread (%s)", f ? f->evidence : "");
	ok(has_fix(f, "cpufreq/policy4/governor=performance"), "fix policy4");
	ok(find(&l, "governor-collapse", "policy6") != NULL, "RT thread last on cpu6: policy6 too");
	ok(!find(&l, "governor-collapse", "policy0"), "policy0 hosts no RT/pinned thread: silent");

	f = find(&l, "idle-exit-latency", "cpu-sleep");
	ok(f && f->sev == FINDING_WARN, "cpu-sleep on CPUs with RT threads: warn");
	ok(has_fix(f, "cpuidle/4,6/cpu-sleep/disable=1"), "fix only on the RT CPUs (%s)",
	   f && f->nfix ? f->fix[0] : "");

	f = find(&l, "uclamp-ignored", "policy4");
	ok(f && strstr(f->evidence, "util_min 512") && strstr(f->evidence, "interactive"),
	   "uclamp under interactive");
	ok(has_fix(f, "cpufreq/policy4/governor=schedutil"), "fix: schedutil (available here)");

	f = find(&l, "rt-no-mlock", NULL);
	ok(f && strstr(f->evidence, "rknn_infer") && !strstr(f->evidence, "ctrl"),
	   "rknn_infer has no locked memory, ctrl has");

	f = find(&l, "rt-migrations", "tid1002");
	ok(f && strstr(f->evidence, "50.0 times per second"), "ctrl migrates 50/s");
	ok(has_fix(f, "thread/1002/affinity=6"), "fix pins it where it runs");

	/* Tuned: performance everywhere, cpu-sleep off, schedutil for uclamp
	 * is moot under performance? No: uclamp is ignored by performance
	 * too, so the uclamp thread drops its clamp; memory locked; pinned. */
	set_governor(&s, "performance", true);
	disable_state(&s, "cpu-sleep");
	tt.t[0].vmlck_kb = 2048;
	tt.t[1].uclamp_min = 0;
	tt.t[2].migrations_per_s = 0;
	eval(&s, &tt, NULL, &l);
	is_int(l.n, 0, "tuned rk3588 with threads: no findings");
	for (size_t i = 0; i < l.n; i++)
		printf("# left: %s %s\n", l.v[i].id, l.v[i].title);

	/* uclamp under schedutil is fine. */
	set_governor(&s, "schedutil", false);
	tt.t[1].uclamp_min = 512;
	eval(&s, &tt, NULL, &l);
	ok(!find(&l, "uclamp-ignored", NULL), "uclamp under schedutil: silent");

	/* No RT threads at all: idle rule silent (nothing hosts RT work). */
	for (size_t i = 0; i < tt.n; i++)
		tt.t[i].policy = SCHED_OTHER;
	s.freq.pol[0].cur_khz = 408000;
	snprintf(s.freq.pol[0].governor, sizeof(s.freq.pol[0].governor), "interactive");
	for (int c = 0; c < s.idle.ncpus; c++)
		for (size_t k = 0; k < s.idle.cpu[c].nstates; k++)
			s.idle.cpu[c].st[k].disable = 0;
	eval(&s, &tt, NULL, &l);
	ok(!find(&l, "idle-exit-latency", NULL),
	   "no RT threads: idle rule silent with thread data");
	ok(!find(&l, "governor-collapse", NULL), "no RT or pinned thread: collapse silent");

	threads_free(&tt);
	findings_free(&l);
	snapshot_free(&s);
}

static void test_stm32(void)
{
	struct snapshot s = snap_of("stm32mp157");
	struct finding_list l = {0};
	struct thread_table tt = table(2, 2);
	const struct finding *f;
	struct irq_row *row;

	eval(&s, NULL, NULL, &l);
	f = find(&l, "rt-throttling", NULL);
	ok(f && f->sev == FINDING_CRIT && strstr(f->evidence, "949.987 ms of 950.000 ms"),
	   "stm32mp157: throttled on CPU 1 (%s)", f ? f->evidence : "");
	ok(f && f->nfix == 2 && !strcmp(f->fix[0], "sched/rt_runtime_us=90000") &&
		   !strcmp(f->fix[1], "sched/rt_period_us=100000"),
	   "fix: runtime first, then period");
	ok(!find(&l, "isolated-intruders", NULL), "device IRQs all on CPU0: no intruders");

	/* Near the limit, not throttled: warn. */
	s.rt.cpu[1].throttled = 0;
	s.rt.cpu[1].rt_time_ms = 900;
	s.rt.cpu[1].rt_use_pct = 900.0 / 950.0 * 100;
	eval(&s, NULL, NULL, &l);
	f = find(&l, "rt-throttling", NULL);
	ok(f && f->sev == FINDING_WARN, "rt_time 900 of 950 ms: warn");
	s.rt.cpu[1].rt_time_ms = 10;
	s.rt.cpu[1].rt_use_pct = 1;
	eval(&s, NULL, NULL, &l);
	ok(!find(&l, "rt-throttling", NULL), "rt_time low: silent");
	s.rt.runtime_us = -1;
	s.rt.cpu[1].throttled = 1;
	eval(&s, NULL, NULL, &l);
	ok(!find(&l, "rt-throttling", NULL), "runtime -1: no throttling possible, silent");

	/* eth0 lands on the isolated CPU 1. */
	row = irqs_find(&s.irqs, "56");
	ok(row != NULL, "irq 56 in the snapshot");
	if (row) {
		irq_set_count(row, 1, 5000);
		cpumask_set(&row->affinity, 1);
		cpumask_set(&row->effective, 1);
		eval(&s, NULL, NULL, &l);
		f = find(&l, "isolated-intruders", "irqs");
		ok(f && strstr(f->evidence, "56 eth0"), "eth0 on isolated CPU 1 (%s)",
		   f ? f->evidence : "");
		ok(has_fix(f, "irq/56/affinity=0"), "fix moves it to the housekeeping CPU");
		row->managed = true;
		eval(&s, NULL, NULL, &l);
		f = find(&l, "isolated-intruders", "irqs");
		ok(f && f->nfix == 0 && strstr(f->evidence, "managed_irq"),
		   "managed IRQ: no fix, boot parameter named");
		irq_set_count(row, 1, 0);
		row->managed = false;
		cpumask_clear(&row->affinity, 1);
		cpumask_clear(&row->effective, 1);
	}

	/* An unrelated thread ran on the isolated CPU; the control loop is
	 * pinned there on purpose. */
	tt.t[0].last_cpu = 1;
	rt_on(&tt.t[1], "ctrl-loop", 1, true);
	tt.t[1].vmlck_kb = 64;
	eval(&s, &tt, NULL, &l);
	f = find(&l, "isolated-intruders", "threads");
	ok(f && strstr(f->evidence, "worker0") && !strstr(f->evidence, "ctrl-loop"),
	   "worker0 intrudes, ctrl-loop belongs");
	ok(has_fix(f, "thread/1000/affinity=0"), "fix moves it to CPU 0");
	tt.t[0].last_cpu = 0;
	eval(&s, &tt, NULL, &l);
	ok(!find(&l, "isolated-intruders", NULL), "tuned: nothing on the isolated CPU");

	/* PREEMPT_RT kernel: probe misses do not blame the kernel. */
	{
		struct findings_probe pr = {.have = true,
					    .samples = 1000,
					    .misses = 3,
					    .budget_us = 100,
					    .max_us = 180,
					    .p99_us = 40};

		eval(&s, &tt, &pr, &l);
		ok(!find(&l, "non-rt-kernel-misses", NULL), "PREEMPT_RT: silent");
	}
	threads_free(&tt);
	findings_free(&l);
	snapshot_free(&s);
}

static void test_cooling_thp_probe(void)
{
	struct snapshot s = snap_of("rk3588");
	struct finding_list l = {0};
	const struct finding *f;
	struct findings_probe pr;
	struct hist h;

	for (size_t i = 0; i < s.therm.ncooling; i++)
		if (!strcmp(s.therm.cooling[i].type, "cpufreq-cpu4")) {
			s.therm.cooling[i].cur_state = 3;
			s.therm.cooling[i].active = true;
		}
	eval(&s, NULL, NULL, &l);
	f = find(&l, "cooling-active", NULL);
	ok(f && f->sev == FINDING_WARN && strstr(f->evidence, "state 3 of 10"),
	   "cooling active: warn");
	snprintf(s.freq.pol[1].governor, sizeof(s.freq.pol[1].governor), "performance");
	eval(&s, NULL, NULL, &l);
	f = find(&l, "cooling-active", NULL);
	ok(f && f->sev == FINDING_CRIT && strstr(f->evidence, "overrides that lock"),
	   "cooling over a performance policy: crit");
	for (size_t i = 0; i < s.therm.ncooling; i++) {
		s.therm.cooling[i].cur_state = 0;
		s.therm.cooling[i].active = false;
	}
	eval(&s, NULL, NULL, &l);
	ok(!find(&l, "cooling-active", NULL), "no active cooling: silent");

	snprintf(s.sys.thp, sizeof(s.sys.thp), "always");
	eval(&s, NULL, NULL, &l);
	f = find(&l, "thp-always", NULL);
	ok(f && f->sev == FINDING_INFO && has_fix(f, "mm/thp=madvise"), "THP always: info + fix");

	hist_init(&h);
	for (int i = 0; i < 990; i++)
		hist_add(&h, 20000, 0); /* 20 us */
	for (int i = 0; i < 10; i++)
		hist_add(&h, 450000, 0); /* 450 us */
	hist_add(&h, 100000, 0);	 /* exactly 100 us: not a miss */
	findings_probe_from_hist(&h, 100, &pr);
	is_int(pr.samples, 1001, "probe samples");
	is_int(pr.misses, 10, "misses: only samples later than 100 us");
	is_dbl(pr.max_us, 450, 0.5, "probe max");
	eval(&s, NULL, &pr, &l);
	f = find(&l, "non-rt-kernel-misses", NULL);
	ok(f && f->sev == FINDING_WARN && strstr(f->evidence, "10 of 1001"),
	   "misses on a non-RT kernel (%s)", f ? f->evidence : "");
	pr.misses = 0;
	eval(&s, NULL, &pr, &l);
	ok(!find(&l, "non-rt-kernel-misses", NULL), "no misses: silent");
	ok(count_id(&l, "governor-collapse") == 1, "degraded collapse is one finding");

	/* Order: most severe first. */
	snprintf(s.freq.pol[1].governor, sizeof(s.freq.pol[1].governor), "interactive");
	s.therm.cooling[1].cur_state = 2;
	s.therm.cooling[1].active = true;
	eval(&s, NULL, NULL, &l);
	for (size_t i = 1; i < l.n; i++)
		ok(l.v[i - 1].sev >= l.v[i].sev, "sorted by severity (%zu)", i);
	findings_free(&l);
	snapshot_free(&s);
}

/* Findings that are precise: driver semantics, load evidence, the RT tasks
 * named, what holds a value whose fix is in place, no reference numbers. */
static void test_precise(void)
{
	struct snapshot s = snap_of("intel");
	struct finding_list l = {0};
	struct thread_table tt = table(3, 2);
	const struct finding *f;
	struct devfreq_dev *dmc;

	/* intel_pstate (HWP) in powersave: not a collapse, an EPP note */
	eval(&s, NULL, NULL, &l);
	ok(!find(&l, "governor-collapse", NULL), "intel HWP powersave: no governor collapse");
	f = find(&l, "hwp-epp", NULL);
	ok(f && f->sev == FINDING_INFO && strstr(f->evidence, "hardware picks the frequency") &&
		   strstr(f->evidence, "balance_performance"),
	   "HWP: an informational note with the EPP (%s)", f ? f->evidence : "");
	ok(has_fix(f, "cpufreq/*/energy_performance_preference=performance"),
	   "its fix is the EPP hint");
	snapshot_free(&s);

	/* RK3588: the NPU busy by its load file; the DDR at 1968 of 2400 MHz is not
	 * starved, at 534 it is; saturated by its own load it is */
	s = snap_of("rk3588");
	snprintf(dev_of(&s, "npu")->load, sizeof(dev_of(&s, "npu")->load), "65@1000000000Hz");
	dmc = dev_of(&s, "dmc");
	dmc->cur_hz = 1968000000;
	eval(&s, NULL, NULL, &l);
	ok(!find(&l, "devfreq-starved", "dmc"), "DDR at 1968 of 2400 MHz: not starved");
	snprintf(dmc->load, sizeof(dmc->load), "95@1968000000Hz");
	eval(&s, NULL, NULL, &l);
	f = find(&l, "devfreq-starved", "dmc");
	ok(f && strstr(f->evidence, "own load is 95%"), "DDR saturated by its own load (%s)",
	   f ? f->evidence : "");
	dmc->load[0] = '\0';
	dmc->cur_hz = 534000000;
	eval(&s, NULL, NULL, &l);
	f = find(&l, "devfreq-starved", "dmc");
	ok(f && strstr(f->evidence, "65% busy") && strstr(f->evidence, "threshold 20%"),
	   "the evidence names the load and the threshold (%s)", f ? f->evidence : "");
	ok(f && !f->held[0], "governor not performance: nothing held");
	/* the fix in place, a thermal cap on the DDR */
	snprintf(dmc->governor, sizeof(dmc->governor), "performance");
	for (size_t i = 0; i < s.therm.ncooling; i++)
		if (!strcmp(s.therm.cooling[i].devfreq, "dmc")) {
			s.therm.cooling[i].active = true;
			s.therm.cooling[i].cur_state = 2;
		}
	eval(&s, NULL, NULL, &l);
	f = find(&l, "devfreq-starved", "dmc");
	ok(!f, "fix in place, nothing visible holds it: no claim");
	dmc->max_hz = 534000000;
	eval(&s, NULL, NULL, &l);
	f = find(&l, "devfreq-starved", "dmc");
	ok(f && strstr(f->held, "max_freq clamps dmc at 534 MHz (its top OPP is 2400 MHz)"),
	   "fix in place, a max_freq clamp holds it (%s)", f ? f->held : "");
	/* a policy on performance held at its lowest OPP by scaling_max_freq */
	for (size_t i = 0; i < s.freq.npolicies; i++)
		if (!strcmp(s.freq.pol[i].name, "policy4")) {
			struct cpufreq_policy *p = &s.freq.pol[i];

			snprintf(p->governor, sizeof(p->governor), "performance");
			p->max_khz = p->cur_khz;
		}
	eval(&s, NULL, NULL, &l);
	f = find(&l, "governor-collapse", NULL);
	ok(f && strstr(f->held, "scaling_max_freq clamps policy4 at 408 MHz"),
	   "performance held at 408 MHz: scaling_max_freq named (%s)", f ? f->held : "");
	for (size_t i = 0; i < l.n; i++)
		ok(!strstr(l.v[i].evidence, "RK3588") && !strstr(l.v[i].evidence, "B4860") &&
			   !strstr(l.v[i].evidence, "AM5729") && !strstr(l.v[i].evidence, "33.8"),
		   "%s: no reference case quoted", l.v[i].id);
	snapshot_free(&s);

	/* STM32MP157: the RT task on the throttled CPU named, with its share */
	s = snap_of("stm32mp157");
	rt_on(&tt.t[0], "ctrl-loop", 1, true);
	tt.t[0].cpu_pct = 97;
	tt.t[0].state = 'R';
	rt_on(&tt.t[1], "other-rt", 0, true);
	eval(&s, &tt, NULL, &l);
	f = find(&l, "rt-throttling", NULL);
	ok(f && strstr(f->evidence, "ctrl-loop (tid 1000, FIFO 80, cpu1, 97% of a CPU)"),
	   "throttling names the RT thread on CPU 1 and its share (%s)", f ? f->evidence : "");
	ok(f && !strstr(f->evidence, "other-rt"), "not the RT thread of another CPU");
	eval(&s, NULL, NULL, &l);
	f = find(&l, "rt-throttling", NULL);
	ok(f && strstr(f->evidence, "No thread data"), "without threads: says it cannot name them");
	s.rt.runtime_us = 90000;
	s.rt.period_us = 100000;
	eval(&s, NULL, NULL, &l);
	f = find(&l, "rt-throttling", NULL);
	ok(f && strstr(f->held, "90000 of 100000"), "window fix in place: why it persists");
	findings_free(&l);
	snapshot_free(&s);
	free(tt.t);
}

/* Kernel config against the command line and uclamp; the workqueue and
 * default IRQ masks against isolated CPUs (rk3588, edited). */
/* The preemption model: /proc/version against the kernel config (rk3588:
 * no PREEMPT flag, config VOLUNTARY: they agree). */
static void test_preempt_sources(void)
{
	struct snapshot s = snap_of("rk3588");
	struct thread_table tt = table(2, 8);
	struct finding_list l = {0};
	const struct finding *f;

	eval(&s, &tt, NULL, &l);
	ok(!find(&l, "preempt-sources", NULL),
	   "preempt-sources: no PREEMPT flag and config VOLUNTARY agree: silent");
	s.kconf.opt[KC_PREEMPT_VOLUNTARY].v = KCONFIG_NOT_SET;
	s.kconf.opt[KC_PREEMPT].v = KCONFIG_Y;
	eval(&s, &tt, NULL, &l);
	f = find(&l, "preempt-sources", NULL);
	ok(f && f->sev == FINDING_WARN && f->nfix == 0 &&
		   strstr(f->evidence, "/proc/version says no PREEMPT flag") &&
		   strstr(f->evidence, "says PREEMPT") && !strcmp(f->explain, "system.preempt"),
	   "preempt-sources: version without PREEMPT, config PREEMPT (the RK3588 header's pair)");
	s.sys.preempt = PREEMPT_MODEL_FULL;
	eval(&s, &tt, NULL, &l);
	ok(!find(&l, "preempt-sources", NULL), "preempt-sources: PREEMPT in both: silent");
	s.sys.preempt = PREEMPT_MODEL_RT;
	eval(&s, &tt, NULL, &l);
	ok(find(&l, "preempt-sources", NULL) != NULL,
	   "preempt-sources: version PREEMPT_RT, config without PREEMPT_RT");
	s.sys.preempt = PREEMPT_MODEL_DYNAMIC;
	snprintf(s.sys.dyn_mode, sizeof(s.sys.dyn_mode), "full");
	eval(&s, &tt, NULL, &l);
	f = find(&l, "preempt-sources", NULL);
	ok(f && strstr(f->evidence, "debugfs sched/preempt says mode full"),
	   "preempt-sources: PREEMPT_DYNAMIC and debugfs, config without it");
	memset(&s.kconf, 0, sizeof(s.kconf));
	eval(&s, &tt, NULL, &l);
	ok(!find(&l, "preempt-sources", NULL), "preempt-sources: silent without a config");
	findings_free(&l);
	free(tt.t);
	snapshot_free(&s);
}

static void test_kconfig_wq(void)
{
	struct snapshot s = snap_of("rk3588");
	struct thread_table tt = table(2, 8);
	struct finding_list l = {0};
	const struct finding *f;
	int p_nohz = -1, p_rcu = -1, p_thr = -1;

	for (int i = 0; i < SYSTEM_NPARAMS; i++) {
		if (!strcmp(system_param_names[i], "nohz_full"))
			p_nohz = i;
		if (!strcmp(system_param_names[i], "rcu_nocbs"))
			p_rcu = i;
		if (!strcmp(system_param_names[i], "threadirqs"))
			p_thr = i;
	}
	ok(p_nohz >= 0 && p_rcu >= 0 && p_thr >= 0, "cmdline parameters known");
	s.sys.param_set[p_nohz] = s.sys.param_set[p_rcu] = s.sys.param_set[p_thr] = true;
	snprintf(s.sys.param[p_nohz], sizeof(s.sys.param[0]), "4-7");
	snprintf(s.sys.param[p_rcu], sizeof(s.sys.param[0]), "4-7");
	s.sys.param[p_thr][0] = '\0';
	/* no config read (the fixture has its /boot config: dropped here):
	   nothing to compare with */
	memset(&s.kconf, 0, sizeof(s.kconf));
	eval(&s, &tt, NULL, &l);
	ok(!find(&l, "kconfig-cmdline", NULL), "kconfig-cmdline: silent without a config");
	memset(&s.kconf, 0, sizeof(s.kconf));
	s.kconf.have = s.kconf.tried = true;
	snprintf(s.kconf.source, sizeof(s.kconf.source), "/proc/config.gz");
	s.kconf.opt[KC_NO_HZ_FULL].v = KCONFIG_NOT_SET;
	s.kconf.opt[KC_RCU_NOCB_CPU].v = KCONFIG_Y;
	s.kconf.opt[KC_IRQ_FORCED_THREADING].v = KCONFIG_Y;
	s.kconf.opt[KC_UCLAMP_TASK].v = KCONFIG_NOT_SET;
	eval(&s, &tt, NULL, &l);
	f = find(&l, "kconfig-cmdline", "nohz_full");
	ok(f && f->sev == FINDING_WARN && f->nfix == 0 && strstr(f->evidence, "nohz_full=4-7") &&
		   strstr(f->evidence, "CONFIG_NO_HZ_FULL is not set") &&
		   !strcmp(f->explain, "kconfig.cmdline"),
	   "kconfig-cmdline: nohz_full without NO_HZ_FULL, no knob fix");
	is_int((int)count_id(&l, "kconfig-cmdline"), 1, "kconfig-cmdline: only that one");
	ok(!find(&l, "kconfig-uclamp", NULL), "kconfig-uclamp: silent without uclamp values");
	tt.t[1].uclamp_min = 512;
	tt.t[1].uclamp_max = 1024;
	eval(&s, &tt, NULL, &l);
	f = find(&l, "kconfig-uclamp", NULL);
	ok(f && strstr(f->evidence, "worker1 (tid 1001, 512..1024)"),
	   "kconfig-uclamp: uclamp on a thread while UCLAMP_TASK is not set");
	s.kconf.opt[KC_UCLAMP_TASK].v = KCONFIG_Y;
	s.kconf.opt[KC_NO_HZ_FULL].v = KCONFIG_Y;
	s.kconf.opt[KC_IRQ_FORCED_THREADING].v = KCONFIG_ABSENT;
	eval(&s, &tt, NULL, &l);
	ok(!find(&l, "kconfig-uclamp", NULL), "kconfig-uclamp: silent with UCLAMP_TASK=y");
	ok(!find(&l, "kconfig-cmdline", "nohz_full"), "kconfig-cmdline: silent with NO_HZ_FULL=y");
	ok(find(&l, "kconfig-cmdline", "threadirqs") != NULL,
	   "kconfig-cmdline: threadirqs with IRQ_FORCED_THREADING absent");

	/* workqueue cpumask and default_smp_affinity over isolated CPUs 4-7 */
	ok(!find(&l, "wq-unbound-isolated", NULL), "wq-unbound-isolated: silent without isolation");
	s.sys.have_isolated = true;
	cpulist_parse("4-7", &s.sys.isolated);
	s.sys.have_wq_cpumask = s.sys.have_irq_default = true;
	cpulist_parse("0-7", &s.sys.wq_cpumask);
	cpulist_parse("0-5", &s.sys.irq_default);
	eval(&s, &tt, NULL, &l);
	f = find(&l, "wq-unbound-isolated", "workqueue/cpumask");
	ok(f && f->sev == FINDING_WARN && has_fix(f, "workqueue/cpumask=0f"),
	   "wq-unbound-isolated: fix keeps the housekeeping CPUs (%s)", f ? f->fix[0] : "-");
	f = find(&l, "irq-default-isolated", NULL);
	ok(f && f->sev == FINDING_INFO && has_fix(f, "irq/default_smp_affinity=0f") &&
		   strstr(f->title, "4-5"),
	   "irq-default-isolated: the isolated CPUs of the mask, fix");
	cpulist_parse("0-3", &s.sys.wq_cpumask);
	cpulist_parse("1", &s.sys.irq_default);
	eval(&s, &tt, NULL, &l);
	ok(!find(&l, "wq-unbound-isolated", NULL) && !find(&l, "irq-default-isolated", NULL),
	   "masks on housekeeping CPUs: silent");
	cpulist_parse("0-7", &s.sys.isolated);
	cpulist_parse("0-7", &s.sys.wq_cpumask);
	eval(&s, &tt, NULL, &l);
	ok(!find(&l, "wq-unbound-isolated", NULL), "every CPU isolated: nowhere to move, silent");
	findings_free(&l);
	free(tt.t);
	snapshot_free(&s);
}

static void test_rules_table(void)
{
	ok(findings_rule_count() >= 10, "at least ten rules");
	for (size_t i = 0; i < findings_rule_count(); i++) {
		const struct finding_rule_info *r = findings_rule_at(i);

		ok(r && r->id && r->explain && r->what, "rule %zu described (%s)", i,
		   r ? r->id : "?");
	}
}

int main(void)
{
	test_degraded_rk3588();
	test_threads_rk3588();
	test_stm32();
	test_cooling_thp_probe();
	test_precise();
	test_kconfig_wq();
	test_preempt_sources();
	test_rules_table();
	return done_testing();
}
