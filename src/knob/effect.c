/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Effect verification (knob.h "effect"): after a write the kernel accepted,
 * does it behave as asked? Each knob family with an observable is sampled
 * when the watch begins and again when it ends, and judged from the
 * kernel's own counters; the verdict goes into the journal as an E record
 * of the knob's active change. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "knob/knob_int.h"
#include "source/irqs.h"
#include "sysfs/sysroot.h"

#define EFF_MAX_STATES 16
#define EFF_DEFAULT_MS 500u
#define CPU_SYS	       "sys/devices/system/cpu"

enum eff_kind {
	EK_NONE,	/* no observable */
	EK_IDLE,	/* cpuidle/<cpu>/<state>/disable */
	EK_IDLE_GOV,	/* cpuidle/governor: re-watches the idle states */
	EK_FREQ_MIN,	/* cpufreq min_khz / devfreq min_hz (and a lock's min half) */
	EK_FREQ_MAX,	/* ... max */
	EK_IRQ,		/* irq/<n>/affinity */
	EK_THREAD_AFF,	/* thread/<tid>/affinity */
	EK_THREAD_ATTR, /* policy, nice, uclamp: sched_getattr */
	EK_QOS,		/* pmqos: no idle state deeper than the value */
};

/* the idle states of one CPU at one time */
struct idle_cpu {
	int cpu, n;
	uint64_t usage[EFF_MAX_STATES], lat_us[EFF_MAX_STATES];
	char name[EFF_MAX_STATES][24];
};

struct eff_item {
	struct knob_ref ref;
	char value[KNOB_VALUE_MAX];
	enum eff_kind kind;
	/* samples: [0] at begin, [1] at end */
	struct idle_cpu *idle[2]; /* EK_IDLE: one CPU; EK_QOS: nidle CPUs */
	int nidle;
	uint64_t freq[2]; /* EK_FREQ_*: current frequency (kHz or Hz) */
	bool have_freq[2];
	char eff_aff[2][64];	/* EK_IRQ: effective_affinity_list ("" = none) */
	uint64_t *irq_count[2]; /* EK_IRQ: per-CPU counts */
	int irq_ncpus[2];
	int last_cpu[2];    /* EK_THREAD_AFF: stat field 39; -1 = n/a */
	uint64_t slices[2]; /* EK_THREAD_AFF: schedstat timeslices */
	/* verdict */
	enum knob_effect eff;
	char evidence[320];
};

struct knob_effect_watch {
	struct eff_item *v;
	size_t n;
	uint64_t t0_ns, t1_ns;
	bool live;
};

const char *knob_effect_name(enum knob_effect e)
{
	switch (e) {
	case KNOB_EFFECT_VERIFIED: return "verified";
	case KNOB_EFFECT_NOT_SEEN: return "not_seen";
	default: return "unknown";
	}
}

unsigned knob_effect_default_ms(void)
{
	const char *s = getenv("TUNETOP_VERIFY_MS");
	int v;

	if (s && *s && str_to_int(s, &v) == 0 && v >= 0 && v <= KNOB_VERIFY_MAX_MS)
		return (unsigned)v;
	return EFF_DEFAULT_MS;
}

/* ---- sampling ------------------------------------------------------------------ */

static void idle_read(const struct sysroot *r, int cpu, struct idle_cpu *ic)
{
	memset(ic, 0, sizeof(*ic));
	ic->cpu = cpu;
	for (int k = 0; k < EFF_MAX_STATES; k++) {
		uint64_t u;

		if (sysfs_read_u64f(r, &u, CPU_SYS "/cpu%d/cpuidle/state%d/usage", cpu, k) != 0)
			break;
		ic->usage[k] = u;
		if (sysfs_read_u64f(r, &ic->lat_us[k], CPU_SYS "/cpu%d/cpuidle/state%d/latency",
				    cpu, k) != 0)
			ic->lat_us[k] = 0;
		if (sysfs_read_strf(r, ic->name[k], sizeof(ic->name[k]),
				    CPU_SYS "/cpu%d/cpuidle/state%d/name", cpu, k) != 0)
			snprintf(ic->name[k], sizeof(ic->name[k]), "state%d", k);
		ic->n = k + 1;
	}
}

