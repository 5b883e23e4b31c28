#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Cross-build for 32-bit ARM (armhf: STM32MP1's Cortex-A7, AM57x's Cortex-A15)
# with Debian's cross toolchain and :armhf dev packages, -Werror and 64-bit
# time_t and file offsets (-D_TIME_BITS=64, as Debian's armhf moves to), then
# run the 32-bit binary under qemu-arm on every fixture: its snapshot, text
# and JSON, must equal the native binary's byte for byte (64-bit counters,
# frequencies in kHz and nanosecond times must not wrap or round on 32 bits).
. "$TT_SRCDIR/tests/lib.sh"

case "${TT_HOST:-}" in arm*) skip_all "this build is already 32-bit ARM" ;; esac
[ -z "${TT_SKIP_CROSS:-}" ] || skip_all "cross build already tested in the first build of run-all.sh"
command -v arm-linux-gnueabihf-gcc >/dev/null || skip_all "arm-linux-gnueabihf-gcc not installed (apt-get install gcc-arm-linux-gnueabihf)"
command -v qemu-arm >/dev/null || skip_all "qemu-arm not installed (apt-get install qemu-user)"
pc=/usr/lib/arm-linux-gnueabihf/pkgconfig
[ -f $pc/ncursesw.pc ] || skip_all "libncurses-dev:armhf not installed"
[ -f $pc/inih.pc ] || skip_all "libinih-dev:armhf not installed"

b="$TMPD/armhf"
mkdir -p "$b"
(cd "$b" && PKG_CONFIG_LIBDIR=$pc:/usr/share/pkgconfig \
	"$TT_SRCDIR/configure" -q --host=arm-linux-gnueabihf --enable-werror \
	CFLAGS="-O2 -g -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64" >configure.log 2>&1)
ok $? "configure --host=arm-linux-gnueabihf --enable-werror, 64-bit time_t"
make -C "$b" -j2 tunetop >"$b/make.log" 2>&1
ok $? "cross-build tunetop for armhf without a warning" || grep -E 'error|warning' "$b/make.log" | head -20 | sed 's/^/# /'
like "$(file -b "$b/tunetop" 2>/dev/null)" "ELF 32-bit LSB .*ARM" "the binary is 32-bit ARM"
same_snapshots armhf env QEMU_LD_PREFIX=/usr/arm-linux-gnueabihf qemu-arm "$b/tunetop"
like "$(cat "$TMPD/armhf.stm32mp157.json")" '"core_type":"Cortex-A7"' "armhf binary names the STM32MP1's Cortex-A7"
diag "armhf binary size: $(stat -c %s "$b/tunetop") bytes (unstripped)"
done_testing
