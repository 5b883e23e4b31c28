/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The world's application read back from its log (src/model/world_app.c,
 * issue 35): the TUI header's last frame, mean and SD of the last n frames,
 * from the tail of a log of any length; a line still being written, lines
 * without a total and a tree that is no world's. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/world_app.h"
#include "sysfs/sysroot.h"
#include "tap.h"

static char dir[64];

static void put(const char *rel, const char *mode, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, mode);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void frame(double ms)
{
	char line[128];

	snprintf(line, sizeof(line),
		 "[Infer] cpu:1.00 cpy:1.00 npu:1.00 cnv:1.00 total:%.2f ms (SIMULATED)\n", ms);
	put("var/log/infer.log", "a", line);
}

int main(void)
{
	struct sysroot r;
	struct world_app a;
	char p[128];
	double ms = 0;

	is_int(world_app_parse("[Infer] cpu:1 total:48.80 ms (SIMULATED)", &ms), 1, "parse: total");
	is_dbl(ms, 48.8, 1e-9, "... 48.80 ms");
	is_int(world_app_parse("[Infer] cpu:1 total: ms", &ms), 0, "parse: no number");
	is_int(world_app_parse("starting", &ms), 0, "parse: no total");

	snprintf(dir, sizeof(dir), "/tmp/tt-world-app.XXXXXX");
	if (!mkdtemp(dir))
		skip_all("mkdtemp");
	snprintf(p, sizeof(p), "%s/var", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/var/log", dir);
	mkdir(p, 0755);
	put("var/log/infer.log", "w", "");
	if (sysroot_open(&r, dir) != 0)
		skip_all("sysroot_open");

	is_int(world_app_recent(&r, 50, &a), -ENOENT, "no marker: not a world");
	put("tunetop-world", "w", "world nosuch\nseed 1\n");
	is_int(world_app_recent(&r, 50, &a), -EINVAL, "a marker naming no world");
	put("tunetop-world", "w", "world rk3588-npu\n# SIMULATED\nseed 1\n");
	is_int(world_app_recent(&r, 50, &a), 0, "an empty log");
	is_int((int)a.n, 0, "... no frame");
	ok(isnan(a.last_ms) && isnan(a.mean_ms) && isnan(a.sd_ms), "... n/a, not 0");
	is_str(a.world, "rk3588-npu", "... the world's name");

	put("var/log/infer.log", "a", "rknn_infer: model loaded\n");
	frame(40);
	is_int(world_app_recent(&r, 50, &a), 0, "one frame");
	is_int((int)a.n, 1, "... counted (the line without a total skipped)");
	is_dbl(a.last_ms, 40, 1e-9, "... last");
	ok(isnan(a.sd_ms), "... no SD of one frame");

	/* 1000 frames (~70 KB, beyond the tail read): the last n only */
	for (int i = 0; i < 1000; i++)
		frame(i < 990 ? 100.0 : 30.0 + (i - 990)); /* the last ten 30..39 */
	is_int(world_app_recent(&r, 10, &a), 0, "a long log");
	is_int((int)a.n, 10, "... the last 10 frames");
	is_dbl(a.last_ms, 39, 1e-9, "... the last frame is the file's last line");
	is_dbl(a.mean_ms, 34.5, 1e-9, "... their mean");
	is_dbl(a.sd_ms, sqrt(82.5 / 9.0), 1e-9, "... their SD (n - 1)");
	is_int(world_app_recent(&r, 50, &a), 0, "50 of them");
	is_dbl(a.mean_ms, (40 * 100.0 + 345) / 50.0, 1e-9, "... their mean");

	/* a line being written: left for the next read */
	put("var/log/infer.log", "a", "[Infer] cpu:1.00 cpy:1.00 npu:1.00 cnv:1.00 total:9");
	is_int(world_app_recent(&r, 10, &a), 0, "a line without its newline");
	is_dbl(a.last_ms, 39, 1e-9, "... is not a frame yet");

	sysroot_close(&r);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	if (system(p) != 0)
		printf("# could not remove %s\n", dir);
	return done_testing();
}
