/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/source/cpuidle.c and src/out/cpuidle_out.c: the PM QoS
 * and default_status parsers, derived rates (hand-computed, counter resets,
 * offline CPUs), and the fixture trees (rk3588, intel, stm32mp157, rpi4,
 * broken). */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "out/cpuidle_out.h"
#include "source/cpuidle.h"
#include "source/topology.h"
#include "sysfs/sysroot.h"
#include "tap.h"

#define CPU "sys/devices/system/cpu/"

static void test_parsers(void)
{
	int64_t us = 12345;
	int v = 7;
	int32_t raw;
	char three[3] = {0};

	is_int(cpuidle_parse_resume_latency("0\n", &us), 0, "resume latency \"0\"");
	is_int(us, CPUIDLE_RESUME_NO_CONSTRAINT, "\"0\" means no constraint");
	is_int(cpuidle_parse_resume_latency("n/a\n", &us), 0, "resume latency \"n/a\"");
	is_int(us, 0, "\"n/a\" means zero latency allowed");
	is_int(cpuidle_parse_resume_latency("100\n", &us), 0, "resume latency 100");
	is_int(us, 100, "100 us");
	is_int(cpuidle_parse_resume_latency("\n", &us), -ENODATA, "empty resume latency");
	is_int(cpuidle_parse_resume_latency("-5\n", &us), -EINVAL, "negative rejected");
	is_int(cpuidle_parse_resume_latency("fast\n", &us), -EINVAL, "garbage rejected");

	is_int(cpuidle_parse_default_status("enabled\n", &v), 0, "default_status enabled");
	is_int(v, 1, "enabled = 1");
	is_int(cpuidle_parse_default_status("disabled\n", &v), 0, "default_status disabled");
	is_int(v, 0, "disabled = 0");
	is_int(cpuidle_parse_default_status("maybe\n", &v), -EINVAL, "default_status garbage");

	raw = 2000000000;
	is_int(cpuidle_parse_dma_latency(&raw, sizeof(raw), &us), 0, "dma latency 4 bytes");
	is_int(us, CPUIDLE_DMA_NO_CONSTRAINT, "dma latency default = no constraint");
	raw = 0;
	cpuidle_parse_dma_latency(&raw, sizeof(raw), &us);
	is_int(us, 0, "dma latency 0");
	is_int(cpuidle_parse_dma_latency(three, sizeof(three), &us), -EINVAL,
	       "dma latency of 3 bytes rejected");
	is_int(cpuidle_parse_dma_latency("500\n\n", 5, &us), -EINVAL,
	       "dma latency as text rejected");
}

/* One CPU, two states, counters given. */
static void hand_info(struct cpuidle_info *c, bool online, uint64_t t0, uint64_t u0, uint64_t t1,
		      uint64_t u1, uint64_t above1, uint64_t below1)
{
	struct cpuidle_state *s;

	memset(c, 0, sizeof(*c));
	c->ncpus = 1;
	c->cpu = xcalloc(1, sizeof(*c->cpu));
	c->cpu[0].online = online;
	if (!online)
		return;
	c->cpu[0].nstates = 2;
	c->cpu[0].st = s = xcalloc(2, sizeof(*s));
	s[0].index = 0;
	strcpy(s[0].name, "WFI");
	s[1].index = 1;
	strcpy(s[1].name, "cpu-sleep");
	for (int i = 0; i < 2; i++)
		s[i].have_usage = s[i].have_time = s[i].have_above = s[i].have_below = true;
	s[0].time_us = t0;
	s[0].usage = u0;
	s[1].time_us = t1;
	s[1].usage = u1;
	s[1].above = above1;
	s[1].below = below1;
}

