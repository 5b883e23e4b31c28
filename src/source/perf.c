/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf_event_open counters per CPU and per thread (see perf.h for the model).
 *
 * Owns: the generic event table and its labels, event-string resolution
 * (generic names, raw codes, libpfm4 through pfm.c), core-PMU discovery in
 * sys/bus/event_source/devices (big.LITTLE and Intel hybrid), opening with
 * groups per row and PMU, the fd budget (RLIMIT_NOFILE), the one-line
 * reasons for counters that cannot be opened, group reads with
 * enabled/running scaling, and the derived IPC / miss rate / misses per
 * second. Everything else (layout, JSON) is in src/out/perf_out.c. */
#include "source/perf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/err.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "source/pfm.h"

#define PMU_DIR "sys/bus/event_source/devices"

/* ---- generic events ---------------------------------------------------- */

struct generic_ev {
	const char *name;
	uint32_t type;
	uint64_t config;
};

static const struct generic_ev generic[PERF_EV__GENERIC_COUNT] = {
	[PERF_EV_CYCLES] = {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
	[PERF_EV_INSTRUCTIONS] = {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
	[PERF_EV_CACHE_MISSES] = {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
	[PERF_EV_CACHE_REFS] = {"cache-references", PERF_TYPE_HARDWARE,
				PERF_COUNT_HW_CACHE_REFERENCES},
	[PERF_EV_BRANCH_MISSES] = {"branch-misses", PERF_TYPE_HARDWARE,
				   PERF_COUNT_HW_BRANCH_MISSES},
	[PERF_EV_CTX_SWITCHES] = {"context-switches", PERF_TYPE_SOFTWARE,
				  PERF_COUNT_SW_CONTEXT_SWITCHES},
	[PERF_EV_MIGRATIONS] = {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
	[PERF_EV_PAGE_FAULTS] = {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
};

/* perf(1)'s names and aliases, resolved without libpfm4. */
static const struct generic_ev aliases[] = {
	{"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
	{"cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
	{"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
	{"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
	{"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
	{"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
	{"branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
	{"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
	{"bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES},
	{"stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
	{"stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
	{"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
	{"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
	{"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
	{"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
	{"faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
	{"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
	{"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
	{"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
	{"cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
	{"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
	{"migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
	{"alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS},
	{"emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS},
	{"cgroup-switches", PERF_TYPE_SOFTWARE, 11 /* PERF_COUNT_SW_CGROUP_SWITCHES, 5.13+ */},
};

const char *perf_ev_name(enum perf_ev ev)
{
	return (unsigned)ev < PERF_EV__GENERIC_COUNT ? generic[ev].name : "?";
}

const char *perf_ev_label(enum perf_ev ev, enum perf_arch arch)
{
	switch (ev) {
	case PERF_EV_CYCLES: return "cycles";
	case PERF_EV_INSTRUCTIONS: return "instructions";
	/* The kernel maps the generic cache events to L1D on ARMv8/v7 and
	 * to the last level cache on x86. */
	case PERF_EV_CACHE_MISSES:
		return arch == PERF_ARCH_ARM   ? "L1D refills"
		       : arch == PERF_ARCH_X86 ? "LLC misses"
					       : "cache misses";
	case PERF_EV_CACHE_REFS:
		return arch == PERF_ARCH_ARM   ? "L1D accesses"
		       : arch == PERF_ARCH_X86 ? "LLC references"
					       : "cache references";
	case PERF_EV_BRANCH_MISSES: return "branch misses";
	case PERF_EV_CTX_SWITCHES: return "context switches";
	case PERF_EV_MIGRATIONS: return "CPU migrations";
	case PERF_EV_PAGE_FAULTS: return "page faults";
	default: return "?";
	}
}

void perf_ev_attr(enum perf_ev ev, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	if ((unsigned)ev < PERF_EV__GENERIC_COUNT) {
		attr->type = generic[ev].type;
		attr->config = generic[ev].config;
	}
}

/* Which generic event an attr is (for labels), or -1. */
static int generic_of(const struct perf_event_attr *a)
{
	for (int i = 0; i < PERF_EV__GENERIC_COUNT; i++)
		if (a->type == generic[i].type && (a->config & 0xffffffffu) == generic[i].config)
			return i;
	return -1;
}

/* Events the kernel only ever records from kernel context: with
 * exclude_kernel=1 they would count 0, which is a guess shown as a fact. */
static bool kernel_only(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
		a->config == PERF_COUNT_SW_CPU_MIGRATIONS || a->config == 11);
}

int perf_event_resolve(const char *str, struct perf_event_attr *attr, char *pmu, size_t pmu_cap,
		       char **cause)
{
	uint64_t raw;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	if (pmu && pmu_cap)
		pmu[0] = '\0';
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (strcasecmp(str, aliases[i].name) == 0) {
			attr->type = aliases[i].type;
			attr->config = aliases[i].config;
			return 0;
		}
	}
	if ((str[0] == 'r' || str[0] == 'R') && str[1] &&
	    strspn(str + 1, "0123456789abcdefABCDEF") == strlen(str + 1)) {
		if (str_to_hex_u64(str + 1, &raw) == 0) {
			attr->type = PERF_TYPE_RAW;
			attr->config = raw;
			return 0;
		}
	}
	return pfm_encode_pmu(str, attr, pmu, pmu_cap, cause);
}

/* Two resolved events count the same thing. */
static bool same_event(const struct perf_event_attr *a, const struct perf_event_attr *b)
{
	return a->type == b->type && a->config == b->config && a->config1 == b->config1 &&
	       a->config2 == b->config2 && a->exclude_user == b->exclude_user &&
	       a->exclude_kernel == b->exclude_kernel;
}

void perf_events_free(char **vec)
{
	if (!vec)
		return;
	for (char **p = vec; *p; p++)
		free(*p);
	free(vec);
}

/* The resolver's message without the event name it repeats:
 * "libpfm4 cannot encode 'x': event not found" -> "libpfm4: event not found". */
static const char *short_cause(const char *cause, const char *name)
{
	static char buf[200];
	char quoted[PERF_NAME_LEN + 8];
	const char *p;

	if (!cause)
		return "not a perf or libpfm4 event";
	if (strstr(cause, "built without libpfm4"))
		return "not a generic perf name; tunetop was built without libpfm4";
	snprintf(quoted, sizeof(quoted), "'%s': ", name);
	p = strstr(cause, quoted);
	if (!p)
		return cause;
	snprintf(buf, sizeof(buf), "%s%s", str_starts(cause, "libpfm4") ? "libpfm4: " : "",
		 p + strlen(quoted));
	return buf;
}

int perf_events_parse(const char *list, char ***vec, char *why, size_t cap)
{
	char **v = NULL;
	size_t n = 0, vcap = 0;
	const char *p = list ? list : "";

	if (vec)
		*vec = NULL;
	if (why && cap)
		why[0] = '\0';
	/* The shape first: "a,,b" is an empty item whatever a and b are. */
	if (strchr(p, ',')) {
		for (const char *q = p;; q++) {
			if (*q == ',' || !*q) {
				bool blank = true;

				for (const char *k = p; k < q; k++)
					blank &= *k == ' ' || *k == '\t';
				if (blank) {
					if (why)
						snprintf(why, cap, "empty event name in '%s'",
							 list);
					return -EINVAL;
				}
				if (!*q)
					break;
				p = q + 1;
			}
		}
		p = list;
	}
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char *item = xstrndup(p, len), *name = str_trim(item);

		if (!*name) {
			bool last = !comma;

			free(item);
			/* "a,,b" or a trailing comma: say so rather than guess */
			if (last && n == 0 && !strchr(list ? list : "", ','))
				break; /* empty list: the default set */
			if (why)
				snprintf(why, cap, "empty event name in '%s'", list);
			goto bad;
		}
		if (strpbrk(name, " \t")) {
			if (why)
				snprintf(why, cap,
					 "'%s' is not one event name (commas separate events)",
					 name);
			free(item);
			goto bad;
		}
		{
			struct perf_event_attr attr;
			char *cause = NULL;

			if (perf_event_resolve(name, &attr, NULL, 0, &cause) != 0) {
				if (why)
					snprintf(why, cap, "unknown event '%s' (%s)", name,
						 short_cause(cause, name));
				free(cause);
				free(item);
				goto bad;
			}
			free(cause);
			for (size_t k = 0; k < n; k++) {
				struct perf_event_attr prev;

				if (strcasecmp(v[k], name) != 0 &&
				    (perf_event_resolve(v[k], &prev, NULL, 0, NULL) != 0 ||
				     !same_event(&prev, &attr)))
					continue;
				if (why) {
					if (strcasecmp(v[k], name) == 0)
						snprintf(why, cap, "duplicate event '%s'", name);
					else
						snprintf(why, cap,
							 "duplicate event '%s' (the same as '%s')",
							 name, v[k]);
				}
				free(item);
				goto bad;
			}
		}
		v = xgrow(v, &vcap, n + 2, sizeof(char *));
		v[n++] = xstrdup(name);
		v[n] = NULL;
		free(item);
		if (!comma)
			break;
		p = comma + 1;
	}
	if (vec)
		*vec = v;
	else
		perf_events_free(v);
	return 0;
bad:
	perf_events_free(v);
	return -EINVAL;
}

/* ---- PMU discovery ----------------------------------------------------- */

static bool is_arm_pmu(const char *name)
{
	return str_starts(name, "armv") || str_starts(name, "arm_cortex") ||
	       str_starts(name, "arm_neoverse");
}

int perf_pmus_read(const struct sysroot *r, struct perf_pmus *out)
{
	struct sysfs_list l;
	int ret;

	memset(out, 0, sizeof(*out));
#if defined(__x86_64__) || defined(__i386__)
	out->arch = PERF_ARCH_X86;
#elif defined(__aarch64__) || defined(__arm__)
	out->arch = PERF_ARCH_ARM;
#else
	out->arch = PERF_ARCH_UNKNOWN;
#endif
	ret = sysfs_list_opt(r, PMU_DIR, &l);
	if (ret < 0)
		return ret;
	out->p = xcalloc(l.n ? l.n : 1, sizeof(*out->p));
	for (size_t i = 0; i < l.n; i++) {
		struct perf_pmu *p = &out->p[out->n];
		char buf[4096];
		uint64_t type;

		if (sysfs_read_u64f(r, &type, PMU_DIR "/%s/type", l.names[i]) < 0)
			continue;
		str_copy(p->name, sizeof(p->name), l.names[i]);
		p->type = (uint32_t)type;
		if (sysfs_read_strf(r, buf, sizeof(buf), PMU_DIR "/%s/cpus", l.names[i]) == 0 &&
		    cpulist_parse(buf, &p->cpus) == 0 && !cpumask_empty(&p->cpus))
			p->has_cpus = true;
		p->core = p->has_cpus || str_eq(p->name, "cpu") || is_arm_pmu(p->name);
		/* Uncore-like PMUs with a `cpus` file would be rare; the
		 * known non-core ones never have one. */
		if (p->core) {
			out->ncore++;
			if (is_arm_pmu(p->name))
				out->arch = PERF_ARCH_ARM;
			else if (str_eq(p->name, "cpu") || str_starts(p->name, "cpu_"))
				out->arch = PERF_ARCH_X86;
		}
		out->n++;
	}
	sysfs_list_free(&l);
	return 0;
}

void perf_pmus_free(struct perf_pmus *p)
{
	free(p->p);
	memset(p, 0, sizeof(*p));
}

bool perf_pmus_heterogeneous(const struct perf_pmus *p)
{
	int n = 0;

	for (size_t i = 0; i < p->n; i++)
		if (p->p[i].core && p->p[i].has_cpus)
			n++;
	return n >= 2;
}

int perf_pmus_core_for_cpu(const struct perf_pmus *p, int cpu)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->p[i].core && p->p[i].has_cpus && cpumask_test(&p->p[i].cpus, cpu))
			return (int)i;
	return -1;
}

int perf_pmus_find(const struct perf_pmus *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (str_eq(p->p[i].name, name))
			return (int)i;
	return -1;
}

/* libpfm PMU name -> the kernel's core PMU name for the same core
 * ("arm_ac76" -> "armv8_cortex_a76", "arm_n1" -> "armv8_neoverse_n1"). */
static int pmu_of_pfm(const struct perf_pmus *p, const char *pfm)
{
	char name[PERF_NAME_LEN];
	int i;

	if (!pfm || !*pfm)
		return -1;
	if (str_starts(pfm, "arm_ac")) {
		snprintf(name, sizeof(name), "armv8_cortex_a%s", pfm + 6);
		if ((i = perf_pmus_find(p, name)) >= 0)
			return i;
		snprintf(name, sizeof(name), "armv7_cortex_a%s", pfm + 6);
		return perf_pmus_find(p, name);
	}
	if (str_starts(pfm, "arm_n") || str_starts(pfm, "arm_v")) {
		snprintf(name, sizeof(name), "armv8_neoverse_%s", pfm + 4);
		return perf_pmus_find(p, name);
	}
	return -1;
}

int perf_paranoid(const struct sysroot *r)
{
	int64_t v;

	if (sysfs_read_i64(r, "proc/sys/kernel/perf_event_paranoid", &v) < 0)
		return INT32_MIN;
	return (int)v;
}

/* ---- reasons ----------------------------------------------------------- */

const char *perf_err_why(int err, bool hw, bool have_core_pmu, bool per_cpu, int paranoid,
			 char *buf, size_t cap)
{
	char is[32] = "";

	if (err > 0)
		err = -err;
	if (paranoid != INT32_MIN)
		snprintf(is, sizeof(is), " (is %d)", paranoid);
	switch (err) {
	case -ENOENT:
		if (hw && !have_core_pmu)
			snprintf(buf, cap, "no hardware PMU");
		else if (hw)
			snprintf(buf, cap, "event not supported by the PMU");
		else
			snprintf(buf, cap, "event not supported by this kernel");
		break;
	case -EACCES:
	case -EPERM:
		if (per_cpu)
			snprintf(buf, cap,
				 "needs root or CAP_PERFMON, or perf_event_paranoid < 1%s", is);
		else
			snprintf(buf, cap,
				 "not permitted: needs ptrace access to the thread, CAP_PERFMON, "
				 "or perf_event_paranoid < 2%s",
				 is);
		break;
	case -ENODEV:
		snprintf(buf, cap, per_cpu ? "CPU offline" : "not supported on this CPU");
		break;
	case -EMFILE:
	case -ENFILE: snprintf(buf, cap, "out of file descriptors (raise ulimit -n)"); break;
	case -EOPNOTSUPP: snprintf(buf, cap, "not supported by the PMU or kernel"); break;
	case -EINVAL: snprintf(buf, cap, "invalid for this PMU or kernel"); break;
	case -ESRCH: snprintf(buf, cap, "thread exited"); break;
	case -ENOSYS: snprintf(buf, cap, "kernel without perf events (CONFIG_PERF_EVENTS)"); break;
	case -EBUSY: snprintf(buf, cap, "PMU busy (used exclusively by another program)"); break;
	case -E2BIG: snprintf(buf, cap, "perf_event_attr size rejected by the kernel"); break;
	default: snprintf(buf, cap, "%s", strerror(-err)); break;
	}
	return buf;
}

/* ---- the set ----------------------------------------------------------- */

enum role { ROLE_CYCLES, ROLE_INSTR, ROLE_MISSES, ROLE_REFS, ROLE__N };

struct evdesc {
	struct perf_event_attr attr;
	int err;      /* resolution error; the event is n/a everywhere */
	int only_pmu; /* the core PMU this event belongs to, -1 any */
	bool hw;      /* counts on a core PMU */
	bool kernel_only;
	int sticky_err; /* a systemic error seen on the first row: copied to the rest */
	bool foreign;	/* some rows skipped: CPU not served by only_pmu */
};

struct grp {
	int fd; /* leader */
	int key;
	size_t n, cap;
	size_t *cidx; /* counter index of each member, in attach order */
};

struct perf_priv {
	struct perf_pmus pmus;
	struct evdesc *ev;
	struct grp *g;
	size_t ng, gcap;
	int *fds;
	size_t nfds, fdcap;
	uint64_t *buf;
	size_t bufn;
	uint64_t *acc_v, *acc_e, *acc_r;
	bool *got;
	uint64_t last_ns;
	int paranoid;
	bool per_cpu;
	bool ext_broken; /* the kernel rejects PERF_PMU_TYPE_SHIFT extended types */
	bool out_of_fds;
	int role[ROLE__N];
};

static void set_alloc(struct perf_set *s, int nrows, size_t nev)
{
	size_t nc = (size_t)nrows * nev;

	memset(s, 0, sizeof(*s));
	s->ncpus = nrows;
	s->nev = nev;
	s->ev_name = xcalloc(nev ? nev : 1, sizeof(*s->ev_name));
	s->ev_label = xcalloc(nev ? nev : 1, sizeof(*s->ev_label));
	s->ev_err = xcalloc(nev ? nev : 1, sizeof(*s->ev_err));
	s->ev_user_only = xcalloc(nev ? nev : 1, sizeof(*s->ev_user_only));
	s->why = xcalloc(nev ? nev : 1, sizeof(*s->why));
	s->reason = xcalloc(nev ? nev : 1, sizeof(*s->reason));
	s->c = xcalloc(nc ? nc : 1, sizeof(*s->c));
	for (size_t i = 0; i < nc; i++) {
		s->c[i].fd = -1;
		s->c[i].scaled_value = NAN;
		s->c[i].rate_per_s = NAN;
	}
	s->ipc = xcalloc((size_t)nrows, sizeof(double));
	s->miss_rate_pct = xcalloc((size_t)nrows, sizeof(double));
	s->misses_per_s = xcalloc((size_t)nrows, sizeof(double));
	for (int i = 0; i < nrows; i++)
		s->ipc[i] = s->miss_rate_pct[i] = s->misses_per_s[i] = NAN;
	s->dt_s = NAN;
	s->priv = xcalloc(1, sizeof(*s->priv));
	s->priv->ev = xcalloc(nev ? nev : 1, sizeof(*s->priv->ev));
	s->priv->acc_v = xcalloc(nc ? nc : 1, sizeof(uint64_t));
	s->priv->acc_e = xcalloc(nc ? nc : 1, sizeof(uint64_t));
	s->priv->acc_r = xcalloc(nc ? nc : 1, sizeof(uint64_t));
	s->priv->got = xcalloc(nc ? nc : 1, sizeof(bool));
	for (int i = 0; i < ROLE__N; i++)
		s->priv->role[i] = -1;
}

static int role_of(const struct perf_event_attr *a, enum perf_arch arch, bool arm_core_type)
{
	uint64_t c = a->config & 0xffffffffu;

	if (a->type == PERF_TYPE_HARDWARE) {
		switch (c) {
		case PERF_COUNT_HW_CPU_CYCLES: return ROLE_CYCLES;
		case PERF_COUNT_HW_INSTRUCTIONS: return ROLE_INSTR;
		case PERF_COUNT_HW_CACHE_MISSES: return ROLE_MISSES;
		case PERF_COUNT_HW_CACHE_REFERENCES: return ROLE_REFS;
		default: return -1;
		}
	}
	/* ARMv8/v7 common event numbers, raw or on an ARM core PMU's type. */
	if (arch == PERF_ARCH_ARM && (a->type == PERF_TYPE_RAW || arm_core_type)) {
		switch (a->config) {
		case 0x11: return ROLE_CYCLES;
		case 0x08: return ROLE_INSTR;
		case 0x03: return ROLE_MISSES;
		case 0x04: return ROLE_REFS;
		default: return -1;
		}
	}
	return -1;
}

/* Fill names, labels and attrs; resolution errors become per-event reasons. */
static void set_events(struct perf_set *s, const char *const *events)
{
	struct perf_priv *p = s->priv;

	for (size_t e = 0; e < s->nev; e++) {
		struct evdesc *d = &p->ev[e];
		char pfmpmu[PERF_NAME_LEN] = "";
		bool arm_core_type = false;
		int g, r;

		d->only_pmu = -1;
		if (!events) {
			perf_ev_attr((enum perf_ev)e, &d->attr);
			str_copy(s->ev_name[e], PERF_NAME_LEN, generic[e].name);
		} else {
			char *cause = NULL;

			str_copy(s->ev_name[e], PERF_NAME_LEN, events[e]);
			r = perf_event_resolve(events[e], &d->attr, pfmpmu, sizeof(pfmpmu), &cause);
			if (r < 0) {
				d->err = r;
				snprintf(s->why[e], PERF_WHY_LEN, "%s",
					 cause ? cause : "unknown event");
				free(cause);
			}
		}
		g = d->err ? -1 : generic_of(&d->attr);
		str_copy(s->ev_label[e], PERF_NAME_LEN,
			 g >= 0 ? perf_ev_label((enum perf_ev)g, p->pmus.arch) : s->ev_name[e]);
		if (d->err)
			continue;
		d->kernel_only = kernel_only(&d->attr);
		switch (d->attr.type) {
		case PERF_TYPE_HARDWARE:
		case PERF_TYPE_HW_CACHE:
		case PERF_TYPE_RAW: d->hw = true; break;
		case PERF_TYPE_SOFTWARE:
		case PERF_TYPE_TRACEPOINT:
		case PERF_TYPE_BREAKPOINT: break;
		default:
			for (size_t i = 0; i < p->pmus.n; i++) {
				if (p->pmus.p[i].core && p->pmus.p[i].type == d->attr.type) {
					d->hw = true;
					arm_core_type = is_arm_pmu(p->pmus.p[i].name);
					if (p->pmus.p[i].has_cpus &&
					    perf_pmus_heterogeneous(&p->pmus))
						d->only_pmu = (int)i;
				}
			}
			break;
		}
		if (d->hw && d->only_pmu < 0 && perf_pmus_heterogeneous(&p->pmus))
			d->only_pmu = pmu_of_pfm(&p->pmus, pfmpmu);
		r = role_of(&d->attr, p->pmus.arch, arm_core_type);
		if (r >= 0 && p->role[r] < 0)
			p->role[r] = (int)e;
	}
}

static long sys_perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd)
{
#ifdef SYS_perf_event_open
	return syscall(SYS_perf_event_open, a, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
#else
	(void)a;
	(void)pid;
	(void)cpu;
	(void)group_fd;
	errno = ENOSYS;
	return -1;
#endif
}

/* One perf_event_open with the fallbacks: extended PMU type refused -> plain
 * generic event; EACCES for a thread -> user space only, unless the event
 * only counts in the kernel. Returns fd or -errno. */
static int open_one(struct perf_priv *p, const struct evdesc *d, struct perf_event_attr attr,
		    pid_t pid, int cpu, int group_fd, bool *user_only)
{
	long fd;
	int err;

	attr.size = sizeof(attr);
	attr.read_format =
		PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = group_fd < 0;
	attr.inherit = 0;
	fd = sys_perf_event_open(&attr, pid, cpu, group_fd);
	err = fd < 0 ? errno : 0;
	if (fd < 0 && (attr.config >> PERF_PMU_TYPE_SHIFT) &&
	    (attr.type == PERF_TYPE_HARDWARE || attr.type == PERF_TYPE_HW_CACHE) &&
	    (err == ENOENT || err == EINVAL || err == EOPNOTSUPP)) {
		attr.config &= 0xffffffffu;
		fd = sys_perf_event_open(&attr, pid, cpu, group_fd);
		if (fd >= 0)
			p->ext_broken = true;
		else
			err = errno;
	}
	if (fd < 0 && (err == EACCES || err == EPERM) && pid != -1 && !attr.exclude_kernel &&
	    !d->kernel_only) {
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		fd = sys_perf_event_open(&attr, pid, cpu, group_fd);
		if (fd >= 0)
			*user_only = true;
		else
			err = errno; /* the real obstacle once privilege is out of the way */
	}
	return fd >= 0 ? (int)fd : -err;
}

static void remember_fd(struct perf_set *s, int fd)
{
	struct perf_priv *p = s->priv;

	p->fds = xgrow(p->fds, &p->fdcap, p->nfds + 1, sizeof(int));
	p->fds[p->nfds++] = fd;
	s->nfds++;
}

static struct grp *grp_new(struct perf_priv *p, int fd, int key)
{
	struct grp *g;

	p->g = xgrow(p->g, &p->gcap, p->ng + 1, sizeof(*p->g));
	g = &p->g[p->ng++];
	memset(g, 0, sizeof(*g));
	g->fd = fd;
	g->key = key;
	return g;
}

static void grp_add(struct perf_priv *p, struct grp *g, size_t cidx)
{
	g->cidx = xgrow(g->cidx, &g->cap, g->n + 1, sizeof(size_t));
	g->cidx[g->n++] = cidx;
	if (3 + g->n > p->bufn)
		p->bufn = 3 + g->n;
}

/* One sub-event of counter cidx on (pid, cpu), joined to the row's group
 * for key when there is one. */
static int open_sub(struct perf_set *s, size_t first_grp, size_t cidx, const struct evdesc *d,
		    const struct perf_event_attr *attr, pid_t pid, int cpu, int key,
		    bool *user_only)
{
	struct perf_priv *p = s->priv;
	struct grp *g = NULL;
	int fd;

	/* The newest group of this row with the same key (a full one was
	 * replaced by a newer one). */
	for (size_t i = p->ng; i > first_grp; i--)
		if (p->g[i - 1].key == key && key != INT32_MIN) {
			g = &p->g[i - 1];
			break;
		}
	if (g) {
		fd = open_one(p, d, *attr, pid, cpu, g->fd, user_only);
		if (fd >= 0) {
			remember_fd(s, fd);
			grp_add(p, g, cidx);
			if (s->c[cidx].fd < 0)
				s->c[cidx].fd = fd;
			return fd;
		}
		/* EINVAL/ENOSPC: the group cannot take it (PMU counters
		 * exhausted); anything else: try alone too, it costs one
		 * syscall and gives the event's own error. */
		if (fd == -EMFILE || fd == -ENFILE)
			return fd;
	}
	fd = open_one(p, d, *attr, pid, cpu, -1, user_only);
	if (fd >= 0) {
		remember_fd(s, fd);
		grp_add(p, grp_new(p, fd, key), cidx);
		if (s->c[cidx].fd < 0)
			s->c[cidx].fd = fd;
	}
	return fd;
}

/* Open every event of one row (a CPU: pid=-1/cpu; a thread: pid/-1). */
static void open_row(struct perf_set *s, int row, pid_t pid, int cpu, size_t max_events)
{
	struct perf_priv *p = s->priv;
	size_t first_grp = p->ng;
	bool hetero = perf_pmus_heterogeneous(&p->pmus);

	for (size_t e = 0; e < s->nev; e++) {
		struct evdesc *d = &p->ev[e];
		struct perf_counter *c = perf_at(s, row, e);
		size_t cidx = (size_t)row * s->nev + e;
		struct perf_event_attr a;
		int first_err = 0, nok = 0;
		bool user_only = false;

		c->task = cpu < 0;
		c->hw = d->hw;

		if (d->err) {
			c->err = d->err;
			continue;
		}
		if (d->sticky_err) {
			c->err = d->sticky_err;
			continue;
		}
		if (e >= max_events || p->out_of_fds) {
			c->err = -EMFILE;
			continue;
		}
		if (!d->hw) {
			/* Software events share one group per row; others
			 * (tracepoints, other PMUs) stand alone. */
			int key = d->attr.type == PERF_TYPE_SOFTWARE ? -2 : INT32_MIN;
			int fd = open_sub(s, first_grp, cidx, d, &d->attr, pid, cpu, key,
					  &user_only);

			if (fd >= 0)
				nok++;
			else
				first_err = fd;
		} else if (pid == -1) {
			/* Per CPU: the CPU's own PMU. */
			int pi = hetero ? perf_pmus_core_for_cpu(&p->pmus, cpu) : -1;
			int fd;

			if (d->only_pmu >= 0 && pi != d->only_pmu) {
				c->err = -ENOENT;
				d->foreign = true;
				continue;
			}
			a = d->attr;
			if (pi >= 0 &&
			    (a.type == PERF_TYPE_HARDWARE || a.type == PERF_TYPE_HW_CACHE) &&
			    !p->ext_broken)
				a.config |= (uint64_t)p->pmus.p[pi].type << PERF_PMU_TYPE_SHIFT;
			else if (pi >= 0 && a.type == PERF_TYPE_RAW &&
				 is_arm_pmu(p->pmus.p[pi].name))
				a.type = p->pmus.p[pi].type;
			fd = open_sub(s, first_grp, cidx, d, &a, pid, cpu, pi >= 0 ? pi : -1,
				      &user_only);
			if (fd >= 0)
				nok++;
			else
				first_err = fd;
		} else {
			/* Per thread: once per core PMU, summed, so the
			 * thread is counted on whichever cluster it runs. */
			bool any = false;

			for (size_t pi = 0; hetero && pi < p->pmus.n; pi++) {
				const struct perf_pmu *pm = &p->pmus.p[pi];
				int fd;

				if (!pm->core || !pm->has_cpus)
					continue;
				if (d->only_pmu >= 0 && (int)pi != d->only_pmu)
					continue;
				if (p->ext_broken && any)
					break;
				a = d->attr;
				if (a.type == PERF_TYPE_HARDWARE || a.type == PERF_TYPE_HW_CACHE) {
					if (!p->ext_broken)
						a.config |= (uint64_t)pm->type
							    << PERF_PMU_TYPE_SHIFT;
				} else if (a.type == PERF_TYPE_RAW && is_arm_pmu(pm->name)) {
					a.type = pm->type;
				}
				any = true;
				fd = open_sub(s, first_grp, cidx, d, &a, pid, cpu, (int)pi,
					      &user_only);
				if (fd >= 0)
					nok++;
				else if (!first_err)
					first_err = fd;
			}
			if (!any) {
				int fd = open_sub(s, first_grp, cidx, d, &d->attr, pid, cpu, -1,
						  &user_only);

				if (fd >= 0)
					nok++;
				else
					first_err = fd;
			}
		}
		if (user_only)
			s->ev_user_only[e] = true;
		if (nok) {
			c->err = 0;
			continue;
		}
		c->err = first_err ? first_err : -ENOENT;
		if (c->err == -EMFILE || c->err == -ENFILE)
			p->out_of_fds = true;
		/* Systemic errors: no need to try every CPU. */
		if (c->err == -EACCES || c->err == -EPERM || c->err == -ENOSYS ||
		    (c->err == -ENOENT && d->hw && p->pmus.ncore == 0) ||
		    (c->err == -ENOENT && !d->hw))
			d->sticky_err = c->err;
	}
}

/* Precise fd accounting is not possible; count what is open now. */
static int fds_in_use(void)
{
	struct sysfs_list l;
	int n;

	if (sysfs_list(sysroot_live(), "proc/self/fd", &l) < 0)
		return 16;
	n = (int)l.n;
	sysfs_list_free(&l);
	return n;
}

/* Make room for need fds: raise RLIMIT_NOFILE, else return how many events
 * (of those that still need fds) fit; note what happened. */
static size_t fd_budget(struct perf_set *s, size_t rows, size_t per_row_events, size_t subs)
{
	struct rlimit rl;
	const size_t reserve = 64;
	size_t need = rows * per_row_events * subs, used = (size_t)fds_in_use(), avail;

	if (need == 0 || getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return s->nev;
	avail = rl.rlim_cur > used + reserve ? rl.rlim_cur - used - reserve : 0;
	if (need <= avail)
		return s->nev;
	{
		struct rlimit want = rl;
		rlim_t old = rl.rlim_cur;

		want.rlim_cur = used + reserve + need;
		if (rl.rlim_max != RLIM_INFINITY && want.rlim_cur > rl.rlim_max) {
			want.rlim_max = want.rlim_cur; /* needs CAP_SYS_RESOURCE */
			if (setrlimit(RLIMIT_NOFILE, &want) < 0) {
				want.rlim_max = rl.rlim_max;
				want.rlim_cur = rl.rlim_max;
			}
		}
		if (want.rlim_cur != rl.rlim_cur && setrlimit(RLIMIT_NOFILE, &want) == 0)
			rl = want;
		avail = rl.rlim_cur > used + reserve ? rl.rlim_cur - used - reserve : 0;
		if (need <= avail) {
			snprintf(s->note, sizeof(s->note),
				 "raised RLIMIT_NOFILE from %llu to %llu for %zu counters",
				 (unsigned long long)old, (unsigned long long)rl.rlim_cur, need);
			return s->nev;
		}
	}
	{
		size_t per_event = rows * subs, fit = per_event ? avail / per_event : 0;

		snprintf(s->note, sizeof(s->note),
			 "file descriptor limit %llu (hard %llu) fits %zu of %zu events on %zu "
			 "CPUs: the rest are n/a (EMFILE); raise ulimit -n",
			 (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max, fit,
			 per_row_events, rows);
		/* fit counts events that need fds; translate to an index. */
		for (size_t e = 0, k = 0; e < s->nev; e++) {
			if (s->priv->ev[e].err)
				continue;
			if (k++ == fit)
				return e;
		}
		return s->nev;
	}
}

/* Build the once-per-event reasons from the per-row errors. */
static void set_reasons(struct perf_set *s, const struct cpumask *rows_tried)
{
	struct perf_priv *p = s->priv;

	for (size_t e = 0; e < s->nev; e++) {
		struct evdesc *d = &p->ev[e];
		struct cpumask failed;
		int first = 0, ntried = 0, nfailed = 0;
		char why[PERF_WHY_LEN], list[96];

		cpumask_zero(&failed);
		for (int row = 0; row < s->ncpus; row++) {
			int err;

			if (rows_tried && !cpumask_test(rows_tried, row))
				continue;
			ntried++;
			err = perf_at(s, row, e)->err;
			if (!err)
				continue;
			nfailed++;
			cpumask_set(&failed, row);
			if (!first || (first == -ENOENT && d->foreign && err != -ENOENT))
				first = err;
		}
		s->ev_err[e] = first;
		if (!nfailed) {
			s->why[e][0] = '\0';
			if (s->ev_user_only[e])
				snprintf(s->reason[e], PERF_REASON_LEN,
					 "%s: user space only - kernel counting needs CAP_PERFMON "
					 "or perf_event_paranoid < 2",
					 s->ev_name[e]);
			else
				s->reason[e][0] = '\0';
			continue;
		}
		if (d->err) {
			/* why[] already holds the resolution message. */
		} else if (first == -ENOENT && d->foreign && d->only_pmu >= 0) {
			char cpus[64];

			cpulist_format(&p->pmus.p[d->only_pmu].cpus, cpus, sizeof(cpus));
			cpulist_format(&failed, list, sizeof(list));
			snprintf(s->why[e], PERF_WHY_LEN,
				 "not counted on CPUs %s: a %s event (CPUs %s)", list,
				 p->pmus.p[d->only_pmu].name, cpus);
			snprintf(s->reason[e], PERF_REASON_LEN, "%s: n/a - %s (%s)", s->ev_name[e],
				 s->why[e], err_name(first));
			continue;
		} else if ((first == -EACCES || first == -EPERM) && d->kernel_only && !p->per_cpu) {
			char is[32] = "";

			if (p->paranoid != INT32_MIN)
				snprintf(is, sizeof(is), " (is %d)", p->paranoid);
			snprintf(s->why[e], PERF_WHY_LEN,
				 "counted in the kernel only: needs CAP_PERFMON or "
				 "perf_event_paranoid < 2%s",
				 is);
		} else {
			perf_err_why(first, d->hw, p->pmus.ncore > 0, p->per_cpu, p->paranoid, why,
				     sizeof(why));
			snprintf(s->why[e], PERF_WHY_LEN, "%s", why);
		}
		if (p->per_cpu && nfailed < ntried) {
			size_t n = strlen(s->why[e]);

			cpulist_format(&failed, list, sizeof(list));
			snprintf(s->why[e] + n, PERF_WHY_LEN - n, " on CPUs %s", list);
		}
		snprintf(s->reason[e], PERF_REASON_LEN, "%s: n/a - %s (%s)", s->ev_name[e],
			 s->why[e], err_name(first));
	}
}

static void enable_all(struct perf_set *s)
{
	struct perf_priv *p = s->priv;

	for (size_t i = 0; i < p->ng; i++) {
		ioctl(p->g[i].fd, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
		ioctl(p->g[i].fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	}
	p->last_ns = time_mono_ns();
	for (size_t i = 0; i < (size_t)s->ncpus * s->nev; i++)
		if (s->c[i].fd >= 0)
			s->c[i].have_prev = true; /* counting starts from zero now */
	if (p->bufn)
		p->buf = xcalloc(p->bufn, sizeof(uint64_t));
}

static int finish_open(struct perf_set *s, char **cause)
{
	int first = 0;

	for (size_t e = 0; e < s->nev; e++)
		if (s->ev_err[e] && !first)
			first = (int)e + 1;
	if (s->nfds > 0)
		return 0;
	if (cause) {
		if (first)
			*cause = xasprintf("no counter could be opened: %s", s->reason[first - 1]);
		else
			*cause = xasprintf("no counter could be opened%s%s", s->note[0] ? ": " : "",
					   s->note);
	}
	return first ? s->ev_err[first - 1] : -ENOENT;
}

static size_t count_events(const char *const *events)
{
	size_t n = 0;

	if (!events)
		return PERF_EV__GENERIC_COUNT;
	while (events[n])
		n++;
	return n;
}

static size_t live_events(const struct perf_set *s)
{
	size_t n = 0;

	for (size_t e = 0; e < s->nev; e++)
		if (!s->priv->ev[e].err)
			n++;
	return n;
}

int perf_open_cpus(struct perf_set *s, const struct sysroot *r, const struct topology *t,
		   const char *const *events, char **cause)
{
	return perf_open_cpus_on(s, r, t, NULL, events, cause);
}

static void note_add(struct perf_set *s, const char *fmt, const char *arg)
{
	size_t n = strlen(s->note);

	if (n && n + 2 < sizeof(s->note)) {
		memcpy(s->note + n, "; ", 3);
		n += 2;
	}
	snprintf(s->note + n, sizeof(s->note) - n, fmt, arg);
}

/* The end of an open: on a heterogeneous machine whose kernel lacks extended
 * PMU types, a note of what that means for this set (ext_note); then the
 * counters start. */
static int open_end(struct perf_set *s, const char *ext_note, char **cause)
{
	struct perf_priv *p = s->priv;

	if (p->ext_broken && perf_pmus_heterogeneous(&p->pmus))
		note_add(s, "kernel without extended PMU types (< 6.6): %s", ext_note);
	enable_all(s);
	return finish_open(s, cause);
}

int perf_open_cpus_on(struct perf_set *s, const struct sysroot *r, const struct topology *t,
		      const struct cpumask *cpus, const char *const *events, char **cause)
{
	struct perf_priv *p;
	struct cpumask tried, offline, excluded;
	size_t max_ev;
	int nrows = t->ncpus > 0 ? t->ncpus : 0;

	if (cause)
		*cause = NULL;
	set_alloc(s, nrows, count_events(events));
	p = s->priv;
	p->per_cpu = true;
	perf_pmus_read(r, &p->pmus);
	p->paranoid = perf_paranoid(r);
	set_events(s, events);

	if (!r->live) {
		for (size_t i = 0; i < (size_t)nrows * s->nev; i++)
			s->c[i].err = -EOPNOTSUPP;
		for (size_t e = 0; e < s->nev; e++) {
			s->ev_err[e] = -EOPNOTSUPP;
			snprintf(s->why[e], PERF_WHY_LEN,
				 "counters need the live system (--root %s)", r->path);
			snprintf(s->reason[e], PERF_REASON_LEN, "%s: n/a - %s (EOPNOTSUPP)",
				 s->ev_name[e], s->why[e]);
		}
		snprintf(s->note, sizeof(s->note),
			 "counters act on the live kernel; %s is not the live root", r->path);
		if (cause)
			*cause = xasprintf("%s", s->note);
		return -EOPNOTSUPP;
	}

	cpumask_zero(&tried);
	cpumask_zero(&offline);
	cpumask_zero(&excluded);
	for (int cpu = 0; cpu < nrows; cpu++) {
		if (cpumask_test(&t->online, cpu) && cpus && !cpumask_test(cpus, cpu))
			cpumask_set(&excluded, cpu);
		else if (cpumask_test(&t->online, cpu))
			cpumask_set(&tried, cpu);
		else if (cpumask_test(&t->present, cpu))
			cpumask_set(&offline, cpu);
	}
	max_ev = fd_budget(s, (size_t)cpumask_count(&tried), live_events(s), 1);
	for (int cpu = 0; cpu < nrows; cpu++) {
		if (!cpumask_test(&tried, cpu)) {
			for (size_t e = 0; e < s->nev; e++)
				perf_at(s, cpu, e)->err =
					cpumask_test(&excluded, cpu) ? -ECANCELED : -ENODEV;
			continue;
		}
		open_row(s, cpu, -1, cpu, max_ev);
	}
	set_reasons(s, &tried);
	if (!cpumask_empty(&offline)) {
		char list[96];

		cpulist_format(&offline, list, sizeof(list));
		note_add(s, "CPUs %s offline: no counters (ENODEV)", list);
	}
	if (!cpumask_empty(&excluded)) {
		char list[96];

		cpulist_format(&excluded, list, sizeof(list));
		note_add(s, "CPUs %s not counted (excluded: reading them would interrupt them)",
			 list);
	}
	return open_end(s, "generic events placed by the kernel", cause);
}

int perf_open_thread(struct perf_set *s, pid_t tid, const char *const *events, char **cause)
{
	const struct sysroot *live = sysroot_live();
	struct perf_priv *p;
	size_t max_ev, subs = 1;

	if (cause)
		*cause = NULL;
	if (tid <= 0)
		tid = (pid_t)syscall(SYS_gettid);
	set_alloc(s, 1, count_events(events));
	p = s->priv;
	s->tid = tid;
	if (live)
		perf_pmus_read(live, &p->pmus);
	p->paranoid = live ? perf_paranoid(live) : INT32_MIN;
	set_events(s, events);
	if (perf_pmus_heterogeneous(&p->pmus))
		subs = (size_t)p->pmus.ncore;
	max_ev = fd_budget(s, 1, live_events(s), subs);
	open_row(s, 0, tid, -1, max_ev);
	set_reasons(s, NULL);
	return open_end(s, "hardware events count on one cluster only", cause);
}

void perf_counter_update(struct perf_counter *c, uint64_t value, uint64_t enabled, uint64_t running,
			 double dt_s)
{
	if (c->have_prev && value >= c->prev_value && enabled >= c->prev_enabled &&
	    running >= c->prev_running) {
		uint64_t dv = value - c->prev_value, de = enabled - c->prev_enabled,
			 dr = running - c->prev_running;

		c->unscheduled = false;
		if (dr == 0 && de == 0 && c->task && dv == 0) {
			/* A task's times stop while it is off the CPU: it did not
			 * run, so nothing happened. 0 is a fact here, over an
			 * interval long enough to say so (a resample a few ms
			 * after the last one says nothing about a thread that
			 * wakes every 10 ms). */
			c->rate_per_s = dt_s >= PERF_ZERO_MIN_S && isfinite(dt_s) ? 0.0 : NAN;
			c->scaled = false;
		} else if (dr == 0) {
			/* enabled but never on the PMU (multiplexed out): unknown */
			c->rate_per_s = NAN;
			c->scaled = false;
			c->unscheduled = de > 0;
		} else {
			double est = (double)dv;

			c->scaled = dr < de;
			if (c->scaled)
				est = (double)dv * (double)de / (double)dr;
			if (!c->task && de > 0)
				c->rate_per_s = est / ((double)de / 1e9);
			else
				c->rate_per_s = dt_s > 0 && isfinite(dt_s) ? est / dt_s : NAN;
		}
	} else {
		c->rate_per_s = NAN;
		c->scaled = running > 0 && running < enabled;
		c->unscheduled = false;
	}
	c->never_counted = c->hw && value == 0 && running > 0;
	if (c->never_counted) {
		c->rate_per_s = NAN;
		c->scaled = false;
	}
	c->value = value;
	c->enabled = enabled;
	c->running = running;
	c->scaled_value =
		running ? (running < enabled ? (double)value * (double)enabled / (double)running
					     : (double)value)
			: NAN;
	c->prev_value = value;
	c->prev_enabled = enabled;
	c->prev_running = running;
	c->have_prev = true;
}

static double role_rate(const struct perf_set *s, int row, int ev)
{
	return ev < 0 ? NAN : perf_at(s, row, (size_t)ev)->rate_per_s;
}

int perf_sample(struct perf_set *s)
{
	struct perf_priv *p = s->priv;
	uint64_t now;
	double dt;
	int ret = 0;
	size_t nc;

	if (!p)
		return -EINVAL;
	nc = (size_t)s->ncpus * s->nev;
	now = time_mono_ns();
	dt = (double)(now - p->last_ns) / 1e9;
	memset(p->acc_v, 0, nc * sizeof(uint64_t));
	memset(p->acc_e, 0, nc * sizeof(uint64_t));
	memset(p->acc_r, 0, nc * sizeof(uint64_t));
	memset(p->got, 0, nc * sizeof(bool));
	for (size_t gi = 0; gi < p->ng; gi++) {
		const struct grp *g = &p->g[gi];
		size_t want = (3 + g->n) * sizeof(uint64_t);
		ssize_t n = read(g->fd, p->buf, want);

		if (n < (ssize_t)(3 * sizeof(uint64_t))) {
			if (!ret)
				ret = n < 0 ? -errno : -EIO;
			continue;
		}
		for (size_t m = 0; m < g->n && m < p->buf[0] && (3 + m + 1) * 8 <= (size_t)n; m++) {
			size_t k = g->cidx[m];

			p->acc_v[k] += p->buf[3 + m];
			if (p->buf[1] > p->acc_e[k])
				p->acc_e[k] = p->buf[1];
			p->acc_r[k] += p->buf[2];
			p->got[k] = true;
		}
	}
	for (size_t k = 0; k < nc; k++) {
		struct perf_counter *c = &s->c[k];

		if (c->fd < 0)
			continue;
		if (p->got[k]) {
			perf_counter_update(c, p->acc_v[k], p->acc_e[k], p->acc_r[k], dt);
		} else {
			/* Missed read: restart the interval at the next one. */
			c->rate_per_s = NAN;
			c->scaled = false;
			c->unscheduled = false;
			c->have_prev = false;
		}
	}
	for (int row = 0; row < s->ncpus; row++) {
		double cyc = role_rate(s, row, p->role[ROLE_CYCLES]);
		double ins = role_rate(s, row, p->role[ROLE_INSTR]);
		double mis = role_rate(s, row, p->role[ROLE_MISSES]);
		double ref = role_rate(s, row, p->role[ROLE_REFS]);

		s->ipc[row] = isfinite(cyc) && isfinite(ins) && cyc > 0 ? ins / cyc : NAN;
		s->misses_per_s[row] = mis;
		s->miss_rate_pct[row] =
			isfinite(mis) && isfinite(ref) && ref > 0 ? 100.0 * mis / ref : NAN;
	}
	p->last_ns = now;
	s->dt_s = dt;
	return ret;
}

void perf_close(struct perf_set *s)
{
	struct perf_priv *p = s->priv;

	if (p) {
		for (size_t i = 0; i < p->nfds; i++)
			close(p->fds[i]);
		for (size_t i = 0; i < p->ng; i++)
			free(p->g[i].cidx);
		xfree_all(p->g, p->fds, p->buf, p->ev, p->acc_v, p->acc_e, p->acc_r, p->got);
		perf_pmus_free(&p->pmus);
		free(p);
	}
	xfree_all(s->ev_name, s->ev_label, s->ev_err, s->ev_user_only, s->why, s->reason, s->c,
		  s->ipc, s->miss_rate_pct, s->misses_per_s);
	memset(s, 0, sizeof(*s));
}

bool perf_ev_unscheduled(const struct perf_set *s, size_t ev)
{
	if (!s || ev >= s->nev)
		return false;
	for (int row = 0; row < s->ncpus; row++) {
		const struct perf_counter *c = perf_at(s, row, ev);

		if (c->fd >= 0 && !c->err && c->unscheduled)
			return true;
	}
	return false;
}

bool perf_ev_never_counted(const struct perf_set *s, size_t ev)
{
	bool any = false;

	if (!s || ev >= s->nev)
		return false;
	for (int row = 0; row < s->ncpus; row++) {
		const struct perf_counter *c = perf_at(s, row, ev);

		if (c->fd < 0 || c->err || !c->running)
			continue;
		if (!c->never_counted)
			return false;
		any = true;
	}
	return any;
}

int perf_set_find(const struct perf_set *s, const char *name)
{
	for (size_t e = 0; e < s->nev; e++)
		if (str_eq(s->ev_name[e], name))
			return (int)e;
	return -1;
}

int perf_set_generic(const struct perf_set *s, enum perf_ev ev)
{
	const struct perf_priv *p = s->priv;

	if (!p)
		return -1;
	switch (ev) {
	case PERF_EV_CYCLES: return p->role[ROLE_CYCLES];
	case PERF_EV_INSTRUCTIONS: return p->role[ROLE_INSTR];
	case PERF_EV_CACHE_MISSES: return p->role[ROLE_MISSES];
	case PERF_EV_CACHE_REFS: return p->role[ROLE_REFS];
	default: break;
	}
	for (size_t e = 0; e < s->nev; e++)
		if (!p->ev[e].err && generic_of(&p->ev[e].attr) == (int)ev)
			return (int)e;
	return -1;
}
