/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The A/B controller (ab.h): configuration checks, the ABBA BAAB schedule, the
 * non-blocking state machine (switch → settle → measure, per window), the
 * CMD runner (one thread per run: posix_spawn of /bin/sh -c CMD in its own
 * process group, stdout captured for --metric, exact wall time from spawn to
 * exit), the per-arm samples, the restore at the end and the comparison.
 * Knob writes and restores go through the knob engine only; the load is
 * load.c, the measuring is probe.c, the statistics stats.c. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/appmetric.h"
#include "core/err.h"
#include "core/sched_sys.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "probe/ab.h"

#define LD(p)	 __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define ST(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

#define CMD_POLL_MS   2		    /* how often ab_poll wants to look at a running CMD */
#define KILL_GRACE_NS 2000000000ull /* SIGTERM → SIGKILL */
#define MAX_WAIT_MS   200	    /* longest *next_ms */
#define FILE_POLL_MS  100	    /* how often a measuring window reads --metric-file */

/* One run of CMD, owned by its runner thread until `done`. */
struct ab_child {
	pthread_t th;
	/* inputs */
	char *cmd;
	char arm[2];
	char *value;
	int window;
	bool want_out, quiet, have_cpus;
	struct cpumask cpus;
	/* outputs */
	pthread_mutex_t lock; /* pid vs. reaped, for killing */
	pid_t pid;
	bool reaped;
	bool done; /* atomic */
	int spawn_err;
	const char *spawn_op;
	int status;
	uint64_t t0, t1;
	struct sbuf out;
	bool out_truncated;
	/* cancel */
	bool termed, killed;
};

/* ---- small helpers ---------------------------------------------------------- */

const char *ab_phase_name(enum ab_phase ph)
{
	switch (ph) {
	case AB_IDLE: return "idle";
	case AB_SWITCH: return "switch";
	case AB_SETTLE: return "settle";
	case AB_MEASURE: return "measure";
	case AB_DONE: return "done";
	case AB_FAILED: return "failed";
	case AB_CANCELLED: return "cancelled";
	}
	return "?";
}

char ab_arm_name(int arm)
{
	return arm >= 0 && arm < AB_MAX_VALUES ? (char)('A' + arm) : '?';
}

const char *ab_metric_name(int m)
{
	switch (m) {
	case AB_P99: return "p99";
	case AB_P50: return "p50";
	case AB_MEAN: return "mean";
	}
	return "?";
}

double ab_window_metric(const struct ab_window *w, int m)
{
	switch (m) {
	case AB_P99: return w->p99;
	case AB_P50: return w->p50;
	case AB_MEAN: return w->mean;
	}
	return NAN;
}

int ab_window_arm(int win)
{
	int k = win % 4;

	return (k == 1 || k == 2) ^ ((win / 4) & 1); /* ABBA, then BAAB */
}

void ab_schedule(unsigned k, unsigned rounds, uint64_t seed, int *arm)
{
	int base[AB_MAX_VALUES];
	struct stats_rng rng;

	if (k < 2 || k > AB_MAX_VALUES)
		return;
	for (unsigned i = 0; i < k; i++)
		base[i] = (int)i;
	/* V1 first, V2..Vk shuffled (Fisher-Yates): which value follows which
	 * is not the order they were typed in */
	stats_rng_seed(&rng, seed);
	for (unsigned i = k - 1; i > 1; i--) {
		unsigned j = 1 + (unsigned)(stats_rng_next(&rng) % i);
		int t = base[i];

		base[i] = base[j];
		base[j] = t;
	}
	for (unsigned r = 0; r < rounds; r++) {
		int *w = arm + (size_t)r * 2 * k;

		for (unsigned i = 0; i < k; i++) {
			w[i] = base[(i + r) % k];
			w[2 * k - 1 - i] = w[i];
		}
	}
}

static bool is_int(const char *s, long long *v)
{
	int64_t x;

	if (str_to_i64(s, &x))
		return false;
	*v = x;
	return true;
}

void ab_suggest_other(const char *addr, const char *cur, const char *allowed, char *out, size_t cap)
{
	char buf[KNOB_VALUE_MAX], *tok[64], *dots;
	size_t n;
	long long lo, hi, v = 0;

	if (!cur)
		cur = "";
	snprintf(out, cap, "%s", cur);
	if (!allowed)
		return;
	if (str_ends(addr, "/rt_runtime_us")) {
		snprintf(out, cap, "%s", str_eq(cur, "-1") ? "950000" : "-1");
		return;
	}
	if (str_ends(addr, "/cpu_dma_latency_us")) {
		snprintf(out, cap, "%s", str_eq(cur, "0") ? "2000000000" : "0");
		return;
	}
	if (str_starts(allowed, "CPU list within ")) {
		struct cpumask m;

		if (cpulist_parse(cur, &m) == 0 && cpumask_count(&m) > 1)
			snprintf(out, cap, "%d", cpumask_next(&m, 0));
		else
			snprintf(out, cap, "%s", allowed + strlen("CPU list within "));
		return;
	}
	if (str_ends(addr, "/policy") && strstr(allowed, "fifo:")) {
		snprintf(out, cap, "%s",
			 str_starts(cur, "fifo") || str_starts(cur, "rr") ? "other" : "fifo:50");
		return;
	}
	str_copy(buf, sizeof(buf), allowed);
	n = str_split_ws(buf, tok, sizeof(tok) / sizeof(tok[0]));
	if (!n)
		return;
	dots = strstr(tok[0], "..");
	if (dots) { /* "lo..hi" [n/a] */
		bool na = false;

		*dots = '\0';
		for (size_t i = 1; i < n; i++)
			na |= str_eq(tok[i], "n/a");
		if (!is_int(tok[0], &lo) || !is_int(dots + 2, &hi))
			return;
		if (na)
			snprintf(out, cap, "%s", str_eq(cur, "n/a") ? "0" : "n/a");
		else if (!is_int(cur, &v) || v != 0)
			snprintf(out, cap, "%lld", lo <= 0 && hi >= 0 ? 0 : lo);
		else if (lo < 0)
			snprintf(out, cap, "%lld", lo / 2);
		else if (hi > 0)
			snprintf(out, cap, "%lld", hi);
		return;
	}
	{
		bool off = false, perf = false, sched = false, cur_num = is_int(cur, &v);
		long long nmin = 0, nmax = 0;
		size_t nnum = 0;
		const char *other = NULL;

		for (size_t i = 0; i < n; i++) {
			long long x;

			if (is_int(tok[i], &x)) {
				if (!nnum || x < nmin)
					nmin = x;
				if (!nnum || x > nmax)
					nmax = x;
				nnum++;
				continue;
			}
			off |= str_eq(tok[i], "off");
			perf |= str_eq(tok[i], "performance");
			sched |= str_eq(tok[i], "schedutil");
			if (!other && !str_eq(tok[i], cur) && !str_eq(tok[i], "min") &&
			    !str_eq(tok[i], "max") && !str_eq(tok[i], "off") &&
			    !str_eq(tok[i], "any") && !str_eq(tok[i], "n/a"))
				other = tok[i];
		}
		if (nnum == 2 && nmin == 0 && nmax == 1 && n == 2)
			snprintf(out, cap, "%s", str_eq(cur, "1") ? "0" : "1");
		else if (off && str_eq(cur, "off"))
			snprintf(out, cap, "%lld", nmax);
		else if (off)
			snprintf(out, cap, "off");
		else if (nnum)
			snprintf(out, cap, "%lld", cur_num && v == nmax ? nmin : nmax);
		else if (perf && !str_eq(cur, "performance"))
			snprintf(out, cap, "performance");
		else if (sched && !str_eq(cur, "schedutil"))
			snprintf(out, cap, "schedutil");
		else if (other)
			snprintf(out, cap, "%s", other);
	}
}

static void add_line(char **cause, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_line(char **cause, const char *fmt, ...)
{
	va_list ap;
	char *line, *s;
	int n;

	if (!cause)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	line = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(line, (size_t)n + 1, fmt, ap);
	va_end(ap);
	if (!*cause) {
		*cause = line;
		return;
	}
	s = xasprintf("%s\n%s", *cause, line);
	free(*cause);
	free(line);
	*cause = s;
}

static bool finished_phase(enum ab_phase ph)
{
	return ph == AB_DONE || ph == AB_FAILED || ph == AB_CANCELLED;
}

/* The word right after the first capture group of a --metric regex, as the
 * unit of its numbers: 'inference: ([0-9.]+) ms' -> "ms". */
static void metric_unit(const char *re, char *unit, size_t cap)
{
	const char *p = re;
	int depth = 0;
	bool seen = false;
	size_t n = 0;

	unit[0] = '\0';
	for (; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == '[') { /* skip a bracket expression */
			p++;
			if (*p == ']')
				p++;
			while (*p && *p != ']')
				p++;
			if (!*p)
				return;
			continue;
		}
		if (*p == '(') {
			depth++;
			seen = true;
		} else if (*p == ')' && seen && --depth == 0) {
			p++;
			break;
		}
	}
	if (!seen || depth)
		return;
	while (*p == ' ')
		p++;
	while (*p && n + 1 < cap &&
	       ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '%' || *p == '/' ||
		(unsigned char)*p >= 0x80))
		unit[n++] = *p++;
	unit[n] = '\0';
}

/* ---- configuration ------------------------------------------------------------ */

void ab_cfg_init(struct ab_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->window_s = AB_DEFAULT_WINDOW_S;
	c->settle_ms = AB_DEFAULT_SETTLE_MS;
	c->rounds = AB_DEFAULT_ROUNDS;
	c->probe.interval_us = PROBE_DEFAULT_INTERVAL_US;
	c->probe.policy = PROBE_POLICY_FIFO;
	c->probe.prio = PROBE_DEFAULT_PRIO;
	c->probe.dma_latency_us = -1;
	if (probe_online_cpus(&c->probe.cpus))
		cpumask_set(&c->probe.cpus, 0);
	c->seed = STATS_DEFAULT_SEED;
	c->restore = AB_RESTORE_RUN;
	c->primary = AB_PRIMARY_ALL;
}

/* Validate A and B for every ref. *same: both normalize to the same value
 * everywhere. */
static int check_pair(struct knob_ctx *ctx, const struct knob_ref *refs, size_t n, const char *va,
		      const char *vb, bool *same, char **cause)
{
	*same = true;
	for (size_t i = 0; i < n; i++) {
		char norm[2][KNOB_VALUE_MAX];
		const char *v[2] = {va, vb};

		for (int k = 0; k < 2; k++) {
			char *why = NULL;
			int e = knob_validate(ctx, &refs[i], v[k], norm[k], sizeof(norm[k]), &why);

			if (e) {
				if (cause) {
					free(*cause);
					*cause = why ? why
						     : xasprintf("%s: '%s' is not allowed",
								 refs[i].addr, v[k]);
				} else {
					free(why);
				}
				return e;
			}
			free(why);
		}
		if (strcmp(norm[0], norm[1]))
			*same = false;
	}
	return 0;
}

/* Where to split "A,B" (or "A|B") in vals; NULL with *cause set when there
 * is no single valid split. */
static char *find_split(struct knob_ctx *ctx, const struct knob_ref *refs, size_t nrefs,
			const char *arg, char *vals, char **cause)
{
	char *bar = strchr(vals, '|'), *first = strchr(vals, ','), *split = NULL;
	int good = 0;

	if (bar) {
		if (!strchr(bar + 1, '|'))
			return bar;
		*cause = xasprintf("'%s': expected two values A|B", arg);
		return NULL;
	}
	if (!first) {
		*cause = xasprintf("'%s': expected two values ADDRESS=A,B (or a sweep: "
				   "ADDRESS=V1,V2,...,V%d)",
				   arg, AB_MAX_VALUES);
		return NULL;
	}
	if (!strchr(first + 1, ','))
		return first;
	/* several commas: take the one split where both halves are valid */
	for (char *c = first; c; c = strchr(c + 1, ',')) {
		bool same;

		*c = '\0';
		if (*vals && c[1] && !check_pair(ctx, refs, nrefs, vals, c + 1, &same, NULL)) {
			good++;
			split = c;
		}
		*c = ',';
	}
	if (good == 1)
		return split;
	*cause = xasprintf("'%s': %s split into two values A,B; separate them with '|' "
			   "(ADDRESS='A|B')",
			   arg, good ? "ambiguous: more than one way to" : "no way to");
	return NULL;
}

