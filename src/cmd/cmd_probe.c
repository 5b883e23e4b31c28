/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `tunetop probe`: option parsing, running the probe for a duration or until
 * SIGINT/SIGTERM/SIGHUP, and the text (table + log-scaled ASCII histogram)
 * and JSON reports. The measuring itself is probe.c; numbers come from
 * histogram.c and stats.c. Soak runs: the periodic summary lines
 * (--summary, interval and cumulative), the cyclictest histogram file
 * (--histfile, histfile.c) and the break (--break, tracebreak.c for the
 * tracefs side). `--rpmsg DEV` measures round trips through an rpmsg tty
 * instead (rpmsg.c) with the same statistics, summaries and files. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "core/schema.h"
#include "core/cpumask.h"
#include "core/err.h"
#include "core/json.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "probe/histfile.h"
#include "probe/histogram.h"
#include "probe/probe.h"
#include "probe/rpmsg.h"
#include "probe/stats.h"
#include "probe/tracebreak.h"
#include "cmd/probe_opts.h"
#include "cmd/probe_why.h"
#include "model/world.h"
#include "model/world_probe.h"
#include "model/world_why.h"
#include "sysfs/sysroot.h"

#define BAR_WIDTH	50
#define MAX_HIST_CPUS	4 /* more CPUs: one histogram of all of them */
#define DEFAULT_SECONDS 10.0

/* ---- break (--break) ------------------------------------------------------ */

struct brk_report {
	uint64_t threshold_us; /* 0 = no --break */
	bool hit;
	bool rpmsg;   /* seq instead of cpu/tid */
	int cpu, tid; /* probe threads */
	uint64_t seq; /* rpmsg message */
	double latency_us;
	double at_s;	       /* since the start */
	double at_monotonic_s; /* CLOCK_MONOTONIC, to find it in the trace */
	bool tracing_stopped;
	const char *trace_file; /* saved there, NULL = not saved */
	char note[320];		/* why there is no trace; "" */
	char tracing_on[TT_PATH_MAX];
};

static void print_break(FILE *f, const struct brk_report *b)
{
	if (!b->threshold_us)
		return;
	if (!b->hit) {
		fprintf(f, "break: no %s over %llu us\n", b->rpmsg ? "round trip" : "wake-up",
			(unsigned long long)b->threshold_us);
		return;
	}
	if (b->rpmsg)
		fprintf(f,
			"break: message %llu took %.0f us at %.6f s (threshold %llu us; "
			"CLOCK_MONOTONIC %.6f)\n",
			(unsigned long long)b->seq, floor(b->latency_us), b->at_s,
			(unsigned long long)b->threshold_us, b->at_monotonic_s);
	else
		fprintf(f,
			"break: CPU %d (thread %d) woke %.0f us late at %.6f s (threshold %llu "
			"us; CLOCK_MONOTONIC %.6f)\n",
			b->cpu, b->tid, floor(b->latency_us), b->at_s,
			(unsigned long long)b->threshold_us, b->at_monotonic_s);
	if (b->tracing_stopped)
		fprintf(f, "break: tracing stopped (0 written to %s)\n", b->tracing_on);
	if (b->trace_file)
		fprintf(f, "break: trace saved to %s\n", b->trace_file);
	if (b->note[0])
		fprintf(f, "break: %s\n", b->note);
}

static void json_break(struct jw *w, const struct brk_report *b)
{
	if (!b->threshold_us) {
		jw_null(w, "break");
		return;
	}
	jw_obj_begin(w, "break");
	jw_uint(w, "threshold_us", b->threshold_us);
	jw_bool(w, "hit", b->hit);
	if (b->hit) {
		if (b->rpmsg) {
			jw_uint(w, "seq", b->seq);
		} else {
			jw_int(w, "cpu", b->cpu);
			jw_int(w, "tid", b->tid);
		}
		jw_double(w, "latency_us", b->latency_us, 3);
		jw_double(w, "at_s", b->at_s, 6);
		jw_double(w, "at_monotonic_s", b->at_monotonic_s, 6);
	}
	jw_bool(w, "tracing_stopped", b->tracing_stopped);
	jw_str(w, "trace_file", b->trace_file);
	jw_str_nz(w, "note", b->note);
	jw_obj_end(w);
}

/* ---- text report --------------------------------------------------------- */

struct row {
	uint64_t lo, hi; /* us; hi = HIST_INF_US for the last */
	uint64_t count;
};

/* Display rows: 1 us below 10 us, then 16 log-spaced rows per decade
 * (10 12 14 16 18 20 25 30 35 40 45 50 60 70 80 90) up to 1 s, then >= 1 s.
 * Every edge is a bucket edge, so rows are exact sums of buckets. */
static size_t make_rows(const struct hist *h, struct row *rows, size_t cap)
{
	static const unsigned steps[] = {10, 12, 14, 16, 18, 20, 25, 30,
					 35, 40, 45, 50, 60, 70, 80, 90};
	size_t n = 0;

	for (uint64_t v = 0; v < 10 && n < cap; v++)
		rows[n++] = (struct row){v, v + 1, 0};
	for (uint64_t dec = 1; dec <= 100000 && n < cap; dec *= 10)
		for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]) && n < cap; k++) {
			uint64_t lo = steps[k] * dec;
			uint64_t hi = k + 1 < sizeof(steps) / sizeof(steps[0]) ? steps[k + 1] * dec
									       : 100 * dec;

			rows[n++] = (struct row){lo, hi, 0};
		}
	if (n < cap)
		rows[n++] = (struct row){HIST_RANGE_US, HIST_INF_US, 0};
	for (int b = 0; b < HIST_NBUCKETS; b++) {
		uint64_t lo, hi;

		if (!h->bucket[b])
			continue;
		hist_bucket_range(b, &lo, &hi);
		for (size_t r = 0; r < n; r++)
			if (lo >= rows[r].lo && lo < rows[r].hi) {
				rows[r].count += h->bucket[b];
				break;
			}
	}
	return n;
}

