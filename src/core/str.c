/* SPDX-License-Identifier: GPL-2.0-or-later */
/* String parsing and buffers. */
#include "core/str.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* Where the digits of a number in s start: after leading white space, a
 * sign (when sign), a 0x (when hex). NULL when s is NULL or no digit follows. */
static const char *num_start(const char *s, bool sign, bool hex)
{
	const char *d;

	if (!s)
		return NULL;
	while (isspace((unsigned char)*s))
		s++;
	if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	d = s + (sign && (*s == '-' || *s == '+'));
	if (hex ? !isxdigit((unsigned char)*d) : !isdigit((unsigned char)*d))
		return NULL;
	return s;
}

/* After strto*(): 0, -ERANGE, or -EINVAL when anything but white space
 * follows the number. */
static int num_end(const char *end)
{
	if (errno == ERANGE)
		return -ERANGE;
	while (*end && isspace((unsigned char)*end))
		end++;
	return *end ? -EINVAL : 0;
}

static int to_u64(const char *s, int base, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int e;

	s = num_start(s, false, base == 16);
	if (!s)
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	e = num_end(end);
	if (!e)
		*out = v;
	return e;
}

int str_to_u64(const char *s, uint64_t *out)
{
	return to_u64(s, 10, out);
}

int str_env_u64(const char *name, uint64_t max, uint64_t *out, char *why, size_t cap)
{
	const char *s = getenv(name);
	uint64_t v;
	int e;

	if (!s || !*s)
		return 0;
	e = str_to_u64(s, &v);
	if (!e && v > max)
		e = -ERANGE;
	if (e) {
		if (why && cap)
			snprintf(why, cap, "%s: '%s' is %s (0 to %llu)", name, s,
				 e == -ERANGE ? "out of range" : "not a whole number",
				 (unsigned long long)max);
		return e;
	}
	*out = v;
	return 1;
}

int str_to_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;
	int e;

	s = num_start(s, true, false);
	if (!s)
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	e = num_end(end);
	if (!e)
		*out = v;
	return e;
}

int str_to_int(const char *s, int *out)
{
	int64_t v;
	int r = str_to_i64(s, &v);

	if (r)
		return r;
	if (v < INT32_MIN || v > INT32_MAX)
		return -ERANGE;
	*out = (int)v;
	return 0;
}

