/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the journal: field escaping, the record codec with CRC,
 * loading with a torn last line, lock contention, state dir checks,
 * archiving, and keep marks (a run that quit keeping its changes is not
 * orphaned, yet restore reverts it); owners in the records (start time,
 * kind, hand-over) and the stacking of overlapping owners. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "knob/journal.h"
#include "knob/knob.h"
#include "tap.h"

static char tmpdir[256];

static void write_file(const char *path, const char *s, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, s, n) != (ssize_t)n)
		abort();
	close(fd);
}

static void test_escape(void)
{
	const char bin[] = {'a', '\t', 'b', '\n', '\\', 0, 1, (char)0x7f, 'z'};
	struct sbuf b;
	size_t n;
	char *back;

	sbuf_init(&b);
	journal_escape(&b, bin, sizeof(bin));
	is_str(b.s, "a\\tb\\n\\\\\\x00\\x01\\x7fz",
	       "escape tab, newline, backslash, control bytes");
	ok(!strchr(b.s, '\t') && !strchr(b.s, '\n'), "escaped text has no tab or newline");
	back = journal_unescape(b.s, b.len, &n);
	ok(n == sizeof(bin) && !memcmp(back, bin, n), "unescape restores the exact bytes");
	free(back);
	back = journal_unescape("x\\qy\\", 5, &n);
	is_str(back, "x\\qy\\", "unknown escapes and a trailing backslash are kept literally");
	free(back);
	sbuf_free(&b);
}

