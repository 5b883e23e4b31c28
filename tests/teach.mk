# SPDX-License-Identifier: GPL-2.0-or-later
# tests for issue 8 (explain, findings, record/replay/report, learn): unit
# tests of the JSON reader, the explain table and the findings rules, and
# shell tests that build fixture variants (tests/findings/*.sh).
check_PROGRAMS += tests/unit/test_jsonparse
tests_unit_test_jsonparse_SOURCES = tests/unit/test_jsonparse.c
tests_unit_test_jsonparse_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_jsonparse
check_PROGRAMS += tests/unit/test_findings tests/unit/test_explain
tests_unit_test_findings_SOURCES = tests/unit/test_findings.c
tests_unit_test_findings_LDADD = $(TT_TEST_LIBS)
tests_unit_test_explain_SOURCES = tests/unit/test_explain.c
tests_unit_test_explain_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_findings tests/unit/test_explain
TEACH_SH_TESTS = tests/findings/ignored.sh tests/findings/rules.sh tests/findings/report.sh tests/findings/learn.sh tests/findings/learn_live.sh
TESTS += $(TEACH_SH_TESTS)
EXTRA_DIST += $(TEACH_SH_TESTS) tests/findings/common.sh
check_PROGRAMS += tests/unit/test_record
tests_unit_test_record_SOURCES = tests/unit/test_record.c
tests_unit_test_record_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_record
# issue 35: the model worlds' adapter (model/world_wm.h)
check_PROGRAMS += tests/unit/test_world_wm
tests_unit_test_world_wm_SOURCES = tests/unit/test_world_wm.c
tests_unit_test_world_wm_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_world_wm
# the world models (issue 35): each field note's stages and an input the notes never varied
check_PROGRAMS += tests/unit/test_worldmodel
tests_unit_test_worldmodel_SOURCES = tests/unit/test_worldmodel.c
tests_unit_test_worldmodel_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_worldmodel
# issue 35: the worlds (tunetop world; the model of rk3588-npu through the CLI)
WORLD_SH_TESTS = tests/world/stages_ab.sh tests/world/stages_bc.sh tests/world/stages_d.sh tests/world/model_ddr.sh
WORLD_SH_TESTS += tests/world/probe_why.sh tests/world/learn_idle.sh
WORLD_SH_TESTS += tests/world/learn_worlds.sh
WORLD_SH_TESTS += tests/world/cli_steps.sh
TESTS += $(WORLD_SH_TESTS)
EXTRA_DIST += $(WORLD_SH_TESTS) tests/world/common.sh
# the world's app as the TUI header shows it: its log's tail (issue 35)
check_PROGRAMS += tests/unit/test_world_app
tests_unit_test_world_app_SOURCES = tests/unit/test_world_app.c
tests_unit_test_world_app_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_world_app
# issue 35: the model worlds (model/world_wm.h) through the CLI: field notes 2 and 3
WORLD_WM_SH_TESTS = tests/world/schedutil.sh tests/world/rpmsg.sh
TESTS += $(WORLD_WM_SH_TESTS)
EXTRA_DIST += $(WORLD_WM_SH_TESTS)
# issue 35: a world's late samples as events, attributed by whyattr
check_PROGRAMS += tests/unit/test_world_why
tests_unit_test_world_why_SOURCES = tests/unit/test_world_why.c
tests_unit_test_world_why_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_world_why
# issue 35: the readers of the worlds am5729-affinity and rt-base-station
check_PROGRAMS += tests/unit/test_world_readers
tests_unit_test_world_readers_SOURCES = tests/unit/test_world_readers.c
tests_unit_test_world_readers_LDADD = $(TT_TEST_LIBS)
TESTS += tests/unit/test_world_readers
# issue 35: the worlds am5729-affinity and rt-base-station through the CLI: field notes 4 and 5
WORLD_B_SH_TESTS = tests/world/am5729.sh tests/world/rtbs.sh
TESTS += $(WORLD_B_SH_TESTS)
EXTRA_DIST += $(WORLD_B_SH_TESTS)
# issue 35: ab of the probe in a world, probe --why naming the tree's threads, the schedutil world's probe
WORLD_P_SH_TESTS = tests/world/ab_probe.sh tests/world/probe_schedutil.sh tests/world/why_tree.sh tests/world/why_fix.sh
WORLD_P_SH_TESTS += tests/world/why_throttle.sh tests/world/why_irq.sh
TESTS += $(WORLD_P_SH_TESTS)
EXTRA_DIST += $(WORLD_P_SH_TESTS)
# issue 35: lessons 6 and 7 in their worlds (schedutil, stm32mp1-rpmsg)
WORLD_L2_SH_TESTS = tests/world/learn_worlds2.sh
TESTS += $(WORLD_L2_SH_TESTS)
EXTRA_DIST += $(WORLD_L2_SH_TESTS)
