/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recorder: JSON lines into a file, one flushed line per sample, event
 * and probe window; with libzstd, by default, the same lines as a zstd
 * stream flushed per line, a new frame every RECORD_FRAME_SAMPLES samples
 * or RECORD_FRAME_BYTES of JSON (record.h). Samples reuse the batch JSON
 * writer, handed in as record_meta.snapshot_json (out/report.h
 * report_record_json: out/ includes the model, never the other way), so a
 * recording carries exactly what `snapshot --json` shows, findings included. Journal events come
 * from polling the knob journal: every change by any tunetop process on this root shows up, with
 * its state (active, undone). */
#include "model/record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/schema.h"
#include "core/cpumask.h"
#include "core/json.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "knob/knob.h"
#include "probe/histogram.h"

#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

struct seen {
	uint64_t id;
	enum knob_jstate state;
};

struct recorder {
	FILE *f;
	char *path;
	bool zstd;		/* a zstd stream of the JSON lines */
	uint64_t frame_samples; /* samples in the current zstd frame */
	uint64_t frame_bytes;	/* JSON bytes in the current zstd frame */
	uint64_t json_bytes;	/* JSON bytes written (before compression) */
#ifdef HAVE_ZSTD
	ZSTD_CCtx *zc;
	void *zout;
	size_t zout_cap;
#endif
	struct record_meta meta;
	char root_path[TT_PATH_MAX];
	char board[128];
	uint64_t seq, samples, events;
	int err; /* first write error */
	struct knob_ctx *kctx;
	bool journal_primed; /* entries that existed before the recording are not events */
	struct seen *seen;
	size_t nseen, capseen;
};

bool record_is_zstd(const void *buf, size_t len)
{
	static const unsigned char magic[4] = {0x28, 0xb5, 0x2f, 0xfd};

	return len >= sizeof(magic) && !memcmp(buf, magic, sizeof(magic));
}

bool record_have_zstd(void)
{
#ifdef HAVE_ZSTD
	return true;
#else
	return false;
#endif
}

int record_format_parse(const char *s, enum record_format *out)
{
	if (!s || !strcmp(s, "auto"))
		*out = RECORD_FMT_AUTO;
	else if (!strcmp(s, "json") || !strcmp(s, "jsonl"))
		*out = RECORD_FMT_JSON;
	else if (!strcmp(s, "zstd"))
		*out = record_have_zstd() ? RECORD_FMT_ZSTD : RECORD_FMT_NONE;
	else
		return -EINVAL;
	return *out == RECORD_FMT_NONE ? -ENOTSUP : 0;
}

int record_format_opt(const char *s, enum record_format *out, char *why, size_t cap)
{
	int e = record_format_parse(s, out);

	if (e)
		snprintf(why, cap, "--record-format %s: %s", s ? s : "",
			 e == -ENOTSUP ? "this tunetop was built without libzstd"
				       : "auto, json or zstd");
	return e;
}

#ifdef HAVE_ZSTD
/* Compress in[0..n) with mode (ZSTD_e_flush: the line is readable from the
 * file once written; ZSTD_e_end: close the frame) and write it all. */
static void z_put(struct recorder *r, const void *in, size_t n, ZSTD_EndDirective mode)
{
	ZSTD_inBuffer ib = {in, n, 0};

	for (;;) {
		ZSTD_outBuffer ob = {r->zout, r->zout_cap, 0};
		size_t left = ZSTD_compressStream2(r->zc, &ob, &ib, mode);

		if (ZSTD_isError(left)) {
			r->err = -EIO;
			return;
		}
		if (ob.pos && fwrite(r->zout, 1, ob.pos, r->f) != ob.pos) {
			r->err = -(errno ? errno : EIO);
			return;
		}
		if (!left && ib.pos == ib.size)
			break;
	}
}
#endif

/* A line into the file, flushed. A sample line that would make the current
 * zstd frame longer than RECORD_FRAME_SAMPLES samples or RECORD_FRAME_BYTES
 * of JSON starts a new frame (a reader can start decoding there). */
