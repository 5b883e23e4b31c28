/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/source/irqs.c and the IRQ JSON writer: the
 * /proc/interrupts parser (sparse CPU columns, ERR/MIS single totals, arm64
 * IPI rows, GIC rows, wide counts), the sparse counts, the line-by-line
 * read through a small buffer, wrap-safe derive, rows that come and go,
 * fixture trees and the live read. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json.h"
#include "out/irqs_out.h"
#include "source/irqs.h"
#include "sysfs/sysroot.h"
#include "tap.h"

static const char x86_text[] =
	"           CPU0       CPU1       \n"
	"  0:         42          0   IO-APIC   2-edge      timer\n"
	" 24:          1          0  IO-APIC   5-edge      ACPI:Ged\n"
	" 28:          0          0 PCI-MSIX-0000:00:01.0   0-edge      virtio0-config\n"
	" 36:          0      35877 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n"
	" 40:          7          0 IR-PCI-MSI 512000-edge      ahci[0000:00:17.0], eth0\n"
	" 41:          0          0\n"
	"NMI:          0          0   Non-maskable interrupts\n"
	"LOC:      30623      32994   Local timer interrupts\n"
	"RES:       6814       7151   Rescheduling interrupts\n"
	"ERR:          3\n"
	"MIS:          0\n"
	"PIN:          0          0   Posted-interrupt notification event\n";

static void test_x86(void)
{
	struct irq_table t;
	struct irq_row *r;

	is_int(irqs_parse(x86_text, 2, &t), 0, "x86: parses");
	is_int(t.ncpus, 2, "x86: 2 CPUs");
	is_int(t.n, 12, "x86: 12 rows");
	r = irqs_find(&t, "24");
	ok(r && r->numeric && r->irq == 24, "24 is numeric irq 24");
	if (r) {
		is_int(irq_count(r, 0), 1, "24 CPU0 count");
		is_int(irq_count(r, 1), 0, "24 CPU1 count");
		is_str(r->chip, "IO-APIC", "24 chip");
		is_str(r->hwirq, "5", "24 hwirq");
		is_str(r->trigger, "edge", "24 trigger");
		is_str(r->name, "ACPI:Ged", "24 action name");
		ok(!r->percpu, "24 not per-cpu");
	}
	r = irqs_find(&t, "28");
	ok(r && !strcmp(r->chip, "PCI-MSIX-0000:00:01.0") && !strcmp(r->name, "virtio0-config"),
	   "MSI-X chip with PCI address");
	r = irqs_find(&t, "40");
	ok(r && !strcmp(r->hwirq, "512000") && !strcmp(r->name, "ahci[0000:00:17.0], eth0"),
	   "wide hwirq, two actions");
	r = irqs_find(&t, "41");
	ok(r && r->total == 0 && !r->single_total && r->name[0] == '\0',
	   "row with counts only (no chip text) is not a single total");
	r = irqs_find(&t, "LOC");
	ok(r && !r->numeric && r->irq == -1 && r->percpu, "LOC is a per-CPU arch row");
	if (r) {
		is_int(irq_count(r, 1), 32994, "LOC CPU1");
		is_int(r->total, 30623 + 32994, "LOC total");
		is_str(r->name, "Local timer interrupts", "LOC description");
	}
	r = irqs_find(&t, "ERR");
	ok(r && r->single_total && r->total == 3 && cpumask_empty(&r->have_cpu) &&
		   irq_count(r, 0) == 0,
	   "ERR: a single total, not CPU0's count");
	r = irqs_find(&t, "MIS");
	ok(r && r->single_total && r->total == 0, "MIS: a single total");
	is_int(t.cpu_total[0], 42 + 1 + 7 + 30623 + 6814, "CPU0 total excludes ERR/MIS");
	irqs_free(&t);
	is_int(irqs_parse("garbage\n 1: 2 3\n", 2, &t), -EINVAL, "no CPUn header: -EINVAL");
	is_int(irqs_parse("", 2, &t), -EINVAL, "empty: -EINVAL");
}

