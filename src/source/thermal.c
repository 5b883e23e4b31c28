/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Thermal zones and cooling devices (sys/class/thermal), hwmon temperature
 * inputs (sys/class/hwmon, or libsensors on the live root), and the mapping
 * of zones and cooling devices to the CPUs they measure or cap. Owns the
 * zone-type -> CPU rules (bigcoreN / littlecore / cpu-thermal / soc-thermal /
 * x86_pkg_temp / cpuN-thermal). */
#include "source/thermal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_SENSORS
#include <sensors/error.h>
#include <sensors/sensors.h>
#endif

#include "core/str.h"
#include "core/xalloc.h"

/* ---- clusters ----------------------------------------------------------- */

/* Where the clusters come from, in order of trust: the cpu-map
 * (topology/cluster_cpus_list), topology/cluster_id, the cpufreq policies
 * (related_cpus), else capacity and package alone. */
enum cl_source { CL_CPUMAP, CL_ID, CL_POLICY, CL_NONE };

static const char *const cl_source_name[] = {
	"the cpu-map (cluster_cpus_list)",
	"cluster_id",
	"cpufreq related_cpus",
	"cpu_capacity and package alone",
};

struct cluster {
	int cap, cl, pkg;
	struct cpumask key; /* CL_CPUMAP / CL_POLICY: the mask its CPUs share */
	struct cpumask cpus;
};

/* The most trusted source every online CPU has. */
static enum cl_source cluster_source(const struct topology *t)
{
	bool cpumap = true, id = true, policy = true, any = false;

	for (int c = 0; c < t->ncpus; c++) {
		const struct cpu_topo *ct = &t->cpu[c];

		if (!cpumask_test(&t->possible, c) || !cpumask_test(&t->online, c))
			continue;
		any = true;
		cpumap = cpumap && ct->cluster_cpus;
		id = id && ct->cluster_id >= 0;
		policy = policy && ct->related_cpus;
	}
	if (!any)
		return CL_NONE;
	return cpumap ? CL_CPUMAP : id ? CL_ID : policy ? CL_POLICY : CL_NONE;
}

/* The CPU's key under the source; false when it has none (offline: its
 * topology/ is gone). */
static bool cpu_key(const struct topology *t, const struct cpu_topo *ct, enum cl_source src,
		    struct cpumask *key)
{
	const struct cpumask *m;

	cpumask_zero(key);
	switch (src) {
	case CL_CPUMAP:
	case CL_POLICY:
		m = topology_mask(t, src == CL_CPUMAP ? ct->cluster_cpus : ct->related_cpus);
		if (m)
			*key = *m;
		return m != NULL;
	case CL_ID:
	case CL_NONE: break;
	}
	return !(ct->cluster_id < 0 && ct->package_id < 0);
}

static bool same_key(const struct cluster *g, const struct cpu_topo *ct, enum cl_source src,
		     const struct cpumask *key)
{
	if (src == CL_CPUMAP || src == CL_POLICY)
		return cpumask_equal(&g->key, key);
	return g->cl == ct->cluster_id && g->pkg == ct->package_id;
}

/* Groups of CPUs with equal capacity and cluster (by the source), ordered
 * by first CPU. A CPU without a key (offline: its topology/ is gone) joins
 * the group whose mask names it, else the one group of its capacity when
 * there is exactly one, and no group when there are several. */
