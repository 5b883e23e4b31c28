/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Root-relative file access: the one place that calls open(). Owns path
 * resolution under a root (nothing outside a non-live root is followed),
 * the fd cache, whole-file reads (capped at TT_READ_MAX) and writes (a
 * temporary file renamed over the target on a non-live root, so a killed
 * writer never leaves a torn value). */
#include "sysfs/sysroot.h"

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define TT_HAVE_OPENAT2_H 1
#endif
#endif
#ifndef TT_HAVE_OPENAT2_H
struct open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_BENEATH	      0x08
#endif
#ifndef SYS_openat2
#define SYS_openat2 437 /* the same number on every architecture */
#endif

#include "core/err.h"
#include "core/str.h"
#include "core/xalloc.h"

static const char *rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

/* ---- resolving paths beneath a non-live root ---------------------------- */

/* Under --root DIR every path is resolved without leaving DIR: a symlink
 * that is absolute or climbs above DIR with ".." fails with -EXDEV (the
 * rule of openat2()'s RESOLVE_BENEATH), so a tree cannot make tunetop read
 * or write a file outside it. Links that stay inside keep working
 * (cpuN/cpufreq -> ../cpufreq/policyN). Where the kernel has openat2()
 * (5.6+) it resolves; elsewhere walk_dir() opens one component at a time
 * with O_NOFOLLOW and follows links itself. The live root "/" uses plain
 * openat(). */
#define LINK_HOPS 40 /* symlinks followed per path (the kernel's MAXSYMLINKS) */

static bool openat2_missing;

static bool use_openat2(void)
{
	/* TUNETOP_TEST_NO_OPENAT2=1: the tests of the walk */
	const char *v = getenv("TUNETOP_TEST_NO_OPENAT2");

	return !(v && *v && strcmp(v, "0")) && !__atomic_load_n(&openat2_missing, __ATOMIC_RELAXED);
}

/* openat2() with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS: fd or -errno;
 * -ENOSYS (remembered) where the kernel does not have it. */
static int openat2_beneath(int dirfd, const char *p, int flags, mode_t mode)
{
	struct open_how how;

	memset(&how, 0, sizeof(how));
	how.flags = (uint64_t)(unsigned)flags;
	how.mode = (flags & O_CREAT) ? mode : 0;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
	for (int tries = 0;; tries++) {
		long fd = syscall(SYS_openat2, dirfd, p, &how, sizeof(how));

		if (fd >= 0)
			return (int)fd;
		/* EAGAIN: a rename raced with ".." resolution */
		if (errno == EAGAIN && tries < 16)
			continue;
		if (errno == ENOSYS)
			__atomic_store_n(&openat2_missing, true, __ATOMIC_RELAXED);
		return -errno;
	}
}

/* O_PATH fd of the directory `dir` (relative) under rootfd without
 * openat2(): each component is opened with O_NOFOLLOW; a symlink's target
 * is read and put in front of the rest of the path; ".." pops a level,
 * never above rootfd. */
static int walk_dir(int rootfd, const char *dir)
{
	int stack[TT_PATH_MAX / 2 + 2];
	size_t depth = 0, hops = 0;
	char rest[TT_PATH_MAX * 2], target[TT_PATH_MAX], comp[256];
	const char *s = rest;
	int e = 0, top;

	if (snprintf(rest, sizeof(rest), "%s", dir) >= (int)sizeof(rest))
		return -ENAMETOOLONG;
	stack[0] = rootfd;
	while (!e) {
		size_t n;
		struct stat st;
		int fd;

		while (*s == '/')
			s++;
		if (!*s)
			break;
		n = strcspn(s, "/");
		if (n >= sizeof(comp)) {
			e = -ENAMETOOLONG;
			break;
		}
		memcpy(comp, s, n);
		comp[n] = '\0';
		s += n;
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			if (depth == 0)
				e = -EXDEV;
			else
				close(stack[depth--]);
			continue;
		}
		fd = openat(stack[depth], comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) != 0) {
			e = -errno;
			if (fd >= 0)
				close(fd);
		} else if (S_ISLNK(st.st_mode)) {
			ssize_t k = readlinkat(fd, "", target, sizeof(target) - 1);
			char joined[sizeof(rest)];

			close(fd);
			if (k < 0) {
				e = -errno;
			} else if (++hops > LINK_HOPS) {
				e = -ELOOP;
			} else if (target[0] == '/') {
				e = -EXDEV;
			} else {
				target[k] = '\0';
				if (snprintf(joined, sizeof(joined), "%s/%s", target, s) >=
				    (int)sizeof(joined)) {
					e = -ENAMETOOLONG;
				} else {
					memcpy(rest, joined, strlen(joined) + 1);
					s = rest;
				}
			}
		} else if (!S_ISDIR(st.st_mode)) {
			close(fd);
			e = -ENOTDIR;
		} else if (depth + 1 >= sizeof(stack) / sizeof(stack[0])) {
			close(fd);
			e = -ENAMETOOLONG;
		} else {
			stack[++depth] = fd;
		}
	}
	top = depth ? stack[depth] : -1;
	for (size_t i = 1; i < depth; i++)
		close(stack[i]);
	if (e) {
		if (top >= 0)
			close(top);
		return e;
	}
	if (top < 0 && (top = openat(rootfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	return top;
}

/* O_PATH fd of the directory dir under rootfd, not leaving it. */
static int dir_beneath(int rootfd, const char *dir)
{
	if (use_openat2()) {
		int fd = openat2_beneath(rootfd, *dir ? dir : ".", O_PATH | O_DIRECTORY | O_CLOEXEC,
					 0);

		if (fd != -ENOSYS)
			return fd;
	}
	return walk_dir(rootfd, dir);
}

/* A path resolved to the directory that holds its last component. */
struct leaf {
	int dfd;	/* O_PATH fd of that directory */
	char name[256]; /* the entry's name there, "." for the directory itself */
};

static void leaf_close(struct leaf *l)
{
	if (l->dfd >= 0)
		close(l->dfd);
	l->dfd = -1;
}

/* Resolve p under rootfd to the directory holding its last component and
 * that component's name, without leaving rootfd. follow: a last component
 * that is a symlink is followed (within rootfd) to what it names. The
 * entry itself need not exist (the caller's *at() call says ENOENT). */
static int resolve_at(int rootfd, const char *p, bool follow, struct leaf *out)
{
	char cur[TT_PATH_MAX * 2], dir[TT_PATH_MAX * 2], target[TT_PATH_MAX];
	size_t hops = 0;

	out->dfd = -1;
	while (*p == '/')
		p++;
	if (snprintf(cur, sizeof(cur), "%s", p) >= (int)sizeof(cur))
		return -ENAMETOOLONG;
	for (;;) {
		size_t n = strlen(cur);
		char *slash;
		const char *base;
		ssize_t k;
		int fd;

		while (n > 0 && cur[n - 1] == '/')
			cur[--n] = '\0';
		memcpy(dir, cur, n + 1);
		slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			base = slash + 1;
		} else {
			base = dir;
		}
		if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
			/* a directory named by its own path ("", "a/..") */
			fd = dir_beneath(rootfd, cur);
			if (fd < 0)
				return fd;
			out->dfd = fd;
			str_copy(out->name, sizeof(out->name), ".");
			return 0;
		}
		if (strlen(base) >= sizeof(out->name))
			return -ENAMETOOLONG;
		fd = dir_beneath(rootfd, slash ? dir : "");
		if (fd < 0)
			return fd;
		str_copy(out->name, sizeof(out->name), base);
		k = follow ? readlinkat(fd, base, target, sizeof(target) - 1) : -1;
		if (k < 0) { /* not a symlink (EINVAL), absent, or not asked to follow */
			out->dfd = fd;
			return 0;
		}
		close(fd);
		target[k] = '\0';
		if (++hops > LINK_HOPS)
			return -ELOOP;
		if (target[0] == '/')
			return -EXDEV;
		if (snprintf(cur, sizeof(cur), "%s%s%s", slash ? dir : "", slash ? "/" : "",
			     target) >= (int)sizeof(cur))
			return -ENAMETOOLONG;
	}
}

