/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefs for `probe --break` (see tracebreak.h): locating it under the
 * root, holding tracing_on open, saving the trace buffer. */
#include "probe/tracebreak.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/xalloc.h"
#include "sysfs/sysroot.h"
#include "sysfs/userfile.h"

static const char *const tracefs_dirs[] = {"sys/kernel/tracing", "sys/kernel/debug/tracing"};

int tracebreak_open(struct tracebreak *t, const struct sysroot *r)
{
	char path[96], val[16], abs[TT_PATH_MAX];
	int e;

	memset(t, 0, sizeof(*t));
	t->r = r;
	t->on_fd = -1;
	for (size_t i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/tracing_on", tracefs_dirs[i]);
		if (sysfs_exists(r, path)) {
			snprintf(t->dir, sizeof(t->dir), "%s", tracefs_dirs[i]);
			break;
		}
	}
	if (!t->dir[0]) {
		snprintf(t->why, sizeof(t->why),
			 "no tracefs under %s (looked for sys/kernel/tracing/tracing_on and "
			 "sys/kernel/debug/tracing/tracing_on): no trace will be saved",
			 r->path);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/tracing_on", t->dir);
	sysroot_abspath(r, path, abs, sizeof(abs));
	e = sysfs_read_str(r, path, val, sizeof(val));
	if (e) {
		snprintf(t->why, sizeof(t->why), "%s: %s: no trace will be saved", abs,
			 sysfs_why(e));
		return e;
	}
	if (strcmp(val, "1")) {
		snprintf(t->why, sizeof(t->why),
			 "tracing is off (%s = %s): no trace will be saved (tunetop does not "
			 "turn tracing on)",
			 abs, val);
		return -ENODATA;
	}
	t->was_on = true;
	t->on_fd = sysfs_open(r, path, O_WRONLY | O_CLOEXEC);
	if (t->on_fd < 0) {
		e = t->on_fd;
		t->on_fd = -1;
		snprintf(t->why, sizeof(t->why), "%s: %s: tracing cannot be stopped", abs,
			 sysfs_why(e));
		return e;
	}
	return 0;
}

int tracebreak_save(struct tracebreak *t, const char *dest)
{
	char path[96], abs[TT_PATH_MAX], buf[65536];
	struct userfile_out o;
	int in, e;

	snprintf(path, sizeof(path), "%s/trace", t->dir);
	sysroot_abspath(t->r, path, abs, sizeof(abs));
	in = sysfs_open(t->r, path, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		snprintf(t->why, sizeof(t->why), "%s: %s", abs, sysfs_why(in));
		return in;
	}
	e = userfile_out_open(&o, dest);
	if (e) {
		snprintf(t->why, sizeof(t->why), "%s: %s", dest, err_name(e));
		close(in);
		return e;
	}
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = -errno;
			snprintf(t->why, sizeof(t->why), "%s: %s", abs, err_name(e));
			break;
		}
		if (!n)
			break;
		e = userfile_write_all(o.fd, buf, (size_t)n);
		if (e) {
			snprintf(t->why, sizeof(t->why), "%s: %s", dest, err_name(e));
			break;
		}
	}
	close(in);
	if (!e) {
		e = userfile_out_commit(&o, 0);
		if (e)
			snprintf(t->why, sizeof(t->why), "%s: %s", dest, err_name(e));
	} else {
		userfile_out_commit(&o, e);
	}
	return e;
}

void tracebreak_close(struct tracebreak *t)
{
	if (t->on_fd >= 0)
		close(t->on_fd);
	t->on_fd = -1;
}
