/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/source/rt (sched debug parser: both rt_rq spellings,
 * child groups, with and without rt_nr_migratory, unlimited runtime,
 * truncated input; reading the fixtures; throttle events between samples)
 * and src/out/rt_out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/str.h"
#include "out/rt_out.h"
#include "source/rt.h"
#include "tap.h"

/* 6.1 without RT_GROUP_SCHED: plain "rt_rq[N]:", with rt_nr_migratory. */
static const char plain[] = "Sched Debug Version: v0.11, 6.1.115+ #1\n"
			    "ktime                                   : 154686054.464400\n"
			    "\n"
			    "cpu#0\n"
			    "  .nr_running                    : 1\n"
			    "\n"
			    "cfs_rq[0]:/\n"
			    "  .nr_running                    : 1\n"
			    "\n"
			    "rt_rq[0]:\n"
			    "  .rt_nr_running                 : 2\n"
			    "  .rt_nr_migratory               : 0\n"
			    "  .rt_throttled                  : 0\n"
			    "  .rt_time                       : 12.500000\n"
			    "  .rt_runtime                    : 950.000000\n"
			    "\n"
			    "dl_rq[0]:\n"
			    "  .dl_nr_running                 : 1\n"
			    "  .dl_bw->bw                     : 996147\n"
			    "  .dl_bw->total_bw               : 104856\n"
			    "\n"
			    "runnable tasks:\n"
			    " S            task   PID         tree-key  switches  prio\n"
			    "\n"
			    "cpu#1\n"
			    "\n"
			    "rt_rq[1]:\n"
			    "  .rt_nr_running                 : 0\n"
			    "  .rt_nr_migratory               : 0\n"
			    "  .rt_throttled                  : 1\n"
			    "  .rt_time                       : 950.100000\n"
			    "  .rt_runtime                    : 950.000000\n";

/* RT_GROUP_SCHED: "rt_rq[N]:/" root and a child group after it, no
 * rt_nr_migratory (6.7+), CPU 3 only (sparse). */
static const char grouped[] = "cpu#3, 2904.000 MHz\n"
			      "rt_rq[3]:/\n"
			      "  .rt_nr_running                 : 1\n"
			      "  .rt_throttled                  : 0\n"
			      "  .rt_time                       : 0.039712\n"
			      "  .rt_runtime                    : 950.000000\n"
			      "\n"
			      "rt_rq[3]:/bg_non_interactive\n"
			      "  .rt_nr_running                 : 7\n"
			      "  .rt_throttled                  : 1\n"
			      "  .rt_time                       : 5.000000\n"
			      "  .rt_runtime                    : 100.000000\n";

