/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shared runner of the commands (src/cmd/common.c): open the root and
 * the knob engine, print reports and causes, note orphaned changes, load a
 * profile, and the usage errors and exit codes every command uses. */
#ifndef TT_CMD_COMMON_H
#define TT_CMD_COMMON_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "core/json.h"
#include "core/str.h"
#include "knob/knob.h"

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
