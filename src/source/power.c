/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Power sensors (see power.h): hwmon power / energy channels with labels,
 * RAPL energy counters, the wrap-safe energy delta and the watts between
 * samples. */
#include "source/power.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"

static struct power_sensor *add(struct power_info *p, size_t *cap)
{
	struct power_sensor *s;

	p->s = xgrow(p->s, cap, p->n + 1, sizeof(*p->s));
	s = &p->s[p->n++];
	memset(s, 0, sizeof(*s));
	s->watts = NAN;
	return s;
}

static int read_counter(const struct sysroot *r, const char *path, uint64_t *v)
{
	char buf[64];
	int e = sysfs_read_str(r, path, buf, sizeof(buf));

	if (e)
		return e;
	return str_to_u64(buf, v) ? -EINVAL : 0;
}

/* powerN_input / energyN_input of one hwmon directory. */
static void read_hwmon_dir(const struct sysroot *r, const char *dir, struct power_info *p,
			   size_t *cap)
{
	char path[TT_PATH_MAX], hname[32] = "", label[48];
	struct sysfs_list l;

	snprintf(path, sizeof(path), "sys/class/hwmon/%s/name", dir);
	if (sysfs_read_str(r, path, hname, sizeof(hname)) != 0)
		snprintf(hname, sizeof(hname), "%s", dir);
	snprintf(path, sizeof(path), "sys/class/hwmon/%s", dir);
	if (sysfs_list(r, path, &l) < 0)
		return;
	for (size_t i = 0; i < l.n; i++) {
		const char *f = l.names[i];
		bool energy = !strncmp(f, "energy", 6);
		size_t pre = energy ? 6 : 5;
		const char *suf;
		struct power_sensor *s;
		char chan[16];

		if (!energy && strncmp(f, "power", 5))
			continue;
		suf = strchr(f, '_');
		if (!suf || strcmp(suf, "_input") || (size_t)(suf - f) <= pre ||
		    (size_t)(suf - f) - pre >= sizeof(chan))
			continue;
		snprintf(chan, sizeof(chan), "%.*s", (int)(suf - f), f);
		s = add(p, cap);
		snprintf(path, sizeof(path), "sys/class/hwmon/%s/%s_label", dir, chan);
		if (sysfs_read_str(r, path, label, sizeof(label)) != 0 || !label[0])
			snprintf(label, sizeof(label), "%s", chan);
		snprintf(s->name, sizeof(s->name), "%s %s", hname, label);
		snprintf(s->source, sizeof(s->source), "hwmon");
		snprintf(s->file, sizeof(s->file), "/sys/class/hwmon/%s/%s", dir, f);
		s->kind = energy ? POWER_ENERGY : POWER_INSTANT;
		s->err = read_counter(r, s->file, energy ? &s->uj : &s->uw);
		if (!energy && !s->err)
			s->watts = (double)s->uw / 1e6;
	}
	sysfs_list_free(&l);
}

static void read_rapl(const struct sysroot *r, struct power_info *p, size_t *cap)
{
	struct sysfs_list l;

	if (sysfs_list(r, "sys/class/powercap", &l) < 0)
		return;
	for (size_t i = 0; i < l.n; i++) {
		const char *d = l.names[i];
		char path[TT_PATH_MAX], name[48];
		struct power_sensor *s;

		/* zones "intel-rapl:0", "intel-rapl:0:1"; not the control
		 * type "intel-rapl" itself */
		if (strncmp(d, "intel-rapl", 10) || !strchr(d, ':'))
			continue;
		snprintf(path, sizeof(path), "sys/class/powercap/%s/energy_uj", d);
		if (!sysfs_exists(r, path))
			continue;
		s = add(p, cap);
		snprintf(path, sizeof(path), "sys/class/powercap/%s/name", d);
		if (sysfs_read_str(r, path, name, sizeof(name)) != 0 || !name[0])
			snprintf(name, sizeof(name), "%s", d);
		snprintf(s->name, sizeof(s->name), "%s", name);
		snprintf(s->source, sizeof(s->source), "rapl");
		snprintf(s->file, sizeof(s->file), "/sys/class/powercap/%s/energy_uj", d);
		s->kind = POWER_ENERGY;
		s->err = read_counter(r, s->file, &s->uj);
		snprintf(path, sizeof(path), "sys/class/powercap/%s/max_energy_range_uj", d);
		if (read_counter(r, path, &s->max_uj) != 0)
			s->max_uj = 0;
	}
	sysfs_list_free(&l);
}

int power_read(const struct sysroot *r, struct power_info *p)
{
	struct sysfs_list l;
	size_t cap = 0;

	memset(p, 0, sizeof(*p));
	if (sysfs_list(r, "sys/class/hwmon", &l) >= 0) {
		for (size_t i = 0; i < l.n; i++)
			read_hwmon_dir(r, l.names[i], p, &cap);
		sysfs_list_free(&l);
	}
	read_rapl(r, p, &cap);
	return 0;
}

int power_energy_delta(uint64_t prev, uint64_t cur, uint64_t max_uj, uint64_t *delta)
{
	if (cur >= prev) {
		*delta = cur - prev;
		return 0;
	}
	if (max_uj > 0 && prev <= max_uj) {
		*delta = (max_uj - prev) + cur;
		return 0;
	}
	return -ERANGE;
}

void power_derive(struct power_info *cur, const struct power_info *prev, double dt_s)
{
	for (size_t i = 0; i < cur->n; i++) {
		struct power_sensor *s = &cur->s[i];
		const struct power_sensor *o = NULL;
		uint64_t d;

		if (s->kind != POWER_ENERGY)
			continue;
		s->watts = NAN;
		for (size_t k = 0; prev && k < prev->n; k++)
			if (!strcmp(prev->s[k].file, s->file)) {
				o = &prev->s[k];
				break;
			}
		if (!o || s->err || o->err || !(dt_s > 0))
			continue;
		if (power_energy_delta(o->uj, s->uj, s->max_uj, &d) != 0) {
			s->reset = true;
			continue;
		}
		s->watts = (double)d / 1e6 / dt_s;
	}
}

double power_total_w(const struct power_info *p)
{
	double sum = 0;
	bool any = false;

	for (size_t i = 0; p && i < p->n; i++) {
		const struct power_sensor *s = &p->s[i];

		/* RAPL subzones (intel-rapl:0:0) are inside their package */
		if (!strcmp(s->source, "rapl") && strchr(strchr(s->file, ':') + 1, ':'))
			continue;
		if (isfinite(s->watts)) {
			sum += s->watts;
			any = true;
		}
	}
	return any ? sum : NAN;
}

void power_free(struct power_info *p)
{
	free(p->s);
	memset(p, 0, sizeof(*p));
}
