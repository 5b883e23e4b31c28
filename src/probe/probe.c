/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The latency probe threads: setup (affinity, policy, memory lock, optional
 * PM QoS hold), the measuring loop, the start handshake, live snapshots,
 * reset and stop. See probe.h for the method and the overflow rule.
 *
 * The measuring loop is the whole point of the file and stays minimal: one
 * clock_nanosleep(TIMER_ABSTIME) on CLOCK_MONOTONIC, one clock_gettime, one
 * histogram update with plain (relaxed atomic) stores. No locks, no
 * allocation, no system calls besides those two. Signals are blocked in the
 * measuring threads; stop uses pthread_cancel, whose only cancellation point
 * in the loop is clock_nanosleep, so a stop never interrupts an update. */
#include "probe/probe.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/sched_sys.h"
#include "core/xalloc.h"
#include "sysfs/sysroot.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TT_HAS_ASAN 1
#endif
#endif
#ifndef TT_HAS_ASAN
#define TT_HAS_ASAN 0
#endif

#define THREAD_STACK_BYTES (256 * 1024) /* small: mlockall locks every stack */

#define LD(p)	 __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define ST(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

static const char *const policy_names[] = {
	[PROBE_POLICY_FIFO] = "fifo",
	[PROBE_POLICY_RR] = "rr",
	[PROBE_POLICY_OTHER] = "other",
};
#define NPOLICY (sizeof(policy_names) / sizeof(policy_names[0]))

const char *probe_policy_name(enum probe_policy pol)
{
	return (size_t)pol < NPOLICY ? policy_names[pol] : "?";
}

int probe_policy_parse(const char *s, enum probe_policy *out)
{
	for (size_t i = 0; i < NPOLICY; i++)
		if (!strcmp(s, policy_names[i])) {
			*out = (enum probe_policy)i;
			return 0;
		}
	return -EINVAL;
}

const char *probe_sched_name(int pol)
{
	switch (pol & ~SCHED_RESET_ON_FORK) {
	case SCHED_OTHER: return "SCHED_OTHER";
	case SCHED_FIFO: return "SCHED_FIFO";
	case SCHED_RR: return "SCHED_RR";
	case SCHED_BATCH: return "SCHED_BATCH";
	case SCHED_IDLE: return "SCHED_IDLE";
	}
	return "SCHED_?";
}

const char *probe_policy_text(const struct probe *p, char *buf, size_t cap)
{
	const struct probe_thread *t = p->n ? &p->thr[0] : NULL;

	if (!t)
		snprintf(buf, cap, "n/a");
	else if (t->policy == SCHED_FIFO || t->policy == SCHED_RR)
		snprintf(buf, cap, "%s %d", probe_sched_name(t->policy), t->prio);
	else
		snprintf(buf, cap, "%s%s", probe_sched_name(t->policy),
			 p->fallback ? " (real-time refused)" : "");
	return buf;
}

static int sched_of(enum probe_policy pol)
{
	return pol == PROBE_POLICY_FIFO ? SCHED_FIFO
	       : pol == PROBE_POLICY_RR ? SCHED_RR
					: SCHED_OTHER;
}

int probe_online_cpus(struct cpumask *out)
{
	char buf[4096];
	int rc = sysfs_read_str(sysroot_live(), "sys/devices/system/cpu/online", buf, sizeof(buf));

	if (rc)
		return rc;
	return cpulist_parse(buf, out);
}

