/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Snapshot assembly and the two-slot sampler. Every SNAP_FULL_EVERY ticks
 * (and on the first) every source is read in full; in between each source's
 * refresh copies what cannot have changed from the previous snapshot and
 * re-reads only what moves (counters, knobs, the online mask). A change of
 * the online mask makes cpufreq, cpuidle and the IRQs read in full at once,
 * so CPU hotplug shows up honestly on the tick it happens. */
#include "model/snapshot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/timeutil.h"

/* Full re-reads of the slow, mostly static sources every this many ticks;
 * in between their cheap refresh re-reads only the values that move. */
#define SNAP_FULL_EVERY 16

/* Each freshly read CPU's idle and total time from /proc/stat, for
 * cpuidle_derive()'s stay in progress (a carried CPU keeps those of its
 * read). */
static void idle_ticks(const struct procstat *st, struct cpuidle_info *idle)
{
	for (int c = 0; c < idle->ncpus && idle->cpu; c++) {
		struct cpuidle_cpu *cc = &idle->cpu[c];
		const struct cpu_times *t;

		if (cc->carried)
			continue;
		cc->have_ticks = false;
		if (c >= st->ncpus || !st->cpu || !st->cpu[c].valid)
			continue;
		t = &st->cpu[c];
		cc->have_ticks = true;
		cc->idle_ticks = t->idle + t->iowait;
		cc->all_ticks = t->user + t->nice + t->system + t->idle + t->iowait + t->irq +
				t->softirq + t->steal;
	}
}

/* prev: the previous snapshot of the same root (NULL: none, read all in
 * full); full: re-read the slow sources in full anyway; fresh: the CPUs
 * whose idle states are read (NULL = all; the others carry prev's). */
static int snapshot_take_from(const struct sysroot *r, unsigned what, const struct snapshot *prev,
			      bool full, const struct cpumask *fresh, const char *const *clk_names,
			      struct snapshot *s)
{
	bool hotplug;
	int e;

	memset(s, 0, sizeof(*s));
	s->what = what;
	s->dt_s = NAN;
	s->time_ns = time_real_ns();
	s->mono_ns = time_mono_ns();
	if (!prev)
		full = true;
	e = full ? topology_read(r, &s->topo) : topology_refresh(r, &prev->topo, &s->topo);
	if (e)
		return e;
	/* A CPU that went on- or offline changes policies, idle states and
	 * where IRQs are handled: read those in full. */
	hotplug = !prev || prev->topo.ncpus != s->topo.ncpus ||
		  !cpumask_equal(&prev->topo.online, &s->topo.online);
	if (full)
		system_read(r, &s->sys);
	else
		system_refresh(r, &prev->sys, &s->sys);
	if (prev && prev->kconf.tried)
		s->kconf = prev->kconf;
	else
		kconfig_read(r, s->sys.kernel, &s->kconf);
	procstat_read(r, s->topo.ncpus, &s->stat);
	if (full || hotplug)
		cpufreq_read(r, &s->topo, &s->freq);
	else
		cpufreq_refresh(r, &s->topo, &prev->freq, &s->freq);
	if (hotplug)
		cpuidle_read(r, &s->topo, &s->idle);
	else
		cpuidle_update(r, &s->topo, &prev->idle, fresh, full, &s->idle);
	idle_ticks(&s->stat, &s->idle);
	if (what & SNAP_DEVFREQ) {
		if (!full && (prev->what & SNAP_DEVFREQ))
			devfreq_refresh(r, &prev->devf, &s->devf);
		else
			devfreq_read(r, clk_names, &s->devf);
		accel_read(r, &s->devf, &s->accel);
	}
	if (what & SNAP_POWER)
		power_read(r, &s->power);
	if (what & SNAP_RT)
		rt_read(r, s->topo.ncpus, &s->rt);
	if (what & SNAP_IRQS) {
		if (full || hotplug || !(prev->what & SNAP_IRQS))
			irqs_read(r, s->topo.ncpus, &s->irqs);
		else if (what & SNAP_IRQ_AFFINITY)
			irqs_refresh(r, s->topo.ncpus, &prev->irqs, &s->irqs);
		else
			irqs_refresh_counts(r, s->topo.ncpus, &prev->irqs, &s->irqs);
		softirqs_read(r, s->topo.ncpus, &s->softirqs);
	}
	if (what & SNAP_REMOTEPROC)
		remoteproc_read(r, &s->rproc);
	if (what & SNAP_THERMAL) {
		if (!full && (prev->what & SNAP_THERMAL))
			thermal_refresh(r, &prev->therm, &s->therm);
		else
			thermal_read(r, &s->topo, &s->therm);
	}
	return 0;
}

int snapshot_take(const struct sysroot *r, unsigned what, struct snapshot *s)
{
	return snapshot_take_from(r, what, NULL, true, NULL, NULL, s);
}

int snapshot_take_clocks(const struct sysroot *r, unsigned what, const char *const *clk_names,
			 struct snapshot *s)
{
	return snapshot_take_from(r, what, NULL, true, NULL, clk_names, s);
}