static const char sparse_text[] =
	"           CPU0       CPU1       CPU3       \n"
	" 11:       1000       2000       4000     GICv3  27 Level     arch_timer\n"
	" 45:         10          0          5     GICv3 252 Level     eth0\n"
	"IPI0:       100        200        400       Rescheduling interrupts\n"
	"IPI1:         1          2          4       Function call interrupts\n"
	"Err:          0\n";

static void test_sparse_arm64(void)
{
	struct irq_table t;
	struct irq_row *r;

	is_int(irqs_parse(sparse_text, 0, &t), 0, "sparse: parses");
	is_int(t.ncpus, 4, "sparse: arrays sized by the highest CPU (3) + 1");
	ok(cpumask_test(&t.cpus, 0) && cpumask_test(&t.cpus, 1) && !cpumask_test(&t.cpus, 2) &&
		   cpumask_test(&t.cpus, 3),
	   "sparse: header columns CPU0 CPU1 CPU3");
	r = irqs_find(&t, "11");
	ok(r != NULL, "irq 11 found");
	if (r) {
		is_int(irq_count(r, 3), 4000, "third column is CPU3");
		is_int(irq_count(r, 2), 0, "CPU2 has no column");
		ok(!cpumask_test(&r->have_cpu, 2) && cpumask_test(&r->have_cpu, 3),
		   "have_cpu mask");
		is_str(r->chip, "GICv3", "GIC chip");
		is_str(r->hwirq, "27", "GIC hwirq");
		is_str(r->trigger, "Level", "GIC trigger");
		is_str(r->name, "arch_timer", "GIC action");
		ok(r->percpu, "GIC PPI 27 is per-CPU");
	}
	r = irqs_find(&t, "45");
	ok(r && !r->percpu && !strcmp(r->hwirq, "252") && !strcmp(r->name, "eth0"),
	   "GIC SPI 252 not per-CPU");
	r = irqs_find(&t, "IPI0");
	ok(r && !r->numeric && r->percpu && irq_count(r, 3) == 400, "arm64 IPI0 counts");
	if (r)
		is_str(r->name, "Rescheduling interrupts", "arm64 IPI0 text");
	r = irqs_find(&t, "Err");
	ok(r && r->single_total, "arm64 Err: single total");
	irqs_free(&t);

	is_int(irqs_parse(sparse_text, 8, &t), 0, "sparse with ncpus 8");
	is_int(t.ncpus, 8, "caller's ncpus kept when larger");
	irqs_free(&t);
}

static void test_wide(void)
{
	static const char wide[] = "           CPU0       CPU1\n"
				   "LOC: 98765432109 4294967295 Local timer interrupts\n"
				   " 30:12345678901234 7 GICv3 30 Level arch_timer\n"
				   " 31: 1 2 3-edge-like text 77\n";
	struct irq_table t;
	struct irq_row *r;

	is_int(irqs_parse(wide, 2, &t), 0, "wide counts: parses");
	r = irqs_find(&t, "LOC");
	ok(r && irq_count(r, 0) == UINT64_C(98765432109) && irq_count(r, 1) == 4294967295u,
	   "counts wider than the 10-char column");
	r = irqs_find(&t, "30");
	ok(r && irq_count(r, 0) == UINT64_C(12345678901234) && irq_count(r, 1) == 7,
	   "count glued to the colon");
	r = irqs_find(&t, "31");
	ok(r && irq_count(r, 0) == 1 && irq_count(r, 1) == 2 && !strcmp(r->chip, "3-edge-like"),
	   "stops after one count per column even if text looks numeric");
	irqs_free(&t);
}

