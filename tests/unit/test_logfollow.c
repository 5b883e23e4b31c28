/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The log follower (src/sysfs/logfollow.c): start at the end or the
 * beginning, partial lines, rotation, truncation, deletion, a file that
 * appears late or never, long lines, a FIFO refused. Time-based limits are
 * set to a few ms and waited out with a sleep well beyond them. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/str.h"
#include "core/timeutil.h"
#include "sysfs/logfollow.h"
#include "tap.h"

static char dir[] = "/tmp/tt-logfollow.XXXXXX";
static char logp[256], oldp[256];

struct got {
	struct sbuf s; /* lines joined with '|' */
	unsigned n;
};

static void on_line(void *arg, const char *line, size_t len)
{
	struct got *g = arg;

	g->n++;
	ok(strlen(line) == len, "line '%.20s' is NUL-terminated at its length", line);
	sbuf_printf(&g->s, "%s|", line);
}

static void put(const char *path, const char *mode, const char *text)
{
	FILE *fp = fopen(path, mode);

	if (!fp)
		return;
	fputs(text, fp);
	fclose(fp);
}

static const char *poll_str(struct logfollow *f, struct got *g, int *rc)
{
	sbuf_free(&g->s);
	sbuf_init(&g->s);
	g->n = 0;
	*rc = logfollow_poll(f, on_line, g);
	return g->s.s ? g->s.s : "";
}

static void test_basic(void)
{
	struct logfollow f;
	struct logfollow_cfg c;
	struct got g = {0};
	int rc;

	put(logp, "w", "old=1\nold=2\n");
	logfollow_cfg_init(&c);
	is_int(logfollow_open(&f, logp, &c), 0, "open an existing file");
	is_str(poll_str(&f, &g, &rc), "", "starts at the end: the old lines are not new");
	put(logp, "a", "latency=100\nlatency=2");
	is_str(poll_str(&f, &g, &rc), "latency=100|", "a complete line; the partial one is kept");
	is_int(rc, 0, "poll 0");
	put(logp, "a", "00\n\nx=3\n");
	is_str(poll_str(&f, &g, &rc), "latency=200||x=3|",
	       "the partial line completed, an empty line");

	/* rotation: the app writes one more line to the old file, then a new
	 * file appears under the name */
	put(logp, "a", "last=1\nunfinished");
	rename(logp, oldp);
	put(logp, "w", "new=1\n");
	is_str(poll_str(&f, &g, &rc), "last=1|unfinished|new=1|",
	       "rotation: the old file's rest first (its last partial line too), then the new one "
	       "from its start");
	is_int((int)f.rotations, 1, "one rotation counted");
	put(logp, "a", "new=2\n");
	is_str(poll_str(&f, &g, &rc), "new=2|", "the new file is followed");

	/* truncation */
	put(logp, "w", "");
	put(logp, "a", "t=1\n");
	is_str(poll_str(&f, &g, &rc), "t=1|", "truncation: read again from offset 0");
	is_int((int)f.truncations, 1, "one truncation counted");
	put(logp, "a", "t=2\n");
	is_str(poll_str(&f, &g, &rc), "t=2|", "then followed on");
	logfollow_close(&f);
	sbuf_free(&g.s);
}

static void test_from_start_and_long(void)
{
	struct logfollow f;
	struct logfollow_cfg c;
	struct got g = {0};
	char big[300];
	int rc;

	put(logp, "w", "a=1\nb=2\n");
	logfollow_cfg_init(&c);
	c.flags = LOGFOLLOW_FROM_START;
	c.max_line = 100;
	logfollow_open(&f, logp, &c);
	is_str(poll_str(&f, &g, &rc), "a=1|b=2|", "LOGFOLLOW_FROM_START reads what is there");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put(logp, "a", big);
	is_str(poll_str(&f, &g, &rc), "", "a long partial line is not a line");
	put(logp, "a", big);
	put(logp, "a", "\nok=1\n");
	is_str(poll_str(&f, &g, &rc), "ok=1|",
	       "a line over max_line is dropped, the next one kept");
	is_int((int)f.long_lines, 1, "counted as one long line");
	logfollow_close(&f);
	sbuf_free(&g.s);
}

static void test_deleted(void)
{
	struct logfollow f;
	struct logfollow_cfg c;
	struct got g = {0};
	int rc;

	put(logp, "w", "");
	logfollow_cfg_init(&c);
	c.gone_wait_ms = 50;
	logfollow_open(&f, logp, &c);
	put(logp, "a", "v=1\n");
	unlink(logp);
	is_str(poll_str(&f, &g, &rc), "v=1|", "the lines written before the deletion are read");
	is_int(rc, 0, "within the grace time: no error yet");
	time_sleep_ns(300000000ull);
	poll_str(&f, &g, &rc);
	is_int(rc, -ENOENT, "deleted and not recreated: -ENOENT");
	ok(!strncmp(logfollow_why(&f), "metric file /tmp/", 17) &&
		   strstr(logfollow_why(&f), "app.log: deleted (no new file after "),
	   "one line: %s", logfollow_why(&f));
	ok(!strchr(logfollow_why(&f), '\n'), "no newline in the message");
	put(logp, "w", "late=1\n");
	poll_str(&f, &g, &rc);
	is_int(rc, -ENOENT, "stopped: later calls give the same error");
	logfollow_close(&f);
	sbuf_free(&g.s);
}

static void test_late_and_never(void)
{
	struct logfollow f;
	struct logfollow_cfg c;
	struct got g = {0};
	int rc;

	unlink(logp);
	logfollow_cfg_init(&c);
	c.start_wait_ms = 60000;
	is_int(logfollow_open(&f, logp, &c), 0, "a missing file is waited for");
	is_str(poll_str(&f, &g, &rc), "", "nothing yet");
	is_int(rc, 0, "no error while waiting");
	put(logp, "w", "first=1\n");
	is_str(poll_str(&f, &g, &rc), "first=1|", "a file that appeared is read from its start");
	logfollow_close(&f);

	unlink(logp);
	c.start_wait_ms = 20;
	logfollow_open(&f, logp, &c);
	time_sleep_ns(200000000ull);
	poll_str(&f, &g, &rc);
	is_int(rc, -ENOENT, "never appeared: -ENOENT after the wait");
	ok(strstr(logfollow_why(&f), "does not exist (waited") != NULL, "%s", logfollow_why(&f));
	logfollow_close(&f);

	mkfifo(logp, 0600);
	is_int(logfollow_open(&f, logp, &c), -EINVAL, "a FIFO is refused, without blocking");
	ok(strstr(logfollow_why(&f), "not a regular file") != NULL, "%s", logfollow_why(&f));
	logfollow_close(&f);
	unlink(logp);
	sbuf_free(&g.s);
}

int main(void)
{
	if (!mkdtemp(dir))
		skip_all("mkdtemp failed");
	snprintf(logp, sizeof(logp), "%s/app.log", dir);
	snprintf(oldp, sizeof(oldp), "%s/app.log.1", dir);
	test_basic();
	test_from_start_and_long();
	test_deleted();
	test_late_and_never();
	unlink(logp);
	unlink(oldp);
	rmdir(dir);
	return done_testing();
}
