/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The model worlds' adapter (model/world_wm.h, issue 35): the log line of a
 * sample; on unpacked worlds, the model's input read from the tree's knob
 * files (a rate limit written into the tree reaches the model, a reader
 * that ignored it would fail), the SIMULATED firmware switches, the app's
 * threads in proc/, and probe_sample's sample with its causes. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/sim.h"
#include "model/world.h"
#include "model/world_wm.h"
#include "model/worldmodel.h"
#include "sysfs/sysroot.h"
#include "tap.h"

#define SU_POL "sys/devices/system/cpu/cpufreq/policy0/"

static void put(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_line(void)
{
	const struct world_wm m = {
		.line_prefix = "[camera] keyframe:", .unit = "ms", .unit_us = 1000};
	struct wm_sample s;
	char buf[160];

	wm_sample_clear(&s);
	wm_sample_add(&s, WMC_WORK, -1, "key frame", -1, 40000);
	wm_sample_add(&s, WMC_RATE_LIMIT, -1, "up_rate_limit_us", -1, 1234.5);
	world_wm_line(&m, &s, buf, sizeof(buf));
	is_str(buf, "[camera] keyframe:41.234 ms cause:rate-limit (SIMULATED)", "the log line");
	wm_sample_clear(&s);
	wm_sample_add(&s, WMC_BASE, -1, "base", -1, 37);
	world_wm_line(&(struct world_wm){.line_prefix = "x:", .unit = "us", .unit_us = 1}, &s, buf,
		      sizeof(buf));
	is_str(buf, "x:37.000 us cause:none (SIMULATED)", "no delay: cause none");
}

static void test_schedutil(const char *dir)
{
	const struct world_def *d = world_find("schedutil");
	struct world *w;
	struct sysroot r;
	union wm_in in;
	struct wm_sample s;
	char err[256];

	ok(d && d->wm && d->probe_sample, "schedutil is a model world with probe_sample");
	if (!d || world_unpack("schedutil", dir, 35, err, sizeof(err))) {
		ok(0, "unpack schedutil: %s", err);
		return;
	}
	ok(sysroot_open(&r, dir) == 0, "the tree opens");
	ok(world_wm_input(d->wm, &r, &in) == 0, "the input from the tree");
	is_int(in.su.up_rate_limit_us, 30000, "up_rate_limit_us from the tree (vendor default)");
	is_int(in.su.max_khz, 1800000, "scaling_max_freq from the tree");
	put(dir, SU_POL "schedutil/up_rate_limit_us", "500\n");
	put(dir, SU_POL "schedutil/down_rate_limit_us", "2000\n");
	put(dir, SU_POL "scaling_max_freq", "1416000\n");
	world_wm_input(d->wm, &r, &in);
	is_int(in.su.up_rate_limit_us, 500, "a rate limit written into the tree reaches the model");
	is_int(in.su.down_rate_limit_us, 2000, "and the down rate limit");
	is_int(in.su.max_khz, 1416000, "and the max clock");
	put(dir, SU_POL "scaling_governor", "performance\n");
	world_wm_input(d->wm, &r, &in);
	ok(in.su.governor == WM_GOV_PERFORMANCE, "the governor from scaling_governor");
	ok(sysfs_exists(&r, "proc/1310/task/1313/stat"), "the app's threads in the tree's proc/");
	sysroot_close(&r);
	ok(world_attach(dir, &w, err, sizeof(err)) == 0, "attach");
	if (!w)
		return;
	ok(d->probe_sample(w, &s) == 0, "probe_sample");
	/* the probe is a timer wake-up (world_schedutil_probe_model):
	 * performance runs it at the top the policy allows, nothing lost to a
	 * lower clock */
	ok(s.n_terms == 1 && s.terms[0].cause == WMC_BASE,
	   "performance: the timer wake-up alone (%zu terms)", s.n_terms);
	put(dir, SU_POL "scaling_governor", "schedutil\n");
	put(dir, SU_POL "schedutil/up_rate_limit_us", "30000\n");
	put(dir, SU_POL "scaling_max_freq", "1800000\n");
	{
		int rl = 0;

		for (int i = 0; i < 50; i++)
			if (d->probe_sample(w, &s) == 0)
				for (size_t k = 0; k < s.n_terms; k++)
					rl += s.terms[k].cause == WMC_CLOCK_RAMP;
		ok(rl > 0, "schedutil: some wake-ups run below the top clock (%d of 50)", rl);
	}
	world_close(w);
}

static void test_rpmsg(const char *dir)
{
	const struct world_def *d = world_find("stm32mp1-rpmsg");
	struct sysroot r;
	union wm_in in;
	char err[256];

	if (!d || world_unpack("stm32mp1-rpmsg", dir, 35, err, sizeof(err))) {
		ok(0, "unpack stm32mp1-rpmsg: %s", d ? err : "no world");
		return;
	}
	sysroot_open(&r, dir);
	world_wm_input(d->wm, &r, &in);
	ok(in.rpmsg.polling && in.rpmsg.shared_cached && !in.rpmsg.ipi_top_prio &&
		   !in.rpmsg.batching,
	   "the firmware switches at the note's stage A");
	put(dir, "etc/SIMULATED-m4-firmware/vring_polling", "0\n");
	put(dir, "etc/SIMULATED-m4-firmware/ipi_top_priority", "1\n");
	world_wm_input(d->wm, &r, &in);
	ok(!in.rpmsg.polling && in.rpmsg.ipi_top_prio, "an edited switch reaches the model");
	ok(sysfs_exists(&r, "proc/912/task/915/sched"), "the gateway's threads in proc/");
	sysroot_close(&r);
}

int main(void)
{
	const char *b = getenv("TT_BUILDDIR");
	char tar[PATH_MAX], tmp[] = "/tmp/tt-world-wm.XXXXXX", dir[PATH_MAX + 16];

	test_line();
	snprintf(tar, sizeof(tar), "%s/rk3588-demo.tar", b ? b : ".");
	if (!sim_built() || access(tar, R_OK) != 0) {
		printf("# no demo bundles in this build: the worlds are skipped\n");
		return done_testing();
	}
	setenv("TUNETOP_DEMO", tar, 1);
	if (!mkdtemp(tmp))
		return done_testing();
	snprintf(dir, sizeof(dir), "%s/su", tmp);
	test_schedutil(dir);
	snprintf(dir, sizeof(dir), "%s/rp", tmp);
	test_rpmsg(dir);
	sim_rmtree(tmp);
	return done_testing();
}
