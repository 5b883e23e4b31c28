/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Thread list source. Owns reading /proc/PID/task/TID/{stat,status,sched}
 * for every thread (open/read/close only, no spawning), the affinity and
 * uclamp syscalls per thread, and the per-thread rates (CPU %, migrations,
 * context switches per second). A thread is matched between samples by tid
 * and start time, so a reused tid never inherits another thread's counters. */
#include "source/threads.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "source/schedattr.h"

#define PF_KTHREAD_FLAG 0x00200000u /* include/linux/sched.h PF_KTHREAD */
#define STAT_BUF	1024
#define STATUS_BUF	16384
#define SCHED_BUF	8192

/* ---- parsers ------------------------------------------------------------ */

static int parse_pid(const char *s, const char *end, pid_t *out)
{
	long v = 0;
	bool any = false;

	while (s < end && isspace((unsigned char)*s))
		s++;
	while (s < end && isdigit((unsigned char)*s)) {
		v = v * 10 + (*s - '0');
		if (v > 0x7fffffffL)
			return -ERANGE;
		s++;
		any = true;
	}
	while (s < end && isspace((unsigned char)*s))
		s++;
	if (!any || s != end)
		return -EINVAL;
	*out = (pid_t)v;
	return 0;
}

/* Parse the token [s, s+len) as unsigned / signed decimal. */
static int tok_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -EINVAL;
		if (v > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

static int tok_i64(const char *s, size_t len, int64_t *out)
{
	uint64_t v;
	bool neg = false;
	int e;

	if (len && (*s == '-' || *s == '+')) {
		neg = *s == '-';
		s++;
		len--;
	}
	e = tok_u64(s, len, &v);
	if (e)
		return e;
	if (v > (uint64_t)INT64_MAX)
		return -ERANGE;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

#define STAT_FIELDS 52

int threads_parse_stat(const char *text, struct thread_info *t)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	const char *tok[STAT_FIELDS + 1] = {0};
	size_t len[STAT_FIELDS + 1] = {0};
	const char *p;
	int nf = 2;
	uint64_t u;
	int64_t i;
	size_t clen;

	if (!open || !close || close < open)
		return -EINVAL;
	if (parse_pid(text, open, &t->tid))
		return -EINVAL;
	clen = (size_t)(close - open - 1);
	if (clen >= sizeof(t->comm))
		clen = sizeof(t->comm) - 1;
	memcpy(t->comm, open + 1, clen);
	t->comm[clen] = '\0';

	/* fields 3.. after the last ')' */
	p = close + 1;
	while (*p && nf < STAT_FIELDS) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		nf++;
		tok[nf] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		len[nf] = (size_t)(p - tok[nf]);
	}
	if (nf < 22 || len[3] != 1)
		return -EINVAL;
	t->state = tok[3][0];
	if (tok_i64(tok[4], len[4], &i))
		return -EINVAL;
	t->ppid = (pid_t)i;
	if (tok_u64(tok[9], len[9], &u))
		return -EINVAL;
	t->flags = (unsigned)u;
	if (tok_u64(tok[14], len[14], &t->utime) || tok_u64(tok[15], len[15], &t->stime))
		return -EINVAL;
	if (tok_i64(tok[19], len[19], &i))
		return -EINVAL;
	t->nice = (int)i;
	if (tok_u64(tok[22], len[22], &t->start_time))
		return -EINVAL;
	t->last_cpu = -1;
	if (nf >= 39 && tok_i64(tok[39], len[39], &i) == 0)
		t->last_cpu = (int)i;
	t->rt_prio = 0;
	if (nf >= 40 && tok_u64(tok[40], len[40], &u) == 0)
		t->rt_prio = (int)u;
	t->policy = -1;
	if (nf >= 41 && tok_u64(tok[41], len[41], &u) == 0)
		t->policy = (int)(u & ~(uint64_t)SCHED_RESET_ON_FORK);
	/* A child of kthreadd is a kernel thread only if it has no memory map
	 * (vsize 0): user-mode helpers (modprobe...) also start there. */
	t->kernel = (t->flags & PF_KTHREAD_FLAG) || t->tid == 2 ||
		    (t->ppid == 2 && nf >= 23 && tok_u64(tok[23], len[23], &u) == 0 && u == 0);
	return 0;
}

