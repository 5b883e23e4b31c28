/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The findings rules. Each rule is a function over the inputs that appends
 * findings; the table at the bottom lists them in evaluation order. Every
 * number quoted in a finding comes from the inputs (this sample) or from the
 * rule's own threshold, which the evidence names; reference cases from the
 * field notes belong in the explain entries, labelled as background. Where
 * a rule's fix is already in place and the finding persists, the rule says
 * what still holds the value (finding.held). */
#include "model/findings.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"
#include "probe/histogram.h"

struct ctx {
	const struct findings_input *in;
	const struct findings_opts *o;
	struct finding_list *out;
	const struct snapshot *s;
};

void findings_opts_default(struct findings_opts *o)
{
	o->latency_budget_us = 100;
	o->rt_near_pct = 90;
	o->migrations_per_s = 10;
	o->busy_pct = 20;
	o->low_util_pct = 30;
}

const char *finding_sev_name(enum finding_sev s)
{
	switch (s) {
	case FINDING_CRIT: return "crit";
	case FINDING_WARN: return "warn";
	default: return "info";
	}
}

static struct finding *add(struct ctx *c, const char *id, const char *subject, enum finding_sev sev,
			   const char *explain, bool degraded, const char *title)
{
	struct finding_list *l = c->out;
	struct finding *f;

	l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
	f = &l->v[l->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->id, sizeof(f->id), "%s", id);
	snprintf(f->subject, sizeof(f->subject), "%s", subject);
	snprintf(f->title, sizeof(f->title), "%s", title);
	f->sev = sev;
	f->explain = explain;
	f->degraded = degraded;
	return f;
}

