/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event stream of "why late" (see probe/why.h): the growable array, its
 * stable sort by time, and the text form `probe --why --events FILE` saves
 * and tests/fixtures/why/ holds. One table says, per kind, which keys a line
 * carries and where each lands in struct why_event: the writer and the strict
 * parser both walk it, so they cannot disagree. */
#include "probe/why.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"
#include "core/str.h"
#include "core/xalloc.h"

_Static_assert(sizeof(pid_t) == sizeof(int), "pid_t is parsed as an int");

enum fty { F_STR, F_INT, F_U32, F_LONG, F_U64 };

struct field {
	const char *key;
	enum fty ty;
	size_t off, size; /* in struct why_event */
	int64_t lo, hi;	  /* F_INT, F_U32 */
};

#define EV_OFF(m) offsetof(struct why_event, m), sizeof(((struct why_event *)0)->m)
#define STR(k, m)                                                                                  \
	{                                                                                          \
		k, F_STR, EV_OFF(m), 0, 0                                                          \
	}
#define INT(k, m, lo, hi)                                                                          \
	{                                                                                          \
		k, F_INT, EV_OFF(m), lo, hi                                                        \
	}
#define PRIO(k, m) INT(k, m, -1, 139)
#define PID(k, m)  INT(k, m, 0, INT_MAX)
#define CPU(k, m)  INT(k, m, 0, TT_MAX_CPUS - 1)

#define WHY_MAX_FIELDS 8

struct kind_def {
	const char *name;
	struct field f[WHY_MAX_FIELDS];
};

static const struct kind_def kinds[WEV__COUNT] = {
	[WEV_SWITCH] = {"switch",
			{STR("prev_comm", u.sw.prev_comm),
			 PID("prev_pid", u.sw.prev_pid),
			 PRIO("prev_prio", u.sw.prev_prio),
			 {"prev_state", F_LONG, EV_OFF(u.sw.prev_state), 0, 0},
			 STR("next_comm", u.sw.next_comm),
			 PID("next_pid", u.sw.next_pid),
			 PRIO("next_prio", u.sw.next_prio)}},
	[WEV_WAKING] = {"waking",
			{STR("comm", u.wk.comm), PID("pid", u.wk.pid), PRIO("prio", u.wk.prio),
			 CPU("target_cpu", u.wk.target_cpu)}},
	[WEV_WAKEUP] = {"wakeup",
			{STR("comm", u.wk.comm), PID("pid", u.wk.pid), PRIO("prio", u.wk.prio),
			 CPU("target_cpu", u.wk.target_cpu)}},
	[WEV_MIGRATE] = {"migrate",
			 {STR("comm", u.wk.comm), PID("pid", u.wk.pid), PRIO("prio", u.wk.prio),
			  CPU("orig_cpu", u.wk.orig_cpu), CPU("dest_cpu", u.wk.target_cpu)}},
	[WEV_IRQ] = {"irq", {INT("irq", u.irq.irq, 0, INT_MAX), STR("name", u.irq.name)}},
	[WEV_IRQ_EXIT] = {"irq_exit",
			  {INT("irq", u.irq.irq, 0, INT_MAX), INT("ret", u.irq.ret, 0, INT_MAX)}},
	[WEV_SOFTIRQ] = {"softirq", {{"vec", F_U32, EV_OFF(u.sirq.vec), 0, 31}}},
	[WEV_SOFTIRQ_EXIT] = {"softirq_exit", {{"vec", F_U32, EV_OFF(u.sirq.vec), 0, 31}}},
	[WEV_SOFTIRQ_RAISE] = {"softirq_raise", {{"vec", F_U32, EV_OFF(u.sirq.vec), 0, 31}}},
	[WEV_IDLE] = {"idle", {{"state", F_U32, EV_OFF(u.idle.state), 0, UINT32_MAX}}},
	[WEV_IDLE_MISS] = {"idle_miss",
			   {{"state", F_U32, EV_OFF(u.idle.state), 0, UINT32_MAX},
			    INT("below", u.idle.below, 0, 1)}},
	[WEV_TIMER] = {"timer", {STR("fn", u.timer.fn)}},
	[WEV_LATE] = {"late",
		      {INT("tid", u.late.tid, 1, INT_MAX),
		       {"deadline_ns", F_U64, EV_OFF(u.late.deadline_ns), 0, 0},
		       {"wake_ns", F_U64, EV_OFF(u.late.wake_ns), 0, 0}}},
	[WEV_LOST] = {"lost", {{"n", F_U64, EV_OFF(u.lost.n), 0, 0}}},
};

const char *why_ev_kind_name(enum why_ev_kind k)
{
	return (unsigned)k < WEV__COUNT ? kinds[k].name : "?";
}

void why_events_add(struct why_events *s, const struct why_event *e)
{
	s->ev = xgrow(s->ev, &s->cap, s->n + 1, sizeof(*s->ev));
	s->ev[s->n++] = *e;
}

