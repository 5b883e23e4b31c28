/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The A/B controller: flip one knob between two values in rounds of four
 * windows, A B B A and B A A B alternating (ABBA BAAB ABBA ...), discard a
 * settle time after each switch, collect
 * samples per window — the latency probe's histograms, or the wall time of a
 * command (or a number it prints) — reduce each window to its p50, p99, mean
 * and max, and compare the arms window by window (stats_abba: a permutation
 * test within rounds; the max is reported, never tested). An A/A run
 * (cfg.aa: both arms the same value) measures the noise floor. `tunetop ab`
 * (cmd_ab.c) and the TUI's Latency screen both drive this code.
 *
 * Every switch is one journaled knob_set_many transaction (KNOB_SCOPED |
 * KNOB_ALLOW_LEASE | KNOB_QUIET), so a crash mid-run leaves orphaned journal
 * entries that `tunetop restore` puts back; at the end (also on ab_cancel
 * and on errors) the original values are restored through the engine.
 *
 * Lifetime, driven by the caller's loop (or a thread of its own):
 *
 *	ab_cfg_init(&cfg); ab_parse_knob(ctx, "ADDR=A,B", &cfg, &cause); ...
 *	ab_start(&r, ctx, &cfg, &cause);
 *	while (!ab_finished(&r)) {
 *		ab_poll(&r, &ms);          // advances the state machine, never
 *		...wait up to ms...        // waits for a window; may block for a
 *	}                                  // knob write or a probe reset (ms)
 *	ab_result(&r); ...; ab_free(&r);
 *
 * ab_poll and ab_free use the knob ctx; the caller must not use the same
 * ctx from another thread meanwhile, and should not change other knobs
 * with it while an A/B runs (AB_RESTORE_OWN would adopt them). The views
 * (ab_status, ab_snapshot, ab_values, ab_summary, ab_take_notes) and
 * ab_cancel are safe from any thread; ab_result belongs to the thread that
 * calls ab_poll (or to anyone once the run has finished). */
#ifndef TT_PROBE_AB_H
#define TT_PROBE_AB_H

#include <pthread.h>
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/cpumask.h"
#include "core/str.h"
#include "knob/knob.h"
#include "probe/histogram.h"
#include "probe/load.h"
#include "probe/probe.h"
#include "probe/stats.h"
#include "source/power.h"
#include "sysfs/logfollow.h"

/* 6 rounds of 2 s windows: 24 windows, 12 per arm, about a minute with the
 * settle time; 3 rounds are the fewest with a 95 % interval. */
#define AB_DEFAULT_WINDOW_S  2.0
#define AB_DEFAULT_SETTLE_MS 500
#define AB_DEFAULT_ROUNDS    6
#define AB_MAX_ROUNDS	     10000
#define AB_MAX_WINDOW_S	     86400.0
#define AB_MAX_SETTLE_MS     600000
#define AB_CMD_OUTPUT_MAX    (4u << 20) /* bytes of CMD's stdout kept for --metric */
/* A sweep: ADDRESS=V1,V2,...,Vk with 3 <= k <= AB_MAX_VALUES runs every
 * value interleaved and compares each Vi with V1 (ab_schedule). Two values
 * are the A/B. */
#define AB_MAX_VALUES 8

enum ab_source {
	AB_PROBE, /* the latency probe's samples (µs) */
	AB_CMD,	  /* one sample per CMD run: wall time (ms) or the --metric number(s) */
	AB_FILE,  /* --metric-file LOG: every --metric number in the lines LOG gains
		   * while a window measures (lines during the settle time are dropped) */
};

enum ab_phase {
	AB_IDLE,      /* not started (zeroed struct) */
	AB_SWITCH,    /* about to set the next window's value */
	AB_SETTLE,    /* value set; discarding the settle time */
	AB_MEASURE,   /* collecting the window's samples */
	AB_DONE,      /* every window measured; knob restored; result final */
	AB_FAILED,    /* stopped by an error (why); knob restored; partial result */
	AB_CANCELLED, /* ab_cancel; knob restored; partial result */
};

