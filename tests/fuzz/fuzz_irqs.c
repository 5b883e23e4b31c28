/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the /proc/interrupts parser (src/source/irqs.c). The input is one
 * file, or two separated by a NUL byte: then the second is parsed as the
 * next sample and its rates derived against the first (rows matched by
 * label, columns by CPU, 32-bit wraps), as the sampler does. */
#include <math.h>

#include "source/irqs.h"
#include "fuzz.h"

static void check(const struct irq_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct irq_row *row = &t->rows[i];

		FUZZ_ASSERT(memchr(row->label, '\0', sizeof(row->label)));
		FUZZ_ASSERT(memchr(row->name, '\0', sizeof(row->name)));
		FUZZ_ASSERT(cpumask_last(&row->have_cpu) < t->ncpus);
		FUZZ_ASSERT(irqs_find(t, row->label) != NULL);
	}
	FUZZ_ASSERT(cpumask_last(&t->cpus) < t->ncpus);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct irq_table a, b;
	char *ta, *tb;
	int ncpus = size ? data[0] % 5 : 0; /* 0 = from the header; else a hint */

	fuzz_split(data, size, &ta, &tb);
	if (irqs_parse(ta, ncpus, &a) == 0) {
		check(&a);
		irqs_derive(&a, NULL, 1.0);
		if (tb && irqs_parse(tb, 0, &b) == 0) {
			check(&b);
			irqs_derive(&b, &a, 0.5);
			irqs_derive(&b, &a, 0);
			irqs_free(&b);
		}
		irqs_free(&a);
	}
	free(ta);
	return 0;
}