/* A/A: the one value of "ADDR", "ADDR=V" or "ADDR=V,V" (vals NULL = no '='). */
static int aa_value(struct knob_ctx *ctx, const struct knob_ref *refs, size_t nrefs,
		    const char *arg, char *vals, char *out, size_t cap, char **cause)
{
	char *split, *a, *b;
	bool same;
	int e;

	if (!vals) { /* the current value, the same on every knob */
		for (size_t i = 0; i < nrefs; i++) {
			char cur[KNOB_VALUE_MAX];

			if (knob_read(ctx, &refs[i], cur, sizeof(cur)) != 0) {
				*cause = xasprintf("%s: cannot read its value; give ADDRESS=VALUE",
						   refs[i].addr);
				return -EINVAL;
			}
			if (i && strcmp(cur, out)) {
				*cause = xasprintf("%s: the knobs hold different values (%s, %s); "
						   "give ADDRESS=VALUE",
						   arg, out, cur);
				return -EINVAL;
			}
			str_copy(out, cap, cur);
		}
		return 0;
	}
	a = str_trim(vals);
	if (*a && strlen(a) < KNOB_VALUE_MAX && !check_pair(ctx, refs, nrefs, a, a, &same, NULL)) {
		str_copy(out, cap, a);
		return 0;
	}
	if (!strchr(a, ',') && !strchr(a, '|'))
		return check_pair(ctx, refs, nrefs, a, a, &same, cause);
	split = find_split(ctx, refs, nrefs, arg, a, cause);
	if (!split)
		return -EINVAL;
	*split = '\0';
	b = str_trim(split + 1);
	a = str_trim(a);
	e = check_pair(ctx, refs, nrefs, a, b, &same, cause);
	if (e)
		return e;
	if (!same) {
		*cause = xasprintf("'%s': an A/A run takes one value, not %s and %s", arg, a, b);
		return -EINVAL;
	}
	str_copy(out, cap, a);
	return 0;
}

/* Can the knob's values hold commas themselves (CPU lists and other lists,
 * by knob_allowed's text)? Then "A,B,C" may be two values. */
static bool values_hold_commas(struct knob_ctx *ctx, const struct knob_ref *refs, size_t nrefs)
{
	for (size_t i = 0; i < nrefs; i++) {
		char allowed[512];

		if (knob_allowed(ctx, &refs[i], allowed, sizeof(allowed)) >= 0 &&
		    strstr(allowed, "list"))
			return true;
	}
	return false;
}

/* A sweep "V1,V2,...,Vk" (or "V1|V2|...|Vk"), k >= 3: returns 1 when vals is
 * not one (two values: the A/B's parsing), else 0 with cfg's values set, or
 * -EINVAL / the engine's error with *cause. Commas split every value, except
 * for knobs whose values are lists (CPU lists): there exactly one split into
 * two valid values is an A/B (as before), several are ambiguous (use '|'). */
static int parse_sweep(struct knob_ctx *ctx, const struct knob_ref *refs, size_t nrefs,
		       const char *arg, const char *vals, struct ab_cfg *cfg, char **cause)
{
	char *copy = xstrdup(vals), *piece[AB_MAX_VALUES + 1], *p = copy, *c;
	char sep = strchr(vals, '|') ? '|' : ',';
	size_t n = 0, seps = 0;
	int e = 0;

	for (const char *q = vals; *q; q++)
		seps += *q == sep;
	if (seps < 2) {
		free(copy);
		return 1;
	}
	if (sep == ',' && values_hold_commas(ctx, refs, nrefs)) {
		char *dup = xstrdup(vals), *why = NULL, *split;

		/* one valid two-way split: an A/B of values with commas in them */
		split = find_split(ctx, refs, nrefs, arg, dup, &why);
		free(dup);
		if (split) {
			free(why);
			free(copy);
			return 1;
		}
		/* no split or several: the values are lists, so a sweep of them
		 * takes '|' */
		free(*cause);
		*cause = xasprintf("%s; a sweep of lists: ADDRESS='A|B|C'",
				   why ? why : "no way to split");
		free(why);
		free(copy);
		return -EINVAL;
	}
	if (seps + 1 > AB_MAX_VALUES) {
		free(*cause);
		*cause = xasprintf("'%s': %zu values; a sweep takes 2 to %d", arg, seps + 1,
				   AB_MAX_VALUES);
		free(copy);
		return -EINVAL;
	}
	for (;;) {
		c = strchr(p, sep);
		if (c)
			*c = '\0';
		piece[n++] = str_trim(p);
		if (!c)
			break;
		p = c + 1;
	}
	for (size_t i = 0; !e && i < n; i++) {
		bool same;

		if (!*piece[i] || strlen(piece[i]) >= KNOB_VALUE_MAX) {
			free(*cause);
			*cause = xasprintf("'%s': value %zu is %s", arg, i + 1,
					   *piece[i] ? "too long" : "empty");
			e = -EINVAL;
			break;
		}
		e = check_pair(ctx, refs, nrefs, piece[i], piece[i], &same, cause);
		for (size_t j = 0; !e && j < i; j++) {
			e = check_pair(ctx, refs, nrefs, piece[j], piece[i], &same, cause);
			if (!e && same && !cfg->aa) {
				free(*cause);
				*cause =
					xasprintf("'%s': values %zu and %zu are the same (%s, %s); "
						  "each value of a sweep once",
						  arg, j + 1, i + 1, piece[j], piece[i]);
				e = -EINVAL;
			} else if (!e && !same && cfg->aa) {
				free(*cause);
				*cause =
					xasprintf("'%s': an A/A run takes one value, not %s and %s",
						  arg, piece[j], piece[i]);
				e = -EINVAL;
			}
		}
	}
	if (!e) {
		for (size_t i = 0; i < n; i++)
			str_copy(cfg->value[i], sizeof(cfg->value[i]), piece[i]);
		cfg->nvalues = (unsigned)n;
	}
	free(copy);
	return e;
}

int ab_parse_knob(struct knob_ctx *ctx, const char *arg, struct ab_cfg *cfg, char **cause)
{
	const char *eq = strchr(arg, '=');
	char addr[KNOB_ADDR_MAX], *ad, *vals, *split, *a, *b;
	struct knob_ref *refs = NULL;
	size_t nrefs = 0, alen = eq ? (size_t)(eq - arg) : strlen(arg);
	char *why = NULL;
	bool same = true;
	int e;

	free(*cause); /* the knob engine's convention: replaced on entry */
	*cause = NULL;
	if ((!eq && !cfg->aa) || !alen || alen >= sizeof(addr)) {
		*cause = cfg->aa ? xasprintf("'%s': expected ADDRESS or ADDRESS=VALUE (e.g. "
					     "cpuidle/*/cpu-sleep/disable=0)",
					     arg)
				 : xasprintf("'%s': expected ADDRESS=A,B (e.g. "
					     "cpuidle/*/cpu-sleep/disable=0,1)",
					     arg);
		return -EINVAL;
	}
	memcpy(addr, arg, alen);
	addr[alen] = '\0';
	ad = str_trim(addr);
	e = knob_expand(ctx, ad, 0, &refs, &nrefs, &why);
	if (e || !nrefs) {
		*cause = why ? why : xasprintf("%s: matches no knob", ad);
		free(refs);
		return e ? e : -ENOENT;
	}
	free(why);
	cfg->nvalues = 2;
	if (eq) {
		e = parse_sweep(ctx, refs, nrefs, arg, eq + 1, cfg, cause);
		if (e <= 0) {
			if (!e)
				str_copy(cfg->addr, sizeof(cfg->addr), ad);
			else
				cfg->nvalues = 2;
			vals = NULL;
			goto out;
		}
		e = 0;
	}
	if (cfg->aa) {
		char v[KNOB_VALUE_MAX];

		vals = eq ? xstrdup(eq + 1) : NULL;
		v[0] = '\0';
		e = aa_value(ctx, refs, nrefs, arg, vals, v, sizeof(v), cause);
		if (!e) {
			str_copy(cfg->addr, sizeof(cfg->addr), ad);
			str_copy(cfg->value[0], sizeof(cfg->value[0]), v);
			str_copy(cfg->value[1], sizeof(cfg->value[1]), v);
		}
		goto out;
	}
	vals = xstrdup(eq + 1);
	split = find_split(ctx, refs, nrefs, arg, vals, cause);
	if (!split) {
		e = -EINVAL;
		goto out;
	}
	*split = '\0';
	a = str_trim(vals);
	b = str_trim(split + 1);
	if (!*a || !*b) {
		*cause = xasprintf("'%s': expected two non-empty values A,B", arg);
		e = -EINVAL;
	} else if (strlen(a) >= KNOB_VALUE_MAX || strlen(b) >= KNOB_VALUE_MAX) {
		*cause = xasprintf("'%s': value too long", arg);
		e = -EINVAL;
	} else if (!(e = check_pair(ctx, refs, nrefs, a, b, &same, cause)) && same) {
		*cause = xasprintf("'%s': A and B are the same value (an A/A run, to measure the "
				   "noise, is tunetop ab --aa)",
				   arg);
		e = -EINVAL;
	}
	if (!e) {
		str_copy(cfg->addr, sizeof(cfg->addr), ad);
		str_copy(cfg->value[0], sizeof(cfg->value[0]), a);
		str_copy(cfg->value[1], sizeof(cfg->value[1]), b);
	}
out:
	free(vals);
	free(refs);
	return e;
}

int ab_cfg_check(const struct ab_cfg *cfg, char *why, size_t cap)
{
	bool cmd = cfg->cmd != NULL;

	if (!(cfg->window_s >= 0) || cfg->window_s > AB_MAX_WINDOW_S ||
	    (!cmd && cfg->window_s <= 0)) {
		snprintf(why, cap, "--window %g: must be %s%g seconds", cfg->window_s,
			 cmd ? "0.." : "more than 0, at most ", AB_MAX_WINDOW_S);
		return -EINVAL;
	}
	if (cfg->settle_ms > AB_MAX_SETTLE_MS) {
		snprintf(why, cap, "--settle %u: must be 0..%d ms", cfg->settle_ms,
			 AB_MAX_SETTLE_MS);
		return -EINVAL;
	}
	if (cfg->nvalues > AB_MAX_VALUES || cfg->nvalues == 1) {
		snprintf(why, cap, "%u values: an A/B takes 2, a sweep up to %d", cfg->nvalues,
			 AB_MAX_VALUES);
		return -EINVAL;
	}
	if (cfg->rounds < 1 || cfg->rounds > AB_MAX_ROUNDS) {
		snprintf(why, cap, "--rounds %u: must be 1..%d", cfg->rounds, AB_MAX_ROUNDS);
		return -EINVAL;
	}
	if (cmd && !*cfg->cmd) {
		snprintf(why, cap, "--cmd: empty command");
		return -EINVAL;
	}
	if (cmd && cfg->metric_file) {
		snprintf(why, cap, "--cmd and --metric-file: one source at a time");
		return -EINVAL;
	}
	if (cfg->metric_file && (!*cfg->metric_file || !cfg->metric)) {
		snprintf(why, cap, "--metric-file %s: needs --metric REGEX", cfg->metric_file);
		return -EINVAL;
	}
	if (cfg->metric && !cmd && !cfg->metric_file) {
		snprintf(why, cap, "--metric needs --cmd or --metric-file");
		return -EINVAL;
	}
	if (cfg->metric) {
		regex_t re;
		int rc = regcomp(&re, cfg->metric, REG_EXTENDED | REG_NEWLINE);

		if (rc) {
			char msg[128];

			regerror(rc, &re, msg, sizeof(msg));
			snprintf(why, cap, "--metric '%s': %s", cfg->metric, msg);
			return -EINVAL;
		}
		if (re.re_nsub < 1) {
			regfree(&re);
			snprintf(why, cap,
				 "--metric '%s': needs a capture group around the number, e.g. "
				 "'inference: ([0-9.]+) ms'",
				 cfg->metric);
			return -EINVAL;
		}
		regfree(&re);
	}
	if (cfg->load) {
		struct load_spec s;
		char w[200];

		if (load_parse(cfg->load, &s, w, sizeof(w))) {
			snprintf(why, cap, "--load %s", w);
			return -EINVAL;
		}
		load_spec_free(&s);
	}
	if (!cmd && !cfg->metric_file && !cfg->probe_ext && !cfg->sim_probe) {
		char w[200];
		int rc = probe_cfg_check(&cfg->probe, w, sizeof(w));

		if (rc) {
			if (!strncmp(w, "CPU ", 4) || !strncmp(w, "no CPUs", 7)) {
				char l[128];

				cpulist_format(&cfg->probe.cpus, l, sizeof(l));
				snprintf(why, cap, "--cpus %s: %s", l, w);
			} else {
				snprintf(why, cap, "%s", w);
			}
			return rc;
		}
	}
	return 0;
}

