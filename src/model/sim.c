/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The --demo board simulator (see sim.h). Owns the temporary root: unpacks
 * the bundle with a small ustar reader, keeps the simulated state (loads,
 * frequencies, counters) in memory, and rewrites the counter files through
 * sysfs_write_str() on every step. Knob files (governors, limits, disable
 * bits, sched_rt_runtime_us) are only read: the knob engine writes them. */
#include "model/sim.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cpumask.h"
#include "core/exe.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "sysfs/sysroot.h"
#include "sysfs/userfile.h"

#define SIM_MAX_OPP   32
#define SIM_MAX_STATE 8

struct sim_policy {
	char dir[96]; /* "sys/devices/system/cpu/cpufreq/policy4" */
	struct cpumask cpus;
	size_t nopp;
	uint64_t opp_khz[SIM_MAX_OPP];
	double tis_10ms[SIM_MAX_OPP];
	uint64_t trans[SIM_MAX_OPP * SIM_MAX_OPP];
	bool have_trans_table;
	uint64_t total_trans;
	int cur;	  /* index into opp_khz */
	uint64_t cap_khz; /* sim_set_cap_khz: a cooling device's limit, 0 none */
};

struct sim_idle {
	int index;
	int64_t latency_us;
	double usage, time_us, above, below;
};

struct sim_cpu {
	bool online;
	int policy; /* -1 none */
	size_t nstates;
	struct sim_idle st[SIM_MAX_STATE];
	double phase, period_s, base, amp; /* synthetic load shape */
	double util;			   /* current 0..1 */
	double t_user, t_nice, t_system, t_idle, t_iowait, t_irq, t_softirq; /* ticks */
	/* scheduler debug line indices (-1 none) */
	int l_throttled, l_rt_time, l_rt_runtime, l_rt_nr;
};

struct sim_devfreq {
	char dir[160]; /* "sys/class/devfreq/dmc" */
	char name[64];
	int kind; /* 0 ddr 1 npu 2 gpu 3 other */
	size_t nopp;
	uint64_t opp_hz[SIM_MAX_OPP];
	uint64_t trans[SIM_MAX_OPP * SIM_MAX_OPP];
	double time_ms[SIM_MAX_OPP];
	uint64_t total_trans;
	int cur;
	double load;
};

struct sim_zone {
	char dir[96];	 /* "sys/class/thermal/thermal_zone0" */
	char hwmon[128]; /* ".../hwmonN/temp1_input", "" none */
	struct cpumask cpus;
	int devfreq; /* index into dev[] or -1 */
	double temp_c;
};

struct sim {
	char board[32]; /* sim_board(); "" is the RK3588 of --demo */
	char tmpdir[PATH_MAX];
	char rootdir[PATH_MAX + 8];
	char statedir[PATH_MAX + 8];
	struct sysroot root;
	bool root_open;
	double t;   /* simulated seconds since start */
	bool quiet; /* sim_set_quiet: every CPU nearly idle, no bursts, no RT task */
	/* TUNETOP_SIM_EFFECT (tests; read only here, so only on the simulated
	 * board): what the knobs do. SIM_EFFECT_PRESENT (default) as on the
	 * board; ABSENT: governors, idle disable bits and the RT runtime keep
	 * the effect of their values at start (the change shows no effect);
	 * REVERSED: their effect is inverted (performance acts as powersave and
	 * the reverse, a deep state's disable bit acts inverted, no RT limit
	 * acts as the default limit and the default as none). */
	enum { SIM_EFFECT_PRESENT, SIM_EFFECT_ABSENT, SIM_EFFECT_REVERSED } effect;
	char gov0[16][32];  /* ABSENT: the governors at start, per policy */
	char dgov0[16][32]; /* ABSENT: the devfreq governors at start, per device */
	uint64_t rng;
	int ncpus;
	struct sim_cpu *cpu;
	size_t npol;
	struct sim_policy *pol;
	size_t ndev;
	struct sim_devfreq *dev;
	size_t nzone;
	struct sim_zone *zone;
	/* /proc/stat lines that are not "cpu*" (kept verbatim except counters) */
	char **stat_other;
	size_t nstat_other;
	double ctxt, intr, uptime, uptime_idle;
	/* scheduler debug text, one line each */
	char **dbg;
	size_t ndbg;
	char dbg_path[64];
	double rt_demand;   /* share of the last CPU the RT task wants, 0..1 */
	double dev_load[4]; /* sim_set_dev_load: per devfreq kind, NAN = the own model */
};

/* ---- archive and tree helpers ------------------------------------------ */

static uint64_t octal(const char *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n && p[i]; i++) {
		if (p[i] == ' ')
			continue;
		if (p[i] < '0' || p[i] > '7')
			break;
		v = v * 8 + (uint64_t)(p[i] - '0');
	}
	return v;
}

