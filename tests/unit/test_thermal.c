/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/source/thermal (zone -> CPU mapping on synthetic
 * topologies, zones / cooling devices / hwmon on the fixtures, active
 * throttling, negative and unreadable temperatures) and src/out/thermal_out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"
#include "core/json.h"
#include "core/str.h"
#include "out/thermal_out.h"
#include "source/thermal.h"
#include "source/topology.h"
#include "tap.h"

/* A topology of n CPUs with the given capacities and ids (-1 = n/a). */
static void topo(struct topology *t, int n, const int *cap, const int *cl, const int *pkg)
{
	memset(t, 0, sizeof(*t));
	t->ncpus = n;
	t->cpu = calloc((size_t)n, sizeof(*t->cpu));
	for (int c = 0; c < n; c++) {
		cpumask_set(&t->possible, c);
		cpumask_set(&t->present, c);
		cpumask_set(&t->online, c);
		t->cpu[c].id = c;
		t->cpu[c].present = t->cpu[c].online = true;
		t->cpu[c].capacity = cap ? cap[c] : -1;
		t->cpu[c].cluster_id = cl ? cl[c] : -1;
		t->cpu[c].package_id = pkg ? pkg[c] : -1;
	}
}

static const char *cpus_of(const char *type, const struct topology *t, int pkg)
{
	static char buf[128];
	struct cpumask m;

	thermal_zone_cpus(type, t, pkg, &m);
	cpulist_format(&m, buf, sizeof(buf));
	return buf;
}

