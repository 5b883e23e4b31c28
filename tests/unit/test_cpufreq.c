/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/source/cpufreq.c and src/out/cpufreq_out.c: the list,
 * time_in_state and trans_table parsers, derived rates (hand-computed,
 * counter resets), and the fixture trees (rk3588, intel, broken, stm32mp157,
 * rpi4). */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "out/cpufreq_out.h"
#include "source/cpufreq.h"
#include "source/topology.h"
#include "sysfs/sysroot.h"
#include "tap.h"

#define CPU "sys/devices/system/cpu/"
#define POL CPU "cpufreq/"

static void test_parse_list(void)
{
	uint64_t *v;
	size_t n;
	char(*names)[CPUFREQ_NAME_LEN];

	/* scaling_available_frequencies: "%u " each, trailing space */
	is_int(cpufreq_parse_list("408000 600000 816000 \n", &v, &n), 0,
	       "list with trailing space");
	is_int(n, 3, "3 frequencies");
	ok(n == 3 && v[0] == 408000 && v[2] == 816000, "values 408000..816000");
	free(v);
	/* related_cpus / devfreq style: no trailing space */
	is_int(cpufreq_parse_list("408000 600000 816000\n", &v, &n), 0,
	       "list without trailing space");
	is_int(n, 3, "3 frequencies (no trailing space)");
	ok(n == 3 && v[1] == 600000, "middle value");
	free(v);
	is_int(cpufreq_parse_list("1500000", &v, &n), 0, "single value without newline");
	is_int(n, 1, "1 value");
	free(v);
	is_int(cpufreq_parse_list("", &v, &n), -ENODATA, "empty list is -ENODATA");
	ok(v == NULL && n == 0, "empty list: no output");
	is_int(cpufreq_parse_list(" \n", &v, &n), -ENODATA, "blank list is -ENODATA");
	is_int(cpufreq_parse_list("408000 abc 600000 \n", &v, &n), -EINVAL, "garbage token");
	ok(v == NULL && n == 0, "garbage: no output");
	is_int(cpufreq_parse_list("408000 -5\n", &v, &n), -EINVAL, "negative token");

	is_int(cpufreq_parse_names("interactive conservative ondemand userspace powersave "
				   "performance schedutil \n",
				   &names, &n),
	       0, "governors with trailing space");
	is_int(n, 7, "7 governors");
	is_str(n == 7 ? names[6] : "", "schedutil", "last governor");
	free(names);
	is_int(cpufreq_parse_names("performance powersave\n", &names, &n), 0,
	       "setpolicy governors without trailing space");
	is_int(n, 2, "2 governors");
	is_str(n == 2 ? names[1] : "", "powersave", "powersave");
	free(names);
	is_int(cpufreq_parse_names("\n", &names, &n), -ENODATA, "empty governors");
	is_int(cpufreq_parse_names("averyveryveryveryveryverylonggovernorname\n", &names, &n), 0,
	       "long name");
	is_int(strlen(names[0]), CPUFREQ_NAME_LEN - 1, "long name truncated");
	free(names);
}

static void test_parse_tis(void)
{
	uint64_t *k, *t;
	size_t n, bad;

	is_int(cpufreq_parse_time_in_state("408000 8384392\n600000 10369\n816000 130479\n", &k, &t,
					   &n, &bad),
	       0, "time_in_state parses");
	is_int(n, 3, "3 OPPs");
	is_int(bad, 0, "no bad line");
	ok(n == 3 && k[0] == 408000 && t[0] == 8384392 && k[2] == 816000 && t[2] == 130479,
	   "time_in_state values");
	free(k);
	free(t);
	is_int(cpufreq_parse_time_in_state("408000 100\nxyz 12\n600000 zz\n\n816000 300 7\n1008000 "
					   "400\n",
					   &k, &t, &n, &bad),
	       0, "time_in_state with garbage lines");
	is_int(n, 2, "garbage lines skipped, 2 OPPs kept");
	is_int(bad, 3, "3 bad lines counted (blank line is not bad)");
	ok(n == 2 && k[1] == 1008000 && t[1] == 400, "line after garbage kept");
	free(k);
	free(t);
	is_int(cpufreq_parse_time_in_state("garbage\n", &k, &t, &n, NULL), -ENODATA,
	       "only garbage: -ENODATA");
	ok(k == NULL && t == NULL && n == 0, "only garbage: no output");
	is_int(cpufreq_parse_time_in_state("", &k, &t, &n, NULL), -ENODATA, "empty time_in_state");
	is_int(cpufreq_parse_time_in_state("624000 1030325", &k, &t, &n, NULL), 0,
	       "no trailing newline");
	is_int(n, 1, "1 OPP");
	free(k);
	free(t);
}

