/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Prints what is generated from the TUI's key table (src/ui/keys.def):
 *   keytable_gen --man            the man page's key list (roff), as it
 *                                 stands between the "keys begin" and
 *                                 "keys end" comments of man/tunetop.8
 *   keytable_gen --man-update F   rewrite that part of man page F
 *   keytable_gen --help ID [W]    the Help screen's key lines of ID
 *   keytable_gen --list           one line per key: screen, keys, action,
 *                                 bar (KB_*), bar key, hint, help
 *                                 (tab-separated)
 *   keytable_gen --codes          one line per code: screen, the code as
 *                                 C source names it ('a', KEY_F(7), 27) and
 *                                 the action (KA_*, a number)
 * tests/tui/keys.sh compares these with the man page, the Help screen and
 * the screens' key functions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>

#include "core/str.h"
#include "ui/keytable.h"

#define MARK_BEGIN ".\\\" keys begin"
#define MARK_END   ".\\\" keys end"

/* A code as the C source writes it. */
static void code_name(int c, char *buf, size_t cap)
{
	static const struct {
		int code;
		const char *name;
	} names[] = {
		{KEY_ENTER, "KEY_ENTER"},
		{KEY_LEFT, "KEY_LEFT"},
		{KEY_RIGHT, "KEY_RIGHT"},
		{KEY_UP, "KEY_UP"},
		{KEY_DOWN, "KEY_DOWN"},
		{KEY_PPAGE, "KEY_PPAGE"},
		{KEY_NPAGE, "KEY_NPAGE"},
		{KEY_HOME, "KEY_HOME"},
		{KEY_END, "KEY_END"},
		{KEY_BTAB, "KEY_BTAB"},
		{KEY_SLEFT, "KEY_SLEFT"},
		{KEY_SRIGHT, "KEY_SRIGHT"},
		{KEY_BACKSPACE, "KEY_BACKSPACE"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].code == c) {
			snprintf(buf, cap, "%s", names[i].name);
			return;
		}
	if (c >= KEY_F(1) && c <= KEY_F(12))
		snprintf(buf, cap, "KEY_F(%d)", c - KEY_F(0));
	else if (c == '\\' || c == '\'')
		snprintf(buf, cap, "'\\%c'", c);
	else if (c > ' ' && c < 127)
		snprintf(buf, cap, "'%c'", c);
	else if (c == ' ')
		snprintf(buf, cap, "' '");
	else
		snprintf(buf, cap, "%d", c);
}

static int man_update(const char *path, const char *list)
{
	FILE *f = fopen(path, "r");
	struct sbuf out;
	char line[4096];
	int state = 0; /* 0 before, 1 inside, 2 after */

	if (!f) {
		perror(path);
		return 1;
	}
	sbuf_init(&out);
	while (fgets(line, sizeof(line), f)) {
		if (state == 1 && !strncmp(line, MARK_END, strlen(MARK_END))) {
			sbuf_puts(&out, list);
			state = 2;
		}
		if (state != 1)
			sbuf_puts(&out, line);
		if (state == 0 && !strncmp(line, MARK_BEGIN, strlen(MARK_BEGIN)))
			state = 1;
	}
	fclose(f);
	if (state != 2) {
		fprintf(stderr, "%s: no '%s' ... '%s' lines\n", path, MARK_BEGIN, MARK_END);
		sbuf_free(&out);
		return 1;
	}
	f = fopen(path, "w");
	if (!f || fputs(out.s, f) < 0 || fclose(f) != 0) {
		perror(path);
		sbuf_free(&out);
		return 1;
	}
	sbuf_free(&out);
	return 0;
}

int main(int argc, char **argv)
{
	struct sbuf b;
	int rc = 0;

	sbuf_init(&b);
	if (argc == 2 && !strcmp(argv[1], "--man")) {
		key_man(&b);
		fputs(b.s, stdout);
	} else if (argc == 3 && !strcmp(argv[1], "--man-update")) {
		key_man(&b);
		rc = man_update(argv[2], b.s);
	} else if ((argc == 3 || argc == 4) && !strcmp(argv[1], "--help")) {
		key_help_lines(&b, argv[2], argc == 4 ? atoi(argv[3]) : 100);
		fputs(b.s ? b.s : "", stdout);
	} else if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < key_table_n; i++) {
			const struct key_entry *e = &key_table[i];

			printf("%s\t%s\t%d\t%d\t%s\t%s\t%s\n", e->screen, e->keys, (int)e->action,
			       (int)e->bar, e->bar_key ? e->bar_key : "", e->hint ? e->hint : "",
			       e->help);
		}
	} else if (argc == 2 && !strcmp(argv[1], "--codes")) {
		for (size_t i = 0; i < key_table_n; i++)
			for (int k = 0; k < KEY_MAX_CODES && key_table[i].codes[k]; k++) {
				char name[32];

				code_name(key_table[i].codes[k], name, sizeof(name));
				printf("%s %s %d\n", key_table[i].screen, name,
				       (int)key_table[i].action);
			}
	} else {
		fprintf(stderr, "usage: keytable_gen --man | --man-update FILE | --help ID [WIDTH] "
				"| --list | --codes\n");
		rc = 2;
	}
	sbuf_free(&b);
	return rc;
}
