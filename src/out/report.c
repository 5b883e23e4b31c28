/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JSON document, the text report and the CSV rows. Per-source sections
 * come from <source>_out.c; this file assembles the top level and the
 * per-CPU records, which combine several sources. */
#include "out/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/schema.h"
#include "core/json.h"
#include "core/str.h"
#include "model/isolation.h"
#include "out/cpufreq_out.h"
#include "out/cpuidle_out.h"
#include "out/devfreq_out.h"
#include "out/findings_out.h"
#include "out/irqs_out.h"
#include "out/kconfig_out.h"
#include "out/perf_out.h"
#include "out/accel_out.h"
#include "out/remoteproc_out.h"
#include "out/rt_out.h"
#include "out/thermal_out.h"

/* snapshot --threads: the isolation audit over the threads and IRQs of the interval. */
static void isolation_section(struct jw *w, struct sbuf *b, const struct snapshot *s,
			      const struct report_opts *o)
{
	struct iso_report iso;
	/* the root's own threads (a --root tree's proc/); a tree without
	 * processes has none to audit */
	bool any = o->threads && o->threads->nprocs > 0;

	isolation_audit(&s->sys, &s->topo.online, (s->what & SNAP_IRQS) ? &s->irqs : NULL,
			any ? o->threads : NULL, &iso);
	if (w)
		isolation_json(w, &iso);
	if (b)
		isolation_text(b, &iso);
	isolation_free(&iso);
}

static void json_system(struct jw *w, const struct snapshot *s, const struct report_opts *o)
{
	const struct system_info *y = &s->sys;

	jw_obj_begin(w, "system");
	jw_str_nz(w, "kernel", y->kernel);
	jw_str_nz(w, "preempt", system_preempt_name(y->preempt));
	jw_str_nz(w, "preempt_note", y->preempt_note);
	jw_str_nz(w, "preempt_dynamic_mode", y->dyn_mode);
	jw_str_nz(w, "arch", y->arch);
	jw_str_nz(w, "model", y->model);
	jw_str_nz(w, "cpu_model", s->topo.cpu_model);
	jw_arr_begin(w, "compatible");
	for (size_t i = 0; i < y->ncompat; i++)
		jw_str(w, NULL, y->compat[i]);
	jw_arr_end(w);
	jw_obj_begin(w, "cmdline");
	for (int i = 0; i < SYSTEM_NPARAMS; i++) {
		if (y->param_set[i])
			jw_str(w, system_param_names[i], y->param[i]);
		else
			jw_null(w, system_param_names[i]);
	}
	jw_obj_end(w);
	jw_cpulist(w, "isolated", y->have_isolated, &y->isolated);
	jw_cpulist(w, "nohz_full", y->have_nohz_full, &y->nohz_full);
	jw_str_nz(w, "thp", y->thp);
	if (o->stable)
		jw_null(w, "uptime_s");
	else
		jw_double(w, "uptime_s", y->uptime_s, 2);
	jw_obj_end(w);
}

