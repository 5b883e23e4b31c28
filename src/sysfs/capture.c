/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fixture capture: walk each path component under the source root; a
 * symlink component is recreated (made relative when it was absolute) and
 * followed, directories are created, and the final file's bytes are copied
 * exactly. On a source root other than "/" a symlink that leaves it
 * (absolute, or climbing above it) is not followed (EXDEV), as sysroot
 * reads would not follow it either. Nothing is written outside the
 * destination directory: every write is an *at() call on a directory of
 * the destination reached without following symlinks (capture creates
 * only real directories on the way to a file), with a name that has no
 * ".." after normalisation. */
#include "sysfs/capture.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/xalloc.h"

int capture_open(struct capture *c, const struct sysroot *src, const char *out_dir)
{
	memset(c, 0, sizeof(*c));
	sbuf_init(&c->skipped);
	sbuf_init(&c->failed);
	c->src = src;
	if (mkdir(out_dir, 0755) != 0 && errno != EEXIST)
		return -errno;
	c->out_fd = open(out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->out_fd < 0)
		return -errno;
	return 0;
}

void capture_close(struct capture *c)
{
	if (c->out_fd >= 0)
		close(c->out_fd);
	sbuf_free(&c->skipped);
	sbuf_free(&c->failed);
}

/* Normalise "a/b/../c/./d" → "a/c/d"; returns -EINVAL if it climbs above the root. */
static int normalise(const char *in, char *out, size_t cap)
{
	char *copy = xstrdup(in), *save = NULL, *tok;
	size_t len = 0;

	out[0] = '\0';
	for (tok = strtok_r(copy, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			char *slash;

			if (!len) {
				free(copy);
				return -EINVAL;
			}
			slash = strrchr(out, '/');
			len = slash ? (size_t)(slash - out) : 0;
			out[len] = '\0';
			continue;
		}
		if (len + strlen(tok) + 2 > cap) {
			free(copy);
			return -ENAMETOOLONG;
		}
		len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? "/" : "", tok);
	}
	free(copy);
	return 0;
}

static void skip(struct capture *c, const char *rel, int err)
{
	sbuf_printf(&c->skipped, "%s: %s\n", rel,
		    err == -EFBIG ? "larger than " TT_READ_MAX_TEXT " (EFBIG)" : sysfs_why(err));
}

/* The destination directory holding `path` (O_PATH, reached without
 * following any symlink) and, in *name, the last component. */
static int out_parent(const struct capture *c, const char *path, const char **name)
{
	const char *slash = strrchr(path, '/'), *s = path;
	int fd = openat(c->out_fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);

	*name = slash ? slash + 1 : path;
	while (fd >= 0 && slash && s < slash) {
		char comp[256];
		size_t n = strcspn(s, "/");
		int next;

		if (n >= sizeof(comp)) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, s, n);
		comp[n] = '\0';
		s += n + 1;
		if (!n)
			continue;
		next = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		fd = next;
	}
	return fd < 0 ? -errno : fd;
}

/* An error of the destination side (a file or directory of the copy not
 * written), as opposed to a source file that could not be read. */
static int written(struct capture *c, int e)
{
	if (e)
		c->werr = true;
	return e;
}

static int copy_file(struct capture *c, const char *rel)
{
	char *data = NULL;
	size_t len = 0;
	int e = sysfs_read_alloc(c->src, rel, &data, &len);
	const char *name;
	int fd, dfd;

	if (e)
		return e;
	dfd = out_parent(c, rel, &name);
	if (dfd < 0) {
		free(data);
		return written(c, dfd);
	}
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
		    0644);
	e = fd < 0 ? (errno == ENXIO ? -SYSFS_ENOTREG : -errno) : 0;
	if (fd >= 0) {
		struct stat st;

		/* a FIFO or device already in the destination is not written */
		if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			close(fd);
			fd = -1;
			e = -SYSFS_ENOTREG;
		}
	}
	close(dfd);
	if (fd < 0) {
		free(data);
		return written(c, e);
	}
	if (len) {
		ssize_t n = write(fd, data, len);

		e = n < 0 ? -errno : n != (ssize_t)len ? -EIO : 0;
	}
	if (close(fd) != 0 && !e)
		e = -errno;
	free(data);
	if (!e)
		c->nfiles++;
	written(c, e);
	return e;
}

/* lstat of path in the destination: 0 present, -ENOENT absent. */
static int out_lstat(const struct capture *c, const char *path)
{
	const char *name;
	struct stat st;
	int e, dfd = out_parent(c, path, &name);

	if (dfd < 0)
		return dfd;
	e = fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : -errno;
	close(dfd);
	return e;
}

