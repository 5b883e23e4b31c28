/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/source/perf.c and src/out/perf_out.c that need no
 * counters: generic names and labels (ARM L1D vs x86 LLC), event-string
 * resolution, core-PMU discovery on temporary sysfs trees (big.LITTLE,
 * Intel hybrid, homogeneous, a VM without a PMU), scaling and rates
 * (multiplexing, running == 0), error texts, a set opened against a
 * fixture root (nothing opened, one reason per event), JSON and text. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "out/perf_out.h"
#include "source/perf.h"
#include "source/pfm.h"
#include "source/topology.h"
#include "sysfs/sysroot.h"
#include "tap.h"

static char tmpl[] = "/tmp/tt-perf-XXXXXX";

static void mkpath(const char *root, const char *rel)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s/%s", root, rel);
	for (char *p = buf + 1; *p; p++) { /* mkdir -p */
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	}
	mkdir(buf, 0755);
}

static void put(const char *root, const char *rel, const char *text)
{
	char buf[1024];
	FILE *f;

	snprintf(buf, sizeof(buf), "%s/%s", root, rel);
	*strrchr(buf, '/') = '\0';
	mkpath(root, buf + strlen(root) + 1);
	snprintf(buf, sizeof(buf), "%s/%s", root, rel);
	f = fopen(buf, "w");
	if (!f)
		tt_fatal("cannot write %s", buf);
	fputs(text, f);
	fclose(f);
}

static void pmu(const char *root, const char *name, const char *type, const char *cpus)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/type", name);
	put(root, rel, type);
	if (cpus) {
		snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/cpus", name);
		put(root, rel, cpus);
	}
}

static void test_generic(void)
{
	struct perf_event_attr a;

	is_str(perf_ev_name(PERF_EV_CYCLES), "cycles", "name cycles");
	is_str(perf_ev_name(PERF_EV_CTX_SWITCHES), "context-switches", "name context-switches");
	is_str(perf_ev_label(PERF_EV_CACHE_MISSES, PERF_ARCH_ARM), "L1D refills",
	       "ARM cache-misses are L1D refills");
	is_str(perf_ev_label(PERF_EV_CACHE_MISSES, PERF_ARCH_X86), "LLC misses",
	       "x86 cache-misses are LLC misses");
	is_str(perf_ev_label(PERF_EV_CACHE_REFS, PERF_ARCH_ARM), "L1D accesses", "ARM cache-refs");
	perf_ev_attr(PERF_EV_CACHE_MISSES, &a);
	ok(a.type == PERF_TYPE_HARDWARE && a.config == PERF_COUNT_HW_CACHE_MISSES &&
		   a.size == sizeof(a),
	   "cache-misses attr: type 0 config 3");
	perf_ev_attr(PERF_EV_PAGE_FAULTS, &a);
	ok(a.type == PERF_TYPE_SOFTWARE && a.config == PERF_COUNT_SW_PAGE_FAULTS,
	   "page-faults attr: software");
}

static void test_resolve(void)
{
	struct perf_event_attr a;
	char pmu_name[48];
	char *cause = NULL;
	int r;

	is_int(perf_event_resolve("cycles", &a, NULL, 0, NULL), 0, "resolve cycles");
	ok(a.type == PERF_TYPE_HARDWARE && a.config == 0, "cycles: HW 0");
	is_int(perf_event_resolve("CS", &a, NULL, 0, NULL), 0, "resolve CS (case-insensitive)");
	ok(a.type == PERF_TYPE_SOFTWARE && a.config == PERF_COUNT_SW_CONTEXT_SWITCHES,
	   "cs: SW context switches");
	is_int(perf_event_resolve("r11", &a, NULL, 0, NULL), 0, "resolve r11");
	ok(a.type == PERF_TYPE_RAW && a.config == 0x11, "r11: raw 0x11");
	is_int(perf_event_resolve("r1b4", &a, NULL, 0, NULL), 0, "resolve r1b4");
	ok(a.type == PERF_TYPE_RAW && a.config == 0x1b4, "r1b4: raw 0x1b4");
	r = perf_event_resolve("no_such_event_xyz", &a, pmu_name, sizeof(pmu_name), &cause);
	ok(r < 0, "unknown event fails (%d)", r);
	ok(cause && strstr(cause, "no_such_event_xyz"), "cause names the event: %s",
	   cause ? cause : "(null)");
	free(cause);
#ifdef HAVE_LIBPFM
	is_int(perf_event_resolve("perf::cache-misses", &a, pmu_name, sizeof(pmu_name), NULL), 0,
	       "libpfm string resolves");
	ok(a.type == PERF_TYPE_HARDWARE && a.config == 3, "perf::cache-misses: type 0 config 3");
	is_str(pmu_name, "perf", "libpfm PMU name");
#else
	is_int(perf_event_resolve("perf::cache-misses", &a, NULL, 0, NULL), -ENOTSUP,
	       "without libpfm4: -ENOTSUP");
#endif
}

