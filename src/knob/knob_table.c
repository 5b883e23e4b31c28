/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The knob table: every knob tunetop can change, described as data (file,
 * type, unit, where the allowed values come from, help), the family
 * expanders that turn address segments into concrete knobs on a root, and
 * the default ops for knobs that are one sysfs/procfs file: read (with
 * normalization), validate, write, and byte-exact restore. */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_int.h"

#define CPUFREQ_DIR "sys/devices/system/cpu/cpufreq"
#define CPU_DIR	    "sys/devices/system/cpu"
#define DEVFREQ_DIR "sys/class/devfreq"

static const struct knob_ops lease_ops = {lease_read, lease_write, lease_restore};
/* one sysfs/procfs file with its own errno hints (below, with the default ops) */
static const struct knob_ops epp_ops, rt_runtime_ops, hexmask_ops;

/* clang-format off */
const struct knob_def knob_defs[] = {
	{ .family = "cpufreq", .leaf = "governor", .pattern = "cpufreq/<policy>/governor",
	  .scope = KS_POLICY, .file = "scaling_governor", .type = KT_ENUM, .unit = "",
	  .allow = KA_WORDS_FILE, .allow_src = "scaling_available_governors",
	  .allow_what = "available governors", .flags = KD_GOVERNOR, .needs_root = true,
	  .help = "cpufreq governor of a policy: 'performance' pins the top OPP and removes "
		  "ramp-up delay from the latency path" },
	{ .family = "cpufreq", .leaf = "min_khz", .pattern = "cpufreq/<policy>/min_khz",
	  .scope = KS_POLICY, .file = "scaling_min_freq", .type = KT_U64, .unit = "kHz",
	  .allow = KA_FREQS, .allow_src = "scaling_available_frequencies",
	  .allow_lo = "cpuinfo_min_freq", .allow_hi = "cpuinfo_max_freq",
	  .allow_what = "available frequencies", .flags = KD_MIN, .needs_root = true,
	  .observe = KO_FREQ_BOUND,
	  .help = "lowest frequency the governor may pick (kHz; 'min' and 'max' accepted); a "
		  "floor keeps wake-ups from starting at the slowest OPP" },
	{ .family = "cpufreq", .leaf = "max_khz", .pattern = "cpufreq/<policy>/max_khz",
	  .scope = KS_POLICY, .file = "scaling_max_freq", .type = KT_U64, .unit = "kHz",
	  .allow = KA_FREQS, .allow_src = "scaling_available_frequencies",
	  .allow_lo = "cpuinfo_min_freq", .allow_hi = "cpuinfo_max_freq",
	  .allow_what = "available frequencies", .flags = KD_MAX, .needs_root = true,
	  .observe = KO_FREQ_BOUND,
	  .help = "highest frequency the governor may pick (kHz); a cap trades speed for heat "
		  "and steadier timing" },
	{ .family = "cpufreq", .leaf = "lock_khz", .pattern = "cpufreq/<policy>/lock_khz",
	  .scope = KS_POLICY, .file = "scaling_min_freq", .file2 = "scaling_max_freq",
	  .type = KT_U64, .unit = "kHz", .allow = KA_FREQS,
	  .allow_src = "scaling_available_frequencies", .allow_lo = "cpuinfo_min_freq",
	  .allow_hi = "cpuinfo_max_freq", .allow_what = "available frequencies",
	  .flags = KD_LOCK, .needs_root = true,
	  .help = "min = max = value, written in the safe order; reads 'off' when min != max. "
		  "A fixed clock removes DVFS transitions as a jitter source" },
	{ .family = "cpufreq", .leaf = "energy_performance_preference",
	  .pattern = "cpufreq/<policy>/energy_performance_preference", .scope = KS_POLICY,
	  .file = "energy_performance_preference", .type = KT_ENUM, .unit = "",
	  .allow = KA_WORDS_FILE, .allow_src = "energy_performance_available_preferences",
	  .allow_what = "energy performance preferences", .lo = 0, .hi = 255,
	  .flags = KD_NUMERIC_OK, .needs_root = true, .ops = &epp_ops,
	  .help = "HWP energy/performance hint (intel_pstate, amd-pstate); with the performance "
		  "governor anything but 'performance' is refused (EBUSY)" },
	{ .family = "cpufreq", .leaf = "*", .pattern = "cpufreq/<policy>/<governor>/<tunable>",
	  .scope = KS_POLICY, .type = KT_STRING, .unit = "", .allow = KA_ANY,
	  .flags = KD_TUNABLE, .needs_root = true,
	  .help = "governor tunable (e.g. schedutil/rate_limit_us); the directory exists only "
		  "while that governor is active" },
	{ .family = "cpuidle", .leaf = "disable", .pattern = "cpuidle/<cpus>/<state>/disable",
	  .scope = KS_IDLE_STATE, .file = "disable", .type = KT_BOOL, .unit = "",
	  .allow = KA_FIXED, .allow_src = "0 1", .allow_what = "values", .needs_root = true,
	  .observe = KO_IDLE_STATE,
	  .help = "1 keeps this CPU out of the idle state; deep states cost their exit latency "
		  "on every wake-up. Per CPU: write all CPUs for a global effect" },
	{ .family = "cpuidle", .leaf = "governor", .pattern = "cpuidle/governor",
	  .scope = KS_GLOBAL, .dir = CPU_DIR "/cpuidle", .file = "current_governor",
	  .type = KT_ENUM, .unit = "", .allow = KA_WORDS_FILE, .allow_src = "available_governors",
	  .allow_what = "available cpuidle governors", .needs_root = true,
	  .observe = KO_IDLE_GOV,
	  .help = "cpuidle governor (menu, teo, ladder, haltpoll): which idle state the CPU "
		  "picks. haltpoll ignores per-state disable; menu and teo honour it" },
	{ .family = "pmqos", .leaf = "cpu_dma_latency_us", .pattern = "pmqos/cpu_dma_latency_us",
	  .scope = KS_GLOBAL, .dir = "dev", .file = "cpu_dma_latency", .type = KT_I64,
	  .unit = "us", .allow = KA_RANGE, .lo = 0, .hi = 2000000000, .allow_what = "range",
	  .flags = KD_LEASE, .needs_root = true, .ops = &lease_ops,
	  .observe = KO_QOS,
	  .help = "system-wide idle exit-latency limit; holds only while tunetop keeps "
		  "/dev/cpu_dma_latency open (TUI, exec, ab). 0 = no idle states but polling" },
	{ .family = "pmqos", .leaf = "resume_latency_us", .pattern = "pmqos/<cpus>/resume_latency_us",
	  .scope = KS_CPU, .file = "power/pm_qos_resume_latency_us", .type = KT_U64, .unit = "us",
	  .allow = KA_RANGE, .lo = 0, .hi = 2147483647, .allow_what = "range",
	  .flags = KD_NA_OK, .needs_root = true,
	  .observe = KO_QOS,
	  .help = "per-CPU wake-up latency limit for the idle governor: 0 = none, 'n/a' = no "
		  "idle states but polling; persists after tunetop exits" },
	{ .family = "devfreq", .leaf = "governor", .pattern = "devfreq/<dev>/governor",
	  .scope = KS_DEVICE, .file = "governor", .type = KT_ENUM, .unit = "",
	  .allow = KA_WORDS_FILE, .allow_src = "available_governors",
	  .allow_what = "available governors", .flags = KD_GOVERNOR, .needs_root = true,
	  .help = "devfreq governor (DDR, GPU, NPU); 'performance' keeps the memory/accelerator "
		  "clock up so the CPU never waits for it to ramp" },
	{ .family = "devfreq", .leaf = "min_hz", .pattern = "devfreq/<dev>/min_hz",
	  .scope = KS_DEVICE, .file = "min_freq", .type = KT_U64, .unit = "Hz", .allow = KA_FREQS,
	  .allow_src = "available_frequencies", .allow_what = "available frequencies",
	  .flags = KD_MIN, .needs_root = true,
	  .observe = KO_FREQ_BOUND,
	  .help = "devfreq lower frequency limit (Hz, not kHz); 'min' and 'max' accepted" },
	{ .family = "devfreq", .leaf = "max_hz", .pattern = "devfreq/<dev>/max_hz",
	  .scope = KS_DEVICE, .file = "max_freq", .type = KT_U64, .unit = "Hz", .allow = KA_FREQS,
	  .allow_src = "available_frequencies", .allow_what = "available frequencies",
	  .flags = KD_MAX, .needs_root = true, .observe = KO_FREQ_BOUND,
	  .help = "devfreq upper frequency limit (Hz)" },
	{ .family = "devfreq", .leaf = "lock_hz", .pattern = "devfreq/<dev>/lock_hz",
	  .scope = KS_DEVICE, .file = "min_freq", .file2 = "max_freq", .type = KT_U64,
	  .unit = "Hz", .allow = KA_FREQS, .allow_src = "available_frequencies",
	  .allow_what = "available frequencies", .flags = KD_LOCK, .needs_root = true,
	  .help = "devfreq min = max = value (Hz), written in the safe order; reads 'off' when "
		  "min != max" },
	{ .family = "sched", .leaf = "rt_runtime_us", .pattern = "sched/rt_runtime_us",
	  .scope = KS_GLOBAL, .dir = "proc/sys/kernel", .file = "sched_rt_runtime_us",
	  .type = KT_I64, .unit = "us", .allow = KA_RANGE, .lo = -1, .hi = 2147483647,
	  .allow_what = "range", .flags = KD_RT_RUNTIME, .needs_root = true,
	  .ops = &rt_runtime_ops,
	  .help = "RT bandwidth per period; -1 = no RT throttling (on 6.12+ the fair server "
		  "still protects CFS tasks, and lowering it can fail with EBUSY)" },
	{ .family = "sched", .leaf = "rt_period_us", .pattern = "sched/rt_period_us",
	  .scope = KS_GLOBAL, .dir = "proc/sys/kernel", .file = "sched_rt_period_us",
	  .type = KT_I64, .unit = "us", .allow = KA_RANGE, .lo = 1, .hi = 2147483647,
	  .allow_what = "range", .flags = KD_RT_PERIOD, .needs_root = true,
	  .help = "RT throttling period; runtime must stay <= period (tunetop orders the writes)" },
	{ .family = "intel_pstate", .leaf = "no_turbo", .pattern = "intel_pstate/no_turbo",
	  .scope = KS_GLOBAL, .dir = CPU_DIR "/intel_pstate", .file = "no_turbo",
	  .type = KT_BOOL, .unit = "", .allow = KA_FIXED, .allow_src = "0 1",
	  .allow_what = "values", .needs_root = true,
	  .help = "1 disables turbo: steadier clocks and less thermal throttling (EPERM when the "
		  "BIOS disabled turbo)" },
	{ .family = "intel_pstate", .leaf = "min_perf_pct", .pattern = "intel_pstate/min_perf_pct",
	  .scope = KS_GLOBAL, .dir = CPU_DIR "/intel_pstate", .file = "min_perf_pct",
	  .type = KT_U64, .unit = "%", .allow = KA_RANGE, .lo = 0, .hi = 100,
	  .allow_what = "range", .flags = KD_MIN, .needs_root = true,
	  .help = "intel_pstate floor, percent of max turbo performance" },
	{ .family = "intel_pstate", .leaf = "max_perf_pct", .pattern = "intel_pstate/max_perf_pct",
	  .scope = KS_GLOBAL, .dir = CPU_DIR "/intel_pstate", .file = "max_perf_pct",
	  .type = KT_U64, .unit = "%", .allow = KA_RANGE, .lo = 0, .hi = 100,
	  .allow_what = "range", .flags = KD_MAX, .needs_root = true,
	  .help = "intel_pstate ceiling, percent of max turbo performance" },
	{ .family = "mm", .leaf = "thp", .pattern = "mm/thp", .scope = KS_GLOBAL,
	  .dir = "sys/kernel/mm/transparent_hugepage", .file = "enabled", .type = KT_ENUM,
	  .unit = "", .allow = KA_BRACKET, .allow_src = "always madvise never",
	  .allow_what = "THP modes", .needs_root = true,
	  .help = "transparent hugepages: 'never' avoids khugepaged scans and compaction stalls "
		  "in RT processes" },
	{ .family = "mm", .leaf = "thp_defrag", .pattern = "mm/thp_defrag", .scope = KS_GLOBAL,
	  .dir = "sys/kernel/mm/transparent_hugepage", .file = "defrag", .type = KT_ENUM,
	  .unit = "", .allow = KA_BRACKET, .allow_src = "always defer defer+madvise madvise never",
	  .allow_what = "THP defrag modes", .needs_root = true,
	  .help = "when the kernel compacts memory for hugepages; 'never' or 'madvise' avoids "
		  "direct-compaction stalls" },
	{ .family = "workqueue", .leaf = "cpumask", .pattern = "workqueue/cpumask",
	  .scope = KS_GLOBAL, .dir = "sys/devices/virtual/workqueue", .file = "cpumask",
	  .type = KT_STRING, .unit = "", .allow = KA_ANY, .allow_what = "hex CPU masks",
	  .needs_root = true, .ops = &hexmask_ops,
	  .help = "CPUs unbound workqueues (kworker/uN:M) may run on, a hex mask like "
		  "/proc/irq/N/smp_affinity; keep isolated CPUs out of it" },
	{ .family = "irq", .leaf = "default_smp_affinity", .pattern = "irq/default_smp_affinity",
	  .scope = KS_GLOBAL, .dir = "proc/irq", .file = "default_smp_affinity",
	  .type = KT_STRING, .unit = "", .allow = KA_ANY, .allow_what = "hex CPU masks",
	  .needs_root = true, .ops = &hexmask_ops,
	  .help = "affinity (hex mask) given to interrupts requested from now on; existing "
		  "ones keep theirs (irq/<n>/affinity)" },
	/* syscall-backed families: src/knob/fam_thread.c, src/knob/fam_irq.c */
	{ .family = "thread", .leaf = "affinity", .pattern = "thread/<tid>/affinity",
	  .scope = KS_THREAD, .type = KT_CPULIST, .unit = "", .allow_what = "online CPUs",
	  .ops = &fam_thread_ops,
	  .observe = KO_THREAD_AFF,
	  .help = "CPUs the thread may run on (sched_setaffinity; process/<pid>/affinity = every "
		  "thread); pin the latency thread to an isolated CPU" },
	{ .family = "thread", .leaf = "policy", .pattern = "thread/<tid>/policy",
	  .scope = KS_THREAD, .type = KT_ENUM, .unit = "", .allow_what = "policies",
	  .ops = &fam_thread_ops,
	  .observe = KO_THREAD_ATTR,
	  .help = "scheduling policy: other | batch | idle | fifo:N | rr:N (N 1..99); RT "
		  "threads preempt every normal thread on their CPU" },
	{ .family = "thread", .leaf = "nice", .pattern = "thread/<tid>/nice",
	  .scope = KS_THREAD, .type = KT_I64, .unit = "", .allow = KA_RANGE, .lo = -20, .hi = 19,
	  .allow_what = "range", .ops = &fam_thread_ops,
	  .observe = KO_THREAD_ATTR,
	  .help = "nice value of this thread only (-20..19); lowering it needs CAP_SYS_NICE" },
	{ .family = "thread", .leaf = "uclamp_min", .pattern = "thread/<tid>/uclamp_min",
	  .scope = KS_THREAD, .type = KT_U64, .unit = "", .allow = KA_RANGE, .lo = 0, .hi = 1024,
	  .allow_what = "range", .flags = KD_MIN, .ops = &fam_thread_ops,
	  .observe = KO_THREAD_ATTR,
	  .help = "utilization floor 0..1024 (sched_setattr); only schedutil turns it into "
		  "frequency: interactive, ondemand and performance ignore it" },
	{ .family = "thread", .leaf = "uclamp_max", .pattern = "thread/<tid>/uclamp_max",
	  .scope = KS_THREAD, .type = KT_U64, .unit = "", .allow = KA_RANGE, .lo = 0, .hi = 1024,
	  .allow_what = "range", .flags = KD_MAX, .ops = &fam_thread_ops,
	  .observe = KO_THREAD_ATTR,
	  .help = "utilization ceiling 0..1024 (sched_setattr); caps the frequency schedutil "
		  "picks for this thread" },
	{ .family = "irq", .leaf = "affinity", .pattern = "irq/<n>/affinity", .scope = KS_DEVICE,
	  .file = "smp_affinity_list", .type = KT_CPULIST, .unit = "",
	  .allow_what = "online CPUs", .needs_root = true, .ops = &fam_irq_ops,
	  .observe = KO_IRQ,
	  .help = "CPUs that may handle the interrupt (/proc/irq/N/smp_affinity_list); managed "
		  "and per-CPU interrupts cannot be moved, irqbalance undoes moves" },
};
/* clang-format on */
const size_t knob_ndefs = sizeof(knob_defs) / sizeof(knob_defs[0]);

