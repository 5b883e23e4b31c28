/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The field tables of the snapshot document (snap_fields.h): one row per
 * JSON member, in the order written. The n/a rule is the row's type
 * (core/jfield.h); a member whose shape is its own (an array of trips, a
 * pointer into the explain table) has its put/get/eq here. */
#include "model/snap_fields.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"
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

/* ---- devfreq devices ---------------------------------------------------------- */

static void avail_put(struct jw *w, const char *key, const void *e)
{
	const struct devfreq_dev *d = e;

	jw_u64_list(w, key, d->avail_hz, d->navail);
}

static void avail_get(const struct jp_value *v, void *e)
{
	struct devfreq_dev *d = e;

	d->navail = jp_len(v);
	d->avail_hz = d->navail ? xcalloc(d->navail, sizeof(*d->avail_hz)) : NULL;
	for (size_t i = 0; i < d->navail; i++)
		d->avail_hz[i] = (uint64_t)jp_int(jp_at(v, i), 0);
}

static bool avail_eq(const void *a, const void *b)
{
	const struct devfreq_dev *x = a, *y = b;

	return x->navail == y->navail &&
	       (!x->navail || !memcmp(x->avail_hz, y->avail_hz, x->navail * sizeof(*x->avail_hz)));
}

static void gov_put(struct jw *w, const char *key, const void *e)
{
	const struct devfreq_dev *d = e;

	jw_str_list(w, key, (const char *)d->avail_gov, sizeof(*d->avail_gov), d->ngov);
}

static void gov_get(const struct jp_value *v, void *e)
{
	struct devfreq_dev *d = e;

	d->ngov = jp_len(v);
	d->avail_gov = d->ngov ? xcalloc(d->ngov, sizeof(*d->avail_gov)) : NULL;
	for (size_t k = 0; k < d->ngov; k++)
		str_copy(d->avail_gov[k], DEVFREQ_NAME_LEN, jp_str(jp_at(v, k), ""));
}

static bool gov_eq(const void *a, const void *b)
{
	const struct devfreq_dev *x = a, *y = b;

	for (size_t k = 0; k < x->ngov && x->ngov == y->ngov; k++)
		if (strcmp(x->avail_gov[k], y->avail_gov[k]))
			return false;
	return x->ngov == y->ngov;
}

static void tis_put(struct jw *w, const char *key, const void *e)
{
	const struct devfreq_dev *d = e;

	jf_pct_by_freq(w, key, d->have_trans, d->trans_hz, d->time_pct, d->ntrans);
}

/* the states back from the shares (the ms spent there are not recorded) */
static void tis_get(const struct jp_value *v, void *e)
{
	struct devfreq_dev *d = e;

	d->have_trans = v && v->type == JP_OBJ && v->n;
	d->ntrans = d->have_trans ? v->n : 0;
	d->trans_hz = d->trans_time_ms = NULL;
	d->time_pct = NULL;
	if (!d->have_trans)
		return;
	d->trans_hz = xcalloc(v->n, sizeof(*d->trans_hz));
	d->trans_time_ms = xcalloc(v->n, sizeof(*d->trans_time_ms));
	d->time_pct = xcalloc(v->n, sizeof(*d->time_pct));
	for (size_t k = 0; k < v->n; k++) {
		d->trans_hz[k] = strtoull(v->k[k], NULL, 10);
		d->time_pct[k] = jp_num(&v->v[k], NAN);
	}
}

static bool tis_eq(const void *a, const void *b)
{
	const struct devfreq_dev *x = a, *y = b;

	if (x->have_trans != y->have_trans || x->ntrans != y->ntrans)
		return false;
	for (size_t k = 0; x->have_trans && k < x->ntrans; k++) {
		double p = x->time_pct ? x->time_pct[k] : NAN, q = y->time_pct[k];

		if (x->trans_hz[k] != y->trans_hz[k] ||
		    !((isnan(p) && isnan(q)) || fabs(p - q) <= 0.05))
			return false;
	}
	return true;
}

