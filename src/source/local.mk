# SPDX-License-Identifier: GPL-2.0-or-later
# source layer sources
libtunetop_a_SOURCES += src/source/topology.c src/source/topology.h
libtunetop_a_SOURCES += src/source/procstat.c src/source/procstat.h src/source/system.c src/source/system.h
libtunetop_a_SOURCES += src/source/cpufreq.c src/source/cpufreq.h src/source/cpuidle.c src/source/cpuidle.h
libtunetop_a_SOURCES += src/source/threads.c src/source/threads.h \
	src/source/irqs.c src/source/irqs.h \
	src/source/softirqs.c src/source/softirqs.h \
	src/source/schedattr.c src/source/schedattr.h
libtunetop_a_SOURCES += src/source/devfreq.c src/source/devfreq.h src/source/rt.c src/source/rt.h src/source/thermal.c src/source/thermal.h
libtunetop_a_SOURCES += src/source/perf.c src/source/perf.h src/source/pfm.c src/source/pfm.h src/source/remoteproc.c src/source/remoteproc.h
libtunetop_a_SOURCES += src/source/accel.c src/source/accel.h src/source/power.c src/source/power.h
libtunetop_a_SOURCES += src/source/kconfig.c src/source/kconfig.h
