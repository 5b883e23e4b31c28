/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for knob addresses (parser, expander, aliases, filters),
 * validation and profiles, against the read-only fixtures. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "knob/knob.h"
#include "knob/knob_int.h"
#include "tap.h"

static struct sysroot root;
static struct knob_ctx *ctx;

static int open_fixture(const char *name)
{
	char *cause = NULL;

	if (ctx) {
		knob_ctx_close(ctx);
		sysroot_close(&root);
		ctx = NULL;
	}
	if (sysroot_open(&root, fixture(name)) != 0)
		return -1;
	if (knob_ctx_open(&ctx, &root, NULL, KNOB_NO_JOURNAL, &cause) != 0) {
		free(cause);
		return -1;
	}
	return 0;
}

/* Expand and return the addresses joined by spaces (static buffer), or the error. */
static const char *expand(const char *pat, unsigned flags, int *err)
{
	static char buf[16384];
	struct knob_ref *refs = NULL;
	size_t n = 0, len = 0;
	char *cause = NULL;
	int e = knob_expand(ctx, pat, flags, &refs, &n, &cause);

	if (err)
		*err = e;
	buf[0] = '\0';
	if (e) {
		snprintf(buf, sizeof(buf), "%s", cause ? cause : "?");
	} else {
		for (size_t i = 0; i < n; i++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? " " : "",
						refs[i].addr);
	}
	free(refs);
	free(cause);
	return buf;
}

static size_t count(const char *pat, unsigned flags)
{
	struct knob_ref *refs = NULL;
	size_t n = 0;

	if (knob_expand(ctx, pat, flags, &refs, &n, NULL) != 0)
		n = 0;
	free(refs);
	return n;
}

