/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Help screen (F1, ?): the keys (from the key table, src/ui/keys.def),
 * the screens and the meaning of every column, as scrollable text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "ui/keytable.h"
#include "ui/tui.h"

/* The prose of the Help screen: "#" starts a heading, "@ID" stands for the
 * key lines of screen ID ("global", "replay") from the key table
 * (src/ui/keys.def), generated for the terminal's width. */
static const char *const help_text[] = {
	"#tunetop: see why a latency-critical thread jitters, change the knob, put everything back",
	"",
	"#Keys (everywhere)",
	"@global",
	"",
	"#Cores (F3)",
	"  policyN line  cluster: CPUs x core type, governor, min-max limits (or 'locked'),",
	"                current frequency, frequency transitions per second, driver",
	"  CPU / Type    CPU number and core type (Cortex-A76, P-core...)",
	"  Util          busy share of the last interval: user | system | irq+softirq",
	"  Freq          current frequency against the policy's hardware range (MHz)",
	"  C-state       share of the interval spent in each idle state (legend above:",
	"                state glyph, name, exit latency); the empty rest is busy time",
	"  Ent/s         idle entries per second (all states)",
	"  Miss/s        mispredictions per second: 'above' (state too deep for the actual",
	"                idle time) + 'below' (a deeper state would have fit)",
	"                Idle states are read at each refresh for the CPUs shown, in turn",
	"                (each every 16 refreshes) for the others: a dimmed Ent/s is from",
	"                before the row came into view, and is read at the next refresh",
	"  Off           per idle state: its glyph when enabled, x when disabled",
	"  Temp          hottest thermal zone covering the CPU",
	"  IPC           instructions per cycle (perf counters, open while Cores is shown)",
	"  LLCm/s L1Dr/s cache misses per second: last-level misses on x86, L1D refills on ARM",
	"  Csw/s Mig/s   context switches and CPU migrations per second (software: work in VMs)",
	"                n/a with its reason once on the Counters legend line; * = multiplexed",
	"@cores",
	"",
	"#Clocks (F4)",
	"  every devfreq device (NPU, GPU, DDR, buses): kind, governor, cur/min/max MHz,",
	"  time in each frequency (low green, middle yellow, top red), transitions/s, load;",
	"  NPU load per core and driver version (rknpu debugfs); debugfs clock rates;",
	"  power in watts (hwmon power/energy sensors, RAPL energy_uj between samples).",
	"@clocks",
	"",
	"#RT (F5)",
	"  RT bandwidth: sched_rt_runtime_us of sched_rt_period_us (share RT tasks may use;",
	"  unlimited = -1), throttling now and events seen, fair server (6.12+), preemption",
	"  model, isolated / nohz_full CPUs and cmdline, PM QoS in force, THP mode; per CPU:",
	"  RT tasks, throttled, rt_time vs budget, deadline tasks, resume latency limit.",
	"@rt",
	"",
	"#Journal (F6)",
	"  every recorded change: time, transaction, status, address, old -> new, who.",
	"  kept = left in place on purpose by a tunetop that quit with keep (or --keep).",
	"@journal",
	"",
	"#Setup (F2)",
	"  the settings saved to tunetoprc: theme, interval, start screen, columns, events,",
	"  header clocks, GHz, mouse, confirm quit, probe and A/B settings, latency budget.",
	"@setup",
	"",
	"#Help (F1)",
	"@help",
	"",
	"#Threads (7)",
	"  PID TID, state, policy, RT prio, nice, uclamp min/max (n/a without uclamp),",
	"  affinity, last CPU, CPU%, migrations/s, context switches/s, VmLck, WAIT (wait",
	"  channel; ioctl; NPU/GPU = blocked in an ioctl on an accelerator node), name.",
	"  R marks RT threads, ! a thread last seen on an isolated CPU.",
	"@threads",
	"",
	"#IRQs (8)",
	"  per-CPU interrupt rates, total/s, P per-CPU  M managed  - not movable,",
	"  affinity and effective affinity, chip, name; softirqs.",
	"@irqs",
	"",
	"#Isolation (9)",
	"  threads that ran on isolated / nohz_full CPUs, IRQs that may target them",
	"  (affinity) or fired there, RT threads unpinned or migrating.",
	"@isolation",
	"",
	"#Latency (0)",
	"  wake-up latency, live: the probe runs on the CPUs you type (default all;",
	"  SCHED_FIFO 95, SCHED_OTHER with a notice when not root).",
	"  Per CPU: samples, mean, p50 p90 p99 p99.9, max and when, overflows (deadlines",
	"  skipped), min; histograms side by side, log-scaled bars (green to p90,",
	"  yellow to p99, red beyond). A/B (A here: any ADDRESS=A,B): ABBA windows",
	"  (tunetoprc ab_window_s, ab_settle_ms, ab_rounds), both arms side by side,",
	"  the verdict at the end.",
	"@latency",
	"",
	"#Findings (!)",
	"  what points at a likely cause of jitter in the current sample, most severe first",
	"  (crit, warn, info; ~ = evaluated without thread data); the header counts them in",
	"  the colour of the worst. Below the list: the selected finding's evidence (the",
	"  numbers), its fix as ADDRESS=VALUE and why it matters. Latency budget: F2 Setup.",
	"@findings",
	"",
	"#Lessons (L)",
	"  the five exercises of 'tunetop learn': Enter opens one and explains, Enter",
	"  measures, t makes the change through the knob engine (or m after making it on",
	"  another screen), tunetop measures again and shows before / after and why, Enter",
	"  restores. Esc leaves (and restores). On this board when it has the interface,",
	"  else on a simulated RK3588 of the lesson's own; lesson 5 on this kernel.",
	"@lessons",
	"",
	"#Recording and replay",
	"  --record FILE writes every sample and journal event (JSON lines, like watch",
	"  --record; REC in the header). --replay FILE shows a recording read-only (REPLAY",
	"  in the header; actions are refused), with these keys:",
	"@replay",
	"",
	"#Safety",
	"  Every change is written to the journal (state dir) before the knob is touched.",
	"  Values tunetop changed are highlighted. Without root, or when another tunetop",
	"  holds the journal, tunetop is READ-ONLY and says why. After a crash, the next",
	"  start offers to restore what the dead instance left; 'tunetop restore' does too.",
	"  n/a means a value could not be read (never 0).  --demo simulates an RK3588.",
};