int str_to_double(const char *s, double *out)
{
	char *end;
	double v;
	int e;

	s = num_start(s, true, false);
	if (!s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	e = num_end(end);
	if (!e)
		*out = v;
	return e;
}

int str_to_hex_u64(const char *s, uint64_t *out)
{
	return to_u64(s, 16, out);
}

int str_wrap_len(const char *p, int w)
{
	int len = 0, sp = -1;

	while (p[len] && p[len] != '\n' && len < w) {
		if (p[len] == ' ')
			sp = len;
		len++;
	}
	if (p[len] && p[len] != '\n' && sp > 0)
		len = sp;
	return len;
}

const char *str_wrap_next(const char *p, int len)
{
	p += len;
	while (*p == ' ' || *p == '\n')
		p++;
	return p;
}

char *str_trim(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

size_t str_copy(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);

	if (cap) {
		size_t k = n < cap - 1 ? n : cap - 1;

		memcpy(dst, src, k);
		dst[k] = '\0';
	}
	return n;
}

bool str_eq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

bool str_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool str_ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

size_t str_split_ws(char *s, char **tok, size_t max)
{
	size_t n = 0;

	while (*s && n < max) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		tok[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

void sbuf_init(struct sbuf *b)
{
	b->s = NULL;
	b->len = 0;
	b->cap = 0;
	b->sink = NULL;
}

void sbuf_free(struct sbuf *b)
{
	free(b->s);
	sbuf_init(b);
}

void sbuf_reset(struct sbuf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

static void sbuf_reserve(struct sbuf *b, size_t extra)
{
	if (b->sink && b->len && b->len + extra + 1 > SBUF_SINK_BYTES) {
		fwrite(b->s, 1, b->len, b->sink);
		sbuf_reset(b);
	}
	b->s = xgrow(b->s, &b->cap, b->len + extra + 1, 1);
}

void sbuf_putn(struct sbuf *b, const char *s, size_t n)
{
	sbuf_reserve(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sbuf_putc(struct sbuf *b, char c)
{
	sbuf_putn(b, &c, 1);
}

void sbuf_puts(struct sbuf *b, const char *s)
{
	sbuf_putn(b, s, strlen(s));
}

void sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sbuf_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *sbuf_steal(struct sbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");

	sbuf_init(b);
	return s;
}

bool str_utf8_locale(void)
{
	static int utf8 = -1;

	if (utf8 < 0) {
		const char *cur = setlocale(LC_CTYPE, NULL);
		char saved[128];

		snprintf(saved, sizeof(saved), "%s", cur ? cur : "C");
		utf8 = setlocale(LC_CTYPE, "") && !strcmp(nl_langinfo(CODESET), "UTF-8");
		setlocale(LC_CTYPE, saved);
	}
	return utf8 == 1;
}

const char *str_minus(void)
{
	return str_utf8_locale() ? "\u2212" : "-";
}

const char *str_micro(void)
{
	return str_utf8_locale() ? "\u00b5" : "u";
}

bool str_is_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* ---- durations (issue 14) ---- */

static bool unit_allowed(const char *units, const char *u)
{
	size_t n = strlen(u);

	for (const char *p = units; *p; p += strspn(p, " ")) {
		size_t k = strcspn(p, " ");

		if (k == n && !memcmp(p, u, n))
			return true;
		p += k;
	}
	return false;
}

int str_to_seconds(const char *s, const char *units, double *out)
{
	static const struct {
		const char *suffix;
		double mult;
	} unit[] = {{"ms", 1e-3}, {"s", 1.0}, {"m", 60.0}, {"h", 3600.0}, {"d", 86400.0}};
	char buf[64];
	size_t n = strlen(s);
	double mult = 1.0, v;

	if (!n || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n + 1);
	for (size_t i = 0; i < sizeof(unit) / sizeof(unit[0]); i++) {
		size_t k = strlen(unit[i].suffix);

		if (n > k && !strcmp(buf + n - k, unit[i].suffix) &&
		    unit_allowed(units, unit[i].suffix)) {
			buf[n - k] = '\0';
			mult = unit[i].mult;
			break;
		}
	}
	if (str_to_double(buf, &v) || !(v >= 0.0) || isinf(v))
		return -EINVAL;
	*out = v * mult;
	return 0;
}

int str_decimals(double mag, double top)
{
	mag = fabs(mag);
	if (isnan(mag) || mag >= top)
		return 0;
	if (mag >= top / 10)
		return 1;
	if (mag >= top / 100)
		return 2;
	return 3;
}

/* ---- control characters (issue 32) ---- */

/* Bytes at s that make one control character: 1 (C0, DEL), 2 (a UTF-8 C1
 * control), 0 (not one). */
static size_t ctl_len(const unsigned char *s, size_t n, bool keep_layout)
{
	if (s[0] < 0x20)
		return keep_layout && (s[0] == '\n' || s[0] == '\t') ? 0 : 1;
	if (s[0] == 0x7f)
		return 1;
	if (s[0] == 0xc2 && n > 1 && s[1] >= 0x80 && s[1] <= 0x9f)
		return 2;
	return 0;
}

bool str_has_ctl(const char *s, size_t n, bool keep_layout)
{
	for (size_t i = 0; i < n; i++)
		if (ctl_len((const unsigned char *)s + i, n - i, keep_layout))
			return true;
	return false;
}

void str_escape_ctl(struct sbuf *b, const char *s, size_t n, bool keep_layout)
{
	size_t i = 0, run = 0;

	while (i < n) {
		size_t k = ctl_len((const unsigned char *)s + i, n - i, keep_layout);

		if (!k) {
			i++;
			run++;
			continue;
		}
		sbuf_putn(b, s + i - run, run);
		run = 0;
		for (size_t j = 0; j < k; j++)
			sbuf_printf(b, "\\x%02x", (unsigned char)s[i + j]);
		i += k;
	}
	sbuf_putn(b, s + i - run, run);
}

size_t str_fwrite_text(const char *s, size_t n, FILE *f)
{
	struct sbuf b;
	size_t w;

	if (!str_has_ctl(s, n, true))
		return fwrite(s, 1, n, f);
	sbuf_init(&b);
	str_escape_ctl(&b, s, n, true);
	w = fwrite(b.s, 1, b.len, f);
	w = w == b.len ? n : 0;
	sbuf_free(&b);
	return w;
}

const char *str_ctl(const char *s)
{
	static _Thread_local char out[4][1024];
	static _Thread_local unsigned next;
	char *o = out[next++ % 4];
	struct sbuf b;

	if (!s || !str_has_ctl(s, strlen(s), false))
		return s;
	sbuf_init(&b);
	str_escape_ctl(&b, s, strlen(s), false);
	str_copy(o, sizeof(out[0]), b.s);
	sbuf_free(&b);
	return o;
}

const char *str_temp_c(char *buf, size_t cap, int64_t mc)
{
	/* in uint64_t: -INT64_MIN does not overflow */
	uint64_t a = mc < 0 ? 0 - (uint64_t)mc : (uint64_t)mc;
	uint64_t tenths = (a + 50) / 100;

	snprintf(buf, cap, "%s%" PRIu64 ".%" PRIu64, mc < 0 && tenths ? "-" : "", tenths / 10,
		 tenths % 10);
	return buf;
}

const void *str_table_find(const void *table, size_t n, size_t size, size_t name_off,
			   const char *name)
{
	const char *p = table;

	for (size_t i = 0; name && i < n; i++, p += size) {
		const char *const *elem_name = (const void *)(p + name_off);

		if (!strcmp(*elem_name, name))
			return p;
	}
	return NULL;
}
