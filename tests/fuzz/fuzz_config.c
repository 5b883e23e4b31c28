/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the tunetoprc reader (src/ui/config.c: key=value lines checked
 * against the key table). Whatever it accepts must be written back by
 * config_format() as a file that reads again without a problem and to the
 * same settings. */
#include "core/str.h"
#include "ui/config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ui_config c, back;
	struct sbuf errs, out, out2;

	sbuf_init(&errs);
	sbuf_init(&out);
	sbuf_init(&out2);
	config_defaults(&c);
	(void)config_parse(text, &c, &errs);
	config_format(&c, &out);
	config_defaults(&back);
	FUZZ_ASSERT(config_parse(out.s ? out.s : "", &back, NULL) == 0);
	config_format(&back, &out2);
	FUZZ_ASSERT(out.len == out2.len && !memcmp(out.s, out2.s, out.len));
	sbuf_free(&errs);
	sbuf_free(&out);
	sbuf_free(&out2);
	free(text);
	return 0;
}
