/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command table (cmd.h): every command's name, entry point, synopsis,
 * description, one line per option and setup flags, in one place. It is
 * the one source of `tunetop --help`, every `tunetop CMD --help`, the usage
 * line of a usage error; tests/cli/cmd_table.sh checks the man page's
 * synopsis and the completion scripts against it. A new command is one
 * entry here (doc/HACKING.md, "Add a command").
 *
 * The flags are what the runner does for the command, not a comment:
 * CMD_SYSROOT opens --root, CMD_ENGINE the engine over it; an entry without
 * CMD_WRITES gets a root that refuses every write and an engine that
 * refuses every change (-EROFS, tests/unit/test_cmd_runner); an entry
 * without CMD_PRIV must run fully as an unprivileged user owning the tree
 * (tests/cli/cmd_flags.sh has one line per such command). */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "core/str.h"

#define OPT_END                                                                                    \
	{                                                                                          \
		NULL, NULL, 0                                                                      \
	}

static const struct cmd_opt snapshot_opts[] = {
	{"-j, --json", "JSON (design §8)"},
	{"-c, --csv", "CSV, one row per CPU"},
	{"-i, --interval MS", "two samples MS apart (default 500; 0 = one, no rates)"},
	{"-s, --stable", "omit wall-clock fields (time, uptime), for diffs"},
	{"-p, --pretty", "indented JSON"},
	{"--counters", "per-CPU counters (cycles, instructions, cache misses)", 'C'},
	{"--events LIST", "perf/libpfm4 event strings (implies --counters)", 'E'},
	{"--thread TID", "counters of one thread instead of per-CPU counters", 'T'},
	{"--threads[=all]", "RT and pinned threads (=all: every thread)", 'A'},
	{"--irqs", "IRQ and softirq rates in the text report", 'I'},
	{"--latency-budget US", "the findings' latency budget (default 100 us)", 'B'},
	OPT_END,
};

static const struct cmd_opt watch_opts[] = {
	{"-j, --json", "JSON lines"},
	{"-c, --csv", "CSV with one header"},
	{"-i, --interval MS", "one record every MS (at least 10)"},
	{"-n, --count COUNT", "COUNT records (default: until interrupted)"},
	{"-s, --stable", "omit wall-clock fields (time, uptime)"},
	{"--counters", "per-CPU counters (cycles, instructions, cache misses)", 'C'},
	{"--events LIST", "perf/libpfm4 event strings (implies --counters)", 'E'},
	{"--record FILE", "also record samples and journal events (- = stdout)", 'R'},
	{"--record-format F", "auto, json or zstd (auto: zstd unless .json/.jsonl)", 'F'},
	{"--openmetrics FILE", "rewrite FILE with the sample as metrics (textfile)", 'O'},
	{"--latency-budget US", "the findings' latency budget (default 100 us)", 'B'},
	{"--metric-file LOG", "follow LOG (rotation, truncation handled)", 'M'},
	{"--metric REGEX", "with --metric-file: the number REGEX's group captures", 'm'},
	OPT_END,
};

static const struct cmd_opt no_opts[] = {OPT_END};

static const struct cmd_opt serve_opts[] = {
	{"--listen ADDR:PORT", "address to listen on (default 127.0.0.1:9731)", 'l'},
	{"--listen-any", "allow an address that is not loopback", 'a'},
	{"--min-interval MS", "sample at most this often (default 1000)", 'm'},
	{"--probe CPUS", "run the latency probe on CPUS, expose its percentiles", 'p'},
	OPT_END,
};

static const struct cmd_opt events_opts[] = {
	{"-l, --list", "list libpfm4 events (those whose name has PATTERN)"},
	OPT_END,
};

static const struct cmd_opt explain_opts[] = {
	{"-w, --width N", "wrap the text at N columns (40..1000, default 78)"},
	{"-l, --list", "list every entry with its title"},
	{"-a, --all", "every entry, in full"},
	OPT_END,
};

static const struct cmd_opt report_opts[] = {
	{"-H, --html OUT", "also write a self-contained HTML page (- = stdout)"},
	{"-q, --quiet", "no text summary on stdout"},
	OPT_END,
};