size_t knob_def_count(void)
{
	return knob_ndefs;
}

const char *knob_def_pattern(size_t i)
{
	return i < knob_ndefs ? knob_defs[i].pattern : NULL;
}

const char *knob_def_help(size_t i)
{
	return i < knob_ndefs ? knob_defs[i].help : NULL;
}

const struct knob_def *knob_def_find(const char *family, const char *leaf)
{
	for (size_t i = 0; i < knob_ndefs; i++)
		if (!strcmp(knob_defs[i].family, family) && !strcmp(knob_defs[i].leaf, leaf))
			return &knob_defs[i];
	return NULL;
}

bool knob_glob_match(const char *pat, const char *name)
{
	return fnmatch(pat, name, 0) == 0;
}

const char *knob_ref_unit(const struct knob_ref *ref)
{
	return ref->def && ref->def->unit ? ref->def->unit : "";
}

const char *knob_ref_help(const struct knob_ref *ref)
{
	return ref->def ? ref->def->help : "";
}

void knob_ref_path(struct knob_ctx *ctx, const struct knob_ref *ref, char *buf, size_t cap)
{
	knob_abspath(ctx, ref->target, buf, cap);
}

/* ---- expansion helpers ---------------------------------------------------- */

static void join(char *buf, size_t cap, const char *a, const char *b)
{
	snprintf(buf, cap, "%s/%s", a, b);
}

/* Add a ref for def on an object dir. */
static struct knob_ref *add_ref(struct refvec *out, const struct knob_def *d, const char *addr,
				const char *obj, const char *dir)
{
	struct knob_ref *r = refvec_add(out);

	str_copy(r->addr, sizeof(r->addr), addr);
	str_copy(r->obj, sizeof(r->obj), obj);
	str_copy(r->dir, sizeof(r->dir), dir);
	r->def = d;
	if (d->file)
		join(r->target, sizeof(r->target), dir, d->file);
	if (d->file2)
		join(r->target2, sizeof(r->target2), dir, d->file2);
	return r;
}