/* ---- notes and the journal ------------------------------------------------------ */

static void take_report(struct ab_run *r, struct sbuf *rep)
{
	const char *p = rep->s ? rep->s : "";

	while (*p) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n);
		const char *have = r->notes.s ? r->notes.s : "";
		bool dup = false;

		for (const char *q = have; *q;) {
			size_t m = strcspn(q, "\n");

			if (m == n && !strncmp(q, line, n)) {
				dup = true;
				break;
			}
			q += m;
			if (*q == '\n')
				q++;
		}
		if (!dup && n) {
			pthread_mutex_lock(&r->lock);
			sbuf_printf(&r->notes, "%s\n", line);
			pthread_mutex_unlock(&r->lock);
		}
		free(line);
		p += n;
		if (*p == '\n')
			p++;
	}
	sbuf_reset(rep);
}

size_t ab_take_notes(struct ab_run *r, struct sbuf *out)
{
	size_t k = 0;

	pthread_mutex_lock(&r->lock);
	if (r->notes.len > r->notes_taken) {
		const char *p = r->notes.s + r->notes_taken;

		for (const char *q = p; *q; q++)
			k += *q == '\n';
		sbuf_puts(out, p);
		r->notes_taken = r->notes.len;
	}
	pthread_mutex_unlock(&r->lock);
	return k;
}

/* AB_RESTORE_OWN: remember the changes (transactions) this A/B made. */
static void collect_txns(struct ab_run *r)
{
	struct knob_jentry *e = NULL;
	size_t n = 0;
	const char *run = knob_ctx_run_id(r->ctx);

	if (knob_journal_list(r->ctx, &e, &n, NULL, NULL))
		return;
	for (size_t i = 0; i < n; i++) {
		bool have = false;

		if (e[i].id <= r->jwater)
			continue;
		r->jwater = e[i].id;
		if (!str_eq(e[i].run, run))
			continue;
		for (size_t k = 0; k < r->ntxn; k++)
			have |= r->txn[k] == e[i].txn;
		if (!have) {
			r->txn = xgrow(r->txn, &r->captxn, r->ntxn + 1, sizeof(*r->txn));
			r->txn[r->ntxn++] = e[i].txn;
		}
	}
	knob_journal_free(e, n);
}

static void do_restore(struct ab_run *r)
{
	char *cause = NULL;
	int e = 0;

	if (r->restored || !r->ctx)
		return;
	r->restored = true;
	if (r->cfg.restore == AB_RESTORE_RUN) {
		e = knob_restore_run(r->ctx, knob_ctx_run_id(r->ctx), 0, &r->restore_report,
				     &cause);
	} else {
		collect_txns(r);
		for (size_t i = r->ntxn; i-- > 0;) {
			char *c = NULL;
			int ei = knob_undo_id(r->ctx, r->txn[i], 0, &r->restore_report, &c);

			if (ei) {
				if (!e)
					e = ei;
				add_line(&cause, "%s", c ? c : err_name(ei));
			}
			free(c);
		}
	}
	r->restore_err = e;
	r->restore_cause = cause;
}

/* ---- CMD runner ----------------------------------------------------------------- */

static char **child_env(const struct ab_child *c)
{
	size_t n = 0, k = 0;
	char **env;

	for (char **p = environ; p && *p; p++)
		n++;
	env = xcalloc(n + 4, sizeof(char *));
	for (char **p = environ; p && *p; p++)
		if (!str_starts(*p, "TUNETOP_AB_"))
			env[k++] = xstrdup(*p);
	env[k++] = xasprintf("TUNETOP_AB_ARM=%s", c->arm);
	env[k++] = xasprintf("TUNETOP_AB_VALUE=%s", c->value);
	env[k++] = xasprintf("TUNETOP_AB_WINDOW=%d", c->window + 1);
	env[k] = NULL;
	return env;
}

static void free_env(char **env)
{
	for (char **p = env; *p; p++)
		free(*p);
	free(env);
}

static void *child_main(void *arg)
{
	struct ab_child *c = arg;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	struct sched_param sp = {.sched_priority = 0};
	sigset_t none, def;
	int pfd[2] = {-1, -1}, rc;
	char sh[] = "sh", dash_c[] = "-c";
	char *argv[] = {sh, dash_c, c->cmd, NULL};
	char **env;
	pid_t pid;

	if (c->have_cpus) {
		cpu_set_t *set = CPU_ALLOC(TT_MAX_CPUS);
		size_t sz = CPU_ALLOC_SIZE(TT_MAX_CPUS);

		CPU_ZERO_S(sz, set);
		for (int cpu = cpumask_next(&c->cpus, 0); cpu >= 0;
		     cpu = cpumask_next(&c->cpus, cpu + 1))
			CPU_SET_S((size_t)cpu, sz, set);
		rc = pthread_setaffinity_np(pthread_self(), sz, set);
		CPU_FREE(set);
		if (rc) {
			c->spawn_err = -rc;
			c->spawn_op = "sched_setaffinity";
			ST(&c->done, true);
			return NULL;
		}
	}
	/* The command runs SCHED_OTHER whatever tunetop runs: this thread
	 * exists only to spawn and wait for it, so it drops its own policy
	 * first (musl's posix_spawn ignores POSIX_SPAWN_SETSCHEDULER below). */
	tt_sched_setscheduler(0, SCHED_OTHER, 0);
	if (c->want_out && pipe2(pfd, O_CLOEXEC)) {
		c->spawn_err = -errno;
		c->spawn_op = "pipe";
		ST(&c->done, true);
		return NULL;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (c->want_out)
		posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	else
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	if (c->quiet)
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_init(&at);
	sigemptyset(&none);
	sigemptyset(&def);
	{
		static const int sigs[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGPIPE,
					   SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM};

		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			sigaddset(&def, sigs[i]);
	}
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setschedpolicy(&at, SCHED_OTHER);
	posix_spawnattr_setschedparam(&at, &sp);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
					      POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSCHEDULER);
	env = child_env(c);
	c->t0 = time_mono_ns();
	pthread_mutex_lock(&c->lock);
	rc = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, env);
	if (!rc)
		c->pid = pid;
	pthread_mutex_unlock(&c->lock);
	free_env(env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (pfd[1] >= 0)
		close(pfd[1]);
	if (rc) {
		c->spawn_err = -rc;
		c->spawn_op = "posix_spawn /bin/sh";
		if (pfd[0] >= 0)
			close(pfd[0]);
		ST(&c->done, true);
		return NULL;
	}
	if (pfd[0] >= 0) {
		char buf[4096];

		for (;;) {
			ssize_t k = read(pfd[0], buf, sizeof(buf));

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				break;
			if (c->out.len + (size_t)k <= AB_CMD_OUTPUT_MAX)
				sbuf_putn(&c->out, buf, (size_t)k);
			else
				c->out_truncated = true;
		}
		close(pfd[0]);
	}
	{
		siginfo_t si;

		/* wait for the exit without reaping, so that the process group
		 * cannot be reused while a canceller may still signal it */
		while ((rc = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT)) < 0 &&
		       errno == EINTR)
			;
		c->t1 = time_mono_ns();
		if (rc < 0) {
			c->spawn_err = -errno;
			c->spawn_op = "waitid";
		}
		pthread_mutex_lock(&c->lock);
		c->reaped = true;
		pthread_mutex_unlock(&c->lock);
		while (waitpid(pid, &c->status, 0) < 0 && errno == EINTR)
			;
	}
	ST(&c->done, true);
	return NULL;
}

static void child_signal(struct ab_child *c, int sig)
{
	pthread_mutex_lock(&c->lock);
	if (c->pid > 0 && !c->reaped)
		kill(-c->pid, sig);
	pthread_mutex_unlock(&c->lock);
}

static void child_free(struct ab_child *c)
{
	if (!c)
		return;
	pthread_join(c->th, NULL);
	pthread_mutex_destroy(&c->lock);
	sbuf_free(&c->out);
	free(c->cmd);
	free(c->value);
	free(c);
}

static int child_spawn(struct ab_run *r, char **cause)
{
	struct ab_child *c = xcalloc(1, sizeof(*c));
	int arm = r->w[r->win].arm;
	sigset_t all, old;
	int rc;

	c->cmd = xstrdup(r->cfg.cmd);
	c->arm[0] = ab_arm_name(arm);
	c->value = xstrdup(r->cfg.value[arm]);
	c->window = r->win;
	c->want_out = r->have_re;
	c->quiet = r->cfg.cmd_quiet;
	c->have_cpus = r->cfg.have_cmd_cpus;
	c->cpus = r->cfg.cmd_cpus;
	sbuf_init(&c->out);
	pthread_mutex_init(&c->lock, NULL);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&c->th, NULL, child_main, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		pthread_mutex_destroy(&c->lock);
		sbuf_free(&c->out);
		free(c->cmd);
		free(c->value);
		free(c);
		add_line(cause, "cannot start a thread for CMD: %s", err_name(-rc));
		return -rc;
	}
	r->child = c;
	return 0;
}

/* ---- per-arm data ------------------------------------------------------------------ */

static void window_stats_values(const double *v, size_t n, struct ab_window *w)
{
	struct stats_dist d;
	struct stats_summary s;

	stats_dist_from_values(&d, v, n);
	stats_summarize(&d, &s);
	stats_dist_free(&d);
	w->samples = n;
	w->mean = s.mean;
	w->p50 = s.p50;
	w->p99 = s.p99;
	w->max = s.max;
}

/* The arm's distribution; live = include the window being measured. */
static void arm_dist(struct ab_run *r, int arm, bool live, struct stats_dist *d)
{
	if (r->source == AB_PROBE) {
		struct hist *h = xmalloc(sizeof(*h));

		if (live) {
			ab_snapshot(r, arm, h);
		} else {
			pthread_mutex_lock(&r->lock);
			*h = r->arm[arm].hist;
			pthread_mutex_unlock(&r->lock);
		}
		stats_dist_from_hist(d, h);
		free(h);
		return;
	}
	pthread_mutex_lock(&r->lock);
	stats_dist_from_values(d, r->arm[arm].val, r->arm[arm].nval);
	pthread_mutex_unlock(&r->lock);
}

