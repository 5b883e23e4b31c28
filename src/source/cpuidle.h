/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpuidle and PM QoS data source: the cpuidle driver and governor, per CPU
 * per idle state its description, limits, disable flags and counters (and
 * the rates derived from two reads), per-CPU pm_qos_resume_latency_us and
 * the effective /dev/cpu_dma_latency value. Reads go through a struct
 * sysroot; a value that cannot be read is n/a (-1, NAN, "" or a have_
 * flag), never 0. */
#ifndef TT_SOURCE_CPUIDLE_H
#define TT_SOURCE_CPUIDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "source/topology.h"
#include "sysfs/sysroot.h"

/* pm_qos_resume_latency_us reads "0": no constraint. */
#define CPUIDLE_RESUME_NO_CONSTRAINT (-1)
/* The file could not be read (missing, garbage). */
#define CPUIDLE_RESUME_UNREADABLE (-2)
/* /dev/cpu_dma_latency with no request: PM_QOS_CPU_LATENCY_DEFAULT_VALUE. */
#define CPUIDLE_DMA_NO_CONSTRAINT 2000000000LL

struct cpuidle_state {
	int index;     /* K of stateK */
	char name[32]; /* "WFI", "cpu-sleep", "C6"; "" = n/a */
	char desc[64];
	int64_t latency_us, residency_us; /* -1 n/a */
	int disable;			  /* user disable bit: 0/1, -1 n/a */
	int default_status; /* 1 enabled, 0 disabled (by the driver), -1 n/a (< 5.6) */
	bool have_usage, have_time, have_above, have_below, have_rejected;
	uint64_t usage, time_us, above, below, rejected;
	/* Derived by cpuidle_derive(); NAN = n/a. */
	/* delta time / interval, clamped to [0, 100], with the stay in
	 * progress credited (see struct cpuidle_cpu); NAN when no counter of
	 * the CPU moved and its idle time is not known (a static tree). */
	double residency_pct;
	double entries_per_s; /* delta usage */
	double above_per_s;   /* entered, but too deep for the actual idle time */
	double below_per_s;   /* entered, but a deeper state would have fit */
};

struct cpuidle_cpu {
	int cpu;
	bool online; /* offline CPUs have no states; never confuse with missing data */
	size_t nstates;
	struct cpuidle_state *st; /* sorted by index */
	char resume_latency[16];  /* raw text: "0", "n/a", "100"; "" = file missing */
	/* CPUIDLE_RESUME_NO_CONSTRAINT ("0"), 0 for "n/a" (zero latency allowed:
	 * no idle state but polling), N µs, CPUIDLE_RESUME_UNREADABLE */
	int64_t resume_latency_us;
	/* CLOCK_MONOTONIC time of the read; 0 unknown (a replayed record). */
	uint64_t read_ns;
	/* Copied from the previous sample by cpuidle_update(), not re-read:
	 * values, rates and read_ns are those of the sample it was read in. */
	bool carried;
	/* This CPU's idle time (idle + iowait) and all its time from
	 * /proc/stat, in USER_HZ ticks, taken with the read. Set by the caller
	 * that reads both (the snapshot); with them cpuidle_derive() accounts
	 * the stay in progress and tells "nothing moved" from "0 %". */
	bool have_ticks;
	uint64_t idle_ticks, all_ticks;
	/* Derived: the state the CPU is taken to be in (the deepest one
	 * entered in the latest interval that had entries; before any, the
	 * deepest enabled one), and the share of the interval credited to its
	 * stay in progress (NAN: none credited). */
	bool have_stay_state;
	int stay_state; /* K of stateK */
	double stay_pct;
};

