/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpuidle and PM QoS section writers: the per-CPU "idle" arrays, the
 * "cpuidle" and "pmqos" keys of the JSON snapshot (design §8) and the
 * cpuidle / PM QoS part of the text report. They only read a struct
 * cpuidle_info; n/a is null in JSON and "n/a" in text. */
#include "out/cpuidle_out.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/cpumask.h"

static void jw_tristate(struct jw *w, const char *key, int v)
{
	if (v < 0)
		jw_null(w, key);
	else
		jw_bool(w, key, v != 0);
}

static void state_json(struct jw *w, const struct cpuidle_state *s)
{
	char key[32];

	jw_obj_begin(w, NULL);
	snprintf(key, sizeof(key), "state%d", s->index);
	jw_str(w, "state", key);
	jw_str(w, "name", s->name[0] ? s->name : NULL);
	jw_str(w, "desc", s->desc[0] ? s->desc : NULL);
	jw_int_nn(w, "latency_us", s->latency_us);
	jw_int_nn(w, "residency_us", s->residency_us);
	jw_tristate(w, "disabled", s->disable);
	jw_tristate(w, "default_enabled", s->default_status);
	jw_double(w, "residency_pct", s->residency_pct, 1);
	jw_double(w, "entries_per_s", s->entries_per_s, 1);
	jw_double(w, "above_per_s", s->above_per_s, 1);
	jw_double(w, "below_per_s", s->below_per_s, 1);
	jw_uint_have(w, "usage", s->have_usage, s->usage);
	jw_uint_have(w, "time_us", s->have_time, s->time_us);
	jw_uint_have(w, "above", s->have_above, s->above);
	jw_uint_have(w, "below", s->have_below, s->below);
	jw_uint_have(w, "rejected", s->have_rejected, s->rejected);
	jw_obj_end(w);
}

void out_cpuidle_json_cpu(struct jw *w, const struct cpuidle_info *c, int cpu)
{
	const struct cpuidle_cpu *cc;

	if (!c || !c->cpu || cpu < 0 || cpu >= c->ncpus || !c->cpu[cpu].online) {
		jw_null(w, "idle");
		return;
	}
	cc = &c->cpu[cpu];
	jw_arr_begin(w, "idle");
	for (size_t i = 0; i < cc->nstates; i++)
		state_json(w, &cc->st[i]);
	jw_arr_end(w);
}

void out_cpuidle_json(struct jw *w, const struct cpuidle_info *c)
{
	char buf[sizeof(c->avail_governors)];
	char *tok[16];
	size_t n = 0;

	jw_obj_begin(w, "cpuidle");
	jw_str(w, "driver", c && c->driver[0] ? c->driver : NULL);
	jw_str(w, "governor", c && c->governor[0] ? c->governor : NULL);
	if (c) {
		memcpy(buf, c->avail_governors, sizeof(buf));
		n = str_split_ws(buf, tok, sizeof(tok) / sizeof(tok[0]));
	}
	if (n) {
		jw_arr_begin(w, "available_governors");
		for (size_t i = 0; i < n; i++)
			jw_str(w, NULL, tok[i]);
		jw_arr_end(w);
	} else {
		jw_null(w, "available_governors");
	}
	jw_obj_end(w);
}

void out_pmqos_json(struct jw *w, const struct cpuidle_info *c)
{
	jw_obj_begin(w, "pmqos");
	jw_int_nn(w, "cpu_dma_latency_us", c ? c->dma_latency_us : -1);
	jw_obj_begin(w, "resume_latency_us");
	for (int i = 0; c && c->cpu && i < c->ncpus; i++) {
		char key[16];

		snprintf(key, sizeof(key), "%d", i);
		jw_int_nn(w, key, c->cpu[i].resume_latency_us);
	}
	jw_obj_end(w);
	jw_obj_begin(w, "resume_latency_raw");
	for (int i = 0; c && c->cpu && i < c->ncpus; i++) {
		char key[16];

		snprintf(key, sizeof(key), "%d", i);
		jw_str(w, key,
		       c->cpu[i].resume_latency_us == CPUIDLE_RESUME_UNREADABLE &&
				       !c->cpu[i].resume_latency[0]
			       ? NULL
			       : c->cpu[i].resume_latency);
	}
	jw_obj_end(w);
	jw_obj_end(w);
}

/* ---- text ---------------------------------------------------------------- */

static void put_nn(struct sbuf *b, int w, int64_t v)
{
	if (v < 0)
		sbuf_printf(b, "%*s", w, "n/a");
	else
		sbuf_printf(b, "%*" PRId64, w, v);
}

