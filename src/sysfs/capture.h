/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copy files from a root into a fixture tree, keeping the symlinks that lead
 * to them (as relative links inside the destination). Used by
 * `tunetop capture`. */
#ifndef TT_SYSFS_CAPTURE_H
#define TT_SYSFS_CAPTURE_H

#include "core/str.h"
#include "sysfs/sysroot.h"

struct capture {
	const struct sysroot *src;
	int out_fd;	     /* destination directory */
	size_t nfiles;	     /* files copied */
	size_t nlinks;	     /* symlinks recreated */
	struct sbuf skipped; /* "path: reason\n" lines (source not readable) */
	size_t nfailed;	     /* files and links that could not be written */
	struct sbuf failed;  /* the first of them: "path: reason" */
	bool werr;	     /* the current path failed on the destination side */
};

int capture_open(struct capture *c, const struct sysroot *src, const char *out_dir);
/* Copy one path (file or directory entry itself, not recursive). A source
 * file that cannot be read is noted in `skipped`; one that cannot be
 * written into the destination is counted in `nfailed`. */
int capture_path(struct capture *c, const char *rel);
void capture_close(struct capture *c);

#endif
