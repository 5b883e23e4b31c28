/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Journal screen: every change recorded in the write-ahead journal of
 * the state dir, newest first: time, transaction id, status (active, kept,
 * undone, failed, open, other boot), address, old -> new, and who made it
 * (this session, another live tunetop, a dead one: orphaned, or one that
 * quit keeping its changes), with the owner's kind (tui, exec, set...). A
 * line above the table lists the owners of the changes in place (live,
 * orphaned, exited). Actions: u undoes the selected change (its whole
 * transaction), U restores all after confirmation, O restores the orphaned
 * changes (owners that exited without restoring). The journal is read only
 * while this screen is shown, on every refresh: other owners' changes show
 * within one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/xalloc.h"
#include "model/replay.h"
#include "ui/tui.h"

struct jscreen {
	struct knob_jentry *e;
	size_t n;
	int torn;
	char err[160];
	/* a replay: the recorded events that had happened at the shown sample */
	const struct replay_event **ev;
	size_t nev, capev;
};

/* ---- a replay: the recording's journal events ------------------------------- */

static void replay_build(struct screen_ctx *t, struct screen *s, struct jscreen *j)
{
	const struct replay *r = t->replay->r;

	j->nev = 0;
	for (size_t i = 0; i < replay_nevents(r); i++) {
		const struct replay_event *e = replay_event(r, i);

		if (!tui_replay_event_shown(t, e))
			continue;
		j->ev = xgrow(j->ev, &j->capev, j->nev + 1, sizeof(*j->ev));
		j->ev[j->nev++] = e;
	}
	s->nrows = (int)j->nev;
	ui_scroll(s, t->body_h - s->heading_lines);
}

