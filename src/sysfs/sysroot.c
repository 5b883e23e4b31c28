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
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
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

/* On a fixture tree (a root other than "/") files are ordinary files that a
 * test or a user may delete or replace (sed -i, mv) behind an open fd,
 * which sysfs never does. Every directory leading to a cached file is
 * watched with inotify; the queue is drained at the start of each round of
 * reads (a file read a second time starts a new round: one sampler tick
 * reads each file once) and at least every CACHE_DRAIN_NS, and the files
 * named by the events are re-opened. Where a watch cannot be added the file
 * is checked with fstatat() before each read instead. In-place writes keep
 * the inode, and pread at offset 0 sees them without any of this. */
#define CACHE_DRAIN_NS 10000000ULL

struct fdcache_ent {
	char *path;
	char *real;	/* path without symlinks where it differs, else NULL */
	uint32_t hash;	/* hash_str(path) */
	int fd;		/* -1 = closed */
	uint32_t round; /* round of the last read */
	dev_t dev;
	ino_t ino;
	uint32_t hint; /* bytes read last time (whole-file reads start that big) */
	bool watched;  /* every directory on the path is watched */
	bool regular;  /* a file on a disk file system: a short read is its end */
};

/* A watched directory (root-relative, "" = the root). wd -1 = no longer
 * watched (the directory went away or moved). A path through a symlinked
 * directory (sys/class/thermal/thermal_zone0) is watched along its real
 * path as well, where the files are replaced. */
struct fdcache_dir {
	char *path;
	char *real; /* aliased: the path without symlinks (NULL: outside the root) */
	int wd;
	bool aliased; /* it or a directory above it is a symlink */
	bool disk;    /* on a disk file system (disk_fs()) */
};

struct fdcache {
	pthread_mutex_t mu;
	/* Entries in a dense array (a 256-CPU machine has some 10000 files),
	 * found through an open-addressing index of entry number + 1. */
	struct fdcache_ent *ent;
	size_t n, ncap;
	uint32_t *idx;
	size_t cap;  /* index slots, a power of two */
	size_t open; /* entries with an fd */
	size_t max_open;
	/* Non-live roots: replaced files are noticed through inotify. */
	int ifd; /* -1 none */
	struct fdcache_dir *dirs;
	size_t dcap, dused; /* power of two; slots with a path */
	uint32_t round;	    /* a round starts with a file read twice in the last one */
	uint64_t drained_ns;
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
		rlim_t want =
			rl.rlim_max == RLIM_INFINITY || rl.rlim_max > 65536 ? 65536 : rl.rlim_max;

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

static struct fdcache *cache_new(bool live)
{
	struct fdcache *c = xcalloc(1, sizeof(*c));

	pthread_mutex_init(&c->mu, NULL);
	c->cap = 256;
	c->idx = xcalloc(c->cap, sizeof(*c->idx));
	c->max_open = cache_limit();
	c->ifd = live ? -1 : inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	c->round = 1;
	return c;
}

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The index slot of path (of hash h): empty (0) or naming its entry. Paths
 * share long prefixes: compare the hashes first. */
static uint32_t *cache_slot(struct fdcache *c, const char *path, uint32_t h)
{
	size_t i = h & (c->cap - 1);

	while (c->idx[i]) {
		const struct fdcache_ent *e = &c->ent[c->idx[i] - 1];

		if (e->hash == h && !strcmp(e->path, path))
			break;
		i = (i + 1) & (c->cap - 1);
	}
	return &c->idx[i];
}

static struct fdcache_ent *cache_find(struct fdcache *c, const char *path)
{
	uint32_t k = *cache_slot(c, path, hash_str(path));

	return k ? &c->ent[k - 1] : NULL;
}

/* A new closed entry for path (not in the cache yet). */
static struct fdcache_ent *cache_add(struct fdcache *c, const char *path)
{
	struct fdcache_ent *e;

