/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The field tables (core/jfield.h) of the snapshot document's objects
 * (design §8): each names every member of one JSON object, and both its
 * writer (src/out/<source>_out.c) and the replay reader (replay.c) go by
 * it, so a member is one row here. snap_field_tables lists them all for
 * the round-trip test (tests/unit/test_jfield.c). */
#ifndef TT_MODEL_SNAP_FIELDS_H
#define TT_MODEL_SNAP_FIELDS_H

#include "core/jfield.h"

extern const struct jf_obj snap_thermal_zone;	 /* "thermal": [ ... ] */
extern const struct jf_obj snap_thermal_cooling; /* "cooling": [ ... ] */
extern const struct jf_obj snap_thermal_hwmon;	 /* "hwmon": [ ... ] */
extern const struct jf_obj snap_rproc;		 /* "remoteproc": [ ... ] */
extern const struct jf_obj snap_rpmsg;		 /* "rpmsg": [ ... ] */
extern const struct jf_obj snap_devfreq_dev;	 /* "devfreq": [ ... ] */
extern const struct jf_obj snap_devfreq_clk;	 /* "clocks": [ ... ] */
extern const struct jf_obj snap_accel_dev;	 /* "accel": { "devices": [ ... ] } */
extern const struct jf_obj snap_power;		 /* "power": [ ... ] */
extern const struct jf_obj snap_finding;	 /* "findings": [ ... ] */

extern const struct jf_obj *const snap_field_tables[];
extern const size_t snap_nfield_tables;

#endif
