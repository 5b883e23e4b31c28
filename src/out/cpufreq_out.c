/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpufreq section writers: the "policies" and "intel_pstate" keys of the
 * JSON snapshot (design §8) and the cpufreq part of the text report. They
 * only read a struct cpufreq_info; n/a is null in JSON and "n/a" in text. */
#include "out/cpufreq_out.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "out/fmt.h"

static void policy_json(struct jw *w, const struct cpufreq_policy *p, const struct thermal_info *th)
{
	jw_obj_begin(w, NULL);
	jw_str(w, "name", p->name);
	jw_cpus(w, "cpus", &p->cpus);
	jw_cpus(w, "affected_cpus", &p->affected);
	jw_str_nz(w, "driver", p->driver);
	jw_str_nz(w, "governor", p->governor);
	jw_int_nn(w, "cur_khz", p->cur_khz);
	jw_int_nn(w, "min_khz", p->min_khz);
	jw_int_nn(w, "max_khz", p->max_khz);
	jw_int_nn(w, "hw_min_khz", p->hw_min_khz);
	jw_int_nn(w, "hw_max_khz", p->hw_max_khz);
	jw_int_nn(w, "hw_cur_khz", p->hw_cur_khz);
	jw_int_nn(w, "base_khz", p->base_khz);
	jw_int_nn(w, "transition_latency_ns", p->transition_latency_ns);
	jw_int_nn(w, "boost", p->boost);
	out_freq_domain_json(w, "available_khz", p->avail_khz, p->navail,
			     (const char *)p->avail_gov, sizeof(*p->avail_gov), p->ngov,
			     p->have_total_trans, p->total_trans, p->transitions_per_s,
			     p->have_stats, p->tis_khz, p->tis_pct, p->nstates);
	if (p->have_stats) {
		/* the kernel's counters (clock_t ticks since boot): a single or
		 * replayed sample still tells where the policy spent its time */
		jw_obj_begin(w, "time_in_state_10ms");
		for (size_t i = 0; i < p->nstates; i++) {
			char key[32];

			snprintf(key, sizeof(key), "%" PRIu64, p->tis_khz[i]);
			jw_uint(w, key, p->tis_time_10ms[i]);
		}
		jw_obj_end(w);
	} else {
		jw_null(w, "time_in_state_10ms");
	}
	jw_str_nz(w, "tunables_governor", p->tunables_gov);
	if (p->tunables_gov[0]) {
		jw_obj_begin(w, "tunables");
		for (size_t i = 0; i < p->ntunables; i++)
			jw_str(w, p->tunables[i].name, p->tunables[i].value);
		jw_obj_end(w);
	} else {
		jw_null(w, "tunables");
	}
	jw_str_nz(w, "epp", p->epp);
	jw_str_list(w, "epp_available", (const char *)p->epp_avail, sizeof(*p->epp_avail), p->nepp);
	jw_bool_have(w, "thermal_capped", th != NULL, th && thermal_cpus_capped(th, &p->cpus));
	jw_obj_end(w);
}

void out_cpufreq_json(struct jw *w, const struct cpufreq_info *f, const struct thermal_info *th)
{
	jw_arr_begin(w, "policies");
	for (size_t i = 0; f && i < f->npolicies; i++)
		policy_json(w, &f->pol[i], th);
	jw_arr_end(w);
	if (!f || !f->have_pstate) {
		jw_null(w, "intel_pstate");
		return;
	}
	jw_obj_begin(w, "intel_pstate");
	jw_str_nz(w, "status", f->pstate_status);
	jw_int_nn(w, "no_turbo", f->no_turbo);
	jw_int_nn(w, "min_perf_pct", f->min_perf_pct);
	jw_int_nn(w, "max_perf_pct", f->max_perf_pct);
	jw_int_nn(w, "turbo_pct", f->turbo_pct);
	jw_int_nn(w, "num_pstates", f->num_pstates);
	jw_int_nn(w, "hwp_dynamic_boost", f->hwp_dynamic_boost);
	jw_obj_end(w);
}

/* ---- text ---------------------------------------------------------------- */

static const char *mhz(char *buf, size_t cap, int64_t khz)
{
	return out_fmt_mhz(buf, cap, khz, 1000, 1);
}

static void put_rate(struct sbuf *b, double v, const char *unit)
{
	if (isnan(v))
		sbuf_printf(b, "n/a%s", unit[0] == ' ' ? unit : ""); /* "n/a", not "n/a%" */
	else
		sbuf_printf(b, "%.1f%s", v, unit);
}

