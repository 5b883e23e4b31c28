/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Threads screen and the Isolation screen.
 *
 * Threads: an htop-like list of every thread (flat, or a process tree with
 * each process's threads under it), kernel threads shown or hidden (K),
 * processes only (H), filter (F4 or \), search (F3 or /, n again), sort by
 * any column (F6 menu, < > step, I invert). Columns: PID, TID, state,
 * policy, RT priority, nice, uclamp min/max (n/a without uclamp), affinity,
 * last CPU, CPU%, migrations/s, voluntary and involuntary context switches/s,
 * VmLck. RT threads stand out, and so does the CPU column of a thread that
 * last ran on an isolated or nohz_full CPU. Actions (htop's keys): a
 * affinity (CPU checklist or a typed list), F7/F8 (or ] [) nice -/+, p / Y /
 * P policy and priority, c uclamp; W switches their scope between the
 * selected thread and every thread of its process. Everything goes through
 * the knob engine (thread/<tid>/..., process/<pid>/...), journaled and
 * undone with u; refusals are explained on the status line.
 *
 * The thread list is read at most once per second whatever the refresh
 * interval, and only while this screen or the Isolation screen is shown;
 * each read takes every thread's stat but the slow fields (affinity,
 * uclamp, migrations, context switches, VmLck) only of the rows on screen,
 * new and just-changed threads, and the rest in rotation (doc/threads.md);
 * after an action the affected process is re-read. Its own cost is shown
 * in the heading ("full N": threads whose slow fields that read took).
 *
 * Isolation: the audit of src/model/isolation.h over the same thread list
 * and the sampler's interrupt rates: intruders on isolated / nohz_full CPUs
 * with their fix, RT threads not pinned or migrating. m moves every
 * movable intruder to the housekeeping CPUs in one journaled change, a
 * applies the selected row's fix. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"
#include "model/explain.h"
#include "model/isolation.h"
#include "source/schedattr.h"
#include "source/threads.h"
#include "ui/tui.h"

/* The thread table lives in the model (t->sampler.threads). */
static const struct thread_table *thr_table(struct screen_ctx *t)
{
	return thread_sampler_table(&t->sampler.threads);
}

/* The shown root's online CPUs (a --root tree's threads run on its CPUs). */
static void root_online(const struct screen_ctx *t, struct cpumask *m)
{
	char buf[4096];

	cpumask_zero(m);
	if (sysfs_read_str(&t->root, "sys/devices/system/cpu/online", buf, sizeof(buf)) == 0 &&
	    cpulist_parse(buf, m) == 0)
		return;
	cpumask_set(m, 0);
}

/* Isolated or nohz_full CPUs of the shown root. */
static void iso_cpus(const struct screen_ctx *t, struct cpumask *m)
{
	cpumask_zero(m);
	if (!t->snap)
		return;
	if (t->snap->sys.have_isolated)
		cpumask_or(m, &t->snap->sys.isolated);
	if (t->snap->sys.have_nohz_full)
		cpumask_or(m, &t->snap->sys.nohz_full);
}

/* ---- Threads screen ------------------------------------------------------------------- */

enum col {
	C_PID,
	C_TID,
	C_STATE,
	C_POLICY,
	C_PRIO,
	C_NICE,
	C_UCMIN,
	C_UCMAX,
	C_AFF,
	C_LAST,
	C_CPU,
	C_MIG,
	C_VOL,
	C_INVOL,
	C_VMLCK,
	C_WAIT,
	C_NAME,
	NCOL
};

static const struct {
	const char *head, *name;
	int w;
	bool left;
} cols[NCOL] = {
	[C_PID] = {"PID", "PID", 7, false},
	[C_TID] = {"TID", "TID", 7, false},
	[C_STATE] = {"S", "state", 1, true},
	[C_POLICY] = {"POLICY", "policy", 8, true},
	[C_PRIO] = {"PRI", "RT priority", 3, false},
	[C_NICE] = {"NI", "nice", 3, false},
	[C_UCMIN] = {"UCMIN", "uclamp min", 5, false},
	[C_UCMAX] = {"UCMAX", "uclamp max", 5, false},
	[C_AFF] = {"AFFINITY", "affinity", 10, true},
	[C_LAST] = {"CPU", "last CPU", 3, false},
	[C_CPU] = {"CPU%", "CPU%", 5, false},
	[C_MIG] = {"MIG/s", "migrations/s", 6, false},
	[C_VOL] = {"VCSW/s", "voluntary switches/s", 7, false},
	[C_INVOL] = {"ICSW/s", "involuntary switches/s", 7, false},
	[C_VMLCK] = {"VMLCK", "locked memory", 6, false},
	[C_WAIT] = {"WAIT", "wait channel", 18, true},
	[C_NAME] = {"NAME", "name", 0, true},
};

/* Columns dropped first on narrow terminals. */
static const enum col drop_order[] = {C_VMLCK, C_INVOL, C_UCMAX, C_UCMIN, C_VOL,
				      C_WAIT,  C_STATE, C_MIG,	 C_PRIO,  C_PID};

struct thr_view {
	int *idx;   /* rows: indices into the table */
	int *depth; /* tree depth of each row */
	size_t n, cap;
	bool hide_kernel, hide_threads, tree, desc, scope_process;
	enum col sort;
	char filter[64], search[64];
	/* the selected thread as of the last build, and its row then: a build
	 * that finds s->sel still at sel_at (no key moved it) puts it back on
	 * that thread as rows re-sort, come and go; a moved one is kept */
	pid_t sel_tid;
	uint64_t sel_start;
	int sel_at;
	bool shown[NCOL];
	size_t nthreads, nprocs, nkernel;
};

static const struct thread_table *cmp_tab;
static enum col cmp_col;
static bool cmp_desc;

/* The Wait cell: "NPU ioctl" (blocked in an ioctl on an accelerator node),
 * "ioctl WCHAN", the wait channel, "-" running or not waiting, "n/a"
 * unread. */
static void fmt_wait(char *buf, size_t cap, const struct thread_info *th)
{
	if (!th->have_wait)
		snprintf(buf, cap, "n/a");
	else if (th->accel[0])
		snprintf(buf, cap, "%s ioctl %s", th->accel, th->wchan);
	else if (th->in_ioctl)
		snprintf(buf, cap, "ioctl %s", th->wchan);
	else if (th->wchan[0])
		snprintf(buf, cap, "%s", th->wchan);
	else
		snprintf(buf, cap, "-");
}

static double num_key(const struct thread_info *x, enum col c)
{
	switch (c) {
	case C_PID: return x->pid;
	case C_TID: return x->tid;
	case C_STATE: return x->state;
	case C_POLICY: return threads_is_rt(x) ? 100 + x->policy : x->policy;
	case C_PRIO: return x->rt_prio;
	case C_NICE: return x->nice;
	case C_UCMIN: return x->uclamp_min;
	case C_UCMAX: return x->uclamp_max;
	case C_AFF: return x->have_affinity ? cpumask_count(&x->affinity) : -1;
	case C_LAST: return x->last_cpu;
	case C_CPU: return x->cpu_pct;
	case C_MIG: return x->migrations_per_s;
	case C_VOL: return x->vol_per_s;
	case C_INVOL: return x->invol_per_s;
	case C_VMLCK: return (double)x->vmlck_kb;
	case C_WAIT: return x->accel[0] ? 2 : x->in_ioctl ? 1 : x->wchan[0] ? 0 : -1;
	default: return 0;
	}
}

static int cmp_rows(const void *a, const void *b)
{
	const struct thread_info *x = &cmp_tab->t[*(const int *)a];
	const struct thread_info *y = &cmp_tab->t[*(const int *)b];
	int r;

	if (cmp_col == C_NAME) {
		r = strcasecmp(x->comm, y->comm);
	} else {
		double u = num_key(x, cmp_col), v = num_key(y, cmp_col);

		/* n/a sorts last in either direction */
		if (isnan(u) != isnan(v))
			return isnan(u) ? 1 : -1;
		r = (isnan(u) || u == v) ? 0 : (u < v ? -1 : 1);
	}
	if (cmp_desc)
		r = -r;
	if (!r)
		r = x->tid < y->tid ? -1 : x->tid > y->tid;
	return r;
}

static bool row_visible(const struct thr_view *v, const struct thread_info *x)
{
	if (v->hide_kernel && x->kernel)
		return false;
	if (v->hide_threads && x->tid != x->pid)
		return false;
	if (v->filter[0]) {
		char num[16];

		snprintf(num, sizeof(num), "%d", (int)x->tid);
		if (!strcasestr(x->comm, v->filter) && strcmp(num, v->filter)) {
			snprintf(num, sizeof(num), "%d", (int)x->pid);
			if (strcmp(num, v->filter))
				return false;
		}
	}
	return true;
}

static void push_row(struct thr_view *v, int i, int depth)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 256;
		v->idx = xrealloc(v->idx, v->cap * sizeof(int));
		v->depth = xrealloc(v->depth, v->cap * sizeof(int));
	}
	v->idx[v->n] = i;
	v->depth[v->n] = depth;
	v->n++;
}