static void print_histogram(FILE *f, const struct hist *h, const char *title)
{
	struct row rows[128];
	size_t n = make_rows(h, rows, sizeof(rows) / sizeof(rows[0]));
	size_t first = n, last = 0, r = 0;
	uint64_t cmax = 0;

	for (size_t i = 0; i < n; i++)
		if (rows[i].count) {
			if (first == n)
				first = i;
			last = i;
			if (rows[i].count > cmax)
				cmax = rows[i].count;
		}
	fprintf(f, "\nHistogram, %s (bar length log-scaled):\n", title);
	if (first == n) {
		fprintf(f, "  (no samples)\n");
		return;
	}
	fprintf(f, "%15s %10s\n", "latency us", "samples");
	for (r = first; r <= last; r++) {
		char label[40];
		int len;

		if (!rows[r].count) {
			size_t e = r;

			while (e + 1 <= last && !rows[e + 1].count)
				e++;
			if (e > r) { /* a run of empty rows */
				fprintf(f, "%15s\n", "...");
				r = e;
				continue;
			}
		}
		if (rows[r].hi == HIST_INF_US)
			snprintf(label, sizeof(label), ">= %llu", (unsigned long long)rows[r].lo);
		else if (rows[r].hi - rows[r].lo == 1)
			snprintf(label, sizeof(label), "%llu", (unsigned long long)rows[r].lo);
		else
			snprintf(label, sizeof(label), "%llu-%llu", (unsigned long long)rows[r].lo,
				 (unsigned long long)(rows[r].hi - 1));
		len = rows[r].count ? (int)ceil(BAR_WIDTH * log1p((double)rows[r].count) /
						log1p((double)cmax))
				    : 0;
		fprintf(f, "%15s %10llu |", label, (unsigned long long)rows[r].count);
		for (int k = 0; k < len; k++)
			fputc('#', f);
		fputc('\n', f);
	}
}

static void fmt_us(char *buf, size_t cap, double v, int dec)
{
	if (isnan(v))
		snprintf(buf, cap, "n/a");
	else if (dec)
		snprintf(buf, cap, "%.*f", dec, v);
	else
		snprintf(buf, cap, "%.0f", floor(v)); /* whole us, truncated like the buckets */
}

/* A histogram's summary as text: whole us (truncated like the buckets),
 * the mean with one decimal. */
struct summary_cols {
	char min[32], mean[32], p50[32], p90[32], p99[32], p999[32], max[32];
};

static void summary_cols(const struct hist *h, struct summary_cols *t)
{
	struct stats_summary s;

	stats_summarize_hist(h, &s);
	fmt_us(t->min, sizeof(t->min), s.min, 0);
	fmt_us(t->mean, sizeof(t->mean), s.mean, 1);
	fmt_us(t->p50, sizeof(t->p50), s.p50, 0);
	fmt_us(t->p90, sizeof(t->p90), s.p90, 0);
	fmt_us(t->p99, sizeof(t->p99), s.p99, 0);
	fmt_us(t->p999, sizeof(t->p999), s.p999, 0);
	fmt_us(t->max, sizeof(t->max), s.max, 0);
}

static void print_row(FILE *f, const char *name, const struct hist *h)
{
	struct summary_cols t;

	summary_cols(h, &t);
	fprintf(f, "%4s %9llu %7s %7s %7s %7s %7s %7s %7s %9llu\n", name,
		(unsigned long long)h->count, t.min, t.mean, t.p50, t.p90, t.p99, t.p999, t.max,
		(unsigned long long)h->overflows);
}

static void report_text(FILE *f, const struct probe *p, struct hist *h, const struct hist *all,
			double secs, bool interrupted, const struct brk_report *br,
			const struct whyrun *wr, struct world *world)
{
	char cpus[256], pol[64], qos[64];

	cpulist_format(&p->cfg.cpus, cpus, sizeof(cpus));
	if (p->dma_fd >= 0 || p->cfg.dma_latency_us >= 0)
		snprintf(qos, sizeof(qos), "cpu_dma_latency held at %d us", p->cfg.dma_latency_us);
	else
		snprintf(qos, sizeof(qos), "PM QoS untouched");
	if (world)
		fprintf(f,
			"tunetop probe: SIMULATED: world %s (%s), CPU %s, interval %llu us, %.1f "
			"simulated s: the world's model of a timer wake-up (doc/teach.md), not a "
			"measurement\n",
			world_def_of(world)->name, world_def_of(world)->board, cpus,
			(unsigned long long)p->cfg.interval_us, secs);
	else
		fprintf(f, "tunetop probe: CPUs %s, interval %llu us, %.1f s%s, %s, %s, %s\n", cpus,
			(unsigned long long)p->cfg.interval_us, secs,
			interrupted ? " (interrupted)" : "", probe_policy_text(p, pol, sizeof(pol)),
			p->mlocked ? "memory locked" : "memory NOT locked", qos);
	fprintf(f, "%4s %9s %7s %7s %7s %7s %7s %7s %7s %9s\n", "CPU", "samples", "min", "mean",
		"p50", "p90", "p99", "p99.9", "max", "overflows");
	for (int i = 0; i < p->n; i++) {
		char name[16];

		snprintf(name, sizeof(name), "%d", p->thr[i].cpu);
		print_row(f, name, &h[i]);
	}
	if (p->n > 1)
		print_row(f, "all", all);
	fprintf(f, "(latency in us: wake-up time - deadline; overflows = deadlines skipped)\n");
	print_break(f, br);
	if (p->n <= MAX_HIST_CPUS) {
		for (int i = 0; i < p->n; i++) {
			char title[32];

			snprintf(title, sizeof(title), "CPU %d", p->thr[i].cpu);
			print_histogram(f, &h[i], title);
		}
	} else {
		print_histogram(f, all, "all CPUs");
	}
	if (world && wr->on) {
		fprintf(f, "\nwhy (SIMULATED): %s\n", wr->why);
		if (wr->have_res)
			why_write_text(&wr->res, f, 5);
	} else {
		probe_why_text(wr, f);
	}
}

