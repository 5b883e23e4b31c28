/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's keys: switching screens, the quit dialog, the mouse, the F1
 * explain window and the key dispatch, driven by the key table
 * (src/ui/keys.def): the current screen's own key function gets its keys
 * first, then the global keys run their action. */
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
#include "ui/keytable.h"
#include "ui/tui.h"
#include "ui/tui_int.h"

/* ---- keys ----------------------------------------------------------------- */

/* The quit dialog: returns true to leave (t->sc.keep set when keeping). */
bool tui_quit_dialog(struct tui *t)
{
	static const char *const buttons[] = {"Restore and quit", "Keep and quit", "Cancel"};
	char text[256];
	int c;

	if (!t->nours || t->sc.keep || !t->sc.cfg.confirm_quit || !t->sc.knob)
		return true;
	snprintf(text, sizeof(text),
		 "This session changed %zu knob%s.\n"
		 "Restore the original values before quitting,\n"
		 "or keep them (undo later with 'tunetop restore')?",
		 t->nours, t->nours == 1 ? "" : "s");
	c = ui_choice(&t->sc, "Quit", text, buttons, 3, 0);
	if (c == 1)
		t->sc.keep = true;
	return c == 0 || c == 1;
}

static int handle_mouse(struct tui *t)
{
	MEVENT me;
	struct screen *s = &t->sc.screens[t->sc.cur];
	int rows_y;

	if (getmouse(&me) != OK)
		return HR_IGNORED;
	if (me.bstate & BUTTON4_PRESSED)
		return ui_list_key(s, KEY_UP, t->sc.body_h - s->heading_lines) | HR_REDRAW;
	if (me.bstate & BUTTON5_PRESSED)
		return ui_list_key(s, KEY_DOWN, t->sc.body_h - s->heading_lines) | HR_REDRAW;
	if (!(me.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED)))
		return HR_IGNORED;
	if (me.y == 2) {
		for (int i = 0; i < t->sc.nscreens; i++)
			if (me.x >= t->tabs_x[i] && me.x < t->tabs_x[i + 1]) {
				tui_switch_to(t, i);
				return HR_HANDLED | HR_REDRAW;
			}
		return HR_HANDLED;
	}
	rows_y = t->sc.body_y + s->heading_lines;
	if (me.y >= rows_y && me.y < t->sc.body_y + t->sc.body_h) {
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
	struct screen *s = &t->sc.screens[t->sc.cur];
	struct explain_item items[TUI_MAX_EXPLAIN];
	const struct explain_entry *e;
	struct explain_resolved x;
	const struct tui_change *c;
	struct sbuf b;
	char title[KNOB_ADDR_MAX + 16];
	int n = s->ops->explain ? s->ops->explain(&t->sc, s, items, TUI_MAX_EXPLAIN) : 0, k = 0;

	if (n <= 0) {
		if (help_if_none)
			tui_switch_to(t, tui_find_screen(t, "help"));
		else
			tui_status(&t->sc, false,
				   "Nothing to explain on this row (F1 lists the keys)");
		return HR_REDRAW;
	}
	if (n > 1) {
		const char *labels[TUI_MAX_EXPLAIN];

		for (int i = 0; i < n; i++)
			labels[i] = items[i].label;
		k = ui_menu(&t->sc, "Explain", labels, n, 0, "Enter: explain   Esc: cancel");
		if (k < 0)
			return HR_REDRAW;
	}
	e = explain_find(items[k].key);
	if (!e) {
		tui_status(&t->sc, true, "No explanation for %s", items[k].key);
		return HR_REDRAW;
	}
	memset(&x, 0, sizeof(x));
	if (explain_resolve(e, items[k].key, &t->sc.root, &x) != 0) {
		tui_status(&t->sc, true, "Cannot explain %s", items[k].key);
		explain_resolved_free(&x);
		return HR_REDRAW;
	}
	sbuf_init(&b);
	c = tui_changed(&t->sc, items[k].key);
	if (c)
		sbuf_printf(&b,
			    "Changed%s: %s -> %s  (original value: %s; u undoes the last change, U "
			    "restores all)\n\n",
			    c->ours ? " by this session" : " (journal)", c->old, c->new_value,
			    c->old);
	if (t->sc.replay)
		sbuf_printf(&b,
			    "REPLAY: the values on the screen come from %s; the files below are "
			    "resolved on %s as it is now.\n\n",
			    t->sc.replay->path, t->sc.root.path);
	explain_render(&b, &x, COLS - 8 > 40 ? COLS - 8 : 40);
	snprintf(title, sizeof(title), "Explain %s", items[k].key);
	ui_text(&t->sc, title, b.s ? b.s : "");
	sbuf_free(&b);
	explain_resolved_free(&x);
	return HR_REDRAW;
}

