/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/core: CPU lists, number parsing, JSON writer, the
 * binary's directory. */
#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"
#include "core/exe.h"
#include "core/json.h"
#include "core/str.h"
#include "tap.h"

static void test_cpulist(void)
{
	struct cpumask m;
	char buf[256];

	is_int(cpulist_parse("0-3,8,10-11\n", &m), 0, "parse 0-3,8,10-11");
	is_int(cpumask_count(&m), 7, "7 cpus");
	cpulist_format(&m, buf, sizeof(buf));
	is_str(buf, "0-3,8,10-11", "format round trip");
	is_int(cpulist_parse("", &m), 0, "empty list parses");
	ok(cpumask_empty(&m), "empty list is empty");
	is_int(cpulist_parse("\n", &m), 0, "newline-only list (offline file) parses");
	is_int(cpulist_parse("0-7:2", &m), 0, "stride");
	cpulist_format(&m, buf, sizeof(buf));
	is_str(buf, "0,2,4,6", "stride expands");
	/* found by tests/fuzz/fuzz_cpulist: c + stride overflowed a long (UB) */
	is_int(cpulist_parse("1-2:9223372036854775807", &m), 0, "huge stride parses");
	cpulist_format(&m, buf, sizeof(buf));
	is_str(buf, "1", "huge stride: the first CPU only");
	is_int(cpulist_parse("0-1023:1023", &m), 0, "stride to the last CPU");
	cpulist_format(&m, buf, sizeof(buf));
	is_str(buf, "0,1023", "stride reaches the range end exactly");
	is_int(cpulist_parse("3-1", &m), -EINVAL, "reversed range rejected");
	is_int(cpulist_parse("1,,2", &m), -EINVAL, "double comma rejected");
	is_int(cpulist_parse("abc", &m), -EINVAL, "garbage rejected");
	is_int(cpulist_parse("0-5000", &m), -ERANGE, "cpu beyond TT_MAX_CPUS rejected");
	is_int(cpulist_parse_spaces("0 1 2 3\n", &m), 0, "related_cpus format");
	cpulist_format(&m, buf, sizeof(buf));
	is_str(buf, "0-3", "related_cpus -> 0-3");
	is_int(cpulist_parse_spaces("  4   1 ", &m), 0, "related_cpus: any white space");
	cpulist_format(&m, buf, sizeof(buf));
	is_str(buf, "1,4", "related_cpus: 1 and 4");
	is_int(cpulist_parse_spaces("0-3", &m), -EINVAL, "related_cpus: no ranges");
	is_int(cpulist_parse_spaces("1,2", &m), -EINVAL, "related_cpus: no commas");
	is_int(cpulist_parse_spaces("5000", &m), -ERANGE, "related_cpus: beyond TT_MAX_CPUS");
	is_int(cpulist_parse("0 1", &m), -EINVAL, "a cpulist has no spaces inside");
	is_int(cpumask_parse_hex("ffffffff,00000003\n", &m), 0, "hex mask with groups");
	is_int(cpumask_count(&m), 34, "hex mask count");
	ok(cpumask_test(&m, 0) && cpumask_test(&m, 1) && !cpumask_test(&m, 2) &&
		   cpumask_test(&m, 32),
	   "hex mask bits");
	cpulist_parse("0-1,32-63", &m);
	cpumask_format_hex(&m, 64, buf, sizeof(buf));
	is_str(buf, "ffffffff,00000003", "hex format");
	cpulist_parse("0-7", &m);
	cpumask_format_hex(&m, 8, buf, sizeof(buf));
	is_str(buf, "ff", "hex format 8 cpus");
	is_int(cpumask_next(&m, 3), 3, "next from 3");
	is_int(cpumask_last(&m), 7, "last");
}

static void test_numbers(void)
{
	uint64_t u;
	int64_t i;
	double d;

	is_int(str_to_u64(" 408000\n", &u), 0, "u64 with space");
	is_int((long long)u, 408000, "u64 value");
	is_int(str_to_u64("", &u), -EINVAL, "empty u64");
	is_int(str_to_u64("12abc", &u), -EINVAL, "trailing garbage");
	is_int(str_to_u64("-1", &u), -EINVAL, "negative u64");
	is_int(str_to_u64("99999999999999999999999", &u), -ERANGE, "overflow");
	is_int(str_to_i64("-1\n", &i), 0, "i64 -1");
	is_int(i, -1, "i64 value");
	is_int(str_to_double("950.000000", &d), 0, "double");
	is_dbl(d, 950.0, 1e-9, "double value");
	is_int(str_to_hex_u64("0xd0b", &u), 0, "hex");
	is_int((long long)u, 0xd0b, "hex value");
	is_int(str_to_hex_u64("0x", &u), -EINVAL, "hex: 0x alone");
	is_int(str_to_i64("+7 ", &i), 0, "i64 +7");
	is_int(i, 7, "i64 +7 value");
	is_int(str_to_i64("-", &i), -EINVAL, "i64: a sign alone");
	is_int(str_to_double("-x", &d), -EINVAL, "double: no digit after the sign");
	is_int(str_to_double("1e999", &d), -ERANGE, "double overflow");
}