static const struct cmd_opt learn_opts[] = {
	{"-a, --auto", "tunetop makes the change itself (no prompts)"},
	{"-D, --demo[=WORLD]", "the simulated RK3588, or WORLD (world: the lesson's)"},
	{"-R, --record FILE", "record the measurements (tunetop report FILE)"},
	{"-F, --record-format F", "auto, json or zstd, as watch's"},
	OPT_END,
};

static const struct cmd_opt world_opts[] = {
	{"-l, --list", "the worlds: name, board, the field note of each"},
	{"--seed N", "seed of its noise (default TUNETOP_WORLD_SEED)", 's'},
	{"--run SEC", "with --root: run the world SEC simulated seconds", 'r'},
	OPT_END,
};

static const struct cmd_opt probe_opts[] = {
	{"--cpus LIST", "CPUs to measure (default: all online)", 'c'},
	{"-i, --interval US", "period in microseconds (default 1000)"},
	{"-D, --duration SEC", "run time, suffix s/m/h; 0 = until Ctrl-C (default 10)"},
	{"-p, --prio N", "real-time priority 1..99 (default 95)"},
	{"--policy P", "fifo (default), rr or other", 'P'},
	{"--dma-latency US", "hold /dev/cpu_dma_latency at US for the run", 'd'},
	{"--json", "JSON with per-CPU statistics and the full histograms", 'j'},
	{"--summary SEC", "soak runs: a summary line every SEC", 'S'},
	{"--histfile FILE", "the histogram in cyclictest's -h format (- = stdout)", 'H'},
	{"--break US", "stop at the first wake-up over US, save the trace", 'b'},
	{"--break-trace FILE", "where --break saves the trace", 'B'},
	{"--why", "why the late wake-ups were late (a tracefs instance)", 'w'},
	{"--why-over US", "late = over US (default: the run's p99)", 'o'},
	{"--events FILE", "save the captured events for `tunetop why FILE`", 'e'},
	{"--rpmsg DEV", "measure round trips through an rpmsg tty echo", 'r'},
	{"--rpmsg-size N", "message bytes, 16..496 (default 32)", 'z'},
	{"--rpmsg-interval-us US", "between messages (default 10000)", 'v'},
	{"--rpmsg-timeout-ms MS", "an echo later than this is lost (default 1000)", 't'},
	OPT_END,
};

static const struct cmd_opt ab_opts[] = {
	{"--aa", "A/A run: both arms the same VALUE (the noise floor)", 'a'},
	{"--window SEC", "measuring time per window (default 2; ms/s/m)", 'W'},
	{"--settle MS", "discarded after each switch (default 500)", 'S'},
	{"--rounds N", "rounds of 4 windows (default 6)", 'R'},
	{"--cpus LIST", "probe CPUs; with --cmd: CMD's CPU affinity", 'c'},
	{"--load SPEC", "background load in both arms: cpu:N, mem:N, @CPUS", 'L'},
	{"--cmd CMD", "measure CMD (sh -c, repeatedly) instead of the probe", 'C'},
	{"--metric REGEX", "the number REGEX's group captures in CMD's output", 'm'},
	{"--metric-file LOG", "follow LOG: its --metric numbers are the samples", 'M'},
	{"--primary M", "test only metric M: p99, p50, mean or metric", 'p'},
	{"--seed N", "seed of the random arrangements beyond 6 rounds", 's'},
	{"-i, --interval US", "probe period (default 1000)"},
	{"--prio N", "probe priority (default 95)", 'P'},
	{"--policy P", "probe policy: fifo (default), rr or other", 'Y'},
	{"--why", "late causes per arm (--json: a why object each)", 'w'},
	{"--why-over US", "with --why: late = over US (default: the p99)", 'O'},
	{"--json", "per-arm summaries, histograms, windows, comparison", 'j'},
	OPT_END,
};

static const struct cmd_opt why_opts[] = {
	{"-j, --json", "the result as JSON (doc/schema/why.schema.json)"},
	{"-o, --why-over US", "only wake-ups at least US late (default: all late)"},
	{"-w, --worst N", "the N worst late wake-ups with their parts (default 5)"},
	{"-k, --housekeeping LIST", "CPUs a moved IRQ or thread should go to"},
	OPT_END,
};

