/* SPDX-License-Identifier: GPL-2.0-or-later */
/* err_name() names every Linux errno (src/core/err.c): each code 1..133
 * that Linux assigns gets its E-name, never "E?27"; where glibc has
 * strerrorname_np() the names agree with it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "tap.h"

static int real_name(const char *s)
{
	if (!s || s[0] != 'E' || !s[1])
		return 0;
	for (const char *p = s + 1; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return 0;
	return 1;
}

int main(void)
{
	int bad = 0;

	is_str(err_name(0), "OK", "0 is OK");
	is_str(err_name(-EFBIG), "EFBIG", "-EFBIG is EFBIG (was E?27)");
	is_str(err_name(EFBIG), "EFBIG", "EFBIG positive");
	is_str(err_name(EAGAIN), "EAGAIN", "EAGAIN, not its alias EWOULDBLOCK");
	is_str(err_name(EDEADLK), "EDEADLK", "EDEADLK, not its alias EDEADLOCK");
	is_str(err_name(EOPNOTSUPP), "EOPNOTSUPP", "EOPNOTSUPP, not its alias ENOTSUP");
	is_str(err_name(-EHWPOISON), "EHWPOISON", "the last one, 133");
	is_str(err_name(EKEYREJECTED), "EKEYREJECTED", "EKEYREJECTED");
	is_str(err_name(ESPIPE), "ESPIPE", "ESPIPE");
	for (int e = 1; e <= 133; e++) {
		const char *n;

		if (e == 41 || e == 58)
			continue; /* not assigned on Linux (asm-generic/errno.h) */
		n = err_name(-e);
		if (!real_name(n)) {
			printf("# errno %d: '%s'\n", e, n);
			bad++;
		}
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
		else if (strerrorname_np(e) && strcmp(n, strerrorname_np(e)) != 0) {
			printf("# errno %d: '%s', glibc says '%s'\n", e, n, strerrorname_np(e));
			bad++;
		}
#endif
	}
	is_int(bad, 0, "every errno 1..133 Linux assigns has its name");
	ok(!strcmp(err_name(41), "E?41"), "41 (unassigned) stays E?41");
	ok(!strcmp(err_name(4095), "E?4095"), "an unknown code is E?N");
	return done_testing();
}
