/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The irq knob family: irq/<n>/affinity, the CPU list in
 * <root>/proc/irq/N/smp_affinity_list (so fixture roots work and restore
 * byte for byte through the default file ops). <n> is an IRQ number, a glob
 * over numbers and action names ("*", "eth*"), or an action name ("eth0").
 * Per-CPU interrupts (LOC, IPIs, GIC SGIs/PPIs such as arch_timer) have no
 * affinity and are refused by name; a glob skips them. Values must be CPU
 * lists of online CPUs of the root. A write refused with EIO is a managed
 * IRQ (the kernel owns its affinity) and is explained as such; after a move
 * a running irqbalance is pointed out, because it will undo it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "knob/knob_addr.h"
#include "knob/knob_int.h"
#include "source/irqs.h"

/* ---- ops: the default file ops plus checks and words -------------------------- */

static int irq_read(struct knob_ctx *ctx, const struct knob_ref *ref, char *value, size_t cap,
		    char *raw, size_t rawcap, size_t *rawlen)
{
	struct cpumask m;
	int e = knob_file_ops()->read(ctx, ref, value, cap, raw, rawcap, rawlen);

	/* the kernel prints "0-3"; normalize anything else the same way */
	if (!e && cpulist_parse(value, &m) == 0)
		cpulist_format(&m, value, cap);
	return e;
}

static int irq_write(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value)
{
	return knob_file_ops()->write(ctx, ref, value);
}

static int irq_restore(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
		       const char *raw, size_t rawlen)
{
	return knob_file_ops()->restore(ctx, ref, value, raw, rawlen);
}

static int irq_validate(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
			char *norm, size_t cap, char **cause)
{
	char v[KNOB_VALUE_MAX], list[256], ol[256];
	struct cpumask m, extra;
	const struct cpumask *online = knob_online(ctx);
	char *t;

	if (strlen(value) >= sizeof(v)) {
		knob_cause(cause, "%s: EINVAL: value too long", ref->addr);
		return -EINVAL;
	}
	str_copy(v, sizeof(v), value);
	t = str_trim(v);
	if (cpulist_parse(t, &m) != 0) {
		knob_cause(cause, "%s: EINVAL: '%s' is not a CPU list (e.g. 0-3,6)", ref->addr, t);
		return -EINVAL;
	}
	if (cpumask_empty(&m)) {
		knob_cause(cause, "%s: EINVAL: empty CPU list: an interrupt needs a CPU",
			   ref->addr);
		return -EINVAL;
	}
	extra = m;
	cpumask_andnot(&extra, online);
	if (!cpumask_empty(&extra)) {
		cpulist_format(&extra, list, sizeof(list));
		cpulist_format(online, ol, sizeof(ol));
		knob_cause(
			cause, "%s: EINVAL: CPU %s not online (online: %s)%s", ref->addr, list, ol,
			cpumask_count(&extra) == cpumask_count(&m) ? ": no online CPU in the mask"
								   : "");
		return -EINVAL;
	}
	cpulist_format(&m, norm, cap);
	return 0;
}

static int irq_allowed(struct knob_ctx *ctx, const struct knob_ref *ref, char *buf, size_t cap)
{
	char ol[256];

	(void)ref;
	cpulist_format(knob_online(ctx), ol, sizeof(ol));
	snprintf(buf, cap, "CPU list within %s", ol);
	return 0;
}

/* Words for a refused smp_affinity write (kernel/irq/proc.c write_irq_affinity). */
static const struct knob_refusal irq_refusals[] = {
	{EIO, "managed IRQ (kernel-managed affinity): not movable; the driver spread its vectors "
	      "over the CPUs (isolcpus=managed_irq,... keeps them off isolated CPUs at boot)"},
	{EINVAL, "no online CPU in the mask, or the interrupt controller cannot target those CPUs"},
	{ENOSPC, "no free interrupt vector on the target CPUs"},
	{0, NULL},
};

static void irq_notes(struct knob_ctx *ctx, const struct knob_ref *ref, const char *value,
		      struct sbuf *report)
{
	static const char line[] =
		"note: irqbalance is running: it rewrites interrupt affinities every few "
		"seconds and will undo this move; stop it (systemctl stop irqbalance) or ban "
		"the CPUs (IRQBALANCE_BANNED_CPULIST)\n";