static const char trans_ok[] = "   From  :    To\n"
			       "         :    624000    936000   1248000 \n"
			       "   624000:         0       166         5 \n"
			       "   936000:       222         0        42 \n"
			       "  1248000:         7         1         0 \n";

static void test_parse_trans(void)
{
	uint64_t *k, *c;
	size_t n;

	is_int(cpufreq_parse_trans_table(trans_ok, &k, &c, &n), 0, "trans_table parses");
	is_int(n, 3, "3x3");
	ok(n == 3 && k[0] == 624000 && k[2] == 1248000, "header frequencies");
	ok(n == 3 && c[0 * 3 + 1] == 166 && c[1 * 3 + 0] == 222 && c[1 * 3 + 2] == 42 &&
		   c[2 * 3 + 0] == 7,
	   "counts [from][to]");
	free(k);
	free(c);
	/* A captured example: 6 columns but only 2 rows (truncated). */
	is_int(cpufreq_parse_trans_table(
		       "   From  :    To\n"
		       "         :    624000    936000   1248000   1560000   1872000   2028000 \n"
		       "   624000:         0       166         0         5       507         0 \n"
		       "   936000:       222         0        42         1        76         0 \n",
		       &k, &c, &n),
	       -EINVAL, "truncated trans_table (missing rows) rejected");
	ok(k == NULL && c == NULL && n == 0, "truncated: no output");
	is_int(cpufreq_parse_trans_table("   From  :    To\n"
					 "         :    624000    936000 \n"
					 "   624000:         0       166 \n"
					 "   936000:       222\n",
					 &k, &c, &n),
	       -EINVAL, "short last row (cut mid-line) rejected");
	is_int(cpufreq_parse_trans_table("   From  :    To\n"
					 "         :    624000    936000 \n"
					 "   624000:         0       166 \n"
					 "   999999:       222         0 \n",
					 &k, &c, &n),
	       -EINVAL, "row frequency not matching the header rejected");
	is_int(cpufreq_parse_trans_table("   From  :    To\n", &k, &c, &n), -ENODATA,
	       "header only: -ENODATA");
	is_int(cpufreq_parse_trans_table("", &k, &c, &n), -ENODATA, "empty trans_table");
	is_int(cpufreq_parse_trans_table("garbage\n", &k, &c, &n), -EINVAL, "garbage trans_table");
	is_int(cpufreq_parse_trans_table("   From  :    To\n"
					 "         :    624000 \n"
					 "   624000:         0 \n"
					 "extra: 1\n",
					 &k, &c, &n),
	       -EINVAL, "extra row rejected");
}

/* A policy built by hand: OPPs 408/600/816 MHz. */
static void hand_policy(struct cpufreq_info *f, const char *name, uint64_t trans,
			const uint64_t tis[3])
{
	struct cpufreq_policy *p;

	memset(f, 0, sizeof(*f));
	f->npolicies = 1;
	f->pol = xcalloc(1, sizeof(*f->pol));
	p = &f->pol[0];
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->have_total_trans = true;
	p->total_trans = trans;
	p->have_stats = true;
	p->nstates = 3;
	p->tis_khz = xcalloc(3, sizeof(uint64_t));
	p->tis_time_10ms = xcalloc(3, sizeof(uint64_t));
	for (int i = 0; i < 3; i++) {
		p->tis_khz[i] = 408000 + (uint64_t)i * 200000 + (i == 2 ? 8000 : 0);
		p->tis_time_10ms[i] = tis[i];
	}
}

