/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Setup screen (F2): one row per tunetoprc setting, straight from
 * config_keys[] (theme, refresh interval, start screen, Cores columns,
 * header meters, units, mouse, quit confirmation). Enter / Space / Right
 * change a value (themes and screens cycle, booleans toggle, the interval
 * steps), Left steps back; every change applies at once and is saved
 * atomically to tunetoprc. Problems found while loading the settings or
 * the theme are listed underneath. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "ui/counters_fmt.h"
#include "ui/tui.h"

void screen_setup_build(struct screen_ctx *t, struct screen *s)
{
	(void)t;
	s->heading_lines = 2;
	s->nrows = (int)config_nkeys;
}

void screen_setup_draw(struct screen_ctx *t, struct screen *s, int y, int h)
{
	int rows = h - s->heading_lines, yy;

	if (!s->nrows)
		screen_setup_build(t, s);
	ui_fill(t, y, 0, COLS, ROLE_DEFAULT);
	ui_printf(t, y, 0, COLS, ROLE_LABEL, "Settings file: %s  (saved on every change)",
		  t->cfg_path[0] ? t->cfg_path : "none ($HOME and $XDG_CONFIG_HOME unset)");
	ui_colhead(t, y + 1,
		   " Setting                                            Value   (Enter/Right: "
		   "change, Left: back)");
	ui_scroll(s, rows);
	for (int i = 0; i < rows && s->top + i < s->nrows; i++) {
		const struct config_key *k = &config_keys[s->top + i];
		bool sel = s->top + i == s->sel;
		char v[300];

		yy = y + s->heading_lines + i;
		ui_fill(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
		config_get(&t->cfg, k, v, sizeof(v));
		ui_printf(t, yy, 1, 51, sel ? ROLE_CURSOR : ROLE_LABEL, "%-50.50s", k->label);
		if (k->type == CONFIG_BOOL)
			ui_printf(t, yy, 52, COLS - 52, sel ? ROLE_CURSOR : ROLE_VALUE, "[%c]",
				  v[0] == '1' ? 'x' : ' ');
		else if (k->offset == offsetof(struct ui_config, delay_tenths))
			ui_printf(t, yy, 52, COLS - 52, sel ? ROLE_CURSOR : ROLE_VALUE, "%d.%d s",
				  t->delay_tenths / 10, t->delay_tenths % 10);
		else if (k->type == CONFIG_LIST && !v[0])
			ui_printf(t, yy, 52, COLS - 52, sel ? ROLE_CURSOR : ROLE_LABEL,
				  "(default: %s)",
				  k->offset == offsetof(struct ui_config, events)
					  ? ctr_default_events()
				  : k->offset == offsetof(struct ui_config, self_cpus)
					  ? "the housekeeping CPUs"
					  : "none");
		else
			ui_put(t, yy, 52, COLS - 52, sel ? ROLE_CURSOR : ROLE_VALUE, v);
	}
	yy = y + s->heading_lines + (s->nrows < rows ? s->nrows : rows) + 1;
	if (yy < y + h && t->notes[0]) {
		ui_fill(t, yy, 0, COLS, ROLE_DEFAULT);
		ui_put(t, yy++, 1, COLS - 1, ROLE_WARN, "Problems found at start:");
		for (const char *p = t->notes; *p && yy < y + h;) {
			const char *nl = strchr(p, '\n');
			int len = nl ? (int)(nl - p) : (int)strlen(p);

			ui_fill(t, yy, 0, COLS, ROLE_DEFAULT);
			ui_printf(t, yy++, 3, COLS - 3, ROLE_VALUE, "%.*s", len, p);
			p += len + (nl ? 1 : 0);
		}
	}
	if (yy + 1 < y + h)
		ui_printf(t, yy + 1, 1, COLS - 1, ROLE_LABEL, "Theme '%s': %s", t->theme.name,
			  t->theme.description);
	/* tunetop itself: where it runs and what it costs (explain tunetop.self) */
	if (yy + 3 < y + h && !t->replay) {
		char cpus[64], csw[64], rss[32];

		cpulist_format(&t->self.cpus, cpus, sizeof(cpus));
		if (isfinite(t->self_cost.wakeups_per_s))
			snprintf(csw, sizeof(csw), "%.1f/s (%.1f/s preempted)",
				 t->self_cost.wakeups_per_s, t->self_cost.preempt_per_s);
		else
			snprintf(csw, sizeof(csw), "n/a");
		if (t->self_cost.rss_kib >= 0)
			snprintf(rss, sizeof(rss), "%.1f MiB",
				 (double)t->self_cost.rss_kib / 1024.0);
		else
			snprintf(rss, sizeof(rss), "n/a");
		ui_printf(t, yy + 3, 1, COLS - 1, t->self.err[0] ? ROLE_WARN : ROLE_LABEL,
			  "tunetop itself: CPUs %s nice %d (%s%s%s); wake-ups %s, sampler %.2f ms "
			  "CPU a refresh, RSS %s",
			  t->self.applied ? cpus : "n/a", t->self.nice, t->self.how,
			  t->self.err[0] ? "; " : "", t->self.err, csw, t->self_cpu_ms, rss);
	}
	/* and, when tracing is on, the why capture's (issue 29) */
	if (yy + 4 < y + h && !t->replay) {
		char line[160];

		if (latency_why_footprint(t, line, sizeof(line)))
			ui_put(t, yy + 4, 1, COLS - 1, ROLE_LABEL, line);
	}
}

static void cycle_theme(struct screen_ctx *t, int dir)
{
	char **names = NULL;
	size_t n = theme_list(&names);
	int cur = 0;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], t->cfg.theme))
			cur = (int)i;
	if (n) {
		cur = (cur + dir + (int)n) % (int)n;
		str_copy(t->cfg.theme, sizeof(t->cfg.theme), names[cur]);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (theme_load(t->cfg.theme, &t->theme, NULL, NULL, 0) != 0)
		theme_default(&t->theme);
	tui_apply_theme(t);
}

