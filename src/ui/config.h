/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tunetoprc: the TUI's settings as versioned key=value lines, described by
 * a table ({key, type, offset, range, help}) from which parsing, range checks,
 * writing and the setup screen all come. Unknown keys and bad values are
 * reported ("line N: ...") and skipped, never fatal. Saved atomically
 * (temporary file, fsync, rename) to $XDG_CONFIG_HOME/tunetop/tunetoprc.
 * No curses here. */
#ifndef TT_UI_CONFIG_H
#define TT_UI_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/str.h"

#define CONFIG_VERSION 1

struct ui_config {
	int version;
	char theme[32];
	int delay_tenths;      /* refresh interval, 1..600 tenths of a second */
	char start_screen[16]; /* screen name shown first */
	/* Cores screen columns */
	bool col_type, col_util, col_freq, col_idle, col_rates, col_temp;
	bool col_counters;    /* Cores: IPC, cache misses/s, context switches/s, migrations/s */
	bool thread_counters; /* Threads: counters pane of the selected thread */
	char events[256];     /* perf / libpfm4 events, comma-separated; "" = the generic set */
	char clocks[256];     /* debugfs clocks to read, comma-separated; "" = the default list
				 (--clocks wins) */
	/* header meters */
	bool hdr_clocks; /* DDR / NPU / GPU line */
	bool freq_ghz;	 /* show frequencies in GHz instead of MHz */
	bool mouse;
	bool confirm_quit; /* ask restore/keep on quit when changes are active */
	/* Latency screen: the probe and the A/B runs started with A */
	int probe_interval_us;
	int ab_window_s, ab_settle_ms, ab_rounds;
	/* Findings: the latency budget (idle-state exit latency, probe wake-ups) */
	int latency_budget_us;
	/* Isolation: how long t waits for the kernel to move an IRQ (x86
	 * moves one at its next interrupt: a rare IRQ needs longer) */
	int irq_try_s;
	/* where the monitor's own threads run (--self-cpus, --self-nice win):
	 * "" = the housekeeping CPUs */
	char self_cpus[64];
	int self_nice;
	/* what happens to a change of this session written over outside
	 * tunetop: "off", "report" or "reassert" (--hold wins) */
	char hold[16];
};

/* CONFIG_LIST: free text up to max-1 printable characters, may be empty,
 * checked by the key's check function. */
enum config_type { CONFIG_BOOL, CONFIG_INT, CONFIG_STR, CONFIG_LIST };

struct config_key {
	const char *key;
	enum config_type type;
	size_t offset;
	int min, max;	   /* CONFIG_INT range; CONFIG_STR / CONFIG_LIST capacity in max */
	const char *label; /* for the setup screen */
	/* CONFIG_LIST (and CONFIG_STR when set): 0 when val is acceptable, else
	 * -EINVAL with a one-line why. */
	int (*check)(const char *val, char *why, size_t cap);
};

extern const struct config_key config_keys[];
extern const size_t config_nkeys;

void config_defaults(struct ui_config *c);
/* Parse tunetoprc text over *c (start from config_defaults). Problems go to
 * errs, one line each. Returns the number of problems. */
int config_parse(const char *text, struct ui_config *c, struct sbuf *errs);
/* Render as tunetoprc text. */
void config_format(const struct ui_config *c, struct sbuf *out);
/* $XDG_CONFIG_HOME/tunetop/tunetoprc (or ~/.config/...); 0 or -ENOENT. */
int config_path(char *buf, size_t cap);
/* Load from path (a missing file is not an error: defaults). Returns the
 * number of problems, or -errno when the file exists but cannot be read
 * (-EINVAL: not a regular file, -EFBIG: over 1 MiB; userfile_strerror()). */
int config_load(const char *path, struct ui_config *c, struct sbuf *errs);
/* Atomic save (creates the directory). 0 or -errno. */
int config_save(const char *path, const struct ui_config *c);

/* Value of key k as text, and set from text (0 or -EINVAL / -ERANGE). */
void config_get(const struct ui_config *c, const struct config_key *k, char *buf, size_t cap);
int config_set(struct ui_config *c, const struct config_key *k, const char *val);
/* The same, with the check function's reason in why (may be NULL). */
int config_set_why(struct ui_config *c, const struct config_key *k, const char *val, char *why,
		   size_t cap);
/* The key named name, or NULL. */
const struct config_key *config_key_find(const char *name);

#endif
