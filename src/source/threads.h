/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Threads of a root: ROOT/proc/PID/task/TID/{stat,status,sched}. On the
 * live root plus sched_getaffinity and (only where the kernel has uclamp)
 * sched_getattr; a --root tree (a fixture) owns its processes: its
 * proc/ alone says what runs there, the affinity is status's
 * Cpus_allowed_list and uclamp the sched file's uclamp.min/max, never a
 * host thread's that happens to have the same number (design §4). A thread is
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
	int num_threads;	/* stat field 20: threads of the process, 0 = n/a */
	uint64_t utime, stime;	/* clock ticks */
	uint64_t nr_migrations; /* /proc/PID/task/TID/sched "se.nr_migrations" */
	bool have_migrations;
	uint64_t vol_ctxt, nonvol_ctxt; /* status voluntary_/nonvoluntary_ctxt_switches */
	uint64_t vmlck_kb;		/* status VmLck (process-wide; 0 for kthreads) */
	/* derived by threads_derive(); NAN = n/a (first sample, new thread) */
	double cpu_pct; /* of one CPU (100 = one CPU busy, htop style) */
	double migrations_per_s, vol_per_s, invol_per_s;
	/* threads_read_incr: CLOCK_MONOTONIC of the last read of the slow
	 * fields (affinity, uclamp, nr_migrations, context switches, VmLck);
	 * 0 = read with the table (threads_read). Their rates are over the
	 * time between two such reads. */
	uint64_t slow_ns;
	int stat_fd1; /* threads_read_incr: its stat file kept open, fd + 1; 0 = none */
	/* What it waits on (THREADS_WAIT; a slow field): wchan ("" = n/a or
	 * not sleeping), the syscall number (.../syscall field 1; -1 = n/a,
	 * running or not in a syscall), whether that is the ioctl of the
	 * tree's architecture, and for an ioctl the fd's target (readlink of
	 * /proc/PID/fd/N, "" = n/a) with accel = an accelerator device node
	 * (threads_accel_node: "NPU", "GPU", "" none). */
	bool have_wait;
	char wchan[40];
	int syscall_nr;
	bool in_ioctl;
	char wait_dev[48];
	char accel[4];
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
#define THREADS_WAIT                                                                               \
	0x8u /* with the slow fields: wchan, syscall and, for a thread in ioctl, the fd's          \
		target (the accelerator marker) */

/* All threads of all processes of the root `live` (sysroot_live() or a
 * --root tree holding a proc/ tree; the syscalls are made only on the live
 * root). Threads that vanish while being read are skipped silently.
 * Returns 0 or -errno (only when /proc itself cannot be listed). */
int threads_read(const struct sysroot *live, unsigned flags, struct thread_table *out);
/* The threads of one process (kernel threads included). -ESRCH if it is gone. */
int threads_read_pid(const struct sysroot *live, pid_t pid, unsigned flags,
		     struct thread_table *out);
/* Rates from prev (may be NULL) over dt_s seconds; clk_tck = sysconf(_SC_CLK_TCK).
 * Threads are matched by tid and start_time; unmatched ones get NAN rates.
 * A thread whose slow fields were not re-read (same slow_ns as in prev)
 * keeps prev's migration and context switch rates; one re-read gets them
 * over the time since its previous slow read. */
void threads_derive(struct thread_table *cur, const struct thread_table *prev, double dt_s,
		    long clk_tck);
void threads_free(struct thread_table *t); /* also closes kept stat fds */
/* Lookup by tid in a table (bsearch), NULL if absent. */
struct thread_info *threads_find(const struct thread_table *t, pid_t tid);

/* ---- incremental reads (the TUI's sampler; doc/threads.md) ---------------
 * Every read takes, for every thread, only .../task/TID/stat (one pread()
 * on an fd kept open across reads, up to fd_cap of them; beyond that
 * open/read/close): state, CPU time, last CPU, policy, RT priority, nice,
 * comm. A process whose threads of the last read are all still there and
 * whose num_threads (stat field 20) matches their number is not listed
 * again (/proc/PID/task costs about as much per entry as a stat). The slow fields (sched file or
 * status: migrations, context switches, VmLck; sched_getaffinity; sched_getattr for uclamp) are
 * read only for new threads, for the wanted tids (rows on screen), for invalidated threads or
 * processes (tunetop just changed them) and, in rotation, for the threads with tid % rotate == gen
 * % rotate: every thread at least once every `rotate` reads. The other threads keep the slow fields
 * and their rates of the previous table. Zero-initialised is ready. */
