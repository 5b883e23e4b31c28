/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.c, see
 * doc/fuzzing.md). Each harness is one LLVMFuzzerTestOneInput over a pure
 * parser; these turn the raw input into the NUL-terminated text the parsers
 * take, and split it in two where a harness compares two samples. */
#ifndef TT_FUZZ_H
#define TT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy of data[0..size) (an embedded NUL ends the text, as
 * it would in a file read into a C string). Free it. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Split at the first NUL: *a = the part before, *b = the part after (NULL
 * when there is no NUL). Both point into one allocation: free *a only. */
static inline void fuzz_split(const uint8_t *data, size_t size, char **a, char **b)
{
	char *s = fuzz_text(data, size);
	size_t n = strlen(s);

	*a = s;
	*b = n < size ? s + n + 1 : NULL;
}

/* Abort (a crash libFuzzer reports) when cond is false. */
#define FUZZ_ASSERT(cond)                                                                          \
	do {                                                                                       \
		if (!(cond))                                                                       \
			fuzz_fail(__FILE__, __LINE__, #cond);                                      \
	} while (0)

#include <stdio.h>
static inline void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: property does not hold: %s\n", file, line, what);
	abort();
}

#endif
