/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the strict number parsers every sysfs / procfs value goes through
 * (src/core/str.c: str_to_u64, str_to_i64, str_to_int, str_to_double,
 * str_to_hex_u64) and the white space helpers. A number that parses prints
 * and parses back to itself; the parsers agree with each other. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "core/str.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), buf[64], *tok[16];
	uint64_t u, u2;
	int64_t i, i2;
	int n;
	double d;

	if (str_to_u64(text, &u) == 0) {
		snprintf(buf, sizeof(buf), "%" PRIu64, u);
		FUZZ_ASSERT(str_to_u64(buf, &u2) == 0 && u2 == u);
	}
	if (str_to_i64(text, &i) == 0) {
		snprintf(buf, sizeof(buf), "%" PRId64, i);
		FUZZ_ASSERT(str_to_i64(buf, &i2) == 0 && i2 == i);
		if (i >= 0 && isdigit((unsigned char)text[strspn(text, " \t\n\v\f\r")]))
			FUZZ_ASSERT(str_to_u64(text, &u) == 0 && u == (uint64_t)i);
		FUZZ_ASSERT(str_to_double(text, &d) == 0);
	}
	if (str_to_int(text, &n) == 0)
		FUZZ_ASSERT(str_to_i64(text, &i) == 0 && i == n);
	if (str_to_double(text, &d) == 0)
		FUZZ_ASSERT(!isnan(d));
	if (str_to_hex_u64(text, &u) == 0) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, u);
		FUZZ_ASSERT(str_to_hex_u64(buf, &u2) == 0 && u2 == u);
	}
	{
		char *t = str_trim(text);
		size_t k = strlen(t);

		FUZZ_ASSERT(!k || (t[0] != ' ' && t[k - 1] != ' '));
		k = str_split_ws(t, tok, 16);
		FUZZ_ASSERT(k <= 16);
		for (size_t j = 0; j < k; j++)
			FUZZ_ASSERT(*tok[j] && !strpbrk(tok[j], " \t\n"));
	}
	free(text);
	return 0;
}
