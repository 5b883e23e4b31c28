/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Attribution of late wake-ups (see probe/whyattr.h): one pass over the
 * stream keeps each CPU's state (running task, idle state, open hard IRQs
 * and softirq, which IRQ raised each softirq); at each WEV_LATE's deadline
 * that state is where its walk starts, then the
 * window [deadline, wake] is cut at every event of that CPU (and the probe
 * thread's own waking and migration events, wherever they are logged) and
 * each slice goes to the innermost context running in it: a hard IRQ, else
 * a softirq (inline or in ksoftirqd), else the task (the idle task in an
 * idle state: the idle exit; the idle task out of it: the wake-up path; the
 * probe itself: the return path; another task: that task, with the reason
 * it could run). Every nanosecond of the window goes to exactly one part, so
 * the parts sum to the delay by construction. Then causes are merged over
 * the run, ranked, and given the knob address that addresses each. Pure:
 * no files, no clock. */
#include "probe/whyattr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"

#define WHY_IRQ_DEPTH 4
#define WHY_NVEC      32

/* What one CPU is doing at a moment. */
struct cpu_st {
	int cpu;
	bool task_known;
	pid_t pid;
	char comm[WHY_COMM_LEN];
	int prio;
	long idle_state; /* -1: not in an idle state */
	int irq_depth;
	int irq[WHY_IRQ_DEPTH];
	char irq_name[WHY_IRQ_DEPTH][WHY_NAME_LEN];
	int sirq; /* the running softirq vector, -1 */
	int raised_by[WHY_NVEC];
	/* RT throttled: the RT task switched out runnable for a normal task
	 * or the idle task (it used up the RT runtime); pid 0 = not throttled */
	pid_t hog_pid;
	char hog_comm[WHY_COMM_LEN];
	int hog_prio;
};

/* A part being built, with what the reason is decided from at the end. */
struct wpart {
	struct why_part p;
	uint64_t ns_woken;  /* of it, after the probe's waking */
	bool after_migrate; /* ran on the CPU the probe was migrated to */
	bool throttled;	    /* a normal task ran while the RT class was throttled */
};

/* One late wake-up being walked. */
struct walk {
	const struct why_events *s;
	const struct why_opts *o;
	pid_t tid;
	int probe_prio; /* -1 unknown */
	struct cpu_st st;
	struct cpu_st other; /* the CPU the probe is migrated to, followed meanwhile */
	bool have_other;
	bool woken, migrated;
	bool picked_normal;    /* a switch after the waking chose a normal task, not the RT probe */
	bool idled_woken;      /* the probe's CPU entered an idle state after its waking */
	uint64_t lost_until;   /* slices before it are unknown */
	uint64_t idle_stay_ns; /* of the window, in the current stay in an idle state */
	struct cpu_st hog;     /* its hog_*: the RT task the window saw throttled */
	struct wpart *parts;
	size_t n, cap;
	unsigned boundaries;
};

static const char *const vec_names[] = {"HI",	    "TIMER",   "NET_TX", "NET_RX",  "BLOCK",
					"IRQ_POLL", "TASKLET", "SCHED",	 "HRTIMER", "RCU"};

static const char *const part_names[WP__COUNT] = {
	[WP_IDLE_EXIT] = "idle_exit", [WP_IRQ] = "irq",		[WP_SOFTIRQ] = "softirq",
	[WP_KSOFTIRQD] = "ksoftirqd", [WP_TASK] = "task",	[WP_WAKEUP] = "wakeup",
	[WP_RETURN] = "return",	      [WP_UNKNOWN] = "unknown", [WP_STEAL] = "steal",
};

static const char *const reason_names[WR__COUNT] = {
	[WR_NONE] = "",
	[WR_HIGHER_PRIO] = "higher priority",
	[WR_SAME_PRIO] = "same-priority FIFO",
	[WR_RT_THROTTLED] = "RT throttled",
	[WR_MIGRATION] = "migration",
	[WR_NONPREEMPT] = "not preempted",
};

const char *why_part_kind_name(enum why_part_kind k)
{
	return (unsigned)k < WP__COUNT ? part_names[k] : "?";
}

const char *why_reason_name(enum why_reason r)
{
	return (unsigned)r < WR__COUNT ? reason_names[r] : "?";
}

/* ---- state at the deadline ---- */

static void st_reset(struct cpu_st *st, int cpu)
{
	memset(st, 0, sizeof(*st));
	st->cpu = cpu;
	st->prio = -1;
	st->idle_state = -1;
	st->sirq = -1;
	for (int v = 0; v < WHY_NVEC; v++)
		st->raised_by[v] = -1;
}

static void st_task(struct cpu_st *st, pid_t pid, const char *comm, int prio)
{
	st->task_known = true;
	st->pid = pid;
	str_copy(st->comm, sizeof(st->comm), comm);
	st->prio = prio;
}

/* One event of the CPU st describes, as it changes what the CPU does. */
static void st_apply(struct cpu_st *st, const struct why_event *e)
{
	switch (e->kind) {
	case WEV_SWITCH:
		if (e->u.sw.prev_pid != 0 && e->u.sw.prev_prio >= 0 && e->u.sw.prev_prio < 100 &&
		    (e->u.sw.prev_state & 0xff) == 0 && e->u.sw.next_prio >= 100) {
			/* runnable (R, or R+: preempted), yet a normal task runs */
			st->hog_pid = e->u.sw.prev_pid;
			str_copy(st->hog_comm, sizeof(st->hog_comm), e->u.sw.prev_comm);
			st->hog_prio = e->u.sw.prev_prio;
		} else if (e->u.sw.next_prio >= 0 && e->u.sw.next_prio < 100) {
			st->hog_pid = 0; /* an RT task runs: the class is not throttled */
		}
		st_task(st, e->u.sw.next_pid, e->u.sw.next_comm, e->u.sw.next_prio);
		if (e->u.sw.next_pid != 0)
			st->idle_state = -1;
		/* no switch inside a hard IRQ handler: one whose exit the
		 * stream lost (seen under heavy disk I/O) has ended */
		st->irq_depth = 0;
		break;
	case WEV_IDLE:
		st->idle_state = e->u.idle.state == WHY_IDLE_EXIT ? -1 : (long)e->u.idle.state;
		if (!st->task_known || st->pid != 0) /* idle events come from the idle task */
			st_task(st, 0, "swapper", 120);
		break;
	case WEV_IRQ:
		if (st->irq_depth < WHY_IRQ_DEPTH) {
			st->irq[st->irq_depth] = e->u.irq.irq;
			str_copy(st->irq_name[st->irq_depth], WHY_NAME_LEN, e->u.irq.name);
			st->irq_depth++;
		}
		break;
	case WEV_IRQ_EXIT:
		if (st->irq_depth > 0)
			st->irq_depth--;
		break;
	case WEV_SOFTIRQ: st->sirq = (int)e->u.sirq.vec; break;
	case WEV_SOFTIRQ_EXIT: st->sirq = -1; break;
	case WEV_SOFTIRQ_RAISE:
		if (st->irq_depth > 0 && e->u.sirq.vec < WHY_NVEC)
			st->raised_by[e->u.sirq.vec] = st->irq[st->irq_depth - 1];
		break;
	default: break;
	}
}

/* ---- parts ---- */

static struct wpart *part_get(struct walk *w, enum why_part_kind k, int id)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->parts[i].p.kind == k && w->parts[i].p.id == id)
			return &w->parts[i];
	w->parts = xgrow(w->parts, &w->cap, w->n + 1, sizeof(*w->parts));
	memset(&w->parts[w->n], 0, sizeof(w->parts[w->n]));
	w->parts[w->n].p.kind = k;
	w->parts[w->n].p.id = id;
	w->parts[w->n].p.prio = -1;
	w->parts[w->n].p.declared_ns = -1;
	w->parts[w->n].p.by_irq = -1;
	return &w->parts[w->n++];
}