/* Numeric suffix order for policyN / stateN / cpuN names. */
static int num_suffix(const char *s)
{
	while (*s && !isdigit((unsigned char)*s))
		s++;
	return *s ? atoi(s) : -1;
}

static int cmp_numsuffix(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int nx = num_suffix(x), ny = num_suffix(y);

	if (nx != ny)
		return nx < ny ? -1 : 1;
	return strcmp(x, y);
}

/* List dir entries starting with prefix, sorted by number. */
static int list_prefixed(struct knob_ctx *ctx, const char *dir, const char *prefix,
			 struct sysfs_list *l)
{
	int e = sysfs_list(ctx->root, dir, l);
	size_t k = 0;

	if (e)
		return e;
	for (size_t i = 0; i < l->n; i++) {
		if (str_starts(l->names[i], prefix) &&
		    isdigit((unsigned char)l->names[i][strlen(prefix)]))
			l->names[k++] = l->names[i];
		else
			free(l->names[i]);
	}
	l->n = k;
	if (l->n > 1) /* names is NULL for an empty directory */
		qsort(l->names, l->n, sizeof(char *), cmp_numsuffix);
	return 0;
}

/* Why sysfs_exists() said no: -ENOENT, or the errno of listing the
 * directory above (-EACCES: a CPU directory we may not read). */
static int why_missing(struct knob_ctx *ctx, const char *path)
{
	char dir[TT_PATH_MAX], *slash;
	struct sysfs_list l;
	int e;

	str_copy(dir, sizeof(dir), path);
	slash = strrchr(dir, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	e = sysfs_list(ctx->root, dir, &l);
	if (e)
		return e == -ENOTDIR ? -ENOENT : e;
	sysfs_list_free(&l);
	return -ENOENT;
}

static void names_joined(const struct sysfs_list *l, char *buf, size_t cap)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n && len < cap; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " " : "", l->names[i]);
}

/* Does an address segment (a name or a glob) select this leaf? */
static bool leaf_sel(const char *sel, const char *name)
{
	return knob_is_glob(sel) ? knob_glob_match(sel, name) : !strcmp(sel, name);
}

static const char *seg_or_star(char **seg, size_t nseg, size_t i, unsigned flags, bool *missing)
{
	if (i < nseg)
		return seg[i];
	if (flags & KNOB_EXPAND_PREFIX)
		return "*";
	*missing = true;
	return "*";
}

static int incomplete(char **cause, const char *family, const char *expect)
{
	knob_cause(cause, "incomplete knob address: expected %s/%s", family, expect);
	return -EINVAL;
}

static int too_long(char **cause, const char *family, char **seg, size_t nseg)
{
	struct sbuf b;

	sbuf_init(&b);
	sbuf_puts(&b, family);
	for (size_t i = 0; i < nseg; i++)
		sbuf_printf(&b, "/%s", seg[i]);
	knob_cause(cause, "unknown knob address '%s': too many segments", b.s);
	sbuf_free(&b);
	return -ENOENT;
}

/* ---- cpufreq ------------------------------------------------------------ */

static const char *const cpufreq_leaves[] = {"governor", "min_khz", "max_khz", "lock_khz",
					     "energy_performance_preference"};

static void policy_note(struct knob_ctx *ctx, struct knob_ref *r)
{
	char buf[256];
	struct cpumask m;

	if (sysfs_read_strf(ctx->root, buf, sizeof(buf), "%s/related_cpus", r->dir) == 0 &&
	    cpulist_parse_spaces(buf, &m) == 0) {
		char list[128];

		cpulist_format(&m, list, sizeof(list));
		snprintf(r->note, sizeof(r->note), "cpus %s", list);
	}
}

static int cpufreq_add_tunables(struct knob_ctx *ctx, const char *policy, const char *pdir,
				const char *gov, const char *tsel, bool explicit_tunable,
				struct refvec *out, char **cause)
{
	const struct knob_def *d = knob_def_find("cpufreq", "*");
	char gdir[TT_PATH_MAX];
	struct sysfs_list l;
	int found = 0;

	join(gdir, sizeof(gdir), pdir, gov);
	if (sysfs_list(ctx->root, gdir, &l) != 0)
		return 0;
	for (size_t i = 0; i < l.n; i++) {
		char addr[KNOB_ADDR_MAX], file[TT_PATH_MAX];
		struct knob_ref *r;

		if (!knob_glob_match(tsel, l.names[i]))
			continue;
		join(file, sizeof(file), gdir, l.names[i]);
		if (sysfs_is_dir(ctx->root, file))
			continue;
		snprintf(addr, sizeof(addr), "cpufreq/%s/%s/%s", policy, gov, l.names[i]);
		r = add_ref(out, d, addr, policy, pdir);
		str_copy(r->target, sizeof(r->target), file);
		snprintf(r->note, sizeof(r->note), "%s tunable", gov);
		found++;
	}
	sysfs_list_free(&l);
	if (!found && explicit_tunable) {
		char abs[TT_PATH_MAX];

		knob_abspath(ctx, gdir, abs, sizeof(abs));
		knob_cause(cause, "cpufreq/%s/%s/%s: no such tunable in %s", policy, gov, tsel,
			   abs);
		return -ENOENT;
	}
	return 0;
}

static int cpufreq_policy_expand(struct knob_ctx *ctx, const char *policy, char **seg, size_t nseg,
				 unsigned flags, bool wild_policy, struct refvec *out, char **cause)
{
	char pdir[TT_PATH_MAX], addr[KNOB_ADDR_MAX], path[TT_PATH_MAX];
	bool missing = false;
	const char *leaf = seg_or_star(seg, nseg, 1, flags, &missing);

	if (missing)
		return incomplete(cause, "cpufreq", "<policy>/<knob>");
	join(pdir, sizeof(pdir), CPUFREQ_DIR, policy);
	if (knob_is_glob(leaf)) {
		struct sysfs_list l;

		for (size_t i = 0; i < sizeof(cpufreq_leaves) / sizeof(cpufreq_leaves[0]); i++) {
			const struct knob_def *d = knob_def_find("cpufreq", cpufreq_leaves[i]);

			if (!knob_glob_match(leaf, d->leaf))
				continue;
			join(path, sizeof(path), pdir, d->file);
			if (!sysfs_exists(ctx->root, path))
				continue;
			snprintf(addr, sizeof(addr), "cpufreq/%s/%s", policy, d->leaf);
			policy_note(ctx, add_ref(out, d, addr, policy, pdir));
		}
		if (nseg > 2)
			return too_long(cause, "cpufreq", seg, nseg);
		/* governor tunables: every sub-directory but stats */
		if ((flags & KNOB_EXPAND_PREFIX) && sysfs_list(ctx->root, pdir, &l) == 0) {
			for (size_t i = 0; i < l.n; i++) {
				join(path, sizeof(path), pdir, l.names[i]);
				if (strcmp(l.names[i], "stats") &&
				    knob_glob_match(leaf, l.names[i]) &&
				    sysfs_is_dir(ctx->root, path))
					cpufreq_add_tunables(ctx, policy, pdir, l.names[i], "*",
							     false, out, cause);
			}
			sysfs_list_free(&l);
		}
		return 0;
	}
	for (size_t i = 0; i < sizeof(cpufreq_leaves) / sizeof(cpufreq_leaves[0]); i++) {
		const struct knob_def *d = knob_def_find("cpufreq", cpufreq_leaves[i]);

		if (!leaf_sel(leaf, d->leaf))
			continue;
		if (nseg > 2)
			return too_long(cause, "cpufreq", seg, nseg);
		join(path, sizeof(path), pdir, d->file);
		if (!sysfs_exists(ctx->root, path)) {
			char abs[TT_PATH_MAX];

			if (wild_policy)
				return 0;
			knob_abspath(ctx, path, abs, sizeof(abs));
			knob_cause(cause,
				   "cpufreq/%s/%s: ENOENT from %s: not provided by this "
				   "cpufreq driver",
				   policy, leaf, abs);
			return -ENOENT;
		}
		snprintf(addr, sizeof(addr), "cpufreq/%s/%s", policy, d->leaf);
		policy_note(ctx, add_ref(out, d, addr, policy, pdir));
		return 0;
	}
	/* <governor>/<tunable> */
	join(path, sizeof(path), pdir, leaf);
	if (!sysfs_is_dir(ctx->root, path)) {
		char gov[64] = "", avail[512] = "", abs[TT_PATH_MAX];

		if (wild_policy && !(flags & KNOB_EXPAND_PREFIX))
			return 0;
		sysfs_read_strf(ctx->root, gov, sizeof(gov), "%s/scaling_governor", pdir);
		knob_read_words(ctx, CPUFREQ_DIR "/policy0/scaling_available_governors", avail,
				sizeof(avail));
		knob_abspath(ctx, path, abs, sizeof(abs));
		if (knob_word_in(avail, leaf) || nseg > 2)
			knob_cause(cause,
				   "cpufreq/%s/%s: no %s tunables (%s missing): the "
				   "governor is %s and a governor's tunables exist only "
				   "while it is active",
				   policy, leaf, leaf, abs, gov[0] ? gov : "n/a");
		else
			knob_cause(cause,
				   "unknown cpufreq knob '%s' (knobs: governor min_khz "
				   "max_khz lock_khz energy_performance_preference "
				   "<governor>/<tunable>)",
				   leaf);
		return -ENOENT;
	}
	if (nseg > 3)
		return too_long(cause, "cpufreq", seg, nseg);
	{
		const char *tsel = seg_or_star(seg, nseg, 2, flags, &missing);

		if (missing)
			return incomplete(cause, "cpufreq", "<policy>/<governor>/<tunable>");
		return cpufreq_add_tunables(ctx, policy, pdir, leaf, tsel,
					    !knob_is_glob(tsel) && !wild_policy, out, cause);
	}
}

