/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The snapshot as OpenMetrics text (issue 16): `tunetop serve` (GET
 * /metrics) and `watch --openmetrics FILE` (node_exporter's textfile
 * collector). The values are those of the snapshot JSON (design §8), so the
 * exposition and `snapshot --json` never disagree: n/a is no sample, never
 * 0. Names start with tunetop_ and end with their unit (_hz, _seconds,
 * _celsius, _ratio); the text ends with "# EOF". */
#ifndef TT_OUT_OPENMETRICS_H
#define TT_OUT_OPENMETRICS_H

#include "core/str.h"
#include "model/snapshot.h"
#include "out/report.h"

#define OPENMETRICS_CONTENT_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define PROMTEXT_CONTENT_TYPE	 "text/plain; version=0.0.4; charset=utf-8"

enum om_format {
	OM_OPENMETRICS, /* OpenMetrics 1.0: counter families named without _total, info type */
	/* The Prometheus text format 0.0.4 (node_exporter's textfile collector,
	   promtool, a client that does not accept OpenMetrics): the same samples;
	   a counter family is named after its _total sample, an info family is a
	   gauge named X_info. The trailing "# EOF" is a comment there. */
	OM_PROMTEXT,
};

/* Probe percentiles to expose (a probe that runs next to the sampler). */
struct om_probe {
	const char *cpus;	       /* label, e.g. "0-3" */
	double p50_us, p99_us, max_us; /* NAN = no sample */
	uint64_t samples, overflows;
};

/* Append the exposition of s to b (o as for report_json; probe may be NULL). */
void openmetrics_write(struct sbuf *b, const struct snapshot *s, const struct report_opts *o,
		       const struct om_probe *probe, enum om_format fmt);

/* Write text to path atomically: PATH.tmp, fsync, rename over PATH. 0 or -errno. */
int openmetrics_write_file(const char *path, const char *text, size_t len);

#endif
