/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel configuration (see kconfig.h): find the file, inflate
 * /proc/config.gz with zlib, parse the CONFIG_ lines and keep the options
 * that decide latency. */
#include "source/kconfig.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/str.h"
#include "core/xalloc.h"

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

/* A distribution config is about 250 KiB of text; 8 MiB is far beyond any. */
#define KCONFIG_TEXT_MAX (8u << 20)

const char *const kconfig_names[KCONFIG_NOPTS] = {
	[KC_PREEMPT_RT] = "PREEMPT_RT",
	[KC_PREEMPT] = "PREEMPT",
	[KC_PREEMPT_VOLUNTARY] = "PREEMPT_VOLUNTARY",
	[KC_PREEMPT_NONE] = "PREEMPT_NONE",
	[KC_PREEMPT_DYNAMIC] = "PREEMPT_DYNAMIC",
	[KC_NO_HZ_FULL] = "NO_HZ_FULL",
	[KC_NO_HZ_IDLE] = "NO_HZ_IDLE",
	[KC_RCU_NOCB_CPU] = "RCU_NOCB_CPU",
	[KC_CPU_ISOLATION] = "CPU_ISOLATION",
	[KC_RT_GROUP_SCHED] = "RT_GROUP_SCHED",
	[KC_UCLAMP_TASK] = "UCLAMP_TASK",
	[KC_IRQ_FORCED_THREADING] = "IRQ_FORCED_THREADING",
	[KC_HZ] = "HZ",
	[KC_CPU_IDLE] = "CPU_IDLE",
	[KC_CPU_IDLE_GOV_LADDER] = "CPU_IDLE_GOV_LADDER",
	[KC_CPU_IDLE_GOV_MENU] = "CPU_IDLE_GOV_MENU",
	[KC_CPU_IDLE_GOV_TEO] = "CPU_IDLE_GOV_TEO",
	[KC_CPU_IDLE_GOV_HALTPOLL] = "CPU_IDLE_GOV_HALTPOLL",
	[KC_CPU_FREQ] = "CPU_FREQ",
	[KC_CPU_FREQ_GOV_PERFORMANCE] = "CPU_FREQ_GOV_PERFORMANCE",
	[KC_CPU_FREQ_GOV_POWERSAVE] = "CPU_FREQ_GOV_POWERSAVE",
	[KC_CPU_FREQ_GOV_USERSPACE] = "CPU_FREQ_GOV_USERSPACE",
	[KC_CPU_FREQ_GOV_ONDEMAND] = "CPU_FREQ_GOV_ONDEMAND",
	[KC_CPU_FREQ_GOV_CONSERVATIVE] = "CPU_FREQ_GOV_CONSERVATIVE",
	[KC_CPU_FREQ_GOV_SCHEDUTIL] = "CPU_FREQ_GOV_SCHEDUTIL",
	[KC_SCHED_DEBUG] = "SCHED_DEBUG",
};

static int find_opt(const char *name, size_t n)
{
	/* kernels before 5.3 (the RT patch set) called it PREEMPT_RT_FULL */
	if (n == strlen("PREEMPT_RT_FULL") && !strncmp(name, "PREEMPT_RT_FULL", n))
		return KC_PREEMPT_RT;
	for (int i = 0; i < KCONFIG_NOPTS; i++)
		if (strlen(kconfig_names[i]) == n && !strncmp(kconfig_names[i], name, n))
			return i;
	return -1;
}

