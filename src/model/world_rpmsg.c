/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The world `stm32mp1-rpmsg` (field note 3; doc/teach.md "Worlds"): RPMsg
 * control messages from Linux on the Cortex-A7 to FreeRTOS on the M4 of an
 * STM32MP157 audio gateway; the latency is worldmodel_rpmsg.c's. What
 * changes it is the M4 firmware's build (polling, buffers, NVIC priority,
 * batching), which has no sysfs file on a board: the world keeps it as
 * SIMULATED firmware switches, one file each under RP_FW, that the user
 * changes with the knobs sim/m4/<switch> (model/world_wm.h is the
 * adapter, fam_sim.c the knob family). */
#include "model/world_wm.h"
#include "model/worldmodel.h"
#include "sysfs/sysroot.h"

#define RP_FW "etc/SIMULATED-m4-firmware/"

static const struct world_wm_file files[] = {
	{RP_FW "README",
	 "SIMULATED firmware switches of the M4 (tunetop world stm32mp1-rpmsg).\n"
	 "No board has these files: they stand for how the FreeRTOS firmware is\n"
	 "built. Change them with tunetop --root DIR set sim/m4/NAME=VALUE (journaled,\n"
	 "undone by tunetop undo); the world reads them at each step. See\n"
	 "doc/teach.md \"Worlds\".\n"},
	{RP_FW "vring_polling", "1\n"},
	{RP_FW "poll_interval_us", "100\n"},
	{RP_FW "shared_cached_buffers", "1\n"},
	{RP_FW "ipi_top_priority", "0\n"},
	{RP_FW "batching", "0\n"},
	{RP_FW "small_msgs_per_s", "400\n"},
};

static const struct world_wm_switch switches[] = {
	{"m4/vring_polling", RP_FW "vring_polling", "0 1",
	 "the M4 polls the vring (1) or waits for the mailbox IPI (0)"},
	{"m4/poll_interval_us", RP_FW "poll_interval_us", "10..10000",
	 "how often a polling M4 looks at the vring (us)"},
	{"m4/shared_cached_buffers", RP_FW "shared_cached_buffers", "0 1",
	 "message buffers in cached memory shared with the A7 (1) or separate (0)"},
	{"m4/ipi_top_priority", RP_FW "ipi_top_priority", "0 1",
	 "the mailbox IPI at the top NVIC priority on the M4"},
	{"m4/batching", RP_FW "batching", "0 1", "small control messages batched into one"},
	{"m4/small_msgs_per_s", RP_FW "small_msgs_per_s", "0..100000",
	 "small control messages per second the gateway sends"},
};

/* audio_gw on the A7s: its RPMsg control thread, the command queue; the
 * mailbox's IRQ thread */
static const struct world_wm_thread threads[] = {
	WM_THREAD(912, 912, "audio_gw", 0, 0, 0, "0-1", 'S'),
	WM_THREAD(912, 915, "rpmsg_ctrl", 1, 40, 0, "0-1", 'S'),
	WM_THREAD(912, 916, "cmd_queue", 0, 0, 0, "0-1", 'S'),
	WM_THREAD(131, 131, "irq/52-mailbox", 1, 50, 0, "0", 'S'),
};

static void read_in(const struct sysroot *r, union wm_in *in)
{
	struct wm_rpmsg_in *p = &in->rpmsg;

	world_wm_read_flag(r, RP_FW "vring_polling", &p->polling);
	world_wm_read_flag(r, RP_FW "shared_cached_buffers", &p->shared_cached);
	world_wm_read_flag(r, RP_FW "ipi_top_priority", &p->ipi_top_prio);
	world_wm_read_flag(r, RP_FW "batching", &p->batching);
	world_wm_read_unsigned(r, RP_FW "poll_interval_us", &p->poll_interval_us);
	world_wm_read_unsigned(r, RP_FW "small_msgs_per_s", &p->small_msgs_per_s);
}

const struct world_wm world_wm_rpmsg = {
	WORLD_WM_MODEL("stm32mp1-rpmsg", read_in, 0.005, "[rpmsg] latency:", "us", 1.0),
	.quiet = true,
	WORLD_WM_LIST(files, files),
	WORLD_WM_LIST(threads, threads),
	WORLD_WM_LIST(switches, switches),
};
