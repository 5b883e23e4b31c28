/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tunetoprc parsing and atomic saving, driven by config_keys[] (one row per
 * setting). The file starts with "config_version=N"; a newer version is
 * read as far as it is understood and reported once. */
#include "ui/config.h"
#include "core/cpumask.h"
#include "model/selfplace.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "knob/hold.h"
#include "source/devfreq.h"
#include "sysfs/userfile.h"
#include "ui/counters_fmt.h"
#include "probe/ab.h"

#define OFF(f) offsetof(struct ui_config, f)

static int events_check(const char *val, char *why, size_t cap)
{
	return ctr_events_parse(val, NULL, why, cap);
}

/* Empty is the housekeeping CPUs; otherwise a CPU list. */
static int self_cpus_check(const char *val, char *why, size_t cap)
{
	struct cpumask m;

	if (!*val || (cpulist_parse(val, &m) == 0 && !cpumask_empty(&m)))
		return 0;
	snprintf(why, cap, "not a CPU list (e.g. 0 or 0-1,3)");
	return -EINVAL;
}

/* What --hold accepts. */
static int hold_check(const char *val, char *why, size_t cap)
{
	enum knob_hold_mode m;

	if (knob_hold_mode_parse(val, &m) == 0)
		return 0;
	snprintf(why, cap, "off, report or reassert");
	return -EINVAL;
}

/* Empty is the default list; otherwise what --clocks accepts. */
static int clocks_check(const char *val, char *why, size_t cap)
{
	return *val ? devfreq_clk_list_parse(val, NULL, why, cap) : 0;
}

const struct config_key config_keys[] = {
	{"theme", CONFIG_STR, OFF(theme), 0, 32, "Theme"},
	{"delay", CONFIG_INT, OFF(delay_tenths), 1, 600, "Refresh interval (tenths of a second)"},
	{"start_screen", CONFIG_STR, OFF(start_screen), 0, 16, "Screen shown at start"},
	{"column_type", CONFIG_BOOL, OFF(col_type), 0, 1, "Cores: core type column"},
	{"column_util", CONFIG_BOOL, OFF(col_util), 0, 1, "Cores: utilisation bar"},
	{"column_freq", CONFIG_BOOL, OFF(col_freq), 0, 1, "Cores: frequency bar"},
	{"column_idle", CONFIG_BOOL, OFF(col_idle), 0, 1, "Cores: C-state residency bar"},
	{"column_rates", CONFIG_BOOL, OFF(col_rates), 0, 1, "Cores: idle entries/s and misses/s"},
	{"column_temp", CONFIG_BOOL, OFF(col_temp), 0, 1, "Cores: temperature"},
	{"column_counters", CONFIG_BOOL, OFF(col_counters), 0, 1,
	 "Cores: counters (IPC, misses/s, csw/s, migr/s)"},
	{"thread_counters", CONFIG_BOOL, OFF(thread_counters), 0, 1,
	 "Threads: counters pane of the selected thread"},
	{"events", CONFIG_LIST, OFF(events), 0, 256, "Counters: events (empty = default set)",
	 events_check},
	{"clocks", CONFIG_LIST, OFF(clocks), 0, 256,
	 "Clocks: debugfs clocks, comma-separated (empty = default list)", clocks_check},
	{"header_clocks", CONFIG_BOOL, OFF(hdr_clocks), 0, 1, "Header: DDR / NPU / GPU clocks"},
	{"freq_ghz", CONFIG_BOOL, OFF(freq_ghz), 0, 1, "Units: frequencies in GHz"},
	{"mouse", CONFIG_BOOL, OFF(mouse), 0, 1, "Mouse support"},
	{"confirm_quit", CONFIG_BOOL, OFF(confirm_quit), 0, 1,
	 "Ask restore / keep on quit when changes are active"},
	{"probe_interval_us", CONFIG_INT, OFF(probe_interval_us), 10, 1000000,
	 "Latency: probe interval (us)"},
	{"ab_window_s", CONFIG_INT, OFF(ab_window_s), 1, 3600, "A/B: measuring window (s)"},
	{"ab_settle_ms", CONFIG_INT, OFF(ab_settle_ms), 0, 60000,
	 "A/B: settle time after each switch (ms)"},
	{"ab_rounds", CONFIG_INT, OFF(ab_rounds), 1, 100, "A/B: ABBA rounds (4 windows each)"},
	{"latency_budget_us", CONFIG_INT, OFF(latency_budget_us), 1, 100000,
	 "Findings: latency budget (us)"},
	{"irq_try_s", CONFIG_INT, OFF(irq_try_s), 1, 600,
	 "Isolation: t waits this long for the kernel to move an IRQ (s)"},
	{"self_cpus", CONFIG_LIST, OFF(self_cpus), 0, 64,
	 "Self: CPUs tunetop's own threads run on (empty = housekeeping CPUs)", self_cpus_check},
	{"self_nice", CONFIG_INT, OFF(self_nice), -20, 19, "Self: nice of tunetop's own threads"},
	{"hold", CONFIG_STR, OFF(hold), 0, 16,
	 "Hold: a change written over outside tunetop (off, report, reassert)", hold_check},
};
const size_t config_nkeys = sizeof(config_keys) / sizeof(config_keys[0]);

