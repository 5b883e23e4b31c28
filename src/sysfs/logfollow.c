/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The log follower (logfollow.h): owns the open log file, the offset read so
 * far, the partial last line, and the detection of rotation (another inode
 * under the path), truncation (size below the offset) and deletion (the
 * path missing for longer than the grace time), all by polling fstat/stat
 * and pread. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/timeutil.h"
#include "core/xalloc.h"
#include "sysfs/logfollow.h"
#include "sysfs/sysroot.h"
#include "sysfs/userfile.h"

#define CHUNK (64u << 10)

void logfollow_cfg_init(struct logfollow_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->start_wait_ms = LOGFOLLOW_DEFAULT_START_WAIT_MS;
	c->gone_wait_ms = LOGFOLLOW_DEFAULT_GONE_WAIT_MS;
	c->max_line = LOGFOLLOW_DEFAULT_MAX_LINE;
}

static int stop(struct logfollow *f, int err, const char *what, const char *detail)
{
	snprintf(f->why, sizeof(f->why), "metric file %s: %s%s%s", f->path, what, detail ? " " : "",
		 detail ? detail : "");
	f->err = err;
	f->stopped = true;
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	return err;
}

/* "2 s)", to close the parenthesis the message opened */
static void secs(char *buf, size_t cap, unsigned ms)
{
	if (ms < 1000)
		snprintf(buf, cap, "%u ms)", ms);
	else if (ms % 1000)
		snprintf(buf, cap, "%.1f s)", ms / 1000.0);
	else
		snprintf(buf, cap, "%u s)", ms / 1000);
}

/* Open the path; 0, -ENOENT (not there), or another -errno. */
static int try_open(struct logfollow *f, bool at_end)
{
	struct stat st;
	int fd = userfile_open(f->path, O_RDONLY, 0, 0);

	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		int e = -errno;

		close(fd);
		return e;
	}
	f->fd = fd;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->pos = at_end ? st.st_size : 0;
	f->npart = 0;
	f->skipping = false;
	f->opened_once = true;
	f->gone_since = 0;
	return 0;
}

int logfollow_open(struct logfollow *f, const char *path, const struct logfollow_cfg *cfg)
{
	int e;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	if (cfg)
		f->cfg = *cfg;
	else
		logfollow_cfg_init(&f->cfg);
	if (!f->cfg.max_line)
		f->cfg.max_line = LOGFOLLOW_DEFAULT_MAX_LINE;
	f->path = xstrdup(path);
	f->t_start = time_mono_ns();
	e = try_open(f, !(f->cfg.flags & LOGFOLLOW_FROM_START));
	if (e == -ENOENT)
		return 0; /* waited for by the polls */
	if (e)
		return stop(f, e, userfile_strerror(-e, 0), NULL);
	return 0;
}

static void emit(struct logfollow *f, logfollow_line_fn fn, void *arg)
{
	f->part = xgrow(f->part, &f->cappart, f->npart + 1, 1);
	f->part[f->npart] = '\0';
	f->lines++;
	if (fn)
		fn(arg, f->part, f->npart);
	f->npart = 0;
}

static void feed(struct logfollow *f, const char *buf, size_t n, logfollow_line_fn fn, void *arg)
{
	while (n) {
		const char *nl = memchr(buf, '\n', n);
		size_t k = nl ? (size_t)(nl - buf) : n;

		if (!f->skipping) {
			if (f->npart + k > f->cfg.max_line) {
				f->skipping = true;
				f->long_lines++;
				f->npart = 0;
			} else {
				f->part = xgrow(f->part, &f->cappart, f->npart + k + 1, 1);
				memcpy(f->part + f->npart, buf, k);
				f->npart += k;
			}
		}
		if (!nl)
			return;
		if (f->skipping)
			f->skipping = false;
		else
			emit(f, fn, arg);
		buf += k + 1;
		n -= k + 1;
	}
}

/* Read the open file from pos to its end. */
static int drain(struct logfollow *f, logfollow_line_fn fn, void *arg)
{
	char *buf = xmalloc(CHUNK);
	int e = 0;

	for (;;) {
		ssize_t k = sysfs_fd_read(f->fd, buf, CHUNK, f->pos);

		if (k < 0) {
			e = (int)k;
			break;
		}
		if (k == 0)
			break;
		f->pos += k;
		f->bytes += (uint64_t)k;
		feed(f, buf, (size_t)k, fn, arg);
	}
	free(buf);
	return e;
}

int logfollow_poll(struct logfollow *f, logfollow_line_fn fn, void *arg)
{
	struct stat st;
	char t[32];
	uint64_t now = time_mono_ns();
	int e;

	if (f->stopped)
		return f->err;
	if (f->fd < 0) {
		e = try_open(f, false); /* a file that appeared: all of it is new */
		if (e == -ENOENT) {
			uint64_t since = f->opened_once ? f->gone_since : f->t_start;
			unsigned lim = f->opened_once ? f->cfg.gone_wait_ms : f->cfg.start_wait_ms;

			if (!since)
				since = f->gone_since = now;
			if (now - since >= (uint64_t)lim * 1000000u) {
				secs(t, sizeof(t), lim);
				return stop(f, -ENOENT,
					    f->opened_once ? "deleted (no new file after"
							   : "does not exist (waited",
					    t);
			}
			return 0;
		}
		if (e)
			return stop(f, e, userfile_strerror(-e, 0), NULL);
	}
	/* truncated below what was read: start again */
	if (fstat(f->fd, &st) == 0 && st.st_size < f->pos) {
		f->pos = 0;
		f->npart = 0;
		f->skipping = false;
		f->truncations++;
	}
	e = drain(f, fn, arg);
	if (e)
		return stop(f, e, "read:", strerror(-e));
	if (stat(f->path, &st)) {
		if (errno != ENOENT)
			return stop(f, -errno, strerror(errno), NULL);
		/* gone: keep the old fd (an app may still write to it) until a new
		 * file appears or the grace time runs out */
		if (!f->gone_since)
			f->gone_since = now;
		if (now - f->gone_since >= (uint64_t)f->cfg.gone_wait_ms * 1000000u) {
			secs(t, sizeof(t), f->cfg.gone_wait_ms);
			return stop(f, -ENOENT, "deleted (no new file after", t);
		}
		return 0;
	}
	if (st.st_dev == f->dev && st.st_ino == f->ino) {
		f->gone_since = 0;
		return 0;
	}
	/* rotated: the old file is finished (read above); a last line without
	 * its newline counts too, then the new file from its start */
	if (f->npart && !f->skipping)
		emit(f, fn, arg);
	close(f->fd);
	f->fd = -1;
	f->rotations++;
	e = try_open(f, false);
	if (e == -ENOENT) { /* replaced and removed again at once */
		f->gone_since = now;
		return 0;
	}
	if (e)
		return stop(f, e, userfile_strerror(-e, 0), NULL);
	e = drain(f, fn, arg);
	if (e)
		return stop(f, e, "read:", strerror(-e));
	return 0;
}

const char *logfollow_why(const struct logfollow *f)
{
	return f->why;
}

void logfollow_close(struct logfollow *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	free(f->path);
	free(f->part);
	f->path = NULL;
	f->part = NULL;
	f->npart = f->cappart = 0;
}
