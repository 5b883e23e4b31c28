/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's setup: the command line (`tunetop [options]` with no command),
 * tunetoprc and the theme, the root to show, the knob engine and the
 * sampler. */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "model/explain.h"
#include "model/record.h"
#include "model/sim.h"
#include "model/world.h"
#include "sysfs/userfile.h"
#include "ui/tui.h"
#include "ui/tui_int.h"

/* ---- main ------------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tunetop [--root DIR] [--state-dir DIR] [--demo] [-d TENTHS] [--theme "
		"NAME]\n"
		"               [--keep] [--no-color] [--screen NAME] [--hold MODE]\n"
		"               [--record FILE | --replay FILE]\n"
		"  --demo          simulate an RK3588 board (nothing on this machine is touched)\n"
		"  --demo=NAME     a world: the board and an app whose latency follows the knobs\n"
		"  --demo --list   the worlds (name, board, field note)\n"
		"  -d TENTHS       refresh interval in tenths of a second (default 10)\n"
		"  --theme NAME    default, monochrome, light, high-contrast, or a "
		"themes/NAME.theme\n"
		"  --keep          leave this session's changes in place on exit\n"
		"  --hold MODE     a change of this session written over outside tunetop:\n"
		"                  report (default), reassert (write it back), off\n"
		"  --no-color      attributes only (also NO_COLOR=1)\n"
		"  --screen NAME   start on cores, clocks, rt, journal, setup, help, threads,\n"
		"                  irqs, isolation, latency, findings or lessons\n"
		"  --record FILE   write every sample and journal event as JSON lines (as watch\n"
		"                  --record does; tunetop report FILE summarises them)\n"
		"  --record-format auto|json|zstd\n"
		"                  zstd-compressed (auto: when built with libzstd, unless FILE\n"
		"                  ends in .jsonl or .json) or plain JSON lines\n"
		"  --replay FILE   drive the screens from a recording, read-only: space "
		"play/pause,\n"
		"                  . , step, [ ] 10 samples back / on, { } start / end, + - "
		"speed\n");
}

int tui_parse_args(struct tui *t, int argc, char **argv, bool *demo, const char **theme,
		   const char **screen, int *delay, const char **record, const char **replay)
{
	static const struct option lo[] = {
		{"demo", optional_argument, NULL, 'D'},
		{"list", no_argument, NULL, 'L'},
		{"delay", required_argument, NULL, 'd'},
		{"theme", required_argument, NULL, 'T'},
		{"keep", no_argument, NULL, 'k'},
		{"no-color", no_argument, NULL, 'C'},
		{"no-colour", no_argument, NULL, 'C'},
		{"screen", required_argument, NULL, 's'},
		{"record", required_argument, NULL, 'R'},
		{"record-format", required_argument, NULL, 'F'},
		{"replay", required_argument, NULL, 'P'},
		{"hold", required_argument, NULL, 'H'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+d:h", lo, NULL)) != -1) {
		switch (c) {
		case 'D':
			*demo = true;
			t->world_name = optarg;
			break;
		case 'L': t->world_list = true; break;
		case 'd':
			if (str_to_int(optarg, delay) != 0 || *delay < 1 || *delay > 600) {
				fprintf(stderr, "tunetop: -d %s: tenths of a second, 1..600\n",
					optarg);
				return 2;
			}
			break;
		case 'T': *theme = optarg; break;
		case 'k': t->sc.keep = true; break;
		case 'C': t->no_color = true; break;
		case 's': *screen = optarg; break;
		case 'R': *record = optarg; break;
		case 'F': {
			enum record_format f;
			char why[128];

			if (record_format_opt(optarg, &f, why, sizeof(why)) != 0) {
				fprintf(stderr, "tunetop: %s\n", why);
				return 2;
			}
			t->rec_format = (int)f;
			break;
		}
		case 'P': *replay = optarg; break;
		case 'H':
			if (knob_hold_mode_parse(optarg, &t->sc.hold_mode) != 0) {
				fprintf(stderr,
					"tunetop: --hold '%s': must be off, report or reassert\n",
					optarg);
				return 2;
			}
			t->sc.hold_given = true;
			break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "tunetop: unknown option '%s' (see tunetop --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "tunetop: unexpected argument '%s' (see tunetop --help)\n",
			argv[optind]);
		return 2;
	}
	if (t->world_list) {
		if (!*demo) {
			fprintf(stderr, "tunetop: --list goes with --demo (the worlds)\n");
			return 2;
		}
		printf("%-12s %-8s %s\n", "NAME", "BOARD", "FIELD NOTE");
		for (size_t i = 0; i < world_count(); i++)
			printf("%-12s %-8s %s\n", world_at(i)->name, world_at(i)->board,
			       world_at(i)->note);
		return 0;
	}
	if (t->world_name && !world_find(t->world_name)) {
		fprintf(stderr, "tunetop: --demo=%s: no such world (see tunetop --demo --list)\n",
			t->world_name);
		return 2;
	}
	if (*replay && (*record || *demo)) {
		fprintf(stderr, "tunetop: --replay shows a recording: it does not go with %s\n",
			*record ? "--record" : "--demo");
		return 2;
	}
	if (*record && !strcmp(*record, "-")) {
		fprintf(stderr, "tunetop: --record -: the terminal is the screen; record to a file "
				"(or use tunetop watch --record -)\n");
		return 2;
	}
	if ((*record && !**record) || (*replay && !**replay)) {
		fprintf(stderr, "tunetop: --record and --replay need a file\n");
		return 2;
	}
	return -1;
}

void tui_settings_load(struct tui *t, const char *theme, int delay, struct sbuf *errs)
{
	char path[512];

	config_defaults(&t->sc.cfg);
	if (config_path(t->sc.cfg_path, sizeof(t->sc.cfg_path)) == 0) {
		int bad = config_load(t->sc.cfg_path, &t->sc.cfg, errs);

		if (bad < 0)
			sbuf_printf(errs, "%s: %s\n", t->sc.cfg_path,
				    userfile_strerror(bad, USERFILE_MAX_TEXT));
	}
	t->sc.delay_tenths = delay ? delay : t->sc.cfg.delay_tenths;
	/* --hold, else tunetoprc hold= (checked when read), else report */
	if (!t->sc.hold_given && knob_hold_mode_parse(t->sc.cfg.hold, &t->sc.hold_mode) != 0)
		t->sc.hold_mode = KNOB_HOLD_REPORT;
	if (theme)
		str_copy(t->sc.cfg.theme, sizeof(t->sc.cfg.theme), theme);
	if (theme_load(t->sc.cfg.theme, &t->sc.theme, errs, path, sizeof(path)) != 0) {
		sbuf_printf(errs, "theme '%s' not found: using default\n", t->sc.cfg.theme);
		theme_default(&t->sc.theme);
	}
}

