# SPDX-License-Identifier: GPL-2.0-or-later
# The commands (one file per command family) and their shared runner
# (common.c). Each parses its options, calls the layers below and prints;
# main.c dispatches to them through its command table (cmd.h). They are in
# the library too: lessons and the fuzz harnesses link what they need.
libtunetop_a_SOURCES += src/cmd/cmd.h src/cmd/common.h src/cmd/common.c \
	src/cmd/cmd_snapshot.c src/cmd/cmd_events.c src/cmd/cmd_explain.c \
	src/cmd/cmd_report.c src/cmd/cmd_learn.c src/cmd/cmd_serve.c \
	src/cmd/cmd_knob.c src/cmd/cmd_exec.c \
	src/cmd/cmd_probe.c src/cmd/cmd_ab.c \
	src/cmd/cmd_why.c src/cmd/table.c src/cmd/complete.c
# probe --why (issue 29): capture, attribution, reports
libtunetop_a_SOURCES += src/cmd/probe_why.c src/cmd/probe_why.h \
	src/cmd/probe_opts.h
# tunetop world (issue 35)
libtunetop_a_SOURCES += src/cmd/cmd_world.c