/* The one check of an events list (tunetoprc events=, --events). */
static void test_events_parse(void)
{
	char **v = (char **)1, why[PERF_REASON_LEN];

	is_int(perf_events_parse("", &v, why, sizeof(why)), 0, "empty list: the default set");
	ok(v == NULL, "empty list: NULL vector");
	is_int(perf_events_parse("cycles,instructions,cs,r11,task-clock", &v, why, sizeof(why)), 0,
	       "hardware names are accepted whether or not a PMU exists");
	ok(v && v[4] && !v[5], "five events");
	perf_events_free(v);
	is_int(perf_events_parse("bogus_ev", &v, why, sizeof(why)), -EINVAL,
	       "unknown name refused");
	ok(v == NULL, "nothing returned on error");
	ok(strstr(why, "unknown event 'bogus_ev'") == why && !strchr(why, '\n'),
	   "one line naming it: %s", why);
	is_int(perf_events_parse("a,,b", NULL, why, sizeof(why)), -EINVAL, "empty item refused");
	ok(strstr(why, "empty event name in 'a,,b'") != NULL, "empty item said first: %s", why);
	is_int(perf_events_parse(",cycles", NULL, why, sizeof(why)), -EINVAL,
	       "leading comma refused");
	is_int(perf_events_parse("cycles, ,cs", NULL, why, sizeof(why)), -EINVAL,
	       "blank item refused");
	is_int(perf_events_parse("cycles,cycles", NULL, why, sizeof(why)), -EINVAL,
	       "duplicate refused");
	is_str(why, "duplicate event 'cycles'", "why: duplicate");
	is_int(perf_events_parse("CYCLES,cycles", NULL, why, sizeof(why)), -EINVAL,
	       "duplicate in another case refused");
	is_int(perf_events_parse("cs,context-switches", NULL, why, sizeof(why)), -EINVAL,
	       "two names for one event refused");
	ok(strstr(why, "the same as 'cs'") != NULL, "why names the first: %s", why);
	is_int(perf_events_parse("cycles,cpu-cycles,instructions", NULL, why, sizeof(why)), -EINVAL,
	       "alias of an earlier event refused");
	is_int(perf_events_parse("cache-misses,cache-references", NULL, why, sizeof(why)), 0,
	       "different events of one family accepted");
#ifdef HAVE_LIBPFM
	if (pfm_available()) {
		is_int(perf_events_parse("perf::cache-misses,cycles", NULL, why, sizeof(why)), 0,
		       "a libpfm4 name is accepted");
		is_int(perf_events_parse("perf::cycles,cycles", NULL, why, sizeof(why)), -EINVAL,
		       "a libpfm4 name for an event already listed is a duplicate");
	}
#endif
}

