/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's latency probe and A/B runs, outside any screen: the probe the
 * user starts on the Latency screen, the A/B that A starts on a knob row of
 * any screen, and a cache of what both show (struct latency, t->sc.lat). The
 * probe measures in its own pinned threads (src/probe/probe.c); the A/B is
 * the non-blocking state machine of src/probe/ab.c, advanced by
 * latency_background() from the event loop and from the dialogs' key waits,
 * so its windows keep their length whatever the user is doing. The cache
 * (per-CPU histograms and percentiles, or the two arms) is refreshed at
 * most every LAT_REFRESH_MS and only while the Latency screen is shown.
 * Leaving tunetop (quit, SIGTERM, SIGINT, SIGHUP) cancels a running A/B,
 * which puts its knob back, and stops the probe. The screen
 * (src/ui/screen_latency.c) only draws this state and maps its keys to the
 * lat_act_*() actions. */
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
#include "knob/knob_addr.h"
#include "model/record.h"
#include "model/replay.h"
#include "probe/ab.h"
#include "probe/histogram.h"
#include "probe/probe.h"
#include "probe/stats.h"
#include "ui/latency_run.h"
#include "ui/tui.h"
#include "ui/tui_int.h"

struct latency *lat_get(struct screen_ctx *sc)
{
	struct tui *t = tui_of(sc);

	if (!t->sc.lat)
		t->sc.lat = xcalloc(1, sizeof(*t->sc.lat));
	return t->sc.lat;
}

bool lat_shown(const struct screen_ctx *sc)
{
	const struct tui *t = tui_of_const(sc);

	return !strcmp(t->sc.screens[t->sc.cur].ops->id, "latency");
}

/* ---- statistics of a histogram (what the CLI prints) -------------------------- */

void lat_hist_summary(const struct hist *h, struct stats_summary *s)
{
	stats_summarize_hist(h, s);
}

/* Wall-clock time of a CLOCK_MONOTONIC instant in the past. */
void lat_fmt_when(uint64_t mono_ns, char *buf, size_t cap)
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

void lat_fmt_dur(uint64_t ns, char *buf, size_t cap)
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
		lat_hist_summary(L->row[i].h, &L->row[i].s);
	L->probe_secs_ns = (L->probe_on ? time_mono_ns() : p->stop_ns) - p->start_ns;
}

static void refresh_ab(struct latency *L)
{
	for (int a = 0; a < (int)L->ab_k && a < AB_MAX_VALUES; a++) {
		if (!L->abh[a])
			L->abh[a] = xmalloc(sizeof(struct hist));
		ab_snapshot(&L->ab, a, L->abh[a]);
		if (L->ab.source == AB_PROBE)
			lat_hist_summary(L->abh[a], &L->abs[a]);
		else
			ab_summary(&L->ab, a, &L->abs[a]);
		L->ab_watts[a] = ab_arm_watts(&L->ab, a);
	}
	ab_status(&L->ab, &L->st);
	if (L->st.nwin > 0) {
		L->abw = xrealloc(L->abw, (size_t)L->st.nwin * sizeof(*L->abw));
		L->nabw = (int)ab_windows(&L->ab, L->abw, (size_t)L->st.nwin);
		if (L->nabw > L->st.nwin)
			L->nabw = L->st.nwin;
	}
}

void lat_refresh(struct latency *L)
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
	c->interval_us = (uint64_t)t->sc.cfg.probe_interval_us;
	c->policy = PROBE_POLICY_FIFO; /* falls back to SCHED_OTHER with a notice */
	c->prio = PROBE_DEFAULT_PRIO;
	c->dma_latency_us = -1; /* PM QoS untouched, as the CLI */
	c->no_mlock = mlock_unsafe();
	c->late = true; /* the "Why late" panel's records (none until w sets a bar) */
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
		tui_status(&t->sc, true, "%s on CPUs %s, %s: %s", what, cpus, pol, p->note[0]);
	else if (!p->mlocked && L->no_mlock_note[0])
		tui_status(&t->sc, false, "%s on CPUs %s, %s; %s", what, cpus, pol,
			   L->no_mlock_note);
	else
		tui_status(&t->sc, false, "%s on CPUs %s, %s", what, cpus, pol);
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
		tui_status(&t->sc, true, "--record %s: write error, recording stopped",
			   t->rec_path);
	}
	free(now);
	free(win);
}

