/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysroot under a --root tree (issue 13): symlinks that leave the root are
 * refused (-EXDEV) by every call, with openat2() and with the component
 * walk (TUNETOP_TEST_NO_OPENAT2=1); links inside it work; writes are
 * renamed into place and seen by the fd cache; whole-file reads stop at
 * TT_READ_MAX; sysfs_write_cleanup() removes a killed writer's leftovers;
 * the fd cache keeps its paths as shared strings (issue 14). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/str.h"
#include "sysfs/sysroot.h"
#include "tap.h"

static char top[64]; /* the temporary directory: root/ and outside/ in it */

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		printf("# command failed: %s\n", cmd);
}

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

static char *slurp(const char *rel)
{
	static char buf[256];
	char path[1024];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return buf;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The tree: root/sys/d/{a,b}, root/sys/in -> d (inside), root/sys/d/la ->
 * a (inside), and links out of it: abs -> TOP/outside/secret, rel ->
 * ../../../.. climbing to it, dir -> TOP/outside (a directory), up ->
 * ../.. (the root's parent). */
static void make_tree(void)
{
	sh("rm -rf '%s/root' '%s/outside'", top, top);
	sh("mkdir -p '%s/root/sys/d' '%s/root/other' '%s/outside'", top, top, top);
	put("root/sys/d/a", "1\n");
	put("root/sys/d/b", "2\n");
	put("root/other/c", "3\n");
	put("outside/secret", "SECRET\n");
	sh("cd '%s/root/sys' && ln -s d in && ln -s a d/la && ln -s '%s/outside/secret' abs && "
	   "ln -s ../../outside/secret rel && ln -s '%s/outside' dir && ln -s ../.. up && "
	   "ln -s d/../../../outside/secret rel2",
	   top, top, top);
}

static void check_escapes(const char *how)
{
	static const char *const out[] = {"sys/abs",
					  "sys/rel",
					  "sys/rel2",
					  "sys/dir/secret",
					  "sys/up/outside/secret",
					  "sys/../../outside/secret"};
	struct sysroot r;
	char buf[256];
	struct sbuf msg;
	struct sysfs_list l;
	char *text = NULL;

	make_tree();
	if (sysroot_open(&r, "root") != 0) {
		ok(0, "%s: open the root", how);
		return;
	}
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
		const char *p = out[i];

		is_int(sysfs_read(&r, p, buf, sizeof(buf), NULL), -EXDEV, "read");
		printf("#   %s: %s\n", how, p);
		ok(!strstr(buf, "SECRET"), "%s: %s: nothing of the outside file in the buffer", how,
		   p);
		is_int(sysfs_read_alloc(&r, p, &text, NULL), -EXDEV, "read_alloc");
		is_int(sysfs_write_str(&r, p, "0\n"), -EXDEV, "write");
		is_str(slurp("outside/secret"), "SECRET\n", "the outside file is unchanged");
		ok(sysfs_exists(&r, p), "%s: %s exists (and is refused when read)", how, p);
		ok(!sysfs_writable(&r, p), "%s: %s is not writable", how, p);
		ok(!sysfs_is_dir(&r, p), "%s: %s is not a directory", how, p);
	}
	is_int(sysfs_list(&r, "sys/dir", &l), -EXDEV, "list of a directory link out");
	is_int(sysfs_list(&r, "sys/up", &l), -EXDEV, "list of a link to the root's parent");
	ok(!sysfs_is_dir(&r, "sys/dir"), "%s: a directory link out is no directory", how);
	is_int(sysfs_open(&r, "sys/abs", O_RDONLY), -EXDEV, "sysfs_open of a link out");
	/* the link itself is inside: its text can be read */
	is_int(sysfs_readlink(&r, "sys/rel", buf, sizeof(buf)), 0, "readlink of a link out");
	is_str(buf, "../../outside/secret", "its text");
	is_int(sysfs_readlink(&r, "sys/dir/secret", buf, sizeof(buf)), -EXDEV,
	       "readlink through a directory link out");

	/* inside links work */
	is_int(sysfs_read_str(&r, "sys/in/a", buf, sizeof(buf)), 0, "read through a dir link");
	is_str(buf, "1", "its value");
	is_int(sysfs_read_str(&r, "sys/d/la", buf, sizeof(buf)), 0, "read through a file link");
	is_str(buf, "1", "its value");
	is_int(sysfs_read_str(&r, "sys/d/../d/b", buf, sizeof(buf)), 0, "read a/../a/b");
	is_int(sysfs_read_str(&r, "other/c", buf, sizeof(buf)), 0, "read outside sys/ (no cache)");
	ok(sysfs_is_dir(&r, "sys/in"), "%s: a directory link inside is a directory", how);
	ok(sysfs_writable(&r, "sys/d/la"), "%s: a file link inside is writable", how);
	is_int(sysfs_list(&r, "sys/in", &l), 0, "list through a link inside");
	is_int((int)l.n, 3, "three entries");
	sysfs_list_free(&l);
	is_int(sysfs_write_str(&r, "sys/d/la", "7\n"), 0, "write through a file link inside");
	is_str(slurp("root/sys/d/a"), "7\n", "the file it names has the value");
	{
		struct stat st;
		char path[256];

		snprintf(path, sizeof(path), "%s/root/sys/d/la", top);
		ok(lstat(path, &st) == 0 && S_ISLNK(st.st_mode), "%s: the link stays a link", how);
	}
	is_int(sysfs_write_str(&r, "sys/d", "1"), -EISDIR, "write to a directory");
	is_int(sysfs_write_str(&r, "sys/d/none", "1"), -ENOENT, "write to a missing file");

	sbuf_init(&msg);
	ok(sysroot_refused(&r, &msg) >= 3, "%s: refusals noted", how);
	ok(msg.len && strstr(msg.s, "/root/sys/abs: symlink leaves the root (EXDEV)\n"),
	   "%s: one line naming the file", how);
	sbuf_reset(&msg);
	is_int((int)sysroot_refused(&r, &msg), 0, "each told once");
	sbuf_free(&msg);
	sysroot_close(&r);
}

/* Writes replace the file; the cache reads the new value even when the
 * round does not change (read a, read b twice, write a, read a). */
static void test_write_cache(void)
{
	struct sysroot r;
	uint64_t v = 0;
	struct stat st1, st2;
	char path[256];

	make_tree();
	snprintf(path, sizeof(path), "%s/root/sys/d/a", top);
	sh("chmod 640 '%s'", path);
	stat(path, &st1);
	if (sysroot_open(&r, "root") != 0) {
		ok(0, "open the root");
		return;
	}
	sysfs_read_u64(&r, "sys/d/a", &v);
	sysfs_read_u64(&r, "sys/d/b", &v);
	sysfs_read_u64(&r, "sys/d/b", &v);
	is_int(sysfs_write_str(&r, "sys/d/a", "5\n"), 0, "write a");
	stat(path, &st2);
	ok(st1.st_ino != st2.st_ino, "a new inode (renamed into place)");
	is_int(st2.st_mode & 07777, 0640, "the mode kept");
	is_int(sysfs_read_u64(&r, "sys/d/a", &v), 0, "read a again");
	is_int((long long)v, 5, "the cache sees the written value");
	/* the same file by another path (a directory link) */
	is_int(sysfs_write_str(&r, "sys/d/a", "6\n"), 0, "write a again");
	is_int(sysfs_read_u64(&r, "sys/in/a", &v), 0, "read it through sys/in");
	is_int((long long)v, 6, "seen through the link too");
	sh("ls -a '%s/root/sys/d' | grep -c tunetop > '%s/count' || true", top, top);
	is_str(slurp("count"), "0\n", "no temporary file left");

	/* leftovers of a killed writer: a dead pid's go, a live one's stay */
	{
		pid_t dead = fork();
		char name[128];

		if (dead == 0)
			_exit(0);
		while (waitpid(dead, NULL, 0) < 0 && errno == EINTR)
			;
		snprintf(name, sizeof(name), "root/sys/d/.a.tunetop-%ld-0", (long)dead);
		put(name, "9\n");
		snprintf(name, sizeof(name), "root/sys/d/.a.tunetop-%ld-0", (long)getppid());
		put(name, "9\n");
		is_int(sysfs_write_cleanup(&r, "sys/d/la"), 1, "one leftover removed");
		is_int(sysfs_write_cleanup(&r, "sys/d/a"), 0, "the live writer's stays");
	}
	sysroot_close(&r);
}

static void test_cap(void)
{
	struct sysroot r;
	char *text = NULL, path[256];
	size_t len = 0;
	struct sbuf msg;

	make_tree();
	sh("truncate -s 300M '%s/root/sys/d/big'", top);
	sh("truncate -s %u '%s/root/sys/d/exact'", TT_READ_MAX, top);
	sh("truncate -s 300M '%s/root/other/big'", top);
	if (sysroot_open(&r, "root") != 0) {
		ok(0, "open the root");
		return;
	}
	is_int(sysfs_read_alloc(&r, "sys/d/big", &text, &len), -EFBIG, "300 MiB (cached path)");
	is_int(sysfs_read_alloc(&r, "other/big", &text, &len), -EFBIG, "300 MiB (plain path)");
	is_int(sysfs_read_alloc(&r, "sys/d/exact", &text, &len), 0, "exactly 16 MiB is read");
	is_int((long long)len, TT_READ_MAX, "all of it");
	free(text);
	/* the read loop itself (a file that does not say its size, like one
	 * in /proc): never more than the cap and two bytes in memory */
	for (int i = 0; i < 2; i++) {
		size_t cap = 4096, got = 0;
		char *b = malloc(cap);
		int fd, e;

		snprintf(path, sizeof(path), "%s/root/%s", top, i ? "other/big" : "sys/d/exact");
		fd = open(path, O_RDONLY);
		e = fd >= 0 ? sysfs_fd_read_all(fd, &b, &cap, &got, TT_READ_MAX, true) : -errno;
		is_int(e, i ? -EFBIG : 0, i ? "loop: 300 MiB is EFBIG" : "loop: 16 MiB is read");
		ok(cap <= TT_READ_MAX + 2, "loop: the buffer stays at the cap (%zu bytes)", cap);
		ok(i ? got == TT_READ_MAX + 1 : got == TT_READ_MAX, "loop: read %zu bytes", got);
		free(b);
		if (fd >= 0)
			close(fd);
	}
	/* a pipe is not a file: refused at once, not read (nor waited on) */
	snprintf(path, sizeof(path), "%s/root/other/fifo", top);
	if (mkfifo(path, 0600) == 0) {
		text = NULL;
		is_int(sysfs_read_alloc(&r, "other/fifo", &text, &len), -SYSFS_ENOTREG,
		       "a FIFO is refused without a wait");
		ok(text == NULL, "nothing read from it");
		is_str(sysfs_why(-SYSFS_ENOTREG), "not a regular file (fifo)",
		       "worded with its kind");
	} else {
		ok(0, "mkfifo");
	}
	sbuf_init(&msg);
	sysroot_refused(&r, &msg);
	ok(msg.len && strstr(msg.s, "/root/other/fifo: not a regular file (fifo)\n"),
	   "one line naming the FIFO");
	ok(msg.len && strstr(msg.s, "/root/sys/d/big: larger than 16 MiB (EFBIG)\n"),
	   "one line naming the big file");
	sbuf_free(&msg);
	sysroot_close(&r);
}

/* The cache's paths are shared strings (issue 14): 16 files in 12
 * directories keep each directory and name once, entries and watches alike;
 * a file read through a directory link is re-opened when it is replaced
 * under its real path; a directory removed and made again is watched
 * again. */
static void test_cache_strings(void)
{
	struct sysroot r;
	struct sysroot_cache_stats st;
	char path[128], buf[32];
	uint64_t v = 0;
	int bad = 0;

	sh("rm -rf '%s/root'", top);
	for (int c = 0; c < 4; c++)
		for (int k = 0; k < 2; k++) {
			sh("mkdir -p '%s/root/sys/devices/cpu%d/state%d'", top, c, k);
			snprintf(path, sizeof(path), "root/sys/devices/cpu%d/state%d/usage", c, k);
			snprintf(buf, sizeof(buf), "%d\n", 10 * c + k);
			put(path, buf);
			snprintf(path, sizeof(path), "root/sys/devices/cpu%d/state%d/time", c, k);
			put(path, buf);
		}
	sh("mkdir -p '%s/root/sys/class' && ln -s ../devices/cpu1 '%s/root/sys/class/x'", top, top);
	if (sysroot_open(&r, "root") != 0) {
		ok(0, "open the root");
		return;
	}
	for (int round = 0; round < 2; round++)
		for (int c = 0; c < 4; c++)
			for (int k = 0; k < 2; k++) {
				snprintf(path, sizeof(path), "sys/devices/cpu%d/state%d/usage", c,
					 k);
				bad += sysfs_read_u64(&r, path, &v) != 0 ||
				       v != (uint64_t)(10 * c + k);
				snprintf(path, sizeof(path), "sys/devices/cpu%d/state%d/time", c,
					 k);
				bad += sysfs_read_u64(&r, path, &v) != 0 ||
				       v != (uint64_t)(10 * c + k);
			}
	is_int(bad, 0, "16 files read twice, each its own value");
	sysroot_cache_stats(&r, &st);
	ok(st.ent_size <= 40, "an entry is at most 40 bytes (%zu)", st.ent_size);
	ok(st.dir_size <= 16, "a directory record is at most 16 bytes (%zu)", st.dir_size);
	is_int((long long)st.entries, 16, "16 entries");
	/* "", sys, sys/devices, 4 cpuN, 8 stateK */
	is_int((long long)st.dirs, 15, "15 directories watched");
	/* with their NULs: "" 1, "sys/" 5, "sys/devices/" 13,
	 * "sys/devices/cpuN/" 4 x 18, "sys/devices/cpuN/stateK/" 8 x 25,
	 * "usage" 6, "time" 5 */
	is_int((long long)st.str_bytes, 1 + 5 + 13 + 4 * 18 + 8 * 25 + 6 + 5,
	       "each directory and name once in the intern table");

	/* through the link: its own path, the real directory already known */
	is_int(sysfs_read_u64(&r, "sys/class/x/state1/usage", &v), 0, "read through a dir link");
	is_int((long long)v, 11, "its value");
	sysroot_cache_stats(&r, &st);
	/* + "sys/class/" 11, "sys/class/x/" 13, "sys/class/x/state1/" 20 */
	is_int((long long)st.str_bytes, 302 + 11 + 13 + 20, "only the link's directories added");
	is_int((long long)st.dirs, 18, "and watched");
	/* replaced under its real path (mv over it): seen through the link */
	put("root/sys/devices/cpu1/state1/.new", "77\n");
	sh("mv '%s/root/sys/devices/cpu1/state1/.new' '%s/root/sys/devices/cpu1/state1/usage'", top,
	   top);
	sysfs_read_u64(&r, "sys/devices/cpu0/state0/usage", &v); /* a new round */
	sysfs_read_u64(&r, "sys/devices/cpu0/state0/usage", &v);
	is_int(sysfs_read_u64(&r, "sys/class/x/state1/usage", &v), 0, "read it again");
	is_int((long long)v, 77, "the replaced file, through the link");
	is_int(sysfs_read_u64(&r, "sys/devices/cpu1/state1/usage", &v), 0, "and by its path");
	is_int((long long)v, 77, "the same value");

	/* a directory removed and made again */
	sh("rm -rf '%s/root/sys/devices/cpu3' && mkdir -p '%s/root/sys/devices/cpu3/state0'", top,
	   top);
	put("root/sys/devices/cpu3/state0/usage", "99\n");
	sysfs_read_u64(&r, "sys/devices/cpu0/state0/usage", &v);
	is_int(sysfs_read_u64(&r, "sys/devices/cpu3/state0/usage", &v), 0,
	       "read in a re-made directory");
	is_int((long long)v, 99, "its new file");
	put("root/sys/devices/cpu3/state0/.new", "98\n");
	sh("mv '%s/root/sys/devices/cpu3/state0/.new' '%s/root/sys/devices/cpu3/state0/usage'", top,
	   top);
	sysfs_read_u64(&r, "sys/devices/cpu0/state0/usage", &v);
	sysfs_read_u64(&r, "sys/devices/cpu0/state0/usage", &v);
	is_int(sysfs_read_u64(&r, "sys/devices/cpu3/state0/usage", &v), 0, "read it once more");
	is_int((long long)v, 98, "watched again: a replacement is seen");
	sysroot_cache_stats(&r, &st);
	is_int((long long)st.dirs, 18, "no directory record twice");
	is_int(sysfs_read_u64(&r, "sys/devices/cpu3/state1/usage", &v), -ENOENT,
	       "a file of the removed directory is gone");
	sysroot_close(&r);
}

int main(void)
{
	snprintf(top, sizeof(top), "/tmp/tt-sysroot.XXXXXX");
	if (!mkdtemp(top) || chdir(top) != 0)
		skip_all("no temporary directory");
	unsetenv("TUNETOP_TEST_NO_OPENAT2");
	check_escapes("openat2");
	setenv("TUNETOP_TEST_NO_OPENAT2", "1", 1);
	check_escapes("walk");
	test_write_cache();
	unsetenv("TUNETOP_TEST_NO_OPENAT2");
	test_write_cache();
	test_cap();
	test_cache_strings();
	sh("rm -rf '%s'", top);
	return done_testing();
}