	if ((c->n + 1) * 2 > c->cap) {
		free(c->idx);
		c->cap *= 2;
		c->idx = xcalloc(c->cap, sizeof(*c->idx));
		for (size_t i = 0; i < c->n; i++)
			*cache_slot(c, c->ent[i].path, c->ent[i].hash) = (uint32_t)(i + 1);
	}
	c->ent = xgrow(c->ent, &c->ncap, c->n + 1, sizeof(*c->ent));
	e = &c->ent[c->n++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path);
	e->hash = hash_str(path);
	e->fd = -1;
	*cache_slot(c, path, e->hash) = (uint32_t)c->n;
	return e;
}

static void cache_close(struct fdcache *c, struct fdcache_ent *e)
{
	if (e->fd >= 0) {
		close(e->fd);
		e->fd = -1;
		c->open--;
	}
}

static void cache_flush_locked(struct fdcache *c)
{
	for (size_t i = 0; i < c->n; i++)
		cache_close(c, &c->ent[i]);
}

/* ---- watched directories (non-live roots) ---- */

static struct fdcache_dir *dir_slot(struct fdcache *c, const char *path)
{
	size_t i = hash_str(path) & (c->dcap - 1);

	while (c->dirs[i].path && strcmp(c->dirs[i].path, path))
		i = (i + 1) & (c->dcap - 1);
	return &c->dirs[i];
}

static void dirs_grow(struct fdcache *c)
{
	struct fdcache_dir *old = c->dirs;
	size_t oldcap = c->dcap;

	c->dcap = c->dcap ? c->dcap * 2 : 64;
	c->dirs = xcalloc(c->dcap, sizeof(*c->dirs));
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].path)
			*dir_slot(c, old[i].path) = old[i];
	free(old);
}

/* A file system whose files are plain data: a read that returns less than
 * asked for has reached the end. (Not so for seq_file: /proc/interrupts
 * comes in pieces.) Network and FUSE file systems are left out. */
static bool disk_type(uint32_t type)
{
	switch (type) {
	case 0x01021994u: /* tmpfs */
	case 0x858458f6u: /* ramfs */
	case 0x0000ef53u: /* ext2/3/4 */
	case 0x58465342u: /* xfs */
	case 0x9123683eu: /* btrfs */
	case 0x794c7630u: /* overlayfs */
	case 0xf2f52010u: /* f2fs */
	case 0x73717368u: /* squashfs */
	case 0xe0f5e1e2u: /* erofs */
	case 0x2fc12fc1u: /* zfs */ return true;
	default: return false;
	}
}

static bool disk_fs(const char *abs)
{
	struct statfs sf;

	return statfs(abs, &sf) == 0 && disk_type((uint32_t)sf.f_type);
}

static bool disk_fd(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 && disk_type((uint32_t)sf.f_type);
}

/* Root-relative path of p with every symlink resolved, NULL when it leaves
 * the root or cannot be resolved. */
static char *real_path(const struct sysroot *r, const char *p)
{
	char abs[TT_PATH_MAX * 2], *real, *out = NULL;
	size_t n = strlen(r->path);

	snprintf(abs, sizeof(abs), "%s/%s", r->path, p);
	real = realpath(abs, NULL);
	if (real && !strncmp(real, r->path, n) && real[n] == '/')
		out = xstrdup(real + n + 1);
	free(real);
	return out;
}

/* Watch the directory `dir` (root-relative) below its parent (NULL for the
 * root itself: up_aliased false, up_real NULL); NULL when it cannot be
 * watched. Once per directory: is it a symlink (then its real path), the
 * file system. */
