/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU topology: possible / present / online CPUs, core types (from
 * /proc/cpuinfo "CPU part", x86 model name, Intel hybrid cpu_core/cpu_atom),
 * cpu_capacity, cluster ids, cpu-map clusters and cpufreq policies. */
#ifndef TT_SOURCE_TOPOLOGY_H
#define TT_SOURCE_TOPOLOGY_H

#include <stdbool.h>

#include "core/cpumask.h"
#include "sysfs/sysroot.h"

struct cpu_topo {
	int id;
	bool present;
	bool online;
	char core_type[32]; /* "Cortex-A76", "P-core", model name...; "" = unknown */
	int capacity;	    /* cpu_capacity, -1 = n/a */
	int cluster_id;	    /* topology/cluster_id, -1 = n/a */
	int package_id;	    /* topology/physical_package_id, -1 = n/a */
	/* the CPU's cluster by the cpu-map (topology/cluster_cpus_list) and its
	 * cpufreq policy (cpufreq/related_cpus), as 1 + an index into the
	 * topology's masks[] (topology_mask()); 0 = n/a. A cpumask is 128
	 * bytes and a machine has a few distinct ones: the CPUs share them. */
	int cluster_cpus, related_cpus;
};

struct topology {
	int ncpus; /* highest possible CPU + 1; cpu[] has this many entries */
	struct cpumask possible, present, online;
	struct cpu_topo *cpu;
	struct cpumask *masks; /* the distinct cluster and policy masks of cpu[] */
	int nmasks;
	char cpu_model[128]; /* x86 "model name" / ARM "Hardware"/"model name"; "" = unknown */
	bool hybrid; /* heterogeneous: Intel hybrid (cpu_core + cpu_atom PMUs), core types that
		      * differ (big.LITTLE), or capacities that differ */
};

/* 0; -ENOENT when there are no CPUs; the errno that hid them (-EACCES: a
 * sys/devices/system/cpu we may not read) otherwise. */
int topology_read(const struct sysroot *r, struct topology *t);
/* Cheap re-read against a previous read of the same root: reads only the
 * online mask and copies everything else from prev while it is unchanged;
 * a changed (or unreadable) online mask, or no prev, gives a full
 * topology_read(). Free with topology_free. */
int topology_refresh(const struct sysroot *r, const struct topology *prev, struct topology *t);
void topology_free(struct topology *t);
/* 1 + the index in t->masks of m (added when new), for cpu_topo's
 * cluster_cpus / related_cpus. */
int topology_mask_add(struct topology *t, const struct cpumask *m);
/* The mask of such a reference, NULL for 0 (n/a). */
const struct cpumask *topology_mask(const struct topology *t, int ref);

/* Name an ARM core from its implementer and part numbers ("Cortex-A55"), or
 * NULL when unknown. */
const char *topology_arm_part_name(unsigned implementer, unsigned part);
/* Parse /proc/cpuinfo text into per-CPU core types (t->cpu must be sized). */
int topology_parse_cpuinfo(const char *text, struct topology *t);

#endif
