/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `probe --why` (see probe_why.h): the glue between the probe's late
 * records, the capture of the kernel's events and the attribution, and the
 * reports. The bar for late records follows the run: with --why-over it is
 * that value; otherwise the running p90 (so every wake-up over the final p99
 * is a candidate unless the run got much better late), and the final p99
 * picks the late wake-ups at the end. */
#include "cmd/common.h"
#include "cmd/probe_why.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"
#include "core/err.h"
#include "core/json.h"
#include "core/xalloc.h"
#include "probe/ab.h"
#include "sysfs/userfile.h"

void probe_why_open(struct whyrun *wr, struct probe_cfg *cfg)
{
	struct whycap_cfg cc = {.cpus = cfg->cpus, .interval_us = cfg->interval_us};
	char note[160];
	int rc;

	if (!wr->on)
		return;
	rc = whycap_open(&wr->cap, &cc, wr->why, sizeof(wr->why), note, sizeof(note));
	if (note[0])
		cmd_error("probe", 0, "%s", note);
	if (rc) {
		cmd_error("probe", 0, "--why: %s: measuring without the causes", wr->why);
		wr->cap = NULL;
		return;
	}
	cfg->late = true;
	wr->buf = xcalloc(PROBE_LATE_RING, sizeof(*wr->buf));
}

void probe_why_start(struct whyrun *wr, struct probe *p)
{
	if (!wr->cap)
		return;
	/* until the running p90 is known, every wake-up is a candidate */
	probe_set_late_bar(p, wr->over_ns);
	if (whycap_start(wr->cap)) {
		snprintf(wr->why, sizeof(wr->why), "%s: tracing could not be turned on", "--why");
		whycap_close(wr->cap);
		wr->cap = NULL;
	}
}

static void drain(struct whyrun *wr, struct probe *p)
{
	wr->ring_drops = 0;
	for (int i = 0; i < p->n; i++) {
		uint64_t prog, drops;
		size_t n = probe_late_drain(p, i, wr->buf, PROBE_LATE_RING, &prog, &drops);

		for (size_t k = 0; k < n; k++)
			whycap_add_late(wr->cap, p->thr[i].cpu, p->thr[i].tid,
					wr->buf[k].deadline_ns, wr->buf[k].wake_ns);
		whycap_progress(wr->cap, p->thr[i].cpu, prog);
		wr->ring_drops += drops;
	}
}

void probe_why_tick(struct whyrun *wr, struct probe *p)
{
	if (!wr || !wr->cap)
		return;
	drain(wr, p);
	whycap_poll(wr->cap);
	wr->ticks++;
	if (!wr->over_ns && (wr->ticks < 10 || wr->ticks % 10 == 0)) {
		struct hist *all = xmalloc(sizeof(*all));

		probe_snapshot_all(p, all);
		if (all->count >= 100)
			probe_set_late_bar(p, (uint64_t)(hist_percentile_us(all, 0.90) * 1000.0));
		free(all);
	}
}

/* What the attribution needs from the machine: idle states, housekeeping
 * CPUs (the online ones the probe does not measure), the threshold. */
static void opts_fill(struct why_opts *o, const struct probe *p, uint64_t thr)
{
	struct cpumask online;

	memset(o, 0, sizeof(*o));
	whycap_idle_opts(o);
	o->over_ns = thr;
	if (!probe_online_cpus(&online)) {
		cpumask_andnot(&online, &p->cfg.cpus);
		cpulist_format(&online, o->housekeeping, sizeof(o->housekeeping));
	}
}

static int save_events(const struct whyrun *wr)
{
	struct userfile_out o;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int e;

	if (!m)
		return -ENOMEM;
	e = why_events_write(&wr->ev, m);
	fclose(m);
	if (!e)
		e = userfile_out_open(&o, wr->events_file);
	if (!e)
		e = userfile_out_commit(&o, userfile_write_all(o.fd, text, len));
	free(text);
	return e;
}

void probe_why_finish(struct whyrun *wr, struct probe *p, const struct hist *all)
{
	struct why_opts o;
	uint64_t thr = wr->over_ns;
	int e;

	if (!wr->cap)
		return;
	drain(wr, p);
	whycap_stop(wr->cap);
	if (!thr && all->count)
		thr = (uint64_t)(hist_percentile_us(all, 0.99) * 1000.0);
	whycap_finish(wr->cap, thr, &wr->ev, &wr->st);
	opts_fill(&o, p, thr);
	e = why_attribute(&wr->ev, &o, &wr->res);
	if (e) {
		wr->err = e;
		cmd_error("probe", e, "--why: attribution");
	} else {
		wr->have_res = true;
		wr->res.threshold_ns = thr;
		if (wr->res.lost_events < wr->st.lost)
			wr->res.lost_events = wr->st.lost;
	}
	if (wr->events_file) {
		e = save_events(wr);
		if (e) {
			wr->err = e;
			cmd_error("probe", e, "--events %s", wr->events_file);
		}
	}
}

void probe_why_text(const struct whyrun *wr, FILE *f)
{
	if (!wr->on)
		return;
	if (!wr->cap) {
		fprintf(f, "\nwhy: not captured: %s\n", wr->why);
		return;
	}
	fprintf(f,
		"\nwhy: tracefs instance %s, %llu events read, %llu kept, buffer %u KiB per CPU, "
		"%llu lost%s\n",
		wr->st.instance, (unsigned long long)wr->st.events_read,
		(unsigned long long)wr->st.events_kept, wr->st.buffer_kb,
		(unsigned long long)wr->st.lost,
		wr->st.lost ? " (causes near the losses may be missing)" : "");
	if (wr->st.optional_off[0])
		fprintf(f, "why: events this kernel lacks (not used): %s\n", wr->st.optional_off);
	if (wr->ring_drops)
		fprintf(f, "why: %llu late records lost to a full ring\n",
			(unsigned long long)wr->ring_drops);
	if (wr->st.floor_ns)
		fprintf(f, "why: memory cap reached: late wake-ups under %.0f us were dropped\n",
			(double)wr->st.floor_ns / 1e3);
	if (wr->have_res)
		why_write_text(&wr->res, f, 5);
}

