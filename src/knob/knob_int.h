/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internals of the knob engine shared by the src/knob files (not for other layers;
 * they use knob.h). */
#ifndef TT_KNOB_KNOB_INT_H
#define TT_KNOB_KNOB_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/cpumask.h"
#include "knob/journal.h"
#include "knob/knob.h"
#include "knob/knob_addr.h"

enum knob_type { KT_ENUM, KT_U64, KT_I64, KT_BOOL, KT_CPULIST, KT_STRING };

enum knob_scope { KS_GLOBAL, KS_POLICY, KS_CPU, KS_IDLE_STATE, KS_DEVICE, KS_THREAD, KS_PROCESS };

enum knob_allow {
	KA_ANY,	       /* whatever the kernel accepts (governor tunables) */
	KA_WORDS_FILE, /* one of the words of allow_src (a file in the object dir) */
	KA_BRACKET, /* the words of the knob's own file ("[x]" marks the current one); allow_src =
		       fallback */
	KA_FREQS,   /* a frequency listed in allow_src (or in allow_lo..allow_hi); "min" "max" */
	KA_RANGE,   /* lo..hi */
	KA_FIXED,   /* one of the words of allow_src (literal) */
};

/* knob_def flags */
#define KD_LEASE      0x001 /* value lives only while an fd is open (cpu_dma_latency) */
#define KD_LOCK	      0x002 /* composite min = max (file = min file, file2 = max file) */
#define KD_MIN	      0x004 /* lower bound of a min/max pair of its object */
#define KD_MAX	      0x008 /* upper bound of a min/max pair of its object */
#define KD_NUMERIC_OK 0x010 /* an integer in lo..hi is accepted besides the words (EPP) */
#define KD_NA_OK      0x020 /* "n/a" is a value (pm_qos_resume_latency_us) */
#define KD_RT_RUNTIME 0x040
#define KD_RT_PERIOD  0x080
#define KD_TUNABLE    0x100 /* governor tunable: file name is the address leaf */
#define KD_GOVERNOR   0x200 /* written first among its object's knobs */

/* What effect.c watches after a write (knob_def.observe): the kernel's own
 * counter that shows whether the knob is obeyed. */
enum knob_observe {
	KO_NONE,	/* no counter shows it: "unknown" */
	KO_IDLE_STATE,	/* a CPU's idle state: its usage stops growing (disable=1) */
	KO_IDLE_GOV,	/* cpuidle governor: re-watches the active idle-state changes */
	KO_FREQ_BOUND,	/* the current frequency within a KD_MIN / KD_MAX bound */
	KO_QOS,		/* PM QoS latency: no deeper idle state entered */
	KO_IRQ,		/* effective affinity, growing per-CPU interrupt counts */
	KO_THREAD_AFF,	/* the CPU the thread last ran on */
	KO_THREAD_ATTR, /* policy, nice, uclamp: sched_getattr */
};

struct knob_ops;
struct knob_family;

/* Words for a write the kernel refused with err (a positive errno): one
 * row of a knob_def's .refusals, ended by a NULL why. */
struct knob_refusal {
	int err;
	const char *why;
};

struct knob_def {
	const struct knob_family *fam; /* &fam_cpufreq: the family it belongs to */
	const char *leaf;	       /* "governor"; "*" for tunables */
	const char *pattern;	       /* "cpufreq/<policy>/governor" (docs, help) */
	enum knob_scope scope;
	const char *dir;   /* object dir of global knobs (sched, mm...); NULL = per object */
	const char *file;  /* relative to the object dir */
	const char *file2; /* composite: the max file */
	enum knob_type type;
	const char *unit;
	enum knob_allow allow;
	const char *allow_src;	 /* file (KA_WORDS_FILE, KA_FREQS) or literal words (KA_FIXED) */
	const char *allow_extra; /* KA_FREQS: a file of more valid values (boost OPPs) */
	const char *allow_lo,
		*allow_hi;	/* KA_FREQS: files bounding the range when there is no list */
	const char *allow_what; /* for messages: "available governors" */
	int64_t lo, hi;		/* KA_RANGE, KD_NUMERIC_OK */
	unsigned flags;
	bool needs_root;
	const struct knob_ops *ops; /* NULL = plain sysfs file */
	/* what a refused write means, by errno (before ops->why); NULL = none */
	const struct knob_refusal *refusals;
	enum knob_observe observe;
	const char *help;
};