/* ---- JSON report ------------------------------------------------------------ */

static void json_stats(struct jw *w, const struct hist *h, uint64_t start_ns, const char *ovf_key)
{
	struct stats_summary s;

	stats_summarize_hist(h, &s);
	jw_uint(w, "samples", h->count);
	jw_uint(w, ovf_key, h->overflows);
	jw_double(w, "min_us", s.min, 3);
	jw_double(w, "mean_us", s.mean, 3);
	jw_double(w, "p50_us", s.p50, 3);
	jw_double(w, "p90_us", s.p90, 3);
	jw_double(w, "p99_us", s.p99, 3);
	jw_double(w, "p999_us", s.p999, 3);
	jw_double(w, "max_us", s.max, 3);
	if (h->count && h->max_at_ns >= start_ns)
		jw_double(w, "max_at_s", (double)(h->max_at_ns - start_ns) / 1e9, 6);
	else
		jw_null(w, "max_at_s");
}

/* How long it ran, how long it was asked to (null: until stopped), and
 * whether a signal cut it short. */
static void json_duration(struct jw *w, double secs, double want_secs, bool interrupted)
{
	jw_double(w, "duration_s", secs, 3);
	if (want_secs > 0)
		jw_double(w, "requested_duration_s", want_secs, 3);
	else
		jw_null(w, "requested_duration_s");
	jw_bool(w, "interrupted", interrupted);
}

static void report_json(FILE *f, const struct probe *p, struct hist *h, const struct hist *all,
			double secs, double want_secs, bool interrupted,
			const struct brk_report *br, const struct whyrun *wr, struct world *world)
{
	struct sbuf b;
	struct jw w;

	cmd_json_begin(&w, &b, true);
	jw_str(&w, "schema", TT_SCHEMA_PROBE);
	jw_str(&w, "tunetop", PACKAGE_VERSION);
	jw_obj_begin(&w, "probe");
	jw_uint(&w, "interval_us", p->cfg.interval_us);
	json_duration(&w, secs, want_secs, interrupted);
	jw_str(&w, "policy", probe_policy_name(p->cfg.policy));
	jw_int(&w, "priority", p->cfg.prio);
	jw_bool(&w, "realtime_refused", p->fallback);
	jw_bool(&w, "memory_locked", p->mlocked);
	if (p->cfg.dma_latency_us >= 0)
		jw_int(&w, "dma_latency_us", p->cfg.dma_latency_us);
	else
		jw_null(&w, "dma_latency_us");
	if (p->dma_effective_us >= 0)
		jw_int(&w, "dma_latency_effective_us", p->dma_effective_us);
	else
		jw_null(&w, "dma_latency_effective_us");
	jw_str(&w, "overflow_rule", "skip late deadlines on the grid and count them");
	json_break(&w, br);
	if (world) {
		jw_obj_begin(&w, "simulated");
		jw_str(&w, "world", world_def_of(world)->name);
		jw_str(&w, "board", world_def_of(world)->board);
		jw_double(&w, "simulated_s", secs, 3);
		jw_obj_end(&w);
	} else {
		jw_null(&w, "simulated");
	}
	jw_obj_end(&w);
	jw_arr_begin(&w, "cpus");
	for (int i = 0; i < p->n; i++) {
		const struct probe_thread *t = &p->thr[i];

		jw_obj_begin(&w, NULL);
		jw_int(&w, "cpu", t->cpu);
		jw_int(&w, "tid", t->tid);
		jw_str(&w, "sched_policy", probe_sched_name(t->policy));
		jw_int(&w, "sched_priority", t->prio);
		json_stats(&w, &h[i], p->start_ns, "overflows");
		hist_json(&w, &h[i]);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_obj_begin(&w, "all");
	json_stats(&w, all, p->start_ns, "overflows");
	jw_obj_end(&w);
	probe_why_json(wr, &w);
	cmd_json_put(&w, &b, f);
}

/* ---- soak runs: summaries and the histogram file ---------------------------- */

struct soak {
	double every_s; /* 0 = no summaries */
	double next_s;	/* time of the next summary, since the start */
	double prev_s;	/* time of the previous one */
	const char *histfile;
	const char *ovf_name; /* "overflows" (probe) or "lost" (rpmsg) */
	bool json;
	uint64_t start_ns;
	struct hist *prev; /* cumulative at the previous summary */
	bool histfile_err; /* told once */
};

static void soak_init(struct soak *k, double every_s, const char *histfile, bool json,
		      const char *ovf_name)
{
	memset(k, 0, sizeof(*k));
	k->every_s = every_s;
	k->next_s = every_s;
	k->histfile = histfile;
	k->json = json;
	k->ovf_name = ovf_name;
	k->prev = xmalloc(sizeof(*k->prev));
	hist_init(k->prev);
}

static void soak_free(struct soak *k)
{
	free(k->prev);
	k->prev = NULL;
}

static void soak_histfile(struct soak *k, const struct hist *cols, int n)
{
	int e;

	if (!k->histfile || k->histfile_err)
		return;
	e = histfile_write(k->histfile, cols, n);
	if (e) {
		cmd_error("probe", e, "--histfile %s", k->histfile);
		k->histfile_err = true;
	}
}

static void summary_text(FILE *f, const struct hist *h, const char *ovf_name)
{
	struct summary_cols t;

	summary_cols(h, &t);
	fprintf(f, "samples %llu min %s p50 %s p99 %s p99.9 %s max %s %s %llu",
		(unsigned long long)h->count, t.min, t.p50, t.p99, t.p999, t.max, ovf_name,
		(unsigned long long)h->overflows);
}

/* One summary line at t_s: the samples since the previous summary
 * ("interval") and since the start ("cumulative"); then the histogram file. */
static void soak_summary(struct soak *k, const struct hist *cols, int n, double t_s)
{
	struct hist *all = xmalloc(sizeof(*all)), *iv = xmalloc(sizeof(*iv));

	hist_init(all);
	for (int i = 0; i < n; i++)
		hist_merge(all, &cols[i]);
	hist_delta(iv, all, k->prev);
	if (k->json) {
		struct sbuf b;
		struct jw w;

		cmd_json_begin(&w, &b, false);
		jw_str(&w, "type", "summary");
		jw_double(&w, "t_s", t_s, 3);
		jw_double(&w, "interval_s", t_s - k->prev_s, 3);
		jw_obj_begin(&w, "interval");
		json_stats(&w, iv, k->start_ns, k->ovf_name);
		jw_obj_end(&w);
		jw_obj_begin(&w, "cumulative");
		json_stats(&w, all, k->start_ns, k->ovf_name);
		jw_obj_end(&w);
		cmd_json_put(&w, &b, stdout);
	} else {
		int dec = k->every_s < 10 && k->every_s != floor(k->every_s) ? 1 : 0;

		printf("summary %.*f s: interval %.*f s: ", dec, t_s, dec, t_s - k->prev_s);
		summary_text(stdout, iv, k->ovf_name);
		printf(" | cumulative: ");
		summary_text(stdout, all, k->ovf_name);
		putchar('\n');
	}
	fflush(stdout);
	*k->prev = *all;
	k->prev_s = t_s;
	free(all);
	free(iv);
	soak_histfile(k, cols, n);
}

/* ---- command ----------------------------------------------------------------- */

/* One line of progress on a terminal, rewritten in place: time, samples so
 * far, the worst wake-up yet. */
static void show_progress(const struct hist *all, double done_s, double secs)
{
	char len[32] = "";

	if (secs > 0)
		snprintf(len, sizeof(len), "/%.0f", secs);
	fprintf(stderr, "\rtunetop probe: %llu%s s, %llu samples, max %.0f %ss\033[K",
		(unsigned long long)done_s, len, (unsigned long long)all->count,
		all->count ? (double)all->max_ns / 1e3 : 0.0, str_micro());
}

static double since_s(uint64_t start_ns)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec / 1e9 - (double)start_ns / 1e9;
}

