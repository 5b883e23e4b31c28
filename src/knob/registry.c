/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The knob family registry: the one list of knob families. Each family is
 * one src/knob/fam_<name>.c holding everything about it (definitions,
 * expander, ops, what effect and hold need); this table is the only place
 * that names them all. Everything that asks "is this a knob address?" or
 * "which family owns it?" (exec's argument parser, hold, profiles, address
 * expansion, `knobs` listings and so shell completion) goes through here, so
 * a new family is known everywhere once it has its line below. */
#include <string.h>

#include "knob/knob_int.h"

/* listing order of `tunetop knobs` */
const struct knob_family *const knob_registry[] = {
	&fam_cpufreq, &fam_cpuidle, &fam_pmqos,	  &fam_devfreq, &fam_sched,	&fam_intel_pstate,
	&fam_mm,      &fam_thread,  &fam_process, &fam_irq,	&fam_workqueue, &fam_sim,
};
const size_t knob_nfamilies = sizeof(knob_registry) / sizeof(knob_registry[0]);

static const struct knob_family *find_n(const char *name, size_t n)
{
	for (size_t i = 0; i < knob_nfamilies; i++)
		if (strlen(knob_registry[i]->name) == n &&
		    !strncmp(knob_registry[i]->name, name, n))
			return knob_registry[i];
	return NULL;
}

const struct knob_family *knob_family_find(const char *name)
{
	return name ? find_n(name, strlen(name)) : NULL;
}

const struct knob_family *knob_family_of(const char *addr)
{
	return find_n(addr, strcspn(addr, "/"));
}

size_t knob_family_count(void)
{
	return knob_nfamilies;
}

const char *knob_family_name(size_t i)
{
	return i < knob_nfamilies ? knob_registry[i]->name : NULL;
}

bool knob_is_assignment(const char *arg)
{
	const char *eq = strchr(arg, '='), *slash = strchr(arg, '/');

	return eq && slash && slash < eq && knob_family_of(arg);
}

int knob_family_expand(const struct knob_family *f, struct knob_ctx *ctx, char **seg, size_t nseg,
		       unsigned flags, struct refvec *out, char **cause)
{
	if (!f->expand)
		return knob_global_expand(ctx, f, seg, nseg, flags, out, cause);
	return f->expand(ctx, seg, nseg, flags, out, cause);
}

const struct knob_def *knob_fam_def(const struct knob_family *f, const char *leaf)
{
	for (size_t i = 0; f && i < f->ndefs; i++)
		if (!strcmp(f->defs[i].leaf, leaf))
			return &f->defs[i];
	return NULL;
}

const struct knob_def *knob_fam_def_flag(const struct knob_family *f, unsigned flag,
					 enum knob_scope scope)
{
	for (size_t i = 0; f && i < f->ndefs; i++)
		if ((f->defs[i].flags & (flag | KD_LOCK)) == flag && f->defs[i].scope == scope)
			return &f->defs[i];
	return NULL;
}

const struct knob_def *knob_def_find(const char *family, const char *leaf)
{
	return knob_fam_def(knob_family_find(family), leaf);
}

/* ---- every definition, by index (help, tests) --------------------------- */

static const struct knob_def *def_at(size_t i)
{
	for (size_t f = 0; f < knob_nfamilies; f++) {
		if (i < knob_registry[f]->ndefs)
			return &knob_registry[f]->defs[i];
		i -= knob_registry[f]->ndefs;
	}
	return NULL;
}

size_t knob_def_count(void)
{
	size_t n = 0;

	for (size_t f = 0; f < knob_nfamilies; f++)
		n += knob_registry[f]->ndefs;
	return n;
}

const char *knob_def_pattern(size_t i)
{
	const struct knob_def *d = def_at(i);

	return d ? d->pattern : NULL;
}

const char *knob_def_help(size_t i)
{
	const struct knob_def *d = def_at(i);

	return d ? d->help : NULL;
}
