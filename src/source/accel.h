/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Accelerator load and driver: Rockchip's rknpu debugfs files
 * (sys/kernel/debug/rknpu/load, per core, and rknpu/version, else
 * sys/module/rknpu/version), the devfreq "load" files of NPU / GPU devices
 * ("NN@FREQHz", taken from the devfreq source's raw string) and the DRM
 * gpu_busy_percent fallback (sys/class/drm/cardN/device/gpu_busy_percent).
 * A value that cannot be read is n/a (-1, "" or a have_ flag), never 0. */
#ifndef TT_SOURCE_ACCEL_H
#define TT_SOURCE_ACCEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "source/devfreq.h"
#include "sysfs/sysroot.h"

#define ACCEL_MAX_CORES 8
#define ACCEL_MAX_DEV	16

struct accel_dev {
	char name[64];	 /* devfreq device ("fdab0000.npu") or DRM card ("card0") */
	char source[16]; /* "devfreq" or "drm" */
	enum devfreq_kind kind;
	int load_pct;	 /* -1 = n/a */
	int64_t freq_hz; /* devfreq "@FREQHz", -1 = n/a */
};

struct accel_info {
	/* rknpu debugfs load */
	bool have_npu_load;
	int npu_err; /* why not: -ENOENT (no rknpu / no debugfs), -EACCES, -EINVAL (garbage) */
	int ncores;
	int core_pct[ACCEL_MAX_CORES]; /* -1 = n/a */
	char version[48];	       /* "v0.9.8", "" = n/a */
	char version_src[64];	       /* the file it came from */
	size_t ndev;
	struct accel_dev dev[ACCEL_MAX_DEV];
};

/* "NPU load:  Core0:  0%, Core1: 12%, Core2:  0%," (RK3588) or
 * "NPU load:  37%" (one core: RK3568/RK3566/RV1106). Fills up to max cores.
 * Returns 0; -EINVAL when no percentage parsed or one is above 100. */
int accel_parse_rknpu_load(const char *text, int *pct, int max, int *ncores);
/* A devfreq "load" file: "47@200000000Hz". 0 or -EINVAL. */
int accel_parse_devfreq_load(const char *text, int *pct, int64_t *hz);
/* Read everything; devf (the snapshot's devfreq, may be NULL) gives the
 * devfreq loads. Returns 0 (absent things are n/a). */
int accel_read(const struct sysroot *r, const struct devfreq_info *devf, struct accel_info *out);
/* Something to show: NPU load, a version or a device load. */
bool accel_present(const struct accel_info *a);

#endif