static void test_codec(void)
{
	struct jrec w = {0}, d;
	struct sbuf b;
	int32_t v = 2000000000;
	char raw[4];

	memcpy(raw, &v, 4);
	w.type = 'W';
	w.seq = 7;
	w.txn = 5;
	w.scoped = true;
	w.time_ns = 1234567890123ull;
	w.pid = 4242;
	w.run = xstrdup("4242-99");
	w.boot = xstrdup("5f3c9e2a-8d41");
	w.root = xstrdup("/tmp/root with\ttab");
	w.addr = xstrdup("cpufreq/policy4/governor");
	w.target = xstrdup("sys/devices/system/cpu/cpufreq/policy4/scaling_governor");
	w.ident = xstrdup("");
	w.old = xstrdup("always [madvise] never");
	w.raw = xmalloc(4);
	memcpy(w.raw, raw, 4);
	w.rawlen = 4;
	w.new_value = xstrdup("performance");
	sbuf_init(&b);
	jrec_encode(&w, &b);
	ok(b.len > 0 && b.s[b.len - 1] == '\n', "encoded record ends with a newline");
	ok(memchr(b.s, '\n', b.len - 1) == NULL, "one line per record");
	is_int(jrec_decode(b.s, b.len - 1, &d), 0, "W record decodes");
	is_int(d.type, 'W', "type");
	is_int(d.seq, 7, "seq");
	is_int(d.txn, 5, "txn");
	ok(d.scoped, "scoped flag");
	is_int(d.pid, 4242, "pid");
	ok(d.time_ns == 1234567890123ull, "time");
	is_str(d.root, w.root, "root with a tab round-trips");
	is_str(d.old, w.old, "old value with brackets and spaces");
	ok(d.rawlen == 4 && !memcmp(d.raw, raw, 4), "binary raw bytes (with NULs) round-trip");
	is_str(d.new_value, "performance", "new value");
	jrec_free(&d);

	/* corruption */
	{
		char *bad = xstrdup(b.s);
		char *p = strstr(bad, "performance");

		p[0] = 'P';
		is_int(jrec_decode(bad, strlen(bad) - 1, &d), -EINVAL,
		       "a flipped byte fails the CRC");
		free(bad);
	}
	is_int(jrec_decode(b.s, b.len / 2, &d), -EINVAL, "a torn (half) line is rejected");
	is_int(jrec_decode("X\tseq=1\tcrc=00000000", 20, &d), -EINVAL,
	       "unknown record type rejected");
	{
		/* a field a newer version added is ignored */
		struct sbuf x;
		char *line;
		const char *tail = strstr(b.s, "\tcrc=");

		sbuf_init(&x);
		sbuf_putn(&x, b.s, (size_t)(tail - b.s));
		sbuf_puts(&x, "\tfuture=field");
		sbuf_printf(&x, "\tcrc=%08x", journal_crc32(x.s, x.len));
		line = x.s;
		is_int(jrec_decode(line, x.len, &d), 0, "unknown keys are ignored");
		jrec_free(&d);
		sbuf_free(&x);
	}
	{
		/* a W record without its old value is corrupt */
		struct sbuf x;

		sbuf_init(&x);
		sbuf_puts(&x, "W\tseq=1\ttxn=1\taddr=a\ttarget=b\tnew=c");
		sbuf_printf(&x, "\tcrc=%08x", journal_crc32(x.s, x.len));
		is_int(jrec_decode(x.s, x.len, &d), -EINVAL, "W without old= is rejected");
		sbuf_free(&x);
	}
	{
		struct jrec c = {.type = 'C', .ref = 7, .time_ns = 1};
		struct sbuf x;

		c.value = xstrdup("2256000");
		sbuf_init(&x);
		jrec_encode(&c, &x);
		is_int(jrec_decode(x.s, x.len - 1, &d), 0, "C record decodes");
		ok(d.ref == 7 && d.seq == 0, "C record refers to its W and has no id of its own");
		is_str(d.value, "2256000", "C carries the value read back");
		jrec_free(&d);
		jrec_free(&c);
		sbuf_free(&x);
	}
	{
		struct jrec k = {.type = 'K', .ref = 12, .time_ns = 5, .pid = 77};
		struct sbuf x;

		k.run = xstrdup("77-3");
		sbuf_init(&x);
		jrec_encode(&k, &x);
		ok(!strncmp(x.s, "K\tref=12\t", 9), "K record: type, then the newest W it covers");
		is_int(jrec_decode(x.s, x.len - 1, &d), 0, "K record decodes");
		ok(d.type == 'K' && d.ref == 12 && d.pid == 77 && d.seq == 0,
		   "K carries ref and pid, no id of its own");
		is_str(d.run, "77-3", "K names the run that kept its changes");
		jrec_free(&d);
		jrec_free(&k);
		sbuf_reset(&x);
		sbuf_puts(&x, "K\tref=3\ttime=1\tpid=2");
		sbuf_printf(&x, "\tcrc=%08x", journal_crc32(x.s, x.len));
		is_int(jrec_decode(x.s, x.len, &d), -EINVAL, "K without run= is rejected");
		sbuf_free(&x);
	}
	{
		/* E: the effect seen after a change (knob.h "effect") */
		struct jrec e = {.type = 'E', .ref = 9, .time_ns = 6};
		struct sbuf x;

		e.value = xstrdup("not_seen");
		e.evidence =
			xstrdup("haltpoll idle (state1) entered 45 times on CPU 1 in 2.0 s\t!");
		sbuf_init(&x);
		jrec_encode(&e, &x);
		ok(!strncmp(x.s, "E\tref=9\t", 8), "E record: type, then the W it judges");
		is_int(jrec_decode(x.s, x.len - 1, &d), 0, "E record decodes");
		ok(d.type == 'E' && d.ref == 9 && d.seq == 0, "E carries ref, no id of its own");
		is_str(d.value, "not_seen", "E: the verdict");
		is_str(d.evidence, "haltpoll idle (state1) entered 45 times on CPU 1 in 2.0 s\t!",
		       "E: the evidence, a tab included, round-trips");
		jrec_free(&d);
		jrec_free(&e);
		sbuf_reset(&x);
		sbuf_puts(&x, "E\ttime=1\tvalue=verified");
		sbuf_printf(&x, "\tcrc=%08x", journal_crc32(x.s, x.len));
		is_int(jrec_decode(x.s, x.len, &d), -EINVAL, "E without ref= is rejected");
		sbuf_free(&x);
	}
	jrec_free(&w);
	sbuf_free(&b);
}

