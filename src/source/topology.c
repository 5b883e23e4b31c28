/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU topology from /sys/devices/system/cpu and /proc/cpuinfo. */
#include "source/topology.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"

struct arm_part {
	unsigned impl, part;
	const char *name;
};

static const struct arm_part arm_parts[] = {
	{0x41, 0xb76, "ARM1176"},	  {0x41, 0xc05, "Cortex-A5"},
	{0x41, 0xc07, "Cortex-A7"},	  {0x41, 0xc08, "Cortex-A8"},
	{0x41, 0xc09, "Cortex-A9"},	  {0x41, 0xc0f, "Cortex-A15"},
	{0x41, 0xc0e, "Cortex-A17"},	  {0x41, 0xd01, "Cortex-A32"},
	{0x41, 0xd03, "Cortex-A53"},	  {0x41, 0xd04, "Cortex-A35"},
	{0x41, 0xd05, "Cortex-A55"},	  {0x41, 0xd06, "Cortex-A65"},
	{0x41, 0xd07, "Cortex-A57"},	  {0x41, 0xd08, "Cortex-A72"},
	{0x41, 0xd09, "Cortex-A73"},	  {0x41, 0xd0a, "Cortex-A75"},
	{0x41, 0xd0b, "Cortex-A76"},	  {0x41, 0xd0c, "Neoverse-N1"},
	{0x41, 0xd0d, "Cortex-A77"},	  {0x41, 0xd0e, "Cortex-A76AE"},
	{0x41, 0xd40, "Neoverse-V1"},	  {0x41, 0xd41, "Cortex-A78"},
	{0x41, 0xd42, "Cortex-A78AE"},	  {0x41, 0xd44, "Cortex-X1"},
	{0x41, 0xd46, "Cortex-A510"},	  {0x41, 0xd47, "Cortex-A710"},
	{0x41, 0xd48, "Cortex-X2"},	  {0x41, 0xd49, "Neoverse-N2"},
	{0x41, 0xd4a, "Neoverse-E1"},	  {0x41, 0xd4b, "Cortex-A78C"},
	{0x41, 0xd4d, "Cortex-A715"},	  {0x41, 0xd4e, "Cortex-X3"},
	{0x41, 0xd4f, "Neoverse-V2"},	  {0x41, 0xd80, "Cortex-A520"},
	{0x41, 0xd81, "Cortex-A720"},	  {0x41, 0xd82, "Cortex-X4"},
	{0x51, 0x803, "Kryo-4xx-Silver"}, {0x51, 0x804, "Kryo-4xx-Gold"},
	{0x61, 0x022, "Apple-Icestorm"},  {0x61, 0x023, "Apple-Firestorm"},
};

const char *topology_arm_part_name(unsigned implementer, unsigned part)
{
	for (size_t i = 0; i < sizeof(arm_parts) / sizeof(arm_parts[0]); i++)
		if (arm_parts[i].impl == implementer && arm_parts[i].part == part)
			return arm_parts[i].name;
	return NULL;
}

/* The vendor of an ARM "CPU implementer" code (the Arm ARM's MIDR list). */
static const char *arm_vendor(unsigned implementer)
{
	static const struct {
		unsigned code;
		const char *name;
	} v[] = {
		{0x41, "ARM"},	     {0x42, "Broadcom"}, {0x43, "Cavium"}, {0x46, "Fujitsu"},
		{0x48, "HiSilicon"}, {0x4e, "NVIDIA"},	 {0x50, "APM"},	   {0x51, "Qualcomm"},
		{0x53, "Samsung"},   {0x56, "Marvell"},	 {0x61, "Apple"},  {0x69, "Intel"},
		{0x6d, "Microsoft"}, {0xc0, "Ampere"},
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i].code == implementer)
			return v[i].name;
	return NULL;
}

static void set_type(struct topology *t, int cpu, const char *name)
{
	if (cpu >= 0 && cpu < t->ncpus)
		snprintf(t->cpu[cpu].core_type, sizeof(t->cpu[cpu].core_type), "%s", name);
}

/* Key: value lines; a "processor" line starts a block. ARM blocks carry
 * "CPU implementer" and "CPU part"; x86 blocks "model name". */
