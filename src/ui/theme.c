/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Theme roles, the two compiled-in themes and the theme file parser. A theme
 * file is INI (libinih):
 *
 *   [theme]
 *   name = light
 *   description = dark text on a light background
 *   [colors]
 *   state.changed = black,yellow,bold
 *
 * Each [colors] key is a role name (theme_role_name), the value a style:
 * comma-separated foreground, background and attributes. Colours are names
 * (default, black, red, green, yellow, blue, magenta, cyan, white, and
 * bright... / gray), or numbers 0..255. Attributes: bold, dim, reverse,
 * underline, standout, italic. "mono = yes" in [theme] makes a theme use
 * attributes only. This file knows nothing about curses. */
#include "ui/theme.h"

#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "sysfs/userfile.h"

static const char *const role_names[ROLE_COUNT] = {
	[ROLE_DEFAULT] = "default",
	[ROLE_HEADER] = "header",
	[ROLE_HEADER_VALUE] = "header.value",
	[ROLE_TAB] = "tab",
	[ROLE_TAB_ACTIVE] = "tab.active",
	[ROLE_TITLE] = "title",
	[ROLE_COLHEAD] = "column.head",
	[ROLE_LABEL] = "label",
	[ROLE_VALUE] = "value",
	[ROLE_VALUE_NA] = "value.na",
	[ROLE_CURSOR] = "cursor",
	[ROLE_KEY] = "keybar.key",
	[ROLE_KEYLABEL] = "keybar.label",
	[ROLE_STATUS] = "status",
	[ROLE_STATUS_ERROR] = "status.error",
	[ROLE_ALERT] = "alert",
	[ROLE_WARN] = "warn",
	[ROLE_OK] = "ok",
	[ROLE_CHANGED] = "state.changed",
	[ROLE_LOCKED] = "state.locked",
	[ROLE_DISABLED] = "state.disabled",
	[ROLE_OFFLINE] = "state.offline",
	[ROLE_SIMULATED] = "banner.simulated",
	[ROLE_READONLY] = "banner.readonly",
	[ROLE_METER_LOW] = "meter.low",
	[ROLE_METER_MID] = "meter.mid",
	[ROLE_METER_HIGH] = "meter.high",
	[ROLE_UTIL_USER] = "util.user",
	[ROLE_UTIL_SYSTEM] = "util.system",
	[ROLE_UTIL_IRQ] = "util.irq",
	[ROLE_FREQ] = "meter.freq",
	[ROLE_IDLE0] = "idle.0",
	[ROLE_IDLE1] = "idle.1",
	[ROLE_IDLE2] = "idle.2",
	[ROLE_IDLE3] = "idle.3",
	[ROLE_IDLE4] = "idle.4",
	[ROLE_IDLE5] = "idle.5",
	[ROLE_BAR_EMPTY] = "bar.empty",
	[ROLE_DIALOG] = "dialog",
	[ROLE_DIALOG_SELECTED] = "dialog.selected",
	[ROLE_DIALOG_TITLE] = "dialog.title",
};

const char *theme_role_name(enum role r)
{
	return (r >= 0 && r < ROLE_COUNT) ? role_names[r] : "?";
}

int theme_role_by_name(const char *name)
{
	for (int i = 0; i < ROLE_COUNT; i++)
		if (role_names[i] && !strcasecmp(role_names[i], name))
			return i;
	return -1;
}

#define S(f, b, a) ((struct theme_style){(f), (b), (a)})
enum { DEF = -1, BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE, GRAY };

/* A built-in theme's start: its name and description, every role in the
 * terminal's own colours without attributes. */
static void theme_start(struct theme *t, const char *name, const char *description)
{
	memset(t, 0, sizeof(*t));
	str_copy(t->name, sizeof(t->name), name);
	str_copy(t->description, sizeof(t->description), description);
	for (int i = 0; i < ROLE_COUNT; i++)
		t->style[i] = S(DEF, DEF, 0);
}