static void test_mapping(void)
{
	static const int cap[8] = {414, 414, 414, 414, 1024, 1024, 1024, 1024};
	static const int cl[8] = {0, 0, 0, 0, 1, 1, 2, 2};
	static const int pkg0[8] = {0, 0, 0, 0, 0, 0, 0, 0};
	static const int pkg3[8] = {0, 0, 0, 0, 1, 1, 2, 2};
	static const int hcap[4] = {1024, 1024, 1024, 1024};
	static const int xpkg[8] = {0, 0, 0, 0, 1, 1, 1, 1};
	struct topology t;
	struct cpumask m;

	/* RK3588 on 6.1: cluster ids 0/1/2 in one package. */
	topo(&t, 8, cap, cl, pkg0);
	is_str(cpus_of("bigcore0-thermal", &t, 0), "4-5", "rk3588 bigcore0 -> 4-5");
	is_str(cpus_of("bigcore1-thermal", &t, 0), "6-7", "rk3588 bigcore1 -> 6-7");
	is_str(cpus_of("bigcore1_thermal", &t, 0), "6-7", "underscore spelling");
	is_str(cpus_of("littlecore-thermal", &t, 0), "0-3", "littlecore -> 0-3");
	is_str(cpus_of("soc-thermal", &t, 0), "", "soc-thermal on big.LITTLE: no CPUs");
	is_str(cpus_of("cpu_thermal", &t, 0), "0-7", "cpu_thermal -> all");
	is_str(cpus_of("gpu-thermal", &t, 0), "", "gpu-thermal -> none");
	is_str(cpus_of("center-thermal", &t, 0), "", "center-thermal -> none");
	is_str(cpus_of("cpu3-thermal", &t, 0), "3", "cpu3-thermal -> 3");
	is_str(cpus_of("bigcore2-thermal", &t, 0), "", "no third big cluster");
	ok(!thermal_zone_cpus("npu-thermal", &t, 0, &m), "false when no CPUs");
	ok(!thermal_zone_cpus("bigcore0-thermal", NULL, 0, &m) && cpumask_empty(&m), "no topology");
	/* CPU 5 offline: its topology/ is gone, capacity still readable. It
	 * cannot be placed, but the other clusters keep their numbers. */
	t.cpu[5].cluster_id = t.cpu[5].package_id = -1;
	is_str(cpus_of("bigcore1-thermal", &t, 0), "6-7", "offline CPU does not shift clusters");
	is_str(cpus_of("bigcore0-thermal", &t, 0), "4", "offline id-less CPU left out");
	topology_free(&t);

	/* cluster_id n/a, the cpu-map's cluster_cpus_list present (an RK3588
	 * seen so: both big-core zones went to CPUs 4-7): the cpu-map splits
	 * the big cores; related_cpus alone too. */
	topo(&t, 8, cap, NULL, pkg0);
	for (int c = 0; c < 8; c++) {
		struct cpumask cm;

		cpulist_parse(c < 4 ? "0-3" : c < 6 ? "4-5" : "6-7", &cm);
		t.cpu[c].cluster_cpus = topology_mask_add(&t, &cm);
	}
	is_int(t.nmasks, 3, "three distinct masks kept for eight CPUs");
	ok(t.cpu[4].cluster_cpus == t.cpu[5].cluster_cpus &&
		   t.cpu[4].cluster_cpus != t.cpu[6].cluster_cpus,
	   "CPUs of one cluster share their mask");
	is_str(cpus_of("bigcore0-thermal", &t, 0), "4-5", "cluster_cpus_list: bigcore0 -> 4-5");
	is_str(cpus_of("bigcore1-thermal", &t, 0), "6-7", "cluster_cpus_list: bigcore1 -> 6-7");
	for (int c = 0; c < 8; c++) {
		struct cpumask cm;

		t.cpu[c].cluster_cpus = 0;
		cpulist_parse(c < 4 ? "0-3" : c < 6 ? "4-5" : "6-7", &cm);
		t.cpu[c].related_cpus = topology_mask_add(&t, &cm);
	}
	is_str(cpus_of("bigcore1-thermal", &t, 0), "6-7", "related_cpus: bigcore1 -> 6-7");
	/* nothing splits CPUs 4-7: n/a with the reason, not a guess */
	for (int c = 0; c < 8; c++)
		t.cpu[c].related_cpus = 0;
	{
		char why[128];

		ok(!thermal_zone_map("bigcore0-thermal", &t, 0, 2, &m, why, sizeof(why)) &&
			   strstr(why,
				  "2 big-core zones but cpu_capacity and package alone shows 1 "
				  "big cluster (CPUs 4-7)"),
		   "two big-core zones, one big cluster: n/a (%s)", why);
		ok(!thermal_zone_map("bigcore1-thermal", &t, 0, 2, &m, why, sizeof(why)) && why[0],
		   "bigcore1 too");
		ok(thermal_zone_map("littlecore-thermal", &t, 0, 2, &m, why, sizeof(why)) &&
			   !why[0],
		   "the little cluster still maps");
		ok(!thermal_zone_map("gpu-thermal", &t, 0, 2, &m, why, sizeof(why)) && !why[0],
		   "gpu-thermal: no CPUs, nothing to explain");
	}
	topology_free(&t);

	/* 5.10 BSP: clusters as packages, cluster_id n/a. */
	topo(&t, 8, cap, NULL, pkg3);
	is_str(cpus_of("bigcore0-thermal", &t, 0), "4-5", "5.10: bigcore0 -> 4-5");
	is_str(cpus_of("bigcore1-thermal", &t, 0), "6-7", "5.10: bigcore1 -> 6-7");
	topology_free(&t);

	/* Homogeneous quad (RPi4, RK3568). */
	topo(&t, 4, hcap, NULL, NULL);
	is_str(cpus_of("soc-thermal", &t, 0), "0-3", "single cluster soc-thermal -> all");
	is_str(cpus_of("cpu-thermal", &t, 0), "0-3", "cpu-thermal -> all");
	is_str(cpus_of("bigcore0-thermal", &t, 0), "", "no big cluster on a homogeneous board");
	topology_free(&t);

	/* No capacities at all (x86): two packages. */
	topo(&t, 8, NULL, NULL, xpkg);
	is_str(cpus_of("x86_pkg_temp", &t, 0), "0-3", "x86_pkg_temp #0 -> package 0");
	is_str(cpus_of("x86_pkg_temp", &t, 1), "4-7", "x86_pkg_temp #1 -> package 1");
	is_str(cpus_of("TCPU", &t, 0), "0-7", "DPTF TCPU -> all");
	is_str(cpus_of("acpitz", &t, 0), "", "acpitz -> none");
	topology_free(&t);
	topo(&t, 2, NULL, NULL, NULL);
	is_str(cpus_of("x86_pkg_temp", &t, 0), "0-1", "unknown packages: all");
	topology_free(&t);
}

static int sh(const char *fmt, const char *a, const char *b)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return system(cmd);
}

