/* The interactive terminal UI: `tunetop` with no command. Owns the curses
 * session, the main loop (sample on the refresh tick, redraw only on a tick
 * or a key, block in getch() otherwise), the screen table and its switching,
 * the header / tab / status / key-bar frame, the global keys, the quit and
 * crash-recovery dialogs, signal handling, and the glue to the knob engine
 * (every change goes through knob_set_many(); this file never writes a knob
 * file itself). On exit it restores the changes this run made unless --keep
 * or the user chose "keep". */
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
#include "model/explain.h"
#include "model/sim.h"
#include "sysfs/userfile.h"
#include "ui/tui.h"

volatile sig_atomic_t tui_signal_pending;

/* Sources every screen needs: the header shows clocks and the cores the rest,
 * and the findings counted in the header read RT throttling, thermal cooling
 * and interrupt rates (the same sources as `snapshot --json`). */
#define TUI_SNAP_BASE (SNAP_CORE | SNAP_DEVFREQ | SNAP_RT | SNAP_THERMAL | SNAP_IRQS)

/* TUI_SNAP_BASE as the last sample allows: the only finding that reads the
 * interrupt rates is about isolated / nohz_full CPUs, so without any the
 * header does not pay for /proc/interrupts (a large file on many CPUs);
 * the screens that show IRQs ask for them. */
static unsigned snap_base(const struct tui *t)
{
	const struct system_info *y = t->snap ? &t->snap->sys : NULL;

	if (y && !(y->have_isolated && !cpumask_empty(&y->isolated)) &&
	    !(y->have_nohz_full && !cpumask_empty(&y->nohz_full)))
		return TUI_SNAP_BASE & ~SNAP_IRQS;
	return TUI_SNAP_BASE;
}

static const struct screen_ops *const screen_table[] = {
#define SCREEN(ops) &ops,
#include "ui/screens.def"
#undef SCREEN
};
#define NSCREEN_TABLE (sizeof(screen_table) / sizeof(screen_table[0]))

static SCREEN *tui_term;
static bool curses_on;

static void on_signal(int sig)
{
	tui_signal_pending = sig;
}

/* A crash must not leave the terminal raw: put it back, say what to do,
 * and die of the same signal (the journal keeps the changes; the next start
 * or 'tunetop restore' puts them back). */
