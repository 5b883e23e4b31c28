/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `tunetop ab`: option parsing, the loop that drives the A/B state machine
 * (ab.c) while waiting for SIGINT/SIGTERM/SIGHUP, progress lines on a
 * terminal, and the text and JSON reports. The controller itself, the load
 * and the probe are library code shared with the TUI. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/schema.h"
#include "core/cpumask.h"
#include "core/json.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob.h"
#include "cmd/common.h"
#include "cmd/probe_opts.h"
#include "cmd/probe_why.h"
#include "probe/ab.h"
#include "probe/histogram.h"
#include "probe/probe.h"
#include "probe/stats.h"
#include "model/world.h"
#include "model/world_probe.h"

/* --why (issue 29): the capture beside the A/B's probe, each arm's causes */
static struct whyrun ab_why;
/* the world the A/B runs in (--root on a world's directory), else NULL */
static const struct world_def *ab_world;

static int usage_err(const char *fmt, const char *arg)
{
	char msg[512];

	snprintf(msg, sizeof(msg), fmt, arg);
	cmd_error("ab", 0, "%s", msg);
	return 2;
}

/* A whole number in lo..hi (unit: "" or " ms", after the range in the
 * error line): 0, or 2 after "tunetop ab: OPT 'V': must be LO..HI UNIT". */
static int range_opt(const char *opt, const char *v, uint64_t lo, uint64_t hi, const char *unit,
		     uint64_t *out)
{
	if (str_to_u64(v, out) || *out < lo || *out > hi) {
		cmd_error("ab", 0, "%s '%s': must be %llu..%llu%s", opt, v, (unsigned long long)lo,
			  (unsigned long long)hi, unit);
		return 2;
	}
	return 0;
}

/* ---- formatting ------------------------------------------------------------- */

static int decimals(const struct ab_run *r, double mag)
{
	return r->source == AB_PROBE ? 0 : str_decimals(mag, 1000.0);
}

/* dec < 0: choose by the value's magnitude */
static void fmt_val(const struct ab_run *r, char *buf, size_t cap, double v, bool mean, int dec)
{
	if (isnan(v))
		snprintf(buf, cap, "n/a");
	else if (r->source == AB_PROBE)
		/* whole us, truncated like the probe's buckets; the mean with one decimal */
		snprintf(buf, cap, mean ? "%.1f" : "%.0f", mean ? v : floor(v));
	else
		snprintf(buf, cap, "%.*f", dec < 0 ? decimals(r, v) : dec, v);
}

/* A signed difference as the verdict prints it (ab_put_num: one rounding
 * for every view), with an ASCII minus for the columns. */
static void fmt_signed(char *buf, size_t cap, double v, int dec)
{
	struct sbuf b;

	sbuf_init(&b);
	ab_put_num(&b, v, dec, true, true);
	snprintf(buf, cap, "%s", b.s ? b.s : "");
	sbuf_free(&b);
}

/* ASCII unit for the text table ("us" rather than "µs" keeps columns aligned). */
static const char *text_unit(const struct ab_run *r)
{
	return r->source == AB_PROBE ? "us" : r->unit;
}

static void describe_source(const struct ab_run *r, char *buf, size_t cap)
{
	if (r->source == AB_PROBE)
		snprintf(buf, cap, "wake-up latency (probe), us");
	else if (r->source == AB_FILE)
		snprintf(buf, cap, "--metric '%s' from the lines %s gains%s%s", r->cfg.metric,
			 r->cfg.metric_file, *r->unit ? ", " : "", r->unit);
	else if (r->have_re)
		snprintf(buf, cap, "--metric '%s' from CMD's output%s%s", r->cfg.metric,
			 *r->unit ? ", " : "", r->unit);
	else
		snprintf(buf, cap, "CMD wall time, ms");
}

static const char *policy_text(const struct ab_run *r, char *buf, size_t cap)
{
	if (!r->p) {
		snprintf(buf, cap, "n/a");
		return buf;
	}
	return probe_policy_text(r->p, buf, cap);
}

static void print_row(FILE *f, const struct ab_run *r, int a, const struct stats_summary *s,
		      int dec)
{
	char c[6][32];

	fmt_val(r, c[0], sizeof(c[0]), s->mean, true, dec);
	fmt_val(r, c[1], sizeof(c[1]), s->p50, false, dec);
	fmt_val(r, c[2], sizeof(c[2]), s->p99, false, dec);
	fmt_val(r, c[3], sizeof(c[3]), s->p999, false, dec);
	fmt_val(r, c[4], sizeof(c[4]), s->max, false, dec);
	fprintf(f, "%-3c %-12s %7u %9llu %9s %9s %9s %9s %9s", ab_arm_name(a), r->arm[a].value,
		r->arm[a].windows, (unsigned long long)s->n, c[0], c[1], c[2], c[3], c[4]);
	if (r->source == AB_PROBE)
		fprintf(f, " %9llu", (unsigned long long)r->arm[a].missed);
	if (r->arm[a].lost)
		fprintf(f, "  (%u lost)", r->arm[a].lost);
	fputc('\n', f);
}

static const char *p_text(char *buf, size_t cap, double p);

/* "significance: Holm over 3 tests (...)": what the verdict's word stands on. */
static void print_family(FILE *f, const struct ab_result *res)
{
	struct sbuf b;

	sbuf_init(&b);
	ab_family_text(res, &b);
	fprintf(f, "(significant: adjusted p < 0.05; %s)\n", b.s ? b.s : "");
	sbuf_free(&b);
}

static void print_metric(FILE *f, const struct ab_run *r, int m, const struct ab_result *res)
{
	const struct stats_abba *c = &res->m[m];
	int dec = ab_diff_decimals(r, c);
	int dn = ab_value_decimals(r, fmax(c->sd, c->mde));
	char e[32], lo[32], hi[32], ci[80], p[16], pa[16], sd[32], mde[32];

	fmt_signed(e, sizeof(e), c->est, dec);
	if (isnan(c->lo)) {
		snprintf(ci, sizeof(ci), "(no interval)");
		snprintf(p, sizeof(p), "n/a");
	} else {
		fmt_signed(lo, sizeof(lo), c->lo, dec);
		fmt_signed(hi, sizeof(hi), c->hi, dec);
		snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
		snprintf(p, sizeof(p), c->p < 0.001 ? "<0.001" : "%.3f", c->p);
	}
	if (isnan(c->sd))
		snprintf(sd, sizeof(sd), "n/a");
	else
		snprintf(sd, sizeof(sd), "%.*f", dn, c->sd);
	if (isnan(c->mde))
		snprintf(mde, sizeof(mde), "n/a");
	else
		snprintf(mde, sizeof(mde), "%.*f", dn, c->mde);
	if (!res->tested[1][m])
		snprintf(pa, sizeof(pa), "-");
	else
		p_text(pa, sizeof(pa), res->p_adj[1][m]);
	fprintf(f, "  %-5s %10s %-3s %-22s %7s %7s %9s %10s%s\n", ab_metric_name(m), e,
		text_unit(r), ci, p, pa, sd, mde,
		isnan(c->lo)		    ? ""
		: !res->tested[1][m]	    ? "  (described, not tested)"
		: res->sig[1][m]	    ? "  significant"
		: stats_abba_significant(c) ? "  (n.s. after Holm)"
					    : "  (interval contains 0)");
}