static void test_derive_hand(void)
{
	struct cpufreq_info a, b, c;
	const uint64_t t0[3] = {1000, 500, 200}, t1[3] = {1040, 505, 205}, t2[3] = {10, 500, 205};

	hand_policy(&a, "policy0", 100, t0);
	hand_policy(&b, "policy0", 130, t1);
	/* dt = 0.5 s: 50 clock_t = 500 ms fit exactly */
	cpufreq_derive(&b, &a, 0.5);
	is_dbl(b.pol[0].transitions_per_s, 60.0, 1e-9, "30 transitions / 0.5 s = 60/s");
	ok(b.pol[0].tis_pct != NULL, "tis_pct allocated");
	is_dbl(b.pol[0].tis_pct[0], 80.0, 1e-9, "408 MHz: 40 x 10 ms / 500 ms = 80 %");
	is_dbl(b.pol[0].tis_pct[1], 10.0, 1e-9, "600 MHz: 10 %");
	is_dbl(b.pol[0].tis_pct[2], 10.0, 1e-9, "816 MHz: 10 %");
	/* The sampler ran late (a loaded machine: dt 0.8 s) while the kernel
	 * counted 50 ticks: the shares are of the counted time, so they still
	 * add up to 100 % (of dt they would be 50 + 6.25 + 6.25). */
	cpufreq_derive(&b, &a, 0.8);
	is_dbl(b.pol[0].tis_pct[0], 80.0, 1e-9,
	       "late sampler: 408 MHz still 80 % of the counted time");
	is_dbl(b.pol[0].tis_pct[0] + b.pol[0].tis_pct[1] + b.pol[0].tis_pct[2], 100.0, 1e-9,
	       "late sampler: the shares add up to 100 %");
	is_dbl(b.pol[0].transitions_per_s, 37.5, 1e-9, "late sampler: transitions over dt");

	/* No previous sample, dt <= 0 */
	cpufreq_derive(&b, NULL, 0.5);
	ok(isnan(b.pol[0].transitions_per_s) && isnan(b.pol[0].tis_pct[0]), "no prev: NAN");
	cpufreq_derive(&b, &a, 0.0);
	ok(isnan(b.pol[0].transitions_per_s) && isnan(b.pol[0].tis_pct[1]), "dt = 0: NAN");
	cpufreq_derive(&b, &a, -1.0);
	ok(isnan(b.pol[0].transitions_per_s), "dt < 0: NAN");

	/* stats/reset between the samples: time_in_state went back */
	hand_policy(&c, "policy0", 135, t2);
	cpufreq_derive(&c, &b, 0.5);
	ok(isnan(c.pol[0].transitions_per_s), "time_in_state reset: transitions NAN");
	ok(isnan(c.pol[0].tis_pct[0]) && isnan(c.pol[0].tis_pct[1]) && isnan(c.pol[0].tis_pct[2]),
	   "time_in_state reset: every OPP NAN, none negative");
	cpufreq_free(&c);

	/* total_trans went back */
	hand_policy(&c, "policy0", 3, t1);
	cpufreq_derive(&c, &a, 0.5);
	ok(isnan(c.pol[0].transitions_per_s) && isnan(c.pol[0].tis_pct[0]),
	   "total_trans reset: NAN, not negative");
	cpufreq_free(&c);

	/* The policy was not there before */
	hand_policy(&c, "policy4", 130, t1);
	cpufreq_derive(&c, &a, 0.5);
	ok(isnan(c.pol[0].transitions_per_s) && isnan(c.pol[0].tis_pct[0]), "new policy: NAN");
	cpufreq_free(&c);

	/* An OPP that is new in this sample is NAN, the others still computed */
	hand_policy(&c, "policy0", 130, t1);
	c.pol[0].tis_khz[2] = 1008000;
	cpufreq_derive(&c, &a, 0.5);
	ok(isnan(c.pol[0].tis_pct[2]), "new OPP: NAN");
	is_dbl(c.pol[0].tis_pct[0], 80.0, 1e-9, "other OPPs still derived");
	cpufreq_free(&c);

	/* More time than the interval (sampling jitter) is clamped to 100 % */
	{
		const uint64_t t3[3] = {1100, 500, 200};

		hand_policy(&c, "policy0", 100, t3);
		cpufreq_derive(&c, &a, 0.5);
		is_dbl(c.pol[0].tis_pct[0], 100.0, 1e-9, "clamped to 100 %");
		is_dbl(c.pol[0].transitions_per_s, 0.0, 1e-9, "no transitions: 0/s (not n/a)");
		cpufreq_free(&c);
	}
	cpufreq_free(&a);
	cpufreq_free(&b);
}

/* ---- fixtures ------------------------------------------------------------ */

static bool open_fixture(const char *name, struct sysroot *r, struct topology *t)
{
	const char *dir = fixture(name);

	if (access(dir, F_OK) != 0)
		return false;
	if (sysroot_open(r, dir) != 0)
		return false;
	if (topology_read(r, t) != 0) {
		sysroot_close(r);
		return false;
	}
	return true;
}