/* Value after "Key:" on the line starting at line (up to '\n'). */
static const char *status_value(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) != 0 || line[n] != ':')
		return NULL;
	line += n + 1;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

static int line_u64(const char *v, uint64_t *out)
{
	size_t n = 0;

	while (isdigit((unsigned char)v[n]))
		n++;
	return tok_u64(v, n, out);
}

int threads_parse_status(const char *text, struct thread_info *t)
{
	const char *line = text, *v;
	bool any = false;
	uint64_t u;

	while (line && *line) {
		const char *nl = strchr(line, '\n');

		switch (line[0]) {
		case 'T':
			if ((v = status_value(line, "Tgid")) && line_u64(v, &u) == 0)
				t->pid = (pid_t)u;
			break;
		case 'P':
			if ((v = status_value(line, "Pid")) && line_u64(v, &u) == 0) {
				t->tid = (pid_t)u;
				any = true;
			}
			break;
		case 'V':
			if ((v = status_value(line, "VmLck")) && line_u64(v, &u) == 0)
				t->vmlck_kb = u;
			break;
		case 'K':
			if ((v = status_value(line, "Kthread")) && line_u64(v, &u) == 0 && u)
				t->kernel = true;
			break;
		case 'C':
			if ((v = status_value(line, "Cpus_allowed_list"))) {
				char buf[4096];
				size_t n = nl ? (size_t)(nl - v) : strlen(v);

				if (n < sizeof(buf)) {
					memcpy(buf, v, n);
					buf[n] = '\0';
					if (cpulist_parse(buf, &t->affinity) == 0)
						t->have_affinity = true;
				}
			}
			break;
		case 'v':
			if ((v = status_value(line, "voluntary_ctxt_switches")) &&
			    line_u64(v, &u) == 0) {
				t->vol_ctxt = u;
				any = true;
			}
			break;
		case 'n':
			if ((v = status_value(line, "nonvoluntary_ctxt_switches")) &&
			    line_u64(v, &u) == 0) {
				t->nonvol_ctxt = u;
				any = true;
			}
			break;
		default: break;
		}
		line = nl ? nl + 1 : NULL;
	}
	return any ? 0 : -EINVAL;
}

