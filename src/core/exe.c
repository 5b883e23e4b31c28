/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The running binary's directory (exe.h). */
#include "core/exe.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

int exe_dir(char *buf, size_t cap)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;
	size_t len;

	if (n < 0)
		return -errno;
	if (n == 0)
		return -ENOENT;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -ENOENT;
	len = slash == exe ? 1 : (size_t)(slash - exe);
	if (len + 1 > cap)
		return -ENAMETOOLONG;
	memcpy(buf, exe, len);
	buf[len] = '\0';
	return 0;
}
