/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The field tables of the snapshot document (model/snap_fields.c, issue
 * 33): every row of every table is checked to be well formed, and to come
 * back from a record -> replay round trip through the real writers
 * (report_record_json, src/out/) and the real reader (replay.c): each
 * table's array in a sampled rk3588 snapshot is replaced by two elements,
 * one with every member set to a value of its type, one with every member
 * n/a, and the replayed elements must agree member by member; the written
 * objects must carry exactly the table's keys, in order, and its derived
 * key (a member written by hand beside the table fails here). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cpumask.h"
#include "core/xalloc.h"
#include "model/explain.h"
#include "model/record.h"
#include "model/replay.h"
#include "model/snap_fields.h"
#include "out/report.h"
#include "tap.h"

static void bail(const char *why)
{
	printf("Bail out! %s\n", why);
	exit(1);
}

/* ---- the values of each type --------------------------------------------------- */

static void put_have(const struct jf_field *f, void *e, bool v)
{
	*(bool *)((char *)e + f->aux) = v;
}

static void set_int(const struct jf_field *f, void *p, int64_t v)
{
	if (f->size == sizeof(int64_t))
		*(int64_t *)p = v;
	else
		*(int *)p = (int)v;
}

/* A value of the row's type that is not its n/a one; false when the test
 * has none (a new custom row needs one here). */
static bool sample(const struct jf_field *f, size_t row, void *e)
{
	char *p = (char *)e + f->off;

	switch (f->type) {
	case JF_STR:
	case JF_STR_NZ:
	case JF_STR_OMIT: snprintf(p, f->size, "v%zu-%s", row, f->key); return true;
	case JF_STR_HAVE:
		snprintf(p, f->size, "v%zu-%s\nline 2", row, f->key);
		put_have(f, e, true);
		return true;
	case JF_INT: set_int(f, p, 7 + (int64_t)row); return true;
	case JF_INT_NN: set_int(f, p, 42 + (int64_t)row); return true;
	case JF_INT_HAVE:
		set_int(f, p, -5000 - (int64_t)row); /* a negative reading is a reading */
		put_have(f, e, true);
		return true;
	case JF_BOOL: *(bool *)p = true; return true;
	case JF_ERRNO: *(int *)p = -EACCES; return true;
	case JF_ERR_UNLESS: *(int *)p = -EACCES; return true;
	case JF_DOUBLE: *(double *)p = 12.375; return true;
	case JF_CPUS:
		cpumask_zero((struct cpumask *)p);
		cpumask_set((struct cpumask *)p, 1);
		cpumask_set((struct cpumask *)p, 3);
		return true;
	case JF_ENUM: *(int *)p = (f->dflt + 1) % f->arg; return true;
	case JF_CUSTOM: break;
	}
	if (!strcmp(f->key, "trips_mc") || !strcmp(f->key, "trip_types")) {
		struct thermal_zone *z = e;

		z->ntrips = 2;
		z->trips[0] = (struct thermal_trip){85000, "passive"};
		z->trips[1] = (struct thermal_trip){-40000, ""};
		return true;
	}
	if (!strcmp(f->key, "available_hz")) {
		static uint64_t hz[] = {200000000, 400000000};

		((struct devfreq_dev *)e)->avail_hz = hz;
		((struct devfreq_dev *)e)->navail = 2;
		return true;
	}
	if (!strcmp(f->key, "available_governors")) {
		static char gov[2][DEVFREQ_NAME_LEN] = {"simple_ondemand", "userspace"};

		((struct devfreq_dev *)e)->avail_gov = gov;
		((struct devfreq_dev *)e)->ngov = 2;
		return true;
	}
	if (!strcmp(f->key, "time_in_state_pct")) {
		static uint64_t hz[] = {200000000, 400000000};
		static double pct[] = {25.5, 74.5};
		struct devfreq_dev *d = e;

		d->have_trans = true;
		d->ntrans = 2;
		d->trans_hz = hz;
		d->time_pct = pct;
		return true;
	}
	if (!strcmp(f->key, "cur_state_hz")) { /* after time_in_state_pct */
		((struct devfreq_dev *)e)->trans_cur = 1;
		return true;
	}
	if (!strcmp(f->key, "explain")) {
		((struct finding *)e)->explain = explain_at(explain_count() - 1)->key;
		return true;
	}
	if (!strcmp(f->key, "fix")) {
		struct finding *x = e;

		x->nfix = 2;
		strcpy(x->fix[0], "cpufreq/policy0/governor=performance");
		strcpy(x->fix[1], "pmqos/cpu_dma_latency=0");
		return true;
	}
	return false;
}

