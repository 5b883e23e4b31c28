/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduling policy and priority through syscall(2): the wrappers of
 * sched_sys.h (why: musl stubs the libc functions out with ENOSYS). Every
 * caller in tunetop goes through these, so an error is always the
 * kernel's own errno, never a libc stub's. */
#include "core/sched_sys.h"

#include <errno.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

int tt_sched_setscheduler(pid_t tid, int policy, int prio)
{
	struct sched_param sp = {.sched_priority = prio};

	if (syscall(SYS_sched_setscheduler, tid, policy, &sp) != 0)
		return -errno;
	return 0;
}

int tt_sched_getscheduler(pid_t tid)
{
	long r = syscall(SYS_sched_getscheduler, tid);

	return r < 0 ? -errno : (int)r;
}

int tt_sched_getparam(pid_t tid, int *prio)
{
	struct sched_param sp = {.sched_priority = 0};

	if (syscall(SYS_sched_getparam, tid, &sp) != 0)
		return -errno;
	*prio = sp.sched_priority;
	return 0;
}

int tt_sched_setparam(pid_t tid, int prio)
{
	struct sched_param sp = {.sched_priority = prio};

	if (syscall(SYS_sched_setparam, tid, &sp) != 0)
		return -errno;
	return 0;
}
