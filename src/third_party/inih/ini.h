/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The inih interface (https://github.com/benhoyt/inih), as tunetop uses it,
 * for configure --with-inih=bundled: the same declarations and defaults as
 * Debian's libinih-dev 55 <ini.h>, implemented in ini.c next to this file
 * (README.md here says what it is and how to swap in upstream's files). */
#ifndef INI_H
#define INI_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called for each name = value pair (section "" before the first [section]);
 * returns nonzero on success, zero to count the line as an error. The
 * strings are valid only during the call. */
typedef int (*ini_handler)(void *user, const char *section, const char *name, const char *value);

/* fgets()-style reader: at most num - 1 characters and a '\0' into str;
 * NULL at the end. */
typedef char *(*ini_reader)(char *str, int num, void *stream);

/* Each returns 0, the number of the first line that is not INI or whose
 * handler returned zero (parsing goes on to the end), or -1 when the file
 * cannot be opened. */
int ini_parse(const char *filename, ini_handler handler, void *user);
int ini_parse_file(FILE *file, ini_handler handler, void *user);
int ini_parse_stream(ini_reader reader, void *stream, ini_handler handler, void *user);
int ini_parse_string(const char *string, ini_handler handler, void *user);

/* The behaviour, fixed at libinih's defaults (Debian builds it so): */
#define INI_HANDLER_LINENO		0
#define INI_ALLOW_MULTILINE		1 /* indented lines continue the previous value */
#define INI_ALLOW_BOM			1 /* a UTF-8 BOM before the first line is skipped */
#define INI_START_COMMENT_PREFIXES	";#"
#define INI_ALLOW_INLINE_COMMENTS	1
#define INI_INLINE_COMMENT_PREFIXES	";" /* after whitespace */
#define INI_USE_STACK			1
#define INI_MAX_LINE			200 /* longer lines are read in pieces */
#define INI_ALLOW_REALLOC		0
#define INI_STOP_ON_FIRST_ERROR		0
#define INI_CALL_HANDLER_ON_NEW_SECTION 0
#define INI_ALLOW_NO_VALUE		0

#ifdef __cplusplus
}
#endif

#endif
