/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The adapter from a model of model/worldmodel.h to a world (see
 * model/world_wm.h): the files and threads a model world adds to its
 * board's tree at unpack, the model's input read from the tree's knob files
 * at each step, the samples that fit the simulated time and their log
 * lines, and one sample for `probe`. What unpack writes into the tree is in
 * world_wm_tree.c (world.c calls it; it calls nothing of world.c). */
#include "model/world_wm.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/sim.h"
#include "model/world.h"
#include "model/worldmodel.h"
#include "sysfs/sysroot.h"

#define WM_SAMPLES_PER_STEP_MAX 10000 /* a guard: a step never logs more */

int world_wm_input(const struct world_wm *m, const struct sysroot *r, union wm_in *in)
{
	const struct wm_world *mw = m ? wm_world_find(m->model) : NULL;

	memset(in, 0, sizeof(*in));
	if (!mw)
		return -ENOENT;
	mw->defaults(in);
	if (m->read_in)
		m->read_in(r, in);
	return 0;
}

void world_wm_read_unsigned(const struct sysroot *r, const char *path, unsigned *out)
{
	uint64_t v;

	if (sysfs_read_u64(r, path, &v) == 0)
		*out = (unsigned)v;
}

void world_wm_read_flag(const struct sysroot *r, const char *path, bool *out)
{
	uint64_t v;

	if (sysfs_read_u64(r, path, &v) == 0)
		*out = v != 0;
}

void world_wm_line(const struct world_wm *m, const struct wm_sample *s, char *buf, size_t cap)
{
	const struct wm_term *t = wm_sample_main_cause(s);

	snprintf(buf, cap, "%s%.3f %s cause:%s (SIMULATED)", m->line_prefix,
		 s->total_us / m->unit_us, m->unit, t ? wm_cause_name(t->cause) : "none");
}

/* One sample under `in` with the world's generator and carried state. */
static int draw(struct world *w, const struct wm_world *mw, const union wm_in *in,
		struct wm_sample *out)
{
	double *st = &world_state(w)[WORLD_WM_STATE];
	int state = (int)*st - 1;
	int e = mw->sample(in, world_rng(w), &state, out);

	*st = state + 1;
	return e;
}

void world_wm_setup(struct world *w)
{
	const struct world_wm *m = world_def_of(w)->wm;

	if (m && m->quiet)
		sim_set_quiet(world_sim(w), true);
}

void world_wm_after(struct world *w, double dt_s)
{
	const struct world_wm *m = world_def_of(w)->wm;
	const struct wm_world *mw = m ? wm_world_find(m->model) : NULL;
	double *next = world_next_frame(w);
	union wm_in in;
	int guard = 0;

	(void)dt_s;
	if (!mw || !(m->period_s > 0) || *next > world_time(w))
		return;
	if (world_wm_input(m, sim_sysroot(world_sim(w)), &in))
		return;
	while (*next <= world_time(w) && guard++ < WM_SAMPLES_PER_STEP_MAX) {
		struct wm_sample s;
		char line[160];

		*next += m->period_s;
		if (draw(w, mw, &in, &s))
			continue; /* an input the model refuses: no sample */
		world_wm_line(m, &s, line, sizeof(line));
		world_log(w, line);
	}
}

int world_wm_probe(struct world *w, struct wm_sample *out)
{
	const struct world_wm *m = world_def_of(w)->wm;
	union wm_in in;

	world_wm_input(m, sim_sysroot(world_sim(w)), &in);
	return world_wm_probe_in(w, &in, out);
}

int world_wm_probe_in(struct world *w, const union wm_in *in, struct wm_sample *out)
{
	const struct world_wm *m = world_def_of(w)->wm;
	const struct wm_world *mw = m ? wm_world_find(m->model) : NULL;

	wm_sample_clear(out);
	if (!mw)
		return -EINVAL;
	return draw(w, mw, in, out);
}
