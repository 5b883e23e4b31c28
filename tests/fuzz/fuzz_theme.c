/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the theme reader (src/ui/theme.c: INI through libinih, colour and
 * attribute specs). It never fails on a bad role or colour (those are
 * reported, one line each); every style it keeps is a colour curses takes. */
#include "core/str.h"
#include "ui/theme.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct theme t;
	struct sbuf errs;

	sbuf_init(&errs);
	if (theme_parse(text, &t, &errs) == 0) {
		FUZZ_ASSERT(memchr(t.name, '\0', sizeof(t.name)));
		FUZZ_ASSERT(memchr(t.description, '\0', sizeof(t.description)));
		for (int r = 0; r < ROLE_COUNT; r++) {
			FUZZ_ASSERT(t.style[r].fg >= -1 && t.style[r].fg <= 255);
			FUZZ_ASSERT(t.style[r].bg >= -1 && t.style[r].bg <= 255);
			FUZZ_ASSERT(theme_role_by_name(theme_role_name((enum role)r)) == r);
		}
	}
	/* the style syntax alone, on the first line */
	{
		struct theme_style st;
		char *nl = strchr(text, '\n');

		if (nl)
			*nl = '\0';
		if (theme_parse_style(text, &st) == 0)
			FUZZ_ASSERT(st.fg >= -1 && st.fg <= 255 && st.bg >= -1 && st.bg <= 255);
	}
	sbuf_free(&errs);
	free(text);
	return 0;
}