static void test_load_torn(void)
{
	char path[300];
	struct sbuf b;
	struct jrec w = {.type = 'W'}, *r;
	size_t n;
	int torn;
	struct journal j;
	char *cause = NULL;

	snprintf(path, sizeof(path), "%s/journal", tmpdir);
	w.addr = xstrdup("mm/thp");
	w.target = xstrdup("sys/kernel/mm/transparent_hugepage/enabled");
	w.old = xstrdup("madvise");
	w.new_value = xstrdup("never");
	sbuf_init(&b);
	w.seq = w.txn = 1;
	jrec_encode(&w, &b);
	w.seq = w.txn = 2;
	jrec_encode(&w, &b);
	w.seq = w.txn = 3;
	jrec_encode(&w, &b);
	/* the third record is cut in the middle, as by a crash during write() */
	write_file(path, b.s, b.len - 17);
	is_int(journal_load(path, &r, &n, &torn), 0, "torn journal loads");
	is_int(n, 2, "two complete records");
	is_int(torn, 1, "one torn line counted");
	jrec_free_all(r, n);

	journal_init(&j, tmpdir);
	is_int(journal_lock(&j, 100, &cause), 0, "lock a journal with a torn tail");
	is_int(j.next_seq, 3, "numbering continues after the last complete record");
	w.seq = 0;
	is_int(journal_append(&j, &w, true), 0, "append after the torn line");
	is_int(w.seq, 3, "new record gets id 3");
	journal_unlock(&j);
	is_int(journal_load(path, &r, &n, &torn), 0, "reload");
	is_int(n, 3, "three records, the torn tail was cut");
	is_int(torn, 0, "no torn lines left");
	jrec_free_all(r, n);

	/* archive: move record 1 away, numbering survives compaction */
	is_int(journal_lock(&j, 100, &cause), 0, "lock again");
	{
		bool move[3] = {true, false, false};

		is_int(journal_load(path, &r, &n, NULL), 0, "load for archiving");
		is_int(journal_archive(&j, r, n, move), 0, "archive one record");
		jrec_free_all(r, n);
	}
	w.seq = 0;
	journal_append(&j, &w, true);
	is_int(w.seq, 4, "ids keep counting after compaction");
	journal_unlock(&j);
	is_int(journal_load(j.archive, &r, &n, NULL), 0, "archive loads");
	ok(n == 1 && r[0].seq == 1, "archive holds record 1");
	jrec_free_all(r, n);
	journal_fini(&j);
	free(cause);
	jrec_free(&w);
	sbuf_free(&b);
}

/* kill -9 between the append to journal.archive and the rename of the
 * shortened journal: the next run archives the same records again, and the
 * archive must not hold them twice (whole or torn by the kill). */
static size_t archived(const char *path, int *torn)
{
	struct jrec *r;
	size_t n;

	if (journal_load(path, &r, &n, torn) != 0)
		return (size_t)-1;
	jrec_free_all(r, n);
	return n;
}

static void archive_again(struct journal *j, const char *path, const char *text, size_t len)
{
	struct jrec *r;
	size_t n;
	char *cause = NULL;
	bool move[3] = {true, true, false};

	write_file(path, text, len); /* the journal as the killed run left it */
	if (journal_lock(j, 100, &cause) != 0 || journal_load(path, &r, &n, NULL) != 0 || n != 3) {
		ok(0, "journal as before the archiving: %s", cause ? cause : "3 records");
		free(cause);
		journal_unlock(j);
		return;
	}
	is_int(journal_archive(j, r, n, move), 0, "archive two records again");
	jrec_free_all(r, n);
	journal_unlock(j);
	free(cause);
}