/* The count scanner: the largest u64, an overflow, digits glued to text. */
static void test_count_limits(void)
{
	static const char text[] = "           CPU0       CPU1\n"
				   " 40: 18446744073709551615 3 GICv3 40 Level max\n"
				   " 41: 18446744073709551616 3 GICv3 41 Level over\n"
				   " 42: 5 7x GICv3 42 Level glued\n";
	struct irq_table t;
	struct irq_row *r;

	is_int(irqs_parse(text, 2, &t), 0, "count limits: parses");
	r = irqs_find(&t, "40");
	ok(r && irq_count(r, 0) == UINT64_MAX && irq_count(r, 1) == 3 &&
		   cpumask_count(&r->have_cpu) == 2,
	   "the largest u64 count");
	r = irqs_find(&t, "41");
	ok(r && cpumask_count(&r->have_cpu) == 0 && !strcmp(r->chip, "18446744073709551616"),
	   "an overflowing count is text, not a count");
	r = irqs_find(&t, "42");
	ok(r && !r->single_total && irq_count(r, 0) == 5 && cpumask_count(&r->have_cpu) == 1 &&
		   !strcmp(r->chip, "7x"),
	   "digits glued to text end the counts");
	irqs_free(&t);
}

static void test_derive(void)
{
	static const char a[] = "   CPU0 CPU1\n"
				" 24: 4294967290 100 IO-APIC 5-edge a\n"
				" 25: 10 10 IO-APIC 6-edge b\n"
				" 27: 1000 1000 IO-APIC 8-edge d\n"
				"ERR: 4294967295\n"
				"LOC: 10 20 Local timer interrupts\n";
	static const char b[] = "   CPU0 CPU1\n"
				" 24: 5 110 IO-APIC 5-edge a\n"
				" 26: 50 50 IO-APIC 7-edge c\n"
				" 27: 5 1010 IO-APIC 8-edge d\n"
				"ERR: 1\n"
				"LOC: 30 60 Local timer interrupts\n";
	struct irq_table p, c;
	struct irq_row *r;
	uint64_t d;

	ok(irqs_delta32(4294967290u, 5, &d) && d == 11, "delta32: 4294967290 -> 5 is 11");
	ok(irqs_delta32(5, 16, &d) && d == 11, "delta32: plain");
	ok(!irqs_delta32(1000, 5, &d), "delta32: a big drop is a reset, not a wrap");
	ok(!irqs_delta32(UINT64_C(5000000000), 5, &d), "delta32: 64-bit value going back");

	irqs_parse(a, 2, &p);
	irqs_parse(b, 2, &c);
	irqs_derive(&c, NULL, 1.0);
	ok(isnan(irqs_find(&c, "24")->rate_per_s[0]) && isnan(irqs_find(&c, "24")->total_per_s),
	   "no previous sample: NAN");
	ok(isnan(c.cpu_total_per_s[0]), "no previous sample: CPU totals NAN");
	irqs_derive(&c, &p, 2.0);
	r = irqs_find(&c, "24");
	is_dbl(r->rate_per_s[0], 5.5, 1e-9, "wrap: (2^32-6 -> 5) = 11 over 2 s");
	is_dbl(r->rate_per_s[1], 5.0, 1e-9, "CPU1 10 over 2 s");
	is_dbl(r->total_per_s, 10.5, 1e-9, "row total rate");
	r = irqs_find(&c, "26");
	ok(r && isnan(r->rate_per_s[0]) && isnan(r->total_per_s),
	   "row that appeared: NAN first sample");
	ok(irqs_find(&c, "25") == NULL, "row that vanished is not in the new table");
	r = irqs_find(&c, "27");
	ok(isnan(r->rate_per_s[0]) && r->rate_per_s[1] == 5.0 && isnan(r->total_per_s),
	   "reset counter: NAN on that CPU, total NAN");
	r = irqs_find(&c, "ERR");
	is_dbl(r->total_per_s, 1.0, 1e-9, "ERR single total wraps too (2^32-1 -> 1 = 2)");
	r = irqs_find(&c, "LOC");
	is_dbl(r->rate_per_s[1], 20.0, 1e-9, "LOC CPU1 rate");
	is_dbl(c.cpu_total_per_s[0], 5.5 + 10.0, 1e-9, "CPU0 total rate: known rows only");
	is_dbl(c.cpu_total_per_s[1], 5.0 + 5.0 + 20.0, 1e-9, "CPU1 total rate");
	irqs_free(&p);
	irqs_free(&c);
}