static int out_symlink(const struct capture *c, const char *target, const char *path)
{
	const char *name;
	int e, dfd = out_parent(c, path, &name);

	if (dfd < 0)
		return dfd;
	e = symlinkat(target, dfd, name) == 0 || errno == EEXIST ? 0 : -errno;
	close(dfd);
	return e;
}

static int out_mkdir(const struct capture *c, const char *path)
{
	const char *name;
	struct stat st;
	int e = 0, dfd = out_parent(c, path, &name);

	if (dfd < 0)
		return dfd;
	if (mkdirat(dfd, name, 0755) != 0) {
		e = -errno;
		/* there already, as a directory (not a symlink to one) */
		if (e == -EEXIST && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISDIR(st.st_mode))
			e = 0;
	}
	close(dfd);
	return e;
}

static int capture_norm(struct capture *c, const char *path, int depth);

/* Make the chain of components of `path` exist in the destination. */
static int capture_norm(struct capture *c, const char *path, int depth)
{
	char prefix[TT_PATH_MAX];
	const char *p = path;

	if (depth > 16)
		return -ELOOP;
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - path) : strlen(path);
		struct stat st;

		if (n >= sizeof(prefix))
			return -ENAMETOOLONG;
		memcpy(prefix, path, n);
		prefix[n] = '\0';
		if (fstatat(c->src->dirfd, prefix, &st, AT_SYMLINK_NOFOLLOW) != 0)
			return -errno;
		if (S_ISLNK(st.st_mode)) {
			char target[TT_PATH_MAX], joined[2 * TT_PATH_MAX], norm[TT_PATH_MAX],
				linkdir[TT_PATH_MAX];
			char *ls;
			int e;

			e = sysfs_readlink(c->src, prefix, target, sizeof(target));
			if (e)
				return e;
			snprintf(linkdir, sizeof(linkdir), "%s", prefix);
			ls = strrchr(linkdir, '/');
			if (ls)
				*ls = '\0';
			else
				linkdir[0] = '\0';
			if (target[0] == '/') {
				/* Absolute: on the live root it means "under
				 * the root"; a tree's own root it would leave. */
				if (!c->src->live)
					return -EXDEV;
				e = normalise(target, norm, sizeof(norm));
			} else {
				snprintf(joined, sizeof(joined), "%s/%s", linkdir, target);
				e = normalise(joined, norm, sizeof(norm));
			}
			if (e)
				return e == -EINVAL ? -EXDEV : e; /* climbs above the root */
			/* Recreate the link, relative, inside the destination. */
			if ((e = out_lstat(c, prefix)) == -ENOENT) {
				char rel_target[2 * TT_PATH_MAX] = "";
				size_t up = 0;

				for (const char *q = linkdir; *q; q++)
					if (*q == '/')
						up++;
				if (linkdir[0])
					up++;
				for (size_t i = 0; i < up; i++)
					strncat(rel_target, "../",
						sizeof(rel_target) - strlen(rel_target) - 1);
				strncat(rel_target, norm,
					sizeof(rel_target) - strlen(rel_target) - 1);
				e = out_symlink(c, rel_target, prefix);
				if (e)
					return written(c, e);
				c->nlinks++;
			} else if (e) {
				return written(c, e);
			}
			/* Continue with the target, then the rest of the path. */
			{
				char rest[2 * TT_PATH_MAX];

				if (slash)
					snprintf(rest, sizeof(rest), "%s/%s", norm, slash + 1);
				else
					snprintf(rest, sizeof(rest), "%s", norm);
				if (strlen(rest) >= TT_PATH_MAX)
					return -ENAMETOOLONG;
				return capture_norm(c, rest, depth + 1);
			}
		}
		if (S_ISDIR(st.st_mode)) {
			int e = out_mkdir(c, prefix);

			if (e)
				return written(c, e);
		} else if (!slash) {
			if (S_ISREG(st.st_mode))
				return copy_file(c, prefix);
			/* FIFOs, sockets, devices: not fixture material */
			return sysfs_not_regular(st.st_mode);
		} else {
			return -ENOTDIR;
		}
		if (!slash)
			return 0;
		p = slash + 1;
	}
}

int capture_path(struct capture *c, const char *rel)
{
	char norm[TT_PATH_MAX];
	int e;

	while (*rel == '/')
		rel++;
	/* Device nodes (dev/cpu_dma_latency) are not part of a fixture. */
	if (!strncmp(rel, "dev/", 4) || !strcmp(rel, "."))
		return 0;
	e = normalise(rel, norm, sizeof(norm));
	c->werr = false;
	if (!e)
		e = capture_norm(c, norm, 0);
	if (e && c->werr) {
		/* not written into the copy: counted, the first one kept */
		if (!c->nfailed++)
			sbuf_printf(&c->failed, "%s: %s", rel, sysfs_why(e));
	} else if (e && e != -ENOENT) {
		skip(c, rel, e);
	}
	return e;
}