/* Wait for the duration (0 = forever), a terminating signal or a break;
 * returns true when a signal ended it. Polls thread errors once a second
 * (every 20 ms with --break, every WHYCAP_POLL_MS with --why, which reads
 * the events then), shows the progress then when stderr is a
 * terminal, and writes the summaries when they are due. */
static bool wait_run(struct probe *p, const sigset_t *sigs, double secs, struct soak *k,
		     struct whyrun *wr)
{
	const bool tty = isatty(STDERR_FILENO);
	const double tick = p->cfg.break_us ? 0.02 : wr->cap ? WHYCAP_POLL_MS / 1000.0 : 1.0;
	struct hist *cols = xcalloc((size_t)p->n, sizeof(*cols));
	struct hist *all = xmalloc(sizeof(*all));
	double shown = 0;
	bool sig = false;

	for (;;) {
		struct timespec ts;
		double left = tick, done_s = since_s(p->start_ns);

		if (k->every_s > 0 && done_s >= k->next_s) {
			for (int i = 0; i < p->n; i++)
				probe_snapshot(p, i, &cols[i]);
			if (tty)
				fputs("\r\033[K", stderr);
			soak_summary(k, cols, p->n, done_s);
			while (k->next_s <= done_s)
				k->next_s += k->every_s;
		}
		if (tty && done_s >= 1.0 && done_s - shown >= 1.0) {
			probe_snapshot_all(p, all);
			show_progress(all, done_s, secs);
			shown = done_s;
		}
		if (secs > 0) {
			left = secs - done_s;
			if (left <= 0)
				break;
			if (left > tick)
				left = tick;
		}
		if (k->every_s > 0 && k->next_s - done_s < left)
			left = k->next_s - done_s > 0 ? k->next_s - done_s : 0;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		if (sigtimedwait(sigs, NULL, &ts) > 0) {
			sig = true;
			break;
		}
		probe_why_tick(wr, p);
		if (probe_error(p, NULL, NULL) || probe_broke(p))
			break;
	}
	if (tty)
		fputs("\r\033[K", stderr); /* the report follows on a clean line */
	free(cols);
	free(all);
	return sig;
}

/* --break: tracefs under the root, tracing_on held open when tracing is on. */
static void break_prepare(struct cmd_ctx *cx, struct tracebreak *tb, struct brk_report *br)
{
	const char *dir = cx->o->root ? cx->o->root : "/";
	struct sysroot *root = &cx->root;

	tb->on_fd = -1;
	if (!br->threshold_us)
		return;
	if (cmd_setup(cx, 0)) { /* the runner's root: said why on stderr */
		snprintf(br->note, sizeof(br->note),
			 "%s: cannot open the root: no trace will be saved", dir);
		return;
	}
	if (tracebreak_open(tb, root)) {
		snprintf(br->note, sizeof(br->note), "%s", tb->why);
	} else {
		char rel[96];

		snprintf(rel, sizeof(rel), "%s/tracing_on", tb->dir);
		sysroot_abspath(root, rel, br->tracing_on, sizeof(br->tracing_on));
	}
}

