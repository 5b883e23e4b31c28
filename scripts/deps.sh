#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what tunetop needs to build and test on Debian/Ubuntu, when missing.
#   scripts/deps.sh          build dependencies
#   scripts/deps.sh --test   build + test dependencies (tmux, rt-tests, perf,
#                            debhelper, lintian and zsh for the packaging and
#                            completion tests,
#                            arm64 cross toolchain and qemu-user, chromium,
#                            clang with libFuzzer for tests/fuzz, and for
#                            tests/qemu qemu-system-arm, dtc and the armhf
#                            cross toolchain, qemu-system-x86 and iasl
#                            (acpica-tools), python3-jsonschema for
#                            tests/cli/schema.sh, prometheus (promtool) for
#                            tests/cli/openmetrics.sh, musl-tools for
#                            tests/cli/musl.sh, strace for
#                            tests/knob/durability.sh)
set -e
pkgs="build-essential autoconf automake pkg-config libncurses-dev libinih-dev libpfm4-dev libsensors-dev libzstd-dev zlib1g-dev libtracefs-dev libtraceevent-dev"
if [ "${1:-}" = "--test" ]; then
	pkgs="$pkgs tmux rt-tests htop linux-perf procps util-linux python3 jq file time zstd gcc-aarch64-linux-gnu qemu-user clang-format clang"
	# tests/cli/packaging.sh builds the .deb and runs lintian; tests/cli/completion.sh runs zsh
	pkgs="$pkgs debhelper lintian zsh"
	# tests/cli/schema.sh validates JSON against doc/schema; tests/cli/openmetrics.sh scrapes with Prometheus
	pkgs="$pkgs python3-jsonschema prometheus"
	# the real-kernel stage (tests/qemu): system emulators, dtc, the armhf
	# cross compiler and static libraries for both ARM targets
	pkgs="$pkgs qemu-system-arm device-tree-compiler cpio gcc-arm-linux-gnueabihf"
	# tests/qemu/x86.sh: the x86-64 emulator and iasl for its SSDT
	pkgs="$pkgs qemu-system-x86 acpica-tools"
	# tests/cli/musl.sh: a static musl build (musl-gcc) and the kernel's
	# uapi headers it compiles against
	pkgs="$pkgs musl-tools linux-libc-dev"
	# tests/knob/durability.sh: the order of system calls (journal synced before the knob write)
	pkgs="$pkgs strace"
	# tests/findings/report.sh renders the HTML report in headless Chromium
	# (~80 MB download, 290 MB installed)
	pkgs="$pkgs chromium"
	arm64="libncurses-dev:arm64 libinih-dev:arm64 libpfm4-dev:arm64 libsensors-dev:arm64 libzstd-dev:arm64 zlib1g-dev:arm64 libc6-dev:arm64"
	arm64="$arm64 libncurses-dev:armhf libinih-dev:armhf zlib1g-dev:armhf libc6-dev:armhf"
fi
missing=""
for p in $pkgs ${arm64:-}; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
		echo "deps.sh: missing packages:$missing (run as root to install them)" >&2
		exit 1
	fi
fi
for a in arm64 armhf; do
	case "$missing" in *:$a*)
		${SUDO:-} dpkg --print-foreign-architectures | grep -qx $a || ${SUDO:-} dpkg --add-architecture $a ;;
	esac
done
echo "deps.sh: installing$missing" >&2
${SUDO:-} apt-get update -qq
# The arm64 dev packages are a nicety for the cross-build test: never fail the
# whole install because the foreign architecture is not served.
native=$(echo "$missing" | tr ' ' '\n' | grep -v ':arm' | tr '\n' ' ')
foreign=$(echo "$missing" | tr ' ' '\n' | grep ':arm' | tr '\n' ' ')
[ -n "${native% }" ] && DEBIAN_FRONTEND=noninteractive ${SUDO:-} apt-get install -y -qq $native >/dev/null
if [ -n "${foreign% }" ]; then
	DEBIAN_FRONTEND=noninteractive ${SUDO:-} apt-get install -y -qq $foreign >/dev/null ||
		echo "deps.sh: arm64/armhf dev packages unavailable; the cross-build and QEMU tests will be skipped" >&2
fi
exit 0