static void test_parse(void)
{
	struct rt_info rt;

	memset(&rt, 0, sizeof(rt));
	is_int(rt_parse_sched_debug(plain, &rt), 0, "plain spelling parses");
	is_int(rt.ncpu, 2, "2 CPUs");
	ok(rt.cpu[0].have_rt && rt.cpu[1].have_rt, "both have rt_rq");
	is_int(rt.cpu[0].nr_running, 2, "cpu0 rt_nr_running");
	is_int(rt.cpu[0].throttled, 0, "cpu0 not throttled");
	is_dbl(rt.cpu[0].rt_time_ms, 12.5, 1e-9, "cpu0 rt_time");
	is_dbl(rt.cpu[0].rt_runtime_ms, 950.0, 1e-9, "cpu0 rt_runtime");
	is_dbl(rt.cpu[0].rt_use_pct, 100.0 * 12.5 / 950.0, 1e-9, "cpu0 use percent");
	is_int(rt.cpu[0].dl_nr_running, 1, "dl_nr_running");
	is_int(rt.cpu[0].dl_bw, 996147, "dl_bw->bw");
	is_int(rt.cpu[0].dl_total_bw, 104856, "dl_bw->total_bw");
	is_int(rt.cpu[1].throttled, 1, "cpu1 throttled");
	is_int(rt.cpu[1].dl_nr_running, -1, "cpu1 has no dl_rq block: n/a");
	ok(isnan(rt.cpu[1].rt_time_delta_ms), "no delta before derive");
	rt_free(&rt);

	memset(&rt, 0, sizeof(rt));
	is_int(rt_parse_sched_debug(grouped, &rt), 0, "rt_rq[N]:/ spelling parses");
	is_int(rt.ncpu, 4, "array sized to the highest CPU");
	ok(!rt.cpu[0].have_rt && rt.cpu[0].nr_running == -1, "cpu0 without a block is n/a");
	is_int(rt.cpu[3].nr_running, 1, "root group counts");
	is_int(rt.cpu[3].throttled, 0, "child group's throttled ignored");
	is_dbl(rt.cpu[3].rt_time_ms, 0.039712, 1e-9, "root rt_time");
	is_dbl(rt.cpu[3].rt_runtime_ms, 950.0, 1e-9, "root rt_runtime");
	rt_free(&rt);

	/* Unlimited runtime: RUNTIME_INF printed as a signed ms value. */
	memset(&rt, 0, sizeof(rt));
	is_int(rt_parse_sched_debug("rt_rq[0]:\n  .rt_nr_running : 0\n  .rt_throttled : 0\n"
				    "  .rt_time : 3.000000\n  .rt_runtime : -0.000001\n",
				    &rt),
	       0, "unlimited runtime parses");
	ok(rt.cpu[0].rt_runtime_ms < 0, "negative runtime kept (unlimited)");
	ok(isnan(rt.cpu[0].rt_use_pct), "no use %% when unlimited");
	rt_free(&rt);

	/* Newer kernels without RT_GROUP_SCHED print only rt_nr_running. */
	memset(&rt, 0, sizeof(rt));
	is_int(rt_parse_sched_debug("rt_rq[1]:\n  .rt_nr_running                 : 0\n", &rt), 0,
	       "nr_running only");
	is_int(rt.cpu[1].nr_running, 0, "nr_running 0 (a real zero)");
	is_int(rt.cpu[1].throttled, -1, "throttled n/a");
	ok(isnan(rt.cpu[1].rt_time_ms) && isnan(rt.cpu[1].rt_runtime_ms), "times n/a");
	rt_free(&rt);

	memset(&rt, 0, sizeof(rt));
	is_int(rt_parse_sched_debug("Sched Debug Version: v0.11\ncfs_rq[0]:/\n  .nr_running : 1\n",
				    &rt),
	       -ENODATA, "no rt_rq block: ENODATA");
	is_int(rt_parse_sched_debug("rt_rq[x]:\nrt_rq[-1]:\nrt_rq[99999]:\n", &rt), -ENODATA,
	       "bad CPU numbers ignored");
	is_int(rt_parse_sched_debug(NULL, &rt), -EINVAL, "NULL");
	rt_free(&rt);

	/* Every prefix: no crash, never a value that was cut. */
	{
		size_t len = strlen(plain);
		char *buf = malloc(len + 1);
		int bad = 0;

		for (size_t n = 0; n <= len; n++) {
			memcpy(buf, plain, n);
			buf[n] = '\0';
			memset(&rt, 0, sizeof(rt));
			rt_parse_sched_debug(buf, &rt);
			if (rt.ncpu > 2)
				bad++;
			if (rt.ncpu > 0 && rt.cpu[0].nr_running != -1 && rt.cpu[0].nr_running != 2)
				bad++;
			if (rt.ncpu > 0 && !isnan(rt.cpu[0].rt_time_ms) &&
			    rt.cpu[0].rt_time_ms != 12.5)
				bad++;
			if (rt.ncpu > 1 && !isnan(rt.cpu[1].rt_runtime_ms) &&
			    rt.cpu[1].rt_runtime_ms != 950.0)
				bad++;
			rt_free(&rt);
		}
		is_int(bad, 0, "truncated input: sane results");
		free(buf);
	}
}

static int sh(const char *fmt, const char *a, const char *b)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return system(cmd);
}

static char *json_of(const struct rt_info *rt, struct sbuf *sb)
{
	struct jw w;

	sbuf_reset(sb);
	jw_init(&w, sb, false);
	jw_obj_begin(&w, NULL);
	out_rt_json(&w, rt);
	jw_obj_end(&w);
	return sb->s;
}

