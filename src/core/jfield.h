/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Field tables of the JSON objects tunetop writes and reads back (issue
 * 33): one row per member (key, type, unit, where it sits in the struct,
 * its n/a rule), used by the writer (jf_write, src/out/) and by the replay
 * reader (jf_read, src/model/replay.c), so a member is added in one place.
 * The tables themselves are in src/model/snap_fields.c. */
#ifndef TT_CORE_JFIELD_H
#define TT_CORE_JFIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/json.h"
#include "core/jsonparse.h"

/* The type of a member and with it its n/a rule (what is null in JSON and
 * what null reads back as). */
enum jf_type {
	JF_STR,	       /* char[size]; always a string ("" stays "") */
	JF_STR_NZ,     /* char[size]; "" is null */
	JF_STR_OMIT,   /* char[size]; "" leaves the key out */
	JF_STR_HAVE,   /* char[size]; null unless the bool at aux */
	JF_INT,	       /* int or int64_t (size); always a number */
	JF_INT_NN,     /* int or int64_t; negative (-1) is null */
	JF_INT_HAVE,   /* int or int64_t; null unless the bool at aux */
	JF_BOOL,       /* bool */
	JF_ERRNO,      /* int errno; its name, null when 0; read back: an unknown name is arg */
	JF_ERR_UNLESS, /* int errno; its name unless the bool at aux, then null (read: 0);
			  unknown name and n/a: arg */
	JF_DOUBLE,     /* double with arg decimals; NAN is null */
	JF_CPUS,       /* struct cpumask as an array of CPU numbers */
	JF_ENUM,       /* an enum (int): name(v) for v in 0..arg-1; an unknown name reads as dflt */
	JF_CUSTOM,     /* put / get / eq of the row */
};

struct jf_field {
	const char *key;
	enum jf_type type;
	const char *unit;	    /* the unit the key ends in ("mc", "hz"), NULL when none */
	size_t off, size;	    /* the member */
	size_t aux;		    /* offset of the have_ bool (JF_*_HAVE, JF_ERR_UNLESS) */
	int arg;		    /* decimals, errno read for an unknown name, enum count */
	int dflt;		    /* JF_ENUM: the value of an unknown name */
	const char *(*name)(int v); /* JF_ENUM */
	/* JF_CUSTOM: write key (inside the open object), read its value v
	 * (NULL when absent), and compare two elements on this member */
	void (*put)(struct jw *w, const char *key, const void *elem);
	void (*get)(const struct jp_value *v, void *elem);
	bool (*eq)(const void *a, const void *b);
};

struct jf_obj {
	const char *name; /* where it stands in the document ("thermal[]") */
	size_t size;	  /* of the struct */
	const struct jf_field *f;
	size_t n;
	/* a key written after the rows from another object (ctx of
	 * jf_write_array_ctx: devfreq's "thermal_capped" from the thermal
	 * data), not read back: a replay derives it again */
	const char *derived;
	void (*derive)(struct jw *w, const char *key, const void *elem, const void *ctx);
};

#define JF_ROW(T, k, ty, m, u)                                                                     \
	{                                                                                          \
		.key = (k), .type = (ty), .unit = (u), .off = offsetof(T, m),                      \
		.size = sizeof(((T *)0)->m)                                                        \
	}
#define JF_HAVE(T, k, ty, m, u, have)                                                              \
	{                                                                                          \
		.key = (k), .type = (ty), .unit = (u), .off = offsetof(T, m),                      \
		.size = sizeof(((T *)0)->m), .aux = offsetof(T, have)                              \
	}
#define JF_ARG(T, k, ty, m, u, a)                                                                  \
	{                                                                                          \
		.key = (k), .type = (ty), .unit = (u), .off = offsetof(T, m),                      \
		.size = sizeof(((T *)0)->m), .arg = (a)                                            \
	}
#define JF_ENUMR(T, k, m, fn, count, d)                                                            \
	{                                                                                          \
		.key = (k), .type = JF_ENUM, .off = offsetof(T, m), .size = sizeof(((T *)0)->m),   \
		.arg = (count), .dflt = (d), .name = (fn)                                          \
	}
#define JF_CUSTOMR(T, k, m, u, p, g, e)                                                            \
	{                                                                                          \
		.key = (k), .type = JF_CUSTOM, .unit = (u), .off = offsetof(T, m),                 \
		.size = sizeof(((T *)0)->m), .put = (p), .get = (g), .eq = (e)                     \
	}
#define JF_OBJ(nm, T, rows)                                                                        \
	{                                                                                          \
		(nm), sizeof(T), (rows), sizeof(rows) / sizeof((rows)[0])                          \
	}

/* The members of elem, in table order, into the object open in w. */
void jf_write(struct jw *w, const struct jf_obj *o, const void *elem);
/* key: [ {...}, ... ], one object per element of v (n of them). */
void jf_write_array(struct jw *w, const char *key, const struct jf_obj *o, const void *v, size_t n);
/* The same with ctx for the table's derived key. */
void jf_write_array_ctx(struct jw *w, const char *key, const struct jf_obj *o, const void *v,
			size_t n, const void *ctx);
/* Every member of elem from the object v; a missing or null key gives the
 * member's n/a value (jf_clear). */
void jf_read(const struct jp_value *v, const struct jf_obj *o, void *elem);
/* An array of objects into a new array of elements (at least one element
 * allocated, zeroed, so it frees like the sources' own): *n of them. */
void *jf_read_array(const struct jp_value *a, const struct jf_obj *o, size_t *n);
/* Every member of elem to its n/a value ("", -1, NAN, false have_, the
 * errno arg of JF_ERR_UNLESS, dflt of JF_ENUM; JF_INT and JF_CUSTOM: 0). */
void jf_clear(const struct jf_obj *o, void *elem);
/* Whether a and b agree on member f (a value behind a false have_ is not
 * compared: it is n/a). */
bool jf_field_equal(const struct jf_field *f, const void *a, const void *b);
/* key: { "408000": 12.5, ... }: pct[i] per freq[i] (null where pct is
 * NULL, not yet derived), or key: null when have is false. */
void jf_pct_by_freq(struct jw *w, const char *key, bool have, const uint64_t *freq,
		    const double *pct, size_t n);
/* "EINVAL" -> -EINVAL (the inverse of err_name); NULL or null -> 0; an
 * unknown name -> dflt. */
int jf_errno_of(const struct jp_value *v, int dflt);

#endif
