/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpuidle and PM QoS data source. Owns what is read from
 * sys/devices/system/cpu/cpuidle/ (driver, governor), cpuN/cpuidle/stateK/
 * (per CPU per state description, limits, disable bits and counters),
 * cpuN/power/pm_qos_resume_latency_us, and the effective value of
 * dev/cpu_dma_latency; the parsers for their odd formats ("n/a" latency,
 * enabled/disabled, the 4-byte binary device); and the rates derived from
 * two reads (residency %, entries/s, above/s, below/s). Nothing here formats
 * for display; see src/out/cpuidle_out.c. */
#include "source/cpuidle.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"

#define CPU_DIR	    "sys/devices/system/cpu"
#define CPUIDLE_DIR CPU_DIR "/cpuidle"

/* ---- pure parsers -------------------------------------------------------- */

int cpuidle_parse_resume_latency(const char *text, int64_t *us)
{
	char buf[64];
	char *t;
	int64_t v;

	if (!text)
		return -ENODATA;
	str_copy(buf, sizeof(buf), text);
	t = str_trim(buf);
	if (!*t)
		return -ENODATA;
	if (!strcmp(t, "n/a")) {
		*us = 0; /* zero latency allowed: no idle state but polling */
		return 0;
	}
	if (str_to_i64(t, &v) != 0 || v < 0)
		return -EINVAL;
	*us = v == 0 ? CPUIDLE_RESUME_NO_CONSTRAINT : v;
	return 0;
}

int cpuidle_parse_default_status(const char *text, int *val)
{
	char buf[32];
	char *t;

	if (!text)
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", text);
	t = str_trim(buf);
	if (!strcmp(t, "enabled"))
		*val = 1;
	else if (!strcmp(t, "disabled"))
		*val = 0;
	else
		return -EINVAL;
	return 0;
}

int cpuidle_parse_dma_latency(const void *buf, size_t len, int64_t *us)
{
	int32_t v;

	if (len != sizeof(v))
		return -EINVAL;
	memcpy(&v, buf, sizeof(v));
	*us = v;
	return 0;
}

/* ---- reading ------------------------------------------------------------- */

/* Decimal digits of v at p; the end. */
static char *put_uint(char *p, unsigned v)
{
	char d[12];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = d[--n];
	return p;
}

/* CPU_DIR "/cpu<cpu>/" + rest (rest short: the buffer is TT_PATH_MAX). */
static char *path_cpu(char *buf, int cpu, const char *rest)
{
	static const char dir[] = CPU_DIR "/cpu";
	char *p = buf;

	memcpy(p, dir, sizeof(dir) - 1);
	p = put_uint(p + sizeof(dir) - 1, (unsigned)cpu);
	*p++ = '/';
	p += str_copy(p, TT_PATH_MAX - (size_t)(p - buf), rest);
	return p;
}

static void read_name(const struct sysroot *r, const char *path, char *buf, size_t cap)
{
	buf[0] = '\0';
	if (sysfs_read_str(r, path, buf, cap) != 0)
		buf[0] = '\0';
}

static bool read_counter(const struct sysroot *r, const char *dir, const char *file, uint64_t *out)
{
	*out = 0;
	return sysfs_read_u64f(r, out, "%s/%s", dir, file) == 0;
}

static void read_state(const struct sysroot *r, const char *dir, struct cpuidle_state *s)
{
	char path[TT_PATH_MAX], buf[32];
	int64_t v;
	int ds;

	snprintf(path, sizeof(path), "%s/name", dir);
	read_name(r, path, s->name, sizeof(s->name));
	snprintf(path, sizeof(path), "%s/desc", dir);
	read_name(r, path, s->desc, sizeof(s->desc));
	s->latency_us = sysfs_read_nn(r, dir, "latency");
	s->residency_us = sysfs_read_nn(r, dir, "residency");
	v = sysfs_read_nn(r, dir, "disable");
	s->disable = v < 0 ? -1 : v > 0;
	s->default_status = -1;
	if (sysfs_read_strf(r, buf, sizeof(buf), "%s/default_status", dir) == 0 &&
	    cpuidle_parse_default_status(buf, &ds) == 0)
		s->default_status = ds;
	s->have_usage = read_counter(r, dir, "usage", &s->usage);
	s->have_time = read_counter(r, dir, "time", &s->time_us);
	s->have_above = read_counter(r, dir, "above", &s->above);
	s->have_below = read_counter(r, dir, "below", &s->below);
	s->have_rejected = read_counter(r, dir, "rejected", &s->rejected);
	s->residency_pct = s->entries_per_s = s->above_per_s = s->below_per_s = NAN;
}

