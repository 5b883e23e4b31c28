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
#include "core/appmetric.h"

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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* nearest rank: the ceil(q * n)-th smallest (stats_rank in probe/stats.c) */
static double at_quantile(const double *v, size_t n, double q)
{
	double r = ceil(q * (double)n - q * (double)n * 1e-12);

	if (r < 1.0)
		r = 1.0;
	if (r > (double)n)
		r = (double)n;
	return v[(size_t)r - 1];
}

void appmetric_summary(const struct appmetric *m, size_t from, struct appmetric_summary *s)
{
	double *v, sum = 0.0;
	size_t n;

	if (from > m->n)
		from = m->n;
	n = m->n - from;
	s->n = n;
	s->min = s->mean = s->p50 = s->p99 = s->max = NAN;
	if (!n)
		return;
	v = xmalloc(n * sizeof(*v));
	memcpy(v, m->val + from, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	s->min = v[0];
	s->max = v[n - 1];
	s->mean = sum / (double)n;
	s->p50 = at_quantile(v, n, 0.50);
	s->p99 = at_quantile(v, n, 0.99);
	free(v);
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
