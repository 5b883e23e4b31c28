/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The commands (src/cmd/): one table, one runner.
 *
 * main.c takes the global options (--root, --state-dir, --clocks,
 * --self-cpus, --self-nice, wherever they appear, and -q before the
 * command), finds the command in cmd_table[] (src/cmd/table.c) and calls
 * cmd_run(), which answers `tunetop CMD --help` from the entry and calls
 * the entry's function with argv[0] set to the command name, so each command
 * uses cmd_getopt() (getopt_long over its entry's options) on the rest. Each command returns the process exit code
 * (man page, EXIT STATUS): 0 ok, 1 could not be done, 2 usage or parse error,
 * unknown address, value not allowed.
 *
 * The entry is the one source of the command's synopsis, description and
 * options: `tunetop --help`, `tunetop CMD --help`, a usage error's usage
 * lines (cmd_usage), the completion scripts (generated from
 * `tunetop --complete`, src/cmd/complete.c) and what tests/cli/cmd_table.sh
 * checks the man page's synopsis against. Its flags say what the command
 * opens: the runner hands the command a struct cmd_ctx (common.h) and, when
 * the command calls cmd_setup() after its options parsed (a usage error
 * touches nothing), opens --root and the engine as the flags say, with one
 * message each; it closes them when the command returns. Messages on stderr
 * go through cmd_error()/cmd_note(): "tunetop CMD: MESSAGE[: ENAME]". */
#ifndef TT_CMD_H
#define TT_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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

struct cmd_ctx; /* what the runner opened for the command (common.h) */
typedef int (*tt_cmd_fn)(struct cmd_ctx *cx, int argc, char **argv);

/* One option: one line of the command's --help, "  NAME  HELP" within 80
 * columns (NAME as typed, with its short form and argument: "-i, --interval
 * MS", "--threads[=all]", "-n N"), and what cmd_getopt() gives back for it:
 * its short letter, or val for a long-only option (a character no other
 * option of the command uses). The name is the one source of getopt's
 * option: a word after it means a required argument, "[=" an optional one. */
struct cmd_opt {
	const char *name;
	const char *help;
	int val; /* long-only options: what cmd_getopt returns (0 with a short form) */
};

/* What a command opens and does (the setup flags of its entry), as the
 * runner guarantees it (doc/design.md §3, tests/unit/test_cmd_runner,
 * tests/cli/cmd_flags.sh). */
enum cmd_flag {
	CMD_SYSROOT = 1u << 0, /* cmd_setup opens --root (struct cmd_ctx's root) */
	CMD_ENGINE = 1u << 1,  /* and the knob engine and journal over it (its knob) */
	/* may write knobs; without it the root refuses writes (-EROFS) and the
	   engine every change (KNOB_READ_ONLY: "read-only: this command only
	   reads knobs") */
	CMD_WRITES = 1u << 2,
	/* its main use makes privileged calls (RT priority, perf events of
	   other tasks, tracefs instances, /dev/cpu_dma_latency, a cgroup);
	   without it
	   the command makes none: nobody who owns the tree runs it fully */
	CMD_PRIV = 1u << 3,
};

struct cmd_entry {
	const char *name;
	tt_cmd_fn fn;
	/* after "tunetop ": lines separated by '\n'; a line starting with the
	   name is another form, the others continue the one before */
	const char *synopsis;
	const char *about;	    /* a paragraph for --help, or NULL */
	const struct cmd_opt *opts; /* ended by {NULL, NULL, 0} */
	unsigned flags;		    /* enum cmd_flag */
	const char *brief;	    /* one line for a list (zsh's completion menu) */
};

extern const struct cmd_entry cmd_table[];
extern const size_t cmd_count;

const struct cmd_entry *cmd_find(const char *name);
/* The synopsis: the first form after lead, the others after next. */
void cmd_print_synopsis(const struct cmd_entry *c, const char *lead, const char *next, FILE *f);
/* `tunetop CMD --help`: synopsis, about, one line per option. */
void cmd_help(const struct cmd_entry *c, FILE *f);
/* cmd_help() of the command named name on f; returns 0 (exit code). */
int cmd_print_help(const char *name, FILE *f);
/* A usage error: the synopsis on stderr; returns 2 (exit code). */
int cmd_usage(const char *name);
/* `tunetop --complete bash|zsh`: the completion scripts' words (commands,
 * their summaries and options, knob families) as a shell fragment on f
 * (src/cmd/complete.c); 0, or 2 for another shell. */
int cmd_complete(const char *shell, FILE *f);
/* getopt_long() over the options of cx's entry (and -h, --help: 'h'), as
 * its table says (cmd_opt): the short letters, or a long-only option's val.
 * A command that words its own errors sets opterr = 0 first: a missing value
 * is then ':' (as with getopt's leading ':'), an unknown option '?'. */
int cmd_getopt(struct cmd_ctx *cx, int argc, char **argv);
/* The runner: the entry's function with the global options and a struct
 * cmd_ctx for cmd_setup(); closes what that opened when it returns. */
int cmd_run(const struct cmd_entry *c, const struct tt_opts *o, int argc, char **argv);

/* the commands (src/cmd/cmd_*.c) */
int cmd_snapshot(struct cmd_ctx *cx, int argc, char **argv);
int cmd_watch(struct cmd_ctx *cx, int argc, char **argv);
int cmd_capture(struct cmd_ctx *cx, int argc, char **argv);
int cmd_events(struct cmd_ctx *cx, int argc, char **argv);
int cmd_explain(struct cmd_ctx *cx, int argc, char **argv);
int cmd_world(struct cmd_ctx *cx, int argc, char **argv);
int cmd_report(struct cmd_ctx *cx, int argc, char **argv);
int cmd_learn(struct cmd_ctx *cx, int argc, char **argv);
int cmd_serve(struct cmd_ctx *cx, int argc, char **argv);
int cmd_probe(struct cmd_ctx *cx, int argc, char **argv);
int cmd_ab(struct cmd_ctx *cx, int argc, char **argv);
int cmd_why(struct cmd_ctx *cx, int argc, char **argv);
int cmd_knobs(struct cmd_ctx *cx, int argc, char **argv);
int cmd_get(struct cmd_ctx *cx, int argc, char **argv);
int cmd_set(struct cmd_ctx *cx, int argc, char **argv);
int cmd_apply(struct cmd_ctx *cx, int argc, char **argv);
int cmd_undo(struct cmd_ctx *cx, int argc, char **argv);
int cmd_restore(struct cmd_ctx *cx, int argc, char **argv);
int cmd_journal(struct cmd_ctx *cx, int argc, char **argv);
int cmd_exec(struct cmd_ctx *cx, int argc, char **argv);

struct report_opts;
/* Fill ro's journal counts (have_journal, journal_na, journal_*) for the
 * runner's root of cx from the state dir of its options, through the
 * runner's read-only look (cmd_engine_peek: no lock, nothing created;
 * cmd_snapshot.c). */
void report_journal_counts(const struct cmd_ctx *cx, struct report_opts *ro);

#endif
