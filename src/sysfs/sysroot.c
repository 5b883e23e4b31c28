/* Root-relative file access: the one place that calls open(). */
#include "sysfs/sysroot.h"

#include <dirent.h>
#include <pthread.h>
#include <sys/resource.h>
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

/* ---- the fd cache ---------------------------------------------------- */

struct fdcache_ent {
	char *path; /* NULL = empty slot */
	int fd;	    /* -1 = closed */
	dev_t dev;
	ino_t ino;
};

struct fdcache {
	pthread_mutex_t mu;
	struct fdcache_ent *tab;
	size_t cap; /* power of two */
	size_t used; /* slots with a path */
	size_t open; /* slots with an fd */
	size_t max_open;
};

static size_t cache_limit(void)
{
	static size_t limit;
	struct rlimit rl;

	if (limit)
		return limit;
	/* Raise the soft fd limit towards the hard one: a 256-CPU machine has
	 * thousands of idle-state files. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rlim_t want = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > 65536 ? 65536 : rl.rlim_max;

		if (rl.rlim_cur < want) {
			rl.rlim_cur = want;
			setrlimit(RLIMIT_NOFILE, &rl);
			getrlimit(RLIMIT_NOFILE, &rl);
		}
		limit = rl.rlim_cur > 2048 ? (size_t)rl.rlim_cur - 1024 : (size_t)rl.rlim_cur / 2;
		if (limit > 16384)
			limit = 16384;
	} else {
		limit = 256;
	}
	return limit;
}

static struct fdcache *cache_new(void)
{
	struct fdcache *c = xcalloc(1, sizeof(*c));

	pthread_mutex_init(&c->mu, NULL);
	c->cap = 256;
	c->tab = xcalloc(c->cap, sizeof(*c->tab));
	c->max_open = cache_limit();
	return c;
}

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static struct fdcache_ent *cache_slot(struct fdcache *c, const char *path)
{
	size_t i = hash_str(path) & (c->cap - 1);

	while (c->tab[i].path && strcmp(c->tab[i].path, path))
		i = (i + 1) & (c->cap - 1);
	return &c->tab[i];
}

static void cache_grow(struct fdcache *c)
{
	struct fdcache_ent *old = c->tab;
	size_t oldcap = c->cap;

	c->cap *= 2;
	c->tab = xcalloc(c->cap, sizeof(*c->tab));
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].path)
			*cache_slot(c, old[i].path) = old[i];
	free(old);
}

static void cache_flush_locked(struct fdcache *c)
{
	for (size_t i = 0; i < c->cap; i++)
		if (c->tab[i].path && c->tab[i].fd >= 0) {
			close(c->tab[i].fd);
			c->tab[i].fd = -1;
		}
	c->open = 0;
}

static bool cacheable(const char *p)
{
	if (!strncmp(p, "sys/", 4))
		return true;
	if (!strncmp(p, "proc/", 5))
		return !(p[5] >= '0' && p[5] <= '9') && strncmp(p + 5, "self", 4) &&
		       strncmp(p + 5, "thread-self", 11);
	return false;
}

void sysroot_flush(const struct sysroot *r)
{
	if (!r->cache)
		return;
	pthread_mutex_lock(&r->cache->mu);
	cache_flush_locked(r->cache);
	pthread_mutex_unlock(&r->cache->mu);
}

size_t sysroot_cached(const struct sysroot *r)
{
	return r->cache ? r->cache->open : 0;
}

static void cache_free(struct fdcache *c)
{
	if (!c)
		return;
	cache_flush_locked(c);
	for (size_t i = 0; i < c->cap; i++)
		free(c->tab[i].path);
	free(c->tab);
	pthread_mutex_destroy(&c->mu);
	free(c);
}

/* Read a whole file with pread from offset 0 on a cached fd (opening it on
 * first use). Returns the byte count or -errno; the caller holds no lock. */
static ssize_t cached_pread(const struct sysroot *r, const char *p, char **buf, size_t *cap, bool grow)
{
	struct fdcache *c = r->cache;
	struct fdcache_ent *e;
	size_t got = 0;
	int fd, tries = 0;

	pthread_mutex_lock(&c->mu);
	if ((c->used + 1) * 2 > c->cap)
		cache_grow(c);
	e = cache_slot(c, p);
	if (e->path && e->fd >= 0 && !r->live) {
		/* A fixture tree is ordinary files: one may have been deleted or
		 * replaced (sed -i) since it was opened, which sysfs never does
		 * behind an open fd. Check that the path still names that file. */
		struct stat st;

		if (fstatat(r->dirfd, p, &st, 0) != 0 || st.st_ino != e->ino || st.st_dev != e->dev) {
			close(e->fd);
			e->fd = -1;
			c->open--;
		}
	}
again:
	if (!e->path || e->fd < 0) {
		if (c->open >= c->max_open)
			cache_flush_locked(c);
		fd = openat(r->dirfd, p, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			int err = -errno;

			pthread_mutex_unlock(&c->mu);
			return err;
		}
		if (!e->path) {
			e->path = xstrdup(p);
			c->used++;
		}
		if (!r->live) {
			struct stat st;

			if (fstat(fd, &st) == 0) {
				e->dev = st.st_dev;
				e->ino = st.st_ino;
			}
		}
		e->fd = fd;
		c->open++;
	}
	got = 0;
	for (;;) {
		ssize_t n;

		if (got + 1 >= *cap) {
			if (!grow)
				break;
			*cap *= 2;
			*buf = xrealloc(*buf, *cap);
		}
		n = pread(e->fd, *buf + got, *cap - 1 - got, (off_t)got);
		if (n < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			/* A file that went away (CPU offline, device removed):
			 * drop the fd and try a fresh open once. */
			close(e->fd);
			e->fd = -1;
			c->open--;
			if (tries++ == 0 && (err == ENODEV || err == ESTALE || err == ENOENT))
				goto again;
			pthread_mutex_unlock(&c->mu);
			return -err;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		if (!grow && got + 1 < *cap)
			break; /* sysfs attributes come in one read */
	}
	pthread_mutex_unlock(&c->mu);
	(*buf)[got] = '\0';
	return (ssize_t)got;
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
	r->cache = cache_new();
	return 0;
}

void sysroot_close(struct sysroot *r)
{
	if (r->dirfd >= 0)
		close(r->dirfd);
	cache_free(r->cache);
	r->cache = NULL;
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
	if (r->cache && cacheable(rel(path))) {
		size_t c2 = cap;
		ssize_t n = cached_pread(r, rel(path), &buf, &c2, false);

		if (n < 0) {
			buf[0] = '\0';
			return (int)n;
		}
		if (len)
			*len = (size_t)n;
		if ((size_t)n + 1 >= cap) {
			/* Full buffer: is there more? */
			char *big = xmalloc(cap * 2);
			size_t bc = cap * 2;
			ssize_t m = cached_pread(r, rel(path), &big, &bc, false);

			free(big);
			if (m > n)
				return -EFBIG;
		}
		return 0;
	}
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
	if (r->cache && cacheable(rel(path))) {
		ssize_t n;

		buf = xmalloc(cap);
		n = cached_pread(r, rel(path), &buf, &cap, true);
		if (n < 0) {
			free(buf);
			return (int)n;
		}
		*out = buf;
		if (len)
			*len = (size_t)n;
		return 0;
	}
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
	observe(r, path); /* capture copies what was looked at, too */
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
