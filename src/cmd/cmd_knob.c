/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Knob commands: knobs, get, set, apply, undo, restore, journal. Each parses
 * its options, calls the engine (knob.h) and prints: results to stdout,
 * errors one line each to stderr; exit codes per design §3. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "cmd/cmd.h"
#include "core/schema.h"
#include "core/json.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/hold.h"
#include "knob/knob.h"
#include "probe/whycap.h"
#include "cmd/common.h"

/* An option getopt_long gave back that the command does not handle itself:
 * -h prints the help (exit 0), anything else is a usage error (exit 2). */
static int opt_other(const char *cmd, int c)
{
	return c == 'h' ? cmd_print_help(cmd, stdout) : cmd_usage(cmd);
}

/* What a command that changes knobs holds from open to finish (the root
 * and the engine are the runner's: cmd_setup). */
struct change_run {
	struct sysroot *root;
	struct knob_ctx *ctx;
	struct sbuf rep;
	char *cause;
};

static int run_open(struct cmd_ctx *cx, unsigned flags, struct change_run *r)
{
	r->cause = NULL;
	if (cmd_setup(cx, flags))
		return -1;
	r->root = &cx->root;
	r->ctx = cx->knob;
	sbuf_init(&r->rep);
	return 0;
}

/* Frees what run_open made (the runner closes the engine and the root). */
static void run_close(struct change_run *r)
{
	free(r->cause);
	sbuf_free(&r->rep);
}

/* Prints the report and, when e failed, the cause; closes the run and
 * returns the command's exit code for e. */
static int run_finish(const char *cmd, struct change_run *r, int e)
{
	knob_print_report(&r->rep);
	if (e)
		knob_print_cause(cmd, r->cause);
	run_close(r);
	return knob_exit_code(e);
}

/* ---- knobs / get ----------------------------------------------------------- */

static int expand_patterns(struct knob_ctx *ctx, const char *cmd, char **pats, int npat,
			   unsigned flags, struct knob_ref **refs, size_t *n)
{
	int rc = 0;

	*refs = NULL;
	*n = 0;
	if (npat == 0)
		return knob_expand(ctx, "*", flags | KNOB_EXPAND_PREFIX, refs, n, NULL) ? 1 : 0;
	for (int i = 0; i < npat; i++) {
		char *cause = NULL;
		int e = knob_expand(ctx, pats[i], flags, refs, n, &cause);

		if (e) {
			knob_print_cause(cmd, cause);
			rc = knob_exit_code(e);
		}
		free(cause);
	}
	return rc;
}

static const char *rw_text(struct knob_ctx *ctx, const struct knob_ref *r)
{
	bool w = knob_writable(ctx, r);

	if (strstr(r->addr, "cpu_dma_latency"))
		return w ? "lease" : "root";
	if (w)
		return "rw";
	return geteuid() ? "root" : "ro";
}

