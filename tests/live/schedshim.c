/* SPDX-License-Identifier: GPL-2.0-or-later */
/* LD_PRELOAD shim for the thread tests: simulates two kernel behaviours this
 * test machine may not have, so that tunetop's handling of them can be
 * tested end to end (set, get, journal, restore, messages). Built only for
 * `make check` (tests/threads.mk), never installed.
 *
 *   TT_SHIM_UCLAMP=FILE   utilization clamping (CONFIG_UCLAMP_TASK) works:
 *       syscall(SYS_sched_getattr) reports the clamps kept in FILE (one line
 *       "tid util_min util_max" per thread; default 0 1024), and
 *       syscall(SYS_sched_setattr) with SCHED_FLAG_UTIL_CLAMP_* validates and
 *       stores them like kernel/sched/core.c (uclamp_validate: each value
 *       0..1024 or -1 = reset, min <= max: else EINVAL). FILE is shared by
 *       every process of the test, so a value set by one tunetop is read back
 *       by the next one.
 *   TT_SHIM_RT_EPERM=1    RT group scheduling (CONFIG_RT_GROUP_SCHED) with a
 *       cpu cgroup whose cpu.rt_runtime_us is 0 (Documentation/scheduler/sched-rt-group.rst):
 *       sched_setscheduler() and sched_setattr() to SCHED_FIFO or SCHED_RR
 *       fail with EPERM, even for root.
 *
 * Everything else goes to the real libc functions (dlsym RTLD_NEXT). tunetop
 * makes the sched_*attr and sched_setscheduler calls through syscall(2)
 * (src/source/schedattr.c, src/core/sched_sys.c), so syscall itself is
 * interposed; its arguments are passed on as six longs,
 * as glibc's own syscall() does. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#define UTIL_CLAMP_MIN 0x20
#define UTIL_CLAMP_MAX 0x40
#define KEEP_POLICY    0x08
#define KEEP_ALL       0x18 /* KEEP_POLICY | KEEP_PARAMS */
#define UCLAMP_MAX     1024
#define ATTR_SIZE_VER1 56

struct attr { /* include/uapi/linux/sched/types.h */
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t sched_util_min, sched_util_max;
};

typedef long (*syscall_fn)(long, ...);
typedef int (*setsched_fn)(pid_t, int, const struct sched_param *);

static syscall_fn real_syscall(void)
{
	static syscall_fn fn;

	if (!fn)
		fn = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
	return fn;
}

static int rt_policy(unsigned policy)
{
	policy &= ~(unsigned)SCHED_RESET_ON_FORK;
	return policy == SCHED_FIFO || policy == SCHED_RR;
}

static int rt_refused(void)
{
	const char *e = getenv("TT_SHIM_RT_EPERM");

	return e && *e == '1';
}

/* ---- the clamp table (a file shared by the test's processes) ---------------- */

static int table_get(const char *path, long tid, uint32_t *mn, uint32_t *mx)
{
	FILE *f = fopen(path, "r");
	long t;
	unsigned a, b;

	*mn = 0;
	*mx = UCLAMP_MAX;
	if (!f)
		return 0;
	while (fscanf(f, "%ld %u %u", &t, &a, &b) == 3)
		if (t == tid) {
			*mn = a;
			*mx = b;
		}
	fclose(f);
	return 0;
}

static int table_put(const char *path, long tid, uint32_t mn, uint32_t mx)
{
	FILE *f = fopen(path, "a"); /* the last line of a tid wins */

	if (!f)
		return -EIO;
	fprintf(f, "%ld %u %u\n", tid, mn, mx);
	fclose(f);
	return 0;
}

static long self_tid(long tid)
{
	return tid ? tid : real_syscall()(SYS_gettid, 0L, 0L, 0L, 0L, 0L, 0L);
}

static long fake_getattr(const char *path, long tid, struct attr *a, long size, long flags)
{
	long r = real_syscall()(SYS_sched_getattr, tid, (long)a, size, flags, 0L, 0L);
	uint32_t mn, mx;

	if (r != 0 || (unsigned long)size < ATTR_SIZE_VER1)
		return r;
	table_get(path, self_tid(tid), &mn, &mx);
	a->size = ATTR_SIZE_VER1;
	a->sched_util_min = mn;
	a->sched_util_max = mx;
	return 0;
}

static long fake_setattr(const char *path, long tid, const struct attr *in, long flags)
{
	struct attr a = *in, cur;
	uint32_t mn, mx;
	long r;

	if (!(a.sched_flags & (UTIL_CLAMP_MIN | UTIL_CLAMP_MAX)))
		return real_syscall()(SYS_sched_setattr, tid, (long)in, flags, 0L, 0L, 0L);
	if (a.size < ATTR_SIZE_VER1) {
		errno = EINVAL;
		return -1;
	}
	/* the thread must exist (ESRCH), like the kernel checks first */
	r = real_syscall()(SYS_sched_getattr, tid, (long)&cur, (long)sizeof(cur), 0L, 0L, 0L);
	if (r != 0)
		return r;
	table_get(path, self_tid(tid), &mn, &mx);
	if (a.sched_flags & UTIL_CLAMP_MIN)
		mn = a.sched_util_min == (uint32_t)-1 ? 0 : a.sched_util_min;
	if (a.sched_flags & UTIL_CLAMP_MAX)
		mx = a.sched_util_max == (uint32_t)-1 ? UCLAMP_MAX : a.sched_util_max;
	if (mn > UCLAMP_MAX || mx > UCLAMP_MAX || mn > mx) {
		errno = EINVAL;
		return -1;
	}
	/* the rest of the request, without the clamps (nothing with KEEP_ALL) */
	a.sched_flags &= ~(uint64_t)(UTIL_CLAMP_MIN | UTIL_CLAMP_MAX);
	if ((a.sched_flags & KEEP_ALL) != KEEP_ALL) {
		r = real_syscall()(SYS_sched_setattr, tid, (long)&a, flags, 0L, 0L, 0L);
		if (r != 0)
			return r;
	}
	return table_put(path, self_tid(tid), mn, mx) ? (errno = EIO, -1) : 0;
}

/* ---- interposed functions ---------------------------------------------------- */

long syscall(long nr, ...)
{
	va_list ap;
	long a[6];
	const char *path = getenv("TT_SHIM_UCLAMP");

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	/* tunetop sets policies with the raw call (src/core/sched_sys.c) */
	if (nr == SYS_sched_setscheduler && rt_refused() && rt_policy((unsigned)a[1])) {
		errno = EPERM;
		return -1;
	}
	if (nr == SYS_sched_getattr && path && *path)
		return fake_getattr(path, a[0], (struct attr *)a[1], a[2], a[3]);
	if (nr == SYS_sched_setattr) {
		const struct attr *at = (const struct attr *)a[1];

		if (rt_refused() && at && !(at->sched_flags & KEEP_POLICY) &&
		    rt_policy(at->sched_policy)) {
			errno = EPERM;
			return -1;
		}
		if (path && *path)
			return fake_setattr(path, a[0], at, a[2]);
	}
	return real_syscall()(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int sched_setscheduler(pid_t pid, int policy, const struct sched_param *param)
{
	static setsched_fn real;

	if (rt_refused() && rt_policy((unsigned)policy)) {
		errno = EPERM;
		return -1;
	}
	if (!real)
		real = (setsched_fn)dlsym(RTLD_NEXT, "sched_setscheduler");
	return real(pid, policy, param);
}