static void test_derive_hand(void)
{
	struct cpuidle_info a, b, c;
	const struct cpuidle_state *s;

	hand_info(&a, true, 1000000, 100, 5000000, 50, 10, 20);
	/* dt = 0.5 s = 500000 us: WFI +100000 us (20 %), cpu-sleep +300000 us (60 %) */
	hand_info(&b, true, 1100000, 150, 5300000, 125, 12, 21);
	cpuidle_derive(&b, &a, 0.5);
	s = b.cpu[0].st;
	is_dbl(s[0].residency_pct, 20.0, 1e-9, "WFI 100 ms / 500 ms = 20 %");
	is_dbl(s[0].entries_per_s, 100.0, 1e-9, "WFI 50 entries / 0.5 s = 100/s");
	is_dbl(s[1].residency_pct, 60.0, 1e-9, "cpu-sleep 60 %");
	is_dbl(s[1].entries_per_s, 150.0, 1e-9, "cpu-sleep 75 / 0.5 s = 150/s");
	is_dbl(s[1].above_per_s, 4.0, 1e-9, "above 2 / 0.5 s = 4/s");
	is_dbl(s[1].below_per_s, 2.0, 1e-9, "below 1 / 0.5 s = 2/s");

	cpuidle_derive(&b, NULL, 0.5);
	ok(isnan(s[0].residency_pct) && isnan(s[1].entries_per_s), "no prev: NAN");
	cpuidle_derive(&b, &a, 0.0);
	ok(isnan(s[0].residency_pct) && isnan(s[1].below_per_s), "dt = 0: NAN");

	/* Counter reset: time went back on one state -> the whole CPU is NAN */
	hand_info(&c, true, 1200000, 160, 10, 1, 0, 0);
	cpuidle_derive(&c, &b, 0.5);
	s = c.cpu[0].st;
	ok(isnan(s[1].residency_pct) && isnan(s[1].entries_per_s) && isnan(s[1].above_per_s),
	   "reset state: NAN, not negative");
	ok(isnan(s[0].residency_pct), "reset: other states of the CPU NAN too");
	cpuidle_free(&c);

	/* More time than the interval is clamped to 100 % */
	hand_info(&c, true, 1100000, 150, 5300000 + 600000, 125, 12, 21);
	cpuidle_derive(&c, &b, 0.5);
	is_dbl(c.cpu[0].st[1].residency_pct, 100.0, 1e-9, "clamped to 100 %");
	is_dbl(c.cpu[0].st[0].residency_pct, 0.0, 1e-9, "no idle time: 0 % (not n/a)");
	cpuidle_free(&c);

	/* CPU offline in the previous sample (hotplug): NAN */
	hand_info(&c, false, 0, 0, 0, 0, 0, 0);
	cpuidle_derive(&b, &c, 0.5);
	ok(isnan(b.cpu[0].st[0].residency_pct), "was offline: NAN");
	cpuidle_derive(&c, &b, 0.5); /* offline now: no states, no crash */
	is_int(c.cpu[0].nstates, 0, "offline now: no states");
	cpuidle_free(&c);

	/* A state that changed name (driver swapped): NAN for it */
	hand_info(&c, true, 1100000, 150, 5300000, 125, 12, 21);
	strcpy(c.cpu[0].st[1].name, "C6");
	cpuidle_derive(&c, &a, 0.5);
	ok(isnan(c.cpu[0].st[1].residency_pct), "renamed state: NAN");
	is_dbl(c.cpu[0].st[0].residency_pct, 20.0, 1e-9, "unchanged state still derived");
	cpuidle_free(&c);

	/* A counter that could not be read: NAN for that rate only */
	hand_info(&c, true, 1100000, 150, 5300000, 125, 12, 21);
	c.cpu[0].st[1].have_above = false;
	cpuidle_derive(&c, &a, 0.5);
	ok(isnan(c.cpu[0].st[1].above_per_s), "unreadable above: NAN");
	is_dbl(c.cpu[0].st[1].below_per_s, 2.0, 1e-9, "below still derived");
	cpuidle_free(&c);

	cpuidle_free(&a);
	cpuidle_free(&b);
}

