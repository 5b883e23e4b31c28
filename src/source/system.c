/* SPDX-License-Identifier: GPL-2.0-or-later */
/* System identity, preemption model and isolation parameters. */
#include "source/system.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/str.h"
#include "core/xalloc.h"

const char *const system_param_names[SYSTEM_NPARAMS] = {
	"isolcpus",
	"nohz_full",
	"rcu_nocbs",
	"irqaffinity",
	"idle",
	"processor.max_cstate",
	"intel_idle.max_cstate",
	"cpuidle.off",
	"threadirqs",
	"nohz",
	"skew_tick",
	"preempt",
};

const char *system_preempt_name(enum preempt_model m)
{
	switch (m) {
	case PREEMPT_MODEL_NONE: return "NONE";
	case PREEMPT_MODEL_VOLUNTARY: return "VOLUNTARY";
	case PREEMPT_MODEL_FULL: return "PREEMPT";
	case PREEMPT_MODEL_DYNAMIC: return "PREEMPT_DYNAMIC";
	case PREEMPT_MODEL_RT: return "PREEMPT_RT";
	default: return NULL;
	}
}

const char *system_param(const struct system_info *s, const char *name)
{
	for (int i = 0; i < SYSTEM_NPARAMS; i++)
		if (!strcmp(system_param_names[i], name))
			return s->param_set[i] ? s->param[i] : NULL;
	return NULL;
}

int system_parse_bracket(const char *text, char *out, size_t cap)
{
	const char *a = strchr(text, '['), *b;

	if (!a || !(b = strchr(a, ']')) || b == a + 1)
		return -EINVAL;
	snprintf(out, cap, "%.*s", (int)(b - a - 1), a + 1);
	return 0;
}

bool system_cmdline_param(const char *cmdline, const char *name, char *val, size_t cap)
{
	size_t n = strlen(name);
	const char *p = cmdline;
	bool found = false;

	while (*p) {
		const char *end;

		while (isspace((unsigned char)*p))
			p++;
		end = p;
		while (*end && !isspace((unsigned char)*end))
			end++;
		if ((size_t)(end - p) >= n && !strncmp(p, name, n) &&
		    (p[n] == '=' || p + n == end)) {
			/* the last occurrence wins, as in the kernel */
			found = true;
			if (p[n] == '=')
				snprintf(val, cap, "%.*s", (int)(end - p - (long)n - 1), p + n + 1);
			else if (cap)
				val[0] = '\0';
		}
		p = end;
	}
	return found;
}

static void read_preempt(const struct sysroot *r, struct system_info *s)
{
	uint64_t rt;
	char mode[64];

	if (strstr(s->version, "PREEMPT_RT") ||
	    (sysfs_read_u64(r, "sys/kernel/realtime", &rt) == 0 && rt == 1)) {
		s->preempt = PREEMPT_MODEL_RT;
		snprintf(s->preempt_note, sizeof(s->preempt_note), "PREEMPT_RT kernel");
	} else if (strstr(s->version, "PREEMPT_DYNAMIC")) {
		s->preempt = PREEMPT_MODEL_DYNAMIC;
		/* debugfs shows the active mode as "none voluntary (full)". */
		if (sysfs_read_str(r, "sys/kernel/debug/sched/preempt", mode, sizeof(mode)) == 0 &&
		    system_parse_bracket(mode, s->dyn_mode, sizeof(s->dyn_mode)) != 0) {
			char *a = strchr(mode, '('), *b = a ? strchr(a, ')') : NULL;

			if (a && b)
				snprintf(s->dyn_mode, sizeof(s->dyn_mode), "%.*s", (int)(b - a - 1),
					 a + 1);
		}
		snprintf(s->preempt_note, sizeof(s->preempt_note), "PREEMPT_DYNAMIC, mode %s",
			 s->dyn_mode[0] ? s->dyn_mode : "n/a (needs debugfs)");
	} else if (strstr(s->version, " PREEMPT ") || strstr(s->version, "PREEMPT ")) {
		s->preempt = PREEMPT_MODEL_FULL;
		snprintf(s->preempt_note, sizeof(s->preempt_note), "CONFIG_PREEMPT");
	} else if (s->version[0]) {
		s->preempt = PREEMPT_UNKNOWN;
		snprintf(s->preempt_note, sizeof(s->preempt_note),
			 "no PREEMPT flag in /proc/version: NONE or VOLUNTARY");
	} else {
		snprintf(s->preempt_note, sizeof(s->preempt_note), "/proc/version unreadable");
	}
}

