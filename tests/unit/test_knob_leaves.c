/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the knob leaf tables (issue 14): every thread leaf has its
 * ops and errno hints and is found by its one lookup; every knob definition
 * is unique, has read/write/restore ops, names its effect observable, and
 * the knobs with their own errno hints (EPP, RT runtime) carry them in
 * ops->why. No live /sys or /proc/sys is written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knob/knob.h"
#include "knob/knob_int.h"
#include "tap.h"

static void test_thread_leaves(void)
{
	char norm[64], why[512];

	ok(thread_nleaves == 5, "five thread leaves (%zu)", thread_nleaves);
	for (size_t i = 0; i < thread_nleaves; i++) {
		const struct thread_leaf_ops *l = &thread_leaves[i];
		const struct knob_def *d = knob_def_find("thread", l->name);
		size_t same = 0;

		for (size_t k = 0; k < thread_nleaves; k++)
			same += !strcmp(thread_leaves[k].name, l->name);
		is_int((int)same, 1, "thread leaf name used once");
		ok(thread_leaf_find(l->name) == l, "%s: found by thread_leaf_find", l->name);
		ok(l->syscall && l->expect, "%s: names its syscall and its values", l->name);
		ok(l->check && l->write && l->read && l->allowed &&
			   (l->shell || (l->shell_cmd && l->shell_tid)),
		   "%s: check, write, read, allowed, shell ops", l->name);
		ok(l->why_einval || l->einval, "%s: an EINVAL hint", l->name);
		ok(d && d->ops == &fam_thread_ops, "%s: its knob_def goes to fam_thread_ops",
		   l->name);
		/* the hints of every errno the syscalls return on a refusal */
		thread_knob_why(0, l->name, "1", -EINVAL, why, sizeof(why));
		ok(why[0] != '\0', "%s: EINVAL in words: %s", l->name, why);
		thread_knob_why(0, l->name, "1", -EPERM, why, sizeof(why));
		ok(why[0] != '\0', "%s: EPERM in words: %s", l->name, why);
		thread_knob_why(0, l->name, "1", -EACCES, why, sizeof(why));
		ok(why[0] != '\0', "%s: EACCES in words: %s", l->name, why);
		/* an empty value says what a value looks like */
		is_int(thread_knob_check(l->name, " ", norm, sizeof(norm), why, sizeof(why)),
		       -EINVAL, "empty value refused");
		ok(strstr(why, l->expect) != NULL, "%s: empty value: %s", l->name, why);
	}
	/* every thread knob definition has a leaf */
	for (size_t i = 0; i < fam_thread.ndefs; i++)
		ok(thread_leaf_find(fam_thread.defs[i].leaf) != NULL, "thread/%s has a leaf entry",
		   fam_thread.defs[i].leaf);
	ok(thread_leaf_find("bogus") == NULL && thread_leaf_find(NULL) == NULL,
	   "unknown leaf: not found");
	is_int(thread_knob_check("bogus", "1", norm, sizeof(norm), why, sizeof(why)), -EINVAL,
	       "unknown leaf refused");
	is_str(why, "unknown thread knob 'bogus'", "unknown leaf in words");
	is_int(thread_knob_apply(0, "bogus", "1"), -EINVAL, "unknown leaf not applied");
	/* per-leaf behaviour through the table */
	is_int(thread_knob_check("policy", "SCHED_FIFO:10", norm, sizeof(norm), why, sizeof(why)),
	       0, "policy normalized");
	is_str(norm, "fifo:10", "policy: fifo:10");
	is_int(thread_knob_check("uclamp_max", "max", norm, sizeof(norm), why, sizeof(why)), 0,
	       "uclamp 'max'");
	is_str(norm, "1024", "uclamp max = 1024");
	is_int(thread_knob_check("nice", "20", norm, sizeof(norm), why, sizeof(why)), -EINVAL,
	       "nice 20 refused");
	is_str(why, "nice 20 is out of range -20..19", "nice range in words");
	ok(thread_leaf_find("policy")->rt("fifo:10") && !thread_leaf_find("policy")->rt("other"),
	   "policy: fifo is a real-time request, other is not");
	thread_knob_why(0, "nice", "-5", -EACCES, why, sizeof(why));
	is_str(why, "lowering nice needs CAP_SYS_NICE (or a high enough RLIMIT_NICE)",
	       "nice: its own EACCES hint");
	thread_knob_why(0, "uclamp_min", "512", -EINVAL, why, sizeof(why));
	ok(strstr(why, "uclamp_min must not exceed uclamp_max") != NULL, "uclamp: EINVAL hint");
}