static int mkdirs_at(int dfd, const char *rel)
{
	char tmp[PATH_MAX];

	if (str_copy(tmp, sizeof(tmp), rel) >= sizeof(tmp))
		return -ENAMETOOLONG;
	for (char *p = tmp; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (tmp[0] && mkdirat(dfd, tmp, 0755) != 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdirat(dfd, tmp, 0755) != 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* No absolute name, no empty, "." or ".." component. */
static bool safe_name(const char *n)
{
	const char *p = n;

	if (!*n || *n == '/')
		return false;
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (!len || (len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		if (!slash)
			return true;
		p = slash + 1;
	}
}

/* Does name lie below one of the archive's own symlinks? */
static bool under_link(char *const *links, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(links[i]);

		if (!strncmp(name, links[i], l) && name[l] == '/')
			return true;
	}
	return false;
}

int sim_tar_walk(const void *buf, size_t len, int (*fn)(const struct sim_tar_entry *e, void *ctx),
		 void *ctx)
{
	const unsigned char *base = buf;
	char **links = NULL;
	size_t off = 0, nlinks = 0, caplinks = 0;
	int e = 0;

	while (off < len) {
		const unsigned char *h = base + off;
		char name[260], link[101], *rel;
		struct sim_tar_entry ent;
		uint64_t size, padded;

		if (len - off < 512) {
			e = -EINVAL;
			break;
		}
		if (h[0] == '\0')
			break; /* end-of-archive block */
		if (memcmp(h + 257, "ustar", 5) != 0) {
			e = -EINVAL;
			break;
		}
		if (h[345])
			snprintf(name, sizeof(name), "%.155s/%.100s", (const char *)h + 345,
				 (const char *)h);
		else
			snprintf(name, sizeof(name), "%.100s", (const char *)h);
		snprintf(link, sizeof(link), "%.100s", (const char *)h + 157);
		size = octal((const char *)h + 124, 12);
		padded = (size + 511) & ~(uint64_t)511;
		off += 512;
		memset(&ent, 0, sizeof(ent));
		ent.type = (char)h[156];
		ent.link = link;
		/* drop the first component */
		rel = strchr(name, '/');
		rel = rel ? rel + 1 : name + strlen(name);
		{
			size_t l = strlen(rel);

			while (l && rel[l - 1] == '/')
				rel[--l] = '\0';
		}
		ent.rel = rel;
		if (*rel && (!safe_name(rel) || under_link(links, nlinks, rel))) {
			e = -EINVAL;
			break;
		}
		if ((ent.type == '0' || ent.type == '\0') && *rel) {
			if (size > len - off) {
				e = -EIO; /* the file's data is cut off */
				break;
			}
			ent.data = (const char *)base + off;
			ent.size = (size_t)size;
		}
		if (ent.type == '2' && *rel) {
			links = xgrow(links, &caplinks, nlinks + 1, sizeof(*links));
			links[nlinks++] = xstrdup(rel);
		}
		if (*rel && (e = fn(&ent, ctx)) != 0)
			break;
		if (padded > len - off)
			break; /* the archive ends inside the last entry's padding */
		off += (size_t)padded;
	}
	for (size_t i = 0; i < nlinks; i++)
		free(links[i]);
	free(links);
	return e;
}

static int untar_entry(const struct sim_tar_entry *ent, void *ctx)
{
	int dfd = *(int *)ctx, out;

	if (ent->type == '5')
		return mkdirs_at(dfd, ent->rel);
	if (ent->type == '2')
		return symlinkat(ent->link, dfd, ent->rel) != 0 && errno != EEXIST ? -errno : 0;
	if (ent->type != '0' && ent->type != '\0')
		return 0; /* hard links, devices, FIFOs: not in a fixture */
	out = openat(dfd, ent->rel, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0)
		return -errno;
	for (size_t done = 0; done < ent->size;) {
		ssize_t k = write(out, ent->data + done, ent->size - done);

		if (k <= 0) {
			close(out);
			return -EIO;
		}
		done += (size_t)k;
	}
	close(out);
	return 0;
}

int sim_untar(const char *tar_path, const char *dir)
{
	char *buf = NULL;
	size_t len = 0;
	int dfd, e = userfile_read(tar_path, 0, 0, &buf, &len);

	if (!e) {
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0) {
			e = -errno;
		} else {
			e = sim_tar_walk(buf, len, untar_entry, &dfd);
			close(dfd);
		}
	}
	free(buf);
	return e;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) == 0 ? 0 : -1;
	return unlink(path) == 0 ? 0 : -1;
}

int sim_rmtree(const char *dir)
{
	if (!dir || !*dir || !strcmp(dir, "/"))
		return -EINVAL;
	if (nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		return errno ? -errno : -EIO;
	return 0;
}

bool sim_built(void)
{
#ifdef HAVE_DEMO
	return true;
#else
	return false;
#endif
}

int sim_find_bundle(char *buf, size_t cap)
{
	return sim_find_bundle_file(SIM_BUNDLE, buf, cap);
}

int sim_find_bundle_file(const char *file, char *buf, size_t cap)
{
	const char *e = getenv("TUNETOP_DEMO");
	char dir[PATH_MAX];

	if (!sim_built()) {
		snprintf(buf, cap, "%s", "");
		return -ENOTSUP;
	}
	if (e && *e) {
		const char *slash = strrchr(e, '/');

		/* $TUNETOP_DEMO is the RK3588 bundle; the others beside it */
		if (!strcmp(file, SIM_BUNDLE))
			snprintf(buf, cap, "%s", e);
		else
			snprintf(buf, cap, "%.*s%s", slash ? (int)(slash - e + 1) : 0, e, file);
		return access(buf, R_OK) == 0 ? 0 : -ENOENT;
	}
	if (exe_dir(dir, sizeof(dir)) == 0) {
		snprintf(buf, cap, "%s/%s", dir, file);
		if (access(buf, R_OK) == 0)
			return 0;
	}
	snprintf(buf, cap, "%s/demo/%s", TT_PKGDATADIR, file);
	return access(buf, R_OK) == 0 ? 0 : -ENOENT;
}

/* ---- small helpers ------------------------------------------------------- */

static double rnd(struct sim *s) /* 0..1 */
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return (double)(s->rng >> 11) / (double)(1ULL << 53);
}

static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void putf(struct sim *s, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void putf(struct sim *s, const char *path, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sysfs_write_str(&s->root, path, buf);
}

static int64_t get_i64(struct sim *s, const char *path, int64_t dflt)
{
	int64_t v;

	return sysfs_read_i64(&s->root, path, &v) == 0 ? v : dflt;
}

static size_t parse_u64s(const char *text, uint64_t *out, size_t max)
{
	size_t n = 0;
	const char *p = text;

	while (*p && n < max) {
		char *end;
		unsigned long long v;

		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		if (!*p)
			break;
		v = strtoull(p, &end, 10);
		if (end == p)
			break;
		out[n++] = v;
		p = end;
	}
	return n;
}

static char **split_lines(const char *text, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;
	const char *p = text;

	*n = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		v = xgrow(v, &cap, *n + 1, sizeof(*v));
		v[(*n)++] = xstrndup(p, len);
		p += len + (nl ? 1 : 0);
	}
	return v;
}

static void free_lines(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* ---- loading the initial state ------------------------------------------ */

static void load_policies(struct sim *s)
{
	struct sysfs_list l;

	if (sysfs_list(&s->root, "sys/devices/system/cpu/cpufreq", &l) != 0)
		return;
	s->pol = xcalloc(l.n ? l.n : 1, sizeof(*s->pol));
	for (size_t i = 0; i < l.n; i++) {
		struct sim_policy *p = &s->pol[s->npol];
		char path[160], buf[1024];
		char *text = NULL;
		int64_t cur;

		if (strncmp(l.names[i], "policy", 6))
			continue;
		snprintf(p->dir, sizeof(p->dir), "sys/devices/system/cpu/cpufreq/%s", l.names[i]);
		snprintf(path, sizeof(path), "%s/related_cpus", p->dir);
		if (sysfs_read_str(&s->root, path, buf, sizeof(buf)) != 0 ||
		    cpulist_parse_spaces(buf, &p->cpus) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/scaling_available_frequencies", p->dir);
		if (sysfs_read_str(&s->root, path, buf, sizeof(buf)) == 0)
			p->nopp = parse_u64s(buf, p->opp_khz, SIM_MAX_OPP);
		if (!p->nopp)
			continue;
		snprintf(path, sizeof(path), "%s/stats/time_in_state", p->dir);
		if (sysfs_read_alloc(&s->root, path, &text, NULL) == 0) {
			char *line, *save = NULL;

			for (line = strtok_r(text, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save)) {
				uint64_t kv[2];

				if (parse_u64s(line, kv, 2) != 2)
					continue;
				for (size_t k = 0; k < p->nopp; k++)
					if (p->opp_khz[k] == kv[0])
						p->tis_10ms[k] = (double)kv[1];
			}
			free(text);
			text = NULL;
		}
		snprintf(path, sizeof(path), "%s/stats/trans_table", p->dir);
		if (sysfs_read_alloc(&s->root, path, &text, NULL) == 0) {
			size_t nl;
			char **lines = split_lines(text, &nl);

			/* "   408000:         0      1049 ..." rows after two header lines */
			p->have_trans_table = true;
			for (size_t r = 2; r < nl && r - 2 < p->nopp; r++) {
				char *colon = strchr(lines[r], ':');
				uint64_t row[SIM_MAX_OPP];
				size_t got;

				if (!colon) {
					p->have_trans_table = false;
					break;
				}
				got = parse_u64s(colon + 1, row, SIM_MAX_OPP);
				for (size_t c = 0; c < got && c < p->nopp; c++)
					p->trans[(r - 2) * SIM_MAX_OPP + c] = row[c];
			}
			free_lines(lines, nl);
			free(text);
			text = NULL;
		}
		snprintf(path, sizeof(path), "%s/stats/total_trans", p->dir);
		p->total_trans = (uint64_t)get_i64(s, path, 0);
		snprintf(path, sizeof(path), "%s/scaling_cur_freq", p->dir);
		cur = get_i64(s, path, (int64_t)p->opp_khz[0]);
		p->cur = 0;
		for (size_t k = 0; k < p->nopp; k++)
			if ((int64_t)p->opp_khz[k] <= cur)
				p->cur = (int)k;
		for (int c = cpumask_next(&p->cpus, 0); c >= 0; c = cpumask_next(&p->cpus, c + 1))
			if (c < s->ncpus)
				s->cpu[c].policy = (int)s->npol;
		s->npol++;
	}
	sysfs_list_free(&l);
}

static void load_idle(struct sim *s, int c)
{
	struct sim_cpu *cpu = &s->cpu[c];

	for (int k = 0; k < SIM_MAX_STATE; k++) {
		char path[128];
		struct sim_idle *st = &cpu->st[cpu->nstates];

		snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cpuidle/state%d/usage",
			 c, k);
		if (!sysfs_exists(&s->root, path))
			break;
		st->index = k;
		st->usage = (double)get_i64(s, path, 0);
		snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cpuidle/state%d/time", c,
			 k);
		st->time_us = (double)get_i64(s, path, 0);
		snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cpuidle/state%d/above",
			 c, k);
		st->above = (double)get_i64(s, path, 0);
		snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cpuidle/state%d/below",
			 c, k);
		st->below = (double)get_i64(s, path, 0);
		snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency",
			 c, k);
		st->latency_us = get_i64(s, path, 0);
		cpu->nstates++;
	}
}

