/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Profiles: INI files (parsed with libinih) naming a set of knob
 * assignments and the boards they are meant for.
 *
 *   [profile]
 *   description = Full-chain lock for NPU inference latency (RK3588)
 *   match = rockchip,rk3588          # DT compatible, or a /proc/cpuinfo model substring
 *   [knobs]
 *   cpufreq/policy4/governor = performance
 *
 * Errors are "file:line: reason". Lines are counted by our own reader (the
 * inih handler does not get line numbers in the default build). */
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_int.h"
#include "sysfs/userfile.h"

#ifndef TT_SYSCONFDIR
#define TT_SYSCONFDIR "/usr/local/etc"
#endif
#ifndef TT_PKGDATADIR
#define TT_PKGDATADIR "/usr/local/share/tunetop"
#endif

const char *const *knob_profile_dirs(void)
{
	static char *dirs[6];
	static bool init;

	if (!init) {
		const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
		const char *src = getenv("TUNETOP_PROFILES_DIR");
		size_t k = 0;

		if (xdg && *xdg)
			dirs[k++] = xasprintf("%s/tunetop/profiles", xdg);
		else if (home && *home)
			dirs[k++] = xasprintf("%s/.config/tunetop/profiles", home);
		dirs[k++] = xstrdup(TT_SYSCONFDIR "/tunetop/profiles"); /* the site's */
		dirs[k++] = xstrdup(TT_PKGDATADIR "/profiles");
		if (userfile_source_tree()) /* ./tunetop in its build tree */
			dirs[k++] = xasprintf("%s/profiles", userfile_source_tree());
		if (src && *src && !(k && !strcmp(dirs[k - 1], src)))
			dirs[k++] = xstrdup(src);
		dirs[k] = NULL;
		init = true;
	}
	return (const char *const *)dirs;
}

int knob_profile_find(const char *name, char **path, char **cause)
{
	const char *const *dirs = knob_profile_dirs();
	struct sbuf looked;

	*path = NULL;
	if (strchr(name, '/') || str_ends(name, ".profile")) {
		if (access(name, R_OK) != 0) {
			int e = -errno;

			knob_cause(cause, "profile %s: %s", name, strerror(-e));
			return e == -ENOENT ? -ENOENT : e;
		}
		*path = xstrdup(name);
		return 0;
	}
	if (!*name || strchr(name, '.') == name) {
		knob_cause(cause, "bad profile name '%s'", name);
		return -EINVAL;
	}
	sbuf_init(&looked);
	for (size_t i = 0; dirs[i]; i++) {
		char *p = xasprintf("%s/%s.profile", dirs[i], name);

		if (access(p, R_OK) == 0) {
			*path = p;
			sbuf_free(&looked);
			return 0;
		}
		free(p);
		sbuf_printf(&looked, "%s%s", i ? ", " : "", dirs[i]);
	}
	knob_cause(cause, "no profile '%s' (looked in %s)", name, looked.s ? looked.s : "");
	sbuf_free(&looked);
	return -ENOENT;
}

struct pstate {
	FILE *f;
	const char *path;
	int line;
	int section_line; /* line of the last [section] header */
	bool at_line_start, indented;
	char *err; /* first error, "file:line: reason" */
	struct knob_profile *p;
	int *lines; /* line of each assignment */
	bool have_knobs_section;
	int profile_line, knobs_line; /* the [profile] and [knobs] headers, 0 = not yet */
	int description_line;
};

/* A second [profile] or [knobs] header would silently merge into the first
 * (inih reports sections by name): refuse it, naming both lines. */
static void section_header(struct pstate *st, const char *line)
{
	const char *end = strchr(line, ']');
	size_t n = end ? (size_t)(end - line - 1) : 0;
	int *seen = NULL;

	if (!end)
		return;
	if (n == strlen("knobs") && !strncmp(line + 1, "knobs", n))
		seen = &st->knobs_line;
	else if (n == strlen("profile") && !strncmp(line + 1, "profile", n))
		seen = &st->profile_line;
	if (!seen)
		return;
	if (*seen && !st->err)
		st->err = xasprintf("%s:%d: a second [%.*s] section (the first is at line %d)",
				    st->path, st->line, (int)n, line + 1, *seen);
	else if (!*seen)
		*seen = st->line;
}

static char *reader(char *str, int num, void *stream)
{
	struct pstate *st = stream;
	char *r = fgets(str, num, st->f);
	size_t len;

	if (!r)
		return NULL;
	len = strlen(r);
	if (st->at_line_start) {
		size_t sp = strspn(r, " \t");

		st->line++;
		st->indented = sp > 0 && r[sp] != '\n' && r[sp] != '\0' && !strchr(";#", r[sp]);
		if (r[sp] == '[') {
			st->section_line = st->line;
			section_header(st, r + sp);
		}
	}
	st->at_line_start = len > 0 && r[len - 1] == '\n';
	if (!st->at_line_start && !feof(st->f) && !st->err)
		st->err = xasprintf("%s:%d: line too long (at most %d characters)", st->path,
				    st->line, num - 2);
	return r;
}

