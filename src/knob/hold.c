/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Hold mode and hotplug for a run's changes (hold.h): the held knobs are the
 * ones the engine keeps of the last knob_set_many (ctx->last, the list the
 * effect watcher starts from), read again with knob_read(); a CPU coming
 * online gets the per-CPU knobs the run's assignments expand to on it, as a
 * normal journaled change of this run (KNOB_SCOPED: restored when it
 * ends). The online CPUs are read from cpuN/online (the list file of a
 * fixture may lag), and the engine's cached mask is replaced with them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cpumask.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/hold.h"
#include "knob/knob_int.h"
#include "sysfs/sysroot.h"

#define CPU_SYS "sys/devices/system/cpu"

struct held {
	struct knob_ref ref;
	char value[KNOB_VALUE_MAX]; /* what tunetop wrote (normalized) */
	char seen[KNOB_VALUE_MAX];  /* last value reported as outside ("" = none) */
};

struct knob_hold {
	enum knob_hold_mode mode;
	struct held *v;
	size_t n, cap;
	char **assign;
	size_t nassign;
	struct cpumask online;
	bool have_online;
	unsigned outside, reasserted;
};

int knob_hold_mode_parse(const char *s, enum knob_hold_mode *m)
{
	if (!strcmp(s, "off"))
		*m = KNOB_HOLD_OFF;
	else if (!strcmp(s, "report"))
		*m = KNOB_HOLD_REPORT;
	else if (!strcmp(s, "reassert"))
		*m = KNOB_HOLD_REASSERT;
	else
		return -EINVAL;
	return 0;
}

/* The CPUs online now: present CPUs whose cpuN/online is not 0 (cpu0 often
 * has no such file). Falls back to the engine's view. */
static void online_now(struct knob_ctx *ctx, struct cpumask *m)
{
	char buf[4096];
	struct cpumask present;

	if (sysfs_read_str(ctx->root, CPU_SYS "/present", buf, sizeof(buf)) != 0 ||
	    cpulist_parse(buf, &present) != 0) {
		*m = *knob_online(ctx);
		return;
	}
	cpumask_zero(m);
	for (int c = cpumask_next(&present, 0); c >= 0; c = cpumask_next(&present, c + 1)) {
		uint64_t on = 1;

		if (sysfs_read_u64f(ctx->root, &on, CPU_SYS "/cpu%d/online", c) != 0)
			on = 1;
		if (on)
			cpumask_set(m, c);
	}
}

static struct held *held_find(struct knob_hold *h, const char *addr)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->v[i].ref.addr, addr))
			return &h->v[i];
	return NULL;
}

static struct held *held_add(struct knob_hold *h, const struct knob_ref *ref, const char *value)
{
	struct held *x = held_find(h, ref->addr);

	if (!x) {
		h->v = xgrow(h->v, &h->cap, h->n + 1, sizeof(*h->v));
		x = &h->v[h->n++];
		memset(x, 0, sizeof(*x));
		x->ref = *ref;
	}
	str_copy(x->value, sizeof(x->value), value);
	x->seen[0] = '\0';
	return x;
}

struct knob_hold *knob_hold_begin(struct knob_ctx *ctx, const char *const *assign, size_t n,
				  enum knob_hold_mode mode)
{
	struct knob_hold *h = xcalloc(1, sizeof(*h));

	h->mode = mode;
	for (size_t i = 0; i < ctx->nlast; i++)
		if (!(ctx->last[i].ref.def && (ctx->last[i].ref.def->flags & KD_LEASE)))
			held_add(h, &ctx->last[i].ref, ctx->last[i].value);
	h->assign = xcalloc(n ? n : 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		h->assign[h->nassign++] = xstrdup(assign[i]);
	online_now(ctx, &h->online);
	h->have_online = true;
	return h;
}

static void stamp(char *buf, size_t cap)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, cap, "%H:%M:%S", &tm))
		str_copy(buf, cap, "??:??:??");
}