static bool name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static void parse_line(const char *p, const char *end, struct kconfig_info *k)
{
	const char *name, *ne;
	int id;

	if (*p == '#') {
		/* "# CONFIG_X is not set" */
		static const char tail[] = " is not set";

		p++;
		while (p < end && *p == ' ')
			p++;
		if ((size_t)(end - p) < 7 || strncmp(p, "CONFIG_", 7))
			return;
		name = p + 7;
		for (ne = name; ne < end && name_char(*ne); ne++)
			;
		if (ne == name || (size_t)(end - ne) < sizeof(tail) - 1 ||
		    strncmp(ne, tail, sizeof(tail) - 1))
			return;
		k->nlines++;
		if ((id = find_opt(name, (size_t)(ne - name))) >= 0) {
			k->opt[id].v = KCONFIG_NOT_SET;
			k->opt[id].val[0] = '\0';
		}
		return;
	}
	if ((size_t)(end - p) < 7 || strncmp(p, "CONFIG_", 7))
		return;
	name = p + 7;
	for (ne = name; ne < end && name_char(*ne); ne++)
		;
	if (ne == name || ne >= end || *ne != '=')
		return;
	k->nlines++;
	if ((id = find_opt(name, (size_t)(ne - name))) < 0)
		return;
	p = ne + 1;
	{
		struct kconfig_opt *o = &k->opt[id];
		size_t n = (size_t)(end - p);

		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
			n--;
		if (n == 1 && *p == 'y') {
			o->v = KCONFIG_Y;
		} else if (n == 1 && *p == 'm') {
			o->v = KCONFIG_M;
		} else if (n == 1 && *p == 'n') {
			o->v = KCONFIG_NOT_SET;
		} else if (n >= 2 && p[0] == '"' && p[n - 1] == '"') {
			o->v = KCONFIG_VALUE;
			snprintf(o->val, sizeof(o->val), "%.*s", (int)(n - 2), p + 1);
		} else if (n) {
			o->v = KCONFIG_VALUE;
			snprintf(o->val, sizeof(o->val), "%.*s", (int)n, p);
		}
	}
}

int kconfig_parse(const char *text, size_t len, struct kconfig_info *k)
{
	const char *p = text, *end = text + len;

	memset(k->opt, 0, sizeof(k->opt));
	k->nlines = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		parse_line(p, le, k);
		p = nl ? nl + 1 : end;
	}
	return k->nlines ? 0 : -EINVAL;
}

int kconfig_gunzip(const void *gz, size_t len, size_t max, char **out, size_t *outlen,
		   const char **why)
{
#ifdef HAVE_ZLIB
	z_stream zs;
	size_t cap = len * 4 + 4096, n = 0;
	char *buf;
	int ret;

	*out = NULL;
	*outlen = 0;
	if (len < 2 || ((const unsigned char *)gz)[0] != 0x1f ||
	    ((const unsigned char *)gz)[1] != 0x8b) {
		*why = "not gzip data";
		return -EINVAL;
	}
	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
		*why = "zlib could not start";
		return -ENOMEM;
	}
	if (cap > max + 1)
		cap = max + 1;
	buf = xmalloc(cap);
	zs.next_in = (Bytef *)(uintptr_t)gz;
	zs.avail_in = (uInt)len;
	do {
		if (n + 1 >= cap) {
			if (cap > max) {
				inflateEnd(&zs);
				free(buf);
				*why = "larger than 8 MiB inflated";
				return -EFBIG;
			}
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			buf = xrealloc(buf, cap);
		}
		zs.next_out = (Bytef *)buf + n;
		zs.avail_out = (uInt)(cap - 1 - n);
		ret = inflate(&zs, Z_NO_FLUSH);
		n = (size_t)((char *)zs.next_out - buf);
	} while (ret == Z_OK);
	inflateEnd(&zs);
	if (ret != Z_STREAM_END) {
		free(buf);
		*why = ret == Z_BUF_ERROR ? "truncated gzip data" : "corrupt gzip data";
		return ret == Z_BUF_ERROR ? -ENODATA : -EINVAL;
	}
	buf[n] = '\0';
	*out = buf;
	*outlen = n;
	*why = NULL;
	return 0;
#else
	(void)gz;
	(void)len;
	(void)max;
	*out = NULL;
	*outlen = 0;
	*why = "built without zlib";
	return -ENOTSUP;
#endif
}

static void release_of(const struct sysroot *r, const char *hint, char *buf, size_t cap)
{
	struct utsname u;

	buf[0] = '\0';
	if (r->live && uname(&u) == 0)
		str_copy(buf, cap, u.release);
	if (!buf[0])
		sysfs_read_str(r, "proc/sys/kernel/osrelease", buf, cap);
	if (!buf[0] && hint)
		str_copy(buf, cap, hint);
}

/* Use one file's text; on failure note why in k->problem. */
static int use_text(struct kconfig_info *k, const char *abs, const char *rel, const char *text,
		    size_t len)
{
	if (kconfig_parse(text, len, k) != 0) {
		snprintf(k->problem, sizeof(k->problem),
			 "%s: not a kernel config (no CONFIG_ line)", abs);
		return -EINVAL;
	}
	k->have = true;
	snprintf(k->source, sizeof(k->source), "/%s", rel);
	return 0;
}