	(void)ref;
	(void)value;
	if (report->s && strstr(report->s, "irqbalance is running"))
		return; /* once per transaction */
	if (irqbalance_running_in(ctx->root))
		sbuf_puts(report, line);
}

const struct knob_ops fam_irq_ops = {
	.read = irq_read,
	.write = irq_write,
	.restore = irq_restore,
	.validate = irq_validate,
	.allowed = irq_allowed,
	.notes = irq_notes,
};

/* ---- expansion ------------------------------------------------------------------ */

static int cmp_num(const void *a, const void *b)
{
	long x = atol(*(char *const *)a), y = atol(*(char *const *)b);

	return x < y ? -1 : x > y;
}

/* Does sel name this row (by number, or an action name of it)? */
static bool row_matches(const char *sel, const char *num, const struct irq_row *row)
{
	char names[sizeof(row->name)], *tok, *save = NULL;

	if (knob_glob_match(sel, num))
		return true;
	if (!row)
		return false;
	str_copy(names, sizeof(names), row->name);
	for (tok = strtok_r(names, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save))
		if (knob_glob_match(sel, tok))
			return true;
	return false;
}

int fam_irq_expand(struct knob_ctx *ctx, char **seg, size_t nseg, unsigned flags,
		   struct refvec *out, char **cause)
{
	const struct knob_def *d = knob_def_find("irq", "affinity");
	const char *sel = nseg > 0 ? seg[0] : "*";
	const char *leaf = nseg > 1 ? seg[1] : "*";
	struct irq_table tab;
	bool have_tab = false, explicit_one;
	struct sysfs_list l;
	char *text = NULL;
	int matched = 0, e;

	/* irq/default_smp_affinity: one file, not per interrupt */
	if (nseg == 1 && !strcmp(sel, "default_smp_affinity"))
		return knob_global_ref(ctx, &fam_irq, "default_smp_affinity", out, cause);
	if ((flags & KNOB_EXPAND_PREFIX) && nseg <= 1 && knob_is_glob(sel) &&
	    knob_glob_match(sel, "default_smp_affinity") &&
	    sysfs_exists(ctx->root, "proc/irq/default_smp_affinity"))
		knob_global_ref(ctx, &fam_irq, "default_smp_affinity", out, NULL);
	if (nseg == 0 && !(flags & KNOB_EXPAND_PREFIX)) {
		knob_cause(cause, "incomplete knob address: expected irq/<n>/affinity");
		return -EINVAL;
	}
	if (nseg == 1 && !(flags & KNOB_EXPAND_PREFIX)) {
		knob_cause(cause, "incomplete knob address: expected irq/%s/affinity", sel);
		return -EINVAL;
	}
	if (nseg > 2) {
		knob_cause(cause, "unknown knob address 'irq/%s/%s/%s': too many segments", seg[0],
			   seg[1], seg[2]);
		return -ENOENT;
	}
	if (!knob_glob_match(leaf, "affinity")) {
		if (knob_is_glob(leaf))
			return 0;
		knob_cause(cause,
			   "unknown knob 'irq/%s/%s' (knobs: irq/<n>/affinity, "
			   "irq/default_smp_affinity)",
			   sel, leaf);
		return -ENOENT;
	}
	explicit_one = !knob_is_glob(sel);
	/* /proc/interrupts tells per-CPU rows and names */
	memset(&tab, 0, sizeof(tab));
	if (sysfs_read_alloc(ctx->root, "proc/interrupts", &text, NULL) == 0) {
		have_tab = irqs_parse(text, 0, &tab) == 0;
		free(text);
	}
	if (explicit_one && !str_is_digits(sel)) {
		const struct irq_row *row = have_tab ? irqs_find(&tab, sel) : NULL;

		if (row && !row->numeric) {
			knob_cause(cause,
				   "irq/%s: per-CPU interrupt (%s): it is raised on every CPU and "
				   "has no affinity to change",
				   sel, row->name[0] ? row->name : sel);
			irqs_free(&tab);
			return -EINVAL;
		}
	}
	e = sysfs_list(ctx->root, "proc/irq", &l);
	if (e) {
		char abs[TT_PATH_MAX];

		irqs_free(&tab);
		if (!explicit_one)
			return 0;
		knob_abspath(ctx, "proc/irq", abs, sizeof(abs));
		knob_cause(cause, "irq/%s: %s from %s: no interrupt directory on this root", sel,
			   err_name(e), abs);
		return -ENOENT;
	}
	qsort(l.names, l.n, sizeof(char *), cmp_num);
	for (size_t i = 0; i < l.n; i++) {
		const char *num = l.names[i];
		const struct irq_row *row;
		char dir[64], file[96];
		struct knob_ref *r;

		if (!str_is_digits(num))
			continue;
		row = have_tab ? irqs_find(&tab, num) : NULL;
		if (!row_matches(sel, num, row))
			continue;
		if (row && row->percpu) {
			if (explicit_one && str_is_digits(sel)) {
				knob_cause(cause,
					   "irq/%s: per-CPU interrupt (%s%s%s): each CPU has its "
					   "own; there is no affinity to change",
					   num, row->name, row->chip[0] ? ", " : "", row->chip);
				sysfs_list_free(&l);
				irqs_free(&tab);
				return -EINVAL;
			}
			continue;
		}
		snprintf(dir, sizeof(dir), "proc/irq/%s", num);
		snprintf(file, sizeof(file), "%s/%s", dir, d->file);
		if (!sysfs_exists(ctx->root, file)) {
			if (explicit_one && str_is_digits(sel)) {
				char abs[TT_PATH_MAX];

				knob_abspath(ctx, file, abs, sizeof(abs));
				knob_cause(cause, "irq/%s/affinity: ENOENT from %s", num, abs);
				sysfs_list_free(&l);
				irqs_free(&tab);
				return -ENOENT;
			}
			continue;
		}
		r = refvec_add(out);
		r->def = d;
		snprintf(r->addr, sizeof(r->addr), "irq/%s/affinity", num);
		str_copy(r->obj, sizeof(r->obj), num);
		str_copy(r->dir, sizeof(r->dir), dir);
		str_copy(r->target, sizeof(r->target), file);
		if (row)
			snprintf(r->note, sizeof(r->note), "%s%s%s%s%s", row->name,
				 row->chip[0] ? " (" : "", row->chip, row->hwirq[0] ? " " : "",
				 row->hwirq);
		if (row && row->chip[0])
			str_copy(r->note + strlen(r->note), sizeof(r->note) - strlen(r->note), ")");
		matched++;
	}
	sysfs_list_free(&l);
	irqs_free(&tab);
	if (!matched && explicit_one) {
		if (str_is_digits(sel))
			knob_cause(cause, "irq/%s: no such interrupt on this root (%s)", sel,
				   ctx->root->path);
		else
			knob_cause(cause,
				   "irq/%s: no interrupt with that number or action name on this "
				   "root",
				   sel);
		return -ENOENT;
	}
	return 0;
}

