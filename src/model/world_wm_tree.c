/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a model world (model/world_wm.h) adds to its board's tree at unpack:
 * the files the bundle lacks and the application's threads in proc/. Apart
 * from world_wm.c so that world.c, which calls it, and the adapter's hooks,
 * which call world.c, make no cycle. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knob/knob.h"
#include "model/world_wm.h"

/* Write text to dir/rel, making its directories. 0 or -errno (err). */
static int put_file(const char *dir, const char *rel, const char *text, char *err, size_t cap)
{
	char path[PATH_MAX];
	size_t len = strlen(text);
	ssize_t k;
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >= (int)sizeof(path) ||
	    strstr(rel, "..") || rel[0] == '/') {
		snprintf(err, cap, "%s/%s: not a path inside the tree", dir, rel);
		return -EINVAL;
	}
	for (char *s = strchr(path + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			int e = errno;

			snprintf(err, cap, "%s: %s", path, strerror(e));
			return -e;
		}
		*s = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		int e = errno;

		snprintf(err, cap, "%s: %s", path, strerror(e));
		return -e;
	}
	k = write(fd, text, len);
	close(fd);
	if (k != (ssize_t)len) {
		snprintf(err, cap, "%s: short write", path);
		return -EIO;
	}
	return 0;
}

/* The kernel's numbers of a thread: stat's priority field and sched's prio. */
static int stat_prio(const struct world_wm_thread *t)
{
	return t->policy ? -1 - t->rt_prio : 20 + t->nice;
}

static int sched_prio(const struct world_wm_thread *t)
{
	return t->policy ? 99 - t->rt_prio : 120 + t->nice;
}

/* The word the kernel shows after the state letter in status. */
static const char *state_name(char state)
{
	switch (state) {
	case 'R': return "running";
	case 'D': return "disk sleep";
	case 'T': return "stopped";
	default: return "sleeping";
	}
}

/* base/leaf in the tree at dir with the printf-formatted text. */
static int put_leaf(const char *dir, const char *base, const char *leaf, char *err, size_t cap,
		    const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static int put_leaf(const char *dir, const char *base, const char *leaf, char *err, size_t cap,
		    const char *fmt, ...)
{
	char rel[128], text[1024];
	va_list ap;

	snprintf(rel, sizeof(rel), "%s/%s", base, leaf);
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return put_file(dir, rel, text, err, cap);
}

static int put_thread_files(const char *dir, const char *base, const struct world_wm_thread *t,
			    int nthreads, char *err, size_t cap)
{
	int e = put_leaf(dir, base, "comm", err, cap, "%s\n", t->comm);

	if (!e)
		e = put_leaf(
			dir, base, "stat", err, cap,
			"%d (%s) %c 1 %d %d 0 -1 4194368 120 0 0 0 350 120 0 0 %d %d %d 0 4200 "
			"52428800 4096 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 %d %d 0 "
			"0 0\n",
			t->tid, t->comm, t->state, t->pid, t->pid, stat_prio(t),
			t->policy ? 0 : t->nice, nthreads, t->rt_prio, t->policy);
	if (!e)
		e = put_leaf(
			dir, base, "status", err, cap,
			"Name:\t%s\nState:\t%c (%s)\nTgid:\t%d\nPid:\t%d\nPPid:\t1\nThreads:\t%d\n"
			"Cpus_allowed_list:\t%s\nvoluntary_ctxt_switches:\t1200\n"
			"nonvoluntary_ctxt_switches:\t40\n",
			t->comm, t->state, state_name(t->state), t->pid, t->tid, nthreads, t->cpus);
	if (!e)
		e = put_leaf(
			dir, base, "sched", err, cap,
			"%s (%d, #threads: %d)\n"
			"-------------------------------------------------------------------\n"
			"se.nr_migrations                             :                   12\n"
			"nr_switches                                  :                 1240\n"
			"policy                                       :                    %d\n"
			"prio                                         :                  %d\n",
			t->comm, t->tid, nthreads, t->policy, sched_prio(t));
	return e;
}

/* The world's switches into KNOB_SIM_SWITCHES (the sim/ knob family), one
 * line each: NAME <tab> FILE <tab> ALLOWED <tab> HELP. */
static int put_switches(const struct world_wm *m, const char *dir, char *err, size_t cap)
{
	char text[4096];
	size_t len;

	len = (size_t)snprintf(text, sizeof(text),
			       "# SIMULATED switches of this world: tunetop --root DIR set "
			       "sim/NAME=VALUE (doc/teach.md)\n");
	for (size_t i = 0; i < m->n_switches && len < sizeof(text); i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s\t%s\t%s\t%s\n",
					m->switches[i].name, m->switches[i].path,
					m->switches[i].allowed, m->switches[i].help);
	if (len >= sizeof(text)) {
		snprintf(err, cap, "%s/%s: too many switches", dir, KNOB_SIM_SWITCHES);
		return -E2BIG;
	}
	return put_file(dir, KNOB_SIM_SWITCHES, text, err, cap);
}

int world_wm_unpack(const struct world_wm *m, const char *dir, char *err, size_t cap)
{
	int e = m->n_switches ? put_switches(m, dir, err, cap) : 0;

	for (size_t i = 0; !e && i < m->n_files; i++)
		e = put_file(dir, m->files[i].path, m->files[i].text, err, cap);
	for (size_t i = 0; !e && i < m->n_threads; i++) {
		const struct world_wm_thread *t = &m->threads[i];
		char base[64];
		int n = 0;

		for (size_t k = 0; k < m->n_threads; k++)
			n += m->threads[k].pid == t->pid;
		if (t->tid == t->pid) {
			snprintf(base, sizeof(base), "proc/%d", t->pid);
			e = put_thread_files(dir, base, t, n, err, cap);
		}
		snprintf(base, sizeof(base), "proc/%d/task/%d", t->pid, t->tid);
		if (!e)
			e = put_thread_files(dir, base, t, n, err, cap);
	}
	return e;
}