static void read_dt(const struct sysroot *r, struct system_info *s)
{
	char buf[1024];
	size_t len;

	if (sysfs_read(r, "sys/firmware/devicetree/base/model", buf, sizeof(buf), &len) == 0 && len)
		str_copy(s->model, sizeof(s->model), buf); /* NUL terminated string */
	if (sysfs_read(r, "sys/firmware/devicetree/base/compatible", buf, sizeof(buf), &len) == 0) {
		for (size_t off = 0; off < len && s->ncompat < SYSTEM_MAX_COMPAT;) {
			size_t n = strnlen(buf + off, len - off);

			if (n)
				snprintf(s->compat[s->ncompat++], sizeof(s->compat[0]), "%.*s",
					 (int)n, buf + off);
			off += n + 1;
		}
	}
	if (!s->model[0]) {
		char vendor[64], product[64];

		if (sysfs_read_str(r, "sys/class/dmi/id/product_name", product, sizeof(product)) ==
		    0) {
			if (sysfs_read_str(r, "sys/class/dmi/id/sys_vendor", vendor,
					   sizeof(vendor)) == 0)
				snprintf(s->model, sizeof(s->model), "%s %s", vendor, product);
			else
				str_copy(s->model, sizeof(s->model), product);
		}
	}
}

static void read_thp(const struct sysroot *r, struct system_info *s)
{
	char buf[4096];

	if (sysfs_read_str(r, SYS_THP_DIR "/" SYS_THP_ENABLED, buf, sizeof(buf)) == 0)
		system_parse_bracket(buf, s->thp, sizeof(s->thp));
}

static void read_masks(const struct sysroot *r, struct system_info *s)
{
	char buf[4096];

	s->have_wq_cpumask =
		sysfs_read_str(r, "sys/devices/virtual/workqueue/cpumask", buf, sizeof(buf)) == 0 &&
		cpumask_parse_hex(buf, &s->wq_cpumask) == 0;
	s->have_irq_default =
		sysfs_read_str(r, "proc/irq/default_smp_affinity", buf, sizeof(buf)) == 0 &&
		cpumask_parse_hex(buf, &s->irq_default) == 0;
}

static void read_uptime(const struct sysroot *r, struct system_info *s)
{
	char buf[4096];

	if (sysfs_read_str(r, "proc/uptime", buf, sizeof(buf)) == 0) {
		char *sp = strchr(buf, ' ');
		double up;

		if (sp)
			*sp = '\0';
		if (str_to_double(buf, &up) == 0)
			s->uptime_s = up;
	}
}

/* The architecture as tunetop names it, from a kernel machine name
 * (uname -m): "aarch64" -> arm64, "armv7l" -> arm, "x86_64", "i686" -> x86. */
static const char *arch_of_machine(const char *m)
{
	if (!strcmp(m, "aarch64") || !strncmp(m, "arm64", 5))
		return "arm64";
	if (!strncmp(m, "arm", 3))
		return "arm";
	if (!strcmp(m, "x86_64"))
		return "x86_64";
	if (m[0] == 'i' && !strcmp(m + 2, "86"))
		return "x86";
	return m[0] ? m : NULL;
}

/* Under --root, when /proc/version does not say (Debian's armmp kernel is
 * built by a gcc whose name carries no target): /proc/cpuinfo. A 64-bit ARM
 * kernel prints "CPU architecture: 8" and no "ARMv" model name; a 32-bit one
 * prints "ARMv7 Processor" (also on ARMv8 cores, which then run AArch32);
 * an x86 CPU with "lm" (long mode) runs an x86_64 kernel in practice. */