/* fmt appended to the string in buf (cap bytes in all), cut to fit. */
static void vcatf(char *buf, size_t cap, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static void vcatf(char *buf, size_t cap, const char *fmt, va_list ap)
{
	size_t len = strlen(buf);

	if (len + 1 < cap)
		vsnprintf(buf + len, cap - len, fmt, ap);
}

static void catf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void catf(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcatf(buf, cap, fmt, ap);
	va_end(ap);
}

/* Item *n of a list that shows its first max items ("a, b, c"): appended to
 * list while *n < max; *n counts every item. */
static void list_item(char *list, size_t cap, size_t *n, size_t max, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void list_item(char *list, size_t cap, size_t *n, size_t max, const char *fmt, ...)
{
	va_list ap;

	if (*n < max) {
		catf(list, cap, "%s", *n ? ", " : "");
		va_start(ap, fmt);
		vcatf(list, cap, fmt, ap);
		va_end(ap);
	}
	(*n)++;
}

static void evidence(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void evidence(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcatf(f->evidence, sizeof(f->evidence), fmt, ap);
	va_end(ap);
}

static void fix(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fix(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	if (f->nfix >= FINDING_MAX_FIX)
		return;
	va_start(ap, fmt);
	vsnprintf(f->fix[f->nfix], sizeof(f->fix[0]), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < f->nfix; i++)
		if (!strcmp(f->fix[i], f->fix[f->nfix]))
			return; /* no duplicates */
	f->nfix++;
}

static const char *mhz(char *buf, size_t cap, double hz_or_khz, double div)
{
	double v = hz_or_khz / div;

	if (hz_or_khz < 0 || isnan(hz_or_khz))
		snprintf(buf, cap, "n/a");
	else if (fabs(v - round(v)) < 0.05)
		snprintf(buf, cap, "%.0f MHz", v);
	else
		snprintf(buf, cap, "%.1f MHz", v);
	return buf;
}

static void cpus_text(const struct cpumask *m, char *buf, size_t cap)
{
	cpulist_format(m, buf, cap);
	if (!buf[0])
		snprintf(buf, cap, "none");
}

static bool has_gov(char (*avail)[CPUFREQ_NAME_LEN], size_t n, const char *g)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(avail[i], g))
			return true;
	return false;
}

static bool thread_state_live(char st)
{
	return st == 'R' || st == 'S' || st == 'D';
}

/* User-space threads only: kernel threads are per-CPU by design. */
static bool user_thread(const struct thread_info *t)
{
	return !t->kernel;
}

/* The CPUs a thread can run on, or its last CPU when the mask is unknown. */
static void thread_cpus(const struct thread_info *t, struct cpumask *m)
{
	cpumask_zero(m);
	if (t->have_affinity)
		*m = t->affinity;
	else if (t->last_cpu >= 0)
		cpumask_set(m, t->last_cpu);
}

/* ---- governor collapse -------------------------------------------------------- */

static int64_t lowest_opp(const struct cpufreq_policy *p)
{
	int64_t lo = -1;

	for (size_t i = 0; i < p->navail; i++)
		if (lo < 0 || (int64_t)p->avail_khz[i] < lo)
			lo = (int64_t)p->avail_khz[i];
	if (lo < 0)
		lo = p->hw_min_khz;
	return lo;
}

/* Share of time at the lowest OPP: over the interval when derived, else
 * since boot from time_in_state. NAN when unknown. */
static double time_at_pct(const struct cpufreq_policy *p, int64_t khz, bool *since_boot)
{
	uint64_t total = 0, at = 0;

	*since_boot = false;
	if (!p->have_stats || !p->nstates)
		return NAN;
	if (p->tis_pct) {
		for (size_t i = 0; i < p->nstates; i++)
			if ((int64_t)p->tis_khz[i] == khz && !isnan(p->tis_pct[i]))
				return p->tis_pct[i];
	}
	for (size_t i = 0; i < p->nstates; i++) {
		total += p->tis_time_10ms[i];
		if ((int64_t)p->tis_khz[i] == khz)
			at += p->tis_time_10ms[i];
	}
	if (!total)
		return NAN;
	*since_boot = true;
	return 100.0 * (double)at / (double)total;
}

static double devfreq_load_pct(const struct devfreq_dev *d)
{
	char *end;
	double v;

	if (!d->load[0])
		return NAN;
	v = strtod(d->load, &end);
	if (end == d->load || *end != '@' || v < 0 || v > 100)
		return NAN;
	return v;
}

/* Is an accelerator (NPU) working? From its load file; without one, from a
 * clock above its minimum under a dynamic governor (a guess, said so). */
struct busy_dev {
	const struct devfreq_dev *d;
	double load;   /* NAN when there is no load file */
	bool inferred; /* no load file: busy guessed from the clock */
};

static bool npu_busy(const struct ctx *c, struct busy_dev *out)
{
	const struct devfreq_info *df = &c->s->devf;

	if (!(c->s->what & SNAP_DEVFREQ))
		return false;
	for (size_t i = 0; i < df->ndev; i++) {
		const struct devfreq_dev *d = &df->dev[i];
		double load = devfreq_load_pct(d);

		if (d->kind != DEVFREQ_NPU)
			continue;
		if (!isnan(load)) {
			if (load >= c->o->busy_pct) {
				*out = (struct busy_dev){d, load, false};
				return true;
			}
			continue;
		}
		if (d->cur_hz > 0 && d->min_hz > 0 && d->cur_hz > d->min_hz &&
		    strcmp(d->governor, "performance") && strcmp(d->governor, "userspace")) {
			*out = (struct busy_dev){d, NAN, true};
			return true;
		}
	}
	return false;
}

struct collapse {
	const struct cpufreq_policy *p;
	int64_t lo;	 /* lowest OPP, kHz */
	double at;	 /* % of time there, NAN unknown */
	bool since_boot; /* at is since boot, not over the interval */
	double min_util; /* lowest utilisation of its CPUs, NAN unknown */
	char held[256];	 /* the fix is in place: what holds the clock ("" = not in place) */
};

/* intel_pstate / amd-pstate in active mode: "powersave" and "performance"
 * are the driver's own policies, not cpufreq governors; with HWP the
 * hardware picks the frequency (the EPP hint biases it), so a low clock on
 * an idle CPU is not a governor that collapsed. */
static bool hw_pstate(const struct cpufreq_policy *p)
{
	return !strcmp(p->driver, "intel_pstate") || !strcmp(p->driver, "amd-pstate-epp");
}

/* The top of a frequency domain (a cpufreq policy, a devfreq device): the
 * highest of its listed OPPs and max (-1 unknown), in their unit. */
static int64_t domain_top(int64_t max, const uint64_t *opps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((int64_t)opps[i] > max)
			max = (int64_t)opps[i];
	return max;
}

/* The highest frequency the policy can reach, kHz (-1 unknown). */
static int64_t top_opp(const struct cpufreq_policy *p)
{
	return domain_top(p->hw_max_khz, p->avail_khz, p->navail);
}

/* What holds a frequency domain's clock below its top: "a thermal cap:
 * cooling_device2 (devfreq-dmc) at state 1 of 3 limits dmc". */
static void thermal_cap(char *buf, size_t cap, const struct thermal_cooling *cd, const char *name)
{
	snprintf(buf, cap,
		 "a thermal cap: cooling_device%d (%s) at state %" PRId64 " of %" PRId64
		 " limits %s",
		 cd->id, cd->type, cd->cur_state, cd->max_state, name);
}

/* The policy's fix (performance, or min = max) is in force but its clock
 * stays low: what holds it, from this sample; false when nothing visible
 * does (a static sample, a clock read before it moved: no claim). */
static bool cpufreq_held(const struct ctx *c, const struct cpufreq_policy *p, char *buf, size_t cap)
{
	const struct thermal_info *th = &c->s->therm;
	char a[32], b[32];

	buf[0] = '\0';
	if (p->max_khz > 0 && p->max_khz < top_opp(p)) {
		snprintf(buf, cap, "scaling_max_freq clamps %s at %s (its top OPP is %s)", p->name,
			 mhz(a, sizeof(a), (double)p->max_khz, 1000),
			 mhz(b, sizeof(b), (double)top_opp(p), 1000));
		return true;
	}
	for (size_t i = 0; (c->s->what & SNAP_THERMAL) && i < th->ncooling; i++) {
		const struct thermal_cooling *cd = &th->cooling[i];
		struct cpumask x = cd->cpus;

		cpumask_and(&x, &p->cpus);
		if (!cd->active || cpumask_empty(&x))
			continue;
		thermal_cap(buf, cap, cd, p->name);
		return true;
	}
	return false;
}

/* A policy at its lowest OPP under a governor other than performance; or
 * under performance (or with min = its top OPP) when something holds it
 * there (k->held says what). */
static bool collapsed(const struct ctx *c, const struct cpufreq_policy *p, struct collapse *out)
{
	int64_t lo = lowest_opp(p);
	bool fixed;

	if (p->cur_khz < 0 || lo <= 0 || p->cur_khz > lo || !p->governor[0] || hw_pstate(p) ||
	    cpumask_empty(&p->cpus))
		return false;
	fixed = !strcmp(p->governor, "performance") ||
		(p->hw_max_khz > 0 && p->min_khz >= p->hw_max_khz);
	if (fixed && !(top_opp(p) > lo))
		return false; /* a single OPP: nothing to gain */
	out->held[0] = '\0';
	if (fixed && !cpufreq_held(c, p, out->held, sizeof(out->held)))
		return false; /* nothing visible holds it: no claim */
	out->p = p;
	out->lo = lo;
	out->at = time_at_pct(p, lo, &out->since_boot);
	out->min_util = NAN;
	for (int cpu = cpumask_next(&p->cpus, 0); cpu >= 0; cpu = cpumask_next(&p->cpus, cpu + 1)) {
		double u = cpu < c->s->stat.ncpus && c->s->stat.util ? c->s->stat.util[cpu].busy_pct
								     : NAN;

		if (!isnan(u) && (isnan(out->min_util) || u < out->min_util))
			out->min_util = u;
	}
	return true;
}

static void collapse_numbers(struct finding *fd, const struct collapse *k)
{
	char cpus[128], a[32];

	cpus_text(&k->p->cpus, cpus, sizeof(cpus));
	evidence(fd, "%s (CPUs %s) at %s = its lowest OPP under '%s'", k->p->name, cpus,
		 mhz(a, sizeof(a), (double)k->p->cur_khz, 1000), k->p->governor);
	if (!isnan(k->at))
		evidence(fd, ", %.1f%% of the time there %s", k->at,
			 k->since_boot ? "since boot" : "over the last interval");
	if (!isnan(k->min_util))
		evidence(fd, ", lowest CPU utilisation %.1f%%", k->min_util);
	if (k->held[0])
		evidence(fd, " (its fix is in place, yet it stays there: %s)", k->held);
}

/* The first held reason of the policies a finding covers. */
static void collapse_held(struct finding *fd, const struct collapse *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (k[i].held[0]) {
			snprintf(fd->held, sizeof(fd->held), "%s", k[i].held);
			return;
		}
}

static void collapse_fix(struct finding *fd, const struct cpufreq_policy *p)
{
	if (has_gov(p->avail_gov, p->ngov, "performance"))
		fix(fd, "%s=performance", knob_addr_cpufreq_governor(p->name).s);
	else if (p->hw_max_khz > 0)
		fix(fd, "%s=%" PRId64, knob_addr_cpufreq_min_khz(p->name).s, p->hw_max_khz);
}

/* With thread data: one finding per policy that hosts an RT or pinned
 * thread that is runnable or blocked. */
static void collapse_with_threads(struct ctx *c, const struct collapse *k)
{
	const struct thread_table *tt = c->in->threads;
	const struct cpufreq_policy *p = k->p;
	char hits[320] = "", title[128], cpus[128], a[32];
	size_t nhits = 0;
	bool any_rt = false;
	struct finding *fd;

	for (size_t i = 0; i < tt->n; i++) {
		const struct thread_info *t = &tt->t[i];
		struct cpumask m;
		bool rt = threads_is_rt(t), pinned = threads_is_pinned(tt, t), on;

		if (!user_thread(t) || !thread_state_live(t->state) || (!rt && !pinned))
			continue;
		thread_cpus(t, &m);
		if (pinned) {
			struct cpumask out = m;

			cpumask_andnot(&out, &p->cpus);
			on = cpumask_empty(&out) && !cpumask_empty(&m);
		} else {
			on = t->last_cpu >= 0 && cpumask_test(&p->cpus, t->last_cpu);
		}
		if (!on)
			continue;
		any_rt |= rt;
		if (nhits < 3) {
			size_t len = strlen(hits);

			if (rt)
				snprintf(hits + len, sizeof(hits) - len,
					 "%s%s (tid %d, %s %d, state %c)", nhits ? ", " : "",
					 t->comm, (int)t->tid, threads_policy_label(t->policy),
					 t->rt_prio, t->state);
			else
				snprintf(hits + len, sizeof(hits) - len,
					 "%s%s (tid %d, pinned, state %c)", nhits ? ", " : "",
					 t->comm, (int)t->tid, t->state);
		}
		nhits++;
	}
	if (!nhits)
		return;
	cpus_text(&p->cpus, cpus, sizeof(cpus));
	snprintf(title, sizeof(title), "%s (CPUs %s) sits at its lowest OPP, %s, under '%s'",
		 p->name, cpus, mhz(a, sizeof(a), (double)k->lo, 1000), p->governor);
	fd = add(c, "governor-collapse", p->name, any_rt ? FINDING_CRIT : FINDING_WARN,
		 "cpufreq/*/governor", false, title);
	collapse_numbers(fd, k);
	evidence(fd,
		 ". %s there: %s%s. A thread blocked in a device ioctl makes the CPU look idle, "
		 "so the governor keeps the clock at the bottom while interrupt handling and DMA "
		 "set-up on the latency path crawl",
		 any_rt ? "Real-time threads" : "Pinned threads", hits,
		 nhits > 3 ? " and more" : "");
	collapse_held(fd, k, 1);
	collapse_fix(fd, p);
}

static void rule_governor_collapse(struct ctx *c)
{
	const struct cpufreq_info *f = &c->s->freq;
	struct collapse *k = xcalloc(f->npolicies ? f->npolicies : 1, sizeof(*k));
	size_t n = 0;
	struct busy_dev npu;
	bool busy, low_util = false;
	struct finding *fd;
	char title[128], names[96] = "", a[32];

	for (size_t i = 0; i < f->npolicies; i++)
		if (collapsed(c, &f->pol[i], &k[n]))
			n++;
	if (!n)
		goto out;
	if (c->in->threads) {
		for (size_t i = 0; i < n; i++)
			collapse_with_threads(c, &k[i]);
		goto out;
	}
	/* Degraded (no thread data): one finding for all parked policies. A
	 * device working while clusters sit at the bottom is the collapse
	 * signature (warn); otherwise they are merely parked (info). */
	busy = npu_busy(c, &npu);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(names);

		if (i < 4)
			snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
				 k[i].p->name);
		else if (i == 4)
			snprintf(names + len, sizeof(names) - len, " and %zu more", n - 4);
		if (!isnan(k[i].min_util) && k[i].min_util < c->o->low_util_pct)
			low_util = true;
	}
	if (n == 1)
		snprintf(title, sizeof(title), "%s sits at its lowest OPP, %s, under '%s'", names,
			 mhz(a, sizeof(a), (double)k[0].lo, 1000), k[0].p->governor);
	else
		snprintf(title, sizeof(title), "%s sit at their lowest OPP", names);
	fd = add(c, "governor-collapse", n == 1 ? k[0].p->name : "cpufreq",
		 busy ? FINDING_WARN : FINDING_INFO, "cpufreq/*/governor", true, title);
	for (size_t i = 0; i < n && i < 6; i++) {
		if (i)
			evidence(fd, "; ");
		collapse_numbers(fd, &k[i]);
	}
	if (n > 6)
		evidence(fd, "; and %zu more policies", n - 6);
	evidence(fd, ". No thread data (degraded rule): ");
	if (busy && !npu.inferred)
		evidence(fd,
			 "the NPU %s is %.0f%% busy (load file, threshold %.0f%%) while the CPUs "
			 "that "
			 "drive it idle at the bottom",
			 npu.d->name, npu.load, c->o->busy_pct);
	else if (busy)
		evidence(fd,
			 "the NPU %s runs at %s (no load file: taken as busy) while the CPUs that "
			 "drive it idle at the bottom",
			 npu.d->name, mhz(a, sizeof(a), (double)npu.d->cur_hz, 1e6));
	else if (low_util)
		evidence(fd,
			 "a CPU there is under %.0f%% busy; a latency thread blocked in a device "
			 "ioctl looks exactly like this",
			 c->o->low_util_pct);
	else
		evidence(fd, "any latency thread woken there starts at the slowest clock");
	collapse_held(fd, k, n);
	if (n > FINDING_MAX_FIX && n == f->npolicies)
		fix(fd, "%s=performance", knob_addr_cpufreq_governor("*").s);
	else
		for (size_t i = 0; i < n; i++)
			collapse_fix(fd, k[i].p);
out:
	free(k);
}