static struct fdcache_dir *dir_watch(const struct sysroot *r, struct fdcache *c, const char *dir,
				     bool up_aliased, const char *up_real)
{
	struct fdcache_dir *d;
	char abs[TT_PATH_MAX * 2];
	struct stat st;
	const char *base;
	int wd;

	if ((c->dused + 1) * 2 > c->dcap)
		dirs_grow(c);
	d = dir_slot(c, dir);
	if (d->path && d->wd >= 0)
		return d;
	snprintf(abs, sizeof(abs), "%s%s%s", r->path, *dir ? "/" : "", dir);
	/* Entries created, deleted, moved or changed (chmod) in it, and the
	 * directory itself deleted or moved. In-place writes are not events. */
	wd = inotify_add_watch(c->ifd, abs,
			       IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB |
				       IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR);
	if (wd < 0)
		return NULL;
	if (!d->path) {
		d->path = xstrdup(dir);
		c->dused++;
	}
	d->wd = wd;
	free(d->real);
	d->real = NULL;
	d->aliased = false;
	if (*dir) { /* (the root itself is resolved already) */
		base = strrchr(dir, '/');
		base = base ? base + 1 : dir;
		if (fstatat(r->dirfd, dir, &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISLNK(st.st_mode)) {
			d->aliased = true;
			d->real = real_path(r, dir);
		} else if (up_aliased) {
			d->aliased = true;
			if (up_real)
				d->real = xasprintf("%s/%s", up_real, base);
		}
	}
	d->disk = disk_fs(abs);
	return d;
}

/* Watch every directory from the root down to the one holding file p;
 * false when one cannot be watched. Top-down, so that a watched directory
 * always has watched ancestors. *disk: the directory is on a disk file
 * system; *real: where a directory on the way is a symlink, the file's
 * path without symlinks (malloc'ed; NULL otherwise), and false when that
 * cannot be known. */
static bool watch_path(const struct sysroot *r, struct fdcache *c, const char *p, bool *disk,
		       char **real)
{
	char dir[TT_PATH_MAX];
	size_t n = strlen(p);
	const struct fdcache_dir *d = NULL;
	char *last;

	*disk = false;
	*real = NULL;
	if (c->ifd < 0 || n >= sizeof(dir))
		return false;
	memcpy(dir, p, n + 1);
	last = strrchr(dir, '/');
	if (last && c->dcap) {
		/* Usually the directory holding it is watched already. */
		*last = '\0';
		d = dir_slot(c, dir);
		*last = '/';
		if (!d->path || d->wd < 0)
			d = NULL;
	}
	if (!d) {
		if (!(d = dir_watch(r, c, "", false, NULL)))
			return false;
		for (char *s = strchr(dir, '/'); s; s = strchr(s + 1, '/')) {
			bool up = d->aliased;
			char *up_real =
				d->real ? xstrdup(d->real) : NULL; /* d moves when dirs grow */

			*s = '\0';
			d = dir_watch(r, c, dir, up, up_real);
			*s = '/';
			free(up_real);
			if (!d)
				return false;
		}
	}
	*disk = d->disk;
	if (d->aliased) {
		if (!d->real)
			return false;
		*real = xasprintf("%s/%s", d->real, last ? last + 1 : p);
	}
	return true;
}

/* Does path equal prefix or lie under it? prefix "" is the root. */
static bool under(const char *path, const char *prefix, size_t plen)
{
	if (!plen)
		return true;
	return !strncmp(path, prefix, plen) && (path[plen] == '\0' || path[plen] == '/');
}

/* Everything at or below `prefix` changed: re-open those files, forget
 * those watches (a re-created directory is watched again on use). */
static void cache_forget(struct fdcache *c, const char *prefix)
{
	size_t plen = strlen(prefix);

	for (size_t i = 0; i < c->n; i++)
		if (c->ent[i].fd >= 0 && (under(c->ent[i].path, prefix, plen) ||
					  (c->ent[i].real && under(c->ent[i].real, prefix, plen))))
			cache_close(c, &c->ent[i]);
	for (size_t i = 0; i < c->dcap; i++)
		if (c->dirs[i].path && c->dirs[i].wd >= 0 && under(c->dirs[i].path, prefix, plen))
			c->dirs[i].wd = -1;
}

static void cache_event(struct fdcache *c, const struct inotify_event *ev)
{
	char target[TT_PATH_MAX * 2];

	if (ev->mask & IN_Q_OVERFLOW) {
		/* Lost events: trust nothing. */
		cache_forget(c, "");
		return;
	}
	/* A symlinked directory is one watch under several paths. */
	for (size_t i = 0; i < c->dcap; i++) {
		const struct fdcache_dir *d = &c->dirs[i];

		if (!d->path || d->wd != ev->wd)
			continue;
		if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) || !ev->len) {
			snprintf(target, sizeof(target), "%s", d->path);
		} else {
			snprintf(target, sizeof(target), "%s%s%s", d->path, *d->path ? "/" : "",
				 ev->name);
		}
		cache_forget(c, target);
		/* cache_forget may have cleared d->wd: stop matching stale wds. */
	}
}

/* Apply the queued events; called with the lock held. */
static void cache_drain(struct fdcache *c)
{
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));

	for (;;) {
		ssize_t n = read(c->ifd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t off = 0; off + (ssize_t)sizeof(struct inotify_event) <= n;) {
			const struct inotify_event *ev = (const void *)(buf + off);

			cache_event(c, ev);
			off += (ssize_t)(sizeof(*ev) + ev->len);
		}
	}
}

