/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The journal file: state dir selection and checks, the writer lock, the
 * line codec with CRC, durable appends, loading (tolerant of a torn last
 * line) and archiving. The state dir is tunetop's own directory, not a
 * system file under the root, so this file opens its files through
 * sysfs/userfile.h (non-blocking, regular files only, no symlinks) and uses
 * flock()/fsync() directly (sysroot is for /sys and /proc). */
#include "knob/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "sysfs/userfile.h"

/* ---- state dir ------------------------------------------------------------ */

/* "dir/", "dir//" and "dir/." name dir itself, but lstat() on them follows
 * a symlink dir: cut them so that the checks see the last component. */
static char *journal_dir_clean(const char *dir)
{
	char *d = xstrdup(dir);
	size_t n = strlen(d);

	for (;;) {
		if (n > 1 && d[n - 1] == '/')
			d[--n] = '\0';
		else if (n > 2 && d[n - 1] == '.' && d[n - 2] == '/')
			d[n -= 2] = '\0';
		else if (n == 2 && d[0] == '.' && d[1] == '/')
			d[--n] = '\0';
		else
			break;
	}
	return d;
}

int journal_dir_pick(const char *opt, char **out, char **cause)
{
	const char *env = getenv("TUNETOP_STATE_DIR");
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (opt && *opt) {
		*out = journal_dir_clean(opt);
		return 0;
	}
	if (env && *env) {
		*out = journal_dir_clean(env);
		return 0;
	}
	if (geteuid() == 0) {
		*out = xstrdup("/run/tunetop");
		return 0;
	}
	if (xdg && *xdg) {
		*out = xasprintf("%s/tunetop", xdg);
		return 0;
	}
	if (cause)
		*cause = xstrdup("no state dir for the undo journal: XDG_RUNTIME_DIR is not set; "
				 "use --state-dir DIR or TUNETOP_STATE_DIR");
	return -ENOENT;
}

static int mkdir_parents(const char *dir)
{
	char *p = xstrdup(dir);
	int e = 0;

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST) {
			e = -errno;
			break;
		}
		*s = '/';
	}
	free(p);
	return e;
}