/* ---- fixtures ------------------------------------------------------------ */

static bool open_fixture(const char *name, struct sysroot *r, struct topology *t)
{
	const char *dir = fixture(name);

	if (access(dir, F_OK) != 0)
		return false;
	if (sysroot_open(r, dir) != 0)
		return false;
	if (topology_read(r, t) != 0) {
		sysroot_close(r);
		return false;
	}
	return true;
}

static void close_fixture(struct sysroot *r, struct topology *t, struct cpuidle_info *c)
{
	cpuidle_free(c);
	topology_free(t);
	sysroot_close(r);
}

static char *json_of(const struct cpuidle_info *c, int cpu)
{
	struct sbuf b;
	struct jw w;

	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	if (cpu >= 0) {
		out_cpuidle_json_cpu(&w, c, cpu);
	} else {
		out_cpuidle_json(&w, c);
		out_pmqos_json(&w, c);
	}
	jw_obj_end(&w);
	return sbuf_steal(&b);
}

static void test_rk3588(void)
{
	struct sysroot r;
	struct topology t;
	struct cpuidle_info c;
	const struct cpuidle_state *s;
	char *j;
	struct sbuf b;

	if (!open_fixture("rk3588", &r, &t)) {
		ok(1, "# SKIP rk3588 fixture missing");
		return;
	}
	is_int(cpuidle_read(&r, &t, &c), 0, "rk3588: read");
	is_str(c.driver, "psci_idle", "rk3588: driver psci_idle");
	is_str(c.governor, "menu", "rk3588: governor menu");
	is_str(c.avail_governors, "menu", "rk3588: available governors (trailing space trimmed)");
	is_int(c.ncpus, 8, "rk3588: 8 CPUs");
	is_int(c.dma_latency_us, -1, "rk3588: no dev/cpu_dma_latency in the fixture: n/a");
	for (int i = 0; i < c.ncpus; i++)
		if (!c.cpu[i].online || c.cpu[i].nstates != 2)
			ok(0, "rk3588: cpu%d online with 2 states", i);
	ok(c.cpu[7].online && c.cpu[7].nstates == 2, "rk3588: every CPU online with 2 states");
	s = cpuidle_state_find(&c, 4, "cpu-sleep");
	ok(s != NULL, "rk3588: cpu4 cpu-sleep found by name");
	if (s) {
		is_int(s->index, 1, "cpu-sleep is state1");
		is_str(s->desc, "cpu-sleep", "desc");
		is_int(s->latency_us, 220, "latency 220 us");
		is_int(s->residency_us, 1000, "residency 1000 us");
		is_int(s->disable, 0, "disable 0");
		is_int(s->default_status, 1, "default_status enabled");
		ok(s->have_usage && s->have_time && s->have_above && s->have_below &&
			   s->have_rejected,
		   "all counters read");
		ok(isnan(s->residency_pct), "not derived yet: NAN");
	}
	s = cpuidle_state_find(&c, 0, "state0");
	ok(s && !strcmp(s->name, "WFI") && s->latency_us == 1, "state0 WFI by index");
	ok(cpuidle_state_find(&c, 0, "state7") == NULL, "state7 not found");
	ok(cpuidle_state_find(&c, 99, "state0") == NULL, "cpu99 not found");
	is_str(c.cpu[0].resume_latency, "0", "resume latency raw \"0\"");
	is_int(c.cpu[0].resume_latency_us, CPUIDLE_RESUME_NO_CONSTRAINT,
	       "resume latency: no constraint");

	j = json_of(&c, -1);
	is_str(j,
	       "{\"cpuidle\":{\"driver\":\"psci_idle\",\"governor\":\"menu\",\"available_"
	       "governors\":"
	       "[\"menu\"]},\"pmqos\":{\"cpu_dma_latency_us\":null,\"resume_latency_us\":{\"0\":"
	       "null,"
	       "\"1\":null,\"2\":null,\"3\":null,\"4\":null,\"5\":null,\"6\":null,\"7\":null},"
	       "\"resume_latency_raw\":{\"0\":\"0\",\"1\":\"0\",\"2\":\"0\",\"3\":\"0\",\"4\":"
	       "\"0\","
	       "\"5\":\"0\",\"6\":\"0\",\"7\":\"0\"}}}",
	       "rk3588: cpuidle + pmqos json");
	free(j);
	j = json_of(&c, 4);
	ok(strstr(j,
		  "{\"idle\":[{\"state\":\"state0\",\"name\":\"WFI\",\"desc\":\"ARM WFI\","
		  "\"latency_us\":1,\"residency_us\":1,\"disabled\":false,\"default_enabled\":true,"
		  "\"residency_pct\":null,\"entries_per_s\":null,\"above_per_s\":null,"
		  "\"below_per_s\":null,") == j,
	   "rk3588: per-CPU idle json");
	ok(strstr(j, "{\"state\":\"state1\",\"name\":\"cpu-sleep\"") != NULL, "json: state1");
	free(j);
	sbuf_init(&b);
	out_cpuidle_text(&b, &c, &t);
	ok(strstr(b.s, "driver psci_idle  governor menu") != NULL, "text: driver line");
	ok(strstr(b.s, "cpu-sleep") && strstr(b.s, "n/a"), "text: states, n/a rates");
	ok(strstr(b.s, "resume latency cpu 0-7: no constraint") != NULL,
	   "text: resume latency grouped");
	sbuf_free(&b);
	close_fixture(&r, &t, &c);
}

