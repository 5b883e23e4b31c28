/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Clock helpers over clock_gettime. */
#include "core/timeutil.h"

#include <errno.h>
#include <time.h>

static uint64_t clk(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t time_mono_ns(void)
{
	return clk(CLOCK_MONOTONIC);
}
uint64_t time_real_ns(void)
{
	return clk(CLOCK_REALTIME);
}
uint64_t time_process_cpu_ns(void)
{
	return clk(CLOCK_PROCESS_CPUTIME_ID);
}

void time_sleep_ns(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ULL),
			      .tv_nsec = (long)(ns % 1000000000ULL)};

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}
