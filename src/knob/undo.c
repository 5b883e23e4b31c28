/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Undo and restore from the journal, and the journal view for `tunetop
 * journal` and the TUI. Undo works on whole changes (transactions), newest
 * record first, only on entries of this root and boot, and is idempotent:
 * an entry is closed with a U record once its old value is back. A value
 * that differs from what tunetop wrote is reported and left alone unless
 * KNOB_FORCE, except a value tunetop may have torn itself (torn() below),
 * which is repaired. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_int.h"
#include "sysfs/sysroot.h"

/* A W record with its fate. */
struct jent {
	struct jrec *w;
	enum knob_jstate state;
	const char *readback; /* C value */
	const char *how;      /* A / U value */
	const char *undo_run;
	bool kept;		       /* a K record of its run covers it */
	const char *effect, *evidence; /* the newest E record */
	/* The true original value: the W record's old, or, when an earlier
	 * owner left while this entry held the knob, the one it handed over
	 * (U record with to=this seq). Stacking: the last owner out puts it
	 * back. */
	const char *old, *raw;
	size_t rawlen;
	uint64_t heir_of; /* the entry that handed its original value over (0: none) */
	/* A later entry of the same run on the same knob, undone in the same
	 * call (--hold=reassert writes, a TUI that set a knob twice), folds into
	 * this one: it is closed without a write, and this entry, which holds
	 * the original, expects the value that later entry wrote. */
	const char *fold_new, *fold_readback;
};

static int cmp_jent(const void *key, const void *elem)
{
	uint64_t k = *(const uint64_t *)key, s = ((const struct jent *)elem)->w->seq;

	return k < s ? -1 : k > s;
}

static struct jent *build(struct jrec *r, size_t n, size_t *ne)
{
	struct jent *e = xcalloc(n ? n : 1, sizeof(*e));
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (r[i].type != 'W')
			continue;
		e[k].w = &r[i];
		e[k].state = KNOB_J_OPEN;
		e[k].old = r[i].old;
		e[k].raw = r[i].raw;
		e[k].rawlen = r[i].rawlen;
		k++;
	}
	/* W ids grow along the file, so e[] is sorted by seq */
	for (size_t i = 0; i < n; i++) {
		struct jent *x;

		if (!strchr("CAUE", r[i].type))
			continue;
		x = bsearch(&r[i].ref, e, k, sizeof(*e), cmp_jent);
		if (!x)
			continue;
		if (r[i].type == 'E') {
			x->effect = r[i].value;
			x->evidence = r[i].evidence;
		} else if (r[i].type == 'C') {
			x->readback = r[i].value;
			if (x->state == KNOB_J_OPEN)
				x->state = KNOB_J_ACTIVE;
		} else if (r[i].type == 'A') {
			x->state = KNOB_J_FAILED;
			x->how = r[i].value;
		} else {
			struct jent *h;

			x->state = KNOB_J_UNDONE;
			x->how = r[i].value;
			x->undo_run = r[i].run;
			/* handed over: the heir inherits the true original (records
			 * are read in file order, so chains of hand-overs add up) */
			h = r[i].to ? bsearch(&r[i].to, e, k, sizeof(*e), cmp_jent) : NULL;
			if (h && h != x) {
				h->old = x->old;
				h->raw = x->raw;
				h->rawlen = x->rawlen;
				h->heir_of = x->w->seq;
			}
		}
	}
	/* K: the run kept its changes (rare: one record per kept session) */
	for (size_t i = 0; i < n; i++) {
		if (r[i].type != 'K')
			continue;
		for (size_t m = 0; m < k && e[m].w->seq <= r[i].ref; m++)
			if (str_eq(e[m].w->run, r[i].run))
				e[m].kept = true;
	}
	*ne = k;
	return e;
}

enum sel_mode { SEL_ALL, SEL_RUN, SEL_LAST, SEL_ID, SEL_ORPHANS };

static bool mine(struct knob_ctx *ctx, const struct jent *e)
{
	return str_eq(e->w->root, ctx->root->path) && str_eq(e->w->boot, ctx->boot_id) &&
	       (e->state == KNOB_J_OPEN || e->state == KNOB_J_ACTIVE);
}