static void test_rk3588(void)
{
	int e;
	struct knob_ref *refs = NULL;
	size_t n = 0;
	char buf[256], *cause = NULL;

	if (open_fixture("rk3588") != 0) {
		ok(0, "open rk3588 fixture");
		return;
	}
	is_str(expand("cpufreq/policy4/governor", 0, &e), "cpufreq/policy4/governor",
	       "policy address");
	is_str(expand("cpufreq/cpu5/governor", 0, &e), "cpufreq/policy4/governor",
	       "cpu5 resolves to its policy");
	is_str(expand("cpufreq/4-7/max_khz", 0, &e),
	       "cpufreq/policy4/max_khz cpufreq/policy6/max_khz",
	       "CPU list gives each policy once");
	is_str(expand("cpufreq/*/governor", 0, &e),
	       "cpufreq/policy0/governor cpufreq/policy4/governor cpufreq/policy6/governor",
	       "* expands every policy");
	is_str(expand("cpufreq/policy0/interactive/hispeed_freq", 0, &e),
	       "cpufreq/policy0/interactive/hispeed_freq", "governor tunable");
	is_str(expand("cpuidle/*/cpu-sleep/disable", 0, &e),
	       "cpuidle/cpu0/state1/disable cpuidle/cpu1/state1/disable "
	       "cpuidle/cpu2/state1/disable "
	       "cpuidle/cpu3/state1/disable cpuidle/cpu4/state1/disable "
	       "cpuidle/cpu5/state1/disable "
	       "cpuidle/cpu6/state1/disable cpuidle/cpu7/state1/disable",
	       "idle state by name on every CPU");
	is_str(expand("cpuidle/4-5/state1/disable", 0, &e),
	       "cpuidle/cpu4/state1/disable cpuidle/cpu5/state1/disable",
	       "state by index, CPU list");
	is_str(expand("cpuidle/cpu4/wfi/disable", 0, &e), "cpuidle/cpu4/state0/disable",
	       "state names match case-insensitively");
	is_int(count("cpuidle/*/latency>10/disable", 0), 8,
	       "filter latency>10 picks cpu-sleep (220 us)");
	is_str(expand("cpuidle/cpu0/latency>10/disable", 0, &e), "cpuidle/cpu0/state1/disable",
	       "filter on one CPU");
	is_str(expand("cpuidle/cpu0/>WFI/disable", 0, &e), "cpuidle/cpu0/state1/disable",
	       ">NAME: states deeper than WFI");
	is_int(count("cpuidle/*/latency>1000/disable", 0), 0, "filter matching nothing: empty");
	is_str(expand("devfreq/npu/governor", 0, &e), "devfreq/fdab0000.npu/governor", "npu alias");
	is_str(expand("devfreq/gpu/lock_hz", 0, &e), "devfreq/fb000000.gpu/lock_hz", "gpu alias");
	is_str(expand("devfreq/ddr/min_hz", 0, &e), "devfreq/dmc/min_hz", "ddr alias");
	is_int(count("devfreq/*/governor", 0), 3, "every devfreq device");
	is_str(expand("sched/rt_runtime_us", 0, &e), "sched/rt_runtime_us", "sched");
	is_str(expand("mm/thp", 0, &e), "mm/thp", "thp");
	ok(count("cpufreq", KNOB_EXPAND_PREFIX) > 10, "prefix 'cpufreq' lists the family");
	ok(count("*", KNOB_EXPAND_PREFIX) > count("cpufreq", KNOB_EXPAND_PREFIX), "'*' lists all");

	/* errors */
	expand("frobnicate/x", 0, &e);
	is_int(e, -ENOENT, "unknown family");
	ok(strstr(expand("frobnicate/x", 0, &e), "families: cpufreq") != NULL,
	   "unknown family lists the families");
	expand("cpufreq/policy9/governor", 0, &e);
	is_int(e, -ENOENT, "missing policy");
	ok(strstr(expand("cpufreq/policy9/governor", 0, &e), "policy0 policy4 policy6") != NULL,
	   "missing policy lists the policies");
	expand("cpufreq//governor", 0, &e);
	is_int(e, -EINVAL, "empty segment");
	expand("cpufreq/policy4", 0, &e);
	is_int(e, -EINVAL, "incomplete address");
	expand("cpuidle/cpu12/state1/disable", 0, &e);
	is_int(e, -ENOENT, "offline/absent CPU");
	ok(strstr(expand("cpuidle/cpu12/state1/disable", 0, &e), "offline") != NULL,
	   "says offline");
	expand("cpuidle/cpu0/C6/disable", 0, &e);
	is_int(e, -ENOENT, "unknown idle state name");
	expand("cpuidle/*/latency>abc/disable", 0, &e);
	is_int(e, -EINVAL, "malformed filter");
	expand("devfreq/vpu/governor", 0, &e);
	is_int(e, -ENOENT, "unknown devfreq device");
	expand("cpufreq/policy4/schedutil/rate_limit_us", 0, &e);
	is_int(e, -ENOENT, "tunables of an inactive governor");
	ok(strstr(expand("cpufreq/policy4/schedutil/rate_limit_us", 0, &e), "interactive") != NULL,
	   "says which governor is active");
	expand("pmqos/cpu_dma_latency_us", 0, &e);
	is_int(e, -ENOENT, "no dev/cpu_dma_latency in the fixture");
	expand("intel_pstate/no_turbo", 0, &e);
	is_int(e, -ENOENT, "no intel_pstate on RK3588");
	expand("cpufreq/*/energy_performance_preference", KNOB_EXPAND_EMPTY_OK, &e);
	is_int(e, 0, "wildcard matching nothing is fine with EMPTY_OK");

	/* read, allowed, validate */
	knob_expand(ctx, "mm/thp", 0, &refs, &n, NULL);
	knob_expand(ctx, "cpufreq/policy4/governor", 0, &refs, &n, NULL);
	knob_expand(ctx, "cpufreq/policy4/min_khz", 0, &refs, &n, NULL);
	knob_expand(ctx, "cpufreq/policy4/lock_khz", 0, &refs, &n, NULL);
	knob_expand(ctx, "sched/rt_runtime_us", 0, &refs, &n, NULL);
	knob_expand(ctx, "pmqos/cpu0/resume_latency_us", 0, &refs, &n, NULL);
	knob_expand(ctx, "devfreq/npu/max_hz", 0, &refs, &n, NULL);
	if (n != 7) {
		ok(0, "expanded the knobs to validate");
		free(refs);
		return;
	}
	is_int(knob_read(ctx, &refs[0], buf, sizeof(buf)), 0, "read thp");
	is_str(buf, "madvise", "thp value is the bracketed word");
	knob_allowed(ctx, &refs[0], buf, sizeof(buf));
	is_str(buf, "always madvise never", "thp allowed values without brackets");
	is_int(knob_validate(ctx, &refs[0], "never", buf, sizeof(buf), &cause), 0, "thp never ok");
	is_int(knob_validate(ctx, &refs[0], "sometimes", buf, sizeof(buf), &cause), -EINVAL,
	       "thp sometimes refused");
	is_int(knob_validate(ctx, &refs[1], "turbo", buf, sizeof(buf), &cause), -EINVAL,
	       "governor turbo refused");
	ok(cause && strstr(cause, "EINVAL from ") && strstr(cause, "scaling_available_governors") &&
		   strstr(cause, "'turbo' is not in available governors: interactive"),
	   "message names errno, file and the allowed list");
	printf("# %s\n", cause ? cause : "");
	is_int(knob_validate(ctx, &refs[1], " performance ", buf, sizeof(buf), &cause), 0,
	       "governor performance ok (spaces trimmed)");
	is_str(buf, "performance", "normalized");
	is_int(knob_validate(ctx, &refs[2], "max", buf, sizeof(buf), &cause), 0, "min_khz=max");
	is_str(buf, "2256000", "'max' is the highest available frequency");
	is_int(knob_validate(ctx, &refs[2], "min", buf, sizeof(buf), &cause), 0, "min_khz=min");
	is_str(buf, "408000", "'min' is the lowest");
	is_int(knob_validate(ctx, &refs[2], "1500000", buf, sizeof(buf), &cause), -EINVAL,
	       "a frequency that is not an OPP is refused");
	is_int(knob_validate(ctx, &refs[3], "off", buf, sizeof(buf), &cause), 0, "lock_khz=off");
	is_int(knob_read(ctx, &refs[3], buf, sizeof(buf)), 0, "read lock_khz");
	is_str(buf, "off", "lock reads off when min != max");
	is_int(knob_validate(ctx, &refs[4], "-1", buf, sizeof(buf), &cause), 0, "rt_runtime -1 ok");
	is_int(knob_validate(ctx, &refs[4], "-2", buf, sizeof(buf), &cause), -EINVAL,
	       "rt_runtime -2 refused");
	is_int(knob_validate(ctx, &refs[5], "n/a", buf, sizeof(buf), &cause), 0,
	       "resume latency n/a ok");
	is_int(knob_validate(ctx, &refs[5], "-5", buf, sizeof(buf), &cause), -EINVAL,
	       "negative resume latency refused");
	is_int(knob_validate(ctx, &refs[6], "1000000000", buf, sizeof(buf), &cause), 0,
	       "devfreq Hz value ok");
	is_int(knob_validate(ctx, &refs[6], "1000000", buf, sizeof(buf), &cause), -EINVAL,
	       "devfreq kHz-looking value refused (units are Hz)");
	free(cause);
	free(refs);
}

