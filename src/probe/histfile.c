/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cyclictest `-h` histogram files (format in histfile.h): formatting and the
 * atomic write (temporary file + rename; "-" writes to standard output). */
#include "probe/histfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "sysfs/userfile.h"

static unsigned long long whole_us(uint64_t ns)
{
	return (unsigned long long)(ns / 1000u);
}

void histfile_format(struct sbuf *out, const struct hist *h, int n)
{
	sbuf_puts(out, "# Histogram\n");
	for (int us = 0; us < HISTFILE_US; us++) {
		int b = hist_bucket_of_us((uint64_t)us);

		sbuf_printf(out, "%06d ", us);
		for (int j = 0; j < n; j++)
			sbuf_printf(out, "%s%06llu", j ? "\t" : "",
				    (unsigned long long)h[j].bucket[b]);
		sbuf_putc(out, '\n');
	}
	sbuf_puts(out, "# Total:");
	for (int j = 0; j < n; j++) {
		uint64_t in = 0;

		for (int us = 0; us < HISTFILE_US; us++)
			in += h[j].bucket[hist_bucket_of_us((uint64_t)us)];
		sbuf_printf(out, " %09llu", (unsigned long long)in);
	}
	sbuf_puts(out, "\n# Min Latencies:");
	for (int j = 0; j < n; j++)
		sbuf_printf(out, " %05llu", h[j].count ? whole_us(h[j].min_ns) : 0ull);
	sbuf_puts(out, "\n# Avg Latencies:");
	for (int j = 0; j < n; j++)
		sbuf_printf(out, " %05llu", h[j].count ? whole_us(h[j].sum_ns / h[j].count) : 0ull);
	sbuf_puts(out, "\n# Max Latencies:");
	for (int j = 0; j < n; j++)
		sbuf_printf(out, " %05llu", h[j].count ? whole_us(h[j].max_ns) : 0ull);
	sbuf_puts(out, "\n# Histogram Overflows:");
	for (int j = 0; j < n; j++) {
		uint64_t over = 0;

		for (int b = hist_bucket_of_us(HISTFILE_US); b < HIST_NBUCKETS; b++)
			over += h[j].bucket[b];
		sbuf_printf(out, " %05llu", (unsigned long long)over);
	}
	sbuf_puts(out, "\n# Histogram Overflow at cycle number:\n");
	for (int j = 0; j < n; j++) {
		uint64_t over = 0;

		for (int b = hist_bucket_of_us(HISTFILE_US); b < HIST_NBUCKETS; b++)
			over += h[j].bucket[b];
		/* cyclictest's words when it kept none of the cycle numbers */
		sbuf_printf(out, "# Thread %d:", j);
		if (over)
			sbuf_printf(out, " # %05llu others", (unsigned long long)over);
		sbuf_putc(out, '\n');
	}
	sbuf_putc(out, '\n');
}

int histfile_write(const char *path, const struct hist *h, int n)
{
	struct userfile_out o;
	struct sbuf b;
	int e;

	sbuf_init(&b);
	histfile_format(&b, h, n);
	if (!strcmp(path, "-")) {
		fflush(stdout);
		e = userfile_write_all(STDOUT_FILENO, b.s, b.len);
	} else {
		e = userfile_out_open(&o, path);
		if (!e)
			e = userfile_out_commit(&o, userfile_write_all(o.fd, b.s, b.len));
	}
	sbuf_free(&b);
	return e;
}