static size_t type_size(const struct jf_field *f)
{
	switch (f->type) {
	case JF_INT:
	case JF_INT_NN:
	case JF_INT_HAVE: return f->size == sizeof(int64_t) ? f->size : sizeof(int);
	case JF_BOOL: return sizeof(bool);
	case JF_ERRNO:
	case JF_ERR_UNLESS:
	case JF_ENUM: return sizeof(int);
	case JF_DOUBLE: return sizeof(double);
	case JF_CPUS: return sizeof(struct cpumask);
	default: return f->size;
	}
}

static void check_rows(const struct jf_obj *o)
{
	bool good = o->n > 0 && !o->derived == !o->derive;

	for (size_t i = 0; i < o->n; i++) {
		const struct jf_field *f = &o->f[i];
		bool have = f->type == JF_STR_HAVE || f->type == JF_INT_HAVE ||
			    f->type == JF_ERR_UNLESS;

		for (size_t k = 0; k < i; k++)
			if (!strcmp(o->f[k].key, f->key)) {
				printf("# %s: key %s twice\n", o->name, f->key);
				good = false;
			}
		if (f->off + f->size > o->size || type_size(f) != f->size ||
		    (have && f->aux + sizeof(bool) > o->size) ||
		    (f->type == JF_CUSTOM && (!f->put || !f->get || !f->eq)) ||
		    (f->type == JF_ENUM && (!f->name || f->dflt < 0 || f->dflt >= f->arg)) ||
		    (f->unit && !strstr(f->key, f->unit))) {
			printf("# %s: row %s is malformed\n", o->name, f->key);
			good = false;
		}
	}
	ok(good, "%s: %zu rows, each well formed", o->name, o->n);
}

/* ---- where each table's elements are in a snapshot ------------------------------ */

struct where {
	void **v;  /* the array pointer (NULL: accel's fixed array) */
	size_t *n; /* its length */
};

static struct where where_of(struct snapshot *s, struct finding_list *fl, const struct jf_obj *o)
{
	if (o == &snap_devfreq_dev)
		return (struct where){(void **)&s->devf.dev, &s->devf.ndev};
	if (o == &snap_thermal_zone)
		return (struct where){(void **)&s->therm.zones, &s->therm.nzones};
	if (o == &snap_thermal_cooling)
		return (struct where){(void **)&s->therm.cooling, &s->therm.ncooling};
	if (o == &snap_thermal_hwmon)
		return (struct where){(void **)&s->therm.hwmon, &s->therm.nhwmon};
	if (o == &snap_rproc)
		return (struct where){(void **)&s->rproc.p, &s->rproc.nproc};
	if (o == &snap_rpmsg)
		return (struct where){(void **)&s->rproc.ch, &s->rproc.nchan};
	if (o == &snap_devfreq_clk)
		return (struct where){(void **)&s->devf.clk, &s->devf.nclk};
	if (o == &snap_accel_dev)
		return (struct where){NULL, &s->accel.ndev};
	if (o == &snap_power)
		return (struct where){(void **)&s->power.s, &s->power.n};
	if (o == &snap_finding)
		return (struct where){(void **)&fl->v, &fl->n};
	return (struct where){NULL, NULL};
}

static void *elems(struct snapshot *s, struct finding_list *fl, const struct jf_obj *o)
{
	struct where w = where_of(s, fl, o);

	return w.v ? *w.v : (void *)s->accel.dev;
}

/* Elements 0 (every member a value) and 1 (every member n/a) of table o. */
static void make_pair(const struct jf_obj *o, char *two)
{
	size_t missing = 0;

	memset(two, 0, 2 * o->size);
	jf_clear(o, two);
	jf_clear(o, two + o->size);
	for (size_t i = 0; i < o->n; i++)
		if (!sample(&o->f[i], i, two)) {
			printf("# %s: no sample value for the custom row %s\n", o->name,
			       o->f[i].key);
			missing++;
		}
	ok(!missing, "%s: a value for every row", o->name);
}

/* The replayed elements agree with the written ones on every row. */
static void compare(const struct jf_obj *o, const char *a, const char *b, size_t n,
		    const char *what)
{
	size_t bad = 0;

	for (size_t e = 0; e < n; e++)
		for (size_t i = 0; i < o->n; i++)
			if (!jf_field_equal(&o->f[i], a + e * o->size, b + e * o->size)) {
				printf("# %s %s: element %zu: %s differs after replay\n", o->name,
				       what, e, o->f[i].key);
				bad++;
			}
	ok(!bad, "%s %s: %zu element(s) x %zu rows replay as written", o->name, what, n, o->n);
}

/* The objects written for o carry exactly its keys, in order ("held" only
 * when set). */