static int cpufreq_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
			  struct refvec *out, char **cause)
{
	struct sysfs_list l;
	bool missing = false;
	const char *psel = seg_or_star(seg, nseg, 0, flags, &missing);
	int e;

	if (missing)
		return incomplete(cause, "cpufreq", "<policy>/<knob>");
	if ((e = list_prefixed(ctx, CPUFREQ_DIR, "policy", &l)) != 0 || l.n == 0) {
		char abs[TT_PATH_MAX];

		if (!e)
			sysfs_list_free(&l);
		if (flags & KNOB_EXPAND_EMPTY_OK)
			return 0;
		knob_abspath(ctx, CPUFREQ_DIR, abs, sizeof(abs));
		if (e == -EXDEV) {
			knob_cause(cause, "cpufreq: %s: leaves the root (symlink), refused", abs);
			return -EXDEV;
		}
		knob_cause(cause,
			   "cpufreq: no cpufreq policies on this root (%s is missing or "
			   "empty)",
			   abs);
		return -ENOENT;
	}
	e = 0;
	if (knob_is_glob(psel)) {
		for (size_t i = 0; i < l.n && !e; i++)
			if (knob_glob_match(psel, l.names[i]))
				e = cpufreq_policy_expand(ctx, l.names[i], seg, nseg, flags, true,
							  out, cause);
	} else if (str_starts(psel, "policy")) {
		size_t i;

		for (i = 0; i < l.n; i++)
			if (!strcmp(l.names[i], psel))
				break;
		if (i == l.n) {
			char names[512];

			names_joined(&l, names, sizeof(names));
			knob_cause(cause, "cpufreq/%s: no such policy (policies: %s)", psel, names);
			e = -ENOENT;
		} else {
			e = cpufreq_policy_expand(ctx, psel, seg, nseg, flags, false, out, cause);
		}
	} else {
		/* CPU selector: the policy of each CPU */
		struct cpumask m, done;
		bool wild;

		if (knob_cpu_selector(ctx, psel, &m, &wild) != 0) {
			knob_cause(cause,
				   "cpufreq/%s: not a policy or CPU (use policyN, cpuN, a CPU "
				   "list or *)",
				   psel);
			sysfs_list_free(&l);
			return -EINVAL;
		}
		cpumask_zero(&done);
		for (int c = cpumask_next(&m, 0); c >= 0 && !e; c = cpumask_next(&m, c + 1)) {
			size_t i;

			for (i = 0; i < l.n; i++) {
				char buf[256];
				struct cpumask rel;

				if (sysfs_read_strf(ctx->root, buf, sizeof(buf),
						    CPUFREQ_DIR "/%s/related_cpus",
						    l.names[i]) == 0 &&
				    cpulist_parse_spaces(buf, &rel) == 0 && cpumask_test(&rel, c))
					break;
			}
			if (i == l.n) {
				if (wild)
					continue;
				knob_cause(cause, "cpufreq/%s: cpu%d has no cpufreq policy", psel,
					   c);
				e = -ENOENT;
				break;
			}
			if (cpumask_test(&done, num_suffix(l.names[i])))
				continue;
			cpumask_set(&done, num_suffix(l.names[i]));
			e = cpufreq_policy_expand(ctx, l.names[i], seg, nseg, flags, wild, out,
						  cause);
		}
	}
	sysfs_list_free(&l);
	return e;
}

/* ---- cpuidle ------------------------------------------------------------ */

struct idle_state {
	int index;
	char name[64];
	long long latency, residency;
};

static int read_states(struct knob_ctx *ctx, int cpu, struct idle_state **st, size_t *n)
{
	char dir[TT_PATH_MAX];
	struct sysfs_list l;
	int e;

	*st = NULL;
	*n = 0;
	snprintf(dir, sizeof(dir), CPU_DIR "/cpu%d/cpuidle", cpu);
	e = list_prefixed(ctx, dir, "state", &l);
	if (e)
		return e == -ENOTDIR ? -ENOENT : e; /* EACCES: unreadable, not missing */
	*st = xcalloc(l.n ? l.n : 1, sizeof(**st));
	for (size_t i = 0; i < l.n; i++) {
		struct idle_state *s = &(*st)[i];
		int64_t v;

		s->index = num_suffix(l.names[i]);
		if (sysfs_read_strf(ctx->root, s->name, sizeof(s->name), "%s/%s/name", dir,
				    l.names[i]) != 0)
			snprintf(s->name, sizeof(s->name), "%s", l.names[i]);
		s->latency = sysfs_read_i64f(ctx->root, &v, "%s/%s/latency", dir, l.names[i]) == 0
				     ? v
				     : -1;
		s->residency =
			sysfs_read_i64f(ctx->root, &v, "%s/%s/residency", dir, l.names[i]) == 0
				? v
				: -1;
	}
	*n = l.n;
	sysfs_list_free(&l);
	return 0;
}

/* A state filter: "latency>10", "residency<100", "index>1", ">C1" (deeper
 * than the state named C1). Returns 1 = is a filter (and *keep says whether
 * s matches), 0 = not a filter, -EINVAL = malformed filter. */
static int state_filter(const char *sel, const struct idle_state *all, size_t n,
			const struct idle_state *s, bool *keep)
{
	static const char *const attrs[] = {"latency", "residency", "index"};
	const char *op = strpbrk(sel, "<>");
	long long lim, v;
	int64_t num;

	if (!op)
		return 0;
	if (op == sel) { /* >NAME or <NAME */
		long long ref = -1;

		for (size_t i = 0; i < n; i++)
			if (!strcasecmp(all[i].name, sel + 1) ||
			    (str_starts(sel + 1, "state") && all[i].index == num_suffix(sel + 1)))
				ref = all[i].index;
		if (ref < 0) {
			*keep = false;
			return 1;
		}
		*keep = *op == '>' ? s->index > ref : s->index < ref;
		return 1;
	}
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		if (strlen(attrs[i]) != (size_t)(op - sel) ||
		    strncmp(sel, attrs[i], strlen(attrs[i])))
			continue;
		if (str_to_i64(op + 1, &num) != 0)
			return -EINVAL;
		lim = num;
		v = i == 0 ? s->latency : i == 1 ? s->residency : s->index;
		*keep = v >= 0 && (*op == '>' ? v > lim : v < lim);
		return 1;
	}
	return -EINVAL;
}

static int cpuidle_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
			  struct refvec *out, char **cause)
{
	bool missing = false, wild_cpu;
	const char *csel = seg_or_star(seg, nseg, 0, flags, &missing);
	const char *ssel = seg_or_star(seg, nseg, 1, flags, &missing);
	const char *leaf = seg_or_star(seg, nseg, 2, flags, &missing);
	const struct knob_def *d = knob_def_find("cpuidle", "disable");
	const struct knob_def *g = knob_def_find("cpuidle", "governor");
	struct cpumask m;
	int any_dir = 0;