static void print_windows(FILE *f, const struct ab_run *r)
{
	double big = 0;

	for (int i = 0; i < r->nwin; i++)
		if (r->w[i].done && !isnan(r->w[i].max))
			big = fmax(big, fabs(r->w[i].max));
	fprintf(f, "per window (in order):\n");
	fprintf(f, "  %6s %5s %-3s %-12s %9s %9s %9s %9s %9s%s\n", "window", "round", "arm",
		"value", "samples", "mean", "p50", "p99", "max",
		r->source == AB_PROBE ? "    missed" : "");
	for (int i = 0; i < r->nwin; i++) {
		const struct ab_window *x = &r->w[i];
		char c[4][32];
		int dec = decimals(r, big);

		if (!x->done)
			continue;
		if (x->lost) {
			fprintf(f, "  %6d %5d %-3c %-12s lost: %s\n", i + 1,
				i / (2 * (int)r->narms) + 1, ab_arm_name(x->arm),
				r->cfg.value[x->arm], x->lost_why);
			continue;
		}
		fmt_val(r, c[0], sizeof(c[0]), x->mean, true, dec);
		fmt_val(r, c[1], sizeof(c[1]), x->p50, false, dec);
		fmt_val(r, c[2], sizeof(c[2]), x->p99, false, dec);
		fmt_val(r, c[3], sizeof(c[3]), x->max, false, dec);
		fprintf(f, "  %6d %5d %-3c %-12s %9llu %9s %9s %9s %9s", i + 1,
			i / (2 * (int)r->narms) + 1, ab_arm_name(x->arm), r->cfg.value[x->arm],
			(unsigned long long)x->samples, c[0], c[1], c[2], c[3]);
		if (r->source == AB_PROBE)
			fprintf(f, " %9llu", (unsigned long long)x->missed);
		fprintf(f, "%s\n",
			x->effect == KNOB_EFFECT_NOT_SEEN ? "  (knob not in effect)" : "");
	}
}

static void method_text(const struct ab_result *res, char *buf, size_t cap)
{
	const struct stats_abba *c = &res->m[AB_P99];

	if (!res->conclusive)
		snprintf(buf, cap, "no interval: %u complete round%s, %d needed", res->rounds,
			 res->rounds == 1 ? "" : "s", STATS_ABBA_MIN_ROUNDS);
	else if (c->exact)
		snprintf(buf, cap,
			 "permutation test within %u rounds, all %llu arrangements of the "
			 "labels",
			 res->rounds, (unsigned long long)c->perms);
	else
		snprintf(buf, cap,
			 "permutation test within %u rounds, %llu random arrangements of "
			 "the labels",
			 res->rounds, (unsigned long long)c->perms - 1);
}

/* "A=0, B=500, C=2000" */
static const char *sweep_values(const struct ab_run *r, char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned a = 0; a < r->narms && n < cap; a++) {
		int k = snprintf(buf + n, cap - n, "%s%c=%s", a ? ", " : "", ab_arm_name((int)a),
				 r->cfg.value[a]);

		n += k > 0 ? (size_t)k : 0;
	}
	return buf;
}

static void print_sweep_power(FILE *f, const struct ab_run *r)
{
	bool any = false;

	for (unsigned a = 0; a < r->narms; a++)
		any |= isfinite(ab_arm_watts(r, (int)a)) != 0;
	if (!any)
		return;
	fprintf(f, "power (mean over the windows, hwmon/RAPL):");
	for (unsigned a = 0; a < r->narms; a++) {
		double wa = ab_arm_watts(r, (int)a), w0 = ab_arm_watts(r, 0);

		if (!isfinite(wa))
			fprintf(f, "%s %c n/a", a ? "," : "", ab_arm_name((int)a));
		else if (a && isfinite(w0))
			fprintf(f, ", %c %.3f W (%+.3f)", ab_arm_name((int)a), wa, wa - w0);
		else
			fprintf(f, "%s %c %.3f W", a ? "," : "", ab_arm_name((int)a), wa);
	}
	fputc('\n', f);
}

static const char *p_text(char *buf, size_t cap, double p)
{
	if (isnan(p))
		snprintf(buf, cap, "n/a");
	else if (p < 0.001)
		snprintf(buf, cap, "<0.001");
	else
		snprintf(buf, cap, "%.3f", p);
	return buf;
}

/* "lower", "higher", "n.s.", "inconclusive" */
static const char *sweep_word(const struct ab_result *res, unsigned i, int m)
{
	if (!res->conclusive || res->cmp_err || res->not_in_effect_arm >= 0)
		return "inconclusive";
	if (!res->tested[i][m])
		return "not tested";
	if (!res->sig[i][m])
		return "n.s.";
	return res->cmp[i][m].est < 0 ? "lower" : "higher";
}

/* A sweep: one row per value (the primary metric), every metric of every
 * comparison, and a text plot. */
/* A difference from A and its 95% interval as text ("(no interval)" when
 * there is none), to the decimals that the interval warrants. */
static void fmt_diff(const struct ab_run *r, const struct stats_abba *c, char *e, size_t ecap,
		     char *ci, size_t cicap)
{
	int dec = ab_diff_decimals(r, c);
	char lo[32], hi[32];

	fmt_signed(e, ecap, c->est, dec);
	if (isnan(c->lo)) {
		snprintf(ci, cicap, "(no interval)");
	} else {
		fmt_signed(lo, sizeof(lo), c->lo, dec);
		fmt_signed(hi, sizeof(hi), c->hi, dec);
		snprintf(ci, cicap, "[%s, %s]", lo, hi);
	}
}

