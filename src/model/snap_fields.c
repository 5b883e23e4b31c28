/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The field tables of the snapshot document (snap_fields.h): one row per
 * JSON member, in the order written. The n/a rule is the row's type
 * (core/jfield.h); a member whose shape is its own (an array of trips, a
 * pointer into the explain table) has its put/get/eq here. */
#include "model/snap_fields.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "core/str.h"
#include "model/explain.h"
#include "model/findings.h"
#include "model/snapshot.h"

/* ---- thermal ---------------------------------------------------------------- */

static void trips_put(struct jw *w, const char *key, const void *e)
{
	const struct thermal_zone *z = e;

	jw_arr_begin(w, key);
	for (size_t k = 0; k < z->ntrips; k++)
		jw_int(w, NULL, z->trips[k].temp_mc);
	jw_arr_end(w);
}

static void trips_get(const struct jp_value *v, void *e)
{
	struct thermal_zone *z = e;

	z->ntrips = 0;
	for (size_t k = 0; k < jp_len(v) && k < THERMAL_MAX_TRIPS; k++)
		z->trips[z->ntrips++].temp_mc = jp_int(jp_at(v, k), 0);
}

static bool trips_eq(const void *a, const void *b)
{
	const struct thermal_zone *x = a, *y = b;

	for (size_t k = 0; k < x->ntrips && x->ntrips == y->ntrips; k++)
		if (x->trips[k].temp_mc != y->trips[k].temp_mc)
			return false;
	return x->ntrips == y->ntrips;
}

/* trip_types after trips_mc: one per trip, null for an unnamed one */
static void trip_types_put(struct jw *w, const char *key, const void *e)
{
	const struct thermal_zone *z = e;

	jw_arr_begin(w, key);
	for (size_t k = 0; k < z->ntrips; k++)
		jw_str(w, NULL, z->trips[k].type[0] ? z->trips[k].type : NULL);
	jw_arr_end(w);
}

static void trip_types_get(const struct jp_value *v, void *e)
{
	struct thermal_zone *z = e;

	for (size_t k = 0; k < z->ntrips; k++)
		str_copy(z->trips[k].type, sizeof(z->trips[k].type), jp_str(jp_at(v, k), ""));
}

static bool trip_types_eq(const void *a, const void *b)
{
	const struct thermal_zone *x = a, *y = b;

	for (size_t k = 0; k < x->ntrips && x->ntrips == y->ntrips; k++)
		if (strcmp(x->trips[k].type, y->trips[k].type))
			return false;
	return x->ntrips == y->ntrips;
}

#define Z struct thermal_zone
static const struct jf_field zone_rows[] = {
	JF_ROW(Z, "zone", JF_STR_NZ, type, NULL),
	JF_ROW(Z, "id", JF_INT, id, NULL),
	JF_HAVE(Z, "temp_mc", JF_INT_HAVE, temp_mc, "mc", have_temp),
	{.key = "error",
	 .type = JF_ERR_UNLESS,
	 .off = offsetof(Z, err),
	 .size = sizeof(int),
	 .aux = offsetof(Z, have_temp),
	 .arg = -ENODATA},
	JF_CUSTOMR(Z, "trips_mc", trips, "mc", trips_put, trips_get, trips_eq),
	JF_CUSTOMR(Z, "trip_types", trips, NULL, trip_types_put, trip_types_get, trip_types_eq),
	JF_ROW(Z, "policy", JF_STR_NZ, policy, NULL),
	JF_ROW(Z, "cpus", JF_CPUS, cpus, NULL),
	JF_ROW(Z, "cpus_note", JF_STR_NZ, cpus_note, NULL),
	JF_ROW(Z, "above_passive", JF_BOOL, above_passive, NULL),
};
#undef Z
const struct jf_obj snap_thermal_zone = JF_OBJ("thermal[]", struct thermal_zone, zone_rows);

