/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Files opened by name (src/sysfs/userfile.c) and their users: a FIFO, a
 * device, a directory or a symlink where one is refused never blocks and
 * gives -EINVAL ("not a regular file"); the size limit gives -EFBIG; a
 * regular file reads whole. The journal loader, the replay reader, the
 * tunetoprc and theme loaders all go through it (issue 13). An alarm turns
 * a hang into a failure. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/str.h"
#include "knob/journal.h"
#include "model/replay.h"
#include "sysfs/userfile.h"
#include "tap.h"
#include "ui/config.h"
#include "ui/theme.h"

static char dir[64];

static char *path(const char *name)
{
	static char buf[4][128];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(path(name), "w");

	fputs(text, f);
	fclose(f);
}

static void test_helper(void)
{
	char *s = NULL;
	size_t n = 0;
	int fd;

	put("plain", "hello\n");
	is_int(userfile_read(path("plain"), 0, 100, &s, &n), 0, "a regular file reads");
	ok(s && n == 6 && !strcmp(s, "hello\n"), "whole, NUL terminated");
	free(s);
	is_int(userfile_read(path("plain"), 0, 5, &s, &n), -EFBIG,
	       "6 bytes with a 5 byte limit: EFBIG");
	ok(s == NULL, "nothing returned");
	is_int(userfile_read(path("plain"), 0, 0, &s, &n), 0, "limit 0: none");
	free(s);
	is_int(userfile_read(path("missing"), 0, 100, &s, &n), -ENOENT, "missing: ENOENT");
	is_int(userfile_read(path("fifo"), 0, 100, &s, &n), -EINVAL, "a FIFO: EINVAL, no hang");
	is_int(userfile_read("/dev/zero", 0, 100, &s, &n), -EINVAL, "/dev/zero: EINVAL");
	is_int(userfile_read(dir, 0, 100, &s, &n), -EINVAL, "a directory: EINVAL");
	is_int(userfile_read(path("link"), 0, 100, &s, &n), 0, "a symlink to a file: followed");
	free(s);
	is_int(userfile_read(path("link"), O_NOFOLLOW, 100, &s, &n), -ELOOP,
	       "with O_NOFOLLOW: ELOOP");
	fd = userfile_open(path("fifo"), O_WRONLY, 0, 0);
	is_int(fd, -EINVAL, "a FIFO opened for writing without a reader: EINVAL, no hang");
	fd = userfile_open(path("fifo"), O_RDWR, 0, 0);
	is_int(fd, -EINVAL, "a FIFO opened read-write: EINVAL");
	fd = userfile_open(path("new"), O_RDWR | O_CREAT | O_NOFOLLOW, 0600, 10);
	ok(fd >= 0, "O_CREAT makes a new file");
	if (fd >= 0) {
		ok(!(fcntl(fd, F_GETFL) & O_NONBLOCK), "O_NONBLOCK cleared again");
		ok(fcntl(fd, F_GETFD) & FD_CLOEXEC, "close-on-exec");
		close(fd);
	}
	is_str(userfile_strerror(-EINVAL, 0), "not a regular file", "EINVAL in words");
	is_str(userfile_strerror(-EFBIG, USERFILE_MAX_TEXT), "larger than 1 MiB", "1 MiB");
	is_str(userfile_strerror(-EFBIG, USERFILE_MAX_JOURNAL), "larger than 64 MiB", "64 MiB");
	is_str(userfile_strerror(-EFBIG, USERFILE_MAX_RECORD), "larger than 4 GiB", "4 GiB");
	is_str(userfile_strerror(-EFBIG, 1000), "larger than 1000 bytes", "bytes");
}

