/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Streaming JSON writer. */
#include "core/json.h"

#include <math.h>
#include <stdio.h>

#include "core/cpumask.h"
#include "core/err.h"

void jw_init(struct jw *w, struct sbuf *out, bool pretty)
{
	w->out = out;
	w->depth = 0;
	w->pretty = pretty;
	w->has_item[0] = false;
}

void json_escape(struct sbuf *b, const char *s)
{
	sbuf_putc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': sbuf_puts(b, "\\\""); break;
		case '\\': sbuf_puts(b, "\\\\"); break;
		case '\n': sbuf_puts(b, "\\n"); break;
		case '\t': sbuf_puts(b, "\\t"); break;
		case '\r': sbuf_puts(b, "\\r"); break;
		default:
			if (*p < 0x20)
				sbuf_printf(b, "\\u%04x", *p);
			else
				sbuf_putc(b, (char)*p);
		}
	}
	sbuf_putc(b, '"');
}

static void indent(struct jw *w)
{
	if (!w->pretty)
		return;
	sbuf_putc(w->out, '\n');
	for (int i = 0; i < w->depth; i++)
		sbuf_puts(w->out, "  ");
}

static void item(struct jw *w, const char *key)
{
	if (w->has_item[w->depth])
		sbuf_putc(w->out, ',');
	w->has_item[w->depth] = true;
	if (w->depth > 0)
		indent(w);
	if (key) {
		json_escape(w->out, key);
		sbuf_puts(w->out, w->pretty ? ": " : ":");
	}
}

static void open(struct jw *w, const char *key, char c)
{
	item(w, key);
	sbuf_putc(w->out, c);
	if (w->depth < JW_MAX_DEPTH - 1)
		w->depth++;
	w->has_item[w->depth] = false;
}

static void close_(struct jw *w, char c)
{
	bool had = w->has_item[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (had)
		indent(w);
	sbuf_putc(w->out, c);
}

void jw_obj_begin(struct jw *w, const char *key)
{
	open(w, key, '{');
}
void jw_obj_end(struct jw *w)
{
	close_(w, '}');
}
void jw_arr_begin(struct jw *w, const char *key)
{
	open(w, key, '[');
}
void jw_arr_end(struct jw *w)
{
	close_(w, ']');
}

void jw_str(struct jw *w, const char *key, const char *val)
{
	item(w, key);
	if (val)
		json_escape(w->out, val);
	else
		sbuf_puts(w->out, "null");
}

void jw_int(struct jw *w, const char *key, int64_t val)
{
	item(w, key);
	sbuf_printf(w->out, "%lld", (long long)val);
}

void jw_uint(struct jw *w, const char *key, uint64_t val)
{
	item(w, key);
	sbuf_printf(w->out, "%llu", (unsigned long long)val);
}

void jw_double(struct jw *w, const char *key, double val, int decimals)
{
	item(w, key);
	if (isnan(val) || isinf(val))
		sbuf_puts(w->out, "null");
	else
		sbuf_printf(w->out, "%.*f", decimals, val == 0 ? 0.0 : val);
}

void jw_bool(struct jw *w, const char *key, bool val)
{
	item(w, key);
	sbuf_puts(w->out, val ? "true" : "false");
}

void jw_null(struct jw *w, const char *key)
{
	item(w, key);
	sbuf_puts(w->out, "null");
}

void jw_int_nn(struct jw *w, const char *key, int64_t val)
{
	jw_int_have(w, key, val >= 0, val);
}

void jw_int_have(struct jw *w, const char *key, bool have, int64_t val)
{
	if (have)
		jw_int(w, key, val);
	else
		jw_null(w, key);
}

void jw_uint_have(struct jw *w, const char *key, bool have, uint64_t val)
{
	if (have)
		jw_uint(w, key, val);
	else
		jw_null(w, key);
}

void jw_str_nz(struct jw *w, const char *key, const char *val)
{
	jw_str(w, key, val && *val ? val : NULL);
}

void jw_cpus(struct jw *w, const char *key, const struct cpumask *m)
{
	jw_arr_begin(w, key);
	for (int c = cpumask_next(m, 0); c >= 0; c = cpumask_next(m, c + 1))
		jw_int(w, NULL, c);
	jw_arr_end(w);
}

/* ---- lists and n/a-aware forms of the section writers (issue 14) ---- */

void jw_cpulist(struct jw *w, const char *key, bool have, const struct cpumask *m)
{
	char buf[8 * TT_MAX_CPUS]; /* "1022," per CPU at the most */

	if (!have) {
		jw_null(w, key);
		return;
	}
	cpulist_format(m, buf, sizeof(buf));
	jw_str(w, key, buf);
}

void jw_bool_have(struct jw *w, const char *key, bool have, bool val)
{
	if (have)
		jw_bool(w, key, val);
	else
		jw_null(w, key);
}

void jw_u64_list(struct jw *w, const char *key, const uint64_t *v, size_t n)
{
	if (!n) {
		jw_null(w, key);
		return;
	}
	jw_arr_begin(w, key);
	for (size_t i = 0; i < n; i++)
		jw_uint(w, NULL, v[i]);
	jw_arr_end(w);
}

void jw_str_list(struct jw *w, const char *key, const char *first, size_t stride, size_t n)
{
	if (!n) {
		jw_null(w, key);
		return;
	}
	jw_arr_begin(w, key);
	for (size_t i = 0; i < n; i++)
		jw_str(w, NULL, first + i * stride);
	jw_arr_end(w);
}

void jw_double_list(struct jw *w, const char *key, const double *v, size_t n, int decimals)
{
	jw_arr_begin(w, key);
	for (size_t i = 0; i < n; i++)
		jw_double(w, NULL, v ? v[i] : NAN, decimals);
	jw_arr_end(w);
}

void jw_errno(struct jw *w, const char *key, int e)
{
	jw_str(w, key, e ? err_name(e) : NULL);
}

void jw_obj_array(struct jw *w, const char *key, const void *v, size_t n, size_t size,
		  void (*each)(struct jw *w, const void *elem))
{
	jw_arr_begin(w, key);
	for (size_t i = 0; i < n; i++) {
		jw_obj_begin(w, NULL);
		each(w, (const char *)v + i * size);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}
