/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interrupts: /proc/interrupts (per-CPU counts, columns mapped by the CPUn
 * header so offline CPUs leave holes) and /proc/irq/N/{smp_affinity_list,
 * effective_affinity_list}, both under the given root so fixtures work. */
#ifndef TT_SOURCE_IRQS_H
#define TT_SOURCE_IRQS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpumask.h"
#include "sysfs/sysroot.h"

/* Can user space move the IRQ? The kernel's answer: it creates
 * /proc/irq/N/smp_affinity(_list) without write permission where it will
 * refuse the write (managed IRQs, chips that cannot move it, on kernels that
 * say so), and none without SMP. A write that fails with EIO (managed) is
 * the other answer, known only after trying (managed below). */
enum irq_move {
	IRQ_MOVE_UNKNOWN = 0, /* nothing to ask: no /proc/irq/N (a fixture, a recording) */
	IRQ_MOVE_YES,	      /* smp_affinity_list is writable */
	IRQ_MOVE_READONLY,    /* the affinity files are there, read-only */
	IRQ_MOVE_NOFILE,      /* /proc/irq/N has no smp_affinity_list */
	IRQ_MOVE_PERCPU,      /* per-CPU interrupt: no affinity */
};

struct irq_row {
	char label[16]; /* "24", "LOC", "IPI0", "ERR" (without the ':') */
	bool numeric;
	int irq; /* -1 for non-numeric rows */
	/* Per-CPU counts, sparse (most IRQs of a many-CPU machine fire on a
	 * few CPUs): the counts that are not 0, in ascending CPU order; a CPU
	 * of have_cpu that is not listed counted 0. Read with irq_count(),
	 * written with irq_set_count(), freed with the table. */
	struct irq_counts {
		uint32_t n;
		uint16_t *cpu; /* [n], ascending (in the block of val) */
		uint64_t *val; /* [n], none 0 (one allocation with cpu) */
	} counts;
	struct cpumask have_cpu; /* CPUs with a column in this row */
	uint64_t total;		 /* sum of count[] (or the single total) */
	bool single_total;	 /* ERR: / MIS: / Err: carry one number, no per-CPU counts */
	char chip[32];		 /* "IO-APIC", "GICv3", "PCI-MSIX-0000:00:01.0"; "" for arch rows */
	char hwirq[32];		 /* "5", "26"; "" when not printed */
	char trigger[16];	 /* "edge", "Level", "Edge"; "" when not printed */
	char name[96];		 /* action names ("ACPI:Ged", "eth0, eth0-tx") or the description
				    ("Local timer interrupts") */
	struct cpumask affinity,
		effective; /* /proc/irq/N/smp_affinity(_list), effective_affinity(_list) */
	bool have_affinity, have_effective;
	bool percpu; /* per-CPU interrupt: arch rows (LOC, IPIn...) and GIC SGIs/PPIs (hwirq < 32)
		      */
	enum irq_move move; /* IRQ_MOVE_UNKNOWN for non-numeric rows and parsed text */
	bool movable;	    /* move == IRQ_MOVE_YES */
	bool managed;	    /* kernel-managed (a write failed with EIO); false = not known to be */
	/* derived by irqs_derive(); NAN = n/a. Read only: a row whose rates
	 * are all n/a or all 0 points into its table's shared arrays
	 * (rates_shared; most rows of a many-CPU machine), the others own one. */
	double *rate_per_s; /* [ncpus] */
	double total_per_s;
	bool rates_shared; /* rate_per_s is the table's rates_nan or rates_zero */
};

struct irq_table {
	int ncpus; /* size of the per-CPU arrays (highest CPU id + 1) */
	size_t n;
	struct irq_row *rows;	 /* in file order */
	struct cpumask cpus;	 /* CPUs with a column in the header (online CPUs) */
	uint64_t *cpu_total;	 /* [ncpus] sum over rows with per-CPU counts */
	double *cpu_total_per_s; /* [ncpus], NAN = n/a */
	uint64_t time_ns;	 /* CLOCK_MONOTONIC when read (0 for parsed text) */
	/* [ncpus] all NAN / all 0.0: the rates of the rows that share them
	 * (NULL in a table built elsewhere, a replay: each row owns its rates) */
	double *rates_nan, *rates_zero;
};

