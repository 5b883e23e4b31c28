/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The typed knob addresses of src/knob/knob_addr.h (issue 33): every
 * address a finding, lesson, fix or screen builds comes from one of these
 * functions (tests/cli/addr_builders.sh keeps printf-built ones out); each
 * is built here with the objects the fixtures have and expanded on every
 * fixture (and on a copy of rk3588 with the workqueue mask and the PM QoS
 * device, which no fixture has), and so is every assignment each lesson
 * toggles. An address that expands on no fixture fails: a misspelt leaf in
 * a builder cannot hide. Read only: the fixtures are not written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knob/knob.h"
#include "knob/knob_addr.h"
#include "model/lessons.h"
#include "tap.h"

static const char *const boards[] = {"rk3588", "intel",	 "rpi4", "stm32mp157",
				     "broken", "am5729", "b4860"};

/* How many concrete knobs addr expands to on root dir. */
static size_t count_on(const char *dir, const char *addr)
{
	struct sysroot root;
	struct knob_ctx *ctx = NULL;
	struct knob_ref *refs = NULL;
	size_t n = 0;
	char *cause = NULL;

	if (sysroot_open(&root, dir) != 0)
		return 0;
	if (knob_ctx_open(&ctx, &root, NULL, KNOB_NO_JOURNAL, &cause) == 0 &&
	    knob_expand(ctx, addr, 0, &refs, &n, &cause) != 0)
		n = 0;
	free(refs);
	free(cause);
	if (ctx)
		knob_ctx_close(ctx);
	sysroot_close(&root);
	return n;
}

