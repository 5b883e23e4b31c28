/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The model: one snapshot holds every source's data at one instant; the
 * sampler keeps the previous one and derives rates (residency %,
 * transitions/s, utilisation...) between them. Views (TUI panels, batch
 * writers) only read snapshots. */
#ifndef TT_MODEL_SNAPSHOT_H
#define TT_MODEL_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

#include "model/thread_sampler.h"
#include "source/accel.h"
#include "source/cpufreq.h"
#include "source/cpuidle.h"
#include "source/devfreq.h"
#include "source/irqs.h"
#include "source/kconfig.h"
#include "source/perf.h"
#include "source/power.h"
#include "source/procstat.h"
#include "source/remoteproc.h"
#include "source/rt.h"
#include "source/softirqs.h"
#include "source/system.h"
#include "source/thermal.h"
#include "source/topology.h"
#include "sysfs/sysroot.h"

/* What to sample (the TUI turns expensive sources on only when shown). */
enum {
	SNAP_CORE = 1u << 0, /* topology, procstat, cpufreq, cpuidle, system */
	SNAP_DEVFREQ = 1u << 1,
	SNAP_RT = 1u << 2,
	SNAP_THERMAL = 1u << 3,
	SNAP_IRQS = 1u << 4, /* /proc/interrupts + /proc/softirqs */
	SNAP_REMOTEPROC = 1u << 5,
	/* With SNAP_IRQS: re-read every IRQ's affinity at each tick (screens
	 * that show or audit it); without, it is re-read on full ticks only. */
	SNAP_IRQ_AFFINITY = 1u << 6,
	SNAP_POWER = 1u << 7, /* hwmon power / energy, RAPL */
	SNAP_ALL = 0xffffu,
};

struct snapshot {
	uint64_t time_ns; /* wall clock */
	uint64_t mono_ns;
	double dt_s; /* since the previous snapshot, NAN for the first */
	unsigned what;
	struct topology topo;
	struct system_info sys;
	struct procstat stat;
	struct cpufreq_info freq;
	struct cpuidle_info idle;
	struct devfreq_info devf;
	struct accel_info accel; /* with SNAP_DEVFREQ */
	struct power_info power; /* SNAP_POWER */
	struct rt_info rt;
	struct thermal_info therm;
	struct irq_table irqs;
	struct softirq_table softirqs;
	struct remoteproc_info rproc;
	/* The kernel configuration: read with the first snapshot of a
	 * sampler, copied afterwards (it cannot change until reboot). */
	struct kconfig_info kconf;
	/* Counters are long-lived (open fds): the sampler owns them and the
	 * snapshot only points at the set read with it (NULL = not counting). */
	const struct perf_set *perf;
};

struct sampler {
	const struct sysroot *root;
	unsigned what;
	struct snapshot snap[2];
	int cur;   /* index of the newest snapshot in snap[] */
	int count; /* snapshots taken */
	/* sampler_focus(): the CPUs whose idle states are read at each tick. */
	struct cpumask focus;
	bool have_focus;
	/* Debugfs clocks to read (NULL-terminated, devfreq_read's clk_names);
	 * NULL = the default list. Not owned. */
	const char *const *clk_names;
	/* Own cost, for the header and the benchmark. */
	uint64_t last_cost_ns;
	/* Optional per-CPU counters (sampler_counters()). */
	struct perf_set perf;
	bool perf_open;
	char *perf_cause;
	/* The root's threads (its proc/), read when a view asks
	 * (thread_sampler_refresh): one table for every screen and the
	 * findings. Freed by sampler_free. */
	struct thread_sampler threads;
	/* sampler_tick reads the thread table itself when it
	 * is this old (THREAD_SAMPLER_SLOW_NS: the findings need it); 0 (the
	 * default): only when a view asks. */
	uint64_t threads_every_ns;
};

/* Open per-CPU counters (generic events, or the given libpfm/perf event
 * strings) for every online CPU; they are read at each tick. On failure the
 * set still reports per-event reasons (n/a), and *cause says why. */
int sampler_counters(struct sampler *s, const char *const *events);
/* Close them again (the TUI while no screen shows them); the snapshots
 * stop pointing at the set. Nothing when they are not open. */
void sampler_counters_close(struct sampler *s);

void sampler_init(struct sampler *s, const struct sysroot *root, unsigned what);
/* Read the idle states and resume latency of only these CPUs (the rows a
 * screen shows) at each tick, plus 1/16 of the others in turn; the rest keep
 * their last values and rates (cpuidle_cpu.carried), so every CPU is at most
 * 16 ticks old. NULL (the default): every CPU at every tick. Hotplug and
 * a cpuidle driver change still read every CPU at once. */
void sampler_focus(struct sampler *s, const struct cpumask *cpus);
/* Take a new snapshot and derive rates against the previous one. */
int sampler_tick(struct sampler *s);
const struct snapshot *sampler_cur(const struct sampler *s);
const struct snapshot *sampler_prev(const struct sampler *s); /* NULL before two ticks */
void sampler_free(struct sampler *s);

/* Single snapshot, no rates. */
int snapshot_take(const struct sysroot *r, unsigned what, struct snapshot *out);
/* The same with the debugfs clocks named in clk_names (NULL = the default). */
int snapshot_take_clocks(const struct sysroot *r, unsigned what, const char *const *clk_names,
			 struct snapshot *out);
void snapshot_derive(struct snapshot *cur, const struct snapshot *prev);
void snapshot_free(struct snapshot *s);

#endif