/* Process tree: children by ppid among process leaders, each process's
 * other threads right under it. */
struct tree {
	const struct thread_table *tab;
	int *first_child, *next_sib, *first_thr, *next_thr;
	bool *done;
};

static void tree_emit(struct thr_view *v, struct tree *tr, int leader, int depth)
{
	if (tr->done[leader])
		return;
	tr->done[leader] = true;
	if (row_visible(v, &tr->tab->t[leader]))
		push_row(v, leader, depth);
	for (int k = tr->first_thr[leader]; k >= 0; k = tr->next_thr[k]) {
		tr->done[k] = true;
		if (row_visible(v, &tr->tab->t[k]))
			push_row(v, k, depth + 1);
	}
	for (int c = tr->first_child[leader]; c >= 0; c = tr->next_sib[c])
		tree_emit(v, tr, c, depth + 1);
}

static void build_tree(struct thr_view *v, const struct thread_table *tab, int *order)
{
	size_t n = tab->n;
	struct tree tr = {tab,
			  xcalloc(n, sizeof(int)),
			  xcalloc(n, sizeof(int)),
			  xcalloc(n, sizeof(int)),
			  xcalloc(n, sizeof(int)),
			  xcalloc(n, sizeof(bool))};

	for (size_t i = 0; i < n; i++)
		tr.first_child[i] = tr.next_sib[i] = tr.first_thr[i] = tr.next_thr[i] = -1;
	/* link in reverse sorted order so that lists come out sorted */
	for (size_t k = n; k-- > 0;) {
		int i = order[k];
		const struct thread_info *x = &tab->t[i];
		const struct thread_info *leader = threads_find(tab, x->pid);
		int li = leader ? (int)(leader - tab->t) : -1;

		if (x->tid != x->pid) {
			if (li >= 0) {
				tr.next_thr[i] = tr.first_thr[li];
				tr.first_thr[li] = i;
			}
			continue;
		}
		{
			const struct thread_info *p =
				x->ppid > 0 ? threads_find(tab, x->ppid) : NULL;
			int pi = p && p->tid == p->pid && p != x ? (int)(p - tab->t) : -1;

			if (pi >= 0) {
				tr.next_sib[i] = tr.first_child[pi];
				tr.first_child[pi] = i;
			}
		}
	}
	for (size_t k = 0; k < n; k++) {
		int i = order[k];
		const struct thread_info *x = &tab->t[i];
		const struct thread_info *p;

		if (x->tid != x->pid)
			continue;
		p = x->ppid > 0 ? threads_find(tab, x->ppid) : NULL;
		if (!p || p->tid != p->pid || p == x)
			tree_emit(v, &tr, i, 0); /* a root */
	}
	for (size_t k = 0; k < n; k++) /* orphans (leader gone, loops) */
		if (!tr.done[order[k]] && row_visible(v, &tab->t[order[k]]))
			push_row(v, order[k], 0);
	xfree_all(tr.first_child, tr.next_sib, tr.first_thr, tr.next_thr, tr.done);
}

/* Is s the screen on display (Threads and Isolation rebuild only then)? */
static bool screen_is_shown(struct screen_ctx *t, const struct screen *s)
{
	return &t->screens[t->cur] == s;
}

