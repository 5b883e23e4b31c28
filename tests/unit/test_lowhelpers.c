/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers of the low layers that sources and knobs share (issue 14): the
 * per-CPU column header of /proc/interrupts and /proc/softirqs, digit
 * strings, array copies, optional sysfs directories, non-negative sysfs
 * numbers, reads that a signal interrupts, and the knob engine's cause
 * lines and raw reads. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cpumask.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob.h"
#include "knob/knob_int.h"
#include "sysfs/sysroot.h"
#include "tap.h"

static char top[64];

static void put(const char *rel, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	f = fopen(path, "w");
	if (!f) {
		printf("# cannot write %s\n", path);
		return;
	}
	fputs(text, f);
	fclose(f);
}

static void test_cpu_header(void)
{
	char line[] = "           CPU0       CPU1       CPU3   extra";
	char bad[] = "  0:  12  34  IO-APIC";
	char *tok[8];
	struct cpumask cpus;
	size_t ncols = 99;
	int *col;

	cpumask_zero(&cpus);
	col = cpu_header_parse(line, tok, 8, &ncols, &cpus);
	ok(col != NULL, "header: parsed");
	is_int(ncols, 3, "header: three CPU columns, the word after them ends it");
	ok(col && col[0] == 0 && col[1] == 1 && col[2] == 3, "header: columns map to CPUs 0 1 3");
	is_int(cpumask_count(&cpus), 3, "header: three CPUs in the mask");
	ok(!cpumask_test(&cpus, 2), "header: CPU 2 has no column");
	is_int(cpumask_last(&cpus), 3, "header: the highest CPU");
	is_str(tok[3], "extra", "header: the line is cut into tokens in place");
	free(col);

	cpumask_zero(&cpus);
	col = cpu_header_parse(bad, tok, 8, &ncols, &cpus);
	ok(col == NULL && ncols == 0 && cpumask_empty(&cpus), "a counts line is no header");
	col = cpu_header_parse(NULL, tok, 8, &ncols, &cpus);
	ok(col == NULL && ncols == 0, "no line: no header");
	{
		char big[] = "CPU1 CPU1024";

		col = cpu_header_parse(big, tok, 8, &ncols, &cpus);
		ok(col && ncols == 1, "a CPU beyond TT_MAX_CPUS ends the columns");
		free(col);
	}
}

static void test_digits_and_arrays(void)
{
	static const int src[] = {3, 1, 4, 1, 5};
	int *copy;

	ok(str_is_digits("24"), "digits: 24");
	ok(str_is_digits("0"), "digits: 0");
	ok(!str_is_digits(""), "digits: empty is not");
	ok(!str_is_digits("-1"), "digits: a sign is not");
	ok(!str_is_digits("2a"), "digits: trailing letter");
	ok(!str_is_digits("LOC"), "digits: a word");

	copy = xdup_array(src, 5, sizeof(src[0]));
	ok(copy && copy != src && !memcmp(copy, src, sizeof(src)), "xdup_array: an equal copy");
	free(copy);
	ok(xdup_array(src, 0, sizeof(src[0])) == NULL, "xdup_array: no elements, NULL");
	ok(xdup_array(NULL, 5, sizeof(src[0])) == NULL, "xdup_array: NULL array, NULL");
}

