/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/interrupts source. Owns the parser (header → CPU column map, count
 * columns split on white space, single-total rows, chip / hwirq / action
 * text; fed line by line, so the file is read through a small buffer and
 * never held whole), the sparse per-CPU counts, the /proc/irq/N affinity
 * files, the wrap-safe per-CPU rates and the
 * irqbalance check. Everything is read under the given root so fixture
 * trees stand in for the live machine. */
#include "source/irqs.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"

#define MAX_TOKENS 4096

bool irqs_delta32(uint64_t prev, uint64_t cur, uint64_t *delta)
{
	uint64_t d;

	if (cur >= prev) {
		*delta = cur - prev;
		return true;
	}
	if (prev > UINT32_MAX)
		return false;
	d = (uint64_t)(uint32_t)((uint32_t)cur - (uint32_t)prev);
	if (cur > UINT32_MAX || d > (UINT64_C(1) << 31))
		return false; /* not a wrap: the counter was reset */
	*delta = d;
	return true;
}

static void copy_str(char *dst, size_t cap, const char *src)
{
	str_copy(dst, cap, src);
}

/* Join tok[from..n) with single spaces (truncated to cap - 1). */
static void join(char *dst, size_t cap, char **tok, size_t from, size_t n)
{
	size_t len = 0;

	dst[0] = '\0';
	for (size_t i = from; i < n && len + 1 < cap; i++) {
		size_t k;

		if (i > from)
			dst[len++] = ' ';
		k = strlen(tok[i]);
		if (k > cap - 1 - len)
			k = cap - 1 - len;
		memcpy(dst + len, tok[i], k);
		len += k;
		dst[len] = '\0';
	}
}

