/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf counters as the TUI shows them (see counters_fmt.h). No curses. */
#include "ui/counters_fmt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "out/perf_out.h"

const char *ctr_default_events(void)
{
	static char buf[PERF_EV__GENERIC_COUNT * PERF_NAME_LEN];

	if (!buf[0]) {
		size_t n = 0;

		for (int e = 0; e < PERF_EV__GENERIC_COUNT; e++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", e ? "," : "",
					      perf_ev_name((enum perf_ev)e));
	}
	return buf;
}

void ctr_events_free(char **vec)
{
	perf_events_free(vec);
}

int ctr_events_parse(const char *list, char ***vec, char *why, size_t cap)
{
	return perf_events_parse(list, vec, why, cap);
}

/* ---- Cores columns --------------------------------------------------------- */

void ctr_cols(const struct perf_set *s, struct ctr_cols *c)
{
	int cyc, ins, mis, csw, mig;

	memset(c, 0, sizeof(*c));
	for (int k = 0; k < CTR_NCOL; k++)
		c->ev[k][0] = c->ev[k][1] = -1;
	if (!s || !s->nev)
		return;
	cyc = perf_set_generic(s, PERF_EV_CYCLES);
	ins = perf_set_generic(s, PERF_EV_INSTRUCTIONS);
	mis = perf_set_generic(s, PERF_EV_CACHE_MISSES);
	csw = perf_set_generic(s, PERF_EV_CTX_SWITCHES);
	mig = perf_set_generic(s, PERF_EV_MIGRATIONS);
	if (cyc >= 0 && ins >= 0) {
		c->have[CTR_IPC] = true;
		c->ev[CTR_IPC][0] = cyc;
		c->ev[CTR_IPC][1] = ins;
	}
	str_copy(c->head[CTR_IPC], sizeof(c->head[0]), "IPC");
	str_copy(c->what[CTR_IPC], sizeof(c->what[0]), "instructions per cycle");
	if (mis >= 0) {
		const char *label = s->ev_label[mis];

		c->have[CTR_MISSES] = true;
		c->ev[CTR_MISSES][0] = mis;
		str_copy(c->head[CTR_MISSES], sizeof(c->head[0]),
			 !strcmp(label, "L1D refills")	? "L1Dr/s"
			 : !strcmp(label, "LLC misses") ? "LLCm/s"
							: "Cmis/s");
		snprintf(c->what[CTR_MISSES], sizeof(c->what[0]), "%s/s", label);
	} else {
		str_copy(c->head[CTR_MISSES], sizeof(c->head[0]), "Cmis/s");
		str_copy(c->what[CTR_MISSES], sizeof(c->what[0]), "cache misses/s");
	}
	if (csw >= 0) {
		c->have[CTR_CSW] = true;
		c->ev[CTR_CSW][0] = csw;
	}
	str_copy(c->head[CTR_CSW], sizeof(c->head[0]), "Csw/s");
	str_copy(c->what[CTR_CSW], sizeof(c->what[0]), "context switches/s");
	if (mig >= 0) {
		c->have[CTR_MIG] = true;
		c->ev[CTR_MIG][0] = mig;
	}
	str_copy(c->head[CTR_MIG], sizeof(c->head[0]), "Mig/s");
	str_copy(c->what[CTR_MIG], sizeof(c->what[0]), "CPU migrations/s");
	for (int k = 0; k < CTR_NCOL; k++)
		c->n += c->have[k];
}

enum ctr_cell_kind ctr_event_cell(const struct perf_set *s, int ev, int row, bool pending,
				  char *buf, size_t cap)
{
	const struct perf_counter *pc;
	size_t n;

	if (!s || ev < 0 || (size_t)ev >= s->nev || row < 0 || row >= s->ncpus) {
		snprintf(buf, cap, "n/a");
		return CTR_CELL_NA;
	}
	pc = perf_at(s, row, (size_t)ev);
	if (pc->err || pc->fd < 0) {
		snprintf(buf, cap, "n/a");
		return CTR_CELL_NA;
	}
	if (pending) {
		snprintf(buf, cap, "...");
		return CTR_CELL_WAIT;
	}
	out_perf_fmt_rate(buf, cap, pc->rate_per_s);
	if (!isfinite(pc->rate_per_s))
		return CTR_CELL_NA;
	if (pc->scaled) {
		n = strlen(buf);
		if (n + 1 < cap) {
			buf[n] = '*';
			buf[n + 1] = '\0';
		}
		return CTR_CELL_SCALED;
	}
	return CTR_CELL_OK;
}