static int dir_check(const char *dir, bool create, char **cause)
{
	struct stat st;

	if (lstat(dir, &st) != 0) {
		int e = -errno;

		if (e != -ENOENT || !create) {
			if (cause)
				*cause = xasprintf("state dir %s: %s", dir, strerror(-e));
			return e;
		}
		mkdir_parents(dir);
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			e = -errno;
			if (cause)
				*cause = xasprintf("cannot create state dir %s: %s", dir,
						   strerror(-e));
			return e;
		}
		if (lstat(dir, &st) != 0) {
			e = -errno;
			if (cause)
				*cause = xasprintf("state dir %s: %s", dir, strerror(-e));
			return e;
		}
	}
	if (S_ISLNK(st.st_mode)) {
		if (cause)
			*cause = xasprintf("state dir %s is a symlink; refusing to keep the undo "
					   "journal there",
					   dir);
		return -ELOOP;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (cause)
			*cause = xasprintf("state dir %s is not a directory", dir);
		return -ENOTDIR;
	}
	if (st.st_uid != geteuid()) {
		if (cause)
			*cause = xasprintf("state dir %s is owned by uid %u, not by us (uid %u); "
					   "refusing",
					   dir, (unsigned)st.st_uid, (unsigned)geteuid());
		return -EPERM;
	}
	if (st.st_mode & 022) {
		if (cause)
			*cause = xasprintf("state dir %s is writable by others (mode %04o); "
					   "refusing (it must be 0700)",
					   dir, (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

int journal_dir_check(const char *given, bool create, char **cause)
{
	char *dir = journal_dir_clean(given);
	int e = dir_check(dir, create, cause);

	free(dir);
	return e;
}

int journal_files_check(const char *dir, char **cause)
{
	static const char *const names[] = {"journal", "journal.lock", "journal.archive",
					    "journal.tmp"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);
		struct stat st;
		int e = 0;

		if (lstat(p, &st) != 0) {
			if (errno != ENOENT)
				e = -errno;
		} else if (S_ISLNK(st.st_mode)) {
			e = -ELOOP;
		} else if (!S_ISREG(st.st_mode)) {
			e = -EINVAL;
		} else if (st.st_nlink > 1) {
			e = -EMLINK; /* another name for it may be outside the state dir */
		} else if (i == 0 && (uint64_t)st.st_size > USERFILE_MAX_JOURNAL) {
			e = -EFBIG;
		}
		if (e && cause)
			*cause = e == -ELOOP ? xasprintf("%s: a symlink; refusing to use it", p)
				 : e == -EMLINK
					 ? xasprintf("%s: has %lu hard links; refusing to use it "
						     "(it must be a file of its own)",
						     p, (unsigned long)st.st_nlink)
					 : xasprintf("%s: %s", p,
						     userfile_strerror(e, USERFILE_MAX_JOURNAL));
		free(p);
		if (e)
			return e;
	}
	return 0;
}

/* ---- codec ---------------------------------------------------------------- */

uint32_t journal_crc32(const void *buf, size_t len)
{
	static uint32_t table[256];
	static int init;
	const unsigned char *p = buf;
	uint32_t c = 0xffffffffu;

	if (!init) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t k = i;

			for (int b = 0; b < 8; b++)
				k = (k & 1) ? 0xedb88320u ^ (k >> 1) : k >> 1;
			table[i] = k;
		}
		init = 1;
	}
	for (size_t i = 0; i < len; i++)
		c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

void journal_escape(struct sbuf *b, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '\\': sbuf_puts(b, "\\\\"); break;
		case '\t': sbuf_puts(b, "\\t"); break;
		case '\n': sbuf_puts(b, "\\n"); break;
		case '\r': sbuf_puts(b, "\\r"); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};

				sbuf_putn(b, e, 4);
			} else {
				sbuf_putc(b, (char)c);
			}
		}
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *journal_unescape(const char *s, size_t len, size_t *outlen)
{
	char *o = xmalloc(len + 1);
	size_t k = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] != '\\' || i + 1 >= len) {
			o[k++] = s[i];
			continue;
		}
		i++;
		switch (s[i]) {
		case '\\': o[k++] = '\\'; break;
		case 't': o[k++] = '\t'; break;
		case 'n': o[k++] = '\n'; break;
		case 'r': o[k++] = '\r'; break;
		case 'x':
			if (i + 2 < len && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
				o[k++] = (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
				i += 2;
				break;
			}
			o[k++] = '\\'; /* not an escape: kept as written */
			o[k++] = s[i];
			break;
		default: o[k++] = '\\'; o[k++] = s[i];
		}
	}
	o[k] = '\0';
	if (outlen)
		*outlen = k;
	return o;
}

static void put_str(struct sbuf *b, const char *key, const char *v)
{
	if (!v)
		return;
	sbuf_printf(b, "\t%s=", key);
	journal_escape(b, v, strlen(v));
}

static void put_u64(struct sbuf *b, const char *key, uint64_t v)
{
	sbuf_printf(b, "\t%s=%llu", key, (unsigned long long)v);
}

/* Who wrote a W, U or K record and when (design §6 "Owners"). */
static void put_owner(struct sbuf *out, const struct jrec *r)
{
	put_u64(out, "time", r->time_ns);
	put_u64(out, "pid", (uint64_t)r->pid);
	if (r->start)
		put_u64(out, "start", r->start);
	put_str(out, "kind", r->kind);
	put_str(out, "run", r->run);
}

