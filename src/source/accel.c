/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Accelerator load and driver version (see accel.h): the rknpu debugfs
 * load and version parsers, the devfreq "load" parser and the DRM busy
 * fallback. */
#include "source/accel.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"

/* A percentage (0..100) at *p after any of blanks, ended by term ("42%",
 * "42@..."); *p moves past term. */
static int pct_at(const char **p, const char *blanks, char term, int *out)
{
	const char *s = *p + strspn(*p, blanks);
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end != term || v > 100)
		return -EINVAL;
	*out = (int)v;
	*p = end + 1;
	return 0;
}

int accel_parse_rknpu_load(const char *text, int *pct, int max, int *ncores)
{
	const char *s = strstr(text, "load:");
	int n = 0;

	*ncores = 0;
	if (!s)
		return -EINVAL;
	s += 5;
	if (!strstr(s, "Core")) {
		if (max < 1 || pct_at(&s, " \t", '%', &pct[0]))
			return -EINVAL;
		*ncores = 1;
		return 0;
	}
	while ((s = strstr(s, "Core")) != NULL) {
		char *end;
		long core;
		int v;

		s += 4;
		core = strtol(s, &end, 10);
		if (end == s || *end != ':' || core < 0)
			return -EINVAL;
		s = end + 1;
		if (pct_at(&s, " \t", '%', &v))
			return -EINVAL;
		if (n < max)
			pct[n++] = v;
	}
	if (!n)
		return -EINVAL;
	*ncores = n;
	return 0;
}

int accel_parse_devfreq_load(const char *text, int *pct, int64_t *hz)
{
	char *end;
	int v;
	int64_t f;

	if (pct_at(&text, " ", '@', &v))
		return -EINVAL;
	if (!isdigit((unsigned char)*text))
		return -EINVAL;
	f = strtoll(text, &end, 10);
	if (errno || strncmp(end, "Hz", 2))
		return -EINVAL;
	*pct = v;
	*hz = f;
	return 0;
}

static void read_version(const struct sysroot *r, struct accel_info *a)
{
	static const char *const files[] = {"sys/kernel/debug/rknpu/version",
					    "sys/module/rknpu/version"};
	char buf[128];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const char *v = buf;

		if (sysfs_read_str(r, files[i], buf, sizeof(buf)) != 0 || !buf[0])
			continue;
		/* "RKNPU driver: v0.9.8" */
		if (strchr(v, ':'))
			v = strrchr(v, ':') + 1;
		while (*v == ' ')
			v++;
		if (!*v)
			continue;
		snprintf(a->version, sizeof(a->version), "%s", v);
		snprintf(a->version_src, sizeof(a->version_src), "/%s", files[i]);
		return;
	}
}

static void read_drm(const struct sysroot *r, struct accel_info *a)
{
	struct sysfs_list l;

	if (sysfs_list(r, "sys/class/drm", &l) < 0)
		return;
	for (size_t i = 0; i < l.n && a->ndev < ACCEL_MAX_DEV; i++) {
		char path[TT_PATH_MAX];
		uint64_t v;

		if (strncmp(l.names[i], "card", 4) || strchr(l.names[i], '-'))
			continue;
		snprintf(path, sizeof(path), "sys/class/drm/%s/device/gpu_busy_percent",
			 l.names[i]);
		if (sysfs_read_u64(r, path, &v) != 0 || v > 100)
			continue;
		struct accel_dev *d = &a->dev[a->ndev++];

		snprintf(d->name, sizeof(d->name), "%s", l.names[i]);
		snprintf(d->source, sizeof(d->source), "drm");
		d->kind = DEVFREQ_GPU;
		d->load_pct = (int)v;
		d->freq_hz = -1;
	}
	sysfs_list_free(&l);
}

int accel_read(const struct sysroot *r, const struct devfreq_info *devf, struct accel_info *a)
{
	char buf[512];
	int e;

	memset(a, 0, sizeof(*a));
	for (int i = 0; i < ACCEL_MAX_CORES; i++)
		a->core_pct[i] = -1;
	e = sysfs_read_str(r, "sys/kernel/debug/rknpu/load", buf, sizeof(buf));
	if (e == 0)
		e = accel_parse_rknpu_load(buf, a->core_pct, ACCEL_MAX_CORES, &a->ncores);
	a->npu_err = e;
	a->have_npu_load = e == 0;
	read_version(r, a);
	for (size_t i = 0; devf && i < devf->ndev && a->ndev < ACCEL_MAX_DEV; i++) {
		const struct devfreq_dev *dv = &devf->dev[i];
		struct accel_dev *d;
		int pct;
		int64_t hz;

		if (!dv->load[0] || (dv->kind != DEVFREQ_NPU && dv->kind != DEVFREQ_GPU))
			continue;
		d = &a->dev[a->ndev++];
		snprintf(d->name, sizeof(d->name), "%s", dv->name);
		snprintf(d->source, sizeof(d->source), "devfreq");
		d->kind = dv->kind;
		if (accel_parse_devfreq_load(dv->load, &pct, &hz) == 0) {
			d->load_pct = pct;
			d->freq_hz = hz;
		} else {
			d->load_pct = -1;
			d->freq_hz = -1;
		}
	}
	read_drm(r, a);
	return 0;
}

bool accel_present(const struct accel_info *a)
{
	return a && (a->have_npu_load || a->version[0] || a->ndev ||
		     (a->npu_err && a->npu_err != -ENOENT));
}
