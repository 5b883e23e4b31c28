/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OpenMetrics text of a snapshot (openmetrics.h). It is a projection of the
 * snapshot JSON (report_json, design §8): the document is written, parsed
 * back and walked, so both outputs carry the same numbers and the same n/a
 * (a null is no sample). Families: per-CPU frequency, utilisation, idle
 * residency/entries/time per state, temperatures; cpufreq governors as an
 * info metric; devfreq and debugfs clocks; RT throttling; thermal zones and
 * hwmon sensors; findings by rule and severity; journal changes; probe
 * percentiles when a probe runs. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/jsonparse.h"
#include "core/xalloc.h"
#include "out/openmetrics.h"
#include "sysfs/userfile.h"

static void family(struct sbuf *b, const char *name, const char *type, const char *help)
{
	sbuf_printf(b, "# TYPE %s %s\n# HELP %s %s\n", name, type, name, help);
}

/* A label value: \\, \" and \n escaped. */
static void label(struct sbuf *b, const char *k, const char *v, bool first)
{
	sbuf_printf(b, "%s%s=\"", first ? "" : ",", k);
	for (const char *p = v ? v : ""; *p; p++) {
		if (*p == '\\' || *p == '"')
			sbuf_printf(b, "\\%c", *p);
		else if (*p == '\n')
			sbuf_puts(b, "\\n");
		else
			sbuf_printf(b, "%c", *p);
	}
	sbuf_puts(b, "\"");
}

static void value(struct sbuf *b, double v)
{
	if (v == (double)(int64_t)v && fabs(v) < 9e15)
		sbuf_printf(b, " %lld\n", (long long)v);
	else
		sbuf_printf(b, " %.15g\n", v);
}

/* name{k1="v1"[,k2="v2"]} v, nothing for a missing/null number. */
static void sample2(struct sbuf *b, const char *name, const char *k1, const char *v1,
		    const char *k2, const char *v2, const struct jp_value *num, double scale)
{
	if (!num || num->type != JP_NUM)
		return;
	sbuf_printf(b, "%s{", name);
	label(b, k1, v1, true);
	if (k2)
		label(b, k2, v2, false);
	sbuf_puts(b, "}");
	value(b, num->is_int && scale == 1 ? (double)num->i : num->num * scale);
}

static void sample_plain(struct sbuf *b, const char *name, const struct jp_value *num, double scale)
{
	if (!num || num->type != JP_NUM)
		return;
	sbuf_puts(b, name);
	value(b, num->num * scale);
}

static const char *idstr(const struct jp_value *v, char *buf, size_t cap)
{
	snprintf(buf, cap, "%lld", (long long)jp_int(v, -1));
	return buf;
}

/* [4,5] -> "4,5" */
static const char *list(const struct jp_value *a, char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < jp_len(a) && n + 24 < cap; i++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%lld", i ? "," : "",
				      (long long)jp_int(jp_at(a, i), -1));
	return buf;
}

/* The families with one sample per element of an array of the document, in
 * the order they are written: the element's label_key (a number when
 * numeric, else a string, "?" when absent) is the label `label`, its kind
 * (when kind is set) the label "kind", its key times scale the value. A
 * counter's samples are named NAME_total. */
static const struct om_family {
	const char *group, *name, *type, *help, *label, *label_key;
	bool numeric, kind;
	const char *key;
	double scale;
} om_families[] = {
	{"cpus", "tunetop_cpu_frequency_hz", "gauge", "current CPU frequency (scaling_cur_freq)",
	 "cpu", "id", true, false, "freq_khz", 1000},
	{"cpus", "tunetop_cpu_utilisation_ratio", "gauge",
	 "busy share of the last interval (/proc/stat)", "cpu", "id", true, false, "util_pct",
	 0.01},
	{"cpus", "tunetop_cpu_temperature_celsius", "gauge",
	 "temperature of the CPU's thermal zone", "cpu", "id", true, false, "temp_mc", 0.001},
	{"policies", "tunetop_cpufreq_min_hz", "gauge", "lower frequency bound (scaling_min_freq)",
	 "policy", "name", false, false, "min_khz", 1000},
	{"policies", "tunetop_cpufreq_max_hz", "gauge", "upper frequency bound (scaling_max_freq)",
	 "policy", "name", false, false, "max_khz", 1000},
	{"devfreq", "tunetop_devfreq_frequency_hz", "gauge", "devfreq device frequency (cur_freq)",
	 "device", "name", false, true, "cur_hz", 1},
	{"clocks", "tunetop_clock_rate_hz", "gauge", "debugfs clock rate (clk_rate)", "clock",
	 "name", false, true, "rate_hz", 1},
	{"rt", "tunetop_rt_throttled", "gauge", "1 if the CPU's RT runqueue is throttled", "cpu",
	 "cpu", true, false, "rt_throttled", 1},
	{"rt", "tunetop_rt_throttle_events", "counter", "RT throttling events seen", "cpu", "cpu",
	 true, false, "throttle_events", 1},
	{"thermal", "tunetop_thermal_zone_temperature_celsius", "gauge", "thermal zone temperature",
	 "zone", "zone", false, false, "temp_mc", 0.001},
};

