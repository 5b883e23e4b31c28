#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run htop as if the machine were the fixture tree ROOT: in a private mount
# namespace, ROOT's proc/stat is bound over /proc/stat and its
# sys/devices/system/cpu over /sys/devices/system/cpu, so htop counts and
# draws ROOT's CPUs (256 on the generated tree) while it still scans the
# real processes. Nothing leaks out: the namespace ends with htop.
#   htop-on-root.sh ROOT [HTOP ARGS...]   (root and unshare(1) needed)
set -eu
root=$1
shift
if [ "${TT_IN_NS:-}" != 1 ]; then
	TT_IN_NS=1 exec unshare -m --propagation private "$0" "$root" "$@"
fi
mount --bind "$root/proc/stat" /proc/stat
mount --bind "$root/sys/devices/system/cpu" /sys/devices/system/cpu
exec htop "$@"
