/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Findings screen ('!'): the findings of the current sample
 * (model/findings.h, evaluated after every sample by playback.c; in a replay
 * the recorded ones), most severe first: severity, rule, subject and title.
 * Below the list, the selected finding in full: its evidence (the numbers
 * that triggered it), its fix as ADDRESS=VALUE lines, and the explain entry
 * it points to (title and why it matters). a or Enter applies the fix
 * through the knob engine as one journaled transaction (u undoes it, like
 * every action); e opens the whole explanation. With no findings it lists
 * the rules that were checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "model/explain.h"
#include "ui/tui.h"

/* The selection follows its finding while the list changes from sample to
 * sample, and follows the cursor keys otherwise. */
struct fview {
	int sel_idx; /* where it was when last seen */
	char sel_id[32], sel_subject[64];
};

static const struct finding *selected(struct screen_ctx *t, struct screen *s)
{
	if (s->sel < 0 || (size_t)s->sel >= t->findings.n)
		return NULL;
	return &t->findings.v[s->sel];
}

void screen_findings_build(struct screen_ctx *t, struct screen *s)
{
	struct fview *v = s->priv;

	if (!v)
		v = s->priv = xcalloc(1, sizeof(*v));
	s->heading_lines = 2;
	/* thread rules need the live thread table: read it while shown */
	if (&t->screens[t->cur] == s)
		tui_threads_recent(t, 0, true);
	s->nrows = (int)t->findings.n;
	if (s->sel == v->sel_idx && v->sel_id[0])
		for (size_t i = 0; i < t->findings.n; i++)
			if (!strcmp(t->findings.v[i].id, v->sel_id) &&
			    !strcmp(t->findings.v[i].subject, v->sel_subject)) {
				s->sel = (int)i;
				break;
			}
	if (s->sel >= s->nrows)
		s->sel = s->nrows ? s->nrows - 1 : 0;
	if (s->sel < 0)
		s->sel = 0;
	v->sel_idx = s->sel;
	v->sel_id[0] = v->sel_subject[0] = '\0';
	if (selected(t, s)) {
		str_copy(v->sel_id, sizeof(v->sel_id), selected(t, s)->id);
		str_copy(v->sel_subject, sizeof(v->sel_subject), selected(t, s)->subject);
	}
}

void screen_findings_free(struct screen *s)
{
	ui_priv_free(s, NULL);
}

/* Word-wrap text into lines of width w at (y, x); at most maxl lines.
 * Returns the lines used. */
static int wrap(struct screen_ctx *t, int y, int x, int w, int maxl, enum role r, const char *text)
{
	const char *p = text;
	int n = 0;

	if (w < 10)
		w = 10;
	while (*p && n < maxl) {
		int len = str_wrap_len(p, w);

		ui_printf(t, y + n, x, w, r, "%.*s", len, p);
		n++;
		p = str_wrap_next(p, len);
	}
	return n;
}

/* Every fix address already holds the fixed value by a change in force? */
static bool fix_applied(const struct screen_ctx *t, const struct finding *f)
{
	if (!f->nfix)
		return false;
	for (size_t i = 0; i < f->nfix; i++) {
		char addr[KNOB_ADDR_MAX];
		const char *eq = strchr(f->fix[i], '=');
		const struct tui_change *c;

		if (!eq)
			return false;
		snprintf(addr, sizeof(addr), "%.*s", (int)(eq - f->fix[i]), f->fix[i]);
		c = tui_changed(t, addr);
		if (!c || strcmp(c->new_value, eq + 1))
			return false;
	}
	return true;
}