static void put_line_kind(struct recorder *r, struct sbuf *b, bool sample)
{
	if (r->err)
		return;
	sbuf_putc(b, '\n');
	r->json_bytes += b->len;
	if (!r->zstd) {
		if (fwrite(b->s, 1, b->len, r->f) != b->len || fflush(r->f) != 0)
			r->err = -(errno ? errno : EIO);
		return;
	}
#ifdef HAVE_ZSTD
	if (sample &&
	    (r->frame_samples >= RECORD_FRAME_SAMPLES || r->frame_bytes >= RECORD_FRAME_BYTES)) {
		z_put(r, NULL, 0, ZSTD_e_end);
		r->frame_samples = r->frame_bytes = 0;
	}
	r->frame_samples += sample;
	r->frame_bytes += b->len;
	z_put(r, b->s, b->len, ZSTD_e_flush);
	if (!r->err && fflush(r->f) != 0)
		r->err = -(errno ? errno : EIO);
#else
	(void)sample;
	r->err = -ENOTSUP;
#endif
}

static void put_line(struct recorder *r, struct sbuf *b)
{
	put_line_kind(r, b, false);
}

/* Which format a recording at path gets. */
static enum record_format pick_format(const char *path, enum record_format f)
{
	size_t n = strlen(path);

	if (f != RECORD_FMT_AUTO)
		return f;
	if (!strcmp(path, "-") || (n >= 6 && !strcmp(path + n - 6, ".jsonl")) ||
	    (n >= 5 && !strcmp(path + n - 5, ".json")) || !record_have_zstd())
		return RECORD_FMT_JSON;
	return RECORD_FMT_ZSTD;
}

static void str_or_null(struct jw *w, const char *key, const char *v)
{
	if (v)
		jw_str(w, key, v);
	else
		jw_null(w, key);
}

int record_open(struct recorder **out, const char *path, const struct record_meta *meta,
		char **cause)
{
	struct recorder *r;
	struct sbuf b;
	struct jw w;
	FILE *f;

	*out = NULL;
	if (!meta->snapshot_json) {
		if (cause)
			*cause = xasprintf("%s: no snapshot writer for the samples", path);
		return -EINVAL;
	}
	if (meta->format == RECORD_FMT_NONE ||
	    (meta->format == RECORD_FMT_ZSTD && !record_have_zstd())) {
		if (cause)
			*cause = xasprintf("%s: this tunetop was built without libzstd: it writes "
					   "plain JSON lines only (--record-format json)",
					   path);
		return -ENOTSUP;
	}
	if (!strcmp(path, "-")) {
		/* the standard output (watch --record -): a dup, so closing the
		   recording leaves fd 1 alone */
		int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);

		f = fd < 0 ? NULL : fdopen(fd, "w");
		if (!f && fd >= 0)
			close(fd);
	} else {
		f = fopen(path, "we");
	}
	if (!f) {
		int e = -errno;

		if (cause)
			*cause = xasprintf("%s: cannot create the recording: %s", path,
					   strerror(-e));
		return e;
	}
	r = xcalloc(1, sizeof(*r));
	r->f = f;
	r->path = xstrdup(path);
	r->meta = *meta;
	r->zstd = pick_format(path, meta->format) == RECORD_FMT_ZSTD;
#ifdef HAVE_ZSTD
	if (r->zstd) {
		r->zc = ZSTD_createCCtx();
		r->zout_cap = ZSTD_CStreamOutSize();
		r->zout = xmalloc(r->zout_cap);
		if (!r->zc) {
			if (cause)
				*cause = xasprintf("%s: cannot start the zstd stream", path);
			r->err = -ENOMEM; /* nothing written yet, nothing more to write */
			record_close(r);
			return -ENOMEM;
		}
		ZSTD_CCtx_setParameter(r->zc, ZSTD_c_compressionLevel,
				       meta->zstd_level ? meta->zstd_level : RECORD_ZSTD_LEVEL);
		ZSTD_CCtx_setParameter(r->zc, ZSTD_c_checksumFlag, 1);
	}