void theme_default(struct theme *t)
{
	struct theme_style *s = t->style;

	theme_start(t, "default", "light text on the terminal's background");
	s[ROLE_HEADER] = S(CYAN, DEF, 0);
	s[ROLE_HEADER_VALUE] = S(WHITE, DEF, TA_BOLD);
	s[ROLE_TAB] = S(BLACK, CYAN, 0);
	s[ROLE_TAB_ACTIVE] = S(BLACK, GREEN, TA_BOLD);
	s[ROLE_TITLE] = S(CYAN, DEF, TA_BOLD);
	s[ROLE_COLHEAD] = S(BLACK, GREEN, 0);
	s[ROLE_LABEL] = S(CYAN, DEF, 0);
	s[ROLE_VALUE] = S(DEF, DEF, 0);
	s[ROLE_VALUE_NA] = S(BLUE, DEF, TA_BOLD);
	s[ROLE_CURSOR] = S(BLACK, CYAN, 0);
	s[ROLE_KEY] = S(WHITE, BLACK, 0);
	s[ROLE_KEYLABEL] = S(BLACK, CYAN, 0);
	s[ROLE_STATUS] = S(GREEN, DEF, TA_BOLD);
	s[ROLE_STATUS_ERROR] = S(WHITE, RED, TA_BOLD);
	s[ROLE_ALERT] = S(RED, DEF, TA_BOLD);
	s[ROLE_WARN] = S(YELLOW, DEF, TA_BOLD);
	s[ROLE_OK] = S(GREEN, DEF, 0);
	s[ROLE_CHANGED] = S(BLACK, YELLOW, TA_BOLD);
	s[ROLE_LOCKED] = S(MAGENTA, DEF, TA_BOLD);
	s[ROLE_DISABLED] = S(RED, DEF, TA_BOLD);
	s[ROLE_OFFLINE] = S(BLUE, DEF, TA_BOLD);
	s[ROLE_SIMULATED] = S(BLACK, YELLOW, TA_BOLD);
	s[ROLE_READONLY] = S(WHITE, RED, TA_BOLD);
	s[ROLE_METER_LOW] = S(GREEN, DEF, 0);
	s[ROLE_METER_MID] = S(YELLOW, DEF, 0);
	s[ROLE_METER_HIGH] = S(RED, DEF, TA_BOLD);
	s[ROLE_UTIL_USER] = S(GREEN, DEF, 0);
	s[ROLE_UTIL_SYSTEM] = S(RED, DEF, 0);
	s[ROLE_UTIL_IRQ] = S(YELLOW, DEF, 0);
	s[ROLE_FREQ] = S(CYAN, DEF, 0);
	s[ROLE_IDLE0] = S(BLUE, DEF, TA_BOLD);
	s[ROLE_IDLE1] = S(GREEN, DEF, 0);
	s[ROLE_IDLE2] = S(CYAN, DEF, 0);
	s[ROLE_IDLE3] = S(MAGENTA, DEF, 0);
	s[ROLE_IDLE4] = S(YELLOW, DEF, 0);
	s[ROLE_IDLE5] = S(WHITE, DEF, TA_BOLD);
	s[ROLE_BAR_EMPTY] = S(BLACK, DEF, TA_BOLD);
	s[ROLE_DIALOG] = S(BLACK, WHITE, 0);
	s[ROLE_DIALOG_SELECTED] = S(WHITE, BLUE, TA_BOLD);
	s[ROLE_DIALOG_TITLE] = S(WHITE, BLUE, TA_BOLD);
}

void theme_monochrome(struct theme *t)
{
	struct theme_style *s = t->style;

	theme_start(t, "monochrome", "attributes only (NO_COLOR, mono terminals)");
	t->mono = true;
	s[ROLE_HEADER_VALUE].attrs = TA_BOLD;
	s[ROLE_TAB].attrs = 0;
	s[ROLE_TAB_ACTIVE].attrs = TA_REVERSE | TA_BOLD;
	s[ROLE_TITLE].attrs = TA_BOLD;
	s[ROLE_COLHEAD].attrs = TA_UNDERLINE;
	s[ROLE_VALUE_NA].attrs = TA_DIM;
	s[ROLE_CURSOR].attrs = TA_REVERSE;
	s[ROLE_KEY].attrs = TA_BOLD;
	s[ROLE_KEYLABEL].attrs = TA_REVERSE;
	s[ROLE_STATUS].attrs = TA_BOLD;
	s[ROLE_STATUS_ERROR].attrs = TA_REVERSE | TA_BOLD;
	s[ROLE_ALERT].attrs = TA_BOLD | TA_UNDERLINE;
	s[ROLE_WARN].attrs = TA_BOLD;
	s[ROLE_CHANGED].attrs = TA_REVERSE | TA_BOLD;
	s[ROLE_LOCKED].attrs = TA_UNDERLINE;
	s[ROLE_DISABLED].attrs = TA_BOLD;
	s[ROLE_OFFLINE].attrs = TA_DIM;
	s[ROLE_SIMULATED].attrs = TA_REVERSE | TA_BOLD;
	s[ROLE_READONLY].attrs = TA_REVERSE | TA_BOLD;
	s[ROLE_METER_HIGH].attrs = TA_BOLD;
	s[ROLE_UTIL_SYSTEM].attrs = TA_BOLD;
	s[ROLE_BAR_EMPTY].attrs = TA_DIM;
	s[ROLE_DIALOG].attrs = 0;
	s[ROLE_DIALOG_SELECTED].attrs = TA_REVERSE;
	s[ROLE_DIALOG_TITLE].attrs = TA_BOLD | TA_UNDERLINE;
}