static void test_wrap(void)
{
	const char *t = "the quick brown\nfox";
	int len = str_wrap_len(t, 10);

	is_int(len, 9, "wrap: at the last space before the width");
	t = str_wrap_next(t, len);
	is_str(t, "brown\nfox", "wrap: the next line starts past the space");
	len = str_wrap_len(t, 10);
	is_int(len, 5, "wrap: a newline ends the line");
	t = str_wrap_next(t, len);
	is_int(str_wrap_len(t, 10), 3, "wrap: the rest");
	is_int(str_wrap_len("abcdefghijkl", 5), 5, "wrap: a word longer than the width is cut");
}

static void test_json_na(void)
{
	struct sbuf b;
	struct jw w;
	struct cpumask m;

	cpumask_zero(&m);
	cpumask_set(&m, 1);
	cpumask_set(&m, 3);
	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	jw_int_nn(&w, "a", -1);
	jw_int_nn(&w, "b", 0);
	jw_int_have(&w, "c", false, 5);
	jw_uint_have(&w, "d", true, 6);
	jw_str_nz(&w, "e", "");
	jw_str_nz(&w, "f", "x");
	jw_cpus(&w, "g", &m);
	jw_obj_end(&w);
	is_str(b.s, "{\"a\":null,\"b\":0,\"c\":null,\"d\":6,\"e\":null,\"f\":\"x\",\"g\":[1,3]}",
	       "n/a-aware json writers");
	sbuf_free(&b);
}

static void test_json(void)
{
	struct sbuf b;
	struct jw w;

	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "a", "x\"y\n");
	jw_arr_begin(&w, "l");
	jw_int(&w, NULL, -3);
	jw_double(&w, NULL, NAN, 1);
	jw_str(&w, NULL, NULL);
	jw_arr_end(&w);
	jw_obj_begin(&w, "o");
	jw_obj_end(&w);
	jw_bool(&w, "t", true);
	jw_obj_end(&w);
	is_str(b.s, "{\"a\":\"x\\\"y\\n\",\"l\":[-3,null,null],\"o\":{},\"t\":true}",
	       "compact json");
	sbuf_free(&b);
}

/* An sbuf with a sink streams a long JSON array through a small buffer:
 * the sink gets every byte, in order, and the buffer stays small. */
static void test_sbuf_sink(void)
{
	struct sbuf b, want;
	struct jw w, ww;
	char *got = NULL;
	size_t got_len = 0;
	FILE *f = open_memstream(&got, &got_len);

	sbuf_init(&b);
	sbuf_init(&want);
	b.sink = f;
	jw_init(&w, &b, false);
	jw_init(&ww, &want, false);
	jw_arr_begin(&w, NULL);
	jw_arr_begin(&ww, NULL);
	for (int i = 0; i < 100000; i++) {
		jw_double(&w, NULL, i / 7.0, 1);
		jw_double(&ww, NULL, i / 7.0, 1);
	}
	jw_arr_end(&w);
	jw_arr_end(&ww);
	ok(b.cap <= SBUF_SINK_BYTES, "sink: the buffer stays within SBUF_SINK_BYTES (%zu)", b.cap);
	fwrite(b.s, 1, b.len, f);
	fclose(f);
	ok(want.len > 4 * SBUF_SINK_BYTES, "sink: the text is longer than the buffer");
	ok(got && got_len == want.len && !memcmp(got, want.s, want.len),
	   "sink: the sink got the same bytes as a plain sbuf");
	free(got);
	sbuf_free(&b);
	sbuf_free(&want);
}

/* exe_dir: the directory of this test program, as argv[0] names it */
static void test_exe_dir(const char *argv0)
{
	char dir[PATH_MAX], want[PATH_MAX], small[4];
	char *slash;

	ok(exe_dir(dir, sizeof(dir)) == 0, "exe_dir: 0");
	if (!realpath(argv0, want)) {
		ok(0, "realpath(%s)", argv0);
		return;
	}
	slash = strrchr(want, '/');
	*slash = '\0';
	is_str(dir, want, "exe_dir: the directory of the running binary");
	ok(dir[0] == '/' && dir[strlen(dir) - 1] != '/', "absolute, no trailing slash");
	is_int(exe_dir(small, sizeof(small)), -ENAMETOOLONG, "a buffer too small: -ENAMETOOLONG");
}

