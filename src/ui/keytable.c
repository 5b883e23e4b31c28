/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The key table (src/ui/keys.def expanded) and what is generated from it:
 * the lookup the dispatch uses, the Help screen's key lines and the man
 * page's key list. No curses function is called here: curses.h is included
 * for the KEY_* codes only. */
#include <ctype.h>
#include <string.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>

#include "ui/keytable.h"

const struct key_entry key_table[] = {
#define SECTION(id, title)
#define KEY(screen, keys, action, bar, bar_key, hint, help, ...)                                   \
	{screen, keys, action, bar, bar_key, hint, help, {__VA_ARGS__}},
#include "ui/keys.def"
#undef KEY
#undef SECTION
};
const size_t key_table_n = sizeof(key_table) / sizeof(key_table[0]);

const struct key_section key_sections[] = {
#define SECTION(id, title) {id, title},
#define KEY(...)
#include "ui/keys.def"
#undef KEY
#undef SECTION
};
const size_t key_sections_n = sizeof(key_sections) / sizeof(key_sections[0]);

bool key_has_code(const struct key_entry *e, int code)
{
	for (int i = 0; i < KEY_MAX_CODES && e->codes[i]; i++)
		if (e->codes[i] == code)
			return true;
	return false;
}

const struct key_entry *key_find(const char *screen, int code)
{
	if (!code)
		return NULL;
	for (size_t i = 0; i < key_table_n; i++)
		if (!strcmp(key_table[i].screen, screen) && key_has_code(&key_table[i], code))
			return &key_table[i];
	return NULL;
}

/* ---- Help screen ------------------------------------------------------------ */

#define HELP_KEYW  13 /* the keys column */
#define HELP_TEXTX 16 /* where the sentence starts (as the prose columns) */
#define HELP_HALF  30 /* a paired line's first sentence column width */

/* s word-wrapped: the first line continues the current one at column x,
 * the next ones start at column HELP_TEXTX. */
static void put_wrapped(struct sbuf *b, const char *s, int x, int width)
{
	int room = width - x;

	if (room < 20)
		room = 20;
	while (*s) {
		int n = (int)strlen(s);

		if (n > room) {
			n = room;
			while (n > 0 && s[n] != ' ')
				n--;
			if (n == 0)
				n = room;
		}
		sbuf_putn(b, s, (size_t)n);
		sbuf_putc(b, '\n');
		s += n;
		while (*s == ' ')
			s++;
		if (*s) {
			sbuf_printf(b, "%*s", HELP_TEXTX, "");
			room = width - HELP_TEXTX < 20 ? 20 : width - HELP_TEXTX;
		}
	}
}

static bool pairable(const struct key_entry *e)
{
	return strlen(e->keys) <= HELP_KEYW && strlen(e->help) < HELP_HALF;
}

void key_help_lines(struct sbuf *b, const char *screen, int width)
{
	for (size_t i = 0; i < key_table_n; i++) {
		const struct key_entry *e = &key_table[i], *n = NULL;
		size_t start;

		if (strcmp(e->screen, screen))
			continue;
		if (i + 1 < key_table_n && !strcmp(key_table[i + 1].screen, screen))
			n = &key_table[i + 1];
		/* two short global keys to a line, as a quick-reference card */
		if (!strcmp(screen, "global") && n && pairable(e) && strlen(n->keys) <= HELP_KEYW &&
		    HELP_TEXTX + HELP_HALF + HELP_KEYW + 1 + (int)strlen(n->help) <= width) {
			sbuf_printf(b, "  %-*s %-*s%-*s %s\n", HELP_KEYW, e->keys, HELP_HALF,
				    e->help, HELP_KEYW, n->keys, n->help);
			i++;
			continue;
		}
		start = b->len;
		if ((int)strlen(e->keys) <= HELP_KEYW)
			sbuf_printf(b, "  %-*s ", HELP_KEYW, e->keys);
		else
			sbuf_printf(b, "  %s  ", e->keys);
		put_wrapped(b, e->help, (int)(b->len - start), width);
	}
}

/* ---- man page ----------------------------------------------------------------- */

/* s for roff: - is \-, a backslash \e, and a line may not start with . or '. */
static void roff_text(struct sbuf *b, const char *s, bool sentence)
{
	if (*s == '.' || *s == '\'')
		sbuf_puts(b, "\\&");
	for (const char *p = s; *p; p++) {
		if (*p == '-')
			sbuf_puts(b, "\\-");
		else if (*p == '\\')
			sbuf_puts(b, "\\e");
		else if (sentence && p == s)
			sbuf_putc(b, (char)toupper((unsigned char)*p));
		else
			sbuf_putc(b, *p);
	}
	if (sentence && *s && s[strlen(s) - 1] != '.')
		sbuf_putc(b, '.');
}

/* ".B "F1, h"": the keys in bold, comma-separated. */
static void roff_keys(struct sbuf *b, const char *keys)
{
	char one[64];
	const char *p = keys;
	bool first = true;

	sbuf_puts(b, ".B \"");
	while (*p) {
		size_t n = strcspn(p, " ");

		if (n >= sizeof(one))
			n = sizeof(one) - 1;
		memcpy(one, p, n);
		one[n] = '\0';
		if (!first)
			sbuf_puts(b, ", ");
		roff_text(b, one, false);
		first = false;
		p += n;
		while (*p == ' ')
			p++;
	}
	sbuf_puts(b, "\"\n");
}

void key_man(struct sbuf *b)
{
	for (size_t s = 0; s < key_sections_n; s++) {
		const char *id = key_sections[s].screen;

		if (!strcmp(id, "global")) {
			sbuf_puts(b, ".SS Keys\n");
		} else {
			if (s > 0 && !strcmp(key_sections[s - 1].screen, "global"))
				sbuf_puts(b,
					  ".SS \"Keys by screen\"\n"
					  "A screen's own keys; the screen gets a key before the "
					  "keys above.\n");
			sbuf_puts(b, ".PP\n.B ");
			roff_text(b, key_sections[s].title, false);
			sbuf_putc(b, '\n');
		}
		for (size_t i = 0; i < key_table_n; i++) {
			const struct key_entry *e = &key_table[i];

			if (strcmp(e->screen, id))
				continue;
			sbuf_puts(b, ".TP\n");
			roff_keys(b, e->keys);
			roff_text(b, e->help, true);
			sbuf_putc(b, '\n');
		}
	}
}
