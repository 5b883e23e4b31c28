#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Cross-build for arm64 with Debian's cross toolchain and :arm64 dev packages,
# then run the arm64 binary under qemu-aarch64 on the RK3588 fixture.
. "$TT_SRCDIR/tests/lib.sh"

case "${TT_HOST:-}" in aarch64*) skip_all "this build is already arm64" ;; esac
[ -z "${TT_SKIP_CROSS:-}" ] || skip_all "cross build already tested in the first build of run-all.sh"
command -v aarch64-linux-gnu-gcc >/dev/null || skip_all "aarch64-linux-gnu-gcc not installed (apt-get install gcc-aarch64-linux-gnu)"
command -v qemu-aarch64 >/dev/null || skip_all "qemu-aarch64 not installed (apt-get install qemu-user)"
[ -f /usr/lib/aarch64-linux-gnu/pkgconfig/ncursesw.pc ] || skip_all "libncurses-dev:arm64 not installed"
[ -f /usr/lib/aarch64-linux-gnu/pkgconfig/inih.pc ] || skip_all "libinih-dev:arm64 not installed"

b="$TMPD/arm64"
mkdir -p "$b"
(cd "$b" && PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
	"$TT_SRCDIR/configure" -q --host=aarch64-linux-gnu >configure.log 2>&1)
ok $? "configure --host=aarch64-linux-gnu"
make -C "$b" -j2 tunetop >"$b/make.log" 2>&1
ok $? "cross-build tunetop for arm64" || tail -20 "$b/make.log" | sed 's/^/# /'
like "$(file -b "$b/tunetop" 2>/dev/null || od -An -tx1 -j18 -N2 "$b/tunetop")" "aarch64|ARM aarch64|b7 00" "the binary is arm64"
out=$(QEMU_LD_PREFIX=/usr/aarch64-linux-gnu qemu-aarch64 "$b/tunetop" --root "$FIXTURES/rk3588" snapshot --json --interval 0 --stable 2>&1)
ok $? "arm64 binary runs under qemu-aarch64"
like "$out" '"name":"policy4"' "arm64 binary reads the RK3588 fixture (policy4)"
like "$out" '"core_type":"Cortex-A76"' "arm64 binary names the A76 cores"
size=$(stat -c %s "$b/tunetop")
diag "arm64 binary size: $size bytes (unstripped)"
done_testing
