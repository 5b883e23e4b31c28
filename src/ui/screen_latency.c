/* The Latency screen (key 0): the TUI's latency probe and its A/B runs.
 *
 * Owns the probe the user starts here (s: on the CPUs typed in, default
 * every online CPU of the live machine; r clears the histograms), the A/B
 * run that A starts on a knob row of any screen, and a cache of what both
 * show. The probe measures in its own pinned threads (src/probe/probe.c);
 * the A/B is the non-blocking state machine of src/probe/ab.c, advanced by
 * latency_background() from the UI loop and from the dialogs' key waits, so
 * its windows keep their length whatever the user is doing. The cache
 * (per-CPU histograms and percentiles, or the two arms) is refreshed at
 * most every LAT_REFRESH_MS and only while this screen is shown; drawing
 * reads the cache only. Leaving tunetop (quit, SIGTERM, SIGINT, SIGHUP)
 * cancels a running A/B, which puts its knob back, and stops the probe. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "core/cpumask.h"
#include "core/err.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "model/record.h"
#include "model/replay.h"
#include "probe/ab.h"
#include "probe/histogram.h"
#include "probe/probe.h"
#include "probe/stats.h"
#include "ui/tui.h"

#define LAT_REFRESH_MS 500 /* live views: at most two refreshes a second */
#define LAT_HIST_MIN_W 22  /* narrowest histogram column */
#define LAT_MAX_BINS   128

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
	struct hist *abh[2];
	struct stats_summary abs[2];
	struct ab_status st;
	struct ab_window *abw; /* the windows (copied: they outlive the run) */
	int nabw;
	char ab_probe_line[200]; /* what the A/B measures with */
	int seen_win;		 /* window whose switch the UI has caught up with */
	char ab_addr[KNOB_ADDR_MAX];
	char ab_val[2][KNOB_VALUE_MAX];
	char ab_orig[KNOB_VALUE_MAX];
	size_t ab_nknobs;
	char verdict[1024];
	char ab_end[400]; /* how it ended and how the knob was put back */
	bool ab_end_err;
	char ab_busy[KNOB_ADDR_MAX + 80];
	char last_assign[KNOB_ADDR_MAX + 2 * KNOB_VALUE_MAX + 2];
	/* --record: the probe's merged histogram at the last recorded window */
	struct hist *rec_last;
	/* refresh */
	uint64_t next_refresh_ns;
	int pending;	/* HR_* bits for the main loop */
	bool told_exit; /* an A/B cancelled by leaving: say so on exit */
};

static struct latency *lat_get(struct tui *t)
{
	if (!t->lat)
		t->lat = xcalloc(1, sizeof(*t->lat));
	return t->lat;
}

static bool lat_shown(const struct tui *t)
{
	return t->screens[t->cur].ops == &screen_latency;
}

/* ---- statistics of a histogram (what the CLI prints) -------------------------- */

static void hist_summary(const struct hist *h, struct stats_summary *s)
{
	struct stats_dist d;

	stats_dist_from_hist(&d, h);
	stats_summarize(&d, s);
	stats_dist_free(&d);
}

/* Whole microseconds (truncated like the buckets), or a mean with one
 * decimal; n/a when unknown. */
static const char *fmt_us(char *buf, size_t cap, double v, bool mean)
{
	if (isnan(v))
		snprintf(buf, cap, "n/a");
	else if (mean)
		snprintf(buf, cap, "%.1f", v);
	else
		snprintf(buf, cap, "%.0f", floor(v));
	return buf;
}

/* Wall-clock time of a CLOCK_MONOTONIC instant in the past. */
static void fmt_when(uint64_t mono_ns, char *buf, size_t cap)
{
	uint64_t now = time_mono_ns();
	time_t when =
		(time_t)((time_real_ns() - (now > mono_ns ? now - mono_ns : 0)) / 1000000000u);
	struct tm tm;

	if (!mono_ns || !localtime_r(&when, &tm))
		snprintf(buf, cap, "n/a");
	else
		strftime(buf, cap, "%H:%M:%S", &tm);
}

static void fmt_dur(uint64_t ns, char *buf, size_t cap)
{
	unsigned long long s = ns / 1000000000u;

	if (s >= 3600)
		snprintf(buf, cap, "%llu:%02llu:%02llu", s / 3600, s % 3600 / 60, s % 60);
	else
		snprintf(buf, cap, "%llu:%02llu", s / 60, s % 60);
}

/* ---- the cache ------------------------------------------------------------------ */

static void free_rows(struct latency *L)
{
	for (int i = 0; i < L->nrow; i++)
		free(L->row[i].h);
	free(L->row);
	L->row = NULL;
	L->nrow = 0;
}

static void refresh_probe(struct latency *L)
{
	struct probe *p = &L->probe;

	if (!L->probe_inited)
		return;
	if (L->nrow != p->n + 1) {
		free_rows(L);
		L->nrow = p->n + 1;
		L->row = xcalloc((size_t)L->nrow, sizeof(*L->row));
		for (int i = 0; i < L->nrow; i++) {
			L->row[i].h = xmalloc(sizeof(struct hist));
			L->row[i].cpu = i ? p->thr[i - 1].cpu : -1;
		}
	}
	hist_init(L->row[0].h);
	for (int i = 0; i < p->n; i++) {
		probe_snapshot(p, i, L->row[i + 1].h);
		hist_merge(L->row[0].h, L->row[i + 1].h);
	}
	for (int i = 0; i < L->nrow; i++)
		hist_summary(L->row[i].h, &L->row[i].s);
	L->probe_secs_ns = (L->probe_on ? time_mono_ns() : p->stop_ns) - p->start_ns;
}

static void refresh_ab(struct latency *L)
{
	for (int a = 0; a < 2; a++) {
		if (!L->abh[a])
			L->abh[a] = xmalloc(sizeof(struct hist));
		ab_snapshot(&L->ab, a, L->abh[a]);
		hist_summary(L->abh[a], &L->abs[a]);
	}
	ab_status(&L->ab, &L->st);
	if (L->st.nwin > 0) {
		L->abw = xrealloc(L->abw, (size_t)L->st.nwin * sizeof(*L->abw));
		L->nabw = (int)ab_windows(&L->ab, L->abw, (size_t)L->st.nwin);
		if (L->nabw > L->st.nwin)
			L->nabw = L->st.nwin;
	}
}

static void lat_refresh(struct latency *L)
{
	if (L->ab_on)
		refresh_ab(L);
	else if (L->probe_inited)
		refresh_probe(L);
	L->next_refresh_ns = time_mono_ns() + LAT_REFRESH_MS * 1000000ull;
}

/* ---- the probe -------------------------------------------------------------------- */

/* Locking memory for good (MCL_FUTURE) in a long-lived process is only safe
 * without a memory-lock limit: as root, or with RLIMIT_MEMLOCK unlimited. */
static bool mlock_unsafe(void)
{
	struct rlimit rl;

	if (geteuid() == 0)
		return false;
	return getrlimit(RLIMIT_MEMLOCK, &rl) != 0 || rl.rlim_cur != RLIM_INFINITY;
}

