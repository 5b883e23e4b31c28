/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The thread and process knob families: thread/<tid>/{affinity, policy,
 * nice, uclamp_min, uclamp_max} and process/<pid>/..., which expands to the
 * same knob of every thread of the process (one thread ref each, so undo
 * works per thread). On the live root the targets are syscalls:
 * sched_setaffinity, sched_setscheduler, setpriority, sched_setattr
 * (uclamp). A --root tree (a fixture) owns its processes (design
 * §4): a thread is ROOT/proc/PID/task/TID, and a knob is a field of its
 * files (status Cpus_allowed/Cpus_allowed_list, stat's priority, nice,
 * rt_priority and policy, the sched file's policy, prio and uclamp lines;
 * the leader's proc/PID copies follow), rewritten through the sysroot
 * layer with the usual journal and undo, never a host thread that happens
 * to have the same number ("---- a --root tree" below).
 *
 * Identity (design §6): a ref carries the thread's identity in ident:
 * "start=TICKS boot=BOOT_ID pidfs=INODE", the start time (stat field 22,
 * clock ticks since boot), the live kernel's boot id and the inode of a
 * pidfd for the thread (unique per boot on pidfs, Linux 6.9+); where there
 * is no pidfs, "comm=NAME" stands in for the inode. The start time alone
 * cannot tell a tid reused within one clock tick, nor a tid of another boot
 * when --root is a fixture (the journal's boot id is the root's). The
 * journal records ident, undo re-expands the address and refuses a tid that
 * now belongs to another thread ("replaced since" / "is gone": not
 * touched), and a thread that exited does not expand (ESRCH: reported and
 * dropped). Writes check the whole identity again right before the
 * syscall. Entries written before the boot and pidfs keys (ident
 * "start=TICKS" only) no longer match and are dropped as replaced.
 *
 * Also here: value checks and the syscalls themselves, shared with `exec
 * --cpus/--fifo/--rr/--nice`, and the refusals in words (EPERM without
 * CAP_SYS_NICE or from RT group scheduling, EINVAL from per-CPU kernel
 * threads, EOPNOTSUPP without uclamp, ESRCH). */
#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/err.h"
#include "core/sched_sys.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"
#include "knob/knob_int.h"
#include "source/schedattr.h"
#include "source/threads.h"

#define PF_NO_SETAFFINITY_FLAG 0x04000000u /* include/linux/sched.h */
#define CAP_SYS_NICE_BIT       23

/* ---- what we know about a live thread ----------------------------------------- */

struct tinfo {
	pid_t tid, tgid;
	uint64_t start;
	unsigned flags;
	bool kernel;
	int uid; /* real uid, -1 n/a */
	char comm[32];
};

/* The thread tid whose files are in dir ("proc/PID/task/TID") under r. */
static int tinfo_read_at(const struct sysroot *r, const char *dir, pid_t tid, struct tinfo *ti)
{
	char path[TT_PATH_MAX], buf[4096];
	struct thread_info t;
	int e;

	memset(ti, 0, sizeof(*ti));
	ti->uid = -1;
	if (tid <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "%s/stat", dir);
	e = sysfs_read(r, path, buf, sizeof(buf), NULL);
	if (e == -ENOENT || e == -ESRCH)
		return -ESRCH;
	if (e && e != -EFBIG)
		return e;
	memset(&t, 0, sizeof(t));
	if (threads_parse_stat(buf, &t) != 0 || t.tid != tid)
		return -ESRCH;
	ti->tid = tid;
	ti->start = t.start_time;
	ti->flags = t.flags;
	ti->kernel = t.kernel;
	str_copy(ti->comm, sizeof(ti->comm), t.comm);
	ti->tgid = tid;
	snprintf(path, sizeof(path), "%s/status", dir);
	e = sysfs_read(r, path, buf, sizeof(buf), NULL);
	if (e == 0 || e == -EFBIG) {
		const char *p = strstr(buf, "\nTgid:");
		const char *u = strstr(buf, "\nUid:");

		if (p)
			ti->tgid = (pid_t)atoi(p + 6);
		if (u)
			ti->uid = atoi(u + 5);
		if (strstr(buf, "\nKthread:\t1"))
			ti->kernel = true;
	}
	return 0;
}

/* A live thread: /proc/TID/task/TID works for any tid, leader or not. */
static int tinfo_read(pid_t tid, struct tinfo *ti)
{
	char dir[64];

	snprintf(dir, sizeof(dir), "proc/%d/task/%d", (int)tid, (int)tid);
	return tinfo_read_at(sysroot_live(), dir, tid, ti);
}

static pid_t ref_tid(const struct knob_ref *ref)
{
	return (pid_t)atoi(ref->obj);
}

static uint64_t ref_start(const struct knob_ref *ref)
{
	unsigned long long v = 0;

	if (sscanf(ref->ident, "start=%llu", &v) != 1)
		return 0;
	return v;
}

/* ---- identity ------------------------------------------------------------------- */

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL /* include/uapi/linux/pidfd.h, Linux 6.9 */
#endif
#define PIDFS_MAGIC_ 0x50494446u /* "PIDF", include/uapi/linux/magic.h */

/* The live kernel's boot id ("" when unreadable), read once. */
static const char *live_boot_id(void)
{
	static char id[48];
	static bool done;

	if (!done) {
		if (sysfs_read_str(sysroot_live(), "proc/sys/kernel/random/boot_id", id,
				   sizeof(id)) != 0)
			id[0] = '\0';
		done = true;
	}
	return id;
}

/* The pidfs inode of a thread: one per struct pid, never reused while the
 * system runs. -ENOSYS / -EINVAL / -EOPNOTSUPP where pidfds are not on
 * pidfs (before Linux 6.9: an anonymous inode shared by all of them). */
static int pidfs_ino(pid_t tid, uint64_t *ino)
{
#ifdef SYS_pidfd_open
	struct statfs sf;
	struct stat st;
	int fd = (int)syscall(SYS_pidfd_open, (int)tid, (unsigned)PIDFD_THREAD), e = 0;

	if (fd < 0)
		return -errno;
	if (fstatfs(fd, &sf) != 0 || (unsigned long)sf.f_type != PIDFS_MAGIC_ ||
	    fstat(fd, &st) != 0)
		e = -EOPNOTSUPP;
	else
		*ino = (uint64_t)st.st_ino;
	close(fd);
	return e;
#else
	(void)tid;
	(void)ino;
	return -ENOSYS;
#endif
}

/* "start=TICKS boot=BOOT_ID pidfs=INODE" (or "comm=NAME" for the inode). */
static void make_ident(const struct tinfo *ti, char *buf, size_t cap)
{
	const char *boot = live_boot_id();
	uint64_t ino = 0;
	size_t n;

	snprintf(buf, cap, "start=%llu", (unsigned long long)ti->start);
	n = strlen(buf);
	if (boot[0] && n < cap)
		n += (size_t)snprintf(buf + n, cap - n, " boot=%s", boot);
	if (n >= cap)
		return;
	if (pidfs_ino(ti->tid, &ino) == 0)
		snprintf(buf + n, cap - n, " pidfs=%llu", (unsigned long long)ino);
	else
		snprintf(buf + n, cap - n, " comm=%s", ti->comm);
}

/* One key of an ident ("pidfs" -> "123"); comm is last and may hold spaces. */
static bool ident_key(const char *ident, const char *key, char *out, size_t cap)
{
	size_t kl = strlen(key);

	for (const char *p = ident; p && *p; p = strchr(p, ' ')) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			size_t n = !strcmp(key, "comm") ? strlen(p + kl + 1)
							: strcspn(p + kl + 1, " ");

			if (n >= cap)
				n = cap - 1;
			memcpy(out, p + kl + 1, n);
			out[n] = '\0';
			return true;
		}
	}
	out[0] = '\0';
	return false;
}

/* Is the ref's thread still the one that was expanded? */
static int same_thread(const struct knob_ref *ref)
{
	struct tinfo ti;
	char now[sizeof(ref->ident)];

	if (tinfo_read(ref_tid(ref), &ti) != 0)
		return -ESRCH;
	if (!ref->ident[0])
		return 0;
	make_ident(&ti, now, sizeof(now));
	return strcmp(now, ref->ident) ? -ESRCH : 0;
}

/* ---- a --root tree: which thread ----------------------------------------------- */

/* The directory of thread tid in a tree: proc/TID/task/TID for a leader,
 * else proc/PID/task/TID of the process that has it (a tree need not have
 * the hidden proc/TID of a non-leader thread). */
static int tree_find(const struct sysroot *r, pid_t tid, char *dir, size_t cap)
{
	struct sysfs_list l;
	int e;

	if (tid <= 0)
		return -ESRCH;
	snprintf(dir, cap, "proc/%d/task/%d", (int)tid, (int)tid);
	if (sysfs_is_dir(r, dir))
		return 0;
	e = sysfs_list_opt(r, "proc", &l);
	if (e)
		return e;
	e = -ESRCH;
	for (size_t i = 0; i < l.n && e; i++) {
		int pid;

		if (str_to_int(l.names[i], &pid) != 0 || pid <= 0)
			continue;
		snprintf(dir, cap, "proc/%d/task/%d", pid, (int)tid);
		if (sysfs_is_dir(r, dir))
			e = 0;
	}
	sysfs_list_free(&l);
	return e;
}

/* Thread tid of root r: the live kernel's, or the tree's own. */
static int thread_at(const struct sysroot *r, pid_t tid, struct tinfo *ti)
{
	char dir[TT_PATH_MAX];
	int e;

	if (r->live)
		return tinfo_read(tid, ti);
	e = tree_find(r, tid, dir, sizeof(dir));
	if (e) {
		memset(ti, 0, sizeof(*ti));
		ti->uid = -1;
		return e == -ENOENT ? -ESRCH : e;
	}
	return tinfo_read_at(r, dir, tid, ti);
}

