/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the TUI's own files share (tui.c: the loop and the session;
 * tui_knob.c: the knob glue; tui_frame.c: the frame; tui_keys.c: the keys;
 * tui_setup.c: the command line, settings, root, engine and sampler; the
 * lower files widgets.c, counters.c, playback.c, latency_*.c, world_line.c).
 * Screens use ui/tui.h only: struct screen_ctx, never struct tui. */
#ifndef TT_UI_TUI_INT_H
#define TT_UI_TUI_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/str.h"
#include "ui/tui.h"

/* The session: what screens are given (struct screen_ctx, ui/tui.h) first,
 * then what only the TUI's own files see. Screens never include this
 * header (tests/cli/screen_ctx.sh). */
struct tui {
	struct screen_ctx sc; /* what screens see: the fields below are the loop's own */
	const struct tt_opts *opts;
	/* the effect of the last change made here, judged at the first tick
	 * after eff_due_ns (knob_effect_*) */
	struct knob_effect_watch *eff_watch;
	uint64_t eff_due_ns;
	uint64_t hold_due_ns;	/* next read of sc.hold */
	const char *root_path;	/* "/" live, a fixture root, or the simulator's temp root */
	const char *world_name; /* --demo=NAME */
	bool world_list;	/* --demo --list */
	char **cfg_clocks;	/* tunetoprc clocks= parsed (NULL: --clocks or the default) */
	bool sampler_on;
	uint64_t next_tick_ns;
	bool readonly;			 /* sc.ro_why says why */
	size_t nours;			 /* of sc.changes, made by this run */
	size_t norphans;		 /* open entries of dead instances on this root */
	bool no_color;			 /* --no-color / NO_COLOR */
	int tabs_x[TUI_MAX_SCREENS + 1]; /* tab start columns, for clicks */
	/* --record FILE */
	struct recorder *rec;
	char rec_path[512];
	int rec_format; /* enum record_format of --record-format (0: auto) */
	bool rec_failed;
	/* status line */
	char status[TUI_STATUS_LEN];
	bool status_err;
	uint64_t status_until_ns;
	bool status_sticky;   /* a hold report: shown until the next key */
	const char *busy_why; /* why knobs cannot change now (a running A/B), NULL: they can */
	struct tui_ctr *ctr;  /* perf counters state (counters.c) */
};

_Static_assert(offsetof(struct tui, sc) == 0, "a screen context is the start of its session");

/* The session a screen context belongs to (sc is its first member). */
static inline struct tui *tui_of(struct screen_ctx *c)
{
	return (struct tui *)(void *)c;
}
static inline const struct tui *tui_of_const(const struct screen_ctx *c)
{
	return (const struct tui *)(const void *)c;
}

/* Sources every screen needs: the header shows clocks and the cores the rest,
 * and the findings counted in the header read RT throttling, thermal cooling
 * and interrupt rates (the same sources as `snapshot --json`). */
#define TUI_SNAP_BASE (SNAP_CORE | SNAP_DEVFREQ | SNAP_RT | SNAP_THERMAL | SNAP_IRQS)

/* tui_frame.c: the sources every screen needs (the header's), as the last
 * sample allows. */
unsigned tui_snap_base(const struct tui *t);
/* tui.c: one sample (or, replaying, the recorded one) and every screen's
 * build. */
void tui_tick(struct tui *t);

/* tui_knob.c */
/* The effect watch of the last change, polled at every tick. */
void tui_effect_poll(struct tui *t, uint64_t now);
/* Hold mode: a change of this run found changed outside tunetop goes to the
 * status line and the header's count. */
void tui_hold_poll(struct tui *t, uint64_t now);
/* At start: journal entries of a run that is gone, with the offer to
 * restore them. */
void tui_offer_orphans(struct tui *t);
/* On exit: restore this session's changes (or keep them with --keep / the
 * user's choice); what happened goes to msg. */
void tui_restore_on_exit(struct tui *t, struct sbuf *msg);

/* tui_frame.c: the index of the screen with id or title id, -1 none. */
int tui_find_screen(struct tui *t, const char *id);