/* "key   :   value" line of a /proc/.../sched file. */
static int sched_value(const char *text, const char *key, uint64_t *out)
{
	size_t n = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (strncmp(p, key, n) == 0 && (p[n] == ' ' || p[n] == ':')) {
			p = strchr(p + n, ':');
			if (!p)
				return -EINVAL;
			p++;
			while (*p == ' ' || *p == '\t')
				p++;
			return line_u64(p, out);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -ENOENT;
}

/* Also takes the context switch counts (the same p->nvcsw / p->nivcsw that
 * status prints) so that status need not be read per thread. */
static int parse_sched(const char *text, struct thread_info *t, bool *have_ctxt)
{
	uint64_t v, iv;

	*have_ctxt = sched_value(text, "nr_voluntary_switches", &v) == 0 &&
		     sched_value(text, "nr_involuntary_switches", &iv) == 0;
	if (*have_ctxt) {
		t->vol_ctxt = v;
		t->nonvol_ctxt = iv;
	}
	if (sched_value(text, "se.nr_migrations", &v))
		return -EINVAL;
	t->nr_migrations = v;
	t->have_migrations = true;
	return 0;
}

int threads_parse_sched(const char *text, struct thread_info *t)
{
	bool have_ctxt;

	return parse_sched(text, t, &have_ctxt);
}

/* ---- reading ------------------------------------------------------------ */

struct reader {
	const struct sysroot *live;
	unsigned flags;
	bool uclamp;
	char *buf; /* STATUS_BUF scratch */
	cpu_set_t *set;
	size_t setsize;
};

static void reader_init(struct reader *rd, const struct sysroot *live, unsigned flags)
{
	rd->live = live;
	rd->flags = flags;
	rd->uclamp = !(flags & THREADS_NO_UCLAMP) && schedattr_have_uclamp();
	rd->buf = xmalloc(STATUS_BUF);
	rd->set = CPU_ALLOC(TT_MAX_CPUS);
	if (!rd->set)
		tt_fatal("out of memory");
	rd->setsize = CPU_ALLOC_SIZE(TT_MAX_CPUS);
}

static void reader_free(struct reader *rd)
{
	free(rd->buf);
	CPU_FREE(rd->set);
}

static void info_init(struct thread_info *t)
{
	memset(t, 0, sizeof(*t));
	t->uclamp_min = t->uclamp_max = -1;
	t->last_cpu = -1;
	t->policy = -1;
	t->cpu_pct = t->migrations_per_s = t->vol_per_s = t->invol_per_s = NAN;
}

static void affinity_from_set(const cpu_set_t *set, size_t bytes, struct cpumask *m)
{
	const unsigned long *w = (const unsigned long *)(const void *)set;
	size_t nw = bytes / sizeof(unsigned long);
	const int bits = (int)(8 * sizeof(unsigned long));

	cpumask_zero(m);
	for (size_t i = 0; i < nw; i++) {
		unsigned long x = w[i];

		while (x) {
			int b = __builtin_ctzl(x);

			cpumask_set(m, (int)i * bits + b);
			x &= x - 1;
		}
	}
}

/* Process-wide values taken from the first thread's status. */
struct proc_ctx {
	bool have_vmlck;
	uint64_t vmlck_kb;
};

/* 0 = filled, 1 = skipped (kernel thread filtered), -errno = gone/unreadable. */
static int read_task(struct reader *rd, struct proc_ctx *pc, pid_t pid, pid_t tid,
		     struct thread_info *ti)
{
	char path[TT_PATH_MAX];
	bool have_ctxt = false;
	int e;

	info_init(ti);
	snprintf(path, sizeof(path), "proc/%d/task/%d/stat", (int)pid, (int)tid);
	e = sysfs_read(rd->live, path, rd->buf, STAT_BUF, NULL);
	if (e && e != -EFBIG)
		return e;
	if (threads_parse_stat(rd->buf, ti))
		return -EINVAL;
	ti->pid = pid;
	ti->tid = tid;
	if (ti->kernel && !(rd->flags & THREADS_KERNEL))
		return 1;

	if (rd->flags & THREADS_SCHED_FILE) {
		snprintf(path, sizeof(path), "proc/%d/task/%d/sched", (int)pid, (int)tid);
		e = sysfs_read(rd->live, path, rd->buf, SCHED_BUF, NULL);
		if (e == 0 || e == -EFBIG)
			parse_sched(rd->buf, ti, &have_ctxt);
	}
	/* status: for the context switches unless sched gave them, and once
	 * per process for VmLck (process-wide) */
	if (!have_ctxt || !pc->have_vmlck) {
		snprintf(path, sizeof(path), "proc/%d/task/%d/status", (int)pid, (int)tid);
		e = sysfs_read(rd->live, path, rd->buf, STATUS_BUF, NULL);
		if (e && e != -EFBIG)
			return e;
		threads_parse_status(rd->buf, ti);
		ti->pid = pid;
		ti->tid = tid;
		if (ti->kernel && !(rd->flags & THREADS_KERNEL))
			return 1;
		pc->have_vmlck = true;
		pc->vmlck_kb = ti->vmlck_kb;
	} else {
		ti->vmlck_kb = pc->vmlck_kb;
	}

	/* The syscalls act on the live kernel, so only for the live root (a
	 * fixture's tids name other or no threads); status Cpus_allowed_list,
	 * when status was read, is the fallback. */
	if (rd->live->live) {
		if (sched_getaffinity(tid, rd->setsize, rd->set) == 0) {
			affinity_from_set(rd->set, rd->setsize, &ti->affinity);
			ti->have_affinity = true;
		}
	}
	if (rd->uclamp && rd->live->live) {
		int mn, mx;

		if (schedattr_get_uclamp(tid, &mn, &mx) == 0) {
			ti->uclamp_min = mn;
			ti->uclamp_max = mx;
		}
	}
	return 0;
}

static void table_push(struct thread_table *t, const struct thread_info *ti)
{
	t->t = xgrow(t->t, &t->cap, t->n + 1, sizeof(*t->t));
	t->t[t->n++] = *ti;
}

static int str_pid(const char *s, pid_t *out)
{
	return parse_pid(s, s + strlen(s), out);
}

static int read_process(struct reader *rd, pid_t pid, struct thread_table *out)
{
	char path[TT_PATH_MAX];
	struct sysfs_list tl;
	struct proc_ctx pc = {0};
	int e;

	snprintf(path, sizeof(path), "proc/%d/task", (int)pid);
	e = sysfs_list(rd->live, path, &tl);
	if (e)
		return e == -ENOENT ? -ESRCH : e;
	out->nprocs++;
	for (size_t j = 0; j < tl.n; j++) {
		struct thread_info ti;
		pid_t tid;

		if (str_pid(tl.names[j], &tid))
			continue;
		e = read_task(rd, &pc, pid, tid, &ti);
		if (e == 1)
			break; /* a kernel thread: the whole process is one */
		if (e == 0)
			table_push(out, &ti);
	}
	sysfs_list_free(&tl);
	return 0;
}

static int cmp_tid(const void *a, const void *b)
{
	const struct thread_info *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

static void table_begin(const struct sysroot *live, struct thread_table *out)
{
	char buf[4096];

	memset(out, 0, sizeof(*out));
	out->time_ns = time_mono_ns();
	if (sysfs_read_str(live, "sys/devices/system/cpu/online", buf, sizeof(buf)) == 0 &&
	    cpulist_parse(buf, &out->online) == 0)
		out->have_online = true;
	if (sysfs_read_str(live, "sys/devices/system/cpu/isolated", buf, sizeof(buf)) == 0 &&
	    cpulist_parse(buf, &out->isolated) == 0)
		out->have_isolated = true;
}

static void table_end(struct thread_table *out)
{
	if (out->n > 1)
		qsort(out->t, out->n, sizeof(*out->t), cmp_tid);
}

int threads_read(const struct sysroot *live, unsigned flags, struct thread_table *out)
{
	struct sysfs_list pl;
	struct reader rd;
	int e;

	table_begin(live, out);
	e = sysfs_list(live, "proc", &pl);
	if (e)
		return e;
	reader_init(&rd, live, flags);
	for (size_t i = 0; i < pl.n; i++) {
		pid_t pid;

		if (!isdigit((unsigned char)pl.names[i][0]) || str_pid(pl.names[i], &pid))
			continue;
		read_process(&rd, pid, out);
	}
	reader_free(&rd);
	sysfs_list_free(&pl);
	table_end(out);
	return 0;
}

int threads_read_pid(const struct sysroot *live, pid_t pid, unsigned flags,
		     struct thread_table *out)
{
	struct reader rd;
	int e;

	table_begin(live, out);
	reader_init(&rd, live, flags | THREADS_KERNEL);
	e = read_process(&rd, pid, out);
	reader_free(&rd);
	table_end(out);
	if (e == 0 && out->n == 0)
		e = -ESRCH;
	return e;
}

void threads_free(struct thread_table *t)
{
	free(t->t);
	memset(t, 0, sizeof(*t));
}

struct thread_info *threads_find(const struct thread_table *t, pid_t tid)
{
	struct thread_info key;

	if (!t || !t->n)
		return NULL;
	key.tid = tid;
	return bsearch(&key, t->t, t->n, sizeof(*t->t), cmp_tid);
}

static double rate(uint64_t cur, uint64_t prev, double scale)
{
	if (cur < prev)
		return NAN;
	return (double)(cur - prev) * scale;
}

void threads_derive(struct thread_table *cur, const struct thread_table *prev, double dt_s,
		    long clk_tck)
{
	size_t j = 0;

	for (size_t i = 0; i < cur->n; i++) {
		struct thread_info *c = &cur->t[i];
		const struct thread_info *p = NULL;

		c->cpu_pct = c->migrations_per_s = c->vol_per_s = c->invol_per_s = NAN;
		if (!prev || !(dt_s > 0) || clk_tck <= 0)
			continue;
		/* both tables are sorted by tid: merge walk */
		while (j < prev->n && prev->t[j].tid < c->tid)
			j++;
		if (j < prev->n && prev->t[j].tid == c->tid)
			p = &prev->t[j];
		if (!p || p->start_time != c->start_time || p->pid != c->pid)
			continue; /* new thread, or a reused tid */
		c->cpu_pct = rate(c->utime + c->stime, p->utime + p->stime,
				  100.0 / ((double)clk_tck * dt_s));
		c->vol_per_s = rate(c->vol_ctxt, p->vol_ctxt, 1.0 / dt_s);
		c->invol_per_s = rate(c->nonvol_ctxt, p->nonvol_ctxt, 1.0 / dt_s);
		if (c->have_migrations && p->have_migrations)
			c->migrations_per_s = rate(c->nr_migrations, p->nr_migrations, 1.0 / dt_s);
	}
}

int thread_start_time(pid_t tid, uint64_t *out)
{
	char path[80], buf[STAT_BUF];
	struct thread_info t;
	int e;

	if (tid <= 0)
		return -EINVAL;
	/* /proc/TID/task/TID works for any thread id, leader or not. Not
	 * /proc/TID/stat: for a process that one sums over all its threads
	 * (174 us with 2,000 threads against 7 us). */
	snprintf(path, sizeof(path), "proc/%d/task/%d/stat", (int)tid, (int)tid);
	e = sysfs_read(sysroot_live(), path, buf, sizeof(buf), NULL);
	if (e == -ENOENT)
		return -ESRCH;
	if (e && e != -EFBIG)
		return e;
	memset(&t, 0, sizeof(t));
	if (threads_parse_stat(buf, &t) || t.tid != tid)
		return -ESRCH;
	*out = t.start_time;
	return 0;
}

const char *threads_policy_name(int policy)
{
	switch (policy) {
	case SCHED_OTHER: return "other";
	case SCHED_FIFO: return "fifo";
	case SCHED_RR: return "rr";
	case SCHED_BATCH: return "batch";
	case SCHED_IDLE: return "idle";
	case SCHED_DEADLINE: return "deadline";
	default: return "?";
	}
}

const char *threads_policy_label(int policy)
{
	switch (policy) {
	case SCHED_OTHER: return "OTHER";
	case SCHED_FIFO: return "FIFO";
	case SCHED_RR: return "RR";
	case SCHED_BATCH: return "BATCH";
	case SCHED_IDLE: return "IDLE";
	case SCHED_DEADLINE: return "DEADLINE";
	default: return "?";
	}
}

bool threads_is_rt(const struct thread_info *t)
{
	return t->policy == SCHED_FIFO || t->policy == SCHED_RR || t->policy == SCHED_DEADLINE;
}

bool threads_is_pinned(const struct thread_table *tab, const struct thread_info *t)
{
	struct cpumask m;

	if (!t->have_affinity || !tab->have_online)
		return false;
	m = tab->online;
	if (tab->have_isolated) {
		struct cpumask hk = tab->online;

		cpumask_andnot(&hk, &tab->isolated);
		if (!cpumask_empty(&hk))
			m = hk;
	}
	cpumask_andnot(&m, &t->affinity);
	return !cpumask_empty(&m); /* some online CPU is not allowed */
}
