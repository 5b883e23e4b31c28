/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Remote processors (OpenAMP / RPMsg): /sys/class/remoteproc/remoteprocN
 * (name, state, firmware), their trace buffers in debugfs
 * (sys/kernel/debug/remoteproc/remoteprocN/trace0), and the rpmsg channels
 * in /sys/bus/rpmsg/devices. The mailbox / IPI interrupt rows that serve
 * them come from the IRQ source; remoteproc_irq_related() tells the UI which
 * rows to highlight. */
#ifndef TT_SOURCE_REMOTEPROC_H
#define TT_SOURCE_REMOTEPROC_H

#include <stdbool.h>
#include <stddef.h>

#include "sysfs/sysroot.h"

struct rproc {
	char name[32];	      /* "remoteproc0" */
	char fw_name[32];     /* the `name` file: "m4", "4c000000.m4", "" = n/a */
	char state[16];	      /* "offline", "running", "crashed", "suspended", ""= n/a */
	char firmware[64];    /* "rproc-m4-fw.elf", "" = n/a */
	bool have_trace;      /* debugfs trace0 readable */
	char trace_tail[256]; /* the last lines of trace0 that fit */
};

struct rpmsg_chan {
	char dev[64];	/* "virtio0.rpmsg-tty.-1.0" */
	char name[32];	/* channel name: "rpmsg-tty" */
	int src, dst;	/* local / remote address, -1 = n/a or RPMSG_ADDR_ANY */
	char rproc[32]; /* "remoteproc0" when the device path says so, else "" */
};

struct remoteproc_info {
	size_t nproc;
	struct rproc *p;
	size_t nchan;
	struct rpmsg_chan *ch;
};

/* Fill out (zeroed first). No remoteproc class or rpmsg bus is not an error:
 * nproc = nchan = 0. Returns 0 or -errno for unexpected read failures. */
int remoteproc_read(const struct sysroot *r, struct remoteproc_info *out);
void remoteproc_free(struct remoteproc_info *info);

/* An interrupt name that serves inter-processor messaging: contains
 * "mailbox", "mbox", "ipcc", "rproc", "remoteproc", "rpmsg", "vring" or "imx_mu", or
 * "ipi" as a word ("zynqmp-ipi", "ipi_mailbox"; not the Linux "IPI0" rows).
 * Case-insensitive. */
bool remoteproc_irq_related(const char *irq_name);

/* Pure helpers (unit tests). Parse an rpmsg address file ("0x400\n",
 * "1024", "0xffffffff" = any -> -1). */
int remoteproc_parse_addr(const char *s);
/* The last lines of text that fit in cap-1 bytes (whole lines when possible),
 * without carriage returns and trailing blank lines. */
void remoteproc_tail(const char *text, char *out, size_t cap);
/* Split an rpmsg device name "virtio0.rpmsg-tty.-1.0" into name/src/dst;
 * returns 0 or -EINVAL. */
int remoteproc_parse_devname(const char *dev, char *name, size_t cap, int *src, int *dst);

#endif