static void load_stat(struct sim *s)
{
	char *text = NULL;
	size_t nl;
	char **lines;

	if (sysfs_read_alloc(&s->root, "proc/stat", &text, NULL) != 0)
		return;
	lines = split_lines(text, &nl);
	free(text);
	s->stat_other = xcalloc(nl ? nl : 1, sizeof(char *));
	for (size_t i = 0; i < nl; i++) {
		int id;
		unsigned long long v[7];

		if (sscanf(lines[i], "cpu%d %llu %llu %llu %llu %llu %llu %llu", &id, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6]) == 8) {
			if (id >= 0 && id < s->ncpus) {
				struct sim_cpu *c = &s->cpu[id];

				c->t_user = (double)v[0];
				c->t_nice = (double)v[1];
				c->t_system = (double)v[2];
				c->t_idle = (double)v[3];
				c->t_iowait = (double)v[4];
				c->t_irq = (double)v[5];
				c->t_softirq = (double)v[6];
			}
			free(lines[i]);
			continue;
		}
		if (!strncmp(lines[i], "cpu ", 4)) {
			free(lines[i]);
			continue;
		}
		if (!strncmp(lines[i], "ctxt ", 5))
			s->ctxt = strtod(lines[i] + 5, NULL);
		if (!strncmp(lines[i], "intr ", 5))
			s->intr = strtod(lines[i] + 5, NULL);
		s->stat_other[s->nstat_other++] = lines[i];
	}
	free(lines);
}

static int zone_devfreq(struct sim *s, const char *type)
{
	int want = strstr(type, "gpu") ? 2 : strstr(type, "npu") ? 1 : -1;

	if (want < 0)
		return -1;
	for (size_t i = 0; i < s->ndev; i++)
		if (s->dev[i].kind == want)
			return (int)i;
	return -1;
}

/* CPUs a zone covers, by the RK3588-style type names; "" types cover all. */
static void zone_cpus(struct sim *s, const char *type, struct cpumask *m)
{
	int nbig = 0;

	cpumask_zero(m);
	if (!strncmp(type, "bigcore", 7)) {
		int want = atoi(type + 7);

		for (size_t i = 0; i < s->npol; i++) {
			if (cpumask_test(&s->pol[i].cpus, 0))
				continue;
			if (nbig++ == want)
				*m = s->pol[i].cpus;
		}
		return;
	}
	if (!strncmp(type, "littlecore", 10) || !strncmp(type, "little", 6)) {
		for (size_t i = 0; i < s->npol; i++)
			if (cpumask_test(&s->pol[i].cpus, 0))
				*m = s->pol[i].cpus;
		return;
	}
	if (strstr(type, "gpu") || strstr(type, "npu"))
		return;
	for (int c = 0; c < s->ncpus; c++)
		cpumask_set(m, c);
}

static void load_devfreq(struct sim *s)
{
	struct sysfs_list l;

	if (sysfs_list(&s->root, "sys/class/devfreq", &l) != 0)
		return;
	s->dev = xcalloc(l.n ? l.n : 1, sizeof(*s->dev));
	for (size_t i = 0; i < l.n; i++) {
		struct sim_devfreq *d = &s->dev[s->ndev];
		char path[224], buf[1024], *text = NULL;
		int64_t cur;

		snprintf(d->dir, sizeof(d->dir), "sys/class/devfreq/%s", l.names[i]);
		str_copy(d->name, sizeof(d->name), l.names[i]);
		d->kind = strstr(d->name, "dmc") || strstr(d->name, "ddr")    ? 0
			  : strstr(d->name, "npu")			      ? 1
			  : strstr(d->name, "gpu") || strstr(d->name, "mali") ? 2
									      : 3;
		snprintf(path, sizeof(path), "%s/available_frequencies", d->dir);
		if (sysfs_read_str(&s->root, path, buf, sizeof(buf)) == 0)
			d->nopp = parse_u64s(buf, d->opp_hz, SIM_MAX_OPP);
		if (!d->nopp)
			continue;
		snprintf(path, sizeof(path), "%s/trans_stat", d->dir);
		if (sysfs_read_alloc(&s->root, path, &text, NULL) == 0) {
			size_t nl;
			char **lines = split_lines(text, &nl);

			for (size_t r = 2; r < nl && r - 2 < d->nopp; r++) {
				char *colon = strchr(lines[r], ':');
				uint64_t row[SIM_MAX_OPP + 1];
				size_t got;

				if (!colon)
					break;
				got = parse_u64s(colon + 1, row, d->nopp + 1);
				for (size_t c = 0; c < got && c < d->nopp; c++)
					d->trans[(r - 2) * SIM_MAX_OPP + c] = row[c];
				if (got == d->nopp + 1)
					d->time_ms[r - 2] = (double)row[d->nopp];
			}
			for (size_t r = 0; r < nl; r++)
				if (!strncmp(lines[r], "Total transition : ", 19))
					d->total_trans = strtoull(lines[r] + 19, NULL, 10);
			free_lines(lines, nl);
			free(text);
		}
		snprintf(path, sizeof(path), "%s/cur_freq", d->dir);
		cur = get_i64(s, path, (int64_t)d->opp_hz[0]);
		for (size_t k = 0; k < d->nopp; k++)
			if ((int64_t)d->opp_hz[k] <= cur)
				d->cur = (int)k;
		s->ndev++;
	}
	sysfs_list_free(&l);
}

