/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The interactive terminal UI: `tunetop` with no command. This file owns
 * the session's life (tui_main: setup, curses, the event loop, teardown),
 * the screen table, signal handling and the sampling tick: sample on the
 * refresh tick, redraw only on a tick or a key, block in getch() otherwise.
 * The rest of the TUI's own code: tui_setup.c (command line, settings,
 * root, knob engine, sampler), tui_knob.c (the glue to the knob engine:
 * every change goes through knob_set_many(), restore on exit unless --keep
 * or the user chose "keep"), tui_frame.c (header, tabs, status line, key
 * bar) and tui_keys.c (the global keys and the dialogs). */
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
#include "ui/tui_int.h"
#include "ui/tui_main.h"

/* The screens' ops, from their rows in screens.def. */
#define SCREEN_HOOK_Y(fn)     fn
#define SCREEN_HOOK_N(fn)     NULL
#define SCREEN_FOCUS_OWN(fn)  fn
#define SCREEN_FOCUS_NONE(fn) tui_focus_none
#define SCREEN_FOCUS_ALL(fn)  NULL
#define SCREEN(id_, label, fkey_, hotkey_, needs_, counters_, explain_, free_, focus_)             \
	const struct screen_ops screen_##id_ = {                                                   \
		.id = #id_,                                                                        \
		.name = label,                                                                     \
		.fkey = fkey_,                                                                     \
		.hotkey = hotkey_,                                                                 \
		.needs = needs_,                                                                   \
		.build = screen_##id_##_build,                                                     \
		.draw = screen_##id_##_draw,                                                       \
		.key = screen_##id_##_key,                                                         \
		.explain = SCREEN_HOOK_##explain_(screen_##id_##_explain),                         \
		.free = SCREEN_HOOK_##free_(screen_##id_##_free),                                  \
		.counters = counters_,                                                             \
		.focus = SCREEN_FOCUS_##focus_(screen_##id_##_focus),                              \
	};
#include "ui/screens.def"
#undef SCREEN

