/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The replay reader: loads a recording, indexes its lines by type and
 * rebuilds snapshots from the snapshot JSON (the inverse of report_json for
 * everything the screens draw). Allocations follow the sources' own layout
 * so that snapshot_free releases a replayed snapshot like a sampled one.
 * Values the JSON carries as null come back as n/a (-1, NAN, "" or a false
 * have_ flag), never as 0. */
#include "model/replay.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"
#include "core/err.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "model/record.h"
#include "model/snap_fields.h"
#include "sysfs/userfile.h"

#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

struct line {
	size_t off, len;
	uint64_t t_ns;
};

struct replay {
	char *text;
	size_t len;
	struct replay_header hdr;
	struct line *samples;
	size_t nsamples, capsamples;
	struct replay_event *events;
	size_t nevents, capevents;
	struct replay_probe *probes;
	size_t nprobes, capprobes;
	size_t skipped;
};

/* ---- small JSON helpers -------------------------------------------------------- */

static int64_t nn(const struct jp_value *v)
{
	return jp_int(v, -1);
}

static double dbl(const struct jp_value *v)
{
	return jp_num(v, NAN);
}

static void cpy(char *dst, size_t cap, const struct jp_value *v)
{
	str_copy(dst, cap, jp_str(v, ""));
}

static int tri(const struct jp_value *v)
{
	if (!v || v->type != JP_BOOL)
		return -1;
	return v->b ? 1 : 0;
}

static void mask_from_array(const struct jp_value *a, struct cpumask *m)
{
	cpumask_zero(m);
	for (size_t i = 0; i < jp_len(a); i++) {
		int64_t c = jp_int(jp_at(a, i), -1);

		if (c >= 0 && c < TT_MAX_CPUS)
			cpumask_set(m, (int)c);
	}
}

static bool mask_from_list(const struct jp_value *v, struct cpumask *m)
{
	cpumask_zero(m);
	if (!v || v->type != JP_STR)
		return false;
	return cpulist_parse(v->s, m) == 0;
}

static uint64_t *u64_array(const struct jp_value *a, size_t *n)
{
	uint64_t *out;

	*n = jp_len(a);
	if (!*n)
		return NULL;
	out = xcalloc(*n, sizeof(*out));
	for (size_t i = 0; i < *n; i++)
		out[i] = (uint64_t)jp_int(jp_at(a, i), 0);
	return out;
}

/* ---- snapshot ------------------------------------------------------------------ */

static enum preempt_model preempt_of(const char *s)
{
	static const struct {
		const char *name;
		enum preempt_model m;
	} map[] = {
		{"NONE", PREEMPT_MODEL_NONE},	  {"VOLUNTARY", PREEMPT_MODEL_VOLUNTARY},
		{"PREEMPT", PREEMPT_MODEL_FULL},  {"PREEMPT_DYNAMIC", PREEMPT_MODEL_DYNAMIC},
		{"PREEMPT_RT", PREEMPT_MODEL_RT},
	};

	for (size_t i = 0; s && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(s, map[i].name))
			return map[i].m;
	return PREEMPT_UNKNOWN;
}

static void fill_system(const struct jp_value *doc, struct snapshot *s)
{
	const struct jp_value *y = jp_get(doc, "system"), *cl = jp_get(y, "cmdline");
	struct system_info *o = &s->sys;

	cpy(o->kernel, sizeof(o->kernel), jp_get(y, "kernel"));
	o->preempt = preempt_of(jp_str(jp_get(y, "preempt"), NULL));
	cpy(o->preempt_note, sizeof(o->preempt_note), jp_get(y, "preempt_note"));
	cpy(o->dyn_mode, sizeof(o->dyn_mode), jp_get(y, "preempt_dynamic_mode"));
	cpy(o->arch, sizeof(o->arch), jp_get(y, "arch"));
	cpy(o->model, sizeof(o->model), jp_get(y, "model"));
	cpy(s->topo.cpu_model, sizeof(s->topo.cpu_model), jp_get(y, "cpu_model"));
	for (size_t i = 0; i < jp_len(jp_get(y, "compatible")) && i < SYSTEM_MAX_COMPAT; i++)
		cpy(o->compat[o->ncompat++], sizeof(o->compat[0]),
		    jp_at(jp_get(y, "compatible"), i));
	for (int i = 0; i < SYSTEM_NPARAMS; i++) {
		const struct jp_value *p = jp_get(cl, system_param_names[i]);

		if (p && p->type == JP_STR) {
			o->param_set[i] = true;
			cpy(o->param[i], sizeof(o->param[i]), p);
		}
	}
	o->have_isolated = mask_from_list(jp_get(y, "isolated"), &o->isolated);
	o->have_nohz_full = mask_from_list(jp_get(y, "nohz_full"), &o->nohz_full);
	cpy(o->thp, sizeof(o->thp), jp_get(y, "thp"));
	o->uptime_s = dbl(jp_get(y, "uptime_s"));
}

/* "kernel_config": the options back from their words ("y", "m", "n", a value). */
static void fill_kconfig(const struct jp_value *doc, struct snapshot *s)
{
	const struct jp_value *k = jp_get(doc, "kernel_config"), *opts = jp_get(k, "options");
	struct kconfig_info *o = &s->kconf;
	const struct jp_value *looked = jp_get(k, "looked");

	o->tried = true;
	o->err = -ENOENT;
	for (size_t i = 0; i < jp_len(looked); i++) {
		size_t len = strlen(o->looked);

		snprintf(o->looked + len, sizeof(o->looked) - len, "%s%s", i ? ", " : "",
			 jp_str(jp_at(looked, i), ""));
	}
	cpy(o->problem, sizeof(o->problem), jp_get(k, "problem"));
	if (jp_is_null(opts))
		return;
	o->have = true;
	o->err = 0;
	cpy(o->source, sizeof(o->source), jp_get(k, "source"));
	for (int i = 0; i < KCONFIG_NOPTS; i++) {
		const char *v = jp_str(jp_get(opts, kconfig_names[i]), NULL);

		if (!v)
			continue;
		if (!strcmp(v, "y"))
			o->opt[i].v = KCONFIG_Y;
		else if (!strcmp(v, "m"))
			o->opt[i].v = KCONFIG_M;
		else if (!strcmp(v, "n"))
			o->opt[i].v = KCONFIG_NOT_SET;
		else {
			o->opt[i].v = KCONFIG_VALUE;
			str_copy(o->opt[i].val, sizeof(o->opt[i].val), v);
		}
	}
}

