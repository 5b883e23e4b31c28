/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON and text writers for the IRQ and softirq tables. */
#ifndef TT_OUT_IRQS_OUT_H
#define TT_OUT_IRQS_OUT_H

#include "core/json.h"
#include "core/str.h"
#include "source/irqs.h"
#include "source/softirqs.h"

/* Keys "irqs": [ {label, irq, name, chip, hwirq, trigger, counts:[per CPU],
 * total, rate_per_s:[per CPU], total_per_s, affinity:"0-3", effective:"0",
 * percpu, movable, managed} ] and "irq_cpu_total_per_s": [per CPU], written
 * into the current JSON object. Per-CPU arrays are indexed by CPU id, null
 * for CPUs without a column (offline); single-total rows (ERR, MIS) have
 * counts and rate_per_s null. */
void out_irqs_json(struct jw *w, const struct irq_table *t);
/* Key "softirqs": { "TIMER": { "rate_per_s": [per CPU], "total_per_s": x,
 * "total": n }, ... } */
void out_softirqs_json(struct jw *w, const struct softirq_table *t);

/* Human-readable tables (rates per CPU, n/a where unknown). */
void out_irqs_text(struct sbuf *b, const struct irq_table *t);
void out_softirqs_text(struct sbuf *b, const struct softirq_table *t);

#endif
