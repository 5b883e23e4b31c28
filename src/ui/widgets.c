/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Widgets: clipped text in a theme role, meters (plain and stacked), modal
 * dialogs (menu, buttons, line input, the CPU checklist), the bottom key
 * bar, list scrolling, and frequency formatting. Dialogs are modal: they
 * redraw the whole screen under themselves on every key, resize or second
 * (t->hooks.redraw) and return when the user decides; data sampling pauses
 * meanwhile, but the background work of the loop (t->hooks.idle: a running
 * probe or A/B) goes on. This file calls no other file of src/ui but the
 * key table: what it needs from above comes through t->hooks. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "ui/keytable.h"
#include "ui/tui.h"

volatile sig_atomic_t tui_signal_pending;

attr_t ui_attr(const struct screen_ctx *t, enum role r)
{
	return t->attr[r];
}

int ui_put(struct screen_ctx *t, int y, int x, int w, enum role r, const char *s)
{
	int n = (int)strlen(s);

	if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
		return 0;
	if (x + w > COLS)
		w = COLS - x;
	if (n > w)
		n = w;
	attrset(ui_attr(t, r));
	mvaddnstr(y, x, s, n);
	attrset(A_NORMAL);
	return n;
}

int ui_printf(struct screen_ctx *t, int y, int x, int w, enum role r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return ui_put(t, y, x, w, r, buf);
}

void ui_fill(struct screen_ctx *t, int y, int x, int w, enum role r)
{
	if (y < 0 || y >= LINES || x >= COLS || w <= 0)
		return;
	if (x + w > COLS)
		w = COLS - x;
	attrset(ui_attr(t, r));
	mvhline(y, x, ' ', w);
	attrset(A_NORMAL);
}

void ui_colhead(struct screen_ctx *t, int y, const char *s)
{
	ui_fill(t, y, 0, COLS, ROLE_COLHEAD);
	ui_put(t, y, 0, COLS, ROLE_COLHEAD, s);
}

void ui_bar(struct screen_ctx *t, int y, int x, int w, const struct bar_seg *seg, int nseg,
	    const char *text, enum role text_role)
{
	int inner = w - 2, pos = 0, tlen = text ? (int)strlen(text) : 0;
	double acc = 0;
	int filled[16];

	if (w < 3)
		return;
	if (nseg > 16)
		nseg = 16;
	/* cumulative rounding so the segments add up exactly */
	for (int i = 0; i < nseg; i++) {
		int end;

		acc += isfinite(seg[i].pct) && seg[i].pct > 0 ? seg[i].pct : 0;
		if (acc > 100)
			acc = 100;
		end = (int)lround(acc * inner / 100.0);
		filled[i] = end - pos;
		if (filled[i] < 0)
			filled[i] = 0;
		pos += filled[i];
	}
	attrset(ui_attr(t, ROLE_DEFAULT) | A_BOLD);
	mvaddch(y, x, '[');
	pos = 0;
	for (int i = 0; i < nseg; i++) {
		attrset(ui_attr(t, seg[i].role));
		for (int k = 0; k < filled[i] && pos < inner; k++, pos++)
			mvaddch(y, x + 1 + pos, (chtype)(unsigned char)seg[i].glyph);
	}
	attrset(ui_attr(t, ROLE_BAR_EMPTY));
	for (; pos < inner; pos++)
		mvaddch(y, x + 1 + pos, ' ');
	if (tlen && tlen <= inner) {
		/* the text overwrites the right end, keeping the segment colour under it */
		attrset(ui_attr(t, text_role));
		mvaddstr(y, x + 1 + inner - tlen, text);
	}
	attrset(ui_attr(t, ROLE_DEFAULT) | A_BOLD);
	mvaddch(y, x + w - 1, ']');
	attrset(A_NORMAL);
}

void ui_priv_free(struct screen *s, void *array)
{
	free(array);
	free(s->priv);
	s->priv = NULL;
}

