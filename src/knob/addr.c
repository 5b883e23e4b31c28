/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Knob addresses: splitting a pattern into segments, CPU selectors, and
 * knob_expand(), which hands the segments to the family that owns the first
 * one (its src/knob/fam_<name>.c, found in registry.c). Also small helpers
 * shared by the engine files. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_int.h"

struct knob_ref *refvec_add(struct refvec *rv)
{
	struct knob_ref *r;

	rv->v = xgrow(rv->v, &rv->cap, rv->n + 1, sizeof(*rv->v));
	r = &rv->v[rv->n++];
	memset(r, 0, sizeof(*r));
	r->cpu = -1;
	r->index = -1;
	return r;
}

bool knob_is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

void knob_cause(char **cause, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (!cause)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		tt_fatal("out of memory");
	va_end(ap);
	free(*cause);
	*cause = s;
}

void knob_cause_add(char **cause, const char *line)
{
	if (!cause)
		return;
	if (!*cause) {
		*cause = xstrdup(line);
	} else {
		char *s = xasprintf("%s\n%s", *cause, line);

		free(*cause);
		*cause = s;
	}
}

void knob_abspath(struct knob_ctx *ctx, const char *rel, char *buf, size_t cap)
{
	sysroot_abspath(ctx->root, rel, buf, cap);
}

const struct cpumask *knob_online(struct knob_ctx *ctx)
{
	char buf[4096];

	if (ctx->have_online)
		return &ctx->online;
	cpumask_zero(&ctx->online);
	if (sysfs_read_str(ctx->root, "sys/devices/system/cpu/online", buf, sizeof(buf)) != 0 ||
	    cpulist_parse(buf, &ctx->online) != 0) {
		/* no online file: every cpuN directory counts as online */
		struct sysfs_list l;

		if (sysfs_list(ctx->root, "sys/devices/system/cpu", &l) == 0) {
			for (size_t i = 0; i < l.n; i++) {
				int c;

				if (str_starts(l.names[i], "cpu") &&
				    isdigit((unsigned char)l.names[i][3]) &&
				    str_to_int(l.names[i] + 3, &c) == 0 && c >= 0 &&
				    c < TT_MAX_CPUS)
					cpumask_set(&ctx->online, c);
			}
			sysfs_list_free(&l);
		}
	}
	ctx->have_online = true;
	return &ctx->online;
}

int knob_cpu_selector(struct knob_ctx *ctx, const char *s, struct cpumask *m, bool *wild)
{
	int c;

	*wild = false;
	cpumask_zero(m);
	if (!strcmp(s, "*") || !strcmp(s, "all") || !strcmp(s, "cpu*")) {
		*m = *knob_online(ctx);
		*wild = true;
		return 0;
	}
	if (str_starts(s, "cpu")) {
		if (str_to_int(s + 3, &c) != 0 || c < 0 || c >= TT_MAX_CPUS ||
		    !isdigit((unsigned char)s[3]))
			return -EINVAL;
		cpumask_set(m, c);
		return 0;
	}
	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	return cpulist_parse(s, m);
}

int knob_read_raw(struct knob_ctx *ctx, const char *path, char *buf, size_t cap, size_t *len,
		  char *raw, size_t rawcap, size_t *rawlen)
{
	int e = sysfs_read(ctx->root, path, buf, cap, len);

	if (e)
		return e;
	if (raw && rawcap) {
		size_t k = *len < rawcap ? *len : rawcap;

		memcpy(raw, buf, k);
		if (rawlen)
			*rawlen = k;
	}
	return 0;
}

int knob_read_words(struct knob_ctx *ctx, const char *path, char *buf, size_t cap)
{
	char raw[4096];
	char *tok[256];
	size_t n, len = 0;
	int e = sysfs_read(ctx->root, path, raw, sizeof(raw), NULL);

	if (e)
		return e;
	n = str_split_ws(raw, tok, 256);
	if (cap)
		buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char *w = tok[i];
		size_t wl = strlen(w);

		if (w[0] == '[' && wl >= 2 && w[wl - 1] == ']') {
			w[wl - 1] = '\0';
			w++;
		}
		len += (size_t)snprintf(buf + (len < cap ? len : cap), len < cap ? cap - len : 0,
					"%s%s", i ? " " : "", w);
	}
	return len < cap ? 0 : -EFBIG;
}