static void test_archive_replay(void)
{
	char dir[300], path[320], apath[340];
	struct jrec w = {.type = 'W'};
	struct journal j;
	struct sbuf b;
	int torn;

	snprintf(dir, sizeof(dir), "%s/replay", tmpdir);
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/journal", dir);
	snprintf(apath, sizeof(apath), "%s/journal.archive", dir);
	w.addr = xstrdup("mm/thp");
	w.target = xstrdup("sys/kernel/mm/transparent_hugepage/enabled");
	w.old = xstrdup("madvise");
	w.new_value = xstrdup("never");
	w.boot = xstrdup("old-boot");
	sbuf_init(&b);
	for (uint64_t i = 1; i <= 3; i++) {
		w.seq = w.txn = i;
		jrec_encode(&w, &b);
	}
	journal_init(&j, dir);
	archive_again(&j, path, b.s, b.len);
	is_int(archived(apath, NULL), 2, "first archiving: 2 records in the archive");
	archive_again(&j, path, b.s, b.len);
	is_int(archived(apath, &torn), 2, "killed before the rename, archived again: still 2");
	{ /* the kill tore the archive's append in the second line */
		struct stat st;

		if (stat(apath, &st) == 0 && truncate(apath, st.st_size - 10) == 0) {
			archive_again(&j, path, b.s, b.len);
			is_int(archived(apath, &torn), 2, "torn append, archived again: 2 records");
			is_int(torn, 0, "and no torn line");
		} else {
			ok(0, "truncate %s", apath);
		}
	}
	/* an archive that ends in a line of something else: ours still load */
	write_file(apath, "garbage without newline", 23);
	archive_again(&j, path, b.s, b.len);
	is_int(archived(apath, &torn), 2, "after a foreign torn line: both records load");
	is_int(torn, 1, "the foreign line is the one torn line");
	journal_fini(&j);
	jrec_free(&w);
	sbuf_free(&b);
}

/* A journal whose tail (last 256 KiB) has no W record: the id still comes
 * from the last W further up; a torn line at the end of a big file is cut. */
static void test_big_tail(void)
{
	char dir[300], path[400];
	struct sbuf b;
	struct jrec w = {.type = 'W'}, c = {.type = 'C'};
	struct journal j;
	struct jrec *r;
	size_t n;
	int torn;

	snprintf(dir, sizeof(dir), "%s/big", tmpdir);
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/journal", dir);
	w.addr = xstrdup("mm/thp");
	w.target = xstrdup("t");
	w.old = xstrdup("a");
	w.new_value = xstrdup("b");
	c.value = xstrdup("b");
	sbuf_init(&b);
	w.seq = w.txn = 41;
	jrec_encode(&w, &b);
	c.ref = 41;
	while (b.len < 400 * 1024)
		jrec_encode(&c, &b);
	sbuf_puts(&b, "U\tref=41\ttime=1\tval"); /* torn */
	write_file(path, b.s, b.len);
	journal_init(&j, dir);
	is_int(journal_lock(&j, 100, NULL), 0, "lock a 400 KiB journal");
	is_int(j.next_seq, 42, "next id found beyond the tail window");
	journal_unlock(&j);
	is_int(journal_load(path, &r, &n, &torn), 0, "reload");
	is_int(torn, 0, "torn tail of the big file was cut");
	ok(n > 1000 && r[0].seq == 41, "all records still there");
	jrec_free_all(r, n);
	journal_fini(&j);
	jrec_free(&w);
	jrec_free(&c);
	sbuf_free(&b);
}