static void test_intel(void)
{
	int e;

	if (open_fixture("intel") != 0) {
		ok(0, "open intel fixture");
		return;
	}
	is_str(expand("cpuidle/cpu0/>C1/disable", 0, &e),
	       "cpuidle/cpu0/state2/disable cpuidle/cpu0/state3/disable", ">C1 picks C1E and C6");
	is_str(expand("cpuidle/cpu0/C6/disable", 0, &e), "cpuidle/cpu0/state3/disable",
	       "C6 by name");
	is_str(expand("intel_pstate/*", 0, &e),
	       "intel_pstate/no_turbo intel_pstate/min_perf_pct intel_pstate/max_perf_pct",
	       "intel_pstate knobs");
	is_str(expand("cpufreq/policy0/energy_performance_preference", 0, &e),
	       "cpufreq/policy0/energy_performance_preference", "EPP where present");
	{
		struct knob_ref *refs = NULL;
		size_t n = 0;
		char buf[128];

		knob_expand(ctx, "cpufreq/policy0/energy_performance_preference", 0, &refs, &n,
			    NULL);
		knob_expand(ctx, "cpufreq/policy0/max_khz", 0, &refs, &n, NULL);
		if (n == 2) {
			is_int(knob_validate(ctx, &refs[0], "balance_power", buf, sizeof(buf),
					     NULL),
			       0, "EPP by name");
			is_int(knob_validate(ctx, &refs[0], "128", buf, sizeof(buf), NULL), 0,
			       "EPP by number");
			is_int(knob_validate(ctx, &refs[0], "300", buf, sizeof(buf), NULL), -EINVAL,
			       "EPP number above 255 refused");
			is_int(knob_validate(ctx, &refs[1], "4000000", buf, sizeof(buf), NULL), 0,
			       "no frequency table: any value in cpuinfo range");
			is_int(knob_validate(ctx, &refs[1], "9000000", buf, sizeof(buf), NULL),
			       -EINVAL, "above cpuinfo_max_freq refused");
		} else {
			ok(0, "intel EPP and max_khz expand");
		}
		free(refs);
	}
}

