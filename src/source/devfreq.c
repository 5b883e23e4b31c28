/* SPDX-License-Identifier: GPL-2.0-or-later */
/* devfreq devices (sys/class/devfreq/<dev>/, all frequencies in Hz) and the
 * debugfs clock fallback (sys/kernel/debug/clk/<name>/clk_rate). Owns the
 * trans_stat parser, the name -> kind classification and the rates derived
 * from trans_stat between two samples. */
#include "source/devfreq.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/str.h"
#include "core/xalloc.h"

static const char *const default_clks[] = {
	"scmi_clk_npu", "scmi_clk_ddr", "scmi_clk_gpu", "clk_npu", "aclk_npu", "clk_gpu", NULL};

const char *devfreq_kind_name(enum devfreq_kind k)
{
	switch (k) {
	case DEVFREQ_NPU: return "npu";
	case DEVFREQ_GPU: return "gpu";
	case DEVFREQ_DDR: return "ddr";
	case DEVFREQ_BUS: return "bus";
	case DEVFREQ_OTHER: break;
	}
	return "other";
}

static bool has(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; *s; s++)
		if (strncasecmp(s, needle, n) == 0)
			return true;
	return false;
}

enum devfreq_kind devfreq_classify(const char *name)
{
	if (!name || !*name)
		return DEVFREQ_OTHER;
	/* DDR first: "dmc", "imx-ddr", "soc:ddr", "mtk-ddr"... */
	if (has(name, "dmc") || has(name, "ddr"))
		return DEVFREQ_DDR;
	if (has(name, "npu"))
		return DEVFREQ_NPU;
	if (has(name, "gpu") || has(name, "mali"))
		return DEVFREQ_GPU;
	if (has(name, "bus") || has(name, "interconnect") || has(name, "noc"))
		return DEVFREQ_BUS;
	return DEVFREQ_OTHER;
}

/* ---- small parsers ------------------------------------------------------ */

/* Space separated Hz values (available_frequencies). -ENODATA when empty,
 * -EINVAL on a token that is not a number (what parsed before is kept). */
static int parse_hz_list(const char *text, uint64_t **vals, size_t *n)
{
	char *copy = xstrdup(text), *save = NULL, *tok;
	size_t cap = 0;
	int e = 0;

	*vals = NULL;
	*n = 0;
	for (tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		uint64_t v;

		if (str_to_u64(tok, &v) != 0) {
			e = -EINVAL;
			break;
		}
		*vals = xgrow(*vals, &cap, *n + 1, sizeof(**vals));
		(*vals)[(*n)++] = v;
	}
	free(copy);
	if (!e && *n == 0)
		e = -ENODATA;
	return e;
}

static int parse_names(const char *text, char (**names)[DEVFREQ_NAME_LEN], size_t *n)
{
	char *copy = xstrdup(text), *save = NULL, *tok;
	size_t cap = 0;

	*names = NULL;
	*n = 0;
	for (tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		*names = xgrow(*names, &cap, *n + 1, sizeof(**names));
		snprintf((*names)[*n], DEVFREQ_NAME_LEN, "%s", tok);
		(*n)++;
	}
	free(copy);
	return *n ? 0 : -ENODATA;
}

/* ---- trans_stat ----------------------------------------------------------
 *
 *      From  :   To
 *            : 534000000132000000019680000002400000000   time(ms)
 *   534000000:         0         0         0        12    438923
 * *2400000000:         3         7         2         0   1413100
 * Total transition : 33
 *
 * Header: "%10lu" per frequency with no separator. Rows: '*' or ' ', then
 * "%10lu:", "%10u" per column, "%10llu\n" ms. The counts are u32, so each
 * column is exactly 10 characters; the time may be wider and then runs into
 * the last count, so rows are cut by width when the column count is known. */

#define TS_COL 10

static const char *str_skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static bool all_space(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return false;
	return true;
}

