/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's frame: the theme's colour pairs, the header (clocks, uptime,
 * findings count, where the session stands), the tab strip and which screen
 * is shown, the status line (tui_status) and key bar, and tui_draw(), which
 * draws the frame around the current screen. It calls only widgets.c: the
 * header's marks of a running probe / A/B and of a replay come through the
 * loop's hooks (t->sc.hooks, set by tui.c). */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"
#include "model/explain.h"
#include "model/sim.h"
#include "sysfs/userfile.h"
#include "ui/tui.h"
#include "ui/tui_int.h"
#include "ui/world_line.h"

/* ---- theme ------------------------------------------------------------------ */

static short fit_colour(short c, unsigned *attrs)
{
	if (c < 0)
		return -1;
	if (c >= COLORS) {
		if (c < 16) { /* bright on an 8-colour terminal: base colour + bold */
			*attrs |= TA_BOLD;
			return (short)(c - 8);
		}
		return -1;
	}
	return c;
}

void tui_apply_theme(struct screen_ctx *sc)
{
	struct tui *t = tui_of(sc);
	struct theme mono;
	const struct theme *th = &t->sc.theme;

	t->sc.color = !t->no_color && has_colors() && !th->mono;
	if (!t->sc.color && !th->mono) {
		theme_monochrome(&mono);
		th = &mono;
	}
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct theme_style *s = &th->style[r];
		unsigned a = s->attrs;
		attr_t at = A_NORMAL;

		if (t->sc.color && r + 1 < COLOR_PAIRS) {
			short fg = fit_colour(s->fg, &a), bg = fit_colour(s->bg, &a);

			init_pair((short)(r + 1), fg, bg);
			at |= COLOR_PAIR(r + 1);
		}
		if (a & TA_BOLD)
			at |= A_BOLD;
		if (a & TA_DIM)
			at |= A_DIM;
		if (a & TA_REVERSE)
			at |= A_REVERSE;
		if (a & TA_UNDERLINE)
			at |= A_UNDERLINE;
		if (a & TA_STANDOUT)
			at |= A_STANDOUT;
#ifdef A_ITALIC
		if (a & TA_ITALIC)
			at |= A_ITALIC;
#endif
		t->sc.attr[r] = at;
	}
	if (t->sc.color)
		bkgdset(' ' | t->sc.attr[ROLE_DEFAULT]);
}

/* ---- frame: header, tabs, status, key bar ---------------------------------------- */

static void fmt_uptime(double s, char *buf, size_t cap)
{
	long long x;

	if (!isfinite(s) || s < 0) {
		snprintf(buf, cap, "n/a");
		return;
	}
	x = (long long)s;
	if (x >= 86400)
		snprintf(buf, cap, "%lldd %02lld:%02lld", x / 86400, x % 86400 / 3600,
			 x % 3600 / 60);
	else
		snprintf(buf, cap, "%02lld:%02lld:%02lld", x / 3600, x % 3600 / 60, x % 60);
}

static int header_clock(struct tui *t, int y, int x, const char *label, enum devfreq_kind kind)
{
	const struct devfreq_info *d = &t->sc.snap->devf;
	int64_t hz = -1;
	bool changed = false;
	char buf[32];
	int n = 0;

	for (size_t i = 0; i < d->ndev; i++)
		if (d->dev[i].kind == kind) {
			char pre[KNOB_ADDR_MAX];

			hz = d->dev[i].cur_hz;
			snprintf(pre, sizeof(pre), "%s/", knob_addr_devfreq(d->dev[i].name).s);
			changed = tui_changed_prefix(t, pre) != NULL;
			break;
		}
	if (hz < 0)
		for (size_t i = 0; i < d->nclk; i++)
			if (d->clk[i].kind == kind && d->clk[i].rate_hz >= 0) {
				hz = d->clk[i].rate_hz;
				break;
			}
	if (hz < 0 && !d->ndev && !d->nclk)
		return 0;
	n += ui_printf(&t->sc, y, x, COLS - x, ROLE_HEADER, "%s ", label);
	ui_fmt_hz(&t->sc, hz, buf, sizeof(buf));
	n += ui_printf(&t->sc, y, x + n, COLS - x - n,
		       hz < 0	 ? ROLE_VALUE_NA
		       : changed ? ROLE_CHANGED
				 : ROLE_HEADER_VALUE,
		       "%s", buf);
	n += ui_put(&t->sc, y, x + n, COLS - x - n, ROLE_HEADER,
		    t->sc.cfg.freq_ghz ? "  " : " MHz  ");
	return n;
}

