/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/probe/ab.c and load.c: the ABBA schedule, --load SPEC
 * parsing, load threads that start pinned and stop, ADDR=A,B parsing, and the
 * library API the TUI uses (ab_start / ab_poll / ab_cancel / ab_result, the
 * live views, AB_RESTORE_OWN leaving the caller's other changes alone) on a
 * copied rk3588 fixture. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cpumask.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "knob/knob.h"
#include "probe/ab.h"
#include "probe/load.h"
#include "sysfs/sysroot.h"
#include "tap.h"

static char tmpdir[256];

static int count_tasks(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* A/A sweeps, simulated: 1000 sweeps of 4 equal values over 4 rounds with
 * independent normal windows, each Vi against V1 as compute_result does (the
 * round's four windows of V1 and Vi, stats_abba) and Holm-Bonferroni over
 * the 3 comparisons: the runs with any false alarm must stay at <= 5 %; an
 * unadjusted p < 0.05 would call one in more. */
static void test_sweep_aa_sim(void)
{
	enum { K = 4, R = 4, REPS = 1000 };
	int arm[2 * K * R], fw = 0, raw = 0;
	struct stats_rng rng;

	stats_rng_seed(&rng, 42);
	ab_schedule(K, R, STATS_DEFAULT_SEED, arm);
	for (int rep = 0; rep < REPS; rep++) {
		double x[2 * K * R], p[K - 1], run = 0;
		int anyraw = 0;

		for (int i = 0; i < 2 * K * R; i++)
			x[i] = stats_rng_normal(&rng);
		for (int v = 1; v < K; v++) {
			double xx[4 * R];
			int aa[4 * R], n = 0;
			struct stats_abba c;

			for (int i = 0; i < 2 * K * R; i++)
				if (arm[i] == 0 || arm[i] == v) {
					xx[n] = x[i];
					aa[n++] = arm[i] ? 1 : 0;
				}
			stats_abba(xx, aa, R, 0, 1, &c);
			p[v - 1] = c.p;
			anyraw |= c.p < 0.05;
		}
		for (int i = 0; i < K - 1; i++) /* sort, then Holm's step-down */
			for (int j = i + 1; j < K - 1; j++)
				if (p[j] < p[i]) {
					double t = p[i];

					p[i] = p[j];
					p[j] = t;
				}
		for (int j = 0; j < K - 1; j++) {
			run = fmax(run, fmin(1.0, (double)(K - 1 - j) * p[j]));
			if (run >= 0.05)
				break;
			fw++;
			break; /* the smallest one rejected: a false alarm in this run */
		}
		raw += anyraw;
	}
	ok(fw <= REPS / 20,
	   "A/A sweeps (4 values, 4 rounds, %d runs): a false alarm after Holm in %.1f %% <= 5 %%",
	   REPS, 100.0 * fw / REPS);
	ok(raw > fw, "... unadjusted, in %.1f %% of them", 100.0 * raw / REPS);
}

/* The family-wise false-positive rate of whole runs, simulated with the
 * window structure of tests/unit/test_stats.c (windows that wander as an
 * AR(1) process, bursts spanning two windows, drift, correlated samples):
 * 1000 null A/Bs (3 tests: p99, p50, mean) and 1000 null sweeps of 3 values
 * (6 tests), each decided by ab_family_adjust exactly as a run is: any test
 * called significant is a false alarm of the run. It must stay at <= 6.5 %
 * (5 % plus the binomial margin of 1000 runs); power: a shift of twice the
 * window-to-window spread in one metric of B is found (after Holm over the
 * whole family) in >= 80 % of runs. Fixed seeds, 4 rounds (1296 exact
 * arrangements), a few seconds. */
#define FAM_ROUNDS  5 /* the most: the A/B runs 4, the sweep 5 */
#define FAM_SAMPLES 300
#define FAM_RUNS    1000
#define FAM_POWER   400 /* runs with an effect (power) */
#define FAM_MAXWIN  (6 * FAM_ROUNDS)

static void fam_windows(struct stats_rng *r, int nwin, double m[AB_NMETRICS][FAM_MAXWIN])
{
	double eff = 3.0 * stats_rng_normal(r), burst = stats_rng_normal(r), v[FAM_SAMPLES];
	const double rho = 0.5, phi = 0.9;

	for (int w = 0; w < nwin; w++) {
		struct stats_dist d;
		double z = stats_rng_normal(r), sum = 0, b = stats_rng_normal(r);
		double load = 2.0 * (b + burst) / sqrt(2.0);

		burst = b;
		if (w)
			eff = rho * eff + sqrt(1 - rho * rho) * 3.0 * stats_rng_normal(r);
		for (int i = 0; i < FAM_SAMPLES; i++) {
			z = phi * z + sqrt(1 - phi * phi) * stats_rng_normal(r);
			v[i] = 20.0 + eff + load + 0.3 * w + 5.0 * exp(0.8 * z);
			sum += v[i];
		}
		stats_dist_from_values(&d, v, FAM_SAMPLES);
		m[AB_P50][w] = stats_dist_quantile(&d, 0.50);
		m[AB_P99][w] = stats_dist_quantile(&d, 0.99);
		m[AB_MEAN][w] = sum / FAM_SAMPLES;
		stats_dist_free(&d);
	}
}

/* Vi − V1 of metric mm as compute_result computes it: the rounds' four
 * windows of V1 and Vi, stats_abba. */
static void fam_compare(const double m[AB_NMETRICS][FAM_MAXWIN], const int *arm, unsigned k,
			unsigned rounds, unsigned i, int mm, struct stats_abba *c)
{
	double x[4 * FAM_ROUNDS];
	int a[4 * FAM_ROUNDS], n = 0;

	for (unsigned w = 0; w < 2 * k * rounds; w++)
		if (arm[w] == 0 || arm[w] == (int)i) {
			x[n] = m[mm][w];
			a[n++] = arm[w] ? 1 : 0;
		}
	stats_abba(x, a, rounds, 0, 1, c);
}

/* A run's verdict from its comparisons (ab_family_adjust, as compute_result
 * decides): whether any test is significant. */
static bool fam_any(struct ab_result *res, int primary)
{
	bool any = false;

	ab_family_adjust(res, primary);
	for (unsigned i = 1; i < res->nvalues; i++)
		for (int mm = 0; mm < AB_NMETRICS; mm++)
			any |= res->sig[i][mm];
	return any;
}

static void test_family_sim(void)
{
	static double m[AB_NMETRICS][FAM_MAXWIN], x[AB_NMETRICS][FAM_MAXWIN];
	static struct ab_result res;
	double var[AB_NMETRICS] = {0, 0, 0}, spread[AB_NMETRICS];
	int arm2[FAM_MAXWIN], arm3[FAM_MAXWIN];
	struct stats_rng rng;

	for (int w = 0; w < FAM_MAXWIN; w++)
		arm2[w] = ab_window_arm(w);
	ab_schedule(3, 5, STATS_DEFAULT_SEED, arm3);
	/* the window-to-window spread: SD of one arm's windows within a run */
	stats_rng_seed(&rng, 7);
	for (int e = 0; e < 200; e++) {
		fam_windows(&rng, 16, m);
		for (int k = 0; k < AB_NMETRICS; k++)
			for (int a = 0; a < 2; a++) {
				double s = 0, ss = 0;
				int n = 0;

				for (int w = 0; w < 16; w++)
					if (arm2[w] == a) {
						s += m[k][w];
						ss += m[k][w] * m[k][w];
						n++;
					}
				var[k] += (ss - s * s / n) / (n - 1) / 400.0;
			}
	}
	for (int k = 0; k < AB_NMETRICS; k++)
		spread[k] = sqrt(var[k]);

	for (unsigned k = 2; k <= 3; k++) {
		const int *arm = k == 2 ? arm2 : arm3;
		unsigned rounds = k == 2 ? 4 : 5;
		int nwin = (int)(2 * k * rounds), fw = 0, rawn = 0, fwp = 0;
		int hit[AB_NMETRICS] = {0, 0, 0};

		stats_rng_seed(&rng, 20261205 + k);
		for (int e = 0; e < FAM_RUNS; e++) {
			bool raw = false;

			fam_windows(&rng, nwin, m);
			memset(&res, 0, sizeof(res));
			res.nvalues = k;
			res.conclusive = true;
			for (unsigned i = 1; i < k; i++)
				for (int mm = 0; mm < AB_NMETRICS; mm++) {
					fam_compare((const double(*)[FAM_MAXWIN])m, arm, k, rounds,
						    i, mm, &res.cmp[i][mm]);
					raw |= res.cmp[i][mm].p < 0.05;
				}
			rawn += raw;
			fw += fam_any(&res, AB_PRIMARY_ALL);
			fwp += fam_any(&res, AB_P99);
			/* power: B (V2) shifted by twice the spread in one metric, the
			 * other tests of the family as they were (null) */
			for (int mm = 0; mm < AB_NMETRICS && e < FAM_POWER; mm++) {
				struct stats_abba keep = res.cmp[1][mm];

				memcpy(x, m, sizeof(x));
				for (int w = 0; w < nwin; w++)
					x[mm][w] += arm[w] == 1 ? 2 * spread[mm] : 0;
				fam_compare((const double(*)[FAM_MAXWIN])x, arm, k, rounds, 1, mm,
					    &res.cmp[1][mm]);
				fam_any(&res, AB_PRIMARY_ALL);
				hit[mm] += res.sig[1][mm] && res.cmp[1][mm].est > 0;
				res.cmp[1][mm] = keep;
			}
		}
		printf("# %s, %u rounds: family of %u tests: a false alarm in %d of %d null runs "
		       "after Holm (%d unadjusted), %d with --primary p99; power at 2x spread "
		       "(of %d runs): p99 %d, p50 %d, mean %d\n",
		       k == 2 ? "A/B" : "3-value sweep", rounds, 3 * (k - 1), fw, FAM_RUNS, rawn,
		       fwp, FAM_POWER, hit[AB_P99], hit[AB_P50], hit[AB_MEAN]);
		ok(fw <= FAM_RUNS * 65 / 1000,
		   "%s: family-wise false alarms %.1f %% <= 6.5 %% (%d null runs, Holm over %u "
		   "tests)",
		   k == 2 ? "A/B" : "3-value sweep", 100.0 * fw / FAM_RUNS, FAM_RUNS, 3 * (k - 1));
		ok(rawn > fw, "... each test at 5 %% unadjusted: %.1f %% (what Holm prevents)",
		   100.0 * rawn / FAM_RUNS);
		ok(fwp <= FAM_RUNS * 65 / 1000, "... --primary p99: %.1f %% <= 6.5 %%",
		   100.0 * fwp / FAM_RUNS);
		for (int mm = 0; mm < AB_NMETRICS; mm++)
			ok(hit[mm] >= FAM_POWER * 80 / 100,
			   "%s: a %s shift of 2x the window spread (%.2f) found after Holm in "
			   "%.1f %% >= 80 %%",
			   k == 2 ? "A/B" : "3-value sweep", ab_metric_name(mm), 2 * spread[mm],
			   100.0 * hit[mm] / FAM_POWER);
	}
}

/* ab_family_adjust on fixed p-values: Holm over metrics x values; a
 * primary metric tests only that one. */
static void test_family_adjust(void)
{
	static struct ab_result res;

	memset(&res, 0, sizeof(res));
	res.nvalues = 2;
	res.conclusive = true;
	res.cmp[1][AB_P99].p = 0.04;
	res.cmp[1][AB_P50].p = 0.30;
	res.cmp[1][AB_MEAN].p = 0.50;
	ab_family_adjust(&res, AB_PRIMARY_ALL);
	ok(res.family == 3 && fabs(res.p_adj[1][AB_P99] - 0.12) < 1e-9 && !res.sig[1][AB_P99],
	   "A/B, p99 p 0.04 among 3 tests: p adj 0.12, not significant (was, uncorrected)");
	ab_family_adjust(&res, AB_P99);
	ok(res.family == 1 && res.sig[1][AB_P99] && !res.tested[1][AB_P50] &&
		   isnan(res.p_adj[1][AB_MEAN]) && !res.sig[1][AB_P50],
	   "--primary p99: one test, p 0.04 significant; p50 and mean not tested");
	res.cmp[1][AB_P99].p = 0.01;
	ab_family_adjust(&res, AB_PRIMARY_ALL);
	ok(res.sig[1][AB_P99] && fabs(res.p_adj[1][AB_P99] - 0.03) < 1e-9,
	   "p 0.01 of 3: p adj 0.03, significant");
	memset(&res, 0, sizeof(res));
	res.nvalues = 3;
	res.conclusive = true;
	for (int i = 1; i < 3; i++)
		for (int mm = 0; mm < AB_NMETRICS; mm++)
			res.cmp[i][mm].p = 0.5;
	res.cmp[2][AB_MEAN].p = 0.01;
	ab_family_adjust(&res, AB_PRIMARY_ALL);
	ok(res.family == 6 && fabs(res.p_adj[2][AB_MEAN] - 0.06) < 1e-9 && !res.sig[2][AB_MEAN],
	   "3-value sweep: 6 tests, p 0.01 adjusts to 0.06 (the no-effect value the issue saw)");
	res.conclusive = false;
	ab_family_adjust(&res, AB_PRIMARY_ALL);
	ok(!res.sig[2][AB_MEAN] && isnan(res.p_adj[2][AB_MEAN]), "inconclusive: nothing tested");
}

static void test_schedule(void)
{
	char s[9];

	for (int i = 0; i < 8; i++)
		s[i] = ab_arm_name(ab_window_arm(i));
	s[8] = '\0';
	is_str(s, "ABBABAAB", "two rounds are ABBA BAAB");

	/* sweeps: every value once in each half of a round, the second half the
	 * first reversed; V1 and any Vi come as ABBA or BAAB in each round; a
	 * Latin square over k rounds; neighbours across a round boundary differ */
	for (unsigned k = 2; k <= AB_MAX_VALUES; k++) {
		unsigned rounds = 2 * k, per = 2 * k;
		int arm[2 * AB_MAX_VALUES * 2 * AB_MAX_VALUES], pos[AB_MAX_VALUES][AB_MAX_VALUES];
		bool once = true, mirror = true, pair = true, latin = true, boundary = true;

		memset(pos, 0, sizeof(pos));
		ab_schedule(k, rounds, STATS_DEFAULT_SEED, arm);
		for (unsigned r = 0; r < rounds; r++) {
			const int *w = arm + r * per;

			for (unsigned v = 0; v < k; v++) {
				unsigned n = 0;

				for (unsigned i = 0; i < k; i++)
					n += w[i] == (int)v;
				once &= n == 1;
			}
			for (unsigned i = 0; i < k; i++) {
				mirror &= w[i] == w[per - 1 - i];
				if (w[i] >= 0 && w[i] < (int)k)
					pos[w[i]][i]++;
			}
			for (unsigned v = 1; v < k; v++) {
				char p4[5];
				unsigned n = 0;

				for (unsigned i = 0; i < per && n < 4; i++)
					if (w[i] == 0 || w[i] == (int)v)
						p4[n++] = w[i] ? 'B' : 'A';
				p4[n] = '\0';
				pair &= !strcmp(p4, "ABBA") || !strcmp(p4, "BAAB");
			}
			if (r)
				boundary &= arm[r * per - 1] != w[0];
		}
		for (unsigned v = 0; v < k; v++)
			for (unsigned i = 0; i < k; i++)
				latin &= pos[v][i] == 2; /* 2k rounds: twice at each position */
		ok(once && mirror, "%u values: each once per half round, then reversed", k);
		ok(pair, "%u values: V1 and each Vi as ABBA or BAAB in every round", k);
		ok(latin, "%u values: every value at every position equally often", k);
		ok(boundary, "%u values: the windows around a round boundary differ", k);
		ok(arm[0] == 0, "%u values: V1 first", k);
		if (k == 2) {
			bool same = true;

			for (unsigned i = 0; i < rounds * per; i++)
				same &= arm[i] == ab_window_arm((int)i);
			ok(same, "2 values: the sweep schedule is the A/B's ABBA BAAB");
		}
	}
	{
		int a1[24], a2[24];
		bool differ = false;

		ab_schedule(4, 3, 1, a1);
		ab_schedule(4, 3, 2, a2);
		for (int i = 0; i < 24; i++)
			differ |= a1[i] != a2[i];
		ab_schedule(4, 3, 1, a2);
		ok(differ && !memcmp(a1, a2, sizeof(a1)),
		   "the seed chooses the order of V2..Vk, reproducibly");
	}
	test_sweep_aa_sim();
}

/* The TUI's pre-filled B: the other sensible value of each kind of knob. */
static void test_suggest(void)
{
	static const struct {
		const char *addr, *cur, *allowed, *want;
	} c[] = {
		{"cpuidle/cpu0/state1/disable", "0", "0 1", "1"},
		{"cpuidle/cpu0/state1/disable", "1", "0 1", "0"},
		{"cpufreq/policy4/governor", "interactive",
		 "interactive conservative ondemand userspace powersave performance schedutil",
		 "performance"},
		{"cpufreq/policy4/governor", "performance", "powersave performance schedutil",
		 "schedutil"},
		{"cpufreq/policy4/governor", "performance", "powersave performance", "powersave"},
		{"cpufreq/policy0/lock_khz", "off", "408000 1008000 1800000 min max off",
		 "1800000"},
		{"cpufreq/policy0/lock_khz", "1008000", "408000 1008000 1800000 min max off",
		 "off"},
		{"cpufreq/policy0/max_khz", "1800000", "408000 1008000 1800000 min max", "408000"},
		{"cpufreq/policy0/min_khz", "408000", "408000 1008000 1800000 min max", "1800000"},
		{"sched/rt_runtime_us", "950000", "-1..2147483647", "-1"},
		{"sched/rt_runtime_us", "-1", "-1..2147483647", "950000"},
		{"pmqos/cpu0/resume_latency_us", "0", "0..2147483647 n/a", "n/a"},
		{"pmqos/cpu0/resume_latency_us", "n/a", "0..2147483647 n/a", "0"},
		{"pmqos/cpu_dma_latency_us", "2000000000", "0..2000000000", "0"},
		{"thread/1/nice", "0", "-20..19", "-10"},
		{"thread/1/nice", "5", "-20..19", "0"},
		{"thread/1/affinity", "0-3", "CPU list within 0-7", "0"},
		{"thread/1/affinity", "2", "CPU list within 0-7", "0-7"},
		{"irq/45/affinity", "0-7", "CPU list within 0-7", "0"},
		{"thread/1/policy", "other", "other batch idle fifo:1..99 rr:1..99", "fifo:50"},
		{"thread/1/policy", "fifo:80", "other batch idle fifo:1..99 rr:1..99", "other"},
		{"mm/thp", "madvise", "always madvise never", "always"},
		{"cpufreq/policy0/schedutil/rate_limit_us", "1000", "any", "1000"},
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char out[64], name[160];

		ab_suggest_other(c[i].addr, c[i].cur, c[i].allowed, out, sizeof(out));
		snprintf(name, sizeof(name), "suggest %s: %s -> %s", c[i].addr, c[i].cur,
			 c[i].want);
		is_str(out, c[i].want, name);
	}
}

static void test_load_parse(void)
{
	struct load_spec s;
	char why[256], fmt[256];

	ok(load_parse("cpu:2@0,mem:1", &s, why, sizeof(why)) == 0, "cpu:2@0,mem:1 parses");
	is_int(s.n, 2, "two items");
	is_int(s.item[0].kind, LOAD_CPU, "first is cpu");
	is_int(s.item[0].n, 2, "2 threads");
	ok(s.item[0].placed && cpumask_test(&s.item[0].cpus, 0), "placed on CPU 0");
	ok(s.item[1].kind == LOAD_MEM && !s.item[1].placed, "second is mem, unplaced");
	load_spec_format(&s, fmt, sizeof(fmt));
	is_str(fmt, "cpu:2@0,mem:1", "formatted back");
	load_spec_free(&s);

	ok(load_parse("cpu:1@0,0,mem:1@0", &s, why, sizeof(why)) == 0,
	   "a CPU list continues after a comma");
	is_int(s.n, 2, "cpu:1@0,0 and mem:1@0");
	load_spec_free(&s);

	ok(load_parse("disk:1", &s, why, sizeof(why)) == -EINVAL, "unknown kind refused");
	ok(strstr(why, "unknown load 'disk'") != NULL, "... says which");
	ok(load_parse("cpu:0", &s, why, sizeof(why)) == -EINVAL, "0 threads refused");
	ok(load_parse("cpu", &s, why, sizeof(why)) == -EINVAL, "missing count refused");
	ok(load_parse("cpu:1@", &s, why, sizeof(why)) == -EINVAL, "empty placement refused");
	ok(load_parse("cpu:1@1000", &s, why, sizeof(why)) == -EINVAL, "offline CPU refused");
	ok(strstr(why, "not online") != NULL, "... says it is not online");
	ok(load_parse("cpu:1,,mem:1", &s, why, sizeof(why)) == -EINVAL, "empty item refused");
	ok(load_parse("", &s, why, sizeof(why)) == -EINVAL, "empty spec refused");
	ok(load_parse("cpu:1,2", &s, why, sizeof(why)) == -EINVAL,
	   "a CPU number without a placement refused");
}

static void test_load_threads(void)
{
	struct load_spec s;
	struct load l;
	char why[256];
	int before = count_tasks();
	uint64_t p0, p1;

	ok(load_mem_bytes() >= LOAD_MEM_MIN_BYTES, "mem buffer at least 64 MiB");
	ok(load_parse("cpu:1@0,mem:1@0", &s, why, sizeof(why)) == 0, "spec parses");
	ok(load_start(&l, &s, why, sizeof(why)) == 0, "load starts");
	is_int(l.n, 2, "two threads");
	is_int(count_tasks(), before + 2, "two more tasks in this process");
	ok(l.thr[0].tid > 0 && l.thr[1].tid > 0, "threads report their tids");
	{
		char path[64], comm[32] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)l.thr[0].tid);
		f = fopen(path, "r");
		if (f) {
			if (!fgets(comm, sizeof(comm), f))
				comm[0] = '\0';
			fclose(f);
		}
		is_str(str_trim(comm), "tt-burn/0", "cpu thread named tt-burn/0");
	}
	{
		cpu_set_t set;

		CPU_ZERO(&set);
		ok(sched_getaffinity(l.thr[1].tid, sizeof(set), &set) == 0 && CPU_ISSET(0, &set) &&
			   CPU_COUNT(&set) == 1,
		   "mem thread pinned to CPU 0");
	}
	p0 = __atomic_load_n(&l.thr[0].passes, __ATOMIC_RELAXED);
	time_sleep_ns(200000000);
	p1 = __atomic_load_n(&l.thr[0].passes, __ATOMIC_RELAXED);
	ok(p1 > p0, "the cpu thread makes progress (%llu -> %llu)", (unsigned long long)p0,
	   (unsigned long long)p1);
	load_stop(&l);
	is_int(count_tasks(), before, "load_stop joins the threads");
	load_stop(&l);
	ok(1, "load_stop is idempotent");
	load_spec_free(&s);
}

/* A private copy of the rk3588 fixture. */
static int copy_fixture(char *root, size_t cap)
{
	const char *fx = getenv("FIXTURES");
	char cmd[1024];

	if (!fx)
		return -1;
	snprintf(root, cap, "%s/root", tmpdir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && cp -a '%s/rk3588' '%s'", root, fx, root);
	return system(cmd) == 0 ? 0 : -1;
}

static void read_file(const char *root, const char *rel, char *buf, size_t cap)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)cap, f))
		buf[0] = '\0';
	fclose(f);
	str_trim(buf);
}

