/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal interface of the terminal UI (src/ui/ only): the application
 * state, the screen ops table and the widgets. Screens are const ops
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

struct tui;
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
	void (*build)(struct tui *t, struct screen *s);
	/* Draw the column heading (one line at y) and rows [s->top, ...) into
	 * lines y+1 .. y+h-1. */
	void (*draw)(struct tui *t, struct screen *s, int y, int h);
	/* Screen keys, before the global ones: called only with the keys
	 * src/ui/keys.def lists for this screen's id (which also give its
	 * key-bar hints and Help lines). */
	int (*key)(struct tui *t, struct screen *s, int ch);
	/* What the selected row can explain ('e' / Enter); returns the count. */
	int (*explain)(struct tui *t, struct screen *s, struct explain_item *items, int max);
	void (*free)(struct screen *s);
	/* perf counters this screen shows (TUI_CTR_*): opened while it is the
	 * current screen, closed at the first tick after it is left (counters.c). */
	unsigned counters;
	/* The CPUs whose idle states and resume latency this screen shows
	 * now (sampler_focus): they are read at every tick, the others in
	 * turn. NULL: every CPU (screens that show or judge them all). */
	void (*focus)(struct tui *t, struct screen *s, struct cpumask *cpus);
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

struct tui {
	/* where tunetop's own threads run (src/model/selfplace.h) */
	struct self_place self;
	/* its own cost, measured at each tick: context switches per second
	 * (every wake-up is one), CPU per refresh, resident memory */
	struct self_cost self_cost; /* its wake-ups, preemptions and RSS */
	double self_cpu_ms;	    /* the sampler's CPU time, last refresh */
	const struct tt_opts *opts;
	/* the effect of the last change made here, judged at the first tick
	 * after eff_due_ns (knob_effect_*) */
	struct knob_effect_watch *eff_watch;
	uint64_t eff_due_ns;
	/* this run's active changes, read again every second (knob/hold.h) */
	struct knob_hold *hold;
	uint64_t hold_due_ns;
	/* --hold (hold_given), else tunetoprc hold=: off, report, reassert */
	enum knob_hold_mode hold_mode;
	bool hold_given;
	/* what is shown */
	const char *root_path; /* "/" live, a fixture root, or the simulator's temp root */
	struct sysroot root;
	struct sim *sim;
	struct world *world;	/* --demo=NAME: the world that owns sim */
	const char *world_name; /* --demo=NAME */
	bool world_list;	/* --demo --list */
	char **cfg_clocks;	/* tunetoprc clocks= parsed (NULL: --clocks or the default) */
	struct sampler sampler;
	bool sampler_on;
	/* The next tick reads every CPU (after a change of ours: an action on
	 * all CPUs must not leave the CPUs off screen stale for 16 ticks). */
	bool tick_all;
	const struct snapshot *snap, *prev; /* current / previous sample (may be NULL) */
	uint64_t last_tick_ns, next_tick_ns;
	/* changes */
	struct knob_ctx *knob;
	bool readonly;
	char ro_why[160];
	bool keep; /* --keep: leave this run's changes on exit */
	struct tui_change *changes;
	size_t nchanges, nours;
	size_t norphans; /* open entries of dead instances on this root */
	bool show_orig;	 /* 'o': show original values next to changed ones */
	bool dma_held;
	int dma_value_us;
	/* look */
	struct ui_config cfg;
	char cfg_path[512];
	struct theme theme;
	attr_t attr[ROLE_COUNT];
	short pair[ROLE_COUNT];
	bool color;    /* colours in use */
	bool no_color; /* --no-color / NO_COLOR */
	int delay_tenths;
	/* screens */
	struct screen screens[TUI_MAX_SCREENS];
	int nscreens, cur;
	int body_y, body_h;		 /* screen area between the tabs and the status line */
	int tabs_x[TUI_MAX_SCREENS + 1]; /* tab start columns, for clicks */
	/* findings over the current sample (replay: as recorded), most severe first */
	struct finding_list findings;
	/* --record FILE / --replay FILE */
	struct recorder *rec;
	char rec_path[512];
	int rec_format; /* enum record_format of --record-format (0: auto) */
	bool rec_failed;
	struct tui_replay *replay;
	/* status line */
	char status[TUI_STATUS_LEN];
	bool status_err;
	uint64_t status_until_ns;
	bool status_sticky;	    /* a hold report: shown until the next key */
	char notes[TUI_STATUS_LEN]; /* config / theme problems, shown once */
	/* What the lower files call back, set by the loop (tui.c), so that
	 * widgets.c and tui_frame.c call nothing above them. */
	struct tui_hooks {
		/* background work (the probe, the A/B) while a dialog waits for
		 * a key: latency_background(t, true, wait_ms) */
		int (*idle)(struct tui *t, bool in_dialog, int *wait_ms);
		/* draw the frame and the current screen under a dialog */
		void (*redraw)(struct tui *t);
		/* the header's marks: a running probe / A/B, a replay's position;
		 * return the columns used */
		int (*busy_mark)(struct tui *t, int y, int x);
		int (*replay_mark)(struct tui *t, int y, int x);
	} hooks;
	bool want_tick;	      /* sample before the next draw (a screen needs a new source) */
	const char *busy_why; /* why knobs cannot change now (a running A/B), NULL: they can */
	struct tui_ctr *ctr;  /* perf counters state (counters.c) */
	struct latency *lat;  /* the probe and A/B runs (screen_latency.c) */
};