/* How the knob is put back at the end. */
enum ab_restore {
	AB_RESTORE_RUN, /* knob_restore_run(ctx's run id): everything this process
			 * changed — right for the CLI, whose run is only the A/B */
	AB_RESTORE_OWN, /* only the A/B's own changes (knob_undo_id per change,
			 * newest first) — for the TUI, whose run holds other changes */
};

struct ab_cfg {
	char addr[KNOB_ADDR_MAX];		   /* knob address as given (patterns allowed) */
	char value[AB_MAX_VALUES][KNOB_VALUE_MAX]; /* A and B (a sweep: V1..Vk) as given; the
						    * engine normalizes per knob */
	unsigned nvalues;   /* values in value[]: 0 or 2 = an A/B, 3..AB_MAX_VALUES = a sweep */
	double window_s;    /* measuring time per window (AB_DEFAULT_WINDOW_S) */
	unsigned settle_ms; /* discarded after each switch (AB_DEFAULT_SETTLE_MS) */
	unsigned rounds;    /* rounds of 4 windows, ABBA / BAAB (AB_DEFAULT_ROUNDS);
			     * a sweep: rounds of 2k windows (ab_schedule) */
	/* AB_PROBE */
	struct probe_cfg probe;	 /* CPUs (default all online), interval, policy, prio */
	struct probe *probe_ext; /* non-NULL: use this running probe (the TUI's; it is
				  * reset at each window and not stopped) */
	/* A simulated probe (a world's, issue 35): non-NULL sim_probe: no probe
	 * thread runs and no time is waited; after each switch sim_step(sim_ctx,
	 * settle s) passes the settle time, and each window is sim_probe(sim_ctx,
	 * window s, out): its samples (ns) and skipped deadlines (overflows) in
	 * *out, as the probe's histogram. 0 or -errno (fails the run). */
	void (*sim_step)(void *ctx, double secs);
	int (*sim_probe)(void *ctx, double secs, struct hist *out);
	void *sim_ctx;
	/* AB_CMD (cmd != NULL) */
	const char *cmd;	 /* run through /bin/sh -c; stdin /dev/null */
	const char *metric;	 /* POSIX ERE with a capture group: every line of CMD's
				  * stdout that matches gives one sample (group 1);
				  * NULL = the wall time of each run in ms */
	bool have_cmd_cpus;	 /* CMD's CPU affinity (inherited by its children) */
	struct cpumask cmd_cpus; /* ... */
	bool cmd_quiet;		 /* CMD's stderr to /dev/null (the TUI) */
	/* AB_FILE (metric_file != NULL, no cmd; metric required) */
	const char *metric_file; /* a log the app appends to, followed (logfollow.h) */
	/* both */
	const char *load; /* --load SPEC, NULL = none */
	uint64_t seed;	  /* seed of the random arrangements beyond exact enumeration
			   * (STATS_DEFAULT_SEED) */
	enum ab_restore restore;
	bool aa; /* A/A: both arms the same value (value[0] == value[1]) */
	/* What is tested (ab_family_adjust): AB_PRIMARY_ALL (the default) tests
	 * p99, p50 and mean of every comparison, Holm over all of them; a
	 * metric (AB_P99, AB_P50, AB_MEAN) or AB_PRIMARY_SOURCE (--primary
	 * metric: p99 for the probe, the mean for --cmd and --metric-file)
	 * tests only that one, chosen before the run; the others are
	 * described, not tested. */
	int primary;
};

#define AB_PRIMARY_ALL	  (-1)
#define AB_PRIMARY_SOURCE (-2)
/* The family-wise error of a run's verdict: at most this. */
#define AB_ALPHA 0.05

/* Defaults: 2 s windows, 500 ms settle, 6 rounds, the probe on all online
 * CPUs at 1000 us, SCHED_FIFO 95, PM QoS untouched, the default seed,
 * AB_RESTORE_RUN. */
void ab_cfg_init(struct ab_cfg *c);