/* The families of om_families[] in group, over the elements of arr. */
static void families(struct sbuf *b, const char *group, const struct jp_value *arr)
{
	for (size_t k = 0; k < sizeof(om_families) / sizeof(om_families[0]); k++) {
		const struct om_family *f = &om_families[k];
		char nm[64], id[24];

		if (strcmp(f->group, group))
			continue;
		family(b, f->name, f->type, f->help);
		snprintf(nm, sizeof(nm), "%s%s", f->name,
			 !strcmp(f->type, "counter") ? "_total" : "");
		for (size_t i = 0; i < jp_len(arr); i++) {
			const struct jp_value *e = jp_at(arr, i), *l = jp_get(e, f->label_key);

			sample2(b, nm, f->label,
				f->numeric ? idstr(l, id, sizeof(id)) : jp_str(l, "?"),
				f->kind ? "kind" : NULL,
				f->kind ? jp_str(jp_get(e, "kind"), "") : NULL, jp_get(e, f->key),
				f->scale);
		}
	}
}

static void cpus(struct sbuf *b, const struct jp_value *doc)
{
	const struct jp_value *cs = jp_get(doc, "cpus");
	char id[24];

	family(b, "tunetop_cpu_online", "gauge", "1 if the CPU is online");
	for (size_t i = 0; i < jp_len(cs); i++) {
		const struct jp_value *c = jp_at(cs, i), *on = jp_get(c, "online");
		struct jp_value n = {.type = JP_NUM,
				     .num = jp_bool(on, false),
				     .is_int = true,
				     .i = jp_bool(on, false)};

		if (on && on->type == JP_BOOL)
			sample2(b, "tunetop_cpu_online", "cpu",
				idstr(jp_get(c, "id"), id, sizeof(id)), NULL, NULL, &n, 1);
	}
	families(b, "cpus", cs);
	static const struct {
		const char *name, *type, *key, *help;
		double scale;
	} idle[] = {
		{"tunetop_cpu_idle_residency_ratio", "gauge", "residency_pct",
		 "share of the last interval spent in the idle state", 0.01},
		{"tunetop_cpu_idle_entries", "counter", "usage",
		 "entries into the idle state (usage)", 1},
		{"tunetop_cpu_idle_time_seconds", "counter", "time_us",
		 "time spent in the idle state", 1e-6},
	};
	for (size_t k = 0; k < sizeof(idle) / sizeof(idle[0]); k++) {
		char nm[64];

		family(b, idle[k].name, idle[k].type, idle[k].help);
		snprintf(nm, sizeof(nm), "%s%s", idle[k].name,
			 !strcmp(idle[k].type, "counter") ? "_total" : "");
		for (size_t i = 0; i < jp_len(cs); i++) {
			const struct jp_value *c = jp_at(cs, i), *st = jp_get(c, "idle");

			idstr(jp_get(c, "id"), id, sizeof(id));
			for (size_t j = 0; j < jp_len(st); j++) {
				const struct jp_value *x = jp_at(st, j);
				const char *sn = jp_str(jp_get(x, "name"), NULL);

				sample2(b, nm, "cpu", id, "state",
					sn && *sn ? sn : jp_str(jp_get(x, "state"), "?"),
					jp_get(x, idle[k].key), idle[k].scale);
			}
		}
	}
}

