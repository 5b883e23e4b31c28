/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Explain: finding an entry for an address or a metric, resolving its file
 * templates and knobs on a root, and rendering it as wrapped text. The
 * entries themselves are data in explain_table.c. */
#include "model/explain.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/xalloc.h"
#include "knob/knob.h"
#include "model/explain_int.h"

#define MAX_SEGS	 16
#define MAX_GLOB_MATCHES 256
#define MAX_KNOBS	 256
#define SHOW_MATCHES	 8
#define SHELL_KNOB_LINES 4

size_t explain_count(void)
{
	return explain_table_len;
}

const struct explain_entry *explain_at(size_t i)
{
	return i < explain_table_len ? &explain_table[i] : NULL;
}

/* ---- matching --------------------------------------------------------------- */

static size_t split(char *s, char sep, char **seg, size_t max)
{
	size_t n = 0;
	char *p = s;

	for (;;) {
		char *q = strchr(p, sep);

		if (n == max)
			return max + 1; /* too many */
		seg[n++] = p;
		if (!q)
			break;
		*q = '\0';
		p = q + 1;
	}
	return n;
}

/* Score: literal segments matched, the last one counting double (the leaf
 * says what a knob is). 0 = no match; an all-wildcard match scores 1. */
int explain_pattern_match(const char *pattern, const char *addr)
{
	char pb[256], ab[256];
	char *ps[MAX_SEGS], *as[MAX_SEGS];
	size_t np, na;
	int score = 1;

	if (!pattern || !addr || strlen(pattern) >= sizeof(pb) || strlen(addr) >= sizeof(ab))
		return 0;
	str_copy(pb, sizeof(pb), pattern);
	str_copy(ab, sizeof(ab), addr);
	np = split(pb, '/', ps, MAX_SEGS);
	na = split(ab, '/', as, MAX_SEGS);
	if (np != na || np > MAX_SEGS)
		return 0;
	for (size_t i = 0; i < np; i++) {
		if (!as[i][0])
			return 0;
		if (!strcmp(ps[i], "*"))
			continue;
		if (fnmatch(ps[i], as[i], FNM_CASEFOLD) != 0)
			return 0;
		if (!strchr(ps[i], '*'))
			score += i + 1 == np ? 2 : 1;
	}
	return score;
}

/* Best score of one entry for the query: 1000 for an exact key or alias,
 * pattern scores x 10 for addresses. *via receives the pattern that
 * matched (for captures). */
static int entry_score(const struct explain_entry *e, const char *q, char *via, size_t cap)
{
	int best = 0;
	const char *a = e->aliases ? e->aliases : "";
	bool q_addr = strchr(q, '/') != NULL;

	if (!strcasecmp(e->key, q)) {
		str_copy(via, cap, e->key);
		return 1000;
	}
	if (q_addr && strchr(e->key, '/')) {
		int s = explain_pattern_match(e->key, q) * 10;

		if (s > best) {
			best = s + 1; /* the key itself wins ties with its aliases */
			str_copy(via, cap, e->key);
		}
	}
	while (*a) {
		char w[160];
		size_t n = strcspn(a, " ");

		if (n && n < sizeof(w)) {
			memcpy(w, a, n);
			w[n] = '\0';
			if (!strcasecmp(w, q)) {
				str_copy(via, cap, w);
				return 999;
			}
			if (q_addr && strchr(w, '/')) {
				int s = explain_pattern_match(w, q) * 10;

				if (s > best) {
					best = s;
					str_copy(via, cap, w);
				}
			}
		}
		a += n;
		while (*a == ' ')
			a++;
	}
	return best;
}

static void strip_value(const char *query, char *q, size_t cap, char *value, size_t vcap)
{
	const char *eq;

	while (*query && isspace((unsigned char)*query))
		query++;
	str_copy(q, cap, query);
	if (value && vcap)
		value[0] = '\0';
	eq = strchr(q, '=');
	if (eq) {
		if (value)
			str_copy(value, vcap, eq + 1);
		q[eq - q] = '\0';
	}
	for (size_t n = strlen(q); n && isspace((unsigned char)q[n - 1]); n--)
		q[n - 1] = '\0';
}