static int write_file(const char *dir, const char *rel, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static const char *mask(const struct cpumask *m)
{
	static char buf[128];

	cpulist_format(m, buf, sizeof(buf));
	return buf;
}

static bool read_root(const char *dir, struct topology *t, struct thermal_info *th)
{
	struct sysroot r;
	bool okk;

	if (sysroot_open(&r, dir) != 0)
		return false;
	okk = topology_read(&r, t) == 0 && thermal_read(&r, t, th) == 0;
	sysroot_close(&r);
	return okk;
}

static void test_rk3588(void)
{
	struct topology t;
	struct thermal_info th;
	struct sbuf sb;
	struct jw w;
	bool have;

	if (!ok(read_root(fixture("rk3588"), &t, &th), "rk3588: thermal_read"))
		return;
	is_int(th.nzones, 7, "7 zones");
	is_str(th.zones[0].type, "soc-thermal", "zone0 soc-thermal");
	is_str(th.zones[1].type, "bigcore0-thermal", "zone1 bigcore0-thermal");
	is_str(th.zones[3].type, "littlecore-thermal", "zone3 littlecore-thermal");
	is_str(th.zones[6].type, "npu-thermal", "zone6 npu-thermal");
	ok(th.zones[1].have_temp, "zone1 has a temperature");
	is_int(th.zones[1].temp_mc, 45307, "bigcore0 45307 mC");
	is_int(th.zones[0].temp_mc, 44384, "soc 44384 mC");
	is_int(th.zones[1].ntrips, 2, "2 trips");
	is_int(th.zones[1].trips[0].temp_mc, 85000, "passive 85 C");
	is_str(th.zones[1].trips[0].type, "passive", "trip 0 passive");
	is_str(th.zones[1].trips[1].type, "critical", "trip 1 critical");
	is_str(th.zones[1].policy, "power_allocator", "policy");
	is_str(mask(&th.zones[1].cpus), "4-5", "bigcore0 -> CPUs 4-5");
	is_str(mask(&th.zones[2].cpus), "6-7", "bigcore1 -> CPUs 6-7");
	is_str(mask(&th.zones[3].cpus), "0-3", "littlecore -> CPUs 0-3");
	is_str(mask(&th.zones[0].cpus), "", "soc-thermal: other zones cover the CPUs");
	ok(!th.zones[1].above_passive, "not above passive");
	is_int(th.ncooling, 4, "4 cooling devices");
	is_str(th.cooling[1].type, "cpufreq-cpu4", "cooling1 cpufreq-cpu4");
	is_str(mask(&th.cooling[1].cpus), "4-5", "cpufreq-cpu4 -> related_cpus 4-5");
	is_str(mask(&th.cooling[0].cpus), "0-3", "cpufreq-cpu0 -> 0-3");
	is_int(th.cooling[1].max_state, 10, "max_state");
	is_int(th.cooling[1].cur_state, 0, "cur_state 0");
	is_str(th.cooling[3].devfreq, "fb000000.gpu", "devfreq cooling -> fb000000.gpu");
	is_int(th.nhwmon, 7, "7 hwmon temperatures");
	is_str(th.hwmon[1].chip, "bigcore0_thermal", "hwmon1 chip");
	is_str(th.hwmon[1].label, "temp1", "hwmon label defaults to temp1");
	is_int(th.hwmon[1].temp_mc, 45307, "hwmon1 temp");
	ok(th.hwmon[1].have_crit && th.hwmon[1].crit_mc == 115000, "hwmon crit 115 C");
	ok(!th.hwmon[1].have_max, "no max: n/a");
	ok(!th.from_libsensors, "fixture root: sysfs hwmon, not libsensors");
	is_int(thermal_cpu_temp_mc(&th, 4, &have), 45307, "cpu4 temp from bigcore0");
	ok(have, "cpu4 has a temperature");
	is_int(thermal_cpu_temp_mc(&th, 0, &have), 44384, "cpu0 temp from littlecore");
	thermal_cpu_temp_mc(&th, 100, &have);
	ok(!have, "cpu100: none");
	ok(!thermal_cpu_throttled(&th, 4), "cpu4 not throttled");

	sbuf_init(&sb);
	jw_init(&w, &sb, false);
	jw_obj_begin(&w, NULL);
	out_thermal_json(&w, &th);
	jw_obj_end(&w);
	ok(strstr(sb.s, "{\"zone\":\"bigcore0-thermal\",\"id\":1,\"temp_mc\":45307,\"error\":null,"
			"\"trips_mc\":[85000,115000],\"trip_types\":[\"passive\",\"critical\"],"
			"\"policy\":\"power_allocator\",\"cpus\":[4,5],\"cpus_note\":null,"
			"\"above_passive\":false}") != NULL,
	   "json: zone");
	ok(strstr(sb.s,
		  "{\"id\":3,\"type\":\"devfreq-fb000000.gpu\",\"cur_state\":0,\"max_state\":7,"
		  "\"active\":false,\"cpus\":[],\"devfreq\":\"fb000000.gpu\"}") != NULL,
	   "json: cooling");
	ok(strstr(sb.s, "\"hwmon_source\":\"sysfs\"") != NULL, "json: hwmon source");
	sbuf_reset(&sb);
	out_thermal_text(&sb, &th);
	ok(strstr(sb.s,
		  "bigcore0-thermal     45.3 C  trips passive 85.0 C critical 115.0 C  cpus 4-5") !=
		   NULL,
	   "text: zone line");
	sbuf_free(&sb);
	thermal_free(&th);
	topology_free(&t);
}

static void test_others(void)
{
	struct topology t;
	struct thermal_info th;
	struct sbuf sb;
	struct jw w;
	size_t i;

	if (read_root(fixture("intel"), &t, &th)) {
		const struct thermal_zone *pkg = NULL, *wifi = NULL;
		const struct thermal_hwmon *package = NULL;

		for (i = 0; i < th.nzones; i++) {
			if (!strcmp(th.zones[i].type, "x86_pkg_temp"))
				pkg = &th.zones[i];
			if (!strcmp(th.zones[i].type, "iwlwifi_1"))
				wifi = &th.zones[i];
		}
		ok(pkg != NULL, "intel: x86_pkg_temp zone");
		if (pkg) {
			is_int(pkg->temp_mc, 61000, "intel: package 61 C");
			is_int(cpumask_count(&pkg->cpus), t.ncpus,
			       "intel: x86_pkg_temp -> all CPUs");
			ok(!pkg->above_passive, "intel: unset 0 C passive trips are not limits");
		}
		ok(wifi && wifi->ntrips == 0, "intel: invalid (-274 C) trips dropped");
		for (i = 0; i < th.nhwmon; i++)
			if (!strcmp(th.hwmon[i].label, "Package id 0"))
				package = &th.hwmon[i];
		ok(package != NULL, "intel: coretemp Package id 0");
		if (package) {
			is_str(package->chip, "coretemp", "intel: chip coretemp");
			is_int(package->temp_mc, 61000, "intel: package temp");
			is_int(package->max_mc, 100000, "intel: high 100 C");
			is_int(package->crit_mc, 100000, "intel: crit 100 C");
		}
		for (i = 0; i < th.ncooling; i++)
			if (!strcmp(th.cooling[i].type, "intel_powerclamp"))
				break;
		ok(i < th.ncooling && !th.cooling[i].active &&
			   cpumask_count(&th.cooling[i].cpus) == t.ncpus,
		   "intel: powerclamp idle, covers all CPUs");
		ok(th.ncooling >= 2 && th.cooling[0].id == 0 && th.cooling[1].id == 1 &&
			   th.cooling[th.ncooling - 1].id == (int)th.ncooling - 1,
		   "intel: cooling devices in numeric order (10 after 9)");
		thermal_free(&th);
		topology_free(&t);
	}
	if (read_root(fixture("stm32mp157"), &t, &th)) {
		is_int(th.nzones, 1, "stm32: one zone");
		is_str(th.zones[0].type, "cpu-thermal", "stm32: cpu-thermal");
		is_str(mask(&th.zones[0].cpus), "0-1", "stm32: covers both CPUs");
		is_int(th.zones[0].trips[0].temp_mc, 90000, "stm32: passive 90 C");
		thermal_free(&th);
		topology_free(&t);
	}
	if (read_root(fixture("broken"), &t, &th)) {
		ok(th.nzones == 3, "broken: 3 zones");
		ok(!th.zones[0].have_temp && th.zones[0].err == -ENODATA, "broken: empty temp n/a");
		ok(!th.zones[1].have_temp && th.zones[1].err == -ENOENT,
		   "broken: missing temp n/a");
		ok(th.zones[2].have_temp, "broken: soc-thermal readable");
		is_int(th.nhwmon, 0, "broken: no hwmon");
		sbuf_init(&sb);
		jw_init(&w, &sb, false);
		jw_obj_begin(&w, NULL);
		out_thermal_json(&w, &th);
		jw_obj_end(&w);
		ok(strstr(sb.s, "\"temp_mc\":null,\"error\":\"ENODATA\"") != NULL,
		   "json: null + reason");
		sbuf_reset(&sb);
		out_thermal_text(&sb, &th);
		ok(strstr(sb.s, "n/a (ENODATA") != NULL, "text: n/a + reason");
		sbuf_free(&sb);
		thermal_free(&th);
		topology_free(&t);
	}
}

static void test_throttling(void)
{
	char tmpl[] = "/tmp/tt-thermal-XXXXXX", root[1100];
	struct topology t;
	struct thermal_info th, before;
	struct sbuf sb;

	if (!mkdtemp(tmpl)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(root, sizeof(root), "%s/root", tmpl);
	if (sh("cp -a '%s' '%s'", fixture("rk3588"), root) != 0) {
		ok(0, "copy fixture");
		return;
	}
	if (!ok(read_root(root, &t, &before), "read copy"))
		return;
	/* The big cluster 4-5 capped by its cooling device, the GPU too, and
	 * the little cluster above its passive trip; a negative reading. */
	write_file(root, "sys/class/thermal/cooling_device1/cur_state", "3\n");
	write_file(root, "sys/class/thermal/cooling_device3/cur_state", "2\n");
	write_file(root, "sys/class/thermal/thermal_zone3/temp", "86000\n");
	write_file(root, "sys/class/thermal/thermal_zone6/temp", "-5500\n");
	topology_free(&t);
	if (!ok(read_root(root, &t, &th), "read modified copy"))
		return;
	ok(th.cooling[1].active, "cooling1 active");
	ok(thermal_cpu_throttled(&th, 4) && thermal_cpu_throttled(&th, 5), "CPUs 4-5 throttled");
	ok(!thermal_cpu_throttled(&th, 6), "CPU 6 not throttled");
	ok(th.zones[3].above_passive, "littlecore above its passive trip");
	ok(thermal_cpu_throttled(&th, 0), "CPU 0 throttled by the zone");
	ok(thermal_devfreq_throttled(&th, "fb000000.gpu"), "GPU capped");
	ok(!thermal_devfreq_throttled(&th, "fdab0000.npu"), "NPU not capped");
	{
		struct cpumask p4, p0, p6;

		cpulist_parse("4-5", &p4);
		cpulist_parse("0-3", &p0);
		cpulist_parse("6-7", &p6);
		ok(thermal_cpus_capped(&th, &p4), "policy4 capped by cpufreq-cpu4");
		/* The little cluster is only above its passive trip: its cooling
		 * device is at 0, so its policy is not (yet) capped. */
		ok(!thermal_cpus_capped(&th, &p0), "policy0 not capped (no active cooling)");
		ok(!thermal_cpus_capped(&th, &p6), "policy6 not capped");
	}
	ok(th.zones[6].have_temp && th.zones[6].temp_mc == -5500,
	   "negative temperature is a value");
	sbuf_init(&sb);
	out_thermal_text(&sb, &th);
	ok(strstr(sb.s, "npu-thermal          -5.5 C") != NULL, "text: -5.5 C");
	ok(strstr(sb.s, "ABOVE PASSIVE TRIP") != NULL, "text: above passive");
	ok(strstr(sb.s, "state 3/10  cpus 4-5  ACTIVE") != NULL, "text: active cooling");

	/* thermal_refresh re-reads only temperatures and states: same text. */
	{
		struct sysroot r;
		struct thermal_info fast;
		struct sbuf sb2;

		sysroot_open(&r, root);
		write_file(root, "sys/class/hwmon/hwmon1/temp1_input", "47000\n");
		thermal_free(&th);
		thermal_read(&r, &t, &th);
		thermal_refresh(&r, &before, &fast);
		sbuf_init(&sb2);
		sbuf_reset(&sb);
		out_thermal_text(&sb, &th);
		out_thermal_text(&sb2, &fast);
		is_str(sb2.s, sb.s, "thermal_refresh gives what thermal_read gives");
		is_int(fast.hwmon[1].temp_mc, 47000, "refresh re-reads hwmon inputs");
		ok(!before.cooling[1].active && before.zones[6].temp_mc == 43461,
		   "prev untouched by refresh");
		sbuf_free(&sb2);
		thermal_free(&fast);
		sysroot_close(&r);
	}
	sbuf_free(&sb);
	thermal_free(&before);
	thermal_free(&th);
	topology_free(&t);
	sh("rm -rf '%s'%s", tmpl, "");
}

int main(void)
{
	test_mapping();
	test_rk3588();
	test_others();
	test_throttling();
	return done_testing();
}