#define DISABLE0 "sys/devices/system/cpu/cpu0/cpuidle/state1/disable"
#define GOV0	 "sys/devices/system/cpu/cpufreq/policy0/scaling_governor"

static void run_to_end(struct ab_run *r, double max_s)
{
	uint64_t t0 = time_mono_ns();

	while (!ab_finished(r) && (double)(time_mono_ns() - t0) / 1e9 < max_s) {
		int ms;

		ab_poll(r, &ms);
		if (!ab_finished(r))
			time_sleep_ns((uint64_t)(ms > 0 ? ms : 1) * 1000000u);
	}
}

static void test_api(void)
{
	char root_dir[512], state[512], buf[256], *cause = NULL;
	struct sysroot root;
	struct knob_ctx *ctx;
	struct ab_cfg cfg;
	struct ab_run r;
	struct ab_status st;
	struct stats_summary s;
	const struct ab_result *res;
	const char *pre[1] = {"cpufreq/policy0/governor=performance"};
	double vals[16];
	int e;

	if (copy_fixture(root_dir, sizeof(root_dir))) {
		ok(1, "# SKIP no fixtures (run through make check)");
		return;
	}
	snprintf(state, sizeof(state), "%s/state", tmpdir);
	ok(sysroot_open(&root, root_dir) == 0, "fixture root opens");
	e = knob_ctx_open(&ctx, &root, state, 0, &cause);
	ok(e == 0, "knob ctx opens (%s)", cause ? cause : "");
	free(cause);
	cause = NULL;
	if (e)
		return;

	/* parsing */
	ab_cfg_init(&cfg);
	ok(ab_parse_knob(ctx, "cpuidle/cpu0/cpu-sleep/disable=0,1", &cfg, &cause) == 0,
	   "ADDR=A,B parses");
	is_str(cfg.addr, "cpuidle/cpu0/cpu-sleep/disable", "address");
	is_str(cfg.value[0], "0", "A");
	is_str(cfg.value[1], "1", "B");
	ok(ab_parse_knob(ctx, "cpuidle/cpu0/cpu-sleep/disable=1|0", &cfg, &cause) == 0,
	   "ADDR=A|B parses");
	is_str(cfg.value[0], "1", "A from A|B");
	e = ab_parse_knob(ctx, "cpuidle/cpu0/cpu-sleep/disable=0,5", &cfg, &cause);
	ok(e == -EINVAL || e == -ERANGE, "a value that is not allowed is refused");
	is_int(knob_exit_code(e), 2, "... as a usage error");
	free(cause);
	cause = NULL;
	e = ab_parse_knob(ctx, "nosuch/x=0,1", &cfg, &cause);
	is_int(knob_exit_code(e), 2, "an unknown address is a usage error");
	free(cause);
	cause = NULL;

	/* values that hold commas (CPU lists) */
	ok(ab_parse_knob(ctx, "irq/14/affinity=0-3,4-7", &cfg, &cause) == 0,
	   "CPU lists: one comma splits");
	ok(!strcmp(cfg.value[0], "0-3") && !strcmp(cfg.value[1], "4-7"), "... into 0-3 and 4-7");
	ok(ab_parse_knob(ctx, "irq/14/affinity=0,1|2,3", &cfg, &cause) == 0, "A|B with commas");
	ok(!strcmp(cfg.value[0], "0,1") && !strcmp(cfg.value[1], "2,3"), "... into 0,1 and 2,3");
	ok(ab_parse_knob(ctx, "irq/14/affinity=0-3,4-7,x", &cfg, &cause) == -EINVAL && cause &&
		   strstr(cause, "no way to split"),
	   "several commas and no valid split: refused");
	free(cause);
	cause = NULL;
	ok(ab_parse_knob(ctx, "irq/14/affinity=0,1,2", &cfg, &cause) == -EINVAL && cause &&
		   strstr(cause, "ambiguous") && strstr(cause, "A|B"),
	   "several valid splits: ambiguous, suggests A|B");
	free(cause);
	cause = NULL;
	ok(ab_parse_knob(ctx, "irq/14/affinity=0-3,0-3,0-3", &cfg, &cause) == -EINVAL,
	   "several commas, only equal halves: refused");
	free(cause);
	cause = NULL;

	/* sweeps */
	ok(ab_parse_knob(ctx, "cpufreq/policy0/interactive/timer_rate=20000, 10000,40000", &cfg,
			 &cause) == 0 &&
		   cfg.nvalues == 3 && !strcmp(cfg.value[1], "10000") &&
		   !strcmp(cfg.value[2], "40000"),
	   "a sweep of 3 values parses");
	ok(ab_parse_knob(ctx, "irq/14/affinity=0|1|2-3", &cfg, &cause) == 0 && cfg.nvalues == 3 &&
		   !strcmp(cfg.value[2], "2-3"),
	   "a sweep of CPU lists with '|'");
	ok(ab_parse_knob(ctx, "cpufreq/policy0/interactive/timer_rate=1,2", &cfg, &cause) == 0 &&
		   cfg.nvalues == 2,
	   "two values after a sweep: an A/B again");
	ok(ab_parse_knob(ctx, "cpuidle/cpu0/cpu-sleep/disable=0,1,0", &cfg, &cause) == -EINVAL &&
		   cause && strstr(cause, "same"),
	   "a sweep with a value twice: refused");
	ok(ab_parse_knob(ctx, "cpufreq/policy0/interactive/timer_rate=1,2,3,4,5,6,7,8,9", &cfg,
			 &cause) == -EINVAL &&
		   cause && strstr(cause, "2 to 8"),
	   "9 values: refused");
	ok(ab_parse_knob(ctx, "cpufreq/policy0/interactive/timer_rate=1,2,3,4,5,6,7,8", &cfg,
			 &cause) == 0 &&
		   cfg.nvalues == 8,
	   "8 values: a sweep");
	free(cause);
	cause = NULL;
	cfg.aa = true;
	ok(ab_parse_knob(ctx, "cpufreq/policy0/interactive/timer_rate=5,5,5", &cfg, &cause) == 0 &&
		   cfg.nvalues == 3,
	   "--aa with one value three times: an A/A sweep");
	ok(ab_parse_knob(ctx, "cpufreq/policy0/interactive/timer_rate=5,5,6", &cfg, &cause) ==
		   -EINVAL,
	   "--aa sweep with different values: refused");
	free(cause);
	cause = NULL;
	cfg.aa = false;
	{
		struct ab_cfg sc;
		struct ab_run sr;
		const struct ab_result *sres;

		ab_cfg_init(&sc);
		ok(ab_parse_knob(ctx, "cpufreq/policy0/interactive/timer_rate=20000,10000,40000",
				 &sc, &cause) == 0,
		   "sweep for a run parses");
		sc.cmd = "echo \"v $TUNETOP_AB_VALUE\"";
		sc.metric = "v ([0-9]+)";
		sc.window_s = 0;
		sc.settle_ms = 0;
		sc.rounds = 3;
		sc.cmd_quiet = true;
		sc.restore = AB_RESTORE_OWN;
		sc.primary = AB_MEAN; /* 3 rounds: Holm over 6 tests could not reach 0.05 */
		ok(ab_start(&sr, ctx, &sc, &cause) == 0, "sweep run starts (%s)",
		   cause ? cause : "ok");
		run_to_end(&sr, 30);
		sres = ab_result(&sr);
		is_int(sr.nwin, 18, "3 values, 3 rounds: 18 windows");
		is_int(sres->nvalues, 3, "result: 3 values");
		ok(sres->conclusive && sres->cmp[1][AB_MEAN].est == -10000.0 &&
			   sres->cmp[2][AB_MEAN].est == 20000.0,
		   "V2 - V1 = -10000, V3 - V1 = +20000");
		ok(sres->sig[1][AB_MEAN] && sres->sig[2][AB_MEAN] &&
			   fabs(sres->p_adj[1][AB_MEAN] - 2 * sres->cmp[1][AB_MEAN].p) < 1e-9,
		   "both significant after Holm (p adj %.4f = 2 x %.4f, equal p)",
		   sres->p_adj[1][AB_MEAN], sres->cmp[1][AB_MEAN].p);
		ok(sres->level[0][AB_MEAN] == 20000.0 && sres->level[2][AB_MEAN] == 40000.0,
		   "levels: the mean of each value's windows");
		ok(strstr(sres->verdict, "sweep of 3 values") && strstr(sres->verdict, "Holm"),
		   "verdict names the sweep and the correction (%s)", sres->verdict);
		read_file(root_dir, "sys/devices/system/cpu/cpufreq/policy0/interactive/timer_rate",
			  buf, sizeof(buf));
		is_str(buf, "20000", "sweep: the knob restored");
		ab_free(&sr);
		free(cause);
		cause = NULL;
	}

	/* A = B: refused, pointing at --aa; with cfg.aa an A/A run */
	ok(ab_parse_knob(ctx, "cpuidle/cpu0/cpu-sleep/disable=1,1", &cfg, &cause) == -EINVAL &&
		   cause && strstr(cause, "same value") && strstr(cause, "--aa"),
	   "A = B refused, the cause names --aa");
	ab_cfg_init(&cfg);
	cfg.aa = true;
	ok(ab_parse_knob(ctx, "cpuidle/cpu0/cpu-sleep/disable", &cfg, &cause) == 0,
	   "A/A: ADDRESS alone parses");
	ok(!strcmp(cfg.value[0], "0") && !strcmp(cfg.value[1], "0"),
	   "... A = B = the current value 0");
	ok(ab_parse_knob(ctx, "cpuidle/cpu0/cpu-sleep/disable=1", &cfg, &cause) == 0 &&
		   !strcmp(cfg.value[0], "1") && !strcmp(cfg.value[1], "1"),
	   "A/A: ADDRESS=1 gives A = B = 1");
	ok(ab_parse_knob(ctx, "cpuidle/cpu0/cpu-sleep/disable=1,1", &cfg, &cause) == 0 &&
		   !strcmp(cfg.value[1], "1"),
	   "A/A: ADDRESS=1,1 too");
	ok(ab_parse_knob(ctx, "irq/14/affinity=0,1", &cfg, &cause) == 0 &&
		   !strcmp(cfg.value[0], "0,1") && !strcmp(cfg.value[1], "0,1"),
	   "A/A: a CPU list with a comma is one value");
	ok(ab_parse_knob(ctx, "cpuidle/cpu0/cpu-sleep/disable=0,1", &cfg, &cause) == -EINVAL &&
		   cause && strstr(cause, "one value"),
	   "A/A: two different values refused");
	free(cause);
	cause = NULL;
	ok(ab_parse_knob(ctx, "cpuidle/cpu0/cpu-sleep/disable=7", &cfg, &cause) != 0,
	   "A/A: a value that is not allowed refused");
	free(cause);
	cause = NULL;

	/* The caller (the TUI) changed another knob first, in the same run. */
	ok(knob_set_many(ctx, pre, NULL, 1, KNOB_SCOPED | KNOB_QUIET, NULL, &cause) == 0,
	   "another knob set first by the caller");
	free(cause);
	cause = NULL;

	/* --cmd A/B with AB_RESTORE_OWN */
	ab_cfg_init(&cfg);
	ab_parse_knob(ctx, "cpuidle/cpu0/cpu-sleep/disable=1,0", &cfg, &cause);
	cfg.cmd = "echo \"v=$TUNETOP_AB_VALUE\"; echo 'v=2.5'";
	cfg.metric = "v=([0-9.]+)";
	cfg.window_s = 0;
	cfg.settle_ms = 0;
	cfg.rounds = 1;
	cfg.restore = AB_RESTORE_OWN;
	e = ab_start(&r, ctx, &cfg, &cause);
	ok(e == 0, "ab_start (%s)", cause ? cause : "ok");
	free(cause);
	cause = NULL;
	ab_status(&r, &st);
	ok(st.phase == AB_SWITCH && st.win == 0 && st.nwin == 4 && st.arm == 0,
	   "status after start: switch, window 0 of 4, arm A");
	is_str(r.original, "0", "original value recorded");
	is_str(r.unit, "", "no unit after the metric's group");
	run_to_end(&r, 20);
	is_int(r.phase, AB_DONE, "the run ends in AB_DONE");
	ab_status(&r, &st);
	ok(st.windows[0] == 2 && st.windows[1] == 2 && st.win == 4, "2 windows per arm measured");
	is_int(ab_values(&r, 0, vals, 16), 4, "arm A: 2 samples per run");
	ok(vals[0] == 1 && vals[1] == 2.5, "arm A values from CMD's output (1, 2.5)");
	is_int(ab_values(&r, 1, vals, 16), 4, "arm B: 4 samples");
	ok(vals[0] == 0 && vals[1] == 2.5, "arm B values (0, 2.5)");
	ab_summary(&r, 0, &s);
	ok(s.n == 4 && s.max == 2.5, "ab_summary of arm A");
	res = ab_result(&r);
	ok(res->complete && res->cmp_err == 0, "result complete");
	is_dbl(res->m[AB_MEAN].est, -0.5, 1e-9,
	       "mean difference B - A of the per-window means = 1.25 - 1.75");
	is_dbl(res->m[AB_P50].est, -1, 1e-9, "p50 difference of the per-window p50 = 0 - 1");
	ok(res->windows == 4 && res->rounds == 1 && !res->conclusive,
	   "1 round: 4 windows, not conclusive");
	ok(isnan(res->m[AB_P99].lo) && !stats_abba_significant(&res->m[AB_P99]),
	   "... no interval, nothing significant");
	ok(strstr(res->verdict, "cpuidle/cpu0/cpu-sleep/disable=0: ") == res->verdict,
	   "verdict starts with ADDR=B");
	ok(strstr(res->verdict, "inconclusive: 4 windows") && strstr(res->verdict, "--rounds 3"),
	   "verdict: inconclusive: 4 windows, suggests --rounds 3 (%s)", res->verdict);
	ok(res->max_win[0] >= 0 && res->max_win[1] >= 0 && strstr(res->verdict, "not tested"),
	   "the max: its windows, not tested");
	{
		struct ab_window w[8];

		is_int(ab_windows(&r, w, 8), 4, "ab_windows: 4 windows");
		ok(w[0].done && w[0].arm == 0 && w[1].arm == 1 && w[0].samples == 2 &&
			   w[0].p50 == 1 && w[1].p50 == 0 && w[0].mean == 1.75,
		   "ab_windows: per-window samples, p50, mean");
	}
	ok(r.restored && r.restore_err == 0, "restored without error");
	read_file(root_dir, DISABLE0, buf, sizeof(buf));
	is_str(buf, "0", "the A/B's knob is back to 0");
	read_file(root_dir, GOV0, buf, sizeof(buf));
	is_str(buf, "performance", "AB_RESTORE_OWN left the caller's change alone");
	ab_free(&r);

	/* 3 rounds: a difference without noise is conclusive */
	ab_cfg_init(&cfg);
	ab_parse_knob(ctx, "cpuidle/cpu0/cpu-sleep/disable=1,0", &cfg, &cause);
	cfg.cmd = "echo \"v=$TUNETOP_AB_VALUE\"";
	cfg.metric = "v=([0-9.]+)";
	cfg.window_s = 0;
	cfg.settle_ms = 0;
	cfg.rounds = 3;
	cfg.restore = AB_RESTORE_OWN;
	ok(ab_start(&r, ctx, &cfg, &cause) == 0, "3-round run starts");
	run_to_end(&r, 30);
	res = ab_result(&r);
	ok(res->conclusive && res->rounds == 3 && res->windows == 12, "3 rounds: conclusive");
	ok(res->m[AB_P50].est == -1 && res->m[AB_P50].lo == -1 && res->m[AB_P50].hi == -1,
	   "B - A = -1 [-1, -1]");
	ok(stats_abba_significant(&res->m[AB_P50]) && res->m[AB_P50].exact &&
		   res->m[AB_P50].perms == 216,
	   "significant, all 216 arrangements");
	ok(strstr(res->verdict, "p50 \u22121.0 [\u22121.0, \u22121.0]") != NULL,
	   "verdict: p50 -1.0 [-1.0, -1.0] (%s)", res->verdict);
	ab_free(&r);

	/* A/A through the whole run */
	ab_cfg_init(&cfg);
	cfg.aa = true;
	ab_parse_knob(ctx, "cpuidle/cpu0/cpu-sleep/disable", &cfg, &cause);
	cfg.cmd = "echo v=3";
	cfg.metric = "v=([0-9.]+)";
	cfg.window_s = 0;
	cfg.settle_ms = 0;
	cfg.rounds = 3;
	cfg.restore = AB_RESTORE_OWN;
	ok(ab_start(&r, ctx, &cfg, &cause) == 0, "A/A run starts (%s)", cause ? cause : "ok");
	run_to_end(&r, 30);
	res = ab_result(&r);
	ok(res->aa && res->conclusive && !stats_abba_significant(&res->m[AB_P99]),
	   "A/A: conclusive, nothing significant");
	ok(strstr(res->verdict, "disable=0 (A/A): noise floor, 12 windows") &&
		   strstr(res->verdict, "cannot be seen with 6 windows per arm"),
	   "A/A verdict: the noise floor (%s)", res->verdict);
	ab_free(&r);
	cfg.aa = false;
	ok(ab_start(&r, ctx, &cfg, &cause) == -EINVAL, "A = B without aa: ab_start refuses");
	ab_free(&r);
	free(cause);
	cause = NULL;

	/* cancel while CMD runs */
	ab_cfg_init(&cfg);
	ab_parse_knob(ctx, "cpuidle/cpu0/cpu-sleep/disable=1,0", &cfg, &cause);
	cfg.cmd = "sleep 30";
	cfg.window_s = 60;
	cfg.settle_ms = 0;
	cfg.cmd_quiet = true;
	cfg.restore = AB_RESTORE_OWN;
	ok(ab_start(&r, ctx, &cfg, &cause) == 0, "second run starts");
	free(cause);
	cause = NULL;
	for (int i = 0; i < 100 && r.phase != AB_MEASURE; i++)
		ab_poll(&r, NULL);
	is_int(r.phase, AB_MEASURE, "measuring");
	read_file(root_dir, DISABLE0, buf, sizeof(buf));
	is_str(buf, "1", "A=1 in place");
	{
		uint64_t t0 = time_mono_ns();

		ab_cancel(&r);
		run_to_end(&r, 10);
		is_int(r.phase, AB_CANCELLED, "ab_cancel ends in AB_CANCELLED");
		ok((double)(time_mono_ns() - t0) / 1e9 < 3.0, "... quickly (CMD killed)");
	}
	read_file(root_dir, DISABLE0, buf, sizeof(buf));
	is_str(buf, "0", "cancel restored the knob");
	is_int(ab_values(&r, 0, NULL, 0), 0, "the unfinished window is not counted");
	ok(ab_result(&r)->cmp_err != 0, "no comparison without samples");
	ab_free(&r);

	/* a zeroed run can be freed */
	memset(&r, 0, sizeof(r));
	ab_free(&r);
	ok(1, "ab_free on a zeroed run");

	knob_restore_run(ctx, NULL, 0, NULL, NULL);
	read_file(root_dir, GOV0, buf, sizeof(buf));
	ok(strcmp(buf, "performance") != 0, "the caller's change restored by knob_restore_run");
	knob_ctx_close(ctx);
	sysroot_close(&root);
}

int main(void)
{
	const char *t = getenv("TMPDIR");
	char cmd[600];

	snprintf(tmpdir, sizeof(tmpdir), "%s/test_ab.XXXXXX", t ? t : "/tmp");
	if (!mkdtemp(tmpdir))
		skip_all("mkdtemp failed");
	test_family_adjust();
	test_family_sim();
	test_schedule();
	test_suggest();
	test_load_parse();
	test_load_threads();
	test_api();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmpdir);
	return done_testing();
}