int probe_cfg_check(const struct probe_cfg *cfg, char *why, size_t cap)
{
	struct cpumask online, off;
	char list[256], on[256];
	int rc;

	if (cpumask_empty(&cfg->cpus)) {
		snprintf(why, cap, "no CPUs to measure");
		return -EINVAL;
	}
	rc = probe_online_cpus(&online);
	if (rc) {
		snprintf(why, cap, "/sys/devices/system/cpu/online: %s", err_name(rc));
		return rc;
	}
	off = cfg->cpus;
	cpumask_andnot(&off, &online);
	if (!cpumask_empty(&off)) {
		cpulist_format(&off, list, sizeof(list));
		cpulist_format(&online, on, sizeof(on));
		snprintf(why, cap, "CPU %s %s not online (online: %s)", list,
			 cpumask_count(&off) > 1 ? "are" : "is", on);
		return -EINVAL;
	}
	if (cfg->interval_us < PROBE_MIN_INTERVAL_US || cfg->interval_us > PROBE_MAX_INTERVAL_US) {
		snprintf(why, cap, "interval %llu us is out of range %d..%d",
			 (unsigned long long)cfg->interval_us, PROBE_MIN_INTERVAL_US,
			 PROBE_MAX_INTERVAL_US);
		return -ERANGE;
	}
	if (cfg->policy == PROBE_POLICY_OTHER) {
		if (cfg->prio != 0) {
			snprintf(why, cap, "priority %d: policy 'other' takes no priority",
				 cfg->prio);
			return -EINVAL;
		}
	} else {
		int lo = sched_get_priority_min(sched_of(cfg->policy));
		int hi = sched_get_priority_max(sched_of(cfg->policy));

		if (lo < 0 || hi < 0) {
			lo = 1;
			hi = 99;
		}
		if (cfg->prio < lo || cfg->prio > hi) {
			snprintf(why, cap, "priority %d is out of range %d..%d for %s", cfg->prio,
				 lo, hi, probe_policy_name(cfg->policy));
			return -ERANGE;
		}
	}
	if (cfg->dma_latency_us < -1) {
		snprintf(why, cap, "dma latency %d us is negative", cfg->dma_latency_us);
		return -ERANGE;
	}
	return 0;
}

