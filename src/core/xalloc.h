/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Allocation that never returns NULL: out of memory is fatal (the only
 * fatal error besides broken invariants). */
#ifndef TT_CORE_XALLOC_H
#define TT_CORE_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
/* Grow an array to hold at least `need` elements; doubles capacity. */
void *xgrow(void *p, size_t *cap, size_t need, size_t elem);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* free() each of the n pointers (NULL ones too). */
void xfree_each(void *const *p, size_t n);
/* free() each pointer given: xfree_all(s->a, s->b, s->c) for the fields of a
 * struct that owns them. */
#define xfree_all(...)                                                                             \
	xfree_each((void *const[]){__VA_ARGS__},                                                   \
		   sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

/* Hook run before aborting on fatal errors (the UI restores the terminal). */
void tt_set_fatal_hook(void (*hook)(void));
void tt_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* A malloc'ed copy of the array p of n elements of elem bytes; NULL when p is
 * NULL or n is 0. */
void *xdup_array(const void *p, size_t n, size_t elem);

#endif
