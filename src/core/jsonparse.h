/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small JSON reader (RFC 8259) into a tree of values: enough to read back
 * what tunetop writes (recordings, `ab --json`, `probe --json`) without a
 * new library dependency. Numbers are parsed without the C library's
 * locale-dependent strtod (the TUI calls setlocale), integers that fit are
 * kept exact. Nesting is limited to JP_MAX_DEPTH; anything malformed is
 * refused with the line and column in the message. */
#ifndef TT_CORE_JSONPARSE_H
#define TT_CORE_JSONPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JP_MAX_DEPTH 64

enum jp_type { JP_NULL, JP_BOOL, JP_NUM, JP_STR, JP_ARR, JP_OBJ };

struct jp_value {
	enum jp_type type;
	bool b;		    /* JP_BOOL */
	double num;	    /* JP_NUM */
	bool is_int;	    /* JP_NUM written as an integer that fits int64_t */
	int64_t i;	    /* its exact value when is_int */
	char *s;	    /* JP_STR, NUL terminated (UTF-8) */
	size_t slen;	    /* its length (a \u0000 escape may put a NUL inside) */
	size_t n;	    /* JP_ARR / JP_OBJ: number of members */
	struct jp_value *v; /* members */
	char **k;	    /* JP_OBJ: member names, in document order */
};

/* Parse text[0..len) (one value, white space around it allowed). 0, or
 * -EINVAL with a one-line reason ("line 3, column 7: expected ':'") in err
 * (may be NULL). out is always initialised; free it with jp_free. */
int jp_parse(const char *text, size_t len, struct jp_value *out, char *err, size_t cap);
void jp_free(struct jp_value *v);

/* Lookups; all accept NULL and return NULL (or the default) when the value
 * is missing or of another type. */
const struct jp_value *jp_get(const struct jp_value *obj, const char *key);
const struct jp_value *jp_at(const struct jp_value *arr, size_t i);
/* Dotted path: "snapshot.policies.0.cur_khz" (numbers index arrays). */
const struct jp_value *jp_path(const struct jp_value *v, const char *path);
size_t jp_len(const struct jp_value *v);   /* members of an array or object, else 0 */
bool jp_is_null(const struct jp_value *v); /* missing or null */
double jp_num(const struct jp_value *v, double dflt);
int64_t jp_int(const struct jp_value *v, int64_t dflt); /* integral numbers only */
const char *jp_str(const struct jp_value *v, const char *dflt);
bool jp_bool(const struct jp_value *v, bool dflt);

#endif
