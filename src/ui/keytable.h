/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's key table (src/ui/keys.def): every key, the screen it belongs
 * to, what it does, its key-bar word and its Help sentence. The dispatch,
 * the key bar, the Help screen and the man page's key list all read it.
 * This header and keytable.c use no curses function (only its KEY_*
 * constants), so tests and tests/unit/keytable_gen link them without it. */
#ifndef TT_UI_KEYTABLE_H
#define TT_UI_KEYTABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/str.h"

/* What a global key does (tui_keys.c runs it); screen and replay keys are
 * KA_SCREEN. */
enum key_action {
	KA_NONE,	    /* documented only: the mouse, ^C */
	KA_SCREEN,	    /* the screen's key function (replay: tui_replay_key) */
	KA_HELP,	    /* the Help screen */
	KA_SETUP,	    /* the Setup screen */
	KA_GOTO,	    /* the screen whose fkey or hotkey this is */
	KA_NUMBER,	    /* the screen by number: 1..9, 0 the tenth */
	KA_NEXT,	    /* the next screen */
	KA_PREV,	    /* the previous screen */
	KA_LIST,	    /* move the selection (ui_list_key) */
	KA_EXPLAIN,	    /* explain the selected row */
	KA_EXPLAIN_OR_HELP, /* explain the selected row, else Help */
	KA_UNDO,	    /* undo the last change */
	KA_RESTORE,	    /* restore all changes */
	KA_ORIG,	    /* show / hide original values */
	KA_AB,		    /* A/B the selected row's knob */
	KA_QUIT,	    /* the quit dialog */
	KA_REDRAW,	    /* clear and redraw */
};

/* Where the bottom key bar shows a key. */
enum key_bar {
	KB_NONE,
	KB_HEAD,   /* global: before the screen's hints */
	KB_SCREEN, /* the screen's own hints */
	KB_TAIL,   /* global: after them */
};

#define KEY_MAX_CODES 12

struct key_entry {
	const char *screen; /* a screen id, "global" or "replay" */
	const char *keys;   /* "F1 h": how Help and the man page name them */
	enum key_action action;
	enum key_bar bar;
	const char *bar_key;	  /* key bar: "F1" (NULL: not in the bar) */
	const char *hint;	  /* key bar: "Help" */
	const char *help;	  /* the Help screen's sentence */
	int codes[KEY_MAX_CODES]; /* curses key codes, 0 ends */
};

/* A screen's section: its id and the man page's title for its list. */
struct key_section {
	const char *screen;
	const char *title;
};

extern const struct key_entry key_table[];
extern const size_t key_table_n;
extern const struct key_section key_sections[];
extern const size_t key_sections_n;

/* Does e list code? */
bool key_has_code(const struct key_entry *e, int code);
/* The entry of screen ("global", "replay" or a screen id) for key code,
 * NULL when the screen has none. */
const struct key_entry *key_find(const char *screen, int code);
/* Help screen lines for screen's keys, each ending in '\n': "  KEYS  help"
 * wrapped at width columns; global keys with short sentences two to a
 * line. */
void key_help_lines(struct sbuf *b, const char *screen, int width);
/* The man page's key list (roff): global keys, then one list per
 * section. */
void key_man(struct sbuf *b);

#endif