static void test_pmus(void)
{
	char root[sizeof(tmpl) + 32];
	struct sysroot r;
	struct perf_pmus pm;
	int i55, i76;

	/* RK3588-like big.LITTLE. */
	snprintf(root, sizeof(root), "%s/bl", tmpl);
	mkpath(root, "sys");
	pmu(root, "armv8_cortex_a55", "10\n", "0-3\n");
	pmu(root, "armv8_cortex_a76", "11\n", "4-7\n");
	pmu(root, "software", "1\n", NULL);
	pmu(root, "tracepoint", "2\n", NULL);
	pmu(root, "arm_dsu_0", "12\n", NULL);
	is_int(sysroot_open(&r, root), 0, "open big.LITTLE root");
	is_int(perf_pmus_read(&r, &pm), 0, "perf_pmus_read");
	is_int(pm.n, 5, "five PMUs");
	is_int(pm.ncore, 2, "two core PMUs");
	is_int(pm.arch, PERF_ARCH_ARM, "ARM from PMU names");
	ok(perf_pmus_heterogeneous(&pm), "heterogeneous");
	i55 = perf_pmus_find(&pm, "armv8_cortex_a55");
	i76 = perf_pmus_find(&pm, "armv8_cortex_a76");
	ok(i55 >= 0 && i76 >= 0, "both clusters found");
	is_int(perf_pmus_core_for_cpu(&pm, 0), i55, "CPU0 on the A55 PMU");
	is_int(perf_pmus_core_for_cpu(&pm, 5), i76, "CPU5 on the A76 PMU");
	is_int(perf_pmus_core_for_cpu(&pm, 9), -1, "CPU9: no PMU");
	ok(i76 >= 0 && pm.p[i76].type == 11, "A76 type 11");
	ok(perf_pmus_find(&pm, "arm_dsu_0") >= 0 && !pm.p[perf_pmus_find(&pm, "arm_dsu_0")].core,
	   "DSU is not a core PMU");
	perf_pmus_free(&pm);
	{
		/* A set against this (non-live) root: labels from the PMUs, nothing
		 * opened, one reason per event. */
		struct topology t;
		struct perf_set s;
		char *cause = NULL;

		memset(&t, 0, sizeof(t));
		t.ncpus = 8;
		for (int c = 0; c < 8; c++) {
			cpumask_set(&t.online, c);
			cpumask_set(&t.present, c);
		}
		is_int(perf_open_cpus(&s, &r, &t, NULL, &cause), -EOPNOTSUPP,
		       "fixture root: nothing opened");
		ok(cause && strstr(cause, "live"), "cause: %s", cause ? cause : "(null)");
		is_str(s.ev_label[PERF_EV_CACHE_MISSES], "L1D refills", "big.LITTLE label");
		is_int(s.nfds, 0, "no fds");
		ok(strstr(s.reason[PERF_EV_CYCLES],
			  "cycles: n/a - counters need the live system") ==
			   s.reason[PERF_EV_CYCLES],
		   "reason once per event");
		perf_close(&s);
		free(cause);
	}
	sysroot_close(&r);

	/* Intel hybrid. */
	snprintf(root, sizeof(root), "%s/hy", tmpl);
	mkpath(root, "sys");
	pmu(root, "cpu_core", "4\n", "0-7\n");
	pmu(root, "cpu_atom", "10\n", "8-15\n");
	pmu(root, "uncore_imc_0", "15\n", NULL);
	sysroot_open(&r, root);
	perf_pmus_read(&r, &pm);
	is_int(pm.ncore, 2, "hybrid: two core PMUs");
	is_int(pm.arch, PERF_ARCH_X86, "hybrid: x86");
	is_int(perf_pmus_core_for_cpu(&pm, 12), perf_pmus_find(&pm, "cpu_atom"), "CPU12 on atom");
	perf_pmus_free(&pm);
	sysroot_close(&r);

	/* Homogeneous x86 ("cpu" without a cpus file) and ARM (one PMU). */
	snprintf(root, sizeof(root), "%s/x86", tmpl);
	mkpath(root, "sys");
	pmu(root, "cpu", "4\n", NULL);
	pmu(root, "software", "1\n", NULL);
	sysroot_open(&r, root);
	perf_pmus_read(&r, &pm);
	is_int(pm.ncore, 1, "x86: one core PMU");
	ok(!perf_pmus_heterogeneous(&pm), "x86: homogeneous");
	is_int(perf_pmus_core_for_cpu(&pm, 0), -1, "homogeneous: plain events, no per-CPU PMU");
	perf_pmus_free(&pm);
	sysroot_close(&r);

	snprintf(root, sizeof(root), "%s/a7", tmpl);
	mkpath(root, "sys");
	pmu(root, "armv7_cortex_a7", "8\n", "0-1\n");
	sysroot_open(&r, root);
	perf_pmus_read(&r, &pm);
	ok(pm.ncore == 1 && pm.arch == PERF_ARCH_ARM && !perf_pmus_heterogeneous(&pm),
	   "STM32MP1-like: one ARMv7 PMU, homogeneous");
	perf_pmus_free(&pm);
	sysroot_close(&r);

	/* VM: software PMUs only. */
	snprintf(root, sizeof(root), "%s/vm", tmpl);
	mkpath(root, "sys");
	pmu(root, "software", "1\n", NULL);
	pmu(root, "breakpoint", "5\n", NULL);
	pmu(root, "msr", "9\n", NULL);
	sysroot_open(&r, root);
	perf_pmus_read(&r, &pm);
	ok(pm.n == 3 && pm.ncore == 0, "VM: no core PMU");
	perf_pmus_free(&pm);
	sysroot_close(&r);

	/* No event_source at all. */
	snprintf(root, sizeof(root), "%s/none", tmpl);
	mkpath(root, "sys");
	sysroot_open(&r, root);
	is_int(perf_pmus_read(&r, &pm), 0, "missing event_source is not an error");
	is_int(pm.n, 0, "no PMUs");
	perf_pmus_free(&pm);
	sysroot_close(&r);
}