/* How a knob is read and written. The default (sysfs file) ops live in
 * knob_file.c; a syscall-backed family (thread/<tid>/affinity) supplies its
 * own and puts its identity check (tid start time) in ref->ident. */
struct knob_ops {
	/* value: normalized; raw (may be NULL): exact bytes, for byte-exact
	 * restores on non-live roots. */
	int (*read)(struct knob_ctx *ctx, const struct knob_ref *ref, char *value, size_t cap,
		    char *raw, size_t rawcap, size_t *rawlen);
	int (*write)(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value);
	/* Put an old value back (undo). raw/rawlen: the bytes recorded before
	 * the change (used on non-live roots). */
	int (*restore)(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
		       const char *raw, size_t rawlen);
	/* Optional hooks of syscall-backed families (NULL = the file defaults). */
	int (*validate)(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
			char *norm, size_t cap, char **cause);
	int (*allowed)(struct knob_ctx *ctx, const struct knob_ref *ref, char *buf, size_t cap);
	bool (*writable)(struct knob_ctx *ctx, const struct knob_ref *ref);
	/* Words for a refused write (err < 0) into buf; false = no better words. */
	bool (*why)(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value, int err,
		    char *buf, size_t cap);
	/* After a verified write: "note: ..." lines for the report. */
	void (*notes)(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
		      struct sbuf *report);
	/* Dry run: the equivalent shell line ("taskset -pc 1 1234"). */
	void (*shell)(const struct knob_ref *ref, const char *value, char *buf, size_t cap);
	/* Undo: the address now resolves to another identity (a reused tid). */
	void (*replaced)(const struct knob_ref *now, const char *recorded_ident, char *why,
			 size_t cap);
};

/* Growable array of refs. */
struct refvec {
	struct knob_ref *v;
	size_t n, cap;
};
struct knob_ref *refvec_add(struct refvec *rv);
/* ---- families ------------------------------------------------------------
 * A knob family is everything about one first address segment ("cpufreq"):
 * its definitions, its expander and what the engine, effect check and hold
 * must know about it. Each family is one src/knob/fam_<name>.c that defines
 * `const struct knob_family fam_<name>` (KNOB_FAMILY), listed once in knob_registry[]
 * (src/knob/registry.c); no other code keeps a list of families or compares
 * family names (tests/cli/structure.sh). Recipe: doc/HACKING.md. */

/* knob_family flags */
#define KF_CPU_FIRST                                                                               \
	0x1 /* the first segment selects CPUs: cpuidle/<cpus>/..., pmqos/<cpus>/...                \
	     */

struct knob_family {
	const char *name; /* the first address segment: "cpufreq" */
	const struct knob_def *defs;
	size_t ndefs;
	/* seg: the address segments after the family name (nseg may be 0 in
	 * prefix mode). Appends refs; returns 0 or -errno with *cause. NULL
	 * for a family of global knobs: knob_global_expand() serves it. */
	int (*expand)(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
		      struct refvec *out, char **cause);
	unsigned flags; /* KF_* */
	/* KO_FREQ_BOUND: the files of the object dir with the current frequency,
	 * tried in order (in the unit of the bound's knob_def) */
	const char *cur_freq[2];
};

/* A family file's registration: `KNOB_FAMILY(cpufreq, .expand = ...)` defines
 * fam_cpufreq named "cpufreq" over its table cpufreq_defs[], then what
 * differs (expander, flags, cur_freq). */
#define KNOB_FAMILY(nm, ...)                                                                       \
	const struct knob_family fam_##nm = {.name = #nm,                                          \
					     .defs = nm##_defs,                                    \
					     .ndefs = sizeof(nm##_defs) / sizeof(nm##_defs[0]),    \
					     __VA_ARGS__}

extern const struct knob_family fam_cpufreq, fam_cpuidle, fam_pmqos, fam_devfreq, fam_sched,
	fam_intel_pstate, fam_mm, fam_thread, fam_process, fam_irq, fam_workqueue, fam_sim;