void ab_snapshot(struct ab_run *r, int arm, struct hist *out)
{
	if (arm < 0 || arm >= AB_MAX_VALUES)
		arm = 0;
	pthread_mutex_lock(&r->lock);
	*out = r->arm[arm].hist;
	if (r->source == AB_PROBE && r->phase == AB_MEASURE && r->win < r->nwin &&
	    r->w[r->win].arm == arm && r->p) {
		struct hist *cur = xmalloc(sizeof(*cur));

		probe_snapshot_all(r->p, cur);
		hist_merge(out, cur);
		free(cur);
	}
	pthread_mutex_unlock(&r->lock);
}

size_t ab_windows(struct ab_run *r, struct ab_window *out, size_t cap)
{
	size_t n;

	pthread_mutex_lock(&r->lock);
	n = r->nwin > 0 && r->w ? (size_t)r->nwin : 0;
	if (out && cap && n)
		memcpy(out, r->w, (n < cap ? n : cap) * sizeof(*out));
	pthread_mutex_unlock(&r->lock);
	return n;
}

size_t ab_values(struct ab_run *r, int arm, double *out, size_t cap)
{
	size_t n;

	if (arm < 0 || arm >= AB_MAX_VALUES)
		arm = 0;
	pthread_mutex_lock(&r->lock);
	n = r->arm[arm].nval;
	if (out && cap)
		memcpy(out, r->arm[arm].val, (n < cap ? n : cap) * sizeof(double));
	pthread_mutex_unlock(&r->lock);
	return n;
}

void ab_summary(struct ab_run *r, int arm, struct stats_summary *s)
{
	struct stats_dist d;

	arm_dist(r, arm >= 0 && arm < AB_MAX_VALUES ? arm : 0, true, &d);
	stats_summarize(&d, s);
	stats_dist_free(&d);
}

void ab_status(struct ab_run *r, struct ab_status *st)
{
	uint64_t now = time_mono_ns();

	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&r->lock);
	st->phase = r->phase;
	st->win = r->win;
	st->nwin = r->nwin;
	st->arm = r->win < r->nwin && !finished_phase(r->phase) ? r->w[r->win].arm : -1;
	if ((r->phase == AB_SETTLE || r->phase == AB_MEASURE) && r->t_end > now)
		st->left_s = (double)(r->t_end - now) / 1e9;
	for (int a = 0; a < AB_MAX_VALUES; a++) {
		st->samples[a] = r->source == AB_PROBE ? r->arm[a].hist.count : r->arm[a].nval;
		st->windows[a] = r->arm[a].windows;
	}
	pthread_mutex_unlock(&r->lock);
}

/* ---- the comparison and its verdict ----------------------------------------------- */

void ab_put_num(struct sbuf *o, double v, int dec, bool sign, bool ascii)
{
	double scale = pow(10.0, dec), x = round(v * scale) / scale;

	if (isnan(v))
		sbuf_puts(o, "n/a");
	else if (x == 0.0)
		sbuf_printf(o, "%.*f", dec, 0.0);
	else if (x < 0.0)
		sbuf_printf(o, "%s%.*f", ascii ? "-" : str_minus(), dec, -x);
	else
		sbuf_printf(o, "%s%.*f", sign ? "+" : "", dec, x);
}

/* A number with a real minus sign (U+2212) and, if sign, an explicit plus. */
static void put_num(struct sbuf *o, double v, int dec, bool sign)
{
	ab_put_num(o, v, dec, sign, false);
}

static void put_unit(struct sbuf *o, const char *unit)
{
	if (unit && *unit)
		sbuf_printf(o, " %s", unit);
}

/* More decimals while a non-zero bound of an interval would print as 0 (a
 * significant [−12, −0.3] must not read [−12, 0]). */
static int bound_decimals(double lo, double hi, int dec)
{
	while (dec < 3 && ((lo != 0.0 && fabs(lo) < 0.5 * pow(10.0, -dec)) ||
			   (hi != 0.0 && fabs(hi) < 0.5 * pow(10.0, -dec))))
		dec++;
	return dec;
}

int ab_value_decimals(const struct ab_run *r, double mag)
{
	mag = fabs(mag);
	if (r->source == AB_PROBE)
		return isnan(mag) || mag >= 10 ? 0 : 1;
	return mag == 0.0 ? 0 : str_decimals(mag, 10.0);
}

int ab_diff_decimals(const struct ab_run *r, const struct stats_abba *c)
{
	double mag = fabs(c->est);

	if (!isnan(c->lo))
		mag = fmax(mag, fmax(fabs(c->lo), fabs(c->hi)));
	return bound_decimals(c->lo, c->hi, ab_value_decimals(r, mag));
}

/* "p99 +11 µs [+2, +20]" (with_ci) or "p99 +11 µs": the decimals and the
 * rounding of the text tables (ab_diff_decimals, ab_put_num). */
static void put_metric(struct sbuf *o, const struct ab_run *r, const struct stats_abba *c, int m,
		       bool with_ci)
{
	struct stats_abba e = *c;
	int dec;

	if (!with_ci)
		e.lo = e.hi = NAN;
	dec = ab_diff_decimals(r, &e);
	sbuf_printf(o, "%s ", ab_metric_name(m));
	put_num(o, c->est, dec, true);
	put_unit(o, r->unit);
	if (!with_ci)
		return;
	sbuf_puts(o, " [");
	put_num(o, c->lo, dec, true);
	sbuf_puts(o, ", ");
	put_num(o, c->hi, dec, true);
	sbuf_puts(o, "]");
}

/* "0.012", "<0.001" */
static void put_p(struct sbuf *o, double p)
{
	if (isnan(p))
		sbuf_puts(o, "n/a");
	else if (p < 0.001)
		sbuf_puts(o, "<0.001");
	else
		sbuf_printf(o, "%.3f", p);
}

void ab_family_text(const struct ab_result *res, struct sbuf *o)
{
	unsigned cmps = res->nvalues > 1 ? res->nvalues - 1 : 1;

	if (res->primary >= 0) {
		sbuf_printf(o, "primary metric %s, chosen before the run",
			    ab_metric_name(res->primary));
		if (cmps > 1)
			sbuf_printf(o, ", Holm over the %u comparisons", cmps);
		sbuf_puts(o, "; the other metrics described, not tested");
		return;
	}
	sbuf_printf(o, "Holm over %u tests (p99, p50, mean", res->family);
	if (cmps > 1)
		sbuf_printf(o, " of %u comparisons", cmps);
	sbuf_puts(o, "): at most 5% chance of any false alarm in the run");
}

static void put_max(struct sbuf *o, const struct ab_run *r, const struct ab_result *res,
		    const char *unit)
{
	sbuf_puts(o, "max ");
	put_num(o, res->max_diff, ab_value_decimals(r, res->max_diff), true);
	put_unit(o, unit);
	if (res->max_win[0] >= 0 && res->max_win[1] >= 0)
		sbuf_printf(o, " (B's in window %d, A's in window %d; one sample each, not tested)",
			    res->max_win[1] + 1, res->max_win[0] + 1);
	else
		sbuf_puts(o, " (not tested)");
}

/* Does a significant percentile call value i better (lower) than V1 (dir
 * −1), or V1 better than i (dir +1)? */
static bool called_better(const struct ab_result *res, unsigned i, int dir)
{
	for (int m = 0; m < AB_NMETRICS; m++)
		if (res->sig[i][m] && (dir < 0 ? res->cmp[i][m].est < 0 : res->cmp[i][m].est > 0))
			return true;
	return false;
}

/* "; deadlines missed: A 4218, B 8529 (B − A +357 per window [..], p 0.002;
 * B misses more: its lower percentiles alone do not make it better)" */
static void put_deadlines(struct sbuf *o, const struct ab_run *r, const struct ab_result *res,
			  unsigned i)
{
	const struct stats_abba *c = &res->missed_cmp[i];
	char ai = ab_arm_name((int)i), a0 = ab_arm_name(0);
	int more = res->missed_more[i];

	if (!res->have_missed)
		return;
	sbuf_printf(o, "; deadlines missed: %c %llu, %c %llu", a0,
		    (unsigned long long)res->missed[0], ai, (unsigned long long)res->missed[i]);
	if (!isnan(c->est)) {
		int dec = ab_diff_decimals(r, c);

		sbuf_printf(o, " (%c %s %c ", ai, str_minus(), a0);
		put_num(o, c->est, dec, true);
		sbuf_puts(o, " per window");
		if (!isnan(c->lo)) {
			sbuf_puts(o, " [");
			put_num(o, c->lo, dec, true);
			sbuf_puts(o, ", ");
			put_num(o, c->hi, dec, true);
			sbuf_puts(o, "], p ");
			put_p(o, c->p);
		}
		sbuf_puts(o, ")");
	}
	if (more > 0)
		sbuf_printf(o, "; %c misses more deadlines%s", ai,
			    called_better(res, i, -1)
				    ? ": its lower percentiles alone do not make it better"
				    : "");
	else if (more < 0)
		sbuf_printf(o, "; %c misses more deadlines%s", a0,
			    called_better(res, i, +1)
				    ? ": its lower percentiles alone do not make it better"
				    : "");
}

static void make_verdict(const struct ab_run *r, const struct ab_result *res, struct sbuf *o)
{
	const char *unit = r->unit;
	bool any = false;

	sbuf_printf(o, "%s: ", r->label);
	if (res->not_in_effect_arm >= 0) {
		const struct ab_arm *a = &r->arm[res->not_in_effect_arm];

		sbuf_printf(o,
			    "no verdict: the knob was not in effect in %u of the %u %c windows "
			    "(%s), so a difference cannot be credited to it; make the kernel obey "
			    "first (tunetop set %s=%s warns why), or A/B a knob that takes effect",
			    a->not_seen, a->windows, ab_arm_name(res->not_in_effect_arm),
			    a->effect_evidence, r->cfg.addr, a->value);
		return;
	}
	if (res->cmp_err) {
		sbuf_printf(o, "no comparison (%c arm has no samples)", res->a.n ? 'B' : 'A');
		return;
	}
	if (!res->conclusive) {
		unsigned want = AB_DEFAULT_ROUNDS > STATS_ABBA_MIN_ROUNDS ? AB_DEFAULT_ROUNDS
									  : STATS_ABBA_MIN_ROUNDS;

		sbuf_printf(o, "inconclusive: %d window%s (", res->windows,
			    res->windows == 1 ? "" : "s");
		if (res->rounds)
			sbuf_printf(o, "%u complete round%s", res->rounds,
				    res->rounds == 1 ? "" : "s");
		else
			sbuf_puts(o, "no complete round");
		sbuf_printf(o, "); a 95%% interval needs %d rounds or more (--rounds %d)",
			    STATS_ABBA_MIN_ROUNDS, STATS_ABBA_MIN_ROUNDS);
		if (res->lost)
			sbuf_printf(o,
				    "; %u window%s lost (the probe stalled; named in the report)",
				    res->lost, res->lost == 1 ? "" : "s");
		if (!res->rounds)
			return;
		if (!isnan(res->m[AB_P99].sd)) {
			double mde = stats_abba_mde(res->m[AB_P99].sd, want);

			sbuf_printf(o,
				    "; with this noise, --rounds %u would see p99 differences of ",
				    want);
			put_num(o, mde, ab_value_decimals(r, mde), false);
			put_unit(o, unit);
		}
		sbuf_puts(o, ": ");
		for (int m = 0; m < AB_NMETRICS; m++) {
			put_metric(o, r, &res->m[m], m, false);
			sbuf_puts(o, m + 1 < AB_NMETRICS ? ", " : " (estimates, not tested); ");
		}
		put_max(o, r, res, unit);
		put_deadlines(o, r, res, 1);
		return;
	}
	for (int m = 0; m < AB_NMETRICS; m++)
		any |= res->sig[1][m];
	if (res->aa)
		sbuf_printf(o, "noise floor, %d windows: %s", res->windows,
			    any ? "significant in an A/A run (a false alarm, expected in at most 1 "
				  "run in 20, or drift the ABBA order did not cancel): "
				: "no significant difference, as expected: ");
	else if (!any)
		sbuf_printf(o, "no significant difference in %d windows: ", res->windows);
	for (int m = 0; m < AB_NMETRICS; m++) {
		put_metric(o, r, &res->m[m], m, true);
		if (!res->tested[1][m])
			sbuf_puts(o, " (not tested)");
		else if (res->sig[1][m]) {
			sbuf_puts(o, " p adj ");
			put_p(o, res->p_adj[1][m]);
		} else if (any && !res->aa)
			sbuf_puts(o, " (n.s.)");
		sbuf_puts(o, m + 1 < AB_NMETRICS ? ", " : "; ");
	}
	put_max(o, r, res, unit);
	if (res->aa) {
		unsigned half = 0;

		sbuf_puts(o, "; differences under ");
		for (int m = 0; m < AB_NMETRICS; m++) {
			put_num(o, res->m[m].mde,
				ab_value_decimals(r, fmax(res->m[m].sd, res->m[m].mde)), false);
			put_unit(o, unit);
			sbuf_printf(o, " in %s%s", ab_metric_name(m),
				    m + 2 < AB_NMETRICS	  ? ", "
				    : m + 1 < AB_NMETRICS ? " and "
							  : "");
		}
		sbuf_printf(o, " cannot be seen with %u windows per arm", 2 * res->rounds);
		half = stats_abba_rounds_for(res->m[AB_P99].sd, res->m[AB_P99].mde / 2.0);
		if (half)
			sbuf_printf(o, "; %u per arm (--rounds %u) would see half of that",
				    2 * half, half);
	} else if (!any) {
		const struct stats_abba *c = &res->m[AB_P99];

		sbuf_puts(o, "; differences under ");
		put_num(o, c->mde, ab_value_decimals(r, fmax(c->sd, c->mde)), false);
		put_unit(o, unit);
		sbuf_printf(o, " in p99 cannot be seen with %u windows per arm", 2 * res->rounds);
	} else {
		sbuf_printf(o, "; %d windows", res->windows);
	}
	put_deadlines(o, r, res, 1);
	if (res->lost)
		sbuf_printf(o, "; %u window%s lost (the probe stalled; named in the report)",
			    res->lost, res->lost == 1 ? "" : "s");
	sbuf_puts(o, "; ");
	ab_family_text(res, o);
}

