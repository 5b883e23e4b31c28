/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The batch front end: `snapshot`, `watch` and `capture`. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/common.h"
#include "cmd/cmd.h"
#include "core/appmetric.h"
#include "core/err.h"
#include "core/json.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "knob/knob.h"
#include "model/record.h"
#include "model/selfplace.h"
#include "model/snapshot.h"
#include "out/openmetrics.h"
#include "out/report.h"
#include "source/threads.h"
#include "sysfs/capture.h"
#include "sysfs/logfollow.h"
#include "sysfs/tarw.h"
#include "sysfs/userfile.h"

enum fmt { FMT_TEXT, FMT_JSON, FMT_CSV };

/* Files the root refused to read (a symlink that leaves a --root tree, a
 * file over 16 MiB): one line each on stderr, once per file. */
static void tell_refused(const char *cmd, const struct sysroot *r)
{
	struct sbuf b;
	char *save = NULL;

	sbuf_init(&b);
	if (sysroot_refused(r, &b))
		for (char *l = strtok_r(b.s, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			cmd_error(cmd, 0, "%s; not read", str_ctl(l));
	sbuf_free(&b);
}

/* --json or --csv: one output format; both is a usage error (-EINVAL). */
static int pick_fmt(const char *cmd, enum fmt *f, enum fmt want)
{
	if (*f != FMT_TEXT && *f != want) {
		cmd_error(cmd, 0, "--json and --csv are mutually exclusive (one output format)");
		return -EINVAL;
	}
	*f = want;
	return 0;
}

static int parse_ms(const char *s, const char *cmd, const char *opt, long *out)
{
	int64_t v;

	if (str_to_i64(s, &v) || v < 0 || v > 3600 * 1000) {
		cmd_error(cmd, 0, "%s wants milliseconds (0..3600000), not '%s'", opt, s);
		return -EINVAL;
	}
	*out = (long)v;
	return 0;
}

struct watch_metric;
static void watch_metric_emit(struct watch_metric *wm, enum fmt f, struct sbuf *b);

static void emit_with(enum fmt f, const struct snapshot *s, const struct report_opts *ro,
		      bool header, struct watch_metric *wm)
{
	struct sbuf b;

	sbuf_init(&b);
	if (f == FMT_JSON) {
		b.sink = stdout; /* streamed: 1 MB a sample at 256 CPUs */
		report_json(&b, s, ro);
	} else if (f == FMT_CSV) {
		if (header)
			report_csv_header(&b, s);
		report_csv(&b, s, ro);
	} else {
		report_text(&b, s, ro);
	}
	if (wm)
		watch_metric_emit(wm, f, &b);
	if (f == FMT_JSON)
		fwrite(b.s, 1, b.len, stdout);
	else /* names from the tree: control characters as \x1b */
		str_fwrite_text(b.s, b.len, stdout);
	fflush(stdout);
	sbuf_free(&b);
}

static void emit(enum fmt f, const struct snapshot *s, const struct report_opts *ro, bool header)
{
	emit_with(f, s, ro, header, NULL);
}

/* The topology could not be read: no cpuN directories (ENOENT), or a
 * directory we may not read (EACCES), which is not the same thing. */
static void no_cpus(const char *cmd, const struct sysroot *r, int e)
{
	char abs[TT_PATH_MAX];

	sysroot_abspath(r, "sys/devices/system/cpu", abs, sizeof(abs));
	if (e == -ENOENT)
		cmd_error(cmd, 0, "%s: no CPUs found under %s (ENOENT)", r->path,
			  "sys/devices/system/cpu");
	else
		cmd_error(cmd, 0, "%s from %s: cannot list the CPUs", err_name(e), abs);
}

/* design §8 "journal": the undo journal's entries for this root, read
 * without the lock and without creating the state dir (none = no entries). */
void report_journal_counts(const struct cmd_ctx *cx, struct report_opts *ro)
{
	struct knob_ctx *ctx = NULL;
	struct knob_jentry *e = NULL;
	size_t n = 0;
	int torn = 0;

	ro->have_journal = true;
	if (cmd_engine_peek(cx, &ctx) != 0)
		goto na;
	if (!knob_ctx_state_dir(ctx)) {
		/* a state dir that does not exist holds no journal */
		int why = knob_ctx_state_err(ctx);

		knob_ctx_close(ctx);
		if (why == -ENOENT)
			return;
		goto na;
	}
	if (knob_journal_list(ctx, &e, &n, &torn, NULL) != 0) {
		knob_ctx_close(ctx);
		goto na;
	}
	for (size_t i = 0; i < n; i++) {
		if (!e[i].this_root)
			continue;
		ro->journal_entries++;
		ro->journal_active += e[i].state == KNOB_J_ACTIVE;
		ro->journal_orphaned += e[i].orphaned;
	}
	knob_journal_free(e, n);
	knob_ctx_close(ctx);
	return;
na:
	ro->journal_na = true;
}

/* --latency-budget US: the wake-up latency the findings judge idle exit
 * latencies (and probe misses) against, as the TUI's latency_budget_us. */
static int parse_budget(const char *arg, const char *cmd, struct findings_opts *fo)
{
	int64_t us;

	if (str_to_i64(arg, &us) || us < 1 || us > 10000000) {
		cmd_error(cmd, 0, "--latency-budget wants microseconds (1..10000000), not '%s'",
			  arg);
		return -EINVAL;
	}
	fo->latency_budget_us = (double)us;
	return 0;
}

/* --events LIST: every name checked before sampling (the same check as the
 * tunetoprc events= key, perf_events_parse): an empty item, a duplicate or
 * an unknown name is one line on stderr and -EINVAL (exit 2). */
static int parse_events(const char *cmd, const char *list, char ***out)
{
	char why[PERF_REASON_LEN];
	char **v = NULL;

	perf_events_free(*out);
	*out = NULL;
	if (perf_events_parse(list, &v, why, sizeof(why)) != 0) {
		cmd_error(cmd, 0, "%s", why);
		return -EINVAL;
	}
	if (!v) {
		cmd_error(cmd, 0, "--events wants a comma-separated list");
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* What snapshot and watch both take: the format, the counters, the events
 * and the latency budget (their report options). */
struct report_args {
	enum fmt *f;
	bool *counters;
	char ***events;
	struct report_opts *ro;
	struct findings_opts *fo;
};

/* One of the shared options: 1 when c was one (stored), 0 when not, -1
 * after the error line. */
static int report_opt(const char *cmd, int c, const char *v, const struct report_args *a)
{
	switch (c) {
	case 'j': return pick_fmt(cmd, a->f, FMT_JSON) ? -1 : 1;
	case 'c': return pick_fmt(cmd, a->f, FMT_CSV) ? -1 : 1;
	case 's': a->ro->stable = true; return 1;
	case 'C': *a->counters = true; return 1;
	case 'E':
		if (parse_events(cmd, v, a->events))
			return -1;
		*a->counters = true;
		return 1;
	case 'B':
		if (parse_budget(v, cmd, a->fo))
			return -1;
		a->ro->findings_opts = a->fo;
		return 1;
	default: return 0;
	}
}

static void free_events(char **v)
{
	perf_events_free(v);
}

int cmd_snapshot(struct cmd_ctx *cx, int argc, char **argv)
{
	const struct tt_opts *o = cx->o;
	enum fmt f = FMT_TEXT;
	long interval_ms = 500;
	struct report_opts ro = {0};
	struct findings_opts fo;
	struct sysroot *r = &cx->root;
	struct sampler sm;
	bool counters = false, threads = false;
	char **events = NULL;
	int64_t tid = 0;
	struct perf_set tset;
	bool tset_open = false;
	struct thread_table tt[2];
	int c, e, rc = 0;
	const struct report_args shared = {&f, &counters, &events, &ro, &fo};

	memset(tt, 0, sizeof(tt));
	findings_opts_default(&fo);
	optind = 1;
	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		int took = report_opt("snapshot", c, optarg, &shared);

		if (took < 0)
			goto usage_err;
		if (took)
			continue;
		switch (c) {
		case 'i':
			if (parse_ms(optarg, "snapshot", "--interval", &interval_ms))
				goto usage_err;
			break;
		case 'p': ro.pretty = true; break;
		case 'T':
			if (str_to_i64(optarg, &tid) || tid <= 0 || tid > 0x3fffffff) {
				cmd_error("snapshot", 0, "--thread wants a thread id, not '%s'",
					  optarg);
				goto usage_err;
			}
			break;
		case 'A':
			threads = true;
			if (optarg && strcmp(optarg, "all")) {
				cmd_error("snapshot", 0,
					  "--threads takes no value or 'all', not '%s'", optarg);
				goto usage_err;
			}
			ro.threads_interesting = !optarg;
			break;
		case 'I': ro.irqs_text = true; break;
		case 'h':
			cmd_print_help("snapshot", stdout);
			free_events(events);
			return 0;
		default: cmd_usage("snapshot"); goto usage_err;
		}
	}
	if (optind < argc) {
		cmd_error("snapshot", 0, "unexpected argument '%s'", argv[optind]);
		goto usage_err;
	}
	if (cmd_setup(cx, 0)) {
		free_events(events);
		return 1;
	}
	ro.root_path = r->path;
	ro.interval_ms = (double)interval_ms;
	if (f == FMT_JSON)
		report_journal_counts(cx, &ro);
	sampler_init(&sm, r, SNAP_ALL);
	sm.clk_names = o->clocks;
	if (tid && !r->live) {
		/* a tree's thread is files: perf would count the host's tid */
		fprintf(stderr,
			"tunetop snapshot: --thread %lld: perf counts this machine's threads, not "
			"those of --root %s\n",
			(long long)tid, r->path);
		rc = 1;
		goto out;
	}
	if (tid) {
		char *cause = NULL;

		if (perf_open_thread(&tset, (pid_t)tid, (const char *const *)events, &cause) != 0 &&
		    tset.nev == 0) {
			cmd_error("snapshot", 0, "--thread %lld: %s", (long long)tid,
				  cause ? cause : "cannot count this thread");
			free(cause);
			rc = 1;
			goto out;
		}
		free(cause);
		tset_open = true;
		perf_sample(&tset);
	} else if (counters) {
		sampler_counters(&sm, (const char *const *)events);
	}
	if (threads)
		threads_read(r, THREADS_KERNEL | THREADS_SCHED_FILE | THREADS_WAIT, &tt[0]);
	e = sampler_tick(&sm);
	if (!e && interval_ms > 0) {
		time_sleep_ns((uint64_t)interval_ms * 1000000ULL);
		e = sampler_tick(&sm);
	}
	if (e) {
		no_cpus("snapshot", r, e);
		rc = 1;
		goto out;
	}
	if (threads) {
		threads_read(r, THREADS_KERNEL | THREADS_SCHED_FILE | THREADS_WAIT, &tt[1]);
		threads_derive(&tt[1], &tt[0], (double)interval_ms / 1000.0, sysconf(_SC_CLK_TCK));
		ro.threads = &tt[1];
	}
	if (tset_open) {
		perf_sample(&tset);
		sm.snap[sm.cur].perf = &tset;
	}
	tell_refused("snapshot", r);
	emit(f, sampler_cur(&sm), &ro, true);
out:
	if (tset_open)
		perf_close(&tset);
	threads_free(&tt[0]);
	threads_free(&tt[1]);
	sampler_free(&sm);
	free_events(events);
	return rc;
usage_err:
	free_events(events);
	return 2;
}

static volatile sig_atomic_t watch_stop;

#define WATCH_METRIC_POLL_NS 100000000ull /* --metric-file: read the log every 100 ms */

/* watch --metric-file LOG --metric REGEX: the numbers of the interval's new
 * log lines, summarized per record. */
struct watch_metric {
	const char *path, *regex;
	struct logfollow lf;
	struct appmetric am;
	bool failed;
};

static void watch_metric_line(void *arg, const char *line, size_t len)
{
	(void)len;
	appmetric_line(arg, line);
}

/* false once the log is gone (the one line is printed) */
static bool watch_metric_poll(struct watch_metric *wm)
{
	if (!wm || wm->failed)
		return !wm || !wm->failed;
	if (logfollow_poll(&wm->lf, watch_metric_line, &wm->am)) {
		cmd_error("watch", 0, "%s", logfollow_why(&wm->lf));
		wm->failed = true;
		return false;
	}
	return true;
}

static void watch_metric_free(struct watch_metric *wm)
{
	if (!wm)
		return;
	logfollow_close(&wm->lf);
	appmetric_free(&wm->am);
}

static void jnum(struct sbuf *b, const char *key, double v)
{
	if (isnan(v))
		sbuf_printf(b, ",\"%s\":null", key);
	else
		sbuf_printf(b, ",\"%s\":%.6g", key, v);
}

static void tnum(struct sbuf *b, const char *key, double v)
{
	if (isnan(v))
		sbuf_printf(b, " %s=n/a", key);
	else
		sbuf_printf(b, " %s=%.6g", key, v);
}

/* The interval's numbers into the record (JSON: an "app_metric" member of
 * the line; text: one more line), then start a new interval. */
static void watch_metric_emit(struct watch_metric *wm, enum fmt f, struct sbuf *b)
{
	struct appmetric_summary s;
	struct sbuf m;

	appmetric_summary(&wm->am, 0, &s);
	sbuf_init(&m);
	if (f == FMT_JSON) {
		size_t end = b->len;

		while (end && b->s[end - 1] != '}')
			end--;
		if (!end)
			goto out;
		sbuf_puts(&m, ",\"app_metric\":{\"file\":");
		json_escape(&m, wm->path);
		sbuf_puts(&m, ",\"metric\":");
		json_escape(&m, wm->regex);
		sbuf_printf(&m, ",\"count\":%zu", wm->am.n);
		jnum(&m, "last", wm->am.last);
		jnum(&m, "p50", s.p50);
		jnum(&m, "p99", s.p99);
		jnum(&m, "max", s.max);
		sbuf_puts(&m, "}");
		sbuf_puts(&m, b->s + end - 1); /* the closing brace and what follows */
		b->len = end - 1;
		b->s[b->len] = '\0';
		sbuf_puts(b, m.s);
	} else {
		sbuf_printf(b, "app metric %s: count=%zu", wm->path, wm->am.n);
		tnum(b, "last", wm->am.last);
		tnum(b, "p50", s.p50);
		tnum(b, "p99", s.p99);
		tnum(b, "max", s.max);
		sbuf_putc(b, '\n');
	}
out:
	sbuf_free(&m);
	wm->am.n = 0;
	wm->am.last = NAN;
}

static void on_stop(int sig)
{
	(void)sig;
	watch_stop = 1;
}

/* --metric-file LOG --metric REGEX: 0, or the exit status (2: a bad regex,
 * 1: LOG cannot be followed), said in one line. */
static int watch_metric_open(struct watch_metric *wmb, const char *metric_file, const char *metric)
{
	char why[300];

	if (appmetric_init(&wmb->am, metric, why, sizeof(why))) {
		cmd_error("watch", 0, "%s", why);
		return 2;
	}
	wmb->path = metric_file;
	wmb->regex = metric;
	wmb->failed = false;
	if (logfollow_open(&wmb->lf, metric_file, NULL)) {
		cmd_error("watch", 0, "%s", logfollow_why(&wmb->lf));
		logfollow_close(&wmb->lf);
		appmetric_free(&wmb->am);
		return 1;
	}
	return 0;
}

/* The monitor's own placement, off the CPUs under study: 0, or -EINVAL
 * (said) for a bad --self-cpus / TUNETOP_SELF_NICE. */
static int watch_self_place(const struct tt_opts *o)
{
	struct self_place sp;
	char why[200];

	if (self_place_parse(o->self_cpus,
			     o->self_nice ? o->self_nice : getenv("TUNETOP_SELF_NICE"), &sp, why,
			     sizeof(why)) != 0) {
		cmd_error("watch", 0, "%s", why);
		return -EINVAL;
	}
	if (self_place_apply(&sp, NULL) != 0 || sp.err[0])
		cmd_error("watch", 0, "self placement: %s", sp.err);
	return 0;
}

/* --openmetrics FILE: the sample as metrics, FILE rewritten (a failure is
 * said, and the next interval tries again). */
static void watch_openmetrics(const struct cmd_ctx *cx, struct report_opts *ro, struct sampler *sm,
			      const char *om_path)
{
	struct sbuf om;
	int we;

	sbuf_init(&om);
	report_journal_counts(cx, ro);
	openmetrics_write(&om, sampler_cur(sm), ro, NULL, OM_PROMTEXT);
	ro->journal_entries = ro->journal_active = ro->journal_orphaned = 0;
	ro->journal_na = ro->have_journal = false;
	if ((we = openmetrics_write_file(om_path, om.s, om.len)) != 0)
		cmd_error("watch", 0, "--openmetrics %s: %s", om_path,
			  userfile_strerror(we, USERFILE_MAX_TEXT));
	sbuf_free(&om);
}

int cmd_watch(struct cmd_ctx *cx, int argc, char **argv)
{
	const struct tt_opts *o = cx->o;
	struct watch_metric wmb, *wm = NULL;
	const char *metric_file = NULL, *metric = NULL;
	enum fmt f = FMT_TEXT;
	bool counters = false;
	char **events = NULL;
	const char *om_path = NULL;
	long interval_ms = 1000;
	int64_t count = -1;
	struct report_opts ro = {0};
	struct findings_opts fo;
	struct sysroot *r = &cx->root;
	struct sampler sm;
	struct sigaction sa;
	int c, e = 0;
	uint64_t next;
	const char *record_path = NULL;
	struct recorder *rec = NULL;
	enum record_format rfmt = RECORD_FMT_AUTO;
	bool to_stdout;
	const struct report_args shared = {&f, &counters, &events, &ro, &fo};

	findings_opts_default(&fo);
	optind = 1;
	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		int took = report_opt("watch", c, optarg, &shared);

		if (took < 0)
			return 2;
		if (took)
			continue;
		switch (c) {
		case 'i':
			if (parse_ms(optarg, "watch", "-i", &interval_ms))
				return 2;
			if (interval_ms < 10) {
				cmd_error("watch", 0, "-i must be at least 10 ms");
				return 2;
			}
			break;
		case 'n':
			if (str_to_i64(optarg, &count) || count < 1) {
				cmd_error("watch", 0, "-n wants a positive count, not '%s'",
					  optarg);
				return 2;
			}
			break;
		case 'R': record_path = optarg; break;
		case 'O': om_path = optarg; break;
		case 'M': metric_file = optarg; break;
		case 'm': metric = optarg; break;
		case 'F':
			if (cmd_record_format("watch", optarg, &rfmt) != 0)
				return 2;
			break;
		case 'h': return cmd_print_help("watch", stdout);
		default: return 2;
		}
	}
	if (optind < argc) {
		cmd_error("watch", 0, "unexpected argument '%s'", argv[optind]);
		return 2;
	}
	if (!metric_file != !metric) {
		cmd_error("watch", 0, "%s",
			  metric ? "--metric needs --metric-file LOG"
				 : "--metric-file needs --metric REGEX");
		return 2;
	}
	if (metric_file && f == FMT_CSV) {
		cmd_error("watch", 0, "--metric-file: text or --json, not --csv");
		return 2;
	}
	if (metric_file) {
		if ((e = watch_metric_open(&wmb, metric_file, metric)) != 0)
			return e;
		wm = &wmb;
	}
	/* --record -: the recording is the standard output; the samples are not
	   printed (they are in it) */
	to_stdout = record_path && !strcmp(record_path, "-");
	if (watch_self_place(o) != 0)
		return 2;
	if (cmd_setup(cx, 0)) {
		watch_metric_free(wm);
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ro.root_path = r->path;
	ro.interval_ms = (double)interval_ms;
	sampler_init(&sm, r, SNAP_ALL);
	sm.clk_names = o->clocks;
	if (counters)
		sampler_counters(&sm, (const char *const *)events);
	if ((e = sampler_tick(&sm)) != 0) {
		no_cpus("watch", r, e);
		watch_metric_free(wm);
		sampler_free(&sm);
		return 1;
	}
	if (record_path) {
		struct record_meta meta = {.source = "watch",
					   .root_path = r->path,
					   .interval_ms = (double)interval_ms,
					   .journal_root = r,
					   .state_dir = o->state_dir,
					   .format = rfmt,
					   .snapshot_json = report_record_json};
		char *cause = NULL;

		if (record_open(&rec, record_path, &meta, &cause) != 0) {
			cmd_error("watch", 0, "%s", cause);
			free(cause);
			watch_metric_free(wm);
			sampler_free(&sm);
			free_events(events);
			return 1;
		}
	}
	next = time_mono_ns();
	for (int64_t i = 0; (count < 0 || i < count) && !watch_stop; i++) {
		uint64_t now;

		next += (uint64_t)interval_ms * 1000000ULL;
		now = time_mono_ns();
		while (next > now && !watch_stop) {
			uint64_t d = next - now;

			if (wm && d > WATCH_METRIC_POLL_NS)
				d = WATCH_METRIC_POLL_NS; /* follow the log between records */
			time_sleep_ns(d);
			if (!watch_metric_poll(wm))
				break;
			now = time_mono_ns();
		}
		if (watch_stop)
			break;
		if (wm && wm->failed) {
			e = -ENOENT;
			break;
		}
		if ((e = sampler_tick(&sm)) != 0)
			break;
		tell_refused("watch", r);
		if (!to_stdout)
			emit_with(f, sampler_cur(&sm), &ro, i == 0, wm);
		else if (wm) /* --record -: the samples (and the metric) are not printed */
			wm->am.n = 0;
		if (om_path)
			watch_openmetrics(cx, &ro, &sm, om_path);
		if (rec)
			record_sample_with(rec, sampler_cur(&sm), NULL, NULL, ro.findings_opts);
	}
	if (rec && record_close(rec) != 0) {
		cmd_error("watch", 0, "%s: write error, the recording is incomplete", record_path);
		e = e ? e : -EIO;
	}
	watch_metric_free(wm);
	sampler_free(&sm);
	free_events(events);
	return e ? 1 : 0;
}

/* capture: sample once with an observer that records every path read. */
struct pathset {
	char **p;
	size_t n, cap;
};

static void record(void *ctx, const char *path)
{
	struct pathset *ps = ctx;

	for (size_t i = ps->n; i-- > 0 && i + 64 >= ps->n;)
		if (!strcmp(ps->p[i], path))
			return;
	ps->p = xgrow(ps->p, &ps->cap, ps->n + 1, sizeof(char *));
	ps->p[ps->n++] = xstrdup(path);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int cmd_capture(struct cmd_ctx *cx, int argc, char **argv)
{
	const struct tt_opts *o = cx->o;
	struct sysroot *r = &cx->root;
	struct snapshot s;
	struct pathset ps = {0};
	struct capture cap;
	const char *out;
	char outabs[TT_PATH_MAX], tmpdir[TT_PATH_MAX] = "";
	bool to_stdout, incomplete = false;
	FILE *msg;
	int e;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		return cmd_print_help("capture", stdout);
	}
	if (argc != 2 || (argv[1][0] == '-' && argv[1][1])) {
		return cmd_usage("capture");
	}
	out = argv[1];
	to_stdout = !strcmp(out, "-");
	msg = to_stdout ? stderr : stdout;
	if (to_stdout && isatty(STDOUT_FILENO)) {
		cmd_error("capture", 0,
			  "-: standard output is a terminal; redirect the tar stream (capture - "
			  ">FILE.tar)");
		return 2;
	}
	if (cmd_setup(cx, 0))
		return 1;
	if (to_stdout) {
		/* captured into a private temporary directory, then streamed */
		const char *t = getenv("TMPDIR");

		snprintf(tmpdir, sizeof(tmpdir), "%s/tunetop-capture.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(tmpdir)) {
			cmd_error("capture", -errno, "cannot create a temporary directory %s",
				  tmpdir);
			return 1;
		}
		out = tmpdir;
		outabs[0] = '\0';
	} else if (!realpath(out, outabs)) {
		/* Not there yet: resolve its parent. */
		char parent[TT_PATH_MAX], *slash;

		str_copy(parent, sizeof(parent), out);
		slash = strrchr(parent, '/');
		if (slash && slash != parent)
			*slash = '\0';
		else
			str_copy(parent, sizeof(parent), ".");
		if (!realpath(parent, outabs))
			outabs[0] = '\0';
	}
	if (outabs[0] && !r->live && !strncmp(outabs, r->path, strlen(r->path)) &&
	    (outabs[strlen(r->path)] == '/' || outabs[strlen(r->path)] == '\0')) {
		cmd_error("capture", 0, "%s is inside the root %s", out, r->path);
		return 2;
	}
	r->on_read = record;
	r->on_read_ctx = &ps;
	e = snapshot_take_clocks(r, SNAP_ALL, o->clocks, &s);
	r->on_read = NULL;
	if (e) {
		no_cpus("capture", r, e);
		return 1;
	}
	snapshot_free(&s);
	if ((e = capture_open(&cap, r, out)) != 0) {
		cmd_error("capture", e, "cannot create %s", out);
		if (tmpdir[0])
			tarw_rmtree(tmpdir);
		return 1;
	}
	qsort(ps.p, ps.n, sizeof(char *), cmp_str);
	for (size_t i = 0; i < ps.n; i++) {
		if (i && !strcmp(ps.p[i], ps.p[i - 1]))
			continue;
		capture_path(&cap, ps.p[i]);
	}
	fprintf(msg, "captured %zu files and %zu symlinks from %s into %s\n", cap.nfiles,
		cap.nlinks, r->path, to_stdout ? "a tar stream on standard output" : out);
	if (cap.skipped.len) {
		fputs("skipped (unreadable):\n", msg);
		str_fwrite_text(cap.skipped.s, cap.skipped.len, msg);
	}
	if (cap.nfailed) {
		/* the copy is incomplete: exit 1 (man page, EXIT STATUS) */
		cmd_error("capture", 0, "%zu file%s not written into %s; the first: %s",
			  cap.nfailed, cap.nfailed == 1 ? "" : "s",
			  to_stdout ? "the temporary directory" : out, str_ctl(cap.failed.s));
		incomplete = true;
	}
	capture_close(&cap);
	if (to_stdout) {
		struct sbuf skipped;

		sbuf_init(&skipped);
		fflush(stdout);
		e = tarw_tree(tmpdir, STDOUT_FILENO, &skipped);
		if (skipped.len)
			fprintf(stderr, "tunetop capture: not in the tar stream:\n%s", skipped.s);
		if (e)
			cmd_error("capture", e, "-");
		sbuf_free(&skipped);
		tarw_rmtree(tmpdir);
	}
	for (size_t i = 0; i < ps.n; i++)
		free(ps.p[i]);
	free(ps.p);
	return e || incomplete ? 1 : 0;
}
