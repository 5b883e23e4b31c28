/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the counters as the TUI shows them (src/ui/counters_fmt.c)
 * and the `events` key of tunetoprc (src/ui/config.c): splitting and
 * checking an events list, which Cores columns a set can fill and their
 * headings (ARM L1D refills, x86 LLC misses), cell texts (n/a, waiting,
 * scaled), and each reason for n/a said once. Sets come from
 * perf_open_cpus() on temporary roots that are not the live system, so
 * nothing is opened and every run sees the same reasons. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "source/perf.h"
#include "source/topology.h"
#include "sysfs/sysroot.h"
#include "tap.h"
#include "ui/config.h"
#include "ui/counters_fmt.h"

static char tmpl[] = "/tmp/tt-uictr-XXXXXX";

static void put(const char *path, const char *text)
{
	char dir[1024];
	FILE *f;

	str_copy(dir, sizeof(dir), path);
	*strrchr(dir, '/') = '\0';
	for (char *p = dir + 1; *p; p++) /* mkdir -p */
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0755);
			*p = '/';
		}
	mkdir(dir, 0755);
	f = fopen(path, "w");
	if (!f)
		tt_fatal("cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

/* A root with one ARM core PMU (or none), opened as a per-CPU set of 2 CPUs. */
static int open_set(struct perf_set *s, const char *name, bool arm, const char *const *events,
		    struct sysroot *r)
{
	char root[sizeof(tmpl) + 32], path[sizeof(tmpl) + 128];
	struct topology topo;
	char *cause = NULL;
	int e;

	snprintf(root, sizeof(root), "%s/%s", tmpl, name);
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/perf_event_paranoid", root);
	put(path, "2\n");
	if (arm) {
		snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/armv7_cortex_a7/type",
			 root);
		put(path, "8\n");
	}
	if (sysroot_open(r, root) != 0)
		tt_fatal("cannot open %s", root);
	memset(&topo, 0, sizeof(topo));
	topo.ncpus = 2;
	cpumask_set(&topo.online, 0);
	cpumask_set(&topo.online, 1);
	topo.present = topo.possible = topo.online;
	e = perf_open_cpus(s, r, &topo, events, &cause);
	free(cause);
	return e;
}

static void test_events_parse(void)
{
	char **v = (char **)1, why[200];

	is_int(ctr_events_parse("", &v, why, sizeof(why)), 0, "empty list accepted");
	ok(v == NULL, "empty list = the default set (NULL)");
	is_int(ctr_events_parse("   ", &v, why, sizeof(why)), 0, "blank list accepted");
	ok(v == NULL, "blank list = the default set");
	is_int(ctr_events_parse(" cycles, instructions ,cache-misses", &v, why, sizeof(why)), 0,
	       "three events");
	ok(v && v[0] && v[1] && v[2] && !v[3], "three entries, NULL-terminated");
	if (v && v[2]) {
		is_str(v[0], "cycles", "spaces trimmed (first)");
		is_str(v[1], "instructions", "spaces trimmed (middle)");
		is_str(v[2], "cache-misses", "third");
	}
	ctr_events_free(v);
	is_int(ctr_events_parse("cs,migrations,r11,faults", &v, why, sizeof(why)), 0,
	       "aliases and a raw code");
	ctr_events_free(v);
	is_int(ctr_events_parse("cycles,bogus-event", &v, why, sizeof(why)), -EINVAL,
	       "unknown event refused");
	ok(v == NULL, "nothing returned on error");
	ok(strstr(why, "unknown event 'bogus-event'") != NULL, "why names the event: %s", why);
	ok(!strchr(why, '\n'), "one line");
	is_int(ctr_events_parse("cycles,,cs", NULL, why, sizeof(why)), -EINVAL,
	       "empty item refused");
	ok(strstr(why, "empty event name") != NULL, "why: %s", why);
	is_int(ctr_events_parse("cycles,", NULL, why, sizeof(why)), -EINVAL,
	       "trailing comma refused");
	is_int(ctr_events_parse("cycles instructions", NULL, why, sizeof(why)), -EINVAL,
	       "two names without a comma refused");
	ok(strstr(why, "commas separate events") != NULL, "why: %s", why);
	ok(strstr(ctr_default_events(), "cycles,instructions,cache-misses") == ctr_default_events(),
	   "default set starts with cycles,instructions,cache-misses: %s", ctr_default_events());
	ok(strstr(ctr_default_events(), "page-faults") != NULL, "default set has page-faults");
}

