/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The attribution of late wake-ups as text for people (the causes ranked,
 * then the worst late wake-ups with their parts) and as JSON members
 * (doc/schema/why.schema.json). Only formatting: the numbers come from
 * whyattr.c. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "probe/whyattr.h"

/* "rt-hog (5000, rt 95, higher priority)", "IRQ 35 eth0-rx-0", "NET_RX". The
 * task's priority as chrt and ps show it: the kernel's prio p is rt 99-p
 * below 100, nice p-120 from 100 (the JSON keeps p itself). */
static void label(char *buf, size_t cap, enum why_part_kind k, int id, const char *name, int prio,
		  enum why_reason reason, int by_irq, int64_t declared_ns)
{
	char extra[64] = "";

	switch (k) {
	case WP_TASK:
		if (reason != WR_NONE)
			snprintf(extra, sizeof(extra), ", %s", why_reason_name(reason));
		if (prio >= 0 && prio < 100)
			snprintf(buf, cap, "%s (%d, rt %d%s)", name, id, 99 - prio, extra);
		else if (prio >= 100 && prio < 140)
			snprintf(buf, cap, "%s (%d, nice %d%s)", name, id, prio - 120, extra);
		else
			snprintf(buf, cap, "%s (%d%s)", name, id, extra);
		return;
	case WP_IRQ: snprintf(buf, cap, "IRQ %d %s", id, name); return;
	case WP_SOFTIRQ:
	case WP_KSOFTIRQD:
		if (by_irq >= 0)
			snprintf(extra, sizeof(extra), " (raised by IRQ %d)", by_irq);
		snprintf(buf, cap, "%s%s", name, extra);
		return;
	case WP_IDLE_EXIT:
		if (declared_ns >= 0)
			snprintf(extra, sizeof(extra), " (declared %.0f %ss)",
				 (double)declared_ns / 1e3, str_micro());
		(void)id;
		snprintf(buf, cap, "%s%s", name, extra);
		return;
	case WP_STEAL:
		snprintf(buf, cap, "timer late / hypervisor or steal after %s", name);
		return;
	default: buf[0] = '\0'; return;
	}
}

static int late_by_delay(const void *a, const void *b)
{
	const struct why_late *x = *(const struct why_late *const *)a,
			      *y = *(const struct why_late *const *)b;

	if (x->delay_ns != y->delay_ns)
		return x->delay_ns > y->delay_ns ? -1 : 1;
	return x->deadline_ns < y->deadline_ns ? -1 : x->deadline_ns > y->deadline_ns;
}

static void text_causes(const struct why_result *r, FILE *f)
{
	const char *u = str_micro();

	fprintf(f, "Causes, ranked by their share of the total late time:\n");
	fprintf(f, "  %-10s %-44s %8s %8s %10s  %s\n", "kind", "what", "largest", "time", "total",
		"fix");
	for (size_t i = 0; i < r->n_causes; i++) {
		const struct why_cause *c = &r->causes[i];
		char what[128], total[24];

		label(what, sizeof(what), c->kind, c->id, c->name, c->prio, c->reason, c->by_irq,
		      c->declared_ns);
		snprintf(total, sizeof(total), "%.1f %ss", (double)c->total_ns / 1e3, u);
		fprintf(f, "  %-10s %-44s %7.1f%% %7.1f%% %*s  %s\n", why_part_kind_name(c->kind),
			what[0] ? what : "-", c->share_late_pct, c->share_delay_pct,
			(int)(9 + strlen(u)), total, c->fix[0] ? c->fix : "-");
		if (c->fix_why[0])
			fprintf(f, "  %-10s %s\n", "", c->fix_why);
	}
}