/* The number of the object of an address ("irq/35/affinity" → 35). */
static int addr_num(const char *addr)
{
	int v;
	char tmp[32];
	const char *s = strchr(addr, '/'), *e;

	if (!s)
		return -1;
	s++;
	e = strchr(s, '/');
	if (!e || (size_t)(e - s) >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, (size_t)(e - s));
	tmp[e - s] = '\0';
	return str_to_int(tmp, &v) == 0 ? v : -1;
}

static void freq_read(const struct sysroot *r, const struct eff_item *it, uint64_t *f, bool *have)
{
	const char *const *files = it->ref.def->fam->cur_freq;

	*have = false;
	for (size_t i = 0; i < 2 && files[i] && !*have; i++)
		*have = sysfs_read_u64f(r, f, "%s/%s", it->ref.dir, files[i]) == 0;
}

static void irq_read(const struct sysroot *r, int irq, char *eff, size_t cap, uint64_t **count,
		     int *ncpus)
{
	struct irq_table t;
	char label[16];

	eff[0] = '\0';
	if (sysfs_read_strf(r, eff, cap, "proc/irq/%d/effective_affinity_list", irq) != 0)
		eff[0] = '\0';
	str_trim(eff);
	*count = NULL;
	*ncpus = 0;
	snprintf(label, sizeof(label), "%d", irq);
	if (irqs_read_interrupts(r, 0, 0, &t) == 0) {
		const struct irq_row *row = irqs_find(&t, label);

		if (row && !row->single_total && t.ncpus > 0) {
			*count = xcalloc((size_t)t.ncpus, sizeof(uint64_t));
			for (int c = 0; c < t.ncpus; c++)
				if (cpumask_test(&row->have_cpu, c))
					(*count)[c] = irq_count(row, c);
			*ncpus = t.ncpus;
		}
		irqs_free(&t);
	}
}

static void thread_read(const struct sysroot *r, int tid, int *last_cpu, uint64_t *slices)
{
	char buf[1024], *p;
	int field = 2;

	*last_cpu = -1;
	*slices = 0;
	if (sysfs_read_strf(r, buf, sizeof(buf), "proc/%d/task/%d/stat", tid, tid) == 0 &&
	    (p = strrchr(buf, ')')) != NULL) {
		/* after "pid (comm)" the fields are space-separated: 3 is state */
		for (p++; *p && field < 39; p++)
			if (*p == ' ')
				field++;
		if (field == 39)
			*last_cpu = atoi(p);
	}
	if (sysfs_read_strf(r, buf, sizeof(buf), "proc/%d/task/%d/schedstat", tid, tid) == 0) {
		unsigned long long a, b, c;

		if (sscanf(buf, "%llu %llu %llu", &a, &b, &c) == 3)
			*slices = c;
	}
}

static void sample(struct knob_ctx *ctx, struct eff_item *it, int s)
{
	const struct sysroot *r = ctx->root;

	switch (it->kind) {
	case EK_IDLE: idle_read(r, it->ref.cpu, it->idle[s]); break;
	case EK_QOS:
		for (int i = 0; i < it->nidle; i++)
			idle_read(r, it->idle[0][i].cpu, &it->idle[s][i]);
		break;
	case EK_FREQ_MIN:
	case EK_FREQ_MAX: freq_read(r, it, &it->freq[s], &it->have_freq[s]); break;
	case EK_IRQ:
		irq_read(r, addr_num(it->ref.addr), it->eff_aff[s], sizeof(it->eff_aff[s]),
			 &it->irq_count[s], &it->irq_ncpus[s]);
		break;
	case EK_THREAD_AFF:
		thread_read(r, addr_num(it->ref.addr), &it->last_cpu[s], &it->slices[s]);
		break;
	default: break;
	}
}

