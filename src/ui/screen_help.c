/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Help screen (F1, ?): the keys, the screens and the meaning of every
 * column, as scrollable text. */
#include <stdio.h>
#include <string.h>

#include "ui/tui.h"

static const char *const help_text[] = {
	"#tunetop: see why a latency-critical thread jitters, change the knob, put everything back",
	"",
	"#Keys (everywhere)",
	"  F1 h        this help                     F2 S        setup: theme, interval, columns",
	"  ?           the selected row's explanation (this help where the row has none)",
	"  Tab S-Tab   next / previous screen         1..9 0      screen by number",
	"  F3 F4 F5 F6 Cores, Clocks, RT, Journal     Up Down PgUp PgDn Home End  move",
	"  !           Findings                       L           Lessons",
	"  u           undo the last change           U           restore all changes (asks)",
	"  o           show original values of changed knobs next to them",
	"  A           A/B the selected row's knob between its value and another one",
	"              (asked, pre-filled); the Latency screen shows the run",
	"  e Enter     explain the selected row: what it is, the files it comes from on",
	"              this root, why it matters for jitter, what to try, the shell line",
	"  q F10       quit: restores this session's changes unless you choose keep (or --keep)",
	"  Mouse       click a tab or a row to select it; the wheel scrolls",
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
	"  g governor    f lock a frequency / set min / max / release    i idle state on/off",
	"                (this CPU or all CPUs)",
	"",
	"#Clocks (F4)",
	"  every devfreq device (NPU, GPU, DDR, buses): kind, governor, cur/min/max MHz,",
	"  time in each frequency (low green, middle yellow, top red), transitions/s, load;",
	"  then debugfs clock rates. g governor, f lock / min / max / release",
	"",
	"#RT (F5)",
	"  RT bandwidth: sched_rt_runtime_us of sched_rt_period_us (share RT tasks may use;",
	"  unlimited = -1), throttling now and events seen, fair server (6.12+), preemption",
	"  model, isolated / nohz_full CPUs and cmdline, PM QoS in force, THP mode; per CPU:",
	"  RT tasks, throttled, rt_time vs budget, deadline tasks, resume latency limit.",
	"  r RT runtime (unlimited / 95% / value)   l hold a cpu_dma_latency value (lease,",
	"  released when tunetop exits)",
	"",
	"#Journal (F6)",
	"  every recorded change: time, transaction, status, address, old -> new, who.",
	"  kept = left in place on purpose by a tunetop that quit with keep (or --keep).",
	"  u undoes the selected change, U restores all.",
	"",
	"#Threads (7)",
	"  PID TID, state, policy, RT prio, nice, uclamp min/max (n/a without uclamp),",
	"  affinity, last CPU, CPU%, migrations/s, context switches/s, VmLck, name.",
	"  R marks RT threads, ! a thread last seen on an isolated CPU.",
	"  a affinity   F7 ] / F8 [ nice -1 / +1   p P Y policy   c uclamp (u is undo)",
	"  W thread / whole process   \\ filter   / search   t tree   < > I sort   K H hide",
	"",
	"#IRQs (8)",
	"  per-CPU interrupt rates, total/s, P per-CPU  M managed  - not movable,",
	"  affinity and effective affinity, chip, name; softirqs.  a moves an IRQ",
	"",
	"#Isolation (9)",
	"  threads that ran on isolated / nohz_full CPUs, IRQs that may target them",
	"  (affinity) or fired there, RT threads unpinned or migrating.  m moves every",
	"  movable intruder, a the selected one; t tries it: kept if the kernel moves",
	"  the IRQ within 3 s, else restored",
	"",
	"#Latency (0)",
	"  wake-up latency, live: s starts the probe on the CPUs you type (default all;",
	"  SCHED_FIFO 95, SCHED_OTHER with a notice when not root), s stops, r clears.",
	"  Per CPU: samples, mean, p50 p90 p99 p99.9, max and when, overflows (deadlines",
	"  skipped), min; histograms side by side, log-scaled bars (green to p90,",
	"  yellow to p99, red beyond). A/B (A here: any ADDRESS=A,B): ABBA windows",
	"  (tunetoprc ab_window_s, ab_settle_ms, ab_rounds), both arms side by side,",
	"  the verdict at the end; x or Esc cancels and puts the knob back.",
	"",
	"#Findings (!)",
	"  what points at a likely cause of jitter in the current sample, most severe first",
	"  (crit, warn, info; ~ = evaluated without thread data); the header counts them in",
	"  the colour of the worst. Below the list: the selected finding's evidence (the",
	"  numbers), its fix as ADDRESS=VALUE and why it matters. a or Enter applies the fix",
	"  (one journaled change, u undoes it); e explains. Latency budget: F2 Setup.",
	"",
	"#Lessons (L)",
	"  the five exercises of 'tunetop learn': Enter opens one and explains, Enter",
	"  measures, t makes the change through the knob engine (or m after making it on",
	"  another screen), tunetop measures again and shows before / after and why, Enter",
	"  restores. Esc leaves (and restores). On this board when it has the interface,",
	"  else on a simulated RK3588 of the lesson's own; lesson 5 on this kernel.",
	"",
	"#Recording and replay",
	"  --record FILE writes every sample and journal event (JSON lines, like watch",
	"  --record; REC in the header). --replay FILE shows a recording read-only (REPLAY",
	"  in the header; actions are refused): space play / pause, . and , step one sample,",
	"  ] and [ seek 10 samples, } and { the end / the start, + and - the speed.",
	"",
	"#Safety",
	"  Every change is written to the journal (state dir) before the knob is touched.",
	"  Values tunetop changed are highlighted. Without root, or when another tunetop",
	"  holds the journal, tunetop is READ-ONLY and says why. After a crash, the next",
	"  start offers to restore what the dead instance left; 'tunetop restore' does too.",
	"  n/a means a value could not be read (never 0).  --demo simulates an RK3588.",
};

#define NHELP ((int)(sizeof(help_text) / sizeof(help_text[0])))

static void help_build(struct tui *t, struct screen *s)
{
	(void)t;
	s->heading_lines = 0;
	s->nrows = NHELP;
}

static void help_draw(struct tui *t, struct screen *s, int y, int h)
{
	if (!s->nrows)
		help_build(t, s);
	/* scroll by the view, not a cursor: keep sel at the top line */
	if (s->sel > NHELP - h)
		s->sel = NHELP - h > 0 ? NHELP - h : 0;
	s->top = s->sel;
	for (int i = 0; i < h; i++) {
		int k = s->top + i;

		ui_fill(t, y + i, 0, COLS, ROLE_DEFAULT);
		if (k >= NHELP)
			continue;
		if (help_text[k][0] == '#')
			ui_put(t, y + i, 0, COLS, ROLE_TITLE, help_text[k] + 1);
		else
			ui_put(t, y + i, 0, COLS, ROLE_VALUE, help_text[k]);
	}
}

static int help_key(struct tui *t, struct screen *s, int ch)
{
	(void)t;
	if (ch == 27) {
		t->cur = 0;
		return HR_HANDLED | HR_REDRAW;
	}
	(void)s;
	return HR_IGNORED;
}

const struct screen_ops screen_help = {
	.id = "help",
	.name = "Help",
	.fkey = KEY_F(1),
	.build = help_build,
	.draw = help_draw,
	.key = help_key,
	.hints = NULL,
	.focus = tui_focus_none,
};