static void on_crash(int sig)
{
	static const char msg[] = "\ntunetop crashed; its changes are in the journal: the next "
				  "start offers to restore them, or run 'tunetop restore'\n";

	if (curses_on)
		endwin();
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing more to do */
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void fatal_hook(void)
{
	if (curses_on) {
		endwin();
		curses_on = false;
	}
}

bool tui_is_demo(const struct tui *t)
{
	return t->sim != NULL;
}

void tui_focus_none(struct tui *t, struct screen *s, struct cpumask *cpus)
{
	(void)t;
	(void)s;
	cpumask_zero(cpus);
}

/* What the sampler reads at every tick: the idle states the current screen
 * shows (a recording holds every CPU). */
static void tui_focus(struct tui *t)
{
	struct screen *s = &t->screens[t->cur];
	struct cpumask m;

	if (t->rec || t->tick_all || !s->ops->focus) {
		t->tick_all = false;
		sampler_focus(&t->sampler, NULL);
		return;
	}
	cpumask_zero(&m);
	s->ops->focus(t, s, &m);
	sampler_focus(&t->sampler, &m);
}

/* ---- status line ---------------------------------------------------------- */

void tui_status(struct tui *t, bool err, const char *fmt, ...)
{
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
	t->status_until_ns = time_mono_ns() + (err ? 8 : 5) * 1000000000ULL;
}

/* ---- changes and the knob engine ------------------------------------------ */

const char *tui_cannot_write(struct tui *t)
{
	if (!t->knob)
		return t->ro_why[0] ? t->ro_why : "the knob engine is not available";
	if (t->readonly)
		return t->ro_why;
	return latency_busy(t);
}

void tui_reload_journal(struct tui *t)
{
	struct knob_jentry *e = NULL;
	size_t n = 0;
	int torn = 0;
	char *cause = NULL;
	const char *run;

	if (t->replay) {
		/* the changes as recorded at the shown sample */
		if (t->replay->have_cur)
			tui_replay_goto(t, t->replay->idx);
		return;
	}
	free(t->changes);
	t->changes = NULL;
	t->nchanges = t->nours = t->norphans = 0;
	if (!t->knob)
		return;
	tui_record_poll(t); /* a change just made is an event of the recording now */
	if (knob_journal_list(t->knob, &e, &n, &torn, &cause) != 0) {
		free(cause);
		return;
	}
	run = knob_ctx_run_id(t->knob);
	t->changes = xcalloc(n ? n : 1, sizeof(*t->changes));
	for (size_t i = 0; i < n; i++) {
		struct tui_change *c = NULL;

		if (!e[i].this_root)
			continue;
		if (e[i].orphaned)
			t->norphans++;
		if (e[i].state != KNOB_J_ACTIVE)
			continue;
		/* one row per address: keep the oldest old value, the newest new one */
		for (size_t k = 0; k < t->nchanges; k++)
			if (!strcmp(t->changes[k].addr, e[i].addr))
				c = &t->changes[k];
		if (!c) {
			c = &t->changes[t->nchanges++];
			str_copy(c->addr, sizeof(c->addr), e[i].addr);
			str_copy(c->old, sizeof(c->old), e[i].old ? e[i].old : "");
		}
		str_copy(c->new_value, sizeof(c->new_value), e[i].new_value ? e[i].new_value : "");
		c->txn = e[i].txn;
		c->watched = e[i].effect_evidence != NULL;
		c->effect = e[i].effect;
		str_copy(c->effect_evidence, sizeof(c->effect_evidence),
			 e[i].effect_evidence ? e[i].effect_evidence : "");
		if (run && e[i].run && !strcmp(run, e[i].run))
			c->ours = true;
	}
	for (size_t k = 0; k < t->nchanges; k++)
		if (t->changes[k].ours)
			t->nours++;
	knob_journal_free(e, n);
}

const struct tui_change *tui_changed(const struct tui *t, const char *addr)
{
	for (size_t i = 0; i < t->nchanges; i++)
		if (!strcmp(t->changes[i].addr, addr))
			return &t->changes[i];
	return NULL;
}

const struct tui_change *tui_changed_prefix(const struct tui *t, const char *prefix)
{
	size_t n = strlen(prefix);

	for (size_t i = 0; i < t->nchanges; i++)
		if (!strncmp(t->changes[i].addr, prefix, n))
			return &t->changes[i];
	return NULL;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		if (*s == '\n' && s[1])
			n++;
	return s ? n + 1 : 0;
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

/* A refusal too long for the status line loses its reason at the end:
 * "ADDR: ERR from FILE: could not write 'V': REASON; nothing changed"
 * becomes "ADDR=V: ERR: REASON" (the address names the knob; the file and
 * "nothing changed" are what "Refused" already says). */
static void brief_refusal(char *line, size_t cap)
{
	const char *nothing = "; nothing changed";
	size_t n = strlen(line), k = strlen(nothing);
	char *sep = strstr(line, ": "), *from, *cw, *q, out[1024];

	if (n > k && !strcmp(line + n - k, nothing))
		line[n - k] = '\0';
	from = sep ? strstr(sep, " from ") : NULL;
	cw = from ? strstr(from, ": could not write '") : NULL;
	q = cw ? strchr(cw + 19, '\'') : NULL;
	if (!q)
		return;
	*sep = *from = *q = '\0';
	/* line: ADDR, sep + 2: ERR, cw + 19: V, q + 1: ": REASON" or "" */
	snprintf(out, sizeof(out), "%s=%s: %s%s", line, cw + 19, sep + 2, q + 1);
	str_copy(line, cap, out);
}

int tui_set(struct tui *t, const char *const *assign, size_t n, unsigned flags)
{
	struct sbuf report;
	char *cause = NULL, line[TUI_STATUS_LEN];
	const char *why = tui_cannot_write(t);
	int e;

	if (why) {
		tui_status(t, true, "Refused: %s", why);
		return -EPERM;
	}
	/* Scoped: this session restores them on exit, and if it dies first the
	 * next start sees them as orphaned. Under --keep they are meant to stay. */
	if (!t->keep)
		flags |= KNOB_SCOPED;
	sbuf_init(&report);
	e = knob_set_many(t->knob, assign, NULL, n, flags, &report, &cause);
	if (e) {
		char full[1024];

		tui_first_line(cause, full, sizeof(full));
		if ((int)strlen(full) + 9 > COLS)
			brief_refusal(full, sizeof(full));
		str_copy(line, sizeof(line), full);
		tui_status(t, true, "Refused: %s", line[0] ? line : err_name(e));
	} else {
		size_t nl = report.len ? count_lines(report.s) : 0;

		tui_first_line(report.s, line, sizeof(line));
		if (nl > 1)
			tui_status(t, false, "%s (+%zu more)  u undoes", line, nl - 1);
		else
			tui_status(t, false, "%s  u undoes", line[0] ? line : assign[0]);
	}
	free(cause);
	sbuf_free(&report);
	tui_reload_journal(t);
	if (!e && !(flags & KNOB_DRY_RUN)) {
		unsigned ms = knob_effect_default_ms();

		/* watch whether the kernel obeys; judged by tui_effect_poll() */
		knob_effect_free(t->eff_watch);
		t->eff_watch = ms ? knob_effect_begin(t->knob) : NULL;
		t->eff_due_ns = time_mono_ns() + (uint64_t)ms * 1000000ull;
	}
	return e;
}

/* The watch of the last change, once its time is up: a change the kernel
 * does not obey says so on the status line (and in the Journal screen). */
static void tui_effect_poll(struct tui *t, uint64_t now)
{
	struct sbuf rep;

	if (!t->eff_watch || now < t->eff_due_ns)
		return;
	sbuf_init(&rep);
	if (knob_effect_end(t->knob, t->eff_watch, KNOB_QUIET, &rep) > 0) {
		char line[TUI_STATUS_LEN];
		size_t nl = count_lines(rep.s);

		tui_first_line(rep.s, line, sizeof(line));
		if (nl > 1)
			tui_status(t, true, "%s (+%zu more)", line, nl - 1);
		else
			tui_status(t, true, "%s", line);
	}
	sbuf_free(&rep);
	knob_effect_free(t->eff_watch);
	t->eff_watch = NULL;
	tui_reload_journal(t);
}

int tui_set1(struct tui *t, const char *fmt, ...)
{
	char buf[KNOB_ADDR_MAX + KNOB_VALUE_MAX];
	const char *a[1] = {buf};
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return tui_set(t, a, 1, 0);
}

int tui_undo_last(struct tui *t)
{
	struct sbuf report;
	char *cause = NULL, line[TUI_STATUS_LEN];
	const char *why = tui_cannot_write(t);
	int e;

	if (why) {
		tui_status(t, true, "Refused: %s", why);
		return -EPERM;
	}
	if (!t->nchanges) {
		tui_status(t, false, "Nothing to undo");
		return 0;
	}
	sbuf_init(&report);
	e = knob_undo_last(t->knob, 1, 0, &report, &cause);
	if (e) {
		tui_first_line(cause, line, sizeof(line));
		tui_status(t, true, "Undo failed: %s", line[0] ? line : err_name(e));
	} else {
		size_t nl = report.len ? count_lines(report.s) : 0;

		tui_first_line(report.s, line, sizeof(line));
		if (nl > 1)
			tui_status(t, false, "Undone: %s (+%zu more)", line, nl - 1);
		else
			tui_status(t, false, "Undone: %s", line[0] ? line : "last change");
	}
	free(cause);
	sbuf_free(&report);
	tui_reload_journal(t);
	return e;
}

int tui_restore_all(struct tui *t, bool ask)
{
	struct sbuf report;
	char *cause = NULL, line[TUI_STATUS_LEN], text[200];
	const char *why = tui_cannot_write(t);
	static const char *const buttons[] = {"Restore", "Cancel"};
	int e;

	if (why) {
		tui_status(t, true, "Refused: %s", why);
		return -EPERM;
	}
	if (!t->nchanges) {
		tui_status(t, false, "Nothing to restore");
		return 0;
	}
	if (ask) {
		snprintf(text, sizeof(text),
			 "Put back the original value of %zu changed knob%s\n"
			 "(newest first, as recorded in the journal)?",
			 t->nchanges, t->nchanges == 1 ? "" : "s");
		if (ui_choice(t, "Restore all", text, buttons, 2, 0) != 0) {
			tui_status(t, false, "Restore cancelled");
			return 0;
		}
	}
	sbuf_init(&report);
	e = knob_restore_all(t->knob, 0, &report, &cause);
	if (e) {
		tui_first_line(cause, line, sizeof(line));
		tui_status(t, true, "Restore failed: %s", line[0] ? line : err_name(e));
	} else {
		tui_status(t, false, "Restored %zu change%s", t->nchanges,
			   t->nchanges == 1 ? "" : "s");
	}
	free(cause);
	sbuf_free(&report);
	tui_reload_journal(t);
	return e;
}

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

void tui_apply_theme(struct tui *t)
{
	struct theme mono;
	const struct theme *th = &t->theme;

	t->color = !t->no_color && has_colors() && !th->mono;
	if (!t->color && !th->mono) {
		theme_monochrome(&mono);
		th = &mono;
	}
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct theme_style *s = &th->style[r];
		unsigned a = s->attrs;
		attr_t at = A_NORMAL;

		if (t->color && r + 1 < COLOR_PAIRS) {
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
		t->attr[r] = at;
	}
	if (t->color)
		bkgdset(' ' | t->attr[ROLE_DEFAULT]);
}

/* ---- sampling ----------------------------------------------------------------- */

static void tui_tick(struct tui *t)
{
	uint64_t now = time_mono_ns();
	int e;

	if (t->replay) {
		/* a replay shows the recorded sample; only the timer moves it */
		struct screen *s = &t->screens[t->cur];

		if (!t->replay->have_cur)
			tui_replay_timer(t); /* the first: shown, and the clock started */
		else if (s->ops->build)
			s->ops->build(t, s);
		return;
	}
	if (t->sim && t->last_tick_ns)
		sim_step(t->sim, (double)(now - t->last_tick_ns) / 1e9);
	/* a recording holds everything, so that every screen replays */
	t->sampler.what = t->rec ? SNAP_ALL : snap_base(t) | t->screens[t->cur].ops->needs;
	tui_focus(t);
	e = sampler_tick(&t->sampler);
	if (e && !t->status[0])
		tui_status(t, true, "sampling: %s", err_name(e));
	t->snap = sampler_cur(&t->sampler);
	t->prev = sampler_prev(&t->sampler);
	t->last_tick_ns = now;
	t->next_tick_ns = now + (uint64_t)t->delay_tenths * 100000000ULL;
	/* rates need two samples: take the second one soon after the start */
	if (t->sampler.count == 1 && t->delay_tenths > 3)
		t->next_tick_ns = now + 300000000ULL;
	tui_effect_poll(t, now);
	tui_counters_tick(t);
	tui_findings_eval(t);
	tui_record_sample(t);
	for (int i = 0; i < t->nscreens; i++)
		if (t->screens[i].ops->build)
			t->screens[i].ops->build(t, &t->screens[i]);
}

void tui_resample(struct tui *t)
{
	t->tick_all = true;
	tui_tick(t);
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
	const struct devfreq_info *d = &t->snap->devf;
	int64_t hz = -1;
	bool changed = false;
	char buf[32];
	int n = 0;

	for (size_t i = 0; i < d->ndev; i++)
		if (d->dev[i].kind == kind) {
			char pre[KNOB_ADDR_MAX];

			hz = d->dev[i].cur_hz;
			snprintf(pre, sizeof(pre), "devfreq/%s/", d->dev[i].name);
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
	n += ui_printf(t, y, x, COLS - x, ROLE_HEADER, "%s ", label);
	ui_fmt_hz(t, hz, buf, sizeof(buf));
	n += ui_printf(t, y, x + n, COLS - x - n,
		       hz < 0	 ? ROLE_VALUE_NA
		       : changed ? ROLE_CHANGED
				 : ROLE_HEADER_VALUE,
		       "%s", buf);
	n += ui_put(t, y, x + n, COLS - x - n, ROLE_HEADER, t->cfg.freq_ghz ? "  " : " MHz  ");
	return n;
}

static void draw_header(struct tui *t)
{
	const struct system_info *sys = t->snap ? &t->snap->sys : NULL;
	char up[32], src[300], board[200];
	int x = 0, y = 0;
	const char *pre = NULL;

	ui_fill(t, 0, 0, COLS, ROLE_DEFAULT);
	ui_fill(t, 1, 0, COLS, ROLE_DEFAULT);
	/* right end: uptime and interval */
	{
		char right[64];
		int rw, room, kw = 0;
		const char *kern = sys && sys->kernel[0] ? sys->kernel : "n/a";

		int every =
			t->replay ? (int)lround(t->replay->interval_ms / 100.0) : t->delay_tenths;

		fmt_uptime(sys ? sys->uptime_s : NAN, up, sizeof(up));
		rw = snprintf(right, sizeof(right), "up %s  every %d.%ds", up, every / 10,
			      every % 10);
		if (t->replay)
			x += ui_put(t, y, x, COLS - x, ROLE_READONLY, " REPLAY ") + 1;
		if (t->sim)
			x += ui_printf(t, y, x, COLS - x, ROLE_SIMULATED, " SIMULATED %s ",
				       sim_board(t->sim)) +
			     1;
		else if (t->replay && t->replay->board[0])
			x += ui_printf(t, y, x, COLS - x, ROLE_SIMULATED, " SIMULATED %s ",
				       t->replay->board) +
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
				 t->snap && t->snap->topo.cpu_model[0] ? t->snap->topo.cpu_model
								       : "board n/a");
		if (room < 8)
			room = 8;
		x += ui_printf(t, y, x, room, ROLE_HEADER_VALUE, "%s", board) + 2;
		if (sys) {
			x += ui_printf(t, y, x, COLS - x, ROLE_HEADER_VALUE, "%s", kern) + 1;
			x += ui_printf(t, y, x, COLS - x,
				       sys->preempt == PREEMPT_MODEL_RT ? ROLE_OK
				       : pre				? ROLE_HEADER
									: ROLE_VALUE_NA,
				       "%s", pre ? pre : "preempt ?");
		}
		if (x <= COLS - rw) {
			int rx = COLS - rw;

			rx += ui_put(t, y, rx, COLS - rx, ROLE_HEADER, "up ");
			rx += ui_printf(t, y, rx, COLS - rx, ROLE_HEADER_VALUE, "%s", up) + 2;
			rx += ui_put(t, y, rx, COLS - rx, ROLE_HEADER, "every ");
			ui_printf(t, y, rx, COLS - rx, ROLE_HEADER_VALUE, "%d.%ds", every / 10,
				  every % 10);
		}
	}

	/* line 2: clocks, changes, read-only, source */
	y = 1;
	x = 0;
	if (t->snap && t->cfg.hdr_clocks) {
		x += header_clock(t, y, x, "DDR", DEVFREQ_DDR);
		x += header_clock(t, y, x, "NPU", DEVFREQ_NPU);
		x += header_clock(t, y, x, "GPU", DEVFREQ_GPU);
	}
	x += ui_put(t, y, x, COLS - x, ROLE_HEADER, "changes ");
	x += ui_printf(t, y, x, COLS - x, t->nchanges ? ROLE_CHANGED : ROLE_HEADER_VALUE, "%zu",
		       t->nchanges) +
	     2;
	/* findings, coloured by the worst one */
	x += ui_printf(t, y, x, COLS - x,
		       t->findings.n ? tui_sev_role(tui_worst_finding(t)) : ROLE_HEADER_VALUE,
		       "%zu finding%s", t->findings.n, t->findings.n == 1 ? "" : "s") +
	     2;
	if (t->dma_held)
		x += ui_printf(t, y, x, COLS - x, ROLE_CHANGED, "QoS %dus", t->dma_value_us) + 2;
	x += latency_header(t, y, x);
	if (t->rec)
		x += ui_printf(t, y, x, COLS - x, t->rec_failed ? ROLE_ALERT : ROLE_WARN, "REC %s",
			       t->rec_failed ? "failed" : "on") +
		     2;
	if (t->replay)
		x += tui_replay_header(t, y, x);
	else if (t->readonly || !t->knob)
		x += ui_printf(t, y, x, COLS - x, ROLE_READONLY, " READ-ONLY ") + 2;
	if (t->replay)
		snprintf(src, sizeof(src), "file %s", t->replay->path);
	else if (t->sim)
		snprintf(src, sizeof(src), "demo root %s", t->root_path);
	else if (t->root.live)
		snprintf(src, sizeof(src), "live");
	else
		snprintf(src, sizeof(src), "root %s", t->root_path);
	if (x < COLS) {
		int room = COLS - x;
		int len = (int)strlen(src);

		if (len > room && room > 4)
			ui_printf(t, y, x, room, ROLE_HEADER, "...%s", src + len - (room - 3));
		else
			ui_put(t, y, x, room, ROLE_HEADER, src);
	}
}

/* Tab i's label: " 1 Cores " (number keys 1..9, then 0), after the tenth
 * " ! Findings " (the screen's own key) or " Name "; names cut to abbrev
 * characters (0: whole). */
static int tab_label(const struct tui *t, int i, int abbrev, char *buf, size_t cap)
{
	const char *name = t->screens[i].ops->name;
	int len = (int)strlen(name);

	if (abbrev > 0 && abbrev < len)
		len = abbrev;
	if (i < 10)
		return snprintf(buf, cap, " %d %.*s ", (i + 1) % 10, len, name);
	if (t->screens[i].ops->hotkey) /* Findings '!', Lessons 'L' */
		return snprintf(buf, cap, " %c %.*s ", t->screens[i].ops->hotkey, len, name);
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
	int w[TUI_MAX_SCREENS], abbrev = 0, total, first = 0, last = t->nscreens - 1, x = 0,
				maxlen = 0;
	char buf[96];

	ui_fill(t, y, 0, COLS, ROLE_TAB);
	for (int i = 0; i < t->nscreens; i++) {
		int len = (int)strlen(t->screens[i].ops->name);

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
		for (int i = 0; i < t->nscreens; i++) {
			int cut = tab_label(t, i, abbrev, buf, sizeof(buf));
			int whole = tab_label(t, i, 0, buf, sizeof(buf));

			total += cut;
			extra = whole - cut > extra ? whole - cut : extra;
		}
		if (total + extra <= COLS || maxlen <= TAB_ABBREV_MIN)
			break;
	}
	total = 0;
	for (int i = 0; i < t->nscreens; i++) {
		w[i] = tab_label(t, i, i == t->cur ? 0 : abbrev, buf, sizeof(buf));
		total += w[i];
	}
	if (total > COLS) {
		/* a window around the current tab; one column per marker */
		int used;

		first = last = t->cur;
		used = w[t->cur];
		for (bool grew = true; grew;) {
			grew = false;
			if (last + 1 < t->nscreens &&
			    used + w[last + 1] + (first > 0) + (last + 2 < t->nscreens) <= COLS) {
				used += w[++last];
				grew = true;
			}
			if (first > 0 &&
			    used + w[first - 1] + (first > 1) + (last + 1 < t->nscreens) <= COLS) {
				used += w[--first];
				grew = true;
			}
		}
	}
	for (int i = 0; i < first; i++)
		t->tabs_x[i] = 0;
	if (first > 0) {
		x += ui_put(t, y, 0, COLS, ROLE_TAB, "<");
		t->tabs_x[first - 1] = 0;
	}
	for (int i = first; i <= last; i++) {
		t->tabs_x[i] = x;
		tab_label(t, i, i == t->cur ? 0 : abbrev, buf, sizeof(buf));
		x += ui_put(t, y, x, COLS - x, i == t->cur ? ROLE_TAB_ACTIVE : ROLE_TAB, buf);
	}
	if (last + 1 < t->nscreens) {
		int mx = x < COLS - 1 ? COLS - 1 : x;

		t->tabs_x[last + 1] = mx;
		ui_put(t, y, mx, COLS - mx, ROLE_TAB, ">");
		x = mx + 1;
		for (int i = last + 2; i < t->nscreens; i++)
			t->tabs_x[i] = x;
	}
	t->tabs_x[t->nscreens] = x;
}

static void draw_status(struct tui *t, int y)
{
	ui_fill(t, y, 0, COLS, ROLE_DEFAULT);
	if (t->status[0] && time_mono_ns() < t->status_until_ns) {
		ui_put(t, y, 0, COLS, t->status_err ? ROLE_STATUS_ERROR : ROLE_STATUS, t->status);
		return;
	}
	t->status[0] = '\0';
	if (t->replay)
		ui_printf(t, y, 0, COLS, ROLE_LABEL,
			  "REPLAY (read-only): space play/pause  . , step  [ ] 10 samples  { } "
			  "start/end  + - speed");
	else if (t->readonly && t->knob)
		ui_printf(t, y, 0, COLS, ROLE_READONLY, "READ-ONLY: %s", t->ro_why);
	else if (!t->knob)
		ui_printf(t, y, 0, COLS, ROLE_READONLY, "READ-ONLY: %s", t->ro_why);
}

static const struct keyhint replay_hints[] = {
	{"Spc", "Play"}, {".", "Step"},	  {",", "Back"},
	{"[]", "Seek"},	 {"+-", "Speed"}, {NULL, NULL},
};

void tui_draw(struct tui *t)
{
	struct screen *s = &t->screens[t->cur];

	erase();
	if (LINES < 8 || COLS < 30) {
		mvaddstr(0, 0, "terminal too small");
		refresh();
		return;
	}
	draw_header(t);
	draw_tabs(t, 2);
	t->body_y = 3;
	t->body_h = LINES - 5;
	s->ops->draw(t, s, t->body_y, t->body_h);
	draw_status(t, LINES - 2);
	ui_draw_keybar(t, LINES - 1, t->replay ? replay_hints : s->ops->hints);
	wnoutrefresh(stdscr);
	doupdate();
}

/* ---- keys ----------------------------------------------------------------- */

static void switch_to(struct tui *t, int i)
{
	unsigned needs;

	if (i < 0 || i >= t->nscreens)
		return;
	t->cur = i;
	needs = snap_base(t) | t->screens[i].ops->needs;
	if (!t->replay && t->snap && (t->snap->what & needs) != needs)
		tui_tick(t); /* this screen reads a source the others did not */
	else if (t->screens[i].ops->build)
		t->screens[i].ops->build(t, &t->screens[i]);
}

static int find_screen(struct tui *t, const char *id)
{
	for (int i = 0; i < t->nscreens; i++)
		if (!strcmp(t->screens[i].ops->id, id))
			return i;
	return -1;
}

void tui_show_screen(struct tui *t, const char *id)
{
	switch_to(t, find_screen(t, id));
}

/* The quit dialog: returns true to leave (t->keep set when keeping). */
static bool quit_dialog(struct tui *t)
{
	static const char *const buttons[] = {"Restore and quit", "Keep and quit", "Cancel"};
	char text[256];
	int c;

	if (!t->nours || t->keep || !t->cfg.confirm_quit || !t->knob)
		return true;
	snprintf(text, sizeof(text),
		 "This session changed %zu knob%s.\n"
		 "Restore the original values before quitting,\n"
		 "or keep them (undo later with 'tunetop restore')?",
		 t->nours, t->nours == 1 ? "" : "s");
	c = ui_choice(t, "Quit", text, buttons, 3, 0);
	if (c == 1)
		t->keep = true;
	return c == 0 || c == 1;
}

static int handle_mouse(struct tui *t)
{
	MEVENT me;
	struct screen *s = &t->screens[t->cur];
	int rows_y;

	if (getmouse(&me) != OK)
		return HR_IGNORED;
	if (me.bstate & BUTTON4_PRESSED)
		return ui_list_key(s, KEY_UP, t->body_h - s->heading_lines) | HR_REDRAW;
	if (me.bstate & BUTTON5_PRESSED)
		return ui_list_key(s, KEY_DOWN, t->body_h - s->heading_lines) | HR_REDRAW;
	if (!(me.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED)))
		return HR_IGNORED;
	if (me.y == 2) {
		for (int i = 0; i < t->nscreens; i++)
			if (me.x >= t->tabs_x[i] && me.x < t->tabs_x[i + 1]) {
				switch_to(t, i);
				return HR_HANDLED | HR_REDRAW;
			}
		return HR_HANDLED;
	}
	rows_y = t->body_y + s->heading_lines;
	if (me.y >= rows_y && me.y < t->body_y + t->body_h) {
		int row = s->top + me.y - rows_y;

		if (row < s->nrows) {
			s->sel = row;
			return HR_HANDLED | HR_REDRAW;
		}
	}
	return HR_HANDLED;
}

/* 'e' / Enter / ?: explain what the selected row shows (src/model/explain.h),
 * with the original value first when tunetop changed it. A row with nothing
 * to explain says so, or (help_if_none, the ? key) opens the Help screen. */
static int do_explain(struct tui *t, bool help_if_none)
{
	struct screen *s = &t->screens[t->cur];
	struct explain_item items[TUI_MAX_EXPLAIN];
	const struct explain_entry *e;
	struct explain_resolved x;
	const struct tui_change *c;
	struct sbuf b;
	char title[KNOB_ADDR_MAX + 16];
	int n = s->ops->explain ? s->ops->explain(t, s, items, TUI_MAX_EXPLAIN) : 0, k = 0;

	if (n <= 0) {
		if (help_if_none)
			switch_to(t, find_screen(t, "help"));
		else
			tui_status(t, false, "Nothing to explain on this row (F1 lists the keys)");
		return HR_REDRAW;
	}
	if (n > 1) {
		const char *labels[TUI_MAX_EXPLAIN];

		for (int i = 0; i < n; i++)
			labels[i] = items[i].label;
		k = ui_menu(t, "Explain", labels, n, 0, "Enter: explain   Esc: cancel");
		if (k < 0)
			return HR_REDRAW;
	}
	e = explain_find(items[k].key);
	if (!e) {
		tui_status(t, true, "No explanation for %s", items[k].key);
		return HR_REDRAW;
	}
	memset(&x, 0, sizeof(x));
	if (explain_resolve(e, items[k].key, &t->root, &x) != 0) {
		tui_status(t, true, "Cannot explain %s", items[k].key);
		explain_resolved_free(&x);
		return HR_REDRAW;
	}
	sbuf_init(&b);
	c = tui_changed(t, items[k].key);
	if (c)
		sbuf_printf(&b,
			    "Changed%s: %s -> %s  (original value: %s; u undoes the last change, U "
			    "restores all)\n\n",
			    c->ours ? " by this session" : " (journal)", c->old, c->new_value,
			    c->old);
	if (t->replay)
		sbuf_printf(&b,
			    "REPLAY: the values on the screen come from %s; the files below are "
			    "resolved on %s as it is now.\n\n",
			    t->replay->path, t->root.path);
	explain_render(&b, &x, COLS - 8 > 40 ? COLS - 8 : 40);
	snprintf(title, sizeof(title), "Explain %s", items[k].key);
	ui_text(t, title, b.s ? b.s : "");
	sbuf_free(&b);
	explain_resolved_free(&x);
	return HR_REDRAW;
}

static int handle_key(struct tui *t, int ch)
{
	struct screen *s = &t->screens[t->cur];
	int r;

	if (ch == KEY_MOUSE)
		return handle_mouse(t);
	if (ch == KEY_RESIZE)
		return HR_REDRAW;
	/* a replay's transport keys first (where a screen uses them, for an
	 * action, it would be refused anyway), except on Setup, whose + - and
	 * space change settings */
	if (t->replay && strcmp(s->ops->id, "setup")) {
		r = tui_replay_key(t, ch);
		if (r & HR_HANDLED)
			return r;
	}
	/* screen keys first, so a screen may use a letter the global map has */
	r = s->ops->key ? s->ops->key(t, s, ch) : HR_IGNORED;
	if (r & HR_HANDLED)
		return r;
	r = ui_list_key(s, ch, t->body_h - s->heading_lines);
	if (r & HR_HANDLED)
		return r | HR_REDRAW;
	switch (ch) {
	case 'q':
	case KEY_F(10): return HR_QUIT;
	case '\t': switch_to(t, (t->cur + 1) % t->nscreens); return HR_REDRAW;
	case KEY_BTAB: switch_to(t, (t->cur + t->nscreens - 1) % t->nscreens); return HR_REDRAW;
	case '?': return do_explain(t, true); /* the row's entry, else Help */
	case 'h':
	case KEY_F(1): switch_to(t, find_screen(t, "help")); return HR_REDRAW;
	case 'S':
	case KEY_F(2): switch_to(t, find_screen(t, "setup")); return HR_REDRAW;
	case 'u': tui_undo_last(t); return HR_RESCAN | HR_REDRAW;
	case 'U': tui_restore_all(t, true); return HR_RESCAN | HR_REDRAW;
	case 'e':
	case '\n':
	case '\r':
	case KEY_ENTER: return do_explain(t, false);
	case 'o':
		t->show_orig = !t->show_orig;
		tui_status(t, false,
			   t->show_orig ? "Showing original values of changed knobs (o hides)"
					: "Original values hidden (o shows)");
		return HR_REDRAW;
	case 'A': return latency_ab_key(t);
	case 12: /* ^L */ clearok(stdscr, TRUE); return HR_REDRAW;
	default: break;
	}
	if (ch >= '1' && ch <= '9' && ch - '1' < t->nscreens) {
		switch_to(t, ch - '1');
		return HR_REDRAW;
	}
	if (ch == '0' && t->nscreens >= 10) {
		switch_to(t, 9);
		return HR_REDRAW;
	}
	for (int i = 0; i < t->nscreens; i++)
		if ((t->screens[i].ops->fkey && ch == t->screens[i].ops->fkey) ||
		    (t->screens[i].ops->hotkey && ch == t->screens[i].ops->hotkey)) {
			switch_to(t, i);
			return HR_REDRAW;
		}
	if (t->replay)
		return tui_replay_key(t, ch);
	return HR_IGNORED;
}

/* ---- startup: orphaned entries ------------------------------------------------ */

static void offer_orphans(struct tui *t)
{
	static const char *const buttons[] = {"Restore them", "Leave them"};
	struct knob_jentry *e = NULL;
	size_t n = 0, cnt = 0;
	int torn = 0, pid = 0;
	char *cause = NULL, text[300];

	if (t->knob && t->readonly && t->norphans) {
		tui_status(
			t, true,
			"%zu change%s left by a tunetop that died; read-only, so not restored (%s)",
			t->norphans, t->norphans == 1 ? "" : "s", t->ro_why);
		return;
	}
	if (!t->knob || t->readonly || knob_journal_list(t->knob, &e, &n, &torn, &cause) != 0) {
		free(cause);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (e[i].this_root && e[i].orphaned && e[i].state == KNOB_J_ACTIVE) {
			cnt++;
			pid = e[i].pid;
		}
	if (cnt) {
		snprintf(text, sizeof(text),
			 "%zu change%s made by a tunetop that ended without restoring\n"
			 "(pid %d: crashed or killed) %s still in place.\n"
			 "Restore the original values now?",
			 cnt, cnt == 1 ? "" : "s", pid, cnt == 1 ? "is" : "are");
		if (ui_choice(t, "Changes left behind", text, buttons, 2, 0) == 0) {
			for (size_t i = 0; i < n; i++) {
				struct sbuf rep;

				if (!(e[i].this_root && e[i].orphaned &&
				      e[i].state == KNOB_J_ACTIVE))
					continue;
				sbuf_init(&rep);
				knob_restore_run(t->knob, e[i].run, 0, &rep, &cause);
				sbuf_free(&rep);
				free(cause);
				cause = NULL;
				/* entries of the same run are now undone */
				for (size_t k = i + 1; k < n; k++)
					if (e[k].run && e[i].run && !strcmp(e[k].run, e[i].run))
						e[k].state = KNOB_J_UNDONE;
			}
			tui_status(t, false, "Restored %zu change%s left by pid %d", cnt,
				   cnt == 1 ? "" : "s", pid);
		} else {
			tui_status(t, false,
				   "Left %zu change%s in place ('tunetop restore' or U later)", cnt,
				   cnt == 1 ? "" : "s");
		}
	}
	knob_journal_free(e, n);
	tui_reload_journal(t);
}

/* ---- main ------------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tunetop [--root DIR] [--state-dir DIR] [--demo] [-d TENTHS] [--theme "
		"NAME]\n"
		"               [--keep] [--no-color] [--screen NAME] [--record FILE | --replay "
		"FILE]\n"
		"  --demo          simulate an RK3588 board (nothing on this machine is touched)\n"
		"  -d TENTHS       refresh interval in tenths of a second (default 10)\n"
		"  --theme NAME    default, monochrome, light, high-contrast, or a "
		"themes/NAME.theme\n"
		"  --keep          leave this session's changes in place on exit\n"
		"  --no-color      attributes only (also NO_COLOR=1)\n"
		"  --screen NAME   start on cores, clocks, rt, journal, setup, help, threads,\n"
		"                  irqs, isolation, latency, findings or lessons\n"
		"  --record FILE   write every sample and journal event as JSON lines (as watch\n"
		"                  --record does; tunetop report FILE summarises them)\n"
		"  --replay FILE   drive the screens from a recording, read-only: space "
		"play/pause,\n"
		"                  . , step, [ ] 10 samples back / on, { } start / end, + - "
		"speed\n");
}

static int parse_args(struct tui *t, int argc, char **argv, bool *demo, const char **theme,
		      const char **screen, int *delay, const char **record, const char **replay)
{
	static const struct option lo[] = {
		{"demo", no_argument, NULL, 'D'},
		{"delay", required_argument, NULL, 'd'},
		{"theme", required_argument, NULL, 'T'},
		{"keep", no_argument, NULL, 'k'},
		{"no-color", no_argument, NULL, 'C'},
		{"no-colour", no_argument, NULL, 'C'},
		{"screen", required_argument, NULL, 's'},
		{"record", required_argument, NULL, 'R'},
		{"replay", required_argument, NULL, 'P'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+d:h", lo, NULL)) != -1) {
		switch (c) {
		case 'D': *demo = true; break;
		case 'd':
			if (str_to_int(optarg, delay) != 0 || *delay < 1 || *delay > 600) {
				fprintf(stderr, "tunetop: -d %s: tenths of a second, 1..600\n",
					optarg);
				return 2;
			}
			break;
		case 'T': *theme = optarg; break;
		case 'k': t->keep = true; break;
		case 'C': t->no_color = true; break;
		case 's': *screen = optarg; break;
		case 'R': *record = optarg; break;
		case 'P': *replay = optarg; break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "tunetop: unknown option '%s' (see tunetop --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "tunetop: unexpected argument '%s' (see tunetop --help)\n",
			argv[optind]);
		return 2;
	}
	if (*replay && (*record || *demo)) {
		fprintf(stderr, "tunetop: --replay shows a recording: it does not go with %s\n",
			*record ? "--record" : "--demo");
		return 2;
	}
	if ((*record && !**record) || (*replay && !**replay)) {
		fprintf(stderr, "tunetop: --record and --replay need a file\n");
		return 2;
	}
	return -1;
}

static void restore_on_exit(struct tui *t, struct sbuf *msg)
{
	struct sbuf report;
	char *cause = NULL;
	int e;

	if (!t->knob || t->readonly || !t->nours)
		return;
	if (t->keep) {
		/* recorded, so that the next start does not take them for the
		 * leftovers of a crash */
		e = knob_keep_run(t->knob, NULL, NULL, &cause);
		if (e)
			sbuf_printf(msg, "tunetop: %s\n", cause ? cause : err_name(e));
		sbuf_printf(msg, "tunetop: kept %zu change%s (undo with 'tunetop restore')\n",
			    t->nours, t->nours == 1 ? "" : "s");
		free(cause);
		return;
	}
	sbuf_init(&report);
	e = knob_restore_run(t->knob, knob_ctx_run_id(t->knob), KNOB_QUIET, &report, &cause);
	if (e)
		sbuf_printf(msg, "tunetop: restore failed: %s\n", cause ? cause : err_name(e));
	else
		sbuf_printf(msg, "tunetop: restored %zu change%s\n", t->nours,
			    t->nours == 1 ? "" : "s");
	free(cause);
	sbuf_free(&report);
}

