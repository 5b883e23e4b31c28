/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The mm knob family: mm/thp and mm/thp_defrag, the transparent hugepage
 * modes (sys/kernel/mm/transparent_hugepage/{enabled,defrag}; the kernel
 * brackets the current mode). The attribute's path and modes are the
 * source layer's (SYS_THP_* in src/source/system.h, read by read_thp()). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"
#include "knob/knob_int.h"
#include "source/system.h"

/* clang-format off */
static const struct knob_def mm_defs[] = {
	{ .fam = &fam_mm, .leaf = "thp", .pattern = "mm/thp", .scope = KS_GLOBAL,
	  .dir = SYS_THP_DIR, .file = SYS_THP_ENABLED, .type = KT_ENUM,
	  .unit = "", .allow = KA_BRACKET, .allow_src = SYS_THP_MODES,
	  .allow_what = "THP modes", .needs_root = true,
	  .help = "transparent hugepages: 'never' avoids khugepaged scans and compaction stalls "
		  "in RT processes" },
	{ .fam = &fam_mm, .leaf = "thp_defrag", .pattern = "mm/thp_defrag", .scope = KS_GLOBAL,
	  .dir = SYS_THP_DIR, .file = SYS_THP_DEFRAG, .type = KT_ENUM,
	  .unit = "", .allow = KA_BRACKET, .allow_src = SYS_THP_DEFRAG_MODES,
	  .allow_what = "THP defrag modes", .needs_root = true,
	  .help = "when the kernel compacts memory for hugepages; 'never' or 'madvise' avoids "
		  "direct-compaction stalls" },
};
/* clang-format on */

KNOB_FAMILY(mm);

/* ---- typed addresses (knob_addr.h) ---- */

KNOB_ADDR_BUILDER(knob_addr_mm_thp, (void), "mm/thp")