static int cmp_state(const void *a, const void *b)
{
	const struct cpuidle_state *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static void read_cpu_states(const struct sysroot *r, struct cpuidle_cpu *cc)
{
	char dir[TT_PATH_MAX];
	struct sysfs_list l;
	size_t cap = 0;

	snprintf(dir, sizeof(dir), CPU_DIR "/cpu%d/cpuidle", cc->cpu);
	if (sysfs_list(r, dir, &l) != 0)
		return;
	for (size_t i = 0; i < l.n; i++) {
		char sdir[TT_PATH_MAX];
		struct cpuidle_state *s;
		int k;

		if (!str_starts(l.names[i], "state") || str_to_int(l.names[i] + 5, &k) != 0 ||
		    k < 0)
			continue;
		snprintf(sdir, sizeof(sdir), "%s/%s", dir, l.names[i]);
		if (!sysfs_is_dir(r, sdir))
			continue;
		cc->st = xgrow(cc->st, &cap, cc->nstates + 1, sizeof(*cc->st));
		s = &cc->st[cc->nstates++];
		memset(s, 0, sizeof(*s));
		s->index = k;
		read_state(r, sdir, s);
	}
	sysfs_list_free(&l);
	if (cap > cc->nstates && cc->nstates) /* xgrow rounds up to 8 states */
		cc->st = xrealloc(cc->st, cc->nstates * sizeof(*cc->st));
	if (cc->nstates > 1)
		qsort(cc->st, cc->nstates, sizeof(*cc->st), cmp_state);
}

static void read_resume_latency(const struct sysroot *r, struct cpuidle_cpu *cc)
{
	char buf[64], path[TT_PATH_MAX];
	int e;

	cc->resume_latency[0] = '\0';
	cc->resume_latency_us = CPUIDLE_RESUME_UNREADABLE;
	/* Built without printf: the refresh reads it for every CPU. */
	path_cpu(path, cc->cpu, "power/pm_qos_resume_latency_us");
	e = sysfs_read_str(r, path, buf, sizeof(buf));
	if (e == -ENODATA)
		buf[0] = '\0';
	else if (e)
		return;
	snprintf(cc->resume_latency, sizeof(cc->resume_latency), "%.15s", buf);
	if (cpuidle_parse_resume_latency(buf, &cc->resume_latency_us) != 0)
		cc->resume_latency_us = CPUIDLE_RESUME_UNREADABLE;
}

static void read_dma_latency(const struct sysroot *r, struct cpuidle_info *out)
{
	char buf[16];
	size_t len = 0;

	out->dma_latency_us = -1;
	if (sysfs_read(r, "dev/cpu_dma_latency", buf, sizeof(buf), &len) == 0)
		cpuidle_parse_dma_latency(buf, len, &out->dma_latency_us);
}

/* Everything of one CPU: its resume latency and, online, its states. */
static void read_cpu_full(const struct sysroot *r, const struct topology *t, int c, uint64_t now_ns,
			  struct cpuidle_cpu *cc)
{
	cc->cpu = c;
	cc->online = t->cpu[c].online;
	cc->read_ns = now_ns;
	read_resume_latency(r, cc);
	if (cc->online)
		read_cpu_states(r, cc);
}

/* The governor in use (current_governor_ro where the kernel does not let
 * it be changed). */
static void read_governor(const struct sysroot *r, struct cpuidle_info *out)
{
	read_name(r, CPUIDLE_DIR "/current_governor", out->governor, sizeof(out->governor));
	if (!out->governor[0])
		read_name(r, CPUIDLE_DIR "/current_governor_ro", out->governor,
			  sizeof(out->governor));
}

/* out's per-CPU array for t's CPUs and the time they are read at; false
 * when t has no CPUs. */
static bool cpus_alloc(const struct topology *t, struct cpuidle_info *out, uint64_t *now_ns)
{
	out->ncpus = t->ncpus;
	if (t->ncpus <= 0)
		return false;
	out->cpu = xcalloc((size_t)t->ncpus, sizeof(*out->cpu));
	*now_ns = out->read_ns = time_mono_ns();
	return true;
}

int cpuidle_read(const struct sysroot *r, const struct topology *t, struct cpuidle_info *out)
{
	uint64_t now_ns;

	memset(out, 0, sizeof(*out));
	out->dma_latency_us = -1;
	if (!t)
		return -EINVAL;
	read_name(r, CPUIDLE_DIR "/current_driver", out->driver, sizeof(out->driver));
	read_governor(r, out);
	read_name(r, CPUIDLE_DIR "/available_governors", out->avail_governors,
		  sizeof(out->avail_governors));
	read_dma_latency(r, out);
	if (!cpus_alloc(t, out, &now_ns))
		return 0;
	for (int c = 0; c < t->ncpus; c++)
		read_cpu_full(r, t, c, now_ns, &out->cpu[c]);
	return 0;
}

/* ---- refresh ------------------------------------------------------------- */

/* Read dir/file as a counter, the path built without printf. */
static bool read_counter_at(const struct sysroot *r, char *path, size_t dirlen, const char *file,
			    uint64_t *out)
{
	str_copy(path + dirlen, TT_PATH_MAX - dirlen, file);
	*out = 0;
	return sysfs_read_u64(r, path, out) == 0;
}

/* Re-read what moves in a state copied from the previous read: the counters
 * and the user's disable bit. Name, description, latency, residency and
 * default_status are fixed while the driver stays registered. A file that
 * was there before and is gone (or unreadable) now means the driver was
 * re-registered or the state removed: false, and the CPU is read again in
 * full. */
static bool refresh_state(const struct sysroot *r, int cpu, struct cpuidle_state *s)
{
	char path[TT_PATH_MAX];
	uint64_t v;
	char *p = path_cpu(path, cpu, "cpuidle/state");
	size_t len;

	p = put_uint(p, (unsigned)s->index);
	*p++ = '/';
	len = (size_t)(p - path);
	if (s->have_usage && !read_counter_at(r, path, len, "usage", &s->usage))
		return false;
	if (s->have_time && !read_counter_at(r, path, len, "time", &s->time_us))
		return false;
	if (s->have_above && !read_counter_at(r, path, len, "above", &s->above))
		return false;
	if (s->have_below && !read_counter_at(r, path, len, "below", &s->below))
		return false;
	/* Entries the driver refused: non-zero only where the platform can
	 * deny a state (PSCI OS-initiated mode); kept fresh there. */
	if (s->have_rejected && s->rejected &&
	    !read_counter_at(r, path, len, "rejected", &s->rejected))
		return false;
	if (s->disable >= 0) {
		if (!read_counter_at(r, path, len, "disable", &v))
			return false;
		s->disable = v > INT64_MAX ? -1 : v > 0;
	}
	s->residency_pct = s->entries_per_s = s->above_per_s = s->below_per_s = NAN;
	return true;
}

/* A copy of prev's record of one CPU (states deep-copied), marked carried:
 * its values, rates and read time stay those of the sample it was read in. */
static void carry_cpu(const struct cpuidle_cpu *q, struct cpuidle_cpu *cc)
{
	*cc = *q;
	cc->carried = true;
	if (q->nstates) {
		cc->st = xmalloc(q->nstates * sizeof(*cc->st));
		memcpy(cc->st, q->st, q->nstates * sizeof(*cc->st));
	}
}

/* What moves in one CPU, against prev's record q of it. */
static void refresh_cpu(const struct sysroot *r, const struct topology *t, int c,
			const struct cpuidle_cpu *q, uint64_t now_ns, struct cpuidle_cpu *cc)
{
	cc->cpu = c;
	cc->online = t->cpu[c].online;
	cc->read_ns = now_ns;
	if (q->resume_latency_us == CPUIDLE_RESUME_UNREADABLE && !q->resume_latency[0]) {
		cc->resume_latency[0] = '\0';
		cc->resume_latency_us = CPUIDLE_RESUME_UNREADABLE;
	} else {
		read_resume_latency(r, cc);
	}
	if (!cc->online)
		return;
	if (!q->online) {
		/* Came online: list its states. */
		read_cpu_states(r, cc);
		return;
	}
	if (!q->nstates)
		return;
	cc->st = xmalloc(q->nstates * sizeof(*cc->st));
	memcpy(cc->st, q->st, q->nstates * sizeof(*cc->st));
	cc->nstates = q->nstates;
	for (size_t i = 0; i < cc->nstates; i++)
		if (!refresh_state(r, c, &cc->st[i])) {
			free(cc->st);
			cc->st = NULL;
			cc->nstates = 0;
			read_cpu_states(r, cc);
			return;
		}
}

int cpuidle_update(const struct sysroot *r, const struct topology *t,
		   const struct cpuidle_info *prev, const struct cpumask *fresh, bool full,
		   struct cpuidle_info *out)
{
	uint64_t now_ns;

	if (!prev || !t || t->ncpus != prev->ncpus || (t->ncpus > 0 && !prev->cpu))
		return cpuidle_read(r, t, out);
	memset(out, 0, sizeof(*out));
	if (full) {
		/* A driver loaded or switched (cpuidle-haltpoll over
		 * acpi_idle) renames and renumbers every state. */
		read_name(r, CPUIDLE_DIR "/current_driver", out->driver, sizeof(out->driver));
		if (strcmp(out->driver, prev->driver))
			return cpuidle_read(r, t, out);
		read_name(r, CPUIDLE_DIR "/available_governors", out->avail_governors,
			  sizeof(out->avail_governors));
	} else {
		/* The driver and the governor list only change with a module
		 * load; the governor is a knob. */
		memcpy(out->driver, prev->driver, sizeof(out->driver));
		memcpy(out->avail_governors, prev->avail_governors, sizeof(out->avail_governors));
	}
	if (prev->governor[0] || full) {
		read_governor(r, out);
	}
	/* Unreadable before (no such device, not root): left to the full read. */
	out->dma_latency_us = -1;
	if (prev->dma_latency_us >= 0 || full)
		read_dma_latency(r, out);
	if (!cpus_alloc(t, out, &now_ns))
		return 0;
	for (int c = 0; c < t->ncpus; c++) {
		const struct cpuidle_cpu *q = &prev->cpu[c];

		if (fresh && !cpumask_test(fresh, c) && q->online == t->cpu[c].online)
			carry_cpu(q, &out->cpu[c]);
		else if (full)
			read_cpu_full(r, t, c, now_ns, &out->cpu[c]);
		else
			refresh_cpu(r, t, c, q, now_ns, &out->cpu[c]);
	}
	return 0;
}

int cpuidle_refresh(const struct sysroot *r, const struct topology *t,
		    const struct cpuidle_info *prev, struct cpuidle_info *out)
{
	return cpuidle_update(r, t, prev, NULL, false, out);
}

const struct cpuidle_state *cpuidle_state_find(const struct cpuidle_info *c, int cpu,
					       const char *name)
{
	const struct cpuidle_cpu *cc;
	int k = -1;

	if (!c || !name || cpu < 0 || cpu >= c->ncpus || !c->cpu)
		return NULL;
	cc = &c->cpu[cpu];
	if (str_starts(name, "state") && str_to_int(name + 5, &k) != 0)
		k = -1;
	for (size_t i = 0; i < cc->nstates; i++)
		if ((k >= 0 && cc->st[i].index == k) || (k < 0 && !strcmp(cc->st[i].name, name)))
			return &cc->st[i];
	return NULL;
}

/* ---- rates --------------------------------------------------------------- */

static const struct cpuidle_state *match_state(const struct cpuidle_cpu *q,
					       const struct cpuidle_state *s)
{
	for (size_t i = 0; i < q->nstates; i++)
		if (q->st[i].index == s->index && !strcmp(q->st[i].name, s->name))
			return &q->st[i];
	return NULL;
}

static bool went_back(bool have_a, uint64_t a, bool have_b, uint64_t b)
{
	return have_a && have_b && a < b;
}

static double rate(bool have_a, uint64_t a, bool have_b, uint64_t b, double dt_s)
{
	if (!have_a || !have_b || a < b)
		return NAN;
	return (double)(a - b) / dt_s;
}

/* The CPU's idle share between q and cc from their /proc/stat ticks;
 * NAN when not known (no ticks, no time counted, a counter went back). */
static double ticks_idle_pct(const struct cpuidle_cpu *cc, const struct cpuidle_cpu *q)
{
	double pct;

	if (!cc->have_ticks || !q->have_ticks || cc->all_ticks <= q->all_ticks ||
	    cc->idle_ticks < q->idle_ticks)
		return NAN;
	pct = 100.0 * (double)(cc->idle_ticks - q->idle_ticks) /
	      (double)(cc->all_ticks - q->all_ticks);
	return pct > 100.0 ? 100.0 : pct;
}

/* The state (position in cc->st) the CPU is taken to be in at the end of
 * the interval: the deepest entered in it; else the one taken before; else
 * the one with the most time since boot (a state the platform rejects, as
 * QEMU does PSCI suspend, has none); else the deepest enabled. -1 none. */
static int stay_guess(struct cpuidle_cpu *cc, const struct cpuidle_cpu *q)
{
	int g = -1;

	for (size_t i = 0; i < cc->nstates; i++)
		if (cc->st[i].entries_per_s > 0)
			g = (int)i;
	for (size_t i = 0; g < 0 && q->have_stay_state && i < cc->nstates; i++)
		if (cc->st[i].index == q->stay_state)
			g = (int)i;
	if (g < 0) {
		int most = -1;

		for (size_t i = 0; i < cc->nstates; i++)
			if (cc->st[i].have_time && cc->st[i].time_us > 0 &&
			    (most < 0 || cc->st[i].time_us > cc->st[most].time_us))
				most = (int)i;
		g = most;
	}
	for (size_t i = cc->nstates; g < 0 && i-- > 0;)
		if (cc->st[i].disable != 1 && cc->st[i].default_status != 0)
			g = (int)i;
	cc->have_stay_state = g >= 0;
	cc->stay_state = g >= 0 ? cc->st[g].index : 0;
	return g;
}

/* See cpuidle_derive(): the stay in progress, and n/a where nothing moved. */
static void account_stay(struct cpuidle_cpu *cc, const struct cpuidle_cpu *q)
{
	double idle_pct = ticks_idle_pct(cc, q), sum = 0, gap;
	bool moved = false;
	int g;

	for (size_t i = 0; i < cc->nstates; i++) {
		const struct cpuidle_state *s = &cc->st[i], *p = match_state(q, s);

		if (p && ((s->have_usage && p->have_usage && s->usage != p->usage) ||
			  (s->have_time && p->have_time && s->time_us != p->time_us)))
			moved = true;
		sum += s->residency_pct; /* NAN if any is */
	}
	if (!moved && isnan(idle_pct)) {
		for (size_t i = 0; i < cc->nstates; i++) {
			struct cpuidle_state *s = &cc->st[i];

			s->residency_pct = s->entries_per_s = s->above_per_s = s->below_per_s = NAN;
		}
		cc->have_stay_state = q->have_stay_state;
		cc->stay_state = q->stay_state;
		return;
	}
	g = stay_guess(cc, q);
	if (isnan(idle_pct) || isnan(sum) || g < 0)
		return;
	gap = idle_pct - sum;
	if (gap > 0) {
		struct cpuidle_state *s = &cc->st[g];

		s->residency_pct = s->residency_pct + gap > 100.0 ? 100.0 : s->residency_pct + gap;
		cc->stay_pct = gap;
		return;
	}
	/* The states counted more than the CPU was idle: a stay that began
	 * before the interval ended in it. Take the excess from the largest. */
	while (gap < 0) {
		struct cpuidle_state *big = NULL;
		double take;

		for (size_t i = 0; i < cc->nstates; i++)
			if (cc->st[i].residency_pct > 0 &&
			    (!big || cc->st[i].residency_pct > big->residency_pct))
				big = &cc->st[i];
		if (!big)
			break;
		take = -gap < big->residency_pct ? -gap : big->residency_pct;
		big->residency_pct -= take;
		gap += take;
	}
}

static void derive_cpu(struct cpuidle_cpu *cc, const struct cpuidle_cpu *q, double dt_s)
{
	bool reset = false;

	/* Carried from the previous sample: it keeps the rates it had. */
	if (cc->carried)
		return;
	cc->stay_pct = NAN;
	for (size_t i = 0; i < cc->nstates; i++) {
		struct cpuidle_state *s = &cc->st[i];

		s->residency_pct = s->entries_per_s = s->above_per_s = s->below_per_s = NAN;
	}
	if (!q || !cc->online || !q->online || !(dt_s > 0) || !isfinite(dt_s))
		return;
	/* Any counter lower than before: the driver was re-registered or the
	 * counters reset; nothing from this interval can be trusted. */
	for (size_t i = 0; i < cc->nstates && !reset; i++) {
		const struct cpuidle_state *s = &cc->st[i], *p = match_state(q, s);

		if (p && (went_back(s->have_usage, s->usage, p->have_usage, p->usage) ||
			  went_back(s->have_time, s->time_us, p->have_time, p->time_us) ||
			  went_back(s->have_above, s->above, p->have_above, p->above) ||
			  went_back(s->have_below, s->below, p->have_below, p->below)))
			reset = true;
	}
	if (reset)
		return;
	for (size_t i = 0; i < cc->nstates; i++) {
		struct cpuidle_state *s = &cc->st[i];
		const struct cpuidle_state *p = match_state(q, s);
		double us;

		if (!p)
			continue;
		us = rate(s->have_time, s->time_us, p->have_time, p->time_us, dt_s);
		if (!isnan(us)) {
			s->residency_pct = us / 1e6 * 100.0;
			if (s->residency_pct > 100.0)
				s->residency_pct = 100.0;
		}
		s->entries_per_s = rate(s->have_usage, s->usage, p->have_usage, p->usage, dt_s);
		s->above_per_s = rate(s->have_above, s->above, p->have_above, p->above, dt_s);
		s->below_per_s = rate(s->have_below, s->below, p->have_below, p->below, dt_s);
	}
	account_stay(cc, q);
}

void cpuidle_derive(struct cpuidle_info *cur, const struct cpuidle_info *prev, double dt_s)
{
	if (!cur)
		return;
	for (int c = 0; c < cur->ncpus; c++) {
		const struct cpuidle_cpu *q = NULL;

		double dt_c = dt_s;

		if (prev && c < prev->ncpus && prev->cpu)
			q = &prev->cpu[c];
		/* Carried through prev, q was read before prev was taken:
		 * this CPU's interval is that much longer, from its own read
		 * before to its read now (both stamped by cpuidle_read; the
		 * sampler's dt_s plus the carry would differ by the time the
		 * reads took, a lot on a loaded machine). */
		if (q && q->carried && q->read_ns && cur->cpu[c].read_ns > q->read_ns)
			dt_c = (double)(cur->cpu[c].read_ns - q->read_ns) / 1e9;
		else if (q && q->carried && q->read_ns && prev->read_ns > q->read_ns)
			dt_c += (double)(prev->read_ns - q->read_ns) / 1e9;
		derive_cpu(&cur->cpu[c], q, dt_c);
	}
}

void cpuidle_free(struct cpuidle_info *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->ncpus && c->cpu; i++)
		free(c->cpu[i].st);
	free(c->cpu);
	memset(c, 0, sizeof(*c));
	c->dma_latency_us = -1;
}