bool knob_word_in(const char *words, const char *w)
{
	size_t wl = strlen(w);
	const char *p = words;

	while ((p = strstr(p, w)) != NULL) {
		bool start = p == words || p[-1] == ' ';
		bool end = p[wl] == '\0' || p[wl] == ' ';

		if (start && end)
			return true;
		p += wl;
	}
	return false;
}

static void family_names(struct sbuf *b)
{
	for (size_t i = 0; i < knob_nfamilies; i++)
		sbuf_printf(b, "%s%s", i ? " " : "", knob_registry[i]->name);
}

int knob_expand(struct knob_ctx *ctx, const char *pattern, unsigned flags, struct knob_ref **refs,
		size_t *n, char **cause)
{
	char *copy = xstrdup(pattern ? pattern : "");
	char *p = str_trim(copy);
	char *seg[16];
	size_t nseg = 0;
	struct refvec rv = {0};
	int e = 0;
	bool all = false;

	if (!*p || !strcmp(p, "*")) {
		if (!(flags & KNOB_EXPAND_PREFIX)) {
			knob_cause(cause,
				   "'%s' is not a knob address (expected e.g. "
				   "cpufreq/policy0/governor)",
				   p);
			free(copy);
			return -EINVAL;
		}
		all = true;
	}
	if (!all) {
		size_t len = strlen(p);

		while (len > 1 && p[len - 1] == '/') /* "cpufreq/" lists like "cpufreq" */
			p[--len] = '\0';
		for (char *s = p;;) {
			char *sl = strchr(s, '/');

			if (nseg == sizeof(seg) / sizeof(seg[0])) {
				knob_cause(cause, "'%s': too many segments", pattern);
				free(copy);
				return -EINVAL;
			}
			if (sl)
				*sl = '\0';
			if (!*s) {
				knob_cause(cause, "'%s': empty segment in knob address", pattern);
				free(copy);
				return -EINVAL;
			}
			seg[nseg++] = s;
			if (!sl)
				break;
			s = sl + 1;
		}
	}
	if (all || (!strcmp(seg[0], "*") && (flags & KNOB_EXPAND_PREFIX))) {
		for (size_t i = 0; i < knob_nfamilies && !e; i++) {
			char *tmp = NULL;

			e = knob_family_expand(knob_registry[i], ctx, all ? NULL : seg + 1,
					       all ? 0 : nseg - 1, flags | KNOB_EXPAND_EMPTY_OK,
					       &rv, &tmp);
			/* a family missing on this root is not an error when listing all */
			if (e == -ENOENT)
				e = 0;
			if (e)
				knob_cause(cause, "%s", tmp ? tmp : "expansion failed");
			free(tmp);
		}
	} else {
		const struct knob_family *f = knob_family_of(seg[0]);

		if (!f || strlen(f->name) != strlen(seg[0])) {
			struct sbuf b;

			sbuf_init(&b);
			family_names(&b);
			knob_cause(cause,
				   "unknown knob address '%s': no family '%s' (families: %s)",
				   pattern, seg[0], b.s);
			sbuf_free(&b);
			free(copy);
			return -ENOENT;
		}
		e = knob_family_expand(f, ctx, seg + 1, nseg - 1, flags, &rv, cause);
	}
	free(copy);
	if (e) {
		free(rv.v);
		return e;
	}
	if (rv.n == 0 && !(flags & KNOB_EXPAND_EMPTY_OK)) {
		knob_cause(cause, "'%s' matches no knob on this root (%s)", pattern,
			   ctx->root->path);
		free(rv.v);
		return -ENOENT;
	}
	if (rv.n) {
		*refs = xrealloc(*refs, (*n + rv.n) * sizeof(**refs));
		memcpy(*refs + *n, rv.v, rv.n * sizeof(**refs));
		*n += rv.n;
	}
	free(rv.v);
	return 0;
}

struct knob_addr knob_addr_fmt(const char *fmt, ...)
{
	struct knob_addr a;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a.s, sizeof(a.s), fmt, ap);
	va_end(ap);
	return a;
}