/* ---- hardware P-states (HWP) ------------------------------------------------------ */

/* intel_pstate / amd-pstate active: 'powersave' is the driver's policy and
 * the hardware picks the clock; a low clock on an idle CPU is expected. An
 * informational note with the EPP hint, which is what biases the choice. */
static void rule_hwp(struct ctx *c)
{
	const struct cpufreq_info *f = &c->s->freq;
	char names[96] = "", epp[48] = "", a[32], b[32];
	size_t n = 0, nlow = 0;
	const struct cpufreq_policy *first = NULL;
	bool all_perf_avail = true;
	struct finding *fd;
	char title[128];

	for (size_t i = 0; i < f->npolicies; i++) {
		const struct cpufreq_policy *p = &f->pol[i];

		if (!hw_pstate(p) || strcmp(p->governor, "powersave") || !p->epp[0] ||
		    !strcmp(p->epp, "performance"))
			continue;
		if (!first) {
			first = p;
			snprintf(epp, sizeof(epp), "%s", p->epp);
		} else if (strcmp(epp, p->epp)) {
			snprintf(epp, sizeof(epp), "mixed");
		}
		if (p->cur_khz >= 0 && p->cur_khz <= lowest_opp(p))
			nlow++;
		all_perf_avail &= has_gov(p->epp_avail, p->nepp, "performance");
		if (n < 4) {
			size_t len = strlen(names);

			snprintf(names + len, sizeof(names) - len, "%s%s", n ? ", " : "", p->name);
		} else if (n == 4) {
			size_t len = strlen(names);

			snprintf(names + len, sizeof(names) - len, " and more");
		}
		n++;
	}
	if (!n)
		return;
	snprintf(title, sizeof(title), "%s: hardware P-states (%s) under 'powersave', EPP '%s'",
		 names, first->driver, epp);
	fd = add(c, "hwp-epp", n == 1 ? first->name : "cpufreq", FINDING_INFO,
		 "cpufreq/*/energy_performance_preference", false, title);
	evidence(fd,
		 "%zu %s driven by %s in active mode: 'powersave' is the driver's policy, not a "
		 "cpufreq governor, and the hardware picks the frequency between %s and %s from "
		 "load, biased by energy_performance_preference '%s'. %zu of them read their "
		 "lowest frequency in this sample, which an idle CPU is expected to; this is not a "
		 "governor collapse. For latency, the EPP hint 'performance' makes the hardware "
		 "ramp faster",
		 n, n == 1 ? "policy" : "policies", first->driver,
		 mhz(a, sizeof(a), (double)lowest_opp(first), 1000),
		 mhz(b, sizeof(b), (double)top_opp(first), 1000), epp, nlow);
	if (!all_perf_avail)
		return;
	if (n > FINDING_MAX_FIX || n == f->npolicies) {
		fix(fd, "%s=performance", knob_addr_cpufreq_epp("*").s);
		return;
	}
	for (size_t i = 0; i < f->npolicies; i++) {
		const struct cpufreq_policy *p = &f->pol[i];

		if (hw_pstate(p) && !strcmp(p->governor, "powersave") && p->epp[0] &&
		    strcmp(p->epp, "performance"))
			fix(fd, "%s=performance", knob_addr_cpufreq_epp(p->name).s);
	}
}

/* ---- deep idle states ------------------------------------------------------------ */

static int64_t qos_limit_us(const struct cpuidle_info *ci, int cpu)
{
	int64_t lim = -1;

	if (ci->dma_latency_us >= 0 && ci->dma_latency_us < CPUIDLE_DMA_NO_CONSTRAINT)
		lim = ci->dma_latency_us;
	if (cpu < ci->ncpus && ci->cpu[cpu].resume_latency_us >= 0) {
		int64_t r = ci->cpu[cpu].resume_latency_us;

		if (lim < 0 || r < lim)
			lim = r;
	}
	return lim;
}

static void rule_idle_latency(struct ctx *c)
{
	const struct cpuidle_info *ci = &c->s->idle;
	const struct thread_table *tt = c->in->threads;
	struct cpumask target, done_names;
	double budget = c->o->latency_budget_us;
	char names[16][32];
	size_t nnames = 0;

	cpumask_zero(&done_names);
	cpumask_zero(&target);
	if (tt) {
		for (size_t k = 0; k < tt->n; k++) {
			const struct thread_info *t = &tt->t[k];
			struct cpumask m;

			if (!user_thread(t) || !threads_is_rt(t))
				continue;
			if (threads_is_pinned(tt, t))
				thread_cpus(t, &m);
			else {
				cpumask_zero(&m);
				if (t->last_cpu >= 0)
					cpumask_set(&m, t->last_cpu);
			}
			cpumask_or(&target, &m);
		}
		if (cpumask_empty(&target))
			return;
	} else {
		for (int cpu = 0; cpu < ci->ncpus; cpu++)
			if (ci->cpu[cpu].online)
				cpumask_set(&target, cpu);
	}
	/* Distinct state names above the budget. */
	for (int cpu = 0; cpu < ci->ncpus; cpu++) {
		const struct cpuidle_cpu *cc = &ci->cpu[cpu];

		for (size_t k = 0; cc->online && k < cc->nstates; k++) {
			const struct cpuidle_state *st = &cc->st[k];
			bool seen = false;

			if (st->latency_us < 0 || (double)st->latency_us <= budget || !st->name[0])
				continue;
			for (size_t n = 0; n < nnames; n++)
				seen |= !strcmp(names[n], st->name);
			if (!seen && nnames < 16)
				snprintf(names[nnames++], sizeof(names[0]), "%s", st->name);
		}
	}
	for (size_t n = 0; n < nnames; n++) {
		struct cpumask on;
		int64_t lat = -1;
		int idx = -1;
		double res_max = NAN, ent_max = NAN;
		int res_cpu = -1;
		char cpus[128], title[128];
		struct finding *fd;

		cpumask_zero(&on);
		for (int cpu = cpumask_next(&target, 0); cpu >= 0;
		     cpu = cpumask_next(&target, cpu + 1)) {
			const struct cpuidle_state *st;
			int64_t q;

			if (cpu >= ci->ncpus || !ci->cpu[cpu].online)
				continue;
			st = cpuidle_state_find(ci, cpu, names[n]);
			if (!st || st->disable == 1 || st->default_status == 0 ||
			    (double)st->latency_us <= budget)
				continue;
			q = qos_limit_us(ci, cpu);
			if (q >= 0 && st->latency_us > q)
				continue; /* PM QoS already keeps the CPU out of it */
			cpumask_set(&on, cpu);
			lat = st->latency_us;
			idx = st->index;
			if (!isnan(st->residency_pct) &&
			    (isnan(res_max) || st->residency_pct > res_max)) {
				res_max = st->residency_pct;
				res_cpu = cpu;
			}
			if (!isnan(st->entries_per_s) &&
			    (isnan(ent_max) || st->entries_per_s > ent_max))
				ent_max = st->entries_per_s;
		}
		if (cpumask_empty(&on))
			continue;
		cpus_text(&on, cpus, sizeof(cpus));
		snprintf(title, sizeof(title),
			 "idle state %s (exit latency %" PRId64 " us) is enabled on CPUs %s",
			 names[n], lat, cpus);
		fd = add(c, "idle-exit-latency", names[n], tt ? FINDING_WARN : FINDING_INFO,
			 "cpuidle/*/*/disable", !tt, title);
		evidence(fd,
			 "%s (state%d) declares an exit latency of %" PRId64
			 " us, above the latency "
			 "budget of %.0f us, and is enabled on CPUs %s",
			 names[n], idx, lat, budget, cpus);
		if (!isnan(res_max))
			evidence(fd, "; up to %.1f%% residency (cpu%d)", res_max, res_cpu);
		if (!isnan(ent_max))
			evidence(fd, ", up to %.0f entries/s", ent_max);
		if (tt)
			evidence(fd,
				 ". These CPUs host real-time threads: every wake-up from %s pays "
				 "it",
				 names[n]);
		else
			evidence(fd,
				 ". No thread data (degraded rule): checked on every online CPU");
		evidence(fd, ". Disabling is per CPU");
		fix(fd, "%s=1", knob_addr_cpuidle_disable(cpus, names[n]).s);
	}
}

/* ---- DDR / NPU devfreq starving the NPU -------------------------------------------- */

#define DEVFREQ_LOW_SHARE 0.5  /* a clock at or below half its maximum counts as low */
#define DEVFREQ_SAT_PCT	  90.0 /* a device's own load at or above this is saturated */

/* The device's top OPP (the clamp max_freq may be below it). */
static int64_t devfreq_top(const struct devfreq_dev *d)
{
	return domain_top(d->max_hz, d->avail_hz, d->navail);
}

/* The device's fix (performance, or min = max) is in force but its clock
 * stays below the maximum: what holds it, from this sample; false when
 * nothing visible does (a static sample, a clock read before it moved: no
 * claim). */