/* open(2) of p under rootfd without leaving it: fd or -errno. */
static int open_beneath(int rootfd, const char *p, int flags, mode_t mode)
{
	struct leaf l;
	int fd, e;

	while (*p == '/')
		p++;
	if (use_openat2()) {
		fd = openat2_beneath(rootfd, *p ? p : ".", flags, mode);
		if (fd != -ENOSYS)
			return fd;
	}
	e = resolve_at(rootfd, p, !(flags & O_NOFOLLOW), &l);
	if (e)
		return e;
	fd = openat(l.dfd, l.name, flags | O_NOFOLLOW, mode);
	e = fd < 0 ? -errno : fd;
	leaf_close(&l);
	return e;
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

/* 40 bytes (10,700 entries on a 256-CPU tree): strings are offsets into
 * the cache's intern table, the device number is packed as the kernel
 * keeps it (12 bits of major, 20 of minor), the flags share a word with the
 * size hint. */
struct fdcache_ent {
	uint64_t ino;
	/* The path is its directory (with the '/') then its name, each a
	 * string of the cache's intern table (offsets into c->strs): some
	 * 10000 paths on a 256-CPU machine share a few hundred directories
	 * and a few dozen names. */
	uint32_t dir, leaf;
	/* Where a directory on the path is a symlink: the directory without
	 * symlinks (with the '/'; the name is leaf), its offset + 1; 0 none. */
	uint32_t real;
	uint32_t hash;	      /* hash_str(path) */
	int32_t fd;	      /* -1 = closed */
	uint32_t round;	      /* round of the last read */
	uint32_t dev;	      /* dev_pack(st_dev) */
	uint32_t hint : 30;   /* bytes read last time (whole-file reads start that big) */
	uint32_t watched : 1; /* every directory on the path is watched */
	uint32_t regular : 1; /* a file on a disk file system: a short read is its end */
};
_Static_assert(sizeof(struct fdcache_ent) <= 40, "fdcache_ent grew");
#define HINT_MAX ((1u << 30) - 1)

/* A watched directory (root-relative, "" = the root), 16 bytes: its path
 * is an intern string with the '/' ("sys/devices/", "" for the root), the
 * same string its files' entries use. wd -1 = no longer watched (the
 * directory went away or moved). A path through a symlinked directory
 * (sys/class/thermal/thermal_zone0) is watched along its real path as
 * well, where the files are replaced. */
struct fdcache_dir {
	uint32_t path;
	uint32_t real; /* aliased: the path without symlinks (offset + 1, with the
			* '/'; 0: outside the root) */
	int32_t wd;
	bool aliased; /* it or a directory above it is a symlink */
	bool disk;    /* on a disk file system (disk_fs()) */
};
_Static_assert(sizeof(struct fdcache_dir) <= 16, "fdcache_dir grew");

struct fdcache {
	pthread_mutex_t mu;
	/* Entries in a dense array (a 256-CPU machine has some 10000 files),
	 * found through an open-addressing index of entry number + 1. */
	struct fdcache_ent *ent;
	size_t n, ncap;
	/* Interned strings (entries' directories and names; never removed):
	 * NUL-terminated in one array, found through an open-addressing index
	 * of offset + 1. */
	char *strs;
	size_t slen, scap;
	uint32_t *sidx;
	size_t sidx_cap, nstrs; /* index slots (a power of two), strings */
	uint32_t *idx;
	size_t cap;  /* index slots, a power of two */
	size_t open; /* entries with an fd */
	size_t max_open;
	/* Non-live roots: replaced files are noticed through inotify. */
	int ifd; /* -1 none */
	/* Watched directories in a dense array, found through an
	 * open-addressing index of directory number + 1. */
	struct fdcache_dir *dirs;
	size_t ndirs, ndcap;
	uint32_t *didx;
	size_t dcap;	/* index slots, a power of two */
	uint32_t round; /* a round starts with a file read twice in the last one */
	uint64_t drained_ns;
	bool stale; /* a write replaced a file (new inode): drain before the next read */
	/* Paths refused (a symlink leaving the root, over TT_READ_MAX), each
	 * once; sysroot_refused() hands out those not told yet. */
	struct refusal {
		char *path;
		int err;
		const char *kind; /* of a file that is not regular */
	} * refused;
	size_t nrefused, refcap, reftold;
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

/* FNV-1a of s[0..len), the one hash of the cache's indexes */
static uint32_t hash_mem(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t k = 0; k < len; k++)
		h = (h ^ (unsigned char)s[k]) * 16777619u;
	return h;
}

static uint32_t hash_str(const char *s)
{
	return hash_mem(s, strlen(s));
}

/* The first free slot from hash h in an open addressing table of cap (a
 * power of two) slots, 0 meaning free. */
static size_t free_slot(const uint32_t *idx, size_t cap, uint32_t h)
{
	size_t k = h & (cap - 1);

	while (idx[k])
		k = (k + 1) & (cap - 1);
	return k;
}

/* st_dev as the kernel keeps it (dev_t is 32 bits there: a 12-bit major and
 * a 20-bit minor), so that it fits an entry's 32 bits unchanged. */
static uint32_t dev_pack(dev_t d)
{
	return (uint32_t)(major(d) << 20) | (uint32_t)(minor(d) & 0xfffffu);
}

/* The offset of the string s[0..len) in the intern table, added if new. */
static uint32_t intern(struct fdcache *c, const char *s, size_t len)
{
	uint32_t h = hash_mem(s, len);
	size_t i;

	if ((c->nstrs + 1) * 2 > c->sidx_cap) {
		uint32_t *old = c->sidx;
		size_t ocap = c->sidx_cap;

		c->sidx_cap = ocap ? ocap * 2 : 256;
		c->sidx = xcalloc(c->sidx_cap, sizeof(*c->sidx));
		for (size_t k = 0; k < ocap; k++)
			if (old[k]) {
				const char *t = c->strs + old[k] - 1;

				c->sidx[free_slot(c->sidx, c->sidx_cap, hash_str(t))] = old[k];
			}
		free(old);
	}
	for (i = h & (c->sidx_cap - 1); c->sidx[i]; i = (i + 1) & (c->sidx_cap - 1)) {
		const char *t = c->strs + c->sidx[i] - 1;

		if (!strncmp(t, s, len) && t[len] == '\0')
			return c->sidx[i] - 1;
	}
	if (c->slen + len + 1 > c->scap) {
		c->scap = c->scap < 4096 ? 4096 : c->scap;
		while (c->slen + len + 1 > c->scap)
			c->scap *= 2;
		c->strs = xrealloc(c->strs, c->scap);
	}
	memcpy(c->strs + c->slen, s, len);
	c->strs[c->slen + len] = '\0';
	c->sidx[i] = (uint32_t)c->slen + 1;
	c->nstrs++;
	c->slen += len + 1;
	return (uint32_t)(c->sidx[i] - 1);
}

/* Does e name path? */
static bool ent_is(const struct fdcache *c, const struct fdcache_ent *e, const char *path)
{
	const char *d = c->strs + e->dir;
	size_t dl = strlen(d);

	return !strncmp(d, path, dl) && !strcmp(c->strs + e->leaf, path + dl);
}

/* e's path, written into buf. */
static const char *ent_path(const struct fdcache *c, const struct fdcache_ent *e, char *buf,
			    size_t cap)
{
	snprintf(buf, cap, "%s%s", c->strs + e->dir, c->strs + e->leaf);
	return buf;
}

/* e's path without symlinks (its real directory, then its name), NULL
 * when it has none. */
static const char *ent_real(const struct fdcache *c, const struct fdcache_ent *e, char *buf,
			    size_t cap)
{
	if (!e->real)
		return NULL;
	snprintf(buf, cap, "%s%s", c->strs + e->real - 1, c->strs + e->leaf);
	return buf;
}

/* The index slot of path (of hash h): empty (0) or naming its entry. Paths
 * share long prefixes: compare the hashes first. */
static uint32_t *cache_slot(struct fdcache *c, const char *path, uint32_t h)
{
	size_t i = h & (c->cap - 1);

	while (c->idx[i]) {
		const struct fdcache_ent *e = &c->ent[c->idx[i] - 1];

		if (e->hash == h && ent_is(c, e, path))
			break;
		i = (i + 1) & (c->cap - 1);
	}
	return &c->idx[i];
}

/* The two indexes of the cache (paths, watched directories) are open
 * addressing tables of 1-based record numbers. Room for one more of n
 * records in *idx (*cap slots): at most 3/4 full, else twice the slots (64
 * at first) with every record put back at hash(c, i); records are unique,
 * so each goes to the first free slot. */
static void index_room(const struct fdcache *c, uint32_t **idx, size_t *cap, size_t n,
		       uint32_t (*hash)(const struct fdcache *c, size_t i))
{
	if ((n + 1) * 4 <= *cap * 3)
		return;
	free(*idx);
	*cap = *cap ? *cap * 2 : 64;
	*idx = xcalloc(*cap, sizeof(**idx));
	for (size_t i = 0; i < n; i++)
		(*idx)[free_slot(*idx, *cap, hash(c, i))] = (uint32_t)(i + 1);
}

/* Room for one more of n records of size sz in v (*ncap allocated). A
 * 256-CPU machine has some 10000 entries: grow by a quarter (64 at first),
 * not twice, so that the array is not half empty. */
static void *array_room(void *v, size_t n, size_t *ncap, size_t sz)
{
	if (n + 1 > *ncap) {
		*ncap = *ncap < 64 ? 64 : *ncap + *ncap / 4;
		v = xrealloc(v, *ncap * sz);
	}
	return v;
}

static uint32_t ent_hash(const struct fdcache *c, size_t i)
{
	return c->ent[i].hash;
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

	index_room(c, &c->idx, &c->cap, c->n, ent_hash);
	c->ent = array_room(c->ent, c->n, &c->ncap, sizeof(*c->ent));
	e = &c->ent[c->n++];
	memset(e, 0, sizeof(*e));
	{
		const char *slash = strrchr(path, '/');
		size_t dl = slash ? (size_t)(slash - path) + 1 : 0;

		e->dir = intern(c, path, dl);
		e->leaf = intern(c, path + dl, strlen(path + dl));
	}
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

/* Does d name the directory dir[0..len) (given without the '/')? */
static bool dir_is(const struct fdcache *c, const struct fdcache_dir *d, const char *dir,
		   size_t len)
{
	const char *t = c->strs + d->path;

	if (!len)
		return t[0] == '\0';
	return !strncmp(t, dir, len) && t[len] == '/' && t[len + 1] == '\0';
}

/* The hash of d's path without its '/' (what dir_slot() hashes). */
static uint32_t dir_hash(const struct fdcache *c, const struct fdcache_dir *d)
{
	const char *t = c->strs + d->path;
	size_t n = strlen(t);

	return hash_mem(t, n ? n - 1 : 0);
}

static uint32_t dirs_hash(const struct fdcache *c, size_t i)
{
	return dir_hash(c, &c->dirs[i]);
}

/* The index slot of dir[0..len): empty (0) or naming its record. */
static uint32_t *dir_slot(struct fdcache *c, const char *dir, size_t len)
{
	size_t i = hash_mem(dir, len) & (c->dcap - 1);

	while (c->didx[i] && !dir_is(c, &c->dirs[c->didx[i] - 1], dir, len))
		i = (i + 1) & (c->dcap - 1);
	return &c->didx[i];
}

static struct fdcache_dir *dir_find(struct fdcache *c, const char *dir, size_t len)
{
	uint32_t k;

	if (!c->dcap)
		return NULL;
	k = *dir_slot(c, dir, len);
	return k ? &c->dirs[k - 1] : NULL;
}

/* A new, unwatched record for dir[0..len) (not known yet). */
static struct fdcache_dir *dir_add(struct fdcache *c, const char *dir, size_t len)
{
	char buf[TT_PATH_MAX + 1];
	struct fdcache_dir *d;

	index_room(c, &c->didx, &c->dcap, c->ndirs, dirs_hash);
	c->dirs = array_room(c->dirs, c->ndirs, &c->ndcap, sizeof(*c->dirs));
	memcpy(buf, dir, len);
	buf[len] = '/';
	d = &c->dirs[c->ndirs++];
	memset(d, 0, sizeof(*d));
	d->path = intern(c, buf, len ? len + 1 : 0);
	d->wd = -1;
	*dir_slot(c, dir, len) = (uint32_t)c->ndirs;
	return d;
}

/* The intern offset + 1 of the directory string "dir/". */
static uint32_t intern_dir(struct fdcache *c, const char *dir)
{
	char buf[TT_PATH_MAX * 2 + 2];
	int n = snprintf(buf, sizeof(buf), "%s/", dir);

	if (n <= 1 || (size_t)n >= sizeof(buf))
		return 0;
	return intern(c, buf, (size_t)n) + 1;
}

enum fs_kind { FS_OTHER, FS_DISK, FS_KERNEL };

/* What a file system's type says of its files. FS_DISK: plain data, a
 * read that returns less than asked for has reached the end (not so for
 * seq_file: /proc/interrupts comes in pieces; network and FUSE file systems
 * are left out). FS_KERNEL: sysfs or procfs and their kin mounted inside a
 * non-live root, whose files are written in place, as on the live root. */
static enum fs_kind fs_kind(uint32_t type)
{
	static const struct {
		uint32_t magic;
		enum fs_kind kind;
	} fs[] = {
		{0x01021994u, FS_DISK},	  /* tmpfs */
		{0x858458f6u, FS_DISK},	  /* ramfs */
		{0x0000ef53u, FS_DISK},	  /* ext2/3/4 */
		{0x58465342u, FS_DISK},	  /* xfs */
		{0x9123683eu, FS_DISK},	  /* btrfs */
		{0x794c7630u, FS_DISK},	  /* overlayfs */
		{0xf2f52010u, FS_DISK},	  /* f2fs */
		{0x73717368u, FS_DISK},	  /* squashfs */
		{0xe0f5e1e2u, FS_DISK},	  /* erofs */
		{0x2fc12fc1u, FS_DISK},	  /* zfs */
		{0x62656572u, FS_KERNEL}, /* sysfs */
		{0x00009fa0u, FS_KERNEL}, /* proc */
		{0x64626720u, FS_KERNEL}, /* debugfs */
		{0x74726163u, FS_KERNEL}, /* tracefs */
		{0x63677270u, FS_KERNEL}, /* cgroup2 */
		{0x0027e0ebu, FS_KERNEL}, /* cgroup */
		{0x73636673u, FS_KERNEL}, /* securityfs */
		{0x62656570u, FS_KERNEL}, /* configfs */
	};

	for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++)
		if (fs[i].magic == type)
			return fs[i].kind;
	return FS_OTHER;
}

static bool disk_type(uint32_t type)
{
	return fs_kind(type) == FS_DISK;
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
 * root itself: up_aliased false, up_real NULL; up_real is the parent's real
 * path with its '/'); NULL when it cannot be watched. Once per directory:
 * is it a symlink (then its real path), the file system. */
static struct fdcache_dir *dir_watch(const struct sysroot *r, struct fdcache *c, const char *dir,
				     bool up_aliased, const char *up_real)
{
	struct fdcache_dir *d;
	char abs[TT_PATH_MAX * 2];
	struct stat st;
	const char *base;
	size_t len = strlen(dir);
	uint32_t real = 0;
	bool aliased = false;
	int wd;

	d = dir_find(c, dir, len);
	if (d && d->wd >= 0)
		return d;
	snprintf(abs, sizeof(abs), "%s%s%s", r->path, *dir ? "/" : "", dir);
	/* Entries created, deleted, moved or changed (chmod) in it, and the
	 * directory itself deleted or moved. In-place writes are not events. */
	wd = inotify_add_watch(c->ifd, abs,
			       IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB |
				       IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR);
	if (wd < 0)
		return NULL;
	if (*dir) { /* (the root itself is resolved already) */
		base = strrchr(dir, '/');
		base = base ? base + 1 : dir;
		if (fstatat(r->dirfd, dir, &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISLNK(st.st_mode)) {
			char *rp = real_path(r, dir);

			aliased = true;
			if (rp)
				real = intern_dir(c, rp);
			free(rp);
		} else if (up_aliased) {
			char buf[TT_PATH_MAX * 2];

			aliased = true;
			if (up_real &&
			    (size_t)snprintf(buf, sizeof(buf), "%s%s", up_real, base) < sizeof(buf))
				real = intern_dir(c, buf);
		}
	}
	if (!d)
		d = dir_add(c, dir, len);
	d->wd = wd;
	d->real = real;
	d->aliased = aliased;
	d->disk = disk_fs(abs);
	return d;
}

/* Watch every directory from the root down to the one holding file p;
 * false when one cannot be watched. Top-down, so that a watched directory
 * always has watched ancestors. *disk: the directory is on a disk file
 * system; *real: where a directory on the way is a symlink, the intern
 * offset + 1 of the file's directory without symlinks (the file's path
 * without them is that and its name; 0 otherwise), and false when that
 * cannot be known. */
static bool watch_path(const struct sysroot *r, struct fdcache *c, const char *p, bool *disk,
		       uint32_t *real)
{
	char dir[TT_PATH_MAX];
	size_t n = strlen(p);
	const struct fdcache_dir *d = NULL;
	char *last;

	*disk = false;
	*real = 0;
	if (c->ifd < 0 || n >= sizeof(dir))
		return false;
	memcpy(dir, p, n + 1);
	last = strrchr(dir, '/');
	if (last) {
		/* Usually the directory holding it is watched already. */
		d = dir_find(c, dir, (size_t)(last - dir));
		if (d && d->wd < 0)
			d = NULL;
	}
	if (!d) {
		if (!(d = dir_watch(r, c, "", false, NULL)))
			return false;
		for (char *s = strchr(dir, '/'); s; s = strchr(s + 1, '/')) {
			bool up = d->aliased;
			char up_real[TT_PATH_MAX * 2 + 2];
			bool has_real = d->real != 0;

			/* a copy: the intern table moves as it grows */
			if (has_real)
				snprintf(up_real, sizeof(up_real), "%s", c->strs + d->real - 1);
			*s = '\0';
			d = dir_watch(r, c, dir, up, has_real ? up_real : NULL);
			*s = '/';
			if (!d)
				return false;
		}
	}
	*disk = d->disk;
	if (d->aliased) {
		if (!d->real)
			return false;
		*real = d->real;
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

	char buf[TT_PATH_MAX * 2];
	const char *rp;

	for (size_t i = 0; i < c->n; i++)
		if (c->ent[i].fd >= 0 &&
		    (under(ent_path(c, &c->ent[i], buf, sizeof(buf)), prefix, plen) ||
		     ((rp = ent_real(c, &c->ent[i], buf, sizeof(buf))) && under(rp, prefix, plen))))
			cache_close(c, &c->ent[i]);
	/* (a directory's path ends in '/': under() takes it as the same) */
	for (size_t i = 0; i < c->ndirs; i++)
		if (c->dirs[i].wd >= 0 && under(c->strs + c->dirs[i].path, prefix, plen))
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
	for (size_t i = 0; i < c->ndirs; i++) {
		const struct fdcache_dir *d = &c->dirs[i];
		const char *dp = c->strs + d->path; /* "" or "dir/" */

		if (d->wd != ev->wd)
			continue;
		if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) || !ev->len) {
			size_t n = strlen(dp);

			snprintf(target, sizeof(target), "%.*s", (int)(n ? n - 1 : 0), dp);
		} else {
			snprintf(target, sizeof(target), "%s%s", dp, ev->name);
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

#define REFUSED_MAX 64

/* The kind of the last file found not regular by this thread, for the
 * words of sysfs_why(-SYSFS_ENOTREG). */
static _Thread_local const char *notreg_kind = "not a file";

static const char *mode_kind(mode_t m)
{
	return S_ISFIFO(m)   ? "fifo"
	       : S_ISSOCK(m) ? "socket"
	       : S_ISCHR(m)  ? "character device"
	       : S_ISBLK(m)  ? "block device"
			     : "not a file";
}

int sysfs_not_regular(mode_t mode)
{
	notreg_kind = mode_kind(mode);
	return -SYSFS_ENOTREG;
}

/* Note a refused path (once) for sysroot_refused(); returns err. */
static int refuse(const struct sysroot *r, const char *p, int err)
{
	struct fdcache *c = r->cache;
	const char *kind = notreg_kind;

	if (!c || (err != -EXDEV && err != -EFBIG && err != -SYSFS_ENOTREG))
		return err;
	pthread_mutex_lock(&c->mu);
	for (size_t i = 0; i < c->nrefused; i++)
		if (!strcmp(c->refused[i].path, p))
			goto out;
	if (c->nrefused < REFUSED_MAX) {
		c->refused = xgrow(c->refused, &c->refcap, c->nrefused + 1, sizeof(*c->refused));
		c->refused[c->nrefused].path = xstrdup(p);
		c->refused[c->nrefused].err = err;
		c->refused[c->nrefused].kind = kind;
		c->nrefused++;
	}
out:
	pthread_mutex_unlock(&c->mu);
	return err;
}

/* stat(2) of p under the root (symlinks followed inside it). */
static int root_stat(const struct sysroot *r, const char *p, struct stat *st)
{
	int fd, e = 0;

	if (r->live)
		return fstatat(r->dirfd, p, st, 0) == 0 ? 0 : -errno;
	fd = open_beneath(r->dirfd, p, O_PATH | O_CLOEXEC, 0);
	if (fd < 0)
		return fd;
	if (fstat(fd, st) != 0)
		e = -errno;
	close(fd);
	return e;
}

/* An fd just opened (with O_NONBLOCK) for a file: a regular file or a
 * directory keeps it (O_NONBLOCK off again unless the caller asked for it),
 * and so does a character device under the live /dev (cpu_dma_latency);
 * a FIFO, socket or device where a file belongs is closed, -SYSFS_ENOTREG.
 * No open or read here ever waits for a partner. */
static int only_regular(int fd, int flags, bool dev_ok)
{
	struct stat st;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) != 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) && !(dev_ok && S_ISCHR(st.st_mode))) {
		notreg_kind = mode_kind(st.st_mode);
		close(fd);
		return -SYSFS_ENOTREG;
	}
	if (!(flags & O_NONBLOCK) && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

/* open(2) under the root without noting a refusal: fd or -errno. Every
 * open of a file goes through here: O_NONBLOCK, then fstat. */
static int root_open_quiet(const struct sysroot *r, const char *p, int flags)
{
	int fd, open_flags = flags | O_CLOEXEC;

	if (!(flags & (O_PATH | O_DIRECTORY))) {
		open_flags |= O_NONBLOCK;
		/* In a tree, a device node is refused before it is opened:
		 * opening one can act (a watchdog, a tape). */
		if (!r->live && (fd = open_beneath(r->dirfd, p, O_PATH | O_CLOEXEC, 0)) >= 0) {
			struct stat st;
			int e = fstat(fd, &st) != 0 ? -errno : 0;

			close(fd);
			if (!e && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
				return sysfs_not_regular(st.st_mode);
		}
	}
	if (!r->live)
		fd = open_beneath(r->dirfd, p, open_flags, 0);
	else if ((fd = openat(r->dirfd, p, open_flags)) < 0)
		fd = -errno;
	if (fd == -ENXIO) {
		/* a socket, or a FIFO opened to write without a reader */
		struct stat st;

		if (root_stat(r, p, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode))
			return sysfs_not_regular(st.st_mode);
	}
	if (fd < 0 || (flags & (O_PATH | O_DIRECTORY)))
		return fd;
	return only_regular(fd, flags, r->live && !strncmp(p, "dev/", 4));
}

static int root_open(const struct sysroot *r, const char *p, int flags)
{
	int fd = root_open_quiet(r, p, flags);

	return fd == -EXDEV || fd == -SYSFS_ENOTREG ? refuse(r, p, fd) : fd;
}

size_t sysroot_refused(const struct sysroot *r, struct sbuf *out)
{
	struct fdcache *c = r->cache;
	size_t n = 0;

	if (!c)
		return 0;
	pthread_mutex_lock(&c->mu);
	for (; c->reftold < c->nrefused; c->reftold++, n++) {
		const struct refusal *f = &c->refused[c->reftold];
		char abs[TT_PATH_MAX * 2];

		sysroot_abspath(r, f->path, abs, sizeof(abs));
		if (f->err == -SYSFS_ENOTREG)
			sbuf_printf(out, "%s: not a regular file (%s)\n", abs, f->kind);
		else
			sbuf_printf(out, "%s: %s\n", abs,
				    f->err == -EFBIG ? "larger than " TT_READ_MAX_TEXT " (EFBIG)"
						     : sysfs_why(f->err));
	}
	pthread_mutex_unlock(&c->mu);
	return n;
}

const char *sysfs_why(int err)
{
	switch (err < 0 ? -err : err) {
	case EXDEV: return "symlink leaves the root (EXDEV)";
	case EFBIG: return "file too large (EFBIG)";
	case SYSFS_ENOTREG: {
		static _Thread_local char buf[64];

		snprintf(buf, sizeof(buf), "not a regular file (%s)", notreg_kind);
		return buf;
	}
	default: return err_name(err);
	}
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

void sysroot_cache_stats(const struct sysroot *r, struct sysroot_cache_stats *out)
{
	struct fdcache *c = r->cache;

	memset(out, 0, sizeof(*out));
	out->ent_size = sizeof(struct fdcache_ent);
	out->dir_size = sizeof(struct fdcache_dir);
	if (!c)
		return;
	pthread_mutex_lock(&c->mu);
	out->entries = c->n;
	out->dirs = c->ndirs;
	out->str_bytes = c->slen;
	pthread_mutex_unlock(&c->mu);
}

static void cache_free(struct fdcache *c)
{
	if (!c)
		return;
	cache_flush_locked(c);
	free(c->ent);
	free(c->strs);
	free(c->sidx);
	free(c->idx);
	free(c->dirs);
	free(c->didx);
	for (size_t i = 0; i < c->nrefused; i++)
		free(c->refused[i].path);
	free(c->refused);
	if (c->ifd >= 0)
		close(c->ifd);
	pthread_mutex_destroy(&c->mu);
	free(c);
}

/* Read a whole file with pread from offset 0 on a cached fd (opening it on
 * first use). Returns the byte count or -errno; the caller holds no lock. */
/* Buffer size of a whole-file read that finds out the file is too big. */
#define READ_CAP ((size_t)TT_READ_MAX + 2)

/* off > 0 (a later piece of sysfs_read_lines()): one pread there, in the
 * round of the piece at 0, and the size hint is left alone. */
static ssize_t cached_pread(const struct sysroot *r, const char *p, char **buf, size_t *cap,
			    bool grow, off_t off)
{
	struct fdcache *c = r->cache;
	struct fdcache_ent *e;
	size_t got = 0;
	int fd, tries = 0;

	pthread_mutex_lock(&c->mu);
	e = cache_find(c, p);
	if (c->ifd >= 0 && off == 0) {
		uint64_t now = coarse_ns();

		/* A file read again: a new round, which sees every change made
		 * before it started. Long rounds drain now and then, too. */
		if (e && e->round == c->round) {
			c->round++;
			cache_drain(c);
			c->drained_ns = now;
		} else if (c->stale || now - c->drained_ns > CACHE_DRAIN_NS) {
			cache_drain(c);
			c->drained_ns = now;
		}
		c->stale = false;
	}
	if (e && e->fd >= 0 && !r->live && !e->watched && off == 0) {
		/* No watch: check that the path still names that file. */
		struct stat st;

		if (root_stat(r, p, &st) != 0 || st.st_ino != e->ino ||
		    dev_pack(st.st_dev) != e->dev)
			cache_close(c, e);
	}
again:
	if (!e || e->fd < 0) {
		if (c->open >= c->max_open)
			cache_flush_locked(c);
		fd = root_open_quiet(r, p, O_RDONLY);
		if (fd < 0) {
			pthread_mutex_unlock(&c->mu);
			return refuse(r, p, fd);
		}
		if (!e)
			e = cache_add(c, p);
		e->watched = false;
		e->regular = false;
		if (!r->live) {
			struct stat st, st2;
			uint32_t real = 0, real2 = 0;
			char rp[TT_PATH_MAX * 2];
			bool disk, watched;

			if (fstat(fd, &st) == 0) {
				e->dev = dev_pack(st.st_dev);
				e->ino = st.st_ino;
				/* Watched from now on, along the real path too where
				 * it differs. A replacement between the open and the
				 * watch shows as another inode, and so does a file
				 * that is itself a symlink: those are checked with
				 * fstatat() on every read. */
				watched = watch_path(r, c, p, &disk, &real);
				e->real = real;
				if (watched && real)
					watched = watch_path(r, c, ent_real(c, e, rp, sizeof(rp)),
							     &disk, &real2) &&
						  !real2;
				e->regular = S_ISREG(st.st_mode) && (watched ? disk : disk_fd(fd));
				e->watched = watched &&
					     fstatat(r->dirfd, p, &st2, AT_SYMLINK_NOFOLLOW) == 0 &&
					     st2.st_ino == st.st_ino && st2.st_dev == st.st_dev;
			}
		}
		e->fd = fd;
		c->open++;
	}
	e->round = c->round;
	if (grow && e->regular) {
		/* a plain file says its size: a big one is refused unread */
		struct stat st;

		if (fstat(e->fd, &st) == 0 && st.st_size > (off_t)TT_READ_MAX) {
			pthread_mutex_unlock(&c->mu);
			(*buf)[0] = '\0';
			return refuse(r, p, -EFBIG);
		}
	}
	if (grow && (size_t)e->hint + e->hint / 8 + 64 > *cap) {
		/* As big as last time, and some: one read instead of several. */
		*cap = (size_t)e->hint + e->hint / 8 + 64;
		if (*cap > READ_CAP)
			*cap = READ_CAP;
		*buf = xrealloc(*buf, *cap);
	}
	got = 0;
	for (;;) {
		ssize_t n;

		if (got + 1 >= *cap) {
			if (!grow)
				break;
			if (got > TT_READ_MAX) {
				/* whole-file reads stop at TT_READ_MAX */
				e->hint = 0;
				pthread_mutex_unlock(&c->mu);
				(*buf)[0] = '\0';
				return refuse(r, p, -EFBIG);
			}
			*cap = *cap * 2 > READ_CAP ? READ_CAP : *cap * 2;
			*buf = xrealloc(*buf, *cap);
		}
		n = pread(e->fd, *buf + got, *cap - 1 - got, off + (off_t)got);
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
	if (off == 0)
		e->hint = got > HINT_MAX ? HINT_MAX : (uint32_t)got;
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

int sysfs_fd_read_all(int fd, char **buf, size_t *cap, size_t *got, size_t max, bool grow)
{
	for (;;) {
		ssize_t n;

		if (grow && *cap - *got < 2) {
			/* doubles, but never past max and two (the byte that
			 * says "more" and the NUL): a huge file costs no more */
			size_t want = *cap * 2;

			if (max && want > max + 2)
				want = max + 2;
			if (want <= *cap)
				return -EFBIG;
			*cap = want;
			*buf = xrealloc(*buf, *cap);
		} else if (!grow && *got == *cap - 1) { /* full: is there more? */
			char extra;

			n = sysfs_fd_read(fd, &extra, 1, -1);
			(*buf)[*got] = '\0';
			return n > 0 ? -EFBIG : n < 0 ? (int)n : 0;
		}
		n = sysfs_fd_read(fd, *buf + *got, *cap - 1 - *got, -1);
		if (n <= 0) {
			(*buf)[*got] = '\0';
			return (int)n;
		}
		*got += (size_t)n;
		if (max && *got > max)
			return -EFBIG;
	}
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
		ssize_t n = cached_pread(r, rel(path), &buf, &c2, false, 0);

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
			ssize_t m = cached_pread(r, rel(path), &big, &bc, false, 0);

			free(big);
			if (m > n)
				return -EFBIG;
		}
		return 0;
	}
	fd = root_open(r, rel(path), O_RDONLY);
	if (fd < 0) {
		buf[0] = '\0';
		return fd;
	}
	e = sysfs_fd_read_all(fd, &buf, &cap, &got, 0, false);
	close(fd);
	if (len)
		*len = got;
	return e;
}

int sysfs_read_alloc(const struct sysroot *r, const char *path, char **out, size_t *len)
{
	size_t cap = 4096, got = 0;
	char *buf;
	int fd, e;

	observe(r, path);
	if (r->cache && cacheable(rel(path))) {
		ssize_t n;

		buf = xmalloc(cap);
		n = cached_pread(r, rel(path), &buf, &cap, true, 0);
		if (n < 0) {
			free(buf);
			return (int)n;
		}
		*out = buf;
		if (len)
			*len = (size_t)n;
		return 0;
	}
	fd = root_open(r, rel(path), O_RDONLY);
	if (fd < 0)
		return fd;
	{
		struct stat st;

		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > (off_t)TT_READ_MAX) {
			close(fd);
			return refuse(r, rel(path), -EFBIG);
		}
	}
	buf = xmalloc(cap);
	e = sysfs_fd_read_all(fd, &buf, &cap, &got, TT_READ_MAX, true);
	close(fd);
	if (e) {
		free(buf);
		return e == -EFBIG ? refuse(r, rel(path), e) : e;
	}
	*out = buf;
	if (len)
		*len = got;
	return 0;
}

/* The next piece of p at off into buf (room for cap bytes): the byte count,
 * 0 at the end, or -errno. */
static ssize_t read_piece(const struct sysroot *r, const char *p, int fd, char *buf, size_t cap,
			  uint64_t off)
{
	if (fd < 0) {
		size_t room = cap + 1; /* cached_pread reads up to room - 1 */

		return cached_pread(r, p, &buf, &room, false, (off_t)off);
	}
	for (;;) {
		ssize_t n = read(fd, buf, cap);

		if (n >= 0 || errno != EINTR)
			return n < 0 ? -errno : n;
	}
}

int sysfs_read_lines(const struct sysroot *r, const char *path, size_t chunk,
		     int (*fn)(void *ctx, char *line, size_t len), void *ctx)
{
	const char *p = rel(path);
	size_t cap = chunk ? chunk : SYSFS_LINES_CHUNK, have = 0;
	uint64_t total = 0;
	int fd = -1, e = 0;
	char *buf;

	observe(r, path);
	if (!(r->cache && cacheable(p))) {
		fd = root_open(r, p, O_RDONLY);
		if (fd < 0)
			return fd;
	}
	buf = xmalloc(cap + 1);
	for (;;) {
		char *s = buf, *nl;
		ssize_t n;

		if (have == cap) { /* a line longer than the buffer: make room */
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
			s = buf;
		}
		n = read_piece(r, p, fd, buf + have, cap - have, total);
		if (n < 0) {
			e = (int)n;
			break;
		}
		if (n == 0) {
			if (have) { /* the last line has no newline */
				buf[have] = '\0';
				e = fn(ctx, buf, have);
			}
			break;
		}
		total += (uint64_t)n;
		if (total > TT_READ_MAX) {
			e = refuse(r, p, -EFBIG);
			break;
		}
		have += (size_t)n;
		while ((nl = memchr(s, '\n', have - (size_t)(s - buf))) != NULL) {
			*nl = '\0';
			e = fn(ctx, s, (size_t)(nl - s));
			if (e)
				goto out;
			s = nl + 1;
		}
		have -= (size_t)(s - buf);
		memmove(buf, s, have);
	}
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return e;
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

/* A number's file into buf[64]: 0, or the read's error (text too long
 * for a number: -EINVAL). */
static int read_num(const struct sysroot *r, const char *path, char *buf)
{
	int e = sysfs_read_str(r, path, buf, 64);

	return e == -EFBIG ? -EINVAL : e;
}

int sysfs_read_u64(const struct sysroot *r, const char *path, uint64_t *out)
{
	char buf[64];
	int e = read_num(r, path, buf);

	return e ? e : str_to_u64(buf, out);
}

int sysfs_read_i64(const struct sysroot *r, const char *path, int64_t *out)
{
	char buf[64];
	int e = read_num(r, path, buf);

	return e ? e : str_to_i64(buf, out);
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

/* A kernel file system (fs_kind): its files are written in place. */
static bool kernel_fs(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 && fs_kind((uint32_t)sf.f_type) == FS_KERNEL;
}

/* One write() on an open fd, which is closed. */
static int write_once(int fd, const char *val, size_t len)
{
	ssize_t n = write(fd, val, len);
	int e = n < 0 ? -errno : (size_t)n == len ? 0 : -EIO;

	if (close(fd) != 0 && !e)
		e = -errno;
	return e;
}

/* Temporary files are named ".NAME.tunetop-PID-N" next to NAME. */
#define TMP_TAG ".tunetop-"

/* Put val in place of the regular file name in dfd (whose stat is st): a
 * temporary file in the same directory, renamed over it. A writer killed
 * at any point leaves the old bytes or the new ones, never a part. */
static int replace_file(int dfd, const char *name, const struct stat *st, const char *val,
			size_t len)
{
	static unsigned seq;
	char tmp[NAME_MAX + 1];
	size_t off = 0;
	int fd = -1, e = 0;

	if (snprintf(tmp, sizeof(tmp), ".%s" TMP_TAG "%ld-%u", name, (long)getpid(),
		     __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED)) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (int tries = 0; fd < 0; tries++) {
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			break;
		if (errno != EEXIST || tries)
			return -errno;
		unlinkat(dfd, tmp, 0); /* left by a killed process that had our pid */
	}
	/* the target's mode and owner (a fixture copy keeps its permissions) */
	if (fchmod(fd, st->st_mode & 07777) != 0)
		e = -errno;
	if (!e && (st->st_uid != geteuid() || st->st_gid != getegid()) &&
	    fchown(fd, st->st_uid, st->st_gid) != 0 && errno != EPERM)
		e = -errno;
	while (!e && off < len) {
		ssize_t n = write(fd, val + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			e = n < 0 ? -errno : -EIO;
		else
			off += (size_t)n;
	}
	if (close(fd) != 0 && !e)
		e = -errno;
	if (!e && renameat(dfd, tmp, dfd, name) != 0)
		e = -errno;
	if (e)
		unlinkat(dfd, tmp, 0);
	return e;
}

/* A write replaced the file at p: its cached fd reads the old inode. */
static void cache_replaced(const struct sysroot *r, const char *p)
{
	struct fdcache *c = r->cache;
	struct fdcache_ent *e;

	if (!c)
		return;
	pthread_mutex_lock(&c->mu);
	if ((e = cache_find(c, p)) != NULL)
		cache_close(c, e);
	c->stale = true; /* other paths of the same file: the inotify events say */
	pthread_mutex_unlock(&c->mu);
}

static int write_beneath(const struct sysroot *r, const char *p, const char *val, size_t len)
{
	struct leaf l;
	struct stat st;
	int fd, e;

	e = resolve_at(r->dirfd, p, true, &l);
	if (e)
		return refuse(r, p, e);
	if (fstatat(l.dfd, l.name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		e = -errno;
	} else if (S_ISDIR(st.st_mode)) {
		e = -EISDIR;
	} else if (!S_ISREG(st.st_mode)) {
		/* a FIFO, socket or device is never opened to be written */
		notreg_kind = mode_kind(st.st_mode);
		e = refuse(r, p, -SYSFS_ENOTREG);
	} else if ((fd = openat(l.dfd, l.name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) <
		   0) {
		/* the target's own permissions decide, as for a write in place */
		e = -errno;
	} else if ((fd = only_regular(fd, O_NONBLOCK, false)) < 0) {
		e = refuse(r, p, fd); /* replaced since the fstatat() */
	} else if (kernel_fs(fd)) {
		e = write_once(fd, val, len);
	} else {
		close(fd);
		e = replace_file(l.dfd, l.name, &st, val, len);
		if (!e)
			cache_replaced(r, p);
	}
	leaf_close(&l);
	return e;
}

int sysfs_write(const struct sysroot *r, const char *path, const char *val, size_t len)
{
	struct stat st;
	int fd;

	if (r->readonly)
		return -EROFS;
	if (!r->live)
		return write_beneath(r, rel(path), val, len);
	/* sysfs and procfs take a value in one write(). O_TRUNC as the shell's
	 * `echo V > FILE` opens them (the kernel ignores it there): a regular
	 * file standing in for one (an emulated host shape bind-mounted over
	 * /sys) must not keep the tail of a longer old value. */
	if (fstatat(r->dirfd, rel(path), &st, 0) == 0 && S_ISDIR(st.st_mode))
		return -EISDIR;
	fd = root_open(r, rel(path), O_WRONLY | O_TRUNC);
	if (fd < 0)
		return fd;
	return write_once(fd, val, len);
}

int sysfs_write_str(const struct sysroot *r, const char *path, const char *val)
{
	return sysfs_write(r, path, val, strlen(val));
}

int sysfs_write_cleanup(const struct sysroot *r, const char *path)
{
	struct leaf l;
	struct dirent *de;
	char prefix[NAME_MAX + 16];
	size_t plen;
	int fd, e, n = 0;
	DIR *d;

	if (r->readonly)
		return -EROFS;
	if (r->live)
		return 0;
	e = resolve_at(r->dirfd, rel(path), true, &l);
	if (e)
		return e;
	plen = (size_t)snprintf(prefix, sizeof(prefix), ".%s" TMP_TAG, l.name);
	fd = openat(l.dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		e = -errno;
		if (fd >= 0)
			close(fd);
		leaf_close(&l);
		return e;
	}
	while ((de = readdir(d)) != NULL) {
		char *end;
		long pid;

		if (plen >= sizeof(prefix) || strncmp(de->d_name, prefix, plen))
			continue;
		pid = strtol(de->d_name + plen, &end, 10);
		if (pid <= 0 || *end != '-' || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* its writer may still be at work */
		if (unlinkat(l.dfd, de->d_name, 0) == 0)
			n++;
	}
	closedir(d);
	leaf_close(&l);
	return n;
}

int sysfs_open(const struct sysroot *r, const char *path, int flags)
{
	/* what writes: the access mode's write bits (not O_ACCMODE, which musl
	 * widens with O_PATH), or a flag that creates or truncates */
	if (r->readonly && (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)))
		return -EROFS;
	return root_open(r, rel(path), flags);
}

bool sysfs_exists(const struct sysroot *r, const char *path)
{
	int fd;

	observe(r, path); /* capture copies what was looked at, too */
	if (r->live)
		return faccessat(r->dirfd, rel(path), F_OK, 0) == 0;
	fd = open_beneath(r->dirfd, rel(path), O_PATH | O_CLOEXEC, 0);
	if (fd >= 0) {
		close(fd);
		return true;
	}
	/* A symlink that leaves the root is there, but refused: the read
	 * that follows fails with EXDEV and says so. */
	return refuse(r, rel(path), fd) == -EXDEV;
}

bool sysfs_is_dir(const struct sysroot *r, const char *path)
{
	struct stat st;
	int e = root_stat(r, rel(path), &st);

	if (e == -EXDEV)
		refuse(r, rel(path), e);
	return e == 0 && S_ISDIR(st.st_mode);
}

bool sysfs_writable(const struct sysroot *r, const char *path)
{
	struct leaf l;
	bool ok;

	if (r->live)
		return faccessat(r->dirfd, rel(path), W_OK, AT_EACCESS) == 0;
	if (resolve_at(r->dirfd, rel(path), true, &l) != 0)
		return false;
	ok = faccessat(l.dfd, l.name, W_OK, AT_EACCESS) == 0;
	leaf_close(&l);
	return ok;
}

int sysfs_readlink(const struct sysroot *r, const char *path, char *buf, size_t cap)
{
	struct leaf l;
	ssize_t n;
	int e;

	if (cap == 0)
		return -EINVAL;
	if (r->live) {
		n = readlinkat(r->dirfd, rel(path), buf, cap - 1);
	} else {
		e = resolve_at(r->dirfd, rel(path), false, &l);
		if (e)
			return refuse(r, rel(path), e);
		n = readlinkat(l.dfd, l.name, buf, cap - 1);
		e = errno;
		leaf_close(&l);
		errno = e;
	}
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
	fd = root_open(r, rel(path), O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd;
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

int sysfs_list_opt(const struct sysroot *r, const char *path, struct sysfs_list *out)
{
	int e = sysfs_list(r, path, out);

	return e == -ENOENT || e == -ENOTDIR ? 0 : e;
}

int64_t sysfs_read_nn(const struct sysroot *r, const char *dir, const char *file)
{
	int64_t v;

	if (sysfs_read_i64f(r, &v, "%s/%s", dir, file) != 0 || v < 0)
		return -1;
	return v;
}

ssize_t sysfs_fd_read(int fd, void *buf, size_t n, off_t off)
{
	for (;;) {
		ssize_t k = off < 0 ? read(fd, buf, n) : pread(fd, buf, n, off);

		if (k >= 0 || errno != EINTR)
			return k < 0 ? -errno : k;
	}
}