static void probe_cfg_for(struct tui *t, struct latency *L, const struct cpumask *cpus,
			  struct probe_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->cpus = *cpus;
	c->interval_us = (uint64_t)t->cfg.probe_interval_us;
	c->policy = PROBE_POLICY_FIFO; /* falls back to SCHED_OTHER with a notice */
	c->prio = PROBE_DEFAULT_PRIO;
	c->dma_latency_us = -1; /* PM QoS untouched, as the CLI */
	c->no_mlock = mlock_unsafe();
	L->no_mlock_note[0] = '\0';
	if (c->no_mlock)
		snprintf(L->no_mlock_note, sizeof(L->no_mlock_note),
			 "memory not locked (not root: RLIMIT_MEMLOCK would limit tunetop)");
}

/* Parse the CPU prompt: a list, or all / * / empty for every online CPU. */
static int parse_cpus(const char *text, struct cpumask *out, char *why, size_t cap)
{
	char buf[256];
	char *s;
	int e;

	str_copy(buf, sizeof(buf), text);
	s = str_trim(buf);
	if (!*s || !strcmp(s, "all") || !strcmp(s, "*")) {
		e = probe_online_cpus(out);
		if (e)
			snprintf(why, cap, "/sys/devices/system/cpu/online: %s", err_name(e));
		return e;
	}
	if (cpulist_parse(s, out) != 0) {
		snprintf(why, cap, "'%s' is not a CPU list (e.g. 0-3,6)", s);
		return -EINVAL;
	}
	return 0;
}

static void probe_notes_status(struct tui *t, struct latency *L, const struct probe *p,
			       const char *what)
{
	char pol[64], cpus[128];

	cpulist_format(&p->cfg.cpus, cpus, sizeof(cpus));
	probe_policy_text(p, pol, sizeof(pol));
	if (p->nnotes)
		tui_status(t, true, "%s on CPUs %s, %s: %s", what, cpus, pol, p->note[0]);
	else if (!p->mlocked && L->no_mlock_note[0])
		tui_status(t, false, "%s on CPUs %s, %s; %s", what, cpus, pol, L->no_mlock_note);
	else
		tui_status(t, false, "%s on CPUs %s, %s", what, cpus, pol);
}

/* --record: the probe's samples since the last window, every CPU merged,
 * as one "probe" line (model/record.h) after the sample of this tick. */
static void record_window(struct tui *t, struct latency *L)
{
	struct hist *now, *win;

	if (!t->rec || t->rec_failed || !L->probe_inited)
		return;
	if (!L->rec_last) {
		L->rec_last = xmalloc(sizeof(*L->rec_last));
		hist_init(L->rec_last);
	}
	now = xmalloc(sizeof(*now));
	win = xmalloc(sizeof(*win));
	probe_snapshot_all(&L->probe, now);
	hist_delta(win, now, L->rec_last);
	*L->rec_last = *now;
	if ((win->count || win->overflows) &&
	    record_probe(t->rec, win, L->cpus_text, L->probe.cfg.interval_us) != 0) {
		t->rec_failed = true;
		tui_status(t, true, "--record %s: write error, recording stopped", t->rec_path);
	}
	free(now);
	free(win);
}

bool latency_probe_findings(struct tui *t, double budget_us, struct findings_probe *out)
{
	struct latency *L = t->lat;
	struct hist *h;

	if (!L || !L->probe_inited || L->ab_on)
		return false;
	h = xmalloc(sizeof(*h));
	probe_snapshot_all(&L->probe, h);
	findings_probe_from_hist(h, budget_us, out);
	free(h);
	return out->have;
}

void latency_record(struct tui *t)
{
	if (t->lat && t->lat->probe_on)
		record_window(t, t->lat);
}

static void probe_stop_now(struct latency *L)
{
	if (!L->probe_on)
		return;
	probe_stop(&L->probe);
	L->probe_on = false;
	refresh_probe(L); /* the final numbers stay on screen */
}

static int act_start_stop(struct tui *t, struct latency *L)
{
	struct cpumask cpus, online;
	struct probe_cfg cfg;
	char buf[256], why[256], prompt[160], on[128];
	int e;

	if (L->ab_on) {
		tui_status(t, true, "Refused: an A/B is measuring (x cancels it first)");
		return HR_HANDLED | HR_REDRAW;
	}
	if (t->replay && !L->probe_on) {
		tui_status(t, true,
			   "Refused: REPLAY: the probe measures this machine, not the recording "
			   "(tunetop report FILE shows its probe windows)");
		return HR_HANDLED | HR_REDRAW;
	}
	if (L->probe_on) {
		char d[32];

		probe_stop_now(L);
		record_window(t, L); /* the last samples, after the threads stopped */
		fmt_dur(L->probe_secs_ns, d, sizeof(d));
		tui_status(t, false, "Probe stopped after %s (s starts it again)", d);
		return HR_HANDLED | HR_REDRAW;
	}
	if (probe_online_cpus(&online) != 0) {
		cpumask_zero(&online);
		cpumask_set(&online, 0);
	}
	cpulist_format(&online, on, sizeof(on));
	str_copy(buf, sizeof(buf), L->cpus_text[0] ? L->cpus_text : on);
	snprintf(prompt, sizeof(prompt), "CPUs to measure (online %s; all = every one):", on);
	if (ui_input(t, "Start the latency probe", prompt, buf, sizeof(buf)) != 0)
		return HR_HANDLED | HR_REDRAW;
	if (parse_cpus(buf, &cpus, why, sizeof(why)) != 0) {
		tui_status(t, true, "Refused: %s", why);
		return HR_HANDLED | HR_REDRAW;
	}
	probe_cfg_for(t, L, &cpus, &cfg);
	if (probe_cfg_check(&cfg, why, sizeof(why)) != 0) {
		tui_status(t, true, "Refused: %s", why);
		return HR_HANDLED | HR_REDRAW;
	}
	if (L->probe_inited)
		probe_free(&L->probe);
	e = probe_start(&L->probe, &cfg, why, sizeof(why));
	L->probe_inited = true;
	if (e) {
		tui_status(t, true, "Probe: %s", why);
		probe_free(&L->probe);
		L->probe_inited = false;
		free_rows(L);
		return HR_HANDLED | HR_REDRAW;
	}
	L->probe_on = true;
	L->ab_shown = false;
	if (L->rec_last)
		hist_init(L->rec_last); /* windows count from this start */
	cpulist_format(&cpus, L->cpus_text, sizeof(L->cpus_text));
	free_rows(L); /* other CPUs than last time, maybe as many */
	lat_refresh(L);
	probe_notes_status(t, L, &L->probe, "Probe started");
	return HR_HANDLED | HR_REDRAW;
}