static int run(const char *cmd)
{
	return system(cmd);
}

static void write_file(const char *root, const char *rel, const void *data, size_t len)
{
	char path[1200];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fp = fopen(path, "w");
	if (!fp) {
		ok(0, "write %s", path);
		return;
	}
	fwrite(data, 1, len, fp);
	fclose(fp);
}

static void write_str(const char *root, const char *rel, const char *text)
{
	write_file(root, rel, text, strlen(text));
}

/* Copy rk3588, set cpu4's counters, read, advance them, read, derive. */
static void test_derive_fixture(void)
{
	char tmpl[] = "/tmp/tt-cpuidle-XXXXXX", cmd[2600], root[1100];
	struct sysroot r;
	struct topology t;
	struct cpuidle_info a, b, c;
	const struct cpuidle_state *s;
	int32_t dma = 20;

	if (access(fixture("rk3588"), F_OK) != 0 || !mkdtemp(tmpl)) {
		ok(1, "# SKIP rk3588 fixture missing");
		return;
	}
	snprintf(root, sizeof(root), "%s/root", tmpl);
	snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s'", fixture("rk3588"), root);
	if (run(cmd) != 0 || sysroot_open(&r, root) != 0 || topology_read(&r, &t) != 0) {
		ok(0, "copy rk3588 fixture");
		return;
	}
	write_str(root, CPU "cpu4/cpuidle/state0/time", "1000000\n");
	write_str(root, CPU "cpu4/cpuidle/state0/usage", "5000\n");
	write_str(root, CPU "cpu4/cpuidle/state1/time", "9000000\n");
	write_str(root, CPU "cpu4/cpuidle/state1/usage", "2000\n");
	write_str(root, CPU "cpu4/cpuidle/state1/above", "100\n");
	write_str(root, CPU "cpu4/cpuidle/state1/below", "10\n");
	cpuidle_read(&r, &t, &a);
	/* 0.25 s later: WFI +25 ms in 40 entries, cpu-sleep +200 ms in 30 entries,
	 * 5 too deep, 1 too shallow */
	write_str(root, CPU "cpu4/cpuidle/state0/time", "1025000\n");
	write_str(root, CPU "cpu4/cpuidle/state0/usage", "5040\n");
	write_str(root, CPU "cpu4/cpuidle/state1/time", "9200000\n");
	write_str(root, CPU "cpu4/cpuidle/state1/usage", "2030\n");
	write_str(root, CPU "cpu4/cpuidle/state1/above", "105\n");
	write_str(root, CPU "cpu4/cpuidle/state1/below", "11\n");
	write_str(root, CPU "cpu4/power/pm_qos_resume_latency_us", "n/a\n");
	write_str(root, CPU "cpu5/power/pm_qos_resume_latency_us", "100\n");
	write_str(root, CPU "cpu4/cpuidle/state1/disable", "1\n");
	mkdir(strcat(strcpy(cmd, root), "/dev"), 0755);
	write_file(root, "dev/cpu_dma_latency", &dma, sizeof(dma));
	cpuidle_read(&r, &t, &b);
	cpuidle_derive(&b, &a, 0.25);
	s = cpuidle_state_find(&b, 4, "state0");
	ok(s != NULL, "fixture: cpu4 state0");
	if (s) {
		is_dbl(s->residency_pct, 10.0, 1e-9, "fixture: WFI 25 ms / 250 ms = 10 %");
		is_dbl(s->entries_per_s, 160.0, 1e-9, "fixture: WFI 40 / 0.25 s = 160/s");
	}
	s = cpuidle_state_find(&b, 4, "cpu-sleep");
	if (s) {
		is_dbl(s->residency_pct, 80.0, 1e-9, "fixture: cpu-sleep 80 %");
		is_dbl(s->entries_per_s, 120.0, 1e-9, "fixture: cpu-sleep 120/s");
		is_dbl(s->above_per_s, 20.0, 1e-9, "fixture: above 20/s");
		is_dbl(s->below_per_s, 4.0, 1e-9, "fixture: below 4/s");
		is_int(s->disable, 1, "fixture: disable written 1 reads 1");
	}
	s = cpuidle_state_find(&b, 0, "cpu-sleep");
	ok(s && isnan(s->residency_pct) && isnan(s->entries_per_s),
	   "fixture: cpu0 where nothing moved (a static tree) is n/a, not 0");
	is_int(b.cpu[4].resume_latency_us, 0, "fixture: \"n/a\" resume latency = 0 us");
	is_str(b.cpu[4].resume_latency, "n/a", "fixture: raw \"n/a\" kept");
	is_int(b.cpu[5].resume_latency_us, 100, "fixture: resume latency 100 us");
	is_int(b.dma_latency_us, 20, "fixture: dev/cpu_dma_latency binary s32 read");
	{
		char *j = json_of(&b, -1);

		ok(strstr(j,
			  "\"cpu_dma_latency_us\":20,\"resume_latency_us\":{\"0\":null,\"1\":null,"
			  "\"2\":null,\"3\":null,\"4\":0,\"5\":100,") != NULL,
		   "fixture: pmqos json values");
		ok(strstr(j, "\"4\":\"n/a\",\"5\":\"100\"") != NULL, "fixture: pmqos raw json");
		free(j);
	}
	/* counters reset (driver re-registered) */
	write_str(root, CPU "cpu4/cpuidle/state1/time", "50\n");
	write_str(root, CPU "cpu4/cpuidle/state1/usage", "1\n");
	write_str(root, "dev/cpu_dma_latency", "20\n");
	cpuidle_read(&r, &t, &c);
	cpuidle_derive(&c, &b, 0.25);
	s = cpuidle_state_find(&c, 4, "cpu-sleep");
	ok(s && isnan(s->residency_pct) && isnan(s->entries_per_s), "fixture: reset gives NAN");
	is_int(c.dma_latency_us, -1, "fixture: dev/cpu_dma_latency not 4 bytes: n/a");
	cpuidle_free(&c);
	/* cpu5 goes offline: its cpuidle directory disappears */
	write_str(root, CPU "online", "0-4,6-7\n");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/" CPU "cpu5/cpuidle'", root);
	run(cmd);
	topology_free(&t);
	topology_read(&r, &t);
	cpuidle_read(&r, &t, &c);
	ok(!c.cpu[5].online && c.cpu[5].nstates == 0, "fixture: hot-unplugged cpu5 offline");
	cpuidle_derive(&c, &b, 0.25);
	cpuidle_derive(&b, &c, 0.25);
	s = cpuidle_state_find(&b, 5, "state1");
	ok(s && isnan(s->residency_pct), "fixture: back online after offline: NAN");

	cpuidle_free(&a);
	cpuidle_free(&b);
	close_fixture(&r, &t, &c);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	run(cmd);
}

