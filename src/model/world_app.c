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
#include "model/world_wm.h"
#include "sysfs/sysroot.h"

#define WORLD_APP_TAIL 16384 /* bytes: 50 lines of ~75 characters, twice over */

/* The number after key in line: 1 = *v set, 0 = none. */
static int parse_after(const char *line, const char *key, double *v)
{
	const char *p = strstr(line, key);
	size_t k = strlen(key);
	char *end;
	double x;

	if (!p)
		return 0;
	x = strtod(p + k, &end);
	if (end == p + k || !isfinite(x))
		return 0;
	*v = x;
	return 1;
}

int world_app_parse(const char *line, double *ms)
{
	return parse_after(line, "total:", ms);
}

/* The mean, SD and kurtosis of v[0..n) into out. */
static void moments(const double *v, size_t n, struct world_app *out)
{
	double s = 0, m2 = 0, m4 = 0;

	out->n = n;
	out->last_ms = v[0];
	for (size_t i = 0; i < n; i++)
		s += v[i];
	out->mean_ms = s / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = (v[i] - out->mean_ms) * (v[i] - out->mean_ms);

		m2 += d;
		m4 += d * d;
	}
	out->sd_ms = n > 1 ? sqrt(m2 / (double)(n - 1)) : NAN;
	out->kurt = n > 3 && m2 > 0 ? m4 * (double)n / (m2 * m2) : NAN;
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

/* own: the world's own figure (world_app_recent_figure), else "total:" */
static int recent(const struct sysroot *r, size_t n, bool own, struct world_app *out)
{
	char mark[256], *buf, *p;
	const struct world_def *d;
	double *v;
	size_t len, nv = 0;
	bool whole;
	int e;

	memset(out, 0, sizeof(*out));
	out->last_ms = out->mean_ms = out->sd_ms = out->kurt = NAN;
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
		double ms = NAN;

		*--p = '\0'; /* the line's '\n' */
		start = strrchr(buf, '\n');
		if (start)
			start++;
		else if (whole)
			start = buf;
		else
			break;
		/* a model world's figure is in its unit (world_wm.h) */
		if (own && d->wm ? parse_after(start, d->wm->line_prefix, &ms)
				 : world_app_parse(start, &ms))
			v[nv++] = own && d->wm ? ms * d->wm->unit_us / 1000.0 : ms;
		p = start;
	}
	if (!e && nv)
		moments(v, nv, out);
	free(buf);
	free(v);
	return e;
}

int world_app_recent(const struct sysroot *r, size_t n, struct world_app *out)
{
	return recent(r, n, false, out);
}

int world_app_recent_figure(const struct sysroot *r, size_t n, struct world_app *out)
{
	return recent(r, n, true, out);
}