/* A sweep: each Vi against V1, significance after Holm–Bonferroni. */
static void make_verdict_sweep(const struct ab_run *r, const struct ab_result *res, struct sbuf *o)
{
	unsigned k = res->nvalues;
	bool any = false;

	sbuf_printf(o, "%s: %s%u values, each against %s, %d windows", r->label,
		    res->aa ? "A/A sweep (noise floor) of " : "sweep of ", k, r->cfg.value[0],
		    res->windows);
	if (res->not_in_effect_arm >= 0) {
		const struct ab_arm *a = &r->arm[res->not_in_effect_arm];

		sbuf_printf(o,
			    ": no verdict: the knob was not in effect in %u of the %u windows of "
			    "%s (%s), so a difference cannot be credited to it",
			    a->not_seen, a->windows, a->value, a->effect_evidence);
		return;
	}
	if (res->cmp_err) {
		sbuf_puts(o, ": no comparison (a value has no samples)");
		return;
	}
	if (!res->conclusive) {
		sbuf_printf(o,
			    ": inconclusive: %u complete round%s; a 95%% interval needs %d rounds "
			    "or more (--rounds %d): ",
			    res->rounds, res->rounds == 1 ? "" : "s", STATS_ABBA_MIN_ROUNDS,
			    STATS_ABBA_MIN_ROUNDS);
		for (unsigned i = 1; i < k; i++) {
			sbuf_printf(o, "%s%s ", i > 1 ? ", " : "", r->cfg.value[i]);
			put_metric(o, r, &res->cmp[i][AB_P99], AB_P99, false);
		}
		sbuf_puts(o, " (estimates, not tested)");
		return;
	}
	for (unsigned i = 1; i < k; i++)
		for (int m = 0; m < AB_NMETRICS; m++)
			any |= res->sig[i][m];
	sbuf_puts(o, " (");
	ab_family_text(res, o);
	sbuf_puts(o, ")");
	if (res->aa)
		sbuf_puts(o, any ? ": significant in an A/A run (a false alarm, or drift the "
				   "order did not cancel)"
				 : ": no significant difference, as expected");
	sbuf_puts(o, ": ");
	for (unsigned i = 1; i < k; i++) {
		bool si = false;

		for (int m = 0; m < AB_NMETRICS; m++)
			si |= res->sig[i][m];
		sbuf_printf(o, "%s%s: ", i > 1 ? "; " : "", r->cfg.value[i]);
		if (res->have_missed && res->missed_more[i])
			sbuf_printf(o, "misses %s deadlines than %s (%llu vs %llu)%s, ",
				    res->missed_more[i] > 0 ? "more" : "fewer", r->cfg.value[0],
				    (unsigned long long)res->missed[i],
				    (unsigned long long)res->missed[0],
				    called_better(res, i, res->missed_more[i] > 0 ? -1 : +1)
					    ? " (so its percentiles alone do not make it better)"
					    : "");
		if (!si) {
			int pm = ab_primary_metric(r);

			sbuf_puts(o, "no significant difference, ");
			put_metric(o, r, &res->cmp[i][pm], pm, true);
			continue;
		}
		for (int m = 0, first = 1; m < AB_NMETRICS; m++) {
			if (!res->sig[i][m])
				continue;
			sbuf_puts(o, first ? "" : ", ");
			first = 0;
			put_metric(o, r, &res->cmp[i][m], m, true);
			sbuf_puts(o, " p adj ");
			put_p(o, res->p_adj[i][m]);
		}
	}
}

void ab_family_adjust(struct ab_result *res, int primary)
{
	double p[AB_MAX_VALUES * AB_NMETRICS], adj[AB_MAX_VALUES * AB_NMETRICS];
	unsigned k = res->nvalues, n = 0;

	res->primary = primary >= 0 && primary < AB_NMETRICS ? primary : AB_PRIMARY_ALL;
	res->family = 0;
	for (unsigned i = 0; i < AB_MAX_VALUES; i++)
		for (int m = 0; m < AB_NMETRICS; m++) {
			res->tested[i][m] =
				i >= 1 && i < k && (res->primary < 0 || m == res->primary);
			res->p_adj[i][m] = NAN;
			res->sig[i][m] = false;
			if (res->tested[i][m]) {
				res->family++;
				p[n++] = res->conclusive ? res->cmp[i][m].p : NAN;
			}
		}
	stats_holm(p, adj, n);
	n = 0;
	for (unsigned i = 1; i < k; i++)
		for (int m = 0; m < AB_NMETRICS; m++) {
			if (!res->tested[i][m])
				continue;
			res->p_adj[i][m] = adj[n++];
			res->sig[i][m] = res->conclusive && res->p_adj[i][m] < AB_ALPHA;
		}
}

int ab_primary_parse(const char *s, int *out)
{
	static const struct {
		const char *name;
		int v;
	} t[] = {{"p99", AB_P99},
		 {"p50", AB_P50},
		 {"mean", AB_MEAN},
		 {"metric", AB_PRIMARY_SOURCE},
		 {"all", AB_PRIMARY_ALL}};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(s, t[i].name)) {
			*out = t[i].v;
			return 0;
		}
	return -EINVAL;
}

static void compute_result(struct ab_run *r, bool live)
{
	struct ab_result *res = &r->res;
	unsigned k = r->narms, per = 2 * k, nr;
	struct ab_window *w;
	double *x[AB_NMETRICS];
	int *arm, ndone = 0;
	struct sbuf v;

	memset(res, 0, sizeof(*res));
	res->nvalues = k;
	for (unsigned a = 0; a < k; a++) {
		struct stats_dist d;

		arm_dist(r, (int)a, live, &d);
		stats_summarize(&d, &res->arms[a]);
		stats_dist_free(&d);
		if (!res->arms[a].n)
			res->cmp_err = -EINVAL;
	}
	res->a = res->arms[0];
	res->b = res->arms[1];
	res->complete = r->phase == AB_DONE;
	res->aa = r->cfg.aa;

	/* the windows measured so far (in order: they finish one after another) */
	pthread_mutex_lock(&r->lock);
	while (ndone < r->nwin && r->w[ndone].done)
		ndone++;
	res->windows = ndone;
	nr = (unsigned)ndone / per;
	w = xcalloc((size_t)ndone + 1, sizeof(*w));
	memcpy(w, r->w, (size_t)ndone * sizeof(*w));
	pthread_mutex_unlock(&r->lock);
	for (unsigned a = 0; a < AB_MAX_VALUES; a++) {
		res->max[a] = NAN;
		res->max_win[a] = -1;
	}
	for (int i = 0; i < ndone; i++) {
		int a = w[i].arm;

		if (!isnan(w[i].max) && (res->max_win[a] < 0 || w[i].max > res->max[a])) {
			res->max[a] = w[i].max;
			res->max_win[a] = i;
		}
	}
	res->max_diff = res->max[1] - res->max[0];
	/* Vi − V1: each round's four windows of V1 and Vi, in time order (ABBA
	 * or BAAB by ab_schedule; an A/B's round is just those four) */
	arm = xcalloc(4 * (size_t)nr + 1, sizeof(int));
	for (int m = 0; m < AB_NMETRICS; m++)
		x[m] = xcalloc(4 * (size_t)nr + 1, sizeof(double));
	res->rounds = nr;
	for (unsigned i = 1; i < k; i++) {
		size_t n = 0;

		for (unsigned j = 0; j < nr * per; j++) {
			if (w[j].arm != 0 && w[j].arm != (int)i)
				continue;
			if (n >= 4 * (size_t)nr)
				break;
			arm[n] = w[j].arm ? 1 : 0;
			for (int m = 0; m < AB_NMETRICS; m++)
				x[m][n] = ab_window_metric(&w[j], m);
			n++;
		}
		for (int m = 0; m < AB_NMETRICS; m++) {
			stats_abba(x[m], arm, nr, 0, r->cfg.seed, &res->cmp[i][m]);
			/* a round with an empty window is left out */
			if (res->cmp[i][m].rounds < res->rounds)
				res->rounds = res->cmp[i][m].rounds;
		}
	}
	for (int m = 0; m < AB_NMETRICS; m++) {
		res->m[m] = res->cmp[1][m];
		if (m)
			free(x[m]);
	}
	for (unsigned a = 0; a < k; a++)
		for (int m = 0; m < AB_NMETRICS; m++) {
			double sum = 0;
			unsigned n = 0;

			for (unsigned j = 0; j < nr * per; j++)
				if (w[j].arm == (int)a && !isnan(ab_window_metric(&w[j], m))) {
					sum += ab_window_metric(&w[j], m);
					n++;
				}
			res->level[a][m] = n ? sum / n : NAN;
		}
	res->have_missed = r->source == AB_PROBE;
	for (unsigned a = 0; a < k; a++)
		res->missed[a] = r->arm[a].missed;
	for (int i = 0; i < ndone; i++)
		res->lost += w[i].lost;
	for (unsigned i = 1; i < k && res->have_missed; i++) {
		size_t n = 0;
		struct stats_abba *c = &res->missed_cmp[i];

		for (unsigned j = 0; j < nr * per && n < 4 * (size_t)nr; j++) {
			if (w[j].arm != 0 && w[j].arm != (int)i)
				continue;
			arm[n] = w[j].arm ? 1 : 0;
			x[0][n++] = w[j].lost ? NAN : (double)w[j].missed;
		}
		stats_abba(x[0], arm, nr, 0, r->cfg.seed, c);
		res->missed_more[i] = !(c->p < 0.05) ? 0 : c->est > 0 ? 1 : c->est < 0 ? -1 : 0;
	}
	free(x[0]);
	free(arm);
	free(w);
	res->conclusive = res->rounds >= STATS_ABBA_MIN_ROUNDS;
	ab_family_adjust(res,
			 r->cfg.primary == AB_PRIMARY_ALL ? AB_PRIMARY_ALL : ab_primary_metric(r));
	res->not_in_effect_arm = -1;
	for (unsigned a = 1; a <= k && res->not_in_effect_arm < 0; a++)
		if (r->arm[a % k].not_seen) /* B (V2, ...) first, A last */
			res->not_in_effect_arm = (int)(a % k);
	sbuf_init(&v);
	if (k > 2)
		make_verdict_sweep(r, res, &v);
	else
		make_verdict(r, res, &v);
	str_copy(res->verdict, sizeof(res->verdict), v.s ? v.s : "");
	sbuf_free(&v);
}

