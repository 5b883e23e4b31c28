/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cpufreq knob family: cpufreq/<policy>/{governor, min_khz, max_khz,
 * lock_khz, energy_performance_preference} and the governor tunables
 * cpufreq/<policy>/<governor>/<tunable>: the scaling_* files of
 * sys/devices/system/cpu/cpufreq/policyN (<policy> is policyN, cpuN, a CPU
 * list or a glob). Everything about the family is here: its definitions, its
 * expander, the EPP errno words, and what the effect check reads. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"
#include "knob/knob_int.h"

#define CPUFREQ_DIR KNOB_CPU_DIR "/cpufreq"

/* EBUSY from energy_performance_preference (intel_pstate, amd-pstate). */
static const struct knob_refusal epp_refusals[] = {
	{EBUSY, "the performance governor allows only EPP 'performance'"},
	{0, NULL},
};

/* A policy's frequencies: the listed ones, the boost ones, or any within
 * cpuinfo_min_freq..cpuinfo_max_freq when none are listed. */
#define CPUFREQ_FREQS(flag)                                                                        \
	KNOB_FREQ_FIELDS("kHz", "scaling_available_frequencies", flag),                            \
		.allow_extra = "scaling_boost_frequencies", .allow_lo = "cpuinfo_min_freq",        \
		.allow_hi = "cpuinfo_max_freq"

/* clang-format off */
static const struct knob_def cpufreq_defs[] = {
	{ .fam = &fam_cpufreq, .leaf = "governor", .pattern = "cpufreq/<policy>/governor",
	  .scope = KS_POLICY, .file = "scaling_governor",
	  KNOB_GOVERNOR_FIELDS("scaling_available_governors"),
	  .help = "cpufreq governor of a policy: 'performance' pins the top OPP and removes "
		  "ramp-up delay from the latency path" },
	{ .fam = &fam_cpufreq, .leaf = "min_khz", .pattern = "cpufreq/<policy>/min_khz",
	  .scope = KS_POLICY, .file = "scaling_min_freq", CPUFREQ_FREQS(KD_MIN),
	  .observe = KO_FREQ_BOUND,
	  .help = "lowest frequency the governor may pick (kHz; 'min' and 'max' accepted); a "
		  "floor keeps wake-ups from starting at the slowest OPP" },
	{ .fam = &fam_cpufreq, .leaf = "max_khz", .pattern = "cpufreq/<policy>/max_khz",
	  .scope = KS_POLICY, .file = "scaling_max_freq", CPUFREQ_FREQS(KD_MAX),
	  .observe = KO_FREQ_BOUND,
	  .help = "highest frequency the governor may pick (kHz); a cap trades speed for heat "
		  "and steadier timing" },
	{ .fam = &fam_cpufreq, .leaf = "lock_khz", .pattern = "cpufreq/<policy>/lock_khz",
	  .scope = KS_POLICY, .file = "scaling_min_freq", .file2 = "scaling_max_freq",
	  CPUFREQ_FREQS(KD_LOCK),
	  .help = "min = max = value, written in the safe order; reads 'off' when min != max. "
		  "A fixed clock removes DVFS transitions as a jitter source" },
	{ .fam = &fam_cpufreq, .leaf = "energy_performance_preference",
	  .pattern = "cpufreq/<policy>/energy_performance_preference", .scope = KS_POLICY,
	  .file = "energy_performance_preference", .type = KT_ENUM, .unit = "",
	  .allow = KA_WORDS_FILE, .allow_src = "energy_performance_available_preferences",
	  .allow_what = "energy performance preferences", .lo = 0, .hi = 255,
	  .flags = KD_NUMERIC_OK, .needs_root = true, .refusals = epp_refusals,
	  .help = "HWP energy/performance hint (intel_pstate, amd-pstate); with the performance "
		  "governor anything but 'performance' is refused (EBUSY)" },
	{ .fam = &fam_cpufreq, .leaf = "*", .pattern = "cpufreq/<policy>/<governor>/<tunable>",
	  .scope = KS_POLICY, .type = KT_STRING, .unit = "", .allow = KA_ANY,
	  .flags = KD_TUNABLE, .needs_root = true,
	  .help = "governor tunable (e.g. schedutil/rate_limit_us); the directory exists only "
		  "while that governor is active" },
};
/* clang-format on */

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