static int fail(struct pstate *st, const char *fmt, const char *a, const char *b)
{
	if (!st->err) {
		char msg[512];

		snprintf(msg, sizeof(msg), fmt, a, b);
		st->err = xasprintf("%s:%d: %s", st->path, st->line, msg);
	}
	return 0;
}

static void add_match(struct knob_profile *p, const char *v)
{
	char *copy = xstrdup(v), *save = NULL;

	for (char *t = strtok_r(copy, "|", &save); t; t = strtok_r(NULL, "|", &save)) {
		char *m = str_trim(t);

		if (!*m)
			continue;
		p->match = xrealloc(p->match, (p->nmatch + 1) * sizeof(char *));
		p->match[p->nmatch++] = xstrdup(m);
	}
	free(copy);
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct pstate *st = user;
	struct knob_profile *p = st->p;
	char *v = xstrdup(value ? value : ""), *hash;
	int ret = 1;

	/* '#' comments after a value (inih only strips ';' ones) */
	for (hash = strchr(v, '#'); hash; hash = strchr(hash + 1, '#'))
		if (hash > v && (hash[-1] == ' ' || hash[-1] == '\t')) {
			*hash = '\0';
			break;
		}
	str_trim(v);
	if (st->indented) {
		ret = fail(st, "indented line: continuation lines are not supported%s%s", "", "");
	} else if (!section[0]) {
		ret = fail(st, "'%s' outside a section (expected [profile] or [knobs])%s", name,
			   "");
	} else if (!strcmp(section, "profile")) {
		if (!strcmp(name, "description") && st->description_line) {
			char first[32];

			snprintf(first, sizeof(first), "%d", st->description_line);
			ret = fail(st, "'%s' is set twice (first at line %s)", name, first);
		} else if (!strcmp(name, "description")) {
			free(p->description);
			p->description = xstrdup(v);
			st->description_line = st->line;
		} else if (!strcmp(name, "match")) {
			add_match(p, v);
		} else {
			ret = fail(st, "unknown key '%s' in [profile] (description, match)%s", name,
				   "");
		}
	} else if (!strcmp(section, "knobs")) {
		st->have_knobs_section = true;
		if (!*v) {
			ret = fail(st, "'%s' has no value%s", name, "");
		} else if (strpbrk(name, " \t")) {
			ret = fail(st, "'%s' is not a knob address (no spaces)%s", name, "");
		} else {
			for (size_t i = 0; i < p->n; i++) {
				size_t al = strcspn(p->assign[i], "=");

				if (strlen(name) == al && !strncmp(p->assign[i], name, al)) {
					char first[32];

					snprintf(first, sizeof(first), "%d", st->lines[i]);
					ret = fail(st, "'%s' is set twice (first at line %s)", name,
						   first);
					break;
				}
			}
			if (ret) {
				p->assign = xrealloc(p->assign, (p->n + 1) * sizeof(char *));
				p->label = xrealloc(p->label, (p->n + 1) * sizeof(char *));
				st->lines = xrealloc(st->lines, (p->n + 1) * sizeof(int));
				p->assign[p->n] = xasprintf("%s=%s", name, v);
				p->label[p->n] = xasprintf("%s:%d", st->path, st->line);
				st->lines[p->n] = st->line;
				p->n++;
			}
		}
	} else {
		int line = st->line;

		st->line = st->section_line ? st->section_line : line;
		ret = fail(st, "unknown section [%s] (expected [profile] and [knobs])%s", section,
			   "");
		st->line = line;
	}
	free(v);
	return ret;
}

/* Parse the profile open as f (closed here); path names it. */
static int load_stream(FILE *f, const char *path, struct knob_profile *p, char **cause)
{
	struct pstate st = {0};
	const char *base = strrchr(path, '/');
	int r;

	st.f = f;
	st.path = path;
	st.p = p;
	st.at_line_start = true;
	p->path = xstrdup(path);
	p->name = xstrdup(base ? base + 1 : path);
	if (str_ends(p->name, ".profile"))
		p->name[strlen(p->name) - strlen(".profile")] = '\0';
	r = ini_parse_stream(reader, &st, handler, &st);
	fclose(st.f);
	free(st.lines);
	if (!st.err && r > 0)
		st.err = xasprintf("%s:%d: syntax error (expected '[section]' or 'key = value')",
				   path, r);
	if (!st.err && r < 0)
		st.err = xasprintf("%s: cannot parse (%d)", path, r);
	if (!st.err && (!p->description || !*p->description))
		st.err = xasprintf("%s: missing [profile] description", path);
	if (!st.err && !p->n)
		st.err = xasprintf("%s: no knobs (a profile needs a [knobs] section with address = "
				   "value lines)",
				   path);
	if (st.err) {
		knob_cause(cause, "%s", st.err);
		free(st.err);
		knob_profile_free(p);
		return -EINVAL;
	}
	return 0;
}

