/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Files the user names (profiles, themes, tunetoprc, recordings, the undo
 * journal), as opposed to the kernel files under the root that sysroot.c
 * reads. Opening one never blocks: a FIFO, a device (/dev/zero) or a socket
 * is refused before the first read, and so is a file above the size limit
 * of its kind. Every function returns 0 (or an fd) or -errno:
 * -EINVAL  not a regular file (userfile_strerror: "not a regular file")
 * -EFBIG   larger than the limit (userfile_strerror: "larger than 1 MiB") */
#ifndef TT_SYSFS_USERFILE_H
#define TT_SYSFS_USERFILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Size limits per kind of file (0 = none). */
#define USERFILE_MAX_TEXT    (1ull << 20) /* profile, theme, tunetoprc, a JSON result */
#define USERFILE_MAX_JOURNAL (64ull << 20)
#define USERFILE_MAX_RECORD  (4ull << 30) /* --record / --replay, report FILE */

/* open(path, flags | O_NONBLOCK | O_CLOEXEC, mode), then fstat: a regular
 * file no larger than max. O_NONBLOCK is cleared again on success (it means
 * nothing for a regular file). Add O_NOFOLLOW to flags where a symlink makes
 * no sense (the journal). Returns the fd or -errno; nothing stays open on
 * failure. With O_CREAT a new empty file is made as open() would. */
int userfile_open(const char *path, int flags, mode_t mode, uint64_t max);

/* Read a whole user file (flags: 0 or O_NOFOLLOW) into a malloc'ed
 * NUL-terminated buffer. *len may be NULL. A file that grows past max while
 * it is read is -EFBIG too. */
int userfile_read(const char *path, int flags, uint64_t max, char **out, size_t *len);

/* The same checks for an fd that is already open (fstat). */
int userfile_check_fd(int fd, uint64_t max);

/* The source tree this binary was built from, when the running binary is
 * the one in its build tree (not installed): profiles, themes and the demo
 * are then found there, so `./tunetop` works straight after `make`. Read
 * from the file tunetop.srcdir the build writes beside the program (no path
 * is compiled in). NULL for an installed binary or when the trees are gone. */
const char *userfile_source_tree(void);

/* Words for an error of the functions above: "not a regular file", "larger
 * than 1 MiB", else strerror(). Thread-local storage for the EFBIG case. */
const char *userfile_strerror(int err, uint64_t max);

/* ---- output files written whole (issue 14) ---- */

/* Write all n bytes to fd, again after EINTR. 0 or -errno. */
int userfile_write_all(int fd, const char *s, size_t n);

/* A file written under a temporary name next to PATH ("PATH.tmp.PID",
 * O_NOFOLLOW, mode 0644) and renamed over PATH by userfile_out_commit(), so
 * a reader never sees it torn. */
struct userfile_out {
	int fd;
	char *tmp;
	const char *path;
};

/* Create the temporary file: 0 or -errno (nothing to commit then). */
int userfile_out_open(struct userfile_out *o, const char *path);
/* Close the temporary file and, unless e (the caller's error) is set,
 * rename it over PATH; on any error it is removed. Returns e, else the
 * error of close or rename, else 0. */
int userfile_out_commit(struct userfile_out *o, int e);

#endif