/* The knob's observable is part of its definition (knob_def.observe). */
static enum eff_kind kind_of(const struct knob_ref *ref, const char *value)
{
	(void)value;
	switch (ref->def ? ref->def->observe : KO_NONE) {
	case KO_IDLE_STATE: return ref->cpu >= 0 && ref->index >= 0 ? EK_IDLE : EK_NONE;
	case KO_IDLE_GOV: return EK_IDLE_GOV;
	case KO_FREQ_BOUND:
		if (ref->def->flags & KD_MIN)
			return EK_FREQ_MIN;
		if (ref->def->flags & KD_MAX)
			return EK_FREQ_MAX;
		return EK_NONE;
	case KO_QOS: return EK_QOS;
	case KO_IRQ: return EK_IRQ;
	case KO_THREAD_AFF: return EK_THREAD_AFF;
	case KO_THREAD_ATTR: return EK_THREAD_ATTR;
	case KO_NONE: break;
	}
	return EK_NONE;
}

static struct eff_item *add_item(struct knob_effect_watch *w, size_t *cap,
				 const struct knob_ref *ref, const char *value)
{
	struct eff_item *it;

	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->v[i].ref.addr, ref->addr))
			return NULL;
	w->v = xgrow(w->v, cap, w->n + 1, sizeof(*w->v));
	it = &w->v[w->n++];
	memset(it, 0, sizeof(*it));
	it->ref = *ref;
	str_copy(it->value, sizeof(it->value), value);
	it->kind = kind_of(ref, value);
	return it;
}

static void alloc_samples(struct knob_ctx *ctx, struct eff_item *it)
{
	if (it->kind == EK_IDLE) {
		it->nidle = 1;
	} else if (it->kind == EK_QOS) {
		const struct cpumask *on = knob_online(ctx);

		if (it->ref.cpu >= 0) {
			it->nidle = 1;
		} else {
			it->nidle = on ? cpumask_count(on) : 0;
		}
		if (it->nidle <= 0) {
			it->kind = EK_NONE;
			return;
		}
		it->idle[0] = xcalloc((size_t)it->nidle, sizeof(struct idle_cpu));
		it->idle[1] = xcalloc((size_t)it->nidle, sizeof(struct idle_cpu));
		if (it->ref.cpu >= 0) {
			it->idle[0][0].cpu = it->ref.cpu;
		} else {
			int k = 0;

			for (int c = cpumask_next(on, 0); c >= 0 && k < it->nidle;
			     c = cpumask_next(on, c + 1))
				it->idle[0][k++].cpu = c;
		}
		return;
	} else {
		return;
	}
	it->idle[0] = xcalloc(1, sizeof(struct idle_cpu));
	it->idle[1] = xcalloc(1, sizeof(struct idle_cpu));
}

/* The active changes of this root whose effect a write of `it` can alter:
 * a cpuidle governor change re-watches the idle-state disables. */
static void add_dependents(struct knob_ctx *ctx, struct knob_effect_watch *w, size_t *cap)
{
	struct knob_jentry *e = NULL;
	size_t n = 0;
	bool gov = false;

	for (size_t i = 0; i < w->n; i++)
		gov |= w->v[i].kind == EK_IDLE_GOV;
	if (!gov || knob_journal_list(ctx, &e, &n, NULL, NULL) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		struct knob_ref *refs = NULL;
		size_t nr = 0;

		if (e[i].state != KNOB_J_ACTIVE || !e[i].this_root || !e[i].addr ||
		    knob_family_of(e[i].addr) != &fam_cpuidle || !str_ends(e[i].addr, "/disable"))
			continue;
		if (knob_expand(ctx, e[i].addr, 0, &refs, &nr, NULL) == 0 && nr == 1) {
			char cur[KNOB_VALUE_MAX];

			if (knob_read(ctx, &refs[0], cur, sizeof(cur)) == 0)
				add_item(w, cap, &refs[0], cur);
		}
		free(refs);
	}
	knob_journal_free(e, n);
}

