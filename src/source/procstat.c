/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/stat: per-CPU jiffies and the derived utilisation split. A CPU line
 * that is missing (offline CPU) or short leaves that CPU invalid; a counter
 * that went backwards (hotplug resets) gives NAN, never a negative share. */
#include "source/procstat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"

static int parse_cpu_line(char *line, struct cpu_times *t)
{
	char *tok[16];
	size_t n = str_split_ws(line, tok, 16);
	uint64_t v[8] = {0};

	/* user nice system idle iowait irq softirq steal [guest guest_nice] */
	if (n < 5)
		return -EINVAL;
	for (size_t i = 1; i < n && i <= 8; i++)
		if (str_to_u64(tok[i], &v[i - 1]))
			return -EINVAL;
	t->user = v[0];
	t->nice = v[1];
	t->system = v[2];
	t->idle = v[3];
	t->iowait = v[4];
	t->irq = v[5];
	t->softirq = v[6];
	t->steal = v[7];
	t->valid = true;
	return 0;
}

int procstat_parse(const char *text, int ncpus, struct procstat *out)
{
	char *copy = xstrdup(text), *save = NULL, *line;

	memset(out, 0, sizeof(*out));
	out->ncpus = ncpus;
	out->cpu = xcalloc((size_t)(ncpus > 0 ? ncpus : 1), sizeof(*out->cpu));
	out->util = xcalloc((size_t)(ncpus > 0 ? ncpus : 1), sizeof(*out->util));
	out->ctxt_per_s = NAN;
	out->intr_per_s = NAN;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (str_starts(line, "cpu ")) {
			parse_cpu_line(line, &out->total);
		} else if (str_starts(line, "cpu")) {
			int cpu;
			char num[16];
			size_t k = 0;

			for (const char *p = line + 3;
			     *p >= '0' && *p <= '9' && k < sizeof(num) - 1; p++)
				num[k++] = *p;
			num[k] = '\0';
			if (str_to_int(num, &cpu) || cpu < 0 || cpu >= ncpus)
				continue;
			if (parse_cpu_line(line, &out->cpu[cpu]))
				out->cpu[cpu].valid = false;
		} else if (str_starts(line, "ctxt ")) {
			out->have_ctxt = str_to_u64(line + 5, &out->ctxt) == 0;
		} else if (str_starts(line, "intr ")) {
			char *sp = strchr(line + 5, ' ');

			if (sp)
				*sp = '\0';
			out->have_intr = str_to_u64(line + 5, &out->intr) == 0;
		} else if (str_starts(line, "procs_running ")) {
			str_to_u64(line + 14, &out->procs_running);
		} else if (str_starts(line, "procs_blocked ")) {
			str_to_u64(line + 14, &out->procs_blocked);
		}
	}
	free(copy);
	for (int c = 0; c < ncpus; c++)
		procstat_util(NULL, NULL, &out->util[c]);
	procstat_util(NULL, NULL, &out->total_util);
	return 0;
}

int procstat_read(const struct sysroot *r, int ncpus, struct procstat *out)
{
	char *text;
	int e = sysfs_read_alloc(r, "proc/stat", &text, NULL);

	if (e) {
		procstat_parse("", ncpus, out);
		return e;
	}
	e = procstat_parse(text, ncpus, out);
	free(text);
	return e;
}

void procstat_util(const struct cpu_times *a, const struct cpu_times *b, struct cpu_util *u)
{
	double d, dio;

	u->user_pct = u->system_pct = u->irq_pct = u->softirq_pct = NAN;
	u->iowait_pct = u->idle_pct = u->steal_pct = u->busy_pct = NAN;
	if (!a || !b || !a->valid || !b->valid)
		return;
	if (b->user < a->user || b->nice < a->nice || b->system < a->system || b->idle < a->idle ||
	    b->irq < a->irq || b->softirq < a->softirq || b->steal < a->steal)
		return;
	/* iowait may go backwards on some kernels (NO_HZ accounting): it then
	 * counts 0, in the interval too, or the other shares would pass 100%
	 * (tests/fuzz/fuzz_procstat). The interval is summed in doubles: a sum
	 * of counter deltas cannot wrap. */
	dio = b->iowait >= a->iowait ? (double)(b->iowait - a->iowait) : 0.0;
	d = (double)(b->user - a->user) + (double)(b->nice - a->nice) +
	    (double)(b->system - a->system) + (double)(b->idle - a->idle) + dio +
	    (double)(b->irq - a->irq) + (double)(b->softirq - a->softirq) +
	    (double)(b->steal - a->steal);
	if (!(d > 0))
		return;
	u->user_pct = 100.0 * ((double)(b->user - a->user) + (double)(b->nice - a->nice)) / d;
	u->system_pct = 100.0 * (double)(b->system - a->system) / d;
	u->irq_pct = 100.0 * (double)(b->irq - a->irq) / d;
	u->softirq_pct = 100.0 * (double)(b->softirq - a->softirq) / d;
	u->iowait_pct = 100.0 * dio / d;
	u->idle_pct = 100.0 * (double)(b->idle - a->idle) / d;
	u->steal_pct = 100.0 * (double)(b->steal - a->steal) / d;
	u->busy_pct = 100.0 - u->idle_pct - u->iowait_pct;
	if (u->busy_pct < 0)
		u->busy_pct = 0;
}

void procstat_derive(struct procstat *cur, const struct procstat *prev, double dt_s)
{
	if (!prev) {
		return;
	}
	for (int c = 0; c < cur->ncpus; c++)
		procstat_util(c < prev->ncpus ? &prev->cpu[c] : NULL, &cur->cpu[c], &cur->util[c]);
	procstat_util(&prev->total, &cur->total, &cur->total_util);
	if (dt_s > 0 && cur->have_ctxt && prev->have_ctxt && cur->ctxt >= prev->ctxt)
		cur->ctxt_per_s = (double)(cur->ctxt - prev->ctxt) / dt_s;
	if (dt_s > 0 && cur->have_intr && prev->have_intr && cur->intr >= prev->intr)
		cur->intr_per_s = (double)(cur->intr - prev->intr) / dt_s;
}

void procstat_free(struct procstat *p)
{
	free(p->cpu);
	free(p->util);
	p->cpu = NULL;
	p->util = NULL;
}
