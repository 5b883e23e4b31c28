/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Opening and reading the files a user names: profiles, themes, tunetoprc,
 * recordings and the undo journal. Unlike the kernel files of sysroot.c
 * these may be anything the user points at, so each open is non-blocking
 * (a FIFO must not hang the program), close-on-exec, checked with fstat to
 * be a regular file and held to a size limit per kind of file. */
#include "sysfs/userfile.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/exe.h"
#include "core/xalloc.h"
#include "sysfs/sysroot.h"

int userfile_check_fd(int fd, uint64_t max)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (max && (uint64_t)st.st_size > max)
		return -EFBIG;
	return 0;
}

int userfile_open(const char *path, int flags, mode_t mode, uint64_t max)
{
	struct stat st;
	int fd, e, fl;

	if (!path || !*path)
		return -ENOENT;
	/* Refuse a device before opening it: opening one can act (a tape, a
	 * watchdog). The fstat below is the check that counts. */
	if (((flags & O_NOFOLLOW) ? lstat(path, &st) : stat(path, &st)) == 0 &&
	    !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return -EINVAL;
	fd = open(path, flags | O_NONBLOCK | O_CLOEXEC, mode);
	if (fd < 0)
		return errno == ENXIO ? -EINVAL : -errno; /* a FIFO without a reader */
	e = userfile_check_fd(fd, max);
	if (!e) {
		fl = fcntl(fd, F_GETFL);
		if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0)
			e = -errno;
	}
	if (e) {
		close(fd);
		return e;
	}
	return fd;
}

int userfile_read(const char *path, int flags, uint64_t max, char **out, size_t *len)
{
	struct stat st;
	size_t cap, n = 0;
	char *b;
	int e, fd = userfile_open(path, O_RDONLY | (flags & O_NOFOLLOW), 0, max);

	*out = NULL;
	if (len)
		*len = 0;
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) != 0) {
		e = -errno;
		close(fd);
		return e;
	}
	cap = (size_t)st.st_size + 1 < 4096 ? 4096 : (size_t)st.st_size + 1;
	b = xmalloc(cap);
	e = sysfs_fd_read_all(fd, &b, &cap, &n, (size_t)max, true); /* -EFBIG: grew meanwhile */
	close(fd);
	if (e) {
		free(b);
		return e;
	}
	*out = b;
	if (len)
		*len = n;
	return 0;
}

const char *userfile_strerror(int err, uint64_t max)
{
	static _Thread_local char buf[48];

	if (err < 0)
		err = -err;
	if (err == EINVAL)
		return "not a regular file";
	if (err == EFBIG && max) {
		if (max % (1ull << 30) == 0)
			snprintf(buf, sizeof(buf), "larger than %llu GiB",
				 (unsigned long long)(max >> 30));
		else if (max % (1ull << 20) == 0)
			snprintf(buf, sizeof(buf), "larger than %llu MiB",
				 (unsigned long long)(max >> 20));
		else if (max % 1024 == 0)
			snprintf(buf, sizeof(buf), "larger than %llu KiB",
				 (unsigned long long)(max >> 10));
		else
			snprintf(buf, sizeof(buf), "larger than %llu bytes",
				 (unsigned long long)max);
		return buf;
	}
	return strerror(err);
}

/* No build path is compiled in (two builds in different directories give
 * the same binary, issue 34): the build writes tunetop.srcdir, one line with
 * the source tree's absolute path, next to the program (Makefile.am); an
 * installed binary has no such file beside it. */
const char *userfile_source_tree(void)
{
	static char src[PATH_MAX];
	static int known = -1;

	if (known < 0) {
		char dir[PATH_MAX], path[PATH_MAX + 16], *text = NULL;

		known = 0;
		if (exe_dir(dir, sizeof(dir)) == 0 &&
		    snprintf(path, sizeof(path), "%s/tunetop.srcdir", dir) < (int)sizeof(path) &&
		    userfile_read(path, 0, PATH_MAX, &text, NULL) == 0) {
			text[strcspn(text, "\n")] = '\0';
			known = text[0] == '/' && realpath(text, src) != NULL;
		}
		free(text);
	}
	return known ? src : NULL;
}

/* ---- output files written whole (issue 14) ---- */

int userfile_write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int userfile_out_open(struct userfile_out *o, const char *path)
{
	size_t cap = strlen(path) + 32;
	int e;

	o->path = path;
	o->tmp = xmalloc(cap);
	snprintf(o->tmp, cap, "%s.tmp.%ld", path, (long)getpid());
	/* O_NONBLOCK and the check: a FIFO planted at the temporary name is
	 * an error, never a wait for a reader */
	o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
		     0644);
	if (o->fd < 0)
		e = errno == ENXIO ? -EINVAL : -errno;
	else if ((e = userfile_check_fd(o->fd, 0)) != 0)
		close(o->fd);
	if (e) {
		o->fd = -1;
		free(o->tmp);
		o->tmp = NULL;
		return e;
	}
	return 0;
}

int userfile_out_commit(struct userfile_out *o, int e)
{
	if (close(o->fd) && !e)
		e = -errno;
	o->fd = -1;
	if (!e && rename(o->tmp, o->path))
		e = -errno;
	if (e)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	return e;
}