int ui_draw_rows(struct screen_ctx *t, struct screen *s, int y, int h, ui_row_fn *row,
		 const void *arg)
{
	int rows = h - s->heading_lines;

	ui_scroll(s, rows);
	for (int i = 0; i < rows && s->top + i < s->nrows; i++)
		row(t, s, s->top + i, y + s->heading_lines + i, s->top + i == s->sel, arg);
	return rows;
}

void ui_scroll(struct screen *s, int h)
{
	if (h < 1)
		h = 1;
	if (s->nrows <= 0) {
		s->sel = s->top = 0;
		return;
	}
	if (s->sel >= s->nrows)
		s->sel = s->nrows - 1;
	if (s->sel < 0)
		s->sel = 0;
	if (s->sel < s->top)
		s->top = s->sel;
	if (s->sel >= s->top + h)
		s->top = s->sel - h + 1;
	if (s->top > s->nrows - h)
		s->top = s->nrows - h;
	if (s->top < 0)
		s->top = 0;
}

int ui_list_key(struct screen *s, int ch, int h)
{
	int old = s->sel;

	switch (ch) {
	case KEY_UP:
	case 'k': s->sel--; break;
	case KEY_DOWN:
	case 'j': s->sel++; break;
	case KEY_PPAGE: /* a page: the view and the cursor move together */
		s->sel -= h > 1 ? h - 1 : 1;
		s->top -= h > 1 ? h - 1 : 1;
		if (s->top < 0)
			s->top = 0;
		break;
	case KEY_NPAGE:
		s->sel += h > 1 ? h - 1 : 1;
		s->top += h > 1 ? h - 1 : 1;
		break;
	case KEY_HOME: s->sel = 0; break;
	case KEY_END: s->sel = s->nrows - 1; break;
	default: return HR_IGNORED;
	}
	ui_scroll(s, h);
	return s->sel != old ? HR_HANDLED | HR_REDRAW : HR_HANDLED;
}

/* ---- dialogs ------------------------------------------------------------- */

void ui_box(struct screen_ctx *t, int y, int x, int h, int w, const char *title)
{
	for (int i = 0; i < h; i++)
		ui_fill(t, y + i, x, w, ROLE_DIALOG);
	attrset(ui_attr(t, ROLE_DIALOG));
	mvaddch(y, x, ACS_ULCORNER);
	mvhline(y, x + 1, ACS_HLINE, w - 2);
	mvaddch(y, x + w - 1, ACS_URCORNER);
	mvvline(y + 1, x, ACS_VLINE, h - 2);
	mvvline(y + 1, x + w - 1, ACS_VLINE, h - 2);
	mvaddch(y + h - 1, x, ACS_LLCORNER);
	mvhline(y + h - 1, x + 1, ACS_HLINE, w - 2);
	mvaddch(y + h - 1, x + w - 1, ACS_LRCORNER);
	attrset(A_NORMAL);
	if (title && *title)
		ui_printf(t, y, x + 2, w - 4, ROLE_DIALOG_TITLE, " %s ", title);
}

int ui_dialog(struct screen_ctx *t, int h, int w, const char *title, int *y, int *x)
{
	if (w > COLS - 2)
		w = COLS - 2;
	*y = (LINES - h) / 2;
	*x = (COLS - w) / 2;
	if (*y < 0)
		*y = 0;
	if (*x < 0)
		*x = 0;
	if (t->hooks.redraw)
		t->hooks.redraw(t);
	ui_box(t, *y, *x, h, w, title);
	return w;
}

void ui_keep_visible(int *top, int sel, int vis)
{
	if (sel < *top)
		*top = sel;
	if (sel >= *top + vis)
		*top = sel - vis + 1;
}

int ui_dialog_list_key(int ch, int sel, int n, int vis)
{
	switch (ch) {
	case KEY_UP:
	case 'k': return sel > 0 ? sel - 1 : n - 1;
	case KEY_DOWN:
	case 'j': return sel < n - 1 ? sel + 1 : 0;
	case KEY_HOME: return 0;
	case KEY_END: return n - 1;
	case KEY_PPAGE: return sel - vis < 0 ? 0 : sel - vis;
	case KEY_NPAGE: return sel + vis >= n ? n - 1 : sel + vis;
	default: return -1;
	}
}