static void draw_header(struct tui *t)
{
	const struct system_info *sys = t->sc.snap ? &t->sc.snap->sys : NULL;
	char up[32], src[300], board[200];
	int x = 0, y = 0;
	const char *pre = NULL;

	ui_fill(&t->sc, 0, 0, COLS, ROLE_DEFAULT);
	ui_fill(&t->sc, 1, 0, COLS, ROLE_DEFAULT);
	/* right end: uptime and interval */
	{
		char right[64];
		int rw, room, kw = 0;
		const char *kern = sys && sys->kernel[0] ? sys->kernel : "n/a";

		int every = t->sc.replay ? (int)lround(t->sc.replay->interval_ms / 100.0)
					 : t->sc.delay_tenths;

		fmt_uptime(sys ? sys->uptime_s : NAN, up, sizeof(up));
		rw = snprintf(right, sizeof(right), "up %s  every %d.%ds", up, every / 10,
			      every % 10);
		if (t->sc.replay)
			x += ui_put(&t->sc, y, x, COLS - x, ROLE_READONLY, " REPLAY ") + 1;
		if (t->sc.sim)
			x += ui_printf(&t->sc, y, x, COLS - x, ROLE_SIMULATED, " SIMULATED %s ",
				       sim_board(t->sc.sim)) +
			     1;
		else if (t->sc.replay && t->sc.replay->board[0])
			x += ui_printf(&t->sc, y, x, COLS - x, ROLE_SIMULATED, " SIMULATED %s ",
				       t->sc.replay->board) +
			     1;
		pre = sys ? system_preempt_name(sys->preempt) : NULL;
		if (sys)
			kw = (int)strlen(kern) + 1 + (pre ? (int)strlen(pre) : 9) + 2;
		room = COLS - x - rw - 1 - kw;
		/* board: "model (soc)", else the model, else the soc, else the CPU model */
		board[0] = '\0';
		if (sys && sys->model[0] && sys->ncompat &&
		    (int)(strlen(sys->model) + strlen(sys->compat[sys->ncompat - 1]) + 3) <= room)
			snprintf(board, sizeof(board), "%s (%s)", sys->model,
				 sys->compat[sys->ncompat - 1]);
		else if (sys && sys->model[0])
			snprintf(board, sizeof(board), "%s", sys->model);
		else if (sys && sys->ncompat)
			snprintf(board, sizeof(board), "%s", sys->compat[sys->ncompat - 1]);
		else
			snprintf(board, sizeof(board), "%s",
				 t->sc.snap && t->sc.snap->topo.cpu_model[0]
					 ? t->sc.snap->topo.cpu_model
					 : "board n/a");
		if (room < 8)
			room = 8;
		x += ui_printf(&t->sc, y, x, room, ROLE_HEADER_VALUE, "%s", board) + 2;
		if (sys) {
			x += ui_printf(&t->sc, y, x, COLS - x, ROLE_HEADER_VALUE, "%s", kern) + 1;
			x += ui_printf(&t->sc, y, x, COLS - x,
				       sys->preempt == PREEMPT_MODEL_RT ? ROLE_OK
				       : pre				? ROLE_HEADER
									: ROLE_VALUE_NA,
				       "%s", pre ? pre : "preempt ?");
		}
		if (x <= COLS - rw) {
			int rx = COLS - rw;

			rx += ui_put(&t->sc, y, rx, COLS - rx, ROLE_HEADER, "up ");
			rx += ui_printf(&t->sc, y, rx, COLS - rx, ROLE_HEADER_VALUE, "%s", up) + 2;
			rx += ui_put(&t->sc, y, rx, COLS - rx, ROLE_HEADER, "every ");
			ui_printf(&t->sc, y, rx, COLS - rx, ROLE_HEADER_VALUE, "%d.%ds", every / 10,
				  every % 10);
		}
	}

	/* line 2: clocks, changes, read-only, source */
	y = 1;
	x = 0;
	if (t->sc.snap && t->sc.cfg.hdr_clocks) {
		x += header_clock(t, y, x, "DDR", DEVFREQ_DDR);
		x += header_clock(t, y, x, "NPU", DEVFREQ_NPU);
		x += header_clock(t, y, x, "GPU", DEVFREQ_GPU);
	}
	x += ui_put(&t->sc, y, x, COLS - x, ROLE_HEADER, "changes ");
	x += ui_printf(&t->sc, y, x, COLS - x, t->sc.nchanges ? ROLE_CHANGED : ROLE_HEADER_VALUE,
		       "%zu", t->sc.nchanges) +
	     2;
	/* hold: changes written over outside tunetop (--hold=reassert: and
	 * how many of them were written back) */
	if (knob_hold_outside(t->sc.hold) && t->sc.hold_mode == KNOB_HOLD_REASSERT)
		x += ui_printf(&t->sc, y, x, COLS - x, ROLE_WARN, "reverted %u reasserted %u",
			       knob_hold_outside(t->sc.hold), knob_hold_reasserted(t->sc.hold)) +
		     2;
	else if (knob_hold_outside(t->sc.hold))
		x += ui_printf(&t->sc, y, x, COLS - x, ROLE_WARN, "reverted %u",
			       knob_hold_outside(t->sc.hold)) +
		     2;
	/* findings, coloured by the worst one */
	x += ui_printf(&t->sc, y, x, COLS - x,
		       t->sc.findings.n ? tui_sev_role(tui_worst_finding(&t->sc))
					: ROLE_HEADER_VALUE,
		       "%zu finding%s", t->sc.findings.n, t->sc.findings.n == 1 ? "" : "s") +
	     2;
	if (t->sc.dma_held)
		x += ui_printf(&t->sc, y, x, COLS - x, ROLE_CHANGED, "QoS %dus",
			       t->sc.dma_value_us) +
		     2;
	if (t->sc.hooks.busy_mark)
		x += t->sc.hooks.busy_mark(&t->sc, y, x);
	if (t->rec)
		x += ui_printf(&t->sc, y, x, COLS - x, t->rec_failed ? ROLE_ALERT : ROLE_WARN,
			       "REC %s", t->rec_failed ? "failed" : "on") +
		     2;
	if (t->sc.replay && t->sc.hooks.replay_mark)
		x += t->sc.hooks.replay_mark(&t->sc, y, x);
	else if (t->readonly || !t->sc.knob)
		x += ui_printf(&t->sc, y, x, COLS - x, ROLE_READONLY, " READ-ONLY ") + 2;
	x += tui_world_line(t, y, x); /* a world's app: its frame times */
	if (t->sc.replay)
		snprintf(src, sizeof(src), "file %s", t->sc.replay->path);
	else if (t->sc.sim)
		snprintf(src, sizeof(src), "demo root %s", t->root_path);
	else if (t->sc.root.live)
		snprintf(src, sizeof(src), "live");
	else
		snprintf(src, sizeof(src), "root %s", t->root_path);
	/* where tunetop itself runs, when the source still fits after it */
	if (!t->sc.replay && t->sc.self.applied) {
		char cpus[64], self[96];
		int n;

		cpulist_format(&t->sc.self.cpus, cpus, sizeof(cpus));
		n = snprintf(self, sizeof(self), "%s n%d", cpus, t->sc.self.nice);
		if (x + 5 + n + 2 + (int)strlen(src) <= COLS) {
			x += ui_put(&t->sc, y, x, COLS - x, ROLE_HEADER, "self ");
			x += ui_put(&t->sc, y, x, COLS - x,
				    t->sc.self.err[0] ? ROLE_WARN : ROLE_HEADER_VALUE, self) +
			     2;
		}
	}
	if (x < COLS) {
		int room = COLS - x;
		int len = (int)strlen(src);

		if (len > room && room > 4)
			ui_printf(&t->sc, y, x, room, ROLE_HEADER, "...%s", src + len - (room - 3));
		else
			ui_put(&t->sc, y, x, room, ROLE_HEADER, src);
	}
}

