/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The engine context and transactions: knob_ctx_open (state dir, run id,
 * boot id of the root), knob_set_many (validate everything, order the writes
 * safely, journal each old value durably before writing, re-read, roll back
 * on failure), and process identity for the journal (pid + start time). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_int.h"

#define LOCK_TIMEOUT_MS 2000

/* ---- process identity ------------------------------------------------------ */

int knob_pid_stat(int pid, char *state, uint64_t *start, int *ppid)
{
	char path[64], buf[1024];
	char *p, *tok[32];
	size_t n;
	uint64_t v;
	int pp;

	if (pid <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "proc/%d/stat", pid);
	if (sysfs_read(sysroot_live(), path, buf, sizeof(buf), NULL) != 0)
		return -ESRCH;
	p = strrchr(buf, ')'); /* comm may hold spaces and parentheses */
	if (!p)
		return -EINVAL;
	n = str_split_ws(p + 1, tok, 32);
	/* tok[0] is field 3 (state), tok[1] field 4 (ppid); starttime is field 22 */
	if (n < 20 || str_to_u64(tok[19], &v) != 0 || str_to_int(tok[1], &pp) != 0)
		return -EINVAL;
	if (state)
		*state = tok[0][0];
	if (start)
		*start = v;
	if (ppid)
		*ppid = pp;
	return 0;
}

uint64_t knob_pid_starttime(int pid)
{
	uint64_t v;

	return knob_pid_stat(pid, NULL, &v, NULL) == 0 ? v : 0;
}

bool knob_run_alive(const char *run)
{
	int pid;
	unsigned long long st;
	uint64_t start;
	char state;

	if (!run || sscanf(run, "%d-%llu", &pid, &st) != 2 || st == 0)
		return false;
	/* a zombie (killed, not reaped yet) changes nothing any more: dead */
	return knob_pid_stat(pid, &state, &start, NULL) == 0 && start == st && state != 'Z' &&
	       state != 'X';
}

bool knob_owner_alive(const struct knob_ctx *ctx, const char *boot, const char *run)
{
	return str_eq(boot, ctx->boot_id) && knob_run_alive(run);
}

/* ---- context --------------------------------------------------------------- */

/* $TUNETOP_LOCK_TIMEOUT_MS; main() has refused a bad value already
 * (knob_env_check), so the default here only serves library callers. */
static int lock_timeout_ms(void)
{
	uint64_t v = LOCK_TIMEOUT_MS;

	if (str_env_u64("TUNETOP_LOCK_TIMEOUT_MS", INT_MAX, &v, NULL, 0) < 0)
		v = LOCK_TIMEOUT_MS;
	return (int)v;
}

int knob_env_check(char *why, size_t cap)
{
	const char *verify = getenv("TUNETOP_VERIFY_MS");
	uint64_t v;
	int e = str_env_u64("TUNETOP_LOCK_TIMEOUT_MS", INT_MAX, &v, why, cap);

	if (e < 0)
		return e;
	/* set but empty is a mistake too: it does not mean the default */
	if (verify && !*verify) {
		snprintf(why, cap, "TUNETOP_VERIFY_MS: '' is empty (0 to %d)", KNOB_VERIFY_MAX_MS);
		return -EINVAL;
	}
	e = str_env_u64("TUNETOP_VERIFY_MS", KNOB_VERIFY_MAX_MS, &v, why, cap);
	return e < 0 ? e : 0;
}

static void set_readonly(struct knob_ctx *ctx, const char *why)
{
	ctx->readonly = true;
	free(ctx->ro_why);
	ctx->ro_why = xstrdup(why);
}

/* The state dir or the lock cannot be used (e, why: its words, taken): with
 * KNOB_READONLY_OK the ctx goes on read-only (0), else why goes to *cause
 * and e is returned. */
static int journal_unusable(struct knob_ctx *ctx, unsigned flags, int e, char *why, char **cause)
{
	if (!(flags & KNOB_READONLY_OK)) {
		if (cause)
			*cause = why;
		else
			free(why);
		return e;
	}
	set_readonly(ctx, why);
	free(why);
	return 0;
}

static int ctx_open(struct knob_ctx **out, const struct sysroot *r, const char *state_dir,
		    unsigned flags, char **cause);

int knob_ctx_open(struct knob_ctx **out, const struct sysroot *r, const char *state_dir,
		  unsigned flags, char **cause)
{
	int e = ctx_open(out, r, state_dir, flags, cause);

	/* a read-only command: opened as asked (its journal readable), every
	   change then refused by knob_op_lock() with -EROFS */
	if (!e && (flags & KNOB_READ_ONLY))
		set_readonly(*out, "this command only reads knobs");
	return e;
}

