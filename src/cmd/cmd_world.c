/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `tunetop world`: list the worlds (model/world.h), unpack one into a
 * directory, and show (or advance) the world of --root. Every other command
 * on `--root DIR` finds the world by its marker and steps it itself
 * (cmd_open_root, cmd_ab). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "core/str.h"
#include "model/world.h"

static int world_list(void)
{
	printf("%-16s %-10s %s\n", "NAME", "BOARD", "FIELD NOTE");
	for (size_t i = 0; i < world_count(); i++) {
		const struct world_def *d = world_at(i);

		printf("%-16s %-10s %s\n", d->name, d->board, d->note);
	}
	return 0;
}

static int world_show(const struct tt_opts *o, double run_s)
{
	struct world *w = cmd_world_attach(o->root, "world");

	if (!w)
		return cmd_error("world", 0,
				 "--root %s holds no world (its %s); see tunetop world --list",
				 o->root, WORLD_MARKER);
	world_catch_up(w, WORLD_CATCH_UP_MAX_S);
	if (run_s > 0)
		world_step(w, run_s);
	printf("world %s (SIMULATED %s): %.1f s simulated, %llu lines in %s/%s\n",
	       world_def_of(w)->name, world_def_of(w)->board, world_time(w),
	       (unsigned long long)world_frames(w), world_root(w), world_def_of(w)->log);
	world_close(w);
	return 0;
}

int cmd_world(struct cmd_ctx *cx, int argc, char **argv)
{
	const struct tt_opts *o = cx->o;
	bool list = false;
	uint64_t seed = 0;
	double run_s = 0;
	char err[512];
	int c, e;

	optind = 1;
	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		char *end;

		switch (c) {
		case 'l': list = true; break;
		case 's':
			if (str_to_u64(optarg, &seed) || !seed) {
				cmd_error("world", 0, "--seed %s: not a positive integer", optarg);
				return 2;
			}
			break;
		case 'r':
			run_s = strtod(optarg, &end);
			if (end == optarg || *end || !(run_s > 0) || run_s > 3600) {
				cmd_error("world", 0, "--run %s: seconds between 0 and 3600",
					  optarg);
				return 2;
			}
			break;
		case 'h': return cmd_print_help("world", stdout);
		default: return cmd_usage("world");
		}
	}
	if (list)
		return optind == argc ? world_list() : cmd_usage("world");
	if (optind == argc)
		return world_show(o, run_s);
	if (argc - optind != 2 || run_s > 0)
		return cmd_usage("world");
	e = world_unpack(argv[optind], argv[optind + 1], seed, err, sizeof(err));
	if (e) {
		cmd_error("world", 0, "%s", err);
		return e == -ENOENT && !world_find(argv[optind]) ? 2 : 1;
	}
	printf("%s: world %s (SIMULATED %s); its application logs to %s/%s\n"
	       "use it with: tunetop --root %s COMMAND ...\n",
	       argv[optind + 1], argv[optind], world_find(argv[optind])->board, argv[optind + 1],
	       world_find(argv[optind])->log, argv[optind + 1]);
	return 0;
}
