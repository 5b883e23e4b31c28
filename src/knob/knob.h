/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The knob engine: everything tunetop changes on a board goes through here.
 *
 * A knob is named by an address (design §5, doc/knobs.md) such as
 * "cpufreq/policy4/governor" or "cpuidle/4-7/cpu-sleep/disable". Addresses
 * may contain '*', CPU lists, idle-state names and filters, and the devfreq
 * aliases npu/gpu/ddr; knob_expand() turns a pattern into concrete knobs
 * (struct knob_ref). Every family of knobs (cpufreq, cpuidle, pmqos, devfreq,
 * sched, intel_pstate, mm, and later thread/irq) is described as data plus a
 * small ops table, so a syscall-backed family fits the same engine.
 *
 * Writes are transactions: knob_set_many() validates every assignment first
 * (nothing is written if one is wrong), orders the writes safely, records
 * each old value in the write-ahead journal (append + fsync) before writing,
 * re-reads every file, and rolls back on the first failure.
 *
 * Return values: 0 or -errno. knob_exit_code() maps them to the exit codes
 * of design §3: -EINVAL, -ENOENT, -ERANGE (bad address or value; nothing was
 * touched) → 2; anything else → 1. When a write fails in the middle of a
 * transaction the call returns -EIO (after rolling back) and `cause` names
 * the kernel's errno, the address and the file. `cause` strings are
 * malloc'ed, one line per problem, without the "tunetop: " prefix; *cause
 * must be NULL or a string from an earlier call, which is freed and
 * replaced; free the last one. */
#ifndef TT_KNOB_KNOB_H
#define TT_KNOB_KNOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/str.h"
#include "sysfs/sysroot.h"

#define KNOB_ADDR_MAX  160
#define KNOB_VALUE_MAX 512

/* A world's SIMULATED switches (the sim/ family, fam_sim.c): the file at the
 * top of its tree that declares them (written by model/world_wm.c). */
#define KNOB_SIM_SWITCHES "tunetop-world-switches"

struct knob_ctx;
struct knob_def;

/* One concrete knob on this root. Plain data; copy freely. */
struct knob_ref {
	char addr[KNOB_ADDR_MAX]; /* canonical address: "cpuidle/cpu4/state1/disable" */
	const struct knob_def *def;
	char obj[64];		   /* family object: "policy4", "cpu4", "dmc", "" */
	char dir[TT_PATH_MAX];	   /* object directory under the root */
	char target[TT_PATH_MAX];  /* root-relative file, or a family's target string */
	char target2[TT_PATH_MAX]; /* second file of a composite knob (lock_*: max) */
	char ident[128];	   /* identity check for syscall targets ("" for files) */
	char note[96];		   /* "cpu-sleep, exit latency 220 us" */
	int cpu;		   /* CPU of per-CPU knobs, else -1 */
	int index;		   /* idle state index, else -1 */
};

/* ---- context ------------------------------------------------------------ */

/* knob_ctx_open flags */
/* an unusable state dir (or a lock held elsewhere) makes the ctx read-only */
#define KNOB_READONLY_OK 0x01
#define KNOB_NO_JOURNAL	 0x02 /* do not look at the state dir at all (knobs, get): read-only */
#define KNOB_HOLD_LOCK	 0x04 /* take the journal lock now and keep it until close (TUI) */
#define KNOB_NO_CREATE	 0x08 /* a missing state dir is not created (read-only lookups) */
/* A read-only command's engine (the runner's, for an entry without CMD_WRITES):
 * opened as the other flags say, then every change is refused with -EROFS
 * and the cause "read-only: this command only reads knobs". */
#define KNOB_READ_ONLY 0x10

/* Open the engine on a root. state_dir NULL = design §6 rules
 * ($TUNETOP_STATE_DIR, /run/tunetop for root, $XDG_RUNTIME_DIR/tunetop).
 * The state dir is created (mode 0700) when missing; one that is a symlink,
 * not a directory, not owned by us or writable by group/others is refused. */