/* the state marked current, by its frequency (after time_in_state_pct) */
static void cur_state_put(struct jw *w, const char *key, const void *e)
{
	const struct devfreq_dev *d = e;
	bool cur = d->have_trans && d->trans_cur >= 0;

	jw_uint_have(w, key, cur, cur ? d->trans_hz[d->trans_cur] : 0);
}

static void cur_state_get(const struct jp_value *v, void *e)
{
	struct devfreq_dev *d = e;
	int64_t hz = jp_int(v, -1);

	d->trans_cur = -1;
	for (size_t k = 0; hz >= 0 && k < d->ntrans; k++)
		if (d->trans_hz[k] == (uint64_t)hz)
			d->trans_cur = (int)k;
}

static bool cur_state_eq(const void *a, const void *b)
{
	const struct devfreq_dev *x = a, *y = b;

	return !x->have_trans || x->trans_cur == y->trans_cur;
}

#define D struct devfreq_dev
static const struct jf_field devfreq_rows[] = {
	JF_ROW(D, "name", JF_STR, name, NULL),
	JF_ENUMR(D, "kind", kind, kind_name, DEVFREQ_OTHER + 1, DEVFREQ_OTHER),
	JF_ROW(D, "path", JF_STR_NZ, path, NULL),
	JF_ROW(D, "governor", JF_STR_NZ, governor, NULL),
	JF_ROW(D, "cur_hz", JF_INT_NN, cur_hz, "hz"),
	JF_ROW(D, "target_hz", JF_INT_NN, target_hz, "hz"),
	JF_ROW(D, "min_hz", JF_INT_NN, min_hz, "hz"),
	JF_ROW(D, "max_hz", JF_INT_NN, max_hz, "hz"),
	JF_ROW(D, "polling_ms", JF_INT_NN, polling_ms, "ms"),
	JF_CUSTOMR(D, "available_hz", avail_hz, "hz", avail_put, avail_get, avail_eq),
	JF_CUSTOMR(D, "available_governors", avail_gov, NULL, gov_put, gov_get, gov_eq),
	JF_HAVE(D, "total_trans", JF_INT_HAVE, total_trans, NULL, have_total),
	JF_ARG(D, "transitions_per_s", JF_DOUBLE, transitions_per_s, "per_s", 1),
	JF_CUSTOMR(D, "time_in_state_pct", time_pct, "pct", tis_put, tis_get, tis_eq),
	JF_CUSTOMR(D, "cur_state_hz", trans_cur, "hz", cur_state_put, cur_state_get, cur_state_eq),
	JF_ARG(D, "trans_stat_error", JF_ERRNO, trans_err, NULL, -EINVAL),
	JF_ROW(D, "load", JF_STR_NZ, load, NULL),
};
#undef D
/* ctx: the snapshot's struct thermal_info, NULL when not read (null) */
static void capped_put(struct jw *w, const char *key, const void *e, const void *ctx)
{
	const struct thermal_info *th = ctx;

	jw_bool_have(w, key, th != NULL,
		     th && thermal_devfreq_throttled(th, ((const struct devfreq_dev *)e)->name));
}

const struct jf_obj snap_devfreq_dev = {
	"devfreq[]",	  sizeof(struct devfreq_dev),
	devfreq_rows,	  sizeof(devfreq_rows) / sizeof(devfreq_rows[0]),
	"thermal_capped", capped_put};

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
	&snap_devfreq_dev, &snap_thermal_zone, &snap_thermal_cooling, &snap_thermal_hwmon,
	&snap_rproc,	   &snap_rpmsg,	       &snap_devfreq_clk,     &snap_accel_dev,
	&snap_power,	   &snap_finding,
};
const size_t snap_nfield_tables = sizeof(snap_field_tables) / sizeof(snap_field_tables[0]);
