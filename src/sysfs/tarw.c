/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ustar writer of tarw.h: one 512-byte header per entry (name split
 * into prefix/name at a '/', octal fields, checksum), the file's bytes
 * padded to 512, two zero blocks at the end. The walk is recursive over
 * sorted directory entries so the stream is the same for the same tree. */
#include "sysfs/tarw.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "sysfs/sysroot.h"
#include "sysfs/userfile.h"

/* name -> hdr's name (100) and prefix (155); false if it does not fit. */
static bool split_name(const char *name, char *h)
{
	size_t n = strlen(name);

	if (n <= 100) {
		memcpy(h, name, n);
		return true;
	}
	for (size_t i = n - 1; i > 0; i--)
		if (name[i] == '/' && i <= 155 && n - i - 1 <= 100 && n - i - 1 > 0) {
			memcpy(h + 345, name, i);
			memcpy(h, name + i + 1, n - i - 1);
			return true;
		}
	return false;
}

static int header(int fd, const char *name, char type, mode_t mode, uint64_t size, const char *link,
		  time_t mtime)
{
	char h[512];
	unsigned sum = 0;

	memset(h, 0, sizeof(h));
	if (!split_name(name, h) || (link && strlen(link) > 100))
		return -ENAMETOOLONG;
	snprintf(h + 100, 8, "%07o", (unsigned)(mode & 07777));
	snprintf(h + 108, 8, "%07o", 0u);
	snprintf(h + 116, 8, "%07o", 0u);
	snprintf(h + 124, 12, "%011llo", (unsigned long long)size);
	snprintf(h + 136, 12, "%011llo", (unsigned long long)(mtime > 0 ? mtime : 0));
	memset(h + 148, ' ', 8);
	h[156] = type;
	if (link)
		memcpy(h + 157, link, strlen(link));
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memcpy(h + 265, "root", 4);
	memcpy(h + 297, "root", 4);
	for (size_t i = 0; i < sizeof(h); i++)
		sum += (unsigned char)h[i];
	snprintf(h + 148, 8, "%06o", sum);
	h[155] = ' ';
	return userfile_write_all(fd, h, sizeof(h));
}

static int file_body(int fd, const char *path, uint64_t size)
{
	char buf[65536];
	uint64_t left = size;
	int in = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK), e = 0;
	struct stat st;

	if (in < 0)
		return -errno;
	if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
		/* replaced by a FIFO or a device since the walk saw a file */
		close(in);
		return -SYSFS_ENOTREG;
	}
	while (left && !e) {
		ssize_t r = read(in, buf, left < sizeof(buf) ? left : sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			/* shrank since the stat: pad with zeros, the header said size */
			memset(buf, 0, sizeof(buf));
			r = (ssize_t)(left < sizeof(buf) ? left : sizeof(buf));
		}
		e = userfile_write_all(fd, buf, (size_t)r);
		left -= (uint64_t)r;
	}
	close(in);
	if (!e && size % 512) {
		memset(buf, 0, 512);
		e = userfile_write_all(fd, buf, 512 - size % 512);
	}
	return e;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk(const char *top, const char *rel, int fd, struct sbuf *skipped)
{
	char *path = rel[0] ? xasprintf("%s/%s", top, rel) : xstrdup(top);
	DIR *d = opendir(path);
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	int e = 0;

	if (!d) {
		e = -errno;
		free(path);
		return e;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			names = xgrow(names, &cap, n + 1, sizeof(char *));
			names[n++] = xstrdup(de->d_name);
		}
	closedir(d);
	qsort(names, n, sizeof(char *), cmp_name);
	for (size_t i = 0; i < n && !e; i++) {
		char *r = rel[0] ? xasprintf("%s/%s", rel, names[i]) : xstrdup(names[i]);
		char *p = xasprintf("%s/%s", top, r), link[4096];
		struct stat st;
		int he = 0;

		if (lstat(p, &st) != 0) {
			sbuf_printf(skipped, "%s: %s\n", r, strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			char *dn = xasprintf("%s/", r);

			he = header(fd, dn, '5', st.st_mode, 0, NULL, st.st_mtime);
			free(dn);
			if (!he)
				e = walk(top, r, fd, skipped);
		} else if (S_ISLNK(st.st_mode)) {
			ssize_t l = readlink(p, link, sizeof(link) - 1);

			if (l >= 0) {
				link[l] = '\0';
				he = header(fd, r, '2', 0777, 0, link, st.st_mtime);
			}
		} else if (S_ISREG(st.st_mode)) {
			he = header(fd, r, '0', st.st_mode, (uint64_t)st.st_size, NULL,
				    st.st_mtime);
			if (!he)
				e = file_body(fd, p, (uint64_t)st.st_size);
		}
		if (he == -ENAMETOOLONG)
			sbuf_printf(skipped, "%s: name too long for ustar\n", r);
		else if (he)
			e = he;
		free(p);
		free(r);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(path);
	return e;
}

int tarw_tree(const char *dir, int fd, struct sbuf *skipped)
{
	static const char zero[1024];
	int e = walk(dir, "", fd, skipped);

	return e ? e : userfile_write_all(fd, zero, sizeof(zero));
}

static void rm_rel(int dfd, const char *name)
{
	int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (sub >= 0) {
		DIR *d = fdopendir(sub);
		struct dirent *de;

		if (d) {
			while ((de = readdir(d)))
				if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
					rm_rel(dirfd(d), de->d_name);
			closedir(d);
		} else {
			close(sub);
		}
		unlinkat(dfd, name, AT_REMOVEDIR);
	} else {
		unlinkat(dfd, name, 0);
	}
}

void tarw_rmtree(const char *dir)
{
	rm_rel(AT_FDCWD, dir);
}
