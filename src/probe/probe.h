/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The latency probe: one measuring thread per CPU, pinned, real-time
 * (SCHED_FIFO 95 by default), memory locked, sleeping on absolute
 * CLOCK_MONOTONIC deadlines; each wake-up records latency = wake time -
 * deadline into the thread's histogram (probe/histogram.h).
 *
 * Late wake-ups: when a thread wakes after one or more *following* deadlines
 * have already passed, those deadlines are skipped and counted as
 * "overflows" (hist.overflows), and the thread re-arms on the original grid:
 * the next deadline is the first grid point after the wake time (cyclictest's
 * clock_nanosleep mode does the same, but does not count them). So samples +
 * overflows ~= duration / interval.
 *
 * The probe does not touch PM QoS unless dma_latency_us >= 0 is asked for:
 * then it holds /dev/cpu_dma_latency open with that value for the run.
 *
 * Lifetime: probe_start -> (probe_snapshot / probe_reset while running, from
 * any thread) -> probe_stop -> read p->cpu[i].hist -> probe_free. */
#ifndef TT_PROBE_PROBE_H
#define TT_PROBE_PROBE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/cpumask.h"
#include "probe/readygate.h"
#include "probe/histogram.h"

enum probe_policy {
	PROBE_POLICY_FIFO,
	PROBE_POLICY_RR,
	PROBE_POLICY_OTHER,
};

#define PROBE_DEFAULT_PRIO	  95
#define PROBE_DEFAULT_INTERVAL_US 1000
#define PROBE_MIN_INTERVAL_US	  10
#define PROBE_MAX_INTERVAL_US	  10000000 /* 10 s */
#define PROBE_NOTES		  4

struct probe_cfg {
	struct cpumask cpus;	  /* CPUs to measure (must be online) */
	uint64_t interval_us;	  /* period of the deadlines */
	enum probe_policy policy; /* what to ask for */
	int prio;		  /* 1..99 for FIFO/RR, 0 for OTHER */
	int dma_latency_us;	  /* -1 = leave PM QoS alone (default) */
	/* Do not mlockall(MCL_CURRENT | MCL_FUTURE). For a long-lived caller
	 * (the TUI) without CAP_IPC_LOCK: once locked, every later allocation
	 * counts against RLIMIT_MEMLOCK and fails beyond it. */
	bool no_mlock;
	/* Break (cyclictest -b): the first wake-up later than break_us stops
	 * every thread; 0 = off. The thread that sees it writes "0" to
	 * break_fd (tracefs tracing_on opened by the caller, -1 = none) at
	 * once, before anything else, so the trace ends at the event. */
	uint64_t break_us;
	int break_fd;
	/* Late records (probe --why): each thread keeps, in a ring of
	 * PROBE_LATE_RING entries, the wake-ups later than the bar set with
	 * probe_set_late_bar (none until then); the reader drains them with
	 * probe_late_drain. false = no ring, no extra work in the loop. */
	bool late;
};

#define PROBE_LATE_RING 4096 /* entries per thread (64 KiB) */

/* One wake-up later than the bar: its deadline and wake time
 * (CLOCK_MONOTONIC). */
struct probe_late {
	uint64_t deadline_ns, wake_ns;
};

/* The break event (probe_cfg.break_us), set once by the thread that saw it. */
struct probe_break {
	bool hit;
	int cpu;
	pid_t tid;
	uint64_t latency_ns;
	uint64_t at_ns;	    /* CLOCK_MONOTONIC wake time */
	int trace_err;	    /* 0, or -errno of the tracing_on write */
	bool trace_stopped; /* "0" written to break_fd */
};

struct probe_thread {
	int cpu;
	pthread_t thread;
	bool started;	    /* pthread_create succeeded */
	pid_t tid;	    /* set by the thread once running (0 before) */
	struct hist hist;   /* written by the thread only */
	int err;	    /* 0 or -errno (affinity, clock_nanosleep); stops the thread */
	const char *err_op; /* which call failed */
	int policy;	    /* SCHED_* actually in effect */
	int prio;	    /* priority actually in effect */
	/* late records (cfg.late): a single-producer single-consumer ring */
	struct probe_late *late;
	uint64_t late_head;  /* written by the thread */
	uint64_t late_tail;  /* written by the reader */
	uint64_t late_drops; /* records lost to a full ring */
	/* CLOCK_MONOTONIC of its latest wake-up, stored after any late record
	 * of it (probe_late_drain's progress, probe_stalled_ns) */
	uint64_t last_wake_ns;
	/* private */
	struct probe *p;
	unsigned reset_req, reset_ack;
	bool running; /* in the measuring loop (cleared when it leaves) */
};