static void fill_topology(const struct jp_value *doc, struct snapshot *s)
{
	const struct jp_value *cpus = jp_get(doc, "cpus"), *t = jp_get(doc, "topology");
	struct topology *o = &s->topo;
	int n = (int)jp_len(cpus);

	o->ncpus = n;
	o->cpu = xcalloc(n ? (size_t)n : 1, sizeof(*o->cpu));
	mask_from_array(jp_get(t, "possible"), &o->possible);
	mask_from_array(jp_get(t, "present"), &o->present);
	mask_from_array(jp_get(t, "online"), &o->online);
	o->hybrid = jp_bool(jp_get(t, "hybrid"), false);
	for (int i = 0; i < n; i++) {
		const struct jp_value *c = jp_at(cpus, (size_t)i);
		struct cpu_topo *x = &o->cpu[i];

		x->id = (int)jp_int(jp_get(c, "id"), i);
		x->online = jp_bool(jp_get(c, "online"), false);
		x->present = jp_bool(jp_get(c, "present"), x->online);
		cpy(x->core_type, sizeof(x->core_type), jp_get(c, "core_type"));
		x->capacity = (int)nn(jp_get(c, "capacity"));
		x->cluster_id = (int)nn(jp_get(c, "cluster_id"));
		x->package_id = -1;
	}
}

static void fill_stat(const struct jp_value *doc, struct snapshot *s)
{
	const struct jp_value *cpus = jp_get(doc, "cpus"), *st = jp_get(doc, "stat");
	struct procstat *p = &s->stat;
	int n = (int)jp_len(cpus);

	p->ncpus = n;
	p->cpu = xcalloc(n ? (size_t)n : 1, sizeof(*p->cpu));
	p->util = xcalloc(n ? (size_t)n : 1, sizeof(*p->util));
	for (int i = 0; i < n; i++) {
		const struct jp_value *c = jp_at(cpus, (size_t)i), *u = jp_get(c, "util");
		struct cpu_util *x = &p->util[i];

		x->busy_pct = dbl(jp_get(c, "util_pct"));
		x->user_pct = dbl(jp_get(u, "user_pct"));
		x->system_pct = dbl(jp_get(u, "system_pct"));
		x->irq_pct = dbl(jp_get(u, "irq_pct"));
		x->softirq_pct = dbl(jp_get(u, "softirq_pct"));
		x->iowait_pct = dbl(jp_get(u, "iowait_pct"));
		x->steal_pct = dbl(jp_get(u, "steal_pct"));
		x->idle_pct = dbl(jp_get(u, "idle_pct"));
	}
	p->total_util.busy_pct = NAN;
	p->total_util.user_pct = p->total_util.system_pct = p->total_util.irq_pct = NAN;
	p->total_util.softirq_pct = p->total_util.iowait_pct = NAN;
	p->total_util.steal_pct = p->total_util.idle_pct = NAN;
	p->ctxt_per_s = dbl(jp_get(st, "ctxt_per_s"));
	p->intr_per_s = dbl(jp_get(st, "intr_per_s"));
	p->procs_running = (uint64_t)jp_int(jp_get(st, "procs_running"), 0);
	p->procs_blocked = (uint64_t)jp_int(jp_get(st, "procs_blocked"), 0);
}

static void names32(const struct jp_value *a, char (**out)[CPUFREQ_NAME_LEN], size_t *n)
{
	*n = jp_len(a);
	*out = NULL;
	if (!*n)
		return;
	*out = xcalloc(*n, sizeof(**out));
	for (size_t i = 0; i < *n; i++)
		cpy((*out)[i], CPUFREQ_NAME_LEN, jp_at(a, i));
}

