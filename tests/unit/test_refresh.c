/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cheap refresh reads (topology, system, cpufreq, cpuidle, irqs) and
 * the fd cache under them: on every fixture a refresh after a full read
 * gives the same result (and JSON) as a full read; on a copied fixture a
 * changed counter, knob, governor, a CPU going offline and a file replaced
 * behind the cache are seen by the refresh; and the sampler's refresh
 * ticks report what full reads report; with a focus, the shown CPUs are
 * read at every tick and the others in turn, with honest rates. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json.h"
#include "core/str.h"
#include "model/snapshot.h"
#include "out/cpufreq_out.h"
#include "out/cpuidle_out.h"
#include "out/irqs_out.h"
#include "out/report.h"
#include "source/cpufreq.h"
#include "source/cpuidle.h"
#include "source/irqs.h"
#include "source/system.h"
#include "source/topology.h"
#include "sysfs/sysroot.h"
#include "tap.h"

#define CPU "sys/devices/system/cpu/"

static const char *const fixtures[] = {"rk3588", "intel",  "stm32mp157", "rpi4",
				       "broken", "am5729", "b4860"};

/* ---- JSON of one source ---------------------------------------------------- */

static char *idle_json(const struct cpuidle_info *c)
{
	struct sbuf b;
	struct jw w;

	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_cpuidle_json(&w, c);
	out_pmqos_json(&w, c);
	jw_obj_end(&w);
	return sbuf_steal(&b);
}

static char *freq_json(const struct cpufreq_info *f)
{
	struct sbuf b;
	struct jw w;

	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_cpufreq_json(&w, f, NULL);
	jw_obj_end(&w);
	return sbuf_steal(&b);
}

static char *irqs_json(const struct irq_table *t)
{
	struct sbuf b;
	struct jw w;

	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_irqs_json(&w, t);
	jw_obj_end(&w);
	return sbuf_steal(&b);
}

static char *report_of(const struct snapshot *s)
{
	struct report_opts o = {.root_path = "FIXTURE", .interval_ms = 500, .stable = true};
	struct sbuf b;

	sbuf_init(&b);
	report_json(&b, s, &o);
	return sbuf_steal(&b);
}

/* ok() on equal strings (freed); on a difference print where. */
static void same_text(char *got, char *want, const char *name, const char *what)
{
	bool eq = got && want && !strcmp(got, want);

	ok(eq, "%s: %s", name, what);
	if (!eq && got && want) {
		size_t i = 0;

		while (got[i] && got[i] == want[i])
			i++;
		fprintf(stderr, "# differs at %zu:\n#  got  %.120s\n#  want %.120s\n", i,
			got + (i > 40 ? i - 40 : 0), want + (i > 40 ? i - 40 : 0));
	}
	free(got);
	free(want);
}

static bool same_topology(const struct topology *a, const struct topology *b)
{
	return a->ncpus == b->ncpus && cpumask_equal(&a->possible, &b->possible) &&
	       cpumask_equal(&a->present, &b->present) && cpumask_equal(&a->online, &b->online) &&
	       !strcmp(a->cpu_model, b->cpu_model) && a->hybrid == b->hybrid &&
	       (a->ncpus == 0 || !memcmp(a->cpu, b->cpu, (size_t)a->ncpus * sizeof(*a->cpu)));
}

static bool same_system(const struct system_info *a, const struct system_info *b)
{
	struct system_info x = *a, y = *b;

	if (!((x.uptime_s != x.uptime_s && y.uptime_s != y.uptime_s) || x.uptime_s == y.uptime_s))
		return false;
	x.uptime_s = y.uptime_s = 0;
	return !memcmp(&x, &y, sizeof(x));
}

/* Full read, refresh from it, and a second full read: the refresh must
 * equal the second full read. */