enum ctr_cell_kind ctr_cell(const struct perf_set *s, const struct ctr_cols *c, enum ctr_col col,
			    int row, bool pending, char *buf, size_t cap)
{
	enum ctr_cell_kind k0, k1;
	char tmp[32];
	double ipc;

	if (!c->have[col])
		return ctr_event_cell(s, -1, row, pending, buf, cap);
	if (col != CTR_IPC)
		return ctr_event_cell(s, c->ev[col][0], row, pending, buf, cap);
	k0 = ctr_event_cell(s, c->ev[col][0], row, pending, tmp, sizeof(tmp));
	k1 = ctr_event_cell(s, c->ev[col][1], row, pending, tmp, sizeof(tmp));
	if (k0 == CTR_CELL_NA || k1 == CTR_CELL_NA) {
		snprintf(buf, cap, "n/a");
		return CTR_CELL_NA;
	}
	if (k0 == CTR_CELL_WAIT || k1 == CTR_CELL_WAIT) {
		snprintf(buf, cap, "...");
		return CTR_CELL_WAIT;
	}
	ipc = s->ipc[row];
	if (!isfinite(ipc)) {
		snprintf(buf, cap, "n/a");
		return CTR_CELL_NA;
	}
	snprintf(buf, cap, "%.2f%s", ipc,
		 k0 == CTR_CELL_SCALED || k1 == CTR_CELL_SCALED ? "*" : "");
	return k0 == CTR_CELL_SCALED || k1 == CTR_CELL_SCALED ? CTR_CELL_SCALED : CTR_CELL_OK;
}

/* ---- reasons --------------------------------------------------------------- */

#define MAX_REASONS 16

static void add_label(char *list, size_t cap, const char *label)
{
	size_t n = strlen(list);

	snprintf(list + n, cap - n, "%s%s", n ? ", " : "", label);
}

void ctr_reasons(const struct perf_set *s, const struct ctr_item *it, size_t n, char *out,
		 size_t cap)
{
	char reason[MAX_REASONS][PERF_WHY_LEN + 24], who[MAX_REASONS][160], user[160] = "";
	size_t nr = 0, len = 0;

	if (!cap)
		return;
	out[0] = '\0';
	if (!s || !s->nev)
		return;
	for (size_t i = 0; i < n; i++) {
		char r[PERF_WHY_LEN + 24] = "";
		bool user_only = false;
		size_t k;

		for (int j = 0; j < 2; j++) {
			int e = it[i].ev[j];

			if (e < 0 || (size_t)e >= s->nev)
				continue;
			if (s->ev_err[e]) {
				snprintf(r, sizeof(r), "%s (%s)",
					 s->why[e][0] ? s->why[e] : "cannot be opened",
					 err_name(s->ev_err[e]));
				break;
			}
			if (perf_ev_unscheduled(s, (size_t)e)) {
				snprintf(r, sizeof(r), "%s", PERF_UNSCHEDULED_WHY);
				break;
			}
			if (perf_ev_never_counted(s, (size_t)e)) {
				snprintf(r, sizeof(r), "%s", PERF_NEVER_COUNTED_WHY);
				break;
			}
			user_only |= s->ev_user_only[e];
		}
		if (!r[0]) {
			if (user_only)
				add_label(user, sizeof(user), it[i].label);
			continue;
		}
		for (k = 0; k < nr; k++)
			if (!strcmp(reason[k], r))
				break;
		if (k == nr) {
			if (nr == MAX_REASONS)
				continue;
			str_copy(reason[nr], sizeof(reason[0]), r);
			who[nr][0] = '\0';
			nr++;
		}
		add_label(who[k], sizeof(who[0]), it[i].label);
	}
	for (size_t k = 0; k < nr && len < cap; k++)
		len += (size_t)snprintf(out + len, cap - len, "%s%s n/a: %s", len ? "; " : "",
					who[k], reason[k]);
	if (user[0] && len < cap)
		snprintf(out + len, cap - len,
			 "%s%s: user space only (kernel counting needs CAP_PERFMON or "
			 "perf_event_paranoid < 2)",
			 len ? "; " : "", user);
}
