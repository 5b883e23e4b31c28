/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tracefs side of `probe --break US` (cyclictest -b): find tracefs under
 * the root (sys/kernel/tracing, then sys/kernel/debug/tracing), and when
 * tracing_on reads 1 hold it open for writing, so the measuring thread that
 * sees the break can write 0 at once (probe_cfg.break_fd). Afterwards the
 * trace buffer (`trace`) is copied next to the result. tunetop never turns
 * tracing on and never picks a tracer: if tracing_on is 0 (or there is no
 * tracefs), nothing is written and nothing is saved, and the reason is told.
 * All paths go through the sysroot, so tests use a fixture directory. */
#ifndef TT_PROBE_TRACEBREAK_H
#define TT_PROBE_TRACEBREAK_H

#include <stdbool.h>

struct sysroot;

struct tracebreak {
	const struct sysroot *r;
	char dir[48];  /* relative to the root; "" = no tracefs found */
	bool was_on;   /* tracing_on read 1 */
	int on_fd;     /* tracing_on open for writing, -1 */
	char why[200]; /* when on_fd < 0: why nothing will be stopped */
};

/* Look for tracefs and open tracing_on if tracing is on. Returns 0 when
 * on_fd is open, else -errno with t->why set ("no tracefs under ROOT (looked
 * in ...)", "tracing is off (ROOT/.../tracing_on = 0): no trace to save"). */
int tracebreak_open(struct tracebreak *t, const struct sysroot *r);
/* Copy DIR/trace to dest (temporary file + rename). 0 or -errno; on error
 * why says which file. */
int tracebreak_save(struct tracebreak *t, const char *dest);
void tracebreak_close(struct tracebreak *t);

#endif
