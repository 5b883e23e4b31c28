/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Typed knob addresses (issue 33): the addresses findings, lessons and
 * fixes name outside src/knob are built by one function per knob, defined
 * in the family's src/knob/fam_<name>.c next to its definition, so a
 * misspelt family or leaf is a compile error instead of an address that
 * expands nowhere. Each returns the address by value; use .s within the
 * same expression (fix(fd, "%s=performance", knob_addr_cpufreq_governor(
 * p->name).s)) or copy it. Object arguments are the address segments as the
 * user would type them: a policy ("policy4", "cpu5", "*"), a CPU selector
 * ("4-7", "cpu2", "*"), an idle state ("state2", "C6"), a devfreq device
 * ("dmc", "gpu"), an IRQ number or action name. tests/unit/test_knob_addr
 * expands every one on the fixtures. */
#ifndef TT_KNOB_KNOB_ADDR_H
#define TT_KNOB_KNOB_ADDR_H

#include "knob/knob.h"

struct knob_addr {
	char s[KNOB_ADDR_MAX];
};

/* fam_cpufreq.c */
struct knob_addr knob_addr_cpufreq_governor(const char *policy);
struct knob_addr knob_addr_cpufreq_min_khz(const char *policy);
struct knob_addr knob_addr_cpufreq_epp(const char *policy);
struct knob_addr knob_addr_cpufreq(const char *policy); /* the policy: "cpufreq/policy4" */
struct knob_addr knob_addr_cpufreq_max_khz(const char *policy);
struct knob_addr knob_addr_cpufreq_lock_khz(const char *policy);
/* the governor's tunables, a pattern: every file of "cpufreq/policy4/schedutil" */
struct knob_addr knob_addr_cpufreq_tunables(const char *policy, const char *governor);
/* one tunable: "cpufreq/policy0/schedutil/up_rate_limit_us" */
struct knob_addr knob_addr_cpufreq_tunable(const char *policy, const char *governor,
					   const char *tunable);
/* fam_cpuidle.c */
struct knob_addr knob_addr_cpuidle_disable(const char *cpus, const char *state);
struct knob_addr knob_addr_cpuidle_disable_n(int cpu, int state);
struct knob_addr knob_addr_cpuidle_governor(void);
/* state N on a CPU selector ("4-7", "cpu2", "*"): "cpuidle/4-7/state2/disable" */
struct knob_addr knob_addr_cpuidle_disable_sel(const char *cpus, int state);
/* the inverse of knob_addr_cpuidle_disable_n(): 0, or -EINVAL for another address */
int knob_addr_cpuidle_disable_of(const char *addr, int *cpu, int *state);
/* fam_devfreq.c */
struct knob_addr knob_addr_devfreq_governor(const char *dev);
struct knob_addr knob_addr_devfreq_min_hz(const char *dev);
struct knob_addr knob_addr_devfreq(const char *dev); /* the device: "devfreq/dmc" */
struct knob_addr knob_addr_devfreq_max_hz(const char *dev);
struct knob_addr knob_addr_devfreq_lock_hz(const char *dev);
/* fam_pmqos.c */
struct knob_addr knob_addr_pmqos_cpu_dma_latency_us(void);
struct knob_addr knob_addr_pmqos_resume_latency_us(int cpu);
/* fam_sched.c, fam_mm.c, fam_workqueue.c */
struct knob_addr knob_addr_sched_rt_runtime_us(void);
struct knob_addr knob_addr_sched_rt_period_us(void);
struct knob_addr knob_addr_mm_thp(void);
struct knob_addr knob_addr_workqueue_cpumask(void);
/* fam_irq.c */
struct knob_addr knob_addr_irq_affinity(const char *irq);
struct knob_addr knob_addr_irq_default_affinity(void);
struct knob_addr knob_addr_irq_affinity_n(int irq);
/* fam_thread.c: "thread/<tid>" (a finding's subject) and its knobs */
struct knob_addr knob_addr_thread(int tid);
struct knob_addr knob_addr_thread_affinity(int tid);
struct knob_addr knob_addr_thread_uclamp_min(int tid);
struct knob_addr knob_addr_thread_policy(int tid);
struct knob_addr knob_addr_process(int pid); /* "process/<pid>": every thread of it */
/* fam_sim.c: a world's SIMULATED switch, "sim/m4/vring_polling" */
struct knob_addr knob_addr_sim(const char *name);

#endif
