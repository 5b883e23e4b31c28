/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ini_dump FILE...: what the INI parser this build links (libinih, or the
 * bundled src/third_party/inih) makes of each file, as plain text, so that
 * tests/cli/small_builds.sh can compare a system-inih build with a
 * --with-inih=bundled one. NAME.profile goes through knob_profile_load(),
 * NAME.theme through theme_parse(), anything else through ini_parse()
 * with a handler that prints every call (and refuses names starting with
 * "bad", to exercise the handler-error path). Not a test by itself. */
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob.h"
#include "ui/theme.h"

static int on_pair(void *user, const char *section, const char *name, const char *value)
{
	(void)user;
	printf("  [%s] <%s> = <%s>\n", section, name, value);
	return strncmp(name, "bad", 3) != 0;
}

static void dump_profile(const char *path)
{
	struct knob_profile p;
	char *cause = NULL;

	memset(&p, 0, sizeof(p));
	if (knob_profile_load(path, &p, &cause) != 0) {
		printf("  error: %s\n", cause ? cause : "?");
		free(cause);
		return;
	}
	printf("  name <%s> description <%s>\n", p.name, p.description ? p.description : "");
	for (size_t i = 0; i < p.nmatch; i++)
		printf("  match <%s>\n", p.match[i]);
	for (size_t i = 0; i < p.n; i++)
		printf("  %s: <%s>\n", p.label[i], p.assign[i]);
	knob_profile_free(&p);
}

static void dump_theme(const char *path)
{
	FILE *f = fopen(path, "r");
	struct sbuf text, errs;
	struct theme t;
	char buf[4096];
	size_t n;
	int r;

	if (!f) {
		printf("  cannot open\n");
		return;
	}
	sbuf_init(&text);
	sbuf_init(&errs);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sbuf_putn(&text, buf, n);
	fclose(f);
	r = theme_parse(text.s ? text.s : "", &t, &errs);
	printf("  result %d name <%s> description <%s> mono %d\n", r, t.name, t.description,
	       t.mono);
	for (int i = 0; i < ROLE_COUNT; i++)
		printf("  %s fg %d bg %d attrs %#x\n", theme_role_name((enum role)i), t.style[i].fg,
		       t.style[i].bg, t.style[i].attrs);
	printf("  errors: %s\n", errs.s ? errs.s : "");
	sbuf_free(&text);
	sbuf_free(&errs);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *f = argv[i], *base = strrchr(f, '/');

		printf("%s:\n", base ? base + 1 : f);
		if (str_ends(f, ".profile"))
			dump_profile(f);
		else if (str_ends(f, ".theme"))
			dump_theme(f);
		else
			printf("  ini_parse: %d\n", ini_parse(f, on_pair, NULL));
	}
	return 0;
}
