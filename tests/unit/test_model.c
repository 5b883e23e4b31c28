/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The model end to end: change a copied fixture's counters between two
 * snapshots and check the derived rates against hand-computed values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/snapshot.h"
#include "tap.h"

static char root[512];

static void put(const char *rel, const char *text)
{
	char p[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	if (!f) {
		perror(p);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

/* iowait going backwards (NO_HZ kernels) counts 0, in the interval too:
 * found by tests/fuzz/fuzz_procstat, where idle showed 200%. */
static void test_iowait_backwards(void)
{
	struct cpu_times a = {.valid = true, .user = 8, .system = 100, .idle = 1, .iowait = 10},
			 b = a;
	struct cpu_util u;

	b.user += 1;
	b.idle += 18;
	b.iowait = 0;
	procstat_util(&a, &b, &u);
	is_dbl(u.idle_pct, 100.0 * 18 / 19, 1e-9, "iowait backwards: idle 18 of 19 jiffies");
	is_dbl(u.user_pct, 100.0 * 1 / 19, 1e-9, "  user 1 of 19");
	is_dbl(u.iowait_pct, 0.0, 1e-9, "  iowait 0");
	b = a;
	b.iowait = 0;
	procstat_util(&a, &b, &u);
	ok(isnan(u.busy_pct), "only iowait moved (backwards): n/a, not a share of nothing");
}

int main(void)
{
	char cmd[1200], tmpl[] = "/tmp/tt-model.XXXXXX";
	struct sysroot r;
	struct snapshot a, b;
	const struct cpuidle_state *st;
	int p4;

	if (!mkdtemp(tmpl))
		return 1;
	snprintf(root, sizeof(root), "%s/rk3588", tmpl);
	snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s'", fixture("rk3588"), root);
	if (system(cmd) != 0)
		skip_all("cannot copy the rk3588 fixture");
	ok(sysroot_open(&r, root) == 0, "open copied root");
	ok(snapshot_take(&r, SNAP_ALL, &a) == 0, "first snapshot");

	/* One second later (by construction): cpu0 did 30 user + 10 system +
	 * 10 irq + 50 idle jiffies; cpu0 cpu-sleep gained 400000 us over 200
	 * entries with 20 "above" and 10 "below"; policy4 made 25 transitions
	 * and spent 40 (408 MHz) + 60 (2256 MHz) ten-millisecond units; dmc
	 * spent 800 ms at 534 MHz and 200 ms at 2400 MHz with 6 transitions. */
	{
		const struct cpu_times *t = &a.stat.cpu[0];
		char line[4096], statf[8192];
		char *text = NULL;
		FILE *f;
		size_t cap = 0;
		ssize_t n;

		snprintf(line, sizeof(line), "cpu0 %llu %llu %llu %llu %llu %llu %llu %llu 0 0\n",
			 (unsigned long long)t->user + 30, (unsigned long long)t->nice,
			 (unsigned long long)t->system + 10, (unsigned long long)t->idle + 50,
			 (unsigned long long)t->iowait, (unsigned long long)t->irq + 10,
			 (unsigned long long)t->softirq, (unsigned long long)t->steal);
		snprintf(cmd, sizeof(cmd), "%s/proc/stat", root);
		f = fopen(cmd, "r");
		statf[0] = '\0';
		while ((n = getline(&text, &cap, f)) > 0)
			strncat(statf, strncmp(text, "cpu0 ", 5) ? text : line,
				sizeof(statf) - strlen(statf) - 1);
		fclose(f);
		free(text);
		put("proc/stat", statf);
	}
	st = &a.idle.cpu[0].st[1];
	snprintf(cmd, sizeof(cmd), "%llu\n", (unsigned long long)st->time_us + 400000);
	put("sys/devices/system/cpu/cpu0/cpuidle/state1/time", cmd);
	snprintf(cmd, sizeof(cmd), "%llu\n", (unsigned long long)st->usage + 200);
	put("sys/devices/system/cpu/cpu0/cpuidle/state1/usage", cmd);
	snprintf(cmd, sizeof(cmd), "%llu\n", (unsigned long long)st->above + 20);
	put("sys/devices/system/cpu/cpu0/cpuidle/state1/above", cmd);
	snprintf(cmd, sizeof(cmd), "%llu\n", (unsigned long long)st->below + 10);
	put("sys/devices/system/cpu/cpu0/cpuidle/state1/below", cmd);
	p4 = cpufreq_policy_index(&a.freq, 4);
	ok(p4 >= 0, "cpu4 has a policy");
	{
		const struct cpufreq_policy *p = &a.freq.pol[p4];
		char tis[2048] = "";

		snprintf(cmd, sizeof(cmd), "%llu\n", (unsigned long long)p->total_trans + 25);
		put("sys/devices/system/cpu/cpufreq/policy4/stats/total_trans", cmd);
		for (size_t i = 0; i < p->nstates; i++) {
			uint64_t add = p->tis_khz[i] == 408000	  ? 40
				       : p->tis_khz[i] == 2256000 ? 60
								  : 0;

			snprintf(cmd, sizeof(cmd), "%llu %llu\n", (unsigned long long)p->tis_khz[i],
				 (unsigned long long)(p->tis_time_10ms[i] + add));
			strncat(tis, cmd, sizeof(tis) - strlen(tis) - 1);
		}
		put("sys/devices/system/cpu/cpufreq/policy4/stats/time_in_state", tis);
	}
	put("sys/devices/platform/dmc/devfreq/dmc/trans_stat",
	    "     From  :   To\n"
	    "           : 534000000132000000019680000002400000000   time(ms)\n"
	    "* 534000000:         0       100       100       722  84258461\n"
	    " 1320000000:       100         0         0         0    527096\n"
	    " 1968000000:       100         0         0         0    328355\n"
	    " 2400000000:       726       100       100         0   1296338\n"
	    "Total transition : 1848\n");
	ok(snapshot_take(&r, SNAP_ALL, &b) == 0, "second snapshot");
	b.mono_ns = a.mono_ns + 1000000000ULL;
	snapshot_derive(&b, &a);
	is_dbl(b.dt_s, 1.0, 1e-9, "interval 1 s");
	is_dbl(b.stat.util[0].user_pct, 30.0, 1e-6, "cpu0 user 30%");
	is_dbl(b.stat.util[0].system_pct, 10.0, 1e-6, "cpu0 system 10%");
	is_dbl(b.stat.util[0].irq_pct, 10.0, 1e-6, "cpu0 irq 10%");
	is_dbl(b.stat.util[0].busy_pct, 50.0, 1e-6, "cpu0 busy 50%");
	st = &b.idle.cpu[0].st[1];
	/* 40 % counted at exits, and /proc/stat says 50 % idle: the other 10 %
	 * is the stay in progress, credited to the state entered. */
	is_dbl(st->residency_pct, 50.0, 1e-6, "cpu0 cpu-sleep residency 40% + 10% in progress");
	is_dbl(b.idle.cpu[0].stay_pct, 10.0, 1e-6, "cpu0 stay in progress 10%");
	is_dbl(st->entries_per_s, 200.0, 1e-6, "cpu0 cpu-sleep 200 entries/s");
	is_dbl(st->above_per_s, 20.0, 1e-6, "cpu0 cpu-sleep 20 above/s");
	is_dbl(st->below_per_s, 10.0, 1e-6, "cpu0 cpu-sleep 10 below/s");
	ok(isnan(b.stat.util[1].busy_pct), "cpu1 unchanged counters: utilisation n/a, not 0");
	{
		const struct cpufreq_policy *p = &b.freq.pol[cpufreq_policy_index(&b.freq, 4)];

		is_dbl(p->transitions_per_s, 25.0, 1e-6, "policy4 25 transitions/s");
		for (size_t i = 0; i < p->nstates; i++) {
			if (p->tis_khz[i] == 408000)
				is_dbl(p->tis_pct[i], 40.0, 1e-6, "policy4 40% at 408 MHz");
			if (p->tis_khz[i] == 2256000)
				is_dbl(p->tis_pct[i], 60.0, 1e-6, "policy4 60% at 2256 MHz");
		}
	}
	{
		const struct devfreq_dev *d = devfreq_find(&b.devf, "dmc");

		ok(d != NULL, "dmc found");
		if (d) {
			is_dbl(d->transitions_per_s, 6.0, 1e-6, "dmc 6 transitions/s");
			is_dbl(d->time_pct[0], 80.0, 1e-6, "dmc 80% at 534 MHz");
			is_dbl(d->time_pct[3], 20.0, 1e-6, "dmc 20% at 2400 MHz");
		}
	}
	snapshot_free(&a);
	snapshot_free(&b);
	sysroot_close(&r);
	test_iowait_backwards();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmpl);
	return done_testing();
}