static void test_lock(void)
{
	struct journal j;
	char *cause = NULL;
	char lockp[300];
	int p[2];
	pid_t child;
	char c;

	snprintf(lockp, sizeof(lockp), "%s/journal.lock", tmpdir);
	journal_init(&j, tmpdir);
	if (pipe(p) != 0)
		abort();
	child = fork();
	if (child == 0) {
		struct journal k;

		journal_init(&k, tmpdir);
		if (journal_lock(&k, 1000, NULL) != 0)
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	if (read(p[0], &c, 1) != 1)
		abort();
	is_int(journal_lock(&j, 150, &cause), -EWOULDBLOCK,
	       "second writer gives up after the timeout");
	{
		char want[64];

		snprintf(want, sizeof(want), "journal locked by pid %d", (int)child);
		ok(cause && strstr(cause, want), "message names the pid holding the lock");
		if (cause)
			printf("# %s\n", cause);
	}
	free(cause);
	cause = NULL;
	kill(child, SIGTERM);
	waitpid(child, NULL, 0);
	is_int(journal_lock(&j, 150, &cause), 0, "lock is free once the holder is gone");
	journal_fini(&j);
	close(p[0]);
	close(p[1]);
}

static void test_state_dir(void)
{
	char d[300], l[300], f[300];
	char *cause = NULL;
	struct stat st;

	snprintf(d, sizeof(d), "%s/state/sub", tmpdir);
	is_int(journal_dir_check(d, true, &cause), 0, "missing state dir is created");
	ok(stat(d, &st) == 0 && (st.st_mode & 07777) == 0700, "with mode 0700");
	chmod(d, 0777);
	is_int(journal_dir_check(d, true, &cause), -EPERM, "mode 0777 refused");
	ok(cause && strstr(cause, "writable by others"), "says it is writable by others");
	free(cause);
	cause = NULL;
	chmod(d, 0700);
	snprintf(l, sizeof(l), "%s/state/link", tmpdir);
	if (symlink(d, l) != 0)
		abort();
	is_int(journal_dir_check(l, true, &cause), -ELOOP, "symlink refused");
	ok(cause && strstr(cause, "symlink"), "says it is a symlink");
	free(cause);
	cause = NULL;
	snprintf(f, sizeof(f), "%s/state/file", tmpdir);
	write_file(f, "x", 1);
	is_int(journal_dir_check(f, true, &cause), -ENOTDIR, "a file is refused");
	free(cause);
	cause = NULL;
	{
		char *out = NULL;

		setenv("TUNETOP_STATE_DIR", "/x/env", 1);
		is_int(journal_dir_pick("/x/opt", &out, NULL), 0, "pick --state-dir");
		is_str(out, "/x/opt", "--state-dir wins");
		free(out);
		is_int(journal_dir_pick(NULL, &out, NULL), 0, "pick env");
		is_str(out, "/x/env", "then $TUNETOP_STATE_DIR");
		free(out);
		unsetenv("TUNETOP_STATE_DIR");
		setenv("XDG_RUNTIME_DIR", "/x/xdg", 1);
		is_int(journal_dir_pick(NULL, &out, NULL), 0, "pick default");
		is_str(out, geteuid() == 0 ? "/run/tunetop" : "/x/xdg/tunetop",
		       "then /run/tunetop for root, $XDG_RUNTIME_DIR/tunetop otherwise");
		free(out);
	}
}

/* One run per child process, as the TUI runs: a scoped change, then either
 * a keep mark (quit with "keep") or nothing (a crash). */
static void run_child(const char *root_path, const char *state, const char *assign, bool keep)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct sysroot r;
		struct knob_ctx *c = NULL;
		char *cause = NULL;
		size_t nk = 0;

		if (sysroot_open(&r, root_path) != 0 ||
		    knob_ctx_open(&c, &r, state, KNOB_HOLD_LOCK, &cause) != 0 ||
		    knob_set_many(c, &assign, NULL, 1, KNOB_SCOPED, NULL, &cause) != 0)
			_exit(1);
		if (keep && (knob_keep_run(c, NULL, &nk, &cause) != 0 || nk != 1))
			_exit(2);
		knob_ctx_close(c);
		_exit(0);
	}
	{
		int st = -1;

		waitpid(pid, &st, 0);
		is_int(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0,
		       keep ? "child run: change, keep, exit" : "child run: change, die");
	}
}

/* A keep mark goes to the archive with its run's entries of an earlier boot. */
static void test_keep_archive(const char *root_path)
{
	char state[300], path[400];
	struct jrec w = {.type = 'W', .seq = 1, .txn = 1, .pid = 5},
		    k = {.type = 'K', .ref = 1, .pid = 5};
	struct jrec *recs = NULL;
	struct sbuf b;
	struct sysroot r;
	struct knob_ctx *c = NULL;
	char *cause = NULL;
	size_t n = 0, nk = 0, nw = 0;
	char run[] = "5-77", boot[] = "an-earlier-boot", addr[] = "mm/thp", old[] = "madvise",
	     new_value[] = "never", target[] = "sys/kernel/mm/transparent_hugepage/enabled",
	     rootbuf[300];

	snprintf(state, sizeof(state), "%s/archstate", tmpdir);
	mkdir(state, 0700);
	str_copy(rootbuf, sizeof(rootbuf), root_path);
	w.run = k.run = run;
	w.boot = boot;
	w.root = rootbuf;
	w.addr = addr;
	w.target = target;
	w.old = old;
	w.new_value = new_value;
	sbuf_init(&b);
	jrec_encode(&w, &b);
	jrec_encode(&k, &b);
	snprintf(path, sizeof(path), "%s/journal", state);
	write_file(path, b.s, b.len);
	sbuf_free(&b);
	if (sysroot_open(&r, root_path) != 0 ||
	    knob_ctx_open(&c, &r, state, KNOB_HOLD_LOCK, &cause) != 0) {
		ok(0, "open the archive test journal");
		return;
	}
	/* any write operation archives entries of another boot first */
	is_int(knob_keep_run(c, NULL, NULL, &cause), 0, "a write operation on the journal");
	is_int(journal_load(path, &recs, &n, NULL), 0, "load the journal");
	for (size_t i = 0; i < n; i++) {
		nk += recs[i].type == 'K';
		nw += recs[i].type == 'W';
	}
	ok(nw == 0 && nk == 0, "the other boot's entry and its keep mark left the journal");
	jrec_free_all(recs, n);
	snprintf(path, sizeof(path), "%s/journal.archive", state);
	is_int(journal_load(path, &recs, &n, NULL), 0, "load the archive");
	ok(n == 2 && recs[0].type == 'W' && recs[1].type == 'K', "both are in the archive");
	jrec_free_all(recs, n);
	knob_ctx_close(c);
	sysroot_close(&r);
	free(cause);
}