static void vec_name(char *buf, size_t cap, int vec)
{
	if (vec >= 0 && (size_t)vec < sizeof(vec_names) / sizeof(vec_names[0]))
		str_copy(buf, cap, vec_names[vec]);
	else
		snprintf(buf, cap, "vec%d", vec);
}

/* The part the CPU's current state belongs to. */
static struct wpart *part_of_state(struct walk *w)
{
	const struct cpu_st *st = &w->st;
	struct wpart *p;

	if (st->irq_depth > 0) {
		p = part_get(w, WP_IRQ, st->irq[st->irq_depth - 1]);
		str_copy(p->p.name, WHY_NAME_LEN, st->irq_name[st->irq_depth - 1]);
		return p;
	}
	if (st->sirq >= 0) {
		bool ksd = st->task_known && str_starts(st->comm, "ksoftirqd/");

		p = part_get(w, ksd ? WP_KSOFTIRQD : WP_SOFTIRQ, st->sirq);
		vec_name(p->p.name, WHY_NAME_LEN, st->sirq);
		if (st->sirq < WHY_NVEC && st->raised_by[st->sirq] >= 0)
			p->p.by_irq = st->raised_by[st->sirq];
		return p;
	}
	if (st->idle_state >= 0 && (!st->task_known || st->pid == 0)) {
		const char *nm = w->o && w->o->idle_name ? w->o->idle_name(w->o->ctx, st->cpu,
									   (unsigned)st->idle_state)
							 : NULL;

		p = part_get(w, WP_IDLE_EXIT, (int)st->idle_state);
		if (nm && *nm)
			str_copy(p->p.name, WHY_NAME_LEN, nm);
		else
			snprintf(p->p.name, WHY_NAME_LEN, "state%ld", st->idle_state);
		if (w->o && w->o->idle_exit_ns)
			p->p.declared_ns =
				w->o->idle_exit_ns(w->o->ctx, st->cpu, (unsigned)st->idle_state);
		return p;
	}
	if (!st->task_known)
		return part_get(w, WP_UNKNOWN, -1);
	if (st->pid == 0)
		return part_get(w, WP_WAKEUP, -1);
	if (st->pid == w->tid)
		return part_get(w, WP_RETURN, -1);
	p = part_get(w, WP_TASK, st->pid);
	str_copy(p->p.name, WHY_NAME_LEN, st->comm);
	p->p.prio = st->prio;
	if (w->migrated)
		p->after_migrate = true;
	return p;
}

