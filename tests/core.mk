check_PROGRAMS += tests/unit/test_core
tests_unit_test_core_SOURCES = tests/unit/test_core.c
tests_unit_test_core_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_core