int cmd_knobs(struct cmd_ctx *cx, int argc, char **argv)
{
	bool json = false, lng = false;
	struct sysroot *root = &cx->root;
	struct knob_ctx *ctx;
	struct knob_ref *refs;
	size_t n;
	int c, rc;

	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'l': lng = true; break;
		default: return opt_other("knobs", c);
		}
	}
	/* the journal (read-only) gives each changed knob's effect */
	if (cmd_setup(cx, json ? KNOB_READONLY_OK | KNOB_NO_CREATE : KNOB_NO_JOURNAL))
		return 1;
	ctx = cx->knob;
	rc = expand_patterns(ctx, "knobs", argv + optind, argc - optind, KNOB_EXPAND_PREFIX, &refs,
			     &n);
	if (json) {
		struct sbuf b;
		struct jw w;
		struct knob_jentry *je = NULL;
		size_t nje = 0;

		if (knob_ctx_state_dir(ctx) && knob_journal_list(ctx, &je, &nje, NULL, NULL) != 0)
			nje = 0;

		cmd_json_begin(&w, &b, true);
		jw_str(&w, "schema", TT_SCHEMA_KNOBS);
		jw_str(&w, "root", root->path);
		jw_arr_begin(&w, "knobs");
		for (size_t i = 0; i < n; i++) {
			char val[KNOB_VALUE_MAX], allowed[4096], path[TT_PATH_MAX];

			jw_obj_begin(&w, NULL);
			jw_str(&w, "address", refs[i].addr);
			jw_str(&w, "value",
			       knob_read(ctx, &refs[i], val, sizeof(val)) == 0 ? val : NULL);
			jw_str(&w, "unit", knob_ref_unit(&refs[i]));
			jw_str(&w, "allowed",
			       knob_allowed(ctx, &refs[i], allowed, sizeof(allowed)) == 0 ? allowed
											  : NULL);
			jw_bool(&w, "writable", knob_writable(ctx, &refs[i]));
			knob_ref_path(ctx, &refs[i], path, sizeof(path));
			jw_str(&w, "file", path);
			jw_str(&w, "note", refs[i].note[0] ? refs[i].note : NULL);
			jw_str(&w, "help", knob_ref_help(&refs[i]));
			{ /* the effect of tunetop's active change of it, if watched */
				const struct knob_jentry *act = NULL;

				for (size_t k = nje; k-- > 0 && !act;)
					if (je[k].state == KNOB_J_ACTIVE && je[k].this_root &&
					    je[k].addr && !strcmp(je[k].addr, refs[i].addr))
						act = &je[k];
				jw_str(&w, "effect",
				       act && act->effect_evidence ? knob_effect_name(act->effect)
								   : NULL);
				jw_str(&w, "effect_evidence", act ? act->effect_evidence : NULL);
			}
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		cmd_json_put(&w, &b, stdout);
		knob_journal_free(je, nje);
	} else {
		size_t wa = 7, wv = 5;

		for (size_t i = 0; i < n; i++) {
			char val[KNOB_VALUE_MAX];

			if (strlen(refs[i].addr) > wa)
				wa = strlen(refs[i].addr);
			if (knob_read(ctx, &refs[i], val, sizeof(val)) == 0 && strlen(val) > wv)
				wv = strlen(val);
		}
		if (wv > 24)
			wv = 24;
		if (n)
			printf("%-*s  %-*s  %-4s  %-5s  %s\n", (int)wa, "ADDRESS", (int)wv, "VALUE",
			       "UNIT", "WRITE", "ALLOWED");
		for (size_t i = 0; i < n; i++) {
			char val[KNOB_VALUE_MAX], allowed[4096];

			if (knob_read(ctx, &refs[i], val, sizeof(val)) != 0)
				str_copy(val, sizeof(val), "n/a");
			if (knob_allowed(ctx, &refs[i], allowed, sizeof(allowed)) != 0)
				str_copy(allowed, sizeof(allowed), "n/a");
			printf("%-*s  %-*s  %-4s  %-5s  %s%s\n", (int)wa, refs[i].addr, (int)wv,
			       str_ctl(val),
			       knob_ref_unit(&refs[i])[0] ? knob_ref_unit(&refs[i]) : "-",
			       rw_text(ctx, &refs[i]), str_ctl(allowed),
			       knob_ref_simulated(&refs[i]) ? "   (SIMULATED)" : "");
			if (lng) {
				char path[TT_PATH_MAX];

				knob_ref_path(ctx, &refs[i], path, sizeof(path));
				printf("    file: %s\n", path);
				if (refs[i].note[0])
					printf("    note: %s\n", refs[i].note);
				printf("    help: %s\n", knob_ref_help(&refs[i]));
			}
		}
		if (!n && !rc)
			printf("no knobs on this root (%s)\n", root->path);
	}
	free(refs);
	return rc;
}

int cmd_get(struct cmd_ctx *cx, int argc, char **argv)
{
	struct knob_ctx *ctx;
	struct knob_ref *refs;
	size_t n;
	int c, rc;

	while ((c = cmd_getopt(cx, argc, argv)) != -1)
		return opt_other("get", c);
	if (optind >= argc)
		return cmd_usage("get");
	if (cmd_setup(cx, KNOB_NO_JOURNAL))
		return 1;
	ctx = cx->knob;
	rc = expand_patterns(ctx, "get", argv + optind, argc - optind, KNOB_EXPAND_PREFIX, &refs,
			     &n);
	for (size_t i = 0; i < n; i++) {
		char val[KNOB_VALUE_MAX];
		int e = knob_read(ctx, &refs[i], val, sizeof(val));

		if (e) {
			char path[TT_PATH_MAX];

			knob_ref_path(ctx, &refs[i], path, sizeof(path));
			if (e == -SYSFS_ENOTREG || e == -EXDEV || e == -EFBIG)
				cmd_error("get", 0, "%s: %s: %s", refs[i].addr, path, sysfs_why(e));
			else
				cmd_error("get", 0, "%s: %s from %s", refs[i].addr, err_name(e),
					  path);
			printf("%s=n/a\n", refs[i].addr);
			if (!rc)
				rc = 1;
			continue;
		}
		printf("%s=%s\n", refs[i].addr, str_ctl(val));
	}
	free(refs);
	return rc;
}