struct probe {
	struct probe_cfg cfg;
	int n;			    /* threads */
	struct probe_thread *thr;   /* n of them, in CPU order */
	bool mlocked;		    /* mlockall succeeded */
	bool fallback;		    /* RT policy refused (EPERM): SCHED_OTHER instead */
	int dma_fd;		    /* /dev/cpu_dma_latency, -1 when not held */
	int dma_effective_us;	    /* value read back, -1 = n/a */
	uint64_t start_ns, stop_ns; /* CLOCK_MONOTONIC */
	/* One-line notices for the user (policy fallback, mlockall failure). */
	char note[PROBE_NOTES][160];
	int nnotes;
	struct probe_break brk; /* read once the probe stopped (or brk_hit true) */
	uint64_t late_bar_ns;	/* cfg.late: record wake-ups later than this */
	/* private */
	int brk_claim;
	bool stop, stopped;
	struct ready_gate gate; /* start handshake only, never while measuring */
};

/* Online CPUs of the live machine (sys/devices/system/cpu/online). */
int probe_online_cpus(struct cpumask *out);

/* Check a configuration: CPUs non-empty and online, interval and priority in
 * range. On error returns -EINVAL/-ERANGE and writes a one-line reason into
 * why (without "tunetop: "). */
int probe_cfg_check(const struct probe_cfg *cfg, char *why, size_t cap);

/* Start measuring. Blocks until every thread has pinned itself and set its
 * policy (so errors and fallbacks are known on return). Returns 0, or
 * -errno with *why set (e.g. /dev/cpu_dma_latency could not be opened, a
 * thread could not be pinned); on error everything is already stopped and
 * freed apart from what probe_free releases. */
int probe_start(struct probe *p, const struct probe_cfg *cfg, char *why, size_t cap);
/* Ask the threads to stop and join them; releases PM QoS and the memory
 * lock. Idempotent. */
void probe_stop(struct probe *p);
void probe_free(struct probe *p);

/* Live reads: a consistent copy of thread i's histogram, and of all of them
 * merged. Safe while the probe runs. */
void probe_snapshot(const struct probe *p, int i, struct hist *out);
void probe_snapshot_all(const struct probe *p, struct hist *out);
/* Empty every histogram. The threads do it themselves at their next wake-up;
 * this waits (up to 2 intervals + 2 s) until they have. Returns 0 or
 * -ETIMEDOUT. */
int probe_reset(struct probe *p);
/* The same with a timeout of the caller's (the A/B scales it with the
 * lateness the machine shows); on -ETIMEDOUT *cpu (may be NULL) is a CPU
 * whose thread did not answer. */
int probe_reset_wait(struct probe *p, uint64_t timeout_ns, int *cpu);
/* How long ago the running thread that woke least recently woke (ns), and
 * its CPU; 0 when no thread runs. A frozen or starved thread shows here
 * before it can count its missed deadlines (it counts them on waking). */
uint64_t probe_stalled_ns(const struct probe *p, int *cpu);

/* True once a break (probe_cfg.break_us) happened; the threads are then
 * leaving their loops. Safe while running. */
bool probe_broke(const struct probe *p);

/* Late records (cfg.late): record from now on every wake-up later than
 * bar_ns (UINT64_MAX = none, the start value). Safe while running. */
void probe_set_late_bar(struct probe *p, uint64_t bar_ns);
/* Move up to cap of thread i's late records into out; returns how many.
 * *progress_ns is the thread's latest wake time read before the drain: every
 * wake-up up to it that was over the bar is in out or was drained before
 * (or counted in *drops, the records lost to a full ring so far). */
size_t probe_late_drain(struct probe *p, int i, struct probe_late *out, size_t cap,
			uint64_t *progress_ns, uint64_t *drops);

/* First thread error (0 if none), with its CPU. */
int probe_error(const struct probe *p, int *cpu, const char **op);

const char *probe_policy_name(enum probe_policy pol); /* "fifo", "rr", "other" */
int probe_policy_parse(const char *s, enum probe_policy *out);
/* What the threads run with: "SCHED_FIFO 95", or "SCHED_OTHER (real-time
 * refused)" after a fallback; "n/a" without threads. Returns buf. */
const char *probe_policy_text(const struct probe *p, char *buf, size_t cap);
/* "SCHED_FIFO" etc. for a SCHED_* value. */
const char *probe_sched_name(int sched_policy);

#endif