/* What of an idle stay counts as its exit: the declared latency + margin. */
static uint64_t idle_cap_ns(int64_t declared_ns)
{
	return (uint64_t)declared_ns + (uint64_t)declared_ns * WHY_IDLE_MARGIN_PCT / 100 +
	       WHY_IDLE_MARGIN_NS;
}

/* An idle-exit slice of len ns: up to the cap of the stay to the idle exit,
 * the rest to WP_STEAL of the same state. */
static void slice_idle(struct walk *w, struct wpart *p, uint64_t len)
{
	uint64_t cap = idle_cap_ns(p->p.declared_ns);
	uint64_t room = cap > w->idle_stay_ns ? cap - w->idle_stay_ns : 0;
	uint64_t take = len < room ? len : room;
	struct why_part idle = p->p;
	struct wpart *q;

	w->idle_stay_ns += len;
	p->p.ns += take;
	if (w->woken)
		p->ns_woken += take;
	if (take == len)
		return;
	q = part_get(w, WP_STEAL, idle.id); /* may move p */
	str_copy(q->p.name, WHY_NAME_LEN, idle.name);
	q->p.declared_ns = idle.declared_ns;
	q->p.ns += len - take;
	if (w->woken)
		q->ns_woken += len - take;
}

static void slice(struct walk *w, uint64_t a, uint64_t b)
{
	struct wpart *p;

	if (b <= a)
		return;
	if (a < w->lost_until) {
		uint64_t m = b < w->lost_until ? b : w->lost_until;

		part_get(w, WP_UNKNOWN, -1)->p.ns += m - a;
		a = m;
		if (a >= b)
			return;
	}
	p = part_of_state(w);
	if (w->st.hog_pid > 0) {
		w->hog = w->st; /* the latest throttling the window saw */
		if (p->p.kind == WP_TASK && p->p.prio >= 100)
			p->throttled = true;
	}
	if (p->p.kind == WP_IDLE_EXIT && p->p.declared_ns >= 0) {
		slice_idle(w, p, b - a);
		return;
	}
	p->p.ns += b - a;
	if (w->woken)
		p->ns_woken += b - a;
}

/* ---- the walk ---- */

static bool about_probe(const struct walk *w, const struct why_event *e)
{
	return (e->kind == WEV_WAKING || e->kind == WEV_WAKEUP || e->kind == WEV_MIGRATE) &&
	       e->u.wk.pid == w->tid;
}

static void apply(struct walk *w, const struct why_event *e)
{
	if (about_probe(w, e)) {
		w->probe_prio = e->u.wk.prio;
		if (e->kind == WEV_WAKING || e->kind == WEV_WAKEUP) {
			w->woken = true;
			return;
		}
		w->migrated = true;
		w->idle_stay_ns = 0;
		if (e->u.wk.target_cpu == w->other.cpu && w->have_other) {
			w->st = w->other; /* followed through the window */
			w->have_other = false;
		} else if (e->u.wk.target_cpu != w->st.cpu) {
			st_reset(&w->st, e->u.wk.target_cpu); /* not followed: unknown */
		}
		return;
	}
	if (w->have_other && e->cpu == w->other.cpu) {
		st_apply(&w->other, e);
		return;
	}
	st_apply(&w->st, e);
	if (e->kind == WEV_IDLE) {
		w->idle_stay_ns = 0; /* a new stay, or out of idle */
		if (w->woken && e->u.idle.state != WHY_IDLE_EXIT)
			w->idled_woken = true;
	}
	if (e->kind != WEV_SWITCH)
		return;
	if (e->u.sw.next_pid == w->tid)
		w->probe_prio = e->u.sw.next_prio;
	else if (w->woken && e->u.sw.next_pid != 0 && e->u.sw.next_prio >= 100 &&
		 w->probe_prio >= 0 && w->probe_prio < 100)
		w->picked_normal = true;
}

