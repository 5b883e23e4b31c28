/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The write-ahead undo journal (design §6): state dir rules, the lock, the
 * record codec and durable appends. Policy (what to undo, in which order)
 * lives in engine.c; this file only stores and loads records.
 *
 * File format (doc/knobs.md): one record per line, tab-separated key=value
 * fields, the first field the record type, the last "crc=" a CRC-32 of the
 * line before it. Values escape backslash, tab, newline, CR and other control
 * bytes (\\ \t \n \r \xHH). A line without its newline or with a bad CRC is a
 * torn write from a crash and is ignored.
 *   W  write intent, appended + fsynced before the write:
 *      seq txn [scoped] time pid [start kind] run boot root addr target ident old raw new
 *      (start: the writer's start time, /proc/PID/stat field 22; kind: the
 *      owner's command, "tui" "exec" "set" "apply"...; both absent in
 *      journals written before owners: start is then taken from run)
 *   C  commit after the re-read:   ref time value(=what the kernel reports)
 *   A  abort, the write failed:    ref time value(=errno name)
 *   U  undone:                     ref time pid [start kind] run value(=how) [to]
 *      (how "folded": a later change of the same run on the same knob,
 *      undone with the run's earlier one, which put the original back)
 *      (to: "handed over": the entry's owner left while a later entry of
 *      another owner still held the knob; that entry (seq `to`) inherits
 *      this one's original value, so the last owner out restores it)
 *   K  kept: the run chose to leave its changes in place when it ended
 *      (TUI "Keep and quit", --keep; exec leaving a value someone else set):
 *      ref(=newest W seq then) time pid run;
 *      the run's W records up to ref are kept, not orphaned (undo and
 *      restore still revert them)
 *   E  effect seen after the write (knob_effect_*): ref time
 *      value(=verified|not_seen|unknown) evidence(=the counters and interval)
 *   S  sequence mark after compaction: seq */
#ifndef TT_KNOB_JOURNAL_H
#define TT_KNOB_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/str.h"

struct jrec {
	char type;			 /* 'W' 'C' 'A' 'U' 'K' 'E' 'S' */
	uint64_t seq, txn, ref, time_ns; /* seq: W and S records only (the ids users see) */
	bool scoped; /* W: the change lives only as long as its run (exec, TUI): if that
		      * process is gone while the entry is active, it is orphaned */
	int pid;
	uint64_t start; /* W U K: the writer's start time (clock ticks since boot) */
	uint64_t to;	/* U: the entry that inherits the original value (0: none) */
	char *kind;	/* W U K: the owner's command ("exec", "tui", "set"...); NULL: old */
	char *run, *boot, *root;
	char *addr, *target, *ident;
	char *old, *raw, *new_value; /* raw: exact old bytes (may contain NULs: rawlen) */
	size_t rawlen;
	char *value;	/* C: readback; A: errno name; U: how; E: effect state */
	char *evidence; /* E: what was measured */
};

struct journal {
	char *dir;
	char *path;    /* dir/journal */
	char *archive; /* dir/journal.archive */
	char *lockp;   /* dir/journal.lock */
	int lock_fd;   /* >= 0 while locked */
	int fd;	       /* append fd while locked */
	uint64_t next_seq;
};

/* Pick the state dir: opt (--state-dir), $TUNETOP_STATE_DIR, /run/tunetop
 * (euid 0), $XDG_RUNTIME_DIR/tunetop. Trailing "/" and "/." are cut. */
int journal_dir_pick(const char *opt, char **out, char **cause);
/* Check (and with create, make) the state dir: a real directory, not a
 * symlink, owned by the effective user, not writable by group or others. */
int journal_dir_check(const char *dir, bool create, char **cause);
/* The journal's files in dir (journal, journal.lock, journal.archive,
 * journal.tmp) are each absent or a regular file, not a symlink (-ELOOP),
 * FIFO or device (-EINVAL, "DIR/journal: not a regular file"); the journal
 * at most 64 MiB (-EFBIG). */
int journal_files_check(const char *dir, char **cause);

void journal_init(struct journal *j, const char *dir);
void journal_fini(struct journal *j);
/* Take the writer lock, waiting up to timeout_ms; -EWOULDBLOCK with
 * "journal locked by pid N" when another writer keeps it. Opens the file
 * for appending, cuts a torn last line, and computes the next sequence id. */
int journal_lock(struct journal *j, int timeout_ms, char **cause);
void journal_unlock(struct journal *j);
bool journal_locked(const struct journal *j);
/* Append one record (assigns r->seq to W and S records); sync = fdatasync before returning. */
int journal_append(struct journal *j, struct jrec *r, bool sync);
int journal_sync(struct journal *j);

/* Load every valid record of a journal file (missing file = none). *torn
 * counts ignored lines. */
int journal_load(const char *path, struct jrec **out, size_t *n, int *torn);
/* The same over a journal's text in memory (no I/O; fuzzing, tests). */
void journal_parse(const char *buf, size_t len, struct jrec **out, size_t *n, int *torn);
void jrec_free_all(struct jrec *r, size_t n);
void jrec_free(struct jrec *r);
/* Move records (indices in `move`, count nmove) to the archive file and
 * rewrite the journal without them (needs the lock). Idempotent across a
 * kill: records the archive already ends with (a run killed before its
 * rename of the journal) are not appended twice. */
int journal_archive(struct journal *j, const struct jrec *recs, size_t n, const bool *move);

/* Codec, exposed for unit tests. encode appends one line with "\n". decode
 * takes a line without its newline; -EINVAL for a corrupt line. */
void jrec_encode(const struct jrec *r, struct sbuf *out);
int jrec_decode(const char *line, size_t len, struct jrec *r);
uint32_t journal_crc32(const void *buf, size_t len);
/* Escape / unescape one field value. */
void journal_escape(struct sbuf *b, const char *s, size_t len);
char *journal_unescape(const char *s, size_t len, size_t *outlen);

#endif
