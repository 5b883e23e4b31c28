/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writers of the "accel" and "power" JSON keys and the Accelerator and
 * Power parts of the text report. */
#include "out/accel_out.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "core/err.h"
#include "model/snap_fields.h"

void out_accel_json(struct jw *w, const struct accel_info *a)
{
	jw_obj_begin(w, "accel");
	if (a->have_npu_load) {
		jw_arr_begin(w, "npu_load_pct");
		for (int i = 0; i < a->ncores; i++)
			jw_int(w, NULL, a->core_pct[i]);
		jw_arr_end(w);
		jw_null(w, "npu_load_error");
	} else {
		jw_null(w, "npu_load_pct");
		jw_str(w, "npu_load_error", err_name(a->npu_err ? a->npu_err : -ENOENT));
	}
	jw_str_nz(w, "driver_version", a->version);
	jw_str_nz(w, "version_file", a->version_src);
	jf_write_array(w, "devices", &snap_accel_dev, a->dev, a->ndev);
	jw_obj_end(w);
}

void out_accel_text(struct sbuf *b, const struct accel_info *a)
{
	if (!accel_present(a))
		return;
	if (a->version[0])
		sbuf_printf(b, "Accelerator  driver rknpu %s (%s)\n", a->version, a->version_src);
	else
		sbuf_printf(b, "Accelerator  driver version n/a\n");
	if (a->have_npu_load) {
		sbuf_printf(b, "  NPU load (rknpu debugfs):");
		for (int i = 0; i < a->ncores; i++)
			sbuf_printf(b, " core%d %d%%", i, a->core_pct[i]);
		sbuf_putc(b, '\n');
	} else {
		sbuf_printf(b, "  NPU load (rknpu debugfs): n/a (%s)\n",
			    err_name(a->npu_err ? a->npu_err : -ENOENT));
	}
	for (size_t i = 0; i < a->ndev; i++) {
		const struct accel_dev *d = &a->dev[i];

		sbuf_printf(b, "  %-16s %-4s %-8s load ", d->name, devfreq_kind_name(d->kind),
			    d->source);
		if (d->load_pct >= 0)
			sbuf_printf(b, "%d%%", d->load_pct);
		else
			sbuf_printf(b, "n/a");
		if (d->freq_hz >= 0)
			sbuf_printf(b, " at %lld MHz", (long long)(d->freq_hz / 1000000));
		sbuf_putc(b, '\n');
	}
}

void out_power_json(struct jw *w, const struct power_info *p)
{
	jf_write_array(w, "power", &snap_power, p ? p->s : NULL, p ? p->n : 0);
}

void out_power_text(struct sbuf *b, const struct power_info *p)
{
	if (!p || !p->n)
		return;
	sbuf_printf(b, "Power        source  watts\n");
	for (size_t i = 0; i < p->n; i++) {
		const struct power_sensor *s = &p->s[i];

		sbuf_printf(b, "  %-28s %-6s ", s->name, s->source);
		if (isfinite(s->watts))
			sbuf_printf(b, "%.3f W\n", s->watts);
		else if (s->err)
			sbuf_printf(b, "n/a (%s: %s)\n", s->file, err_name(s->err));
		else if (s->reset)
			sbuf_printf(b, "n/a (counter went back)\n");
		else
			sbuf_printf(b, "n/a (energy counter: needs two samples)\n");
	}
}
