/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fd-held knobs: pmqos/cpu_dma_latency_us. The kernel keeps a PM QoS request
 * only while /dev/cpu_dma_latency stays open, and takes exactly 4 bytes as a
 * binary int32 (any other length is parsed as hex text!). A lease is an fd
 * this process holds; closing it (or exiting, or being killed) ends the
 * request.
 *
 * On a non-live root (fixture) the "device" is a regular file: writing
 * stores the 4 bytes (sysfs_write: renamed into place, never torn), and
 * restoring writes back the bytes that were there, which is what the
 * kernel's release amounts to. The file is held open through sysfs_open(),
 * which does not leave a non-live root. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/str.h"
#include "knob/knob_int.h"

static struct knob_lease *find(struct knob_ctx *ctx, const char *target)
{
	for (int i = 0; i < KNOB_MAX_LEASES; i++)
		if (ctx->lease[i].held && !strcmp(ctx->lease[i].target, target))
			return &ctx->lease[i];
	return NULL;
}

bool lease_held(struct knob_ctx *ctx, const char *target)
{
	return find(ctx, target) != NULL;
}

int lease_read(struct knob_ctx *ctx, const struct knob_ref *ref, char *value, size_t cap, char *raw,
	       size_t rawcap, size_t *rawlen)
{
	char buf[64];
	size_t len = 0;
	int e = knob_read_raw(ctx, ref->target, buf, sizeof(buf), &len, raw, rawcap, rawlen);

	if (e)
		return e;
	if (len == 4) {
		int32_t v;

		memcpy(&v, buf, 4);
		snprintf(value, cap, "%d", (int)v);
		return 0;
	}
	/* a fixture may hold the value as text */
	{
		int64_t v;

		if (str_to_i64(str_trim(buf), &v) != 0)
			return -EINVAL;
		snprintf(value, cap, "%lld", (long long)v);
	}
	return 0;
}

int lease_write(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value)
{
	struct knob_lease *l = find(ctx, ref->target);
	int64_t v64;
	int32_t v;
	ssize_t n;

	if (str_to_i64(value, &v64) != 0 || v64 < -1 || v64 > INT32_MAX)
		return -EINVAL;
	v = (int32_t)v64;
	if (!l) {
		int fd;

		for (int i = 0; i < KNOB_MAX_LEASES && !l; i++)
			if (!ctx->lease[i].held)
				l = &ctx->lease[i];
		if (!l)
			return -EMFILE;
		fd = sysfs_open(ctx->root, ref->target, O_RDWR);
		if (fd < 0)
			return fd;
		l->fd = fd;
		l->held = true;
		str_copy(l->target, sizeof(l->target), ref->target);
	}
	/* a fixture file: the 4 bytes renamed into place (the held fd stands
	 * for the request only) */
	if (!ctx->root->live)
		return sysfs_write(ctx->root, ref->target, (const char *)&v, sizeof(v));
	/* exactly 4 bytes: the kernel reads them as a binary s32 */
	n = write(l->fd, &v, sizeof(v));
	if (n < 0)
		return -errno;
	return n == (ssize_t)sizeof(v) ? 0 : -EIO;
}

int lease_restore(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
		  const char *raw, size_t rawlen)
{
	struct knob_lease *l = find(ctx, ref->target);

	(void)value;
	if (l) {
		close(l->fd);
		l->held = false;
		l->fd = -1;
	}
	/* live: closing the fd (or the holder's exit) ended the request */
	if (ctx->root->live || !raw)
		return 0;
	return sysfs_write(ctx->root, ref->target, raw, rawlen);
}

void lease_release_all(struct knob_ctx *ctx)
{
	for (int i = 0; i < KNOB_MAX_LEASES; i++) {
		if (ctx->lease[i].held)
			close(ctx->lease[i].fd);
		ctx->lease[i].held = false;
		ctx->lease[i].fd = -1;
	}
}
