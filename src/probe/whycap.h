/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The capture side of `probe --why` (see probe/why.h): the kernel's
 * scheduler, IRQ, softirq and idle events of the probed CPUs, from a private
 * tracefs instance "tunetop-<pid>" (never the top-level buffer, so other
 * tracers keep working), read as raw per-CPU ring buffers through libtracefs
 * and libtraceevent while the probe runs, and turned into struct why_event.
 *
 * Memory stays bounded on long runs: events are read every poll (the caller's
 * tick) into a per-CPU pending list, and kept only inside the windows of the
 * probe's late records [deadline - interval - pad, wake + pad]; when the kept
 * store passes its cap, the smaller half of the late wake-ups and their
 * windows are dropped and the floor raised (reported).
 *
 * Lifetime: whycap_open (instance, clock, CPUs, events, a 100 ms calibration
 * that sizes the buffers) -> whycap_start -> whycap_add_late /
 * whycap_progress / whycap_poll while the probe runs -> whycap_stop ->
 * whycap_finish -> whycap_close (removes the instance). Built without the
 * libraries, whycap_open says so and fails. */
#ifndef TT_PROBE_WHYCAP_H
#define TT_PROBE_WHYCAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/cpumask.h"
#include "probe/why.h"

#define WHYCAP_POLL_MS	    50	       /* how often the caller should poll */
#define WHYCAP_KEEP_MAX	    (1u << 20) /* kept events before the floor rises */
#define WHYCAP_MIN_BUF_KB   256	       /* per-CPU buffer bounds */
#define WHYCAP_MAX_BUF_KB   16384
#define WHYCAP_CALIBRATE_MS 100

struct whycap_cfg {
	struct cpumask cpus;  /* the probed CPUs: the instance traces only these */
	uint64_t interval_us; /* the probe's period (sizing, windows) */
};

struct whycap_stats {
	uint64_t events_read;  /* every event read from the buffers */
	uint64_t events_kept;  /* kernel events in the result (late, lost aside) */
	uint64_t lost;	       /* events the kernel dropped (all CPUs) */
	uint64_t late_records; /* late records offered by the probe */
	uint64_t floor_ns;     /* late wake-ups under this were dropped (0 = none) */
	double rate_per_s;     /* calibrated events per second per CPU (the busiest) */
	unsigned buffer_kb;    /* per-CPU ring buffer size chosen */
	char instance[32];     /* "tunetop-<pid>" */
	char optional_off[96]; /* optional events the kernel lacks, "" */
};

struct whycap;

/* Create and arm the instance (tracing still off). 0 or -errno with why set
 * to one line naming what is missing (no libraries in this build, tracefs
 * not mounted and not root, no permission, an event missing). note gets one
 * line to tell the user ("" = nothing), e.g. that tracefs was mounted. */
int whycap_open(struct whycap **out, const struct whycap_cfg *cfg, char *why, size_t cap,
		char *note, size_t ncap);
/* Tracing on. 0 or -errno. */
int whycap_start(struct whycap *c);
/* A late record of the probe thread of cpu (tid): kept as a WEV_LATE. */
void whycap_add_late(struct whycap *c, int cpu, pid_t tid, uint64_t deadline_ns, uint64_t wake_ns);
/* Every late record of cpu with a wake time up to progress_ns was added:
 * events older than its windows can go. */
void whycap_progress(struct whycap *c, int cpu, uint64_t progress_ns);
/* Read what the buffers hold now and prune. 0 or -errno. */
int whycap_poll(struct whycap *c);
/* The counts so far (events read since the start, lost): the capture's own
 * footprint while it runs; events_kept is that of the last finish. */
void whycap_stats_now(const struct whycap *c, struct whycap_stats *st);
/* Tracing off, the last read. */
void whycap_stop(struct whycap *c);
/* The result: the WEV_LATE over threshold_ns (and the floor), the events
 * inside their windows and every WEV_LOST, sorted (why_events_sort), appended
 * to out; st filled. The capture is empty afterwards. */
void whycap_finish(struct whycap *c, uint64_t threshold_ns, struct why_events *out,
		   struct whycap_stats *st);
/* Remove the instance, free everything. NULL is fine. */
void whycap_close(struct whycap *c);

/* What the attribution knows of this machine's idle states, from cpuidle
 * (stateN/latency: the declared exit latency that caps an idle exit;
 * stateN/name), into o's idle_exit_ns and idle_name. Also without tracefs. */
struct why_opts;
void whycap_idle_opts(struct why_opts *o);

/* `tunetop restore`: remove the "tunetop-<pid>" instances whose process is
 * gone. Returns how many were removed (>= 0) or -errno; names the first
 * failure in why. Without tracefs (not mounted, not built): 0. */
int whycap_remove_stale(char *why, size_t cap);
/* The instance name of process pid: "tunetop-<pid>". */
void whycap_instance_name(pid_t pid, char *buf, size_t cap);

#endif