static int act_reset(struct tui *t, struct latency *L)
{
	if (L->ab_on) {
		tui_status(t, true, "Refused: an A/B is measuring (x cancels it first)");
		return HR_HANDLED | HR_REDRAW;
	}
	if (!L->probe_on) {
		tui_status(t, true, "The probe is not running (s starts it)");
		return HR_HANDLED | HR_REDRAW;
	}
	record_window(t, L); /* what the reset would lose */
	if (probe_reset(&L->probe) != 0)
		tui_status(t, true, "Reset: the probe threads did not answer in time");
	else
		tui_status(t, false, "Histograms cleared");
	lat_refresh(L);
	return HR_HANDLED | HR_REDRAW;
}

/* ---- the A/B ------------------------------------------------------------------------- */

static void ab_finish(struct tui *t, struct latency *L)
{
	const struct ab_result *res;
	struct ab_run *r = &L->ab;
	struct sbuf notes;
	char line[300], d[32];
	size_t n;

	refresh_ab(L);
	res = ab_result(r);
	str_copy(L->verdict, sizeof(L->verdict), res->verdict);
	fmt_dur(r->end_ns - r->start_ns, d, sizeof(d));
	if (r->phase == AB_DONE) {
		snprintf(L->ab_end, sizeof(L->ab_end), "Done: %d windows in %s", r->nwin, d);
	} else if (r->phase == AB_CANCELLED) {
		snprintf(L->ab_end, sizeof(L->ab_end), "Cancelled after %d of %d windows (%s)",
			 L->st.win, r->nwin, d);
	} else {
		tui_first_line(r->err_cause, line, sizeof(line));
		snprintf(L->ab_end, sizeof(L->ab_end), "Failed: %s", line[0] ? line : "?");
	}
	n = strlen(L->ab_end);
	if (r->restore_err) {
		tui_first_line(r->restore_cause, line, sizeof(line));
		snprintf(L->ab_end + n, sizeof(L->ab_end) - n,
			 "; RESTORE FAILED: %s ('tunetop restore' retries)", line);
	} else {
		snprintf(L->ab_end + n, sizeof(L->ab_end) - n, "; %s is back to %s", L->ab_addr,
			 L->ab_orig);
	}
	/* e.g. "the kernel reports 0 (ignored)": the switch may not have acted */
	sbuf_init(&notes);
	if (ab_take_notes(r, &notes)) {
		tui_first_line(notes.s, line, sizeof(line));
		n = strlen(L->ab_end);
		snprintf(L->ab_end + n, sizeof(L->ab_end) - n, "; %s", line);
	}
	sbuf_free(&notes);
	L->ab_end_err = r->phase == AB_FAILED || r->restore_err;
	if (L->ab_end_err || r->phase != AB_DONE)
		tui_status(t, L->ab_end_err, "A/B %s", L->ab_end);
	else
		tui_status(t, false, "A/B done: %s", L->verdict);
	ab_free(r);
	L->ab_on = false;
	L->pending |= HR_RESCAN | HR_REDRAW;
}

static void ab_begin(struct tui *t, struct latency *L, const char *assign)
{
	struct ab_cfg cfg;
	struct cpumask cpus;
	char *cause = NULL, line[TUI_STATUS_LEN], why[256];
	int e;

	str_copy(L->last_assign, sizeof(L->last_assign), assign);
	ab_cfg_init(&cfg);
	e = ab_parse_knob(t->knob, assign, &cfg, &cause);
	if (e) {
		tui_first_line(cause, line, sizeof(line));
		tui_status(t, true, "A/B refused: %s", line[0] ? line : err_name(e));
		free(cause);
		return;
	}
	cfg.window_s = t->cfg.ab_window_s;
	cfg.settle_ms = (unsigned)t->cfg.ab_settle_ms;
	cfg.rounds = (unsigned)t->cfg.ab_rounds;
	cfg.restore = AB_RESTORE_OWN; /* the user's own changes stay */
	if (L->probe_on) {
		cfg.probe_ext = &L->probe; /* measure with the running probe */
	} else {
		if (parse_cpus(L->cpus_text, &cpus, why, sizeof(why)) != 0) {
			cpumask_zero(&cpus);
			cpumask_set(&cpus, 0);
		}
		probe_cfg_for(t, L, &cpus, &cfg.probe);
	}
	e = ab_start(&L->ab, t->knob, &cfg, &cause);
	if (e) {
		tui_first_line(cause, line, sizeof(line));
		tui_status(t, true, "A/B refused: %s", line[0] ? line : err_name(e));
		free(cause);
		ab_free(&L->ab);
		return;
	}
	free(cause);
	L->ab_on = L->ab_shown = true;
	str_copy(L->ab_addr, sizeof(L->ab_addr), cfg.addr);
	str_copy(L->ab_val[0], sizeof(L->ab_val[0]), cfg.value[0]);
	str_copy(L->ab_val[1], sizeof(L->ab_val[1]), cfg.value[1]);
	str_copy(L->ab_orig, sizeof(L->ab_orig), L->ab.original);
	L->ab_nknobs = L->ab.nknobs;
	{
		char pol[64], list[128];

		cpulist_format(&L->ab.p->cfg.cpus, list, sizeof(list));
		probe_policy_text(L->ab.p, pol, sizeof(pol));
		snprintf(L->ab_probe_line, sizeof(L->ab_probe_line),
			 "%u rounds (ABBA, BAAB, ...), %g s windows, settle %u ms; probe%s on CPUs "
			 "%s "
			 "every %llu us, "
			 "%s",
			 cfg.rounds, cfg.window_s, cfg.settle_ms, cfg.probe_ext ? " (running)" : "",
			 list, (unsigned long long)L->ab.p->cfg.interval_us, pol);
	}
	L->verdict[0] = L->ab_end[0] = '\0';
	L->ab_end_err = false;
	L->seen_win = -1;
	L->nabw = 0;
	snprintf(L->ab_busy, sizeof(L->ab_busy),
		 "an A/B of %s is running (x on the Latency screen cancels it)", L->ab_addr);
	tui_show_screen(t, "latency");
	if (L->ab.p != &L->probe && L->ab.p->nnotes)
		tui_status(t, true, "A/B started: %s=%s,%s (x cancels); probe: %s", L->ab_addr,
			   L->ab_val[0], L->ab_val[1], L->ab.p->note[0]);
	else
		tui_status(t, false, "A/B started: %s=%s,%s (x cancels)", L->ab_addr, L->ab_val[0],
			   L->ab_val[1]);
	L->pending |= HR_REDRAW;
}

/* The knobs of the selected row: what its explain items name that is a
 * knob address (metrics have no '/'); a per-CPU idle state also on all
 * CPUs. */
struct ab_cand {
	char addr[KNOB_ADDR_MAX];
	char cur[KNOB_VALUE_MAX]; /* of the first knob it expands to */
	char label[KNOB_ADDR_MAX + 40];
};

