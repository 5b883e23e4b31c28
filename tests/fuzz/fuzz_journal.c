/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the undo journal reader (src/knob/journal.c: one tab-separated
 * record per line, a CRC-32 last). A fuzzer cannot guess CRCs, so when the
 * input starts with '+' the harness appends a correct "crc=" field to every
 * line of the rest, and the record decoder proper sees the input.
 * Every record that loads must encode and decode again to the same fields. */
#include <stdio.h>

#include "core/str.h"
#include "knob/journal.h"
#include "fuzz.h"

static void with_crcs(const uint8_t *data, size_t size, struct sbuf *out)
{
	const char *p = (const char *)data, *end = p + size;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		sbuf_putn(out, p, n);
		sbuf_printf(out, "\tcrc=%08x", (unsigned)journal_crc32(p, n));
		if (nl)
			sbuf_putc(out, '\n');
		p += n + (nl ? 1 : 0);
	}
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void roundtrip(const struct jrec *r)
{
	struct sbuf line;
	struct jrec back;

	sbuf_init(&line);
	jrec_encode(r, &line);
	FUZZ_ASSERT(line.len > 0 && line.s[line.len - 1] == '\n');
	FUZZ_ASSERT(memchr(line.s, '\n', line.len - 1) == NULL);
	FUZZ_ASSERT(jrec_decode(line.s, line.len - 1, &back) == 0);
	FUZZ_ASSERT(back.type == r->type);
	if (r->type == 'W' || r->type == 'S')
		FUZZ_ASSERT(back.seq == r->seq);
	if (r->type == 'W') {
		FUZZ_ASSERT(same(back.addr, r->addr) && same(back.target, r->target));
		FUZZ_ASSERT(same(back.old, r->old) && same(back.new_value, r->new_value));
		FUZZ_ASSERT(back.rawlen == r->rawlen);
		FUZZ_ASSERT(!r->raw || !memcmp(back.raw, r->raw, r->rawlen));
	}
	if (r->type != 'W' && r->type != 'S')
		FUZZ_ASSERT(back.ref == r->ref);
	jrec_free(&back);
	sbuf_free(&line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jrec *recs;
	size_t n;
	int torn;
	struct sbuf text;

	sbuf_init(&text);
	if (size && data[0] == '+')
		with_crcs(data + 1, size - 1, &text);
	else
		sbuf_putn(&text, (const char *)data, size);
	journal_parse(text.s ? text.s : "", text.len, &recs, &n, &torn);
	FUZZ_ASSERT(torn >= 0);
	for (size_t i = 0; i < n; i++)
		roundtrip(&recs[i]);
	jrec_free_all(recs, n);
	sbuf_free(&text);
	return 0;
}
