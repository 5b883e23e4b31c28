/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `tunetop why FILE [--json] [--why-over US] [--worst N] [--housekeeping
 * LIST]`: replay a saved event stream (`probe --why --events FILE`, the
 * text form of src/probe/why.h) through the attribution of
 * src/probe/whyattr.c and print why each late wake-up was late. Nothing of
 * the machine is read: the same file gives the same answer anywhere. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/common.h"
#include "core/cpumask.h"
#include "core/json.h"
#include "core/schema.h"
#include "core/str.h"
#include "probe/whyattr.h"
#include "sysfs/userfile.h"

/* An event stream holds at most WHY_EVENTS_MAX lines of WHY_LINE_MAX. */
#define WHY_FILE_MAX (256ull << 20)

static int why_opt_u64(const char *name, const char *v, uint64_t max, uint64_t *out)
{
	if (str_to_u64(v, out) || !str_is_digits(v) || *out > max) {
		cmd_error("why", 0, "%s: '%s' is not a whole number from 0 to %llu", name, v,
			  (unsigned long long)max);
		return -EINVAL;
	}
	return 0;
}

static int why_load(const char *path, struct why_events *s)
{
	char *text = NULL, why[192];
	int e, line;

	e = userfile_read(path, 0, WHY_FILE_MAX, &text, NULL);
	if (e) {
		cmd_error("why", 0, "%s: %s", path, userfile_strerror(e, WHY_FILE_MAX));
		return e;
	}
	e = why_events_parse(text, s, &line, why, sizeof(why));
	free(text);
	if (e) {
		cmd_error("why", 0, "%s:%d: %s", path, line, why);
		return e;
	}
	why_events_sort(s);
	return 0;
}

int cmd_why(struct cmd_ctx *cx, int argc, char **argv)
{
	struct why_opts wo = {0};
	struct why_events s;
	struct why_result r;
	bool json = false;
	uint64_t over_us = 0, worst = 5;
	int c, e;

	(void)cx; /* reads a file: nothing to set up (no flags) */
	optind = 1;
	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'o':
			if (why_opt_u64("--why-over", optarg, UINT64_MAX / 1000, &over_us))
				return 2;
			break;
		case 'w':
			if (why_opt_u64("--worst", optarg, 1000000, &worst))
				return 2;
			break;
		case 'k': {
			struct cpumask m;

			if (cpulist_parse(optarg, &m) || cpumask_empty(&m) ||
			    strlen(optarg) >= sizeof(wo.housekeeping)) {
				cmd_error("why", 0,
					  "--housekeeping: '%s' is not a CPU list (e.g. 0-1,4)",
					  optarg);
				return 2;
			}
			str_copy(wo.housekeeping, sizeof(wo.housekeeping), optarg);
			break;
		}
		case 'h': cmd_print_help("why", stdout); return 0;
		default: cmd_usage("why"); return 2;
		}
	}
	if (optind + 1 != argc) {
		cmd_usage("why");
		return 2;
	}
	wo.over_ns = over_us * 1000;
	if (why_load(argv[optind], &s))
		return 2;
	e = why_attribute(&s, &wo, &r);
	why_events_free(&s);
	if (e) {
		cmd_error("why", e, "%s", argv[optind]);
		return 1;
	}
	if (json) {
		struct sbuf b;
		struct jw w;

		cmd_json_begin(&w, &b, true);
		jw_str(&w, "schema", TT_SCHEMA_WHY);
		jw_str(&w, "tunetop", PACKAGE_VERSION);
		jw_str(&w, "source", argv[optind]);
		why_write_json(&r, &w);
		cmd_json_put(&w, &b, stdout);
	} else {
		why_write_text(&r, stdout, (int)worst);
	}
	why_result_free(&r);
	return 0;
}
