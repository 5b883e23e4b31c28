/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/softirqs source: parser (header → CPU columns), per-CPU rates with
 * 32-bit wrap handling (the counts are unsigned int per CPU). */
#include "source/softirqs.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "source/irqs.h"

#define MAX_TOKENS 4096

int softirqs_parse(const char *text, int ncpus, struct softirq_table *out)
{
	char *copy = xstrdup(text), *line, *save = NULL;
	char **tok = xmalloc(MAX_TOKENS * sizeof(char *));
	int *colcpu, maxcpu;
	size_t ncols = 0, cap = 0;

	memset(out, 0, sizeof(*out));
	line = strtok_r(copy, "\n", &save);
	while (line && !*str_trim(line))
		line = strtok_r(NULL, "\n", &save);
	colcpu = cpu_header_parse(line, tok, MAX_TOKENS, &ncols, &out->cpus);
	if (!colcpu) {
		free(tok);
		free(copy);
		return -EINVAL;
	}
	maxcpu = cpumask_last(&out->cpus);
	out->ncpus = ncpus > maxcpu ? ncpus : maxcpu + 1;
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		size_t n = str_split_ws(line, tok, MAX_TOKENS);
		struct softirq_row *row;
		size_t len;

		if (n == 0)
			continue;
		len = strlen(tok[0]);
		if (len < 2 || tok[0][len - 1] != ':')
			continue;
		tok[0][len - 1] = '\0';
		out->rows = xgrow(out->rows, &cap, out->n + 1, sizeof(*out->rows));
		row = &out->rows[out->n++];
		memset(row, 0, sizeof(*row));
		snprintf(row->name, sizeof(row->name), "%s", tok[0]);
		row->count = xcalloc((size_t)out->ncpus, sizeof(*row->count));
		row->rate_per_s = xcalloc((size_t)out->ncpus, sizeof(*row->rate_per_s));
		for (int c = 0; c < out->ncpus; c++)
			row->rate_per_s[c] = NAN;
		row->total_per_s = NAN;
		for (size_t i = 1; i < n && i - 1 < ncols; i++) {
			uint64_t v;

			if (str_to_u64(tok[i], &v))
				break;
			row->count[colcpu[i - 1]] = v;
			cpumask_set(&row->have_cpu, colcpu[i - 1]);
			row->total += v;
		}
	}
	free(colcpu);
	free(tok);
	free(copy);
	return 0;
}

int softirqs_read(const struct sysroot *r, int ncpus, struct softirq_table *out)
{
	char *text;
	int e;

	e = sysfs_read_alloc(r, "proc/softirqs", &text, NULL);
	if (e) {
		memset(out, 0, sizeof(*out));
		return e;
	}
	e = softirqs_parse(text, ncpus, out);
	free(text);
	if (e == 0)
		out->time_ns = time_mono_ns();
	return e;
}

struct softirq_row *softirqs_find(const struct softirq_table *t, const char *name)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (!strcmp(t->rows[i].name, name))
			return &t->rows[i];
	return NULL;
}

void softirqs_derive(struct softirq_table *cur, const struct softirq_table *prev, double dt_s)
{
	for (size_t i = 0; i < cur->n; i++) {
		struct softirq_row *row = &cur->rows[i];
		const struct softirq_row *p;
		uint64_t d, sum = 0;
		bool all = true;

		for (int c = 0; c < cur->ncpus; c++)
			row->rate_per_s[c] = NAN;
		row->total_per_s = NAN;
		if (!prev || !(dt_s > 0))
			continue;
		p = (i < prev->n && !strcmp(prev->rows[i].name, row->name))
			    ? &prev->rows[i]
			    : softirqs_find(prev, row->name);
		if (!p)
			continue;
		for (int c = cpumask_next(&row->have_cpu, 0); c >= 0;
		     c = cpumask_next(&row->have_cpu, c + 1)) {
			if (c >= prev->ncpus || !cpumask_test(&p->have_cpu, c) ||
			    !irqs_delta32(p->count[c], row->count[c], &d)) {
				all = false;
				continue;
			}
			row->rate_per_s[c] = (double)d / dt_s;
			sum += d;
		}
		row->total_per_s = all ? (double)sum / dt_s : NAN;
	}
}

void softirqs_free(struct softirq_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->rows[i].count);
		free(t->rows[i].rate_per_s);
	}
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
