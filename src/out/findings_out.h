/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings writers: the "findings" array of the JSON snapshot (id, severity,
 * evidence, fix as ["address=value", ...]) and the findings section of the
 * text report. */
#ifndef TT_OUT_FINDINGS_OUT_H
#define TT_OUT_FINDINGS_OUT_H

#include "core/json.h"
#include "core/str.h"
#include "model/findings.h"
#include "model/snapshot.h"

/* Evaluate the rules over a snapshot (its interrupt table when sampled, and
 * a thread table when the caller read one; NULL = degraded rules) with fo
 * (NULL = defaults) and write them: the "findings" array / a "findings"
 * text section. given: an already evaluated list, written as it is. */
void out_findings_json(struct jw *w, const struct snapshot *s, const struct thread_table *threads,
		       const struct finding_list *given, const struct findings_opts *fo);
void out_findings_text(struct sbuf *b, const struct snapshot *s, const struct thread_table *threads,
		       const struct finding_list *given, const struct findings_opts *fo);

/* Write an already evaluated list (the TUI, recordings). key NULL inside
 * arrays. */
void out_findings_list_json(struct jw *w, const char *key, const struct finding_list *l);
void out_findings_list_text(struct sbuf *b, const struct finding_list *l);

#endif
