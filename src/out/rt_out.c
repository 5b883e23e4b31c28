/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RT throttling section writers: the "rt" key of the JSON snapshot (design
 * §8) and the RT part of the text report. They only read a struct rt_info;
 * n/a is null in JSON and "n/a" with its reason in text. */
#include "out/rt_out.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/err.h"
#include "out/fmt.h"

static double bw_pct(int64_t bw)
{
	return bw < 0 ? NAN : 100.0 * (double)bw / (double)(1 << 20);
}

static bool any_throttle_info(const struct rt_info *rt)
{
	for (int c = 0; c < rt->ncpu; c++)
		if (rt->cpu[c].have_rt && rt->cpu[c].throttled >= 0)
			return true;
	return false;
}

/* One element of "cpus": a CPU whose rt_rq the debug file shows. */
static void cpu_json(struct jw *w, int c, const struct rt_cpu *rc)
{
	jw_obj_begin(w, NULL);
	jw_int(w, "cpu", c);
	jw_int_nn(w, "rt_nr_running", rc->nr_running);
	jw_int_nn(w, "rt_throttled", rc->throttled);
	jw_double(w, "rt_time_ms", rc->rt_time_ms, 3);
	jw_double(w, "rt_runtime_ms", rc->rt_runtime_ms, 3);
	jw_double(w, "rt_use_pct", rc->rt_use_pct, 1);
	jw_int(w, "throttle_events", rc->throttle_events);
	jw_int_nn(w, "dl_nr_running", rc->dl_nr_running);
	jw_double(w, "dl_total_bw_pct", bw_pct(rc->dl_total_bw), 1);
	jw_obj_end(w);
}

static void fair_json(struct jw *w, const struct rt_info *rt)
{
	if (!rt->fair_server && (rt->fair_err == 0 || rt->fair_err == -ENOENT)) {
		jw_null(w, "fair_server");
		return;
	}
	jw_obj_begin(w, "fair_server");
	jw_int_nn(w, "runtime_ns", rt->fair_runtime_ns);
	jw_int_nn(w, "period_ns", rt->fair_period_ns);
	if (rt->fair_runtime_ns >= 0 && rt->fair_period_ns > 0)
		jw_double(w, "share_pct",
			  100.0 * (double)rt->fair_runtime_ns / (double)rt->fair_period_ns, 1);
	else
		jw_null(w, "share_pct");
	jw_errno(w, "error", rt->fair_err);
	jw_obj_end(w);
}

void out_rt_json(struct jw *w, const struct rt_info *rt)
{
	bool dbg;

	if (!rt) {
		jw_null(w, "rt");
		return;
	}
	dbg = rt->debug_err == 0;
	jw_obj_begin(w, "rt");
	jw_int_have(w, "period_us", rt->have_period, rt->period_us);
	if (rt->have_runtime) {
		jw_int(w, "runtime_us", rt->runtime_us);
		jw_bool(w, "unlimited", rt->runtime_us < 0);
	} else {
		jw_null(w, "runtime_us");
		jw_null(w, "unlimited");
	}
	jw_double(w, "share_pct", rt_share_pct(rt), 1);
	if (dbg && any_throttle_info(rt)) {
		jw_arr_begin(w, "throttled_cpus");
		for (int c = 0; c < rt->ncpu; c++)
			if (rt->cpu[c].throttled > 0)
				jw_int(w, NULL, c);
		jw_arr_end(w);
		jw_int(w, "throttle_events", rt->throttle_events);
	} else {
		jw_null(w, "throttled_cpus");
		jw_null(w, "throttle_events");
	}
	if (dbg) {
		jw_obj_begin(w, "rt_time_ms");
		for (int c = 0; c < rt->ncpu; c++) {
			char key[16];

			if (!rt->cpu[c].have_rt)
				continue;
			snprintf(key, sizeof(key), "%d", c);
			jw_double(w, key, rt->cpu[c].rt_time_ms, 3);
		}
		jw_obj_end(w);
	} else {
		jw_null(w, "rt_time_ms");
	}
	if (rt->debug_path[0]) {
		char p[80];

		snprintf(p, sizeof(p), "/%s", rt->debug_path);
		jw_str(w, "source", p);
	} else {
		jw_null(w, "source");
	}
	jw_errno(w, "error", rt->debug_err);
	if (dbg) {
		jw_arr_begin(w, "cpus");
		for (int c = 0; c < rt->ncpu; c++)
			if (rt->cpu[c].have_rt)
				cpu_json(w, c, &rt->cpu[c]);
		jw_arr_end(w);
	} else {
		jw_null(w, "cpus");
	}
	fair_json(w, rt);
	jw_obj_end(w);
}

/* ---- text ---------------------------------------------------------------- */

static const struct out_why rt_why[] = {
	{EACCES, "permission denied, needs root"},
	{EPERM, "not permitted, kernel lockdown restricts debugfs"},
	{ENODATA, "no rt_rq blocks in it"},
	{0, NULL},
};

static void put_d(struct sbuf *b, double v, int dec, const char *unit)
{
	if (isnan(v))
		sbuf_printf(b, "n/a%s", unit);
	else
		sbuf_printf(b, "%.*f%s", dec, v, unit);
}