bool latency_probe_findings(struct tui *t, double budget_us, struct findings_probe *out)
{
	struct latency *L = t->sc.lat;
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
	if (t->sc.lat && t->sc.lat->probe_on)
		record_window(t, t->sc.lat);
}

static void probe_stop_now(struct latency *L)
{
	if (!L->probe_on)
		return;
	lat_why_off(L);
	probe_stop(&L->probe);
	L->probe_on = false;
	refresh_probe(L); /* the final numbers stay on screen */
}

int lat_act_start_stop(struct screen_ctx *sc, struct latency *L)
{
	struct tui *t = tui_of(sc);
	struct cpumask cpus, online;
	struct probe_cfg cfg;
	char buf[256], why[256], prompt[160], on[128];
	int e;

	if (L->ab_on) {
		tui_status(&t->sc, true, "Refused: an A/B is measuring (x cancels it first)");
		return HR_HANDLED | HR_REDRAW;
	}
	if (t->sc.replay && !L->probe_on) {
		tui_status(&t->sc, true,
			   "Refused: REPLAY: the probe measures this machine, not the recording "
			   "(tunetop report FILE shows its probe windows)");
		return HR_HANDLED | HR_REDRAW;
	}
	if (L->probe_on) {
		char d[32];

		probe_stop_now(L);
		self_place_apply(&t->sc.self, NULL); /* the probe's CPUs are free again */
		record_window(t, L); /* the last samples, after the threads stopped */
		lat_fmt_dur(L->probe_secs_ns, d, sizeof(d));
		tui_status(&t->sc, false, "Probe stopped after %s (s starts it again)", d);
		return HR_HANDLED | HR_REDRAW;
	}
	if (probe_online_cpus(&online) != 0) {
		cpumask_zero(&online);
		cpumask_set(&online, 0);
	}
	cpulist_format(&online, on, sizeof(on));
	str_copy(buf, sizeof(buf), L->cpus_text[0] ? L->cpus_text : on);
	snprintf(prompt, sizeof(prompt), "CPUs to measure (online %s; all = every one):", on);
	if (ui_input(&t->sc, "Start the latency probe", prompt, buf, sizeof(buf)) != 0)
		return HR_HANDLED | HR_REDRAW;
	if (parse_cpus(buf, &cpus, why, sizeof(why)) != 0) {
		tui_status(&t->sc, true, "Refused: %s", why);
		return HR_HANDLED | HR_REDRAW;
	}
	probe_cfg_for(t, L, &cpus, &cfg);
	if (probe_cfg_check(&cfg, why, sizeof(why)) != 0) {
		tui_status(&t->sc, true, "Refused: %s", why);
		return HR_HANDLED | HR_REDRAW;
	}
	if (L->probe_inited)
		probe_free(&L->probe);
	e = probe_start(&L->probe, &cfg, why, sizeof(why));
	L->probe_inited = true;
	if (e) {
		tui_status(&t->sc, true, "Probe: %s", why);
		probe_free(&L->probe);
		L->probe_inited = false;
		free_rows(L);
		return HR_HANDLED | HR_REDRAW;
	}
	L->probe_on = true;
	L->ab_shown = false;
	/* tunetop's own threads leave the CPUs the probe measures */
	self_place_apply(&t->sc.self, &cpus);
	if (L->rec_last)
		hist_init(L->rec_last); /* windows count from this start */
	cpulist_format(&cpus, L->cpus_text, sizeof(L->cpus_text));
	free_rows(L); /* other CPUs than last time, maybe as many */
	lat_refresh(L);
	probe_notes_status(t, L, &L->probe, "Probe started");
	return HR_HANDLED | HR_REDRAW;
}

int lat_act_reset(struct screen_ctx *sc, struct latency *L)
{
	struct tui *t = tui_of(sc);

	if (L->ab_on) {
		tui_status(&t->sc, true, "Refused: an A/B is measuring (x cancels it first)");
		return HR_HANDLED | HR_REDRAW;
	}
	if (!L->probe_on) {
		tui_status(&t->sc, true, "The probe is not running (s starts it)");
		return HR_HANDLED | HR_REDRAW;
	}
	record_window(t, L); /* what the reset would lose */
	if (probe_reset(&L->probe) != 0)
		tui_status(&t->sc, true, "Reset: the probe threads did not answer in time");
	else
		tui_status(&t->sc, false, "Histograms cleared");
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
	if (!L->probe_on)
		self_place_apply(&t->sc.self, NULL);
	res = ab_result(r);
	str_copy(L->verdict, sizeof(L->verdict), res->verdict);
	L->ab_res = *res;
	L->ab_have_res = true;
	L->ab_pm = ab_primary_metric(r);
	str_copy(L->ab_unit, sizeof(L->ab_unit), r->unit);
	lat_fmt_dur(r->end_ns - r->start_ns, d, sizeof(d));
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
		tui_status(&t->sc, L->ab_end_err, "A/B %s", L->ab_end);
	else
		tui_status(&t->sc, false, "A/B done: %s", L->verdict);
	ab_free(r);
	L->ab_on = false;
	t->busy_why = NULL;
	L->pending |= HR_RESCAN | HR_REDRAW;
}