void screen_threads_build(struct screen_ctx *t, struct screen *s)
{
	struct thr_view *v = s->priv;
	const struct thread_table *tab;
	int *order;

	if (!v) {
		v = s->priv = xcalloc(1, sizeof(*v));
		v->sort = C_CPU;
		v->desc = true;
	}
	s->heading_lines = 2;
	if (t->replay) {
		/* a recording holds system-wide samples, not this machine's threads */
		s->nrows = 0;
		v->n = 0;
		return;
	}
	if (!screen_is_shown(t, s) && v->n)
		return; /* only while shown */
	if (screen_is_shown(t, s))
		thread_sampler_refresh(&t->sampler.threads, false);
	tab = thr_table(t);
	v->n = 0;
	v->nthreads = v->nprocs = v->nkernel = 0;
	if (!tab) {
		s->nrows = 0;
		return;
	}
	order = xcalloc(tab->n ? tab->n : 1, sizeof(int));
	for (size_t i = 0; i < tab->n; i++) {
		order[i] = (int)i;
		v->nthreads++;
		v->nprocs += tab->t[i].tid == tab->t[i].pid;
		v->nkernel += tab->t[i].kernel;
	}
	cmp_tab = tab;
	cmp_col = v->sort;
	cmp_desc = v->desc;
	qsort(order, tab->n, sizeof(int), cmp_rows);
	if (v->tree) {
		build_tree(v, tab, order);
	} else {
		for (size_t k = 0; k < tab->n; k++)
			if (row_visible(v, &tab->t[order[k]]))
				push_row(v, order[k], 0);
	}
	free(order);
	s->nrows = (int)v->n;
	/* keep the selected thread selected */
	if (v->sel_tid > 0 && s->sel == v->sel_at)
		for (size_t k = 0; k < v->n; k++)
			if (tab->t[v->idx[k]].tid == v->sel_tid) {
				s->sel = (int)k;
				break;
			}
	ui_scroll(s, t->body_h - s->heading_lines);
	if (s->sel >= 0 && (size_t)s->sel < v->n) {
		v->sel_tid = tab->t[v->idx[s->sel]].tid;
		v->sel_start = tab->t[v->idx[s->sel]].start_time;
	}
	v->sel_at = s->sel;
}

void screen_threads_free(struct screen *s)
{
	struct thr_view *v = s->priv;

	if (v) {
		free(v->idx);
		free(v->depth);
	}
	free(v);
	s->priv = NULL;
}

static const struct thread_info *selected(struct screen_ctx *t, struct screen *s)
{
	struct thr_view *v = s->priv;
	const struct thread_table *tab = thr_table(t);

	if (!v || !tab || s->sel < 0 || (size_t)s->sel >= v->n)
		return NULL;
	return &tab->t[v->idx[s->sel]];
}

static void fmt_rate(char *buf, size_t cap, double v)
{
	if (!isfinite(v))
		snprintf(buf, cap, "n/a");
	else if (v >= 1000)
		snprintf(buf, cap, "%.0f", v);
	else
		snprintf(buf, cap, "%.1f", v);
}

static void fmt_kb(char *buf, size_t cap, uint64_t kb)
{
	if (kb >= 10ULL * 1024 * 1024)
		snprintf(buf, cap, "%lluG", (unsigned long long)(kb >> 20));
	else if (kb >= 10ULL * 1024)
		snprintf(buf, cap, "%lluM", (unsigned long long)(kb >> 10));
	else
		snprintf(buf, cap, "%lluK", (unsigned long long)kb);
}

/* Which columns fit in COLS (NAME gets the rest, at least 12). */
static void fit_columns(struct thr_view *v)
{
	int used = 2; /* marker */

	for (int c = 0; c < NCOL; c++) {
		v->shown[c] = true;
		if (c != C_NAME)
			used += cols[c].w + 1;
	}
	for (size_t k = 0; k < sizeof(drop_order) / sizeof(drop_order[0]) && used + 12 > COLS;
	     k++) {
		v->shown[drop_order[k]] = false;
		used -= cols[drop_order[k]].w + 1;
	}
}

static const char *addr_of(char *buf, size_t cap, pid_t tid, const char *leaf)
{
	snprintf(buf, cap, "%s/%s", knob_addr_thread(tid).s, leaf);
	return buf;
}

