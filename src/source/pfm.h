/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libpfm4 event encoding: any event string libpfm understands
 * ("perf::cache-misses", "arm_ac55::L1D_CACHE_REFILL", "perf_raw::r17")
 * becomes a perf_event_attr. Built without libpfm4 (no HAVE_LIBPFM), every
 * function is a stub: pfm_available() is false and the others return
 * -ENOTSUP.
 *
 * libpfm "detects" its generic perf PMU on any kernel with perf events, so a
 * successful encoding says nothing about hardware: whether a counter exists
 * is decided by perf_event_open (ENOENT on a VM without a PMU). */
#ifndef TT_SOURCE_PFM_H
#define TT_SOURCE_PFM_H

#include <linux/perf_event.h> /* before any perfmon header */
#include <stdbool.h>
#include <stddef.h>

#include "core/str.h"

/* libpfm4 is compiled in and pfm_initialize() succeeded (called once). */
bool pfm_available(void);
/* Encode event_string into attr (type, config, config1/2, exclude bits);
 * attr is zeroed and attr->size set first. Privilege levels default to user
 * and kernel; ":u"/":k" modifiers in the string narrow them.
 * Returns 0, -ENOTSUP (no libpfm4), -ENOENT (unknown event), -EINVAL (bad
 * umask/modifier), with *cause set (malloc'ed) when cause is not NULL. */
int pfm_encode(const char *event_string, struct perf_event_attr *attr, char **cause);
/* As pfm_encode, and name the libpfm PMU of the event ("perf", "arm_ac76")
 * in pmu (may be NULL). */
int pfm_encode_pmu(const char *event_string, struct perf_event_attr *attr, char *pmu,
		   size_t pmu_cap, char **cause);
/* Append the PMUs libpfm finds present and their events, one event a line:
 *   "pmu perf: Linux perf_event generic events (82 events)\n"
 *   "  perf::PERF_COUNT_HW_CPU_CYCLES  Total cycles...\n"
 * filter (may be NULL) keeps events whose full name contains it
 * (case-insensitive). Returns the number of events listed, or -ENOTSUP. */
int pfm_list_filtered(struct sbuf *out, const char *filter);
int pfm_list(struct sbuf *out);
/* The version of the library loaded: from its file name ("4.13.0", from
 * libpfm.so.4.13.0), else pfm_get_version()'s "4.x" (libpfm reports the
 * minor version as 0 even for 4.13); NULL when not available. */
const char *pfm_version(void);
/* One line on libpfm4 for --version and `tunetop events`:
 *   "4.13.0 (/usr/lib/x86_64-linux-gnu/libpfm.so.4.13.0)"
 *   "failed to load: cannot load libpfm.so.4: <dlerror>"
 *   "failed to initialize: <pfm_strerror>"
 *   "not built in (configure found no libpfm4 headers, or --without-libpfm)" */
const char *pfm_status(void);

#endif