static void json_cpu(struct jw *w, const struct snapshot *s, int c)
{
	const struct cpu_topo *t = &s->topo.cpu[c];
	int pi = cpufreq_policy_index(&s->freq, c);
	const struct cpu_util *u = c < s->stat.ncpus ? &s->stat.util[c] : NULL;
	bool have_temp = false;
	int64_t temp = 0;

	jw_obj_begin(w, NULL);
	jw_int(w, "id", c);
	jw_bool(w, "online", t->online);
	jw_bool(w, "present", t->present);
	jw_str(w, "policy", pi >= 0 ? s->freq.pol[pi].name : NULL);
	jw_str_nz(w, "core_type", t->core_type);
	jw_int_nn(w, "capacity", t->capacity);
	jw_int_nn(w, "cluster_id", t->cluster_id);
	jw_double(w, "util_pct", u ? u->busy_pct : NAN, 1);
	jw_obj_begin(w, "util");
	jw_double(w, "user_pct", u ? u->user_pct : NAN, 1);
	jw_double(w, "system_pct", u ? u->system_pct : NAN, 1);
	jw_double(w, "irq_pct", u ? u->irq_pct : NAN, 1);
	jw_double(w, "softirq_pct", u ? u->softirq_pct : NAN, 1);
	jw_double(w, "iowait_pct", u ? u->iowait_pct : NAN, 1);
	jw_double(w, "steal_pct", u ? u->steal_pct : NAN, 1);
	jw_double(w, "idle_pct", u ? u->idle_pct : NAN, 1);
	jw_obj_end(w);
	if (pi >= 0 && t->online && s->freq.pol[pi].cur_khz >= 0)
		jw_int(w, "freq_khz", s->freq.pol[pi].cur_khz);
	else
		jw_null(w, "freq_khz");
	if (s->what & SNAP_THERMAL)
		temp = thermal_cpu_temp_mc(&s->therm, c, &have_temp);
	jw_int_have(w, "temp_mc", have_temp, temp);
	jw_bool(w, "thermal_throttled",
		(s->what & SNAP_THERMAL) && thermal_cpu_throttled(&s->therm, c));
	out_cpuidle_json_cpu(w, &s->idle, c);
	jw_obj_end(w);
}

void report_json(struct sbuf *b, const struct snapshot *s, const struct report_opts *o)
{
	struct jw w;

	jw_init(&w, b, o->pretty);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "schema", TT_SCHEMA_SNAPSHOT);
	jw_str(&w, "tunetop", PACKAGE_VERSION);
	if (o->stable)
		jw_null(&w, "time_ns");
	else
		jw_uint(&w, "time_ns", s->time_ns);
	jw_double(&w, "interval_ms", o->interval_ms, 0);
	jw_str(&w, "root", o->root_path ? o->root_path : "/");
	json_system(&w, s, o);
	out_kconfig_json(&w, &s->kconf);
	jw_obj_begin(&w, "topology");
	jw_cpus(&w, "possible", &s->topo.possible);
	jw_cpus(&w, "present", &s->topo.present);
	jw_cpus(&w, "online", &s->topo.online);
	jw_bool(&w, "hybrid", s->topo.hybrid);
	jw_obj_end(&w);
	jw_arr_begin(&w, "cpus");
	for (int c = 0; c < s->topo.ncpus; c++)
		json_cpu(&w, s, c);
	jw_arr_end(&w);
	out_cpufreq_json(&w, &s->freq, (s->what & SNAP_THERMAL) ? &s->therm : NULL);
	out_cpuidle_json(&w, &s->idle);
	out_pmqos_json(&w, &s->idle);
	if (s->what & SNAP_DEVFREQ)
		out_devfreq_json(&w, &s->devf, (s->what & SNAP_THERMAL) ? &s->therm : NULL);
	if (s->what & SNAP_DEVFREQ)
		out_accel_json(&w, &s->accel);
	if (s->what & SNAP_POWER)
		out_power_json(&w, &s->power);
	if (s->what & SNAP_RT)
		out_rt_json(&w, &s->rt);
	if (s->what & SNAP_THERMAL)
		out_thermal_json(&w, &s->therm);
	if (s->what & SNAP_IRQS) {
		out_irqs_json(&w, &s->irqs);
		out_softirqs_json(&w, &s->softirqs);
	}
	if (s->what & SNAP_REMOTEPROC)
		out_remoteproc_json(&w, &s->rproc, (s->what & SNAP_IRQS) ? &s->irqs : NULL);
	out_perf_json(&w, s->perf);
	if (o->threads)
		out_threads_json(&w, o->threads, o->threads_interesting);
	if (o->threads)
		isolation_section(&w, NULL, s, o);
	jw_obj_begin(&w, "stat");
	jw_double(&w, "ctxt_per_s", s->stat.ctxt_per_s, 1);
	jw_double(&w, "intr_per_s", s->stat.intr_per_s, 1);
	jw_uint(&w, "procs_running", s->stat.procs_running);
	jw_uint(&w, "procs_blocked", s->stat.procs_blocked);
	jw_obj_end(&w);
	out_findings_json(&w, s, o->threads, o->findings, o->findings_opts);
	if (o->have_journal && o->journal_na) {
		jw_null(&w, "journal");
	} else if (o->have_journal) {
		jw_obj_begin(&w, "journal");
		jw_uint(&w, "entries", o->journal_entries);
		jw_uint(&w, "active", o->journal_active);
		jw_uint(&w, "orphaned", o->journal_orphaned);
		jw_obj_end(&w);
	}
	jw_obj_end(&w);
	sbuf_putc(b, '\n');
}