void jrec_encode(const struct jrec *r, struct sbuf *out)
{
	size_t start = out->len;
	uint32_t crc;

	sbuf_putc(out, r->type);
	if (r->type == 'W' || r->type == 'S')
		put_u64(out, "seq", r->seq);
	switch (r->type) {
	case 'W':
		put_u64(out, "txn", r->txn);
		if (r->scoped)
			put_u64(out, "scoped", 1);
		put_owner(out, r);
		put_str(out, "boot", r->boot);
		put_str(out, "root", r->root);
		put_str(out, "addr", r->addr);
		put_str(out, "target", r->target);
		put_str(out, "ident", r->ident ? r->ident : "");
		put_str(out, "old", r->old);
		if (r->raw) {
			sbuf_puts(out, "\traw=");
			journal_escape(out, r->raw, r->rawlen);
		}
		put_str(out, "new", r->new_value);
		break;
	case 'U':
	case 'K':
		put_u64(out, "ref", r->ref);
		put_owner(out, r);
		put_str(out, "value", r->value);
		if (r->to)
			put_u64(out, "to", r->to);
		break;
	case 'C':
	case 'A':
		put_u64(out, "ref", r->ref);
		put_u64(out, "time", r->time_ns);
		put_str(out, "value", r->value);
		break;
	case 'E':
		put_u64(out, "ref", r->ref);
		put_u64(out, "time", r->time_ns);
		put_str(out, "value", r->value);
		put_str(out, "evidence", r->evidence ? r->evidence : "");
		break;
	default: break;
	}
	crc = journal_crc32(out->s + start, out->len - start);
	sbuf_printf(out, "\tcrc=%08x\n", crc);
}

static int field_u64(const char *v, size_t n, uint64_t *out)
{
	char tmp[32];

	if (n == 0 || n >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, v, n);
	tmp[n] = '\0';
	return str_to_u64(tmp, out);
}

/* The number and text fields of a record line: key, member, and the bit it
 * sets in jrec_decode()'s `seen` (the fields some types require; 0: none).
 * scoped, pid and raw are decoded on their own. */
static const struct jfield {
	const char *key;
	size_t off;
	unsigned seen;
	bool str; /* a text field (else a number) */
} jfields[] = {
	{"seq", offsetof(struct jrec, seq), 1, false},
	{"txn", offsetof(struct jrec, txn), 0, false},
	{"ref", offsetof(struct jrec, ref), 2, false},
	{"time", offsetof(struct jrec, time_ns), 0, false},
	{"start", offsetof(struct jrec, start), 0, false},
	{"to", offsetof(struct jrec, to), 0, false},
	{"kind", offsetof(struct jrec, kind), 0, true},
	{"run", offsetof(struct jrec, run), 0, true},
	{"boot", offsetof(struct jrec, boot), 0, true},
	{"root", offsetof(struct jrec, root), 0, true},
	{"addr", offsetof(struct jrec, addr), 4, true},
	{"target", offsetof(struct jrec, target), 8, true},
	{"ident", offsetof(struct jrec, ident), 0, true},
	{"old", offsetof(struct jrec, old), 16, true},
	{"new", offsetof(struct jrec, new_value), 32, true},
	{"value", offsetof(struct jrec, value), 0, true},
	{"evidence", offsetof(struct jrec, evidence), 0, true},
};

/* The member of r that the text field f names. */
static char **jfield_str(struct jrec *r, const struct jfield *f)
{
	return (char **)((char *)r + f->off);
}

static const struct jfield *jfield_find(const char *key, size_t kl)
{
	for (size_t i = 0; i < sizeof(jfields) / sizeof(jfields[0]); i++)
		if (strlen(jfields[i].key) == kl && !memcmp(jfields[i].key, key, kl))
			return &jfields[i];
	return NULL;
}