/* Wait for a key; a running A/B keeps its schedule meanwhile (and the
 * screen under the dialog stays live). */
static int dialog_getch(struct screen_ctx *t)
{
	int ms;

	ms = -1;
	if (t->hooks.idle)
		t->hooks.idle(t, true, &ms);
	timeout(ms >= 0 && ms < 1000 ? ms : 1000);
	return getch();
}

/* A list dialog's key, after showing what it drew: KEY_MAX on a signal
 * (the dialog returns), KEY_MIN when a list key moved *sel among n rows (vis
 * shown; draw again), else the key for the dialog. A running A/B or probe
 * goes on meanwhile (dialog_getch). */
static int list_dialog_key(struct screen_ctx *t, int *sel, int n, int vis)
{
	int ch, to;

	refresh();
	ch = dialog_getch(t);
	if (tui_signal_pending)
		return KEY_MAX;
	if ((to = ui_dialog_list_key(ch, *sel, n, vis)) >= 0) {
		*sel = to;
		return KEY_MIN;
	}
	return ch;
}

int ui_menu(struct screen_ctx *t, const char *title, const char *const *items, int n, int sel,
	    const char *footer)
{
	int top = 0;

	if (n <= 0)
		return -1;
	if (sel < 0 || sel >= n)
		sel = 0;
	for (;;) {
		int w = (int)strlen(title) + 6, h, y, x, vis, ch;

		for (int i = 0; i < n; i++)
			if ((int)strlen(items[i]) + 6 > w)
				w = (int)strlen(items[i]) + 6;
		if (footer && (int)strlen(footer) + 4 > w)
			w = (int)strlen(footer) + 4;
		vis = n;
		if (vis > LINES - 6)
			vis = LINES - 6;
		if (vis < 1)
			vis = 1;
		h = vis + 2 + (footer ? 1 : 0);
		ui_keep_visible(&top, sel, vis);
		w = ui_dialog(t, h, w, title, &y, &x);
		for (int i = 0; i < vis && top + i < n; i++) {
			enum role r = top + i == sel ? ROLE_DIALOG_SELECTED : ROLE_DIALOG;

			ui_fill(t, y + 1 + i, x + 1, w - 2, r);
			ui_printf(t, y + 1 + i, x + 2, w - 4, r, "%s", items[top + i]);
		}
		if (footer)
			ui_put(t, y + h - 2, x + 2, w - 4, ROLE_DIALOG, footer);
		if ((ch = list_dialog_key(t, &sel, n, vis)) == KEY_MAX) /* a signal */
			return -1;
		if (ch == KEY_MIN) /* the selection moved */
			continue;
		switch (ch) {
		case '\n':
		case '\r':
		case KEY_ENTER:
		case ' ': return sel;
		case 27:
		case 'q':
		case KEY_F(10): return -1;
		case KEY_MOUSE: {
			MEVENT me;

			if (getmouse(&me) != OK)
				break;
			if (me.bstate & BUTTON4_PRESSED)
				sel = sel > 0 ? sel - 1 : 0;
			else if (me.bstate & (BUTTON5_PRESSED))
				sel = sel < n - 1 ? sel + 1 : n - 1;
			else if (me.y > y && me.y < y + 1 + vis && me.x > x && me.x < x + w - 1 &&
				 top + me.y - y - 1 < n)
				return top + me.y - y - 1;
			else if (me.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))
				return -1;
			break;
		}
		default:
			/* first letter / digit jumps */
			if (ch > ' ' && ch < 127)
				for (int i = 1; i <= n; i++) {
					int k = (sel + i) % n;
					const char *it = items[k];

					while (*it == ' ')
						it++;
					if ((*it | 0x20) == (ch | 0x20)) {
						sel = k;
						break;
					}
				}
			break;
		}
	}
}

