/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The world switches of several files (see sim_kind.h): which files a
 * switch shows, the edit of each file for a value, and the switch's read,
 * write and restore as one knob with every file's bytes journaled. */
#include "knob/sim_kind.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_int.h"
#include "source/system.h"

#define SIM_MAX_FILES 24
#define SIM_ISOLATED  KNOB_CPU_DIR "/isolated"
#define SIM_NOHZ      KNOB_CPU_DIR "/nohz_full"

/* What a file of a switch is (how a value shows in it). */
enum sim_role { SR_CMDLINE, SR_ISOLATED, SR_NOHZ, SR_VERSION, SR_REALTIME, SR_STATUS, SR_STAT };

struct sim_file {
	char path[TT_PATH_MAX];
	enum sim_role role;
};

int sim_kind_parse(const char *spec, enum sim_kind *kind, char *arg, size_t cap)
{
	const char *colon;

	arg[0] = '\0';
	if (spec[0] != '@') {
		*kind = SIM_FILE;
		return 0;
	}
	if (!strcmp(spec, "@cmdline"))
		*kind = SIM_CMDLINE;
	else if (!strcmp(spec, "@kernel"))
		*kind = SIM_KERNEL;
	else if (str_starts(spec, "@state:")) {
		colon = strchr(spec, ':') + 1;
		if (!*colon || strspn(colon, "0123456789,") != strlen(colon) || colon[0] == ',')
			return -EINVAL;
		*kind = SIM_STATE;
		str_copy(arg, cap, colon);
	} else
		return -EINVAL;
	return 0;
}

void sim_kind_primary(enum sim_kind kind, const char *arg, char *path, size_t cap)
{
	switch (kind) {
	case SIM_CMDLINE: snprintf(path, cap, "proc/cmdline"); break;
	case SIM_KERNEL: snprintf(path, cap, "proc/version"); break;
	case SIM_STATE: snprintf(path, cap, "proc/%d/status", atoi(arg)); break;
	default: path[0] = '\0'; break;
	}
}

int sim_kind_cmdline_check(const char *addr, const char *value, char *norm, size_t cap,
			   char **cause)
{
	char v[KNOB_VALUE_MAX];
	char *t;

	if (strlen(value) >= sizeof(v) - 2 || strlen(value) >= cap) {
		knob_cause(cause, "%s: E2BIG: a command line of at most %zu characters", addr,
			   sizeof(v) - 3);
		return -E2BIG;
	}
	str_copy(v, sizeof(v), value);
	t = str_trim(v);
	if (!*t || str_has_ctl(t, strlen(t), false)) {
		knob_cause(cause,
			   "%s: EINVAL: '%s' is not a kernel command line (one line of text)", addr,
			   str_ctl(t));
		return -EINVAL;
	}
	snprintf(norm, cap, "%s", t);
	return 0;
}

/* ---- the files of a switch --------------------------------------------------- */

static void add_file(struct sim_file *f, size_t *n, enum sim_role role, const char *path)
{
	if (*n >= SIM_MAX_FILES)
		return;
	str_copy(f[*n].path, sizeof(f[*n].path), path);
	f[*n].role = role;
	(*n)++;
}

/* A process's files: its own, then each task's (the leader's task dir too). */
static void state_files(const struct sysroot *r, int pid, struct sim_file *f, size_t *n)
{
	struct sysfs_list l = {0};
	char dir[64];

	snprintf(dir, sizeof(dir), "proc/%d/status", pid);
	add_file(f, n, SR_STATUS, dir);
	snprintf(dir, sizeof(dir), "proc/%d/stat", pid);
	add_file(f, n, SR_STAT, dir);
	snprintf(dir, sizeof(dir), "proc/%d/task", pid);
	if (sysfs_list_opt(r, dir, &l) != 0)
		return;
	for (size_t i = 0; i < l.n; i++) {
		char path[96];
		int tid;

		if (str_to_int(l.names[i], &tid) != 0)
			continue;
		snprintf(path, sizeof(path), "proc/%d/task/%d/status", pid, tid);
		add_file(f, n, SR_STATUS, path);
		snprintf(path, sizeof(path), "proc/%d/task/%d/stat", pid, tid);
		add_file(f, n, SR_STAT, path);
	}
	sysfs_list_free(&l);
}

