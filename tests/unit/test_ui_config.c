/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the TUI's data files and the demo simulator, none of which
 * need a terminal: theme styles and theme files (src/ui/theme.c), tunetoprc
 * parsing, formatting and atomic saving (src/ui/config.c), and the
 * simulator (src/model/sim.c): unpacking the bundle (and its ustar reader
 * on hostile archives) and reacting to knob files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/str.h"
#include "model/sim.h"
#include "sysfs/sysroot.h"
#include "tap.h"
#include "ui/config.h"
#include "ui/theme.h"

static void test_styles(void)
{
	struct theme_style s;

	ok(theme_parse_style("black,yellow,bold", &s) == 0 && s.fg == 0 && s.bg == 3 &&
		   s.attrs == TA_BOLD,
	   "fg,bg,attr");
	ok(theme_parse_style("reverse", &s) == 0 && s.fg == -1 && s.bg == -1 &&
		   s.attrs == TA_REVERSE,
	   "attributes only");
	ok(theme_parse_style("brightwhite, 208 ,underline,dim", &s) == 0 && s.fg == 15 &&
		   s.bg == 208 && s.attrs == (TA_UNDERLINE | TA_DIM),
	   "bright names, numbers, spaces");
	ok(theme_parse_style("default,default", &s) == 0 && s.fg == -1 && s.bg == -1, "default");
	ok(theme_parse_style("purple", &s) == -EINVAL, "unknown colour refused");
	ok(theme_parse_style("red,green,blue", &s) == -EINVAL, "three colours refused");
	ok(theme_parse_style("256", &s) == -EINVAL, "colour out of range refused");
	ok(theme_parse_style("", &s) == 0 && s.fg == -1, "empty = default");
	ok(theme_role_by_name("state.changed") == ROLE_CHANGED, "role by name");
	ok(theme_role_by_name("nope") == -1, "unknown role");
	for (int r = 0; r < ROLE_COUNT; r++)
		if (theme_role_by_name(theme_role_name((enum role)r)) != r) {
			ok(0, "role %d round trip", r);
			return;
		}
	ok(1, "every role name round-trips");
}

static void test_theme_file(void)
{
	struct theme t;
	struct sbuf errs;

	sbuf_init(&errs);
	ok(theme_parse("[theme]\nname = x\ndescription = test\n[colors]\nstate.changed = red,blue\n"
		       "nosuch.role = red\nvalue = nocolour\n[other]\nk = v\n",
		       &t, &errs) == 0,
	   "theme parsed");
	is_str(t.name, "x", "name");
	ok(t.style[ROLE_CHANGED].fg == 1 && t.style[ROLE_CHANGED].bg == 4, "role set");
	ok(t.style[ROLE_ALERT].fg == 1, "unnamed roles keep the default");
	ok(errs.s && strstr(errs.s, "nosuch.role") && strstr(errs.s, "nocolour") &&
		   strstr(errs.s, "[other]"),
	   "problems reported, not fatal");
	sbuf_free(&errs);

	/* the shipped files parse without a single problem */
	{
		static const char *const names[] = {"default", "monochrome", "light",
						    "high-contrast"};
		char dir[600];

		snprintf(dir, sizeof(dir), "%s/themes",
			 getenv("TT_SRCDIR") ? getenv("TT_SRCDIR") : ".");
		setenv("TUNETOP_THEMES_DIR", dir, 1);
		for (size_t i = 0; i < 4; i++) {
			char path[700];

			sbuf_init(&errs);
			ok(theme_load(names[i], &t, &errs, path, sizeof(path)) == 0 && !errs.len &&
				   strstr(path, names[i]),
			   "themes/%s.theme loads cleanly", names[i]);
			if (errs.len)
				printf("# %s", errs.s);
			sbuf_free(&errs);
		}
		ok(theme_load("monochrome", &t, NULL, NULL, 0) == 0 && t.mono,
		   "monochrome is mono");
		setenv("TUNETOP_THEMES_DIR", "/nonexistent", 1);
		ok(theme_load("default", &t, NULL, NULL, 0) == 0, "default is compiled in");
		ok(theme_load("nosuchtheme", &t, NULL, NULL, 0) == -ENOENT,
		   "unknown theme: ENOENT");
		ok(theme_load("../etc/passwd", &t, NULL, NULL, 0) == -EINVAL,
		   "path in a name refused");
		unsetenv("TUNETOP_THEMES_DIR");
	}
}

