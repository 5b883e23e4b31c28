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

# The --demo boards: a fixture tree as a ustar archive per board (BOARD-demo.tar,
# symlinks kept) without its processes (proc/PID: a world writes its own
# application's threads into its tree, the demo shows no thread, never the
# host's): rk3588 for --demo and rk3588-npu, rpi4 for the schedutil world,
# stm32mp157 for stm32mp1-rpmsg (issue 35). Found by the program next to
# itself in the build directory and in $(pkgdatadir)/demo once installed.
# configure --disable-demo neither builds nor installs them.
DEMO_TARS = rk3588-demo.tar rpi4-demo.tar stm32mp157-demo.tar
# am5729 for am5729-affinity, b4860 for rt-base-station
DEMO_TARS += am5729-demo.tar b4860-demo.tar
if ENABLE_DEMO
demodir = $(pkgdatadir)/demo
demo_DATA = $(DEMO_TARS)
endif
CLEANFILES += $(DEMO_TARS)
# make_demo_tar BOARD: the fixture tree BOARD as $@
make_demo_tar = rm -f $@.tmp && \
	(cd $(FIXTURES_DIR) && \
	 tar --format=ustar --owner=0 --group=0 --numeric-owner --sort=name \
	   --exclude="$$board/proc/[0-9]*" -cf - "$$board" 2>/dev/null || \
	 tar -cf - "$$board") > $@.tmp && mv $@.tmp $@
rk3588-demo.tar: $(FIXTURES_DIR)/rk3588/proc/stat $(FIXTURES_DIR)/rk3588/sys/devices/system/cpu/online \
		$(FIXTURES_DIR)/rk3588/proc/1842/task/1846/stat
	$(AM_V_GEN)board=rk3588; $(make_demo_tar)
rpi4-demo.tar: $(FIXTURES_DIR)/rpi4/proc/stat $(FIXTURES_DIR)/rpi4/sys/devices/system/cpu/online
	$(AM_V_GEN)board=rpi4; $(make_demo_tar)
stm32mp157-demo.tar: $(FIXTURES_DIR)/stm32mp157/proc/stat \
		$(FIXTURES_DIR)/stm32mp157/sys/devices/system/cpu/online
	$(AM_V_GEN)board=stm32mp157; $(make_demo_tar)
am5729-demo.tar: $(FIXTURES_DIR)/am5729/proc/stat $(FIXTURES_DIR)/am5729/sys/devices/system/cpu/online
	$(AM_V_GEN)board=am5729; $(make_demo_tar)
b4860-demo.tar: $(FIXTURES_DIR)/b4860/proc/stat $(FIXTURES_DIR)/b4860/sys/devices/system/cpu/online
	$(AM_V_GEN)board=b4860; $(make_demo_tar)
