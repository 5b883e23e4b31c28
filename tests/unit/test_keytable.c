/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the TUI's key table (src/ui/keys.def, src/ui/keytable.c):
 * its rules (every entry has help text, a hint has a bar key, global keys
 * have an action, no key twice on one screen, sections in order), the key
 * bars it gives (the same words in the same order as the per-screen arrays
 * it replaced), the lookup the dispatch uses, the Help lines and the man
 * page list. tests/tui/keys.sh checks them against the running TUI, the
 * man page and the screens' key functions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>

#include "core/str.h"
#include "tap.h"
#include "ui/keytable.h"

#define diag(...) (printf("# "), printf(__VA_ARGS__), printf("\n"))

/* The bar of part for screen as "F1 Help|F2 Setup". */
static void bar_of(const char *screen, enum key_bar part, char *out, size_t cap)
{
	out[0] = '\0';
	for (size_t i = 0; i < key_table_n; i++) {
		const struct key_entry *e = &key_table[i];

		if (e->bar != part || strcmp(e->screen, screen))
			continue;
		snprintf(out + strlen(out), cap - strlen(out), "%s%s %s", out[0] ? "|" : "",
			 e->bar_key, e->hint);
	}
}

static int section_index(const char *screen)
{
	for (size_t s = 0; s < key_sections_n; s++)
		if (!strcmp(key_sections[s].screen, screen))
			return (int)s;
	return -1;
}

static void test_rules(void)
{
	int bad_help = 0, bad_hint = 0, bad_bar = 0, bad_action = 0, bad_codes = 0, dups = 0,
	    bad_section = 0, last_section = 0;

	ok(key_table_n > 50, "the table has the keys (%zu)", key_table_n);
	ok(key_sections_n >= 14, "a section per screen, global and replay (%zu)", key_sections_n);
	is_str(key_sections[0].screen, "global", "global keys come first");
	for (size_t s = 0; s < key_sections_n; s++)
		for (size_t s2 = s + 1; s2 < key_sections_n; s2++)
			if (!strcmp(key_sections[s].screen, key_sections[s2].screen))
				bad_section++;
	for (size_t i = 0; i < key_table_n; i++) {
		const struct key_entry *e = &key_table[i];
		bool global = !strcmp(e->screen, "global");
		int ncodes = 0, sec = section_index(e->screen);

		if (!e->help || !e->help[0] || !e->keys || !e->keys[0]) {
			diag("%s %s: no keys or help", e->screen, e->keys ? e->keys : "?");
			bad_help++;
		}
		if (!e->hint != !e->bar_key || !e->hint != (e->bar == KB_NONE) ||
		    (e->hint && (!e->hint[0] || !e->bar_key[0]))) {
			diag("%s %s: hint, bar key and bar disagree", e->screen, e->keys);
			bad_hint++;
		}
		if ((global && e->bar == KB_SCREEN) ||
		    (!global && (e->bar == KB_HEAD || e->bar == KB_TAIL))) {
			diag("%s %s: KB_HEAD/KB_TAIL are for global keys, KB_SCREEN for the others",
			     e->screen, e->keys);
			bad_bar++;
		}
		if (global ? e->action == KA_SCREEN : e->action != KA_SCREEN) {
			diag("%s %s: global keys have a KA_ action, screen keys KA_SCREEN",
			     e->screen, e->keys);
			bad_action++;
		}
		while (ncodes < KEY_MAX_CODES && e->codes[ncodes])
			ncodes++;
		if (ncodes == KEY_MAX_CODES || (e->action == KA_NONE) != (ncodes == 0)) {
			diag("%s %s: %d codes (documented-only keys have none, the others some)",
			     e->screen, e->keys, ncodes);
			bad_codes++;
		}
		for (int k = 0; k < ncodes; k++) {
			for (int k2 = k + 1; k2 < ncodes; k2++)
				dups += e->codes[k] == e->codes[k2];
			for (size_t j = i + 1; j < key_table_n; j++)
				if (!strcmp(key_table[j].screen, e->screen) &&
				    key_has_code(&key_table[j], e->codes[k])) {
					diag("%s: code %d in '%s' and '%s'", e->screen, e->codes[k],
					     e->keys, key_table[j].keys);
					dups++;
				}
		}
		if (sec < last_section) {
			diag("%s %s: not under its SECTION", e->screen, e->keys);
			bad_section++;
		}
		if (sec >= 0)
			last_section = sec;
		else
			bad_section++;
	}
	is_int(bad_help, 0, "every key has keys and help text");
	is_int(bad_hint, 0, "every hint has a bar key and a place in the bar");
	is_int(bad_bar, 0, "head / tail hints are global, screen hints are a screen's");
	is_int(bad_action, 0, "global keys have an action, screen keys go to the screen");
	is_int(bad_codes, 0, "keys have codes, documented-only ones none");
	is_int(dups, 0, "no key twice on one screen");
	is_int(bad_section, 0, "every key is under its screen's SECTION, sections unique");
}