void why_events_free(struct why_events *s)
{
	free(s->ev);
	memset(s, 0, sizeof(*s));
}

/* Bottom-up merge sort: stable, O(n log n), one scratch array. */
void why_events_sort(struct why_events *s)
{
	size_t n = s->n, i;
	struct why_event *a = s->ev, *b, *t;

	for (i = 1; i < n && a[i - 1].ts_ns <= a[i].ts_ns; i++)
		;
	if (i >= n)
		return;
	b = xmalloc(n * sizeof(*b));
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t p = lo, q = mid, o = lo;

			while (p < mid && q < hi)
				b[o++] = a[q].ts_ns < a[p].ts_ns ? a[q++] : a[p++];
			while (p < mid)
				b[o++] = a[p++];
			while (q < hi)
				b[o++] = a[q++];
		}
		t = a, a = b, b = t;
	}
	if (a != s->ev) {
		memcpy(s->ev, a, n * sizeof(*a));
		free(a);
	} else {
		free(b);
	}
}

/* ---- text form ---- */

static void put_str(FILE *f, const char *s, size_t cap)
{
	for (size_t i = 0; i < cap && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		fputc(c <= ' ' || c == 0x7f ? '_' : c, f);
	}
}

static void put_field(FILE *f, const struct why_event *e, const struct field *fd)
{
	const char *p = (const char *)e + fd->off;

	fprintf(f, " %s=", fd->key);
	switch (fd->ty) {
	case F_STR: put_str(f, p, fd->size); break;
	case F_INT: fprintf(f, "%d", *(const int *)(const void *)p); break;
	case F_U32: fprintf(f, "%u", *(const unsigned *)(const void *)p); break;
	case F_LONG: fprintf(f, "%ld", *(const long *)(const void *)p); break;
	case F_U64: fprintf(f, "%" PRIu64, *(const uint64_t *)(const void *)p); break;
	}
}