static struct knob_effect_watch *watch_start(struct knob_ctx *ctx, struct knob_effect_watch *w)
{
	if (!w->n) {
		knob_effect_free(w);
		return NULL;
	}
	w->live = ctx->root->live;
	for (size_t i = 0; i < w->n; i++) {
		alloc_samples(ctx, &w->v[i]);
		sample(ctx, &w->v[i], 0);
	}
	w->t0_ns = time_mono_ns();
	return w;
}

struct knob_effect_watch *knob_effect_begin(struct knob_ctx *ctx)
{
	struct knob_effect_watch *w = xcalloc(1, sizeof(*w));
	size_t cap = 0;

	for (size_t i = 0; i < ctx->nlast; i++)
		add_item(w, &cap, &ctx->last[i].ref, ctx->last[i].value);
	add_dependents(ctx, w, &cap);
	return watch_start(ctx, w);
}

struct knob_effect_watch *knob_effect_begin_addr(struct knob_ctx *ctx, const char *addr,
						 const char *value)
{
	struct knob_effect_watch *w;
	struct knob_ref *refs = NULL;
	size_t nr = 0, cap = 0;

	if (knob_expand(ctx, addr, 0, &refs, &nr, NULL) != 0)
		return NULL;
	w = xcalloc(1, sizeof(*w));
	for (size_t i = 0; i < nr; i++) {
		if (refs[i].def && (refs[i].def->flags & KD_LOCK)) {
			/* the two halves, as knob_set_many writes them */
			for (int half = 0; half < 2; half++) {
				struct knob_ref h;

				knob_split_lock(&refs[i], half == 1, &h);
				if (h.def)
					add_item(w, &cap, &h, value);
			}
		} else {
			add_item(w, &cap, &refs[i], value);
		}
	}
	free(refs);
	return watch_start(ctx, w);
}

/* ---- judging ------------------------------------------------------------------- */

