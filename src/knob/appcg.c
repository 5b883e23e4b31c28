/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The app's own cgroup v2 for `tunetop exec` (hold.h "follow"): a child
 * tunetop-exec-PID of tunetop's own cgroup (/proc/self/cgroup "0::PATH"
 * under the cgroup2 mount of /proc/self/mountinfo), entered by the forked
 * child before execvp, watched through cgroup.events ("populated 0" once
 * every process of the app has exited) and removed at the end; the empty
 * cgroup of a run that was killed is removed by the next one. Where systemd
 * runs the machine, a transient scope instead (hold.h): systemd-run --scope
 * moves itself into tunetop-exec-PID.scope and execs the app; tunetop finds
 * the scope's directory in /proc/PID/cgroup and only reads it. With
 * --pidfile there is no cgroup: tunetop exec is the subreaper of what CMD
 * leaves, and app_pid_ours() accepts only a process below it. Live kernel
 * state: it is never under --root. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "knob/hold.h"
#include "knob/knob_int.h"
#include "sysfs/sysroot.h"

/* The cgroup2 mount point and its root ("/" unless a namespace view). */
static int cg2_mount(char *mnt, size_t mcap, char *mroot, size_t rcap)
{
	char *text = NULL, *line, *save = NULL;
	size_t len;
	int rc = -ENOENT;

	if (sysfs_read_alloc(sysroot_live(), "proc/self/mountinfo", &text, &len) != 0)
		return -ENOENT;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sep = strstr(line, " - "), *f[6];
		char *s2 = NULL, *p;
		int k = 0;

		if (!sep || strncmp(sep + 3, "cgroup2 ", 8))
			continue;
		*sep = '\0';
		for (p = strtok_r(line, " ", &s2); p && k < 6; p = strtok_r(NULL, " ", &s2))
			f[k++] = p;
		if (k < 5)
			continue;
		str_copy(mroot, rcap, f[3]);
		str_copy(mnt, mcap, f[4]);
		rc = 0;
		break;
	}
	free(text);
	return rc;
}

/* Our cgroup v2 path ("0::/user.slice/..."). */
static int cg2_self(char *path, size_t cap)
{
	char *text = NULL, *line, *save = NULL;
	size_t len;
	int rc = -ENOENT;

	if (sysfs_read_alloc(sysroot_live(), "proc/self/cgroup", &text, &len) != 0)
		return -ENOENT;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, "0::", 3)) {
			str_copy(path, cap, line + 3);
			rc = 0;
			break;
		}
	free(text);
	return rc;
}

static int read_small(const char *abs, char *buf, size_t cap)
{
	int fd = sysfs_open(sysroot_live(), abs + 1, O_RDONLY | O_CLOEXEC);
	ssize_t k;

	if (fd < 0)
		return fd;
	k = read(fd, buf, cap - 1);
	close(fd);
	if (k < 0)
		return -errno;
	buf[k] = '\0';
	return 0;
}

/* Empty tunetop-exec-PID cgroups of runs that were killed (their pid is
 * gone, the app has ended since): removed. */
