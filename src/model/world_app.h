/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The application of a world as the TUI shows it (issue 35): its last
 * frame time and the mean and standard deviation of its last n frames,
 * read from the tail of the world's log in the tree (the lines its model
 * appends, "... total:T ms (SIMULATED)"). Any tree with a world's marker;
 * no world attached, nothing written. */
#ifndef TT_MODEL_WORLD_APP_H
#define TT_MODEL_WORLD_APP_H

#include <stddef.h>

struct sysroot;

/* How many of the log's last frames world_app_recent() looks at. */
#define WORLD_APP_FRAMES 50

struct world_app {
	char world[64];			/* "rk3588-npu" */
	size_t n;			/* frames summed (at most the n asked for) */
	double last_ms, mean_ms, sd_ms; /* NAN when n = 0 (sd: n < 2) */
	/* their kurtosis m4 / m2^2 (NAN under 4 frames): how well their SD
	 * is known (the lessons' interval of a change of the SD) */
	double kurt;
};

/* 0, -ENOENT when the tree holds no world, -EINVAL when its marker names
 * none of this tunetop, or another -errno reading the log. */
int world_app_recent(const struct sysroot *r, size_t n, struct world_app *out);

/* The same over the world's own figure: the "total:" of rk3588-npu's
 * frames, a model world's figure after its line prefix (model/world_wm.h:
 * "[camera] keyframe:41.2 ms"), in ms. */
int world_app_recent_figure(const struct sysroot *r, size_t n, struct world_app *out);

/* Pure: the T of one log line's "total:T ms"; 1 = *ms set, 0 = none. */
int world_app_parse(const char *line, double *ms);

#endif
