/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The switches of a world (the sim/ family, fam_sim.c) that are one event
 * shown in several files of the tree, each file as the kernel shows it
 * (issue 35, doc/teach.md "The world switches"):
 *
 *   @cmdline     a reboot with this kernel command line: proc/cmdline, and
 *                what the kernel derives from it, sys/devices/system/cpu/
 *                isolated (isolcpus=, the domain isolation) and nohz_full
 *                (nohz_full=, "(null)" for none); a file the tree lacks
 *                stays absent
 *   @kernel      the kernel booted, "rt" (PREEMPT_RT) or "nonrt" (PREEMPT):
 *                the model word of proc/version and sys/kernel/realtime
 *   @state:PIDS  processes stopped or continued ("stopped", "running": what
 *                kill -STOP / -CONT leave): the state letter of
 *                proc/PID/{stat,status} and of each task/TID/ of every PID
 *                of the comma list
 *
 * Such a switch is one knob, journaled once: its read gives the value and,
 * as the "raw" bytes the journal keeps, every one of its files byte for
 * byte; its write changes the first file (the one its value is read from)
 * first, so that a writer killed half way leaves the value changed and the
 * journal entry open; its restore writes that first file last and puts
 * back the recorded bytes of each file that still holds what the switch
 * wrote (a file someone else changed since gets the old value edited into
 * it instead). The tree's own bytes are never derived from a table: each
 * edit changes only the field the event changes. */
#ifndef TT_KNOB_SIM_KIND_H
#define TT_KNOB_SIM_KIND_H

#include <stdbool.h>
#include <stddef.h>

struct knob_ctx;

enum sim_kind {
	SIM_FILE,    /* one plain file: the value is its contents */
	SIM_CMDLINE, /* @cmdline */
	SIM_KERNEL,  /* @kernel */
	SIM_STATE,   /* @state:PIDS */
};

/* The kind of a manifest's FILE field: SIM_FILE for a path, else "@NAME"
 * with its argument ("1181,1180") into arg. -EINVAL for an unknown @NAME
 * or a bad argument. */
int sim_kind_parse(const char *spec, enum sim_kind *kind, char *arg, size_t cap);
/* The file the switch's value is read from (its knob's target). */
void sim_kind_primary(enum sim_kind kind, const char *arg, char *path, size_t cap);
/* A value of a @cmdline switch: printable text, trimmed, into norm. -EINVAL
 * (control characters, empty) or -E2BIG with *cause. */
int sim_kind_cmdline_check(const char *addr, const char *value, char *norm, size_t cap,
			   char **cause);
/* The switch's value (and, raw not NULL, every file's bytes) on ctx's root. */
int sim_kind_read(struct knob_ctx *ctx, enum sim_kind kind, const char *arg, char *value,
		  size_t cap, char *raw, size_t rawcap, size_t *rawlen);
/* Every file of the switch to show value (the first file first); a failed
 * write puts back the files already written. 0 or -errno. */
int sim_kind_write(struct knob_ctx *ctx, enum sim_kind kind, const char *arg, const char *value);
/* Back to old (raw/rawlen: what sim_kind_read recorded). 0 or -errno. */
int sim_kind_restore(struct knob_ctx *ctx, enum sim_kind kind, const char *arg, const char *old,
		     const char *raw, size_t rawlen);

#endif
