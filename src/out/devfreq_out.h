/* SPDX-License-Identifier: GPL-2.0-or-later */
/* devfreq and debugfs clock sections of the JSON snapshot and of the text
 * report. */
#ifndef TT_OUT_DEVFREQ_OUT_H
#define TT_OUT_DEVFREQ_OUT_H

#include "core/json.h"
#include "core/str.h"
#include "source/devfreq.h"
#include "source/thermal.h"

/* Inside the caller's open object: writes the keys "devfreq": [ {name, kind,
 * path, governor, cur_hz, target_hz, min_hz, max_hz, polling_ms,
 * available_hz, available_governors, total_trans, transitions_per_s,
 * time_in_state_pct: {"534000000": 99.1, ...}, cur_state_hz, trans_stat_error,
 * load} ], "clocks": [ {name, kind, rate_hz, covered, error} ] and
 * "clocks_error" (why debugfs clocks are unavailable, null when they are).
 * n/a values are null. d may be NULL (empty arrays). th: the thermal data
 * of the same snapshot for each device's "thermal_capped" (an active devfreq
 * cooling device caps it); NULL (not read) gives null. */
void out_devfreq_json(struct jw *w, const struct devfreq_info *d, const struct thermal_info *th);
/* Readable report section: one line per device with its residency, then the
 * debugfs clocks; "n/a (reason)" where unreadable. A device capped by an
 * active cooling device ends its line with "CAPPED (thermal)"; th may be
 * NULL. */
void out_devfreq_text(struct sbuf *b, const struct devfreq_info *d, const struct thermal_info *th);

#endif
