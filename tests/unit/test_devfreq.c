/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/source/devfreq (classification, the trans_stat parser
 * with the kernel's run-together columns and truncated input, reading the
 * fixtures, rates between two samples) and src/out/devfreq_out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json.h"
#include "core/str.h"
#include "out/devfreq_out.h"
#include "source/devfreq.h"
#include "tap.h"

/* OPi 5 Max capture (tests/fixtures/rk3588/README): 10-digit frequencies run together. */
static const char opi5max[] = "     From  :   To\n"
			      "           : 534000000132000000019680000002400000000   time(ms)\n"
			      "  534000000:         0         0         0        12    438923\n"
			      " 1320000000:         7         0         0         0      1660\n"
			      " 1968000000:         2         0         0         0       136\n"
			      "*2400000000:         3         7         2         0   1413100\n"
			      "Total transition : 33\n";

/* OPi5 5.10 capture: '*' followed by a blank-padded 9-digit frequency. */
static const char opi5[] = "     From  :   To\n"
			   "           : 528000000106800000015600000002112000000   time(ms)\n"
			   "* 528000000:         0         0         0        37 110661386\n"
			   " 1068000000:        12         0         0         0     34776\n"
			   " 1560000000:         0         0         0         0         0\n"
			   " 2112000000:        26        12         0         0    224716\n"
			   "Total transition : 87\n";

static struct devfreq_dev dev0(void)
{
	struct devfreq_dev d;

	memset(&d, 0, sizeof(d));
	return d;
}

static void dev_clear(struct devfreq_dev *d)
{
	free(d->trans_hz);
	free(d->trans_time_ms);
	d->trans_hz = d->trans_time_ms = NULL;
}

static void test_classify(void)
{
	is_str(devfreq_kind_name(devfreq_classify("dmc")), "ddr", "dmc -> ddr");
	is_str(devfreq_kind_name(devfreq_classify("rockchip-dmc")), "ddr", "*dmc* -> ddr");
	is_str(devfreq_kind_name(devfreq_classify("imx-ddr")), "ddr", "imx-ddr -> ddr");
	is_str(devfreq_kind_name(devfreq_classify("3d400000.ddr")), "ddr", "*.ddr -> ddr");
	is_str(devfreq_kind_name(devfreq_classify("fdab0000.npu")), "npu", "*.npu -> npu");
	is_str(devfreq_kind_name(devfreq_classify("rknpu")), "npu", "*npu* -> npu");
	is_str(devfreq_kind_name(devfreq_classify("fb000000.gpu")), "gpu", "*.gpu -> gpu");
	is_str(devfreq_kind_name(devfreq_classify("13000000.GPU")), "gpu", "case-insensitive");
	is_str(devfreq_kind_name(devfreq_classify("ff9a0000.mali")), "gpu", "*mali* -> gpu");
	is_str(devfreq_kind_name(devfreq_classify("soc:bus-noc")), "bus", "*bus* -> bus");
	is_str(devfreq_kind_name(devfreq_classify("32700000.interconnect")), "bus",
	       "interconnect -> bus");
	is_str(devfreq_kind_name(devfreq_classify("noc")), "bus", "noc -> bus");
	is_str(devfreq_kind_name(devfreq_classify("ff650000.vpu")), "other", "vpu -> other");
	is_str(devfreq_kind_name(devfreq_classify("")), "other", "empty -> other");
	is_str(devfreq_kind_name(DEVFREQ_OTHER), "other", "kind name other");
	is_str(devfreq_kind_name(devfreq_classify("scmi_clk_npu")), "npu",
	       "clock names classify too");
}

