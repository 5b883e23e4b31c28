/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shared runner of the commands (src/cmd/common.c): the setup that
 * opens the root and the knob engine as the entry says, print reports and causes, note orphaned
 * changes, load a profile, and the usage errors and exit codes every command uses. */
#ifndef TT_CMD_COMMON_H
#define TT_CMD_COMMON_H

#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "core/json.h"
#include "core/str.h"
#include "knob/knob.h"
#include "model/record.h"

/* The one form of a command's message on stderr, one line:
 * "tunetop CMD: MESSAGE" and, when err is a -errno, ": ENAME" (err_name(),
 * the form the man page and the tests use). Control characters from the
 * tree or the user are escaped. Returns 1 (the exit code "could not be
 * done") so that `return cmd_error(...)` reads as what it does. */
int cmd_error(const char *cmd, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int cmd_verror(const char *cmd, int err, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* The same prefix for a note or warning that is not an error (returns 0). */
int cmd_note(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The most options one entry has (cmd_getopt's arrays). */
#define CMD_OPTS_MAX 24
/* What the runner (cmd_run) hands a command: the global options, its
 * entry, and what the entry's setup flags say it opens, once cmd_setup()
 * opened them. cmd_run closes them after the command returns. */
struct cmd_ctx {
	const struct tt_opts *o;
	const struct cmd_entry *c;
	struct sysroot root;   /* --root, open with CMD_SYSROOT */
	struct knob_ctx *knob; /* the engine over root, open with CMD_ENGINE */
	bool root_open;
	/* cmd_getopt's view of the entry's options, built at its first call */
	struct option lo[CMD_OPTS_MAX + 2];
	char so[3 * CMD_OPTS_MAX + 8];
	char names[CMD_OPTS_MAX][24];
};
/* The one setup of every command, called by it once its options parsed (a
 * usage error touches nothing; knob_flags depend on them, e.g. --dry-run):
 * opens what the entry's flags declare, --root ("tunetop CMD: --root DIR:
 * ENAME") for CMD_SYSROOT, then the engine for CMD_ENGINE (cmd_engine_open).
 * Returns 0, or 1 (exit code) with the message printed. */
int cmd_setup(struct cmd_ctx *cx, unsigned knob_flags);
/* cmd_setup() with only some of the entry's flags (f, a subset of them: a
 * mode of the command that needs less, apply --list only the root, read-only
 * as f lacks CMD_WRITES). */
int cmd_setup_only(struct cmd_ctx *cx, unsigned f, unsigned knob_flags);
/* Close what cmd_setup opened (cmd_run calls it; a command that must let go
 * earlier may too: it is idempotent). */
void cmd_teardown(struct cmd_ctx *cx);
/* Open the root dir for cmd: on failure "tunetop CMD: --root DIR: ENAME"
 * and 1; 0 when open. cmd_setup's, and learn's for its simulated board. */
int cmd_open_root(const char *cmd, const char *dir, struct sysroot *root);
/* Open the engine over root for cmd; prints the cause and returns 1 on
 * failure. The ctx's owner kind is cmd; unless quiet (or cmd is restore),
 * orphaned changes in the journal are noted in one line on stderr.
 * cmd_setup's, and learn's for its board. */
int cmd_engine_open(const char *cmd, struct sysroot *root, const char *state_dir, unsigned flags,
		    bool quiet, struct knob_ctx **ctx);
/* The runner's short look at the journal for a command that has its root
 * but not CMD_ENGINE (snapshot, watch, serve: the journal counts): the
 * engine over cx->root and the state dir of the global options, read-only
 * (KNOB_READ_ONLY), the state dir not created, no lock, no message. 0 with
 * *ctx (knob_ctx_close() it), or -errno. */
int cmd_engine_peek(const struct cmd_ctx *cx, struct knob_ctx **ctx);
/* The world in the root dir (--root, model/world.h), attached, or NULL when the root holds
 * none (a broken marker is a note on stderr). cmd_open_root steps a world by
 * the time since its last step; a command that runs for a while (ab) holds
 * it with this and steps it itself; world_close() saves it. */
struct world;
struct world *cmd_world_attach(const char *dir, const char *cmd);
/* Print a (multi-line) cause, one "tunetop CMD: line" per line, to stderr. */
void knob_print_cause(const char *cmd, const char *cause);
/* Print and clear a report (stdout). */
void knob_print_report(struct sbuf *report);
/* "tunetop: N changes by a tunetop that exited (pid P, exec) are still
 * applied: run `tunetop restore --orphans`" on stderr, when there are any. */
void knob_note_orphans(struct knob_ctx *ctx);
/* Find, load and match-check a profile; 0 or the exit code (message printed). */
int knob_cmd_load_profile(const char *cmd, const char *name, const struct sysroot *root, bool force,
			  struct knob_profile *p);

/* --record-format ARG of cmd into *fmt: 0, or 2 (the usage exit code) with
 * one line saying why. */
int cmd_record_format(const char *cmd, const char *arg, enum record_format *fmt);

/* A command's JSON document: cmd_json_begin() initialises b and w and opens
 * the outer object; cmd_json_put() closes it, writes it with a newline to f
 * and frees b. */
void cmd_json_begin(struct jw *w, struct sbuf *b, bool pretty);
void cmd_json_put(struct jw *w, struct sbuf *b, FILE *f);

#endif
