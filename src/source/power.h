/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Power sensors: hwmon power*_input (uW, instant) and energy*_input (uJ,
 * a counter) with their labels (ina2xx, SCMI, ...), and powercap RAPL
 * (sys/class/powercap/intel-rapl:*\/energy_uj, uJ, wrapping at
 * max_energy_range_uj). Counters become watts between two samples
 * (power_derive). A value that cannot be read is n/a (NAN or a have_
 * flag), never 0. */
#ifndef TT_SOURCE_POWER_H
#define TT_SOURCE_POWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysfs/sysroot.h"

enum power_kind { POWER_INSTANT, POWER_ENERGY };

struct power_sensor {
	char name[64];	/* "ina226 vdd_cpu_big" (hwmon name + label) or "package-0" (RAPL) */
	char source[8]; /* "hwmon" or "rapl" */
	char file[128]; /* root-relative file read, with a leading '/' */
	enum power_kind kind;
	int err;	 /* why the value is n/a: 0, -EINVAL (garbage), -EACCES ... */
	uint64_t uw;	 /* POWER_INSTANT, valid when err == 0 */
	uint64_t uj;	 /* POWER_ENERGY, valid when err == 0 */
	uint64_t max_uj; /* RAPL max_energy_range_uj; 0 = unknown (no wrap-around known) */
	double watts;	 /* NAN = n/a (an energy counter's first sample, a counter that went
			    back without a known range, unreadable) */
	bool reset;	 /* power_derive: the counter went back (no range known) */
};

struct power_info {
	size_t n;
	struct power_sensor *s; /* hwmon first (by hwmon dir, channel), then RAPL */
};

/* Every sensor. Returns 0 (none: n = 0). Free with power_free. */
int power_read(const struct sysroot *r, struct power_info *out);
/* Watts of the energy counters over dt_s against prev (matched by file);
 * instant sensors keep uw / 1e6. */
void power_derive(struct power_info *cur, const struct power_info *prev, double dt_s);
/* The energy used between two counter values, uJ: cur - prev, or across
 * one wrap when cur < prev and max_uj (the range) is known and prev <=
 * max_uj. -ERANGE when it went back otherwise (a reset). */
int power_energy_delta(uint64_t prev, uint64_t cur, uint64_t max_uj, uint64_t *delta);
/* Sum of the readable watts (RAPL: the packages only, as the zones are
 * nested), NAN when none. */
double power_total_w(const struct power_info *p);
void power_free(struct power_info *p);

#endif