/* A tree thread's identity: "start=TICKS boot=THE_TREE'S_BOOT_ID comm=NAME"
 * (no pidfd: the thread is files, not a task of this kernel). */
static void make_ident_in(const struct sysroot *r, const struct tinfo *ti, char *buf, size_t cap)
{
	char boot[48];
	size_t n;

	if (r->live) {
		make_ident(ti, buf, cap);
		return;
	}
	snprintf(buf, cap, "start=%llu", (unsigned long long)ti->start);
	n = strlen(buf);
	if (sysfs_read_str(r, "proc/sys/kernel/random/boot_id", boot, sizeof(boot)) == 0 && n < cap)
		n += (size_t)snprintf(buf + n, cap - n, " boot=%s", boot);
	if (n < cap)
		snprintf(buf + n, cap - n, " comm=%s", ti->comm);
}

/* Is the ref's thread (of root r) still the one that was expanded? */
static int same_thread_in(const struct sysroot *r, const struct knob_ref *ref)
{
	struct tinfo ti;
	char now[sizeof(ref->ident)];

	if (r->live)
		return same_thread(ref);
	if (thread_at(r, ref_tid(ref), &ti) != 0)
		return -ESRCH;
	if (!ref->ident[0])
		return 0;
	make_ident_in(r, &ti, now, sizeof(now));
	return strcmp(now, ref->ident) ? -ESRCH : 0;
}

static bool have_cap_sys_nice(void)
{
	char buf[4096], hex[32];
	const char *p;
	uint64_t caps;
	size_t n;

	if (sysfs_read(sysroot_live(), "proc/self/status", buf, sizeof(buf), NULL) != 0)
		return false;
	p = strstr(buf, "\nCapEff:");
	if (!p)
		return false;
	p += strlen("\nCapEff:");
	while (*p == ' ' || *p == '\t')
		p++;
	n = strcspn(p, "\n");
	if (n >= sizeof(hex))
		return false;
	memcpy(hex, p, n);
	hex[n] = '\0';
	if (str_to_hex_u64(hex, &caps) != 0)
		return false;
	return (caps >> CAP_SYS_NICE_BIT) & 1;
}

static bool privileged(void)
{
	return geteuid() == 0 || have_cap_sys_nice();
}

/* ---- values --------------------------------------------------------------------- */

/* The online CPUs of the root the thread runs in (a tree's own). */
static int root_online(const struct sysroot *r, struct cpumask *m)
{
	char buf[4096];
	int e = sysfs_read_str(r, "sys/devices/system/cpu/online", buf, sizeof(buf));

	if (!e)
		e = cpulist_parse(buf, m);
	return e;
}

