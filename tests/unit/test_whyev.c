/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/probe/whyev.c: every kind survives write + parse
 * field by field (a comm with a space comes back with '_'); the stable sort
 * keeps the order of equal timestamps; garbage, truncated lines, unknown,
 * missing and repeated keys, values out of range, overlong lines and a
 * missing header are refused with the right line number and a sentence
 * naming the field. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/why.h"
#include "tap.h"

static struct why_event ev(uint64_t ts, int cpu, enum why_ev_kind k)
{
	struct why_event e;

	memset(&e, 0, sizeof(e));
	e.ts_ns = ts;
	e.cpu = cpu;
	e.kind = k;
	return e;
}

static void build(struct why_events *s)
{
	struct why_event e;

	e = ev(1000000123456789ull, 3, WEV_SWITCH);
	strcpy(e.u.sw.prev_comm, "swapper/3");
	e.u.sw.prev_pid = 0;
	e.u.sw.prev_prio = 120;
	e.u.sw.prev_state = 0;
	strcpy(e.u.sw.next_comm, "kworker 3:1");
	e.u.sw.next_pid = 4242;
	e.u.sw.next_prio = -1;
	why_events_add(s, &e);
	e = ev(1000000123456800ull, 3, WEV_WAKING);
	strcpy(e.u.wk.comm, "tunetop-probe");
	e.u.wk.pid = 777;
	e.u.wk.prio = 9;
	e.u.wk.target_cpu = 3;
	e.u.wk.orig_cpu = -1;
	why_events_add(s, &e);
	e = ev(1000000123456801ull, 3, WEV_WAKEUP);
	strcpy(e.u.wk.comm, "tunetop-probe");
	e.u.wk.pid = 777;
	e.u.wk.prio = 9;
	e.u.wk.target_cpu = 3;
	e.u.wk.orig_cpu = -1;
	why_events_add(s, &e);
	e = ev(1000000123456802ull, 1, WEV_MIGRATE);
	strcpy(e.u.wk.comm, "tunetop-probe");
	e.u.wk.pid = 777;
	e.u.wk.prio = 9;
	e.u.wk.orig_cpu = 1;
	e.u.wk.target_cpu = 3;
	why_events_add(s, &e);
	e = ev(5, 0, WEV_IRQ);
	e.u.irq.irq = 24;
	e.u.irq.ret = -1;
	strcpy(e.u.irq.name, "virtio0-input.0");
	why_events_add(s, &e);
	e = ev(6, 0, WEV_IRQ_EXIT);
	e.u.irq.irq = 24;
	e.u.irq.ret = 1;
	why_events_add(s, &e);
	e = ev(7, 0, WEV_SOFTIRQ_RAISE);
	e.u.sirq.vec = 3;
	why_events_add(s, &e);
	e = ev(8, 0, WEV_SOFTIRQ);
	e.u.sirq.vec = 3;
	why_events_add(s, &e);
	e = ev(9, 0, WEV_SOFTIRQ_EXIT);
	e.u.sirq.vec = 3;
	why_events_add(s, &e);
	e = ev(10, 0, WEV_IDLE);
	e.u.idle.state = 2;
	why_events_add(s, &e);
	e = ev(11, 0, WEV_IDLE);
	e.u.idle.state = WHY_IDLE_EXIT;
	why_events_add(s, &e);
	e = ev(12, 0, WEV_IDLE_MISS);
	e.u.idle.state = 2;
	e.u.idle.below = 1;
	why_events_add(s, &e);
	e = ev(13, 0, WEV_TIMER);
	strcpy(e.u.timer.fn, "hrtimer_wakeup");
	why_events_add(s, &e);
	e = ev(14, 0, WEV_LATE);
	e.u.late.tid = 777;
	e.u.late.deadline_ns = 18446744073709551000ull;
	e.u.late.wake_ns = 18446744073709551615ull;
	why_events_add(s, &e);
	e = ev(15, 1023, WEV_LOST);
	e.u.lost.n = 17;
	why_events_add(s, &e);
}

static char *write_text(const struct why_events *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	ok(why_events_write(s, f) == 0, "write returns 0");
	fclose(f);
	return buf;
}