void config_defaults(struct ui_config *c)
{
	memset(c, 0, sizeof(*c));
	c->version = CONFIG_VERSION;
	str_copy(c->theme, sizeof(c->theme), "default");
	c->delay_tenths = 10;
	str_copy(c->start_screen, sizeof(c->start_screen), "cores");
	c->col_type = c->col_util = c->col_freq = c->col_idle = c->col_rates = c->col_temp = true;
	c->col_counters = c->thread_counters = true;
	c->hdr_clocks = true;
	c->mouse = true;
	c->confirm_quit = true;
	c->probe_interval_us = PROBE_DEFAULT_INTERVAL_US;
	c->ab_window_s = (int)AB_DEFAULT_WINDOW_S;
	c->ab_settle_ms = AB_DEFAULT_SETTLE_MS;
	c->ab_rounds = AB_DEFAULT_ROUNDS;
	c->latency_budget_us = 100;
	c->irq_try_s = 3;
	c->self_cpus[0] = '\0';
	c->self_nice = SELF_NICE_DEFAULT;
	str_copy(c->hold, sizeof(c->hold), "report");
}

void config_get(const struct ui_config *c, const struct config_key *k, char *buf, size_t cap)
{
	const char *base = (const char *)c + k->offset;

	switch (k->type) {
	case CONFIG_BOOL: snprintf(buf, cap, "%d", *(const bool *)base ? 1 : 0); break;
	case CONFIG_INT: snprintf(buf, cap, "%d", *(const int *)base); break;
	case CONFIG_STR:
	case CONFIG_LIST: snprintf(buf, cap, "%s", base); break;
	}
}

const struct config_key *config_key_find(const char *name)
{
	for (size_t i = 0; i < config_nkeys; i++)
		if (!strcmp(config_keys[i].key, name))
			return &config_keys[i];
	return NULL;
}

int config_set(struct ui_config *c, const struct config_key *k, const char *val)
{
	return config_set_why(c, k, val, NULL, 0);
}

int config_set_why(struct ui_config *c, const struct config_key *k, const char *val, char *why,
		   size_t cap)
{
	char *base = (char *)c + k->offset, quiet[80];
	int n;

	if (why && cap)
		why[0] = '\0';

	switch (k->type) {
	case CONFIG_BOOL:
		if (!strcmp(val, "1") || !strcmp(val, "yes") || !strcmp(val, "true") ||
		    !strcmp(val, "on"))
			*(bool *)base = true;
		else if (!strcmp(val, "0") || !strcmp(val, "no") || !strcmp(val, "false") ||
			 !strcmp(val, "off"))
			*(bool *)base = false;
		else
			return -EINVAL;
		return 0;
	case CONFIG_INT:
		if (str_to_int(val, &n) != 0)
			return -EINVAL;
		if (n < k->min || n > k->max)
			return -ERANGE;
		*(int *)base = n;
		return 0;
	case CONFIG_STR:
		if (!*val || strlen(val) >= (size_t)k->max)
			return -ERANGE;
		for (const char *p = val; *p; p++)
			if (*p <= ' ' || *p == '/' || *p > '~')
				return -EINVAL;
		if (k->check && k->check(val, why ? why : quiet, why ? cap : sizeof(quiet)) != 0)
			return -EINVAL;
		str_copy(base, (size_t)k->max, val);
		return 0;
	case CONFIG_LIST:
		if (strlen(val) >= (size_t)k->max) {
			if (why)
				snprintf(why, cap, "longer than %d characters", k->max - 1);
			return -ERANGE;
		}
		for (const char *p = val; *p; p++)
			if (*p < ' ' || *p > '~') {
				if (why)
					snprintf(why, cap, "not printable ASCII");
				return -EINVAL;
			}
		if (k->check && k->check(val, why, cap) != 0)
			return -EINVAL;
		str_copy(base, (size_t)k->max, val);
		return 0;
	}
	return -EINVAL;
}