int tui_main(const struct tt_opts *o, int argc, char **argv)
{
	struct tui *t = xcalloc(1, sizeof(*t));
	bool demo = false;
	const char *theme = NULL, *screen = NULL, *nc = getenv("NO_COLOR"), *state_dir;
	const char *record = NULL, *replay = NULL;
	int delay = 0, r, rc = 0;
	char *cause = NULL, path[512];
	struct sbuf errs, exitmsg;
	struct sigaction sa;

	t->opts = o;
	sbuf_init(&errs);
	sbuf_init(&exitmsg);
	r = parse_args(t, argc, argv, &demo, &theme, &screen, &delay, &record, &replay);
	if (r >= 0) {
		free(t);
		return r;
	}
	if (nc && *nc)
		t->no_color = true;

	/* settings */
	config_defaults(&t->cfg);
	if (config_path(t->cfg_path, sizeof(t->cfg_path)) == 0) {
		int bad = config_load(t->cfg_path, &t->cfg, &errs);

		if (bad < 0)
			sbuf_printf(&errs, "%s: %s\n", t->cfg_path,
				    userfile_strerror(bad, USERFILE_MAX_TEXT));
	}
	t->delay_tenths = delay ? delay : t->cfg.delay_tenths;
	if (theme)
		str_copy(t->cfg.theme, sizeof(t->cfg.theme), theme);
	if (theme_load(t->cfg.theme, &t->theme, &errs, path, sizeof(path)) != 0) {
		sbuf_printf(&errs, "theme '%s' not found: using default\n", t->cfg.theme);
		theme_default(&t->theme);
	}

	/* what to show */
	if (replay) {
		const char *rr;
		struct stat st;

		r = tui_replay_open(t, replay, &cause);
		if (r) {
			if (cause) /* names the file: "FILE: not a regular file" */
				fprintf(stderr, "tunetop: --replay %s\n", cause);
			else
				fprintf(stderr, "tunetop: --replay %s: %s\n", replay, strerror(-r));
			free(cause);
			free(t);
			return 1;
		}
		/* explain resolves files on the recorded root while it exists */
		rr = tui_replay_root(t);
		t->root_path =
			rr && rr[0] && stat(rr, &st) == 0 && S_ISDIR(st.st_mode) ? rr : o->root;
	} else if (demo) {
		char bundle[512], err[256];

		if (sim_find_bundle(bundle, sizeof(bundle)) != 0) {
			fprintf(stderr,
				"tunetop: --demo: the demo board (rk3588-demo.tar) is not "
				"installed "
				"(looked next to the program and in %s/demo)\n",
				TT_PKGDATADIR);
			free(t);
			return 1;
		}
		if (sim_open(&t->sim, bundle, err, sizeof(err)) != 0) {
			fprintf(stderr, "tunetop: --demo: %s\n", err);
			free(t);
			return 1;
		}
		sim_step(t->sim, 1.0);
		t->root_path = sim_root(t->sim);
	} else {
		t->root_path = o->root;
	}
	state_dir = o->state_dir ? o->state_dir : t->sim ? sim_state_dir(t->sim) : NULL;
	r = sysroot_open(&t->root, t->root_path);
	if (r) {
		fprintf(stderr, "tunetop: %s: %s\n", t->root_path, strerror(-r));
		sim_close(t->sim);
		tui_replay_close(t);
		free(t);
		return 1;
	}
	if (t->replay) {
		/* nothing is written during a replay: no knob engine at all */
		t->readonly = true;
		snprintf(t->ro_why, sizeof(t->ro_why),
			 "REPLAY of %s: a recording is read-only, knob actions are refused",
			 t->replay->path);
		goto screens;
	}

	/* Without root nothing can be written: say so before anything else. */
	if (geteuid() != 0) {
		if (t->root.live)
			snprintf(t->ro_why, sizeof(t->ro_why),
				 "not root (run with sudo to change knobs)");
		else if (access(t->root_path, W_OK) != 0)
			snprintf(t->ro_why, sizeof(t->ro_why), "not root: %s is not writable",
				 t->root_path);
		t->readonly = t->ro_why[0] != '\0';
	}
	/* the knob engine: writer lock held for the whole session */
	r = knob_ctx_open(&t->knob, &t->root, state_dir, KNOB_READONLY_OK | KNOB_HOLD_LOCK, &cause);
	if (r) {
		if (!t->readonly)
			snprintf(t->ro_why, sizeof(t->ro_why), "%s", cause ? cause : err_name(r));
		t->knob = NULL;
		t->readonly = true;
	} else {
		const char *why = NULL;

		if (knob_ctx_readonly(t->knob, &why) && !t->readonly) {
			t->readonly = true;
			snprintf(t->ro_why, sizeof(t->ro_why), "%s",
				 why ? why : "journal not writable");
		}
	}
	free(cause);
	cause = NULL;

	sampler_init(&t->sampler, &t->root, TUI_SNAP_BASE);
	t->sampler_on = true;
	/* --clocks, else tunetoprc clocks= (checked when read), else the default. */
	if (o->clocks) {
		t->sampler.clk_names = o->clocks;
	} else if (t->cfg.clocks[0]) {
		char why[160];

		if (devfreq_clk_list_parse(t->cfg.clocks, &t->cfg_clocks, why, sizeof(why)) == 0)
			t->sampler.clk_names = (const char *const *)t->cfg_clocks;
		else
			sbuf_printf(&errs, "clocks: %s: using the default list\n", why);
	}
	if (record && tui_record_open(t, record, state_dir, &cause) != 0) {
		fprintf(stderr, "tunetop: --record: %s\n",
			cause ? cause : "cannot create the file");
		free(cause);
		cause = NULL;
		rc = 1;
		goto out;
	}

screens:
	/* screens */
	for (size_t i = 0; i < NSCREEN_TABLE && i < TUI_MAX_SCREENS; i++)
		t->screens[t->nscreens++].ops = screen_table[i];
	t->cur = 0;
	if (screen || t->cfg.start_screen[0]) {
		int i = find_screen(t, screen ? screen : t->cfg.start_screen);

		if (i >= 0)
			t->cur = i;
		else if (screen)
			sbuf_printf(&errs, "no screen '%s'\n", screen);
	}
	if (errs.len) {
		char first[200];

		str_copy(t->notes, sizeof(t->notes), errs.s);
		tui_first_line(errs.s, first, sizeof(first));
		tui_status(t, true, "Settings: %s%s", first,
			   strchr(errs.s, '\n') && strchr(errs.s, '\n')[1] ? " (all in F2 Setup)"
									   : "");
	}

	/* signals: installed before newterm() so that ncurses keeps ours */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGSEGV, on_crash);
	signal(SIGBUS, on_crash);
	signal(SIGFPE, on_crash);
	signal(SIGABRT, on_crash);

	setlocale(LC_ALL, "");
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr,
			"tunetop: the interactive monitor needs a terminal; for scripts use "
			"'tunetop snapshot' or 'tunetop watch'\n");
		rc = 1;
		goto out;
	}
	tui_term = newterm(NULL, stdout, stdin);
	if (!tui_term) {
		fprintf(stderr,
			"tunetop: terminal '%s' is not usable (set TERM), or use 'tunetop "
			"snapshot'\n",
			getenv("TERM") ? getenv("TERM") : "");
		rc = 1;
		goto out;
	}
	set_term(tui_term);
	curses_on = true;
	tt_set_fatal_hook(fatal_hook);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	intrflush(stdscr, FALSE);
	curs_set(0);
	set_escdelay(25);
	if (has_colors() && !t->no_color) {
		start_color();
		use_default_colors();
	}
	tui_apply_theme(t);
	if (t->cfg.mouse) {
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED,
			  NULL);
		mouseinterval(0);
	}

	tui_reload_journal(t);
	tui_tick(t);
	tui_draw(t);
	offer_orphans(t);

	{
		int fast_err = 0;

		for (;;) {
			uint64_t now, t0;
			int wait_ms, ch, res, bg_ms;

			if (tui_signal_pending)
				break;
			/* the probe's live view and a running A/B */
			res = latency_background(t, false, &bg_ms);
			if (res & HR_RESCAN) {
				tui_reload_journal(t);
				t->tick_all = true;
				tui_tick(t);
			}
			if (res & (HR_RESCAN | HR_REDRAW))
				tui_draw(t);
			now = time_mono_ns();
			if (now >= t->next_tick_ns) {
				if (t->replay)
					tui_replay_timer(t);
				else
					tui_tick(t);
				if (t->status[0] && now >= t->status_until_ns)
					t->status[0] = '\0';
				tui_draw(t);
				continue;
			}
			wait_ms = (int)((t->next_tick_ns - now + 999999) / 1000000);
			if (t->status[0] && t->status_until_ns > now &&
			    (int)((t->status_until_ns - now) / 1000000) + 1 < wait_ms)
				wait_ms = (int)((t->status_until_ns - now) / 1000000) + 1;
			if (bg_ms >= 0 && bg_ms < wait_ms)
				wait_ms = bg_ms;
			timeout(wait_ms);
			t0 = now;
			ch = getch();
			if (tui_signal_pending)
				break;
			if (ch == ERR) {
				/* a dead terminal returns at once, forever: do not spin */
				if (time_mono_ns() - t0 < 1000000ULL * (uint64_t)wait_ms / 4) {
					if (++fast_err > 100)
						break;
				} else {
					fast_err = 0;
				}
				if (t->status[0] && time_mono_ns() >= t->status_until_ns)
					tui_draw(t);
				continue;
			}
			fast_err = 0;
			res = handle_key(t, ch);
			if (tui_signal_pending)
				break;
			if (res & HR_QUIT) {
				/* a running A/B is cancelled first (asked), so the
				 * quit dialog counts only the user's own changes */
				if (latency_quit(t)) {
					tui_reload_journal(t);
					if (quit_dialog(t))
						break;
				}
				res |= HR_REDRAW;
			}
			if (res & HR_RESCAN) {
				t->tick_all = true;
				tui_tick(t);
			} else if (res & HR_REDRAW) {
				struct screen *s = &t->screens[t->cur];

				if (s->ops->build)
					s->ops->build(t, s);
			}
			if (res & (HR_REDRAW | HR_RESCAN) || ch == KEY_RESIZE)
				tui_draw(t);
		}
	}
	if (tui_signal_pending && tui_signal_pending != SIGINT)
		sbuf_printf(&exitmsg, "tunetop: %s\n", strsignal(tui_signal_pending));

out:
	if (curses_on) {
		endwin();
		curses_on = false;
	}
	if (tui_term) {
		delscreen(tui_term);
		tui_term = NULL;
	}
	latency_shutdown(t, &exitmsg); /* before the session's own restore */
	if (t->knob)
		tui_reload_journal(t);
	restore_on_exit(t, &exitmsg);
	tui_record_close(t, &exitmsg); /* after the restore, so that it is recorded too */
	if (exitmsg.len)
		fputs(exitmsg.s, stderr);
	for (int i = 0; i < t->nscreens; i++)
		if (t->screens[i].ops->free)
			t->screens[i].ops->free(&t->screens[i]);
	tui_counters_free(t);
	if (t->sampler_on)
		sampler_free(&t->sampler);
	devfreq_clk_list_free(t->cfg_clocks);
	knob_effect_free(t->eff_watch);
	t->eff_watch = NULL;
	if (t->knob)
		knob_ctx_close(t->knob);
	sysroot_close(&t->root);
	sim_close(t->sim);
	tui_replay_close(t);
	findings_free(&t->findings);
	free(t->changes);
	sbuf_free(&errs);
	sbuf_free(&exitmsg);
	free(t);
	return rc;
}
