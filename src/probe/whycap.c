/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The capture side of `probe --why` (see whycap.h): a private tracefs
 * instance with only the events and CPUs needed, its per-CPU raw buffers
 * read through libtracefs (tracefs_cpu_read, non-blocking) and decoded with
 * libtraceevent (kbuffer + tep field reads, never the text form), lost
 * events counted from the sub-buffer headers and the per-CPU stats, and the
 * events kept only around the probe's late wake-ups. tracefs is the
 * library's to open; tunetop's own file rules (src/sysfs) do not apply to
 * it. Without HAVE_TRACEFS only the stubs at the bottom are built. */
#include "probe/whycap.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/xalloc.h"
#include "probe/whyattr.h"
#include "sysfs/sysroot.h"

void whycap_instance_name(pid_t pid, char *buf, size_t cap)
{
	snprintf(buf, cap, "tunetop-%ld", (long)pid);
}

/* The idle states' declared exit latency and name, from cpuidle. */
static int64_t idle_exit_ns(void *ctx, int cpu, unsigned state)
{
	uint64_t us;

	(void)ctx;
	if (sysfs_read_u64f(sysroot_live(), &us,
			    "sys/devices/system/cpu/cpu%d/cpuidle/state%u/latency", cpu, state))
		return -1;
	return (int64_t)us * 1000;
}

static const char *idle_name(void *ctx, int cpu, unsigned state)
{
	static char name[32];

	(void)ctx;
	if (sysfs_read_strf(sysroot_live(), name, sizeof(name),
			    "sys/devices/system/cpu/cpu%d/cpuidle/state%u/name", cpu, state))
		snprintf(name, sizeof(name), "state%u", state);
	return name;
}

void whycap_idle_opts(struct why_opts *o)
{
	o->idle_exit_ns = idle_exit_ns;
	o->idle_name = idle_name;
}

#ifdef HAVE_TRACEFS

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

/* The events: kind, tracepoint, and whether --why can do without it. */
static const struct evdef {
	enum why_ev_kind kind;
	const char *sys, *name;
	bool optional;
} evdefs[] = {
	{WEV_SWITCH, "sched", "sched_switch", false},
	{WEV_WAKING, "sched", "sched_waking", false},
	{WEV_WAKEUP, "sched", "sched_wakeup", false},
	{WEV_MIGRATE, "sched", "sched_migrate_task", true},
	{WEV_IRQ, "irq", "irq_handler_entry", false},
	{WEV_IRQ_EXIT, "irq", "irq_handler_exit", false},
	{WEV_SOFTIRQ, "irq", "softirq_entry", false},
	{WEV_SOFTIRQ_EXIT, "irq", "softirq_exit", false},
	{WEV_SOFTIRQ_RAISE, "irq", "softirq_raise", true},
	{WEV_IDLE, "power", "cpu_idle", false},
	{WEV_IDLE_MISS, "power", "cpu_idle_miss", true},
	{WEV_TIMER, "timer", "hrtimer_expire_entry", true},
};
#define NEVDEFS (sizeof(evdefs) / sizeof(evdefs[0]))

#define PAD_NS	       UINT64_C(1000000)    /* around a window, and progress slack */
#define PRE_MAX_NS     UINT64_C(1000000000) /* a window reaches at most 1 s back */
#define EV_BYTES_GUESS 48		    /* a raw sched event with its header */

struct win {
	uint64_t lo, hi;
};

struct capcpu {
	int cpu;
	struct tracefs_cpu *tcpu;
	struct why_events pending; /* read, not yet decided */
	struct win *wins;	   /* windows of the late records, in order */
	size_t nwins, capwins, wfirst;
	uint64_t progress_ns;
	uint64_t lost_stream; /* from the sub-buffer headers */
};