/* The switch's files, the one its value is read from first; a file the tree
 * lacks is left out (the first must exist: -ENOENT). */
static int sim_files(const struct sysroot *r, enum sim_kind kind, const char *arg,
		     struct sim_file *f, size_t *n)
{
	size_t k = 0;

	*n = 0;
	switch (kind) {
	case SIM_CMDLINE:
		add_file(f, n, SR_CMDLINE, "proc/cmdline");
		add_file(f, n, SR_ISOLATED, SIM_ISOLATED);
		add_file(f, n, SR_NOHZ, SIM_NOHZ);
		break;
	case SIM_KERNEL:
		add_file(f, n, SR_VERSION, "proc/version");
		add_file(f, n, SR_REALTIME, "sys/kernel/realtime");
		break;
	case SIM_STATE:
		for (const char *p = arg; *p; p += strcspn(p, ","), p += *p == ',')
			state_files(r, atoi(p), f, n);
		break;
	default: return -EINVAL;
	}
	if (*n == 0 || !sysfs_exists(r, f[0].path))
		return -ENOENT;
	for (size_t i = 0; i < *n; i++)
		if (i == 0 || sysfs_exists(r, f[i].path))
			f[k++] = f[i];
	*n = k;
	return 0;
}

/* ---- the edits: a file's new text for a value --------------------------------- */

/* The CPU list of parameter name in a command line, as the kernel prints
 * the mask it makes of it ("" when the parameter is absent or not a list).
 * isolcpus=[flag,...,]LIST isolates the scheduler domains when it has no
 * flag or the flag "domain" (the isolated file shows only those). */
static void cmdline_cpus(const char *cmdline, const char *name, char *out, size_t cap)
{
	char val[KNOB_VALUE_MAX];
	const char *list = NULL;
	bool flags = false, domain = false;
	struct cpumask m;

	out[0] = '\0';
	if (!system_cmdline_param(cmdline, name, val, sizeof(val)))
		return;
	for (const char *p = val; *p; p += strcspn(p, ","), p += *p == ',') {
		if (*p >= '0' && *p <= '9') {
			list = p;
			break;
		}
		flags = true;
		domain = domain || !strncmp(p, "domain,", 7);
	}
	if (!list || (flags && !domain) || cpulist_parse(list, &m) != 0)
		return;
	cpulist_format(&m, out, cap);
}

/* Replace the whole word `from` of text by `to`; false when it is absent. */
static bool replace_word(const char *text, const char *from, const char *to, struct sbuf *out)
{
	size_t fl = strlen(from);

	for (const char *p = strstr(text, from); p; p = strstr(p + 1, from)) {
		if ((p > text && p[-1] != ' ') || (p[fl] != ' ' && p[fl] != '\n' && p[fl]))
			continue;
		sbuf_putn(out, text, (size_t)(p - text));
		sbuf_puts(out, to);
		sbuf_puts(out, p + fl);
		return true;
	}
	return false;
}

/* The state letter a stopped or running process shows. */
static char state_letter(const char *value)
{
	return !strcmp(value, "stopped") ? 'T' : 'R';
}

static bool letter_is(char have, const char *value)
{
	return !strcmp(value, "stopped") ? have == 'T' || have == 't' : have != 'T' && have != 't';
}

static int edit_status(const char *text, const char *value, struct sbuf *out)
{
	const char *p = text;

	while (p && strncmp(p, "State:", 6))
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
	if (!p)
		return -EINVAL;
	{
		const char *v = p + 6 + strspn(p + 6, " \t"), *eol = v + strcspn(v, "\n");

		if (letter_is(*v, value)) {
			sbuf_puts(out, text);
			return 0;
		}
		sbuf_putn(out, text, (size_t)(v - text));
		sbuf_puts(out, state_letter(value) == 'T' ? "T (stopped)" : "R (running)");
		sbuf_puts(out, eol);
	}
	return 0;
}

static int edit_stat(const char *text, const char *value, struct sbuf *out)
{
	const char *rp = strrchr(text, ')');

	if (!rp || rp[1] != ' ' || !rp[2])
		return -EINVAL;
	sbuf_putn(out, text, (size_t)(rp + 2 - text));
	sbuf_putc(out, letter_is(rp[2], value) ? rp[2] : state_letter(value));
	sbuf_puts(out, rp + 3);
	return 0;
}