static void load_zones(struct sim *s)
{
	struct sysfs_list l;

	if (sysfs_list(&s->root, "sys/class/thermal", &l) != 0)
		return;
	s->zone = xcalloc(l.n ? l.n : 1, sizeof(*s->zone));
	for (size_t i = 0; i < l.n; i++) {
		struct sim_zone *z = &s->zone[s->nzone];
		char path[160], type[64];
		struct sysfs_list h;

		if (strncmp(l.names[i], "thermal_zone", 12))
			continue;
		snprintf(z->dir, sizeof(z->dir), "sys/class/thermal/%s", l.names[i]);
		snprintf(path, sizeof(path), "%s/type", z->dir);
		if (sysfs_read_str(&s->root, path, type, sizeof(type)) != 0)
			type[0] = '\0';
		zone_cpus(s, type, &z->cpus);
		z->devfreq = zone_devfreq(s, type);
		snprintf(path, sizeof(path), "%s/temp", z->dir);
		z->temp_c = (double)get_i64(s, path, 40000) / 1000.0;
		if (sysfs_list(&s->root, z->dir, &h) == 0) {
			for (size_t k = 0; k < h.n; k++)
				if (!strncmp(h.names[k], "hwmon", 5))
					snprintf(z->hwmon, sizeof(z->hwmon), "%s/%s/temp1_input",
						 z->dir, h.names[k]);
			sysfs_list_free(&h);
		}
		s->nzone++;
	}
	sysfs_list_free(&l);
}

static void load_sched_debug(struct sim *s)
{
	static const char *const paths[] = {"sys/kernel/debug/sched/debug", "proc/sched_debug"};
	char *text = NULL;
	int cur = -1;

	for (size_t i = 0; i < 2 && !text; i++)
		if (sysfs_read_alloc(&s->root, paths[i], &text, NULL) == 0)
			str_copy(s->dbg_path, sizeof(s->dbg_path), paths[i]);
	if (!text)
		return;
	s->dbg = split_lines(text, &s->ndbg);
	free(text);
	for (size_t i = 0; i < s->ndbg; i++) {
		const char *l = s->dbg[i];
		int c;

		if (sscanf(l, "rt_rq[%d]:", &c) == 1 &&
		    (l[strlen(l) - 1] == ':' || !strcmp(strchr(l, ':'), ":/"))) {
			cur = c < s->ncpus ? c : -1;
			continue;
		}
		if (l[0] != ' ' && l[0] != '\0') {
			cur = -1;
			continue;
		}
		if (cur < 0)
			continue;
		if (strstr(l, ".rt_nr_running"))
			s->cpu[cur].l_rt_nr = (int)i;
		else if (strstr(l, ".rt_throttled"))
			s->cpu[cur].l_throttled = (int)i;
		else if (strstr(l, ".rt_time"))
			s->cpu[cur].l_rt_time = (int)i;
		else if (strstr(l, ".rt_runtime"))
			s->cpu[cur].l_rt_runtime = (int)i;
	}
}

static int sim_load(struct sim *s, const char *bundle, struct sim **out, char *err, size_t cap);

int sim_open(struct sim **out, const char *bundle, char *err, size_t cap)
{
	struct sim *s = xcalloc(1, sizeof(*s));
	const char *tmp = getenv("TMPDIR");
	int e;

	*out = NULL;
	snprintf(s->tmpdir, sizeof(s->tmpdir), "%s/tunetop-demo.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(s->tmpdir)) {
		e = -errno;
		if (err)
			snprintf(err, cap, "%s: cannot create: %s", s->tmpdir, strerror(-e));
		free(s);
		return e;
	}
	snprintf(s->rootdir, sizeof(s->rootdir), "%s/root", s->tmpdir);
	snprintf(s->statedir, sizeof(s->statedir), "%s/state", s->tmpdir);
	e = mkdir(s->rootdir, 0755) == 0 && mkdir(s->statedir, 0700) == 0 ? 0 : -errno;
	if (!e)
		e = sim_untar(bundle, s->rootdir);
	if (!e)
		e = sysroot_open(&s->root, s->rootdir);
	if (e) {
		if (err)
			snprintf(err, cap, "%s: cannot unpack the demo board: %s", bundle,
				 strerror(-e));
		sim_rmtree(s->tmpdir);
		free(s);
		return e;
	}
	s->root_open = true;
	return sim_load(s, bundle, out, err, cap);
}

int sim_attach(struct sim **out, const char *dir, char *err, size_t cap)
{
	struct sim *s = xcalloc(1, sizeof(*s));
	int e;

	*out = NULL;
	snprintf(s->rootdir, sizeof(s->rootdir), "%s", dir);
	e = sysroot_open(&s->root, s->rootdir);
	if (e) {
		if (err)
			snprintf(err, cap, "%s: %s", dir, strerror(-e));
		free(s);
		return e;
	}
	s->root_open = true;
	return sim_load(s, dir, out, err, cap);
}

