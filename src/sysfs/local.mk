libtunetop_a_SOURCES += src/sysfs/sysroot.c src/sysfs/sysroot.h