/* Is an entry orphaned: its owner is gone (other boot, or the pid no longer
 * runs with the same start time) while the entry is open, or active,
 * scoped (its owner was to restore it) and not kept. */
static bool orphaned(const struct knob_ctx *ctx, const struct jent *e)
{
	if (knob_owner_alive(ctx, e->w->boot, e->w->run))
		return false;
	return e->state == KNOB_J_OPEN || (e->state == KNOB_J_ACTIVE && e->w->scoped && !e->kept);
}

static void close_entry_to(struct knob_ctx *ctx, const struct jent *e, const char *how, uint64_t to)
{
	struct jrec u = {.type = 'U'};
	char buf[64];

	str_copy(buf, sizeof(buf), how);
	u.ref = e->w->seq;
	u.to = to;
	u.pid = (int)getpid();
	u.start = ctx->start;
	u.kind = ctx->kind;
	u.run = ctx->run_id;
	u.value = buf;
	journal_append(&ctx->j, &u, false);
}

static void close_entry(struct knob_ctx *ctx, const struct jent *e, const char *how)
{
	close_entry_to(ctx, e, how, 0);
}

/* Is the file's content (raw, rawlen bytes) a write of tunetop's own cut
 * short? Older tunetop wrote fixture files by truncating them and then
 * writing, and a process killed in between left the file empty or holding
 * a beginning of the value. That can be the new value, right after the
 * entry's W record before its commit (the entry is still open), or the old
 * bytes, which restore and rollback write back on a non-live root. So: the
 * entry is the newest one of this file, and the file is empty or a strict
 * prefix of one of those. sysfs never tears a write, and since writes to
 * non-live roots are renamed into place no tunetop tears one either: only
 * plain files of non-live roots are looked at. */
static bool torn(struct knob_ctx *ctx, const struct jent *x, const struct knob_ref *ref,
		 const char *raw, size_t rawlen)
{
	char want[KNOB_VALUE_MAX + 2];
	size_t n;

	if (ctx->root->live || !knob_ops_is_file(knob_ref_ops(ref)) ||
	    (ref->def && (ref->def->flags & (KD_LOCK | KD_LEASE))))
		return false;
	if (rawlen == 0)
		return true;
	if (x->raw && rawlen < x->rawlen && !memcmp(raw, x->raw, rawlen))
		return true; /* a restore of the old bytes cut short */
	if (x->state != KNOB_J_OPEN || !x->w->new_value)
		return false;
	n = (size_t)snprintf(want, sizeof(want), "%s\n", x->w->new_value);
	return n < sizeof(want) && rawlen < n && !memcmp(raw, want, rawlen);
}

/* Resolve the knob an entry was written to; false when it vanished. */
static bool resolve(struct knob_ctx *ctx, const struct jent *e, struct knob_ref *out, char *why,
		    size_t cap)
{
	struct knob_ref *refs = NULL;
	size_t n = 0;
	char *cause = NULL;
	int r = knob_expand(ctx, e->w->addr, 0, &refs, &n, &cause);
	bool ok = false;

	if (r == 0 && n == 1 && !strcmp(refs[0].target, e->w->target) &&
	    str_eq(refs[0].ident, e->w->ident ? e->w->ident : "")) {
		*out = refs[0];
		ok = true;
	} else if (r == 0 && n == 1 && knob_ref_ops(&refs[0])->replaced &&
		   !str_eq(refs[0].ident, e->w->ident ? e->w->ident : "")) {
		knob_ref_ops(&refs[0])->replaced(&refs[0], e->w->ident, why, cap);
	} else if (r == 0) {
		snprintf(why, cap, "it now resolves to something else");
	} else {
		snprintf(why, cap, "%s", cause ? cause : err_name(r));
	}
	free(cause);
	free(refs);
	return ok;
}

/* ---- undo_run in steps: select the entries, then per entry (newest first)
 * resolve, read, decide whether it is still ours, put the old value back */