/* One fixed-width column: blanks, then at least one digit, digits to the end. */
static bool fixed_col_ok(const char *s)
{
	size_t i = 0;

	while (i < TS_COL && s[i] == ' ')
		i++;
	if (i == TS_COL)
		return false;
	for (; i < TS_COL; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* Columns of the header line (text after the ':'), or 0 when it cannot be
 * told (truncated header, frequencies wider than 10 digits). */
static size_t header_cols(const char *after_colon)
{
	const char *t = strstr(after_colon, "time(ms)");
	size_t len;

	if (!t)
		return 0;
	while (t > after_colon && t[-1] == ' ')
		t--;
	len = (size_t)(t - after_colon);
	if (len == 0 || len % TS_COL)
		return 0;
	for (size_t i = 0; i < len; i += TS_COL)
		if (!fixed_col_ok(after_colon + i))
			return 0;
	return len / TS_COL;
}

/* Time column of a row with ncols known; false when the row is short. */
static bool row_time_fixed(const char *rest, size_t ncols, uint64_t *time_ms)
{
	size_t len = strlen(rest);

	if (len <= ncols * TS_COL)
		return false;
	for (size_t c = 0; c < ncols; c++)
		if (!fixed_col_ok(rest + c * TS_COL))
			return false;
	return str_to_u64(rest + ncols * TS_COL, time_ms) == 0;
}

/* Without a header: the last whitespace token is the time, the others the
 * counts. Returns the number of count tokens, or -1. */
static long row_time_tokens(const char *rest, uint64_t *time_ms)
{
	char *copy = xstrdup(rest), *save = NULL, *tok;
	long ntok = 0;
	bool bad = false;

	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (str_to_u64(tok, time_ms) != 0)
			bad = true;
		ntok++;
	}
	free(copy);
	return bad || ntok < 2 ? -1 : ntok - 1;
}

int devfreq_parse_trans_stat(const char *text, struct devfreq_dev *d)
{
	char *copy, *line, *next;
	size_t ncols = 0, cap = 0, cap2 = 0;
	bool have_header = false, partial = false;
	int e;

	free(d->trans_hz);
	free(d->trans_time_ms);
	d->trans_hz = d->trans_time_ms = NULL;
	d->ntrans = 0;
	d->trans_cur = -1;
	d->have_trans = false;
	d->have_total = false;
	d->total_trans = 0;
	d->trans_partial = false;
	if (!text)
		return -EINVAL;
	if (strstr(text, "Not Supported"))
		return -EOPNOTSUPP;
	if (!*text || !*str_skip_space(text))
		return -ENODATA;

	copy = xstrdup(text);
	for (line = copy; line && *line; line = next) {
		char *colon, *p, *rest;
		bool complete, star = false;
		uint64_t hz, ms;

		next = strchr(line, '\n');
		complete = next != NULL;
		if (next)
			*next++ = '\0';
		if (!complete) {
			/* The kernel ends every line with '\n': a last line
			 * without one was cut off and cannot be trusted. */
			partial = true;
			break;
		}
		if (str_starts(line, "Total transition")) {
			colon = strchr(line, ':');
			if (colon && str_to_u64(colon + 1, &d->total_trans) == 0)
				d->have_total = true;
			else
				partial = true;
			continue;
		}
		if (strstr(line, "From") && strstr(line, "To"))
			continue;
		colon = strchr(line, ':');
		if (!colon) {
			if (*str_trim(line))
				partial = true;
			continue;
		}
		*colon = '\0';
		rest = colon + 1;
		p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '*') {
			star = true;
			p++;
		}
		if (all_space(p, strlen(p)) && !star) {
			/* Header: the frequencies, then "   time(ms)". */
			have_header = true;
			ncols = header_cols(rest);
			continue;
		}
		if (str_to_u64(p, &hz) != 0) {
			partial = true;
			continue;
		}
		if (ncols) {
			if (!row_time_fixed(rest, ncols, &ms)) {
				partial = true;
				continue;
			}
		} else {
			long n = row_time_tokens(rest, &ms);

			if (n < 0) {
				partial = true;
				continue;
			}
		}
		d->trans_hz = xgrow(d->trans_hz, &cap, d->ntrans + 1, sizeof(uint64_t));
		d->trans_time_ms = xgrow(d->trans_time_ms, &cap2, d->ntrans + 1, sizeof(uint64_t));
		if (star)
			d->trans_cur = (int)d->ntrans;
		d->trans_hz[d->ntrans] = hz;
		d->trans_time_ms[d->ntrans] = ms;
		d->ntrans++;
	}
	free(copy);

	if (!have_header || !d->have_total || (ncols && d->ntrans != ncols))
		partial = true;
	d->have_trans = d->ntrans > 0;
	d->trans_partial = partial;
	if (!d->have_trans)
		e = partial ? -EINVAL : -ENODATA;
	else
		e = partial ? -EINVAL : 0;
	return e;
}

/* ---- reading ------------------------------------------------------------ */

/* Resolve a relative symlink target against the directory that holds the
 * link, normalising "." and "..": "sys/class/devfreq" + "../../devices/x"
 * -> "/sys/devices/x". */