void screen_threads_draw(struct screen_ctx *t, struct screen *s, int y, int h)
{
	struct thr_view *v = s->priv;
	const struct thread_table *tab = thr_table(t);
	struct cpumask iso, online;
	int rows, x, pane = tui_thread_counters_lines(t, h);
	char head[256];

	ui_fill(t, y, 0, COLS, ROLE_DEFAULT);
	if (t->replay) {
		ui_put(t, y, 0, COLS, ROLE_VALUE_NA,
		       "REPLAY: threads are not in a recording (it holds the system-wide "
		       "samples);");
		ui_put(t, y + 1, 0, COLS, ROLE_VALUE_NA,
		       "the IRQs and Isolation screens show the recorded interrupts.");
		return;
	}
	if (!v || !tab) {
		ui_put(t, y, 0, COLS, ROLE_VALUE_NA, "reading threads...");
		return;
	}
	iso_cpus(t, &iso);
	root_online(t, &online);
	fit_columns(v);
	x = ui_printf(t, y, 0, COLS, ROLE_LABEL, "%zu threads, %zu processes (%zu kernel%s)  ",
		      v->nthreads, v->nprocs, v->nkernel, v->hide_kernel ? ", hidden: K" : "");
	x += ui_printf(t, y, x, COLS - x, ROLE_LABEL, "sort %s %s  %s%s  scope %s  ",
		       cols[v->sort].name, v->desc ? "desc" : "asc", v->tree ? "tree" : "flat",
		       v->hide_threads ? " (processes)" : "",
		       v->scope_process ? "process (W)" : "thread (W)");
	if (v->filter[0])
		x += ui_printf(t, y, x, COLS - x, ROLE_WARN, "filter '%s'  ", v->filter);
	ui_printf(t, y, x, COLS - x, ROLE_LABEL, "read %.1f ms CPU, at most 1/s (full %zu)",
		  t->sampler.threads.cost_ms, t->sampler.threads.incr.nslow);
	/* column heading */
	ui_fill(t, y + 1, 0, COLS, ROLE_COLHEAD);
	x = 2;
	for (int c = 0; c < NCOL; c++) {
		if (!v->shown[c])
			continue;
		if (c == C_NAME)
			snprintf(head, sizeof(head), "%s%s", cols[c].head,
				 (int)v->sort == c ? "*" : "");
		else
			snprintf(head, sizeof(head), cols[c].left ? "%-*s" : "%*s", cols[c].w,
				 cols[c].head);
		if (v->sort == (enum col)c && c != C_NAME && head[0] == ' ')
			head[0] = '*';
		ui_put(t, y + 1, x, COLS - x,
		       v->sort == (enum col)c ? ROLE_TAB_ACTIVE : ROLE_COLHEAD, head);
		x += (c == C_NAME ? 0 : cols[c].w + 1);
	}
	rows = h - s->heading_lines - pane;
	ui_scroll(s, rows);
	{ /* the rows on screen: their slow fields are read every refresh */
		pid_t want[256];
		size_t nw = 0;

		for (int i = 0; i < rows && s->top + i < s->nrows && nw < 256; i++)
			want[nw++] = tab->t[v->idx[s->top + i]].tid;
		thread_sampler_want(&t->sampler.threads, want, nw);
	}
	for (int i = 0; i < rows && s->top + i < s->nrows; i++) {
		int r = s->top + i, yy = y + s->heading_lines + i;
		const struct thread_info *th = &tab->t[v->idx[r]];
		bool sel = r == s->sel, rt = threads_is_rt(th);
		bool on_iso = th->last_cpu >= 0 && cpumask_test(&iso, th->last_cpu);
		enum role base = sel ? ROLE_CURSOR : rt ? ROLE_WARN : ROLE_VALUE;
		char buf[160], a[KNOB_ADDR_MAX];

		if (sel) {
			v->sel_tid = th->tid;
			v->sel_start = th->start_time;
		}
		ui_fill(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
		ui_printf(t, yy, 0, 2, on_iso && !sel ? ROLE_ALERT : base, "%c%c", rt ? 'R' : ' ',
			  on_iso ? '!' : ' ');
		x = 2;
		for (int c = 0; c < NCOL; c++) {
			enum role role = base;
			const char *leaf = NULL;

			if (!v->shown[c])
				continue;
			buf[0] = '\0';
			switch ((enum col)c) {
			case C_PID: snprintf(buf, sizeof(buf), "%d", (int)th->pid); break;
			case C_TID: snprintf(buf, sizeof(buf), "%d", (int)th->tid); break;
			case C_STATE: snprintf(buf, sizeof(buf), "%c", th->state); break;
			case C_POLICY:
				snprintf(buf, sizeof(buf), "%s", threads_policy_label(th->policy));
				leaf = "policy";
				break;
			case C_PRIO:
				snprintf(buf, sizeof(buf), rt ? "%d" : "-", th->rt_prio);
				leaf = "policy";
				break;
			case C_NICE:
				snprintf(buf, sizeof(buf), "%d", th->nice);
				leaf = "nice";
				break;
			case C_UCMIN:
			case C_UCMAX: {
				int val = c == C_UCMIN ? th->uclamp_min : th->uclamp_max;

				if (val < 0) {
					snprintf(buf, sizeof(buf), "n/a");
					if (!sel)
						role = ROLE_VALUE_NA;
				} else {
					snprintf(buf, sizeof(buf), "%d", val);
				}
				leaf = c == C_UCMIN ? "uclamp_min" : "uclamp_max";
				break;
			}
			case C_AFF:
				if (th->have_affinity)
					cpulist_format(&th->affinity, buf, sizeof(buf));
				else
					snprintf(buf, sizeof(buf), "n/a");
				leaf = "affinity";
				break;
			case C_LAST:
				if (th->last_cpu >= 0)
					snprintf(buf, sizeof(buf), "%d", th->last_cpu);
				else
					snprintf(buf, sizeof(buf), "n/a");
				if (on_iso && !sel)
					role = ROLE_ALERT;
				break;
			case C_CPU: fmt_rate(buf, sizeof(buf), th->cpu_pct); break;
			case C_MIG:
				if (th->have_migrations)
					fmt_rate(buf, sizeof(buf), th->migrations_per_s);
				else
					snprintf(buf, sizeof(buf), "n/a");
				break;
			case C_VOL: fmt_rate(buf, sizeof(buf), th->vol_per_s); break;
			case C_INVOL: fmt_rate(buf, sizeof(buf), th->invol_per_s); break;
			case C_VMLCK: fmt_kb(buf, sizeof(buf), th->vmlck_kb); break;
			case C_WAIT:
				fmt_wait(buf, sizeof(buf), th);
				if (th->accel[0] && !sel)
					role = ROLE_ALERT;
				break;
			case C_NAME: {
				/* a deep process tree (a test under make, a service
				 * under systemd) must not push the name off the screen:
				 * the indentation keeps 16 columns for the name, and the
				 * last level is always drawn */
				int d = v->depth[r], cap = (COLS - x - 16) / 2;
				char ind[64] = "";

				if (cap > 20)
					cap = 20;
				if (cap < 1)
					cap = 1;
				if (d > cap)
					d = cap;
				for (int k = 0; k < d; k++)
					strcat(ind, k == d - 1 ? "`-" : "  ");
				snprintf(buf, sizeof(buf), "%s%s%s%s", ind, th->kernel ? "[" : "",
					 th->comm, th->kernel ? "]" : "");
				if (!sel && !rt && (th->kernel || th->tid != th->pid))
					role = ROLE_LABEL;
				break;
			}
			default: break;
			}
			if (leaf && !sel && tui_changed(t, addr_of(a, sizeof(a), th->tid, leaf)))
				role = ROLE_CHANGED;
			if (!strcmp(buf, "n/a") && !sel)
				role = ROLE_VALUE_NA;
			if (c == C_NAME) {
				ui_put(t, yy, x, COLS - x, role, buf);
			} else {
				char cell[64];

				snprintf(cell, sizeof(cell), cols[c].left ? "%-*.*s" : "%*.*s",
					 cols[c].w, cols[c].w, buf);
				ui_put(t, yy, x, COLS - x, role, cell);
				x += cols[c].w + 1;
			}
		}
	}
	if (!s->nrows)
		ui_put(t, y + s->heading_lines, 2, COLS - 2, ROLE_VALUE_NA,
		       v->filter[0] ? "no thread matches the filter (F4 or \\ changes it)"
				    : "no threads");
	{ /* counters of the selected thread (src/ui/counters.c) */
		const struct thread_info *th = selected(t, s);

		tui_thread_counters_draw(t, th ? th->tid : 0, th ? th->start_time : 0,
					 th ? th->comm : NULL, y + h - pane, pane);
	}
	(void)online;
}

/* ---- actions ---------------------------------------------------------------------- */

static const char *scope_addr(const struct thr_view *v, const struct thread_info *th, char *buf,
			      size_t cap)
{
	str_copy(buf, cap,
		 v->scope_process ? knob_addr_process(th->pid).s : knob_addr_thread(th->tid).s);
	return buf;
}

static int after_action(struct screen_ctx *t, const struct thread_info *th)
{
	pid_t pid = th->pid;

	thread_sampler_patch_process(&t->sampler.threads, pid);
	(void)t;
	return HR_HANDLED | HR_REDRAW | HR_RESCAN;
}

static int do_affinity(struct screen_ctx *t, struct screen *s, const struct thread_info *th)
{
	struct thr_view *v = s->priv;
	struct cpumask online, iso;
	char list[256], title[96], who[48];
	bool scope = v->scope_process;

	root_online(t, &online);
	iso_cpus(t, &iso);
	snprintf(title, sizeof(title), "Affinity of %s (%d)", th->comm, (int)th->tid);
	if (ui_cpu_dialog(t, title, &online, &th->affinity, &iso, &scope, list, sizeof(list)) != 0)
		return HR_HANDLED | HR_REDRAW;
	v->scope_process = scope;
	tui_set1(t, "%s/affinity=%s", scope_addr(v, th, who, sizeof(who)), list);
	return after_action(t, th);
}

static int do_nice(struct screen_ctx *t, struct screen *s, const struct thread_info *th, int delta)
{
	struct thr_view *v = s->priv;
	char who[48];
	int n = th->nice + delta;

	if (n < -20 || n > 19) {
		tui_status(t, true, "nice stays within -20..19 (now %d)", th->nice);
		return HR_HANDLED | HR_REDRAW;
	}
	tui_set1(t, "%s/nice=%d", scope_addr(v, th, who, sizeof(who)), n);
	return after_action(t, th);
}

static int do_policy(struct screen_ctx *t, struct screen *s, const struct thread_info *th)
{
	static const char *const items[] = {
		"OTHER   normal time sharing (nice applies)",
		"BATCH   CPU-bound, no wake-up preemption",
		"IDLE    only when nothing else runs",
		"FIFO    real-time, priority 1..99, runs until it blocks",
		"RR      real-time, priority 1..99, time slices among equals",
	};
	static const char *const names[] = {"other", "batch", "idle", "fifo", "rr"};
	struct thr_view *v = s->priv;
	char title[96], who[48], prio[16];
	int cur = 0, k;

	switch (th->policy) {
	case 3: cur = 1; break; /* SCHED_BATCH */
	case 5: cur = 2; break; /* SCHED_IDLE */
	case 1: cur = 3; break; /* SCHED_FIFO */
	case 2: cur = 4; break; /* SCHED_RR */
	default: cur = 0; break;
	}
	snprintf(title, sizeof(title), "Policy of %s (%d)%s", th->comm, (int)th->tid,
		 v->scope_process ? ", whole process" : "");
	k = ui_menu(t, title, items, 5, cur, "Enter: choose   Esc: cancel   (W: thread/process)");
	if (k < 0)
		return HR_HANDLED | HR_REDRAW;
	if (k < 3) {
		tui_set1(t, "%s/policy=%s", scope_addr(v, th, who, sizeof(who)), names[k]);
		return after_action(t, th);
	}
	snprintf(prio, sizeof(prio), "%d", threads_is_rt(th) && th->rt_prio > 0 ? th->rt_prio : 50);
	if (ui_input(t, title, "RT priority 1..99 (99 = highest):", prio, sizeof(prio)) != 0)
		return HR_HANDLED | HR_REDRAW;
	tui_set1(t, "%s/policy=%s:%s", scope_addr(v, th, who, sizeof(who)), names[k],
		 str_trim(prio));
	return after_action(t, th);
}

/* Governors that ignore uclamp, for the note ("policy4 interactive"). */
static void non_schedutil(struct screen_ctx *t, char *buf, size_t cap)
{
	const struct cpufreq_info *f = t->snap ? &t->snap->freq : NULL;
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; f && i < f->npolicies && len < cap; i++)
		if (f->pol[i].governor[0] && strcmp(f->pol[i].governor, "schedutil"))
			len += (size_t)snprintf(buf + len, cap - len, "%s%s %s", len ? ", " : "",
						f->pol[i].name, f->pol[i].governor);
}

