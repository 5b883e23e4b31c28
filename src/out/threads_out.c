/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Thread section of the JSON snapshot and of the text output. */
#include "out/threads_out.h"

#include <stdio.h>

#include "out/fmt.h"

static bool interesting(const struct thread_table *tab, const struct thread_info *t)
{
	return threads_is_rt(t) || threads_is_pinned(tab, t);
}

void out_threads_json(struct jw *w, const struct thread_table *tab, bool only_interesting)
{
	jw_arr_begin(w, "threads");
	for (size_t i = 0; i < tab->n; i++) {
		const struct thread_info *t = &tab->t[i];
		char st[2] = {t->state, '\0'};

		if (only_interesting && !interesting(tab, t))
			continue;
		jw_obj_begin(w, NULL);
		jw_int(w, "pid", t->pid);
		jw_int(w, "tid", t->tid);
		jw_str(w, "comm", t->comm);
		jw_str_nz(w, "state", st);
		jw_bool(w, "kernel", t->kernel);
		jw_str(w, "policy", t->policy < 0 ? NULL : threads_policy_name(t->policy));
		jw_int(w, "rt_prio", t->rt_prio);
		jw_int(w, "nice", t->nice);
		jw_int_nn(w, "uclamp_min", t->uclamp_min);
		jw_int_nn(w, "uclamp_max", t->uclamp_max);
		jw_cpulist(w, "affinity", t->have_affinity, &t->affinity);
		jw_int_nn(w, "last_cpu", t->last_cpu);
		jw_bool(w, "rt", threads_is_rt(t));
		jw_bool(w, "pinned", threads_is_pinned(tab, t));
		jw_uint(w, "start_time_ticks", t->start_time);
		jw_uint(w, "utime_ticks", t->utime);
		jw_uint(w, "stime_ticks", t->stime);
		jw_uint(w, "vol_ctxt", t->vol_ctxt);
		jw_uint(w, "nonvol_ctxt", t->nonvol_ctxt);
		jw_uint_have(w, "nr_migrations", t->have_migrations, t->nr_migrations);
		jw_uint(w, "vmlck_kb", t->vmlck_kb);
		jw_double(w, "cpu_pct", t->cpu_pct, 1);
		jw_double(w, "migrations_per_s", t->migrations_per_s, 1);
		jw_double(w, "vol_per_s", t->vol_per_s, 1);
		jw_double(w, "invol_per_s", t->invol_per_s, 1);
		jw_str_nz(w, "wchan", t->have_wait ? t->wchan : NULL);
		jw_int_nn(w, "syscall", t->have_wait ? t->syscall_nr : -1);
		jw_bool(w, "in_ioctl", t->in_ioctl);
		jw_str_nz(w, "wait_dev", t->wait_dev);
		jw_str_nz(w, "accel", t->accel);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

void out_threads_text(struct sbuf *b, const struct thread_table *tab, bool only_interesting)
{
	char aff[256], uc[32];

	sbuf_printf(b, "%7s %7s %-16s %s %-8s %3s %4s %-9s %-9s %3s %6s %7s %7s %7s %8s\n", "PID",
		    "TID", "COMM", "S", "POLICY", "PRI", "NICE", "UCLAMP", "AFFINITY", "CPU",
		    "CPU%", "MIG/s", "VCSW/s", "ICSW/s", "VMLCK_KB");
	for (size_t i = 0; i < tab->n; i++) {
		const struct thread_info *t = &tab->t[i];

		if (only_interesting && !interesting(tab, t))
			continue;
		if (t->have_affinity)
			cpulist_format(&t->affinity, aff, sizeof(aff));
		else
			snprintf(aff, sizeof(aff), "n/a");
		if (t->uclamp_min >= 0 && t->uclamp_max >= 0)
			snprintf(uc, sizeof(uc), "%d-%d", t->uclamp_min, t->uclamp_max);
		else
			snprintf(uc, sizeof(uc), "n/a");
		sbuf_printf(b, "%7d %7d %-16s %c %-8s %3d %4d %-9s %-9s", (int)t->pid, (int)t->tid,
			    t->comm, t->state ? t->state : '?', threads_policy_label(t->policy),
			    t->rt_prio, t->nice, uc, aff);
		if (t->last_cpu >= 0)
			sbuf_printf(b, " %3d", t->last_cpu);
		else
			sbuf_printf(b, " %3s", "n/a");
		out_put_rate(b, t->cpu_pct, 6);
		out_put_rate(b, t->migrations_per_s, 7);
		out_put_rate(b, t->vol_per_s, 7);
		out_put_rate(b, t->invol_per_s, 7);
		sbuf_printf(b, " %8llu\n", (unsigned long long)t->vmlck_kb);
	}
}