static bool percpu_name(const char *name)
{
	static const char *const names[] = {"arch_timer",	"arm-pmu",
					    "kvm guest vtimer", "kvm guest ptimer",
					    "arm_global_timer", "twd"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* "chip [hwirq[-trigger]] [Level|Edge[-name]] action, action" */
static void parse_desc(struct irq_row *row, char *rest)
{
	char *tok[64];
	size_t n = str_split_ws(rest, tok, 64), k = 1;

	if (!row->numeric) {
		join(row->name, sizeof(row->name), tok, 0, n);
		return;
	}
	if (n == 0)
		return;
	copy_str(row->chip, sizeof(row->chip), tok[0]);
	if (k < n && isdigit((unsigned char)tok[k][0])) {
		char *dash = strchr(tok[k], '-');

		if (dash) {
			*dash = '\0';
			copy_str(row->trigger, sizeof(row->trigger), dash + 1);
		}
		copy_str(row->hwirq, sizeof(row->hwirq), tok[k]);
		k++;
	}
	if (k < n && (str_starts(tok[k], "Level") || str_starts(tok[k], "Edge"))) {
		copy_str(row->trigger, sizeof(row->trigger), tok[k]);
		k++;
	}
	join(row->name, sizeof(row->name), tok, k, n);
	if (str_starts(row->chip, "GIC") && row->hwirq[0]) {
		uint64_t hw;

		if (str_to_u64(row->hwirq, &hw) == 0 && hw < 32)
			row->percpu = true; /* SGI / PPI: banked per CPU */
	}
	if (percpu_name(row->name))
		row->percpu = true;
}

/* A parsed row's rates are the table's shared n/a ones until irqs_derive()
 * finds some. */
static void row_init(struct irq_row *row, const struct irq_table *t)
{
	row->rate_per_s = t->rates_nan;
	row->rates_shared = true;
	row->total_per_s = NAN;
}

/* ---- sparse per-CPU counts ---- */

/* The index of the first entry of k at or above cpu. */
static uint32_t counts_at(const struct irq_counts *k, int cpu)
{
	uint32_t lo = 0, hi = k->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (k->cpu[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint64_t irq_count(const struct irq_row *row, int cpu)
{
	const struct irq_counts *k = &row->counts;
	uint32_t i;

	if (cpu < 0 || !k->n)
		return 0;
	i = counts_at(k, cpu);
	return i < k->n && k->cpu[i] == cpu ? k->val[i] : 0;
}

/* k holding n entries (one block: the values, then the CPUs). */
static void counts_resize(struct irq_counts *k, uint32_t n)
{
	uint64_t *val = NULL;
	uint16_t *cpu = NULL;

	if (n) {
		uint32_t keep = n < k->n ? n : k->n;

		val = xmalloc((size_t)n * (sizeof(*val) + sizeof(*cpu)));
		cpu = (uint16_t *)(val + n);
		if (keep) {
			memcpy(val, k->val, (size_t)keep * sizeof(*val));
			memcpy(cpu, k->cpu, (size_t)keep * sizeof(*cpu));
		}
	}
	free(k->val);
	k->val = val;
	k->cpu = cpu;
	k->n = n;
}

void irq_set_count(struct irq_row *row, int cpu, uint64_t v)
{
	struct irq_counts *k = &row->counts;
	uint32_t i, n = k->n;

	if (cpu < 0 || cpu >= TT_MAX_CPUS)
		return;
	i = counts_at(k, cpu);
	if (i < n && k->cpu[i] == cpu) {
		if (v) {
			k->val[i] = v;
			return;
		}
		memmove(k->val + i, k->val + i + 1, (n - i - 1) * sizeof(*k->val));
		memmove(k->cpu + i, k->cpu + i + 1, (n - i - 1) * sizeof(*k->cpu));
		counts_resize(k, n - 1);
		return;
	}
	if (!v)
		return;
	counts_resize(k, n + 1);
	memmove(k->val + i + 1, k->val + i, (n - i) * sizeof(*k->val));
	memmove(k->cpu + i + 1, k->cpu + i, (n - i) * sizeof(*k->cpu));
	k->val[i] = v;
	k->cpu[i] = (uint16_t)cpu;
}

void irq_counts_free(struct irq_row *row)
{
	free(row->counts.val);
	memset(&row->counts, 0, sizeof(row->counts));
}

/* A decimal count token at s (ends at white space or the end of the line):
 * its value and the end; NULL when it is not one (a word, an overflow). */
static const char *count_token(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (x >= UINT64_MAX / 10 && (x > UINT64_MAX / 10 || d > UINT64_MAX % 10))
			return NULL; /* overflow */
		x = x * 10 + d;
	}
	if (*s && !isspace((unsigned char)*s))
		return NULL;
	*v = x;
	return s;
}

/* Past the blanks at s (end: the line's end). Eight at a time first: on a
 * big machine the count columns are mostly padding. */
static char *skip_blanks(char *s, const char *end)
{
	static const uint64_t spaces = UINT64_C(0x2020202020202020);

	while (end - s >= 8) {
		uint64_t w;

		memcpy(&w, s, 8);
		if (w != spaces)
			break;
		s += 8;
	}
	while (*s == ' ' || isspace((unsigned char)*s))
		s++;
	return s;
}

/* The parser's state between lines: the header's column → CPU map and a
 * row's counts before they are made sparse. Nothing holds the text. */
struct irqs_parser {
	struct irq_table *out;
	int ncpus; /* the caller's */
	int err;   /* -EINVAL: the header named no CPU */
	bool header;
	int *colcpu;   /* [ncols] */
	size_t ncols;  /* 0 until the header */
	size_t cap;    /* of out->rows */
	uint64_t *val; /* [ncols] scratch: a row's counts by column */
	uint16_t *cpu; /* [ncols] */
};

struct irqs_parser *irqs_parser_begin(int ncpus, struct irq_table *out)
{
	struct irqs_parser *ps = xcalloc(1, sizeof(*ps));

	memset(out, 0, sizeof(*out));
	ps->out = out;
	ps->ncpus = ncpus;
	return ps;
}

/* The header line: the CPUn columns. */
static int parse_header(struct irqs_parser *ps, char *line)
{
	struct irq_table *out = ps->out;
	char **tok = xmalloc(MAX_TOKENS * sizeof(char *));
	int maxcpu;

	ps->colcpu = cpu_header_parse(line, tok, MAX_TOKENS, &ps->ncols, &out->cpus);
	free(tok);
	if (!ps->colcpu)
		return ps->err = -EINVAL;
	maxcpu = cpumask_last(&out->cpus);
	ps->val = xmalloc(ps->ncols * sizeof(*ps->val));
	ps->cpu = xmalloc(ps->ncols * sizeof(*ps->cpu));
	out->ncpus = ps->ncpus > maxcpu ? ps->ncpus : maxcpu + 1;
	out->cpu_total = xcalloc((size_t)out->ncpus, sizeof(uint64_t));
	out->cpu_total_per_s = xcalloc((size_t)out->ncpus, sizeof(double));
	out->rates_nan = xmalloc((size_t)out->ncpus * sizeof(double));
	out->rates_zero = xcalloc((size_t)out->ncpus, sizeof(double));
	for (int c = 0; c < out->ncpus; c++)
		out->cpu_total_per_s[c] = out->rates_nan[c] = NAN;
	return 0;
}

/* The row's nnum counts (ps->cpu/val, in column order) made sparse: sorted
 * by CPU (a header out of order), a CPU named twice keeps its last column
 * (as an array by CPU would), zeros dropped. */
static void row_set_counts(struct irqs_parser *ps, struct irq_row *row, size_t nnum)
{
	size_t m = 0;

	for (size_t i = 1; i < nnum; i++) /* stable insertion sort: ascending in practice */
		for (size_t j = i; j > 0 && ps->cpu[j - 1] > ps->cpu[j]; j--) {
			uint16_t c = ps->cpu[j];
			uint64_t v = ps->val[j];

			ps->cpu[j] = ps->cpu[j - 1];
			ps->val[j] = ps->val[j - 1];
			ps->cpu[j - 1] = c;
			ps->val[j - 1] = v;
		}
	for (size_t i = 0; i < nnum; i++) {
		if (i + 1 < nnum && ps->cpu[i + 1] == ps->cpu[i])
			continue; /* the later column wins */
		if (!ps->val[i])
			continue;
		ps->cpu[m] = ps->cpu[i];
		ps->val[m++] = ps->val[i];
	}
	counts_resize(&row->counts, (uint32_t)m);
	if (m) {
		memcpy(row->counts.val, ps->val, m * sizeof(*ps->val));
		memcpy(row->counts.cpu, ps->cpu, m * sizeof(*ps->cpu));
	}
}

int irqs_parser_line(struct irqs_parser *ps, char *line)
{
	struct irq_table *out = ps->out;
	char *p = line, *colon, *rest, *eol;
	struct irq_row *row;
	size_t nnum = 0;

	if (ps->err)
		return ps->err;
	if (!ps->header) {
		if (!*str_trim(line))
			return 0; /* blank lines before the header */
		ps->header = true;
		return parse_header(ps, line);
	}
	eol = line + strlen(line);
	while (isspace((unsigned char)*p))
		p++;
	colon = strchr(p, ':');
	if (!*p || !colon)
		return 0;
	for (char *q = p; q < colon; q++)
		if (isspace((unsigned char)*q))
			return 0; /* not a "label:" row */
	*colon = '\0';
	out->rows = xgrow(out->rows, &ps->cap, out->n + 1, sizeof(*out->rows));
	row = &out->rows[out->n++];
	memset(row, 0, sizeof(*row));
	copy_str(row->label, sizeof(row->label), p);
	row->numeric = str_is_digits(p);
	row->irq = -1;
	if (row->numeric && str_to_int(p, &row->irq))
		row->irq = -1;
	row_init(row, out);

	/* counts: up to one per column, stop at the first non-number */
	rest = colon + 1;
	for (;;) {
		char *s = rest;
		const char *e;
		uint64_t v;
		int cpu;

		s = skip_blanks(s, eol);
		if (!*s || nnum == ps->ncols)
			break;
		e = count_token(s, &v);
		if (!e) {
			rest = s;
			break;
		}
		rest = s + (e - s);
		cpu = ps->colcpu[nnum];
		ps->cpu[nnum] = (uint16_t)cpu;
		ps->val[nnum] = v;
		row->have_cpu.w[cpu / 64] |= UINT64_C(1) << (cpu % 64);
		row->total += v;
		nnum++;
	}
	while (isspace((unsigned char)*rest))
		rest++;
	if (!strcmp(row->label, "ERR") || !strcmp(row->label, "MIS") ||
	    !strcmp(row->label, "Err") || (nnum == 1 && ps->ncols > 1 && !*rest)) {
		/* one total, not CPU0's count */
		row->single_total = true;
		cpumask_zero(&row->have_cpu);
	} else {
		row_set_counts(ps, row, nnum);
		for (uint32_t i = 0; i < row->counts.n; i++)
			out->cpu_total[row->counts.cpu[i]] += row->counts.val[i];
	}
	if (!row->numeric)
		row->percpu = true;
	parse_desc(row, rest);
	return 0;
}

int irqs_parser_end(struct irqs_parser *ps)
{
	struct irq_table *out = ps->out;
	int e = ps->err ? ps->err : ps->ncols ? 0 : -EINVAL;

	if (e)
		irqs_free(out);
	else if (ps->cap > out->n && out->n) /* xgrow doubled it: give back the rest */
		out->rows = xrealloc(out->rows, out->n * sizeof(*out->rows));
	free(ps->colcpu);
	free(ps->val);
	free(ps->cpu);
	free(ps);
	return e;
}

int irqs_parse(const char *text, int ncpus, struct irq_table *out)
{
	struct irqs_parser *ps = irqs_parser_begin(ncpus, out);
	char *copy = xstrdup(text), *line = copy;

	while (line && *line) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (irqs_parser_line(ps, line))
			break;
		line = nl ? nl + 1 : NULL;
	}
	free(copy);
	return irqs_parser_end(ps);
}

static int parse_one_line(void *ctx, char *line, size_t len)
{
	(void)len;
	return irqs_parser_line(ctx, line);
}

int irqs_read_interrupts(const struct sysroot *r, int ncpus, size_t chunk, struct irq_table *out)
{
	struct irqs_parser *ps = irqs_parser_begin(ncpus, out);
	int e = sysfs_read_lines(r, "proc/interrupts", chunk, parse_one_line, ps);
	int e2 = irqs_parser_end(ps);

	if (e && !e2)
		irqs_free(out);
	return e ? e : e2;
}

static void read_mask(const struct sysroot *r, int irq, const char *list_name, const char *hex_name,
		      struct cpumask *m, bool *have)
{
	char buf[4096];

	*have = false;
	if (sysfs_read_strf(r, buf, sizeof(buf), "proc/irq/%d/%s", irq, list_name) == 0 &&
	    cpulist_parse(buf, m) == 0) {
		*have = true;
		return;
	}
	if (sysfs_read_strf(r, buf, sizeof(buf), "proc/irq/%d/%s", irq, hex_name) == 0 &&
	    cpumask_parse_hex(buf, m) == 0)
		*have = true;
}

/* The kernel's answer to "can it move", from the mode of the file the knob
 * writes (smp_affinity_list), not from which files exist: the mode bits, not
 * access(), which root passes on a read-only file. */
static enum irq_move affinity_move(const struct sysroot *r, int irq)
{
	static const char *const names[] = {"smp_affinity_list", "smp_affinity"};
	char path[64];
	bool seen = false;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct stat st;
		int fd;

		snprintf(path, sizeof(path), "proc/irq/%d/%s", irq, names[i]);
		fd = sysfs_open(r, path, O_PATH | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0) {
			if (i == 0 && (st.st_mode & 0222)) {
				close(fd);
				return IRQ_MOVE_YES;
			}
			seen = true;
		}
		close(fd);
	}
	if (seen)
		return IRQ_MOVE_READONLY;
	snprintf(path, sizeof(path), "proc/irq/%d", irq);
	return sysfs_is_dir(r, path) ? IRQ_MOVE_NOFILE : IRQ_MOVE_UNKNOWN;
}

static void read_row_files(const struct sysroot *r, struct irq_row *row)
{
	read_mask(r, row->irq, "smp_affinity_list", "smp_affinity", &row->affinity,
		  &row->have_affinity);
	read_mask(r, row->irq, "effective_affinity_list", "effective_affinity", &row->effective,
		  &row->have_effective);
	row->move = row->percpu ? IRQ_MOVE_PERCPU : affinity_move(r, row->irq);
	row->movable = row->move == IRQ_MOVE_YES;
}

/* /proc/interrupts parsed and the affinity files of each numeric row read;
 * with prev (a refresh), see irqs_refresh() for what is copied. */
static int read_table(const struct sysroot *r, int ncpus, const struct irq_table *prev,
		      bool affinity, struct irq_table *out)
{
	size_t hint = 0;
	int e;

	e = irqs_read_interrupts(r, ncpus, 0, out);
	if (e)
		return e;
	out->time_ns = time_mono_ns();
	for (size_t i = 0; i < out->n; i++) {
		struct irq_row *row = &out->rows[i];
		const struct irq_row *p = NULL;

		if (!row->numeric || row->irq < 0)
			continue;
		if (prev) {
			/* rows usually keep their order: try the next one first */
			if (hint < prev->n && !strcmp(prev->rows[hint].label, row->label))
				p = &prev->rows[hint];
			else
				p = irqs_find(prev, row->label);
			if (p)
				hint = (size_t)(p - prev->rows) + 1;
		}
		if (p && p->numeric && p->irq == row->irq && p->percpu == row->percpu) {
			/* The affinity is a knob that moves (the TUI and
			 * irqbalance move IRQs): read where the IRQ has the
			 * file. The effective affinity follows it: read when
			 * the affinity moved, or while it has not caught up
			 * (x86 moves an IRQ at its next interrupt); CPU hotplug
			 * is a full read. Whether it can move does not change. */
			if (!affinity) {
				row->affinity = p->affinity;
				row->have_affinity = p->have_affinity;
				row->effective = p->effective;
				row->have_effective = p->have_effective;
			} else if (p->have_affinity) {
				read_mask(r, row->irq, "smp_affinity_list", "smp_affinity",
					  &row->affinity, &row->have_affinity);
			}
			if (affinity && p->have_effective) {
				struct cpumask out_of = p->effective;

				cpumask_andnot(&out_of, &p->affinity);
				if (!p->have_affinity || !row->have_affinity ||
				    !cpumask_equal(&row->affinity, &p->affinity) ||
				    !cpumask_empty(&out_of)) {
					read_mask(r, row->irq, "effective_affinity_list",
						  "effective_affinity", &row->effective,
						  &row->have_effective);
				} else {
					row->effective = p->effective;
					row->have_effective = true;
				}
			}
			row->move = p->move;
			row->movable = p->movable;
			row->managed = p->managed;
		} else {
			read_row_files(r, row);
		}
	}
	return 0;
}

int irqs_read(const struct sysroot *r, int ncpus, struct irq_table *out)
{
	return read_table(r, ncpus, NULL, true, out);
}

int irqs_refresh(const struct sysroot *r, int ncpus, const struct irq_table *prev,
		 struct irq_table *out)
{
	return read_table(r, ncpus, prev, true, out);
}

int irqs_refresh_counts(const struct sysroot *r, int ncpus, const struct irq_table *prev,
			struct irq_table *out)
{
	return read_table(r, ncpus, prev, false, out);
}

struct irq_row *irqs_find(const struct irq_table *t, const char *label)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (!strcmp(t->rows[i].label, label))
			return &t->rows[i];
	return NULL;
}

/* Point row at rates (an array of t->ncpus): the table's shared one when
 * it is all n/a or all 0, else a copy the row owns. */
static void row_set_rates(const struct irq_table *t, struct irq_row *row, const double *rates)
{
	bool nan_all = true, zero_all = true;
	double *to;

	for (int c = 0; c < t->ncpus && (nan_all || zero_all); c++) {
		if (!isnan(rates[c]))
			nan_all = false;
		if (rates[c] != 0.0 || signbit(rates[c]))
			zero_all = false;
	}
	to = nan_all ? t->rates_nan : zero_all ? t->rates_zero : NULL;
	if (to) {
		if (!row->rates_shared)
			free(row->rate_per_s);
		row->rate_per_s = to;
		row->rates_shared = true;
		return;
	}
	if (row->rates_shared || !row->rate_per_s)
		row->rate_per_s = xmalloc((size_t)t->ncpus * sizeof(double));
	row->rates_shared = false;
	memcpy(row->rate_per_s, rates, (size_t)t->ncpus * sizeof(double));
}

void irqs_derive(struct irq_table *cur, const struct irq_table *prev, double dt_s)
{
	size_t hint = 0;
	/* Each row's rates are worked out here, then shared or copied (a table
	 * built without shared arrays, a replay, has them written in place). */
	bool shared = cur->rates_nan && cur->rates_zero;
	double *rates =
		shared && cur->ncpus > 0 ? xmalloc((size_t)cur->ncpus * sizeof(double)) : NULL;

	for (int c = 0; c < cur->ncpus; c++)
		cur->cpu_total_per_s[c] = cpumask_test(&cur->cpus, c) ? 0.0 : NAN;
	for (size_t i = 0; i < cur->n; i++) {
		struct irq_row *row = &cur->rows[i];
		const struct irq_row *p = NULL;
		uint64_t d, sum = 0;
		uint32_t ip, ir;
		bool all = true;
		double *rate = rates ? rates : row->rate_per_s;

		for (int c = 0; c < cur->ncpus; c++)
			rate[c] = NAN;
		row->total_per_s = NAN;
		if (!prev || !(dt_s > 0))
			goto set;
		/* rows usually keep their order: try the next one first */
		if (hint < prev->n && !strcmp(prev->rows[hint].label, row->label))
			p = &prev->rows[hint];
		else
			p = irqs_find(prev, row->label);
		if (!p)
			goto set; /* a new row: no rate yet */
		hint = (size_t)(p - prev->rows) + 1;
		if (row->single_total || p->single_total) {
			if (row->single_total && p->single_total &&
			    irqs_delta32(p->total, row->total, &d))
				row->total_per_s = (double)d / dt_s;
			goto set;
		}
		/* both rows' sparse counts walked along with the CPUs */
		ip = ir = 0;
		for (int c = cpumask_next(&row->have_cpu, 0); c >= 0;
		     c = cpumask_next(&row->have_cpu, c + 1)) {
			uint64_t was = 0, now = 0;

			while (ir < row->counts.n && row->counts.cpu[ir] < c)
				ir++;
			if (ir < row->counts.n && row->counts.cpu[ir] == c)
				now = row->counts.val[ir];
			if (c >= prev->ncpus || !cpumask_test(&p->have_cpu, c)) {
				all = false; /* CPU came online: no previous count */
				continue;
			}
			while (ip < p->counts.n && p->counts.cpu[ip] < c)
				ip++;
			if (ip < p->counts.n && p->counts.cpu[ip] == c)
				was = p->counts.val[ip];
			if (!irqs_delta32(was, now, &d)) {
				all = false;
				continue;
			}
			rate[c] = (double)d / dt_s;
			sum += d;
			cur->cpu_total_per_s[c] += rate[c];
		}
		row->total_per_s = all ? (double)sum / dt_s : NAN;
	set:
		if (rates)
			row_set_rates(cur, row, rates);
	}
	free(rates);
	if (!prev || !(dt_s > 0))
		for (int c = 0; c < cur->ncpus; c++)
			cur->cpu_total_per_s[c] = NAN;
	else
		for (int c = 0; c < cur->ncpus; c++)
			if (c >= prev->ncpus || !cpumask_test(&prev->cpus, c))
				cur->cpu_total_per_s[c] = NAN;
}

void irqs_free(struct irq_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		irq_counts_free(&t->rows[i]);
		if (!t->rows[i].rates_shared)
			free(t->rows[i].rate_per_s);
	}
	free(t->rows);
	free(t->cpu_total);
	free(t->cpu_total_per_s);
	free(t->rates_nan);
	free(t->rates_zero);
	memset(t, 0, sizeof(*t));
}

bool irqbalance_running_in(const struct sysroot *r)
{
	struct sysfs_list pl;
	bool found = false;

	if (sysfs_list(r, "proc", &pl))
		return false;
	for (size_t i = 0; i < pl.n && !found; i++) {
		char comm[64];

		if (!str_is_digits(pl.names[i]))
			continue;
		if (sysfs_read_strf(r, comm, sizeof(comm), "proc/%s/comm", pl.names[i]) == 0 &&
		    !strcmp(comm, "irqbalance"))
			found = true;
	}
	sysfs_list_free(&pl);
	return found;
}

bool irqbalance_running(void)
{
	return irqbalance_running_in(sysroot_live());
}