static void test_cpu_online(void)
{
	static const char a[] = "   CPU0 CPU1 CPU3\n 5: 1 1 1 X 1-edge a\n";
	static const char b[] = "   CPU0 CPU1 CPU2 CPU3\n 5: 2 2 7 2 X 1-edge a\n";
	struct irq_table p, c;
	struct irq_row *r;

	irqs_parse(a, 4, &p);
	irqs_parse(b, 4, &c);
	irqs_derive(&c, &p, 1.0);
	r = irqs_find(&c, "5");
	ok(r->rate_per_s[0] == 1.0 && r->rate_per_s[3] == 1.0, "other CPUs keep their rates");
	ok(isnan(r->rate_per_s[2]), "a CPU that came online has no rate yet");
	ok(isnan(r->total_per_s), "row total n/a while a CPU has no previous count");
	ok(isnan(c.cpu_total_per_s[2]) && c.cpu_total_per_s[0] == 1.0, "CPU totals");
	irqs_free(&p);
	irqs_free(&c);
}

static void test_json(void)
{
	struct irq_table p, c;
	struct sbuf b;
	struct jw w;

	irqs_parse(sparse_text, 0, &p);
	irqs_parse(sparse_text, 0, &c);
	irqs_derive(&c, &p, 1.0);
	cpulist_parse("0-1", &c.rows[0].affinity);
	c.rows[0].have_affinity = true;
	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_irqs_json(&w, &c);
	jw_obj_end(&w);
	ok(strstr(b.s, "\"label\":\"11\",\"irq\":11,\"name\":\"arch_timer\",\"chip\":\"GICv3\"") !=
		   NULL,
	   "json: numeric row");
	ok(strstr(b.s, "\"counts\":[1000,2000,null,4000]") != NULL,
	   "json: sparse counts with null");
	ok(strstr(b.s, "\"rate_per_s\":[0.0,0.0,null,0.0]") != NULL, "json: rates");
	ok(strstr(b.s, "\"affinity\":\"0-1\",\"effective\":null") != NULL, "json: affinity");
	ok(strstr(b.s, "\"label\":\"Err\",\"irq\":null") != NULL, "json: arch row label");
	ok(strstr(b.s, "\"counts\":null,\"total\":0,\"rate_per_s\":null") != NULL,
	   "json: single total has no per-CPU arrays");
	ok(strstr(b.s, "\"irq_cpu_total_per_s\":[0.0,0.0,null,0.0]") != NULL, "json: CPU totals");
	ok(strstr(b.s, "\"managed\":null") != NULL, "json: managed unknown is null");
	sbuf_reset(&b);
	out_irqs_text(&b, &c);
	ok(strstr(b.s, "CPU3/s") && strstr(b.s, "arch_timer [per-cpu]") && !strstr(b.s, "CPU2/s"),
	   "text: header by column, per-cpu marked");
	sbuf_free(&b);
	irqs_free(&p);
	irqs_free(&c);
}

static void test_irqbalance(void)
{
	char tmpl[] = "/tmp/tt-irqb.XXXXXX", path[256];
	struct sysroot r;
	FILE *f;

	ok(mkdtemp(tmpl) != NULL, "temp root");
	snprintf(path, sizeof(path), "%s/proc", tmpl);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/123", tmpl);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/123/comm", tmpl);
	f = fopen(path, "w");
	fputs("bash\n", f);
	fclose(f);
	sysroot_open(&r, tmpl);
	ok(!irqbalance_running_in(&r), "irqbalance: not running");
	snprintf(path, sizeof(path), "%s/proc/456", tmpl);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/456/comm", tmpl);
	f = fopen(path, "w");
	fputs("irqbalance\n", f);
	fclose(f);
	ok(irqbalance_running_in(&r), "irqbalance: found by comm");
	sysroot_close(&r);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmpl);
	if (system(path) != 0)
		printf("# cleanup failed\n");
	(void)irqbalance_running();
	ok(1, "irqbalance_running() on the live system returns");
}