static void test_scaling(void)
{
	struct perf_counter c;

	memset(&c, 0, sizeof(c));
	c.have_prev = true; /* as after open: counting from zero */
	perf_counter_update(&c, 1000, 1000000000, 1000000000, 1.0);
	is_dbl(c.rate_per_s, 1000.0, 1e-9, "full interval: 1000/s");
	ok(!c.scaled, "not scaled when running == enabled");
	is_dbl(c.scaled_value, 1000.0, 1e-9, "scaled_value = value");
	/* Multiplexed: ran half of the second interval. */
	perf_counter_update(&c, 2000, 2000000000, 1500000000, 1.0);
	ok(c.scaled, "scaled when running < enabled");
	is_dbl(c.rate_per_s, 2000.0, 1e-9, "interval estimate 1000 * 1/0.5 = 2000/s");
	is_dbl(c.scaled_value, 2000.0 * 2.0 / 1.5, 1e-6, "cumulative scaled value");
	/* Not scheduled at all in the third interval. */
	perf_counter_update(&c, 2000, 3000000000, 1500000000, 1.0);
	ok(isnan(c.rate_per_s), "running did not advance: n/a, not 0");
	ok(!c.scaled, "n/a is not marked scaled");
	/* No interval length. */
	perf_counter_update(&c, 2500, 4000000000, 2500000000, NAN);
	is_dbl(c.rate_per_s, 500.0, 1e-9,
	       "unknown wall interval: a CPU counter's rate is over its enabled time");
	/* Enabled for 0.5 s of a 1 s interval (opened, or the CPU back online,
	 * in the middle): the rate is over the 0.5 s it counted. */
	perf_counter_update(&c, 3000, 4500000000, 3000000000, 1.0);
	is_dbl(c.rate_per_s, 1000.0, 1e-9, "500 events in 0.5 s enabled: 1000/s, not 500/s");
	/* A task counter keeps the wall interval (its time stops while asleep). */
	memset(&c, 0, sizeof(c));
	c.task = true;
	perf_counter_update(&c, 100, 1000000, 1000000, 1.0);
	perf_counter_update(&c, 200, 2000000, 2000000, 2.0);
	is_dbl(c.rate_per_s, 50.0, 1e-9, "task counter: 100 over 2 s of wall time = 50/s");
	/* A hardware counter that runs and never counts (QEMU TCG): n/a. */
	memset(&c, 0, sizeof(c));
	c.hw = true;
	perf_counter_update(&c, 0, 1000000000, 1000000000, 1.0);
	perf_counter_update(&c, 0, 2000000000, 2000000000, 1.0);
	ok(isnan(c.rate_per_s) && c.never_counted, "hardware counter at 0 since open: n/a");
	perf_counter_update(&c, 5, 3000000000, 3000000000, 1.0);
	ok(!c.never_counted && c.rate_per_s == 5.0, "once it counts: a rate (%g)", c.rate_per_s);
	/* A software counter at 0 is a fact. */
	memset(&c, 0, sizeof(c));
	perf_counter_update(&c, 0, 1000000000, 1000000000, 1.0);
	perf_counter_update(&c, 0, 2000000000, 2000000000, 1.0);
	ok(c.rate_per_s == 0.0 && !c.never_counted, "software counter at 0: 0/s");
	/* A counter that never ran. */
	memset(&c, 0, sizeof(c));
	perf_counter_update(&c, 0, 5000, 0, 1.0);
	ok(isnan(c.scaled_value) && isnan(c.rate_per_s), "running == 0: n/a");
	ok(!c.unscheduled, "never read before: no multiplexing claim");
	/* Enabled but not running on a CPU-bound counter: multiplexed out. */
	memset(&c, 0, sizeof(c));
	c.have_prev = true;
	perf_counter_update(&c, 0, 5000, 0, 1.0);
	ok(isnan(c.rate_per_s) && c.unscheduled, "enabled, not running: n/a, multiplexed out");
	/* Task-bound counter of a thread that did not run: neither time moved. */
	memset(&c, 0, sizeof(c));
	c.task = true;
	c.have_prev = true;
	perf_counter_update(&c, 7, 1000, 1000, 1.0);
	perf_counter_update(&c, 7, 1000, 1000, 0.5);
	ok(isfinite(c.rate_per_s) && c.rate_per_s == 0.0,
	   "task that did not run: rate 0, not n/a (%g)", c.rate_per_s);
	ok(!c.unscheduled && !c.scaled, "task that did not run: not marked");
	/* ... but a resample a few ms later says nothing yet */
	perf_counter_update(&c, 7, 1000, 1000, 0.005);
	ok(isnan(c.rate_per_s), "task that did not run in 5 ms: n/a, not 0 (%g)", c.rate_per_s);
	perf_counter_update(&c, 7, 1000, 1000, PERF_ZERO_MIN_S);
	ok(c.rate_per_s == 0.0, "... over %.1f s: 0", PERF_ZERO_MIN_S);
	/* The same task multiplexed out while it ran: still n/a with a reason. */
	perf_counter_update(&c, 7, 2000, 1000, 1.0);
	ok(isnan(c.rate_per_s) && c.unscheduled, "task enabled but not on the PMU: n/a");
	/* A CPU-bound counter whose times stood still is not a fact. */
	memset(&c, 0, sizeof(c));
	c.have_prev = true;
	perf_counter_update(&c, 0, 0, 0, 1.0);
	ok(isnan(c.rate_per_s), "CPU counter with no time: n/a");
	/* Counter went backwards (should not happen): no rate. */
	memset(&c, 0, sizeof(c));
	c.have_prev = true;
	c.prev_value = 10;
	perf_counter_update(&c, 5, 10, 10, 1.0);
	ok(isnan(c.rate_per_s), "backwards: no rate");
}

