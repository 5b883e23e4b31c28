# SPDX-License-Identifier: GPL-2.0-or-later
SUMMARY = "htop-style monitor and tuner for Linux latency and jitter"
DESCRIPTION = "tunetop shows per core and per cluster what causes latency \
jitter (cpufreq, idle states, devfreq, RT and thermal throttling, IRQ and \
thread placement) and changes those knobs live with an undo journal."
HOMEPAGE = "https://github.com/tunetop/tunetop"
BUGTRACKER = "https://github.com/tunetop/tunetop/issues"
SECTION = "console/utils"
LICENSE = "GPL-2.0-or-later"
LIC_FILES_CHKSUM = "file://COPYING;md5=b234ee4d69f5fce4486a80fdaf4a4263"

# the release tarball (make dist): configure is generated, the fixtures
# are one archive
SRC_URI = "https://github.com/tunetop/tunetop/releases/download/v${PV}/${BP}.tar.gz"
SRC_URI[sha256sum] = "6a078ba9be0cce15498baa2e100c5405ff22b90fe00f4710a35e1075d79d6580"

inherit autotools pkgconfig bash-completion systemd

# the template unit tunetop@PROFILE.service (a profile applied while it is
# active) goes where this distro keeps units; systemd.bbclass packages it
# and drops it when systemd is not in DISTRO_FEATURES. It is a template
# that needs a profile name: installed, not enabled.
EXTRA_OECONF += "--with-systemdsystemunitdir=${systemd_system_unitdir}"
SYSTEMD_SERVICE:${PN} = "tunetop@.service"
SYSTEMD_AUTO_ENABLE:${PN} = "disable"

# libinih, libpfm4, lmsensors and libtracefs come from meta-oe; without it,
# PACKAGECONFIG:remove:pn-tunetop = "inih sensors tracefs" builds the bundled
# INI parser and leaves those parts out.
PACKAGECONFIG ??= "tui inih demo sensors zstd zlib tracefs"
# meta-oe's libpfm4 builds only for these (its COMPATIBLE_HOST)
PACKAGECONFIG:append:aarch64 = " pfm"
PACKAGECONFIG:append:powerpc64 = " pfm"
PACKAGECONFIG:append:powerpc64le = " pfm"

# the interactive monitor (ncursesw); without it a headless build
PACKAGECONFIG[tui] = "--enable-tui,--disable-tui,ncurses,ncurses-terminfo-base"
# libinih, or the parser in src/third_party/inih compiled in
PACKAGECONFIG[inih] = "--with-inih=system,--with-inih=bundled,libinih"
# the simulated board behind --demo (about 800 KB in ${datadir}/tunetop)
PACKAGECONFIG[demo] = "--enable-demo,--disable-demo"
# named PMU events: libpfm4 is loaded with dlopen(), so the package
# dependency is not found from the binary and is given here
PACKAGECONFIG[pfm] = "--with-libpfm=yes,--with-libpfm=no,libpfm4,libpfm4"
PACKAGECONFIG[sensors] = "--with-sensors=yes,--with-sensors=no,lmsensors"
PACKAGECONFIG[zstd] = "--with-zstd=yes,--with-zstd=no,zstd"
PACKAGECONFIG[zlib] = "--with-zlib=yes,--with-zlib=no,zlib"
# probe --why: the scheduler and IRQ events through libtracefs
PACKAGECONFIG[tracefs] = "--with-tracefs=yes,--with-tracefs=no,libtracefs libtraceevent"

# profiles and themes are in ${datadir}/tunetop (the default FILES), the
# bash completion in ${PN}-bash-completion (bash-completion.bbclass), the
# unit in ${PN} (systemd.bbclass); the zsh completion goes with the program
FILES:${PN} += "${datadir}/zsh"
