# SPDX-License-Identifier: GPL-2.0-or-later
libtunetop_a_SOURCES += src/sysfs/sysroot.c src/sysfs/sysroot.h
libtunetop_a_SOURCES += src/sysfs/capture.c src/sysfs/capture.h src/sysfs/tarw.c src/sysfs/tarw.h
libtunetop_a_SOURCES += src/sysfs/userfile.c src/sysfs/userfile.h
libtunetop_a_SOURCES += src/sysfs/logfollow.c src/sysfs/logfollow.h