static const struct cmd_opt knobs_opts[] = {
	{"-l, --long", "also the file each knob reads and writes"},
	{"-j, --json", "JSON (doc/schema)"},
	OPT_END,
};

static const struct cmd_opt set_opts[] = {
	{"-n, --dry-run", "print the writes as shell lines, touch nothing"},
	{"--verify MS", "read back after MS (0..60000 ms) and report drift", 'V'},
	{"--no-verify", "no read-back", 'N'},
	OPT_END,
};

static const struct cmd_opt apply_opts[] = {
	{"-n, --dry-run", "print the writes as shell lines, touch nothing"},
	{"-f, --force", "apply a profile that does not match this root"},
	{"--verify MS", "read back after MS (0..60000 ms) and report drift", 'V'},
	{"--no-verify", "no read-back", 'N'},
	{"-l, --list", "the profiles found, with their paths"},
	OPT_END,
};

static const struct cmd_opt undo_opts[] = {
	{"-f, --force", "restore knobs changed by someone else since"},
	{"-d, --dry-run", "print the restoring writes, touch nothing"},
	{"-n N", "the newest N changes"},
	OPT_END,
};

static const struct cmd_opt restore_opts[] = {
	{"--orphans", "only the changes of owners that exited", 'o'},
	{"-f, --force", "restore knobs changed by someone else since"},
	{"-d, --dry-run", "print the restoring writes, touch nothing"},
	OPT_END,
};

static const struct cmd_opt journal_opts[] = {
	{"-j, --json", "JSON"},
	OPT_END,
};

static const struct cmd_opt exec_opts[] = {
	{"-p, --profile PROFILE", "apply PROFILE for the run (repeatable)"},
	{"--force", "apply a profile that does not match this root"},
	{"--cpus LIST", "CMD's CPU affinity"},
	{"--fifo PRIO", "run CMD SCHED_FIFO at PRIO"},
	{"--rr PRIO", "run CMD SCHED_RR at PRIO"},
	{"--nice N", "run CMD at nice N (-20..19)"},
	{"--no-follow", "restore when CMD exits, not its descendants"},
	{"--pidfile FILE", "follow the process FILE names (a daemon)"},
	{"--hold MODE", "off, report or reassert a knob changed behind us"},
	{"--metric REGEX", "the numbers REGEX's group captures in CMD's stdout"},
	{"--json", "with --metric: the summary as JSON"},
	{"--dry-run", "print what would be set and run, do nothing"},
	{"-q, --quiet", "no report of the changes"},
	OPT_END,
};

