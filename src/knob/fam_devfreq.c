/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The devfreq knob family: devfreq/<dev>/{governor, min_hz, max_hz, lock_hz}
 * (sys/class/devfreq/<dev>; <dev> is a name, a glob or a kind alias: ddr,
 * npu, gpu). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"
#include "knob/knob_int.h"

#define DEVFREQ_DIR "sys/class/devfreq"

#define DEVFREQ_FREQS(flag) KNOB_FREQ_FIELDS("Hz", "available_frequencies", flag)

/* clang-format off */
static const struct knob_def devfreq_defs[] = {
	{ .fam = &fam_devfreq, .leaf = "governor", .pattern = "devfreq/<dev>/governor",
	  .scope = KS_DEVICE, .file = "governor", KNOB_GOVERNOR_FIELDS("available_governors"),
	  .help = "devfreq governor (DDR, GPU, NPU); 'performance' keeps the memory/accelerator "
		  "clock up so the CPU never waits for it to ramp" },
	{ .fam = &fam_devfreq, .leaf = "min_hz", .pattern = "devfreq/<dev>/min_hz",
	  .scope = KS_DEVICE, .file = "min_freq", DEVFREQ_FREQS(KD_MIN), .observe = KO_FREQ_BOUND,
	  .help = "devfreq lower frequency limit (Hz, not kHz); 'min' and 'max' accepted" },
	{ .fam = &fam_devfreq, .leaf = "max_hz", .pattern = "devfreq/<dev>/max_hz",
	  .scope = KS_DEVICE, .file = "max_freq", DEVFREQ_FREQS(KD_MAX), .observe = KO_FREQ_BOUND,
	  .help = "devfreq upper frequency limit (Hz)" },
	{ .fam = &fam_devfreq, .leaf = "lock_hz", .pattern = "devfreq/<dev>/lock_hz",
	  .scope = KS_DEVICE, .file = "min_freq", .file2 = "max_freq", DEVFREQ_FREQS(KD_LOCK),
	  .help = "devfreq min = max = value (Hz), written in the safe order; reads 'off' when "
		  "min != max" },
};
/* clang-format on */

/* ---- devfreq -------------------------------------------------------------- */

const char *knob_devfreq_kind(const char *name)
{
	if (!strcmp(name, "dmc") || strstr(name, "ddr") || strstr(name, "dmc"))
		return "ddr";
	if (str_ends(name, ".npu") || strstr(name, "npu"))
		return "npu";
	if (str_ends(name, ".gpu") || strstr(name, "mali") || strstr(name, "gpu"))
		return "gpu";
	return "other";
}

static const char *const devfreq_leaves[] = {"governor", "min_hz", "max_hz", "lock_hz"};

static int devfreq_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
			  struct refvec *out, char **cause)
{
	bool missing = false;
	const char *dsel = knob_seg_or_star(seg, nseg, 0, flags, &missing);
	const char *leaf = knob_seg_or_star(seg, nseg, 1, flags, &missing);
	bool alias = !strcmp(dsel, "npu") || !strcmp(dsel, "gpu") || !strcmp(dsel, "ddr");
	struct sysfs_list l;
	int matched = 0;
	bool exact = false;

	if (missing)
		return knob_incomplete(cause, "devfreq", "<dev>/<knob>");
	if (nseg > 2)
		return knob_too_long(cause, "devfreq", seg, nseg);
	if (sysfs_list(ctx->root, DEVFREQ_DIR, &l) != 0 || l.n == 0) {
		sysfs_list_free(&l);
		if (flags & KNOB_EXPAND_EMPTY_OK)
			return 0;
		knob_cause(cause, "devfreq: no devfreq devices on this root");
		return -ENOENT;
	}
	for (size_t i = 0; i < l.n; i++)
		if (!strcmp(l.names[i], dsel))
			exact = true;
	if (!knob_is_glob(leaf) && !knob_fam_def(&fam_devfreq, leaf)) {
		knob_cause(cause,
			   "unknown devfreq knob '%s' (knobs: governor min_hz max_hz lock_hz)",
			   leaf);
		sysfs_list_free(&l);
		return -ENOENT;
	}
	for (size_t i = 0; i < l.n; i++) {
		const char *name = l.names[i];
		char dir[TT_PATH_MAX];
		bool take;

		if (exact)
			take = !strcmp(name, dsel);
		else if (alias)
			take = !strcmp(knob_devfreq_kind(name), dsel);
		else
			take = knob_is_glob(dsel) && knob_glob_match(dsel, name);
		if (!take)
			continue;
		matched++;
		knob_join(dir, sizeof(dir), DEVFREQ_DIR, name);
		for (size_t k = 0; k < sizeof(devfreq_leaves) / sizeof(devfreq_leaves[0]); k++) {
			const struct knob_def *d = knob_fam_def(&fam_devfreq, devfreq_leaves[k]);
			char addr[KNOB_ADDR_MAX], path[TT_PATH_MAX];
			struct knob_ref *r;

			if (!knob_glob_match(leaf, d->leaf))
				continue;
			knob_join(path, sizeof(path), dir, d->file);
			if (!sysfs_exists(ctx->root, path)) {
				char abs[TT_PATH_MAX];

				if (knob_is_glob(leaf))
					continue;
				knob_abspath(ctx, path, abs, sizeof(abs));
				knob_cause(cause, "devfreq/%s/%s: ENOENT from %s", name, leaf, abs);
				sysfs_list_free(&l);
				return -ENOENT;
			}
			snprintf(addr, sizeof(addr), "devfreq/%s/%s", name, d->leaf);
			r = knob_add_ref(out, d, addr, name, dir);
			snprintf(r->note, sizeof(r->note), "kind %s", knob_devfreq_kind(name));
		}
	}
	if (!matched && !knob_is_glob(dsel)) {
		char names[512];

		knob_names_joined(&l, names, sizeof(names));
		knob_cause(cause,
			   "devfreq/%s: no such devfreq device%s (devices: %s; aliases npu "
			   "gpu ddr)",
			   dsel, alias ? " kind" : "", names);
		sysfs_list_free(&l);
		return -ENOENT;
	}
	sysfs_list_free(&l);
	return 0;
}
KNOB_FAMILY(devfreq, .expand = devfreq_expand, .cur_freq = {"cur_freq"});

/* ---- typed addresses (knob_addr.h) ---- */

KNOB_ADDR_BUILDER(knob_addr_devfreq_governor, (const char *dev), "devfreq/%s/governor", dev)

KNOB_ADDR_BUILDER(knob_addr_devfreq_min_hz, (const char *dev), "devfreq/%s/min_hz", dev)

KNOB_ADDR_BUILDER(knob_addr_devfreq, (const char *dev), "devfreq/%s", dev)

KNOB_ADDR_BUILDER(knob_addr_devfreq_max_hz, (const char *dev), "devfreq/%s/max_hz", dev)

KNOB_ADDR_BUILDER(knob_addr_devfreq_lock_hz, (const char *dev), "devfreq/%s/lock_hz", dev)