static const struct explain_entry *find_via(const char *query, char *via, size_t cap)
{
	char q[256];
	const struct explain_entry *best = NULL;
	int best_score = 0;

	strip_value(query, q, sizeof(q), NULL, 0);
	if (!q[0])
		return NULL;
	for (size_t i = 0; i < explain_table_len; i++) {
		char v[160] = "";
		int s = entry_score(&explain_table[i], q, v, sizeof(v));

		if (s > best_score) {
			best_score = s;
			best = &explain_table[i];
			str_copy(via, cap, v);
		}
	}
	if (best)
		return best;
	{
		const struct explain_entry *hits[2];

		if (explain_search(q, hits, 2) == 1) {
			str_copy(via, cap, hits[0]->key);
			return hits[0];
		}
	}
	return NULL;
}

const struct explain_entry *explain_find(const char *query)
{
	char via[160];

	return query ? find_via(query, via, sizeof(via)) : NULL;
}

static bool icontains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (!hay || !n)
		return false;
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return false;
}

size_t explain_search(const char *word, const struct explain_entry **out, size_t max)
{
	size_t n = 0;

	if (!word || !*word)
		return 0;
	for (size_t i = 0; i < explain_table_len; i++) {
		const struct explain_entry *e = &explain_table[i];

		if (icontains(e->key, word) || icontains(e->aliases, word) ||
		    icontains(e->title, word)) {
			if (n < max)
				out[n] = e;
			n++;
		}
	}
	return n;
}

/* ---- resolution --------------------------------------------------------------- */

/* Substitute {N} / {N:default} / {v:default} in a template. In file
 * templates an unnamed {N} without a default becomes "*". */
static void substitute(const char *tpl, const struct explain_resolved *x, bool file, char *out,
		       size_t cap)
{
	size_t o = 0;

	for (const char *p = tpl; *p && o + 1 < cap;) {
		const char *close = *p == '{' ? strchr(p, '}') : NULL;

		if (close && close - p < 64 && (isdigit((unsigned char)p[1]) || p[1] == 'v')) {
			char inner[64], *dflt;
			const char *val = NULL;

			memcpy(inner, p + 1, (size_t)(close - p - 1));
			inner[close - p - 1] = '\0';
			dflt = strchr(inner, ':');
			if (dflt)
				*dflt++ = '\0';
			if (inner[0] == 'v') {
				val = x->value[0] ? x->value : dflt;
			} else {
				int k = atoi(inner) - 1;

				if (k >= 0 && k < 4 && x->cap[k][0])
					val = x->cap[k];
				else if (dflt)
					val = dflt;
				else
					val = file ? "*" : "?";
			}
			if (!val)
				val = "";
			for (; *val && o + 1 < cap; val++)
				out[o++] = *val;
			p = close + 1;
			continue;
		}
		out[o++] = *p++;
	}
	out[o] = '\0';
}

struct glob_out {
	char **v;
	size_t n, cap;
};