const struct cmd_entry cmd_table[] = {
	{"snapshot", cmd_snapshot,
	 "snapshot [--json|--csv] [--interval MS] [--stable] [--counters]\n"
	 "[--events LIST] [--thread TID] [--threads[=all]]\n"
	 "[--irqs] [--latency-budget US]",
	 "Two samples MS apart (default 500; 0 = one sample, no rates), printed as a\n"
	 "text report, JSON (design §8) or CSV (one row per CPU).",
	 snapshot_opts, CMD_SYSROOT, "one report of every source (text, JSON or CSV)"},
	{"watch", cmd_watch,
	 "watch [--json|--csv] -i MS -n COUNT [--counters] [--events LIST]\n"
	 "[--record FILE|- [--record-format F]] [--openmetrics FILE]\n"
	 "[--latency-budget US] [--metric-file LOG --metric REGEX]",
	 "One record per interval (JSON lines, CSV with one header, or text),\n"
	 "flushed per record; without -n until interrupted.",
	 watch_opts, CMD_SYSROOT, "one record per interval"},
	{"capture", cmd_capture, "capture OUT_DIR|-",
	 "Copy every file tunetop reads (and the symlinks leading to them) into\n"
	 "OUT_DIR, a fixture tree that --root accepts. Attach it to bug reports.\n"
	 "- writes the tree as a tar stream on standard output instead\n"
	 "(tunetop capture - | ssh host 'mkdir t && tar -C t -xf -').",
	 no_opts, CMD_SYSROOT, "copy every file tunetop reads into a fixture tree"},
	{"serve", cmd_serve,
	 "serve [--listen ADDR:PORT] [--listen-any] [--min-interval MS]\n"
	 "[--probe CPUS]",
	 "Serve the snapshot as metrics at http://ADDR:PORT/metrics: Prometheus\n"
	 "text 0.0.4, or OpenMetrics 1.0 when the client's Accept header asks for\n"
	 "it (PORT 0 picks a free port, printed on stderr).",
	 serve_opts, CMD_SYSROOT, "OpenMetrics for Prometheus on loopback"},
	{"events", cmd_events, "events [--list] [PATTERN]",
	 "Without arguments: generic events and whether they open here, the PMUs found.",
	 events_opts, CMD_SYSROOT, "perf and libpfm4 events"},
	{"explain", cmd_explain,
	 "explain [--width N] ADDRESS[=VALUE] | METRIC | WORD\n"
	 "explain --list | --all",
	 "What a knob or metric is, the files it comes from on this root, why it\n"
	 "matters for jitter, what to try, the shell line and the known traps.\n"
	 "ADDRESS patterns match: cpufreq/policy4/governor finds cpufreq/*/governor.",
	 explain_opts, CMD_SYSROOT, "what a knob or metric is and why it matters"},
	{"report", cmd_report, "report FILE|- [--html OUT|-] [--quiet]",
	 "Summarise a recording (watch --record, TUI --record), an A/B result\n"
	 "(ab --json), a probe result (probe --json) or one snapshot (snapshot --json).",
	 report_opts, 0, "summarise a recording or a result"},
	{"learn", cmd_learn,
	 "learn [N|all] [--auto] [--demo[=WORLD]]\n"
	 "[--record FILE [--record-format auto|json|zstd]]",
	 NULL, learn_opts, CMD_SYSROOT | CMD_WRITES,
	 "guided exercises"}, /* an engine per lesson's board */
	{"world", cmd_world,
	 "world --list\n"
	 "world [--seed N] NAME DIR\n"
	 "world [--run SEC]",
	 "SIMULATED boards whose application's latency follows the knobs (doc/teach.md\n"
	 "\"Worlds\"). NAME DIR unpacks a world into DIR; then every command with\n"
	 "--root DIR acts on it, and the world steps as time passes (ab steps it\n"
	 "while it measures). With --root and no NAME: the world's state.",
	 world_opts, 0, "simulated boards whose latency follows the knobs"},
	{"probe", cmd_probe,
	 "probe [--cpus LIST] [-i US] [-D SEC] [--prio N]\n"
	 "[--policy fifo|rr|other] [--dma-latency US] [--json]\n"
	 "[--summary SEC] [--histfile FILE]\n"
	 "[--break US [--break-trace FILE]]\n"
	 "[--why [--why-over US] [--events FILE]]\n"
	 "probe --rpmsg DEV [--rpmsg-size N] [--rpmsg-interval-us US]\n"
	 "[--rpmsg-timeout-ms MS] [-D SEC] [--json] [--summary SEC]",
	 "Measure wake-up latency: one pinned thread per CPU sleeps on absolute\n"
	 "deadlines (clock_nanosleep, CLOCK_MONOTONIC) and records wake time -\n"
	 "deadline. Ctrl-C stops early and prints the results. See doc/probe.md.\n"
	 "With --root on a world (tunetop world): the world's SIMULATED wake-ups.",
	 probe_opts, CMD_SYSROOT | CMD_WRITES | CMD_PRIV,
	 "measure wake-up latency"}, /* the root only for --break */
	{"ab", cmd_ab,
	 "ab ADDRESS=A,B[,C...] [--window SEC] [--settle MS] [--rounds N]\n"
	 "[--cpus LIST] [--load SPEC] [--cmd CMD [--metric REGEX]]\n"
	 "[--json] [--seed N] [--metric-file LOG --metric REGEX]\n"
	 "[-i US] [--prio N] [--policy fifo|rr|other]\n"
	 "[--primary p99|p50|mean|metric]\n"
	 "[--why [--why-over US]]\n"
	 "ab --aa ADDRESS[=VALUE] [options as above]",
	 "Flip a knob between A and B in rounds of 4 windows (A B B A, B A A B),\n"
	 "discard the settle time after each switch, measure each window and put the\n"
	 "original value back; the arms are compared window by window with 95%\n"
	 "intervals from a permutation test, p-values adjusted by Holm. A sweep,\n"
	 "ADDRESS=V1,...,V8, compares each value with V1. See doc/ab.md.",
	 ab_opts, CMD_SYSROOT | CMD_ENGINE | CMD_WRITES | CMD_PRIV,
	 "A/B a knob in alternating windows"},
	{"why", cmd_why, "why FILE [--json] [--why-over US] [--worst N]\n[--housekeeping LIST]",
	 "Attribute the late wake-ups of a saved event stream (probe --why --events\n"
	 "FILE) to their causes, ranked, each with its fix.",
	 why_opts, 0, "why late wake-ups of a saved event stream were late"},
	{"knobs", cmd_knobs, "knobs [--long|--json] [PATTERN...]", NULL, knobs_opts,
	 CMD_SYSROOT | CMD_ENGINE, "list knob addresses and values"},
	{"get", cmd_get, "get PATTERN...", NULL, no_opts, CMD_SYSROOT | CMD_ENGINE,
	 "print knob values"},
	{"set", cmd_set, "set [--dry-run] [--verify MS | --no-verify] ADDRESS=VALUE...", NULL,
	 set_opts, CMD_SYSROOT | CMD_ENGINE | CMD_WRITES, "change knobs (journaled)"},
	{"apply", cmd_apply,
	 "apply [--dry-run] [--force] [--verify MS | --no-verify] PROFILE\n"
	 "apply --list",
	 NULL, apply_opts, CMD_SYSROOT | CMD_ENGINE | CMD_WRITES, "apply a profile"},
	{"undo", cmd_undo, "undo [--force] [--dry-run] [ID | -n N]", NULL, undo_opts,
	 CMD_SYSROOT | CMD_ENGINE | CMD_WRITES, "undo journaled changes"},
	{"restore", cmd_restore, "restore [--orphans] [--force] [--dry-run]", NULL, restore_opts,
	 CMD_SYSROOT | CMD_ENGINE | CMD_WRITES, "undo every change"},
	{"journal", cmd_journal, "journal [--json]", NULL, journal_opts, CMD_SYSROOT | CMD_ENGINE,
	 "show the undo journal"},
	{"exec", cmd_exec,
	 "exec [-p PROFILE]... [--force] [ADDRESS=VALUE...]\n"
	 "[--cpus LIST] [--fifo PRIO | --rr PRIO | --nice N]\n"
	 "[--no-follow | --pidfile FILE] [--hold off|report|reassert]\n"
	 "[--metric REGEX [--json]] [--dry-run] [-q] -- CMD [ARGS]",
	 "Set the knobs, run CMD with the placement, restore when it and its\n"
	 "descendants are gone.",
	 exec_opts, CMD_SYSROOT | CMD_ENGINE | CMD_WRITES | CMD_PRIV,
	 "run a command with knobs set and placement"}, /* PRIV: a cgroup to follow CMD */
};