static bool devfreq_held(const struct ctx *c, const struct devfreq_dev *d, char *buf, size_t cap)
{
	const struct thermal_info *th = &c->s->therm;
	int64_t top = devfreq_top(d);
	char a[32], b[32];
	for (size_t i = 0; (c->s->what & SNAP_THERMAL) && i < th->ncooling; i++) {
		const struct thermal_cooling *cd = &th->cooling[i];

		if (cd->active && !strcmp(cd->devfreq, d->name)) {
			thermal_cap(buf, cap, cd, d->name);
			return true;
		}
	}
	if (d->max_hz > 0 && d->max_hz < top) {
		snprintf(buf, cap, "max_freq clamps %s at %s (its top OPP is %s)", d->name,
			 mhz(a, sizeof(a), (double)d->max_hz, 1e6),
			 mhz(b, sizeof(b), (double)top, 1e6));
		return true;
	}
	return false;
}

/* Load evidence: the NPU's own load file says it is busy; the DDR (or the
 * NPU itself) below its maximum is flagged only when its clock is low (at
 * or below half its maximum) or its own load file says it is saturated at
 * the clock it has. A clock merely below maximum is not starving anything. */
static void rule_devfreq_starved(struct ctx *c)
{
	const struct devfreq_info *df = &c->s->devf;
	struct busy_dev npu;
	char a[32], b[32], why[160];

	if (!npu_busy(c, &npu) || npu.inferred)
		return; /* no load file: a clock is not load evidence */
	snprintf(why, sizeof(why), "the NPU %s is %.0f%% busy (load file '%s', threshold %.0f%%)",
		 npu.d->name, npu.load, npu.d->load, c->o->busy_pct);
	for (size_t i = 0; i < df->ndev; i++) {
		const struct devfreq_dev *d = &df->dev[i];
		double own = devfreq_load_pct(d);
		int64_t top = devfreq_top(d);
		bool low, sat, fixed;
		struct finding *fd;
		char title[128], held[256];

		if (d->kind != DEVFREQ_DDR && d->kind != DEVFREQ_NPU)
			continue;
		if (d->cur_hz < 0 || top <= 0 || d->cur_hz >= top)
			continue;
		low = (double)d->cur_hz <= DEVFREQ_LOW_SHARE * (double)top;
		sat = !isnan(own) && own >= DEVFREQ_SAT_PCT;
		if (d->kind == DEVFREQ_NPU && !sat)
			continue; /* a busy NPU below max with headroom is its governor working */
		if (!low && !sat)
			continue;
		fixed = !strcmp(d->governor, "performance") || (d->min_hz > 0 && d->min_hz >= top);
		held[0] = '\0';
		if (fixed && !devfreq_held(c, d, held, sizeof(held)))
			continue; /* nothing visible holds it: no claim */
		snprintf(title, sizeof(title), "%s %s at %s of %s while the NPU works",
			 d->kind == DEVFREQ_DDR ? "DDR controller" : "NPU", d->name,
			 mhz(a, sizeof(a), (double)d->cur_hz, 1e6),
			 mhz(b, sizeof(b), (double)top, 1e6));
		fd = add(c, "devfreq-starved", d->name, FINDING_WARN,
			 d->kind == DEVFREQ_DDR ? "devfreq/dmc/governor" : "devfreq/*/governor",
			 false, title);
		evidence(fd, "%s (%s) runs at %s of its %s maximum under '%s' while %s", d->name,
			 devfreq_kind_name(d->kind), mhz(a, sizeof(a), (double)d->cur_hz, 1e6),
			 mhz(b, sizeof(b), (double)top, 1e6), d->governor[0] ? d->governor : "n/a",
			 why);
		if (sat)
			evidence(fd, "; its own load is %.0f%% (load file, saturated at >= %.0f%%)",
				 own, DEVFREQ_SAT_PCT);
		else
			evidence(fd,
				 "; %.0f%% of its maximum is at or below the %.0f%% counted as low",
				 100.0 * (double)d->cur_hz / (double)top,
				 100.0 * DEVFREQ_LOW_SHARE);
		if (!isnan(own) && !sat)
			evidence(fd, " (its own load %.0f%%)", own);
		if (fixed) {
			snprintf(fd->held, sizeof(fd->held), "%s", held);
			evidence(fd, ". Its fix is in place, yet it stays there: %s", fd->held);
		}
		if (has_gov(d->avail_gov, d->ngov, "performance"))
			fix(fd, "%s=performance", knob_addr_devfreq_governor(d->name).s);
		else
			fix(fd, "%s=%" PRId64, knob_addr_devfreq_min_hz(d->name).s, top);
	}
}

/* ---- RT throttling ---------------------------------------------------------------- */

/* The RT (SCHED_FIFO / SCHED_RR) threads that last ran on the CPUs, with
 * their CPU share where the table has rates. */
static size_t rt_tasks_on(const struct ctx *c, const struct cpumask *cpus, char *buf, size_t cap)
{
	const struct thread_table *tt = c->in->threads;
	size_t n = 0;

	buf[0] = '\0';
	for (size_t k = 0; tt && k < tt->n; k++) {
		const struct thread_info *t = &tt->t[k];
		size_t len = strlen(buf);

		if (!threads_is_rt(t) || t->last_cpu < 0 || !cpumask_test(cpus, t->last_cpu))
			continue;
		if (n < 4) {
			snprintf(buf + len, cap - len, "%s%s (tid %d, %s %d, cpu%d", n ? ", " : "",
				 t->comm, (int)t->tid, threads_policy_label(t->policy), t->rt_prio,
				 t->last_cpu);
			len = strlen(buf);
			if (!isnan(t->cpu_pct))
				snprintf(buf + len, cap - len, ", %.0f%% of a CPU", t->cpu_pct);
			len = strlen(buf);
			snprintf(buf + len, cap - len, ")");
		}
		n++;
	}
	if (n > 4) {
		size_t len = strlen(buf);

		snprintf(buf + len, cap - len, " and %zu more", n - 4);
	}
	return n;
}

static void rule_rt_throttling(struct ctx *c)
{
	const struct rt_info *rt = &c->s->rt;
	struct cpumask thr, near;
	double worst = NAN;
	int worst_cpu = -1, events = 0;
	char cpus[128], title[128], tasks[384];
	struct finding *fd;
	bool crit;

	if (!(c->s->what & SNAP_RT) || (rt->have_runtime && rt->runtime_us < 0))
		return;
	cpumask_zero(&thr);
	cpumask_zero(&near);
	for (int cpu = 0; cpu < rt->ncpu; cpu++) {
		const struct rt_cpu *rc = &rt->cpu[cpu];

		if (!rc->have_rt)
			continue;
		if (rc->throttled == 1 || rc->throttle_events > 0)
			cpumask_set(&thr, cpu);
		else if (!isnan(rc->rt_use_pct) && rc->rt_use_pct >= c->o->rt_near_pct)
			cpumask_set(&near, cpu);
		events += rc->throttle_events;
		if (!isnan(rc->rt_use_pct) && (isnan(worst) || rc->rt_use_pct > worst)) {
			worst = rc->rt_use_pct;
			worst_cpu = cpu;
		}
	}
	if (cpumask_empty(&thr) && cpumask_empty(&near))
		return;
	crit = !cpumask_empty(&thr);
	cpus_text(crit ? &thr : &near, cpus, sizeof(cpus));
	if (crit)
		snprintf(title, sizeof(title), "RT throttling engaged on CPU %s", cpus);
	else
		snprintf(title, sizeof(title), "RT time near the runtime limit on CPU %s", cpus);
	fd = add(c, "rt-throttling", crit ? "throttled" : "near",
		 crit ? FINDING_CRIT : FINDING_WARN, "sched/rt_runtime_us", false, title);
	if (worst_cpu >= 0)
		evidence(fd, "cpu%d: rt_time %.3f ms of %.3f ms runtime (%.1f%%)", worst_cpu,
			 rt->cpu[worst_cpu].rt_time_ms, rt->cpu[worst_cpu].rt_runtime_ms, worst);
	if (crit)
		evidence(fd, "%srt_throttled on CPU %s%s", worst_cpu >= 0 ? "; " : "", cpus,
			 events ? "" : " right now");
	else
		evidence(fd, " (near = at or above %.0f%% of the runtime)", c->o->rt_near_pct);
	if (events)
		evidence(fd, " (%d throttle events seen)", events);
	if (!c->in->threads)
		evidence(fd, ". No thread data: the RT tasks using that time are not named here "
			     "(snapshot --threads or the Threads screen lists them)");
	else if (rt_tasks_on(c, crit ? &thr : &near, tasks, sizeof(tasks)))
		evidence(fd, ". RT threads that last ran there: %s", tasks);
	else
		evidence(fd, ". No SCHED_FIFO / SCHED_RR thread last ran there in this sample (the "
			     "RT time may belong to kernel threads or short-lived tasks)");
	if (rt->have_runtime && rt->have_period)
		evidence(fd,
			 ". Budget sched_rt_runtime_us %" PRId64 " of sched_rt_period_us %" PRId64
			 ": a throttled CPU stops its RT tasks for up to %" PRId64 " ms per period",
			 rt->runtime_us, rt->period_us, (rt->period_us - rt->runtime_us) / 1000);
	if (rt->fair_server)
		evidence(fd, ". This kernel has the 6.12+ fair server");
	if (rt->have_runtime && rt->have_period && rt->runtime_us == 90000 &&
	    rt->period_us == 100000) {
		snprintf(fd->held, sizeof(fd->held),
			 "the RT tasks still ask for more than the 90000 of 100000 us window: a "
			 "shorter window bounds each stall, it does not remove throttling");
		evidence(fd, ". Its fix is in place, yet it persists: %s", fd->held);
	}
	/* Shorter window: runtime first (it must stay <= period). */
	fix(fd, "%s=90000", knob_addr_sched_rt_runtime_us().s);
	fix(fd, "%s=100000", knob_addr_sched_rt_period_us().s);
}