static const char *na_pct(char *buf, size_t cap, double v)
{
	if (isnan(v))
		snprintf(buf, cap, "n/a");
	else
		snprintf(buf, cap, "%.1f%%", v);
	return buf;
}

void report_record_json(struct sbuf *b, const struct snapshot *s,
			const struct record_snapshot_args *a)
{
	struct report_opts ro = {0};

	ro.root_path = a->root_path;
	ro.interval_ms = a->interval_ms;
	ro.threads = a->threads;
	ro.threads_interesting = true;
	ro.findings = a->findings;
	ro.findings_opts = a->findings_opts;
	report_json(b, s, &ro);
	while (b->len && b->s[b->len - 1] == '\n')
		b->s[--b->len] = '\0';
}

void report_text(struct sbuf *b, const struct snapshot *s, const struct report_opts *o)
{
	const struct system_info *y = &s->sys;
	const char *pm = system_preempt_name(y->preempt);
	char b1[32], b2[32], b3[32], b4[32];

	sbuf_printf(b, "tunetop %s  root %s  interval %.0f ms\n", PACKAGE_VERSION,
		    o->root_path ? o->root_path : "/", o->interval_ms);
	sbuf_printf(b, "board    %s\n",
		    y->model[0] ? y->model : (s->topo.cpu_model[0] ? s->topo.cpu_model : "n/a"));
	if (y->ncompat)
		sbuf_printf(b, "compat   %s\n", y->compat[0]);
	sbuf_printf(b, "kernel   %s  %s%s%s%s\n", y->kernel[0] ? y->kernel : "n/a",
		    pm ? pm : "preempt n/a", pm ? "" : " (", pm ? "" : y->preempt_note,
		    pm ? "" : ")");
	{
		char iso[128] = "none", nohz[128] = "none";

		if (!y->have_isolated)
			snprintf(iso, sizeof(iso), "n/a");
		else if (!cpumask_empty(&y->isolated))
			cpulist_format(&y->isolated, iso, sizeof(iso));
		if (!y->have_nohz_full)
			snprintf(nohz, sizeof(nohz), "n/a");
		else if (!cpumask_empty(&y->nohz_full))
			cpulist_format(&y->nohz_full, nohz, sizeof(nohz));
		sbuf_printf(b, "isolated %s  nohz_full %s  thp %s\n", iso, nohz,
			    y->thp[0] ? y->thp : "n/a");
	}
	out_kconfig_text(b, &s->kconf);
	/* the type column fits the longest name: a cut name can read as
	 * another part ("ARM part 0x05" for 0x051) */
	int tw = 13;

	for (int c = 0; c < s->topo.ncpus; c++)
		if ((int)strlen(s->topo.cpu[c].core_type) > tw)
			tw = (int)strlen(s->topo.cpu[c].core_type);
	sbuf_printf(b,
		    "\nCPU  %-*s cap   cluster state   busy    user    sys     irq     freq MHz  "
		    "temp\n",
		    tw, "type");
	for (int c = 0; c < s->topo.ncpus; c++) {
		const struct cpu_topo *t = &s->topo.cpu[c];
		const struct cpu_util *u = &s->stat.util[c];
		int pi = cpufreq_policy_index(&s->freq, c);
		bool have_temp = false;
		int64_t temp = 0;
		char freq[16], tbuf[32], tc[24], cap[16], clu[16];

		if (pi >= 0 && t->online && s->freq.pol[pi].cur_khz >= 0)
			snprintf(freq, sizeof(freq), "%lld",
				 (long long)(s->freq.pol[pi].cur_khz / 1000));
		else
			snprintf(freq, sizeof(freq), "n/a");
		if (s->what & SNAP_THERMAL)
			temp = thermal_cpu_temp_mc(&s->therm, c, &have_temp);
		if (have_temp)
			snprintf(tbuf, sizeof(tbuf), "%s C", str_temp_c(tc, sizeof(tc), temp));
		else
			snprintf(tbuf, sizeof(tbuf), "n/a");
		if (t->capacity >= 0)
			snprintf(cap, sizeof(cap), "%d", t->capacity);
		else
			snprintf(cap, sizeof(cap), "n/a");
		if (t->cluster_id >= 0)
			snprintf(clu, sizeof(clu), "%d", t->cluster_id);
		else
			snprintf(clu, sizeof(clu), "n/a");
		sbuf_printf(b, "%-4d %-*s %-5s %-7s %-7s %-7s %-7s %-7s %-7s %-9s %s\n", c, tw,
			    t->core_type[0] ? t->core_type : "n/a", cap, clu,
			    t->online ? "online" : "offline",
			    t->online ? na_pct(b1, sizeof(b1), u->busy_pct) : "-",
			    t->online ? na_pct(b2, sizeof(b2), u->user_pct) : "-",
			    t->online ? na_pct(b3, sizeof(b3), u->system_pct) : "-",
			    t->online ? na_pct(b4, sizeof(b4), u->irq_pct) : "-",
			    t->online ? freq : "-", tbuf);
	}
	sbuf_putc(b, '\n');
	out_cpufreq_text(b, &s->freq, &s->topo, (s->what & SNAP_THERMAL) ? &s->therm : NULL);
	sbuf_putc(b, '\n');
	out_cpuidle_text(b, &s->idle, &s->topo);
	if (s->what & SNAP_DEVFREQ) {
		sbuf_putc(b, '\n');
		out_devfreq_text(b, &s->devf, (s->what & SNAP_THERMAL) ? &s->therm : NULL);
		if (accel_present(&s->accel)) {
			sbuf_putc(b, '\n');
			out_accel_text(b, &s->accel);
		}
	}
	if ((s->what & SNAP_POWER) && s->power.n) {
		sbuf_putc(b, '\n');
		out_power_text(b, &s->power);
	}
	if (s->what & SNAP_RT) {
		sbuf_putc(b, '\n');
		out_rt_text(b, &s->rt, s->sys.kernel);
	}
	if (s->what & SNAP_THERMAL) {
		sbuf_putc(b, '\n');
		out_thermal_text(b, &s->therm);
	}
	if ((s->what & SNAP_REMOTEPROC) && (s->rproc.nproc || s->rproc.nchan)) {
		sbuf_putc(b, '\n');
		out_remoteproc_text(b, &s->rproc, (s->what & SNAP_IRQS) ? &s->irqs : NULL);
	}
	if (s->perf) {
		sbuf_putc(b, '\n');
		out_perf_text(b, s->perf);
	}
	if ((s->what & SNAP_IRQS) && o->irqs_text) {
		sbuf_putc(b, '\n');
		out_irqs_text(b, &s->irqs);
		sbuf_putc(b, '\n');
		out_softirqs_text(b, &s->softirqs);
	}
	if (o->threads) {
		sbuf_putc(b, '\n');
		out_threads_text(b, o->threads, o->threads_interesting);
		sbuf_putc(b, '\n');
		isolation_section(NULL, b, s, o);
	}
	sbuf_putc(b, '\n');
	out_findings_text(b, s, o->threads, o->findings, o->findings_opts);
}