static void policies(struct sbuf *b, const struct jp_value *doc)
{
	const struct jp_value *ps = jp_get(doc, "policies");
	char l[256];

	family(b, "tunetop_cpufreq_governor", "info", "the cpufreq policy's governor");
	for (size_t i = 0; i < jp_len(ps); i++) {
		const struct jp_value *p = jp_at(ps, i);

		if (jp_is_null(jp_get(p, "governor")))
			continue;
		sbuf_puts(b, "tunetop_cpufreq_governor_info{");
		label(b, "policy", jp_str(jp_get(p, "name"), "?"), true);
		label(b, "cpus", list(jp_get(p, "cpus"), l, sizeof(l)), false);
		label(b, "governor", jp_str(jp_get(p, "governor"), ""), false);
		sbuf_puts(b, "} 1\n");
	}
	families(b, "policies", ps);
}

static void clocks(struct sbuf *b, const struct jp_value *doc)
{
	families(b, "devfreq", jp_get(doc, "devfreq"));
	families(b, "clocks", jp_get(doc, "clocks"));
}

static void rt(struct sbuf *b, const struct jp_value *doc)
{
	const struct jp_value *r = jp_get(doc, "rt");

	family(b, "tunetop_rt_runtime_seconds", "gauge",
	       "RT bandwidth: runtime per period (sched_rt_runtime_us; absent = unlimited)");
	sample_plain(b, "tunetop_rt_runtime_seconds", jp_get(r, "runtime_us"), 1e-6);
	family(b, "tunetop_rt_period_seconds", "gauge", "RT bandwidth period (sched_rt_period_us)");
	sample_plain(b, "tunetop_rt_period_seconds", jp_get(r, "period_us"), 1e-6);
	families(b, "rt", jp_get(r, "cpus"));
}

static void temps(struct sbuf *b, const struct jp_value *doc)
{
	const struct jp_value *h = jp_get(doc, "hwmon");

	families(b, "thermal", jp_get(doc, "thermal"));
	family(b, "tunetop_hwmon_temperature_celsius", "gauge", "hwmon temperature sensor");
	for (size_t i = 0; i < jp_len(h); i++) {
		char lb[160];

		snprintf(lb, sizeof(lb), "%s/%s", jp_str(jp_get(jp_at(h, i), "dev"), "?"),
			 jp_str(jp_get(jp_at(h, i), "label"), "?"));
		sample2(b, "tunetop_hwmon_temperature_celsius", "sensor", lb, "chip",
			jp_str(jp_get(jp_at(h, i), "chip"), ""), jp_get(jp_at(h, i), "temp_mc"),
			0.001);
	}
}

static void findings(struct sbuf *b, const struct jp_value *doc)
{
	const struct jp_value *f = jp_get(doc, "findings"), *j = jp_get(doc, "journal");

	family(b, "tunetop_findings", "gauge", "findings now, by rule and severity");
	for (size_t i = 0; i < jp_len(f); i++) {
		const char *id = jp_str(jp_get(jp_at(f, i), "id"), "?");
		const char *sev = jp_str(jp_get(jp_at(f, i), "severity"), "?");
		size_t n = 0;
		bool seen = false;

		for (size_t k = 0; k < jp_len(f); k++) {
			const char *id2 = jp_str(jp_get(jp_at(f, k), "id"), "?");
			const char *sev2 = jp_str(jp_get(jp_at(f, k), "severity"), "?");

			if (!strcmp(id, id2) && !strcmp(sev, sev2)) {
				seen |= k < i;
				n++;
			}
		}
		if (seen)
			continue;
		struct jp_value v = {
			.type = JP_NUM, .num = (double)n, .is_int = true, .i = (int64_t)n};

		sample2(b, "tunetop_findings", "rule", id, "severity", sev, &v, 1);
	}
	family(b, "tunetop_journal_active_changes", "gauge",
	       "journaled knob changes in effect on this root (not undone)");
	sample_plain(b, "tunetop_journal_active_changes", jp_get(j, "active"), 1);
	family(b, "tunetop_journal_orphaned_changes", "gauge",
	       "active changes whose run ended without restoring them");
	sample_plain(b, "tunetop_journal_orphaned_changes", jp_get(j, "orphaned"), 1);
}