int ui_choice(struct screen_ctx *t, const char *title, const char *text, const char *const *buttons,
	      int n, int dflt)
{
	int sel = dflt;

	for (;;) {
		char lines[8][160];
		int nl = 0, w = (int)strlen(title) + 6, bw = 0, h, y, x, ch, bx;
		const char *p = text;

		while (*p && nl < 8) {
			const char *nlp = strchr(p, '\n');
			size_t len = nlp ? (size_t)(nlp - p) : strlen(p);

			if (len >= sizeof(lines[0]))
				len = sizeof(lines[0]) - 1;
			memcpy(lines[nl], p, len);
			lines[nl][len] = '\0';
			if ((int)len + 4 > w)
				w = (int)len + 4;
			nl++;
			p += len + (nlp ? 1 : 0);
			if (!nlp)
				break;
		}
		for (int i = 0; i < n; i++)
			bw += (int)strlen(buttons[i]) + 5;
		if (bw + 2 > w)
			w = bw + 2;
		h = nl + 4;
		w = ui_dialog(t, h, w, title, &y, &x);
		for (int i = 0; i < nl; i++)
			ui_put(t, y + 1 + i, x + 2, w - 4, ROLE_DIALOG, lines[i]);
		bx = x + (w - bw) / 2;
		for (int i = 0; i < n; i++) {
			bx += ui_printf(t, y + h - 2, bx, w,
					i == sel ? ROLE_DIALOG_SELECTED : ROLE_DIALOG, "[ %s ]",
					buttons[i]);
			bx++;
		}
		refresh();
		ch = dialog_getch(t);
		if (tui_signal_pending)
			return -1;
		switch (ch) {
		case KEY_LEFT:
		case KEY_BTAB:
		case 'h': sel = (sel + n - 1) % n; break;
		case KEY_RIGHT:
		case '\t':
		case 'l': sel = (sel + 1) % n; break;
		case '\n':
		case '\r':
		case KEY_ENTER:
		case ' ': return sel;
		case 27: return -1;
		case KEY_MOUSE: {
			MEVENT me;

			if (getmouse(&me) != OK || me.y != y + h - 2)
				break;
			bx = x + (w - bw) / 2;
			for (int i = 0; i < n; i++) {
				int len = (int)strlen(buttons[i]) + 4;

				if (me.x >= bx && me.x < bx + len)
					return i;
				bx += len + 1;
			}
			break;
		}
		default:
			for (int i = 0; i < n; i++)
				if (ch > ' ' && ch < 127 && (buttons[i][0] | 0x20) == (ch | 0x20))
					return i;
			break;
		}
	}
}

int ui_input(struct screen_ctx *t, const char *title, const char *prompt, char *buf, size_t cap)
{
	return ui_input_choice(t, title, prompt, buf, cap, NULL, NULL, 0, NULL);
}

