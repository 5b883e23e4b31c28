/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small string helpers: strict number parsing (0 or -errno, never 0-as-error),
 * trimming, growable buffers. */
#ifndef TT_CORE_STR_H
#define TT_CORE_STR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Parse a whole decimal number; leading/trailing white space allowed.
 * Returns 0, -EINVAL (not a number / trailing garbage / empty) or -ERANGE. */
int str_to_u64(const char *s, uint64_t *out);
int str_to_i64(const char *s, int64_t *out);
int str_to_int(const char *s, int *out);
/* A numeric environment variable, parsed as strictly as str_to_u64 and
 * bounded by max. Returns 0 when unset or empty (*out untouched), 1 when
 * set and valid, -EINVAL or -ERANGE with why = "NAME: 'abc' is not a whole
 * number (0 to MAX)" (why may be NULL). */
int str_env_u64(const char *name, uint64_t max, uint64_t *out, char *why, size_t cap);
/* Parse a decimal with an optional fraction ("950.000000") into a double. */
int str_to_double(const char *s, double *out);
/* Parse a hex number with optional 0x prefix. */
int str_to_hex_u64(const char *s, uint64_t *out);

/* Trim white space in place; returns s advanced past leading space. */
char *str_trim(char *s);
/* Whether the user's locale (LC_ALL, LC_CTYPE, LANG) uses UTF-8: text
 * for people then uses the real minus sign and µ, else ASCII '-' and "us".
 * Decided once; call it first while the program has one thread (setlocale
 * is not thread-safe). JSON is not affected by it except for the human
 * "verdict" strings. */
bool str_utf8_locale(void);
const char *str_minus(void); /* "\u2212" or "-" */
const char *str_micro(void); /* "\u00b5" or "u" */

bool str_eq(const char *a, const char *b);
/* Copy src into dst (capacity cap), always NUL terminated, truncating.
 * Returns the length of src (like strlcpy). */
size_t str_copy(char *dst, size_t cap, const char *src);
bool str_starts(const char *s, const char *prefix);
bool str_ends(const char *s, const char *suffix);

/* Split s (modified in place) on white space into at most max tokens.
 * Returns the number of tokens. */
size_t str_split_ws(char *s, char **tok, size_t max);
/* Word wrap: the length of the first line of p at w columns (up to a
 * newline, else the last space before column w when the text goes on; a
 * word longer than w is cut), and where the next line starts (past the
 * spaces and newlines that follow it). */
int str_wrap_len(const char *p, int w);
const char *str_wrap_next(const char *p, int len);

/* A growable NUL-terminated byte buffer. With sink set (after sbuf_init),
 * what it holds is written to sink and dropped whenever it would grow past
 * SBUF_SINK_BYTES: a writer that only appends streams through a small
 * buffer (the caller writes the rest at the end). */
struct sbuf {
	char *s;
	size_t len;
	size_t cap;
	FILE *sink;
};
#define SBUF_SINK_BYTES 65536

void sbuf_init(struct sbuf *b);
void sbuf_free(struct sbuf *b);
void sbuf_reset(struct sbuf *b);
void sbuf_putc(struct sbuf *b, char c);
void sbuf_puts(struct sbuf *b, const char *s);
void sbuf_putn(struct sbuf *b, const char *s, size_t n);
void sbuf_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Take ownership of the string (buffer becomes empty). */
char *sbuf_steal(struct sbuf *b);

/* Text output is text: s (n bytes) appended to b with every control
 * character written as "\x1b": C0 bytes (but newline and tab when
 * keep_layout), DEL, and the C1 controls U+0080..U+009F in UTF-8
 * ("\xc2\x9b"). A backslash stays as it is. The one escaper of names read
 * from a tree or a file for every non-TUI text output (text snapshot,
 * report, CSV, error lines). */
void str_escape_ctl(struct sbuf *b, const char *s, size_t n, bool keep_layout);
/* True when s (n bytes) holds a byte str_escape_ctl() would escape. */
bool str_has_ctl(const char *s, size_t n, bool keep_layout);
/* fwrite() of text through str_escape_ctl() (keep_layout): returns n, or
 * less on a write error. */
size_t str_fwrite_text(const char *s, size_t n, FILE *f);
/* s (NUL-terminated) escaped into a thread-local buffer of up to 1 KiB (4
 * in turn: up to four fields of one printf()); s itself when it has none. */
const char *str_ctl(const char *s);

/* s is one or more decimal digits and nothing else ("24"; not "", "-1", "2a"). */
bool str_is_digits(const char *s);

/* ---- durations (issue 14) ---- */

/* A duration in seconds: a number >= 0 (decimals allowed, not inf), then
 * optionally one of the unit suffixes that units allows (space-separated
 * from "ms s m h d"), e.g. str_to_seconds("1.5m", "s m h d", &v) is 90.
 * 0, or -EINVAL (an empty or overlong string, a unit not allowed). */
int str_to_seconds(const char *s, const char *units, double *out);

/* Decimals to print a number of magnitude |mag| with: 0 from top up (and
 * for NaN), 1 from top/10, 2 from top/100, else 3. */
int str_decimals(double mag, double top);

/* A temperature in millidegrees C as degrees with one decimal ("43.8",
 * "-0.3"), rounded half away from zero in integers: the one formatter of
 * every view that shows a temperature (the Cores column, the thermal zone
 * and hwmon lists, findings), so one reading is one figure everywhere
 * (issue 30: 43750 mC was 43.8 in one and 43.7 in the other). Returns buf. */
const char *str_temp_c(char *buf, size_t cap, int64_t mc);
/* The element of table[0..n-1] (each size bytes) whose name, the const
 * char * at name_off in it, is name; NULL when none is or name is NULL.
 * cmd_find(), thread_leaf_find(). */
const void *str_table_find(const void *table, size_t n, size_t size, size_t name_off,
			   const char *name);

#endif