static void replay_draw(struct screen_ctx *t, struct screen *s, struct jscreen *j, int y, int h)
{
	int rows = h - s->heading_lines;

	ui_printf(t, y, 0, COLS, ROLE_LABEL,
		  "REPLAY: %zu journal event%s recorded up to this sample (of %zu in %s)", j->nev,
		  j->nev == 1 ? "" : "s", replay_nevents(t->replay->r), t->replay->path);
	ui_colhead(t, y + 1,
		   " Time      Kind    Status   Address                            Old -> "
		   "New          Note");
	ui_scroll(s, rows);
	for (int i = 0; i < rows && s->top + i < s->nrows; i++) {
		const struct replay_event *e = j->ev[j->nev - 1 - (size_t)(s->top + i)];
		int yy = y + s->heading_lines + i, x = 0;
		bool sel = s->top + i == s->sel;
		enum role base = sel ? ROLE_CURSOR : ROLE_VALUE;
		char tm[16] = "?", ov[300];
		time_t secs = (time_t)(e->at_ns / 1000000000ULL);
		struct tm lt;

		ui_fill(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
		if (localtime_r(&secs, &lt))
			strftime(tm, sizeof(tm), "%H:%M:%S", &lt);
		if (e->old_value[0] || e->new_value[0])
			snprintf(ov, sizeof(ov), "%s -> %s", e->old_value[0] ? e->old_value : "?",
				 e->new_value[0] ? e->new_value : "?");
		else
			ov[0] = '\0';
		x += ui_printf(t, yy, x, COLS - x, base, " %-8s  %-7.7s ", tm, e->kind);
		x += ui_printf(t, yy, x, COLS - x,
			       sel			     ? ROLE_CURSOR
			       : !strcmp(e->state, "active") ? ROLE_CHANGED
			       : !strcmp(e->state, "failed") ? ROLE_ALERT
							     : base,
			       "%-8.8s ", e->state[0] ? e->state : "-");
		x += ui_printf(t, yy, x, COLS - x, base, "%-34.34s %-19.19s ", e->addr, ov);
		ui_put(t, yy, x, COLS - x, sel ? ROLE_CURSOR : ROLE_LABEL, e->text);
	}
	if (!s->nrows)
		ui_put(t, y + 2, 1, COLS - 1, ROLE_LABEL,
		       "No journal events recorded up to this sample.");
}

static void jfree(struct jscreen *j)
{
	if (j->e)
		knob_journal_free(j->e, j->n);
	j->e = NULL;
	j->n = 0;
}

void screen_journal_build(struct screen_ctx *t, struct screen *s)
{
	struct jscreen *j = s->priv;
	char *cause = NULL;

	if (!j)
		j = s->priv = xcalloc(1, sizeof(*j));
	s->heading_lines = t->replay ? 2 : 3;
	if (t->replay) {
		replay_build(t, s, j);
		return;
	}
	if (&t->screens[t->cur] != s && j->e)
		return; /* only while shown */
	jfree(j);
	j->err[0] = '\0';
	if (!t->knob) {
		snprintf(j->err, sizeof(j->err), "no journal: %s", t->ro_why);
	} else if (knob_journal_list(t->knob, &j->e, &j->n, &j->torn, &cause) != 0) {
		snprintf(j->err, sizeof(j->err), "journal unreadable: %s", cause ? cause : "?");
		j->e = NULL;
		j->n = 0;
	}
	free(cause);
	s->nrows = (int)j->n;
	ui_scroll(s, t->body_h - s->heading_lines);
}

void screen_journal_free(struct screen *s)
{
	struct jscreen *j = s->priv;

	if (j) {
		jfree(j);
		free(j->ev);
	}
	free(j);
	s->priv = NULL;
}

static enum role state_role(const struct knob_jentry *e)
{
	switch (e->state) {
	case KNOB_J_ACTIVE: return ROLE_CHANGED;
	case KNOB_J_FAILED: return ROLE_ALERT;
	case KNOB_J_OPEN: return ROLE_WARN;
	case KNOB_J_OTHER_BOOT: return ROLE_VALUE_NA;
	default: return ROLE_VALUE;
	}
}

void screen_journal_draw(struct screen_ctx *t, struct screen *s, int y, int h)
{
	struct jscreen *j = s->priv;
	const char *dir = t->knob ? knob_ctx_state_dir(t->knob) : NULL;
	int rows;

	ui_fill(t, y, 0, COLS, ROLE_DEFAULT);
	if (j && t->replay) {
		replay_draw(t, s, j, y, h);
		return;
	}
	if (!j || j->err[0]) {
		ui_printf(t, y, 0, COLS, ROLE_VALUE_NA, "%s", j ? j->err : "no journal");
		return;
	}
	ui_printf(t, y, 0, COLS, ROLE_LABEL,
		  "%zu record%s in %s/journal%s%s   u: undo selected   U: restore all", j->n,
		  j->n == 1 ? "" : "s", dir ? dir : "?", j->torn ? "  (torn lines skipped: " : "",
		  j->torn ? "crash)" : "");
	{ /* the owners of the changes in place */
		struct knob_owner *own = NULL;
		size_t nown = 0;
		const char *me = t->knob ? knob_ctx_run_id(t->knob) : NULL;
		int x = 0;

		knob_journal_owners(j->e, j->n, &own, &nown);
		x += ui_printf(t, y + 1, x, COLS - x, ROLE_LABEL, "Owners:");
		if (!nown)
			ui_printf(t, y + 1, x, COLS - x, ROLE_VALUE_NA, " none (nothing in place)");
		for (size_t i = 0; i < nown && x < COLS; i++)
			x += ui_printf(t, y + 1, x, COLS - x,
				       own[i].orphaned ? ROLE_ALERT
				       : own[i].alive  ? ROLE_CHANGED
						       : ROLE_VALUE,
				       " pid %d %s %s (%zu)%s%s", own[i].pid, own[i].kind,
				       me && own[i].run && !strcmp(me, own[i].run)
					       ? "this session"
					       : knob_owner_state(&own[i]),
				       own[i].active, own[i].orphaned ? " O: restore" : "",
				       i + 1 < nown ? "," : "");
		free(own);
	}
	ui_colhead(t, y + 2,
		   " Time      Txn  Status   Address                            Old -> "
		   "New          Effect    By");
	rows = h - s->heading_lines;
	ui_scroll(s, rows);
	for (int i = 0; i < rows && s->top + i < s->nrows; i++) {
		/* newest first */
		const struct knob_jentry *e = &j->e[j->n - 1 - (size_t)(s->top + i)];
		int yy = y + s->heading_lines + i, x = 0;
		bool sel = s->top + i == s->sel;
		enum role base = sel ? ROLE_CURSOR : ROLE_VALUE;
		char tm[16], by[64], ov[96];
		const char *kind = e->kind ? e->kind : "";
		time_t secs = (time_t)(e->time_ns / 1000000000ULL);
		struct tm lt;
		const char *run = t->knob ? knob_ctx_run_id(t->knob) : NULL;

		ui_fill(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
		if (localtime_r(&secs, &lt))
			strftime(tm, sizeof(tm), "%H:%M:%S", &lt);
		else
			snprintf(tm, sizeof(tm), "?");
		if (run && e->run && !strcmp(run, e->run))
			snprintf(by, sizeof(by), "this session");
		else if (e->kept)
			snprintf(by, sizeof(by), "pid %d %s (kept on quit)", e->pid, kind);
		else if (e->orphaned)
			snprintf(by, sizeof(by), "pid %d %s (dead: orphaned)", e->pid, kind);
		else if (e->alive)
			snprintf(by, sizeof(by), "pid %d %s (running)", e->pid, kind);
		else
			snprintf(by, sizeof(by), "pid %d %s", e->pid, kind);
		snprintf(ov, sizeof(ov), "%s -> %s", e->old ? e->old : "?",
			 e->new_value ? e->new_value : "?");
		x += ui_printf(t, yy, x, COLS - x, base, " %-8s %4llu  ", tm,
			       (unsigned long long)e->txn);
		x += ui_printf(t, yy, x, COLS - x, sel ? ROLE_CURSOR : state_role(e), "%-8.8s ",
			       e->kept ? "kept" : knob_jstate_name(e->state));
		x += ui_printf(t, yy, x, COLS - x, base, "%-34.34s ", e->addr ? e->addr : "?");
		x += ui_printf(t, yy, x, COLS - x,
			       sel			   ? ROLE_CURSOR
			       : e->state == KNOB_J_ACTIVE ? ROLE_CHANGED
							   : base,
			       "%-19.19s ", ov);
		/* did the kernel obey? (knob.h "effect"; "-": never watched) */
		x += ui_printf(t, yy, x, COLS - x,
			       sel				   ? ROLE_CURSOR
			       : e->effect == KNOB_EFFECT_NOT_SEEN ? ROLE_ALERT
			       : e->effect == KNOB_EFFECT_VERIFIED ? ROLE_CHANGED
								   : ROLE_VALUE_NA,
			       "%-9s ",
			       !e->effect_evidence		   ? "-"
			       : e->effect == KNOB_EFFECT_NOT_SEEN ? "NOT SEEN"
			       : e->effect == KNOB_EFFECT_VERIFIED ? "verified"
								   : "unknown");
		x += ui_put(t, yy, x, COLS - x, base, by);
		if (e->how && e->how[0])
			x += ui_printf(t, yy, x, COLS - x, sel ? ROLE_CURSOR : ROLE_LABEL, "  %s",
				       e->how);
		if (e->effect_evidence && e->state == KNOB_J_ACTIVE &&
		    e->effect != KNOB_EFFECT_VERIFIED)
			ui_printf(t, yy, x, COLS - x, sel ? ROLE_CURSOR : ROLE_LABEL, "  %s",
				  e->effect_evidence);
	}
	if (!s->nrows)
		ui_put(t, y + 2, 1, COLS - 1, ROLE_LABEL,
		       "No changes recorded on this machine yet.");
}

int screen_journal_key(struct screen_ctx *t, struct screen *s, int ch)
{
	struct jscreen *j = s->priv;
	const struct knob_jentry *e;
	struct sbuf rep;
	char *cause = NULL;

	if (ch == 'O' && j && !t->replay) {
		if (!tui_may_write(t))
			return HR_HANDLED | HR_REDRAW;
		sbuf_init(&rep);
		if (knob_restore_orphans(t->knob, 0, &rep, &cause) == 0)
			tui_status(t, false, "Restored the orphaned changes");
		else
			tui_status(t, true, "Restore failed: %s", cause ? cause : "?");
		free(cause);
		sbuf_free(&rep);
		tui_reload_journal(t);
		return HR_HANDLED | HR_RESCAN | HR_REDRAW;
	}
	if (ch != 'u' || !j || !j->n)
		return HR_IGNORED;
	if (s->sel < 0 || s->sel >= (int)j->n)
		return HR_HANDLED;
	e = &j->e[j->n - 1 - (size_t)s->sel];
	if (!tui_may_write(t))
		return HR_HANDLED | HR_REDRAW;
	if (e->state != KNOB_J_ACTIVE) {
		tui_status(t, true, "Refused: change %llu is %s, not active",
			   (unsigned long long)e->txn, knob_jstate_name(e->state));
		return HR_HANDLED | HR_REDRAW;
	}
	sbuf_init(&rep);
	if (knob_undo_id(t->knob, e->txn, 0, &rep, &cause) == 0) {
		tui_status(t, false, "Undone change %llu: %s back to %s",
			   (unsigned long long)e->txn, e->addr, e->old ? e->old : "?");
		thread_sampler_invalidate(&t->sampler.threads, e->addr);
	} else
		tui_status(t, true, "Undo failed: %s", cause ? cause : "?");
	free(cause);
	sbuf_free(&rep);
	tui_reload_journal(t);
	return HR_HANDLED | HR_RESCAN | HR_REDRAW;
}

int screen_journal_explain(struct screen_ctx *t, struct screen *s, struct explain_item *it, int max)
{
	struct jscreen *j = s->priv;
	const struct knob_jentry *e;

	if (j && t->replay) {
		const struct replay_event *ev;

		if (s->sel < 0 || (size_t)s->sel >= j->nev)
			return 0;
		ev = j->ev[j->nev - 1 - (size_t)s->sel];
		return ev->addr[0] ? ui_explain_add(it, 0, max, "This change", "%s", ev->addr) : 0;
	}
	if (!j || !j->n || s->sel < 0 || s->sel >= (int)j->n)
		return 0;
	e = &j->e[j->n - 1 - (size_t)s->sel];
	return e->addr ? ui_explain_add(it, 0, max, "This change", "%s", e->addr) : 0;
}