int topology_parse_cpuinfo(const char *text, struct topology *t)
{
	char *copy = xstrdup(text), *save = NULL, *line;
	int cpu = -1;
	unsigned impl = 0x41;
	bool have_impl = false;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		char *key, *val;
		uint64_t v;

		if (!colon)
			continue;
		*colon = '\0';
		key = str_trim(line);
		val = str_trim(colon + 1);
		if (!strcmp(key, "processor")) {
			int c;

			if (str_to_int(val, &c) == 0)
				cpu = c;
			have_impl = false;
		} else if (!strcmp(key, "CPU implementer")) {
			if (str_to_hex_u64(val, &v) == 0) {
				impl = (unsigned)v;
				have_impl = true;
			}
		} else if (!strcmp(key, "CPU part")) {
			if (str_to_hex_u64(val, &v) == 0) {
				const char *n = topology_arm_part_name(have_impl ? impl : 0x41,
								       (unsigned)v);
				char unk[32];

				if (!n) {
					/* the vendor (implementer) and the part: the part
					 * number alone names different cores per vendor */
					unsigned im = have_impl ? impl : 0x41;
					const char *vendor = arm_vendor(im);

					if (vendor)
						snprintf(unk, sizeof(unk), "%s 0x%03x", vendor,
							 (unsigned)v);
					else
						snprintf(unk, sizeof(unk), "impl 0x%02x 0x%03x", im,
							 (unsigned)v);
					n = unk;
				}
				set_type(t, cpu, n);
			}
		} else if (!strcmp(key, "model name")) {
			if (!t->cpu_model[0])
				snprintf(t->cpu_model, sizeof(t->cpu_model), "%s", val);
		} else if (!strcmp(key, "Hardware")) {
			snprintf(t->cpu_model, sizeof(t->cpu_model), "%s", val);
		}
	}
	free(copy);
	return 0;
}

/* Returns 0, or -errno of the read (-EINVAL: not a CPU list). */
static int read_mask(const struct sysroot *r, const char *path, struct cpumask *m, bool *ok)
{
	char buf[4096];
	int e;

	cpumask_zero(m);
	e = sysfs_read(r, path, buf, sizeof(buf), NULL);
	if (!e)
		e = cpulist_parse(buf, m);
	*ok = e == 0;
	return e;
}

/* cpuN/file as a number; -1 when it cannot be read. */
static int cpu_int(const struct sysroot *r, int c, const char *file)
{
	int64_t v;

	return sysfs_read_i64f(r, &v, "sys/devices/system/cpu/cpu%d/%s", c, file) == 0 ? (int)v
										       : -1;
}

/* cpuN/file as a CPU set read by parse; false when missing, bad or empty. */
static bool cpu_mask(const struct sysroot *r, int c, const char *file,
		     int (*parse)(const char *, struct cpumask *), struct cpumask *m)
{
	char buf[4096];

	return sysfs_read_strf(r, buf, sizeof(buf), "sys/devices/system/cpu/cpu%d/%s", c, file) ==
		       0 &&
	       parse(buf, m) == 0 && !cpumask_empty(m);
}

