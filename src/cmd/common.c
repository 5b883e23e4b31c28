/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shared runner of the commands (common.h): what every command that
 * opens the knob engine does the same way, once. */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/common.h"
#include "model/world.h"
#include "core/err.h"
#include "core/xalloc.h"
#include "core/str.h"
#include "knob/knob.h"

int cmd_verror(const char *cmd, int err, const char *fmt, va_list ap)
{
	struct sbuf b;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	sbuf_init(&b);
	sbuf_printf(&b, "tunetop %s: ", cmd);
	if (n > 0) {
		char *m = xmalloc((size_t)n + 1);

		vsnprintf(m, (size_t)n + 1, fmt, ap);
		sbuf_putn(&b, m, (size_t)n);
		free(m);
	}
	if (err < 0)
		sbuf_printf(&b, ": %s", err_name(err));
	sbuf_putc(&b, '\n');
	str_fwrite_text(b.s, b.len, stderr); /* names from the tree: \x1b */
	sbuf_free(&b);
	return 1;
}

int cmd_error(const char *cmd, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cmd_verror(cmd, err, fmt, ap);
	va_end(ap);
	return 1;
}

int cmd_note(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cmd_verror(cmd, 0, fmt, ap);
	va_end(ap);
	return 0;
}

int cmd_open_root(const char *cmd, const char *dir, struct sysroot *root)
{
	int e = sysroot_open(root, dir);

	if (e)
		return cmd_error(cmd, e, "--root %s", dir);
	if (world_present(root)) { /* the board moved while nobody looked */
		struct world *w = cmd_world_attach(dir, cmd);

		if (w)
			world_catch_up(w, WORLD_CATCH_UP_MAX_S);
		world_close(w);
	}
	return 0;
}

struct world *cmd_world_attach(const char *dir, const char *cmd)
{
	struct world *w = NULL;
	char err[512];
	int e;

	if (!dir || !strcmp(dir, "/"))
		return NULL;
	e = world_attach(dir, &w, err, sizeof(err));
	if (e && e != -ENOENT)
		cmd_note(cmd, "%s: the world stands still", err);
	return e ? NULL : w;
}

int cmd_engine_open(const char *cmd, struct sysroot *root, const char *state_dir, unsigned flags,
		    bool quiet, struct knob_ctx **ctx)
{
	char *cause = NULL;
	int e = knob_ctx_open(ctx, root, state_dir, flags, &cause);

	if (e) {
		knob_print_cause(cmd, cause);
		free(cause);
		*ctx = NULL;
		return 1;
	}
	free(cause);
	knob_ctx_set_kind(*ctx, cmd);
	/* changes a dead owner left applied: one line (restore is what fixes it) */
	if (!quiet && strcmp(cmd, "restore") && knob_ctx_state_dir(*ctx))
		knob_note_orphans(*ctx);
	return 0;
}

int cmd_engine_peek(const struct cmd_ctx *cx, struct knob_ctx **ctx)
{
	assert(cx->root_open);
	return knob_ctx_open(ctx, &cx->root, cx->o->state_dir,
			     KNOB_READONLY_OK | KNOB_NO_CREATE | KNOB_READ_ONLY, NULL);
}

int cmd_setup(struct cmd_ctx *cx, unsigned knob_flags)
{
	return cmd_setup_only(cx, cx->c->flags, knob_flags);
}

int cmd_setup_only(struct cmd_ctx *cx, unsigned f, unsigned knob_flags)
{
	const char *dir = cx->o->root ? cx->o->root : "/";

	assert(!(f & ~cx->c->flags));	     /* never more than the entry declares */
	assert(f & CMD_SYSROOT);	     /* a command without it has nothing to set up */
	assert(!cx->root_open && !cx->knob); /* once */
	if (cmd_open_root(cx->c->name, dir, &cx->root))
		return 1;
	cx->root_open = true;
	if (!(f & CMD_WRITES)) { /* a read-only command cannot write, whatever it calls */
		cx->root.readonly = true;
		knob_flags |= KNOB_READ_ONLY;
	}
	if (!(f & CMD_ENGINE))
		return 0;
	if (cmd_engine_open(cx->c->name, &cx->root, cx->o->state_dir, knob_flags, cx->o->quiet,
			    &cx->knob)) {
		cmd_teardown(cx);
		return 1;
	}
	return 0;
}