	/* cpuidle/governor: one file for the whole system */
	if (nseg <= 1 && leaf_sel(csel, g->leaf)) {
		char path[TT_PATH_MAX], abs[TT_PATH_MAX];

		join(path, sizeof(path), g->dir, g->file);
		if (sysfs_exists(ctx->root, path)) {
			add_ref(out, g, "cpuidle/governor", "", g->dir);
		} else if (!knob_is_glob(csel)) {
			join(path, sizeof(path), g->dir, "current_governor_ro");
			if (sysfs_exists(ctx->root, path)) {
				knob_abspath(ctx, path, abs, sizeof(abs));
				knob_cause(cause,
					   "cpuidle/governor: only %s: this kernel cannot switch "
					   "cpuidle governors (read-only)",
					   abs);
				return -EROFS;
			}
			knob_abspath(ctx, g->dir, abs, sizeof(abs));
			knob_cause(cause,
				   "cpuidle/governor: ENOENT from %s/current_governor: no cpuidle "
				   "on this root",
				   abs);
			return -ENOENT;
		}
		if (!knob_is_glob(csel))
			return 0;
	}
	if (missing)
		return incomplete(cause, "cpuidle", "governor or cpuidle/<cpus>/<state>/disable");
	if (nseg > 3)
		return too_long(cause, "cpuidle", seg, nseg);
	if (!leaf_sel(leaf, d->leaf)) {
		if (knob_is_glob(leaf))
			return 0;
		knob_cause(cause, "unknown cpuidle knob '%s' (cpuidle/<cpus>/<state>/disable)",
			   leaf);
		return -ENOENT;
	}
	if (knob_cpu_selector(ctx, csel, &m, &wild_cpu) != 0) {
		knob_cause(cause,
			   "cpuidle/%s: not a CPU selector (cpuN, a CPU list like 4-7, or *)",
			   csel);
		return -EINVAL;
	}
	for (int c = cpumask_next(&m, 0); c >= 0; c = cpumask_next(&m, c + 1)) {
		struct idle_state *st;
		size_t n;
		int matched = 0, e;
		bool filter = false;

		if (!wild_cpu && !cpumask_test(knob_online(ctx), c)) {
			knob_cause(cause,
				   "cpuidle/cpu%d: CPU %d is offline (or absent) on this root", c,
				   c);
			return -ENOENT;
		}
		e = read_states(ctx, c, &st, &n);
		if (e || n == 0) {
			char drv[64] = "";

			free(st);
			if (wild_cpu)
				continue;
			if (e && e != -ENOENT) {
				char dir[TT_PATH_MAX], abs[TT_PATH_MAX];

				snprintf(dir, sizeof(dir), CPU_DIR "/cpu%d/cpuidle", c);
				knob_abspath(ctx, dir, abs, sizeof(abs));
				knob_cause(cause,
					   "cpuidle/cpu%d: %s from %s: cannot list its idle states",
					   c, err_name(e), abs);
				return e;
			}
			sysfs_read_str(ctx->root, CPU_DIR "/cpuidle/current_driver", drv,
				       sizeof(drv));
			knob_cause(cause,
				   "cpuidle/cpu%d: no idle states for CPU %d (cpuidle driver: "
				   "%s)",
				   c, c, drv[0] ? drv : "none");
			return -ENOENT;
		}
		any_dir++;
		for (size_t i = 0; i < n; i++) {
			bool keep = false;
			int f = state_filter(ssel, st, n, &st[i], &keep);
			char addr[KNOB_ADDR_MAX], dir[TT_PATH_MAX], obj[64];
			struct knob_ref *r;

			if (f < 0) {
				knob_cause(cause,
					   "cpuidle: bad state filter '%s' (use latency>N, "
					   "residency>N, index>N, >NAME or <NAME)",
					   ssel);
				free(st);
				return -EINVAL;
			}
			if (f)
				filter = true;
			else if (knob_is_glob(ssel))
				keep = knob_glob_match(ssel, st[i].name) ||
				       (snprintf(obj, sizeof(obj), "state%d", st[i].index),
					knob_glob_match(ssel, obj));
			else
				keep = !strcasecmp(ssel, st[i].name) ||
				       (str_starts(ssel, "state") &&
					isdigit((unsigned char)ssel[5]) &&
					num_suffix(ssel) == st[i].index);
			if (!keep)
				continue;
			matched++;
			snprintf(addr, sizeof(addr), "cpuidle/cpu%d/state%d/disable", c,
				 st[i].index);
			snprintf(obj, sizeof(obj), "cpu%d/state%d", c, st[i].index);
			snprintf(dir, sizeof(dir), CPU_DIR "/cpu%d/cpuidle/state%d", c,
				 st[i].index);
			r = add_ref(out, d, addr, obj, dir);
			r->cpu = c;
			r->index = st[i].index;
			if (st[i].latency >= 0)
				snprintf(r->note, sizeof(r->note), "%s, exit latency %lld us",
					 st[i].name, st[i].latency);
			else
				snprintf(r->note, sizeof(r->note), "%s", st[i].name);
		}
		if (!matched && !filter && !knob_is_glob(ssel)) {
			char names[256] = "";
			size_t len = 0;

			for (size_t i = 0; i < n && len < sizeof(names); i++)
				len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
							i ? " " : "", st[i].name);
			knob_cause(cause, "cpuidle/cpu%d/%s: no such idle state (states: %s)", c,
				   ssel, names);
			free(st);
			return -ENOENT;
		}
		free(st);
	}
	if (!any_dir && !(flags & KNOB_EXPAND_EMPTY_OK)) {
		char drv[64] = "";

		sysfs_read_str(ctx->root, CPU_DIR "/cpuidle/current_driver", drv, sizeof(drv));
		knob_cause(cause, "cpuidle: no idle states on this root (cpuidle driver: %s)",
			   drv[0] ? drv : "none");
		return -ENOENT;
	}
	return 0;
}

/* ---- pmqos ---------------------------------------------------------------- */

static int pmqos_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
			struct refvec *out, char **cause)
{
	const struct knob_def *dl = knob_def_find("pmqos", "cpu_dma_latency_us");
	const struct knob_def *rl = knob_def_find("pmqos", "resume_latency_us");
	bool missing = false, wild;
	const char *s0 = seg_or_star(seg, nseg, 0, flags, &missing);
	const char *leaf;
	struct cpumask m;
	int found = 0;

	if (missing)
		return incomplete(cause, "pmqos",
				  "cpu_dma_latency_us or pmqos/<cpus>/resume_latency_us");
	if (nseg <= 1 && leaf_sel(s0, dl->leaf)) {
		char path[TT_PATH_MAX];

		join(path, sizeof(path), dl->dir, dl->file);
		if (sysfs_exists(ctx->root, path)) {
			struct knob_ref *r =
				add_ref(out, dl, "pmqos/cpu_dma_latency_us", "", dl->dir);

			str_copy(r->note, sizeof(r->note), "lease: held while the fd is open");
		} else if (!knob_is_glob(s0)) {
			char abs[TT_PATH_MAX];

			knob_abspath(ctx, path, abs, sizeof(abs));
			knob_cause(cause,
				   "pmqos/cpu_dma_latency_us: ENOENT from %s: no PM QoS device "
				   "on this root",
				   abs);
			return -ENOENT;
		}
		if (!knob_is_glob(s0))
			return 0;
	}
	if (!strcmp(s0, dl->leaf))
		return 0;
	leaf = seg_or_star(seg, nseg, 1, flags, &missing);
	if (missing)
		return incomplete(cause, "pmqos", "<cpus>/resume_latency_us");
	if (nseg > 2)
		return too_long(cause, "pmqos", seg, nseg);
	if (!leaf_sel(leaf, rl->leaf)) {
		if (knob_is_glob(leaf))
			return 0;
		knob_cause(cause,
			   "unknown pmqos knob '%s' (pmqos/cpu_dma_latency_us, "
			   "pmqos/<cpus>/resume_latency_us)",
			   leaf);
		return -ENOENT;
	}
	if (knob_cpu_selector(ctx, s0, &m, &wild) != 0) {
		knob_cause(cause, "pmqos/%s: not a CPU selector (cpuN, a CPU list like 4-7, or *)",
			   s0);
		return -EINVAL;
	}
	for (int c = cpumask_next(&m, 0); c >= 0; c = cpumask_next(&m, c + 1)) {
		char dir[TT_PATH_MAX], path[TT_PATH_MAX], addr[KNOB_ADDR_MAX], obj[32];
		struct knob_ref *r;

		snprintf(dir, sizeof(dir), CPU_DIR "/cpu%d", c);
		join(path, sizeof(path), dir, rl->file);
		if (!wild && !cpumask_test(knob_online(ctx), c)) {
			knob_cause(cause, "pmqos/cpu%d: CPU %d is offline (or absent) on this root",
				   c, c);
			return -ENOENT;
		}
		if (!sysfs_exists(ctx->root, path)) {
			char abs[TT_PATH_MAX];
			int e;

			if (wild)
				continue;
			e = why_missing(ctx, path);
			knob_abspath(ctx, path, abs, sizeof(abs));
			knob_cause(cause, "pmqos/cpu%d/resume_latency_us: %s from %s", c,
				   err_name(e), abs);
			return e;
		}
		snprintf(addr, sizeof(addr), "pmqos/cpu%d/resume_latency_us", c);
		snprintf(obj, sizeof(obj), "cpu%d", c);
		r = add_ref(out, rl, addr, obj, dir);
		r->cpu = c;
		found++;
	}
	(void)found;
	return 0;
}

/* ---- devfreq -------------------------------------------------------------- */

const char *knob_devfreq_kind(const char *name)
{
	if (!strcmp(name, "dmc") || strstr(name, "ddr") || strstr(name, "dmc"))
		return "ddr";
	if (str_ends(name, ".npu") || strstr(name, "npu"))
		return "npu";
	if (str_ends(name, ".gpu") || strstr(name, "mali") || strstr(name, "gpu"))
		return "gpu";
	return "other";
}

static const char *const devfreq_leaves[] = {"governor", "min_hz", "max_hz", "lock_hz"};

static int devfreq_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
			  struct refvec *out, char **cause)
{
	bool missing = false;
	const char *dsel = seg_or_star(seg, nseg, 0, flags, &missing);
	const char *leaf = seg_or_star(seg, nseg, 1, flags, &missing);
	bool alias = !strcmp(dsel, "npu") || !strcmp(dsel, "gpu") || !strcmp(dsel, "ddr");
	struct sysfs_list l;
	int matched = 0;
	bool exact = false;

