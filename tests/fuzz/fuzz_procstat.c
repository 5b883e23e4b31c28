/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the /proc/stat parser (src/source/procstat.c: per-CPU times, ctxt,
 * intr, procs_*). With a second file after a NUL byte, both are parsed and
 * the utilisation split derived, as the sampler does; every percentage is
 * n/a (NaN) or within 0..100. */
#include <math.h>

#include "source/procstat.h"
#include "fuzz.h"

static void check_util(const struct cpu_util *u)
{
	const double v[] = {u->user_pct,   u->system_pct, u->irq_pct,  u->softirq_pct,
			    u->iowait_pct, u->idle_pct,	  u->steal_pct};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		FUZZ_ASSERT(isnan(v[i]) || (v[i] >= 0 && v[i] <= 100.000001));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct procstat a, b;
	char *ta, *tb;
	int ncpus = size ? 1 + data[0] % 8 : 1;

	fuzz_split(data, size, &ta, &tb);
	(void)procstat_parse(ta, ncpus, &a);
	if (tb) {
		(void)procstat_parse(tb, ncpus + (size > 1 ? data[1] % 3 : 0) - 1, &b);
		procstat_derive(&b, &a, 0.5);
		for (int c = 0; c < b.ncpus; c++)
			check_util(&b.util[c]);
		check_util(&b.total_util);
		procstat_free(&b);
	}
	procstat_free(&a);
	free(ta);
	return 0;
}
