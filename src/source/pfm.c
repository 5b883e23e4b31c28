/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libpfm4 wrapper: initialization once, encoding into perf_event_attr,
 * listing present PMUs and their events. The only file that includes the
 * perfmon headers; <linux/perf_event.h> must come first (perfmon carries its
 * own guarded copy and a later linux include fails with "redeclaration of
 * enum perf_type_id"). Without HAVE_LIBPFM everything is a stub. */
#include "source/pfm.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/xalloc.h"

#ifdef HAVE_LIBPFM
#include <ctype.h>
#include <dlfcn.h>
#include <limits.h>
#include <perfmon/pfmlib_perf_event.h>
#include <pthread.h>
#include <stdlib.h>

/* libpfm4 is loaded with dlopen() at first use, not linked: its event
 * tables carry some 30,000 relocations, and linking it costs every tunetop
 * process ~2 MiB of RSS (more than the rest of a `watch`) whether or not a
 * counter is ever opened. The prototypes still come from its header. */
#define PFM_SONAME "libpfm.so.4"

static struct {
	void *handle;
	__typeof__(pfm_initialize) *initialize;
	__typeof__(pfm_get_version) *get_version;
	__typeof__(pfm_strerror) *strerror;
	__typeof__(pfm_get_os_event_encoding) *get_os_event_encoding;
	__typeof__(pfm_get_event_info) *get_event_info;
	__typeof__(pfm_get_pmu_info) *get_pmu_info;
	__typeof__(pfm_get_event_next) *get_event_next;
} lib;
static char lib_error[256];

#define pfm_initialize		  lib.initialize
#define pfm_get_version		  lib.get_version
#define pfm_strerror		  lib.strerror
#define pfm_get_os_event_encoding lib.get_os_event_encoding
#define pfm_get_event_info	  lib.get_event_info
#define pfm_get_pmu_info	  lib.get_pmu_info
#define pfm_get_event_next	  lib.get_event_next

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_init_ret = PFM_ERR_NOINIT;

static bool lib_load(void)
{
	const char *e;

	dlerror();
	lib.handle = dlopen(PFM_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib.handle) {
		e = dlerror();
		snprintf(lib_error, sizeof(lib_error), "cannot load %s: %s", PFM_SONAME,
			 e ? e : "unknown error");
		return false;
	}
#define SYM(field, name)                                                                           \
	do {                                                                                       \
		void *sym_ = dlsym(lib.handle, name);                                              \
		memcpy(&lib.field, &sym_, sizeof(sym_));                                           \
		if (!sym_) {                                                                       \
			snprintf(lib_error, sizeof(lib_error), "%s has no %s", PFM_SONAME, name);  \
			dlclose(lib.handle);                                                       \
			memset(&lib, 0, sizeof(lib));                                              \
			return false;                                                              \
		}                                                                                  \
	} while (0)
	SYM(initialize, "pfm_initialize");
	SYM(get_version, "pfm_get_version");
	SYM(strerror, "pfm_strerror");
	SYM(get_os_event_encoding, "pfm_get_os_event_encoding");
	SYM(get_event_info, "pfm_get_event_info");
	SYM(get_pmu_info, "pfm_get_pmu_info");
	SYM(get_event_next, "pfm_get_event_next");
#undef SYM
	return true;
}

static void pfm_init_once(void)
{
	if (lib_load())
		pfm_init_ret = pfm_initialize();
}

/* Why libpfm4 is not available: the load or pfm_initialize() failure. */
static const char *init_error(void)
{
	return lib.handle ? pfm_strerror(pfm_init_ret) : lib_error;
}

bool pfm_available(void)
{
	pthread_once(&pfm_once, pfm_init_once);
	return pfm_init_ret == PFM_SUCCESS;
}

/* The file the library was loaded from, resolved ("" unknown). */
static const char *lib_path(void)
{
	static char path[PATH_MAX];
	Dl_info di;
	char *real;

	if (path[0] || !lib.handle)
		return path;
	memset(&di, 0, sizeof(di));
	if (!dladdr(*(void **)&lib.initialize, &di) || !di.dli_fname)
		return path;
	real = realpath(di.dli_fname, NULL);
	str_copy(path, sizeof(path), real ? real : di.dli_fname);
	free(real);
	return path;
}

const char *pfm_version(void)
{
	static char buf[32];
	const char *path, *so;
	int v;

	if (!pfm_available())
		return NULL;
	path = lib_path();
	so = strstr(path, ".so.");
	if (so && isdigit((unsigned char)so[4]) && strchr(so + 4, '.')) {
		str_copy(buf, sizeof(buf), so + 4);
		return buf;
	}
	v = pfm_get_version();
	snprintf(buf, sizeof(buf), "%d.%d", PFM_MAJ_VERSION(v), PFM_MIN_VERSION(v));
	return buf;
}

const char *pfm_status(void)
{
	static char buf[PATH_MAX + 320];

	if (pfm_available())
		snprintf(buf, sizeof(buf), "%s (%s)", pfm_version(),
			 lib_path()[0] ? lib_path() : PFM_SONAME);
	else if (lib.handle)
		snprintf(buf, sizeof(buf), "failed to initialize: %s", init_error());
	else
		snprintf(buf, sizeof(buf), "failed to load: %s", lib_error);
	return buf;
}

static int pfm_errno(int r)
{
	switch (r) {
	case PFM_ERR_NOTFOUND: return -ENOENT;
	case PFM_ERR_NOTSUPP: return -ENOTSUP;
	case PFM_ERR_NOMEM: return -ENOMEM;
	case PFM_ERR_NOINIT: return -ENODEV;
	case PFM_ERR_TOOSMALL: return -ENOSPC;
	default: return -EINVAL;
	}
}

int pfm_encode_pmu(const char *event_string, struct perf_event_attr *attr, char *pmu,
		   size_t pmu_cap, char **cause)
{
	pfm_perf_encode_arg_t arg;
	int r;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr); /* libpfm copies only attr->size bytes */
	if (pmu && pmu_cap)
		pmu[0] = '\0';
	if (!pfm_available()) {
		if (cause)
			*cause = xasprintf("libpfm4: %s%s",
					   lib.handle ? "pfm_initialize failed: " : "",
					   init_error());
		return -ENODEV;
	}
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.attr = attr;
	r = pfm_get_os_event_encoding(event_string, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT,
				      &arg);
	if (r != PFM_SUCCESS) {
		if (cause)
			*cause = xasprintf("libpfm4 cannot encode '%s': %s", event_string,
					   pfm_strerror(r));
		return pfm_errno(r);
	}
	attr->size = sizeof(*attr);
	if (pmu && pmu_cap) {
		pfm_event_info_t ei;
		pfm_pmu_info_t pi;

		memset(&ei, 0, sizeof(ei));
		ei.size = sizeof(ei);
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_event_info(arg.idx, PFM_OS_PERF_EVENT, &ei) == PFM_SUCCESS &&
		    pfm_get_pmu_info(ei.pmu, &pi) == PFM_SUCCESS && pi.name)
			snprintf(pmu, pmu_cap, "%s", pi.name);
	}
	return 0;
}

