/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command entry points. main.c parses the global options (--root,
 * --state-dir, --clocks, wherever they appear), then calls one of these with argv[0]
 * set to the command name, so each command can use getopt_long on the rest.
 * Each returns the process exit code (design §3): 0 ok, 1 could not be done,
 * 2 usage/parse error. Commands live in their layer (src/out/cmd_*.c,
 * src/knob/cmd_*.c, src/probe/cmd_*.c, src/ui/tui.c). */
#ifndef TT_CMD_H
#define TT_CMD_H

#include <stdbool.h>

struct tt_opts {
	const char *root;      /* --root DIR, default "/" */
	const char *state_dir; /* --state-dir DIR, NULL = $TUNETOP_STATE_DIR / /run/tunetop /
				  $XDG_RUNTIME_DIR/tunetop */
	/* --clocks LIST: the debugfs clocks to read (NULL-terminated), NULL = the
	   default list (the TUI then takes tunetoprc's clocks=) */
	const char *const *clocks;
	/* --self-cpus LIST, --self-nice N: where the monitor's own threads run
	   (the TUI and watch; src/model/selfplace.h); NULL = tunetoprc /
	   $TUNETOP_SELF_NICE / the defaults */
	const char *self_cpus, *self_nice;
	/* -q before the command: no note about orphaned changes on stderr */
	bool quiet;
};

typedef int (*tt_cmd_fn)(const struct tt_opts *o, int argc, char **argv);

/* src/out */
int cmd_snapshot(const struct tt_opts *o, int argc, char **argv);
int cmd_watch(const struct tt_opts *o, int argc, char **argv);
int cmd_capture(const struct tt_opts *o, int argc, char **argv);
int cmd_events(const struct tt_opts *o, int argc, char **argv);
int cmd_explain(const struct tt_opts *o, int argc, char **argv);
int cmd_report(const struct tt_opts *o, int argc, char **argv);
int cmd_learn(const struct tt_opts *o, int argc, char **argv);
int cmd_serve(const struct tt_opts *o, int argc, char **argv);

/* src/probe */
int cmd_probe(const struct tt_opts *o, int argc, char **argv);
int cmd_ab(const struct tt_opts *o, int argc, char **argv);
int cmd_why(const struct tt_opts *o, int argc, char **argv);

/* src/knob */
int cmd_knobs(const struct tt_opts *o, int argc, char **argv);
int cmd_get(const struct tt_opts *o, int argc, char **argv);
int cmd_set(const struct tt_opts *o, int argc, char **argv);
int cmd_apply(const struct tt_opts *o, int argc, char **argv);
int cmd_undo(const struct tt_opts *o, int argc, char **argv);
int cmd_restore(const struct tt_opts *o, int argc, char **argv);
int cmd_journal(const struct tt_opts *o, int argc, char **argv);
int cmd_exec(const struct tt_opts *o, int argc, char **argv);

struct report_opts;
struct sysroot;
/* Fill ro's journal counts (have_journal, journal_na, journal_*) for root r
 * from the state dir of o (read without the lock; cmd_snapshot.c). */
void report_journal_counts(const struct tt_opts *o, const struct sysroot *r,
			   struct report_opts *ro);

#endif