/* The directory of governor gov's tunables for the policy in pdir: pdir/gov
 * (a driver with per-policy governors), or, when that is missing and gov is
 * the policy's governor, the one shared by all policies, cpufreq/gov (a
 * driver without, e.g. cpufreq-dt on the Raspberry Pi 4 and STM32MP157:
 * cpufreq/ondemand). Returns true for the policy's own directory; the path
 * goes to dir either way (pdir/gov when neither exists). */
static bool gov_dir(struct knob_ctx *ctx, const char *pdir, const char *gov, char *dir, size_t cap)
{
	char cur[64] = "", shared[TT_PATH_MAX];

	knob_join(dir, cap, pdir, gov);
	if (sysfs_is_dir(ctx->root, dir))
		return true;
	knob_join(shared, sizeof(shared), CPUFREQ_DIR, gov);
	if (sysfs_read_strf(ctx->root, cur, sizeof(cur), "%s/scaling_governor", pdir) == 0 &&
	    !strcmp(cur, gov) && sysfs_is_dir(ctx->root, shared)) {
		str_copy(dir, cap, shared);
		return false;
	}
	return true;
}

static bool target_listed(const struct refvec *out, const char *file)
{
	for (size_t i = 0; i < out->n; i++)
		if (!strcmp(out->v[i].target, file))
			return true;
	return false;
}

static int cpufreq_add_tunables(struct knob_ctx *ctx, const char *policy, const char *pdir,
				const char *gov, const char *tsel, bool explicit_tunable,
				struct refvec *out, char **cause)
{
	const struct knob_def *d = knob_fam_def(&fam_cpufreq, "*");
	char gdir[TT_PATH_MAX];
	struct sysfs_list l;
	int found = 0;

	bool shared = !gov_dir(ctx, pdir, gov, gdir, sizeof(gdir));

	if (sysfs_list(ctx->root, gdir, &l) != 0)
		return 0;
	for (size_t i = 0; i < l.n; i++) {
		char addr[KNOB_ADDR_MAX], file[TT_PATH_MAX];
		struct knob_ref *r;

		if (!knob_glob_match(tsel, l.names[i]))
			continue;
		knob_join(file, sizeof(file), gdir, l.names[i]);
		if (sysfs_is_dir(ctx->root, file))
			continue;
		found++;
		if (shared && target_listed(out, file))
			continue; /* one file for every policy: the first policy's address */
		snprintf(addr, sizeof(addr), "cpufreq/%s/%s/%s", policy, gov, l.names[i]);
		r = knob_add_ref(out, d, addr, policy, pdir);
		str_copy(r->target, sizeof(r->target), file);
		snprintf(r->note, sizeof(r->note),
			 shared ? "%s tunable, all policies" : "%s tunable", gov);
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
	const char *leaf = knob_seg_or_star(seg, nseg, 1, flags, &missing);

	if (missing)
		return knob_incomplete(cause, "cpufreq", "<policy>/<knob>");
	knob_join(pdir, sizeof(pdir), CPUFREQ_DIR, policy);
	if (knob_is_glob(leaf)) {
		struct sysfs_list l;

		for (size_t i = 0; i < sizeof(cpufreq_leaves) / sizeof(cpufreq_leaves[0]); i++) {
			const struct knob_def *d = knob_fam_def(&fam_cpufreq, cpufreq_leaves[i]);

			if (!knob_glob_match(leaf, d->leaf))
				continue;
			knob_join(path, sizeof(path), pdir, d->file);
			if (!sysfs_exists(ctx->root, path))
				continue;
			snprintf(addr, sizeof(addr), "cpufreq/%s/%s", policy, d->leaf);
			policy_note(ctx, knob_add_ref(out, d, addr, policy, pdir));
		}
		if (nseg > 2)
			return knob_too_long(cause, "cpufreq", seg, nseg);
		/* governor tunables: every sub-directory but stats */
		if ((flags & KNOB_EXPAND_PREFIX) && sysfs_list(ctx->root, pdir, &l) == 0) {
			for (size_t i = 0; i < l.n; i++) {
				knob_join(path, sizeof(path), pdir, l.names[i]);
				if (strcmp(l.names[i], "stats") &&
				    knob_glob_match(leaf, l.names[i]) &&
				    sysfs_is_dir(ctx->root, path))
					cpufreq_add_tunables(ctx, policy, pdir, l.names[i], "*",
							     false, out, cause);
			}
			sysfs_list_free(&l);
		}
		if (flags & KNOB_EXPAND_PREFIX) { /* tunables shared by all policies */
			char gov[64] = "";

			if (sysfs_read_strf(ctx->root, gov, sizeof(gov), "%s/scaling_governor",
					    pdir) == 0 &&
			    knob_glob_match(leaf, gov) &&
			    !gov_dir(ctx, pdir, gov, path, sizeof(path)))
				cpufreq_add_tunables(ctx, policy, pdir, gov, "*", false, out,
						     cause);
		}
		return 0;
	}
	for (size_t i = 0; i < sizeof(cpufreq_leaves) / sizeof(cpufreq_leaves[0]); i++) {
		const struct knob_def *d = knob_fam_def(&fam_cpufreq, cpufreq_leaves[i]);

		if (!knob_leaf_sel(leaf, d->leaf))
			continue;
		if (nseg > 2)
			return knob_too_long(cause, "cpufreq", seg, nseg);
		knob_join(path, sizeof(path), pdir, d->file);
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
		policy_note(ctx, knob_add_ref(out, d, addr, policy, pdir));
		return 0;
	}
	/* <governor>/<tunable> */
	gov_dir(ctx, pdir, leaf, path, sizeof(path));
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
		return knob_too_long(cause, "cpufreq", seg, nseg);
	{
		const char *tsel = knob_seg_or_star(seg, nseg, 2, flags, &missing);

		if (missing)
			return knob_incomplete(cause, "cpufreq", "<policy>/<governor>/<tunable>");
		return cpufreq_add_tunables(ctx, policy, pdir, leaf, tsel,
					    !knob_is_glob(tsel) && !wild_policy, out, cause);
	}
}

static int cpufreq_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
			  struct refvec *out, char **cause)
{
	struct sysfs_list l;
	bool missing = false;
	const char *psel = knob_seg_or_star(seg, nseg, 0, flags, &missing);
	int e;