static int row_knobs(struct tui *t, struct screen *s, struct ab_cand *c, int max)
{
	struct explain_item it[TUI_MAX_EXPLAIN];
	int n = s->ops->explain ? s->ops->explain(t, s, it, TUI_MAX_EXPLAIN) : 0, k = 0;

	for (int i = 0; i < n && k < max; i++) {
		struct knob_ref *refs = NULL;
		size_t nrefs = 0;
		char *cause = NULL;
		int cpu, st;
		char rest[KNOB_ADDR_MAX];

		if (!strchr(it[i].key, '/') || strchr(it[i].key, '*'))
			continue;
		if (knob_expand(t->knob, it[i].key, 0, &refs, &nrefs, &cause) || !nrefs) {
			free(cause);
			free(refs);
			continue;
		}
		if (knob_read(t->knob, &refs[0], c[k].cur, sizeof(c[k].cur)) != 0)
			str_copy(c[k].cur, sizeof(c[k].cur), "n/a");
		free(refs);
		str_copy(c[k].addr, sizeof(c[k].addr), it[i].key);
		snprintf(c[k].label, sizeof(c[k].label), "%s = %.24s", it[i].key, c[k].cur);
		k++;
		if (k < max &&
		    sscanf(it[i].key, "cpuidle/cpu%d/state%d/%63s", &cpu, &st, rest) == 3) {
			snprintf(c[k].addr, sizeof(c[k].addr), "cpuidle/*/state%d/%s", st, rest);
			str_copy(c[k].cur, sizeof(c[k].cur), c[k - 1].cur);
			snprintf(c[k].label, sizeof(c[k].label), "%s  (all CPUs)", c[k].addr);
			k++;
		}
	}
	return k;
}

/* 'A' on a knob row: ask for B (pre-filled with a sensible alternative),
 * then A/B the knob between its current value and B. */
static int ab_from_row(struct tui *t, struct latency *L, struct screen *s)
{
	struct ab_cand c[TUI_MAX_EXPLAIN * 2];
	const char *labels[TUI_MAX_EXPLAIN * 2];
	struct knob_ref *refs = NULL;
	size_t nrefs = 0;
	char *cause = NULL, allowed[KNOB_VALUE_MAX], other[KNOB_VALUE_MAX];
	char title[KNOB_ADDR_MAX + 16], prompt[KNOB_VALUE_MAX + 96];
	char assign[sizeof(L->last_assign)];
	const char *cur;
	int n = row_knobs(t, s, c, TUI_MAX_EXPLAIN * 2), k = 0;

	if (!n) {
		tui_status(t, true,
			   "No knob on this row to A/B (select a knob row, or A on the Latency "
			   "screen takes ADDRESS=A,B)");
		return HR_HANDLED | HR_REDRAW;
	}
	if (n > 1) {
		for (int i = 0; i < n; i++)
			labels[i] = c[i].label;
		k = ui_menu(t, "A/B of which knob", labels, n, 0, "Enter: choose   Esc: cancel");
		if (k < 0)
			return HR_HANDLED | HR_REDRAW;
	}
	if (knob_expand(t->knob, c[k].addr, 0, &refs, &nrefs, &cause) || !nrefs) {
		tui_status(t, true, "A/B refused: %s", cause ? cause : c[k].addr);
		free(cause);
		free(refs);
		return HR_HANDLED | HR_REDRAW;
	}
	if (knob_allowed(t->knob, &refs[0], allowed, sizeof(allowed)) != 0)
		allowed[0] = '\0';
	free(refs);
	cur = c[k].cur;
	ab_suggest_other(c[k].addr, cur, allowed, other, sizeof(other));
	snprintf(title, sizeof(title), "A/B %s", c[k].addr);
	snprintf(prompt, sizeof(prompt),
		 "A = %s (now). B = ?  %d rounds of 4 windows, %d s each, settle %d ms", cur,
		 t->cfg.ab_rounds, t->cfg.ab_window_s, t->cfg.ab_settle_ms);
	if (ui_input(t, title, prompt, other, sizeof(other)) != 0)
		return HR_HANDLED | HR_REDRAW;
	/* '|' separates values that hold commas (CPU lists) */
	snprintf(assign, sizeof(assign), "%s=%s%c%s", c[k].addr, cur,
		 strchr(cur, ',') || strchr(other, ',') ? '|' : ',', str_trim(other));
	ab_begin(t, L, assign);
	return HR_HANDLED | HR_REDRAW;
}

/* 'A' on the Latency screen: any ADDRESS=A,B. */
static int ab_typed(struct tui *t, struct latency *L)
{
	char buf[sizeof(L->last_assign)];
	char prompt[128];

	str_copy(buf, sizeof(buf), L->last_assign);
	snprintf(prompt, sizeof(prompt),
		 "ADDRESS=A,B  (%d rounds of 4 windows, %d s each, settle %d ms)", t->cfg.ab_rounds,
		 t->cfg.ab_window_s, t->cfg.ab_settle_ms);
	if (ui_input(t, "A/B a knob", prompt, buf, sizeof(buf)) != 0 || !*str_trim(buf))
		return HR_HANDLED | HR_REDRAW;
	ab_begin(t, L, str_trim(buf));
	return HR_HANDLED | HR_REDRAW;
}

int latency_ab_key(struct tui *t)
{
	struct latency *L = lat_get(t);
	const char *why;

	if (L->ab_on) {
		tui_show_screen(t, "latency");
		tui_status(t, true, "An A/B is already running (x cancels it)");
		return HR_HANDLED | HR_REDRAW;
	}
	why = tui_cannot_write(t);
	if (why) {
		tui_status(t, true, "Refused: %s", why);
		return HR_HANDLED | HR_REDRAW;
	}
	if (lat_shown(t))
		return ab_typed(t, L);
	return ab_from_row(t, L, &t->screens[t->cur]);
}

static int act_cancel(struct tui *t, struct latency *L)
{
	if (L->ab_on) {
		ab_cancel(&L->ab);
		tui_status(t, false, "Cancelling the A/B: putting %s back", L->ab_addr);
		latency_background(t, false, NULL); /* restores now */
		tui_reload_journal(t);
		return HR_HANDLED | HR_RESCAN | HR_REDRAW;
	}
	if (L->ab_shown) {
		L->ab_shown = false;
		if (L->probe_inited)
			lat_refresh(L);
		return HR_HANDLED | HR_REDRAW;
	}
	return HR_IGNORED;
}

/* ---- for tui.c ----------------------------------------------------------------------- */

int latency_background(struct tui *t, bool in_dialog, int *wait_ms)
{
	struct latency *L = t->lat;
	int ms = -1, r;

	if (wait_ms)
		*wait_ms = -1;
	if (!L)
		return 0;
	if (L->ab_on) {
		struct ab_status st;
		int next = 200;

		ab_poll(&L->ab, &next);
		ab_status(&L->ab, &st);
		if ((st.phase == AB_SETTLE || st.phase == AB_MEASURE) && st.win != L->seen_win) {
			L->seen_win = st.win; /* a switch: the journal and the knob changed */
			L->pending |= HR_RESCAN;
		}
		L->st = st;
		if (ab_finished(&L->ab))
			ab_finish(t, L);
		else
			ms = next;
	}
	if ((L->probe_on || L->ab_on) && lat_shown(t)) {
		uint64_t now = time_mono_ns();
		int left;

		if (now >= L->next_refresh_ns) {
			lat_refresh(L);
			L->pending |= HR_REDRAW;
			now = time_mono_ns();
		}
		left = (int)((L->next_refresh_ns - now + 999999) / 1000000);
		ms = ms < 0 || left < ms ? left : ms;
	}
	if (wait_ms)
		*wait_ms = ms;
	if (in_dialog)
		return 0;
	r = L->pending;
	L->pending = 0;
	return r;
}