static uint64_t coarse_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
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
	for (size_t i = 0; i < c->n; i++) {
		free(c->ent[i].path);
		free(c->ent[i].real);
	}
	free(c->ent);
	free(c->idx);
	for (size_t i = 0; i < c->dcap; i++) {
		free(c->dirs[i].path);
		free(c->dirs[i].real);
	}
	free(c->dirs);
	if (c->ifd >= 0)
		close(c->ifd);
	pthread_mutex_destroy(&c->mu);
	free(c);
}

/* Read a whole file with pread from offset 0 on a cached fd (opening it on
 * first use). Returns the byte count or -errno; the caller holds no lock. */
static ssize_t cached_pread(const struct sysroot *r, const char *p, char **buf, size_t *cap,
			    bool grow)
{
	struct fdcache *c = r->cache;
	struct fdcache_ent *e;
	size_t got = 0;
	int fd, tries = 0;

	pthread_mutex_lock(&c->mu);
	e = cache_find(c, p);
	if (c->ifd >= 0) {
		uint64_t now = coarse_ns();

		/* A file read again: a new round, which sees every change made
		 * before it started. Long rounds drain now and then, too. */
		if (e && e->round == c->round) {
			c->round++;
			cache_drain(c);
			c->drained_ns = now;
		} else if (now - c->drained_ns > CACHE_DRAIN_NS) {
			cache_drain(c);
			c->drained_ns = now;
		}
	}
	if (e && e->fd >= 0 && !r->live && !e->watched) {
		/* No watch: check that the path still names that file. */
		struct stat st;

		if (fstatat(r->dirfd, p, &st, 0) != 0 || st.st_ino != e->ino || st.st_dev != e->dev)
			cache_close(c, e);
	}
again:
	if (!e || e->fd < 0) {
		if (c->open >= c->max_open)
			cache_flush_locked(c);
		fd = openat(r->dirfd, p, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			int err = -errno;

			pthread_mutex_unlock(&c->mu);
			return err;
		}
		if (!e)
			e = cache_add(c, p);
		e->watched = false;
		e->regular = false;
		if (!r->live) {
			struct stat st, st2;
			char *real2 = NULL;
			bool disk;

			if (fstat(fd, &st) == 0) {
				e->dev = st.st_dev;
				e->ino = st.st_ino;
				/* Watched from now on, along the real path too where
				 * it differs. A replacement between the open and the
				 * watch shows as another inode, and so does a file
				 * that is itself a symlink: those are checked with
				 * fstatat() on every read. */
				free(e->real);
				e->watched = watch_path(r, c, p, &disk, &e->real);
				if (e->watched && e->real)
					e->watched =
						watch_path(r, c, e->real, &disk, &real2) && !real2;
				free(real2);
				e->regular =
					S_ISREG(st.st_mode) && (e->watched ? disk : disk_fd(fd));
				e->watched = e->watched &&
					     fstatat(r->dirfd, p, &st2, AT_SYMLINK_NOFOLLOW) == 0 &&
					     st2.st_ino == st.st_ino && st2.st_dev == st.st_dev;
			}
		}
		e->fd = fd;
		c->open++;
	}
	e->round = c->round;
	if (grow && (size_t)e->hint + e->hint / 8 + 64 > *cap) {
		/* As big as last time, and some: one read instead of several. */
		*cap = (size_t)e->hint + e->hint / 8 + 64;
		*buf = xrealloc(*buf, *cap);
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
			cache_close(c, e);
			if (tries++ == 0 && (err == ENODEV || err == ESTALE || err == ENOENT))
				goto again;
			pthread_mutex_unlock(&c->mu);
			return -err;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		/* sysfs attributes come in one read; so do plain files */
		if (got + 1 < *cap && (!grow || e->regular))
			break;
	}
	e->hint = got > UINT32_MAX ? UINT32_MAX : (uint32_t)got;
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
	r->cache = cache_new(r->live);
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
	static struct sysroot live = {.dirfd = -1};

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
	str_copy(buf, cap, t);
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

#define FMT_PATH(p, fmt)                                                                           \
	char p[TT_PATH_MAX];                                                                       \
	do {                                                                                       \
		va_list ap_;                                                                       \
		va_start(ap_, fmt);                                                                \
		vsnprintf(p, sizeof(p), fmt, ap_);                                                 \
		va_end(ap_);                                                                       \
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
