# SPDX-License-Identifier: GPL-2.0-or-later
# libFuzzer harnesses for the parsers fed from outside (doc/fuzzing.md).
# Built with clang by tests/fuzz/build.sh, never by the normal build:
#   make fuzz                  build, then run each harness FUZZ_SECONDS (600)
#   make fuzz FUZZ_SECONDS=60 FUZZ_ONLY='json tar'
#   make fuzz-build            build only (tests/fuzz/out/fuzz_NAME)
# tests/fuzz/smoke.sh (in make check) runs each for 5 s; TT_SKIP_FUZZ=1 skips it.
FUZZ_SECONDS = 600
FUZZ_ONLY =
FUZZ_OUT = tests/fuzz/out
FUZZ_HARNESS_FILES = tests/fuzz/fuzz.h tests/fuzz/fuzz_json.c tests/fuzz/fuzz_replay.c \
	tests/fuzz/fuzz_irqs.c tests/fuzz/fuzz_softirqs.c tests/fuzz/fuzz_threads.c \
	tests/fuzz/fuzz_rt.c tests/fuzz/fuzz_journal.c tests/fuzz/fuzz_profile.c \
	tests/fuzz/fuzz_theme.c tests/fuzz/fuzz_config.c tests/fuzz/fuzz_tar.c \
	tests/fuzz/fuzz_cpulist.c tests/fuzz/fuzz_str.c tests/fuzz/fuzz_procstat.c \
	tests/fuzz/fuzz_report.c tests/fuzz/fuzz_accel.c tests/fuzz/fuzz_kconfig.c \
	tests/fuzz/fuzz_whyev.c
EXTRA_DIST += $(FUZZ_HARNESS_FILES) tests/fuzz/build.sh tests/fuzz/seeds.sh tests/fuzz/run.sh \
	tests/fuzz/smoke.sh tests/fuzz/seeds/tunetoprc tests/fuzz/seeds/cpulist \
	tests/fuzz/seeds/journal
TESTS += tests/fuzz/smoke.sh

# The sources under test: the library plus the curses-free parts of the UI
# (build.sh compiles the .c files among them).
FUZZ_SRCS = $(libtunetop_a_SOURCES) src/ui/theme.c src/ui/config.c \
	src/ui/counters_fmt.c

fuzz-build: config.h
	@TT_SRCDIR='$(abs_top_srcdir)' TT_BUILDDIR='$(abs_top_builddir)' \
	FUZZ_SRCS='$(FUZZ_SRCS)' FUZZ_CFLAGS='$(INIH_CFLAGS) $(ZSTD_CFLAGS) $(ZLIB_CFLAGS) $(TRACEFS_CFLAGS)' \
	FUZZ_LIBS='$(INIH_LIBS) $(PFM_LIBS) $(SENSORS_LIBS) $(ZSTD_LIBS) $(ZLIB_LIBS) $(TRACEFS_LIBS) $(LIBS)' \
	$(SHELL) $(top_srcdir)/tests/fuzz/build.sh $(FUZZ_OUT) $(FUZZ_ONLY)

fuzz: fuzz-build tunetop$(EXEEXT)
	@TT_SRCDIR='$(abs_top_srcdir)' FIXTURES='$(FIXTURES_DIR)' \
	TUNETOP='$(abs_top_builddir)/tunetop$(EXEEXT)' \
	$(SHELL) $(top_srcdir)/tests/fuzz/run.sh $(FUZZ_OUT) $(FUZZ_SECONDS) $(FUZZ_ONLY)

clean-local: clean-fuzz
clean-fuzz:
	rm -rf $(FUZZ_OUT)

.PHONY: fuzz fuzz-build clean-fuzz