int ui_input_choice(struct screen_ctx *t, const char *title, const char *prompt, char *buf,
		    size_t cap, const char *what, const char *const *choices, int n, int *sel)
{
	size_t len = strlen(buf);

	for (;;) {
		int w = (int)strlen(prompt) + 24, h = n > 1 ? 6 : 5, y, x, ch;

		if ((int)strlen(title) + 6 > w)
			w = (int)strlen(title) + 6;
		w = ui_dialog(t, h, w, title, &y, &x);
		ui_put(t, y + 1, x + 2, w - 4, ROLE_DIALOG, prompt);
		ui_fill(t, y + 2, x + 2, w - 4, ROLE_DIALOG_SELECTED);
		ui_printf(t, y + 2, x + 2, w - 4, ROLE_DIALOG_SELECTED, "%s_", buf);
		if (n > 1) {
			int cx =
				x + 2 + ui_printf(t, y + 3, x + 2, w - 4, ROLE_DIALOG, "%s ", what);

			for (int i = 0; i < n && cx < x + w - 2; i++)
				cx += ui_printf(t, y + 3, cx, x + w - 2 - cx,
						i == *sel ? ROLE_DIALOG_SELECTED : ROLE_DIALOG,
						i == *sel ? "[%s]" : " %s ", choices[i]);
		}
		ui_put(t, y + h - 2, x + 2, w - 4, ROLE_DIALOG,
		       n > 1 ? "Enter: OK   Tab: change   Esc: cancel" : "Enter: OK   Esc: cancel");
		refresh();
		ch = dialog_getch(t);
		if (tui_signal_pending)
			return -1;
		if (ch == 27)
			return -1;
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
			return 0;
		if (n > 1 && (ch == '\t' || ch == KEY_BTAB)) {
			*sel = (*sel + (ch == '\t' ? 1 : n - 1)) % n;
			continue;
		}
		if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0)
			buf[--len] = '\0';
		else if (ch >= ' ' && ch < 127 && len + 1 < cap) {
			buf[len++] = (char)ch;
			buf[len] = '\0';
		}
	}
}

void ui_text(struct screen_ctx *t, const char *title, const char *text)
{
	const char **lines = NULL;
	int *lens = NULL, n = 0, top = 0;
	size_t cap = 0, lcap = 0;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		lines = xgrow(lines, &cap, (size_t)n + 1, sizeof(*lines));
		lens = xgrow(lens, &lcap, (size_t)n + 1, sizeof(*lens));
		lines[n] = p;
		lens[n++] = len;
		p += len + (nl ? 1 : 0);
	}
	for (;;) {
		int w = COLS - 4, h = LINES - 4, y = 2, x = 2, vis, ch;

		if (w < 20 || h < 5) {
			w = COLS;
			h = LINES;
			y = x = 0;
		}
		vis = h - 3;
		if (top > n - vis)
			top = n - vis;
		if (top < 0)
			top = 0;
		if (t->hooks.redraw)
			t->hooks.redraw(t);
		ui_box(t, y, x, h, w, title);
		for (int i = 0; i < vis; i++) {
			ui_fill(t, y + 1 + i, x + 1, w - 2, ROLE_DIALOG);
			if (top + i < n)
				ui_printf(t, y + 1 + i, x + 2, w - 4, ROLE_DIALOG, "%.*s",
					  lens[top + i], lines[top + i]);
		}
		ui_printf(t, y + h - 2, x + 2, w - 4, ROLE_DIALOG_TITLE,
			  " %d-%d of %d   Up/Down/PgUp/PgDn scroll   Esc closes ", n ? top + 1 : 0,
			  top + vis < n ? top + vis : n, n);
		refresh();
		ch = dialog_getch(t);
		if (tui_signal_pending)
			break;
		if (ch == 27 || ch == 'q' || ch == '\n' || ch == '\r' || ch == KEY_ENTER ||
		    ch == KEY_F(10) || ch == 'e')
			break;
		switch (ch) {
		case KEY_UP:
		case 'k': top--; break;
		case KEY_DOWN:
		case 'j': top++; break;
		case KEY_PPAGE: top -= vis - 1; break;
		case KEY_NPAGE:
		case ' ': top += vis - 1; break;
		case KEY_HOME: top = 0; break;
		case KEY_END: top = n; break;
		case KEY_MOUSE: {
			MEVENT me;

			if (getmouse(&me) == OK) {
				if (me.bstate & BUTTON4_PRESSED)
					top -= 3;
				else if (me.bstate & BUTTON5_PRESSED)
					top += 3;
			}
			break;
		}
		default: break;
		}
	}
	free(lines);
	free(lens);
}

int ui_explain_add(struct explain_item *items, int n, int max, const char *label, const char *fmt,
		   ...)
{
	va_list ap;

	if (n >= max)
		return n;
	va_start(ap, fmt);
	vsnprintf(items[n].key, sizeof(items[n].key), fmt, ap);
	va_end(ap);
	snprintf(items[n].label, sizeof(items[n].label), "%s", label);
	return n + 1;
}