static void print_sweep(FILE *f, const struct ab_run *r, const struct ab_result *res)
{
	int pm = ab_primary_metric(r);
	char meth[160], head[32];
	struct sbuf plot;

	method_text(res, meth, sizeof(meth));
	fprintf(f,
		"each value %s A (A=%s), window by window: the four windows of A and of the value "
		"in each round,\n95%% interval: %s; p adj: Holm over the %u tests of the run:\n",
		str_minus(), r->cfg.value[0], meth, res->family);
	snprintf(head, sizeof(head), "%s - A", ab_metric_name(pm));
	fprintf(f, "%-3s %-12s %7s %9s %9s %9s %10s %-3s %-22s %7s %7s  %s\n", "arm", "value",
		"windows", "p50", "p99", "mean", head, "", "95% interval", "p", "p adj", "verdict");
	for (unsigned a = 0; a < r->narms; a++) {
		const struct stats_abba *c = &res->cmp[a][pm];
		char lv[3][32], e[32] = "", ci[80] = "", p[16] = "", pa[16] = "";
		char line[KNOB_VALUE_MAX + 256];

		fmt_val(r, lv[0], sizeof(lv[0]), res->level[a][AB_P50], false, -1);
		fmt_val(r, lv[1], sizeof(lv[1]), res->level[a][AB_P99], false, -1);
		fmt_val(r, lv[2], sizeof(lv[2]), res->level[a][AB_MEAN], true, -1);
		if (a) {
			fmt_diff(r, c, e, sizeof(e), ci, sizeof(ci));
			p_text(p, sizeof(p), c->p);
			if (res->tested[a][pm])
				p_text(pa, sizeof(pa), res->p_adj[a][pm]);
			else
				snprintf(pa, sizeof(pa), "-");
		}
		snprintf(line, sizeof(line),
			 "%-3c %-12s %7u %9s %9s %9s %10s %-3s %-22s %7s %7s  %s",
			 ab_arm_name((int)a), r->arm[a].value, r->arm[a].windows, lv[0], lv[1],
			 lv[2], a ? e : "", a ? text_unit(r) : "", a ? ci : "(reference)", p, pa,
			 a ? sweep_word(res, a, pm) : "");
		fprintf(f, "%s\n", str_trim(line));
	}
	fprintf(f, "(p50, p99, mean: the mean of the value's windows' p50, p99 and mean, complete "
		   "rounds)\n");
	fprintf(f, "every metric, each value %s A:\n", str_minus());
	fprintf(f, "  %-3s %-12s %-5s %10s %-3s %-22s %7s %7s  %s\n", "arm", "value", "", "diff",
		"", "95% interval", "p", "p adj", "verdict");
	for (unsigned a = 1; a < r->narms; a++)
		for (int m = 0; m < AB_NMETRICS; m++) {
			const struct stats_abba *c = &res->cmp[a][m];
			char e[32], ci[80], p[16], pa[16];

			fmt_diff(r, c, e, sizeof(e), ci, sizeof(ci));
			if (res->tested[a][m])
				p_text(pa, sizeof(pa), res->p_adj[a][m]);
			else
				snprintf(pa, sizeof(pa), "-");
			fprintf(f, "  %-3c %-12s %-5s %10s %-3s %-22s %7s %7s  %s\n",
				ab_arm_name((int)a), r->arm[a].value, ab_metric_name(m), e,
				text_unit(r), ci, p_text(p, sizeof(p), c->p), pa,
				sweep_word(res, a, m));
		}
	print_family(f, res);
	fprintf(f,
		"%s against the value (o = level, [--] = 95%% interval of the difference from "
		"A, * = significant):\n",
		ab_metric_name(pm));
	sbuf_init(&plot);
	ab_sweep_plot(res, (const char(*)[KNOB_VALUE_MAX])r->cfg.value, r->unit, pm, 72, &plot);
	fputs(plot.s ? plot.s : "", f);
	sbuf_free(&plot);
}

