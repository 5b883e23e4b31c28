/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RT bandwidth (sched_rt_period_us / sched_rt_runtime_us), per-CPU rt_rq and
 * dl_rq state parsed from the scheduler debug file, and the fair server
 * parameters. Owns the sched debug parser and the throttle-event counting
 * between samples. Reading the debug file is plain open/read/close; on big
 * machines it is the largest file tunetop reads per sample. */
#include "source/rt.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"
#include "core/str.h"
#include "core/xalloc.h"

static const char *const debug_paths[] = {"sys/kernel/debug/sched/debug", "proc/sched_debug"};

static void cpu_init(struct rt_cpu *c, int id)
{
	memset(c, 0, sizeof(*c));
	c->cpu = id;
	c->nr_running = c->throttled = -1;
	c->rt_time_ms = c->rt_runtime_ms = c->rt_use_pct = NAN;
	c->dl_nr_running = -1;
	c->dl_bw = c->dl_total_bw = -1;
	c->rt_time_delta_ms = NAN;
}

static void ensure_cpus(struct rt_info *rt, int n)
{
	if (n <= rt->ncpu)
		return;
	rt->cpu = xrealloc(rt->cpu, (size_t)n * sizeof(*rt->cpu));
	for (int i = rt->ncpu; i < n; i++)
		cpu_init(&rt->cpu[i], i);
	rt->ncpu = n;
}

enum sec { SEC_NONE, SEC_RT, SEC_DL };

/* "rt_rq[3]:/path" -> cpu 3, *path "/path". Returns false when the line is
 * not such a header. */
static bool parse_rq_header(char *line, const char *prefix, int *cpu, char **path)
{
	size_t n = strlen(prefix);
	char *end;
	long v;

	if (strncmp(line, prefix, n) || line[n] != '[')
		return false;
	v = strtol(line + n + 1, &end, 10);
	if (end == line + n + 1 || *end != ']' || end[1] != ':' || v < 0 || v >= TT_MAX_CPUS)
		return false;
	*cpu = (int)v;
	*path = end + 2;
	return true;
}

/* The fields of the rt_rq and dl_rq blocks that are read, by section and
 * key: where each goes and as what. */
enum ftype { F_INT, F_I64, F_DOUBLE };
static const struct rt_field {
	enum sec sec;
	const char *key;
	enum ftype type;
	size_t off;
} rt_fields[] = {
	{SEC_RT, "rt_nr_running", F_INT, offsetof(struct rt_cpu, nr_running)},
	{SEC_RT, "rt_throttled", F_INT, offsetof(struct rt_cpu, throttled)},
	{SEC_RT, "rt_time", F_DOUBLE, offsetof(struct rt_cpu, rt_time_ms)},
	{SEC_RT, "rt_runtime", F_DOUBLE, offsetof(struct rt_cpu, rt_runtime_ms)},
	{SEC_DL, "dl_nr_running", F_INT, offsetof(struct rt_cpu, dl_nr_running)},
	{SEC_DL, "dl_bw->bw", F_I64, offsetof(struct rt_cpu, dl_bw)},
	{SEC_DL, "dl_bw->total_bw", F_I64, offsetof(struct rt_cpu, dl_total_bw)},
};

/* A value that does not parse leaves the field as it was (n/a). */
static void set_field(struct rt_cpu *c, enum sec sec, const char *key, const char *val)
{
	for (size_t i = 0; i < sizeof(rt_fields) / sizeof(rt_fields[0]); i++) {
		const struct rt_field *f = &rt_fields[i];
		char *dst = (char *)c + f->off;
		int iv;
		int64_t lv;
		double dv;

		if (f->sec != sec || strcmp(f->key, key))
			continue;
		if (f->type == F_INT && str_to_int(val, &iv) == 0)
			memcpy(dst, &iv, sizeof(iv));
		else if (f->type == F_I64 && str_to_i64(val, &lv) == 0)
			memcpy(dst, &lv, sizeof(lv));
		else if (f->type == F_DOUBLE && str_to_double(val, &dv) == 0)
			memcpy(dst, &dv, sizeof(dv));
		return;
	}
}

int rt_parse_sched_debug(const char *text, struct rt_info *out)
{
	char *copy, *line, *save = NULL;
	enum sec sec = SEC_NONE;
	int cpu = -1, nblocks = 0;

	if (!text)
		return -EINVAL;
	copy = xstrdup(text);
	/* A last line without '\n' was cut off: its value cannot be trusted. */
	line = strrchr(copy, '\n');
	if (line)
		line[1] = '\0';
	else
		copy[0] = '\0';
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *t = str_trim(line), *colon, *key, *path;

		if (!*t)
			continue;
		if (parse_rq_header(t, "rt_rq", &cpu, &path)) {
			/* Only the root group: plain "rt_rq[N]:" or "rt_rq[N]:/". */
			path = str_trim(path);
			if (!*path || !strcmp(path, "/")) {
				sec = SEC_RT;
				ensure_cpus(out, cpu + 1);
				out->cpu[cpu].have_rt = true;
				nblocks++;
			} else {
				sec = SEC_NONE;
			}
			continue;
		}
		if (parse_rq_header(t, "dl_rq", &cpu, &path)) {
			sec = SEC_DL;
			ensure_cpus(out, cpu + 1);
			continue;
		}
		if (*t != '.') {
			/* Any other header ("cpu#1", "cfs_rq[1]:/", "runnable
			 * tasks:") ends the block. */
			sec = SEC_NONE;
			continue;
		}
		if (sec == SEC_NONE)
			continue;
		colon = strchr(t, ':');
		if (!colon)
			continue;
		*colon = '\0';
		key = str_trim(t + 1);
		set_field(&out->cpu[cpu], sec, key, str_trim(colon + 1));
	}
	free(copy);
	for (int c = 0; c < out->ncpu; c++) {
		struct rt_cpu *rc = &out->cpu[c];

		if (!isnan(rc->rt_time_ms) && rc->rt_runtime_ms > 0)
			rc->rt_use_pct = 100.0 * rc->rt_time_ms / rc->rt_runtime_ms;
	}
	return nblocks ? 0 : -ENODATA;
}