/* "fifo:10" "rr:5" "other" "batch" "idle" (also "normal", "SCHED_FIFO:10", "FIFO 10"). */
static int parse_policy(const char *in, int *policy, int *prio, char *norm, size_t cap, char *why,
			size_t whycap)
{
	char v[64], *p, *num = NULL;
	static const struct {
		const char *name;
		int policy;
	} names[] = {{"other", SCHED_OTHER},	  {"normal", SCHED_OTHER}, {"batch", SCHED_BATCH},
		     {"idle", SCHED_IDLE},	  {"fifo", SCHED_FIFO},	   {"rr", SCHED_RR},
		     {"deadline", SCHED_DEADLINE}};
	int pol = -1;

	if (strlen(in) >= sizeof(v)) {
		snprintf(why, whycap, "value too long");
		return -EINVAL;
	}
	str_copy(v, sizeof(v), in);
	p = str_trim(v);
	for (char *c = p; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	if (str_starts(p, "sched_"))
		p += 6;
	num = strpbrk(p, ": ");
	if (num) {
		*num++ = '\0';
		while (*num == ' ')
			num++;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(p, names[i].name))
			pol = names[i].policy;
	if (pol < 0) {
		snprintf(why, whycap,
			 "'%s' is not a policy (other, batch, idle, fifo:1..99, rr:1..99)", in);
		return -EINVAL;
	}
	if (pol == SCHED_DEADLINE) {
		snprintf(why, whycap,
			 "SCHED_DEADLINE needs runtime, deadline and period; tunetop does not set "
			 "it (use chrt -d)");
		return -EINVAL;
	}
	if (pol == SCHED_FIFO || pol == SCHED_RR) {
		int lo = sched_get_priority_min(pol), hi = sched_get_priority_max(pol), pr;

		if (lo < 1)
			lo = 1;
		if (hi < lo)
			hi = 99;
		if (!num || !*num) {
			snprintf(why, whycap, "%s needs a priority: %s:%d..%d", p, p, lo, hi);
			return -EINVAL;
		}
		if (str_to_int(num, &pr) != 0) {
			snprintf(why, whycap, "'%s' is not a priority (%d..%d)", num, lo, hi);
			return -EINVAL;
		}
		if (pr < lo || pr > hi) {
			snprintf(why, whycap, "priority %d is out of range %d..%d for %s", pr, lo,
				 hi, p);
			return -EINVAL;
		}
		*policy = pol;
		*prio = pr;
		snprintf(norm, cap, "%s:%d", pol == SCHED_FIFO ? "fifo" : "rr", pr);
		return 0;
	}
	if (num && *num && strcmp(num, "0")) {
		snprintf(why, whycap, "%s takes no priority (only fifo and rr do)",
			 threads_policy_name(pol));
		return -EINVAL;
	}
	*policy = pol;
	*prio = 0;
	snprintf(norm, cap, "%s", threads_policy_name(pol));
	return 0;
}

/* ---- the leaves: check, write, read, words ------------------------------------- */

static int affinity_check(const struct thread_leaf_ops *l, const struct sysroot *r, const char *t,
			  char *norm, size_t cap, char *why, size_t whycap)
{
	struct cpumask m, online, extra;
	char list[256], ol[256];

	(void)l;
	if (cpulist_parse(t, &m) != 0) {
		snprintf(why, whycap, "'%s' is not a CPU list (e.g. 0-3,6)", t);
		return -EINVAL;
	}
	if (cpumask_empty(&m)) {
		snprintf(why, whycap, "empty CPU list: a thread needs at least one CPU");
		return -EINVAL;
	}
	if (root_online(r, &online) == 0) {
		extra = m;
		cpumask_andnot(&extra, &online);
		cpulist_format(&online, ol, sizeof(ol));
		if (!cpumask_empty(&extra)) {
			cpulist_format(&extra, list, sizeof(list));
			snprintf(why, whycap,
				 "CPU %s not online (online: %s); no online CPU would be%s", list,
				 ol,
				 cpumask_count(&extra) == cpumask_count(&m)
					 ? " in the mask"
					 : " lost, but tunetop only takes online CPUs");
			return -EINVAL;
		}
	}
	cpulist_format(&m, norm, cap);
	return 0;
}

/* A per-CPU kernel thread (PF_NO_SETAFFINITY) cannot be moved. */
#define PINNED_WHY "is a per-CPU kernel thread (PF_NO_SETAFFINITY): the kernel does not let it move"

/* The cause of a refused affinity for a per-CPU kernel thread: -EINVAL. */
static int pinned_cause(const struct knob_ref *ref, const char *comm, char **cause)
{
	knob_cause(cause, "%s: EINVAL: %s " PINNED_WHY, ref->addr, comm);
	return -EINVAL;
}

static int affinity_check_live(const struct knob_ref *ref, pid_t tid, char **cause)
{
	struct tinfo ti;

	if (tinfo_read(tid, &ti) == 0 && (ti.flags & PF_NO_SETAFFINITY_FLAG))
		return pinned_cause(ref, ti.comm, cause);
	return 0;
}

static int affinity_write(const struct thread_leaf_ops *l, pid_t tid, const char *value)
{
	struct cpumask m;
	cpu_set_t *set;
	size_t sz = CPU_ALLOC_SIZE(TT_MAX_CPUS);
	int e = 0;

	(void)l;
	if (cpulist_parse(value, &m) != 0 || cpumask_empty(&m))
		return -EINVAL;
	set = CPU_ALLOC(TT_MAX_CPUS);
	if (!set)
		return -ENOMEM;
	CPU_ZERO_S(sz, set);
	for (int c = cpumask_next(&m, 0); c >= 0; c = cpumask_next(&m, c + 1))
		CPU_SET_S((size_t)c, sz, set);
	if (sched_setaffinity(tid, sz, set) != 0)
		e = -errno;
	CPU_FREE(set);
	return e;
}

static int affinity_read(const struct thread_leaf_ops *l, pid_t tid, char *value, size_t cap)
{
	size_t sz = CPU_ALLOC_SIZE(TT_MAX_CPUS);
	cpu_set_t *set = CPU_ALLOC(TT_MAX_CPUS);
	struct cpumask m;
	int e = 0;

	(void)l;
	if (!set)
		return -ENOMEM;
	CPU_ZERO_S(sz, set);
	if (sched_getaffinity(tid, sz, set) != 0) {
		e = -errno;
	} else {
		cpumask_zero(&m);
		for (int c = 0; c < TT_MAX_CPUS; c++)
			if (CPU_ISSET_S((size_t)c, sz, set))
				cpumask_set(&m, c);
		cpulist_format(&m, value, cap);
	}
	CPU_FREE(set);
	return e;
}

static int affinity_allowed(const struct sysroot *r, char *buf, size_t cap)
{
	struct cpumask m;
	char ol[200];

	if (root_online(r, &m) != 0)
		return -ENOENT;
	cpulist_format(&m, ol, sizeof(ol));
	snprintf(buf, cap, "CPU list within %s", ol);
	return 0;
}

static void affinity_einval(pid_t tid, char *buf, size_t cap)
{
	struct tinfo ti;

	if (tid > 0 && tinfo_read(tid, &ti) == 0 && (ti.flags & PF_NO_SETAFFINITY_FLAG))
		snprintf(buf, cap, "%s " PINNED_WHY, ti.comm);
	else
		snprintf(buf, cap,
			 "no CPU of the mask is online and allowed by the thread's cpuset");
}

static int policy_check(const struct thread_leaf_ops *l, const struct sysroot *r, const char *t,
			char *norm, size_t cap, char *why, size_t whycap)
{
	int pol, prio;

	(void)l;
	(void)r;
	return parse_policy(t, &pol, &prio, norm, cap, why, whycap);
}

/* tunetop leaves deadline reservations alone (it could not restore them). */
static int policy_check_live(const struct knob_ref *ref, pid_t tid, char **cause)
{
	int pol = tt_sched_getscheduler(tid);

	if (pol >= 0 && (pol & ~SCHED_RESET_ON_FORK) == SCHED_DEADLINE) {
		knob_cause(cause,
			   "%s: EINVAL: the thread runs SCHED_DEADLINE; tunetop leaves deadline "
			   "reservations alone (it could not restore them)",
			   ref->addr);
		return -EINVAL;
	}
	return 0;
}

static int policy_write(const struct thread_leaf_ops *l, pid_t tid, const char *value)
{
	char norm[32], why[160];
	int pol, prio, cur;

	(void)l;
	if (parse_policy(value, &pol, &prio, norm, sizeof(norm), why, sizeof(why)) != 0)
		return -EINVAL;
	cur = tt_sched_getscheduler(tid);
	if (cur < 0)
		return cur;
	/* keep SCHED_RESET_ON_FORK as it was */
	return tt_sched_setscheduler(tid, pol | (cur & SCHED_RESET_ON_FORK), prio);
}

static int policy_read(const struct thread_leaf_ops *l, pid_t tid, char *value, size_t cap)
{
	int prio, e, pol = tt_sched_getscheduler(tid);

	(void)l;
	if (pol < 0)
		return pol;
	pol &= ~SCHED_RESET_ON_FORK;
	if (pol == SCHED_FIFO || pol == SCHED_RR) {
		e = tt_sched_getparam(tid, &prio);
		if (e != 0)
			return e;
		snprintf(value, cap, "%s:%d", threads_policy_name(pol), prio);
	} else {
		snprintf(value, cap, "%s", threads_policy_name(pol));
	}
	return 0;
}

/* A soft limit of the thread's process (RLIMIT_NICE, RLIMIT_RTPRIO);
 * -1 when it cannot be read. */
static long long target_rlimit(pid_t tid, int resource)
{
	struct rlimit rl;

	if (prlimit(tid, resource, NULL, &rl) != 0)
		return -1;
	return rl.rlim_cur == RLIM_INFINITY ? 1000 : (long long)rl.rlim_cur;
}

/* Can an unprivileged caller set nice n on tid when it is lower than now?
 * The kernel's can_nice(): 20 - n within the thread's RLIMIT_NICE. */
static bool can_nice(pid_t tid, int n, long long *lim)
{
	*lim = target_rlimit(tid, RLIMIT_NICE);
	return *lim >= 0 && 20 - n <= *lim;
}

/* Without CAP_SYS_NICE (the kernel's __sched_setscheduler): going back to
 * an RT policy needs RLIMIT_RTPRIO (above 0 to change policy, at least the
 * priority to raise it), leaving SCHED_IDLE needs can_nice() for the
 * current nice. A change that could not be taken back is not made. */
static int policy_undoable(pid_t tid, const char *old, const char *value, char *why, size_t cap)
{
	int op, oprio, np, nprio, nice;
	char norm[32], w[160];
	long long lim;

	if (parse_policy(old, &op, &oprio, norm, sizeof(norm), w, sizeof(w)) != 0 ||
	    parse_policy(value, &np, &nprio, norm, sizeof(norm), w, sizeof(w)) != 0 ||
	    (op == np && oprio == nprio))
		return 0;
	if (op == SCHED_FIFO || op == SCHED_RR) {
		lim = target_rlimit(tid, RLIMIT_RTPRIO);
		if ((op != np && lim <= 0) ||
		    (oprio > (np == SCHED_FIFO || np == SCHED_RR ? nprio : 0) && oprio > lim)) {
			snprintf(why, cap,
				 "%s could not be undone: putting %s back needs CAP_SYS_NICE or "
				 "RLIMIT_RTPRIO of at least %d (the thread's is %lld)",
				 value, old, oprio, lim < 0 ? 0 : lim);
			return -EPERM;
		}
	}
	if (np == SCHED_IDLE && op != SCHED_IDLE) {
		errno = 0;
		nice = getpriority(PRIO_PROCESS, (id_t)tid);
		if (!(nice == -1 && errno) && !can_nice(tid, nice, &lim)) {
			snprintf(why, cap,
				 "idle could not be undone: leaving SCHED_IDLE needs CAP_SYS_NICE "
				 "or RLIMIT_NICE of at least %d (the thread's is %lld)",
				 20 - nice, lim < 0 ? 0 : lim);
			return -EPERM;
		}
	}
	return 0;
}

static int policy_allowed(const struct sysroot *r, char *buf, size_t cap)
{
	(void)r;
	snprintf(buf, cap, "other batch idle fifo:%d..%d rr:%d..%d",
		 sched_get_priority_min(SCHED_FIFO), sched_get_priority_max(SCHED_FIFO),
		 sched_get_priority_min(SCHED_RR), sched_get_priority_max(SCHED_RR));
	return 0;
}

static void policy_shell(const struct thread_leaf_ops *l, int tid, const char *value, char *buf,
			 size_t cap)
{
	int pol = SCHED_OTHER, prio = 0;
	char norm[32], why[160];
	const char *opt = "-o";

	(void)l;
	if (parse_policy(value, &pol, &prio, norm, sizeof(norm), why, sizeof(why)) == 0)
		opt = pol == SCHED_FIFO	   ? "-f"
		      : pol == SCHED_RR	   ? "-r"
		      : pol == SCHED_BATCH ? "-b"
		      : pol == SCHED_IDLE  ? "-i"
					   : "-o";
	snprintf(buf, cap, "chrt %s -p %d %d", opt, prio, tid);
}

static bool policy_rt(const char *value)
{
	return value && (str_starts(value, "fifo") || str_starts(value, "rr"));
}

/* A whole number t in lo..hi, normalized into norm; else why says so: "'t'
 * is not WHAT (lo..hi)", "PREFIXn is out of range lo..hi". */
static int int_check(const char *t, int lo, int hi, const char *what, const char *prefix,
		     char *norm, size_t cap, char *why, size_t whycap)
{
	int n;

	if (str_to_int(t, &n) != 0) {
		snprintf(why, whycap, "'%s' is not %s (%d..%d)", t, what, lo, hi);
		return -EINVAL;
	}
	if (n < lo || n > hi) {
		snprintf(why, whycap, "%s%d is out of range %d..%d", prefix, n, lo, hi);
		return -EINVAL;
	}
	snprintf(norm, cap, "%d", n);
	return 0;
}

static int nice_check(const struct thread_leaf_ops *l, const struct sysroot *r, const char *t,
		      char *norm, size_t cap, char *why, size_t whycap)
{
	(void)l;
	(void)r;
	return int_check(t, -20, 19, "a nice value", "nice ", norm, cap, why, whycap);
}

static int nice_write(const struct thread_leaf_ops *l, pid_t tid, const char *value)
{
	int n;

	(void)l;
	if (str_to_int(value, &n) != 0)
		return -EINVAL;
	if (setpriority(PRIO_PROCESS, (id_t)tid, n) != 0)
		return -errno;
	return 0;
}

static int nice_read(const struct thread_leaf_ops *l, pid_t tid, char *value, size_t cap)
{
	int n;

	(void)l;
	errno = 0;
	n = getpriority(PRIO_PROCESS, (id_t)tid);
	if (n == -1 && errno)
		return -errno;
	snprintf(value, cap, "%d", n);
	return 0;
}

/* Without CAP_SYS_NICE, lowering nice is refused unless RLIMIT_NICE allows
 * it: a raise that could not be taken back is not made. */
static int nice_undoable(pid_t tid, const char *old, const char *value, char *why, size_t cap)
{
	int o, n;
	long long lim;

	if (str_to_int(old, &o) != 0 || str_to_int(value, &n) != 0 || o >= n ||
	    can_nice(tid, o, &lim))
		return 0;
	snprintf(why, cap,
		 "nice %d could not be undone: putting nice %d back needs CAP_SYS_NICE or "
		 "RLIMIT_NICE of at least %d (the thread's is %lld)",
		 n, o, 20 - o, lim < 0 ? 0 : lim);
	return -EPERM;
}

static int nice_allowed(const struct sysroot *r, char *buf, size_t cap)
{
	(void)r;
	snprintf(buf, cap, "-20..19");
	return 0;
}

static int uclamp_check(const struct thread_leaf_ops *l, const struct sysroot *r, const char *t,
			char *norm, size_t cap, char *why, size_t whycap)
{
	char word[16];

	(void)l;
	(void)r;
	if (!strcmp(t, "max")) {
		snprintf(word, sizeof(word), "%d", TT_UCLAMP_MAX_VALUE);
		t = word;
	} else if (!strcmp(t, "min")) {
		t = "0";
	}
	return int_check(t, 0, TT_UCLAMP_MAX_VALUE, "a utilization", "", norm, cap, why, whycap);
}

static int uclamp_write(const struct thread_leaf_ops *l, pid_t tid, const char *value)
{
	int n;

	if (str_to_int(value, &n) != 0)
		return -EINVAL;
	return l->clamp == TL_UTIL_MIN ? schedattr_set_uclamp(tid, n, -1)
				       : schedattr_set_uclamp(tid, -1, n);
}

static int uclamp_read(const struct thread_leaf_ops *l, pid_t tid, char *value, size_t cap)
{
	int mn, mx, e = schedattr_get_uclamp(tid, &mn, &mx);

	if (e == -EOPNOTSUPP || e == -ENOSYS) {
		/* honest: the kernel has no clamps to read; a write says why */
		str_copy(value, cap, "n/a");
		return 0;
	}
	if (e)
		return e;
	snprintf(value, cap, "%d", l->clamp == TL_UTIL_MIN ? mn : mx);
	return 0;
}

static int uclamp_allowed(const struct sysroot *r, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s",
		 !r->live || schedattr_have_uclamp() ? "0..1024" : "n/a (kernel without uclamp)");
	return 0;
}