	if (missing)
		return incomplete(cause, "devfreq", "<dev>/<knob>");
	if (nseg > 2)
		return too_long(cause, "devfreq", seg, nseg);
	if (sysfs_list(ctx->root, DEVFREQ_DIR, &l) != 0 || l.n == 0) {
		sysfs_list_free(&l);
		if (flags & KNOB_EXPAND_EMPTY_OK)
			return 0;
		knob_cause(cause, "devfreq: no devfreq devices on this root");
		return -ENOENT;
	}
	for (size_t i = 0; i < l.n; i++)
		if (!strcmp(l.names[i], dsel))
			exact = true;
	if (!knob_is_glob(leaf) && !knob_def_find("devfreq", leaf)) {
		knob_cause(cause,
			   "unknown devfreq knob '%s' (knobs: governor min_hz max_hz lock_hz)",
			   leaf);
		sysfs_list_free(&l);
		return -ENOENT;
	}
	for (size_t i = 0; i < l.n; i++) {
		const char *name = l.names[i];
		char dir[TT_PATH_MAX];
		bool take;

		if (exact)
			take = !strcmp(name, dsel);
		else if (alias)
			take = !strcmp(knob_devfreq_kind(name), dsel);
		else
			take = knob_is_glob(dsel) && knob_glob_match(dsel, name);
		if (!take)
			continue;
		matched++;
		join(dir, sizeof(dir), DEVFREQ_DIR, name);
		for (size_t k = 0; k < sizeof(devfreq_leaves) / sizeof(devfreq_leaves[0]); k++) {
			const struct knob_def *d = knob_def_find("devfreq", devfreq_leaves[k]);
			char addr[KNOB_ADDR_MAX], path[TT_PATH_MAX];
			struct knob_ref *r;

			if (!knob_glob_match(leaf, d->leaf))
				continue;
			join(path, sizeof(path), dir, d->file);
			if (!sysfs_exists(ctx->root, path)) {
				char abs[TT_PATH_MAX];

				if (knob_is_glob(leaf))
					continue;
				knob_abspath(ctx, path, abs, sizeof(abs));
				knob_cause(cause, "devfreq/%s/%s: ENOENT from %s", name, leaf, abs);
				sysfs_list_free(&l);
				return -ENOENT;
			}
			snprintf(addr, sizeof(addr), "devfreq/%s/%s", name, d->leaf);
			r = add_ref(out, d, addr, name, dir);
			snprintf(r->note, sizeof(r->note), "kind %s", knob_devfreq_kind(name));
		}
	}
	if (!matched && !knob_is_glob(dsel)) {
		char names[512];

		names_joined(&l, names, sizeof(names));
		knob_cause(cause,
			   "devfreq/%s: no such devfreq device%s (devices: %s; aliases npu "
			   "gpu ddr)",
			   dsel, alias ? " kind" : "", names);
		sysfs_list_free(&l);
		return -ENOENT;
	}
	sysfs_list_free(&l);
	return 0;
}

/* ---- global knobs (sched, intel_pstate, mm) --------------------------------- */

static int global_expand(struct knob_ctx *ctx, const char *family, char **seg, size_t nseg,
			 unsigned flags, struct refvec *out, char **cause)
{
	bool missing = false;
	const char *leaf = seg_or_star(seg, nseg, 0, flags, &missing);
	int known = 0;

	if (missing)
		return incomplete(cause, family, "<knob>");
	if (nseg > 1)
		return too_long(cause, family, seg, nseg);
	for (size_t i = 0; i < knob_ndefs; i++) {
		const struct knob_def *d = &knob_defs[i];
		char addr[KNOB_ADDR_MAX], path[TT_PATH_MAX];

		if (strcmp(d->family, family) || !knob_glob_match(leaf, d->leaf))
			continue;
		known++;
		join(path, sizeof(path), d->dir, d->file);
		if (!sysfs_exists(ctx->root, path)) {
			char abs[TT_PATH_MAX];

			if (knob_is_glob(leaf))
				continue;
			knob_abspath(ctx, path, abs, sizeof(abs));
			knob_cause(cause, "%s/%s: ENOENT from %s: not available on this root",
				   family, d->leaf, abs);
			return -ENOENT;
		}
		snprintf(addr, sizeof(addr), "%s/%s", family, d->leaf);
		add_ref(out, d, addr, "", d->dir);
	}
	if (!known && !knob_is_glob(leaf)) {
		struct sbuf b;

		sbuf_init(&b);
		for (size_t i = 0; i < knob_ndefs; i++)
			if (!strcmp(knob_defs[i].family, family))
				sbuf_printf(&b, " %s/%s", family, knob_defs[i].leaf);
		knob_cause(cause, "unknown knob '%s/%s' (knobs:%s)", family, leaf, b.s);
		sbuf_free(&b);
		return -ENOENT;
	}
	return 0;
}

static int sched_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
			struct refvec *out, char **cause)
{
	return global_expand(ctx, "sched", seg, nseg, flags, out, cause);
}

static int pstate_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
			 struct refvec *out, char **cause)
{
	return global_expand(ctx, "intel_pstate", seg, nseg, flags, out, cause);
}

static int wq_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
		     struct refvec *out, char **cause)
{
	return global_expand(ctx, "workqueue", seg, nseg, flags, out, cause);
}

int knob_global_ref(struct knob_ctx *ctx, const char *family, const char *leaf, struct refvec *out,
		    char **cause)
{
	char *seg[1] = {(char *)(uintptr_t)leaf};

	return global_expand(ctx, family, seg, 1, 0, out, cause);
}

static int mm_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
		     struct refvec *out, char **cause)
{
	return global_expand(ctx, "mm", seg, nseg, flags, out, cause);
}

const struct knob_family knob_families[] = {
	{"cpufreq", cpufreq_expand}, {"cpuidle", cpuidle_expand},   {"pmqos", pmqos_expand},
	{"devfreq", devfreq_expand}, {"sched", sched_expand},	    {"intel_pstate", pstate_expand},
	{"mm", mm_expand},	     {"thread", fam_thread_expand}, {"process", fam_process_expand},
	{"irq", fam_irq_expand},     {"workqueue", wq_expand},
};
const size_t knob_nfamilies = sizeof(knob_families) / sizeof(knob_families[0]);

/* ---- default ops: one sysfs file ------------------------------------------ */

static void normalize(const struct knob_def *d, char *raw, char *value, size_t cap)
{
	char *t = str_trim(raw);

	if (d && d->allow == KA_BRACKET) {
		char *lb = strchr(t, '['), *rb = lb ? strchr(lb, ']') : NULL;

		if (lb && rb) {
			*rb = '\0';
			t = lb + 1;
		}
	}
	str_copy(value, cap, t);
}

/* Test-only fault injection for fixture roots: TUNETOP_TEST_FAULT="suffix=EBUSY,..."
 * makes writes to root-relative paths ending in suffix fail with that errno;
 * "suffix=clamp:VALUE" stores VALUE instead of what was written (a kernel
 * that clamps). Never applies to the live root. */
static int injected_fault(struct knob_ctx *ctx, const char *target, char *clamp, size_t cap)
{
	static const struct {
		const char *name;
		int err;
	} names[] = {{"EINVAL", EINVAL}, {"EBUSY", EBUSY}, {"EACCES", EACCES},
		     {"EPERM", EPERM},	 {"EIO", EIO},	   {"ENODEV", ENODEV}};
	const char *env = getenv("TUNETOP_TEST_FAULT");
	char *copy, *save = NULL;
	int err = 0;

	if (!env || !*env || ctx->root->live)
		return 0;
	copy = xstrdup(env);
	for (char *it = strtok_r(copy, ",", &save); it && !err; it = strtok_r(NULL, ",", &save)) {
		char *eq = strrchr(it, '=');

		if (!eq)
			continue;
		*eq = '\0';
		if (!str_ends(target, it))
			continue;
		if (clamp && str_starts(eq + 1, "clamp:"))
			str_copy(clamp, cap, eq + 1 + strlen("clamp:"));
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(eq + 1, names[i].name))
				err = -names[i].err;
	}
	free(copy);
	return err;
}

static int file_read(struct knob_ctx *ctx, const struct knob_ref *ref, char *value, size_t cap,
		     char *raw, size_t rawcap, size_t *rawlen)
{
	char buf[4096];
	size_t len = 0;
	int e;

	if (ref->def && (ref->def->flags & KD_LOCK)) {
		char a[64], b[64];

		e = sysfs_read_str(ctx->root, ref->target, a, sizeof(a));
		if (!e)
			e = sysfs_read_str(ctx->root, ref->target2, b, sizeof(b));
		if (e)
			return e;
		str_copy(value, cap, strcmp(a, b) ? "off" : a);
		if (rawlen)
			*rawlen = 0;
		return 0;
	}
	e = knob_read_raw(ctx, ref->target, buf, sizeof(buf), &len, raw, rawcap, rawlen);
	if (e)
		return e;
	normalize(ref->def, buf, value, cap);
	return 0;
}

static int file_write(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value)
{
	char line[KNOB_VALUE_MAX + 2], clamp[KNOB_VALUE_MAX] = "";
	int e = injected_fault(ctx, ref->target, clamp, sizeof(clamp));

	if (e)
		return e;
	/* like `echo value > file`: sysfs parsers accept the newline */
	snprintf(line, sizeof(line), "%s\n", clamp[0] ? clamp : value);
	return sysfs_write(ctx->root, ref->target, line, strlen(line));
}

static int file_restore(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
			const char *raw, size_t rawlen)
{
	int e;

	/* On a fixture root put back the exact bytes, so diff -r is clean; the
	 * kernel wants the value. */
	if (!ctx->root->live && raw) {
		e = injected_fault(ctx, ref->target, NULL, 0);
		return e ? e : sysfs_write(ctx->root, ref->target, raw, rawlen);
	}
	return file_write(ctx, ref, value);
}

static const struct knob_ops file_ops = {file_read, file_write, file_restore};