int knob_ctx_open(struct knob_ctx **out, const struct sysroot *r, const char *state_dir,
		  unsigned flags, char **cause);
/* The numeric environment ($TUNETOP_LOCK_TIMEOUT_MS, $TUNETOP_VERIFY_MS: 0
 * to KNOB_VERIFY_MAX_MS, set but empty is an error too): 0, or -EINVAL /
 * -ERANGE with why = "NAME: 'abc' is not a whole number (0 to N)". main()
 * refuses a bad value with exit 2 before any command runs. */
#define KNOB_VERIFY_MAX_MS 60000
int knob_env_check(char *why, size_t cap);
/* Releases leases (/dev/cpu_dma_latency fds) and the lock. Does not restore:
 * call knob_restore_run() first if the changes should not outlive the ctx. */
void knob_ctx_close(struct knob_ctx *ctx);
bool knob_ctx_readonly(const struct knob_ctx *ctx, const char **why);
/* This process's run id ("<pid>-<start time>"), recorded with every change. */
const char *knob_ctx_run_id(const struct knob_ctx *ctx);
/* The owner's kind recorded with every change ("tui", "exec", "set",
 * "apply", "ab"...; default "tunetop"). The owner is pid + start time + boot
 * id + kind: journal records carry it, and an owner's exit restores only its
 * own changes (knob_restore_run). */
void knob_ctx_set_kind(struct knob_ctx *ctx, const char *kind);
const char *knob_ctx_kind(const struct knob_ctx *ctx);
const char *knob_ctx_state_dir(const struct knob_ctx *ctx); /* NULL when none */
/* Why there is none (-ENOENT: it does not exist, with KNOB_NO_CREATE), 0. */
int knob_ctx_state_err(const struct knob_ctx *ctx);
const struct sysroot *knob_ctx_root(const struct knob_ctx *ctx);

/* ---- addresses ---------------------------------------------------------- */

/* knob_expand flags */
#define KNOB_EXPAND_PREFIX   0x01 /* missing trailing segments match everything ("cpufreq") */
#define KNOB_EXPAND_EMPTY_OK 0x02 /* a pattern that matches nothing is not an error */

/* Expand a pattern into concrete knobs (appended to *refs, *n updated;
 * free *refs with free()). "*" or "" with KNOB_EXPAND_PREFIX = every knob.
 * -ENOENT: unknown family / object / file missing; -EINVAL: malformed. */
int knob_expand(struct knob_ctx *ctx, const char *pattern, unsigned flags, struct knob_ref **refs,
		size_t *n, char **cause);
/* Current value, normalized ("schedutil", "408000", "madvise"). */
int knob_read(struct knob_ctx *ctx, const struct knob_ref *ref, char *buf, size_t cap);
/* Allowed values as text ("performance powersave", "408000 ... 1800000 min max",
 * "-1..1000000", "any"). */
int knob_allowed(struct knob_ctx *ctx, const struct knob_ref *ref, char *buf, size_t cap);
/* Can this process write it now (false without root on a live system)? */
bool knob_writable(struct knob_ctx *ctx, const struct knob_ref *ref);
/* Check and normalize a value for a knob ("max" → "2256000"). */
int knob_validate(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value, char *norm,
		  size_t cap, char **cause);
const char *knob_ref_unit(const struct knob_ref *ref); /* "kHz", "us", "" */
const char *knob_ref_help(const struct knob_ref *ref);
/* A SIMULATED switch of a world (sim/...), no knob of a board. */
bool knob_ref_simulated(const struct knob_ref *ref);
/* The knob families (src/knob/registry.c): the one list. A family is the
 * first segment of an address ("cpufreq"); knob_family_find() takes that
 * name (NULL: no such family), knob_family_count()/knob_family_name() list
 * them in order. */
struct knob_family;
const struct knob_family *knob_family_find(const char *name);
size_t knob_family_count(void);
const char *knob_family_name(size_t i);
/* Is a command-line word a knob assignment "FAMILY/...=VALUE" of a known
 * family (exec's arguments before the command, hold, profiles)? */
