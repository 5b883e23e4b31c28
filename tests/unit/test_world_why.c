/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/model/world_why.c (issue 35): a world's late sample,
 * one cause at a time, written as trace events and attributed by the same
 * code as a machine's (probe/whyattr.c): each wm_cause comes out as the
 * part kind (and reason) worldmodel.h promises, with its time, the parts
 * summing to the sample; several late samples in one stream stay apart;
 * the rk3588-npu probe model's terms follow its inputs. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/world_rk3588.h"
#include "model/world_why.h"
#include "model/worldmodel.h"
#include "tap.h"

#define PRIO 4 /* the probe's kernel prio: SCHED_FIFO 95 */
#define D0   5000000000ull

/* One sample: the fixed path plus one term of cause c; attributed. */
static int attribute(const struct wm_sample *s, size_t n, struct why_result *r)
{
	struct world_why ww;
	struct why_opts o;
	int e;

	memset(&o, 0, sizeof(o));
	world_why_init(&ww, 2, PRIO);
	for (size_t i = 0; i < n; i++)
		world_why_add(&ww, &s[i], D0 + i * 1000000ull);
	world_why_finish(&ww, &o);
	e = why_attribute(&ww.ev, &o, r);
	world_why_free(&ww);
	return e;
}

static const struct why_part *find(const struct why_late *l, enum why_part_kind k)
{
	for (size_t i = 0; i < l->n_parts; i++)
		if (l->parts[i].kind == k)
			return &l->parts[i];
	return NULL;
}

struct want {
	enum wm_cause c;
	int id, prio;
	const char *name;
	enum why_part_kind kind;
	enum why_reason reason;
};

static const struct want wants[] = {
	{WMC_IDLE_EXIT, 1, -1, "cpu-sleep", WP_IDLE_EXIT, WR_NONE},
	{WMC_IRQ, 23, -1, "fdab0000.npu", WP_IRQ, WR_NONE},
	{WMC_TASK, 700, 97, "rt-hog", WP_TASK, WR_HIGHER_PRIO},
	{WMC_TASK, 701, 95, "rt-same", WP_TASK, WR_SAME_PRIO},
	{WMC_THROTTLED, 702, -1, "stress", WP_TASK, WR_RT_THROTTLED},
	{WMC_MIGRATION, 703, -1, "kworker/2:1", WP_TASK, WR_MIGRATION},
	{WMC_CLOCK_RAMP, -1, -1, "", WP_WAKEUP, WR_NONE},
	{WMC_CACHE, -1, -1, "", WP_WAKEUP, WR_NONE},
	{WMC_POLL, -1, -1, "", WP_WAKEUP, WR_NONE},
};

static void one_cause(const struct want *w)
{
	struct wm_sample s;
	struct why_result r;
	const struct why_part *p;
	uint64_t sum = 0;
	const char *cn = wm_cause_name(w->c);
	char t[160];

	wm_sample_clear(&s);
	wm_sample_add(&s, WMC_BASE, -1, "", -1, 5.0);
	wm_sample_add(&s, w->c, w->id, w->name, w->prio, 300.0);
	if (attribute(&s, 1, &r)) {
		ok(0, "%s: attributed", cn);
		return;
	}
	is_int(r.n_late, 1, "one late wake-up");
	if (r.n_late != 1) {
		why_result_free(&r);
		return;
	}
	is_int(r.late[0].delay_ns, 305000, "the delay is the sample's total");
	p = find(&r.late[0], w->kind);
	ok(p != NULL, "%s -> %s", cn, why_part_kind_name(w->kind));
	if (p) {
		snprintf(t, sizeof(t), "%s: its time%s", cn,
			 w->kind == WP_WAKEUP ? " with the fixed path's, the wake-up path" : "");
		is_int(p->ns, w->kind == WP_WAKEUP ? 305000 : 300000, t);
		if (w->kind == WP_TASK) {
			snprintf(t, sizeof(t), "%s: reason %s", cn, why_reason_name(w->reason));
			is_int(p->reason, w->reason, t);
			snprintf(t, sizeof(t), "%s: the task's comm", cn);
			is_str(p->name, w->name, t);
		}
		snprintf(t, sizeof(t), "%s: its id", cn);
		if (w->kind == WP_IRQ || w->kind == WP_IDLE_EXIT)
			is_int(p->id, w->id, t);
		if (w->kind == WP_IDLE_EXIT)
			is_str(p->name, "cpu-sleep", "the idle state's name");
	}
	ok(r.late[0].parts[0].kind == w->kind, "%s: the largest part", cn);
	for (size_t i = 0; i < r.late[0].n_parts; i++)
		sum += r.late[0].parts[i].ns;
	snprintf(t, sizeof(t), "%s: the parts sum to the delay", cn);
	is_int(sum, r.late[0].delay_ns, t);
	why_result_free(&r);
}