#endif
	str_copy(r->root_path, sizeof(r->root_path), meta->root_path ? meta->root_path : "/");
	r->meta.root_path = r->root_path;
	if (meta->board)
		str_copy(r->board, sizeof(r->board), meta->board);
	r->meta.board = NULL;
	if (meta->journal_root) {
		char *why = NULL;

		if (knob_ctx_open(&r->kctx, meta->journal_root, meta->state_dir, KNOB_READONLY_OK,
				  &why) != 0)
			r->kctx = NULL; /* no journal: no events, the samples still count */
		free(why);
	}
	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	/* the line starts {"type":"header","format":"tunetop-record" as it
	   always did: tools (and tests) sniff that prefix */
	jw_str(&w, "type", "header");
	jw_str(&w, "format", RECORD_FORMAT);
	jw_int(&w, "version", RECORD_VERSION);
	jw_str(&w, "schema", TT_SCHEMA_RECORD);
	jw_str(&w, "tunetop", PACKAGE_VERSION);
	jw_str(&w, "source", meta->source ? meta->source : "watch");
	jw_str(&w, "root", r->root_path);
	jw_double(&w, "interval_ms", meta->interval_ms, 0);
	jw_bool(&w, "simulated", meta->simulated);
	str_or_null(&w, "board", r->board[0] ? r->board : NULL);
	jw_uint(&w, "start_ns", time_real_ns());
	jw_obj_end(&w);
	put_line(r, &b);
	sbuf_free(&b);
	if (r->err) {
		int e = r->err;

		if (cause)
			*cause = xasprintf("%s: cannot write: %s", path, strerror(-e));
		record_close(r);
		return e;
	}
	/* What is in the journal already happened before this recording. */
	record_poll_journal(r);
	*out = r;
	return 0;
}

int record_sample(struct recorder *r, const struct snapshot *s, const struct thread_table *threads)
{
	return record_sample_with(r, s, threads, NULL, NULL);
}

int record_sample_with(struct recorder *r, const struct snapshot *s,
		       const struct thread_table *threads, const struct finding_list *findings,
		       const struct findings_opts *fo)
{
	struct record_snapshot_args a = {0};
	struct sbuf snap, b;

	if (!r || !s)
		return -EINVAL;
	a.findings = findings;
	a.findings_opts = fo;
	a.root_path = r->root_path;
	a.interval_ms = r->meta.interval_ms;
	a.threads = threads;
	sbuf_init(&snap);
	r->meta.snapshot_json(&snap, s, &a);
	while (snap.len && snap.s[snap.len - 1] == '\n')
		snap.s[--snap.len] = '\0';
	sbuf_init(&b);
	sbuf_printf(&b, "{\"type\":\"sample\",\"seq\":%llu,\"t_ns\":%llu,\"snapshot\":",
		    (unsigned long long)++r->seq,
		    (unsigned long long)(s->time_ns ? s->time_ns : time_real_ns()));
	sbuf_putn(&b, snap.s, snap.len);
	sbuf_putc(&b, '}');
	put_line_kind(r, &b, true);
	sbuf_free(&b);
	sbuf_free(&snap);
	r->samples++;
	record_poll_journal(r);
	return r->err;
}

/* One JSON line {"type":TYPE,"seq":N,"t_ns":NOW,...: begun in b and w here,
 * written and freed by line_end(). */
static void line_begin(struct recorder *r, struct sbuf *b, struct jw *w, const char *type)
{
	sbuf_init(b);
	jw_init(w, b, false);
	jw_obj_begin(w, NULL);
	jw_str(w, "type", type);
	jw_uint(w, "seq", ++r->seq);
	jw_uint(w, "t_ns", time_real_ns());
}

static void line_end(struct recorder *r, struct sbuf *b, struct jw *w)
{
	jw_obj_end(w);
	put_line(r, b);
	sbuf_free(b);
}

/* An event line; e (a journal entry) adds where it stands in the journal. */
static void event_line(struct recorder *r, const char *kind, const char *addr, const char *old,
		       const char *new_value, const char *state, const char *text,
		       const struct knob_jentry *e)
{
	struct sbuf b;
	struct jw w;

	line_begin(r, &b, &w, "event");
	jw_str(&w, "kind", kind);
	str_or_null(&w, "addr", addr);
	str_or_null(&w, "old", old);
	str_or_null(&w, "new", new_value);
	str_or_null(&w, "state", state);
	str_or_null(&w, "text", text);
	if (e) {
		jw_uint(&w, "journal_id", e->id);
		jw_uint(&w, "journal_time_ns", e->time_ns);
		str_or_null(&w, "run", e->run);
	}
	line_end(r, &b, &w);
	r->events++;
}

int record_event(struct recorder *r, const char *kind, const char *addr, const char *old_value,
		 const char *new_value, const char *text)
{
	if (!r)
		return -EINVAL;
	event_line(r, kind ? kind : "note", addr, old_value, new_value, NULL, text, NULL);
	return r->err;
}