/* Which entries the call undoes (sel[i]). 0, or -ENOENT for an unknown id. */
static int select_entries(struct knob_ctx *ctx, struct jent *e, size_t ne, bool *sel,
			  enum sel_mode mode, const char *run, uint64_t id, unsigned count,
			  char **cause)
{
	if (mode == SEL_ID) {
		uint64_t txn = 0;

		for (size_t i = 0; i < ne; i++)
			if (e[i].w->seq == id || e[i].w->txn == id)
				txn = e[i].w->txn;
		if (!txn) {
			knob_cause(cause, "no change %llu in the journal %s",
				   (unsigned long long)id, ctx->j.path);
			return -ENOENT;
		}
		for (size_t i = 0; i < ne; i++)
			if (e[i].w->txn == txn && mine(ctx, &e[i]))
				sel[i] = true;
	} else if (mode == SEL_LAST) {
		unsigned taken = 0;
		uint64_t last = 0;

		for (size_t i = ne; i-- > 0;) {
			if (!mine(ctx, &e[i]))
				continue;
			if (e[i].w->txn != last) {
				if (taken == count)
					break;
				taken++;
				last = e[i].w->txn;
			}
			sel[i] = true;
		}
	} else if (mode == SEL_ORPHANS) {
		for (size_t i = 0; i < ne; i++)
			sel[i] = mine(ctx, &e[i]) && orphaned(ctx, &e[i]);
	} else {
		for (size_t i = 0; i < ne; i++)
			sel[i] = mine(ctx, &e[i]) && (mode == SEL_ALL || str_eq(e[i].w->run, run));
	}
	return 0;
}

/* One entry being undone. */
struct undo_item {
	struct jent *x;
	struct knob_ref ref;
	const struct knob_ops *ops;
	char file[TT_PATH_MAX];
	char cur[KNOB_VALUE_MAX], raw[4096];
	size_t rawlen;
};

/* A lease (cpu_dma_latency): released, unless another live run holds it.
 * 1 when it failed. */
static int release_lease(struct knob_ctx *ctx, struct undo_item *it, bool dry, struct sbuf *report,
			 char **cause)
{
	struct jent *x = it->x;
	char line[2 * TT_PATH_MAX];
	int er;

	if (knob_run_alive(x->w->run) && strcmp(x->w->run, ctx->run_id)) {
		if (report)
			sbuf_printf(report,
				    "%s: held by running pid %d; the kernel drops it when that "
				    "process exits\n",
				    x->w->addr, x->w->pid);
		return 0;
	}
	if (dry) {
		sbuf_printf(report, "# release %s (%s back to %s)\n", it->file, x->w->addr, x->old);
		return 0;
	}
	er = it->ops->restore(ctx, &it->ref, x->old, x->raw, x->rawlen);
	if (er) {
		snprintf(line, sizeof(line), "%s: %s from %s: could not release", x->w->addr,
			 err_name(er), it->file);
		knob_cause_add(cause, line);
		return 1;
	}
	close_entry(ctx, x, "released");
	if (report)
		sbuf_printf(report, "%s: released (back to %s)\n", x->w->addr, x->old);
	return 0;
}

/* The knob's current value into it->cur (and raw). 0 read; 1 vanished
 * (dropped); -1 failed (cause says why). */
static int read_current(struct knob_ctx *ctx, struct undo_item *it, bool dry, struct sbuf *report,
			char **cause)
{
	struct jent *x = it->x;
	char line[2 * TT_PATH_MAX];
	int er;

	/* a writer killed before its rename left a temporary file */
	if (!dry && !ctx->root->live && knob_ops_is_file(it->ops) && it->ref.target[0])
		sysfs_write_cleanup(ctx->root, it->ref.target);
	er = it->ops->read(ctx, &it->ref, it->cur, sizeof(it->cur), it->raw, sizeof(it->raw),
			   &it->rawlen);
	if (er == -ENOENT) {
		if (report)
			sbuf_printf(report, "%s: target vanished (%s gone); dropped\n", x->w->addr,
				    it->file);
		if (!dry)
			close_entry(ctx, x, "vanished");
		return 1;
	}
	if (er == -EXDEV || er == -EFBIG) {
		snprintf(line, sizeof(line), "%s: %s: %s; cannot restore it", x->w->addr, it->file,
			 sysfs_why(er));
		knob_cause_add(cause, line);
		return -1;
	}
	if (er) {
		snprintf(line, sizeof(line), "%s: %s from %s: cannot read the current value",
			 x->w->addr, err_name(er), it->file);
		knob_cause_add(cause, line);
		return -1;
	}
	return 0;
}

