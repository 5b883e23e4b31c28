/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The worlds (world.h): one entry per world, its model's hooks in
 * world_<name>.c. Another world is one entry here and its model file. A
 * registration table (tests/cli/structure.sh): its references to the
 * models' hooks are data, not calls. */
#include <stddef.h>
#include <string.h>

#include "model/world.h"
#include "model/world_affinity.h"
#include "model/world_rk3588.h"
#include "model/world_rtbs.h"
#include "model/world_schedutil.h"
#include "model/world_wm.h"

/* the model worlds (world_wm.h): world_<name>.c */
extern const struct world_wm world_wm_schedutil, world_wm_rpmsg;

/* An entry: the world's name, board, note, bundle and log, and its hooks.
 * A model world's hooks are the adapter's (world_wm.h) on its struct
 * world_wm. */
#define WORLD_DEF(NAME, BOARD, NOTE, BUNDLE, LOG, WM, SETUP, BEFORE, AFTER, PROBE)                 \
	{                                                                                          \
		.name = (NAME), .board = (BOARD), .note = (NOTE), .bundle = (BUNDLE),              \
		.log = (LOG), .wm = (WM), .setup = (SETUP), .before_step = (BEFORE),               \
		.after_step = (AFTER), .probe_sample = (PROBE)                                     \
	}
#define WORLD_WM_DEF(NAME, BOARD, NOTE, BUNDLE, LOG, WM)                                           \
	WORLD_DEF(NAME, BOARD, NOTE, BUNDLE, LOG, WM, world_wm_setup, NULL, world_wm_after,        \
		  world_wm_probe)

static const struct world_def world_table[] = {
	WORLD_DEF("rk3588-npu", "RK3588",
		  "field note 1: RK3588 NPU inference jitter (governor collapse to 408 MHz, "
		  "DDR devfreq, cpu-sleep exit latency)",
		  "rk3588-demo.tar", "var/log/infer.log", NULL, world_rk3588_setup,
		  world_rk3588_before, world_rk3588_after, world_rk3588_probe),
	/* its probe is a timer wake-up at the governor's clock (world_schedutil.h) */
	WORLD_DEF("schedutil", "BCM2711",
		  "field note 2: schedutil rate limits (a camera's key-frame time SD "
		  "23 -> 9 ms)",
		  "rpi4-demo.tar", "var/log/camera.log", &world_wm_schedutil, world_wm_setup, NULL,
		  world_wm_after, world_schedutil_probe),
	WORLD_WM_DEF("stm32mp1-rpmsg", "STM32MP157",
		     "field note 3: OpenAMP/RPMsg A7 -> M4 (112 -> 43 us, +-38 -> +-8 us)",
		     "stm32mp157-demo.tar", "var/log/rpmsg.log", &world_wm_rpmsg),
	WORLD_WM_DEF("am5729-affinity", "AM5729",
		     "field note 4: CPU affinity for industrial control (cyclictest under an "
		     "FFT load, pinned to the isolated CPU: max -33 %)",
		     "am5729-demo.tar", "var/log/cyclictest.log", &world_wm_affinity),
	/* its probe names the tree's threads and has l2_tti's priority (world_rtbs.h) */
	{
		.name = "rt-base-station",
		.board = "B4860",
		.note = "field note 5: PREEMPT_RT base station (RT throttling, the Ethernet IRQ on "
			"the L2 CPU, priorities: L2 max 300 -> 35 us)",
		.bundle = "b4860-demo.tar",
		.log = "var/log/lte_l2.log",
		.wm = &world_wm_rtbs,
		.setup = world_wm_setup,
		.after_step = world_wm_after,
		.probe_sample = world_rtbs_probe,
		.probe_prio = world_rtbs_probe_prio,
		.probe_place = world_rtbs_probe_place,
	},
};

size_t world_count(void)
{
	return sizeof(world_table) / sizeof(world_table[0]);
}

const struct world_def *world_at(size_t i)
{
	return i < world_count() ? &world_table[i] : NULL;
}

const struct world_def *world_find(const char *name)
{
	for (size_t i = 0; name && i < world_count(); i++)
		if (!strcmp(world_table[i].name, name))
			return &world_table[i];
	return NULL;
}