static void test_seconds(void)
{
	double v = -1;

	is_int(str_to_seconds("2.5", "s m", &v), 0, "seconds: a bare number");
	is_dbl(v, 2.5, 1e-12, "seconds: 2.5");
	is_int(str_to_seconds("1.5m", "s m h d", &v), 0, "seconds: minutes");
	is_dbl(v, 90.0, 1e-9, "seconds: 1.5m is 90 s");
	is_int(str_to_seconds("2h", "s m h d", &v), 0, "seconds: hours");
	is_dbl(v, 7200.0, 1e-9, "seconds: 2h is 7200 s");
	is_int(str_to_seconds("1d", "s m h d", &v), 0, "seconds: days");
	is_dbl(v, 86400.0, 1e-9, "seconds: 1d");
	is_int(str_to_seconds("250ms", "ms s m", &v), 0, "seconds: milliseconds");
	is_dbl(v, 0.25, 1e-12, "seconds: 250ms is 0.25 s");
	is_int(str_to_seconds("3s", "ms s m", &v), 0, "seconds: s");
	is_dbl(v, 3.0, 1e-12, "seconds: 3s");
	v = -1;
	is_int(str_to_seconds("250ms", "s m h d", &v), -EINVAL,
	       "seconds: ms where it is not allowed");
	is_int(str_to_seconds("2h", "ms s m", &v), -EINVAL, "seconds: h where it is not allowed");
	is_int(str_to_seconds("", "s", &v), -EINVAL, "seconds: empty");
	is_int(str_to_seconds("s", "s", &v), -EINVAL, "seconds: a unit alone");
	is_int(str_to_seconds("-1s", "s", &v), -EINVAL, "seconds: negative");
	is_int(str_to_seconds("infs", "s", &v), -EINVAL, "seconds: inf");
	is_int(str_to_seconds("nan", "s", &v), -EINVAL, "seconds: nan");
	is_int(str_to_seconds("1x", "s m h d", &v), -EINVAL, "seconds: unknown unit");
	is_dbl(v, -1, 0, "seconds: out untouched on error");
}

/* issue 32: control characters as \xNN, layout kept where asked */
static void test_escape_ctl(void)
{
	struct sbuf b;
	const char in[] = "a\033]0;t\007b\tc\nd\x7f"
			  "\xc2\x9b"
			  "e\xc2\xb5s\\";

	sbuf_init(&b);
	str_escape_ctl(&b, in, sizeof(in) - 1, true);
	is_str(b.s, "a\\x1b]0;t\\x07b\tc\nd\\x7f\\xc2\\x9be\xc2\xb5s\\",
	       "C0, DEL, C1 escaped; tab, newline, µ kept");
	sbuf_reset(&b);
	str_escape_ctl(&b, "x\ny", 3, false);
	is_str(b.s, "x\\x0ay", "a newline escaped inside one field");
	sbuf_free(&b);
	ok(!str_has_ctl("soc-thermal", 11, false), "a plain name has none");
	is_str(str_ctl("plain"), "plain", "str_ctl: plain text as it is");
	is_str(str_ctl("t\033[2J"), "t\\x1b[2J", "str_ctl: escaped");
}

static void test_decimals(void)
{
	is_int(str_decimals(1500.0, 1000.0), 0, "decimals: at or above top: 0");
	is_int(str_decimals(1000.0, 1000.0), 0, "decimals: top itself: 0");
	is_int(str_decimals(-250.0, 1000.0), 1, "decimals: top/10 (negative): 1");
	is_int(str_decimals(12.5, 1000.0), 2, "decimals: top/100: 2");
	is_int(str_decimals(9.99, 1000.0), 3, "decimals: below: 3");
	is_int(str_decimals(0.0, 1000.0), 3, "decimals: zero: 3");
	is_int(str_decimals(NAN, 1000.0), 0, "decimals: NaN: 0");
	is_int(str_decimals(2.0, 10.0), 1, "decimals: top 10, 2: 1");
	is_int(str_decimals(0.1, 10.0), 2, "decimals: top 10, 0.1: 2");
	is_int(str_decimals(0.09, 10.0), 3, "decimals: top 10, 0.09: 3");
}

static void test_temp_c(void)
{
	char b[32];

	is_str(str_temp_c(b, sizeof(b), 43750), "43.8",
	       "temp: 43750 mC is 43.8 (half up, not cut)");
	is_str(str_temp_c(b, sizeof(b), 43749), "43.7", "temp: 43749 mC is 43.7");
	is_str(str_temp_c(b, sizeof(b), 44384), "44.4", "temp: 44384 mC is 44.4");
	is_str(str_temp_c(b, sizeof(b), 0), "0.0", "temp: 0");
	is_str(str_temp_c(b, sizeof(b), -5500), "-5.5", "temp: -5500 mC is -5.5");
	is_str(str_temp_c(b, sizeof(b), -5450), "-5.5", "temp: -5450 mC: half away from zero");
	is_str(str_temp_c(b, sizeof(b), -40), "0.0", "temp: -40 mC is 0.0, not -0.0");
	is_str(str_temp_c(b, sizeof(b), 115000), "115.0", "temp: 115000 mC");
	is_str(str_temp_c(b, sizeof(b), INT64_MIN), "-9223372036854775.8",
	       "temp: INT64_MIN does not overflow");
}

int main(int argc, char **argv)
{
	(void)argc;
	test_cpulist();
	test_numbers();
	test_json();
	test_sbuf_sink();
	test_json_na();
	test_wrap();
	test_seconds();
	test_decimals();
	test_temp_c();
	test_escape_ctl();
	test_exe_dir(argv[0]);
	return done_testing();
}