static const char *tunable(const struct cpufreq_policy *p, const char *name)
{
	for (size_t i = 0; i < p->ntunables; i++)
		if (!strcmp(p->tunables[i].name, name))
			return p->tunables[i].value;
	return NULL;
}

static void test_rk3588(void)
{
	struct sysroot r;
	struct topology t;
	struct cpufreq_info f;
	const struct cpufreq_policy *p;
	char buf[64];

	if (!open_fixture("rk3588", &r, &t)) {
		ok(1, "# SKIP rk3588 fixture missing");
		return;
	}
	is_int(cpufreq_read(&r, &t, &f), 0, "rk3588: read");
	is_int(f.npolicies, 3, "rk3588: 3 policies");
	p = cpufreq_policy_find(&f, "policy4");
	ok(p != NULL, "rk3588: policy4 found");
	if (!p)
		goto out;
	is_str(f.pol[0].name, "policy0", "sorted: policy0 first");
	is_str(f.pol[2].name, "policy6", "sorted: policy6 last");
	cpulist_format(&p->cpus, buf, sizeof(buf));
	is_str(buf, "4-5", "policy4 related_cpus 4-5");
	is_int(p->id, 4, "policy4 id");
	is_str(p->driver, "cpufreq-dt", "driver cpufreq-dt");
	is_str(p->governor, "interactive", "governor interactive");
	is_int(p->navail, 11, "policy4: 11 OPPs");
	ok(p->navail == 11 && p->avail_khz[0] == 408000 && p->avail_khz[10] == 2256000,
	   "OPPs 408000..2256000");
	is_int(p->ngov, 7, "7 governors (trailing space format)");
	is_int(p->min_khz, 408000, "scaling_min_freq");
	is_int(p->max_khz, 2256000, "scaling_max_freq");
	is_int(p->hw_min_khz, 408000, "cpuinfo_min_freq");
	is_int(p->hw_max_khz, 2256000, "cpuinfo_max_freq");
	is_int(p->transition_latency_ns, 40000, "transition latency 40000 ns");
	is_int(p->hw_cur_khz, -1, "cpuinfo_cur_freq absent: n/a");
	ok(p->cur_khz > 0, "scaling_cur_freq read");
	ok(p->have_stats, "stats present");
	is_int(p->nstates, 11, "time_in_state: 11 OPPs");
	ok(p->have_total_trans, "total_trans present");
	ok(p->have_trans_table, "trans_table parsed");
	is_int(p->ntrans, 11, "trans_table 11x11");
	is_str(p->tunables_gov, "interactive", "tunables from interactive/");
	ok(!p->tunables_global, "tunables per policy");
	ok(p->ntunables >= 8, "interactive tunables read");
	is_str(tunable(p, "hispeed_freq"), "816000", "policy4 hispeed_freq 816000");
	is_str(tunable(p, "min_sample_time"), "40000", "min_sample_time 40000");
	is_str(tunable(p, "boostpulse_duration"), "40000", "boostpulse_duration 40000");
	ok(tunable(p, "boostpulse") == NULL, "write-only boostpulse not listed");
	is_str(tunable(&f.pol[0], "hispeed_freq"), "1008000", "policy0 hispeed_freq 1008000");
	is_str(p->epp, "", "no EPP on ARM");
	ok(!f.have_pstate, "no intel_pstate");
	is_int(cpufreq_policy_index(&f, 5), 1, "cpu5 -> policy4 (index 1)");
	is_int(cpufreq_policy_index(&f, 0), 0, "cpu0 -> policy0");
	is_int(cpufreq_policy_index(&f, 7), 2, "cpu7 -> policy6");
	is_int(cpufreq_policy_index(&f, 8), -1, "cpu8 -> none");
	is_int(cpufreq_policy_index(&f, -1), -1, "cpu-1 -> none");
	ok(cpufreq_policy_find(&f, "cpu5") == p, "find by cpu5");
	ok(cpufreq_policy_find(&f, "policy9") == NULL, "policy9 not found");
	ok(isnan(p->transitions_per_s), "not derived yet: NAN");
out:
	cpufreq_free(&f);
	topology_free(&t);
	sysroot_close(&r);
}

static int run(const char *cmd)
{
	int rc = system(cmd);

	return rc;
}

