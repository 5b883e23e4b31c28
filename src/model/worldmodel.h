/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The latency models of the simulated worlds (issue 35, doc/teach.md
 * "Worlds"): for each field note but the RK3588 one (whose model lives in
 * the simulator), a pure function that turns the knob values that matter
 * into one sample of the world's latency (a key frame's processing time, a
 * message's latency, a timer wake-up's latency) and its breakdown into
 * terms, each with its cause, so that a world can say why a sample was late
 * in the words of probe/why.h (queued behind IRQ N, behind a task of
 * priority P, throttled, migrated, waited for the clock).
 *
 * Every term comes from a stated mechanism (work / clock, a residual wait
 * behind whatever holds the CPU, a throttled stretch, a cache refill, ...)
 * with constants that doc/teach.md lists with how they were derived; the
 * field notes' figures are what the constants were calibrated against, never
 * a table the model reads. Each world also lists the note's stages as knob
 * settings (its fix sequence) with the note's figure for each stage that has
 * one. Deterministic: all randomness comes from a seeded wm_rng. No I/O, no
 * allocation. Times are in microseconds. */
#ifndef TT_MODEL_WORLDMODEL_H
#define TT_MODEL_WORLDMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --- deterministic random numbers (xorshift64*, seeded by splitmix64) --- */
struct wm_rng {
	uint64_t s;
};
void wm_rng_seed(struct wm_rng *r, uint64_t seed);
uint64_t wm_rng_next(struct wm_rng *r);
double wm_rng_uniform(struct wm_rng *r);		     /* [0, 1) */
double wm_rng_range(struct wm_rng *r, double lo, double hi); /* [lo, hi) */
double wm_rng_normal(struct wm_rng *r);			     /* N(0, 1) */
bool wm_rng_chance(struct wm_rng *r, double p);		     /* true with probability p */
int wm_rng_binomial(struct wm_rng *r, int n, double p);	     /* n Bernoulli(p) draws */

/* --- one sample and its breakdown --- */

/* The cause of a term. The comment says which probe/why.h part kind the
 * framework emits for it (WP_*), where there is one. */
enum wm_cause {
	WMC_WORK,	/* the work itself at the top clock (not a delay) */
	WMC_BASE,	/* the fixed path: timer IRQ, wake-up, switch, transport */
	WMC_CLOCK_RAMP, /* ran below the top clock: the request climbing, or powersave */
	WMC_RATE_LIMIT, /* ran below the top clock: the request waited for the rate limit */
	WMC_IRQ,	/* queued behind an IRQ handler or IRQ thread (id = irq) -> WP_IRQ */
	WMC_TASK,	/* queued behind a task of higher or equal priority -> WP_TASK */
	WMC_THROTTLED,	/* the RT class was throttled -> WP_TASK, WR_RT_THROTTLED */
	WMC_MIGRATION,	/* woken on another CPU (remote wake-up) -> WP_TASK, WR_MIGRATION */
	WMC_CACHE,	/* cache lines refilled (evicted, cold after a migration, shared) */
	WMC_IDLE_EXIT,	/* the CPU left an idle state (id = state) -> WP_IDLE_EXIT */
	WMC_POLL,	/* waited for the next poll of a polled queue */
	WMC__COUNT
};
const char *wm_cause_name(enum wm_cause c);

#define WM_NAME_LEN  24
#define WM_TERMS_MAX 8

struct wm_term {
	enum wm_cause cause;
	int id;			/* irq number, tid, idle state index; -1 */
	char name[WM_NAME_LEN]; /* irq name, comm, state name; "" */
	int prio;		/* WMC_TASK / WMC_IRQ thread: chrt's priority (FIFO 1..99), -1 */
	double us;
};

struct wm_sample {
	double total_us; /* the sum of the terms */
	size_t n_terms;
	struct wm_term terms[WM_TERMS_MAX];
};

/* Helpers for the models: add a term (ignored when us <= 0 or the sample is
 * full, which a model never lets happen) and the largest delay term (not
 * WMC_WORK / WMC_BASE), NULL when there is none. */
void wm_sample_clear(struct wm_sample *s);
void wm_sample_add(struct wm_sample *s, enum wm_cause c, int id, const char *name, int prio,
		   double us);
const struct wm_term *wm_sample_main_cause(const struct wm_sample *s);
double wm_sample_term_us(const struct wm_sample *s, enum wm_cause c);