#define C struct thermal_cooling
static const struct jf_field cooling_rows[] = {
	JF_ROW(C, "id", JF_INT, id, NULL),
	JF_ROW(C, "type", JF_STR_NZ, type, NULL),
	JF_ROW(C, "cur_state", JF_INT_NN, cur_state, NULL),
	JF_ROW(C, "max_state", JF_INT_NN, max_state, NULL),
	JF_ROW(C, "active", JF_BOOL, active, NULL),
	JF_ROW(C, "cpus", JF_CPUS, cpus, NULL),
	JF_ROW(C, "devfreq", JF_STR_NZ, devfreq, NULL),
};
#undef C
const struct jf_obj snap_thermal_cooling =
	JF_OBJ("cooling[]", struct thermal_cooling, cooling_rows);

#define H struct thermal_hwmon
static const struct jf_field hwmon_rows[] = {
	JF_ROW(H, "dev", JF_STR, dev, NULL),
	JF_ROW(H, "chip", JF_STR_NZ, chip, NULL),
	JF_ROW(H, "label", JF_STR, label, NULL),
	JF_HAVE(H, "temp_mc", JF_INT_HAVE, temp_mc, "mc", have_temp),
	JF_HAVE(H, "max_mc", JF_INT_HAVE, max_mc, "mc", have_max),
	JF_HAVE(H, "crit_mc", JF_INT_HAVE, crit_mc, "mc", have_crit),
	{.key = "error",
	 .type = JF_ERR_UNLESS,
	 .off = offsetof(H, err),
	 .size = sizeof(int),
	 .aux = offsetof(H, have_temp),
	 .arg = -ENODATA},
};
#undef H
const struct jf_obj snap_thermal_hwmon = JF_OBJ("hwmon[]", struct thermal_hwmon, hwmon_rows);

/* ---- remote cores ----------------------------------------------------------- */

static const struct jf_field rproc_rows[] = {
	JF_ROW(struct rproc, "name", JF_STR, name, NULL),
	JF_ROW(struct rproc, "fw_name", JF_STR_NZ, fw_name, NULL),
	JF_ROW(struct rproc, "state", JF_STR_NZ, state, NULL),
	JF_ROW(struct rproc, "firmware", JF_STR_NZ, firmware, NULL),
	JF_HAVE(struct rproc, "trace", JF_STR_HAVE, trace_tail, NULL, have_trace),
};
const struct jf_obj snap_rproc = JF_OBJ("remoteproc[]", struct rproc, rproc_rows);

static const struct jf_field rpmsg_rows[] = {
	JF_ROW(struct rpmsg_chan, "dev", JF_STR, dev, NULL),
	JF_ROW(struct rpmsg_chan, "name", JF_STR_NZ, name, NULL),
	JF_ROW(struct rpmsg_chan, "src", JF_INT_NN, src, NULL),
	JF_ROW(struct rpmsg_chan, "dst", JF_INT_NN, dst, NULL),
	JF_ROW(struct rpmsg_chan, "remoteproc", JF_STR_NZ, rproc, NULL),
};
const struct jf_obj snap_rpmsg = JF_OBJ("rpmsg[]", struct rpmsg_chan, rpmsg_rows);

/* ---- devfreq clocks, accelerators, power -------------------------------------- */

static const char *kind_name(int v)
{
	return devfreq_kind_name((enum devfreq_kind)v);
}

static const struct jf_field clk_rows[] = {
	JF_ROW(struct devfreq_clk, "name", JF_STR, name, NULL),
	JF_ENUMR(struct devfreq_clk, "kind", kind, kind_name, DEVFREQ_OTHER + 1, DEVFREQ_OTHER),
	JF_ROW(struct devfreq_clk, "rate_hz", JF_INT_NN, rate_hz, "hz"),
	JF_ROW(struct devfreq_clk, "covered", JF_BOOL, covered, NULL),
	JF_ARG(struct devfreq_clk, "error", JF_ERRNO, err, NULL, -ENODATA),
};
const struct jf_obj snap_devfreq_clk = JF_OBJ("clocks[]", struct devfreq_clk, clk_rows);

static const struct jf_field accel_dev_rows[] = {
	JF_ROW(struct accel_dev, "name", JF_STR, name, NULL),
	JF_ROW(struct accel_dev, "source", JF_STR, source, NULL),
	JF_ENUMR(struct accel_dev, "kind", kind, kind_name, DEVFREQ_OTHER + 1, DEVFREQ_OTHER),
	JF_ROW(struct accel_dev, "load_pct", JF_INT_NN, load_pct, "pct"),
	JF_ROW(struct accel_dev, "freq_hz", JF_INT_NN, freq_hz, "hz"),
};
const struct jf_obj snap_accel_dev = JF_OBJ("accel.devices[]", struct accel_dev, accel_dev_rows);

