/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU bitmaps and CPU-list parsing/formatting. */
#include "core/cpumask.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"

void cpumask_zero(struct cpumask *m)
{
	memset(m, 0, sizeof(*m));
}

void cpumask_set(struct cpumask *m, int cpu)
{
	if (cpu >= 0 && cpu < TT_MAX_CPUS)
		m->w[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

void cpumask_clear(struct cpumask *m, int cpu)
{
	if (cpu >= 0 && cpu < TT_MAX_CPUS)
		m->w[cpu / 64] &= ~(UINT64_C(1) << (cpu % 64));
}

int cpumask_count(const struct cpumask *m)
{
	int n = 0;

	for (size_t i = 0; i < TT_MAX_CPUS / 64; i++)
		n += __builtin_popcountll(m->w[i]);
	return n;
}

bool cpumask_empty(const struct cpumask *m)
{
	for (size_t i = 0; i < TT_MAX_CPUS / 64; i++)
		if (m->w[i])
			return false;
	return true;
}

bool cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

void cpumask_and(struct cpumask *a, const struct cpumask *b)
{
	for (size_t i = 0; i < TT_MAX_CPUS / 64; i++)
		a->w[i] &= b->w[i];
}

void cpumask_or(struct cpumask *a, const struct cpumask *b)
{
	for (size_t i = 0; i < TT_MAX_CPUS / 64; i++)
		a->w[i] |= b->w[i];
}

void cpumask_andnot(struct cpumask *a, const struct cpumask *b)
{
	for (size_t i = 0; i < TT_MAX_CPUS / 64; i++)
		a->w[i] &= ~b->w[i];
}

int cpumask_last(const struct cpumask *m)
{
	for (int i = TT_MAX_CPUS / 64 - 1; i >= 0; i--)
		if (m->w[i])
			return i * 64 + 63 - __builtin_clzll(m->w[i]);
	return -1;
}

static int parse_num(const char **p, long *out)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	*out = strtol(*p, &end, 10);
	if (errno)
		return -ERANGE;
	*p = end;
	return 0;
}

/* One item at *p: a CPU number, or with ranges also N-M and N-M:STRIDE; its
 * CPUs are set in m. */
static int parse_item(const char **p, struct cpumask *m, bool ranges)
{
	long a, b, stride = 1;

	if (parse_num(p, &a))
		return -EINVAL;
	b = a;
	if (ranges && **p == '-') {
		(*p)++;
		if (parse_num(p, &b))
			return -EINVAL;
		if (**p == ':') {
			(*p)++;
			if (parse_num(p, &stride) || stride < 1)
				return -EINVAL;
		}
	}
	if (b < a)
		return -EINVAL;
	if (b >= TT_MAX_CPUS)
		return -ERANGE;
	/* c + stride may not fit a long ("1-2:9223372036854775807") */
	for (long c = a;; c += stride) {
		cpumask_set(m, (int)c);
		if (b - c < stride)
			break;
	}
	return 0;
}

/* Items with white space around: with ranges, a comma between them (the
 * cpulist format); else white space (related_cpus). */
static int parse_list(const char *s, struct cpumask *out, bool ranges)
{
	struct cpumask m;
	const char *p = s;

	cpumask_zero(&m);
	if (!s)
		return -EINVAL;
	while (isspace((unsigned char)*p))
		p++;
	while (*p && !isspace((unsigned char)*p)) {
		int e = parse_item(&p, &m, ranges);

		if (e)
			return e;
		if (ranges && *p == ',')
			p++;
		else if (*p && !isspace((unsigned char)*p))
			return -EINVAL;
		while (!ranges && isspace((unsigned char)*p))
			p++;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		return -EINVAL;
	*out = m;
	return 0;
}

int cpulist_parse(const char *s, struct cpumask *out)
{
	return parse_list(s, out, true);
}

int cpulist_parse_spaces(const char *s, struct cpumask *out)
{
	return parse_list(s, out, false);
}

int cpumask_parse_hex(const char *s, struct cpumask *out)
{
	struct cpumask m;
	size_t n;
	int bit = 0;

	cpumask_zero(&m);
	if (!s)
		return -EINVAL;
	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (!n)
		return -EINVAL;
	for (size_t i = n; i-- > 0;) {
		char c = s[i];
		int v;

		if (c == ',')
			continue;
		if (!isxdigit((unsigned char)c))
			return -EINVAL;
		v = isdigit((unsigned char)c) ? c - '0' : (tolower((unsigned char)c) - 'a' + 10);
		for (int k = 0; k < 4; k++, bit++)
			if (v & (1 << k)) {
				if (bit >= TT_MAX_CPUS)
					return -ERANGE;
				cpumask_set(&m, bit);
			}
	}
	*out = m;
	return 0;
}

size_t cpulist_format(const struct cpumask *m, char *buf, size_t cap)
{
	size_t len = 0;
	int c = cpumask_next(m, 0);

	if (cap)
		buf[0] = '\0';
	while (c >= 0) {
		int e = c;
		char tmp[32];
		int n;

		while (cpumask_test(m, e + 1))
			e++;
		if (e == c)
			n = snprintf(tmp, sizeof(tmp), "%s%d", len ? "," : "", c);
		else
			n = snprintf(tmp, sizeof(tmp), "%s%d-%d", len ? "," : "", c, e);
		if (len + (size_t)n < cap)
			memcpy(buf + len, tmp, (size_t)n + 1);
		len += (size_t)n;
		c = cpumask_next(m, e + 1);
	}
	return len;
}

size_t cpumask_format_hex(const struct cpumask *m, int nbits, char *buf, size_t cap)
{
	size_t len = 0;
	int groups = (nbits + 31) / 32;

	if (groups < 1)
		groups = 1;
	if (cap)
		buf[0] = '\0';
	for (int g = groups - 1; g >= 0; g--) {
		uint32_t v = 0;
		char tmp[16];
		int n, digits;

		for (int k = 0; k < 32; k++)
			if (cpumask_test(m, g * 32 + k))
				v |= UINT32_C(1) << k;
		/* The top group is only as wide as needed for nbits (kernel style). */
		digits = 8;
		if (g == groups - 1 && nbits % 32)
			digits = (nbits % 32 + 3) / 4;
		n = snprintf(tmp, sizeof(tmp), "%0*x%s", digits, v, g ? "," : "");
		if (len + (size_t)n < cap)
			memcpy(buf + len, tmp, (size_t)n + 1);
		len += (size_t)n;
	}
	return len;
}

int *cpu_header_parse(char *line, char **tok, size_t maxtok, size_t *ncols, struct cpumask *cpus)
{
	size_t n;
	int *colcpu;

	*ncols = 0;
	if (!line)
		return NULL;
	n = str_split_ws(line, tok, maxtok);
	colcpu = xcalloc(n ? n : 1, sizeof(int));
	for (size_t i = 0; i < n; i++) {
		int cpu;

		if (!str_starts(tok[i], "CPU") || str_to_int(tok[i] + 3, &cpu) || cpu < 0 ||
		    cpu >= TT_MAX_CPUS)
			break;
		colcpu[(*ncols)++] = cpu;
		cpumask_set(cpus, cpu);
	}
	if (*ncols == 0) {
		free(colcpu);
		return NULL;
	}
	return colcpu;
}
