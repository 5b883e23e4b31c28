# SPDX-License-Identifier: GPL-2.0-or-later
libtunetop_a_SOURCES += src/model/snapshot.c src/model/snapshot.h
libtunetop_a_SOURCES += src/model/thread_sampler.c src/model/thread_sampler.h
libtunetop_a_SOURCES += src/model/selfplace.c src/model/selfplace.h
libtunetop_a_SOURCES += src/model/explain.c src/model/explain.h src/model/explain_int.h src/model/explain_table.c
libtunetop_a_SOURCES += src/model/findings.c src/model/findings.h
libtunetop_a_SOURCES += src/model/isolation.c src/model/isolation.h
libtunetop_a_SOURCES += src/model/record.c src/model/record.h src/model/replay.c src/model/replay.h
libtunetop_a_SOURCES += src/model/lessons.c src/model/lessons.h
# the simulated board behind --demo and `learn` (lessons.c steps it)
libtunetop_a_SOURCES += src/model/sim.c src/model/sim.h
# the latency models of the simulated worlds (issue 35, doc/teach.md "Worlds")
libtunetop_a_SOURCES += src/model/worldmodel.c src/model/worldmodel.h src/model/worldmodel_schedutil.c \
	src/model/worldmodel_rpmsg.c src/model/worldmodel_affinity.c src/model/worldmodel_rtbs.c \
	src/model/worldmodel_table.c
# worlds: the simulated board plus a model of its application (issue 35)
libtunetop_a_SOURCES += src/model/world.c src/model/world.h src/model/world_table.c src/model/world_rk3588.c src/model/world_rk3588.h
# the model worlds: a wm_world of worldmodel.h as a world (issue 35, world_wm.h)
libtunetop_a_SOURCES += src/model/world_wm.h src/model/world_wm.c src/model/world_wm_tree.c src/model/world_schedutil.c src/model/world_rpmsg.c
libtunetop_a_SOURCES += src/model/world_why.c src/model/world_why.h
libtunetop_a_SOURCES += src/model/world_probe.c src/model/world_probe.h
libtunetop_a_SOURCES += src/model/world_app.c src/model/world_app.h
# the model worlds am5729-affinity and rt-base-station: their readers (issue 35)
libtunetop_a_SOURCES += src/model/world_proc.c src/model/world_proc.h src/model/world_affinity.c \
	src/model/world_affinity.h src/model/world_rtbs.c src/model/world_rtbs.h
# the schedutil world's probe (issue 35)
libtunetop_a_SOURCES += src/model/world_schedutil.h
# the field tables of the snapshot JSON objects, shared by out/ and replay.c (issue 33)
libtunetop_a_SOURCES += src/model/snap_fields.c src/model/snap_fields.h