static int ctx_open(struct knob_ctx **out, const struct sysroot *r, const char *state_dir,
		    unsigned flags, char **cause)
{
	struct knob_ctx *ctx = xcalloc(1, sizeof(*ctx));
	char *dir = NULL, *why = NULL;
	int e;

	*out = NULL;
	ctx->root = r;
	ctx->j.lock_fd = ctx->j.fd = -1;
	for (int i = 0; i < KNOB_MAX_LEASES; i++)
		ctx->lease[i].fd = -1;
	ctx->start = knob_pid_starttime((int)getpid());
	snprintf(ctx->run_id, sizeof(ctx->run_id), "%d-%llu", (int)getpid(),
		 (unsigned long long)ctx->start);
	str_copy(ctx->kind, sizeof(ctx->kind), "tunetop");
	if (sysfs_read_str(r, "proc/sys/kernel/random/boot_id", ctx->boot_id,
			   sizeof(ctx->boot_id)) != 0)
		str_copy(ctx->boot_id, sizeof(ctx->boot_id), "unknown");
	if (flags & KNOB_NO_JOURNAL) {
		set_readonly(ctx, "opened without the journal (read-only command)");
		*out = ctx;
		return 0;
	}
	e = journal_dir_pick(state_dir, &dir, &why);
	if (!e)
		e = journal_dir_check(dir, !(flags & KNOB_NO_CREATE), &why);
	if (!e)
		e = journal_files_check(dir, &why);
	if (e) {
		free(dir);
		if (journal_unusable(ctx, flags, e, why, cause)) {
			free(ctx);
			return e;
		}
		ctx->state_err = e;
		*out = ctx;
		return 0;
	}
	ctx->state_dir = dir;
	journal_init(&ctx->j, dir);
	if (flags & KNOB_HOLD_LOCK) {
		e = journal_lock(&ctx->j, (flags & KNOB_READONLY_OK) ? 0 : lock_timeout_ms(), &why);
		if (e) {
			if (journal_unusable(ctx, flags, e, why, cause)) {
				knob_ctx_close(ctx);
				return e;
			}
		} else {
			ctx->hold_lock = true;
		}
	}
	*out = ctx;
	return 0;
}

void knob_ctx_close(struct knob_ctx *ctx)
{
	if (!ctx)
		return;
	lease_release_all(ctx);
	if (ctx->state_dir)
		journal_fini(&ctx->j);
	free(ctx->state_dir);
	free(ctx->ro_why);
	free(ctx->last);
	free(ctx);
}

bool knob_ctx_readonly(const struct knob_ctx *ctx, const char **why)
{
	if (why)
		*why = ctx->ro_why;
	return ctx->readonly;
}

const char *knob_ctx_run_id(const struct knob_ctx *ctx)
{
	return ctx->run_id;
}

void knob_ctx_set_kind(struct knob_ctx *ctx, const char *kind)
{
	str_copy(ctx->kind, sizeof(ctx->kind), kind && *kind ? kind : "tunetop");
}

const char *knob_ctx_kind(const struct knob_ctx *ctx)
{
	return ctx->kind;
}

const char *knob_ctx_state_dir(const struct knob_ctx *ctx)
{
	return ctx->state_dir;
}

int knob_ctx_state_err(const struct knob_ctx *ctx)
{
	return ctx->state_err;
}

const struct sysroot *knob_ctx_root(const struct knob_ctx *ctx)
{
	return ctx->root;
}

int knob_exit_code(int err)
{
	if (err == 0)
		return 0;
	if (err == -EINVAL || err == -ENOENT || err == -ERANGE)
		return 2;
	return 1;
}

int knob_op_lock(struct knob_ctx *ctx, struct sbuf *report, char **cause)
{
	int e;

	if (ctx->readonly) {
		knob_cause(cause, "read-only: %s", ctx->ro_why ? ctx->ro_why : "no journal");
		return -EROFS;
	}
	if (!ctx->hold_lock) {
		char *why = NULL;

		e = journal_lock(&ctx->j, lock_timeout_ms(), &why);
		if (e) {
			if (cause) {
				free(*cause);
				*cause = why;
			} else {
				free(why);
			}
			return e;
		}
	}
	knob_archive_stale(ctx, report);
	return 0;
}

void knob_op_unlock(struct knob_ctx *ctx)
{
	if (!ctx->hold_lock)
		journal_unlock(&ctx->j);
}

/* Move entries of this root recorded under another boot id to the archive:
 * a reboot already reset those values, replaying them would be wrong. */