/* tui_keys.c */
/* The quit dialog; true: quit. */
bool tui_quit_dialog(struct tui *t);
/* One key: the screen's key function first, then the global keys; HR_*. */
int tui_handle_key(struct tui *t, int ch);

/* tui_setup.c: the root to show (a replay, the demo board, or o->root),
 * opened. 0, or 1 after saying why on stderr. */
int tui_open_root(struct tui *t, const struct tt_opts *o, bool demo, const char *replay);
/* The demo board's step (a world steps its model with it) and its end. */
void tui_demo_step(struct tui *t, double dt_s);
void tui_demo_close(struct tui *t);
/* tui_setup.c: the knob engine, its writer lock held for the session, and
 * what makes the session read-only. */
void tui_open_engine(struct tui *t, const char *state_dir);
/* tui_setup.c: the sampler, its clock list and --record FILE. 0, or 1 after
 * saying why on stderr. */
int tui_open_sampler(struct tui *t, const struct tt_opts *o, const char *record,
		     const char *state_dir, struct sbuf *errs);
/* tui_setup.c: -1 to go on, else the exit code (--help: 0, a usage error:
 * 2). */
int tui_parse_args(struct tui *t, int argc, char **argv, bool *demo, const char **theme,
		   const char **screen, int *delay, const char **record, const char **replay);

/* tui_setup.c: place tunetop's own threads (--self-cpus, --self-nice,
 * $TUNETOP_SELF_NICE, tunetoprc self_cpus= / self_nice=). -EINVAL after
 * saying why on stderr when a command-line value is bad; a bad tunetoprc
 * value goes to errs and the defaults are used. */
int tui_self_place(struct tui *t, struct sbuf *errs);
/* tui_setup.c: tunetoprc, then --theme and --delay over it; complaints go
 * to errs (shown on the status line and in F2 Setup). */
void tui_settings_load(struct tui *t, const char *theme, int delay, struct sbuf *errs);

/* Moved from ui/tui.h: the frame's, the loop's and the recorder's own
 * functions, which take the whole session (screens call none of them).
 * The hook targets (latency_background, latency_header,
 * tui_replay_header) take the context, as t->sc.hooks does. */
void tui_status_seen(struct tui *t);
/* Show screen i (as a number key does); the loop samples again first when
 * it reads a source the last sample did not (t->want_tick). */
void tui_switch_to(struct tui *t, int i);
/* Any change whose address starts with prefix. */
const struct tui_change *tui_changed_prefix(const struct tui *t, const char *prefix);
bool tui_is_demo(const struct tui *t);
/* Drawing a recording (--replay): read-only, no live data. */
bool tui_is_replay(const struct tui *t);
int tui_restore_all(struct tui *t, bool ask);
/* After each sample: open / close the per-CPU counters as the current screen
 * and the settings want (cfg.col_counters, cfg.events), close the thread
 * counters when the current screen does not show them. */
void tui_counters_tick(struct tui *t);
void tui_counters_free(struct tui *t);
/* Background work (poll a running A/B, refresh the live view): called by the
 * main loop and, with in_dialog, while a dialog waits for a key. *wait_ms
 * (may be NULL) gets how soon it wants to run again, -1 = no hurry. Returns
 * HR_* bits for the main loop (HR_RESCAN: the A/B switched its knob, reload
 * the journal); in a dialog they are kept for the next main-loop call. */
int latency_background(struct screen_ctx *c, bool in_dialog, int *wait_ms);
/* 'A' on any screen: A/B the selected row's knob (Latency: any ADDRESS=A,B). */
int latency_ab_key(struct tui *t);
/* Header marker ("probe 0-3", "A/B 3/8"); returns the columns used. */
int latency_header(struct screen_ctx *c, int y, int x);
/* Before the quit dialog: a running A/B is cancelled (its knob restored)
 * after asking; false = the user stays. */
bool latency_quit(struct tui *t);
/* Leaving tunetop: cancel a running A/B (knob restored), stop the probe. */
void latency_shutdown(struct tui *t, struct sbuf *msg);
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
int tui_replay_header(struct screen_ctx *c, int y, int x);

#endif
