/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tunetop's own placement (see selfplace.h). */
#include "model/selfplace.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/sched_sys.h"
#include "core/str.h"

static int live_mask(const struct sysroot *live, const char *file, struct cpumask *m)
{
	char buf[4096];
	char *t;

	cpumask_zero(m);
	if (sysfs_read_str(live, file, buf, sizeof(buf)) != 0)
		return -ENOENT;
	t = str_trim(buf);
	/* nohz_full reads "(null)" when it is off */
	if (!*t || !strcmp(t, "(null)"))
		return 0;
	return cpulist_parse(t, m) == 0 ? 0 : -EINVAL;
}

int self_place_parse(const char *cpus, const char *nice, struct self_place *sp, char *why,
		     size_t cap)
{
	struct cpumask online;
	int64_t v;

	memset(sp, 0, sizeof(*sp));
	sp->nice = SELF_NICE_DEFAULT;
	if (cpus && *cpus) {
		if (cpulist_parse(cpus, &sp->want) != 0 || cpumask_empty(&sp->want)) {
			snprintf(why, cap, "--self-cpus '%s': not a CPU list (e.g. 0 or 0-1,3)",
				 cpus);
			return -EINVAL;
		}
		if (live_mask(sysroot_live(), "sys/devices/system/cpu/online", &online) == 0) {
			struct cpumask m = sp->want;

			cpumask_and(&m, &online);
			if (cpumask_empty(&m)) {
				char on[128];

				cpulist_format(&online, on, sizeof(on));
				snprintf(why, cap, "--self-cpus '%s': no online CPU (online: %s)",
					 cpus, on);
				return -EINVAL;
			}
		}
		sp->explicit_cpus = true;
	}
	if (nice && *nice) {
		if (str_to_i64(nice, &v) != 0 || v < -20 || v > 19) {
			snprintf(why, cap, "--self-nice '%s': a nice value from -20 to 19", nice);
			return -EINVAL;
		}
		sp->nice = (int)v;
		sp->explicit_nice = true;
	}
	return 0;
}

int self_housekeeping(const struct sysroot *live, const struct cpumask *avoid, struct cpumask *out,
		      char *how, size_t cap)
{
	struct cpumask iso, nohz, hk;
	char a[96] = "", b[96] = "", c[96] = "", on[96];
	int n;

	if (live_mask(live, "sys/devices/system/cpu/online", out) != 0 || cpumask_empty(out))
		return -ENOENT;
	cpulist_format(out, on, sizeof(on));
	hk = *out;
	if (live_mask(live, "sys/devices/system/cpu/isolated", &iso) == 0 && !cpumask_empty(&iso)) {
		cpumask_andnot(&hk, &iso);
		cpulist_format(&iso, a, sizeof(a));
	}
	if (live_mask(live, "sys/devices/system/cpu/nohz_full", &nohz) == 0 &&
	    !cpumask_empty(&nohz)) {
		cpumask_andnot(&hk, &nohz);
		cpulist_format(&nohz, b, sizeof(b));
	}
	if (cpumask_empty(&hk)) /* everything isolated: nowhere better */
		hk = *out;
	if (avoid && !cpumask_empty(avoid)) {
		struct cpumask m = hk;

		cpumask_andnot(&m, avoid);
		if (!cpumask_empty(&m)) {
			hk = m;
			cpulist_format(avoid, c, sizeof(c));
		}
	}
	*out = hk;
	n = snprintf(how, cap, "housekeeping: online %s", on);
	if (a[0] && n >= 0 && (size_t)n < cap)
		n += snprintf(how + n, cap - (size_t)n, " minus isolated %s", a);
	if (b[0] && n >= 0 && (size_t)n < cap)
		n += snprintf(how + n, cap - (size_t)n, " minus nohz_full %s", b);
	if (c[0] && n >= 0 && (size_t)n < cap)
		snprintf(how + n, cap - (size_t)n, " minus the probe's %s", c);
	return 0;
}

int self_place_apply(struct self_place *sp, const struct cpumask *avoid)
{
	struct cpumask m;
	cpu_set_t set;
	int pol;

	sp->err[0] = '\0';
	if (sp->explicit_cpus) {
		struct cpumask online;

		m = sp->want;
		if (live_mask(sysroot_live(), "sys/devices/system/cpu/online", &online) == 0)
			cpumask_and(&m, &online);
		snprintf(sp->how, sizeof(sp->how), "--self-cpus");
	} else if (self_housekeeping(sysroot_live(), avoid, &m, sp->how, sizeof(sp->how)) != 0) {
		snprintf(sp->err, sizeof(sp->err), "cannot read the online CPUs");
		return -ENOENT;
	}
	CPU_ZERO(&set);
	for (int c = cpumask_next(&m, 0); c >= 0 && c < CPU_SETSIZE; c = cpumask_next(&m, c + 1))
		CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		int e = errno;

		snprintf(sp->err, sizeof(sp->err), "sched_setaffinity: %s", strerror(e));
		return -e;
	}
	sp->cpus = m;
	sp->applied = true;
	/* never RT: a tunetop started under chrt drops to SCHED_OTHER */
	pol = tt_sched_getscheduler(0);
	if (pol >= 0)
		pol &= ~SCHED_RESET_ON_FORK;
	if (pol == SCHED_FIFO || pol == SCHED_RR) {
		int e = tt_sched_setscheduler(0, SCHED_OTHER, 0);

		if (e != 0)
			snprintf(sp->err, sizeof(sp->err), "cannot leave SCHED_%s: %s",
				 pol == SCHED_FIFO ? "FIFO" : "RR", strerror(-e));
	}
	/* the calling thread's nice (Linux: per thread, inherited by those it
	 * creates); lowering it needs CAP_SYS_NICE or RLIMIT_NICE, so the
	 * default never lowers it: a nicer start is kept */
	if (!sp->explicit_nice) {
		int cur;

		errno = 0;
		cur = getpriority(PRIO_PROCESS, 0);
		if (errno == 0 && cur > sp->nice)
			sp->nice = cur;
	}
	if (setpriority(PRIO_PROCESS, 0, sp->nice) != 0 && !sp->err[0])
		snprintf(sp->err, sizeof(sp->err), "nice %d: %s", sp->nice, strerror(errno));
	return 0;
}

void self_cost_update(struct self_cost *c, uint64_t now_ns)
{
	struct rusage ru;
	FILE *f;

	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		uint64_t n = (uint64_t)ru.ru_nvcsw, m = (uint64_t)ru.ru_nivcsw;

		if (c->at_ns && now_ns > c->at_ns && n >= c->nvcsw && m >= c->nivcsw) {
			double dt = (double)(now_ns - c->at_ns) / 1e9;

			c->wakeups_per_s = (double)(n - c->nvcsw) / dt;
			c->preempt_per_s = (double)(m - c->nivcsw) / dt;
		} else {
			c->wakeups_per_s = c->preempt_per_s = NAN;
		}
		c->nvcsw = n;
		c->nivcsw = m;
		c->at_ns = now_ns;
	}
	c->rss_kib = -1;
	f = fopen("/proc/self/statm", "re");
	if (f) {
		long size, res;

		if (fscanf(f, "%ld %ld", &size, &res) == 2)
			c->rss_kib = res * (sysconf(_SC_PAGESIZE) / 1024);
		fclose(f);
	}
}