void probe_why_json(const struct whyrun *wr, struct jw *w)
{
	if (!wr->on)
		return;
	if (wr->have_res) {
		jw_obj_begin(w, "why");
		why_write_json(&wr->res, w);
		jw_obj_end(w);
	} else {
		jw_null(w, "why");
	}
	probe_why_capture_json(wr, w);
}

void probe_why_capture_json(const struct whyrun *wr, struct jw *w)
{
	if (!wr->on)
		return;
	jw_obj_begin(w, "why_capture");
	jw_bool(w, "captured", wr->cap != NULL);
	jw_str(w, "reason", wr->cap ? NULL : wr->why);
	if (wr->cap) {
		jw_str(w, "instance", wr->st.instance);
		jw_uint(w, "events_read", wr->st.events_read);
		jw_uint(w, "events_kept", wr->st.events_kept);
		jw_uint(w, "lost_events", wr->st.lost);
		jw_uint(w, "late_records_lost", wr->ring_drops);
		jw_uint(w, "buffer_kb", wr->st.buffer_kb);
		jw_double(w, "calibrated_events_per_s", wr->st.rate_per_s, 0);
		jw_double(w, "threshold_us", (double)wr->res.threshold_ns / 1e3, 3);
		if (wr->st.floor_ns)
			jw_double(w, "floor_us", (double)wr->st.floor_ns / 1e3, 3);
		else
			jw_null(w, "floor_us");
		jw_str(w, "events_file", wr->events_file);
	}
	jw_obj_end(w);
}

void probe_why_free(struct whyrun *wr)
{
	whycap_close(wr->cap);
	wr->cap = NULL;
	if (wr->have_res)
		why_result_free(&wr->res);
	why_events_free(&wr->ev);
	for (unsigned a = 0; a < wr->narms; a++)
		if (wr->arm_have[a])
			why_result_free(&wr->arm[a]);
	free(wr->arm);
	free(wr->arm_have);
	wr->arm = NULL;
	wr->arm_have = NULL;
	wr->narms = 0;
	free(wr->buf);
	wr->buf = NULL;
}

/* ---- ab --why: the causes of each arm --------------------------------------- */

static bool in_arm(const struct ab_window *w, size_t nwin, int arm, uint64_t ts)
{
	for (size_t i = 0; i < nwin; i++)
		if (w[i].done && w[i].arm == arm && ts >= w[i].start_ns && ts <= w[i].end_ns)
			return true;
	return false;
}

void probe_why_arms(struct whyrun *wr, struct probe *p, struct ab_run *r)
{
	struct ab_window *w;
	struct hist *all;
	size_t nwin;

	if (!wr->on || !wr->cap || wr->arm)
		return;
	all = xmalloc(sizeof(*all));
	hist_init(all);
	for (unsigned a = 0; a < r->narms; a++)
		hist_merge(all, &r->arm[a].hist);
	/* one threshold for every arm: --why-over, else the p99 of all arms */
	probe_why_finish(wr, p, all);
	free(all);
	nwin = ab_windows(r, NULL, 0);
	w = xcalloc(nwin + 1, sizeof(*w));
	ab_windows(r, w, nwin);
	wr->arm = xcalloc(r->narms ? r->narms : 1, sizeof(*wr->arm));
	wr->arm_have = xcalloc(r->narms ? r->narms : 1, sizeof(*wr->arm_have));
	wr->narms = r->narms;
	for (unsigned a = 0; a < r->narms; a++) {
		struct why_events sub = {0};
		struct why_opts o;

		for (size_t i = 0; i < wr->ev.n; i++)
			if (wr->ev.ev[i].kind != WEV_LATE ||
			    in_arm(w, nwin, (int)a, wr->ev.ev[i].u.late.wake_ns))
				why_events_add(&sub, &wr->ev.ev[i]);
		opts_fill(&o, p, wr->res.threshold_ns);
		if (why_attribute(&sub, &o, &wr->arm[a]) == 0) {
			wr->arm[a].threshold_ns = wr->res.threshold_ns;
			if (wr->arm[a].lost_events < wr->st.lost)
				wr->arm[a].lost_events = wr->st.lost;
			wr->arm_have[a] = true;
		}
		why_events_free(&sub);
	}
	free(w);
}

void probe_why_arms_text(const struct whyrun *wr, const struct ab_run *r, FILE *f)
{
	if (!wr->on)
		return;
	if (!wr->cap) {
		fprintf(f, "\nwhy: not captured: %s\n", wr->why);
		return;
	}
	fprintf(f, "\nwhy, per arm (late = over %.1f us; %llu events lost):\n",
		(double)wr->res.threshold_ns / 1e3, (unsigned long long)wr->st.lost);
	for (unsigned a = 0; a < r->narms && a < wr->narms; a++) {
		fprintf(f, "\narm %c (%s):\n", ab_arm_name((int)a), r->arm[a].value);
		if (wr->arm_have[a])
			why_write_text(&wr->arm[a], f, 3);
	}
}

void probe_why_arm_json(const struct whyrun *wr, unsigned arm, struct jw *w)
{
	if (!wr->on)
		return;
	if (arm < wr->narms && wr->arm_have[arm]) {
		jw_obj_begin(w, "why");
		why_write_json(&wr->arm[arm], w);
		jw_obj_end(w);
	} else {
		jw_null(w, "why");
	}
}
