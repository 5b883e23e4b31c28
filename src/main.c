/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tunetop: argument parsing and dispatch only. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "core/err.h"
#include "core/str.h"
#include "knob/knob.h"
#include "source/devfreq.h"
#include "source/pfm.h"
#include "source/thermal.h"
#ifdef HAVE_TUI
#include "ui/tui_main.h"
#endif

static void usage(FILE *f)
{
#ifdef HAVE_TUI
	fprintf(f, "usage: tunetop [--root DIR] [--state-dir DIR] [--clocks LIST] [-q]\n"
		   "               [COMMAND [ARGS]]\n\n"
		   "With no command, tunetop opens the interactive monitor:\n"
		   "  tunetop [--demo] [-d TENTHS] [--theme NAME] [--keep] [--no-color]\n"
		   "          [--screen NAME] [--hold MODE]\n"
		   "          [--record FILE [--record-format auto|json|zstd] | --replay FILE]\n"
		   "\nCommands:\n");
#else
	fprintf(f, "usage: tunetop [--root DIR] [--state-dir DIR] [--clocks LIST] [-q]\n"
		   "               COMMAND [ARGS]\n\n"
		   "This tunetop was built without the interactive monitor (--disable-tui):\n"
		   "give a command (snapshot, watch or serve to monitor).\n"
		   "\nCommands:\n");
#endif
	for (size_t i = 0; i < cmd_count; i++)
		cmd_print_synopsis(&cmd_table[i], "  tunetop ", "  tunetop ", f);
	fprintf(f, "\nGlobal options (anywhere on the line):\n"
		   "  --root DIR        read and write DIR/sys and DIR/proc, not /sys and /proc\n"
		   "  --state-dir DIR   where the undo journal lives\n"
		   "  --clocks LIST     debugfs clocks to read, comma-separated (default:\n"
		   "                    scmi_clk_npu, scmi_clk_ddr, scmi_clk_gpu, clk_npu,\n"
		   "                    aclk_npu, clk_gpu)\n"
#ifdef HAVE_TUI
		   "  --self-cpus LIST  CPUs the monitor's own threads run on (TUI, watch;\n"
#else
		   "  --self-cpus LIST  CPUs the monitor's own threads run on (watch;\n"
#endif
		   "                    default: the housekeeping CPUs)\n"
		   "  --self-nice N     their nice value (default 10, or the higher one it starts\n"
		   "                    at; never RT)\n"
		   "  -q, --quiet       (before the command) no note on stderr about changes a\n"
		   "                    tunetop that exited left applied (orphans)\n"
		   "  -h, --help        this help; 'tunetop COMMAND --help' for a command\n"
		   "  -V, --version     print the version\n"
		   "\nSee tunetop(8).\n");
}

/* Remove the global options from argv (wherever they are, up to "--"). */
static int take_globals(int *argc, char **argv, struct tt_opts *o, const char **clocks)
{
	int out = 1;

	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i];
		const char **slot = NULL;
		const char *name = NULL;

		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (!strncmp(a, "--root", 6) && (a[6] == '\0' || a[6] == '=')) {
			slot = &o->root;
			name = "--root";
		} else if (!strncmp(a, "--state-dir", 11) && (a[11] == '\0' || a[11] == '=')) {
			slot = &o->state_dir;
			name = "--state-dir";
		} else if (!strncmp(a, "--clocks", 8) && (a[8] == '\0' || a[8] == '=')) {
			slot = clocks;
			name = "--clocks";
		} else if (!strncmp(a, "--self-cpus", 11) && (a[11] == '\0' || a[11] == '=')) {
			slot = &o->self_cpus;
			name = "--self-cpus";
		} else if (!strncmp(a, "--self-nice", 11) && (a[11] == '\0' || a[11] == '=')) {
			slot = &o->self_nice;
			name = "--self-nice";
		}
		if (!slot) {
			argv[out++] = argv[i];
			continue;
		}
		if (strchr(a, '=')) {
			*slot = strchr(a, '=') + 1;
		} else if (i + 1 < *argc) {
			*slot = argv[++i];
		} else {
			fprintf(stderr, "tunetop: %s needs %s\n", name,
				slot == clocks		? "a list of clock names"
				: slot == &o->self_cpus ? "a CPU list"
				: slot == &o->self_nice ? "a nice value"
							: "a directory");
			return -1;
		}
		if (!**slot && (slot == &o->root || slot == &o->state_dir)) {
			fprintf(stderr, "tunetop: %s needs a directory\n", name);
			return -1;
		}
	}
	argv[out] = NULL;
	*argc = out;
	return 0;
}

/* A --root that is not a directory is a usage error (exit 2, nothing
 * touched), whatever the command. */
static int check_root(const char *root)
{
	struct stat st;

	if (stat(root, &st) != 0) {
		fprintf(stderr, "tunetop: --root %s: %s\n", root, err_name(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "tunetop: --root %s: %s\n", root, err_name(ENOTDIR));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct tt_opts o = {.root = "/", .state_dir = NULL};
	const char *clocks = NULL;
	char **clk_names = NULL, why[160];
	int rc;

	(void)str_utf8_locale(); /* decided while there is one thread (core/str.h) */
	if (take_globals(&argc, argv, &o, &clocks) < 0)
		return 2;
	if (clocks) {
		if (devfreq_clk_list_parse(clocks, &clk_names, why, sizeof(why)) != 0) {
			fprintf(stderr, "tunetop: --clocks '%s': %s\n", clocks, why);
			return 2;
		}
		o.clocks = (const char *const *)clk_names;
	}
	if (check_root(o.root) < 0)
		return 2;
	/* -q / --quiet before the command: no note about orphaned changes */
	while (argc > 1 && (!strcmp(argv[1], "-q") || !strcmp(argv[1], "--quiet"))) {
		o.quiet = true;
		memmove(argv + 1, argv + 2, (size_t)(argc - 1) * sizeof(*argv));
		argc--;
	}
	if (argc > 1 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("tunetop %s\n", PACKAGE_VERSION);
		printf("libpfm4: %s\n", pfm_status());
		printf("libsensors: %s\n", thermal_libsensors_status());
		return 0;
	}
	/* hidden: the completion scripts' words (the build generates them) */
	if (argc > 1 && !strcmp(argv[1], "--complete"))
		return cmd_complete(argc > 2 ? argv[2] : NULL, stdout);
	if (argc > 1 &&
	    (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))) {
		usage(stdout);
		return 0;
	}
	/* Numeric TUNETOP_* variables: a typo is an error, not the default. */
	if (knob_env_check(why, sizeof(why)) != 0) {
		fprintf(stderr, "tunetop: %s\n", why);
		devfreq_clk_list_free(clk_names);
		return 2;
	}
	if (argc > 1 && argv[1][0] != '-') {
		const struct cmd_entry *c = cmd_find(argv[1]);

		if (c) {
			rc = cmd_run(c, &o, argc - 1, argv + 1);
			devfreq_clk_list_free(clk_names);
			return rc;
		}
		fprintf(stderr, "tunetop: unknown command '%s' (see tunetop --help)\n", argv[1]);
		devfreq_clk_list_free(clk_names);
		return 2;
	}
	/* No command: the interactive UI, with its own options (src/ui/tui.c). */
#ifdef HAVE_TUI
	rc = tui_main(&o, argc, argv);
#else
	fprintf(stderr, "tunetop: built without the TUI (--disable-tui): use snapshot, watch or "
			"serve\n");
	rc = 2;
#endif
	devfreq_clk_list_free(clk_names);
	return rc;
}
