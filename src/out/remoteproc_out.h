/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Remote processors section of the JSON snapshot and of the text report. */
#ifndef TT_OUT_REMOTEPROC_OUT_H
#define TT_OUT_REMOTEPROC_OUT_H

#include "core/json.h"
#include "core/str.h"
#include "source/irqs.h"
#include "source/remoteproc.h"

/* Inside the caller's open object, two keys (always written, [] when none):
 *   "remoteproc": [ { "name": "remoteproc0", "fw_name": "m4", "state": "running",
 *                     "firmware": "rproc-m4-fw.elf", "trace": "last lines"|null } ],
 *   "rpmsg": [ { "dev": "virtio0.rpmsg-tty.-1.0", "name": "rpmsg-tty",
 *                "src": 1024|null, "dst": 0|null, "remoteproc": "remoteproc0"|null } ],
 * and with irqs (the snapshot's table, NULL when not sampled) where there are
 * remote processors, the interrupts that serve them (mailbox / IPI rows, as
 * the TUI marks R):
 *   "remoteproc_irqs": [ { "label": "51", "name": "4c001000.mailbox" } ] */
void out_remoteproc_json(struct jw *w, const struct remoteproc_info *info,
			 const struct irq_table *irqs);
/* "Remote cores" section; nothing at all when there are no remote
 * processors and no rpmsg channels. */
void out_remoteproc_text(struct sbuf *b, const struct remoteproc_info *info,
			 const struct irq_table *irqs);

#endif
