/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef TUNETOP_CMD_PROBE_OPTS_H
#define TUNETOP_CMD_PROBE_OPTS_H

/* What cmd_getopt returns for probe and ab: the vals of their rows in
 * src/cmd/table.c. One list for both, so an option they share (--cpus, --json,
 * --why) has one name and one letter; the others are each command's own. */
enum probe_opt {
	/* shared by probe and ab */
	OPT_CPUS = 'c',
	OPT_JSON = 'j',
	OPT_WHY = 'w',
	/* probe */
	OPT_POLICY = 'P',
	OPT_DMA = 'd',
	OPT_SUMMARY = 'S',
	OPT_HISTFILE = 'H',
	OPT_BREAK = 'b',
	OPT_BREAK_TRACE = 'B',
	OPT_RPMSG = 'r',
	OPT_RPMSG_SIZE = 'z',
	OPT_RPMSG_IV = 'v',
	OPT_RPMSG_TO = 't',
	OPT_WHY_OVER = 'o',
	OPT_EVENTS = 'e',
	/* ab */
	OPT_AB_WINDOW = 'W',
	OPT_AB_SETTLE = 'S',
	OPT_AB_ROUNDS = 'R',
	OPT_AB_LOAD = 'L',
	OPT_AB_CMD = 'C',
	OPT_AB_METRIC = 'm',
	OPT_AB_METRIC_FILE = 'M',
	OPT_AB_SEED = 's',
	OPT_AB_PRIO = 'P',
	OPT_AB_POLICY = 'Y',
	OPT_AB_AA = 'a',
	OPT_AB_PRIMARY = 'p',
	OPT_AB_WHY_OVER = 'O',
};

#endif