/* ---- key bar ----------------------------------------------------------------- */

/* The bar: the global keys of the key table (src/ui/keys.def) marked
 * KB_HEAD, the screen's KB_SCREEN keys, then the global KB_TAIL ones, in
 * the table's order. */

static int put_hint(struct screen_ctx *t, int y, int x, const struct key_entry *h, int pad)
{
	int n = 0;

	if (x >= COLS)
		return 0;
	n += ui_put(t, y, x, COLS - x, ROLE_KEY, h->bar_key);
	n += ui_printf(t, y, x + n, COLS - x - n, ROLE_KEYLABEL, "%-*s ", pad, h->hint);
	return n;
}

/* Is table entry e in the bar, in part part (KB_HEAD, KB_SCREEN, KB_TAIL)? */
static bool in_bar(const struct key_entry *e, const char *screen, enum key_bar part)
{
	if (e->bar != part || !e->bar_key || !e->hint)
		return false;
	return part == KB_SCREEN ? screen && !strcmp(e->screen, screen)
				 : !strcmp(e->screen, "global");
}

static int hints_width(const char *screen, int pad)
{
	static const enum key_bar parts[] = {KB_HEAD, KB_SCREEN, KB_TAIL};
	int w = 0;

	for (size_t p = 0; p < 3; p++)
		for (size_t i = 0; i < key_table_n; i++) {
			const struct key_entry *h = &key_table[i];
			int l;

			if (!in_bar(h, screen, parts[p]))
				continue;
			l = (int)strlen(h->hint);
			w += (int)strlen(h->bar_key) + (l > pad ? l : pad) + 1;
		}
	return w;
}

void ui_draw_keybar(struct screen_ctx *t, int y, const char *screen)
{
	static const enum key_bar parts[] = {KB_HEAD, KB_SCREEN, KB_TAIL};
	int x = 0, pad = 6;

	/* htop-like padding when it fits, packed otherwise */
	while (pad > 0 && hints_width(screen, pad) > COLS)
		pad--;
	ui_fill(t, y, 0, COLS, ROLE_KEYLABEL);
	for (size_t p = 0; p < 3; p++)
		for (size_t i = 0; i < key_table_n; i++)
			if (in_bar(&key_table[i], screen, parts[p]))
				x += put_hint(t, y, x, &key_table[i], pad);
}

/* ---- numbers -------------------------------------------------------------------- */

/* A frequency v in units of which per_mhz make a MHz: "1800" (MHz,
 * rounded) or "1.80G" (the freq_ghz setting), "n/a" below 0. */
static void fmt_freq(const struct screen_ctx *t, int64_t v, int64_t per_mhz, char *buf, size_t cap)
{
	if (v < 0)
		snprintf(buf, cap, "n/a");
	else if (t->cfg.freq_ghz)
		snprintf(buf, cap, "%.2fG", (double)v / ((double)per_mhz * 1e3));
	else
		snprintf(buf, cap, "%lld", (long long)((v + per_mhz / 2) / per_mhz));
}

void ui_fmt_khz(const struct screen_ctx *t, int64_t khz, char *buf, size_t cap)
{
	fmt_freq(t, khz, 1000, buf, cap);
}

void ui_fmt_hz(const struct screen_ctx *t, int64_t hz, char *buf, size_t cap)
{
	fmt_freq(t, hz, 1000000, buf, cap);
}