int main(void)
{
	char wq[] = "/tmp/tt-knob-addr-XXXXXX", cmd[2048], dir[300];
	/* a thread of the rk3588 tree (its inference app): under a --root a
	 * thread knob is the tree's own (proc/PID), never this process */
	int me = 1846;
	struct knob_addr all[] = {
		knob_addr_cpufreq_governor("policy0"),
		knob_addr_cpufreq_governor("*"),
		knob_addr_cpufreq_min_khz("policy0"),
		knob_addr_cpufreq_epp("*"),
		knob_addr_cpuidle_disable("*", "state1"),
		knob_addr_cpuidle_disable("cpu0", "C6"),
		knob_addr_cpuidle_disable_n(0, 1),
		knob_addr_cpuidle_governor(),
		knob_addr_devfreq_governor("dmc"),
		knob_addr_devfreq_min_hz("dmc"),
		knob_addr_sched_rt_runtime_us(),
		knob_addr_sched_rt_period_us(),
		knob_addr_mm_thp(),
		knob_addr_workqueue_cpumask(),
		knob_addr_irq_affinity("14"),
		knob_addr_irq_default_affinity(),
		knob_addr_thread_affinity(me),
		knob_addr_thread_uclamp_min(me),
		/* the screens' keys and fixes */
		knob_addr_cpufreq_max_khz("policy0"),
		knob_addr_cpufreq_lock_khz("policy4"),
		knob_addr_cpufreq_tunables("policy0", "interactive"),
		knob_addr_cpuidle_disable_sel("*", 1),
		knob_addr_cpuidle_disable_sel("cpu2", 1),
		knob_addr_cpuidle_disable_sel("4-7", 1),
		knob_addr_devfreq_governor("ddr"),
		knob_addr_devfreq_max_hz("dmc"),
		knob_addr_devfreq_lock_hz("dmc"),
		knob_addr_pmqos_cpu_dma_latency_us(),
		knob_addr_pmqos_resume_latency_us(0),
		knob_addr_irq_affinity_n(14),
		knob_addr_thread_policy(me),
	};
	char subj[KNOB_ADDR_MAX];

	/* rk3588 with the workqueue mask (sys/devices/virtual/workqueue/cpumask)
	 * and the PM QoS device (dev/cpu_dma_latency), which no fixture has */
	if (!mkdtemp(wq))
		skip_all("no temporary directory");
	snprintf(dir, sizeof(dir), "%s/rk3588", wq);
	snprintf(cmd, sizeof(cmd),
		 "cp -a '%s' '%s' && mkdir -p '%s/sys/devices/virtual/workqueue' && "
		 "echo ff > '%s/sys/devices/virtual/workqueue/cpumask' && mkdir -p '%s/dev' && "
		 ": > '%s/dev/cpu_dma_latency'",
		 fixture("rk3588"), dir, dir, dir, dir, dir);
	ok(system(cmd) == 0, "a copy of rk3588 with the workqueue mask and /dev/cpu_dma_latency");
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		size_t where = 0, n;

		for (size_t b = 0; b < sizeof(boards) / sizeof(boards[0]); b++)
			where += count_on(fixture(boards[b]), all[i].s) > 0;
		n = count_on(dir, all[i].s);
		where += n > 0;
		ok(where > 0, "%s expands on %zu of %zu roots", all[i].s, where,
		   sizeof(boards) / sizeof(boards[0]) + 1);
	}
	/* every assignment of every lesson (its worker: the rk3588 thread) */
	for (size_t i = 0; i < lesson_count(); i++) {
		const struct lesson *l = lesson_at(i);
		struct lesson_run e = {.l = l, .worker_tid = me, .worker_cpu = 0};
		size_t na;

		if (!l->toggle) { /* its world's only: tests/world/learn_worlds2.sh */
			ok(lesson_world_only(l) && l->world_toggle,
			   "lesson %zu runs in its world %s", i + 1, l->world);
			continue;
		}
		na = l->toggle(&e, "state1", e.assign);

		ok(na > 0 && na <= LESSON_MAX_TOGGLES, "lesson %zu toggles %zu knobs", i + 1, na);
		for (size_t k = 0; k < na; k++) {
			char addr[KNOB_ADDR_MAX];
			size_t where = 0;

			str_copy(addr, sizeof(addr), e.assign[k]);
			addr[strcspn(addr, "=")] = '\0';
			for (size_t b = 0; b < sizeof(boards) / sizeof(boards[0]); b++)
				where += count_on(fixture(boards[b]), addr) > 0;
			ok(where > 0 && strchr(e.assign[k], '='),
			   "lesson %zu: %s expands on %zu roots", i + 1, e.assign[k], where);
		}
	}
	{
		int cpu = -1, st = -1;

		ok(knob_addr_cpuidle_disable_of(knob_addr_cpuidle_disable_n(3, 2).s, &cpu, &st) ==
				   0 &&
			   cpu == 3 && st == 2,
		   "knob_addr_cpuidle_disable_of() reads back cpu 3 state 2");
		ok(knob_addr_cpuidle_disable_of(knob_addr_cpuidle_governor().s, &cpu, &st) != 0 &&
			   knob_addr_cpuidle_disable_of("cpuidle/cpu3/state2/latency", &cpu, &st) !=
				   0,
		   "and refuses another address");
	}
	str_copy(subj, sizeof(subj), knob_addr_process(1842).s);
	ok(count_on(fixture("rk3588"), strcat(subj, "/nice")) >= 1,
	   "process/<pid> is the object of its knobs");
	str_copy(subj, sizeof(subj), knob_addr_cpufreq("policy0").s);
	ok(count_on(fixture("rk3588"), strcat(subj, "/governor")) == 1,
	   "cpufreq/<policy> is the object of its knobs");
	str_copy(subj, sizeof(subj), knob_addr_devfreq("dmc").s);
	ok(count_on(fixture("rk3588"), strcat(subj, "/governor")) == 1,
	   "devfreq/<dev> is the object of its knobs");
	str_copy(subj, sizeof(subj), knob_addr_thread(me).s);
	ok(strlen(subj) > 7 && count_on(fixture("rk3588"), strcat(subj, "/nice")) == 1,
	   "thread/<tid> is the object of its knobs");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", wq);
	ok(system(cmd) == 0, "temporary copy removed");
	return done_testing();
}
