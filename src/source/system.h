/* SPDX-License-Identifier: GPL-2.0-or-later */
/* System identity and the isolation-related settings: kernel release and
 * preemption model, board model / DT compatible (or DMI name), the
 * /proc/cmdline parameters that shape latency, isolated and nohz_full CPUs,
 * transparent hugepage mode, uptime and boot id. */
#ifndef TT_SOURCE_SYSTEM_H
#define TT_SOURCE_SYSTEM_H

#include <stdbool.h>

#include "core/cpumask.h"
#include "sysfs/sysroot.h"

enum preempt_model {
	PREEMPT_UNKNOWN = 0,
	PREEMPT_MODEL_NONE,
	PREEMPT_MODEL_VOLUNTARY,
	PREEMPT_MODEL_FULL,    /* CONFIG_PREEMPT */
	PREEMPT_MODEL_DYNAMIC, /* PREEMPT_DYNAMIC; dyn_mode says which mode is active */
	PREEMPT_MODEL_RT,
};

#define SYSTEM_MAX_COMPAT 8
#define SYSTEM_NPARAMS	  12

struct system_info {
	char kernel[96];   /* release, "" = n/a */
	char version[256]; /* /proc/version, "" = n/a */
	char arch[16];	   /* from /proc/version's compiler triple or cpuinfo, "" = n/a */
	enum preempt_model preempt;
	char preempt_note[96]; /* why the model is what it is */
	char dyn_mode[16];     /* PREEMPT_DYNAMIC active mode: none/voluntary/full, "" = n/a */
	char model[128];       /* DT model or DMI vendor + product, "" = n/a */
	size_t ncompat;
	char compat[SYSTEM_MAX_COMPAT][64];
	char cmdline[1024];
	/* Values of the isolation-related parameters, NULL-equivalent "" when absent. */
	char param[SYSTEM_NPARAMS][128];
	bool param_set[SYSTEM_NPARAMS];
	bool have_isolated, have_nohz_full;
	struct cpumask isolated, nohz_full;
	/* Knobs read as hex masks: the unbound workqueue cpumask
	 * (sys/devices/virtual/workqueue/cpumask) and the affinity of new IRQs
	 * (proc/irq/default_smp_affinity). */
	bool have_wq_cpumask, have_irq_default;
	struct cpumask wq_cpumask, irq_default;
	char thp[16];	 /* transparent_hugepage enabled mode: always/madvise/never, "" = n/a */
	double uptime_s; /* NAN n/a */
	char boot_id[40];
	char hostname[64];
};

/* Names of the cmdline parameters, indexed like system_info.param. */
extern const char *const system_param_names[SYSTEM_NPARAMS];
/* The value of cmdline parameter NAME ("" when given without '='), or NULL
 * when the command line does not have it (or NAME is not one of them). */
const char *system_param(const struct system_info *s, const char *name);

int system_read(const struct sysroot *r, struct system_info *out);
/* Cheap re-read against a previous read of the same root: copies what is
 * fixed until reboot (kernel, board, cmdline, isolated / nohz_full CPUs,
 * boot id) or rarely changed (hostname) and re-reads the uptime, the THP
 * mode, the PREEMPT_DYNAMIC mode and the workqueue / default IRQ masks
 * (where prev could read them). prev NULL
 * gives a full system_read(). */
int system_refresh(const struct sysroot *r, const struct system_info *prev,
		   struct system_info *out);
const char *system_preempt_name(enum preempt_model m); /* "PREEMPT_RT", ... NULL when unknown */
/* Parse the bracketed choice out of "always [madvise] never". */
int system_parse_bracket(const char *text, char *out, size_t cap);
/* Transparent hugepages: the one description of the attribute, shared by
 * read_thp() here, the mm knob family (src/knob/fam_mm.c: mm/thp,
 * mm/thp_defrag) and explain. The kernel lists the modes and brackets the
 * current one ("always [madvise] never"): system_parse_bracket(). */
#define SYS_THP_DIR	     "sys/kernel/mm/transparent_hugepage"
#define SYS_THP_ENABLED	     "enabled"
#define SYS_THP_DEFRAG	     "defrag"
#define SYS_THP_MODES	     "always madvise never"
#define SYS_THP_DEFRAG_MODES "always defer defer+madvise madvise never"
/* Find `name` in a kernel command line; value "" for a bare flag. */
bool system_cmdline_param(const char *cmdline, const char *name, char *val, size_t cap);

#endif