/* registry.c: the one table of families (in listing order). */
extern const struct knob_family *const knob_registry[];
extern const size_t knob_nfamilies;
/* The family of an address ("cpufreq/..." or "cpufreq" → &fam_cpufreq); NULL. */
const struct knob_family *knob_family_of(const char *addr);
/* Expand seg (after the family name) with f's expander, or with
 * knob_global_expand() for a family of global knobs (.expand NULL). */
int knob_family_expand(const struct knob_family *f, struct knob_ctx *ctx, char **seg, size_t nseg,
		       unsigned flags, struct refvec *out, char **cause);
/* The definition of leaf in a family; NULL when there is none. */
const struct knob_def *knob_fam_def(const struct knob_family *f, const char *leaf);
/* The def of family f with flag (KD_MIN, KD_MAX) and scope; NULL. */
const struct knob_def *knob_fam_def_flag(const struct knob_family *f, unsigned flag,
					 enum knob_scope scope);

/* knob_file.c: the expander of a family of global knobs (sched, mm...; a
 * family whose .expand is NULL): one ref per KS_GLOBAL def whose file exists. */
int knob_global_expand(struct knob_ctx *ctx, const struct knob_family *f, char **seg, size_t nseg,
		       unsigned flags, struct refvec *out, char **cause);
/* The ref of global def d (one file, d->dir/d->file, address FAMILY/LEAF)
 * when its file exists (*ref set when ref is not NULL); no ref when it is
 * missing and sel is a glob; else -ENOENT with *cause naming the file and
 * absent ("not available", "no cpuidle") before " on this root". */
int knob_global_def_ref(struct knob_ctx *ctx, const struct knob_def *d, const char *sel,
			const char *absent, struct refvec *out, struct knob_ref **ref,
			char **cause);
/* The ref of a global knob of a family (irq/default_smp_affinity from the
 * irq family's expander); 0 or -errno with *cause. */
int knob_global_ref(struct knob_ctx *ctx, const struct knob_family *f, const char *leaf,
		    struct refvec *out, char **cause);
/* Expansion helpers for the family expanders (knob_file.c). */
#define KNOB_CPU_DIR "sys/devices/system/cpu"
void knob_join(char *buf, size_t cap, const char *a, const char *b); /* "a/b" */
/* Add a ref for def on an object dir (target = dir/def->file). */
struct knob_ref *knob_add_ref(struct refvec *out, const struct knob_def *d, const char *addr,
			      const char *obj, const char *dir);
/* The number in "policy4", "state1", "cpu7"; -1 when there is none. */
int knob_num_suffix(const char *s);
/* The entries of dir named prefix<N>, sorted by N. */
int knob_list_prefixed(struct knob_ctx *ctx, const char *dir, const char *prefix,
		       struct sysfs_list *l);
/* Why a path is missing: -ENOENT, or the errno of listing its directory. */
int knob_why_missing(struct knob_ctx *ctx, const char *path);
void knob_names_joined(const struct sysfs_list *l, char *buf, size_t cap);
/* Does an address segment (a name or a glob) select this leaf? */
bool knob_leaf_sel(const char *sel, const char *name);
/* Segment i, or "*" when it is missing (*missing set unless KNOB_EXPAND_PREFIX). */
const char *knob_seg_or_star(char **seg, size_t nseg, size_t i, unsigned flags, bool *missing);
/* Causes for a short or long address; return -EINVAL / -ENOENT. */
int knob_incomplete(char **cause, const char *family, const char *expect);
int knob_too_long(char **cause, const char *family, char **seg, size_t nseg);
/* The default ops' hooks, for families that wrap them, and the checks of a
 * hex CPU mask file (workqueue/cpumask, irq/default_smp_affinity). */
int knob_file_read(struct knob_ctx *ctx, const struct knob_ref *ref, char *value, size_t cap,
		   char *raw, size_t rawcap, size_t *rawlen);
int knob_file_write(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value);
int knob_file_restore(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
		      const char *raw, size_t rawlen);
/* The test-only fault of TUNETOP_TEST_FAULT for a write to target (a fixture
 * root's path): -errno, 0 for none ("=KILL" does not return). */