static enum why_reason task_reason(const struct walk *w, const struct wpart *p)
{
	int q = p->p.prio, pp = w->probe_prio;

	if (p->after_migrate)
		return WR_MIGRATION;
	if (pp < 0) /* not seen (the probe is never a deadline task) */
		return WR_NONE;
	if (q < pp)
		return WR_HIGHER_PRIO;
	if (q == pp && pp < 100) /* two normal tasks: CFS decides, not FIFO order */
		return WR_SAME_PRIO;
	if (pp < 100 && q >= 100 && (w->picked_normal || p->ns_woken >= WHY_THROTTLE_MIN_NS))
		return WR_RT_THROTTLED;
	return WR_NONPREEMPT;
}

static int part_cmp(const void *a, const void *b)
{
	const struct why_part *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

/* What the sweep knows at a deadline: each CPU's state, the probe's prio. */
struct at_deadline {
	const struct cpu_st *cs; /* indexed by CPU, ncs of them */
	int ncs;
	int probe_prio;
	size_t i0;	  /* the first event at or after the deadline */
	uint64_t *budget; /* event visits left for the run */
};

static void cpu_state(const struct at_deadline *at, int cpu, struct cpu_st *st)
{
	if (cpu >= 0 && cpu < at->ncs)
		*st = at->cs[cpu];
	else
		st_reset(st, cpu);
}

/* RT throttling with nothing else to run: the RT probe was woken, and its
 * CPU went into an idle state instead of running it, for at least
 * WHY_THROTTLE_MIN_NS after the waking. That idle time (idle exit, steal,
 * wake-up path after the waking) is the idle task's, RT throttled. */
static void throttled_idle(struct walk *w)
{
	uint64_t moved = 0;
	struct wpart *q;
	size_t i, n;

	if (!w->idled_woken || w->probe_prio < 0 || w->probe_prio >= 100)
		return;
	for (i = 0; i < w->n; i++) {
		enum why_part_kind k = w->parts[i].p.kind;

		if (k == WP_IDLE_EXIT || k == WP_STEAL || k == WP_WAKEUP)
			moved += w->parts[i].ns_woken;
	}
	if (moved < WHY_THROTTLE_MIN_NS)
		return;
	for (i = n = 0; i < w->n; i++) {
		struct wpart *p = &w->parts[i];
		enum why_part_kind k = p->p.kind;

		if (k == WP_IDLE_EXIT || k == WP_STEAL || k == WP_WAKEUP) {
			p->p.ns -= p->ns_woken;
			p->ns_woken = 0;
		}
		if (p->p.ns)
			w->parts[n++] = *p;
	}
	w->n = n;
	q = part_get(w, WP_TASK, 0);
	snprintf(q->p.name, WHY_NAME_LEN, "swapper/%d", w->st.cpu);
	q->p.prio = 120;
	q->throttled = w->hog.hog_pid > 0;
	q->p.ns += moved;
	q->ns_woken += moved;
}

/* One part of the walk into out->parts. A normal task (or the idle task)
 * that ran while the RT class was throttled is charged to the RT task whose
 * running used up the runtime (the one switched out runnable for it), when
 * the events showed it: that task is what to fix, not the one that filled
 * the gap. */
static void part_out(const struct walk *w, const struct wpart *wp, struct why_late *out)
{
	struct why_part p = wp->p;

	if (p.kind == WP_TASK)
		p.reason = task_reason(w, wp);
	if (p.kind == WP_TASK && wp->throttled && w->hog.hog_pid > 0 && w->probe_prio >= 0 &&
	    w->probe_prio < 100 && (p.reason == WR_RT_THROTTLED || p.reason == WR_NONPREEMPT)) {
		p.reason = WR_RT_THROTTLED;
		p.id = w->hog.hog_pid;
		str_copy(p.name, WHY_NAME_LEN, w->hog.hog_comm);
		p.prio = w->hog.hog_prio;
		for (size_t k = 0; k < out->n_parts; k++)
			if (out->parts[k].kind == WP_TASK && out->parts[k].id == p.id &&
			    out->parts[k].reason == WR_RT_THROTTLED) {
				out->parts[k].ns += p.ns; /* two tasks filled the gap */
				return;
			}
	}
	out->parts[out->n_parts++] = p;
}

/* Walk one WEV_LATE. */
static void attribute_one(const struct why_events *s, const struct why_opts *o,
			  const struct why_event *late, const struct at_deadline *at,
			  struct why_late *out)
{
	struct walk w = {.s = s, .o = o, .tid = late->u.late.tid, .probe_prio = at->probe_prio};
	uint64_t d = late->u.late.deadline_ns, wk = late->u.late.wake_ns, cur = d;
	size_t i, end;
	int cpu = late->cpu;

	/* the window's events, as far as the run's budget goes (the rest of
	 * the window is then unknown); a migration in it: the probe waited on
	 * the CPU it came from, and the one it goes to is followed too */
	for (end = at->i0; end < s->n && s->ev[end].ts_ns <= wk && *at->budget > 0; end++) {
		const struct why_event *e = &s->ev[end];

		(*at->budget)--;
		if (e->kind == WEV_MIGRATE && e->u.wk.pid == w.tid && !w.have_other) {
			cpu = e->u.wk.orig_cpu;
			cpu_state(at, e->u.wk.target_cpu, &w.other);
			w.have_other = e->u.wk.target_cpu != cpu;
		}
	}
	cpu_state(at, cpu, &w.st);
	memset(out, 0, sizeof(*out));
	out->cpu = late->cpu;
	out->tid = w.tid;
	out->deadline_ns = d;
	out->wake_ns = wk;
	out->delay_ns = wk - d;
	for (i = at->i0; i < end; i++)
		if (s->ev[i].kind == WEV_LOST && s->ev[i].ts_ns > d &&
		    (s->ev[i].cpu == late->cpu || s->ev[i].cpu == cpu)) {
			out->lost = true;
			w.lost_until = s->ev[i].ts_ns;
		}
	for (i = at->i0; i < end; i++) {
		const struct why_event *e = &s->ev[i];
		bool other = w.have_other && e->cpu == w.other.cpu;

		if (e->kind == WEV_LATE || e->kind == WEV_LOST || e->kind == WEV_TIMER)
			continue;
		if (e->cpu != w.st.cpu && !about_probe(&w, e) && !other)
			continue;
		if (!other || about_probe(&w, e)) {
			slice(&w, cur, e->ts_ns);
			if (e->ts_ns > cur)
				w.boundaries++;
			cur = e->ts_ns;
		}
		apply(&w, e);
	}
	if (end < s->n && s->ev[end].ts_ns <= wk && w.lost_until < wk) /* over budget */
		w.lost_until = wk;
	slice(&w, cur, wk);
	throttled_idle(&w);
	out->parts = xcalloc(w.n ? w.n : 1, sizeof(*out->parts));
	out->n_parts = 0;
	for (i = 0; i < w.n; i++)
		part_out(&w, &w.parts[i], out);
	qsort(out->parts, out->n_parts, sizeof(*out->parts), part_cmp);
	out->err_ns = (uint64_t)w.boundaries * WHY_EVENT_ERR_NS;
	out->probe_prio = w.probe_prio;
	free(w.parts);
}

/* ---- causes over the run ---- */

struct cause_acc {
	struct why_cause c;
	struct cpumask cpus;
	uint64_t best_ns; /* its largest single part: the reason and prio come from there */
	pid_t probe_tid;
	int probe_prio, cpu;
};

static struct cause_acc *cause_get(struct cause_acc **v, size_t *n, size_t *cap,
				   const struct why_part *p)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].c.kind == p->kind && (*v)[i].c.id == p->id)
			return &(*v)[i];
	*v = xgrow(*v, cap, *n + 1, sizeof(**v));
	memset(&(*v)[*n], 0, sizeof(**v));
	(*v)[*n].c.kind = p->kind;
	(*v)[*n].c.id = p->id;
	str_copy((*v)[*n].c.name, WHY_NAME_LEN, p->name);
	(*v)[*n].c.declared_ns = p->declared_ns;
	(*v)[*n].c.by_irq = p->by_irq;
	return &(*v)[(*n)++];
}

