/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's glue to the knob engine: the status line, the journal as the
 * session sees it (its own changes, others', orphans), set / undo / restore
 * through knob_set_many() and friends (this code never writes a knob file
 * itself), the effect watch after a change, the crash-recovery offer at
 * start and the restore on exit. */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "model/explain.h"
#include "model/sim.h"
#include "sysfs/userfile.h"
#include "ui/tui.h"
#include "ui/tui_int.h"

/* ---- status line ---------------------------------------------------------- */

/* ---- changes and the knob engine ------------------------------------------ */

const char *tui_cannot_write(struct screen_ctx *sc)
{
	struct tui *t = tui_of(sc);

	if (!t->sc.knob)
		return t->sc.ro_why[0] ? t->sc.ro_why : "the knob engine is not available";
	if (t->readonly)
		return t->sc.ro_why;
	return t->busy_why; /* set by latency_run.c while an A/B runs */
}

bool tui_may_write(struct screen_ctx *sc)
{
	struct tui *t = tui_of(sc);
	const char *why = tui_cannot_write(&t->sc);

	if (why)
		tui_status(&t->sc, true, "Refused: %s", why);
	return !why;
}

void tui_reload_journal(struct screen_ctx *sc)
{
	struct tui *t = tui_of(sc);
	struct knob_jentry *e = NULL;
	size_t n = 0;
	int torn = 0;
	char *cause = NULL;
	const char *run;

	if (t->sc.replay) {
		/* the changes as recorded at the shown sample */
		if (t->sc.replay->have_cur)
			tui_replay_goto(t, t->sc.replay->idx);
		return;
	}
	free(t->sc.changes);
	t->sc.changes = NULL;
	t->sc.nchanges = t->nours = t->norphans = 0;
	if (!t->sc.knob)
		return;
	tui_record_poll(t); /* a change just made is an event of the recording now */
	if (knob_journal_list(t->sc.knob, &e, &n, &torn, &cause) != 0) {
		free(cause);
		return;
	}
	run = knob_ctx_run_id(t->sc.knob);
	t->sc.changes = xcalloc(n ? n : 1, sizeof(*t->sc.changes));
	for (size_t i = 0; i < n; i++) {
		struct tui_change *c = NULL;

		if (!e[i].this_root)
			continue;
		if (e[i].orphaned)
			t->norphans++;
		if (e[i].state != KNOB_J_ACTIVE)
			continue;
		/* one row per address: keep the oldest old value, the newest new one */
		for (size_t k = 0; k < t->sc.nchanges; k++)
			if (!strcmp(t->sc.changes[k].addr, e[i].addr))
				c = &t->sc.changes[k];
		if (!c) {
			c = &t->sc.changes[t->sc.nchanges++];
			str_copy(c->addr, sizeof(c->addr), e[i].addr);
			str_copy(c->old, sizeof(c->old), e[i].old ? e[i].old : "");
		}
		str_copy(c->new_value, sizeof(c->new_value), e[i].new_value ? e[i].new_value : "");
		c->txn = e[i].txn;
		c->watched = e[i].effect_evidence != NULL;
		c->effect = e[i].effect;
		str_copy(c->effect_evidence, sizeof(c->effect_evidence),
			 e[i].effect_evidence ? e[i].effect_evidence : "");
		if (run && e[i].run && !strcmp(run, e[i].run))
			c->ours = true;
	}
	for (size_t k = 0; k < t->sc.nchanges; k++)
		if (t->sc.changes[k].ours)
			t->nours++;
	knob_journal_free(e, n);
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		if (*s == '\n' && s[1])
			n++;
	return s ? n + 1 : 0;
}

/* A refusal too long for the status line loses its reason at the end:
 * "ADDR: ERR from FILE: could not write 'V': REASON; nothing changed"
 * becomes "ADDR=V: ERR: REASON" (the address names the knob; the file and
 * "nothing changed" are what "Refused" already says). */
static void brief_refusal(char *line, size_t cap)
{
	const char *nothing = "; nothing changed";
	size_t n = strlen(line), k = strlen(nothing);
	char *sep = strstr(line, ": "), *from, *cw, *q, out[1024];

	if (n > k && !strcmp(line + n - k, nothing))
		line[n - k] = '\0';
	from = sep ? strstr(sep, " from ") : NULL;
	cw = from ? strstr(from, ": could not write '") : NULL;
	q = cw ? strchr(cw + 19, '\'') : NULL;
	if (!q)
		return;
	*sep = *from = *q = '\0';
	/* line: ADDR, sep + 2: ERR, cw + 19: V, q + 1: ": REASON" or "" */
	snprintf(out, sizeof(out), "%s=%s: %s%s", line, cw + 19, sep + 2, q + 1);
	str_copy(line, cap, out);
}

int tui_set(struct screen_ctx *sc, const char *const *assign, size_t n, unsigned flags)
{
	struct tui *t = tui_of(sc);
	struct sbuf report;
	char *cause = NULL, line[TUI_STATUS_LEN];
	int e;

	if (!tui_may_write(&t->sc))
		return -EPERM;
	/* Scoped: this session restores them on exit, and if it dies first the
	 * next start sees them as orphaned. Under --keep they are meant to stay. */
	if (!t->sc.keep)
		flags |= KNOB_SCOPED;
	sbuf_init(&report);
	e = knob_set_many(t->sc.knob, assign, NULL, n, flags, &report, &cause);
	if (e) {
		char full[1024];

		tui_first_line(cause, full, sizeof(full));
		if ((int)strlen(full) + 9 > COLS)
			brief_refusal(full, sizeof(full));
		str_copy(line, sizeof(line), full);
		tui_status(&t->sc, true, "Refused: %s", line[0] ? line : err_name(e));
	} else {
		size_t nl = report.len ? count_lines(report.s) : 0;

		tui_first_line(report.s, line, sizeof(line));
		if (nl > 1)
			tui_status(&t->sc, false, "%s (+%zu more)  u undoes", line, nl - 1);
		else
			tui_status(&t->sc, false, "%s  u undoes", line[0] ? line : assign[0]);
	}
	free(cause);
	sbuf_free(&report);
	tui_reload_journal(&t->sc);
	if (!e && !(flags & KNOB_DRY_RUN)) {
		unsigned ms = knob_effect_default_ms();

		/* the thread table reads these threads' affinity, policy and
		 * uclamp again on its next read, not in their rotation turn */
		for (size_t i = 0; i < n; i++)
			thread_sampler_invalidate(&t->sc.sampler.threads, assign[i]);

		/* watch whether the kernel obeys; judged by tui_effect_poll() */
		knob_effect_free(t->eff_watch);
		t->eff_watch = ms ? knob_effect_begin(t->sc.knob) : NULL;
		t->eff_due_ns = time_mono_ns() + (uint64_t)ms * 1000000ull;
	}
	return e;
}

/* The line of a hold report the status line shows: with --hold=reassert
 * the write-back ("ADDR: found -> held (reasserted)", or "could not write
 * back") rather than the "changed outside tunetop" line before it. */
static const char *hold_headline(const char *rep)
{
	const char *p = strstr(rep, "(reasserted)");

	if (!p)
		p = strstr(rep, ": could not write back ");
	if (!p)
		return rep;
	while (p > rep && p[-1] != '\n')
		p--;
	return p;
}

/* Each second: this session's active changes are read again (knob/hold.h)
 * and a value written over outside tunetop is reported on the status line,
 * and under --hold=reassert written back (a journaled change of this
 * session). --hold=off watches nothing. */
void tui_hold_poll(struct tui *t, uint64_t now)
{
	struct sbuf rep;
	unsigned before;

	if (!t->sc.knob || t->readonly || t->sc.replay || t->sc.hold_mode == KNOB_HOLD_OFF ||
	    now < t->hold_due_ns)
		return;
	t->hold_due_ns = now + 1000000000ull;
	if (!t->sc.nchanges && !t->sc.hold)
		return;
	if (!t->sc.hold)
		t->sc.hold = knob_hold_begin(t->sc.knob, NULL, 0, t->sc.hold_mode);
	knob_hold_sync_run(t->sc.knob, t->sc.hold);
	before = knob_hold_reasserted(t->sc.hold);
	sbuf_init(&rep);
	knob_hold_check(t->sc.knob, t->sc.hold, &rep);
	if (rep.len) {
		char line[TUI_STATUS_LEN];
		size_t nl = count_lines(rep.s);

		tui_first_line(hold_headline(rep.s), line, sizeof(line));
		if (nl > 1)
			tui_status(&t->sc, true, "%s (+%zu more)", line, nl - 1);
		else
			tui_status(&t->sc, true, "%s", line);
		/* a lock that no longer holds is not a passing note: it stays
		 * until a key is pressed (at most a minute; the header counts it) */
		t->status_sticky = true;
		t->status_until_ns = time_mono_ns() + 60 * 1000000000ULL;
	}
	sbuf_free(&rep);
	if (knob_hold_reasserted(t->sc.hold) != before)
		tui_reload_journal(&t->sc); /* the write-backs are entries of this session */
}

/* After a restore that returned e (restore on exit, Restore all): a
 * --hold=reassert write-back is a change of this session whose old value is
 * the one found outside, so the first pass leaves that value, which the
 * session's first change then sees as "changed by someone else": a second,
 * forced pass over this session's remaining entries puts back the value
 * from before the session, as exec does. */
static int restore_reasserted(struct tui *t, int e, unsigned flags, struct sbuf *report,
			      char **cause)
{
	if (e && knob_hold_reasserted(t->sc.hold) > 0) {
		free(*cause);
		*cause = NULL;
		e = knob_restore_run(t->sc.knob, knob_ctx_run_id(t->sc.knob), flags | KNOB_FORCE,
				     report, cause);
	}
	return e;
}

/* The watch of the last change, once its time is up: a change the kernel
 * does not obey says so on the status line (and in the Journal screen). */
void tui_effect_poll(struct tui *t, uint64_t now)
{
	struct sbuf rep;

	if (!t->eff_watch || now < t->eff_due_ns)
		return;
	sbuf_init(&rep);
	if (knob_effect_end(t->sc.knob, t->eff_watch, KNOB_QUIET, &rep) > 0) {
		char line[TUI_STATUS_LEN];
		size_t nl = count_lines(rep.s);

		tui_first_line(rep.s, line, sizeof(line));
		if (nl > 1)
			tui_status(&t->sc, true, "%s (+%zu more)", line, nl - 1);
		else
			tui_status(&t->sc, true, "%s", line);
	}
	sbuf_free(&rep);
	knob_effect_free(t->eff_watch);
	t->eff_watch = NULL;
	tui_reload_journal(&t->sc);
}

int tui_set1(struct screen_ctx *sc, const char *fmt, ...)
{
	struct tui *t = tui_of(sc);
	char buf[KNOB_ADDR_MAX + KNOB_VALUE_MAX];
	const char *a[1] = {buf};
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return tui_set(&t->sc, a, 1, 0);
}

static const char *held_value(const struct knob_jentry *e)
{
	return e->readback ? e->readback : e->new_value;
}

/* --hold=reassert: when the change u undoes is a write-back (a change of
 * this session whose old value is not what the session's previous change of
 * that knob left, but the value found outside), undoing it alone brings that
 * value back and the next round writes it again. Fills txn with the
 * session's earlier changes of the knob down to the user's own one (newest
 * first), to undo after it, forced (their value is the one found outside);
 * returns how many. */
static size_t writeback_chain(struct tui *t, uint64_t *txn, size_t cap)
{
	struct knob_jentry *e = NULL;
	size_t n = 0, k = 0, cur = SIZE_MAX;
	const char *run = knob_ctx_run_id(t->sc.knob);

	if (!knob_hold_reasserted(t->sc.hold) || !run ||
	    knob_journal_list(t->sc.knob, &e, &n, NULL, NULL) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) /* the newest active change: the one u undoes */
		if (e[i].this_root && e[i].state == KNOB_J_ACTIVE &&
		    (cur == SIZE_MAX || e[i].txn >= e[cur].txn))
			cur = i;
	while (cur != SIZE_MAX && k < cap && e[cur].run && !strcmp(e[cur].run, run) &&
	       e[cur].addr && e[cur].old) {
		size_t prev = SIZE_MAX;

		for (size_t i = 0; i < cur; i++)
			if (e[i].this_root && e[i].state == KNOB_J_ACTIVE && e[i].run &&
			    !strcmp(e[i].run, run) && e[i].addr &&
			    !strcmp(e[i].addr, e[cur].addr) && held_value(&e[i]))
				prev = i;
		if (prev == SIZE_MAX || !strcmp(e[cur].old, held_value(&e[prev])))
			break; /* the session's own change, not a write-back */
		txn[k++] = e[prev].txn;
		cur = prev;
	}
	knob_journal_free(e, n);
	return k;
}

/* Whether an undo or a restore may start: not when this session cannot
 * write (*e = -EPERM) or has changed nothing (*e = 0, "Nothing to undo"),
 * both said on the status line. */
static bool revert_may_start(struct tui *t, const char *what, int *e)
{
	*e = -EPERM;
	if (!tui_may_write(&t->sc))
		return false;
	*e = 0;
	if (!t->sc.nchanges)
		tui_status(&t->sc, false, "Nothing to %s", what);
	return t->sc.nchanges > 0;
}

/* The end of an undo or a restore (e from the engine): a failure's first
 * line on the status line ("Undo failed: ..."), after a success the threads
 * read again (their attributes may be back); the journal reloaded. */
static int revert_end(struct tui *t, int e, const char *what, char *cause, struct sbuf *report)
{
	char line[TUI_STATUS_LEN];

	if (e) {
		tui_first_line(cause, line, sizeof(line));
		tui_status(&t->sc, true, "%s failed: %s", what, line[0] ? line : err_name(e));
	} else {
		thread_sampler_invalidate(&t->sc.sampler.threads, NULL);
	}
	free(cause);
	sbuf_free(report);
	tui_reload_journal(&t->sc);
	return e;
}

int tui_undo_last(struct screen_ctx *sc)
{
	struct tui *t = tui_of(sc);
	struct sbuf report;
	char *cause = NULL, line[TUI_STATUS_LEN];
	uint64_t chain[16];
	size_t nchain;
	int e;

	if (!revert_may_start(t, "undo", &e))
		return e;
	nchain = writeback_chain(t, chain, sizeof(chain) / sizeof(chain[0]));
	sbuf_init(&report);
	e = knob_undo_last(t->sc.knob, 1, 0, &report, &cause);
	for (size_t i = 0; !e && i < nchain; i++) {
		sbuf_reset(&report); /* the status line shows the value put back */
		e = knob_undo_id(t->sc.knob, chain[i], KNOB_FORCE, &report, &cause);
	}
	if (!e) {
		size_t nl = report.len ? count_lines(report.s) : 0;

		tui_first_line(report.s, line, sizeof(line));
		if (nl > 1)
			tui_status(&t->sc, false, "Undone: %s (+%zu more)", line, nl - 1);
		else
			tui_status(&t->sc, false, "Undone: %s", line[0] ? line : "last change");
	}
	return revert_end(t, e, "Undo", cause, &report);
}

int tui_restore_all(struct tui *t, bool ask)
{
	struct sbuf report;
	char *cause = NULL, text[200];
	static const char *const buttons[] = {"Restore", "Cancel"};
	int e;

	if (!revert_may_start(t, "restore", &e))
		return e;
	if (ask) {
		snprintf(text, sizeof(text),
			 "Put back the original value of %zu changed knob%s\n"
			 "(newest first, as recorded in the journal)?",
			 t->sc.nchanges, t->sc.nchanges == 1 ? "" : "s");
		if (ui_choice(&t->sc, "Restore all", text, buttons, 2, 0) != 0) {
			tui_status(&t->sc, false, "Restore cancelled");
			return 0;
		}
	}
	sbuf_init(&report);
	e = knob_restore_all(t->sc.knob, 0, &report, &cause);
	e = restore_reasserted(t, e, 0, &report, &cause);
	if (!e)
		tui_status(&t->sc, false, "Restored %zu change%s", t->sc.nchanges,
			   t->sc.nchanges == 1 ? "" : "s");
	return revert_end(t, e, "Restore", cause, &report);
}

/* ---- startup: orphaned entries ------------------------------------------------ */

void tui_offer_orphans(struct tui *t)
{
	static const char *const buttons[] = {"Restore them", "Leave them"};
	struct knob_jentry *e = NULL;
	size_t n = 0, cnt = 0;
	int torn = 0, pid = 0;
	char *cause = NULL, text[300];

	if (t->sc.knob && t->readonly && t->norphans) {
		tui_status(
			&t->sc, true,
			"%zu change%s left by a tunetop that died; read-only, so not restored (%s)",
			t->norphans, t->norphans == 1 ? "" : "s", t->sc.ro_why);
		return;
	}
	if (!t->sc.knob || t->readonly ||
	    knob_journal_list(t->sc.knob, &e, &n, &torn, &cause) != 0) {
		free(cause);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (e[i].this_root && e[i].orphaned && e[i].state == KNOB_J_ACTIVE) {
			cnt++;
			pid = e[i].pid;
		}
	if (cnt) {
		snprintf(text, sizeof(text),
			 "%zu change%s made by a tunetop that ended without restoring\n"
			 "(pid %d: crashed or killed) %s still in place.\n"
			 "Restore the original values now?",
			 cnt, cnt == 1 ? "" : "s", pid, cnt == 1 ? "is" : "are");
		if (ui_choice(&t->sc, "Changes left behind", text, buttons, 2, 0) == 0) {
			for (size_t i = 0; i < n; i++) {
				struct sbuf rep;

				if (!(e[i].this_root && e[i].orphaned &&
				      e[i].state == KNOB_J_ACTIVE))
					continue;
				sbuf_init(&rep);
				knob_restore_run(t->sc.knob, e[i].run, 0, &rep, &cause);
				sbuf_free(&rep);
				free(cause);
				cause = NULL;
				/* entries of the same run are now undone */
				for (size_t k = i + 1; k < n; k++)
					if (e[k].run && e[i].run && !strcmp(e[k].run, e[i].run))
						e[k].state = KNOB_J_UNDONE;
			}
			tui_status(&t->sc, false, "Restored %zu change%s left by pid %d", cnt,
				   cnt == 1 ? "" : "s", pid);
		} else {
			tui_status(&t->sc, false,
				   "Left %zu change%s in place ('tunetop restore' or U later)", cnt,
				   cnt == 1 ? "" : "s");
		}
	}
	knob_journal_free(e, n);
	tui_reload_journal(&t->sc);
}

void tui_restore_on_exit(struct tui *t, struct sbuf *msg)
{
	struct sbuf report;
	char *cause = NULL;
	int e;

	if (!t->sc.knob || t->readonly || !t->nours)
		return;
	if (t->sc.keep) {
		/* recorded, so that the next start does not take them for the
		 * leftovers of a crash */
		e = knob_keep_run(t->sc.knob, NULL, NULL, &cause);
		if (e)
			sbuf_printf(msg, "tunetop: %s\n", cause ? cause : err_name(e));
		sbuf_printf(msg, "tunetop: kept %zu change%s (undo with 'tunetop restore')\n",
			    t->nours, t->nours == 1 ? "" : "s");
		free(cause);
		return;
	}
	sbuf_init(&report);
	e = knob_restore_run(t->sc.knob, knob_ctx_run_id(t->sc.knob), KNOB_QUIET, &report, &cause);
	e = restore_reasserted(t, e, KNOB_QUIET, &report, &cause);
	if (e)
		sbuf_printf(msg, "tunetop: restore failed: %s\n", cause ? cause : err_name(e));
	else
		sbuf_printf(msg, "tunetop: restored %zu change%s\n", t->nours,
			    t->nours == 1 ? "" : "s");
	free(cause);
	sbuf_free(&report);
}
