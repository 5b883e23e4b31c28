/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The start handshake of the probe and load threads: each thread says once
 * that it is ready (pinned and scheduled, or failed), and the starter waits
 * until as many as it started have said so. Never used while measuring. */
#ifndef TT_PROBE_READYGATE_H
#define TT_PROBE_READYGATE_H

#include <pthread.h>

struct ready_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int nready;
};

void ready_gate_init(struct ready_gate *g);
void ready_gate_destroy(struct ready_gate *g);
/* A thread is ready: count it and wake the starter. */
void ready_gate_arrive(struct ready_gate *g);
/* Wait until n threads have arrived. */
void ready_gate_wait(struct ready_gate *g, int n);

#endif