/* EIO/EINVAL from default_smp_affinity: no online CPU in the mask. */
static const struct knob_refusal default_refusals[] = {
	{EINVAL, "the mask must include an online CPU"},
	{0, NULL},
};

/* clang-format off */
static const struct knob_def irq_defs[] = {
	{ .fam = &fam_irq, .leaf = "default_smp_affinity", .pattern = "irq/default_smp_affinity",
	  .dir = "proc/irq", .file = "default_smp_affinity", KNOB_HEXMASK_FIELDS,
	  .refusals = default_refusals,
	  .help = "affinity (hex mask) given to interrupts requested from now on; existing "
		  "ones keep theirs (irq/<n>/affinity)" },
	{ .fam = &fam_irq, .leaf = "affinity", .pattern = "irq/<n>/affinity", .scope = KS_DEVICE,
	  .file = "smp_affinity_list", .type = KT_CPULIST, .unit = "",
	  .allow_what = "online CPUs", .needs_root = true, .ops = &fam_irq_ops,
	  .refusals = irq_refusals, .observe = KO_IRQ,
	  .help = "CPUs that may handle the interrupt (/proc/irq/N/smp_affinity_list); managed "
		  "and per-CPU interrupts cannot be moved, irqbalance undoes moves" },
};
/* clang-format on */

KNOB_FAMILY(irq, .expand = fam_irq_expand);

/* ---- typed addresses (knob_addr.h) ---- */

KNOB_ADDR_BUILDER(knob_addr_irq_affinity, (const char *irq), "irq/%s/affinity", irq)

KNOB_ADDR_BUILDER(knob_addr_irq_default_affinity, (void), "irq/default_smp_affinity")

KNOB_ADDR_BUILDER(knob_addr_irq_affinity_n, (int irq), "irq/%d/affinity", irq)
