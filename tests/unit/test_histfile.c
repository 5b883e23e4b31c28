/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/probe/histfile.c (cyclictest -h format) and the message
 * format of src/probe/rpmsg.c: exact lines for two threads with samples
 * inside and beyond the 1000 us of the file, empty histograms, the atomic
 * write and "-"; messages round-trip, garbage is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/str.h"
#include "probe/histfile.h"
#include "probe/rpmsg.h"
#include "tap.h"

static struct hist *new_hists(int n)
{
	struct hist *h = calloc((size_t)n, sizeof(*h));

	if (!h)
		abort();
	for (int i = 0; i < n; i++)
		hist_init(&h[i]);
	return h;
}

/* The line of text starting with prefix, or NULL. */
static const char *line_of(const char *text, const char *prefix, char *buf, size_t cap)
{
	const char *p = text;
	size_t n = strlen(prefix);

	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len >= n && !strncmp(p, prefix, n)) {
			if (len >= cap)
				len = cap - 1;
			memcpy(buf, p, len);
			buf[len] = '\0';
			return buf;
		}
		p = e ? e + 1 : NULL;
	}
	return NULL;
}

static void test_format(void)
{
	struct hist *h = new_hists(2);
	struct sbuf b;
	char l[256];
	int lines = 0;

	hist_add(&h[0], 5200, 1);     /* 5 us */
	hist_add(&h[0], 5900, 2);     /* 5 us */
	hist_add(&h[0], 41000, 3);    /* 41 us */
	hist_add(&h[1], 6000, 1);     /* 6 us */
	hist_add(&h[1], 2500000, 2);  /* 2500 us: beyond the file */
	hist_add_overflows(&h[1], 3); /* skipped deadlines: not in the file */
	sbuf_init(&b);
	histfile_format(&b, h, 2);
	for (const char *p = b.s; *p; p++)
		lines += *p == '\n';
	/* # Histogram, 1000 rows, 5 summary lines, overflow header, 2 thread
	 * lines, the closing blank line */
	is_int(lines, 1 + 1000 + 5 + 1 + 2 + 1, "line count");
	ok(!strncmp(b.s, "# Histogram\n000000 000000\t000000\n", 33), "header and first row");
	is_str(line_of(b.s, "000005 ", l, sizeof(l)), "000005 000002\t000000", "5 us row");
	is_str(line_of(b.s, "000006 ", l, sizeof(l)), "000006 000000\t000001", "6 us row");
	is_str(line_of(b.s, "000041 ", l, sizeof(l)), "000041 000001\t000000", "41 us row");
	is_str(line_of(b.s, "000999 ", l, sizeof(l)), "000999 000000\t000000", "last row 999");
	ok(!line_of(b.s, "001000 ", l, sizeof(l)), "no row 1000");
	is_str(line_of(b.s, "# Total:", l, sizeof(l)), "# Total: 000000003 000000001", "Total");
	is_str(line_of(b.s, "# Min Latencies:", l, sizeof(l)), "# Min Latencies: 00005 00006",
	       "Min");
	is_str(line_of(b.s, "# Avg Latencies:", l, sizeof(l)), "# Avg Latencies: 00017 01253",
	       "Avg (truncated whole us)");
	is_str(line_of(b.s, "# Max Latencies:", l, sizeof(l)), "# Max Latencies: 00041 02500",
	       "Max");
	is_str(line_of(b.s, "# Histogram Overflows:", l, sizeof(l)),
	       "# Histogram Overflows: 00000 00001", "Overflows = samples >= 1000 us");
	is_str(line_of(b.s, "# Thread 0:", l, sizeof(l)), "# Thread 0:", "thread 0 line");
	is_str(line_of(b.s, "# Thread 1:", l, sizeof(l)), "# Thread 1: # 00001 others",
	       "thread 1 line");
	sbuf_free(&b);

	/* empty: zeros, as cyclictest prints for a thread without samples */
	hist_init(&h[0]);
	sbuf_init(&b);
	histfile_format(&b, h, 1);
	is_str(line_of(b.s, "# Min Latencies:", l, sizeof(l)), "# Min Latencies: 00000",
	       "empty: Min 0");
	is_str(line_of(b.s, "# Total:", l, sizeof(l)), "# Total: 000000000", "empty: Total 0");
	sbuf_free(&b);
	free(h);
}

static void test_write(void)
{
	struct hist *h = new_hists(1);
	char dir[] = "/tmp/tt-histfile.XXXXXX", path[300], tmpname[340];
	FILE *f;
	char first[64] = "";

	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/h.txt", dir);
	hist_add(&h[0], 7000, 1);
	is_int(histfile_write(path, h, 1), 0, "write returns 0");
	f = fopen(path, "r");
	ok(f && fgets(first, sizeof(first), f) && !strcmp(first, "# Histogram\n"),
	   "file starts with # Histogram");
	if (f)
		fclose(f);
	snprintf(tmpname, sizeof(tmpname), "%s.tmp.%ld", path, (long)getpid());
	ok(access(tmpname, F_OK) != 0, "no temporary file left");
	snprintf(path, sizeof(path), "%s/missing/h.txt", dir);
	ok(histfile_write(path, h, 1) < 0, "a missing directory is an error");
	snprintf(path, sizeof(path), "%s/h.txt", dir);
	unlink(path);
	rmdir(dir);
	free(h);
}

static void test_rpmsg_msg(void)
{
	unsigned char m[64];
	uint32_t seq = 0;
	uint64_t t = 0;

	rpmsg_build(m, sizeof(m), 77, UINT64_C(123456789012));
	is_int(rpmsg_parse(m, sizeof(m), &seq, &t), 0, "message parses");
	is_int((int)seq, 77, "seq kept");
	ok(t == UINT64_C(123456789012), "time kept");
	m[40] ^= 1;
	ok(rpmsg_parse(m, sizeof(m), &seq, &t) < 0, "changed payload refused");
	rpmsg_build(m, sizeof(m), 1, 1);
	m[0] = 'X';
	ok(rpmsg_parse(m, sizeof(m), &seq, &t) < 0, "wrong magic refused");
	rpmsg_build(m, RPMSG_MIN_SIZE, 3, 9);
	is_int(rpmsg_parse(m, RPMSG_MIN_SIZE, &seq, &t), 0, "minimum size parses");
}

int main(void)
{
	test_format();
	test_write();
	test_rpmsg_msg();
	return done_testing();
}
