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
	double residency_pct; /* delta time / interval, clamped to [0, 100] */
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
 * in prev is derived over dt_s plus the time it was carried. */
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
