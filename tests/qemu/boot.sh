#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Real kernels (issue 19): Debian's arm64, arm64 PREEMPT_RT and armhf armmp
# kernels booted under qemu-system-aarch64 / qemu-system-arm (TCG, -M virt)
# with a static tunetop in a busybox initramfs whose /init
# (tests/qemu/guest.sh) runs a batch of commands and powers off. The host
# side asserts on what the guest printed (JSON, through jq).
#
# Variants: "clusters" (tests/qemu/clusters.dtsi: two clusters with
# capacities 512/1024 and a PSCI idle state cpu-sleep), "isolated" (the
# same, with isolcpus=1 nohz_full=1 on the command line). The RT kernel boots
# with -icount shift=0, where QEMU's PMU counts instructions too.
#
# The kernel and busybox packages come from `apt-get download` and are kept
# in $TT_QEMU_CACHE (default ~/.cache/tunetop/qemu) between runs. Run by
# `make check-qemu` (tests/run-all.sh); skipped with the reason when a tool
# or the packages cannot be had.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/qemu/lib.sh"

t_start=$(date +%s)
need qemu-system-aarch64 qemu-system-arm dtc cpio gzip jq aarch64-linux-gnu-gcc \
	arm-linux-gnueabihf-gcc apt-get dpkg-deb timeout
for a in aarch64-linux-gnu arm-linux-gnueabihf; do
	[ -f "/usr/lib/$a/pkgconfig/ncursesw.pc" ] && [ -f "/usr/lib/$a/libncursesw.a" ] ||
		skip_all "libncurses-dev for $a not installed (scripts/deps.sh --test)"
	[ -f "/usr/lib/$a/pkgconfig/inih.pc" ] || skip_all "libinih-dev for $a not installed"
done

# ---- packages (cached) ----------------------------------------------------
kernel arm64 linux-image-arm64 arm64
kernel rt linux-image-rt-arm64 arm64
kernel armhf linux-image-armmp armhf
busybox arm64
busybox armhf

# ---- static tunetop for each architecture --------------------------------
build() { # build ARCH TRIPLET
	b="$TMPD/build-$1"
	mkdir -p "$b"
	(cd "$b" && PKG_CONFIG_LIBDIR="/usr/lib/$2/pkgconfig:/usr/share/pkgconfig" \
		"$TT_SRCDIR/configure" -q --host="$2" --without-libpfm --without-sensors --without-zstd \
		PKG_CONFIG="pkg-config --static" LDFLAGS=-static CFLAGS="-O1 -g0" >configure.log 2>&1 &&
		make -j"$(nproc)" tunetop >make.log 2>&1 && "$2-strip" tunetop) || {
		tail -20 "$b/configure.log" "$b/make.log" 2>/dev/null | sed 's/^/# /'
		return 1
	}
}
build arm64 aarch64-linux-gnu
ok $? "static tunetop for arm64"
build armhf arm-linux-gnueabihf
ok $? "static tunetop for armhf"
file -b "$TMPD/build-armhf/tunetop" 2>/dev/null | grep -q "ARM, EABI5.*statically linked"
ok $? "the armhf binary is a static 32-bit ARM executable"

initrd arm64 arm64 "$TMPD/build-arm64/tunetop"
initrd armhf armhf "$TMPD/build-armhf/tunetop"

# dtb QEMU MACHINE_ARGS... -> $TMPD/<qemu>.dtb: virt's own tree with
# tests/qemu/clusters.dtsi appended
dtb() {
	q=$1
	shift
	"$q" "$@" -machine dumpdtb="$TMPD/base.dtb" >/dev/null 2>&1 &&
		dtc -q -I dtb -O dts "$TMPD/base.dtb" >"$TMPD/base.dts" &&
		cat "$TMPD/base.dts" "$TT_SRCDIR/tests/qemu/clusters.dtsi" >"$TMPD/$q.dts" &&
		dtc -q -I dts -O dtb -o "$TMPD/$q.dtb" "$TMPD/$q.dts"
}
m64="-M virt -cpu cortex-a53 -smp 4 -m 512"
m32="-M virt,highmem=off -cpu cortex-a15 -smp 4 -m 512"
# shellcheck disable=SC2086
dtb qemu-system-aarch64 $m64
ok $? "arm64 device tree with two clusters and cpu-sleep"
# shellcheck disable=SC2086
dtb qemu-system-arm $m32
ok $? "armhf device tree with two clusters and cpu-sleep"

# ---- boot ------------------------------------------------------------------
# armboot NAME QEMU KERNEL ARCH VARIANT CMDLINE_EXTRA MACHINE_ARGS...: boot
# (tests/qemu/lib.sh) with the device tree of dtb() and guest.sh's VARIANT
armboot() {
	an=$1 aq=$2 ak=$3 aa=$4 av=$5 ax=$6
	shift 6
	boot "$an" "$aq" "$ak" "$TMPD/initrd-$aa.gz" "console=ttyAMA0 tt_variant=$av $ax" \
		-dtb "$TMPD/$aq.dtb" "$@"
}
common() { # common NAME ARCH_JSON CORE_TYPE
	is "$(rc_of "$1" version)" 0 "$1: tunetop --version runs"
	like "$(out "$1" version)" 'libpfm4: not built in' "$1: the static build says libpfm4 is not built in"
	is "$(rc_of "$1" snapshot)" 0 "$1: snapshot --json --interval 1000 exits 0"
	jqt "$1" snapshot ".system.arch == \"$2\"" "arch is $2"
	jqt "$1" snapshot "[.cpus[].core_type] | unique == [\"$3\"]" "every core is a $3"
	jqt "$1" snapshot '.topology.hybrid == true' "capacities 512/1024 make the topology hybrid"
	jqt "$1" snapshot '[.cpus[].capacity] == [512,512,1024,1024]' "capacities from the device tree"
	like "$(out "$1" report)" 'CPU +type +cap +cluster' "$1: the text report has capacity and cluster columns"
}