int topology_read(const struct sysroot *r, struct topology *t)
{
	bool ok_possible, ok_present, ok_online, ok;
	struct cpumask core, atom;
	char *text;
	int last, e_possible;

	memset(t, 0, sizeof(*t));
	e_possible = read_mask(r, "sys/devices/system/cpu/possible", &t->possible, &ok_possible);
	read_mask(r, "sys/devices/system/cpu/present", &t->present, &ok_present);
	read_mask(r, "sys/devices/system/cpu/online", &t->online, &ok_online);
	if (!ok_possible) {
		/* Fall back to the cpuN directories that exist. */
		for (int c = 0; c < TT_MAX_CPUS; c++) {
			if (!sysfs_existsf(r, "sys/devices/system/cpu/cpu%d", c))
				break;
			cpumask_set(&t->possible, c);
		}
	}
	if (!ok_present)
		t->present = t->possible;
	if (!ok_online) {
		/* Per-CPU online files; cpu0 usually has none and is online. */
		for (int c = cpumask_next(&t->possible, 0); c >= 0;
		     c = cpumask_next(&t->possible, c + 1)) {
			uint64_t v;

			if (sysfs_read_u64f(r, &v, "sys/devices/system/cpu/cpu%d/online", c) != 0 ||
			    v)
				cpumask_set(&t->online, c);
		}
	}
	last = cpumask_last(&t->possible);
	if (last < 0) {
		/* Say why: a CPU directory we may not read is not one that is
		 * missing (EACCES, not ENOENT). */
		struct sysfs_list l;
		int e = sysfs_list(r, "sys/devices/system/cpu", &l);

		if (e)
			return e;
		sysfs_list_free(&l);
		return e_possible && e_possible != -EINVAL ? e_possible : -ENOENT;
	}
	t->ncpus = last + 1;
	t->cpu = xcalloc((size_t)t->ncpus, sizeof(*t->cpu));
	for (int c = 0; c < t->ncpus; c++) {
		struct cpu_topo *ct = &t->cpu[c];
		struct cpumask m;

		ct->id = c;
		ct->present = cpumask_test(&t->present, c);
		ct->online = cpumask_test(&t->online, c);
		ct->capacity = cpu_int(r, c, "cpu_capacity");
		ct->cluster_id = cpu_int(r, c, "topology/cluster_id");
		/* x86 prints its BAD_APICID (0xffff) where no L2 cluster is
		 * known (VMs); arm64 prints -1 there: both are "unknown" */
		if (ct->cluster_id == 0xffff)
			ct->cluster_id = -1;
		ct->package_id = cpu_int(r, c, "topology/physical_package_id");
		if (cpu_mask(r, c, "topology/cluster_cpus_list", cpulist_parse, &m))
			ct->cluster_cpus = topology_mask_add(t, &m);
		if (cpu_mask(r, c, "cpufreq/related_cpus", cpulist_parse_spaces, &m))
			ct->related_cpus = topology_mask_add(t, &m);
	}
	if (sysfs_read_alloc(r, "proc/cpuinfo", &text, NULL) == 0) {
		topology_parse_cpuinfo(text, t);
		free(text);
	}
	/* Intel hybrid: the PMU directories name the core type of each CPU. */
	read_mask(r, "sys/devices/cpu_core/cpus", &core, &ok);
	if (ok) {
		bool ok2;

		read_mask(r, "sys/devices/cpu_atom/cpus", &atom, &ok2);
		t->hybrid = true;
		for (int c = 0; c < t->ncpus; c++) {
			if (cpumask_test(&core, c))
				set_type(t, c, "P-core");
			else if (ok2 && cpumask_test(&atom, c))
				set_type(t, c, "E-core");
		}
	}
	/* Non-hybrid x86: every CPU is of the model name's type. */
	if (!t->hybrid && t->cpu_model[0])
		for (int c = 0; c < t->ncpus; c++)
			if (!t->cpu[c].core_type[0] && !str_starts(t->cpu_model, "ARM"))
				set_type(t, c, "x86");
	/* Heterogeneous CPUs are hybrid too: big.LITTLE (core types differ) or
	 * one core type in clusters of different capacity (512 / 1024). */
	for (int c = 0, cap = -1, type = -1; !t->hybrid && c < t->ncpus; c++) {
		const struct cpu_topo *ct = &t->cpu[c];

		if (!ct->present)
			continue;
		if (ct->capacity >= 0) {
			if (cap < 0)
				cap = ct->capacity;
			else if (cap != ct->capacity)
				t->hybrid = true;
		}
		if (ct->core_type[0]) {
			if (type < 0)
				type = c;
			else if (strcmp(t->cpu[type].core_type, ct->core_type))
				t->hybrid = true;
		}
	}
	return 0;
}

int topology_refresh(const struct sysroot *r, const struct topology *prev, struct topology *t)
{
	struct cpumask online;
	bool ok;

	if (!prev || prev->ncpus <= 0 || !prev->cpu)
		return topology_read(r, t);
	/* Hotplug is what moves here; present and possible only change with
	 * it (or never), capacities and core types not at all. */
	read_mask(r, "sys/devices/system/cpu/online", &online, &ok);
	if (!ok || !cpumask_equal(&online, &prev->online))
		return topology_read(r, t);
	*t = *prev;
	t->cpu = xmalloc((size_t)t->ncpus * sizeof(*t->cpu));
	memcpy(t->cpu, prev->cpu, (size_t)t->ncpus * sizeof(*t->cpu));
	t->masks = NULL;
	if (prev->nmasks) {
		t->masks = xmalloc((size_t)prev->nmasks * sizeof(*t->masks));
		memcpy(t->masks, prev->masks, (size_t)prev->nmasks * sizeof(*t->masks));
	}
	return 0;
}

void topology_free(struct topology *t)
{
	free(t->cpu);
	free(t->masks);
	t->cpu = NULL;
	t->masks = NULL;
	t->ncpus = t->nmasks = 0;
}

int topology_mask_add(struct topology *t, const struct cpumask *m)
{
	for (int i = 0; i < t->nmasks; i++)
		if (cpumask_equal(&t->masks[i], m))
			return i + 1;
	t->masks = xrealloc(t->masks, (size_t)(t->nmasks + 1) * sizeof(*t->masks));
	t->masks[t->nmasks++] = *m;
	return t->nmasks;
}

const struct cpumask *topology_mask(const struct topology *t, int ref)
{
	return ref > 0 && ref <= t->nmasks ? &t->masks[ref - 1] : NULL;
}