static void test_keep(void)
{
	char root_path[300], state[300], cmd[900], buf[64];
	const char *gov = "sys/devices/system/cpu/cpufreq/policy0/scaling_governor";
	struct sysroot r;
	struct knob_ctx *c = NULL;
	struct knob_jentry *e = NULL;
	struct jrec *recs = NULL;
	size_t n = 0, nk = 9, kept = 0, orphaned = 0, nrec = 0;
	char *cause = NULL;
	struct sbuf rep;

	snprintf(root_path, sizeof(root_path), "%s/root", tmpdir);
	snprintf(state, sizeof(state), "%s/keepstate", tmpdir);
	snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s'", fixture("rk3588"), root_path);
	if (system(cmd) != 0 || sysroot_open(&r, root_path) != 0) {
		ok(0, "copy rk3588");
		return;
	}
	run_child(root_path, state, "cpufreq/policy0/governor=performance", true);
	run_child(root_path, state, "mm/thp=never", false);
	is_int(knob_ctx_open(&c, &r, state, KNOB_HOLD_LOCK, &cause), 0, "open the journal");
	is_int(knob_journal_list(c, &e, &n, NULL, &cause), 0, "list");
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(e[i].addr, "cpufreq/policy0/governor")) {
			ok(e[i].kept && !e[i].orphaned && e[i].scoped && !e[i].alive &&
				   e[i].state == KNOB_J_ACTIVE,
			   "kept on quit: active, kept, not orphaned");
			kept++;
		}
		if (!strcmp(e[i].addr, "mm/thp")) {
			ok(!e[i].kept && e[i].orphaned, "crashed run: orphaned, not kept");
			orphaned++;
		}
	}
	ok(kept == 1 && orphaned == 1, "both entries listed");
	knob_journal_free(e, n);
	is_int(knob_keep_run(c, "424242-1", &nk, &cause), 0, "keep of a run with no changes");
	is_int(nk, 0, "marks nothing");
	{
		size_t k = 0;

		snprintf(cmd, sizeof(cmd), "%s/journal", state);
		is_int(journal_load(cmd, &recs, &nrec, NULL), 0, "load the file");
		for (size_t i = 0; i < nrec; i++)
			k += recs[i].type == 'K';
		is_int(k, 1, "one K record in the file (none written when nothing to keep)");
		jrec_free_all(recs, nrec);
	}
	sbuf_init(&rep);
	is_int(knob_restore_all(c, 0, &rep, &cause), 0, "restore reverts kept and orphaned");
	sysfs_read_str(&r, gov, buf, sizeof(buf));
	is_str(buf, "interactive", "kept governor back");
	is_int(knob_journal_list(c, &e, &n, NULL, &cause), 0, "list again");
	for (size_t i = 0; i < n; i++)
		ok(e[i].state == KNOB_J_UNDONE && !e[i].kept && !e[i].orphaned,
		   "undone entries are neither kept nor orphaned");
	knob_journal_free(e, n);
	knob_ctx_close(c);
	sysroot_close(&r);
	sbuf_free(&rep);
	free(cause);
	snprintf(cmd, sizeof(cmd), "diff -r --no-dereference '%s' '%s' >/dev/null",
		 fixture("rk3588"), root_path);
	is_int(system(cmd), 0, "tree byte for byte like the fixture");
	test_keep_archive(root_path);
}

