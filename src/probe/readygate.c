/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The start handshake of the probe and load threads (readygate.h): a
 * counter under a mutex and a condition variable. */
#include "probe/readygate.h"

void ready_gate_init(struct ready_gate *g)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	g->nready = 0;
}

void ready_gate_destroy(struct ready_gate *g)
{
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->cond);
}

void ready_gate_arrive(struct ready_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->nready++;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

void ready_gate_wait(struct ready_gate *g, int n)
{
	pthread_mutex_lock(&g->lock);
	while (g->nready < n)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}