static void resolve_link(const char *dir, const char *target, char *out, size_t cap)
{
	char buf[TT_PATH_MAX * 2];
	char *parts[128];
	size_t np = 0;
	char *save = NULL, *tok;
	size_t len = 0;

	if (target[0] == '/')
		snprintf(buf, sizeof(buf), "%s", target);
	else
		snprintf(buf, sizeof(buf), "%s/%s", dir, target);
	for (tok = strtok_r(buf, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			if (np)
				np--;
			continue;
		}
		if (np < sizeof(parts) / sizeof(parts[0]))
			parts[np++] = tok;
	}
	out[0] = '\0';
	for (size_t i = 0; i < np && len < cap; i++) {
		int n = snprintf(out + len, cap - len, "/%s", parts[i]);

		if (n < 0)
			break;
		len += (size_t)n;
	}
	if (!np)
		snprintf(out, cap, "/");
}

static int64_t read_i64_na(const struct sysroot *r, const char *base, const char *file)
{
	int64_t v;

	if (sysfs_read_i64f(r, &v, "%s/%s", base, file) == 0)
		return v;
	return -1;
}

/* The files that change while tunetop runs: governor, frequencies and their
 * limits, trans_stat, load. */
static void read_dev_dynamic(const struct sysroot *r, struct devfreq_dev *d)
{
	char base[TT_PATH_MAX], path[TT_PATH_MAX];
	char *text = NULL;
	int e;

	snprintf(base, sizeof(base), "sys/class/devfreq/%s", d->name);
	if (sysfs_read_strf(r, d->governor, sizeof(d->governor), "%s/governor", base) != 0)
		d->governor[0] = '\0';
	d->cur_hz = read_i64_na(r, base, "cur_freq");
	d->target_hz = read_i64_na(r, base, "target_freq");
	d->min_hz = read_i64_na(r, base, "min_freq");
	d->max_hz = read_i64_na(r, base, "max_freq");
	d->polling_ms = read_i64_na(r, base, "polling_interval");

	d->trans_hz = d->trans_time_ms = NULL;
	d->time_pct = NULL;
	d->ntrans = 0;
	d->trans_cur = -1;
	d->have_trans = d->have_total = d->trans_partial = false;
	snprintf(path, sizeof(path), "%s/trans_stat", base);
	e = sysfs_read_alloc(r, path, &text, NULL);
	if (e == 0) {
		/* -EINVAL with have_trans: truncated, the rows that parsed are kept. */
		e = devfreq_parse_trans_stat(text, d);
		free(text);
	}
	d->trans_err = e;

	if (sysfs_read_strf(r, d->load, sizeof(d->load), "%s/load", base) != 0)
		d->load[0] = '\0';

	d->transitions_per_s = NAN;
	if (d->ntrans) {
		d->time_pct = xmalloc(d->ntrans * sizeof(double));
		for (size_t i = 0; i < d->ntrans; i++)
			d->time_pct[i] = NAN;
	}
}

static void read_dev(const struct sysroot *r, const char *name, struct devfreq_dev *d)
{
	char base[TT_PATH_MAX], target[TT_PATH_MAX], buf[4096], devname[64];

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(base, sizeof(base), "sys/class/devfreq/%s", name);
	if (sysfs_readlink(r, base, target, sizeof(target)) == 0)
		resolve_link("sys/class/devfreq", target, d->path, sizeof(d->path));
	else
		snprintf(d->path, sizeof(d->path), "/%s", base);

	d->kind = devfreq_classify(name);
	/* Kernels 4.10-5.x named the class devices "devfreq0"...; the "name"
	 * file (and the parent directory) still carry the device's own name. */
	if (d->kind == DEVFREQ_OTHER &&
	    sysfs_read_strf(r, devname, sizeof(devname), "%s/name", base) == 0)
		d->kind = devfreq_classify(devname);
	if (d->kind == DEVFREQ_OTHER) {
		/* The parent device: ".../ff9a0000.gpu/devfreq/devfreq0". Only
		 * that component: the bus path above it names other things. */
		const char *p = strstr(d->path, "/devfreq/"), *q;
		char parent[64];

		if (p) {
			for (q = p; q > d->path && q[-1] != '/'; q--)
				;
			snprintf(parent, sizeof(parent), "%.*s", (int)(p - q), q);
			d->kind = devfreq_classify(parent);
		}
	}

	if (sysfs_read_strf(r, buf, sizeof(buf), "%s/available_governors", base) == 0)
		parse_names(buf, &d->avail_gov, &d->ngov);
	if (sysfs_read_strf(r, buf, sizeof(buf), "%s/available_frequencies", base) == 0 &&
	    parse_hz_list(buf, &d->avail_hz, &d->navail) != 0) {
		free(d->avail_hz);
		d->avail_hz = NULL;
		d->navail = 0;
	}
	read_dev_dynamic(r, d);
}