/* Owner fields: W and U carry start and kind, U the heir (to); a journal
 * written before owners (no start, no kind) still reads, start from run. */
static void test_owner_codec(void)
{
	char run[] = "4242-987", boot[] = "b00t", rootp[] = "/r", addr[] = "mm/thp",
	     target[] = "sys/kernel/mm/transparent_hugepage/enabled", old[] = "madvise",
	     new_value[] = "never", kind[] = "exec", how[] = "handed over";
	struct jrec w = {.type = 'W', .seq = 3, .txn = 3, .pid = 4242, .start = 987, .kind = kind},
		    u = {.type = 'U', .ref = 3, .to = 5, .pid = 77, .start = 12, .kind = kind}, d;
	struct sbuf b;

	w.run = run;
	w.boot = boot;
	w.root = rootp;
	w.addr = addr;
	w.target = target;
	w.old = old;
	w.new_value = new_value;
	u.run = run;
	u.value = how;
	sbuf_init(&b);
	jrec_encode(&w, &b);
	ok(strstr(b.s, "\tpid=4242\tstart=987\tkind=exec\trun=4242-987\t") != NULL,
	   "W: pid, start, kind, run");
	is_int(jrec_decode(b.s, b.len - 1, &d), 0, "W with an owner decodes");
	ok(d.start == 987 && d.kind && !strcmp(d.kind, "exec") && d.pid == 4242,
	   "W: the owner round-trips");
	jrec_free(&d);
	sbuf_reset(&b);
	jrec_encode(&u, &b);
	is_int(jrec_decode(b.s, b.len - 1, &d), 0, "U with a hand-over decodes");
	ok(d.to == 5 && d.start == 12 && d.kind && !strcmp(d.kind, "exec") &&
		   !strcmp(d.value, "handed over"),
	   "U: heir, start, kind, how");
	jrec_free(&d);
	/* the old format: what an older tunetop wrote (no start=, no kind=) */
	w.start = 0;
	w.kind = NULL;
	sbuf_reset(&b);
	jrec_encode(&w, &b);
	ok(!strstr(b.s, "start=") && !strstr(b.s, "kind="), "an old-format W line");
	is_int(jrec_decode(b.s, b.len - 1, &d), 0, "old-format W decodes");
	ok(d.start == 987 && !d.kind, "old W: start from run, no kind");
	jrec_free(&d);
	sbuf_free(&b);
}

/* The governor file of policy0 of a root. */
static void gov_is(struct sysroot *r, const char *want, const char *what)
{
	char buf[64] = "";

	sysfs_read_str(r, "sys/devices/system/cpu/cpufreq/policy0/scaling_governor", buf,
		       sizeof(buf));
	is_str(buf, want, what);
}

/* The run id of the entry writing value v. */
static void run_of(struct knob_ctx *c, const char *v, char *run, size_t cap, uint64_t *id)
{
	struct knob_jentry *e = NULL;
	size_t n = 0;
	char *cause = NULL;

	run[0] = '\0';
	if (knob_journal_list(c, &e, &n, NULL, &cause) == 0)
		for (size_t i = 0; i < n; i++)
			if (!strcmp(e[i].new_value, v)) {
				str_copy(run, cap, e[i].run);
				*id = e[i].id;
			}
	knob_journal_free(e, n);
	free(cause);
}

/* Stacking: three owners (children that die: their runs are orphaned) change
 * one knob; they leave B, A, C: the knob keeps the newest remaining value,
 * the newest entry inherits the true original, the last one out puts it back. */
