/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the "why late" event stream (src/probe/whyev.c: why_events_parse,
 * what `tunetop why FILE` reads) and the attribution behind it
 * (src/probe/whyattr.c). A refusal names its line in one sentence; a stream
 * that parses writes back to text that parses to the same events; its
 * attribution gives every late wake-up parts that sum to its delay, and the
 * text and JSON writers run on it. */
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/str.h"
#include "fuzz.h"
#include "probe/whyattr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), why[192], *again = NULL;
	struct why_events s, s2;
	struct why_result r;
	struct sbuf b;
	struct jw w;
	size_t len = 0;
	int line;
	FILE *f;

	if (why_events_parse(text, &s, &line, why, sizeof(why))) {
		FUZZ_ASSERT(line >= 1 && why[0] && !strchr(why, '\n') && s.n == 0);
		free(text);
		return 0;
	}
	f = open_memstream(&again, &len);
	FUZZ_ASSERT(f && why_events_write(&s, f) == 0);
	fclose(f);
	FUZZ_ASSERT(why_events_parse(again, &s2, &line, why, sizeof(why)) == 0);
	FUZZ_ASSERT(s2.n == s.n);
	for (size_t i = 0; i < s.n; i++)
		FUZZ_ASSERT(s.ev[i].ts_ns == s2.ev[i].ts_ns && s.ev[i].kind == s2.ev[i].kind);
	why_events_free(&s2);
	free(again);
	why_events_sort(&s);
	for (size_t i = 1; i < s.n; i++)
		FUZZ_ASSERT(s.ev[i - 1].ts_ns <= s.ev[i].ts_ns);
	FUZZ_ASSERT(why_attribute(&s, NULL, &r) == 0);
	for (size_t i = 0; i < r.n_late; i++) {
		uint64_t sum = 0;

		for (size_t j = 0; j < r.late[i].n_parts; j++)
			sum += r.late[i].parts[j].ns;
		FUZZ_ASSERT(sum == r.late[i].delay_ns);
	}
	f = fopen("/dev/null", "w");
	if (f) {
		why_write_text(&r, f, 3);
		fclose(f);
	}
	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	why_write_json(&r, &w);
	jw_obj_end(&w);
	sbuf_free(&b);
	why_result_free(&r);
	why_events_free(&s);
	free(text);
	return 0;
}
