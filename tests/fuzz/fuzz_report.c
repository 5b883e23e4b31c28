/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz `tunetop report` (src/out/report_render.c): a recording
 * (series per policy, CPU and zone, probe windows as a heat map and
 * histograms, events), an A/B result, a probe result or a snapshot
 * document, each into the text summary and the HTML page with its SVG
 * plots. Succeeds with some text and a page with no <script> in it (names
 * from the file are escaped), or fails with a one-line reason. */
#include "core/str.h"
#include "out/report.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf text, html;
	char *cause = NULL;

	sbuf_init(&text);
	sbuf_init(&html);
	if (report_render("fuzz.jsonl", (const char *)data, size, &text, &html, &cause) == 0) {
		FUZZ_ASSERT(!cause && text.len > 0);
		/* the page runs no script, whatever names the file held */
		FUZZ_ASSERT(!html.s || !strstr(html.s, "<script"));
	} else {
		FUZZ_ASSERT(cause && !strchr(cause, '\n'));
		free(cause);
	}
	sbuf_free(&text);
	sbuf_free(&html);
	return 0;
}
