/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JSON reader: values, escapes, numbers, errors, and a round trip of
 * what the writer (core/json.h) produces. */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "core/json.h"
#include "core/jsonparse.h"
#include "tap.h"

static int parse(const char *text, struct jp_value *v, char *err)
{
	return jp_parse(text, strlen(text), v, err, 160);
}

static void test_values(void)
{
	struct jp_value v;
	char err[160];

	ok(parse(" {\"a\": 1, \"b\": [true, false, null], \"c\": \"x\\ny\", \"d\": -2.5e3 } ", &v,
		 err) == 0,
	   "object parses");
	is_int(jp_int(jp_get(&v, "a"), -1), 1, "a = 1");
	ok(jp_get(&v, "a")->is_int, "1 is an exact integer");
	is_int(jp_len(jp_get(&v, "b")), 3, "b has 3 items");
	ok(jp_bool(jp_path(&v, "b.0"), false) == true, "b.0 true");
	ok(jp_bool(jp_path(&v, "b.1"), true) == false, "b.1 false");
	ok(jp_is_null(jp_path(&v, "b.2")), "b.2 null");
	ok(jp_is_null(jp_path(&v, "b.3")), "b.3 missing counts as null");
	is_str(jp_str(jp_get(&v, "c"), NULL), "x\ny", "escape \\n");
	is_dbl(jp_num(jp_get(&v, "d"), 0), -2500.0, 1e-9, "-2.5e3");
	ok(!jp_get(&v, "d")->is_int, "exponent form is not an exact integer");
	ok(jp_get(&v, "zz") == NULL, "missing key");
	ok(jp_str(jp_get(&v, "a"), "dflt") && !strcmp(jp_str(jp_get(&v, "a"), "dflt"), "dflt"),
	   "type mismatch gives the default");
	jp_free(&v);

	ok(parse("\"\\u00e9\\ud83d\\ude00\\/\"", &v, err) == 0, "unicode escapes");
	is_str(v.s, "\xc3\xa9\xf0\x9f\x98\x80/", "UTF-8 out of \\u and a surrogate pair");
	jp_free(&v);

	ok(parse("9223372036854775807", &v, err) == 0 && v.is_int && v.i == INT64_MAX,
	   "INT64_MAX exact");
	jp_free(&v);
	ok(parse("-9223372036854775808", &v, err) == 0 && v.is_int && v.i == INT64_MIN,
	   "INT64_MIN exact");
	jp_free(&v);
	ok(parse("18446744073709551615", &v, err) == 0 && !v.is_int && v.num > 1.8e19,
	   "beyond int64: a double");
	jp_free(&v);
	ok(parse("0.000123", &v, err) == 0 && fabs(v.num - 0.000123) < 1e-15, "small fraction");
	jp_free(&v);
	ok(parse("123.456", &v, err) == 0 && v.num == 123.456, "123.456 exact as a double");
	jp_free(&v);
	/* found by tests/fuzz: 0 * powl(10, 999999) = 0 * inf was NaN */
	ok(parse("[0e999999, -0.0e400, 0.000e-999999]", &v, err) == 0, "zeros with huge exponents");
	for (size_t i = 0; i < 3; i++)
		ok(jp_num(jp_at(&v, i), 1) == 0, "element %zu is 0, not NaN", i);
	jp_free(&v);
}

static void test_errors(void)
{
	static const char *bad[] = {
		"",	    "{",       "[1,]",	  "{\"a\" 1}", "01",	    "1.", "tru",
		"\"abc",    "\"\\x\"", "[1] [2]", "{\"a\":}",  "-",	    "1e", "\"\\ud800\"",
		"\"a\nb\"", "{1:2}",   "[",	  "nul",       "\"\\u12\"",
	};
	struct jp_value v;
	char err[160];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int e = parse(bad[i], &v, err);

		ok(e == -EINVAL && err[0], "refused '%s' (%s)", bad[i], err);
		ok(v.type == JP_NULL && v.n == 0 && !v.s, "output cleared after an error");
	}
	ok(parse("{\n  \"a\": 1,\n  \"b\" 2\n}", &v, err) == -EINVAL, "missing colon");
	ok(strstr(err, "line 3") != NULL, "error names the line (%s)", err);
	/* found by tests/fuzz/fuzz_json: the byte after '\' went into the message */
	ok(parse("\"\\\n\"", &v, err) == -EINVAL, "backslash newline refused");
	ok(!strchr(err, '\n'), "its message stays one line (%s)", err);
	is_str(err, "line 1, column 3: bad escape '\\' followed by byte 0x0a", "byte named in hex");
}

static void test_depth(void)
{
	char deep[JP_MAX_DEPTH * 2 + 8];
	struct jp_value v;
	char err[160];
	size_t n = 0;

	for (int i = 0; i < JP_MAX_DEPTH + 2; i++)
		deep[n++] = '[';
	for (int i = 0; i < JP_MAX_DEPTH + 2; i++)
		deep[n++] = ']';
	deep[n] = '\0';
	ok(parse(deep, &v, err) == -EINVAL, "too deep is refused (%s)", err);
	n = 0;
	for (int i = 0; i < 10; i++)
		deep[n++] = '[';
	for (int i = 0; i < 10; i++)
		deep[n++] = ']';
	deep[n] = '\0';
	ok(parse(deep, &v, err) == 0, "10 levels fine");
	jp_free(&v);
}

static void test_roundtrip(void)
{
	struct sbuf b;
	struct jw w;
	struct jp_value v;
	char err[160];

	/* A locale with a decimal comma must not change how numbers read. */
	setlocale(LC_NUMERIC, "de_DE.UTF-8");
	sbuf_init(&b);
	jw_init(&w, &b, true);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "name", "policy4 \"big\"\t\x01");
	jw_double(&w, "pct", 97.25, 2);
	jw_double(&w, "nan", NAN, 1);
	jw_int(&w, "neg", -408000);
	jw_uint(&w, "big", UINT64_C(2400000000));
	jw_arr_begin(&w, "list");
	jw_int(&w, NULL, 4);
	jw_int(&w, NULL, 5);
	jw_arr_end(&w);
	jw_obj_end(&w);
	ok(parse(b.s, &v, err) == 0, "writer output parses (%s)", err);
	is_str(jp_str(jp_get(&v, "name"), NULL), "policy4 \"big\"\t\x01", "string round trip");
	is_dbl(jp_num(jp_get(&v, "pct"), 0), 97.25, 1e-12, "double round trip");
	ok(jp_is_null(jp_get(&v, "nan")), "NaN written as null");
	is_int(jp_int(jp_get(&v, "neg"), 0), -408000, "negative int");
	is_int(jp_int(jp_get(&v, "big"), 0), 2400000000LL, "large int");
	is_int(jp_int(jp_path(&v, "list.1"), 0), 5, "array path");
	jp_free(&v);
	sbuf_free(&b);
	setlocale(LC_NUMERIC, "C");
}

int main(void)
{
	test_values();
	test_errors();
	test_depth();
	test_roundtrip();
	return done_testing();
}