static void test_users(void)
{
	struct jrec *r = NULL;
	struct replay *rp = NULL;
	struct ui_config c;
	struct theme t;
	struct sbuf errs;
	char *cause = NULL, p[256];
	size_t n = 0;
	FILE *f;

	is_int(journal_load(path("fifo"), &r, &n, NULL), -EINVAL, "journal_load of a FIFO: EINVAL");
	is_int(journal_load(path("missing"), &r, &n, NULL), 0, "a missing journal: no records");
	is_int(journal_load(path("link"), &r, &n, NULL), -ELOOP, "a symlink journal: ELOOP");
	is_int(replay_open(&rp, path("fifo"), &cause), -EINVAL, "replay_open of a FIFO: EINVAL");
	snprintf(p, sizeof(p), "%s: not a regular file", path("fifo"));
	is_str(cause, p, "FILE: not a regular file");
	free(cause);
	config_defaults(&c);
	is_int(config_load(path("fifo"), &c, NULL), -EINVAL, "config_load of a FIFO: EINVAL");
	f = fopen(path("bigrc"), "w");
	for (int i = 0; i < 70000; i++)
		fputs("# padding line\n", f);
	fclose(f);
	is_int(config_load(path("bigrc"), &c, NULL), -EFBIG, "a tunetoprc over 1 MiB: EFBIG");
	mkdir(path("themes"), 0755);
	mkfifo(path("themes/odd.theme"), 0600);
	setenv("TUNETOP_THEMES_DIR", path("themes"), 1);
	sbuf_init(&errs);
	memset(&t, 0, sizeof(t));
	is_int(theme_load("odd", &t, &errs, NULL, 0), -ENOENT, "a FIFO theme is not loaded");
	snprintf(p, sizeof(p), "%s: not a regular file", path("themes/odd.theme"));
	ok(errs.s && strstr(errs.s, p), "and reported: %s", errs.s ? errs.s : "(nothing)");
	sbuf_free(&errs);
}

/* userfile_out: written under a temporary name, renamed over the target
 * only when all went well; the target is untouched otherwise. */
static void test_out(void)
{
	struct userfile_out o;
	char *text = NULL, tmp[160];
	size_t len = 0;

	put("out", "old\n");
	is_int(userfile_out_open(&o, path("out")), 0, "out: open");
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path("out"), (long)getpid());
	ok(access(tmp, F_OK) == 0, "out: written under %s", tmp);
	is_int(userfile_write_all(o.fd, "new text\n", 9), 0, "out: write_all");
	is_int(userfile_read(path("out"), 0, 0, &text, &len), 0, "out: target readable meanwhile");
	is_str(text, "old\n", "out: target untouched before the commit");
	free(text);
	is_int(userfile_out_commit(&o, 0), 0, "out: commit");
	ok(access(tmp, F_OK) != 0, "out: no temporary file left");
	is_int(userfile_read(path("out"), 0, 0, &text, &len), 0, "out: read back");
	is_str(text, "new text\n", "out: the new content, whole");
	free(text);

	is_int(userfile_out_open(&o, path("out")), 0, "out: open again");
	is_int(userfile_write_all(o.fd, "torn", 4), 0, "out: a partial write");
	is_int(userfile_out_commit(&o, -EIO), -EIO, "out: the caller's error is returned");
	ok(access(tmp, F_OK) != 0, "out: the temporary file is removed on error");
	is_int(userfile_read(path("out"), 0, 0, &text, &len), 0, "out: read after the failure");
	is_str(text, "new text\n", "out: the target keeps its content");
	free(text);

	is_int(userfile_out_open(&o, path("no/such/dir/out")), -ENOENT,
	       "out: a missing directory is -ENOENT");
	is_int(userfile_write_all(-1, "x", 1), -EBADF, "write_all: a bad fd is -EBADF");

	/* issue 32: a FIFO at the temporary name is an error, not a wait */
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path("fifo-out"), (long)getpid());
	if (mkfifo(tmp, 0600) == 0) {
		is_int(userfile_out_open(&o, path("fifo-out")), -EINVAL,
		       "out: a FIFO at the temporary name is -EINVAL");
		unlink(tmp);
	} else {
		ok(0, "mkfifo %s", tmp);
	}
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/tt-userfile.XXXXXX");
	if (!mkdtemp(dir))
		skip_all("mkdtemp failed");
	alarm(30); /* a hang on a FIFO is a failure, not a stuck test */
	if (mkfifo(path("fifo"), 0600) != 0)
		skip_all("mkfifo failed");
	put("target", "x\n");
	if (symlink("target", path("link")) != 0)
		skip_all("symlink failed");
	test_helper();
	test_users();
	test_out();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", dir);
	}
	return done_testing();
}