/* The refs of one assignment on CPU cpu, with its value. */
static size_t refs_on_cpu(struct knob_ctx *ctx, const char *assign, int cpu, struct knob_ref **out,
			  char *value, size_t cap)
{
	const char *eq = strchr(assign, '=');
	char addr[KNOB_ADDR_MAX];
	struct knob_ref *refs = NULL;
	size_t nr = 0, k = 0;

	*out = NULL;
	if (!eq || (size_t)(eq - assign) >= sizeof(addr))
		return 0;
	memcpy(addr, assign, (size_t)(eq - assign));
	addr[eq - assign] = '\0';
	str_copy(value, cap, eq + 1);
	if (knob_expand(ctx, str_trim(addr), KNOB_EXPAND_EMPTY_OK, &refs, &nr, NULL) != 0) {
		free(refs);
		return 0;
	}
	for (size_t i = 0; i < nr; i++)
		if (refs[i].cpu == cpu)
			refs[k++] = refs[i];
	if (!k) {
		free(refs);
		refs = NULL;
	}
	*out = refs;
	return k;
}

/* cpu came online: its knobs from the assignments, where they differ. */
static void cpu_online(struct knob_ctx *ctx, struct knob_hold *h, int cpu, struct sbuf *report)
{
	struct sbuf applied, same;
	char **set = NULL;
	const char **labels = NULL;
	size_t nset = 0, cap = 0, lcap = 0;

	sbuf_init(&applied);
	sbuf_init(&same);
	for (size_t a = 0; a < h->nassign; a++) {
		struct knob_ref *refs;
		char value[KNOB_VALUE_MAX];
		size_t nr = refs_on_cpu(ctx, h->assign[a], cpu, &refs, value, sizeof(value));

		for (size_t i = 0; i < nr; i++) {
			char norm[KNOB_VALUE_MAX], cur[KNOB_VALUE_MAX];

			if (knob_validate(ctx, &refs[i], str_trim(value), norm, sizeof(norm),
					  NULL) != 0)
				continue;
			if (knob_read(ctx, &refs[i], cur, sizeof(cur)) == 0 && !strcmp(cur, norm)) {
				held_add(h, &refs[i], norm);
				sbuf_printf(&same, "%s%s=%s", same.len ? ", " : "", refs[i].addr,
					    norm);
				continue;
			}
			set = xgrow(set, &cap, nset + 1, sizeof(*set));
			labels = xgrow(labels, &lcap, nset + 1, sizeof(*labels));
			set[nset] = xasprintf("%s=%s", refs[i].addr, norm);
			labels[nset++] = "hotplug";
		}
		free(refs);
	}
	if (nset) {
		struct sbuf rep;
		char *cause = NULL;
		int e;

		sbuf_init(&rep);
		e = knob_set_many(ctx, (const char *const *)set, labels, nset,
				  KNOB_SCOPED | KNOB_QUIET, &rep, &cause);
		for (size_t i = 0; i < nset; i++) {
			if (!e) {
				struct knob_ref *r = NULL;
				size_t nr = 0;
				char *eq = strchr(set[i], '=');

				*eq = '\0';
				if (knob_expand(ctx, set[i], 0, &r, &nr, NULL) == 0 && nr == 1)
					held_add(h, &r[0], eq + 1);
				free(r);
				*eq = '=';
				sbuf_printf(&applied, "%s%s", applied.len ? ", " : "", set[i]);
			}
		}
		if (e)
			sbuf_printf(report, "cpu%d came online: could not apply its knobs: %s\n",
				    cpu, cause ? cause : "error");
		free(cause);
		sbuf_free(&rep);
	}
	if (applied.len)
		sbuf_printf(report, "cpu%d came online: applied %s\n", cpu, applied.s);
	if (same.len)
		sbuf_printf(report, "cpu%d came online: already %s\n", cpu, same.s);
	if (!applied.len && !same.len && !nset)
		sbuf_printf(report, "cpu%d came online%s\n", cpu,
			    h->nassign ? ": none of this run's knobs applies to it" : "");
	for (size_t i = 0; i < nset; i++)
		free(set[i]);
	free(set);
	free(labels);
	sbuf_free(&applied);
	sbuf_free(&same);
}