static void test_intel(void)
{
	struct sysroot r;
	struct topology t;
	struct cpuidle_info c;
	const struct cpuidle_state *s;

	if (!open_fixture("intel", &r, &t)) {
		ok(1, "# SKIP intel fixture missing");
		return;
	}
	is_int(cpuidle_read(&r, &t, &c), 0, "intel: read");
	is_str(c.driver, "intel_idle", "intel: intel_idle");
	is_int(c.cpu[0].nstates, 4, "intel: POLL C1 C1E C6");
	s = cpuidle_state_find(&c, 0, "C6");
	ok(s && s->index == 3 && s->latency_us == 170 && s->residency_us == 600,
	   "intel: C6 state3 170/600 us");
	s = cpuidle_state_find(&c, 0, "POLL");
	ok(s && s->index == 0 && s->latency_us == 0, "intel: POLL state0");
	close_fixture(&r, &t, &c);
}

static void test_stm32(void)
{
	struct sysroot r;
	struct topology t;
	struct cpuidle_info c;
	const struct cpuidle_state *s;
	char *j;

	if (!open_fixture("stm32mp157", &r, &t)) {
		ok(1, "# SKIP stm32mp157 fixture missing");
		return;
	}
	is_int(cpuidle_read(&r, &t, &c), 0, "stm32mp157: read");
	is_str(c.driver, "stm32_idle", "stm32mp157: stm32_idle");
	s = cpuidle_state_find(&c, 0, "CStop");
	ok(s != NULL, "stm32mp157: CStop");
	if (s) {
		is_int(s->index, 1, "CStop is state1");
		is_int(s->disable, 1, "CStop disable=1 (set by the driver)");
		is_int(s->latency_us, 620, "CStop latency 620");
		is_int(s->residency_us, 700, "CStop residency 700");
	}
	j = json_of(&c, 1);
	ok(strstr(j, "\"name\":\"CStop\",\"desc\":\"Clocks off\",\"latency_us\":620,"
		     "\"residency_us\":700,\"disabled\":true") != NULL,
	   "stm32mp157 json: disabled true");
	free(j);
	close_fixture(&r, &t, &c);
}

