/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The model worlds (issue 35, doc/teach.md "Worlds"): the adapter that makes
 * a world (world.h) of a pure model of model/worldmodel.h (a wm_world). A
 * model world is one struct world_wm, in the world's own file
 * (world_<name>.c), and one entry of world_table[] (world_table.c) whose
 * .wm points at it and whose hooks are this adapter's:
 *
 *	.setup = world_wm_setup, .after_step = world_wm_after,
 *	.probe_sample = world_wm_probe, .wm = &world_wm_<name>,
 *
 * What the adapter does with it:
 *  - at unpack (world_unpack), after the board's bundle: writes the files
 *    the bundle lacks (m->files: knobs of the real board the fixture has
 *    not, SIMULATED firmware switches) and the application's threads in the
 *    tree's proc/ (m->threads: proc/PID/{stat,status,comm,sched} and
 *    task/TID/...);
 *  - at each step: reads the model's input from the knob files of the tree
 *    (m->read_in, on top of the model's defaults), draws the samples that
 *    fit the simulated time that passed (one every m->period_s) from the
 *    model with the world's one generator (world_rng) and appends one log
 *    line per sample to the world's log:
 *
 *	<prefix><figure> <unit> cause:<main cause> (SIMULATED)
 *
 *    e.g. "[camera] keyframe:41.234 ms cause:rate-limit (SIMULATED)"; the
 *    figure is the sample's total_us / m->unit_us with three decimals, the
 *    cause wm_cause_name() of wm_sample_main_cause() ("none" when there is
 *    none). `ab --metric-file LOG --metric '<prefix>([0-9.]+) <unit>'`
 *    reads it;
 *  - probe_sample: one sample of the model under the knob values now in
 *    the tree (what `probe` would measure), with its causes.
 *
 * The model's carried state (wm_world.sample's *state, the AM5729 probe's
 * CPU) is kept in world_state(w)[WORLD_WM_STATE] as state + 1 (0 at unpack
 * reads as -1). Everything the adapter writes is SIMULATED. */
#ifndef TT_MODEL_WORLD_WM_H
#define TT_MODEL_WORLD_WM_H

#include <stdbool.h>
#include <stddef.h>

struct sysroot;
struct world;
struct wm_sample;
union wm_in;

/* The world_state() slot the adapter keeps the model's state in (the other
 * slots are free for the world's own read_in helpers to ignore). */
#define WORLD_WM_STATE 7

/* One thread of the world's application, written into the tree's proc/ at
 * unpack. tid == pid: the process itself (its main thread). */
struct world_wm_thread {
	int pid, tid;
	const char *comm;
	int policy;	  /* 0 SCHED_OTHER, 1 SCHED_FIFO, 2 SCHED_RR */
	int rt_prio;	  /* 1..99 with FIFO/RR, else 0 */
	int nice;	  /* -20..19 with SCHED_OTHER */
	const char *cpus; /* Cpus_allowed_list, "0-3" */
	char state;	  /* 'S', 'R', 'D' */
};

/* A file of the world's tree that the bundle lacks, written at unpack
 * (directories made as needed; an existing file is replaced). */
struct world_wm_file {
	const char *path; /* relative to the tree, "sys/.../up_rate_limit_us" */
	const char *text; /* its contents ("30000\n") */
};

/* A SIMULATED switch of the world: what changes the latency but is no knob
 * of a running board (the M4 firmware's build; a reboot with another
 * command line or kernel; a process stopped). It is the knob sim/<name> at
 * unpack (written into KNOB_SIM_SWITCHES, which the knob family fam_sim.c
 * reads): `tunetop --root DIR set sim/<name>=V`. Its path is one of the
 * world's files (usually one of m->files, which gives its default), or one
 * event shown in several files as the kernel shows it (knob/sim_kind.h):
 * "@cmdline" (a reboot with that command line: proc/cmdline, the isolated
 * and nohz_full CPUs), "@kernel" (rt|nonrt: proc/version,
 * sys/kernel/realtime), "@state:PID[,PID]" (stopped|running: the state
 * letter of the processes and their tasks), journaled and undone as one. */
struct world_wm_switch {
	const char *name;    /* "m4/vring_polling" (the address after sim/) */
	const char *path;    /* the file, relative to the tree, or "@KIND" */
	const char *allowed; /* "0 1" (words), "10..1000" (whole numbers); @cmdline: words
				for the list ("a kernel command line") */
	const char *help;    /* one line: what it stands for */
};