static int cmp_seq(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Temporary files ".NAME.tunetop-PID-N" that a writer killed before its
 * rename left next to a journaled target of this (non-live) root: removed
 * when PID is gone, by the first writing operation of the next run. */
static void sweep_tmp(struct knob_ctx *ctx, const struct jrec *r, size_t n)
{
	const char **t;
	size_t nt = 0;

	if (ctx->root->live)
		return;
	t = xcalloc(n ? n : 1, sizeof(*t));
	for (size_t i = 0; i < n; i++)
		if (r[i].type == 'W' && r[i].target && r[i].target[0] &&
		    str_eq(r[i].root, ctx->root->path))
			t[nt++] = r[i].target;
	qsort(t, nt, sizeof(*t), cmp_str);
	for (size_t i = 0; i < nt; i++)
		if (i == 0 || strcmp(t[i], t[i - 1]))
			sysfs_write_cleanup(ctx->root, t[i]);
	free(t);
}

int knob_archive_stale(struct knob_ctx *ctx, struct sbuf *report)
{
	struct jrec *r;
	size_t n, nw = 0, nmove = 0, closed = 0;
	bool *move;
	uint64_t *moved; /* seq of moved W records, sorted (file order) */
	int e;
	char old_boot[64] = "";

	/* Entries from another boot can only predate this process: look once. */
	if (ctx->archive_checked)
		return 0;
	ctx->archive_checked = true;
	e = journal_load(ctx->j.path, &r, &n, NULL);
	if (e || n == 0) {
		jrec_free_all(r, n);
		return e;
	}
	sweep_tmp(ctx, r, n);
	move = xcalloc(n, sizeof(bool));
	moved = xcalloc(n, sizeof(uint64_t));
	for (size_t i = 0; i < n; i++) {
		if (r[i].type != 'W')
			continue;
		nw++;
		if (str_eq(r[i].root, ctx->root->path) && !str_eq(r[i].boot, ctx->boot_id)) {
			move[i] = true;
			moved[nmove++] = r[i].seq;
			str_copy(old_boot, sizeof(old_boot), r[i].boot ? r[i].boot : "");
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (strchr("CAUE", r[i].type)) {
			move[i] = nmove &&
				  bsearch(&r[i].ref, moved, nmove, sizeof(uint64_t), cmp_seq);
			if ((r[i].type == 'A' || r[i].type == 'U') && !move[i])
				closed++;
		}
	}
	/* a keep mark goes with its run's entries once none of them stays */
	for (size_t i = 0; nmove && i < n; i++) {
		bool stays = false;

		if (r[i].type != 'K')
			continue;
		for (size_t k = 0; k < n && !stays; k++)
			stays = r[k].type == 'W' && !move[k] && str_eq(r[k].run, r[i].run);
		move[i] = !stays;
	}
	if (nmove) {
		e = journal_archive(&ctx->j, r, n, move);
		if (report) {
			if (e)
				sbuf_printf(report,
					    "note: could not archive %zu journal entries from "
					    "an earlier boot: %s\n",
					    nmove, strerror(-e));
			else
				sbuf_printf(report,
					    "note: archived %zu journal entries from an earlier "
					    "boot (boot id %s) to %s: the reboot already reset "
					    "them, they are not replayed\n",
					    nmove, old_boot, ctx->j.archive);
		}
	} else if (nw > 1000 && closed == nw) {
		/* everything closed and the file is getting long: start afresh */
		for (size_t i = 0; i < n; i++)
			move[i] = true;
		e = journal_archive(&ctx->j, r, n, move);
	}
	free(moved);
	free(move);
	jrec_free_all(r, n);
	return e;
}

/* ---- transactions ------------------------------------------------------------ */

struct kw {
	struct knob_ref ref; /* a primitive knob (locks are split into min and max) */
	char value[KNOB_VALUE_MAX];
	char cur[KNOB_VALUE_MAX];
	char label[KNOB_ADDR_MAX + 64];
	bool wild, skip;
	size_t input, group;
	int rank;
	/* during the write */
	char old[KNOB_VALUE_MAX], raw[4096];
	size_t rawlen;
	uint64_t seq;
	bool written;
};

static bool pair_flag(const struct kw *w, unsigned f)
{
	return w->ref.def && (w->ref.def->flags & f);
}

/* A primitive ref for the min or max half of a lock. */
void knob_split_lock(const struct knob_ref *lock, bool max, struct knob_ref *out)
{
	const struct knob_def *half =
		knob_fam_def_flag(lock->def->fam, max ? KD_MAX : KD_MIN, lock->def->scope);
	const char *leaf = half ? half->leaf : "";
	char *slash;

	*out = *lock;
	out->def = half;
	str_copy(out->target, sizeof(out->target), max ? lock->target2 : lock->target);
	out->target2[0] = '\0';
	slash = strrchr(out->addr, '/');
	if (slash)
		snprintf(slash + 1, sizeof(out->addr) - (size_t)(slash + 1 - out->addr), "%s",
			 leaf);
}

static int cmp_i64(const char *a, const char *b, bool *ok)
{
	int64_t x, y;

	*ok = str_to_i64(a, &x) == 0 && str_to_i64(b, &y) == 0;
	if (!*ok)
		return 0;
	return x < y ? -1 : x > y;
}

/* The current value of the other half of a min/max pair (its address in
 * addr); NULL when there is none or it cannot be read. */
static const char *pair_current(struct knob_ctx *ctx, const struct knob_ref *ref, char *addr,
				size_t acap, char *buf, size_t cap)
{
	const struct knob_def *d;
	struct knob_ref *refs = NULL;
	size_t n = 0;
	char leaf[64], *m, *slash;
	const char *ret = NULL;

	str_copy(leaf, sizeof(leaf), ref->def->leaf);
	m = strstr(leaf, (ref->def->flags & KD_MIN) ? "min" : "max");
	if (!m)
		return NULL;
	memcpy(m, (ref->def->flags & KD_MIN) ? "max" : "min", 3);
	d = knob_fam_def(ref->def->fam, leaf);
	if (!d || !(d->flags & (KD_MIN | KD_MAX)) || d == ref->def)
		return NULL;
	str_copy(addr, acap, ref->addr);
	slash = strrchr(addr, '/');
	if (!slash)
		return NULL;
	snprintf(slash + 1, acap - (size_t)(slash + 1 - addr), "%s", leaf);
	if (knob_expand(ctx, addr, 0, &refs, &n, NULL) == 0 && n == 1 &&
	    knob_ref_ops(&refs[0])->read(ctx, &refs[0], buf, cap, NULL, 0, NULL) == 0)
		ret = buf;
	free(refs);
	return ret;
}

/* Order within each object: governor first, then the min/max (or
 * runtime/period) pair in the order that keeps min <= max (runtime <=
 * period) at every step, then the rest; objects keep their first-mention
 * order. The reverse of a safe order is safe too, which undo relies on. */
static void plan_order(struct kw *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		w[i].group = i;
		for (size_t k = 0; k < i; k++)
			if (w[k].ref.def->fam == w[i].ref.def->fam &&
			    !strcmp(w[k].ref.obj, w[i].ref.obj)) {
				w[i].group = w[k].group;
				break;
			}
		w[i].rank = pair_flag(&w[i], KD_GOVERNOR) ? 0 : 3;
	}
	for (size_t i = 0; i < n; i++) {
		if (w[i].skip)
			continue;
		if (pair_flag(&w[i], KD_MIN | KD_MAX | KD_RT_RUNTIME | KD_RT_PERIOD))
			w[i].rank = 1;
		if (!pair_flag(&w[i], KD_MIN) && !pair_flag(&w[i], KD_RT_RUNTIME))
			continue;
		for (size_t k = 0; k < n; k++) {
			bool ok;

			if (k == i || w[k].skip || w[k].group != w[i].group)
				continue;
			if (pair_flag(&w[i], KD_MIN) && pair_flag(&w[k], KD_MAX)) {
				/* raising the max: max first (the old min is below the
				 * old max, so below the new one; the new min is checked
				 * against the new max). Lowering it: min first (the new
				 * min is below the new max, so below the old one). */
				if (cmp_i64(w[k].value, w[k].cur, &ok) > 0 && ok) {
					w[k].rank = 1;
					w[i].rank = 2;
				} else {
					w[i].rank = 1;
					w[k].rank = 2;
				}
			} else if (pair_flag(&w[i], KD_RT_RUNTIME) &&
				   pair_flag(&w[k], KD_RT_PERIOD)) {
				/* runtime first only if it fits under the current period */
				bool unlimited = !strcmp(w[i].value, "-1");

				if (unlimited || (cmp_i64(w[i].value, w[k].cur, &ok) <= 0 && ok)) {
					w[i].rank = 1;
					w[k].rank = 2;
				} else {
					w[k].rank = 1;
					w[i].rank = 2;
				}
			}
		}
	}
	/* stable insertion sort by (group, rank, input) */
	for (size_t i = 1; i < n; i++) {
		struct kw tmp = w[i];
		size_t k = i;

		while (k > 0 && (w[k - 1].group > tmp.group ||
				 (w[k - 1].group == tmp.group &&
				  (w[k - 1].rank > tmp.rank ||
				   (w[k - 1].rank == tmp.rank && w[k - 1].input > tmp.input))))) {
			w[k] = w[k - 1];
			k--;
		}
		w[k] = tmp;
	}
}

/* Refusals of the knobs one assignment expanded to. process/<pid>/... names
 * one knob per thread, and a bad value is refused for the same reason by
 * each: that gives one line naming the address as typed, the value and the
 * reason, not one line per thread. Only syscall-backed knobs (those with an
 * identity) fold; file knobs keep one line per file, naming it. */
struct refusal {
	char *line;   /* the line for this knob alone */
	char *reason; /* the line without the knob's own address and file */
	size_t n;
};

struct refusals {
	struct refusal *v;
	size_t n, cap;
};

static void refusal_add(struct refusals *rs, const struct knob_ref *ref, const char *line,
			const char *reason)
{
	if (ref->ident[0] && reason) {
		for (size_t i = 0; i < rs->n; i++)
			if (rs->v[i].reason && !strcmp(rs->v[i].reason, reason)) {
				rs->v[i].n++;
				return;
			}
	}
	rs->v = xgrow(rs->v, &rs->cap, rs->n + 1, sizeof(*rs->v));
	rs->v[rs->n].line = xstrdup(line);
	rs->v[rs->n].reason = ref->ident[0] && reason ? xstrdup(reason) : NULL;
	rs->v[rs->n].n = 1;
	rs->n++;
}

/* What follows "ADDR: " at the start of line, or NULL. */
static const char *after_addr(const char *line, const char *addr)
{
	size_t n = strlen(addr);

	return !strncmp(line, addr, n) && line[n] == ':' && line[n + 1] == ' ' ? line + n + 2
									       : NULL;
}

static void refusals_flush(struct refusals *rs, char **cause, const char *lab, const char *addr,
			   const char *value, size_t nrefs)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct refusal *r = &rs->v[i];

		if (r->n == 1) {
			knob_cause_add(cause, r->line);
		} else {
			char *line = xasprintf(
				"%s%s%s=%s: %s (%s %zu %s)", lab ? lab : "", lab ? ": " : "", addr,
				value, r->reason, r->n == nrefs ? "all" : "for", r->n,
				knob_family_of(addr) == &fam_process ? "threads" : "knobs");

			knob_cause_add(cause, line);
			free(line);
		}
		free(r->line);
		free(r->reason);
	}
	free(rs->v);
	memset(rs, 0, sizeof(*rs));
}

