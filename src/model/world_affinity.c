/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The world am5729-affinity (see world_affinity.h): cyclictest -p99 -i 1000
 * on the AM5729 tree, idle or with stress-ng's FFT worker, one wake-up
 * latency per 1 ms in var/log/cyclictest.log. The knobs that move it:
 * thread/TID/affinity of cyclictest's RT thread and of the stress-ng
 * worker, isolcpus= on the command line; the worker's state (a stopped
 * worker, `kill -STOP`, is no load). */
#include "model/world_affinity.h"

#include <stddef.h>
#include <string.h>

#include "model/world_proc.h"
#include "model/world_wm.h"
#include "model/worldmodel.h"
#include "source/threads.h"

void world_affinity_read(const struct sysroot *r, union wm_in *in)
{
	struct wm_affinity_in *a = &in->aff;
	struct thread_table t = {0};
	const struct thread_info *probe, *load;
	struct cpumask iso, m;

	world_proc_isolated(r, &iso);
	a->isolcpus = world_proc_bits(&iso);
	if (threads_read(r, THREADS_KERNEL, &t) != 0)
		return;
	probe = world_proc_find(&t, WA_PROBE_COMM, true);
	if (probe && !cpumask_empty(&probe->affinity) && world_proc_bits(&probe->affinity))
		a->probe_affinity = world_proc_bits(&probe->affinity);
	a->load = false;
	for (size_t i = 0; i < t.n; i++) {
		load = &t.t[i];
		if (strcmp(load->comm, WA_LOAD_COMM) || strchr("TtZX", load->state))
			continue;
		world_proc_usable(load, &iso, &m);
		if (!cpumask_empty(&m) && cpumask_next(&m, 0) < 2) {
			a->load = true;
			a->load_cpu = cpumask_next(&m, 0);
			break;
		}
	}
	threads_free(&t);
}

/* The application's processes in the world's tree (the bundle leaves the
 * fixture's proc/PID out; the same threads as tests/fixtures/am5729/proc):
 * cyclictest -p99 -m -i 1000 -t1 -n (its measuring thread 1204 at FIFO 99)
 * and stress-ng --cpu 1 --cpu-method fft --taskset 0 (its worker 1181
 * running on CPU 0). */
static const struct world_wm_thread threads[] = {
	WM_THREAD(1180, 1180, "stress-ng", 0, 0, 0, "0", 'S'),
	WM_THREAD(1181, 1181, WA_LOAD_COMM, 0, 0, 0, "0", 'R'),
	WM_THREAD(1203, 1203, WA_PROBE_COMM, 0, 0, 0, "0-1", 'S'),
	WM_THREAD(1203, 1204, WA_PROBE_COMM, 1, 99, 0, "0-1", 'S'),
};

/* What the note did that is no knob of the running board: the reboot with
 * isolcpus=1, stopping the load (SIMULATED switches, knob/sim_kind.h). */
static const struct world_wm_switch switches[] = {
	WM_SWITCH_CMDLINE,
	{"load/stress-ng", "@state:1181", "running stopped",
	 "stress-ng's FFT worker (pid 1181): running, or stopped as by kill -STOP"},
};

const struct world_wm world_wm_affinity = {
	/* cyclictest -i 1000 */
	WORLD_WM_MODEL("am5729-affinity", world_affinity_read, 0.001,
		       "[cyclictest] T: 0 latency:", "us", 1),
	WORLD_WM_LIST(threads, threads),
	WORLD_WM_LIST(switches, switches),
};