/* ---- isolated CPUs ---------------------------------------------------------------- */

static void rule_isolated(struct ctx *c)
{
	const struct system_info *y = &c->s->sys;
	const struct irq_table *it = c->in->irqs;
	const struct thread_table *tt = c->in->threads;
	struct cpumask iso, house;
	char isos[128], hk[128], list[320] = "";
	size_t nlist = 0;
	struct finding *fd = NULL;

	cpumask_zero(&iso);
	if (y->have_isolated)
		cpumask_or(&iso, &y->isolated);
	if (y->have_nohz_full)
		cpumask_or(&iso, &y->nohz_full);
	if (cpumask_empty(&iso))
		return;
	house = c->s->topo.online;
	cpumask_andnot(&house, &iso);
	cpus_text(&iso, isos, sizeof(isos));
	cpus_text(&house, hk, sizeof(hk));
	if (it) {
		bool managed_only = true;

		for (size_t i = 0; i < it->n; i++) {
			const struct irq_row *row = &it->rows[i];
			struct cpumask aff;
			uint64_t cnt = 0;
			double rate = 0;
			bool any_rate = false;

			if (!row->numeric || row->percpu || row->single_total)
				continue;
			cpumask_zero(&aff);
			if (row->have_effective)
				cpumask_or(&aff, &row->effective);
			if (row->have_affinity)
				cpumask_or(&aff, &row->affinity);
			for (int cpu = cpumask_next(&iso, 0); cpu >= 0;
			     cpu = cpumask_next(&iso, cpu + 1)) {
				if (cpu >= it->ncpus || !cpumask_test(&row->have_cpu, cpu))
					continue;
				cnt += irq_count(row, cpu);
				if (row->rate_per_s && !isnan(row->rate_per_s[cpu])) {
					any_rate = true;
					rate += row->rate_per_s[cpu];
				}
			}
			/* by configuration (the affinity or effective affinity
			 * includes an isolated CPU), fired or not; or fired there */
			cpumask_and(&aff, &iso);
			if (cpumask_empty(&aff) && !(any_rate && rate > 0))
				continue;
			if (!fd)
				fd = add(c, "isolated-intruders", "irqs", FINDING_WARN,
					 "irq/*/affinity", false,
					 "device interrupts land on isolated CPUs");
			if (nlist < 6) {
				catf(list, sizeof(list), "%s%s %s (", nlist ? ", " : "", row->label,
				     row->name[0] ? row->name : "?");
				if (any_rate && rate > 0)
					catf(list, sizeof(list), "%.0f/s", rate);
				else if (!any_rate && cnt)
					catf(list, sizeof(list), "%" PRIu64 " since boot", cnt);
				else
					catf(list, sizeof(list), "affinity");
				catf(list, sizeof(list), "%s)",
				     row->managed		      ? ", managed"
				     : row->move == IRQ_MOVE_READONLY ? ", read-only"
								      : "");
			}
			nlist++;
			if (row->movable && !row->managed) {
				managed_only = false;
				fix(fd, "%s=%s", knob_addr_irq_affinity(row->label).s, hk);
			}
		}
		if (fd) {
			evidence(fd,
				 "CPUs %s are isolated (isolcpus / nohz_full) but take device "
				 "interrupts: "
				 "%s%s. Housekeeping CPUs: %s",
				 isos, list, nlist > 6 ? " and more" : "", hk);
			if (managed_only)
				evidence(fd,
					 ". Managed interrupts cannot be moved (EIO): boot with "
					 "isolcpus=managed_irq,%s",
					 isos);
		}
	}
	if (tt) {
		fd = NULL;
		list[0] = '\0';
		nlist = 0;
		for (size_t k = 0; k < tt->n; k++) {
			const struct thread_info *t = &tt->t[k];
			struct cpumask m;

			if (!user_thread(t) || t->last_cpu < 0 ||
			    !cpumask_test(&iso, t->last_cpu) || !t->have_affinity)
				continue;
			m = t->affinity;
			cpumask_andnot(&m, &iso);
			if (cpumask_empty(&m))
				continue; /* deliberately placed there */
			if (!fd)
				fd = add(c, "isolated-intruders", "threads", FINDING_WARN,
					 "thread/*/affinity", false,
					 "unrelated threads run on isolated CPUs");
			list_item(list, sizeof(list), &nlist, 5, "%s (tid %d, cpu%d)", t->comm,
				  (int)t->tid, t->last_cpu);
			fix(fd, "%s=%s", knob_addr_thread_affinity((int)t->tid).s, hk);
		}
		if (fd)
			evidence(fd,
				 "threads not confined to the isolated CPUs %s ran there: %s%s. "
				 "Pin them to the housekeeping CPUs %s",
				 isos, list, nlist > 5 ? " and more" : "", hk);
	}
}

/* ---- unbound work and new interrupts allowed on isolated CPUs --------------------------- */

/* Hex mask as wide as the CPUs of the snapshot (the kernel's form). */
static void hex_of(const struct ctx *c, const struct cpumask *m, char *buf, size_t cap)
{
	int nbits = c->s->topo.ncpus > 0 ? c->s->topo.ncpus : 1;

	cpumask_format_hex(m, nbits, buf, cap);
}

static void isolated_default(struct ctx *c, const struct cpumask *mask, const struct cpumask *iso,
			     const struct cpumask *house, const char *id, const char *addr,
			     enum finding_sev sev, const char *what, const char *file)
{
	struct cpumask in = *mask, keep = *mask;
	char l_in[128], l_mask[128], hk[128], hx[96], title[128];
	struct finding *fd;

	cpumask_and(&in, iso);
	if (cpumask_empty(&in))
		return;
	cpumask_andnot(&keep, iso);
	cpumask_and(&keep, &c->s->topo.online);
	if (cpumask_empty(&keep))
		keep = *house;
	cpus_text(&in, l_in, sizeof(l_in));
	cpus_text(mask, l_mask, sizeof(l_mask));
	cpus_text(house, hk, sizeof(hk));
	snprintf(title, sizeof(title), "%s allowed on isolated CPUs %s", what, l_in);
	fd = add(c, id, addr, sev, addr, false, title);
	hex_of(c, &keep, hx, sizeof(hx));
	evidence(fd,
		 "%s is CPUs %s, which includes the isolated / nohz_full CPUs %s "
		 "(housekeeping: %s). Limit it to CPUs outside them",
		 file, l_mask, l_in, hk);
	fix(fd, "%s=%s", addr, hx);
}

/* Isolated / nohz_full online CPUs and the housekeeping ones; false when
 * there are none of either. */
static bool iso_house(const struct ctx *c, struct cpumask *iso, struct cpumask *house)
{
	const struct system_info *y = &c->s->sys;

	cpumask_zero(iso);
	if (y->have_isolated)
		cpumask_or(iso, &y->isolated);
	if (y->have_nohz_full)
		cpumask_or(iso, &y->nohz_full);
	cpumask_and(iso, &c->s->topo.online);
	*house = c->s->topo.online;
	cpumask_andnot(house, iso);
	return !cpumask_empty(iso) && !cpumask_empty(house);
}

static void rule_wq_isolated(struct ctx *c)
{
	struct cpumask iso, house;

	if (c->s->sys.have_wq_cpumask && iso_house(c, &iso, &house))
		isolated_default(c, &c->s->sys.wq_cpumask, &iso, &house, "wq-unbound-isolated",
				 "workqueue/cpumask", FINDING_WARN, "unbound workqueues",
				 "/sys/devices/virtual/workqueue/cpumask (unbound kworkers)");
}

static void rule_irq_default_isolated(struct ctx *c)
{
	struct cpumask iso, house;

	if (c->s->sys.have_irq_default && iso_house(c, &iso, &house))
		isolated_default(c, &c->s->sys.irq_default, &iso, &house, "irq-default-isolated",
				 "irq/default_smp_affinity", FINDING_INFO,
				 "new interrupts (default_smp_affinity)",
				 "/proc/irq/default_smp_affinity (the mask of interrupts requested "
				 "from now on)");
}

/* ---- kernel configuration vs the command line and uclamp ------------------------------ */

