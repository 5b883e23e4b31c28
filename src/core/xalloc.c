/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Allocation wrappers and the fatal-error path. */
#include "core/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*fatal_hook)(void);

void tt_set_fatal_hook(void (*hook)(void))
{
	fatal_hook = hook;
}

void tt_fatal(const char *fmt, ...)
{
	va_list ap;

	if (fatal_hook)
		fatal_hook();
	fputs("tunetop: fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		tt_fatal("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		tt_fatal("out of memory (%zu x %zu bytes)", nmemb, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		tt_fatal("out of memory (%zu bytes)", n);
	return q;
}

void xfree_each(void *const *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i]);
}

void *xgrow(void *p, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap;

	if (need <= c)
		return p;
	if (c < 8)
		c = 8;
	while (c < need)
		c *= 2;
	p = xrealloc(p, c * elem);
	*cap = c;
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		tt_fatal("out of memory (asprintf)");
	return s;
}

void *xdup_array(const void *p, size_t n, size_t elem)
{
	void *q;

	if (!p || !n)
		return NULL;
	q = xmalloc(n * elem);
	memcpy(q, p, n * elem);
	return q;
}