static void read_debug(const struct sysroot *r, struct rt_info *out)
{
	int first_err = 0;

	out->debug_err = -ENOENT;
	out->debug_path[0] = '\0';
	for (size_t i = 0; i < sizeof(debug_paths) / sizeof(debug_paths[0]); i++) {
		char *text = NULL;
		int e = sysfs_read_alloc(r, debug_paths[i], &text, NULL);

		if (e == -ENOENT || e == -ENOTDIR) {
			if (!first_err)
				first_err = -ENOENT;
			continue;
		}
		snprintf(out->debug_path, sizeof(out->debug_path), "%s", debug_paths[i]);
		if (e) {
			/* -EACCES on sys/kernel/debug (root only) or -EPERM
			 * under lockdown: keep looking, but remember it. */
			if (!first_err || first_err == -ENOENT)
				first_err = e;
			continue;
		}
		out->debug_err = rt_parse_sched_debug(text, out);
		free(text);
		return;
	}
	/* Neither was readable: report the more telling reason and its path. */
	out->debug_err = first_err ? first_err : -ENOENT;
	if (out->debug_err == -ENOENT)
		out->debug_path[0] = '\0';
	else if (!out->debug_path[0])
		snprintf(out->debug_path, sizeof(out->debug_path), "%s", debug_paths[0]);
}

static void read_fair_server(const struct sysroot *r, struct rt_info *out)
{
	struct sysfs_list l;
	const char *cpu = NULL;
	int e;

	out->fair_runtime_ns = out->fair_period_ns = -1;
	e = sysfs_list(r, "sys/kernel/debug/sched/fair_server", &l);
	if (e) {
		out->fair_server = false;
		out->fair_err = e == -ENOTDIR ? -ENOENT : e;
		return;
	}
	out->fair_server = true;
	for (size_t i = 0; i < l.n && !cpu; i++)
		if (str_starts(l.names[i], "cpu"))
			cpu = l.names[i];
	if (!cpu) {
		out->fair_err = -ENODATA;
	} else {
		int e1 = sysfs_read_i64f(r, &out->fair_runtime_ns,
					 "sys/kernel/debug/sched/fair_server/%s/runtime", cpu);
		int e2 = sysfs_read_i64f(r, &out->fair_period_ns,
					 "sys/kernel/debug/sched/fair_server/%s/period", cpu);

		if (e1)
			out->fair_runtime_ns = -1;
		if (e2)
			out->fair_period_ns = -1;
		out->fair_err = e1 ? e1 : e2;
	}
	sysfs_list_free(&l);
}

int rt_read(const struct sysroot *r, int ncpus, struct rt_info *out)
{
	memset(out, 0, sizeof(*out));
	out->period_us = out->runtime_us = -1;
	out->period_err = sysfs_read_i64(r, "proc/sys/kernel/sched_rt_period_us", &out->period_us);
	out->have_period = out->period_err == 0;
	if (!out->have_period)
		out->period_us = -1;
	out->runtime_err =
		sysfs_read_i64(r, "proc/sys/kernel/sched_rt_runtime_us", &out->runtime_us);
	out->have_runtime = out->runtime_err == 0;
	if (!out->have_runtime)
		out->runtime_us = -1;
	if (ncpus > TT_MAX_CPUS)
		ncpus = TT_MAX_CPUS;
	ensure_cpus(out, ncpus > 0 ? ncpus : 0);
	read_debug(r, out);
	read_fair_server(r, out);
	return 0;
}

double rt_share_pct(const struct rt_info *rt)
{
	if (!rt->have_period || !rt->have_runtime || rt->runtime_us < 0 || rt->period_us <= 0)
		return NAN;
	return 100.0 * (double)rt->runtime_us / (double)rt->period_us;
}

void rt_derive(struct rt_info *cur, const struct rt_info *prev, double dt_s)
{
	(void)dt_s;
	cur->throttle_events = 0;
	for (int c = 0; c < cur->ncpu; c++) {
		struct rt_cpu *rc = &cur->cpu[c];
		const struct rt_cpu *pc = prev && c < prev->ncpu ? &prev->cpu[c] : NULL;

		rc->rt_time_delta_ms = NAN;
		rc->throttle_events = pc ? pc->throttle_events : 0;
		if (pc && !isnan(rc->rt_time_ms) && !isnan(pc->rt_time_ms))
			rc->rt_time_delta_ms = rc->rt_time_ms - pc->rt_time_ms;
		if (pc && pc->throttled == 0 && rc->throttled == 1)
			rc->throttle_events++;
		cur->throttle_events += rc->throttle_events;
	}
}

void rt_free(struct rt_info *rt)
{
	free(rt->cpu);
	rt->cpu = NULL;
	rt->ncpu = 0;
}