/* The CPUs a moved IRQ or thread goes to: the option, else every CPU the
 * stream shows that had no late wake-up; "" when there is none. */
static void housekeeping(const struct why_events *s, const struct why_opts *o,
			 const struct why_result *r, char *buf, size_t cap)
{
	struct cpumask all, late;
	int max = -1;

	buf[0] = '\0';
	if (o && o->housekeeping[0]) {
		str_copy(buf, cap, o->housekeeping);
		return;
	}
	cpumask_zero(&all);
	cpumask_zero(&late);
	for (size_t i = 0; i < s->n; i++) {
		int c = s->ev[i].cpu;

		if (s->ev[i].kind == WEV_MIGRATE && s->ev[i].u.wk.orig_cpu > c)
			c = s->ev[i].u.wk.orig_cpu;
		if ((s->ev[i].kind == WEV_WAKING || s->ev[i].kind == WEV_WAKEUP ||
		     s->ev[i].kind == WEV_MIGRATE) &&
		    s->ev[i].u.wk.target_cpu > c)
			c = s->ev[i].u.wk.target_cpu;
		if (c > max)
			max = c;
	}
	for (int c = 0; c <= max && c < TT_MAX_CPUS; c++)
		cpumask_set(&all, c);
	for (size_t i = 0; i < r->n_late; i++)
		cpumask_set(&late, r->late[i].cpu);
	cpumask_andnot(&all, &late);
	cpulist_format(&all, buf, cap);
}

