/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A world's late samples as trace events (see world_why.h). */
#include "model/world_why.h"

#include <stdio.h>
#include <string.h>

#include "core/str.h"
#include "model/worldmodel.h"

#define US_NS(us) ((uint64_t)((us)*1000.0 + 0.5))

void world_why_init(struct world_why *ww, int cpu, int probe_prio)
{
	memset(ww, 0, sizeof(*ww));
	ww->cpu = cpu;
	ww->probe_prio = probe_prio;
	for (int i = 0; i < WORLD_WHY_STATES; i++)
		ww->idle_ns[i] = -1;
}

void world_why_free(struct world_why *ww)
{
	why_events_free(&ww->ev);
}

static void put(struct world_why *ww, struct why_event *e)
{
	why_events_add(&ww->ev, e);
	if (e->ts_ns > ww->last_ns)
		ww->last_ns = e->ts_ns;
}

static void ev_switch(struct world_why *ww, uint64_t ts, int cpu, const char *pc, pid_t pp,
		      int pprio, long pstate, const char *nc, pid_t np, int nprio)
{
	struct why_event e = {.ts_ns = ts, .cpu = cpu, .kind = WEV_SWITCH};

	str_copy(e.u.sw.prev_comm, sizeof(e.u.sw.prev_comm), pc);
	str_copy(e.u.sw.next_comm, sizeof(e.u.sw.next_comm), nc);
	e.u.sw.prev_pid = pp;
	e.u.sw.prev_prio = pprio;
	e.u.sw.prev_state = pstate;
	e.u.sw.next_pid = np;
	e.u.sw.next_prio = nprio;
	put(ww, &e);
}

static void ev_wk(struct world_why *ww, enum why_ev_kind k, uint64_t ts, int cpu, int target,
		  int orig)
{
	struct why_event e = {.ts_ns = ts, .cpu = cpu, .kind = k};

	str_copy(e.u.wk.comm, sizeof(e.u.wk.comm), "tunetop-probe");
	e.u.wk.pid = WORLD_WHY_TID;
	e.u.wk.prio = ww->probe_prio;
	e.u.wk.target_cpu = target;
	e.u.wk.orig_cpu = orig;
	put(ww, &e);
}

/* The task a term stands for: its comm, tid and kernel prio. */
struct task {
	char comm[WHY_COMM_LEN];
	pid_t pid;
	int prio;
};

static void term_task(const struct world_why *ww, const struct wm_term *t, struct task *k)
{
	const char *dflt = t->cause == WMC_THROTTLED   ? "rt-throttled"
			   : t->cause == WMC_MIGRATION ? "kworker"
						       : "task";

	snprintf(k->comm, sizeof(k->comm), "%s", t->name[0] ? t->name : dflt);
	k->pid = t->id > 0 ? t->id : 36000 + (int)t->cause;
	if ((t->cause == WMC_TASK || t->cause == WMC_THROTTLED) && t->prio > 0)
		k->prio = 99 - t->prio;
	else if (t->cause == WMC_TASK)
		k->prio = ww->probe_prio; /* no priority given: the probe's own */
	else
		k->prio = 120;
}

/* The RT thread that used up the RT runtime (a WMC_THROTTLED term with a
 * FIFO prio), NULL when the sample names none. */
static const struct wm_term *throttled_by(const struct wm_sample *s)
{
	for (size_t i = 0; i < s->n_terms; i++)
		if (s->terms[i].cause == WMC_THROTTLED && s->terms[i].prio > 0)
			return &s->terms[i];
	return NULL;
}

/* The throttled wait: what ran instead (a WMC_THROTTLED term without a
 * prio; a stand-in when the sample has none). */
static const struct wm_term *throttled_gap(const struct wm_sample *s)
{
	static const struct wm_term none = {.cause = WMC_THROTTLED, .id = -1, .prio = -1};

	for (size_t i = 0; i < s->n_terms; i++)
		if (s->terms[i].cause == WMC_THROTTLED && s->terms[i].prio <= 0)
			return &s->terms[i];
	return &none;
}

