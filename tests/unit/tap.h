/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Minimal TAP producer for C unit tests (run by Automake's tap-driver). */
#ifndef TT_TESTS_TAP_H
#define TT_TESTS_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, name)                                                                    \
	do {                                                                                       \
		long long g_ = (long long)(got), w_ = (long long)(want);                           \
		if (!ok(g_ == w_, "%s", name))                                                     \
			printf("#   got %lld, want %lld\n", g_, w_);                               \
	} while (0)
#define is_str(got, want, name)                                                                    \
	do {                                                                                       \
		const char *g_ = (got), *w_ = (want);                                              \
		if (!ok(g_ && w_ && strcmp(g_, w_) == 0, "%s", name))                              \
			printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)",                    \
			       w_ ? w_ : "(null)");                                                \
	} while (0)
#define is_dbl(got, want, eps, name)                                                               \
	do {                                                                                       \
		double g_ = (got), w_ = (want);                                                    \
		if (!ok(fabs(g_ - w_) <= (eps), "%s", name))                                       \
			printf("#   got %.6f, want %.6f\n", g_, w_);                               \
	} while (0)
#define skip_all(reason)                                                                           \
	do {                                                                                       \
		printf("1..0 # SKIP %s\n", reason);                                                \
		exit(0);                                                                           \
	} while (0)

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

/* Path of a fixture: $FIXTURES/<name> (set by make check). */
static inline const char *fixture(const char *name)
{
	static char buf[1024];
	const char *base = getenv("FIXTURES");

	snprintf(buf, sizeof(buf), "%s/%s", base ? base : "tests/fixtures", name);
	return buf;
}

#endif
