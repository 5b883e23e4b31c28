/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the TUI's own files share (tui.c: the loop and the session;
 * tui_knob.c: the knob glue; tui_frame.c: the frame; tui_keys.c: the keys;
 * tui_setup.c: the command line, settings, root, engine and sampler). Screens use ui/tui.h only. */
#ifndef TT_UI_TUI_INT_H
#define TT_UI_TUI_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/str.h"
#include "ui/tui.h"

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

#endif