static const struct screen_ops *const screen_table[] = {
#define SCREEN(id, ...) &screen_##id,
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

void tui_focus_none(struct screen_ctx *sc, struct screen *s, struct cpumask *cpus)
{
	struct tui *t = tui_of(sc);

	(void)t;
	(void)s;
	cpumask_zero(cpus);
}

/* What the sampler reads at every tick: the idle states the current screen
 * shows (a recording holds every CPU). */
static void tui_focus(struct tui *t)
{
	struct screen *s = &t->sc.screens[t->sc.cur];
	struct cpumask m;

	if (t->rec || t->sc.tick_all || !s->ops->focus) {
		t->sc.tick_all = false;
		sampler_focus(&t->sc.sampler, NULL);
		return;
	}
	cpumask_zero(&m);
	s->ops->focus(&t->sc, s, &m);
	sampler_focus(&t->sc.sampler, &m);
}

/* ---- sampling ----------------------------------------------------------------- */

void tui_tick(struct tui *t)
{
	uint64_t now = time_mono_ns();
	int e;

	t->sc.want_tick = false;
	if (t->sc.replay) {
		/* a replay shows the recorded sample; only the timer moves it */
		struct screen *s = &t->sc.screens[t->sc.cur];

		if (!t->sc.replay->have_cur)
			tui_replay_timer(t); /* the first: shown, and the clock started */
		else if (s->ops->build)
			s->ops->build(&t->sc, s);
		return;
	}
	if (t->sc.sim && t->sc.last_tick_ns)
		tui_demo_step(t, (double)(now - t->sc.last_tick_ns) / 1e9);
	/* a recording holds everything, so that every screen replays */
	t->sc.sampler.what =
		t->rec ? SNAP_ALL : tui_snap_base(t) | t->sc.screens[t->sc.cur].ops->needs;
	tui_focus(t);
	e = sampler_tick(&t->sc.sampler);
	if (e && !t->status[0])
		tui_status(&t->sc, true, "sampling: %s", err_name(e));
	t->sc.snap = sampler_cur(&t->sc.sampler);
	t->sc.prev = sampler_prev(&t->sc.sampler);
	t->sc.last_tick_ns = now;
	t->next_tick_ns = now + (uint64_t)t->sc.delay_tenths * 100000000ULL;
	/* rates need two samples: take the second one soon after the start */
	if (t->sc.sampler.count == 1 && t->sc.delay_tenths > 3)
		t->next_tick_ns = now + 300000000ULL;
	t->sc.self_cpu_ms = (double)t->sc.sampler.last_cost_ns / 1e6;
	self_cost_update(&t->sc.self_cost, now);
	tui_effect_poll(t, now);
	tui_hold_poll(t, now);
	tui_counters_tick(t);
	tui_findings_eval(t, tui_threads_recent(&t->sc, THREAD_SAMPLER_FRESH_NS, false),
			  latency_probe_findings);
	tui_record_sample(t);
	if (t->rec && !t->rec_failed && t->sc.snap)
		latency_record(t);
	for (int i = 0; i < t->sc.nscreens; i++)
		if (t->sc.screens[i].ops->build)
			t->sc.screens[i].ops->build(&t->sc, &t->sc.screens[i]);
}

/* The hooks' redraw (a dialog's background) and the loop's: a sample first
 * when a screen asked for one (t->sc.want_tick). */
static void redraw(struct screen_ctx *sc)
{
	struct tui *t = tui_of(sc);

	if (t->sc.want_tick)
		tui_tick(t);
	tui_draw(&t->sc);
}

/* ---- main ------------------------------------------------------------------------ */

/* The screen table, the first screen, and the settings' complaints on the
 * status line. */
static void open_screens(struct tui *t, const char *screen, struct sbuf *errs)
{
	for (size_t i = 0; i < NSCREEN_TABLE && i < TUI_MAX_SCREENS; i++)
		t->sc.screens[t->sc.nscreens++].ops = screen_table[i];
	t->sc.cur = 0;
	if (screen || t->sc.cfg.start_screen[0]) {
		int i = tui_find_screen(t, screen ? screen : t->sc.cfg.start_screen);

		if (i >= 0)
			t->sc.cur = i;
		else if (screen)
			sbuf_printf(errs, "no screen '%s'\n", screen);
	}
	if (errs->len) {
		char first[200];

		str_copy(t->sc.notes, sizeof(t->sc.notes), errs->s);
		tui_first_line(errs->s, first, sizeof(first));
		tui_status(&t->sc, true, "Settings: %s%s", first,
			   strchr(errs->s, '\n') && strchr(errs->s, '\n')[1] ? " (all in F2 Setup)"
									     : "");
	}
}

/* Signals (before newterm(), so that ncurses keeps ours), then curses. 0,
 * or 1 after saying why on stderr. */
static bool can_address(void)
{
	const char *cup = tigetstr("cup");

	return cup && cup != (const char *)-1;
}

static int start_curses(struct tui *t)
{
	struct sigaction sa;
	const char *term;

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
		return 1;
	}
	term = getenv("TERM");
	if (term && !strcmp(term, "dumb")) {
		fprintf(stderr, "tunetop: TERM=dumb cannot draw the monitor (no cursor "
				"movement); set TERM to your terminal's type, or use 'tunetop "
				"watch' or 'tunetop snapshot' for text\n");
		return 1;
	}
	tui_term = newterm(NULL, stdout, stdin);
	if (tui_term && !can_address()) {
		endwin();
		delscreen(tui_term);
		tui_term = NULL;
		fprintf(stderr,
			"tunetop: terminal '%s' cannot move the cursor; set TERM to "
			"your terminal's type, or use 'tunetop watch' or 'tunetop "
			"snapshot' for text\n",
			term ? term : "");
		return 1;
	}
	if (!tui_term) {
		fprintf(stderr,
			"tunetop: terminal '%s' is not usable (set TERM), or use 'tunetop "
			"snapshot'\n",
			getenv("TERM") ? getenv("TERM") : "");
		return 1;
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
	tui_apply_theme(&t->sc);
	if (t->sc.cfg.mouse) {
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED,
			  NULL);
		mouseinterval(0);
	}

	return 0;
}

/* Sample on the refresh tick, redraw on a tick or a key, block in getch()
 * otherwise; a probe or an A/B running in the background sets its own
 * wake-ups. Returns when the user quits or a signal came. */
static void event_loop(struct tui *t)
{
	int fast_err = 0;

	for (;;) {
		uint64_t now, t0;
		int wait_ms, ch, res, bg_ms;

		if (tui_signal_pending)
			break;
		/* the probe's live view and a running A/B */
		res = latency_background(&t->sc, false, &bg_ms);
		if (res & HR_RESCAN) {
			tui_reload_journal(&t->sc);
			t->sc.tick_all = true;
			tui_tick(t);
		}
		if (res & (HR_RESCAN | HR_REDRAW))
			redraw(&t->sc);
		now = time_mono_ns();
		if (now >= t->next_tick_ns) {
			if (t->sc.replay)
				tui_replay_timer(t);
			else
				tui_tick(t);
			if (t->status[0] && now >= t->status_until_ns)
				t->status[0] = '\0';
			redraw(&t->sc);
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
				redraw(&t->sc);
			continue;
		}
		fast_err = 0;
		tui_status_seen(t);
		res = tui_handle_key(t, ch);
		if (tui_signal_pending)
			break;
		if (res & HR_QUIT) {
			/* a running A/B is cancelled first (asked), so the
			 * quit dialog counts only the user's own changes */
			if (latency_quit(t)) {
				tui_reload_journal(&t->sc);
				if (tui_quit_dialog(t))
					break;
			}
			res |= HR_REDRAW;
		}
		if (res & HR_RESCAN) {
			t->sc.tick_all = true;
			tui_tick(t);
		} else if (t->sc.want_tick) {
			tui_tick(t); /* the screen shown reads a source the last sample did not */
		} else if (res & HR_REDRAW) {
			struct screen *s = &t->sc.screens[t->sc.cur];

			if (s->ops->build)
				s->ops->build(&t->sc, s);
		}
		if (res & (HR_REDRAW | HR_RESCAN) || ch == KEY_RESIZE)
			redraw(&t->sc);
	}
}

