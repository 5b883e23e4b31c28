/* The only code that opens files. Every path is relative to a root
 * directory (`--root DIR`, default "/"), opened with openat() on the root's
 * directory fd, so that fixture trees stand in for the live /sys and /proc.
 * Paths are written without the leading slash or with it; both work:
 * "sys/devices/system/cpu/online" == "/sys/devices/system/cpu/online".
 * Every function returns 0 or -errno. */
#ifndef TT_SYSFS_SYSROOT_H
#define TT_SYSFS_SYSROOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fdcache;

struct sysroot {
	int dirfd;
	char *path; /* absolute path of the root, "/" for the live system */
	bool live;  /* path is "/" */
	/* Optional observer of every path read (tunetop capture uses it). */
	void (*on_read)(void *ctx, const char *path);
	void *on_read_ctx;
	/* Files under sys/ and proc/ (not /proc/PID) stay open between reads and
	 * are re-read with pread() at offset 0, which makes sysfs and seq_file
	 * regenerate their content: one syscall per value instead of four. */
	struct fdcache *cache;
};

#define TT_PATH_MAX 512

int sysroot_open(struct sysroot *r, const char *dir);
void sysroot_close(struct sysroot *r);
/* Close the cached fds (files that vanished or were replaced are re-opened
 * on the next read). The sampler calls it now and then. */
void sysroot_flush(const struct sysroot *r);
/* Number of cached open files (for tests and the benchmark). */
size_t sysroot_cached(const struct sysroot *r);
/* The live root "/" (opened on first use; per-process files under /proc/PID
 * and the scheduling syscalls always act on the live kernel). */
const struct sysroot *sysroot_live(void);
/* Absolute file system path of `path` under the root, for messages. */
void sysroot_abspath(const struct sysroot *r, const char *path, char *buf, size_t cap);

/* Raw read of a whole file into buf (NUL terminated). -EFBIG if it does not
 * fit. *len may be NULL. */
int sysfs_read(const struct sysroot *r, const char *path, char *buf, size_t cap, size_t *len);
/* Read a file of any size into a malloc'ed NUL-terminated buffer. */
int sysfs_read_alloc(const struct sysroot *r, const char *path, char **out, size_t *len);
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

/* Write `val` (len bytes) with one write() call, as sysfs expects. Regular
 * files (fixtures) are truncated first. */
int sysfs_write(const struct sysroot *r, const char *path, const char *val, size_t len);
int sysfs_write_str(const struct sysroot *r, const char *path, const char *val);
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

#endif
