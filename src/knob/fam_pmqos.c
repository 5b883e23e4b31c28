/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The pmqos knob family: pmqos/<cpus>/resume_latency_us
 * (cpuN/power/pm_qos_resume_latency_us) and pmqos/cpu_dma_latency_us, a
 * lease on /dev/cpu_dma_latency (src/knob/lease.c: held while the fd is
 * open). */
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

static const struct knob_ops lease_ops = {lease_read, lease_write, lease_restore};

/* clang-format off */
static const struct knob_def pmqos_defs[] = {
	{ .fam = &fam_pmqos, .leaf = "cpu_dma_latency_us", .pattern = "pmqos/cpu_dma_latency_us",
	  .scope = KS_GLOBAL, .dir = "dev", .file = "cpu_dma_latency", .type = KT_I64,
	  .unit = "us", .allow = KA_RANGE, .lo = 0, .hi = 2000000000, .allow_what = "range",
	  .flags = KD_LEASE, .needs_root = true, .ops = &lease_ops,
	  .observe = KO_QOS,
	  .help = "system-wide idle exit-latency limit; holds only while tunetop keeps "
		  "/dev/cpu_dma_latency open (TUI, exec, ab). 0 = no idle states but polling" },
	{ .fam = &fam_pmqos, .leaf = "resume_latency_us", .pattern = "pmqos/<cpus>/resume_latency_us",
	  .scope = KS_CPU, .file = "power/pm_qos_resume_latency_us", .type = KT_U64, .unit = "us",
	  .allow = KA_RANGE, .lo = 0, .hi = 2147483647, .allow_what = "range",
	  .flags = KD_NA_OK, .needs_root = true,
	  .observe = KO_QOS,
	  .help = "per-CPU wake-up latency limit for the idle governor: 0 = none, 'n/a' = no "
		  "idle states but polling; persists after tunetop exits" },
};
/* clang-format on */

/* ---- pmqos ---------------------------------------------------------------- */

static int pmqos_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
			struct refvec *out, char **cause)
{
	const struct knob_def *dl = knob_fam_def(&fam_pmqos, "cpu_dma_latency_us");
	const struct knob_def *rl = knob_fam_def(&fam_pmqos, "resume_latency_us");
	bool missing = false, wild;
	const char *s0 = knob_seg_or_star(seg, nseg, 0, flags, &missing);
	const char *leaf;
	struct cpumask m;
	int found = 0;

	if (missing)
		return knob_incomplete(cause, "pmqos",
				       "cpu_dma_latency_us or pmqos/<cpus>/resume_latency_us");
	if (nseg <= 1 && knob_leaf_sel(s0, dl->leaf)) {
		struct knob_ref *r = NULL;
		int rc = knob_global_def_ref(ctx, dl, s0, "no PM QoS device", out, &r, cause);

		if (rc < 0)
			return rc;
		if (r)
			str_copy(r->note, sizeof(r->note), "lease: held while the fd is open");
		if (!knob_is_glob(s0))
			return 0;
	}
	if (!strcmp(s0, dl->leaf))
		return 0;
	leaf = knob_seg_or_star(seg, nseg, 1, flags, &missing);
	if (missing)
		return knob_incomplete(cause, "pmqos", "<cpus>/resume_latency_us");
	if (nseg > 2)
		return knob_too_long(cause, "pmqos", seg, nseg);
	if (!knob_leaf_sel(leaf, rl->leaf)) {
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

		snprintf(dir, sizeof(dir), KNOB_CPU_DIR "/cpu%d", c);
		knob_join(path, sizeof(path), dir, rl->file);
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
			e = knob_why_missing(ctx, path);
			knob_abspath(ctx, path, abs, sizeof(abs));
			knob_cause(cause, "pmqos/cpu%d/resume_latency_us: %s from %s", c,
				   err_name(e), abs);
			return e;
		}
		snprintf(addr, sizeof(addr), "pmqos/cpu%d/resume_latency_us", c);
		snprintf(obj, sizeof(obj), "cpu%d", c);
		r = knob_add_ref(out, rl, addr, obj, dir);
		r->cpu = c;
		found++;
	}
	(void)found;
	return 0;
}
KNOB_FAMILY(pmqos, .expand = pmqos_expand, .flags = KF_CPU_FIRST);

/* ---- typed addresses (knob_addr.h) ---- */

KNOB_ADDR_BUILDER(knob_addr_pmqos_cpu_dma_latency_us, (void), "pmqos/cpu_dma_latency_us")

KNOB_ADDR_BUILDER(knob_addr_pmqos_resume_latency_us, (int cpu), "pmqos/cpu%d/resume_latency_us",
		  cpu)
