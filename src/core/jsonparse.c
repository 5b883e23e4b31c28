/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JSON reader: a recursive-descent parser over a byte range, building
 * jp_value trees with xmalloc'ed members. Owns nothing global. */
#include "core/jsonparse.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

struct jp {
	const char *p, *end, *start;
	char *err;
	size_t cap;
	bool failed;
};

static void fail(struct jp *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct jp *j, const char *fmt, ...)
{
	int line = 1, col = 1;
	char msg[160];
	va_list ap;

	if (j->failed)
		return;
	j->failed = true;
	if (!j->err || !j->cap)
		return;
	for (const char *q = j->start; q < j->p && q < j->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(j->err, j->cap, "line %d, column %d: %s", line, col, msg);
}

static void skip_ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool lit(struct jp *j, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0)
		return false;
	j->p += n;
	return true;
}

static int hex4(struct jp *j, unsigned *out)
{
	unsigned v = 0;

	if (j->end - j->p < 4) {
		fail(j, "truncated \\u escape");
		return -1;
	}
	for (int i = 0; i < 4; i++) {
		char c = *j->p++;

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else {
			fail(j, "bad hex digit in \\u escape");
			return -1;
		}
	}
	*out = v;
	return 0;
}

static void put_utf8(char **buf, size_t *len, size_t *cap, unsigned cp)
{
	char tmp[4];
	size_t n;

	if (cp < 0x80) {
		tmp[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		tmp[0] = (char)(0xc0 | (cp >> 6));
		tmp[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		tmp[0] = (char)(0xe0 | (cp >> 12));
		tmp[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		tmp[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		tmp[0] = (char)(0xf0 | (cp >> 18));
		tmp[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		tmp[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		tmp[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	*buf = xgrow(*buf, cap, *len + n + 1, 1);
	memcpy(*buf + *len, tmp, n);
	*len += n;
}

/* At the opening quote. */
static char *parse_string(struct jp *j, size_t *outlen)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;

	j->p++;
	buf = xgrow(buf, &cap, 16, 1);
	for (;;) {
		unsigned char c;

		if (j->p >= j->end) {
			fail(j, "unterminated string");
			free(buf);
			return NULL;
		}
		c = (unsigned char)*j->p++;
		if (c == '"')
			break;
		if (c < 0x20) {
			j->p--;
			fail(j, "control character in string");
			free(buf);
			return NULL;
		}
		if (c != '\\') {
			buf = xgrow(buf, &cap, len + 2, 1);
			buf[len++] = (char)c;
			continue;
		}
		if (j->p >= j->end) {
			fail(j, "unterminated escape");
			free(buf);
			return NULL;
		}
		c = (unsigned char)*j->p++;
		switch (c) {
		case '"': put_utf8(&buf, &len, &cap, '"'); break;
		case '\\': put_utf8(&buf, &len, &cap, '\\'); break;
		case '/': put_utf8(&buf, &len, &cap, '/'); break;
		case 'b': put_utf8(&buf, &len, &cap, '\b'); break;
		case 'f': put_utf8(&buf, &len, &cap, '\f'); break;
		case 'n': put_utf8(&buf, &len, &cap, '\n'); break;
		case 'r': put_utf8(&buf, &len, &cap, '\r'); break;
		case 't': put_utf8(&buf, &len, &cap, '\t'); break;
		case 'u': {
			unsigned cp, lo;

			if (hex4(j, &cp)) {
				free(buf);
				return NULL;
			}
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u') {
					fail(j, "lone high surrogate");
					free(buf);
					return NULL;
				}
				j->p += 2;
				if (hex4(j, &lo)) {
					free(buf);
					return NULL;
				}
				if (lo < 0xdc00 || lo > 0xdfff) {
					fail(j, "bad low surrogate");
					free(buf);
					return NULL;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp < 0xe000) {
				fail(j, "lone low surrogate");
				free(buf);
				return NULL;
			}
			put_utf8(&buf, &len, &cap, cp);
			break;
		}
		default:
			j->p--;
			/* a control byte would break the one-line message */
			if (c < 0x20 || c >= 0x7f)
				fail(j, "bad escape '\\' followed by byte 0x%02x", c);
			else
				fail(j, "bad escape '\\%c'", c);
			free(buf);
			return NULL;
		}
	}
	buf[len] = '\0';
	*outlen = len;
	return buf;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A digit must come next; else the parse fails with msg. */
static bool need_digit(struct jp *j, const char *msg)
{
	if (j->p < j->end && is_digit(*j->p))
		return true;
	fail(j, "%s", msg);
	return false;
}

/* A run of digits into the mantissa, 19 significant ones at most. In the
 * integer part (frac false) each digit past those raises *exp10 and makes the
 * number inexact; in the fraction each digit kept lowers *exp10. */
static void mant_digits(struct jp *j, bool frac, uint64_t *mant, int *digits, int *exp10,
			bool *exact)
{
	while (j->p < j->end && is_digit(*j->p)) {
		if (*digits < 19) {
			*mant = *mant * 10 + (uint64_t)(*j->p - '0');
			if (*mant)
				(*digits)++;
			if (frac)
				(*exp10)--;
		} else if (!frac) {
			(*exp10)++;
			*exact = false;
		}
		j->p++;
	}
}

/* Locale-independent: digits into a 64-bit mantissa, then one scaling. */
static int parse_number(struct jp *j, struct jp_value *v)
{
	bool neg = false, exact = true;
	uint64_t mant = 0;
	int digits = 0, exp10 = 0;
	long double x;

	if (j->p < j->end && *j->p == '-') {
		neg = true;
		j->p++;
	}
	if (!need_digit(j, "expected a value"))
		return -1;
	if (*j->p == '0' && j->p + 1 < j->end && is_digit(j->p[1])) {
		fail(j, "leading zero in number");
		return -1;
	}
	mant_digits(j, false, &mant, &digits, &exp10, &exact);
	if (j->p < j->end && *j->p == '.') {
		exact = false;
		j->p++;
		if (!need_digit(j, "expected a digit after '.'"))
			return -1;
		mant_digits(j, true, &mant, &digits, &exp10, &exact);
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		int esign = 1, e = 0;

		exact = false;
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-')) {
			esign = *j->p == '-' ? -1 : 1;
			j->p++;
		}
		if (!need_digit(j, "expected a digit in the exponent"))
			return -1;
		while (j->p < j->end && is_digit(*j->p)) {
			if (e < 100000)
				e = e * 10 + (*j->p - '0');
			j->p++;
		}
		exp10 += esign * e;
	}
	x = (long double)mant;
	/* mant 0: 0e999999 is 0, not 0 * inf = NaN */
	if (mant && exp10 > 0)
		x *= powl(10.0L, (long double)exp10);
	else if (mant && exp10 < 0)
		x /= powl(10.0L, (long double)-exp10);
	v->type = JP_NUM;
	v->num = (double)(neg ? -x : x);
	if (exact && (mant <= (uint64_t)INT64_MAX || (neg && mant == (uint64_t)INT64_MAX + 1))) {
		v->is_int = true;
		v->i = neg ? (int64_t)(0 - mant) : (int64_t)mant;
	}
	return 0;
}

static int parse_value(struct jp *j, struct jp_value *v, int depth);

static int parse_container(struct jp *j, struct jp_value *v, int depth, bool obj)
{
	size_t cap = 0;
	char close = obj ? '}' : ']';

	v->type = obj ? JP_OBJ : JP_ARR;
	j->p++;
	skip_ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		skip_ws(j);
		if (obj) {
			size_t kl;

			if (j->p >= j->end || *j->p != '"') {
				fail(j, "expected a member name");
				return -1;
			}
			key = parse_string(j, &kl);
			if (!key)
				return -1;
			skip_ws(j);
			if (j->p >= j->end || *j->p != ':') {
				free(key);
				fail(j, "expected ':'");
				return -1;
			}
			j->p++;
		}
		v->v = xgrow(v->v, &cap, v->n + 1, sizeof(*v->v));
		if (obj)
			v->k = xrealloc(v->k, cap * sizeof(*v->k));
		memset(&v->v[v->n], 0, sizeof(v->v[v->n]));
		if (obj)
			v->k[v->n] = key;
		v->n++;
		if (parse_value(j, &v->v[v->n - 1], depth + 1))
			return -1;
		skip_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return 0;
		}
		fail(j, obj ? "expected ',' or '}'" : "expected ',' or ']'");
		return -1;
	}
}

static int parse_value(struct jp *j, struct jp_value *v, int depth)
{
	if (depth > JP_MAX_DEPTH) {
		fail(j, "nested deeper than %d", JP_MAX_DEPTH);
		return -1;
	}
	skip_ws(j);
	if (j->p >= j->end) {
		fail(j, "unexpected end of input");
		return -1;
	}
	switch (*j->p) {
	case '{': return parse_container(j, v, depth, true);
	case '[': return parse_container(j, v, depth, false);
	case '"':
		v->type = JP_STR;
		v->s = parse_string(j, &v->slen);
		return v->s ? 0 : -1;
	case 't':
	case 'f':
	case 'n':
		if (lit(j, "true")) {
			v->type = JP_BOOL;
			v->b = true;
			return 0;
		}
		if (lit(j, "false")) {
			v->type = JP_BOOL;
			return 0;
		}
		if (lit(j, "null")) {
			v->type = JP_NULL;
			return 0;
		}
		fail(j, "expected a value");
		return -1;
	default: return parse_number(j, v);
	}
}

int jp_parse(const char *text, size_t len, struct jp_value *out, char *err, size_t cap)
{
	struct jp j = {.p = text, .end = text + len, .start = text, .err = err, .cap = cap};

	memset(out, 0, sizeof(*out));
	if (err && cap)
		err[0] = '\0';
	if (!text) {
		fail(&j, "no input");
		return -EINVAL;
	}
	if (parse_value(&j, out, 0) == 0) {
		skip_ws(&j);
		if (j.p < j.end)
			fail(&j, "trailing characters after the value");
	}
	if (j.failed) {
		jp_free(out);
		return -EINVAL;
	}
	return 0;
}

void jp_free(struct jp_value *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		jp_free(&v->v[i]);
		if (v->k)
			free(v->k[i]);
	}
	free(v->v);
	free(v->k);
	free(v->s);
	memset(v, 0, sizeof(*v));
}

const struct jp_value *jp_get(const struct jp_value *obj, const char *key)
{
	if (!obj || obj->type != JP_OBJ || !key)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->k[i], key))
			return &obj->v[i];
	return NULL;
}

const struct jp_value *jp_at(const struct jp_value *arr, size_t i)
{
	if (!arr || arr->type != JP_ARR || i >= arr->n)
		return NULL;
	return &arr->v[i];
}

const struct jp_value *jp_path(const struct jp_value *v, const char *path)
{
	char seg[128];

	while (v && path && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);

		if (n >= sizeof(seg))
			return NULL;
		memcpy(seg, path, n);
		seg[n] = '\0';
		if (v->type == JP_ARR) {
			char *end;
			unsigned long idx = strtoul(seg, &end, 10);

			if (!n || *end)
				return NULL;
			v = jp_at(v, idx);
		} else {
			v = jp_get(v, seg);
		}
		path = dot ? dot + 1 : NULL;
	}
	return v;
}

size_t jp_len(const struct jp_value *v)
{
	return v && (v->type == JP_ARR || v->type == JP_OBJ) ? v->n : 0;
}

bool jp_is_null(const struct jp_value *v)
{
	return !v || v->type == JP_NULL;
}

double jp_num(const struct jp_value *v, double dflt)
{
	return v && v->type == JP_NUM ? v->num : dflt;
}

int64_t jp_int(const struct jp_value *v, int64_t dflt)
{
	if (!v || v->type != JP_NUM)
		return dflt;
	if (v->is_int)
		return v->i;
	if (v->num == floor(v->num) && fabs(v->num) < 9.2e18)
		return (int64_t)v->num;
	return dflt;
}

const char *jp_str(const struct jp_value *v, const char *dflt)
{
	return v && v->type == JP_STR ? v->s : dflt;
}

bool jp_bool(const struct jp_value *v, bool dflt)
{
	return v && v->type == JP_BOOL ? v->b : dflt;
}