struct whycap {
	struct whycap_cfg cfg;
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	void *page;
	int page_size;
	int ids[NEVDEFS]; /* tep event id, -1 when not enabled */
	struct capcpu *cpu;
	int ncpu;
	struct why_events kept;
	uint64_t floor_ns;
	struct whycap_stats st;
	bool counting; /* calibration: count, keep nothing */
};

static struct capcpu *cc_of(struct whycap *c, int cpu)
{
	for (int i = 0; i < c->ncpu; i++)
		if (c->cpu[i].cpu == cpu)
			return &c->cpu[i];
	return NULL;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- decoding ------------------------------------------------------------ */

static long long fval(struct tep_event *ev, struct tep_record *r, const char *name)
{
	unsigned long long v = 0;

	if (tep_get_field_val(NULL, ev, name, r, &v, 0))
		return -1;
	return (long long)v;
}

static void fstr(struct tep_event *ev, struct tep_record *r, const char *name, char *out,
		 size_t cap)
{
	int len = 0;
	const char *p = tep_get_field_raw(NULL, ev, name, r, &len, 0);
	size_t n = 0;

	if (p && len > 0)
		for (; n + 1 < cap && n < (size_t)len && p[n]; n++)
			out[n] = p[n] == ' ' ? '_' : p[n];
	out[n] = '\0';
}

/* One raw record into *e; false when it is not one of ours. */
static bool decode(struct whycap *c, struct tep_record *r, struct why_event *e)
{
	struct tep_event *ev = tep_find_event_by_record(c->tep, r);
	size_t k;

	if (!ev)
		return false;
	for (k = 0; k < NEVDEFS; k++)
		if (c->ids[k] == ev->id)
			break;
	if (k == NEVDEFS)
		return false;
	memset(e, 0, sizeof(*e));
	e->ts_ns = r->ts;
	e->cpu = r->cpu;
	e->kind = evdefs[k].kind;
	switch (e->kind) {
	case WEV_SWITCH:
		fstr(ev, r, "prev_comm", e->u.sw.prev_comm, sizeof(e->u.sw.prev_comm));
		fstr(ev, r, "next_comm", e->u.sw.next_comm, sizeof(e->u.sw.next_comm));
		e->u.sw.prev_pid = (pid_t)fval(ev, r, "prev_pid");
		e->u.sw.next_pid = (pid_t)fval(ev, r, "next_pid");
		e->u.sw.prev_prio = (int)fval(ev, r, "prev_prio");
		e->u.sw.next_prio = (int)fval(ev, r, "next_prio");
		e->u.sw.prev_state = (long)fval(ev, r, "prev_state");
		break;
	case WEV_WAKING:
	case WEV_WAKEUP:
	case WEV_MIGRATE:
		fstr(ev, r, "comm", e->u.wk.comm, sizeof(e->u.wk.comm));
		e->u.wk.pid = (pid_t)fval(ev, r, "pid");
		e->u.wk.prio = (int)fval(ev, r, "prio");
		e->u.wk.target_cpu =
			(int)fval(ev, r, e->kind == WEV_MIGRATE ? "dest_cpu" : "target_cpu");
		e->u.wk.orig_cpu = e->kind == WEV_MIGRATE ? (int)fval(ev, r, "orig_cpu") : -1;
		break;
	case WEV_IRQ:
		e->u.irq.irq = (int)fval(ev, r, "irq");
		fstr(ev, r, "name", e->u.irq.name, sizeof(e->u.irq.name));
		break;
	case WEV_IRQ_EXIT:
		e->u.irq.irq = (int)fval(ev, r, "irq");
		e->u.irq.ret = (int)fval(ev, r, "ret");
		break;
	case WEV_SOFTIRQ:
	case WEV_SOFTIRQ_EXIT:
	case WEV_SOFTIRQ_RAISE: e->u.sirq.vec = (unsigned)fval(ev, r, "vec"); break;
	case WEV_IDLE: e->u.idle.state = (unsigned)fval(ev, r, "state"); break;
	case WEV_IDLE_MISS:
		e->u.idle.state = (unsigned)fval(ev, r, "state");
		e->u.idle.below = fval(ev, r, "below") ? 1 : 0;
		break;
	case WEV_TIMER:
		snprintf(e->u.timer.fn, sizeof(e->u.timer.fn), "0x%llx",
			 (unsigned long long)fval(ev, r, "function"));
		break;
	default: return false;
	}
	return true;
}

static void add_lost(struct whycap *c, struct capcpu *cc, uint64_t ts, uint64_t n)
{
	struct why_event e;

	memset(&e, 0, sizeof(e));
	e.ts_ns = ts;
	e.cpu = cc->cpu;
	e.kind = WEV_LOST;
	e.u.lost.n = n;
	cc->lost_stream += n;
	if (!c->counting)
		why_events_add(&c->kept, &e); /* always kept: few, and they matter */
}

/* Decode one sub-buffer of cc's CPU into its pending list. */
static void load_page(struct whycap *c, struct capcpu *cc)
{
	unsigned long long ts;
	int missed;
	void *data;

	if (kbuffer_load_subbuffer(c->kbuf, c->page) < 0)
		return;
	missed = kbuffer_missed_events(c->kbuf);
	data = kbuffer_read_event(c->kbuf, &ts);
	/* -1: events were lost but the kernel had no room to say how many */
	if (missed)
		add_lost(c, cc, data ? ts : mono_ns(), missed > 0 ? (uint64_t)missed : 1);
	for (; data; data = kbuffer_next_event(c->kbuf, &ts)) {
		struct tep_record r = {0};
		struct why_event e;

		r.ts = ts;
		r.data = data;
		r.size = kbuffer_event_size(c->kbuf);
		r.cpu = cc->cpu;
		if (!decode(c, &r, &e))
			continue;
		c->st.events_read++;
		if (!c->counting)
			why_events_add(&cc->pending, &e);
	}
}

/* Read everything the CPU's buffer holds now; returns the bytes read. */
static uint64_t drain_cpu(struct whycap *c, struct capcpu *cc)
{
	uint64_t bytes = 0;
	int n;

	while ((n = tracefs_cpu_read(cc->tcpu, c->page, true)) > 0) {
		bytes += (uint64_t)n;
		load_page(c, cc);
	}
	return bytes;
}

/* ---- windows and pruning ---------------------------------------------------- */

static bool in_wins(struct capcpu *cc, uint64_t ts)
{
	/* windows are in time order; the ones wholly before ts are passed */
	while (cc->wfirst < cc->nwins && cc->wins[cc->wfirst].hi < ts)
		cc->wfirst++;
	for (size_t i = cc->wfirst; i < cc->nwins && cc->wins[i].lo <= ts; i++)
		if (ts <= cc->wins[i].hi)
			return true;
	return false;
}

static uint64_t pre_ns(const struct whycap *c)
{
	uint64_t iv = c->cfg.interval_us * 1000u;

	return (iv < PRE_MAX_NS ? iv : PRE_MAX_NS) + PAD_NS;
}

/* Keep or drop the pending events of cc older than cut. */
static void prune_cpu(struct whycap *c, struct capcpu *cc, uint64_t cut)
{
	size_t i = 0, n = cc->pending.n;

	why_events_sort(&cc->pending);
	for (; i < n && cc->pending.ev[i].ts_ns < cut; i++)
		if (in_wins(cc, cc->pending.ev[i].ts_ns))
			why_events_add(&c->kept, &cc->pending.ev[i]);
	memmove(cc->pending.ev, cc->pending.ev + i, (n - i) * sizeof(cc->pending.ev[0]));
	cc->pending.n = n - i;
	/* forget the windows that ended before the events still to come */
	if (cc->wfirst > 0) {
		memmove(cc->wins, cc->wins + cc->wfirst,
			(cc->nwins - cc->wfirst) * sizeof(cc->wins[0]));
		cc->nwins -= cc->wfirst;
		cc->wfirst = 0;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Keep, of c->kept, the WEV_LATE at or over floor and what lies in their
 * windows (and every WEV_LOST). */
static void refilter(struct whycap *c, uint64_t floor)
{
	struct why_events *k = &c->kept;
	size_t out = 0;

	why_events_sort(k);
	for (int i = 0; i < c->ncpu; i++)
		c->cpu[i].nwins = c->cpu[i].wfirst = 0;
	for (size_t i = 0; i < k->n; i++) {
		const struct why_event *e = &k->ev[i];
		struct capcpu *cc = cc_of(c, e->cpu);

		if (e->kind != WEV_LATE || !cc || e->u.late.wake_ns - e->u.late.deadline_ns < floor)
			continue;
		if (cc->nwins == cc->capwins) {
			cc->capwins = cc->capwins ? 2 * cc->capwins : 64;
			cc->wins = xrealloc(cc->wins, cc->capwins * sizeof(*cc->wins));
		}
		cc->wins[cc->nwins++] = (struct win){
			e->u.late.deadline_ns > pre_ns(c) ? e->u.late.deadline_ns - pre_ns(c) : 0,
			e->u.late.wake_ns + PAD_NS};
	}
	for (size_t i = 0; i < k->n; i++) {
		const struct why_event *e = &k->ev[i];
		struct capcpu *cc = cc_of(c, e->cpu);
		bool keep;

		if (e->kind == WEV_LOST)
			keep = true;
		else if (e->kind == WEV_LATE)
			keep = e->u.late.wake_ns - e->u.late.deadline_ns >= floor;
		else
			keep = cc && in_wins(cc, e->ts_ns);
		if (keep)
			k->ev[out++] = *e;
	}
	k->n = out;
	for (int i = 0; i < c->ncpu; i++)
		c->cpu[i].wfirst = 0;
}

/* Over the cap: drop the smaller half of the late wake-ups. */
static void raise_floor(struct whycap *c)
{
	uint64_t *d = xmalloc((c->kept.n + 1) * sizeof(*d));
	size_t n = 0;

	for (size_t i = 0; i < c->kept.n; i++)
		if (c->kept.ev[i].kind == WEV_LATE)
			d[n++] = c->kept.ev[i].u.late.wake_ns - c->kept.ev[i].u.late.deadline_ns;
	if (n) {
		qsort(d, n, sizeof(*d), cmp_u64);
		if (d[n / 2] + 1 > c->floor_ns)
			c->floor_ns = d[n / 2] + 1;
	}
	free(d);
	refilter(c, c->floor_ns);
}

/* ---- setup ---------------------------------------------------------------------- */

static int fail(char *why, size_t cap, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(char *why, size_t cap, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, cap, fmt, ap);
	va_end(ap);
	return rc;
}

/* 1 when tracefs is mounted; 0 when it was not (and is now, with mount and
 * path set), -1 on failure. libtracefs
 * 1.6 hands out a copy of the path that nobody frees: freed here. */
static int is_mounted(bool mount, char *path, size_t cap)
{
	const char *p = NULL;
	int m = tracefs_tracing_dir_is_mounted(mount, &p);

	if (path)
		snprintf(path, cap, "%s", m >= 0 && p ? p : "");
	free((void *)(uintptr_t)p);
	return m;
}

/* tracefs mounted, or mounted now when root (note says so). */
static int ensure_mounted(char *why, size_t cap, char *note, size_t ncap)
{
	char path[256];
	int e;

	if (is_mounted(false, NULL, 0) > 0)
		return 0;
	if (geteuid() != 0)
		return fail(why, cap, -EACCES,
			    "tracefs is not mounted (mounting it at /sys/kernel/tracing needs "
			    "root)");
	errno = 0;
	if (is_mounted(true, path, sizeof(path)) < 0 || !path[0]) {
		e = errno ? -errno : -ENOENT;
		return fail(why, cap, e,
			    "tracefs is not mounted and could not be mounted at "
			    "/sys/kernel/tracing: %s",
			    err_name(e));
	}
	snprintf(note, ncap, "mounted tracefs at %s", path);
	return 0;
}

/* Enable the events; a required one missing is an error naming it. */
static int enable_events(struct whycap *c, char *why, size_t cap)
{
	const char *systems[] = {"sched", "irq", "power", "timer", NULL};
	size_t off = 0;

	c->tep = tracefs_local_events_system(NULL, systems);
	if (!c->tep)
		return fail(why, cap, -ENOENT, "%s/events: cannot read the event formats",
			    tracefs_tracing_dir());
	for (size_t k = 0; k < NEVDEFS; k++) {
		struct tep_event *ev =
			tep_find_event_by_name(c->tep, evdefs[k].sys, evdefs[k].name);

		c->ids[k] = -1;
		if (!ev || tracefs_event_enable(c->inst, evdefs[k].sys, evdefs[k].name) < 0) {
			if (!evdefs[k].optional)
				return fail(why, cap, -ENOENT,
					    "event %s:%s is missing from this kernel's tracefs",
					    evdefs[k].sys, evdefs[k].name);
			off += (size_t)snprintf(c->st.optional_off + off,
						off < sizeof(c->st.optional_off)
							? sizeof(c->st.optional_off) - off
							: 0,
						"%s%s", off ? " " : "", evdefs[k].name);
			if (off >= sizeof(c->st.optional_off))
				off = sizeof(c->st.optional_off);
			continue;
		}
		c->ids[k] = ev->id;
	}
	return 0;
}

static int open_cpus(struct whycap *c, char *why, size_t cap)
{
	int i = 0;

	c->ncpu = cpumask_count(&c->cfg.cpus);
	c->cpu = xcalloc((size_t)c->ncpu, sizeof(*c->cpu));
	for (int k = cpumask_next(&c->cfg.cpus, 0); k >= 0; k = cpumask_next(&c->cfg.cpus, k + 1)) {
		struct capcpu *cc = &c->cpu[i++];

		cc->cpu = k;
		cc->tcpu = tracefs_cpu_open(c->inst, k, true);
		if (!cc->tcpu)
			return fail(why, cap, -errno ? -errno : -ENOENT,
				    "%s/instances/%s/per_cpu/cpu%d/trace_pipe_raw: %s",
				    tracefs_tracing_dir(), c->st.instance, k,
				    err_name(-errno ? -errno : -ENOENT));
		if (tracefs_cpu_read_size(cc->tcpu) > c->page_size)
			c->page_size = tracefs_cpu_read_size(cc->tcpu);
	}
	c->page = xcalloc(1, (size_t)c->page_size);
	c->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!c->kbuf)
		return fail(why, cap, -ENOMEM, "kbuffer_alloc failed");
	return 0;
}

/* Trace for WHYCAP_CALIBRATE_MS without the probe, count, size the buffers
 * for a few polls of that rate plus the probe's own events. */
static void calibrate(struct whycap *c)
{
	struct timespec ts = {0, WHYCAP_CALIBRATE_MS * 1000000L};
	uint64_t bytes = 0, most = 0, before, per_s, kb;

	c->counting = true;
	tracefs_trace_on(c->inst);
	nanosleep(&ts, NULL);
	tracefs_trace_off(c->inst);
	for (int i = 0; i < c->ncpu; i++) {
		uint64_t b;

		before = c->st.events_read;
		b = drain_cpu(c, &c->cpu[i]);
		if (c->st.events_read - before > most)
			most = c->st.events_read - before;
		if (b > bytes)
			bytes = b;
		c->cpu[i].lost_stream = 0;
	}
	c->counting = false;
	c->st.events_read = 0;
	c->st.rate_per_s = (double)most * 1000.0 / WHYCAP_CALIBRATE_MS;
	/* the probe's own: wake-up, switch in and out, timer, idle exit and
	 * entry per interval, and some */
	per_s = bytes * 1000u / WHYCAP_CALIBRATE_MS +
		8u * EV_BYTES_GUESS * 1000000u / (c->cfg.interval_us ? c->cfg.interval_us : 1);
	/* eight polls' worth: a late reader (the machine is loaded) loses nothing */
	kb = per_s * 8u * WHYCAP_POLL_MS / 1000u / 1024u;
	if (kb < WHYCAP_MIN_BUF_KB)
		kb = WHYCAP_MIN_BUF_KB;
	if (kb > WHYCAP_MAX_BUF_KB)
		kb = WHYCAP_MAX_BUF_KB;
	c->st.buffer_kb = (unsigned)kb;
	tracefs_instance_set_buffer_size(c->inst, kb, -1);
	for (int i = 0; i < c->ncpu; i++)
		drain_cpu(c, &c->cpu[i]);
}

int whycap_open(struct whycap **out, const struct whycap_cfg *cfg, char *why, size_t cap,
		char *note, size_t ncap)
{
	struct whycap *c;
	char cpus[256], dir[320];
	int rc;

	*out = NULL;
	note[0] = '\0';
	rc = ensure_mounted(why, cap, note, ncap);
	if (rc)
		return rc;
	c = xcalloc(1, sizeof(*c));
	c->cfg = *cfg;
	whycap_instance_name(getpid(), c->st.instance, sizeof(c->st.instance));
	/* asked first: libtracefs 1.6 leaks when tracefs_instance_create fails */
	snprintf(dir, sizeof(dir), "%s/instances", tracefs_tracing_dir());
	if (access(dir, W_OK)) {
		rc = -errno;
		snprintf(why, cap, "%s: %s%s", dir, err_name(rc),
			 rc == -EACCES || rc == -EPERM ? " (a tracefs instance needs root)" : "");
		free(c);
		return rc;
	}
	errno = 0;
	c->inst = tracefs_instance_create(c->st.instance);
	if (!c->inst) {
		rc = errno ? -errno : -EACCES;
		snprintf(why, cap, "%s/instances/%s: %s%s", tracefs_tracing_dir(), c->st.instance,
			 err_name(rc),
			 rc == -EACCES || rc == -EPERM ? " (a tracefs instance needs root)" : "");
		free(c);
		return rc;
	}
	*out = c;
	tracefs_trace_off(c->inst);
	cpulist_format(&cfg->cpus, cpus, sizeof(cpus));
	if (tracefs_instance_file_write(c->inst, "trace_clock", "mono") < 0)
		rc = fail(why, cap, -EINVAL, "%s/instances/%s/trace_clock: mono refused",
			  tracefs_tracing_dir(), c->st.instance);
	else if (tracefs_instance_set_affinity(c->inst, cpus) < 0)
		rc = fail(why, cap, -EINVAL, "%s/instances/%s/tracing_cpumask: CPUs %s refused",
			  tracefs_tracing_dir(), c->st.instance, cpus);
	if (rc) {
		whycap_close(c);
		*out = NULL;
		return rc;
	}
	tracefs_instance_set_buffer_size(c->inst, 1024, -1);
	rc = enable_events(c, why, cap);
	if (!rc)
		rc = open_cpus(c, why, cap);
	if (rc) {
		whycap_close(c); /* the instance goes too */
		*out = NULL;
		return rc;
	}
	calibrate(c);
	return 0;
}

int whycap_start(struct whycap *c)
{
	return tracefs_trace_on(c->inst) < 0 ? -EIO : 0;
}

void whycap_add_late(struct whycap *c, int cpu, pid_t tid, uint64_t deadline_ns, uint64_t wake_ns)
{
	struct capcpu *cc = cc_of(c, cpu);
	struct why_event e;

	if (!cc || wake_ns < deadline_ns)
		return;
	c->st.late_records++;
	if (wake_ns - deadline_ns < c->floor_ns)
		return;
	memset(&e, 0, sizeof(e));
	e.ts_ns = wake_ns;
	e.cpu = cpu;
	e.kind = WEV_LATE;
	e.u.late.tid = tid;
	e.u.late.deadline_ns = deadline_ns;
	e.u.late.wake_ns = wake_ns;
	why_events_add(&c->kept, &e);
	if (cc->nwins == cc->capwins) {
		cc->capwins = cc->capwins ? 2 * cc->capwins : 64;
		cc->wins = xrealloc(cc->wins, cc->capwins * sizeof(*cc->wins));
	}
	cc->wins[cc->nwins++] = (struct win){deadline_ns > pre_ns(c) ? deadline_ns - pre_ns(c) : 0,
					     wake_ns + PAD_NS};
}

void whycap_progress(struct whycap *c, int cpu, uint64_t progress_ns)
{
	struct capcpu *cc = cc_of(c, cpu);

	if (cc && progress_ns > cc->progress_ns)
		cc->progress_ns = progress_ns;
}

int whycap_poll(struct whycap *c)
{
	for (int i = 0; i < c->ncpu; i++) {
		struct capcpu *cc = &c->cpu[i];

		drain_cpu(c, cc);
		/* a late record yet to come has its deadline after the progress */
		if (cc->progress_ns > pre_ns(c) + PAD_NS)
			prune_cpu(c, cc, cc->progress_ns - pre_ns(c) - PAD_NS);
	}
	if (c->kept.n > WHYCAP_KEEP_MAX)
		raise_floor(c);
	return 0;
}

/* Events the kernel dropped by its own count (overrun: overwritten before
 * they were read; dropped events: refused when full), per CPU. */
static uint64_t stats_lost(struct whycap *c, int cpu)
{
	char file[64], *text, *p;
	uint64_t n = 0;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	text = tracefs_instance_file_read(c->inst, file, NULL);
	if (!text)
		return 0;
	if ((p = strstr(text, "overrun: ")))
		n += strtoull(p + 9, NULL, 10);
	if ((p = strstr(text, "dropped events: ")))
		n += strtoull(p + 16, NULL, 10);
	free(text);
	return n;
}

void whycap_stop(struct whycap *c)
{
	uint64_t now = mono_ns();

	tracefs_trace_off(c->inst);
	for (int i = 0; i < c->ncpu; i++) {
		struct capcpu *cc = &c->cpu[i];
		uint64_t k;

		drain_cpu(c, cc);
		k = stats_lost(c, cc->cpu);
		if (k > cc->lost_stream)
			add_lost(c, cc, now, k - cc->lost_stream);
		prune_cpu(c, cc, UINT64_MAX);
	}
}

void whycap_stats_now(const struct whycap *c, struct whycap_stats *st)
{
	*st = c->st;
	st->lost = 0;
	for (int i = 0; i < c->ncpu; i++)
		st->lost += c->cpu[i].lost_stream;
	st->floor_ns = c->floor_ns;
}

void whycap_finish(struct whycap *c, uint64_t threshold_ns, struct why_events *out,
		   struct whycap_stats *st)
{
	uint64_t floor = threshold_ns > c->floor_ns ? threshold_ns : c->floor_ns;

	refilter(c, floor);
	c->st.events_kept = 0;
	for (size_t i = 0; i < c->kept.n; i++) {
		why_events_add(out, &c->kept.ev[i]);
		if (c->kept.ev[i].kind != WEV_LATE && c->kept.ev[i].kind != WEV_LOST)
			c->st.events_kept++;
	}
	why_events_sort(out);
	c->st.lost = 0;
	for (int i = 0; i < c->ncpu; i++)
		c->st.lost += c->cpu[i].lost_stream;
	c->st.floor_ns = c->floor_ns;
	*st = c->st;
	why_events_free(&c->kept);
}

void whycap_close(struct whycap *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->ncpu; i++) {
		if (c->cpu[i].tcpu)
			tracefs_cpu_close(c->cpu[i].tcpu);
		why_events_free(&c->cpu[i].pending);
		free(c->cpu[i].wins);
	}
	free(c->cpu);
	if (c->inst) {
		tracefs_trace_off(c->inst);
		tracefs_instance_destroy(c->inst);
		tracefs_instance_free(c->inst);
	}
	if (c->kbuf)
		kbuffer_free(c->kbuf);
	if (c->tep)
		tep_free(c->tep);
	free(c->page);
	why_events_free(&c->kept);
	free(c);
}

/* "tunetop-<digits>": an instance of ours; its pid, or 0 */
static long instance_pid(const char *name)
{
	const char *d = name + 8;

	if (strncmp(name, "tunetop-", 8) != 0 || !*d || strspn(d, "0123456789") != strlen(d) ||
	    strlen(d) > 9)
		return 0;
	return strtol(d, NULL, 10);
}

/* The instances directory is read with readdir, not tracefs_instances():
 * libtracefs 1.6.4 leaves that function's compiled regex unfreed
 * (LeakSanitizer in every `restore` once tracefs is mounted). */
int whycap_remove_stale(char *why, size_t cap)
{
	const char *top;
	char dir[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int removed = 0, rc = 0;

	if (is_mounted(false, NULL, 0) <= 0)
		return 0;
	top = tracefs_tracing_dir();
	if (!top || snprintf(dir, sizeof(dir), "%s/instances", top) >= (int)sizeof(dir))
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		long pid = instance_pid(de->d_name);
		struct tracefs_instance *inst;

		if (pid <= 0 || (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
			continue;
		inst = tracefs_instance_alloc(NULL, de->d_name);
		if (!inst)
			continue;
		tracefs_trace_off(inst);
		if (tracefs_instance_destroy(inst) < 0) {
			if (!rc) {
				rc = errno ? -errno : -EIO;
				snprintf(why, cap, "%s/%s: %s", dir, de->d_name, err_name(rc));
			}
		} else {
			removed++;
		}
		tracefs_instance_free(inst);
	}
	closedir(d);
	return rc ? rc : removed;
}

#else /* !HAVE_TRACEFS */

struct whycap {
	int unused;
};

int whycap_open(struct whycap **out, const struct whycap_cfg *cfg, char *why, size_t cap,
		char *note, size_t ncap)
{
	(void)cfg;
	*out = NULL;
	note[0] = '\0';
	(void)ncap;
	snprintf(why, cap, "built without libtracefs and libtraceevent (configure --with-tracefs)");
	return -ENOTSUP;
}

int whycap_start(struct whycap *c)
{
	(void)c;
	return -ENOTSUP;
}

void whycap_add_late(struct whycap *c, int cpu, pid_t tid, uint64_t deadline_ns, uint64_t wake_ns)
{
	(void)c, (void)cpu, (void)tid, (void)deadline_ns, (void)wake_ns;
}

void whycap_progress(struct whycap *c, int cpu, uint64_t progress_ns)
{
	(void)c, (void)cpu, (void)progress_ns;
}

int whycap_poll(struct whycap *c)
{
	(void)c;
	return -ENOTSUP;
}

void whycap_stop(struct whycap *c)
{
	(void)c;
}

void whycap_stats_now(const struct whycap *c, struct whycap_stats *st)
{
	(void)c;
	memset(st, 0, sizeof(*st));
}

void whycap_finish(struct whycap *c, uint64_t threshold_ns, struct why_events *out,
		   struct whycap_stats *st)
{
	(void)c, (void)threshold_ns, (void)out;
	memset(st, 0, sizeof(*st));
}

void whycap_close(struct whycap *c)
{
	(void)c;
}

int whycap_remove_stale(char *why, size_t cap)
{
	(void)why, (void)cap;
	return 0;
}

#endif