static void explain_write_error(struct knob_ctx *ctx, const struct kw *w, int e, char *buf,
				size_t cap)
{
	char file[TT_PATH_MAX], own[384];
	const char *hint = "";

	knob_abspath(ctx, w->ref.target, file, sizeof(file));
	if (knob_refusal_why(ctx, &w->ref, w->value, e, own + 2, sizeof(own) - 2)) {
		own[0] = ':';
		own[1] = ' ';
		hint = own;
	} else if (e == -EPERM || e == -EACCES)
		hint = geteuid() ? ": needs root"
				 : ": refused by the kernel (lockdown, BIOS or "
				   "driver)";
	else if (e == -EISDIR)
		hint = ": is a directory";
	else if (e == -EXDEV)
		hint = ": symlink leaves the root";
	else if (e == -SYSFS_ENOTREG)
		hint = ": not a regular file (a fifo, socket or device)";
	else if (e == -EINVAL)
		hint = ": the kernel refused the value";
	snprintf(buf, cap, "%s: %s from %s: could not write '%s'%s", w->ref.addr, err_name(e), file,
		 w->value, hint);
}

static void fill_w(struct knob_ctx *ctx, struct jrec *r, struct kw *w, uint64_t txn)
{
	memset(r, 0, sizeof(*r));
	r->type = 'W';
	r->txn = txn;
	r->pid = (int)getpid();
	r->start = ctx->start;
	r->kind = ctx->kind;
	r->run = ctx->run_id;
	r->boot = ctx->boot_id;
	r->root = ctx->root->path;
	r->addr = w->ref.addr;
	r->target = w->ref.target;
	r->ident = w->ref.ident;
	r->old = w->old;
	r->raw = w->raw;
	r->rawlen = w->rawlen;
	r->new_value = w->value;
}

