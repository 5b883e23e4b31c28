/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The app metric (appmetric.h): compiling a --metric regex, taking the
 * number out of a line, keeping the numbers and summarizing them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "probe/appmetric.h"

int appmetric_init(struct appmetric *m, const char *regex, char *why, size_t cap)
{
	int rc;

	memset(m, 0, sizeof(*m));
	m->last = NAN;
	rc = regcomp(&m->re, regex, REG_EXTENDED | REG_NEWLINE);
	if (rc) {
		char msg[128];

		regerror(rc, &m->re, msg, sizeof(msg));
		snprintf(why, cap, "--metric '%s': %s", regex, msg);
		return -EINVAL;
	}
	m->have_re = true;
	if (m->re.re_nsub < 1) {
		snprintf(why, cap,
			 "--metric '%s': needs a capture group around the number, e.g. "
			 "'latency=([0-9.]+)'",
			 regex);
		appmetric_free(m);
		return -EINVAL;
	}
	return 0;
}

int appmetric_parse(const regex_t *re, const char *line, double *x)
{
	regmatch_t mt[2];
	char num[64];
	size_t n;

	if (regexec(re, line, 2, mt, 0) || mt[1].rm_so < 0)
		return 0;
	n = (size_t)(mt[1].rm_eo - mt[1].rm_so);
	if (n >= sizeof(num))
		return -EINVAL;
	memcpy(num, line + mt[1].rm_so, n);
	num[n] = '\0';
	if (str_to_double(num, x) || !isfinite(*x))
		return -EINVAL;
	return 1;
}

int appmetric_line(struct appmetric *m, const char *line)
{
	double x;
	int rc = appmetric_parse(&m->re, line, &x);

	if (rc < 0) {
		m->unparsed++;
		return 0;
	}
	if (rc == 0)
		return 0;
	m->val = xgrow(m->val, &m->cap, m->n + 1, sizeof(*m->val));
	m->val[m->n++] = x;
	m->last = x;
	return 1;
}

void appmetric_summary(const struct appmetric *m, size_t from, struct stats_summary *s)
{
	struct stats_dist d;

	if (from > m->n)
		from = m->n;
	stats_dist_from_values(&d, m->val + from, m->n - from);
	stats_summarize(&d, s);
	stats_dist_free(&d);
}

void appmetric_free(struct appmetric *m)
{
	if (m->have_re)
		regfree(&m->re);
	m->have_re = false;
	free(m->val);
	m->val = NULL;
	m->n = m->cap = 0;
}
