/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched_getattr / sched_setattr wrappers and uclamp detection. Owns the
 * syscall numbers: libc headers give SYS_sched_* on most systems; the table
 * below covers old headers (numbers from the kernel's syscall tables). */
#include "source/schedattr.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysfs/sysroot.h"

#if !defined(SYS_sched_setattr) || !defined(SYS_sched_getattr)
#undef SYS_sched_setattr
#undef SYS_sched_getattr
#if defined(__x86_64__) && defined(__ILP32__)
#define SYS_sched_setattr (0x40000000 + 314)
#define SYS_sched_getattr (0x40000000 + 315)
#elif defined(__x86_64__)
#define SYS_sched_setattr 314
#define SYS_sched_getattr 315
#elif defined(__i386__)
#define SYS_sched_setattr 351
#define SYS_sched_getattr 352
#elif defined(__aarch64__) || defined(__riscv) || defined(__loongarch__)
#define SYS_sched_setattr 274 /* asm-generic */
#define SYS_sched_getattr 275
#elif defined(__arm__)
#define SYS_sched_setattr 380 /* EABI */
#define SYS_sched_getattr 381
#elif defined(__powerpc__)
#define SYS_sched_setattr 355
#define SYS_sched_getattr 356
#endif
#endif

_Static_assert(sizeof(struct tt_sched_attr) == TT_SCHED_ATTR_SIZE_VER1,
	       "struct tt_sched_attr must match the kernel's SCHED_ATTR_SIZE_VER1 layout");

int schedattr_get(pid_t tid, struct tt_sched_attr *a)
{
	memset(a, 0, sizeof(*a));
#ifdef SYS_sched_getattr
	if (syscall(SYS_sched_getattr, tid, a, (unsigned)TT_SCHED_ATTR_SIZE_VER1, 0U) != 0)
		return -errno;
	return 0;
#else
	(void)tid;
	return -ENOSYS;
#endif
}

int schedattr_set(pid_t tid, const struct tt_sched_attr *a)
{
#ifdef SYS_sched_setattr
	struct tt_sched_attr c = *a;

	if (c.size == 0)
		c.size = TT_SCHED_ATTR_SIZE_VER1;
	if (syscall(SYS_sched_setattr, tid, &c, 0U) != 0)
		return -errno;
	return 0;
#else
	(void)tid;
	(void)a;
	return -ENOSYS;
#endif
}

bool schedattr_have_uclamp(void)
{
	static atomic_int cached = -1;
	int v = atomic_load(&cached);

	if (v < 0) {
		struct tt_sched_attr a;

		if (sysfs_exists(sysroot_live(), "proc/sys/kernel/sched_util_clamp_min"))
			v = 1;
		else if (schedattr_get(0, &a) == 0 && a.size >= TT_SCHED_ATTR_SIZE_VER1 &&
			 a.sched_util_max > 0)
			v = 1; /* without CONFIG_UCLAMP_TASK the kernel reports 0/0 */
		else
			v = 0;
		atomic_store(&cached, v);
	}
	return v == 1;
}

int schedattr_get_uclamp(pid_t tid, int *util_min, int *util_max)
{
	struct tt_sched_attr a;
	int e;

	if (!schedattr_have_uclamp())
		return -EOPNOTSUPP;
	e = schedattr_get(tid, &a);
	if (e)
		return e;
	if (a.size < TT_SCHED_ATTR_SIZE_VER1)
		return -EOPNOTSUPP;
	*util_min = (int)a.sched_util_min;
	*util_max = (int)a.sched_util_max;
	return 0;
}

int schedattr_set_uclamp(pid_t tid, int util_min, int util_max)
{
	struct tt_sched_attr a;
	int e;

	if (util_min < 0 && util_max < 0)
		return -EINVAL;
	if (util_min > TT_UCLAMP_MAX_VALUE || util_max > TT_UCLAMP_MAX_VALUE)
		return -EINVAL;
	if (!schedattr_have_uclamp())
		return -EOPNOTSUPP;
	/* Start from the current parameters: kernels before 5.15 validate the
	 * priority and nice in the struct even with KEEP_PARAMS (an RT thread
	 * with sched_priority 0 would get EINVAL). */
	e = schedattr_get(tid, &a);
	if (e)
		return e;
	a.size = TT_SCHED_ATTR_SIZE_VER1;
	a.sched_flags = (a.sched_flags & TT_SCHED_FLAG_RESET_ON_FORK) | TT_SCHED_FLAG_KEEP_ALL;
	if (util_min >= 0) {
		a.sched_flags |= TT_SCHED_FLAG_UTIL_CLAMP_MIN;
		a.sched_util_min = (uint32_t)util_min;
	}
	if (util_max >= 0) {
		a.sched_flags |= TT_SCHED_FLAG_UTIL_CLAMP_MAX;
		a.sched_util_max = (uint32_t)util_max;
	}
	return schedattr_set(tid, &a);
}
