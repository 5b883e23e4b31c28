/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counters section writers: the "counters" key of the JSON snapshot and the
 * counters table of the text report. Only read a struct perf_set: rates per
 * second, derived IPC and miss rate, scaled marks, and each reason once. */
#include "out/perf_out.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"

void out_perf_fmt_rate(char *buf, size_t cap, double v)
{
	double a = fabs(v);

	/* Each bound is where the smaller unit would round up to 1000 of
	 * it: 999.96e6 is "1.00G", not "1000.0M". */
	if (!isfinite(v))
		snprintf(buf, cap, "n/a");
	else if (a >= 999.95e6)
		snprintf(buf, cap, "%.2fG", v / 1e9);
	else if (a >= 999.95e3)
		snprintf(buf, cap, "%.1fM", v / 1e6);
	else if (a >= 9999.95)
		snprintf(buf, cap, "%.1fk", v / 1e3);
	else
		snprintf(buf, cap, "%.1f", v);
}

static bool row_scaled(const struct perf_set *s, int row)
{
	for (size_t e = 0; e < s->nev; e++)
		if (perf_at(s, row, e)->scaled)
			return true;
	return false;
}

static void row_json(struct jw *w, const struct perf_set *s, int row)
{
	jw_obj_begin(w, "values");
	for (size_t e = 0; e < s->nev; e++)
		jw_double(w, s->ev_name[e], perf_at(s, row, e)->rate_per_s, 1);
	jw_obj_end(w);
	jw_double(w, "ipc", s->ipc[row], 3);
	jw_double(w, "miss_rate_pct", s->miss_rate_pct[row], 2);
	jw_double(w, "misses_per_s", s->misses_per_s[row], 1);
	jw_bool(w, "scaled", row_scaled(s, row));
}

void out_perf_json(struct jw *w, const struct perf_set *s)
{
	bool any;

	if (!s || !s->priv) {
		jw_null(w, "counters");
		return;
	}
	jw_obj_begin(w, "counters");
	jw_arr_begin(w, "events");
	for (size_t e = 0; e < s->nev; e++)
		jw_str(w, NULL, s->ev_name[e]);
	jw_arr_end(w);
	jw_obj_begin(w, "labels");
	for (size_t e = 0; e < s->nev; e++)
		jw_str(w, s->ev_name[e], s->ev_label[e]);
	jw_obj_end(w);
	if (s->tid > 0) {
		jw_obj_begin(w, "thread");
		jw_int(w, "tid", s->tid);
		row_json(w, s, 0);
		jw_obj_end(w);
	} else {
		jw_arr_begin(w, "per_cpu");
		for (int row = 0; row < s->ncpus; row++) {
			jw_obj_begin(w, NULL);
			jw_int(w, "cpu", row);
			row_json(w, s, row);
			jw_obj_end(w);
		}
		jw_arr_end(w);
	}
	jw_obj_begin(w, "errors");
	for (size_t e = 0; e < s->nev; e++) {
		char msg[PERF_WHY_LEN + 16];

		if (!s->ev_err[e]) {
			if (perf_ev_unscheduled(s, e))
				jw_str(w, s->ev_name[e], PERF_UNSCHEDULED_WHY);
			else if (perf_ev_never_counted(s, e))
				jw_str(w, s->ev_name[e], PERF_NEVER_COUNTED_WHY);
			continue;
		}
		snprintf(msg, sizeof(msg), "%s: %s", err_name(s->ev_err[e]), s->why[e]);
		jw_str(w, s->ev_name[e], msg);
	}
	jw_obj_end(w);
	any = false;
	for (size_t e = 0; e < s->nev; e++)
		any |= s->ev_user_only[e];
	if (any) {
		jw_arr_begin(w, "user_only");
		for (size_t e = 0; e < s->nev; e++)
			if (s->ev_user_only[e])
				jw_str(w, NULL, s->ev_name[e]);
		jw_arr_end(w);
	}
	jw_str(w, "note", s->note[0] ? s->note : NULL);
	jw_obj_end(w);
}

static int col_width(const struct perf_set *s, size_t e)
{
	int n = (int)strlen(s->ev_label[e]);

	return n < 8 ? 8 : n;
}

void out_perf_text(struct sbuf *b, const struct perf_set *s)
{
	bool any_scaled = false, any_reason = false;

	if (!s || !s->priv)
		return;
	sbuf_printf(b, "Counters (per second)\n");
	sbuf_printf(b, "%-9s", s->tid > 0 ? "thread" : "CPU");
	for (size_t e = 0; e < s->nev; e++)
		sbuf_printf(b, " %*s", col_width(s, e) + 1, s->ev_label[e]);
	sbuf_printf(b, " %6s %7s\n", "IPC", "miss%");
	for (int row = 0; row < s->ncpus; row++) {
		char label[24], v[16];
		bool all_off = true;

		for (size_t e = 0; e < s->nev; e++)
			if (perf_at(s, row, e)->err != -ENODEV &&
			    perf_at(s, row, e)->err != -ECANCELED)
				all_off = false;
		if (s->tid <= 0 && all_off)
			continue; /* offline or excluded: said once in the note */
		if (s->tid > 0)
			snprintf(label, sizeof(label), "%d", (int)s->tid);
		else
			snprintf(label, sizeof(label), "%d", row);
		sbuf_printf(b, "%-9s", label);
		for (size_t e = 0; e < s->nev; e++) {
			const struct perf_counter *c = perf_at(s, row, e);

			out_perf_fmt_rate(v, sizeof(v), c->rate_per_s);
			sbuf_printf(b, " %*s%c", col_width(s, e), v,
				    c->scaled && isfinite(c->rate_per_s) ? '*' : ' ');
			any_scaled |= c->scaled;
		}
		if (isfinite(s->ipc[row]))
			sbuf_printf(b, " %6.2f", s->ipc[row]);
		else
			sbuf_printf(b, " %6s", "n/a");
		if (isfinite(s->miss_rate_pct[row]))
			sbuf_printf(b, " %7.2f\n", s->miss_rate_pct[row]);
		else
			sbuf_printf(b, " %7s\n", "n/a");
	}
	if (any_scaled)
		sbuf_printf(b,
			    "  * scaled: the PMU was shared (multiplexed), values are estimates\n");
	for (size_t e = 0; e < s->nev; e++) {
		if (!s->reason[e][0] && perf_ev_unscheduled(s, e)) {
			sbuf_printf(b, "  %s: n/a - %s\n", s->ev_name[e], PERF_UNSCHEDULED_WHY);
			continue;
		}
		if (!s->reason[e][0] && perf_ev_never_counted(s, e)) {
			sbuf_printf(b, "  %s: n/a - %s\n", s->ev_name[e], PERF_NEVER_COUNTED_WHY);
			continue;
		}
		if (!s->reason[e][0])
			continue;
		sbuf_printf(b, "  %s\n", s->reason[e]);
		any_reason = true;
	}
	(void)any_reason;
	if (s->note[0])
		sbuf_printf(b, "  note: %s\n", s->note);
}