/* Read <root>/proc/interrupts and the /proc/irq/N files. ncpus sizes the
 * per-CPU arrays (grown when the header names a higher CPU; <= 0 = from the
 * header). 0 or -errno. */
int irqs_read(const struct sysroot *r, int ncpus, struct irq_table *out);
/* Cheaper re-read against a previous read of the same root: /proc/interrupts
 * as irqs_read(); for an IRQ prev had (same label) the affinity (a knob) is
 * read again, the effective affinity only when the affinity moved or the
 * effective one was not inside it yet (else copied), the movable flag is
 * copied, and files prev could not read are not tried again. IRQs new
 * since prev are read in full. The caller reads in full after CPU hotplug.
 * prev NULL gives a full irqs_read(). */
int irqs_refresh(const struct sysroot *r, int ncpus, const struct irq_table *prev,
		 struct irq_table *out);
/* As irqs_refresh(), but the affinity and effective affinity of an IRQ prev
 * had are copied from prev, not read: the counts alone move (the sampler
 * between full ticks when no screen shows the affinities). */
int irqs_refresh_counts(const struct sysroot *r, int ncpus, const struct irq_table *prev,
			struct irq_table *out);
/* Parse /proc/interrupts text (no affinity). 0 or -EINVAL (no CPUn header). */
int irqs_parse(const char *text, int ncpus, struct irq_table *out);
/* Read <root>/proc/interrupts alone (no /proc/irq/N files), line by line
 * through a buffer of chunk bytes (0: the default; see sysfs_read_lines()):
 * the text is never held whole. 0 or -errno (-EINVAL: no CPUn header). */
int irqs_read_interrupts(const struct sysroot *r, int ncpus, size_t chunk, struct irq_table *out);
/* The parser line by line (what irqs_parse() and irqs_read_interrupts()
 * use): begin, each line (writable, cut in place), end. end returns 0 or
 * -EINVAL (no CPUn header); on -EINVAL out is empty. */
struct irqs_parser;
struct irqs_parser *irqs_parser_begin(int ncpus, struct irq_table *out);
int irqs_parser_line(struct irqs_parser *ps, char *line);
int irqs_parser_end(struct irqs_parser *ps);
/* Rates over dt_s seconds against prev (may be NULL). Rows are matched by
 * label; per-CPU deltas are taken modulo 2^32 (the counts are unsigned int);
 * a row that is new, or whose counts went backwards by more than a wrap can
 * explain (the IRQ was freed and requested again), gets NAN rates. */
void irqs_derive(struct irq_table *cur, const struct irq_table *prev, double dt_s);
void irqs_free(struct irq_table *t);
/* Row by label ("24", "LOC"), NULL if absent. */
struct irq_row *irqs_find(const struct irq_table *t, const char *label);

/* The count of row on cpu (0 where it has none). */
uint64_t irq_count(const struct irq_row *row, int cpu);
/* Set the count of row on cpu (0 removes it; have_cpu is the caller's). */
void irq_set_count(struct irq_row *row, int cpu, uint64_t v);
/* Free a row's counts (irqs_free() does it for a table). */
void irq_counts_free(struct irq_row *row);

/* Is an irqbalance process running on the live system? (scans
 * /proc/[0-9]*\/comm: one open per process, call it rarely) */
bool irqbalance_running(void);
/* Same scan over a given root's proc/ (tests). */
bool irqbalance_running_in(const struct sysroot *r);

/* Delta of a 32-bit kernel counter between two samples printed as decimals:
 * modulo 2^32 when cur < prev. Returns false when the values cannot come
 * from one counter (prev >= 2^32 and cur < prev, or a "wrap" so large it is
 * a reset). */
bool irqs_delta32(uint64_t prev, uint64_t cur, uint64_t *delta);

#endif