static void draw_detail(struct screen_ctx *t, const struct finding *f, int y, int h)
{
	const struct explain_entry *e = f->explain ? explain_find(f->explain) : NULL;
	int x = 10, w = COLS - 10, n = 0;
	char line[256];

	snprintf(line, sizeof(line), " %s: %s%s ", f->id, f->subject,
		 f->degraded ? "  (without thread / probe data: degraded)" : "");
	ui_fill(t, y, 0, COLS, ROLE_TITLE);
	ui_put(t, y, 0, COLS, ROLE_TITLE, line);
	n = 1;
	if (n < h) {
		ui_put(t, y + n, 0, x, ROLE_LABEL, " Evidence");
		n += wrap(t, y + n, x, w, h - n, ROLE_VALUE, f->evidence[0] ? f->evidence : "-");
	}
	if (n < h) {
		if (!f->nfix) {
			ui_put(t, y + n, 0, x, ROLE_LABEL, " Fix");
			ui_put(t, y + n++, x, w, ROLE_VALUE_NA,
			       "none one key away: e explains what to try");
		} else {
			bool done = fix_applied(t, f);

			for (size_t i = 0; i < f->nfix && n < h; i++) {
				if (!i)
					ui_put(t, y + n, 0, x, ROLE_LABEL, " Fix");
				ui_put(t, y + n++, x, w, done ? ROLE_CHANGED : ROLE_OK, f->fix[i]);
			}
			if (n < h && done && !t->replay) {
				/* applied, and the rule still fires: the rule says what
				 * holds the value when the fix is in place; when it is
				 * not, someone changed it back */
				char msg[320];

				if (f->held[0])
					snprintf(msg, sizeof(msg),
						 "applied, but the finding persists: %s (u undoes "
						 "the last change)",
						 f->held);
				else
					snprintf(
						msg, sizeof(msg),
						"applied, but the value no longer holds: a process "
						"rewrote it after tunetop's change (u undoes the "
						"last "
						"change)");
				n += wrap(t, y + n, x, w, h - n, ROLE_WARN, msg);
			} else if (n < h)
				ui_put(t, y + n++, x, w, ROLE_LABEL,
				       t->replay ? "(a replay is read-only: the fix cannot be "
						   "applied)"
						 : "a or Enter applies it (one journaled change, u "
						   "undoes it)");
		}
	}
	if (n < h && e) {
		snprintf(line, sizeof(line), "%s: %s", e->key, e->title);
		ui_put(t, y + n, 0, x, ROLE_LABEL, " Why");
		ui_put(t, y + n++, x, w, ROLE_VALUE, line);
		if (n < h && e->why)
			n += wrap(t, y + n, x, w, h - n - 1, ROLE_VALUE, e->why);
		if (n < h && explain_cites_field_notes(e))
			n += wrap(t, y + n, x, w, h - n - 1, ROLE_LABEL,
				  "(" EXPLAIN_FIELD_NOTES ")");
		if (n < h)
			ui_put(t, y + n++, x, w, ROLE_LABEL,
			       "e: the whole entry (files on this root, shell line, traps)");
	}
}

static void draw_rules(struct screen_ctx *t, int y, int h)
{
	int n = 0;

	if (n < h)
		ui_put(t, y + n++, 1, COLS - 1, ROLE_OK,
		       t->snap ? "No findings on this sample. The rules checked:"
			       : "No sample yet.");
	for (size_t i = 0; t->snap && i < findings_rule_count() && n < h; i++) {
		const struct finding_rule_info *r = findings_rule_at(i);

		ui_printf(t, y + n++, 2, COLS - 2, ROLE_LABEL, "%-22s %s", r->id, r->what);
	}
}

