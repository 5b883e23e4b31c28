/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `tunetop events`: what this machine offers for counting. The generic
 * events with their open status (per CPU and for this thread, on the live
 * kernel), the core PMUs in sys/bus/event_source/devices (one per cluster on
 * big.LITTLE), the other PMUs, and with libpfm4 the PMUs it finds present;
 * `--list [PATTERN]` lists libpfm4's events. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/common.h"
#include "cmd/cmd.h"
#include "core/err.h"
#include "core/str.h"
#include "source/perf.h"
#include "source/pfm.h"
#include "source/topology.h"
#include "sysfs/sysroot.h"

static void status(char *buf, size_t cap, const struct perf_set *s, size_t e)
{
	if (!s || !s->priv)
		snprintf(buf, cap, "-");
	else if (s->ev_err[e])
		snprintf(buf, cap, "n/a (%s: %s)", err_name(s->ev_err[e]), s->why[e]);
	else if (s->ev_user_only[e])
		snprintf(buf, cap, "ok, user space only");
	else
		snprintf(buf, cap, "ok");
}

static void print_pmus(const struct perf_pmus *pm, const char *root)
{
	bool other = false;

	printf("\nCore PMUs (%s%ssys/bus/event_source/devices):\n", root,
	       str_ends(root, "/") ? "" : "/");
	if (pm->ncore == 0)
		printf("  none: no hardware PMU (a VM without a virtual PMU?); hardware events are "
		       "n/a\n");
	for (size_t i = 0; i < pm->n; i++) {
		char cpus[128] = "all";

		if (!pm->p[i].core)
			continue;
		if (pm->p[i].has_cpus)
			cpulist_format(&pm->p[i].cpus, cpus, sizeof(cpus));
		printf("  %-24s type %-4u CPUs %s\n", pm->p[i].name, pm->p[i].type, cpus);
	}
	if (perf_pmus_heterogeneous(pm))
		printf("  heterogeneous: each CPU is counted on its own PMU\n");
	printf("Other PMUs:");
	for (size_t i = 0; i < pm->n; i++) {
		if (pm->p[i].core)
			continue;
		printf(" %s(%u)", pm->p[i].name, pm->p[i].type);
		other = true;
	}
	printf("%s\n", other ? "" : " none");
}

int cmd_events(struct cmd_ctx *cx, int argc, char **argv)
{
	struct sysroot *root = &cx->root;
	struct perf_pmus pm;
	bool list = false;
	int opt;

	optind = 1;
	while ((opt = cmd_getopt(cx, argc, argv)) != -1) {
		switch (opt) {
		case 'l': list = true; break;
		case 'h': cmd_print_help("events", stdout); return 0;
		default: cmd_usage("events"); return 2;
		}
	}
	if (argc - optind > 1) {
		cmd_usage("events");
		return 2;
	}
	if (list || optind < argc) {
		struct sbuf b;
		int n;

		sbuf_init(&b);
		n = pfm_list_filtered(&b, optind < argc ? argv[optind] : NULL);
		if (n < 0) {
			cmd_error(
				"events", 0,
				"libpfm4 %s: only the generic events can be used (tunetop events)",
				pfm_status());
			sbuf_free(&b);
			return 1;
		}
		fputs(b.s ? b.s : "", stdout);
		if (n == 0 && optind < argc)
			cmd_error("events", 0, "no libpfm4 event matches '%s'", argv[optind]);
		sbuf_free(&b);
		return n == 0 && optind < argc ? 1 : 0;
	}

	if (cmd_setup(cx, 0))
		return 1;
	{
		struct topology t;
		struct perf_set cpu_set, thr_set;
		bool have_cpu = false, have_thr = false;
		enum perf_arch arch;
		int par;

		memset(&cpu_set, 0, sizeof(cpu_set));
		memset(&thr_set, 0, sizeof(thr_set));
		perf_pmus_read(root, &pm);
		arch = pm.arch;
		if (root->live) {
			if (topology_read(root, &t) == 0) {
				perf_open_cpus(&cpu_set, root, &t, NULL, NULL);
				have_cpu = true;
				topology_free(&t);
			}
			perf_open_thread(&thr_set, getpid(), NULL, NULL);
			have_thr = true;
		}
		par = perf_paranoid(root);
		printf("Generic events");
		if (root->live) {
			if (par != INT32_MIN)
				printf(" (perf_event_paranoid %d, %s)", par,
				       geteuid() == 0 ? "running as root" : "not root");
			else
				printf(" (no perf_event_paranoid: kernel without perf events)");
		}
		printf(":\n  %-18s %-18s %-36s %s\n", "EVENT", "LABEL",
		       root->live ? "PER CPU" : "PER CPU (live only)",
		       root->live ? "THIS THREAD" : "");
		for (int e = 0; e < PERF_EV__GENERIC_COUNT; e++) {
			char a[PERF_WHY_LEN + 32], b[PERF_WHY_LEN + 32];

			status(a, sizeof(a), have_cpu ? &cpu_set : NULL, (size_t)e);
			status(b, sizeof(b), have_thr ? &thr_set : NULL, (size_t)e);
			printf("  %-18s %-18s %-36s %s\n", perf_ev_name((enum perf_ev)e),
			       perf_ev_label((enum perf_ev)e, arch), a, root->live ? b : "");
		}
		if (have_cpu && cpu_set.note[0])
			printf("  note: %s\n", cpu_set.note);
		if (have_cpu)
			perf_close(&cpu_set);
		if (have_thr)
			perf_close(&thr_set);
	}
	print_pmus(&pm, root->path);
	perf_pmus_free(&pm);
	if (pfm_available()) {
		struct sbuf b;
		int n;

		sbuf_init(&b);
		n = pfm_list(&b);
		printf("\nlibpfm4 %s; PMUs it finds present (any of their events works with "
		       "--events; `tunetop events --list [PATTERN]`):\n",
		       pfm_status());
		if (b.s) {
			/* Only the "pmu ..." header lines. */
			char *save = NULL;

			for (char *line = strtok_r(b.s, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				if (str_starts(line, "pmu "))
					printf("  %s\n", line + 4);
		}
		(void)n;
		sbuf_free(&b);
	} else {
		printf("\nlibpfm4: %s; --events takes generic names "
		       "(cycles, instructions, cache-misses, ...) and raw codes (r11)\n",
		       pfm_status());
	}
	return 0;
}