static void test_fixtures(void)
{
	static const char *const boards[] = {"rk3588", "intel",	 "stm32mp157", "rpi4",
					     "broken", "am5729", "b4860"};

	for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++) {
		char p[1100];
		struct sysroot r;
		struct irq_table t;
		size_t numeric = 0, with_aff = 0;

		snprintf(p, sizeof(p), "%s/proc/interrupts", fixture(boards[i]));
		if (access(p, R_OK) != 0) {
			printf("ok %d - fixture %s # SKIP no proc/interrupts yet\n", ++tap_n,
			       boards[i]);
			continue;
		}
		if (sysroot_open(&r, fixture(boards[i])) != 0) {
			ok(0, "fixture %s opens", boards[i]);
			continue;
		}
		is_int(irqs_read(&r, 0, &t), 0, boards[i]);
		ok(t.n > 0, "%s: rows", boards[i]);
		for (size_t j = 0; j < t.n; j++) {
			numeric += t.rows[j].numeric;
			with_aff += t.rows[j].have_affinity;
		}
		ok(numeric > 0, "%s: %zu numeric rows, %zu with affinity", boards[i], numeric,
		   with_aff);
		if (!strcmp(boards[i], "broken"))
			ok(cpumask_test(&t.cpus, 3) && !cpumask_test(&t.cpus, 2),
			   "broken: sparse columns CPU0 CPU1 CPU3");
		irqs_free(&t);
		sysroot_close(&r);
	}
}

static void test_live(void)
{
	struct irq_table a, b;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (irqs_read(sysroot_live(), 0, &a) != 0) {
		printf("ok %d - live /proc/interrupts # SKIP not readable\n", ++tap_n);
		return;
	}
	is_int(cpumask_count(&a.cpus), online, "live: one column per online CPU");
	usleep(100000);
	is_int(irqs_read(sysroot_live(), 0, &b), 0, "live: second read");
	irqs_derive(&b, &a, (double)(b.time_ns - a.time_ns) / 1e9);
	if (irqs_find(&b, "LOC"))
		ok(b.rows[0].total_per_s >= 0 || isnan(b.rows[0].total_per_s),
		   "live: rates derived");
	else
		ok(1, "live: rates derived (no LOC row on this arch)");
	irqs_free(&a);
	irqs_free(&b);
}

/* The sparse counts (issue 14): set in any order, replace, remove, read
 * where absent; the parser keeps only counts that are not 0, sorted by CPU
 * whatever the header's order, a CPU named twice keeping its last column. */
