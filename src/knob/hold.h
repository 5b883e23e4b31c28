/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Lifetimes of a run's changes (doc/knobs.md "Lifetimes: follow, hold,
 * hotplug"), for exec (and the TUI):
 *   hold     the knobs a run changed are read again every second; a value
 *            changed behind tunetop's back is reported (and with
 *            HOLD_REASSERT written back through the engine);
 *   hotplug  a CPU coming online gets the per-CPU knobs of the run's
 *            assignments that were skipped (offline) or lost;
 *   follow   the app runs in a cgroup v2 of its own (a child of tunetop's
 *            cgroup), and the run ends when that cgroup is empty. */
#ifndef TT_KNOB_HOLD_H
#define TT_KNOB_HOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/str.h"
#include "knob/knob.h"

enum knob_hold_mode { KNOB_HOLD_OFF, KNOB_HOLD_REPORT, KNOB_HOLD_REASSERT };

/* "off" "report" "reassert" → 0, else -EINVAL. */
int knob_hold_mode_parse(const char *s, enum knob_hold_mode *m);

struct knob_hold;
/* Start holding the knobs of ctx's last successful knob_set_many (the values
 * in place now) and remember the assignments (ADDRESS=VALUE patterns, as
 * given) for CPUs that come online later. Never NULL. */
struct knob_hold *knob_hold_begin(struct knob_ctx *ctx, const char *const *assign, size_t n,
				  enum knob_hold_mode mode);
/* One round: CPUs that came online or went offline since the last round
 * ("cpu5 came online: applied cpuidle/cpu5/state1/disable=1"), then each
 * held knob read again ("04:12:09 ADDR: expected X, found Y (changed
 * outside tunetop)"). Lines go to report, one per event. */
void knob_hold_check(struct knob_ctx *ctx, struct knob_hold *h, struct sbuf *report);
/* Hold exactly what this ctx's run has active in the journal now (the TUI:
 * its changes come and go with undo); the expected value is the one the
 * kernel reported after the write. Knobs still held keep their state. */
void knob_hold_sync_run(struct knob_ctx *ctx, struct knob_hold *h);
/* Counts so far: values changed outside tunetop, of them written back. */
unsigned knob_hold_outside(const struct knob_hold *h);
unsigned knob_hold_reasserted(const struct knob_hold *h);
/* The summary line ("hold: 2 changes outside tunetop seen, 2 reasserted"). */
void knob_hold_summary(const struct knob_hold *h, struct sbuf *report);
void knob_hold_free(struct knob_hold *h);

/* One line per offline CPU that per-CPU wildcard assignments skip
 * ("note: cpu5 is offline: skipped cpuidle/'*'/cpu-sleep/disable=1 there").
 * when_online: what happens when it comes back, appended to each line. */
void knob_hold_offline_notes(struct knob_ctx *ctx, const char *const *assign, size_t n,
			     const char *when_online, struct sbuf *report);

/* ---- follow: the app's own cgroup (live cgroup v2) ---------------------- */
/* Where systemd runs the machine (/run/systemd/system, systemd-run in PATH)
 * the cgroup tree is systemd's: the app runs in a transient scope unit
 * tunetop-exec-PID.scope instead (systemd-run --scope --collect, which
 * moves itself in and then execs the app in place), and tunetop only reads
 * it. TUNETOP_SYSTEMD_RUN=PATH forces a scope through that program, "no"
 * (or empty) never uses one. */
struct app_cgroup {
	char dir[4096]; /* absolute path of the cgroup directory ("" while a
			   scope is not located yet) */
	int procs_fd;	/* its cgroup.procs, open for writing (O_CLOEXEC) */
	bool active;
	bool scope;	   /* a systemd scope: systemd creates and removes it */
	char unit[64];	   /* tunetop-exec-PID.scope */
	char unit_arg[72]; /* --unit=tunetop-exec-PID.scope */
	char runner[1024]; /* the systemd-run to call */
	char mnt[1024];	   /* the cgroup2 mount, to turn /proc/PID/cgroup into a dir */
	char mroot[1024];  /* its root in our namespace view */
	bool scope_failed; /* the app exited before it was seen in its scope */
};
/* Create tunetop-exec-PID under tunetop's own cgroup v2, or prepare the
 * systemd scope. -errno with why ("cgroup v2 is not mounted",
 * "/sys/fs/cgroup/x: Permission denied") when the app cannot have one. */
int app_cgroup_create(struct app_cgroup *cg, char *why, size_t cap);
/* The command line that runs cmd in the scope (systemd-run ... -- cmd...),
 * allocated; NULL when cg is not a scope (run cmd itself). */
char **app_cgroup_argv(struct app_cgroup *cg, char *const *cmd);
/* A scope: find its directory from /proc/PID/cgroup of the app's first
 * process (call it before that process is reaped: a zombie still names its
 * cgroup). 1 once located, 0 not yet, -errno when pid is gone. */
int app_cgroup_locate(struct app_cgroup *cg, pid_t pid);
/* In the forked child (async-signal-safe): move the caller in. 0 or -errno. */
int app_cgroup_enter(const struct app_cgroup *cg);
/* 1: processes remain, 0: empty (a collected scope is gone: empty),
 * -errno: cannot tell (-ENOENT: a scope not located). */
int app_cgroup_populated(const struct app_cgroup *cg);
/* Send sig to every process of the cgroup but those of process group
 * skip_pgrp (0: none; the terminal signalled them already); the number
 * signalled. */
int app_cgroup_kill(const struct app_cgroup *cg, int sig, pid_t skip_pgrp);
/* --pidfile: may exec follow (and signal) pid? 0 when it is CMD or one of
 * its descendants: the calling process (CMD's parent, made the child
 * subreaper with prctl(PR_SET_CHILD_SUBREAPER) so that a daemon that forked
 * away is still below it) comes before pid 1 among its parents, and its
 * real uid is ours (*uid: its uid). -ECHILD not below us (pid 1, ourselves,
 * a stranger), -EPERM another user's, -ESRCH gone (or a zombie). */
int app_pid_ours(pid_t pid, unsigned *uid);
/* Remove the (empty) cgroup and close the fd; a scope is left to systemd
 * (--collect: it goes when empty). 0 or -errno. */
int app_cgroup_remove(struct app_cgroup *cg);

#endif