/* Someone else changed it since (newer: a later tunetop change of the same
 * target, 0 = not tunetop): the refusal line. */
static void refuse_changed(const struct undo_item *it, uint64_t newer, char **cause)
{
	const struct jent *x = it->x;
	char line[2 * TT_PATH_MAX];

	if (newer)
		snprintf(line, sizeof(line),
			 "%s: changed since by change %llu (now %s); undo that first, or use "
			 "--force",
			 x->w->addr, (unsigned long long)newer, it->cur);
	else
		snprintf(line, sizeof(line),
			 "%s: changed by someone else since (now %s, tunetop wrote %s); left alone "
			 "(use --force to restore %s)",
			 x->w->addr, it->cur[0] ? it->cur : "empty", x->w->new_value, x->old);
	knob_cause_add(cause, line);
}

/* Write the old value back, check it, close the entry. 1 when it failed. */
static int put_back(struct knob_ctx *ctx, struct undo_item *it, bool ours, bool cut,
		    struct sbuf *report, char **cause)
{
	struct jent *x = it->x;
	char line[2 * TT_PATH_MAX], back[KNOB_VALUE_MAX];
	int er = it->ops->restore(ctx, &it->ref, x->old, x->raw, x->rawlen);

	if (er) {
		snprintf(line, sizeof(line), "%s: %s from %s: could not restore '%s'", x->w->addr,
			 err_name(er), it->file, x->old);
		knob_cause_add(cause, line);
		return 1;
	}
	if (it->ops->read(ctx, &it->ref, back, sizeof(back), NULL, 0, NULL) == 0 &&
	    strcmp(back, x->old) && report)
		sbuf_printf(report, "note: %s: restored %s, the kernel reports %s\n", x->w->addr,
			    x->old, back);
	close_entry(ctx, x, cut ? "repaired" : ours ? "restored" : "restored (forced)");
	if (report)
		sbuf_printf(report, "%s: %s -> %s (%s)\n", x->w->addr,
			    cut ? "(cut short)" : it->cur, x->old, cut ? "repaired" : "restored");
	return 0;
}

/* Stacking: the entry's owner leaves while a later entry of another owner
 * (e[h]) still holds the same knob. The knob stays at the later value; the
 * later entry inherits this one's true original (a U record "handed over"
 * with to=its seq), so that the last owner out puts the board back. */
static void hand_over(struct knob_ctx *ctx, struct jent *x, struct jent *h, bool dry,
		      struct sbuf *report)
{
	if (dry) {
		if (report)
			sbuf_printf(report,
				    "# %s: left as it is (held by change %llu, pid %d %s)\n",
				    x->w->addr, (unsigned long long)h->w->txn, h->w->pid,
				    h->w->kind ? h->w->kind : "tunetop");
		return;
	}
	close_entry_to(ctx, x, "handed over", h->w->seq);
	if (report)
		sbuf_printf(report,
			    "%s: left at %s, held by change %llu (pid %d %s), which now restores "
			    "it to %s\n",
			    x->w->addr, h->w->new_value, (unsigned long long)h->w->txn, h->w->pid,
			    h->w->kind ? h->w->kind : "tunetop", x->old);
	h->old = x->old;
	h->raw = x->raw;
	h->rawlen = x->rawlen;
	h->heir_of = x->w->seq;
}

/* The run leaves x in place on purpose (someone else's value stands): a K
 * record of x's run, so that x is kept, not an orphan, once the run ends. */
static void keep_left(struct knob_ctx *ctx, const struct jent *x)
{
	struct jrec k = {.type = 'K'};
	char run[64];

	str_copy(run, sizeof(run), x->w->run);
	k.ref = x->w->seq;
	k.pid = (int)getpid();
	k.start = ctx->start;
	k.kind = ctx->kind;
	k.run = run;
	journal_append(&ctx->j, &k, false);
}

