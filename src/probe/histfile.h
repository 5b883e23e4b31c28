/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Histograms in cyclictest's `-h` output format (rt-tests), so that plotting
 * scripts written for cyclictest read tunetop's soak runs unchanged:
 *
 *   # Histogram
 *   000000 000000\t000000          one line per microsecond 0..HISTFILE_US-1,
 *   000001 000012\t000009          "%06d " then one "%06llu" per thread,
 *   ...                            tab-separated
 *   # Total: 000000951 000000991   samples inside the histogram, per thread
 *   # Min Latencies: 00005 00005   whole us
 *   # Avg Latencies: 00006 00007   whole us (truncated, as cyclictest)
 *   # Max Latencies: 00041 00052
 *   # Histogram Overflows: 00000 00000   samples >= HISTFILE_US us
 *   # Histogram Overflow at cycle number:
 *   # Thread 0: # 00000 others     tunetop keeps no cycle numbers
 *   # Thread 1: # 00000 others
 *
 * That is cyclictest -h 1000: the probe's histogram has 1 us buckets below
 * 1 ms only (histogram.h). "Histogram Overflows" is cyclictest's meaning
 * (samples beyond the histogram), not the probe's skipped deadlines. */
#ifndef TT_PROBE_HISTFILE_H
#define TT_PROBE_HISTFILE_H

#include <stddef.h>

#include "probe/histogram.h"

struct sbuf;

#define HISTFILE_US 1000 /* lines 000000..000999 */

/* Append the text for n histograms (one column each) to out. */
void histfile_format(struct sbuf *out, const struct hist *h, int n);
/* Write it to path ("-" = standard output): a temporary file next to it
 * renamed over it, so a reader never sees half a histogram. 0 or -errno. */
int histfile_write(const char *path, const struct hist *h, int n);

#endif