static size_t build_clusters(const struct topology *t, enum cl_source src, struct cluster **out)
{
	struct cluster *g = NULL;
	size_t n = 0, cap = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (int c = 0; c < t->ncpus; c++) {
			const struct cpu_topo *ct = &t->cpu[c];
			struct cpumask key;
			bool keyed = cpu_key(t, ct, src, &key);
			size_t match = n, nmatch = 0, idless = n;

			if (!cpumask_test(&t->possible, c) || keyed != (pass == 0))
				continue;
			for (size_t i = 0; i < n; i++) {
				if (g[i].cap != ct->capacity)
					continue;
				if (pass == 0 && !same_key(&g[i], ct, src, &key))
					continue;
				if (pass == 1 && (src == CL_CPUMAP || src == CL_POLICY) &&
				    cpumask_test(&g[i].key, c)) {
					match = i; /* its siblings name it */
					nmatch = 1;
					break;
				}
				if (g[i].cl < 0 && g[i].pkg < 0 && cpumask_empty(&g[i].key))
					idless = i;
				match = i;
				nmatch++;
			}
			if (nmatch > 1 && idless < n) {
				match = idless;
				nmatch = 1;
			}
			if (nmatch == 1) {
				cpumask_set(&g[match].cpus, c);
				continue;
			}
			/* A key-less CPU that could belong to several groups is
			 * left out rather than forming a bogus group of its own. */
			if (nmatch > 1)
				continue;
			g = xgrow(g, &cap, n + 1, sizeof(*g));
			g[n].cap = ct->capacity;
			g[n].cl = ct->cluster_id;
			g[n].pkg = ct->package_id;
			g[n].key = key;
			cpumask_zero(&g[n].cpus);
			cpumask_set(&g[n].cpus, c);
			n++;
		}
	}
	/* Order by first CPU (pass 1 may have appended early CPUs). */
	for (size_t i = 1; i < n; i++) {
		for (size_t j = i;
		     j > 0 && cpumask_next(&g[j].cpus, 0) < cpumask_next(&g[j - 1].cpus, 0); j--) {
			struct cluster tmp = g[j];

			g[j] = g[j - 1];
			g[j - 1] = tmp;
		}
	}
	*out = g;
	return n;
}

static void all_cpus(const struct topology *t, struct cpumask *out)
{
	cpumask_zero(out);
	for (int c = 0; c < t->ncpus; c++)
		if (cpumask_test(&t->possible, c) || t->cpu[c].present)
			cpumask_set(out, c);
}

/* Lower case, without '-' and '_': "bigcore0-thermal" -> "bigcore0thermal". */
static void norm_type(const char *type, char *buf, size_t cap)
{
	size_t n = 0;

	for (; *type && n + 1 < cap; type++) {
		if (*type == '-' || *type == '_' || *type == ' ')
			continue;
		buf[n++] = (char)tolower((unsigned char)*type);
	}
	buf[n] = '\0';
}

/* "cpu3thermal" / "cpu3" -> 3; -1 otherwise. */
static int cpu_number(const char *norm)
{
	const char *p = norm + 3;
	int v = 0;

	if (strncmp(norm, "cpu", 3) || !isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p) && v < TT_MAX_CPUS)
		v = v * 10 + (*p++ - '0');
	if (*p && strcmp(p, "thermal"))
		return -1;
	return v < TT_MAX_CPUS ? v : -1;
}