void screen_findings_draw(struct screen_ctx *t, struct screen *s, int y, int h)
{
	const struct finding_list *l = &t->findings;
	size_t ncrit = findings_count(l, FINDING_CRIT);
	size_t nwarn = findings_count(l, FINDING_WARN) - ncrit;
	bool degraded = false;
	int lh, x;

	for (int i = 0; i < h; i++)
		ui_fill(t, y + i, 0, COLS, ROLE_DEFAULT);
	for (size_t i = 0; i < l->n; i++)
		degraded |= l->v[i].degraded;
	x = ui_printf(t, y, 0, COLS, l->n ? tui_sev_role(tui_worst_finding(t)) : ROLE_OK,
		      "%zu finding%s", l->n, l->n == 1 ? "" : "s");
	x += ui_printf(t, y, x, COLS - x, ROLE_LABEL, ": %zu crit, %zu warn, %zu info", ncrit,
		       nwarn, l->n - ncrit - nwarn);
	if (t->replay)
		x += ui_put(t, y, x, COLS - x, ROLE_LABEL, "   as recorded");
	else
		x += ui_printf(t, y, x, COLS - x, ROLE_LABEL, "   latency budget %d us (Setup)",
			       t->cfg.latency_budget_us);
	if (degraded)
		ui_put(t, y, x, COLS - x, ROLE_LABEL, "   ~ = without thread data");
	ui_colhead(t, y + 1, " Sev    Rule                  Subject       Title");
	if (!l->n) {
		draw_rules(t, y + 2, h - 2);
		return;
	}
	/* the list on top, the selected finding below */
	lh = (h - 2) / 3;
	if (lh < 3)
		lh = 3;
	if (lh > (int)l->n)
		lh = (int)l->n;
	if (lh > h - 2)
		lh = h - 2;
	ui_scroll(s, lh);
	for (int i = 0; i < lh && s->top + i < s->nrows; i++) {
		const struct finding *f = &l->v[s->top + i];
		int yy = y + 2 + i;
		bool sel = s->top + i == s->sel;
		enum role base = sel ? ROLE_CURSOR : ROLE_VALUE;
		int xx;

		ui_fill(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
		xx = ui_printf(t, yy, 0, COLS, sel ? ROLE_CURSOR : tui_sev_role(f->sev), " %-4s%s ",
			       finding_sev_name(f->sev), f->degraded ? "~" : " ");
		xx += ui_printf(t, yy, xx, COLS - xx, base, " %-21.21s %-13.13s ", f->id,
				f->subject);
		ui_put(t, yy, xx, COLS - xx, fix_applied(t, f) && !sel ? ROLE_CHANGED : base,
		       f->title);
	}
	if (s->nrows > lh) {
		char pos[24];
		int len = snprintf(pos, sizeof(pos), " %d/%d ", s->sel + 1, s->nrows);

		ui_put(t, y + 1, COLS - len, len, ROLE_COLHEAD, pos);
	}
	if (selected(t, s) && h - 2 - lh > 1)
		draw_detail(t, selected(t, s), y + 2 + lh, h - 2 - lh);
}

static int apply_fix(struct screen_ctx *t, struct screen *s)
{
	const struct finding *f = selected(t, s);
	const char *as[FINDING_MAX_FIX];

	if (!f)
		return HR_HANDLED;
	if (!f->nfix) {
		tui_status(t, true, "%s has no fix one key away: e explains what to try", f->id);
		return HR_HANDLED | HR_REDRAW;
	}
	for (size_t i = 0; i < f->nfix; i++)
		as[i] = f->fix[i];
	tui_set(t, as, f->nfix, 0);
	return HR_HANDLED | HR_RESCAN | HR_REDRAW;
}

int screen_findings_key(struct screen_ctx *t, struct screen *s, int ch)
{
	switch (ch) {
	case 'a':
	case '\n':
	case '\r':
	case KEY_ENTER: return apply_fix(t, s);
	default: return HR_IGNORED;
	}
}

int screen_findings_explain(struct screen_ctx *t, struct screen *s, struct explain_item *it,
			    int max)
{
	const struct finding *f = selected(t, s);
	int n = 0;

	if (!f)
		return 0;
	if (f->explain)
		n = ui_explain_add(it, n, max, "Why: the rule's entry", "%s", f->explain);
	for (size_t i = 0; i < f->nfix && n < max; i++) {
		const char *eq = strchr(f->fix[i], '=');

		n = ui_explain_add(it, n, max, "Fix", "%.*s",
				   (int)(eq ? eq - f->fix[i] : (long)strlen(f->fix[i])), f->fix[i]);
		snprintf(it[n - 1].label, sizeof(it[n - 1].label), "Fix: %.58s", it[n - 1].key);
	}
	return n;
}