static void rule_kconfig_cmdline(struct ctx *c)
{
	static const struct {
		const char *param;
		enum kconfig_id need;
		const char *then;
	} m[] = {
		{"nohz_full", KC_NO_HZ_FULL, "the tick keeps running on those CPUs"},
		{"rcu_nocbs", KC_RCU_NOCB_CPU,
		 "RCU callbacks keep running on the CPUs that queued them"},
		{"threadirqs", KC_IRQ_FORCED_THREADING,
		 "interrupt handlers keep running in hard-IRQ context, not as threads you can "
		 "prioritise"},
		{"isolcpus", KC_CPU_ISOLATION,
		 "the scheduler keeps balancing load onto those CPUs"},
	};
	const struct kconfig_info *k = &c->s->kconf;
	const struct system_info *y = &c->s->sys;

	if (!k->have)
		return;
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		char title[128];
		struct finding *fd;
		const char *p = system_param(y, m[i].param);

		if (!p || !kconfig_disabled(k, m[i].need))
			continue;
		snprintf(title, sizeof(title), "%s%s on the command line, but the kernel lacks %s",
			 m[i].param, p[0] ? "=" : "", kconfig_names[m[i].need]);
		fd = add(c, "kconfig-cmdline", m[i].param, FINDING_WARN, "kconfig.cmdline", false,
			 title);
		evidence(fd,
			 "/proc/cmdline has %s%s%s but %s says CONFIG_%s is %s: the kernel "
			 "ignores the parameter and %s. Only a kernel built with CONFIG_%s=y "
			 "helps (no knob changes this)",
			 m[i].param, p[0] ? "=" : "", p, k->source, kconfig_names[m[i].need],
			 k->opt[m[i].need].v == KCONFIG_NOT_SET ? "not set" : "absent", m[i].then,
			 kconfig_names[m[i].need]);
	}
}

/* The preemption model from /proc/version (and debugfs sched/preempt)
 * against the kernel configuration: two sources of one fact that disagree
 * mean one of them describes another kernel (a config file of another
 * build, a rewritten version string), so neither can be trusted alone. */
static void rule_preempt_sources(struct ctx *c)
{
	const struct system_info *y = &c->s->sys;
	const struct kconfig_info *k = &c->s->kconf;
	bool rt = kconfig_enabled(k, KC_PREEMPT_RT), dyn = kconfig_enabled(k, KC_PREEMPT_DYNAMIC);
	bool full = kconfig_enabled(k, KC_PREEMPT);
	const char *ver = NULL, *kp;
	char kc[48];
	struct finding *fd;
	bool differ;

	if (!k->have || !y->version[0] || !(kp = kconfig_preempt(k, kc, sizeof(kc))))
		return;
	switch (y->preempt) {
	case PREEMPT_MODEL_RT:
		ver = "PREEMPT_RT";
		differ = !rt;
		break;
	case PREEMPT_MODEL_DYNAMIC:
		ver = "PREEMPT_DYNAMIC";
		differ = !dyn;
		break;
	case PREEMPT_MODEL_FULL:
		ver = "PREEMPT";
		differ = rt || dyn || !full;
		break;
	default:
		ver = "no PREEMPT flag (NONE or VOLUNTARY)";
		differ = rt || dyn || full;
		break;
	}
	if (!differ)
		return;
	fd = add(c, "preempt-sources", "preemption model", FINDING_WARN, "system.preempt", false,
		 "the preemption model's sources disagree");
	evidence(fd, "/proc/version says %s but %s says %s", ver, k->source, kp);
	if (y->preempt == PREEMPT_MODEL_DYNAMIC && y->dyn_mode[0])
		evidence(fd, ", and debugfs sched/preempt says mode %s", y->dyn_mode);
	evidence(fd, ": one of them describes another kernel (a config of another build, a "
		     "rewritten version string); trust neither alone. Check with uname -v and the "
		     "config of the running kernel (/proc/config.gz needs CONFIG_IKCONFIG_PROC)");
}

static void rule_kconfig_uclamp(struct ctx *c)
{
	const struct kconfig_info *k = &c->s->kconf;
	const struct thread_table *tt = c->in->threads;
	char list[256] = "";
	size_t n = 0;
	struct finding *fd;

	if (!tt || !kconfig_disabled(k, KC_UCLAMP_TASK))
		return;
	for (size_t i = 0; i < tt->n; i++) {
		const struct thread_info *t = &tt->t[i];

		if (t->uclamp_min <= 0 && (t->uclamp_max < 0 || t->uclamp_max >= 1024))
			continue;
		list_item(list, sizeof(list), &n, 3, "%s (tid %d, %d..%d)", t->comm, (int)t->tid,
			  t->uclamp_min, t->uclamp_max);
	}
	if (!n)
		return;
	fd = add(c, "kconfig-uclamp", "uclamp", FINDING_WARN, "kconfig.uclamp", false,
		 "uclamp set on threads, but the kernel config lacks UCLAMP_TASK");
	evidence(fd,
		 "%s%s carry uclamp values, yet %s says CONFIG_UCLAMP_TASK is not set: that "
		 "file does not describe the running kernel (a config of another build?), so "
		 "its other options cannot be trusted either",
		 list, n > 3 ? " and more" : "", k->source);
}

/* ---- thermal ----------------------------------------------------------------------- */

static void rule_cooling(struct ctx *c)
{
	const struct thermal_info *th = &c->s->therm;
	const struct cpufreq_info *f = &c->s->freq;

	if (!(c->s->what & SNAP_THERMAL))
		return;
	for (size_t i = 0; i < th->ncooling; i++) {
		const struct thermal_cooling *cd = &th->cooling[i];
		const struct cpufreq_policy *locked = NULL;
		char cpus[128], title[128], subj[64];
		struct finding *fd;
		bool hot = false;

		if (!cd->active)
			continue;
		for (size_t k = 0; k < f->npolicies; k++) {
			struct cpumask x = f->pol[k].cpus;

			cpumask_and(&x, &cd->cpus);
			if (cpumask_empty(&x))
				continue;
			if (!strcmp(f->pol[k].governor, "performance") ||
			    (f->pol[k].min_khz > 0 && f->pol[k].min_khz == f->pol[k].max_khz))
				locked = &f->pol[k];
		}
		snprintf(subj, sizeof(subj), "cooling_device%d", cd->id);
		snprintf(title, sizeof(title),
			 "cooling device %s (%s) is active: state %" PRId64 "/%" PRId64, subj,
			 cd->type, cd->cur_state, cd->max_state);
		fd = add(c, "cooling-active", subj, locked ? FINDING_CRIT : FINDING_WARN,
			 "thermal.cooling_state", false, title);
		evidence(fd, "%s (%s) is at state %" PRId64 " of %" PRId64, subj, cd->type,
			 cd->cur_state, cd->max_state);
		if (!cpumask_empty(&cd->cpus)) {
			cpus_text(&cd->cpus, cpus, sizeof(cpus));
			evidence(fd, ": it caps the clock of CPUs %s", cpus);
		} else if (cd->devfreq[0]) {
			evidence(fd, ": it caps the devfreq device %s", cd->devfreq);
		}
		if (locked)
			evidence(fd,
				 ". %s is set to '%s'%s: thermal throttling overrides that lock "
				 "without "
				 "saying so",
				 locked->name, locked->governor,
				 locked->min_khz > 0 && locked->min_khz == locked->max_khz
					 ? " with min = max"
					 : "");
		for (size_t z = 0; z < th->nzones; z++) {
			const struct thermal_zone *zn = &th->zones[z];
			struct cpumask x = zn->cpus;

			cpumask_and(&x, &cd->cpus);
			if (zn->have_temp && (zn->above_passive || !cpumask_empty(&x)) && !hot) {
				char tc[24];

				evidence(fd, ". Zone %s at %s C%s", zn->type,
					 str_temp_c(tc, sizeof(tc), zn->temp_mc),
					 zn->above_passive ? ", above its passive trip" : "");
				hot = true;
			}
		}
		evidence(fd, ". Improve cooling or lock only the clusters that need it");
	}
}

/* ---- an idle state disabled but still entered (haltpoll) -------------------------------- */

static void rule_idle_ignored(struct ctx *c)
{
	const struct cpuidle_info *ci = &c->s->idle;

	for (int cpu = 0; cpu < ci->ncpus; cpu++) {
		const struct cpuidle_cpu *cc = &ci->cpu[cpu];

		for (size_t k = 0; cc->online && k < cc->nstates; k++) {
			const struct cpuidle_state *st = &cc->st[k];
			char subj[64], title[160];
			struct finding *fd;
			bool halt = !strcmp(ci->governor, "haltpoll");

			if (st->disable != 1 || isnan(st->entries_per_s) || st->entries_per_s <= 0)
				continue;
			snprintf(subj, sizeof(subj), "cpu%d/state%d", cpu, st->index);
			snprintf(title, sizeof(title),
				 "%s is disabled on CPU %d but still entered (%.0f/s)%s",
				 st->name[0] ? st->name : "an idle state", cpu, st->entries_per_s,
				 halt ? ": the haltpoll governor ignores disable" : "");
			fd = add(c, "idle-disable-ignored", subj, FINDING_WARN,
				 halt ? "cpuidle/governor" : "knob.effect", false, title);
			evidence(fd, "%s is 1, yet its usage grew by %.0f entries/s; governor %s",
				 knob_addr_cpuidle_disable_n(cpu, st->index).s, st->entries_per_s,
				 ci->governor[0] ? ci->governor : "n/a");
			if (halt && ci->avail_governors[0]) {
				const char *pick = strstr(ci->avail_governors, "menu")	? "menu"
						   : strstr(ci->avail_governors, "teo") ? "teo"
											: NULL;
				if (pick) {
					fix(fd, "%s=%s", knob_addr_cpuidle_governor().s, pick);
					evidence(fd, ". %s honours per-state disable", pick);
				}
			}
		}
	}
}