/* The state of the board from its files (sim_open, sim_attach). */
static int sim_load(struct sim *s, const char *bundle, struct sim **out, char *err, size_t cap)
{
	char buf[64];
	struct cpumask online;

	for (size_t k = 0; k < 4; k++)
		s->dev_load[k] = NAN;
	{
		const char *ef = getenv("TUNETOP_SIM_EFFECT");

		if (ef && !strcmp(ef, "absent"))
			s->effect = SIM_EFFECT_ABSENT;
		else if (ef && !strcmp(ef, "reversed"))
			s->effect = SIM_EFFECT_REVERSED;
	}
	s->rng = 0x9e3779b97f4a7c15ULL;
	if (sysfs_read_str(&s->root, "sys/devices/system/cpu/possible", buf, sizeof(buf)) != 0 ||
	    cpulist_parse(buf, &online) != 0 || cpumask_empty(&online)) {
		if (err)
			snprintf(err, cap, "%s: the demo board has no CPU list", bundle);
		sim_close(s);
		return -EINVAL;
	}
	s->ncpus = cpumask_last(&online) + 1;
	if (sysfs_read_str(&s->root, "sys/devices/system/cpu/online", buf, sizeof(buf)) != 0 ||
	    cpulist_parse(buf, &online) != 0)
		cpumask_zero(&online);
	s->cpu = xcalloc((size_t)s->ncpus, sizeof(*s->cpu));
	for (int c = 0; c < s->ncpus; c++) {
		struct sim_cpu *cpu = &s->cpu[c];

		cpu->online = cpumask_test(&online, c);
		cpu->policy = -1;
		cpu->l_throttled = cpu->l_rt_time = cpu->l_rt_runtime = cpu->l_rt_nr = -1;
		cpu->phase = rnd(s) * 6.283;
		cpu->period_s = 8.0 + rnd(s) * 20.0;
		cpu->base = 0.08 + rnd(s) * 0.2;
		cpu->amp = 0.1 + rnd(s) * 0.35;
		load_idle(s, c);
	}
	load_policies(s);
	load_stat(s);
	load_devfreq(s);
	load_zones(s);
	load_sched_debug(s);
	if (!sysfs_exists(&s->root, "dev/cpu_dma_latency")) {
		int32_t none = 2000000000; /* PM_QOS_CPU_LATENCY_DEFAULT_VALUE: no request */
		int dfd = mkdirat(s->root.dirfd, "dev", 0755) == 0 || errno == EEXIST
				  ? openat(s->root.dirfd, "dev/cpu_dma_latency",
					   O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
					   0600)
				  : -1;

		if (dfd >= 0) {
			ssize_t w = write(dfd, &none, sizeof(none));

			close(dfd);
			if (w != (ssize_t)sizeof(none))
				unlinkat(s->root.dirfd, "dev/cpu_dma_latency", 0);
		}
	}
	{
		char up[64];

		if (sysfs_read_str(&s->root, "proc/uptime", up, sizeof(up)) == 0)
			sscanf(up, "%lf %lf", &s->uptime, &s->uptime_idle);
	}
	*out = s;
	return 0;
}

const char *sim_root(const struct sim *s)
{
	return s->rootdir;
}

void sim_set_state_dir(struct sim *s, const char *dir)
{
	snprintf(s->statedir, sizeof(s->statedir), "%s", dir);
}

const char *sim_state_dir(const struct sim *s)
{
	return s->statedir;
}

void sim_set_quiet(struct sim *s, bool quiet)
{
	s->quiet = quiet;
}

double sim_time(const struct sim *s)
{
	return s ? s->t : 0;
}

const char *sim_board(const struct sim *s)
{
	return s && s->board[0] ? s->board : "RK3588";
}

void sim_set_board(struct sim *s, const char *board)
{
	snprintf(s->board, sizeof(s->board), "%s", board ? board : "");
}

void sim_close(struct sim *s)
{
	if (!s)
		return;
	if (s->root_open)
		sysroot_close(&s->root);
	if (s->tmpdir[0])
		sim_rmtree(s->tmpdir);
	xfree_all(s->cpu, s->pol, s->dev, s->zone);
	free_lines(s->stat_other, s->nstat_other);
	free_lines(s->dbg, s->ndbg);
	free(s);
}

const struct sysroot *sim_sysroot(const struct sim *s)
{
	return &s->root;
}

int sim_set_cap_khz(struct sim *s, const char *policy, uint64_t khz)
{
	size_t n = strlen(policy);

	for (size_t i = 0; i < s->npol; i++) {
		size_t l = strlen(s->pol[i].dir);

		if (l > n && s->pol[i].dir[l - n - 1] == '/' &&
		    !strcmp(s->pol[i].dir + l - n, policy)) {
			s->pol[i].cap_khz = khz;
			return 0;
		}
	}
	return -ENOENT;
}

void sim_set_dev_load(struct sim *s, int kind, double load)
{
	if (kind >= 0 && kind < 4)
		s->dev_load[kind] = load;
}

/* ---- stepping ------------------------------------------------------------ */

/* The governor the simulation acts on (TUNETOP_SIM_EFFECT). at0 keeps the
 * value first seen. */
static void effect_gov(struct sim *s, char *at0, char *gov, size_t cap)
{
	if (!at0[0])
		snprintf(at0, 32, "%s", gov);
	if (s->effect == SIM_EFFECT_ABSENT)
		snprintf(gov, cap, "%s", at0);
	else if (s->effect == SIM_EFFECT_REVERSED && !strcmp(gov, "performance"))
		snprintf(gov, cap, "powersave");
	else if (s->effect == SIM_EFFECT_REVERSED)
		snprintf(gov, cap, "performance");
}

static int64_t effect_runtime(const struct sim *s, int64_t rt)
{
	if (s->effect == SIM_EFFECT_ABSENT)
		return 950000;
	if (s->effect == SIM_EFFECT_REVERSED)
		return rt < 0 ? 950000 : -1;
	return rt;
}

static void step_load(struct sim *s, double dt)
{
	double t = s->t;
	int last = s->ncpus - 1;

	/* The RT task on the last CPU: 97% for 6 s out of every 20 s. */
	s->rt_demand = fmod(t, 20.0) >= 4.0 && fmod(t, 20.0) < 10.0 ? 0.97 : 0.15;
	for (int c = 0; c < s->ncpus; c++) {
		struct sim_cpu *cpu = &s->cpu[c];
		double u;

		if (!cpu->online) {
			cpu->util = 0;
			continue;
		}
		if (s->quiet) {
			/* the latency thread blocks in its ioctl: the CPU looks idle */
			cpu->util = clamp(0.03 + (rnd(s) - 0.5) * 0.02, 0.01, 1.0);
			continue;
		}
		u = cpu->base +
		    cpu->amp * (0.5 + 0.5 * sin(6.2832 * t / cpu->period_s + cpu->phase));
		if (rnd(s) < 0.08)
			u += 0.3 + 0.4 * rnd(s); /* a burst */
		u += (rnd(s) - 0.5) * 0.06;
		if (c == last) {
			double share = 1.0;
			int64_t rt = effect_runtime(
				s, get_i64(s, "proc/sys/kernel/sched_rt_runtime_us", 950000));
			int64_t per = get_i64(s, "proc/sys/kernel/sched_rt_period_us", 1000000);

			if (rt >= 0 && per > 0)
				share = (double)rt / (double)per;
			u = fmax(u, fmin(s->rt_demand, share));
		}
		cpu->util = clamp(u, 0.01, 1.0);
		(void)dt;
	}
}

