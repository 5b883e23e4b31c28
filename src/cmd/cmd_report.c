/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `tunetop report FILE|- [--html OUT|-] [--quiet]`: the summary of a
 * recording, an A/B result, a probe result or a snapshot, rendered by
 * src/out/report_render.c; the text on stdout, the page to OUT. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/common.h"
#include "cmd/cmd.h"
#include "core/str.h"
#include "out/report.h"
#include "sysfs/userfile.h"

/* ---- command ---------------------------------------------------------------------- */

static int write_file(const char *path, const struct sbuf *b)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -errno;
	if (fwrite(b->s, 1, b->len, f) != b->len) {
		fclose(f);
		return -EIO;
	}
	return fclose(f) == 0 ? 0 : -errno;
}

/* The standard input, whole, up to USERFILE_MAX_RECORD: 0 or -errno
 * (-EFBIG over the cap). */
static int read_stdin(char **out, size_t *len)
{
	struct sbuf b;
	char chunk[65536];

	sbuf_init(&b);
	for (;;) {
		ssize_t r = read(STDIN_FILENO, chunk, sizeof(chunk));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = -errno;

			sbuf_free(&b);
			return e;
		}
		if (r == 0)
			break;
		if ((uint64_t)b.len + (uint64_t)r >
		    USERFILE_MAX_RECORD) { /* 64-bit: the cap is 4 GiB */
			sbuf_free(&b);
			return -EFBIG;
		}
		sbuf_putn(&b, chunk, (size_t)r);
	}
	if (!b.s)
		sbuf_puts(&b, "");
	*out = b.s;
	*len = b.len;
	return 0;
}

int cmd_report(struct cmd_ctx *cx, int argc, char **argv)
{
	const char *html_path = NULL, *path;
	bool quiet = false, html_stdout;
	struct sbuf text, html;
	char *cause = NULL;
	int c, rc = 0, e;

	(void)cx; /* reads a file: nothing to set up (no flags) */
	optind = 1;
	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		switch (c) {
		case 'H': html_path = optarg; break;
		case 'q': quiet = true; break;
		case 'h': cmd_print_help("report", stdout); return 0;
		default: cmd_usage("report"); return 2;
		}
	}
	if (optind + 1 != argc) {
		cmd_usage("report");
		return 2;
	}
	path = argv[optind];
	/* --html -: the page is the standard output, the text summary is not
	   printed */
	html_stdout = html_path && !strcmp(html_path, "-");
	if (html_stdout)
		quiet = true;
	sbuf_init(&text);
	sbuf_init(&html);
	if (!strcmp(path, "-")) {
		/* FILE -: the standard input (a pipe from snapshot/ab/probe --json or
		   watch --record -) */
		char *raw = NULL;
		size_t n = 0;

		e = read_stdin(&raw, &n);

		if (e) {
			cmd_error("report", 0, "standard input: %s",
				  userfile_strerror(e, USERFILE_MAX_RECORD));
			return 1;
		}
		e = report_render("-", raw, n, &text, html_path ? &html : NULL, &cause);
		free(raw);
		if (e) {
			cmd_error("report", 0, "%s", cause ? str_ctl(cause) : "standard input");
			free(cause);
			sbuf_free(&text);
			sbuf_free(&html);
			return 1;
		}
		goto done;
	}
	e = report_render_file(path, &text, html_path ? &html : NULL, &cause);
	if (e) {
		cmd_error("report", 0, "%s", str_ctl(cause ? cause : path));
		free(cause);
		sbuf_free(&text);
		sbuf_free(&html);
		return 1;
	}
done:
	if (!quiet) /* names from the recording: control characters as \x1b */
		str_fwrite_text(text.s, text.len, stdout);
	if (html_stdout) {
		fwrite(html.s, 1, html.len, stdout);
		if (fflush(stdout) != 0) {
			cmd_error("report", -errno, "standard output");
			rc = 1;
		}
	} else if (html_path) {
		e = write_file(html_path, &html);
		if (e) {
			cmd_error("report", e, "%s: cannot write", html_path);
			rc = 1;
		} else if (!quiet) {
			printf("html: %s\n", html_path);
		}
	}
	sbuf_free(&text);
	sbuf_free(&html);
	return rc;
}
