/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sim knob family: sim/<switch>, the SIMULATED switches of a world
 * (issue 35, doc/teach.md "Worlds"): what changes the latency in a world
 * but is no knob of a running board (the M4 firmware's build of
 * stm32mp1-rpmsg; a reboot with another command line, another kernel, a
 * process stopped). The world declares them (model/world_wm.h) and writes
 * them at unpack into KNOB_SIM_SWITCHES at the top of its tree, one line
 * each: NAME <tab> FILE <tab> ALLOWED <tab> HELP (NAME "m4/vring_polling",
 * FILE relative to the tree or "@KIND" of sim_kind.h, ALLOWED "0 1" words,
 * "lo..hi", or for @cmdline a description). The family exists only on a
 * root that has that file: on a real machine or a plain fixture it lists
 * nothing and refuses an address with "only in a simulated world". A
 * switch of one file is written, journaled and undone by the engine like
 * any other knob; a switch of several files (sim_kind.c) is one knob too,
 * journaled once with every file's bytes. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/str.h"
#include "knob/knob_addr.h"
#include "knob/knob_int.h"
#include "knob/sim_kind.h"

static int sim_validate(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
			char *norm, size_t cap, char **cause);
static int sim_allowed(struct knob_ctx *ctx, const struct knob_ref *ref, char *buf, size_t cap);
static int sim_read(struct knob_ctx *ctx, const struct knob_ref *ref, char *value, size_t cap,
		    char *raw, size_t rawcap, size_t *rawlen);
static int sim_write(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value);
static int sim_restore(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
		       const char *raw, size_t rawlen);

static const struct knob_ops sim_ops = {sim_read, sim_write, sim_restore, .validate = sim_validate,
					.allowed = sim_allowed};

/* clang-format off */
static const struct knob_def sim_defs[] = {
	{ .fam = &fam_sim, .leaf = "*", .pattern = "sim/<switch>",
	  .scope = KS_GLOBAL, .type = KT_STRING, .unit = "", .allow = KA_ANY,
	  .allow_what = "the values the world declares", .ops = &sim_ops,
	  .help = "a SIMULATED switch of a world (only in a simulated world: what is no "
		  "knob of a running board, like the M4 firmware's build or a reboot with "
		  "another command line)" },
};
/* clang-format on */

/* One switch of the manifest. */
struct sim_switch {
	char name[KNOB_ADDR_MAX];
	char file[TT_PATH_MAX];
	char allowed[128];
	char help[256];
	enum sim_kind kind; /* SIM_FILE, or a switch of several files */
	char arg[64];	    /* the kind's argument (@state:PIDS) */
};

/* Parse one manifest line; false when it is not a switch. */
static bool sim_parse(char *line, struct sim_switch *s)
{
	char *f[4] = {0};
	size_t n = 0;

	for (char *p = line; n < 4; n++) {
		f[n] = p;
		p = n < 3 ? strchr(p, '\t') : NULL;
		if (!p) {
			n++;
			break;
		}
		*p++ = '\0';
	}
	if (n < 3 || !*f[0] || !*f[1] || f[1][0] == '/' || strstr(f[1], "..") ||
	    sim_kind_parse(f[1], &s->kind, s->arg, sizeof(s->arg)) != 0)
		return false;
	str_copy(s->name, sizeof(s->name), f[0]);
	str_copy(s->file, sizeof(s->file), f[1]);
	str_copy(s->allowed, sizeof(s->allowed), str_trim(f[2]));
	str_copy(s->help, sizeof(s->help), n > 3 ? f[3] : "");
	return true;
}

/* The switches of the root (*n of them into v, at most cap); -ENOENT when
 * the root holds no world's switches. */
static int sim_switches(struct knob_ctx *ctx, struct sim_switch *v, size_t cap, size_t *n)
{
	char buf[8192];
	char *save = NULL;

	*n = 0;
	if (sysfs_read(ctx->root, KNOB_SIM_SWITCHES, buf, sizeof(buf), NULL) != 0)
		return -ENOENT;
	for (char *l = strtok_r(buf, "\n", &save); l && *n < cap; l = strtok_r(NULL, "\n", &save))
		if (l[0] != '#' && sim_parse(l, &v[*n]))
			(*n)++;
	return 0;
}

static int sim_find(struct knob_ctx *ctx, const struct knob_ref *ref, struct sim_switch *out)
{
	struct sim_switch v[32];
	size_t n;

	if (sim_switches(ctx, v, 32, &n) != 0)
		return -ENOENT;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, ref->obj)) {
			*out = v[i];
			return 0;
		}
	return -ENOENT;
}

static int sim_allowed(struct knob_ctx *ctx, const struct knob_ref *ref, char *buf, size_t cap)
{
	struct sim_switch s;

	if (sim_find(ctx, ref, &s) != 0)
		return -ENOENT;
	snprintf(buf, cap, "%s", s.allowed);
	return 0;
}