static int64_t quantise(const uint64_t *opp, size_t n, double want, int64_t lo, int64_t hi,
			int *idx)
{
	int best = -1, top = -1;

	/* the lowest OPP >= want inside [lo, hi]; else the highest allowed one */
	for (size_t k = 0; k < n; k++) {
		if ((int64_t)opp[k] < lo || (int64_t)opp[k] > hi)
			continue;
		top = (int)k;
		if (best < 0 && (double)opp[k] >= want)
			best = (int)k;
	}
	if (best < 0)
		best = top;
	if (best < 0) { /* nothing inside the limits: clamp like the kernel */
		best = 0;
		for (size_t k = 0; k < n; k++)
			if ((int64_t)opp[k] <= hi)
				best = (int)k;
	}
	*idx = best;
	return (int64_t)opp[best];
}

/* The files of one frequency domain, below its directory: a cpufreq policy
 * or a devfreq device. */
struct sim_freq_files {
	const char *governor, *min, *max, *setspeed;
};

static const struct sim_freq_files cpufreq_files = {"scaling_governor", "scaling_min_freq",
						    "scaling_max_freq", "scaling_setspeed"};
static const struct sim_freq_files devfreq_files = {"governor", "min_freq", "max_freq",
						    "userspace/set_freq"};

/* Reads the domain's governor into gov (as effect_gov leaves it) and its
 * limits into *lo, *hi. True with *want set when the governor alone fixes
 * the target (performance, powersave, userspace); false for a governor the
 * caller models itself. */
static bool governed_want(struct sim *s, const char *dir, const struct sim_freq_files *f,
			  char *gov0, const uint64_t *opp, size_t nopp, int cur, char gov[32],
			  int64_t *lo, int64_t *hi, double *want)
{
	char path[224];

	snprintf(path, sizeof(path), "%s/%s", dir, f->governor);
	if (sysfs_read_str(&s->root, path, gov, 32) != 0)
		gov[0] = '\0';
	effect_gov(s, gov0, gov, 32);
	snprintf(path, sizeof(path), "%s/%s", dir, f->min);
	*lo = get_i64(s, path, (int64_t)opp[0]);
	snprintf(path, sizeof(path), "%s/%s", dir, f->max);
	*hi = get_i64(s, path, (int64_t)opp[nopp - 1]);
	if (!strcmp(gov, "performance"))
		*want = (double)*hi;
	else if (!strcmp(gov, "powersave"))
		*want = (double)*lo;
	else if (!strcmp(gov, "userspace")) {
		int64_t sp;

		snprintf(path, sizeof(path), "%s/%s", dir, f->setspeed);
		sp = get_i64(s, path, -1);
		*want = sp > 0 ? (double)sp : (double)opp[cur];
	} else
		return false;
	return true;
}

/* Moves a domain to OPP idx, counting the transition in its table. */
static void opp_move(int idx, int *cur, uint64_t *trans, uint64_t *total_trans)
{
	if (idx == *cur)
		return;
	trans[(size_t)*cur * SIM_MAX_OPP + (size_t)idx]++;
	(*total_trans)++;
	*cur = idx;
}

static void write_trans_table(struct sim *s, struct sim_policy *p)
{
	struct sbuf b;
	char path[160];

	sbuf_init(&b);
	sbuf_puts(&b, "   From  :    To\n         : ");
	for (size_t i = 0; i < p->nopp; i++)
		sbuf_printf(&b, "%9llu ", (unsigned long long)p->opp_khz[i]);
	sbuf_puts(&b, "\n");
	for (size_t i = 0; i < p->nopp; i++) {
		sbuf_printf(&b, "%9llu: ", (unsigned long long)p->opp_khz[i]);
		for (size_t j = 0; j < p->nopp; j++)
			sbuf_printf(&b, "%9llu ",
				    (unsigned long long)p->trans[i * SIM_MAX_OPP + j]);
		sbuf_puts(&b, "\n");
	}
	snprintf(path, sizeof(path), "%s/stats/trans_table", p->dir);
	sysfs_write(&s->root, path, b.s, b.len);
	sbuf_free(&b);
}

/* light: sim_settle (the governors' choice only, written when it moved). */
static void step_cpufreq(struct sim *s, double dt, bool light)
{
	for (size_t i = 0; i < s->npol; i++) {
		struct sim_policy *p = &s->pol[i];
		char path[160], gov[32];
		int64_t lo, hi, top = (int64_t)p->opp_khz[p->nopp - 1];
		double maxu = 0, want;
		int idx = p->cur;
		struct sbuf b;

		for (int c = cpumask_next(&p->cpus, 0); c >= 0 && c < s->ncpus;
		     c = cpumask_next(&p->cpus, c + 1))
			maxu = fmax(maxu, s->cpu[c].util);
		if (governed_want(s, p->dir, &cpufreq_files, s->gov0[i < 16 ? i : 15], p->opp_khz,
				  p->nopp, p->cur, gov, &lo, &hi, &want)) {
		} else if (!strcmp(gov, "conservative")) {
			double target = maxu * 1.25 * (double)top;
			int step = target > (double)p->opp_khz[p->cur] ? 1 : -1;
			int n = p->cur + step;

			if (n < 0 || n >= (int)p->nopp)
				n = p->cur;
			want = (double)p->opp_khz[n];
		} else {
			want = maxu * 1.25 * (double)top;
		}
		if (p->cap_khz && (int64_t)p->cap_khz < hi)
			hi = (int64_t)p->cap_khz; /* the cooling device wins, as in the kernel */
		if (hi < lo)
			lo = hi;
		quantise(p->opp_khz, p->nopp, want, lo, hi, &idx);
		if (light && idx == p->cur)
			continue;
		opp_move(idx, &p->cur, p->trans, &p->total_trans);
		p->tis_10ms[p->cur] += dt * 100.0;
		snprintf(path, sizeof(path), "%s/scaling_cur_freq", p->dir);
		putf(s, path, "%llu\n", (unsigned long long)p->opp_khz[p->cur]);
		if (light)
			continue;
		snprintf(path, sizeof(path), "%s/stats/total_trans", p->dir);
		putf(s, path, "%llu\n", (unsigned long long)p->total_trans);
		sbuf_init(&b);
		for (size_t k = 0; k < p->nopp; k++)
			sbuf_printf(&b, "%llu %llu\n", (unsigned long long)p->opp_khz[k],
				    (unsigned long long)p->tis_10ms[k]);
		snprintf(path, sizeof(path), "%s/stats/time_in_state", p->dir);
		sysfs_write(&s->root, path, b.s, b.len);
		sbuf_free(&b);
		if (p->have_trans_table)
			write_trans_table(s, p);
	}
}