static void test_config_key(void)
{
	struct ui_config c;
	struct sbuf errs, out;
	const struct config_key *k = config_key_find("events");
	char why[200];

	ok(k && k->type == CONFIG_LIST, "events is a list key");
	config_defaults(&c);
	is_str(c.events, "", "default: empty (the generic set)");
	ok(c.col_counters && c.thread_counters,
	   "counter columns and the thread pane on by default");

	sbuf_init(&errs);
	is_int(config_parse("events = cs, migrations\ncolumn_counters=0\nthread_counters=no\n", &c,
			    &errs),
	       0, "good events line");
	is_str(c.events, "cs, migrations", "value kept as written");
	ok(!c.col_counters && !c.thread_counters, "column_counters and thread_counters read");
	sbuf_free(&errs);

	sbuf_init(&errs);
	is_int(config_parse("events=cycles,frobnicate\n", &c, &errs), 1, "bad events: one problem");
	is_str(c.events, "", "bad events: the default set is used");
	ok(errs.s && strstr(errs.s, "line 1: events: unknown event 'frobnicate'") &&
		   strstr(errs.s, "using the default set"),
	   "clear message: %s", errs.s ? errs.s : "");
	ok(errs.s && !strchr(errs.s, '\n')[1], "one line");
	sbuf_free(&errs);

	sbuf_init(&errs);
	is_int(config_parse("events=\n", &c, &errs), 0, "empty events accepted");
	sbuf_free(&errs);

	config_defaults(&c);
	is_int(config_set_why(&c, k, "cycles,instructions", why, sizeof(why)), 0, "set from text");
	is_int(config_set_why(&c, k, "nope", why, sizeof(why)), -EINVAL, "set refuses a bad list");
	is_str(c.events, "cycles,instructions", "a refused set keeps the value");
	ok(strstr(why, "unknown event 'nope'") != NULL, "why: %s", why);
	sbuf_init(&out);
	config_format(&c, &out);
	ok(out.s && strstr(out.s, "\nevents=cycles,instructions\n") &&
		   strstr(out.s, "\ncolumn_counters=1\n") && strstr(out.s, "\nthread_counters=1\n"),
	   "written back");
	sbuf_free(&out);
}

