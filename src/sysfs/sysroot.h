/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The only code that opens files. Every path is relative to a root
 * directory (`--root DIR`, default "/"), opened on the root's directory fd,
 * so that fixture trees stand in for the live /sys and /proc. Paths are
 * written without the leading slash or with it; both work:
 * "sys/devices/system/cpu/online" == "/sys/devices/system/cpu/online".
 * Under a root other than "/" no path leaves the root: symlinks are
 * followed only while they stay inside it (openat2() RESOLVE_BENEATH, or a
 * walk with O_NOFOLLOW where the kernel lacks it); an absolute symlink or
 * one that climbs out with ".." fails with -EXDEV and the path is noted
 * for sysroot_refused(). Every function returns 0 or -errno. */
#ifndef TT_SYSFS_SYSROOT_H
#define TT_SYSFS_SYSROOT_H

#include <stdbool.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <sys/types.h>

struct fdcache;
struct sbuf;

struct sysroot {
	int dirfd;
	char *path; /* absolute path of the root, "/" for the live system */
	bool live;  /* path is "/" */
	/* Read-only (the command runner's root for a command without
	 * CMD_WRITES): sysfs_write(), sysfs_write_cleanup() and a writing
	 * sysfs_open() fail with -EROFS, touching nothing. */
	bool readonly;
	/* Optional observer of every path read (tunetop capture uses it). */
	void (*on_read)(void *ctx, const char *path);
	void *on_read_ctx;
	/* Files under sys/ and proc/ (not /proc/PID) stay open between reads and
	 * are re-read with pread() at offset 0, which makes sysfs and seq_file
	 * regenerate their content: one syscall per value instead of four. */
	struct fdcache *cache;
};

#define TT_PATH_MAX 512
/* Whole-file reads (sysfs_read_alloc) stop here with -EFBIG. */
#define TT_READ_MAX	 (16u << 20)
#define TT_READ_MAX_TEXT "16 MiB"

int sysroot_open(struct sysroot *r, const char *dir);
void sysroot_close(struct sysroot *r);
/* Close the cached fds (files that vanished or were replaced are re-opened
 * on the next read). The sampler calls it now and then. */
void sysroot_flush(const struct sysroot *r);
/* Number of cached open files (for tests and the benchmark). */
size_t sysroot_cached(const struct sysroot *r);
/* The fd cache's size (for tests): its entries (files read), the watched
 * directories (non-live roots), the bytes of its intern table (each
 * directory and file name once, shared by the entries and the watches), and
 * the bytes of one entry and of one directory record. */
struct sysroot_cache_stats {
	size_t entries, dirs, str_bytes;
	size_t ent_size, dir_size;
};
void sysroot_cache_stats(const struct sysroot *r, struct sysroot_cache_stats *out);
/* The live root "/" (opened on first use; per-process files under /proc/PID
 * and the scheduling syscalls always act on the live kernel). */
const struct sysroot *sysroot_live(void);
/* Absolute file system path of `path` under the root, for messages. */
void sysroot_abspath(const struct sysroot *r, const char *path, char *buf, size_t cap);
/* Paths refused since the last call, one line each, appended to out:
 * "ROOT/sys/.../disable: symlink leaves the root (EXDEV)",
 * "ROOT/proc/interrupts: larger than 16 MiB (EFBIG)". Each path is told
 * once. Returns the number of lines. */
size_t sysroot_refused(const struct sysroot *r, struct sbuf *out);
/* Words for an error of a read or write here: "symlink leaves the root
 * (EXDEV)", "file too large (EFBIG)", "not a regular file (fifo)",
 * otherwise the errno name. */
const char *sysfs_why(int err);
/* A FIFO, socket or device where a file belongs (anywhere in a --root
 * tree; on the live root anywhere but a character device under /dev): every
 * open is O_NONBLOCK and then fstat()ed, so such a file is this error, noted
 * for sysroot_refused() as "PATH: not a regular file (fifo)", never a wait. */
#define SYSFS_ENOTREG EMEDIUMTYPE
/* -SYSFS_ENOTREG for a file of this mode, whose kind sysfs_why() then names
 * (for code that found it with its own stat). */
int sysfs_not_regular(mode_t mode);

/* Raw read of a whole file into buf (NUL terminated). -EFBIG if it does not
 * fit. *len may be NULL. */
int sysfs_read(const struct sysroot *r, const char *path, char *buf, size_t cap, size_t *len);
/* Read a whole file (up to TT_READ_MAX, else -EFBIG) into a malloc'ed
 * NUL-terminated buffer. */