int knob_profile_load(const char *path, struct knob_profile *p, char **cause)
{
	FILE *f;
	int fd;

	memset(p, 0, sizeof(*p));
	/* `apply /dev/zero` or a FIFO must not hang: a regular file of at most 1 MiB */
	fd = userfile_open(path, O_RDONLY, 0, USERFILE_MAX_TEXT);
	if (fd < 0) {
		knob_cause(cause, "%s: %s", path, userfile_strerror(fd, USERFILE_MAX_TEXT));
		return fd == -EFBIG ? -EINVAL : fd;
	}
	f = fdopen(fd, "r");
	if (!f) {
		int e = -errno;

		close(fd);
		knob_cause(cause, "profile %s: %s", path, strerror(-e));
		return e;
	}
	return load_stream(f, path, p, cause);
}

int knob_profile_parse(const char *path, const char *text, size_t len, struct knob_profile *p,
		       char **cause)
{
	static const char empty[1];
	FILE *f;

	memset(p, 0, sizeof(*p));
	/* glibc's fmemopen takes a zero size, not a NULL buffer */
	f = fmemopen((void *)(uintptr_t)(len ? text : empty), len, "r");
	if (!f) {
		int e = -errno;

		knob_cause(cause, "profile %s: %s", path, strerror(-e));
		return e;
	}
	return load_stream(f, path, p, cause);
}

void knob_profile_free(struct knob_profile *p)
{
	for (size_t i = 0; i < p->nmatch; i++)
		free(p->match[i]);
	for (size_t i = 0; i < p->n; i++) {
		free(p->assign[i]);
		free(p->label[i]);
	}
	xfree_all(p->match, p->assign, p->label, p->path, p->name, p->description);
	memset(p, 0, sizeof(*p));
}

/* "model name", "Hardware", "Model" and "vendor_id" lines of /proc/cpuinfo. */
static void cpuinfo_models(const struct sysroot *r, struct sbuf *out)
{
	char *text = NULL, *save = NULL;
	static const char *const keys[] = {"model name", "Hardware", "Model", "vendor_id"};

	if (sysfs_read_alloc(r, "proc/cpuinfo", &text, NULL) != 0)
		return;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(l, ':');

		if (!colon)
			continue;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			if (!str_starts(l, keys[k]))
				continue;
			{
				char *v = str_trim(colon + 1);

				if (*v && (!out->s || !strstr(out->s, v)))
					sbuf_printf(out, "%s%s", out->len ? "; " : "", v);
			}
		}
	}
	free(text);
}

int knob_profile_match(const struct knob_profile *p, const struct sysroot *r, char *why, size_t cap)
{
	char compat[4096];
	size_t clen = 0;
	struct sbuf models, shown;
	int res = 0;

	if (!p->nmatch)
		return 1;
	if (sysfs_read(r, "sys/firmware/devicetree/base/compatible", compat, sizeof(compat),
		       &clen) != 0 &&
	    sysfs_read(r, "proc/device-tree/compatible", compat, sizeof(compat), &clen) != 0)
		clen = 0;
	sbuf_init(&models);
	cpuinfo_models(r, &models);
	for (size_t m = 0; m < p->nmatch && !res; m++) {
		for (size_t off = 0; off < clen && !res;) {
			const char *s = compat + off;
			size_t sl = strnlen(s, clen - off);

			if (sl == strlen(p->match[m]) && !memcmp(s, p->match[m], sl))
				res = 1;
			off += sl + 1;
		}
		if (models.s && strstr(models.s, p->match[m]))
			res = 1;
	}
	if (!res && why) {
		sbuf_init(&shown);
		for (size_t off = 0; off < clen;) {
			const char *s = compat + off;
			size_t sl = strnlen(s, clen - off);

			if (sl)
				sbuf_printf(&shown, "%s%.*s", shown.len ? " " : "", (int)sl, s);
			off += sl + 1;
		}
		snprintf(why, cap, "this root is %s%s%s%s%s", shown.len ? "compatible " : "",
			 shown.s ? shown.s : "", shown.len && models.len ? ", " : "",
			 models.len ? "cpu " : "", models.s ? models.s : "");
		if (!shown.len && !models.len)
			snprintf(why, cap,
				 "this root has no device-tree compatible and no cpuinfo "
				 "model");
		sbuf_free(&shown);
	}
	sbuf_free(&models);
	return res;
}