int jrec_decode(const char *line, size_t len, struct jrec *r)
{
	const char *crcf;
	size_t body;
	uint64_t crc;
	unsigned seen = 0;
	const char *p, *end = line + len;

	memset(r, 0, sizeof(*r));
	if (len < 3 || !line[0] || !strchr("WCAUKES", line[0]) || line[1] != '\t')
		return -EINVAL;
	/* the CRC field is last */
	crcf = NULL;
	for (const char *q = end; q > line; q--) {
		if (q[-1] == '\t') {
			crcf = q;
			break;
		}
	}
	if (!crcf || end - crcf != 12 || strncmp(crcf, "crc=", 4) != 0)
		return -EINVAL;
	body = (size_t)(crcf - 1 - line);
	{
		char hex[9];

		memcpy(hex, crcf + 4, 8);
		hex[8] = '\0';
		if (str_to_hex_u64(hex, &crc) != 0 || crc != journal_crc32(line, body))
			return -EINVAL;
	}
	r->type = line[0];
	p = line + 2;
	end = line + body;
	while (p < end) {
		const char *tab = memchr(p, '\t', (size_t)(end - p));
		const char *fe = tab ? tab : end;
		const char *eq = memchr(p, '=', (size_t)(fe - p));
		size_t kl, vl;
		const char *v;
		const struct jfield *f;

		if (!eq)
			goto bad;
		kl = (size_t)(eq - p);
		v = eq + 1;
		vl = (size_t)(fe - v);
#define KEY(k) (kl == sizeof(k) - 1 && memcmp(p, k, kl) == 0)
		f = jfield_find(p, kl);
		if (f && f->str) {
			char **sp = jfield_str(r, f);

			free(*sp);
			*sp = journal_unescape(v, vl, NULL);
		} else if (f) {
			if (field_u64(v, vl, (uint64_t *)((char *)r + f->off)))
				goto bad;
		} else if (KEY("scoped")) {
			r->scoped = vl == 1 && v[0] == '1';
		} else if (KEY("pid")) {
			uint64_t pid;

			if (field_u64(v, vl, &pid))
				goto bad;
			r->pid = (int)pid;
		} else if (KEY("raw")) {
			free(r->raw);
			r->raw = journal_unescape(v, vl, &r->rawlen);
		}
		if (f)
			seen |= f->seen;
			/* unknown keys: ignored (newer writer) */
#undef KEY
		p = fe + 1;
	}
	if ((r->type == 'W' || r->type == 'S') && !(seen & 1))
		goto bad;
	if (r->type == 'W' && (seen & (4 | 8 | 16 | 32)) != (4 | 8 | 16 | 32))
		goto bad;
	if (strchr("CAUKE", r->type) && !(seen & 2))
		goto bad;
	if (r->type == 'K' && !r->run)
		goto bad;
	if (r->type == 'W' && !r->txn)
		r->txn = r->seq;
	if (!r->start && r->run) { /* a journal from before owners: "PID-START" */
		unsigned long long st;
		int pid;

		if (sscanf(r->run, "%d-%llu", &pid, &st) == 2)
			r->start = st;
	}
	return 0;
bad:
	jrec_free(r);
	return -EINVAL;
}

void jrec_free(struct jrec *r)
{
	for (size_t i = 0; i < sizeof(jfields) / sizeof(jfields[0]); i++)
		if (jfields[i].str)
			free(*jfield_str(r, &jfields[i]));
	free(r->raw);
	memset(r, 0, sizeof(*r));
}

void jrec_free_all(struct jrec *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		jrec_free(&r[i]);
	free(r);
}

/* ---- file ---------------------------------------------------------------- */

void journal_init(struct journal *j, const char *dir)
{
	memset(j, 0, sizeof(*j));
	j->dir = xstrdup(dir);
	j->path = xasprintf("%s/journal", dir);
	j->archive = xasprintf("%s/journal.archive", dir);
	j->lockp = xasprintf("%s/journal.lock", dir);
	j->lock_fd = -1;
	j->fd = -1;
}

void journal_fini(struct journal *j)
{
	journal_unlock(j);
	free(j->dir);
	free(j->path);
	free(j->archive);
	free(j->lockp);
	memset(j, 0, sizeof(*j));
	j->lock_fd = j->fd = -1;
}