static void hotplug(struct knob_ctx *ctx, struct knob_hold *h, struct sbuf *report)
{
	struct cpumask now, up, down;

	online_now(ctx, &now);
	up = now;
	cpumask_andnot(&up, &h->online);
	down = h->online;
	cpumask_andnot(&down, &now);
	if (cpumask_empty(&up) && cpumask_empty(&down))
		return;
	/* the expanders see the CPUs as they are now */
	ctx->online = now;
	ctx->have_online = true;
	h->online = now;
	for (int c = cpumask_next(&down, 0); c >= 0; c = cpumask_next(&down, c + 1)) {
		size_t k = 0;

		for (size_t i = 0; i < h->n; i++)
			k += h->v[i].ref.cpu == c;
		if (k)
			sbuf_printf(report,
				    "cpu%d went offline: its %zu held knob%s will be applied again "
				    "when it comes back\n",
				    c, k, k == 1 ? "" : "s");
		else
			sbuf_printf(report, "cpu%d went offline\n", c);
	}
	for (int c = cpumask_next(&up, 0); c >= 0; c = cpumask_next(&up, c + 1))
		cpu_online(ctx, h, c, report);
}

static void reassert(struct knob_ctx *ctx, struct knob_hold *h, struct held *x, const char *when,
		     const char *found, struct sbuf *report)
{
	char *a = xasprintf("%s=%s", x->ref.addr, x->value), *cause = NULL;
	const char *labels[1] = {"hold"};
	struct sbuf rep;
	int e;

	sbuf_init(&rep);
	e = knob_set_many(ctx, (const char *const *)&a, labels, 1, KNOB_SCOPED | KNOB_QUIET, &rep,
			  &cause);
	if (e) {
		sbuf_printf(report, "%s %s: could not write back %s: %s\n", when, x->ref.addr,
			    x->value, cause ? cause : "error");
	} else {
		h->reasserted++;
		x->seen[0] = '\0';
		sbuf_printf(report, "%s %s: %s -> %s (reasserted)\n", when, x->ref.addr, found,
			    x->value);
	}
	free(cause);
	free(a);
	sbuf_free(&rep);
}

void knob_hold_check(struct knob_ctx *ctx, struct knob_hold *h, struct sbuf *report)
{
	char when[16];

	if (h->mode == KNOB_HOLD_OFF)
		return;
	hotplug(ctx, h, report);
	stamp(when, sizeof(when));
	for (size_t i = 0; i < h->n; i++) {
		struct held *x = &h->v[i];
		char cur[KNOB_VALUE_MAX];

		if (x->ref.cpu >= 0 && !cpumask_test(&h->online, x->ref.cpu))
			continue;
		if (knob_read(ctx, &x->ref, cur, sizeof(cur)) != 0)
			continue; /* gone (thread exited, CPU going away): not a revert */
		if (!strcmp(cur, x->value)) {
			x->seen[0] = '\0';
			continue;
		}
		if (!strcmp(cur, x->seen))
			continue; /* reported already */
		h->outside++;
		str_copy(x->seen, sizeof(x->seen), cur);
		sbuf_printf(report, "%s %s: expected %s, found %s (changed outside tunetop)\n",
			    when, x->ref.addr, x->value, cur[0] ? cur : "empty");
		if (h->mode == KNOB_HOLD_REASSERT)
			reassert(ctx, h, x, when, cur, report);
	}
}