static void test_sparse_counts(void)
{
	static const char text[] = "   CPU3 CPU1 CPU0 CPU1\n"
				   " 7: 5 9 0 4 X 1-edge a\n"
				   " 8: 0 0 0 0 X 2-edge b\n";
	struct irq_row row;
	struct irq_table t;
	struct irq_row *r;

	memset(&row, 0, sizeof(row));
	irq_set_count(&row, 900, 3);
	irq_set_count(&row, 2, 5);
	irq_set_count(&row, 40, 7);
	irq_set_count(&row, 2, 6);
	irq_set_count(&row, 41, 0); /* 0 where there is none: nothing */
	ok(row.counts.n == 3 && row.counts.cpu[0] == 2 && row.counts.cpu[1] == 40 &&
		   row.counts.cpu[2] == 900,
	   "set in any order: 3 entries, ascending");
	ok(irq_count(&row, 2) == 6 && irq_count(&row, 40) == 7 && irq_count(&row, 900) == 3,
	   "values read back (2 replaced)");
	ok(irq_count(&row, 0) == 0 && irq_count(&row, 41) == 0 && irq_count(&row, 1023) == 0 &&
		   irq_count(&row, -1) == 0,
	   "absent CPUs count 0");
	irq_set_count(&row, 40, 0);
	ok(row.counts.n == 2 && irq_count(&row, 40) == 0 && irq_count(&row, 900) == 3,
	   "0 removes an entry");
	irq_set_count(&row, 2, UINT64_MAX);
	ok(irq_count(&row, 2) == UINT64_MAX, "64-bit values kept");
	irq_counts_free(&row);
	ok(row.counts.n == 0 && irq_count(&row, 2) == 0, "freed: empty");

	ok(irqs_parse(text, 0, &t) == 0, "header out of order parses");
	r = irqs_find(&t, "7");
	ok(r && r->counts.n == 2 && r->counts.cpu[0] == 1 && r->counts.cpu[1] == 3,
	   "only the CPUs that counted, ascending (%u)", r ? r->counts.n : 0);
	ok(r && irq_count(r, 1) == 4 && irq_count(r, 3) == 5 && irq_count(r, 0) == 0,
	   "CPU1 twice: its last column wins, as before");
	ok(r && cpumask_count(&r->have_cpu) == 3 && r->total == 18, "have_cpu and total");
	r = irqs_find(&t, "8");
	ok(r && r->counts.n == 0 && r->counts.val == NULL && cpumask_count(&r->have_cpu) == 3,
	   "a row of zeros holds no array");
	ok(t.cpu_total[1] == 4 && t.cpu_total[3] == 5 && t.cpu_total[0] == 0, "CPU totals");
	irqs_free(&t);
}

static void put_file(const char *dir, const char *rel, const char *text, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (f) {
		fwrite(text, 1, len, f);
		fclose(f);
	}
}

static int count_line(void *ctx, char *line, size_t len)
{
	size_t *n = ctx;

	(void)line;
	(void)len;
	return ++*n == 3 ? 42 : 0;
}

/* Same table from the text whole and from the file read line by line. */
static bool same_table(const struct irq_table *a, const struct irq_table *b)
{
	if (a->n != b->n || a->ncpus != b->ncpus || !cpumask_equal(&a->cpus, &b->cpus))
		return false;
	for (int c = 0; c < a->ncpus; c++)
		if (a->cpu_total[c] != b->cpu_total[c])
			return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct irq_row *x = &a->rows[i], *y = &b->rows[i];

		if (strcmp(x->label, y->label) || strcmp(x->name, y->name) ||
		    strcmp(x->chip, y->chip) || x->total != y->total ||
		    x->single_total != y->single_total || x->counts.n != y->counts.n ||
		    !cpumask_equal(&x->have_cpu, &y->have_cpu))
			return false;
		for (int c = 0; c < a->ncpus; c++)
			if (irq_count(x, c) != irq_count(y, c))
				return false;
	}
	return true;
}

/* /proc/interrupts read line by line through a small buffer (issue 14):
 * lines longer than the buffer, a last line without its newline, a file
 * without header, a callback that stops the read. */