static int do_uclamp(struct screen_ctx *t, struct screen *s, const struct thread_info *th)
{
	static const char *const items[] = {
		"uclamp_min  utilization floor (raises the frequency schedutil picks)",
		"uclamp_max  utilization ceiling (caps it)",
		"reset       uclamp_min 0, uclamp_max 1024"};
	struct thr_view *v = s->priv;
	char title[96], who[48], val[16], others[200], foot[300];
	int k;

	if (t->root.live && !schedattr_have_uclamp()) { /* a tree's threads are files */
		tui_status(t, true,
			   "Refused: EOPNOTSUPP: this kernel has no utilization clamping "
			   "(CONFIG_UCLAMP_TASK is not set)");
		return HR_HANDLED | HR_REDRAW;
	}
	non_schedutil(t, others, sizeof(others));
	if (others[0])
		snprintf(foot, sizeof(foot), "only schedutil honours uclamp; %s ignore%s it",
			 others, strchr(others, ',') ? "" : "s");
	else
		snprintf(foot, sizeof(foot), "schedutil turns the clamp into a frequency");
	snprintf(title, sizeof(title), "uclamp of %s (%d)", th->comm, (int)th->tid);
	k = ui_menu(t, title, items, 3, 0, foot);
	if (k < 0)
		return HR_HANDLED | HR_REDRAW;
	scope_addr(v, th, who, sizeof(who));
	if (k == 2) {
		const char *a[2];
		char a0[KNOB_ADDR_MAX + 16], a1[KNOB_ADDR_MAX + 16];

		snprintf(a0, sizeof(a0), "%s/uclamp_min=0", who);
		snprintf(a1, sizeof(a1), "%s/uclamp_max=1024", who);
		a[0] = a0;
		a[1] = a1;
		tui_set(t, a, 2, 0);
		return after_action(t, th);
	}
	snprintf(val, sizeof(val), "%d",
		 k == 0 ? (th->uclamp_min >= 0 ? th->uclamp_min : 0)
			: (th->uclamp_max >= 0 ? th->uclamp_max : 1024));
	if (ui_input(t, title, "0..1024 (1024 = the biggest CPU at full speed):", val,
		     sizeof(val)) != 0)
		return HR_HANDLED | HR_REDRAW;
	if (tui_set1(t, "%s/%s=%s", who, k == 0 ? "uclamp_min" : "uclamp_max", str_trim(val)) ==
		    0 &&
	    others[0])
		tui_status(t, false,
			   "%s=%s set; note: only schedutil honours it, %s ignore%s it (RK3588: "
			   "util_min=512 accepted, the big cores stayed at 408 MHz)",
			   k == 0 ? "uclamp_min" : "uclamp_max", val, others,
			   strchr(others, ',') ? "" : "s");
	return after_action(t, th);
}