int ui_pick_freq(struct screen_ctx *t, const char *title, const uint64_t *avail, size_t n,
		 int64_t per_mhz, int64_t cur)
{
	char **labels = xcalloc(n, sizeof(char *));
	int sel = 0, r;

	for (size_t i = 0; i < n; i++) {
		char f[32];

		fmt_freq(t, (int64_t)avail[i], per_mhz, f, sizeof(f));
		labels[i] = xasprintf("%s %s%s", f, t->cfg.freq_ghz ? "GHz" : "MHz",
				      (int64_t)avail[i] == cur ? "  (now)" : "");
		if ((int64_t)avail[i] == cur)
			sel = (int)i;
	}
	r = ui_menu(t, title, (const char *const *)labels, (int)n, sel,
		    "Enter: choose   Esc: cancel");
	for (size_t i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	return r;
}

/* ---- the CPU checklist dialog (Threads and IRQs screens) ------------------------ */

int ui_cpu_dialog(struct screen_ctx *t, const char *title, const struct cpumask *offer,
		  const struct cpumask *cur, const struct cpumask *iso, bool *scope_process,
		  char *out, size_t cap)
{
	int cpus[TT_MAX_CPUS], n = 0, sel = 0, top = 0;
	struct cpumask m = *cur;

	for (int c = cpumask_next(offer, 0); c >= 0; c = cpumask_next(offer, c + 1))
		cpus[n++] = c;
	if (!n)
		return -1;
	cpumask_and(&m, offer);
	for (;;) {
		int w = 64, vis = n, h, y, x, ch;
		char list[256];

		if (vis > LINES - 10)
			vis = LINES - 10;
		if (vis < 1)
			vis = 1;
		h = vis + 6;
		ui_keep_visible(&top, sel, vis);
		w = ui_dialog(t, h, w, title, &y, &x);
		cpulist_format(&m, list, sizeof(list));
		ui_printf(t, y + 1, x + 2, w - 4, ROLE_DIALOG, "CPUs: %s%s",
			  list[0] ? list : "(none)",
			  scope_process ? (*scope_process ? "   scope: every thread of the process"
							  : "   scope: this thread")
					: "");
		for (int i = 0; i < vis && top + i < n; i++) {
			int c = cpus[top + i];
			enum role r = top + i == sel ? ROLE_DIALOG_SELECTED : ROLE_DIALOG;

			ui_fill(t, y + 2 + i, x + 1, w - 2, r);
			ui_printf(t, y + 2 + i, x + 2, w - 4, r, "[%c] CPU %d%s",
				  cpumask_test(&m, c) ? 'x' : ' ', c,
				  iso && cpumask_test(iso, c) ? "  (isolated / nohz_full)" : "");
		}
		ui_put(t, y + h - 4, x + 2, w - 4, ROLE_DIALOG,
		       "Space toggle  a all  n none  i isolated  o others");
		ui_printf(t, y + h - 3, x + 2, w - 4, ROLE_DIALOG, "t type a list%s",
			  scope_process ? "  p thread/process" : "");
		ui_put(t, y + h - 2, x + 2, w - 4, ROLE_DIALOG, "Enter apply  Esc cancel");
		if ((ch = list_dialog_key(t, &sel, n, vis)) == KEY_MAX) /* a signal */
			return -1;
		if (ch == KEY_MIN) /* the selection moved */
			continue;
		switch (ch) {
		case ' ':
			if (cpumask_test(&m, cpus[sel]))
				cpumask_clear(&m, cpus[sel]);
			else
				cpumask_set(&m, cpus[sel]);
			break;
		case 'a': m = *offer; break;
		case 'n': cpumask_zero(&m); break;
		case 'i':
			if (iso) {
				m = *offer;
				cpumask_and(&m, iso);
			}
			break;
		case 'o':
			m = *offer;
			if (iso)
				cpumask_andnot(&m, iso);
			break;
		case 'p':
			if (scope_process)
				*scope_process = !*scope_process;
			break;
		case 't': {
			char buf[256];

			cpulist_format(&m, buf, sizeof(buf));
			if (ui_input(t, title, "CPU list (e.g. 0-3,6):", buf, sizeof(buf)) == 0) {
				str_copy(out, cap, str_trim(buf));
				return 0;
			}
			break;
		}
		case '\n':
		case '\r':
		case KEY_ENTER: cpulist_format(&m, out, cap); return 0;
		case 27:
		case 'q':
		case KEY_F(10): return -1;
		default: break;
		}
	}
}