static void glob_add(struct glob_out *g, const char *path)
{
	if (g->n >= MAX_GLOB_MATCHES)
		return;
	g->v = xgrow(g->v, &g->cap, g->n + 1, sizeof(*g->v));
	g->v[g->n++] = xasprintf("/%s", path);
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static void glob_walk(const struct sysroot *r, char **seg, size_t nseg, size_t i,
		      const char *prefix, struct glob_out *g)
{
	char path[TT_PATH_MAX];

	if (i == nseg) {
		if (prefix[0] && sysfs_exists(r, prefix))
			glob_add(g, prefix);
		return;
	}
	if (!has_glob(seg[i])) {
		snprintf(path, sizeof(path), "%s%s%s", prefix, prefix[0] ? "/" : "", seg[i]);
		glob_walk(r, seg, nseg, i + 1, path, g);
		return;
	}
	{
		struct sysfs_list l;

		if (sysfs_list(r, prefix[0] ? prefix : ".", &l) != 0)
			return;
		for (size_t k = 0; k < l.n && g->n < MAX_GLOB_MATCHES; k++) {
			if (fnmatch(seg[i], l.names[k], FNM_PERIOD) != 0)
				continue;
			snprintf(path, sizeof(path), "%s%s%s", prefix, prefix[0] ? "/" : "",
				 l.names[k]);
			glob_walk(r, seg, nseg, i + 1, path, g);
		}
		sysfs_list_free(&l);
	}
}

static bool names_thread(const char *path)
{
	char buf[TT_PATH_MAX];
	char *seg[MAX_SEGS + 1];
	size_t n;

	str_copy(buf, sizeof(buf), path);
	n = split(buf, '/', seg, MAX_SEGS);
	for (size_t i = 0; i < n && i < MAX_SEGS; i++)
		if (!strcmp(seg[i], "TID") || !strcmp(seg[i], "PID"))
			return true;
	return false;
}

/* Per-process files act on the live kernel (design §4). */
static bool per_process(const char *path)
{
	const char *p = path[0] == '/' ? path + 1 : path;

	if (strncmp(p, "proc/", 5))
		return false;
	p += 5;
	return !strncmp(p, "self/", 5) || isdigit((unsigned char)*p);
}

static void resolve_file(struct explain_file *f, const struct sysroot *r)
{
	char buf[TT_PATH_MAX];
	char *seg[MAX_SEGS + 1];
	struct glob_out g = {0};
	size_t n;
	const char *t = f->template_[0] == '/' ? f->template_ + 1 : f->template_;

	if (names_thread(t)) {
		f->per_thread = true;
		return;
	}
	if (per_process(t))
		r = sysroot_live();
	if (!r)
		return;
	str_copy(buf, sizeof(buf), t);
	n = split(buf, '/', seg, MAX_SEGS);
	if (n > MAX_SEGS)
		return;
	glob_walk(r, seg, n, 0, "", &g);
	f->match = g.v;
	f->nmatch = g.n;
	f->under_debugfs = !g.n && str_starts(t, "sys/kernel/debug/");
}

/* An empty or unreadable debugfs (not mounted) says nothing about a file. */
static bool debugfs_empty(const struct sysroot *r)
{
	struct sysfs_list l;
	bool empty;

	if (sysfs_list(r, "sys/kernel/debug", &l) != 0)
		return true;
	empty = l.n == 0;
	sysfs_list_free(&l);
	return empty;
}

/* Captures: the variable segments of the pattern the address matched. */
static void capture(struct explain_resolved *x, const char *pattern, const char *addr)
{
	char pb[256], ab[256];
	char *ps[MAX_SEGS], *as[MAX_SEGS];
	size_t np, na;
	int k = 0;

	if (!pattern || !strchr(pattern, '/') || !explain_pattern_match(pattern, addr))
		return;
	str_copy(pb, sizeof(pb), pattern);
	str_copy(ab, sizeof(ab), addr);
	np = split(pb, '/', ps, MAX_SEGS);
	na = split(ab, '/', as, MAX_SEGS);
	for (size_t i = 0; i < np && i < na && k < 4; i++)
		if (strchr(ps[i], '*') && !strchr(as[i], '*'))
			str_copy(x->cap[k++], sizeof(x->cap[0]), as[i]);
		else if (strchr(ps[i], '*'))
			k++; /* a wildcard in the address too: not named */
}

static void resolve_knobs(struct explain_resolved *x, const struct sysroot *r, const char *pattern)
{
	struct knob_ctx *ctx = NULL;
	struct knob_ref *refs = NULL;
	size_t n = 0;
	char *cause = NULL;
	bool same_obj = true, same_index = true;

	if (knob_ctx_open(&ctx, r, NULL, KNOB_NO_JOURNAL, &cause) != 0) {
		snprintf(x->knob_err, sizeof(x->knob_err), "%s", cause ? cause : "no knob engine");
		free(cause);
		return;
	}
	if (knob_expand(ctx, pattern, 0, &refs, &n, &cause) != 0) {
		snprintf(x->knob_err, sizeof(x->knob_err), "%s", cause ? cause : "not found");
		free(cause);
		free(refs);
		knob_ctx_close(ctx);
		return;
	}
	free(cause);
	if (n > MAX_KNOBS)
		n = MAX_KNOBS;
	x->nknobs = n;
	x->knob_addr = xcalloc(n ? n : 1, sizeof(*x->knob_addr));
	x->knob_file = xcalloc(n ? n : 1, sizeof(*x->knob_file));
	for (size_t i = 0; i < n; i++) {
		str_copy(x->knob_addr[i], sizeof(x->knob_addr[i]), refs[i].addr);
		if (refs[i].target[0])
			snprintf(x->knob_file[i], sizeof(x->knob_file[i]), "%s%s",
				 refs[i].target[0] == '/' ? "" : "/", refs[i].target);
		if (i && strcmp(refs[i].obj, refs[0].obj))
			same_obj = false;
		if (i && refs[i].index != refs[0].index)
			same_index = false;
	}
	/* Let the engine's aliases name the directories: cpu4 -> policy4,
	 * npu -> fdab0000.npu, cpu-sleep -> state1. */
	if (n && same_obj && refs[0].obj[0]) {
		/* "cpu4/state1" for idle states: one segment each */
		char obj[sizeof(refs[0].obj)], *slash;

		str_copy(obj, sizeof(obj), refs[0].obj);
		slash = strchr(obj, '/');
		if (slash)
			*slash++ = '\0';
		str_copy(x->cap[0], sizeof(x->cap[0]), obj);
		if (slash)
			str_copy(x->cap[1], sizeof(x->cap[1]), slash);
	} else if (n > 1 && !same_obj) {
		x->cap[0][0] = '\0';
	}
	if (n && same_index && refs[0].index >= 0)
		snprintf(x->cap[1], sizeof(x->cap[1]), "state%d", refs[0].index);
	else if (n > 1 && !same_index)
		x->cap[1][0] = '\0';
	free(refs);
	knob_ctx_close(ctx);
}

static void make_shell(struct explain_resolved *x)
{
	const struct explain_entry *e = x->e;
	const char *v = x->value[0] ? x->value : e->try_value;
	size_t o = 0;

	x->shell[0] = '\0';
	if (e->shell) {
		substitute(e->shell, x, false, x->shell, sizeof(x->shell));
		return;
	}
	if (!e->knob || !v)
		return;
	for (size_t i = 0; i < x->nknobs && i < SHELL_KNOB_LINES; i++) {
		if (!x->knob_file[i][0] || x->knob_file[i][1] == '\0')
			continue;
		o += (size_t)snprintf(x->shell + o, sizeof(x->shell) - o, "%secho %s > %s",
				      o ? "\n" : "", v, x->knob_file[i]);
		if (o >= sizeof(x->shell))
			return;
	}
	if (x->nknobs > SHELL_KNOB_LINES && o < sizeof(x->shell))
		snprintf(x->shell + o, sizeof(x->shell) - o,
			 "\n# ... and %zu more files like these", x->nknobs - SHELL_KNOB_LINES);
}

int explain_resolve(const struct explain_entry *e, const char *addr, const struct sysroot *r,
		    struct explain_resolved *out)
{
	char via[160] = "";
	const char *pattern;
	bool debugfs_read = false, no_debugfs = false;

	memset(out, 0, sizeof(*out));
	if (!e)
		return -EINVAL;
	out->e = e;
	str_copy(out->root, sizeof(out->root), r && r->path ? r->path : "/");
	if (addr && *addr) {
		strip_value(addr, out->addr, sizeof(out->addr), out->value, sizeof(out->value));
		if (find_via(out->addr, via, sizeof(via)) != e)
			via[0] = '\0';
		else if (strchr(via, '/'))
			capture(out, via, out->addr);
	}
	/* The knob engine resolves the address as asked, or the key. */
	if (e->knob && r) {
		pattern = strchr(out->addr, '/') && via[0] && strchr(via, '/') ? out->addr : e->key;
		resolve_knobs(out, r, pattern);
	}
	for (size_t i = 0; i < EXPLAIN_MAX_FILES && e->files[i]; i++) {
		struct explain_file *f = &out->files[out->nfiles++];

		substitute(e->files[i], out, true, f->template_, sizeof(f->template_));
		if (r)
			resolve_file(f, r);
		if (f->under_debugfs) { /* one listing for the entry's files */
			if (!debugfs_read)
				no_debugfs = debugfs_empty(r);
			debugfs_read = true;
			f->no_debugfs = no_debugfs;
		}
	}
	make_shell(out);
	return 0;
}

void explain_resolved_free(struct explain_resolved *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nfiles; i++) {
		for (size_t k = 0; k < x->files[i].nmatch; k++)
			free(x->files[i].match[k]);
		free(x->files[i].match);
	}
	free(x->knob_addr);
	free(x->knob_file);
	memset(x, 0, sizeof(*x));
}

