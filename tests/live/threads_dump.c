/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test driver for the live thread tests: reads the thread table with
 * threads_read (all processes, -a) or threads_read_pid and prints the
 * threads of one process, one line each, in a form the shell tests grep:
 *   tid=T pid=P comm=NAME state=S kernel=0 policy=fifo prio=10 nice=0
 *   affinity=0-1 last_cpu=1 uclamp=n/a cpu_pct=1.0 vol_per_s=99.0 ...
 * With -2 it takes two samples -i MS apart (with -u it sends SIGUSR1 to
 * the process in between), derives rates and prints "dropped TID" for each
 * thread that vanished. -k includes kernel threads, -j prints the JSON
 * section instead. */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json.h"
#include "core/timeutil.h"
#include "out/threads_out.h"
#include "source/threads.h"
#include "sysfs/sysroot.h"

static int sample(bool all, unsigned flags, pid_t pid, struct thread_table *t)
{
	int e = all ? threads_read(sysroot_live(), flags, t)
		    : threads_read_pid(sysroot_live(), pid, flags, t);

	if (e) {
		fprintf(stderr, "threads_dump: read failed: %s\n", strerror(-e));
		return 1;
	}
	return 0;
}

static void fmt_d(char *b, size_t n, double v)
{
	if (isnan(v))
		snprintf(b, n, "n/a");
	else
		snprintf(b, n, "%.1f", v);
}

int main(int argc, char **argv)
{
	bool all = false, two = false, json = false;
	unsigned flags = THREADS_SCHED_FILE;
	long interval_ms = 200;
	int sig = 0, c;
	pid_t pid;
	struct thread_table a, b;

	while ((c = getopt(argc, argv, "a2ji:uk")) != -1) {
		switch (c) {
		case 'a': all = true; break;
		case '2': two = true; break;
		case 'j': json = true; break;
		case 'k': flags |= THREADS_KERNEL; break;
		case 'i': interval_ms = strtol(optarg, NULL, 10); break;
		case 'u': sig = SIGUSR1; break;
		default: return 2;
		}
	}
	if (optind != argc - 1)
		return 2;
	pid = (pid_t)strtol(argv[optind], NULL, 10);
	if (sample(all, flags, pid, &a))
		return 1;
	if (two) {
		if (sig)
			kill(pid, sig);
		time_sleep_ns((uint64_t)interval_ms * 1000000u);
		if (sample(all, flags, pid, &b))
			return 1;
		threads_derive(&b, &a, (double)(b.time_ns - a.time_ns) / 1e9, sysconf(_SC_CLK_TCK));
		for (size_t i = 0; i < a.n; i++)
			if (a.t[i].pid == pid && !threads_find(&b, a.t[i].tid))
				printf("dropped %d\n", (int)a.t[i].tid);
		threads_free(&a);
		a = b;
	}
	if (json) {
		struct thread_table only = a;
		struct sbuf s;
		struct jw w;
		size_t n = 0;

		only.t = calloc(a.n ? a.n : 1, sizeof(*only.t));
		for (size_t i = 0; i < a.n; i++)
			if (a.t[i].pid == pid)
				only.t[n++] = a.t[i];
		only.n = n;
		sbuf_init(&s);
		jw_init(&w, &s, false);
		jw_obj_begin(&w, NULL);
		out_threads_json(&w, &only, false);
		jw_obj_end(&w);
		printf("%s\n", s.s);
		sbuf_free(&s);
		free(only.t);
	} else {
		printf("total %zu\n", a.n);
		for (size_t i = 0; i < a.n; i++) {
			const struct thread_info *t = &a.t[i];
			char aff[256] = "n/a", uc[32] = "n/a", cpu[16], vol[16], inv[16], mig[16];

			if (t->pid != pid)
				continue;
			if (t->have_affinity)
				cpulist_format(&t->affinity, aff, sizeof(aff));
			if (t->uclamp_min >= 0)
				snprintf(uc, sizeof(uc), "%d-%d", t->uclamp_min, t->uclamp_max);
			fmt_d(cpu, sizeof(cpu), t->cpu_pct);
			fmt_d(vol, sizeof(vol), t->vol_per_s);
			fmt_d(inv, sizeof(inv), t->invol_per_s);
			fmt_d(mig, sizeof(mig), t->migrations_per_s);
			printf("tid=%d pid=%d comm=%s state=%c kernel=%d policy=%s prio=%d nice=%d "
			       "affinity=%s last_cpu=%d uclamp=%s start=%llu cpu_pct=%s "
			       "vol_per_s=%s "
			       "invol_per_s=%s migrations_per_s=%s\n",
			       (int)t->tid, (int)t->pid, t->comm, t->state, t->kernel,
			       threads_policy_name(t->policy), t->rt_prio, t->nice, aff,
			       t->last_cpu, uc, (unsigned long long)t->start_time, cpu, vol, inv,
			       mig);
		}
	}
	threads_free(&a);
	return 0;
}