/* Why a path cannot be reached (0 when it exists). lstat's errno: -ENOENT
 * when debugfs is not mounted, -EACCES when /sys/kernel/debug is root-only. */
static int path_err(const struct sysroot *r, const char *path)
{
	char buf[8];
	int e;

	if (sysfs_is_dir(r, path))
		return 0;
	e = sysfs_readlink(r, path, buf, sizeof(buf));
	/* 0 / -EINVAL: it exists (a link or a plain file), just not a dir. */
	if (e == 0 || e == -EINVAL)
		return -ENOTDIR;
	return e;
}

static void read_clk_rate(const struct sysroot *r, struct devfreq_clk *c)
{
	uint64_t v;
	int e = sysfs_read_u64f(r, &v, "sys/kernel/debug/clk/%s/clk_rate", c->name);

	if (e == 0 && v > INT64_MAX)
		e = -ERANGE;
	c->err = e;
	c->rate_hz = e ? -1 : (int64_t)v;
}

static void read_clocks(const struct sysroot *r, const char *const *names, struct devfreq_info *d)
{
	bool explicit_list = names != NULL;
	size_t cap = 0;

	if (!names)
		names = default_clks;
	d->clk_err = path_err(r, "sys/kernel/debug/clk");
	if (d->clk_err == -ENOTDIR)
		d->clk_err = -ENOENT;
	for (size_t i = 0; names[i]; i++) {
		struct devfreq_clk c;

		memset(&c, 0, sizeof(c));
		snprintf(c.name, sizeof(c.name), "%s", names[i]);
		c.kind = devfreq_classify(names[i]);
		c.rate_hz = -1;
		if (d->clk_err) {
			if (!explicit_list)
				continue;
			c.err = d->clk_err;
		} else {
			read_clk_rate(r, &c);
			if (c.err == -ENOENT && !explicit_list)
				continue;
		}
		for (size_t k = 0; k < d->ndev; k++)
			if (c.kind != DEVFREQ_OTHER && d->dev[k].kind == c.kind)
				c.covered = true;
		d->clk = xgrow(d->clk, &cap, d->nclk + 1, sizeof(*d->clk));
		d->clk[d->nclk++] = c;
	}
}

int devfreq_clk_list_parse(const char *s, char ***out, char *why, size_t cap)
{
	char **v = NULL;
	size_t n = 0, vcap = 0, item = 1;
	const char *p = s ? s : "";

	if (out)
		*out = NULL;
	for (;;) {
		size_t len = strcspn(p, ",");

		if (len == 0) {
			snprintf(why, cap, "empty clock name (item %zu)", item);
			goto bad;
		}
		if (len >= sizeof(((struct devfreq_clk *)0)->name)) {
			snprintf(why, cap, "clock name '%.*s' longer than %zu characters", (int)len,
				 p, sizeof(((struct devfreq_clk *)0)->name) - 1);
			goto bad;
		}
		for (size_t i = 0; i < len; i++) {
			unsigned char c = (unsigned char)p[i];

			if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
			    !(c >= '0' && c <= '9') && c != '_' && c != '.' && c != '-') {
				snprintf(why, cap,
					 "bad character in clock name '%.*s' (allowed: A-Z a-z 0-9 "
					 "_ . -)",
					 (int)len, p);
				goto bad;
			}
		}
		if (out) {
			v = xgrow(v, &vcap, n + 2, sizeof(*v));
			v[n++] = xstrndup(p, len);
			v[n] = NULL;
		}
		if (!p[len])
			break;
		p += len + 1;
		item++;
	}
	if (out)
		*out = v;
	return 0;
bad:
	devfreq_clk_list_free(v);
	return -EINVAL;
}

