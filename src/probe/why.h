/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why was a wake-up late: the shared vocabulary of the capture side
 * (probe/whycap.c: kernel trace events read through libtracefs +
 * libtraceevent from a private tracefs instance) and the attribution side
 * (probe/whyattr.c: pure, replayable, unit-tested from recorded streams).
 *
 * The capture side turns each kernel event into a struct why_event (one
 * array, timestamps on CLOCK_MONOTONIC: the instance's trace_clock is
 * "mono"), and the probe adds one WEV_LATE record per wake-up later than the
 * threshold (its own deadline and wake time). The attribution side walks,
 * for each WEV_LATE, what happened on that CPU between the deadline and the
 * probe thread's wake time, and splits the delay into parts.
 *
 * The text form (why_events_write / why_events_parse) is what `probe --why
 * --events FILE` saves and what tests/fixtures/why/ holds:
 *
 *   # tunetop-events 1
 *   # clock mono
 *   <ts_ns> <cpu> <kind> key=value ...
 *
 * with kind and keys as in the table of whyev.c (names are the tracepoints':
 * switch prev_comm= prev_pid= prev_prio= prev_state= next_comm= next_pid=
 * next_prio=; waking/wakeup comm= pid= prio= target_cpu=; migrate comm= pid=
 * prio= orig_cpu= dest_cpu=; irq irq= name=; irq_exit irq= ret=; softirq
 * vec=; softirq_exit vec=; softirq_raise vec=; idle state= (4294967295 =
 * exit); idle_miss state= below=; timer (hrtimer_expire_entry) fn=;
 * late tid= deadline_ns= wake_ns=; lost n=). Values never contain spaces
 * (a comm with a space is written with '_'). Prio is the kernel's prio
 * (0..98 real-time, higher priority lower number; 100..139 normal). */
#ifndef TT_PROBE_WHY_H
#define TT_PROBE_WHY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define WHY_COMM_LEN 16
#define WHY_NAME_LEN 32

enum why_ev_kind {
	WEV_SWITCH,	   /* sched:sched_switch */
	WEV_WAKING,	   /* sched:sched_waking */
	WEV_WAKEUP,	   /* sched:sched_wakeup */
	WEV_MIGRATE,	   /* sched:sched_migrate_task */
	WEV_IRQ,	   /* irq:irq_handler_entry */
	WEV_IRQ_EXIT,	   /* irq:irq_handler_exit */
	WEV_SOFTIRQ,	   /* irq:softirq_entry */
	WEV_SOFTIRQ_EXIT,  /* irq:softirq_exit */
	WEV_SOFTIRQ_RAISE, /* irq:softirq_raise */
	WEV_IDLE,	   /* power:cpu_idle (state WHY_IDLE_EXIT = leaving idle) */
	WEV_IDLE_MISS,	   /* power:cpu_idle_miss */
	WEV_TIMER,	   /* timer:hrtimer_expire_entry */
	WEV_LATE,	   /* tunetop's own: a probe wake-up over the threshold */
	WEV_LOST,	   /* events the kernel dropped on this CPU before ts */
	WEV__COUNT
};

#define WHY_IDLE_EXIT 4294967295u

struct why_event {
	uint64_t ts_ns; /* CLOCK_MONOTONIC */
	int cpu;
	enum why_ev_kind kind;
	union {
		struct {
			char prev_comm[WHY_COMM_LEN], next_comm[WHY_COMM_LEN];
			pid_t prev_pid, next_pid;
			int prev_prio, next_prio;
			long prev_state;
		} sw;
		struct { /* WEV_WAKING, WEV_WAKEUP, WEV_MIGRATE */
			char comm[WHY_COMM_LEN];
			pid_t pid;
			int prio;
			int target_cpu; /* dest_cpu for WEV_MIGRATE */
			int orig_cpu;	/* WEV_MIGRATE only, else -1 */
		} wk;
		struct {
			int irq;
			char name[WHY_NAME_LEN]; /* WEV_IRQ only */
			int ret;		 /* WEV_IRQ_EXIT only */
		} irq;
		struct {
			unsigned vec; /* 0 HI, 1 TIMER, 2 NET_TX, 3 NET_RX, ... */
		} sirq;
		struct {
			unsigned state; /* WHY_IDLE_EXIT when leaving */
			int below;	/* WEV_IDLE_MISS: 1 = below, 0 = above */
		} idle;
		struct {
			char fn[WHY_NAME_LEN];
		} timer;
		struct {
			pid_t tid;
			uint64_t deadline_ns, wake_ns;
		} late;
		struct {
			uint64_t n;
		} lost;
	} u;
};

struct why_events {
	struct why_event *ev;
	size_t n, cap;
};

void why_events_add(struct why_events *s, const struct why_event *e);
/* Sort by (ts_ns, original order): per-CPU buffers come out in CPU order. */
void why_events_sort(struct why_events *s);
void why_events_free(struct why_events *s);
/* Text form (see above). write: 0 or -EIO. parse: fills *out afresh (the
 * caller sorts it); the first line must be the header, other '#' lines are
 * comments ("# clock X" other than mono is refused), blank lines are
 * skipped, every key of the kind must be there once and no other; a line
 * over WHY_LINE_MAX characters or more than WHY_EVENTS_MAX events is
 * refused. 0 (*line = 0), or -EINVAL with *out empty, *line set to the
 * 1-based line and why to one sentence naming the field. */
#define WHY_LINE_MAX   512
#define WHY_EVENTS_MAX 2000000
int why_events_write(const struct why_events *s, FILE *f);
int why_events_parse(const char *text, struct why_events *out, int *line, char *why, size_t cap);
const char *why_ev_kind_name(enum why_ev_kind k);

#endif