static void check_root(const struct sysroot *r, const char *name)
{
	struct topology t1, t2, t3;
	struct system_info s1, s2, s3;
	struct cpufreq_info f1, f2, f3;
	struct cpuidle_info c1, c2, c3;
	struct irq_table i1, i2, i3;
	int e1, e2;

	e1 = topology_read(r, &t1);
	e2 = topology_refresh(r, &t1, &t2);
	topology_read(r, &t3);
	ok((e2) == (e1), "%s: topology refresh returns like the full read", name);
	ok(same_topology(&t2, &t3), "%s: topology refresh = full read", name);

	system_read(r, &s1);
	system_refresh(r, &s1, &s2);
	system_read(r, &s3);
	ok(same_system(&s2, &s3), "%s: system refresh = full read", name);

	cpufreq_read(r, &t1, &f1);
	e2 = cpufreq_refresh(r, &t2, &f1, &f2);
	cpufreq_read(r, &t3, &f3);
	ok((e2) == (0), "%s: cpufreq refresh", name);
	same_text(freq_json(&f2), freq_json(&f3), name, "cpufreq refresh JSON = full read JSON");
	ok(((int)f2.npolicies) == ((int)f3.npolicies), "%s: same policies", name);
	for (size_t i = 0; i < f2.npolicies && i < f3.npolicies; i++) {
		const struct cpufreq_policy *p = &f2.pol[i], *q = &f3.pol[i];

		ok(p->have_trans_table == q->have_trans_table && p->ntrans == q->ntrans &&
			   (!p->ntrans || !memcmp(p->trans, q->trans,
						  p->ntrans * p->ntrans * sizeof(*p->trans))) &&
			   p->boost_own == q->boost_own && p->tunables_global == q->tunables_global,
		   "%s: %s: trans_table and flags copied", name, p->name);
	}

	cpuidle_read(r, &t1, &c1);
	e2 = cpuidle_refresh(r, &t2, &c1, &c2);
	cpuidle_read(r, &t3, &c3);
	ok((e2) == (0), "%s: cpuidle refresh", name);
	same_text(idle_json(&c2), idle_json(&c3), name, "cpuidle refresh JSON = full read JSON");

	e1 = irqs_read(r, t1.ncpus, &i1);
	e2 = irqs_refresh(r, t2.ncpus, &i1, &i2);
	irqs_read(r, t3.ncpus, &i3);
	ok((e2) == (e1), "%s: irqs refresh returns like the full read", name);
	same_text(irqs_json(&i2), irqs_json(&i3), name, "irqs refresh JSON = full read JSON");

	irqs_free(&i1);
	irqs_free(&i2);
	irqs_free(&i3);
	cpuidle_free(&c1);
	cpuidle_free(&c2);
	cpuidle_free(&c3);
	cpufreq_free(&f1);
	cpufreq_free(&f2);
	cpufreq_free(&f3);
	topology_free(&t1);
	topology_free(&t2);
	topology_free(&t3);
}

static void test_fixtures(void)
{
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		struct sysroot r;

		if (access(fixture(fixtures[i]), F_OK) != 0 ||
		    sysroot_open(&r, fixture(fixtures[i])) != 0) {
			ok(0, "open fixture %s", fixtures[i]);
			continue;
		}
		check_root(&r, fixtures[i]);
		sysroot_close(&r);
	}
}

/* The sampler: a refresh tick reports what two full reads report. */
static void test_sampler(void)
{
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		struct sysroot r;
		struct sampler sm;
		struct snapshot a, b;

		if (sysroot_open(&r, fixture(fixtures[i])) != 0) {
			ok(0, "open fixture %s", fixtures[i]);
			continue;
		}
		sampler_init(&sm, &r, SNAP_ALL);
		sampler_tick(&sm);
		sampler_tick(&sm);
		snapshot_take(&r, SNAP_ALL, &a);
		snapshot_take(&r, SNAP_ALL, &b);
		/* Same interval as the sampler's, so that the rates match. */
		b.mono_ns = a.mono_ns + (sampler_cur(&sm)->mono_ns - sampler_prev(&sm)->mono_ns);
		snapshot_derive(&b, &a);
		same_text(report_of(sampler_cur(&sm)), report_of(&b), fixtures[i],
			  "sampler refresh tick reports like full reads");
		snapshot_free(&a);
		snapshot_free(&b);
		sampler_free(&sm);
		sysroot_close(&r);
	}
}

/* ---- a copied fixture that changes ---------------------------------------- */

static char root[600];

static void put(const char *rel, const char *text)
{
	char p[1200];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	if (!f) {
		ok(0, "write %s", p);
		return;
	}
	fputs(text, f);
	fclose(f);
}

/* Replace a file the way sed -i does: a new file renamed over it. */
static void replace(const char *rel, const char *text)
{
	char p[1200], tmp[1300];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	snprintf(tmp, sizeof(tmp), "%s.new", p);
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0 || rename(tmp, p) != 0)
		ok(0, "replace %s", p);
}