static void fix_task(struct cause_acc *a, const char *hk)
{
	struct why_cause *c = &a->c;
	int rt = a->probe_prio >= 0 && a->probe_prio < 99 ? 99 - a->probe_prio : -1;

	switch (c->reason) {
	case WR_SAME_PRIO:
		if (rt > 1)
			snprintf(c->fix, sizeof(c->fix), "%s=fifo:%d",
				 knob_addr_thread_policy(c->id).s, rt - 1);
		else
			snprintf(c->fix, sizeof(c->fix), "%s=other",
				 knob_addr_thread_policy(c->id).s);
		snprintf(c->fix_why, sizeof(c->fix_why),
			 "run %s below the probe: FIFO never preempts an equal priority", c->name);
		return;
	case WR_RT_THROTTLED:
		if (c->prio >= 0 && c->prio < 100 && c->id > 0) { /* the RT task that used it up */
			snprintf(c->fix, sizeof(c->fix), "%s=other",
				 knob_addr_thread_policy(c->id).s);
			snprintf(c->fix_why, sizeof(c->fix_why),
				 "%s used up CPU %s's RT runtime and throttling held the probe: "
				 "run it SCHED_OTHER",
				 c->name, c->cpus);
			return;
		}
		snprintf(c->fix, sizeof(c->fix), "%s=-1", knob_addr_sched_rt_runtime_us().s);
		snprintf(c->fix_why, sizeof(c->fix_why),
			 "RT throttling let %s run while the probe was runnable: turn it off",
			 c->name);
		return;
	case WR_MIGRATION:
		snprintf(c->fix, sizeof(c->fix), "%s=%d", knob_addr_thread_affinity(a->probe_tid).s,
			 a->cpu);
		snprintf(c->fix_why, sizeof(c->fix_why),
			 "pin the probed thread %d to CPU %d: it was migrated onto %s's CPU",
			 (int)a->probe_tid, a->cpu, c->name);
		return;
	default: break;
	}
	if (hk[0])
		snprintf(c->fix, sizeof(c->fix), "%s=%s", knob_addr_thread_affinity(c->id).s, hk);
	if (c->reason == WR_HIGHER_PRIO && rt > 1)
		snprintf(c->fix_why, sizeof(c->fix_why),
			 "move %s off CPU %s, or lower it: %s=fifo:%d", c->name, c->cpus,
			 knob_addr_thread_policy(c->id).s, rt - 1);
	else
		snprintf(c->fix_why, sizeof(c->fix_why), "move %s off CPU %s%s", c->name, c->cpus,
			 hk[0] ? "" : " (no housekeeping CPU known)");
}