static void put_dbl(struct sbuf *b, int w, double v)
{
	if (isnan(v))
		sbuf_printf(b, "%*s", w, "n/a");
	else
		sbuf_printf(b, "%*.1f", w, v);
}

static const char *yesno(int v, const char *yes, const char *no)
{
	return v < 0 ? "n/a" : v ? yes : no;
}

static void resume_text(const struct cpuidle_cpu *cc, char *buf, size_t cap)
{
	switch (cc->resume_latency_us) {
	case CPUIDLE_RESUME_NO_CONSTRAINT: snprintf(buf, cap, "no constraint"); break;
	case CPUIDLE_RESUME_UNREADABLE: snprintf(buf, cap, "n/a"); break;
	case 0: snprintf(buf, cap, "0 us (\"n/a\": polling only)"); break;
	default: snprintf(buf, cap, "%" PRId64 " us", cc->resume_latency_us); break;
	}
}

static void pmqos_text(struct sbuf *b, const struct cpuidle_info *c)
{
	bool done[TT_MAX_CPUS] = {false};

	sbuf_puts(b, "  pm qos: cpu_dma_latency ");
	if (c->dma_latency_us < 0)
		sbuf_puts(b, "n/a");
	else if (c->dma_latency_us >= CPUIDLE_DMA_NO_CONSTRAINT)
		sbuf_puts(b, "no constraint");
	else
		sbuf_printf(b, "%" PRId64 " us", c->dma_latency_us);
	sbuf_puts(b, "; resume latency");
	/* Group CPUs with the same value: "0-3,6 no constraint; 4-5 100 us". */
	for (int i = 0; i < c->ncpus && i < TT_MAX_CPUS; i++) {
		struct cpumask m;
		char list[256], what[64];

		if (done[i])
			continue;
		cpumask_zero(&m);
		for (int j = i; j < c->ncpus && j < TT_MAX_CPUS; j++)
			if (!done[j] &&
			    c->cpu[j].resume_latency_us == c->cpu[i].resume_latency_us) {
				cpumask_set(&m, j);
				done[j] = true;
			}
		cpulist_format(&m, list, sizeof(list));
		resume_text(&c->cpu[i], what, sizeof(what));
		sbuf_printf(b, "%s cpu %s: %s", i ? "," : "", list, what);
	}
	sbuf_putc(b, '\n');
}

void out_cpuidle_text(struct sbuf *b, const struct cpuidle_info *c, const struct topology *t)
{
	bool header = false;

	(void)t;
	sbuf_puts(b, "cpuidle\n");
	if (!c) {
		sbuf_puts(b, "  n/a\n");
		return;
	}
	sbuf_printf(b, "  driver %s  governor %s  available %s\n", c->driver[0] ? c->driver : "n/a",
		    c->governor[0] ? c->governor : "n/a",
		    c->avail_governors[0] ? c->avail_governors : "n/a");
	for (int i = 0; c->cpu && i < c->ncpus; i++) {
		const struct cpuidle_cpu *cc = &c->cpu[i];

		if (!cc->online) {
			sbuf_printf(b, "  cpu%-4d offline\n", i);
			continue;
		}
		if (!cc->nstates) {
			sbuf_printf(b, "  cpu%-4d no idle states\n", i);
			continue;
		}
		if (!header) {
			sbuf_printf(b, "  %-7s %-7s %-12s %8s %8s %-8s %-7s %7s %10s %8s %8s\n",
				    "cpu", "state", "name", "lat_us", "res_us", "disabled",
				    "default", "time%", "entries/s", "above/s", "below/s");
			header = true;
		}
		for (size_t k = 0; k < cc->nstates; k++) {
			const struct cpuidle_state *s = &cc->st[k];
			char sname[16];

			snprintf(sname, sizeof(sname), "state%d", s->index);
			sbuf_printf(b, "  cpu%-4d %-7s %-12s ", i, sname,
				    s->name[0] ? s->name : "n/a");
			put_nn(b, 8, s->latency_us);
			sbuf_putc(b, ' ');
			put_nn(b, 8, s->residency_us);
			sbuf_printf(b, " %-8s %-7s ", yesno(s->disable, "yes", "no"),
				    yesno(s->default_status, "on", "off"));
			put_dbl(b, 7, s->residency_pct);
			sbuf_putc(b, ' ');
			put_dbl(b, 10, s->entries_per_s);
			sbuf_putc(b, ' ');
			put_dbl(b, 8, s->above_per_s);
			sbuf_putc(b, ' ');
			put_dbl(b, 8, s->below_per_s);
			sbuf_putc(b, '\n');
		}
	}
	pmqos_text(b, c);
}
