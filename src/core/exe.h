/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the running binary is: the directory of /proc/self/exe, for the
 * files found next to it (the --demo bundle, the build tree's profiles and
 * themes, userfile_source_tree). */
#ifndef TT_CORE_EXE_H
#define TT_CORE_EXE_H

#include <stddef.h>

/* The absolute directory of the running executable into buf (no trailing
 * slash; "/" for a binary in the root). 0, or -errno (-ENAMETOOLONG when
 * it does not fit in cap). */
int exe_dir(char *buf, size_t cap);

#endif