static void sweep_stale(const char *own)
{
	struct sysfs_list l;

	if (sysfs_list(sysroot_live(), own + 1, &l) != 0)
		return;
	for (size_t i = 0; i < l.n; i++) {
		char path[4200], ev[256];
		int pid;

		if (!str_starts(l.names[i], "tunetop-exec-") ||
		    str_to_int(l.names[i] + 13, &pid) != 0 || pid <= 0 || pid == (int)getpid() ||
		    kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s/cgroup.events", own, l.names[i]);
		if (read_small(path, ev, sizeof(ev)) != 0 || !strstr(ev, "populated 0"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", own, l.names[i]);
		rmdir(path);
	}
	sysfs_list_free(&l);
}

/* An executable NAME in $PATH, into out. */
static bool in_path(const char *name, char *out, size_t cap)
{
	const char *path = getenv("PATH"), *p, *end;

	for (p = path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if (end > p && snprintf(out, cap, "%.*s/%s", (int)(end - p), p, name) < (int)cap &&
		    access(out, X_OK) == 0)
			return true;
	}
	return false;
}

/* Use a systemd scope? 1 with cg->runner set, 0 no, -errno with why when
 * TUNETOP_SYSTEMD_RUN names a program that cannot run. */
static int scope_runner(struct app_cgroup *cg, char *why, size_t cap)
{
	const char *env = getenv("TUNETOP_SYSTEMD_RUN");
	char dir[512];
	struct stat st;

	if (env) {
		if (!env[0] || !strcmp(env, "no"))
			return 0;
		if (access(env, X_OK) != 0) {
			int e = -errno;

			snprintf(why, cap, "TUNETOP_SYSTEMD_RUN=%s: %s", env, strerror(-e));
			return e;
		}
		str_copy(cg->runner, sizeof(cg->runner), env);
		return 1;
	}
	/* sd_booted(): systemd is the init of this machine */
	if (stat("/run/systemd/system", &st) != 0 || !S_ISDIR(st.st_mode))
		return 0;
	/* not root: the user's own manager, when it runs */
	if (geteuid() != 0) {
		const char *rt = getenv("XDG_RUNTIME_DIR");

		if (!rt ||
		    snprintf(dir, sizeof(dir), "%s/systemd/private", rt) >= (int)sizeof(dir) ||
		    access(dir, F_OK) != 0)
			return 0;
	}
	return in_path("systemd-run", cg->runner, sizeof(cg->runner));
}

int app_cgroup_create(struct app_cgroup *cg, char *why, size_t cap)
{
	char mnt[1024], mroot[1024], self[2048], own[4096], buf[256], path[4200];
	const char *rel;
	int e;

	memset(cg, 0, sizeof(*cg));
	cg->procs_fd = -1;
	if (cg2_mount(mnt, sizeof(mnt), mroot, sizeof(mroot)) != 0) {
		snprintf(why, cap, "no cgroup v2 is mounted");
		return -ENOENT;
	}
	e = scope_runner(cg, why, cap);
	if (e < 0)
		return e;
	if (e > 0) {
		cg->scope = true;
		snprintf(cg->unit, sizeof(cg->unit), "tunetop-exec-%d.scope", (int)getpid());
		snprintf(cg->unit_arg, sizeof(cg->unit_arg), "--unit=%s", cg->unit);
		str_copy(cg->mnt, sizeof(cg->mnt), mnt);
		str_copy(cg->mroot, sizeof(cg->mroot), mroot);
		cg->active = true;
		return 0;
	}
	if (cg2_self(self, sizeof(self)) != 0) {
		snprintf(why, cap, "/proc/self/cgroup names no cgroup v2");
		return -ENOENT;
	}
	rel = self;
	if (strcmp(mroot, "/") && str_starts(self, mroot))
		rel = self + strlen(mroot);
	snprintf(own, sizeof(own), "%s%s", mnt, strcmp(rel, "/") ? rel : "");
	/* a threaded cgroup, or one that gives controllers to its children
	 * while tunetop is in it (only the root may), cannot take a child we
	 * could move the app into */
	snprintf(path, sizeof(path), "%s/cgroup.type", own);
	if (read_small(path, buf, sizeof(buf)) == 0 && strcmp(str_trim(buf), "domain")) {
		snprintf(why, cap, "tunetop's cgroup %s is of type '%s', not a domain cgroup", own,
			 buf);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", own);
	if (strcmp(rel, "/") && read_small(path, buf, sizeof(buf)) == 0 && str_trim(buf)[0]) {
		snprintf(why, cap,
			 "tunetop's cgroup %s has processes and gives controllers (%s) to its "
			 "children: no place for a child cgroup with the app",
			 own, buf);
		return -EBUSY;
	}
	sweep_stale(own);
	snprintf(cg->dir, sizeof(cg->dir), "%s/tunetop-exec-%d", own, (int)getpid());
	if (mkdir(cg->dir, 0755) != 0 && errno != EEXIST) {
		e = -errno;
		snprintf(why, cap, "%s: %s", cg->dir, strerror(-e));
		return e;
	}
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg->dir);
	cg->procs_fd = sysfs_open(sysroot_live(), path + 1, O_WRONLY | O_CLOEXEC);
	if (cg->procs_fd < 0) {
		e = cg->procs_fd;
		snprintf(why, cap, "%s: %s", path, strerror(-e));
		rmdir(cg->dir);
		cg->procs_fd = -1;
		return e;
	}
	cg->active = true;
	return 0;
}

char **app_cgroup_argv(struct app_cgroup *cg, char *const *cmd)
{
	static char fixed[][12] = {"--scope", "--quiet", "--collect"};
	static char user[] = "--user", dashes[] = "--";
	size_t n = 0, k = 0, nf = sizeof(fixed) / sizeof(fixed[0]);
	char **argv;

	if (!cg->active || !cg->scope)
		return NULL;
	while (cmd[n])
		n++;
	/* runner, fixed, --unit=, --user, --, cmd, NULL */
	argv = xmalloc((1 + nf + 3 + n + 1) * sizeof(*argv));
	argv[k++] = cg->runner;
	for (size_t i = 0; i < nf; i++)
		argv[k++] = fixed[i];
	argv[k++] = cg->unit_arg;
	if (geteuid() != 0)
		argv[k++] = user;
	argv[k++] = dashes;
	for (size_t i = 0; i < n; i++)
		argv[k++] = cmd[i];
	argv[k] = NULL;
	return argv;
}

int app_cgroup_locate(struct app_cgroup *cg, pid_t pid)
{
	char rel[64], text[4096], *line, *save = NULL, *p;
	size_t len;
	int e;

	if (!cg->scope || cg->dir[0])
		return cg->dir[0] ? 1 : 0;
	snprintf(rel, sizeof(rel), "proc/%d/cgroup", (int)pid);
	e = sysfs_read(sysroot_live(), rel, text, sizeof(text), &len);
	if (e)
		return e;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "0::", 3))
			continue;
		p = strrchr(line + 3, '/');
		if (!p || strcmp(p + 1, cg->unit))
			return 0;
		p = line + 3;
		if (strcmp(cg->mroot, "/") && str_starts(p, cg->mroot))
			p += strlen(cg->mroot);
		snprintf(cg->dir, sizeof(cg->dir), "%s%s", cg->mnt, p);
		return 1;
	}
	return 0;
}