static void uclamp_shell(const struct thread_leaf_ops *l, int tid, const char *value, char *buf,
			 size_t cap)
{
	snprintf(buf, cap, "# sched_setattr(%d, %s=%s, KEEP_ALL|UTIL_CLAMP)", tid,
		 l->clamp == TL_UTIL_MIN ? "util_min" : "util_max", value);
}

/* uclamp is a hint to schedutil: under any other governor it changes
 * nothing about the clock (the RK3588 BSP trap). */
#define UCLAMP_EINVAL                                                                              \
	"uclamp_min must not exceed uclamp_max (nor the system limits in "                         \
	"/proc/sys/kernel/sched_util_clamp_*)"

static void uclamp_notes(struct knob_ctx *ctx, const struct knob_ref *ref, struct sbuf *report)
{
	struct sysfs_list l;
	char others[256] = "", line[640];
	size_t len = 0;
	int npol = 0;

	if (sysfs_list(ctx->root, "sys/devices/system/cpu/cpufreq", &l) == 0) {
		for (size_t i = 0; i < l.n; i++) {
			char gov[64];

			if (!str_starts(l.names[i], "policy"))
				continue;
			npol++;
			if (sysfs_read_strf(ctx->root, gov, sizeof(gov),
					    "sys/devices/system/cpu/cpufreq/%s/scaling_governor",
					    l.names[i]) != 0 ||
			    !strcmp(gov, "schedutil"))
				continue;
			if (len < sizeof(others))
				len += (size_t)snprintf(others + len, sizeof(others) - len,
							"%s%s %s", len ? ", " : "", l.names[i],
							gov);
		}
		sysfs_list_free(&l);
	}
	if (!npol)
		snprintf(line, sizeof(line),
			 "note: %s: no cpufreq here: the clamp only steers task placement, not "
			 "a frequency\n",
			 ref->addr);
	else if (others[0])
		snprintf(line, sizeof(line),
			 "note: %s: uclamp only steers schedutil; %s ignore%s it (on the RK3588 "
			 "BSP util_min=512 was accepted, yet the big cores stayed at 408 MHz): "
			 "switch to schedutil or set cpufreq/<policy>/min_khz\n",
			 ref->addr, others, strchr(others, ',') ? "" : "s");
	else
		return;
	if (!report->s || !strstr(report->s, line))
		sbuf_puts(report, line);
}

/* ---- a --root tree: the thread's files ------------------------------------------
 * Each leaf is a field of one file of the thread's directory dir
 * ("proc/PID/task/TID"), rewritten in the kernel's format so that an undo
 * gives the bytes back: stat's priority (18), nice (19), rt_priority (40)
 * and policy (41); status's Cpus_allowed (hex, the width it had) and
 * Cpus_allowed_list; the sched file's "policy", "prio" and "uclamp.*"
 * lines (%-45s:%21lld). The leader's proc/PID/{stat,status,sched} show the
 * same fields and follow. Writes go through sysfs_write() (a temporary
 * file renamed over the target). */

#define TREE_BUF 16384

/* stat: the fields after the comm (3..) as an editable list. */
struct stat_fields {
	char head[128]; /* "PID (comm)" up to the last ')' */
	char *f[64];
	size_t n;
	char buf[2048];
};

static int stat_split(const char *text, struct stat_fields *sf)
{
	const char *rp = strrchr(text, ')');
	char *save = NULL;

	if (!rp || (size_t)(rp - text) + 1 >= sizeof(sf->head) || strlen(rp + 1) >= sizeof(sf->buf))
		return -EINVAL;
	memcpy(sf->head, text, (size_t)(rp - text) + 1);
	sf->head[rp - text + 1] = '\0';
	str_copy(sf->buf, sizeof(sf->buf), rp + 1);
	sf->n = 0;
	for (char *t = strtok_r(sf->buf, " \n", &save); t && sf->n < 64;
	     t = strtok_r(NULL, " \n", &save))
		sf->f[sf->n++] = t;
	return sf->n >= 39 ? 0 : -EINVAL; /* up to field 41 (policy) */
}

/* Field k (1-based, as proc(5) numbers them; k >= 3). */
static const char *stat_field(const struct stat_fields *sf, int k)
{
	return sf->f[k - 3];
}

static int stat_int(const struct stat_fields *sf, int k)
{
	return atoi(stat_field(sf, k));
}

/* The list back into text, with fields set[k] (1-based, NULL = keep). */
static void stat_join(const struct stat_fields *sf, const char *const *set, size_t nset,
		      struct sbuf *out)
{
	sbuf_puts(out, sf->head);
	for (size_t i = 0; i < sf->n; i++) {
		size_t k = i + 3;

		sbuf_putc(out, ' ');
		sbuf_puts(out, k < nset && set[k] ? set[k] : sf->f[i]);
	}
	sbuf_putc(out, '\n');
}

/* Replace the value of line "KEY:" (status: "Key:\tvalue", sched: "key   :   value"). */
static int line_set(const char *text, const char *key, const char *val, bool sched,
		    struct sbuf *out)
{
	size_t kl = strlen(key);
	bool done = false;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (!done && !strncmp(p, key, kl) && (p[kl] == ':' || (sched && p[kl] == ' '))) {
			if (sched)
				sbuf_printf(out, "%-45s:%21s", key, val);
			else
				sbuf_printf(out, "%s:\t%s", key, val);
			done = true;
		} else {
			sbuf_putn(out, p, len);
		}
		if (!nl)
			break;
		sbuf_putc(out, '\n');
		p = nl + 1;
	}
	return done ? 0 : -ENOENT;
}

/* The value of line "KEY:" into val (trimmed). */
static int line_get(const char *text, const char *key, bool sched, char *val, size_t cap)
{
	size_t kl = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, kl) || !(p[kl] == ':' || (sched && p[kl] == ' ')))
			continue;
		p = strchr(p, ':');
		if (!p)
			return -EINVAL;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		str_copy(val, cap, p);
		val[strcspn(val, "\n")] = '\0';
		str_trim(val);
		return 0;
	}
	return -ENOENT;
}

/* Edit file `name` of dir, and of the leader's proc/PID when dir is
 * proc/PID/task/PID: edit(ctx, text, out) makes the new text. */
static int tree_edit(const struct sysroot *r, const char *dir, const char *name,
		     int (*edit)(const void *ctx, const char *text, struct sbuf *out),
		     const void *ctx)
{
	char path[TT_PATH_MAX], lead[TT_PATH_MAX];
	int pid = 0, tid = 0, e = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	lead[0] = '\0';
	if (sscanf(dir, "proc/%d/task/%d", &pid, &tid) == 2 && pid == tid)
		snprintf(lead, sizeof(lead), "proc/%d/%s", pid, name);
	for (int i = 0; i < 2 && !e; i++) {
		const char *p = i ? lead : path;
		char *text = NULL;
		struct sbuf out;

		if (!*p || (i && !sysfs_exists(r, p)))
			continue;
		e = sysfs_read_alloc(r, p, &text, NULL);
		if (e)
			break;
		sbuf_init(&out);
		e = edit(ctx, text, &out);
		if (!e)
			e = sysfs_write(r, p, out.s ? out.s : "", out.len);
		sbuf_free(&out);
		free(text);
	}
	return e;
}

static int tree_read_file(const struct sysroot *r, const char *dir, const char *name, char *buf,
			  size_t cap)
{
	char path[TT_PATH_MAX];
	int e;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	e = sysfs_read(r, path, buf, cap, NULL);
	if (e == -ENOENT)
		return -ESRCH;
	return e == -EFBIG ? 0 : e;
}

/* Cpus_allowed in the kernel's %*pb form, as wide as the old value:
 * 32-bit groups of hex digits, separated by commas. */
