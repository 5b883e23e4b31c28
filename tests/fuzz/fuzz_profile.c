/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the profile reader (src/knob/profile.c: INI through libinih, with
 * its own line counting, '#' comments after values and duplicate checks).
 * A profile that loads has a description and at least one ADDRESS=VALUE;
 * one that does not says why in one line. */
#include "knob/knob.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct knob_profile p;
	char *cause = NULL;

	if (knob_profile_parse("fuzz.profile", (const char *)data, size, &p, &cause) == 0) {
		FUZZ_ASSERT(!cause && p.description && *p.description && p.n > 0);
		FUZZ_ASSERT(!strcmp(p.name, "fuzz"));
		for (size_t i = 0; i < p.n; i++)
			FUZZ_ASSERT(strchr(p.assign[i], '=') && p.label[i]);
		for (size_t i = 0; i < p.nmatch; i++)
			FUZZ_ASSERT(*p.match[i]);
		knob_profile_free(&p);
		return 0;
	}
	FUZZ_ASSERT(cause && !strchr(cause, '\n'));
	free(cause);
	return 0;
}