bool knob_is_assignment(const char *arg);
/* The task an address names: thread/<tid>[/...] or process/<pid>[/...] (or
 * "...=value"): 0 with *id and *process (true for process/); -EINVAL for
 * any other address. */
int knob_addr_task(const char *addr, int *id, bool *process);
/* Known families and address patterns, for help and completion. */
size_t knob_def_count(void);
const char *knob_def_pattern(size_t i);
const char *knob_def_help(size_t i);
/* Absolute path of a ref's file (for messages and the TUI's "explain"). */
void knob_ref_path(struct knob_ctx *ctx, const struct knob_ref *ref, char *buf, size_t cap);

/* ---- changes -------------------------------------------------------------- */

/* knob_set_many / undo flags */
#define KNOB_DRY_RUN	 0x01 /* print the exact writes, change nothing */
#define KNOB_ALLOW_LEASE 0x02 /* allow pmqos/cpu_dma_latency_us (held until ctx close) */
#define KNOB_EMPTY_OK	 0x04 /* wildcard/filter patterns matching nothing are skipped (profiles) */
#define KNOB_FORCE	 0x08 /* undo: restore even values changed by someone else since */
#define KNOB_QUIET	 0x10 /* no per-write report lines, only notes and errors */
/* the change belongs to this run (exec, TUI, ab), which restores it; if the
 * process dies first, the entries show as orphaned */
#define KNOB_SCOPED 0x20
/* restore of a run: an entry left alone because someone else changed the
 * knob since is recorded as kept by the run (a K record), so it is not
 * called an orphan once the run has exited (exec leaves it on purpose) */
#define KNOB_KEEP_CHANGED 0x40

/* One transaction. assignments are "ADDRESS=VALUE"; labels (may be NULL)
 * name where each came from for messages ("rk3588-npu.profile:9"). The
 * report gets one line per write ("cpufreq/policy4/governor: interactive ->
 * performance"), notes about clamped values, and in dry-run mode the shell
 * lines that would run. */
int knob_set_many(struct knob_ctx *ctx, const char *const *assignments, const char *const *labels,
		  size_t n, unsigned flags, struct sbuf *report, char **cause);

/* Undo. A "change" is one knob_set_many transaction (its id is the id of
 * its first record). Everything here restores newest first, is idempotent,
 * and only touches entries of this root and this boot. A value that differs
 * from what tunetop wrote is reported ("changed by someone else since") and
 * left alone unless KNOB_FORCE. */
int knob_undo_last(struct knob_ctx *ctx, unsigned count, unsigned flags, struct sbuf *report,
		   char **cause);
int knob_undo_id(struct knob_ctx *ctx, uint64_t id, unsigned flags, struct sbuf *report,
		 char **cause);
int knob_restore_all(struct knob_ctx *ctx, unsigned flags, struct sbuf *report, char **cause);
/* Only the changes made by one run (the TUI and exec restore their own). */
int knob_restore_run(struct knob_ctx *ctx, const char *run_id, unsigned flags, struct sbuf *report,
		     char **cause);
/* Only the orphaned changes: those of owners that are gone (their pid no
 * longer runs with the recorded start time, or another boot) which they
 * were to restore themselves (scoped: exec, TUI, ab) or never confirmed.
 * Stacking applies as when an owner leaves: a knob a live owner changed
 * since stays at its value, and that owner inherits the original. */
int knob_restore_orphans(struct knob_ctx *ctx, unsigned flags, struct sbuf *report, char **cause);
/* The orphaned changes of this root: *nchanges entries, and owners gets
 * "pid P, exec" (several: "pid P, exec; pid Q, tui"). 0, or -errno when the
 * journal cannot be read (no state dir: 0 with none). */
int knob_orphans(struct knob_ctx *ctx, size_t *nchanges, size_t *nowners, char *owners, size_t cap);
/* The opposite on exit: a run (the TUI's "Keep and quit", --keep) leaves
 * its changes in place on purpose. Appends (and syncs) a K record so that
 * its entries show as kept and are not offered as orphaned at the next
 * start; undo and restore still revert them. run_id NULL = this ctx's run.
 * *nkept (may be NULL) = entries marked; nothing is written when none. */
