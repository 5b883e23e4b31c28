/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Worlds (issue 35, doc/teach.md "Worlds"): one simulated board per field
 * note, whose application's latency follows the knob files. A world is
 *
 *  - the simulated board of sim.c (a bundled fixture tree, stepped), plus
 *  - a model (one file per world, world_<name>.c) that reads the knob files
 *    of the tree at each step, sets what the mechanism changes on the board
 *    (a thermal cap, device loads) and appends the application's log lines,
 *    [Infer] cpu:C cpy:Y npu:N cnv:V total:T ms, to a regular file in the
 *    tree (what `ab --metric-file` and `watch` read as on the board).
 *
 * A world lives in a directory: its tree with a marker file at the top,
 * WORLD_MARKER, that names it and keeps its state between commands (its
 * random generator, simulated time, the model's own state). `tunetop world
 * NAME DIR` unpacks one; every command on `--root DIR` then finds the
 * marker, attaches and steps the world by the time since its last step
 * (at most WORLD_CATCH_UP_MAX_S), so the board moves as a board would;
 * `ab` steps it while it measures. `tunetop --demo=NAME` runs one in a
 * temporary directory.
 *
 * Another world is one entry in world_table[] (world.c) and its model
 * file. A world whose latency is a pure model of model/worldmodel.h (a
 * wm_world) needs no hooks of its own: model/world_wm.h is the adapter
 * (its struct world_wm says how the tree's knob files become the model's
 * input, its log line, its files and threads; the table entry takes the
 * adapter's hooks and .wm). Everything the worlds write is SIMULATED. */
#ifndef TT_MODEL_WORLD_H
#define TT_MODEL_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim;
struct sysroot;
struct world;
struct world_wm;
struct wm_rng;
struct wm_sample;

/* The marker at the top of a world's tree (beside sys/ and proc/). */
#define WORLD_MARKER	     "tunetop-world"
#define WORLD_CATCH_UP_MAX_S 5.0
#define WORLD_NSTATE	     8

struct world_def {
	const char *name;   /* "rk3588-npu" (--demo=NAME) */
	const char *board;  /* "RK3588" */
	const char *note;   /* the field note it stands for */
	const char *bundle; /* the board's tree (sim_find_bundle's file) */
	const char *log;    /* the application's log, relative to the tree */
	/* A model world (model/world_wm.h, the adapter from a wm_world of
	 * model/worldmodel.h): its model, files and threads; NULL for a world
	 * with hooks of its own (rk3588-npu). */
	const struct world_wm *wm;
	/* Once, after the board is loaded (first unpack and every attach):
	 * what the application does to the board (its load, device loads). */
	void (*setup)(struct world *w);
	/* One step of dt_s: before_step acts on the board (caps), the
	 * simulator steps, then after_step runs the application's frames
	 * (world_log) over the time that passed. Either may be NULL. */
	void (*before_step)(struct world *w, double dt_s);
	void (*after_step)(struct world *w, double dt_s);
	/* One latency sample of the world (what `probe` measures in it, us)
	 * with its causes (model/worldmodel.h); NULL: the world has none. */
	int (*probe_sample)(struct world *w, struct wm_sample *out);
	/* The kernel prio (0..139) of the thread the probe stands for, which
	 * `probe --why` gives the probe in the world's events, or -1; NULL:
	 * the probe's own --prio. */
	int (*probe_prio)(struct world *w);
	/* The CPU of the thread the probe stands for (its events' CPU) into
	 * *cpu and the housekeeping CPUs (online, not isolated, not one it can
	 * run on; "" when none) into hk, which `probe --why` moves an IRQ or a
	 * thread to. 0 or -errno. NULL: CPU 0, no housekeeping CPU known. */
	int (*probe_place)(struct world *w, int *cpu, char *hk, size_t cap);
};

size_t world_count(void);
const struct world_def *world_at(size_t i);
/* NULL when no world has that name. */
const struct world_def *world_find(const char *name);

/* Unpack world `name` into dir (created; it must not exist, or be an empty
 * directory), write its marker and take its first second. seed 0: the
 * default seed. 0 or -errno with a one-line reason in err. */
int world_unpack(const char *name, const char *dir, uint64_t seed, char *err, size_t cap);
/* Does the tree at `root` hold a world (its marker)? */
bool world_present(const struct sysroot *root);
/* Attach to the world in dir: -ENOENT when dir holds none (no marker),
 * -EINVAL when its marker is not one (err says why). */
int world_attach(const char *dir, struct world **out, char *err, size_t cap);
/* A world in a new temporary directory for --demo=NAME (removed by
 * world_close). */
int world_open_temp(const char *name, uint64_t seed, struct world **out, char *err, size_t cap);
/* Step by dt_s simulated seconds (in steps of at most 0.1 s). */
void world_step(struct world *w, double dt_s);
/* Step by the wall-clock time since the last step, at most max_s. */
void world_catch_up(struct world *w, double max_s);
/* Write the marker (state) back. 0 or -errno. */
int world_save(struct world *w);
/* Save, then free; a temporary world's directory is removed. NULL is fine. */
void world_close(struct world *w);

const struct world_def *world_def_of(const struct world *w);
struct sim *world_sim(struct world *w);
const char *world_root(const struct world *w);
/* Simulated seconds since the world was unpacked; frames logged so far. */
double world_time(const struct world *w);
uint64_t world_frames(const struct world *w);

/* For the models: a uniform number in [0,1) from the world's seeded
 * generator; append one line (a '\n' is added) to the world's log; the
 * model's own numbers, kept in the marker between commands. */
double world_rand(struct world *w);
/* The same generator for a model of model/worldmodel.h (world_rand draws
 * from it too): one seeded sequence per world, kept in the marker. */
struct wm_rng *world_rng(struct world *w);
int world_log(struct world *w, const char *line);
double *world_state(struct world *w);
/* The model's own clock: the simulated time of the world's next frame. */
double *world_next_frame(struct world *w);
/* For a model that keeps what it read of the tree between samples: a
 * zeroed block of size bytes, the world's own (the same block on every
 * call; freed by world_close), and the generation of what it may hold:
 * it changes at every step of the world and at world_invalidate(), which
 * world_probe_run calls at its start (knob writes of the same process come
 * between runs, never during one). Within one generation the tree's knob
 * files are read once, as world_wm_after reads them once per step. */
void *world_cache(struct world *w, size_t size);
uint64_t world_gen(const struct world *w);
void world_invalidate(struct world *w);

/* The seed a new world takes: TUNETOP_WORLD_SEED if set (decimal), else
 * a fixed default, so two runs give the same samples. */
uint64_t world_default_seed(void);

#endif
