# SPDX-License-Identifier: GPL-2.0-or-later
libtunetop_a_SOURCES += \
	src/core/xalloc.c src/core/xalloc.h \
	src/core/str.c src/core/str.h \
	src/core/cpumask.c src/core/cpumask.h \
	src/core/timeutil.c src/core/timeutil.h \
	src/core/err.c src/core/err.h \
	src/core/exe.c src/core/exe.h \
	src/core/json.c src/core/json.h \
	src/core/schema.h \
	src/core/sched_sys.c src/core/sched_sys.h
libtunetop_a_SOURCES += src/core/jsonparse.c src/core/jsonparse.h
# an app's own metric: --metric numbers from output or a log (issue 17)
libtunetop_a_SOURCES += src/core/appmetric.c src/core/appmetric.h
libtunetop_a_SOURCES += src/core/jfield.c src/core/jfield.h
