/* SPDX-License-Identifier: GPL-2.0-or-later */
/* IRQ and softirq sections of the JSON snapshot and of the text output. */
#include "out/irqs_out.h"

#include <math.h>
#include <stdio.h>

#include "out/fmt.h"

void out_irqs_json(struct jw *w, const struct irq_table *t)
{
	jw_arr_begin(w, "irqs");
	for (size_t i = 0; i < t->n; i++) {
		const struct irq_row *r = &t->rows[i];

		jw_obj_begin(w, NULL);
		jw_str(w, "label", r->label);
		if (r->numeric && r->irq >= 0)
			jw_int(w, "irq", r->irq);
		else
			jw_null(w, "irq");
		jw_str_nz(w, "name", r->name);
		jw_str_nz(w, "chip", r->chip);
		jw_str_nz(w, "hwirq", r->hwirq);
		jw_str_nz(w, "trigger", r->trigger);
		if (r->single_total) {
			jw_null(w, "counts");
		} else {
			jw_arr_begin(w, "counts");
			for (int c = 0; c < t->ncpus; c++)
				if (cpumask_test(&r->have_cpu, c))
					jw_uint(w, NULL, irq_count(r, c));
				else
					jw_null(w, NULL);
			jw_arr_end(w);
		}
		jw_uint(w, "total", r->total);
		if (r->single_total)
			jw_null(w, "rate_per_s");
		else
			jw_double_list(w, "rate_per_s", r->rate_per_s, (size_t)t->ncpus, 1);
		jw_double(w, "total_per_s", r->total_per_s, 1);
		jw_cpulist(w, "affinity", r->have_affinity, &r->affinity);
		jw_cpulist(w, "effective", r->have_effective, &r->effective);
		jw_bool(w, "percpu", r->percpu);
		jw_bool(w, "movable", r->movable);
		if (r->managed)
			jw_bool(w, "managed", true);
		else
			jw_null(w, "managed"); /* not known until a write fails with EIO */
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_double_list(w, "irq_cpu_total_per_s", t->cpu_total_per_s, (size_t)t->ncpus, 1);
}

void out_softirqs_json(struct jw *w, const struct softirq_table *t)
{
	jw_obj_begin(w, "softirqs");
	for (size_t i = 0; i < t->n; i++) {
		const struct softirq_row *r = &t->rows[i];

		jw_obj_begin(w, r->name);
		jw_double_list(w, "rate_per_s", r->rate_per_s, (size_t)t->ncpus, 1);
		jw_double(w, "total_per_s", r->total_per_s, 1);
		jw_uint(w, "total", r->total);
		jw_obj_end(w);
	}
	jw_obj_end(w);
}

void out_irqs_text(struct sbuf *b, const struct irq_table *t)
{
	char aff[256], eff[256];

	sbuf_printf(b, "%-6s", "IRQ");
	for (int c = cpumask_next(&t->cpus, 0); c >= 0; c = cpumask_next(&t->cpus, c + 1)) {
		char h[16];

		snprintf(h, sizeof(h), "CPU%d/s", c);
		sbuf_printf(b, " %9s", h);
	}
	sbuf_printf(b, " %9s %-9s %-9s %s\n", "total/s", "affinity", "effective", "name");
	for (size_t i = 0; i < t->n; i++) {
		const struct irq_row *r = &t->rows[i];

		sbuf_printf(b, "%-6s", r->label);
		for (int c = cpumask_next(&t->cpus, 0); c >= 0; c = cpumask_next(&t->cpus, c + 1))
			if (r->single_total)
				sbuf_printf(b, " %9s", "-");
			else
				out_put_rate(b, r->rate_per_s[c], 9);
		out_put_rate(b, r->total_per_s, 9);
		snprintf(aff, sizeof(aff), "n/a");
		snprintf(eff, sizeof(eff), "n/a");
		if (r->have_affinity)
			cpulist_format(&r->affinity, aff, sizeof(aff));
		if (r->have_effective)
			cpulist_format(&r->effective, eff, sizeof(eff));
		if (!r->numeric) {
			snprintf(aff, sizeof(aff), "-");
			snprintf(eff, sizeof(eff), "-");
		}
		sbuf_printf(b, " %-9s %-9s", aff, eff);
		if (r->chip[0])
			sbuf_printf(b, " %s", r->chip);
		if (r->hwirq[0])
			sbuf_printf(b, " %s", r->hwirq);
		if (r->trigger[0])
			sbuf_printf(b, "%s%s",
				    r->hwirq[0] && r->trigger[0] != 'L' && r->trigger[0] != 'E'
					    ? "-"
					    : " ",
				    r->trigger);
		if (r->name[0])
			sbuf_printf(b, " %s", r->name);
		if (r->numeric && !r->movable)
			sbuf_puts(b, r->percpu			   ? " [per-cpu]"
				     : r->move == IRQ_MOVE_UNKNOWN ? " [movability unknown]"
								   : " [fixed]");
		if (r->managed)
			sbuf_puts(b, " [managed]");
		sbuf_putc(b, '\n');
	}
	sbuf_printf(b, "%-6s", "sum");
	for (int c = cpumask_next(&t->cpus, 0); c >= 0; c = cpumask_next(&t->cpus, c + 1))
		out_put_rate(b, t->cpu_total_per_s ? t->cpu_total_per_s[c] : NAN, 9);
	sbuf_putc(b, '\n');
}

void out_softirqs_text(struct sbuf *b, const struct softirq_table *t)
{
	sbuf_printf(b, "%-9s", "SOFTIRQ");
	for (int c = cpumask_next(&t->cpus, 0); c >= 0; c = cpumask_next(&t->cpus, c + 1)) {
		char h[16];

		snprintf(h, sizeof(h), "CPU%d/s", c);
		sbuf_printf(b, " %9s", h);
	}
	sbuf_printf(b, " %9s\n", "total/s");
	for (size_t i = 0; i < t->n; i++) {
		const struct softirq_row *r = &t->rows[i];

		sbuf_printf(b, "%-9s", r->name);
		for (int c = cpumask_next(&t->cpus, 0); c >= 0; c = cpumask_next(&t->cpus, c + 1))
			out_put_rate(b, r->rate_per_s[c], 9);
		out_put_rate(b, r->total_per_s, 9);
		sbuf_putc(b, '\n');
	}
}
