/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cpuidle knob family: cpuidle/<cpus>/<state>/disable (the disable file
 * of sys/devices/system/cpu/cpuN/cpuidle/stateK; <state> is a name, stateK,
 * a glob or a filter) and cpuidle/governor (current_governor). */
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

/* clang-format off */
static const struct knob_def cpuidle_defs[] = {
	{ .fam = &fam_cpuidle, .leaf = "disable", .pattern = "cpuidle/<cpus>/<state>/disable",
	  .scope = KS_IDLE_STATE, .file = "disable", .type = KT_BOOL, .unit = "",
	  .allow = KA_FIXED, .allow_src = "0 1", .allow_what = "values", .needs_root = true,
	  .observe = KO_IDLE_STATE,
	  .help = "1 keeps this CPU out of the idle state; deep states cost their exit latency "
		  "on every wake-up. Per CPU: write all CPUs for a global effect" },
	{ .fam = &fam_cpuidle, .leaf = "governor", .pattern = "cpuidle/governor",
	  .scope = KS_GLOBAL, .dir = KNOB_CPU_DIR "/cpuidle", .file = "current_governor",
	  .type = KT_ENUM, .unit = "", .allow = KA_WORDS_FILE, .allow_src = "available_governors",
	  .allow_what = "available cpuidle governors", .needs_root = true,
	  .observe = KO_IDLE_GOV,
	  .help = "cpuidle governor (menu, teo, ladder, haltpoll): which idle state the CPU "
		  "picks. haltpoll ignores per-state disable; menu and teo honour it" },
};
/* clang-format on */

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
	snprintf(dir, sizeof(dir), KNOB_CPU_DIR "/cpu%d/cpuidle", cpu);
	e = knob_list_prefixed(ctx, dir, "state", &l);
	if (e)
		return e == -ENOTDIR ? -ENOENT : e; /* EACCES: unreadable, not missing */
	*st = xcalloc(l.n ? l.n : 1, sizeof(**st));
	for (size_t i = 0; i < l.n; i++) {
		struct idle_state *s = &(*st)[i];
		int64_t v;

		s->index = knob_num_suffix(l.names[i]);
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
			    (str_starts(sel + 1, "state") &&
			     all[i].index == knob_num_suffix(sel + 1)))
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

/* cpuidle/governor named (sel no glob) where only current_governor_ro is:
 * this kernel cannot switch governors, -EROFS with *cause; else 0. */
static int governor_ro(struct knob_ctx *ctx, const struct knob_def *g, const char *sel,
		       char **cause)
{
	char path[TT_PATH_MAX], abs[TT_PATH_MAX];

	knob_join(path, sizeof(path), g->dir, g->file);
	if (knob_is_glob(sel) || sysfs_exists(ctx->root, path))
		return 0;
	knob_join(path, sizeof(path), g->dir, "current_governor_ro");
	if (!sysfs_exists(ctx->root, path))
		return 0;
	knob_abspath(ctx, path, abs, sizeof(abs));
	knob_cause(cause,
		   "cpuidle/governor: only %s: this kernel cannot switch cpuidle governors "
		   "(read-only)",
		   abs);
	return -EROFS;
}

static int cpuidle_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
			  struct refvec *out, char **cause)
{
	bool missing = false, wild_cpu;
	const char *csel = knob_seg_or_star(seg, nseg, 0, flags, &missing);
	const char *ssel = knob_seg_or_star(seg, nseg, 1, flags, &missing);
	const char *leaf = knob_seg_or_star(seg, nseg, 2, flags, &missing);
	const struct knob_def *d = knob_fam_def(&fam_cpuidle, "disable");
	const struct knob_def *g = knob_fam_def(&fam_cpuidle, "governor");
	struct cpumask m;
	int any_dir = 0;

	/* cpuidle/governor: one file for the whole system */
	if (nseg <= 1 && knob_leaf_sel(csel, g->leaf)) {
		int rc = governor_ro(ctx, g, csel, cause);

		if (rc == 0)
			rc = knob_global_def_ref(ctx, g, csel, "no cpuidle", out, NULL, cause);
		if (rc < 0 || !knob_is_glob(csel))
			return rc;
	}
	if (missing)
		return knob_incomplete(cause, "cpuidle",
				       "governor or cpuidle/<cpus>/<state>/disable");
	if (nseg > 3)
		return knob_too_long(cause, "cpuidle", seg, nseg);
	if (!knob_leaf_sel(leaf, d->leaf)) {
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

				snprintf(dir, sizeof(dir), KNOB_CPU_DIR "/cpu%d/cpuidle", c);
				knob_abspath(ctx, dir, abs, sizeof(abs));
				knob_cause(cause,
					   "cpuidle/cpu%d: %s from %s: cannot list its idle states",
					   c, err_name(e), abs);
				return e;
			}
			sysfs_read_str(ctx->root, KNOB_CPU_DIR "/cpuidle/current_driver", drv,
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
					knob_num_suffix(ssel) == st[i].index);
			if (!keep)
				continue;
			matched++;
			snprintf(addr, sizeof(addr), "cpuidle/cpu%d/state%d/disable", c,
				 st[i].index);
			snprintf(obj, sizeof(obj), "cpu%d/state%d", c, st[i].index);
			snprintf(dir, sizeof(dir), KNOB_CPU_DIR "/cpu%d/cpuidle/state%d", c,
				 st[i].index);
			r = knob_add_ref(out, d, addr, obj, dir);
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

		sysfs_read_str(ctx->root, KNOB_CPU_DIR "/cpuidle/current_driver", drv, sizeof(drv));
		knob_cause(cause, "cpuidle: no idle states on this root (cpuidle driver: %s)",
			   drv[0] ? drv : "none");
		return -ENOENT;
	}
	return 0;
}
KNOB_FAMILY(cpuidle, .expand = cpuidle_expand, .flags = KF_CPU_FIRST);

/* ---- typed addresses (knob_addr.h) ---- */

KNOB_ADDR_BUILDER(knob_addr_cpuidle_disable, (const char *cpus, const char *state),
		  "cpuidle/%s/%s/disable", cpus, state)

KNOB_ADDR_BUILDER(knob_addr_cpuidle_disable_n, (int cpu, int state),
		  "cpuidle/cpu%d/state%d/disable", cpu, state)

KNOB_ADDR_BUILDER(knob_addr_cpuidle_governor, (void), "cpuidle/governor")

KNOB_ADDR_BUILDER(knob_addr_cpuidle_disable_sel, (const char *cpus, int state),
		  "cpuidle/%s/state%d/disable", cpus, state)

int knob_addr_cpuidle_disable_of(const char *addr, int *cpu, int *state)
{
	char rest[16];

	return sscanf(addr, "cpuidle/cpu%d/state%d/%15s", cpu, state, rest) == 3 &&
			       !strcmp(rest, "disable")
		       ? 0
		       : -EINVAL;
}