/* A global key's action (src/ui/keys.def); -1 when it does not apply here
 * (a number without a screen, an fkey no screen has), so that the key goes
 * on to the replay keys. */
static int run_action(struct tui *t, enum key_action a, int ch)
{
	struct screen *s = &t->sc.screens[t->sc.cur];
	int r;

	switch (a) {
	case KA_QUIT: return HR_QUIT;
	case KA_NEXT: tui_switch_to(t, (t->sc.cur + 1) % t->sc.nscreens); return HR_REDRAW;
	case KA_PREV:
		tui_switch_to(t, (t->sc.cur + t->sc.nscreens - 1) % t->sc.nscreens);
		return HR_REDRAW;
	case KA_EXPLAIN_OR_HELP: return do_explain(t, true); /* the row's entry, else Help */
	case KA_HELP: tui_switch_to(t, tui_find_screen(t, "help")); return HR_REDRAW;
	case KA_SETUP: tui_switch_to(t, tui_find_screen(t, "setup")); return HR_REDRAW;
	case KA_UNDO: tui_undo_last(&t->sc); return HR_RESCAN | HR_REDRAW;
	case KA_RESTORE: tui_restore_all(t, true); return HR_RESCAN | HR_REDRAW;
	case KA_EXPLAIN: return do_explain(t, false);
	case KA_ORIG:
		t->sc.show_orig = !t->sc.show_orig;
		tui_status(&t->sc, false,
			   t->sc.show_orig ? "Showing original values of changed knobs (o hides)"
					   : "Original values hidden (o shows)");
		return HR_REDRAW;
	case KA_AB: return latency_ab_key(t);
	case KA_REDRAW: clearok(stdscr, TRUE); return HR_REDRAW;
	case KA_LIST:
		r = ui_list_key(s, ch, t->sc.body_h - s->heading_lines);
		return r & HR_HANDLED ? r | HR_REDRAW : -1;
	case KA_NUMBER:
		if (ch >= '1' && ch <= '9' && ch - '1' < t->sc.nscreens) {
			tui_switch_to(t, ch - '1');
			return HR_REDRAW;
		}
		if (ch == '0' && t->sc.nscreens >= 10) {
			tui_switch_to(t, 9);
			return HR_REDRAW;
		}
		return -1;
	case KA_GOTO:
		for (int i = 0; i < t->sc.nscreens; i++)
			if ((t->sc.screens[i].ops->fkey && ch == t->sc.screens[i].ops->fkey) ||
			    (t->sc.screens[i].ops->hotkey && ch == t->sc.screens[i].ops->hotkey)) {
				tui_switch_to(t, i);
				return HR_REDRAW;
			}
		return -1;
	case KA_NONE:
	case KA_SCREEN: break;
	}
	return -1;
}

/* A key goes to the replay transport (keys.def's "replay" keys), then to
 * the current screen's key function (its keys in keys.def: a key not listed
 * there never reaches it), then the global keys' actions. */
int tui_handle_key(struct tui *t, int ch)
{
	struct screen *s = &t->sc.screens[t->sc.cur];
	const struct key_entry *k;
	bool replay_key = t->sc.replay && key_find("replay", ch);
	int r;

	if (ch == KEY_MOUSE)
		return handle_mouse(t);
	if (ch == KEY_RESIZE)
		return HR_REDRAW;
	/* a replay's transport keys first (where a screen uses them, for an
	 * action, it would be refused anyway), except on Setup, whose + - and
	 * space change settings */
	if (replay_key && strcmp(s->ops->id, "setup")) {
		r = tui_replay_key(t, ch);
		if (r & HR_HANDLED)
			return r;
	}
	/* screen keys first, so a screen may use a letter the global map has */
	if (s->ops->key && key_find(s->ops->id, ch)) {
		r = s->ops->key(&t->sc, s, ch);
		if (r & HR_HANDLED)
			return r;
	}
	k = key_find("global", ch);
	if (k) {
		r = run_action(t, k->action, ch);
		if (r >= 0)
			return r;
	}
	if (replay_key)
		return tui_replay_key(t, ch);
	return HR_IGNORED;
}
