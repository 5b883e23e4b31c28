# SPDX-License-Identifier: GPL-2.0-or-later
# ui layer: the interactive monitor. The only code that includes curses, so
# it is linked into the tunetop binary only (not libtunetop.a, which the
# tests link without curses). configure --disable-tui leaves it out.
if ENABLE_TUI
tunetop_SOURCES += \
	src/ui/tui.c src/ui/tui.h src/ui/tui_main.h src/ui/tui_int.h src/ui/tui_knob.c src/ui/tui_frame.c \
	src/ui/tui_keys.c src/ui/tui_setup.c \
	src/ui/keytable.c src/ui/keytable.h src/ui/keys.def \
	src/ui/widgets.c \
	src/ui/theme.c src/ui/theme.h \
	src/ui/config.c src/ui/config.h \
	src/ui/counters.c src/ui/counters_fmt.c src/ui/counters_fmt.h \
	src/ui/screen_cores.c \
	src/ui/screen_clocks.c \
	src/ui/screen_rt.c \
	src/ui/screen_journal.c \
	src/ui/screen_setup.c \
	src/ui/screen_help.c src/ui/screens.def \
	src/ui/screen_threads.c src/ui/screen_irqs.c \
	src/ui/screen_latency.c src/ui/latency_run.c src/ui/latency_run.h src/ui/latency_why.c \
	src/ui/playback.c src/ui/screen_findings.c src/ui/screen_lessons.c \
	src/ui/world_line.c src/ui/world_line.h
endif

# The --demo board: the RK3588 fixture as a ustar archive, built from the
# fixture tree (symlinks kept) without its processes (proc/PID: until the
# rk3588-npu world of issue 35 gives the demo threads its findings need,
# the demo shows no thread, never the host's), found by the program next to itself in the
# build directory and in $(pkgdatadir)/demo once installed. configure
# --disable-demo neither builds nor installs it.
if ENABLE_DEMO
demodir = $(pkgdatadir)/demo
demo_DATA = rk3588-demo.tar
endif
CLEANFILES += rk3588-demo.tar
rk3588-demo.tar: $(FIXTURES_DIR)/rk3588/proc/stat $(FIXTURES_DIR)/rk3588/sys/devices/system/cpu/online \
		$(FIXTURES_DIR)/rk3588/proc/1842/task/1846/stat
	$(AM_V_GEN)rm -f $@.tmp && \
	(cd $(FIXTURES_DIR) && \
	 tar --format=ustar --owner=0 --group=0 --numeric-owner --sort=name \
	   --exclude='rk3588/proc/[0-9]*' -cf - rk3588 2>/dev/null || \
	 tar -cf - rk3588) > $@.tmp && mv $@.tmp $@