static void journal_event(struct recorder *r, const struct knob_jentry *e)
{
	event_line(r, "knob", e->addr, e->old, e->new_value, knob_jstate_name(e->state), e->how, e);
}

int record_poll_journal(struct recorder *r)
{
	struct knob_jentry *e = NULL;
	size_t n = 0;
	int torn = 0;
	char *cause = NULL;

	if (!r || !r->kctx)
		return 0;
	if (knob_journal_list(r->kctx, &e, &n, &torn, &cause) != 0) {
		free(cause);
		return 0;
	}
	free(cause);
	for (size_t i = 0; i < n; i++) {
		struct seen *s = NULL;

		if (!e[i].this_root || e[i].state == KNOB_J_OTHER_BOOT)
			continue;
		for (size_t k = 0; k < r->nseen; k++)
			if (r->seen[k].id == e[i].id) {
				s = &r->seen[k];
				break;
			}
		if (s && s->state == e[i].state)
			continue;
		/* An open (in-flight) entry is reported once it settles. */
		if (e[i].state == KNOB_J_OPEN && r->journal_primed)
			continue;
		if (!s) {
			r->seen = xgrow(r->seen, &r->capseen, r->nseen + 1, sizeof(*r->seen));
			s = &r->seen[r->nseen++];
			s->id = e[i].id;
		}
		s->state = e[i].state;
		if (r->journal_primed)
			journal_event(r, &e[i]);
	}
	r->journal_primed = true;
	knob_journal_free(e, n);
	return r->err;
}

int record_probe(struct recorder *r, const struct hist *h, const char *cpus, uint64_t interval_us)
{
	struct sbuf b;
	struct jw w;

	if (!r || !h)
		return -EINVAL;
	line_begin(r, &b, &w, "probe");
	str_or_null(&w, "cpus", cpus);
	jw_uint(&w, "interval_us", interval_us);
	jw_uint(&w, "samples", h->count);
	jw_uint(&w, "overflows", h->overflows);
	jw_double(&w, "min_us", hist_min_us(h), 3);
	jw_double(&w, "mean_us", hist_mean_us(h), 3);
	jw_double(&w, "p50_us", hist_percentile_us(h, 0.50), 3);
	jw_double(&w, "p99_us", hist_percentile_us(h, 0.99), 3);
	jw_double(&w, "max_us", hist_max_us(h), 3);
	jw_arr_begin(&w, "buckets");
	for (int i = 0; i < HIST_NBUCKETS; i++) {
		uint64_t lo, hi;

		if (!h->bucket[i])
			continue;
		hist_bucket_range(i, &lo, &hi);
		jw_arr_begin(&w, NULL);
		jw_uint(&w, NULL, lo);
		jw_uint(&w, NULL, h->bucket[i]);
		jw_arr_end(&w);
	}
	jw_arr_end(&w);
	line_end(r, &b, &w);
	return r->err;
}

uint64_t record_samples(const struct recorder *r)
{
	return r ? r->samples : 0;
}

uint64_t record_events(const struct recorder *r)
{
	return r ? r->events : 0;
}

uint64_t record_json_bytes(const struct recorder *r)
{
	return r ? r->json_bytes : 0;
}

bool record_compressed(const struct recorder *r)
{
	return r && r->zstd;
}

int record_close(struct recorder *r)
{
	int e;

	if (!r)
		return 0;
	if (r->f && !r->err) {
		struct sbuf b;

		record_poll_journal(r);
		sbuf_init(&b);
		sbuf_printf(&b, "{\"type\":\"end\",\"t_ns\":%llu,\"samples\":%llu,\"events\":%llu}",
			    (unsigned long long)time_real_ns(), (unsigned long long)r->samples,
			    (unsigned long long)r->events);
		put_line(r, &b);
		sbuf_free(&b);
	}
#ifdef HAVE_ZSTD
	if (r->f && r->zstd && !r->err) {
		z_put(r, NULL, 0, ZSTD_e_end);
		if (!r->err && fflush(r->f) != 0)
			r->err = -(errno ? errno : EIO);
	}
	ZSTD_freeCCtx(r->zc);
	free(r->zout);
#endif
	if (r->f && fclose(r->f) != 0 && !r->err)
		r->err = -errno;
	e = r->err;
	if (r->kctx)
		knob_ctx_close(r->kctx);
	free(r->seen);
	free(r->path);
	free(r);
	return e;
}