static int sh(const char *fmt, const char *arg)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), fmt, arg, arg);
	return system(cmd);
}

/* Copy the rk3588 fixture under the fresh directory tmpl (a mkdtemp
 * template), point root at it and open it; false (said) on failure. */
static bool open_copy(char *tmpl, struct sysroot *r)
{
	char cmd[1400];

	if (!mkdtemp(tmpl)) {
		ok(0, "mkdtemp");
		return false;
	}
	snprintf(root, sizeof(root), "%s/rk3588", tmpl);
	snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s'", fixture("rk3588"), root);
	if (system(cmd) != 0 || sysroot_open(r, root) != 0) {
		ok(0, "copy and open the rk3588 fixture");
		return false;
	}
	return true;
}

static void test_changes(void)
{
	char tmpl[] = "/tmp/tt-refresh.XXXXXX", cmd[1400];
	struct sysroot r;
	struct topology t0, t1, t2;
	struct cpufreq_info f0, f1, f2;
	struct cpuidle_info c0, c1, c2;
	struct irq_table i0, i1, i2;
	struct system_info s0, s1;
	const struct cpufreq_policy *p;
	const struct cpuidle_state *st;
	const struct irq_row *row;

	if (!mkdtemp(tmpl)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(root, sizeof(root), "%s/rk3588", tmpl);
	snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s'", fixture("rk3588"), root);
	if (system(cmd) != 0) {
		ok(0, "copy the rk3588 fixture");
		return;
	}
	ok(sysroot_open(&r, root) == 0, "open copied root");
	topology_read(&r, &t0);
	system_read(&r, &s0);
	cpufreq_read(&r, &t0, &f0);
	cpuidle_read(&r, &t0, &c0);
	irqs_read(&r, t0.ncpus, &i0);

	/* Counters, knobs and a governor switch. */
	put(CPU "cpu0/cpuidle/state1/usage", "123456789\n");
	replace(CPU "cpu0/cpuidle/state1/time", "987654321\n"); /* a new inode */
	put(CPU "cpu5/cpuidle/state1/disable", "1\n");
	put(CPU "cpu2/power/pm_qos_resume_latency_us", "100\n");
	put(CPU "cpufreq/policy0/scaling_governor", "performance\n");
	put(CPU "cpufreq/policy4/scaling_max_freq", "1800000\n");
	put(CPU "cpufreq/policy4/scaling_cur_freq", "1200000\n");
	put("sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	put("proc/uptime", "4242.42 1000.00\n");

	topology_refresh(&r, &t0, &t1);
	ok(same_topology(&t1, &t0), "topology unchanged without hotplug");
	system_refresh(&r, &s0, &s1);
	is_str(s1.thp, "always", "system refresh: THP mode seen");
	is_dbl(s1.uptime_s, 4242.42, 1e-9, "system refresh: uptime seen");
	is_str(s1.kernel, s0.kernel, "system refresh: kernel copied");

	cpuidle_refresh(&r, &t1, &c0, &c1);
	st = cpuidle_state_find(&c1, 0, "state1");
	ok(st && st->usage == 123456789, "cpuidle refresh: usage seen");
	ok(st && st->time_us == 987654321, "cpuidle refresh: replaced time file seen");
	st = cpuidle_state_find(&c1, 5, "state1");
	ok(st && st->disable == 1, "cpuidle refresh: state disabled seen");
	is_int((int)c1.cpu[2].resume_latency_us, 100, "cpuidle refresh: resume latency seen");
	cpuidle_read(&r, &t1, &c2);
	same_text(idle_json(&c1), idle_json(&c2), "rk3588 copy",
		  "cpuidle refresh after changes = full read");
	cpuidle_free(&c2);

	cpufreq_refresh(&r, &t1, &f0, &f1);
	p = cpufreq_policy_find(&f1, "policy0");
	ok(p && !strcmp(p->governor, "performance"), "cpufreq refresh: governor switch seen");
	ok(p && !p->tunables_gov[0] && !p->ntunables, "cpufreq refresh: interactive tunables gone");
	p = cpufreq_policy_find(&f1, "policy4");
	ok(p && p->max_khz == 1800000 && p->cur_khz == 1200000,
	   "cpufreq refresh: max and cur frequency seen");
	cpufreq_read(&r, &t1, &f2);
	same_text(freq_json(&f1), freq_json(&f2), "rk3588 copy",
		  "cpufreq refresh after changes = full read");
	cpufreq_free(&f2);

	/* Back to interactive: its tunables are read again. */
	put(CPU "cpufreq/policy0/scaling_governor", "interactive\n");
	cpufreq_refresh(&r, &t1, &f1, &f2);
	p = cpufreq_policy_find(&f2, "policy0");
	ok(p && !strcmp(p->tunables_gov, "interactive") && p->ntunables > 0,
	   "cpufreq refresh: tunables of the new governor read");
	cpufreq_free(&f2);

	/* An unchanged table; then a new IRQ and its affinity. */
	irqs_refresh(&r, t1.ncpus, &i0, &i1);
	same_text(irqs_json(&i1), irqs_json(&i0), "rk3588 copy",
		  "irqs refresh of an unchanged table");
	{
		char *text = NULL, p2[1200];
		size_t len = 0;
		FILE *f;

		snprintf(p2, sizeof(p2), "%s/proc/interrupts", root);
		f = fopen(p2, "r");
		if (f) {
			char line[8192];

			while (fgets(line, sizeof(line), f)) {
				text = realloc(text, len + strlen(line) + 1);
				memcpy(text + len, line, strlen(line) + 1);
				len += strlen(line);
			}
			fclose(f);
		}
		/* IRQ 999 on CPU0..7 with an affinity file. */
		snprintf(cmd, sizeof(cmd), "%s/proc/irq/999", root);
		sh("mkdir -p '%s' && echo 3 > '%s/smp_affinity_list'", cmd);
		if (text) {
			char *add = NULL;
			size_t n = len + 200;

			add = malloc(n);
			snprintf(add, n,
				 "%s 999:          1          2          3          4          5"
				 "          6          7          8     GICv3 999 Level     test\n",
				 text);
			put("proc/interrupts", add);
			free(add);
			free(text);
		}
	}
	irqs_refresh(&r, t1.ncpus, &i1, &i2);
	row = irqs_find(&i2, "999");
	ok(row && row->have_affinity && cpumask_test(&row->affinity, 3) &&
		   cpumask_count(&row->affinity) == 1,
	   "irqs refresh: a new IRQ's affinity is read");
	irqs_free(&i1);
	irqs_read(&r, t1.ncpus, &i1);
	same_text(irqs_json(&i2), irqs_json(&i1), "rk3588 copy",
		  "irqs refresh with a new IRQ = full read");
	irqs_free(&i2);

	/* CPU 3 goes offline. */
	put(CPU "online", "0-2,4-7\n");
	put(CPU "cpu3/online", "0\n");
	put(CPU "cpufreq/policy0/affected_cpus", "0 1 2\n");
	topology_refresh(&r, &t1, &t2);
	ok(t2.ncpus == 8 && !t2.cpu[3].online && t2.cpu[2].online,
	   "topology refresh: CPU 3 offline seen");
	cpuidle_free(&c1);
	cpuidle_refresh(&r, &t2, &c0, &c1);
	ok(!c1.cpu[3].online && c1.cpu[3].nstates == 0,
	   "cpuidle refresh: offline CPU has no states");
	cpuidle_read(&r, &t2, &c2);
	same_text(idle_json(&c1), idle_json(&c2), "rk3588 copy",
		  "cpuidle refresh with CPU 3 offline = full read");
	cpuidle_free(&c2);
	cpufreq_free(&f2);
	cpufreq_refresh(&r, &t2, &f1, &f2);
	p = cpufreq_policy_find(&f2, "policy0");
	ok(p && !cpumask_test(&p->affected, 3), "cpufreq refresh: affected CPUs re-read");
	cpufreq_free(&f1);
	cpufreq_read(&r, &t2, &f1);
	same_text(freq_json(&f2), freq_json(&f1), "rk3588 copy",
		  "cpufreq refresh with CPU 3 offline = full read");

	/* ... and back online: its states are listed again. */
	put(CPU "online", "0-7\n");
	put(CPU "cpu3/online", "1\n");
	topology_free(&t1);
	topology_refresh(&r, &t2, &t1);
	ok(t1.cpu[3].online, "topology refresh: CPU 3 online again");
	cpuidle_free(&c2);
	cpuidle_refresh(&r, &t1, &c1, &c2);
	ok(c2.cpu[3].online && c2.cpu[3].nstates == c0.cpu[3].nstates,
	   "cpuidle refresh: states of a CPU back online");

	/* A state directory replaced as a whole (driver re-registered). */
	snprintf(cmd, sizeof(cmd), "%s/" CPU "cpu1/cpuidle", root);
	sh("rm -rf '%s/state1' && mkdir '%s/state1'", cmd);
	put(CPU "cpu1/cpuidle/state1/name", "deep\n");
	put(CPU "cpu1/cpuidle/state1/usage", "7\n");
	put(CPU "cpu1/cpuidle/state1/time", "70\n");
	cpuidle_free(&c1);
	cpuidle_refresh(&r, &t1, &c2, &c1);
	st = cpuidle_state_find(&c1, 1, "state1");
	ok(st && !strcmp(st->name, "deep") && st->usage == 7,
	   "cpuidle refresh: a re-created state is read in full");
	cpuidle_free(&c2);
	cpuidle_read(&r, &t1, &c2);
	same_text(idle_json(&c1), idle_json(&c2), "rk3588 copy",
		  "cpuidle refresh after re-creation = full read");

	irqs_free(&i0);
	irqs_free(&i1);
	cpuidle_free(&c0);
	cpuidle_free(&c1);
	cpuidle_free(&c2);
	cpufreq_free(&f0);
	cpufreq_free(&f1);
	cpufreq_free(&f2);
	topology_free(&t0);
	topology_free(&t1);
	topology_free(&t2);
	sysroot_close(&r);
	sh("rm -rf '%s'", tmpl);
}

/* The sampler across a hotplug and a full read. */
static void test_sampler_changes(void)
{
	char tmpl[] = "/tmp/tt-refresh-s.XXXXXX", cmd[1400];
	struct sysroot r;
	struct sampler sm;
	const struct snapshot *s;
	const struct irq_row *row;

	if (!open_copy(tmpl, &r))
		return;
	sampler_init(&sm, &r, SNAP_ALL);
	sampler_tick(&sm);
	sampler_tick(&sm);
	put(CPU "online", "0-6\n");
	put(CPU "cpu7/online", "0\n");
	sampler_tick(&sm);
	s = sampler_cur(&sm);
	ok(!s->topo.cpu[7].online && !s->idle.cpu[7].online && !s->idle.cpu[7].nstates,
	   "sampler: CPU 7 offline on the next tick");
	put(CPU "online", "0-7\n");
	put(CPU "cpu7/online", "1\n");
	sampler_tick(&sm);
	s = sampler_cur(&sm);
	ok(s->topo.cpu[7].online && s->idle.cpu[7].nstates > 0, "sampler: CPU 7 back online");

	/* An IRQ moved (a knob): seen on the next tick. */
	row = irqs_find(&s->irqs, "84");
	ok(row && row->have_affinity && cpumask_count(&row->affinity) == 8, "IRQ 84 on CPUs 0-7");
	snprintf(cmd, sizeof(cmd), "%s/proc/irq/84", root);
	sh("echo 6 > '%s/smp_affinity_list' && echo 6 > '%s/effective_affinity_list'", cmd);
	sampler_tick(&sm);
	row = irqs_find(&sampler_cur(&sm)->irqs, "84");
	ok(row && cpumask_test(&row->affinity, 6) && cpumask_count(&row->affinity) == 1 &&
		   cpumask_test(&row->effective, 6) && cpumask_count(&row->effective) == 1,
	   "sampler: an IRQ moved is seen on the next tick");
	/* Moved where the effective affinity follows at the next interrupt. */
	sh("echo 5 > '%s/smp_affinity_list'", cmd);
	sampler_tick(&sm);
	row = irqs_find(&sampler_cur(&sm)->irqs, "84");
	ok(row && cpumask_test(&row->affinity, 5) && cpumask_test(&row->effective, 6),
	   "sampler: affinity 5, effective still 6");
	sh("echo 5 > '%s/effective_affinity_list'", cmd);
	sampler_tick(&sm);
	row = irqs_find(&sampler_cur(&sm)->irqs, "84");
	ok(row && cpumask_test(&row->effective, 5) && cpumask_count(&row->effective) == 1,
	   "sampler: the effective affinity catching up is seen");
	sampler_free(&sm);
	sysroot_close(&r);
	sh("rm -rf '%s'", tmpl);
}

/* ---- the sampler's focus: shown CPUs at every tick, the others in turn ------ */

static uint64_t usage_of(const struct snapshot *s, int cpu, const char *state)
{
	const struct cpuidle_state *st = cpuidle_state_find(&s->idle, cpu, state);

	return st ? st->usage : 0;
}

static void test_focus(void)
{
	char tmpl[] = "/tmp/tt-refresh-f.XXXXXX", cmd[1400], v[32];
	struct sysroot r;
	struct sampler sm;
	struct cpumask focus;
	const struct snapshot *s;
	const struct cpuidle_state *st;
	const struct irq_row *row;
	struct topology t;
	struct cpuidle_info a, b;
	uint64_t old_read_ns;
	double old_rate;
	int seen_at = -1, carried_ticks = 0;
	bool rates_kept = true;

	if (!open_copy(tmpl, &r))
		return;
	sampler_init(&sm, &r, SNAP_ALL & ~SNAP_IRQ_AFFINITY);
	cpumask_zero(&focus);
	cpumask_set(&focus, 0);
	sampler_focus(&sm, &focus);
	sampler_tick(&sm); /* 0: full, every CPU */
	sampler_tick(&sm); /* 1: CPU 0 and the slice of CPU 1 */
	s = sampler_cur(&sm);
	ok(!s->idle.cpu[0].carried && !s->idle.cpu[1].carried && s->idle.cpu[5].carried,
	   "focus: CPU 0 and this tick's slice (CPU 1) read, CPU 5 carried");
	st = cpuidle_state_find(&s->idle, 5, "state1");
	ok(st && st->usage == 2940655 && s->idle.cpu[5].nstates == 2,
	   "focus: a carried CPU keeps its states and values");

	/* A counter moves on a shown CPU and on one off screen. */
	old_read_ns = s->idle.cpu[5].read_ns;
	st = cpuidle_state_find(&s->idle, 5, "state1");
	old_rate = st ? st->entries_per_s : NAN;
	put(CPU "cpu0/cpuidle/state1/usage", "5000000\n");
	put(CPU "cpu5/cpuidle/state1/usage", "3940655\n");
	usleep(20000);
	sampler_tick(&sm); /* 2 */
	s = sampler_cur(&sm);
	is_int((long long)usage_of(s, 0, "state1"), 5000000,
	       "focus: the shown CPU is read at once");
	is_int((long long)usage_of(s, 5, "state1"), 2940655,
	       "focus: the CPU off screen is not read on this tick");
	for (int k = 3; k <= 18 && seen_at < 0; k++) {
		sampler_tick(&sm);
		s = sampler_cur(&sm);
		st = cpuidle_state_find(&s->idle, 5, "state1");
		if (s->idle.cpu[5].carried) {
			carried_ticks++;
			/* the rate it had (NAN on both sides counts as kept) */
			if (st && !(st->entries_per_s == old_rate ||
				    (isnan(st->entries_per_s) && isnan(old_rate))))
				rates_kept = false;
		}
		if (st && st->usage == 3940655)
			seen_at = k;
	}
	ok(seen_at == 5, "focus: CPU 5 read on its slice's tick (5), got %d", seen_at);
	ok(carried_ticks == 2 && rates_kept, "focus: carried ticks keep the rates they had");
	/* Its rate is over its own interval, since it was last read. */
	st = cpuidle_state_find(&s->idle, 5, "state1");
	if (st && s->idle.cpu[5].read_ns > old_read_ns) {
		double want = 1e6 / ((double)(s->idle.cpu[5].read_ns - old_read_ns) / 1e9);

		ok(fabs(st->entries_per_s - want) < want * 0.05,
		   "focus: 1e6 entries over the CPU's own interval: %.0f/s, want %.0f/s",
		   st->entries_per_s, want);
	} else {
		ok(0, "focus: CPU 5 has a rate");
	}
	/* Each CPU is read at least every 16 ticks. */
	{
		int last[8] = {0}, worst = 0;

		for (int k = 6; k < 6 + 48; k++) {
			sampler_tick(&sm);
			s = sampler_cur(&sm);
			for (int c = 0; c < 8; c++) {
				if (!s->idle.cpu[c].carried) {
					if (k - last[c] > worst && last[c])
						worst = k - last[c];
					last[c] = k;
				}
			}
		}
		ok(worst > 1 && worst <= 16, "focus: every CPU read at least every 16 ticks (%d)",
		   worst);
	}

	/* IRQ affinities: without SNAP_IRQ_AFFINITY only on full ticks. */
	while (sm.count % 16 != 1)
		sampler_tick(&sm);
	snprintf(cmd, sizeof(cmd), "%s/proc/irq/84", root);
	sh("echo 6 > '%s/smp_affinity_list' && echo 6 > '%s/effective_affinity_list'", cmd);
	sampler_tick(&sm);
	row = irqs_find(&sampler_cur(&sm)->irqs, "84");
	ok(row && cpumask_count(&row->affinity) == 8,
	   "IRQ affinity not re-read between full ticks when not asked for");
	while (sm.count % 16 != 0)
		sampler_tick(&sm);
	sampler_tick(&sm);
	row = irqs_find(&sampler_cur(&sm)->irqs, "84");
	ok(row && cpumask_count(&row->affinity) == 1 && cpumask_test(&row->affinity, 6),
	   "IRQ affinity re-read on the full tick");
	sm.what |= SNAP_IRQ_AFFINITY;
	sh("echo 5 > '%s/smp_affinity_list' && echo 5 > '%s/effective_affinity_list'", cmd);
	sampler_tick(&sm);
	row = irqs_find(&sampler_cur(&sm)->irqs, "84");
	ok(row && cpumask_test(&row->affinity, 5) && cpumask_test(&row->effective, 5),
	   "SNAP_IRQ_AFFINITY: an IRQ moved is seen on the next tick");

	/* No focus: every CPU at every tick again. */
	sampler_focus(&sm, NULL);
	put(CPU "cpu6/cpuidle/state0/usage", "77\n");
	sampler_tick(&sm);
	s = sampler_cur(&sm);
	ok(usage_of(s, 6, "state0") == 77 && !s->idle.cpu[6].carried,
	   "focus NULL: every CPU read at every tick");
	sampler_free(&sm);

	/* cpuidle_update on a full tick: the fresh CPUs in full, a driver
	 * change makes it a full read of every CPU. */
	topology_read(&r, &t);
	cpuidle_read(&r, &t, &a);
	put(CPU "cpu0/cpuidle/state0/name", "RENAMED\n");
	put(CPU "cpu3/cpuidle/state0/name", "RENAMED\n");
	cpuidle_update(&r, &t, &a, &focus, true, &b);
	ok(!strcmp(b.cpu[0].st[0].name, "RENAMED") && b.cpu[3].carried &&
		   strcmp(b.cpu[3].st[0].name, "RENAMED"),
	   "update full: the fresh CPU re-listed, the other carried");
	cpuidle_free(&b);
	cpuidle_update(&r, &t, &a, &focus, false, &b);
	ok(strcmp(b.cpu[0].st[0].name, "RENAMED") != 0,
	   "update partial: names are not re-read (fixed while the driver stays)");
	cpuidle_free(&b);
	str_copy(v, sizeof(v), "haltpoll\n");
	put(CPU "cpuidle/current_driver", v);
	cpuidle_update(&r, &t, &a, &focus, true, &b);
	ok(!strcmp(b.driver, "haltpoll") && !b.cpu[3].carried &&
		   !strcmp(b.cpu[3].st[0].name, "RENAMED"),
	   "update full: a new cpuidle driver re-reads every CPU");
	cpuidle_free(&b);
	cpuidle_free(&a);
	topology_free(&t);
	sysroot_close(&r);
	sh("rm -rf '%s'", tmpl);
}

/* ---- the fd cache ------------------------------------------------------------ */

static int read_num(const struct sysroot *r, const char *path, uint64_t *v)
{
	return sysfs_read_u64(r, path, v);
}

static void test_cache(void)
{
	char tmpl[] = "/tmp/tt-refresh-c.XXXXXX", cmd[1400];
	struct sysroot r;
	uint64_t a = 0, b = 0;
	char *big = NULL, *text = NULL;
	size_t len = 0;

	if (!mkdtemp(tmpl)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(root, sizeof(root), "%s", tmpl);
	snprintf(cmd, sizeof(cmd), "%s/sys/x/y", root);
	sh("mkdir -p '%s' && echo 1 > '%s/a'", cmd);
	put("sys/x/y/b", "2\n");
	ok(sysroot_open(&r, root) == 0, "open a small root");
	read_num(&r, "sys/x/y/a", &a);
	read_num(&r, "sys/x/y/b", &b);
	ok(a == 1 && b == 2, "first round");
	put("sys/x/y/a", "11\n"); /* in place */
	replace("sys/x/y/b", "12\n");
	read_num(&r, "sys/x/y/a", &a);
	read_num(&r, "sys/x/y/b", &b);
	ok(a == 11 && b == 12, "second round: written and replaced files seen");
	is_int((int)sysroot_cached(&r), 2, "two files cached");

	/* The directory moved away and made again. */
	snprintf(cmd, sizeof(cmd), "%s/sys/x", root);
	sh("mv '%s/y' '%s/y.old'", cmd);
	snprintf(cmd, sizeof(cmd), "%s/sys/x/y", root);
	sh("mkdir '%s' && echo 21 > '%s/a'", cmd);
	put("sys/x/y/b", "22\n");
	read_num(&r, "sys/x/y/a", &a);
	read_num(&r, "sys/x/y/b", &b);
	ok(a == 21 && b == 22, "third round: a re-created directory seen");
	put("sys/x/y/b", "32\n");
	replace("sys/x/y/a", "31\n");
	read_num(&r, "sys/x/y/a", &a);
	read_num(&r, "sys/x/y/b", &b);
	ok(a == 31 && b == 32, "fourth round: the new directory is watched");

	/* Deleted: an error, not the old value. */
	snprintf(cmd, sizeof(cmd), "%s/sys/x/y/a", root);
	sh("rm -f '%s'", cmd);
	is_int(read_num(&r, "sys/x/y/a", &a), -ENOENT, "a deleted file is gone");
	put("sys/x/y/a", "41\n");
	read_num(&r, "sys/x/y/a", &a);
	ok(a == 41, "and back");

	/* Through a symlinked directory (sys/class/... -> ../../devices/...):
	 * the real file replaced, then the real directory. */
	snprintf(cmd, sizeof(cmd), "%s/sys", root);
	sh("mkdir -p '%s/devices/d0' '%s/class/k'", cmd);
	put("sys/devices/d0/v", "1\n");
	snprintf(cmd, sizeof(cmd), "%s/sys/class/k", root);
	sh("ln -s ../../devices/d0 '%s/d0'", cmd);
	put("sys/devices/d0/link-target", "5\n");
	snprintf(cmd, sizeof(cmd), "%s/sys/devices/d0", root);
	sh("ln -s link-target '%s/lnk'", cmd);
	read_num(&r, "sys/class/k/d0/v", &a);
	read_num(&r, "sys/class/k/d0/lnk", &b);
	ok(a == 1 && b == 5, "through a symlinked directory; a symlinked file");
	replace("sys/devices/d0/v", "2\n");
	replace("sys/devices/d0/link-target", "6\n");
	read_num(&r, "sys/class/k/d0/v", &a);
	read_num(&r, "sys/class/k/d0/lnk", &b);
	ok(a == 2 && b == 6, "replaced behind the symlinks: seen");
	/* The real tree above the target moved away and made again. */
	snprintf(cmd, sizeof(cmd), "%s/sys", root);
	sh("mv '%s/devices' '%s/devices.old'", cmd);
	snprintf(cmd, sizeof(cmd), "%s/sys/devices/d0", root);
	sh("mkdir -p '%s' && echo 3 > '%s/v'", cmd);
	read_num(&r, "sys/class/k/d0/v", &a);
	ok(a == 3, "the tree above the symlink's target re-created: seen");

	/* A whole-file read as big as last time, in one piece. */
	big = malloc(100001);
	memset(big, 'x', 100000);
	big[100000] = '\0';
	put("sys/x/big", big);
	ok(sysfs_read_alloc(&r, "sys/x/big", &text, &len) == 0 && len == 100000 &&
		   !memcmp(text, big, len),
	   "big file read whole");
	free(text);
	big[5] = 'y';
	big[50000] = '\0';
	replace("sys/x/big", big);
	read_num(&r, "sys/x/y/a", &a); /* next round */
	ok(sysfs_read_alloc(&r, "sys/x/big", &text, &len) == 0 && len == 50000 && text[5] == 'y',
	   "big file replaced by a smaller one");
	free(text);
	free(big);
	sysroot_close(&r);
	sh("rm -rf '%s'", tmpl);
}

int main(void)
{
	test_fixtures();
	test_sampler();
	test_changes();
	test_sampler_changes();
	test_focus();
	test_cache();
	return done_testing();
}
