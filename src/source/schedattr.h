/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched_getattr(2) / sched_setattr(2) without libc support: our own struct
 * (glibc 2.41 adds `struct sched_attr` to <sched.h>, and <linux/sched/types.h>
 * clashes with <sched.h> on glibc 2.36, so we use a private name and private
 * TT_-prefixed constants), syscall numbers per architecture, and detection of
 * utilisation clamping (CONFIG_UCLAMP_TASK). */
#ifndef TT_SOURCE_SCHEDATTR_H
#define TT_SOURCE_SCHEDATTR_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef SCHED_BATCH
#define SCHED_BATCH 3
#endif
#ifndef SCHED_IDLE
#define SCHED_IDLE 5
#endif
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif

/* Layout of the kernel's struct sched_attr (include/uapi/linux/sched/types.h). */
struct tt_sched_attr {
	uint32_t size; /* TT_SCHED_ATTR_SIZE_VER0 / _VER1; getattr sets what the kernel filled */
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime; /* SCHED_DEADLINE, ns */
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min; /* 0..1024; (uint32_t)-1 = reset to default (5.11+) */
	uint32_t sched_util_max;
};

#define TT_SCHED_ATTR_SIZE_VER0 48 /* without the uclamp fields */
#define TT_SCHED_ATTR_SIZE_VER1 56 /* with sched_util_min/max */

#define TT_SCHED_FLAG_RESET_ON_FORK  0x01
#define TT_SCHED_FLAG_RECLAIM	     0x02
#define TT_SCHED_FLAG_DL_OVERRUN     0x04
#define TT_SCHED_FLAG_KEEP_POLICY    0x08
#define TT_SCHED_FLAG_KEEP_PARAMS    0x10
#define TT_SCHED_FLAG_UTIL_CLAMP_MIN 0x20
#define TT_SCHED_FLAG_UTIL_CLAMP_MAX 0x40
#define TT_SCHED_FLAG_KEEP_ALL	     (TT_SCHED_FLAG_KEEP_POLICY | TT_SCHED_FLAG_KEEP_PARAMS)
#define TT_SCHED_FLAG_UTIL_CLAMP     (TT_SCHED_FLAG_UTIL_CLAMP_MIN | TT_SCHED_FLAG_UTIL_CLAMP_MAX)

#define TT_UCLAMP_MAX_VALUE 1024

/* sched_getattr(tid) into *a (zeroed first, asks for VER1). 0 or -errno:
 * -ESRCH gone, -ENOSYS no syscall on this architecture/kernel. */
int schedattr_get(pid_t tid, struct tt_sched_attr *a);
/* sched_setattr(tid, a, 0). a->size defaults to VER1 when 0. 0 or -errno
 * (-EPERM, -EINVAL, -EOPNOTSUPP no uclamp, -EBUSY deadline admission...). */
int schedattr_set(pid_t tid, const struct tt_sched_attr *a);

/* Kernel has CONFIG_UCLAMP_TASK (probed once: /proc/sys/kernel/sched_util_clamp_min
 * on the live root, else sched_getattr on ourselves reporting util_max > 0). */
bool schedattr_have_uclamp(void);
/* Requested clamps of a thread (0..1024). -EOPNOTSUPP without uclamp. */
int schedattr_get_uclamp(pid_t tid, int *util_min, int *util_max);
/* Change only the clamps (KEEP_ALL | UTIL_CLAMP_*; policy, priority and
 * nice stay). A negative value leaves that clamp alone; both negative is
 * -EINVAL. Returns -EOPNOTSUPP without uclamp. */
int schedattr_set_uclamp(pid_t tid, int util_min, int util_max);

#endif
