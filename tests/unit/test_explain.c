/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The explain table: completeness, lookup by address / metric / word,
 * resolution of every entry's files on every fixture, and the traps issue 8
 * asks for (with the field numbers). */
#include <string.h>

#include "model/explain.h"
#include "model/findings.h"
#include "tap.h"

static const char *boards[] = {"rk3588", "intel",  "stm32mp157", "rpi4",
			       "broken", "am5729", "b4860"};

static void test_entries(void)
{
	for (size_t i = 0; i < explain_count(); i++) {
		const struct explain_entry *e = explain_at(i);
		bool files_ok = true;

		ok(e->key && *e->key && e->title && e->what && e->units && e->why &&
			   (e->try_hint || e->try_value),
		   "%s: key, title, what, units, why, what to try", e->key);
		ok(e->files[0] != NULL, "%s: names its files", e->key);
		for (size_t k = 0; k < EXPLAIN_MAX_FILES && e->files[k]; k++)
			files_ok &= e->files[k][0] != '/';
		ok(files_ok, "%s: file templates are root-relative", e->key);
		ok(e->shell || e->knob, "%s: has a shell line (or one is generated for the knob)",
		   e->key);
		/* Keys find themselves. */
		ok(explain_find(e->key) == e, "%s: explain_find(key) finds it", e->key);
		for (size_t k = 0; k < i; k++)
			if (!strcmp(explain_at(k)->key, e->key))
				ok(0, "duplicate key %s", e->key);
	}
	ok(explain_at(explain_count()) == NULL, "explain_at past the end is NULL");
}

static void expect(const char *q, const char *key)
{
	const struct explain_entry *e = explain_find(q);

	if (!key) {
		ok(e == NULL, "'%s' finds nothing", q);
		return;
	}
	ok(e && !strcmp(e->key, key), "'%s' -> %s (got %s)", q, key, e ? e->key : "NULL");
}

static void test_lookup(void)
{
	ok(explain_pattern_match("cpufreq/*/governor", "cpufreq/policy4/governor") > 0,
	   "pattern match");
	ok(explain_pattern_match("cpufreq/*/governor", "cpufreq/policy4/min_khz") == 0,
	   "leaf differs");
	ok(explain_pattern_match("cpufreq/*/governor", "cpufreq/governor") == 0, "segment count");
	ok(explain_pattern_match("devfreq/*/min_hz", "devfreq/dmc/min_hz") >
		   explain_pattern_match("devfreq/dmc/*", "devfreq/dmc/min_hz"),
	   "a literal leaf is more specific than a literal device");
	expect("cpufreq/policy4/governor", "cpufreq/*/governor");
	expect("cpufreq/cpu4/governor=performance", "cpufreq/*/governor");
	expect("scaling_governor", "cpufreq/*/governor");
	expect("CPUFREQ/POLICY0/GOVERNOR", "cpufreq/*/governor");
	expect("cpufreq/policy4/max_khz", "cpufreq/*/lock_khz");
	expect("cpufreq/policy4/schedutil/rate_limit_us", "cpufreq/*/schedutil/rate_limit_us");
	expect("cpufreq/policy4/schedutil/target_load", "cpufreq/*/schedutil/target_load");
	expect("cpufreq/policy0/interactive/hispeed_freq", "cpufreq/*/interactive/*");
	expect("cpuidle/cpu4/cpu-sleep/disable", "cpuidle/*/*/disable");
	expect("cpuidle/4-7/state1/disable", "cpuidle/*/*/disable");
	expect("C6", "cpuidle/*/*/disable");
	expect("pmqos/cpu_dma_latency_us", "pmqos/cpu_dma_latency_us");
	expect("pmqos/cpu4/resume_latency_us", "pmqos/*/resume_latency_us");
	expect("devfreq/dmc/governor", "devfreq/dmc/governor");
	expect("devfreq/ddr/governor", "devfreq/dmc/governor");
	expect("devfreq/npu/governor", "devfreq/*/governor");
	expect("devfreq/fdab0000.npu/governor", "devfreq/*/governor");
	expect("devfreq/dmc/min_hz", "devfreq/*/lock_hz");
	expect("sched/rt_period_us", "sched/rt_runtime_us");
	expect("mm/thp", "mm/thp");
	expect("irq/56/affinity", "irq/*/affinity");
	expect("thread/1234/affinity", "thread/*/affinity");
	expect("taskset", "thread/*/affinity");
	expect("chrt", "thread/*/policy");
	expect("thread/1234/uclamp_min=512", "thread/*/uclamp_min");
	expect("cpu.freq_khz", "cpu.freq_khz");
	expect("cpuidle.residency_pct", "cpuidle.residency_pct");
	expect("devfreq.cur_hz", "devfreq.cur_hz");
	expect("rt.throttled", "rt.throttled");
	expect("irq.rate", "irq.rate");
	expect("thread.migrations_per_s", "thread.migrations_per_s");
	expect("isolcpus", "system.isolcpus");
	expect("nohz_full", "system.isolcpus");
	expect("cyclictest", "probe.latency_us");
	expect("tracing_on", "probe.break");
	expect("ttyRPMSG", "probe.rpmsg");
	expect("histfile", "probe.histfile");
	expect("soak", "probe.soak");
	expect("context-switches", "counters.software");
	expect("cpu-migrations", "counters.software");
	expect("page-faults", "counters.software");
	expect("Csw/s", "counters.software");
	expect("Mig/s", "counters.software");
	expect("cs", "counters.software");
	expect("migrations", "thread.migrations_per_s");
	expect("cache-misses", "counters.cache_misses");
	expect("no-such-thing-xyz", NULL);
	{
		const struct explain_entry *hits[64];

		ok(explain_search("governor", hits, 64) > 3, "search 'governor' lists several");
	}
}