static void search_next(struct screen_ctx *t, struct screen *s, bool from_next)
{
	struct thr_view *v = s->priv;
	const struct thread_table *tab = thr_table(t);

	if (!v->search[0] || !tab || !v->n)
		return;
	for (size_t k = 0; k < v->n; k++) {
		size_t r = ((size_t)s->sel + (from_next ? 1 : 0) + k) % v->n;
		const struct thread_info *th = &tab->t[v->idx[r]];
		char num[16];

		snprintf(num, sizeof(num), "%d", (int)th->tid);
		if (strcasestr(th->comm, v->search) || !strcmp(num, v->search)) {
			s->sel = (int)r;
			v->sel_tid = th->tid;
			v->sel_at = s->sel; /* the build keeps this thread */
			ui_scroll(s, t->body_h - s->heading_lines);
			return;
		}
	}
	tui_status(t, true, "'%s' not found", v->search);
}

static int sort_menu(struct screen_ctx *t, struct screen *s)
{
	struct thr_view *v = s->priv;
	const char *items[NCOL];
	int k;

	for (int c = 0; c < NCOL; c++)
		items[c] = cols[c].name;
	k = ui_menu(t, "Sort by", items, NCOL, (int)v->sort, "Enter: sort   Esc: cancel");
	if (k >= 0) {
		if ((enum col)k == v->sort)
			v->desc = !v->desc;
		v->sort = (enum col)k;
	}
	return HR_HANDLED | HR_REDRAW;
}

/* Edit text (the filter, the search) in a dialog starting from its value:
 * true when entered (text is then the trimmed input), false when cancelled. */
static bool ask_text(struct screen_ctx *t, const char *title, const char *prompt, char *text,
		     size_t cap)
{
	char buf[64];

	str_copy(buf, sizeof(buf), text);
	if (ui_input(t, title, prompt, buf, sizeof(buf)) != 0)
		return false;
	str_copy(text, cap, str_trim(buf));
	return true;
}

/* The view flag an on/off key flips: K kernel threads, H threads of a
 * process, t / F5 tree, I descending order. */
static bool *view_flag(struct thr_view *v, int ch)
{
	switch (ch) {
	case 'K': return &v->hide_kernel;
	case 'H': return &v->hide_threads;
	case 'I': return &v->desc;
	default: return &v->tree; /* t, F5 */
	}
}

int screen_threads_key(struct screen_ctx *t, struct screen *s, int ch)
{
	struct thr_view *v = s->priv;
	const struct thread_info *th = selected(t, s);
	int r = HR_IGNORED;

	if (!v)
		return HR_IGNORED;
	switch (ch) {
	case 'a':
		if (th)
			return do_affinity(t, s, th);
		return HR_HANDLED;
	case KEY_F(7):
	case ']':
		if (th)
			return do_nice(t, s, th, -1);
		return HR_HANDLED;
	case KEY_F(8):
	case '[':
		if (th)
			return do_nice(t, s, th, +1);
		return HR_HANDLED;
	case 'p':
	case 'P':
	case 'Y':
		if (th)
			return do_policy(t, s, th);
		return HR_HANDLED;
	case 'c':
		if (th)
			return do_uclamp(t, s, th);
		return HR_HANDLED;
	case 'C': tui_thread_counters_toggle(t); return HR_HANDLED | HR_REDRAW;
	case 'W':
		v->scope_process = !v->scope_process;
		tui_status(t, false,
			   v->scope_process
				   ? "Actions apply to every thread of the process (W: this thread)"
				   : "Actions apply to the selected thread (W: the whole process)");
		return HR_HANDLED | HR_REDRAW;
	case 'K':
	case 'H':
	case 't':
	case KEY_F(5):
	case 'I': {
		bool *flag = view_flag(v, ch);

		*flag = !*flag;
		if (ch == 'K')
			tui_status(t, false,
				   v->hide_kernel ? "Kernel threads hidden (K shows)"
						  : "Kernel threads shown (K hides)");
		r = HR_HANDLED | HR_REDRAW;
		break;
	}
	case KEY_F(6): r = sort_menu(t, s); break;
	case '<':
	case '>':
		v->sort = (enum col)(((int)v->sort + (ch == '>' ? 1 : NCOL - 1)) % NCOL);
		r = HR_HANDLED | HR_REDRAW;
		break;
	case KEY_F(4):
	case '\\':
		ask_text(t, "Filter", "Name (substring) or PID/TID; empty shows all:", v->filter,
			 sizeof(v->filter));
		s->sel = 0;
		r = HR_HANDLED | HR_REDRAW;
		break;
	case KEY_F(3):
	case '/':
		if (ask_text(t, "Search", "Name (substring) or TID:", v->search, sizeof(v->search)))
			search_next(t, s, false);
		return HR_HANDLED | HR_REDRAW;
	case 'n': search_next(t, s, true); return HR_HANDLED | HR_REDRAW;
	case 27:
		if (v->filter[0]) {
			v->filter[0] = '\0';
			r = HR_HANDLED | HR_REDRAW;
		}
		break;
	default: break;
	}
	if (r & HR_HANDLED)
		screen_threads_build(t, s);
	return r;
}

int screen_threads_explain(struct screen_ctx *t, struct screen *s, struct explain_item *items,
			   int max)
{
	const struct thread_info *th = selected(t, s);
	int n = 0;

	(void)t;
	if (!th)
		return 0;
	n = ui_explain_add(items, n, max, "Affinity", "%s", knob_addr_thread_affinity(th->tid).s);
	n = ui_explain_add(items, n, max, "Policy and priority", "%s",
			   knob_addr_thread_policy(th->tid).s);
	n = ui_explain_add(items, n, max, "uclamp", "%s", knob_addr_thread_uclamp_min(th->tid).s);
	if (explain_find("thread.migrations_per_s"))
		n = ui_explain_add(items, n, max, "Migrations/s", "thread.migrations_per_s");
	if (explain_find("thread.vmlck_kb"))
		n = ui_explain_add(items, n, max, "Locked memory", "thread.vmlck_kb");
	n = ui_explain_add(items, n, max, "Counters (pane)", "counters.cache_misses");
	n = ui_explain_add(items, n, max, "Csw/s, Mig/s: software counters", "counters.software");
	return n;
}

/* ---- Isolation screen ------------------------------------------------------------------- */

struct iso_view {
	struct iso_report rep;
	bool have;
	/* t: a device IRQ's fix applied to learn whether the kernel moves it;
	 * restored (undone) when its effective affinity has not left the
	 * audited CPUs by try_until_ns */
	int try_irq; /* -1 none */
	uint64_t try_txn, try_until_ns;
};

