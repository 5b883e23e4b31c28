/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Record -> replay at the API level (what the TUI's --record / --replay
 * use): samples of every fixture written and read back must give the same
 * snapshot JSON (so every screen draws the same), the same findings, the
 * events and probe windows with their times; torn lines and foreign files
 * are handled. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "model/record.h"
#include "model/replay.h"
#include "out/report.h"
#include "probe/histogram.h"
#include "tap.h"

#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

static char tmpdir[256];

/* The snapshot JSON without its findings: findings of a first sample quote
 * raw since-boot counters that a recording does not carry (replay_findings
 * returns the recorded ones; compared separately below). */
static void json_of(const struct snapshot *s, struct sbuf *b)
{
	struct report_opts ro = {.root_path = "ROOT", .interval_ms = 100, .pretty = true};
	char *f;

	sbuf_reset(b);
	report_json(b, s, &ro);
	f = strstr(b->s, ",\n  \"findings\":");
	if (f) {
		*f = '\0';
		b->len = (size_t)(f - b->s);
	}
}

/* First differing line of two texts, for the diagnostics. */
static void first_diff(const char *a, const char *b)
{
	int line = 1;

	while (*a && *a == *b) {
		if (*a == '\n')
			line++;
		a++;
		b++;
	}
	printf("# first difference at line %d:\n#  recorded: %.80s\n#  replayed: %.80s\n", line, a,
	       b);
}