static void probe(struct sbuf *b, const struct om_probe *p)
{
	static const struct {
		const char *name, *help;
	} q[] = {
		{"tunetop_probe_latency_p50_seconds",
		 "wake-up latency p50 of the probe's last window"},
		{"tunetop_probe_latency_p99_seconds",
		 "wake-up latency p99 of the probe's last window"},
		{"tunetop_probe_latency_max_seconds",
		 "wake-up latency maximum of the probe's last window"},
	};
	double v[3];

	if (!p)
		return;
	v[0] = p->p50_us;
	v[1] = p->p99_us;
	v[2] = p->max_us;
	for (int i = 0; i < 3; i++) {
		family(b, q[i].name, "gauge", q[i].help);
		if (isnan(v[i]))
			continue; /* no wake-up in the window */
		sbuf_printf(b, "%s{", q[i].name);
		label(b, "cpus", p->cpus, true);
		sbuf_puts(b, "}");
		value(b, v[i] * 1e-6);
	}
	family(b, "tunetop_probe_samples", "counter", "probe wake-ups measured");
	sbuf_puts(b, "tunetop_probe_samples_total{");
	label(b, "cpus", p->cpus, true);
	sbuf_printf(b, "} %llu\n", (unsigned long long)p->samples);
	family(b, "tunetop_probe_overflows", "counter", "probe deadlines skipped (already passed)");
	sbuf_puts(b, "tunetop_probe_overflows_total{");
	label(b, "cpus", p->cpus, true);
	sbuf_printf(b, "} %llu\n", (unsigned long long)p->overflows);
}

/* OpenMetrics -> Prometheus text 0.0.4: rename the TYPE/HELP lines of
 * counter families (X -> X_total) and info families (X -> X_info, gauge). */
static void to_promtext(struct sbuf *b, size_t from)
{
	struct sbuf out;
	char *save = NULL, *text = xstrdup(b->s + from), suffix[8] = "";

	sbuf_init(&out);
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char name[128], type[16];

		if (sscanf(l, "# TYPE %127s %15s", name, type) == 2) {
			bool info = !strcmp(type, "info"), counter = !strcmp(type, "counter");

			str_copy(suffix, sizeof(suffix), info ? "_info" : counter ? "_total" : "");
			sbuf_printf(&out, "# TYPE %s%s %s\n", name, suffix, info ? "gauge" : type);
		} else if (!strncmp(l, "# HELP ", 7)) {
			size_t n = strcspn(l + 7, " ");

			sbuf_printf(&out, "# HELP %.*s%s%s\n", (int)n, l + 7, suffix, l + 7 + n);
		} else {
			sbuf_printf(&out, "%s\n", l);
		}
	}
	b->len = from;
	sbuf_putn(b, out.s ? out.s : "", out.len);
	sbuf_free(&out);
	free(text);
}

void openmetrics_write(struct sbuf *b, const struct snapshot *s, const struct report_opts *o,
		       const struct om_probe *p, enum om_format fmt)
{
	size_t from = b->len;
	struct sbuf j;
	struct jp_value doc;
	struct report_opts ro = *o;
	char err[160];

	ro.pretty = false;
	sbuf_init(&j);
	report_json(&j, s, &ro);
	if (jp_parse(j.s, j.len, &doc, err, sizeof(err)) == 0) {
		family(b, "tunetop_build", "info", "the tunetop that wrote this");
		sbuf_puts(b, "tunetop_build_info{");
		label(b, "version", jp_str(jp_get(&doc, "tunetop"), ""), true);
		label(b, "root", jp_str(jp_get(&doc, "root"), ""), false);
		sbuf_puts(b, "} 1\n");
		cpus(b, &doc);
		policies(b, &doc);
		clocks(b, &doc);
		rt(b, &doc);
		temps(b, &doc);
		findings(b, &doc);
		jp_free(&doc);
	}
	probe(b, p);
	sbuf_puts(b, "# EOF\n");
	sbuf_free(&j);
	if (fmt == OM_PROMTEXT)
		to_promtext(b, from);
}

int openmetrics_write_file(const char *path, const char *text, size_t len)
{
	char *tmp = xasprintf("%s.tmp", path);
	int fd = userfile_open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644, USERFILE_MAX_TEXT);
	int e = 0;

	if (fd < 0) {
		free(tmp);
		return fd;
	}
	for (size_t off = 0; off < len && !e;) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno != EINTR)
			e = -errno;
		else if (w > 0)
			off += (size_t)w;
	}
	if (!e && fsync(fd) != 0)
		e = -errno;
	if (close(fd) != 0 && !e)
		e = -errno;
	if (!e && rename(tmp, path) != 0)
		e = -errno;
	if (e)
		unlink(tmp);
	free(tmp);
	return e;
}
