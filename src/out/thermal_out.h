/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Thermal section (zones, cooling devices, hwmon temperatures) of the JSON
 * snapshot and of the text report. */
#ifndef TT_OUT_THERMAL_OUT_H
#define TT_OUT_THERMAL_OUT_H

#include "core/json.h"
#include "core/str.h"
#include "source/thermal.h"

/* Inside the caller's open object: writes the keys "thermal": [ {zone (type),
 * id, temp_mc, error, trips_mc: [...], trip_types: [...], policy, cpus: [...],
 * above_passive} ], "cooling": [ {id, type, cur_state, max_state, active,
 * cpus: [...], devfreq} ], "hwmon": [ {dev, chip, label, temp_mc, max_mc,
 * crit_mc, error} ] and "hwmon_source": "libsensors" | "sysfs". n/a values
 * are null. th may be NULL (empty arrays). */
void out_thermal_json(struct jw *w, const struct thermal_info *th);
/* Readable report section; "n/a (reason)" where unreadable. */
void out_thermal_text(struct sbuf *b, const struct thermal_info *th);

#endif