/* The new text of a file of role for value (the file now holds text). */
static int sim_edit(enum sim_role role, const char *text, const char *value, struct sbuf *out)
{
	char cpus[KNOB_VALUE_MAX];
	bool rt = !strcmp(value, "rt");

	switch (role) {
	case SR_CMDLINE: sbuf_printf(out, "%s\n", value); return 0;
	case SR_ISOLATED:
		cmdline_cpus(value, "isolcpus", cpus, sizeof(cpus));
		sbuf_printf(out, "%s\n", cpus);
		return 0;
	case SR_NOHZ:
		cmdline_cpus(value, "nohz_full", cpus, sizeof(cpus));
		sbuf_printf(out, "%s\n", cpus[0] ? cpus : "(null)");
		return 0;
	case SR_VERSION:
		if (replace_word(text, rt ? "PREEMPT_RT" : "PREEMPT", rt ? "PREEMPT_RT" : "PREEMPT",
				 out))
			return 0;
		sbuf_reset(out);
		return replace_word(text, rt ? "PREEMPT" : "PREEMPT_RT",
				    rt ? "PREEMPT_RT" : "PREEMPT", out)
			       ? 0
			       : -EINVAL;
	case SR_REALTIME: sbuf_puts(out, rt ? "1\n" : "0\n"); return 0;
	case SR_STATUS: return edit_status(text, value, out);
	case SR_STAT: return edit_stat(text, value, out);
	}
	return -EINVAL;
}

/* The value the first file shows. */
static int sim_value(enum sim_role role, const char *text, char *value, size_t cap)
{
	char buf[KNOB_VALUE_MAX];
	const char *p;

	switch (role) {
	case SR_CMDLINE:
		str_copy(buf, sizeof(buf), text);
		str_copy(value, cap, str_trim(buf));
		return 0;
	case SR_VERSION:
		str_copy(value, cap,
			 strstr(text, " PREEMPT_RT ") || strstr(text, " PREEMPT_RT\n") ? "rt"
										       : "nonrt");
		return 0;
	case SR_STATUS:
		p = strstr(text, "State:");
		if (p != text && p && p[-1] != '\n')
			p = strstr(text, "\nState:");
		if (!p)
			return -EINVAL;
		p = strchr(p, ':') + 1;
		p += strspn(p, " \t");
		str_copy(value, cap, letter_is(*p, "stopped") ? "stopped" : "running");
		return 0;
	default: return -EINVAL;
	}
}

/* ---- read, write, restore ------------------------------------------------------ */

int sim_kind_read(struct knob_ctx *ctx, enum sim_kind kind, const char *arg, char *value,
		  size_t cap, char *raw, size_t rawcap, size_t *rawlen)
{
	struct sim_file f[SIM_MAX_FILES];
	size_t n, len = 0;
	int e = sim_files(ctx->root, kind, arg, f, &n);

	for (size_t i = 0; !e && i < n; i++) {
		char *text = NULL, head[TT_PATH_MAX + 48];
		size_t tl = 0;
		int hl;

		e = sysfs_read_alloc(ctx->root, f[i].path, &text, &tl);
		if (!e && i == 0)
			e = sim_value(f[0].role, text, value, cap);
		/* raw: "ROLE LEN PATH\0" and the LEN bytes, for each file */
		hl = snprintf(head, sizeof(head), "%d %zu %s", (int)f[i].role, tl, f[i].path);
		if (!e && raw && len + (size_t)hl + 1 + tl > rawcap)
			e = -EFBIG;
		if (!e && raw) {
			memcpy(raw + len, head, (size_t)hl + 1);
			memcpy(raw + len + hl + 1, text, tl);
			len += (size_t)hl + 1 + tl;
		}
		free(text);
	}
	if (rawlen)
		*rawlen = e ? 0 : len;
	return e;
}

/* Write text to the file (the test's fault first). */
static int put(struct knob_ctx *ctx, const char *path, const char *text, size_t len)
{
	int e = knob_test_fault(ctx, path);

	return e ? e : sysfs_write(ctx->root, path, text, len);
}