static void fix_one(struct cause_acc *a, const char *hk)
{
	struct why_cause *c = &a->c;
	int irq = c->kind == WP_IRQ ? c->id : c->by_irq;
	char sel[40]; /* the CPU selector of an idle-state fix: "cpu2" or "4-7" */

	switch (c->kind) {
	case WP_IRQ:
	case WP_SOFTIRQ:
	case WP_KSOFTIRQD:
		if (irq >= 0 && hk[0]) {
			snprintf(c->fix, sizeof(c->fix), "%s=%s", knob_addr_irq_affinity_n(irq).s,
				 hk);
			snprintf(c->fix_why, sizeof(c->fix_why), "move IRQ %d%s off CPU %s", irq,
				 c->kind == WP_IRQ ? "" : " (it raised this softirq)", c->cpus);
		} else {
			snprintf(c->fix_why, sizeof(c->fix_why), "%s",
				 irq >= 0 ? "no housekeeping CPU known to move its IRQ to"
					  : "raised by no traced IRQ (a timer or another CPU)");
		}
		return;
	case WP_IDLE_EXIT:
		snprintf(sel, sizeof(sel), "%s%s", strpbrk(c->cpus, ",-") ? "" : "cpu", c->cpus);
		snprintf(c->fix, sizeof(c->fix), "%s=1",
			 knob_addr_cpuidle_disable_sel(sel, c->id).s);
		snprintf(c->fix_why, sizeof(c->fix_why), "keep CPU %s out of idle state %s",
			 c->cpus, c->name);
		return;
	case WP_STEAL:
		snprintf(sel, sizeof(sel), "%s%s", strpbrk(c->cpus, ",-") ? "" : "cpu", c->cpus);
		snprintf(c->fix, sizeof(c->fix), "%s=1",
			 knob_addr_cpuidle_disable_sel(sel, c->id).s);
		snprintf(c->fix_why, sizeof(c->fix_why),
			 "not seen by the guest's events: past %s's declared exit + margin; out "
			 "of %s, no exit to the host",
			 c->name, c->name);
		return;
	case WP_TASK: fix_task(a, hk); return;
	case WP_WAKEUP:
		str_copy(c->fix_why, sizeof(c->fix_why),
			 "the scheduler's wake-up path; shallower idle, PREEMPT_RT");
		return;
	case WP_RETURN:
		str_copy(c->fix_why, sizeof(c->fix_why), "the probe's own way back to user space");
		return;
	default:
		str_copy(c->fix_why, sizeof(c->fix_why),
			 "not in the trace: NMI, SMI, hypervisor steal, lost events");
		return;
	}
}

static int cause_cmp(const void *a, const void *b)
{
	const struct cause_acc *x = a, *y = b;

	if (x->c.total_ns != y->c.total_ns)
		return x->c.total_ns > y->c.total_ns ? -1 : 1;
	if (x->c.n_largest != y->c.n_largest)
		return x->c.n_largest > y->c.n_largest ? -1 : 1;
	if (x->c.kind != y->c.kind)
		return x->c.kind < y->c.kind ? -1 : 1;
	return (x->c.id > y->c.id) - (x->c.id < y->c.id); /* ids span int: no subtraction */
}

static void rank(const struct why_events *s, const struct why_opts *o, struct why_result *r)
{
	struct cause_acc *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0;
	char hk[64];

	for (size_t i = 0; i < r->n_late; i++) {
		const struct why_late *l = &r->late[i];

		total += l->delay_ns;
		for (size_t j = 0; j < l->n_parts; j++) {
			const struct why_part *p = &l->parts[j];
			struct cause_acc *a = cause_get(&v, &n, &cap, p);

			a->c.total_ns += p->ns;
			a->c.n_present++;
			if (j == 0 && p->ns > 0)
				a->c.n_largest++;
			cpumask_set(&a->cpus, l->cpu);
			if (p->ns >= a->best_ns) {
				a->best_ns = p->ns;
				a->c.reason = p->reason;
				a->c.prio = p->prio;
				a->probe_tid = l->tid;
				a->probe_prio = l->probe_prio;
				a->cpu = l->cpu;
				if (p->by_irq >= 0)
					a->c.by_irq = p->by_irq;
			}
		}
	}
	housekeeping(s, o, r, hk, sizeof(hk));
	for (size_t i = 0; i < n; i++) {
		struct why_cause *c = &v[i].c;

		cpulist_format(&v[i].cpus, c->cpus, sizeof(c->cpus));
		c->share_late_pct = r->n_late ? 100.0 * c->n_largest / (double)r->n_late : 0;
		c->share_delay_pct = total ? 100.0 * (double)c->total_ns / (double)total : 0;
		fix_one(&v[i], hk);
	}
	if (n)
		qsort(v, n, sizeof(*v), cause_cmp);
	r->causes = xcalloc(n ? n : 1, sizeof(*r->causes));
	for (size_t i = 0; i < n; i++)
		r->causes[i] = v[i].c;
	r->n_causes = n;
	free(v);
}

/* The WEV_LATE records to attribute, by deadline (then stream order). */
struct late_ref {
	uint64_t deadline_ns;
	size_t ev;  /* index in the stream */
	size_t out; /* index in why_result.late */
};

