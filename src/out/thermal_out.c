/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Thermal section writers: the "thermal", "cooling", "hwmon" and
 * "hwmon_source" keys of the JSON snapshot (design §8) and the thermal part
 * of the text report. They only read a struct thermal_info; the JSON
 * members are the rows of model/snap_fields.c; n/a is null in
 * JSON and "n/a" with its reason in text. */
#include "out/thermal_out.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/err.h"
#include "core/str.h"
#include "model/snap_fields.h"
#include "out/fmt.h"

void out_thermal_json(struct jw *w, const struct thermal_info *th)
{
	static const struct thermal_info none;

	if (!th)
		th = &none;
	jf_write_array(w, "thermal", &snap_thermal_zone, th->zones, th->nzones);
	jf_write_array(w, "cooling", &snap_thermal_cooling, th->cooling, th->ncooling);
	jf_write_array(w, "hwmon", &snap_thermal_hwmon, th->hwmon, th->nhwmon);
	jw_str(w, "hwmon_source", th->from_libsensors ? "libsensors" : "sysfs");
}

/* ---- text ---------------------------------------------------------------- */

static const struct out_why thermal_why[] = {
	{ENODATA, "empty, sensor not ready"},
	{EAGAIN, "sensor not ready"},
	{EINVAL, "malformed"},
	{0, NULL},
};

/* Milli-degrees as "45.0 C" (exact, negative temperatures too). */
static void put_temp(struct sbuf *b, int64_t mc)
{
	char t[32];

	sbuf_printf(b, "%s C", str_temp_c(t, sizeof(t), mc));
}

/* A reading, or why there is none. */
static void put_reading(struct sbuf *b, bool have, int64_t mc, int err)
{
	if (have)
		put_temp(b, mc);
	else
		out_put_err(b, err, thermal_why);
}

void out_thermal_text(struct sbuf *b, const struct thermal_info *th)
{
	char cpus[256];

	sbuf_puts(b, "thermal\n");
	if (!th || !th->nzones)
		out_put_none(b, th ? th->zone_err : -ENOENT,
			     "  none (no thermal zones under /sys/class/thermal)\n", thermal_why);
	for (size_t i = 0; th && i < th->nzones; i++) {
		const struct thermal_zone *z = &th->zones[i];

		sbuf_printf(b, "  zone%-3d %-20s ", z->id, z->type[0] ? z->type : "n/a");
		put_reading(b, z->have_temp, z->temp_mc, z->err);
		if (z->ntrips) {
			sbuf_puts(b, "  trips");
			for (size_t k = 0; k < z->ntrips; k++) {
				sbuf_printf(b, " %s ",
					    z->trips[k].type[0] ? z->trips[k].type : "?");
				put_temp(b, z->trips[k].temp_mc);
			}
		}
		if (!cpumask_empty(&z->cpus)) {
			cpulist_format(&z->cpus, cpus, sizeof(cpus));
			sbuf_printf(b, "  cpus %s", cpus);
		} else if (z->cpus_note[0]) {
			sbuf_printf(b, "  cpus n/a (%s)", z->cpus_note);
		}
		if (z->above_passive)
			sbuf_puts(b, "  ABOVE PASSIVE TRIP: throttling");
		sbuf_putc(b, '\n');
	}
	if (th && th->ncooling) {
		sbuf_puts(b, "cooling devices\n");
		for (size_t i = 0; i < th->ncooling; i++) {
			const struct thermal_cooling *c = &th->cooling[i];

			sbuf_printf(b, "  cooling%-3d %-24s state ", c->id,
				    c->type[0] ? c->type : "n/a");
			out_put_int(b, c->cur_state);
			sbuf_putc(b, '/');
			out_put_int(b, c->max_state);
			if (!cpumask_empty(&c->cpus)) {
				cpulist_format(&c->cpus, cpus, sizeof(cpus));
				sbuf_printf(b, "  cpus %s", cpus);
			}
			if (c->devfreq[0])
				sbuf_printf(b, "  devfreq %s", c->devfreq);
			if (c->active)
				sbuf_puts(b, "  ACTIVE: capping");
			sbuf_putc(b, '\n');
		}
	}
	sbuf_printf(b, "hwmon (%s)\n", th && th->from_libsensors ? "libsensors" : "sysfs");
	if (!th || !th->nhwmon)
		sbuf_puts(b, "  none\n");
	for (size_t i = 0; th && i < th->nhwmon; i++) {
		const struct thermal_hwmon *h = &th->hwmon[i];

		sbuf_printf(b, "  %-20s %-16s ", h->chip[0] ? h->chip : h->dev, h->label);
		put_reading(b, h->have_temp, h->temp_mc, h->err);
		if (h->have_max) {
			sbuf_puts(b, "  max ");
			put_temp(b, h->max_mc);
		}
		if (h->have_crit) {
			sbuf_puts(b, "  crit ");
			put_temp(b, h->crit_mc);
		}
		sbuf_putc(b, '\n');
	}
}
