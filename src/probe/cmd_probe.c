/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `tunetop probe`: option parsing, running the probe for a duration or until
 * SIGINT/SIGTERM/SIGHUP, and the text (table + log-scaled ASCII histogram)
 * and JSON reports. The measuring itself is probe.c; numbers come from
 * histogram.c and stats.c. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "core/schema.h"
#include "core/cpumask.h"
#include "core/err.h"
#include "core/json.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "probe/histogram.h"
#include "probe/probe.h"
#include "probe/stats.h"

#define BAR_WIDTH	50
#define MAX_HIST_CPUS	4 /* more CPUs: one histogram of all of them */
#define DEFAULT_SECONDS 10.0

static const char usage_text[] =
	"usage: tunetop probe [--cpus LIST] [-i US] [-D SEC] [--prio N] [--policy fifo|rr|other]\n"
	"                     [--dma-latency US] [--json]\n"
	"Measure wake-up latency: one pinned thread per CPU sleeps on absolute deadlines\n"
	"(clock_nanosleep, CLOCK_MONOTONIC) and records wake time - deadline.\n"
	"  --cpus LIST         CPUs to measure (default: all online)\n"
	"  -i, --interval US   period in microseconds (default 1000)\n"
	"  -D, --duration SEC  run time, suffix s/m/h allowed; 0 = until Ctrl-C (default 10)\n"
	"  -p, --prio N        real-time priority 1..99 (default 95)\n"
	"      --policy P      fifo (default), rr or other\n"
	"      --dma-latency US  hold /dev/cpu_dma_latency at US for the run (default: untouched)\n"
	"      --json          JSON with per-CPU statistics and the full histograms\n"
	"Ctrl-C stops early and prints the results. See doc/probe.md.\n";

enum { OPT_CPUS = 256, OPT_POLICY, OPT_DMA, OPT_JSON };