void why_write_text(const struct why_result *r, FILE *f, int worst_n)
{
	const char *u = str_micro();
	const struct why_late **v;
	uint64_t total = 0;
	size_t n;

	for (size_t i = 0; i < r->n_late; i++)
		total += r->late[i].delay_ns;
	fprintf(f,
		"Why late: %zu wake-up%s at least %.1f %ss late, %.1f %ss in all; %" PRIu64
		" event%s lost\n",
		r->n_late, r->n_late == 1 ? "" : "s", (double)r->threshold_ns / 1e3, u,
		(double)total / 1e3, u, r->lost_events, r->lost_events == 1 ? "" : "s");
	if (!r->n_late)
		return;
	text_causes(r, f);
	n = worst_n < 0 ? r->n_late : (size_t)worst_n < r->n_late ? (size_t)worst_n : r->n_late;
	if (!n)
		return;
	v = xmalloc(r->n_late * sizeof(*v));
	for (size_t i = 0; i < r->n_late; i++)
		v[i] = &r->late[i];
	qsort(v, r->n_late, sizeof(*v), late_by_delay);
	fprintf(f, "Worst %zu late wake-up%s:\n", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		const struct why_late *l = v[i];

		fprintf(f, "  CPU %d tid %d, deadline %.6f s: %.1f %ss late (split %s%.1f %ss)%s\n",
			l->cpu, (int)l->tid, (double)l->deadline_ns / 1e9,
			(double)l->delay_ns / 1e3, u, str_utf8_locale() ? "\u00b1" : "+-",
			(double)l->err_ns / 1e3, u, l->lost ? ", events lost inside" : "");
		for (size_t j = 0; j < l->n_parts; j++) {
			const struct why_part *p = &l->parts[j];
			char what[128];

			label(what, sizeof(what), p->kind, p->id, p->name, p->prio, p->reason,
			      p->by_irq, p->declared_ns);
			fprintf(f, "    %9.1f %ss %5.1f%%  %s%s%s\n", (double)p->ns / 1e3, u,
				l->delay_ns ? 100.0 * (double)p->ns / (double)l->delay_ns : 0.0,
				why_part_kind_name(p->kind), what[0] ? " " : "", what);
		}
	}
	free(v);
}

/* ---- JSON ---- */

static void json_common(struct jw *w, enum why_part_kind k, int id, const char *name, int prio,
			enum why_reason reason, int by_irq, int64_t declared_ns)
{
	jw_str(w, "kind", why_part_kind_name(k));
	jw_int_have(w, "id", id >= 0, id);
	jw_str_nz(w, "name", name);
	jw_int_have(w, "prio", k == WP_TASK && prio >= -1, prio);
	if (k == WP_TASK && reason != WR_NONE)
		jw_str(w, "reason", why_reason_name(reason));
	else
		jw_null(w, "reason");
	jw_int_have(w, "raised_by_irq", by_irq >= 0, by_irq);
	if (declared_ns >= 0)
		jw_double(w, "declared_exit_us", (double)declared_ns / 1e3, 3);
	else
		jw_null(w, "declared_exit_us");
}

static void json_late(struct jw *w, const struct why_late *l)
{
	jw_obj_begin(w, NULL);
	jw_int(w, "cpu", l->cpu);
	jw_int(w, "tid", l->tid);
	jw_uint(w, "deadline_ns", l->deadline_ns);
	jw_uint(w, "wake_ns", l->wake_ns);
	jw_double(w, "delay_us", (double)l->delay_ns / 1e3, 3);
	jw_double(w, "err_us", (double)l->err_ns / 1e3, 3);
	jw_bool(w, "lost", l->lost);
	jw_int_have(w, "probe_prio", l->probe_prio >= 0, l->probe_prio);
	jw_arr_begin(w, "parts");
	for (size_t j = 0; j < l->n_parts; j++) {
		const struct why_part *p = &l->parts[j];

		jw_obj_begin(w, NULL);
		json_common(w, p->kind, p->id, p->name, p->prio, p->reason, p->by_irq,
			    p->declared_ns);
		jw_double(w, "us", (double)p->ns / 1e3, 3);
		jw_double(w, "pct", l->delay_ns ? 100.0 * (double)p->ns / (double)l->delay_ns : 0.0,
			  2);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

void why_write_json(const struct why_result *r, struct jw *w)
{
	uint64_t total = 0;

	for (size_t i = 0; i < r->n_late; i++)
		total += r->late[i].delay_ns;
	jw_double(w, "threshold_us", (double)r->threshold_ns / 1e3, 3);
	jw_uint(w, "late_wakeups", r->n_late);
	jw_double(w, "late_total_us", (double)total / 1e3, 3);
	jw_uint(w, "lost_events", r->lost_events);
	jw_arr_begin(w, "causes");
	for (size_t i = 0; i < r->n_causes; i++) {
		const struct why_cause *c = &r->causes[i];

		jw_obj_begin(w, NULL);
		json_common(w, c->kind, c->id, c->name, c->prio, c->reason, c->by_irq,
			    c->declared_ns);
		jw_double(w, "total_us", (double)c->total_ns / 1e3, 3);
		jw_uint(w, "present", c->n_present);
		jw_uint(w, "largest", c->n_largest);
		jw_double(w, "share_late_pct", c->share_late_pct, 2);
		jw_double(w, "share_delay_pct", c->share_delay_pct, 2);
		jw_str_nz(w, "cpus", c->cpus);
		jw_str_nz(w, "fix", c->fix);
		jw_str_nz(w, "fix_why", c->fix_why);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_arr_begin(w, "late");
	for (size_t i = 0; i < r->n_late; i++)
		json_late(w, &r->late[i]);
	jw_arr_end(w);
}
