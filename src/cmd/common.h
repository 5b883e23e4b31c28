/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shared runner of the commands (src/cmd/common.c): open the root and
 * the knob engine, print reports and causes, note orphaned changes, load a
 * profile, and the usage errors and exit codes every command uses. */
#ifndef TT_CMD_COMMON_H
#define TT_CMD_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "core/json.h"
#include "core/str.h"
#include "knob/knob.h"

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
/* Open the root (--root) for cmd: on failure "tunetop CMD: --root DIR: ENAME"
 * and 1; 0 when open. The one opener every command uses (knob_cmd_open
 * calls it). */
int cmd_open_root(const struct tt_opts *o, const char *cmd, struct sysroot *root);
/* The world in --root (model/world.h), attached, or NULL when the root holds
 * none (a broken marker is a note on stderr). cmd_open_root steps a world by
 * the time since its last step; a command that runs for a while (ab) holds
 * it with this and steps it itself; world_close() saves it. */
struct world;
struct world *cmd_world_attach(const struct tt_opts *o, const char *cmd);
/* Print a (multi-line) cause, one "tunetop CMD: line" per line, to stderr. */
void knob_print_cause(const char *cmd, const char *cause);
/* Print and clear a report (stdout). */
void knob_print_report(struct sbuf *report);
/* Open the root and the engine; prints the error and returns 1 on failure.
 * The ctx's owner kind is cmd; unless -q (or cmd is restore), orphaned
 * changes in the journal are noted in one line on stderr. */
int knob_cmd_open(const struct tt_opts *o, const char *cmd, unsigned flags, struct sysroot *root,
		  struct knob_ctx **ctx);
/* "tunetop: N changes by a tunetop that exited (pid P, exec) are still
 * applied: run `tunetop restore --orphans`" on stderr, when there are any. */
void knob_note_orphans(struct knob_ctx *ctx);
/* Find, load and match-check a profile; 0 or the exit code (message printed). */
int knob_cmd_load_profile(const char *cmd, const char *name, const struct sysroot *root, bool force,
			  struct knob_profile *p);

/* A command's JSON document: cmd_json_begin() initialises b and w and opens
 * the outer object; cmd_json_put() closes it, writes it with a newline to f
 * and frees b. */
void cmd_json_begin(struct jw *w, struct sbuf *b, bool pretty);
void cmd_json_put(struct jw *w, struct sbuf *b, FILE *f);

#endif
