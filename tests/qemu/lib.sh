# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers of the real-kernel stages under QEMU (tests/qemu/boot.sh:
# arm64, arm64-rt, armhf; tests/qemu/x86.sh: x86-64 with an ACPI C1 state).
# Source it after tests/lib.sh. The kernel and busybox packages come from
# `apt-get download` and are kept in $TT_QEMU_CACHE (default
# ~/.cache/tunetop/qemu) between runs.

cache=${TT_QEMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tunetop/qemu}
boot_timeout=${TT_QEMU_TIMEOUT:-240}
mkdir -p "$cache" || skip_all "cannot create the cache $cache"

# need TOOL...: skip the whole test, with the reason, when a tool is missing
need() {
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			skip_all "$t not installed (scripts/deps.sh --test installs the QEMU stage's tools)"
	done
}

# ---- packages (cached) ----------------------------------------------------
# fetch PKG:ARCH: the .deb of PKG for ARCH in the cache (downloaded once);
# prints its path
fetch() {
	glob="$cache/${1%%:*}_*_${1#*:}.deb"
	# shellcheck disable=SC2086
	f=$(ls $glob 2>/dev/null | head -1)
	if [ -z "$f" ]; then
		(cd "$cache" && apt-get download -q -o APT::Sandbox::User=root "$1") >"$TMPD/apt.log" 2>&1 ||
			return 1
		# shellcheck disable=SC2086
		f=$(ls $glob 2>/dev/null | head -1)
	fi
	[ -n "$f" ] && printf '%s\n' "$f"
}
# kernel_pkg META:ARCH: the versioned image package a metapackage depends on
# (apt-cache takes seconds: the answer is kept in the cache for a week)
kernel_pkg() {
	kp="$cache/$1.pkg"
	if [ -s "$kp" ] && [ -z "$(find "$kp" -mtime +7 2>/dev/null)" ]; then
		cat "$kp"
		return
	fi
	apt-cache depends "$1" 2>/dev/null | sed -n "s/^ *Depends: \(linux-image-[0-9][^ :]*\).*/\1/p" |
		head -1 | tee "$kp"
}
# unpack DEB DIR
unpack() { mkdir -p "$2" && dpkg-deb -x "$1" "$2"; }

# kernel NAME META ARCH: sets kernel_NAME to the vmlinuz of META:ARCH's
# image package (its config is next to it); skips the test when apt cannot
# have it
kernel() {
	pkg=$(kernel_pkg "$2:$3")
	[ -n "$pkg" ] || skip_all "apt cannot resolve $2:$3 (is the $3 architecture added? dpkg --add-architecture $3 && apt-get update)"
	deb=$(fetch "$pkg:$3") || skip_all "apt-get download $pkg:$3 failed: $(tail -1 "$TMPD/apt.log")"
	# ./boot/ unpacked once next to the .deb (the whole package is
	# decompressed to reach it: 20 s for amd64's)
	kb="$cache/boot-$pkg-$3"
	if ! ls "$kb"/boot/vmlinuz-* >/dev/null 2>&1; then
		rm -rf "$kb.tmp" && mkdir -p "$kb.tmp" &&
			dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$kb.tmp" ./boot/ 2>/dev/null &&
			rm -rf "$kb" && mv "$kb.tmp" "$kb"
	fi
	k=$(ls "$kb"/boot/vmlinuz-* 2>/dev/null | head -1)
	[ -n "$k" ] || skip_all "no vmlinuz in $deb"
	eval "kernel_$1=\$k"
	diag "kernel $1: $(basename "$k")"
}
# busybox ARCH: busybox-static for ARCH unpacked in $TMPD/bb-ARCH
busybox() {
	deb=$(fetch "busybox-static:$1") || skip_all "apt-get download busybox-static:$1 failed"
	unpack "$deb" "$TMPD/bb-$1"
}

# initrd NAME ARCH TUNETOP [FILE=PATH...]: $TMPD/initrd-NAME.gz, a busybox
# initramfs with TUNETOP as /bin/tunetop, tests/qemu/guest.sh as /init and
# each FILE at PATH inside
initrd() {
	d="$TMPD/ird-$1"
	mkdir -p "$d/bin"
	cp "$TMPD/bb-$2/bin/busybox" "$d/bin/busybox"
	cp "$3" "$d/bin/tunetop"
	cp "$TT_SRCDIR/tests/qemu/guest.sh" "$d/init"
	chmod 755 "$d/init" "$d/bin/busybox" "$d/bin/tunetop"
	n=$1
	shift 3
	for fp in "$@"; do
		mkdir -p "$d/$(dirname "${fp#*=}")"
		cp -L "${fp%%=*}" "$d/${fp#*=}"
	done
	(cd "$d" && find . | cpio -o -H newc 2>/dev/null | gzip -1 >"$TMPD/initrd-$n.gz")
}

# ---- boot ------------------------------------------------------------------
# boot NAME QEMU KERNEL INITRD APPEND QEMU_ARGS...: the console in
# $TMPD/NAME.log, each command's output in $TMPD/NAME/<cmd> (guest.sh's
# markers), its exit status in $TMPD/NAME/<cmd>.rc
boot() {
	n=$1 q=$2 k=$3 i=$4 a=$5
	shift 5
	s0=$(date +%s)
	timeout "$boot_timeout" "$q" "$@" -nographic -no-reboot -kernel "$k" -initrd "$i" \
		-append "quiet loglevel=1 panic=-1 $a" </dev/null >"$TMPD/$n.log" 2>&1
	rc=$?
	diag "$n: qemu exit $rc after $(($(date +%s) - s0)) s"
	parse "$n"
	ok $? "$n: the guest ran its batch and powered off (exit $rc)" ||
		tail -20 "$TMPD/$n.log" | sed 's/^/# /'
}
# parse NAME: $TMPD/NAME.log (a console) into $TMPD/NAME/<cmd>; true when
# the batch ran to its end
parse() {
	mkdir -p "$TMPD/$1"
	tr -d '\r' <"$TMPD/$1.log" | awk -v dir="$TMPD/$1" '
		/^@@TT-BEGIN / { f = dir "/" $2; printf "" > f; next }
		/^@@TT-END /   { split($3, r, "="); print r[2] > (f ".rc"); close(f); f = ""; next }
		f != ""        { print >> f }'
	grep -q '^@@TT-DONE' "$TMPD/$1.log"
}
out() { cat "$TMPD/$1/$2" 2>/dev/null; }
rc_of() { cat "$TMPD/$1/$2.rc" 2>/dev/null || echo missing; }
# jqt NAME CMD FILTER DESCRIPTION: jq -e FILTER on the command's JSON
jqt() {
	if jq -e "$3" "$TMPD/$1/$2" >/dev/null 2>&1; then
		ok 0 "$1: $4"
	else
		ok 1 "$1: $4"
		diag "jq -e '$3' failed on $2: $(head -c 300 "$TMPD/$1/$2" 2>/dev/null)"
	fi
}
# shellcheck disable=SC2034 # used by boot.sh and x86.sh
# Every CPU's idle-state residency against its idle time from /proc/stat:
# at least 90 % on a CPU that was idle (< 5 % busy), never more than 100.5.
residency_ok='[.cpus[] | select(.online) | {u: .util_pct, s: ([.idle[]?.residency_pct // 0] | add)}]
	| length > 0 and all(.s <= 100.5 and (.u == null or .u >= 5 or .s >= 90))'