static void parse_text(const char *buf, size_t len, struct jrec **out, size_t *n, int *torn)
{
	size_t cap = 0;
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct jrec r;

		if (!nl) { /* no newline: torn last line */
			if (torn)
				(*torn)++;
			break;
		}
		if (nl > p) {
			if (jrec_decode(p, (size_t)(nl - p), &r) == 0) {
				*out = xgrow(*out, &cap, *n + 1, sizeof(**out));
				(*out)[(*n)++] = r;
			} else if (torn) {
				(*torn)++;
			}
		}
		p = nl + 1;
	}
}

void journal_parse(const char *buf, size_t len, struct jrec **out, size_t *n, int *torn)
{
	*out = NULL;
	*n = 0;
	if (torn)
		*torn = 0;
	parse_text(buf, len, out, n, torn);
}

int journal_load(const char *path, struct jrec **out, size_t *n, int *torn)
{
	char *buf = NULL;
	size_t len = 0;
	int e;

	*out = NULL;
	*n = 0;
	if (torn)
		*torn = 0;
	/* never blocks: a FIFO or device named journal is refused */
	e = userfile_read(path, O_NOFOLLOW, USERFILE_MAX_JOURNAL, &buf, &len);
	if (e)
		return e == -ENOENT ? 0 : e;
	parse_text(buf, len, out, n, torn);
	free(buf);
	return 0;
}

static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int e = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) != 0)
		e = -errno;
	close(fd);
	return e;
}

/* An open journal file has no other name (a hard link made after the
 * check would let an append land in a file outside the state dir). */
static int own_file(int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -errno;
	return st.st_nlink > 1 ? -EMLINK : 0;
}

/* The pid the writer put in the lock file (fd: our own open of it). */
static int lock_owner(int fd)
{
	char buf[32];
	int pid = 0;
	ssize_t k;

	k = pread(fd, buf, sizeof(buf) - 1, 0);
	if (k > 0) {
		buf[k] = '\0';
		if (str_to_int(buf, &pid) != 0)
			pid = 0;
	}
	return pid;
}

bool journal_locked(const struct journal *j)
{
	return j->lock_fd >= 0;
}

static int journal_scan_tail(struct journal *j, char **cause);

int journal_lock(struct journal *j, int timeout_ms, char **cause)
{
	struct timespec t0, now;
	int fd, e;
	char pidbuf[24];

	if (j->lock_fd >= 0)
		return 0;
	fd = userfile_open(j->lockp, O_RDWR | O_CREAT | O_NOFOLLOW, 0600, 0);
	if (fd < 0) {
		e = fd;
		if (cause)
			*cause = xasprintf("cannot open journal lock %s: %s", j->lockp,
					   userfile_strerror(e, 0));
		return e;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		long ms;

		if (errno != EWOULDBLOCK && errno != EINTR) {
			e = -errno;
			close(fd);
			if (cause)
				*cause = xasprintf("cannot lock %s: %s", j->lockp, strerror(-e));
			return e;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
		if (ms >= timeout_ms) {
			int owner = lock_owner(fd);

			close(fd);
			if (cause) {
				if (owner > 0)
					*cause = xasprintf(
						"journal locked by pid %d (another tunetop "
						"is changing knobs; waited %d ms); try again "
						"when it is done",
						owner, timeout_ms);
				else
					*cause = xasprintf("journal %s is locked by another "
							   "tunetop (waited %d ms)",
							   j->path, timeout_ms);
			}
			return -EWOULDBLOCK;
		}
		usleep(10000);
	}
	snprintf(pidbuf, sizeof(pidbuf), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) == 0 && pwrite(fd, pidbuf, strlen(pidbuf), 0) < 0) {
		/* the pid is informational only */
	}
	j->lock_fd = fd;

	j->fd = userfile_open(j->path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW, 0600,
			      USERFILE_MAX_JOURNAL);
	if (j->fd >= 0 && (e = own_file(j->fd)) != 0) {
		close(j->fd);
		j->fd = e;
	}
	if (j->fd < 0) {
		e = j->fd;
		j->fd = -1;
		if (cause)
			*cause = e == -EMLINK
					 ? xasprintf("journal %s has more than one hard link; "
						     "refusing to append to it",
						     j->path)
					 : xasprintf("cannot open journal %s: %s", j->path,
						     userfile_strerror(e, USERFILE_MAX_JOURNAL));
		journal_unlock(j);
		return e;
	}
	e = journal_scan_tail(j, cause);
	if (e)
		journal_unlock(j);
	return e;
}