static void write_file(const char *root, const char *rel, const char *text)
{
	char path[1024];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fp = fopen(path, "w");
	if (!fp) {
		ok(0, "write %s", path);
		return;
	}
	fputs(text, fp);
	fclose(fp);
}

/* Copy the rk3588 fixture, change the counters of policy4, read again and
 * check the rates against hand-computed values. */
static void test_derive_fixture(void)
{
	char tmpl[] = "/tmp/tt-cpufreq-XXXXXX", cmd[2048], root[1100];
	struct sysroot r;
	struct topology t;
	struct cpufreq_info a, b, c;
	const struct cpufreq_policy *p;

	if (access(fixture("rk3588"), F_OK) != 0 || !mkdtemp(tmpl)) {
		ok(1, "# SKIP rk3588 fixture missing");
		return;
	}
	snprintf(root, sizeof(root), "%s/root", tmpl);
	snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s'", fixture("rk3588"), root);
	if (run(cmd) != 0 || sysroot_open(&r, root) != 0 || topology_read(&r, &t) != 0) {
		ok(0, "copy rk3588 fixture");
		return;
	}
	write_file(root, POL "policy4/stats/time_in_state",
		   "408000 1000\n600000 0\n816000 0\n1008000 0\n1200000 0\n1416000 0\n"
		   "1608000 0\n1800000 0\n2016000 0\n2208000 0\n2256000 2000\n");
	write_file(root, POL "policy4/stats/total_trans", "500\n");
	cpufreq_read(&r, &t, &a);
	/* 2 s later: 150 x 10 ms at 408 MHz, 50 at 2256 MHz, 20 transitions */
	write_file(root, POL "policy4/stats/time_in_state",
		   "408000 1150\n600000 0\n816000 0\n1008000 0\n1200000 0\n1416000 0\n"
		   "1608000 0\n1800000 0\n2016000 0\n2208000 0\n2256000 2050\n");
	write_file(root, POL "policy4/stats/total_trans", "520\n");
	cpufreq_read(&r, &t, &b);
	cpufreq_derive(&b, &a, 2.0);
	p = cpufreq_policy_find(&b, "policy4");
	ok(p && p->tis_pct, "policy4 derived");
	if (p && p->tis_pct) {
		is_dbl(p->transitions_per_s, 10.0, 1e-9, "fixture: 20 transitions / 2 s = 10/s");
		is_dbl(p->tis_pct[0], 75.0, 1e-9, "fixture: 408 MHz 1.5 s / 2 s = 75 %");
		is_dbl(p->tis_pct[10], 25.0, 1e-9, "fixture: 2256 MHz 25 %");
		is_dbl(p->tis_pct[5], 0.0, 1e-9, "fixture: 1416 MHz 0 %");
	}
	p = cpufreq_policy_find(&b, "policy0");
	ok(p && isnan(p->transitions_per_s) && p->tis_pct && isnan(p->tis_pct[0]),
	   "unchanged policy0 (nothing counted, a static tree): n/a, not 0/s and 0 %%");
	/* stats/reset: counters restart near 0 */
	write_file(root, POL "policy4/stats/time_in_state",
		   "408000 3\n600000 0\n816000 0\n1008000 0\n1200000 0\n1416000 0\n"
		   "1608000 0\n1800000 0\n2016000 0\n2208000 0\n2256000 1\n");
	write_file(root, POL "policy4/stats/total_trans", "2\n");
	cpufreq_read(&r, &t, &c);
	cpufreq_derive(&c, &b, 2.0);
	p = cpufreq_policy_find(&c, "policy4");
	ok(p && isnan(p->transitions_per_s) && p->tis_pct && isnan(p->tis_pct[0]) &&
		   isnan(p->tis_pct[10]),
	   "fixture: counter reset gives NAN, not negative");
	cpufreq_free(&c);
	/* policy6 vanished (e.g. driver reloaded): the rest still derives */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/" POL "policy6'", root);
	run(cmd);
	cpufreq_read(&r, &t, &c);
	is_int(c.npolicies, 2, "policy6 removed: 2 policies");
	cpufreq_derive(&c, &b, 2.0);
	is_int(cpufreq_policy_index(&c, 6), -1, "cpu6 has no policy now");
	cpufreq_derive(&b, &c, 2.0);
	p = cpufreq_policy_find(&b, "policy6");
	ok(p && isnan(p->transitions_per_s), "policy missing from prev: NAN");

	cpufreq_free(&a);
	cpufreq_free(&b);
	cpufreq_free(&c);
	topology_free(&t);
	sysroot_close(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	run(cmd);
}

static void test_json_text(void)
{
	struct sysroot r;
	struct topology t;
	struct cpufreq_info f;
	struct sbuf b;
	struct jw w;

	if (!open_fixture("rk3588", &r, &t)) {
		ok(1, "# SKIP rk3588 fixture missing");
		return;
	}
	cpufreq_read(&r, &t, &f);
	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_cpufreq_json(&w, &f, NULL);
	jw_obj_end(&w);
	ok(strstr(b.s, "\"policies\":[{\"name\":\"policy0\",\"cpus\":[0,1,2,3]") != NULL,
	   "json: policies array with cpus");
	ok(strstr(b.s, "\"name\":\"policy4\",\"cpus\":[4,5]") != NULL, "json: policy4 cpus [4,5]");
	ok(strstr(b.s, "\"governor\":\"interactive\"") != NULL, "json: governor");
	ok(strstr(b.s, "\"hw_cur_khz\":null") != NULL, "json: n/a is null");
	ok(strstr(b.s, "\"transitions_per_s\":null") != NULL, "json: underived rate is null");
	ok(strstr(b.s, "\"time_in_state_pct\":{\"408000\":null") != NULL,
	   "json: time_in_state_pct keyed by kHz");
	ok(strstr(b.s, "\"hispeed_freq\":\"816000\"") != NULL, "json: tunables");
	ok(strstr(b.s, "\"intel_pstate\":null}") != NULL, "json: intel_pstate null");
	sbuf_reset(&b);
	out_cpufreq_text(&b, &f, &t, NULL);
	ok(strstr(b.s, "policy4") && strstr(b.s, "cpus 4-5") && strstr(b.s, "interactive"),
	   "text: policy4 line");
	ok(strstr(b.s, "n/a trans/s") != NULL, "text: n/a spelled n/a");
	sbuf_free(&b);
	cpufreq_free(&f);
	topology_free(&t);
	sysroot_close(&r);
}

static void test_intel(void)
{
	struct sysroot r;
	struct topology t;
	struct cpufreq_info f;
	const struct cpufreq_policy *p;
	struct sbuf b;
	struct jw w;

	if (!open_fixture("intel", &r, &t)) {
		ok(1, "# SKIP intel fixture missing");
		return;
	}
	is_int(cpufreq_read(&r, &t, &f), 0, "intel: read");
	ok(f.npolicies >= 2, "intel: one policy per CPU");
	p = f.npolicies ? &f.pol[0] : NULL;
	if (p) {
		char buf[32];

		cpulist_format(&p->cpus, buf, sizeof(buf));
		is_str(buf, "0", "intel: policy0 covers cpu0 only");
		is_str(p->driver, "intel_pstate", "intel: driver intel_pstate");
		ok(!p->have_stats && !p->have_total_trans && !p->have_trans_table,
		   "intel: no stats");
		is_int(p->navail, 0, "intel: no available frequencies");
		ok(p->avail_khz == NULL, "intel: avail_khz NULL");
		is_int(p->ngov, 2, "intel: performance powersave");
		ok(p->epp[0] != '\0', "intel: EPP read");
		ok(p->nepp == 5, "intel: 5 EPP choices");
		is_str(p->tunables_gov, "", "intel: no tunables dir");
		cpufreq_derive(&f, &f, 1.0);
		ok(isnan(p->transitions_per_s), "intel: transitions/s n/a without stats");
		ok(p->tis_pct == NULL, "intel: no tis_pct");
	}
	ok(f.have_pstate, "intel: intel_pstate present");
	is_str(f.pstate_status, "active", "intel: status active");
	ok(f.no_turbo == 0 || f.no_turbo == 1, "intel: no_turbo read");
	ok(f.min_perf_pct >= 0 && f.max_perf_pct > 0, "intel: min/max_perf_pct read");
	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_cpufreq_json(&w, &f, NULL);
	jw_obj_end(&w);
	ok(strstr(b.s, "\"available_khz\":null") != NULL, "intel json: available_khz null");
	ok(strstr(b.s, "\"time_in_state_pct\":null") != NULL, "intel json: time_in_state_pct null");
	ok(strstr(b.s, "\"intel_pstate\":{\"status\":\"active\"") != NULL,
	   "intel json: intel_pstate object");
	sbuf_reset(&b);
	out_cpufreq_text(&b, &f, &t, NULL);
	ok(strstr(b.s, "intel_pstate status active") != NULL, "intel text: pstate line");
	sbuf_free(&b);
	cpufreq_free(&f);
	topology_free(&t);
	sysroot_close(&r);
}

static void test_broken(void)
{
	struct sysroot r;
	struct topology t;
	struct cpufreq_info f;
	const struct cpufreq_policy *p;
	struct sbuf b;
	struct jw w;

	if (!open_fixture("broken", &r, &t)) {
		ok(1, "# SKIP broken fixture missing");
		return;
	}
	is_int(cpufreq_read(&r, &t, &f), 0, "broken: read");
	is_int(f.npolicies, 2, "broken: policy0 and policy3");
	p = cpufreq_policy_find(&f, "policy0");
	ok(p != NULL, "broken: policy0");
	if (p) {
		is_int(p->max_khz, -1, "broken: garbage scaling_max_freq is n/a");
		is_int(p->cur_khz, -1, "broken: empty scaling_cur_freq is n/a");
		is_int(p->min_khz, 408000, "broken: scaling_min_freq still read");
		is_int(p->hw_cur_khz, 816000, "broken: cpuinfo_cur_freq read where present");
		ok(p->have_stats, "broken: time_in_state with a garbage line still parsed");
		is_int(p->nstates, 3, "broken: garbage line skipped, 3 OPPs");
		ok(!p->have_trans_table && p->trans == NULL,
		   "broken: truncated trans_table is n/a");
		ok(p->have_total_trans && p->total_trans == 977, "broken: total_trans");
	}
	p = cpufreq_policy_find(&f, "policy3");
	ok(p != NULL, "broken: policy3");
	if (p) {
		is_str(p->governor, "", "broken: missing scaling_governor is \"\"");
		is_str(p->tunables_gov, "", "broken: no governor, no tunables");
		is_int(p->cur_khz, 1200000, "broken: policy3 cur");
	}
	ok(!cpumask_test(&t.online, 2), "broken: cpu2 offline");
	is_int(cpufreq_policy_index(&f, 2), -1, "broken: offline cpu2 has no policy");
	is_int(cpufreq_policy_index(&f, 1), 0, "broken: cpu1 -> policy0");
	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_cpufreq_json(&w, &f, NULL);
	jw_obj_end(&w);
	ok(strstr(b.s, "\"cur_khz\":null,\"min_khz\":408000,\"max_khz\":null") != NULL,
	   "broken json: n/a frequencies are null");
	ok(strstr(b.s, "\"name\":\"policy3\",\"cpus\":[3],\"affected_cpus\":[3],"
		       "\"driver\":\"cpufreq-dt\",\"governor\":null") != NULL,
	   "broken json: missing governor is null");
	sbuf_reset(&b);
	out_cpufreq_text(&b, &f, &t, NULL);
	ok(strstr(b.s, "governor n/a") && strstr(b.s, "cur n/a MHz") && strstr(b.s, "max n/a MHz"),
	   "broken text: n/a values");
	sbuf_free(&b);
	cpufreq_free(&f);
	topology_free(&t);
	sysroot_close(&r);
}

static void test_small_boards(void)
{
	struct sysroot r;
	struct topology t;
	struct cpufreq_info f;

	if (open_fixture("stm32mp157", &r, &t)) {
		is_int(cpufreq_read(&r, &t, &f), 0, "stm32mp157: read");
		if (f.npolicies) {
			char buf[32];

			cpulist_format(&f.pol[0].cpus, buf, sizeof(buf));
			is_str(buf, "0-1", "stm32mp157: policy0 cpus 0-1");
			ok(f.pol[0].navail >= 1, "stm32mp157: OPP list");
		} else {
			ok(1, "stm32mp157: no cpufreq (mainline DT)");
		}
		cpufreq_free(&f);
		topology_free(&t);
		sysroot_close(&r);
	} else {
		ok(1, "# SKIP stm32mp157 fixture missing");
	}
	if (open_fixture("rpi4", &r, &t)) {
		is_int(cpufreq_read(&r, &t, &f), 0, "rpi4: read");
		is_int(f.npolicies, 1, "rpi4: one policy");
		if (f.npolicies) {
			is_int(f.pol[0].navail, 10, "rpi4: 10 OPPs");
			is_int(f.pol[0].hw_min_khz, 600000, "rpi4: hw min 600 MHz");
			is_int(f.pol[0].hw_max_khz, 1500000, "rpi4: hw max 1500 MHz");
			is_int(f.pol[0].ngov, 6, "rpi4: 6 governors");
		}
		cpufreq_free(&f);
		topology_free(&t);
		sysroot_close(&r);
	} else {
		ok(1, "# SKIP rpi4 fixture missing");
	}
}

static void test_empty_root(void)
{
	char tmpl[] = "/tmp/tt-cpufreq-XXXXXX";
	struct sysroot r;
	struct cpufreq_info f;
	struct sbuf b;
	struct jw w;

	if (!mkdtemp(tmpl) || sysroot_open(&r, tmpl) != 0) {
		ok(0, "temp root");
		return;
	}
	is_int(cpufreq_read(&r, NULL, &f), 0, "empty root: read returns 0");
	is_int(f.npolicies, 0, "empty root: no policies");
	ok(!f.have_pstate && f.boost == -1, "empty root: globals n/a");
	is_int(cpufreq_policy_index(&f, 0), -1, "empty root: no policy for cpu0");
	cpufreq_derive(&f, NULL, 1.0);
	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_cpufreq_json(&w, &f, NULL);
	jw_obj_end(&w);
	is_str(b.s, "{\"policies\":[],\"intel_pstate\":null}", "empty root json");
	sbuf_free(&b);
	cpufreq_free(&f);
	sysroot_close(&r);
	rmdir(tmpl);
}

/* Old kernels: no policyN, the owner CPU has cpuN/cpufreq. */
static void test_old_layout(void)
{
	char tmpl[] = "/tmp/tt-cpufreq-XXXXXX", cmd[1024];
	char d[1100];
	struct sysroot r;
	struct topology t;
	struct cpufreq_info f;

	if (!mkdtemp(tmpl)) {
		ok(0, "temp root");
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && mkdir -p " CPU "cpu0/cpufreq " CPU "cpu1 " CPU "cpu2/cpufreq " CPU
		 "cpu3 " CPU "cpufreq/ondemand && ln -s ../cpu0/cpufreq " CPU
		 "cpu1/cpufreq && ln -s ../cpu2/cpufreq " CPU "cpu3/cpufreq",
		 tmpl);
	if (run(cmd) != 0) {
		ok(0, "build old layout");
		return;
	}
	snprintf(d, sizeof(d), "%s", tmpl);
	write_file(d, "sys/devices/system/cpu/possible", "0-3\n");
	write_file(d, "sys/devices/system/cpu/online", "0-3\n");
	write_file(d, "sys/devices/system/cpu/cpu0/cpufreq/related_cpus", "0 1\n");
	write_file(d, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "ondemand\n");
	write_file(d, "sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_transition_latency",
		   "4294967295\n");
	write_file(d, "sys/devices/system/cpu/cpu2/cpufreq/related_cpus", "2 3\n");
	write_file(d, "sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "ondemand\n");
	write_file(d, "sys/devices/system/cpu/cpufreq/ondemand/sampling_rate", "20000\n");
	if (sysroot_open(&r, tmpl) != 0 || topology_read(&r, &t) != 0) {
		ok(0, "open old layout");
		return;
	}
	is_int(cpufreq_read(&r, &t, &f), 0, "old layout: read");
	is_int(f.npolicies, 2, "old layout: 2 policies from cpuN/cpufreq");
	if (f.npolicies == 2) {
		is_str(f.pol[1].name, "policy2", "old layout: named after first CPU");
		is_str(f.pol[1].dir, "sys/devices/system/cpu/cpu2/cpufreq", "old layout: dir");
		is_int(cpufreq_policy_index(&f, 3), 1, "old layout: cpu3 -> policy2");
		ok(f.pol[0].tunables_global, "old layout: global governor tunables");
		is_int(f.pol[0].ntunables, 1, "old layout: 1 tunable");
		is_int(f.pol[0].transition_latency_ns, -1, "CPUFREQ_ETERNAL is n/a");
	}
	cpufreq_free(&f);
	topology_free(&t);
	sysroot_close(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	run(cmd);
}

int main(void)
{
	test_parse_list();
	test_parse_tis();
	test_parse_trans();
	test_derive_hand();
	test_rk3588();
	test_derive_fixture();
	test_json_text();
	test_intel();
	test_broken();
	test_small_boards();
	test_empty_root();
	test_old_layout();
	return done_testing();
}