const size_t cmd_count = sizeof(cmd_table) / sizeof(cmd_table[0]);

const struct cmd_entry *cmd_find(const char *name)
{
	return str_table_find(cmd_table, cmd_count, sizeof(cmd_table[0]),
			      offsetof(struct cmd_entry, name), name);
}

/* The synopsis, each form after lead ("usage: tunetop " then "       tunetop "
 * or "  tunetop "), continuation lines aligned after "tunetop NAME ". */
void cmd_print_synopsis(const struct cmd_entry *c, const char *lead, const char *next, FILE *f)
{
	const char *p = c->synopsis;
	size_t nl = strlen(c->name);
	int cont = (int)(strlen(next) + nl + 1);
	bool first = true;

	while (*p) {
		size_t n = strcspn(p, "\n");

		if (!strncmp(p, c->name, nl) && (p[nl] == ' ' || p[nl] == '\n' || !p[nl])) {
			fprintf(f, "%s%.*s\n", first ? lead : next, (int)n, p);
			first = false;
		} else {
			fprintf(f, "%*s%.*s\n", cont, "", (int)n, p);
		}
		p += n;
		if (*p)
			p++;
	}
}

void cmd_help(const struct cmd_entry *c, FILE *f)
{
	cmd_print_synopsis(c, "usage: tunetop ", "       tunetop ", f);
	if (c->about)
		fprintf(f, "%s\n", c->about);
	if (c->opts[0].name)
		fputs("Options:\n", f);
	for (const struct cmd_opt *op = c->opts; op->name; op++) {
		int w = (int)strlen(op->name);

		fprintf(f, "  %s%*s%s\n", op->name, w < 22 ? 24 - w : 2, "", op->help);
	}
	fputs("  -h, --help              this help\n", f);
}

