/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduling policy through the raw system calls. musl's
 * sched_setscheduler(), sched_getscheduler(), sched_setparam() and
 * sched_getparam() are stubs that always fail with ENOSYS (musl leaves
 * thread scheduling to pthread_setschedparam); the kernel has the calls on
 * every architecture, so tunetop makes them itself, the same on glibc and
 * musl. pid 0 is the calling thread; any other is a thread id. */
#ifndef TT_CORE_SCHED_SYS_H
#define TT_CORE_SCHED_SYS_H

#include <sys/types.h>

/* Set tid's policy (SCHED_* | SCHED_RESET_ON_FORK) and static priority
 * (0 for SCHED_OTHER/BATCH/IDLE). 0 or -errno (the kernel's errno). */
int tt_sched_setscheduler(pid_t tid, int policy, int prio);

/* tid's policy (SCHED_*, SCHED_RESET_ON_FORK included), or -errno. */
int tt_sched_getscheduler(pid_t tid);

/* tid's static priority into *prio. 0 or -errno. */
int tt_sched_getparam(pid_t tid, int *prio);

/* Change tid's static priority, keeping its policy. 0 or -errno. */
int tt_sched_setparam(pid_t tid, int prio);

#endif