/* e[i] has an earlier entry of its own run on the same knob that this call
 * undoes too: e[i] is closed without a write and the earlier entry, which
 * holds the original, puts it back directly (expecting e[i]'s value). */
static bool fold(struct knob_ctx *ctx, struct jent *e, const bool *sel, size_t i, bool dry,
		 struct sbuf *report)
{
	struct jent *x = &e[i];

	for (size_t k = i; k-- > 0;) {
		if (!sel[k] || !mine(ctx, &e[k]) || strcmp(e[k].w->target, x->w->target))
			continue;
		if (!str_eq(e[k].w->run, x->w->run))
			return false;
		e[k].fold_new = x->fold_new ? x->fold_new : x->w->new_value;
		e[k].fold_readback = x->fold_new ? x->fold_readback : x->readback;
		if (!dry)
			close_entry(ctx, x, "folded");
		else if (report)
			sbuf_printf(report, "# %s: restored with change %llu\n", x->w->addr,
				    (unsigned long long)e[k].w->txn);
		return true;
	}
	return false;
}

/* Undo e[i]. 1 when it failed (cause says why), else 0. stack: an owner
 * leaves (restore of a run, of orphans): the next later holder of the same
 * knob keeps it and inherits the original (hand_over) instead of a refusal.
 * An undo (ID, last) hands over only to a live scoped owner. */
static int undo_entry(struct knob_ctx *ctx, struct jent *e, size_t ne, const bool *sel, size_t i,
		      unsigned flags, bool stack, struct sbuf *report, char **cause)
{
	struct undo_item *it = xcalloc(1, sizeof(*it));
	struct jent *x = &e[i];
	char why[512];
	uint64_t newer = 0;
	bool dry = flags & KNOB_DRY_RUN, ours, cut = false;
	int rc = 0;

	it->x = x;
	if (!resolve(ctx, x, &it->ref, why, sizeof(why))) {
		if (report)
			sbuf_printf(report, "%s: target vanished (%s); dropped\n", x->w->addr, why);
		if (!dry)
			close_entry(ctx, x, "vanished");
		goto out;
	}
	it->ops = knob_ref_ops(&it->ref);
	knob_abspath(ctx, it->ref.target, it->file, sizeof(it->file));
	if (it->ref.def->flags & KD_LEASE) {
		rc = release_lease(ctx, it, dry, report, cause);
		goto out;
	}
	for (size_t k = i + 1; k < ne; k++) {
		if (sel[k] || !mine(ctx, &e[k]) || strcmp(e[k].w->target, x->w->target))
			continue;
		/* an undo hands over only to a live owner that restores its own
		 * change (exec, TUI): a newer manual change is refused below */
		if (stack || (e[k].w->scoped && !str_eq(e[k].w->run, ctx->run_id) &&
			      knob_owner_alive(ctx, e[k].w->boot, e[k].w->run))) {
			hand_over(ctx, x, &e[k], dry, report);
			goto out;
		}
		break;
	}
	if (fold(ctx, e, sel, i, dry, report))
		goto out;
	rc = read_current(ctx, it, dry, report, cause);
	if (rc) {
		rc = rc < 0;
		goto out;
	}
	for (size_t k = i + 1; k < ne; k++)
		if (!sel[k] && mine(ctx, &e[k]) && !strcmp(e[k].w->target, x->w->target))
			newer = e[k].w->txn;
	if (!strcmp(it->cur, x->old) &&
	    !(it->rawlen < x->rawlen && !newer && torn(ctx, x, &it->ref, it->raw, it->rawlen))) {
		if (report)
			sbuf_printf(report, "%s: already %s\n", x->w->addr, x->old);
		if (!dry)
			close_entry(ctx, x, "already restored");
		goto out;
	}
	ours = !strcmp(it->cur, x->fold_new ? x->fold_new : x->w->new_value) ||
	       (x->fold_new ? x->fold_readback && !strcmp(it->cur, x->fold_readback)
			    : x->readback && !strcmp(it->cur, x->readback));
	if (!ours && !newer && torn(ctx, x, &it->ref, it->raw, it->rawlen)) {
		ours = cut = true;
		if (report)
			sbuf_printf(
				report, "note: %s: %s holds a write cut short (%s); repairing it\n",
				x->w->addr, it->file, it->rawlen ? "a part of the value" : "empty");
	}
	if (!ours) {
		if (!(flags & KNOB_FORCE)) {
			refuse_changed(it, newer, cause);
			if ((flags & KNOB_KEEP_CHANGED) && !dry)
				keep_left(ctx, x);
			rc = 1;
			goto out;
		}
		if (report)
			sbuf_printf(report,
				    "note: %s: changed by someone else since (now %s); restoring "
				    "anyway (--force)\n",
				    x->w->addr, it->cur);
	}
	if (dry)
		sbuf_printf(report, "echo %s > %s   # %s: %s -> %s\n", x->old, it->file, x->w->addr,
			    it->cur, x->old);
	else
		rc = put_back(ctx, it, ours, cut, report, cause);
out:
	free(it);
	return rc;
}

