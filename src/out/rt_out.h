/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RT throttling section of the JSON snapshot and of the text report. */
#ifndef TT_OUT_RT_OUT_H
#define TT_OUT_RT_OUT_H

#include "core/json.h"
#include "core/str.h"
#include "source/rt.h"

/* Inside the caller's open object: writes the key "rt": {period_us,
 * runtime_us (-1 = unlimited), unlimited, share_pct, throttled_cpus: [...],
 * rt_time_ms: {"0": 0.0, ...}, throttle_events, source, error, cpus: [ {cpu,
 * rt_nr_running, rt_throttled, rt_time_ms, rt_runtime_ms, rt_use_pct,
 * throttle_events, dl_nr_running, dl_total_bw_pct} ], fair_server: {runtime_ns,
 * period_ns, share_pct, error} | null}. Per-CPU values are null when the
 * scheduler debug file is unreadable (error says why). rt may be NULL. */
void out_rt_json(struct jw *w, const struct rt_info *rt);
/* Readable report section; "n/a (reason)" where unreadable. kernel: the
 * release (system_info.kernel; NULL or "" = not known), which says whether
 * a missing fair server means an older kernel or no debugfs. */
void out_rt_text(struct sbuf *b, const struct rt_info *rt, const char *kernel);
/* Why rt has no fair server to show: "none (kernel before 6.12)", or "n/a
 * (...)" where debugfs would be needed to know. */
const char *out_fair_none(const struct rt_info *rt, const char *kernel);

#endif