static void test_rpi4(void)
{
	struct sysroot r;
	struct topology t;
	struct cpuidle_info c;
	char *j;
	struct sbuf b;

	if (!open_fixture("rpi4", &r, &t)) {
		ok(1, "# SKIP rpi4 fixture missing");
		return;
	}
	is_int(cpuidle_read(&r, &t, &c), 0, "rpi4: read");
	is_str(c.driver, "none", "rpi4: driver none");
	is_int(c.ncpus, 4, "rpi4: 4 CPUs");
	ok(c.cpu[0].online && c.cpu[0].nstates == 0 && c.cpu[3].nstates == 0,
	   "rpi4: online, zero states");
	cpuidle_derive(&c, &c, 1.0);
	j = json_of(&c, 0);
	is_str(j, "{\"idle\":[]}", "rpi4 json: idle []");
	free(j);
	j = json_of(&c, -1);
	ok(strstr(j, "\"driver\":\"none\"") != NULL, "rpi4 json: driver none");
	free(j);
	sbuf_init(&b);
	out_cpuidle_text(&b, &c, &t);
	ok(strstr(b.s, "cpu0    no idle states") != NULL, "rpi4 text: no idle states");
	sbuf_free(&b);
	close_fixture(&r, &t, &c);
}

static void test_broken(void)
{
	struct sysroot r;
	struct topology t;
	struct cpuidle_info c;
	const struct cpuidle_state *s;
	char *j;
	struct sbuf b;

	if (!open_fixture("broken", &r, &t)) {
		ok(1, "# SKIP broken fixture missing");
		return;
	}
	is_int(cpuidle_read(&r, &t, &c), 0, "broken: read");
	is_int(c.ncpus, 4, "broken: 4 CPUs");
	ok(!c.cpu[2].online, "broken: cpu2 listed as offline");
	is_int(c.cpu[2].nstates, 0, "broken: offline cpu2 has no states");
	ok(c.cpu[1].online && c.cpu[1].nstates == 2, "broken: cpu1 online, 2 states");
	ok(c.cpu[3].online, "broken: cpu3 online");
	s = cpuidle_state_find(&c, 0, "state1");
	ok(s != NULL, "broken: cpu0 state1");
	if (s) {
		ok(!s->have_usage, "broken: garbage usage is n/a");
		ok(!s->have_time, "broken: missing time is n/a");
		ok(s->have_below && s->below == 698, "broken: other counters still read");
	}
	cpuidle_derive(&c, &c, 1.0);
	if (s) {
		ok(isnan(s->residency_pct) && isnan(s->entries_per_s),
		   "broken: rates of n/a counters are NAN");
		ok(isnan(s->below_per_s), "broken: a readable counter that did not move is n/a");
	}
	j = json_of(&c, 2);
	is_str(j, "{\"idle\":null}", "broken json: offline cpu2 idle null");
	free(j);
	j = json_of(&c, 0);
	ok(strstr(j, "\"usage\":null,\"time_us\":null") != NULL, "broken json: n/a counters null");
	free(j);
	sbuf_init(&b);
	out_cpuidle_text(&b, &c, &t);
	ok(strstr(b.s, "cpu2    offline") != NULL, "broken text: cpu2 offline");
	sbuf_free(&b);
	close_fixture(&r, &t, &c);
}