static void test_config(const char *tmp)
{
	struct ui_config c, d;
	struct sbuf errs, out;
	char path[600];
	int bad;

	config_defaults(&c);
	ok(c.delay_tenths == 10 && c.col_temp && !strcmp(c.theme, "default"), "defaults");
	sbuf_init(&errs);
	bad = config_parse("# comment\nconfig_version=1\n\ntheme=light\ndelay=5\ncolumn_temp=0\n"
			   "bogus=1\ndelay=9999\nmouse=maybe\nno equals\nconfig_version=7\n",
			   &c, &errs);
	is_int(bad, 5, "five problems");
	ok(errs.s && strstr(errs.s, "line 7: unknown key 'bogus'"), "unknown key with its line");
	ok(errs.s && strstr(errs.s, "line 8: delay: bad value '9999' (out of range)"),
	   "range checked");
	ok(errs.s && strstr(errs.s, "line 9: mouse: bad value 'maybe'"), "bool checked");
	ok(errs.s && strstr(errs.s, "line 10: not key=value"), "syntax");
	ok(errs.s && strstr(errs.s, "line 11: config_version 7 is newer"), "newer version noted");
	ok(!strcmp(c.theme, "light") && c.delay_tenths == 5 && !c.col_temp && c.mouse,
	   "good lines applied, bad ones ignored");
	sbuf_free(&errs);

	sbuf_init(&out);
	config_format(&c, &out);
	ok(out.s && strstr(out.s, "config_version=1\n") && strstr(out.s, "theme=light\n") &&
		   strstr(out.s, "column_temp=0\n"),
	   "formatted");
	config_defaults(&d);
	ok(config_parse(out.s, &d, NULL) == 0 && !memcmp(&c, &d, sizeof(c)),
	   "format/parse round trip");
	sbuf_free(&out);

	snprintf(path, sizeof(path), "%s/cfg/sub/tunetoprc", tmp);
	ok(config_save(path, &c) == 0, "saved (directories created)");
	config_defaults(&d);
	ok(config_load(path, &d, NULL) == 0 && !memcmp(&c, &d, sizeof(c)), "loaded back");
	{
		struct stat st;
		char dir[620];

		snprintf(dir, sizeof(dir), "%s/cfg/sub", tmp);
		ok(stat(dir, &st) == 0 && (st.st_mode & 077) == 0, "directory is private");
	}
	snprintf(path, sizeof(path), "%s/cfg/missing/tunetoprc", tmp);
	config_defaults(&d);
	ok(config_load(path, &d, NULL) == 0, "a missing file is not an error");
	{
		struct ui_config e;
		const struct config_key *k = NULL;

		for (size_t i = 0; i < config_nkeys; i++)
			if (!strcmp(config_keys[i].key, "theme"))
				k = &config_keys[i];
		config_defaults(&e);
		ok(k && config_set(&e, k, "../x") == -EINVAL, "theme names with / refused");
	}
}