static int sim_validate(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
			char *norm, size_t cap, char **cause)
{
	struct sim_switch s;
	char v[KNOB_VALUE_MAX];
	const char *dots;
	char *t;

	if (sim_find(ctx, ref, &s) != 0) {
		knob_cause(cause, "%s: ENOENT: no such SIMULATED switch in this world", ref->addr);
		return -ENOENT;
	}
	if (s.kind == SIM_CMDLINE)
		return sim_kind_cmdline_check(ref->addr, value, norm, cap, cause);
	str_copy(v, sizeof(v), value);
	t = str_trim(v);
	dots = strstr(s.allowed, "..");
	if (dots) {
		char *end;
		long long lo = strtoll(s.allowed, NULL, 10), hi = strtoll(dots + 2, NULL, 10), x;

		errno = 0;
		x = strtoll(t, &end, 10);
		if (!*t || *end || errno || x < lo || x > hi) {
			knob_cause(cause, "%s: ERANGE: '%s' is not a whole number in %s", ref->addr,
				   t, s.allowed);
			return -ERANGE;
		}
		snprintf(norm, cap, "%lld", x);
		return 0;
	}
	if (!*t || strchr(t, ' ') || !knob_word_in(s.allowed, t)) {
		knob_cause(cause, "%s: EINVAL: '%s' is not one of: %s", ref->addr, t, s.allowed);
		return -EINVAL;
	}
	snprintf(norm, cap, "%s", t);
	return 0;
}

/* The ops: a switch of one file is the file's (knob_file.c), a switch of
 * several files sim_kind.c's. */
static int sim_read(struct knob_ctx *ctx, const struct knob_ref *ref, char *value, size_t cap,
		    char *raw, size_t rawcap, size_t *rawlen)
{
	struct sim_switch s;

	if (sim_find(ctx, ref, &s) != 0)
		return -ENOENT;
	if (s.kind == SIM_FILE)
		return knob_file_read(ctx, ref, value, cap, raw, rawcap, rawlen);
	return sim_kind_read(ctx, s.kind, s.arg, value, cap, raw, rawcap, rawlen);
}

static int sim_write(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value)
{
	struct sim_switch s;

	if (sim_find(ctx, ref, &s) != 0)
		return -ENOENT;
	if (s.kind == SIM_FILE)
		return knob_file_write(ctx, ref, value);
	return sim_kind_write(ctx, s.kind, s.arg, value);
}

static int sim_restore(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
		       const char *raw, size_t rawlen)
{
	struct sim_switch s;

	if (sim_find(ctx, ref, &s) != 0)
		return -ENOENT;
	if (s.kind != SIM_FILE)
		return sim_kind_restore(ctx, s.kind, s.arg, value, raw, rawlen);
	/* a writer killed before its rename left a temporary file */
	sysfs_write_cleanup(ctx->root, ref->target);
	return knob_file_restore(ctx, ref, value, raw, rawlen);
}

/* seg: the switch's name, split at '/' ("m4", "vring_polling"); each
 * segment may be a glob. */
static bool sim_match(char **seg, size_t nseg, const char *name, unsigned flags)
{
	char copy[KNOB_ADDR_MAX], *save = NULL, *p;
	size_t i = 0;

	str_copy(copy, sizeof(copy), name);
	for (p = strtok_r(copy, "/", &save); p; p = strtok_r(NULL, "/", &save), i++) {
		if (i >= nseg)
			return (flags & KNOB_EXPAND_PREFIX) != 0;
		if (!knob_glob_match(seg[i], p))
			return false;
	}
	return i == nseg;
}

static int sim_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
		      struct refvec *out, char **cause)
{
	struct sim_switch v[32];
	size_t n, matched = 0;
	char names[1024] = "";

	if (sim_switches(ctx, v, 32, &n) != 0 || n == 0) {
		if (flags & (KNOB_EXPAND_EMPTY_OK | KNOB_EXPAND_PREFIX))
			return 0;
		knob_cause(cause, "sim: only in a simulated world (tunetop world NAME DIR; this "
				  "root has no SIMULATED switches)");
		return -ENOENT;
	}
	if (nseg == 0 && !(flags & KNOB_EXPAND_PREFIX))
		return knob_incomplete(cause, "sim", "<switch>");
	for (size_t i = 0; i < n; i++) {
		char addr[KNOB_ADDR_MAX];
		struct knob_ref *r;

		if (!sim_match(seg, nseg, v[i].name, flags)) {
			size_t l = strlen(names);

			snprintf(names + l, sizeof(names) - l, "%s%s", l ? " " : "", v[i].name);
			continue;
		}
		matched++;
		snprintf(addr, sizeof(addr), "sim/%s", v[i].name);
		r = knob_add_ref(out, &sim_defs[0], addr, v[i].name, "");
		if (v[i].kind == SIM_FILE)
			str_copy(r->target, sizeof(r->target), v[i].file);
		else
			sim_kind_primary(v[i].kind, v[i].arg, r->target, sizeof(r->target));
		snprintf(r->note, sizeof(r->note), "SIMULATED: %s", v[i].help);
	}
	if (!matched && !(flags & KNOB_EXPAND_EMPTY_OK)) {
		bool glob = false;

		for (size_t i = 0; i < nseg; i++)
			glob = glob || knob_is_glob(seg[i]);
		if (!glob) {
			char want[KNOB_ADDR_MAX] = "";

			for (size_t i = 0; i < nseg; i++) {
				size_t l = strlen(want);

				snprintf(want + l, sizeof(want) - l, "%s%s", i ? "/" : "", seg[i]);
			}
			knob_cause(cause,
				   "sim/%s: no such SIMULATED switch in this world (switches: %s)",
				   want, names);
			return -ENOENT;
		}
	}
	return 0;
}
KNOB_FAMILY(sim, .expand = sim_expand);

bool knob_ref_simulated(const struct knob_ref *ref)
{
	return ref->def && ref->def->fam == &fam_sim;
}

KNOB_ADDR_BUILDER(knob_addr_sim, (const char *name), "sim/%s", name)