/* Tab i's label: " 1 Cores " (number keys 1..9, then 0), after the tenth
 * " ! Findings " (the screen's own key) or " Name "; names cut to abbrev
 * characters (0: whole). */
static int tab_label(const struct tui *t, int i, int abbrev, char *buf, size_t cap)
{
	const char *name = t->sc.screens[i].ops->name;
	int len = (int)strlen(name);

	if (abbrev > 0 && abbrev < len)
		len = abbrev;
	if (i < 10)
		return snprintf(buf, cap, " %d %.*s ", (i + 1) % 10, len, name);
	if (t->sc.screens[i].ops->hotkey) /* Findings '!', Lessons 'L' */
		return snprintf(buf, cap, " %c %.*s ", t->sc.screens[i].ops->hotkey, len, name);
	return snprintf(buf, cap, " %.*s ", len, name);
}

#define TAB_ABBREV_MIN 3

/* The tab strip. Full labels when they fit; else the other tabs' names are
 * cut (as long as fits whichever tab is current, down to TAB_ABBREV_MIN
 * characters) while the current tab keeps its whole name; when even that
 * is too wide, the strip shows a window of tabs around the current one,
 * with < and > at the ends where tabs are hidden (clicking a marker selects the tab behind it).
 * tabs_x[] gets each tab's start column for clicks: a hidden tab has no
 * width, except the one behind a marker, which owns the marker. */