static const char *arch_of_cpuinfo(const char *t)
{
	if (strstr(t, "vendor_id"))
		return strstr(t, " lm ") ? "x86_64" : "x86";
	if (strstr(t, "model name\t: ARMv") || strstr(t, "Processor\t: ARMv") ||
	    strstr(t, "CPU architecture: 7") || strstr(t, "CPU architecture: 6"))
		return "arm";
	if (strstr(t, "CPU architecture: 8") || strstr(t, "CPU architecture: 9"))
		return "arm64";
	return NULL;
}

int system_read(const struct sysroot *r, struct system_info *s)
{
	char buf[4096];

	memset(s, 0, sizeof(*s));
	s->uptime_s = NAN;
	if (sysfs_read_str(r, "proc/version", s->version, sizeof(s->version)) == 0) {
		char rel[96];

		if (sscanf(s->version, "Linux version %95s", rel) == 1)
			str_copy(s->kernel, sizeof(s->kernel), rel);
		if (strstr(s->version, "aarch64") || strstr(s->version, "arm64"))
			snprintf(s->arch, sizeof(s->arch), "arm64");
		else if (strstr(s->version, "x86_64") || strstr(s->version, "x86-64"))
			snprintf(s->arch, sizeof(s->arch), "x86_64");
		else if (strstr(s->version, "arm-") || strstr(s->version, "gnueabi"))
			snprintf(s->arch, sizeof(s->arch), "arm");
	}
	if (r->live) { /* the running kernel says it exactly */
		struct utsname u;
		const char *a;

		if (uname(&u) == 0 && (a = arch_of_machine(u.machine)) != NULL)
			str_copy(s->arch, sizeof(s->arch), a);
	}
	if (!s->arch[0]) {
		char *text = NULL;
		const char *a;

		if (sysfs_read_alloc(r, "proc/cpuinfo", &text, NULL) == 0 &&
		    (a = arch_of_cpuinfo(text)) != NULL)
			str_copy(s->arch, sizeof(s->arch), a);
		free(text);
	}
	if (!s->kernel[0])
		sysfs_read_str(r, "proc/sys/kernel/osrelease", s->kernel, sizeof(s->kernel));
	read_preempt(r, s);
	read_dt(r, s);
	if (sysfs_read_str(r, "proc/cmdline", s->cmdline, sizeof(s->cmdline)) == 0)
		for (int i = 0; i < SYSTEM_NPARAMS; i++)
			s->param_set[i] = system_cmdline_param(s->cmdline, system_param_names[i],
							       s->param[i], sizeof(s->param[i]));
	if (sysfs_read(r, "sys/devices/system/cpu/isolated", buf, sizeof(buf), NULL) == 0)
		s->have_isolated = cpulist_parse(buf, &s->isolated) == 0;
	/* nohz_full prints "(null)" when not configured. */
	if (sysfs_read(r, "sys/devices/system/cpu/nohz_full", buf, sizeof(buf), NULL) == 0) {
		if (strstr(buf, "(null)")) {
			cpumask_zero(&s->nohz_full);
			s->have_nohz_full = true;
		} else {
			s->have_nohz_full = cpulist_parse(buf, &s->nohz_full) == 0;
		}
	}
	read_thp(r, s);
	read_masks(r, s);
	read_uptime(r, s);
	sysfs_read_str(r, "proc/sys/kernel/random/boot_id", s->boot_id, sizeof(s->boot_id));
	sysfs_read_str(r, "proc/sys/kernel/hostname", s->hostname, sizeof(s->hostname));
	return 0;
}

int system_refresh(const struct sysroot *r, const struct system_info *prev, struct system_info *s)
{
	if (!prev)
		return system_read(r, s);
	*s = *prev;
	s->uptime_s = NAN;
	read_uptime(r, s);
	if (prev->thp[0]) {
		s->thp[0] = '\0';
		read_thp(r, s);
	}
	if (prev->have_wq_cpumask || prev->have_irq_default)
		read_masks(r, s);
	if (prev->preempt == PREEMPT_MODEL_DYNAMIC && prev->dyn_mode[0]) {
		/* A knob (debugfs sched/preempt); the note names the mode.
		 * Without debugfs it is left to the full read. */
		s->dyn_mode[0] = '\0';
		s->preempt_note[0] = '\0';
		read_preempt(r, s);
	}
	return 0;
}