int pfm_encode(const char *event_string, struct perf_event_attr *attr, char **cause)
{
	return pfm_encode_pmu(event_string, attr, NULL, 0, cause);
}

static bool contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return n == 0;
}

/* First sentence-ish of a description, on one line. */
static void put_desc(struct sbuf *out, const char *d)
{
	size_t n = 0;

	if (!d)
		return;
	while (d[n] && d[n] != '\n' && n < 100)
		n++;
	sbuf_putn(out, d, n);
	if (d[n] && d[n] != '\n')
		sbuf_puts(out, "...");
}

int pfm_list_filtered(struct sbuf *out, const char *filter)
{
	pfm_pmu_t p;
	int total = 0;

	if (!pfm_available())
		return -ENOTSUP;
	pfm_for_all_pmus(p)
	{
		pfm_pmu_info_t pi;
		struct sbuf evs;
		int nev = 0;

		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present)
			continue;
		sbuf_init(&evs);
		for (int i = pi.first_event; i != -1; i = pfm_get_event_next(i)) {
			pfm_event_info_t ei;
			char full[160];

			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (pfm_get_event_info(i, PFM_OS_PERF_EVENT, &ei) != PFM_SUCCESS)
				continue;
			snprintf(full, sizeof(full), "%s::%s", pi.name, ei.name);
			if (filter && !contains_ci(full, filter))
				continue;
			sbuf_printf(&evs, "  %-44s ", full);
			put_desc(&evs, ei.desc);
			sbuf_putc(&evs, '\n');
			nev++;
		}
		if (nev || !filter) {
			sbuf_printf(out, "pmu %s: %s (%d event%s%s)\n", pi.name,
				    pi.desc ? pi.desc : "", nev, nev == 1 ? "" : "s",
				    filter ? " matching" : "");
			sbuf_puts(out, evs.s ? evs.s : "");
		}
		sbuf_free(&evs);
		total += nev;
	}
	return total;
}

#else /* !HAVE_LIBPFM */

bool pfm_available(void)
{
	return false;
}

const char *pfm_version(void)
{
	return NULL;
}

const char *pfm_status(void)
{
	return "not built in (configure found no libpfm4 headers, or --without-libpfm)";
}

int pfm_encode_pmu(const char *event_string, struct perf_event_attr *attr, char *pmu,
		   size_t pmu_cap, char **cause)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	if (pmu && pmu_cap)
		pmu[0] = '\0';
	if (cause)
		*cause = xasprintf("cannot encode '%s': tunetop was built without libpfm4 "
				   "(generic names only: cycles, instructions, cache-misses, ...)",
				   event_string);
	return -ENOTSUP;
}

int pfm_encode(const char *event_string, struct perf_event_attr *attr, char **cause)
{
	return pfm_encode_pmu(event_string, attr, NULL, 0, cause);
}

int pfm_list_filtered(struct sbuf *out, const char *filter)
{
	(void)out;
	(void)filter;
	return -ENOTSUP;
}

#endif

int pfm_list(struct sbuf *out)
{
	return pfm_list_filtered(out, NULL);
}