	if (missing)
		return knob_incomplete(cause, "cpufreq", "<policy>/<knob>");
	if ((e = knob_list_prefixed(ctx, CPUFREQ_DIR, "policy", &l)) != 0 || l.n == 0) {
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

			knob_names_joined(&l, names, sizeof(names));
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
			if (cpumask_test(&done, knob_num_suffix(l.names[i])))
				continue;
			cpumask_set(&done, knob_num_suffix(l.names[i]));
			e = cpufreq_policy_expand(ctx, l.names[i], seg, nseg, flags, wild, out,
						  cause);
		}
	}
	sysfs_list_free(&l);
	return e;
}
KNOB_FAMILY(cpufreq, .expand = cpufreq_expand,
	    .cur_freq = {"scaling_cur_freq", "cpuinfo_cur_freq"});

/* ---- typed addresses (knob_addr.h) ---- */

KNOB_ADDR_BUILDER(knob_addr_cpufreq_governor, (const char *policy), "cpufreq/%s/governor", policy)

KNOB_ADDR_BUILDER(knob_addr_cpufreq_min_khz, (const char *policy), "cpufreq/%s/min_khz", policy)

KNOB_ADDR_BUILDER(knob_addr_cpufreq_epp, (const char *policy),
		  "cpufreq/%s/energy_performance_preference", policy)

KNOB_ADDR_BUILDER(knob_addr_cpufreq, (const char *policy), "cpufreq/%s", policy)

KNOB_ADDR_BUILDER(knob_addr_cpufreq_max_khz, (const char *policy), "cpufreq/%s/max_khz", policy)

KNOB_ADDR_BUILDER(knob_addr_cpufreq_lock_khz, (const char *policy), "cpufreq/%s/lock_khz", policy)

KNOB_ADDR_BUILDER(knob_addr_cpufreq_tunables, (const char *policy, const char *governor),
		  "cpufreq/%s/%s/*", policy, governor)
KNOB_ADDR_BUILDER(knob_addr_cpufreq_tunable,
		  (const char *policy, const char *governor, const char *tunable),
		  "cpufreq/%s/%s/%s", policy, governor, tunable)
