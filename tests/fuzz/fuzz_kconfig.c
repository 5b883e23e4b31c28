/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the kernel configuration reader (src/source/kconfig.c): the input
 * is parsed as config text, and inflated as gzip (a config.gz) and the
 * inflated text parsed too. */
#include <stdlib.h>

#include "source/kconfig.h"
#include "fuzz.h"

static void check(const struct kconfig_info *k)
{
	char buf[64];

	for (int i = 0; i < KCONFIG_NOPTS; i++) {
		const char *v = kconfig_str(k, (enum kconfig_id)i);

		FUZZ_ASSERT(!v || strlen(v) < sizeof(k->opt[0].val));
		FUZZ_ASSERT(!(kconfig_enabled(k, (enum kconfig_id)i) &&
			      kconfig_disabled(k, (enum kconfig_id)i)));
	}
	(void)kconfig_preempt(k, buf, sizeof(buf));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kconfig_info k;
	const char *why = NULL;
	char *text = NULL;
	size_t len = 0;

	memset(&k, 0, sizeof(k));
	if (kconfig_parse((const char *)data, size, &k) == 0) {
		FUZZ_ASSERT(k.nlines > 0);
		k.have = true;
		check(&k);
	}
	if (kconfig_gunzip(data, size, 1u << 20, &text, &len, &why) == 0) {
		FUZZ_ASSERT(text && text[len] == '\0' && len <= 1u << 20);
		memset(&k, 0, sizeof(k));
		if (kconfig_parse(text, len, &k) == 0) {
			k.have = true;
			check(&k);
		}
	} else {
		FUZZ_ASSERT(!text && why);
	}
	free(text);
	return 0;
}
