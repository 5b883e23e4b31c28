/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the knob family registry (issue 33): every family of
 * knob_registry[] is found by its name and by its addresses, its
 * definitions point back at it and name it in their patterns, and
 * knob_is_assignment() takes "FAMILY/...=VALUE" for each of them (exec's
 * argument parser, hold and profiles use it) and nothing else.
 * `test_knob_registry --list` prints the family names, one a line, for
 * tests/knob/registry.sh, which runs exec, hold, profiles and completion
 * over the same list. */
#include <stdio.h>
#include <string.h>

#include "knob/knob.h"
#include "knob/knob_int.h"
#include "tap.h"

int main(int argc, char **argv)
{
	char a[128];

	if (argc > 1 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < knob_family_count(); i++)
			printf("%s\n", knob_family_name(i));
		return 0;
	}
	ok(knob_family_count() == knob_nfamilies && knob_nfamilies >= 11,
	   "the registry lists the families (%zu)", knob_nfamilies);
	for (size_t i = 0; i < knob_nfamilies; i++) {
		const struct knob_family *f = knob_registry[i];
		size_t bad = 0;

		size_t global = 0;

		for (size_t k = 0; k < f->ndefs; k++)
			global += f->defs[k].scope == KS_GLOBAL;
		/* no expander of its own: the global one (knob_family_expand), which
		 * only a family of global knobs may use */
		ok(f->name && (f->expand || (f->ndefs && global == f->ndefs)),
		   "%s: a name and an expander (its own, or the global one for global knobs)",
		   f->name);
		ok(knob_family_find(f->name) == f && !strcmp(knob_family_name(i), f->name),
		   "%s: knob_family_find", f->name);
		for (size_t k = 0; k < i; k++)
			bad += !strcmp(knob_registry[k]->name, f->name);
		ok(!bad && !strchr(f->name, '/'), "%s: registered once", f->name);
		bad = 0;
		for (size_t k = 0; k < f->ndefs; k++)
			bad += f->defs[k].fam != f || knob_family_of(f->defs[k].pattern) != f;
		ok(!bad, "%s: its %zu definitions belong to it", f->name, f->ndefs);
		snprintf(a, sizeof(a), "%s/x/y=1", f->name);
		ok(knob_is_assignment(a), "%s: an assignment", a);
		snprintf(a, sizeof(a), "%s/x", f->name);
		ok(!knob_is_assignment(a), "%s: no '=': not an assignment", a);
		snprintf(a, sizeof(a), "%s=1", f->name);
		ok(!knob_is_assignment(a), "%s: no '/' before '=': not an assignment", a);
		snprintf(a, sizeof(a), "%sx/y=1", f->name);
		ok(!knob_is_assignment(a) && !knob_family_find(a), "%s: not a family", a);
	}
	ok(knob_is_assignment("workqueue/cpumask=f"), "workqueue/cpumask=f (the exec bug)");
	ok(!knob_is_assignment("./run.sh") && !knob_is_assignment("/bin/env=1") &&
		   !knob_is_assignment("FOO=a/b") && !knob_is_assignment("bin/prog=x/y"),
	   "commands and environment words are not assignments");
	ok(!knob_family_find(NULL) && !knob_family_find("") && !knob_family_name(knob_nfamilies),
	   "no family for NULL, \"\" or past the end");
	return done_testing();
}