/* ---- set / apply ------------------------------------------------------------- */

/* --verify MS: how long to watch the effect (0 = not at all). */
static int verify_opt(const char *cmd, const char *arg, int *ms)
{
	if (str_to_int(arg, ms) != 0 || *ms < 0 || *ms > KNOB_VERIFY_MAX_MS) {
		cmd_error(cmd, 0, "--verify: '%s' is not a time in ms (0 to %d)", arg,
			  KNOB_VERIFY_MAX_MS);
		return -EINVAL;
	}
	return 0;
}

/* The options set and apply share: -n/--dry-run, --verify MS, --no-verify.
 * 1 when c was one, 0 when not, -1 after an error line. */
static int change_opt(const char *cmd, int c, bool *dry, int *verify_ms)
{
	switch (c) {
	case 'n': *dry = true; return 1;
	case 'V': return verify_opt(cmd, optarg, verify_ms) ? -1 : 1;
	case 'N': *verify_ms = 0; return 1;
	default: return 0;
	}
}

int cmd_set(struct cmd_ctx *cx, int argc, char **argv)
{
	bool dry = false;
	int verify_ms = (int)knob_effect_default_ms();
	struct change_run r;
	int c, e;

	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		int took = change_opt("set", c, &dry, &verify_ms);

		if (took <= 0)
			return took ? 2 : opt_other("set", c);
	}
	if (optind >= argc)
		return cmd_usage("set");
	if (run_open(cx, dry ? KNOB_READONLY_OK : 0, &r))
		return 1;
	e = knob_set_many(r.ctx, (const char *const *)argv + optind, NULL, (size_t)(argc - optind),
			  dry ? KNOB_DRY_RUN : 0, &r.rep, &r.cause);
	if (!e && !dry && verify_ms > 0)
		knob_effect_verify(r.ctx, (unsigned)verify_ms, 0, &r.rep);
	return run_finish("set", &r, e);
}

/* Load a profile and check that it is meant for this root. */
static int list_profiles(struct cmd_ctx *cx)
{
	const char *const *dirs = knob_profile_dirs();
	const struct sysroot *root = &cx->root;
	int found = 0;

	if (cmd_setup_only(cx, CMD_SYSROOT, 0)) /* the root to match, read-only */
		return 1;
	for (size_t d = 0; dirs[d]; d++) {
		struct sysroot dir;
		struct sysfs_list l;

		if (sysroot_open(&dir, dirs[d]) != 0)
			continue;
		if (sysfs_list(&dir, ".", &l) == 0) {
			for (size_t i = 0; i < l.n; i++) {
				struct knob_profile p;
				char *path, *cause = NULL;
				int m = -1;

				if (!str_ends(l.names[i], ".profile"))
					continue;
				path = xasprintf("%s/%s", dirs[d], l.names[i]);
				if (knob_profile_load(path, &p, &cause) == 0) {
					m = knob_profile_match(&p, root, NULL, 0);
					printf("%-20s %-9s %s\n    %s\n", p.name,
					       m == 1	? "matches"
					       : m == 0 ? "other"
							: "",
					       path, p.description ? p.description : "");
					knob_profile_free(&p);
					found++;
				} else {
					printf("%-20s %-9s %s\n    %s\n", l.names[i], "broken",
					       path, cause);
				}
				free(cause);
				free(path);
			}
			sysfs_list_free(&l);
		}
		sysroot_close(&dir);
	}
	if (!found) {
		fprintf(stderr, "tunetop apply: no profiles found in");
		for (size_t d = 0; dirs[d]; d++)
			fprintf(stderr, "%s %s", d ? "," : "", dirs[d]);
		fprintf(stderr, "\n");
		return 1;
	}
	return 0;
}