struct cpuidle_info {
	char driver[32];	   /* current_driver: "psci_idle", "none"; "" = n/a */
	char governor[32];	   /* current_governor (or current_governor_ro); "" = n/a */
	char avail_governors[128]; /* raw, trimmed; "" = n/a */
	int ncpus;
	struct cpuidle_cpu *cpu; /* indexed by CPU id, t->ncpus entries */
	/* Effective /dev/cpu_dma_latency (4-byte s32), -1 n/a. Read through the
	 * root as "dev/cpu_dma_latency", so only a live root (as root) or a
	 * fixture that provides the file has it. CPUIDLE_DMA_NO_CONSTRAINT when
	 * nobody holds a request. */
	int64_t dma_latency_us;
	/* CLOCK_MONOTONIC time of this read (cpuidle_read/update); 0 unknown. */
	uint64_t read_ns;
};

/* Read everything for the CPUs of t. A machine without cpuidle gives
 * driver "none" or "" and zero states, and returns 0. Free with cpuidle_free
 * even on error. Returns 0 or -errno (-EINVAL without a topology). */
int cpuidle_read(const struct sysroot *r, const struct topology *t, struct cpuidle_info *out);
/* Cheap re-read against a previous read of the same root (the sampler calls
 * it between full reads): copies what is fixed while the driver stays
 * registered (state names, descriptions, latencies, residencies,
 * default_status, the driver and its governor list) and re-reads the
 * counters (usage, time, above, below; rejected where it is not 0), the
 * disable bits, the governor, the per-CPU resume latency and the dma
 * latency. A CPU that came
 * online, or whose state files went away, is read in full; so is everything
 * when prev is NULL or has another CPU count. Gives the same result as
 * cpuidle_read() when only those values changed. Free with cpuidle_free. */
int cpuidle_refresh(const struct sysroot *r, const struct topology *t,
		    const struct cpuidle_info *prev, struct cpuidle_info *out);
/* The sampler's update: the CPUs in fresh (NULL = all) are read again,
 * as cpuidle_refresh() does, or in full as cpuidle_read() does when full is
 * true (with the driver and governor list; a driver that changed since prev
 * makes it all a cpuidle_read()); every other CPU keeps prev's record
 * (carried). A CPU that went on- or offline is always read. */
int cpuidle_update(const struct sysroot *r, const struct topology *t,
		   const struct cpuidle_info *prev, const struct cpumask *fresh, bool full,
		   struct cpuidle_info *out);
/* Rates over dt_s against prev (CPU by id, state by index and name). A
 * counter lower than before (reset, re-registered driver), a CPU offline in
 * either sample, no prev (NULL) or dt_s <= 0 gives NAN, never a negative
 * rate. A carried record (cpuidle_update) keeps its rates; a CPU carried
 * in prev is derived over dt_s plus the time it was carried.
 * The kernel adds a stay to stateK/time only when the CPU leaves the state,
 * so over a short interval a CPU in a long sleep shows far less residency
 * than it had. Where both records have their /proc/stat ticks (which count
 * the idle period in progress), the difference between that idle time and
 * the states' sum is credited to the state the CPU is taken to be in, or,
 * when the states counted more (a stay that began before the interval),
 * taken from the largest shares. Where no counter of the CPU moved and the
 * ticks do not say it was busy or idle (a static tree), every rate of the
 * CPU is NAN (n/a), not 0. */
void cpuidle_derive(struct cpuidle_info *cur, const struct cpuidle_info *prev, double dt_s);
void cpuidle_free(struct cpuidle_info *c);
/* The state of cpu by "stateK" or by name ("cpu-sleep", "C6"), NULL none. */
const struct cpuidle_state *cpuidle_state_find(const struct cpuidle_info *c, int cpu,
					       const char *name);

/* Pure parsers (unit-tested). */
/* pm_qos_resume_latency_us text -> CPUIDLE_RESUME_NO_CONSTRAINT, 0 ("n/a")
 * or µs; -EINVAL garbage/negative, -ENODATA empty. */
int cpuidle_parse_resume_latency(const char *text, int64_t *us);
/* default_status "enabled"/"disabled" -> 1/0; -EINVAL otherwise. */
int cpuidle_parse_default_status(const char *text, int *val);
/* /dev/cpu_dma_latency contents: exactly 4 bytes, a native-endian s32.
 * -EINVAL for any other length. */
int cpuidle_parse_dma_latency(const void *buf, size_t len, int64_t *us);

#endif
