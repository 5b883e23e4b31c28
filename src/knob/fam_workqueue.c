/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The workqueue knob family: workqueue/cpumask, the CPUs unbound
 * workqueues may run on (sys/devices/virtual/workqueue/cpumask, a hex mask
 * validated and written by the hex-mask helpers of knob_file.c). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"
#include "knob/knob_int.h"

/* EINVAL: no online CPU left, or (isolcpus=domain) only isolated ones. */
static const struct knob_refusal wq_refusals[] = {
	{EINVAL, "the mask must include an online housekeeping CPU (the kernel removes "
		 "isolcpus=domain CPUs and refuses a mask left empty)"},
	{0, NULL},
};

/* clang-format off */
static const struct knob_def workqueue_defs[] = {
	{ .fam = &fam_workqueue, .leaf = "cpumask", .pattern = "workqueue/cpumask",
	  .dir = "sys/devices/virtual/workqueue", .file = "cpumask", KNOB_HEXMASK_FIELDS,
	  .refusals = wq_refusals,
	  .help = "CPUs unbound workqueues (kworker/uN:M) may run on, a hex mask like "
		  "/proc/irq/N/smp_affinity; keep isolated CPUs out of it" },
};
/* clang-format on */

KNOB_FAMILY(workqueue);

/* ---- typed addresses (knob_addr.h) ---- */

KNOB_ADDR_BUILDER(knob_addr_workqueue_cpumask, (void), "workqueue/cpumask")