int cmd_apply(struct cmd_ctx *cx, int argc, char **argv)
{
	bool dry = false, force = false, list = false;
	int verify_ms = (int)knob_effect_default_ms();
	struct change_run r;
	struct knob_profile p;
	int c, e, rc;

	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		int took = change_opt("apply", c, &dry, &verify_ms);

		if (took < 0)
			return 2;
		if (took)
			continue;
		if (c == 'f')
			force = true;
		else if (c == 'l')
			list = true;
		else
			return opt_other("apply", c);
	}
	if (list)
		return list_profiles(cx);
	if (optind != argc - 1)
		return cmd_usage("apply");
	if (run_open(cx, dry ? KNOB_READONLY_OK : 0, &r))
		return 1;
	e = knob_cmd_load_profile("apply", argv[optind], r.root, force, &p);
	if (e) {
		run_close(&r);
		return e;
	}
	e = knob_set_many(r.ctx, (const char *const *)p.assign, (const char *const *)p.label, p.n,
			  KNOB_EMPTY_OK | (dry ? KNOB_DRY_RUN : 0), &r.rep, &r.cause);
	if (!e)
		knob_hold_offline_notes(r.ctx, (const char *const *)p.assign, p.n,
					"not applied when it comes online", &r.rep);
	if (!e && !dry && verify_ms > 0)
		knob_effect_verify(r.ctx, (unsigned)verify_ms, KNOB_QUIET, &r.rep);
	rc = run_finish("apply", &r, e);
	if (!e && !dry)
		printf("applied %s (undo with 'tunetop undo')\n", p.name);
	knob_profile_free(&p);
	return rc;
}

/* ---- undo / restore ---------------------------------------------------------- */

int cmd_undo(struct cmd_ctx *cx, int argc, char **argv)
{
	unsigned flags = 0, count = 1;
	uint64_t id = 0;
	struct change_run r;
	int c, e;

	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		switch (c) {
		case 'n': {
			int v;

			if (str_to_int(optarg, &v) != 0) {
				cmd_error("undo", 0, "-n: '%s' is not a number", optarg);
				return 2;
			}
			if (v < 1) {
				cmd_error("undo", 0,
					  "-n: '%s' is not a count of changes (1 or more)", optarg);
				return 2;
			}
			count = (unsigned)v;
			break;
		}
		case 'f': flags |= KNOB_FORCE; break;
		case 'd': flags |= KNOB_DRY_RUN; break;
		default: return opt_other("undo", c);
		}
	}
	if (optind < argc - 1)
		return cmd_usage("undo");
	if (optind == argc - 1 && (str_to_u64(argv[optind], &id) != 0 || id == 0)) {
		cmd_error("undo", 0, "'%s' is not a change id (see tunetop journal)", argv[optind]);
		return 2;
	}
	if (run_open(cx, 0, &r))
		return 1;
	e = id ? knob_undo_id(r.ctx, id, flags, &r.rep, &r.cause)
	       : knob_undo_last(r.ctx, count, flags, &r.rep, &r.cause);
	return run_finish("undo", &r, e);
}

/* The tracefs instances left by `probe --why` runs that were killed
 * (tunetop-<pid> of a process that is gone): removed, said in one line. */
static void restore_tracefs(void)
{
	char why[256] = "";
	int n = whycap_remove_stale(why, sizeof(why));

	if (n > 0)
		cmd_note("restore",
			 "removed %d stale tracefs instance%s (tunetop-PID of probe --why runs "
			 "that ended without cleaning up)",
			 n, n == 1 ? "" : "s");
	else if (n < 0)
		cmd_error("restore", 0, "%s", why);
}

