/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz the recording reader (src/model/replay.c over the JSON reader): a
 * recording (one JSON document per line) or a single `snapshot --json`
 * document, as `tunetop --replay` and `tunetop report` read them. Every
 * sample is turned back into a snapshot and handed to what consumes one
 * there: the findings rules and the text and JSON report writers, so that
 * a snapshot rebuilt from hostile JSON (counts that disagree with the CPU
 * masks, empty arrays, huge indices) is exercised end to end. The JSON
 * report written from it must parse again. */
#include "core/jsonparse.h"
#include "core/str.h"
#include "model/findings.h"
#include "model/replay.h"
#include "out/report.h"
#include "fuzz.h"

static void consume(const struct snapshot *s)
{
	struct finding_list fl = {0};
	struct findings_input in = {.snap = s};
	struct report_opts ro = {
		.root_path = "/", .interval_ms = 1000, .stable = true, .irqs_text = true};
	struct sbuf b;

	findings_eval(&in, NULL, &fl);
	ro.findings = &fl;
	sbuf_init(&b);
	report_text(&b, s, &ro);
	sbuf_reset(&b);
	report_json(&b, s, &ro);
	{ /* whatever the recording held, the JSON written from it is JSON */
		struct jp_value v;

		FUZZ_ASSERT(jp_parse(b.s, b.len, &v, NULL, 0) == 0);
		jp_free(&v);
	}
	sbuf_reset(&b);
	report_csv(&b, s, &ro);
	sbuf_free(&b);
	findings_free(&fl);
}

static void recording(struct replay *r)
{
	size_t n = replay_nsamples(r);

	(void)replay_header(r);
	for (size_t i = 0; i < n && i < 8; i++) {
		struct snapshot s;
		struct finding_list fl = {0};

		(void)replay_sample_time(r, i);
		if (replay_sample(r, i, &s) == 0)
			consume(&s);
		snapshot_free(&s);
		replay_findings(r, i, &fl);
		findings_free(&fl);
	}
	(void)replay_seek(r, UINT64_MAX / 2);
	(void)replay_step(r, 0, -10);
	(void)replay_step(r, n ? n - 1 : 0, 10);
	for (size_t i = 0; i < replay_nevents(r); i++)
		FUZZ_ASSERT(replay_event(r, i) != NULL);
	for (size_t i = 0; i < replay_nprobes(r); i++) {
		const struct replay_probe *p = replay_probe_at(r, i);

		FUZZ_ASSERT(p != NULL);
		for (size_t k = 0; k < p->nbuckets; k++)
			(void)p->buckets[k][1];
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct replay *r = NULL;
	char *cause = NULL;
	struct jp_value doc;

	if (replay_open_buf(&r, (const char *)data, size, "fuzz", &cause) == 0) {
		FUZZ_ASSERT(r && !cause);
		recording(r);
		replay_close(r);
		return 0;
	}
	FUZZ_ASSERT(!r && cause && !strchr(cause, '\n'));
	free(cause);
	/* `tunetop report` on a single snapshot document */
	if (jp_parse((const char *)data, size, &doc, NULL, 0) == 0) {
		if (jp_get(&doc, "policies") && jp_get(&doc, "cpus")) {
			struct snapshot s;

			if (replay_snapshot_from_json(&doc, &s) == 0)
				consume(&s);
			snapshot_free(&s);
		}
		jp_free(&doc);
	}
	return 0;
}
