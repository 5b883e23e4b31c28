/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command runner's setup flags (src/cmd/table.c, cmd_setup): fake
 * command entries run through cmd_run() on a copy of the rpi4 fixture,
 * each planting a knob write and a direct file write. Without CMD_WRITES
 * both are refused with -EROFS (the knob one with the one-line cause
 * "read-only: this command only reads knobs") and the tree stays as it
 * was; with CMD_WRITES the same code changes the governor. A mode that
 * asks for less (cmd_setup_only, as apply --list) is read-only too. The
 * runner closes what it opened (leak detection under ASan). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "core/str.h"
#include "knob/knob.h"
#include "tap.h"

#define GOV "sys/devices/system/cpu/cpufreq/policy0/scaling_governor"

/* What the planted writes returned. */
static int knob_rc, file_rc, setup_rc;
static char knob_cause[256];
static bool only_root; /* the fake command sets up with cmd_setup_only(CMD_SYSROOT) */

static int plant_writes(struct cmd_ctx *cx, int argc, char **argv)
{
	const char *assign[] = {"cpufreq/policy0/governor=performance"};
	struct sbuf rep;
	char *cause = NULL;

	(void)argc;
	(void)argv;
	setup_rc = only_root ? cmd_setup_only(cx, CMD_SYSROOT, 0) : cmd_setup(cx, 0);
	if (setup_rc)
		return 1;
	knob_rc = 1;
	knob_cause[0] = '\0';
	if (cx->knob) {
		sbuf_init(&rep);
		knob_rc = knob_set_many(cx->knob, assign, NULL, 1, 0, &rep, &cause);
		str_copy(knob_cause, sizeof(knob_cause), cause ? cause : "");
		free(cause);
		sbuf_free(&rep);
	}
	file_rc = sysfs_write_str(&cx->root, GOV, "powersave");
	return 0;
}

static const struct cmd_opt no_opts[] = {{NULL, NULL}};

static const struct cmd_entry fake_ro = {"fake-ro",
					 plant_writes,
					 "fake-ro",
					 NULL,
					 no_opts,
					 CMD_SYSROOT | CMD_ENGINE,
					 "a read-only command"};
static const struct cmd_entry fake_rw = {"fake-rw",
					 plant_writes,
					 "fake-rw",
					 NULL,
					 no_opts,
					 CMD_SYSROOT | CMD_ENGINE | CMD_WRITES,
					 "a command that writes"};
static const struct cmd_entry fake_root = {"fake-root",
					   plant_writes,
					   "fake-root",
					   NULL,
					   no_opts,
					   CMD_SYSROOT,
					   "a read-only command without engine"};

static void governor(const char *dir, char *buf, size_t cap)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, GOV);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, (int)cap, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

static int run(const struct cmd_entry *c, const struct tt_opts *o)
{
	char a0[] = "fake", *argv[] = {a0, NULL};

	return cmd_run(c, o, 1, argv);
}

int main(void)
{
	char tmpl[] = "/tmp/tt-runner.XXXXXX", root[1100], state[1100], cmd[2400], gov[64];
	const char *tmp = mkdtemp(tmpl);
	struct tt_opts o = {0};

	if (!tmp) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(root, sizeof(root), "%s/root", tmp);
	snprintf(state, sizeof(state), "%s/state", tmp);
	snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s' && chmod -R u+w '%s'", fixture("rpi4"), root,
		 root);
	if (system(cmd) != 0) {
		fprintf(stderr, "cannot copy the rpi4 fixture\n");
		return 1;
	}
	o.root = root;
	o.state_dir = state;
	o.quiet = true;

	governor(root, gov, sizeof(gov));
	is_str(gov, "ondemand", "the copied fixture's governor");

	/* a read-only command with the engine */
	is_int(run(&fake_ro, &o), 0, "read-only entry: the runner sets it up");
	is_int(knob_rc, -EROFS, "read-only entry: a knob write is refused (EROFS)");
	is_str(knob_cause, "read-only: this command only reads knobs",
	       "... with one line saying why");
	is_int(file_rc, -EROFS, "read-only entry: a direct file write under --root is refused");
	governor(root, gov, sizeof(gov));
	is_str(gov, "ondemand", "... and the tree is unchanged");

	/* a read-only command without the engine */
	knob_rc = 0;
	is_int(run(&fake_root, &o), 0, "root-only entry: set up");
	is_int(file_rc, -EROFS, "root-only entry: a file write is refused");

	/* a mode that asks for less than its writing entry declares */
	only_root = true;
	is_int(run(&fake_rw, &o), 0, "writing entry, cmd_setup_only(CMD_SYSROOT): set up");
	is_int(file_rc, -EROFS, "... its root is read-only");
	governor(root, gov, sizeof(gov));
	is_str(gov, "ondemand", "... the tree is unchanged");
	only_root = false;

	/* the same code in an entry with CMD_WRITES writes */
	is_int(run(&fake_rw, &o), 0, "writing entry: set up");
	is_int(knob_rc, 0, "writing entry: the knob write works");
	is_int(file_rc, 0, "writing entry: the file write works");
	governor(root, gov, sizeof(gov));
	is_str(gov, "powersave", "... the tree changed (the test can fail)");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
	return done_testing();
}