int cmd_restore(struct cmd_ctx *cx, int argc, char **argv)
{
	const struct tt_opts *o = cx->o;
	unsigned flags = 0;
	bool orphans = false;
	struct change_run r;
	int c, e;

	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		switch (c) {
		case 'f': flags |= KNOB_FORCE; break;
		case 'd': flags |= KNOB_DRY_RUN; break;
		case 'o': orphans = true; break;
		default: return opt_other("restore", c);
		}
	}
	if (optind != argc)
		return cmd_usage("restore");
	if ((!o->root || !strcmp(o->root, "/")) && !(flags & KNOB_DRY_RUN))
		restore_tracefs();
	if (run_open(cx, 0, &r))
		return 1;
	e = orphans ? knob_restore_orphans(r.ctx, flags, &r.rep, &r.cause)
		    : knob_restore_all(r.ctx, flags, &r.rep, &r.cause);
	return run_finish("restore", &r, e);
}

/* ---- journal -------------------------------------------------------------------- */

static void fmt_time(uint64_t ns, char *buf, size_t cap)
{
	time_t t = (time_t)(ns / 1000000000ull);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, cap, "%Y-%m-%d %H:%M:%S", &tm))
		str_copy(buf, cap, "?");
}

static const char *state_text(const struct knob_jentry *e)
{
	if (e->orphaned && e->state != KNOB_J_OTHER_BOOT)
		return "orphaned";
	if (e->kept)
		return "kept";
	return knob_jstate_name(e->state);
}