static int kconfig_find(const struct sysroot *r, const char *release, struct kconfig_info *k);

int kconfig_read(const struct sysroot *r, const char *release, struct kconfig_info *k)
{
	int e = kconfig_find(r, release, k);

	k->tried = true;
	k->err = e;
	return e;
}

static int kconfig_find(const struct sysroot *r, const char *release, struct kconfig_info *k)
{
	char rel[96], boot[TT_PATH_MAX], abs_gz[TT_PATH_MAX], abs_boot[TT_PATH_MAX];
	char *data = NULL, *text = NULL;
	size_t len = 0, tlen = 0;
	int e, last = -ENOENT;

	memset(k, 0, sizeof(*k));
	release_of(r, release, rel, sizeof(rel));
	snprintf(boot, sizeof(boot), "boot/config-%s", rel[0] ? rel : "RELEASE");
	sysroot_abspath(r, "proc/config.gz", abs_gz, sizeof(abs_gz));
	sysroot_abspath(r, boot, abs_boot, sizeof(abs_boot));
	snprintf(k->looked, sizeof(k->looked), "/proc/config.gz, /%s", boot);

	e = sysfs_read_alloc(r, "proc/config.gz", &data, &len);
	if (e == 0) {
		const char *why = NULL;

		e = kconfig_gunzip(data, len, KCONFIG_TEXT_MAX, &text, &tlen, &why);
		if (e == 0)
			e = use_text(k, abs_gz, "proc/config.gz", text, tlen);
		else
			snprintf(k->problem, sizeof(k->problem), "%s: %s", abs_gz, why);
		free(text);
		free(data);
		if (e == 0)
			return 0;
		last = e;
	} else if (e != -ENOENT) {
		snprintf(k->problem, sizeof(k->problem), "%s: %s", abs_gz, sysfs_why(e));
		last = e;
	}
	if (!rel[0])
		return last;
	e = sysfs_read_alloc(r, boot, &data, &len);
	if (e == 0) {
		char keep[sizeof(k->problem)];

		str_copy(keep, sizeof(keep), k->problem);
		e = use_text(k, abs_boot, boot, data, len);
		if (e == 0)
			str_copy(k->problem, sizeof(k->problem), keep); /* config.gz's trouble */
		free(data);
		return e;
	}
	if (e != -ENOENT) {
		snprintf(k->problem, sizeof(k->problem), "%s: %s", abs_boot, sysfs_why(e));
		last = e;
	}
	return last;
}

const char *kconfig_str(const struct kconfig_info *k, enum kconfig_id id)
{
	const struct kconfig_opt *o;

	if (!k->have || id >= KCONFIG_NOPTS)
		return NULL;
	o = &k->opt[id];
	switch (o->v) {
	case KCONFIG_Y: return "y";
	case KCONFIG_M: return "m";
	case KCONFIG_NOT_SET: return "n";
	case KCONFIG_VALUE: return o->val;
	default: return NULL;
	}
}

bool kconfig_enabled(const struct kconfig_info *k, enum kconfig_id id)
{
	return k->have && id < KCONFIG_NOPTS &&
	       (k->opt[id].v == KCONFIG_Y || k->opt[id].v == KCONFIG_M);
}

bool kconfig_disabled(const struct kconfig_info *k, enum kconfig_id id)
{
	return k->have && id < KCONFIG_NOPTS &&
	       (k->opt[id].v == KCONFIG_NOT_SET || k->opt[id].v == KCONFIG_ABSENT);
}

const char *kconfig_preempt(const struct kconfig_info *k, char *buf, size_t cap)
{
	const char *m;

	if (!k->have)
		return NULL;
	if (kconfig_enabled(k, KC_PREEMPT_RT))
		m = "PREEMPT_RT";
	else if (kconfig_enabled(k, KC_PREEMPT))
		m = "PREEMPT";
	else if (kconfig_enabled(k, KC_PREEMPT_VOLUNTARY))
		m = "VOLUNTARY";
	else if (kconfig_enabled(k, KC_PREEMPT_NONE))
		m = "NONE";
	else
		m = "n/a";
	snprintf(buf, cap, "%s%s", m, kconfig_enabled(k, KC_PREEMPT_DYNAMIC) ? " (dynamic)" : "");
	return buf;
}
