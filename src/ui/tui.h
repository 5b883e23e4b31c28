/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal interface of the terminal UI (src/ui/ only), as screens see
 * it: the screen context (struct screen_ctx; the session around it,
 * struct tui, is private to ui/tui_int.h), the screen ops table, the
 * widgets and the actions a screen may call. Screens are const ops
 * structs listed in one table (tui.c: screens[]); adding a screen is adding
 * one struct and one line there. Key and mouse handlers return a bit set of
 * HR_* telling the main loop what to do (htop's HandlerResult). */
#ifndef TT_UI_TUI_H
#define TT_UI_TUI_H

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "cmd/cmd.h"
#include "knob/hold.h"
#include "knob/knob.h"
#include "model/findings.h"
#include "model/selfplace.h"
#include "model/snapshot.h"
#include "ui/config.h"
#include "ui/theme.h"

struct sim;
struct world;
struct latency;
struct replay;
struct recorder;
struct thread_table;

/* Handler results (bit set). */
enum {
	HR_IGNORED = 0,
	HR_HANDLED = 1, /* the key was used */
	HR_REDRAW = 2,	/* draw again */
	HR_RESCAN = 4,	/* sample again now (a knob changed) */
	HR_QUIT = 8,	/* leave (the quit dialog decides restore / keep) */
};

struct screen_ctx;
struct screen;

/* Something the selected row can explain (src/model/explain.h): a knob
 * address or a metric name, and a label for the chooser. */
struct explain_item {
	char key[KNOB_ADDR_MAX];
	char label[64];
};
#define TUI_MAX_EXPLAIN 10

struct screen_ops {
	const char *id;	  /* "cores": config start_screen, --screen, tests */
	const char *name; /* tab label: "Cores" */
	int fkey;	  /* KEY_F(n) that jumps here, 0 none */
	int hotkey;	  /* a global key that jumps here and labels the tab ('!'), 0 none */
	unsigned needs;	  /* SNAP_* sources this screen reads (besides the header's) */
	/* Rebuild the row list from the current snapshot (after each sample or
	 * action); sets s->nrows. May be NULL (static screens). */
	void (*build)(struct screen_ctx *t, struct screen *s);
	/* Draw the column heading (one line at y) and rows [s->top, ...) into
	 * lines y+1 .. y+h-1. */
	void (*draw)(struct screen_ctx *t, struct screen *s, int y, int h);
	/* Screen keys, before the global ones: called only with the keys
	 * src/ui/keys.def lists for this screen's id (which also give its
	 * key-bar hints and Help lines). */
	int (*key)(struct screen_ctx *t, struct screen *s, int ch);
	/* What the selected row can explain ('e' / Enter); returns the count. */
	int (*explain)(struct screen_ctx *t, struct screen *s, struct explain_item *items, int max);
	void (*free)(struct screen *s);
	/* perf counters this screen shows (TUI_CTR_*): opened while it is the
	 * current screen, closed at the first tick after it is left (counters.c). */
	unsigned counters;
	/* The CPUs whose idle states and resume latency this screen shows
	 * now (sampler_focus): they are read at every tick, the others in
	 * turn. NULL: every CPU (screens that show or judge them all). */
	void (*focus)(struct screen_ctx *t, struct screen *s, struct cpumask *cpus);
};

enum {
	TUI_CTR_CPU = 1,    /* the sampler's per-CPU counters (Cores) */
	TUI_CTR_THREAD = 2, /* the selected thread's counters (Threads) */
};

struct screen {
	const struct screen_ops *ops;
	int sel, top, nrows;
	int heading_lines; /* lines used above the rows (column heading, legend) */
	void *priv;
};

#define TUI_MAX_SCREENS 16
#define TUI_STATUS_LEN	256

/* --replay FILE: the TUI draws a recording (model/replay.h) instead of
 * sampling; everything is read-only. */
struct tui_replay {
	struct replay *r;
	char path[512];
	size_t n;   /* samples in the file */
	size_t idx; /* the sample shown */
	bool paused;
	int speed; /* index into the speed table of tui.c */
	struct snapshot cur, prev;
	bool have_cur, have_prev;
	uint64_t t0_ns;	 /* time of the first sample */
	char board[128]; /* "RK3588" when the recording is of the simulated board */
	double interval_ms;
};

/* A value this root has changed (an ACTIVE journal entry). */
struct tui_change {
	char addr[KNOB_ADDR_MAX];
	uint64_t txn; /* newest transaction that set it (for knob_undo_id) */
	char old[64], new_value[64];
	bool ours; /* made by this run */
	/* did the kernel obey it? (the newest E record; watched: one exists) */
	enum knob_effect effect;
	bool watched;
	char effect_evidence[200];
};

/* What a screen is given (issue 33): the sample and the model's data, the
 * look, the geometry, which screen is shown, and the actions it may call
 * (the functions below that take a struct screen_ctx: tui_set(),
 * tui_status(), the widgets, ...). It is the first part of the session
 * (struct tui, ui/tui_int.h), which screens never see: the loop, the
 * frame, the timers, the recorder and the status line stay private. */
struct screen_ctx {
	/* the sample: current / previous (may be NULL), the findings over it
	 * (replay: as recorded), most severe first */
	const struct snapshot *snap, *prev;
	struct finding_list findings;
	/* the model: the root shown, the demo board, the sampler (thread
	 * table, clock list), the knob engine and its journal */
	struct sysroot root;
	struct sim *sim;
	struct world *world; /* --demo=NAME: the world that owns sim */
	struct sampler sampler;
	uint64_t last_tick_ns;
	/* The next tick reads every CPU (after a change of ours: an action on
	 * all CPUs must not leave the CPUs off screen stale for 16 ticks). */
	bool tick_all;
	bool want_tick; /* sample before the next draw (a screen needs a new source) */
	struct knob_ctx *knob;
	char ro_why[160]; /* why the session is read-only ("" when it is not) */
	bool keep;	  /* --keep: leave this run's changes on exit */
	/* this root's active changes (tui_changed()) */
	struct tui_change *changes;
	size_t nchanges;
	bool show_orig; /* 'o': show original values next to changed ones */
	bool dma_held;
	int dma_value_us;
	/* this run's active changes, read again every second (knob/hold.h);
	 * --hold (hold_given), else tunetoprc hold=: off, report, reassert */
	struct knob_hold *hold;
	enum knob_hold_mode hold_mode;
	bool hold_given;
	/* where tunetop's own threads run (src/model/selfplace.h) and its
	 * own cost, measured at each tick: context switches per second
	 * (every wake-up is one), CPU per refresh, resident memory */
	struct self_place self;
	struct self_cost self_cost;
	double self_cpu_ms;
	/* --replay FILE (NULL: live) */
	struct tui_replay *replay;
	struct latency *lat; /* the probe and A/B runs (latency_run.c) */
	/* look */
	struct ui_config cfg;
	char cfg_path[512];
	struct theme theme;
	attr_t attr[ROLE_COUNT];
	short pair[ROLE_COUNT];
	bool color; /* colours in use */
	int delay_tenths;
	char notes[TUI_STATUS_LEN]; /* config / theme problems, shown once */
	/* geometry and selection: the screens, the current one, the screen
	 * area between the tabs and the status line */
	struct screen screens[TUI_MAX_SCREENS];
	int nscreens, cur;
	int body_y, body_h;
	/* What the lower files call back, set by the loop (tui.c), so that
	 * widgets.c and tui_frame.c call nothing above them. */
	struct tui_hooks {
		/* background work (the probe, the A/B) while a dialog waits for
		 * a key: latency_background(t, true, wait_ms) */
		int (*idle)(struct screen_ctx *c, bool in_dialog, int *wait_ms);
		/* draw the frame and the current screen under a dialog */
		void (*redraw)(struct screen_ctx *c);
		/* the header's marks: a running probe / A/B, a replay's position;
		 * return the columns used */
		int (*busy_mark)(struct screen_ctx *c, int y, int x);
		int (*replay_mark)(struct screen_ctx *c, int y, int x);
	} hooks;
};

/* ---- tui_frame.c: the frame (header, tabs, status line, key bar) ---------------- */
void tui_status(struct screen_ctx *t, bool err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The status line's text now ("" none), and clearing it. */
const char *tui_status_text(const struct screen_ctx *t);
void tui_status_clear(struct screen_ctx *t);
/* The first line of s (NULL: empty) into out. */
void tui_first_line(const char *s, char *out, size_t cap);
void tui_draw(struct screen_ctx *t);
void tui_apply_theme(struct screen_ctx *t);
/* Switch to the screen with this id. */
void tui_show_screen(struct screen_ctx *t, const char *id);
/* Is addr changed (ACTIVE entry)? old receives the original value. */
const struct tui_change *tui_changed(const struct screen_ctx *t, const char *addr);
/* The most severe finding (FINDING_INFO when there is none). */
enum finding_sev tui_worst_finding(const struct screen_ctx *t);
enum role tui_sev_role(enum finding_sev s);

/* ---- tui_knob.c: every change through the knob engine ----------------------------- */
/* Apply "ADDRESS=VALUE" assignments as one transaction; on success the
 * status line shows the change, on refusal the reason. 0 or -errno. */
int tui_set(struct screen_ctx *t, const char *const *assign, size_t n, unsigned flags);
int tui_set1(struct screen_ctx *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Refusal reason when the knob engine cannot write at all (NULL = can). */
const char *tui_cannot_write(struct screen_ctx *t);
/* Whether it can now; if not, the reason goes on the status line
 * ("Refused: ..."). */
bool tui_may_write(struct screen_ctx *t);
void tui_reload_journal(struct screen_ctx *t);
int tui_undo_last(struct screen_ctx *t);

/* ---- counters.c: perf counters opened only while a screen shows them --------- */
/* The per-CPU set (NULL when not open); *pending while its first interval
 * runs. */
const struct perf_set *tui_cpu_counters(const struct screen_ctx *t, bool *pending);
/* Why per-CPU counters are not shown at all ("" when they are). */
const char *tui_cpu_counters_off(const struct screen_ctx *t);
/* Threads screen pane: lines it wants (0 when hidden or too small), then
 * draw it for the selected thread (tid 0: none) at y..y+h-1, following
 * the selection: the counters of the previous thread are closed and the new
 * one's opened; a thread that is gone (or whose tid was reused, start
 * time) has its counters closed. Read once per sample. */
int tui_thread_counters_lines(struct screen_ctx *t, int body_h);
void tui_thread_counters_draw(struct screen_ctx *t, int tid, uint64_t start_time, const char *comm,
			      int y, int h);
/* 'C' on the Threads screen: show / hide the pane (closing its counters). */
void tui_thread_counters_toggle(struct screen_ctx *t);

/* ---- widgets.c -------------------------------------------------------------- */
/* The signal that asked the TUI to stop (0: none), set by tui.c's handler;
 * the dialogs return when it is set. */
extern volatile sig_atomic_t tui_signal_pending;
/* The CPU-list dialog (Threads and IRQs screens): offer, the current mask and
 * the isolated CPUs shown; *scope_process (NULL: no W) toggled by W; the
 * chosen list in out. 0 chosen, -1 cancelled (or nothing to offer). Like
 * every dialog it waits for keys through t->hooks.idle, so a running A/B or
 * probe goes on meanwhile. */
int ui_cpu_dialog(struct screen_ctx *t, const char *title, const struct cpumask *offer,
		  const struct cpumask *cur, const struct cpumask *iso, bool *scope_process,
		  char *out, size_t cap);
attr_t ui_attr(const struct screen_ctx *t, enum role r);
/* Print clipped to width w at (y,x); returns columns used. */
int ui_put(struct screen_ctx *t, int y, int x, int w, enum role r, const char *s);
int ui_printf(struct screen_ctx *t, int y, int x, int w, enum role r, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Fill a line from x to x+w with spaces in role r. */
void ui_fill(struct screen_ctx *t, int y, int x, int w, enum role r);
/* A screen's column heading: line y across the terminal in ROLE_COLHEAD,
 * text s from column 0. */
void ui_colhead(struct screen_ctx *t, int y, const char *s);
/* A dialog frame h x w at (y, x), filled, with an optional title. */
void ui_box(struct screen_ctx *t, int y, int x, int h, int w, const char *title);
/* A dialog h lines high and w columns wide (narrowed to the terminal) in
 * the middle of the freshly drawn screen: draws its frame and title, sets
 * (*y, *x) to its corner and returns the width it got. */
int ui_dialog(struct screen_ctx *t, int h, int w, const char *title, int *y, int *x);
/* Scroll a list window of vis rows starting at *top so that row sel is in it. */
void ui_keep_visible(int *top, int sel, int vis);
/* The row a list-moving key (Up/k, Down/j wrapping around, Home, End,
 * PgUp, PgDn by vis rows) selects in a list of n rows, or -1 for any other key. */
int ui_dialog_list_key(int ch, int sel, int n, int vis);
/* Meter "[|||||     12.3%]": segments in percent with roles; text right-aligned inside. */
struct bar_seg {
	double pct;
	enum role role;
	char glyph;
};
void ui_bar(struct screen_ctx *t, int y, int x, int w, const struct bar_seg *seg, int nseg,
	    const char *text, enum role text_role);
/* Menu dialog: returns the chosen index, or -1 (Esc / q). sel = initial. */
int ui_menu(struct screen_ctx *t, const char *title, const char *const *items, int n, int sel,
	    const char *footer);
/* Buttons dialog: text (may contain \n), buttons; returns index or -1. */
int ui_choice(struct screen_ctx *t, const char *title, const char *text, const char *const *buttons,
	      int n, int dflt);
/* Line input: returns 0 with buf filled, -1 cancelled. */
int ui_input(struct screen_ctx *t, const char *title, const char *prompt, char *buf, size_t cap);
/* ui_input with a choice under the line: "WHAT [choice 0]  choice 1 ...",
 * Tab (Shift-Tab back) moves *sel among the n choices. */
int ui_input_choice(struct screen_ctx *t, const char *title, const char *prompt, char *buf,
		    size_t cap, const char *what, const char *const *choices, int n, int *sel);
/* The bottom key bar: the global hints around the key table's hints of
 * screen (a screen id, "replay"; NULL: none). */
void ui_draw_keybar(struct screen_ctx *t, int y, const char *screen);
/* Scrollable text window (Up/Down/PgUp/PgDn/Home/End; Esc, q or Enter closes). */
void ui_text(struct screen_ctx *t, const char *title, const char *text);
/* Add an explain item (returns the new count; ignores overflow). */
int ui_explain_add(struct explain_item *items, int n, int max, const char *label, const char *fmt,
		   ...) __attribute__((format(printf, 5, 6)));
/* Human frequency "408", "1.8G" for kHz / Hz values. */
void ui_fmt_khz(const struct screen_ctx *t, int64_t khz, char *buf, size_t cap);
void ui_fmt_hz(const struct screen_ctx *t, int64_t hz, char *buf, size_t cap);
/* A menu of the frequencies avail[0..n-1], in units of which per_mhz make a
 * MHz (1000: kHz, 1000000: Hz), cur marked "(now)" and selected: the index
 * chosen, -1 cancelled. */
int ui_pick_freq(struct screen_ctx *t, const char *title, const uint64_t *avail, size_t n,
		 int64_t per_mhz, int64_t cur);
/* Scroll the selection into view for h visible rows. */
void ui_scroll(struct screen *s, int h);
/* A list screen's rows under its heading_lines in h lines from y: scrolled
 * into view, then row(t, s, index, its y, selected?, arg) for each row shown;
 * returns the lines for rows (h - heading_lines). */
typedef void ui_row_fn(struct screen_ctx *t, struct screen *s, int row, int y, bool sel,
		       const void *arg);
int ui_draw_rows(struct screen_ctx *t, struct screen *s, int y, int h, ui_row_fn *row,
		 const void *arg);
/* A screen's free for a priv that owns one array (NULL: none): both freed,
 * priv set to NULL. */
void ui_priv_free(struct screen *s, void *array);
/* Generic list keys (Up/Down/PgUp/PgDn/Home/End); HR bits. */
int ui_list_key(struct screen *s, int ch, int h);

/* ---- screen_latency.c: the probe and the A/B, which outlive the screen ------- */
/* The Why-late capture's own footprint in one line (events/s read, lost);
 * false when it is not on (latency_why.c). */
bool latency_why_footprint(const struct screen_ctx *t, char *buf, size_t cap);

/* ---- playback.c: --record, --replay, findings -------------------------------- */
struct replay_event;
/* Had the recorded event happened at the shown sample? */
bool tui_replay_event_shown(const struct screen_ctx *t, const struct replay_event *e);

/* ---- tui_setup.c: the model's thread table (t->sampler.threads) -------------- */
/* The live thread table when one was read at most max_age_ns ago (0: any
 * age; read it now when refresh and a second old); NULL on a replay, a
 * non-live root or when none is recent. */
const struct thread_table *tui_threads_recent(struct screen_ctx *t, uint64_t max_age_ns,
					      bool refresh);

/* ---- screens ----------------------------------------------------------------
 * Each screen is one row of src/ui/screens.def (tab order), which tui.c
 * makes into its const struct screen_ops screen_ID; the functions it names
 * are in src/ui/screen_ID.c (the optional ones only where the row says Y). */
#define SCREEN(id, label, fkey, hotkey, needs, counters, explain, free, focus)                     \
	extern const struct screen_ops screen_##id;                                                \
	void screen_##id##_build(struct screen_ctx *t, struct screen *s);                          \
	void screen_##id##_draw(struct screen_ctx *t, struct screen *s, int y, int h);             \
	int screen_##id##_key(struct screen_ctx *t, struct screen *s, int ch);                     \
	int screen_##id##_explain(struct screen_ctx *t, struct screen *s,                          \
				  struct explain_item *items, int max);                            \
	void screen_##id##_free(struct screen *s);                                                 \
	void screen_##id##_focus(struct screen_ctx *t, struct screen *s, struct cpumask *cpus);
#include "ui/screens.def"
#undef SCREEN

/* screen_ops.focus of the screens that show no per-CPU idle data. */
void tui_focus_none(struct screen_ctx *t, struct screen *s, struct cpumask *cpus);

#endif
