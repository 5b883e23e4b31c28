# tests for source (see tests/local.mk)
check_PROGRAMS += tests/unit/test_cpufreq
tests_unit_test_cpufreq_SOURCES = tests/unit/test_cpufreq.c
tests_unit_test_cpufreq_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_cpufreq
check_PROGRAMS += tests/unit/test_cpuidle
tests_unit_test_cpuidle_SOURCES = tests/unit/test_cpuidle.c
tests_unit_test_cpuidle_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_cpuidle