/* Curses off, then the session's changes restored (or kept), the recording
 * closed, and everything freed, t included. */
static void close_session(struct tui *t, struct sbuf *exitmsg)
{
	if (curses_on) {
		endwin();
		curses_on = false;
	}
	if (tui_term) {
		delscreen(tui_term);
		tui_term = NULL;
	}
	latency_shutdown(t, exitmsg); /* before the session's own restore */
	if (t->sc.knob)
		tui_reload_journal(&t->sc);
	tui_restore_on_exit(t, exitmsg);
	tui_record_close(t, exitmsg); /* after the restore, so that it is recorded too */
	if (exitmsg->len)
		fputs(exitmsg->s, stderr);
	for (int i = 0; i < t->sc.nscreens; i++)
		if (t->sc.screens[i].ops->free)
			t->sc.screens[i].ops->free(&t->sc.screens[i]);
	tui_counters_free(t);
	if (t->sampler_on)
		sampler_free(&t->sc.sampler);
	else
		thread_sampler_free(&t->sc.sampler.threads);
	devfreq_clk_list_free(t->cfg_clocks);
	knob_effect_free(t->eff_watch);
	knob_hold_free(t->sc.hold);
	t->eff_watch = NULL;
	if (t->sc.knob)
		knob_ctx_close(t->sc.knob);
	sysroot_close(&t->sc.root);
	tui_demo_close(t);
	tui_replay_close(t);
	findings_free(&t->sc.findings);
	free(t->sc.changes);
	free(t);
}

int tui_main(const struct tt_opts *o, int argc, char **argv)
{
	struct tui *t = xcalloc(1, sizeof(*t));
	bool demo = false;
	const char *theme = NULL, *screen = NULL, *nc = getenv("NO_COLOR"), *state_dir;
	const char *record = NULL, *replay = NULL;
	int delay = 0, r, rc = 0;
	struct sbuf errs, exitmsg;

	t->opts = o;
	r = tui_parse_args(t, argc, argv, &demo, &theme, &screen, &delay, &record, &replay);
	if (r >= 0) {
		free(t);
		return r;
	}
	t->sc.hooks.idle = latency_background;
	t->sc.hooks.redraw = redraw;
	t->sc.hooks.busy_mark = latency_header;
	t->sc.hooks.replay_mark = tui_replay_header;
	if (demo && !sim_built()) {
		fprintf(stderr, "tunetop: " SIM_NOT_BUILT "\n");
		free(t);
		return 2;
	}
	if (nc && *nc)
		t->no_color = true;
	sbuf_init(&errs);
	sbuf_init(&exitmsg);
	tui_settings_load(t, theme, delay, &errs);
	if (tui_self_place(t, &errs) != 0) {
		sbuf_free(&errs);
		free(t);
		return 2;
	}
	if (tui_open_root(t, o, demo, replay) != 0) {
		tui_demo_close(t);
		tui_replay_close(t);
		sbuf_free(&errs);
		free(t);
		return 1;
	}
	state_dir = o->state_dir			     ? o->state_dir
		    : t->sc.sim && *sim_state_dir(t->sc.sim) ? sim_state_dir(t->sc.sim)
							     : NULL;
	if (t->sc.replay) {
		/* nothing is written during a replay: no knob engine at all */
		t->readonly = true;
		snprintf(t->sc.ro_why, sizeof(t->sc.ro_why),
			 "REPLAY of %s: a recording is read-only, knob actions are refused",
			 t->sc.replay->path);
	} else {
		tui_open_engine(t, state_dir);
		rc = tui_open_sampler(t, o, record, state_dir, &errs);
	}
	if (!rc) {
		open_screens(t, screen, &errs);
		rc = start_curses(t);
	}
	if (!rc) {
		tui_reload_journal(&t->sc);
		tui_tick(t);
		tui_draw(&t->sc);
		tui_offer_orphans(t);
		event_loop(t);
		if (tui_signal_pending && tui_signal_pending != SIGINT)
			sbuf_printf(&exitmsg, "tunetop: %s\n", strsignal(tui_signal_pending));
	}
	close_session(t, &exitmsg);
	sbuf_free(&errs);
	sbuf_free(&exitmsg);
	return rc;
}