static void say(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The reason a zone has no CPUs, where the caller wants one. */
static void say(char *why, size_t cap, const char *fmt, ...)
{
	va_list ap;

	if (!why || !cap)
		return;
	va_start(ap, fmt);
	vsnprintf(why, cap, fmt, ap);
	va_end(ap);
}

bool thermal_zone_map(const char *type, const struct topology *t, int pkg_index, int nbig_zones,
		      struct cpumask *out, char *why, size_t whycap)
{
	struct cluster *g = NULL;
	enum cl_source src;
	size_t n;
	char norm[64];
	int mincap = -1, maxcap = -1, k;
	bool hetero;

	cpumask_zero(out);
	if (why && whycap)
		why[0] = '\0';
	if (!type || !t || t->ncpus <= 0)
		return false;
	norm_type(type, norm, sizeof(norm));
	src = cluster_source(t);
	n = build_clusters(t, src, &g);
	for (size_t i = 0; i < n; i++) {
		if (g[i].cap < 0)
			continue;
		if (mincap < 0 || g[i].cap < mincap)
			mincap = g[i].cap;
		if (g[i].cap > maxcap)
			maxcap = g[i].cap;
	}
	hetero = mincap >= 0 && maxcap > mincap;

	if (str_starts(norm, "bigcore")) {
		const char *p = norm + 7;
		int want = -1, nbig = 0;
		struct cpumask big;

		if (isdigit((unsigned char)*p))
			want = (int)strtol(p, NULL, 10);
		cpumask_zero(&big);
		for (size_t i = 0; hetero && i < n; i++) {
			if (g[i].cap <= mincap)
				continue;
			if (want < 0 || nbig == want)
				cpumask_or(out, &g[i].cpus);
			cpumask_or(&big, &g[i].cpus);
			nbig++;
		}
		if (!hetero) {
			say(why, whycap,
			    mincap < 0 ? "no cpu_capacity: which cores are big is not known"
				       : "all CPUs have one capacity: no big cores");
		} else if (want >= 0 && (want >= nbig || nbig < nbig_zones)) {
			/* The zones name more big clusters than the topology
			 * shows: which one each measures is a guess. */
			char list[64];

			cpulist_format(&big, list, sizeof(list));
			cpumask_zero(out);
			say(why, whycap,
			    "%d big-core zone%s but %s shows %d big cluster%s (CPUs %s)",
			    nbig_zones > want ? nbig_zones : want + 1,
			    (nbig_zones > want ? nbig_zones : want + 1) == 1 ? "" : "s",
			    cl_source_name[src], nbig, nbig == 1 ? "" : "s", list);
		}
	} else if (str_starts(norm, "littlecore") || str_starts(norm, "little")) {
		for (size_t i = 0; hetero && i < n; i++)
			if (g[i].cap == mincap)
				cpumask_or(out, &g[i].cpus);
		if (!hetero)
			say(why, whycap,
			    mincap < 0 ? "no cpu_capacity: which cores are little is not known"
				       : "all CPUs have one capacity: no little cores");
	} else if (!strcmp(norm, "cputhermal") || !strcmp(norm, "cpu") || !strcmp(norm, "tcpu")) {
		/* "tcpu": the processor participant of Intel DPTF. */
		all_cpus(t, out);
	} else if (!strcmp(norm, "socthermal") || !strcmp(norm, "soc")) {
		if (!hetero)
			all_cpus(t, out);
	} else if (str_starts(norm, "x86pkgtemp")) {
		/* The pkg_index-th package (zones are created package by
		 * package); all CPUs when package ids are unknown. */
		int pkgs[64], npkg = 0;

		for (int c = 0; c < t->ncpus; c++) {
			int p = t->cpu[c].package_id, j;

			if (p < 0)
				continue;
			for (j = 0; j < npkg && pkgs[j] != p; j++)
				;
			if (j == npkg && npkg < 64)
				pkgs[npkg++] = p;
		}
		if (npkg == 0) {
			all_cpus(t, out);
		} else {
			/* sort the package ids */
			for (int i = 1; i < npkg; i++)
				for (int j = i; j > 0 && pkgs[j] < pkgs[j - 1]; j--) {
					int tmp = pkgs[j];

					pkgs[j] = pkgs[j - 1];
					pkgs[j - 1] = tmp;
				}
			if (pkg_index < 0 || pkg_index >= npkg)
				pkg_index = 0;
			for (int c = 0; c < t->ncpus; c++)
				if (t->cpu[c].package_id == pkgs[pkg_index])
					cpumask_set(out, c);
		}
	} else if ((k = cpu_number(norm)) >= 0) {
		if (k < t->ncpus)
			cpumask_set(out, k);
	}
	free(g);
	return !cpumask_empty(out);
}

bool thermal_zone_cpus(const char *type, const struct topology *t, int pkg_index,
		       struct cpumask *out)
{
	return thermal_zone_map(type, t, pkg_index, 0, out, NULL, 0);
}

/* ---- zones and cooling devices ------------------------------------------ */

#define THERMAL_TEMP_INVALID (-274000)

static int dir_index(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	int v;

	if (strncmp(name, prefix, n) || str_to_int(name + n, &v) != 0 || v < 0)
		return -1;
	return v;
}

static int cmp_zone(const void *a, const void *b)
{
	const struct thermal_zone *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int cmp_cooling(const void *a, const void *b)
{
	const struct thermal_cooling *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static void zone_passive(struct thermal_zone *z)
{
	z->above_passive = false;
	for (size_t k = 0; k < z->ntrips && z->have_temp; k++)
		/* x86_pkg_temp's passive trips read 0 until someone sets a
		 * threshold: a trip at or below 0 C is not a real limit. */
		if (!strcmp(z->trips[k].type, "passive") && z->trips[k].temp_mc > 0 &&
		    z->temp_mc >= z->trips[k].temp_mc)
			z->above_passive = true;
}

static void read_zone_temp(const struct sysroot *r, struct thermal_zone *z)
{
	z->err = sysfs_read_i64f(r, &z->temp_mc, "sys/class/thermal/thermal_zone%d/temp", z->id);
	z->have_temp = z->err == 0;
	if (!z->have_temp)
		z->temp_mc = 0;
	zone_passive(z);
}

static void read_cooling_state(const struct sysroot *r, struct thermal_cooling *c)
{
	if (sysfs_read_i64f(r, &c->cur_state, "sys/class/thermal/cooling_device%d/cur_state",
			    c->id) != 0)
		c->cur_state = -1;
	c->active = c->cur_state > 0;
}

static void read_zone(const struct sysroot *r, int id, struct thermal_zone *z)
{
	const char *b = "sys/class/thermal/thermal_zone";

	memset(z, 0, sizeof(*z));
	z->id = id;
	if (sysfs_read_strf(r, z->type, sizeof(z->type), "%s%d/type", b, id) != 0)
		z->type[0] = '\0';
	if (sysfs_read_strf(r, z->policy, sizeof(z->policy), "%s%d/policy", b, id) != 0)
		z->policy[0] = '\0';
	for (int k = 0; k < 64 && z->ntrips < THERMAL_MAX_TRIPS; k++) {
		struct thermal_trip *tp = &z->trips[z->ntrips];
		int e = sysfs_read_i64f(r, &tp->temp_mc, "%s%d/trip_point_%d_temp", b, id, k);

		if (e == -ENOENT)
			break;
		/* THERMAL_TEMP_INVALID (-274000) marks an unused trip slot. */
		if (e || tp->temp_mc == THERMAL_TEMP_INVALID)
			continue;
		if (sysfs_read_strf(r, tp->type, sizeof(tp->type), "%s%d/trip_point_%d_type", b, id,
				    k) != 0)
			tp->type[0] = '\0';
		z->ntrips++;
	}
	read_zone_temp(r, z);
}

static void read_cooling(const struct sysroot *r, const struct topology *t, int id,
			 struct thermal_cooling *c)
{
	const char *b = "sys/class/thermal/cooling_device";
	char buf[4096];
	int cpu;

	memset(c, 0, sizeof(*c));
	c->id = id;
	if (sysfs_read_strf(r, c->type, sizeof(c->type), "%s%d/type", b, id) != 0)
		c->type[0] = '\0';
	read_cooling_state(r, c);
	if (sysfs_read_i64f(r, &c->max_state, "%s%d/max_state", b, id) != 0)
		c->max_state = -1;
	cpumask_zero(&c->cpus);
	if (sscanf(c->type, "cpufreq-cpu%d", &cpu) == 1 && cpu >= 0 && cpu < TT_MAX_CPUS) {
		if (sysfs_read_strf(r, buf, sizeof(buf),
				    "sys/devices/system/cpu/cpu%d/cpufreq/related_cpus",
				    cpu) != 0 ||
		    cpulist_parse_spaces(buf, &c->cpus) != 0 || cpumask_empty(&c->cpus)) {
			cpumask_zero(&c->cpus);
			cpumask_set(&c->cpus, cpu);
		}
	} else if (!strcmp(c->type, "intel_powerclamp") && t) {
		all_cpus(t, &c->cpus);
	} else if (str_starts(c->type, "devfreq-")) {
		snprintf(c->devfreq, sizeof(c->devfreq), "%s", c->type + 8);
	}
}

/* A zone named for a CPU cluster (bigcoreN, littlecore); cpuN-thermal
 * names its one CPU, finer than the policy its cooling map caps. */
static bool cluster_zone(const char *norm)
{
	return str_starts(norm, "bigcore") || str_starts(norm, "little");
}

/* The CPUs of the cpufreq cooling devices bound to the zone (its cdevN
 * links, the thermal cooling maps): false when it has none, or when it also
 * caps something else (then it measures more than those CPUs). */
static bool zone_cdev_cpus(const struct sysroot *r, const struct thermal_info *th, int zone,
			   struct cpumask *out)
{
	char dir[64], path[TT_PATH_MAX], link[TT_PATH_MAX];
	struct sysfs_list l;
	bool other = false;

	cpumask_zero(out);
	snprintf(dir, sizeof(dir), "sys/class/thermal/thermal_zone%d", zone);
	if (sysfs_list(r, dir, &l) != 0)
		return false;
	for (size_t i = 0; i < l.n && !other; i++) {
		const char *base;
		int id;

		if (dir_index(l.names[i], "cdev") < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, l.names[i]);
		if (sysfs_readlink(r, path, link, sizeof(link)) < 0)
			continue;
		base = strrchr(link, '/');
		base = base ? base + 1 : link;
		id = dir_index(base, "cooling_device");
		other = true;
		for (size_t k = 0; id >= 0 && k < th->ncooling; k++)
			if (th->cooling[k].id == id &&
			    str_starts(th->cooling[k].type, "cpufreq-") &&
			    !cpumask_empty(&th->cooling[k].cpus)) {
				cpumask_or(out, &th->cooling[k].cpus);
				other = false;
			}
	}
	sysfs_list_free(&l);
	if (other)
		cpumask_zero(out);
	return !cpumask_empty(out);
}

static void read_thermal_class(const struct sysroot *r, const struct topology *t,
			       struct thermal_info *th)
{
	struct sysfs_list l;
	size_t zcap = 0, ccap = 0;
	int npkg_seen = 0, nbig = 0;
	bool any_cpu = false;

	th->zone_err = sysfs_list(r, "sys/class/thermal", &l);
	if (th->zone_err)
		return;
	for (size_t i = 0; i < l.n; i++) {
		int id;

		if ((id = dir_index(l.names[i], "thermal_zone")) >= 0) {
			th->zones = xgrow(th->zones, &zcap, th->nzones + 1, sizeof(*th->zones));
			read_zone(r, id, &th->zones[th->nzones++]);
		} else if ((id = dir_index(l.names[i], "cooling_device")) >= 0) {
			th->cooling =
				xgrow(th->cooling, &ccap, th->ncooling + 1, sizeof(*th->cooling));
			read_cooling(r, t, id, &th->cooling[th->ncooling++]);
		}
	}
	sysfs_list_free(&l);
	if (th->nzones)
		qsort(th->zones, th->nzones, sizeof(*th->zones), cmp_zone);
	if (th->ncooling)
		qsort(th->cooling, th->ncooling, sizeof(*th->cooling), cmp_cooling);

	if (!t)
		return;
	for (size_t i = 0; i < th->nzones; i++) {
		char norm[64];

		norm_type(th->zones[i].type, norm, sizeof(norm));
		if (str_starts(norm, "bigcore") && isdigit((unsigned char)norm[7]))
			nbig++;
	}
	for (size_t i = 0; i < th->nzones; i++) {
		struct thermal_zone *z = &th->zones[i];
		char norm[64];

		norm_type(z->type, norm, sizeof(norm));
		if (cluster_zone(norm) && zone_cdev_cpus(r, th, z->id, &z->cpus)) {
			/* its cooling maps name the cpufreq policies it caps */
			any_cpu = true;
		} else if (thermal_zone_map(z->type, t, npkg_seen, nbig, &z->cpus, z->cpus_note,
					    sizeof(z->cpus_note))) {
			any_cpu = true;
		}
		if (str_starts(norm, "x86pkgtemp"))
			npkg_seen++;
	}
	/* A board whose only CPU-related zone is the SoC sensor: it is the
	 * best measure of the CPUs there is. */
	if (!any_cpu) {
		for (size_t i = 0; i < th->nzones; i++) {
			char norm[64];

			norm_type(th->zones[i].type, norm, sizeof(norm));
			if (!strcmp(norm, "socthermal") || !strcmp(norm, "soc"))
				all_cpus(t, &th->zones[i].cpus);
		}
	}
}

/* ---- hwmon -------------------------------------------------------------- */

static int cmp_hwmon(const void *a, const void *b)
{
	const struct thermal_hwmon *x = a, *y = b;
	int c = strcmp(x->dev, y->dev);

	if (c)
		return c;
	return (x->index > y->index) - (x->index < y->index);
}

/* "hwmon10" sorts after "hwmon9". */
static int hwmon_num(const char *dev)
{
	int v = dir_index(dev, "hwmon");

	return v < 0 ? INT32_MAX : v;
}

static int cmp_hwmon_num(const void *a, const void *b)
{
	const struct thermal_hwmon *x = a, *y = b;
	int nx = hwmon_num(x->dev), ny = hwmon_num(y->dev);

	if (nx != ny)
		return (nx > ny) - (nx < ny);
	return cmp_hwmon(a, b);
}

static void read_hwmon_dev(const struct sysroot *r, const char *dev, struct thermal_info *th,
			   size_t *cap)
{
	char dir[TT_PATH_MAX], chip[48];
	struct sysfs_list l;

	snprintf(dir, sizeof(dir), "sys/class/hwmon/%s", dev);
	if (sysfs_read_strf(r, chip, sizeof(chip), "%s/name", dir) != 0) {
		/* Old drivers keep their attributes in device/. */
		snprintf(dir, sizeof(dir), "sys/class/hwmon/%s/device", dev);
		if (sysfs_read_strf(r, chip, sizeof(chip), "%s/name", dir) != 0)
			chip[0] = '\0';
	}
	if (sysfs_list(r, dir, &l) != 0)
		return;
	for (size_t i = 0; i < l.n; i++) {
		struct thermal_hwmon *h;
		int idx;
		char *end;
		long v = 0;
		const char *n = l.names[i];

		if (strncmp(n, "temp", 4) || !isdigit((unsigned char)n[4]))
			continue;
		v = strtol(n + 4, &end, 10);
		if (strcmp(end, "_input") || v < 0 || v > 1000)
			continue;
		idx = (int)v;
		th->hwmon = xgrow(th->hwmon, cap, th->nhwmon + 1, sizeof(*th->hwmon));
		h = &th->hwmon[th->nhwmon++];
		memset(h, 0, sizeof(*h));
		snprintf(h->dev, sizeof(h->dev), "%s", dev);
		snprintf(h->chip, sizeof(h->chip), "%s", chip);
		h->index = idx;
		if (sysfs_read_strf(r, h->label, sizeof(h->label), "%s/temp%d_label", dir, idx) !=
		    0)
			snprintf(h->label, sizeof(h->label), "temp%d", idx);
		snprintf(h->input, sizeof(h->input), "%s/temp%d_input", dir, idx);
		h->err = sysfs_read_i64(r, h->input, &h->temp_mc);
		h->have_temp = h->err == 0;
		h->have_max = sysfs_read_i64f(r, &h->max_mc, "%s/temp%d_max", dir, idx) == 0;
		h->have_crit = sysfs_read_i64f(r, &h->crit_mc, "%s/temp%d_crit", dir, idx) == 0;
		if (!h->have_temp)
			h->temp_mc = 0;
		if (!h->have_max)
			h->max_mc = 0;
		if (!h->have_crit)
			h->crit_mc = 0;
	}
	sysfs_list_free(&l);
}

static void read_hwmon_files(const struct sysroot *r, struct thermal_info *th)
{
	struct sysfs_list l;
	size_t cap = 0;

	if (sysfs_list(r, "sys/class/hwmon", &l) != 0)
		return;
	for (size_t i = 0; i < l.n; i++)
		read_hwmon_dev(r, l.names[i], th, &cap);
	sysfs_list_free(&l);
	if (th->nhwmon)
		qsort(th->hwmon, th->nhwmon, sizeof(*th->hwmon), cmp_hwmon_num);
}

#ifdef HAVE_SENSORS
/* libsensors keeps global state and is not thread-safe: initialise it once
 * per process and only from the sampling thread. */
static int sensors_state; /* 0 not tried, 1 ready, <0 sensors_init() error */

static int64_t to_mc(double c)
{
	return (int64_t)llround(c * 1000.0);
}

static int read_hwmon_sensors(struct thermal_info *th)
{
	const sensors_chip_name *chip;
	int nr = 0;
	size_t cap = 0;

	if (sensors_state == 0) {
		int e = sensors_init(NULL);

		sensors_state = e == 0 ? 1 : (e < 0 ? e : -e);
	}
	if (sensors_state < 0)
		return sensors_state;
	while ((chip = sensors_get_detected_chips(NULL, &nr)) != NULL) {
		const sensors_feature *f;
		int fnr = 0;
		char cname[64];

		if (sensors_snprintf_chip_name(cname, sizeof(cname), chip) < 0)
			snprintf(cname, sizeof(cname), "%s", chip->prefix ? chip->prefix : "?");
		while ((f = sensors_get_features(chip, &fnr)) != NULL) {
			const sensors_subfeature *sf;
			struct thermal_hwmon *h;
			char *label;
			double v;

			if (f->type != SENSORS_FEATURE_TEMP)
				continue;
			th->hwmon = xgrow(th->hwmon, &cap, th->nhwmon + 1, sizeof(*th->hwmon));
			h = &th->hwmon[th->nhwmon++];
			memset(h, 0, sizeof(*h));
			snprintf(h->dev, sizeof(h->dev), "%s", cname);
			snprintf(h->chip, sizeof(h->chip), "%s", chip->prefix ? chip->prefix : "");
			if (f->name && str_starts(f->name, "temp"))
				h->index = atoi(f->name + 4);
			label = sensors_get_label(chip, f);
			snprintf(h->label, sizeof(h->label), "%s",
				 label ? label : (f->name ? f->name : "?"));
			free(label);
			h->err = -ENOENT;
			sf = sensors_get_subfeature(chip, f, SENSORS_SUBFEATURE_TEMP_INPUT);
			if (sf) {
				int e = sensors_get_value(chip, sf->number, &v);

				h->err = e == 0 ? 0 : (e == -SENSORS_ERR_ACCESS_R ? -EACCES : -EIO);
				if (e == 0) {
					h->have_temp = true;
					h->temp_mc = to_mc(v);
				}
			}
			sf = sensors_get_subfeature(chip, f, SENSORS_SUBFEATURE_TEMP_MAX);
			if (sf && sensors_get_value(chip, sf->number, &v) == 0) {
				h->have_max = true;
				h->max_mc = to_mc(v);
			}
			sf = sensors_get_subfeature(chip, f, SENSORS_SUBFEATURE_TEMP_CRIT);
			if (sf && sensors_get_value(chip, sf->number, &v) == 0) {
				h->have_crit = true;
				h->crit_mc = to_mc(v);
			}
		}
	}
	return 0;
}
#endif

int thermal_read(const struct sysroot *r, const struct topology *t, struct thermal_info *out)
{
	memset(out, 0, sizeof(*out));
	read_thermal_class(r, t, out);
#ifdef HAVE_SENSORS
	if (r->live) {
		out->sensors_err = read_hwmon_sensors(out);
		if (out->sensors_err == 0) {
			out->from_libsensors = true;
			return 0;
		}
	}
#endif
	read_hwmon_files(r, out);
	return 0;
}

int thermal_refresh(const struct sysroot *r, const struct thermal_info *prev,
		    struct thermal_info *out)
{
	if (!prev)
		return thermal_read(r, NULL, out);
	*out = *prev;
	out->zones = NULL;
	out->cooling = NULL;
	out->hwmon = NULL;
	if (prev->nzones) {
		out->zones = xmalloc(prev->nzones * sizeof(*out->zones));
		memcpy(out->zones, prev->zones, prev->nzones * sizeof(*out->zones));
	}
	if (prev->ncooling) {
		out->cooling = xmalloc(prev->ncooling * sizeof(*out->cooling));
		memcpy(out->cooling, prev->cooling, prev->ncooling * sizeof(*out->cooling));
	}
	for (size_t i = 0; i < out->nzones; i++)
		read_zone_temp(r, &out->zones[i]);
	for (size_t i = 0; i < out->ncooling; i++)
		read_cooling_state(r, &out->cooling[i]);
#ifdef HAVE_SENSORS
	if (prev->from_libsensors) {
		out->nhwmon = 0;
		out->sensors_err = read_hwmon_sensors(out);
		return 0;
	}
#endif
	if (prev->nhwmon) {
		out->hwmon = xmalloc(prev->nhwmon * sizeof(*out->hwmon));
		memcpy(out->hwmon, prev->hwmon, prev->nhwmon * sizeof(*out->hwmon));
	}
	for (size_t i = 0; i < out->nhwmon; i++) {
		struct thermal_hwmon *h = &out->hwmon[i];

		h->err = h->input[0] ? sysfs_read_i64(r, h->input, &h->temp_mc) : -ENOENT;
		h->have_temp = h->err == 0;
		if (!h->have_temp)
			h->temp_mc = 0;
	}
	return 0;
}

int64_t thermal_cpu_temp_mc(const struct thermal_info *th, int cpu, bool *have)
{
	int64_t best = 0;
	bool found = false;

	for (size_t i = 0; i < th->nzones; i++) {
		const struct thermal_zone *z = &th->zones[i];

		if (!z->have_temp || cpu < 0 || cpu >= TT_MAX_CPUS || !cpumask_test(&z->cpus, cpu))
			continue;
		if (!found || z->temp_mc > best)
			best = z->temp_mc;
		found = true;
	}
	if (have)
		*have = found;
	return best;
}

bool thermal_cpu_throttled(const struct thermal_info *th, int cpu)
{
	if (cpu < 0 || cpu >= TT_MAX_CPUS)
		return false;
	for (size_t i = 0; i < th->ncooling; i++)
		if (th->cooling[i].active && cpumask_test(&th->cooling[i].cpus, cpu))
			return true;
	for (size_t i = 0; i < th->nzones; i++)
		if (th->zones[i].above_passive && cpumask_test(&th->zones[i].cpus, cpu))
			return true;
	return false;
}

bool thermal_devfreq_throttled(const struct thermal_info *th, const char *devfreq_name)
{
	for (size_t i = 0; i < th->ncooling; i++)
		if (th->cooling[i].active && th->cooling[i].devfreq[0] &&
		    !strcmp(th->cooling[i].devfreq, devfreq_name))
			return true;
	return false;
}

bool thermal_cpus_capped(const struct thermal_info *th, const struct cpumask *cpus)
{
	for (size_t i = 0; i < th->ncooling; i++) {
		const struct thermal_cooling *c = &th->cooling[i];

		if (!c->active || strncmp(c->type, "cpufreq-", 8))
			continue;
		for (int cpu = cpumask_next(cpus, 0); cpu >= 0; cpu = cpumask_next(cpus, cpu + 1))
			if (cpumask_test(&c->cpus, cpu))
				return true;
	}
	return false;
}

void thermal_free(struct thermal_info *th)
{
	free(th->zones);
	free(th->cooling);
	free(th->hwmon);
	memset(th, 0, sizeof(*th));
}

const char *thermal_libsensors_status(void)
{
#ifdef HAVE_SENSORS
	static char buf[64];

	snprintf(buf, sizeof(buf), "%s",
		 libsensors_version ? libsensors_version : "version unknown");
	return buf;
#else
	return "not built in (configure found no libsensors, or --without-sensors)";
#endif
}