static void report_text(FILE *f, const struct ab_run *r, const struct tt_opts *o, bool interrupted)
{
	const struct ab_result *res = &r->res;
	char src[KNOB_VALUE_MAX + 64], pol[64], cpus[256], meth[160];
	char vals[AB_MAX_VALUES * (KNOB_VALUE_MAX + 4)];

	if (r->cfg.aa)
		fprintf(f, "tunetop ab: A/A %s (%zu knob%s, was %s): A=B=%s, the noise floor%s\n",
			r->cfg.addr, r->nknobs, r->nknobs == 1 ? "" : "s", r->original,
			r->cfg.value[0], interrupted ? " (interrupted)" : "");
	else if (r->narms > 2)
		fprintf(f, "tunetop ab: %s (%zu knob%s, was %s): sweep of %u values: %s%s\n",
			r->cfg.addr, r->nknobs, r->nknobs == 1 ? "" : "s", r->original, r->narms,
			sweep_values(r, vals, sizeof(vals)), interrupted ? " (interrupted)" : "");
	else
		fprintf(f, "tunetop ab: %s (%zu knob%s, was %s): A=%s, B=%s%s\n", r->cfg.addr,
			r->nknobs, r->nknobs == 1 ? "" : "s", r->original, r->cfg.value[0],
			r->cfg.value[1], interrupted ? " (interrupted)" : "");
	describe_source(r, src, sizeof(src));
	if (r->narms > 2)
		fprintf(f,
			"  %u round%s of %u windows (every value, then the same in reverse; the "
			"order rotates each round) = %d windows of %g s, settle %u ms; samples: "
			"%s\n",
			r->cfg.rounds, r->cfg.rounds == 1 ? "" : "s", 2 * r->narms, r->nwin,
			r->cfg.window_s, r->cfg.settle_ms, src);
	else
		fprintf(f,
			"  %u round%s ABBA BAAB = %d windows of %g s, settle %u ms; samples: %s\n",
			r->cfg.rounds, r->cfg.rounds == 1 ? "" : "s", r->nwin, r->cfg.window_s,
			r->cfg.settle_ms, src);
	if (r->source == AB_PROBE && !r->p) { /* a world's simulated probe */
		fprintf(f, "  probe: SIMULATED (world %s): one thread on CPU 0, interval %llu us\n",
			ab_world ? ab_world->name : "?",
			(unsigned long long)r->cfg.probe.interval_us);
	} else if (r->source == AB_PROBE) {
		cpulist_format(&r->p->cfg.cpus, cpus, sizeof(cpus));
		fprintf(f, "  probe: CPUs %s, interval %llu us, %s, %s, PM QoS untouched\n", cpus,
			(unsigned long long)r->p->cfg.interval_us, policy_text(r, pol, sizeof(pol)),
			r->p->mlocked ? "memory locked" : "memory NOT locked");
		fprintf(f,
			"  stalls: a window is lost when the probe does not wake or answer its "
			"reset within %llu ms (2 intervals + 3 x the routine lateness, the largest "
			"window p99 seen: %.0f us; at least %d ms)%s\n",
			(unsigned long long)(r->stall_timeout_max_ns / 1000000u),
			isfinite(r->late_max_us) ? r->late_max_us : 0.0, AB_STALL_MIN_MS,
			r->lost ? "" : "; none lost");
	} else if (r->source == AB_FILE) {
		fprintf(f, "  metric file: %s (%u rotation%s, %u truncation%s%s)\n",
			r->cfg.metric_file, r->follow.rotations,
			r->follow.rotations == 1 ? "" : "s", r->follow.truncations,
			r->follow.truncations == 1 ? "" : "s",
			r->follow.long_lines ? ", long lines dropped" : "");
	} else {
		fprintf(f, "  cmd: %s\n", r->cfg.cmd);
	}
	if (r->cfg.load) {
		char l[256];

		load_spec_format(&r->load_spec, l, sizeof(l));
		fprintf(f, "  load: %s\n", l);
	}
	if (o->root && strcmp(o->root, "/"))
		fprintf(f, "  root: %s\n", o->root);
	fprintf(f, "%-3s %-12s %7s %9s %9s %9s %9s %9s %9s%s\n", "arm", "value", "windows",
		"samples", "mean", "p50", "p99", "p99.9", "max",
		r->source == AB_PROBE ? "    missed" : "");
	{
		double big = 0;

		for (unsigned a = 0; a < r->narms; a++)
			big = fmax(big, isnan(res->arms[a].max) ? 0 : fabs(res->arms[a].max));
		for (unsigned a = 0; a < r->narms; a++)
			print_row(f, r, (int)a, &res->arms[a], decimals(r, big));
	}
	fprintf(f, "(%s; every sample of the arm pooled, a description only)\n",
		r->source == AB_PROBE ? "latency in us: wake-up time - deadline; missed: deadlines "
					"skipped because the probe woke after the next one"
		: r->source == AB_FILE ? "values as the log holds them"
		: r->have_re	       ? "values as CMD printed them"
				       : "wall time of each CMD run in ms");
	if (r->narms > 2) {
		print_sweep_power(f, r);
	} else if (isfinite(ab_arm_watts(r, 0)) || isfinite(ab_arm_watts(r, 1))) {
		double wa = ab_arm_watts(r, 0), wb = ab_arm_watts(r, 1);
		char sa[32] = "n/a", sb[32] = "n/a";

		if (isfinite(wa))
			snprintf(sa, sizeof(sa), "%.3f W", wa);
		if (isfinite(wb))
			snprintf(sb, sizeof(sb), "%.3f W", wb);
		fprintf(f, "power (mean over the windows, hwmon/RAPL): A %s, B %s", sa, sb);
		if (isfinite(wa) && isfinite(wb))
			fprintf(f, " (B %s A %+.3f W)", str_minus(), wb - wa);
		fputc('\n', f);
	}
	print_windows(f, r);
	if (r->narms > 2) {
		print_sweep(f, r, res);
	} else if (res->cmp_err) {
		fprintf(f, "B %s A: no comparison (an arm has no samples)\n", str_minus());
	} else {
		method_text(res, meth, sizeof(meth));
		fprintf(f,
			"B %s A window by window (mean of the B windows' values %s mean of "
			"the A windows'),\n95%% interval: %s:\n",
			str_minus(), str_minus(), meth);
		fprintf(f, "  %-5s %10s %-3s %-22s %7s %7s %9s %10s\n", "", "B - A", "",
			"95% interval", "p", "p adj", "sd/window", "detectable");
		for (int m = 0; m < AB_NMETRICS; m++)
			print_metric(f, r, m, res);
		{
			char x[32], va[32], vb[32];

			fmt_signed(x, sizeof(x), res->max_diff,
				   ab_value_decimals(r, res->max_diff));
			fmt_val(r, va, sizeof(va), res->max[0], false, -1);
			fmt_val(r, vb, sizeof(vb), res->max[1], false, -1);
			fprintf(f,
				"  %-5s %10s %-3s B %s in window %d, A %s in window %d (one sample "
				"each, not tested)\n",
				"max", x, text_unit(r), vb, res->max_win[1] + 1, va,
				res->max_win[0] + 1);
		}
		if (res->have_missed) {
			const struct stats_abba *c = &res->missed_cmp[1];
			char e[32], ci[80], p[16];

			fmt_diff(r, c, e, sizeof(e), ci, sizeof(ci));
			fprintf(f,
				"  %-5s %10s %-3s %-22s %7s   (deadlines per window; A %llu, B "
				"%llu in all%s)\n",
				"missed", e, "", ci, p_text(p, sizeof(p), c->p),
				(unsigned long long)res->missed[0],
				(unsigned long long)res->missed[1],
				res->missed_more[1] > 0	  ? ": B misses more"
				: res->missed_more[1] < 0 ? ": A misses more"
							  : "");
		}
		fprintf(f,
			"(sd/window: how much one window's value varies beyond its round and arm; "
			"detectable: the smallest difference %u windows per arm see with 80%% "
			"power)\n",
			2 * res->rounds);
		print_family(f, res);
	}
	if (r->phase == AB_FAILED) {
		const char *e = r->err_cause ? r->err_cause : "error";

		fprintf(f,
			"stopped early (%.*s): %d of %d windows measured; the report covers them\n",
			(int)strcspn(e, "\n"), e, res->windows, r->nwin);
	}
	fprintf(f, "verdict: %s\n", res->verdict);
	if (r->restored && !r->restore_err)
		fprintf(f, "restored: %s = %s\n", r->cfg.addr, r->original);
}

static void key(char *buf, size_t cap, const char *name, const char *sfx)
{
	snprintf(buf, cap, "%s%s", name, sfx);
}

/* A number whose key carries the unit suffix ("p99" + "_us"). */
static void unit_double(struct jw *w, const char *name, const char *sfx, double v)
{
	char k[32];

	key(k, sizeof(k), name, sfx);
	jw_double(w, k, v, 3);
}

static void json_summary(struct jw *w, const struct stats_summary *s, const char *sfx)
{
	jw_uint(w, "samples", s->n);
	unit_double(w, "min", sfx, s->min);
	unit_double(w, "mean", sfx, s->mean);
	unit_double(w, "p50", sfx, s->p50);
	unit_double(w, "p90", sfx, s->p90);
	unit_double(w, "p99", sfx, s->p99);
	unit_double(w, "p999", sfx, s->p999);
	unit_double(w, "max", sfx, s->max);
}

/* One metric of the comparison, with the per-window values of each arm. */
static void json_metric(struct jw *w, const struct ab_run *r, int m, const struct ab_result *res)
{
	const struct stats_abba *c = &res->m[m];
	unsigned half = stats_abba_rounds_for(c->sd, c->mde / 2.0);

	jw_obj_begin(w, ab_metric_name(m));
	jw_double(w, "diff", c->est, 3);
	jw_double(w, "lo", c->lo, 3);
	jw_double(w, "hi", c->hi, 3);
	if (isnan(c->lo) || !res->tested[1][m])
		jw_null(w, "significant");
	else
		jw_bool(w, "significant", res->sig[1][m]);
	jw_bool(w, "tested", res->tested[1][m]);
	jw_double(w, "p", c->p, 4);
	jw_double(w, "p_adj", res->p_adj[1][m], 4);
	jw_double(w, "sd", c->sd, 3);
	jw_double(w, "mde", c->mde, 3);
	if (half && !isnan(c->mde))
		jw_uint(w, "rounds_for_half_mde", half);
	else
		jw_null(w, "rounds_for_half_mde");
	for (int a = 0; a < 2; a++) {
		jw_arr_begin(w, a ? "b" : "a");
		for (int i = 0; i < r->nwin; i++)
			if (r->w[i].done && r->w[i].arm == a)
				jw_double(w, NULL, ab_window_metric(&r->w[i], m), 3);
		jw_arr_end(w);
	}
	jw_obj_end(w);
}

/* "missed_deadlines": value i against V1 on the per-window counts of missed
 * deadlines (null without the probe). */