void devfreq_clk_list_free(char **names)
{
	for (size_t i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

int devfreq_read(const struct sysroot *r, const char *const *clk_names, struct devfreq_info *out)
{
	struct sysfs_list l;
	int e;

	memset(out, 0, sizeof(*out));
	e = sysfs_list(r, "sys/class/devfreq", &l);
	out->err = e;
	if (e == 0) {
		out->dev = xcalloc(l.n ? l.n : 1, sizeof(*out->dev));
		for (size_t i = 0; i < l.n; i++)
			read_dev(r, l.names[i], &out->dev[out->ndev++]);
		sysfs_list_free(&l);
	}
	read_clocks(r, clk_names, out);
	/* No devfreq at all is a normal machine, not an error. */
	return e == -ENOENT ? 0 : e;
}

int devfreq_refresh(const struct sysroot *r, const struct devfreq_info *prev,
		    struct devfreq_info *out)
{
	if (!prev)
		return devfreq_read(r, NULL, out);
	*out = *prev;
	out->dev = xcalloc(prev->ndev ? prev->ndev : 1, sizeof(*out->dev));
	for (size_t i = 0; i < prev->ndev; i++) {
		struct devfreq_dev *d = &out->dev[i];

		*d = prev->dev[i];
		d->avail_gov = xdup_array(prev->dev[i].avail_gov, d->ngov, sizeof(*d->avail_gov));
		d->avail_hz = xdup_array(prev->dev[i].avail_hz, d->navail, sizeof(*d->avail_hz));
		read_dev_dynamic(r, d);
	}
	out->clk = xdup_array(prev->clk, prev->nclk, sizeof(*prev->clk));
	for (size_t i = 0; i < out->nclk; i++)
		if (!out->clk_err)
			read_clk_rate(r, &out->clk[i]);
	return 0;
}

/* ---- rates -------------------------------------------------------------- */

static const struct devfreq_dev *find_name(const struct devfreq_info *d, const char *name)
{
	if (!d)
		return NULL;
	for (size_t i = 0; i < d->ndev; i++)
		if (!strcmp(d->dev[i].name, name))
			return &d->dev[i];
	return NULL;
}

const struct devfreq_dev *devfreq_find(const struct devfreq_info *d, const char *name)
{
	const struct devfreq_dev *dev = find_name(d, name);

	if (dev || !d)
		return dev;
	for (int k = DEVFREQ_NPU; k < DEVFREQ_OTHER; k++) {
		if (strcmp(name, devfreq_kind_name((enum devfreq_kind)k)))
			continue;
		for (size_t i = 0; i < d->ndev; i++)
			if (d->dev[i].kind == (enum devfreq_kind)k)
				return &d->dev[i];
	}
	return NULL;
}

static void derive_dev(struct devfreq_dev *c, const struct devfreq_dev *p, double dt_s)
{
	uint64_t sum = 0;
	bool ok = true;

	c->transitions_per_s = NAN;
	for (size_t i = 0; i < c->ntrans; i++)
		c->time_pct[i] = NAN;
	if (!p || !(dt_s > 0))
		return;
	if (c->have_total && p->have_total && c->total_trans >= p->total_trans)
		c->transitions_per_s = (double)(c->total_trans - p->total_trans) / dt_s;

	if (!c->ntrans || !p->ntrans)
		return;
	/* Every state must be matched, and no time may go backwards (a stats
	 * reset or a re-probed device): otherwise no percentages. */
	for (size_t i = 0; i < c->ntrans && ok; i++) {
		size_t j;

		for (j = 0; j < p->ntrans; j++)
			if (p->trans_hz[j] == c->trans_hz[i])
				break;
		if (j == p->ntrans || c->trans_time_ms[i] < p->trans_time_ms[j])
			ok = false;
		else
			sum += c->trans_time_ms[i] - p->trans_time_ms[j];
	}
	if (ok && sum == 0 && c->transitions_per_s == 0)
		/* No time counted at any frequency and no transition: the
		 * kernel adds the current one's time at every read of
		 * trans_stat, so this is a tree nobody updates. */
		c->transitions_per_s = NAN;
	if (!ok || sum == 0)
		return;
	for (size_t i = 0; i < c->ntrans; i++) {
		for (size_t j = 0; j < p->ntrans; j++) {
			if (p->trans_hz[j] != c->trans_hz[i])
				continue;
			c->time_pct[i] = 100.0 *
					 (double)(c->trans_time_ms[i] - p->trans_time_ms[j]) /
					 (double)sum;
			break;
		}
	}
}

void devfreq_derive(struct devfreq_info *cur, const struct devfreq_info *prev, double dt_s)
{
	for (size_t i = 0; i < cur->ndev; i++)
		derive_dev(&cur->dev[i], find_name(prev, cur->dev[i].name), dt_s);
}

void devfreq_free(struct devfreq_info *d)
{
	for (size_t i = 0; i < d->ndev; i++) {
		struct devfreq_dev *x = &d->dev[i];

		xfree_all(x->avail_gov, x->avail_hz, x->trans_hz, x->trans_time_ms, x->time_pct);
	}
	free(d->dev);
	free(d->clk);
	memset(d, 0, sizeof(*d));
}