/* After a break: save the trace when tracing was stopped. */
static void break_finish(struct tracebreak *tb, struct brk_report *br, const char *trace_arg,
			 char *path, size_t cap)
{
	if (!br->hit || tb->on_fd < 0)
		return;
	if (!br->tracing_stopped) {
		if (!br->note[0])
			snprintf(br->note, sizeof(br->note),
				 "%s: could not write 0: no trace saved", br->tracing_on);
		return;
	}
	if (trace_arg) {
		snprintf(path, cap, "%s", trace_arg);
	} else {
		time_t t = time(NULL);
		struct tm tm;
		char stamp[32];

		localtime_r(&t, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		snprintf(path, cap, "tunetop-break-%s.trace", stamp);
	}
	if (tracebreak_save(tb, path))
		snprintf(br->note, sizeof(br->note), "trace not saved: %s", tb->why);
	else
		br->trace_file = path;
}

/* ---- --rpmsg ------------------------------------------------------------------ */

struct rpmsg_opts {
	struct rpmsg_cfg cfg;
	double secs;
	bool json;
};

static void report_rpmsg_text(FILE *f, const struct rpmsg_run *r, double secs, bool interrupted,
			      const struct brk_report *br)
{
	fprintf(f,
		"tunetop probe --rpmsg %s: %zu-byte messages every %llu us, timeout %llu ms, "
		"%.1f s%s\n",
		r->cfg.dev, r->cfg.size, (unsigned long long)r->cfg.interval_us,
		(unsigned long long)r->cfg.timeout_ms, secs, interrupted ? " (interrupted)" : "");
	fprintf(f, "sent %llu, echoed %llu, lost %llu (no echo within %llu ms), late echoes %llu\n",
		(unsigned long long)r->sent, (unsigned long long)r->received,
		(unsigned long long)r->lost, (unsigned long long)r->cfg.timeout_ms,
		(unsigned long long)r->late);
	fprintf(f, "%4s %9s %7s %7s %7s %7s %7s %7s %7s %9s\n", "", "samples", "min", "mean", "p50",
		"p90", "p99", "p99.9", "max", "lost");
	print_row(f, "rtt", &r->hist);
	fprintf(f, "(round trip in us: echo received - message sent, CLOCK_MONOTONIC)\n");
	print_break(f, br);
	print_histogram(f, &r->hist, "round trip");
}

static void report_rpmsg_json(FILE *f, const struct rpmsg_run *r, double secs, double want_secs,
			      bool interrupted, const char *error, const struct brk_report *br,
			      uint64_t start_ns)
{
	struct sbuf b;
	struct jw w;

	cmd_json_begin(&w, &b, true);
	jw_str(&w, "tunetop", PACKAGE_VERSION);
	jw_obj_begin(&w, "rpmsg");
	jw_str(&w, "device", r->cfg.dev);
	jw_uint(&w, "size_bytes", r->cfg.size);
	jw_uint(&w, "interval_us", r->cfg.interval_us);
	jw_uint(&w, "timeout_ms", r->cfg.timeout_ms);
	json_duration(&w, secs, want_secs, interrupted);
	jw_uint(&w, "sent", r->sent);
	jw_uint(&w, "echoed", r->received);
	jw_uint(&w, "late", r->late); /* "lost" follows with the statistics */
	jw_str(&w, "error", error);
	json_break(&w, br);
	json_stats(&w, &r->hist, start_ns, "lost");
	hist_json(&w, &r->hist);
	jw_obj_end(&w);
	cmd_json_put(&w, &b, f);
}

static int run_rpmsg(struct cmd_ctx *cx, const struct rpmsg_opts *ro, struct soak *k,
		     struct brk_report *br, const char *trace_arg)
{
	struct rpmsg_run r;
	struct tracebreak tb;
	bool interrupted = false;
	char trace_path[TT_PATH_MAX];
	sigset_t sigs, old;
	uint64_t start_ns, end_ns = UINT64_MAX;
	const char *error = NULL;
	int rc;

	rc = rpmsg_open(&r, &ro->cfg);
	if (rc) {
		cmd_error("probe", 0, "--rpmsg %s", r.why);
		return 1;
	}
	break_prepare(cx, &tb, br);
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);

	start_ns = r.next_ns;
	k->start_ns = start_ns;
	if (ro->secs > 0)
		end_ns = start_ns + (uint64_t)(ro->secs * 1e9);
	for (;;) {
		uint64_t until = end_ns, rtt, lost0 = r.lost;
		sigset_t pend;
		double t_s;

		if (k->every_s > 0) {
			uint64_t sum_ns = start_ns + (uint64_t)(k->next_s * 1e9);

			if (sum_ns < until)
				until = sum_ns;
		}
		rc = rpmsg_step(&r, until, &rtt);
		if (rc < 0) {
			error = r.why;
			cmd_error("probe", 0, "%s", r.why);
			break;
		}
		if (r.lost > lost0)
			hist_add_overflows(&r.hist, r.lost - lost0);
		t_s = since_s(start_ns);
		if (br->threshold_us && rtt > br->threshold_us * 1000u) {
			if (tb.on_fd >= 0) {
				ssize_t w = pwrite(tb.on_fd, "0\n", 2, 0);

				br->tracing_stopped = w == 2;
			}
			br->hit = true;
			br->rpmsg = true;
			br->seq = r.seq - 1;
			br->latency_us = (double)rtt / 1e3;
			br->at_s = t_s;
			br->at_monotonic_s = (double)r.last_send_ns / 1e9 + (double)rtt / 1e9;
			break;
		}
		if (k->every_s > 0 && t_s >= k->next_s) {
			soak_summary(k, &r.hist, 1, t_s);
			while (k->next_s <= t_s)
				k->next_s += k->every_s;
		}
		if (sigpending(&pend) == 0 &&
		    (sigismember(&pend, SIGINT) || sigismember(&pend, SIGTERM) ||
		     sigismember(&pend, SIGHUP))) {
			int sig;

			sigwait(&sigs, &sig);
			interrupted = true;
			break;
		}
		if (ro->secs > 0 && t_s >= ro->secs)
			break;
	}
	br->rpmsg = true;
	break_finish(&tb, br, trace_arg, trace_path, sizeof(trace_path));
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	{
		double secs = since_s(start_ns);

		if (ro->json)
			report_rpmsg_json(stdout, &r, secs, ro->secs, interrupted, error, br,
					  start_ns);
		else
			report_rpmsg_text(stdout, &r, secs, interrupted, br);
	}
	fflush(stdout);
	soak_histfile(k, &r.hist, 1);
	tracebreak_close(&tb);
	rpmsg_close(&r);
	return error || k->histfile_err ? 1 : 0;
}

