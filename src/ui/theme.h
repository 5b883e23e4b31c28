/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Themes: semantic colour roles (what a piece of text means: "a value we
 * changed", "n/a", "meter high") mapped to terminal colours and attributes.
 * Two themes are compiled in (default, monochrome); others are INI files
 * (themes/NAME.theme, parsed with libinih) looked up in $TUNETOP_THEMES_DIR,
 * $XDG_CONFIG_HOME/tunetop/themes and the installed data directory. The
 * parser and the role table carry no curses types, so they are testable; the
 * curses side (pairs, attributes) is theme_apply()/theme_attr(). */
#ifndef TT_UI_THEME_H
#define TT_UI_THEME_H

#include <stdbool.h>
#include <stddef.h>

enum role {
	ROLE_DEFAULT,
	ROLE_HEADER,	   /* header lines */
	ROLE_HEADER_VALUE, /* values inside the header */
	ROLE_TAB,	   /* a screen tab */
	ROLE_TAB_ACTIVE,   /* the current screen's tab */
	ROLE_TITLE,	   /* section / policy lines */
	ROLE_COLHEAD,	   /* column headings */
	ROLE_LABEL,
	ROLE_VALUE,
	ROLE_VALUE_NA,	   /* a value that could not be read */
	ROLE_CURSOR,	   /* the selected row */
	ROLE_KEY,	   /* bottom bar: the key */
	ROLE_KEYLABEL,	   /* bottom bar: what it does */
	ROLE_STATUS,	   /* status line, information */
	ROLE_STATUS_ERROR, /* status line, a refused action */
	ROLE_ALERT,	   /* throttling, thermal trip, errors */
	ROLE_WARN,
	ROLE_OK,
	ROLE_CHANGED,  /* a value this tunetop (or a journal entry) changed */
	ROLE_LOCKED,   /* a frequency locked (min == max) */
	ROLE_DISABLED, /* an idle state disabled */
	ROLE_OFFLINE,
	ROLE_SIMULATED, /* the SIMULATED banner */
	ROLE_READONLY,	/* the READ-ONLY banner */
	ROLE_METER_LOW,
	ROLE_METER_MID,
	ROLE_METER_HIGH,
	ROLE_UTIL_USER,
	ROLE_UTIL_SYSTEM,
	ROLE_UTIL_IRQ,
	ROLE_FREQ,
	ROLE_IDLE0,
	ROLE_IDLE1,
	ROLE_IDLE2,
	ROLE_IDLE3,
	ROLE_IDLE4,
	ROLE_IDLE5,
	ROLE_BAR_EMPTY,
	ROLE_DIALOG,
	ROLE_DIALOG_SELECTED,
	ROLE_DIALOG_TITLE,
	ROLE_COUNT
};

#define THEME_IDLE_ROLES 6

/* Colours: -1 default, 0..7 the ANSI colours, 8..15 bright, 16..255 xterm. */
enum theme_attr_bits {
	TA_BOLD = 1,
	TA_DIM = 2,
	TA_REVERSE = 4,
	TA_UNDERLINE = 8,
	TA_STANDOUT = 16,
	TA_ITALIC = 32,
};

struct theme_style {
	short fg, bg;
	unsigned attrs; /* TA_* */
};

struct theme {
	char name[32];
	char description[96];
	bool mono; /* attributes only, never colours */
	struct theme_style style[ROLE_COUNT];
};

/* Role name as used in theme files ("state.changed"), and back. */
const char *theme_role_name(enum role r);
int theme_role_by_name(const char *name); /* -1 unknown */

void theme_default(struct theme *t);
void theme_monochrome(struct theme *t);

/* Parse one style spec "fg,bg,bold,underline" / "brightwhite,blue" /
 * "reverse" / "208,default". 0 or -EINVAL. */
int theme_parse_style(const char *spec, struct theme_style *out);

/* Parse theme text (INI). Starts from the default theme, so a file may name
 * only some roles. Problems (unknown role, bad colour) are appended to errs
 * (one "line N: ..." per problem, may be NULL) and never fatal.
 * Returns 0, or -EINVAL when the text is not INI at all. */
struct sbuf;
int theme_parse(const char *text, struct theme *t, struct sbuf *errs);

/* Load a theme by name: the compiled-in "default" / "monochrome", else the
 * first NAME.theme found in the search path. 0 or -ENOENT / -EINVAL.
 * path_out (may be NULL) receives the file that was used ("" built in). */
int theme_load(const char *name, struct theme *t, struct sbuf *errs, char *path_out, size_t cap);

/* Names of the available themes (built in + files found), sorted, unique.
 * Returns the count; free each name and the array. */
size_t theme_list(char ***names);

#endif