static void test_sim(const char *tmp)
{
	const char *tt = getenv("TUNETOP");
	char bundle[600], err[256], path[700];
	struct sim *s = NULL;
	struct sysroot r;
	uint64_t v1, v2;
	char root[600];

	/* the bundle is built next to the program */
	snprintf(bundle, sizeof(bundle), "%s", tt ? tt : "./tunetop");
	if (strrchr(bundle, '/'))
		strcpy(strrchr(bundle, '/') + 1, "rk3588-demo.tar");
	else
		snprintf(bundle, sizeof(bundle), "rk3588-demo.tar");
	if (access(bundle, R_OK) != 0) {
		printf("ok %d - simulator # SKIP no demo bundle at %s\n", ++tap_n, bundle);
		return;
	}
	setenv("TMPDIR", tmp, 1);
	ok(sim_open(&s, bundle, err, sizeof(err)) == 0, "simulator opened");
	if (!s)
		return;
	snprintf(root, sizeof(root), "%s", sim_root(s));
	ok(sysroot_open(&r, root) == 0, "its root opens");
	ok(sysfs_exists(&r, "sys/class/devfreq/dmc/cur_freq"), "symlinks kept (class/devfreq)");
	ok(sysfs_exists(&r, "dev/cpu_dma_latency"), "PM QoS stand-in created");
	/* performance: the policy goes to its maximum */
	ok(sysfs_write_str(&r, "sys/devices/system/cpu/cpufreq/policy0/scaling_governor",
			   "performance") == 0,
	   "governor written");
	sim_step(s, 1.0);
	ok(sysfs_read_u64(&r, "sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq", &v1) ==
			   0 &&
		   v1 == 1800000,
	   "performance -> 1800000 kHz");
	sysfs_write_str(&r, "sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq", "1008000");
	sim_step(s, 1.0);
	ok(sysfs_read_u64(&r, "sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq", &v1) ==
			   0 &&
		   v1 == 1008000,
	   "limits respected");
	sysfs_write_str(&r, "sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "powersave");
	sim_step(s, 1.0);
	ok(sysfs_read_u64(&r, "sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq", &v1) ==
			   0 &&
		   v1 == 408000,
	   "powersave -> 408000 kHz");
	/* a disabled idle state stops */
	sysfs_write_str(&r, "sys/devices/system/cpu/cpu2/cpuidle/state1/disable", "1");
	sysfs_read_u64(&r, "sys/devices/system/cpu/cpu2/cpuidle/state1/time", &v1);
	sim_step(s, 1.0);
	sysfs_read_u64(&r, "sys/devices/system/cpu/cpu2/cpuidle/state1/time", &v2);
	ok(v1 == v2, "disabled state accumulates nothing");
	sysfs_read_u64(&r, "sys/devices/system/cpu/cpu3/cpuidle/state1/time", &v1);
	sim_step(s, 1.0);
	sysfs_read_u64(&r, "sys/devices/system/cpu/cpu3/cpuidle/state1/time", &v2);
	ok(v2 > v1, "enabled state accumulates");
	/* devfreq follows its governor */
	sysfs_write_str(&r, "sys/class/devfreq/dmc/governor", "powersave");
	sim_step(s, 1.0);
	ok(sysfs_read_u64(&r, "sys/class/devfreq/dmc/cur_freq", &v1) == 0 && v1 == 534000000,
	   "dmc powersave -> 534 MHz");
	{
		char ts[2048];

		ok(sysfs_read(&r, "sys/class/devfreq/dmc/trans_stat", ts, sizeof(ts), NULL) == 0 &&
			   strstr(ts, "* 534000000:") && strstr(ts, "Total transition : "),
		   "trans_stat in the kernel's format");
	}
	/* RT throttling when the demand exceeds the runtime */
	{
		char *dbg = NULL;
		bool seen = false;

		for (int i = 0; i < 12 && !seen; i++) {
			sim_step(s, 1.0);
			if (sysfs_read_alloc(&r, "sys/kernel/debug/sched/debug", &dbg, NULL) == 0) {
				char *p = strstr(dbg, "rt_rq[7]:");

				seen = p && strstr(p, ".rt_throttled                  : 1");
				free(dbg);
			}
		}
		ok(seen, "RT throttling appears on CPU 7");
		sysfs_write_str(&r, "proc/sys/kernel/sched_rt_runtime_us", "-1");
		sim_step(s, 0.5);
		sysfs_read_alloc(&r, "sys/kernel/debug/sched/debug", &dbg, NULL);
		ok(dbg && !strstr(dbg, ".rt_throttled                  : 1"),
		   "unlimited: no throttling");
		free(dbg);
	}
	sysroot_close(&r);
	snprintf(path, sizeof(path), "%s", root);
	sim_close(s);
	ok(access(path, F_OK) != 0, "temporary root removed");
}

/* clocks=: a good list is kept (and written back), a bad one is reported
 * on one line and the default (empty) is used; never fatal. */
/* ---- the demo bundle's ustar reader ------------------------------------- */

/* Append one ustar member (header, data padded to 512) to b. */
static void tar_add(struct sbuf *b, const char *name, char type, const char *link, const char *data)
{
	char h[512] = {0}, pad[512] = {0};
	size_t n = data ? strlen(data) : 0;

	str_copy(h, 100, name);
	snprintf(h + 100, 8, "0000644");
	snprintf(h + 124, 12, "%011zo", n);
	h[156] = type;
	if (link)
		str_copy(h + 157, 100, link);
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	sbuf_putn(b, h, sizeof(h));
	if (n) {
		sbuf_putn(b, data, n);
		sbuf_putn(b, pad, (512 - n % 512) % 512);
	}
}

struct tar_seen {
	char names[8][64];
	char data[64];
	int n;
};

static int tar_collect(const struct sim_tar_entry *e, void *ctx)
{
	struct tar_seen *s = ctx;

	if (s->n < 8)
		str_copy(s->names[s->n++], sizeof(s->names[0]), e->rel);
	if (e->data)
		snprintf(s->data, sizeof(s->data), "%.*s", (int)e->size, e->data);
	return 0;
}

static int tar_walk(const char *const *names, const char *const *types, const char *link,
		    struct tar_seen *seen)
{
	struct sbuf b;
	int e;

	sbuf_init(&b);
	for (size_t i = 0; names[i]; i++)
		tar_add(&b, names[i], types[i][0], types[i][0] == '2' ? link : NULL,
			types[i][0] == '0' ? "hi" : NULL);
	memset(seen, 0, sizeof(*seen));
	e = sim_tar_walk(b.s, b.len, tar_collect, seen);
	sbuf_free(&b);
	return e;
}

static void test_tar(const char *tmp)
{
	static const char *const good[] = {"top/", "top/a/", "top/a/f", "top/l", NULL};
	static const char *const good_t[] = {"5", "5", "0", "2"};
	static const char *const bad[][3] = {
		{"top/l", "top/l/x", NULL}, /* through the archive's own symlink */
		{"top/a", "top/./x", NULL},
		{"top/a", "top/a//x", NULL},
		{"top/a", "top/a/../../x", NULL},
		{"top/a", "top//etc/x", NULL}, /* absolute once the top is dropped */
	};
	static const char *const bad_t[] = {"2", "0"};
	struct tar_seen seen;
	struct sbuf b;
	char path[512], out[512], root[512];
	FILE *f;

	is_int(tar_walk(good, good_t, "/etc", &seen), 0, "ustar: a plain archive walks");
	is_int(seen.n, 3, "  three members below the top directory");
	is_str(seen.names[1], "a/f", "  first component dropped");
	is_str(seen.data, "hi", "  file data handed over");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		is_int(tar_walk(bad[i], bad_t, "/tmp", &seen), -EINVAL, bad[i][1]);
	/* cut archives */
	sbuf_init(&b);
	tar_add(&b, "top/f", '0', NULL, "hello");
	is_int(sim_tar_walk(b.s, 512 + 3, tar_collect, &seen), -EIO, "ustar: data cut off: -EIO");
	is_int(sim_tar_walk(b.s, 100, tar_collect, &seen), -EINVAL,
	       "ustar: header cut off: -EINVAL");
	/* sim_untar must not write through a symlink the archive made: a link
	 * to a directory outside, then a file "below" the link */
	sbuf_reset(&b);
	snprintf(out, sizeof(out), "%s/outside", tmp);
	snprintf(root, sizeof(root), "%s/untar", tmp);
	mkdir(out, 0755);
	mkdir(root, 0755);
	tar_add(&b, "top/", '5', NULL, NULL);
	tar_add(&b, "top/esc", '2', out, NULL);
	tar_add(&b, "top/esc/pwned", '0', NULL, "x");
	snprintf(path, sizeof(path), "%s/evil.tar", tmp);
	f = fopen(path, "w");
	ok(f && fwrite(b.s, 1, b.len, f) == b.len && fclose(f) == 0, "evil archive written");
	is_int(sim_untar(path, root), -EINVAL, "sim_untar refuses a member below its symlink");
	snprintf(path, sizeof(path), "%s/pwned", out);
	ok(access(path, F_OK) != 0, "  nothing written outside the root");
	sbuf_free(&b);
}

static void test_clocks_key(void)
{
	struct ui_config c, d;
	struct sbuf errs, out;

	config_defaults(&c);
	is_str(c.clocks, "", "clocks: default is empty (the built-in list)");
	sbuf_init(&errs);
	is_int(config_parse("config_version=1\nclocks=scmi_clk_cpul,scmi_clk_npu\n", &c, &errs), 0,
	       "clocks=scmi_clk_cpul,scmi_clk_npu accepted");
	is_str(c.clocks, "scmi_clk_cpul,scmi_clk_npu", "clocks kept");
	sbuf_init(&out);
	config_format(&c, &out);
	ok(out.s && strstr(out.s, "\nclocks=scmi_clk_cpul,scmi_clk_npu\n") != NULL,
	   "clocks written back");
	config_defaults(&d);
	config_parse(out.s, &d, NULL);
	is_str(d.clocks, c.clocks, "clocks round-trips");
	sbuf_free(&out);
	sbuf_free(&errs);

	sbuf_init(&errs);
	config_defaults(&c);
	is_int(config_parse("config_version=1\nclocks=scmi_clk_npu,,x\ndelay=7\n", &c, &errs), 1,
	       "clocks with an empty item: one problem");
	is_str(c.clocks, "", "  the default list is used");
	is_int(c.delay_tenths, 7, "  the rest of the file is read");
	ok(errs.s && strstr(errs.s, "line 2: clocks:") && strstr(errs.s, "empty clock name") &&
		   strchr(errs.s, '\n') == errs.s + errs.len - 1,
	   "  reported on one line");
	sbuf_free(&errs);

	sbuf_init(&errs);
	config_defaults(&c);
	is_int(config_parse("config_version=1\nclocks=clk/npu\n", &c, &errs), 1,
	       "clocks with a '/': one problem");
	ok(errs.s && strstr(errs.s, "bad character"), "  says bad character");
	sbuf_free(&errs);
}

/* hold= (the default of --hold): off, report, reassert; anything else is a
 * problem, the default (report) stays and the rest of the file is read */
static void test_hold_key(void)
{
	static const struct {
		const char *line, *want;
		int problems;
	} cases[] = {
		{"hold=reassert", "reassert", 0},
		{"hold=off", "off", 0},
		{"hold=sometimes", "report", 1},
		{"hold=", "report", 1},
	};
	struct ui_config c;

	config_defaults(&c);
	is_str(c.hold, "report", "hold defaults to report");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[128], name[128];
		struct sbuf errs, out;

		snprintf(text, sizeof(text), "config_version=1\n%s\ndelay=7\n", cases[i].line);
		sbuf_init(&errs);
		sbuf_init(&out);
		config_defaults(&c);
		snprintf(name, sizeof(name), "%s: %d problem(s)", cases[i].line, cases[i].problems);
		is_int(config_parse(text, &c, &errs), cases[i].problems, name);
		snprintf(name, sizeof(name), "  hold is %s", cases[i].want);
		is_str(c.hold, cases[i].want, name);
		is_int(c.delay_tenths, 7, "  the rest of the file is read");
		config_format(&c, &out);
		snprintf(name, sizeof(name), "hold=%s\n", cases[i].want);
		ok(out.s && strstr(out.s, name), "  written as %s", cases[i].want);
		ok(!cases[i].problems || (errs.s && strstr(errs.s, "line 2: hold: bad value")),
		   "  %s", cases[i].problems ? "the bad line is reported" : "nothing reported");
		sbuf_free(&out);
		sbuf_free(&errs);
	}
}

int main(void)
{
	char tmp[] = "/tmp/tt-uiconf.XXXXXX";

	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	test_styles();
	test_theme_file();
	test_config(tmp);
	test_clocks_key();
	test_hold_key();
	test_sim(tmp);
	test_tar(tmp);
	sim_rmtree(tmp);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