/* Roll back the writes done so far, newest first. */
static int rollback(struct knob_ctx *ctx, struct kw *w, size_t upto, struct sbuf *report,
		    char **cause)
{
	int bad = 0;

	for (size_t i = upto; i-- > 0;) {
		struct jrec u = {.type = 'U'};
		char how[] = "rolled back";
		int e;

		if (!w[i].written)
			continue;
		e = knob_ref_ops(&w[i].ref)->restore(ctx, &w[i].ref, w[i].old, w[i].raw,
						     w[i].rawlen);
		u.ref = w[i].seq;
		u.pid = (int)getpid();
		u.start = ctx->start;
		u.kind = ctx->kind;
		u.run = ctx->run_id;
		if (e) {
			char line[TT_PATH_MAX + 256], file[TT_PATH_MAX];

			knob_abspath(ctx, w[i].ref.target, file, sizeof(file));
			snprintf(line, sizeof(line),
				 "%s: %s from %s: could not roll back to '%s'; the "
				 "journal keeps it: run 'tunetop restore'",
				 w[i].ref.addr, err_name(e), file, w[i].old);
			knob_cause_add(cause, line);
			bad++;
			continue;
		}
		u.value = how;
		journal_append(&ctx->j, &u, false);
		if (report)
			sbuf_printf(report, "%s: rolled back to %s\n", w[i].ref.addr, w[i].old);
	}
	journal_sync(&ctx->j);
	return bad;
}

static void dry_run_line(struct knob_ctx *ctx, const struct kw *w, struct sbuf *report)
{
	char file[TT_PATH_MAX];

	knob_abspath(ctx, w->ref.target, file, sizeof(file));
	if (!strcmp(w->cur, w->value)) {
		sbuf_printf(report, "# %s: already %s\n", w->ref.addr, w->value);
		return;
	}
	if (knob_ref_ops(&w->ref)->shell) {
		char sh[KNOB_VALUE_MAX + 128];

		knob_ref_ops(&w->ref)->shell(&w->ref, w->value, sh, sizeof(sh));
		sbuf_printf(report, "%s   # %s: %s -> %s\n", sh, w->ref.addr, w->cur, w->value);
	} else if (pair_flag(w, KD_LEASE))
		sbuf_printf(report,
			    "# hold %s open after writing int32 %s (4 bytes)   # %s: %s -> %s\n",
			    file, w->value, w->ref.addr, w->cur, w->value);
	else
		sbuf_printf(report, "echo %s > %s   # %s: %s -> %s\n", w->value, file, w->ref.addr,
			    w->cur, w->value);
}

/* ---- knob_set_many in steps: plan (expand, validate, read), check the
 * plan as a whole, then write journaled and roll back on the first failure */

struct plan {
	struct knob_ctx *ctx;
	unsigned flags;
	struct sbuf *report;
	char **cause;
	struct kw *w; /* the primitive writes */
	size_t nw, cap;
	int verr; /* first bad address or value (-EINVAL, -ENOENT): nothing is written */
	int perr; /* first unreadable or unwritable knob */
};

static void first_err(int *acc, int e)
{
	if (!*acc)
		*acc = e;
}

/* A knob this process may not write (and would change): the refusal in words. */
static void refuse_unwritable(struct plan *p, const struct kw *x, struct refusals *refused)
{
	char file[TT_PATH_MAX], own[384], reason[400], line[1024];

	knob_abspath(p->ctx, x->ref.target, file, sizeof(file));
	if (knob_refusal_why(p->ctx, &x->ref, x->value, -EPERM, own, sizeof(own))) {
		snprintf(line, sizeof(line), "%s: EPERM from %s: %s", x->ref.addr, file, own);
		snprintf(reason, sizeof(reason), "EPERM: %s", own);
	} else {
		snprintf(line, sizeof(line), "%s: EACCES from %s: not writable%s", x->ref.addr,
			 file, geteuid() ? " (needs root)" : "");
		snprintf(reason, sizeof(reason), "EACCES: not writable%s",
			 geteuid() ? " (needs root)" : "");
	}
	refusal_add(refused, &x->ref, line, reason);
	first_err(&p->perr, -EACCES);
}

/* One primitive write of a validated ref (part: the min or max half of a
 * lock when parts == 2): its value, the current value, writability. */
