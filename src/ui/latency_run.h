/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's latency probe and A/B state (src/ui/latency_run.c), shared
 * with the Latency screen that draws it (src/ui/screen_latency.c). */
#ifndef TT_UI_LATENCY_RUN_H
#define TT_UI_LATENCY_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "probe/ab.h"
#include "probe/histogram.h"
#include "probe/probe.h"
#include "probe/stats.h"
#include "probe/whyattr.h"
#include "ui/tui.h"

#define LAT_REFRESH_MS 500 /* live views: at most two refreshes a second */
#define LAT_HIST_MIN_W 22  /* narrowest histogram column */
#define LAT_MAX_BINS   128

enum { LAT_SRC_PROBE, LAT_SRC_LOG };

#define LAT_WHY_ATTR_MS 3000 /* the "Why late" panel attributes this often */

struct whycap;

/* The "Why late" panel (src/ui/latency_why.c): the event capture beside the
 * probe and the attribution of its last interval. */
struct lat_why {
	bool on;	    /* w asked for it (the panel is shown) */
	struct whycap *cap; /* NULL: not captured, why says why */
	char why[256];	    /* one line */
	char note[160];	    /* e.g. that tracefs was mounted */
	struct probe_late *buf;
	struct why_result res; /* the last interval with late wake-ups */
	bool have_res;
	unsigned n_late_last; /* late wake-ups of the last interval */
	uint64_t lost;	      /* events lost, all CPUs, since w */
	uint64_t at_ns, next_poll_ns, next_attr_ns;
	unsigned ticks;
	/* the capture's own footprint (the Setup screen): events read per
	 * second over the last second or more (NAN until known) */
	double ev_per_s;
	uint64_t rate_read, rate_at_ns;
};

/* One table row of the probe view: every CPU merged, or one CPU. */
struct lat_row {
	int cpu; /* -1 = all */
	struct hist *h;
	struct stats_summary s;
};

struct latency {
	/* the probe started with s */
	struct probe probe;
	bool probe_on;	   /* measuring */
	bool probe_inited; /* probe_free needed */
	char cpus_text[256];
	char no_mlock_note[160];
	uint64_t probe_secs_ns; /* running time at the last refresh */
	struct lat_row *row;	/* [0] all, then one per CPU; nrow = probe.n + 1 */
	int nrow;
	/* the A/B started with A */
	struct ab_run ab;
	bool ab_on;    /* started and not yet freed */
	bool ab_shown; /* the A/B view (running or its result) replaces the probe view */
	struct hist *abh[AB_MAX_VALUES];
	struct stats_summary abs[AB_MAX_VALUES];
	unsigned ab_k;			/* values: 2, or a sweep's 3..AB_MAX_VALUES */
	double ab_watts[AB_MAX_VALUES]; /* mean watts per arm (NAN: no sensor) */
	struct ab_result ab_res;	/* the finished run's result (a sweep's table) */
	bool ab_have_res;		/* ... is set */
	int ab_pm;			/* the metric a sweep's table shows (ab_primary_metric) */
	char ab_unit[16];		/* the run's unit */
	struct ab_status st;
	struct ab_window *abw; /* the windows (copied: they outlive the run) */
	int nabw;
	char ab_probe_line[200]; /* what the A/B measures with */
	/* the source the A dialog on the Latency screen chose: the probe, or an
	 * app's log (ab --metric-file LOG --metric REGEX, source AB_FILE) */
	int ab_src_sel;	  /* LAT_SRC_*: the dialog's choice, kept for the next A */
	char ab_log[512]; /* LOG as typed */
	char ab_re[256];  /* REGEX as typed */
	bool ab_file;	  /* the run shown measures a log (no probe: L->ab.p is NULL) */
	char ab_src[512]; /* ... its LOG, for the header ("source: LOG") */
	int told_empty;	  /* the last window whose emptiness the status line told */
	int seen_win;	  /* window whose switch the UI has caught up with */
	char ab_addr[KNOB_ADDR_MAX];
	char ab_val[AB_MAX_VALUES][KNOB_VALUE_MAX];
	char ab_orig[KNOB_VALUE_MAX];
	size_t ab_nknobs;
	char verdict[2048];
	char ab_end[400]; /* how it ended and how the knob was put back */
	bool ab_end_err;
	char ab_busy[KNOB_ADDR_MAX + 80];
	char last_assign[KNOB_ADDR_MAX + 4 * KNOB_VALUE_MAX + 2];
	/* --record: the probe's merged histogram at the last recorded window */
	struct hist *rec_last;
	struct lat_why why;
	/* refresh */
	uint64_t next_refresh_ns;
	int pending;	/* HR_* bits for the main loop */
	bool told_exit; /* an A/B cancelled by leaving: say so on exit */
};

/* t->lat, created on first use. */
struct latency *lat_get(struct screen_ctx *t);
/* The Latency screen is the current one. */
bool lat_shown(const struct screen_ctx *t);
/* Percentiles of a histogram as the CLI prints them. */
void lat_hist_summary(const struct hist *h, struct stats_summary *s);
/* Formatting: a latency in us ("n/a" for NAN), a monotonic time as the
 * wall-clock time of day, a duration. */
const char *lat_fmt_us(char *buf, size_t cap, double v, bool mean);
void lat_fmt_when(uint64_t mono_ns, char *buf, size_t cap);
void lat_fmt_dur(uint64_t ns, char *buf, size_t cap);
/* Refresh the cache from the running probe or A/B. */
void lat_refresh(struct latency *L);
/* The Latency screen's actions (HR_* results): s, r, x / Esc. */
int lat_act_start_stop(struct screen_ctx *t, struct latency *L);
int lat_act_reset(struct screen_ctx *t, struct latency *L);
int lat_act_cancel(struct screen_ctx *t, struct latency *L);
/* The "Why late" panel (latency_why.c): w toggles the capture, f applies
 * the selected cause's fix; the tick polls and attributes (ms: the wait
 * it needs); off closes it (the probe stopped); rows: its selectable rows. */
int lat_why_toggle(struct screen_ctx *t, struct screen *s, struct latency *L);
int lat_why_fix(struct screen_ctx *t, struct screen *s, struct latency *L);
void lat_why_tick(struct latency *L, int *ms);
void lat_why_off(struct latency *L);
int lat_why_rows(const struct latency *L);
void lat_why_draw(struct screen_ctx *t, struct screen *s, struct latency *L, int y, int h);

#endif