static void test_parse(void)
{
	struct devfreq_dev d = dev0();

	is_int(devfreq_parse_trans_stat(opi5max, &d), 0, "OPi5Max trans_stat parses");
	is_int(d.ntrans, 4, "4 states");
	ok(d.have_trans && !d.trans_partial, "complete");
	is_int(d.trans_hz[0], 534000000, "state 0 534 MHz");
	is_int(d.trans_hz[1], 1320000000, "state 1 1320 MHz (10 digits)");
	is_int(d.trans_hz[3], 2400000000LL, "state 3 2400 MHz");
	is_int(d.trans_time_ms[0], 438923, "time 0");
	is_int(d.trans_time_ms[2], 136, "time 2");
	is_int(d.trans_time_ms[3], 1413100, "time 3");
	is_int(d.trans_cur, 3, "'*' marks 2400 MHz");
	ok(d.have_total, "have total");
	is_int(d.total_trans, 33, "Total transition : 33");

	is_int(devfreq_parse_trans_stat(opi5, &d), 0,
	       "OPi5 5.10 trans_stat parses (arrays reused)");
	is_int(d.ntrans, 4, "4 states");
	is_int(d.trans_cur, 0, "'* 528000000' is current");
	is_int(d.trans_hz[0], 528000000, "528 MHz");
	is_int(d.trans_time_ms[0], 110661386, "9-digit time");
	is_int(d.trans_time_ms[2], 0, "unused state 0 ms");
	is_int(d.total_trans, 87, "total 87");

	/* A time wider than its 10-character column runs into the last count. */
	is_int(devfreq_parse_trans_stat("     From  :   To\n"
					"           : 300000000 400000000   time(ms)\n"
					"* 300000000:         0        3712345678901\n"
					"  400000000:         4         0       100\n"
					"Total transition : 41\n",
					&d),
	       0, "run-together time column parses");
	is_int(d.trans_time_ms[0], 12345678901LL, "11-digit time cut by width");
	is_int(d.trans_time_ms[1], 100, "next row");

	/* No header: rows split on white space. */
	is_int(devfreq_parse_trans_stat("* 300000000:         0         3       500\n"
					"  400000000:         4         0       100\n"
					"Total transition : 7\n",
					&d),
	       -EINVAL, "missing header is reported as malformed");
	is_int(d.ntrans, 2, "but the rows are kept");
	is_int(d.trans_time_ms[0], 500, "time from tokens");
	ok(d.trans_partial, "marked partial");

	is_int(devfreq_parse_trans_stat("Not Supported.\n", &d), -EOPNOTSUPP, "Not Supported.");
	ok(!d.have_trans && d.ntrans == 0, "no states");
	is_int(devfreq_parse_trans_stat("", &d), -ENODATA, "empty file");
	is_int(devfreq_parse_trans_stat("\n", &d), -ENODATA, "newline only");
	is_int(devfreq_parse_trans_stat("garbage\nmore garbage: x y\n", &d), -EINVAL, "garbage");
	ok(!d.have_trans, "garbage gives no states");
	is_int(devfreq_parse_trans_stat(NULL, &d), -EINVAL, "NULL");
	dev_clear(&d);
}

static void test_truncated(void)
{
	size_t len = strlen(opi5max);
	int bad = 0, full = 0;
	char *buf = malloc(len + 1);

	/* Every prefix of the file: never crash, never invent a row, and only
	 * the complete text is complete. */
	for (size_t n = 0; n <= len; n++) {
		struct devfreq_dev d = dev0();
		int e;

		memcpy(buf, opi5max, n);
		buf[n] = '\0';
		e = devfreq_parse_trans_stat(buf, &d);
		if (e == 0)
			full++;
		if (e != 0 && e != -EINVAL && e != -ENODATA)
			bad++;
		if (d.ntrans > 4 || (e != 0 && !d.trans_partial && d.have_trans))
			bad++;
		for (size_t i = 0; i < d.ntrans; i++)
			if (d.trans_time_ms[i] != (uint64_t[]){438923, 1660, 136, 1413100}[i])
				bad++;
		dev_clear(&d);
	}
	is_int(bad, 0, "all prefixes: sane result, no invented or cut values");
	is_int(full, 1, "only the whole text is complete");
	free(buf);

	{
		struct devfreq_dev d = dev0();

		is_int(devfreq_parse_trans_stat(
			       "     From  :   To\n"
			       "           : 534000000132000000019680000002400000000   "
			       "time(ms)\n"
			       "  534000000:         0         0         0        12    438923\n"
			       " 1320000000:         7         0       ",
			       &d),
		       -EINVAL, "cut in a row: -EINVAL");
		is_int(d.ntrans, 1, "the complete row is kept");
		ok(d.trans_partial && d.have_trans, "partial flag");
		ok(!d.have_total, "no total");
		dev_clear(&d);
	}
}