static void draw_tabs(struct tui *t, int y)
{
	int w[TUI_MAX_SCREENS], abbrev = 0, total, first = 0, last = t->sc.nscreens - 1, x = 0,
				maxlen = 0;
	char buf[96];

	ui_fill(&t->sc, y, 0, COLS, ROLE_TAB);
	for (int i = 0; i < t->sc.nscreens; i++) {
		int len = (int)strlen(t->sc.screens[i].ops->name);

		maxlen = len > maxlen ? len : maxlen;
	}
	/* the widest cut that fits whichever tab is current (so that the strip
	 * does not change as Tab cycles) */
	for (abbrev = 0;; abbrev = abbrev ? abbrev - 1 : maxlen - 1) {
		int extra = 0;

		if (abbrev && abbrev < TAB_ABBREV_MIN) {
			abbrev = TAB_ABBREV_MIN;
			break;
		}
		total = 0;
		for (int i = 0; i < t->sc.nscreens; i++) {
			int cut = tab_label(t, i, abbrev, buf, sizeof(buf));
			int whole = tab_label(t, i, 0, buf, sizeof(buf));

			total += cut;
			extra = whole - cut > extra ? whole - cut : extra;
		}
		if (total + extra <= COLS || maxlen <= TAB_ABBREV_MIN)
			break;
	}
	total = 0;
	for (int i = 0; i < t->sc.nscreens; i++) {
		w[i] = tab_label(t, i, i == t->sc.cur ? 0 : abbrev, buf, sizeof(buf));
		total += w[i];
	}
	if (total > COLS) {
		/* a window around the current tab; one column per marker */
		int used;

		first = last = t->sc.cur;
		used = w[t->sc.cur];
		for (bool grew = true; grew;) {
			grew = false;
			if (last + 1 < t->sc.nscreens &&
			    used + w[last + 1] + (first > 0) + (last + 2 < t->sc.nscreens) <=
				    COLS) {
				used += w[++last];
				grew = true;
			}
			if (first > 0 &&
			    used + w[first - 1] + (first > 1) + (last + 1 < t->sc.nscreens) <=
				    COLS) {
				used += w[--first];
				grew = true;
			}
		}
	}
	for (int i = 0; i < first; i++)
		t->tabs_x[i] = 0;
	if (first > 0) {
		x += ui_put(&t->sc, y, 0, COLS, ROLE_TAB, "<");
		t->tabs_x[first - 1] = 0;
	}
	for (int i = first; i <= last; i++) {
		t->tabs_x[i] = x;
		tab_label(t, i, i == t->sc.cur ? 0 : abbrev, buf, sizeof(buf));
		x += ui_put(&t->sc, y, x, COLS - x, i == t->sc.cur ? ROLE_TAB_ACTIVE : ROLE_TAB,
			    buf);
	}
	if (last + 1 < t->sc.nscreens) {
		int mx = x < COLS - 1 ? COLS - 1 : x;

		t->tabs_x[last + 1] = mx;
		ui_put(&t->sc, y, mx, COLS - mx, ROLE_TAB, ">");
		x = mx + 1;
		for (int i = last + 2; i < t->sc.nscreens; i++)
			t->tabs_x[i] = x;
	}
	t->tabs_x[t->sc.nscreens] = x;
}

