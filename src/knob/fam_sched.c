/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sched knob family: sched/rt_runtime_us and sched/rt_period_us
 * (proc/sys/kernel/sched_rt_*), with the words for a refused runtime (RT
 * group scheduling, SCHED_DEADLINE bandwidth). */
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

static const struct knob_ops rt_runtime_ops = {knob_file_read, knob_file_write, knob_file_restore,
					       .why = rt_runtime_why};

/* clang-format off */
static const struct knob_def sched_defs[] = {
	{ .fam = &fam_sched, .leaf = "rt_runtime_us", .pattern = "sched/rt_runtime_us",
	  .scope = KS_GLOBAL, .dir = "proc/sys/kernel", .file = "sched_rt_runtime_us",
	  .type = KT_I64, .unit = "us", .allow = KA_RANGE, .lo = -1, .hi = 2147483647,
	  .allow_what = "range", .flags = KD_RT_RUNTIME, .needs_root = true,
	  .ops = &rt_runtime_ops,
	  .help = "RT bandwidth per period; -1 = no RT throttling (on 6.12+ the fair server "
		  "still protects CFS tasks, and lowering it can fail with EBUSY)" },
	{ .fam = &fam_sched, .leaf = "rt_period_us", .pattern = "sched/rt_period_us",
	  .scope = KS_GLOBAL, .dir = "proc/sys/kernel", .file = "sched_rt_period_us",
	  .type = KT_I64, .unit = "us", .allow = KA_RANGE, .lo = 1, .hi = 2147483647,
	  .allow_what = "range", .flags = KD_RT_PERIOD, .needs_root = true,
	  .help = "RT throttling period; runtime must stay <= period (tunetop orders the writes)" },
};
/* clang-format on */

KNOB_FAMILY(sched);

/* ---- typed addresses (knob_addr.h) ---- */

KNOB_ADDR_BUILDER(knob_addr_sched_rt_runtime_us, (void), "sched/rt_runtime_us")

KNOB_ADDR_BUILDER(knob_addr_sched_rt_period_us, (void), "sched/rt_period_us")