static void json_missed(struct jw *w, const struct ab_result *res, unsigned i)
{
	const struct stats_abba *c = &res->missed_cmp[i];

	if (!res->have_missed) {
		jw_null(w, "missed_deadlines");
		return;
	}
	jw_obj_begin(w, "missed_deadlines");
	jw_uint(w, "a", res->missed[0]);
	jw_uint(w, i == 1 ? "b" : "value", res->missed[i]);
	jw_double(w, "diff_per_window", c->est, 3);
	jw_double(w, "lo", c->lo, 3);
	jw_double(w, "hi", c->hi, 3);
	jw_double(w, "p", c->p, 4);
	jw_str(w, "more",
	       res->missed_more[i] > 0	 ? (i == 1 ? "B" : "value")
	       : res->missed_more[i] < 0 ? "A"
					 : "neither");
	jw_obj_end(w);
}

/* "correction": what the run tested and how its p-values were adjusted. */
static void json_correction(struct jw *w, const struct ab_result *res)
{
	struct sbuf b;

	sbuf_init(&b);
	ab_family_text(res, &b);
	jw_obj_begin(w, "correction");
	jw_str(w, "method", res->primary >= 0 ? "primary" : "holm");
	if (res->primary >= 0)
		jw_str(w, "primary", ab_metric_name(res->primary));
	else
		jw_null(w, "primary");
	jw_str(w, "adjustment", "holm");
	jw_uint(w, "tests", res->family);
	jw_double(w, "alpha", AB_ALPHA, 2);
	jw_str(w, "text", b.s ? b.s : "");
	jw_obj_end(w);
	sbuf_free(&b);
}