static void roundtrip(const char *board, enum record_format fmt)
{
	struct sysroot r;
	struct sampler sm;
	struct recorder *rec = NULL;
	struct replay *rp = NULL;
	struct record_meta meta = {.source = "test",
				   .root_path = "ROOT",
				   .interval_ms = 100,
				   .format = fmt,
				   .snapshot_json = report_record_json};
	char path[512], *cause = NULL;
	struct sbuf want[2], got;
	struct hist h;
	int e;

	snprintf(path, sizeof(path), "%s/%s.%s", tmpdir, board,
		 fmt == RECORD_FMT_ZSTD ? "rec" : "jsonl");
	if (sysroot_open(&r, fixture(board)) != 0) {
		ok(0, "%s: open fixture", board);
		return;
	}
	sampler_init(&sm, &r, SNAP_ALL);
	e = record_open(&rec, path, &meta, &cause);
	ok(e == 0, "%s: record_open (%s)", board, cause ? cause : "ok");
	free(cause);
	if (e) {
		sampler_free(&sm);
		sysroot_close(&r);
		return;
	}
	sbuf_init(&want[0]);
	sbuf_init(&want[1]);
	sbuf_init(&got);
	for (int i = 0; i < 2; i++) {
		ok(sampler_tick(&sm) == 0, "%s: tick %d", board, i);
		json_of(sampler_cur(&sm), &want[i]);
		ok(record_sample(rec, sampler_cur(&sm), NULL) == 0, "%s: record_sample %d", board,
		   i);
		if (i == 0)
			ok(record_event(rec, "knob", "cpufreq/policy0/governor", "ondemand",
					"performance", NULL) == 0,
			   "%s: record_event", board);
	}
	hist_init(&h);
	for (int i = 0; i < 100; i++)
		hist_add(&h, (uint64_t)(5000 + i * 100), 0);
	hist_add(&h, 350000, 0);
	ok(record_probe(rec, &h, "0-1", 1000) == 0, "%s: record_probe", board);
	is_int(record_samples(rec), 2, "samples counted");
	is_int(record_events(rec), 1, "events counted");
	ok(record_close(rec) == 0, "%s: record_close", board);

	e = replay_open(&rp, path, &cause);
	ok(e == 0, "%s: replay_open (%s)", board, cause ? cause : "ok");
	free(cause);
	if (!e) {
		const struct replay_header *hd = replay_header(rp);
		const struct replay_event *ev;
		const struct replay_probe *pr;

		is_str(hd->source, "test", "header source");
		is_str(hd->root, "ROOT", "header root");
		ok(hd->complete, "end line found");
		is_int(hd->version, RECORD_VERSION, "version");
		is_int(replay_nsamples(rp), 2, "two samples");
		for (size_t i = 0; i < 2; i++) {
			struct snapshot s;

			ok(replay_sample(rp, i, &s) == 0, "%s: replay_sample %zu", board, i);
			json_of(&s, &got);
			if (!ok(!strcmp(got.s, want[i].s),
				"%s: sample %zu replays to the same snapshot JSON", board, i))
				first_diff(want[i].s, got.s);
			snapshot_free(&s);
		}
		{
			struct snapshot s;
			struct finding_list a = {0}, b = {0};
			struct findings_input in;
			bool same = true;

			replay_sample(rp, 1, &s);
			in = (struct findings_input){.snap = &s};
			findings_eval(&in, NULL, &a);
			replay_findings(rp, 1, &b);
			same = a.n == b.n;
			for (size_t i = 0; same && i < a.n; i++)
				same = !strcmp(a.v[i].id, b.v[i].id) && a.v[i].sev == b.v[i].sev &&
				       !strcmp(a.v[i].evidence, b.v[i].evidence) &&
				       a.v[i].nfix == b.v[i].nfix && a.v[i].explain &&
				       b.v[i].explain && !strcmp(a.v[i].explain, b.v[i].explain);
			ok(same, "%s: recorded findings = findings of the replayed snapshot (%zu)",
			   board, a.n);
			for (size_t i = 0; !same && i < a.n; i++)
				printf("# replayed %s: %s\n", a.v[i].id, a.v[i].evidence);
			for (size_t i = 0; !same && i < b.n; i++)
				printf("# recorded %s: %s\n", b.v[i].id, b.v[i].evidence);
			findings_free(&a);
			findings_free(&b);
			snapshot_free(&s);
		}
		is_int(replay_nevents(rp), 1, "one event");
		ev = replay_event(rp, 0);
		ok(ev && !strcmp(ev->addr, "cpufreq/policy0/governor") &&
			   !strcmp(ev->new_value, "performance") && ev->after_sample == 0,
		   "event fields and position");
		is_int(replay_nprobes(rp), 1, "one probe window");
		pr = replay_probe_at(rp, 0);
		ok(pr && pr->samples == 101 && pr->max_us > 349 && pr->nbuckets > 10 &&
			   !strcmp(pr->cpus, "0-1"),
		   "probe window fields");
		is_int(replay_seek(rp, 0), 0, "seek before the start");
		is_int(replay_seek(rp, UINT64_MAX), 1, "seek past the end");
		is_int(replay_seek(rp, replay_sample_time(rp, 1)), 1, "seek exact");
		is_int(replay_step(rp, 0, 1), 1, "step forward");
		is_int(replay_step(rp, 1, 1), 1, "step forward stops at the last sample");
		is_int(replay_step(rp, 1, -10), 0, "seek back stops at the first sample");
		is_int(replay_step(rp, 0, 10), 1, "seek forward stops at the last sample");
		ok(ev && ev->at_ns == ev->t_ns,
		   "an event without a journal time happened when written");
		ok(replay_sample(rp, 2, &(struct snapshot){0}) == -ERANGE, "out of range");
		replay_close(rp);
	}
	sbuf_free(&want[0]);
	sbuf_free(&want[1]);
	sbuf_free(&got);
	sampler_free(&sm);
	sysroot_close(&r);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

static void damaged(void)
{
	char path[512], *cause = NULL;
	struct replay *rp = NULL;
	FILE *f;
	char *text;
	long n;

	/* a torn last line (killed while writing) and no end line */
	snprintf(path, sizeof(path), "%s/rk3588.jsonl", tmpdir);
	f = fopen(path, "r");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = xmalloc((size_t)n + 1);
	n = (long)fread(text, 1, (size_t)n, f);
	text[n] = '\0';
	fclose(f);
	{
		char *end = strstr(text, "{\"type\":\"end\"");

		if (end)
			snprintf(end, (size_t)(n - (end - text)) + 1,
				 "{\"type\":\"sample\",\"seq\":9,\"snap");
	}
	snprintf(path, sizeof(path), "%s/torn.jsonl", tmpdir);
	write_text(path, text);
	free(text);
	ok(replay_open(&rp, path, &cause) == 0, "torn recording opens (%s)", cause ? cause : "ok");
	free(cause);
	cause = NULL;
	if (rp) {
		ok(!replay_header(rp)->complete, "no end line: incomplete");
		is_int(replay_skipped(rp), 1, "the torn line is skipped");
		is_int(replay_nsamples(rp), 2, "the whole samples are kept");
		replay_close(rp);
	}
	snprintf(path, sizeof(path), "%s/not.jsonl", tmpdir);
	write_text(path, "{\"tunetop\":\"0.1.0\",\"cpus\":[]}\n");
	ok(replay_open(&rp, path, &cause) == -EINVAL && cause &&
		   strstr(cause, "not a tunetop recording"),
	   "a snapshot is not a recording (%s)", cause ? cause : "");
	free(cause);
	cause = NULL;
	write_text(path, "");
	ok(replay_open(&rp, path, &cause) == -EINVAL, "empty file refused");
	free(cause);
	cause = NULL;
	ok(replay_open(&rp, "/nonexistent/x.jsonl", &cause) == -ENOENT, "missing file: ENOENT");
	free(cause);
	cause = NULL;
	{
		struct recorder *rec = NULL;
		struct record_meta meta = {.source = "test"};

		cause = NULL;
		ok(record_open(&rec, "/nonexistent/dir/x.jsonl", &meta, &cause) == -EINVAL &&
			   cause && !rec,
		   "record_open without a snapshot writer is refused (-EINVAL), with a reason");
		free(cause);
		cause = NULL;
		meta.snapshot_json = report_record_json;
		ok(record_open(&rec, "/nonexistent/dir/x.jsonl", &meta, &cause) == -ENOENT && cause,
		   "record_open into a missing directory fails with a reason");
		free(cause);
	}
}

/* The format chosen by name and option; the message without libzstd. */
static void formats(void)
{
	enum record_format f;
	char *c = replay_no_zstd_cause("/x/run.rec");

	ok(record_format_parse("json", &f) == 0 && f == RECORD_FMT_JSON, "format json");
	ok(record_format_parse("auto", &f) == 0 && f == RECORD_FMT_AUTO, "format auto");
	ok(record_format_parse("gzip", &f) == -EINVAL, "format gzip: EINVAL");
	if (record_have_zstd())
		ok(record_format_parse("zstd", &f) == 0 && f == RECORD_FMT_ZSTD, "format zstd");
	else
		ok(record_format_parse("zstd", &f) == -ENOTSUP, "format zstd without libzstd");
	is_str(c,
	       "/x/run.rec: a zstd-compressed recording, and this tunetop was built without "
	       "libzstd: decompress it with `zstd -d /x/run.rec -o /x/run.rec.jsonl`",
	       "without libzstd: one line naming the file and the zstd command");
	ok(!strchr(c, '\n'), "  one line");
	free(c);
	ok(record_is_zstd("\x28\xb5\x2f\xfd", 4) && !record_is_zstd("\x28\xb5\x2f", 3) &&
		   !record_is_zstd("{\"type\"", 7),
	   "zstd magic");
}

/* A long compressed recording: a new zstd frame every RECORD_FRAME_SAMPLES
 * samples, each frame starting with a sample line and decoding alone; the
 * reader gets every sample across the frames. */
static void frames(void)
{
#ifdef HAVE_ZSTD
	struct sysroot r;
	struct sampler sm;
	struct recorder *rec = NULL;
	struct replay *rp = NULL;
	struct record_meta meta = {.source = "test",
				   .root_path = "ROOT",
				   .interval_ms = 100,
				   .format = RECORD_FMT_AUTO,
				   .snapshot_json = report_record_json};
	char path[512], *cause = NULL, *buf = NULL;
	const int n = RECORD_FRAME_SAMPLES * 2 + 10;
	size_t len = 0, off = 0, nframes = 0;
	bool alone = true, starts = true, toolong = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/long.rec", tmpdir);
	if (sysroot_open(&r, fixture("stm32mp157")) != 0)
		return;
	sampler_init(&sm, &r, SNAP_ALL);
	sampler_tick(&sm);
	ok(record_open(&rec, path, &meta, NULL) == 0, "frames: record_open (auto: .rec)");
	ok(record_compressed(rec), "frames: compressed");
	for (int i = 0; i < n; i++)
		record_sample(rec, sampler_cur(&sm), NULL);
	ok(record_close(rec) == 0, "frames: %d samples written", n);
	f = fopen(path, "rb");
	if (f) {
		buf = xmalloc(8 << 20);
		len = fread(buf, 1, 8 << 20, f);
		fclose(f);
	}
	while (buf && off < len) {
		size_t fl = ZSTD_findFrameCompressedSize(buf + off, len - off);
		char *out;
		size_t got;

		if (ZSTD_isError(fl))
			break;
		out = xmalloc(64 << 20);
		got = ZSTD_decompress(out, 64 << 20, buf + off, fl);
		if (ZSTD_isError(got))
			alone = false;
		else {
			size_t ns = 0;

			if (nframes > 0 && strncmp(out, "{\"type\":\"sample\"", 16))
				starts = false;
			for (char *p = out; (p = strstr(p, "{\"type\":\"sample\"")); p++)
				ns++;
			if (ns > RECORD_FRAME_SAMPLES || got > RECORD_FRAME_BYTES + (256u << 10))
				toolong = true;
		}
		free(out);
		nframes++;
		off += fl;
	}
	is_int(off, len, "frames: the file is a sequence of whole frames");
	ok(nframes >= 3 && !toolong,
	   "frames: a new frame every RECORD_FRAME_SAMPLES samples "
	   "or RECORD_FRAME_BYTES of JSON (%zu frames)",
	   nframes);
	ok(alone, "frames: each frame decodes on its own");
	ok(starts, "frames: each later frame starts with a sample line");
	free(buf);
	ok(replay_open(&rp, path, &cause) == 0, "frames: replay_open (%s)", cause ? cause : "ok");
	free(cause);
	if (rp) {
		is_int(replay_nsamples(rp), n, "frames: every sample read back");
		ok(replay_header(rp)->complete, "frames: complete");
		replay_close(rp);
	}
	sampler_free(&sm);
	sysroot_close(&r);
#endif
}

int main(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/tunetop-record.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir))
		skip_all("cannot create a temporary directory");
	roundtrip("rk3588", RECORD_FMT_AUTO); /* .jsonl: plain */
	roundtrip("intel", RECORD_FMT_JSON);
	roundtrip("stm32mp157", RECORD_FMT_JSON);
	roundtrip("rpi4", RECORD_FMT_JSON);
	roundtrip("broken", RECORD_FMT_JSON);
	if (record_have_zstd()) {
		roundtrip("rk3588", RECORD_FMT_ZSTD);
		roundtrip("intel", RECORD_FMT_ZSTD);
		roundtrip("broken", RECORD_FMT_ZSTD);
	}
	damaged();
	formats();
	frames();
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", tmpdir);
	}
	return done_testing();
}
