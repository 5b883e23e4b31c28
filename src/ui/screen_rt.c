/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RT & isolation screen: the RT bandwidth limit (period, runtime and
 * the share of each period RT tasks may take, or "unlimited"), the 6.12+
 * fair server, the preemption model, isolated / nohz_full CPUs and the
 * cmdline parameters behind them, PM QoS in force (cpu_dma_latency and the
 * per-CPU resume latency), THP mode; then one row per CPU with its RT
 * runqueue: RT tasks, throttled, rt_time against the budget, deadline
 * tasks, and whether it is isolated / nohz_full. Actions: r RT runtime
 * (unlimited / 95% / a value), l hold a cpu_dma_latency value while tunetop
 * runs (released on exit, or with l -> Release). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"
#include "out/kconfig_out.h"
#include "out/rt_out.h"
#include "ui/tui.h"

#define RT_HEAD 10 /* summary lines + column heading */

void screen_rt_build(struct screen_ctx *t, struct screen *s)
{
	s->heading_lines = RT_HEAD;
	s->nrows = t->snap ? t->snap->topo.ncpus : 0;
	ui_scroll(s, t->body_h - s->heading_lines);
}

static int label(struct screen_ctx *t, int y, const char *l)
{
	ui_fill(t, y, 0, COLS, ROLE_DEFAULT);
	return ui_printf(t, y, 0, COLS, ROLE_LABEL, "%-14s", l);
}