static const char *power_kind_name(int v)
{
	return v == POWER_ENERGY ? "energy" : "power";
}

static const struct jf_field power_rows[] = {
	JF_ROW(struct power_sensor, "name", JF_STR, name, NULL),
	JF_ROW(struct power_sensor, "source", JF_STR, source, NULL),
	JF_ROW(struct power_sensor, "file", JF_STR, file, NULL),
	JF_ENUMR(struct power_sensor, "kind", kind, power_kind_name, POWER_ENERGY + 1,
		 POWER_INSTANT),
	JF_ARG(struct power_sensor, "watts", JF_DOUBLE, watts, "w", 3),
	JF_ARG(struct power_sensor, "error", JF_ERRNO, err, NULL, -EINVAL),
	JF_ROW(struct power_sensor, "counter_reset", JF_BOOL, reset, NULL),
};
const struct jf_obj snap_power = JF_OBJ("power[]", struct power_sensor, power_rows);

/* ---- findings ----------------------------------------------------------------- */

static const char *sev_name(int v)
{
	return finding_sev_name((enum finding_sev)v);
}

static void explain_put(struct jw *w, const char *key, const void *e)
{
	jw_str(w, key, ((const struct finding *)e)->explain);
}

/* explain keys point into the explain table (static storage) */
static void explain_get(const struct jp_value *v, void *e)
{
	const char *k = jp_str(v, "");
	const struct explain_entry *x = *k ? explain_find(k) : NULL;

	((struct finding *)e)->explain = x ? x->key : NULL;
}

static bool explain_eq(const void *a, const void *b)
{
	const char *x = ((const struct finding *)a)->explain,
		   *y = ((const struct finding *)b)->explain;

	return x == y || (x && y && !strcmp(x, y));
}

static void fix_put(struct jw *w, const char *key, const void *e)
{
	const struct finding *f = e;

	jw_arr_begin(w, key);
	for (size_t k = 0; k < f->nfix; k++)
		jw_str(w, NULL, f->fix[k]);
	jw_arr_end(w);
}

static void fix_get(const struct jp_value *v, void *e)
{
	struct finding *f = e;

	f->nfix = 0;
	for (size_t n = 0; n < jp_len(v) && f->nfix < FINDING_MAX_FIX; n++)
		str_copy(f->fix[f->nfix++], FINDING_FIX_LEN, jp_str(jp_at(v, n), ""));
}

static bool fix_eq(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;

	for (size_t k = 0; k < x->nfix && x->nfix == y->nfix; k++)
		if (strcmp(x->fix[k], y->fix[k]))
			return false;
	return x->nfix == y->nfix;
}

#define F struct finding
static const struct jf_field finding_rows[] = {
	JF_ROW(F, "id", JF_STR, id, NULL),
	JF_ENUMR(F, "severity", sev, sev_name, FINDING_CRIT + 1, FINDING_INFO),
	JF_ROW(F, "subject", JF_STR, subject, NULL),
	JF_ROW(F, "title", JF_STR, title, NULL),
	JF_ROW(F, "evidence", JF_STR, evidence, NULL),
	/* only when the fix is in place and the finding persists */
	JF_ROW(F, "held", JF_STR_OMIT, held, NULL),
	JF_CUSTOMR(F, "explain", explain, NULL, explain_put, explain_get, explain_eq),
	JF_ROW(F, "degraded", JF_BOOL, degraded, NULL),
	JF_CUSTOMR(F, "fix", fix, NULL, fix_put, fix_get, fix_eq),
};
#undef F
const struct jf_obj snap_finding = JF_OBJ("findings[]", struct finding, finding_rows);

const struct jf_obj *const snap_field_tables[] = {
	&snap_thermal_zone, &snap_thermal_cooling, &snap_thermal_hwmon, &snap_rproc,   &snap_rpmsg,
	&snap_devfreq_clk,  &snap_accel_dev,	   &snap_power,		&snap_finding,
};
const size_t snap_nfield_tables = sizeof(snap_field_tables) / sizeof(snap_field_tables[0]);