static void draw_status(struct tui *t, int y)
{
	ui_fill(&t->sc, y, 0, COLS, ROLE_DEFAULT);
	if (t->status[0] && time_mono_ns() < t->status_until_ns) {
		ui_put(&t->sc, y, 0, COLS, t->status_err ? ROLE_STATUS_ERROR : ROLE_STATUS,
		       t->status);
		return;
	}
	t->status[0] = '\0';
	if (t->sc.replay)
		ui_printf(&t->sc, y, 0, COLS, ROLE_LABEL,
			  "REPLAY (read-only): space play/pause  . , step  [ ] 10 samples  { } "
			  "start/end  + - speed");
	else if (t->readonly && t->sc.knob)
		ui_printf(&t->sc, y, 0, COLS, ROLE_READONLY, "READ-ONLY: %s", t->sc.ro_why);
	else if (!t->sc.knob)
		ui_printf(&t->sc, y, 0, COLS, ROLE_READONLY, "READ-ONLY: %s", t->sc.ro_why);
}

void tui_draw(struct screen_ctx *sc)
{
	struct tui *t = tui_of(sc);
	struct screen *s = &t->sc.screens[t->sc.cur];

	erase();
	if (LINES < 8 || COLS < 30) {
		mvaddstr(0, 0, "terminal too small");
		refresh();
		return;
	}
	draw_header(t);
	draw_tabs(t, 2);
	t->sc.body_y = 3;
	t->sc.body_h = LINES - 5;
	s->ops->draw(&t->sc, s, t->sc.body_y, t->sc.body_h);
	draw_status(t, LINES - 2);
	ui_draw_keybar(&t->sc, LINES - 1, t->sc.replay ? "replay" : s->ops->id);
	wnoutrefresh(stdscr);
	doupdate();
}

void tui_status(struct screen_ctx *sc, bool err, const char *fmt, ...)
{
	struct tui *t = tui_of(sc);

	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->status, sizeof(t->status), fmt, ap);
	va_end(ap);
	/* one line */
	for (char *p = t->status; *p; p++)
		if (*p == '\n') {
			if (p[1])
				*p = ' ';
			else
				*p = '\0';
		}
	t->status_err = err;
	t->status_sticky = false;
	t->status_until_ns = time_mono_ns() + (err ? 8 : 5) * 1000000000ULL;
}

/* A key was pressed: a hold report (shown until then) has been seen, and
 * the key's own message, if any, takes the line. */
void tui_status_seen(struct tui *t)
{
	if (t->status_sticky) {
		t->status_sticky = false;
		t->status[0] = '\0';
	}
}