/* The outcome of a pending try, once the refreshed snapshot tells it. */
static void isolation_try_check(struct screen_ctx *t, struct iso_view *v, const struct snapshot *sn)
{
	char label[16], eff[64] = "n/a";
	const struct tui_change *chg;
	const struct irq_row *row;
	struct cpumask on;

	if (v->try_irq < 0 || !sn || !(sn->what & SNAP_IRQS))
		return;
	snprintf(label, sizeof(label), "%d", v->try_irq);
	chg = tui_changed(t, knob_addr_irq_affinity_n(v->try_irq).s);
	if (!chg || chg->txn != v->try_txn) { /* undone or changed again meanwhile */
		v->try_irq = -1;
		return;
	}
	row = irqs_find(&sn->irqs, label);
	if (row && row->have_effective) {
		cpulist_format(&row->effective, eff, sizeof(eff));
		on = row->effective;
		cpumask_and(&on, &v->rep.audited);
		if (!cpumask_empty(&row->effective) && cpumask_empty(&on)) {
			tui_status(t, false,
				   "Try: IRQ %d moved (effective affinity %s): movable; kept (u "
				   "undoes)",
				   v->try_irq, eff);
			v->try_irq = -1;
			return;
		}
	}
	if (time_mono_ns() < v->try_until_ns)
		return;
	if (t->nchanges && tui_undo_last(t) == 0)
		tui_status(t, false,
			   "Try: IRQ %d still on CPU %s after %llu s (effective affinity %s): the "
			   "kernel did not move it; restored",
			   v->try_irq, v->rep.audited_list, (unsigned long long)t->cfg.irq_try_s,
			   eff);
	v->try_irq = -1;
}

void screen_isolation_build(struct screen_ctx *t, struct screen *s)
{
	struct iso_view *v = s->priv;
	const struct snapshot *sn = t->snap;
	const struct thread_table *tab;

	if (!v) {
		v = s->priv = xcalloc(1, sizeof(*v));
		v->try_irq = -1;
	}
	s->heading_lines = 4;
	if (!screen_is_shown(t, s) && v->have)
		return;
	if (screen_is_shown(t, s) && !t->replay)
		thread_sampler_refresh(&t->sampler.threads, false);
	if (v->have)
		isolation_free(&v->rep);
	v->have = false;
	s->nrows = 0;
	if (!sn)
		return;
	/* the root's own threads (a --root tree's proc/); none in a recording
	 * or a tree without processes */
	tab = t->replay ? NULL : thr_table(t);
	isolation_audit(&sn->sys, &sn->topo.online, (sn->what & SNAP_IRQS) ? &sn->irqs : NULL,
			tab && tab->nprocs > 0 ? tab : NULL, &v->rep);
	v->have = true;
	isolation_try_check(t, v, sn);
	s->nrows = (int)v->rep.n;
	ui_scroll(s, t->body_h - s->heading_lines);
}

void screen_isolation_free(struct screen *s)
{
	struct iso_view *v = s->priv;

	if (v && v->have)
		isolation_free(&v->rep);
	free(v);
	s->priv = NULL;
}

void screen_isolation_draw(struct screen_ctx *t, struct screen *s, int y, int h)
{
	struct iso_view *v = s->priv;
	const struct iso_report *r = v && v->have ? &v->rep : NULL;
	char iso[128] = "n/a", nohz[128] = "n/a";
	size_t movable = 0;
	int rows, x;

	for (int i = 0; i < 4; i++)
		ui_fill(t, y + i, 0, COLS, ROLE_DEFAULT);
	if (!r) {
		ui_put(t, y, 0, COLS, ROLE_VALUE_NA, "no data yet");
		return;
	}
	if (r->have_isolated)
		cpulist_format(&r->isolated, iso, sizeof(iso));
	if (r->have_nohz_full)
		cpulist_format(&r->nohz_full, nohz, sizeof(nohz));
	for (size_t i = 0; i < r->n; i++)
		movable += (r->v[i].kind == ISO_THREAD || r->v[i].kind == ISO_IRQ ||
			    r->v[i].kind == ISO_KTHREAD) &&
			   r->v[i].movable;
	x = ui_put(t, y, 0, COLS, ROLE_LABEL, "Isolated ");
	x += ui_printf(t, y, x, COLS - x, ROLE_VALUE, "%s", iso[0] ? iso : "none");
	x += ui_put(t, y, x, COLS - x, ROLE_LABEL, "  nohz_full ");
	x += ui_printf(t, y, x, COLS - x, ROLE_VALUE, "%s", nohz[0] ? nohz : "none");
	x += ui_put(t, y, x, COLS - x, ROLE_LABEL, "  housekeeping ");
	ui_printf(t, y, x, COLS - x, ROLE_VALUE, "%s",
		  r->housekeeping_list[0] ? r->housekeeping_list : "none");
	if (!r->audited_list[0])
		ui_put(t, y + 1, 0, COLS, ROLE_LABEL,
		       "No isolated or nohz_full CPU: nothing to audit (RT findings below)");
	else if (!r->have_rates)
		ui_printf(t, y + 1, 0, COLS, r->nirq ? ROLE_ALERT : ROLE_VALUE_NA,
			  "%zu IRQ%s may target CPU %s; waiting for a second sample (rates over "
			  "the refresh interval)",
			  r->nirq, r->nirq == 1 ? "" : "s", r->audited_list);
	else
		ui_printf(t, y + 1, 0, COLS, r->nthread + r->nirq ? ROLE_ALERT : ROLE_OK,
			  "%zu intruder%s on CPU %s (%zu IRQ by affinity or rate, %zu thread), %zu "
			  "movable: m moves them to CPU %s (one change, u undoes)",
			  r->nthread + r->nirq, r->nthread + r->nirq == 1 ? "" : "s",
			  r->audited_list, r->nirq, r->nthread, movable, r->housekeeping_list);
	if (r->have_threads)
		ui_printf(t, y + 2, 0, COLS, ROLE_LABEL,
			  "%zu workload thread%s confined to isolated CPUs; RT not pinned %zu, RT "
			  "migrating %zu; a applies the selected fix, t tries it",
			  r->nworkload, r->nworkload == 1 ? "" : "s", r->nrt_unpinned,
			  r->nrt_migrating);
	else
		ui_put(t, y + 2, 0, COLS, ROLE_LABEL,
		       "Threads not audited: this root has no processes (no proc/PID); a "
		       "applies the selected fix, t tries it");
	ui_fill(t, y + 3, 0, COLS, ROLE_COLHEAD);
	ui_put(t, y + 3, 0, COLS, ROLE_COLHEAD,
	       " CPU  KIND        WHO                              RATE        FIX / WHY NOT");
	rows = h - s->heading_lines;
	ui_scroll(s, rows);
	for (int i = 0; i < rows && s->top + i < s->nrows; i++) {
		int k = s->top + i, yy = y + s->heading_lines + i;
		const struct iso_item *it = &r->v[k];
		bool sel = k == s->sel;
		enum role base = sel ? ROLE_CURSOR : ROLE_VALUE;
		char who[64], rate[24], cpu[8];
		const char *kind = it->kind == ISO_THREAD	 ? "thread"
				   : it->kind == ISO_IRQ	 ? "irq"
				   : it->kind == ISO_RT_UNPINNED ? "rt-unpinned"
				   : it->kind == ISO_KTHREAD	 ? "kthread"
								 : "rt-migrating";

		ui_fill(t, yy, 0, COLS, sel ? ROLE_CURSOR : ROLE_DEFAULT);
		if (it->kind == ISO_IRQ)
			snprintf(who, sizeof(who), "%s %s", it->label, it->name);
		else
			snprintf(who, sizeof(who), "%d %s%s%s", (int)it->tid, it->kernel ? "[" : "",
				 it->comm, it->kernel ? "]" : "");
		isolation_item_rate(it, rate, sizeof(rate));
		if (it->cpu >= 0)
			snprintf(cpu, sizeof(cpu), "%d", it->cpu);
		else
			snprintf(cpu, sizeof(cpu), "-");
		x = ui_printf(t, yy, 0, COLS, base, " %3s  %-11s %-32.32s %-11s ", cpu, kind, who,
			      rate);
		if (it->fix[0]) {
			bool done = false;
			char addr[KNOB_ADDR_MAX];
			const char *eq = strchr(it->fix, '=');

			snprintf(addr, sizeof(addr), "%.*s", (int)(eq ? eq - it->fix : 0), it->fix);
			done = tui_changed(t, addr) != NULL;
			x += ui_printf(t, yy, x, COLS - x,
				       sel    ? base
				       : done ? ROLE_CHANGED
					      : ROLE_OK,
				       "%s%s", it->fix, done ? " (changed)" : "");
		}
		if (it->reason[0] || it->note[0])
			ui_printf(t, yy, x, COLS - x, sel ? base : ROLE_LABEL, "%s%s%s%s",
				  it->fix[0] ? "  " : "", it->reason,
				  it->reason[0] && it->note[0] ? "; " : "", it->note);
	}
}