/* Parse "ADDR=A,B" into cfg->addr/value and check both values for every knob
 * the address expands to (knob_validate); nothing is touched. "ADDR=A|B"
 * separates values that hold commas themselves (CPU lists); with several
 * commas and no '|', the one split whose both halves are valid is taken.
 * A = B is refused unless cfg->aa is set; then "ADDR" (the knobs' current
 * value, which must be the same on all), "ADDR=V" and "ADDR=V,V" all give
 * A = B = V.
 * Returns 0, or -EINVAL / -ENOENT (usage: exit 2) with a one-line cause
 * (malloc'ed, no "tunetop: " prefix). As in the knob engine, *cause must be
 * NULL or an earlier cause, which is freed and replaced. */
int ab_parse_knob(struct knob_ctx *ctx, const char *arg, struct ab_cfg *cfg, char **cause);

/* Check the rest of a configuration (timing ranges, the metric regex, the
 * load spec, the probe settings): 0 or -EINVAL with a one-line reason naming
 * the CLI option. */
int ab_cfg_check(const struct ab_cfg *cfg, char *why, size_t cap);

/* The per-window metrics the arms are compared on. */
enum ab_metric {
	AB_P99,
	AB_P50,
	AB_MEAN,
	AB_NMETRICS,
};

struct ab_window {
	int arm;		   /* 0 = A, 1 = B (a sweep: the index of its value) */
	bool done;		   /* measured */
	uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC, the measuring part */
	uint64_t samples;
	double mean, p50, p99, max; /* in the run's unit; NAN when no samples */
	size_t val_from, val_to;    /* AB_CMD, AB_FILE: the arm's values of this window */
	unsigned cmd_runs;	    /* AB_CMD: CMD runs in the window */
	enum knob_effect effect;    /* the knob's effect watched over the window */
	/* Mean power over the window (power_total_w of the root's hwmon /
	 * RAPL sensors: energy counters over the window, instant sensors at
	 * its end); NAN = no sensor. */
	double watts;
	/* AB_PROBE: deadlines the probe skipped in the window (hist.overflows:
	 * it woke after the following deadline); 0 for CMD and the log, which
	 * have no deadlines. */
	uint64_t missed;
	/* Lost: the probe stalled (did not wake, or did not answer the reset,
	 * within the run's timeout): done, but no values (NAN), left out of the
	 * comparison (its round drops out) and named in the report. */
	bool lost;
	char lost_why[160];
};

struct ab_arm {
	char value[KNOB_VALUE_MAX];
	unsigned windows; /* measured */
	struct hist hist; /* AB_PROBE: all measured windows merged */
	double *val;	  /* AB_CMD: samples in order */
	size_t nval, capval;
	unsigned cmd_runs;
	unsigned not_seen; /* windows where the knob was not in effect */
	unsigned lost;	   /* lost windows (ab_window.lost) */
	uint64_t missed;   /* deadlines missed in its measured windows */
	double watts_sum;  /* windows' watts, summed over watts_n windows that had it */
	unsigned watts_n;
	char effect_evidence[320]; /* the first of them */
};

