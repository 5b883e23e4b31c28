/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The built-in background load for `tunetop ab --load` (and the TUI): the
 * way people run stress-ng next to cyclictest, without a second tool.
 *
 * SPEC is a comma-separated list of items KIND:N[@LIST]:
 *   cpu:N   N threads spinning on integer arithmetic (no memory traffic)
 *   mem:N   N threads streaming read-modify-write over a private buffer
 *           larger than the last-level cache (max(64 MiB, 4 x LLC) each)
 *   @LIST   CPUs to pin the item's threads to, round robin ("cpu:2@1",
 *           "mem:4@2-3"); without it the threads of all unplaced items go
 *           round robin over the online CPUs.
 * A CPU list may itself hold commas: "cpu:2@1,3,mem:1@0" is cpu:2@1,3 and
 * mem:1@0 (a new item starts at a word with a ':').
 *
 * Every thread is pinned (at creation), SCHED_OTHER nice 0, blocks all
 * signals, and is named "tt-burn/CPU" or "tt-stream/CPU" (visible in
 * /proc/PID/task/TID/comm, top -H). Placement CPUs are CPUs of the live
 * machine whatever --root says. */
#ifndef TT_PROBE_LOAD_H
#define TT_PROBE_LOAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/cpumask.h"
#include "probe/readygate.h"

#define LOAD_MAX_THREADS   1024
#define LOAD_MEM_MIN_BYTES ((size_t)64 << 20)

enum load_kind { LOAD_CPU, LOAD_MEM };

struct load_item {
	enum load_kind kind;
	unsigned n;	     /* threads */
	bool placed;	     /* @LIST given */
	struct cpumask cpus; /* placement (when placed) */
};

struct load_spec {
	struct load_item *item;
	size_t n;
	char text[256]; /* the spec as given, for reports */
};

/* Parse SPEC. Placement CPUs must be online on the live machine. Returns 0,
 * or -EINVAL with a one-line reason in why (without "tunetop: "). */
int load_parse(const char *spec, struct load_spec *out, char *why, size_t cap);
void load_spec_free(struct load_spec *s);
/* Canonical text of a parsed spec ("cpu:1@1,mem:2"). */
void load_spec_format(const struct load_spec *s, char *buf, size_t cap);

struct load_thread {
	enum load_kind kind;
	int cpu;
	pthread_t thread;
	bool started;
	pid_t tid;	    /* set by the thread once pinned */
	int err;	    /* 0 or -errno (pinning, buffer allocation) */
	const char *err_op; /* what failed: "sched_setaffinity", "buffer" */
	void *buf;	    /* mem: the streaming buffer (owned by the thread) */
	size_t bytes;	    /* mem: its size */
	uint64_t passes;    /* mem: buffer passes; cpu: blocks of 2^16 iterations */
	struct load *owner; /* private */
};

struct load {
	int n;
	struct load_thread *thr;
	size_t mem_bytes; /* per mem thread */
	/* private */
	bool stop, stopped;
	struct ready_gate gate; /* start handshake only, never while measuring */
};

/* Buffer size of a mem thread on this machine: max(64 MiB, 4 x the largest
 * cache in /sys/devices/system/cpu/cpu0/cache). */
size_t load_mem_bytes(void);

/* Start the threads; blocks until each is pinned and (mem) has touched its
 * buffer, so errors are known on return: 0, or -errno with why set (and
 * everything already stopped). */
int load_start(struct load *l, const struct load_spec *s, char *why, size_t cap);
/* Stop and join the threads, free the buffers. Idempotent; safe after a
 * failed load_start and on a zeroed struct. */
void load_stop(struct load *l);

#endif