static int late_ref_cmp(const void *a, const void *b)
{
	const struct late_ref *x = a, *y = b;

	if (x->deadline_ns != y->deadline_ns)
		return x->deadline_ns < y->deadline_ns ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

/* The probe threads' prios as the sweep meets their events. */
struct tids {
	pid_t *tid;
	int *prio;
	size_t n;
};

static void tids_note(struct tids *t, pid_t pid, int prio)
{
	pid_t *p = t->n ? bsearch(&pid, t->tid, t->n, sizeof(*t->tid), pid_cmp) : NULL;

	if (p)
		t->prio[p - t->tid] = prio;
}

static int tids_prio(const struct tids *t, pid_t pid)
{
	pid_t *p = t->n ? bsearch(&pid, t->tid, t->n, sizeof(*t->tid), pid_cmp) : NULL;

	return p ? t->prio[p - t->tid] : -1;
}

static void tids_apply(struct tids *t, const struct why_event *e)
{
	if (e->kind == WEV_SWITCH) {
		tids_note(t, e->u.sw.prev_pid, e->u.sw.prev_prio);
		tids_note(t, e->u.sw.next_pid, e->u.sw.next_prio);
	} else if (e->kind == WEV_WAKING || e->kind == WEV_WAKEUP || e->kind == WEV_MIGRATE) {
		tids_note(t, e->u.wk.pid, e->u.wk.prio);
	}
}

/* One pass over the stream in time order: at each deadline (late wake-ups
 * by deadline), the state of every CPU is known from the events before it,
 * and the window is walked from there. */
static void sweep(const struct why_events *s, const struct why_opts *o, struct late_ref *refs,
		  size_t n, struct why_result *out)
{
	struct at_deadline at = {0};
	struct cpu_st *cs;
	struct tids t = {0};
	uint64_t budget = WHY_WORK_EVENTS;
	int maxcpu = 0;
	size_t j = 0;

	for (size_t i = 0; i < s->n; i++)
		if (s->ev[i].cpu > maxcpu)
			maxcpu = s->ev[i].cpu;
	cs = xcalloc((size_t)maxcpu + 1, sizeof(*cs));
	for (int c = 0; c <= maxcpu; c++)
		st_reset(&cs[c], c);
	t.tid = xcalloc(n ? n : 1, sizeof(*t.tid));
	for (size_t k = 0; k < n; k++)
		t.tid[t.n++] = s->ev[refs[k].ev].u.late.tid;
	qsort(t.tid, t.n, sizeof(*t.tid), pid_cmp);
	{
		size_t m = 0;

		for (size_t k = 0; k < t.n; k++)
			if (!m || t.tid[k] != t.tid[m - 1])
				t.tid[m++] = t.tid[k];
		t.n = m;
	}
	t.prio = xcalloc(t.n ? t.n : 1, sizeof(*t.prio));
	for (size_t k = 0; k < t.n; k++)
		t.prio[k] = -1;
	at.cs = cs;
	at.ncs = maxcpu + 1;
	at.budget = &budget;
	for (size_t k = 0; k < n; k++) {
		const struct why_event *late = &s->ev[refs[k].ev];

		for (; j < s->n && s->ev[j].ts_ns < late->u.late.deadline_ns; j++) {
			if (s->ev[j].cpu >= 0)
				st_apply(&cs[s->ev[j].cpu], &s->ev[j]);
			tids_apply(&t, &s->ev[j]);
		}
		at.i0 = j;
		at.probe_prio = tids_prio(&t, late->u.late.tid);
		attribute_one(s, o, late, &at, &out->late[refs[k].out]);
	}
	free(cs);
	free(t.tid);
	free(t.prio);
}

int why_attribute(const struct why_events *s, const struct why_opts *o, struct why_result *out)
{
	struct late_ref *refs;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	out->threshold_ns = o ? o->over_ns : 0;
	for (size_t i = 1; i < s->n; i++)
		if (s->ev[i].ts_ns < s->ev[i - 1].ts_ns)
			return -EINVAL; /* not sorted (why_events_sort) */
	refs = xcalloc(s->n ? s->n : 1, sizeof(*refs));
	for (size_t i = 0; i < s->n; i++) {
		const struct why_event *e = &s->ev[i];

		if (e->kind == WEV_LOST)
			out->lost_events += e->u.lost.n;
		if (e->kind != WEV_LATE || e->u.late.wake_ns < e->u.late.deadline_ns ||
		    e->u.late.wake_ns - e->u.late.deadline_ns < out->threshold_ns)
			continue;
		refs[n].deadline_ns = e->u.late.deadline_ns;
		refs[n].ev = i;
		refs[n].out = n;
		n++;
	}
	if (n)
		qsort(refs, n, sizeof(*refs), late_ref_cmp);
	out->late = xcalloc(n ? n : 1, sizeof(*out->late));
	out->n_late = n;
	sweep(s, o, refs, n, out);
	free(refs);
	rank(s, o, out);
	return 0;
}

void why_result_free(struct why_result *r)
{
	for (size_t i = 0; i < r->n_late; i++)
		free(r->late[i].parts);
	free(r->late);
	free(r->causes);
	memset(r, 0, sizeof(*r));
}
