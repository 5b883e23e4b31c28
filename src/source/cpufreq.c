/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpufreq data source. Owns everything read from
 * sys/devices/system/cpu/cpufreq/ (policyN/ and the global files), the
 * per-CPU cpuN/cpufreq/ directories of old kernels that have no policyN/,
 * and sys/devices/system/cpu/intel_pstate/. It also owns the parsers for the
 * cpufreq text formats (frequency and governor lists, stats/time_in_state,
 * stats/trans_table) and the rates derived from two reads (transitions/s,
 * % of the interval per OPP). Nothing here formats for display; see
 * src/out/cpufreq_out.c. */
#include "source/cpufreq.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"

#define CPU_DIR	    "sys/devices/system/cpu"
#define CPUFREQ_DIR CPU_DIR "/cpufreq"
#define PSTATE_DIR  CPU_DIR "/intel_pstate"
/* cpuinfo_transition_latency prints CPUFREQ_ETERNAL (-1) as %u. */
#define CPUFREQ_ETERNAL_U32 4294967295LL

static void copy_str(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ---- pure parsers -------------------------------------------------------- */

int cpufreq_parse_list(const char *text, uint64_t **vals, size_t *n)
{
	char *copy, *save = NULL, *tok;
	uint64_t *v = NULL;
	size_t cnt = 0, cap = 0;

	*vals = NULL;
	*n = 0;
	if (!text)
		return -ENODATA;
	copy = xstrdup(text);
	for (tok = strtok_r(copy, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
		uint64_t x;

		if (str_to_u64(tok, &x) != 0) {
			free(copy);
			free(v);
			return -EINVAL;
		}
		v = xgrow(v, &cap, cnt + 1, sizeof(*v));
		v[cnt++] = x;
	}
	free(copy);
	if (!cnt)
		return -ENODATA;
	*vals = v;
	*n = cnt;
	return 0;
}

int cpufreq_parse_names(const char *text, char (**names)[CPUFREQ_NAME_LEN], size_t *n)
{
	char *copy, *save = NULL, *tok;
	char(*v)[CPUFREQ_NAME_LEN] = NULL;
	size_t cnt = 0, cap = 0;

	*names = NULL;
	*n = 0;
	if (!text)
		return -ENODATA;
	copy = xstrdup(text);
	for (tok = strtok_r(copy, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
		v = xgrow(v, &cap, cnt + 1, sizeof(*v));
		copy_str(v[cnt++], CPUFREQ_NAME_LEN, tok);
	}
	free(copy);
	if (!cnt)
		return -ENODATA;
	*names = v;
	*n = cnt;
	return 0;
}

static bool blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\r')
			return false;
	return true;
}

int cpufreq_parse_time_in_state(const char *text, uint64_t **khz, uint64_t **time_10ms, size_t *n,
				size_t *nbad)
{
	char *copy, *save = NULL, *line;
	uint64_t *k = NULL, *t = NULL;
	size_t cnt = 0, capk = 0, capt = 0, bad = 0;

	*khz = NULL;
	*time_10ms = NULL;
	*n = 0;
	if (nbad)
		*nbad = 0;
	if (!text)
		return -ENODATA;
	copy = xstrdup(text);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *tok[3];
		uint64_t f, tm;

		if (blank(line))
			continue;
		if (str_split_ws(line, tok, 3) != 2 || str_to_u64(tok[0], &f) != 0 ||
		    str_to_u64(tok[1], &tm) != 0) {
			bad++;
			continue;
		}
		k = xgrow(k, &capk, cnt + 1, sizeof(*k));
		t = xgrow(t, &capt, cnt + 1, sizeof(*t));
		k[cnt] = f;
		t[cnt] = tm;
		cnt++;
	}
	free(copy);
	if (nbad)
		*nbad = bad;
	if (!cnt)
		return -ENODATA;
	*khz = k;
	*time_10ms = t;
	*n = cnt;
	return 0;
}

int cpufreq_parse_trans_table(const char *text, uint64_t **khz, uint64_t **counts, size_t *n)
{
	char *copy, *save = NULL, *line;
	uint64_t *k = NULL, *c = NULL;
	size_t nk = 0, capk = 0, rows = 0;
	int e = 0;

	*khz = NULL;
	*counts = NULL;
	*n = 0;
	if (!text)
		return -ENODATA;
	copy = xstrdup(text);
	for (line = strtok_r(copy, "\n", &save); line && !e; line = strtok_r(NULL, "\n", &save)) {
		char *p = line, *colon, *save2 = NULL, *tok;
		uint64_t x;
		size_t col = 0;

		if (blank(line))
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!k) {
			/* Before the frequency header only the "From : To" line. */
			if (*p != ':') {
				if (!strstr(p, "From"))
					e = -EINVAL;
				continue;
			}
			for (tok = strtok_r(p + 1, " \t\r", &save2); tok;
			     tok = strtok_r(NULL, " \t\r", &save2)) {
				if (str_to_u64(tok, &x) != 0) {
					e = -EINVAL;
					break;
				}
				k = xgrow(k, &capk, nk + 1, sizeof(*k));
				k[nk++] = x;
			}
			if (!e && !nk)
				e = -EINVAL;
			if (!e)
				c = xcalloc(nk * nk, sizeof(*c));
			continue;
		}
		/* "<kHz>: <count> <count> ..." in header order. */
		colon = strchr(p, ':');
		if (!colon || rows >= nk) {
			e = -EINVAL;
			break;
		}
		*colon = '\0';
		if (str_to_u64(p, &x) != 0 || x != k[rows]) {
			e = -EINVAL;
			break;
		}
		for (tok = strtok_r(colon + 1, " \t\r", &save2); tok;
		     tok = strtok_r(NULL, " \t\r", &save2)) {
			if (col >= nk || str_to_u64(tok, &x) != 0) {
				e = -EINVAL;
				break;
			}
			c[rows * nk + col++] = x;
		}
		if (!e && col != nk)
			e = -EINVAL;
		rows++;
	}
	free(copy);
	if (!e && (!nk || rows != nk))
		e = nk ? -EINVAL : -ENODATA;
	if (e) {
		free(k);
		free(c);
		return e;
	}
	*khz = k;
	*counts = c;
	*n = nk;
	return 0;
}