int app_cgroup_enter(const struct app_cgroup *cg)
{
	char num[24], *p = num + sizeof(num);
	unsigned long v = (unsigned long)getpid();

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (write(cg->procs_fd, p, (size_t)(num + sizeof(num) - p)) < 0)
		return -errno;
	return 0;
}

int app_cgroup_populated(const struct app_cgroup *cg)
{
	char path[4200], buf[256], *p;
	int e;

	if (!cg->dir[0])
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/cgroup.events", cg->dir);
	e = read_small(path, buf, sizeof(buf));
	/* a collected scope is removed by systemd once empty */
	if (e == -ENOENT && cg->scope)
		return 0;
	if (e)
		return e;
	p = strstr(buf, "populated ");
	if (!p)
		return -EINVAL;
	return p[10] == '1';
}

int app_cgroup_kill(const struct app_cgroup *cg, int sig, pid_t skip_pgrp)
{
	char path[4200], *text = NULL, *line, *save = NULL;
	size_t len;
	int n = 0;

	if (!cg->dir[0])
		return 0;
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg->dir);
	if (sysfs_read_alloc(sysroot_live(), path + 1, &text, &len) != 0)
		return 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int pid;

		if (str_to_int(line, &pid) == 0 && pid > 0 &&
		    !(skip_pgrp && getpgid(pid) == skip_pgrp) && kill(pid, sig) == 0)
			n++;
	}
	free(text);
	return n;
}

int app_cgroup_remove(struct app_cgroup *cg)
{
	int e = 0;

	if (!cg->active)
		return 0;
	if (cg->scope) { /* systemd's: --collect removes it once empty */
		cg->active = false;
		return 0;
	}
	if (cg->procs_fd >= 0)
		close(cg->procs_fd);
	cg->procs_fd = -1;
	/* the last exit is reported before the cgroup can go: retry briefly */
	for (int i = 0; i < 50; i++) {
		struct timespec ts = {0, 20 * 1000 * 1000};

		if (rmdir(cg->dir) == 0 || errno == ENOENT) {
			e = 0;
			break;
		}
		e = -errno;
		if (e != -EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	cg->active = false;
	return e;
}

/* The real uid of a live process (Uid: line of /proc/PID/status). */
static int pid_uid(pid_t pid, unsigned *uid)
{
	char rel[64], text[4096], *p;
	size_t len;

	snprintf(rel, sizeof(rel), "proc/%d/status", (int)pid);
	if (sysfs_read(sysroot_live(), rel, text, sizeof(text), &len) != 0)
		return -ESRCH;
	p = strstr(text, "\nUid:");
	if (!p || sscanf(p + 5, "%u", uid) != 1)
		return -EINVAL;
	return 0;
}

int app_pid_ours(pid_t pid, unsigned *uid)
{
	int cur = (int)pid, pp;
	char state;

	*uid = 0;
	if (pid <= 1 || pid == getpid())
		return -ECHILD;
	if (pid_uid(pid, uid) != 0 || knob_pid_stat(pid, &state, NULL, NULL) != 0)
		return -ESRCH;
	if (state == 'Z' || state == 'X')
		return -ESRCH;
	if (*uid != (unsigned)getuid())
		return -EPERM;
	/* up the parents: this process (CMD's parent and, as subreaper, the
	 * parent of everything CMD leaves behind) must come before pid 1 */
	for (int depth = 0; depth < 4096; depth++) {
		if (knob_pid_stat(cur, NULL, NULL, &pp) != 0)
			return -ESRCH;
		if (pp == (int)getpid())
			return 0;
		if (pp <= 1)
			return -ECHILD;
		cur = pp;
	}
	return -ECHILD;
}