/* Under the lock: cut a torn last line and find the next id. Only the tail
 * of the file is read (the whole file when the tail does not say). */
static int journal_scan_tail(struct journal *j, char **cause)
{
	enum { TAIL = 256 * 1024 };
	struct stat st;
	off_t off;
	char *buf;
	size_t len;
	ssize_t k;
	bool whole = false;

	if (fstat(j->fd, &st) != 0)
		return -errno;
again:
	off = !whole && st.st_size > TAIL ? st.st_size - TAIL : 0;
	len = (size_t)(st.st_size - off);
	buf = xmalloc(len + 1);
	k = pread(j->fd, buf, len, off);
	if (k < 0) {
		int e = -errno;

		free(buf);
		if (cause)
			*cause = xasprintf("cannot read journal %s: %s", j->path, strerror(-e));
		return e;
	}
	len = (size_t)k;
	buf[len] = '\0';
	/* A last line without its newline is a record torn by a crash: its
	 * write never happened (we write only after the record is durable), so
	 * cut it and continue after the last complete line. */
	if (len && buf[len - 1] != '\n') {
		size_t keep = len;

		while (keep && buf[keep - 1] != '\n')
			keep--;
		if (!keep && off > 0) {
			free(buf);
			whole = true;
			goto again;
		}
		if (ftruncate(j->fd, off + (off_t)keep) != 0) {
			int e = -errno;

			free(buf);
			if (cause)
				*cause = xasprintf("cannot repair torn journal %s: %s", j->path,
						   strerror(-e));
			return e;
		}
		len = keep;
		st.st_size = off + (off_t)keep;
	}
	if (len == 0 && off == 0)
		sync_dir(j->dir); /* a new journal file: make its name durable */
	/* ids grow along the file: the last valid W or S line has the highest */
	j->next_seq = 0;
	for (size_t end = len; end > 0;) {
		size_t start = end - 1;
		struct jrec r;

		while (start > 0 && buf[start - 1] != '\n')
			start--;
		if (start == 0 && off > 0)
			break; /* possibly a partial line */
		if ((buf[start] == 'W' || buf[start] == 'S') &&
		    jrec_decode(buf + start, end - 1 - start, &r) == 0) {
			j->next_seq = r.seq + 1;
			jrec_free(&r);
			break;
		}
		end = start;
	}
	free(buf);
	if (!j->next_seq && off > 0) {
		whole = true;
		goto again;
	}
	if (!j->next_seq)
		j->next_seq = 1;
	return 0;
}

void journal_unlock(struct journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	if (j->lock_fd >= 0) {
		flock(j->lock_fd, LOCK_UN);
		close(j->lock_fd);
	}
	j->lock_fd = -1;
}

int journal_append(struct journal *j, struct jrec *r, bool sync)
{
	struct sbuf b;
	int e;

	if (j->fd < 0)
		return -EBADF;
	if (r->type == 'W' || r->type == 'S')
		r->seq = j->next_seq++;
	if (!r->time_ns) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		r->time_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	}
	sbuf_init(&b);
	jrec_encode(r, &b);
	/* one write() of the whole line: O_APPEND keeps it contiguous */
	e = userfile_write_all(j->fd, b.s, b.len);
	sbuf_free(&b);
	if (!e && sync && fdatasync(j->fd) != 0)
		e = -errno;
	return e;
}