void knob_hold_sync_run(struct knob_ctx *ctx, struct knob_hold *h)
{
	struct knob_jentry *e = NULL;
	struct held *v = NULL;
	size_t n = 0, nv = 0, cap = 0;
	const char *run = knob_ctx_run_id(ctx);

	if (knob_journal_list(ctx, &e, &n, NULL, NULL) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *want = e[i].readback ? e[i].readback : e[i].new_value;
		struct knob_ref *refs = NULL;
		struct held *x = NULL, *old;
		size_t nr = 0;

		if (e[i].state != KNOB_J_ACTIVE || !e[i].this_root || !e[i].run || !e[i].addr ||
		    !want || strcmp(e[i].run, run))
			continue;
		for (size_t k = 0; k < nv; k++)
			if (!strcmp(v[k].ref.addr, e[i].addr))
				x = &v[k]; /* a newer change of the same knob */
		if (!x) {
			if (knob_expand(ctx, e[i].addr, 0, &refs, &nr, NULL) != 0 || nr != 1 ||
			    (refs[0].def && (refs[0].def->flags & KD_LEASE))) {
				free(refs);
				continue;
			}
			v = xgrow(v, &cap, nv + 1, sizeof(*v));
			x = &v[nv++];
			memset(x, 0, sizeof(*x));
			x->ref = refs[0];
			free(refs);
		}
		str_copy(x->value, sizeof(x->value), want);
		x->seen[0] = '\0';
		old = held_find(h, x->ref.addr);
		if (old && !strcmp(old->value, x->value))
			str_copy(x->seen, sizeof(x->seen), old->seen);
	}
	knob_journal_free(e, n);
	free(h->v);
	h->v = v;
	h->n = nv;
	h->cap = cap;
}

unsigned knob_hold_outside(const struct knob_hold *h)
{
	return h ? h->outside : 0;
}

unsigned knob_hold_reasserted(const struct knob_hold *h)
{
	return h ? h->reasserted : 0;
}

void knob_hold_summary(const struct knob_hold *h, struct sbuf *report)
{
	if (!h || h->mode == KNOB_HOLD_OFF || (!h->n && !h->outside))
		return;
	sbuf_printf(report, "hold: %zu knob%s held, %u change%s outside tunetop seen", h->n,
		    h->n == 1 ? "" : "s", h->outside, h->outside == 1 ? "" : "s");
	if (h->mode == KNOB_HOLD_REASSERT)
		sbuf_printf(report, ", %u reasserted", h->reasserted);
	sbuf_printf(report, "\n");
}

void knob_hold_free(struct knob_hold *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nassign; i++)
		free(h->assign[i]);
	free(h->assign);
	free(h->v);
	free(h);
}

/* Is the CPU selector of a per-CPU family (KF_CPU_FIRST) a wildcard
 * ("cpuidle/ * /..")? */
static bool wild_cpu_assign(const char *a)
{
	const struct knob_family *f = knob_family_of(a);
	const char *sel = a + strcspn(a, "/");

	if (!f || !(f->flags & KF_CPU_FIRST) || !*sel)
		return false;
	sel++;
	return !strncmp(sel, "*/", 2) || !strncmp(sel, "all/", 4) || !strncmp(sel, "cpu*/", 5);
}

void knob_hold_offline_notes(struct knob_ctx *ctx, const char *const *assign, size_t n,
			     const char *when_online, struct sbuf *report)
{
	char buf[4096];
	struct cpumask present, on;

	if (sysfs_read_str(ctx->root, CPU_SYS "/present", buf, sizeof(buf)) != 0 ||
	    cpulist_parse(buf, &present) != 0)
		return;
	on = *knob_online(ctx);
	cpumask_andnot(&present, &on);
	for (int c = cpumask_next(&present, 0); c >= 0; c = cpumask_next(&present, c + 1)) {
		struct sbuf l;

		sbuf_init(&l);
		for (size_t i = 0; i < n; i++)
			if (wild_cpu_assign(assign[i]))
				sbuf_printf(&l, "%s%s", l.len ? ", " : "", assign[i]);
		if (l.len)
			sbuf_printf(report, "note: cpu%d is offline: skipped %s there%s%s\n", c,
				    l.s, when_online ? "; " : "", when_online ? when_online : "");
		sbuf_free(&l);
	}
}