static void test_chunked(void)
{
	char tmpl[] = "/tmp/tt-irqc.XXXXXX", path[600];
	struct irq_table whole, t;
	struct sysroot r;
	char *text = NULL;
	size_t len = 0, n = 0;
	FILE *m = open_memstream(&text, &len);
	static const size_t chunks[] = {1, 7, 64, 300, 0};

	/* 256 CPUs: each line near 3 KiB, much longer than most chunks */
	fputs("     ", m);
	for (int c = 0; c < 256; c++)
		fprintf(m, " CPU%-7d", c);
	fputs("\n", m);
	for (int i = 0; i < 40; i++) {
		fprintf(m, "%4d:", 100 + i);
		for (int c = 0; c < 256; c++)
			fprintf(m, " %10u", (c % 37 == i % 37) ? (unsigned)(i * 1000 + c) : 0u);
		fprintf(m, "  GICv3 %d Level     dev%d\n", 64 + i, i);
	}
	fputs(" IPI0:", m);
	for (int c = 0; c < 256; c++)
		fprintf(m, " %10u", (unsigned)c + 1);
	fputs("       Rescheduling interrupts\n", m);
	fputs("Err:          7", m); /* no newline at the end */
	fclose(m);

	ok(mkdtemp(tmpl) != NULL, "temp root");
	snprintf(path, sizeof(path), "%s/proc", tmpl);
	mkdir(path, 0755);
	put_file(tmpl, "proc/interrupts", text, len);
	ok(irqs_parse(text, 0, &whole) == 0 && whole.n == 42, "whole text: 42 rows");
	sysroot_open(&r, tmpl);
	for (size_t k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++) {
		int e = irqs_read_interrupts(&r, 0, chunks[k], &t);

		ok(e == 0 && same_table(&whole, &t), "chunk %zu: same table as the whole text",
		   chunks[k]);
		irqs_free(&t);
	}
	ok(irqs_read_interrupts(&r, 0, 16, &t) == 0 && t.n == 42 &&
		   irqs_find(&t, "Err")->single_total && irqs_find(&t, "Err")->total == 7,
	   "the last line without its newline is read");
	ok(irq_count(irqs_find(&t, "IPI0"), 255) == 256 && t.ncpus == 256, "IPI0 CPU255");
	irqs_free(&t);

	is_int(sysfs_read_lines(&r, "proc/interrupts", 8, count_line, &n), 42,
	       "a callback's non-zero return stops the read and is returned");
	is_int((int)n, 3, "after the third line");

	put_file(tmpl, "proc/interrupts", "\n\n garbage here\n 5: 1 2\n", 24);
	is_int(irqs_read_interrupts(&r, 0, 4, &t), -EINVAL, "no CPUn header: -EINVAL");
	ok(t.n == 0 && t.rows == NULL && t.cpu_total == NULL, "and nothing is left allocated");
	put_file(tmpl, "proc/interrupts", "\n   CPU0 CPU1\n 5: 1 2 X 1-edge a\n", 33);
	ok(irqs_read_interrupts(&r, 0, 4, &t) == 0 && t.n == 1 && irq_count(&t.rows[0], 1) == 2,
	   "blank lines before the header are skipped");
	irqs_free(&t);
	/* the file loses a CPU column (hotplug): rates of the CPUs left */
	{
		struct irq_table c;

		put_file(tmpl, "proc/interrupts", "   CPU0 CPU1\n 5: 10 20 X 1-edge a\n", 35);
		irqs_read_interrupts(&r, 0, 5, &t);
		put_file(tmpl, "proc/interrupts", "   CPU0\n 5: 13 X 1-edge a\n", 26);
		irqs_read_interrupts(&r, 0, 5, &c);
		irqs_derive(&c, &t, 1.0);
		ok(c.ncpus == 1 && c.rows[0].rate_per_s[0] == 3.0 && c.rows[0].total_per_s == 3.0,
		   "a CPU went offline: the other's rate");
		irqs_free(&c);
		irqs_free(&t);
	}
	is_int(irqs_read_interrupts(&r, 0, 0, &t), 0, "re-read after the file was replaced");
	irqs_free(&t);
	sysroot_close(&r);
	irqs_free(&whole);
	free(text);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmpl);
	if (system(path) != 0)
		printf("# cleanup failed\n");
}

int main(void)
{
	test_x86();
	test_sparse_arm64();
	test_wide();
	test_count_limits();
	test_derive();
	test_cpu_online();
	test_sparse_counts();
	test_chunked();
	test_json();
	test_irqbalance();
	test_fixtures();
	test_live();
	return done_testing();
}
