/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small streaming JSON writer into an sbuf. Keys are NULL inside arrays.
 * NaN doubles and NULL strings are written as null ("never show a guess as a
 * fact"). */
#ifndef TT_CORE_JSON_H
#define TT_CORE_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "core/str.h"

#define JW_MAX_DEPTH 32

struct jw {
	struct sbuf *out;
	int depth;
	bool pretty;
	bool has_item[JW_MAX_DEPTH];
};

void jw_init(struct jw *w, struct sbuf *out, bool pretty);
void jw_obj_begin(struct jw *w, const char *key);
void jw_obj_end(struct jw *w);
void jw_arr_begin(struct jw *w, const char *key);
void jw_arr_end(struct jw *w);
void jw_str(struct jw *w, const char *key, const char *val);
void jw_int(struct jw *w, const char *key, int64_t val);
void jw_uint(struct jw *w, const char *key, uint64_t val);
/* decimals: digits after the point (trailing zeros kept for stable output). */
void jw_double(struct jw *w, const char *key, double val, int decimals);
void jw_bool(struct jw *w, const char *key, bool val);
void jw_null(struct jw *w, const char *key);
/* The n/a-aware forms: null for a negative count or id (jw_int_nn), for a
 * value the reader did not get (have false), for a NULL or empty string
 * (jw_str_nz); jw_cpus writes a mask as an array of CPU numbers. */
void jw_int_nn(struct jw *w, const char *key, int64_t val);
void jw_int_have(struct jw *w, const char *key, bool have, int64_t val);
void jw_uint_have(struct jw *w, const char *key, bool have, uint64_t val);
void jw_str_nz(struct jw *w, const char *key, const char *val);
struct cpumask;
void jw_cpus(struct jw *w, const char *key, const struct cpumask *m);
/* Append a JSON string literal (with quotes and escapes) to b. */
void json_escape(struct sbuf *b, const char *s);

#endif