static void plan_part(struct plan *p, const struct knob_ref *ref, const char *norm, int part,
		      int parts, const char *lab, bool wild, struct refusals *refused)
{
	struct kw *x;
	char *vwhy = NULL, line[1024];
	int re;

	p->w = xgrow(p->w, &p->cap, p->nw + 1, sizeof(*p->w));
	x = &p->w[p->nw];
	memset(x, 0, sizeof(*x));
	if (parts == 2)
		knob_split_lock(ref, part == 1, &x->ref);
	else
		x->ref = *ref;
	if (parts == 2 && !strcmp(norm, "off")) {
		/* unlock: back to the full hardware range */
		if (knob_validate(p->ctx, &x->ref, part ? "max" : "min", x->value, sizeof(x->value),
				  &vwhy) != 0) {
			knob_cause_add(p->cause, vwhy ? vwhy : "cannot unlock");
			free(vwhy);
			first_err(&p->verr, -EINVAL);
			return;
		}
	} else {
		str_copy(x->value, sizeof(x->value), norm);
	}
	snprintf(x->label, sizeof(x->label), "%s%s%s", lab ? lab : "", lab ? ": " : "", ref->addr);
	x->wild = wild;
	x->input = p->nw;
	re = knob_ref_ops(&x->ref)->read(p->ctx, &x->ref, x->cur, sizeof(x->cur), NULL, 0, NULL);
	if (re) {
		char file[TT_PATH_MAX];

		knob_abspath(p->ctx, x->ref.target, file, sizeof(file));
		if (re == -EXDEV || re == -EFBIG || re == -SYSFS_ENOTREG)
			snprintf(line, sizeof(line), "%s: %s: %s; not changing it", x->ref.addr,
				 file, sysfs_why(re));
		else
			snprintf(line, sizeof(line),
				 "%s: %s from %s: cannot read the current value, so it could not "
				 "be restored; not changing it",
				 x->ref.addr, err_name(re), file);
		knob_cause_add(p->cause, line);
		first_err(&p->perr, re);
		return;
	}
	if (!knob_writable(p->ctx, &x->ref) && !(p->flags & KNOB_DRY_RUN) &&
	    strcmp(x->cur, x->value)) {
		refuse_unwritable(p, x, refused);
		return;
	}
	p->nw++;
}

/* One concrete knob of an assignment: lease rule, validation, its parts. */
static void plan_ref(struct plan *p, const struct knob_ref *ref, const char *value, const char *lab,
		     bool wild, struct refusals *refused)
{
	char norm[KNOB_VALUE_MAX], line[1024], *why = NULL;
	int parts = (ref->def->flags & KD_LOCK) ? 2 : 1, e;

	if ((ref->def->flags & KD_LEASE) && !(p->flags & KNOB_ALLOW_LEASE)) {
		snprintf(line, sizeof(line),
			 "%s%s%s: the value holds only while a process keeps /dev/cpu_dma_latency "
			 "open, so 'set' cannot keep it; use 'tunetop exec %s=N -- CMD' (or the "
			 "TUI)",
			 lab ? lab : "", lab ? ": " : "", ref->addr, ref->addr);
		knob_cause_add(p->cause, line);
		first_err(&p->verr, -EINVAL);
		return;
	}
	if ((e = knob_validate(p->ctx, ref, value, norm, sizeof(norm), &why)) != 0) {
		snprintf(line, sizeof(line), "%s%s%s", lab ? lab : "", lab ? ": " : "",
			 why ? why : "invalid value");
		refusal_add(refused, ref, line, why ? after_addr(why, ref->addr) : NULL);
		free(why);
		/* a change this user could not undo: not permitted (exit 1) */
		first_err(&p->verr, e == -EPERM ? -EPERM : -EINVAL);
		return;
	}
	for (int part = 0; part < parts; part++)
		plan_part(p, ref, norm, part, parts, lab, wild, refused);
}

/* One "ADDRESS=VALUE": parse, expand, plan every knob it names. */
static void plan_assignment(struct plan *p, const char *a, const char *lab)
{
	const char *eq = strchr(a, '=');
	char addr[KNOB_ADDR_MAX], line[1024], *why = NULL;
	struct knob_ref *refs = NULL;
	size_t nrefs = 0;
	struct refusals refused = {0};
	bool wild;
	int e;

	if (!eq || eq == a || strlen(a) - (size_t)(eq - a) - 1 >= KNOB_VALUE_MAX ||
	    (size_t)(eq - a) >= sizeof(addr)) {
		snprintf(line, sizeof(line), "%s%s'%s': expected ADDRESS=VALUE", lab ? lab : "",
			 lab ? ": " : "", a);
		knob_cause_add(p->cause, line);
		first_err(&p->verr, -EINVAL);
		return;
	}
	memcpy(addr, a, (size_t)(eq - a));
	addr[eq - a] = '\0';
	str_trim(addr);
	e = knob_expand(p->ctx, str_trim(addr),
			(p->flags & KNOB_EMPTY_OK) && (knob_is_glob(addr) || strpbrk(addr, "<>"))
				? KNOB_EXPAND_EMPTY_OK
				: 0,
			&refs, &nrefs, &why);
	if (e) {
		snprintf(line, sizeof(line), "%s%s%s", lab ? lab : "", lab ? ": " : "",
			 why ? why : "bad address");
		knob_cause_add(p->cause, line);
		free(why);
		first_err(&p->verr, e == -ENOENT ? -ENOENT : -EINVAL);
		return;
	}
	free(why);
	if (nrefs == 0 && p->report)
		sbuf_printf(p->report, "note: %s%s'%s' matches nothing on this root; skipped\n",
			    lab ? lab : "", lab ? ": " : "", addr);
	wild = nrefs > 1 || knob_is_glob(addr) || strpbrk(addr, "<>");
	for (size_t k = 0; k < nrefs; k++)
		plan_ref(p, &refs[k], eq + 1, lab, wild, &refused);
	refusals_flush(&refused, p->cause, lab, addr, eq + 1, nrefs);
	free(refs);
}

