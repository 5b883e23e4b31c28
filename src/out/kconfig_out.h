/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel configuration section of the JSON snapshot and of the text report. */
#ifndef TT_OUT_KCONFIG_OUT_H
#define TT_OUT_KCONFIG_OUT_H

#include <stddef.h>

#include "core/json.h"
#include "core/str.h"
#include "source/kconfig.h"
#include "source/system.h"

/* Inside the caller's open object: "kernel_config": {source (path under the
 * root, null when none was found), looked: [paths], problem (one line or
 * null), preempt ("PREEMPT (dynamic)", null), options: {"PREEMPT_RT": "y" |
 * "m" | "n" | value | null (absent from the config), ...} or null when no
 * config was found}. */
void out_kconfig_json(struct jw *w, const struct kconfig_info *k);
/* "kconfig  /proc/config.gz  preempt ...", two more lines with the options,
 * or the one line "kconfig  no kernel config: looked in ...". */
void out_kconfig_text(struct sbuf *b, const struct kconfig_info *k);
/* One line for a screen: "kconfig /proc/config.gz: PREEMPT (dynamic) HZ=250
 * NO_HZ_FULL=y ..." or "no kernel config: looked in ...". */
void out_kconfig_line(char *buf, size_t cap, const struct kconfig_info *k);
/* The governors built in: "menu teo haltpoll(m)"; "" none. */
void out_kconfig_govs(char *buf, size_t cap, const struct kconfig_info *k, bool idle);

/* The preemption model for the RT screen: /proc/version's model, and for
 * PREEMPT_DYNAMIC the active mode (debugfs), else "mode n/a (needs
 * debugfs); boots as MODE (preempt= on the command line | the config's
 * default)". k may be NULL. */
void out_preempt_line(char *buf, size_t cap, const struct system_info *sys,
		      const struct kconfig_info *k);

#endif
