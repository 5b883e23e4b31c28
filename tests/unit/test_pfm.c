/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/source/pfm.c: libpfm4 encodings of generic event
 * strings ("cycles", "perf::cache-misses" -> type 0 config 3, raw, user-only
 * modifiers), errors for unknown events, the PMU listing, and ARM strings
 * with LIBPFM_ENCODE_INACTIVE=1 (skipped when this libpfm4 has no ARM
 * tables: x86 builds, and Cortex-A55/A76 before 4.13+git). Built without
 * libpfm4: the stubs return -ENOTSUP and the encoding tests are skipped. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/str.h"
#include "source/pfm.h"
#include "tap.h"

static void skip(const char *what, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++tap_n, what, why);
}

#ifdef HAVE_LIBPFM
struct arm_case {
	const char *str;
	unsigned long long config;
	const char *pmu;
};

/* In a child: the environment variable must be set before libpfm
 * initializes, and ENCODE_INACTIVE must not leak into the other tests.
 * Writes one line per case: "ok TYPE CONFIG PMU" or "err MESSAGE". */
static void arm_cases(const struct arm_case *cases, size_t n)
{
	int p[2], st;
	pid_t pid;
	char buf[2048] = "";
	ssize_t got = 0, k;

	if (pipe(p) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
		for (size_t i = 0; i < n; i++) {
			struct perf_event_attr a;
			char pmu[48], line[256], *cause = NULL;
			int r = pfm_encode_pmu(cases[i].str, &a, pmu, sizeof(pmu), &cause);

			if (r == 0)
				snprintf(line, sizeof(line), "ok %u %llx %s\n", a.type,
					 (unsigned long long)a.config, pmu);
			else
				snprintf(line, sizeof(line), "err %s\n", cause ? cause : "?");
			free(cause);
			if (write(p[1], line, strlen(line)) < 0)
				_exit(1);
		}
		_exit(0);
	}
	close(p[1]);
	while ((k = read(p[0], buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
		got += k;
	buf[got] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	{
		char *save = NULL, *line = strtok_r(buf, "\n", &save);

		for (size_t i = 0; i < n; i++, line = strtok_r(NULL, "\n", &save)) {
			char name[96];

			snprintf(name, sizeof(name), "%s encodes (raw 0x%llx on %s)", cases[i].str,
				 cases[i].config, cases[i].pmu);
			if (!line) {
				ok(0, "%s: child answered", name);
			} else if (str_starts(line, "err ")) {
				char why[256];

				snprintf(why, sizeof(why), "not encodable by this libpfm4%s (%s)",
#if defined(__aarch64__) || defined(__arm__)
					 " (Cortex-A55/A76 tables came after 4.13.0)",
#else
					 ", an x86 build without ARM tables",
#endif
					 line + 4);
				skip(name, why);
			} else {
				unsigned type;
				unsigned long long config;
				char pmu[48] = "";

				if (sscanf(line, "ok %u %llx %47s", &type, &config, pmu) < 2)
					type = 99;
				ok(type == PERF_TYPE_RAW && config == cases[i].config &&
					   !strcmp(pmu, cases[i].pmu),
				   "%s: got type %u config 0x%llx pmu %s", name, type, config, pmu);
			}
		}
	}
}
#endif

int main(void)
{
	struct perf_event_attr a;
	struct sbuf b;
	char *cause = NULL;
	int r;

#ifndef HAVE_LIBPFM
	ok(!pfm_available(), "built without libpfm4: not available");
	r = pfm_encode("cycles", &a, &cause);
	is_int(r, -ENOTSUP, "pfm_encode stub: -ENOTSUP");
	ok(cause && strstr(cause, "without libpfm4"), "stub cause: %s", cause ? cause : "(null)");
	free(cause);
	sbuf_init(&b);
	is_int(pfm_list(&b), -ENOTSUP, "pfm_list stub: -ENOTSUP");
	sbuf_free(&b);
	skip("libpfm4 encodings of generic and ARM event strings", "built without libpfm4");
	return done_testing();
#else
	static const struct arm_case arm[] = {
		{"arm_ac53::CPU_CYCLES", 0x11, "arm_ac53"},
		{"arm_ac53::L1D_CACHE_REFILL", 0x03, "arm_ac53"},
		{"arm_ac7::CPU_CYCLES", 0x11, "arm_ac7"},
		{"arm_ac55::CPU_CYCLES", 0x11, "arm_ac55"},
		{"arm_ac76::INST_RETIRED", 0x08, "arm_ac76"},
	};

	/* ARM first, in a child, before this process initializes libpfm. */
	arm_cases(arm, sizeof(arm) / sizeof(arm[0]));

	ok(pfm_available(), "libpfm4 initializes");
	is_int(pfm_encode("cycles", &a, NULL), 0, "encode cycles");
	ok(a.type == PERF_TYPE_HARDWARE && a.config == PERF_COUNT_HW_CPU_CYCLES,
	   "cycles: type 0 config 0");
	ok(a.size == sizeof(a), "attr.size restored");
	is_int(pfm_encode("perf::cache-misses", &a, NULL), 0, "encode perf::cache-misses");
	ok(a.type == PERF_TYPE_HARDWARE && a.config == 3, "perf::cache-misses: type 0 config 3");
	is_int(pfm_encode("perf::PERF_COUNT_HW_CACHE_MISSES", &a, NULL), 0,
	       "encode the canonical name");
	ok(a.type == 0 && a.config == 3, "canonical name: type 0 config 3");
	is_int(pfm_encode("cache-misses", &a, NULL), 0, "encode bare cache-misses");
	ok(a.type == 0 && a.config == 3, "bare cache-misses: type 0 config 3");
	is_int(pfm_encode("perf::CONTEXT-SWITCHES", &a, NULL), 0, "encode a software event");
	ok(a.type == PERF_TYPE_SOFTWARE && a.config == PERF_COUNT_SW_CONTEXT_SWITCHES,
	   "context switches: type 1 config 3");
	is_int(pfm_encode("perf_raw::r17", &a, NULL), 0, "encode perf_raw::r17");
	ok(a.type == PERF_TYPE_RAW && a.config == 0x17, "raw: type 4 config 0x17");
	is_int(pfm_encode("perf::cycles:u", &a, NULL), 0, "encode cycles:u");
	ok(a.exclude_kernel && !a.exclude_user, "':u' excludes the kernel");
	is_int(pfm_encode("perf::cycles", &a, NULL), 0, "encode perf::cycles");
	ok(!a.exclude_kernel && !a.exclude_user, "default: user and kernel");
	{
		char pmu[48];

		is_int(pfm_encode_pmu("perf::instructions", &a, pmu, sizeof(pmu), NULL), 0,
		       "pfm_encode_pmu");
		is_str(pmu, "perf", "PMU of a generic event");
	}
	r = pfm_encode("no_such_pmu::NOPE", &a, &cause);
	is_int(r, -ENOENT, "unknown event: -ENOENT");
	ok(cause && strstr(cause, "no_such_pmu::NOPE") && strstr(cause, "libpfm4"),
	   "cause names the string: %s", cause ? cause : "(null)");
	free(cause);
	cause = NULL;
	r = pfm_encode("perf::cycles:nosuchmod", &a, &cause);
	ok(r == -EINVAL || r == -ENOENT, "bad modifier: error (%d)", r);
	free(cause);
	sbuf_init(&b);
	r = pfm_list(&b);
	ok(r > 10, "pfm_list lists events (%d)", r);
	ok(b.s && strstr(b.s, "pmu perf: ") && strstr(b.s, "  perf::PERF_COUNT_HW_CPU_CYCLES"),
	   "listing has the perf PMU and its events");
	sbuf_reset(&b);
	r = pfm_list_filtered(&b, "context-sw");
	ok(r >= 1 && b.s && strstr(b.s, "CONTEXT-SWITCHES") && !strstr(b.s, "CPU_CYCLES"),
	   "filtered listing (%d)", r);
	sbuf_free(&b);
	ok(pfm_version() != NULL, "version string %s", pfm_version() ? pfm_version() : "");
	return done_testing();
#endif
}
