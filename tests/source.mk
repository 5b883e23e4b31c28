# SPDX-License-Identifier: GPL-2.0-or-later
# tests for source (see tests/local.mk)
check_PROGRAMS += tests/unit/test_cpufreq
tests_unit_test_cpufreq_SOURCES = tests/unit/test_cpufreq.c
tests_unit_test_cpufreq_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_cpufreq
check_PROGRAMS += tests/unit/test_cpuidle
tests_unit_test_cpuidle_SOURCES = tests/unit/test_cpuidle.c
tests_unit_test_cpuidle_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_cpuidle
# threads, irqs, softirqs (unit + live + bench helpers)
check_PROGRAMS += tests/unit/test_irqs tests/unit/test_softirqs tests/unit/test_threads \
	tests/live/threads_helper tests/live/threads_dump tests/live/bench_threads
tests_unit_test_irqs_SOURCES = tests/unit/test_irqs.c
tests_unit_test_irqs_LDADD = $(TT_TEST_LIBS)
tests_unit_test_softirqs_SOURCES = tests/unit/test_softirqs.c
tests_unit_test_softirqs_LDADD = $(TT_TEST_LIBS)
tests_unit_test_threads_SOURCES = tests/unit/test_threads.c
tests_unit_test_threads_LDADD = $(TT_TEST_LIBS)
tests_live_threads_helper_SOURCES = tests/live/threads_helper.c
tests_live_threads_dump_SOURCES = tests/live/threads_dump.c
tests_live_threads_dump_LDADD = $(TT_TEST_LIBS)
tests_live_bench_threads_SOURCES = tests/live/bench_threads.c
tests_live_bench_threads_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_irqs tests/unit/test_softirqs tests/unit/test_threads tests/live/threads.sh
EXTRA_DIST += tests/live/threads.sh
check_PROGRAMS += tests/unit/test_devfreq
tests_unit_test_devfreq_SOURCES = tests/unit/test_devfreq.c
tests_unit_test_devfreq_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_devfreq
check_PROGRAMS += tests/unit/test_rt
tests_unit_test_rt_SOURCES = tests/unit/test_rt.c
tests_unit_test_rt_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_rt
check_PROGRAMS += tests/unit/test_thermal
tests_unit_test_thermal_SOURCES = tests/unit/test_thermal.c
tests_unit_test_thermal_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_thermal
# perf counters, libpfm4, remoteproc (unit + live)
check_PROGRAMS += tests/unit/test_perf tests/unit/test_pfm tests/unit/test_remoteproc \
	tests/unit/test_perf_live tests/live/pingpong
tests_unit_test_perf_SOURCES = tests/unit/test_perf.c
tests_unit_test_perf_LDADD = $(TT_TEST_LIBS)
tests_unit_test_pfm_SOURCES = tests/unit/test_pfm.c
tests_unit_test_pfm_LDADD = $(TT_TEST_LIBS)
tests_unit_test_remoteproc_SOURCES = tests/unit/test_remoteproc.c
tests_unit_test_remoteproc_LDADD = $(TT_TEST_LIBS)
tests_unit_test_perf_live_SOURCES = tests/unit/test_perf_live.c
tests_unit_test_perf_live_LDADD = $(TT_TEST_LIBS)
tests_live_pingpong_SOURCES = tests/live/pingpong.c
TESTS += tests/unit/test_perf tests/unit/test_pfm tests/unit/test_remoteproc \
	tests/unit/test_perf_live tests/live/perf_stat.sh tests/live/perf_events.sh
EXTRA_DIST += tests/live/perf_stat.sh tests/live/perf_events.sh tests/bench/perf.sh
check_PROGRAMS += tests/unit/test_accel
tests_unit_test_accel_SOURCES = tests/unit/test_accel.c
tests_unit_test_accel_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_accel
check_PROGRAMS += tests/unit/test_kconfig
tests_unit_test_kconfig_SOURCES = tests/unit/test_kconfig.c
tests_unit_test_kconfig_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_kconfig
check_PROGRAMS += tests/bench/bench_kconfig
tests_bench_bench_kconfig_SOURCES = tests/bench/bench_kconfig.c
tests_bench_bench_kconfig_LDADD = $(TT_TEST_LIBS)
