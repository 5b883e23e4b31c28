/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the accelerator-side parsers (issue 17): rknpu's debugfs load
 * (src/source/accel.c), the devfreq "load" file, and the thread wait
 * fields' /proc/PID/task/TID/syscall line and fd target classification
 * (src/source/threads.c). Each ignores what is not its format. */
#include "source/accel.h"
#include "source/threads.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int pct[ACCEL_MAX_CORES], n = -1, one;
	int64_t hz;
	long nr;
	unsigned long a0, a1;
	char *ta, *tb;

	fuzz_split(data, size, &ta, &tb);
	if (accel_parse_rknpu_load(ta, pct, ACCEL_MAX_CORES, &n) == 0) {
		FUZZ_ASSERT(n >= 1 && n <= ACCEL_MAX_CORES);
		for (int i = 0; i < n; i++)
			FUZZ_ASSERT(pct[i] >= 0 && pct[i] <= 100);
	}
	if (accel_parse_devfreq_load(ta, &one, &hz) == 0)
		FUZZ_ASSERT(one >= 0 && one <= 100 && hz >= 0);
	if (threads_parse_syscall(ta, &nr, &a0, &a1) == 0)
		FUZZ_ASSERT(nr >= 0);
	(void)threads_accel_node(ta);
	(void)threads_ioctl_nr(ta);
	free(ta);
	return 0;
}