static void test_why(void)
{
	char buf[160];

	is_str(perf_err_why(-ENOENT, true, false, true, 2, buf, sizeof(buf)), "no hardware PMU",
	       "ENOENT without a PMU");
	is_str(perf_err_why(-ENOENT, true, true, true, 2, buf, sizeof(buf)),
	       "event not supported by the PMU", "ENOENT with a PMU");
	is_str(perf_err_why(-EACCES, true, true, true, 2, buf, sizeof(buf)),
	       "needs root or CAP_PERFMON, or perf_event_paranoid < 1 (is 2)", "EACCES per CPU");
	is_str(perf_err_why(-ENODEV, true, true, true, 2, buf, sizeof(buf)), "CPU offline",
	       "ENODEV per CPU");
	is_str(perf_err_why(-EMFILE, false, true, true, 2, buf, sizeof(buf)),
	       "out of file descriptors (raise ulimit -n)", "EMFILE");
	is_str(perf_err_why(EACCES, false, true, false, INT32_MIN, buf, sizeof(buf)),
	       "not permitted: needs ptrace access to the thread, CAP_PERFMON, or "
	       "perf_event_paranoid < 2",
	       "EACCES thread, paranoid unknown");
}

static void test_out(void)
{
	char buf[16];
	char root[sizeof(tmpl) + 32];
	struct sysroot r;
	struct topology t;
	struct perf_set s;
	struct sbuf b;
	struct jw w;

	out_perf_fmt_rate(buf, sizeof(buf), NAN);
	is_str(buf, "n/a", "rate n/a");
	out_perf_fmt_rate(buf, sizeof(buf), 1234567890.0);
	is_str(buf, "1.23G", "rate G");
	out_perf_fmt_rate(buf, sizeof(buf), 4567000.0);
	is_str(buf, "4.6M", "rate M");
	out_perf_fmt_rate(buf, sizeof(buf), 12345.0);
	is_str(buf, "12.3k", "rate k");
	out_perf_fmt_rate(buf, sizeof(buf), 42.0);
	is_str(buf, "42.0", "rate");
	/* just under a unit boundary: the next unit, not "1000.0M" */
	out_perf_fmt_rate(buf, sizeof(buf), 999960000.0);
	is_str(buf, "1.00G", "999.96M rounds to 1.00G");
	out_perf_fmt_rate(buf, sizeof(buf), 999960.0);
	is_str(buf, "1.0M", "999.96k rounds to 1.0M");
	out_perf_fmt_rate(buf, sizeof(buf), 9999.96);
	is_str(buf, "10.0k", "9999.96 rounds to 10.0k");
	out_perf_fmt_rate(buf, sizeof(buf), 999940000.0);
	is_str(buf, "999.9M", "999.94M stays M");

	snprintf(root, sizeof(root), "%s/vm", tmpl);
	sysroot_open(&r, root);
	memset(&t, 0, sizeof(t));
	t.ncpus = 2;
	cpumask_set(&t.online, 0);
	cpumask_set(&t.online, 1);
	perf_open_cpus(&s, &r, &t, NULL, NULL);
	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_perf_json(&w, &s);
	jw_obj_end(&w);
	ok(strstr(b.s, "\"labels\":{\"cycles\":\"cycles\",\"instructions\":\"instructions\","
		       "\"cache-misses\":\"") != NULL,
	   "JSON labels");
	ok(strstr(b.s, "{\"cpu\":1,\"values\":{\"cycles\":null,") != NULL, "JSON n/a is null");
	ok(strstr(b.s,
		  "\"ipc\":null,\"miss_rate_pct\":null,\"misses_per_s\":null,\"scaled\":false") !=
		   NULL,
	   "JSON derived null");
	ok(strstr(b.s, "\"errors\":{\"cycles\":\"EOPNOTSUPP: counters need the live system") !=
		   NULL,
	   "JSON errors");
	ok(strstr(b.s, "\"note\":\"counters act on the live kernel") != NULL, "JSON note");
	sbuf_reset(&b);
	out_perf_text(&b, &s);
	ok(str_starts(b.s, "Counters (per second)\nCPU "), "text header");
	ok(strstr(b.s, "\n0        ") != NULL, "text row for CPU 0");
	sbuf_reset(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_perf_json(&w, NULL);
	jw_obj_end(&w);
	is_str(b.s, "{\"counters\":null}", "no set: null");
	sbuf_free(&b);
	perf_close(&s);
	sysroot_close(&r);
}

int main(void)
{
	if (!mkdtemp(tmpl))
		skip_all("mkdtemp failed");
	test_generic();
	test_resolve();
	test_events_parse();
	test_pmus();
	test_scaling();
	test_why();
	test_out();
	{
		char cmd[sizeof(tmpl) + 16];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", tmpl);
	}
	return done_testing();
}
