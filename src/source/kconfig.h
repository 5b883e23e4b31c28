/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's build configuration: /proc/config.gz (CONFIG_IKCONFIG_PROC,
 * gzip, read through zlib) or else /boot/config-RELEASE (plain text), both
 * under the root. Only the options that decide latency are kept (the
 * preemption model, NO_HZ_FULL, RCU_NOCB_CPU, CPU_ISOLATION, HZ, the idle
 * and cpufreq governors built in, ...). The configuration cannot change
 * until reboot: the snapshot reads it once and copies it afterwards. */
#ifndef TT_SOURCE_KCONFIG_H
#define TT_SOURCE_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "sysfs/sysroot.h"

enum kconfig_val {
	KCONFIG_ABSENT = 0, /* not in the file: the option does not exist in this kernel */
	KCONFIG_NOT_SET,    /* "# CONFIG_X is not set" */
	KCONFIG_Y,
	KCONFIG_M,
	KCONFIG_VALUE, /* a number or a string: val holds it (quotes removed) */
};

struct kconfig_opt {
	enum kconfig_val v;
	char val[32];
};

/* The options kept, indexed like kconfig_names[]. */
enum kconfig_id {
	KC_PREEMPT_RT,
	KC_PREEMPT,
	KC_PREEMPT_VOLUNTARY,
	KC_PREEMPT_NONE,
	KC_PREEMPT_DYNAMIC,
	KC_NO_HZ_FULL,
	KC_NO_HZ_IDLE,
	KC_RCU_NOCB_CPU,
	KC_CPU_ISOLATION,
	KC_RT_GROUP_SCHED,
	KC_UCLAMP_TASK,
	KC_IRQ_FORCED_THREADING,
	KC_HZ,
	KC_CPU_IDLE,
	KC_CPU_IDLE_GOV_LADDER,
	KC_CPU_IDLE_GOV_MENU,
	KC_CPU_IDLE_GOV_TEO,
	KC_CPU_IDLE_GOV_HALTPOLL,
	KC_CPU_FREQ,
	KC_CPU_FREQ_GOV_PERFORMANCE,
	KC_CPU_FREQ_GOV_POWERSAVE,
	KC_CPU_FREQ_GOV_USERSPACE,
	KC_CPU_FREQ_GOV_ONDEMAND,
	KC_CPU_FREQ_GOV_CONSERVATIVE,
	KC_CPU_FREQ_GOV_SCHEDUTIL,
	KC_SCHED_DEBUG,
	KCONFIG_NOPTS
};

/* "PREEMPT_RT", ... (without the CONFIG_ prefix) */
extern const char *const kconfig_names[KCONFIG_NOPTS];

struct kconfig_info {
	bool tried; /* kconfig_read ran (the snapshot copies instead of re-reading) */
	bool have;  /* a configuration was read */
	int err;    /* kconfig_read's result */
	/* The file it came from, relative to the root ("/proc/config.gz"). */
	char source[160];
	/* Where it looked, relative to the root ("/proc/config.gz, /boot/config-6.1.0"). */
	char looked[320];
	/* Why a file that exists could not be used (corrupt gzip, no zlib,
	 * garbage), one line naming the file under the root; "" when nothing
	 * went wrong. Also set when a
	 * second place then worked. */
	char problem[200];
	size_t nlines; /* CONFIG_ lines seen (all options, not just those kept) */
	struct kconfig_opt opt[KCONFIG_NOPTS];
};

/* Read the configuration of the root's kernel: proc/config.gz, then
 * boot/config-RELEASE (RELEASE: uname -r on the live root, else
 * proc/sys/kernel/osrelease, else `release` when not NULL/""). Returns 0
 * when one was read, -ENOENT when none exists, or the error of the last
 * file that exists but could not be used (out->problem says why). */
int kconfig_read(const struct sysroot *r, const char *release, struct kconfig_info *out);
/* Parse config text (pure): fills out->opt and out->nlines. -EINVAL when
 * the text holds no CONFIG_ line at all (not a kernel config). */
int kconfig_parse(const char *text, size_t len, struct kconfig_info *out);
/* Inflate a gzip buffer into a malloc'ed NUL-terminated text (up to
 * max bytes). -ENOTSUP without zlib; -EINVAL not gzip data / corrupt;
 * -ENODATA truncated; -EFBIG larger than max. *why (static words) says
 * which. */
int kconfig_gunzip(const void *gz, size_t len, size_t max, char **out, size_t *outlen,
		   const char **why);

/* Option by id; "y", "m", "n" (not set), the value, or NULL when absent
 * (or no config). */
const char *kconfig_str(const struct kconfig_info *k, enum kconfig_id id);
/* y or m */
bool kconfig_enabled(const struct kconfig_info *k, enum kconfig_id id);
/* Known to be off: "is not set" or absent from a config that was read
 * (an option this kernel does not have is off). False without a config. */
bool kconfig_disabled(const struct kconfig_info *k, enum kconfig_id id);
/* The preemption model the config selects: "PREEMPT_RT", "PREEMPT",
 * "VOLUNTARY", "NONE" (+ " (dynamic)" with PREEMPT_DYNAMIC), NULL without
 * a config. */
const char *kconfig_preempt(const struct kconfig_info *k, char *buf, size_t cap);

#endif