static void cycle_screen(struct screen_ctx *t, int dir)
{
	int cur = 0;

	for (int i = 0; i < t->nscreens; i++)
		if (!strcmp(t->screens[i].ops->id, t->cfg.start_screen))
			cur = i;
	cur = (cur + dir + t->nscreens) % t->nscreens;
	str_copy(t->cfg.start_screen, sizeof(t->cfg.start_screen), t->screens[cur].ops->id);
}

/* hold: off -> report -> reassert; the session takes it at once (unless
 * --hold was given), its counts starting again */
static void cycle_hold(struct screen_ctx *t, int dir)
{
	static const char *const modes[] = {"off", "report", "reassert"};
	int cur = 1;

	for (int i = 0; i < 3; i++)
		if (!strcmp(modes[i], t->cfg.hold))
			cur = i;
	cur = (cur + dir + 3) % 3;
	str_copy(t->cfg.hold, sizeof(t->cfg.hold), modes[cur]);
	if (!t->hold_given) {
		knob_hold_mode_parse(t->cfg.hold, &t->hold_mode);
		knob_hold_free(t->hold);
		t->hold = NULL;
	}
}

int screen_setup_key(struct screen_ctx *t, struct screen *s, int ch)
{
	const struct config_key *k;
	int dir;
	char *base;

	if (ch != '\n' && ch != '\r' && ch != KEY_ENTER && ch != ' ' && ch != KEY_RIGHT &&
	    ch != KEY_LEFT && ch != '+' && ch != '-')
		return HR_IGNORED;
	if (s->sel < 0 || s->sel >= (int)config_nkeys)
		return HR_HANDLED;
	k = &config_keys[s->sel];
	dir = ch == KEY_LEFT || ch == '-' ? -1 : 1;
	base = (char *)&t->cfg + k->offset;
	switch (k->type) {
	case CONFIG_BOOL: *(bool *)base = !*(bool *)base; break;
	case CONFIG_INT: {
		int *v = (int *)base, step = *v >= 20				      ? 10
					     : *v + dir < 10 || (*v == 10 && dir < 0) ? 1
										      : 5;

		/* large values (intervals in us, times in ms): a tenth of the
		 * decade (1000 -> 1100, 20000 -> 21000) */
		while (step * 100 <= *v + (dir < 0 ? -1 : 0) && step < 100000000)
			step *= 10;
		*v += dir * step;
		if (*v < k->min)
			*v = k->min;
		if (*v > k->max)
			*v = k->max;
		if (k->offset == offsetof(struct ui_config, delay_tenths))
			t->delay_tenths = *v;
		break;
	}
	case CONFIG_STR:
		if (k->offset == offsetof(struct ui_config, theme))
			cycle_theme(t, dir);
		else if (k->offset == offsetof(struct ui_config, start_screen))
			cycle_screen(t, dir);
		else if (k->offset == offsetof(struct ui_config, hold))
			cycle_hold(t, dir);
		break;
	case CONFIG_LIST: {
		char buf[300], why[200];

		str_copy(buf, sizeof(buf), base);
		if (ui_input(t, k->label, "Comma-separated; empty = the default set:", buf,
			     sizeof(buf)) != 0)
			return HR_HANDLED | HR_REDRAW;
		if (config_set_why(&t->cfg, k, str_trim(buf), why, sizeof(why)) != 0) {
			tui_status(t, true, "%s: %s: not changed", k->key, why);
			return HR_HANDLED | HR_REDRAW;
		}
		break;
	}
	}
	if (k->offset == offsetof(struct ui_config, mouse))
		mousemask(t->cfg.mouse ? BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED |
						 BUTTON5_PRESSED
				       : 0,
			  NULL);
	if (t->cfg_path[0]) {
		int e = config_save(t->cfg_path, &t->cfg);

		if (e)
			tui_status(t, true, "Cannot save %s: %s", t->cfg_path, strerror(-e));
		else
			tui_status(t, false, "Saved %s", t->cfg_path);
	}
	return HR_HANDLED | HR_REDRAW;
}