void report_csv_header(struct sbuf *b, const struct snapshot *s)
{
	sbuf_puts(b, "time_ns,cpu,online,core_type,policy,governor,freq_khz,util_pct,user_pct,"
		     "system_pct,"
		     "irq_pct,softirq_pct,iowait_pct,temp_mc,idle_states,idle_residency_pct");
	if (s && s->perf && s->perf->priv) {
		const char *pre = s->perf->tid > 0 ? "thread_" : "";

		for (size_t e = 0; e < s->perf->nev; e++)
			sbuf_printf(b, ",%s%s_per_s", pre, s->perf->ev_name[e]);
		sbuf_printf(b, ",%sipc,%smiss_rate_pct", pre, pre);
	}
	sbuf_putc(b, '\n');
}

static void csv_num(struct sbuf *b, double v, int dec)
{
	if (isnan(v))
		sbuf_putc(b, ',');
	else
		sbuf_printf(b, ",%.*f", dec, v);
}

/* The counter columns of CPU c's row (n/a: empty). */
static void csv_perf(struct sbuf *b, const struct perf_set *p, int c)
{
	int row = p->tid > 0 ? 0 : c;
	bool have = row < p->ncpus;

	for (size_t e = 0; e < p->nev; e++)
		csv_num(b, have ? perf_at(p, row, e)->rate_per_s : NAN, 1);
	csv_num(b, have ? p->ipc[row] : NAN, 3);
	csv_num(b, have ? p->miss_rate_pct[row] : NAN, 2);
}

