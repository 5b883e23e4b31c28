/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An app's own metric: the numbers a --metric REGEX (POSIX ERE, the first
 * capture group) finds in the lines an app prints (`exec --metric`) or
 * appends to its log (`watch/ab --metric-file LOG`), collected in order for
 * a summary (n, p50, p99, max: nearest rank, ceil(q * n), the rule of
 * stats_rank() in probe/stats.c, so the numbers match the probe's). In core
 * because exec (knob layer) uses it too. No I/O here. Functions return 0 or
 * -errno. */
#ifndef TT_CORE_APPMETRIC_H
#define TT_CORE_APPMETRIC_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct appmetric {
	regex_t re;
	bool have_re;
	double *val; /* the numbers, in order */
	size_t n, cap;
	double last;	   /* NAN before the first */
	uint64_t unparsed; /* matches whose capture was not a number */
};

/* Compile regex: -EINVAL with a one-line reason ("--metric 'x(': ...") when
 * it does not compile or has no capture group. */
int appmetric_init(struct appmetric *m, const char *regex, char *why, size_t cap);

/* Pure: the number the first group of re captures in line. 1 = *x set,
 * 0 = no match, -EINVAL = a match that is not a finite number. */
int appmetric_parse(const regex_t *re, const char *line, double *x);

/* One line: its number is appended when it has one. Returns 1 if it had. */
int appmetric_line(struct appmetric *m, const char *line);

struct appmetric_summary {
	size_t n;
	double min, mean, p50, p99, max; /* NAN when n = 0 */
};

/* The summary of the values from index `from` on. */
void appmetric_summary(const struct appmetric *m, size_t from, struct appmetric_summary *s);

void appmetric_free(struct appmetric *m);

#endif