static const struct {
	const char *name;
	short n;
} colour_names[] = {
	{"default", -1},       {"black", 0},	    {"red", 1},		  {"green", 2},
	{"yellow", 3},	       {"blue", 4},	    {"magenta", 5},	  {"cyan", 6},
	{"white", 7},	       {"gray", 8},	    {"grey", 8},	  {"brightblack", 8},
	{"brightred", 9},      {"brightgreen", 10}, {"brightyellow", 11}, {"brightblue", 12},
	{"brightmagenta", 13}, {"brightcyan", 14},  {"brightwhite", 15},
};

static const struct {
	const char *name;
	unsigned bit;
} attr_names[] = {
	{"bold", TA_BOLD},
	{"dim", TA_DIM},
	{"reverse", TA_REVERSE},
	{"underline", TA_UNDERLINE},
	{"standout", TA_STANDOUT},
	{"italic", TA_ITALIC},
	{"normal", 0},
};

static int parse_colour(const char *tok, short *out)
{
	int n;

	for (size_t i = 0; i < sizeof(colour_names) / sizeof(colour_names[0]); i++)
		if (!strcasecmp(tok, colour_names[i].name)) {
			*out = colour_names[i].n;
			return 0;
		}
	if (str_to_int(tok, &n) == 0 && n >= -1 && n <= 255) {
		*out = (short)n;
		return 0;
	}
	return -EINVAL;
}

static int parse_attr(const char *tok, unsigned *bits)
{
	for (size_t i = 0; i < sizeof(attr_names) / sizeof(attr_names[0]); i++)
		if (!strcasecmp(tok, attr_names[i].name)) {
			*bits |= attr_names[i].bit;
			return 0;
		}
	return -EINVAL;
}

int theme_parse_style(const char *spec, struct theme_style *out)
{
	char buf[128], *save = NULL, *tok;
	struct theme_style s = {-1, -1, 0};
	int ncol = 0;

	if (str_copy(buf, sizeof(buf), spec) >= sizeof(buf))
		return -EINVAL;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		short c;

		tok = str_trim(tok);
		if (!*tok)
			return -EINVAL;
		if (parse_attr(tok, &s.attrs) == 0)
			continue;
		if (ncol < 2 && parse_colour(tok, &c) == 0) {
			if (ncol++ == 0)
				s.fg = c;
			else
				s.bg = c;
			continue;
		}
		return -EINVAL;
	}
	*out = s;
	return 0;
}

struct parse_ctx {
	struct theme *t;
	struct sbuf *errs;
	int nbad;
};

static int on_ini(void *user, const char *section, const char *name, const char *value)
{
	struct parse_ctx *c = user;
	int r;

	if (!strcasecmp(section, "theme")) {
		if (!strcasecmp(name, "name"))
			str_copy(c->t->name, sizeof(c->t->name), value);
		else if (!strcasecmp(name, "description"))
			str_copy(c->t->description, sizeof(c->t->description), value);
		else if (!strcasecmp(name, "mono"))
			c->t->mono = !strcasecmp(value, "yes") || !strcasecmp(value, "true") ||
				     !strcmp(value, "1");
		else
			goto bad_key;
		return 1;
	}
	if (strcasecmp(section, "colors") && strcasecmp(section, "colours")) {
		if (c->errs)
			sbuf_printf(c->errs, "[%s] %s: unknown section\n", section, name);
		c->nbad++;
		return 1;
	}
	r = theme_role_by_name(name);
	if (r < 0)
		goto bad_key;
	if (theme_parse_style(value, &c->t->style[r]) != 0) {
		if (c->errs)
			sbuf_printf(c->errs, "%s = %s: not a style (fg,bg,attributes)\n", name,
				    value);
		c->nbad++;
	}
	return 1;
bad_key:
	if (c->errs)
		sbuf_printf(c->errs, "[%s] %s: unknown key\n", section, name);
	c->nbad++;
	return 1;
}