void tui_demo_step(struct tui *t, double dt_s)
{
	if (t->sc.world)
		world_step(t->sc.world, dt_s);
	else
		sim_step(t->sc.sim, dt_s);
}

void tui_demo_close(struct tui *t)
{
	if (t->sc.world)
		world_close(t->sc.world);
	else
		sim_close(t->sc.sim);
	t->sc.world = NULL;
	t->sc.sim = NULL;
}

/* The root to show (a replay, the demo board, or o->root). 0, or 1 after
 * saying why on stderr. */
int tui_open_root(struct tui *t, const struct tt_opts *o, bool demo, const char *replay)
{
	char *cause = NULL;
	int r;

	if (replay) {
		const char *rr;
		struct stat st;

		r = tui_replay_open(t, replay, &cause);
		if (r) {
			if (cause) /* names the file: "FILE: not a regular file" */
				fprintf(stderr, "tunetop: --replay %s\n", cause);
			else
				fprintf(stderr, "tunetop: --replay %s: %s\n", replay, strerror(-r));
			free(cause);
			return 1;
		}
		/* explain resolves files on the recorded root while it exists */
		rr = tui_replay_root(t);
		t->root_path =
			rr && rr[0] && stat(rr, &st) == 0 && S_ISDIR(st.st_mode) ? rr : o->root;
	} else if (demo && t->world_name) {
		char err[512];

		if (world_open_temp(t->world_name, 0, &t->sc.world, err, sizeof(err)) != 0) {
			fprintf(stderr, "tunetop: --demo=%s: %s\n", t->world_name, err);
			return 1;
		}
		t->sc.sim = world_sim(t->sc.world);
		t->root_path = world_root(t->sc.world);
	} else if (demo) {
		char bundle[512], err[256];

		if (sim_find_bundle(bundle, sizeof(bundle)) != 0) {
			fprintf(stderr,
				"tunetop: --demo: the demo board (rk3588-demo.tar) is not "
				"installed "
				"(looked next to the program and in %s/demo)\n",
				TT_PKGDATADIR);
			return 1;
		}
		if (sim_open(&t->sc.sim, bundle, err, sizeof(err)) != 0) {
			fprintf(stderr, "tunetop: --demo: %s\n", err);
			return 1;
		}
		sim_step(t->sc.sim, 1.0);
		t->root_path = sim_root(t->sc.sim);
	} else {
		char err[512];

		t->root_path = o->root;
		/* --root on a world's directory: the world runs while shown */
		if (o->root && strcmp(o->root, "/") &&
		    world_attach(o->root, &t->sc.world, err, sizeof(err)) == 0) {
			world_catch_up(t->sc.world, WORLD_CATCH_UP_MAX_S);
			t->sc.sim = world_sim(t->sc.world);
		}
	}
	r = sysroot_open(&t->sc.root, t->root_path);
	if (r) {
		fprintf(stderr, "tunetop: %s: %s\n", t->root_path, strerror(-r));
		return 1;
	}
	return 0;
}

/* The knob engine, its writer lock held for the whole session, and what
 * makes the session read-only (not root, a journal that is not writable). */