static void test_devfreq_kind(void)
{
	is_str(knob_devfreq_kind("dmc"), "ddr", "dmc is ddr");
	is_str(knob_devfreq_kind("ddr_devfreq"), "ddr", "*ddr* is ddr");
	is_str(knob_devfreq_kind("fdab0000.npu"), "npu", "*.npu is npu");
	is_str(knob_devfreq_kind("fb000000.gpu"), "gpu", "*.gpu is gpu");
	is_str(knob_devfreq_kind("ff9a0000.mali"), "gpu", "*mali* is gpu");
	is_str(knob_devfreq_kind("soc:bus-cpu"), "other", "others");
}

static const char *write_tmp(const char *name, const char *text)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name);
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_profiles(void)
{
	struct knob_profile p;
	char *cause = NULL, why[512];
	const char *path;
	char name[64];

	snprintf(name, sizeof(name), "tt-good-%d.profile", (int)getpid());
	path = write_tmp(name, "# comment\n[profile]\ndescription = test ; inline\n"
			       "match = rockchip,rk3588 | GenuineIntel   # two boards\n\n[knobs]\n"
			       "cpufreq/policy4/governor = performance\n"
			       "cpuidle/*/latency>10/disable = 1   # filter\n");
	is_int(knob_profile_load(path, &p, &cause), 0, "good profile loads");
	is_int(p.n, 2, "two knobs");
	is_str(p.assign[0], "cpufreq/policy4/governor=performance", "assignment");
	is_str(p.assign[1], "cpuidle/*/latency>10/disable=1", "filter key, # comment stripped");
	ok(strstr(p.label[1], ":8") != NULL, "label carries the line number");
	is_int(p.nmatch, 2, "two match alternatives");
	is_str(p.description, "test", "description (; comment stripped)");
	open_fixture("rk3588");
	is_int(knob_profile_match(&p, &root, why, sizeof(why)), 1,
	       "matches rk3588 by DT compatible");
	open_fixture("intel");
	is_int(knob_profile_match(&p, &root, why, sizeof(why)), 1, "matches intel by cpuinfo");
	open_fixture("rpi4");
	is_int(knob_profile_match(&p, &root, why, sizeof(why)), 0, "does not match rpi4");
	ok(strstr(why, "bcm2711") != NULL, "says what the root is");
	knob_profile_free(&p);
	unlink(path);

	{
		static const struct {
			const char *text, *want;
		} bad[] = {
			{"[knobs]\ncpufreq/policy4/governor performance\n", ":2: syntax error"},
			{"[knobs]\nmm/thp = never\n[weird]\nx = 1\n",
			 ":3: unknown section [weird]"},
			{"[knobs]\nmm/thp = never\nmm/thp = always\n",
			 ":3: 'mm/thp' is set twice (first at line 2)"},
			{"mm/thp = never\n", ":1: 'mm/thp' outside a section"},
			{"[profile]\ncolor = red\n[knobs]\nmm/thp = never\n",
			 ":2: unknown key 'color'"},
			{"[knobs]\nmm/thp = never\n  sched/rt_runtime_us = -1\n",
			 ":3: indented line"},
			{"[knobs]\nmm/thp =\n", ":2: 'mm/thp' has no value"},
			{"[profile]\ndescription = nothing\n", "no knobs"},
			{"[knobs]\nmm/thp = never\n", ": missing [profile] description"},
			{"[profile]\nmatch = GenuineIntel\n[knobs]\nmm/thp = never\n",
			 ": missing [profile] description"},
			{"[profile]\ndescription =\n[knobs]\nmm/thp = never\n",
			 ": missing [profile] description"},
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			snprintf(name, sizeof(name), "tt-bad%zu-%d.profile", i, (int)getpid());
			path = write_tmp(name, bad[i].text);
			free(cause);
			cause = NULL;
			is_int(knob_profile_load(path, &p, &cause), -EINVAL,
			       "malformed profile refused");
			if (!ok(cause && strstr(cause, bad[i].want), "message: file:line: reason"))
				printf("#   got '%s', want '%s'\n", cause ? cause : "",
				       bad[i].want);
			unlink(path);
		}
	}
	free(cause);
}