/* --- schedutil: a camera's key frame under schedutil's rate limits --- */
enum wm_gov { WM_GOV_SCHEDUTIL, WM_GOV_PERFORMANCE, WM_GOV_POWERSAVE };
struct wm_schedutil_in {
	enum wm_gov governor;
	unsigned up_rate_limit_us;     /* mainline's rate_limit_us sets both */
	unsigned down_rate_limit_us;   /* affects the clock after the frame only */
	unsigned min_khz, max_khz;     /* scaling_min_freq / scaling_max_freq */
	double frame_work_ms;	       /* a key frame's work at 1800 MHz (mean) */
	double frame_work_cv;	       /* its relative spread (frame content) */
	double bg_util_lo, bg_util_hi; /* the pipeline's utilisation before a key frame */
};
void wm_schedutil_defaults(struct wm_schedutil_in *in);
int wm_schedutil_sample(const struct wm_schedutil_in *in, struct wm_rng *r, struct wm_sample *out);
/* The A72 cluster's OPPs (kHz), ascending. */
extern const unsigned wm_schedutil_opp_khz[];
extern const size_t wm_schedutil_n_opp;
/* The lowest OPP >= khz inside [min, max] (the policy's limits); the highest
 * inside them if none is as high; 0 if none is inside. */
double wm_schedutil_opp_at_least(const struct wm_schedutil_in *in, double khz);
#define WM_SU_HEADROOM 1.25 /* next_freq = 1.25 x max x util / max (field note 2) */
#define WM_SU_PELT_US  1024 /* a PELT period: util (and so the request) moves once per period */

/* --- stm32mp1-rpmsg: one RPMsg message Cortex-A7 (Linux) -> Cortex-M4 --- */
struct wm_rpmsg_in {
	bool polling; /* the virtio back end polls the vring */
	unsigned poll_interval_us;
	bool shared_cached;	   /* TX/RX buffers share cache lines, M4 D-cache on them */
	bool ipi_top_prio;	   /* the IPI above UART/SPI on the M4's NVIC */
	bool batching;		   /* small commands batched every 2 ms */
	unsigned small_msgs_per_s; /* the tiny control messages besides the measured one */
};
void wm_rpmsg_defaults(struct wm_rpmsg_in *in);
int wm_rpmsg_sample(const struct wm_rpmsg_in *in, struct wm_rng *r, struct wm_sample *out);

/* --- am5729-affinity: cyclictest on a dual Cortex-A15, PREEMPT_RT --- */
struct wm_affinity_in {
	bool load;		 /* stress-ng FFT pinned to load_cpu */
	int load_cpu;		 /* 0 */
	uint32_t isolcpus;	 /* mask of isolated CPUs (isolcpus=1 -> 0x2) */
	uint32_t probe_affinity; /* cyclictest's sched_setaffinity mask (0x3 = both) */
};
void wm_affinity_defaults(struct wm_affinity_in *in);
/* The model keeps the CPU the probe last ran on between samples: *cpu (-1
 * at the start) is read and updated. */
int wm_affinity_sample(const struct wm_affinity_in *in, struct wm_rng *r, int *cpu,
		       struct wm_sample *out);

/* --- rt-base-station: the LTE L2 thread's 1 ms wake-up on a B4860 --- */
enum wm_kernel { WM_KERNEL_NONRT, WM_KERNEL_PREEMPT_RT };
struct wm_rtbs_in {
	enum wm_kernel kernel;
	int l2_fifo;		/* the L2 thread's SCHED_FIFO priority; 0 = SCHED_OTHER */
	int eth_irq_fifo;	/* the Ethernet IRQ thread's priority (PREEMPT_RT) */
	bool eth_irq_on_l2_cpu; /* the IRQ's affinity includes the L2 CPU */
	int mgmt_fifo;		/* the management threads' FIFO priority; 0 = CFS */
	bool l2_cpu_isolated;	/* isolcpus + nohz_full + rcu_nocbs + affinity: only L2 there */
	long rt_runtime_us;	/* sched_rt_runtime_us; -1 = no throttling */
	long rt_period_us;	/* sched_rt_period_us */
	bool deep_idle;		/* the deep idle state (PW20) enabled on the L2 CPU */
	/* the share of the management threads that are ahead of L2 (FIFO >= its
	 * priority, able to run on its CPU): their load RB_MGMT_DUTY is split
	 * evenly among them; 1 = all (the default) */
	double mgmt_ahead_share;
	/* a runaway RT thread that can run on the L2 CPU (the tree's
	 * pm_collector put under SCHED_FIFO): it takes every RT cycle left, so
	 * the RT demand there is the whole CPU; its FIFO priority, 0 = none
	 * (the default, the note's stages) */
	int runaway_fifo;
};
void wm_rtbs_defaults(struct wm_rtbs_in *in);
int wm_rtbs_sample(const struct wm_rtbs_in *in, struct wm_rng *r, struct wm_sample *out);
/* The RT demand on the L2 CPU (share of the CPU the RT threads there ask
 * for) under these settings. */
double wm_rtbs_rt_demand(const struct wm_rtbs_in *in);

/* --- the worlds as data: stages and figures --- */
/* Any world's input. */
union wm_in {
	struct wm_schedutil_in su;
	struct wm_rpmsg_in rpmsg;
	struct wm_affinity_in aff;
	struct wm_rtbs_in rtbs;
};

enum wm_stat {
	WM_STAT_MEAN,	    /* mean of the samples */
	WM_STAT_SD,	    /* standard deviation (population) */
	WM_STAT_MAX,	    /* largest sample */
	WM_STAT_FRAC_UNDER, /* share of samples below arg_us (0..1) */
};
const char *wm_stat_name(enum wm_stat s);