static int apply_fixes(struct screen_ctx *t, const char *const *a, size_t n)
{
	if (!n) {
		tui_status(t, false, "Nothing movable to move");
		return HR_HANDLED | HR_REDRAW;
	}
	tui_set(t, a, n, 0);
	thread_sampler_refresh(&t->sampler.threads, true);
	return HR_HANDLED | HR_REDRAW | HR_RESCAN;
}

int screen_isolation_key(struct screen_ctx *t, struct screen *s, int ch)
{
	struct iso_view *v = s->priv;

	if (!v || !v->have)
		return HR_IGNORED;
	switch (ch) {
	case 'm':
	case 'M': {
		char **fix = NULL;
		size_t n = isolation_fixes(&v->rep, &fix);
		int r = apply_fixes(t, (const char *const *)fix, n);

		isolation_fixes_free(fix, n);
		return r;
	}
	case 'a': {
		const char *one[1];

		if (s->sel < 0 || (size_t)s->sel >= v->rep.n || !v->rep.v[s->sel].fix[0]) {
			tui_status(t, true, "No fix for this row: %s",
				   s->sel >= 0 && (size_t)s->sel < v->rep.n &&
						   v->rep.v[s->sel].note[0]
					   ? v->rep.v[s->sel].note
					   : "nothing to do");
			return HR_HANDLED | HR_REDRAW;
		}
		one[0] = v->rep.v[s->sel].fix;
		return apply_fixes(t, one, 1);
	}
	case 't': {
		/* try and restore: the fix through the journal, kept only if
		 * the kernel moves the IRQ (its effective affinity leaves the
		 * audited CPUs) within tunetoprc irq_try_s */
		const struct iso_item *it =
			s->sel >= 0 && (size_t)s->sel < v->rep.n ? &v->rep.v[s->sel] : NULL;
		const struct tui_change *chg;
		const char *one[1];
		int irq;

		if (!it || it->kind != ISO_IRQ || !isdigit((unsigned char)it->label[0]) ||
		    !it->fix[0]) {
			tui_status(t, true, "Nothing to try on this row: %s",
				   it && it->note[0] ? it->note : "not a device IRQ with a fix");
			return HR_HANDLED | HR_REDRAW;
		}
		irq = atoi(it->label);
		one[0] = it->fix;
		if (tui_set(t, one, 1, 0) != 0)
			return HR_HANDLED | HR_REDRAW; /* the refusal (EIO: managed) is shown */
		chg = tui_changed(t, knob_addr_irq_affinity_n(irq).s);
		if (chg) {
			v->try_irq = irq;
			v->try_txn = chg->txn;
			v->try_until_ns =
				time_mono_ns() + (uint64_t)t->cfg.irq_try_s * 1000000000ull;
			tui_status(t, false,
				   "Try: %s; restored unless the kernel moves IRQ %d within %llu s",
				   it->fix, irq, (unsigned long long)t->cfg.irq_try_s);
		}
		return HR_HANDLED | HR_REDRAW | HR_RESCAN;
	}
	default: return HR_IGNORED;
	}
}

int screen_isolation_explain(struct screen_ctx *t, struct screen *s, struct explain_item *items,
			     int max)
{
	struct iso_view *v = s->priv;
	const struct iso_item *it;
	int n = 0;

	(void)t;
	if (!v || !v->have || s->sel < 0 || (size_t)s->sel >= v->rep.n)
		return 0;
	it = &v->rep.v[s->sel];
	if (it->kind == ISO_IRQ && isdigit((unsigned char)it->label[0]))
		n = ui_explain_add(items, n, max, "Interrupt affinity", "%s",
				   knob_addr_irq_affinity(it->label).s);
	else if (it->kind != ISO_IRQ)
		n = ui_explain_add(items, n, max, "Thread affinity", "%s",
				   knob_addr_thread_affinity(it->tid).s);
	if (explain_find("system.isolcpus"))
		n = ui_explain_add(items, n, max, "isolcpus", "system.isolcpus");
	return n;
}
