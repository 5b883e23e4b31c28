# SPDX-License-Identifier: GPL-2.0-or-later
check_PROGRAMS += tests/unit/test_core
tests_unit_test_core_SOURCES = tests/unit/test_core.c
tests_unit_test_core_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_core
# Benchmark programs: built with the tests, run only by `make bench`.
check_PROGRAMS += tests/bench/bench_sample
tests_bench_bench_sample_SOURCES = tests/bench/bench_sample.c
tests_bench_bench_sample_LDADD = $(TT_TEST_LIBS)
check_PROGRAMS += tests/bench/bench_record
tests_bench_bench_record_SOURCES = tests/bench/bench_record.c src/model/sim.c
tests_bench_bench_record_LDADD = $(TT_TEST_LIBS)
EXTRA_DIST += tests/bench/record_size.sh tests/bench/serve.sh
check_PROGRAMS += tests/unit/test_model
tests_unit_test_model_SOURCES = tests/unit/test_model.c
tests_unit_test_model_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_model
check_PROGRAMS += tests/unit/test_refresh
tests_unit_test_refresh_SOURCES = tests/unit/test_refresh.c
tests_unit_test_refresh_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_refresh
# err_name covers the whole Linux errno set (issue 13)
check_PROGRAMS += tests/unit/test_err
tests_unit_test_err_SOURCES = tests/unit/test_err.c
tests_unit_test_err_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_err
# sysroot: a --root tree holds (symlinks out refused), writes renamed into
# place, whole-file reads capped (issue 13)
check_PROGRAMS += tests/unit/test_sysroot
tests_unit_test_sysroot_SOURCES = tests/unit/test_sysroot.c
tests_unit_test_sysroot_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_sysroot
# files opened by name: src/sysfs/userfile.c and its users (issue 13)
check_PROGRAMS += tests/unit/test_userfile
tests_unit_test_userfile_SOURCES = tests/unit/test_userfile.c src/ui/theme.c src/ui/config.c \
	src/ui/counters_fmt.c
tests_unit_test_userfile_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_userfile
# what the linked INI parser makes of profiles, themes and edge cases: run
# by tests/cli/small_builds.sh against a --with-inih=bundled build (issue 16)
check_PROGRAMS += tests/unit/ini_dump
tests_unit_ini_dump_SOURCES = tests/unit/ini_dump.c src/ui/theme.c
tests_unit_ini_dump_LDADD = $(TT_TEST_LIBS)
# the log follower of --metric-file (issue 17)
check_PROGRAMS += tests/unit/test_logfollow
tests_unit_test_logfollow_SOURCES = tests/unit/test_logfollow.c
tests_unit_test_logfollow_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_logfollow
# the helpers the section writers share: JSON lists and n/a forms,
# src/out/fmt.c (issue 14)
check_PROGRAMS += tests/unit/test_outfmt
tests_unit_test_outfmt_SOURCES = tests/unit/test_outfmt.c
tests_unit_test_outfmt_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_outfmt
# helpers of the low layers shared by sources and knobs (issue 14)
check_PROGRAMS += tests/unit/test_lowhelpers
tests_unit_test_lowhelpers_SOURCES = tests/unit/test_lowhelpers.c
tests_unit_test_lowhelpers_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_lowhelpers
# the field tables of the snapshot JSON: record -> replay lossless for every row (issue 33)
check_PROGRAMS += tests/unit/test_jfield
tests_unit_test_jfield_SOURCES = tests/unit/test_jfield.c
tests_unit_test_jfield_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_jfield