const char *tui_status_text(const struct screen_ctx *sc)
{
	return tui_of_const(sc)->status;
}

void tui_status_clear(struct screen_ctx *sc)
{
	tui_of(sc)->status[0] = '\0';
}

const struct tui_change *tui_changed(const struct screen_ctx *sc, const char *addr)
{
	const struct tui *t = tui_of_const(sc);

	for (size_t i = 0; i < t->sc.nchanges; i++)
		if (!strcmp(t->sc.changes[i].addr, addr))
			return &t->sc.changes[i];
	return NULL;
}

const struct tui_change *tui_changed_prefix(const struct tui *t, const char *prefix)
{
	size_t n = strlen(prefix);

	for (size_t i = 0; i < t->sc.nchanges; i++)
		if (!strncmp(t->sc.changes[i].addr, prefix, n))
			return &t->sc.changes[i];
	return NULL;
}

void tui_first_line(const char *s, char *out, size_t cap)
{
	const char *nl;
	size_t n;

	if (!s) {
		out[0] = '\0';
		return;
	}
	nl = strchr(s, '\n');
	n = nl ? (size_t)(nl - s) : strlen(s);
	if (n >= cap)
		n = cap - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

enum finding_sev tui_worst_finding(const struct screen_ctx *sc)
{
	const struct tui *t = tui_of_const(sc);
	enum finding_sev w = FINDING_INFO;

	for (size_t i = 0; i < t->sc.findings.n; i++)
		if (t->sc.findings.v[i].sev > w)
			w = t->sc.findings.v[i].sev;
	return w;
}

enum role tui_sev_role(enum finding_sev s)
{
	switch (s) {
	case FINDING_CRIT: return ROLE_ALERT;
	case FINDING_WARN: return ROLE_WARN;
	default: return ROLE_LABEL;
	}
}

/* TUI_SNAP_BASE as the last sample allows: the only finding that reads the
 * interrupt rates is about isolated / nohz_full CPUs, so without any the
 * header does not pay for /proc/interrupts (a large file on many CPUs);
 * the screens that show IRQs ask for them. */
unsigned tui_snap_base(const struct tui *t)
{
	const struct system_info *y = t->sc.snap ? &t->sc.snap->sys : NULL;

	if (y && !(y->have_isolated && !cpumask_empty(&y->isolated)) &&
	    !(y->have_nohz_full && !cpumask_empty(&y->nohz_full)))
		return TUI_SNAP_BASE & ~SNAP_IRQS;
	return TUI_SNAP_BASE;
}

/* ---- tabs: which screen is shown ------------------------------------------- */

/* Show screen i. When it reads a source the last sample did not, the loop
 * samples again before drawing (t->sc.want_tick: the loop owns time). */
void tui_switch_to(struct tui *t, int i)
{
	unsigned needs;

	if (i < 0 || i >= t->sc.nscreens)
		return;
	t->sc.cur = i;
	needs = tui_snap_base(t) | t->sc.screens[i].ops->needs;
	if (!t->sc.replay && t->sc.snap && (t->sc.snap->what & needs) != needs)
		t->sc.want_tick = true; /* this screen reads a source the others did not */
	else if (t->sc.screens[i].ops->build)
		t->sc.screens[i].ops->build(&t->sc, &t->sc.screens[i]);
}

int tui_find_screen(struct tui *t, const char *id)
{
	for (int i = 0; i < t->sc.nscreens; i++)
		if (!strcmp(t->sc.screens[i].ops->id, id))
			return i;
	return -1;
}

void tui_show_screen(struct screen_ctx *sc, const char *id)
{
	struct tui *t = tui_of(sc);

	tui_switch_to(t, tui_find_screen(t, id));
}

bool tui_is_demo(const struct tui *t)
{
	return t->sc.sim != NULL;
}

bool tui_is_replay(const struct tui *t)
{
	return t->sc.replay != NULL;
}