/* Three late samples in one stream: each keeps its own cause. */
static void stream(void)
{
	struct wm_sample s[3];
	struct why_result r;

	for (int i = 0; i < 3; i++) {
		wm_sample_clear(&s[i]);
		wm_sample_add(&s[i], WMC_BASE, -1, "", -1, 4.0);
	}
	wm_sample_add(&s[0], WMC_IDLE_EXIT, 1, "cpu-sleep", -1, 220.0);
	wm_sample_add(&s[1], WMC_IRQ, 23, "fdab0000.npu", -1, 40.0);
	wm_sample_add(&s[2], WMC_IDLE_EXIT, 1, "cpu-sleep", -1, 220.0);
	wm_sample_add(&s[2], WMC_IRQ, 23, "fdab0000.npu", -1, 20.0);
	if (attribute(s, 3, &r)) {
		ok(0, "stream attributed");
		return;
	}
	is_int(r.n_late, 3, "three late wake-ups");
	if (r.n_late == 3) {
		is_int(r.late[0].parts[0].kind, WP_IDLE_EXIT, "the first: idle exit");
		is_int(r.late[1].parts[0].kind, WP_IRQ, "the second: the IRQ");
		ok(!find(&r.late[1], WP_IDLE_EXIT), "the second has no idle exit");
		const struct why_part *pi = find(&r.late[2], WP_IDLE_EXIT);
		const struct why_part *pq = find(&r.late[2], WP_IRQ);

		ok(pi && pq && pi->ns == 220000 && pq->ns == 20000,
		   "the third: both, each with its time");
	}
	ok(r.n_causes >= 1 && r.causes[0].kind == WP_IDLE_EXIT, "the idle exit leads the causes");
	why_result_free(&r);
}

static double fixed_rnd(void *ctx)
{
	return *(double *)ctx;
}

/* rk3588-npu's probe: the path, the clock term and the idle exit. */
static void rk_model(void)
{
	struct rk3588_probe_in in = {.cur_mhz = 408, .top_mhz = 1800, .exit_us = 220, .state = 1};
	struct wm_sample s;
	double u = 0.5; /* 0.5 < RK_PROBE_SLEEP_P: asleep; >= RK_PROBE_IRQ_P: no IRQ */

	strcpy(in.state_name, "cpu-sleep");
	world_rk3588_probe_model(&in, fixed_rnd, &u, &s);
	is_dbl(wm_sample_term_us(&s, WMC_IDLE_EXIT), 220.0, 1e-9, "asleep: the exit latency");
	is_dbl(wm_sample_term_us(&s, WMC_CLOCK_RAMP), RK_PROBE_WORK / 408 - RK_PROBE_WORK / 1800,
	       1e-9, "at 408 MHz: the path's cycles below the top clock");
	is_dbl(wm_sample_term_us(&s, WMC_BASE),
	       RK_PROBE_PATH_US + 0.5 * RK_PROBE_NOISE_US + RK_PROBE_WORK / 1800, 1e-9,
	       "the fixed path");
	is_dbl(s.total_us, 220.0 + RK_PROBE_WORK / 408 + RK_PROBE_PATH_US + 0.5 * RK_PROBE_NOISE_US,
	       1e-9, "the total is the sum");
	in.cur_mhz = 1800;
	in.exit_us = 1;
	in.state = 0;
	strcpy(in.state_name, "WFI");
	world_rk3588_probe_model(&in, fixed_rnd, &u, &s);
	is_dbl(wm_sample_term_us(&s, WMC_CLOCK_RAMP), 0, 1e-9, "at the top clock: no clock term");
	is_dbl(wm_sample_term_us(&s, WMC_IDLE_EXIT), 1.0, 1e-9, "cpu-sleep off: WFI's 1 us");
}

int main(void)
{
	for (size_t i = 0; i < sizeof(wants) / sizeof(wants[0]); i++)
		one_cause(&wants[i]);
	stream();
	rk_model();
	return done_testing();
}
