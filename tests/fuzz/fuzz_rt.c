/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the scheduler debug parser (src/source/rt.c: rt_rq / dl_rq blocks of
 * sys/kernel/debug/sched/debug or proc/sched_debug). With a second file
 * after a NUL byte, both are parsed and the throttling events derived. */
#include <math.h>

#include "source/rt.h"
#include "fuzz.h"

static void parse(const char *text, struct rt_info *rt)
{
	memset(rt, 0, sizeof(*rt));
	if (rt_parse_sched_debug(text, rt) == 0) {
		FUZZ_ASSERT(rt->ncpu > 0 && rt->cpu);
		for (int c = 0; c < rt->ncpu; c++)
			FUZZ_ASSERT(rt->cpu[c].cpu == c);
	}
	(void)rt_share_pct(rt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_info a, b;
	char *ta, *tb;

	fuzz_split(data, size, &ta, &tb);
	parse(ta, &a);
	rt_derive(&a, NULL, 1.0);
	if (tb) {
		parse(tb, &b);
		rt_derive(&b, &a, 1.0);
		rt_free(&b);
	}
	rt_free(&a);
	free(ta);
	return 0;
}