static void verdict(struct eff_item *it, enum knob_effect e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void verdict(struct eff_item *it, enum knob_effect e, const char *fmt, ...)
{
	va_list ap;

	it->eff = e;
	va_start(ap, fmt);
	vsnprintf(it->evidence, sizeof(it->evidence), fmt, ap);
	va_end(ap);
}

static uint64_t d64(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

static void judge_idle(struct eff_item *it, double dt_s, bool live)
{
	const struct idle_cpu *a = it->idle[0], *b = it->idle[1];
	int k = it->ref.index, cpu = it->ref.cpu;
	uint64_t mine, others = 0;
	int busiest = -1;
	uint64_t most = 0;
	bool disable = !strcmp(it->value, "1");

	if (k < 0 || k >= a->n || k >= b->n) {
		verdict(it, KNOB_EFFECT_UNKNOWN, "no usage counter for state%d on CPU %d", k, cpu);
		return;
	}
	mine = d64(a->usage[k], b->usage[k]);
	for (int s = 0; s < b->n && s < a->n; s++) {
		uint64_t d;

		if (s == k)
			continue;
		d = d64(a->usage[s], b->usage[s]);
		others += d;
		if (d > most) {
			most = d;
			busiest = s;
		}
	}
	/* The first sample follows the write, and a CPU that was sleeping in
	 * the state then counts that stay when it wakes: one exit is no
	 * evidence of an entry after the write (seen on x86-64 under QEMU,
	 * tests/qemu/x86.sh: C1 "entered 1 times" under menu, which obeys). */
	if (disable && mine > 1) {
		verdict(it, KNOB_EFFECT_NOT_SEEN,
			"%s (state%d) entered %llu times on CPU %d in %.1f s while disabled",
			a->name[k], k, (unsigned long long)mine, cpu, dt_s);
	} else if (disable && mine == 1 && others > 0) {
		verdict(it, KNOB_EFFECT_VERIFIED,
			"%s (state%d) not entered on CPU %d in %.1f s (1 exit: the stay under way "
			"at the write); %s entered %llu times",
			a->name[k], k, cpu, dt_s, a->name[busiest], (unsigned long long)most);
	} else if (disable && others > 0) {
		verdict(it, KNOB_EFFECT_VERIFIED,
			"%s (state%d) not entered on CPU %d in %.1f s; %s entered %llu times",
			a->name[k], k, cpu, dt_s, a->name[busiest], (unsigned long long)most);
	} else if (!disable && mine > 0) {
		verdict(it, KNOB_EFFECT_VERIFIED,
			"%s (state%d) entered %llu times on CPU %d in %.1f s", a->name[k], k,
			(unsigned long long)mine, cpu, dt_s);
	} else if (!disable) {
		verdict(it, KNOB_EFFECT_UNKNOWN,
			"%s (state%d) not entered on CPU %d in %.1f s (the governor picks it only "
			"for "
			"long enough idle periods)",
			a->name[k], k, cpu, dt_s);
	} else if (mine == 1) {
		verdict(it, KNOB_EFFECT_UNKNOWN,
			"CPU %d left %s (state%d) once in %.1f s (the stay under way at the write) "
			"and entered no other state",
			cpu, a->name[k], k, dt_s);
	} else {
		verdict(it, KNOB_EFFECT_UNKNOWN, "%sCPU %d entered no idle state in %.1f s",
			live ? "" : "a static tree: ", cpu, dt_s);
	}
}

static void judge_qos(struct eff_item *it, double dt_s)
{
	uint64_t lim, deep = 0, shallow = 0;
	char deepest[64] = "";
	int lim_ok = str_to_u64(it->value, &lim) == 0;

	if (!lim_ok) { /* "n/a": no constraint */
		verdict(it, KNOB_EFFECT_UNKNOWN, "no latency constraint to check");
		return;
	}
	for (int i = 0; i < it->nidle; i++) {
		const struct idle_cpu *a = &it->idle[0][i], *b = &it->idle[1][i];

		for (int s = 0; s < a->n && s < b->n; s++) {
			uint64_t d = d64(a->usage[s], b->usage[s]);

			if (a->lat_us[s] > lim) {
				if (d && !deepest[0])
					snprintf(deepest, sizeof(deepest), "%s on CPU %d",
						 a->name[s], a->cpu);
				deep += d;
			} else {
				shallow += d;
			}
		}
	}
	if (deep)
		verdict(it, KNOB_EFFECT_NOT_SEEN,
			"idle states with an exit latency above %llu us entered %llu times in %.1f "
			"s "
			"(%s)",
			(unsigned long long)lim, (unsigned long long)deep, dt_s, deepest);
	else if (shallow)
		verdict(it, KNOB_EFFECT_VERIFIED,
			"no idle state above %llu us entered in %.1f s; shallower ones %llu times",
			(unsigned long long)lim, dt_s, (unsigned long long)shallow);
	else
		verdict(it, KNOB_EFFECT_UNKNOWN, "no idle state entered in %.1f s", dt_s);
}

static void judge_freq(struct eff_item *it, double dt_s, bool live)
{
	uint64_t want, cur = it->freq[1];
	bool min = it->kind == EK_FREQ_MIN, in;
	const char *unit = it->ref.def->unit;
	const char *file = it->ref.def->fam->cur_freq[0] ? it->ref.def->fam->cur_freq[0] : "n/a";

	if (!it->have_freq[1] || str_to_u64(it->value, &want) != 0) {
		verdict(it, KNOB_EFFECT_UNKNOWN, "no current frequency to compare (%s)", file);
		return;
	}
	in = min ? cur >= want : cur <= want;
	if (!live && it->have_freq[0] && it->freq[0] == cur) {
		verdict(it, KNOB_EFFECT_UNKNOWN, "a static tree: %s stayed %llu %s in %.1f s", file,
			(unsigned long long)cur, unit, dt_s);
		return;
	}
	if (in)
		verdict(it, KNOB_EFFECT_VERIFIED, "%s %llu %s, %s the %s %llu %s after %.1f s",
			file, (unsigned long long)cur, unit, min ? "at or above" : "at or below",
			min ? "floor" : "cap", (unsigned long long)want, unit, dt_s);
	else
		verdict(it, KNOB_EFFECT_NOT_SEEN,
			"%s %llu %s, %s the %s %llu %s after %.1f s (another limit wins: a thermal "
			"cap, a PM QoS request or firmware)",
			file, (unsigned long long)cur, unit, min ? "below" : "above",
			min ? "floor" : "cap", (unsigned long long)want, unit, dt_s);
}

static void judge_irq(struct eff_item *it, double dt_s, bool live)
{
	struct cpumask want, eff, outside;
	uint64_t fired = 0, fired_out = 0;
	char outl[64] = "";

	if (cpulist_parse(it->value, &want) != 0) {
		verdict(it, KNOB_EFFECT_UNKNOWN, "cannot read the value '%s' as a CPU list",
			it->value);
		return;
	}
	cpumask_zero(&outside);
	if (it->irq_count[0] && it->irq_count[1] && it->irq_ncpus[0] == it->irq_ncpus[1])
		for (int c = 0; c < it->irq_ncpus[1]; c++) {
			uint64_t d = d64(it->irq_count[0][c], it->irq_count[1][c]);

			fired += d;
			if (d && !cpumask_test(&want, c)) {
				fired_out += d;
				cpumask_set(&outside, c);
			}
		}
	cpulist_format(&outside, outl, sizeof(outl));
	if (fired_out) {
		verdict(it, KNOB_EFFECT_NOT_SEEN,
			"IRQ fired %llu times on CPU %s, outside %s, in %.1f s",
			(unsigned long long)fired_out, outl, it->value, dt_s);
		return;
	}
	if (it->eff_aff[1][0] && cpulist_parse(it->eff_aff[1], &eff) == 0 && !cpumask_empty(&eff)) {
		struct cpumask out = eff;
		bool moved = strcmp(it->eff_aff[0], it->eff_aff[1]) != 0;

		cpumask_andnot(&out, &want);
		if (cpumask_empty(&out) && (live || moved || fired))
			verdict(it, KNOB_EFFECT_VERIFIED, "effective affinity %s%s", it->eff_aff[1],
				fired ? ", and it fired only there" : "");
		else if (cpumask_empty(&out))
			verdict(it, KNOB_EFFECT_UNKNOWN,
				"a static tree: effective affinity stayed %s in %.1f s",
				it->eff_aff[1], dt_s);
		else if (fired)
			verdict(it, KNOB_EFFECT_NOT_SEEN,
				"effective affinity still %s after %.1f s", it->eff_aff[1], dt_s);
		else
			verdict(it, KNOB_EFFECT_UNKNOWN,
				"effective affinity still %s: the IRQ did not fire in %.1f s (x86 "
				"moves "
				"an IRQ at its next interrupt)",
				it->eff_aff[1], dt_s);
		return;
	}
	if (fired)
		verdict(it, KNOB_EFFECT_VERIFIED, "IRQ fired %llu times in %.1f s, only on CPU %s",
			(unsigned long long)fired, dt_s, it->value);
	else
		verdict(it, KNOB_EFFECT_UNKNOWN,
			"no effective_affinity file and the IRQ did not fire in %.1f s", dt_s);
}

static void judge_thread_aff(struct eff_item *it, double dt_s)
{
	struct cpumask want;
	uint64_t ran = d64(it->slices[0], it->slices[1]);
	int cpu = it->last_cpu[1];

	if (cpulist_parse(it->value, &want) != 0 || cpu < 0) {
		verdict(it, KNOB_EFFECT_UNKNOWN, "the thread is gone or its stat is unreadable");
		return;
	}
	if (!ran && it->slices[1]) {
		verdict(it, KNOB_EFFECT_UNKNOWN,
			"the thread did not run in %.1f s (last on CPU %d)", dt_s, cpu);
		return;
	}
	if (cpumask_test(&want, cpu))
		verdict(it, KNOB_EFFECT_VERIFIED, "ran %llu times in %.1f s, last on CPU %d",
			(unsigned long long)ran, dt_s, cpu);
	else
		verdict(it, KNOB_EFFECT_NOT_SEEN,
			"ran %llu times in %.1f s, last on CPU %d, outside %s",
			(unsigned long long)ran, dt_s, cpu, it->value);
}

static void judge(struct knob_ctx *ctx, struct knob_effect_watch *w, struct eff_item *it)
{
	double dt_s = (double)(w->t1_ns - w->t0_ns) / 1e9;

	switch (it->kind) {
	case EK_IDLE: judge_idle(it, dt_s, w->live); break;
	case EK_QOS: judge_qos(it, dt_s); break;
	case EK_FREQ_MIN:
	case EK_FREQ_MAX: judge_freq(it, dt_s, w->live); break;
	case EK_IRQ: judge_irq(it, dt_s, w->live); break;
	case EK_THREAD_AFF: judge_thread_aff(it, dt_s); break;
	case EK_THREAD_ATTR: {
		char back[KNOB_VALUE_MAX];

		if (knob_ref_ops(&it->ref)->read(ctx, &it->ref, back, sizeof(back), NULL, 0,
						 NULL) != 0)
			verdict(it, KNOB_EFFECT_UNKNOWN, "the thread is gone");
		else if (!strcmp(back, it->value))
			verdict(it, KNOB_EFFECT_VERIFIED, "sched_getattr reports %s", back);
		else
			verdict(it, KNOB_EFFECT_NOT_SEEN, "sched_getattr reports %s, not %s", back,
				it->value);
		break;
	}
	case EK_IDLE_GOV:
		verdict(it, KNOB_EFFECT_UNKNOWN,
			"no counter shows a governor: its effect shows in the idle states it "
			"picks");
		break;
	default: verdict(it, KNOB_EFFECT_UNKNOWN, "no counter observes this knob"); break;
	}
}

/* Why a knob is not in effect, when it is a known case. */
static void known_reason(struct knob_ctx *ctx, const struct eff_item *it, char *buf, size_t cap)
{
	char gov[32] = "";

	buf[0] = '\0';
	if (it->kind == EK_IDLE &&
	    sysfs_read_str(ctx->root, CPU_SYS "/cpuidle/current_governor", gov, sizeof(gov)) == 0) {
		str_trim(gov);
		if (!strcmp(gov, "haltpoll"))
			snprintf(buf, cap,
				 "the haltpoll cpuidle governor ignores per-state disable: set "
				 "cpuidle/governor=menu (or teo), or hold a PM QoS request "
				 "(tunetop explain cpuidle.governor)");
		/* ladder never goes below its first state, the first one that
		 * does not poll (first_idx in drivers/cpuidle/governors/ladder.c),
		 * disabled or not; it honours disable for deeper ones */
		else if (!strcmp(gov, "ladder") && it->idle[1] &&
			 it->ref.index == (strcmp(it->idle[1]->name[0], "POLL") ? 0 : 1))
			snprintf(buf, cap,
				 "the ladder cpuidle governor never picks a state shallower than "
				 "%s, the first that does not poll, disabled or not: set "
				 "cpuidle/governor=menu",
				 it->idle[1]->name[it->ref.index]);
	}
}

/* The E records of the verdicts, one per knob that has an active change on
 * this root: one journal read and one lock for the whole watch. */
static void record_all(struct knob_ctx *ctx, const struct knob_effect_watch *w)
{
	struct knob_jentry *e = NULL;
	size_t n = 0;
	uint64_t *ref;
	bool any = false;

	if (!ctx->state_dir || ctx->readonly || knob_journal_list(ctx, &e, &n, NULL, NULL) != 0)
		return;
	ref = xcalloc(w->n ? w->n : 1, sizeof(*ref));
	for (size_t k = 0; k < w->n; k++)
		for (size_t i = n; i-- > 0;)
			if (e[i].state == KNOB_J_ACTIVE && e[i].this_root && e[i].addr &&
			    !strcmp(e[i].addr, w->v[k].ref.addr)) {
				ref[k] = e[i].id;
				any = true;
				break;
			}
	knob_journal_free(e, n);
	if (any && knob_op_lock(ctx, NULL, NULL) == 0) {
		for (size_t k = 0; k < w->n; k++) {
			struct jrec r = {.type = 'E', .ref = ref[k]};
			char state[16], ev[sizeof(w->v[k].evidence)];

			if (!ref[k])
				continue;
			str_copy(state, sizeof(state), knob_effect_name(w->v[k].eff));
			str_copy(ev, sizeof(ev), w->v[k].evidence);
			r.value = state;
			r.evidence = ev;
			journal_append(&ctx->j, &r, false);
		}
		journal_sync(&ctx->j);
		knob_op_unlock(ctx);
	}
	free(ref);
}

int knob_effect_end(struct knob_ctx *ctx, struct knob_effect_watch *w, unsigned flags,
		    struct sbuf *report)
{
	int bad = 0;

	if (!w)
		return 0;
	w->t1_ns = time_mono_ns();
	for (size_t i = 0; i < w->n; i++) {
		struct eff_item *it = &w->v[i];
		char why[320];

		sample(ctx, it, 1);
		judge(ctx, w, it);
		if (it->eff == KNOB_EFFECT_NOT_SEEN) {
			bad++;
			known_reason(ctx, it, why, sizeof(why));
			if (report)
				sbuf_printf(report, "warning: %s=%s is not in effect: %s%s%s\n",
					    it->ref.addr, it->value, it->evidence,
					    why[0] ? "; " : "", why);
		} else if (report && !(flags & KNOB_QUIET) && it->eff == KNOB_EFFECT_VERIFIED) {
			sbuf_printf(report, "effect: %s: %s: %s\n", it->ref.addr,
				    knob_effect_name(it->eff), it->evidence);
		}
	}
	if (!(flags & KNOB_EFFECT_NO_RECORD))
		record_all(ctx, w);
	return bad;
}

enum knob_effect knob_effect_worst(const struct knob_effect_watch *w, const char **addr,
				   const char **evidence)
{
	enum knob_effect worst = KNOB_EFFECT_UNKNOWN;
	const struct eff_item *pick = NULL;

	for (size_t i = 0; w && i < w->n; i++) {
		const struct eff_item *it = &w->v[i];

		if (it->eff == KNOB_EFFECT_NOT_SEEN) {
			worst = it->eff;
			pick = it;
			break;
		}
		if (it->eff == KNOB_EFFECT_VERIFIED && !pick) {
			worst = it->eff;
			pick = it;
		}
	}
	if (!pick && w && w->n)
		pick = &w->v[0];
	if (addr)
		*addr = pick ? pick->ref.addr : "";
	if (evidence)
		*evidence = pick ? pick->evidence : "";
	return worst;
}

void knob_effect_free(struct knob_effect_watch *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++) {
		free(w->v[i].idle[0]);
		free(w->v[i].idle[1]);
		free(w->v[i].irq_count[0]);
		free(w->v[i].irq_count[1]);
	}
	free(w->v);
	free(w);
}

int knob_effect_verify(struct knob_ctx *ctx, unsigned ms, unsigned flags, struct sbuf *report)
{
	struct knob_effect_watch *w;
	int bad;

	if (!ms)
		ms = knob_effect_default_ms();
	if (!ms)
		return 0;
	w = knob_effect_begin(ctx);
	if (!w)
		return 0;
	time_sleep_ns((uint64_t)ms * 1000000ull);
	bad = knob_effect_end(ctx, w, flags, report);
	knob_effect_free(w);
	return bad;
}