static void fill_cpufreq(const struct jp_value *doc, struct snapshot *s)
{
	const struct jp_value *pols = jp_get(doc, "policies"), *ip = jp_get(doc, "intel_pstate");
	struct cpufreq_info *f = &s->freq;

	f->npolicies = jp_len(pols);
	f->pol = xcalloc(f->npolicies ? f->npolicies : 1, sizeof(*f->pol));
	for (size_t i = 0; i < f->npolicies; i++) {
		const struct jp_value *p = jp_at(pols, i), *tis = jp_get(p, "time_in_state_pct"),
				      *tun = jp_get(p, "tunables");
		struct cpufreq_policy *x = &f->pol[i];
		const char *name = jp_str(jp_get(p, "name"), "");

		str_copy(x->name, sizeof(x->name), name);
		x->id = (int)strtol(name + strcspn(name, "0123456789"), NULL, 10);
		mask_from_array(jp_get(p, "cpus"), &x->cpus);
		mask_from_array(jp_get(p, "affected_cpus"), &x->affected);
		cpy(x->driver, sizeof(x->driver), jp_get(p, "driver"));
		cpy(x->governor, sizeof(x->governor), jp_get(p, "governor"));
		x->cur_khz = nn(jp_get(p, "cur_khz"));
		x->min_khz = nn(jp_get(p, "min_khz"));
		x->max_khz = nn(jp_get(p, "max_khz"));
		x->hw_min_khz = nn(jp_get(p, "hw_min_khz"));
		x->hw_max_khz = nn(jp_get(p, "hw_max_khz"));
		x->hw_cur_khz = nn(jp_get(p, "hw_cur_khz"));
		x->base_khz = nn(jp_get(p, "base_khz"));
		x->transition_latency_ns = nn(jp_get(p, "transition_latency_ns"));
		x->boost = (int)nn(jp_get(p, "boost"));
		x->avail_khz = u64_array(jp_get(p, "available_khz"), &x->navail);
		names32(jp_get(p, "available_governors"), &x->avail_gov, &x->ngov);
		x->have_total_trans = !jp_is_null(jp_get(p, "total_trans"));
		x->total_trans = (uint64_t)jp_int(jp_get(p, "total_trans"), 0);
		x->transitions_per_s = dbl(jp_get(p, "transitions_per_s"));
		if (tis && tis->type == JP_OBJ) {
			x->have_stats = true;
			x->nstates = tis->n;
			x->tis_khz = xcalloc(tis->n ? tis->n : 1, sizeof(*x->tis_khz));
			x->tis_time_10ms = xcalloc(tis->n ? tis->n : 1, sizeof(*x->tis_time_10ms));
			x->tis_pct = xcalloc(tis->n ? tis->n : 1, sizeof(*x->tis_pct));
			for (size_t k = 0; k < tis->n; k++) {
				x->tis_khz[k] = strtoull(tis->k[k], NULL, 10);
				x->tis_pct[k] = dbl(&tis->v[k]);
				x->tis_time_10ms[k] = (uint64_t)jp_int(
					jp_get(jp_get(p, "time_in_state_10ms"), tis->k[k]), 0);
			}
		}
		cpy(x->tunables_gov, sizeof(x->tunables_gov), jp_get(p, "tunables_governor"));
		if (tun && tun->type == JP_OBJ && tun->n) {
			x->ntunables = tun->n;
			x->tunables = xcalloc(tun->n, sizeof(*x->tunables));
			for (size_t k = 0; k < tun->n; k++) {
				str_copy(x->tunables[k].name, sizeof(x->tunables[k].name),
					 tun->k[k]);
				cpy(x->tunables[k].value, sizeof(x->tunables[k].value), &tun->v[k]);
			}
		}
		cpy(x->epp, sizeof(x->epp), jp_get(p, "epp"));
		names32(jp_get(p, "epp_available"), &x->epp_avail, &x->nepp);
	}
	f->ncpus = s->topo.ncpus;
	f->policy_of_cpu = xcalloc(f->ncpus ? (size_t)f->ncpus : 1, sizeof(*f->policy_of_cpu));
	for (int c = 0; c < f->ncpus; c++) {
		f->policy_of_cpu[c] = -1;
		for (size_t i = 0; i < f->npolicies; i++)
			if (cpumask_test(&f->pol[i].cpus, c))
				f->policy_of_cpu[c] = (int)i;
	}
	f->boost = -1;
	f->no_turbo = f->min_perf_pct = f->max_perf_pct = -1;
	f->turbo_pct = f->num_pstates = f->hwp_dynamic_boost = -1;
	if (ip && ip->type == JP_OBJ) {
		f->have_pstate = true;
		cpy(f->pstate_status, sizeof(f->pstate_status), jp_get(ip, "status"));
		f->no_turbo = (int)nn(jp_get(ip, "no_turbo"));
		f->min_perf_pct = (int)nn(jp_get(ip, "min_perf_pct"));
		f->max_perf_pct = (int)nn(jp_get(ip, "max_perf_pct"));
		f->turbo_pct = (int)nn(jp_get(ip, "turbo_pct"));
		f->num_pstates = (int)nn(jp_get(ip, "num_pstates"));
		f->hwp_dynamic_boost = (int)nn(jp_get(ip, "hwp_dynamic_boost"));
	}
}

static void counter(const struct jp_value *v, bool *have, uint64_t *out)
{
	*have = !jp_is_null(v);
	*out = (uint64_t)jp_int(v, 0);
}

static void fill_cpuidle(const struct jp_value *doc, struct snapshot *s)
{
	const struct jp_value *cpus = jp_get(doc, "cpus"), *ci = jp_get(doc, "cpuidle"),
			      *pq = jp_get(doc, "pmqos");
	const struct jp_value *res = jp_get(pq, "resume_latency_us"),
			      *raw = jp_get(pq, "resume_latency_raw");
	struct cpuidle_info *o = &s->idle;
	int n = (int)jp_len(cpus);

	cpy(o->driver, sizeof(o->driver), jp_get(ci, "driver"));
	cpy(o->governor, sizeof(o->governor), jp_get(ci, "governor"));
	for (size_t i = 0; i < jp_len(jp_get(ci, "available_governors")); i++) {
		size_t len = strlen(o->avail_governors);

		snprintf(o->avail_governors + len, sizeof(o->avail_governors) - len, "%s%s",
			 i ? " " : "", jp_str(jp_at(jp_get(ci, "available_governors"), i), ""));
	}
	o->dma_latency_us = nn(jp_get(pq, "cpu_dma_latency_us"));
	o->ncpus = n;
	o->cpu = xcalloc(n ? (size_t)n : 1, sizeof(*o->cpu));
	for (int i = 0; i < n; i++) {
		const struct jp_value *c = jp_at(cpus, (size_t)i), *idle = jp_get(c, "idle");
		struct cpuidle_cpu *x = &o->cpu[i];
		char key[16];
		const struct jp_value *rl;

		x->cpu = i;
		x->online = jp_bool(jp_get(c, "online"), false);
		snprintf(key, sizeof(key), "%d", i);
		rl = jp_get(res, key);
		cpy(x->resume_latency, sizeof(x->resume_latency), jp_get(raw, key));
		if (rl && rl->type == JP_NUM)
			x->resume_latency_us = jp_int(rl, 0);
		else if (!strcmp(x->resume_latency, "0"))
			x->resume_latency_us = CPUIDLE_RESUME_NO_CONSTRAINT;
		else
			x->resume_latency_us = CPUIDLE_RESUME_UNREADABLE;
		x->nstates = jp_len(idle);
		if (!x->nstates)
			continue;
		x->st = xcalloc(x->nstates, sizeof(*x->st));
		for (size_t k = 0; k < x->nstates; k++) {
			const struct jp_value *j = jp_at(idle, k);
			struct cpuidle_state *st = &x->st[k];
			const char *sk = jp_str(jp_get(j, "state"), "");

			st->index = (int)strtol(sk + strcspn(sk, "0123456789"), NULL, 10);
			cpy(st->name, sizeof(st->name), jp_get(j, "name"));
			cpy(st->desc, sizeof(st->desc), jp_get(j, "desc"));
			st->latency_us = nn(jp_get(j, "latency_us"));
			st->residency_us = nn(jp_get(j, "residency_us"));
			st->disable = tri(jp_get(j, "disabled"));
			st->default_status = tri(jp_get(j, "default_enabled"));
			st->residency_pct = dbl(jp_get(j, "residency_pct"));
			st->entries_per_s = dbl(jp_get(j, "entries_per_s"));
			st->above_per_s = dbl(jp_get(j, "above_per_s"));
			st->below_per_s = dbl(jp_get(j, "below_per_s"));
			counter(jp_get(j, "usage"), &st->have_usage, &st->usage);
			counter(jp_get(j, "time_us"), &st->have_time, &st->time_us);
			counter(jp_get(j, "above"), &st->have_above, &st->above);
			counter(jp_get(j, "below"), &st->have_below, &st->below);
			counter(jp_get(j, "rejected"), &st->have_rejected, &st->rejected);
		}
	}
}