/* "ADDRESS=A,B" (or a sweep) into cfg, checked against the knobs; false
 * (the refusal on the status line) when it is not one. */
static bool ab_parse(struct tui *t, struct latency *L, const char *assign, struct ab_cfg *cfg)
{
	char *cause = NULL, line[TUI_STATUS_LEN];
	int e;

	str_copy(L->last_assign, sizeof(L->last_assign), assign);
	ab_cfg_init(cfg);
	e = ab_parse_knob(t->sc.knob, assign, cfg, &cause);
	if (e) {
		tui_first_line(cause, line, sizeof(line));
		tui_status(&t->sc, true, "A/B refused: %s", line[0] ? line : err_name(e));
	}
	free(cause);
	return !e;
}

/* The header's description of what the A/B measures with. */
static void ab_describe(struct latency *L, const struct ab_cfg *cfg)
{
	const char *order =
		L->ab_k > 2 ? "every value, then in reverse; rotated" : "ABBA, BAAB, ...";
	char pol[64], list[128];

	if (L->ab_file) { /* the CLI's AB_FILE: the numbers the log gains */
		snprintf(L->ab_probe_line, sizeof(L->ab_probe_line),
			 "%u rounds (%s), %g s windows, settle %u ms; metric '%s' of the lines "
			 "the log gains%s%s",
			 cfg->rounds, order, cfg->window_s, cfg->settle_ms, L->ab.cfg.metric,
			 *L->ab.unit ? ", in " : "", L->ab.unit);
		return;
	}
	cpulist_format(&L->ab.p->cfg.cpus, list, sizeof(list));
	probe_policy_text(L->ab.p, pol, sizeof(pol));
	snprintf(L->ab_probe_line, sizeof(L->ab_probe_line),
		 "%u rounds (%s), %g s windows, settle %u ms; probe%s on CPUs %s every %llu us, %s",
		 cfg->rounds, order, cfg->window_s, cfg->settle_ms,
		 cfg->probe_ext ? " (running)" : "", list,
		 (unsigned long long)L->ab.p->cfg.interval_us, pol);
}

/* Start the parsed A/B; log: measure with the app's log of the dialog
 * (L->ab_log, L->ab_re) instead of the probe. */