struct ab_result {
	bool complete;			  /* every window measured (phase AB_DONE) */
	bool aa;			  /* an A/A run */
	struct stats_summary a, b;	  /* every sample of each arm pooled: description only */
	int windows;			  /* measured windows */
	unsigned rounds;		  /* complete rounds the comparison uses */
	bool conclusive;		  /* rounds >= STATS_ABBA_MIN_ROUNDS: intervals exist */
	struct stats_abba m[AB_NMETRICS]; /* B − A of the per-window p99, p50, mean */
	/* A sweep (and an A/B: nvalues 2, cmp[1] == m): Vi − V1 for i >= 1,
	 * each from the rounds' four windows of V1 and Vi (stats_abba), and
	 * its p-value adjusted by Holm–Bonferroni over the nvalues − 1
	 * comparisons of the metric (the A/B: the p itself). */
	unsigned nvalues;
	struct stats_summary arms[AB_MAX_VALUES]; /* pooled, description only */
	struct stats_abba cmp[AB_MAX_VALUES][AB_NMETRICS];
	double p_adj[AB_MAX_VALUES][AB_NMETRICS]; /* Holm over the family; NAN when
						   * inconclusive or not tested */
	double level[AB_MAX_VALUES][AB_NMETRICS]; /* mean of the arm's windows' values
						   * (complete rounds; for plots) */
	bool sig[AB_MAX_VALUES][AB_NMETRICS];	  /* tested and p_adj < AB_ALPHA */
	/* The family (ab_family_adjust): which metric of which comparison is
	 * tested, how many tests, and the primary metric (AB_PRIMARY_ALL:
	 * every metric is tested). */
	bool tested[AB_MAX_VALUES][AB_NMETRICS];
	unsigned family;
	int primary;
	double max[AB_MAX_VALUES];  /* each arm's largest sample (window maxima) */
	int max_win[AB_MAX_VALUES]; /* the window it came from, 0-based; -1 = none */
	double max_diff;	    /* max[1] − max[0]: one sample each, never tested */
	int cmp_err;		    /* -EINVAL when an arm has no samples */
	/* the knob was not in effect in some window: no verdict (the
	 * difference cannot be credited to it); -1 = it was in every one */
	int not_in_effect_arm;
	/* Missed deadlines (AB_PROBE; have_missed false otherwise): each arm's
	 * total over its measured windows, Vi − V1 of the per-window counts
	 * (stats_abba, as the percentiles), and missed_more[i]: +1 when Vi
	 * misses significantly more than V1 (p < 0.05 unadjusted: the caution
	 * errs on the safe side), −1 when fewer, 0 otherwise. A value that
	 * misses more is never called better on percentiles alone: the
	 * verdict says both. */
	bool have_missed;
	uint64_t missed[AB_MAX_VALUES];
	struct stats_abba missed_cmp[AB_MAX_VALUES];
	int missed_more[AB_MAX_VALUES];
	unsigned lost;	    /* lost windows */
	char verdict[2560]; /* "cpuidle/4-7/cpu-sleep/disable=1: p99 −87 µs [...] ..." */
};

struct ab_status {
	enum ab_phase phase;
	int win, nwin;			 /* current window (0-based; == nwin at the end), total */
	int arm;			 /* arm of the current window, -1 when none */
	double left_s;			 /* time left in the settle or measuring part */
	uint64_t samples[AB_MAX_VALUES]; /* per arm, measured windows only */
	unsigned windows[AB_MAX_VALUES]; /* measured windows per arm */
};

struct ab_child; /* private: one CMD run */

struct ab_run {
	struct ab_cfg cfg;
	enum ab_source source;
	enum ab_phase phase;
	const char *unit; /* "µs", "ms", the --metric unit guess, or "" (points to unit_buf) */
	char unit_buf[16];
	char label[KNOB_ADDR_MAX + KNOB_VALUE_MAX + 2]; /* "ADDR=B" for the verdict */
	size_t nknobs;					/* knobs the address expands to */
	char original[KNOB_VALUE_MAX]; /* value before the run ("0"; "0 1 ..." when mixed) */
	int nwin, win;
	struct ab_window *w;
	struct ab_arm arm[AB_MAX_VALUES];
	unsigned narms;		    /* 2, or the sweep's values */
	struct power_info pw_start; /* the sensors at the open window's start */
	uint64_t start_ns, end_ns;
	/* stalls (AB_PROBE): the timeout of a reset and of a wake-up, scaled
	 * with the lateness the run has seen (ab_stall_timeout_ns); the largest
	 * one used, and the lost windows so far / in a row */
	uint64_t stall_timeout_ns, stall_timeout_max_ns;
	double late_max_us; /* the largest window p99 so far: the machine's routine lateness */
	unsigned lost, lost_in_row;
	/* errors */
	int err;	 /* first error, 0 or -errno (AB_FAILED) */
	char *err_cause; /* its text, possibly several lines */
	bool restored;	 /* the restore step ran */
	int restore_err; /* 0 or -errno */
	char *restore_cause;
	struct sbuf restore_report; /* the engine's lines ("...: 1 -> 0 (restored)") */
	/* measuring */
	struct probe probe; /* own probe (AB_PROBE without probe_ext) */
	struct probe *p;    /* the probe in use */
	bool own_probe;
	struct load load;
	struct load_spec load_spec;
	bool have_load;
	regex_t re;
	bool have_re;
	struct logfollow follow; /* AB_FILE */
	bool have_follow;
	uint64_t file_unparsed; /* AB_FILE: matches whose capture is not a number */
	struct ab_result res;
	/* private */
	char *own_cmd, *own_metric, *own_load; /* cfg's strings, copied */
	char *own_metric_file;
	struct knob_ctx *ctx;
	struct knob_effect_watch *watch; /* the window being measured */
	pthread_mutex_t lock;
	bool cancel_req, cancelling;
	uint64_t t_end, kill_at;
	struct ab_child *child;
	uint64_t *txn;
	size_t ntxn, captxn;
	uint64_t jwater;
	struct sbuf notes;
	size_t notes_taken;
};

