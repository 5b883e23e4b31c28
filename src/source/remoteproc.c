/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Remote processors: reads /sys/class/remoteproc, /sys/bus/rpmsg/devices and
 * the debugfs trace buffers under the root. Owns the parsing of rpmsg
 * addresses and device names, trace tails, and the rule for which interrupt
 * names belong to inter-processor messaging. */
#include "source/remoteproc.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/str.h"
#include "core/xalloc.h"

#define RPROC_DIR   "sys/class/remoteproc"
#define RPMSG_DIR   "sys/bus/rpmsg/devices"
#define RPROC_DEBUG "sys/kernel/debug/remoteproc"

int remoteproc_parse_addr(const char *s)
{
	uint64_t v;
	char buf[32];
	char *t;

	if (!s)
		return -1;
	str_copy(buf, sizeof(buf), s);
	t = str_trim(buf);
	if (!*t)
		return -1;
	if (t[0] == '-')
		return -1; /* "-1" in device names: any */
	if (str_starts(t, "0x") || str_starts(t, "0X")) {
		if (str_to_hex_u64(t, &v) < 0)
			return -1;
	} else if (str_to_u64(t, &v) < 0) {
		return -1;
	}
	if (v >= 0x7fffffffu)
		return -1; /* RPMSG_ADDR_ANY (0xffffffff) */
	return (int)v;
}

int remoteproc_parse_devname(const char *dev, char *name, size_t cap, int *src, int *dst)
{
	/* "<parent>.<name>.<src>.<dst>"; the name itself may contain dots,
	 * the parent ("virtio0") does not. */
	const char *first = strchr(dev, '.');
	const char *last = strrchr(dev, '.');
	const char *mid;
	char num[16];
	size_t n;

	if (!first || last == first)
		return -EINVAL;
	for (mid = last - 1; mid > first && *mid != '.'; mid--)
		;
	if (mid == first)
		return -EINVAL;
	n = (size_t)(mid - first - 1);
	if (n == 0)
		return -EINVAL;
	if (cap) {
		if (n >= cap)
			n = cap - 1;
		memcpy(name, first + 1, n);
		name[n] = '\0';
	}
	n = (size_t)(last - mid - 1);
	if (n == 0 || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, mid + 1, n);
	num[n] = '\0';
	*src = remoteproc_parse_addr(num);
	*dst = remoteproc_parse_addr(last + 1);
	return 0;
}

void remoteproc_tail(const char *text_in, char *out, size_t cap)
{
	size_t len, start, j = 0;
	char *text;

	if (!cap)
		return;
	out[0] = '\0';
	if (!text_in)
		return;
	/* Firmware often prints CRLF: keep plain lines. */
	text = xmalloc(strlen(text_in) + 1);
	for (size_t i = 0; text_in[i]; i++)
		if (text_in[i] != '\r')
			text[j++] = text_in[i];
	text[j] = '\0';
	len = j;
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\0' || text[len - 1] == ' '))
		len--;
	if (len < cap) {
		memcpy(out, text, len);
		out[len] = '\0';
		free(text);
		return;
	}
	/* Keep the last cap-1 bytes, then drop the partial first line. */
	start = len - (cap - 1);
	{
		const char *nl = memchr(text + start, '\n', len - start);

		if (nl && (size_t)(nl - text) + 1 < len)
			start = (size_t)(nl - text) + 1;
	}
	memcpy(out, text + start, len - start);
	out[len - start] = '\0';
	free(text);
}

static bool word_at(const char *s, size_t i, size_t n)
{
	bool before = i == 0 || !isalnum((unsigned char)s[i - 1]);
	bool after = !isalnum((unsigned char)s[i + n]);

	return before && after;
}

bool remoteproc_irq_related(const char *irq_name)
{
	static const char *const subs[] = {"mailbox",	 "mbox",  "ipcc",  "rproc",
					   "remoteproc", "rpmsg", "vring", "imx_mu"};
	size_t len;

	if (!irq_name)
		return false;
	len = strlen(irq_name);
	for (size_t k = 0; k < sizeof(subs) / sizeof(subs[0]); k++) {
		size_t n = strlen(subs[k]);

		for (size_t i = 0; i + n <= len; i++)
			if (strncasecmp(irq_name + i, subs[k], n) == 0)
				return true;
	}
	for (size_t i = 0; i + 3 <= len; i++)
		if (strncasecmp(irq_name + i, "ipi", 3) == 0 && word_at(irq_name, i, 3))
			return true;
	return false;
}