/* A sweep: each value against the first, with the Holm-adjusted p. */
static void json_comparisons(struct jw *w, const struct ab_run *r, const struct ab_result *res)
{
	char buf[8];

	jw_arr_begin(w, "comparisons");
	for (unsigned a = 1; a < r->narms; a++) {
		bool any = false;

		jw_obj_begin(w, NULL);
		snprintf(buf, sizeof(buf), "%c", ab_arm_name((int)a));
		jw_str(w, "arm", buf);
		jw_str(w, "value", r->cfg.value[a]);
		jw_str(w, "versus", r->cfg.value[0]);
		jw_str(w, "difference", "value - first");
		jw_str(w, "adjustment", "holm-bonferroni");
		jw_uint(w, "comparisons", r->narms - 1);
		jw_uint(w, "family", res->family);
		jw_uint(w, "rounds", res->cmp[a][AB_P99].rounds);
		for (int m = 0; m < AB_NMETRICS; m++) {
			const struct stats_abba *c = &res->cmp[a][m];

			jw_obj_begin(w, ab_metric_name(m));
			jw_double(w, "level", res->level[a][m], 3);
			jw_double(w, "diff", c->est, 3);
			jw_double(w, "lo", c->lo, 3);
			jw_double(w, "hi", c->hi, 3);
			jw_double(w, "p", c->p, 4);
			jw_double(w, "p_adj", res->p_adj[a][m], 4);
			jw_bool(w, "tested", res->tested[a][m]);
			if (!res->conclusive || !res->tested[a][m])
				jw_null(w, "significant");
			else
				jw_bool(w, "significant", res->sig[a][m]);
			jw_double(w, "sd", c->sd, 3);
			jw_double(w, "mde", c->mde, 3);
			jw_obj_end(w);
			any |= res->sig[a][m];
		}
		jw_bool(w, "significant", any);
		json_missed(w, res, a);
		jw_double(w, "mean_watts", ab_arm_watts(r, (int)a), 3);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* The "arms" array of ab --json: each value with its summary and samples. */
static void json_arms(struct jw *w, const struct ab_run *r, const char *sfx)
{
	const struct ab_result *res = &r->res;
	char buf[8];

	jw_arr_begin(w, "arms");
	for (int a = 0; a < (int)r->narms; a++) {
		const struct stats_summary *s = &res->arms[a];

		jw_obj_begin(w, NULL);
		snprintf(buf, sizeof(buf), "%c", ab_arm_name(a));
		jw_str(w, "arm", buf);
		jw_str(w, "value", r->arm[a].value);
		jw_uint(w, "windows", r->arm[a].windows);
		jw_uint(w, "lost_windows", r->arm[a].lost);
		jw_double(w, "mean_watts", ab_arm_watts(r, a), 3);
		json_summary(w, s, sfx);
		if (r->source == AB_PROBE) {
			const struct hist *h = &r->arm[a].hist;

			jw_uint(w, "overflows", h->overflows);
			jw_uint(w, "missed_deadlines", r->arm[a].missed);
			hist_json(w, h);
			probe_why_arm_json(&ab_why, (unsigned)a, w); /* --why */
		} else {
			jw_uint(w, "cmd_runs", r->arm[a].cmd_runs);
			jw_arr_begin(w, "values");
			for (size_t i = 0; i < r->arm[a].nval; i++)
				jw_double(w, NULL, r->arm[a].val[i], 6);
			jw_arr_end(w);
		}
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* The "windows" array of ab --json: every measured window. */
static void json_windows(struct jw *w, const struct ab_run *r, const char *sfx)
{
	char buf[8];

	jw_arr_begin(w, "windows");
	for (int i = 0; i < r->nwin; i++) {
		const struct ab_window *x = &r->w[i];

		if (!x->done)
			continue;
		jw_obj_begin(w, NULL);
		jw_int(w, "index", i + 1);
		jw_int(w, "round", i / (2 * (int)r->narms) + 1);
		snprintf(buf, sizeof(buf), "%c", ab_arm_name(x->arm));
		jw_str(w, "arm", buf);
		jw_str(w, "value", r->cfg.value[x->arm]);
		jw_double(w, "start_s", (double)(x->start_ns - r->start_ns) / 1e9, 3);
		jw_double(w, "duration_s", (double)(x->end_ns - x->start_ns) / 1e9, 3);
		jw_uint(w, "samples", x->samples);
		unit_double(w, "mean", sfx, x->mean);
		unit_double(w, "p50", sfx, x->p50);
		unit_double(w, "p99", sfx, x->p99);
		unit_double(w, "max", sfx, x->max);
		if (r->source == AB_CMD)
			jw_uint(w, "cmd_runs", x->cmd_runs);
		jw_str(w, "effect", knob_effect_name(x->effect));
		jw_double(w, "watts", x->watts, 3);
		if (r->source == AB_PROBE && !x->lost)
			jw_uint(w, "missed_deadlines", x->missed);
		else
			jw_null(w, "missed_deadlines");
		jw_bool(w, "lost", x->lost);
		if (x->lost)
			jw_str(w, "lost_why", x->lost_why);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void report_json(FILE *f, struct ab_run *r, const struct tt_opts *o, bool interrupted)
{
	const struct ab_result *res = &r->res;
	const char *sfx = r->source == AB_PROBE ? "_us" : r->have_re ? "" : "_ms";
	struct sbuf b;
	struct jw w;
	char buf[256];

	cmd_json_begin(&w, &b, true);
	jw_str(&w, "schema", TT_SCHEMA_AB);
	jw_str(&w, "tunetop", PACKAGE_VERSION);
	jw_obj_begin(&w, "ab");
	jw_str(&w, "address", r->cfg.addr);
	jw_str(&w, "a", r->cfg.value[0]);
	jw_str(&w, "b", r->cfg.value[1]);
	if (r->narms > 2) {
		jw_bool(&w, "sweep", true);
		jw_arr_begin(&w, "values");
		for (unsigned a = 0; a < r->narms; a++)
			jw_str(&w, NULL, r->cfg.value[a]);
		jw_arr_end(&w);
	}
	jw_bool(&w, "aa", r->cfg.aa);
	jw_uint(&w, "knobs", r->nknobs);
	jw_str(&w, "original", r->original);
	jw_str(&w, "root", o->root ? o->root : "/");
	/* a world's numbers are SIMULATED (issue 35) */
	jw_bool(&w, "simulated", ab_world != NULL);
	jw_str(&w, "world", ab_world ? ab_world->name : NULL);
	jw_str(&w, "source",
	       r->source == AB_PROBE  ? "probe"
	       : r->source == AB_FILE ? "file"
				      : "cmd");
	jw_str(&w, "unit", r->source == AB_PROBE ? "us" : r->unit);
	jw_double(&w, "window_s", r->cfg.window_s, 3);
	jw_uint(&w, "settle_ms", r->cfg.settle_ms);
	jw_uint(&w, "rounds", r->cfg.rounds);
	jw_int(&w, "windows", r->nwin);
	jw_str(&w, "order", r->narms > 2 ? "rotation + reverse" : "ABBA BAAB");
	jw_uint(&w, "seed", r->cfg.seed);
	jw_str(&w, "cmd", r->cfg.cmd);
	jw_str(&w, "metric", r->cfg.metric);
	jw_str(&w, "metric_file", r->cfg.metric_file);
	if (r->cfg.load) {
		load_spec_format(&r->load_spec, buf, sizeof(buf));
		jw_str(&w, "load", buf);
	} else {
		jw_null(&w, "load");
	}
	if (r->source == AB_FILE) {
		jw_obj_begin(&w, "file");
		jw_str(&w, "path", r->cfg.metric_file);
		jw_uint(&w, "lines", r->follow.lines);
		jw_uint(&w, "rotations", r->follow.rotations);
		jw_uint(&w, "truncations", r->follow.truncations);
		jw_uint(&w, "long_lines", r->follow.long_lines);
		jw_uint(&w, "not_numbers", r->file_unparsed);
		jw_obj_end(&w);
	}
	jw_bool(&w, "interrupted", interrupted);
	jw_bool(&w, "failed", r->phase == AB_FAILED);
	jw_str(&w, "error", r->phase == AB_FAILED ? r->err_cause : NULL);
	jw_uint(&w, "lost_windows", r->lost);
	jw_bool(&w, "complete", res->complete);
	jw_bool(&w, "restored", r->restored && !r->restore_err);
	if (r->source == AB_PROBE) {
		/* a world's simulated probe (r->p NULL): one thread on CPU 0 */
		const struct probe_cfg *pc = r->p ? &r->p->cfg : &r->cfg.probe;

		jw_obj_begin(&w, "probe");
		cpulist_format(&pc->cpus, buf, sizeof(buf));
		jw_str(&w, "cpus", r->p ? buf : "0");
		jw_uint(&w, "interval_us", pc->interval_us);
		jw_str(&w, "policy", probe_policy_name(pc->policy));
		jw_int(&w, "priority", pc->prio);
		jw_bool(&w, "realtime_refused", r->p && r->p->fallback);
		jw_bool(&w, "memory_locked", r->p && r->p->mlocked);
		jw_uint(&w, "stall_timeout_ms", r->stall_timeout_max_ns / 1000000u);
		jw_double(&w, "late_max_us", r->late_max_us, 1);
		jw_obj_end(&w);
	} else {
		jw_null(&w, "probe");
	}
	jw_obj_end(&w);

	json_arms(&w, r, sfx);
	json_windows(&w, r, sfx);
	if (ab_why.on)
		probe_why_capture_json(&ab_why, &w);

	jw_obj_begin(&w, "comparison");
	jw_str(&w, "difference", "B - A");
	jw_str(&w, "unit", r->source == AB_PROBE ? "us" : r->unit);
	jw_str(&w, "method",
	       "per-window p99, p50 and mean; B - A = mean of the B windows' values - mean of "
	       "the A windows'; 95% interval by inverting a permutation test of the labels "
	       "within each complete round (ABBA or BAAB); the max is not tested");
	jw_int(&w, "windows", res->windows);
	jw_uint(&w, "rounds", res->rounds);
	jw_bool(&w, "conclusive", res->conclusive && !res->cmp_err && res->not_in_effect_arm < 0);
	/* was the knob in effect in every window? (knob.h "effect") */
	jw_str(&w, "effect", res->not_in_effect_arm >= 0 ? "not_seen" : "in_effect_or_unknown");
	if (res->not_in_effect_arm >= 0) {
		const struct ab_arm *na = &r->arm[res->not_in_effect_arm];

		snprintf(buf, sizeof(buf), "%c", ab_arm_name(res->not_in_effect_arm));
		jw_str(&w, "not_in_effect_arm", buf);
		jw_uint(&w, "not_in_effect_windows", na->not_seen);
		jw_str(&w, "effect_evidence", na->effect_evidence);
	} else {
		jw_null(&w, "not_in_effect_arm");
	}
	json_correction(&w, res);
	jw_double(&w, "confidence", 0.95, 2);
	jw_bool(&w, "exact", res->m[AB_P99].exact);
	jw_uint(&w, "arrangements", res->m[AB_P99].perms);
	jw_uint(&w, "seed", r->cfg.seed);
	for (int m = 0; m < AB_NMETRICS; m++)
		json_metric(&w, r, m, res);
	jw_obj_begin(&w, "max");
	jw_double(&w, "diff", res->max_diff, 3);
	jw_double(&w, "a", res->max[0], 3);
	if (res->max_win[0] >= 0)
		jw_int(&w, "a_window", res->max_win[0] + 1);
	else
		jw_null(&w, "a_window");
	jw_double(&w, "b", res->max[1], 3);
	if (res->max_win[1] >= 0)
		jw_int(&w, "b_window", res->max_win[1] + 1);
	else
		jw_null(&w, "b_window");
	jw_bool(&w, "tested", false);
	jw_obj_end(&w);
	json_missed(&w, res, 1);
	jw_double(&w, "mean_diff", res->m[AB_MEAN].est, 3);
	jw_double(&w, "max_diff", res->max_diff, 3);
	jw_str(&w, "verdict", res->verdict);
	jw_obj_end(&w);
	if (r->narms > 2)
		json_comparisons(&w, r, res);
	cmd_json_put(&w, &b, f);
}

/* ---- command ------------------------------------------------------------------------ */

static void print_lines(const char *prefix, const char *text)
{
	const char *p = text ? text : "";

	while (*p) {
		size_t n = strcspn(p, "\n");

		if (n)
			fprintf(stderr, "%s%.*s\n", prefix, (int)n, p);
		p += n;
		if (*p == '\n')
			p++;
	}
}

static void progress(struct ab_run *r, int *shown)
{
	while (*shown < r->win) {
		const struct ab_window *x = &r->w[*shown];
		char p[32], m[32], mx[32];

		if (x->lost) { /* said by its note */
			(*shown)++;
			continue;
		}
		fmt_val(r, p, sizeof(p), x->p50, false, -1);
		fmt_val(r, m, sizeof(m), x->p99, false, -1);
		fmt_val(r, mx, sizeof(mx), x->max, false, -1);
		cmd_note("ab", "window %d/%d %c=%s: %llu samples, p50 %s, p99 %s, max %s %s",
			 *shown + 1, r->nwin, ab_arm_name(x->arm), r->cfg.value[x->arm],
			 (unsigned long long)x->samples, p, m, mx, text_unit(r));
		(*shown)++;
	}
}

/* The command line into cfg and the assignment. Returns -1 to go on, else
 * the exit status (0 after --help, 2 on a bad argument, with one line). */
static int parse_args(struct cmd_ctx *cx, int argc, char **argv, struct ab_cfg *cfg, bool *json,
		      const char **assign)
{
	const char *cpus_arg = NULL;
	bool prio_given = false;
	char why[512];
	int c;

	optind = 1;
	opterr = 0; /* one line of our own instead of getopt's */
	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		uint64_t u;
		int v;

		switch (c) {
		case OPT_AB_WINDOW:
			if (str_to_seconds(optarg, "ms s m", &cfg->window_s))
				return usage_err(
					"--window '%s': not a duration (seconds; suffix ms, "
					"s or m allowed)",
					optarg);
			break;
		case OPT_AB_SETTLE:
			if (range_opt("--settle", optarg, 0, AB_MAX_SETTLE_MS, " ms", &u))
				return 2;
			cfg->settle_ms = (unsigned)u;
			break;
		case OPT_AB_ROUNDS:
			if (range_opt("--rounds", optarg, 1, AB_MAX_ROUNDS, "", &u))
				return 2;
			cfg->rounds = (unsigned)u;
			break;
		case OPT_CPUS:
			if (cpulist_parse(optarg, &cfg->probe.cpus) ||
			    cpumask_empty(&cfg->probe.cpus))
				return usage_err("--cpus '%s': not a CPU list (e.g. 0-3,6)",
						 optarg);
			cpus_arg = optarg;
			break;
		case OPT_AB_LOAD: cfg->load = optarg; break;
		case OPT_AB_CMD: cfg->cmd = optarg; break;
		case OPT_AB_METRIC: cfg->metric = optarg; break;
		case OPT_AB_METRIC_FILE: cfg->metric_file = optarg; break;
		case OPT_JSON: *json = true; break;
		case OPT_AB_AA: cfg->aa = true; break;
		case OPT_AB_PRIMARY:
			if (ab_primary_parse(optarg, &cfg->primary))
				return usage_err("--primary '%s': use p99, p50, mean or metric",
						 optarg);
			break;
		case OPT_WHY: ab_why.on = true; break;
		case OPT_AB_WHY_OVER:
			if (range_opt("--why-over", optarg, 1, 100000000, " us", &u))
				return 2;
			ab_why.over_ns = u * 1000u;
			break;
		case OPT_AB_SEED:
			if (str_to_u64(optarg, &u))
				return usage_err("--seed '%s': not a non-negative integer", optarg);
			cfg->seed = u;
			break;
		case 'i':
			if (str_to_u64(optarg, &u) || u < PROBE_MIN_INTERVAL_US ||
			    u > PROBE_MAX_INTERVAL_US) {
				cmd_error("ab", 0, "-i '%s': interval must be %d..%d microseconds",
					  optarg, PROBE_MIN_INTERVAL_US, PROBE_MAX_INTERVAL_US);
				return 2;
			}
			cfg->probe.interval_us = u;
			break;
		case OPT_AB_PRIO:
			if (str_to_int(optarg, &v))
				return usage_err("--prio '%s': not a number", optarg);
			cfg->probe.prio = v;
			prio_given = true;
			break;
		case OPT_AB_POLICY:
			if (probe_policy_parse(optarg, &cfg->probe.policy))
				return usage_err("--policy '%s': use fifo, rr or other", optarg);
			break;
		case 'h': return cmd_print_help("ab", stdout);
		case ':':
			return usage_err("%s needs a value (see 'tunetop ab --help')",
					 argv[optind - 1]);
		default:
			return usage_err("unknown option '%s' (see 'tunetop ab --help')",
					 argv[optind - 1]);
		}
	}
	if (optind >= argc) {
		cmd_error("ab", 0, "expected %s (see 'tunetop ab --help')",
			  cfg->aa ? "ADDRESS[=VALUE] after --aa" : "ADDRESS=A,B");
		return 2;
	}
	*assign = argv[optind];
	if (optind + 1 < argc)
		return usage_err(cfg->aa ? "unexpected argument '%s' (one ADDRESS[=VALUE] per run)"
					 : "unexpected argument '%s' (one ADDRESS=A,B per run)",
				 argv[optind + 1]);
	if (cfg->probe.policy == PROBE_POLICY_OTHER && !prio_given)
		cfg->probe.prio = 0;
	if (ab_why.over_ns && !ab_why.on)
		return usage_err("%s needs --why", "--why-over");
	if (ab_why.on && (cfg->cmd || cfg->metric_file))
		return usage_err("--why explains the probe's late wake-ups: not with %s",
				 "--cmd or --metric-file");
	if (cfg->cmd && cpus_arg) {
		cfg->have_cmd_cpus = true;
		cfg->cmd_cpus = cfg->probe.cpus;
	}
	if (ab_cfg_check(cfg, why, sizeof(why))) {
		cmd_error("ab", 0, "%s", why);
		return 2;
	}
	if (cfg->have_cmd_cpus) {
		struct probe_cfg pc = cfg->probe;
		char w[200];

		/* the CPUs must be online even when they only pin CMD */
		pc.interval_us = PROBE_DEFAULT_INTERVAL_US;
		pc.policy = PROBE_POLICY_OTHER;
		pc.prio = 0;
		if (probe_cfg_check(&pc, w, sizeof(w))) {
			cmd_error("ab", 0, "--cpus %s: %s", cpus_arg, w);
			return 2;
		}
	}
	return -1;
}

/* The A/B of the probe in a world (ab_cfg.sim_probe): the world's simulated
 * probe on its clock, as `probe` there (model/world_probe.h). */
struct ab_sim {
	struct world *w;
	uint64_t interval_us;
};

static void sim_step(void *ctx, double secs)
{
	struct ab_sim *s = ctx;

	if (secs > 0)
		world_step(s->w, secs);
}

static int sim_probe(void *ctx, double secs, struct hist *out)
{
	struct ab_sim *s = ctx;
	struct world_probe wp;
	int e = world_probe_run(s->w, s->interval_us, secs, false, &wp);

	if (!e)
		*out = wp.hist;
	world_probe_free(&wp);
	return e;
}

/* Run the started A/B to its end, printing its notes and (on a terminal) the
 * progress; a terminating signal cancels it. Returns that signal, or 0. */
static int run_to_end(struct ab_run *r, const sigset_t *sigs, struct world *world)
{
	bool tty = isatty(2);
	int sig = 0, shown = 0;

	while (!ab_finished(r)) {
		struct sbuf notes;
		struct timespec ts;
		int ms = 100, s;

		if (world) /* the simulated app logs the frames of the time that passed */
			world_catch_up(world, 1.0);
		ab_poll(r, &ms);
		if (ab_why.cap) { /* probe --why's reader: every WHYCAP_POLL_MS */
			probe_why_tick(&ab_why, r->p);
			if (ms > WHYCAP_POLL_MS)
				ms = WHYCAP_POLL_MS;
		}
		sbuf_init(&notes);
		if (ab_take_notes(r, &notes))
			print_lines("tunetop ab: ", notes.s);
		sbuf_free(&notes);
		if (tty)
			progress(r, &shown);
		if (ab_finished(r))
			break;
		if (world && ms > 50)
			ms = 50;
		ts.tv_sec = ms / 1000;
		ts.tv_nsec = (long)(ms % 1000) * 1000000L;
		s = sigtimedwait(sigs, NULL, &ts);
		if (s > 0 && !sig) {
			sig = s;
			ab_cancel(r);
		}
	}
	if (tty)
		progress(r, &shown);
	return sig;
}

/* The report (or the failure) and the restore's outcome; the exit status. */
static int finish(struct ab_run *r, const struct tt_opts *o, bool json, int sig)
{
	int rc;

	if (r->phase == AB_FAILED) {
		/* what was measured is reported: the failure ends the run, it does
		 * not erase it */
		print_lines("tunetop ab: ", r->err_cause);
		if (r->res.windows > 0) {
			if (json)
				report_json(stdout, r, o, false);
			else
				report_text(stdout, r, o, false);
			fflush(stdout);
		}
		rc = 1;
	} else {
		if (ab_why.on) {
			probe_stop(r->p);
			probe_why_arms(&ab_why, r->p, r);
		}
		if (json)
			report_json(stdout, r, o, r->phase == AB_CANCELLED);
		else
			report_text(stdout, r, o, r->phase == AB_CANCELLED);
		if (ab_why.on && !json)
			probe_why_arms_text(&ab_why, r, stdout);
		fflush(stdout);
		rc = r->phase == AB_CANCELLED ? 128 + (sig ? sig : SIGINT) : 0;
	}
	if (r->restore_err) {
		print_lines("tunetop ab: ", r->restore_cause);
		cmd_error("ab", 0,
			  "%s may not be back to %s; see 'tunetop journal' and 'tunetop restore'",
			  r->cfg.addr, r->original);
		if (!rc)
			rc = 1;
	} else if (r->phase == AB_FAILED) {
		cmd_note("ab", "%s restored to %s", r->cfg.addr, r->original);
	}
	return rc;
}

int cmd_ab(struct cmd_ctx *cx, int argc, char **argv)
{
	const struct tt_opts *o = cx->o;
	struct probe why_probe = {0};
	bool why_started = false;
	char why[256];
	struct ab_cfg cfg;
	struct ab_run r;
	struct world *world = NULL;
	struct ab_sim sim = {0};
	const char *assign = NULL;
	bool json = false;
	char *cause = NULL;
	sigset_t sigs, old;
	int e, rc;

	ab_cfg_init(&cfg);
	rc = parse_args(cx, argc, argv, &cfg, &json, &assign);
	if (rc >= 0)
		return rc;
	if (cmd_setup(cx, 0))
		return 1;
	world = cmd_world_attach(o->root, "ab");
	ab_world = world ? world_def_of(world) : NULL;
	e = ab_parse_knob(cx->knob, assign, &cfg, &cause);
	if (e) {
		knob_print_cause("ab", cause);
		free(cause);
		world_close(world);
		return knob_exit_code(e);
	}
	if (world && world_has_probe(world) && !cfg.cmd && !cfg.metric_file) {
		/* the probe's A/B in a world: its simulated probe (issue 35) */
		sim.w = world;
		sim.interval_us = cfg.probe.interval_us;
		cfg.sim_step = sim_step;
		cfg.sim_probe = sim_probe;
		cfg.sim_ctx = &sim;
		if (ab_why.on)
			cmd_note("ab",
				 "SIMULATED world %s: --why does not apply to its A/B; 'probe "
				 "--why' attributes its late wake-ups",
				 ab_world->name);
		ab_why.on = false;
	}

	/* Terminating signals are taken synchronously here; every thread the
	 * A/B starts (probe, load, CMD runner) blocks them. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);

	if (ab_why.on) { /* the A/B runs on a probe that hands over its late wake-ups */
		probe_why_open(&ab_why, &cfg.probe);
		e = probe_start(&why_probe, &cfg.probe, why, sizeof(why));
		why_started = true;
		if (e)
			cmd_note("ab", "--why: probe: %s: measuring without it", why);
		else
			cfg.probe_ext = &why_probe;
		probe_why_start(&ab_why, &why_probe);
	}
	e = ab_start(&r, cx->knob, &cfg, &cause);
	if (e) {
		knob_print_cause("ab", cause);
		free(cause);
		rc = knob_exit_code(e);
	} else {
		if (r.source == AB_PROBE && r.p) {
			for (int i = 0; i < r.p->nnotes; i++)
				cmd_note("ab", "probe: %s", r.p->note[i]);
			if (o->root && strcmp(o->root, "/"))
				cmd_note("ab",
					 "the knob is written under --root %s; the probe measures "
					 "the live machine",
					 o->root);
		}
		if (world && sim.w)
			cmd_note("ab",
				 "SIMULATED: world %s (%s); the probe is the world's simulated "
				 "probe (one thread on CPU 0), each window %.3g simulated s, "
				 "run at once",
				 world_def_of(world)->name, world_def_of(world)->board,
				 cfg.window_s);
		else if (world)
			cmd_note("ab",
				 "SIMULATED: world %s (%s); its application logs to %s/%s as the "
				 "knob changes",
				 world_def_of(world)->name, world_def_of(world)->board, o->root,
				 world_def_of(world)->log);
		rc = finish(&r, o, json, run_to_end(&r, &sigs, world));
	}
	world_close(world);
	ab_free(&r);
	if (why_started) {
		probe_why_free(&ab_why);
		probe_free(&why_probe);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}
