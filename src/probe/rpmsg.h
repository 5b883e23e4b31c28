/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RPMsg round trip (`probe --rpmsg DEV`): timestamped messages through an
 * rpmsg tty (/dev/ttyRPMSGn with the usual echo firmware on the remote core),
 * each echo's round trip recorded into a probe histogram (histogram.h).
 *
 * The tty is put in raw mode (cfmakeraw) for the run and restored after.
 * A message is `size` bytes: "TTRP", the sequence number (u32, little
 * endian), the CLOCK_MONOTONIC send time in ns (u64, little endian), then a
 * fill pattern derived from the sequence number. One message is in flight
 * at a time; the next is sent `interval_us` after the previous one (at once
 * when the echo took longer).
 *
 * An echo not complete within timeout_ms counts as lost (the partial bytes
 * are flushed). An echo of an earlier, lost message arriving late is
 * counted as late and skipped. Anything else (wrong magic, a sequence number
 * never sent, a changed payload) is garbage and ends the run, as does a
 * device that disappears (EIO, ENODEV, EOF or a hang-up): rpmsg_step then
 * returns -errno with why set to one line. */
#ifndef TT_PROBE_RPMSG_H
#define TT_PROBE_RPMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <termios.h>

#include "probe/histogram.h"

#define RPMSG_MIN_SIZE		  16
#define RPMSG_MAX_SIZE		  496 /* rpmsg payload in a 512-byte buffer */
#define RPMSG_DEFAULT_SIZE	  32
#define RPMSG_DEFAULT_INTERVAL_US 10000
#define RPMSG_DEFAULT_TIMEOUT_MS  1000

struct rpmsg_cfg {
	const char *dev;
	size_t size;
	uint64_t interval_us;
	uint64_t timeout_ms;
};

struct rpmsg_run {
	struct rpmsg_cfg cfg;
	int fd;
	bool have_tio;
	struct termios saved;
	struct hist hist; /* round trips */
	uint64_t sent, received, lost, late;
	uint32_t seq;	       /* of the next message */
	uint64_t next_ns;      /* when the next message goes out */
	uint64_t last_send_ns; /* of the last message */
	unsigned char *tx, *rx;
	size_t have; /* bytes of the current echo received so far */
	char why[256];
};

/* Open the device, raw mode. 0 or -errno with why set. */
int rpmsg_open(struct rpmsg_run *r, const struct rpmsg_cfg *cfg);
/* Wait until the next send time (or until deadline_ns, CLOCK_MONOTONIC),
 * send one message and wait for its echo or the timeout. Returns 1 when the
 * deadline came first (nothing sent), 0 after a message (echoed or lost),
 * or -errno for the end of the run (why set). *rtt_ns is the round trip of
 * this message, 0 when it was lost. */
int rpmsg_step(struct rpmsg_run *r, uint64_t deadline_ns, uint64_t *rtt_ns);
/* Restore the terminal settings and close. */
void rpmsg_close(struct rpmsg_run *r);

/* Message building and checking (pure; for tests). */
void rpmsg_build(unsigned char *buf, size_t size, uint32_t seq, uint64_t t_ns);
/* 0: a message of this run with its seq and time; -EBADMSG: not one. */
int rpmsg_parse(const unsigned char *buf, size_t size, uint32_t *seq, uint64_t *t_ns);

#endif
