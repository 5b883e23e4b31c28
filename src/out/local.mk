# SPDX-License-Identifier: GPL-2.0-or-later
libtunetop_a_SOURCES += src/out/report_render.c
libtunetop_a_SOURCES += src/out/cpufreq_out.c src/out/cpufreq_out.h src/out/cpuidle_out.c src/out/cpuidle_out.h
libtunetop_a_SOURCES += src/out/threads_out.c src/out/threads_out.h \
	src/out/irqs_out.c src/out/irqs_out.h
libtunetop_a_SOURCES += src/out/devfreq_out.c src/out/devfreq_out.h src/out/rt_out.c src/out/rt_out.h src/out/thermal_out.c src/out/thermal_out.h
libtunetop_a_SOURCES += src/out/report.c src/out/report.h
libtunetop_a_SOURCES += src/out/perf_out.c src/out/perf_out.h src/out/remoteproc_out.c src/out/remoteproc_out.h
libtunetop_a_SOURCES += src/out/accel_out.c src/out/accel_out.h
libtunetop_a_SOURCES += src/out/findings_out.c src/out/findings_out.h
libtunetop_a_SOURCES += src/out/openmetrics.c src/out/openmetrics.h
libtunetop_a_SOURCES += src/out/kconfig_out.c src/out/kconfig_out.h
libtunetop_a_SOURCES += src/out/fmt.c src/out/fmt.h
