/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A single-file INI parser with libinih's interface and behaviour
 * (ini.h), compiled in by configure --with-inih=bundled. Line by line:
 *   - a UTF-8 BOM before the first line is skipped;
 *   - blank lines and lines whose first non-blank character is ';' or '#'
 *     are comments;
 *   - an indented line after a name = value pair continues it: the handler
 *     is called again with the same name and the line's text (a ';' in it
 *     is text, not a comment);
 *   - "[name]" starts a section (what follows ']' is ignored; no ']' is an
 *     error); sections are kept to 49 bytes, like libinih;
 *   - "name = value" or "name : value" (first '=' or ':'), blanks trimmed
 *     around both, a ';' after a blank starts a comment;
 *   - any other line is an error.
 * Lines are read INI_MAX_LINE - 1 bytes at a time, so a longer line comes
 * in pieces that count as lines of their own, as in libinih. The result is
 * the number of the first bad line (parsing goes on), or 0. */
#include "ini.h"

#include <ctype.h>
#include <string.h>

#define INI_SECTION_CAP 50
#define INI_NAME_CAP	50

static char *skip_blanks(char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

static char *trim_end(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* The first character of s that is in stop (may be NULL), or the start of
 * an inline comment (a prefix right after a blank), or the end of s. */
static char *scan_to(char *s, const char *stop)
{
	int after_blank = 0;

	for (; *s; s++) {
		if (stop && strchr(stop, *s))
			break;
		if (after_blank && strchr(INI_INLINE_COMMENT_PREFIXES, *s))
			break;
		after_blank = isspace((unsigned char)*s) != 0;
	}
	return s;
}

static void copy_capped(char *dst, const char *src, size_t cap)
{
	size_t n = strlen(src);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int ini_parse_stream(ini_reader reader, void *stream, ini_handler handler, void *user)
{
	char line[INI_MAX_LINE];
	char section[INI_SECTION_CAP] = "";
	char prev_name[INI_NAME_CAP] = "";
	int lineno = 0, error = 0;

	while (reader(line, (int)sizeof(line), stream) != NULL) {
		char *start = line, *end;

		lineno++;
		if (lineno == 1 && (unsigned char)line[0] == 0xEF &&
		    (unsigned char)line[1] == 0xBB && (unsigned char)line[2] == 0xBF)
			start += 3;
		start = skip_blanks(trim_end(start));

		if (*start == '\0' || strchr(INI_START_COMMENT_PREFIXES, *start)) {
			continue; /* blank or comment */
		} else if (prev_name[0] && start > line) {
			/* indented: the previous name's value goes on, as it
			 * is (libinih 55 as Debian builds it strips no inline
			 * comment here) */
			if (!handler(user, section, prev_name, start) && !error)
				error = lineno;
		} else if (*start == '[') {
			end = scan_to(start + 1, "]");
			if (*end == ']') {
				*end = '\0';
				copy_capped(section, start + 1, sizeof(section));
				prev_name[0] = '\0';
			} else if (!error) {
				error = lineno;
			}
		} else {
			char *name, *value;

			end = scan_to(start, "=:");
			if (*end != '=' && *end != ':') {
				if (!error)
					error = lineno;
				continue;
			}
			*end = '\0';
			name = trim_end(start);
			value = end + 1;
			end = scan_to(value, NULL);
			*end = '\0';
			value = trim_end(skip_blanks(value));
			copy_capped(prev_name, name, sizeof(prev_name));
			if (!handler(user, section, name, value) && !error)
				error = lineno;
		}
	}
	return error;
}

static char *file_reader(char *str, int num, void *stream)
{
	return fgets(str, num, (FILE *)stream);
}

int ini_parse_file(FILE *file, ini_handler handler, void *user)
{
	return ini_parse_stream(file_reader, file, handler, user);
}

int ini_parse(const char *filename, ini_handler handler, void *user)
{
	FILE *f = fopen(filename, "r");
	int r;

	if (!f)
		return -1;
	r = ini_parse_file(f, handler, user);
	fclose(f);
	return r;
}

struct string_stream {
	const char *p;
	size_t left;
};

/* fgets() over a string: up to and including the next '\n'. */
static char *string_reader(char *str, int num, void *stream)
{
	struct string_stream *s = stream;
	size_t n = 0;

	if (s->left == 0 || num < 2)
		return NULL;
	while (n + 1 < (size_t)num && s->left > 0) {
		char c = *s->p++;

		s->left--;
		str[n++] = c;
		if (c == '\n')
			break;
	}
	str[n] = '\0';
	return str;
}

int ini_parse_string(const char *string, ini_handler handler, void *user)
{
	struct string_stream s = {string, strlen(string)};

	return ini_parse_stream(string_reader, &s, handler, user);
}