int ab_primary_metric(const struct ab_run *r)
{
	if (r->cfg.primary >= 0 && r->cfg.primary < AB_NMETRICS)
		return r->cfg.primary;
	return r->source == AB_PROBE ? AB_P99 : AB_MEAN;
}

void ab_sweep_plot(const struct ab_result *res, const char (*values)[KNOB_VALUE_MAX],
		   const char *unit, int m, int width, struct sbuf *out)
{
	double lo = INFINITY, hi = -INFINITY, base = res->level[0][m];
	int vw = 1, bar;

	for (unsigned i = 0; i < res->nvalues; i++) {
		double l = i ? base + res->cmp[i][m].est : base;
		double a = i && !isnan(res->cmp[i][m].lo) ? base + res->cmp[i][m].lo : l;
		double b = i && !isnan(res->cmp[i][m].hi) ? base + res->cmp[i][m].hi : l;
		int n = (int)strlen(values[i]);

		if (isfinite(a) && isfinite(b)) {
			lo = fmin(lo, a);
			hi = fmax(hi, b);
		}
		vw = n > vw ? n : vw;
	}
	vw = vw > 12 ? 12 : vw;
	bar = width - vw - 4;
	if (bar < 10 || !(hi >= lo)) {
		sbuf_puts(out, "(no plot: no levels yet)\n");
		return;
	}
	if (hi == lo)
		hi = lo + 1;
	for (unsigned i = 0; i < res->nvalues; i++) {
		char line[256];
		double l = i ? base + res->cmp[i][m].est : base;
		double a = i && !isnan(res->cmp[i][m].lo) ? base + res->cmp[i][m].lo : l;
		double b = i && !isnan(res->cmp[i][m].hi) ? base + res->cmp[i][m].hi : l;
		int n = bar < (int)sizeof(line) - 1 ? bar : (int)sizeof(line) - 1;
		int pa, pb, pl;

		memset(line, ' ', (size_t)n);
		line[n] = '\0';
		if (isfinite(l)) {
			pa = (int)lround((a - lo) / (hi - lo) * (n - 1));
			pb = (int)lround((b - lo) / (hi - lo) * (n - 1));
			pl = (int)lround((l - lo) / (hi - lo) * (n - 1));
			for (int x = pa; x <= pb && x < n; x++)
				if (x >= 0)
					line[x] = '-';
			if (pa >= 0 && pa < n && pb > pa)
				line[pa] = '[';
			if (pb >= 0 && pb < n && pb > pa)
				line[pb] = ']';
			if (pl >= 0 && pl < n)
				line[pl] = i && res->sig[i][m] ? '*' : 'o';
		}
		sbuf_printf(out, "%-*.*s |%s|\n", vw, vw, values[i], line);
	}
	sbuf_printf(out, "%-*s  %.4g .. %.4g %s (%s; o = level, * = differs from %s after Holm)\n",
		    vw, "", lo, hi, unit, ab_metric_name(m), values[0]);
}

const struct ab_result *ab_result(struct ab_run *r)
{
	if (!finished_phase(r->phase))
		compute_result(r, true);
	return &r->res;
}

/* ---- start ------------------------------------------------------------------------- */

/* A failure to start threads is not a usage error: keep -EINVAL & co. (exit
 * 2 by knob_exit_code) for bad knobs and values only. */
static int runtime_err(int e)
{
	return e == -EINVAL || e == -ENOENT || e == -ERANGE ? -EIO : e;
}

