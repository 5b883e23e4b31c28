/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The field-table engine (jfield.h): writes a struct's members as JSON and
 * reads them back by the same rows, with each type's n/a rule in one
 * place. */
#include "core/jfield.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/cpumask.h"
#include "core/err.h"
#include "core/str.h"
#include "core/xalloc.h"

static const void *at(const void *elem, size_t off)
{
	return (const char *)elem + off;
}

static void *at_w(void *elem, size_t off)
{
	return (char *)elem + off;
}

static bool have(const struct jf_field *f, const void *elem)
{
	return *(const bool *)at(elem, f->aux);
}

static int64_t get_int(const struct jf_field *f, const void *elem)
{
	if (f->size == sizeof(int64_t))
		return *(const int64_t *)at(elem, f->off);
	return *(const int *)at(elem, f->off);
}

static void set_int(const struct jf_field *f, void *elem, int64_t v)
{
	if (f->size == sizeof(int64_t))
		*(int64_t *)at_w(elem, f->off) = v;
	else
		*(int *)at_w(elem, f->off) = (int)v;
}

static const char *str(const struct jf_field *f, const void *elem)
{
	return at(elem, f->off);
}

int jf_errno_of(const struct jp_value *v, int dflt)
{
	const char *name = jp_str(v, NULL);

	if (!name)
		return 0;
	for (int e = 1; e < 200; e++)
		if (!strcmp(err_name(-e), name))
			return -e;
	return dflt;
}

static void put(struct jw *w, const struct jf_field *f, const void *elem)
{
	const char *k = f->key;

	switch (f->type) {
	case JF_STR: jw_str(w, k, str(f, elem)); break;
	case JF_STR_NZ: jw_str_nz(w, k, str(f, elem)); break;
	case JF_STR_OMIT:
		if (str(f, elem)[0])
			jw_str(w, k, str(f, elem));
		break;
	case JF_STR_HAVE: jw_str(w, k, have(f, elem) ? str(f, elem) : NULL); break;
	case JF_INT: jw_int(w, k, get_int(f, elem)); break;
	case JF_INT_NN: jw_int_nn(w, k, get_int(f, elem)); break;
	case JF_INT_HAVE: jw_int_have(w, k, have(f, elem), get_int(f, elem)); break;
	case JF_BOOL: jw_bool(w, k, *(const bool *)at(elem, f->off)); break;
	case JF_ERRNO: jw_errno(w, k, *(const int *)at(elem, f->off)); break;
	case JF_ERR_UNLESS:
		jw_str(w, k, have(f, elem) ? NULL : err_name(*(const int *)at(elem, f->off)));
		break;
	case JF_DOUBLE: jw_double(w, k, *(const double *)at(elem, f->off), f->arg); break;
	case JF_CPUS: jw_cpus(w, k, at(elem, f->off)); break;
	case JF_ENUM: jw_str(w, k, f->name(*(const int *)at(elem, f->off))); break;
	case JF_CUSTOM: f->put(w, k, elem); break;
	}
}

void jf_write(struct jw *w, const struct jf_obj *o, const void *elem)
{
	for (size_t i = 0; i < o->n; i++)
		put(w, &o->f[i], elem);
}

