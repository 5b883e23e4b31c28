/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Softirqs: <root>/proc/softirqs per-CPU counts (TIMER, NET_RX, NET_TX,
 * BLOCK, IRQ_POLL, TASKLET, SCHED, HRTIMER, RCU, HI), columns mapped by the
 * CPUn header, wrap-safe rates. */
#ifndef TT_SOURCE_SOFTIRQS_H
#define TT_SOURCE_SOFTIRQS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpumask.h"
#include "sysfs/sysroot.h"

struct softirq_row {
	char name[16];	 /* "TIMER", "NET_RX", ... (without the ':') */
	uint64_t *count; /* [ncpus] by CPU id; valid where have_cpu is set */
	struct cpumask have_cpu;
	uint64_t total;
	/* derived by softirqs_derive(); NAN = n/a */
	double *rate_per_s; /* [ncpus] */
	double total_per_s;
};

struct softirq_table {
	int ncpus; /* size of the per-CPU arrays */
	size_t n;
	struct softirq_row *rows; /* in file order */
	struct cpumask cpus;	  /* CPUs with a column in the header */
	uint64_t time_ns;	  /* CLOCK_MONOTONIC when read (0 for parsed text) */
};

int softirqs_read(const struct sysroot *r, int ncpus, struct softirq_table *out);
/* 0 or -EINVAL (no CPUn header). */
int softirqs_parse(const char *text, int ncpus, struct softirq_table *out);
/* Rows matched by name, per-CPU deltas modulo 2^32; new rows and resets NAN. */
void softirqs_derive(struct softirq_table *cur, const struct softirq_table *prev, double dt_s);
void softirqs_free(struct softirq_table *t);
struct softirq_row *softirqs_find(const struct softirq_table *t, const char *name);

#endif