static void fill_devfreq(const struct jp_value *doc, struct snapshot *s)
{
	const struct jp_value *devs = jp_get(doc, "devfreq"), *clks = jp_get(doc, "clocks");
	struct devfreq_info *d = &s->devf;

	if (!devs)
		return;
	s->what |= SNAP_DEVFREQ;
	d->dev = jf_read_array(devs, &snap_devfreq_dev, &d->ndev);
	d->err = d->ndev ? 0 : -ENOENT;
	for (size_t i = 0; i < d->ndev; i++)
		d->dev[i].trans_partial = d->dev[i].have_trans && d->dev[i].trans_err == -EINVAL;
	d->clk = jf_read_array(clks, &snap_devfreq_clk, &d->nclk);
	d->clk_err = jf_errno_of(jp_get(doc, "clocks_error"), -ENOENT);
}

static void fill_rt(const struct jp_value *doc, struct snapshot *s)
{
	const struct jp_value *rt = jp_get(doc, "rt"), *cpus = jp_get(rt, "cpus"),
			      *fs = jp_get(rt, "fair_server");
	struct rt_info *o = &s->rt;
	int n = s->topo.ncpus;

	if (!rt || rt->type != JP_OBJ)
		return;
	s->what |= SNAP_RT;
	o->have_period = !jp_is_null(jp_get(rt, "period_us"));
	o->period_us = nn(jp_get(rt, "period_us"));
	o->have_runtime = !jp_is_null(jp_get(rt, "runtime_us"));
	o->runtime_us = jp_int(jp_get(rt, "runtime_us"), 0);
	o->period_err = o->have_period ? 0 : -ENOENT;
	o->runtime_err = o->have_runtime ? 0 : -ENOENT;
	for (size_t i = 0; i < jp_len(cpus); i++) {
		int64_t c = jp_int(jp_get(jp_at(cpus, i), "cpu"), -1);

		if (c >= n)
			n = (int)c + 1;
	}
	o->ncpu = n;
	o->cpu = xcalloc(n ? (size_t)n : 1, sizeof(*o->cpu));
	for (int c = 0; c < n; c++) {
		o->cpu[c].cpu = c;
		o->cpu[c].nr_running = o->cpu[c].throttled = o->cpu[c].dl_nr_running = -1;
		o->cpu[c].rt_time_ms = o->cpu[c].rt_runtime_ms = o->cpu[c].rt_use_pct = NAN;
		o->cpu[c].rt_time_delta_ms = NAN;
		o->cpu[c].dl_bw = o->cpu[c].dl_total_bw = -1;
	}
	for (size_t i = 0; i < jp_len(cpus); i++) {
		const struct jp_value *j = jp_at(cpus, i);
		int64_t c = jp_int(jp_get(j, "cpu"), -1);
		struct rt_cpu *x;
		double bw;

		if (c < 0 || c >= n)
			continue;
		x = &o->cpu[c];
		x->have_rt = true;
		x->nr_running = (int)nn(jp_get(j, "rt_nr_running"));
		x->throttled = (int)nn(jp_get(j, "rt_throttled"));
		x->rt_time_ms = dbl(jp_get(j, "rt_time_ms"));
		x->rt_runtime_ms = dbl(jp_get(j, "rt_runtime_ms"));
		x->rt_use_pct = dbl(jp_get(j, "rt_use_pct"));
		x->throttle_events = (int)jp_int(jp_get(j, "throttle_events"), 0);
		x->dl_nr_running = (int)nn(jp_get(j, "dl_nr_running"));
		bw = dbl(jp_get(j, "dl_total_bw_pct"));
		x->dl_total_bw = isnan(bw) ? -1 : (int64_t)llround(bw / 100.0 * (1 << 20));
		o->throttle_events += x->throttle_events;
	}
	o->debug_err = jf_errno_of(jp_get(rt, "error"), -ENOENT);
	{
		const char *src = jp_str(jp_get(rt, "source"), "");

		str_copy(o->debug_path, sizeof(o->debug_path), src[0] == '/' ? src + 1 : src);
	}
	o->fair_runtime_ns = o->fair_period_ns = -1;
	o->fair_err = -ENOENT;
	if (fs && fs->type == JP_OBJ) {
		o->fair_server = true;
		o->fair_runtime_ns = nn(jp_get(fs, "runtime_ns"));
		o->fair_period_ns = nn(jp_get(fs, "period_ns"));
		o->fair_err = jf_errno_of(jp_get(fs, "error"), -EACCES);
	}
}