/* ---- idle states limited at boot ------------------------------------------------------ */

static void rule_max_cstate(struct ctx *c)
{
	static const char *const params[] = {"intel_idle.max_cstate", "processor.max_cstate",
					     "idle", "cpuidle.off"};
	const struct system_info *y = &c->s->sys;
	char found[256] = "";

	if (!y->cmdline[0])
		return;
	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		char val[64], one[96];

		if (!system_cmdline_param(y->cmdline, params[i], val, sizeof(val)))
			continue;
		snprintf(one, sizeof(one), "%s%s=%s", found[0] ? " " : "", params[i], val);
		if (strlen(found) + strlen(one) < sizeof(found))
			strcat(found, one);
	}
	if (found[0]) {
		struct finding *fd = add(c, "idle-limited-at-boot", "cmdline", FINDING_INFO,
					 "cpuidle.max_cstate", false,
					 "idle states are limited on the kernel command line");

		evidence(fd,
			 "/proc/cmdline has %s: states beyond that limit are never registered, "
			 "so they cannot be disabled, measured or blamed; driver %s, %zu states on "
			 "CPU 0",
			 found, c->s->idle.driver[0] ? c->s->idle.driver : "n/a",
			 c->s->idle.ncpus > 0 ? c->s->idle.cpu[0].nstates : (size_t)0);
	}
}

/* ---- uclamp under a governor that ignores it ------------------------------------------ */

static void rule_uclamp(struct ctx *c)
{
	const struct thread_table *tt = c->in->threads;
	const struct cpufreq_info *f = &c->s->freq;

	if (!tt)
		return;
	for (size_t i = 0; i < f->npolicies; i++) {
		const struct cpufreq_policy *p = &f->pol[i];
		char list[256] = "", a[32], title[128];
		size_t n = 0;
		struct finding *fd;

		if (!p->governor[0] || !strcmp(p->governor, "schedutil"))
			continue;
		for (size_t k = 0; k < tt->n; k++) {
			const struct thread_info *t = &tt->t[k];
			struct cpumask m;

			if (t->uclamp_min <= 0)
				continue;
			thread_cpus(t, &m);
			cpumask_and(&m, &p->cpus);
			if (cpumask_empty(&m))
				continue;
			list_item(list, sizeof(list), &n, 3, "%s (tid %d, util_min %d)", t->comm,
				  (int)t->tid, t->uclamp_min);
		}
		if (!n)
			continue;
		snprintf(title, sizeof(title),
			 "uclamp set on threads of %s, whose governor '%s' ignores it", p->name,
			 p->governor);
		fd = add(c, "uclamp-ignored", p->name, FINDING_WARN, "thread/*/uclamp_min", false,
			 title);
		evidence(fd,
			 "%s%s ask for a utilisation floor, but %s runs '%s' (now %s): only "
			 "schedutil turns uclamp into frequency",
			 list, n > 3 ? " and more" : "", p->name, p->governor,
			 mhz(a, sizeof(a), (double)p->cur_khz, 1000));
		if (has_gov(p->avail_gov, p->ngov, "schedutil"))
			fix(fd, "%s=schedutil", knob_addr_cpufreq_governor(p->name).s);
		else if (has_gov(p->avail_gov, p->ngov, "performance"))
			fix(fd, "%s=performance", knob_addr_cpufreq_governor(p->name).s);
	}
}

/* ---- the accelerator's side: a thread in the NPU ioctl on a collapsed policy ------- */

static bool at_lowest_opp(const struct cpufreq_policy *p)
{
	uint64_t lo = 0;

	if (p->cur_khz < 0)
		return false;
	if (p->min_khz >= 0 && p->cur_khz <= p->min_khz)
		return true;
	for (size_t i = 0; i < p->navail; i++)
		if (!lo || p->avail_khz[i] < lo)
			lo = p->avail_khz[i];
	if (lo)
		return (uint64_t)p->cur_khz <= lo;
	return p->hw_min_khz >= 0 && p->cur_khz <= p->hw_min_khz;
}

static void rule_npu_wait(struct ctx *c)
{
	const struct thread_table *tt = c->in->threads;
	const struct cpufreq_info *f = &c->s->freq;

	if (!tt)
		return;
	for (size_t k = 0; k < tt->n; k++) {
		const struct thread_info *t = &tt->t[k];
		const struct cpufreq_policy *p;
		char a[32], title[160], subj[64];
		struct finding *fd;
		int pi;

		if (!t->have_wait || !t->in_ioctl || !t->accel[0] || t->last_cpu < 0)
			continue;
		pi = cpufreq_policy_index(f, t->last_cpu);
		if (pi < 0)
			continue;
		p = &f->pol[pi];
		if (!at_lowest_opp(p))
			continue;
		str_copy(subj, sizeof(subj), knob_addr_thread((int)t->tid).s);
		snprintf(title, sizeof(title),
			 "%s (tid %d) sleeps in the %s ioctl while %s sits at its lowest OPP",
			 t->comm, (int)t->tid, t->accel, p->name);
		fd = add(c, "npu-wait-low-opp", subj, FINDING_WARN, "npu.wait_low_opp", false,
			 title);
		evidence(fd,
			 "%s (tid %d) is blocked in ioctl on %s (wchan %s); its last CPU %d is in "
			 "%s, governor '%s', now %s = the lowest it may run",
			 t->comm, (int)t->tid, t->wait_dev[0] ? t->wait_dev : "n/a",
			 t->wchan[0] ? t->wchan : "n/a", t->last_cpu, p->name,
			 p->governor[0] ? p->governor : "n/a",
			 mhz(a, sizeof(a), (double)p->cur_khz, 1000));
		if (!strcmp(p->governor, "schedutil") && t->uclamp_min >= 0)
			fix(fd, "%s=512", knob_addr_thread_uclamp_min((int)t->tid).s);
		if (has_gov(p->avail_gov, p->ngov, "performance"))
			fix(fd, "%s=performance", knob_addr_cpufreq_governor(p->name).s);
	}
}

/* ---- memory: mlock and THP --------------------------------------------------------- */

static void rule_memory(struct ctx *c)
{
	const struct thread_table *tt = c->in->threads;
	size_t nrt = 0;

	if (tt) {
		char list[320] = "";
		size_t n = 0;
		pid_t seen[8];
		size_t nseen = 0;

		for (size_t k = 0; k < tt->n; k++) {
			const struct thread_info *t = &tt->t[k];
			bool dup = false;

			if (!user_thread(t) || !threads_is_rt(t))
				continue;
			nrt++;
			if (t->vmlck_kb > 0)
				continue;
			for (size_t s = 0; s < nseen; s++)
				dup |= seen[s] == t->pid;
			if (dup)
				continue;
			if (nseen < 8)
				seen[nseen++] = t->pid;
			list_item(list, sizeof(list), &n, 4, "%s (pid %d, tid %d, %s %d)", t->comm,
				  (int)t->pid, (int)t->tid, threads_policy_label(t->policy),
				  t->rt_prio);
		}
		if (n) {
			struct finding *fd =
				add(c, "rt-no-mlock", "mlock", FINDING_WARN, "thread.vmlck_kb",
				    false, "real-time threads without locked memory");

			evidence(fd,
				 "VmLck is 0 kB for %s%s: a page fault on the RT path (swap-in, "
				 "first touch, reclaim) costs milliseconds. Call "
				 "mlockall(MCL_CURRENT | "
				 "MCL_FUTURE) at start-up and pre-touch stacks and buffers",
				 list, n > 4 ? " and more" : "");
		}
	}
	if (!strcmp(c->s->sys.thp, "always")) {
		bool rt = tt && nrt;
		struct finding *fd = add(c, "thp-always", "thp", rt ? FINDING_WARN : FINDING_INFO,
					 "mm/thp", !tt, "transparent huge pages are 'always'");

		evidence(fd,
			 "sys/kernel/mm/transparent_hugepage/enabled is 'always': page faults may "
			 "compact memory and khugepaged collapses pages in the background, both "
			 "unpredictable stalls for RT threads");
		if (rt)
			evidence(fd, " (%zu real-time threads run here)", nrt);
		else if (!tt)
			evidence(fd, " (no thread data: degraded rule)");
		fix(fd, "%s=madvise", knob_addr_mm_thp().s);
	}
}

/* ---- migrations -------------------------------------------------------------------- */

static void rule_migrations(struct ctx *c)
{
	const struct thread_table *tt = c->in->threads;
	const struct system_info *y = &c->s->sys;

	if (!tt)
		return;
	for (size_t k = 0; k < tt->n; k++) {
		const struct thread_info *t = &tt->t[k];
		char subj[64], title[128];
		struct finding *fd;
		int target = t->last_cpu;

		if (!user_thread(t) || !threads_is_rt(t) || isnan(t->migrations_per_s) ||
		    t->migrations_per_s <= c->o->migrations_per_s)
			continue;
		if (y->have_isolated && !cpumask_empty(&y->isolated) &&
		    (target < 0 || !cpumask_test(&y->isolated, target)))
			target = cpumask_next(&y->isolated, 0);
		snprintf(subj, sizeof(subj), "tid%d", (int)t->tid);
		snprintf(title, sizeof(title), "RT thread %s (tid %d) migrates %.0f times/s",
			 t->comm, (int)t->tid, t->migrations_per_s);
		fd = add(c, "rt-migrations", subj, FINDING_WARN, "thread.migrations_per_s", false,
			 title);
		evidence(fd,
			 "%s (tid %d, %s %d) moved between CPUs %.1f times per second (threshold "
			 "%.0f/s); each migration leaves its cache behind",
			 t->comm, (int)t->tid, threads_policy_label(t->policy), t->rt_prio,
			 t->migrations_per_s, c->o->migrations_per_s);
		if (target >= 0)
			fix(fd, "%s=%d", knob_addr_thread_affinity((int)t->tid).s, target);
	}
}