static void test_sysfs(void)
{
	struct sysroot r;
	struct sysfs_list l;
	char path[256];

	snprintf(path, sizeof(path), "mkdir -p '%s/sys/d/sub' '%s/outside'", top, top);
	if (system(path) != 0)
		printf("# mkdir failed\n");
	put("sys/d/num", "42\n");
	put("sys/d/neg", "-3\n");
	put("sys/d/word", "abc\n");
	put("sys/d/empty", "");
	put("sys/d/sub/a", "1\n");
	put("sys/d/sub/b", "2\n");
	snprintf(path, sizeof(path), "%s/root-link", top);
	if (symlink("/", path) != 0)
		printf("# symlink failed\n");
	snprintf(path, sizeof(path), "%s", top);
	if (sysroot_open(&r, path) != 0) {
		ok(0, "open the temporary root");
		return;
	}
	is_int(sysfs_read_nn(&r, "sys/d", "num"), 42, "read_nn: 42");
	is_int(sysfs_read_nn(&r, "sys/d", "neg"), -1, "read_nn: negative is n/a");
	is_int(sysfs_read_nn(&r, "sys/d", "word"), -1, "read_nn: garbage is n/a");
	is_int(sysfs_read_nn(&r, "sys/d", "empty"), -1, "read_nn: empty is n/a");
	is_int(sysfs_read_nn(&r, "sys/d", "missing"), -1, "read_nn: missing is n/a");

	is_int(sysfs_list_opt(&r, "sys/d/sub", &l), 0, "list_opt: a directory");
	ok(l.n == 2 && !strcmp(l.names[0], "a") && !strcmp(l.names[1], "b"),
	   "list_opt: its entries, sorted");
	sysfs_list_free(&l);
	is_int(sysfs_list_opt(&r, "sys/nothere", &l), 0, "list_opt: a missing directory is 0");
	is_int(l.n, 0, "list_opt: ... and empty");
	is_int(sysfs_list_opt(&r, "sys/d/num/x", &l), 0, "list_opt: below a file (ENOTDIR) is 0");
	is_int(l.n, 0, "list_opt: ... and empty");
	is_int(sysfs_list_opt(&r, "root-link/etc", &l), -EXDEV,
	       "list_opt: a link out of the root is still refused");
	sysroot_close(&r);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void test_fd_read(void)
{
	struct sigaction sa;
	struct itimerval it = {{0, 0}, {0, 20000}};
	char buf[16];
	int p[2];
	pid_t child;
	ssize_t k;

	if (pipe(p) != 0) {
		ok(0, "pipe");
		return;
	}
	/* a signal without SA_RESTART interrupts the blocked read: EINTR */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	child = fork();
	if (child == 0) {
		close(p[0]);
		usleep(200000);
		if (write(p[1], "late", 4) != 4)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	setitimer(ITIMER_REAL, &it, NULL);
	k = sysfs_fd_read(p[0], buf, sizeof(buf), -1);
	ok(k == 4 && !memcmp(buf, "late", 4), "fd_read: read again after a signal");
	is_int(sysfs_fd_read(p[0], buf, sizeof(buf), -1), 0, "fd_read: 0 at the end");
	if (child > 0)
		waitpid(child, NULL, 0);
	close(p[0]);
	is_int(sysfs_fd_read(p[0], buf, sizeof(buf), -1), -EBADF, "fd_read: -errno");
	signal(SIGALRM, SIG_DFL);

	put("pread", "0123456789");
	{
		char path[128];
		int fd;

		snprintf(path, sizeof(path), "%s/pread", top);
		fd = open(path, O_RDONLY);
		k = sysfs_fd_read(fd, buf, 3, 4);
		ok(k == 3 && !memcmp(buf, "456", 3), "fd_read: at an offset");
		k = sysfs_fd_read(fd, buf, 4, -1);
		ok(k == 4 && !memcmp(buf, "0123", 4),
		   "fd_read: the offset did not move the position");
		close(fd);
	}
}

static void test_knob_helpers(void)
{
	struct sysroot r;
	struct knob_ctx *ctx = NULL;
	char *cause = NULL, buf[64], raw[4];
	size_t len = 0, rawlen = 99;

	knob_cause_add(&cause, "first");
	is_str(cause, "first", "cause_add: the first line");
	knob_cause_add(&cause, "second");
	is_str(cause, "first\nsecond", "cause_add: a line after it");
	free(cause);
	knob_cause_add(NULL, "nowhere"); /* NULL cause: nothing, no crash */

	put("sys/d/val", "performance\n");
	if (sysroot_open(&r, top) != 0 || knob_ctx_open(&ctx, &r, NULL, KNOB_NO_JOURNAL, NULL)) {
		ok(0, "a knob context on the temporary root");
		return;
	}
	is_int(knob_read_raw(ctx, "sys/d/val", buf, sizeof(buf), &len, raw, sizeof(raw), &rawlen),
	       0, "read_raw: 0");
	ok(len == 12 && !strcmp(buf, "performance\n"), "read_raw: the whole file");
	ok(rawlen == 4 && !memcmp(raw, "perf", 4), "read_raw: raw keeps the first rawcap bytes");
	rawlen = 99;
	is_int(knob_read_raw(ctx, "sys/d/val", buf, sizeof(buf), &len, NULL, 0, &rawlen), 0,
	       "read_raw: without raw");
	is_int(rawlen, 99, "read_raw: rawlen untouched without raw");
	is_int(knob_read_raw(ctx, "sys/d/gone", buf, sizeof(buf), &len, raw, sizeof(raw), &rawlen),
	       -ENOENT, "read_raw: a missing file is -ENOENT");
	knob_ctx_close(ctx);
	sysroot_close(&r);
}

int main(void)
{
	char cmd[128];

	snprintf(top, sizeof(top), "/tmp/tt-lowhelpers.XXXXXX");
	if (!mkdtemp(top))
		skip_all("no temporary directory");
	test_cpu_header();
	test_digits_and_arrays();
	test_sysfs();
	test_fd_read();
	test_knob_helpers();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd) != 0)
		printf("# cleanup failed\n");
	return done_testing();
}