int theme_parse(const char *text, struct theme *t, struct sbuf *errs)
{
	struct parse_ctx c = {t, errs, 0};
	int line;

	theme_default(t);
	t->name[0] = '\0';
	line = ini_parse_string(text, on_ini, &c);
	if (line > 0 && errs)
		sbuf_printf(errs, "line %d: not INI (key = value or [section])\n", line);
	return line < 0 ? -EINVAL : 0;
}

static const char *const builtin[] = {"default", "monochrome"};

/* Directories searched for NAME.theme, in order. */
static size_t theme_dirs(char dirs[][512], size_t max)
{
	size_t n = 0;
	const char *e = getenv("TUNETOP_THEMES_DIR");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	if (e && *e && n < max)
		snprintf(dirs[n++], 512, "%s", e);
	if (xdg && *xdg && n < max)
		snprintf(dirs[n++], 512, "%s/tunetop/themes", xdg);
	else if (home && *home && n < max)
		snprintf(dirs[n++], 512, "%s/.config/tunetop/themes", home);
	if (n < max)
		snprintf(dirs[n++], 512, "%s/themes", TT_PKGDATADIR);
	if (userfile_source_tree() && n < max) /* ./tunetop in its build tree */
		snprintf(dirs[n++], 512, "%s/themes", userfile_source_tree());
	return n;
}

static bool valid_name(const char *name)
{
	if (!*name || strlen(name) > 31)
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
			return false;
	return name[0] != '.';
}

int theme_load(const char *name, struct theme *t, struct sbuf *errs, char *path_out, size_t cap)
{
	char dirs[4][512];
	size_t nd;

	if (path_out && cap)
		path_out[0] = '\0';
	if (!valid_name(name))
		return -EINVAL;
	nd = theme_dirs(dirs, 4);
	for (size_t i = 0; i < nd; i++) {
		char path[640], *text = NULL;
		int e;

		snprintf(path, sizeof(path), "%s/%s.theme", dirs[i], name);
		/* never blocks on a FIFO; a regular file of at most 1 MiB */
		e = userfile_read(path, 0, USERFILE_MAX_TEXT, &text, NULL);
		if (e) {
			if (e != -ENOENT && errs)
				sbuf_printf(errs, "%s: %s\n", path,
					    userfile_strerror(e, USERFILE_MAX_TEXT));
			continue;
		}
		theme_parse(text, t, errs);
		free(text);
		if (!t->name[0])
			str_copy(t->name, sizeof(t->name), name);
		if (path_out)
			str_copy(path_out, cap, path);
		return 0;
	}
	if (!strcmp(name, builtin[0])) {
		theme_default(t);
		return 0;
	}
	if (!strcmp(name, builtin[1])) {
		theme_monochrome(t);
		return 0;
	}
	return -ENOENT;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t theme_list(char ***names)
{
	char dirs[4][512];
	size_t nd = theme_dirs(dirs, 4), n = 0, cap = 0, out = 0;
	char **v = NULL;

	for (size_t i = 0; i < 2; i++) {
		v = xgrow(v, &cap, n + 1, sizeof(*v));
		v[n++] = xstrdup(builtin[i]);
	}
	for (size_t i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *de;

		if (!d)
			continue;
		while ((de = readdir(d))) {
			size_t len = strlen(de->d_name);

			if (len <= 6 || strcmp(de->d_name + len - 6, ".theme"))
				continue;
			v = xgrow(v, &cap, n + 1, sizeof(*v));
			v[n] = xstrndup(de->d_name, len - 6);
			if (!valid_name(v[n])) {
				free(v[n]);
				continue;
			}
			n++;
		}
		closedir(d);
	}
	qsort(v, n, sizeof(*v), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (out && !strcmp(v[out - 1], v[i])) {
			free(v[i]);
			continue;
		}
		v[out++] = v[i];
	}
	*names = v;
	return out;
}