static void test_cols_and_reasons(void)
{
	struct perf_set s;
	struct sysroot r;
	struct ctr_cols cc;
	struct ctr_item it[CTR_NCOL];
	char buf[64], why[600];
	int n = 0;

	/* ARM: the generic cache-misses event is an L1D refill */
	is_int(open_set(&s, "arm", true, NULL, &r), -EOPNOTSUPP,
	       "not the live root: nothing opened");
	ctr_cols(&s, &cc);
	is_int(cc.n, 4, "generic set fills the four columns");
	is_str(cc.head[CTR_IPC], "IPC", "IPC heading");
	is_str(cc.head[CTR_MISSES], "L1Dr/s", "ARM: L1D refills");
	is_str(cc.what[CTR_MISSES], "L1D refills/s", "ARM legend");
	is_str(cc.head[CTR_CSW], "Csw/s", "switches heading");
	is_str(cc.head[CTR_MIG], "Mig/s", "migrations heading");
	is_int(cc.ev[CTR_IPC][0], PERF_EV_CYCLES, "IPC from cycles");
	is_int(cc.ev[CTR_IPC][1], PERF_EV_INSTRUCTIONS, "... and instructions");
	is_int(ctr_cell(&s, &cc, CTR_IPC, 0, false, buf, sizeof(buf)), CTR_CELL_NA, "IPC n/a");
	is_str(buf, "n/a", "n/a text");
	is_int(ctr_cell(&s, &cc, CTR_CSW, 1, true, buf, sizeof(buf)), CTR_CELL_NA,
	       "n/a wins over waiting");
	for (int k = 0; k < CTR_NCOL; k++) {
		it[n].label = cc.head[k];
		it[n].ev[0] = cc.ev[k][0];
		it[n].ev[1] = cc.ev[k][1];
		n++;
	}
	ctr_reasons(&s, it, (size_t)n, why, sizeof(why));
	ok(strstr(why, "IPC, L1Dr/s, Csw/s, Mig/s n/a: counters need the live system") == why,
	   "one reason, said once for every column: %s", why);
	ok(strstr(why, "(EOPNOTSUPP)") != NULL && !strchr(why, ';'), "with its errno, once");

	/* Make the counters look opened and read: values, scaling, waiting. */
	for (size_t e = 0; e < s.nev; e++) {
		s.ev_err[e] = 0;
		s.why[e][0] = '\0';
		for (int row = 0; row < 2; row++) {
			perf_at(&s, row, e)->err = 0;
			perf_at(&s, row, e)->fd = 1000; /* never read or closed */
			perf_at(&s, row, e)->rate_per_s = 1234.5;
		}
	}
	s.ipc[0] = 1.5;
	is_int(ctr_cell(&s, &cc, CTR_CSW, 0, true, buf, sizeof(buf)), CTR_CELL_WAIT,
	       "first interval running");
	is_str(buf, "...", "waiting text");
	is_int(ctr_cell(&s, &cc, CTR_CSW, 0, false, buf, sizeof(buf)), CTR_CELL_OK, "a rate");
	is_str(buf, "1234.5", "rate text");
	perf_at(&s, 0, PERF_EV_MIGRATIONS)->rate_per_s = 45678.0;
	perf_at(&s, 0, PERF_EV_MIGRATIONS)->scaled = true;
	is_int(ctr_cell(&s, &cc, CTR_MIG, 0, false, buf, sizeof(buf)), CTR_CELL_SCALED, "scaled");
	is_str(buf, "45.7k*", "scaled rate is marked");
	is_int(ctr_cell(&s, &cc, CTR_IPC, 0, false, buf, sizeof(buf)), CTR_CELL_OK, "IPC");
	is_str(buf, "1.50", "IPC text");
	perf_at(&s, 1, PERF_EV_CACHE_MISSES)->rate_per_s = NAN;
	is_int(ctr_cell(&s, &cc, CTR_MISSES, 1, false, buf, sizeof(buf)), CTR_CELL_NA,
	       "did not run during the interval: n/a, not 0");
	is_int(ctr_cell(&s, &cc, CTR_IPC, 5, false, buf, sizeof(buf)), CTR_CELL_NA,
	       "a CPU beyond the set: n/a");
	ctr_reasons(&s, it, (size_t)n, why, sizeof(why));
	is_str(why, "", "nothing n/a: no reason");

	/* Two reasons, and user space only. */
	s.ev_err[PERF_EV_CYCLES] = -ENOENT;
	str_copy(s.why[PERF_EV_CYCLES], PERF_WHY_LEN, "no hardware PMU");
	s.ev_err[PERF_EV_CACHE_MISSES] = -ENOENT;
	str_copy(s.why[PERF_EV_CACHE_MISSES], PERF_WHY_LEN, "no hardware PMU");
	s.ev_err[PERF_EV_MIGRATIONS] = -EACCES;
	str_copy(s.why[PERF_EV_MIGRATIONS], PERF_WHY_LEN, "needs root");
	s.ev_user_only[PERF_EV_CTX_SWITCHES] = true;
	ctr_reasons(&s, it, (size_t)n, why, sizeof(why));
	is_str(why,
	       "IPC, L1Dr/s n/a: no hardware PMU (ENOENT); Mig/s n/a: needs root (EACCES); Csw/s: "
	       "user space only (kernel counting needs CAP_PERFMON or perf_event_paranoid < 2)",
	       "grouped by reason");
	perf_close(&s);
	sysroot_close(&r);

	/* Without a PMU the build architecture names the cache event. */
	open_set(&s, "vm", false, NULL, &r);
	ctr_cols(&s, &cc);
#if defined(__x86_64__) || defined(__i386__)
	is_str(cc.head[CTR_MISSES], "LLCm/s", "x86: LLC misses");
#elif defined(__aarch64__) || defined(__arm__)
	is_str(cc.head[CTR_MISSES], "L1Dr/s", "ARM: L1D refills");
#else
	is_str(cc.head[CTR_MISSES], "Cmis/s", "other: cache misses");
#endif
	perf_close(&s);
	sysroot_close(&r);

	/* A configured list fills only the columns it can. */
	{
		static const char *const ev[] = {"cs", "migrations", "cycles", NULL};

		open_set(&s, "list", false, ev, &r);
		ctr_cols(&s, &cc);
		is_int(cc.n, 2, "cs,migrations,cycles: two columns");
		ok(!cc.have[CTR_IPC] && !cc.have[CTR_MISSES], "no IPC without instructions");
		is_int(cc.ev[CTR_CSW][0], 0, "cs feeds Csw/s");
		is_int(cc.ev[CTR_MIG][0], 1, "migrations feeds Mig/s");
		is_int(perf_set_generic(&s, PERF_EV_CYCLES), 2, "cycles found by role");
		is_int(perf_set_generic(&s, PERF_EV_PAGE_FAULTS), -1, "page faults absent");
		perf_close(&s);
		sysroot_close(&r);
	}
	ctr_cols(NULL, &cc);
	is_int(cc.n, 0, "no set: no columns");
}

int main(void)
{
	if (!mkdtemp(tmpl))
		skip_all("mkdtemp failed");
	test_events_parse();
	test_config_key();
	test_cols_and_reasons();
	{
		char cmd[sizeof(tmpl) + 16];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", tmpl);
	}
	return done_testing();
}