/* Simulated time a world runs after a command that writes (set, apply,
 * undo...): the governors take the new values and the application logs its
 * next frames with them, so the log's last lines follow what was written. */
#define CMD_WORLD_AFTER_WRITE_S 0.5

void cmd_teardown(struct cmd_ctx *cx)
{
	if (cx->knob)
		knob_ctx_close(cx->knob);
	cx->knob = NULL;
	if (cx->root_open && cx->c && (cx->c->flags & CMD_WRITES) && world_present(&cx->root)) {
		struct world *w = cmd_world_attach(cx->o->root, cx->c->name);

		if (w)
			world_step(w, CMD_WORLD_AFTER_WRITE_S);
		world_close(w);
	}
	if (cx->root_open)
		sysroot_close(&cx->root);
	cx->root_open = false;
}

void knob_print_cause(const char *cmd, const char *cause)
{
	const char *p = cause ? cause : "failed";

	while (*p) {
		size_t n = strcspn(p, "\n");

		fprintf(stderr, "tunetop %s: ", cmd);
		str_fwrite_text(p, n, stderr); /* values from the tree: \x1b */
		fputc('\n', stderr);
		p += n;
		if (*p == '\n')
			p++;
	}
}

void knob_print_report(struct sbuf *report)
{
	if (report->len)
		str_fwrite_text(report->s, report->len, stdout);
	fflush(stdout);
	sbuf_reset(report);
}

void knob_note_orphans(struct knob_ctx *ctx)
{
	char owners[256];
	size_t n = 0, nown = 0;

	if (knob_orphans(ctx, &n, &nown, owners, sizeof(owners)) != 0 || !n)
		return;
	fprintf(stderr,
		"tunetop: %zu change%s by %s that exited (%s) %s still applied: run `tunetop "
		"restore --orphans`\n",
		n, n == 1 ? "" : "s", nown == 1 ? "a tunetop" : "tunetops", owners,
		n == 1 ? "is" : "are");
}

int knob_cmd_load_profile(const char *cmd, const char *name, const struct sysroot *root, bool force,
			  struct knob_profile *p)
{
	char *path = NULL, *cause = NULL;
	int e = knob_profile_find(name, &path, &cause);

	if (!e)
		e = knob_profile_load(path, p, &cause);
	free(path);
	if (e) {
		knob_print_cause(cmd, cause);
		free(cause);
		return knob_exit_code(e) == 2 || e == -ENOENT ? 2 : 1;
	}
	{
		char why[1024] = "";
		int m = knob_profile_match(p, root, why, sizeof(why));

		if (m == 0 && !force) {
			struct sbuf want;

			sbuf_init(&want);
			for (size_t i = 0; i < p->nmatch; i++)
				sbuf_printf(&want, "%s%s", i ? " | " : "", p->match[i]);
			fprintf(stderr,
				"tunetop %s: profile %s is for %s; %s (use --force to apply it "
				"anyway)\n",
				cmd, p->name, want.s, why);
			sbuf_free(&want);
			knob_profile_free(p);
			return 2;
		}
		if (m == 0)
			printf("note: profile %s does not match this root (%s); applying anyway "
			       "(--force)\n",
			       p->name, why);
	}
	return 0;
}

void cmd_json_begin(struct jw *w, struct sbuf *b, bool pretty)
{
	sbuf_init(b);
	jw_init(w, b, pretty);
	jw_obj_begin(w, NULL);
}

void cmd_json_put(struct jw *w, struct sbuf *b, FILE *f)
{
	jw_obj_end(w);
	sbuf_putc(b, '\n');
	fputs(b->s, f);
	sbuf_free(b);
}

int cmd_record_format(const char *cmd, const char *arg, enum record_format *fmt)
{
	char why[128];

	if (record_format_opt(arg, fmt, why, sizeof(why)) == 0)
		return 0;
	cmd_error(cmd, 0, "%s", why);
	return 2;
}