static void test_empty_root(void)
{
	char tmpl[] = "/tmp/tt-cpuidle-XXXXXX";
	struct sysroot r;
	struct topology t;
	struct cpuidle_info c;
	char *j;

	if (!mkdtemp(tmpl) || sysroot_open(&r, tmpl) != 0) {
		ok(0, "temp root");
		return;
	}
	is_int(cpuidle_read(&r, NULL, &c), -EINVAL, "no topology: -EINVAL");
	cpuidle_free(&c);
	memset(&t, 0, sizeof(t));
	t.ncpus = 1;
	t.cpu = xcalloc(1, sizeof(*t.cpu));
	t.cpu[0].online = true;
	is_int(cpuidle_read(&r, &t, &c), 0, "empty root: read returns 0");
	is_str(c.driver, "", "empty root: driver n/a");
	is_int(c.cpu[0].resume_latency_us, CPUIDLE_RESUME_UNREADABLE,
	       "empty root: resume latency unreadable");
	j = json_of(&c, -1);
	is_str(j,
	       "{\"cpuidle\":{\"driver\":null,\"governor\":null,\"available_governors\":null},"
	       "\"pmqos\":{\"cpu_dma_latency_us\":null,\"resume_latency_us\":{\"0\":null},"
	       "\"resume_latency_raw\":{\"0\":null}}}",
	       "empty root json: all null");
	free(j);
	close_fixture(&r, &t, &c);
	rmdir(tmpl);
}

int main(void)
{
	test_parsers();
	test_derive_hand();
	test_rk3588();
	test_derive_fixture();
	test_intel();
	test_stm32();
	test_rpi4();
	test_broken();
	test_empty_root();
	return done_testing();
}