# arm64: cpu-map clusters and the PSCI idle state of clusters.dtsi
arm64_idle() {
	jqt "$1" snapshot '[.cpus[].cluster_id] == [0,0,1,1]' "clusters from cpu-map"
	out "$1" report | grep -Eq '^3 +[A-Za-z0-9-]+ +1024 +1 '
	ok $? "$1: the text report reads CPU 3 at capacity 1024 in cluster 1"
	jqt "$1" snapshot '.cpuidle.driver == "psci_idle" and ([.cpus[0].idle[].name] | index("cpu-sleep") != null)' \
		"psci_idle registers cpu-sleep"
	jqt "$1" snapshot "$residency_ok" "an idle CPU shows >= 90 % idle residency over 1 s"
	diag "$1 residency: $(jq -c '[.cpus[] | {cpu: .id, busy: .util_pct, idle: [.idle[]? | .residency_pct]}]' "$TMPD/$1/snapshot" 2>/dev/null)"
}

clusters() { # clusters NAME: the knob round trip and the counters
	is "$(rc_of "$1" set)" 0 "$1: set cpuidle/cpu1/cpu-sleep/disable=1 --verify 1000"
	# verified (the state not entered while the others were), or unknown
	# when CPU 1 slept through the whole watch without an exit; never
	# not_seen: QEMU rejects PSCI suspend, the state is never entered
	jqt "$1" journal '[.entries[] | select(.address == "cpuidle/cpu1/state1/disable") | .effect]
		| length == 1 and (.[0] == "verified" or .[0] == "unknown")' "the effect is judged (verified or unknown)"
	unlike "$(out "$1" set)" 'not in effect' "$1: no false 'not in effect' warning"
	is "$(out "$1" after_set)" 1 "$1: the kernel's disable file reads 1"
	jqt "$1" journal '[.entries[] | select(.address == "cpuidle/cpu1/state1/disable" and .old == "0" and .new == "1")] | length == 1' \
		"the journal holds the change (0 -> 1)"
	is "$(rc_of "$1" restore)" 0 "$1: restore exits 0"
	is "$(out "$1" after_restore)" 0 "$1: restored: the disable file reads 0"
	jqt "$1" counters '.counters.per_cpu | length == 4' "counters for 4 CPUs"
	jqt "$1" counters '[.counters.per_cpu[].ipc] | all(. == null or . > 0)' "IPC is n/a or > 0, never 0.00"
	jqt "$1" counters '[.counters.per_cpu[].values["context-switches"]] | all(. != null)' \
		"software counters count"
	like "$(out "$1" csv | head -1)" ',cycles_per_s,.*,ipc,miss_rate_pct$' "$1: --csv --counters has the counter columns"
	is "$(out "$1" csv | sed 1d | grep -c '^[0-9]')" 4 "$1: one CSV row per CPU"
	like "$(out "$1" events)" 'libpfm4: not built in' "$1: events says libpfm4 is not built in (not 'failed to load')"
}

# shellcheck disable=SC2086
armboot arm64 qemu-system-aarch64 "$kernel_arm64" arm64 clusters "" $m64
common arm64 arm64 Cortex-A53
arm64_idle arm64
clusters arm64
is "$(out arm64 uname)" aarch64 "arm64: uname -m"

# shellcheck disable=SC2086
armboot isolated qemu-system-aarch64 "$kernel_arm64" arm64 isolated "isolcpus=1 nohz_full=1" $m64
jqt isolated snapshot '.system.isolated == "1" and .system.nohz_full == "1"' "isolcpus=1 nohz_full=1 seen"
jqt isolated isolation '.isolation.housekeeping_cpus == "0,2-3" or .isolation.housekeeping_cpus == [0,2,3]' \
	"housekeeping CPUs 0,2-3"
jqt isolated isolation '[.isolation.rt_unpinned[] | select(.comm == "sleep")] | length == 1' \
	"an RT thread with the default (housekeeping) affinity is rt-unpinned, not 'pinned'"

# -icount shift=0: QEMU's PMU counts instructions only with icount
# shellcheck disable=SC2086
armboot rt qemu-system-aarch64 "$kernel_rt" arm64 clusters "" $m64 -icount shift=0
common rt arm64 Cortex-A53
arm64_idle rt
clusters rt
jqt rt snapshot '.system.preempt == "PREEMPT_RT"' "the RT kernel is seen as PREEMPT_RT"
jqt rt counters '[.counters.per_cpu[].ipc] | any(. != null and . > 0)' \
	"with -icount instructions count: an IPC > 0"
jqt arm64 counters '.counters.errors.instructions | test("ENOENT")' \
	"without -icount the PMU has no instructions event: n/a with the reason"

# shellcheck disable=SC2086
armboot armhf qemu-system-arm "$kernel_armhf" armhf clusters "" $m32
common armhf arm Cortex-A15
# armmp 6.1 takes clusters from MPIDR, not cpu-map (all CPUs in one), and
# has no cpuidle driver: n/a, not invented
jqt armhf snapshot '[.cpus[].cluster_id] | all(. == null)' "cluster_id -1 in sysfs is n/a (null)"
jqt armhf snapshot '.cpuidle.driver == null and ([.cpus[].idle | length] | add) == 0' \
	"no cpuidle driver: no idle states, driver null"
is "$(out armhf uname)" armv7l "armhf: uname -m"
diag "arm stage: $(($(date +%s) - t_start)) s"
done_testing
