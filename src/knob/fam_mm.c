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

/* A THP mode file: the kernel brackets the current one of modes. */
#define THP_FIELDS(modes, what)                                                                    \
	.scope = KS_GLOBAL, .dir = SYS_THP_DIR, .type = KT_ENUM, .unit = "", .allow = KA_BRACKET,  \
	.allow_src = modes, .allow_what = what, .needs_root = true

/* clang-format off */
static const struct knob_def mm_defs[] = {
	{ .fam = &fam_mm, .leaf = "thp", .pattern = "mm/thp", .file = SYS_THP_ENABLED,
	  THP_FIELDS(SYS_THP_MODES, "THP modes"),
	  .help = "transparent hugepages: 'never' avoids khugepaged scans and compaction stalls "
		  "in RT processes" },
	{ .fam = &fam_mm, .leaf = "thp_defrag", .pattern = "mm/thp_defrag", .file = SYS_THP_DEFRAG,
	  THP_FIELDS(SYS_THP_DEFRAG_MODES, "THP defrag modes"),
	  .help = "when the kernel compacts memory for hugepages; 'never' or 'madvise' avoids "
		  "direct-compaction stalls" },
};
/* clang-format on */

KNOB_FAMILY(mm);

/* ---- typed addresses (knob_addr.h) ---- */

KNOB_ADDR_BUILDER(knob_addr_mm_thp, (void), "mm/thp")
