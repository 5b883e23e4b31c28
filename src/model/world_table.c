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

static const struct world_def world_table[] = {
	{
		.name = "rk3588-npu",
		.board = "RK3588",
		.note = "field note 1: RK3588 NPU inference jitter (governor collapse to 408 MHz, "
			"DDR devfreq, cpu-sleep exit latency)",
		.bundle = "rk3588-demo.tar",
		.log = "var/log/infer.log",
		.setup = world_rk3588_setup,
		.before_step = world_rk3588_before,
		.after_step = world_rk3588_after,
		.probe_sample = world_rk3588_probe,
	},
	{
		.name = "schedutil",
		.board = "BCM2711",
		.note = "field note 2: schedutil rate limits (a camera's key-frame time SD "
			"23 -> 9 ms)",
		.bundle = "rpi4-demo.tar",
		.log = "var/log/camera.log",
		.wm = &world_wm_schedutil,
		.setup = world_wm_setup,
		.after_step = world_wm_after,
		.probe_sample = world_schedutil_probe,
	},
	{
		.name = "stm32mp1-rpmsg",
		.board = "STM32MP157",
		.note = "field note 3: OpenAMP/RPMsg A7 -> M4 (112 -> 43 us, +-38 -> +-8 us)",
		.bundle = "stm32mp157-demo.tar",
		.log = "var/log/rpmsg.log",
		.wm = &world_wm_rpmsg,
		.setup = world_wm_setup,
		.after_step = world_wm_after,
		.probe_sample = world_wm_probe,
	},
	{
		.name = "am5729-affinity",
		.board = "AM5729",
		.note = "field note 4: CPU affinity for industrial control (cyclictest under an "
			"FFT load, pinned to the isolated CPU: max -33 %)",
		.bundle = "am5729-demo.tar",
		.log = "var/log/cyclictest.log",
		.wm = &world_wm_affinity,
		.setup = world_wm_setup,
		.after_step = world_wm_after,
		.probe_sample = world_wm_probe,
	},
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