/* Whether the release ("6.18.44-...") is at least MAJ.MIN; *known is
 * false when it does not start with "M.N". */
static bool release_at_least(const char *kernel, int maj, int min, bool *known)
{
	int a, b;

	*known = kernel && sscanf(kernel, "%d.%d", &a, &b) == 2;
	return *known && (a > maj || (a == maj && b >= min));
}

const char *out_fair_none(const struct rt_info *rt, const char *kernel)
{
	bool known, new_enough = release_at_least(kernel, 6, 12, &known);

	if (new_enough)
		return rt->debug_err == 0
			       ? "none (not in this kernel's sched debugfs)"
			       : "n/a (kernel 6.12 or later: needs debugfs, sched/fair_server)";
	/* older, or (release unknown) a sched debugfs without it */
	if (known || rt->debug_err == 0)
		return "none (kernel before 6.12)";
	return "n/a (no /sys/kernel/debug/sched/fair_server)";
}

void out_rt_text(struct sbuf *b, const struct rt_info *rt, const char *kernel)
{
	sbuf_puts(b, "rt throttling\n");
	if (!rt) {
		sbuf_puts(b, "  n/a\n");
		return;
	}
	sbuf_puts(b, "  sched_rt_period_us ");
	if (rt->have_period)
		sbuf_printf(b, "%" PRId64, rt->period_us);
	else
		sbuf_printf(b, "n/a (%s)", err_name(rt->period_err));
	sbuf_puts(b, "  sched_rt_runtime_us ");
	if (!rt->have_runtime)
		sbuf_printf(b, "n/a (%s)", err_name(rt->runtime_err));
	else if (rt->runtime_us < 0)
		sbuf_puts(b, "-1 (unlimited: RT tasks are never throttled by the global limit)");
	else {
		sbuf_printf(b, "%" PRId64 " (", rt->runtime_us);
		put_d(b, rt_share_pct(rt), 1, "% of each period for RT)");
	}
	sbuf_putc(b, '\n');

	if (rt->debug_err) {
		sbuf_printf(b, "  per-CPU rt_rq n/a (%s", err_name(rt->debug_err));
		if (rt->debug_path[0])
			sbuf_printf(b, " from /%s", rt->debug_path);
		else
			sbuf_puts(b, ": no /sys/kernel/debug/sched/debug or /proc/sched_debug");
		if (rt->debug_err != -ENOENT || rt->debug_path[0])
			sbuf_printf(b, ": %s", out_why(rt->debug_err, rt_why));
		sbuf_puts(b, ")\n");
	} else {
		int nthr = 0;

		sbuf_printf(b, "  per-CPU rt_rq from /%s\n", rt->debug_path);
		for (int c = 0; c < rt->ncpu; c++) {
			const struct rt_cpu *rc = &rt->cpu[c];

			if (!rc->have_rt)
				continue;
			sbuf_printf(b, "    cpu%-3d rt_nr_running ", c);
			out_put_int(b, rc->nr_running);
			sbuf_puts(b, "  throttled ");
			if (rc->throttled > 0) {
				sbuf_puts(b, "YES");
				nthr++;
			} else if (rc->throttled == 0) {
				sbuf_puts(b, "no");
			} else {
				sbuf_puts(b, "n/a");
			}
			sbuf_puts(b, "  rt_time ");
			put_d(b, rc->rt_time_ms, 3, " ms");
			sbuf_puts(b, " of ");
			if (!isnan(rc->rt_runtime_ms) && rc->rt_runtime_ms < 0)
				sbuf_puts(b, "unlimited");
			else
				put_d(b, rc->rt_runtime_ms, 3, " ms");
			if (!isnan(rc->rt_use_pct)) {
				sbuf_puts(b, " (");
				put_d(b, rc->rt_use_pct, 1, "%)");
			}
			if (rc->throttle_events)
				sbuf_printf(b, "  throttled %d times", rc->throttle_events);
			sbuf_putc(b, '\n');
		}
		if (nthr)
			sbuf_printf(
				b,
				"  %d CPU(s) throttled now: RT tasks there are paused until the "
				"next period\n",
				nthr);
	}

	sbuf_puts(b, "  fair server ");
	if (rt->fair_server) {
		if (rt->fair_runtime_ns >= 0 && rt->fair_period_ns > 0)
			sbuf_printf(b, "runtime %" PRId64 " ns  period %" PRId64 " ns (%.1f%%)",
				    rt->fair_runtime_ns, rt->fair_period_ns,
				    100.0 * (double)rt->fair_runtime_ns /
					    (double)rt->fair_period_ns);
		else
			sbuf_printf(b, "present, values n/a (%s: %s)", err_name(rt->fair_err),
				    out_why(rt->fair_err, rt_why));
	} else if (rt->fair_err == -ENOENT || rt->fair_err == 0) {
		sbuf_puts(b, out_fair_none(rt, kernel));
	} else {
		out_put_err(b, rt->fair_err, rt_why);
	}
	sbuf_putc(b, '\n');
}
