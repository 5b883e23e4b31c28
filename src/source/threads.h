/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Threads of the live system: /proc/PID/task/TID/{stat,status,sched} plus
 * sched_getaffinity and (only where the kernel has uclamp) sched_getattr.
 * Per-process files always come from the live root (design §4). A thread is
 * identified by tid AND start time (stat field 22): a reused tid is a new
 * thread. */
#ifndef TT_SOURCE_THREADS_H
#define TT_SOURCE_THREADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/cpumask.h"
#include "sysfs/sysroot.h"

struct thread_info {
	pid_t pid, tid; /* pid = thread group id (the process) */
	pid_t ppid;	/* parent of the process (stat field 4) */
	char comm[32];	/* stat field 2, may contain spaces and ')' */
	char state;	/* R S D T t X Z P I */
	unsigned flags; /* stat field 9 (PF_*) */
	bool kernel;	/* kthread: PF_KTHREAD, kthreadd (pid 2), or a child of it without memory */
	int policy;	/* SCHED_OTHER/FIFO/RR/BATCH/IDLE/DEADLINE (stat field 41) */
	int rt_prio;	/* 1..99 for FIFO/RR, else 0 (stat field 40) */
	int nice;	/* -20..19 (stat field 19) */
	int uclamp_min, uclamp_max; /* 0..1024, -1 = n/a (no uclamp or unreadable) */
	struct cpumask affinity;    /* sched_getaffinity (Cpus_allowed_list if that failed) */
	bool have_affinity;
	int last_cpu;		/* stat field 39, -1 = n/a */
	uint64_t start_time;	/* stat field 22, clock ticks since boot */
	uint64_t utime, stime;	/* clock ticks */
	uint64_t nr_migrations; /* /proc/PID/task/TID/sched "se.nr_migrations" */
	bool have_migrations;
	uint64_t vol_ctxt, nonvol_ctxt; /* status voluntary_/nonvoluntary_ctxt_switches */
	uint64_t vmlck_kb;		/* status VmLck (process-wide; 0 for kthreads) */
	/* derived by threads_derive(); NAN = n/a (first sample, new thread) */
	double cpu_pct; /* of one CPU (100 = one CPU busy, htop style) */
	double migrations_per_s, vol_per_s, invol_per_s;
};

struct thread_table {
	size_t n;
	struct thread_info *t; /* sorted by tid */
	size_t cap;
	size_t nprocs;	       /* processes visited */
	uint64_t time_ns;      /* CLOCK_MONOTONIC when the read started */
	struct cpumask online; /* online CPUs at read time (to tell pinned threads) */
	bool have_online;
	/* isolcpus= CPUs (sys/devices/system/cpu/isolated): a new thread's
	 * default affinity leaves them out, so that alone is not "pinned" */
	struct cpumask isolated;
	bool have_isolated;
};

/* threads_read flags */
#define THREADS_KERNEL 0x1u /* include kernel threads */
#define THREADS_SCHED_FILE                                                                         \
	0x2u		       /* read .../sched for se.nr_migrations; it also has the context     \
				  switch counts, so status is then read once per process (VmLck)   \
				  instead of per thread: same number of opens */
#define THREADS_NO_UCLAMP 0x4u /* skip the sched_getattr call even where uclamp exists */

/* All threads of all processes. `live` is sysroot_live() (tests may pass
 * another root holding a proc/ tree; the syscalls still act on the live
 * kernel). Threads that vanish while being read are skipped silently.
 * Returns 0 or -errno (only when /proc itself cannot be listed). */
int threads_read(const struct sysroot *live, unsigned flags, struct thread_table *out);
/* The threads of one process (kernel threads included). -ESRCH if it is gone. */
int threads_read_pid(const struct sysroot *live, pid_t pid, unsigned flags,
		     struct thread_table *out);
/* Rates from prev (may be NULL) over dt_s seconds; clk_tck = sysconf(_SC_CLK_TCK).
 * Threads are matched by tid and start_time; unmatched ones get NAN rates. */
void threads_derive(struct thread_table *cur, const struct thread_table *prev, double dt_s,
		    long clk_tck);
void threads_free(struct thread_table *t);
/* Lookup by tid in a table (bsearch), NULL if absent. */
struct thread_info *threads_find(const struct thread_table *t, pid_t tid);

/* Start time (stat field 22) of a live thread by tid, for the journal's
 * identity check. -ESRCH when the thread does not exist. */
int thread_start_time(pid_t tid, uint64_t *out);

/* Parsers (pure; for unit tests). threads_parse_stat fills tid, comm, state,
 * ppid, flags, kernel (PF_KTHREAD, tid 2, or ppid 2 with vsize 0), utime, stime, nice,
 * start_time, last_cpu, rt_prio, policy; comm is taken between the first '('
 * and the LAST ')'. threads_parse_status fills pid (Tgid), tid (Pid),
 * vol_ctxt, nonvol_ctxt, vmlck_kb, kernel (Kthread: 1) and, as a fallback
 * affinity, Cpus_allowed_list. threads_parse_sched fills nr_migrations
 * (-EINVAL without it) and, where present, vol_ctxt / nonvol_ctxt
 * (nr_voluntary_switches / nr_involuntary_switches).
 * Each returns 0 or -EINVAL. */
int threads_parse_stat(const char *text, struct thread_info *t);
int threads_parse_status(const char *text, struct thread_info *t);
int threads_parse_sched(const char *text, struct thread_info *t);

/* "other" "fifo" "rr" "batch" "idle" "deadline" (knob syntax), "?" unknown. */
const char *threads_policy_name(int policy);
/* "OTHER" "FIFO" "RR" "BATCH" "IDLE" "DEADLINE" for display, "?" unknown. */
const char *threads_policy_label(int policy);
/* FIFO, RR or DEADLINE. */
bool threads_is_rt(const struct thread_info *t);
/* Affinity narrower than the housekeeping CPUs: some online CPU that is
 * not isolated is not allowed (false when either is unknown). With
 * isolcpus= every thread's default affinity leaves the isolated CPUs out:
 * measured against all online CPUs every thread would count as pinned. */
bool threads_is_pinned(const struct thread_table *tab, const struct thread_info *t);

#endif