#define THREADS_ROTATE_DEFAULT 16

struct threads_incr_proc {
	pid_t pid;
	size_t off, n; /* its tids: ptids[off .. off + n) */
};

struct threads_incr {
	unsigned rotate;   /* 0 = THREADS_ROTATE_DEFAULT */
	unsigned long gen; /* reads done */
	size_t fd_cap;	   /* stat fds kept open at most (0: from RLIMIT_NOFILE) */
	size_t nfds;	   /* kept open after the last read */
	size_t nslow;	   /* threads whose slow fields the last read took */
	pid_t *want;	   /* sorted */
	size_t nwant, want_cap;
	pid_t *dirty, *dirty_pid; /* sorted; cleared by the next read */
	size_t ndirty, dirty_cap, ndirty_pid, dirty_pid_cap;
	bool all_dirty;
	/* scratch, reused from read to read */
	char *dents;
	pid_t *pids, *tids;
	size_t pids_cap, tids_cap;
	struct thread_info *scratch;
	size_t scratch_cap;
	/* the tids of each process as of the last read (sorted), and the
	 * lists being built by the current one */
	struct threads_incr_proc *procs, *procs_next; /* sorted by pid */
	size_t nprocs, procs_cap, nprocs_next, procs_next_cap;
	pid_t *ptids, *ptids_next;
	size_t nptids, ptids_cap, nptids_next, ptids_next_cap;
	size_t nlisted_skip; /* processes whose task directory the last read did not list */
	uint64_t *keys;
	size_t keys_cap;
};

/* The slow fields of these tids are read by every read (replaces the set). */
void threads_incr_want(struct threads_incr *st, const pid_t *tids, size_t n);
/* The next read takes the slow fields of this thread / every thread of
 * this process / every thread. */
void threads_incr_dirty(struct threads_incr *st, pid_t tid);
void threads_incr_dirty_pid(struct threads_incr *st, pid_t pid);
void threads_incr_dirty_all(struct threads_incr *st);
/* Does the next read (st->gen) take the slow fields of this known thread? */
bool threads_incr_slow_due(const struct threads_incr *st, pid_t pid, pid_t tid);
/* Read every thread into out (its array is reused; prev, the previous
 * table of the same reader or NULL, gives up its kept fds and its slow
 * fields). out is sorted by tid; derive rates with threads_derive(out, prev).
 * Returns 0 or -errno (only when /proc itself cannot be listed). */
int threads_read_incr(struct threads_incr *st, const struct sysroot *live, unsigned flags,
		      struct thread_table *prev, struct thread_table *out);
/* Frees the scratch (the tables own the fds: threads_free closes them). */
void threads_incr_free(struct threads_incr *st);

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

/* The ioctl syscall number of an architecture as uname -m or
 * /proc/sys/kernel/arch names it (or tunetop's arm64 / x86 / arm): 29 on
 * aarch64, riscv and loongarch (the generic table), 16 on x86_64, 54 on arm
 * and i386; -1 unknown. */
int threads_ioctl_nr(const char *machine);
/* /proc/PID/task/TID/syscall: the number, and the first two arguments
 * (hex). "running" and "-1 ..." (blocked outside a syscall) give -ENODATA;
 * anything else unparsable -EINVAL. */
int threads_parse_syscall(const char *text, long *nr, unsigned long *arg0, unsigned long *arg1);
/* An accelerator device node (a readlink target): "NPU" for /dev/rknpu,
 * /dev/accel/accelN, /dev/galcore, "GPU" for /dev/mali0 and
 * /dev/dri/renderD*; NULL for anything else. */
const char *threads_accel_node(const char *target);

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