static bool contains(const struct explain_resolved *x, const char *s)
{
	struct sbuf b;
	bool r;

	sbuf_init(&b);
	explain_render(&b, x, 78);
	r = strstr(b.s, s) != NULL;
	if (!r)
		printf("# '%s' not in:\n%s", s, b.s);
	sbuf_free(&b);
	return r;
}

static void test_resolve(void)
{
	for (size_t bi = 0; bi < sizeof(boards) / sizeof(boards[0]); bi++) {
		struct sysroot r;
		size_t found = 0, absent = 0;
		bool all_ok = true;

		if (sysroot_open(&r, fixture(boards[bi])) != 0) {
			ok(0, "open %s", boards[bi]);
			continue;
		}
		for (size_t i = 0; i < explain_count(); i++) {
			struct explain_resolved x;
			struct sbuf b;

			explain_resolve(explain_at(i), NULL, &r, &x);
			sbuf_init(&b);
			explain_render(&b, &x, 78);
			for (size_t k = 0; k < x.nfiles; k++) {
				if (x.files[k].nmatch)
					found++;
				else if (!x.files[k].per_thread) {
					absent++;
					if (!strstr(b.s, x.files[k].no_debugfs
								 ? "(not seen: debugfs is not "
								   "mounted or "
								   "not readable)"
								 : "(absent on this machine)"))
						all_ok = false;
				}
			}
			if (!strstr(b.s, "Why it matters for jitter") ||
			    !strstr(b.s, "Files on this machine"))
				all_ok = false;
			sbuf_free(&b);
			explain_resolved_free(&x);
		}
		ok(all_ok, "%s: every entry renders; absent files say so", boards[bi]);
		ok(found > 0, "%s: %zu files resolved, %zu absent", boards[bi], found, absent);
		sysroot_close(&r);
	}
}

static void test_rk3588(void)
{
	struct sysroot r;
	struct explain_resolved x;

	if (sysroot_open(&r, fixture("rk3588")) != 0) {
		ok(0, "open rk3588");
		return;
	}
	explain_resolve(explain_find("cpufreq/cpu4/governor"), "cpufreq/cpu4/governor", &r, &x);
	ok(x.nknobs == 1 && !strcmp(x.knob_addr[0], "cpufreq/policy4/governor"),
	   "cpu4 resolves to the knob cpufreq/policy4/governor");
	ok(x.files[0].nmatch == 1 &&
		   !strcmp(x.files[0].match[0],
			   "/sys/devices/system/cpu/cpufreq/policy4/scaling_governor"),
	   "its file is policy4's scaling_governor");
	ok(!strcmp(x.shell,
		   "echo performance > /sys/devices/system/cpu/cpufreq/policy4/scaling_governor"),
	   "shell line: %s", x.shell);
	ok(contains(&x, "tunetop set cpufreq/cpu4/governor=performance"), "tunetop line");
	explain_resolved_free(&x);

	explain_resolve(explain_find("cpufreq/*/governor"), NULL, &r, &x);
	ok(x.nknobs == 3 && x.files[0].nmatch == 3, "the key alone: all three policies");
	explain_resolved_free(&x);

	explain_resolve(explain_find("cpuidle/cpu4/cpu-sleep/disable"),
			"cpuidle/cpu4/cpu-sleep/disable", &r, &x);
	ok(x.files[2].nmatch == 1 && !strcmp(x.files[2].match[0],
					     "/sys/devices/system/cpu/cpu4/cpuidle/state1/disable"),
	   "cpu-sleep on cpu4 resolves to state1");
	ok(!strcmp(x.shell, "echo 1 > /sys/devices/system/cpu/cpu4/cpuidle/state1/disable"),
	   "shell: %s", x.shell);
	explain_resolved_free(&x);

	explain_resolve(explain_find("devfreq/npu/governor"), "devfreq/npu/governor", &r, &x);
	ok(x.files[0].nmatch == 1 &&
		   !strcmp(x.files[0].match[0], "/sys/class/devfreq/fdab0000.npu/governor"),
	   "npu alias resolves to fdab0000.npu");
	explain_resolved_free(&x);

	explain_resolve(explain_find("pmqos/cpu_dma_latency_us"), "pmqos/cpu_dma_latency_us=100",
			&r, &x);
	ok(x.files[0].nmatch == 0 && contains(&x, "/dev/cpu_dma_latency  (absent on this machine)"),
	   "no PM QoS device on the fixture: absent");
	ok(strstr(x.shell, "struct.pack(\"i\", 100)") != NULL, "python line writes a binary int32");
	explain_resolved_free(&x);

	explain_resolve(explain_find("thread/4242/policy"), "thread/4242/policy=fifo:80", &r, &x);
	ok(!strcmp(x.shell, "chrt -f -p fifo:80 4242") || !strcmp(x.shell, "chrt -f -p 80 4242"),
	   "chrt line with the thread id (%s)", x.shell);
	explain_resolved_free(&x);

	explain_resolve(explain_find("thread.migrations_per_s"), NULL, &r, &x);
	ok(x.files[0].per_thread && contains(&x, "(per thread: give a thread id)"),
	   "per-thread files are not globbed");
	explain_resolved_free(&x);
	sysroot_close(&r);
}

