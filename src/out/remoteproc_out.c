/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Remote processors section writers: the "remoteproc" and "rpmsg" keys of
 * the JSON snapshot (members: the rows of model/snap_fields.c) and the
 * "Remote cores" part of the text report. */
#include "out/remoteproc_out.h"

#include <stdio.h>
#include <string.h>

#include "model/snap_fields.h"
#include "out/fmt.h"

void out_remoteproc_json(struct jw *w, const struct remoteproc_info *info,
			 const struct irq_table *irqs)
{
	static const struct remoteproc_info none;

	if (!info)
		info = &none;
	jf_write_array(w, "remoteproc", &snap_rproc, info->p, info->nproc);
	jf_write_array(w, "rpmsg", &snap_rpmsg, info->ch, info->nchan);
	if (info->nproc && irqs) {
		jw_arr_begin(w, "remoteproc_irqs");
		for (size_t i = 0; i < irqs->n; i++) {
			const struct irq_row *r = &irqs->rows[i];

			if (!remoteproc_irq_related(r->name))
				continue;
			jw_obj_begin(w, NULL);
			jw_str(w, "label", r->label);
			jw_str(w, "name", r->name);
			jw_obj_end(w);
		}
		jw_arr_end(w);
	}
}

void out_remoteproc_text(struct sbuf *b, const struct remoteproc_info *info,
			 const struct irq_table *irqs)
{
	if (!info || (!info->nproc && !info->nchan))
		return;
	sbuf_printf(b, "Remote cores\n");
	for (size_t i = 0; i < info->nproc; i++) {
		const struct rproc *p = &info->p[i];

		sbuf_printf(b, "  %-12s %-10s %-10s firmware %s\n", p->name, out_na(p->fw_name),
			    out_na(p->state), out_na(p->firmware));
		if (p->have_trace && p->trace_tail[0]) {
			const char *line = p->trace_tail;

			sbuf_printf(b, "    trace:\n");
			while (*line) {
				size_t n = strcspn(line, "\n");

				sbuf_printf(b, "      %.*s\n", (int)n, line);
				line += n;
				if (*line)
					line++;
			}
		} else if (!p->have_trace) {
			sbuf_printf(b,
				    "    trace: n/a (debugfs remoteproc/%s/trace0 not readable)\n",
				    p->name);
		}
	}
	for (size_t i = 0; i < info->nchan; i++) {
		const struct rpmsg_chan *c = &info->ch[i];
		char src[16] = "n/a", dst[16] = "n/a";

		if (c->src >= 0)
			snprintf(src, sizeof(src), "%d", c->src);
		if (c->dst >= 0)
			snprintf(dst, sizeof(dst), "%d", c->dst);
		sbuf_printf(b, "  rpmsg %-28s %-16s src %-6s dst %-6s%s%s\n", c->dev,
			    out_na(c->name), src, dst, c->rproc[0] ? " on " : "", c->rproc);
	}
	if (info->nproc && irqs) {
		size_t n = 0;

		for (size_t i = 0; i < irqs->n; i++) {
			const struct irq_row *r = &irqs->rows[i];

			if (!remoteproc_irq_related(r->name))
				continue;
			sbuf_printf(b, "%s %s (%s)", n++ ? "," : "  serving interrupts:", r->label,
				    r->name);
		}
		sbuf_puts(b, n ? "\n" : "  serving interrupts: none found in /proc/interrupts\n");
	}
}
