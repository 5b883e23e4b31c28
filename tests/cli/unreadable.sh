#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A CPU directory that cannot be read is EACCES, not "missing" (issue 13):
# on a copied fixture with sys/devices/system/cpu/cpu1 (or the whole cpu
# directory) at mode 000, an unprivileged run of get/snapshot names EACCES
# and the directory instead of ENOENT or "no idle states". Root reads
# through mode 000, so the commands run as nobody (setpriv); skipped where
# that is not possible.
. "$TT_SRCDIR/tests/lib.sh"

uid=65534
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null 2>&1; then
	skip_all "needs root and setpriv(1) to run tunetop as uid $uid"
fi
as_nobody() { setpriv --reuid=$uid --regid=$uid --clear-groups "$TUNETOP" "$@"; }
chmod 755 "$TMPD"
as_nobody --version >/dev/null 2>&1 || skip_all "uid $uid cannot run $TUNETOP (its path is not readable)"

root="$TMPD/rk3588"
cp -a "$FIXTURES/rk3588" "$root"
chmod -R a+rX "$root"
cpu="$root/sys/devices/system/cpu"
state="$TMPD/nobody-state"

# ---- one CPU directory
chmod 000 "$cpu/cpu1"
out=$(as_nobody --root "$root" --state-dir "$state" get pmqos/cpu1/resume_latency_us 2>&1)
is "$?" 1 "get pmqos/cpu1/...: exit 1 (no permission), not 2"
is "$out" "tunetop get: pmqos/cpu1/resume_latency_us: EACCES from $cpu/cpu1/power/pm_qos_resume_latency_us" \
	"pmqos/cpu1: EACCES, not ENOENT"
out=$(as_nobody --root "$root" --state-dir "$state" get 'cpuidle/1/*/disable' 2>&1)
is "$?" 1 "get cpuidle/1/*/disable: exit 1"
is "$out" "tunetop get: cpuidle/cpu1: EACCES from $cpu/cpu1/cpuidle: cannot list its idle states" \
	"cpuidle/1: EACCES, not 'no idle states'"
out=$(as_nobody --root "$root" --state-dir "$state" get pmqos/cpu2/resume_latency_us 2>&1)
is "$out" "pmqos/cpu2/resume_latency_us=0" "another CPU still reads"
chmod 755 "$cpu/cpu1"

# ---- the whole cpu directory
chmod 000 "$cpu"
out=$(as_nobody --root "$root" snapshot 2>&1)
is "$?" 1 "snapshot with sys/devices/system/cpu at 000: exit 1"
is "$out" "tunetop snapshot: EACCES from $cpu: cannot list the CPUs" "snapshot: EACCES, not 'no CPUs found (ENOENT)'"
chmod 755 "$cpu"

# a root without CPUs is still ENOENT
empty="$TMPD/empty"
mkdir -p "$empty/sys/devices/system/cpu" "$empty/proc"
out=$("$TUNETOP" --root "$empty" snapshot 2>&1)
like "$out" "no CPUs found under sys/devices/system/cpu \(ENOENT\)" "no cpuN directories: ENOENT"
done_testing