const char *latency_busy(const struct tui *t)
{
	return t->lat && t->lat->ab_on ? t->lat->ab_busy : NULL;
}

int latency_header(struct tui *t, int y, int x)
{
	struct latency *L = t->lat;

	if (!L)
		return 0;
	if (L->ab_on) /* the window being measured, as on the Latency screen */
		return ui_printf(t, y, x, COLS - x, ROLE_WARN, "A/B %d/%d",
				 L->st.win < 0		   ? 1
				 : L->st.win >= L->st.nwin ? L->st.nwin
							   : L->st.win + 1,
				 L->st.nwin) +
		       2;
	if (L->probe_on)
		return ui_printf(t, y, x, COLS - x, ROLE_WARN, "probe %s", L->cpus_text) + 2;
	return 0;
}

/* Cancel a running A/B and wait until its knob is back (ab_finish). */
static void ab_cancel_wait(struct tui *t, struct latency *L)
{
	if (L->ab_on) /* it may have ended while a dialog asked */
		ab_cancel(&L->ab);
	while (L->ab_on) {
		int ms = 10;

		latency_background(t, true, &ms);
		if (L->ab_on)
			time_sleep_ns((uint64_t)(ms > 0 ? ms : 1) * 1000000u);
	}
	L->told_exit = true; /* latency_shutdown says how it ended */
}

bool latency_quit(struct tui *t)
{
	static const char *const buttons[] = {"Cancel it and quit", "Stay"};
	struct latency *L = t->lat;
	char text[KNOB_ADDR_MAX + 128];

	if (!L || !L->ab_on)
		return true;
	if (t->cfg.confirm_quit) {
		snprintf(text, sizeof(text),
			 "An A/B of %s is running.\nQuitting cancels it and puts the knob back.",
			 L->ab_addr);
		if (ui_choice(t, "A/B running", text, buttons, 2, 0) != 0)
			return false;
	}
	ab_cancel_wait(t, L);
	return true;
}

void latency_shutdown(struct tui *t, struct sbuf *msg)
{
	struct latency *L = t->lat;

	if (!L)
		return;
	if (L->ab_on)
		ab_cancel_wait(t, L); /* puts the knob back */
	if (L->told_exit && msg)
		sbuf_printf(msg, "tunetop: A/B: %s\n", L->ab_end);
	if (L->probe_on) {
		probe_stop_now(L);
		record_window(t, L); /* the samples since the last tick */
	}
	if (L->probe_inited)
		probe_free(&L->probe);
	free(L->rec_last);
	free_rows(L);
	free(L->abh[0]);
	free(L->abh[1]);
	free(L->abw);
	free(L);
	t->lat = NULL;
}

/* ---- drawing ---------------------------------------------------------------------------- */

/* Bin edges in whole us for [lo, hi]: one per us when they fit, else
 * log-spaced (each edge the last one times the ratio that reaches hi + 1
 * in the bins left, at least 1 us wider), so the body keeps narrow bins and
 * the tail wide ones. Returns the number of bins; edge[] has one more. */
static int make_bins(uint64_t lo, uint64_t hi, int maxb, uint64_t *edge)
{
	uint64_t span = hi - lo + 1;
	int nb = 0;

	if (maxb < 1)
		return 0;
	if (span <= (uint64_t)maxb) {
		for (uint64_t i = 0; i <= span; i++)
			edge[i] = lo + i;
		return (int)span;
	}
	edge[0] = lo;
	while (nb < maxb && edge[nb] <= hi) {
		int left = maxb - nb;
		double base = edge[nb] ? (double)edge[nb] : 1.0;
		uint64_t e = (uint64_t)llround(base * pow(((double)hi + 1.0) / base, 1.0 / left));

		if (e <= edge[nb])
			e = edge[nb] + 1;
		if (e > hi + 1 || left == 1)
			e = hi + 1;
		edge[++nb] = e;
	}
	return nb;
}

/* Counts of h per bin (a bucket goes to the bin of its lower edge). */
static void bin_counts(const struct hist *h, const uint64_t *edge, int nb, uint64_t *cnt)
{
	int k = 0;

	memset(cnt, 0, (size_t)nb * sizeof(*cnt));
	if (!h->count || !nb)
		return;
	for (int b = hist_bucket_of_us(edge[0]); b < HIST_NBUCKETS; b++) {
		uint64_t blo, bhi;

		if (!h->bucket[b])
			continue;
		hist_bucket_range(b, &blo, &bhi);
		if (blo >= edge[nb])
			break;
		while (k < nb - 1 && blo >= edge[k + 1])
			k++;
		cnt[k] += h->bucket[b];
	}
}

/* Histograms side by side over the same bins, bars log-scaled to the
 * largest bin of all of them: rows y .. y+h-1, the first one for titles. */