static int undo_run(struct knob_ctx *ctx, enum sel_mode mode, const char *run, uint64_t id,
		    unsigned count, unsigned flags, struct sbuf *report, char **cause)
{
	struct jrec *r = NULL;
	size_t n = 0, ne = 0, nsel = 0;
	struct jent *e;
	bool *sel;
	int fails = 0, rc, lk = 0;
	bool dry = flags & KNOB_DRY_RUN;

	if (cause) { /* NULL or an earlier cause: replaced */
		free(*cause);
		*cause = NULL;
	}
	if (!dry) {
		lk = knob_op_lock(ctx, report, cause);
		if (lk)
			return lk;
	} else if (!ctx->state_dir) {
		knob_cause(cause, "read-only: %s", ctx->ro_why ? ctx->ro_why : "no journal");
		return -EROFS;
	}
	rc = journal_load(ctx->j.path, &r, &n, NULL);
	if (rc) {
		knob_cause(cause, "cannot read journal %s: %s", ctx->j.path, strerror(-rc));
		if (!dry)
			knob_op_unlock(ctx);
		return rc;
	}
	e = build(r, n, &ne);
	sel = xcalloc(ne ? ne : 1, sizeof(bool));
	rc = select_entries(ctx, e, ne, sel, mode, run, id, count, cause);
	for (size_t i = 0; i < ne && !rc; i++)
		nsel += sel[i];
	if (!rc && !nsel && report && mode != SEL_RUN)
		sbuf_printf(report, "nothing to %s\n",
			    mode == SEL_ALL	  ? "restore"
			    : mode == SEL_ORPHANS ? "restore: no orphaned changes"
						  : "undo");
	/* newest first */
	for (size_t i = ne; !rc && nsel && i-- > 0;)
		if (sel[i])
			fails += undo_entry(ctx, e, ne, sel, i, flags,
					    mode == SEL_RUN || mode == SEL_ORPHANS, report, cause);
	if (fails)
		rc = -EIO;
	if (!dry) {
		journal_sync(&ctx->j);
		knob_op_unlock(ctx);
	}
	free(sel);
	free(e);
	jrec_free_all(r, n);
	return rc;
}

int knob_undo_last(struct knob_ctx *ctx, unsigned count, unsigned flags, struct sbuf *report,
		   char **cause)
{
	return undo_run(ctx, SEL_LAST, NULL, 0, count ? count : 1, flags, report, cause);
}

int knob_undo_id(struct knob_ctx *ctx, uint64_t id, unsigned flags, struct sbuf *report,
		 char **cause)
{
	return undo_run(ctx, SEL_ID, NULL, id, 0, flags, report, cause);
}

int knob_restore_all(struct knob_ctx *ctx, unsigned flags, struct sbuf *report, char **cause)
{
	return undo_run(ctx, SEL_ALL, NULL, 0, 0, flags, report, cause);
}

int knob_restore_run(struct knob_ctx *ctx, const char *run_id, unsigned flags, struct sbuf *report,
		     char **cause)
{
	return undo_run(ctx, SEL_RUN, run_id ? run_id : ctx->run_id, 0, 0, flags, report, cause);
}

int knob_restore_orphans(struct knob_ctx *ctx, unsigned flags, struct sbuf *report, char **cause)
{
	return undo_run(ctx, SEL_ORPHANS, NULL, 0, 0, flags, report, cause);
}

