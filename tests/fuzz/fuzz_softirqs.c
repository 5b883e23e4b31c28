/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the /proc/softirqs parser (src/source/softirqs.c): one file, or two
 * separated by a NUL byte whose rates are derived as the sampler does. */
#include "source/softirqs.h"
#include "fuzz.h"

static void check(const struct softirq_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		FUZZ_ASSERT(cpumask_last(&t->rows[i].have_cpu) < t->ncpus);
		FUZZ_ASSERT(softirqs_find(t, t->rows[i].name) != NULL);
	}
	FUZZ_ASSERT(cpumask_last(&t->cpus) < t->ncpus);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct softirq_table a, b;
	char *ta, *tb;
	int ncpus = size ? data[0] % 5 : 0;

	fuzz_split(data, size, &ta, &tb);
	if (softirqs_parse(ta, ncpus, &a) == 0) {
		check(&a);
		softirqs_derive(&a, NULL, 1.0);
		if (tb && softirqs_parse(tb, 0, &b) == 0) {
			check(&b);
			softirqs_derive(&b, &a, 0.5);
			softirqs_free(&b);
		}
		softirqs_free(&a);
	}
	free(ta);
	return 0;
}