static void test_stack(void)
{
	char root_path[300], state[300], cmd[900], ra[64], rb[64], rc[64], owners[128];
	struct sysroot r;
	struct knob_ctx *c = NULL;
	struct knob_jentry *e = NULL;
	size_t n = 0, nch = 0, nown = 0;
	uint64_t ida = 0, idb = 0, idc = 0;
	char *cause = NULL;
	struct sbuf rep;

	snprintf(root_path, sizeof(root_path), "%s/stackroot", tmpdir);
	snprintf(state, sizeof(state), "%s/stackstate", tmpdir);
	snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s'", fixture("rk3588"), root_path);
	if (system(cmd) != 0 || sysroot_open(&r, root_path) != 0) {
		ok(0, "copy rk3588");
		return;
	}
	run_child(root_path, state, "cpufreq/policy0/governor=performance", false);
	run_child(root_path, state, "cpufreq/policy0/governor=powersave", false);
	run_child(root_path, state, "cpufreq/policy0/governor=schedutil", false);
	is_int(knob_ctx_open(&c, &r, state, 0, &cause), 0, "open the journal");
	run_of(c, "performance", ra, sizeof(ra), &ida);
	run_of(c, "powersave", rb, sizeof(rb), &idb);
	run_of(c, "schedutil", rc, sizeof(rc), &idc);
	ok(ra[0] && rb[0] && rc[0] && strcmp(ra, rb) && strcmp(rb, rc), "three owners");
	is_int(knob_orphans(c, &nch, &nown, owners, sizeof(owners)), 0, "orphans counted");
	ok(nch == 3 && nown == 3 && strstr(owners, "pid ") && strstr(owners, "; "),
	   "three orphaned changes of three owners");
	sbuf_init(&rep);
	is_int(knob_restore_run(c, rb, 0, &rep, &cause), 0, "B leaves (middle)");
	gov_is(&r, "schedutil", "the knob stays at C's value");
	ok(rep.s && strstr(rep.s, "left at schedutil, held by change"), "says it handed over");
	is_int(knob_journal_list(c, &e, &n, NULL, &cause), 0, "list");
	for (size_t i = 0; i < n; i++)
		if (e[i].id == idc)
			ok(!strcmp(e[i].old, "performance") && e[i].inherited_from == idb &&
				   !strcmp(e[i].recorded_old, "powersave"),
			   "C inherits B's original (A's value)");
	knob_journal_free(e, n);
	is_int(knob_restore_run(c, ra, 0, &rep, &cause), 0, "A leaves (oldest)");
	gov_is(&r, "schedutil", "the knob still stays at C's value");
	is_int(knob_journal_list(c, &e, &n, NULL, &cause), 0, "list");
	for (size_t i = 0; i < n; i++)
		if (e[i].id == idc)
			ok(!strcmp(e[i].old, "interactive") && e[i].inherited_from == ida,
			   "C inherits the true original through A");
	knob_journal_free(e, n);
	is_int(knob_restore_run(c, rc, 0, &rep, &cause), 0, "C leaves last");
	gov_is(&r, "interactive", "the last one out puts the original back");
	snprintf(cmd, sizeof(cmd), "diff -r --no-dereference '%s' '%s' >/dev/null",
		 fixture("rk3588"), root_path);
	is_int(system(cmd), 0, "tree byte for byte like the fixture");
	/* orphans of two owners on one knob: restore --orphans clears both */
	run_child(root_path, state, "cpufreq/policy0/governor=performance", false);
	run_child(root_path, state, "cpufreq/policy0/governor=powersave", false);
	is_int(knob_restore_orphans(c, 0, &rep, &cause), 0, "restore the orphans");
	gov_is(&r, "interactive", "both orphans restored");
	is_int(knob_orphans(c, &nch, &nown, owners, sizeof(owners)), 0, "orphans counted");
	ok(nch == 0 && nown == 0 && !owners[0], "none left");
	is_int(system(cmd), 0, "tree byte for byte like the fixture again");
	knob_ctx_close(c);
	sysroot_close(&r);
	sbuf_free(&rep);
	free(cause);
}

int main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "%s/tt-journal.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpdir))
		abort();
	test_escape();
	test_codec();
	test_load_torn();
	test_archive_replay();
	test_big_tail();
	test_lock();
	test_state_dir();
	test_keep();
	test_owner_codec();
	test_stack();
	{
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", tmpdir);
	}
	return done_testing();
}