int knob_test_fault(struct knob_ctx *ctx, const char *target);
int knob_hexmask_validate(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
			  char *norm, size_t cap, char **cause);
int knob_hexmask_allowed(struct knob_ctx *ctx, const struct knob_ref *ref, char *buf, size_t cap);

#define KNOB_MAX_LEASES 4

struct knob_lease {
	bool held;
	int fd;
	char target[TT_PATH_MAX];
};

struct knob_ctx {
	const struct sysroot *root;
	char *state_dir;
	bool readonly;
	char *ro_why;
	int state_err; /* why there is no usable state dir (-errno), 0 when there is */
	bool hold_lock;
	bool archive_checked; /* entries of an earlier boot were looked for */
	char run_id[48];
	char boot_id[64];
	char kind[16];	/* the owner's command: "tui" "exec" "set" "apply"... */
	uint64_t start; /* this process's start time (the owner identity with pid, boot) */
	struct journal j;
	struct knob_lease lease[KNOB_MAX_LEASES];
	struct cpumask online;
	bool have_online;
	/* the knobs of the last successful knob_set_many (written or already
	 * in place), for knob_effect_begin() */
	struct knob_last {
		struct knob_ref ref;
		char value[KNOB_VALUE_MAX];
	} * last;
	size_t nlast;
};

/* registry.c / knob_file.c */
const struct knob_def *knob_def_find(const char *family, const char *leaf);
/* Words for a write of value to ref refused with err (< 0) into buf: the
 * def's .refusals row for err, else its ops' why hook; false = no words. */
bool knob_refusal_why(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value, int err,
		      char *buf, size_t cap);
/* The ops of a hex CPU mask in one file (irq/default_smp_affinity,
 * workqueue/cpumask): validated and listed by the knob_hexmask_* helpers. */
extern const struct knob_ops knob_hexmask_ops;
/* The fields of a def row that is a hex CPU mask in one global file. */
#define KNOB_HEXMASK_FIELDS                                                                        \
	.scope = KS_GLOBAL, .type = KT_STRING, .unit = "", .allow = KA_ANY,                        \
	.allow_what = "hex CPU masks", .needs_root = true, .ops = &knob_hexmask_ops
/* The rows of a frequency domain (a cpufreq policy, a devfreq device) share
 * one description: its governor (allowed: the words of file src) and its
 * min/max/lock bounds (flag KD_MIN, KD_MAX or KD_LOCK; allowed: the
 * frequencies listed in src, in unit). */
#define KNOB_GOVERNOR_FIELDS(src)                                                                  \
	.type = KT_ENUM, .unit = "", .allow = KA_WORDS_FILE, .allow_src = src,                     \
	.allow_what = "available governors", .flags = KD_GOVERNOR, .needs_root = true
#define KNOB_FREQ_FIELDS(u, src, flag)                                                             \
	.type = KT_U64, .unit = u, .allow = KA_FREQS, .allow_src = src,                            \
	.allow_what = "available frequencies", .flags = flag, .needs_root = true
const struct knob_ops *knob_ref_ops(const struct knob_ref *ref);
/* devfreq device kind from its name: "ddr" "npu" "gpu" "other" (fam_devfreq.c). */
const char *knob_devfreq_kind(const char *name);

/* The default ops (one sysfs/procfs file), for families that wrap them. */
const struct knob_ops *knob_file_ops(void);
/* Does a knob with these ops write one file with the default ops (its own
 * errno hints aside)? */
bool knob_ops_is_file(const struct knob_ops *ops);

/* fam_thread.c: thread/<tid>/... and process/<pid>/... (syscalls on the live
 * kernel, the tree's proc/PID/task/TID files under --root; ident = the
 * thread's start time). fam_irq.c: irq/<n>/affinity. */
extern const struct knob_ops fam_thread_ops;
extern const struct knob_ops fam_irq_ops;
int fam_thread_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
		      struct refvec *out, char **cause);
int fam_process_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
		       struct refvec *out, char **cause);
int fam_irq_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
		   struct refvec *out, char **cause);