static void fill_thermal(const struct jp_value *doc, struct snapshot *s)
{
	const struct jp_value *zones = jp_get(doc, "thermal"), *cool = jp_get(doc, "cooling"),
			      *hw = jp_get(doc, "hwmon");
	struct thermal_info *o = &s->therm;

	if (!zones)
		return;
	s->what |= SNAP_THERMAL;
	o->zones = jf_read_array(zones, &snap_thermal_zone, &o->nzones);
	o->zone_err = o->nzones ? 0 : -ENOENT;
	for (size_t i = 0; i < o->nzones; i++)
		o->zones[i].id = (int)jp_int(jp_get(jp_at(zones, i), "id"), (int64_t)i);
	o->cooling = jf_read_array(cool, &snap_thermal_cooling, &o->ncooling);
	for (size_t i = 0; i < o->ncooling; i++)
		o->cooling[i].id = (int)jp_int(jp_get(jp_at(cool, i), "id"), (int64_t)i);
	o->hwmon = jf_read_array(hw, &snap_thermal_hwmon, &o->nhwmon);
	o->from_libsensors = !strcmp(jp_str(jp_get(doc, "hwmon_source"), ""), "libsensors");
}

static void fill_irqs(const struct jp_value *doc, struct snapshot *s)
{
	const struct jp_value *rows = jp_get(doc, "irqs"),
			      *tot = jp_get(doc, "irq_cpu_total_per_s"),
			      *soft = jp_get(doc, "softirqs");
	struct irq_table *t = &s->irqs;
	struct softirq_table *q = &s->softirqs;
	int n = s->topo.ncpus;

	if (!rows || rows->type != JP_ARR)
		return;
	s->what |= SNAP_IRQS;
	for (size_t i = 0; i < rows->n; i++)
		if ((int)jp_len(jp_get(&rows->v[i], "counts")) > n)
			n = (int)jp_len(jp_get(&rows->v[i], "counts"));
	t->ncpus = n;
	t->n = rows->n;
	t->rows = xcalloc(t->n ? t->n : 1, sizeof(*t->rows));
	t->cpu_total = xcalloc(n ? (size_t)n : 1, sizeof(*t->cpu_total));
	t->cpu_total_per_s = xcalloc(n ? (size_t)n : 1, sizeof(*t->cpu_total_per_s));
	for (int c = 0; c < n; c++)
		t->cpu_total_per_s[c] = dbl(jp_at(tot, (size_t)c));
	for (size_t i = 0; i < t->n; i++) {
		const struct jp_value *j = &rows->v[i], *cnt = jp_get(j, "counts"),
				      *rate = jp_get(j, "rate_per_s");
		struct irq_row *x = &t->rows[i];

		cpy(x->label, sizeof(x->label), jp_get(j, "label"));
		x->irq = (int)nn(jp_get(j, "irq"));
		x->numeric = x->irq >= 0;
		cpy(x->name, sizeof(x->name), jp_get(j, "name"));
		cpy(x->chip, sizeof(x->chip), jp_get(j, "chip"));
		cpy(x->hwirq, sizeof(x->hwirq), jp_get(j, "hwirq"));
		cpy(x->trigger, sizeof(x->trigger), jp_get(j, "trigger"));
		x->rate_per_s = xcalloc(n ? (size_t)n : 1, sizeof(*x->rate_per_s));
		x->single_total = jp_is_null(cnt);
		for (int c = 0; c < n; c++) {
			const struct jp_value *v = jp_at(cnt, (size_t)c);

			x->rate_per_s[c] = dbl(jp_at(rate, (size_t)c));
			if (v && v->type == JP_NUM) {
				cpumask_set(&x->have_cpu, c);
				cpumask_set(&t->cpus, c);
				irq_set_count(x, c, (uint64_t)jp_int(v, 0));
				t->cpu_total[c] += irq_count(x, c);
			}
		}
		x->total = (uint64_t)jp_int(jp_get(j, "total"), 0);
		x->total_per_s = dbl(jp_get(j, "total_per_s"));
		x->have_affinity = mask_from_list(jp_get(j, "affinity"), &x->affinity);
		x->have_effective = mask_from_list(jp_get(j, "effective"), &x->effective);
		x->percpu = jp_bool(jp_get(j, "percpu"), false);
		x->movable = jp_bool(jp_get(j, "movable"), false);
		/* a recording says only movable or not: not why */
		x->move = x->percpu    ? IRQ_MOVE_PERCPU
			  : x->movable ? IRQ_MOVE_YES
				       : IRQ_MOVE_UNKNOWN;
		x->managed = jp_bool(jp_get(j, "managed"), false);
	}
	if (!soft || soft->type != JP_OBJ)
		return;
	q->ncpus = n;
	q->n = soft->n;
	q->rows = xcalloc(q->n ? q->n : 1, sizeof(*q->rows));
	for (size_t i = 0; i < q->n; i++) {
		const struct jp_value *j = &soft->v[i], *rate = jp_get(j, "rate_per_s");
		struct softirq_row *x = &q->rows[i];

		str_copy(x->name, sizeof(x->name), soft->k[i]);
		x->rate_per_s = xcalloc(n ? (size_t)n : 1, sizeof(*x->rate_per_s));
		for (int c = 0; c < n; c++) {
			x->rate_per_s[c] = dbl(jp_at(rate, (size_t)c));
			if (c < (int)jp_len(rate))
				cpumask_set(&x->have_cpu, c);
		}
		x->total = (uint64_t)jp_int(jp_get(j, "total"), 0);
		x->total_per_s = dbl(jp_get(j, "total_per_s"));
	}
	q->cpus = t->cpus;
}

