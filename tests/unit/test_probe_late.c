/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The probe's late records (probe --why, issue 29), on a live probe thread
 * (SCHED_OTHER, no privilege needed): nothing is recorded before a bar is
 * set; with bar 0 every wake-up is, on the deadline grid, wake >= deadline,
 * the progress covers the last one; a full ring drops and counts, never
 * blocks the thread; bar UINT64_MAX stops the records. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe/probe.h"
#include "tap.h"

#define IV_US 200

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

static uint64_t count(struct probe *p)
{
	struct hist *h = malloc(sizeof(*h));
	uint64_t n;

	if (!h)
		abort();
	probe_snapshot(p, 0, h);
	n = h->count;
	free(h);
	return n;
}

/* Wait (30 s at most) until the thread woke at least n times. */
static int wait_wakes(struct probe *p, uint64_t n)
{
	for (int i = 0; i < 3000; i++) {
		if (count(p) >= n)
			return 0;
		sleep_ms(10);
	}
	return -1;
}

int main(void)
{
	struct probe_cfg cfg = {.interval_us = IV_US,
				.policy = PROBE_POLICY_OTHER,
				.dma_latency_us = -1,
				.break_fd = -1,
				.no_mlock = true,
				.late = true};
	struct probe_late *buf = calloc(PROBE_LATE_RING, sizeof(*buf));
	struct probe p;
	char why[256];
	uint64_t prog, drops, c0;
	size_t n;
	bool grid = true, order = true;

	if (!buf)
		abort();
	cpumask_set(&cfg.cpus, 0);
	if (probe_start(&p, &cfg, why, sizeof(why))) {
		free(buf);
		skip_all(why);
	}
	ok(wait_wakes(&p, 20) == 0, "the thread wakes");
	n = probe_late_drain(&p, 0, buf, PROBE_LATE_RING, &prog, &drops);
	is_int(n, 0, "no record before a bar is set (the bar starts at none)");
	ok(prog > 0, "the progress moves all the same");

	probe_set_late_bar(&p, 0);
	c0 = count(&p);
	ok(wait_wakes(&p, c0 + 50) == 0, "50 more wake-ups");
	n = probe_late_drain(&p, 0, buf, PROBE_LATE_RING, &prog, &drops);
	ok(n >= 40, "bar 0: the wake-ups are recorded (%zu)", n);
	for (size_t i = 0; i < n; i++) {
		if (buf[i].wake_ns < buf[i].deadline_ns)
			order = false;
		if (i && (buf[i].deadline_ns - buf[0].deadline_ns) % (IV_US * 1000u))
			grid = false;
	}
	ok(order, "each wake time is at or after its deadline");
	ok(grid, "the deadlines are on the probe's grid");
	ok(n && prog >= buf[n - 1].wake_ns, "the progress covers the last record");
	is_int(drops, 0, "nothing dropped while drained");

	c0 = count(&p);
	ok(wait_wakes(&p, c0 + PROBE_LATE_RING + 500) == 0, "a ring's worth of wake-ups undrained");
	n = probe_late_drain(&p, 0, buf, PROBE_LATE_RING, &prog, &drops);
	is_int(n, PROBE_LATE_RING, "a full ring is drained whole");
	ok(drops > 0, "and the records that did not fit are counted (%llu)",
	   (unsigned long long)drops);

	probe_set_late_bar(&p, UINT64_MAX);
	probe_late_drain(&p, 0, buf, PROBE_LATE_RING, &prog, &drops);
	c0 = count(&p);
	ok(wait_wakes(&p, c0 + 20) == 0, "20 more wake-ups");
	n = probe_late_drain(&p, 0, buf, PROBE_LATE_RING, &prog, &drops);
	ok(n <= 1, "bar none: no more records (%zu, at most one in flight)", n);
	probe_free(&p);
	free(buf);
	return done_testing();
}