/* The same file twice: a later exact assignment overrides a wildcard. */
static void plan_overrides(struct plan *p)
{
	struct kw *w = p->w;

	for (size_t i = 0; i < p->nw; i++) {
		for (size_t k = i + 1; k < p->nw; k++) {
			char line[1024];

			if (w[k].skip || strcmp(w[i].ref.target, w[k].ref.target))
				continue;
			if (!w[i].wild && !w[k].wild && strcmp(w[i].value, w[k].value)) {
				snprintf(line, sizeof(line), "%s is assigned twice ('%s' and '%s')",
					 w[i].ref.addr, w[i].value, w[k].value);
				knob_cause_add(p->cause, line);
				first_err(&p->verr, -EINVAL);
			}
			w[i].skip = true;
			break;
		}
	}
}

/* RT runtime must stay within the period at the end. */
static void check_rt_bandwidth(struct plan *p)
{
	const char *rt = NULL, *per = NULL;
	char crt[32] = "", cper[32] = "", line[256];
	bool ok;

	for (size_t i = 0; i < p->nw; i++) {
		if (p->w[i].skip)
			continue;
		if (pair_flag(&p->w[i], KD_RT_RUNTIME))
			rt = p->w[i].value;
		if (pair_flag(&p->w[i], KD_RT_PERIOD))
			per = p->w[i].value;
	}
	if (!rt && !per)
		return;
	if (!rt && sysfs_read_str(p->ctx->root, "proc/sys/kernel/sched_rt_runtime_us", crt,
				  sizeof(crt)) == 0)
		rt = crt;
	if (!per && sysfs_read_str(p->ctx->root, "proc/sys/kernel/sched_rt_period_us", cper,
				   sizeof(cper)) == 0)
		per = cper;
	if (rt && per && strcmp(rt, "-1") && cmp_i64(rt, per, &ok) > 0 && ok) {
		snprintf(line, sizeof(line),
			 "sched/rt_runtime_us: EINVAL: runtime %s would exceed sched/rt_period_us "
			 "%s (runtime must be <= period, or -1)",
			 rt, per);
		knob_cause_add(p->cause, line);
		first_err(&p->verr, -EINVAL);
	}
}

/* min <= max for every file pair, combining the requested values with the
 * current value of a half that is not being set. */
static void check_pairs(struct plan *p)
{
	const struct kw *w = p->w;

	for (size_t i = 0; i < p->nw; i++) {
		const struct kw *x = &w[i];
		const char *other = NULL;
		char cur[KNOB_VALUE_MAX], oaddr[KNOB_ADDR_MAX], line[1024];
		bool is_min = pair_flag(x, KD_MIN), ok;
		int c;

		/* file pairs only: a thread's uclamp pair is checked by the
		 * kernel (EINVAL, explained by its family) */
		if (x->skip || !pair_flag(x, KD_MIN | KD_MAX) ||
		    !knob_ops_is_file(knob_ref_ops(&x->ref)))
			continue;
		for (size_t k = 0; k < p->nw && !other; k++)
			if (!w[k].skip && w[k].ref.def != x->ref.def &&
			    pair_flag(&w[k], is_min ? KD_MAX : KD_MIN) &&
			    w[k].ref.def->fam == x->ref.def->fam &&
			    !strcmp(w[k].ref.obj, x->ref.obj)) {
				/* both requested: report once, from the min */
				other = w[k].value;
				str_copy(oaddr, sizeof(oaddr), w[k].ref.addr);
			}
		if (other && !is_min)
			continue;
		if (!other && (other = pair_current(p->ctx, &x->ref, oaddr, sizeof(oaddr), cur,
						    sizeof(cur))) == NULL)
			continue;
		c = cmp_i64(x->value, other, &ok);
		if (!ok || (is_min ? c <= 0 : c >= 0))
			continue;
		snprintf(line, sizeof(line),
			 "%s: EINVAL: %s %s would %s %s %s (%smin must be <= max)", x->label,
			 is_min ? "min" : "max", x->value, is_min ? "exceed" : "be below", oaddr,
			 other, other == cur ? "its current value; " : "");
		knob_cause_add(p->cause, line);
		first_err(&p->verr, -EINVAL);
	}
}

/* Drop the overridden writes and order the rest safely. */
static void plan_finish(struct plan *p)
{
	size_t k = 0;

	for (size_t i = 0; i < p->nw; i++)
		if (!p->w[i].skip)
			p->w[k++] = p->w[i];
	p->nw = k;
	for (size_t i = 0; i < p->nw; i++)
		p->w[i].input = i;
	plan_order(p->w, p->nw);
}

/* One journaled write: W record (synced) before the write, A on failure,
 * C with the read-back after. 0, or -errno with failed set when the write
 * itself failed (cause gets the other failures). */
static int write_one(struct knob_ctx *ctx, struct kw *x, unsigned flags, uint64_t *txn,
		     struct sbuf *report, char **cause, char *failed, size_t failedcap)
{
	const struct knob_ops *ops = knob_ref_ops(&x->ref);
	char line[TT_PATH_MAX + 256], file[TT_PATH_MAX], back[KNOB_VALUE_MAX];
	struct jrec r;
	int e = ops->read(ctx, &x->ref, x->old, sizeof(x->old), x->raw, sizeof(x->raw), &x->rawlen);