static void test_fixtures(void)
{
	struct sysroot r;
	struct rt_info rt;
	struct sbuf sb;

	sbuf_init(&sb);
	if (sysroot_open(&r, fixture("rk3588")) == 0) {
		is_int(rt_read(&r, 8, &rt), 0, "rk3588: rt_read");
		ok(rt.have_period && rt.have_runtime, "period and runtime read");
		is_int(rt.period_us, 1000000, "period 1000000");
		is_int(rt.runtime_us, 950000, "runtime 950000");
		is_dbl(rt_share_pct(&rt), 95.0, 1e-9, "95 percent share");
		is_int(rt.debug_err, 0, "debug file read");
		is_str(rt.debug_path, "sys/kernel/debug/sched/debug", "debugfs path used");
		is_int(rt.ncpu, 8, "8 CPUs");
		is_dbl(rt.cpu[0].rt_time_ms, 0.039712, 1e-9, "cpu0 rt_time");
		is_dbl(rt.cpu[7].rt_runtime_ms, 950.0, 1e-9, "cpu7 rt_runtime");
		is_int(rt.cpu[4].throttled, 0, "cpu4 not throttled");
		is_int(rt.cpu[0].dl_bw, 996147, "dl bw");
		ok(!rt.fair_server, "6.1: no fair server");
		is_int(rt.fair_err, -ENOENT, "fair server ENOENT");
		json_of(&rt, &sb);
		ok(strstr(sb.s,
			  "\"rt\":{\"period_us\":1000000,\"runtime_us\":950000,\"unlimited\":false,"
			  "\"share_pct\":95.0,\"throttled_cpus\":[],\"throttle_events\":0,"
			  "\"rt_time_ms\":{\"0\":0.040,") != NULL,
		   "json: head of rt");
		ok(strstr(sb.s, "\"source\":\"/sys/kernel/debug/sched/debug\",\"error\":null") !=
			   NULL,
		   "json: source");
		ok(strstr(sb.s, "\"fair_server\":null}") != NULL, "json: fair_server null");
		rt_free(&rt);
		sysroot_close(&r);
	}
	if (sysroot_open(&r, fixture("intel")) == 0) {
		rt_read(&r, 16, &rt);
		is_int(rt.ncpu, 16, "intel: 16 CPUs");
		ok(rt.cpu[15].have_rt, "intel: rt_rq[15]:/ spelling");
		is_dbl(rt.cpu[15].rt_time_ms, 0.031044, 1e-9, "intel: cpu15 rt_time");
		rt_free(&rt);
		sysroot_close(&r);
	}
	if (sysroot_open(&r, fixture("stm32mp157")) == 0) {
		rt_read(&r, 2, &rt);
		is_int(rt.cpu[1].throttled, 1, "stm32: cpu1 throttled");
		is_int(rt.cpu[1].nr_running, 1, "stm32: cpu1 one RT task");
		is_dbl(rt.cpu[1].rt_time_ms, 949.987214, 1e-9,
		       "stm32: root group, not /system.slice");
		is_int(rt.cpu[0].throttled, 0, "stm32: cpu0 not throttled");
		json_of(&rt, &sb);
		ok(strstr(sb.s, "\"throttled_cpus\":[1]") != NULL, "json: throttled_cpus [1]");
		sbuf_reset(&sb);
		out_rt_text(&sb, &rt, NULL);
		ok(strstr(sb.s, "cpu1   rt_nr_running 1  throttled YES") != NULL,
		   "text: throttled");
		rt_free(&rt);
		sysroot_close(&r);
	}
	if (sysroot_open(&r, fixture("rpi4")) == 0) {
		is_int(rt_read(&r, 4, &rt), 0, "rpi4: no debugfs is not an error");
		is_int(rt.debug_err, -ENOENT, "rpi4: debug ENOENT");
		is_str(rt.debug_path, "", "rpi4: no path");
		is_int(rt.ncpu, 4, "rpi4: cpu array from the caller");
		is_int(rt.cpu[2].throttled, -1, "rpi4: per-CPU n/a");
		json_of(&rt, &sb);
		ok(strstr(sb.s,
			  "\"throttled_cpus\":null,\"throttle_events\":null,\"rt_time_ms\":null,"
			  "\"source\":null,\"error\":\"ENOENT\",\"cpus\":null") != NULL,
		   "json: per-CPU null with the reason");
		sbuf_reset(&sb);
		out_rt_text(&sb, &rt, NULL);
		ok(strstr(sb.s, "per-CPU rt_rq n/a (ENOENT") != NULL, "text: n/a with reason");
		rt_free(&rt);
		sysroot_close(&r);
	}
	if (sysroot_open(&r, fixture("broken")) == 0) {
		rt_read(&r, 4, &rt);
		ok(rt.have_runtime && rt.runtime_us == -1, "broken: runtime -1 is a value");
		ok(isnan(rt_share_pct(&rt)), "unlimited: no share");
		json_of(&rt, &sb);
		ok(strstr(sb.s, "\"runtime_us\":-1,\"unlimited\":true,\"share_pct\":null") != NULL,
		   "json: unlimited");
		rt_free(&rt);
		sysroot_close(&r);
	}
	sbuf_free(&sb);
}

