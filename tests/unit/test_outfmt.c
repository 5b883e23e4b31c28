/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the helpers the section writers share (issue 14): the
 * list, n/a and object-array forms of the JSON writer (src/core/json.c) and src/out/fmt.c
 * (errno words, n/a, rate columns, the share-per-frequency object). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/cpumask.h"
#include "core/json.h"
#include "core/str.h"
#include "out/fmt.h"
#include "tap.h"

static void test_json_lists(void)
{
	struct sbuf b;
	struct jw w;
	struct cpumask m, big;
	const uint64_t hz[] = {408000000, 1800000000};
	const double d[] = {1.26, NAN};
	const char names[][16] = {"perf", "ondemand"};
	char want[8192];
	size_t n = 0;

	cpumask_zero(&m);
	cpumask_set(&m, 0);
	cpumask_set(&m, 1);
	cpumask_set(&m, 2);
	cpumask_set(&m, 6);
	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	jw_cpulist(&w, "a", true, &m);
	jw_cpulist(&w, "b", false, &m);
	jw_bool_have(&w, "c", true, false);
	jw_bool_have(&w, "d", false, true);
	jw_u64_list(&w, "e", hz, 2);
	jw_u64_list(&w, "f", NULL, 0);
	jw_str_list(&w, "g", names[0], sizeof(names[0]), 2);
	jw_str_list(&w, "h", NULL, 8, 0);
	jw_double_list(&w, "i", d, 2, 1);
	jw_double_list(&w, "j", NULL, 2, 1);
	jw_double_list(&w, "k", d, 0, 1);
	jw_errno(&w, "l", -EACCES);
	jw_errno(&w, "m", 0);
	jw_obj_end(&w);
	is_str(b.s,
	       "{\"a\":\"0-2,6\",\"b\":null,\"c\":false,\"d\":null,\"e\":[408000000,1800000000],"
	       "\"f\":null,\"g\":[\"perf\",\"ondemand\"],\"h\":null,\"i\":[1.3,null],"
	       "\"j\":[null,null],\"k\":[],\"l\":\"EACCES\",\"m\":null}",
	       "json: cpulist, bool_have, u64/str/double lists, errno");

	/* every other CPU of TT_MAX_CPUS: the longest CPU list, written whole */
	cpumask_zero(&big);
	for (int c = 0; c < TT_MAX_CPUS; c += 2) {
		cpumask_set(&big, c);
		n += (size_t)snprintf(want + n, sizeof(want) - n, "%s%d", c ? "," : "", c);
	}
	sbuf_reset(&b);
	jw_init(&w, &b, false);
	jw_cpulist(&w, NULL, true, &big);
	ok(b.len == n + 2 && !strncmp(b.s + 1, want, n),
	   "json: a %zu-character CPU list is not cut", n);
	sbuf_free(&b);
}

struct pt {
	int x;
	char name[6];
};

static void pt_json(struct jw *w, const void *e)
{
	const struct pt *p = e;

	jw_int(w, "x", p->x);
	jw_str(w, "name", p->name);
}

static void test_obj_array(void)
{
	struct sbuf b;
	struct jw w;
	const struct pt v[] = {{1, "a"}, {-2, "bc"}, {3, "def"}};

	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	jw_obj_array(&w, "v", v, 3, sizeof(v[0]), pt_json);
	jw_obj_array(&w, "none", NULL, 0, sizeof(v[0]), pt_json);
	jw_obj_end(&w);
	is_str(b.s,
	       "{\"v\":[{\"x\":1,\"name\":\"a\"},{\"x\":-2,\"name\":\"bc\"},"
	       "{\"x\":3,\"name\":\"def\"}],\"none\":[]}",
	       "obj_array: an object per element, each at its stride; [] for none");
	sbuf_free(&b);
}

static const struct out_why own[] = {
	{EACCES, "permission denied, needs root"},
	{ENODATA, "empty"},
	{0, NULL},
};

static void test_why(void)
{
	struct sbuf b;

	is_str(out_why(-EACCES, own), "permission denied, needs root", "why: own words first");
	is_str(out_why(ENODATA, own), "empty", "why: a positive errno too");
	is_str(out_why(-ENOENT, own), "not present", "why: shared words after the own");
	is_str(out_why(-EACCES, NULL), "permission denied", "why: shared words without a table");
	is_str(out_why(-EIO, own), "unreadable", "why: anything else is unreadable");
	is_str(out_why(0, own), "unreadable", "why: 0 is unreadable");

	sbuf_init(&b);
	out_put_err(&b, -ENODATA, own);
	is_str(b.s, "n/a (ENODATA: empty)", "put_err: name and words");
	sbuf_reset(&b);
	out_put_none(&b, -ENOENT, "  none\n", own);
	out_put_none(&b, 0, "  none\n", own);
	out_put_none(&b, -EACCES, "  none\n", own);
	is_str(b.s, "  none\n  none\n  n/a (EACCES: permission denied, needs root)\n",
	       "put_none: none for 0 and ENOENT, the reason otherwise");
	sbuf_free(&b);
}

static void test_text(void)
{
	struct sbuf b;

	is_str(out_na(NULL), "n/a", "na: NULL");
	is_str(out_na(""), "n/a", "na: empty");
	is_str(out_na("x"), "x", "na: a string");
	sbuf_init(&b);
	out_put_int(&b, -1);
	sbuf_putc(&b, '/');
	out_put_int(&b, 0);
	sbuf_putc(&b, '/');
	out_put_int(&b, 12345678901LL);
	out_put_rate(&b, 2.26, 6);
	out_put_rate(&b, NAN, 5);
	is_str(b.s, "n/a/0/12345678901    2.3   n/a", "put_int and put_rate");
	sbuf_free(&b);
}

static void test_pct_by_freq(void)
{
	struct sbuf b;
	struct jw w;
	const uint64_t f[] = {408000, 1200000};
	const double p[] = {75, 25};

	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_pct_by_freq_json(&w, "a", true, f, p, 2);
	out_pct_by_freq_json(&w, "b", true, f, NULL, 2);
	out_pct_by_freq_json(&w, "c", false, f, p, 2);
	jw_obj_end(&w);
	is_str(b.s,
	       "{\"a\":{\"408000\":75.0,\"1200000\":25.0},\"b\":{\"408000\":null,\"1200000\":null},"
	       "\"c\":null}",
	       "pct_by_freq: keyed by frequency, null before derive, null when absent");
	sbuf_free(&b);
}

int main(void)
{
	test_json_lists();
	test_obj_array();
	test_why();
	test_text();
	test_pct_by_freq();
	return done_testing();
}