/* ---- rendering ------------------------------------------------------------------ */

/* Word-wrap one paragraph (no newlines inside) at width, each line
 * starting with `first` (then `rest` for continuation lines). */
static void wrap(struct sbuf *b, const char *text, int width, const char *first, const char *rest)
{
	const char *p = text;
	const char *lead = first;

	while (*p) {
		int avail = width - (int)strlen(lead);
		int len = 0, last_space = -1;

		if (avail < 20)
			avail = 20;
		while (p[len] && len < avail) {
			if (p[len] == ' ')
				last_space = len;
			len++;
		}
		if (p[len] && last_space > 0)
			len = last_space;
		sbuf_puts(b, lead);
		sbuf_putn(b, p, (size_t)len);
		sbuf_putc(b, '\n');
		p += len;
		while (*p == ' ')
			p++;
		lead = rest;
	}
}

/* Paragraphs separated by '\n', each wrapped; bullets when asked. */
static void paragraphs(struct sbuf *b, const char *text, int width, bool bullets)
{
	const char *p = text;

	while (p && *p) {
		size_t n = strcspn(p, "\n");
		char *para = xstrndup(p, n);

		wrap(b, para, width, bullets ? "  - " : "  ", bullets ? "    " : "  ");
		free(para);
		p += n;
		if (*p == '\n')
			p++;
	}
}