/* Start: re-check the knob and both values, make sure the knobs are
 * writable, start the load and the probe. Nothing is written yet (the first
 * ab_poll sets A). Returns 0, or -errno with a cause (one line per
 * problem; knob_exit_code() gives the exit code: bad values 2, the rest 1).
 * On error everything started is stopped again; call ab_free anyway. */
int ab_start(struct ab_run *r, struct knob_ctx *ctx, const struct ab_cfg *cfg, char **cause);

/* Advance: switch, settle, measure, restore. Returns the phase; *next_ms
 * (may be NULL) is how long the caller may wait before calling again. */
enum ab_phase ab_poll(struct ab_run *r, int *next_ms);
/* Ask to stop: the next ab_poll restores the knob, stops a running CMD
 * (SIGTERM to its process group, SIGKILL after 2 s) and ends in
 * AB_CANCELLED. Safe from any thread and from a signal handler. */
void ab_cancel(struct ab_run *r);
bool ab_finished(const struct ab_run *r);
/* The comparison: final once finished; while running, a provisional one
 * over the windows measured so far (recomputed on each call). */
const struct ab_result *ab_result(struct ab_run *r);

/* Thread-safe views for a live display. */
void ab_status(struct ab_run *r, struct ab_status *st);
/* AB_PROBE: the arm's histogram, including the window being measured. */
void ab_snapshot(struct ab_run *r, int arm, struct hist *out);
/* Copy up to cap windows (measured or not: see .done); returns nwin. */
size_t ab_windows(struct ab_run *r, struct ab_window *out, size_t cap);
/* AB_CMD: copy up to cap of the arm's samples; returns how many there are. */
size_t ab_values(struct ab_run *r, int arm, double *out, size_t cap);
/* Either source: the arm's summary so far (live window included). */
void ab_summary(struct ab_run *r, int arm, struct stats_summary *s);
/* Engine notes not yet taken (distinct lines, e.g. "note: ...: wrote 1, the
 * kernel reports 0 (ignored)"), appended to out; returns their count. */
size_t ab_take_notes(struct ab_run *r, struct sbuf *out);

/* Stop everything; if still running, cancel and restore first (blocking).
 * Safe on a zeroed or failed-to-start struct. */
void ab_free(struct ab_run *r);
/* The stall timeout for a probe of this interval on a machine whose
 * wake-ups are routinely late_us late (the largest window p99 seen): 2
 * intervals + max(AB_STALL_MIN_MS, 3 × late), at most AB_STALL_MAX_MS. A
 * window in which the probe did not wake for longer (it was frozen or
 * starved), or whose reset it did not answer in that time, is lost. */
#define AB_STALL_MIN_MS	   100
#define AB_STALL_MAX_MS	   5000
#define AB_LOST_IN_ROW_MAX 3 /* lost windows in a row that end the run */
uint64_t ab_stall_timeout_ns(uint64_t interval_us, double late_us);
/* Mean watts of an arm over its windows that had a power reading, NAN none. */
double ab_arm_watts(const struct ab_run *r, int arm);

