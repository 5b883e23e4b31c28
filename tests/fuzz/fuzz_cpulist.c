/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the CPU list and mask parsers (src/core/cpumask.c): "0-3,8,10-11:2"
 * lists (sysfs, isolcpus, --cpus), space separated lists (related_cpus) and
 * the comma-grouped hex masks of /proc/irq/N/smp_affinity. What parses must
 * format and parse back to the same set. */
#include "core/cpumask.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct cpumask m, back;
	char buf[8192];

	if (cpulist_parse(text, &m) == 0) {
		size_t n = cpulist_format(&m, buf, sizeof(buf));

		FUZZ_ASSERT(n < sizeof(buf));
		FUZZ_ASSERT(cpulist_parse(buf, &back) == 0 && cpumask_equal(&m, &back));
		FUZZ_ASSERT(cpumask_count(&m) == 0 || cpumask_last(&m) < TT_MAX_CPUS);
	}
	if (cpulist_parse_spaces(text, &m) == 0) {
		cpulist_format(&m, buf, sizeof(buf));
		FUZZ_ASSERT(cpulist_parse(buf, &back) == 0 && cpumask_equal(&m, &back));
	}
	if (cpumask_parse_hex(text, &m) == 0) {
		size_t n = cpumask_format_hex(&m, TT_MAX_CPUS, buf, sizeof(buf));

		FUZZ_ASSERT(n < sizeof(buf));
		FUZZ_ASSERT(cpumask_parse_hex(buf, &back) == 0 && cpumask_equal(&m, &back));
	}
	free(text);
	return 0;
}