int knob_keep_run(struct knob_ctx *ctx, const char *run_id, size_t *nkept, char **cause);

/* ---- effect: does the kernel obey? --------------------------------------------- *
 *
 * A write the kernel accepts is not yet a change in behaviour (the haltpoll
 * cpuidle governor never looks at a state's disable). After a transaction,
 * each knob with an observable is watched over an interval with the
 * kernel's own counters:
 *   cpuidle/<cpu>/<state>/disable   the state's usage on that CPU (1: it
 *                                   stops growing while the CPU idles)
 *   cpufreq min/max/lock, devfreq   scaling_cur_freq / cur_freq within the
 *                                   written bound(s)
 *   irq/<n>/affinity                effective_affinity, and which CPUs'
 *                                   counts in /proc/interrupts grow
 *   thread/<tid>/affinity           the CPU it last ran on, if it ran
 *   thread policy/nice/uclamp       sched_getattr
 *   pmqos latency                   no deeper idle state entered
 * and the rest is "unknown" (no counter shows it). On a root that is not
 * the live machine, an observable that did not move in the interval proves
 * nothing: "unknown (static)". A verdict is recorded in the journal (an E
 * record of the knob's active change) and shown by set/apply, `journal`,
 * `knobs --json`, the Journal screen; ab and learn refuse a verdict on a
 * knob whose effect was not seen. A cpuidle governor change re-watches the
 * active idle-state changes: their effect depends on it. */
enum knob_effect { KNOB_EFFECT_UNKNOWN, KNOB_EFFECT_VERIFIED, KNOB_EFFECT_NOT_SEEN };
const char *knob_effect_name(enum knob_effect e);  /* "unknown" "verified" "not_seen" */
enum knob_effect knob_effect_parse(const char *s); /* NULL/other: unknown */

struct knob_effect_watch;
/* Start watching the knobs of this ctx's last successful knob_set_many
 * (written or already in place) and the active changes a write there can
 * change the effect of. NULL when it wrote nothing watchable. */
struct knob_effect_watch *knob_effect_begin(struct knob_ctx *ctx);
/* Watch one knob at a value (ab's arms, lessons). NULL on a bad address. */
struct knob_effect_watch *knob_effect_begin_addr(struct knob_ctx *ctx, const char *addr,
						 const char *value);
/* Sample again and judge. flags: KNOB_QUIET = no per-knob lines except
 * warnings; KNOB_EFFECT_NO_RECORD = do not write E records. report gets
 * "effect: ADDR: verified: EVIDENCE" and "warning: ADDR=VALUE is not in
 * effect: EVIDENCE" lines (and the known reason, e.g. haltpoll). Returns
 * the number of knobs whose effect was not seen. */
#define KNOB_EFFECT_NO_RECORD 0x1000
int knob_effect_end(struct knob_ctx *ctx, struct knob_effect_watch *w, unsigned flags,
		    struct sbuf *report);
/* The verdicts of an ended watch: the worst one and its evidence
 * ("state1 (haltpoll idle) entered 45 times on CPU 1 in 2.0 s"). */
enum knob_effect knob_effect_worst(const struct knob_effect_watch *w, const char **addr,
				   const char **evidence);
void knob_effect_free(struct knob_effect_watch *w);
/* begin, wait ms (0: the default, TUNETOP_VERIFY_MS or 500), end. */
int knob_effect_verify(struct knob_ctx *ctx, unsigned ms, unsigned flags, struct sbuf *report);
/* The default watch interval in ms: $TUNETOP_VERIFY_MS (0 = do not watch) or 500
 * (main() has refused a bad value: knob_env_check). */
unsigned knob_effect_default_ms(void);

/* ---- journal view ----------------------------------------------------------- */

