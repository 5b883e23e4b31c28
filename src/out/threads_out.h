/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON and text writers for the thread table. */
#ifndef TT_OUT_THREADS_OUT_H
#define TT_OUT_THREADS_OUT_H

#include <stdbool.h>

#include "core/json.h"
#include "core/str.h"
#include "source/threads.h"

/* Key "threads": [ {pid, tid, comm, state, kernel, policy ("other", "fifo",
 * ... as in thread/TID/policy), rt_prio, nice, uclamp_min, uclamp_max,
 * affinity: "0-3", last_cpu, rt, pinned, start_time_ticks, utime_ticks,
 * stime_ticks, vol_ctxt, nonvol_ctxt, nr_migrations, vmlck_kb, cpu_pct,
 * migrations_per_s, vol_per_s, invol_per_s} ], null where n/a.
 * only_interesting: RT threads and pinned threads only. */
void out_threads_json(struct jw *w, const struct thread_table *t, bool only_interesting);
/* One line per thread, htop-like columns, n/a where unknown. */
void out_threads_text(struct sbuf *b, const struct thread_table *t, bool only_interesting);

#endif