	if (e) {
		knob_abspath(ctx, x->ref.target, file, sizeof(file));
		snprintf(line, sizeof(line), "%s: %s from %s: cannot read the current value",
			 x->ref.addr, err_name(e), file);
		knob_cause_add(cause, line);
		return e;
	}
	if (!strcmp(x->old, x->value) && !pair_flag(x, KD_LEASE)) {
		if (report && !(flags & KNOB_QUIET))
			sbuf_printf(report, "%s: already %s\n", x->ref.addr, x->value);
		return 0;
	}
	fill_w(ctx, &r, x, *txn);
	r.scoped = (flags & KNOB_SCOPED) || pair_flag(x, KD_LEASE);
	if (!*txn)
		r.txn = *txn = ctx->j.next_seq;
	/* durable before the write */
	e = journal_append(&ctx->j, &r, true);
	if (e) {
		snprintf(line, sizeof(line), "cannot record the change in %s: %s; not writing",
			 ctx->j.path, strerror(-e));
		knob_cause_add(cause, line);
		return e;
	}
	x->seq = r.seq;
	e = ops->write(ctx, &x->ref, x->value);
	if (e) {
		struct jrec a = {.type = 'A', .ref = x->seq};
		char ename[32];

		str_copy(ename, sizeof(ename), err_name(e));
		a.value = ename;
		journal_append(&ctx->j, &a, false);
		explain_write_error(ctx, x, e, line, sizeof(line));
		str_copy(failed, failedcap, line);
		return e;
	}
	x->written = true;
	if (ops->read(ctx, &x->ref, back, sizeof(back), NULL, 0, NULL) != 0)
		str_copy(back, sizeof(back), "n/a");
	{
		struct jrec c = {.type = 'C', .ref = x->seq, .value = back};

		journal_append(&ctx->j, &c, false);
	}
	if (report && !(flags & KNOB_QUIET))
		sbuf_printf(report, "%s: %s -> %s\n", x->ref.addr, x->old, x->value);
	if (strcmp(back, x->value) && report)
		sbuf_printf(report, "note: %s: wrote %s, the kernel reports %s (%s)\n", x->ref.addr,
			    x->value, back,
			    !strcmp(back, x->old) ? "ignored" : "clamped or adjusted");
	if (report && ops->notes)
		ops->notes(ctx, &x->ref, x->value, report);
	return 0;
}

/* A write failed at w[upto]: roll back the earlier ones and say in one line
 * what failed and that nothing stays changed. */
static void fail_and_roll_back(struct knob_ctx *ctx, struct kw *w, size_t upto, const char *failed,
			       struct sbuf *report, char **cause)
{
	char *rb = NULL;
	size_t done = 0;
	int bad;

	for (size_t k = 0; k < upto; k++)
		done += w[k].written;
	bad = rollback(ctx, w, upto, report, &rb);
	knob_op_unlock(ctx);
	if (failed[0]) {
		char line[TT_PATH_MAX + 256 + 96];

		if (bad)
			snprintf(line, sizeof(line), "%s", failed);
		else if (done)
			snprintf(line, sizeof(line),
				 "%s; nothing changed (%zu earlier write%s rolled back)", failed,
				 done, done == 1 ? "" : "s");
		else
			snprintf(line, sizeof(line), "%s; nothing changed", failed);
		knob_cause_add(cause, line);
	}
	if (rb)
		knob_cause_add(cause, rb);
	free(rb);
}

/* What knob_effect_begin() watches. */
static void remember_last(struct knob_ctx *ctx, const struct kw *w, size_t nw)
{
	free(ctx->last);
	ctx->last = xcalloc(nw ? nw : 1, sizeof(*ctx->last));
	for (size_t i = 0; i < nw; i++) {
		ctx->last[i].ref = w[i].ref;
		str_copy(ctx->last[i].value, sizeof(ctx->last[i].value), w[i].value);
	}
	ctx->nlast = nw;
}

int knob_set_many(struct knob_ctx *ctx, const char *const *assignments, const char *const *labels,
		  size_t n, unsigned flags, struct sbuf *report, char **cause)
{
	struct plan p = {.ctx = ctx, .flags = flags, .report = report, .cause = cause};
	char failed[TT_PATH_MAX + 256] = "";
	uint64_t txn = 0;
	size_t i;
	int e;

	if (cause) { /* NULL or an earlier cause: replaced */
		free(*cause);
		*cause = NULL;
	}
	ctx->nlast = 0;
	/* 1. expand and validate everything; nothing is written before this passes */
	for (i = 0; i < n; i++)
		plan_assignment(&p, assignments[i], labels && labels[i] ? labels[i] : NULL);
	/* 2.-4. the plan as a whole */
	plan_overrides(&p);
	check_rt_bandwidth(&p);
	check_pairs(&p);
	if (p.verr || p.perr) {
		free(p.w);
		return p.verr ? p.verr : p.perr;
	}
	plan_finish(&p);
	if (flags & KNOB_DRY_RUN) {
		for (i = 0; i < p.nw; i++)
			dry_run_line(ctx, &p.w[i], report);
		free(p.w);
		return 0;
	}
	/* 5. write, journaled; roll back on the first failure */
	e = knob_op_lock(ctx, report, cause);
	if (e) {
		free(p.w);
		return e;
	}
	for (i = 0; i < p.nw && !e; i++)
		e = write_one(ctx, &p.w[i], flags, &txn, report, cause, failed, sizeof(failed));
	if (e) {
		fail_and_roll_back(ctx, p.w, i - 1, failed, report, cause);
		free(p.w);
		return -EIO;
	}
	journal_sync(&ctx->j);
	knob_op_unlock(ctx);
	remember_last(ctx, p.w, p.nw);
	free(p.w);
	return 0;
}
