/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A known cause for the probe --why tests (issue 29): one thread, pinned to
 * --cpu, SCHED_FIFO --prio, that spins for --burst-us every --period-ms (on
 * absolute CLOCK_MONOTONIC deadlines) until SIGTERM/SIGINT or --duration-s.
 * Prints "tid N" once it runs with its policy, so the test knows whom to
 * expect. Exit 2 on a bad option, 1 when pinning or the policy is refused. */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_sig(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static long num(const char *s, const char *opt)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < 0) {
		fprintf(stderr, "rthog: %s '%s': a number expected\n", opt, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {{"burst-us", required_argument, NULL, 'b'},
					   {"period-ms", required_argument, NULL, 'p'},
					   {"prio", required_argument, NULL, 'r'},
					   {"cpu", required_argument, NULL, 'c'},
					   {"duration-s", required_argument, NULL, 'd'},
					   {NULL, 0, NULL, 0}};
	long burst_us = 300, period_ms = 20, prio = 60, cpu = 0, dur_s = 60;
	struct sched_param sp;
	struct sigaction sa;
	cpu_set_t set;
	uint64_t next, end;
	int c;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'b': burst_us = num(optarg, "--burst-us"); break;
		case 'p': period_ms = num(optarg, "--period-ms"); break;
		case 'r': prio = num(optarg, "--prio"); break;
		case 'c': cpu = num(optarg, "--cpu"); break;
		case 'd': dur_s = num(optarg, "--duration-s"); break;
		default:
			fprintf(stderr, "usage: rthog [--burst-us US] [--period-ms MS] [--prio N] "
					"[--cpu N] [--duration-s S]\n");
			return 2;
		}
	}
	if (period_ms < 1 || (uint64_t)burst_us >= (uint64_t)period_ms * 1000u) {
		fprintf(stderr, "rthog: the burst must be shorter than the period\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "rthog: pin to CPU %ld: %s\n", cpu, strerror(errno));
		return 1;
	}
	memset(&sp, 0, sizeof(sp));
	sp.sched_priority = (int)prio;
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		fprintf(stderr, "rthog: SCHED_FIFO %ld: %s\n", prio, strerror(errno));
		return 1;
	}
	printf("tid %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	next = now_ns();
	end = next + (uint64_t)dur_s * 1000000000u;
	while (!stop && next < end) {
		struct timespec ts;
		uint64_t until;

		next += (uint64_t)period_ms * 1000000u;
		ts.tv_sec = (time_t)(next / 1000000000u);
		ts.tv_nsec = (long)(next % 1000000000u);
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			continue;
		until = now_ns() + (uint64_t)burst_us * 1000u;
		while (now_ns() < until)
			;
	}
	return 0;
}