enum knob_jstate {
	KNOB_J_OPEN,	   /* recorded, write not confirmed (in flight, or crashed) */
	KNOB_J_ACTIVE,	   /* written and verified: the new value is in place */
	KNOB_J_FAILED,	   /* the write failed; nothing changed */
	KNOB_J_UNDONE,	   /* restored (undo, restore, rollback) */
	KNOB_J_OTHER_BOOT, /* from an earlier boot: will be archived, never replayed */
};

struct knob_jentry {
	uint64_t id, txn, time_ns;
	char *run, *boot_id, *root, *addr, *target, *ident;
	char *old, *new_value, *readback; /* readback: what the kernel reported after the write */
	/* old is the true original: the recorded one, or the one an earlier
	 * owner handed over when it left (inherited_from: that entry's id) */
	char *recorded_old;
	uint64_t inherited_from;
	char *kind;	/* the owner's command ("exec", "tui", "set"...; NULL: old journal) */
	uint64_t start; /* the owner's start time */
	char *how;	/* undone: "restored" "rolled back" "vanished"...; failed: errno */
	int pid;
	bool alive;	/* the owner still runs (same boot id, pid + start time match) */
	bool scoped;	/* made by a run that restores it (exec, TUI, ab) */
	bool kept;	/* active, and its run chose to leave it in place (knob_keep_run) */
	bool orphaned;	/* open, or scoped, active and not kept, and its process is
			 * gone (crash): `restore` handles it */
	bool this_root; /* recorded for the ctx's root */
	enum knob_jstate state;
	enum knob_effect effect; /* the newest E record (unknown: none) */
	char *effect_evidence;	 /* NULL: never watched */
};

/* All entries of the journal, oldest first (torn or corrupt lines are
 * skipped; *torn counts them). Read-only: no lock needed. */
int knob_journal_list(struct knob_ctx *ctx, struct knob_jentry **out, size_t *n, int *torn,
		      char **cause);
void knob_journal_free(struct knob_jentry *e, size_t n);

/* The owners of the changes still in place on the ctx's root (open or
 * active entries of this root and boot), oldest first. */
struct knob_owner {
	const char *run, *kind; /* point into the entries */
	int pid;
	uint64_t start;
	bool alive;	 /* still runs: its exit restores its own changes */
	size_t active;	 /* entries in place */
	size_t orphaned; /* of those: left behind by a dead owner (restore --orphans) */
};
/* "live", "orphaned" (dead, with changes it was to restore), "exited" (dead,
 * changes left on purpose: set, apply, kept; `restore` or `undo` clears them) */
const char *knob_owner_state(const struct knob_owner *o);
void knob_journal_owners(const struct knob_jentry *e, size_t n, struct knob_owner **out,
			 size_t *nout);
const char *knob_jstate_name(enum knob_jstate s);

/* ---- profiles ---------------------------------------------------------------- */

struct knob_profile {
	char *path;
	char *name;	   /* file name without .profile */
	char *description; /* may be NULL */
	char **match;	   /* alternatives; none = any board */
	size_t nmatch;
	char **assign; /* "ADDRESS=VALUE" */
	char **label;  /* "file:line" of each assignment */
	size_t n;
};

/* NAME or path → file: $XDG_CONFIG_HOME/tunetop/profiles, TT_PKGDATADIR/profiles,
 * $TUNETOP_PROFILES_DIR. Malformed files give "file:line: reason" (-EINVAL). */
int knob_profile_find(const char *name_or_path, char **path, char **cause);
int knob_profile_load(const char *path, struct knob_profile *p, char **cause);
/* The same over text[0..len) in memory; path names it in messages. */
int knob_profile_parse(const char *path, const char *text, size_t len, struct knob_profile *p,
		       char **cause);
void knob_profile_free(struct knob_profile *p);
/* 1 matches, 0 does not (why says what this root is), -errno. */
int knob_profile_match(const struct knob_profile *p, const struct sysroot *r, char *why,
		       size_t cap);
/* Directories searched, in order (NULL-terminated, static storage). */
const char *const *knob_profile_dirs(void);

/* ---- misc ---------------------------------------------------------------------- */

/* Exit code for a knob_* error (design §3). */
int knob_exit_code(int err);

#endif