int sim_kind_write(struct knob_ctx *ctx, enum sim_kind kind, const char *arg, const char *value)
{
	struct sim_file f[SIM_MAX_FILES];
	char *old[SIM_MAX_FILES] = {0};
	size_t oldlen[SIM_MAX_FILES] = {0}, n, i;
	bool wrote[SIM_MAX_FILES] = {0};
	int e = sim_files(ctx->root, kind, arg, f, &n);

	for (i = 0; !e && i < n; i++) {
		struct sbuf out;

		e = sysfs_read_alloc(ctx->root, f[i].path, &old[i], &oldlen[i]);
		if (e)
			break;
		sbuf_init(&out);
		e = sim_edit(f[i].role, old[i], value, &out);
		if (!e && (out.len != oldlen[i] || memcmp(out.s, old[i], out.len))) {
			e = put(ctx, f[i].path, out.s, out.len);
			wrote[i] = !e;
		}
		sbuf_free(&out);
	}
	/* a file refused: the others back as they were */
	for (size_t k = 0; e && k < n; k++)
		if (wrote[k])
			sysfs_write(ctx->root, f[k].path, old[k], oldlen[k]);
	for (size_t k = 0; k < n; k++)
		free(old[k]);
	return e;
}

/* One file of a recorded raw: its role, path and bytes; the next record. */
static const char *raw_next(const char *p, const char *end, struct sim_file *f, const char **bytes,
			    size_t *len)
{
	const char *nul = memchr(p, '\0', (size_t)(end - p));
	int role, off = 0;

	if (!nul || sscanf(p, "%d %zu %n", &role, len, &off) != 2 || off == 0 ||
	    role < SR_CMDLINE || role > SR_STAT || *len > (size_t)(end - nul - 1))
		return NULL;
	f->role = (enum sim_role)role;
	str_copy(f->path, sizeof(f->path), p + off);
	*bytes = nul + 1;
	return nul + 1 + *len;
}

/* Put one file back: the recorded bytes where it still shows what the
 * switch wrote (now: the switch's value now), else old edited in. */
static int restore_file(struct knob_ctx *ctx, const struct sim_file *f, const char *bytes,
			size_t len, const char *now, const char *old)
{
	char *cur = NULL, *was = xmalloc(len + 1);
	size_t cl = 0;
	struct sbuf exp;
	int e;

	memcpy(was, bytes, len);
	was[len] = '\0';
	sysfs_write_cleanup(ctx->root, f->path);
	e = sysfs_read_alloc(ctx->root, f->path, &cur, &cl);
	if (e == -ENOENT) /* a task gone since: nothing to put back */
		e = 0;
	else if (!e && !(cl == len && !memcmp(cur, bytes, len))) {
		sbuf_init(&exp);
		if (sim_edit(f->role, was, now, &exp) == 0 && exp.len == cl &&
		    !memcmp(exp.s, cur, cl)) {
			e = put(ctx, f->path, bytes, len);
		} else {
			sbuf_reset(&exp);
			e = sim_edit(f->role, cur, old, &exp);
			e = e ? put(ctx, f->path, bytes, len) : put(ctx, f->path, exp.s, exp.len);
		}
		sbuf_free(&exp);
	}
	free(cur);
	free(was);
	return e;
}

int sim_kind_restore(struct knob_ctx *ctx, enum sim_kind kind, const char *arg, const char *old,
		     const char *raw, size_t rawlen)
{
	struct sim_file f[SIM_MAX_FILES];
	const char *bytes[SIM_MAX_FILES], *end = raw + rawlen, *p = raw;
	size_t len[SIM_MAX_FILES], n = 0;
	char now[KNOB_VALUE_MAX];
	int e = 0;

	if (!raw || !rawlen)
		return sim_kind_write(ctx, kind, arg, old);
	while (p && p < end && n < SIM_MAX_FILES) {
		p = raw_next(p, end, &f[n], &bytes[n], &len[n]);
		n += p != NULL;
	}
	if (!p || n == 0)
		return -EINVAL;
	sysfs_write_cleanup(ctx->root, f[0].path);
	if (sim_kind_read(ctx, kind, arg, now, sizeof(now), NULL, 0, NULL) != 0)
		now[0] = '\0';
	/* the first file last: until it is back, the entry reads as changed */
	for (size_t i = n; i-- > 0 && !e;)
		e = restore_file(ctx, &f[i], bytes[i], len[i], now, old);
	return e;
}
