/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counters section of the JSON snapshot and of the text report. */
#ifndef TT_OUT_PERF_OUT_H
#define TT_OUT_PERF_OUT_H

#include "core/json.h"
#include "core/str.h"
#include "source/perf.h"

/* Inside the caller's open object, the key "counters":
 *   { "events": [names], "labels": {name: label},
 *     "per_cpu": [ { "cpu": N, "values": {name: rate_per_s|null},
 *                    "ipc": x|null, "miss_rate_pct": x|null, "misses_per_s": x|null,
 *                    "scaled": bool } ]          (a thread set writes "thread": {"tid": N, ...})
 *     "errors": {name: "ENOENT: no hardware PMU"}, "user_only": [names], "note": str|null }
 * null when s is NULL or not open. */
void out_perf_json(struct jw *w, const struct perf_set *s);
/* A table of rates per CPU (or for the thread), '*' after a scaled value,
 * then each reason once and the note. Nothing when s is NULL. */
void out_perf_text(struct sbuf *b, const struct perf_set *s);
/* A rate with an SI suffix in at most 7 characters ("1.23G", "456.7M",
 * "12.3k", "3.2"), "n/a" for NAN. */
void out_perf_fmt_rate(char *buf, size_t cap, double v);

#endif