/* The command line of `probe`, parsed (parse_args). */
struct probe_args {
	struct probe_cfg cfg;
	struct rpmsg_opts ro;
	struct brk_report br;
	const char *cpus_arg, *histfile, *trace_arg, *events_file;
	double secs, summary_s;
	uint64_t why_over_us;
	bool json, prio_given, interval_given, rpmsg_opt, why;
};

/* One line on stderr, "tunetop probe: ...", and the usage exit code. */
static int opt_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int opt_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cmd_verror("probe", 0, fmt, ap);
	va_end(ap);
	return 2;
}

/* The options that take a text (a file or device name), which may not be
 * empty: 0 when stored, 2 after the error line, -1 when c is none of them. */
static int text_opt(struct probe_args *a, int c, const char *v)
{
	static const struct {
		int code;
		const char *name, *what;
		size_t off;
	} text[] = {
		{OPT_HISTFILE, "--histfile", "file name", offsetof(struct probe_args, histfile)},
		{OPT_BREAK_TRACE, "--break-trace", "file name",
		 offsetof(struct probe_args, trace_arg)},
		{OPT_RPMSG, "--rpmsg", "device name", offsetof(struct probe_args, ro.cfg.dev)},
		{OPT_EVENTS, "--events", "file name", offsetof(struct probe_args, events_file)},
	};

	for (size_t k = 0; k < sizeof(text) / sizeof(text[0]); k++) {
		if (text[k].code != c)
			continue;
		if (!*v)
			return opt_err("%s: empty %s", text[k].name, text[k].what);
		*(const char **)((char *)a + text[k].off) = v;
		return 0;
	}
	return -1;
}

/* A whole number of UNIT in lo..hi: 0, or 2 after the error line. */
static int range_opt(const char *opt, const char *unit, const char *v, uint64_t lo, uint64_t hi,
		     uint64_t *out)
{
	if (str_to_u64(v, out) || *out < lo || *out > hi)
		return opt_err("%s '%s': %s %llu..%llu expected", opt, v, unit,
			       (unsigned long long)lo, (unsigned long long)hi);
	return 0;
}

/* Parse probe's options into *a; -1 to go on, else the exit code. */
static int parse_args(struct cmd_ctx *cx, int argc, char **argv, struct probe_args *a)
{
	int c;

	optind = 1;
	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		uint64_t u;
		int v, t = text_opt(a, c, optarg);

		if (t >= 0) {
			if (t)
				return t;
			continue;
		}
		switch (c) {
		case OPT_CPUS: a->cpus_arg = optarg; break;
		case 'i':
			if (str_to_u64(optarg, &u) || u < PROBE_MIN_INTERVAL_US ||
			    u > PROBE_MAX_INTERVAL_US)
				return opt_err("-i '%s': interval must be %d..%d microseconds",
					       optarg, PROBE_MIN_INTERVAL_US,
					       PROBE_MAX_INTERVAL_US);
			a->cfg.interval_us = u;
			a->interval_given = true;
			break;
		case 'D':
			if (str_to_seconds(optarg, "s m h d", &a->secs))
				return opt_err("-D '%s': not a duration (seconds, suffix s/m/h/d "
					       "allowed)",
					       optarg);
			break;
		case 'p':
			if (str_to_int(optarg, &v))
				return opt_err("--prio '%s': not a number", optarg);
			a->cfg.prio = v;
			a->prio_given = true;
			break;
		case OPT_POLICY:
			if (probe_policy_parse(optarg, &a->cfg.policy))
				return opt_err("--policy '%s': use fifo, rr or other", optarg);
			break;
		case OPT_DMA:
			if (str_to_int(optarg, &v) || v < 0)
				return opt_err("--dma-latency '%s': microseconds >= 0 expected",
					       optarg);
			a->cfg.dma_latency_us = v;
			break;
		case OPT_JSON: a->json = true; break;
		case OPT_SUMMARY:
			if (str_to_seconds(optarg, "s m h d", &a->summary_s) || a->summary_s < 0.1)
				return opt_err(
					"--summary '%s': a period of at least 0.1 s expected "
					"(suffix s/m/h allowed)",
					optarg);
			break;
		case OPT_BREAK:
			if (range_opt("--break", "microseconds", optarg, 1, 100000000, &u))
				return 2;
			a->br.threshold_us = u;
			break;
		case OPT_RPMSG_SIZE:
			if (range_opt("--rpmsg-size", "bytes", optarg, RPMSG_MIN_SIZE,
				      RPMSG_MAX_SIZE, &u))
				return 2;
			a->ro.cfg.size = (size_t)u;
			a->rpmsg_opt = true;
			break;
		case OPT_RPMSG_IV:
			if (range_opt("--rpmsg-interval-us", "microseconds", optarg, 1,
				      PROBE_MAX_INTERVAL_US, &u))
				return 2;
			a->ro.cfg.interval_us = u;
			a->rpmsg_opt = true;
			break;
		case OPT_RPMSG_TO:
			if (range_opt("--rpmsg-timeout-ms", "milliseconds", optarg, 1, 600000, &u))
				return 2;
			a->ro.cfg.timeout_ms = u;
			a->rpmsg_opt = true;
			break;
		case OPT_WHY: a->why = true; break;
		case OPT_WHY_OVER:
			if (range_opt("--why-over", "microseconds", optarg, 1, 100000000, &u))
				return 2;
			a->why_over_us = u;
			break;
		case 'h': return cmd_print_help("probe", stdout);
		default: return cmd_usage("probe");
		}
	}
	if (optind < argc)
		return opt_err("unexpected argument '%s'", argv[optind]);
	if (a->trace_arg && !a->br.threshold_us)
		return opt_err("--break-trace needs --break US");
	if ((a->why_over_us || a->events_file) && !a->why)
		return opt_err("--why-over and --events need --why");
	if (a->why && a->ro.cfg.dev)
		return opt_err("--why explains the latency probe's wake-ups: not with --rpmsg");
	if (a->rpmsg_opt && !a->ro.cfg.dev)
		return opt_err("--rpmsg-size, --rpmsg-interval-us and --rpmsg-timeout-ms need "
			       "--rpmsg DEV");
	if (a->ro.cfg.dev &&
	    (a->cpus_arg || a->interval_given || a->prio_given || a->cfg.dma_latency_us >= 0))
		return opt_err("--rpmsg measures round trips: --cpus, -i, --prio and "
			       "--dma-latency do not apply");
	return -1;
}

