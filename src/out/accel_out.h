/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Accelerator and power sections of the JSON snapshot and the text report
 * (design §8). */
#ifndef TT_OUT_ACCEL_OUT_H
#define TT_OUT_ACCEL_OUT_H

#include "core/json.h"
#include "core/str.h"
#include "source/accel.h"
#include "source/power.h"

/* Inside the caller's open object:
 *   "accel": { "npu_load_pct": [0, 12, 0] | null, "npu_load_error": "ENOENT" | null,
 *              "driver_version": "v0.9.8" | null, "version_file": "/sys/..." | null,
 *              "devices": [ { "name": "fdab0000.npu", "source": "devfreq", "kind": "npu",
 *                             "load_pct": 0 | null, "freq_hz": 1000000000 | null } ] } */
void out_accel_json(struct jw *w, const struct accel_info *a);
/* "Accelerator" part; nothing when accel_present() is false. */
void out_accel_text(struct sbuf *b, const struct accel_info *a);
/*   "power": [ { "name": "ina226 vdd_npu", "source": "hwmon", "file": "/sys/...",
 *                "kind": "power" | "energy", "watts": 1.25 | null, "error": "EINVAL" | null,
 *                "counter_reset": false } ] */
void out_power_json(struct jw *w, const struct power_info *p);
/* "Power" part; nothing when there are no sensors. */
void out_power_text(struct sbuf *b, const struct power_info *p);

#endif