static void draw_summary(struct screen_ctx *t, const struct snapshot *sn, int y)
{
	const struct rt_info *rt = &sn->rt;
	const struct system_info *sys = &sn->sys;
	const struct tui_change *ch = tui_changed(t, "sched/rt_runtime_us");
	char buf[256], l1[128], l2[128];
	int x;

	/* RT bandwidth */
	x = label(t, y, "RT bandwidth");
	if (rt->have_period)
		x += ui_printf(t, y, x, COLS - x, ROLE_VALUE, "period %lld us  ",
			       (long long)rt->period_us);
	else
		x += ui_printf(t, y, x, COLS - x, ROLE_VALUE_NA, "period n/a (%s)  ",
			       err_name(rt->period_err));
	if (!rt->have_runtime)
		x += ui_printf(t, y, x, COLS - x, ROLE_VALUE_NA, "runtime n/a (%s)",
			       err_name(rt->runtime_err));
	else if (rt->runtime_us < 0)
		x += ui_printf(t, y, x, COLS - x, ch ? ROLE_CHANGED : ROLE_WARN,
			       "runtime unlimited (-1): RT tasks may starve everything else");
	else {
		double share = rt_share_pct(rt);

		x += ui_printf(t, y, x, COLS - x, ch ? ROLE_CHANGED : ROLE_VALUE, "runtime %lld us",
			       (long long)rt->runtime_us);
		if (isfinite(share))
			x += ui_printf(t, y, x, COLS - x, ROLE_VALUE,
				       " = RT may use %.1f%% of each period", share);
	}
	if (ch && t->show_orig)
		ui_printf(t, y, x, COLS - x, ROLE_CHANGED, " (was %s)", ch->old);
	y++;
	x = label(t, y, "Throttling");
	if (rt->debug_err)
		ui_printf(t, y, x, COLS - x, ROLE_VALUE_NA, "per-CPU state n/a: %s %s",
			  rt->debug_path[0] ? rt->debug_path : "sched debug",
			  err_name(rt->debug_err));
	else {
		int now = 0;

		for (int c = 0; c < rt->ncpu; c++)
			if (rt->cpu[c].throttled == 1)
				now++;
		x += ui_printf(t, y, x, COLS - x, now ? ROLE_ALERT : ROLE_OK,
			       "%d CPU%s throttled now", now, now == 1 ? "" : "s");
		ui_printf(t, y, x, COLS - x, rt->throttle_events ? ROLE_WARN : ROLE_VALUE,
			  ", %d throttle event%s seen since start  (from %s)", rt->throttle_events,
			  rt->throttle_events == 1 ? "" : "s", rt->debug_path);
	}
	y++;
	x = label(t, y, "Fair server");
	if (rt->fair_server && rt->fair_runtime_ns >= 0 && rt->fair_period_ns > 0)
		ui_printf(t, y, x, COLS - x, ROLE_VALUE,
			  "runtime %.1f ms per %.1f ms (CFS tasks keep %.1f%% under RT load)",
			  (double)rt->fair_runtime_ns / 1e6, (double)rt->fair_period_ns / 1e6,
			  100.0 * (double)rt->fair_runtime_ns / (double)rt->fair_period_ns);
	else if (rt->fair_server)
		ui_printf(t, y, x, COLS - x, ROLE_VALUE_NA, "present, values n/a (%s)",
			  err_name(rt->fair_err));
	else if (rt->fair_err == -ENOENT || rt->fair_err == 0)
		ui_printf(t, y, x, COLS - x, ROLE_VALUE_NA, "%s", out_fair_none(rt, sys->kernel));
	else
		ui_printf(t, y, x, COLS - x, ROLE_VALUE_NA, "n/a (%s)", err_name(rt->fair_err));
	y++;
	x = label(t, y, "Preemption");
	out_preempt_line(buf, sizeof(buf), sys, &sn->kconf);
	ui_printf(t, y, x, COLS - x,
		  sys->preempt == PREEMPT_MODEL_RT ? ROLE_OK
		  : strncmp(buf, "n/a", 3)	   ? ROLE_VALUE
						   : ROLE_VALUE_NA,
		  "%s", buf);
	y++;
	x = label(t, y, "Kernel config");
	out_kconfig_line(buf, sizeof(buf), &sn->kconf);
	ui_printf(t, y, x, COLS - x, sn->kconf.have ? ROLE_VALUE : ROLE_VALUE_NA, "%s", buf);
	y++;
	x = label(t, y, "Isolation");
	if (sys->have_isolated)
		cpulist_format(&sys->isolated, l1, sizeof(l1));
	if (sys->have_nohz_full)
		cpulist_format(&sys->nohz_full, l2, sizeof(l2));
	x += ui_printf(t, y, x, COLS - x, ROLE_VALUE, "isolated %s  nohz_full %s  ",
		       sys->have_isolated ? (l1[0] ? l1 : "none") : "n/a",
		       sys->have_nohz_full ? (l2[0] ? l2 : "none") : "n/a");
	buf[0] = '\0';
	for (int i = 0; i < SYSTEM_NPARAMS; i++)
		if (sys->param_set[i]) {
			size_t len = strlen(buf);

			snprintf(buf + len, sizeof(buf) - len, "%s%s%s%s", len ? " " : "",
				 system_param_names[i], sys->param[i][0] ? "=" : "", sys->param[i]);
		}
	ui_printf(t, y, x, COLS - x, buf[0] ? ROLE_VALUE : ROLE_LABEL, "cmdline: %s",
		  buf[0] ? buf : "no isolation parameters");
	y++;
	x = label(t, y, "PM QoS");
	if (t->dma_held)
		x += ui_printf(t, y, x, COLS - x, ROLE_CHANGED, "held by tunetop: %d us  ",
			       t->dma_value_us);
	if (sn->idle.dma_latency_us < 0)
		x += ui_put(t, y, x, COLS - x, ROLE_VALUE_NA,
			    "cpu_dma_latency n/a (root only, or no device)");
	else if (sn->idle.dma_latency_us >= CPUIDLE_DMA_NO_CONSTRAINT)
		x += ui_put(t, y, x, COLS - x, ROLE_VALUE, "cpu_dma_latency: no request");
	else
		x += ui_printf(t, y, x, COLS - x, ROLE_WARN, "cpu_dma_latency %lld us in force",
			       (long long)sn->idle.dma_latency_us);
	{
		int n = 0;

		for (int c = 0; c < sn->idle.ncpus; c++)
			if (sn->idle.cpu[c].resume_latency_us >= 0)
				n++;
		ui_printf(t, y, x, COLS - x, n ? ROLE_WARN : ROLE_VALUE,
			  "  resume-latency limits on %d CPU%s", n, n == 1 ? "" : "s");
	}
	y++;
	x = label(t, y, "THP");
	ui_printf(t, y, x, COLS - x, sys->thp[0] ? ROLE_VALUE : ROLE_VALUE_NA, "%s%s",
		  sys->thp[0] ? sys->thp : "n/a",
		  !strcmp(sys->thp, "always") ? "  (khugepaged compaction can stall RT tasks)"
					      : "");
	y++;
	ui_fill(t, y, 0, COLS, ROLE_DEFAULT);
	y++;
	ui_colhead(t, y,
		   " CPU  RT  Throttled  rt_time ms  budget ms   Use%  DL  Resume-lat  Isolated");
}