static void test_round_trip(void)
{
	struct why_events s = {0}, p;
	char *text, why[160];
	int line = -1;

	build(&s);
	text = write_text(&s);
	ok(strncmp(text, "# tunetop-events 1\n# clock mono\n", 32) == 0, "header and clock first");
	ok(strstr(text, "next_comm=kworker_3:1 ") != NULL, "a space in a comm is written as '_'");
	is_int(why_events_parse(text, &p, &line, why, sizeof(why)), 0, "what was written parses");
	is_int(line, 0, "no error line");
	is_int(p.n, s.n, "every event comes back");
	strcpy(s.ev[0].u.sw.next_comm, "kworker_3:1");
	for (size_t i = 0; i < s.n && i < p.n; i++)
		ok(memcmp(&s.ev[i], &p.ev[i], sizeof(s.ev[i])) == 0, "event %zu (%s) identical", i,
		   why_ev_kind_name(s.ev[i].kind));
	is_int(p.ev[1].u.wk.orig_cpu, -1, "waking: orig_cpu is -1");
	is_int(p.ev[3].u.wk.orig_cpu, 1, "migrate: orig_cpu");
	is_int(p.ev[3].u.wk.target_cpu, 3, "migrate: dest_cpu in target_cpu");
	is_int(p.ev[4].u.irq.ret, -1, "irq entry: ret is -1");
	free(text);
	/* the parsed copy writes the same text again */
	text = write_text(&p);
	{
		char *again = write_text(&s);

		is_str(text, again, "write(parse(write(x))) == write(x)");
		free(again);
	}
	free(text);
	why_events_free(&s);
	why_events_free(&p);
	ok(s.ev == NULL && s.n == 0, "free leaves the stream empty");
}

static void test_sort(void)
{
	struct why_events s = {0};
	uint64_t ts[] = {50, 10, 30, 10, 50, 20, 10, 40, 30, 5};
	int ok_order = 1, stable = 1;

	for (int i = 0; i < 10; i++) {
		struct why_event e = ev(ts[i], i, WEV_LOST);

		e.u.lost.n = 1;
		why_events_add(&s, &e);
	}
	why_events_sort(&s);
	for (size_t i = 1; i < s.n; i++) {
		if (s.ev[i - 1].ts_ns > s.ev[i].ts_ns)
			ok_order = 0;
		if (s.ev[i - 1].ts_ns == s.ev[i].ts_ns && s.ev[i - 1].cpu > s.ev[i].cpu)
			stable = 0;
	}
	ok(ok_order, "sorted by ts_ns");
	ok(stable, "equal timestamps keep their order (cpu = original index)");
	is_int(s.ev[0].cpu, 9, "the earliest first");
	is_int(s.ev[1].cpu, 1, "then the first 10");
	is_int(s.ev[3].cpu, 6, "then the last 10");
	why_events_free(&s);
	why_events_sort(&s); /* empty: nothing to do */
	ok(s.n == 0, "sorting an empty stream");
}

static void refused(const char *text, int want_line, const char *want_why, const char *name)
{
	struct why_events p;
	char why[160] = "";
	int line = -5;

	is_int(why_events_parse(text, &p, &line, why, sizeof(why)), -EINVAL, name);
	is_int(line, want_line, "  its line number");
	if (!ok(strstr(why, want_why) != NULL, "  says '%s'", want_why))
		printf("#   got '%s'\n", why);
	ok(p.n == 0 && p.ev == NULL, "  nothing is kept");
	ok(!strchr(why, '\n'), "  one line");
}

#define H "# tunetop-events 1\n# clock mono\n"