static void fill_remoteproc(const struct jp_value *doc, struct snapshot *s)
{
	const struct jp_value *rp = jp_get(doc, "remoteproc"), *ch = jp_get(doc, "rpmsg");
	struct remoteproc_info *o = &s->rproc;

	if (!rp || rp->type != JP_ARR)
		return;
	s->what |= SNAP_REMOTEPROC;
	o->p = jf_read_array(rp, &snap_rproc, &o->nproc);
	o->ch = jf_read_array(ch, &snap_rpmsg, &o->nchan);
}

static void fill_accel(const struct jp_value *doc, struct snapshot *s)
{
	const struct jp_value *a = jp_get(doc, "accel"), *l, *dv;
	struct accel_info *o = &s->accel;

	if (!a || a->type != JP_OBJ)
		return;
	memset(o, 0, sizeof(*o));
	for (int i = 0; i < ACCEL_MAX_CORES; i++)
		o->core_pct[i] = -1;
	l = jp_get(a, "npu_load_pct");
	if (l && l->type == JP_ARR) {
		o->have_npu_load = true;
		for (size_t i = 0; i < jp_len(l) && i < ACCEL_MAX_CORES; i++)
			o->core_pct[o->ncores++] = (int)nn(jp_at(l, i));
	} else {
		o->npu_err = jf_errno_of(jp_get(a, "npu_load_error"), -EINVAL);
	}
	cpy(o->version, sizeof(o->version), jp_get(a, "driver_version"));
	cpy(o->version_src, sizeof(o->version_src), jp_get(a, "version_file"));
	dv = jp_get(a, "devices");
	for (size_t i = 0; i < jp_len(dv) && o->ndev < ACCEL_MAX_DEV; i++)
		jf_read(jp_at(dv, i), &snap_accel_dev, &o->dev[o->ndev++]);
}

static void fill_power(const struct jp_value *doc, struct snapshot *s)
{
	const struct jp_value *p = jp_get(doc, "power");
	struct power_info *o = &s->power;

	if (!p || p->type != JP_ARR)
		return;
	s->what |= SNAP_POWER;
	o->s = jf_read_array(p, &snap_power, &o->n);
}

int replay_snapshot_from_json(const struct jp_value *doc, struct snapshot *out)
{
	memset(out, 0, sizeof(*out));
	out->dt_s = NAN;
	if (!doc || doc->type != JP_OBJ || !jp_get(doc, "cpus"))
		return -EINVAL;
	out->what = SNAP_CORE;
	out->time_ns = (uint64_t)jp_int(jp_get(doc, "time_ns"), 0);
	out->mono_ns = out->time_ns;
	fill_topology(doc, out);
	fill_system(doc, out);
	fill_kconfig(doc, out);
	fill_stat(doc, out);
	fill_cpufreq(doc, out);
	fill_cpuidle(doc, out);
	fill_devfreq(doc, out);
	fill_accel(doc, out);
	fill_power(doc, out);
	fill_rt(doc, out);
	fill_thermal(doc, out);
	fill_irqs(doc, out);
	fill_remoteproc(doc, out);
	return 0;
}

/* ---- the file ------------------------------------------------------------------- */

static void add_event(struct replay *r, const struct jp_value *j, uint64_t t)
{
	struct replay_event *e;

	r->events = xgrow(r->events, &r->capevents, r->nevents + 1, sizeof(*r->events));
	e = &r->events[r->nevents++];
	memset(e, 0, sizeof(*e));
	e->t_ns = t;
	e->after_sample = r->nsamples ? r->nsamples - 1 : SIZE_MAX;
	cpy(e->kind, sizeof(e->kind), jp_get(j, "kind"));
	cpy(e->addr, sizeof(e->addr), jp_get(j, "addr"));
	cpy(e->old_value, sizeof(e->old_value), jp_get(j, "old"));
	cpy(e->new_value, sizeof(e->new_value), jp_get(j, "new"));
	cpy(e->state, sizeof(e->state), jp_get(j, "state"));
	cpy(e->text, sizeof(e->text), jp_get(j, "text"));
	/* The journal's time is when the change was made; an undo is seen
	 * when the recorder polled. */
	e->at_ns = (uint64_t)jp_int(jp_get(j, "journal_time_ns"), 0);
	if (!e->at_ns || !strcmp(e->state, "undone"))
		e->at_ns = t;
}

static void add_probe(struct replay *r, const struct jp_value *j, uint64_t t)
{
	struct replay_probe *p;
	const struct jp_value *b = jp_get(j, "buckets");

	r->probes = xgrow(r->probes, &r->capprobes, r->nprobes + 1, sizeof(*r->probes));
	p = &r->probes[r->nprobes++];
	memset(p, 0, sizeof(*p));
	p->t_ns = t;
	p->after_sample = r->nsamples ? r->nsamples - 1 : SIZE_MAX;
	cpy(p->cpus, sizeof(p->cpus), jp_get(j, "cpus"));
	p->interval_us = (uint64_t)jp_int(jp_get(j, "interval_us"), 0);
	p->samples = (uint64_t)jp_int(jp_get(j, "samples"), 0);
	p->overflows = (uint64_t)jp_int(jp_get(j, "overflows"), 0);
	p->min_us = dbl(jp_get(j, "min_us"));
	p->mean_us = dbl(jp_get(j, "mean_us"));
	p->p50_us = dbl(jp_get(j, "p50_us"));
	p->p99_us = dbl(jp_get(j, "p99_us"));
	p->max_us = dbl(jp_get(j, "max_us"));
	p->nbuckets = jp_len(b);
	if (p->nbuckets) {
		p->buckets = xcalloc(p->nbuckets, sizeof(*p->buckets));
		for (size_t i = 0; i < p->nbuckets; i++) {
			p->buckets[i][0] = (uint64_t)jp_int(jp_at(jp_at(b, i), 0), 0);
			p->buckets[i][1] = (uint64_t)jp_int(jp_at(jp_at(b, i), 1), 0);
		}
	}
}

static char *long_line(const char *path, size_t lineno)
{
	return xasprintf("%s:%zu: a line longer than " REPLAY_LINE_MAX_TEXT
			 " (decompressed): not a tunetop recording",
			 path, lineno);
}

