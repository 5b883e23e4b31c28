/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/source/softirqs.c and its JSON writer: header column
 * map (sparse CPUs), wrap-safe rates, rows that come and go, live read. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "core/json.h"
#include "out/irqs_out.h"
#include "source/softirqs.h"
#include "sysfs/sysroot.h"
#include "tap.h"

static const char text_a[] = "                    CPU0       CPU1       CPU3       \n"
			     "          HI:          0          0          0\n"
			     "       TIMER: 4294967290       8425         10\n"
			     "      NET_TX:          3          1          0\n"
			     "      NET_RX:       1100       1484          0\n"
			     "       BLOCK:          0      35876          0\n"
			     "    IRQ_POLL:          0          0          0\n"
			     "     TASKLET:          3          1          0\n"
			     "       SCHED:      20837      20702          0\n"
			     "     HRTIMER:          0          0          0\n"
			     "         RCU:      18788      20580          0\n";

static const char text_b[] = "                    CPU0       CPU1       CPU3       \n"
			     "          HI:          0          0          0\n"
			     "       TIMER:          5       8435         20\n"
			     "      NET_TX:          3          1          0\n"
			     "      NET_RX:       1110       1484          0\n"
			     "       BLOCK:          0      35876          0\n"
			     "     TASKLET:          3          1          0\n"
			     "       SCHED:         10      20702          0\n"
			     "     HRTIMER:          0          0          0\n"
			     "         RCU:      18788      20580          0\n"
			     "      NEWONE:          1          1          1\n";

static void test_parse(void)
{
	struct softirq_table t;
	struct softirq_row *r;

	is_int(softirqs_parse(text_a, 0, &t), 0, "parses");
	is_int(t.ncpus, 4, "arrays sized for CPU3");
	is_int(t.n, 10, "10 rows");
	ok(cpumask_test(&t.cpus, 3) && !cpumask_test(&t.cpus, 2), "sparse header");
	r = softirqs_find(&t, "TIMER");
	ok(r && r->count[0] == 4294967290u && r->count[3] == 10 && r->count[2] == 0 &&
		   !cpumask_test(&r->have_cpu, 2),
	   "TIMER counts mapped by header");
	r = softirqs_find(&t, "BLOCK");
	ok(r && r->total == 35876, "BLOCK total");
	ok(softirqs_find(&t, "IRQ_POLL") != NULL && softirqs_find(&t, "RCU") != NULL,
	   "IRQ_POLL and RCU rows");
	softirqs_free(&t);
	is_int(softirqs_parse("TIMER: 1 2\n", 2, &t), -EINVAL, "no header: -EINVAL");
}

static void test_derive(void)
{
	struct softirq_table a, b;
	struct softirq_row *r;

	softirqs_parse(text_a, 0, &a);
	softirqs_parse(text_b, 0, &b);
	softirqs_derive(&b, NULL, 1.0);
	ok(isnan(softirqs_find(&b, "TIMER")->rate_per_s[0]), "no previous: NAN");
	softirqs_derive(&b, &a, 0.5);
	r = softirqs_find(&b, "TIMER");
	is_dbl(r->rate_per_s[0], 22.0, 1e-9, "wrap 4294967290 -> 5 = 11 in 0.5 s");
	is_dbl(r->rate_per_s[1], 20.0, 1e-9, "CPU1");
	is_dbl(r->rate_per_s[3], 20.0, 1e-9, "CPU3 (third column)");
	ok(isnan(r->rate_per_s[2]), "CPU2 (no column) NAN");
	is_dbl(r->total_per_s, 62.0, 1e-9, "TIMER total rate");
	r = softirqs_find(&b, "SCHED");
	ok(isnan(r->rate_per_s[0]) && isnan(r->total_per_s), "reset counter is not a wrap");
	r = softirqs_find(&b, "NEWONE");
	ok(r && isnan(r->total_per_s), "new row NAN");
	ok(softirqs_find(&b, "IRQ_POLL") == NULL, "vanished row gone");
	is_dbl(softirqs_find(&b, "NET_RX")->rate_per_s[0], 20.0, 1e-9, "NET_RX CPU0");
	softirqs_free(&a);
	softirqs_free(&b);
}

static void test_json(void)
{
	struct softirq_table a, b;
	struct sbuf s;
	struct jw w;

	softirqs_parse(text_a, 0, &a);
	softirqs_parse(text_b, 0, &b);
	softirqs_derive(&b, &a, 0.5);
	sbuf_init(&s);
	jw_init(&w, &s, false);
	jw_obj_begin(&w, NULL);
	out_softirqs_json(&w, &b);
	jw_obj_end(&w);
	ok(strstr(s.s, "{\"softirqs\":{\"HI\":{\"rate_per_s\":[0.0,0.0,null,0.0]") != NULL,
	   "json: object keyed by name, per-CPU array with null hole");
	ok(strstr(s.s, "\"TIMER\":{\"rate_per_s\":[22.0,20.0,null,20.0],\"total_per_s\":62.0") !=
		   NULL,
	   "json: TIMER rates");
	ok(strstr(s.s, "\"NEWONE\":{\"rate_per_s\":[null,null,null,null],\"total_per_s\":null") !=
		   NULL,
	   "json: new row null");
	sbuf_reset(&s);
	out_softirqs_text(&s, &b);
	ok(strstr(s.s, "TIMER") && strstr(s.s, "n/a"), "text output");
	sbuf_free(&s);
	softirqs_free(&a);
	softirqs_free(&b);
}

static void test_fixtures_live(void)
{
	static const char *const boards[] = {"rk3588", "intel",	 "stm32mp157", "rpi4",
					     "broken", "am5729", "b4860"};
	struct softirq_table t;

	for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++) {
		char p[1100];
		struct sysroot r;

		snprintf(p, sizeof(p), "%s/proc/softirqs", fixture(boards[i]));
		if (access(p, R_OK) != 0) {
			printf("ok %d - fixture %s # SKIP no proc/softirqs yet\n", ++tap_n,
			       boards[i]);
			continue;
		}
		if (sysroot_open(&r, fixture(boards[i])) != 0) {
			ok(0, "fixture %s opens", boards[i]);
			continue;
		}
		is_int(softirqs_read(&r, 0, &t), 0, boards[i]);
		ok(softirqs_find(&t, "TIMER") != NULL, "%s: TIMER row", boards[i]);
		softirqs_free(&t);
		sysroot_close(&r);
	}
	if (softirqs_read(sysroot_live(), 0, &t) != 0) {
		printf("ok %d - live # SKIP /proc/softirqs not readable\n", ++tap_n);
		return;
	}
	is_int(cpumask_count(&t.cpus), sysconf(_SC_NPROCESSORS_ONLN),
	       "live: a column per online CPU");
	ok(softirqs_find(&t, "SCHED") != NULL, "live: SCHED row");
	softirqs_free(&t);
}

int main(void)
{
	test_parse();
	test_derive();
	test_json();
	test_fixtures_live();
	return done_testing();
}
