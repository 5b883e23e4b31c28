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

SRC_URI = "git://github.com/tunetop/tunetop.git;protocol=https;branch=main"
# follows main; pin SRCREV (a commit id) in a bbappend for a reproducible build
SRCREV = "${AUTOREV}"
PV = "0.2.0+git${SRCPV}"
S = "${WORKDIR}/git"

inherit autotools pkgconfig

DEPENDS = "ncurses libinih"

PACKAGECONFIG ??= "pfm sensors zstd zlib tracefs"
PACKAGECONFIG[pfm] = "--with-libpfm=yes,--with-libpfm=no,libpfm4"
PACKAGECONFIG[sensors] = "--with-sensors=yes,--with-sensors=no,lmsensors"
PACKAGECONFIG[zstd] = "--with-zstd=yes,--with-zstd=no,zstd"
PACKAGECONFIG[zlib] = "--with-zlib=yes,--with-zlib=no,zlib"
# probe --why: the kernel's scheduler and IRQ events (libtracefs, meta-oe)
PACKAGECONFIG[tracefs] = "--with-tracefs=yes,--with-tracefs=no,libtracefs libtraceevent"

# profiles and themes are in ${datadir}/tunetop (the default FILES); the
# completions and the systemd template unit too
FILES:${PN} += "${datadir}/bash-completion ${datadir}/zsh ${prefix}/lib/systemd"