int cmd_usage(const char *name)
{
	const struct cmd_entry *c = cmd_find(name);

	assert(c);
	cmd_print_synopsis(c, "usage: tunetop ", "       tunetop ", stderr);
	fprintf(stderr, "(tunetop %s --help for its options)\n", name);
	return 2;
}

int cmd_print_help(const char *name, FILE *f)
{
	const struct cmd_entry *c = cmd_find(name);

	assert(c);
	cmd_help(c, f);
	return 0;
}

/* One table row as getopt's: "-x, --long ARG", "--long[=ARG]", "-x ARG".
 * The short letter (0 if none) into *sc; the long option into lo (name
 * NULL if none), its argument kind from what follows the name. */
static void opt_parse(const struct cmd_opt *op, int *sc, struct option *lo)
{
	const char *p = op->name;
	int arg;

	*sc = 0;
	*lo = (struct option){NULL, no_argument, NULL, op->val};
	if (p[0] == '-' && p[1] != '-') {
		*sc = (unsigned char)p[1];
		lo->val = *sc;
		p += 2;
		if (!strncmp(p, ", ", 2))
			p += 2;
	}
	if (!strncmp(p, "--", 2)) {
		p += 2;
		lo->name = p;
		p += strcspn(p, " [");
	}
	arg = *p == ' ' ? required_argument : *p == '[' ? optional_argument : no_argument;
	lo->has_arg = arg;
}

/* The entry's options as getopt's, into cx (once): the short letters after
 * a ':' (cmd_getopt drops it unless opterr is 0), the long ones with their
 * names copied out of the table's strings, -h and --help last. */
static void opts_build(struct cmd_ctx *cx)
{
	size_t nl = 0, ns = 1, nv = 0;
	char *so = cx->so, vals[CMD_OPTS_MAX];

	so[0] = ':';
	for (const struct cmd_opt *op = cx->c->opts; op->name; op++) {
		struct option lo;
		int sc;

		opt_parse(op, &sc, &lo);
		assert(nv < CMD_OPTS_MAX && lo.val > 0 && lo.val < 256 && lo.val != 'h' &&
		       !memchr(vals, lo.val, nv)); /* what getopt returns is one option's */
		vals[nv++] = (char)lo.val;
		if (sc) {
			so[ns++] = (char)sc;
			if (lo.has_arg != no_argument)
				so[ns++] = ':';
			if (lo.has_arg == optional_argument)
				so[ns++] = ':';
		}
		if (lo.name) { /* not a short-only one ("-n N") */
			size_t n = strcspn(lo.name, " [");

			assert(n < sizeof(cx->names[0]));
			memcpy(cx->names[nl], lo.name, n);
			cx->names[nl][n] = 0;
			lo.name = cx->names[nl];
			cx->lo[nl++] = lo;
		}
	}
	so[ns++] = 'h';
	so[ns] = 0;
	cx->lo[nl++] = (struct option){"help", no_argument, NULL, 'h'};
	cx->lo[nl] = (struct option){NULL, 0, NULL, 0};
}

int cmd_getopt(struct cmd_ctx *cx, int argc, char **argv)
{
	if (!cx->so[0])
		opts_build(cx);
	return getopt_long(argc, argv, cx->so + (opterr ? 1 : 0), cx->lo, NULL);
}

int cmd_run(const struct cmd_entry *c, const struct tt_opts *o, int argc, char **argv)
{
	/* argv[0] is "tunetop CMD": getopt_long's own messages ("unrecognized
	   option") then carry the prefix of cmd_error() */
	char name[64];

	struct cmd_ctx cx = {.o = o, .c = c};
	int rc;

	snprintf(name, sizeof(name), "tunetop %s", c->name);
	argv[0] = name;
	rc = c->fn(&cx, argc, argv);
	cmd_teardown(&cx);
	return rc;
}
