/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the JSON reader (src/core/jsonparse.c), which reads recordings,
 * `snapshot --json` files and `ab`/`probe --json` output. Beyond "no crash,
 * no leak, no UB": every string it returns survives json_escape() and a
 * second parse unchanged, every integer it keeps exact prints and parses
 * back to itself, and every member name finds a member. */
#include <inttypes.h>
#include <stdio.h>

#include "core/json.h"
#include "core/jsonparse.h"
#include "core/str.h"
#include "fuzz.h"

static void check_string(const struct jp_value *v)
{
	struct sbuf b;
	struct jp_value back;

	if (strlen(v->s) != v->slen)
		return; /* a \u0000 inside: C strings cannot carry it */
	sbuf_init(&b);
	json_escape(&b, v->s);
	FUZZ_ASSERT(jp_parse(b.s, b.len, &back, NULL, 0) == 0);
	FUZZ_ASSERT(back.type == JP_STR && back.slen == v->slen);
	FUZZ_ASSERT(memcmp(back.s, v->s, v->slen) == 0);
	jp_free(&back);
	sbuf_free(&b);
}

static void check_int(const struct jp_value *v)
{
	char buf[32];
	struct jp_value back;
	int n = snprintf(buf, sizeof(buf), "%" PRId64, v->i);

	FUZZ_ASSERT(jp_parse(buf, (size_t)n, &back, NULL, 0) == 0);
	FUZZ_ASSERT(back.type == JP_NUM && back.is_int && back.i == v->i);
	FUZZ_ASSERT(jp_int(v, 0) == v->i);
	jp_free(&back);
}

static void walk(const struct jp_value *v, int depth)
{
	FUZZ_ASSERT(depth <= JP_MAX_DEPTH + 1);
	switch (v->type) {
	case JP_STR: check_string(v); break;
	case JP_NUM:
		if (v->is_int)
			check_int(v);
		(void)jp_int(v, -1);
		(void)jp_num(v, 0);
		break;
	case JP_ARR:
		FUZZ_ASSERT(jp_len(v) == v->n);
		for (size_t i = 0; i < v->n; i++) {
			FUZZ_ASSERT(jp_at(v, i) == &v->v[i]);
			walk(&v->v[i], depth + 1);
		}
		FUZZ_ASSERT(jp_at(v, v->n) == NULL);
		break;
	case JP_OBJ:
		for (size_t i = 0; i < v->n; i++) {
			const struct jp_value *m = jp_get(v, v->k[i]);

			/* the first member of that name */
			FUZZ_ASSERT(m && m <= &v->v[i]);
			walk(&v->v[i], depth + 1);
		}
		break;
	case JP_NULL:
	case JP_BOOL: break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jp_value v;
	char err[160];
	static const char *const paths[] = {
		"type",	  "snapshot.policies.0.cur_khz", "snapshot.irqs.rows.1", "0", "0.0.0",
		"a.b.c.d"};

	if (jp_parse((const char *)data, size, &v, err, sizeof(err)) != 0) {
		FUZZ_ASSERT(err[0] != '\0' && !strchr(err, '\n'));
		FUZZ_ASSERT(v.type == JP_NULL && v.n == 0 && !v.s);
		return 0;
	}
	walk(&v, 0);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		const struct jp_value *p = jp_path(&v, paths[i]);

		(void)jp_str(p, NULL);
		(void)jp_bool(p, false);
		(void)jp_is_null(p);
	}
	jp_free(&v);
	return 0;
}