static void hex_mask(const struct cpumask *m, const char *old, char *out, size_t cap)
{
	char digits[300];
	size_t nd = 0, o = 0;

	for (const char *p = old; *p; p++)
		nd += isxdigit((unsigned char)*p) != 0;
	if (nd == 0 || nd >= sizeof(digits))
		nd = ((size_t)cpumask_last(m) + 4) / 4;
	for (size_t i = 0; i < nd; i++) {
		int base = (int)(nd - 1 - i) * 4, v = 0;

		for (int b = 0; b < 4; b++)
			v |= cpumask_test(m, base + b) << b;
		digits[i] = "0123456789abcdef"[v];
	}
	for (size_t i = 0; i < nd && o + 2 < cap; i++) {
		if (i && (nd - i) % 8 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
}

static int aff_edit(const void *ctx, const char *text, struct sbuf *out)
{
	const struct cpumask *m = ctx;
	char old[300], hex[300], list[512];
	struct sbuf mid;
	int e;

	if (line_get(text, "Cpus_allowed", false, old, sizeof(old)) != 0)
		old[0] = '\0';
	hex_mask(m, old, hex, sizeof(hex));
	cpulist_format(m, list, sizeof(list));
	sbuf_init(&mid);
	e = line_set(text, "Cpus_allowed_list", list, false, &mid);
	if (!e && old[0])
		e = line_set(mid.s, "Cpus_allowed", hex, false, out);
	else if (!e)
		sbuf_puts(out, mid.s);
	sbuf_free(&mid);
	return e;
}

static int affinity_tree_read(const struct thread_leaf_ops *l, const struct sysroot *r,
			      const char *dir, char *value, size_t cap)
{
	char buf[TREE_BUF];
	struct cpumask m;
	int e = tree_read_file(r, dir, "status", buf, sizeof(buf));

	(void)l;
	if (!e)
		e = line_get(buf, "Cpus_allowed_list", false, value, cap);
	if (!e && cpulist_parse(value, &m) == 0)
		cpulist_format(&m, value, cap);
	return e == -ENOENT ? -ENODATA : e;
}

static int affinity_tree_write(const struct thread_leaf_ops *l, const struct sysroot *r,
			       const char *dir, const char *value)
{
	struct cpumask m;

	(void)l;
	if (cpulist_parse(value, &m) != 0 || cpumask_empty(&m))
		return -EINVAL;
	return tree_edit(r, dir, "status", aff_edit, &m);
}

/* What a policy or nice change makes of the scheduling fields. */
struct sched_set {
	bool set_policy, set_nice;
	int policy, rt_prio, nice;
};

/* stat fields 18 (priority: -1 - rt_priority for FIFO/RR, 20 + nice
 * otherwise), 19, 40, 41 from the old ones and the change. */
static void sched_apply(const struct sched_set *c, int *policy, int *rtp, int *nice, int *prio18,
			int *kprio)
{
	if (c->set_policy) {
		*policy = c->policy;
		*rtp = c->rt_prio;
	}
	if (c->set_nice)
		*nice = c->nice;
	*prio18 = (*policy == SCHED_FIFO || *policy == SCHED_RR) ? -1 - *rtp : 20 + *nice;
	*kprio = (*policy == SCHED_FIFO || *policy == SCHED_RR) ? 99 - *rtp : 120 + *nice;
}

static int stat_sched_edit(const void *ctx, const char *text, struct sbuf *out)
{
	struct stat_fields sf;
	char v18[16], v19[16], v40[16], v41[16];
	const char *set[42] = {0};
	int pol, rtp, nice, p18, kp;

	if (stat_split(text, &sf) != 0)
		return -EINVAL;
	pol = stat_int(&sf, 41);
	rtp = stat_int(&sf, 40);
	nice = stat_int(&sf, 19);
	sched_apply(ctx, &pol, &rtp, &nice, &p18, &kp);
	snprintf(v18, sizeof(v18), "%d", p18);
	snprintf(v19, sizeof(v19), "%d", nice);
	snprintf(v40, sizeof(v40), "%d", rtp);
	snprintf(v41, sizeof(v41), "%d", pol);
	set[18] = v18;
	set[19] = v19;
	set[40] = v40;
	set[41] = v41;
	stat_join(&sf, set, 42, out);
	return 0;
}

/* The sched file's policy and prio lines (kept as they are when absent). */
struct sched_file_set {
	const struct sched_set *c;
	int policy, rt_prio, nice; /* from stat, before the change */
};

static int sched_file_edit(const void *ctx, const char *text, struct sbuf *out)
{
	const struct sched_file_set *s = ctx;
	int pol = s->policy, rtp = s->rt_prio, nice = s->nice, p18, kp;
	char v[16], cur[32];
	struct sbuf mid;
	int e;

	sched_apply(s->c, &pol, &rtp, &nice, &p18, &kp);
	sbuf_init(&mid);
	snprintf(v, sizeof(v), "%d", pol);
	e = line_get(text, "policy", true, cur, sizeof(cur)) == 0
		    ? line_set(text, "policy", v, true, &mid)
		    : (sbuf_puts(&mid, text), 0);
	snprintf(v, sizeof(v), "%d", kp);
	if (!e && line_get(mid.s, "prio", true, cur, sizeof(cur)) == 0)
		e = line_set(mid.s, "prio", v, true, out);
	else if (!e)
		sbuf_puts(out, mid.s);
	sbuf_free(&mid);
	return e;
}

static int sched_tree_write(const struct sysroot *r, const char *dir, const struct sched_set *c)
{
	char buf[2048], path[TT_PATH_MAX];
	struct stat_fields sf;
	struct sched_file_set fs = {c, 0, 0, 0};
	int e = tree_read_file(r, dir, "stat", buf, sizeof(buf));

	if (e)
		return e;
	if (stat_split(buf, &sf) != 0)
		return -EINVAL;
	fs.policy = stat_int(&sf, 41);
	fs.rt_prio = stat_int(&sf, 40);
	fs.nice = stat_int(&sf, 19);
	e = tree_edit(r, dir, "stat", stat_sched_edit, c);
	snprintf(path, sizeof(path), "%s/sched", dir);
	if (!e && sysfs_exists(r, path))
		e = tree_edit(r, dir, "sched", sched_file_edit, &fs);
	return e;
}

static int stat_tree_get(const struct sysroot *r, const char *dir, struct stat_fields *sf)
{
	char buf[2048];
	int e = tree_read_file(r, dir, "stat", buf, sizeof(buf));

	if (!e && stat_split(buf, sf) != 0)
		e = -EINVAL;
	return e;
}

static int policy_tree_read(const struct thread_leaf_ops *l, const struct sysroot *r,
			    const char *dir, char *value, size_t cap)
{
	struct stat_fields sf;
	int e = stat_tree_get(r, dir, &sf), pol;

	(void)l;
	if (e)
		return e;
	pol = stat_int(&sf, 41);
	if (pol == SCHED_FIFO || pol == SCHED_RR)
		snprintf(value, cap, "%s:%d", threads_policy_name(pol), stat_int(&sf, 40));
	else
		snprintf(value, cap, "%s", threads_policy_name(pol));
	return 0;
}

static int policy_tree_write(const struct thread_leaf_ops *l, const struct sysroot *r,
			     const char *dir, const char *value)
{
	struct sched_set c = {.set_policy = true};
	char norm[32], why[160];

	(void)l;
	if (parse_policy(value, &c.policy, &c.rt_prio, norm, sizeof(norm), why, sizeof(why)) != 0)
		return -EINVAL;
	return sched_tree_write(r, dir, &c);
}

static int nice_tree_read(const struct thread_leaf_ops *l, const struct sysroot *r, const char *dir,
			  char *value, size_t cap)
{
	struct stat_fields sf;
	int e = stat_tree_get(r, dir, &sf);

	(void)l;
	if (!e)
		snprintf(value, cap, "%d", stat_int(&sf, 19));
	return e;
}

static int nice_tree_write(const struct thread_leaf_ops *l, const struct sysroot *r,
			   const char *dir, const char *value)
{
	struct sched_set c = {.set_nice = true};

	(void)l;
	if (str_to_int(value, &c.nice) != 0 || c.nice < -20 || c.nice > 19)
		return -EINVAL;
	return sched_tree_write(r, dir, &c);
}

static const char *uclamp_key(const struct thread_leaf_ops *l, bool effective)
{
	if (l->clamp == TL_UTIL_MIN)
		return effective ? "effective uclamp.min" : "uclamp.min";
	return effective ? "effective uclamp.max" : "uclamp.max";
}

/* A tree without the sched file's uclamp lines has no clamps: "n/a", as
 * on a live kernel without CONFIG_UCLAMP_TASK. */
static int uclamp_tree_read(const struct thread_leaf_ops *l, const struct sysroot *r,
			    const char *dir, char *value, size_t cap)
{
	char buf[TREE_BUF];
	int e = tree_read_file(r, dir, "sched", buf, sizeof(buf));

	if (e == -ESRCH && tree_read_file(r, dir, "stat", buf, sizeof(buf)) == 0)
		e = -ENOENT;
	if (!e)
		e = line_get(buf, uclamp_key(l, false), true, value, cap);
	if (e == -ENOENT) {
		str_copy(value, cap, "n/a");
		return 0;
	}
	return e;
}

/* The requested clamp and the effective one (the same here: the tree has
 * no cgroup or system limit below it to apply). */
static int uclamp_edit(bool min, const char *val, const char *text, struct sbuf *out)
{
	struct sbuf mid;
	char cur[32];
	int e;

	sbuf_init(&mid);
	e = line_set(text, min ? "uclamp.min" : "uclamp.max", val, true, &mid);
	if (!e && line_get(mid.s, min ? "effective uclamp.min" : "effective uclamp.max", true, cur,
			   sizeof(cur)) == 0)
		e = line_set(mid.s, min ? "effective uclamp.min" : "effective uclamp.max", val,
			     true, out);
	else if (!e)
		sbuf_puts(out, mid.s);
	sbuf_free(&mid);
	return e == -ENOENT ? -EOPNOTSUPP : e;
}

static int uclamp_edit_min(const void *ctx, const char *text, struct sbuf *out)
{
	return uclamp_edit(true, ctx, text, out);
}

static int uclamp_edit_max(const void *ctx, const char *text, struct sbuf *out)
{
	return uclamp_edit(false, ctx, text, out);
}

static int uclamp_tree_write(const struct thread_leaf_ops *l, const struct sysroot *r,
			     const char *dir, const char *value)
{
	int n;

	if (str_to_int(value, &n) != 0 || n < 0 || n > TT_UCLAMP_MAX_VALUE)
		return -EINVAL;
	return tree_edit(r, dir, "sched",
			 l->clamp == TL_UTIL_MIN ? uclamp_edit_min : uclamp_edit_max, value);
}

/* clang-format off */
const struct thread_leaf_ops thread_leaves[] = {
	{ .name = "affinity", .syscall = "sched_setaffinity", .expect = "a CPU list, e.g. 0-3,6",
	  .pinned_refuses = true, .check = affinity_check, .check_live = affinity_check_live,
	  .write = affinity_write, .read = affinity_read, .allowed = affinity_allowed,
	  .shell_cmd = "taskset -pc ", .shell_tid = " ", .why_einval = affinity_einval,
	  .tree_file = "status", .tree_read = affinity_tree_read, .tree_write = affinity_tree_write },
	{ .name = "policy", .syscall = "sched_setscheduler",
	  .expect = "other, batch, idle, fifo:1..99 or rr:1..99", .check = policy_check,
	  .check_live = policy_check_live, .write = policy_write, .read = policy_read,
	  .allowed = policy_allowed, .shell = policy_shell, .rt = policy_rt,
	  .einval = "priority out of range for the policy", .undoable = policy_undoable,
	  .tree_file = "stat", .tree_read = policy_tree_read, .tree_write = policy_tree_write },
	{ .name = "nice", .syscall = "setpriority", .expect = "a nice value -20..19",
	  .check = nice_check, .write = nice_write, .read = nice_read, .allowed = nice_allowed,
	  .shell_cmd = "renice -n ", .shell_tid = " -p ",
	  .einval = "the kernel refused the value", .undoable = nice_undoable,
	  .why_eacces = "lowering nice needs CAP_SYS_NICE (or a high enough RLIMIT_NICE)",
	  .tree_file = "stat", .tree_read = nice_tree_read, .tree_write = nice_tree_write },
	{ .name = "uclamp_min", .syscall = "sched_setattr util_min",
	  .expect = "a utilization 0..1024", .clamp = TL_UTIL_MIN, .check = uclamp_check,
	  .write = uclamp_write, .read = uclamp_read, .allowed = uclamp_allowed,
	  .shell = uclamp_shell, .einval = UCLAMP_EINVAL, .notes = uclamp_notes,
	  .tree_file = "sched", .tree_read = uclamp_tree_read, .tree_write = uclamp_tree_write },
	{ .name = "uclamp_max", .syscall = "sched_setattr util_max",
	  .expect = "a utilization 0..1024", .clamp = TL_UTIL_MAX, .check = uclamp_check,
	  .write = uclamp_write, .read = uclamp_read, .allowed = uclamp_allowed,
	  .shell = uclamp_shell, .einval = UCLAMP_EINVAL, .notes = uclamp_notes,
	  .tree_file = "sched", .tree_read = uclamp_tree_read, .tree_write = uclamp_tree_write },
};
/* clang-format on */
const size_t thread_nleaves = sizeof(thread_leaves) / sizeof(thread_leaves[0]);

const struct thread_leaf_ops *thread_leaf_find(const char *name)
{
	return str_table_find(thread_leaves, thread_nleaves, sizeof(thread_leaves[0]),
			      offsetof(struct thread_leaf_ops, name), name);
}

static const struct thread_leaf_ops *ref_leaf(const struct knob_ref *ref)
{
	return thread_leaf_find(ref->def ? ref->def->leaf : NULL);
}

static int knob_check_in(const struct sysroot *r, const char *leaf, const char *value, char *norm,
			 size_t cap, char *why, size_t whycap)
{
	const struct thread_leaf_ops *l = thread_leaf_find(leaf);
	char v[KNOB_VALUE_MAX], *t;

	why[0] = '\0';
	if (strlen(value) >= sizeof(v)) {
		snprintf(why, whycap, "value too long");
		return -EINVAL;
	}
	str_copy(v, sizeof(v), value);
	t = str_trim(v);
	if (!*t) {
		snprintf(why, whycap, "empty value: %s", l ? l->expect : "a utilization 0..1024");
		return -EINVAL;
	}
	if (!l) {
		snprintf(why, whycap, "unknown thread knob '%s'", leaf);
		return -EINVAL;
	}
	return l->check(l, r, t, norm, cap, why, whycap);
}

int thread_knob_check(const char *leaf, const char *value, char *norm, size_t cap, char *why,
		      size_t whycap)
{
	return knob_check_in(sysroot_live(), leaf, value, norm, cap, why, whycap);
}

int thread_knob_apply(pid_t tid, const char *leaf, const char *value)
{
	const struct thread_leaf_ops *l = thread_leaf_find(leaf);

	return l ? l->write(l, tid, value) : -EINVAL;
}
/* The thread's cpu cgroup from /proc/<tid>/cgroup (tid 0: ours): the v1
 * hierarchy that has the cpu controller, else the v2 one ("0::/path"). */
static bool cpu_cgroup(pid_t tid, char *out, size_t cap)
{
	char path[64], buf[4096], v2[256] = "";
	char *line, *save = NULL;
	bool found = false;

	if (tid > 0)
		snprintf(path, sizeof(path), "proc/%d/cgroup", (int)tid);
	else
		snprintf(path, sizeof(path), "proc/self/cgroup");
	if (sysfs_read_str(sysroot_live(), path, buf, sizeof(buf)) != 0)
		return false;
	for (line = strtok_r(buf, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char *ctl = strchr(line, ':'), *grp = ctl ? strchr(ctl + 1, ':') : NULL, *cs;

		if (!grp)
			continue;
		*grp++ = '\0';
		ctl++;
		if (!*ctl) {
			str_copy(v2, sizeof(v2), grp);
			continue;
		}
		for (char *c = strtok_r(ctl, ",", &cs); c; c = strtok_r(NULL, ",", &cs))
			if (!strcmp(c, "cpu")) {
				str_copy(out, cap, grp);
				found = true;
			}
	}
	if (!found && v2[0]) {
		str_copy(out, cap, v2);
		found = true;
	}
	return found;
}

/* EPERM: who may do it, and RT group scheduling for a real-time request. */
static void why_eperm(pid_t tid, bool have, const struct tinfo *ti, bool rt, char *buf, size_t cap)
{
	if (!privileged()) {
		if (have && ti->uid >= 0 && (uid_t)ti->uid != geteuid())
			snprintf(buf, cap,
				 "not root and no CAP_SYS_NICE: the thread belongs to uid %d",
				 ti->uid);
		else if (rt) {
			struct rlimit rl;

			if (getrlimit(RLIMIT_RTPRIO, &rl) == 0)
				snprintf(buf, cap,
					 "not root and no CAP_SYS_NICE: RT priority above "
					 "RLIMIT_RTPRIO (%llu) needs CAP_SYS_NICE",
					 (unsigned long long)rl.rlim_cur);
			else
				snprintf(buf, cap, "not root and no CAP_SYS_NICE");
		} else
			snprintf(buf, cap, "not root and no CAP_SYS_NICE");
	} else if (rt) {
		char grp[200];

		if (cpu_cgroup(tid, grp, sizeof(grp)) && strcmp(grp, "/"))
			snprintf(buf, cap,
				 "refused although privileged: most likely RT group scheduling "
				 "(CONFIG_RT_GROUP_SCHED): the thread's cpu cgroup %s has no RT "
				 "runtime (cpu.rt_runtime_us = 0, the default for a new group); "
				 "give "
				 "that group RT runtime (cgroup v1: its cpu.rt_runtime_us, parents "
				 "first) or move the thread to the root cgroup (cgroup v2 has no "
				 "such "
				 "setting)",
				 grp);
		else
			snprintf(buf, cap,
				 "refused although privileged: most likely RT group scheduling "
				 "(CONFIG_RT_GROUP_SCHED): a cpu cgroup with cpu.rt_runtime_us = 0 "
				 "(the default for a new group) refuses RT; give the thread's "
				 "group RT "
				 "runtime or move the thread to the root cgroup");
	} else {
		snprintf(buf, cap, "refused although privileged (security module or cgroup)");
	}
}

void thread_knob_why(pid_t tid, const char *leaf, const char *value, int err, char *buf, size_t cap)
{
	const struct thread_leaf_ops *l = thread_leaf_find(leaf);
	struct tinfo ti;
	bool have = tid > 0 && tinfo_read(tid, &ti) == 0;

	buf[0] = '\0';
	switch (-err) {
	case EPERM: why_eperm(tid, have, &ti, l && l->rt && l->rt(value), buf, cap); break;
	case EACCES:
		snprintf(buf, cap, "%s",
			 l && l->why_eacces ? l->why_eacces
					    : "not permitted (needs root or CAP_SYS_NICE)");
		break;
	case EINVAL:
		if (l && l->why_einval)
			l->why_einval(tid, buf, cap);
		else
			snprintf(buf, cap, "%s",
				 l && l->einval ? l->einval : "the kernel refused the value");
		break;
	case EOPNOTSUPP:
		snprintf(buf, cap,
			 "this kernel has no utilization clamping (CONFIG_UCLAMP_TASK is not "
			 "set)");
		break;
	case ENOSYS: {
		/* the call the leaf makes ("sched_setattr util_min": its first
		 * word); tunetop makes them raw (core/sched_sys.h), so ENOSYS
		 * is the kernel's, never a libc stub's */
		const char *sc = l && l->syscall ? l->syscall : "sched_setattr";

		snprintf(buf, cap, "no %.*s system call on this kernel", (int)strcspn(sc, " "), sc);
		break;
	}
	case ESRCH: snprintf(buf, cap, "the thread is gone (it exited)"); break;
	case EBUSY:
		snprintf(buf, cap,
			 "SCHED_DEADLINE admission control or a deadline thread's root domain "
			 "refused it");
		break;
	default: break;
	}
}

/* ---- ops: every hook goes to the ref's leaf ------------------------------------ */

static int thr_read(struct knob_ctx *ctx, const struct knob_ref *ref, char *value, size_t cap,
		    char *raw, size_t rawcap, size_t *rawlen)
{
	const struct thread_leaf_ops *l = ref_leaf(ref);
	int e;

	(void)ctx;
	(void)raw;
	(void)rawcap;
	if (rawlen)
		*rawlen = 0;
	if (!l)
		e = -EINVAL;
	else if (!ctx->root->live)
		e = l->tree_read(l, ctx->root, ref->dir, value, cap);
	else
		e = l->read(l, ref_tid(ref), value, cap);
	return e == -ESRCH ? -ENOENT : e; /* gone: undo reports it as vanished */
}

/* A ref of a --root tree's thread: its target is a file of ref->dir. */
static bool ref_in_tree(const struct knob_ref *ref)
{
	size_t n = strlen(ref->dir);

	return n && !strncmp(ref->target, ref->dir, n) && ref->target[n] == '/';
}

static int thr_write(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value)
{
	const struct thread_leaf_ops *l = ref_leaf(ref);
	int e = same_thread_in(ctx->root, ref);

	if (e)
		return e;
	if (!ctx->root->live) /* the tree's files, never a host thread */
		return l ? l->tree_write(l, ctx->root, ref->dir, value) : -EINVAL;
	return thread_knob_apply(ref_tid(ref), ref->def->leaf, value);
}

static int thr_restore(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
		       const char *raw, size_t rawlen)
{
	(void)raw;
	(void)rawlen;
	if (!strcmp(value, "n/a"))
		return 0; /* nothing was readable, so nothing was changed */
	return thr_write(ctx, ref, value);
}

static int thr_validate(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
			char *norm, size_t cap, char **cause)
{
	const struct thread_leaf_ops *l = ref_leaf(ref);
	char why[320];
	int e = knob_check_in(ctx->root, ref->def->leaf, value, norm, cap, why, sizeof(why));

	if (e) {
		knob_cause(cause, "%s: EINVAL: %s", ref->addr, why);
		return e;
	}
	if (!ctx->root->live) {
		struct tinfo ti;

		/* the tree's thread: its flags say what the kernel would refuse */
		if (l->pinned_refuses && thread_at(ctx->root, ref_tid(ref), &ti) == 0 &&
		    (ti.flags & PF_NO_SETAFFINITY_FLAG))
			return pinned_cause(ref, ti.comm, cause);
		return 0;
	}
	e = l->check_live ? l->check_live(ref, ref_tid(ref), cause) : 0;
	if (!e && l->undoable && !privileged()) {
		struct tinfo ti;
		char old[64];

		/* nothing is applied that this user could not write back (a
		 * thread of another user: the write itself is refused, and says so) */
		if (tinfo_read(ref_tid(ref), &ti) == 0 && ti.uid >= 0 &&
		    (uid_t)ti.uid == geteuid() && l->read(l, ref_tid(ref), old, sizeof(old)) == 0 &&
		    (e = l->undoable(ref_tid(ref), old, norm, why, sizeof(why))) != 0)
			knob_cause(cause, "%s: EPERM: %s", ref->addr, why);
	}
	return e;
}

static int thr_allowed(struct knob_ctx *ctx, const struct knob_ref *ref, char *buf, size_t cap)
{
	const struct thread_leaf_ops *l = ref_leaf(ref);

	return l ? l->allowed(ctx->root, buf, cap) : uclamp_allowed(ctx->root, buf, cap);
}

static bool thr_writable(struct knob_ctx *ctx, const struct knob_ref *ref)
{
	const struct thread_leaf_ops *l = ref_leaf(ref);
	struct tinfo ti;

	if (thread_at(ctx->root, ref_tid(ref), &ti) != 0)
		return false;
	if (l && l->pinned_refuses && (ti.flags & PF_NO_SETAFFINITY_FLAG))
		return false;
	if (!ctx->root->live) { /* the tree's file decides */
		char path[TT_PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s", ref->dir, l ? l->tree_file : "stat");
		return sysfs_writable(ctx->root, path);
	}
	if (privileged())
		return true;
	/* our own threads: affinity, raising nice, RT within RLIMIT_RTPRIO */
	return ti.uid >= 0 && (uid_t)ti.uid == geteuid();
}

static bool thr_why(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value, int err,
		    char *buf, size_t cap)
{
	buf[0] = '\0';
	if (!ctx->root->live) { /* a file write: the generic words, but these */
		if (err == -ESRCH)
			snprintf(buf, cap, "the thread is gone from the tree");
		else if (err == -EOPNOTSUPP)
			snprintf(buf, cap,
				 "the tree's sched file has no uclamp lines (a kernel without "
				 "CONFIG_UCLAMP_TASK)");
		return buf[0] != '\0';
	}
	thread_knob_why(ref_tid(ref), ref->def->leaf, value, err, buf, cap);
	return buf[0] != '\0';
}

static void thr_notes(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
		      struct sbuf *report)
{
	const struct thread_leaf_ops *l = ref_leaf(ref);

	(void)value;
	if (l && l->notes)
		l->notes(ctx, ref, report);
}

static void thr_shell(const struct knob_ref *ref, const char *value, char *buf, size_t cap)
{
	const struct thread_leaf_ops *l = ref_leaf(ref);

	if (l && ref_in_tree(ref))
		snprintf(buf, cap, "# %s/%s: %s %s (the tree's thread, no syscall)", ref->dir,
			 l->tree_file, l->name, value);
	else if (l && l->shell)
		l->shell(l, (int)ref_tid(ref), value, buf, cap);
	else if (l)
		snprintf(buf, cap, "%s%s%s%d", l->shell_cmd, value, l->shell_tid,
			 (int)ref_tid(ref));
	else
		snprintf(buf, cap, "# %s=%s", ref->addr, value);
}
static void thr_replaced(const struct knob_ref *now, const char *recorded, char *why, size_t cap)
{
	unsigned long long was = 0, is = (unsigned long long)ref_start(now);
	char rb[48], nb[48], rk[64], nk[64];
	const char *key = "pidfs";

	if (!recorded || sscanf(recorded, "start=%llu", &was) != 1)
		was = 0;
	if (was != is) {
		snprintf(why, cap,
			 "thread %s was replaced since (the journal recorded start time %llu, tid "
			 "%s now belongs to a thread started at %llu): not touched",
			 now->obj, was, now->obj, is);
		return;
	}
	ident_key(recorded, "boot", rb, sizeof(rb));
	ident_key(now->ident, "boot", nb, sizeof(nb));
	if (!ident_key(recorded, key, rk, sizeof(rk)))
		key = "comm";
	ident_key(recorded, key, rk, sizeof(rk));
	ident_key(now->ident, key, nk, sizeof(nk));
	if (!rb[0] && !rk[0])
		snprintf(why, cap,
			 "thread %s: the journal recorded only its start time %llu (an older "
			 "tunetop), which cannot tell a tid reused within one clock tick: not "
			 "touched",
			 now->obj, was);
	else if (strcmp(rb, nb))
		snprintf(why, cap,
			 "thread %s is gone: the change was made under boot id %s, this is boot "
			 "%s: not touched",
			 now->obj, rb[0] ? rb : "n/a", nb[0] ? nb : "n/a");
	else
		snprintf(why, cap,
			 "thread %s is gone: tid %s now belongs to another thread started in the "
			 "same clock tick (%s %s, the journal recorded %s): not touched",
			 now->obj, now->obj, key, nk[0] ? nk : "n/a", rk[0] ? rk : "n/a");
}

const struct knob_ops fam_thread_ops = {
	.read = thr_read,
	.write = thr_write,
	.restore = thr_restore,
	.validate = thr_validate,
	.allowed = thr_allowed,
	.writable = thr_writable,
	.why = thr_why,
	.notes = thr_notes,
	.shell = thr_shell,
	.replaced = thr_replaced,
};

/* ---- expansion -------------------------------------------------------------------- */

/* The refs of thread ti of root r. A tree's ref targets the leaf's file
 * and field ("proc/PID/task/TID/stat (nice)"), a live one the syscall
 * ("proc/PID/task/TID (setpriority)"). */
static int add_thread_refs(const struct sysroot *root, const struct tinfo *ti, const char *leafsel,
			   struct refvec *out)
{
	char ident[sizeof(((struct knob_ref *)0)->ident)];
	int added = 0;

	make_ident_in(root, ti, ident, sizeof(ident));

	for (size_t k = 0; k < thread_nleaves; k++) {
		const struct thread_leaf_ops *l = &thread_leaves[k];
		const struct knob_def *d = knob_def_find("thread", l->name);
		struct knob_ref *r;

		if (!d || !knob_glob_match(leafsel, l->name))
			continue;
		r = refvec_add(out);
		r->def = d;
		snprintf(r->addr, sizeof(r->addr), "thread/%d/%s", (int)ti->tid, l->name);
		snprintf(r->obj, sizeof(r->obj), "%d", (int)ti->tid);
		snprintf(r->dir, sizeof(r->dir), "proc/%d/task/%d", (int)ti->tgid, (int)ti->tid);
		if (root->live)
			snprintf(r->target, sizeof(r->target), "proc/%d/task/%d (%s)",
				 (int)ti->tgid, (int)ti->tid, l->syscall);
		else
			snprintf(r->target, sizeof(r->target), "proc/%d/task/%d/%s (%s)",
				 (int)ti->tgid, (int)ti->tid, l->tree_file, l->name);
		str_copy(r->ident, sizeof(r->ident), ident);
		snprintf(r->note, sizeof(r->note), "%s, pid %d%s", ti->comm, (int)ti->tgid,
			 ti->kernel ? ", kernel thread" : "");
		added++;
	}
	return added;
}

static int leaf_selector(const char *fam, char **seg, size_t nseg, unsigned flags,
			 const char **leaf, char **cause)
{
	if (nseg < 2) {
		if (!(flags & KNOB_EXPAND_PREFIX)) {
			knob_cause(cause,
				   "incomplete knob address: expected %s/%s/<affinity|policy|nice|"
				   "uclamp_min|uclamp_max>",
				   fam,
				   nseg ? seg[0] : (!strcmp(fam, "thread") ? "<tid>" : "<pid>"));
			return -EINVAL;
		}
		*leaf = "*";
	} else {
		*leaf = seg[1];
	}
	if (nseg > 2) {
		knob_cause(cause, "unknown knob address '%s/%s/%s/%s': too many segments", fam,
			   seg[0], seg[1], seg[2]);
		return -ENOENT;
	}
	if (!knob_is_glob(*leaf)) {
		if (!thread_leaf_find(*leaf)) {
			knob_cause(
				cause,
				"unknown knob '%s/%s/%s' (knobs: affinity policy nice uclamp_min "
				"uclamp_max)",
				fam, seg[0], *leaf);
			return -ENOENT;
		}
	}
	return 0;
}

static int parse_id(const char *fam, const char *s, pid_t *id, char **cause)
{
	int v;

	if (knob_is_glob(s) || !strcmp(s, "all")) {
		knob_cause(cause,
			   "%s/%s: name one %s id (tunetop does not change every thread at once%s)",
			   fam, s, !strcmp(fam, "thread") ? "thread" : "process",
			   !strcmp(fam, "thread") ? "; process/<pid>/... covers a process" : "");
		return -EINVAL;
	}
	if (str_to_int(s, &v) != 0 || v <= 0) {
		knob_cause(cause, "%s/%s: not a %s id (a positive number)", fam, s,
			   !strcmp(fam, "thread") ? "thread" : "process");
		return -EINVAL;
	}
	*id = (pid_t)v;
	return 0;
}

/* The start of family/<id>/<leaf> (thread/<tid>/..., process/<pid>/...):
 * the id, the leaf selector and the live thread's info. 0, 1 when there is
 * nothing to expand (a prefix listing: listing everything does not list
 * every thread), or -errno with *cause. */
static int expand_start(const struct sysroot *r, const char *family, const char *idname, char **seg,
			size_t nseg, unsigned flags, pid_t *id, const char **leaf, struct tinfo *ti,
			char **cause)
{
	int e;

	if (nseg == 0) {
		if (flags & KNOB_EXPAND_PREFIX)
			return 1;
		knob_cause(cause, "incomplete knob address: expected %s/<%s>/<knob>", family,
			   idname);
		return -EINVAL;
	}
	e = parse_id(family, seg[0], id, cause);
	if (!e)
		e = leaf_selector(family, seg, nseg, flags, leaf, cause);
	if (e)
		return e;
	e = thread_at(r, *id, ti);
	if (e) {
		knob_cause(cause, "%s/%d: %s: no %s %d %s", family, (int)*id, err_name(e), family,
			   (int)*id,
			   r->live ? "(it exited, or never existed)"
				   : "in this tree (its proc/ has no such thread; a --root tree's "
				     "threads are its own, not this machine's)");
		return e;
	}
	return 0;
}

int fam_thread_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
		      struct refvec *out, char **cause)
{
	const char *leaf;
	struct tinfo ti;
	pid_t tid;
	int e;

	e = expand_start(ctx->root, "thread", "tid", seg, nseg, flags, &tid, &leaf, &ti, cause);
	if (e)
		return e < 0 ? e : 0;
	add_thread_refs(ctx->root, &ti, leaf, out);
	return 0;
}

static int cmp_tid(const void *a, const void *b)
{
	int x = atoi(*(char *const *)a), y = atoi(*(char *const *)b);

	return x < y ? -1 : x > y;
}

int fam_process_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
		       struct refvec *out, char **cause)
{
	const char *leaf;
	struct sysfs_list l;
	struct tinfo ti;
	char path[64];
	pid_t pid;
	size_t n0 = out->n;
	int e;

	e = expand_start(ctx->root, "process", "pid", seg, nseg, flags, &pid, &leaf, &ti, cause);
	if (e)
		return e < 0 ? e : 0;
	if (ti.tgid != pid) {
		knob_cause(cause,
			   "process/%d: %d is a thread of process %d: use thread/%d/... or "
			   "process/%d/...",
			   (int)pid, (int)pid, (int)ti.tgid, (int)pid, (int)ti.tgid);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "proc/%d/task", (int)pid);
	e = sysfs_list(ctx->root->live ? sysroot_live() : ctx->root, path, &l);
	if (e) {
		knob_cause(cause, "process/%d: %s from /%s: cannot list its threads", (int)pid,
			   err_name(e), path);
		return e == -ENOENT ? -ESRCH : e;
	}
	qsort(l.names, l.n, sizeof(char *), cmp_tid);
	for (size_t i = 0; i < l.n; i++) {
		int tid;

		char dir[TT_PATH_MAX];

		snprintf(dir, sizeof(dir), "%s/%s", path, l.names[i]);
		if (str_to_int(l.names[i], &tid) != 0 ||
		    (ctx->root->live ? tinfo_read((pid_t)tid, &ti)
				     : tinfo_read_at(ctx->root, dir, (pid_t)tid, &ti)) != 0)
			continue; /* exited meanwhile */
		add_thread_refs(ctx->root, &ti, leaf, out);
	}
	sysfs_list_free(&l);
	if (out->n == n0) {
		knob_cause(cause, "process/%d: ESRCH: it has no threads left (it exited)",
			   (int)pid);
		return -ESRCH;
	}
	return 0;
}

/* A thread knob, thread/<tid>/LEAF, read and written by fam_thread_ops;
 * a uclamp bound (0..1024, the min or max of the pair). */
#define THREAD_DEF(leaf_, ...)                                                                     \
	{                                                                                          \
		.fam = &fam_thread, .leaf = leaf_, .pattern = "thread/<tid>/" leaf_,               \
		.scope = KS_THREAD, .unit = "", .ops = &fam_thread_ops, __VA_ARGS__                \
	}
#define UCLAMP_DEF(leaf_, flag, help_)                                                             \
	THREAD_DEF(leaf_, .type = KT_U64, .allow = KA_RANGE, .lo = 0, .hi = 1024,                  \
		   .allow_what = "range", .flags = flag, .observe = KO_THREAD_ATTR, .help = help_)

/* clang-format off */
static const struct knob_def thread_defs[] = {
	THREAD_DEF("affinity", .type = KT_CPULIST, .allow_what = "online CPUs",
		   .observe = KO_THREAD_AFF,
		   .help = "CPUs the thread may run on (sched_setaffinity; process/<pid>/affinity = "
			   "every thread); pin the latency thread to an isolated CPU"),
	THREAD_DEF("policy", .type = KT_ENUM, .allow_what = "policies", .observe = KO_THREAD_ATTR,
		   .help = "scheduling policy: other | batch | idle | fifo:N | rr:N (N 1..99); RT "
			   "threads preempt every normal thread on their CPU"),
	THREAD_DEF("nice", .type = KT_I64, .allow = KA_RANGE, .lo = -20, .hi = 19,
		   .allow_what = "range", .observe = KO_THREAD_ATTR,
		   .help = "nice value of this thread only (-20..19); lowering it needs "
			   "CAP_SYS_NICE"),
	UCLAMP_DEF("uclamp_min", KD_MIN,
		   "utilization floor 0..1024 (sched_setattr); only schedutil turns it into "
		   "frequency: interactive, ondemand and performance ignore it"),
	UCLAMP_DEF("uclamp_max", KD_MAX,
		   "utilization ceiling 0..1024 (sched_setattr); caps the frequency schedutil "
		   "picks for this thread"),
};
/* clang-format on */

KNOB_FAMILY(thread, .expand = fam_thread_expand);

/* process/<pid>/<leaf>: the thread knobs of every thread of a process (the
 * refs carry the thread definitions above) */
const struct knob_family fam_process = {
	.name = "process",
	.expand = fam_process_expand,
};

int knob_addr_task(const char *addr, int *id, bool *process)
{
	const struct knob_family *f = addr ? knob_family_of(addr) : NULL;
	const char *s;
	char *end;
	long v;

	if (f != &fam_thread && f != &fam_process)
		return -EINVAL;
	s = addr + strlen(f->name);
	if (*s != '/')
		return -EINVAL;
	s++;
	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || errno || (*end && *end != '/' && *end != '=') || v <= 0 || v > 0x7fffffffL)
		return -EINVAL;
	*id = (int)v;
	*process = f == &fam_process;
	return 0;
}

/* ---- typed addresses (knob_addr.h) ---- */

KNOB_ADDR_BUILDER(knob_addr_thread, (int tid), "thread/%d", tid)

KNOB_ADDR_BUILDER(knob_addr_thread_affinity, (int tid), "thread/%d/affinity", tid)

KNOB_ADDR_BUILDER(knob_addr_thread_uclamp_min, (int tid), "thread/%d/uclamp_min", tid)

KNOB_ADDR_BUILDER(knob_addr_thread_policy, (int tid), "thread/%d/policy", tid)

KNOB_ADDR_BUILDER(knob_addr_process, (int pid), "process/%d", pid)
