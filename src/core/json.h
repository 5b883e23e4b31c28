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

/* Lists and n/a-aware forms shared by the section writers (issue 14):
 * jw_cpulist writes a mask as a CPU list string ("0-3,6"), null when the
 * reader did not get it (have false); jw_bool_have is null when have is
 * false; jw_u64_list and jw_str_list write an array, null when it is empty
 * (n == 0); jw_str_list takes n fixed-size strings of stride bytes each;
 * jw_double_list writes n doubles, each null when v is NULL. */
void jw_cpulist(struct jw *w, const char *key, bool have, const struct cpumask *m);
void jw_bool_have(struct jw *w, const char *key, bool have, bool val);
void jw_u64_list(struct jw *w, const char *key, const uint64_t *v, size_t n);
void jw_str_list(struct jw *w, const char *key, const char *first, size_t stride, size_t n);
void jw_double_list(struct jw *w, const char *key, const double *v, size_t n, int decimals);
/* The name of errno e ("EACCES"), null when e is 0. */
void jw_errno(struct jw *w, const char *key, int e);
/* key: [ {...}, ... ]: an object per element of the array v (n elements
 * of size bytes each; v may be NULL when n is 0), its members written by
 * each(w, element). */
void jw_obj_array(struct jw *w, const char *key, const void *v, size_t n, size_t size,
		  void (*each)(struct jw *w, const void *elem));

#endif