/* ---- tui_frame.c: the frame (header, tabs, status line, key bar) ---------------- */
void tui_status(struct tui *t, bool err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tui_status_seen(struct tui *t);
/* The first line of s (NULL: empty) into out. */
void tui_first_line(const char *s, char *out, size_t cap);
void tui_draw(struct tui *t);
void tui_apply_theme(struct tui *t);
/* Show screen i (as a number key does); the loop samples again first when
 * it reads a source the last sample did not (t->want_tick). */
void tui_switch_to(struct tui *t, int i);
/* Switch to the screen with this id. */
void tui_show_screen(struct tui *t, const char *id);
/* Is addr changed (ACTIVE entry)? old receives the original value. */
const struct tui_change *tui_changed(const struct tui *t, const char *addr);
/* Any change whose address starts with prefix. */
const struct tui_change *tui_changed_prefix(const struct tui *t, const char *prefix);
bool tui_is_demo(const struct tui *t);
/* Drawing a recording (--replay): read-only, no live data. */
bool tui_is_replay(const struct tui *t);
/* The most severe finding (FINDING_INFO when there is none). */
enum finding_sev tui_worst_finding(const struct tui *t);
enum role tui_sev_role(enum finding_sev s);

/* ---- tui_knob.c: every change through the knob engine ----------------------------- */
/* Apply "ADDRESS=VALUE" assignments as one transaction; on success the
 * status line shows the change, on refusal the reason. 0 or -errno. */
int tui_set(struct tui *t, const char *const *assign, size_t n, unsigned flags);
int tui_set1(struct tui *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Refusal reason when the knob engine cannot write at all (NULL = can). */
const char *tui_cannot_write(struct tui *t);
/* Whether it can now; if not, the reason goes on the status line
 * ("Refused: ..."). */
bool tui_may_write(struct tui *t);
void tui_reload_journal(struct tui *t);
int tui_undo_last(struct tui *t);
int tui_restore_all(struct tui *t, bool ask);

/* ---- counters.c: perf counters opened only while a screen shows them --------- */
/* After each sample: open / close the per-CPU counters as the current screen
 * and the settings want (cfg.col_counters, cfg.events), close the thread
 * counters when the current screen does not show them. */
void tui_counters_tick(struct tui *t);
/* The per-CPU set (NULL when not open); *pending while its first interval
 * runs. */
const struct perf_set *tui_cpu_counters(const struct tui *t, bool *pending);
/* Why per-CPU counters are not shown at all ("" when they are). */
const char *tui_cpu_counters_off(const struct tui *t);
/* Threads screen pane: lines it wants (0 when hidden or too small), then
 * draw it for the selected thread (tid 0: none) at y..y+h-1, following
 * the selection: the counters of the previous thread are closed and the new
 * one's opened; a thread that is gone (or whose tid was reused, start
 * time) has its counters closed. Read once per sample. */
int tui_thread_counters_lines(struct tui *t, int body_h);
void tui_thread_counters_draw(struct tui *t, int tid, uint64_t start_time, const char *comm, int y,
			      int h);
/* 'C' on the Threads screen: show / hide the pane (closing its counters). */
void tui_thread_counters_toggle(struct tui *t);
void tui_counters_free(struct tui *t);

/* ---- widgets.c -------------------------------------------------------------- */
/* The signal that asked the TUI to stop (0: none), set by tui.c's handler;
 * the dialogs return when it is set. */
extern volatile sig_atomic_t tui_signal_pending;
/* The CPU-list dialog (Threads and IRQs screens): offer, the current mask and
 * the isolated CPUs shown; *scope_process (NULL: no W) toggled by W; the
 * chosen list in out. 0 chosen, -1 cancelled (or nothing to offer). Like
 * every dialog it waits for keys through t->hooks.idle, so a running A/B or
 * probe goes on meanwhile. */
int ui_cpu_dialog(struct tui *t, const char *title, const struct cpumask *offer,
		  const struct cpumask *cur, const struct cpumask *iso, bool *scope_process,
		  char *out, size_t cap);
attr_t ui_attr(const struct tui *t, enum role r);
/* Print clipped to width w at (y,x); returns columns used. */
int ui_put(struct tui *t, int y, int x, int w, enum role r, const char *s);
int ui_printf(struct tui *t, int y, int x, int w, enum role r, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Fill a line from x to x+w with spaces in role r. */
void ui_fill(struct tui *t, int y, int x, int w, enum role r);
/* A screen's column heading: line y across the terminal in ROLE_COLHEAD,
 * text s from column 0. */
void ui_colhead(struct tui *t, int y, const char *s);
/* A dialog frame h x w at (y, x), filled, with an optional title. */
void ui_box(struct tui *t, int y, int x, int h, int w, const char *title);
/* A dialog h lines high and w columns wide (narrowed to the terminal) in
 * the middle of the freshly drawn screen: draws its frame and title, sets
 * (*y, *x) to its corner and returns the width it got. */
int ui_dialog(struct tui *t, int h, int w, const char *title, int *y, int *x);
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
void ui_bar(struct tui *t, int y, int x, int w, const struct bar_seg *seg, int nseg,
	    const char *text, enum role text_role);
/* Menu dialog: returns the chosen index, or -1 (Esc / q). sel = initial. */
int ui_menu(struct tui *t, const char *title, const char *const *items, int n, int sel,
	    const char *footer);
/* Buttons dialog: text (may contain \n), buttons; returns index or -1. */
int ui_choice(struct tui *t, const char *title, const char *text, const char *const *buttons, int n,
	      int dflt);
/* Line input: returns 0 with buf filled, -1 cancelled. */
int ui_input(struct tui *t, const char *title, const char *prompt, char *buf, size_t cap);
/* ui_input with a choice under the line: "WHAT [choice 0]  choice 1 ...",
 * Tab (Shift-Tab back) moves *sel among the n choices. */
int ui_input_choice(struct tui *t, const char *title, const char *prompt, char *buf, size_t cap,
		    const char *what, const char *const *choices, int n, int *sel);
/* The bottom key bar: the global hints around the key table's hints of
 * screen (a screen id, "replay"; NULL: none). */
void ui_draw_keybar(struct tui *t, int y, const char *screen);
/* Scrollable text window (Up/Down/PgUp/PgDn/Home/End; Esc, q or Enter closes). */
void ui_text(struct tui *t, const char *title, const char *text);
/* Add an explain item (returns the new count; ignores overflow). */
int ui_explain_add(struct explain_item *items, int n, int max, const char *label, const char *fmt,
		   ...) __attribute__((format(printf, 5, 6)));
/* Human frequency "408", "1.8G" for kHz / Hz values. */
void ui_fmt_khz(const struct tui *t, int64_t khz, char *buf, size_t cap);
void ui_fmt_hz(const struct tui *t, int64_t hz, char *buf, size_t cap);
/* Scroll the selection into view for h visible rows. */
void ui_scroll(struct screen *s, int h);
/* Generic list keys (Up/Down/PgUp/PgDn/Home/End); HR bits. */
int ui_list_key(struct screen *s, int ch, int h);

/* ---- screen_latency.c: the probe and the A/B, which outlive the screen ------- */
/* Background work (poll a running A/B, refresh the live view): called by the
 * main loop and, with in_dialog, while a dialog waits for a key. *wait_ms
 * (may be NULL) gets how soon it wants to run again, -1 = no hurry. Returns
 * HR_* bits for the main loop (HR_RESCAN: the A/B switched its knob, reload
 * the journal); in a dialog they are kept for the next main-loop call. */
int latency_background(struct tui *t, bool in_dialog, int *wait_ms);
/* 'A' on any screen: A/B the selected row's knob (Latency: any ADDRESS=A,B). */
int latency_ab_key(struct tui *t);
/* The Why-late capture's own footprint in one line (events/s read, lost);
 * false when it is not on (latency_why.c). */
bool latency_why_footprint(const struct tui *t, char *buf, size_t cap);
/* Header marker ("probe 0-3", "A/B 3/8"); returns the columns used. */
int latency_header(struct tui *t, int y, int x);
/* Before the quit dialog: a running A/B is cancelled (its knob restored)
 * after asking; false = the user stays. */
bool latency_quit(struct tui *t);
/* Leaving tunetop: cancel a running A/B (knob restored), stop the probe. */
void latency_shutdown(struct tui *t, struct sbuf *msg);

/* ---- playback.c: --record, --replay, findings -------------------------------- */
struct replay_event;
/* Evaluate the findings over t->snap (live sessions, after each sample),
 * with the recent thread table (NULL: none) and what probe() (NULL: none)
 * says the Latency screen's probe measured. */
void tui_findings_eval(struct tui *t, const struct thread_table *threads,
		       bool (*probe)(struct tui *t, double budget_us, struct findings_probe *out));
int tui_record_open(struct tui *t, const char *path, const char *state_dir, char **cause);
void tui_record_sample(struct tui *t); /* the current sample (the probe's: latency_record) */
/* --record: the latency probe's window since the last tick, if it runs. */
void latency_record(struct tui *t);
/* The Latency screen's probe (running, or stopped with its numbers still
 * shown) as findings input against budget_us; false when there is none. */
bool latency_probe_findings(struct tui *t, double budget_us, struct findings_probe *out);
void tui_record_poll(struct tui *t); /* journal events now (after an action) */
void tui_record_close(struct tui *t, struct sbuf *msg);
int tui_replay_open(struct tui *t, const char *path, char **cause);
const char *tui_replay_root(const struct tui *t); /* the recorded root */
void tui_replay_close(struct tui *t);
void tui_replay_goto(struct tui *t, size_t i); /* show sample i */
void tui_replay_timer(struct tui *t);	       /* the refresh tick: play on */
int tui_replay_key(struct tui *t, int ch);     /* space . , [ ] { } + - */
int tui_replay_header(struct tui *t, int y, int x);
/* Had the recorded event happened at the shown sample? */
bool tui_replay_event_shown(const struct tui *t, const struct replay_event *e);

/* ---- tui_setup.c: the model's thread table (t->sampler.threads) -------------- */
/* The live thread table when one was read at most max_age_ns ago (0: any
 * age; read it now when refresh and a second old); NULL on a replay, a
 * non-live root or when none is recent. */
const struct thread_table *tui_threads_recent(struct tui *t, uint64_t max_age_ns, bool refresh);

/* ---- screens ----------------------------------------------------------------
 * Each screen is one row of src/ui/screens.def (tab order), which tui.c
 * makes into its const struct screen_ops screen_ID; the functions it names
 * are in src/ui/screen_ID.c (the optional ones only where the row says Y). */
#define SCREEN(id, label, fkey, hotkey, needs, counters, explain, free, focus)                     \
	extern const struct screen_ops screen_##id;                                                \
	void screen_##id##_build(struct tui *t, struct screen *s);                                 \
	void screen_##id##_draw(struct tui *t, struct screen *s, int y, int h);                    \
	int screen_##id##_key(struct tui *t, struct screen *s, int ch);                            \
	int screen_##id##_explain(struct tui *t, struct screen *s, struct explain_item *items,     \
				  int max);                                                        \
	void screen_##id##_free(struct screen *s);                                                 \
	void screen_##id##_focus(struct tui *t, struct screen *s, struct cpumask *cpus);
#include "ui/screens.def"
#undef SCREEN

/* screen_ops.focus of the screens that show no per-CPU idle data. */
void tui_focus_none(struct tui *t, struct screen *s, struct cpumask *cpus);

#endif