static void ab_begin(struct tui *t, struct latency *L, struct ab_cfg *cfg, bool log)
{
	char vals[AB_MAX_VALUES * 24 + 8];
	struct cpumask cpus;
	char *cause = NULL, line[TUI_STATUS_LEN], why[256];
	char logpath[sizeof(L->ab_log)];
	int e;

	cfg->window_s = t->sc.cfg.ab_window_s;
	cfg->settle_ms = (unsigned)t->sc.cfg.ab_settle_ms;
	cfg->rounds = (unsigned)t->sc.cfg.ab_rounds;
	cfg->restore = AB_RESTORE_OWN; /* the user's own changes stay */
	if (log) {
		str_copy(logpath, sizeof(logpath), L->ab_log);
		if (!*str_trim(logpath)) {
			tui_status(&t->sc, true,
				   "A/B refused: no log file given (LOG: the file the app "
				   "appends to)");
			return;
		}
		/* ab --metric-file LOG --metric REGEX: the same checks and words */
		cfg->metric_file = str_trim(logpath);
		cfg->metric = L->ab_re;
	} else if (L->probe_on) {
		cfg->probe_ext = &L->probe; /* measure with the running probe */
	} else {
		if (parse_cpus(L->cpus_text, &cpus, why, sizeof(why)) != 0) {
			cpumask_zero(&cpus);
			cpumask_set(&cpus, 0);
		}
		probe_cfg_for(t, L, &cpus, &cfg->probe);
	}
	e = ab_start(&L->ab, t->sc.knob, cfg, &cause);
	if (e) {
		tui_first_line(cause, line, sizeof(line));
		tui_status(&t->sc, true, "A/B refused: %s", line[0] ? line : err_name(e));
		free(cause);
		ab_free(&L->ab);
		return;
	}
	free(cause);
	L->ab_on = L->ab_shown = true;
	L->ab_file = L->ab.source == AB_FILE;
	str_copy(L->ab_src, sizeof(L->ab_src), L->ab_file ? L->ab.cfg.metric_file : "");
	if (L->ab.p) /* a log is measured by the app: tunetop stays where it is */
		self_place_apply(&t->sc.self, &L->ab.p->cfg.cpus);
	str_copy(L->ab_addr, sizeof(L->ab_addr), cfg->addr);
	L->ab_k = L->ab.narms;
	L->ab_have_res = false;
	for (unsigned a = 0; a < AB_MAX_VALUES; a++) {
		str_copy(L->ab_val[a], sizeof(L->ab_val[a]), a < L->ab_k ? cfg->value[a] : "");
		L->ab_watts[a] = NAN;
	}
	str_copy(L->ab_orig, sizeof(L->ab_orig), L->ab.original);
	str_copy(L->ab_unit, sizeof(L->ab_unit), L->ab.unit);
	L->ab_nknobs = L->ab.nknobs;
	ab_describe(L, cfg);
	L->verdict[0] = L->ab_end[0] = '\0';
	L->ab_end_err = false;
	L->seen_win = -1;
	L->told_empty = -1;
	L->nabw = 0;
	snprintf(L->ab_busy, sizeof(L->ab_busy),
		 "an A/B of %s is running (x on the Latency screen cancels it)", L->ab_addr);
	t->busy_why = L->ab_busy; /* tui_cannot_write() says it until the A/B ends */
	tui_show_screen(&t->sc, "latency");
	vals[0] = '\0';
	for (unsigned a = 0; a < L->ab_k; a++) {
		size_t n = strlen(vals);

		snprintf(vals + n, sizeof(vals) - n, "%s%s", a ? "," : "", L->ab_val[a]);
	}
	if (L->ab.p && L->ab.p != &L->probe && L->ab.p->nnotes)
		tui_status(&t->sc, true, "%s started: %s=%s (x cancels); probe: %s",
			   L->ab_k > 2 ? "Sweep" : "A/B", L->ab_addr, vals, L->ab.p->note[0]);
	else if (L->ab_file)
		tui_status(&t->sc, false, "%s started: %s=%s with the log %s (x cancels)",
			   L->ab_k > 2 ? "Sweep" : "A/B", L->ab_addr, vals, L->ab_src);
	else
		tui_status(&t->sc, false, "%s started: %s=%s (x cancels)",
			   L->ab_k > 2 ? "Sweep" : "A/B", L->ab_addr, vals);
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
	int n = s->ops->explain ? s->ops->explain(&t->sc, s, it, TUI_MAX_EXPLAIN) : 0, k = 0;

	for (int i = 0; i < n && k < max; i++) {
		struct knob_ref *refs = NULL;
		size_t nrefs = 0;
		char *cause = NULL;
		int cpu, st;

		if (!strchr(it[i].key, '/') || strchr(it[i].key, '*'))
			continue;
		if (knob_expand(t->sc.knob, it[i].key, 0, &refs, &nrefs, &cause) || !nrefs) {
			free(cause);
			free(refs);
			continue;
		}
		if (knob_read(t->sc.knob, &refs[0], c[k].cur, sizeof(c[k].cur)) != 0)
			str_copy(c[k].cur, sizeof(c[k].cur), "n/a");
		free(refs);
		str_copy(c[k].addr, sizeof(c[k].addr), it[i].key);
		snprintf(c[k].label, sizeof(c[k].label), "%s = %.24s", it[i].key, c[k].cur);
		k++;
		if (k < max && knob_addr_cpuidle_disable_of(it[i].key, &cpu, &st) == 0) {
			str_copy(c[k].addr, sizeof(c[k].addr),
				 knob_addr_cpuidle_disable_sel("*", st).s);
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
	struct ab_cfg cfg;
	const char *cur;
	int n = row_knobs(t, s, c, TUI_MAX_EXPLAIN * 2), k = 0;

	if (!n) {
		tui_status(&t->sc, true,
			   "No knob on this row to A/B (select a knob row, or A on the Latency "
			   "screen takes ADDRESS=A,B)");
		return HR_HANDLED | HR_REDRAW;
	}
	if (n > 1) {
		for (int i = 0; i < n; i++)
			labels[i] = c[i].label;
		k = ui_menu(&t->sc, "A/B of which knob", labels, n, 0,
			    "Enter: choose   Esc: cancel");
		if (k < 0)
			return HR_HANDLED | HR_REDRAW;
	}
	if (knob_expand(t->sc.knob, c[k].addr, 0, &refs, &nrefs, &cause) || !nrefs) {
		tui_status(&t->sc, true, "A/B refused: %s", cause ? cause : c[k].addr);
		free(cause);
		free(refs);
		return HR_HANDLED | HR_REDRAW;
	}
	if (knob_allowed(t->sc.knob, &refs[0], allowed, sizeof(allowed)) != 0)
		allowed[0] = '\0';
	free(refs);
	cur = c[k].cur;
	ab_suggest_other(c[k].addr, cur, allowed, other, sizeof(other));
	snprintf(title, sizeof(title), "A/B %s", c[k].addr);
	snprintf(prompt, sizeof(prompt),
		 "A = %s (now). B = ? (B,C,... a sweep)  %d rounds, %d s windows, settle %d ms",
		 cur, t->sc.cfg.ab_rounds, t->sc.cfg.ab_window_s, t->sc.cfg.ab_settle_ms);
	if (ui_input(&t->sc, title, prompt, other, sizeof(other)) != 0)
		return HR_HANDLED | HR_REDRAW;
	/* '|' separates values that hold commas (CPU lists: a sweep of them is
	 * typed B|C|D); elsewhere "B,C,D" after the current value is a sweep */
	snprintf(assign, sizeof(assign), "%s=%s%c%s", c[k].addr, cur,
		 strstr(allowed, "list") || strchr(cur, ',') ? '|' : ',', str_trim(other));
	if (ab_parse(t, L, assign, &cfg))
		ab_begin(t, L, &cfg, false);
	return HR_HANDLED | HR_REDRAW;
}

/* 'A' on the Latency screen: any ADDRESS=A,B, measured with the probe or
 * (Tab) with an app's log: LOG and REGEX, as ab --metric-file LOG --metric
 * REGEX. */
static int ab_typed(struct tui *t, struct latency *L)
{
	static const char *const src[] = {"probe", "app log"};
	const char *title = "A/B with an app's log";
	char buf[sizeof(L->last_assign)];
	char prompt[128];
	struct ab_cfg cfg;
	int sel = L->ab_src_sel;

	str_copy(buf, sizeof(buf), L->last_assign);
	snprintf(prompt, sizeof(prompt),
		 "ADDRESS=A,B or A,B,C,... (a sweep)  (%d rounds, %d s windows, settle %d ms)",
		 t->sc.cfg.ab_rounds, t->sc.cfg.ab_window_s, t->sc.cfg.ab_settle_ms);
	if (ui_input_choice(&t->sc, "A/B a knob", prompt, buf, sizeof(buf), "Measure with:", src, 2,
			    &sel) != 0 ||
	    !*str_trim(buf))
		return HR_HANDLED | HR_REDRAW;
	L->ab_src_sel = sel;
	if (!ab_parse(t, L, str_trim(buf), &cfg))
		return HR_HANDLED | HR_REDRAW;
	if (sel == LAT_SRC_LOG &&
	    (ui_input(&t->sc, title, "LOG: the file the app appends to (as ab --metric-file LOG)",
		      L->ab_log, sizeof(L->ab_log)) != 0 ||
	     ui_input(&t->sc, title,
		      "REGEX: a group around the number (as ab --metric), e.g. "
		      "latency: ([0-9.]+) ms",
		      L->ab_re, sizeof(L->ab_re)) != 0))
		return HR_HANDLED | HR_REDRAW;
	ab_begin(t, L, &cfg, sel == LAT_SRC_LOG);
	return HR_HANDLED | HR_REDRAW;
}

int latency_ab_key(struct tui *t)
{
	struct latency *L = lat_get(&t->sc);

	if (L->ab_on) {
		tui_show_screen(&t->sc, "latency");
		tui_status(&t->sc, true, "An A/B is already running (x cancels it)");
		return HR_HANDLED | HR_REDRAW;
	}
	if (!tui_may_write(&t->sc))
		return HR_HANDLED | HR_REDRAW;
	if (lat_shown(&t->sc))
		return ab_typed(t, L);
	return ab_from_row(t, L, &t->sc.screens[t->sc.cur]);
}

int lat_act_cancel(struct screen_ctx *sc, struct latency *L)
{
	struct tui *t = tui_of(sc);

	if (L->ab_on) {
		ab_cancel(&L->ab);
		tui_status(&t->sc, false, "Cancelling the A/B: putting %s back", L->ab_addr);
		latency_background(&t->sc, false, NULL); /* restores now */
		tui_reload_journal(&t->sc);
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

/* A log A/B: a window that ended without a value gets one status line
 * (the window stays empty, as in the CLI's report: 0 samples, n/a). */
static void tell_empty(struct tui *t, struct latency *L, const struct ab_status *st)
{
	int last = st->win - 1;

	if (!L->ab_file || last <= L->told_empty || st->nwin <= 0)
		return;
	L->abw = xrealloc(L->abw, (size_t)st->nwin * sizeof(*L->abw));
	L->nabw = (int)ab_windows(&L->ab, L->abw, (size_t)st->nwin);
	if (L->nabw > st->nwin)
		L->nabw = st->nwin;
	for (int i = L->told_empty + 1; i <= last && i < L->nabw; i++) {
		const struct ab_window *w = &L->abw[i];

		if (w->done && !w->samples) {
			tui_status(
				&t->sc, true,
				"A/B window %d (%c=%s) is empty: %s gained no line matching '%s'",
				i + 1, ab_arm_name(w->arm), L->ab_val[w->arm], L->ab_src,
				L->ab.cfg.metric ? L->ab.cfg.metric : "");
			L->pending |= HR_REDRAW;
		}
	}
	L->told_empty = last;
}

/* ---- for tui.c ----------------------------------------------------------------------- */

int latency_background(struct screen_ctx *sc, bool in_dialog, int *wait_ms)
{
	struct tui *t = tui_of(sc);
	struct latency *L = t->sc.lat;
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
		tell_empty(t, L, &st);
		if (ab_finished(&L->ab))
			ab_finish(t, L);
		else
			ms = next;
	}
	lat_why_tick(L, &ms);
	if ((L->probe_on || L->ab_on) && lat_shown(&t->sc)) {
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

int latency_header(struct screen_ctx *sc, int y, int x)
{
	struct tui *t = tui_of(sc);
	struct latency *L = t->sc.lat;

	if (!L)
		return 0;
	if (L->ab_on) /* the window being measured, as on the Latency screen */
		return ui_printf(&t->sc, y, x, COLS - x, ROLE_WARN, "A/B %d/%d",
				 L->st.win < 0		   ? 1
				 : L->st.win >= L->st.nwin ? L->st.nwin
							   : L->st.win + 1,
				 L->st.nwin) +
		       2;
	if (L->probe_on)
		return ui_printf(&t->sc, y, x, COLS - x, ROLE_WARN, "probe %s", L->cpus_text) + 2;
	return 0;
}

/* Cancel a running A/B and wait until its knob is back (ab_finish). */
static void ab_cancel_wait(struct tui *t, struct latency *L)
{
	if (L->ab_on) /* it may have ended while a dialog asked */
		ab_cancel(&L->ab);
	while (L->ab_on) {
		int ms = 10;

		latency_background(&t->sc, true, &ms);
		if (L->ab_on)
			time_sleep_ns((uint64_t)(ms > 0 ? ms : 1) * 1000000u);
	}
	L->told_exit = true; /* latency_shutdown says how it ended */
}

bool latency_quit(struct tui *t)
{
	static const char *const buttons[] = {"Cancel it and quit", "Stay"};
	struct latency *L = t->sc.lat;
	char text[KNOB_ADDR_MAX + 128];

	if (!L || !L->ab_on)
		return true;
	if (t->sc.cfg.confirm_quit) {
		snprintf(text, sizeof(text),
			 "An A/B of %s is running.\nQuitting cancels it and puts the knob back.",
			 L->ab_addr);
		if (ui_choice(&t->sc, "A/B running", text, buttons, 2, 0) != 0)
			return false;
	}
	ab_cancel_wait(t, L);
	return true;
}

void latency_shutdown(struct tui *t, struct sbuf *msg)
{
	struct latency *L = t->sc.lat;

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
	for (int a = 0; a < AB_MAX_VALUES; a++)
		free(L->abh[a]);
	free(L->abw);
	free(L);
	t->sc.lat = NULL;
}