void jf_write_array_ctx(struct jw *w, const char *key, const struct jf_obj *o, const void *v,
			size_t n, const void *ctx)
{
	jw_arr_begin(w, key);
	for (size_t i = 0; i < n; i++) {
		jw_obj_begin(w, NULL);
		jf_write(w, o, (const char *)v + i * o->size);
		if (o->derive)
			o->derive(w, o->derived, (const char *)v + i * o->size, ctx);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

void jf_write_array(struct jw *w, const char *key, const struct jf_obj *o, const void *v, size_t n)
{
	jf_write_array_ctx(w, key, o, v, n, NULL);
}

static void clear(const struct jf_field *f, void *elem)
{
	void *p = at_w(elem, f->off);

	switch (f->type) {
	case JF_STR:
	case JF_STR_NZ:
	case JF_STR_OMIT: *(char *)p = '\0'; break;
	case JF_STR_HAVE:
		*(char *)p = '\0';
		*(bool *)at_w(elem, f->aux) = false;
		break;
	case JF_INT_NN: set_int(f, elem, -1); break;
	case JF_INT_HAVE:
		set_int(f, elem, 0);
		*(bool *)at_w(elem, f->aux) = false;
		break;
	case JF_BOOL: *(bool *)p = false; break;
	case JF_ERRNO: *(int *)p = 0; break;
	case JF_ERR_UNLESS: *(int *)p = f->arg; break;
	case JF_DOUBLE: *(double *)p = NAN; break;
	case JF_CPUS: cpumask_zero(p); break;
	case JF_ENUM: *(int *)p = f->dflt; break;
	case JF_INT:
	case JF_CUSTOM: memset(p, 0, f->size); break;
	}
}

void jf_clear(const struct jf_obj *o, void *elem)
{
	for (size_t i = 0; i < o->n; i++)
		clear(&o->f[i], elem);
}

static void get(const struct jf_field *f, const struct jp_value *v, void *elem)
{
	void *p = at_w(elem, f->off);

	if (f->type == JF_CUSTOM) {
		f->get(v, elem);
		return;
	}
	/* null is n/a; an errno's null is "no error" (0) */
	if (jp_is_null(v) && f->type != JF_STR && f->type != JF_ERRNO && f->type != JF_ERR_UNLESS) {
		clear(f, elem);
		return;
	}
	switch (f->type) {
	case JF_STR:
	case JF_STR_NZ:
	case JF_STR_OMIT: str_copy(p, f->size, jp_str(v, "")); break;
	case JF_STR_HAVE:
		*(bool *)at_w(elem, f->aux) = true;
		str_copy(p, f->size, jp_str(v, ""));
		break;
	case JF_INT: set_int(f, elem, jp_int(v, 0)); break;
	case JF_INT_NN: set_int(f, elem, jp_int(v, -1)); break;
	case JF_INT_HAVE:
		*(bool *)at_w(elem, f->aux) = true;
		set_int(f, elem, jp_int(v, 0));
		break;
	case JF_BOOL: *(bool *)p = jp_bool(v, false); break;
	case JF_ERRNO:
	case JF_ERR_UNLESS: *(int *)p = jf_errno_of(v, f->arg); break;
	case JF_DOUBLE: *(double *)p = jp_num(v, NAN); break;
	case JF_CPUS:
		cpumask_zero(p);
		for (size_t i = 0; i < jp_len(v); i++) {
			int64_t c = jp_int(jp_at(v, i), -1);

			if (c >= 0 && c < TT_MAX_CPUS)
				cpumask_set(p, (int)c);
		}
		break;
	case JF_ENUM: {
		const char *s = jp_str(v, "");

		*(int *)p = f->dflt;
		for (int i = 0; i < f->arg; i++)
			if (!strcmp(s, f->name(i)))
				*(int *)p = i;
		break;
	}
	case JF_CUSTOM: break;
	}
}

void jf_read(const struct jp_value *v, const struct jf_obj *o, void *elem)
{
	for (size_t i = 0; i < o->n; i++)
		get(&o->f[i], jp_get(v, o->f[i].key), elem);
}

void *jf_read_array(const struct jp_value *a, const struct jf_obj *o, size_t *n)
{
	char *v;

	*n = jp_len(a);
	v = xcalloc(*n ? *n : 1, o->size);
	for (size_t i = 0; i < *n; i++)
		jf_read(jp_at(a, i), o, v + i * o->size);
	return v;
}

bool jf_field_equal(const struct jf_field *f, const void *a, const void *b)
{
	const void *pa = at(a, f->off), *pb = at(b, f->off);

	switch (f->type) {
	case JF_STR:
	case JF_STR_NZ:
	case JF_STR_OMIT: return !strcmp(pa, pb);
	case JF_STR_HAVE: return have(f, a) == have(f, b) && (!have(f, a) || !strcmp(pa, pb));
	case JF_INT:
	case JF_INT_NN: return get_int(f, a) == get_int(f, b);
	case JF_INT_HAVE:
		return have(f, a) == have(f, b) && (!have(f, a) || get_int(f, a) == get_int(f, b));
	case JF_BOOL: return *(const bool *)pa == *(const bool *)pb;
	case JF_ERRNO:
	case JF_ENUM: return *(const int *)pa == *(const int *)pb;
	case JF_ERR_UNLESS:
		return have(f, a) == have(f, b) &&
		       (have(f, a) || *(const int *)pa == *(const int *)pb);
	case JF_DOUBLE: {
		double x = *(const double *)pa, y = *(const double *)pb;

		return (isnan(x) && isnan(y)) || fabs(x - y) <= 0.5 * pow(10, -f->arg);
	}
	case JF_CPUS: return cpumask_equal(pa, pb);
	case JF_CUSTOM: return f->eq(a, b);
	}
	return false;
}

void jf_pct_by_freq(struct jw *w, const char *key, bool have, const uint64_t *freq,
		    const double *pct, size_t n)
{
	if (!have) {
		jw_null(w, key);
		return;
	}
	jw_obj_begin(w, key);
	for (size_t i = 0; i < n; i++) {
		char k[32];

		snprintf(k, sizeof(k), "%" PRIu64, freq[i]);
		jw_double(w, k, pct ? pct[i] : NAN, 1);
	}
	jw_obj_end(w);
}