static void policy_text(struct sbuf *b, const struct cpufreq_policy *p, const struct topology *t,
			const struct thermal_info *th, bool quiet_nostats)
{
	char cpus[256], a[32], c[32], d[32];
	int first = cpumask_next(&p->cpus, 0);
	const char *type = "n/a";

	cpulist_format(&p->cpus, cpus, sizeof(cpus));
	if (t && first >= 0 && first < t->ncpus && t->cpu[first].core_type[0])
		type = t->cpu[first].core_type;
	sbuf_printf(b, "  %-8s cpus %-7s %-11s %-12s governor %-12s cur %s MHz", p->name,
		    cpus[0] ? cpus : "n/a", type, out_na(p->driver), out_na(p->governor),
		    mhz(a, sizeof(a), p->cur_khz));
	sbuf_printf(b, "  min %s  max %s MHz", mhz(a, sizeof(a), p->min_khz),
		    mhz(c, sizeof(c), p->max_khz));
	sbuf_printf(b, "  hw %s-%s MHz", mhz(a, sizeof(a), p->hw_min_khz),
		    mhz(d, sizeof(d), p->hw_max_khz));
	sbuf_puts(b, "  ");
	put_rate(b, p->transitions_per_s, " trans/s");
	if (th && thermal_cpus_capped(th, &p->cpus))
		sbuf_puts(b, "  CAPPED (thermal)");
	sbuf_putc(b, '\n');
	if (!cpumask_equal(&p->cpus, &p->affected)) {
		cpulist_format(&p->affected, cpus, sizeof(cpus));
		sbuf_printf(b, "           online cpus: %s\n", cpus[0] ? cpus : "none");
	}
	if (p->hw_cur_khz >= 0)
		sbuf_printf(b, "           hw cur %s MHz\n", mhz(a, sizeof(a), p->hw_cur_khz));
	if (p->have_stats) {
		sbuf_puts(b, "           residency");
		for (size_t i = 0; i < p->nstates; i++) {
			sbuf_printf(b, " %s:", mhz(a, sizeof(a), (int64_t)p->tis_khz[i]));
			put_rate(b, p->tis_pct ? p->tis_pct[i] : NAN, "%");
		}
		sbuf_putc(b, '\n');
	} else if (!quiet_nostats) {
		sbuf_puts(b, "           residency n/a (no stats/time_in_state)\n");
	}
	if (p->tunables_gov[0]) {
		sbuf_printf(b, "           %s%s:", p->tunables_gov,
			    p->tunables_global ? " (global)" : "");
		if (!p->ntunables)
			sbuf_puts(b, " (none)");
		for (size_t i = 0; i < p->ntunables; i++)
			sbuf_printf(b, " %s=%s", p->tunables[i].name,
				    p->tunables[i].value[0] ? p->tunables[i].value : "\"\"");
		sbuf_putc(b, '\n');
	}
	if (p->epp[0])
		sbuf_printf(b, "           epp %s\n", p->epp);
}

void out_cpufreq_text(struct sbuf *b, const struct cpufreq_info *f, const struct topology *t,
		      const struct thermal_info *th)
{
	size_t nostats = 0;

	sbuf_puts(b, "cpufreq\n");
	if (f && !f->npolicies && f->dir_refused)
		sbuf_puts(b, "  n/a (sys/devices/system/cpu/cpufreq: leaves the root (symlink), "
			     "refused)\n");
	else if (!f || !f->npolicies)
		sbuf_puts(b, "  n/a (no cpufreq policies under sys/devices/system/cpu/cpufreq)\n");
	for (size_t i = 0; f && i < f->npolicies; i++)
		nostats += !f->pol[i].have_stats;
	for (size_t i = 0; f && i < f->npolicies; i++)
		policy_text(b, &f->pol[i], t, th, nostats == f->npolicies);
	if (f && f->npolicies && nostats == f->npolicies)
		sbuf_printf(b, "  OPP residency n/a: no stats/time_in_state (driver %s)\n",
			    out_na(f->pol[0].driver));
	if (f && f->have_pstate) {
		sbuf_printf(b, "  intel_pstate status %s  no_turbo ", out_na(f->pstate_status));
		out_put_int(b, f->no_turbo);
		sbuf_puts(b, "  perf ");
		out_put_int(b, f->min_perf_pct);
		sbuf_putc(b, '-');
		out_put_int(b, f->max_perf_pct);
		sbuf_puts(b, "%\n");
	}
}