static void draw_hists(struct tui *t, int y, int h, const struct hist *const *hs,
		       const char *const *titles, int n)
{
	uint64_t edge[LAT_MAX_BINS + 1], lo = UINT64_MAX, hi = 0, cmax = 0;
	uint64_t(*cnt)[LAT_MAX_BINS];
	char lab[LAT_MAX_BINS][32];
	double p90[16], p99[16];
	int nb, lw = 6, cw, ncol;

	if (h < 2)
		return;
	for (int i = 0; i < n; i++) {
		if (!hs[i]->count)
			continue;
		if ((uint64_t)floor(hist_min_us(hs[i])) < lo)
			lo = (uint64_t)floor(hist_min_us(hs[i]));
		if ((uint64_t)floor(hist_max_us(hs[i])) > hi)
			hi = (uint64_t)floor(hist_max_us(hs[i]));
	}
	ui_fill(t, y, 0, COLS, ROLE_COLHEAD);
	if (lo == UINT64_MAX) {
		ui_put(t, y, 1, COLS - 1, ROLE_COLHEAD, "Histogram (log scale): no samples yet");
		return;
	}
	nb = make_bins(lo, hi, h - 1 < LAT_MAX_BINS ? h - 1 : LAT_MAX_BINS, edge);
	for (int k = 0; k < nb; k++) {
		int len;

		if (edge[k + 1] - edge[k] == 1)
			len = snprintf(lab[k], sizeof(lab[k]), "%llu", (unsigned long long)edge[k]);
		else
			len = snprintf(lab[k], sizeof(lab[k]), "%llu-%llu",
				       (unsigned long long)edge[k],
				       (unsigned long long)(edge[k + 1] - 1));
		if (len + 2 > lw)
			lw = len + 2;
	}
	ncol = (COLS - lw) / LAT_HIST_MIN_W;
	if (ncol > n)
		ncol = n;
	if (ncol > 16)
		ncol = 16;
	if (ncol < 1)
		ncol = 1;
	cw = (COLS - lw) / ncol;
	cnt = xcalloc((size_t)ncol, sizeof(*cnt));
	for (int i = 0; i < ncol; i++) {
		p90[i] = hist_percentile_us(hs[i], 0.90);
		p99[i] = hist_percentile_us(hs[i], 0.99);
		bin_counts(hs[i], edge, nb, cnt[i]);
		for (int k = 0; k < nb; k++)
			if (cnt[i][k] > cmax)
				cmax = cnt[i][k];
	}
	ui_put(t, y, 0, lw, ROLE_COLHEAD, "    us");
	for (int i = 0; i < ncol; i++)
		ui_printf(t, y, lw + i * cw, cw - 1, ROLE_COLHEAD, " %s", titles[i]);
	for (int k = 0; k < nb; k++) {
		int yy = y + 1 + k;

		ui_printf(t, yy, 0, lw, ROLE_LABEL, "%*s ", lw - 1, lab[k]);
		for (int i = 0; i < ncol; i++) {
			int x = lw + i * cw, bw = cw - 10, len = 0;
			enum role role = (double)edge[k] > p99[i]   ? ROLE_METER_HIGH
					 : (double)edge[k] > p90[i] ? ROLE_METER_MID
								    : ROLE_METER_LOW;
			char bar[256];

			if (bw < 1)
				bw = 1;
			if (bw > (int)sizeof(bar) - 1)
				bw = (int)sizeof(bar) - 1;
			if (cnt[i][k])
				len = (int)lround(bw * log1p((double)cnt[i][k]) /
						  log1p((double)cmax));
			if (cnt[i][k] && len < 1)
				len = 1;
			memset(bar, '#', (size_t)len);
			bar[len] = '\0';
			ui_put(t, yy, x + 1, bw, role, bar);
			if (cnt[i][k])
				ui_printf(t, yy, x + 1 + bw, 9, ROLE_VALUE, "%8llu",
					  (unsigned long long)cnt[i][k]);
		}
	}
	free(cnt);
}

/* "  12.3" columns of a summary, shared by the probe and the A/B tables. */
static int draw_stats(struct tui *t, int y, int x, enum role r, const struct stats_summary *s)
{
	char c[7][16];

	return ui_printf(t, y, x, COLS - x, r, "%8llu %6s %5s %5s %5s %6s %6s",
			 (unsigned long long)s->n, fmt_us(c[0], sizeof(c[0]), s->mean, true),
			 fmt_us(c[1], sizeof(c[1]), s->p50, false),
			 fmt_us(c[2], sizeof(c[2]), s->p90, false),
			 fmt_us(c[3], sizeof(c[3]), s->p99, false),
			 fmt_us(c[4], sizeof(c[4]), s->p999, false),
			 fmt_us(c[5], sizeof(c[5]), s->max, false));
}

static void draw_intro(struct tui *t, int y, int h)
{
	static const char *const lines[] = {
		"Wake-up latency of real-time threads, measured live (like cyclictest).",
		"",
		"  s   start the probe on the CPUs you choose (default: every online CPU):",
		"      one thread per CPU, pinned, SCHED_FIFO 95 (SCHED_OTHER with a notice",
		"      when not root), sleeping on absolute deadlines; latency = wake-up",
		"      time - deadline. PM QoS is left alone. s again stops it, r clears.",
		"  A   on a knob row of any screen (an idle state, a governor, a frequency",
		"      lock, an IRQ or thread affinity...): A/B that knob between its value",
		"      and another, ABBA windows, both histograms side by side, a verdict;",
		"      the knob is put back at the end. Here, A takes any ADDRESS=A,B.",
		"  x   cancel the A/B (the knob is put back); on a finished one: close it",
	};

	for (int i = 0; i < (int)(sizeof(lines) / sizeof(lines[0])) && i < h; i++)
		ui_put(t, y + i, 1, COLS - 1, i ? ROLE_VALUE : ROLE_TITLE, lines[i]);
}

static void draw_probe(struct tui *t, struct screen *s, struct latency *L, int y, int h)
{
	struct probe *p = &L->probe;
	char cpus[128], pol[64], d[32], c[2][16];
	int tbl, hy;

	if (!L->probe_inited || !L->nrow) {
		ui_put(t, y, 1, COLS - 1, ROLE_TITLE, "Probe stopped");
		draw_intro(t, y + 2, h - 2);
		return;
	}
	cpulist_format(&p->cfg.cpus, cpus, sizeof(cpus));
	probe_policy_text(p, pol, sizeof(pol));
	fmt_dur(L->probe_secs_ns, d, sizeof(d));
	ui_printf(t, y, 0, COLS, L->probe_on ? ROLE_TITLE : ROLE_LABEL,
		  "Probe %s %s on CPUs %s, %s, every %llu us, %s, PM QoS untouched",
		  L->probe_on ? "running" : "stopped after", d, cpus, pol,
		  (unsigned long long)p->cfg.interval_us,
		  p->mlocked ? "memory locked" : "memory NOT locked");
	ui_printf(t, y + 1, 0, COLS, ROLE_COLHEAD, "%-4s %8s %6s %5s %5s %5s %6s %6s %7s %5s  %-8s",
		  "CPU", "Samples", "Mean", "p50", "p90", "p99", "p99.9", "Max", "Ovf", "Min",
		  "Max at");
	tbl = L->nrow;
	if (tbl > (h - 2) / 3)
		tbl = (h - 2) / 3 > 1 ? (h - 2) / 3 : 1;
	ui_scroll(s, tbl);
	for (int i = 0; i < tbl && s->top + i < L->nrow; i++) {
		const struct lat_row *r = &L->row[s->top + i];
		bool sel = s->top + i == s->sel;
		enum role role = sel ? ROLE_CURSOR : ROLE_VALUE;
		int x = 0, yy = y + 2 + i;
		char name[16], when[16];

		if (sel)
			ui_fill(t, yy, 0, COLS, ROLE_CURSOR);
		if (r->cpu < 0)
			snprintf(name, sizeof(name), "all");
		else
			snprintf(name, sizeof(name), "%d", r->cpu);
		fmt_when(r->h->count ? r->h->max_at_ns : 0, when, sizeof(when));
		x += ui_printf(t, yy, x, COLS - x, role, "%-4s ", name);
		x += draw_stats(t, yy, x, role, &r->s);
		ui_printf(t, yy, x, COLS - x, role, " %7llu %5s  %-8s",
			  (unsigned long long)r->h->overflows,
			  fmt_us(c[0], sizeof(c[0]), r->s.min, false), r->h->count ? when : "");
	}
	if (L->nrow > tbl) {
		char pos[24];
		int len = snprintf(pos, sizeof(pos), " %d/%d ", s->sel + 1, L->nrow);

		ui_put(t, y + 1, COLS - len, len, ROLE_LABEL, pos);
	}
	hy = y + 2 + tbl + 1;
	{
		const struct hist *hs[16];
		char titles[16][48];
		const char *tp[16];
		int n = 0;

		/* the selected row first, then the CPUs after it */
		for (int i = s->sel; i < L->nrow && n < 16; i++) {
			const struct lat_row *r = &L->row[i];

			hs[n] = r->h;
			if (r->cpu < 0)
				snprintf(titles[n], sizeof(titles[n]), "all CPUs, p99 %s",
					 fmt_us(c[1], sizeof(c[1]), r->s.p99, false));
			else
				snprintf(titles[n], sizeof(titles[n]), "CPU %d, p99 %s", r->cpu,
					 fmt_us(c[1], sizeof(c[1]), r->s.p99, false));
			tp[n] = titles[n];
			n++;
		}
		draw_hists(t, hy, y + h - hy, hs, tp, n);
	}
}