/* EBUSY from energy_performance_preference (intel_pstate, amd-pstate). */
static bool epp_why(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value, int err,
		    char *buf, size_t cap)
{
	(void)ctx;
	(void)ref;
	(void)value;
	if (err != -EBUSY)
		return false;
	snprintf(buf, cap, "the performance governor allows only EPP 'performance'");
	return true;
}

/* RT group scheduling (CONFIG_RT_GROUP_SCHED, cgroup v1 cpu controller):
 * the child groups below DIR whose cpu.rt_runtime_us is above 0, depth
 * first, named into out ("/sys/fs/cgroup/cpu/app (500000 us)"); returns how
 * many there are (the first few are named). */
static int rt_child_groups(struct knob_ctx *ctx, const char *dir, int depth, struct sbuf *out,
			   int *named)
{
	struct sysfs_list l;
	int n = 0;

	if (depth > 4 || sysfs_list_opt(ctx->root, dir, &l))
		return 0;
	for (size_t i = 0; i < l.n; i++) {
		char path[TT_PATH_MAX], v[32];
		int64_t us;

		snprintf(path, sizeof(path), "%s/%s/cpu.rt_runtime_us", dir, l.names[i]);
		if (sysfs_read_str(ctx->root, path, v, sizeof(v)))
			continue; /* not a group */
		snprintf(path, sizeof(path), "%s/%s", dir, l.names[i]);
		n += rt_child_groups(ctx, path, depth + 1, out, named);
		if (str_to_i64(v, &us) || us <= 0)
			continue;
		if ((*named)++ < 4)
			sbuf_printf(out, "%s/%s (%lld us)", *named > 1 ? ", " : "", path,
				    (long long)us);
		n++;
	}
	sysfs_list_free(&l);
	return n;
}

/* EINVAL / EBUSY from sched_rt_runtime_us (kernel/sched/rt.c): with RT group
 * scheduling, the global runtime cannot go below what child groups hold
 * (sched_rt_global_constraints -> tg_rt_schedulable); else EBUSY is the
 * SCHED_DEADLINE bandwidth already admitted (sched_dl_global_validate). */
static bool rt_runtime_why(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
			   int err, char *buf, size_t cap)
{
	static const char *const mounts[] = {"sys/fs/cgroup/cpu", "sys/fs/cgroup/cpu,cpuacct"};
	struct sbuf g;
	int n = 0, named = 0;

	(void)ref;
	if (err != -EBUSY && err != -EINVAL)
		return false;
	sbuf_init(&g);
	for (size_t i = 0; ctx && i < sizeof(mounts) / sizeof(mounts[0]) && !n; i++)
		n = rt_child_groups(ctx, mounts[i], 0, &g, &named);
	if (n) {
		snprintf(buf, cap,
			 "RT group scheduling: %d child group%s hold%s RT runtime (%s%s); lower "
			 "theirs first (echo 0 > GROUP/cpu.rt_runtime_us, the deepest groups "
			 "first), then set sched/rt_runtime_us=%s",
			 n, n == 1 ? "" : "s", n == 1 ? "s" : "", g.s ? g.s : "",
			 n > named ? ", ..." : "", value);
		sbuf_free(&g);
		return true;
	}
	sbuf_free(&g);
	if (err != -EBUSY)
		return false;
	snprintf(buf, cap,
		 "below the SCHED_DEADLINE bandwidth already admitted (on 6.12+ the fair server "
		 "counts)");
	return true;
}

static const struct knob_ops epp_ops = {file_read, file_write, file_restore, .why = epp_why};
static const struct knob_ops rt_runtime_ops = {file_read, file_write, file_restore,
					       .why = rt_runtime_why};

/* A hex CPU mask file (workqueue/cpumask, irq/default_smp_affinity): the
 * value is a mask like the file's ("f", "0000000f", "ff,ffffffff", an
 * optional 0x), of possible CPUs, not empty; written as the kernel prints
 * it (as wide as the possible CPUs). */
static int hexmask_validate(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
			    char *norm, size_t cap, char **cause)
{
	char v[KNOB_VALUE_MAX], file[TT_PATH_MAX], buf[4096];
	struct cpumask m, possible, extra;
	int nbits = 0;
	char *t;

	knob_abspath(ctx, ref->target, file, sizeof(file));
	str_copy(v, sizeof(v), value);
	t = str_trim(v);
	if (!strncmp(t, "0x", 2) || !strncmp(t, "0X", 2))
		t += 2;
	if (!*t || strspn(t, "0123456789abcdefABCDEF,") != strlen(t) ||
	    cpumask_parse_hex(t, &m) != 0) {
		knob_cause(cause,
			   "%s: EINVAL from %s: '%s' is not a hex CPU mask (like 3 for CPUs 0-1, "
			   "as in /proc/irq/N/smp_affinity)",
			   ref->addr, file, value);
		return -EINVAL;
	}
	if (cpumask_empty(&m)) {
		knob_cause(cause, "%s: EINVAL from %s: an empty mask leaves no CPU", ref->addr,
			   file);
		return -EINVAL;
	}
	if (sysfs_read(ctx->root, CPU_DIR "/possible", buf, sizeof(buf), NULL) == 0 &&
	    cpulist_parse(buf, &possible) == 0) {
		extra = m;
		cpumask_andnot(&extra, &possible);
		if (!cpumask_empty(&extra)) {
			char l[128];

			cpulist_format(&extra, l, sizeof(l));
			knob_cause(cause, "%s: EINVAL from %s: CPUs %s do not exist (possible: %s)",
				   ref->addr, file, l, str_trim(buf));
			return -EINVAL;
		}
		for (int c = 0; c < TT_MAX_CPUS; c++)
			if (cpumask_test(&possible, c))
				nbits = c + 1;
	} else {
		for (int c = 0; c < TT_MAX_CPUS; c++)
			if (cpumask_test(&m, c))
				nbits = c + 1;
	}
	cpumask_format_hex(&m, nbits, norm, cap);
	return 0;
}

static int hexmask_allowed(struct knob_ctx *ctx, const struct knob_ref *ref, char *buf, size_t cap)
{
	(void)ctx;
	(void)ref;
	str_copy(buf, cap, "hex CPU mask of possible CPUs, not empty");
	return 0;
}

/* EINVAL from the workqueue cpumask: no online CPU left, or (isolcpus=domain)
 * only isolated ones; EIO/EINVAL from default_smp_affinity: no online CPU. */
static bool hexmask_why(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
			int err, char *buf, size_t cap)
{
	(void)ctx;
	(void)value;
	if (err != -EINVAL)
		return false;
	if (!strcmp(ref->def->family, "workqueue"))
		snprintf(buf, cap,
			 "the mask must include an online housekeeping CPU (the kernel removes "
			 "isolcpus=domain CPUs and refuses a mask left empty)");
	else
		snprintf(buf, cap, "the mask must include an online CPU");
	return true;
}

static const struct knob_ops hexmask_ops = {file_read,
					    file_write,
					    file_restore,
					    .validate = hexmask_validate,
					    .allowed = hexmask_allowed,
					    .why = hexmask_why};

bool knob_ops_is_file(const struct knob_ops *ops)
{
	return ops->restore == file_restore;
}

const struct knob_ops *knob_file_ops(void)
{
	return &file_ops;
}

const struct knob_ops *knob_ref_ops(const struct knob_ref *ref)
{
	return ref->def && ref->def->ops ? ref->def->ops : &file_ops;
}

int knob_read(struct knob_ctx *ctx, const struct knob_ref *ref, char *buf, size_t cap)
{
	return knob_ref_ops(ref)->read(ctx, ref, buf, cap, NULL, 0, NULL);
}

bool knob_writable(struct knob_ctx *ctx, const struct knob_ref *ref)
{
	if (knob_ref_ops(ref)->writable)
		return knob_ref_ops(ref)->writable(ctx, ref);
	if (!ref->target[0])
		return false;
	if (!sysfs_writable(ctx->root, ref->target))
		return false;
	return !ref->target2[0] || sysfs_writable(ctx->root, ref->target2);
}

/* ---- allowed values and validation ---------------------------------------- */

static int freq_bounds(struct knob_ctx *ctx, const struct knob_ref *ref, char *list, size_t cap,
		       uint64_t *lo, uint64_t *hi)
{
	const struct knob_def *d = ref->def;
	char path[TT_PATH_MAX];
	char boost[1024] = "";

	list[0] = '\0';
	*lo = 0;
	*hi = 0;
	join(path, sizeof(path), ref->dir, d->allow_src);
	if (knob_read_words(ctx, path, list, cap) == 0 && list[0]) {
		char tmp[4096], *tok[512];
		size_t n;

		/* boost OPPs are valid limits too */
		join(path, sizeof(path), ref->dir, "scaling_boost_frequencies");
		if (!strcmp(d->family, "cpufreq") &&
		    knob_read_words(ctx, path, boost, sizeof(boost)) == 0 && boost[0]) {
			size_t len = strlen(list);

			snprintf(list + len, cap - len, " %s", boost);
		}
		str_copy(tmp, sizeof(tmp), list);
		n = str_split_ws(tmp, tok, 512);
		for (size_t i = 0; i < n; i++) {
			uint64_t v;

			if (str_to_u64(tok[i], &v) != 0)
				continue;
			if (!*lo || v < *lo)
				*lo = v;
			if (v > *hi)
				*hi = v;
		}
		return 0;
	}
	list[0] = '\0';
	if (d->allow_lo && d->allow_hi &&
	    sysfs_read_u64f(ctx->root, lo, "%s/%s", ref->dir, d->allow_lo) == 0 &&
	    sysfs_read_u64f(ctx->root, hi, "%s/%s", ref->dir, d->allow_hi) == 0)
		return 0;
	return -ENOENT;
}