int cmd_journal(struct cmd_ctx *cx, int argc, char **argv)
{
	bool json = false;
	struct sysroot *root = &cx->root;
	struct knob_ctx *ctx;
	struct knob_jentry *e;
	struct knob_owner *own = NULL;
	size_t n, nown = 0;
	int c, torn = 0, rc;
	char *cause = NULL;

	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		default: return opt_other("journal", c);
		}
	}
	if (optind != argc)
		return cmd_usage("journal");
	if (cmd_setup(cx, 0))
		return 1;
	ctx = cx->knob;
	rc = knob_journal_list(ctx, &e, &n, &torn, &cause);
	if (rc) {
		knob_print_cause("journal", cause);
		free(cause);
		return 1;
	}
	knob_journal_owners(e, n, &own, &nown);
	if (json) {
		struct sbuf b;
		struct jw w;

		cmd_json_begin(&w, &b, true);
		jw_str(&w, "schema", TT_SCHEMA_JOURNAL);
		jw_str(&w, "state_dir", knob_ctx_state_dir(ctx));
		jw_str(&w, "root", root->path);
		jw_int(&w, "torn_lines", torn);
		jw_arr_begin(&w, "entries");
		for (size_t i = 0; i < n; i++) {
			char tbuf[32];

			fmt_time(e[i].time_ns, tbuf, sizeof(tbuf));
			jw_obj_begin(&w, NULL);
			jw_uint(&w, "id", e[i].id);
			jw_uint(&w, "change", e[i].txn);
			jw_uint(&w, "time_ns", e[i].time_ns);
			jw_str(&w, "time", tbuf);
			jw_str(&w, "address", e[i].addr);
			jw_str(&w, "target", e[i].target);
			jw_str(&w, "old", e[i].old);
			jw_str(&w, "new", e[i].new_value);
			jw_str(&w, "readback", e[i].readback);
			jw_str(&w, "state", knob_jstate_name(e[i].state));
			jw_str(&w, "how", e[i].how);
			jw_str(&w, "effect",
			       e[i].effect_evidence ? knob_effect_name(e[i].effect) : NULL);
			jw_str(&w, "effect_evidence", e[i].effect_evidence);
			jw_bool(&w, "scoped", e[i].scoped);
			jw_bool(&w, "kept", e[i].kept);
			jw_bool(&w, "orphaned", e[i].orphaned);
			jw_str(&w, "run", e[i].run);
			jw_str(&w, "kind", e[i].kind);
			jw_uint(&w, "start", e[i].start);
			if (e[i].inherited_from) {
				jw_uint(&w, "inherited_from", e[i].inherited_from);
				jw_str(&w, "recorded_old", e[i].recorded_old);
			}
			jw_int(&w, "pid", e[i].pid);
			jw_bool(&w, "pid_alive", e[i].alive);
			jw_str(&w, "boot_id", e[i].boot_id);
			jw_str(&w, "root", e[i].root);
			jw_bool(&w, "this_root", e[i].this_root);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_arr_begin(&w, "owners");
		for (size_t i = 0; i < nown; i++) {
			jw_obj_begin(&w, NULL);
			jw_int(&w, "pid", own[i].pid);
			jw_uint(&w, "start", own[i].start);
			jw_str(&w, "kind", own[i].kind);
			jw_str(&w, "run", own[i].run);
			jw_str(&w, "state", knob_owner_state(&own[i]));
			jw_bool(&w, "alive", own[i].alive);
			jw_uint(&w, "active", own[i].active);
			jw_uint(&w, "orphaned", own[i].orphaned);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		cmd_json_put(&w, &b, stdout);
	} else {
		size_t orphans = 0, stale = 0, other = 0, kept = 0;

		if (!n)
			printf("journal is empty (%s)\n", knob_ctx_state_dir(ctx));
		else
			printf("%-5s %-6s %-19s %-10s %-8s %s\n", "ID", "CHANGE", "TIME", "STATE",
			       "PID", "ADDRESS: OLD -> NEW");
		for (size_t i = 0; i < n; i++) {
			char tbuf[32], pid[24];

			fmt_time(e[i].time_ns, tbuf, sizeof(tbuf));
			snprintf(pid, sizeof(pid), "%d%s", e[i].pid, e[i].alive ? "" : "-");
			printf("%-5llu %-6llu %-19s %-10s %-8s %s: %s -> %s",
			       (unsigned long long)e[i].id, (unsigned long long)e[i].txn, tbuf,
			       state_text(&e[i]), pid, e[i].addr, e[i].old, e[i].new_value);
			if (e[i].state == KNOB_J_FAILED || e[i].state == KNOB_J_UNDONE)
				printf(" (%s)", e[i].how ? e[i].how : "");
			else if (e[i].readback && strcmp(e[i].readback, e[i].new_value))
				printf(" (kernel reports %s)", e[i].readback);
			if (e[i].effect_evidence && e[i].state == KNOB_J_ACTIVE)
				printf(" [%s: %s]",
				       e[i].effect == KNOB_EFFECT_NOT_SEEN   ? "NOT IN EFFECT"
				       : e[i].effect == KNOB_EFFECT_VERIFIED ? "in effect"
									     : "effect unknown",
				       e[i].effect_evidence);
			if (!e[i].this_root)
				printf(" [root %s]", e[i].root);
			printf("\n");
			if (e[i].orphaned && e[i].this_root && e[i].state != KNOB_J_OTHER_BOOT)
				orphans++;
			if (e[i].kept && e[i].this_root)
				kept++;
			if (e[i].state == KNOB_J_OTHER_BOOT)
				stale++;
			if (!e[i].this_root &&
			    (e[i].state == KNOB_J_OPEN || e[i].state == KNOB_J_ACTIVE))
				other++;
		}
		if (n)
			printf("(PID ending in '-': that process is gone)\n");
		if (nown)
			printf("\nOWNERS of the changes in place:\n%-8s %-8s %-9s %s\n", "PID",
			       "KIND", "STATE", "CHANGES");
		for (size_t i = 0; i < nown; i++)
			printf("%-8d %-8s %-9s %zu%s\n", own[i].pid, own[i].kind,
			       knob_owner_state(&own[i]), own[i].active,
			       own[i].alive ? " (restored when it exits)"
			       : own[i].orphaned
				       ? " (left by a tunetop that exited: tunetop restore "
					 "--orphans)"
				       : " (left on purpose: tunetop undo ID or tunetop restore)");
		if (orphans)
			printf("note: %zu entries are orphaned (the tunetop that made them died "
			       "before restoring them); 'tunetop restore --orphans' puts the old "
			       "values back\n",
			       orphans);
		if (kept)
			printf("note: %zu entr%s kept on purpose (quit with keep, or --keep); "
			       "'tunetop undo ID' or 'tunetop restore' puts the old values back\n",
			       kept, kept == 1 ? "y was" : "ies were");
		if (stale)
			printf("note: %zu entries are from an earlier boot; they will be archived, "
			       "never replayed\n",
			       stale);
		if (other)
			printf("note: %zu open entries belong to another root; restore them with "
			       "--root\n",
			       other);
		if (torn)
			printf("note: %d torn or corrupt journal lines ignored\n", torn);
	}
	free(own);
	knob_journal_free(e, n);
	return 0;
}
