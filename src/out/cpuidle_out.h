/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpuidle and PM QoS sections of the JSON snapshot and of the text report. */
#ifndef TT_OUT_CPUIDLE_OUT_H
#define TT_OUT_CPUIDLE_OUT_H

#include "core/json.h"
#include "core/str.h"
#include "source/cpuidle.h"
#include "source/topology.h"

/* Inside a "cpus" entry: writes the key "idle": [ {state, name, desc,
 * latency_us, residency_us, disabled, default_enabled, residency_pct,
 * entries_per_s, above_per_s, below_per_s, usage, time_us, above, below,
 * rejected} ] for one CPU; [] for an online CPU without states, null for an
 * offline or unknown CPU. */
void out_cpuidle_json_cpu(struct jw *w, const struct cpuidle_info *c, int cpu);
/* Writes the key "cpuidle": {driver, governor, available_governors}. */
void out_cpuidle_json(struct jw *w, const struct cpuidle_info *c);
/* Writes the key "pmqos": {cpu_dma_latency_us: N|null,
 * resume_latency_us: {"0": N|null, ...}, resume_latency_raw: {"0": "0"|"n/a"|"100"|null}}.
 * resume_latency_us is the per-CPU limit in µs: null when there is no
 * constraint (raw "0") or the file is unreadable (raw null), 0 for raw "n/a"
 * (zero latency: no idle state but polling). */
void out_pmqos_json(struct jw *w, const struct cpuidle_info *c);
/* Readable report section: driver/governor, one line per CPU per state,
 * offline CPUs, PM QoS. t may be NULL. */
void out_cpuidle_text(struct sbuf *b, const struct cpuidle_info *c, const struct topology *t);

#endif
