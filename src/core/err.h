/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Error conventions: functions return 0 or -errno. These helpers name an
 * errno for messages ("EINVAL") and explain it in words. */
#ifndef TT_CORE_ERR_H
#define TT_CORE_ERR_H

/* "EINVAL" for -EINVAL or EINVAL; "E?<n>" for unknown codes. Static storage
 * for known codes, thread-local for unknown ones. */
const char *err_name(int err);

#endif
