/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The world rk3588-npu (field note 1; doc/teach.md "Worlds"): the model of
 * one inference frame of the rknn_infer application and the thermal limit
 * of the big cores, calibrated against the note's stages. The frame model
 * is a pure function (world_rk3588_frame); the hooks read its inputs from
 * the knob files of the world's tree and log the frames. */
#ifndef TT_MODEL_WORLD_RK3588_H
#define TT_MODEL_WORLD_RK3588_H

#include <stdbool.h>
#include <stddef.h>

struct world;
struct wm_sample;

/* The model's constants (doc/teach.md has their calibration). */
#define RK_APP_CPU	 4	 /* where rknn_infer's threads run (an A76) */
#define RK_CPU_WORK	 7957.0	 /* MHz·ms of pre- and post-processing per frame */
#define RK_CPU_PRE_SHARE 0.6	 /* of it before the NPU (cpu:), the rest after (cnv:) */
#define RK_HISPEED_P	 0.2	 /* a frame starts inside a boost of the governor's timer */
#define RK_DDR_WORK	 2333.0	 /* MHz·ms of DDR traffic (cpy:) */
#define RK_NPU_WORK	 24901.0 /* MHz·ms of NPU compute (npu:) */
#define RK_NPU_SPREAD	 0.004	 /* the NPU run's relative spread (SD) */
#define RK_HANDSHAKES	 8	 /* CPU<->NPU hand-offs per frame */
#define RK_SLEEP_P	 0.57	 /* a hand-off finds the waiting CPU in its deepest state */
#define RK_POWER_BIG	 1.0	 /* sustained power of an A76 at its top OPP (units) */
#define RK_POWER_LITTLE	 0.25	 /* of an A55 at its top OPP */
#define RK_POWER_SUST	 4.5	 /* the zones' sustainable power (same units) */

struct rk3588_in {
	double cpu_mhz;	    /* clock of the app's CPU (scaling_cur_freq) */
	double hispeed_mhz; /* the governor's hispeed_freq; NAN none */
	bool cpu_dynamic;   /* its governor follows load (not performance/powersave/userspace) */
	double ddr_mhz;	    /* devfreq dmc cur_freq */
	double npu_mhz;	    /* the NPU's devfreq cur_freq */
	double exit_us;	    /* exit latency of the deepest enabled idle state of the app's CPU */
};

struct rk3588_frame {
	double cpu_ms, cpy_ms, npu_ms, cnv_ms, total_ms;
	int slept; /* hand-offs that paid exit_us */
};

/* One frame; rnd gives uniform numbers in [0,1). */
void world_rk3588_frame(const struct rk3588_in *in, double (*rnd)(void *ctx), void *ctx,
			struct rk3588_frame *f);
/* The sustained power of clusters (n CPUs, weight per CPU at top, clock as
 * a share of the top), in RK_POWER_* units: sum of n·w·share³. */
double world_rk3588_power(size_t n, const double *ncpu, const double *weight, const double *share);

/* The probe in the world (doc/teach.md "The probe in rk3588-npu"): a
 * SCHED_FIFO thread's timer wake-up on CPU RK_PROBE_CPU (an A55, the little
 * cluster). Its latency is the fixed path (timer interrupt to the thread's
 * clock read, noise included) + the wake-up path's kernel work at the
 * cluster's clock (RK_PROBE_WORK cycles: what runs below the top clock is a
 * term of its own) + the exit latency of the deepest enabled idle state when
 * the timer finds the CPU asleep in it + now and then the NPU's IRQ handler. */
#define RK_PROBE_CPU	  0	 /* the probe's CPU (little cluster) */
#define RK_PROBE_PATH_US  3.0	 /* fixed path: GIC, exception entry, clock read */
#define RK_PROBE_NOISE_US 2.0	 /* its spread: uniform 0..this on top */
#define RK_PROBE_WORK	  4000.0 /* MHz·us: hrtimer, wake-up, switch (4000 cycles) */
#define RK_PROBE_SLEEP_P  0.9	 /* the timer finds the CPU in its deepest enabled state */
#define RK_PROBE_IRQ_P	  0.02	 /* the NPU's completion IRQ runs just before */
#define RK_PROBE_IRQ_US	  25.0	 /* its handler (uniform 0.5..1 of this) */
#define RK_NPU_IRQ	  23	 /* its number (proc/interrupts of the tree) */

struct rk3588_probe_in {
	double cur_mhz, top_mhz; /* the little cluster's clock and its top OPP */
	double exit_us;		 /* the deepest enabled idle state's exit latency; 0 none */
	int state;		 /* its index, -1 none */
	char state_name[24];	 /* its name ("cpu-sleep") */
};

/* One wake-up of the probe (pure; rnd as for the frame). */
void world_rk3588_probe_model(const struct rk3588_probe_in *in, double (*rnd)(void *ctx), void *ctx,
			      struct wm_sample *out);
/* The world's probe_sample hook: the inputs from the tree's knob files. */
int world_rk3588_probe(struct world *w, struct wm_sample *out);

/* The world table's hooks. */
void world_rk3588_setup(struct world *w);
void world_rk3588_before(struct world *w, double dt_s);
void world_rk3588_after(struct world *w, double dt_s);

#endif