int ab_start(struct ab_run *r, struct knob_ctx *ctx, const struct ab_cfg *cfg, char **cause)
{
	char why[512];
	struct knob_ref *refs = NULL;
	size_t nrefs = 0;
	char *c = NULL;
	const char *rowhy = NULL;
	bool same;
	int e;

	memset(r, 0, sizeof(*r));
	free(*cause);
	*cause = NULL;
	pthread_mutex_init(&r->lock, NULL);
	sbuf_init(&r->notes);
	sbuf_init(&r->restore_report);
	r->cfg = *cfg;
	r->cfg.cmd = r->own_cmd = cfg->cmd ? xstrdup(cfg->cmd) : NULL;
	r->cfg.metric = r->own_metric = cfg->metric ? xstrdup(cfg->metric) : NULL;
	r->cfg.load = r->own_load = cfg->load ? xstrdup(cfg->load) : NULL;
	r->cfg.metric_file = r->own_metric_file =
		cfg->metric_file ? xstrdup(cfg->metric_file) : NULL;
	r->source = cfg->cmd ? AB_CMD : cfg->metric_file ? AB_FILE : AB_PROBE;
	str_copy(r->unit_buf, sizeof(r->unit_buf),
		 r->source == AB_PROBE ? (str_utf8_locale() ? "\u00b5s" : "us") : "ms");
	r->unit = r->unit_buf;
	r->phase = AB_IDLE;
	for (int a = 0; a < AB_MAX_VALUES; a++)
		hist_init(&r->arm[a].hist);
	r->narms = cfg->nvalues > 2 ? cfg->nvalues : 2;

	e = ab_cfg_check(&r->cfg, why, sizeof(why));
	if (e) {
		*cause = xstrdup(why);
		return e;
	}
	if (knob_ctx_readonly(ctx, &rowhy)) {
		*cause = xasprintf("read-only: %s", rowhy ? rowhy : "no journal");
		return -EROFS;
	}
	e = knob_expand(ctx, cfg->addr, 0, &refs, &nrefs, &c);
	if (e || !nrefs) {
		*cause = c ? c : xasprintf("%s: matches no knob", cfg->addr);
		free(refs);
		return e ? e : -ENOENT;
	}
	free(c);
	e = check_pair(ctx, refs, nrefs, cfg->value[0], cfg->value[1], &same, cause);
	if (!e && r->narms > 2) {
		for (unsigned i = 1; !e && i < r->narms; i++)
			for (unsigned j = 0; !e && j < i; j++) {
				bool sm;

				e = check_pair(ctx, refs, nrefs, cfg->value[j], cfg->value[i], &sm,
					       cause);
				if (!e && sm != cfg->aa) {
					*cause = xasprintf("%s: %s (%s, %s)", cfg->addr,
							   cfg->aa ? "an A/A sweep needs one value"
								   : "a sweep's values must differ",
							   cfg->value[j], cfg->value[i]);
					e = -EINVAL;
				}
			}
		same = cfg->aa;
	}
	if (!e && !same && cfg->aa) {
		*cause = xasprintf("%s: an A/A run needs A = B", cfg->addr);
		e = -EINVAL;
	}
	if (!e && same && !cfg->aa) {
		*cause = xasprintf("%s: A and B are the same value", cfg->addr);
		e = -EINVAL;
	}
	for (size_t i = 0; !e && i < nrefs; i++) {
		char cur[KNOB_VALUE_MAX];

		if (!knob_writable(ctx, &refs[i])) {
			char file[TT_PATH_MAX];

			knob_ref_path(ctx, &refs[i], file, sizeof(file));
			*cause = xasprintf("%s: EACCES from %s: not writable%s", refs[i].addr, file,
					   geteuid() ? " (needs root)" : "");
			e = -EACCES;
			break;
		}
		if (knob_read(ctx, &refs[i], cur, sizeof(cur)) != 0)
			str_copy(cur, sizeof(cur), "n/a");
		if (i == 0) {
			str_copy(r->original, sizeof(r->original), cur);
		} else {
			/* mixed: list the distinct values */
			char copy[KNOB_VALUE_MAX], *tok, *save = NULL;
			bool seen = false;

			str_copy(copy, sizeof(copy), r->original);
			for (tok = strtok_r(copy, " ", &save); tok;
			     tok = strtok_r(NULL, " ", &save))
				seen |= !strcmp(tok, cur);
			if (!seen && strlen(r->original) + strlen(cur) + 2 < sizeof(r->original)) {
				size_t l = strlen(r->original);

				r->original[l] = ' ';
				str_copy(r->original + l + 1, sizeof(r->original) - l - 1, cur);
			}
		}
	}
	r->nknobs = nrefs;
	free(refs);
	if (e)
		return e;

	if (r->source == AB_CMD) {
		struct sigaction sa;

		/* an inherited SIGCHLD "ignore" makes the kernel reap CMD behind
		 * our back, and waitpid could not report its status */
		if (sigaction(SIGCHLD, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			signal(SIGCHLD, SIG_DFL);
	}
	if (r->cfg.metric) {
		regcomp(&r->re, r->cfg.metric, REG_EXTENDED | REG_NEWLINE);
		r->have_re = true;
		metric_unit(r->cfg.metric, r->unit_buf, sizeof(r->unit_buf));
	}
	if (r->source == AB_FILE) {
		struct logfollow_cfg lc;

		logfollow_cfg_init(&lc); /* from the end: only lines written from now on */
		r->have_follow = true;
		e = logfollow_open(&r->follow, r->cfg.metric_file, &lc);
		if (e) {
			*cause = xstrdup(logfollow_why(&r->follow));
			return runtime_err(e); /* not a usage error: exit 1 */
		}
	}
	r->nwin = 2 * (int)r->narms * (int)cfg->rounds;
	r->w = xcalloc((size_t)r->nwin, sizeof(*r->w));
	{
		int *sched = xcalloc((size_t)r->nwin, sizeof(int));

		if (r->narms == 2)
			for (int i = 0; i < r->nwin; i++)
				sched[i] = ab_window_arm(i);
		else
			ab_schedule(r->narms, cfg->rounds, cfg->seed, sched);
		for (int i = 0; i < r->nwin; i++)
			r->w[i].arm = sched[i];
		free(sched);
	}
	for (unsigned a = 0; a < r->narms; a++)
		str_copy(r->arm[a].value, sizeof(r->arm[a].value), cfg->value[a]);
	if (r->narms > 2)
		snprintf(r->label, sizeof(r->label), "%s", cfg->addr);
	else
		snprintf(r->label, sizeof(r->label), "%s=%s%s", cfg->addr, cfg->value[1],
			 cfg->aa ? " (A/A)" : "");

	if (r->cfg.load) {
		load_parse(r->cfg.load, &r->load_spec, why, sizeof(why));
		e = load_start(&r->load, &r->load_spec, why, sizeof(why));
		if (e) {
			*cause = xasprintf("--load %s: %s", r->cfg.load, why);
			return runtime_err(e);
		}
		r->have_load = true;
	}
	if (r->source == AB_PROBE && !cfg->sim_probe) {
		if (cfg->probe_ext) {
			r->p = cfg->probe_ext;
		} else {
			e = probe_start(&r->probe, &cfg->probe, why, sizeof(why));
			r->own_probe = true;
			if (e) {
				*cause = xasprintf("probe: %s", why);
				load_stop(&r->load);
				return runtime_err(e);
			}
			r->p = &r->probe;
		}
	}
	r->ctx = ctx;
	if (cfg->restore == AB_RESTORE_OWN) {
		struct knob_jentry *je = NULL;
		size_t nje = 0;

		if (knob_journal_list(ctx, &je, &nje, NULL, NULL) == 0)
			for (size_t i = 0; i < nje; i++)
				if (je[i].id > r->jwater)
					r->jwater = je[i].id;
		knob_journal_free(je, nje);
	}
	r->start_ns = time_mono_ns();
	r->phase = AB_SWITCH;
	return 0;
}

/* ---- the state machine ---------------------------------------------------------------- */

static void set_phase(struct ab_run *r, enum ab_phase ph)
{
	pthread_mutex_lock(&r->lock);
	r->phase = ph;
	pthread_mutex_unlock(&r->lock);
}

static void stop_measuring(struct ab_run *r)
{
	if (r->own_probe)
		probe_stop(&r->probe);
	if (r->have_load)
		load_stop(&r->load);
}

static void finish(struct ab_run *r, enum ab_phase ph)
{
	do_restore(r);
	stop_measuring(r);
	r->end_ns = time_mono_ns();
	set_phase(r, ph);
	compute_result(r, false);
}

static void kill_child_now(struct ab_run *r)
{
	if (!r->child)
		return;
	child_signal(r->child, SIGKILL);
	child_free(r->child);
	r->child = NULL;
}

static void fail(struct ab_run *r, int err, char *cause)
{
	r->err = err ? err : -EIO;
	r->err_cause = cause ? cause : xstrdup(err_name(r->err));
	kill_child_now(r);
	finish(r, AB_FAILED);
}

/* Start CMD for the window; false when it could not be (the run failed). */
static bool spawn_or_fail(struct ab_run *r)
{
	char *cause = NULL;
	int e = child_spawn(r, &cause);

	if (e)
		fail(r, e, cause);
	return !e;
}

static void where(struct ab_run *r, char *buf, size_t cap)
{
	int arm = r->w[r->win].arm;

	snprintf(buf, cap, "window %d/%d, %c=%s", r->win + 1, r->nwin, ab_arm_name(arm),
		 r->cfg.value[arm]);
}

static int do_switch(struct ab_run *r)
{
	int arm = r->w[r->win].arm;
	char *assign = xasprintf("%s=%s", r->cfg.addr, r->cfg.value[arm]);
	const char *a[1] = {assign};
	struct sbuf rep;
	char *cause = NULL;
	int e;

	sbuf_init(&rep);
	e = knob_set_many(r->ctx, a, NULL, 1, KNOB_SCOPED | KNOB_ALLOW_LEASE | KNOB_QUIET, &rep,
			  &cause);
	take_report(r, &rep);
	sbuf_free(&rep);
	free(assign);
	if (r->cfg.restore == AB_RESTORE_OWN)
		collect_txns(r);
	if (e) {
		char w[KNOB_VALUE_MAX + 64];
		char *full;

		where(r, w, sizeof(w));
		full = xasprintf("%s: cannot set %s=%s:\n%s", w, r->cfg.addr, r->cfg.value[arm],
				 cause ? cause : err_name(e));
		free(cause);
		fail(r, e, full);
		return e;
	}
	free(cause);
	return 0;
}

/* The effect of the knob over window i (the one that just ended). */
static void end_window_effect_at(struct ab_run *r, int i)
{
	struct ab_window *w = &r->w[i];
	struct ab_arm *arm = &r->arm[w->arm];
	const char *ev = "";

	w->effect = KNOB_EFFECT_UNKNOWN;
	if (!r->watch)
		return;
	knob_effect_end(r->ctx, r->watch, KNOB_QUIET | KNOB_EFFECT_NO_RECORD, NULL);
	w->effect = knob_effect_worst(r->watch, NULL, &ev);
	if (w->effect == KNOB_EFFECT_NOT_SEEN && !arm->not_seen++)
		str_copy(arm->effect_evidence, sizeof(arm->effect_evidence), ev);
	knob_effect_free(r->watch);
	r->watch = NULL;
}

static void end_window_effect(struct ab_run *r)
{
	end_window_effect_at(r, r->win);
}

/* Power over a window: the sensors at its start, the energy between. */
static void window_power_begin(struct ab_run *r)
{
	power_free(&r->pw_start);
	power_read(knob_ctx_root(r->ctx), &r->pw_start);
}

static void window_power_end(struct ab_run *r, struct ab_window *w, struct ab_arm *arm,
			     uint64_t end_ns)
{
	struct power_info now;

	w->watts = NAN;
	if (!r->pw_start.n || end_ns <= w->start_ns)
		return;
	power_read(knob_ctx_root(r->ctx), &now);
	power_derive(&now, &r->pw_start, (double)(end_ns - w->start_ns) / 1e9);
	w->watts = power_total_w(&now);
	power_free(&now);
	if (isfinite(w->watts)) {
		arm->watts_sum += w->watts;
		arm->watts_n++;
	}
}

double ab_arm_watts(const struct ab_run *r, int arm)
{
	const struct ab_arm *a = &r->arm[arm];

	return a->watts_n ? a->watts_sum / a->watts_n : NAN;
}

uint64_t ab_stall_timeout_ns(uint64_t interval_us, double late_us)
{
	double ms = isfinite(late_us) && late_us > 0 ? 3.0 * late_us / 1000.0 : 0.0;

	if (ms < AB_STALL_MIN_MS)
		ms = AB_STALL_MIN_MS;
	if (ms > AB_STALL_MAX_MS)
		ms = AB_STALL_MAX_MS;
	return 2 * interval_us * 1000u + (uint64_t)(ms * 1e6);
}

/* The window r->win is lost (the probe stalled): done without values, named
 * in a note and in the report; too many in a row end the run. Returns false
 * when the run failed. */
static bool lose_window(struct ab_run *r, const char *why)
{
	struct ab_window *w = &r->w[r->win];
	struct ab_arm *arm = &r->arm[w->arm];
	uint64_t now = time_mono_ns();
	char line[320];

	knob_effect_free(r->watch);
	r->watch = NULL;
	pthread_mutex_lock(&r->lock);
	if (!w->start_ns)
		w->start_ns = now;
	w->end_ns = now;
	w->samples = 0;
	w->mean = w->p50 = w->p99 = w->max = w->watts = NAN;
	w->missed = 0;
	w->lost = true;
	str_copy(w->lost_why, sizeof(w->lost_why), why);
	w->done = true;
	arm->lost++;
	r->lost++;
	snprintf(line, sizeof(line), "window %d/%d (%c=%s) lost: %s; the run goes on without it\n",
		 r->win + 1, r->nwin, ab_arm_name(w->arm), r->cfg.value[w->arm], why);
	sbuf_puts(&r->notes, line);
	r->win++;
	r->phase = AB_SWITCH;
	pthread_mutex_unlock(&r->lock);
	if (++r->lost_in_row >= AB_LOST_IN_ROW_MAX) {
		fail(r, -ETIMEDOUT,
		     xasprintf("the probe stalled in %u windows in a row (the last: %s); the "
			       "windows measured so far are reported",
			       r->lost_in_row, why));
		return false;
	}
	return true;
}

/* The run's stall timeout now: scaled with the lateness seen so far. */
static uint64_t stall_timeout(struct ab_run *r)
{
	r->stall_timeout_ns = ab_stall_timeout_ns(r->p->cfg.interval_us, r->late_max_us);
	if (r->stall_timeout_ns > r->stall_timeout_max_ns)
		r->stall_timeout_max_ns = r->stall_timeout_ns;
	return r->stall_timeout_ns;
}

/* A probe window (live or simulated) is done: its histogram h (taken and
 * freed) goes into the window and its arm, with h's p99 and max. */
static void window_take_hist(struct ab_run *r, struct ab_window *w, struct ab_arm *arm,
			     struct hist *h, double p99, double max)
{
	pthread_mutex_lock(&r->lock);
	w->end_ns = time_mono_ns();
	hist_merge(&arm->hist, h);
	w->samples = h->count;
	w->mean = hist_mean_us(h);
	w->p50 = hist_percentile_us(h, 0.50);
	w->p99 = p99;
	w->max = max;
	w->missed = h->overflows;
	arm->missed += h->overflows;
	w->done = true;
	arm->windows++;
	r->win++;
	pthread_mutex_unlock(&r->lock);
	r->lost_in_row = 0;
	free(h);
}

/* The window of a simulated probe (ab_cfg.sim_probe): its samples, no stall
 * (the simulation has no thread to freeze); takes h. */
static void end_window_sim(struct ab_run *r, struct hist *h)
{
	struct ab_window *w = &r->w[r->win];
	struct ab_arm *arm = &r->arm[w->arm];
	int e;

	hist_init(h);
	e = r->cfg.sim_probe(r->cfg.sim_ctx, r->cfg.window_s, h);
	if (e) {
		free(h);
		fail(r, e, xasprintf("simulated probe: %s", err_name(e)));
		return;
	}
	/* the simulated window lasted window_s of the world's time */
	window_power_end(r, w, arm, w->start_ns + (uint64_t)(r->cfg.window_s * 1e9));
	window_take_hist(r, w, arm, h, hist_percentile_us(h, 0.99),
			 h->count ? hist_max_us(h) : NAN);
}

static void end_window_probe(struct ab_run *r)
{
	struct hist *h = xmalloc(sizeof(*h));
	struct ab_window *w = &r->w[r->win];
	struct ab_arm *arm = &r->arm[w->arm];
	uint64_t limit, stall;
	double p99, max;
	int cpu = -1;
	char why[160] = "";

	if (!r->p) {
		end_window_sim(r, h);
		return;
	}
	probe_snapshot_all(r->p, h);
	/* the routine lateness: the largest window p99 so far, this one's too
	 * (a stall is one gap, far beyond its window's p99) */
	p99 = hist_percentile_us(h, 0.99);
	max = h->count ? hist_max_us(h) : NAN;
	if (isfinite(p99) && p99 > r->late_max_us)
		r->late_max_us = p99;
	limit = stall_timeout(r);
	stall = probe_stalled_ns(r->p, &cpu);
	if (stall > limit)
		snprintf(why, sizeof(why),
			 "the probe on CPU %d had not woken for %llu ms at the window's end "
			 "(limit %llu ms: frozen or starved)",
			 cpu, (unsigned long long)(stall / 1000000u),
			 (unsigned long long)(limit / 1000000u));
	else if (isfinite(max) && max * 1000.0 > (double)limit)
		snprintf(why, sizeof(why),
			 "the probe did not wake for %.0f ms in the window (limit %llu ms: frozen "
			 "or starved)",
			 max / 1000.0, (unsigned long long)(limit / 1000000u));
	if (*why) {
		free(h);
		lose_window(r, why);
		return;
	}
	window_power_end(r, w, arm, time_mono_ns());
	window_take_hist(r, w, arm, h, p99, max);
}

static void end_window_cmd(struct ab_run *r)
{
	struct ab_window *w = &r->w[r->win];
	struct ab_arm *arm = &r->arm[w->arm];

	window_power_end(r, w, arm, time_mono_ns());
	pthread_mutex_lock(&r->lock);
	w->end_ns = time_mono_ns();
	w->val_to = arm->nval;
	window_stats_values(arm->val + w->val_from, w->val_to - w->val_from, w);
	w->done = true;
	arm->windows++;
	r->win++;
	pthread_mutex_unlock(&r->lock);
}

/* A CMD run finished: its sample(s), or an error (returns -errno, cause set). */
static int take_child(struct ab_run *r, struct ab_child *c, char **cause)
{
	struct ab_arm *arm = &r->arm[r->w[r->win].arm];
	char w[KNOB_VALUE_MAX + 64];
	double *v = NULL;
	size_t nv = 0, capv = 0;

	where(r, w, sizeof(w));
	if (c->spawn_err) {
		*cause = xasprintf("%s: %s: %s", w, c->spawn_op, err_name(c->spawn_err));
		return c->spawn_err;
	}
	if (WIFSIGNALED(c->status)) {
		*cause = xasprintf("%s: CMD killed by %s", w, strsignal(WTERMSIG(c->status)));
		return -ECHILD;
	}
	if (WIFEXITED(c->status) && WEXITSTATUS(c->status)) {
		*cause = xasprintf("%s: CMD exited with status %d (%s)", w, WEXITSTATUS(c->status),
				   r->cfg.cmd);
		return -ECHILD;
	}
	if (!r->have_re) {
		double ms = (double)(c->t1 - c->t0) / 1e6;

		v = xgrow(v, &capv, 1, sizeof(*v));
		v[nv++] = ms;
	} else {
		char empty[1] = "";
		char *out = c->out.s ? c->out.s : empty;
		char *save = NULL;

		for (char *line = strtok_r(out, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			regmatch_t m[2];
			char num[64];
			size_t len;
			double x;

			if (regexec(&r->re, line, 2, m, 0) || m[1].rm_so < 0)
				continue;
			len = (size_t)(m[1].rm_eo - m[1].rm_so);
			if (len >= sizeof(num))
				len = sizeof(num) - 1;
			memcpy(num, line + m[1].rm_so, len);
			num[len] = '\0';
			if (str_to_double(num, &x) || !isfinite(x)) {
				*cause = xasprintf("%s: --metric captured '%s' from '%s': not a "
						   "number",
						   w, num, line);
				free(v);
				return -EINVAL;
			}
			v = xgrow(v, &capv, nv + 1, sizeof(*v));
			v[nv++] = x;
		}
		if (!nv) {
			*cause =
				xasprintf("%s: --metric '%s' matched nothing in CMD's output%s", w,
					  r->cfg.metric, c->out.len ? "" : " (it printed nothing)");
			return -ENOMSG;
		}
	}
	pthread_mutex_lock(&r->lock);
	arm->val = xgrow(arm->val, &arm->capval, arm->nval + nv, sizeof(double));
	memcpy(arm->val + arm->nval, v, nv * sizeof(double));
	arm->nval += nv;
	arm->cmd_runs++;
	r->w[r->win].cmd_runs++;
	pthread_mutex_unlock(&r->lock);
	free(v);
	return 0;
}

/* AB_FILE: one new line of the log. Its --metric numbers count for the
 * window being measured; outside a measuring part (switch, settle) the line
 * is dropped, as probe samples are. */
static void file_line(void *arg, const char *line, size_t len)
{
	struct ab_run *r = arg;
	struct ab_arm *arm;
	double x;
	int rc;

	(void)len;
	if (r->phase != AB_MEASURE || r->win >= r->nwin)
		return;
	rc = appmetric_parse(&r->re, line, &x);
	if (rc < 0)
		r->file_unparsed++;
	if (rc <= 0)
		return;
	arm = &r->arm[r->w[r->win].arm];
	pthread_mutex_lock(&r->lock);
	arm->val = xgrow(arm->val, &arm->capval, arm->nval + 1, sizeof(double));
	arm->val[arm->nval++] = x;
	pthread_mutex_unlock(&r->lock);
}

/* AB_FILE: read what the log gained; false (and AB_FAILED) when it is gone. */
static bool file_poll(struct ab_run *r)
{
	int e;

	if (r->source != AB_FILE)
		return true;
	e = logfollow_poll(&r->follow, file_line, r);
	if (e) {
		fail(r, e, xstrdup(logfollow_why(&r->follow)));
		return false;
	}
	return true;
}

static int ms_until(uint64_t t, uint64_t now)
{
	uint64_t d;

	if (t <= now)
		return 0;
	d = (t - now + 999999) / 1000000;
	return d > MAX_WAIT_MS ? MAX_WAIT_MS : (int)d;
}

/* Samples of a window that did not finish are not counted (as with the
 * probe, whose unfinished window is never merged). */
static void discard_open_window(struct ab_run *r)
{
	if (r->source == AB_PROBE || r->win >= r->nwin || r->phase != AB_MEASURE)
		return;
	pthread_mutex_lock(&r->lock);
	r->arm[r->w[r->win].arm].nval = r->w[r->win].val_from;
	r->arm[r->w[r->win].arm].cmd_runs -= r->w[r->win].cmd_runs;
	pthread_mutex_unlock(&r->lock);
}

void ab_cancel(struct ab_run *r)
{
	ST(&r->cancel_req, true);
}

bool ab_finished(const struct ab_run *r)
{
	return finished_phase(LD(&r->phase)) || r->phase == AB_IDLE;
}

enum ab_phase ab_poll(struct ab_run *r, int *next_ms)
{
	int dummy;

	if (!next_ms)
		next_ms = &dummy;
	*next_ms = MAX_WAIT_MS;
	if (ab_finished(r))
		return r->phase;
	if (LD(&r->cancel_req) && !r->cancelling) {
		r->cancelling = true;
		do_restore(r);
		if (r->child) {
			child_signal(r->child, SIGTERM);
			r->kill_at = time_mono_ns() + KILL_GRACE_NS;
		}
	}
	if (r->cancelling) {
		if (r->child) {
			if (!LD(&r->child->done)) {
				if (time_mono_ns() >= r->kill_at && !r->child->killed) {
					r->child->killed = true;
					child_signal(r->child, SIGKILL);
				}
				*next_ms = 10;
				return r->phase;
			}
			child_free(r->child);
			r->child = NULL;
		}
		discard_open_window(r);
		finish(r, AB_CANCELLED);
		return r->phase;
	}
	if (r->p) {
		int cpu = -1;
		const char *op = "";
		int e = probe_error(r->p, &cpu, &op);

		if (e) {
			fail(r, e, xasprintf("probe on CPU %d: %s: %s", cpu, op, err_name(e)));
			return r->phase;
		}
	}
	if (!file_poll(r))
		return r->phase;
	for (;;) {
		uint64_t now = time_mono_ns();

		switch (r->phase) {
		case AB_SWITCH:
			if (r->win >= r->nwin) {
				finish(r, AB_DONE);
				return r->phase;
			}
			if (do_switch(r))
				return r->phase;
			if (r->cfg.sim_probe && r->source == AB_PROBE) /* simulated: no wait */
				r->cfg.sim_step(r->cfg.sim_ctx, r->cfg.settle_ms / 1000.0);
			now = time_mono_ns();
			pthread_mutex_lock(&r->lock);
			r->t_end = now + (r->cfg.sim_probe && r->source == AB_PROBE
						  ? 0
						  : (uint64_t)r->cfg.settle_ms * 1000000u);
			r->phase = AB_SETTLE;
			pthread_mutex_unlock(&r->lock);
			continue;
		case AB_SETTLE:
			if (now < r->t_end) {
				*next_ms = ms_until(r->t_end, now);
				return r->phase;
			}
			/* is the knob in effect while this window measures? Its
			 * reads (and the power sensors') happen before the probe's
			 * reset and after its snapshot, outside the measured part,
			 * alike for every value (issue 30: an A/A must be null by
			 * construction) */
			knob_effect_free(r->watch);
			r->watch = knob_effect_begin_addr(r->ctx, r->cfg.addr,
							  r->cfg.value[r->w[r->win].arm]);
			window_power_begin(r);
			if (r->source == AB_PROBE && r->p) {
				uint64_t limit = stall_timeout(r);
				int cpu = -1, e = probe_reset_wait(r->p, limit, &cpu);

				if (e == -ETIMEDOUT) {
					char why[160];

					snprintf(why, sizeof(why),
						 "the probe on CPU %d did not answer the reset "
						 "after the settle time within %llu ms (frozen or "
						 "starved)",
						 cpu, (unsigned long long)(limit / 1000000u));
					if (!lose_window(r, why))
						return r->phase;
					continue;
				}
				if (e) {
					fail(r, e,
					     xasprintf("probe: reset after the settle time: %s",
						       err_name(e)));
					return r->phase;
				}
			}
			if (!file_poll(r)) /* the settle time's lines are dropped */
				return r->phase;
			now = time_mono_ns();
			pthread_mutex_lock(&r->lock);
			r->w[r->win].start_ns = now;
			r->w[r->win].val_from = r->arm[r->w[r->win].arm].nval;
			r->t_end = now + (r->cfg.sim_probe && r->source == AB_PROBE
						  ? 0
						  : (uint64_t)(r->cfg.window_s * 1e9));
			r->phase = AB_MEASURE;
			pthread_mutex_unlock(&r->lock);
			if (r->source == AB_CMD && !spawn_or_fail(r))
				return r->phase;
			continue;
		case AB_MEASURE:
			if (r->source == AB_PROBE) {
				if (now < r->t_end) {
					*next_ms = ms_until(r->t_end, now);
					return r->phase;
				}
				{
					int i = r->win;

					end_window_probe(r);	      /* the snapshot first */
					if (finished_phase(r->phase)) /* it failed */
						return r->phase;
					end_window_effect_at(r, i);
				}
				set_phase(r, AB_SWITCH);
				continue;
			}
			if (r->source == AB_FILE) {
				if (now < r->t_end) {
					int ms = ms_until(r->t_end, now);

					*next_ms = ms < FILE_POLL_MS ? ms : FILE_POLL_MS;
					return r->phase;
				}
				if (!file_poll(r)) /* lines up to the window's end */
					return r->phase;
				end_window_effect(r);
				end_window_cmd(r);
				set_phase(r, AB_SWITCH);
				continue;
			}
			if (r->child) {
				char *cause = NULL;
				int e;

				if (!LD(&r->child->done)) {
					*next_ms = CMD_POLL_MS;
					return r->phase;
				}
				e = take_child(r, r->child, &cause);
				child_free(r->child);
				r->child = NULL;
				if (e) {
					fail(r, e, cause);
					return r->phase;
				}
			}
			now = time_mono_ns();
			if (now < r->t_end) { /* time left in the window: run it again */
				if (!spawn_or_fail(r))
					return r->phase;
				continue;
			}
			end_window_effect(r);
			end_window_cmd(r);
			set_phase(r, AB_SWITCH);
			continue;
		default: return r->phase;
		}
	}
}

void ab_free(struct ab_run *r)
{
	if (r->phase != AB_IDLE && !finished_phase(r->phase)) {
		ab_cancel(r);
		while (!ab_finished(r)) {
			int ms = 10;

			ab_poll(r, &ms);
			if (!ab_finished(r))
				time_sleep_ns((uint64_t)(ms ? ms : 1) * 1000000u);
		}
	}
	kill_child_now(r);
	stop_measuring(r);
	knob_effect_free(r->watch);
	r->watch = NULL;
	if (r->own_probe)
		probe_free(&r->probe);
	r->own_probe = false;
	if (r->have_re)
		regfree(&r->re);
	r->have_re = false;
	if (r->have_follow)
		logfollow_close(&r->follow);
	r->have_follow = false;
	load_spec_free(&r->load_spec);
	for (int a = 0; a < AB_MAX_VALUES; a++) {
		free(r->arm[a].val);
		r->arm[a].val = NULL;
	}
	free(r->w);
	r->w = NULL;
	power_free(&r->pw_start);
	free(r->txn);
	r->txn = NULL;
	free(r->err_cause);
	r->err_cause = NULL;
	free(r->restore_cause);
	r->restore_cause = NULL;
	sbuf_free(&r->notes);
	sbuf_free(&r->restore_report);
	free(r->own_cmd);
	free(r->own_metric);
	free(r->own_load);
	free(r->own_metric_file);
	r->own_cmd = r->own_metric = r->own_load = r->own_metric_file = NULL;
	r->cfg.cmd = r->cfg.metric = r->cfg.load = r->cfg.metric_file = NULL;
	pthread_mutex_destroy(&r->lock);
	r->phase = AB_IDLE;
}