/* The probe in a world (model/world_probe.h): the world's simulated samples
 * on the probe's deadlines for -D simulated seconds, the world stepped as
 * they go; the report is the probe's, said SIMULATED; --why attributes the
 * world's own events of its late samples with the same code. Closes world. */
static int run_world(struct probe_args *a, struct world *world)
{
	const struct world_def *d = world_def_of(world);
	struct whyrun wr = {.on = a->why};
	struct world_probe wp;
	struct world_why ww;
	struct probe p;
	struct soak k;
	double secs = a->secs > 0 ? a->secs : DEFAULT_SECONDS;
	int rc, prio = a->cfg.policy == PROBE_POLICY_OTHER ? 120 : 99 - a->cfg.prio;

	if (a->br.threshold_us || a->cfg.dma_latency_us >= 0 || a->events_file ||
	    a->summary_s > 0 || a->cpus_arg)
		cmd_note("probe",
			 "SIMULATED world %s: --cpus, --break, --dma-latency, --events and "
			 "--summary do not apply (its probe is one thread on CPU 0)",
			 d->name);
	memset(&p, 0, sizeof(p));
	memset(&ww, 0, sizeof(ww));
	p.cfg = a->cfg;
	cpumask_zero(&p.cfg.cpus);
	cpumask_set(&p.cfg.cpus, 0);
	p.n = 1;
	p.thr = xcalloc(1, sizeof(*p.thr));
	p.thr[0].policy = a->cfg.policy == PROBE_POLICY_OTHER ? SCHED_OTHER
			  : a->cfg.policy == PROBE_POLICY_RR  ? SCHED_RR
							      : SCHED_FIFO;
	p.thr[0].prio = a->cfg.prio;
	p.thr[0].tid = WORLD_WHY_TID;
	p.dma_fd = -1;
	p.dma_effective_us = -1;
	rc = world_probe_run(world, a->cfg.interval_us, secs, a->why, &wp);
	if (rc) {
		cmd_error("probe", rc, "SIMULATED world %s: its probe", d->name);
		world_probe_free(&wp);
		world_close(world);
		free(p.thr);
		return 1;
	}
	p.start_ns = wp.start_ns;
	p.stop_ns = wp.start_ns + (uint64_t)(secs * 1e9);
	if (a->why) {
		uint64_t thr = a->why_over_us
				       ? a->why_over_us * 1000u
				       : (uint64_t)(hist_percentile_us(&wp.hist, 0.99) * 1e3);

		int cpu = 0;
		char hk[64] = "";

		if (d->probe_prio && d->probe_prio(world) >= 0)
			prio = d->probe_prio(world); /* the thread the probe stands for */
		if (d->probe_place && d->probe_place(world, &cpu, hk, sizeof(hk))) {
			cpu = 0; /* the tree does not say: CPU 0, no housekeeping CPU */
			hk[0] = '\0';
		}
		rc = world_probe_why(&wp, cpu, prio, hk, thr, &ww, &wr.res);
		wr.have_res = rc == 0;
		wr.err = rc;
		snprintf(wr.why, sizeof(wr.why),
			 "world %s wrote the events of its %zu late samples (its own causes, "
			 "model/world_why.h); the same attribution as on a machine%s",
			 d->name, wr.have_res ? wr.res.n_late : 0,
			 wp.cand_drops ? " (past its memory cap the later candidates were "
					 "dropped)"
				       : "");
		if (rc)
			cmd_error("probe", rc, "--why: attribution");
	}
	soak_init(&k, 0, a->histfile, a->json, "overflows");
	if (a->json)
		report_json(stdout, &p, &wp.hist, &wp.hist, secs, secs, false, &a->br, &wr, world);
	else
		report_text(stdout, &p, &wp.hist, &wp.hist, secs, false, &a->br, &wr, world);
	fflush(stdout);
	soak_histfile(&k, &wp.hist, 1);
	rc = wr.err || k.histfile_err;
	soak_free(&k);
	probe_why_free(&wr);
	world_why_free(&ww);
	world_probe_free(&wp);
	world_close(world);
	free(p.thr);
	return rc ? 1 : 0;
}