/* ---- reading ------------------------------------------------------------- */

static int read_int(const struct sysroot *r, const char *dir, const char *file)
{
	int64_t v = sysfs_read_nn(r, dir, file);

	return v > 0x7fffffff ? -1 : (int)v;
}

static void read_name(const struct sysroot *r, const char *dir, const char *file, char *buf,
		      size_t cap)
{
	buf[0] = '\0';
	if (sysfs_read_strf(r, buf, cap, "%s/%s", dir, file) != 0)
		buf[0] = '\0';
}

static bool read_mask(const struct sysroot *r, const char *dir, const char *file, struct cpumask *m)
{
	char buf[4096];

	cpumask_zero(m);
	if (sysfs_read_strf(r, buf, sizeof(buf), "%s/%s", dir, file) != 0)
		return false;
	/* "0 1 2 3" (cpufreq) — accept the "0-3" list syntax too. */
	if (cpulist_parse_spaces(buf, m) == 0)
		return true;
	return cpulist_parse(buf, m) == 0;
}

static char *read_text(const struct sysroot *r, const char *dir, const char *file)
{
	char path[TT_PATH_MAX];
	char *text = NULL;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (sysfs_read_alloc(r, path, &text, NULL) != 0)
		return NULL;
	return text;
}

/* Write-only tunables (reading them fails on a real kernel). */
static bool write_only_tunable(const char *name)
{
	return !strcmp(name, "boostpulse");
}