/* Shared with exec: check and normalize a thread knob value (leaf "affinity",
 * "policy", "nice", "uclamp_min", "uclamp_max"; why gets the reason), apply it
 * to a thread (tid 0 = the caller) with the syscall, and put a refused
 * syscall's errno into words. 0 or -errno. */
int thread_knob_check(const char *leaf, const char *value, char *norm, size_t cap, char *why,
		      size_t whycap);
int thread_knob_apply(pid_t tid, const char *leaf, const char *value);
void thread_knob_why(pid_t tid, const char *leaf, const char *value, int err, char *buf,
		     size_t cap);

/* fam_thread.c: the leaves of thread/<tid>/... (and process/<pid>/...), one
 * entry each: what checks, writes, reads and explains it. Every thread hook
 * (fam_thread_ops, exec's thread_knob_*) finds its leaf with
 * thread_leaf_find() and calls the entry; there is no other leaf dispatch. */
enum { TL_NOT_CLAMP, TL_UTIL_MIN, TL_UTIL_MAX };
struct thread_leaf_ops {
	const char *name;    /* "affinity" */
	const char *syscall; /* what writes it ("sched_setaffinity"): the ref's target */
	const char *expect;  /* what a value looks like (an empty value's message) */
	int clamp;	     /* TL_UTIL_MIN / TL_UTIL_MAX for the uclamp leaves */
	bool pinned_refuses; /* a per-CPU kernel thread (PF_NO_SETAFFINITY) refuses it */
	/* Check and normalize a trimmed non-empty value against root r (its
	 * online CPUs); why gets the reason. */
	int (*check)(const struct thread_leaf_ops *l, const struct sysroot *r, const char *value,
		     char *norm, size_t cap, char *why, size_t whycap);
	/* More checks against the live thread (validate); NULL = none. */
	int (*check_live)(const struct knob_ref *ref, pid_t tid, char **cause);
	/* The syscall (tid 0 = the caller) and its read-back. 0 or -errno. */
	int (*write)(const struct thread_leaf_ops *l, pid_t tid, const char *value);
	int (*read)(const struct thread_leaf_ops *l, pid_t tid, char *value, size_t cap);
	int (*allowed)(const struct sysroot *r, char *buf, size_t cap);
	/* A --root tree owns its threads: the leaf is a field of a file in
	 * the thread's directory dir ("proc/PID/task/TID"; the leader's
	 * proc/PID copy follows it), read and rewritten through the sysroot
	 * layer, never a syscall. tree_file names it for the ref's target. */
	const char *tree_file;
	int (*tree_read)(const struct thread_leaf_ops *l, const struct sysroot *r, const char *dir,
			 char *value, size_t cap);
	int (*tree_write)(const struct thread_leaf_ops *l, const struct sysroot *r, const char *dir,
			  const char *value);
	/* Dry run: the shell line ("taskset -pc 1 1234"): shell, or else
	 * shell_cmd, the value, shell_tid and the thread id. */
	void (*shell)(const struct thread_leaf_ops *l, int tid, const char *value, char *buf,
		      size_t cap);
	const char *shell_cmd, *shell_tid;
	/* Errno hints: rt (NULL = never) says a value asks for a real-time
	 * policy (EPERM then means RLIMIT_RTPRIO or RT group scheduling);
	 * why_einval words the kernel's EINVAL, else einval (NULL = "the
	 * kernel refused the value"); why_eacces (NULL = "needs root or
	 * CAP_SYS_NICE") EACCES. */
	bool (*rt)(const char *value);
	void (*why_einval)(pid_t tid, char *buf, size_t cap);
	const char *einval;
	const char *why_eacces;
	/* After a verified write: "note: ..." lines; NULL = none. */
	void (*notes)(struct knob_ctx *ctx, const struct knob_ref *ref, struct sbuf *report);
	/* Without CAP_SYS_NICE: could old be written back once value is in
	 * place (RLIMIT_NICE, RLIMIT_RTPRIO)? 0, or -EPERM with why; NULL =
	 * always. Validation refuses a change that could not be undone. */
	int (*undoable)(pid_t tid, const char *old, const char *value, char *why, size_t cap);
};
extern const struct thread_leaf_ops thread_leaves[];
extern const size_t thread_nleaves;
const struct thread_leaf_ops *thread_leaf_find(const char *name); /* NULL: no such leaf */

