/* Root-relative file access: the one place that calls open(). */
#include "sysfs/sysroot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/str.h"
#include "core/xalloc.h"

static const char *rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

int sysroot_open(struct sysroot *r, const char *dir)
{
	char *abs;
	int fd;

	memset(r, 0, sizeof(*r));
	r->dirfd = -1;
	if (!dir || !*dir)
		dir = "/";
	abs = realpath(dir, NULL);
	if (!abs)
		return -errno;
	fd = open(abs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = -errno;

		free(abs);
		return e;
	}
	r->dirfd = fd;
	r->path = abs;
	r->live = strcmp(abs, "/") == 0;
	return 0;
}

void sysroot_close(struct sysroot *r)
{
	if (r->dirfd >= 0)
		close(r->dirfd);
	free(r->path);
	r->dirfd = -1;
	r->path = NULL;
}

const struct sysroot *sysroot_live(void)
{
	static struct sysroot live = { .dirfd = -1 };

	if (live.dirfd < 0 && sysroot_open(&live, "/") != 0)
		tt_fatal("cannot open /");
	return &live;
}

void sysroot_abspath(const struct sysroot *r, const char *path, char *buf, size_t cap)
{
	const char *p = rel(path);

	if (r->live)
		snprintf(buf, cap, "/%s", p);
	else
		snprintf(buf, cap, "%s/%s", r->path, p);
}

static void observe(const struct sysroot *r, const char *path)
{
	if (r->on_read)
		r->on_read(r->on_read_ctx, rel(path));
}

int sysfs_read(const struct sysroot *r, const char *path, char *buf, size_t cap, size_t *len)
{
	size_t got = 0;
	int fd, e = 0;

	if (cap == 0)
		return -EINVAL;
	observe(r, path);
	fd = openat(r->dirfd, rel(path), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (got == cap - 1) {
			char extra;

			n = read(fd, &extra, 1);
			if (n > 0)
				e = -EFBIG;
			else if (n < 0)
				e = -errno;
			break;
		}
		n = read(fd, buf + got, cap - 1 - got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			e = -errno;
			break;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	if (len)
		*len = got;
	return e;
}

int sysfs_read_alloc(const struct sysroot *r, const char *path, char **out, size_t *len)
{
	size_t cap = 4096, got = 0;
	char *buf;
	int fd;

	observe(r, path);
	fd = openat(r->dirfd, rel(path), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = xmalloc(cap);
	for (;;) {
		ssize_t n;

		if (cap - got < 2048) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		n = read(fd, buf + got, cap - 1 - got);
		if (n < 0) {
			int e = -errno;

			if (e == -EINTR)
				continue;
			close(fd);
			free(buf);
			return e;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*out = buf;
	if (len)
		*len = got;
	return 0;
}

int sysfs_read_str(const struct sysroot *r, const char *path, char *buf, size_t cap)
{
	char tmp[4096];
	char *t;
	int e = sysfs_read(r, path, tmp, sizeof(tmp), NULL);

	if (e)
		return e;
	t = str_trim(tmp);
	if (!*t) {
		if (cap)
			buf[0] = '\0';
		return -ENODATA;
	}
	snprintf(buf, cap, "%s", t);
	return 0;
}

int sysfs_read_u64(const struct sysroot *r, const char *path, uint64_t *out)
{
	char buf[64];
	int e = sysfs_read_str(r, path, buf, sizeof(buf));

	if (e)
		return e == -EFBIG ? -EINVAL : e;
	return str_to_u64(buf, out);
}

int sysfs_read_i64(const struct sysroot *r, const char *path, int64_t *out)
{
	char buf[64];
	int e = sysfs_read_str(r, path, buf, sizeof(buf));

	if (e)
		return e == -EFBIG ? -EINVAL : e;
	return str_to_i64(buf, out);
}

#define FMT_PATH(p, fmt)                               \
	char p[TT_PATH_MAX];                           \
	do {                                           \
		va_list ap_;                           \
		va_start(ap_, fmt);                    \
		vsnprintf(p, sizeof(p), fmt, ap_);     \
		va_end(ap_);                           \
	} while (0)

int sysfs_read_strf(const struct sysroot *r, char *buf, size_t cap, const char *fmt, ...)
{
	FMT_PATH(p, fmt);
	return sysfs_read_str(r, p, buf, cap);
}

int sysfs_read_u64f(const struct sysroot *r, uint64_t *out, const char *fmt, ...)
{
	FMT_PATH(p, fmt);
	return sysfs_read_u64(r, p, out);
}

int sysfs_read_i64f(const struct sysroot *r, int64_t *out, const char *fmt, ...)
{
	FMT_PATH(p, fmt);
	return sysfs_read_i64(r, p, out);
}

bool sysfs_existsf(const struct sysroot *r, const char *fmt, ...)
{
	FMT_PATH(p, fmt);
	return sysfs_exists(r, p);
}

int sysfs_write(const struct sysroot *r, const char *path, const char *val, size_t len)
{
	struct stat st;
	int fd, flags = O_WRONLY | O_CLOEXEC;
	ssize_t n;

	if (fstatat(r->dirfd, rel(path), &st, 0) == 0) {
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		if (S_ISREG(st.st_mode) && !r->live)
			flags |= O_TRUNC;
	}
	fd = openat(r->dirfd, rel(path), flags);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (close(fd) != 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

int sysfs_write_str(const struct sysroot *r, const char *path, const char *val)
{
	return sysfs_write(r, path, val, strlen(val));
}

bool sysfs_exists(const struct sysroot *r, const char *path)
{
	return faccessat(r->dirfd, rel(path), F_OK, 0) == 0;
}

bool sysfs_is_dir(const struct sysroot *r, const char *path)
{
	struct stat st;

	return fstatat(r->dirfd, rel(path), &st, 0) == 0 && S_ISDIR(st.st_mode);
}

bool sysfs_writable(const struct sysroot *r, const char *path)
{
	return faccessat(r->dirfd, rel(path), W_OK, AT_EACCESS) == 0;
}

int sysfs_readlink(const struct sysroot *r, const char *path, char *buf, size_t cap)
{
	ssize_t n = readlinkat(r->dirfd, rel(path), buf, cap - 1);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sysfs_list(const struct sysroot *r, const char *path, struct sysfs_list *out)
{
	int fd;
	DIR *d;
	struct dirent *de;
	size_t cap = 0;

	out->names = NULL;
	out->n = 0;
	observe(r, path);
	fd = openat(r->dirfd, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		int e = -errno;

		close(fd);
		return e;
	}
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		out->names = xgrow(out->names, &cap, out->n + 1, sizeof(char *));
		out->names[out->n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (out->n)
		qsort(out->names, out->n, sizeof(char *), cmp_names);
	return 0;
}

void sysfs_list_free(struct sysfs_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	l->names = NULL;
	l->n = 0;
}