/* A per-window value in at most 4 columns: 999, 1.2k, 12k, 123k, 1.2M. */
static void fmt_cell(char *buf, size_t cap, double v, bool mean)
{
	if (isnan(v))
		snprintf(buf, cap, "-");
	else if (mean && v < 99.95)
		snprintf(buf, cap, "%.1f", v);
	else if (v < 1000)
		snprintf(buf, cap, "%.0f", floor(v));
	else if (v < 9950)
		snprintf(buf, cap, "%.1fk", v / 1e3);
	else if (v < 999500)
		snprintf(buf, cap, "%.0fk", v / 1e3);
	else if (v < 9.95e6)
		snprintf(buf, cap, "%.1fM", v / 1e6);
	else
		snprintf(buf, cap, "%.0fM", v / 1e6);
}

/* The measured windows' p99, p50, mean and max, one column per window in
 * order ("3B" = window 3, arm B), so the spread between windows of the same
 * arm shows next to the verdict. As many blocks as fit in h lines (at least
 * one); while running, the latest windows. Returns the lines used. */
static int draw_ab_windows(struct tui *t, struct latency *L, int y, int h)
{
	static const char *const name[4] = {"p99", "p50", "mean", "max"};
	const int cw = 5, lw = 6;
	int ndone = 0, ncol = (COLS - lw) / cw, nblk, first = 0, used = 0;

	while (ndone < L->nabw && L->abw[ndone].done)
		ndone++;
	if (!ndone || ncol < 1)
		return 0;
	nblk = (ndone + ncol - 1) / ncol;
	if (nblk * 5 > h)
		nblk = h >= 5 ? h / 5 : 1;
	if (L->ab_on && ndone > ncol * nblk) /* running: the latest */
		first = ndone - ncol * nblk;
	for (int b = 0; b < nblk && first < ndone; b++) {
		int last = first + ncol < ndone ? first + ncol : ndone;

		ui_put(t, y + used, 0, lw, ROLE_COLHEAD, "Window");
		for (int i = first; i < last; i++)
			ui_printf(t, y + used, lw + (i - first) * cw, cw, ROLE_COLHEAD, "%*d%c",
				  cw - 1, i + 1, ab_arm_name(L->abw[i].arm));
		if (b == nblk - 1 && last < ndone)
			ui_printf(t, y + used, lw + (last - first) * cw, COLS, ROLE_LABEL, " +%d",
				  ndone - last);
		used++;
		for (int m = 0; m < 4; m++) {
			ui_put(t, y + used, 0, lw, ROLE_LABEL, name[m]);
			for (int i = first; i < last; i++) {
				const struct ab_window *w = &L->abw[i];
				double v = m == 0   ? w->p99
					   : m == 1 ? w->p50
					   : m == 2 ? w->mean
						    : w->max;
				char c[16];

				fmt_cell(c, sizeof(c), v, m == 2);
				ui_printf(t, y + used, lw + (i - first) * cw, cw,
					  w->arm ? ROLE_VALUE : ROLE_LABEL, "%*s", cw, c);
			}
			used++;
		}
		first = last;
	}
	return used;
}

static void draw_ab(struct tui *t, struct latency *L, int y, int h)
{
	const struct ab_status *st = &L->st;
	int x, yy = y, nwin = st->nwin;

	ui_printf(t, yy++, 0, COLS, ROLE_TITLE, "A/B %s%s  A=%s  B=%s  (was %s)", L->ab_addr,
		  L->ab_nknobs > 1 ? " (several knobs)" : "", L->ab_val[0], L->ab_val[1],
		  L->ab_orig);
	/* progress, then the windows in ABBA order: measured ones in capitals */
	if (L->ab_on) {
		int win = st->win < 0 ? 0 : st->win >= nwin ? nwin - 1 : st->win;

		x = ui_printf(t, yy, 0, COLS, ROLE_VALUE,
			      "round %d/%d  window %d/%d  %c=%s  %s, %.1f s left   ", win / 4 + 1,
			      nwin / 4, win + 1, nwin, ab_arm_name(ab_window_arm(win)),
			      L->ab_val[ab_window_arm(win)],
			      st->phase == AB_SETTLE ? "settling" : ab_phase_name(st->phase),
			      st->left_s);
	} else {
		x = ui_put(t, yy, 0, COLS, L->ab_end_err ? ROLE_ALERT : ROLE_OK, L->ab_end) + 3;
	}
	for (int i = 0; i < nwin && x < COLS; i++) {
		char ch = ab_arm_name(ab_window_arm(i));
		bool now = L->ab_on && i == st->win;
		char one[2] = {i < st->win || now ? ch : (char)(ch | 0x20), '\0'};

		x += ui_put(t, yy, x, 1,
			    now		  ? ROLE_CURSOR
			    : i < st->win ? ROLE_OK
					  : ROLE_LABEL,
			    one);
	}
	yy++;
	ui_put(t, yy++, 0, COLS, ROLE_LABEL, L->ab_probe_line);
	ui_printf(t, yy++, 0, COLS, ROLE_COLHEAD, "%-4s %-12s %7s %8s %6s %5s %5s %5s %6s %6s",
		  "Arm", "Value", "Windows", "Samples", "Mean", "p50", "p90", "p99", "p99.9",
		  "Max");
	for (int a = 0; a < 2; a++) {
		char w[16];

		snprintf(w, sizeof(w), "%u/%d", st->windows[a], nwin / 2);
		x = ui_printf(t, yy, 0, COLS, ROLE_VALUE, "%-4c %-12.12s %7s ", ab_arm_name(a),
			      L->ab_val[a], w);
		draw_stats(t, yy++, x, ROLE_VALUE, &L->abs[a]);
	}
	yy += draw_ab_windows(t, L, yy, y + h - yy - 3);
	/* the verdict, on up to six lines (fewer when the screen is short) */
	if (L->ab_on) {
		ui_put(t, yy++, 0, COLS, ROLE_LABEL,
		       "Verdict when the last window ends (x cancels and puts the knob back)");
	} else {
		const char *v = L->verdict;
		int w = COLS - 9, nl = y + h - yy - 3;

		if (nl > 6)
			nl = 6;
		if (nl < 2)
			nl = 2;
		ui_put(t, yy, 0, 9, ROLE_TITLE, "Verdict: ");
		for (int line = 0; *v && line < nl && w > 0; line++) {
			int cut = (int)strlen(v);

			/* ui_put clips at w bytes (µ and − take two and three): cut at
			 * the last ", " "; " or ": " within w bytes, else the last space */
			if (cut > w && line < nl - 1) {
				int sp = 0;

				for (cut = w; cut > 0; cut--) {
					if (v[cut] != ' ')
						continue;
					if (!sp)
						sp = cut;
					if (strchr(",;:", v[cut - 1]))
						break;
				}
				if (cut <= 0)
					cut = sp;
			}
			if (cut <= 0)
				cut = (int)strlen(v);
			ui_printf(t, yy++, 9, w, ROLE_VALUE, "%.*s", cut, v);
			v += cut;
			while (*v == ' ')
				v++;
		}
	}
	yy++;
	if (y + h - yy >= 3 && L->abh[0] && L->abh[1]) {
		const struct hist *hs[2] = {L->abh[0], L->abh[1]};
		char titles[2][64], p99[16];
		const char *tp[2] = {titles[0], titles[1]};

		for (int a = 0; a < 2; a++)
			snprintf(titles[a], sizeof(titles[a]), "%c=%.20s, p99 %s", ab_arm_name(a),
				 L->ab_val[a], fmt_us(p99, sizeof(p99), L->abs[a].p99, false));
		draw_hists(t, yy, y + h - yy, hs, tp, 2);
	}
}