static void read_tunables_dir(const struct sysroot *r, const char *gdir, struct cpufreq_policy *p)
{
	struct sysfs_list l;
	size_t cap = 0;

	if (sysfs_list(r, gdir, &l) != 0)
		return;
	for (size_t i = 0; i < l.n; i++) {
		char path[TT_PATH_MAX], val[256];
		struct cpufreq_tunable *tu;
		int e;

		if (write_only_tunable(l.names[i]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", gdir, l.names[i]);
		if (sysfs_is_dir(r, path))
			continue;
		/* An empty file keeps an empty value; an unreadable one is skipped. */
		e = sysfs_read_str(r, path, val, sizeof(val));
		if (e == -ENODATA)
			val[0] = '\0';
		else if (e)
			continue;
		p->tunables = xgrow(p->tunables, &cap, p->ntunables + 1, sizeof(*p->tunables));
		tu = &p->tunables[p->ntunables++];
		copy_str(tu->name, sizeof(tu->name), l.names[i]);
		copy_str(tu->value, sizeof(tu->value), val);
	}
	sysfs_list_free(&l);
}

static void read_tunables(const struct sysroot *r, struct cpufreq_policy *p)
{
	char gdir[TT_PATH_MAX];

	if (!p->governor[0])
		return;
	snprintf(gdir, sizeof(gdir), "%s/%s", p->dir, p->governor);
	if (!sysfs_is_dir(r, gdir)) {
		snprintf(gdir, sizeof(gdir), "%s/%s", CPUFREQ_DIR, p->governor);
		if (!sysfs_is_dir(r, gdir))
			return;
		p->tunables_global = true;
	}
	copy_str(p->tunables_gov, sizeof(p->tunables_gov), p->governor);
	read_tunables_dir(r, gdir, p);
}

static void read_stats(const struct sysroot *r, struct cpufreq_policy *p)
{
	char sdir[TT_PATH_MAX];
	char *text;
	uint64_t v;

	snprintf(sdir, sizeof(sdir), "%s/stats", p->dir);
	if ((text = read_text(r, sdir, "time_in_state")) != NULL) {
		p->have_stats = cpufreq_parse_time_in_state(text, &p->tis_khz, &p->tis_time_10ms,
							    &p->nstates, NULL) == 0;
		free(text);
	}
	if (sysfs_read_u64f(r, &v, "%s/total_trans", sdir) == 0) {
		p->have_total_trans = true;
		p->total_trans = v;
	}
	if ((text = read_text(r, sdir, "trans_table")) != NULL) {
		p->have_trans_table =
			cpufreq_parse_trans_table(text, &p->trans_khz, &p->trans, &p->ntrans) == 0;
		free(text);
	}
}

static void read_policy(const struct sysroot *r, struct cpufreq_policy *p, int global_boost)
{
	const char *d = p->dir;
	char *text;
	int64_t v;

	if (!read_mask(r, d, "related_cpus", &p->cpus))
		read_mask(r, d, "affected_cpus", &p->cpus);
	if (!read_mask(r, d, "affected_cpus", &p->affected))
		p->affected = p->cpus;
	read_name(r, d, "scaling_driver", p->driver, sizeof(p->driver));
	read_name(r, d, "scaling_governor", p->governor, sizeof(p->governor));
	p->cur_khz = sysfs_read_nn(r, d, "scaling_cur_freq");
	p->min_khz = sysfs_read_nn(r, d, "scaling_min_freq");
	p->max_khz = sysfs_read_nn(r, d, "scaling_max_freq");
	p->hw_min_khz = sysfs_read_nn(r, d, "cpuinfo_min_freq");
	p->hw_max_khz = sysfs_read_nn(r, d, "cpuinfo_max_freq");
	p->hw_cur_khz = sysfs_read_nn(r, d, "cpuinfo_cur_freq");
	v = sysfs_read_nn(r, d, "cpuinfo_transition_latency");
	p->transition_latency_ns = v == CPUFREQ_ETERNAL_U32 ? -1 : v;
	p->base_khz = sysfs_read_nn(r, d, "base_frequency");
	p->boost = read_int(r, d, "boost");
	p->boost_own = p->boost >= 0;
	if (p->boost < 0)
		p->boost = global_boost;
	if ((text = read_text(r, d, "scaling_available_frequencies")) != NULL) {
		cpufreq_parse_list(text, &p->avail_khz, &p->navail);
		free(text);
	}
	if ((text = read_text(r, d, "scaling_available_governors")) != NULL) {
		cpufreq_parse_names(text, &p->avail_gov, &p->ngov);
		free(text);
	}
	read_stats(r, p);
	read_tunables(r, p);
	read_name(r, d, "energy_performance_preference", p->epp, sizeof(p->epp));
	if ((text = read_text(r, d, "energy_performance_available_preferences")) != NULL) {
		cpufreq_parse_names(text, &p->epp_avail, &p->nepp);
		free(text);
	}
	p->transitions_per_s = NAN;
	p->tis_pct = NULL;
}

static void policy_init(struct cpufreq_policy *p, int id, const char *dir)
{
	memset(p, 0, sizeof(*p));
	p->id = id;
	snprintf(p->name, sizeof(p->name), "policy%d", id);
	copy_str(p->dir, sizeof(p->dir), dir);
}

static int cmp_policy(const void *a, const void *b)
{
	const struct cpufreq_policy *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* policyN directories (kernels since 4.x). */
static size_t scan_policies(const struct sysroot *r, struct cpufreq_info *f)
{
	struct sysfs_list l;
	size_t cap = 0;

	if (sysfs_list(r, CPUFREQ_DIR, &l) != 0)
		return 0;
	for (size_t i = 0; i < l.n; i++) {
		char dir[TT_PATH_MAX];
		int id;

		if (!str_starts(l.names[i], "policy") || str_to_int(l.names[i] + 6, &id) != 0 ||
		    id < 0 || id >= TT_MAX_CPUS)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", CPUFREQ_DIR, l.names[i]);
		if (!sysfs_is_dir(r, dir))
			continue;
		f->pol = xgrow(f->pol, &cap, f->npolicies + 1, sizeof(*f->pol));
		policy_init(&f->pol[f->npolicies++], id, dir);
	}
	sysfs_list_free(&l);
	return f->npolicies;
}

/* Old kernels: cpuN/cpufreq (a directory for the owner, symlinks for the
 * others), grouped by related_cpus. */
static void scan_cpu_dirs(const struct sysroot *r, const struct topology *t, struct cpufreq_info *f)
{
	size_t cap = 0;
	int last = t ? t->ncpus : TT_MAX_CPUS;

	for (int c = 0; c < last; c++) {
		char dir[TT_PATH_MAX];
		struct cpumask rel;
		bool known = false;
		int first;

		if (!t && !sysfs_existsf(r, CPU_DIR "/cpu%d", c))
			break;
		snprintf(dir, sizeof(dir), CPU_DIR "/cpu%d/cpufreq", c);
		if (!sysfs_is_dir(r, dir))
			continue;
		for (size_t i = 0; i < f->npolicies; i++)
			if (cpumask_test(&f->pol[i].cpus, c))
				known = true;
		if (known)
			continue;
		if (!read_mask(r, dir, "related_cpus", &rel) || !cpumask_test(&rel, c))
			cpumask_set(&rel, c);
		first = cpumask_next(&rel, 0);
		f->pol = xgrow(f->pol, &cap, f->npolicies + 1, sizeof(*f->pol));
		policy_init(&f->pol[f->npolicies], first, dir);
		f->pol[f->npolicies].cpus = rel; /* for the "known" test; re-read later */
		f->npolicies++;
	}
}

static void read_pstate(const struct sysroot *r, struct cpufreq_info *f)
{
	/* intel_pstate's integer attributes, -1 without intel_pstate */
	const struct {
		int *v;
		const char *file;
	} attr[] = {
		{&f->no_turbo, "no_turbo"},	    {&f->min_perf_pct, "min_perf_pct"},
		{&f->max_perf_pct, "max_perf_pct"}, {&f->turbo_pct, "turbo_pct"},
		{&f->num_pstates, "num_pstates"},   {&f->hwp_dynamic_boost, "hwp_dynamic_boost"},
	};

	f->have_pstate = sysfs_is_dir(r, PSTATE_DIR);
	if (f->have_pstate)
		read_name(r, PSTATE_DIR, "status", f->pstate_status, sizeof(f->pstate_status));
	for (size_t i = 0; i < sizeof(attr) / sizeof(attr[0]); i++)
		*attr[i].v = f->have_pstate ? read_int(r, PSTATE_DIR, attr[i].file) : -1;
}

int cpufreq_read(const struct sysroot *r, const struct topology *t, struct cpufreq_info *out)
{
	int ncpus;

	memset(out, 0, sizeof(*out));
	out->boost = read_int(r, CPUFREQ_DIR, "boost");
	out->have_boost = out->boost >= 0;
	read_pstate(r, out);
	if (!scan_policies(r, out))
		scan_cpu_dirs(r, t, out);
	if (out->npolicies > 1)
		qsort(out->pol, out->npolicies, sizeof(*out->pol), cmp_policy);
	for (size_t i = 0; i < out->npolicies; i++)
		read_policy(r, &out->pol[i], out->boost);
	if (!out->npolicies) {
		/* not missing but refused: a symlinked cpufreq or sys that leaves */
		struct sysfs_list l;

		out->dir_refused = sysfs_list(r, CPUFREQ_DIR, &l) == -EXDEV;
		if (!out->dir_refused)
			sysfs_list_free(&l);
	}

	ncpus = t ? t->ncpus : 0;
	for (size_t i = 0; i < out->npolicies; i++) {
		int last = cpumask_last(&out->pol[i].cpus);

		if (last + 1 > ncpus)
			ncpus = last + 1;
	}
	out->ncpus = ncpus;
	if (ncpus > 0) {
		out->policy_of_cpu = xmalloc((size_t)ncpus * sizeof(int));
		for (int c = 0; c < ncpus; c++)
			out->policy_of_cpu[c] = -1;
		for (size_t i = 0; i < out->npolicies; i++) {
			const struct cpumask *m = &out->pol[i].cpus;

			for (int c = cpumask_next(m, 0); c >= 0 && c < ncpus;
			     c = cpumask_next(m, c + 1))
				if (out->policy_of_cpu[c] < 0)
					out->policy_of_cpu[c] = (int)i;
		}
	}
	return 0;
}

/* ---- refresh ------------------------------------------------------------- */

/* The CPU count cpufreq_read() would size policy_of_cpu with. */
static int policy_ncpus(const struct cpufreq_info *f, const struct topology *t)
{
	int ncpus = t ? t->ncpus : 0;

	for (size_t i = 0; i < f->npolicies; i++) {
		int last = cpumask_last(&f->pol[i].cpus);

		if (last + 1 > ncpus)
			ncpus = last + 1;
	}
	return ncpus;
}

/* affected_cpus is the online part of related_cpus: when that no longer
 * holds, CPUs went on- or offline and the policies must be read again. */
static bool policies_match_online(const struct cpufreq_info *f, const struct topology *t)
{
	for (size_t i = 0; i < f->npolicies; i++) {
		struct cpumask m = f->pol[i].cpus;

		cpumask_and(&m, &t->online);
		if (!cpumask_equal(&m, &f->pol[i].affected))
			return false;
	}
	return true;
}

/* p is a deep copy of the previous read of the policy: re-read the values
 * that move. false when the policy's files went away. */
static bool refresh_policy(const struct sysroot *r, struct cpufreq_policy *p, int global_boost)
{
	const char *d = p->dir;
	char gov[CPUFREQ_NAME_LEN], sdir[TT_PATH_MAX];
	char *text;
	uint64_t v;
	bool had_minmax = p->min_khz >= 0 || p->max_khz >= 0;

	p->cur_khz = sysfs_read_nn(r, d, "scaling_cur_freq");
	p->min_khz = sysfs_read_nn(r, d, "scaling_min_freq");
	p->max_khz = sysfs_read_nn(r, d, "scaling_max_freq");
	if (had_minmax && p->min_khz < 0 && p->max_khz < 0)
		return false;
	if (p->hw_cur_khz >= 0)
		p->hw_cur_khz = sysfs_read_nn(r, d, "cpuinfo_cur_freq");
	if (p->boost_own) {
		p->boost = read_int(r, d, "boost");
		p->boost_own = p->boost >= 0;
	}
	if (!p->boost_own)
		p->boost = global_boost;
	read_name(r, d, "scaling_governor", gov, sizeof(gov));
	if (strcmp(gov, p->governor)) {
		/* Another governor: its tunables are other files. */
		copy_str(p->governor, sizeof(p->governor), gov);
		free(p->tunables);
		p->tunables = NULL;
		p->ntunables = 0;
		p->tunables_gov[0] = '\0';
		p->tunables_global = false;
		read_tunables(r, p);
	}
	snprintf(sdir, sizeof(sdir), "%s/stats", d);
	if (p->have_stats) {
		free(p->tis_khz);
		free(p->tis_time_10ms);
		p->tis_khz = p->tis_time_10ms = NULL;
		p->nstates = 0;
		p->have_stats = false;
		if ((text = read_text(r, sdir, "time_in_state")) != NULL) {
			p->have_stats =
				cpufreq_parse_time_in_state(text, &p->tis_khz, &p->tis_time_10ms,
							    &p->nstates, NULL) == 0;
			free(text);
		}
	}
	if (p->have_total_trans) {
		p->have_total_trans = sysfs_read_u64f(r, &v, "%s/total_trans", sdir) == 0;
		p->total_trans = p->have_total_trans ? v : 0;
	}
	if (p->epp[0])
		read_name(r, d, "energy_performance_preference", p->epp, sizeof(p->epp));
	p->transitions_per_s = NAN;
	p->tis_pct = NULL;
	return true;
}

static void copy_policy(struct cpufreq_policy *p, const struct cpufreq_policy *q)
{
	*p = *q;
	p->avail_khz = xdup_array(q->avail_khz, q->navail, sizeof(*q->avail_khz));
	p->avail_gov = xdup_array(q->avail_gov, q->ngov, sizeof(*q->avail_gov));
	p->tis_khz = xdup_array(q->tis_khz, q->nstates, sizeof(*q->tis_khz));
	p->tis_time_10ms = xdup_array(q->tis_time_10ms, q->nstates, sizeof(*q->tis_time_10ms));
	p->trans_khz = xdup_array(q->trans_khz, q->ntrans, sizeof(*q->trans_khz));
	p->trans = xdup_array(q->trans, q->ntrans * q->ntrans, sizeof(*q->trans));
	p->tunables = xdup_array(q->tunables, q->ntunables, sizeof(*q->tunables));
	p->epp_avail = xdup_array(q->epp_avail, q->nepp, sizeof(*q->epp_avail));
	p->tis_pct = NULL;
}

/* The intel_pstate knobs; false when the mode changed (the driver and the
 * policies change with it). */
static bool refresh_pstate(const struct sysroot *r, const struct cpufreq_info *prev,
			   struct cpufreq_info *f)
{
	f->have_pstate = prev->have_pstate;
	memcpy(f->pstate_status, prev->pstate_status, sizeof(f->pstate_status));
	f->no_turbo = prev->no_turbo;
	f->min_perf_pct = prev->min_perf_pct;
	f->max_perf_pct = prev->max_perf_pct;
	f->turbo_pct = prev->turbo_pct;
	f->num_pstates = prev->num_pstates;
	f->hwp_dynamic_boost = prev->hwp_dynamic_boost;
	if (!f->have_pstate)
		return true;
	read_name(r, PSTATE_DIR, "status", f->pstate_status, sizeof(f->pstate_status));
	if (strcmp(f->pstate_status, prev->pstate_status))
		return false;
	f->no_turbo = read_int(r, PSTATE_DIR, "no_turbo");
	f->min_perf_pct = read_int(r, PSTATE_DIR, "min_perf_pct");
	f->max_perf_pct = read_int(r, PSTATE_DIR, "max_perf_pct");
	if (prev->hwp_dynamic_boost >= 0)
		f->hwp_dynamic_boost = read_int(r, PSTATE_DIR, "hwp_dynamic_boost");
	return true;
}

int cpufreq_refresh(const struct sysroot *r, const struct topology *t,
		    const struct cpufreq_info *prev, struct cpufreq_info *out)
{
	if (!prev || !t || policy_ncpus(prev, t) != prev->ncpus || !policies_match_online(prev, t))
		return cpufreq_read(r, t, out);
	memset(out, 0, sizeof(*out));
	out->dir_refused = prev->dir_refused;
	out->have_boost = prev->have_boost;
	out->boost = -1;
	if (prev->have_boost) {
		out->boost = read_int(r, CPUFREQ_DIR, "boost");
		out->have_boost = out->boost >= 0;
	}
	if (!refresh_pstate(r, prev, out))
		goto full;
	if (prev->npolicies) {
		out->pol = xcalloc(prev->npolicies, sizeof(*out->pol));
		for (size_t i = 0; i < prev->npolicies; i++) {
			copy_policy(&out->pol[i], &prev->pol[i]);
			out->npolicies++;
			if (!refresh_policy(r, &out->pol[i], out->boost))
				goto full;
		}
	}
	out->ncpus = prev->ncpus;
	if (prev->policy_of_cpu)
		out->policy_of_cpu = xdup_array(prev->policy_of_cpu, (size_t)prev->ncpus,
						sizeof(*prev->policy_of_cpu));
	return 0;
full:
	cpufreq_free(out);
	return cpufreq_read(r, t, out);
}

int cpufreq_policy_index(const struct cpufreq_info *f, int cpu)
{
	if (!f || cpu < 0 || cpu >= f->ncpus || !f->policy_of_cpu)
		return -1;
	return f->policy_of_cpu[cpu];
}

const struct cpufreq_policy *cpufreq_policy_find(const struct cpufreq_info *f, const char *name)
{
	int cpu, i;

	if (!f || !name)
		return NULL;
	for (size_t k = 0; k < f->npolicies; k++)
		if (!strcmp(f->pol[k].name, name))
			return &f->pol[k];
	if (str_starts(name, "cpu") && str_to_int(name + 3, &cpu) == 0) {
		i = cpufreq_policy_index(f, cpu);
		return i >= 0 ? &f->pol[i] : NULL;
	}
	return NULL;
}

/* ---- rates --------------------------------------------------------------- */

/* Index of khz in q's time_in_state, -1 none. */
static long find_opp(const struct cpufreq_policy *q, uint64_t khz)
{
	for (size_t j = 0; j < q->nstates; j++)
		if (q->tis_khz[j] == khz)
			return (long)j;
	return -1;
}

/* Whether any OPP's time_in_state changed between q and p. */
static bool tis_moved(const struct cpufreq_policy *p, const struct cpufreq_policy *q)
{
	for (size_t i = 0; i < p->nstates; i++) {
		long j = find_opp(q, p->tis_khz[i]);

		if (j < 0 || p->tis_time_10ms[i] != q->tis_time_10ms[j])
			return true;
	}
	return p->nstates != q->nstates;
}

static void derive_policy(struct cpufreq_policy *p, const struct cpufreq_policy *q, double dt_s)
{
	bool reset = false;

	p->transitions_per_s = NAN;
	free(p->tis_pct);
	p->tis_pct = NULL;
	if (p->nstates) {
		p->tis_pct = xmalloc(p->nstates * sizeof(double));
		for (size_t i = 0; i < p->nstates; i++)
			p->tis_pct[i] = NAN;
	}
	if (!q || !(dt_s > 0) || !isfinite(dt_s))
		return;
	/* Any counter lower than before: stats/reset was written, or the policy
	 * was re-created. Nothing from this interval can be trusted. */
	if (p->have_total_trans && q->have_total_trans && p->total_trans < q->total_trans)
		reset = true;
	if (p->have_stats && q->have_stats)
		for (size_t i = 0; i < p->nstates && !reset; i++) {
			long j = find_opp(q, p->tis_khz[i]);

			if (j >= 0 && p->tis_time_10ms[i] < q->tis_time_10ms[j])
				reset = true;
		}
	if (reset)
		return;
	if (p->have_total_trans && q->have_total_trans)
		p->transitions_per_s = (double)(p->total_trans - q->total_trans) / dt_s;
	if (p->have_stats && q->have_stats && !tis_moved(p, q)) {
		/* Not a tick counted anywhere: the kernel adds the current
		 * OPP's time at every read, so this is a tree nobody updates
		 * (a capture, a fixture), not an interval at no frequency. */
		if (p->transitions_per_s == 0)
			p->transitions_per_s = NAN;
		return;
	}
	if (p->have_stats && q->have_stats) {
		/* Shares of the time the kernel counted in this interval, not of
		 * the sampler's wall interval: time_in_state ticks in 10 ms
		 * (clock_t) and is updated when the policy changes OPP or is
		 * read, so against dt_s the shares wobble by a tick and drift
		 * when the sampler itself runs late on a loaded machine. Where
		 * that total is not known (an OPP new in this sample) or no
		 * tick was counted, the share is of dt_s (10 ms per tick). */
		double total_10ms = 0;

		for (size_t i = 0; i < p->nstates; i++) {
			long j = find_opp(q, p->tis_khz[i]);

			if (j < 0) {
				total_10ms = 0;
				break;
			}
			total_10ms += (double)(p->tis_time_10ms[i] - q->tis_time_10ms[j]);
		}
		if (!(total_10ms > 0))
			total_10ms = dt_s * 100.0;
		for (size_t i = 0; i < p->nstates; i++) {
			long j = find_opp(q, p->tis_khz[i]);
			double pct;

			if (j < 0)
				continue;
			pct = 100.0 * (double)(p->tis_time_10ms[i] - q->tis_time_10ms[j]) /
			      total_10ms;
			p->tis_pct[i] = pct > 100.0 ? 100.0 : pct;
		}
	}
}

void cpufreq_derive(struct cpufreq_info *cur, const struct cpufreq_info *prev, double dt_s)
{
	if (!cur)
		return;
	for (size_t i = 0; i < cur->npolicies; i++)
		derive_policy(&cur->pol[i], cpufreq_policy_find(prev, cur->pol[i].name), dt_s);
}

void cpufreq_free(struct cpufreq_info *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->npolicies; i++) {
		struct cpufreq_policy *p = &f->pol[i];

		xfree_all(p->avail_khz, p->avail_gov, p->tis_khz, p->tis_time_10ms, p->trans_khz,
			  p->trans, p->tunables, p->epp_avail, p->tis_pct);
	}
	free(f->pol);
	free(f->policy_of_cpu);
	memset(f, 0, sizeof(*f));
}