int sysfs_read_alloc(const struct sysroot *r, const char *path, char **out, size_t *len);
/* Read a file line by line through a buffer of chunk bytes (0: 16 KiB),
 * grown only for a line longer than it: fn(ctx, line, len) for each line,
 * NUL-terminated without its newline, writable. A non-zero return of fn
 * stops the read and is returned. Like sysfs_read_alloc(): the fd cache
 * (the pieces are preads on the cached fd), the observer, -EFBIG past
 * TT_READ_MAX. For big files a parser takes line by line (/proc/interrupts
 * of a many-CPU machine), so that the text is never held whole. */
#define SYSFS_LINES_CHUNK 16384
int sysfs_read_lines(const struct sysroot *r, const char *path, size_t chunk,
		     int (*fn)(void *ctx, char *line, size_t len), void *ctx);
/* Read and trim white space. -ENODATA when the trimmed value is empty. */
int sysfs_read_str(const struct sysroot *r, const char *path, char *buf, size_t cap);
/* Read a decimal number. -ENODATA empty, -EINVAL garbage. */
int sysfs_read_u64(const struct sysroot *r, const char *path, uint64_t *out);
int sysfs_read_i64(const struct sysroot *r, const char *path, int64_t *out);

/* printf-style path variants. */
int sysfs_read_strf(const struct sysroot *r, char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int sysfs_read_u64f(const struct sysroot *r, uint64_t *out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int sysfs_read_i64f(const struct sysroot *r, int64_t *out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool sysfs_existsf(const struct sysroot *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Write `val` (len bytes). The live root: one write() call, as sysfs
 * expects (an attribute takes a value whole). A non-live root: the bytes go
 * to a temporary file ".NAME.tunetop-PID-N" next to the file (after
 * following symlinks inside the root), renamed over it, so a writer killed
 * at any moment leaves the old bytes or the new ones; the target's own
 * permissions still decide (-EACCES). */
int sysfs_write(const struct sysroot *r, const char *path, const char *val, size_t len);
int sysfs_write_str(const struct sysroot *r, const char *path, const char *val);
/* Remove temporary files of sysfs_write() that a killed writer left next
 * to path (non-live roots). Returns how many, or -errno. */
int sysfs_write_cleanup(const struct sysroot *r, const char *path);
/* open(2) of a file under the root (O_CLOEXEC added): the fd or -errno, for
 * a caller that must hold a file open (the cpu_dma_latency lease). */
int sysfs_open(const struct sysroot *r, const char *path, int flags);
/* True also for a symlink that leaves a non-live root (noted as refused):
 * a read of it then fails with -EXDEV instead of looking absent. */
bool sysfs_exists(const struct sysroot *r, const char *path);
bool sysfs_is_dir(const struct sysroot *r, const char *path);
/* access(W_OK) equivalent under the root. */
bool sysfs_writable(const struct sysroot *r, const char *path);
int sysfs_readlink(const struct sysroot *r, const char *path, char *buf, size_t cap);

/* Sorted directory listing (no "." and ".."). Free with sysfs_list_free. */
struct sysfs_list {
	char **names;
	size_t n;
};
int sysfs_list(const struct sysroot *r, const char *path, struct sysfs_list *out);
void sysfs_list_free(struct sysfs_list *l);

/* sysfs_list() of a directory that may be absent: a missing one (-ENOENT,
 * -ENOTDIR: no such interface on this kernel) is an empty listing and 0. */
int sysfs_list_opt(const struct sysroot *r, const char *path, struct sysfs_list *out);
/* A non-negative decimal number in dir/file; -1 (n/a) when the file is
 * missing, empty, garbage or negative. */
int64_t sysfs_read_nn(const struct sysroot *r, const char *dir, const char *file);
/* read(2) of an open fd (off < 0: at its position; else pread(2) at off),
 * again when a signal interrupts it: the bytes read, 0 at the end, or -errno. */
ssize_t sysfs_fd_read(int fd, void *buf, size_t n, off_t off);
/* An open fd read to its end into *buf from *got on (*cap bytes, one kept
 * for the NUL that ends it), fd left open. With grow, *buf (malloc'd)
 * doubles when full, to max + 2 bytes at the most; without, a byte past the
 * room is -EFBIG. More than max bytes (0: no limit): -EFBIG. 0 or -errno; *got is
 * what was read. sysfs_read, sysfs_read_alloc and userfile_read's loop. */
int sysfs_fd_read_all(int fd, char **buf, size_t *cap, size_t *got, size_t max, bool grow);

#endif