#define NTEXT ((int)(sizeof(help_text) / sizeof(help_text[0])))

/* The lines shown: help_text with the key lines in, for a width. */
struct help_view {
	char **line;
	int n, width;
};

static int help_width(void)
{
	return COLS < 60 ? 60 : COLS > 100 ? 100 : COLS;
}

static void help_free_lines(struct help_view *v)
{
	for (int i = 0; i < v->n; i++)
		free(v->line[i]);
	free(v->line);
	v->line = NULL;
	v->n = 0;
}

static void help_add(struct help_view *v, const char *s, size_t len)
{
	v->line = xrealloc(v->line, (size_t)(v->n + 1) * sizeof(*v->line));
	v->line[v->n++] = xstrndup(s, len);
}

void screen_help_build(struct screen_ctx *t, struct screen *s)
{
	struct help_view *v = s->priv;

	(void)t;
	if (!v)
		v = s->priv = xcalloc(1, sizeof(*v));
	s->heading_lines = 0;
	if (!v->line || v->width != help_width()) {
		help_free_lines(v);
		v->width = help_width();
		for (int i = 0; i < NTEXT; i++) {
			struct sbuf b;

			if (help_text[i][0] != '@') {
				help_add(v, help_text[i], strlen(help_text[i]));
				continue;
			}
			sbuf_init(&b);
			key_help_lines(&b, help_text[i] + 1, v->width);
			for (const char *p = b.s; p && *p;) {
				const char *nl = strchr(p, '\n');
				size_t len = nl ? (size_t)(nl - p) : strlen(p);

				help_add(v, p, len);
				p += len + (nl ? 1 : 0);
			}
			sbuf_free(&b);
		}
	}
	s->nrows = v->n;
}

void screen_help_draw(struct screen_ctx *t, struct screen *s, int y, int h)
{
	struct help_view *v;
	int n;

	screen_help_build(t, s);
	v = s->priv;
	n = v->n;
	/* scroll by the view, not a cursor: keep sel at the top line */
	if (s->sel > n - h)
		s->sel = n - h > 0 ? n - h : 0;
	s->top = s->sel;
	for (int i = 0; i < h; i++) {
		int k = s->top + i;

		ui_fill(t, y + i, 0, COLS, ROLE_DEFAULT);
		if (k >= n)
			continue;
		if (v->line[k][0] == '#')
			ui_put(t, y + i, 0, COLS, ROLE_TITLE, v->line[k] + 1);
		else
			ui_put(t, y + i, 0, COLS, ROLE_VALUE, v->line[k]);
	}
}

int screen_help_key(struct screen_ctx *t, struct screen *s, int ch)
{
	(void)t;
	if (ch == 27) {
		t->cur = 0;
		return HR_HANDLED | HR_REDRAW;
	}
	(void)s;
	return HR_IGNORED;
}

void screen_help_free(struct screen *s)
{
	struct help_view *v = s->priv;

	if (v)
		help_free_lines(v);
	free(v);
	s->priv = NULL;
}
