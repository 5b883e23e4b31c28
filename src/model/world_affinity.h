/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The world am5729-affinity (field note 4; doc/teach.md "Worlds"): the
 * model of worldmodel_affinity.c on the am5729 board tree, made a world by
 * the adapter of world_wm.h. The reader turns the tree's files into the
 * model's input. */
#ifndef TT_MODEL_WORLD_AFFINITY_H
#define TT_MODEL_WORLD_AFFINITY_H

struct sysroot;
struct world_wm;
union wm_in;

/* The application's threads, by comm (doc/teach.md). */
#define WA_PROBE_COMM "cyclictest" /* its SCHED_FIFO/RR thread measures */
#define WA_LOAD_COMM  "stress-ng-cpu"

/* Knob files -> in->aff (on top of the model's defaults): the probe's
 * affinity (the cyclictest RT thread's Cpus_allowed_list), isolcpus (proc/
 * cmdline, else sys/devices/system/cpu/isolated), the load (a stress-ng-cpu
 * worker not stopped, on the first CPU it can run on). */
void world_affinity_read(const struct sysroot *r, union wm_in *in);

extern const struct world_wm world_wm_affinity;

#endif
