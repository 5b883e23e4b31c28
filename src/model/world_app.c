/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The world's application, read back from its log (world_app.h): the tail
 * of the log (WORLD_APP_TAIL bytes, whatever the log's length) through the
 * tree's own file API, the frames' total times summed. */
#include "model/world_app.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/str.h"
#include "model/world.h"
#include "sysfs/sysroot.h"

#define WORLD_APP_TAIL 16384 /* bytes: 50 lines of ~75 characters, twice over */

int world_app_parse(const char *line, double *ms)
{
	const char *p = strstr(line, "total:");
	char *end;
	double v;

	if (!p)
		return 0;
	v = strtod(p + 6, &end);
	if (end == p + 6 || !isfinite(v))
		return 0;
	*ms = v;
	return 1;
}

/* The last `cap` bytes of the file (from a line's start): 0 or -errno. */
static int read_tail(const struct sysroot *r, const char *path, char *buf, size_t cap, size_t *len,
		     bool *whole)
{
	struct stat st;
	ssize_t k = -1;
	int fd = sysfs_open(r, path, O_RDONLY), e;

	*len = 0;
	*whole = false;
	if (fd < 0)
		return fd;
	e = fstat(fd, &st) == 0 ? 0 : -errno;
	if (!e) {
		off_t off = st.st_size > (off_t)(cap - 1) ? st.st_size - (off_t)(cap - 1) : 0;

		*whole = off == 0;
		k = pread(fd, buf, cap - 1, off);
		e = k < 0 ? -errno : 0;
	}
	close(fd);
	if (e)
		return e;
	buf[k] = '\0';
	*len = (size_t)k;
	return 0;
}

int world_app_recent(const struct sysroot *r, size_t n, struct world_app *out)
{
	char mark[256], *buf, *p;
	const struct world_def *d;
	double *v;
	size_t len, nv = 0;
	bool whole;
	int e;

	memset(out, 0, sizeof(*out));
	out->last_ms = out->mean_ms = out->sd_ms = NAN;
	if (!world_present(r))
		return -ENOENT;
	e = sysfs_read_str(r, WORLD_MARKER, mark, sizeof(mark));
	if (e)
		return e;
	if (sscanf(mark, "world %63s", out->world) != 1 || !(d = world_find(out->world)))
		return -EINVAL;
	buf = malloc(WORLD_APP_TAIL);
	v = calloc(n ? n : 1, sizeof(*v));
	if (!buf || !v) {
		free(buf);
		free(v);
		return -ENOMEM;
	}
	e = read_tail(r, d->log, buf, WORLD_APP_TAIL, &len, &whole);
	/* a line being written (no '\n' yet) is left for the next read */
	while (len && buf[len - 1] != '\n')
		len--;
	/* from the end back: the last n lines with a total; the first line of
	 * the tail counts only when the tail starts at the file's start */
	for (p = buf + len; !e && p > buf && nv < n;) {
		char *start;
		double ms;

		*--p = '\0'; /* the line's '\n' */
		start = strrchr(buf, '\n');
		if (start)
			start++;
		else if (whole)
			start = buf;
		else
			break;
		if (world_app_parse(start, &ms) == 1)
			v[nv++] = ms;
		p = start;
	}
	if (!e && nv) {
		double s = 0, ss = 0;

		out->n = nv;
		out->last_ms = v[0];
		for (size_t i = 0; i < nv; i++)
			s += v[i];
		out->mean_ms = s / (double)nv;
		for (size_t i = 0; i < nv; i++)
			ss += (v[i] - out->mean_ms) * (v[i] - out->mean_ms);
		out->sd_ms = nv > 1 ? sqrt(ss / (double)(nv - 1)) : NAN;
	}
	free(buf);
	free(v);
	return e;
}