static void ts_from_ns(struct timespec *ts, uint64_t ns)
{
	ts->tv_sec = (time_t)(ns / 1000000000u);
	ts->tv_nsec = (long)(ns % 1000000000u);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void fail(struct probe_thread *t, const char *op, int err)
{
	t->err_op = op;
	ST(&t->err, err);
}

/* Pin, set the policy, name the thread. Returns 0 or -errno (t->err set). */
static int thread_setup(struct probe_thread *t)
{
	struct probe *p = t->p;
	size_t sz = CPU_ALLOC_SIZE(t->cpu + 1);
	cpu_set_t *set = CPU_ALLOC(t->cpu + 1);
	char name[16];
	int pol, prio = 0, e;

	if (!set) {
		fail(t, "CPU_ALLOC", -ENOMEM);
		return -ENOMEM;
	}
	CPU_ZERO_S(sz, set);
	CPU_SET_S(t->cpu, sz, set);
	if (sched_setaffinity(0, sz, set)) {
		e = -errno;
		CPU_FREE(set);
		fail(t, "sched_setaffinity", e);
		return e;
	}
	CPU_FREE(set);
	snprintf(name, sizeof(name), "tt-probe/%d", t->cpu);
	pthread_setname_np(pthread_self(), name);

	pol = sched_of(p->cfg.policy);
	if (pol != SCHED_OTHER)
		prio = p->cfg.prio;
	e = tt_sched_setscheduler(0, pol, prio);
	if (e) {
		if (e != -EPERM || pol == SCHED_OTHER) {
			fail(t, "sched_setscheduler", e);
			return e;
		}
		/* Not permitted (no CAP_SYS_NICE, RLIMIT_RTPRIO, or an RT
		 * group without runtime): measure as a normal thread. */
		ST(&p->fallback, true);
		tt_sched_setscheduler(0, SCHED_OTHER, 0);
	}
	e = tt_sched_getscheduler(0);
	t->policy = e < 0 ? e : e & ~SCHED_RESET_ON_FORK;
	if (tt_sched_getparam(0, &t->prio) != 0)
		t->prio = -1;
	return 0;
}

static void thread_ready(struct probe_thread *t)
{
	ready_gate_arrive(&t->p->gate);
}

static void thread_left(void *arg)
{
	struct probe_thread *t = arg;

	ST(&t->running, false);
}

/* The first wake-up over the break threshold: stop tracing first (one
 * write, the only extra system call, and only here), then record the event
 * and tell every thread to leave. Only one thread wins the claim. */
static void take_break(struct probe_thread *t, uint64_t lat, uint64_t now)
{
	struct probe *p = t->p;
	int expect = 0;

	if (!__atomic_compare_exchange_n(&p->brk_claim, &expect, 1, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return;
	if (p->cfg.break_fd >= 0) {
		ssize_t w = pwrite(p->cfg.break_fd, "0\n", 2, 0);

		if (w < 0 && errno == ESPIPE)
			w = write(p->cfg.break_fd, "0\n", 2);
		p->brk.trace_err = w == 2 ? 0 : w < 0 ? -errno : -EIO;
		p->brk.trace_stopped = w == 2;
	}
	p->brk.cpu = t->cpu;
	p->brk.tid = LD(&t->tid);
	p->brk.latency_ns = lat;
	p->brk.at_ns = now;
	ST(&p->brk.hit, true);
	ST(&p->stop, true);
}

bool probe_broke(const struct probe *p)
{
	return LD(&p->brk.hit);
}

/* A wake-up over the late bar: one slot of the ring, or a drop when the
 * reader is behind (the reader's tail is only read here). */
static void late_push(struct probe_thread *t, uint64_t deadline, uint64_t now)
{
	uint64_t head = t->late_head;

	if (head - LD(&t->late_tail) >= PROBE_LATE_RING) {
		ST(&t->late_drops, t->late_drops + 1);
		return;
	}
	t->late[head % PROBE_LATE_RING] = (struct probe_late){deadline, now};
	ST(&t->late_head, head + 1);
}

void probe_set_late_bar(struct probe *p, uint64_t bar_ns)
{
	__atomic_store_n(&p->late_bar_ns, bar_ns, __ATOMIC_RELAXED);
}

size_t probe_late_drain(struct probe *p, int i, struct probe_late *out, size_t cap,
			uint64_t *progress_ns, uint64_t *drops)
{
	struct probe_thread *t = &p->thr[i];
	uint64_t tail = t->late_tail, head;
	size_t n = 0;

	*progress_ns = LD(&t->last_wake_ns);
	*drops = LD(&t->late_drops);
	if (!t->late)
		return 0;
	head = LD(&t->late_head);
	while (tail != head && n < cap)
		out[n++] = t->late[tail++ % PROBE_LATE_RING];
	ST(&t->late_tail, tail);
	return n;
}

static void *thread_main(void *arg)
{
	struct probe_thread *t = arg;
	struct probe *p = t->p;
	const uint64_t iv = p->cfg.interval_us * 1000u;
	const uint64_t brk_ns = p->cfg.break_us * 1000u;
	uint64_t next;

	ST(&t->tid, (pid_t)syscall(SYS_gettid));
	if (thread_setup(t)) {
		thread_ready(t);
		return NULL;
	}
	ST(&t->running, true);
	thread_ready(t);

	pthread_cleanup_push(thread_left, t);
	next = now_ns() + iv;
	ST(&t->last_wake_ns, next - iv);
	while (!LD(&p->stop)) {
		struct timespec ts;
		uint64_t now, lat;
		int rc;

		ts_from_ns(&ts, next);
		/* clock_nanosleep returns the error; it does not set errno. */
		rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (rc == EINTR)
			continue;
		if (rc) {
			fail(t, "clock_nanosleep", -rc);
			break;
		}
		now = now_ns();
		if (__atomic_load_n(&t->reset_req, __ATOMIC_ACQUIRE) != t->reset_ack) {
			hist_reset(&t->hist);
			ST(&t->reset_ack, t->reset_req);
		}
		lat = now > next ? now - next : 0;
		hist_add(&t->hist, lat, now);
		/* a late record (pushed first) is visible before its progress;
		 * the wake time also tells probe_stalled_ns the thread lives */
		if (t->late && lat > __atomic_load_n(&p->late_bar_ns, __ATOMIC_RELAXED))
			late_push(t, next, now);
		ST(&t->last_wake_ns, now);
		if (brk_ns && lat > brk_ns) {
			take_break(t, lat, now);
			break;
		}
		next += iv;
		if (now > next) {
			/* Woke after the following deadline(s): skip them, stay on
			 * the grid, count them. */
			uint64_t missed = (now - next) / iv + 1;

			next += missed * iv;
			hist_add_overflows(&t->hist, missed);
		}
	}
	pthread_cleanup_pop(1);
	return NULL;
}

/* /dev/cpu_dma_latency is a device node, not a system-wide file under the
 * root, so it is opened here directly rather than through src/sysfs: the
 * request exists only while this fd is open (kernel/power/qos.c), so it
 * cannot be replayed against a fixture root and needs no journal. The value
 * is written as exactly 4 bytes (a binary s32); any other length would be
 * parsed as hex text. */
static int dma_hold(struct probe *p, char *why, size_t cap)
{
	int32_t v = p->cfg.dma_latency_us, eff;
	int fd = open("/dev/cpu_dma_latency", O_RDWR | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		int e = -errno;

		snprintf(why, cap, "/dev/cpu_dma_latency: %s (needs root)", err_name(e));
		return e;
	}
	n = write(fd, &v, sizeof(v));
	if (n != (ssize_t)sizeof(v)) {
		int e = n < 0 ? -errno : -EIO;

		snprintf(why, cap, "/dev/cpu_dma_latency: write %d: %s", (int)v, err_name(e));
		close(fd);
		return e;
	}
	p->dma_fd = fd;
	if (pread(fd, &eff, sizeof(eff), 0) == (ssize_t)sizeof(eff))
		p->dma_effective_us = eff;
	else if (read(fd, &eff, sizeof(eff)) == (ssize_t)sizeof(eff))
		p->dma_effective_us = eff;
	return 0;
}

static void note(struct probe *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct probe *p, const char *fmt, ...)
{
	va_list ap;

	if (p->nnotes >= PROBE_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(p->note[p->nnotes++], sizeof(p->note[0]), fmt, ap);
	va_end(ap);
}

int probe_error(const struct probe *p, int *cpu, const char **op)
{
	for (int i = 0; i < p->n; i++) {
		int e = LD(&p->thr[i].err);

		if (e) {
			if (cpu)
				*cpu = p->thr[i].cpu;
			if (op)
				*op = p->thr[i].err_op;
			return e;
		}
	}
	return 0;
}

/* probe_stop's pthread_cancel makes glibc load libgcc_s (the unwinder) the
 * first time. Under mlockall(MCL_FUTURE) that mapping counts against
 * RLIMIT_MEMLOCK (8 MB for users), and when it does not fit glibc aborts
 * ("libgcc_s.so.1 must be installed for pthread_cancel to work"): load it
 * before locking. Kept loaded; failure is harmless (static builds). */
#if !(defined(__SANITIZE_ADDRESS__) || TT_HAS_ASAN)
static void preload_unwinder(void)
{
	(void)dlopen("libgcc_s.so.1", RTLD_NOW | RTLD_NODELETE);
}
#endif

int probe_start(struct probe *p, const struct probe_cfg *cfg, char *why, size_t cap)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int rc, i = 0, c, ecpu = -1;
	const char *eop = "";

	memset(p, 0, sizeof(*p));
	p->cfg = *cfg;
	p->late_bar_ns = UINT64_MAX;
	p->dma_fd = -1;
	p->dma_effective_us = -1;
	rc = probe_cfg_check(cfg, why, cap);
	if (rc)
		return rc;
	ready_gate_init(&p->gate);
	p->n = cpumask_count(&cfg->cpus);
	p->thr = xcalloc((size_t)p->n, sizeof(*p->thr));
	for (c = cpumask_next(&cfg->cpus, 0); c >= 0; c = cpumask_next(&cfg->cpus, c + 1)) {
		p->thr[i].cpu = c;
		p->thr[i].p = p;
		hist_init(&p->thr[i].hist);
		if (cfg->late)
			p->thr[i].late = xcalloc(PROBE_LATE_RING, sizeof(struct probe_late));
		i++;
	}
	if (cfg->dma_latency_us >= 0) {
		rc = dma_hold(p, why, cap);
		if (rc) {
			p->stopped = true;
			return rc;
		}
	}
#if defined(__SANITIZE_ADDRESS__) || TT_HAS_ASAN
	/* Locking AddressSanitizer's terabytes of shadow mappings would take
	 * the machine down; sanitizer builds are for testing, not measuring. */
	note(p, "mlockall skipped in an AddressSanitizer build: page faults may add latency");
#else
	if (cfg->no_mlock) {
		/* the caller says why */
	} else {
		preload_unwinder();
		if (mlockall(MCL_CURRENT | MCL_FUTURE) == 0)
			p->mlocked = true;
		else
			note(p, "mlockall: %s: memory not locked, page faults may add latency",
			     err_name(-errno));
	}
#endif

	/* The threads never take signals: the caller (or the TUI) handles
	 * them and calls probe_stop. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK_BYTES);
	p->start_ns = now_ns();
	for (i = 0; i < p->n; i++) {
		rc = pthread_create(&p->thr[i].thread, &attr, thread_main, &p->thr[i]);
		if (rc) {
			snprintf(why, cap, "cpu %d: pthread_create: %s", p->thr[i].cpu,
				 err_name(rc));
			rc = -rc;
			break;
		}
		p->thr[i].started = true;
	}
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	/* Wait until every started thread (the first i: creation stops at the
	 * first failure) is pinned and scheduled (or failed). */
	ready_gate_wait(&p->gate, i);

	if (!rc) {
		rc = probe_error(p, &ecpu, &eop);
		if (rc)
			snprintf(why, cap, "cpu %d: %s: %s", ecpu, eop, err_name(rc));
	}
	if (rc) {
		probe_stop(p);
		return rc;
	}
	if (LD(&p->fallback))
		note(p, "SCHED_%s priority %d not permitted (EPERM): measuring with SCHED_OTHER",
		     cfg->policy == PROBE_POLICY_RR ? "RR" : "FIFO", cfg->prio);
	return 0;
}

void probe_stop(struct probe *p)
{
	if (p->stopped)
		return;
	ST(&p->stop, true);
	p->stop_ns = now_ns();
	for (int i = 0; i < p->n; i++) {
		if (!p->thr[i].started)
			continue;
		/* Wakes a thread sleeping on a long interval right away; the
		 * cancellation point is clock_nanosleep only. */
		pthread_cancel(p->thr[i].thread);
		pthread_join(p->thr[i].thread, NULL);
		p->thr[i].started = false;
	}
	if (p->dma_fd >= 0) {
		close(p->dma_fd); /* releases the PM QoS request */
		p->dma_fd = -1;
	}
	if (p->mlocked)
		munlockall();
	p->stopped = true;
}

void probe_free(struct probe *p)
{
	probe_stop(p);
	if (p->thr) {
		ready_gate_destroy(&p->gate);
		for (int i = 0; i < p->n; i++)
			free(p->thr[i].late);
	}
	free(p->thr);
	p->thr = NULL;
	p->n = 0;
}

void probe_snapshot(const struct probe *p, int i, struct hist *out)
{
	hist_snapshot(&p->thr[i].hist, out);
}

void probe_snapshot_all(const struct probe *p, struct hist *out)
{
	struct hist *tmp = xmalloc(sizeof(*tmp));

	hist_init(out);
	for (int i = 0; i < p->n; i++) {
		hist_snapshot(&p->thr[i].hist, tmp);
		hist_merge(out, tmp);
	}
	free(tmp);
}

/* Each thread acknowledges at its next wake-up: two intervals and 2 s of
 * margin, for a machine where wake-ups come hundreds of ms late (an
 * emulated guest on a loaded host: tests/qemu/x86.sh saw 100 ms time out). */
int probe_reset(struct probe *p)
{
	return probe_reset_wait(p, 2 * p->cfg.interval_us * 1000u + 2000000000u, NULL);
}

uint64_t probe_stalled_ns(const struct probe *p, int *cpu)
{
	uint64_t now = now_ns(), worst = 0;

	for (int i = 0; i < p->n; i++) {
		const struct probe_thread *t = &p->thr[i];
		uint64_t w = LD(&t->last_wake_ns);

		if (p->stopped || !LD(&t->running) || !w || w >= now)
			continue;
		if (now - w > worst) {
			worst = now - w;
			if (cpu)
				*cpu = t->cpu;
		}
	}
	return worst;
}

int probe_reset_wait(struct probe *p, uint64_t timeout_ns, int *cpu)
{
	uint64_t deadline = now_ns() + timeout_ns;
	bool pending;

	for (int i = 0; i < p->n; i++) {
		struct probe_thread *t = &p->thr[i];

		if (p->stopped || !LD(&t->running))
			hist_reset(&t->hist); /* no writer any more */
		else
			ST(&t->reset_req, t->reset_req + 1);
	}
	do {
		pending = false;
		for (int i = 0; i < p->n; i++) {
			struct probe_thread *t = &p->thr[i];

			if (p->stopped || LD(&t->reset_ack) == t->reset_req)
				continue;
			if (LD(&t->running)) {
				pending = true;
				if (cpu)
					*cpu = t->cpu;
			} else { /* left the loop before acknowledging */
				hist_reset(&t->hist);
				ST(&t->reset_ack, t->reset_req);
			}
		}
		if (!pending)
			return 0;
		{
			struct timespec ts = {0, 1000000};

			nanosleep(&ts, NULL);
		}
	} while (now_ns() < deadline);
	return -ETIMEDOUT;
}