int knob_keep_run(struct knob_ctx *ctx, const char *run_id, size_t *nkept, char **cause)
{
	struct jrec *r = NULL, k = {.type = 'K'};
	size_t n = 0, ne = 0, cnt = 0;
	struct jent *e;
	uint64_t newest = 0;
	char run[64];
	int rc;

	if (cause) {
		free(*cause);
		*cause = NULL;
	}
	if (nkept)
		*nkept = 0;
	str_copy(run, sizeof(run), run_id ? run_id : ctx->run_id);
	rc = knob_op_lock(ctx, NULL, cause);
	if (rc)
		return rc;
	rc = journal_load(ctx->j.path, &r, &n, NULL);
	if (rc) {
		knob_cause(cause, "cannot read journal %s: %s", ctx->j.path, strerror(-rc));
		knob_op_unlock(ctx);
		return rc;
	}
	e = build(r, n, &ne);
	for (size_t i = 0; i < ne; i++) {
		if (!str_eq(e[i].w->run, run) || e[i].kept ||
		    (e[i].state != KNOB_J_ACTIVE && e[i].state != KNOB_J_OPEN))
			continue;
		cnt++;
		newest = e[i].w->seq;
	}
	if (cnt) {
		k.ref = newest;
		k.pid = (int)getpid();
		k.start = ctx->start;
		k.kind = ctx->kind;
		k.run = run;
		/* durable before the process ends: the next start must not see
		 * these entries as left behind by a crash */
		rc = journal_append(&ctx->j, &k, true);
		if (rc)
			knob_cause(cause, "cannot record the kept changes in %s: %s", ctx->j.path,
				   strerror(-rc));
	}
	knob_op_unlock(ctx);
	free(e);
	jrec_free_all(r, n);
	if (!rc && nkept)
		*nkept = cnt;
	return rc;
}

/* ---- view ------------------------------------------------------------------- */

const char *knob_jstate_name(enum knob_jstate s)
{
	switch (s) {
	case KNOB_J_OPEN: return "open";
	case KNOB_J_ACTIVE: return "active";
	case KNOB_J_FAILED: return "failed";
	case KNOB_J_UNDONE: return "undone";
	case KNOB_J_OTHER_BOOT: return "other-boot";
	}
	return "?";
}

/* The E record's word, as knob_effect_name() wrote it (here, next to the
 * journal listing that reads it, so that undo.c does not call effect.c). */
