/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Hardware and software counters through perf_event_open(2): per CPU
 * (pid=-1, cpu=N) for the Cores screen and per thread (pid=TID, cpu=-1) for
 * the thread selected on the Threads screen.
 *
 * A set holds one counter per row (CPU, or the one thread) and event.
 * Counters that cannot be opened keep fd=-1 and err=-errno; the set says why
 * once per event (reason[], why[]), not once per CPU. Values that were
 * multiplexed are scaled by time_enabled/time_running and marked; a counter
 * that was enabled but not scheduled on the PMU during an interval
 * (multiplexed out) is n/a (NAN), never 0. A task-bound counter whose
 * enabled and running times both stood still counts a thread that did not
 * run: its rate is 0, a fact.
 *
 * big.LITTLE / Intel hybrid: every core PMU in
 * /sys/bus/event_source/devices (one with a `cpus` file) owns a set of CPUs;
 * each CPU is opened on its own PMU (generic events carry the PMU type in
 * config bits 32+, PERF_PMU_TYPE_SHIFT; raw ARM events get the PMU's type).
 * A thread set opens each hardware event once per core PMU and sums them.
 *
 * Reading cost: the events of one row on one PMU form a group read with
 * PERF_FORMAT_GROUP, so a sample costs one read(2) per row and PMU (hardware
 * group, software group). The kernel reads an active counter on the CPU it
 * counts on, so sampling a per-CPU set sends that CPU one IPI per group. */
#ifndef TT_SOURCE_PERF_H
#define TT_SOURCE_PERF_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/cpumask.h"
#include "source/topology.h"
#include "sysfs/sysroot.h"

#ifndef PERF_PMU_TYPE_SHIFT
#define PERF_PMU_TYPE_SHIFT 32
#endif

enum perf_ev {
	PERF_EV_CYCLES,
	PERF_EV_INSTRUCTIONS,
	PERF_EV_CACHE_MISSES,
	PERF_EV_CACHE_REFS,
	PERF_EV_BRANCH_MISSES,
	PERF_EV_CTX_SWITCHES,
	PERF_EV_MIGRATIONS,
	PERF_EV_PAGE_FAULTS,
	PERF_EV__GENERIC_COUNT
};

#define PERF_NAME_LEN	48
#define PERF_WHY_LEN	128
#define PERF_REASON_LEN 224

struct perf_counter {
	int fd;		     /* first fd of this counter, -1 when not open */
	int err;	     /* 0, or -errno: ENOENT no PMU/event, EACCES paranoid, ENODEV offline,
			      * EMFILE, ECANCELED CPU excluded by perf_open_cpus_on() */
	uint64_t value;	     /* raw count since open (summed over PMUs for a thread set) */
	uint64_t enabled;    /* time_enabled, ns */
	uint64_t running;    /* time_running, ns */
	bool task;	     /* task-bound (pid=tid, cpu=-1): time stops while it sleeps */
	bool scaled;	     /* multiplexed during the last interval: values are estimates */
	bool unscheduled;    /* enabled but never on the PMU in the last interval: n/a */
	bool hw;	     /* a hardware (PMU) event: one that ran and counted 0 ... */
	bool never_counted;  /* ... since it was opened is n/a (an emulator's PMU), not 0 */
	double scaled_value; /* value * enabled / running; NAN when running == 0 */
	double rate_per_s;   /* scaled delta over the last interval / seconds; NAN n/a */
	/* The previous read, kept by perf_sample(). */
	uint64_t prev_value, prev_enabled, prev_running;
	bool have_prev;
};

struct perf_priv;

struct perf_set {
	int ncpus;  /* rows: CPU ids 0..ncpus-1 (per-CPU set), or 1 (thread set) */
	pid_t tid;  /* 0 for a per-CPU set; the counted thread otherwise */
	size_t nev; /* events (columns) */
	char (*ev_name)[PERF_NAME_LEN];	 /* "cycles", "context-switches", or the --events string */
	char (*ev_label)[PERF_NAME_LEN]; /* for display: "L1D refills" (ARM) / "LLC misses" (x86) */
	int *ev_err;		   /* 0, or the -errno that made the event n/a (on some rows) */
	bool *ev_user_only;	   /* counted in user space only (exclude_kernel; paranoid) */
	char (*why)[PERF_WHY_LEN]; /* "" or "no hardware PMU" (+ " on CPUs 4-7" when partial) */
	char (*reason)[PERF_REASON_LEN]; /* "" or "cycles: n/a — no hardware PMU (ENOENT)" */
	char note[320];			 /* set-wide: offline/excluded CPUs, fd limit, kernel; "" */
	struct perf_counter *c;		 /* [row * nev + ev] */
	/* Derived per row (NAN n/a): instructions per cycle, cache-misses per
	 * cache-reference in %, cache-misses per second. */
	double *ipc, *miss_rate_pct, *misses_per_s;
	double dt_s; /* length of the last sampled interval, NAN before */
	int nfds;    /* file descriptors held */
	struct perf_priv *priv;
};

static inline struct perf_counter *perf_at(const struct perf_set *s, int row, size_t ev)
{
	return &s->c[(size_t)row * s->nev + ev];
}

/* Per-CPU counting (pid=-1, cpu=N) on every online CPU of t. events: NULL for
 * the generic set (enum perf_ev order), else a NULL-terminated list of event
 * strings (generic perf names such as "cycles", "rNNN" raw codes, and with
 * libpfm4 anything pfm_get_os_event_encoding understands). Needs root,
 * CAP_PERFMON or perf_event_paranoid < 1. Raises RLIMIT_NOFILE when events x
 * CPUs need it, else drops the last events with a note.
 * Returns 0 when at least one counter is open; otherwise -errno and, when
 * cause is not NULL, a malloc'ed one-line message. Per-event reasons are in
 * the set either way. The counters act on the live kernel: with a root that
 * is not "/", nothing is opened (-EOPNOTSUPP). */
int perf_open_cpus(struct perf_set *s, const struct sysroot *r, const struct topology *t,
		   const char *const *events, char **cause);
/* The same on the CPUs in `cpus` only (NULL = all online). The others are
 * not opened (err -ECANCELED, said once in the note): reading a per-CPU
 * counter interrupts its CPU, so an isolated CPU can be left alone. */
int perf_open_cpus_on(struct perf_set *s, const struct sysroot *r, const struct topology *t,
		      const struct cpumask *cpus, const char *const *events, char **cause);
/* Per-thread counting (pid=tid, cpu=-1; tid 0 = the calling thread): one
 * row. On big.LITTLE each hardware event is opened once per core PMU and the
 * counts are summed, so the thread is counted on whichever cluster it runs.
 * Both open functions overwrite *s; perf_close() it when done. */
int perf_open_thread(struct perf_set *s, pid_t tid, const char *const *events, char **cause);
/* Read every counter, scale, and derive rates against the previous read.
 * Returns 0, or the first read error (-errno; the affected counters are n/a). */
int perf_sample(struct perf_set *s);
void perf_close(struct perf_set *s);

/* The reason shown for a counter that is n/a because it was multiplexed out. */
#define PERF_UNSCHEDULED_WHY "not scheduled on the PMU (multiplexed out)"
/* True when some row of event ev was multiplexed out in the last interval. */
bool perf_ev_unscheduled(const struct perf_set *s, size_t ev);
/* Every open row of the event ran on the PMU and counted nothing since it
 * was opened: a PMU that accepts the event but does not count it (QEMU's
 * TCG, some hypervisors). Its rates are n/a. */
#define PERF_NEVER_COUNTED_WHY "never counted: the PMU accepts the event but counts nothing here"
bool perf_ev_never_counted(const struct perf_set *s, size_t ev);

/* Index of an event in the set by name, or -1. */
int perf_set_find(const struct perf_set *s, const char *name);
/* Index of the event of the set that counts generic event ev, whatever it
 * was called ("cs", "r11" on ARM for cycles, a libpfm name), or -1. For
 * cycles, instructions, cache misses and references this is the event that
 * feeds ipc[] / misses_per_s[] / miss_rate_pct[]. */
int perf_set_generic(const struct perf_set *s, enum perf_ev ev);

/* ---- pieces, exposed for tests and for `tunetop events` ---- */

enum perf_arch { PERF_ARCH_UNKNOWN, PERF_ARCH_ARM, PERF_ARCH_X86 };

struct perf_pmu {
	char name[PERF_NAME_LEN]; /* "armv8_cortex_a76", "cpu_core", "cpu", "software" */
	uint32_t type;		  /* attr.type for this PMU */
	bool core;		  /* a CPU PMU (counts cycles/instructions) */
	bool has_cpus;		  /* `cpus` listed CPUs (heterogeneous systems) */
	struct cpumask cpus;	  /* CPUs it serves (all when !has_cpus) */
};

struct perf_pmus {
	size_t n;
	struct perf_pmu *p;
	int ncore;	     /* core PMUs found; 0 = no hardware PMU (VM without vPMU) */
	enum perf_arch arch; /* from the PMU names, else the build architecture */
};

/* Read sys/bus/event_source/devices under the root. A missing directory is
 * not an error (n = 0). */
int perf_pmus_read(const struct sysroot *r, struct perf_pmus *out);
void perf_pmus_free(struct perf_pmus *p);
/* The core PMU that owns cpu (index into p->p), or -1 (none, or one core PMU
 * without a CPU list: plain generic events already land on it). Only
 * meaningful when perf_pmus_heterogeneous(). */
int perf_pmus_core_for_cpu(const struct perf_pmus *p, int cpu);
bool perf_pmus_heterogeneous(const struct perf_pmus *p);
/* Index of the PMU named name, or -1. */
int perf_pmus_find(const struct perf_pmus *p, const char *name);

/* Generic events: perf's name ("cycles"), a display label for the
 * architecture, and the attr (type/config only). */
const char *perf_ev_name(enum perf_ev ev);
const char *perf_ev_label(enum perf_ev ev, enum perf_arch arch);
void perf_ev_attr(enum perf_ev ev, struct perf_event_attr *attr);

/* Resolve an event string into attr (type/config/exclude bits): generic perf
 * names and aliases, "rHEX" raw codes, then libpfm4. pmu (may be NULL)
 * receives the libpfm PMU name ("arm_ac76", "perf") or "". Returns 0 or
 * -errno with *cause set (malloc'ed) when cause is not NULL. */
int perf_event_resolve(const char *str, struct perf_event_attr *attr, char *pmu, size_t pmu_cap,
		       char **cause);

/* Split an events list ("cycles, instructions,cache-misses": commas, spaces
 * around them ignored) and resolve every name the way the counters will
 * (generic perf names and aliases, rHEX, libpfm4 when available): the one
 * check for the tunetoprc events= key and the CLI's --events. Names are
 * checked, not hardware: "cycles" is accepted on a machine without a PMU
 * (it is n/a with its reason when opened). 0 with *vec a NULL-terminated
 * vector (NULL for an empty list: the generic set; free with
 * perf_events_free), or -EINVAL with a one-line why: an empty item ("a,,b",
 * a trailing comma), two names without a comma, an unknown name ("unknown
 * event 'foo' (libpfm4: event not found)"), or a duplicate (the same name,
 * or another name for the same event: "duplicate event 'cs' (the same as
 * 'context-switches')"). vec may be NULL to check only. */
int perf_events_parse(const char *list, char ***vec, char *why, size_t cap);
void perf_events_free(char **vec);

/* Fold one read into a counter: deltas against the previous read, scaling,
 * and the rate: a CPU-bound counter's over its own enabled time in the
 * interval (a counter opened, or a CPU back online, in the middle of it
 * counted for less than dt_s), a task-bound one's over dt_s seconds (its
 * enabled time stops while the thread sleeps); NAN or <= 0: no rate. A
 * hardware counter (c->hw) that ran and has counted 0 since it was opened is
 * n/a and never_counted. Running did not advance:
 * n/a and `unscheduled` when enabled did (multiplexed out); when neither did
 * on a task-bound counter (c->task) the thread did not run and the rate is 0
 * over an interval of at least PERF_ZERO_MIN_S (n/a over a shorter one). */
#define PERF_ZERO_MIN_S 0.2
void perf_counter_update(struct perf_counter *c, uint64_t value, uint64_t enabled, uint64_t running,
			 double dt_s);

/* What an open error means, in words ("no hardware PMU"). hw: a hardware
 * (or raw/cache) event; have_core_pmu: a core PMU exists; per_cpu: a CPU-wide
 * event; paranoid: perf_event_paranoid (INT32_MIN unknown). */
const char *perf_err_why(int err, bool hw, bool have_core_pmu, bool per_cpu, int paranoid,
			 char *buf, size_t cap);

/* perf_event_paranoid of the live kernel, or INT32_MIN when it cannot be
 * read (no /proc/sys/kernel/perf_event_paranoid: kernel without perf). */
int perf_paranoid(const struct sysroot *r);

#endif