void world_why_add(struct world_why *ww, const struct wm_sample *s, uint64_t deadline_ns)
{
	const int c = ww->cpu, c2 = ww->cpu + 1;
	uint64_t t = deadline_ns, pre = deadline_ns > 2000 ? deadline_ns - 2000 : 0, path_ns = 0;
	double idle_us = 0;
	int idle_state = -1;
	bool migrated = false;
	struct task cur = {"swapper", 0, 120};
	const struct wm_term *hog;
	struct why_event e;

	snprintf(cur.comm, sizeof(cur.comm), "swapper/%d", c);
	if (ww->ev.n && pre <= ww->last_ns)
		pre = ww->last_ns + 1;
	for (size_t i = 0; i < s->n_terms; i++) {
		const struct wm_term *m = &s->terms[i];

		if (m->cause == WMC_IDLE_EXIT) {
			idle_us += m->us;
			idle_state = m->id >= 0 && m->id < WORLD_WHY_STATES ? m->id : 1;
			str_copy(ww->idle_name[idle_state], WHY_NAME_LEN, m->name);
			if (ww->idle_ns[idle_state] < (int64_t)US_NS(m->us))
				ww->idle_ns[idle_state] = (int64_t)US_NS(m->us);
		} else if (m->cause == WMC_MIGRATION) {
			migrated = true;
		} else if (m->cause != WMC_IRQ && m->cause != WMC_TASK &&
			   m->cause != WMC_THROTTLED) {
			path_ns += US_NS(m->us);
		}
	}
	/* before the deadline the probe slept, its CPU idle; or an RT thread
	 * ran there until it used up the RT runtime, and the throttled class
	 * gave the CPU to the task of the throttled term */
	hog = throttled_by(s);
	if (hog) {
		struct task h, k;

		term_task(ww, hog, &h);
		ev_switch(ww, pre, c, "tunetop-probe", WORLD_WHY_TID, ww->probe_prio, 1, h.comm,
			  h.pid, h.prio);
		term_task(ww, throttled_gap(s), &k);
		ev_switch(ww, pre + 1, c, h.comm, h.pid, h.prio, 0, k.comm, k.pid, k.prio);
		cur = k;
	} else {
		ev_switch(ww, pre, c, "tunetop-probe", WORLD_WHY_TID, ww->probe_prio, 1, cur.comm,
			  0, 120);
	}
	if (idle_state >= 0) {
		e = (struct why_event){.ts_ns = pre + 1, .cpu = c, .kind = WEV_IDLE};
		e.u.idle.state = (unsigned)idle_state;
		put(ww, &e);
		if (t < pre + 2)
			t = pre + 2;
		t += US_NS(idle_us);
		e = (struct why_event){.ts_ns = t, .cpu = c, .kind = WEV_IDLE};
		e.u.idle.state = WHY_IDLE_EXIT;
		put(ww, &e);
	}
	if (t < pre + 2)
		t = pre + 2;
	for (size_t i = 0; i < s->n_terms; i++) {
		const struct wm_term *m = &s->terms[i];

		if (m->cause != WMC_IRQ)
			continue;
		e = (struct why_event){.ts_ns = t, .cpu = c, .kind = WEV_IRQ};
		e.u.irq.irq = m->id;
		str_copy(e.u.irq.name, sizeof(e.u.irq.name), m->name[0] ? m->name : "irq");
		put(ww, &e);
		t += US_NS(m->us);
		e = (struct why_event){.ts_ns = t, .cpu = c, .kind = WEV_IRQ_EXIT};
		e.u.irq.irq = m->id;
		e.u.irq.ret = 1;
		put(ww, &e);
	}
	/* the wake-up: on the probe's CPU, or on another one and moved */
	if (migrated) {
		ev_wk(ww, WEV_WAKING, t, c2, c2, -1);
		ev_wk(ww, WEV_MIGRATE, t, c2, c, c2); /* same time: kept in order */
	} else {
		ev_wk(ww, WEV_WAKING, t, c, c, -1);
	}
	t += path_ns;
	/* under a throttling the events showed begin, the throttled wait comes
	 * first (no RT task runs until the period ends), then the tasks ahead */
	for (size_t j = 0; j < 2 * s->n_terms; j++) {
		const struct wm_term *m = &s->terms[j % s->n_terms];
		struct task k;

		if (m->cause != WMC_TASK && m->cause != WMC_THROTTLED && m->cause != WMC_MIGRATION)
			continue;
		if (m == hog || (j < s->n_terms) != (hog && m->cause == WMC_THROTTLED))
			continue; /* the hog ran before the deadline */
		term_task(ww, m, &k);
		if (k.pid != cur.pid)
			ev_switch(ww, t, c, cur.comm, cur.pid, cur.prio, 0, k.comm, k.pid, k.prio);
		cur = k;
		t += US_NS(m->us);
	}
	ev_switch(ww, t, c, cur.comm, cur.pid, cur.prio, 0, "tunetop-probe", WORLD_WHY_TID,
		  ww->probe_prio);
	e = (struct why_event){.ts_ns = t, .cpu = c, .kind = WEV_LATE};
	e.u.late.tid = WORLD_WHY_TID;
	e.u.late.deadline_ns = deadline_ns;
	e.u.late.wake_ns = t;
	put(ww, &e);
}

static int64_t idle_exit_ns(void *ctx, int cpu, unsigned state)
{
	const struct world_why *ww = ctx;

	(void)cpu;
	return state < WORLD_WHY_STATES ? ww->idle_ns[state] : -1;
}

static const char *idle_name(void *ctx, int cpu, unsigned state)
{
	const struct world_why *ww = ctx;

	(void)cpu;
	return state < WORLD_WHY_STATES && ww->idle_name[state][0] ? ww->idle_name[state] : NULL;
}

void world_why_finish(struct world_why *ww, struct why_opts *o)
{
	why_events_sort(&ww->ev);
	o->idle_exit_ns = idle_exit_ns;
	o->idle_name = idle_name;
	o->ctx = ww;
}
