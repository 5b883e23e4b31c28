/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The probe in a world (issue 35, doc/teach.md "The probe in a world"):
 * `probe`, `probe --why` and the lessons on a --root that holds a world take
 * the world's simulated wake-up samples (world_def.probe_sample) on the
 * deadlines of a simulated probe instead of measuring the host, stepping the
 * world by the simulated time as they go (in steps of WORLD_PROBE_STEP_S),
 * as fast as the samples can be computed. Everything here is SIMULATED. */
#ifndef TT_MODEL_WORLD_PROBE_H
#define TT_MODEL_WORLD_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/worldmodel.h"
#include "probe/histogram.h"
#include "probe/whyattr.h"

struct world;
struct world_why;

#define WORLD_PROBE_STEP_S   0.1
#define WORLD_PROBE_CAND_MAX 50000 /* late candidates kept for --why (~20 MB) */

struct world_probe_cand {
	uint64_t deadline_ns;
	struct wm_sample s;
};

struct world_probe {
	struct hist hist;      /* the samples (ns), overflows = deadlines skipped */
	uint64_t start_ns;     /* the simulated clock at the first deadline */
	double sim_s;	       /* simulated seconds run */
	double mean_us, sd_us; /* of the samples, exact (sample SD; NAN under 2) */
	/* keep: the samples over the running p90 (for the attribution) */
	bool keep;
	struct world_probe_cand *cand;
	size_t ncand, capcand;
	uint64_t cand_drops;
};

/* Does the world have a probe (world_def.probe_sample)? */
bool world_has_probe(const struct world *w);
/* Run the world's probe for secs simulated seconds, a deadline every
 * interval_us; keep: the candidates for world_probe_why. 0, -ENOTSUP (the
 * world has no probe) or the hook's -errno. */
int world_probe_run(struct world *w, uint64_t interval_us, double secs, bool keep,
		    struct world_probe *out);
/* The kept samples of at least thr_ns as the world's events (world_why.h)
 * on cpu with the probe's kernel prio, attributed by whyattr into *res
 * with the housekeeping CPUs hk (why_opts.housekeeping; NULL or "": none
 * known). 0 or -errno. */
int world_probe_why(const struct world_probe *p, int cpu, int prio, const char *hk, uint64_t thr_ns,
		    struct world_why *ww, struct why_result *res);
void world_probe_free(struct world_probe *p);

#endif