void screen_rt_draw(struct screen_ctx *t, struct screen *s, int y, int h)
{
	const struct snapshot *sn = t->snap;
	int rows;

	if (!sn) {
		ui_put(t, y, 0, COLS, ROLE_VALUE_NA, "no data yet");
		return;
	}
	draw_summary(t, sn, y);
	rows = h - s->heading_lines;
	ui_scroll(s, rows);
	for (int i = 0; i < rows && s->top + i < s->nrows; i++) {
		int c = s->top + i, yy = y + s->heading_lines + i, x = 0;
		bool sel = c == s->sel;
		const struct rt_cpu *rc = c < sn->rt.ncpu ? &sn->rt.cpu[c] : NULL;
		enum role base = sel ? ROLE_CURSOR : ROLE_VALUE;
		const struct cpuidle_cpu *ic = c < sn->idle.ncpus ? &sn->idle.cpu[c] : NULL;
		char buf[32];

		ui_fill(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
		x += ui_printf(t, yy, x, COLS, base, "%4d ", c);
		if (!sn->topo.cpu[c].online) {
			ui_put(t, yy, x, COLS - x, ROLE_OFFLINE, "offline");
			continue;
		}
		if (rc && rc->have_rt) {
			x += ui_printf(t, yy, x, COLS - x, base, "%3d  ", rc->nr_running);
			if (rc->throttled < 0)
				x += ui_put(t, yy, x, COLS - x, ROLE_VALUE_NA, "   n/a     ");
			else
				x += ui_printf(t, yy, x, COLS - x,
					       rc->throttled ? ROLE_ALERT : base, "%-11s",
					       rc->throttled ? "   YES" : "   no");
			if (isfinite(rc->rt_time_ms))
				x += ui_printf(t, yy, x, COLS - x, base, "%10.3f  ",
					       rc->rt_time_ms);
			else
				x += ui_put(t, yy, x, COLS - x, ROLE_VALUE_NA, "       n/a  ");
			if (isfinite(rc->rt_runtime_ms) && rc->rt_runtime_ms < 0)
				x += ui_put(t, yy, x, COLS - x, ROLE_WARN, "unlimited  ");
			else if (isfinite(rc->rt_runtime_ms))
				x += ui_printf(t, yy, x, COLS - x, base, "%9.1f  ",
					       rc->rt_runtime_ms);
			else
				x += ui_put(t, yy, x, COLS - x, ROLE_VALUE_NA, "      n/a  ");
			if (isfinite(rc->rt_use_pct))
				x += ui_printf(t, yy, x, COLS - x,
					       rc->rt_use_pct > 90   ? ROLE_ALERT
					       : rc->rt_use_pct > 50 ? ROLE_WARN
								     : base,
					       "%5.1f  ", rc->rt_use_pct);
			else
				x += ui_put(t, yy, x, COLS - x, ROLE_VALUE_NA, "  n/a  ");
			if (rc->dl_nr_running >= 0)
				x += ui_printf(t, yy, x, COLS - x, base, "%2d  ",
					       rc->dl_nr_running);
			else
				x += ui_put(t, yy, x, COLS - x, ROLE_VALUE_NA, "n/a ");
		} else {
			x += ui_printf(t, yy, x, COLS - x, ROLE_VALUE_NA, "%-47s",
				       "  n/a (no scheduler debug data)");
		}
		if (ic && ic->resume_latency_us == CPUIDLE_RESUME_NO_CONSTRAINT)
			snprintf(buf, sizeof(buf), "none");
		else if (ic && ic->resume_latency_us >= 0)
			snprintf(buf, sizeof(buf), "%lld us", (long long)ic->resume_latency_us);
		else
			snprintf(buf, sizeof(buf), "n/a");
		x += ui_printf(t, yy, x, COLS - x,
			       ic && ic->resume_latency_us >= 0 ? ROLE_WARN : base, "%-10s  ", buf);
		ui_printf(t, yy, x, COLS - x, base, "%s%s",
			  sn->sys.have_isolated && cpumask_test(&sn->sys.isolated, c) ? "isolated "
										      : "",
			  sn->sys.have_nohz_full && cpumask_test(&sn->sys.nohz_full, c)
				  ? "nohz_full"
				  : "");
	}
}

/* ---- actions --------------------------------------------------------------- */

static int act_runtime(struct screen_ctx *t)
{
	static const char *const items[] = {
		"Unlimited (-1): RT tasks may take the whole CPU",
		"95% of the period (the kernel default)",
		"Other value in us...",
	};
	const struct rt_info *rt = &t->snap->rt;
	int64_t period = rt->have_period ? rt->period_us : 1000000;
	char buf[32] = "";

	if (!tui_may_write(t))
		return HR_HANDLED | HR_REDRAW;
	switch (ui_menu(t, "RT runtime (sched_rt_runtime_us)", items, 3, 0,
			"Enter: set   Esc: cancel")) {
	case 0: tui_set1(t, "%s=-1", knob_addr_sched_rt_runtime_us().s); break;
	case 1:
		tui_set1(t, "%s=%lld", knob_addr_sched_rt_runtime_us().s,
			 (long long)(period * 95 / 100));
		break;
	case 2:
		if (rt->have_runtime)
			snprintf(buf, sizeof(buf), "%lld", (long long)rt->runtime_us);
		if (ui_input(t, "RT runtime", "Microseconds per period (-1 = unlimited):", buf,
			     sizeof(buf)) == 0)
			tui_set1(t, "%s=%s", knob_addr_sched_rt_runtime_us().s, buf);
		break;
	default: break;
	}
	return HR_HANDLED | HR_RESCAN | HR_REDRAW;
}

static int act_dma(struct screen_ctx *t)
{
	const struct snapshot *sn = t->snap;
	char *items[16];
	int vals[16], n = 0, ch;
	const struct cpuidle_cpu *ic = NULL;
	char buf[32] = "0";

	if (!tui_may_write(t))
		return HR_HANDLED | HR_REDRAW;
	for (int c = 0; c < sn->idle.ncpus; c++)
		if (sn->idle.cpu[c].nstates) {
			ic = &sn->idle.cpu[c];
			break;
		}
	items[n] = xasprintf("0 us: no idle state but polling (lowest latency, most power)");
	vals[n++] = 0;
	if (ic)
		for (size_t k = 1; k < ic->nstates && n < 12; k++)
			if (ic->st[k].latency_us > 0) {
				items[n] = xasprintf(
					"%lld us: allow %s and shallower, forbid deeper",
					(long long)ic->st[k].latency_us, ic->st[k - 1].name);
				vals[n++] = (int)ic->st[k].latency_us - 1;
			}
	items[n] = xasprintf("Other value in us...");
	vals[n++] = -2;
	if (t->dma_held) {
		items[n] = xasprintf("Release the request held by tunetop");
		vals[n++] = -3;
	}
	ch = ui_menu(t, "Hold /dev/cpu_dma_latency while tunetop runs", (const char *const *)items,
		     n, 0, "Enter: hold   Esc: cancel");
	if (ch >= 0) {
		int v = vals[ch];

		if (v == -3) {
			const struct tui_change *c = tui_changed(t, "pmqos/cpu_dma_latency_us");
			struct sbuf rep;
			char *cause = NULL;

			sbuf_init(&rep);
			if (c && knob_undo_id(t->knob, c->txn, 0, &rep, &cause) == 0) {
				t->dma_held = false;
				tui_status(t, false, "cpu_dma_latency request released");
			} else {
				tui_status(t, true, "Release failed: %s",
					   cause ? cause : "no journal entry");
			}
			free(cause);
			sbuf_free(&rep);
			tui_reload_journal(t);
		} else {
			if (v == -2) {
				if (ui_input(t, "cpu_dma_latency", "Microseconds (0 = poll only):",
					     buf, sizeof(buf)) != 0)
					v = -1;
				else if (str_to_int(buf, &v) != 0 || v < 0) {
					tui_status(t, true,
						   "Refused: '%s' is not a number of microseconds",
						   buf);
					v = -1;
				}
			}
			if (v >= 0) {
				char a[64];
				const char *as[1] = {a};

				snprintf(a, sizeof(a), "%s=%d",
					 knob_addr_pmqos_cpu_dma_latency_us().s, v);
				if (tui_set(t, as, 1, KNOB_ALLOW_LEASE) == 0) {
					t->dma_held = true;
					t->dma_value_us = v;
				}
			}
		}
	}
	for (int i = 0; i < n; i++)
		free(items[i]);
	return HR_HANDLED | HR_RESCAN | HR_REDRAW;
}

int screen_rt_explain(struct screen_ctx *t, struct screen *s, struct explain_item *it, int max)
{
	int n = 0;

	n = ui_explain_add(it, n, max, "RT runtime (throttling limit)", "sched/rt_runtime_us");
	n = ui_explain_add(it, n, max, "Throttled / rt_time per CPU", "rt.throttled");
	n = ui_explain_add(it, n, max, "Fair server", "rt.fair_server");
	n = ui_explain_add(it, n, max, "Preemption model", "system.preempt");
	n = ui_explain_add(it, n, max, "Kernel config", "system.kconfig");
	n = ui_explain_add(it, n, max, "Isolation parameters", "system.isolcpus");
	n = ui_explain_add(it, n, max, "PM QoS cpu_dma_latency", "pmqos/cpu_dma_latency_us");
	if (t->snap && s->sel >= 0 && s->sel < t->snap->topo.ncpus)
		n = ui_explain_add(it, n, max, "Resume latency of this CPU", "%s",
				   knob_addr_pmqos_resume_latency_us(s->sel).s);
	n = ui_explain_add(it, n, max, "Transparent huge pages", "mm/thp");
	return n;
}

int screen_rt_key(struct screen_ctx *t, struct screen *s, int ch)
{
	(void)s;
	if (!t->snap)
		return HR_IGNORED;
	switch (ch) {
	case 'r': return act_runtime(t);
	case 'l': return act_dma(t);
	default: return HR_IGNORED;
	}
}