static const struct option long_opts[] = {
	{"cpus", required_argument, NULL, OPT_CPUS},
	{"interval", required_argument, NULL, 'i'},
	{"duration", required_argument, NULL, 'D'},
	{"prio", required_argument, NULL, 'p'},
	{"policy", required_argument, NULL, OPT_POLICY},
	{"dma-latency", required_argument, NULL, OPT_DMA},
	{"json", no_argument, NULL, OPT_JSON},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static int parse_seconds(const char *s, double *out)
{
	char buf[64];
	size_t n = strlen(s);
	double mult = 1.0, v;

	if (!n || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n + 1);
	switch (buf[n - 1]) {
	case 's': buf[n - 1] = '\0'; break;
	case 'm':
		mult = 60.0;
		buf[n - 1] = '\0';
		break;
	case 'h':
		mult = 3600.0;
		buf[n - 1] = '\0';
		break;
	case 'd':
		mult = 86400.0;
		buf[n - 1] = '\0';
		break;
	default: break;
	}
	if (str_to_double(buf, &v) || !(v >= 0.0) || isinf(v))
		return -EINVAL;
	*out = v * mult;
	return 0;
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

static void print_row(FILE *f, const char *name, const struct hist *h)
{
	struct stats_dist d;
	struct stats_summary s;
	char c[8][32];

	stats_dist_from_hist(&d, h);
	stats_summarize(&d, &s);
	stats_dist_free(&d);
	fmt_us(c[0], sizeof(c[0]), s.min, 0);
	fmt_us(c[1], sizeof(c[1]), s.mean, 1);
	fmt_us(c[2], sizeof(c[2]), s.p50, 0);
	fmt_us(c[3], sizeof(c[3]), s.p90, 0);
	fmt_us(c[4], sizeof(c[4]), s.p99, 0);
	fmt_us(c[5], sizeof(c[5]), s.p999, 0);
	fmt_us(c[6], sizeof(c[6]), s.max, 0);
	fprintf(f, "%4s %9llu %7s %7s %7s %7s %7s %7s %7s %9llu\n", name,
		(unsigned long long)h->count, c[0], c[1], c[2], c[3], c[4], c[5], c[6],
		(unsigned long long)h->overflows);
}

static void report_text(FILE *f, const struct probe *p, struct hist *h, const struct hist *all,
			double secs, bool interrupted)
{
	char cpus[256], pol[64], qos[64];

	cpulist_format(&p->cfg.cpus, cpus, sizeof(cpus));
	if (p->dma_fd >= 0 || p->cfg.dma_latency_us >= 0)
		snprintf(qos, sizeof(qos), "cpu_dma_latency held at %d us", p->cfg.dma_latency_us);
	else
		snprintf(qos, sizeof(qos), "PM QoS untouched");
	fprintf(f, "tunetop probe: CPUs %s, interval %llu us, %.1f s%s, %s, %s, %s\n", cpus,
		(unsigned long long)p->cfg.interval_us, secs, interrupted ? " (interrupted)" : "",
		probe_policy_text(p, pol, sizeof(pol)),
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
	if (p->n <= MAX_HIST_CPUS) {
		for (int i = 0; i < p->n; i++) {
			char title[32];

			snprintf(title, sizeof(title), "CPU %d", p->thr[i].cpu);
			print_histogram(f, &h[i], title);
		}
	} else {
		print_histogram(f, all, "all CPUs");
	}
}

/* ---- JSON report ------------------------------------------------------------ */

static void json_stats(struct jw *w, const struct hist *h, uint64_t start_ns)
{
	struct stats_dist d;
	struct stats_summary s;

	stats_dist_from_hist(&d, h);
	stats_summarize(&d, &s);
	stats_dist_free(&d);
	jw_uint(w, "samples", h->count);
	jw_uint(w, "overflows", h->overflows);
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

static void report_json(FILE *f, const struct probe *p, struct hist *h, const struct hist *all,
			double secs, double want_secs, bool interrupted)
{
	struct sbuf b;
	struct jw w;

	sbuf_init(&b);
	jw_init(&w, &b, true);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "schema", TT_SCHEMA_PROBE);
	jw_str(&w, "tunetop", PACKAGE_VERSION);
	jw_obj_begin(&w, "probe");
	jw_uint(&w, "interval_us", p->cfg.interval_us);
	jw_double(&w, "duration_s", secs, 3);
	if (want_secs > 0)
		jw_double(&w, "requested_duration_s", want_secs, 3);
	else
		jw_null(&w, "requested_duration_s");
	jw_bool(&w, "interrupted", interrupted);
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
	jw_obj_end(&w);
	jw_arr_begin(&w, "cpus");
	for (int i = 0; i < p->n; i++) {
		const struct probe_thread *t = &p->thr[i];

		jw_obj_begin(&w, NULL);
		jw_int(&w, "cpu", t->cpu);
		jw_int(&w, "tid", t->tid);
		jw_str(&w, "sched_policy", probe_sched_name(t->policy));
		jw_int(&w, "sched_priority", t->prio);
		json_stats(&w, &h[i], p->start_ns);
		jw_arr_begin(&w, "histogram");
		for (int k = 0; k < HIST_NBUCKETS; k++) {
			uint64_t lo, hi;

			if (!h[i].bucket[k])
				continue;
			hist_bucket_range(k, &lo, &hi);
			jw_obj_begin(&w, NULL);
			jw_uint(&w, "lo_us", lo);
			if (hi == HIST_INF_US)
				jw_null(&w, "hi_us");
			else
				jw_uint(&w, "hi_us", hi);
			jw_uint(&w, "count", h[i].bucket[k]);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_obj_begin(&w, "all");
	json_stats(&w, all, p->start_ns);
	jw_obj_end(&w);
	jw_obj_end(&w);
	sbuf_putc(&b, '\n');
	fputs(b.s, f);
	sbuf_free(&b);
}

/* ---- command ----------------------------------------------------------------- */

/* One line of progress on a terminal, rewritten in place: time, samples so
 * far, the worst wake-up yet. */
static void show_progress(const struct probe *p, double done_s, double secs)
{
	struct hist *all = xmalloc(sizeof(*all));
	char len[32] = "";

	probe_snapshot_all(p, all);
	if (secs > 0)
		snprintf(len, sizeof(len), "/%.0f", secs);
	fprintf(stderr, "\rtunetop: probe: %llu%s s, %llu samples, max %.0f %ss\033[K",
		(unsigned long long)done_s, len, (unsigned long long)all->count,
		all->count ? (double)all->max_ns / 1e3 : 0.0, str_micro());
	free(all);
}

/* Wait for the duration (0 = forever) or a terminating signal; returns true
 * when a signal ended it. Polls thread errors once a second, and shows the
 * progress then when stderr is a terminal. */
static bool wait_run(const struct probe *p, const sigset_t *sigs, double secs)
{
	/* The run is timed from the probe's start, not from here. */
	const double t0 = (double)p->start_ns / 1e9;
	const bool tty = isatty(STDERR_FILENO);
	bool sig = false;

	for (;;) {
		struct timespec now, ts;
		double left = 1.0, done_s;

		clock_gettime(CLOCK_MONOTONIC, &now);
		done_s = (double)now.tv_sec + (double)now.tv_nsec / 1e9 - t0;
		if (tty && done_s >= 1.0)
			show_progress(p, done_s, secs);
		if (secs > 0) {
			left = secs - done_s;
			if (left <= 0)
				break;
			if (left > 1.0)
				left = 1.0;
		}
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		if (sigtimedwait(sigs, NULL, &ts) > 0) {
			sig = true;
			break;
		}
		if (probe_error(p, NULL, NULL))
			break;
	}
	if (tty)
		fputs("\r\033[K", stderr); /* the report follows on a clean line */
	return sig;
}

int cmd_probe(const struct tt_opts *o, int argc, char **argv)
{
	struct probe_cfg cfg = {.interval_us = PROBE_DEFAULT_INTERVAL_US,
				.policy = PROBE_POLICY_FIFO,
				.prio = PROBE_DEFAULT_PRIO,
				.dma_latency_us = -1};
	struct probe p;
	const char *cpus_arg = NULL;
	double secs = DEFAULT_SECONDS, elapsed;
	bool json = false, prio_given = false, interrupted;
	char why[256];
	sigset_t sigs, old;
	struct hist *h, *all;
	int rc, c, ecpu = -1;
	const char *eop = "";

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:D:p:h", long_opts, NULL)) != -1) {
		uint64_t u;
		int v;

		switch (c) {
		case OPT_CPUS: cpus_arg = optarg; break;
		case 'i':
			if (str_to_u64(optarg, &u) || u < PROBE_MIN_INTERVAL_US ||
			    u > PROBE_MAX_INTERVAL_US) {
				fprintf(stderr,
					"tunetop: probe: -i '%s': interval must be %d..%d "
					"microseconds\n",
					optarg, PROBE_MIN_INTERVAL_US, PROBE_MAX_INTERVAL_US);
				return 2;
			}
			cfg.interval_us = u;
			break;
		case 'D':
			if (parse_seconds(optarg, &secs)) {
				fprintf(stderr,
					"tunetop: probe: -D '%s': not a duration (seconds, "
					"suffix s/m/h/d allowed)\n",
					optarg);
				return 2;
			}
			break;
		case 'p':
			if (str_to_int(optarg, &v)) {
				fprintf(stderr, "tunetop: probe: --prio '%s': not a number\n",
					optarg);
				return 2;
			}
			cfg.prio = v;
			prio_given = true;
			break;
		case OPT_POLICY:
			if (probe_policy_parse(optarg, &cfg.policy)) {
				fprintf(stderr,
					"tunetop: probe: --policy '%s': use fifo, rr or other\n",
					optarg);
				return 2;
			}
			break;
		case OPT_DMA:
			if (str_to_int(optarg, &v) || v < 0) {
				fprintf(stderr,
					"tunetop: probe: --dma-latency '%s': microseconds >= 0 "
					"expected\n",
					optarg);
				return 2;
			}
			cfg.dma_latency_us = v;
			break;
		case OPT_JSON: json = true; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "tunetop: probe: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (cfg.policy == PROBE_POLICY_OTHER && !prio_given)
		cfg.prio = 0;
	if (cpus_arg) {
		rc = cpulist_parse(cpus_arg, &cfg.cpus);
		if (rc) {
			fprintf(stderr,
				"tunetop: probe: --cpus '%s': not a CPU list (e.g. 0-3,6)\n",
				cpus_arg);
			return 2;
		}
	} else if ((rc = probe_online_cpus(&cfg.cpus))) {
		fprintf(stderr, "tunetop: probe: /sys/devices/system/cpu/online: %s\n",
			err_name(rc));
		return 1;
	}
	rc = probe_cfg_check(&cfg, why, sizeof(why));
	if (rc) {
		bool cpu_err = !strncmp(why, "CPU ", 4) || !strncmp(why, "no CPUs", 7);

		if (cpu_err && cpus_arg)
			fprintf(stderr, "tunetop: probe: --cpus %s: %s\n", cpus_arg, why);
		else
			fprintf(stderr, "tunetop: probe: %s\n", why);
		return 2;
	}
	if (o->root && strcmp(o->root, "/"))
		fprintf(stderr,
			"tunetop: probe: --root %s ignored: the probe measures the live "
			"machine\n",
			o->root);

	/* Terminating signals are taken synchronously by the main thread
	 * (sigtimedwait), never by a measuring thread. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);

	rc = probe_start(&p, &cfg, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "tunetop: probe: %s\n", why);
		probe_free(&p);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return 1;
	}
	for (int i = 0; i < p.nnotes; i++)
		fprintf(stderr, "tunetop: probe: %s\n", p.note[i]);

	interrupted = wait_run(&p, &sigs, secs);
	probe_stop(&p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	elapsed = (double)(p.stop_ns - p.start_ns) / 1e9;

	h = xcalloc((size_t)p.n, sizeof(*h));
	all = xmalloc(sizeof(*all));
	hist_init(all);
	for (int i = 0; i < p.n; i++) {
		probe_snapshot(&p, i, &h[i]);
		hist_merge(all, &h[i]);
	}
	if (json)
		report_json(stdout, &p, h, all, elapsed, secs, interrupted);
	else
		report_text(stdout, &p, h, all, elapsed, interrupted);
	fflush(stdout);

	rc = probe_error(&p, &ecpu, &eop);
	if (rc)
		fprintf(stderr, "tunetop: probe: cpu %d: %s: %s\n", ecpu, eop, err_name(rc));
	free(h);
	free(all);
	probe_free(&p);
	return rc ? 1 : 0;
}
