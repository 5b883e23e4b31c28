/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz knob addresses and values (issue 32, item 14): knob_expand()
 * (src/knob/addr.c and each family's expander in src/knob/fam_*.c,
 * listed in registry.c) and knob_validate() / knob_allowed() on the concrete knobs
 * it finds, over the fixture trees (read only: nothing is ever written; the
 * engine is opened with KNOB_NO_JOURNAL).
 *
 * Input: one byte choosing the tree (its value modulo the number of trees,
 * so '0'..'4' are readable), then "ADDRESS=VALUE" (without '=' only the
 * address). Checked besides crashes, UB and leaks:
 *  - a refused address says why (a cause), and is -EINVAL, -ENOENT, -ERANGE
 *    or -ESRCH (a thread that is not there);
 *  - every knob found has a definition and a canonical address without
 *    globs, which expands again to exactly that knob;
 *  - a value accepted is normalized to one line that fits, and the
 *    normalized value is accepted again as itself (validation is
 *    idempotent); a value refused says why, in one line. */
#include <errno.h>

#include "knob/knob.h"
#include "fuzz.h"

#ifndef TT_FUZZ_FIXTURES
#define TT_FUZZ_FIXTURES "tests/fixtures"
#endif

static const char *const boards[] = {"rk3588", "intel", "rpi4", "stm32mp157", "broken"};
#define NBOARDS (sizeof(boards) / sizeof(boards[0]))
static struct sysroot roots[NBOARDS];
static struct knob_ctx *ctxs[NBOARDS];

static struct knob_ctx *ctx_of(unsigned char b)
{
	size_t i = b % NBOARDS;

	if (!ctxs[i]) {
		const char *dir = getenv("FIXTURES"); /* run.sh's, else the built-in */
		char path[4096], *cause = NULL;

		snprintf(path, sizeof(path), "%s/%s", dir && *dir ? dir : TT_FUZZ_FIXTURES,
			 boards[i]);
		if (sysroot_open(&roots[i], path) != 0 ||
		    knob_ctx_open(&ctxs[i], &roots[i], NULL, KNOB_NO_JOURNAL, &cause) != 0) {
			fprintf(stderr,
				"fuzz_knobaddr: cannot open the fixture %s (set "
				"FIXTURES)\n",
				path);
			abort();
		}
	}
	return ctxs[i];
}

static void check_value(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value)
{
	char norm[KNOB_VALUE_MAX], again[KNOB_VALUE_MAX], allowed[4096];
	char *cause = NULL;
	int e;

	if (knob_allowed(ctx, ref, allowed, sizeof(allowed)) == 0)
		FUZZ_ASSERT(strlen(allowed) < sizeof(allowed));
	e = knob_validate(ctx, ref, value, norm, sizeof(norm), &cause);
	if (e == 0) {
		FUZZ_ASSERT(strlen(norm) < sizeof(norm) && !strpbrk(norm, "\n\r"));
		FUZZ_ASSERT(norm[0]);
		free(cause);
		cause = NULL;
		FUZZ_ASSERT(knob_validate(ctx, ref, norm, again, sizeof(again), &cause) == 0);
		FUZZ_ASSERT(!strcmp(norm, again));
	} else {
		FUZZ_ASSERT(e < 0);
		FUZZ_ASSERT(cause && *cause && !strchr(cause, '\n'));
	}
	free(cause);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct knob_ctx *ctx;
	struct knob_ref *refs = NULL;
	size_t n = 0;
	char *text, *value, *cause = NULL;
	int e;

	if (size < 1)
		return 0;
	ctx = ctx_of(data[0]);
	text = fuzz_text(data + 1, size - 1);
	value = strchr(text, '=');
	if (value)
		*value++ = '\0';
	e = knob_expand(ctx, text, 0, &refs, &n, &cause);
	if (e) {
		FUZZ_ASSERT(e == -EINVAL || e == -ENOENT || e == -ESRCH || e == -ERANGE);
		FUZZ_ASSERT(cause && *cause);
		FUZZ_ASSERT(n == 0);
	} else {
		FUZZ_ASSERT(n > 0);
	}
	free(cause);
	cause = NULL;
	for (size_t i = 0; i < n && i < 4; i++) {
		struct knob_ref *back = NULL;
		size_t nb = 0;

		FUZZ_ASSERT(refs[i].def && refs[i].addr[0]);
		FUZZ_ASSERT(strlen(refs[i].addr) < sizeof(refs[i].addr));
		FUZZ_ASSERT(!strpbrk(refs[i].addr, "*?["));
		FUZZ_ASSERT(knob_expand(ctx, refs[i].addr, 0, &back, &nb, &cause) == 0);
		FUZZ_ASSERT(nb == 1 && !strcmp(back[0].addr, refs[i].addr));
		FUZZ_ASSERT(back[0].def == refs[i].def && !strcmp(back[0].target, refs[i].target));
		free(back);
		if (value)
			check_value(ctx, &refs[i], value);
	}
	free(cause);
	free(refs);
	free(text);
	return 0;
}