int journal_sync(struct journal *j)
{
	if (j->fd < 0)
		return -EBADF;
	return fdatasync(j->fd) == 0 ? 0 : -errno;
}

/* How much of batch (len bytes) the archive ends with already, from a line
 * start: a run killed between its append to the archive and the rename of
 * the shortened journal left it there (whole or torn), and the next run
 * archives the same records again. *nl: the archive ends inside a line
 * that is not ours (a newline must come first). */
static size_t archive_overlap(int afd, const char *batch, size_t len, bool *nl)
{
	struct stat st;
	size_t tl, k = 0;
	off_t off;
	char *buf;

	*nl = false;
	if (fstat(afd, &st) != 0 || st.st_size <= 0)
		return 0;
	tl = (uint64_t)st.st_size > len ? len + 1 : (size_t)st.st_size;
	off = st.st_size - (off_t)tl;
	buf = xmalloc(tl);
	if (pread(afd, buf, tl, off) != (ssize_t)tl) {
		free(buf);
		return 0;
	}
	for (size_t s = 0; s < tl && !k; s++)
		if (tl - s <= len && ((s == 0 && off == 0) || (s > 0 && buf[s - 1] == '\n')) &&
		    !memcmp(buf + s, batch, tl - s))
			k = tl - s;
	*nl = !k && buf[tl - 1] != '\n';
	free(buf);
	return k;
}

int journal_archive(struct journal *j, const struct jrec *recs, size_t n, const bool *move)
{
	struct sbuf keep, arch;
	char *tmp;
	int fd, afd, e = 0;
	uint64_t max = 0;

	if (j->fd < 0)
		return -EBADF;
	sbuf_init(&keep);
	sbuf_init(&arch);
	for (size_t i = 0; i < n; i++) {
		if (recs[i].seq > max)
			max = recs[i].seq;
		jrec_encode(&recs[i], move[i] ? &arch : &keep);
	}
	if (j->next_seq > max + 1)
		max = j->next_seq - 1;
	{ /* keep numbering going after compaction */
		struct jrec s = {.type = 'S', .seq = max};

		jrec_encode(&s, &keep);
	}
	afd = userfile_open(j->archive, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW, 0600, 0);
	if (afd >= 0 && (e = own_file(afd)) != 0) {
		close(afd);
		afd = e;
	}
	if (afd < 0) {
		e = afd;
		goto out;
	}
	{
		bool nl;
		size_t done = arch.len ? archive_overlap(afd, arch.s, arch.len, &nl) : 0;

		e = arch.len && nl ? userfile_write_all(afd, "\n", 1) : 0;
		if (!e)
			e = userfile_write_all(afd, arch.s ? arch.s + done : "", arch.len - done);
	}
	if (!e && fdatasync(afd) != 0)
		e = -errno;
	close(afd);
	if (e)
		goto out;
	tmp = xasprintf("%s.tmp", j->path);
	/* a new file of our own: never truncate what another name points at */
	unlink(tmp);
	fd = userfile_open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600, 0);
	if (fd < 0) {
		e = fd;
		free(tmp);
		goto out;
	}
	e = userfile_write_all(fd, keep.s ? keep.s : "", keep.len);
	if (!e && fsync(fd) != 0)
		e = -errno;
	close(fd);
	if (!e && rename(tmp, j->path) != 0)
		e = -errno;
	if (e)
		unlink(tmp);
	free(tmp);
	if (!e) {
		sync_dir(j->dir);
		close(j->fd);
		j->fd = userfile_open(j->path, O_RDWR | O_APPEND | O_NOFOLLOW, 0, 0);
		if (j->fd < 0) {
			e = j->fd;
			j->fd = -1;
		}
		j->next_seq = max + 1;
	}
out:
	sbuf_free(&keep);
	sbuf_free(&arch);
	return e;
}