enum knob_effect knob_effect_parse(const char *s)
{
	if (s && !strcmp(s, "verified"))
		return KNOB_EFFECT_VERIFIED;
	if (s && !strcmp(s, "not_seen"))
		return KNOB_EFFECT_NOT_SEEN;
	return KNOB_EFFECT_UNKNOWN;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

int knob_journal_list(struct knob_ctx *ctx, struct knob_jentry **out, size_t *n, int *torn,
		      char **cause)
{
	struct jrec *r = NULL;
	size_t nr = 0, ne = 0;
	struct jent *e;
	int rc;

	*out = NULL;
	*n = 0;
	if (torn)
		*torn = 0;
	if (!ctx->state_dir) {
		knob_cause(cause, "no journal: %s", ctx->ro_why ? ctx->ro_why : "no state dir");
		return -ENOENT;
	}
	rc = journal_load(ctx->j.path, &r, &nr, torn);
	if (rc) {
		knob_cause(cause, "cannot read journal %s: %s", ctx->j.path, strerror(-rc));
		return rc;
	}
	e = build(r, nr, &ne);
	*out = xcalloc(ne ? ne : 1, sizeof(**out));
	for (size_t i = 0; i < ne; i++) {
		struct knob_jentry *o = &(*out)[i];
		const struct jrec *w = e[i].w;

		o->id = w->seq;
		o->txn = w->txn;
		o->time_ns = w->time_ns;
		o->run = dup_or_null(w->run);
		o->boot_id = dup_or_null(w->boot);
		o->root = dup_or_null(w->root);
		o->addr = dup_or_null(w->addr);
		o->target = dup_or_null(w->target);
		o->ident = dup_or_null(w->ident);
		o->old = dup_or_null(e[i].old);
		o->recorded_old = dup_or_null(w->old);
		o->kind = dup_or_null(w->kind);
		o->start = w->start;
		o->inherited_from = e[i].heir_of;
		o->new_value = dup_or_null(w->new_value);
		o->readback = dup_or_null(e[i].readback);
		o->how = dup_or_null(e[i].how);
		o->effect = knob_effect_parse(e[i].effect);
		o->effect_evidence = dup_or_null(e[i].evidence);
		o->pid = w->pid;
		o->alive = knob_owner_alive(ctx, w->boot, w->run);
		o->this_root = str_eq(w->root, ctx->root->path);
		o->state = e[i].state;
		if (o->this_root && !str_eq(w->boot, ctx->boot_id) &&
		    (o->state == KNOB_J_OPEN || o->state == KNOB_J_ACTIVE))
			o->state = KNOB_J_OTHER_BOOT;
		o->scoped = w->scoped;
		o->kept = e[i].kept && o->state == KNOB_J_ACTIVE;
		o->orphaned = !o->alive && (o->state == KNOB_J_OPEN ||
					    (o->state == KNOB_J_ACTIVE && w->scoped && !o->kept));
	}
	*n = ne;
	free(e);
	jrec_free_all(r, nr);
	return 0;
}

void knob_journal_free(struct knob_jentry *e, size_t n)
{
	for (size_t i = 0; e && i < n; i++) {
		struct knob_jentry *j = &e[i];

		xfree_all(j->run, j->boot_id, j->root, j->addr, j->target, j->ident, j->old,
			  j->recorded_old, j->kind, j->new_value, j->readback, j->how,
			  j->effect_evidence);
	}
	free(e);
}

int knob_orphans(struct knob_ctx *ctx, size_t *nchanges, size_t *nowners, char *owners, size_t cap)
{
	struct knob_jentry *e = NULL;
	size_t n = 0, len = 0;
	char *seen = NULL; /* "|run|run|" */
	int rc;

	*nchanges = *nowners = 0;
	if (owners && cap)
		owners[0] = '\0';
	if (!ctx->state_dir)
		return 0;
	rc = knob_journal_list(ctx, &e, &n, NULL, NULL);
	if (rc)
		return rc;
	seen = xstrdup("|");
	for (size_t i = 0; i < n; i++) {
		char key[80];

		if (!e[i].this_root || !e[i].orphaned || e[i].state == KNOB_J_OTHER_BOOT)
			continue;
		(*nchanges)++;
		snprintf(key, sizeof(key), "|%s|", e[i].run ? e[i].run : "?");
		if (strstr(seen, key))
			continue;
		{
			char *s = xasprintf("%s%s|", seen, key + 1);

			free(seen);
			seen = s;
		}
		(*nowners)++;
		if (owners && len < cap) {
			int k = snprintf(owners + len, cap - len, "%spid %d, %s", len ? "; " : "",
					 e[i].pid, e[i].kind ? e[i].kind : "tunetop");

			if (k > 0)
				len += (size_t)k;
		}
	}
	free(seen);
	knob_journal_free(e, n);
	return 0;
}

const char *knob_owner_state(const struct knob_owner *o)
{
	return o->alive ? "live" : o->orphaned ? "orphaned" : "exited";
}

void knob_journal_owners(const struct knob_jentry *e, size_t n, struct knob_owner **out,
			 size_t *nout)
{
	struct knob_owner *v = xcalloc(n ? n : 1, sizeof(*v));
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		struct knob_owner *o = NULL;

		if (!e[i].this_root || (e[i].state != KNOB_J_OPEN && e[i].state != KNOB_J_ACTIVE))
			continue;
		for (size_t m = 0; m < k && !o; m++)
			if (str_eq(v[m].run, e[i].run))
				o = &v[m];
		if (!o) {
			o = &v[k++];
			o->run = e[i].run;
			o->kind = e[i].kind ? e[i].kind : "tunetop";
			o->pid = e[i].pid;
			o->start = e[i].start;
			o->alive = e[i].alive;
		}
		o->active++;
		o->orphaned += e[i].orphaned;
	}
	*out = v;
	*nout = k;
}
