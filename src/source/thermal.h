/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Thermal data source: thermal zones (type, temperature, trip points, policy,
 * the CPUs each zone covers), cooling devices (state, the CPUs or devfreq
 * device they cap) and hwmon temperature inputs. hwmon comes from the files
 * under the root, or from libsensors on the live root when built with it.
 * Temperatures are milli-degrees Celsius and may be negative, so n/a is a
 * have_ flag, never a magic value. */
#ifndef TT_SOURCE_THERMAL_H
#define TT_SOURCE_THERMAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpumask.h"
#include "source/topology.h"
#include "sysfs/sysroot.h"

#define THERMAL_MAX_TRIPS 12

struct thermal_trip {
	int64_t temp_mc;
	char type[16]; /* "passive", "active", "hot", "critical"; "" n/a */
};

struct thermal_zone {
	int id;	       /* N of thermal_zoneN */
	char type[48]; /* "bigcore0-thermal"; "" n/a */
	bool have_temp;
	int64_t temp_mc;
	int err; /* why the temperature is n/a (-ENODATA empty, -EINVAL garbage, -EAGAIN...) */
	size_t ntrips;
	struct thermal_trip trips[THERMAL_MAX_TRIPS];
	char policy[32];     /* governor ("power_allocator", "step_wise"); "" n/a */
	struct cpumask cpus; /* CPUs this zone covers (its cooling maps, else its type and the
				topology) */
	char cpus_note[128]; /* why cpus is empty for a zone that names CPUs; "" */
	bool above_passive;  /* temp >= a passive trip */
};

struct thermal_cooling {
	int id;			      /* N of cooling_deviceN */
	char type[48];		      /* "cpufreq-cpu4", "devfreq-fb000000.gpu", "pwm-fan" */
	int64_t cur_state, max_state; /* -1 n/a */
	bool active;		      /* cur_state > 0 */
	struct cpumask cpus;	      /* cpufreq-cpuN: the policy's related_cpus;
					 intel_powerclamp: all CPUs */
	char devfreq[64];	      /* "devfreq-fb000000.gpu" -> "fb000000.gpu"; "" */
};

struct thermal_hwmon {
	char dev[64];	/* "hwmon3" (files) or the libsensors chip name ("coretemp-isa-0000") */
	char chip[48];	/* the name file / chip prefix ("coretemp", "soc_thermal") */
	char label[48]; /* tempN_label, else "tempN" */
	int index;	/* N of tempN */
	bool have_temp, have_max, have_crit;
	int64_t temp_mc, max_mc, crit_mc;
	int err;	/* why temp is n/a */
	char input[96]; /* root-relative tempN_input file; "" from libsensors */
};

struct thermal_info {
	int zone_err; /* listing sys/class/thermal: 0, -ENOENT (none) */
	size_t nzones;
	struct thermal_zone *zones; /* by id */
	size_t ncooling;
	struct thermal_cooling *cooling; /* by id */
	size_t nhwmon;
	struct thermal_hwmon *hwmon;
	bool from_libsensors; /* hwmon[] came from libsensors */
	int sensors_err;      /* sensors_init() failure (negative libsensors code), 0 */
};

/* Read zones, cooling devices and hwmon temperatures under the root. t maps
 * zones to CPUs (may be NULL: no mapping). On the live root, when built with
 * libsensors, hwmon comes from libsensors (initialised once per process;
 * no chips is not an error). Missing classes give empty arrays and return 0.
 * Free with thermal_free even on error. */
int thermal_read(const struct sysroot *r, const struct topology *t, struct thermal_info *out);
/* Temperature of the hottest zone covering cpu; *have false when none. */
int64_t thermal_cpu_temp_mc(const struct thermal_info *th, int cpu, bool *have);
/* An active cooling device covering cpu, or a covering zone above a passive
 * trip: thermal throttling overrides any frequency lock. */
bool thermal_cpu_throttled(const struct thermal_info *th, int cpu);
/* The cooling device capping a devfreq device ("fb000000.gpu") is active. */
bool thermal_devfreq_throttled(const struct thermal_info *th, const char *devfreq_name);
/* A cpufreq cooling device ("cpufreq-cpuN") covering any of these CPUs (a
 * policy's related_cpus) is active: that policy's maximum is capped. */
bool thermal_cpus_capped(const struct thermal_info *th, const struct cpumask *cpus);
/* Cheap re-sample: copy prev's zones, cooling devices and hwmon inputs
 * (types, trips, CPU maps, labels, limits do not change) and re-read only
 * what does: zone temperatures, cooling cur_state, hwmon inputs. About a
 * seventh of thermal_read's file reads. Use thermal_read now and then (and
 * when prev is NULL) to see devices that come and go. */
int thermal_refresh(const struct sysroot *r, const struct thermal_info *prev,
		    struct thermal_info *out);
void thermal_free(struct thermal_info *th);
/* One line on libsensors for --version: its version, or "not built in (...)". */
const char *thermal_libsensors_status(void);

/* CPUs a zone type covers (pure; unit-tested): bigcoreN -> the N-th big
 * cluster, littlecore -> the little cluster(s), cpu-thermal (and Intel DPTF
 * "TCPU") -> all CPUs,
 * soc-thermal -> all CPUs on a board whose CPUs are all alike,
 * x86_pkg_temp -> the CPUs of the pkg_index-th package, cpuN-thermal ->
 * CPU N. Clusters are the groups of CPUs with equal cpu_capacity and
 * cluster, ordered by first CPU, the cluster taken in order of trust from
 * topology/cluster_cpus_list (the cpu-map), topology/cluster_id (with the
 * package id), cpufreq related_cpus, else the package id alone (the source
 * every online CPU has); big = capacity above the smallest. nbig_zones is
 * how many bigcoreN zones the board has (0 unknown): when the topology
 * shows fewer big clusters than the zones name, which one a zone measures
 * is a guess, so it gets none. Returns false (empty mask) when the type
 * names no CPUs; why (may be NULL) then says why where the type names CPUs
 * ("" otherwise). */
bool thermal_zone_map(const char *type, const struct topology *t, int pkg_index, int nbig_zones,
		      struct cpumask *out, char *why, size_t whycap);
/* thermal_zone_map() without the zone count or the reason. */
bool thermal_zone_cpus(const char *type, const struct topology *t, int pkg_index,
		       struct cpumask *out);

#endif
