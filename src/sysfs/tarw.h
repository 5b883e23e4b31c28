/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small ustar writer: a directory tree as a tar stream on an fd
 * (`tunetop capture -`). Directories, regular files and symlinks, in a
 * sorted walk; owner root, the file modes kept. The archive unpacks with
 * any tar into the tree it was made from. */
#ifndef TT_SYSFS_TARW_H
#define TT_SYSFS_TARW_H

#include "core/str.h"

/* Write the tree under dir (names relative to it, without "./") to fd,
 * then the two zero blocks. Entries whose name does not fit ustar's
 * 155+100 bytes are left out with a line in skipped. 0 or -errno. */
int tarw_tree(const char *dir, int fd, struct sbuf *skipped);

/* Remove the tree under dir and dir itself (a temporary capture). */
void tarw_rmtree(const char *dir);

#endif