/* addr.c helpers */
/* Is s a glob pattern ('*', '?', '[')? */
bool knob_is_glob(const char *s);
bool knob_glob_match(const char *pat, const char *name);
/* Parse a CPU selector: "cpu4", "4", "4-7,9", "*", "all". *wild set for "*"/"all". */
int knob_cpu_selector(struct knob_ctx *ctx, const char *s, struct cpumask *m, bool *wild);
const struct cpumask *knob_online(struct knob_ctx *ctx);
/* Set *cause to a formatted message (replacing any previous one). */
void knob_cause(char **cause, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append line to *cause (a new line after what is there; NULL cause: nothing). */
void knob_cause_add(char **cause, const char *line);
/* "/abs/path" of a root-relative path. */
void knob_abspath(struct knob_ctx *ctx, const char *rel, char *buf, size_t cap);
/* Words of a file into one space-separated string (trimmed; brackets removed). */
int knob_read_words(struct knob_ctx *ctx, const char *path, char *buf, size_t cap);
/* sysfs_read() of a knob's file into buf, its exact bytes (the first rawcap)
 * also kept in raw for a restore (raw NULL or rawcap 0: not kept). */
int knob_read_raw(struct knob_ctx *ctx, const char *path, char *buf, size_t cap, size_t *len,
		  char *raw, size_t rawcap, size_t *rawlen);
bool knob_word_in(const char *words, const char *w);

/* lease.c */
int lease_read(struct knob_ctx *ctx, const struct knob_ref *ref, char *value, size_t cap, char *raw,
	       size_t rawcap, size_t *rawlen);
int lease_write(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value);
int lease_restore(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
		  const char *raw, size_t rawlen);
/* Is the lease on target held by this ctx? */
bool lease_held(struct knob_ctx *ctx, const char *target);
void lease_release_all(struct knob_ctx *ctx);

/* engine.c: take the journal lock for one operation (a ctx that holds it
 * for its lifetime keeps it), archive entries from another boot and, once
 * per ctx, remove the temporary files killed writers left next to the
 * journaled targets of a non-live root (sysfs_write_cleanup). */
int knob_op_lock(struct knob_ctx *ctx, struct sbuf *report, char **cause);
void knob_op_unlock(struct knob_ctx *ctx);
int knob_archive_stale(struct knob_ctx *ctx, struct sbuf *report);

/* engine.c: one half of a composite lock_* knob (max false: the min file),
 * as a min_khz / max_khz (min_hz / max_hz) knob with its address. */
void knob_split_lock(const struct knob_ref *lock, bool max, struct knob_ref *out);

/* engine.c: process identity */
/* Start time (clock ticks since boot, /proc/PID/stat field 22) of a live pid; 0 = gone. */
uint64_t knob_pid_starttime(int pid);
/* /proc/PID/stat of the live machine: state (field 3), start time (22),
 * parent (4); any may be NULL. 0, -ESRCH (no such process), -EINVAL. */
int knob_pid_stat(int pid, char *state, uint64_t *start, int *ppid);
/* Does the process that wrote run id `run` still run? A zombie (killed, not
 * reaped yet) does not. */
bool knob_run_alive(const char *run);
/* Is an owner alive: recorded under this ctx's boot id, and its pid runs with
 * the same start time. */
bool knob_owner_alive(const struct knob_ctx *ctx, const char *boot, const char *run);

/* The typed address builders' one body (knob_addr.h; addr.c): the address
 * printed from FMT, cut at KNOB_ADDR_MAX. Only the builders call it. */
struct knob_addr knob_addr_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A typed builder of knob_addr.h, in its family's file: KNOB_ADDR_BUILDER(
 * knob_addr_irq_affinity_n, (int irq), "irq/%d/affinity", irq) defines
 * `struct knob_addr knob_addr_irq_affinity_n(int irq)` returning
 * knob_addr_fmt("irq/%d/affinity", irq) (the format checked by printf's). */
#define KNOB_ADDR_BUILDER(fn, params, ...)                                                         \
	struct knob_addr fn params {                                                               \
		return knob_addr_fmt(__VA_ARGS__);                                                 \
	}

#endif