/* Helpers shared with the CLI and the TUI. */
const char *ab_phase_name(enum ab_phase ph); /* "switch", "settle", "measure", "done", ... */
char ab_arm_name(int arm);		     /* 'A' / 'B' (a sweep: 'C', 'D', ...) */
const char *ab_metric_name(int m);	     /* "p99", "p50", "mean" */
double ab_window_metric(const struct ab_window *w, int m);
int ab_window_arm(int win); /* ABBA BAAB: 0 1 1 0 1 0 0 1 0 1 1 0 ... */
/* The schedule of k values (2..AB_MAX_VALUES) over `rounds` rounds of 2k
 * windows: arm[] gets the value index of each window. Round r is an order
 * P_r of the k values followed by its reverse, so every value appears once
 * in each half and twice per round, and the four windows of V1 and any Vi
 * in a round come as ABBA or BAAB (what stats_abba compares). P_r is a base
 * order rotated by r (a Latin square over k rounds: each value takes each
 * position equally often); the base is V1 followed by V2..Vk shuffled with
 * `seed`. Two values give exactly ab_window_arm's ABBA BAAB. */
void ab_schedule(unsigned k, unsigned rounds, uint64_t seed, int *arm);
/* A text plot of a sweep's metric m against the values, one line per value
 * (at most `width` columns): V1's level and each Vi's V1 + (Vi − V1) with
 * its 95 % interval as a bar, "*" when significant after Holm. */
void ab_sweep_plot(const struct ab_result *res, const char (*values)[KNOB_VALUE_MAX],
		   const char *unit, int m, int width, struct sbuf *out);
/* The metric a sweep's table and plot show: --primary if given, else p99
 * (the probe), mean (CMD, the log). */
int ab_primary_metric(const struct ab_run *r);
/* "p99", "p50", "mean", "metric" (AB_PRIMARY_SOURCE), "all" (AB_PRIMARY_ALL)
 * into *out; -EINVAL for anything else. */
int ab_primary_parse(const char *s, int *out);
/* Decide significance for a whole run: the tests are metric m of the
 * comparison Vi − V1 (i = 1..nvalues−1) for every m, or only m = primary
 * (>= 0); their p-values (res->cmp[i][m].p) are adjusted by Holm over all
 * of them, and a test is significant when its adjusted p < AB_ALPHA — so
 * the chance that a run calls anything significant when nothing differs is
 * at most 5 %. Fills res->tested, family, primary, p_adj and sig; uses
 * nvalues, conclusive and cmp. */
void ab_family_adjust(struct ab_result *res, int primary);
/* One formatter for every difference a report shows (the verdict, the text
 * tables, the TUI): v to dec decimals, rounded half away from zero, with an
 * explicit sign if sign (U+2212 for minus unless ascii), "n/a" for NAN. */
void ab_put_num(struct sbuf *o, double v, int dec, bool sign, bool ascii);
/* The decimals of a difference and its interval (est, lo, hi) in the run's
 * unit: whole numbers from 10 up for the probe, by magnitude otherwise, and
 * more while a non-zero bound would print as 0. */
int ab_diff_decimals(const struct ab_run *r, const struct stats_abba *c);
/* Decimals of a value of this magnitude in the run's unit (a level, a
 * spread, a detectable difference). */
int ab_value_decimals(const struct ab_run *r, double mag);
/* What the run tested and how ("Holm over 3 tests (p99, p50, mean): ...",
 * "primary metric p99, chosen before the run; ..."). */
void ab_family_text(const struct ab_result *res, struct sbuf *o);
/* A sensible B for an A/B of the knob `addr` that now reads `cur`, from its
 * allowed values as knob_allowed() prints them: 0 <-> 1; a governor ->
 * performance (performance -> schedutil, else the first other); lock_* off
 * <-> the highest frequency; min/max: the highest, or the lowest when at the
 * highest; a CPU list -> its first CPU (one CPU -> every allowed CPU);
 * thread policy other <-> fifo:50; rt_runtime -1 <-> 950000; a resume
 * latency -> n/a (polling only) and back to 0; cpu_dma_latency -> 0 (0 ->
 * 2000000000, no request); other ranges -> 0, or half the lower end when at
 * 0 (nice 0 -> -10). Anything else (free-form tunables): cur, for the user
 * to edit. Never returns cur when another allowed value is known. */
void ab_suggest_other(const char *addr, const char *cur, const char *allowed, char *out,
		      size_t cap);

#endif
