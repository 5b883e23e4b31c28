/* SPDX-License-Identifier: GPL-2.0-or-later */
/* devfreq data source: every device under sys/class/devfreq (NPU, GPU, DDR
 * controller, buses): governor, current / target / min / max frequency (Hz),
 * available frequencies and governors, trans_stat (time per frequency, the
 * '*' marker, total transitions), Rockchip's "load" file; plus debugfs clock
 * rates (sys/kernel/debug/clk/<name>/clk_rate) as a fallback for blocks that
 * have no devfreq device (e.g. scmi_clk_npu on RK3588 images without the NPU
 * devfreq). A value that cannot be read is n/a (-1, NAN, "" or a have_ flag),
 * never 0. */
#ifndef TT_SOURCE_DEVFREQ_H
#define TT_SOURCE_DEVFREQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysfs/sysroot.h"

#define DEVFREQ_NAME_LEN 32

enum devfreq_kind { DEVFREQ_NPU, DEVFREQ_GPU, DEVFREQ_DDR, DEVFREQ_BUS, DEVFREQ_OTHER };

struct devfreq_dev {
	char name[64];	/* directory name under sys/class/devfreq ("dmc", "fdab0000.npu") */
	char path[256]; /* resolved device directory, root-relative with a leading '/'
			   ("/sys/devices/platform/dmc/devfreq/dmc"); the class path when
			   the entry is not a symlink */
	enum devfreq_kind kind;
	char governor[DEVFREQ_NAME_LEN]; /* "" = n/a */
	size_t ngov;
	char (*avail_gov)[DEVFREQ_NAME_LEN]; /* available_governors */
	/* Hz (ms for polling); -1 = n/a */
	int64_t cur_hz, target_hz, min_hz, max_hz, polling_ms;
	size_t navail;
	uint64_t *avail_hz; /* available_frequencies */

	/* trans_stat */
	bool have_trans;    /* at least one state row parsed */
	bool trans_partial; /* the file was truncated or malformed (what parsed is kept) */
	int trans_err;	    /* 0, -ENOENT, -EACCES, -EOPNOTSUPP ("Not Supported."), -ENODATA,
			       -EINVAL (truncated / malformed: rows that parsed are kept) */
	size_t ntrans;
	uint64_t *trans_hz, *trans_time_ms; /* per state: frequency, ms spent there */
	int trans_cur;			    /* index of the '*' row, -1 none */
	bool have_total;
	uint64_t total_trans; /* "Total transition : N" */

	char load[32]; /* Rockchip "load" file raw ("47@200000000Hz"), "" = n/a */

	/* Derived by devfreq_derive(); NAN = n/a. */
	double transitions_per_s;
	double *time_pct; /* ntrans entries, % of the time accounted in the interval */
};

struct devfreq_clk {
	char name[48];		/* "scmi_clk_npu" */
	enum devfreq_kind kind; /* from the name */
	int64_t rate_hz;	/* clk_rate; -1 = n/a */
	int err;		/* why rate_hz is n/a (0 ok) */
	bool covered;		/* a devfreq device of the same kind exists */
};

struct devfreq_info {
	int err; /* listing sys/class/devfreq: 0, -ENOENT (no devfreq), -EACCES */
	size_t ndev;
	struct devfreq_dev *dev; /* sorted by name */
	size_t nclk;
	struct devfreq_clk *clk;
	int clk_err; /* why debugfs clocks are unavailable: 0, -ENOENT (no debugfs / no
			clk dir), -EACCES / -EPERM (not root, lockdown) */
};

/* "npu", "gpu", "ddr", "bus", "other". */
const char *devfreq_kind_name(enum devfreq_kind k);
/* Classify a device or clock name (case-insensitive): dmc, *dmc*, imx-ddr*,
 * *ddr* -> ddr; *npu* -> npu; *gpu*, *mali* -> gpu; *bus*, *interconnect*,
 * *noc* -> bus; else other. */
enum devfreq_kind devfreq_classify(const char *name);

/* Read every devfreq device and the debugfs clocks named in clk_names
 * (NULL-terminated; NULL = the default list scmi_clk_npu, scmi_clk_ddr,
 * scmi_clk_gpu, clk_npu, aclk_npu, clk_gpu, of which only the clocks that
 * exist are listed; an explicit list lists every name, with its error).
 * A machine without devfreq gives ndev = 0 (err = -ENOENT) and returns 0.
 * Free with devfreq_free even on error. */
int devfreq_read(const struct sysroot *r, const char *const *clk_names, struct devfreq_info *out);
/* Parse a comma-separated list of debugfs clock names ("scmi_clk_npu,
 * scmi_clk_ddr") for devfreq_read: each name is 1..47 characters of
 * [A-Za-z0-9_.-]; an empty item (",,", a leading or trailing comma, an empty
 * list) or another character is -EINVAL with a one-line why in why[cap].
 * On success *out (when out is not NULL) is a NULL-terminated array to free
 * with devfreq_clk_list_free. */
int devfreq_clk_list_parse(const char *s, char ***out, char *why, size_t cap);
void devfreq_clk_list_free(char **names);
/* Rates over dt_s against prev (devices matched by name, states by
 * frequency): transitions_per_s from total_trans, time_pct from the ms per
 * state. No prev, dt_s <= 0, a new device or a counter reset (any value lower
 * than before) gives NAN, never a negative rate. prev may be NULL. */
void devfreq_derive(struct devfreq_info *cur, const struct devfreq_info *prev, double dt_s);
/* Cheap re-sample: copy prev's devices and clocks (names, paths, kinds,
 * available frequencies and governors do not change) and re-read only the
 * governor, frequencies, limits, trans_stat, load and clock rates. Use
 * devfreq_read now and then (and when prev is NULL) to see devices come and
 * go. Free out with devfreq_free. */
int devfreq_refresh(const struct sysroot *r, const struct devfreq_info *prev,
		    struct devfreq_info *out);
void devfreq_free(struct devfreq_info *d);
/* Device by name, or by kind alias ("npu", "gpu", "ddr", "bus": the first
 * device of that kind); NULL none. */
const struct devfreq_dev *devfreq_find(const struct devfreq_info *d, const char *name);

/* Parse trans_stat into d->ntrans, trans_hz, trans_time_ms, trans_cur,
 * total_trans / have_total, have_trans, trans_partial (previous arrays are
 * freed). Handles the kernel format exactly: header frequencies of 10 digits
 * running together ("%10lu" with no separator), transition counts in
 * 10-character columns (the time column may run into the last count), the
 * '*' marker and the "Total transition : N" line. Returns 0; -EOPNOTSUPP for
 * "Not Supported."; -ENODATA when no state row parsed; -EINVAL when the text
 * was truncated or malformed (the rows that parsed are kept). Never reads
 * past the NUL. */
int devfreq_parse_trans_stat(const char *text, struct devfreq_dev *d);

#endif
