/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The intel_pstate knob family: intel_pstate/{no_turbo, min_perf_pct,
 * max_perf_pct} (sys/devices/system/cpu/intel_pstate). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_int.h"

/* clang-format off */
static const struct knob_def intel_pstate_defs[] = {
	{ .fam = &fam_intel_pstate, .leaf = "no_turbo", .pattern = "intel_pstate/no_turbo",
	  .scope = KS_GLOBAL, .dir = KNOB_CPU_DIR "/intel_pstate", .file = "no_turbo",
	  .type = KT_BOOL, .unit = "", .allow = KA_FIXED, .allow_src = "0 1",
	  .allow_what = "values", .needs_root = true,
	  .help = "1 disables turbo: steadier clocks and less thermal throttling (EPERM when the "
		  "BIOS disabled turbo)" },
	{ .fam = &fam_intel_pstate, .leaf = "min_perf_pct", .pattern = "intel_pstate/min_perf_pct",
	  .scope = KS_GLOBAL, .dir = KNOB_CPU_DIR "/intel_pstate", .file = "min_perf_pct",
	  .type = KT_U64, .unit = "%", .allow = KA_RANGE, .lo = 0, .hi = 100,
	  .allow_what = "range", .flags = KD_MIN, .needs_root = true,
	  .help = "intel_pstate floor, percent of max turbo performance" },
	{ .fam = &fam_intel_pstate, .leaf = "max_perf_pct", .pattern = "intel_pstate/max_perf_pct",
	  .scope = KS_GLOBAL, .dir = KNOB_CPU_DIR "/intel_pstate", .file = "max_perf_pct",
	  .type = KT_U64, .unit = "%", .allow = KA_RANGE, .lo = 0, .hi = 100,
	  .allow_what = "range", .flags = KD_MAX, .needs_root = true,
	  .help = "intel_pstate ceiling, percent of max turbo performance" },
};
/* clang-format on */

KNOB_FAMILY(intel_pstate);
