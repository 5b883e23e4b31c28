/* Fixture capture: walk each path component under the source root; a
 * symlink component is recreated (made relative when it was absolute) and
 * followed, directories are created, and the final file's bytes are copied
 * exactly. Nothing is written outside the destination directory: every
 * write is an *at() call on the destination's fd with a path that has no
 * ".." component after normalisation. */
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
	sbuf_printf(&c->skipped, "%s: %s\n", rel, err_name(err));
}

static int copy_file(struct capture *c, const char *rel)
{
	char *data = NULL;
	size_t len = 0;
	int e = sysfs_read_alloc(c->src, rel, &data, &len);
	int fd;

	if (e)
		return e;
	fd = openat(c->out_fd, rel, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		e = -errno;
		free(data);
		return e;
	}
	if (len && write(fd, data, len) != (ssize_t)len)
		e = -EIO;
	if (close(fd) != 0 && !e)
		e = -errno;
	free(data);
	if (!e)
		c->nfiles++;
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
				/* Absolute: it means "under the root". */
				e = normalise(target, norm, sizeof(norm));
			} else {
				snprintf(joined, sizeof(joined), "%s/%s", linkdir, target);
				e = normalise(joined, norm, sizeof(norm));
			}
			if (e)
				return e;
			/* Recreate the link, relative, inside the destination. */
			if (faccessat(c->out_fd, prefix, F_OK, AT_SYMLINK_NOFOLLOW) != 0) {
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
				if (symlinkat(rel_target, c->out_fd, prefix) != 0 &&
				    errno != EEXIST)
					return -errno;
				c->nlinks++;
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
			if (mkdirat(c->out_fd, prefix, 0755) != 0 && errno != EEXIST)
				return -errno;
		} else if (!slash) {
			if (S_ISREG(st.st_mode))
				return copy_file(c, prefix);
			return -EINVAL; /* devices, sockets: not fixture material */
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
	if (!e)
		e = capture_norm(c, norm, 0);
	if (e && e != -ENOENT)
		skip(c, rel, e);
	return e;
}
