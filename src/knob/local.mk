# SPDX-License-Identifier: GPL-2.0-or-later
# knob layer sources
libtunetop_a_SOURCES += \
	src/knob/knob.h src/knob/knob_int.h src/knob/knob_addr.h \
	src/knob/addr.c src/knob/registry.c src/knob/knob_file.c src/knob/engine.c src/knob/undo.c \
	src/knob/journal.c src/knob/journal.h src/knob/lease.c src/knob/profile.c \
	src/knob/fam_thread.c src/knob/fam_irq.c src/knob/effect.c \
	src/knob/fam_cpufreq.c src/knob/fam_cpuidle.c src/knob/fam_pmqos.c src/knob/fam_devfreq.c \
	src/knob/fam_sched.c src/knob/fam_intel_pstate.c src/knob/fam_mm.c src/knob/fam_workqueue.c src/knob/fam_sim.c \
	src/knob/sim_kind.c src/knob/sim_kind.h \
	src/knob/hold.c src/knob/hold.h src/knob/appcg.c