/* The bars are those of the per-screen arrays the table replaced. */
static void test_bars(void)
{
	static const struct {
		const char *screen, *bar;
	} want[] = {
		{"cores", "g Gov|f Freq|i Idle|e Explain"},
		{"clocks", "g Gov|f Freq|e Explain"},
		{"rt", "r Runtime|l DMA-lat|e Explain"},
		{"journal", "u UndoSel|O Orphans"},
		{"setup", "Enter Change"},
		{"help", ""},
		{"threads", "a Affin|F7/F8 Nice|p Policy|c Uclamp|W Scope|F3 Search|F4 Filter|t "
			    "Tree|F6 Sort|K Kthr|C Count"},
		{"irqs", "a Move|<-/-> CPUs"},
		{"isolation", "m MoveAll|a Apply|t Try"},
		{"latency", "s Start/Stop|r Reset|w Why|f Fix|A A/B|x Cancel"},
		{"findings", "a ApplyFix|e Explain"},
		{"lessons", "Enter Next|t Toggle|Esc Leave"},
		{"replay", "Spc Play|. Step|, Back|[] Seek|+- Speed"},
	};
	char got[512];

	bar_of("global", KB_HEAD, got, sizeof(got));
	is_str(got, "F1 Help|F2 Setup", "key bar head");
	bar_of("global", KB_TAIL, got, sizeof(got));
	is_str(got, "u Undo|U Restore|Tab Screen|F10 Quit", "key bar tail");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char name[64];

		bar_of(want[i].screen, KB_SCREEN, got, sizeof(got));
		snprintf(name, sizeof(name), "key bar of %s", want[i].screen);
		is_str(got, want[i].bar, name);
		ok(section_index(want[i].screen) >= 0, "%s has a section", want[i].screen);
	}
}

static void test_find(void)
{
	const struct key_entry *e;

	e = key_find("global", KEY_F(1));
	ok(e && e->action == KA_HELP, "F1: Help");
	e = key_find("global", 'h');
	ok(e && e->action == KA_HELP, "h: Help");
	e = key_find("global", '\t');
	ok(e && e->action == KA_NEXT, "Tab: next screen");
	e = key_find("global", '0');
	ok(e && e->action == KA_NUMBER, "0: screen by number");
	e = key_find("global", KEY_F(10));
	ok(e && e->action == KA_QUIT, "F10: quit");
	ok(key_find("global", 'x') == NULL, "x is no global key");
	ok(key_find("global", 0) == NULL, "code 0 is no key (documented-only entries)");
	e = key_find("threads", KEY_F(7));
	ok(e && e->action == KA_SCREEN && !strcmp(e->keys, "F7 ]"), "F7 on Threads: nice");
	ok(key_find("cores", 'x') == NULL, "x is no Cores key");
	ok(key_find("nosuch", 'g') == NULL, "an unknown screen has no keys");
	/* tests/tui/keys.sh reads keytable_gen --codes' action numbers */
	ok(KA_HELP == 2 && KA_SETUP == 3 && KA_GOTO == 4, "KA_HELP 2, KA_SETUP 3, KA_GOTO 4");
	e = key_find("replay", '=');
	ok(e && !strcmp(e->keys, "+ -"), "= is replay's faster too");
}

static void test_help(void)
{
	struct sbuf b;
	int missing = 0, wide = 0;

	for (size_t s = 0; s < key_sections_n; s++) {
		sbuf_init(&b);
		key_help_lines(&b, key_sections[s].screen, 90);
		for (size_t i = 0; i < key_table_n; i++)
			if (!strcmp(key_table[i].screen, key_sections[s].screen)) {
				char first[24];

				/* the keys, and the sentence's start */
				snprintf(first, sizeof(first), "%s", key_table[i].help);
				if (!b.s || !strstr(b.s, key_table[i].keys) ||
				    !strstr(b.s, first)) {
					diag("%s: %s missing", key_sections[s].screen,
					     key_table[i].keys);
					missing++;
				}
			}
		for (const char *p = b.s; p && *p;) {
			size_t n = strcspn(p, "\n");

			wide += n > 90;
			p += n + (p[n] == '\n');
		}
		sbuf_free(&b);
	}
	is_int(missing, 0, "Help lists every key with its sentence");
	is_int(wide, 0, "Help's key lines fit the width");
	sbuf_init(&b);
	key_help_lines(&b, "global", 90);
	/* keys at column 2, sentences at 16 (as the prose columns of Help),
	 * the second key of a pair at 46, its sentence at 60 */
	ok(b.s && strstr(b.s, "\n  !"
			      "             Findings"),
	   "short global keys: two to a line");
	ok(b.s && strstr(b.s, "  Findings"
			      "                      L"
			      "             Lessons\n"),
	   "the second one at column 46");
	sbuf_free(&b);
}

static void test_man(void)
{
	struct sbuf b;
	int bad = 0, tp = 0;

	sbuf_init(&b);
	key_man(&b);
	for (const char *p = b.s; p && *p;) {
		size_t n = strcspn(p, "\n");

		if (*p == '.' && strncmp(p, ".TP\n", 4) && strncmp(p, ".B ", 3) &&
		    strncmp(p, ".SS ", 4) && strncmp(p, ".PP\n", 4)) {
			diag("request line: %.*s", (int)n, p);
			bad++;
		}
		if (*p == '\'')
			bad++;
		tp += !strncmp(p, ".TP\n", 4);
		p += n + (p[n] == '\n');
	}
	is_int(bad, 0, "the man list uses .SS .PP .TP .B only");
	is_int(tp, (int)key_table_n, "one .TP per key");
	ok(strstr(b.s, ".TP\n.B \"F1, h\"\nThe Help screen.\n") != NULL, "F1, h: This help.");
	ok(strstr(b.s, ".B \"F4, \\e\"\n") != NULL, "a backslash key is \\e");
	ok(strstr(b.s, "(or \\-\\-keep).") != NULL, "- is \\-");
	ok(strstr(b.s, ".SS \"Keys by screen\"\n") != NULL, "screen keys in their own subsection");
	sbuf_free(&b);
}

int main(void)
{
	test_rules();
	test_bars();
	test_find();
	test_help();
	test_man();
	return done_testing();
}
