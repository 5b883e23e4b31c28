/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings writers. The batch writers evaluate the rules themselves over
 * what the snapshot command sampled, so `snapshot --json` carries findings
 * without its callers knowing about rules. */
#include "out/findings_out.h"

#include <stdio.h>
#include <string.h>

#include "model/snap_fields.h"

void out_findings_list_json(struct jw *w, const char *key, const struct finding_list *l)
{
	jf_write_array(w, key, &snap_finding, l ? l->v : NULL, l ? l->n : 0);
}

void out_findings_list_text(struct sbuf *b, const struct finding_list *l)
{
	sbuf_puts(b, "findings\n");
	if (!l || !l->n) {
		sbuf_puts(b, "  none\n");
		return;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct finding *f = &l->v[i];

		sbuf_printf(b, "  %-4s %-20s %s\n", finding_sev_name(f->sev), f->id, f->title);
		sbuf_printf(b, "       %s\n", f->evidence);
		if (f->nfix) {
			sbuf_puts(b, "       fix:");
			for (size_t k = 0; k < f->nfix; k++)
				sbuf_printf(b, " %s", f->fix[k]);
			sbuf_putc(b, '\n');
		}
		sbuf_printf(b, "       explain: tunetop explain %s\n", f->explain);
	}
}

static void eval(const struct snapshot *s, const struct thread_table *threads,
		 const struct findings_opts *fo, struct finding_list *l)
{
	/* a tree without processes (no proc/PID) has no thread data: the
	 * degraded rules, as without --threads */
	struct findings_input in = {.snap = s,
				    .threads = threads && threads->nprocs ? threads : NULL};

	findings_eval(&in, fo, l);
}

void out_findings_json(struct jw *w, const struct snapshot *s, const struct thread_table *threads,
		       const struct finding_list *given, const struct findings_opts *fo)
{
	struct finding_list l = {0};

	if (given) {
		out_findings_list_json(w, "findings", given);
		return;
	}
	eval(s, threads, fo, &l);
	out_findings_list_json(w, "findings", &l);
	findings_free(&l);
}

void out_findings_text(struct sbuf *b, const struct snapshot *s, const struct thread_table *threads,
		       const struct finding_list *given, const struct findings_opts *fo)
{
	struct finding_list l = {0};

	if (given) {
		out_findings_list_text(b, given);
		return;
	}
	eval(s, threads, fo, &l);
	out_findings_list_text(b, &l);
	findings_free(&l);
}