static void test_garbage(void)
{
	char *big;

	refused("", 1, "empty", "empty text");
	refused("hello\n", 1, "no '# tunetop-events 1' header", "no header");
	refused("# tunetop-events 2\n", 1, "version '2'", "another version");
	refused("# tunetop-events 1\n# clock realtime\n", 2, "clock 'realtime'", "another clock");
	refused(H "100 0 bogus x=1\n", 3, "unknown event kind 'bogus'", "unknown kind");
	refused(H "\n100 0 lost n=1\n100 0 lost\n", 5, "lost: key 'n' is missing", "missing key");
	refused(H "100 0 lost n=1 n=2\n", 3, "given twice", "repeated key");
	refused(H "100 0 lost m=1\n", 3, "unknown key 'm'", "unknown key");
	refused(H "100 0 lost n=0\n", 3, "at least 1", "lost n=0");
	refused(H "100 0 lost n\n", 3, "not key=value", "no '='");
	refused(H "x 0 lost n=1\n", 3, "timestamp 'x'", "bad timestamp");
	refused(H "-1 0 lost n=1\n", 3, "timestamp", "negative timestamp");
	refused(H "1 1024 lost n=1\n", 3, "cpu '1024'", "cpu out of range");
	refused(H "1 -1 lost n=1\n", 3, "cpu '-1'", "negative cpu");
	refused(H "1 0 softirq vec=32\n", 3, "vec: '32'", "vector out of range");
	refused(H "1 0 softirq vec=+3\n", 3, "vec: '+3'", "a plus sign");
	refused(H "1 0 waking comm=a pid=1 prio=140 target_cpu=0\n", 3, "prio: '140'",
		"prio out of range");
	refused(H "1 0 waking comm=a pid=1 prio=1 target_cpu=0 x=1\n", 3, "unknown key 'x'",
		"a fifth field");
	refused(H "1 0 waking comm=a pid=1 prio=1 target_cpu=0 a b c d e f g h i\n", 3,
		"more than its 4 fields", "far too many fields");
	refused(H "1 0 late tid=5 deadline_ns=200 wake_ns=100\n", 3, "wake_ns is before",
		"wake before deadline");
	refused(H "1 0 timer fn=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", 3, "longer than 31",
		"string too long");
	refused(H "1 0 irq irq=3 name=x\n2 0\n", 4, "expected '<ts_ns> <cpu> <kind>",
		"a line with two fields");
	big = malloc(WHY_LINE_MAX + 64);
	if (!big)
		abort();
	strcpy(big, H "1 0 timer fn=");
	memset(big + strlen(big), 'a', WHY_LINE_MAX);
	big[strlen(H) + WHY_LINE_MAX + 1] = '\0';
	refused(big, 3, "line longer than 512", "an overlong line");
	free(big);
}

static void test_truncated(void)
{
	struct why_events s = {0}, p;
	char *text, why[160];
	size_t len;
	int line, n_ok = 0, n_bad = 0, all_lines_ok = 1;

	build(&s);
	text = write_text(&s);
	len = strlen(text);
	/* cut the text at every byte: either it parses (a cut at a line end or
	 * one that still leaves a valid number) or it is refused on the last
	 * line, never a crash and never an event more than the cut holds */
	for (size_t cut = 1; cut < len; cut++) {
		char *t = strndup(text, cut);
		int lines = 1;

		for (size_t i = 0; i + 1 < cut; i++)
			lines += t[i] == '\n';
		if (why_events_parse(t, &p, &line, why, sizeof(why)) == 0) {
			n_ok++;
			if (p.n > s.n)
				all_lines_ok = 0;
			why_events_free(&p);
		} else {
			n_bad++;
			if (line != lines)
				all_lines_ok = 0;
		}
		free(t);
	}
	ok(n_ok > 0 && n_bad > 0, "cuts: %d parse, %d refused", n_ok, n_bad);
	ok(all_lines_ok, "a refused cut names its last line");
	/* a cut inside a key=value */
	refused(H "100 3 switch prev_comm=a prev_pid=1 prev_prio=120 prev_state=0 next_comm=b "
		  "next_pid=\n",
		3, "next_pid: ''", "truncated value");
	refused(H "100 3 switch prev_comm=a prev_pid=1 prev_prio=120 prev_state=0 next_comm=b\n", 3,
		"key 'next_pid' is missing", "truncated line");
	free(text);
	why_events_free(&s);
}

static void test_names(void)
{
	is_str(why_ev_kind_name(WEV_SWITCH), "switch", "kind name switch");
	is_str(why_ev_kind_name(WEV_SOFTIRQ_RAISE), "softirq_raise", "kind name softirq_raise");
	is_str(why_ev_kind_name(WEV_LOST), "lost", "kind name lost");
	is_str(why_ev_kind_name(WEV__COUNT), "?", "out of range");
}

int main(void)
{
	test_round_trip();
	test_sort();
	test_garbage();
	test_truncated();
	test_names();
	return done_testing();
}