int knob_allowed(struct knob_ctx *ctx, const struct knob_ref *ref, char *buf, size_t cap)
{
	const struct knob_def *d = ref->def;
	char path[TT_PATH_MAX];

	if (!d)
		return -EINVAL;
	if (d->ops && d->ops->allowed)
		return d->ops->allowed(ctx, ref, buf, cap);
	switch (d->allow) {
	case KA_ANY: str_copy(buf, cap, "any"); return 0;
	case KA_FIXED: str_copy(buf, cap, d->allow_src); return 0;
	case KA_WORDS_FILE: {
		int e;

		join(path, sizeof(path), ref->dir, d->allow_src);
		e = knob_read_words(ctx, path, buf, cap);
		if (!e && (d->flags & KD_NUMERIC_OK)) {
			size_t len = strlen(buf);

			snprintf(buf + len, cap - len, " %lld..%lld", (long long)d->lo,
				 (long long)d->hi);
		}
		return e;
	}
	case KA_BRACKET: {
		/* the kernel lists every mode and brackets the current one; a file
		 * without brackets (a fixture after a write) falls back to the
		 * known modes */
		char raw[512];

		if (sysfs_read(ctx->root, ref->target, raw, sizeof(raw), NULL) == 0 &&
		    !strchr(raw, '[') && d->allow_src) {
			str_copy(buf, cap, d->allow_src);
			return 0;
		}
		return knob_read_words(ctx, ref->target, buf, cap);
	}
	case KA_FREQS: {
		uint64_t lo, hi;
		int e = freq_bounds(ctx, ref, buf, cap, &lo, &hi);

		if (e)
			return e;
		if (!buf[0])
			snprintf(buf, cap, "%llu..%llu", (unsigned long long)lo,
				 (unsigned long long)hi);
		{
			size_t len = strlen(buf);

			snprintf(buf + len, cap - len, " min max%s",
				 (d->flags & KD_LOCK) ? " off" : "");
		}
		return 0;
	}
	case KA_RANGE:
		snprintf(buf, cap, "%lld..%lld%s", (long long)d->lo, (long long)d->hi,
			 (d->flags & KD_NA_OK) ? " n/a" : "");
		return 0;
	}
	return -EINVAL;
}

static void allowed_src_path(struct knob_ctx *ctx, const struct knob_ref *ref, char *abs,
			     size_t cap)
{
	char path[TT_PATH_MAX];

	if (ref->def->allow == KA_WORDS_FILE ||
	    (ref->def->allow == KA_FREQS && ref->def->allow_src)) {
		join(path, sizeof(path), ref->dir, ref->def->allow_src);
		knob_abspath(ctx, path, abs, cap);
	} else {
		knob_abspath(ctx, ref->target, abs, cap);
	}
}

int knob_validate(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value, char *norm,
		  size_t cap, char **cause)
{
	const struct knob_def *d = ref->def;
	char v[KNOB_VALUE_MAX], file[TT_PATH_MAX], allowed[4096];
	char *t;

	if (d->ops && d->ops->validate) {
		/* a family's message quotes the value: one line only (issue 32,
		   found by tests/fuzz/fuzz_knobaddr.c) */
		if (strpbrk(value, "\n\r")) {
			knob_cause(cause, "%s: EINVAL: a multi-line value", ref->addr);
			return -EINVAL;
		}
		return d->ops->validate(ctx, ref, value, norm, cap, cause);
	}
	knob_abspath(ctx, ref->target, file, sizeof(file));
	if (strlen(value) >= sizeof(v)) {
		knob_cause(cause, "%s: EINVAL from %s: value too long", ref->addr, file);
		return -EINVAL;
	}
	str_copy(v, sizeof(v), value);
	t = str_trim(v);
	if (!*t || strpbrk(t, "\n\r")) {
		knob_cause(cause, "%s: EINVAL from %s: empty or multi-line value", ref->addr, file);
		return -EINVAL;
	}
	switch (d->allow) {
	case KA_ANY: {
		char cur[256];
		int64_t iv;

		/* a tunable that holds a number takes a number */
		if (knob_read(ctx, ref, cur, sizeof(cur)) == 0 && str_to_i64(cur, &iv) == 0 &&
		    str_to_i64(t, &iv) != 0) {
			knob_cause(cause,
				   "%s: EINVAL from %s: '%s' is not a number (the file holds "
				   "%s)",
				   ref->addr, file, t, cur);
			return -EINVAL;
		}
		str_copy(norm, cap, t);
		return 0;
	}
	case KA_FIXED:
	case KA_WORDS_FILE:
	case KA_BRACKET: {
		int e = knob_allowed(ctx, ref, allowed, sizeof(allowed));
		int64_t iv;

		if (e) {
			char src[TT_PATH_MAX];

			allowed_src_path(ctx, ref, src, sizeof(src));
			knob_cause(cause, "%s: %s from %s: cannot read the allowed values",
				   ref->addr, err_name(e), src);
			return e == -ENOENT ? -ENOENT : -EINVAL;
		}
		if ((d->flags & KD_NUMERIC_OK) && str_to_i64(t, &iv) == 0) {
			if (iv < d->lo || iv > d->hi) {
				knob_cause(cause,
					   "%s: EINVAL from %s: %lld is out of range %lld..%lld",
					   ref->addr, file, (long long)iv, (long long)d->lo,
					   (long long)d->hi);
				return -EINVAL;
			}
			snprintf(norm, cap, "%lld", (long long)iv);
			return 0;
		}
		if (d->flags & KD_NUMERIC_OK) {
			char *sp = strrchr(allowed, ' '); /* drop the " lo..hi" we appended */

			if (sp)
				*sp = '\0';
		}
		if (!knob_word_in(allowed, t)) {
			char src[TT_PATH_MAX];

			allowed_src_path(ctx, ref, src, sizeof(src));
			if (d->allow == KA_FIXED)
				knob_cause(cause, "%s: EINVAL from %s: '%s' is not one of: %s",
					   ref->addr, file, t, allowed);
			else
				knob_cause(cause, "%s: EINVAL from %s: '%s' is not in %s: %s",
					   ref->addr, src, t, d->allow_what, allowed);
			return -EINVAL;
		}
		str_copy(norm, cap, t);
		return 0;
	}
	case KA_FREQS: {
		uint64_t lo, hi, fv;
		int e;

		e = freq_bounds(ctx, ref, allowed, sizeof(allowed), &lo, &hi);
		if (e) {
			char src[TT_PATH_MAX];

			allowed_src_path(ctx, ref, src, sizeof(src));
			knob_cause(cause,
				   "%s: ENOENT from %s: cannot read the available frequencies",
				   ref->addr, src);
			return -ENOENT;
		}
		if (!strcmp(t, "min")) {
			fv = lo;
		} else if (!strcmp(t, "max")) {
			fv = hi;
		} else if (!strcmp(t, "off") && (d->flags & KD_LOCK)) {
			str_copy(norm, cap, "off");
			return 0;
		} else if (str_to_u64(t, &fv) != 0) {
			knob_cause(cause,
				   "%s: EINVAL from %s: '%s' is not a frequency in %s (a "
				   "number, 'min' or 'max')",
				   ref->addr, file, t, d->unit);
			return -EINVAL;
		} else if (allowed[0]) {
			char num[32];

			snprintf(num, sizeof(num), "%llu", (unsigned long long)fv);
			if (!knob_word_in(allowed, num)) {
				char src[TT_PATH_MAX];

				allowed_src_path(ctx, ref, src, sizeof(src));
				knob_cause(cause,
					   "%s: EINVAL from %s: %s %s is not in %s: %s (or min, "
					   "max)",
					   ref->addr, src, t, d->unit, d->allow_what, allowed);
				return -EINVAL;
			}
		} else if (fv < lo || fv > hi) {
			knob_cause(cause, "%s: EINVAL from %s: %s %s is outside %llu..%llu",
				   ref->addr, file, t, d->unit, (unsigned long long)lo,
				   (unsigned long long)hi);
			return -EINVAL;
		}
		snprintf(norm, cap, "%llu", (unsigned long long)fv);
		return 0;
	}
	case KA_RANGE: {
		int64_t iv;

		if ((d->flags & KD_NA_OK) && !strcmp(t, "n/a")) {
			str_copy(norm, cap, "n/a");
			return 0;
		}
		if (str_to_i64(t, &iv) != 0) {
			knob_cause(cause, "%s: EINVAL from %s: '%s' is not a number (%s)",
				   ref->addr, file, t, d->unit[0] ? d->unit : "integer");
			return -EINVAL;
		}
		if (iv < d->lo || iv > d->hi) {
			knob_cause(cause, "%s: EINVAL from %s: %lld is out of range %lld..%lld%s",
				   ref->addr, file, (long long)iv, (long long)d->lo,
				   (long long)d->hi, (d->flags & KD_NA_OK) ? " (or n/a)" : "");
			return -EINVAL;
		}
		snprintf(norm, cap, "%lld", (long long)iv);
		return 0;
	}
	}
	return -EINVAL;
}