/* The latency probe's run, once its configuration is checked. */
static int run_latency(struct cmd_ctx *cx, struct probe_args *a)
{
	const struct tt_opts *o = cx->o;
	struct probe_cfg cfg = a->cfg;
	struct brk_report br = a->br;
	const char *histfile = a->histfile, *trace_arg = a->trace_arg;
	double secs = a->secs, summary_s = a->summary_s, elapsed;
	bool json = a->json, interrupted;
	char trace_path[TT_PATH_MAX], why[256];
	struct probe p;
	struct soak k;
	struct tracebreak tb;
	sigset_t sigs, old;
	struct hist *h, *all;
	struct whyrun wr = {
		.on = a->why, .over_ns = a->why_over_us * 1000u, .events_file = a->events_file};
	int rc, ecpu = -1;
	const char *eop = "";

	if (o->root && strcmp(o->root, "/")) {
		struct world *world = cmd_world_attach(o->root, "probe");

		if (world_has_probe(world))
			return run_world(a, world);
		world_close(world);
	}
	if (o->root && strcmp(o->root, "/") && !br.threshold_us)
		cmd_note("probe", "--root %s ignored: the probe measures the live machine",
			 o->root);

	/* Terminating signals are taken synchronously by the main thread
	 * (sigtimedwait), never by a measuring thread. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);

	break_prepare(cx, &tb, &br);
	cfg.break_us = br.threshold_us;
	cfg.break_fd = tb.on_fd;
	soak_init(&k, summary_s, histfile, json, "overflows");
	probe_why_open(&wr, &cfg);
	rc = probe_start(&p, &cfg, why, sizeof(why));
	if (rc) {
		cmd_error("probe", 0, "%s", why);
		probe_why_free(&wr);
		probe_free(&p);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		soak_free(&k);
		tracebreak_close(&tb);
		return 1;
	}
	for (int i = 0; i < p.nnotes; i++)
		cmd_note("probe", "%s", p.note[i]);

	probe_why_start(&wr, &p);
	k.start_ns = p.start_ns;
	interrupted = wait_run(&p, &sigs, secs, &k, &wr);
	probe_stop(&p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (p.brk.hit) {
		br.hit = true;
		br.cpu = p.brk.cpu;
		br.tid = p.brk.tid;
		br.latency_us = (double)p.brk.latency_ns / 1e3;
		br.at_s = (double)(p.brk.at_ns - p.start_ns) / 1e9;
		br.at_monotonic_s = (double)p.brk.at_ns / 1e9;
		br.tracing_stopped = p.brk.trace_stopped;
		if (p.brk.trace_err && tb.on_fd >= 0)
			snprintf(br.note, sizeof(br.note), "%s: write 0: %s: no trace saved",
				 br.tracing_on, err_name(p.brk.trace_err));
	}
	break_finish(&tb, &br, trace_arg, trace_path, sizeof(trace_path));
	elapsed = (double)(p.stop_ns - p.start_ns) / 1e9;

	h = xcalloc((size_t)p.n, sizeof(*h));
	all = xmalloc(sizeof(*all));
	hist_init(all);
	for (int i = 0; i < p.n; i++) {
		probe_snapshot(&p, i, &h[i]);
		hist_merge(all, &h[i]);
	}
	probe_why_finish(&wr, &p, all);
	if (json)
		report_json(stdout, &p, h, all, elapsed, secs, interrupted, &br, &wr, NULL);
	else
		report_text(stdout, &p, h, all, elapsed, interrupted, &br, &wr, NULL);
	fflush(stdout);
	soak_histfile(&k, h, p.n);

	rc = probe_error(&p, &ecpu, &eop);
	if (rc)
		cmd_error("probe", rc, "cpu %d: %s", ecpu, eop);
	free(h);
	free(all);
	rc = rc || wr.err;
	probe_why_free(&wr);
	probe_free(&p);
	tracebreak_close(&tb);
	rc = rc || k.histfile_err;
	soak_free(&k);
	return rc ? 1 : 0;
}

int cmd_probe(struct cmd_ctx *cx, int argc, char **argv)
{
	struct probe_args a = {.cfg = {.interval_us = PROBE_DEFAULT_INTERVAL_US,
				       .policy = PROBE_POLICY_FIFO,
				       .prio = PROBE_DEFAULT_PRIO,
				       .dma_latency_us = -1},
			       .ro = {.cfg = {.size = RPMSG_DEFAULT_SIZE,
					      .interval_us = RPMSG_DEFAULT_INTERVAL_US,
					      .timeout_ms = RPMSG_DEFAULT_TIMEOUT_MS}},
			       .secs = DEFAULT_SECONDS};
	char why[256];
	int rc = parse_args(cx, argc, argv, &a);

	if (rc >= 0)
		return rc;
	if (a.ro.cfg.dev) {
		struct soak k;

		a.ro.secs = a.secs;
		a.ro.json = a.json;
		soak_init(&k, a.summary_s, a.histfile, a.json, "lost");
		rc = run_rpmsg(cx, &a.ro, &k, &a.br, a.trace_arg);
		soak_free(&k);
		return rc;
	}
	if (a.cfg.policy == PROBE_POLICY_OTHER && !a.prio_given)
		a.cfg.prio = 0;
	if (a.cpus_arg) {
		rc = cpulist_parse(a.cpus_arg, &a.cfg.cpus);
		if (rc) {
			cmd_error("probe", 0, "--cpus '%s': not a CPU list (e.g. 0-3,6)",
				  a.cpus_arg);
			return 2;
		}
	} else if ((rc = probe_online_cpus(&a.cfg.cpus))) {
		cmd_error("probe", rc, "/sys/devices/system/cpu/online");
		return 1;
	}
	rc = probe_cfg_check(&a.cfg, why, sizeof(why));
	if (rc) {
		bool cpu_err = !strncmp(why, "CPU ", 4) || !strncmp(why, "no CPUs", 7);

		if (cpu_err && a.cpus_arg)
			cmd_error("probe", 0, "--cpus %s: %s", a.cpus_arg, why);
		else
			cmd_error("probe", 0, "%s", why);
		return 2;
	}
	return run_latency(cx, &a);
}