static void heading(struct sbuf *b, const char *h)
{
	sbuf_printf(b, "\n%s\n", h);
}

void explain_render(struct sbuf *b, const struct explain_resolved *x, int width)
{
	const struct explain_entry *e = x->e;
	bool live = !strcmp(x->root, "/");
	char line[512];

	if (width <= 0)
		width = 78;
	sbuf_printf(b, "%s - %s\n", e->key, e->title);
	if (x->addr[0] && strcasecmp(x->addr, e->key))
		sbuf_printf(b, "  (for %s%s%s)\n", x->addr, x->value[0] ? "=" : "", x->value);
	heading(b, "What it is");
	paragraphs(b, e->what, width, false);
	if (live)
		heading(b, "Files on this machine");
	else {
		snprintf(line, sizeof(line), "Files on this machine (under root %s)", x->root);
		heading(b, line);
	}
	for (size_t i = 0; i < x->nfiles; i++) {
		const struct explain_file *f = &x->files[i];
		const char *t = f->template_[0] == '/' ? f->template_ + 1 : f->template_;

		if (f->per_thread) {
			sbuf_printf(b, "  /%s  (per thread: give a thread id)\n", t);
			continue;
		}
		if (!f->nmatch) {
			sbuf_printf(b, "  /%s  (%s)\n", t,
				    f->no_debugfs
					    ? "not seen: debugfs is not mounted or not readable"
					    : "absent on this machine");
			continue;
		}
		for (size_t k = 0; k < f->nmatch && k < SHOW_MATCHES; k++)
			sbuf_printf(b, "  %s\n", f->match[k]);
		if (f->nmatch > SHOW_MATCHES)
			sbuf_printf(b, "  ... and %zu more like /%s\n", f->nmatch - SHOW_MATCHES,
				    t);
	}
	if (e->knob) {
		heading(b, "Knobs (tunetop addresses on this root)");
		if (x->nknobs) {
			for (size_t i = 0; i < x->nknobs && i < SHOW_MATCHES; i++)
				sbuf_printf(b, "  %s%s%s\n", x->knob_addr[i],
					    x->knob_file[i][0] ? "  -> " : "", x->knob_file[i]);
			if (x->nknobs > SHOW_MATCHES)
				sbuf_printf(b, "  ... and %zu more\n", x->nknobs - SHOW_MATCHES);
		} else {
			snprintf(line, sizeof(line), "none on this root (%s)",
				 x->knob_err[0] ? x->knob_err : "nothing matched");
			wrap(b, line, width, "  ", "  ");
		}
	}
	heading(b, "Units");
	paragraphs(b, e->units, width, false);
	heading(b, "Why it matters for jitter");
	paragraphs(b, e->why, width, false);
	heading(b, "What to try");
	if (e->try_hint)
		paragraphs(b, e->try_hint, width, false);
	if (e->knob && (x->value[0] || e->try_value)) {
		const char *a = x->addr[0] && strchr(x->addr, '/') && x->nknobs ? x->addr : e->key;

		sbuf_printf(b, "  tunetop set %s=%s\n", a, x->value[0] ? x->value : e->try_value);
	}
	if (x->shell[0]) {
		heading(b, "The same from a shell");
		paragraphs(b, x->shell, 1000, false);
	}
	if (e->traps) {
		heading(b, "Known traps");
		paragraphs(b, e->traps, width, true);
	}
	if (e->see) {
		heading(b, "See also");
		wrap(b, e->see, width, "  ", "  ");
	}
	if (explain_cites_field_notes(e)) {
		heading(b, "Field notes");
		paragraphs(b, EXPLAIN_FIELD_NOTES, width, false);
	}
}

bool explain_cites_field_notes(const struct explain_entry *e)
{
	static const char *const boards[] = {"RK3588", "B4860", "AM5729", "rknn"};
	const char *const texts[] = {e->what, e->why, e->try_hint, e->traps, e->units};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		for (size_t k = 0; texts[i] && k < sizeof(boards) / sizeof(boards[0]); k++)
			if (strstr(texts[i], boards[k]))
				return true;
	return false;
}

void explain_render_list(struct sbuf *b)
{
	for (size_t i = 0; i < explain_table_len; i++)
		sbuf_printf(b, "%-42s %s\n", explain_table[i].key, explain_table[i].title);
}