/* Index r->text (owned by r); frees r on error. */
static int index_text(struct replay **out, struct replay *r, const char *path, char **cause)
{
	size_t off = 0, lineno = 0;
	bool have_header = false;

	while (off < r->len) {
		const char *nl = memchr(r->text + off, '\n', r->len - off);
		size_t len = nl ? (size_t)(nl - (r->text + off)) : r->len - off;
		struct jp_value j;
		char err[160];
		const char *type;
		uint64_t t;

		lineno++;
		if (!len) {
			off += 1;
			continue;
		}
		if (len > REPLAY_LINE_MAX) {
			if (cause)
				*cause = long_line(path, lineno);
			replay_close(r);
			return -EFBIG;
		}
		if (jp_parse(r->text + off, len, &j, err, sizeof(err)) != 0) {
			if (!have_header) {
				if (cause)
					*cause = xasprintf("%s:%zu: not a tunetop recording (%s)",
							   path, lineno, err);
				replay_close(r);
				return -EINVAL;
			}
			r->skipped++; /* a torn last line after a crash */
			off += len + (nl ? 1 : 0);
			continue;
		}
		type = jp_str(jp_get(&j, "type"), "");
		t = (uint64_t)jp_int(jp_get(&j, "t_ns"), 0);
		if (!have_header) {
			if (strcmp(type, "header") ||
			    strcmp(jp_str(jp_get(&j, "format"), ""), RECORD_FORMAT)) {
				if (cause)
					*cause = xasprintf(
						"%s:%zu: not a tunetop recording (no header line)",
						path, lineno);
				jp_free(&j);
				replay_close(r);
				return -EINVAL;
			}
			have_header = true;
			r->hdr.version = (int)jp_int(jp_get(&j, "version"), 0);
			cpy(r->hdr.tunetop, sizeof(r->hdr.tunetop), jp_get(&j, "tunetop"));
			cpy(r->hdr.source, sizeof(r->hdr.source), jp_get(&j, "source"));
			cpy(r->hdr.root, sizeof(r->hdr.root), jp_get(&j, "root"));
			cpy(r->hdr.board, sizeof(r->hdr.board), jp_get(&j, "board"));
			r->hdr.interval_ms = dbl(jp_get(&j, "interval_ms"));
			r->hdr.simulated = jp_bool(jp_get(&j, "simulated"), false);
			r->hdr.start_ns = (uint64_t)jp_int(jp_get(&j, "start_ns"), 0);
		} else if (!strcmp(type, "sample")) {
			r->samples = xgrow(r->samples, &r->capsamples, r->nsamples + 1,
					   sizeof(*r->samples));
			r->samples[r->nsamples++] = (struct line){off, len, t};
		} else if (!strcmp(type, "event")) {
			add_event(r, &j, t);
		} else if (!strcmp(type, "probe")) {
			add_probe(r, &j, t);
		} else if (!strcmp(type, "end")) {
			r->hdr.complete = true;
		} else {
			r->skipped++;
		}
		jp_free(&j);
		off += len + (nl ? 1 : 0);
	}
	if (!have_header) {
		if (cause)
			*cause = xasprintf("%s: empty file, not a tunetop recording", path);
		replay_close(r);
		return -EINVAL;
	}
	*out = r;
	return 0;
}

char *replay_no_zstd_cause(const char *path)
{
	return xasprintf("%s: a zstd-compressed recording, and this tunetop was built without "
			 "libzstd: decompress it with `zstd -d %s -o %s.jsonl`",
			 path, path, path);
}

/* If r->text is a zstd stream, replace it with its JSON lines: 0 (also for
 * plain text, left as it is), or -errno with *cause. Frames follow each
 * other; a stream cut short (a killed run) gives what was decoded, its torn
 * last line then skipped like a plain file's. The whole text is kept in
 * memory, as for a plain recording. */
static int unzstd(struct replay *r, const char *path, uint64_t max, char **cause)
{
#ifdef HAVE_ZSTD
	ZSTD_DCtx *dc;
	ZSTD_inBuffer ib;
	char *outb = NULL;
	size_t cap = 0, len = 0, ret, line_start = 0, lineno = 1;
	int e = 0;
#endif

	if (!record_is_zstd(r->text, r->len))
		return 0;
#ifndef HAVE_ZSTD
	(void)max;
	if (cause)
		*cause = replay_no_zstd_cause(path);
	return -ENOTSUP;
#else
	dc = ZSTD_createDCtx();
	if (!dc) {
		if (cause)
			*cause = xasprintf("%s: cannot start the zstd decoder", path);
		return -ENOMEM;
	}
	ib = (ZSTD_inBuffer){r->text, r->len, 0};
	/* a bomb (a small file of one huge line) stops here, not at max */
	if ((uint64_t)r->len * REPLAY_RATIO_MAX > REPLAY_RATIO_FLOOR &&
	    (uint64_t)r->len * REPLAY_RATIO_MAX < max)
		max = (uint64_t)r->len * REPLAY_RATIO_MAX;
	else if ((uint64_t)r->len * REPLAY_RATIO_MAX <= REPLAY_RATIO_FLOOR &&
		 REPLAY_RATIO_FLOOR < max)
		max = REPLAY_RATIO_FLOOR;
	for (;;) {
		ZSTD_outBuffer ob;
		size_t from = len;

		if (cap - len < ZSTD_DStreamOutSize()) {
			cap = cap ? cap * 2 : r->len * 8 + ZSTD_DStreamOutSize();
			outb = xrealloc(outb, cap + 1);
		}
		ob = (ZSTD_outBuffer){outb, cap, len};
		ret = ZSTD_decompressStream(dc, &ob, &ib);
		len = ob.pos;
		for (const char *nl; from < len && (nl = memchr(outb + from, '\n', len - from));
		     lineno++) {
			line_start = (size_t)(nl - outb) + 1;
			from = line_start;
		}
		if (len - line_start > REPLAY_LINE_MAX) {
			if (cause)
				*cause = long_line(path, lineno);
			e = -EFBIG;
			break;
		}
		if (ZSTD_isError(ret)) {
			/* corrupt: keep the lines decoded before it, if any */
			if (!len) {
				if (cause)
					*cause = xasprintf("%s: zstd-compressed, but not readable "
							   "(%s): not a tunetop recording",
							   path, ZSTD_getErrorName(ret));
				e = -EINVAL;
			} else {
				r->skipped++;
			}
			break;
		}
		if (len > max) {
			if (cause)
				*cause = xasprintf("%s: decompresses to more than %llu MiB "
						   "(%u times its size at most)",
						   path, (unsigned long long)(max >> 20),
						   REPLAY_RATIO_MAX);
			e = -EFBIG;
			break;
		}
		/* all input taken and all its output out (the last frame may
		   be cut short: ret > 0 then, a killed run) */
		if (ib.pos == ib.size && ob.pos < ob.size)
			break;
	}
	ZSTD_freeDCtx(dc);
	if (e) {
		free(outb);
		return e;
	}
	if (!outb)
		outb = xmalloc(1);
	outb[len] = '\0';
	free(r->text);
	r->text = outb;
	r->len = len;
	return 0;
#endif
}