int why_events_write(const struct why_events *s, FILE *f)
{
	fputs("# tunetop-events 1\n# clock mono\n", f);
	for (size_t i = 0; i < s->n; i++) {
		const struct why_event *e = &s->ev[i];

		if ((unsigned)e->kind >= WEV__COUNT)
			continue;
		fprintf(f, "%" PRIu64 " %d %s", e->ts_ns, e->cpu, kinds[e->kind].name);
		for (const struct field *fd = kinds[e->kind].f;
		     fd < kinds[e->kind].f + WHY_MAX_FIELDS && fd->key; fd++)
			put_field(f, e, fd);
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

struct pstate {
	char *why;
	size_t cap;
};

static int perr(struct pstate *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(struct pstate *ps, const char *fmt, ...)
{
	va_list ap;

	if (ps->why && ps->cap) {
		va_start(ap, fmt);
		vsnprintf(ps->why, ps->cap, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int parse_value(struct pstate *ps, struct why_event *e, const struct field *fd,
		       const char *v)
{
	char *p = (char *)e + fd->off;
	int64_t i;
	uint64_t u;

	switch (fd->ty) {
	case F_STR:
		if (strlen(v) >= fd->size)
			return perr(ps, "%s: '%.40s' is longer than %zu characters", fd->key, v,
				    fd->size - 1);
		str_copy(p, fd->size, v);
		return 0;
	case F_U64:
		if (str_to_u64(v, &u) || !str_is_digits(v))
			return perr(ps, "%s: '%.40s' is not a whole number", fd->key, v);
		*(uint64_t *)(void *)p = u;
		return 0;
	case F_LONG:
		if (!str_is_digits(v + (*v == '-')) || str_to_i64(v, &i) || i < LONG_MIN ||
		    i > LONG_MAX)
			return perr(ps, "%s: '%.40s' is not a whole number", fd->key, v);
		*(long *)(void *)p = (long)i;
		return 0;
	case F_INT:
	case F_U32:
		if (!str_is_digits(v + (*v == '-')) || str_to_i64(v, &i) || i < fd->lo ||
		    i > fd->hi)
			return perr(ps,
				    "%s: '%.40s' is not a whole number from %" PRId64
				    " to %" PRId64,
				    fd->key, v, fd->lo, fd->hi);
		if (fd->ty == F_INT)
			*(int *)(void *)p = (int)i;
		else
			*(unsigned *)(void *)p = (unsigned)i;
		return 0;
	}
	return -EINVAL;
}

#define WHY_MAX_TOKENS (3 + WHY_MAX_FIELDS + 1)

/* One event line (NUL-terminated, modified in place). */
static int parse_event(struct pstate *ps, char *line, struct why_event *e)
{
	char *tok[WHY_MAX_TOKENS];
	size_t nt = str_split_ws(line, tok, WHY_MAX_TOKENS);
	const struct kind_def *kd = NULL;
	unsigned seen = 0, nf = 0;
	int k;

	if (nt < 3)
		return perr(ps, "expected '<ts_ns> <cpu> <kind> key=value ...'");
	memset(e, 0, sizeof(*e));
	if (str_to_u64(tok[0], &e->ts_ns) || !str_is_digits(tok[0]))
		return perr(ps, "timestamp '%.40s' is not a whole number of ns", tok[0]);
	if (!str_is_digits(tok[1]) || str_to_int(tok[1], &e->cpu) || e->cpu >= TT_MAX_CPUS)
		return perr(ps, "cpu '%.40s' is not a CPU number (0 to %d)", tok[1],
			    TT_MAX_CPUS - 1);
	for (k = 0; k < WEV__COUNT; k++)
		if (str_eq(tok[2], kinds[k].name))
			break;
	if (k == WEV__COUNT)
		return perr(ps, "unknown event kind '%.40s'", tok[2]);
	e->kind = (enum why_ev_kind)k;
	kd = &kinds[k];
	while (nf < WHY_MAX_FIELDS && kd->f[nf].key)
		nf++;
	if (nt == WHY_MAX_TOKENS) /* the split stopped: more than any kind has */
		return perr(ps, "%s: more than its %u fields", kd->name, nf);
	if (k == WEV_WAKING || k == WEV_WAKEUP)
		e->u.wk.orig_cpu = -1;
	if (k == WEV_IRQ)
		e->u.irq.ret = -1;
	for (size_t t = 3; t < nt; t++) {
		char *eq = strchr(tok[t], '=');
		unsigned j;

		if (!eq)
			return perr(ps, "'%.40s' is not key=value", tok[t]);
		*eq = '\0';
		for (j = 0; j < nf && !str_eq(kd->f[j].key, tok[t]); j++)
			;
		if (j == nf)
			return perr(ps, "%s: unknown key '%.40s'", kd->name, tok[t]);
		if (seen & (1u << j))
			return perr(ps, "%s: key '%s' given twice", kd->name, kd->f[j].key);
		seen |= 1u << j;
		if (parse_value(ps, e, &kd->f[j], eq + 1))
			return -EINVAL;
	}
	for (unsigned j = 0; j < nf; j++)
		if (!(seen & (1u << j)))
			return perr(ps, "%s: key '%s' is missing", kd->name, kd->f[j].key);
	if (k == WEV_LATE && e->u.late.wake_ns < e->u.late.deadline_ns)
		return perr(ps, "late: wake_ns is before deadline_ns");
	if (k == WEV_LOST && e->u.lost.n == 0)
		return perr(ps, "lost: n must be at least 1");
	return 0;
}

/* A comment line: the header, the clock, or free text. */
static int parse_comment(struct pstate *ps, const char *line, int lineno)
{
	const char *p = line + 1;

	while (*p == ' ' || *p == '\t')
		p++;
	if (lineno == 1) {
		if (!str_starts(p, "tunetop-events "))
			return perr(ps,
				    "not a tunetop event stream (no '# tunetop-events 1' header)");
		if (!str_eq(p + strlen("tunetop-events "), "1"))
			return perr(ps, "event stream version '%.20s' is not 1",
				    p + strlen("tunetop-events "));
		return 0;
	}
	if (str_starts(p, "clock ") && !str_eq(p + strlen("clock "), "mono"))
		return perr(ps, "clock '%.20s' is not mono (CLOCK_MONOTONIC)",
			    p + strlen("clock "));
	return 0;
}

int why_events_parse(const char *text, struct why_events *out, int *line, char *why, size_t cap)
{
	struct pstate ps = {why, cap};
	char buf[WHY_LINE_MAX + 1];
	const char *p = text;
	int lineno = 0, e = 0;

	memset(out, 0, sizeof(*out));
	if (why && cap)
		why[0] = '\0';
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		struct why_event ev;

		lineno++;
		if (len && p[len - 1] == '\r')
			len--;
		if (len > WHY_LINE_MAX) {
			e = perr(&ps, "line longer than %d characters", WHY_LINE_MAX);
			break;
		}
		memcpy(buf, p, len);
		buf[len] = '\0';
		p = nl ? nl + 1 : p + strlen(p);
		if (lineno == 1 && buf[0] != '#') {
			e = perr(&ps,
				 "not a tunetop event stream (no '# tunetop-events 1' header)");
			break;
		}
		if (buf[0] == '#') {
			if ((e = parse_comment(&ps, buf, lineno)))
				break;
			continue;
		}
		if (!*str_trim(buf))
			continue;
		if (out->n >= WHY_EVENTS_MAX) {
			e = perr(&ps, "more than %d events", WHY_EVENTS_MAX);
			break;
		}
		if ((e = parse_event(&ps, buf, &ev)))
			break;
		why_events_add(out, &ev);
	}
	if (!e && lineno == 0)
		e = perr(&ps, "empty: not a tunetop event stream");
	if (e) {
		why_events_free(out);
		if (line)
			*line = lineno ? lineno : 1;
		return e;
	}
	if (line)
		*line = 0;
	return 0;
}