static void test_derive_and_fair(void)
{
	char tmpl[] = "/tmp/tt-rt-XXXXXX", root[1100], cmd[2400];
	struct sysroot r;
	struct rt_info a, b, c;
	struct sbuf sb;

	if (!mkdtemp(tmpl)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(root, sizeof(root), "%s/root", tmpl);
	if (sh("cp -a '%s' '%s'", fixture("stm32mp157"), root) != 0 ||
	    sysroot_open(&r, root) != 0) {
		ok(0, "copy fixture");
		return;
	}
	/* Sample A: cpu1's root group not yet throttled, 400 ms charged. */
	snprintf(cmd, sizeof(cmd),
		 "cd '%s/sys/kernel/debug/sched' && cp debug debug.orig && "
		 "sed -i '117,122{s/rt_throttled                  : 1/rt_throttled                 "
		 " : 0/;"
		 "s/949.987214/400.000000/}' debug",
		 root);
	ok(system(cmd) == 0, "edit fixture copy");
	rt_read(&r, 2, &a);
	is_int(a.cpu[1].throttled, 0, "A: cpu1 not throttled");
	rt_derive(&a, NULL, 0.5);
	is_int(a.throttle_events, 0, "A: no events without prev");
	/* Sample B: the original file, throttled with 949.987214 ms. */
	snprintf(cmd, sizeof(cmd), "cd '%s/sys/kernel/debug/sched' && cp debug.orig debug", root);
	ok(system(cmd) == 0, "restore");
	rt_read(&r, 2, &b);
	rt_derive(&b, &a, 0.5);
	is_int(b.cpu[1].throttle_events, 1, "B: 0 -> 1 is one throttle event");
	is_int(b.throttle_events, 1, "B: total 1");
	is_dbl(b.cpu[1].rt_time_delta_ms, 949.987214 - 400.0, 1e-6, "B: rt_time change");
	is_dbl(b.cpu[0].rt_time_delta_ms, 0.0, 1e-9, "B: cpu0 unchanged");
	/* Sample C: still throttled: not a new event, count carried. */
	rt_read(&r, 2, &c);
	rt_derive(&c, &b, 0.5);
	is_int(c.throttle_events, 1, "C: still throttled, still 1 event");
	sbuf_init(&sb);
	out_rt_text(&sb, &c, NULL);
	ok(strstr(sb.s, "throttled 1 times") != NULL, "text: event count");
	rt_free(&c);

	/* Fair server (6.12+) as debugfs shows it. */
	snprintf(cmd, sizeof(cmd),
		 "d='%s/sys/kernel/debug/sched/fair_server' && mkdir -p $d/cpu0 $d/cpu1 && "
		 "echo 50000000 > $d/cpu0/runtime && echo 1000000000 > $d/cpu0/period",
		 root);
	ok(system(cmd) == 0, "add fair_server");
	rt_read(&r, 2, &c);
	ok(c.fair_server, "fair server present");
	is_int(c.fair_err, 0, "fair server read");
	is_int(c.fair_runtime_ns, 50000000, "fair runtime ns");
	is_int(c.fair_period_ns, 1000000000, "fair period ns");
	sbuf_reset(&sb);
	{
		struct jw w;

		jw_init(&w, &sb, false);
		jw_obj_begin(&w, NULL);
		out_rt_json(&w, &c);
		jw_obj_end(&w);
	}
	ok(strstr(sb.s, "\"fair_server\":{\"runtime_ns\":50000000,\"period_ns\":1000000000,"
			"\"share_pct\":5.0,\"error\":null}") != NULL,
	   "json: fair_server");
	rt_free(&c);
	/* Present but unreadable values (lockdown gives EPERM; here: missing). */
	snprintf(cmd, sizeof(cmd), "rm '%s/sys/kernel/debug/sched/fair_server/cpu0/period'", root);
	ok(system(cmd) == 0, "drop period");
	rt_read(&r, 2, &c);
	ok(c.fair_server && c.fair_runtime_ns == 50000000 && c.fair_period_ns == -1,
	   "fair server: period n/a");
	is_int(c.fair_err, -ENOENT, "fair server: the reason is kept");
	sbuf_reset(&sb);
	out_rt_text(&sb, &c, NULL);
	ok(strstr(sb.s, "fair server present, values n/a (ENOENT") != NULL, "text: fair n/a");

	sbuf_free(&sb);
	rt_free(&a);
	rt_free(&b);
	rt_free(&c);
	sysroot_close(&r);
	sh("rm -rf '%s'%s", tmpl, "");
}

int main(void)
{
	test_parse();
	test_fixtures();
	test_derive_and_fair();
	return done_testing();
}
