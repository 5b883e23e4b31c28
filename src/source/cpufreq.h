/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpufreq data source: one entry per cpufreq policy (driver, governor,
 * current / limit / hardware frequencies, available frequencies and
 * governors, stats/time_in_state, total_trans, trans_table, the active
 * governor's tunables, EPP) plus the intel_pstate globals. Reads go through
 * a struct sysroot; a value that cannot be read is n/a (-1, NAN, "" or a
 * have_ flag), never 0. */
#ifndef TT_SOURCE_CPUFREQ_H
#define TT_SOURCE_CPUFREQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpumask.h"
#include "source/topology.h"
#include "sysfs/sysroot.h"

#define CPUFREQ_NAME_LEN 32

struct cpufreq_tunable {
	char name[48];
	char value[64]; /* raw text, trimmed ("80", "80 1800000:90") */
};

struct cpufreq_policy {
	char name[16]; /* "policy4" (old kernels without policyN: named after the first CPU) */
	int id;	       /* 4 */
	char dir[64];  /* root-relative directory read: "sys/devices/system/cpu/cpufreq/policy4"
			  or "sys/devices/system/cpu/cpu4/cpufreq" on old kernels */
	struct cpumask cpus;		 /* related_cpus (online and offline) */
	struct cpumask affected;	 /* affected_cpus (the online ones) */
	char driver[CPUFREQ_NAME_LEN];	 /* scaling_driver; "" = n/a */
	char governor[CPUFREQ_NAME_LEN]; /* scaling_governor; "" = n/a */
	/* kHz / ns; -1 = n/a for all */
	int64_t cur_khz;		/* scaling_cur_freq */
	int64_t min_khz, max_khz;	/* scaling_min_freq, scaling_max_freq */
	int64_t hw_min_khz, hw_max_khz; /* cpuinfo_min_freq, cpuinfo_max_freq */
	int64_t hw_cur_khz;		/* cpuinfo_cur_freq (root only, often absent) */
	int64_t transition_latency_ns;	/* cpuinfo_transition_latency (CPUFREQ_ETERNAL = n/a) */
	int64_t base_khz;		/* base_frequency (intel_pstate HWP) */
	int boost;			/* policyN/boost, else global cpufreq/boost; -1 n/a */
	bool boost_own;			/* boost came from policyN/boost */

	size_t navail;
	uint64_t *avail_khz; /* scaling_available_frequencies, NULL/0 = n/a */
	size_t ngov;
	char (*avail_gov)[CPUFREQ_NAME_LEN]; /* scaling_available_governors */

	/* stats/ (absent without a frequency table, e.g. intel_pstate) */
	bool have_stats; /* time_in_state parsed */
	size_t nstates;
	uint64_t *tis_khz, *tis_time_10ms; /* time_in_state: kHz, clock_t (USER_HZ=100) */
	bool have_total_trans;
	uint64_t total_trans;
	bool have_trans_table;
	size_t ntrans;	     /* trans_table is ntrans x ntrans */
	uint64_t *trans_khz; /* column/row frequencies */
	uint64_t *trans;     /* trans[from * ntrans + to] */

	/* Tunables of the active governor: policyN/<gov>/, else the global
	 * cpufreq/<gov>/ of older kernels. tunables_gov "" = no such directory. */
	char tunables_gov[CPUFREQ_NAME_LEN];
	bool tunables_global; /* read from sys/devices/system/cpu/cpufreq/<gov>/ */
	size_t ntunables;
	struct cpufreq_tunable *tunables;

	char epp[48]; /* energy_performance_preference; "" = n/a */
	size_t nepp;
	char (*epp_avail)[CPUFREQ_NAME_LEN]; /* energy_performance_available_preferences */

	/* Derived by cpufreq_derive(); NAN = n/a. */
	double transitions_per_s;
	double *tis_pct; /* nstates entries (NULL until derived): % of the interval per OPP */
};

struct cpufreq_info {
	size_t npolicies;
	struct cpufreq_policy *pol; /* sorted by id */
	int ncpus;		    /* entries in policy_of_cpu */
	int *policy_of_cpu;	    /* index into pol[], -1 = none */
	bool dir_refused;	    /* no policies: the directory leaves the root (EXDEV) */
	bool have_boost;	    /* global sys/devices/system/cpu/cpufreq/boost */
	int boost;		    /* its value, -1 n/a */

	/* intel_pstate globals (sys/devices/system/cpu/intel_pstate/) */
	bool have_pstate;
	char pstate_status[16];			       /* active | passive | off; "" n/a */
	int no_turbo, min_perf_pct, max_perf_pct;      /* -1 n/a */
	int turbo_pct, num_pstates, hwp_dynamic_boost; /* -1 n/a */
};

/* Read every policy from sys/devices/system/cpu/cpufreq/policy*; falls back
 * to cpuN/cpufreq (grouped by related_cpus) on old kernels. A machine without
 * cpufreq gives npolicies = 0 and returns 0. t may be NULL (then policy_of_cpu
 * covers the CPUs named in the policies). Free with cpufreq_free even on
 * error. Returns 0 or -errno. */
int cpufreq_read(const struct sysroot *r, const struct topology *t, struct cpufreq_info *out);
/* Cheap re-read against a previous read of the same root (the sampler calls
 * it between full reads): copies what only changes with a driver, governor
 * or hotplug event (driver, related / affected CPUs, hardware limits,
 * available frequencies and governors, base frequency, EPP choices,
 * trans_table) and re-reads the current / min / max frequencies, the
 * governor (its tunables when it changed), boost, cpuinfo_cur_freq,
 * total_trans, time_in_state, EPP and the intel_pstate knobs. Falls back to
 * cpufreq_read() when prev is NULL, the CPU count differs, a policy's
 * affected CPUs no longer match the online CPUs of t, a policy's files went
 * away, or the intel_pstate mode changed. Gives the same result as
 * cpufreq_read() when only those values changed, except trans_table (only
 * read in full). Free with cpufreq_free. */
int cpufreq_refresh(const struct sysroot *r, const struct topology *t,
		    const struct cpufreq_info *prev, struct cpufreq_info *out);
/* Rates over dt_s seconds against prev (matched by policy name; OPPs by
 * frequency): transitions_per_s from total_trans, tis_pct from time_in_state.
 * A counter reset (any value lower than before), no prev, dt_s <= 0 or a
 * policy that was not there before gives NAN, never a negative rate.
 * prev may be NULL. */
void cpufreq_derive(struct cpufreq_info *cur, const struct cpufreq_info *prev, double dt_s);
void cpufreq_free(struct cpufreq_info *f);
/* Index into f->pol of the policy that covers cpu (related_cpus), -1 none. */
int cpufreq_policy_index(const struct cpufreq_info *f, int cpu);
/* The policy by name ("policy4") or by CPU ("cpu4"), NULL none. */
const struct cpufreq_policy *cpufreq_policy_find(const struct cpufreq_info *f, const char *name);

/* Pure parsers (unit-tested). Each allocates its outputs (free() them);
 * on error the outputs are NULL / 0. */
/* Space separated numbers, with or without the trailing space ("408000 600000 \n").
 * -ENODATA empty, -EINVAL a token that is not a number. */
int cpufreq_parse_list(const char *text, uint64_t **vals, size_t *n);
/* Space separated names (governors, EPP values); -ENODATA empty. Names
 * longer than CPUFREQ_NAME_LEN-1 are truncated. */
int cpufreq_parse_names(const char *text, char (**names)[CPUFREQ_NAME_LEN], size_t *n);
/* stats/time_in_state: "<kHz> <clock_t>" lines. Lines that are not two
 * numbers are skipped (counted in *nbad when nbad is not NULL).
 * -ENODATA when no line is valid. */
int cpufreq_parse_time_in_state(const char *text, uint64_t **khz, uint64_t **time_10ms, size_t *n,
				size_t *nbad);
/* stats/trans_table: header "From : To", ":" + frequencies, then one row
 * "<kHz>: <count>..." per frequency. A truncated or malformed table (missing
 * rows, short rows, row frequency not in the header) gives -EINVAL. */
int cpufreq_parse_trans_table(const char *text, uint64_t **khz, uint64_t **counts, size_t *n);

#endif