/* dir/name/file into buf: true, or false with buf empty. */
static bool read_str(const struct sysroot *r, char *buf, size_t cap, const char *dir,
		     const char *name, const char *file)
{
	if (sysfs_read_strf(r, buf, cap, "%s/%s/%s", dir, name, file) < 0) {
		buf[0] = '\0';
		return false;
	}
	return true;
}

static int read_procs(const struct sysroot *r, struct remoteproc_info *out)
{
	struct sysfs_list l;
	int ret = sysfs_list_opt(r, RPROC_DIR, &l);

	if (ret < 0)
		return ret;
	out->p = xcalloc(l.n ? l.n : 1, sizeof(*out->p));
	for (size_t i = 0; i < l.n; i++) {
		struct rproc *p = &out->p[out->nproc];
		char path[TT_PATH_MAX];
		char *text = NULL;

		if (!str_starts(l.names[i], "remoteproc"))
			continue;
		str_copy(p->name, sizeof(p->name), l.names[i]);
		read_str(r, p->fw_name, sizeof(p->fw_name), RPROC_DIR, l.names[i], "name");
		read_str(r, p->state, sizeof(p->state), RPROC_DIR, l.names[i], "state");
		read_str(r, p->firmware, sizeof(p->firmware), RPROC_DIR, l.names[i], "firmware");
		snprintf(path, sizeof(path), RPROC_DEBUG "/%s/trace0", l.names[i]);
		if (sysfs_read_alloc(r, path, &text, NULL) == 0) {
			p->have_trace = true;
			remoteproc_tail(text, p->trace_tail, sizeof(p->trace_tail));
			free(text);
		}
		out->nproc++;
	}
	sysfs_list_free(&l);
	return 0;
}

static int read_chans(const struct sysroot *r, struct remoteproc_info *out)
{
	struct sysfs_list l;
	int ret = sysfs_list_opt(r, RPMSG_DIR, &l);

	if (ret < 0)
		return ret;
	out->ch = xcalloc(l.n ? l.n : 1, sizeof(*out->ch));
	for (size_t i = 0; i < l.n; i++) {
		struct rpmsg_chan *c = &out->ch[out->nchan++];
		char buf[TT_PATH_MAX], path[TT_PATH_MAX];
		int src = -1, dst = -1;
		const char *rp;

		str_copy(c->dev, sizeof(c->dev), l.names[i]);
		c->src = c->dst = -1;
		if (remoteproc_parse_devname(l.names[i], c->name, sizeof(c->name), &src, &dst) ==
		    0) {
			c->src = src;
			c->dst = dst;
		}
		/* The files, when present, are authoritative. */
		if (read_str(r, buf, sizeof(buf), RPMSG_DIR, l.names[i], "name"))
			str_copy(c->name, sizeof(c->name), buf);
		if (read_str(r, buf, sizeof(buf), RPMSG_DIR, l.names[i], "src"))
			c->src = remoteproc_parse_addr(buf);
		if (read_str(r, buf, sizeof(buf), RPMSG_DIR, l.names[i], "dst"))
			c->dst = remoteproc_parse_addr(buf);
		/* .../remoteproc/remoteproc0/rproc-virtio.0.auto/virtio0/<dev> */
		snprintf(path, sizeof(path), RPMSG_DIR "/%s", l.names[i]);
		if (sysfs_readlink(r, path, buf, sizeof(buf)) == 0 &&
		    (rp = strstr(buf, "/remoteproc/remoteproc")) != NULL) {
			size_t n = strcspn(rp + 12, "/");

			if (n < sizeof(c->rproc)) {
				memcpy(c->rproc, rp + 12, n);
				c->rproc[n] = '\0';
			}
		}
	}
	sysfs_list_free(&l);
	return 0;
}

int remoteproc_read(const struct sysroot *r, struct remoteproc_info *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = read_procs(r, out);
	if (ret == 0)
		ret = read_chans(r, out);
	return ret;
}

void remoteproc_free(struct remoteproc_info *info)
{
	free(info->p);
	free(info->ch);
	memset(info, 0, sizeof(*info));
}