#define WM_FIGURES_MAX 3

/* One figure of the note. With ref >= 0 the figure is a ratio: the stage's
 * statistic divided by the same statistic of stage ref (AM5729: max -33 %
 * is a ratio of 0.67). */
struct wm_figure {
	enum wm_stat stat;
	double value; /* us, a ratio, or a share */
	double arg_us;
	int ref;
};

struct wm_stage {
	const char *name;		/* "A default" */
	const char *settings;		/* the settings in force: tunetop addresses, boot
					 * parameters, or (firmware) the change in words */
	void (*input)(union wm_in *in); /* fills the world's input for this stage */
	size_t n_figures;		/* 0: a step the note gives no figure for */
	struct wm_figure figures[WM_FIGURES_MAX];
};

struct wm_world {
	const char *name;   /* --demo=NAME */
	const char *board;  /* "STM32MP157" */
	const char *note;   /* the field note it stands for */
	const char *metric; /* what one sample is */
	void (*defaults)(union wm_in *in);
	/* One sample; state: the world's carried state (the AM5729 probe's
	 * CPU), initialised to -1 by the caller. */
	int (*sample)(const union wm_in *in, struct wm_rng *r, int *state, struct wm_sample *out);
	size_t n_samples; /* how many samples a stage's figures are taken over */
	size_t n_stages;
	const struct wm_stage *stages;
};

/* What a model file (worldmodel_<name>.c) writes once per world:
 * WM_HOOKS(name, field) defines its wm_world hooks defaults() and sample()
 * (the model's wm_<name>_defaults() and wm_<name>_sample() on in->field, a
 * model without carried state); WM_STAGE(fn, prev, changes) a stage's
 * input: stage prev's (or defaults), then the changes; WM_FIG(stat, value)
 * a figure of the note that is not a ratio. */
#define WM_HOOKS(NAME, FIELD)                                                                      \
	static void defaults(union wm_in *in)                                                      \
	{                                                                                          \
		wm_##NAME##_defaults(&in->FIELD);                                                  \
	}                                                                                          \
	static int sample(const union wm_in *in, struct wm_rng *r, int *state,                     \
			  struct wm_sample *out)                                                   \
	{                                                                                          \
		(void)state;                                                                       \
		return wm_##NAME##_sample(&in->FIELD, r, out);                                     \
	}
#define WM_STAGE(FN, PREV, ...)                                                                    \
	static void FN(union wm_in *in)                                                            \
	{                                                                                          \
		PREV(in);                                                                          \
		__VA_ARGS__;                                                                       \
	}
#define WM_FIG(s, v)                                                                               \
	{                                                                                          \
		.stat = (s), .value = (v), .arg_us = 0, .ref = -1                                  \
	}
/* A row of a model file's stages[]: WM_ROW(name, settings, input) for a
 * step the note gives no figure for, WM_ROW_FIGS(name, settings, input, n,
 * figure...) with its n figures. */
#define WM_ROW(NAME, SETTINGS, INPUT)                                                              \
	{                                                                                          \
		.name = (NAME), .settings = (SETTINGS), .input = (INPUT)                           \
	}
#define WM_ROW_FIGS(NAME, SETTINGS, INPUT, N, ...)                                                 \
	{                                                                                          \
		.name = (NAME), .settings = (SETTINGS), .input = (INPUT), .n_figures = (N),        \
		.figures = {                                                                       \
			__VA_ARGS__                                                                \
		}                                                                                  \
	}
/* A model file's wm_world: VAR with its hooks defaults() and sample() and its
 * stages[]. */
#define WM_WORLD(VAR, NAME, BOARD, NOTE, METRIC, N_SAMPLES)                                        \
	const struct wm_world VAR = {.name = (NAME),                                               \
				     .board = (BOARD),                                             \
				     .note = (NOTE),                                               \
				     .metric = (METRIC),                                           \
				     .defaults = defaults,                                         \
				     .sample = sample,                                             \
				     .n_samples = (N_SAMPLES),                                     \
				     .n_stages = sizeof(stages) / sizeof(stages[0]),               \
				     .stages = stages}

size_t wm_world_count(void);
const struct wm_world *wm_world_at(size_t i);
const struct wm_world *wm_world_find(const char *name);

/* Statistics of n samples of a world under `in` (seeded): mean, SD, max and
 * the share under frac_under_us. 0 or -EINVAL (n == 0). */
struct wm_stats {
	double mean_us, sd_us, max_us, frac_under;
};
int wm_world_stats(const struct wm_world *w, const union wm_in *in, uint64_t seed, size_t n,
		   double frac_under_us, struct wm_stats *out);
/* A stage's value of one figure: the statistic over w->n_samples samples
 * (divided by stage ref's when the figure is a ratio). NAN on a bad index. */
double wm_stage_figure(const struct wm_world *w, size_t stage, size_t fig, uint64_t seed);

#endif