int config_parse(const char *text, struct ui_config *c, struct sbuf *errs)
{
	const char *p = text;
	int lineno = 0, bad = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len), *eq, *key, *val;
		const struct config_key *k = NULL;
		char why[200];
		int e;

		lineno++;
		p += len + (nl ? 1 : 0);
		key = str_trim(line);
		if (!*key || *key == '#') {
			free(line);
			continue;
		}
		eq = strchr(key, '=');
		if (!eq) {
			if (errs)
				sbuf_printf(errs, "line %d: not key=value\n", lineno);
			bad++;
			free(line);
			continue;
		}
		*eq = '\0';
		val = str_trim(eq + 1);
		key = str_trim(key);
		if (!strcmp(key, "config_version")) {
			int v;

			if (str_to_int(val, &v) != 0 || v < 1) {
				if (errs)
					sbuf_printf(errs, "line %d: bad config_version '%s'\n",
						    lineno, val);
				bad++;
			} else if (v > CONFIG_VERSION) {
				if (errs)
					sbuf_printf(errs,
						    "line %d: config_version %d is newer than %d: "
						    "reading what is understood\n",
						    lineno, v, CONFIG_VERSION);
				bad++;
			}
			free(line);
			continue;
		}
		for (size_t i = 0; i < config_nkeys; i++)
			if (!strcmp(config_keys[i].key, key))
				k = &config_keys[i];
		if (!k) {
			if (errs)
				sbuf_printf(errs, "line %d: unknown key '%s'\n", lineno, key);
			bad++;
		} else if ((e = config_set_why(c, k, val, why, sizeof(why))) != 0) {
			if (k->type == CONFIG_LIST) /* lists default to empty */
				((char *)c + k->offset)[0] = '\0';
			if (errs && k->type == CONFIG_LIST)
				sbuf_printf(errs, "line %d: %s: %s: using the default%s\n", lineno,
					    key, why[0] ? why : "bad value",
					    k->offset == OFF(events) ? " set" : "");
			else if (errs)
				sbuf_printf(errs, "line %d: %s: bad value '%s'%s\n", lineno, key,
					    val, e == -ERANGE ? " (out of range)" : "");
			bad++;
		}
		free(line);
	}
	return bad;
}

void config_format(const struct ui_config *c, struct sbuf *out)
{
	char v[300];

	sbuf_printf(out, "# tunetop settings (written by tunetop; edit with F2 or by hand)\n");
	sbuf_printf(out, "config_version=%d\n", CONFIG_VERSION);
	for (size_t i = 0; i < config_nkeys; i++) {
		config_get(c, &config_keys[i], v, sizeof(v));
		sbuf_printf(out, "%s=%s\n", config_keys[i].key, v);
	}
}

int config_path(char *buf, size_t cap)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	if (xdg && xdg[0] == '/')
		snprintf(buf, cap, "%s/tunetop/tunetoprc", xdg);
	else if (home && *home)
		snprintf(buf, cap, "%s/.config/tunetop/tunetoprc", home);
	else
		return -ENOENT;
	return 0;
}

int config_load(const char *path, struct ui_config *c, struct sbuf *errs)
{
	char *text = NULL;
	int bad;

	/* never blocks on a FIFO; a regular file of at most 1 MiB */
	bad = userfile_read(path, 0, USERFILE_MAX_TEXT, &text, NULL);
	if (bad)
		return bad == -ENOENT ? 0 : bad;
	bad = config_parse(text, c, errs);
	free(text);
	return bad;
}

static int mkdir_p(const char *dir)
{
	char tmp[512];

	if (str_copy(tmp, sizeof(tmp), dir) >= sizeof(tmp))
		return -ENAMETOOLONG;
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int config_save(const char *path, const struct ui_config *c)
{
	char dir[512], tmp[560];
	char *slash;
	struct sbuf b;
	int fd, e = 0;
	struct stat st;

	if (str_copy(dir, sizeof(dir), path) >= sizeof(dir))
		return -ENAMETOOLONG;
	slash = strrchr(dir, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	e = mkdir_p(dir);
	if (e)
		return e;
	/* Like htop: only replace a regular file (or nothing). */
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return -EEXIST;
	snprintf(tmp, sizeof(tmp), "%s/.tunetoprc.XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	sbuf_init(&b);
	config_format(c, &b);
	if (write(fd, b.s, b.len) != (ssize_t)b.len)
		e = errno ? -errno : -EIO;
	if (!e && fsync(fd) != 0)
		e = -errno;
	if (close(fd) != 0 && !e)
		e = -errno;
	sbuf_free(&b);
	if (!e && rename(tmp, path) != 0)
		e = -errno;
	if (e) {
		unlink(tmp);
		return e;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	return 0;
}
