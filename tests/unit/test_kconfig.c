/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kconfig_parse() on real config excerpts, odd lines and garbage;
 * kconfig_gunzip() on good, truncated and non-gzip data. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "source/kconfig.h"
#include "tap.h"

static const char rt_text[] = "#\n# Linux/arm64 6.1.75-rt23 Kernel Configuration\n#\n"
			      "CONFIG_CC_VERSION_TEXT=\"gcc (Debian 12.2.0-14) 12.2.0\"\n"
			      "CONFIG_IRQ_FORCED_THREADING=y\n"
			      "# CONFIG_NO_HZ_IDLE is not set\n"
			      "CONFIG_NO_HZ_FULL=y\n"
			      "# CONFIG_PREEMPT is not set\n"
			      "CONFIG_PREEMPT_RT=y\n"
			      "CONFIG_HZ=1000\n"
			      "CONFIG_CPU_FREQ_GOV_POWERSAVE=m\n"
			      "CONFIG_LOCALVERSION=\"-rt\"\n"
			      "# CONFIG_RT_GROUP_SCHED is not set\r\n"
			      "CONFIG_SCHED_DEBUG=y"; /* no final newline */

/* "CONFIG_HZ=250\n" compressed with gzip -9 -n */
static const unsigned char hz_gz[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
				      0x03, 0x73, 0xf6, 0xf7, 0x73, 0xf3, 0x74, 0x8f, 0xf7,
				      0x88, 0xb2, 0x35, 0x32, 0x35, 0xe0, 0x02, 0x00, 0xfb,
				      0x5f, 0x3a, 0x01, 0x0e, 0x00, 0x00, 0x00};

int main(void)
{
	struct kconfig_info k;
	char buf[64];

	memset(&k, 0, sizeof(k));
	is_int(kconfig_parse(rt_text, strlen(rt_text), &k), 0, "RT config parses");
	k.have = true;
	is_int((int)k.nlines, 11, "every CONFIG_ line counted (set and not set)");
	is_str(kconfig_str(&k, KC_PREEMPT_RT), "y", "PREEMPT_RT=y");
	is_str(kconfig_str(&k, KC_PREEMPT), "n", "PREEMPT is not set -> n");
	is_str(kconfig_str(&k, KC_HZ), "1000", "HZ value");
	is_str(kconfig_str(&k, KC_CPU_FREQ_GOV_POWERSAVE), "m", "module -> m");
	is_str(kconfig_str(&k, KC_RT_GROUP_SCHED), "n", "not set with CRLF");
	is_str(kconfig_str(&k, KC_SCHED_DEBUG), "y", "last line without newline");
	ok(kconfig_str(&k, KC_RCU_NOCB_CPU) == NULL, "absent option -> NULL");
	ok(kconfig_disabled(&k, KC_RCU_NOCB_CPU), "absent counts as disabled");
	ok(kconfig_disabled(&k, KC_NO_HZ_IDLE), "not set is disabled");
	ok(kconfig_enabled(&k, KC_NO_HZ_FULL) && !kconfig_disabled(&k, KC_NO_HZ_FULL),
	   "NO_HZ_FULL enabled");
	is_str(kconfig_preempt(&k, buf, sizeof(buf)), "PREEMPT_RT", "preempt model");

	{
		static const char old[] = "CONFIG_PREEMPT_RT_FULL=y\nCONFIG_PREEMPT_DYNAMIC=y\n";

		kconfig_parse(old, strlen(old), &k);
		is_str(kconfig_preempt(&k, buf, sizeof(buf)), "PREEMPT_RT (dynamic)",
		       "PREEMPT_RT_FULL (before 5.3) is PREEMPT_RT");
	}
	{
		static const char *bad[] = {"",		  "garbage\n\x01\x02",	 "CONFIG_=y\n",
					    "CONFIG_X\n", "# CONFIG_X is set\n", "#CONFIG_\n",
					    "CONFIG"};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			ok(kconfig_parse(bad[i], strlen(bad[i]), &k) == -EINVAL,
			   "garbage %zu refused", i);
	}
	{
		static const char weird[] =
			"CONFIG_HZ=\"0123456789012345678901234567890123456789\"\n"
			"CONFIG_NO_HZ_FULL=\n";

		ok(kconfig_parse(weird, strlen(weird), &k) == 0,
		   "long value and empty value parse");
		ok(strlen(kconfig_str(&k, KC_HZ)) == 31, "long value cut to the field");
		ok(kconfig_str(&k, KC_NO_HZ_FULL) == NULL, "empty value is absent");
	}
	{
		char *out = NULL;
		size_t n = 0;
		const char *why = NULL;
		int e = kconfig_gunzip(hz_gz, sizeof(hz_gz), 1 << 20, &out, &n, &why);

#ifdef HAVE_ZLIB
		is_int(e, 0, "gzip inflates");
		ok(out && n == 14 && !strcmp(out, "CONFIG_HZ=250\n"), "inflated text");
		free(out);
		e = kconfig_gunzip(hz_gz, 20, 1 << 20, &out, &n, &why);
		ok(e < 0 && out == NULL && why && strstr(why, "truncated"), "truncated: %s",
		   why ? why : "?");
		e = kconfig_gunzip("CONFIG_HZ=1\n", 12, 1 << 20, &out, &n, &why);
		ok(e == -EINVAL && why && !strcmp(why, "not gzip data"), "plain text is not gzip");
		{
			unsigned char bad[sizeof(hz_gz)];

			memcpy(bad, hz_gz, sizeof(bad));
			bad[12] ^= 0xff;
			bad[14] ^= 0x55;
			e = kconfig_gunzip(bad, sizeof(bad), 1 << 20, &out, &n, &why);
			ok(e < 0 && out == NULL, "corrupt deflate data refused: %s",
			   why ? why : "?");
		}
		e = kconfig_gunzip(hz_gz, sizeof(hz_gz), 4, &out, &n, &why);
		ok(e == -EFBIG && out == NULL, "larger than the cap refused");
#else
		ok(e == -ENOTSUP && why && !strcmp(why, "built without zlib"), "without zlib");
#endif
	}
	return done_testing();
}
