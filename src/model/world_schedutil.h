/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The world `schedutil` (world_schedutil.c): its probe (issue 35, doc/
 * teach.md "The probe in a world"). */
#ifndef TT_MODEL_WORLD_SCHEDUTIL_H
#define TT_MODEL_WORLD_SCHEDUTIL_H

struct world;
struct wm_sample;
struct wm_schedutil_in;
struct wm_rng;

/* The probe on the camera board: a SCHED_FIFO thread's timer wake-up on
 * CPU 0, its kernel path run at the clock the governor chose for the
 * pipeline's load at that moment (not the key frame's time, which is the
 * log's figure). world_def.probe_sample of the world. 0 or -errno. */
int world_schedutil_probe(struct world *w, struct wm_sample *out);
/* The same sample from the model's input (for the tests of the model). */
void world_schedutil_probe_model(const struct wm_schedutil_in *in, struct wm_rng *r,
				 struct wm_sample *out);

#define SU_PROBE_PATH_US  3.0	 /* fixed path: GIC, exception entry, clock read */
#define SU_PROBE_NOISE_US 2.0	 /* its spread: uniform 0..this on top */
#define SU_PROBE_WORK	  4000.0 /* MHz·us: hrtimer, wake-up, switch (4000 cycles) */

#endif