/* The switches[] row of a world whose note rebooted the board with another
 * kernel command line (sim/board/cmdline). */
#define WM_SWITCH_CMDLINE                                                                          \
	{                                                                                          \
		"board/cmdline", "@cmdline", "a kernel command line",                              \
			"a reboot with this command line (proc/cmdline, the isolated and "         \
			"nohz_full CPUs)"                                                          \
	}

/* A row of a world's threads[]: WM_THREAD(pid, tid, comm, policy, rt_prio,
 * nice, cpus, state), the fields of struct world_wm_thread in order. */
#define WM_THREAD(PID, TID, COMM, POLICY, RT_PRIO, NICE, CPUS, STATE)                              \
	{                                                                                          \
		.pid = (PID), .tid = (TID), .comm = (COMM), .policy = (POLICY),                    \
		.rt_prio = (RT_PRIO), .nice = (NICE), .cpus = (CPUS), .state = (STATE)             \
	}

/* In a struct world_wm: its model, input reader, sample period and log
 * line (.model, .read_in, .period_s, .line_prefix, .unit, .unit_us). */
#define WORLD_WM_MODEL(MODEL, READ_IN, PERIOD_S, PREFIX, UNIT, UNIT_US)                            \
	.model = (MODEL), .read_in = (READ_IN), .period_s = (PERIOD_S), .line_prefix = (PREFIX),   \
	.unit = (UNIT), .unit_us = (UNIT_US)

/* In a struct world_wm: one of its arrays and its count, e.g.
 * WORLD_WM_LIST(threads, threads) sets .threads and .n_threads. */
#define WORLD_WM_LIST(FIELD, ARR) .FIELD = (ARR), .n_##FIELD = sizeof(ARR) / sizeof((ARR)[0])

struct world_wm {
	const char *model; /* the wm_world's name (wm_world_find) */
	/* The model's input from the tree: in holds the model's defaults
	 * (wm_world.defaults) on entry; set what the knob files say (a file
	 * that is missing or unreadable leaves the default). */
	void (*read_in)(const struct sysroot *r, union wm_in *in);
	double period_s;	 /* simulated seconds between two samples */
	const char *line_prefix; /* "[camera] keyframe:" (the figure follows) */
	const char *unit;	 /* "ms" or "us" */
	double unit_us;		 /* 1000 for ms, 1 for us */
	bool quiet;		 /* the board's synthetic load off (sim_set_quiet) */
	const struct world_wm_file *files;
	size_t n_files;
	const struct world_wm_thread *threads;
	size_t n_threads;
	const struct world_wm_switch *switches; /* NULL: none */
	size_t n_switches;
};

/* The world_def hooks of every model world (w's def has .wm set). */
void world_wm_setup(struct world *w);
void world_wm_after(struct world *w, double dt_s);
/* One sample of the model under the knob values now in the tree (no log
 * line, the world's generator advances). 0 or -errno (-EINVAL: the world
 * has no model). */
int world_wm_probe(struct world *w, struct wm_sample *out);
/* The same with the model's input given (world_wm_input read earlier). */
int world_wm_probe_in(struct world *w, const union wm_in *in, struct wm_sample *out);

/* The model's input under the knob files of the tree at r: the model's
 * defaults, then m->read_in. 0 or -ENOENT (no such model). */
int world_wm_input(const struct world_wm *m, const struct sysroot *r, union wm_in *in);
/* For the read_in hooks: the tree's file at path as a whole number or a
 * flag (non-zero: true) into *out; a file that is missing or unreadable
 * leaves *out as it was. */
void world_wm_read_unsigned(const struct sysroot *r, const char *path, unsigned *out);
void world_wm_read_flag(const struct sysroot *r, const char *path, bool *out);
/* The log line of one sample (no '\n'), as above. */
void world_wm_line(const struct world_wm *m, const struct wm_sample *s, char *buf, size_t cap);
/* At unpack (world_unpack calls it for a def with .wm, before the marker is
 * written): m's files and threads into the tree at dir. 0 or -errno with a
 * one-line reason in err. */
int world_wm_unpack(const struct world_wm *m, const char *dir, char *err, size_t cap);

#endif
