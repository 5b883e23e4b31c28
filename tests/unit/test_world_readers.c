/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The readers of the worlds am5729-affinity and rt-base-station (issue 35):
 * the board trees as delivered give the model's input of the note's stage
 * they stand for (am5729: C, the load on CPU 0 with cyclictest free;
 * b4860: B, the PREEMPT_RT default), and the isolation parser reads
 * isolcpus= with its flags. The knob changes themselves are driven through
 * the CLI by tests/world/am5729.sh and tests/world/rtbs.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/world_affinity.h"
#include "model/world_proc.h"
#include "model/world_rtbs.h"
#include "model/worldmodel.h"
#include "sysfs/sysroot.h"
#include "tap.h"

static const struct wm_stage *stage(const char *world, const char *prefix)
{
	const struct wm_world *w = wm_world_find(world);

	for (size_t i = 0; w && i < w->n_stages; i++)
		if (!strncmp(w->stages[i].name, prefix, strlen(prefix)))
			return &w->stages[i];
	return NULL;
}

static void test_am5729(void)
{
	struct sysroot r;
	union wm_in in, want;
	const struct wm_stage *c = stage("am5729-affinity", "C ");

	if (sysroot_open(&r, fixture("am5729")) != 0) {
		ok(0, "open the am5729 fixture");
		return;
	}
	wm_affinity_defaults(&in.aff);
	world_affinity_read(&r, &in);
	ok(in.aff.load, "stress-ng-cpu runs: the load is on");
	is_int(in.aff.load_cpu, 0, "on CPU 0 (its affinity)");
	is_int((int)in.aff.isolcpus, 0, "no isolcpus at boot");
	is_int((int)in.aff.probe_affinity, 3, "cyclictest's FIFO thread may run on 0-1");
	ok(c != NULL, "the model has stage C");
	if (c) {
		memset(&want, 0, sizeof(want));
		c->input(&want);
		ok(!memcmp(&in.aff, &want.aff, sizeof(in.aff)),
		   "the board as delivered is the note's stage C (load on CPU 0, cyclictest free)");
	}
	sysroot_close(&r);
}

static void test_b4860(void)
{
	struct sysroot r;
	union wm_in in, want;
	const struct wm_stage *b = stage("rt-base-station", "B ");

	if (sysroot_open(&r, fixture("b4860")) != 0) {
		ok(0, "open the b4860 fixture");
		return;
	}
	memset(&in, 0, sizeof(in));
	wm_rtbs_defaults(&in.rtbs);
	/* start from values the reader must overwrite */
	in.rtbs.l2_fifo = in.rtbs.mgmt_fifo = in.rtbs.eth_irq_fifo = 7;
	in.rtbs.kernel = WM_KERNEL_NONRT;
	in.rtbs.rt_runtime_us = in.rtbs.rt_period_us = 1;
	in.rtbs.eth_irq_on_l2_cpu = in.rtbs.deep_idle = false;
	in.rtbs.l2_cpu_isolated = true;
	world_rtbs_read(&r, &in);
	ok(in.rtbs.kernel == WM_KERNEL_PREEMPT_RT, "a PREEMPT_RT kernel (sys/kernel/realtime)");
	is_int(in.rtbs.l2_fifo, 50, "l2_tti at FIFO 50");
	is_int(in.rtbs.eth_irq_fifo, 50, "irq/36-eth0 at FIFO 50");
	is_int(in.rtbs.mgmt_fifo, 50, "oam_agent's threads at FIFO 50");
	ok(in.rtbs.eth_irq_on_l2_cpu, "IRQ 36 may fire on l2_tti's CPUs (0-3)");
	ok(!in.rtbs.l2_cpu_isolated, "no CPU isolated");
	is_int((int)in.rtbs.rt_runtime_us, 950000, "sched_rt_runtime_us");
	is_int((int)in.rtbs.rt_period_us, 1000000, "sched_rt_period_us");
	ok(in.rtbs.deep_idle, "pw20 enabled on l2_tti's CPU");
	ok(b != NULL, "the model has stage B");
	if (b) {
		memset(&want, 0, sizeof(want));
		b->input(&want);
		ok(!memcmp(&in.rtbs, &want.rtbs, sizeof(in.rtbs)),
		   "the board as delivered is the note's stage B (PREEMPT_RT default)");
	}
	sysroot_close(&r);
}

/* A tree with only proc/cmdline (and sys/.../isolated when iso_file). */
static void isolated_of(const char *cmdline, const char *iso_file, struct cpumask *out)
{
	char dir[] = "/tmp/tt-wreaders.XXXXXX", p[256];
	struct sysroot r;
	FILE *f;

	if (!mkdtemp(dir))
		return;
	snprintf(p, sizeof(p), "%s/proc", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/proc/cmdline", dir);
	f = fopen(p, "w");
	if (f) {
		fprintf(f, "%s\n", cmdline);
		fclose(f);
	}
	if (iso_file) {
		snprintf(p, sizeof(p), "%s/sys", dir);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/sys/devices", dir);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/sys/devices/system", dir);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/sys/devices/system/cpu", dir);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/sys/devices/system/cpu/isolated", dir);
		f = fopen(p, "w");
		if (f) {
			fprintf(f, "%s\n", iso_file);
			fclose(f);
		}
	}
	cpumask_zero(out);
	if (sysroot_open(&r, dir) == 0) {
		world_proc_isolated(&r, out);
		sysroot_close(&r);
	}
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	if (system(p) != 0)
		fprintf(stderr, "# cannot remove %s\n", dir);
}

static void test_isolated(void)
{
	struct cpumask m;

	isolated_of("root=/dev/ram isolcpus=1-3 rcu_nocbs=1-3 nohz_full=1-3", NULL, &m);
	is_int((int)world_proc_bits(&m), 0xe, "isolcpus=1-3");
	isolated_of("isolcpus=domain,managed_irq,2,3 quiet", NULL, &m);
	is_int((int)world_proc_bits(&m), 0xc, "isolcpus=domain,managed_irq,2,3: the flags skipped");
	isolated_of("root=/dev/ram", "1", &m);
	is_int((int)world_proc_bits(&m), 0x2, "no isolcpus=: sys/devices/system/cpu/isolated");
	isolated_of("root=/dev/ram", NULL, &m);
	ok(cpumask_empty(&m), "neither: none isolated");
}

int main(void)
{
	if (!getenv("FIXTURES"))
		skip_all("FIXTURES not set (run through make check)");
	test_am5729();
	test_b4860();
	test_isolated();
	return done_testing();
}