/* The engine API as the TUI and ab use it: a ctx that holds the lock, a
 * second one that falls back to read-only, scoped changes restored by run. */
static void test_api(void)
{
	char dir[256], cmd[600], root_path[300], state[300], buf[64];
	struct sysroot r;
	struct knob_ctx *a = NULL, *b = NULL;
	char *cause = NULL;
	const char *why = NULL;
	struct sbuf rep;
	struct knob_jentry *e;
	size_t n;
	const char *set1[] = {"mm/thp=never", "cpuidle/4-5/cpu-sleep/disable=1"};

	snprintf(dir, sizeof(dir), "%s/tt-api.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		abort();
	snprintf(root_path, sizeof(root_path), "%s/root", dir);
	snprintf(state, sizeof(state), "%s/state", dir);
	snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s'", fixture("rk3588"), root_path);
	if (system(cmd) != 0 || sysroot_open(&r, root_path) != 0) {
		ok(0, "copy rk3588");
		return;
	}
	is_int(knob_ctx_open(&a, &r, state, KNOB_HOLD_LOCK, &cause), 0,
	       "TUI-style ctx holds the lock");
	ok(!knob_ctx_readonly(a, NULL), "and is writable");
	is_int(knob_ctx_open(&b, &r, state, KNOB_HOLD_LOCK | KNOB_READONLY_OK, &cause), 0,
	       "second instance opens");
	ok(knob_ctx_readonly(b, &why), "read-only");
	ok(why && strstr(why, "journal locked by pid"), "and says why");
	sbuf_init(&rep);
	is_int(knob_set_many(b, set1, NULL, 2, 0, &rep, &cause), -EROFS,
	       "read-only ctx refuses to write");
	is_int(knob_exit_code(-EROFS), 1, "exit code 1");
	is_int(knob_set_many(a, set1, NULL, 2, KNOB_SCOPED, &rep, &cause), 0, "scoped change");
	is_int(sysfs_read_str(&r, "sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf)),
	       0, "read back");
	is_str(buf, "never", "thp changed");
	is_int(knob_journal_list(b, &e, &n, NULL, &cause), 0, "read-only ctx lists the journal");
	is_int(n, 3, "three entries");
	ok(n == 3 && e[0].scoped && e[0].alive && !e[0].orphaned && e[0].state == KNOB_J_ACTIVE,
	   "scoped, alive, active");
	ok(n == 3 && !strcmp(e[0].run, knob_ctx_run_id(a)), "run id recorded");
	knob_journal_free(e, n);
	is_int(knob_restore_run(a, "1-1", 0, &rep, &cause), 0, "restore of another run");
	is_int(sysfs_read_str(&r, "sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf)),
	       0, "read back");
	is_str(buf, "never", "touches nothing");
	is_int(knob_restore_run(a, knob_ctx_run_id(a), 0, &rep, &cause), 0, "restore own run");
	sysfs_read_str(&r, "sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf));
	is_str(buf, "always [madvise] never", "exact bytes back");
	knob_ctx_close(b);
	knob_ctx_close(a);
	sysroot_close(&r);
	sbuf_free(&rep);
	free(cause);
	snprintf(cmd, sizeof(cmd), "diff -r --no-dereference '%s' '%s' >/dev/null && rm -rf '%s'",
		 fixture("rk3588"), root_path, dir);
	is_int(system(cmd), 0, "tree identical to the fixture");
}

int main(void)
{
	test_rk3588();
	test_intel();
	test_devfreq_kind();
	test_profiles();
	test_api();
	if (ctx) {
		knob_ctx_close(ctx);
		sysroot_close(&root);
	}
	return done_testing();
}