/* Issue 8's list of traps, with the field numbers. */
static void test_traps(void)
{
	static const struct {
		const char *key, *text;
	} want[] = {
		{"cpufreq/*/governor", "97 ms"},
		{"cpufreq/*/governor", "79-128 ms"},
		{"cpufreq/*/governor", "48 ms"},
		{"cpufreq/*/governor", "408 MHz"},
		{"cpufreq/*/schedutil/target_load", "iowait"},
		{"cpufreq/*/schedutil/target_load", "default 80"},
		{"thread/*/uclamp_min", "util_min=512"},
		{"thread/*/uclamp_min", "408 MHz"},
		{"devfreq/dmc/governor", "528 MHz"},
		{"devfreq/dmc/governor", "2112 MHz"},
		{"devfreq/dmc/governor", "29.4 ms"},
		{"cpuidle/*/*/disable", "220 us"},
		{"cpuidle/*/*/disable", "~170 us"},
		{"cpuidle/*/*/disable", "Per CPU"},
		{"pmqos/cpu_dma_latency_us", "170930229"},
		{"pmqos/cpu_dma_latency_us", "4 bytes"},
		{"pmqos/cpu_dma_latency_us", "file descriptor"},
		{"sched/rt_runtime_us", "950000 of 1000000"},
		{"sched/rt_runtime_us", "-1 removes"},
		{"sched/rt_runtime_us", "fair server"},
		{"system.isolcpus", "nohz_full"},
		{"system.isolcpus", "rcu_nocbs"},
		{"system.isolcpus", "irqaffinity"},
		{"irq/*/affinity", "EIO"},
		{"irq/*/affinity", "Managed"},
		{"thread/*/affinity", "~33%"},
		{"thread.migrations_per_s", "cache"},
		{"thermal.cooling_state", "overrides governors and locks"},
		{"cpufreq/*/lock_khz", "Thermal throttling overrides locks"},
		{"mm/thp", "mlockall"},
		{"thread.vmlck_kb", "mlockall"},
		{"cpufreq/*/schedutil/rate_limit_us", "48 switches/s"},
		{"cpufreq/*/schedutil/rate_limit_us", "up_rate_limit_us"},
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct explain_entry *e = explain_find(want[i].key);
		bool hit = e && ((e->why && strstr(e->why, want[i].text)) ||
				 (e->traps && strstr(e->traps, want[i].text)) ||
				 (e->what && strstr(e->what, want[i].text)));

		ok(hit, "%s explains '%s'", want[i].key, want[i].text);
	}
}

static void test_findings_link(void)
{
	for (size_t i = 0; i < findings_rule_count(); i++) {
		const struct finding_rule_info *r = findings_rule_at(i);
		const struct explain_entry *e = explain_find(r->explain);

		ok(e && !strcmp(e->key, r->explain), "rule %s explains via %s", r->id, r->explain);
	}
}

static void test_list(void)
{
	struct sbuf b;
	size_t lines = 0;

	sbuf_init(&b);
	explain_render_list(&b);
	for (size_t i = 0; i < b.len; i++)
		lines += b.s[i] == '\n';
	is_int(lines, explain_count(), "--list: one line per entry");
	ok(explain_count() >= 40, "at least 40 entries (%zu)", explain_count());
	sbuf_free(&b);
}

/* Statements about what the kernel does, checked against its source
 * (doc/kernel-sources.md): the cpuidle core counts above/below for every
 * governor (cpuidle_enter_state), not menu and teo alone. */
static void test_kernel_statements(void)
{
	const struct explain_entry *e = explain_find("cpuidle.above_per_s");

	ok(e && e->traps && !strstr(e->traps, "Only counted by menu and teo") &&
		   strstr(e->traps, "every governor") && strstr(e->traps, "cpuidle_enter_state"),
	   "above/below: counted by the cpuidle core for every governor, with its source");
}

int main(void)
{
	test_kernel_statements();
	test_entries();
	test_lookup();
	test_resolve();
	test_rk3588();
	test_traps();
	test_findings_link();
	test_list();
	return done_testing();
}