static const struct knob_ops *def_ops(const struct knob_def *d)
{
	struct knob_ref ref;

	memset(&ref, 0, sizeof(ref));
	ref.def = d;
	return knob_ref_ops(&ref);
}

/* Definition i over the registry (the order of knob_def_pattern()). */
static const struct knob_def *def_at(size_t i)
{
	for (size_t f = 0; f < knob_nfamilies; f++) {
		if (i < knob_registry[f]->ndefs)
			return &knob_registry[f]->defs[i];
		i -= knob_registry[f]->ndefs;
	}
	return &knob_registry[0]->defs[0]; /* not reached: i < knob_def_count() */
}

static void test_defs(void)
{
	char buf[256];
	const struct knob_def *epp = knob_def_find("cpufreq", "energy_performance_preference");
	const struct knob_def *rt = knob_def_find("sched", "rt_runtime_us");

	for (size_t i = 0; i < knob_def_count(); i++) {
		const struct knob_def *d = def_at(i);
		const struct knob_ops *o = def_ops(d);
		size_t same = 0;

		for (size_t k = 0; k < d->fam->ndefs; k++)
			same += !strcmp(d->fam->defs[k].leaf, d->leaf);
		ok(same == 1 && knob_def_find(d->fam->name, d->leaf) == d &&
			   knob_family_of(d->pattern) == d->fam,
		   "%s: one definition, in the family of its pattern", d->pattern);
		ok(o->read && o->write && o->restore, "%s: read, write, restore ops", d->pattern);
		/* syscall-backed and wrapped families word their own refusals */
		if (d->fam == &fam_thread || d->fam == &fam_irq)
			ok(o->why != NULL || (d->refusals && d->refusals[0].why),
			   "%s: a why hint (ops or refusal words)", d->pattern);
		/* the observable the effect watch uses (default_smp_affinity acts on
		 * interrupts requested later: no counter shows it) */
		if (d->fam == &fam_cpuidle || d->fam == &fam_pmqos || d->fam == &fam_thread ||
		    (d->fam == &fam_irq && strcmp(d->leaf, "default_smp_affinity")))
			ok(d->observe != KO_NONE, "%s: has an observable", d->pattern);
		if ((d->fam == &fam_cpufreq || d->fam == &fam_devfreq) &&
		    (d->flags & (KD_MIN | KD_MAX)))
			is_int(d->observe, KO_FREQ_BOUND, "frequency bound observable");
		if (d->observe == KO_FREQ_BOUND)
			ok(d->flags & (KD_MIN | KD_MAX), "%s: a frequency bound is a min or max",
			   d->pattern);
	}
	is_int(knob_def_find("cpufreq", "lock_khz")->observe, KO_NONE,
	       "lock_khz: no observable of its own (its halves have)");
	/* the EBUSY hints live with their knobs */
	ok(epp && (epp->refusals || def_ops(epp)->why), "EPP has a why hint");
	struct knob_ref epp_ref = {.def = epp}, rt_ref = {.def = rt};
	ok(knob_refusal_why(NULL, &epp_ref, "power", -EBUSY, buf, sizeof(buf)),
	   "EPP: EBUSY worded");
	is_str(buf, "the performance governor allows only EPP 'performance'", "EPP EBUSY hint");
	ok(!knob_refusal_why(NULL, &epp_ref, "power", -EPERM, buf, sizeof(buf)),
	   "EPP: EPERM left to the generic words");
	ok(rt && (rt->refusals || def_ops(rt)->why), "rt_runtime_us has a why hint");
	ok(knob_refusal_why(NULL, &rt_ref, "1000", -EBUSY, buf, sizeof(buf)), "RT runtime: EBUSY");
	ok(strstr(buf, "SCHED_DEADLINE bandwidth already admitted") != NULL, "RT runtime hint");
	ok(!knob_refusal_why(NULL, &rt_ref, "1000", -EINVAL, buf, sizeof(buf)),
	   "RT runtime: EINVAL left to the generic words");
	/* they are still plain files (undo's torn-write repair, min/max pairs) */
	ok(knob_ops_is_file(def_ops(epp)) && knob_ops_is_file(def_ops(rt)) &&
		   knob_ops_is_file(knob_file_ops()) &&
		   knob_ops_is_file(def_ops(knob_def_find("mm", "thp"))),
	   "EPP, RT runtime, mm/thp: file ops");
	ok(!knob_ops_is_file(&fam_thread_ops) && !knob_ops_is_file(&fam_irq_ops) &&
		   !knob_ops_is_file(def_ops(knob_def_find("pmqos", "cpu_dma_latency_us"))),
	   "thread, irq, lease: not file ops");
}

int main(void)
{
	test_thread_leaves();
	test_defs();
	return done_testing();
}