int replay_open(struct replay **out, const char *path, char **cause)
{
	struct replay *r = xcalloc(1, sizeof(*r));
	int e;

	*out = NULL;
	/* never blocks on a FIFO; a regular file of at most 4 GiB */
	e = userfile_read(path, 0, USERFILE_MAX_RECORD, &r->text, &r->len);
	if (e) {
		if (cause)
			*cause = xasprintf("%s: %s", path,
					   userfile_strerror(e, USERFILE_MAX_RECORD));
		free(r);
		return e;
	}
	e = unzstd(r, path, USERFILE_MAX_RECORD, cause);
	if (e) {
		replay_close(r);
		return e;
	}
	return index_text(out, r, path, cause);
}

int replay_open_buf(struct replay **out, const char *text, size_t len, const char *name,
		    char **cause)
{
	struct replay *r = xcalloc(1, sizeof(*r));
	int e;

	*out = NULL;
	r->text = xmalloc(len + 1);
	if (len)
		memcpy(r->text, text, len);
	r->text[len] = '\0';
	r->len = len;
	e = unzstd(r, name, REPLAY_BUF_MAX_TEXT, cause);
	if (e) {
		replay_close(r);
		return e;
	}
	return index_text(out, r, name, cause);
}

void replay_close(struct replay *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nprobes; i++)
		free(r->probes[i].buckets);
	free(r->probes);
	free(r->events);
	free(r->samples);
	free(r->text);
	free(r);
}

const struct replay_header *replay_header(const struct replay *r)
{
	return &r->hdr;
}

size_t replay_skipped(const struct replay *r)
{
	return r->skipped;
}

size_t replay_nsamples(const struct replay *r)
{
	return r->nsamples;
}

uint64_t replay_sample_time(const struct replay *r, size_t i)
{
	return i < r->nsamples ? r->samples[i].t_ns : 0;
}

int replay_sample_json(const struct replay *r, size_t i, struct jp_value *out)
{
	memset(out, 0, sizeof(*out));
	if (i >= r->nsamples)
		return -ERANGE;
	return jp_parse(r->text + r->samples[i].off, r->samples[i].len, out, NULL, 0);
}

int replay_sample(const struct replay *r, size_t i, struct snapshot *out)
{
	struct jp_value j;
	int e;

	memset(out, 0, sizeof(*out));
	e = replay_sample_json(r, i, &j);
	if (e)
		return e;
	e = replay_snapshot_from_json(jp_get(&j, "snapshot"), out);
	if (!e) {
		out->time_ns = r->samples[i].t_ns;
		out->mono_ns = r->samples[i].t_ns;
		if (i > 0 && r->samples[i].t_ns > r->samples[i - 1].t_ns)
			out->dt_s = (double)(r->samples[i].t_ns - r->samples[i - 1].t_ns) / 1e9;
	}
	jp_free(&j);
	return e;
}

int replay_findings(const struct replay *r, size_t i, struct finding_list *out)
{
	struct jp_value j;
	const struct jp_value *fs;
	int e = replay_sample_json(r, i, &j);

	if (e)
		return e;
	fs = jp_path(&j, "snapshot.findings");
	for (size_t k = 0; k < jp_len(fs); k++) {
		out->v = xgrow(out->v, &out->cap, out->n + 1, sizeof(*out->v));
		memset(&out->v[out->n], 0, sizeof(*out->v));
		jf_read(jp_at(fs, k), &snap_finding, &out->v[out->n++]);
	}
	jp_free(&j);
	return 0;
}

size_t replay_seek(const struct replay *r, uint64_t t_ns)
{
	size_t lo = 0, hi = r->nsamples;

	/* first sample later than t_ns, minus one */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->samples[mid].t_ns <= t_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

size_t replay_step(const struct replay *r, size_t i, long delta)
{
	if (!r->nsamples)
		return 0;
	if (i >= r->nsamples)
		i = r->nsamples - 1;
	if (delta < 0)
		return (size_t)-delta > i ? 0 : i - (size_t)-delta;
	if ((size_t)delta >= r->nsamples - 1 - i)
		return r->nsamples - 1;
	return i + (size_t)delta;
}

size_t replay_nevents(const struct replay *r)
{
	return r->nevents;
}

const struct replay_event *replay_event(const struct replay *r, size_t i)
{
	return i < r->nevents ? &r->events[i] : NULL;
}

size_t replay_nprobes(const struct replay *r)
{
	return r->nprobes;
}

const struct replay_probe *replay_probe_at(const struct replay *r, size_t i)
{
	return i < r->nprobes ? &r->probes[i] : NULL;
}