void tui_open_engine(struct tui *t, const char *state_dir)
{
	char *cause = NULL;
	int r;

	/* Without root nothing can be written: say so before anything else. */
	if (geteuid() != 0) {
		if (t->sc.root.live)
			snprintf(t->sc.ro_why, sizeof(t->sc.ro_why),
				 "not root (run with sudo to change knobs)");
		else if (access(t->root_path, W_OK) != 0)
			snprintf(t->sc.ro_why, sizeof(t->sc.ro_why), "not root: %s is not writable",
				 t->root_path);
		t->readonly = t->sc.ro_why[0] != '\0';
	}
	/* the knob engine: the journal lock is taken only around each append or
	 * undo, so exec, set and other TUIs work at the same time (design §6) */
	r = knob_ctx_open(&t->sc.knob, &t->sc.root, state_dir, KNOB_READONLY_OK, &cause);
	if (r) {
		if (!t->readonly)
			snprintf(t->sc.ro_why, sizeof(t->sc.ro_why), "%s",
				 cause ? cause : err_name(r));
		t->sc.knob = NULL;
		t->readonly = true;
	} else {
		const char *why = NULL;

		knob_ctx_set_kind(t->sc.knob, "tui");
		if (knob_ctx_readonly(t->sc.knob, &why) && !t->readonly) {
			t->readonly = true;
			snprintf(t->sc.ro_why, sizeof(t->sc.ro_why), "%s",
				 why ? why : "journal not writable");
		}
	}
	free(cause);
}

/* The sampler and its clock list, and --record FILE. 0, or 1 after saying
 * why on stderr. */
int tui_open_sampler(struct tui *t, const struct tt_opts *o, const char *record,
		     const char *state_dir, struct sbuf *errs)
{
	char *cause = NULL;

	sampler_init(&t->sc.sampler, &t->sc.root, TUI_SNAP_BASE);
	/* the header's findings need the thread table, whatever the screen */
	t->sc.sampler.threads_every_ns = THREAD_SAMPLER_SLOW_NS;
	t->sampler_on = true;
	/* --clocks, else tunetoprc clocks= (checked when read), else the default. */
	if (o->clocks) {
		t->sc.sampler.clk_names = o->clocks;
	} else if (t->sc.cfg.clocks[0]) {
		char why[160];

		if (devfreq_clk_list_parse(t->sc.cfg.clocks, &t->cfg_clocks, why, sizeof(why)) == 0)
			t->sc.sampler.clk_names = (const char *const *)t->cfg_clocks;
		else
			sbuf_printf(errs, "clocks: %s: using the default list\n", why);
	}
	if (record && tui_record_open(t, record, state_dir, &cause) != 0) {
		fprintf(stderr, "tunetop: --record: %s\n",
			cause ? cause : "cannot create the file");
		free(cause);
		return 1;
	}
	return 0;
}

int tui_self_place(struct tui *t, struct sbuf *errs)
{
	const struct tt_opts *o = t->opts;
	const char *env = getenv("TUNETOP_SELF_NICE");
	char nice[16], why[200];
	const char *cfg_nice;

	/* tunetoprc's self_nice= other than the default is explicit; the
	 * default never lowers the nice tunetop was started with */
	snprintf(nice, sizeof(nice), "%d", t->sc.cfg.self_nice);
	cfg_nice = t->sc.cfg.self_nice != SELF_NICE_DEFAULT ? nice : NULL;
	/* --self-cpus / --self-nice, else $TUNETOP_SELF_NICE, else tunetoprc */
	if (self_place_parse(o->self_cpus ? o->self_cpus : t->sc.cfg.self_cpus,
			     o->self_nice  ? o->self_nice
			     : env && *env ? env
					   : cfg_nice,
			     &t->sc.self, why, sizeof(why)) != 0) {
		if (o->self_cpus || o->self_nice || (env && *env)) {
			fprintf(stderr, "tunetop: %s\n", why);
			return -EINVAL;
		}
		sbuf_printf(errs, "self_cpus: %s: using the housekeeping CPUs\n", why);
		self_place_parse(NULL, cfg_nice, &t->sc.self, why, sizeof(why));
	}
	if (self_place_apply(&t->sc.self, NULL) != 0 || t->sc.self.err[0])
		sbuf_printf(errs, "self placement: %s\n", t->sc.self.err);
	return 0;
}

const struct thread_table *tui_threads_recent(struct screen_ctx *sc, uint64_t max_age_ns,
					      bool refresh)
{
	struct tui *t = tui_of(sc);
	const struct thread_table *tab;

	if (t->sc.replay)
		return NULL;
	if (refresh)
		thread_sampler_refresh(&t->sc.sampler.threads, false);
	tab = thread_sampler_recent(&t->sc.sampler.threads, max_age_ns ? max_age_ns : UINT64_MAX);
	return tab && tab->nprocs ? tab : NULL; /* a tree without proc/PID: no thread data */
}
