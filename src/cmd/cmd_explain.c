/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `tunetop explain ADDR|METRIC`: print the explain entry for a knob address
 * or a metric, with its files resolved on the --root; `--list` lists the
 * table, `--all` prints every entry (docs, tests). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/common.h"
#include "cmd/cmd.h"
#include "core/err.h"
#include "core/str.h"
#include "model/explain.h"

static void print_entry(const struct explain_entry *e, const char *addr, const struct sysroot *r,
			int width)
{
	struct explain_resolved x;
	struct sbuf b;

	sbuf_init(&b);
	explain_resolve(e, addr, r, &x);
	explain_render(&b, &x, width);
	fwrite(b.s, 1, b.len, stdout);
	explain_resolved_free(&x);
	sbuf_free(&b);
}

int cmd_explain(struct cmd_ctx *cx, int argc, char **argv)
{
	bool list = false, all = false;
	int width = 78, c, rc = 0;
	struct sysroot *r = &cx->root;

	optind = 1;
	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		switch (c) {
		case 'l': list = true; break;
		case 'a': all = true; break;
		case 'w':
			if (str_to_int(optarg, &width) || width < 40 || width > 1000) {
				cmd_error("explain", 0, "--width wants 40..1000, not '%s'", optarg);
				return 2;
			}
			break;
		case 'h': cmd_print_help("explain", stdout); return 0;
		default: cmd_usage("explain"); return 2;
		}
	}
	if (list) {
		struct sbuf b;

		sbuf_init(&b);
		explain_render_list(&b);
		fwrite(b.s, 1, b.len, stdout);
		sbuf_free(&b);
		return 0;
	}
	if (!all && optind >= argc) {
		cmd_usage("explain");
		return 2;
	}
	if (cmd_setup(cx, 0))
		return 1;
	if (all) {
		for (size_t i = 0; i < explain_count(); i++) {
			if (i)
				printf("\n%s\n\n", "-----------------------------------------------"
						   "-------------");
			print_entry(explain_at(i), NULL, r, width);
		}
	}
	for (int i = optind; i < argc; i++) {
		const struct explain_entry *en = explain_find(argv[i]);

		if (i > optind || all)
			printf("\n");
		if (!en) {
			const struct explain_entry *hits[16];
			size_t n = explain_search(argv[i], hits, 16);

			cmd_error("explain", 0, "no entry for '%s'%s", argv[i],
				  n ? "; did you mean one of:" : " (see tunetop explain --list)");
			for (size_t k = 0; k < n && k < 16; k++)
				fprintf(stderr, "  %-40s %s\n", hits[k]->key, hits[k]->title);
			rc = 2;
			continue;
		}
		print_entry(en, argv[i], r, width);
	}
	return rc;
}
