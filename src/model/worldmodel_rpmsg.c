/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `stm32mp1-rpmsg` world (field note 3): one RPMsg control message from
 * Linux on the Cortex-A7 to FreeRTOS on the Cortex-M4 of an STM32MP157
 * audio gateway, from rpmsg_send() to the endpoint callback on the M4.
 *
 * Terms of one message (us), each a mechanism with its constant:
 *  - WMC_BASE: the fixed path (kick through the mailbox, the IPI, the M4's
 *    handler, the copy of the buffer, the endpoint callback): RP_BASE_US;
 *  - WMC_POLL: with the polled back end the message waits for the next
 *    poll: U(0, poll_interval_us);
 *  - WMC_CACHE: with shared, cached buffers each of the RP_LINES cache lines
 *    a message touches is dirty in the other core's cache with probability
 *    RP_LINE_P and costs RP_LINE_US to bring back (Binomial count);
 *  - WMC_IRQ: with the IPI below UART/SPI on the M4's NVIC it waits for a
 *    running UART/SPI handler (busy a share RP_UART_DUTY of the time) to
 *    finish: U(0, RP_UART_MAX_US) when one runs;
 *  - WMC_TASK: the M4's audio task (above the RPMsg task) holds the CPU a
 *    share RP_AUDIO_DUTY of the time, for U(0, RP_AUDIO_MAX_US) more; and
 *    other tiny messages ahead of ours (rate small_msgs_per_s, RP_MSG_US
 *    each; batching sends 15 % of the frames, note's -85 %).
 * Interrupt-driven reception removes WMC_POLL; separate aligned buffers in a
 * non-cached region remove WMC_CACHE; the IPI at top priority removes
 * WMC_IRQ. The vring's size and message loss are not modelled. */
#include "model/worldmodel.h"

#include <errno.h>

#define RP_BASE_US	37.0 /* calibrated: the tuned mean 43 minus the audio task's 6 */
#define RP_LINES	4    /* a 64-byte payload + header and vring index, 32-byte lines */
#define RP_LINE_P	0.5  /* each line last written by the other core */
#define RP_LINE_US	6.0  /* a thrashed line: write-back + refill over the AXI */
#define RP_UART_DUTY	0.25 /* share of the M4's time in UART/SPI handlers */
#define RP_UART_MAX_US	82.0 /* the longest M4 interrupt (note: 82 us before the fix) */
#define RP_AUDIO_DUTY	0.5  /* the audio task's share of the M4 */
#define RP_AUDIO_MAX_US 24.0 /* its longest stretch: its own jitter +-8 us gives it */
#define RP_MSG_US	25.0 /* one tiny message's frame + interrupt on the M4 */
#define RP_BATCH_SHARE	0.15 /* frames left with batching (note: -85 %) */

void wm_rpmsg_defaults(struct wm_rpmsg_in *in)
{
	in->polling = true;
	in->poll_interval_us = 100;
	in->shared_cached = true;
	in->ipi_top_prio = false;
	in->batching = false;
	in->small_msgs_per_s = 400;
}

int wm_rpmsg_sample(const struct wm_rpmsg_in *in, struct wm_rng *r, struct wm_sample *out)
{
	double rate = in->small_msgs_per_s * (in->batching ? RP_BATCH_SHARE : 1.0);

	wm_sample_clear(out);
	if (in->polling && in->poll_interval_us == 0)
		return -EINVAL;
	wm_sample_add(out, WMC_BASE, -1, "mailbox+copy", -1, RP_BASE_US);
	if (in->polling)
		wm_sample_add(out, WMC_POLL, -1, "vring poll", -1,
			      wm_rng_range(r, 0, in->poll_interval_us));
	if (in->shared_cached)
		wm_sample_add(out, WMC_CACHE, -1, "shared buffers", -1,
			      wm_rng_binomial(r, RP_LINES, RP_LINE_P) * RP_LINE_US);
	if (!in->ipi_top_prio && wm_rng_chance(r, RP_UART_DUTY))
		wm_sample_add(out, WMC_IRQ, -1, "UART/SPI", -1, wm_rng_range(r, 0, RP_UART_MAX_US));
	if (wm_rng_chance(r, RP_AUDIO_DUTY))
		wm_sample_add(out, WMC_TASK, -1, "audio task", -1,
			      wm_rng_range(r, 0, RP_AUDIO_MAX_US));
	if (wm_rng_chance(r, rate * RP_MSG_US * 1e-6))
		wm_sample_add(out, WMC_TASK, -1, "earlier message", -1,
			      wm_rng_range(r, 0, RP_MSG_US));
	return 0;
}

WM_HOOKS(rpmsg, rpmsg)
WM_STAGE(stage_b, defaults, in->rpmsg.polling = false)
WM_STAGE(stage_c, stage_b, in->rpmsg.shared_cached = false)
WM_STAGE(stage_d, stage_c, in->rpmsg.ipi_top_prio = true)
WM_STAGE(stage_e, stage_d, in->rpmsg.batching = true)

static const struct wm_stage stages[] = {
	WM_ROW_FIGS("A default (polled vring)",
		    "virtio back end polling, shared cached buffers, IPI below UART/SPI", defaults,
		    2, WM_FIG(WM_STAT_MEAN, 112), WM_FIG(WM_STAT_SD, 38)),
	WM_ROW("B interrupt-driven", "+ interrupt-driven reception (no polling)", stage_b),
	WM_ROW("C separate buffers",
	       "+ separate 32-byte-aligned TX/RX buffers, non-cached region on the M4", stage_c),
	WM_ROW("D IPI top priority", "+ IPI at top NVIC priority, minimal ISR", stage_d),
	WM_ROW_FIGS("E batching, vring 16 x 512 B",
		    "+ small commands batched every 2 ms, vring 16 x 512 B", stage_e, 2,
		    WM_FIG(WM_STAT_MEAN, 43), WM_FIG(WM_STAT_SD, 8)),
};

WM_WORLD(wm_world_rpmsg, "stm32mp1-rpmsg", "STM32MP157",
	 "3. OpenAMP / RPMsg A7 <-> M4 (112 -> 43 us, +-38 -> +-8 us)",
	 "RPMsg message latency A7 -> M4", 20000);
