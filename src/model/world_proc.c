/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The model worlds' view of a tree's processes and isolation (see
 * world_proc.h). Reads through the sysroot and source/threads only. */
#include "model/world_proc.h"

#include <sched.h>
#include <string.h>

#include "source/system.h"

void world_proc_isolated(const struct sysroot *r, struct cpumask *out)
{
	char cmdline[1024], val[256], buf[256];
	const char *list;

	cpumask_zero(out);
	if (sysfs_read_str(r, "proc/cmdline", cmdline, sizeof(cmdline)) == 0 &&
	    system_cmdline_param(cmdline, "isolcpus", val, sizeof(val))) {
		/* isolcpus=[flag,...,]LIST: the list starts at the first digit
		 * of a field */
		list = val;
		for (const char *p = val; *p; p++)
			if ((p == val || p[-1] == ',') && *p >= '0' && *p <= '9') {
				list = p;
				break;
			}
		if (cpulist_parse(list, out) == 0)
			return;
		cpumask_zero(out);
	}
	if (sysfs_read_str(r, "sys/devices/system/cpu/isolated", buf, sizeof(buf)) == 0 &&
	    cpulist_parse(buf, out) != 0)
		cpumask_zero(out);
}

const struct thread_info *world_proc_find(const struct thread_table *t, const char *comm,
					  bool rt_only)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->t[i].comm, comm) && (!rt_only || world_proc_fifo(&t->t[i]) > 0))
			return &t->t[i];
	return NULL;
}

int world_proc_fifo(const struct thread_info *ti)
{
	return ti->policy == SCHED_FIFO || ti->policy == SCHED_RR ? ti->rt_prio : 0;
}

void world_proc_usable(const struct thread_info *ti, const struct cpumask *isolated,
		       struct cpumask *out)
{
	struct cpumask m = ti->affinity;

	*out = ti->affinity;
	cpumask_andnot(&m, isolated);
	if (!cpumask_empty(&m))
		*out = m;
}

uint32_t world_proc_bits(const struct cpumask *m)
{
	uint32_t b = 0;

	for (int c = 0; c < 32; c++)
		if (cpumask_test(m, c))
			b |= 1u << c;
	return b;
}