static void check_keys(const struct jp_value *doc, const struct jf_obj *o)
{
	char path[64];
	const struct jp_value *a;
	size_t bad = 0;

	snprintf(path, sizeof(path), "%.*s", (int)(strlen(o->name) - 2), o->name);
	a = jp_path(doc, path);
	for (size_t e = 0; e < jp_len(a); e++) {
		const struct jp_value *x = jp_at(a, e);
		size_t k = 0;

		for (size_t i = 0; i < o->n; i++) {
			if (k < x->n && !strcmp(x->k[k], o->f[i].key))
				k++;
			else if (o->f[i].type != JF_STR_OMIT)
				bad++;
		}
		if (k < x->n && o->derived && !strcmp(x->k[k], o->derived))
			k++; /* written from another object after the rows */
		if (k != x->n) {
			printf("# %s: element %zu has %zu keys, the table %zu (first other: %s)\n",
			       o->name, e, x->n, o->n, k < x->n ? x->k[k] : "?");
			bad++;
		}
	}
	ok(jp_len(a) == 2 && !bad, "%s: the written objects have the table's keys", o->name);
}

int main(void)
{
	const char *t = getenv("TMPDIR");
	char path[512];
	struct sysroot r;
	struct snapshot snap, *s = &snap, back;
	struct finding_list fl = {0}, bfl = {0};
	struct recorder *rec = NULL;
	struct replay *rp = NULL;
	struct record_meta meta = {.source = "test",
				   .root_path = "ROOT",
				   .interval_ms = 100,
				   .format = RECORD_FMT_JSON,
				   .snapshot_json = report_record_json};
	struct jp_value j;
	char *cause = NULL;
	int fd;
	char *saved[64];
	size_t saved_n[64];

	for (size_t i = 0; i < snap_nfield_tables; i++)
		check_rows(snap_field_tables[i]);

	snprintf(path, sizeof(path), "%s/tunetop-jfield.XXXXXX", t && *t ? t : "/tmp");
	fd = mkstemp(path);
	if (fd < 0 || sysroot_open(&r, fixture("rk3588")) != 0)
		bail("no temporary file or no rk3588 fixture");
	close(fd);
	ok(snapshot_take(&r, SNAP_ALL, s) == 0, "rk3588 sampled");
	s->what |= SNAP_THERMAL | SNAP_REMOTEPROC | SNAP_DEVFREQ | SNAP_POWER;
	/* every table's array: [every member a value, every member n/a] */
	for (size_t i = 0; i < snap_nfield_tables; i++) {
		const struct jf_obj *o = snap_field_tables[i];
		struct where w = where_of(s, &fl, o);
		char *two = xcalloc(2, o->size);

		make_pair(o, two);
		saved[i] = NULL;
		saved_n[i] = *w.n;
		if (w.v) {
			saved[i] = *w.v;
			*w.v = two;
		} else {
			memcpy(s->accel.dev, two, 2 * o->size);
			free(two);
		}
		*w.n = 2;
	}
	ok(record_open(&rec, path, &meta, &cause) == 0, "record_open (%s)", cause ? cause : "ok");
	ok(record_sample_with(rec, s, NULL, &fl, NULL) == 0, "the sample recorded");
	ok(record_close(rec) == 0, "record_close");
	free(cause);
	cause = NULL;
	ok(replay_open(&rp, path, &cause) == 0, "replay_open (%s)", cause ? cause : "ok");
	free(cause);
	if (!rp || replay_sample(rp, 0, &back) != 0 || replay_findings(rp, 0, &bfl) != 0 ||
	    replay_sample_json(rp, 0, &j) != 0)
		bail("the recording does not replay");
	for (size_t i = 0; i < snap_nfield_tables; i++) {
		const struct jf_obj *o = snap_field_tables[i];
		struct where wb = where_of(&back, &bfl, o);

		check_keys(jp_get(&j, "snapshot"), o);
		ok(*wb.n == 2, "%s: two elements replayed (%zu)", o->name, *wb.n);
		if (*wb.n == 2) {
			compare(o, elems(s, &fl, o), elems(&back, &bfl, o), 1, "every member set");
			compare(o, (char *)elems(s, &fl, o) + o->size,
				(char *)elems(&back, &bfl, o) + o->size, 1, "every member n/a");
		}
	}
	jp_free(&j);
	snapshot_free(&back);
	findings_free(&bfl);
	replay_close(rp);
	/* snapshot_free frees the sources' arrays: theirs back */
	for (size_t i = 0; i < snap_nfield_tables; i++) {
		struct where w = where_of(s, &fl, snap_field_tables[i]);

		if (w.v) {
			free(*w.v);
			*w.v = saved[i];
		}
		*w.n = w.v ? saved_n[i] : 0; /* their elements, freed with them */
	}
	snapshot_free(s);
	sysroot_close(&r);
	unlink(path);
	return done_testing();
}