void snapshot_derive(struct snapshot *cur, const struct snapshot *prev)
{
	double dt;

	if (!prev || prev->mono_ns >= cur->mono_ns)
		return;
	dt = (double)(cur->mono_ns - prev->mono_ns) / 1e9;
	cur->dt_s = dt;
	procstat_derive(&cur->stat, &prev->stat, dt);
	cpufreq_derive(&cur->freq, &prev->freq, dt);
	cpuidle_derive(&cur->idle, &prev->idle, dt);
	if ((cur->what & SNAP_DEVFREQ) && (prev->what & SNAP_DEVFREQ))
		devfreq_derive(&cur->devf, &prev->devf, dt);
	if ((cur->what & SNAP_POWER) && (prev->what & SNAP_POWER))
		power_derive(&cur->power, &prev->power, dt);
	if ((cur->what & SNAP_RT) && (prev->what & SNAP_RT))
		rt_derive(&cur->rt, &prev->rt, dt);
	if ((cur->what & SNAP_IRQS) && (prev->what & SNAP_IRQS)) {
		irqs_derive(&cur->irqs, &prev->irqs, dt);
		softirqs_derive(&cur->softirqs, &prev->softirqs, dt);
	}
}

void snapshot_free(struct snapshot *s)
{
	topology_free(&s->topo);
	procstat_free(&s->stat);
	cpufreq_free(&s->freq);
	cpuidle_free(&s->idle);
	devfreq_free(&s->devf);
	power_free(&s->power);
	rt_free(&s->rt);
	thermal_free(&s->therm);
	irqs_free(&s->irqs);
	softirqs_free(&s->softirqs);
	remoteproc_free(&s->rproc);
	memset(s, 0, sizeof(*s));
}

void sampler_init(struct sampler *s, const struct sysroot *root, unsigned what)
{
	memset(s, 0, sizeof(*s));
	s->root = root;
	s->what = what;
	s->cur = 1;
	s->threads.root = root; /* a --root tree's threads are its proc/'s */
}

int sampler_tick(struct sampler *s)
{
	int next = 1 - s->cur;
	uint64_t t0 = time_process_cpu_ns();
	struct cpumask fresh;
	bool full = s->count % SNAP_FULL_EVERY == 0;
	int e;

	if (s->have_focus) {
		/* The shown CPUs, and a 1/SNAP_FULL_EVERY slice of the others
		 * in turn: every CPU is read every SNAP_FULL_EVERY ticks. A
		 * full tick re-lists its slice's states and one more slice,
		 * rotating, so that every CPU is re-listed now and then. */
		int slot = s->count % SNAP_FULL_EVERY;
		int extra = full ? (s->count / SNAP_FULL_EVERY) % SNAP_FULL_EVERY : slot;

		fresh = s->focus;
		for (int c = 0; c < TT_MAX_CPUS; c++)
			if (c % SNAP_FULL_EVERY == slot || c % SNAP_FULL_EVERY == extra)
				cpumask_set(&fresh, c);
	}
	snapshot_free(&s->snap[next]);
	e = snapshot_take_from(s->root, s->what, s->count > 0 ? &s->snap[s->cur] : NULL, full,
			       s->have_focus ? &fresh : NULL, s->clk_names, &s->snap[next]);
	if (e)
		return e;
	if (s->count > 0)
		snapshot_derive(&s->snap[next], &s->snap[s->cur]);
	if (s->perf_open) {
		perf_sample(&s->perf);
		s->snap[next].perf = &s->perf;
	}
	if (s->threads_every_ns &&
	    (!s->threads.nread || time_mono_ns() - s->threads.read_ns >= s->threads_every_ns))
		thread_sampler_refresh(&s->threads, false);
	s->cur = next;
	s->count++;
	s->last_cost_ns = time_process_cpu_ns() - t0;
	return 0;
}

void sampler_focus(struct sampler *s, const struct cpumask *cpus)
{
	s->have_focus = cpus != NULL;
	if (cpus)
		s->focus = *cpus;
}

const struct snapshot *sampler_cur(const struct sampler *s)
{
	return s->count ? &s->snap[s->cur] : NULL;
}

const struct snapshot *sampler_prev(const struct sampler *s)
{
	return s->count > 1 ? &s->snap[1 - s->cur] : NULL;
}

int sampler_counters(struct sampler *s, const char *const *events)
{
	const struct snapshot *cur = sampler_cur(s);
	struct topology topo;
	int e;

	if (s->perf_open)
		return 0;
	if (cur)
		e = perf_open_cpus(&s->perf, s->root, &cur->topo, events, &s->perf_cause);
	else if ((e = topology_read(s->root, &topo)) == 0) {
		e = perf_open_cpus(&s->perf, s->root, &topo, events, &s->perf_cause);
		topology_free(&topo);
	}
	/* Even a failed open leaves per-event reasons worth showing. */
	s->perf_open = s->perf.nev > 0;
	if (s->perf_open)
		perf_sample(&s->perf); /* baseline */
	return e;
}

void sampler_counters_close(struct sampler *s)
{
	if (s->perf_open)
		perf_close(&s->perf);
	free(s->perf_cause);
	s->perf_cause = NULL;
	s->perf_open = false;
	s->snap[0].perf = s->snap[1].perf = NULL;
}

void sampler_free(struct sampler *s)
{
	sampler_counters_close(s);
	snapshot_free(&s->snap[0]);
	snapshot_free(&s->snap[1]);
	thread_sampler_free(&s->threads);
}