static int sh(const char *fmt, const char *a, const char *b)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return system(cmd);
}

static int write_file(const char *dir, const char *rel, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static void test_fixture_rk3588(void)
{
	struct sysroot r;
	struct devfreq_info d;
	const struct devfreq_dev *dmc, *npu, *gpu;
	const char *clks[] = {"scmi_clk_cpul", "no_such_clk", NULL};

	if (sysroot_open(&r, fixture("rk3588")) != 0) {
		ok(0, "open rk3588 fixture");
		return;
	}
	is_int(devfreq_read(&r, NULL, &d), 0, "rk3588: devfreq_read");
	is_int(d.ndev, 3, "3 devfreq devices");
	dmc = devfreq_find(&d, "dmc");
	npu = devfreq_find(&d, "npu");
	gpu = devfreq_find(&d, "gpu");
	ok(dmc && npu && gpu, "dmc, npu and gpu found (by name and kind alias)");
	if (!dmc || !npu || !gpu)
		return;
	is_str(dmc->name, "dmc", "dmc name");
	is_str(devfreq_kind_name(dmc->kind), "ddr", "dmc is ddr");
	is_str(dmc->path, "/sys/devices/platform/dmc/devfreq/dmc",
	       "dmc path resolved through the link");
	is_str(dmc->governor, "dmc_ondemand", "dmc governor");
	is_int(dmc->cur_hz, 534000000, "dmc cur_hz 534000000");
	is_int(dmc->target_hz, 534000000, "dmc target_hz");
	is_int(dmc->min_hz, 534000000, "dmc min_hz");
	is_int(dmc->max_hz, 2400000000LL, "dmc max_hz");
	is_int(dmc->polling_ms, 50, "dmc polling_ms");
	is_int(dmc->navail, 4, "dmc 4 OPPs");
	is_int(dmc->avail_hz[1], 1320000000, "dmc OPP 1");
	is_int(dmc->ngov, 6, "6 governors");
	is_str(dmc->avail_gov[1], "dmc_ondemand", "governor list");
	ok(dmc->have_trans && !dmc->trans_partial, "dmc trans_stat");
	is_int(dmc->ntrans, 4, "dmc 4 trans states");
	is_int(dmc->trans_time_ms[0], 84257661, "dmc time at 534 MHz");
	is_int(dmc->trans_time_ms[3], 1296138, "dmc time at 2400 MHz");
	is_int(dmc->trans_cur, 0, "dmc current state 534 MHz");
	is_int(dmc->total_trans, 1842, "dmc total transitions");
	ok(isnan(dmc->transitions_per_s) && isnan(dmc->time_pct[0]), "no rates from one sample");
	is_str(dmc->load, "", "dmc has no load file");
	is_str(npu->name, "fdab0000.npu", "npu device");
	is_int(npu->trans_cur, 7, "npu at 1 GHz");
	is_int(npu->cur_hz, 1000000000, "npu cur_hz");
	is_str(npu->governor, "rknpu_ondemand", "npu governor");
	is_str(gpu->name, "fb000000.gpu", "gpu device");
	is_str(gpu->load, "0@300000000Hz", "gpu load raw");
	ok(devfreq_find(&d, "bus") == NULL, "no bus device");

	is_int(d.clk_err, 0, "debugfs clocks readable");
	is_int(d.nclk, 2, "default list: only the clocks that exist");
	is_str(d.clk[0].name, "scmi_clk_npu", "scmi_clk_npu");
	is_int(d.clk[0].rate_hz, 1000000000, "npu clock 1 GHz");
	ok(d.clk[0].covered, "npu clock covered by the npu devfreq");
	is_str(d.clk[1].name, "scmi_clk_ddr", "scmi_clk_ddr");
	is_int(d.clk[1].rate_hz, 534000000, "ddr clock 534 MHz");
	devfreq_free(&d);

	devfreq_read(&r, clks, &d);
	is_int(d.nclk, 2, "explicit list: every name");
	is_int(d.clk[0].rate_hz, 408000000, "scmi_clk_cpul 408 MHz");
	ok(!d.clk[0].covered, "cpu clock not covered");
	is_int(d.clk[1].rate_hz, -1, "missing clock n/a");
	is_int(d.clk[1].err, -ENOENT, "missing clock ENOENT");
	devfreq_free(&d);
	sysroot_close(&r);
}

static void test_fixture_others(void)
{
	struct sysroot r;
	struct devfreq_info d;
	const char *clks[] = {"scmi_clk_npu", NULL};

	if (sysroot_open(&r, fixture("intel")) == 0) {
		is_int(devfreq_read(&r, NULL, &d), 0, "intel: no devfreq is not an error");
		is_int(d.ndev, 0, "intel: no devices");
		is_int(d.err, -ENOENT, "intel: ENOENT");
		is_int(d.clk_err, -ENOENT, "intel: no debugfs clocks");
		is_int(d.nclk, 0, "intel: no clocks listed");
		devfreq_free(&d);
		devfreq_read(&r, clks, &d);
		is_int(d.nclk, 1, "explicit clock listed");
		is_int(d.clk[0].err, -ENOENT, "with the debugfs reason");
		devfreq_free(&d);
		sysroot_close(&r);
	}
	if (sysroot_open(&r, fixture("broken")) == 0) {
		const struct devfreq_dev *g;

		is_int(devfreq_read(&r, NULL, &d), 0, "broken: devfreq_read");
		is_int(d.ndev, 1, "broken: one device");
		g = d.ndev ? &d.dev[0] : NULL;
		ok(g && !g->have_trans, "broken: truncated trans_stat gives no states");
		is_int(g ? g->trans_err : 0, -EINVAL, "broken: trans_stat EINVAL");
		is_str(g ? devfreq_kind_name(g->kind) : "", "gpu", "broken: gpu kind");
		devfreq_free(&d);
		sysroot_close(&r);
	}
}

static void test_derive(void)
{
	char tmpl[] = "/tmp/tt-devfreq-XXXXXX", root[1100];
	struct sysroot r;
	struct devfreq_info a, b, c;
	const struct devfreq_dev *dmc, *gpu;
	struct sbuf sb;
	struct jw w;

	if (!mkdtemp(tmpl)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(root, sizeof(root), "%s/root", tmpl);
	if (sh("cp -a '%s' '%s'", fixture("rk3588"), root) != 0 || sysroot_open(&r, root) != 0) {
		ok(0, "copy fixture");
		return;
	}
	devfreq_read(&r, NULL, &a);
	/* 0.5 s later: +400 ms at 534 MHz, +100 ms at 2400 MHz, 5 more
	 * transitions, now at 2400 MHz. */
	write_file(root, "sys/class/devfreq/dmc/trans_stat",
		   "     From  :   To\n"
		   "           : 534000000132000000019680000002400000000   time(ms)\n"
		   "  534000000:         0       167        94       504  84258061\n"
		   " 1320000000:       168         0        19        93    527096\n"
		   " 1968000000:        82        15         0        54    328355\n"
		   "*2400000000:       515        98        38         0   1296238\n"
		   "Total transition : 1847\n");
	/* The cheap path re-reads only what changes; same result as a read. */
	devfreq_refresh(&r, &a, &b);
	devfreq_read(&r, NULL, &c);
	{
		struct sbuf s1, s2;
		struct jw w1, w2;

		sbuf_init(&s1);
		sbuf_init(&s2);
		jw_init(&w1, &s1, false);
		jw_init(&w2, &s2, false);
		jw_obj_begin(&w1, NULL);
		out_devfreq_json(&w1, &b, NULL);
		jw_obj_end(&w1);
		jw_obj_begin(&w2, NULL);
		out_devfreq_json(&w2, &c, NULL);
		jw_obj_end(&w2);
		is_str(s1.s, s2.s, "devfreq_refresh gives what devfreq_read gives");
		sbuf_free(&s1);
		sbuf_free(&s2);
	}
	devfreq_free(&c);
	is_int(devfreq_find(&a, "dmc")->total_trans, 1842, "prev untouched by refresh");
	devfreq_derive(&b, &a, 0.5);
	dmc = devfreq_find(&b, "dmc");
	is_dbl(dmc->transitions_per_s, 10.0, 1e-9, "5 transitions in 0.5 s = 10/s");
	is_dbl(dmc->time_pct[0], 80.0, 1e-9, "534 MHz 80%");
	is_dbl(dmc->time_pct[1], 0.0, 1e-9, "1320 MHz 0%");
	is_dbl(dmc->time_pct[3], 20.0, 1e-9, "2400 MHz 20%");
	is_int(dmc->trans_cur, 3, "now at 2400 MHz");
	gpu = devfreq_find(&b, "gpu");
	ok(isnan(gpu->transitions_per_s), "unchanged gpu (a static tree): transitions/s n/a");
	ok(isnan(gpu->time_pct[0]), "no time accounted: n/a, not 0");

	sbuf_init(&sb);
	jw_init(&w, &sb, false);
	jw_obj_begin(&w, NULL);
	out_devfreq_json(&w, &b, NULL);
	jw_obj_end(&w);
	ok(strstr(sb.s, "\"name\":\"dmc\",\"kind\":\"ddr\"") != NULL, "json: name and kind");
	ok(strstr(sb.s, "\"cur_hz\":534000000") != NULL, "json: cur_hz");
	ok(strstr(sb.s, "\"transitions_per_s\":10.0") != NULL, "json: transitions_per_s");
	ok(strstr(sb.s, "\"time_in_state_pct\":{\"534000000\":80.0,\"1320000000\":0.0,"
			"\"1968000000\":0.0,\"2400000000\":20.0}") != NULL,
	   "json: time_in_state_pct");
	ok(strstr(sb.s, "\"clocks\":[{\"name\":\"scmi_clk_npu\",\"kind\":\"npu\",\"rate_hz\":"
			"1000000000,\"covered\":true,\"error\":null}") != NULL,
	   "json: clocks");
	ok(strstr(sb.s, "\"clocks_error\":null") != NULL, "json: clocks_error null");
	ok(strstr(sb.s, "\"load\":\"0@300000000Hz\"") != NULL, "json: load");
	sbuf_reset(&sb);
	out_devfreq_text(&sb, &b, NULL);
	ok(strstr(sb.s, "dmc") &&
		   strstr(sb.s, "residency 534:80.0% 1320:0.0% 1968:0.0% *2400:20.0%"),
	   "text: residency line");
	ok(strstr(sb.s, "10.0 trans/s") != NULL, "text: transitions/s");

	/* Stats reset (or a re-probed device): everything lower than before. */
	write_file(root, "sys/class/devfreq/dmc/trans_stat",
		   "     From  :   To\n"
		   "           : 534000000132000000019680000002400000000   time(ms)\n"
		   "* 534000000:         0         0         0         0       300\n"
		   " 1320000000:         0         0         0         0         0\n"
		   " 1968000000:         0         0         0         0         0\n"
		   " 2400000000:         0         0         0         0         0\n"
		   "Total transition : 0\n");
	devfreq_read(&r, NULL, &c);
	devfreq_derive(&c, &b, 0.5);
	dmc = devfreq_find(&c, "dmc");
	ok(isnan(dmc->transitions_per_s), "reset: transitions_per_s n/a, never negative");
	ok(isnan(dmc->time_pct[0]) && isnan(dmc->time_pct[3]), "reset: time_pct n/a");
	devfreq_derive(&c, NULL, 0.5);
	ok(isnan(devfreq_find(&c, "dmc")->transitions_per_s), "no prev: n/a");
	devfreq_derive(&b, &a, 0.0);
	ok(isnan(devfreq_find(&b, "dmc")->transitions_per_s), "dt 0: n/a");

	/* Devices that vanish: empty class directory. */
	sbuf_reset(&sb);
	jw_init(&w, &sb, false);
	jw_obj_begin(&w, NULL);
	out_devfreq_json(&w, NULL, NULL);
	jw_obj_end(&w);
	is_str(sb.s, "{\"devfreq\":[],\"clocks\":[],\"clocks_error\":\"ENOENT\"}",
	       "json: NULL info");
	sbuf_free(&sb);
	devfreq_free(&a);
	devfreq_free(&b);
	devfreq_free(&c);
	sysroot_close(&r);
	sh("rm -rf '%s'%s", tmpl, "");
}

static void test_text_na(void)
{
	struct sysroot r;
	struct devfreq_info d;
	struct sbuf sb;

	if (sysroot_open(&r, fixture("broken")) != 0)
		return;
	devfreq_read(&r, NULL, &d);
	sbuf_init(&sb);
	out_devfreq_text(&sb, &d, NULL);
	ok(strstr(sb.s, "residency n/a (trans_stat EINVAL") != NULL,
	   "text: truncated trans_stat n/a");
	ok(strstr(sb.s, "clocks (debugfs)\n  n/a (ENOENT") != NULL, "text: clocks n/a with reason");
	sbuf_free(&sb);
	devfreq_free(&d);
	sysroot_close(&r);
}

/* --clocks / tunetoprc clocks=: names of [A-Za-z0-9_.-], no empty item. */
static void test_clk_list(void)
{
	char **v = NULL, why[160];
	static const char *const bad[] = {"",	 ",",	    "a,,b",	   "a,",  ",a",
					  "x/y", "clk npu", "clk\xc3\xa9", "a;b", NULL};

	is_int(devfreq_clk_list_parse("scmi_clk_npu,aclk-gpu.0,X9", &v, why, sizeof(why)), 0,
	       "clk list: three good names");
	ok(v && v[0] && v[1] && v[2] && !v[3], "clk list: NULL-terminated, 3 names");
	if (v && v[0] && v[1] && v[2]) {
		is_str(v[0], "scmi_clk_npu", "clk list: first");
		is_str(v[1], "aclk-gpu.0", "clk list: second");
		is_str(v[2], "X9", "clk list: third");
	}
	devfreq_clk_list_free(v);
	is_int(devfreq_clk_list_parse("scmi_clk_ddr", NULL, why, sizeof(why)), 0,
	       "clk list: check only (out NULL)");
	for (int i = 0; bad[i]; i++) {
		char name[64];

		v = (char **)1;
		why[0] = '\0';
		snprintf(name, sizeof(name), "clk list: '%s' refused", bad[i]);
		is_int(devfreq_clk_list_parse(bad[i], &v, why, sizeof(why)), -EINVAL, name);
		ok(v == NULL && why[0] && !strchr(why, '\n'), "  with a one-line why, nothing out");
	}
	{
		char longname[80];

		memset(longname, 'a', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = '\0';
		is_int(devfreq_clk_list_parse(longname, NULL, why, sizeof(why)), -EINVAL,
		       "clk list: a name longer than a clock name is refused");
	}
}

/* An explicit list reads exactly those clocks from the rk3588 debugfs tree. */
static void test_clk_list_read(void)
{
	struct sysroot r;
	struct devfreq_info d;
	char **v = NULL, why[160];

	if (sysroot_open(&r, fixture("rk3588")) != 0) {
		ok(0, "open rk3588");
		return;
	}
	devfreq_clk_list_parse("scmi_clk_cpul,scmi_clk_dsu", &v, why, sizeof(why));
	devfreq_read(&r, (const char *const *)v, &d);
	is_int((int)d.nclk, 2, "rk3588 --clocks scmi_clk_cpul,scmi_clk_dsu: two clocks");
	if (d.nclk == 2) {
		is_str(d.clk[0].name, "scmi_clk_cpul", "first is scmi_clk_cpul");
		ok(d.clk[0].rate_hz > 0, "scmi_clk_cpul has a rate");
		is_str(d.clk[1].name, "scmi_clk_dsu", "second is scmi_clk_dsu");
	}
	devfreq_free(&d);
	devfreq_clk_list_free(v);
	sysroot_close(&r);
}

int main(void)
{
	test_clk_list();
	test_clk_list_read();
	test_classify();
	test_parse();
	test_truncated();
	test_fixture_rk3588();
	test_fixture_others();
	test_derive();
	test_text_na();
	return done_testing();
}
