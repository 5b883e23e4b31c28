# SPDX-License-Identifier: GPL-2.0-or-later
# knob layer sources
libtunetop_a_SOURCES += \
	src/knob/knob.h src/knob/knob_int.h \
	src/knob/addr.c src/knob/knob_table.c src/knob/engine.c src/knob/undo.c \
	src/knob/journal.c src/knob/journal.h src/knob/lease.c src/knob/profile.c \
	src/knob/fam_thread.c src/knob/fam_irq.c src/knob/effect.c \
	src/knob/hold.c src/knob/hold.h src/knob/appcg.c
