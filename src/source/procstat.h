/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-CPU time accounting from /proc/stat, and the utilisation split
 * (user, system, irq, softirq, iowait, idle, steal) over an interval. */
#ifndef TT_SOURCE_PROCSTAT_H
#define TT_SOURCE_PROCSTAT_H

#include <stdbool.h>
#include <stdint.h>

#include "sysfs/sysroot.h"

struct cpu_times {
	bool valid;
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

struct cpu_util {
	/* Percent of the interval; NAN when n/a (no data, or a counter reset). */
	double user_pct, system_pct, irq_pct, softirq_pct, iowait_pct, idle_pct, steal_pct;
	double busy_pct; /* 100 - idle - iowait */
};

struct procstat {
	int ncpus; /* entries in cpu[] and util[] */
	struct cpu_times total;
	struct cpu_times *cpu;
	bool have_ctxt;
	uint64_t ctxt;
	bool have_intr;
	uint64_t intr;
	uint64_t procs_running, procs_blocked;
	/* derived */
	struct cpu_util total_util;
	struct cpu_util *util;
	double ctxt_per_s, intr_per_s;
};

int procstat_read(const struct sysroot *r, int ncpus, struct procstat *out);
int procstat_parse(const char *text, int ncpus, struct procstat *out);
void procstat_derive(struct procstat *cur, const struct procstat *prev, double dt_s);
void procstat_util(const struct cpu_times *a, const struct cpu_times *b, struct cpu_util *out);
void procstat_free(struct procstat *p);

#endif