/* ---- probe misses on a non-RT kernel ----------------------------------------------- */

static void rule_probe_kernel(struct ctx *c)
{
	const struct findings_probe *pr = c->in->probe;
	const struct system_info *y = &c->s->sys;
	const char *model = system_preempt_name(y->preempt);
	struct finding *fd;
	char title[128];

	if (!pr || !pr->have || !pr->misses || y->preempt == PREEMPT_MODEL_RT)
		return;
	snprintf(title, sizeof(title), "%" PRIu64 " deadline misses on a %s kernel", pr->misses,
		 model ? model : "non-RT");
	fd = add(c, "non-rt-kernel-misses", "kernel",
		 pr->max_us > 10 * pr->budget_us ? FINDING_CRIT : FINDING_WARN, "system.preempt",
		 false, title);
	evidence(fd,
		 "the probe saw %" PRIu64 " of %" PRIu64
		 " wake-ups later than %.0f us (max %.0f us, "
		 "p99 %.0f us) on a %s kernel",
		 pr->misses, pr->samples, pr->budget_us, pr->max_us, pr->p99_us,
		 model ? model : "kernel of unknown preemption model");
	if (y->preempt == PREEMPT_MODEL_DYNAMIC && strcmp(y->dyn_mode, "full"))
		evidence(fd, "; PREEMPT_DYNAMIC in mode '%s': boot with preempt=full",
			 y->dyn_mode[0] ? y->dyn_mode : "n/a");
	evidence(fd, ". No knob replaces a fully preemptible (PREEMPT_RT) kernel");
}

/* ---- table and driver ----------------------------------------------------------------- */

struct rule {
	struct finding_rule_info info;
	void (*fn)(struct ctx *c);
};

static const struct rule rules[] = {
	{{"governor-collapse", "cpufreq/*/governor",
	  "a policy sits at its lowest OPP under a non-performance governor while an RT or pinned "
	  "thread of that cluster is runnable or blocked (without threads: while the NPU is busy, "
	  "warn; otherwise info)",
	  "snapshot, threads"},
	 rule_governor_collapse},
	{{"hwp-epp", "cpufreq/*/energy_performance_preference",
	  "informational: policies under hardware P-states (intel_pstate / amd-pstate active) in "
	  "'powersave' with an EPP hint other than performance",
	  "snapshot"},
	 rule_hwp},
	{{"idle-exit-latency", "cpuidle/*/*/disable",
	  "an enabled idle state's exit latency exceeds the latency budget on CPUs hosting RT "
	  "threads (without threads: on any online CPU, info)",
	  "snapshot, threads"},
	 rule_idle_latency},
	{{"devfreq-starved", "devfreq/dmc/governor",
	  "the NPU's load file says it is busy while the DDR controller runs at or below half its "
	  "maximum, or the DDR or the NPU is saturated (own load >= 90%) below its maximum",
	  "snapshot"},
	 rule_devfreq_starved},
	{{"rt-throttling", "sched/rt_runtime_us",
	  "RT throttling engaged on a CPU (crit), or rt_time near the runtime limit (warn); names "
	  "the RT threads that ran there",
	  "snapshot, threads"},
	 rule_rt_throttling},
	{{"isolated-intruders", "system.isolcpus",
	  "device interrupts or unrelated threads on isolated (isolcpus / nohz_full) CPUs",
	  "irqs, threads"},
	 rule_isolated},
	{{"wq-unbound-isolated", "workqueue/cpumask",
	  "the unbound workqueue cpumask includes isolated / nohz_full CPUs", "snapshot"},
	 rule_wq_isolated},
	{{"irq-default-isolated", "irq/default_smp_affinity",
	  "informational: /proc/irq/default_smp_affinity (interrupts requested from now on) "
	  "includes isolated / nohz_full CPUs",
	  "snapshot"},
	 rule_irq_default_isolated},
	{{"kconfig-cmdline", "kconfig.cmdline",
	  "nohz_full=, rcu_nocbs=, threadirqs or isolcpus= on the command line of a kernel built "
	  "without NO_HZ_FULL, RCU_NOCB_CPU, IRQ_FORCED_THREADING or CPU_ISOLATION",
	  "snapshot (kernel config)"},
	 rule_kconfig_cmdline},
	{{"kconfig-uclamp", "kconfig.uclamp",
	  "threads carry uclamp values while the kernel config says UCLAMP_TASK is not set",
	  "threads, kernel config"},
	 rule_kconfig_uclamp},
	{{"cooling-active", "thermal.cooling_state",
	  "an active cooling device (crit when it caps a locked or performance policy)",
	  "snapshot"},
	 rule_cooling},
	{{"idle-disable-ignored", "cpuidle/governor",
	  "an idle state disabled on a CPU is still entered (the haltpoll governor ignores "
	  "per-state disable)",
	  "snapshot with rates"},
	 rule_idle_ignored},
	{{"idle-limited-at-boot", "cpuidle.max_cstate",
	  "intel_idle.max_cstate, processor.max_cstate, idle= or cpuidle.off on the kernel command "
	  "line",
	  "snapshot"},
	 rule_max_cstate},
	{{"uclamp-ignored", "thread/*/uclamp_min",
	  "uclamp set on threads of a policy whose governor is not schedutil", "threads"},
	 rule_uclamp},
	{{"npu-wait-low-opp", "npu.wait_low_opp",
	  "a thread blocked in an accelerator ioctl while its CPU policy sits at the lowest OPP",
	  "threads (wait channel)"},
	 rule_npu_wait},
	{{"rt-no-mlock", "thread.vmlck_kb",
	  "RT threads without locked memory; THP 'always' "
	  "(thp-always)",
	  "threads (thp-always: snapshot)"},
	 rule_memory},
	{{"rt-migrations", "thread.migrations_per_s",
	  "an RT thread migrates more often than the threshold", "threads with rates"},
	 rule_migrations},
	{{"non-rt-kernel-misses", "system.preempt",
	  "a non-PREEMPT_RT kernel while the probe shows deadline misses", "probe"},
	 rule_probe_kernel},
	{{"preempt-sources", "system.preempt",
	  "the preemption model from /proc/version, the kernel config and debugfs disagree",
	  "snapshot (kconfig)"},
	 rule_preempt_sources},
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

size_t findings_rule_count(void)
{
	return NRULES;
}

const struct finding_rule_info *findings_rule_at(size_t i)
{
	return i < NRULES ? &rules[i].info : NULL;
}

int findings_eval(const struct findings_input *in, const struct findings_opts *opts,
		  struct finding_list *out)
{
	struct findings_opts dflt;
	struct findings_input local;
	struct ctx c;
	size_t first = out->n;

	if (!in || !in->snap)
		return -EINVAL;
	if (!opts) {
		findings_opts_default(&dflt);
		opts = &dflt;
	}
	local = *in;
	if (!local.irqs && (in->snap->what & SNAP_IRQS))
		local.irqs = &in->snap->irqs;
	c = (struct ctx){.in = &local, .o = opts, .out = out, .s = in->snap};
	for (size_t i = 0; i < NRULES; i++)
		rules[i].fn(&c);
	/* Most severe first, rule order kept within a severity. */
	if (out->n - first > 1) {
		size_t n = out->n - first, k = 0;
		struct finding *v = out->v + first;
		struct finding *tmp = xmalloc(n * sizeof(*tmp));

		for (int sev = FINDING_CRIT; sev >= FINDING_INFO; sev--)
			for (size_t i = 0; i < n; i++)
				if ((int)v[i].sev == sev)
					tmp[k++] = v[i];
		memcpy(v, tmp, n * sizeof(*tmp));
		free(tmp);
	}
	return 0;
}

void findings_free(struct finding_list *l)
{
	if (!l)
		return;
	free(l->v);
	memset(l, 0, sizeof(*l));
}

size_t findings_count(const struct finding_list *l, enum finding_sev min_sev)
{
	size_t n = 0;

	for (size_t i = 0; l && i < l->n; i++)
		if (l->v[i].sev >= min_sev)
			n++;
	return n;
}

void findings_probe_from_hist(const struct hist *h, double budget_us, struct findings_probe *out)
{
	memset(out, 0, sizeof(*out));
	out->budget_us = budget_us;
	if (!h || !h->count)
		return;
	out->have = true;
	out->samples = h->count;
	out->max_us = hist_max_us(h);
	out->p99_us = hist_percentile_us(h, 0.99);
	for (int i = 0; i < HIST_NBUCKETS; i++) {
		uint64_t lo, hi;

		hist_bucket_range(i, &lo, &hi);
		/* 1 us buckets hold whole microseconds: 100 is not later than 100 */
		if (hi == lo + 1 ? (double)lo > budget_us : (double)lo >= budget_us)
			out->misses += h->bucket[i];
	}
	out->misses += h->overflows;
}
