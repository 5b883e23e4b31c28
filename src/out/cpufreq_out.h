/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpufreq section of the JSON snapshot and of the text report. */
#ifndef TT_OUT_CPUFREQ_OUT_H
#define TT_OUT_CPUFREQ_OUT_H

#include "core/json.h"
#include "core/str.h"
#include "source/cpufreq.h"
#include "source/thermal.h"
#include "source/topology.h"

/* Inside the caller's open object: writes the keys "policies": [...] and
 * "intel_pstate": {...} | null (design §8). n/a values are null. th: the
 * thermal data of the same snapshot for each policy's "thermal_capped" (an
 * active cpufreq cooling device caps it); NULL (not read) gives null. */
void out_cpufreq_json(struct jw *w, const struct cpufreq_info *f, const struct thermal_info *th);
/* Readable report section: one line per policy, its OPP residency, its
 * governor tunables, then the intel_pstate globals. n/a is written "n/a".
 * t may be NULL (no core types). A policy capped by an active cpufreq
 * cooling device ends its line with "CAPPED (thermal)"; th may be NULL. */
void out_cpufreq_text(struct sbuf *b, const struct cpufreq_info *f, const struct topology *t,
		      const struct thermal_info *th);

#endif
