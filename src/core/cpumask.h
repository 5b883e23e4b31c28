/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU sets as fixed bitmaps (TT_MAX_CPUS bits, the size of glibc's cpu_set_t)
 * and the kernel's CPU-list syntax ("0-3,8,10-11"). */
#ifndef TT_CORE_CPUMASK_H
#define TT_CORE_CPUMASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TT_MAX_CPUS 1024

struct cpumask {
	uint64_t w[TT_MAX_CPUS / 64];
};

void cpumask_zero(struct cpumask *m);
void cpumask_set(struct cpumask *m, int cpu);
void cpumask_clear(struct cpumask *m, int cpu);
int cpumask_count(const struct cpumask *m);
bool cpumask_empty(const struct cpumask *m);
bool cpumask_equal(const struct cpumask *a, const struct cpumask *b);
/* a &= b, a |= b, a &= ~b */
void cpumask_and(struct cpumask *a, const struct cpumask *b);
void cpumask_or(struct cpumask *a, const struct cpumask *b);
void cpumask_andnot(struct cpumask *a, const struct cpumask *b);
int cpumask_last(const struct cpumask *m);

/* Parse a CPU list ("0-3,8", "1", "" = empty, "0-7:2" strides too).
 * White space around it is ignored. Returns 0, -EINVAL or -ERANGE (cpu >= TT_MAX_CPUS). */
int cpulist_parse(const char *s, struct cpumask *out);
/* Parse a space separated list of CPU numbers ("0 1 2 3", related_cpus format). */
int cpulist_parse_spaces(const char *s, struct cpumask *out);
/* Parse a /proc/irq smp_affinity hex mask ("ffffffff,00000003"). */
int cpumask_parse_hex(const char *s, struct cpumask *out);
/* Format as a compact CPU list into buf ("0-3,8"); "" when empty.
 * Returns the length that was needed (like snprintf). */
size_t cpulist_format(const struct cpumask *m, char *buf, size_t cap);
/* Format as a hex mask in the kernel's comma-grouped form, nbits wide. */
size_t cpumask_format_hex(const struct cpumask *m, int nbits, char *buf, size_t cap);

/* Inline: the per-CPU loops over a big machine's /proc/interrupts run these
 * hundreds of thousands of times per sample. */
static inline bool cpumask_test(const struct cpumask *m, int cpu)
{
	if (cpu < 0 || cpu >= TT_MAX_CPUS)
		return false;
	return (m->w[cpu / 64] >> (cpu % 64)) & 1;
}

/* Next set CPU at or after `from`, or -1. Iterate:
 * for (c = cpumask_next(m, 0); c >= 0; c = cpumask_next(m, c + 1)) */
static inline int cpumask_next(const struct cpumask *m, int from)
{
	if (from < 0)
		from = 0;
	for (int i = from; i < TT_MAX_CPUS;) {
		uint64_t w = m->w[i / 64] >> (i % 64);

		if (w)
			return i + __builtin_ctzll(w);
		i = (i / 64 + 1) * 64;
	}
	return -1;
}

/* The header line of a per-CPU table ("CPU0 CPU1 CPU4 ...", /proc/interrupts,
 * /proc/softirqs), cut into tok[] (room for maxtok) in place: the CPU id of
 * each leading CPUn column, in a malloc'ed array of *ncols, each CPU also set
 * in *cpus. NULL (and *ncols 0) when line is NULL or starts with no CPUn. */
int *cpu_header_parse(char *line, char **tok, size_t maxtok, size_t *ncols, struct cpumask *cpus);

#endif