static void step_idle(struct sim *s, double dt)
{
	for (int c = 0; c < s->ncpus; c++) {
		struct sim_cpu *cpu = &s->cpu[c];
		double idle_us = (1.0 - cpu->util) * dt * 1e6;
		double entries = (300.0 + 1500.0 * cpu->util) * dt;
		bool en[SIM_MAX_STATE];
		int deepest = -1, nen = 0;

		if (!cpu->online || !cpu->nstates)
			continue;
		for (size_t k = 0; k < cpu->nstates; k++) {
			char path[128];

			snprintf(path, sizeof(path),
				 "sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable", c,
				 cpu->st[k].index);
			en[k] = get_i64(s, path, 0) == 0;
			if (k > 0 && s->effect == SIM_EFFECT_ABSENT)
				en[k] = true;
			else if (k > 0 && s->effect == SIM_EFFECT_REVERSED)
				en[k] = !en[k];
			if (en[k]) {
				deepest = (int)k;
				nen++;
			}
		}
		if (deepest < 0)
			continue; /* all disabled: the CPU polls, no state accumulates */
		for (size_t k = 0; k < cpu->nstates; k++) {
			struct sim_idle *st = &cpu->st[k];
			double tshare, eshare;
			char path[128];

			if (!en[k])
				continue;
			if (nen == 1) {
				tshare = eshare = 1.0;
			} else if ((int)k == deepest) {
				tshare = 0.85;
				eshare = 0.4;
			} else {
				tshare = 0.15 / (nen - 1);
				eshare = 0.6 / (nen - 1);
			}
			st->time_us += idle_us * tshare;
			st->usage += entries * eshare;
			if ((int)k == deepest && nen > 1)
				st->above += entries * eshare * (0.03 + 0.1 * cpu->util);
			if ((int)k != deepest)
				st->below += entries * eshare * 0.12;
#define W(file, v)                                                                                 \
	do {                                                                                       \
		snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cpuidle/state%d/" file, \
			 c, st->index);                                                            \
		putf(s, path, "%llu\n", (unsigned long long)(v));                                  \
	} while (0)
			W("time", st->time_us);
			W("usage", st->usage);
			W("above", st->above);
			W("below", st->below);
#undef W
		}
	}
}

static void step_stat(struct sim *s, double dt)
{
	struct sbuf b;
	double tot[7] = {0};
	double ticks = dt * 100.0, idle_sum = 0;

	for (int c = 0; c < s->ncpus; c++) {
		struct sim_cpu *cpu = &s->cpu[c];

		if (!cpu->online)
			continue;
		cpu->t_user += ticks * cpu->util * 0.68;
		cpu->t_system += ticks * cpu->util * 0.22;
		cpu->t_irq += ticks * cpu->util * 0.04;
		cpu->t_softirq += ticks * cpu->util * 0.06;
		cpu->t_idle += ticks * (1.0 - cpu->util);
		idle_sum += 1.0 - cpu->util;
	}
	s->ctxt += dt * (4000.0 + 20000.0 * (s->ncpus - idle_sum));
	s->intr += dt * (3000.0 + 8000.0 * (s->ncpus - idle_sum));
	s->uptime += dt;
	s->uptime_idle += dt * idle_sum;
	sbuf_init(&b);
	for (int c = 0; c < s->ncpus; c++) {
		struct sim_cpu *cpu = &s->cpu[c];

		tot[0] += cpu->t_user;
		tot[1] += cpu->t_nice;
		tot[2] += cpu->t_system;
		tot[3] += cpu->t_idle;
		tot[4] += cpu->t_iowait;
		tot[5] += cpu->t_irq;
		tot[6] += cpu->t_softirq;
	}
	sbuf_printf(&b, "cpu  %.0f %.0f %.0f %.0f %.0f %.0f %.0f 0 0 0\n", floor(tot[0]),
		    floor(tot[1]), floor(tot[2]), floor(tot[3]), floor(tot[4]), floor(tot[5]),
		    floor(tot[6]));
	for (int c = 0; c < s->ncpus; c++) {
		struct sim_cpu *cpu = &s->cpu[c];

		if (!cpu->online)
			continue;
		sbuf_printf(&b, "cpu%d %.0f %.0f %.0f %.0f %.0f %.0f %.0f 0 0 0\n", c,
			    floor(cpu->t_user), floor(cpu->t_nice), floor(cpu->t_system),
			    floor(cpu->t_idle), floor(cpu->t_iowait), floor(cpu->t_irq),
			    floor(cpu->t_softirq));
	}
	for (size_t i = 0; i < s->nstat_other; i++) {
		const char *l = s->stat_other[i];

		if (!strncmp(l, "ctxt ", 5))
			sbuf_printf(&b, "ctxt %.0f\n", floor(s->ctxt));
		else if (!strncmp(l, "intr ", 5)) {
			const char *rest = strchr(l + 5, ' ');

			sbuf_printf(&b, "intr %.0f%s\n", floor(s->intr), rest ? rest : "");
		} else
			sbuf_printf(&b, "%s\n", l);
	}
	sysfs_write(&s->root, "proc/stat", b.s, b.len);
	sbuf_reset(&b);
	sbuf_printf(&b, "%.2f %.2f\n", s->uptime, s->uptime_idle);
	sysfs_write(&s->root, "proc/uptime", b.s, b.len);
	sbuf_free(&b);
}

static void write_trans_stat(struct sim *s, struct sim_devfreq *d)
{
	struct sbuf b;
	char path[224];

	sbuf_init(&b);
	sbuf_puts(&b, "     From  :   To\n           :");
	for (size_t i = 0; i < d->nopp; i++)
		sbuf_printf(&b, "%10llu", (unsigned long long)d->opp_hz[i]);
	sbuf_puts(&b, "   time(ms)\n");
	for (size_t i = 0; i < d->nopp; i++) {
		sbuf_putc(&b, (int)i == d->cur ? '*' : ' ');
		sbuf_printf(&b, "%10llu:", (unsigned long long)d->opp_hz[i]);
		for (size_t j = 0; j < d->nopp; j++)
			sbuf_printf(&b, "%10llu",
				    (unsigned long long)d->trans[i * SIM_MAX_OPP + j]);
		sbuf_printf(&b, "%10llu\n", (unsigned long long)d->time_ms[i]);
	}
	sbuf_printf(&b, "Total transition : %llu\n", (unsigned long long)d->total_trans);
	snprintf(path, sizeof(path), "%s/trans_stat", d->dir);
	sysfs_write(&s->root, path, b.s, b.len);
	sbuf_free(&b);
}

static void step_devfreq(struct sim *s, double dt, bool light)
{
	double avg = 0;
	int n = 0;

	for (int c = 0; c < s->ncpus; c++)
		if (s->cpu[c].online) {
			avg += s->cpu[c].util;
			n++;
		}
	avg = n ? avg / n : 0;
	for (size_t i = 0; i < s->ndev; i++) {
		struct sim_devfreq *d = &s->dev[i];
		char path[224], gov[32];
		int64_t lo, hi, top = (int64_t)d->opp_hz[d->nopp - 1];
		double want;
		int idx = d->cur;

		switch (d->kind) {
		case 0: d->load = clamp(avg * 1.4 + (rnd(s) - 0.5) * 0.1, 0, 1); break;
		case 1: /* NPU inference bursts */
			d->load = fmod(s->t, 15.0) < 5.0 ? 0.6 + 0.3 * rnd(s) : 0.0;
			break;
		case 2: d->load = clamp(0.2 + 0.15 * sin(s->t / 7.0) + 0.1 * rnd(s), 0, 1); break;
		default: d->load = avg; break;
		}
		if (!isnan(s->dev_load[d->kind & 3]))
			d->load = s->dev_load[d->kind & 3];
		if (!governed_want(s, d->dir, &devfreq_files, s->dgov0[i < 16 ? i : 15], d->opp_hz,
				   d->nopp, d->cur, gov, &lo, &hi, &want))
			want = d->load * 1.3 * (double)top;
		quantise(d->opp_hz, d->nopp, want, lo, hi, &idx);
		if (light && idx == d->cur)
			continue;
		opp_move(idx, &d->cur, d->trans, &d->total_trans);
		d->time_ms[d->cur] += dt * 1000.0;
		snprintf(path, sizeof(path), "%s/cur_freq", d->dir);
		putf(s, path, "%llu\n", (unsigned long long)d->opp_hz[d->cur]);
		snprintf(path, sizeof(path), "%s/target_freq", d->dir);
		putf(s, path, "%llu\n", (unsigned long long)d->opp_hz[d->cur]);
		snprintf(path, sizeof(path), "%s/load", d->dir);
		if (!light && sysfs_exists(&s->root, path))
			putf(s, path, "%d@%lluHz\n", (int)(d->load * 100.0 + 0.5),
			     (unsigned long long)d->opp_hz[d->cur]);
		if (!light)
			write_trans_stat(s, d);
		if (d->kind <= 2) {
			static const char *const clk[] = {"scmi_clk_ddr", "scmi_clk_npu",
							  "scmi_clk_gpu"};

			snprintf(path, sizeof(path), "sys/kernel/debug/clk/%s/clk_rate",
				 clk[d->kind]);
			if (sysfs_exists(&s->root, path))
				putf(s, path, "%llu\n", (unsigned long long)d->opp_hz[d->cur]);
		}
	}
}

static void step_thermal(struct sim *s, double dt)
{
	double k = clamp(dt / 6.0, 0, 1);

	for (size_t i = 0; i < s->nzone; i++) {
		struct sim_zone *z = &s->zone[i];
		double heat = 0, target;
		int n = 0;
		char path[160];

		if (z->devfreq >= 0) {
			struct sim_devfreq *d = &s->dev[z->devfreq];
			double f = (double)d->opp_hz[d->cur] / (double)d->opp_hz[d->nopp - 1];

			heat = f * f * (0.3 + 0.7 * d->load);
			n = 1;
		} else {
			for (int c = cpumask_next(&z->cpus, 0); c >= 0 && c < s->ncpus;
			     c = cpumask_next(&z->cpus, c + 1)) {
				struct sim_cpu *cpu = &s->cpu[c];
				double f = 0.3;

				if (cpu->policy >= 0) {
					struct sim_policy *p = &s->pol[cpu->policy];

					f = (double)p->opp_khz[p->cur] /
					    (double)p->opp_khz[p->nopp - 1];
				}
				heat += f * f * (0.3 + 0.7 * cpu->util);
				n++;
			}
		}
		target = 34.0 + 38.0 * (n ? heat / n : 0.2);
		z->temp_c += (target - z->temp_c) * k;
		snprintf(path, sizeof(path), "%s/temp", z->dir);
		putf(s, path, "%lld\n", (long long)(z->temp_c * 1000.0) / 923 * 923);
		if (z->hwmon[0])
			putf(s, z->hwmon, "%lld\n", (long long)(z->temp_c * 1000.0) / 923 * 923);
	}
}

static void step_rt(struct sim *s)
{
	int64_t rt = effect_runtime(s, get_i64(s, "proc/sys/kernel/sched_rt_runtime_us", 950000));
	int64_t per = get_i64(s, "proc/sys/kernel/sched_rt_period_us", 1000000);
	int last = s->ncpus - 1;
	struct sbuf b;

	if (!s->ndbg)
		return;
	for (int c = 0; c < s->ncpus; c++) {
		struct sim_cpu *cpu = &s->cpu[c];
		double demand = c == last ? s->rt_demand : 0.002;
		double runtime_ms = rt < 0 ? -0.000001 : (double)rt / 1000.0;
		double want_ms = demand * (double)per / 1000.0;
		bool throttled = rt >= 0 && want_ms > runtime_ms;
		double used_ms = throttled ? runtime_ms : want_ms * (0.5 + 0.5 * rnd(s));

		if (cpu->l_rt_nr >= 0) {
			free(s->dbg[cpu->l_rt_nr]);
			s->dbg[cpu->l_rt_nr] = xasprintf("  .rt_nr_running                 : %d",
							 demand > 0.5 ? 1 : 0);
		}
		if (cpu->l_throttled >= 0) {
			free(s->dbg[cpu->l_throttled]);
			s->dbg[cpu->l_throttled] = xasprintf(
				"  .rt_throttled                  : %d", throttled ? 1 : 0);
		}
		if (cpu->l_rt_time >= 0) {
			free(s->dbg[cpu->l_rt_time]);
			s->dbg[cpu->l_rt_time] =
				xasprintf("  .rt_time                       : %.6f", used_ms);
		}
		if (cpu->l_rt_runtime >= 0) {
			free(s->dbg[cpu->l_rt_runtime]);
			s->dbg[cpu->l_rt_runtime] =
				xasprintf("  .rt_runtime                    : %.6f", runtime_ms);
		}
	}
	sbuf_init(&b);
	for (size_t i = 0; i < s->ndbg; i++)
		sbuf_printf(&b, "%s\n", s->dbg[i]);
	sysfs_write(&s->root, s->dbg_path, b.s, b.len);
	sbuf_free(&b);
}

void sim_step(struct sim *s, double dt_s)
{
	if (!s || !(dt_s > 0))
		return;
	if (dt_s > 60)
		dt_s = 60;
	s->t += dt_s;
	step_load(s, dt_s);
	step_cpufreq(s, dt_s, false);
	step_idle(s, dt_s);
	step_stat(s, dt_s);
	step_devfreq(s, dt_s, false);
	step_thermal(s, dt_s);
	step_rt(s);
}

void sim_settle(struct sim *s)
{
	if (!s)
		return;
	step_cpufreq(s, 0, true);
	step_devfreq(s, 0, true);
}