void report_csv(struct sbuf *b, const struct snapshot *s, const struct report_opts *o)
{
	for (int c = 0; c < s->topo.ncpus; c++) {
		const struct cpu_topo *t = &s->topo.cpu[c];
		const struct cpu_util *u = &s->stat.util[c];
		int pi = cpufreq_policy_index(&s->freq, c);
		const struct cpufreq_policy *p = pi >= 0 ? &s->freq.pol[pi] : NULL;
		bool have_temp = false;
		int64_t temp = 0;

		if (o->stable)
			sbuf_puts(b, "0");
		else
			sbuf_printf(b, "%llu", (unsigned long long)s->time_ns);
		sbuf_printf(b, ",%d,%d,%s,%s,%s", c, t->online ? 1 : 0, t->core_type,
			    p ? p->name : "", p ? p->governor : "");
		if (p && t->online && p->cur_khz >= 0)
			sbuf_printf(b, ",%lld", (long long)p->cur_khz);
		else
			sbuf_putc(b, ',');
		csv_num(b, u->busy_pct, 1);
		csv_num(b, u->user_pct, 1);
		csv_num(b, u->system_pct, 1);
		csv_num(b, u->irq_pct, 1);
		csv_num(b, u->softirq_pct, 1);
		csv_num(b, u->iowait_pct, 1);
		if (s->what & SNAP_THERMAL)
			temp = thermal_cpu_temp_mc(&s->therm, c, &have_temp);
		if (have_temp)
			sbuf_printf(b, ",%lld", (long long)temp);
		else
			sbuf_putc(b, ',');
		/* idle states as name:residency% pairs separated by ';' */
		sbuf_putc(b, ',');
		if (c < s->idle.ncpus) {
			const struct cpuidle_cpu *ic = &s->idle.cpu[c];

			for (size_t k = 0; k < ic->nstates; k++)
				sbuf_printf(b, "%s%s", k ? ";" : "", ic->st[k].name);
			sbuf_putc(b, ',');
			for (size_t k = 0; k < ic->nstates; k++) {
				if (isnan(ic->st[k].residency_pct))
					sbuf_printf(b, "%s", k ? ";" : "");
				else
					sbuf_printf(b, "%s%.1f", k ? ";" : "",
						    ic->st[k].residency_pct);
			}
		} else {
			sbuf_putc(b, ',');
		}
		if (s->perf && s->perf->priv)
			csv_perf(b, s->perf, c);
		sbuf_putc(b, '\n');
	}
}
