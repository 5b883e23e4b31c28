/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Follow a log file a running app writes (`ab/watch --metric-file LOG`), the
 * way `tail -F` does, by polling stat() and read() (no inotify): each
 * logfollow_poll() hands the complete new lines to a callback.
 *
 * - start at the end of the file (default) or at its beginning
 *   (LOGFOLLOW_FROM_START); a file that does not exist yet is waited for,
 *   up to cfg.start_wait_ms, and then read from its beginning;
 * - rotation (the path now names another inode, `mv log log.1` and a new
 *   log): the old file's remaining lines are read first, then the new file
 *   from its start;
 * - truncation (the size shrank below what was read, `: > log`): restart at
 *   offset 0, the partial line is dropped;
 * - deletion (the path is gone and no new file appears within
 *   cfg.gone_wait_ms): -ENOENT, logfollow_why() gives the one line
 *   ("metric file LOG: deleted (no new file after 2 s)"); the follower stops;
 * - a partial last line is kept until its newline arrives; a line longer
 *   than cfg.max_line is dropped (counted in long_lines).
 * The path is opened like any file the user names (userfile_open: a FIFO or
 * a device is refused, -EINVAL). Functions return 0 or -errno. */
#ifndef TT_SYSFS_LOGFOLLOW_H
#define TT_SYSFS_LOGFOLLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define LOGFOLLOW_FROM_START 1u /* read what the file already holds too */

#define LOGFOLLOW_DEFAULT_START_WAIT_MS 10000
#define LOGFOLLOW_DEFAULT_GONE_WAIT_MS	2000
#define LOGFOLLOW_DEFAULT_MAX_LINE	(64u << 10)

struct logfollow_cfg {
	unsigned flags;		/* LOGFOLLOW_FROM_START */
	unsigned start_wait_ms; /* how long a missing file is waited for at the start */
	unsigned gone_wait_ms;	/* how long a deleted file may stay missing */
	size_t max_line;	/* longer lines are dropped */
};

/* Called once per complete line, without its '\n' (NUL-terminated). */
typedef void (*logfollow_line_fn)(void *arg, const char *line, size_t len);

struct logfollow {
	struct logfollow_cfg cfg;
	char *path;
	int fd; /* -1: not open (waiting for the file, or stopped) */
	dev_t dev;
	ino_t ino;
	off_t pos;
	char *part; /* the partial last line */
	size_t npart, cappart;
	bool skipping;	     /* inside a line longer than max_line */
	bool opened_once;    /* the file was open at least once */
	bool stopped;	     /* an error ended the following */
	uint64_t t_start;    /* logfollow_open */
	uint64_t gone_since; /* CLOCK_MONOTONIC ns the path went missing, 0 = present */
	int err;
	char why[512];
	/* counters */
	uint64_t lines, bytes;
	unsigned rotations, truncations, long_lines;
};

void logfollow_cfg_init(struct logfollow_cfg *c);

/* Start following path. A missing file is not an error yet (polls wait for
 * it); anything else that makes the path unreadable (not a regular file,
 * EACCES) is -errno with logfollow_why(). Call logfollow_close() anyway. */
int logfollow_open(struct logfollow *f, const char *path, const struct logfollow_cfg *cfg);

/* Read what is new: call fn for every complete line. 0, or -errno once
 * following has stopped (deleted, never appeared, a read error); the same
 * error is returned by every later call. */
int logfollow_poll(struct logfollow *f, logfollow_line_fn fn, void *arg);

/* The one line describing the error ("metric file LOG: ..."). */
const char *logfollow_why(const struct logfollow *f);

void logfollow_close(struct logfollow *f);

#endif