/* ---- screen ops ------------------------------------------------------------------------ */

/* ---- a replay: the recorded probe windows ------------------------------------------------ */

/* A recorded window as a histogram: its buckets, and its mean, minimum and
 * maximum as recorded. */
static void hist_of_window(const struct replay_probe *p, struct hist *h)
{
	hist_init(h);
	for (size_t k = 0; k < p->nbuckets; k++) {
		h->bucket[hist_bucket_of_us(p->buckets[k][0])] += p->buckets[k][1];
		h->count += p->buckets[k][1];
	}
	h->overflows = p->overflows;
	if (!h->count)
		return;
	h->sum_ns = isfinite(p->mean_us) ? (uint64_t)llround(p->mean_us * 1000.0 * (double)h->count)
					 : 0;
	h->min_ns = isfinite(p->min_us) ? (uint64_t)llround(p->min_us * 1000.0) : 0;
	h->max_ns = isfinite(p->max_us) ? (uint64_t)llround(p->max_us * 1000.0) : h->min_ns;
}

/* The probe windows recorded up to the shown sample: all of them merged,
 * and the last one, with their histograms side by side. */
static void draw_replay(struct tui *t, int y, int h)
{
	const struct replay *r = t->replay->r;
	size_t np = replay_nprobes(r), idx = t->replay->idx, nw = 0;
	const struct replay_probe *last = NULL;
	struct hist *hs[2], *tmp;
	struct stats_summary st[2];
	const char *names[2] = {"all", "last"};
	char titles[2][64], c[16];
	const char *tp[2];
	int n;

	if (!np) {
		ui_put(t, y, 1, COLS - 1, ROLE_TITLE, "This recording has no probe windows");
		ui_put(t, y + 2, 1, COLS - 1, ROLE_VALUE,
		       "The probe's windows are recorded when it runs (0, s) in a session started "
		       "with --record FILE.");
		return;
	}
	hs[0] = xmalloc(sizeof(struct hist));
	hs[1] = xmalloc(sizeof(struct hist));
	tmp = xmalloc(sizeof(*tmp));
	hist_init(hs[0]);
	hist_init(hs[1]);
	for (size_t i = 0; i < np; i++) {
		const struct replay_probe *p = replay_probe_at(r, i);

		if (p->after_sample != SIZE_MAX && p->after_sample > idx)
			continue;
		hist_of_window(p, tmp);
		hist_merge(hs[0], tmp);
		*hs[1] = *tmp;
		last = p;
		nw++;
	}
	n = last ? 2 : 1;
	ui_printf(t, y, 0, COLS, ROLE_TITLE,
		  "Recorded probe on CPUs %s, every %llu us: %zu of %zu windows up to this sample",
		  last ? last->cpus : replay_probe_at(r, 0)->cpus,
		  (unsigned long long)(last ? last : replay_probe_at(r, 0))->interval_us, nw, np);
	ui_printf(t, y + 1, 0, COLS, ROLE_COLHEAD, "%-4s %8s %6s %5s %5s %5s %6s %6s %7s %5s", "",
		  "Samples", "Mean", "p50", "p90", "p99", "p99.9", "Max", "Ovf", "Min");
	for (int i = 0; i < n; i++) {
		int x = 0;

		hist_summary(hs[i], &st[i]);
		x += ui_printf(t, y + 2 + i, x, COLS - x, ROLE_VALUE, "%-4s ", names[i]);
		x += draw_stats(t, y + 2 + i, x, ROLE_VALUE, &st[i]);
		ui_printf(t, y + 2 + i, x, COLS - x, ROLE_VALUE, " %7llu %5s",
			  (unsigned long long)hs[i]->overflows,
			  fmt_us(c, sizeof(c), st[i].min, false));
		snprintf(titles[i], sizeof(titles[i]), "%s, p99 %s",
			 i ? "last window" : "all windows to here",
			 fmt_us(c, sizeof(c), st[i].p99, false));
		tp[i] = titles[i];
	}
	draw_hists(t, y + 5, h - 5, (const struct hist *const *)hs, tp, n);
	free(hs[0]);
	free(hs[1]);
	free(tmp);
}

static void latency_build(struct tui *t, struct screen *s)
{
	struct latency *L = t->lat;

	s->heading_lines = 2;
	s->nrows = 0;
	if (!L)
		return;
	if (lat_shown(t) && (L->probe_on || L->ab_on))
		lat_refresh(L);
	s->nrows = L->ab_shown ? 0 : L->nrow;
}

static void latency_draw(struct tui *t, struct screen *s, int y, int h)
{
	struct latency *L = lat_get(t);

	if (t->replay) {
		draw_replay(t, y, h);
		return;
	}
	if (L->ab_shown && (L->ab_on || L->verdict[0] || L->ab_end[0]))
		draw_ab(t, L, y, h);
	else
		draw_probe(t, s, L, y, h);
}

static int latency_key(struct tui *t, struct screen *s, int ch)
{
	struct latency *L = lat_get(t);

	(void)s;
	switch (ch) {
	case 's': return act_start_stop(t, L);
	case 'r': return act_reset(t, L);
	case 'x':
	case 27: return act_cancel(t, L);
	default: return HR_IGNORED;
	}
}

static const struct keyhint latency_hints[] = {
	{"s", "Start/Stop"}, {"r", "Reset"}, {"A", "A/B"}, {"x", "Cancel"}, {NULL, NULL},
};

const struct screen_ops screen_latency = {
	.id = "latency",
	.name = "Latency",
	.fkey = 0,
	.needs = 0,
	.build = latency_build,
	.draw = latency_draw,
	.key = latency_key,
	.hints = latency_hints,
	.focus = tui_focus_none,
};
