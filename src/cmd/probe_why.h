/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `probe --why`: the capture (probe/whycap.c) run next to the probe, the
 * probe's late records fed to it, and at the end the attribution
 * (probe/whyattr.c) written as text or JSON and the events saved. */
#ifndef TT_CMD_PROBE_WHY_H
#define TT_CMD_PROBE_WHY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "probe/histogram.h"
#include "probe/probe.h"
#include "probe/whyattr.h"
#include "probe/whycap.h"

struct jw;
struct ab_run;

struct whyrun {
	bool on;		 /* --why asked */
	uint64_t over_ns;	 /* --why-over, 0 = the run's p99 */
	const char *events_file; /* --events */
	struct whycap *cap;	 /* NULL: no capture (why says why) */
	char why[256];
	struct probe_late *buf;
	unsigned ticks;
	uint64_t ring_drops;
	struct why_events ev;
	struct why_result res;
	struct whycap_stats st;
	bool have_res;
	int err; /* attribution or --events error, -errno */
	/* ab --why: each arm's attribution (probe_why_arms) */
	struct why_result *arm;
	bool *arm_have;
	unsigned narms;
};

/* Before probe_start: open the capture (or say in one line why not) and ask
 * the probe for late records. */
void probe_why_open(struct whyrun *wr, struct probe_cfg *cfg);
/* After probe_start: the first bar, tracing on. */
void probe_why_start(struct whyrun *wr, struct probe *p);
/* Every WHYCAP_POLL_MS while the probe runs. */
void probe_why_tick(struct whyrun *wr, struct probe *p);
/* After probe_stop: the last records and events, the attribution over the
 * threshold (all = the run's merged histogram), the events file. */
void probe_why_finish(struct whyrun *wr, struct probe *p, const struct hist *all);
void probe_why_text(const struct whyrun *wr, FILE *f);
/* "why" (the attribution, null without) and "why_capture" members. */
void probe_why_json(const struct whyrun *wr, struct jw *w);
/* The "why_capture" member alone (probe_why_json writes it after "why"). */
void probe_why_capture_json(const struct whyrun *wr, struct jw *w);
/* ab --why, once the A/B ended and its probe p stopped: the capture
 * attributed once over every arm's windows (threshold: --why-over, else the
 * p99 of all arms), then each arm's late wake-ups (those that woke inside a
 * measured window of that arm) and their causes, kept in wr->arm (once). */
void probe_why_arms(struct whyrun *wr, struct probe *p, struct ab_run *r);
/* ... as text (after the A/B's report), or as the member "why" of arm's
 * object in ab --json (the shape of probe --why's "why"; null when the arm
 * could not be attributed). */
void probe_why_arms_text(const struct whyrun *wr, const struct ab_run *r, FILE *f);
void probe_why_arm_json(const struct whyrun *wr, unsigned arm, struct jw *w);
void probe_why_free(struct whyrun *wr);

#endif
