/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the /proc/PID/task/TID parsers (src/source/threads.c): the same text
 * goes through the stat, status and sched parsers (each ignores what is not
 * its format). With a second file after a NUL byte, both are parsed as two
 * samples of one thread and its rates derived, as the sampler does. */
#include <math.h>

#include "source/threads.h"
#include "fuzz.h"

static void parse_all(const char *text, struct thread_info *t)
{
	memset(t, 0, sizeof(*t));
	t->last_cpu = -1;
	t->policy = -1;
	if (threads_parse_stat(text, t) == 0)
		FUZZ_ASSERT(memchr(t->comm, '\0', sizeof(t->comm)));
	(void)threads_parse_status(text, t);
	(void)threads_parse_sched(text, t);
	(void)threads_policy_name(t->policy);
	(void)threads_policy_label(t->policy);
	(void)threads_is_rt(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct thread_info a, b;
	char *ta, *tb;

	fuzz_split(data, size, &ta, &tb);
	parse_all(ta, &a);
	if (tb) {
		struct thread_table pa = {.n = 1, .t = &a}, pb = {.n = 1, .t = &b};

		parse_all(tb, &b);
		threads_derive(&pb, &pa, 0.5, 100);
		FUZZ_ASSERT(threads_find(&pb, b.tid) == &b);
		(void)threads_is_pinned(&pb, &b);
	}
	free(ta);
	return 0;
}
